/*
 * fit-gpu.c - llama.cpp's fitted compute buffer beside a GPU backend, split
 * between the device and the host as ggml's scheduler splits the graph
 * under -ngl: the host's share (fit-host.c: the graph's inputs, what runs
 * on the CPU; here the experts' FFN or a KQ beyond the largest tensor the
 * device claims) and the device's peak (the graph less the rows the host
 * keeps, or, with layers on the host, the phase of a host layer run on
 * the device beside its copied operands). Measured on Vulkan (llvmpipe;
 * base/replica.h), per architecture where the mechanism is not derived
 * (its row's split, facts/archs.c). CUDA and Metal take the same rules,
 * unmeasured.
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

/* Whether the model has expert FFNs (tensors named *_exps.weight). */
static bool
has_experts(const struct planner *pn)
{
	size_t i;

	for (i = 0; i < pn->f->tensors_n; i++)
		if (plan_name_ends(&pn->f->tensors[i], "_exps.weight"))
			return true;
	return false;
}

/* The largest layer's K and V (every stream's cells). */
static uint64_t
layer_kv_max(const struct model_geom *g, const struct plan *pl)
{
	uint64_t kv = 0;
	uint32_t il;

	for (il = 0; il < g->n_layer && il < ARCH_MAX_LAYERS; il++)
		kv = umax(kv, plan_layer_kv(g, pl, il));
	return kv;
}

/*
 * The phases of the model's graph for a ubatch of ub tokens over pl's
 * cells (with the sliding window's, swa) with flash attention (fa), into
 * *ph; returns the whole graph's peak.
 */
static uint64_t
phases_of(const struct planner *pn, const struct plan *pl, uint64_t ub,
    bool swa, bool fa, struct graph_phases *ph)
{
	struct graph_shape s;

	plan_graph_scan(pn->g, pn->f, &s);
	return plan_compute_graph(pn->g, &s, ub, pl->ctx_seq, swa &&
	    pn->g->swa ? pl->swa_cells : 0, fa, ph);
}

/*
 * The copy of a host layer's weight on the device: the scheduler gives
 * each of the layer's weighted operations a split of its own (ggml's
 * scheduler starts a split at a weight on another backend, so that the
 * copies share their room), the weight copied in at the split's start
 * and freed after its operation (GGML_SCHED_DEBUG=2 on Vulkan: one
 * weight an input). So one weight is there at a time: the largest of a
 * repeating layer's (attn: of its attention projections only); of
 * expert FFNs the whole tensor of every expert (the scheduler copies in
 * only the experts a ubatch uses, into a copy of the tensor's size).
 */
static uint64_t
layer_weight(const struct planner *pn, bool attn)
{
	static const char *const proj[] = { ".attn_q.weight",
	    ".attn_k.weight", ".attn_v.weight", ".attn_qkv.weight",
	    ".attn_output.weight", ".attn_q_a.weight", ".attn_q_b.weight",
	    ".attn_kv_a_mqa.weight", ".attn_kv_b.weight", ".attn_k_b.weight",
	    ".attn_v_b.weight" };
	uint64_t top = 0;
	size_t i, k;

	for (i = 0; i < pn->f->tensors_n; i++) {
		const struct gguf_tensor *t = &pn->f->tensors[i];
		int64_t il = plan_tensor_layer(t, pn->g->n_layer);
		bool use = !attn;

		if (!t->size_ok || il < 0 || il >= (int64_t)pn->g->n_layer)
			continue;
		for (k = 0; attn && k < sizeof proj / sizeof proj[0]; k++)
			use = use || plan_name_ends(t, proj[k]);
		if (use)
			top = umax(top, pad32(t->nbytes));
	}
	return top;
}

/*
 * How the device's compute buffer relates to the whole graph's, per
 * architecture (its row's split, facts/archs.c), measured on Vulkan
 * (llvmpipe; llama.cpp v0.5.0, the oracle's models, ctx 512 and 4096, FA
 * on and off, f16 and q8_0 caches, -np 1 and 4, -ngl 99, 2 and 0).
 * kept: the f32 embedding-wide rows of the ubatch (beside its tokens,
 * always kept) that the host holds and the device does not at the
 * device's peak with every layer offloaded: the embeddings input and
 * token_embd's rows where the peak has them live (2, the default), none
 * where it comes later (qwen3, qwen3moe) or the per-layer inputs take
 * their place (gemma3n, per_layer_peak), one for qwen2moe, the encoders,
 * deepseek2 and mamba (mamba 0.98-1.04, deepseek2 0.91-1.10; the
 * default gave 0.90-0.92 at full offload; with several streams
 * deepseek2's device also loses MLA's projection output, plan_mla_host, and
 * without flash attention, with no repeating layer on it, the
 * attention: plan_mla_attention_on_host).
 * host: how the device peaks with layers on the host (the scheduler runs
 * a host layer's operations on the device, copying their operands in):
 * HOST_ADDS, as adds_peak says for a dense model with a KV cache, else
 * one layer's state and a weight (layer_weight) add to the peak of full
 * offload; HOST_PHASE, one phase of a host layer peaks, its attention
 * beside the layer's K and V or its FFN beside a weight; HOST_COPIES as
 * copies_peak says; HOST_LAYERS as layers_peak says.
 * full: how the device peaks with every layer offloaded where the graph
 * less the kept rows is not it: falcon's parallel attention and FFN
 * (parallel_peak), gpt2's learned positions (learned_peak), Mamba-2's
 * with its scan on the host (scan_peak).
 * measured: whether the split holds at those points (plan_gpu_measured;
 * for an architecture not, the plan says compute_estimated).
 * An architecture whose row has no split takes { 2, HOST_ADDS,
 * FULL_GRAPH } and is not measured (arch_split_of).
 */
static struct arch_split
device_split(const struct model_geom *g)
{
	return arch_split_of(arch_row(g));
}

bool
plan_gpu_measured(const struct model_geom *g)
{
	return device_split(g).measured;
}

/*
 * falcon's device with every layer offloaded (attention and FFN in
 * parallel off one norm), measured: not the CPU graph's peak less the
 * host's rows (the scheduler copies a split's inputs in at its start,
 * and ggml-vulkan reorders a split's nodes), fitted on the measured
 * cases: with flash attention the FFN phase holds the masks where the
 * CPU's graph holds the larger of the masks and the attention output,
 * plus half an embedding row with an f16 cache or the rotations with a
 * quantized one; without flash attention the attention phase and two
 * and a half rows. Less the tokens the host keeps. Exact in the 12
 * measured cases (ctx 512 and 4096, FA on and off, f16 and q8_0, -np 1
 * and 4); with layers on the host the default rule stays (an estimate).
 * cohere2 (parallel too, with a sliding window) takes it as the nearer
 * estimate: 0.80-1.03 of its device with every layer offloaded
 * (0.61-0.86 by the default), exact but for 8192 bytes with an f16
 * cache and flash attention.
 */
static uint64_t
parallel_peak(const struct planner *pn, const struct plan *pl, uint64_t c,
    uint64_t ub)
{
	const struct model_geom *g = pn->g;
	uint64_t row = smul(smul(4, ub), g->n_embd), tok = smul(4, ub), p;
	uint64_t mask = plan_mask_bytes(g, pl, ub), room;
	bool q = kv_type_info(pl->kv_k)->quantized ||
	    kv_type_info(pl->kv_v)->quantized;
	struct graph_phases ph;

	if (!pl->flash_attention) {
		p = sadd(c, sadd(smul(2, row), row / 2));
	} else {
		phases_of(pn, pl, ub, true, true, &ph);
		room = umax(mask, row);
		p = sadd(ph.ffn > room ? ph.ffn - room : 0, mask);
		p = sadd(p, q ? plan_rot_bytes(g, pl) : row / 2);
	}
	return p > tok ? p - tok : 0;
}

/*
 * gpt2's device with every layer offloaded (learned positions, added to
 * token_embd's rows on the device), measured: the whole graph with the
 * CPU's layout shift (a quantized cache's), less the tokens and the
 * positions (their only user, position_embd's get_rows, runs on the
 * host) and one embedding row with flash attention, half a row without.
 * Exact in the 12 measured cases (as parallel_peak's).
 */
static uint64_t
learned_peak(const struct planner *pn, const struct plan *pl, uint64_t ub)
{
	const struct model_geom *g = pn->g;
	uint64_t row = smul(smul(4, ub), g->n_embd), kept, c;

	c = phases_of(pn, pl, ub, true, pl->flash_attention, NULL);
	c = plan_quantized_cache(g, pl, c, ub, plan_mask_bytes(g, pl, ub),
	    true);
	kept = sadd(smul(8, ub), pl->flash_attention ? row : row / 2);
	return c > kept ? c - kept : 0;
}

/*
 * The device with layers on the host, where the scheduler runs a host
 * layer's operations on the device one split at a time (copies: qwen3moe,
 * gemma3, llama4). Two phases of a host layer peak: its attention, with
 * the layer's K and V views copied in beside it and, with flash
 * attention, half the masks more (without it the f32 masks' room is
 * reused: a mask less), less the rows the host keeps; or its FFN beside
 * the weight copied in (layer_weight) and no mask (the device's
 * peak there does not grow with the context: gemma3's is the same at
 * 512 and 4096 cells). Fitted on the Vulkan matrix with layers on the
 * host (ctx 512 and 4096, FA on and off, f16 and q8_0 caches, -np 1 and
 * 4, -ngl 2 and 0); the ratios are tests/oracle/README's. Not derived op
 * by op: ggml-alloc's placement of the copies decides.
 */
static uint64_t
copies_peak(const struct planner *pn, const struct plan *pl, uint64_t ub,
    uint64_t kept)
{
	const struct model_geom *g = pn->g;
	uint64_t mask = plan_mask_bytes(g, pl, ub), kv, attn, ffn;
	struct graph_phases ph;

	phases_of(pn, pl, ub, true, pl->flash_attention, &ph);
	kv = sadd(pl->kv_bytes, pl->state_bytes) / g->n_layer;
	attn = sadd(ph.attn, kv);
	if (pl->flash_attention)
		attn = sadd(attn, mask / 2);
	else
		attn = attn > mask ? attn - mask : 0;
	attn = attn > kept ? attn - kept : 0;
	ffn = ph.ffn > mask ? ph.ffn - mask : 0;
	return umax(attn, sadd(ffn, layer_weight(pn, false)));
}

/*
 * falcon's device with layers on the host (SPLIT_HOST_LAYERS), measured: with
 * a repeating layer on the device (-ngl 2 and up) the device runs it as
 * with every layer offloaded (parallel_peak), and a host layer's weight
 * is copied in beside it (layer_weight); with none (-ngl 0 and 1: at
 * most the output layer) the device runs only the host layers' phases,
 * each with its copies: the attention beside one layer's K and V views,
 * the FFN beside the weight, and no row is kept on the host (the
 * embeddings are copied in). The ratios are tests/oracle/README's.
 */
static uint64_t
layers_peak(const struct planner *pn, const struct plan *pl, uint64_t c,
    uint64_t ub)
{
	const struct model_geom *g = pn->g;
	uint64_t kv = sadd(pl->kv_bytes, pl->state_bytes) / g->n_layer;
	uint64_t w = layer_weight(pn, false);
	struct graph_phases ph;

	if (plan_device_layers(g, pl->ngl) > 0)
		return sadd(parallel_peak(pn, pl, c, ub), w);
	phases_of(pn, pl, ub, true, pl->flash_attention, &ph);
	return umax(sadd(ph.attn, kv), sadd(ph.ffn, w));
}

/* Whether the device does not run the model's scan (plan_host_only). */
static bool
scan_on_host(const struct planner *pn)
{
	const struct gguf_tensor *a = plan_tensor_named(pn->f, ".ssm_a");

	return a != NULL && plan_host_only(pn, a);
}

/*
 * Mamba-2's device when its scans run on the host (host_scan: every
 * layer's where the device does not run it, else with layers on the
 * host): the ubatch's per-token live set of the CPU's graph
 * (plan_compute_mamba2 without the per-sequence states and scan blocks, which
 * are the CPU's) and the scan's y copied back, d_inner a token. Measured
 * on Vulkan (llvmpipe): 0.97-1.04 at ctx 512 and 4096, FA on and off,
 * -np 1 and 4, -ngl 99, 2 and 0 (1.00-1.10 at d_state 128, -ngl 2 and 0;
 * there with every layer offloaded the scan runs on the device and the
 * default rule holds, 1.00-1.02).
 */
static uint64_t
scan_peak(const struct planner *pn, uint64_t ub)
{
	return sadd(plan_compute_mamba2(pn->g, pn->f, ub, 0), smul(smul(4, ub),
	    pn->g->ssm_d_inner));
}

/*
 * A hybrid's device with layers on the host: each host layer's weighted
 * operations run there one split at a time, their weights copied in,
 * and the masks are copied in only for an attention the device runs.
 * The largest of: the FFN phase without the masks, beside a weight
 * (layer_weight); the attention phase, where an attention layer runs
 * on the device (one on it, or one on the host that host_attention does
 * not keep there, its K and V copied in: one layer's cache); a Mamba-2
 * layer's per-token live set (compute_granitehybrid's below its
 * threshold, without the states, which stay with the scan on the host).
 * Less the rows the host keeps (kept) but the Mamba-2 one. Measured on
 * Vulkan (llvmpipe, ctx 512 and 4096, FA on and off, f16 and q8_0,
 * -np 1 and 4, -ngl 2 and 0): lfm2 0.91-1.06, granitehybrid 0.90-1.05.
 */
static uint64_t
hybrid_split(const struct planner *pn, const struct plan *pl, uint64_t ub,
    uint64_t kept)
{
	const struct model_geom *g = pn->g;
	uint64_t dl = plan_device_layers(g, pl->ngl), u = smul(4, ub), kv = 0;
	uint64_t mask = plan_mask_bytes(g, pl, ub), ffn, attn = 0, m = 0;
	uint64_t di, xbc;
	struct graph_phases ph;
	bool on = false, copied = false;
	uint32_t il;

	for (il = 0; il < g->n_layer && il < ARCH_MAX_LAYERS; il++) {
		if (g->is_recr[il])
			continue;
		kv = umax(kv, plan_layer_kv(g, pl, il));
		if (il + dl >= g->n_layer)
			on = true;
		else if (il + 1 >= g->n_layer || il + 1 >= ARCH_MAX_LAYERS ||
		    !g->is_recr[il + 1] || il + 1 + dl >= g->n_layer)
			copied = true;
	}
	phases_of(pn, pl, ub, false, pl->flash_attention, &ph);
	ffn = sadd(ph.ffn > mask ? ph.ffn - mask : 0,
	    layer_weight(pn, false));
	if (on || copied)	/* K and V at an attention layer's width */
		attn = sadd(sadd(ph.attn, copied ? kv : 0), g->n_head_kv[0] ?
		    0 : smul(smul(u, 2), plan_kv_width(g)));
	if (g->ssm_n_group > 0) {	/* Mamba-2 layers */
		di = g->ssm_d_inner;
		xbc = sadd(di, smul(smul(2, g->ssm_n_group), g->ssm_d_state));
		m = plan_tensor_rows(pn->f, ".ssm_in.weight");
		m = sadd(m, smul(2, xbc));
		m = sadd(sadd(m, di), fit_beside_cols(g->n_embd));
		m = sadd(smul(u, m), 32);
	}
	ffn = umax(ffn, attn);
	return umax(m, ffn > kept ? ffn - kept : 0);
}

/*
 * Whether the graph peaks while gemma3n's per-layer inputs are built,
 * before the first layer (plan_compute_graph's per_layer): with layers on
 * the host the device then holds that phase without the masks, which
 * the scheduler copies in only for the first attention it runs, later
 * (measured on Vulkan, -ngl 2 and 0, ctx 512 and 4096, -np 1 and 4:
 * 0.98-1.03, but 0.79-0.88 at 4096 cells without flash attention, where
 * the attention's KQ peaks instead; with every layer offloaded it keeps
 * only the tokens off, device_splits' row: 0.97-1.00).
 */
static bool
per_layer_peak(const struct planner *pn)
{
	struct graph_shape s;

	plan_graph_scan(pn->g, pn->f, &s);
	return s.per_layer > 0;
}

/*
 * A dense model's device with layers on the host where the scheduler
 * runs a host layer's operations on it (SPLIT_HOST_ADDS, a KV cache): the
 * largest of the graph's peak with every layer offloaded (full) beside
 * one layer's K and V copied in (the largest layer's: a sliding-window
 * layer's are smaller) and an attention projection's weight; the
 * attention phase beside those K and V; the FFN phase beside the
 * largest weight (layer_weight). Less the rows the host keeps. Measured
 * on Vulkan (llvmpipe) beside the Vulkan matrix's small models on
 * llama-wide (oraclegen_wide: 2048 wide, 5632-wide FFN), whose weights
 * outweigh its activations as a real model's do: 0.91-1.09 with q4_0,
 * q8_0 and f16 weights, where half a layer's weights beside the full
 * peak (the rule before) gave up to 1.50.
 */
static uint64_t
adds_peak(const struct planner *pn, const struct plan *pl, uint64_t ub,
    uint64_t kept, uint64_t full)
{
	uint64_t kv = layer_kv_max(pn->g, pl), attn, ffn;
	struct graph_phases ph;

	phases_of(pn, pl, ub, true, pl->flash_attention, &ph);
	attn = sadd(ph.attn, kv);
	ffn = sadd(ph.ffn, layer_weight(pn, false));
	full = sadd(full, sadd(kv, layer_weight(pn, true)));
	return umax(full, umax(attn, ffn) > kept ? umax(attn, ffn) - kept : 0);
}

/*
 * The device's peak with layers on the host (the table's host): dev is
 * its peak with every layer offloaded, kept the rows the host keeps.
 */
static uint64_t
host_layers_peak(const struct planner *pn, const struct plan *pl,
    const struct arch_split *ds, uint64_t c, uint64_t ub, uint64_t kept,
    uint64_t dev)
{
	const struct model_geom *g = pn->g;
	uint64_t kv = sadd(pl->kv_bytes, pl->state_bytes) / g->n_layer;
	struct graph_phases ph;

	if (ds->host == SPLIT_HOST_COPIES && g->memory == ARCH_MEM_KV)
		return copies_peak(pn, pl, ub, kept);
	if (ds->host == SPLIT_HOST_LAYERS)
		return layers_peak(pn, pl, c, ub);
	if (ds->host == SPLIT_HOST_PHASE && g->memory == ARCH_MEM_KV) {
		phases_of(pn, pl, ub, true, pl->flash_attention, &ph);
		ph.attn = sadd(ph.attn, kv);
		ph.ffn = sadd(ph.ffn, layer_weight(pn, false));
		return umax(dev, umax(ph.attn, ph.ffn) > kept ?
		    umax(ph.attn, ph.ffn) - kept : 0);
	}
	if (g->memory == ARCH_MEM_KV && !has_experts(pn))
		return adds_peak(pn, pl, ub, kept, dev);
	/* no K and V copied in */
	if (plan_mla_attention_on_host(pn, pl)) {
		phases_of(pn, pl, ub, false, false, &ph);
		return sadd(ph.ffn > kept ? ph.ffn - kept : 0,
		    layer_weight(pn, false));
	}
	/* a recurrent model's device peaks elsewhere: measured the same with
	 * q4_0 and f16 weights (mamba, -ngl 2) */
	if (g->memory == ARCH_MEM_RECURRENT)
		return sadd(dev, kv);
	return sadd(dev, sadd(kv, layer_weight(pn, false)));
}

/*
 * Whether the probed device leaves the expert FFNs' weights on the host
 * and every other weight of the layers it holds (plan_falls_back): at
 * least one expert tensor, and no other, falls back.
 */
static bool
experts_fall_back(const struct planner *pn, const struct plan *pl)
{
	bool any = false;
	size_t i;

	for (i = 0; i < pn->f->tensors_n; i++) {
		const struct gguf_tensor *t = &pn->f->tensors[i];

		if (plan_tensor_layer(t, pn->g->n_layer) < 0 ||
		    !plan_falls_back(pn, pl, i))
			continue;
		if (!plan_name_ends(t, "_exps.weight"))
			return false;
		any = true;
	}
	return any;
}

/*
 * Every layer offloaded but the experts' weights (a device that claims no
 * tensor as large: K006): the scheduler gives each layer's expert FFN a
 * split on the CPU (GGML_SCHED_DEBUG=2), the FFN's normed input and the
 * routing's choice (a view of the argsort, every expert's column a
 * token) copied in. The host then holds the CPU's working set of the
 * expert FFN (its graph shape's: the gate's, up's and activation's
 * outputs and the down projection's) beside its inputs; the normed
 * input's copy takes the room of the mask (copied to the device before
 * it) when that is as large, the routing's then comes on top, and when
 * the mask's room holds the gate's and up's outputs too they go there
 * (ggml-alloc's best fit; measured from 32768 cells). The device
 * holds the down projection's output copied back (weighted in place)
 * beside two embedding-wide rows (the FFN's input and the experts' sum),
 * the mask, the router's logits and the experts' weights, or its
 * attention where that is larger. Measured on Vulkan (llvmpipe, whose
 * 128 MiB limit leaves qwen3moe-wide's f16 expert tensors on the host)
 * at -ngl 99, ctx 512 to 32768 with flash attention, 512 and 4096
 * without, -np 1 and 4, f16 and q8_0 caches: device 1.00, host
 * 1.00-1.05.
 */
static void
experts_on_host(const struct planner *pn, struct plan *pl, uint64_t ub)
{
	const struct model_geom *g = pn->g;
	const struct gguf_tensor *e = plan_tensor_named(pn->f, "_exps.weight");
	uint64_t u = smul(4, ub), row = smul(u, g->n_embd), used, n_exp, ids;
	uint64_t mask = plan_mask_bytes(g, pl, ub), dev, host, gu;
	struct graph_shape s;
	struct graph_phases ph;

	used = plan_experts_used(g, pn->f);
	n_exp = e != NULL && e->ne[2] > 0 ? (uint64_t)e->ne[2] : used;
	ids = sadd(smul(smul(4, n_exp), ub - 1), smul(4, used));
	plan_graph_scan(g, pn->f, &s);
	phases_of(pn, pl, ub, true, pl->flash_attention, &ph);
	dev = umax(ph.attn, ph.out);
	dev = dev > sadd(smul(2, row), u) ? dev - sadd(smul(2, row), u) : 0;
	dev = umax(dev, sadd(sadd(smul(smul(u, used), g->n_embd),
	    sadd(smul(2, row), sadd(mask, plan_kv_indices(pn, pl, ub)))),
	    sadd(smul(u, n_exp), smul(smul(2, u), used))));
	gu = smul(smul(smul(2, u), used), plan_tensor_rows(pn->f,
	    "ffn_up_exps.weight"));
	host = sadd(plan_host_inputs(pn, pl, ub), smul(u, s.ffn));
	if (mask >= sadd(sadd(row, ids), gu))	/* the gate and up there too */
		host = host > gu ? host - gu : 0;
	else if (mask >= row)
		host = sadd(host, ids) - row;
	pl->dev[1].compute_bytes = dev;
	pl->dev[0].compute_bytes = host;
}

/* A layer's KQ without flash attention: every head's, f32, over the
 * stream's cells. */
static uint64_t
kq_bytes(const struct planner *pn, const struct plan *pl, uint64_t ub)
{
	return smul(smul(smul(4, ub), pl->ctx_seq), pn->g->n_head[0]);
}

/* Whether the KQ (no flash attention) is beyond the probed device's
 * largest tensor, and nothing else of the attention. */
static bool
kq_on_host(const struct planner *pn, const struct plan *pl, uint64_t ub)
{
	uint64_t lim = pl->max_tensor;

	if (lim == 0 || pl->flash_attention || pn->g->memory != ARCH_MEM_KV ||
	    pn->g->mla || kq_bytes(pn, pl, ub) <= lim)
		return false;
	return plan_mask_bytes(pn->g, pl, ub) <= lim &&
	    layer_kv_max(pn->g, pl) / 2 <= lim;
}

/*
 * Every layer offloaded, no flash attention, and a KQ beyond the largest
 * tensor the device claims: the scheduler runs each layer's KQ, softmax
 * and KQV on the CPU (supports_op refuses them), the layer's K and V
 * copied out of the device's cache. The host then holds, beside its
 * inputs, the KQ and one layer's K and V; the device its FFN phase
 * without the mask (the host's alone now) and with one row fewer kept
 * on the host, or its attention without the KQ. Measured on Vulkan
 * (llvmpipe, 128 MiB) at -ngl 99, 8192 and 16384 cells: host exact for
 * llama-, qwen2-, phi3-, starcoder2- and qwen3moe-wide; device 1.0002
 * (qwen3moe 1.05, its FFN phase's own error).
 */
static void
attention_on_host(const struct planner *pn, struct plan *pl, uint64_t ub,
    uint64_t kept)
{
	const struct model_geom *g = pn->g;
	uint64_t row = smul(smul(4, ub), g->n_embd), kv, less, mask;
	struct graph_phases ph;

	kv = layer_kv_max(g, pl) / (pl->n_stream ? pl->n_stream : 1);
	mask = plan_mask_bytes(g, pl, ub);
	phases_of(pn, pl, ub, true, false, &ph);
	less = sadd(mask, kept > row ? kept - row : 0);
	ph.attn = ph.attn > kq_bytes(pn, pl, ub) ? ph.attn -
	    kq_bytes(pn, pl, ub) : 0;
	pl->dev[1].compute_bytes = umax(ph.ffn > less ? ph.ffn - less : 0,
	    ph.attn > less ? ph.attn - less : 0);
	pl->dev[0].compute_bytes = sadd(plan_host_inputs(pn, pl, ub),
	    sadd(kq_bytes(pn, pl, ub), kv));
}

/* Whether attention_on_host was measured for g's architecture. */
static bool
kq_host_measured(const struct model_geom *g)
{
	return arch_row(g)->fit.kq_host;
}

/* Mark pl's compute estimated, saying why. */
static void
estimated(struct plan *pl, const char *why)
{
	pl->compute_estimated = true;
	pl->compute_why = why;
}

/*
 * The device's peak with the experts' weights kept on the host
 * (--n-cpu-moe) that it claims: ggml's scheduler runs their operations on
 * the device from 32 tokens a ubatch and copies each weight in (the
 * largest one kept on the host: layer_weight's rule, one at a time), the
 * down projection's when the gate's and up's outputs are freed: the FFN
 * phase less those two, beside the weight. Measured on Vulkan (llvmpipe)
 * with qwen3moe-wide's q4_0 experts at -ngl 99 and --n-cpu-moe 1 and 4,
 * ctx 512 and 4096, FA on and off, -np 1 and 4: the device 84 MiB above
 * full offload in every case (4096 cells without FA: above its FFN
 * phase), the host unchanged.
 */
static uint64_t
experts_copied(const struct planner *pn, const struct plan *pl, uint64_t ub,
    uint64_t kept)
{
	uint64_t u = smul(4, ub), gu, w = layer_weight(pn, false), ffn;
	struct graph_phases ph;

	gu = smul(smul(smul(2, u), plan_experts_used(pn->g, pn->f)),
	    plan_tensor_rows(pn->f, "ffn_up_exps.weight"));
	phases_of(pn, pl, ub, true, pl->flash_attention, &ph);
	ffn = sadd(ph.ffn > kept ? ph.ffn - kept : 0, w);
	return ffn > gu ? ffn - gu : 0;
}

/*
 * Whether an attention tensor is beyond the largest tensor the probed
 * device claims (K006's limit): without flash attention the KQ (every
 * head's, over the cells), the mask, or a layer's K or V (taken as half
 * its cache). The scheduler then runs those operations on the CPU: the
 * plan models that split for the KQ alone (attention_on_host), at full
 * offload; others are estimates.
 */
static bool
attention_oversize(const struct planner *pn, const struct plan *pl,
    uint64_t ub)
{
	const struct model_geom *g = pn->g;
	uint64_t lim = pl->max_tensor, kv = layer_kv_max(g, pl), kq;

	if (lim == 0 || g->memory == ARCH_MEM_RECURRENT)
		return false;
	kq = kq_bytes(pn, pl, ub);
	return (!pl->flash_attention && kq > lim) ||
	    plan_mask_bytes(g, pl, ub) > lim || kv / 2 > lim;
}

/*
 * The device's part beside the host's: the graph (without the CPU's
 * layout shift) less the rows the host keeps (device_splits). With
 * layers on the host (-ngl below n_layer + 1, 0 included) ggml's
 * scheduler still runs a ubatch's big operations on the device and
 * copies their operands in, one split at a time: a layer's K and V, and
 * its weights one at a time (layer_weight), beyond full offload or
 * beside the phase that uses them (the table's host: host_layers_peak).
 */
void
plan_llama_gpu_compute(const struct planner *pn, struct plan *pl, uint64_t c,
    uint64_t ub)
{
	const struct model_geom *g = pn->g;
	struct arch_split ds = device_split(g);
	uint64_t kept, dev, kv;
	bool full;

	kept = sadd(smul(smul(4 * (uint64_t)ds.kept, ub), g->n_embd),
	    smul(4, ub));
	dev = c > kept ? c - kept : 0;
	if (ds.full == SPLIT_FULL_PARALLEL &&
	    pl->ngl >= (int64_t)g->n_layer + 1)
		dev = parallel_peak(pn, pl, c, ub);
	if (ds.full == SPLIT_FULL_LEARNED && pl->ngl >= (int64_t)g->n_layer + 1)
		dev = learned_peak(pn, pl, ub);
	if (ds.full == SPLIT_FULL_SCAN && (pl->ngl < (int64_t)g->n_layer + 1 ||
	    scan_on_host(pn)))
		dev = scan_peak(pn, ub);
	if (pl->ngl < (int64_t)g->n_layer + 1 && g->n_layer > 0)
		dev = host_layers_peak(pn, pl, &ds, c, ub, kept, dev);
	if (g->memory == ARCH_MEM_HYBRID && pl->ngl < (int64_t)g->n_layer + 1)
		dev = hybrid_split(pn, pl, ub, kept);
	if (pl->ngl < (int64_t)g->n_layer + 1 && per_layer_peak(pn))
		dev = c > sadd(kept, plan_mask_bytes(g, pl, ub)) ?
		    c - sadd(kept, plan_mask_bytes(g, pl, ub)) : 0;
	plan_mla_host(pn, pl, ub, &kv);	/* MLA's projection on the host */
	pl->dev[1].compute_bytes = dev > kv ? dev - kv : 0;
	pl->dev[0].compute_bytes = plan_host_inputs(pn, pl, ub);
	full = pl->ngl >= (int64_t)g->n_layer + 1 && g->memory == ARCH_MEM_KV &&
	    !g->mla;
	if ((pl->n_fallback > 0 || pl->n_cpu_moe_tensors > 0) &&
	    experts_fall_back(pn, pl) && full) {
		experts_on_host(pn, pl, ub);
		/* measured on qwen3moe's FFN: no shared expert beside */
		if (!arch_row(g)->fit.experts_host)
			estimated(pl, "the experts' FFN on the host: measured "
			    "for qwen3moe only");
	} else if (pl->n_fallback > 0) {
		estimated(pl, "weights the device does not claim stay on the "
		    "host: their split is not modelled");
	} else if (pl->n_cpu_moe_tensors > 0) {
		pl->dev[1].compute_bytes = umax(pl->dev[1].compute_bytes,
		    experts_copied(pn, pl, ub, kept));
		if (!full || !arch_row(g)->fit.experts_host)
			estimated(pl, "--n-cpu-moe: measured for qwen3moe with "
			    "every layer offloaded only");
	}
	if (kq_on_host(pn, pl, ub) && full && !g->swa &&
	    pl->n_fallback == 0 && pl->n_cpu_moe_tensors == 0 &&
	    ds.full == SPLIT_FULL_GRAPH) {
		attention_on_host(pn, pl, ub, kept);
		if (!kq_host_measured(g))
			estimated(pl, "the attention on the host (its KQ "
			    "beyond the largest tensor the device claims): "
			    "not measured for this architecture");
	} else if (attention_oversize(pn, pl, ub))
		estimated(pl, "an attention tensor beyond the largest the "
		    "device claims: the CPU runs it");
}
