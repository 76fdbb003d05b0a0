/*
 * plan-llama.c - llama.cpp's memory plan (profiles with runtime
 * llama.cpp): where each weight goes (a file mapping, the host heap,
 * ggml-cpu's CPU_REPACK copy, a GPU's buffers under -ngl), the KV cache
 * with K and V types of their own, streams for -np and the sliding-window
 * cache (memory-and-kv.md §3-§8), the output buffer and the compute
 * buffer of one ubatch, per device, and the verdict against each device's
 * memory. Facts from llama.cpp v0.5.0 (ggml 0.25.1) as measured with its
 * own libraries; no auto-switch of the cache type (llama.cpp never does).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/ggml-types.h"
#include "plan/plan-impl.h"

#define sadd plan_sadd
#define smul plan_smul

#define TENSOR_ALIGN 32		/* ggml-cpu's TENSOR_ALIGNMENT */

static uint64_t
umin(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

static uint64_t
umax(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

static uint64_t
pad32(uint64_t n)
{
	return n > UINT64_MAX - TENSOR_ALIGN ? UINT64_MAX :
	    (n + TENSOR_ALIGN - 1) / TENSOR_ALIGN * TENSOR_ALIGN;
}

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
	return strstr(name, "nextn.embed_tokens") != NULL;
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
	experts = strstr(name, "_exps.") != NULL;
	if (!t->size_ok || read_by_rows(name) || t->ne[3] != 1 ||
	    (t->ne[2] != 1 && !experts) || t->ne[1] < 2)
		return false;
	/* Only weights: a quantized bias or norm does not exist. */
	return plan_repacks(t->type, t->ne[1], features) != 0;
}

/* ---- settings ----------------------------------------------------------- */

void
plan_llama_setup(const struct planner *pn, struct plan *pl)
{
	const struct plan_request *rq = pn->rq;
	const struct profile *p = pn->p;
	enum kv_type both = rq->kv_set ? rq->kv : p->kv_cache;

	pl->kv_k = rq->kv_k_set ? rq->kv_k : both;
	pl->kv_v = rq->kv_v_set ? rq->kv_v : both;
	pl->kv_explicit = rq->kv_set || rq->kv_k_set || rq->kv_v_set;
	/* auto (the default) is on: the CPU and the GPU backends run it */
	pl->flash_attention = rq->fa == PLAN_FA_PROFILE ? p->flash_attention :
	    rq->fa != PLAN_FA_OFF;
	/* FA auto with a quantized V: llama.cpp turns FA on itself. */
	if (rq->fa == PLAN_FA_AUTO && kv_type_info(pl->kv_v)->quantized)
		pl->flash_attention = true;
	pl->n_seq = rq->n_seq ? rq->n_seq : p->n_seq ? p->n_seq : 1;
	pl->n_batch = rq->batch ? rq->batch : p->batch;
	pl->n_ubatch = rq->ubatch ? rq->ubatch : p->ubatch;
	pl->swa_full = rq->swa_full;
	pl->mmap = !rq->no_mmap && p->weights == WEIGHTS_MAPPED;
	pl->ngl = rq->ngl_set ? rq->ngl : p->gpu_layers;
	if (!profile_gpu(p))
		pl->ngl = 0;
	else if (pl->ngl < 0 || pl->ngl > (int64_t)pn->g->n_layer + 1)
		pl->ngl = (int64_t)pn->g->n_layer + 1;
}

/* ---- weights ------------------------------------------------------------ */

/* The layer of a tensor: blk.N is N, output* is n_layer, else -1 (input). */
static int64_t
tensor_layer(const struct gguf_tensor *t, uint32_t n_layer)
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

static void
name_devices(const struct profile *p, struct plan *pl)
{
	static const struct {
		const char *backend, *dev;
	} names[] = { { "cuda", "CUDA0" }, { "metal", "MTL0" },
	    { "vulkan", "Vulkan0" }, { "opencl", "GPUOpenCL" },
	    { "sycl", "SYCL0" }, { "rocm", "ROCm0" }, { "hip", "ROCm0" } };
	size_t i;

	memset(pl->dev, 0, sizeof pl->dev);
	snprintf(pl->dev[0].name, sizeof pl->dev[0].name, "CPU");
	pl->dev[0].host = true;
	pl->n_dev = 1;
	if (!profile_gpu(p))
		return;
	pl->n_dev = 2;
	pl->dev[1].host = p->unified;
	snprintf(pl->dev[1].name, sizeof pl->dev[1].name, "%s", p->backend);
	for (i = 0; i < sizeof names / sizeof names[0]; i++)
		if (strcmp(p->backend, names[i].backend) == 0)
			snprintf(pl->dev[1].name, sizeof pl->dev[1].name, "%s",
			    names[i].dev);
}

int64_t
plan_llama_layer(const struct gguf_tensor *t, uint32_t n_layer)
{
	return tensor_layer(t, n_layer);
}

/* Whether a device of the profile runs tensor i (its table feeds it). */
static bool
device_runs(const struct planner *pn, size_t i)
{
	const struct weight_form *w = pn->forms ? &pn->forms[i] : NULL;

	return w == NULL || w->entry != NULL ||
	    ggml_type_get(pn->f->tensors[i].type) == NULL ||
	    ggml_type_get(pn->f->tensors[i].type)->blck == 1;
}

/*
 * Tied embeddings: without output.weight llama.cpp loads token_embd a
 * second time as the output matrix, multiplied by mul_mat, so the CPU
 * repacks that copy (an encoder has no output matrix); beside a GPU
 * backend the copy is the device's when the output layer is offloaded.
 */
static void
tied_output(const struct planner *pn, struct plan *pl)
{
	const struct gguf_tensor *emb = NULL;
	size_t i;

	if (pn->g->memory == ARCH_MEM_NONE || (pl->n_dev > 1 && pl->ngl < 1))
		return;
	for (i = 0; i < pn->f->tensors_n; i++) {
		const struct gguf_tensor *t = &pn->f->tensors[i];

		if (t->name.n == 13 && memcmp(t->name.p, "output.weight",
		    13) == 0)
			return;
		if (t->name.n == 17 && memcmp(t->name.p,
		    "token_embd.weight", 17) == 0)
			emb = t;
	}
	if (emb != NULL && emb->size_ok && pl->n_dev > 1) {
		pl->dev[1].model_bytes = sadd(pl->dev[1].model_bytes,
		    pad32(emb->nbytes));
		return;
	}
	if (emb == NULL || !emb->size_ok || emb->ne[2] != 1 ||
	    emb->ne[3] != 1 || emb->ne[1] < 2 ||
	    !plan_repacks(emb->type, emb->ne[1], pn->p->cpu_features))
		return;
	pl->dev[0].repack_bytes = sadd(pl->dev[0].repack_bytes,
	    pad32(emb->nbytes));
	pl->n_repacked++;
}

/*
 * Whether the probed GPU does not claim tensor i's operation: llama.cpp
 * then passes over the device's buffer types and its host buffer type
 * (the device is asked again there) to the CPU's, CPU_REPACK first.
 */
static bool
falls_back(const struct planner *pn, const struct plan *pl, size_t i)
{
	return pl->probed && pn->probe->fallback != NULL &&
	    pn->probe->fallback[i];
}

/* The probe's device in pl, and its counts zeroed (a plan again). */
static void
probed_device(const struct planner *pn, struct plan *pl)
{
	pl->probed = pn->probe != NULL && pn->probe->device != NULL &&
	    pl->n_dev > 1;
	pl->fallback_bytes = 0;
	pl->n_fallback = 0;
	memset(pl->probed_dev, 0, sizeof pl->probed_dev);
	if (pl->probed)
		snprintf(pl->probed_dev, sizeof pl->probed_dev, "%s",
		    pn->probe->device);
}

/*
 * Whether layer il is one of the MTP (nextn) layers at the end: llama.cpp
 * (v0.5.0, load_mtp off, its default) creates their tensors skipped, so
 * they are in no buffer, yet they count in -ngl's placement (n_layer_all)
 * and keep no KV cache (the cache filters them).
 */
static bool
mtp_layer(const struct model_geom *g, int64_t il)
{
	return g->n_layer_nextn > 0 && il < (int64_t)g->n_layer &&
	    il >= (int64_t)(g->n_layer - g->n_layer_nextn);
}

/*
 * The layer whose device holds tensor t: tensor_layer's, but for the
 * token_embd_norm tensors (llama.cpp's tensor table: TOKEN_EMBD_NORM is
 * a repeating-layer tensor created in layer 0, so it goes with layer 0;
 * lfm2's, loaded as its output norm, OUTPUT_NORM_LFM2, with the output
 * layer: the converter named it wrongly); gemma3n's per-layer input
 * projection and its norm (PER_LAYER_MODEL_PROJ, PER_LAYER_PROJ_NORM:
 * repeating-layer tensors too) with layer 0, its AltUp projections
 * (ALTUP_PROJ, ALTUP_UNEMBD_PROJ: output-layer tensors) with the output
 * layer (measured: exact on Vulkan at -ngl 99, 2 and 0).
 */
static int64_t
weight_layer(const struct planner *pn, const struct gguf_tensor *t)
{
	static const char norm[] = "token_embd_norm.";
	static const struct {
		const char *prefix;
		bool output;
	} outside[] = { { "per_layer_model_proj.", false },
	    { "per_layer_proj_norm.", false }, { "altup_proj.", true },
	    { "altup_unembd_proj.", true } };
	size_t i, n;

	if (t->name.n >= sizeof norm - 1 &&
	    memcmp(t->name.p, norm, sizeof norm - 1) == 0)
		return strcmp(pn->g->arch, "lfm2") == 0 ? pn->g->n_layer : 0;
	for (i = 0; i < sizeof outside / sizeof outside[0]; i++) {
		n = strlen(outside[i].prefix);
		if (t->name.n >= n && memcmp(t->name.p, outside[i].prefix,
		    n) == 0)
			return outside[i].output ? pn->g->n_layer : 0;
	}
	return tensor_layer(t, pn->g->n_layer);
}

/* Whether tensor t's name ends with suffix. */
static bool
name_ends(const struct gguf_tensor *t, const char *suffix)
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
 */
static bool
host_only(const struct planner *pn, const struct gguf_tensor *t)
{
	const struct model_geom *g = pn->g;
	uint64_t heads = t->ne[1] > 0 ? (uint64_t)t->ne[1] : 0;

	if (pn->p->backend == NULL || strcmp(pn->p->backend, "vulkan") != 0 ||
	    !name_ends(t, ".ssm_a"))
		return false;
	return t->ne[0] != 1 || (g->ssm_d_state != 128 &&
	    g->ssm_d_state != 256) || heads == 0 ||
	    (g->ssm_d_inner / heads) % 16 != 0;
}

void
plan_llama_weights(const struct planner *pn, struct plan *pl)
{
	int64_t gpu_start = (int64_t)pn->g->n_layer + 1 - pl->ngl;
	uint64_t lo = UINT64_MAX, hi = 0;
	size_t i;

	name_devices(pn->p, pl);
	probed_device(pn, pl);
	for (i = 0; i < pn->f->tensors_n; i++) {
		const struct gguf_tensor *t = &pn->f->tensors[i];
		int64_t il = weight_layer(pn, t);
		struct plan_device *d = &pl->dev[0];
		bool fb = falls_back(pn, pl, i);
		bool on_dev = pl->n_dev > 1 && il >= 0 && il >= gpu_start &&
		    device_runs(pn, i) && !host_only(pn, t);
		int j;
		uint64_t n = 1;

		if (!t->size_ok) {
			pl->tensors_unsized++;
			continue;
		}
		for (j = 0; j < GGUF_MAX_DIMS; j++)
			n = smul(n, (uint64_t)t->ne[j]);
		pl->n_params = sadd(pl->n_params, n);
		pl->weights = sadd(pl->weights, t->nbytes);
		if (mtp_layer(pn->g, il))
			continue;
		if (on_dev && fb) {
			pl->fallback_bytes = sadd(pl->fallback_bytes,
			    pad32(t->nbytes));
			pl->n_fallback++;
		}
		if (on_dev && !fb) {
			d = &pl->dev[1];
			d->model_bytes = sadd(d->model_bytes, pad32(t->nbytes));
		} else if ((pl->n_dev == 1 || fb) &&
		    plan_tensor_repacked(t, pn->p->cpu_features)) {
			/* beside a GPU backend the host layers sit in its
			 * host buffer type: ggml-cpu repacks only what the
			 * device does not claim */
			d->repack_bytes = sadd(d->repack_bytes,
			    pad32(t->nbytes));
			pl->n_repacked++;
		} else if (pl->mmap) {
			lo = t->offset < lo ? t->offset : lo;
			hi = sadd(t->offset, t->nbytes) > hi ?
			    sadd(t->offset, t->nbytes) : hi;
		} else {
			d->model_bytes = sadd(d->model_bytes, pad32(t->nbytes));
		}
	}
	/* llama.cpp maps one range: the first to the last mapped tensor. */
	if (hi > lo) {
		pl->dev[0].mapped_bytes = hi - lo;
		pl->dev[0].model_bytes = sadd(pl->dev[0].model_bytes, hi - lo);
	}
	tied_output(pn, pl);
	pl->weights_as_stored = pl->weights;
	pl->weights_mapped = pl->dev[0].mapped_bytes;
	pl->repack_bytes = pl->dev[0].repack_bytes;
}

/* ---- KV, compute, output ------------------------------------------------ */

/* Layers on the device under -ngl (output layer excluded). */
static uint64_t
device_layers(const struct model_geom *g, int64_t ngl)
{
	/* the output layer is offloaded first */
	uint64_t n = ngl > 1 ? (uint64_t)ngl - 1 : 0;

	return n > g->n_layer ? g->n_layer : n;
}

/*
 * The graph's shape beyond the geometry, from the tensors: the widest FFN
 * intermediate live at once (gate, up and their product for a gated FFN,
 * one up for an ungated one; a MoE layer's per-token experts), whether
 * attention and FFN run in parallel (falcon) and whether it is an encoder.
 */
struct graph_shape {
	uint64_t ffn;		/* f32 columns of the FFN's intermediates */
	bool gated;		/* the dense FFN has a gate (or a fused one) */
	bool parallel;		/* falcon: attention output live in the FFN */
	uint64_t per_layer;	/* gemma3n: columns of the per-layer inputs */
	bool cohere2;		/* RoPE on the sliding layers only, and
				 * attention beside the FFN */
};

/* Columns of one layer's FFN tensor: ne[1] of a 2-D or 3-D weight. */
static uint64_t
ffn_cols(const struct gguf_tensor *t)
{
	return t->ne[1] > 0 ? (uint64_t)t->ne[1] : 0;
}

/* The FFN widths of a file: dense, experts (per token) and shared. */
static void
graph_scan(const struct model_geom *g, const struct gguf_file *f,
    struct graph_shape *s)
{
	uint64_t up = 0, exps = 0, shexp = 0, used = 1;
	bool gate = false, gate_exps = false, gate_sh = false, bias = false;
	char key[96];
	int64_t v;
	size_t i;

	for (i = 0; f != NULL && i < f->tensors_n; i++) {
		const struct gguf_tensor *t = &f->tensors[i];

		if (name_ends(t, ".ffn_up.weight"))
			up = ffn_cols(t) > up ? ffn_cols(t) : up;
		else if (name_ends(t, ".ffn_up_exps.weight"))
			exps = ffn_cols(t) > exps ? ffn_cols(t) : exps;
		else if (name_ends(t, ".ffn_up_shexp.weight"))
			shexp = ffn_cols(t) > shexp ? ffn_cols(t) : shexp;
		gate |= name_ends(t, ".ffn_gate.weight");
		gate_exps |= name_ends(t, ".ffn_gate_exps.weight");
		gate_sh |= name_ends(t, ".ffn_gate_shexp.weight");
		bias |= name_ends(t, ".ffn_gate_exps.bias");
	}
	snprintf(key, sizeof key, "%s.expert_used_count", g->arch);
	if (f != NULL && gguf_find_int(f, key, &v) && v > 0 && v <= 1 << 16)
		used = (uint64_t)v;
	/* a fused gate and up (phi3): one tensor twice n_ff wide */
	if (!gate && up > 0 && up == 2 * (uint64_t)g->n_ff[0]) {
		gate = true;
		up /= 2;
	}
	s->gated = gate || (up == 0 && exps == 0);
	s->ffn = up == 0 && exps == 0 && shexp == 0 ? 3 * (uint64_t)g->n_ff[0] :
	    smul(gate ? 3 : 1, up);
	/* biased experts (gpt-oss): the biases are added in place and the
	 * activation writes over the gate's output, two intermediates */
	s->ffn = umax(s->ffn, smul(smul(gate_exps ? bias ? 2 : 3 : 1, exps),
	    used));
	s->ffn = umax(s->ffn, smul(gate_sh ? 3 : 1, shexp));
	s->parallel = strcmp(g->arch, "falcon") == 0;
	s->cohere2 = strcmp(g->arch, "cohere2") == 0;
	/* per_layer_token_embd's rows: n_layer per-layer embeddings */
	s->per_layer = 0;
	for (i = 0; f != NULL && i < f->tensors_n; i++)
		if (name_ends(&f->tensors[i], "per_layer_token_embd.weight") &&
		    f->tensors[i].ne[0] > 0)
			s->per_layer = (uint64_t)f->tensors[i].ne[0];
}

/*
 * Mamba (v1): the ubatch's in-projection (2 d_inner), the convolution's
 * input and output, dt, the scan's output and the gated output live at
 * once (6 d_inner and the residual), plus every sequence's conv and scan
 * states copied in and out; 32 bytes of alignment. Measured exactly.
 */
static uint64_t
compute_mamba(const struct model_geom *g, uint64_t ub, uint64_t n_seq)
{
	uint64_t di = g->ssm_d_inner, conv = g->ssm_d_conv ?
	    g->ssm_d_conv - 1 : 0;
	uint64_t cols = sadd(sadd(smul(6, di), g->n_embd), 2);
	uint64_t st = smul(smul(4, di), sadd(smul(2, conv), g->ssm_d_state));

	return sadd(sadd(smul(smul(4, ub), cols), 32), smul(n_seq, st));
}

/* Rows of the first tensor named *suffix (ne[1]), or 0. */
static uint64_t
tensor_rows(const struct gguf_file *f, const char *suffix)
{
	size_t i;

	for (i = 0; f != NULL && i < f->tensors_n; i++)
		if (name_ends(&f->tensors[i], suffix))
			return ffn_cols(&f->tensors[i]);
	return 0;
}

/*
 * Mamba-2 (llama.cpp's build_mamba2_layer; ggml's ssm_scan): per token
 * the in-projection zxBCdt (d_in_proj, ssm_in's rows), xBC twice (the
 * convolution's input and output: d_inner + 2 n_group d_state), the
 * scan's y (d_inner) and 2 more (tokens, ids); per sequence of the
 * ubatch (ub / n_seq tokens each) an n_group x tokens x tokens f32 block
 * of the scan, and its states: the scan's four times, the convolution's
 * twice. 32 bytes of alignment. Exact against llama.cpp v0.5.0's CPU
 * buffer (any context: no attention) while each sequence has 128 tokens
 * of the ubatch or more (ubatch 128-512, 1, 2 and 4 sequences); with
 * fewer, ggml-alloc fits part of the states where the tokens' tensors
 * were and this is over (ubatch 128 and 4 sequences: 1.44x).
 */
static uint64_t
compute_mamba2(const struct model_geom *g, const struct gguf_file *f,
    uint64_t ub, uint64_t n_seq)
{
	uint64_t di = g->ssm_d_inner, ds = g->ssm_d_state;
	uint64_t xbc = sadd(di, smul(smul(2, g->ssm_n_group), ds));
	uint64_t conv = g->ssm_d_conv ? g->ssm_d_conv - 1 : 0;
	uint64_t tok = n_seq ? ub / n_seq : ub;
	uint64_t cols = sadd(sadd(tensor_rows(f, ".ssm_in.weight"),
	    smul(2, xbc)), sadd(di, 2));
	uint64_t st = smul(4, sadd(smul(smul(4, ds), di), smul(smul(2, conv),
	    xbc)));
	uint64_t scan = smul(smul(smul(4, g->ssm_n_group), tok), tok);

	return sadd(sadd(smul(smul(4, ub), cols), 32), smul(n_seq,
	    sadd(st, scan)));
}

/*
 * cohere2's attention phase without flash attention (attn: its tensors
 * on a sliding layer, u: 4 ubatch bytes): a full layer applies no RoPE,
 * so Q and K stay views of their projections beside its KQ over every
 * cell (the residual, the normed input waiting for the FFN, the
 * projection); a sliding layer ropes them, beside a KQ over its cells.
 * Exact on llama.cpp v0.5.0's CPU buffer.
 */
static uint64_t
cohere2_attn(const struct model_geom *g, uint64_t attn, uint64_t u,
    uint64_t n_kv, uint64_t n_swa)
{
	uint64_t full = smul(u, sadd(smul(3, g->n_embd), 7));

	full = sadd(full, smul(smul(u, n_kv), g->n_head[0]));
	return umax(full, sadd(attn, smul(smul(u, n_swa), g->n_head[0])));
}

/* The peaks of one ubatch's phases (compute_graph). */
struct graph_phases {
	uint64_t out, attn, ffn;
};

/*
 * The phases of one ubatch of ub tokens, in bytes: the logits (with the
 * final norm's input and output), the attention (Q, K, V and their
 * outputs; KQ and its softmax unless flash attention) and the FFN (s's
 * intermediates and the residuals), each beside the masks (f16 with flash
 * attention, else f32; a second one over the sliding window's cells). An
 * encoder attends the ubatch itself and has no logits.
 */
static uint64_t
compute_graph(const struct model_geom *g, const struct graph_shape *s,
    uint64_t ub, uint64_t n_kv, uint64_t n_swa, bool fa,
    struct graph_phases *ph)
{
	uint64_t emb = g->n_embd, u = smul(4, ub), out = 0, attn, ffn, mask;
	uint64_t hk = g->head_k ? g->head_k : g->n_head[0] ? emb /
	    g->n_head[0] : 0;	/* an encoder's geometry has no KV widths */
	uint64_t qd = smul(hk, g->n_head[0]), gqa = smul(hk, g->n_head_kv[0]);
	bool enc = g->memory == ARCH_MEM_NONE;

	if (enc)
		n_kv = ub, n_swa = 0;
	mask = smul(smul(fa ? 2 : 4, ub), sadd(n_kv, n_swa));
	if (enc) {
		attn = smul(u, sadd(sadd(smul(4, emb), sadd(qd, gqa)), 3));
		ffn = smul(u, sadd(sadd(s->ffn, smul(s->gated ? 2 : 3, emb)),
		    3));
	} else {
		out = smul(u, sadd(sadd(g->n_vocab, smul(2, emb)), 1));
		/* KQV and its merged copy; one Q-wide output with FA */
		attn = smul(u, sadd(sadd(smul(3, emb), smul(fa ? 1 : 2, qd)),
		    sadd(smul(2, gqa), 5)));
		ffn = smul(u, sadd(sadd(s->ffn, smul(4, emb)), 7));
	}
	if (!fa && s->cohere2 && !enc)
		attn = cohere2_attn(g, attn, u, n_kv, n_swa);
	else if (!fa)
		attn = sadd(attn, smul(smul(u, n_kv), g->n_head[0]));
	if (s->cohere2 && !enc && !fa)	/* attention beside the FFN */
		ffn = sadd(ffn, smul(u, smul(2, emb)));
	attn = sadd(attn, mask);
	/* falcon: the attention output waits for the FFN's */
	ffn = sadd(ffn, s->parallel ? umax(mask, smul(u, emb)) : mask);
	if (g->memory == ARCH_MEM_RECURRENT)
		attn = 0;
	if (s->per_layer > 0) {
		/* gemma3n: the per-layer inputs (their rows, the model's
		 * projection and its norm, then their sum) are built before
		 * the first layer and the sum stays live through every one:
		 * measured, three widths beside the FFN phase's columns, and
		 * one beside the attention's */
		ffn = sadd(ffn, smul(u, sadd(smul(3, s->per_layer), 5)));
		attn = sadd(attn, smul(u, s->per_layer));
	}
	if (ph != NULL)
		ph->out = out, ph->attn = attn, ph->ffn = ffn;
	return umax(out, umax(attn, ffn));
}

uint64_t
plan_compute_bytes(const struct model_geom *g, uint64_t ub, uint64_t n_kv,
    bool fa)
{
	struct graph_shape s;

	graph_scan(g, NULL, &s);
	return compute_graph(g, &s, ub, n_kv, 0, fa, NULL);
}

/*
 * Architectures whose compute buffer is within 10 % of llama.cpp's
 * measured one (v0.5.0, CPU, ctx 512-32768, FA on and off, f16 and q8_0
 * caches, -np 1 and 4). Beside a GPU backend the split between host and
 * device holds for fewer (Vulkan, ctx 512 and 4096, -ngl 99, 2 and 0):
 * for the others the device's share is an estimate.
 */
static bool
compute_measured(const struct model_geom *g, const struct plan *pl)
{
	static const char *const gpu[] = { "llama", "qwen2", "gemma",
	    "gemma2", "phi3", "olmo2", "qwen3", "qwen2moe", "starcoder2",
	    "glm4moe", "gpt-oss", "bert", "nomic-bert", "gpt2", "qwen3moe",
	    "gemma3", "llama4", "falcon", "deepseek2", "mamba", "mamba2",
	    "lfm2", "gemma3n" };
	static const char *const archs[] = { "llama", "qwen2", "qwen2moe",
	    "qwen3", "qwen3moe", "gemma", "gemma2", "gemma3", "phi3",
	    "deepseek2", "mamba", "bert", "nomic-bert", "olmo2",
	    "starcoder2", "falcon", "gpt2", "gpt-oss", "mamba2", "llama4",
	    "glm4moe", "lfm2", "gemma3n", "cohere2", "granitehybrid" };
	const char *const *list = pl->n_dev > 1 ? gpu : archs;
	size_t n = pl->n_dev > 1 ? sizeof gpu / sizeof gpu[0] :
	    sizeof archs / sizeof archs[0], i;

	if (g->memory == ARCH_MEM_RECURRENT && strcmp(g->arch, "mamba") != 0 &&
	    strcmp(g->arch, "mamba2") != 0)
		return false;
	for (i = 0; i < n; i++)
		if (strcmp(g->arch, list[i]) == 0)
			return true;
	return false;
}

/* The head width of K (or V): the geometry's, else n_embd / n_head. */
static uint64_t
head_width(const struct model_geom *g, bool v)
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
static uint64_t
rot_matrices(const struct model_geom *g, const struct plan *pl)
{
	uint64_t caches = g->swa ? 2 : 1, hk = head_width(g, false);
	uint64_t hv = head_width(g, true), nrot = 64, n = 0;

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
static uint64_t
rot_bytes(const struct model_geom *g, const struct plan *pl)
{
	return g->memory == ARCH_MEM_KV ? rot_matrices(g, pl) : 0;
}

/*
 * With a quantized cache the rotations add Q-, K- and V-wide tensors to
 * the graph and ggml-alloc's greedy layout shifts: measured (v0.5.0, CPU,
 * the oracle's models) the buffer is one embedding-wide f32 tensor of
 * the ubatch smaller (-1) once the masks are at least that big, or
 * larger (1). Per architecture: with flash attention, for a quantized K
 * (only with an f16 V) or a quantized V; without it (V is then f16), for
 * a quantized K, a Q-wide tensor smaller (-1; -2: whatever the masks).
 * Architectures not listed shift nothing (their compute is an estimate
 * anyway).
 */
struct layout_shift {
	const char *arch;
	signed char fa_k, fa_v, nofa_k;
};

static const struct layout_shift shifts[] = {
	{ "llama", 0, -1, -1 }, { "qwen2", 0, -1, -1 },
	{ "phi3", 0, -1, -1 }, { "gemma", 0, -1, -1 },
	{ "gemma2", 0, -1, -1 }, { "gemma3", 0, -1, -1 },
	{ "starcoder2", 0, -1, -2 }, { "gpt2", 0, -1, 1 },
	{ "olmo2", -1, 0, -1 }, { "qwen3", -1, 0, -1 },
	{ "qwen3moe", 0, 0, -2 }, { "falcon", 0, 0, 1 },
	{ "gpt-oss", 0, -2, 0 },
};

/*
 * The compute buffer c with pl's quantized cache: rotations and, when the
 * whole graph runs on one device (shift), the layout shift.
 */
static uint64_t
quantized_cache(const struct model_geom *g, const struct plan *pl,
    uint64_t c, uint64_t ub, uint64_t mask, bool shift)
{
	bool qk = kv_type_info(pl->kv_k)->quantized;
	bool qv = kv_type_info(pl->kv_v)->quantized;
	uint64_t row = smul(smul(4, ub), g->n_embd), q = row;
	int k = 0;
	size_t i;

	if (!qk && !qv)
		return c;
	c = sadd(c, rot_bytes(g, pl));
	for (i = 0; i < sizeof shifts / sizeof shifts[0]; i++)
		if (strcmp(g->arch, shifts[i].arch) == 0)
			break;
	if (i == sizeof shifts / sizeof shifts[0] || !shift)
		return c;
	if (pl->flash_attention)
		k = qk && !qv ? shifts[i].fa_k : 0;
	if (pl->flash_attention && qv)
		k = shifts[i].fa_v;
	if (!pl->flash_attention && qk) {
		k = shifts[i].nofa_k;
		if (k < 0)
			q = smul(smul(4, ub), smul(head_width(g, false),
			    g->n_head[0]));
	}
	if (k == -1 && mask < row)
		return c;
	if (k > 0)
		return sadd(c, row);
	return k < 0 && c > q ? c - q : c;
}

/* The masks of one ubatch: f16 with flash attention, else f32. */
static uint64_t
mask_bytes(const struct model_geom *g, const struct plan *pl, uint64_t ub)
{
	uint64_t cells = g->memory == ARCH_MEM_NONE ? ub :
	    sadd(pl->ctx_seq, g->swa ? pl->swa_cells : 0);

	if (g->memory == ARCH_MEM_RECURRENT)
		return 0;
	return smul(smul(pl->flash_attention ? 2 : 4, ub), cells);
}

/* The widest KV width of any layer (a hybrid's layer 0 may have none). */
static uint64_t
kv_width(const struct model_geom *g)
{
	uint32_t il, h = 0;

	for (il = 0; il < g->n_layer && il < ARCH_MAX_LAYERS; il++)
		h = g->n_head_kv[il] > h ? g->n_head_kv[il] : h;
	return smul(head_width(g, true), h);
}

/*
 * Granite 4.0 hybrid (Mamba-2 layers, some attention layers, a gated FFN
 * in every layer): the peak is a Mamba-2 layer's, while the attention
 * layers' graph inputs (masks, positions, output ids, K and V cell
 * indices: i64, V's one an element without flash attention) are live.
 * Per token: the in-projection (d_in_proj), the convolution's input and
 * output (xBC twice), the scan's y (d_inner), the residual, the normed
 * input and the layer's output (3 n_embd) and 7 for the inputs; once a
 * sequence has 512 tokens of the ubatch or more, two in-projections and
 * two d_inner instead (measured, the same threshold with d_state 64 and
 * 128: ggml-alloc's layout, not derived op by op). Per sequence one SSM
 * state and the convolution's state twice. The FFN never peaks (n_ff
 * 1024 and 1536 alike). Without flash attention the attention layer can:
 * the dense graph's (dense: it reads layer 0's KV heads, none here), the
 * V indices and four KV widths more (K and V among them). Measured
 * exactly on llama.cpp v0.5.0's CPU buffer (ubatch 64-2048, 1, 2 and 4
 * sequences, d_state 64 and 128; 457-511 tokens a sequence: 0.4 % over).
 */
static uint64_t
compute_granitehybrid(const struct model_geom *g, const struct planner *pn,
    const struct plan *pl, uint64_t ub, uint64_t dense)
{
	uint64_t di = g->ssm_d_inner, ds = g->ssm_d_state;
	uint64_t xbc = sadd(di, smul(smul(2, g->ssm_n_group), ds));
	uint64_t conv = g->ssm_d_conv ? g->ssm_d_conv - 1 : 0;
	uint64_t tok = pl->n_seq ? ub / pl->n_seq : ub;
	uint64_t in = tensor_rows(pn->f, ".ssm_in.weight"), gqa = kv_width(g);
	uint64_t cols = tok >= 512 ? smul(2, sadd(in, di)) :
	    sadd(sadd(in, smul(2, xbc)), di);
	uint64_t st = smul(4, sadd(smul(ds, di), smul(smul(2, conv), xbc)));
	uint64_t vidx = pl->flash_attention ? 0 : smul(smul(8, ub), gqa);
	uint64_t m;

	cols = sadd(cols, sadd(smul(3, g->n_embd), 7));
	m = sadd(sadd(smul(smul(4, ub), cols), 32), smul(pl->n_seq, st));
	m = sadd(sadd(m, mask_bytes(g, pl, ub)), vidx > 8 * ub ?
	    vidx - 8 * ub : 0);
	if (!pl->flash_attention)
		dense = sadd(sadd(dense, vidx), sadd(smul(smul(16, ub),
		    gqa), 32));
	return sadd(umax(m, dense), rot_matrices(g, pl));
}

/* The host's compute buffer at pl's settings (plan_llama_cells first). */
static uint64_t
compute_at(const struct planner *pn, const struct plan *pl, uint64_t ub)
{
	const struct model_geom *g = pn->g;
	struct graph_shape s;
	uint64_t logits = smul(smul(4, ub), sadd(sadd(g->n_vocab,
	    smul(2, g->n_embd)), 1));

	if (g->memory == ARCH_MEM_RECURRENT && strcmp(g->arch, "mamba") == 0)
		return umax(compute_mamba(g, ub, pl->n_seq), logits);
	if (g->memory == ARCH_MEM_RECURRENT && strcmp(g->arch, "mamba2") == 0)
		return umax(compute_mamba2(g, pn->f, ub, pl->n_seq), logits);
	graph_scan(g, pn->f, &s);
	if (g->memory == ARCH_MEM_HYBRID &&
	    strcmp(g->arch, "granitehybrid") == 0)
		return umax(compute_granitehybrid(g, pn, pl, ub,
		    compute_graph(g, &s, ub, pl->ctx_seq, 0,
		    pl->flash_attention, NULL)), logits);
	return quantized_cache(g, pl, compute_graph(g, &s, ub, pl->ctx_seq,
	    g->swa ? pl->swa_cells : 0, pl->flash_attention, NULL), ub,
	    mask_bytes(g, pl, ub), pl->n_dev == 1);
}

/* One layer's cache in every stream: its cells of K and V rows. */
static uint64_t
layer_kv(const struct model_geom *g, const struct plan *pl, uint32_t il)
{
	bool swa = g->swa && g->is_swa[il];
	uint64_t hk = swa && g->head_k_swa ? g->head_k_swa : g->head_k;
	uint64_t hv = swa && g->head_v_swa ? g->head_v_swa : g->head_v;
	uint64_t cells = swa ? pl->swa_cells : pl->ctx_seq;
	uint64_t row = sadd(kv_row_bytes(pl->kv_k, smul(hk, g->n_head_kv[il])),
	    kv_row_bytes(pl->kv_v, smul(hv, g->n_head_kv[il])));

	return smul(smul(row, cells), pl->n_stream);
}

/*
 * The device's share of the cache, all bytes in total, with the last dl
 * layers offloaded: layer by layer (a sliding-window layer keeps fewer
 * cells; a hybrid's recurrent layer its state) when the layers add up to
 * all, else in proportion.
 */
static uint64_t
device_kv(const struct model_geom *g, const struct plan *pl, uint64_t dl,
    uint64_t all)
{
	uint64_t sum = 0, on = 0, trunk = g->n_layer - g->n_layer_nextn;
	uint64_t rec = 0, n_rec = 0;
	bool hybrid = g->memory == ARCH_MEM_HYBRID;
	uint32_t il;

	if (dl >= g->n_layer)
		return all;
	/* the MTP layers are offloaded first and keep no cache */
	dl = dl > g->n_layer_nextn ? dl - g->n_layer_nextn : 0;
	/* a hybrid's recurrent layers: one layer's state each */
	for (il = 0; hybrid && il < trunk && il < ARCH_MAX_LAYERS; il++)
		n_rec += g->is_recr[il];
	rec = n_rec ? pl->state_bytes / n_rec : 0;
	for (il = 0; (g->memory == ARCH_MEM_KV || hybrid) && !g->mla &&
	    il < trunk && il < ARCH_MAX_LAYERS; il++) {
		uint64_t n = hybrid && g->is_recr[il] ? rec :
		    layer_kv(g, pl, il);

		if (g->n_layer_kv > 0 && il >= g->n_layer_kv)
			n = 0;	/* gemma3n: it reuses an earlier cache */

		sum = sadd(sum, n);
		if (il >= trunk - dl)
			on = sadd(on, n);
	}
	return sum == all ? on : trunk ? all / trunk * dl : 0;
}

/* The KV cache (or recurrent state) in every stream, split by device. */
static void
plan_llama_kv(const struct planner *pn, struct plan *pl)
{
	const struct model_geom *g = pn->g;
	uint64_t k = 0, v = 0, dl, kv;

	pl->kv_bytes = pl->k_bytes = pl->v_bytes = pl->state_bytes = 0;
	if (!g->plannable)
		return;
	kv = plan_kv_split_bytes(g, pl->kv_k, pl->kv_v, pl->ctx_seq,
	    pl->swa_cells, pl->flash_attention, &k, &v);
	pl->k_bytes = smul(k, pl->n_stream);
	pl->v_bytes = smul(v, pl->n_stream);
	pl->kv_bytes = smul(kv, pl->n_stream);
	pl->state_bytes = smul(plan_state_bytes(g), pl->n_seq);
	pl->kv_alt = pl->kv_k != pn->p->kv_quantized ? pn->p->kv_quantized :
	    KV_F16;
	pl->kv_alt_bytes = smul(plan_kv_bytes(g, pl->kv_alt, pl->ctx_seq,
	    pl->swa_cells, pl->flash_attention, &k, &v), pl->n_stream);
	/* Offloaded layers keep their cache on the device. */
	dl = device_layers(g, pl->ngl);
	if (pl->n_dev > 1 && g->n_layer > 0) {
		uint64_t all = sadd(pl->kv_bytes, pl->state_bytes);
		uint64_t on = device_kv(g, pl, dl, all);

		pl->dev[1].kv_bytes = dl == g->n_layer ? all : on;
		pl->dev[0].kv_bytes = all - pl->dev[1].kv_bytes;
	} else {
		pl->dev[0].kv_bytes = sadd(pl->kv_bytes, pl->state_bytes);
	}
}

/* Cells: n_ctx padded, split into streams (memory-and-kv.md §3, §5). */
static void
plan_llama_cells(const struct planner *pn, uint64_t ctx, struct plan *pl)
{
	const struct model_geom *g = pn->g;
	uint64_t n_ctx = plan_pad_ctx(ctx), ub;

	pl->ctx = ctx;
	pl->ctx_seq = plan_pad_ctx(n_ctx / pl->n_seq);
	pl->n_stream = pl->n_seq;
	pl->ctx_cells = smul(pl->ctx_seq, pl->n_seq);
	ub = umin(umin(ctx, pl->n_batch), pl->n_ubatch);
	pl->swa_cells = 0;
	if (g->swa)
		pl->swa_cells = pl->swa_full ? pl->ctx_seq :
		    plan_pad_ctx(umin(pl->ctx_seq, sadd(g->n_swa, ub)));
}

static uint64_t
host_copies(const struct planner *pn, const struct plan *pl, uint64_t ub);

/* The first tensor named *suffix, or NULL. */
static const struct gguf_tensor *
tensor_named(const struct gguf_file *f, const char *suffix)
{
	size_t i;

	for (i = 0; f != NULL && i < f->tensors_n; i++)
		if (name_ends(&f->tensors[i], suffix))
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
 * where the device does not run it (host_only's ssm_a rule: mamba, and
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
	const struct gguf_tensor *a = tensor_named(pn->f, ".ssm_a");
	uint64_t di = g->ssm_d_inner, ds = g->ssm_d_state, u = smul(4, ub);
	uint64_t w, bc, x, dt, st, n, row = smul(u, g->n_embd);
	uint64_t dl = device_layers(g, pl->ngl);
	bool on_dev = recurrent_on_device(g, dl);
	bool copied = on_dev && a != NULL && host_only(pn, a);

	/* a host layer's scan runs on the CPU beside its state whatever
	 * the device runs (ggml-vulkan offloads no SSM_SCAN) */
	if (a == NULL || ub == 0 || (ub < 32 && !on_dev) || (!copied &&
	    !recurrent_on_host(g, dl)))
		return 0;
	if (g->ssm_n_group == 0) {	/* mamba: B and C cut from x_db */
		w = tensor_rows(pn->f, ".ssm_x.weight");
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
	uint64_t dl = device_layers(g, pl->ngl), u = smul(4, ub), n;
	uint64_t h = g->n_head[0], hk = head_width(g, false);
	uint64_t kvk = 0, kvv = kv_width(g);
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
	n = sadd(n, pl->flash_attention ? smul(u, smul(h, head_width(g,
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
		    ub : smul(ub, kv_width(g)))));
		n = sadd(n, rot_matrices(g, pl));
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
	const struct gguf_tensor *t = tensor_named(pn->f,
	    "per_layer_token_embd.weight");

	if (t == NULL || t->ne[0] <= 0)
		return 0;
	return smul(smul(4, ub), sadd((uint64_t)t->ne[0], 1));
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
 * 99, 2 and 0 (with flash attention; without it more of the attention
 * runs there, not modelled). dev: what the device no longer holds (the
 * projection's output). Vulkan's rule: other backends add nothing.
 */
static uint64_t
mla_host(const struct planner *pn, const struct plan *pl, uint64_t ub,
    uint64_t *dev)
{
	const struct model_geom *g = pn->g;
	const struct gguf_tensor *o = tensor_named(pn->f,
	    ".attn_output.weight");
	uint64_t u = smul(4, ub), h = g->n_head[0], lora = g->kv_lora_rank;
	uint64_t qk = tensor_rows(pn->f, ".attn_kv_a_mqa.weight"), n;
	uint64_t out = o != NULL && o->ne[0] > 0 ? (uint64_t)o->ne[0] : 0;

	*dev = 0;
	if (!g->mla || pl->n_stream <= 1 || pn->p->backend == NULL ||
	    strcmp(pn->p->backend, "vulkan") != 0)
		return 0;
	*dev = smul(u, out);
	if (pl->ngl >= (int64_t)g->n_layer + 1)
		return smul(smul(u, h), lora);
	n = smul(u, sadd(sadd(smul(h, qk), qk), sadd(smul(h, lora), out)));
	return n > smul(smul(8, ub), g->n_embd) ? n - smul(smul(8, ub),
	    g->n_embd) : 0;
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
static uint64_t
host_inputs(const struct planner *pn, const struct plan *pl, uint64_t ub)
{
	const struct model_geom *g = pn->g;
	uint64_t caches = g->swa ? 2 : 1, idx;
	uint64_t gqa_v = smul(head_width(g, true), g->n_head_kv[0]);
	uint64_t n = sadd(smul(smul(8, ub), g->n_embd), smul(g->memory ==
	    ARCH_MEM_RECURRENT ? 8 : 12, ub));	/* no positions */

	if (g->memory == ARCH_MEM_KV) {
		/* MLA: V is a view of K, no V indices */
		idx = sadd(smul(8, ub), g->mla ? 0 : smul(8,
		    pl->flash_attention ? ub : smul(ub, gqa_v)));
		n = sadd(n, smul(caches, idx));
	}
	/* learned positions (gpt2, bert): their get_rows runs on the host
	 * beside token_embd's, one more embedding row a token */
	if (tensor_rows(pn->f, "position_embd.weight") > 0)
		n = sadd(n, smul(smul(4, ub), g->n_embd));
	n = sadd(n, host_copies(pn, pl, ub));
	n = sadd(sadd(n, host_recurrent(pn, pl, ub)), mla_host(pn, pl, ub,
	    &idx));
	n = sadd(n, host_per_layer(pn, ub));
	return sadd(sadd(n, mask_bytes(g, pl, ub)), rot_bytes(g, pl));
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
	uint64_t w = tensor_rows(pn->f, ".attn_qkv.weight");
	uint64_t gk = smul(head_width(g, false), g->n_head_kv[0]);
	uint64_t gv = smul(head_width(g, true), g->n_head_kv[0]);
	uint64_t row = smul(smul(4, ub), g->n_embd), room = row, k, v;
	bool learned = tensor_rows(pn->f, "position_embd.weight") > 0;

	if (g->memory != ARCH_MEM_KV || g->n_layer == 0 ||
	    pl->ngl >= (int64_t)g->n_layer + 1 || ub < 32)
		return 0;
	k = smul(smul(4, ub), gk);
	v = smul(smul(4, ub), gv);
	if (w > 0 && rot_bytes(g, pl) == 0) {
		v = smul(4, sadd(smul(ub - 1, w), gv));
		if (learned)
			k = smul(4, sadd(smul(ub - 1, w), gk));
	}
	if (learned)
		room = sadd(room, row);
	return sadd(k, v) > room ? sadd(k, v) - room : 0;
}

/* One repeating layer's weights, on average (blk.N tensors). */
static uint64_t
layer_bytes(const struct planner *pn)
{
	uint64_t sum = 0;
	size_t i;

	for (i = 0; i < pn->f->tensors_n; i++) {
		const struct gguf_tensor *t = &pn->f->tensors[i];

		if (t->size_ok && tensor_layer(t, pn->g->n_layer) >= 0 &&
		    tensor_layer(t, pn->g->n_layer) < pn->g->n_layer)
			sum = sadd(sum, pad32(t->nbytes));
	}
	return pn->g->n_layer ? sum / pn->g->n_layer : 0;
}

/*
 * How the device's compute buffer relates to the whole graph's, per
 * architecture, measured on Vulkan (llvmpipe; llama.cpp v0.5.0, the
 * oracle's models, ctx 512 and 4096, FA on and off, f16 and q8_0 caches,
 * -np 1 and 4, -ngl 99, 2 and 0). kept: the f32 embedding-wide rows of
 * the ubatch (beside its tokens, always kept) that the host holds and
 * the device does not at the device's peak with every layer offloaded:
 * the embeddings input and token_embd's rows where the peak has them
 * live, none where it comes later (qwen3), one for qwen2moe and the
 * encoders. by_phase: with layers on the
 * host, the device peaks in one phase of a host layer run there, its
 * attention beside the layer's K and V copied in or its FFN beside the
 * layer's weights; otherwise (the default) the copies add to the peak of
 * full offload. full: how the device peaks with every layer offloaded,
 * where the graph less the kept rows is not it (measured): falcon's
 * parallel attention and FFN (parallel_peak), gpt2's learned positions
 * (learned_peak), Mamba-2's with its scan on the host (scan_peak).
 * by_phase BY_COPIES: with layers on the host the device peaks as
 * copies_peak says (qwen3moe, gemma3, llama4); BY_LAYERS as layers_peak
 * says (falcon). Measured for deepseek2 and mamba (branch i14b): one row
 * kept (ctx 512 and 4096, FA on and off, -np 1 and 4, -ngl 99, 2, 0:
 * mamba 0.98-1.04, deepseek2 0.91-1.10 but 2.07 without FA with four
 * sequences at 4096 and -ngl 0; two, the default, gave 0.90-0.92 at
 * full offload); with several streams deepseek2's device loses MLA's
 * projection output too (mla_host); gemma3n keeps none (per_layer_peak).
 * Architectures not listed take { 2, false, FULL_GRAPH }.
 */
enum device_full { FULL_GRAPH, FULL_PARALLEL, FULL_LEARNED, FULL_SCAN };

struct device_split {
	const char *arch;
	unsigned char kept;
	unsigned char by_phase;	/* false, true, BY_COPIES or BY_LAYERS */
	enum device_full full;
};

/* by_phase: the host layers' copies_peak, layers_peak */
enum { BY_COPIES = 2, BY_LAYERS = 3 };

static const struct device_split device_splits[] = {
	{ "qwen3", 0, true, FULL_GRAPH },
	{ "qwen3moe", 0, BY_COPIES, FULL_GRAPH },
	{ "gemma3", 2, BY_COPIES, FULL_GRAPH },
	{ "llama4", 2, BY_COPIES, FULL_GRAPH },
	{ "qwen2moe", 1, true, FULL_GRAPH },
	{ "bert", 1, false, FULL_GRAPH },
	{ "nomic-bert", 1, false, FULL_GRAPH },
	{ "falcon", 2, BY_LAYERS, FULL_PARALLEL },
	{ "gpt2", 2, false, FULL_LEARNED },
	{ "cohere2", 2, false, FULL_PARALLEL },
	{ "deepseek2", 1, false, FULL_GRAPH },
	{ "mamba", 1, false, FULL_GRAPH },
	{ "mamba2", 2, false, FULL_SCAN },
	{ "gemma3n", 0, false, FULL_GRAPH },
};

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
	uint64_t mask = mask_bytes(g, pl, ub), room;
	bool q = kv_type_info(pl->kv_k)->quantized ||
	    kv_type_info(pl->kv_v)->quantized;
	struct graph_shape s;
	struct graph_phases ph;

	if (!pl->flash_attention) {
		p = sadd(c, sadd(smul(2, row), row / 2));
	} else {
		graph_scan(g, pn->f, &s);
		compute_graph(g, &s, ub, pl->ctx_seq, g->swa ?
		    pl->swa_cells : 0, true, &ph);
		room = umax(mask, row);
		p = sadd(ph.ffn > room ? ph.ffn - room : 0, mask);
		p = sadd(p, q ? rot_bytes(g, pl) : row / 2);
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
	struct graph_shape s;

	graph_scan(g, pn->f, &s);
	c = quantized_cache(g, pl, compute_graph(g, &s, ub, pl->ctx_seq,
	    g->swa ? pl->swa_cells : 0, pl->flash_attention, NULL), ub,
	    mask_bytes(g, pl, ub), true);
	kept = sadd(smul(8, ub), pl->flash_attention ? row : row / 2);
	return c > kept ? c - kept : 0;
}

/* Whether tensor t is one of a dense FFN's matrices (dense) or of an
 * expert FFN's (its experts, shared expert and router). */
static bool
ffn_matrix(const struct gguf_tensor *t, bool dense)
{
	static const char *const d[] = { ".ffn_gate.weight", ".ffn_up.weight",
	    ".ffn_down.weight" };
	static const char *const e[] = { ".ffn_gate_exps.weight",
	    ".ffn_up_exps.weight", ".ffn_down_exps.weight",
	    ".ffn_gate_shexp.weight", ".ffn_up_shexp.weight",
	    ".ffn_down_shexp.weight", ".ffn_gate_inp.weight" };
	size_t i;

	for (i = 0; dense && i < sizeof d / sizeof d[0]; i++)
		if (name_ends(t, d[i]))
			return true;
	for (i = 0; !dense && i < sizeof e / sizeof e[0]; i++)
		if (name_ends(t, e[i]))
			return true;
	return false;
}

/*
 * The weights of the FFN whose phase peaks, one layer's (the largest):
 * a dense FFN's where layers have one (its intermediates are the widest:
 * llama4's interleaved layers), else the experts'.
 */
static uint64_t
ffn_weights(const struct planner *pn)
{
	uint64_t w[2][ARCH_MAX_LAYERS] = { { 0 } }, top[2] = { 0, 0 };
	size_t i, k;

	for (i = 0; i < pn->f->tensors_n; i++) {
		const struct gguf_tensor *t = &pn->f->tensors[i];
		int64_t il = tensor_layer(t, pn->g->n_layer);

		for (k = 0; k < 2; k++) {
			if (!t->size_ok || il < 0 ||
			    il >= (int64_t)pn->g->n_layer ||
			    il >= ARCH_MAX_LAYERS || !ffn_matrix(t, k == 0))
				continue;
			w[k][il] = sadd(w[k][il], pad32(t->nbytes));
			top[k] = umax(top[k], w[k][il]);
		}
	}
	return top[0] ? top[0] : top[1];
}

/*
 * The device with layers on the host, where the scheduler runs a host
 * layer's operations on the device one split at a time (copies: qwen3moe,
 * gemma3, llama4). Two phases of a host layer peak: its attention, with
 * the layer's K and V views copied in beside it and, with flash
 * attention, half the masks more (without it the f32 masks' room is
 * reused: a mask less), less the rows the host keeps; or its FFN with
 * half its weights copied in and no mask (the device's peak there does
 * not grow with the context: gemma3's is 14682368 bytes at 512 and 4096
 * cells alike). The weights are the FFN's that peaks (ffn_weights).
 * Fitted on the Vulkan matrix with layers on the host (ctx 512 and 4096,
 * FA on and off, f16 and q8_0, -np 1 and 4, -ngl 2 and 0: 24 cases an
 * architecture): 0.94-1.08 at plan_vulkan's three points; over all 24
 * qwen3moe 0.94-1.18 (3 outside 10 %: 512 cells, four sequences without
 * FA, and one sequence with FA at -ngl 0), gemma3 0.89-1.10 (2: 4096
 * cells, one sequence, no FA), llama4 0.83-1.06 (1: the same at -ngl 2).
 * Not derived op by op: ggml-alloc's placement of the copies decides.
 */
static uint64_t
copies_peak(const struct planner *pn, const struct plan *pl, uint64_t ub,
    uint64_t kept)
{
	const struct model_geom *g = pn->g;
	uint64_t mask = mask_bytes(g, pl, ub), kv, attn, ffn;
	struct graph_shape s;
	struct graph_phases ph;

	graph_scan(g, pn->f, &s);
	compute_graph(g, &s, ub, pl->ctx_seq, g->swa ? pl->swa_cells : 0,
	    pl->flash_attention, &ph);
	kv = sadd(pl->kv_bytes, pl->state_bytes) / g->n_layer;
	attn = sadd(ph.attn, kv);
	if (pl->flash_attention)
		attn = sadd(attn, mask / 2);
	else
		attn = attn > mask ? attn - mask : 0;
	attn = attn > kept ? attn - kept : 0;
	ffn = ph.ffn > mask ? ph.ffn - mask : 0;
	return umax(attn, sadd(ffn, ffn_weights(pn) / 2));
}

/*
 * falcon's device with layers on the host (BY_LAYERS), measured: with a
 * repeating layer on the device (-ngl 2 and up) the device runs it as
 * with every layer offloaded (parallel_peak), and the host layers'
 * weights are copied in beside it, half a layer's; with none (-ngl 0
 * and 1: at most the output layer) the device runs only the host
 * layers' phases, each with its copies: the attention beside one
 * layer's K and V views, the FFN beside half a layer's weights, and no
 * row is kept on the host (the embeddings are copied in). At
 * plan_vulkan's three points 0.93-1.08; over the 24 cases of the Vulkan
 * matrix at -ngl 2 and 0, 0.93-1.25 (4 outside 10 %: 512 cells with
 * four sequences without FA at -ngl 2, 1.25; at -ngl 0 512 cells with
 * q8_0, 1.11-1.13, and 4096 with four sequences and f16, 1.12).
 */
static uint64_t
layers_peak(const struct planner *pn, const struct plan *pl, uint64_t c,
    uint64_t ub)
{
	const struct model_geom *g = pn->g;
	uint64_t kv = sadd(pl->kv_bytes, pl->state_bytes) / g->n_layer;
	uint64_t half = layer_bytes(pn) / 2;
	struct graph_shape s;
	struct graph_phases ph;

	if (device_layers(g, pl->ngl) > 0)
		return sadd(parallel_peak(pn, pl, c, ub), half);
	graph_scan(g, pn->f, &s);
	compute_graph(g, &s, ub, pl->ctx_seq, g->swa ? pl->swa_cells : 0,
	    pl->flash_attention, &ph);
	return umax(sadd(ph.attn, kv), sadd(ph.ffn, half));
}

/* Whether the device does not run the model's scan (host_only). */
static bool
scan_on_host(const struct planner *pn)
{
	const struct gguf_tensor *a = tensor_named(pn->f, ".ssm_a");

	return a != NULL && host_only(pn, a);
}

/*
 * Mamba-2's device when its scans run on the host (host_scan: every
 * layer's where the device does not run it, else with layers on the
 * host): the ubatch's per-token live set of the CPU's graph
 * (compute_mamba2 without the per-sequence states and scan blocks, which
 * are the CPU's) and the scan's y copied back, d_inner a token. Measured
 * on Vulkan (llvmpipe): 0.97-1.04 at ctx 512 and 4096, FA on and off,
 * -np 1 and 4, -ngl 99, 2 and 0 (1.00-1.10 at d_state 128, -ngl 2 and 0;
 * there with every layer offloaded the scan runs on the device and the
 * default rule holds, 1.00-1.02).
 */
static uint64_t
scan_peak(const struct planner *pn, uint64_t ub)
{
	return sadd(compute_mamba2(pn->g, pn->f, ub, 0), smul(smul(4, ub),
	    pn->g->ssm_d_inner));
}

/*
 * A hybrid's device with layers on the host: each host layer's weighted
 * operations run there one split at a time, their weights copied in,
 * and the masks are copied in only for an attention the device runs.
 * The largest of: the FFN phase without the masks, beside half a
 * layer's weights; the attention phase, where an attention layer runs
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
	uint64_t dl = device_layers(g, pl->ngl), u = smul(4, ub), kv = 0;
	uint64_t mask = mask_bytes(g, pl, ub), ffn, attn = 0, m = 0, di, xbc;
	struct graph_shape s;
	struct graph_phases ph;
	bool on = false, copied = false;
	uint32_t il;

	for (il = 0; il < g->n_layer && il < ARCH_MAX_LAYERS; il++) {
		if (g->is_recr[il])
			continue;
		kv = umax(kv, layer_kv(g, pl, il));
		if (il + dl >= g->n_layer)
			on = true;
		else if (il + 1 >= g->n_layer || il + 1 >= ARCH_MAX_LAYERS ||
		    !g->is_recr[il + 1] || il + 1 + dl >= g->n_layer)
			copied = true;
	}
	graph_scan(g, pn->f, &s);
	compute_graph(g, &s, ub, pl->ctx_seq, 0, pl->flash_attention, &ph);
	ffn = sadd(ph.ffn > mask ? ph.ffn - mask : 0, layer_bytes(pn) / 2);
	if (on || copied)	/* K and V at an attention layer's width */
		attn = sadd(sadd(ph.attn, copied ? kv : 0), g->n_head_kv[0] ?
		    0 : smul(smul(u, 2), kv_width(g)));
	if (g->ssm_n_group > 0) {	/* Mamba-2 layers */
		di = g->ssm_d_inner;
		xbc = sadd(di, smul(smul(2, g->ssm_n_group), g->ssm_d_state));
		m = sadd(tensor_rows(pn->f, ".ssm_in.weight"), smul(2, xbc));
		m = sadd(sadd(m, di), sadd(smul(3, g->n_embd), 7));
		m = sadd(smul(u, m), 32);
	}
	ffn = umax(ffn, attn);
	return umax(m, ffn > kept ? ffn - kept : 0);
}

/*
 * Whether the graph peaks while gemma3n's per-layer inputs are built,
 * before the first layer (compute_graph's per_layer): with layers on
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

	graph_scan(pn->g, pn->f, &s);
	return s.per_layer > 0;
}

/*
 * The device's part beside the host's: the graph (without the CPU's
 * layout shift) less the rows the host keeps (device_splits). With
 * layers on the host (-ngl below n_layer + 1, 0 included) ggml's
 * scheduler still runs a ubatch's big operations on the device and
 * copies their operands in, one split at a time: a layer's K and V and
 * its weights, measured as one layer's cache and half a layer's weights
 * beyond full offload, or (by_phase) beside the phase that uses them.
 */
static void
device_compute(const struct planner *pn, struct plan *pl, uint64_t c,
    uint64_t ub)
{
	const struct model_geom *g = pn->g;
	struct device_split ds = { NULL, 2, false, FULL_GRAPH };
	uint64_t kept, dev, kv, half;
	struct graph_shape s;
	struct graph_phases ph;
	size_t i;

	for (i = 0; i < sizeof device_splits / sizeof device_splits[0]; i++)
		if (strcmp(g->arch, device_splits[i].arch) == 0)
			ds = device_splits[i];
	kept = sadd(smul(smul(4 * (uint64_t)ds.kept, ub), g->n_embd),
	    smul(4, ub));
	dev = c > kept ? c - kept : 0;
	if (ds.full == FULL_PARALLEL && pl->ngl >= (int64_t)g->n_layer + 1)
		dev = parallel_peak(pn, pl, c, ub);
	if (ds.full == FULL_LEARNED && pl->ngl >= (int64_t)g->n_layer + 1)
		dev = learned_peak(pn, pl, ub);
	if (ds.full == FULL_SCAN && (pl->ngl < (int64_t)g->n_layer + 1 ||
	    scan_on_host(pn)))
		dev = scan_peak(pn, ub);
	if (pl->ngl < (int64_t)g->n_layer + 1 && g->n_layer > 0) {
		kv = sadd(pl->kv_bytes, pl->state_bytes) / g->n_layer;
		half = layer_bytes(pn) / 2;
		if (ds.by_phase == BY_COPIES && g->memory == ARCH_MEM_KV) {
			dev = copies_peak(pn, pl, ub, kept);
		} else if (ds.by_phase == BY_LAYERS) {
			dev = layers_peak(pn, pl, c, ub);
		} else if (ds.by_phase && g->memory == ARCH_MEM_KV) {
			graph_scan(g, pn->f, &s);
			compute_graph(g, &s, ub, pl->ctx_seq, g->swa ?
			    pl->swa_cells : 0, pl->flash_attention, &ph);
			ph.attn = sadd(ph.attn, kv);
			ph.ffn = sadd(ph.ffn, half);
			dev = umax(dev, umax(ph.attn, ph.ffn) > kept ?
			    umax(ph.attn, ph.ffn) - kept : 0);
		} else {
			dev = sadd(dev, sadd(kv, half));
		}
	}
	if (g->memory == ARCH_MEM_HYBRID && pl->ngl < (int64_t)g->n_layer + 1)
		dev = hybrid_split(pn, pl, ub, kept);
	if (pl->ngl < (int64_t)g->n_layer + 1 && per_layer_peak(pn))
		dev = c > sadd(kept, mask_bytes(g, pl, ub)) ? c - sadd(kept,
		    mask_bytes(g, pl, ub)) : 0;
	mla_host(pn, pl, ub, &kv);	/* MLA's projection on the host */
	pl->dev[1].compute_bytes = dev > kv ? dev - kv : 0;
	pl->dev[0].compute_bytes = host_inputs(pn, pl, ub);
}

static void
plan_llama_buffers(const struct planner *pn, struct plan *pl)
{
	const struct model_geom *g = pn->g;
	uint64_t ub = umin(umin(pl->ctx, pl->n_batch), pl->n_ubatch);
	uint64_t c = 0;

	if (g->plannable)
		c = compute_at(pn, pl, ub);
	pl->compute_estimated = !compute_measured(g, pl);
	pl->output_bytes = smul(smul(4, g->n_vocab), pl->n_seq);
	pl->dev[0].output_bytes = pl->output_bytes;
	if (pl->n_dev > 1 && g->plannable) {
		device_compute(pn, pl, c, ub);
	} else {
		pl->dev[0].compute_bytes = c;
	}
	pl->compute_bytes = sadd(pl->dev[0].compute_bytes,
	    pl->dev[1].compute_bytes);
	pl->forward = 0;
	pl->headroom = 0;
}

/* Totals and the verdict, for the host and for a discrete device. */
static void
plan_llama_verdict(const struct planner *pn, struct plan *pl)
{
	const struct profile *p = pn->p;
	uint64_t host = 0, heap, mapped = pl->dev[0].mapped_bytes;
	size_t i, k;

	for (i = 0; i < pl->n_dev; i++) {
		struct plan_device *d = &pl->dev[i];

		d->total_bytes = sadd(sadd(sadd(sadd(d->model_bytes,
		    d->repack_bytes), d->kv_bytes), d->compute_bytes),
		    d->output_bytes);
		for (k = 0; k < pl->n_comp; k++)	/* --mmproj, --lora */
			d->total_bytes = sadd(d->total_bytes,
			    pl->comp[k].bytes[i]);
		if (d->host)
			host = sadd(host, d->total_bytes);
	}
	for (k = 0; k < pl->n_comp; k++)
		mapped = sadd(mapped, pl->comp[k].mapped);
	heap = host > mapped ? host - mapped : 0;
	pl->weights_heap = sadd(pl->dev[0].model_bytes -
	    pl->dev[0].mapped_bytes, pl->dev[0].repack_bytes);
	pl->total = host;
	pl->budgeted = heap;
	pl->memory = p->memory;
	pl->reserve = p->reserve;
	pl->budget = p->memory - p->reserve;
	pl->dev[0].memory_bytes = pl->budget;
	pl->fits_budget = heap <= pl->budget;
	pl->fits_memory = host <= pl->memory;
	pl->device_over = false;
	if (pl->n_dev > 1 && !pl->dev[1].host) {
		pl->dev[1].memory_bytes = p->device_memory - p->device_reserve;
		pl->device_over = pl->dev[1].total_bytes >
		    pl->dev[1].memory_bytes;
	} else if (pl->n_dev > 1) {
		pl->dev[1].memory_bytes = pl->budget;
	}
	pl->fits = pl->fits_budget && pl->fits_memory && !pl->device_over;
	if (!pl->fits_budget)
		pl->over = heap - pl->budget;
	else if (!pl->fits_memory)
		pl->over = host - pl->memory;
	else
		pl->over = pl->device_over ? pl->dev[1].total_bytes -
		    pl->dev[1].memory_bytes : 0;
}

void
plan_llama_at(const struct planner *pn, uint64_t ctx, struct plan *pl)
{
	size_t i;

	for (i = 0; i < pl->n_dev; i++)
		pl->dev[i].kv_bytes = pl->dev[i].compute_bytes =
		    pl->dev[i].output_bytes = 0;
	plan_llama_cells(pn, ctx, pl);
	plan_llama_kv(pn, pl);
	plan_llama_buffers(pn, pl);
	plan_llama_verdict(pn, pl);
}
