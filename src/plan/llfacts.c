/*
 * llfacts.c - the facts of llama.cpp v0.5.0 that its graph's replica
 * (graph*.c) and the fitted estimates (fit-*.c) share, as the plan's
 * orchestrator (plan-llama.c) does: which weights ggml-cpu repacks, the
 * layer and the device of each weight under -ngl, the probed device's
 * refusals, the head and KV widths, a layer's cache, the masks and the
 * Hadamard rotations of a quantized cache. Each function reads, never
 * writes, the model and the plan.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "facts/arch.h"
#include "kernels/ggml-types.h"
#include "plan/llfacts-impl.h"

#define sadd plan_sadd
#define smul plan_smul
#define umax plan_umax
#define pad32 plan_pad32

/* ---- repacking (ggml-cpu repack.cpp, ggml_repack_get_optimal_...) ------ */

unsigned
plan_repacks(uint32_t type, int64_t ne1, uint32_t f)
{
	bool avx2 = f & CPU_FEAT_AVX2, neon = f & CPU_FEAT_NEON;
	bool dot = neon && (f & CPU_FEAT_DOTPROD);
	bool mm = neon && (f & CPU_FEAT_I8MM);

	switch (type) {
	case GGML_TYPE_Q4_0:
		if (avx2 && ne1 % 8 == 0)
			return 8;
		return (mm || dot) && ne1 % 4 == 0 ? 4 : 0;
	case GGML_TYPE_Q4_K:
		return (avx2 || mm || dot) && ne1 % 8 == 0 ? 8 : 0;
	case GGML_TYPE_Q2_K:
		return (f & CPU_FEAT_AVX512) && ne1 % 8 == 0 ? 8 : 0;
	case GGML_TYPE_Q5_K:
	case GGML_TYPE_Q6_K:
		return (mm || dot) && ne1 % 8 == 0 ? 8 : 0;
	case GGML_TYPE_IQ4_NL:
	case GGML_TYPE_MXFP4:
		if (avx2 && ne1 % 8 == 0)
			return 8;
		return dot && ne1 % 4 == 0 ? 4 : 0;
	case GGML_TYPE_Q8_0:
	case GGML_TYPE_Q1_0:
		return (mm || dot) && ne1 % 4 == 0 ? 4 : 0;
	default:
		return 0;
	}
}

/* Tensors llama.cpp reads with get_rows (its tensor table's GET_ROWS). */
static bool
read_by_rows(const char *name)
{
	static const char *const rows[] = { "token_embd.", "pos_embd.",
	    "position_embd.", "token_types.", "per_layer_token_embd.",
	    "enc.token_embd." };
	size_t i;

	for (i = 0; i < sizeof rows / sizeof rows[0]; i++)
		if (strncmp(name, rows[i], strlen(rows[i])) == 0)
			return true;
	/* DSV4's position tables of its compressors, its token-id
	 * routing */
	return strstr(name, "nextn.embed_tokens") != NULL ||
	    strstr(name, "compressor_ape.") != NULL ||
	    strstr(name, ".ffn_gate_tid2eid.") != NULL;
}

/* An embedded adapter's stack of LoRA matrices: blk.N.NAME.lora_a or
 * .lora_b, a product's name without .weight. */
static bool
embedded_lora(const char *name)
{
	size_t n = strlen(name);

	return n > 7 && (strcmp(name + n - 7, ".lora_a") == 0 ||
	    strcmp(name + n - 7, ".lora_b") == 0) &&
	    strstr(name, ".weight.") == NULL;
}

bool
plan_tensor_repacked(const struct gguf_tensor *t, uint32_t features)
{
	char name[128];
	size_t n = t->name.n < sizeof name - 1 ? t->name.n :
	    sizeof name - 1;
	bool experts;

	memcpy(name, t->name.p, n);
	name[n] = '\0';
	/* the MUL_MAT_ID weights: experts, grovemoe's chunk experts,
	 * graniteswitch's embedded LoRA stacks (NAME.lora_a, not an
	 * adapter file's NAME.weight.lora_a) */
	experts = strstr(name, "_exps.") != NULL ||
	    strstr(name, "_chexps.") != NULL || embedded_lora(name);
	/* RWKV-6's time_mix_first is its wkv op's, not a product's;
	 * DSV4's attn_output_a is loaded as a stack of one matrix an
	 * output group (its real models' 8; one group would repack) */
	if (!t->size_ok || read_by_rows(name) || t->ne[3] != 1 ||
	    (t->ne[2] != 1 && !experts) || t->ne[1] < 2 ||
	    strstr(name, ".time_mix_first.") != NULL ||
	    strstr(name, ".attn_output_a.") != NULL)
		return false;
	/* Only weights: a quantized bias or norm does not exist. */
	return plan_repacks(t->type, t->ne[1], features) != 0;
}

/* ---- weights ------------------------------------------------------------ */

/* The layer of a tensor: blk.N is N, output* is n_layer, else -1 (input). */
int64_t
plan_tensor_layer(const struct gguf_tensor *t, uint32_t n_layer)
{
	const char *s = t->name.p;
	size_t len = t->name.n;
	int64_t il = 0;
	size_t i;

	if (len > 4 && memcmp(s, "blk.", 4) == 0) {
		for (i = 4; i < len && s[i] >= '0' && s[i] <= '9' &&
		    il < 1 << 20; i++)
			il = il * 10 + (s[i] - '0');
		return i > 4 && i < len && s[i] == '.' ? il : -1;
	}
	if (len >= 7 && memcmp(s, "output.", 7) == 0)
		return n_layer;
	if (len >= 12 && memcmp(s, "output_norm.", 12) == 0)
		return n_layer;
	return -1;
}

int64_t
plan_llama_layer(const struct gguf_tensor *t, uint32_t n_layer)
{
	return plan_tensor_layer(t, n_layer);
}

bool
plan_backend_is(const struct planner *pn, const char *backend)
{
	return pn->p->backend != NULL && strcmp(pn->p->backend, backend) == 0;
}

/* Experts a token uses (the file's expert_used_count), else 1. */
uint64_t
plan_experts_used(const struct model_geom *g, const struct gguf_file *f)
{
	char key[96];
	int64_t v;

	snprintf(key, sizeof key, "%s.expert_used_count", g->arch);
	return f != NULL && gguf_find_int(f, key, &v) && v > 0 &&
	    v <= 1 << 16 ? (uint64_t)v : 1;
}

/*
 * llama.cpp's weight_buft_supported (v0.5.0) builds, for weight w, its
 * operation over 512 tokens: get_rows for the embeddings (512 rows out),
 * mul_mat_id for stacked experts (each token's used experts' activations
 * in and results out), add_id for their biases, mul_mat for any other
 * matrix, add or mul (an f32 operand of w's shape) for a vector. Other
 * operations' tests (a convolution's, a scan's) are taken as a matrix
 * product's: at any published size theirs are far below a device's
 * limit.
 */
uint64_t
plan_claim_bytes(const struct model_geom *g, const struct gguf_file *f,
    const struct gguf_tensor *t)
{
	uint64_t ne[GGUF_MAX_DIMS], n = 1, rows, top = t->nbytes, tok = 512;
	int j;

	for (j = 0; j < GGUF_MAX_DIMS; j++) {
		ne[j] = t->ne[j] > 0 ? (uint64_t)t->ne[j] : 1;
		n = plan_smul(n, ne[j]);
	}
	rows = plan_smul(ne[2], ne[3]);
	switch (weight_op(t)) {
	case WOP_GET_ROWS:
		return plan_umax(top, plan_smul(4 * tok, ne[0]));
	case WOP_MUL_MAT_ID:
		tok = plan_smul(tok, plan_experts_used(g, f));
		return plan_umax(top, plan_smul(4 * tok, plan_umax(ne[0],
		    ne[1])));
	case WOP_ADD_ID:
		return plan_umax(top, plan_smul(plan_smul(4 * tok, ne[0]),
		    plan_experts_used(g, f)));
	case WOP_VECTOR:
		return plan_umax(top, plan_smul(4, n));
	case WOP_MUL_MAT:
		break;
	}
	return plan_umax(top, plan_smul(plan_smul(4 * tok, rows),
	    plan_umax(ne[0], ne[1])));
}

bool
plan_oversize(const struct planner *pn, const struct plan *pl,
    const struct gguf_tensor *t)
{
	return pl->n_dev > 1 && pl->max_tensor > 0 &&
	    plan_claim_bytes(pn->g, pn->f, t) > pl->max_tensor;
}

/*
 * Whether the tied output, token_embd's copy llama.cpp multiplies as the
 * output matrix, is beyond the device's largest tensor: its claim test
 * is a matrix product's over 512 tokens (weight_buft_supported), whose
 * result is a row of the vocabulary a token (a 128k vocabulary's, 256
 * MiB).
 */
bool
plan_tied_oversize(const struct plan *pl, const struct gguf_tensor *emb)
{
	uint64_t ne0 = emb->ne[0] > 0 ? (uint64_t)emb->ne[0] : 1;
	uint64_t ne1 = emb->ne[1] > 0 ? (uint64_t)emb->ne[1] : 1;
	uint64_t claim = plan_umax(emb->nbytes,
	    plan_smul(4 * 512, plan_umax(ne0, ne1)));

	return pl->n_dev > 1 && pl->max_tensor > 0 && claim > pl->max_tensor;
}

/*
 * Whether the probed GPU does not claim tensor i's operation (K003) or
 * its claim test has a tensor too large for it (K006): llama.cpp then
 * passes over the device's buffer types and its host buffer type (the
 * device is asked again there) to the CPU's, CPU_REPACK first.
 */
bool
plan_falls_back(const struct planner *pn, const struct plan *pl, size_t i)
{
	return (pl->probed && pn->probe->fallback != NULL &&
	    pn->probe->fallback[i]) ||
	    plan_oversize(pn, pl, &pn->f->tensors[i]);
}

/*
 * The first full-attention (not sliding-window) layer from layer from, or
 * -1: where an ARCH_ROPE_FULL architecture creates rope_freqs.
 */
int64_t
plan_rope_layer(const struct model_geom *g, uint32_t from)
{
	uint32_t il;

	for (il = from; il < g->n_layer && il < ARCH_MAX_LAYERS; il++)
		if (!(g->swa && g->is_swa[il]))
			return il;
	return -1;
}

/* WavTokenizer's blocks (POS_NET_*, CONVNEXT_*: repeating-layer
 * tensors): posnet.N and convnext.N are layer N, conv1d layer 0; -1
 * for any other name. */
static int64_t
stack_layer(const struct gguf_tensor *t)
{
	static const char *const stacks[] = { "posnet.", "convnext." };
	const char *s = t->name.p;
	size_t i, k, len = t->name.n, n;
	int64_t il = 0;

	if (len > 7 && memcmp(s, "conv1d.", 7) == 0)
		return 0;
	for (k = 0; k < sizeof stacks / sizeof stacks[0]; k++) {
		n = strlen(stacks[k]);
		if (len <= n || memcmp(s, stacks[k], n) != 0)
			continue;
		for (i = n; i < len && s[i] >= '0' && s[i] <= '9' &&
		    il < 1 << 20; i++)
			il = il * 10 + (s[i] - '0');
		return i > n && i < len && s[i] == '.' ? il : -1;
	}
	return -1;
}

/*
 * The layer whose device holds tensor t: plan_tensor_layer's, but for the
 * token_embd_norm tensors (llama.cpp's tensor table: TOKEN_EMBD_NORM is
 * a repeating-layer tensor created in layer 0, so it goes with layer 0;
 * lfm2's, loaded as its output norm, OUTPUT_NORM_LFM2, with the output
 * layer: the converter named it wrongly); gemma3n's per-layer input
 * projection and its norm (PER_LAYER_MODEL_PROJ, PER_LAYER_PROJ_NORM:
 * repeating-layer tensors too) with layer 0, its AltUp projections
 * (ALTUP_PROJ, ALTUP_UNEMBD_PROJ: output-layer tensors) with the output
 * layer, and so DSV4's hyper-connections' head (HC_HEAD_*: output_hc_*)
 * (measured: exact on Vulkan at -ngl 99, 2 and 0); and
 * WavTokenizer's blocks with their layers (stack_layer).
 */
int64_t
plan_weight_layer(const struct planner *pn, const struct gguf_tensor *t)
{
	static const char norm[] = "token_embd_norm.";
	static const struct {
		const char *prefix;
		bool output;
	} outside[] = { { "per_layer_model_proj.", false },
	    { "per_layer_proj_norm.", false }, { "altup_proj.", true },
	    { "altup_unembd_proj.", true }, { "output_hc_", true } };
	size_t i, n;

	/* every layer creates rope_freqs (an ARCH_ROPE_FULL architecture's
	 * full-attention layers alone), the first its own, the rest a
	 * duplicate (plan-llama.c's rope_copy) */
	if (gguf_str_eq(t->name, "rope_freqs.weight"))
		return (arch_row(pn->g)->quirks & ARCH_ROPE_FULL) ?
		    plan_rope_layer(pn->g, 0) : 0;
	if (t->name.n >= sizeof norm - 1 &&
	    memcmp(t->name.p, norm, sizeof norm - 1) == 0)
		return arch_row(pn->g)->quirks & ARCH_EMBD_NORM_OUTPUT ?
		    pn->g->n_layer : 0;
	for (i = 0; i < sizeof outside / sizeof outside[0]; i++) {
		n = strlen(outside[i].prefix);
		if (t->name.n >= n && memcmp(t->name.p, outside[i].prefix,
		    n) == 0)
			return outside[i].output ? pn->g->n_layer : 0;
	}
	if (stack_layer(t) >= 0)
		return stack_layer(t);
	return plan_tensor_layer(t, pn->g->n_layer);
}

/* Whether tensor t's name ends with suffix. */
bool
plan_name_ends(const struct gguf_tensor *t, const char *suffix)
{
	size_t n = strlen(suffix);

	return t->name.n >= n && memcmp(t->name.p + t->name.n - n, suffix,
	    n) == 0;
}

/*
 * Whether tensor t stays in the host's own (CPU) buffer whatever -ngl:
 * llama.cpp puts a weight in the first buffer type whose device runs the
 * operation that uses it, and ggml-vulkan (0.25.1) runs SSM_SCAN, which
 * uses ssm_a, only in Mamba-2's form (ssm_a one value a head: ne[0] 1,
 * ne[1] the heads) with a d_state of 128 or 256 and heads a multiple of
 * 16 wide; otherwise ssm_a goes to the CPU (measured: mamba's, and with
 * d_state 64 mamba2's and granitehybrid's, in the CPU buffer at -ngl 99).
 * A Gated DeltaNet's ssm_a is only multiplied (ARCH_SSM_A_MUL): on the
 * device (measured: qwen35's). ggml-cuda (v0.5.0, read in its source,
 * not measured) runs Mamba-2's form as Vulkan does, and Mamba's (ssm_a
 * [d_state, d_inner]) with a d_state of 16, d_inner a multiple of 128
 * and one group. On Vulkan, WavTokenizer's PosNet attention weights
 * ([1, n, n] each) stay in the CPU buffer too (measured at -ngl 99, 2
 * and 0).
 */
bool
plan_host_only(const struct planner *pn, const struct gguf_tensor *t)
{
	const struct model_geom *g = pn->g;
	uint64_t heads = t->ne[1] > 0 ? (uint64_t)t->ne[1] : 0;
	bool cuda = plan_backend_is(pn, "cuda");

	if (plan_backend_is(pn, "vulkan") && t->name.n > 7 &&
	    memcmp(t->name.p, "posnet.", 7) == 0 && t->n_dims == 3 &&
	    t->ne[0] == 1)
		return true;
	if ((!cuda && !plan_backend_is(pn, "vulkan")) ||
	    !plan_name_ends(t, ".ssm_a") ||
	    (arch_row(g)->quirks & ARCH_SSM_A_MUL))
		return false;
	if (cuda && t->ne[0] != 1)
		return t->ne[0] != 16 || heads == 0 || heads % 128 != 0 ||
		    g->ssm_n_group > 1;
	return t->ne[0] != 1 || (g->ssm_d_state != 128 &&
	    g->ssm_d_state != 256) || heads == 0 ||
	    (g->ssm_d_inner / heads) % 16 != 0;
}

/*
 * What a CUDA buffer adds to tensor t past its bytes (ggml-cuda's
 * get_alloc_size, v0.5.0): a quantized tensor whose rows are not a
 * multiple of 512 elements (MATRIX_ROW_PADDING) wide gets the rest of
 * one such row, so that its kernels may read past the last row.
 */
uint64_t
plan_cuda_row_pad(const struct gguf_tensor *t)
{
	const struct ggml_type_info *ti = ggml_type_get(t->type);
	uint64_t ne0 = t->n_dims > 0 && t->ne[0] > 0 ? (uint64_t)t->ne[0] : 0;
	uint64_t rest;

	if (ti == NULL || ti->blck <= 1 || ne0 % PLAN_CUDA_ROW_PADDING == 0)
		return 0;
	rest = PLAN_CUDA_ROW_PADDING - ne0 % PLAN_CUDA_ROW_PADDING;
	return rest / ti->blck * ti->size;
}

/* ---- KV, compute, output ------------------------------------------------ */

/* Layers on the device under -ngl (output layer excluded). */
uint64_t
plan_device_layers(const struct model_geom *g, int64_t ngl)
{
	/* the output layer is offloaded first */
	uint64_t n = ngl > 1 ? (uint64_t)ngl - 1 : 0;

	return n > g->n_layer ? g->n_layer : n;
}

uint64_t
plan_tensor_cols(const struct gguf_tensor *t)
{
	return t->ne[1] > 0 ? (uint64_t)t->ne[1] : 0;
}

/* Rows of the first tensor named *suffix (ne[1]), or 0. */
uint64_t
plan_tensor_rows(const struct gguf_file *f, const char *suffix)
{
	size_t i;

	for (i = 0; f != NULL && i < f->tensors_n; i++)
		if (plan_name_ends(&f->tensors[i], suffix))
			return plan_tensor_cols(&f->tensors[i]);
	return 0;
}

/* The head width of K (or V): the geometry's, else n_embd / n_head. */
uint64_t
plan_head_width(const struct model_geom *g, bool v)
{
	uint64_t h = v ? g->head_v : g->head_k;

	if (h == 0 && g->n_head[0] > 0)
		h = g->n_embd / g->n_head[0];
	return h;
}

/*
 * The Hadamard matrices llama.cpp rotates Q and K (attn_rot_k) and V
 * (attn_rot_v) with when the cache holds a quantized type and every
 * layer's head width is a multiple of 64: graph inputs, f32, nrot x nrot,
 * one per KV cache (a sliding-window model has two). K's nrot is the
 * largest power of two from 64 up that divides the head width; V's is 64.
 * MLA has no V heads of its own.
 */
uint64_t
plan_rot_matrices(const struct model_geom *g, const struct plan *pl)
{
	uint64_t caches = g->swa ? 2 : 1, hk = plan_head_width(g, false);
	uint64_t hv = plan_head_width(g, true), nrot = 64, n = 0;

	if (g->swa && ((g->head_k_swa && g->head_k_swa != g->head_k) ||
	    (g->head_v_swa && g->head_v_swa != g->head_v)))
		return 0;
	if (kv_type_info(pl->kv_k)->quantized && hk > 0 && hk % 64 == 0) {
		while (hk % (nrot * 2) == 0 && nrot < 1 << 16)
			nrot *= 2;
		n = smul(smul(4, nrot), nrot);
	}
	if (kv_type_info(pl->kv_v)->quantized && !g->mla && hv > 0 &&
	    hv % 64 == 0)
		n = sadd(n, 64 * 64 * 4);
	return smul(n, caches);
}

/* The rotations of a KV cache (none for other memories). */
uint64_t
plan_rot_bytes(const struct model_geom *g, const struct plan *pl)
{
	return g->memory == ARCH_MEM_KV ? plan_rot_matrices(g, pl) : 0;
}

/* The masks of one ubatch: f16 with flash attention, else f32. */
uint64_t
plan_mask_bytes(const struct model_geom *g, const struct plan *pl, uint64_t ub)
{
	uint64_t cells = g->memory == ARCH_MEM_NONE ? ub :
	    sadd(pl->ctx_seq, g->swa ? pl->swa_cells : 0);

	if (g->memory == ARCH_MEM_RECURRENT)
		return 0;
	return smul(smul(pl->flash_attention ? 2 : 4, ub), cells);
}

/* The widest KV width of any layer (a hybrid's layer 0 may have none). */
uint64_t
plan_kv_width(const struct model_geom *g)
{
	uint32_t il, h = 0;

	for (il = 0; il < g->n_layer && il < ARCH_MAX_LAYERS; il++)
		h = g->n_head_kv[il] > h ? g->n_head_kv[il] : h;
	return smul(plan_head_width(g, true), h);
}

/* One layer's cache in every stream: its cells of K and V rows. */
uint64_t
plan_layer_cache_tensor(const struct model_geom *g, const struct plan *pl,
    uint32_t il, bool *is_v)
{
	bool swa = g->swa && g->is_swa[il];
	uint64_t hk = swa && g->head_k_swa ? g->head_k_swa : g->head_k;
	uint64_t hv = swa && g->head_v_swa ? g->head_v_swa : g->head_v;
	uint64_t cells = smul(swa ? pl->swa_cells : pl->ctx_seq,
	    pl->n_stream);
	uint64_t k = smul(kv_row_bytes(pl->kv_k, smul(hk, g->n_head_kv[il])),
	    cells);
	uint64_t v = smul(kv_row_bytes(pl->kv_v, smul(hv, g->n_head_kv[il])),
	    cells);

	*is_v = v > k;
	return g->dsv4 ? 0 : v > k ? v : k;
}

uint64_t
plan_layer_kv(const struct model_geom *g, const struct plan *pl, uint32_t il)
{
	bool swa = g->swa && g->is_swa[il];
	uint64_t hk = swa && g->head_k_swa ? g->head_k_swa : g->head_k;
	uint64_t hv = swa && g->head_v_swa ? g->head_v_swa : g->head_v;
	uint64_t cells = swa ? pl->swa_cells : pl->ctx_seq;
	uint64_t row = sadd(kv_row_bytes(pl->kv_k, smul(hk, g->n_head_kv[il])),
	    kv_row_bytes(pl->kv_v, smul(hv, g->n_head_kv[il])));

	if (g->indexer[il])	/* the indexer's keys (QSA, MSA) */
		row = sadd(row, kv_row_bytes(pl->kv_k, g->indexer_k));
	if (g->indexer[il] && g->indexer_v)	/* MSA's V head */
		row = sadd(row, kv_row_bytes(pl->kv_v, g->head_v));
	if (g->dsv4)	/* its K rows, its compressors' state */
		return sadd(smul(plan_dsv4_layer_kv(g, pl->kv_k, pl->ctx_seq,
		    pl->swa_cells, il), pl->n_stream),
		    smul(plan_dsv4_layer_state(g, il), pl->n_seq));

	return smul(smul(row, cells), pl->n_stream);
}
