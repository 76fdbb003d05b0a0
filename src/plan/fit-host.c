/*
 * fit-host.c - what the host holds of llama.cpp's compute buffer beside a
 * GPU backend, fitted: the graph's inputs and the rows of token_embd's
 * get_rows, whatever -ngl, and what runs on the CPU: a recurrent scan the
 * device cannot run, a hybrid's attention between host layers, MLA's
 * projection with several sequences, the copies of a host layer's K and
 * V. Measured on Vulkan (llvmpipe; base/replica.h); fit-gpu.c takes the
 * device's peak beside them.
 */
#include "config.h"

#include <string.h>

#include "facts/arch.h"
#include "plan/fit-impl.h"
#include "plan/llfacts-impl.h"

#define sadd plan_sadd
#define smul plan_smul
#define umax plan_umax
#define pad32 plan_pad32

static uint64_t
host_copies(const struct planner *pn, const struct plan *pl, uint64_t ub);

/* The first tensor named *suffix, or NULL. */
const struct gguf_tensor *
plan_tensor_named(const struct gguf_file *f, const char *suffix)
{
	size_t i;

	for (i = 0; f != NULL && i < f->tensors_n; i++)
		if (plan_name_ends(&f->tensors[i], suffix))
			return &f->tensors[i];
	return NULL;
}

/* Whether one of the last dl layers (those offloaded) is recurrent. */
static bool
recurrent_on_device(const struct model_geom *g, uint64_t dl)
{
	uint32_t il;

	if (g->memory == ARCH_MEM_RECURRENT)
		return dl > 0;
	for (il = 0; il < g->n_layer && il < ARCH_MAX_LAYERS; il++)
		if (il + dl >= g->n_layer && g->is_recr[il])
			return true;
	return false;
}

/* Whether one of the layers not offloaded (all but the last dl) is
 * recurrent. */
static bool
recurrent_on_host(const struct model_geom *g, uint64_t dl)
{
	uint32_t il;

	if (g->memory == ARCH_MEM_RECURRENT)
		return dl < g->n_layer;
	for (il = 0; il < g->n_layer && il < ARCH_MAX_LAYERS; il++)
		if (il + dl < g->n_layer && g->is_recr[il])
			return true;
	return false;
}

/*
 * The host's share of a recurrent layer's scan beside a GPU backend,
 * where the device does not run it (plan_host_only's ssm_a rule: mamba, and
 * Mamba-2 with a d_state other than 128 and 256) or the layer is on the
 * host (ggml-vulkan offloads no SSM_SCAN): it runs on the CPU in a
 * split of its own, and the scheduler copies its operands to
 * the host: x (Mamba-2: a view of xBC spanning (ub - 1) xBC rows and
 * d_inner), dt (Mamba-2: one value a head), B and C (views spanning
 * (ub - 1) rows of the tensor they are cut from, x_db or xBC, and their
 * own width), and each sequence's SSM state when the layer's state is on
 * the device; the scan writes y and the states beside them. One layer's
 * worth at a time, in the room of one embedding row already copied to
 * the device (GGML_SCHED_DEBUG=2; measured on Vulkan, llvmpipe: mamba,
 * mamba2 and granitehybrid exact, -ngl 99, 2 and 0, -np 1 and 4, also
 * at d_state 128).
 */
static uint64_t
host_scan(const struct planner *pn, const struct plan *pl, uint64_t ub)
{
	const struct model_geom *g = pn->g;
	const struct gguf_tensor *a = plan_tensor_named(pn->f, ".ssm_a");
	uint64_t di = g->ssm_d_inner, ds = g->ssm_d_state, u = smul(4, ub);
	uint64_t w, bc, x, dt, st, n, row = smul(u, g->n_embd);
	uint64_t dl = plan_device_layers(g, pl->ngl);
	bool on_dev = recurrent_on_device(g, dl);
	bool copied = on_dev && a != NULL && plan_host_only(pn, a);

	/* a host layer's scan runs on the CPU beside its state whatever
	 * the device runs (ggml-vulkan offloads no SSM_SCAN) */
	if (a == NULL || ub == 0 || (ub < 32 && !on_dev) || (!copied &&
	    !recurrent_on_host(g, dl)))
		return 0;
	if (g->ssm_n_group == 0) {	/* mamba: B and C cut from x_db */
		w = plan_tensor_rows(pn->f, ".ssm_x.weight");
		bc = ds;
		x = dt = smul(u, di);
	} else {
		w = sadd(di, smul(smul(2, g->ssm_n_group), ds));
		bc = smul(g->ssm_n_group, ds);
		x = smul(4, sadd(smul(ub - 1, w), di));
		dt = smul(u, a->ne[1] > 0 ? (uint64_t)a->ne[1] : 0);
	}
	st = smul(smul(smul(4, ds), di), pl->n_seq);
	n = sadd(sadd(x, dt), smul(8, sadd(smul(ub - 1, w), bc)));
	n = sadd(sadd(n, smul(u, di)), copied ? smul(2, st) : st);
	return n > row ? n - row : 0;
}

/*
 * A hybrid's attention layer kept on the host (-ngl below it) and
 * followed by a recurrent layer also on the host: the device computes
 * its Q, K and V (op offload, from 32 tokens a ubatch), and the attention
 * itself runs on the CPU, as the nodes beside it in the graph are the
 * CPU's (the set_rows into the host's cache before it, the next layer's
 * state reads after it; an attention layer followed by none, as
 * granitehybrid's last, runs on the device with the cache copied in):
 * Q, K and V copied in (rows of their own width: Q n_head heads, K and
 * V the layer's KV width) and the attention's output (flash attention)
 * or its KQ over every cell (without), in the room of the embedding row
 * already on the device. Measured on Vulkan (llvmpipe,
 * GGML_SCHED_DEBUG=2): lfm2 exact at -ngl 2 and 0, ctx 512 and 4096.
 */
static uint64_t
host_attention(const struct planner *pn, const struct plan *pl,
    uint64_t ub)
{
	const struct model_geom *g = pn->g;
	uint64_t dl = plan_device_layers(g, pl->ngl), u = smul(4, ub), n;
	uint64_t h = g->n_head[0], hk = plan_head_width(g, false);
	uint64_t kvk = 0, kvv = plan_kv_width(g);
	bool host = false;
	uint32_t il;

	for (il = 0; il < g->n_layer && il < ARCH_MAX_LAYERS; il++) {
		if (il + 1 + dl < g->n_layer && !g->is_recr[il] &&
		    il + 1 < ARCH_MAX_LAYERS && g->is_recr[il + 1])
			host = true;
		kvk = umax(kvk, smul(hk, g->n_head_kv[il]));
	}
	if (g->memory != ARCH_MEM_HYBRID || !host || ub < 32)
		return 0;
	n = sadd(sadd(smul(u, smul(h, hk)), smul(u, kvk)), smul(u, kvv));
	n = sadd(n, pl->flash_attention ? smul(u, smul(h, plan_head_width(g,
	    true))) : smul(smul(u, pl->ctx_seq), h));
	return n > smul(u, g->n_embd) ? n - smul(u, g->n_embd) : 0;
}

/*
 * The host's inputs and work of a recurrent or hybrid model beside a GPU
 * backend: the state's copy indices (two i32 tensors of one index a
 * sequence, 32-byte aligned); a hybrid's K and V cell indices (V's one
 * an element without flash attention) and a quantized cache's rotations;
 * then the larger of the scan's share (host_scan) and a host attention
 * layer's (host_attention), which run at different times.
 */
static uint64_t
host_recurrent(const struct planner *pn, const struct plan *pl,
    uint64_t ub)
{
	const struct model_geom *g = pn->g;
	uint64_t n = smul(2, pad32(smul(4, pl->n_seq)));

	if (g->memory != ARCH_MEM_RECURRENT && g->memory != ARCH_MEM_HYBRID)
		return 0;
	if (g->memory == ARCH_MEM_HYBRID) {
		n = sadd(n, sadd(smul(8, ub), smul(8, pl->flash_attention ?
		    ub : smul(ub, plan_kv_width(g)))));
		n = sadd(n, plan_rot_matrices(g, pl));
	}
	return sadd(n, umax(host_scan(pn, pl, ub), host_attention(pn, pl,
	    ub)));
}

/*
 * gemma3n's per-layer embeddings beside a GPU backend: the get_rows of
 * per_layer_token_embd (an input-layer tensor, kept on the host) runs
 * on the host, with a tokens input of its own: f32 rows of n_layer x
 * the per-layer width a token, and 4 bytes a token. Measured on Vulkan:
 * the host exact at ctx 512 and 4096, -np 1 and 4, -ngl 99, 2 and 0.
 */
static uint64_t
host_per_layer(const struct planner *pn, uint64_t ub)
{
	const struct gguf_tensor *t = plan_tensor_named(pn->f,
	    "per_layer_token_embd.weight");

	if (t == NULL || t->ne[0] <= 0)
		return 0;
	return smul(smul(4, ub), sadd((uint64_t)t->ne[0], 1));
}

/*
 * Whether MLA's attention (without flash attention, several streams)
 * runs wholly on the CPU, no repeating layer being on the device: the
 * nodes about the host layer's cache are the CPU's, and the 4-D
 * attention's V projection (mla_host) joins them (GGML_SCHED_DEBUG=2:
 * set_rows, the cache's V copied out, KQ, softmax, KQV and attn_v_b in
 * one CPU split). Vulkan's rule.
 */
bool
plan_mla_attention_on_host(const struct planner *pn, const struct plan *pl)
{
	return pn->g->mla && pl->n_stream > 1 && !pl->flash_attention &&
	    plan_backend_is(pn, "vulkan") &&
	    plan_device_layers(pn->g, pl->ngl) == 0;
}

/*
 * MLA (deepseek2) with a cache of several streams (-np above 1, the
 * cache not unified): the attention's output is 4-D, and ggml-vulkan
 * multiplies only operands of the same ne[3], so the V up-projection
 * (attn_v_b) runs on the CPU: the host takes the attention's output
 * copied in (n_head x kv_lora_rank a token) and, with layers on the
 * host, the whole attention of a host layer there (Q and K copied in,
 * n_head + 1 rows of kv_lora_rank + rope width, the attention's output
 * and the projection's, attn_output's input width), in the room of the
 * two embedding rows already on the device. Measured on Vulkan
 * (llvmpipe, GGML_SCHED_DEBUG=2): exact at ctx 4096 with -np 4, -ngl
 * 99, 2 and 0 with flash attention. Without it the host layer's KQ is
 * there too, over every stream's cells, taking the room of the
 * attention's output (exact at ctx 512, 0.96 at 4096, -ngl 2 and 0).
 * dev: what the device no longer holds (the projection's output).
 * Vulkan's rule: other backends add nothing.
 */
uint64_t
plan_mla_host(const struct planner *pn, const struct plan *pl, uint64_t ub,
    uint64_t *dev)
{
	const struct model_geom *g = pn->g;
	const struct gguf_tensor *o = plan_tensor_named(pn->f,
	    ".attn_output.weight");
	uint64_t u = smul(4, ub), h = g->n_head[0], lora = g->kv_lora_rank;
	uint64_t qk = plan_tensor_rows(pn->f, ".attn_kv_a_mqa.weight"), n;
	uint64_t out = o != NULL && o->ne[0] > 0 ? (uint64_t)o->ne[0] : 0;

	*dev = 0;
	if (!g->mla || pl->n_stream <= 1 || !plan_backend_is(pn, "vulkan"))
		return 0;
	*dev = smul(u, out);
	if (pl->ngl >= (int64_t)g->n_layer + 1)
		return smul(smul(u, h), lora);
	n = smul(u, sadd(sadd(smul(h, qk), qk), sadd(smul(h, lora), out)));
	if (!pl->flash_attention)	/* the KQ, over the attention's out */
		n = sadd(n, smul(smul(u, pl->ctx_seq), h) > smul(smul(u, h),
		    lora) ? smul(smul(u, pl->ctx_seq), h) - smul(smul(u, h),
		    lora) : 0);
	return n > smul(smul(8, ub), g->n_embd) ? n - smul(smul(8, ub),
	    g->n_embd) : 0;
}

/*
 * The cache's set_rows indices of a ubatch of ub tokens, every cache's
 * (the sliding window's too): K's a token, and V's a token or, without
 * flash attention (V stored transposed), one an element; none for MLA's
 * V, a view of K. Graph inputs, copied to the device once.
 */
uint64_t
plan_kv_indices(const struct planner *pn, const struct plan *pl, uint64_t ub)
{
	const struct model_geom *g = pn->g;
	uint64_t gqa_v = smul(plan_head_width(g, true), g->n_head_kv[0]);
	uint64_t idx = sadd(smul(8, ub), g->mla ? 0 : smul(8,
	    pl->flash_attention ? ub : smul(ub, gqa_v)));

	return g->memory == ARCH_MEM_KV ? smul(g->swa ? 2 : 1, idx) : 0;
}

/*
 * The host's part of the compute buffer beside a GPU backend (in its host
 * buffer type, Vulkan_Host say), whatever -ngl: the graph's inputs and
 * the rows token_embd's get_rows reads, which runs where token_embd stays.
 * The inputs: the embeddings input and those rows (f32, n_embd a token),
 * tokens, positions and output ids (i32), per KV cache the K and V cell
 * indices (i64; without flash attention V is stored transposed, one
 * index an element), the masks and the rotations; with layers on the
 * host, what their K and V copied back need beyond (host_copies). Exact
 * on Vulkan.
 */
uint64_t
plan_host_inputs(const struct planner *pn, const struct plan *pl, uint64_t ub)
{
	const struct model_geom *g = pn->g;
	uint64_t idx;
	uint64_t n = sadd(smul(smul(8, ub), g->n_embd), smul(g->memory ==
	    ARCH_MEM_RECURRENT ? 8 : 12, ub));	/* no positions */

	n = sadd(n, plan_kv_indices(pn, pl, ub));
	/* learned positions (gpt2, bert): their get_rows runs on the host
	 * beside token_embd's, one more embedding row a token */
	if (plan_tensor_rows(pn->f, "position_embd.weight") > 0)
		n = sadd(n, smul(smul(4, ub), g->n_embd));
	n = sadd(n, host_copies(pn, pl, ub));
	n = sadd(sadd(n, host_recurrent(pn, pl, ub)), plan_mla_host(pn, pl, ub,
	    &idx));
	n = sadd(n, host_per_layer(pn, ub));
	return sadd(sadd(n, plan_mask_bytes(g, pl, ub)), plan_rot_bytes(g, pl));
}

/*
 * With layers on the host, the device computes a host layer's K and V
 * and the scheduler copies them back for the cache's set_rows, into the
 * host's compute buffer. A copy keeps its source's layout: from a fused
 * QKV projection (attn_qkv) V, and K unless RoPE made it anew (learned
 * positions: gpt2), is a view spanning every token's QKV row, (ub - 1)
 * rows and its own width; otherwise (and with a quantized cache's
 * rotations, which make both anew) ub rows of its width. The copies
 * take the room of the embedding rows already copied to the device
 * (token_embd's, and position_embd's); the host grows by the rest.
 * Measured on Vulkan: falcon +783872 and gpt2 +1043456 bytes with an
 * f16 cache, exact at -ngl 2 and 0; none with q8_0. Only where the
 * device runs a host layer's projections: ggml-vulkan takes them from
 * 32 tokens a ubatch (GGML_OP_OFFLOAD_MIN_BATCH's default; the measured
 * ubatches have 512).
 */
static uint64_t
host_copies(const struct planner *pn, const struct plan *pl, uint64_t ub)
{
	const struct model_geom *g = pn->g;
	uint64_t w = plan_tensor_rows(pn->f, ".attn_qkv.weight");
	uint64_t gk = smul(plan_head_width(g, false), g->n_head_kv[0]);
	uint64_t gv = smul(plan_head_width(g, true), g->n_head_kv[0]);
	uint64_t row = smul(smul(4, ub), g->n_embd), room = row, k, v;
	bool learned = plan_tensor_rows(pn->f, "position_embd.weight") > 0;

	if (g->memory != ARCH_MEM_KV || g->n_layer == 0 ||
	    pl->ngl >= (int64_t)g->n_layer + 1 || ub < 32)
		return 0;
	k = smul(smul(4, ub), gk);
	v = smul(smul(4, ub), gv);
	if (w > 0 && plan_rot_bytes(g, pl) == 0) {
		v = smul(4, sadd(smul(ub - 1, w), gv));
		if (learned)
			k = smul(4, sadd(smul(ub - 1, w), gk));
	}
	if (learned)
		room = sadd(room, row);
	return sadd(k, v) > room ? sadd(k, v) - room : 0;
}
