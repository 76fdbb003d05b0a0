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
#include "plan/graph.h"
#include "plan/plan-llama-impl.h"

#define sadd plan_sadd
#define smul plan_smul

#define umin plan_umin
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
	pl->n_cpu_moe = profile_gpu(p) ? rq->n_cpu_moe : 0;
	if (pl->n_cpu_moe < 0 || pl->n_cpu_moe > (int64_t)pn->g->n_layer)
		pl->n_cpu_moe = (int64_t)pn->g->n_layer;
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
	return plan_tensor_layer(t, n_layer);
}

bool
plan_backend_is(const struct planner *pn, const char *backend)
{
	return pn->p->backend != NULL && strcmp(pn->p->backend, backend) == 0;
}

/*
 * The alignment of the host's weights read into memory (no mmap): beside
 * Vulkan they sit in its host buffer type (Vulkan_Host), aligned to the
 * device's minMemoryMapAlignment, which Vulkan makes at least 64 (64 on
 * llvmpipe: measured, glm4moe's and gpt-oss's host layers); elsewhere
 * the CPU's 32 (CUDA's host buffer takes the CPU's alignment).
 */
static uint64_t
host_align(const struct planner *pn, const struct plan *pl)
{
	if (pl->n_dev > 1 && plan_backend_is(pn, "vulkan"))
		return 64;
	return PLAN_TENSOR_ALIGN;
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
 * Whether the architecture's loader creates the tied output copy before
 * token_embd (its row's ARCH_OUTPUT_FIRST: gemma3n). llama.cpp shares a
 * duplicated tensor only with one created earlier in the same buffer
 * type, so then both are loaded even where they share one: read into
 * memory (no mmap), that buffer holds the embedding twice (measured
 * beside Vulkan at -ngl 0, and on the CPU with F16 weights). Mapped, both
 * point at the same bytes of the file (the loader maps tensors by name;
 * not measured: the oracle reads with mmap off).
 */
static bool
output_created_first(const struct model_geom *g)
{
	return (arch_row(g)->quirks & ARCH_OUTPUT_FIRST) != 0;
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

	if (pn->g->memory == ARCH_MEM_NONE)
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
	if (emb == NULL || !emb->size_ok)
		return;
	if (pl->n_dev > 1 && pl->ngl >= 1) {
		pl->dev[1].model_bytes = sadd(pl->dev[1].model_bytes,
		    pad32(emb->nbytes));
	} else if (pl->n_dev == 1 && emb->ne[2] == 1 && emb->ne[3] == 1 &&
	    emb->ne[1] >= 2 &&
	    plan_repacks(emb->type, emb->ne[1], pn->p->cpu_features)) {
		pl->dev[0].repack_bytes = sadd(pl->dev[0].repack_bytes,
		    pad32(emb->nbytes));
		pl->n_repacked++;
	} else if (output_created_first(pn->g) && !pl->mmap) {
		pl->dev[0].model_bytes = sadd(pl->dev[0].model_bytes,
		    plan_pad(emb->nbytes, host_align(pn, pl)));
	}
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

/* Whether tensor t's claim test has a tensor beyond the probed device's
 * largest (K006). */
static bool
oversize(const struct planner *pn, const struct plan *pl,
    const struct gguf_tensor *t)
{
	return pl->probed && pn->probe->max_tensor > 0 &&
	    plan_claim_bytes(pn->g, pn->f, t) > pn->probe->max_tensor;
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
	return pl->probed && ((pn->probe->fallback != NULL &&
	    pn->probe->fallback[i]) || oversize(pn, pl, &pn->f->tensors[i]));
}

/* The probe's device in pl, and its counts zeroed (a plan again). */
static void
probed_device(const struct planner *pn, struct plan *pl)
{
	pl->probed = pn->probe != NULL && pn->probe->device != NULL &&
	    pl->n_dev > 1;
	pl->fallback_bytes = 0;
	pl->n_fallback = 0;
	pl->n_oversize = 0;
	pl->max_tensor = pl->probed ? pn->probe->max_tensor : 0;
	memset(pl->probed_dev, 0, sizeof pl->probed_dev);
	if (pl->probed)
		snprintf(pl->probed_dev, sizeof pl->probed_dev, "%s",
		    pn->probe->device);
}

/*
 * Whether tensor t of layer il is an expert FFN weight --n-cpu-moe keeps
 * on the CPU: llama-cli's override pattern (common.h, v0.5.0) for each of
 * the first layers, "blk\.N\.ffn_(up|down|gate|gate_up)_(ch|)exps",
 * searched in the name (biases too); --cpu-moe the same for every layer.
 * The loader then picks among the CPU's buffer types, the device's host
 * buffer type first (measured on Vulkan: q4_0 experts in Vulkan_Host,
 * not repacked).
 */
static bool
cpu_moe(const struct plan *pl, const struct gguf_tensor *t, int64_t il)
{
	static const char *const kinds[] = { ".ffn_up_", ".ffn_down_",
	    ".ffn_gate_", ".ffn_gate_up_" };
	const char *p, *end = t->name.p + t->name.n;
	size_t k, n;

	if (il < 0 || il >= pl->n_cpu_moe)
		return false;
	for (k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
		n = strlen(kinds[k]);
		p = memmem(t->name.p, t->name.n, kinds[k], n);
		if (p == NULL)
			continue;
		p += n;
		if ((end - p >= 4 && memcmp(p, "exps", 4) == 0) ||
		    (end - p >= 6 && memcmp(p, "chexps", 6) == 0))
			return true;
	}
	return false;
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
 * The layer whose device holds tensor t: plan_tensor_layer's, but for the
 * token_embd_norm tensors (llama.cpp's tensor table: TOKEN_EMBD_NORM is
 * a repeating-layer tensor created in layer 0, so it goes with layer 0;
 * lfm2's, loaded as its output norm, OUTPUT_NORM_LFM2, with the output
 * layer: the converter named it wrongly); gemma3n's per-layer input
 * projection and its norm (PER_LAYER_MODEL_PROJ, PER_LAYER_PROJ_NORM:
 * repeating-layer tensors too) with layer 0, its AltUp projections
 * (ALTUP_PROJ, ALTUP_UNEMBD_PROJ: output-layer tensors) with the output
 * layer (measured: exact on Vulkan at -ngl 99, 2 and 0).
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
	    { "altup_unembd_proj.", true } };
	size_t i, n;

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
 */
bool
plan_host_only(const struct planner *pn, const struct gguf_tensor *t)
{
	const struct model_geom *g = pn->g;
	uint64_t heads = t->ne[1] > 0 ? (uint64_t)t->ne[1] : 0;

	if (!plan_backend_is(pn, "vulkan") || !plan_name_ends(t, ".ssm_a"))
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
	pl->cpu_moe_bytes = 0;
	pl->n_cpu_moe_tensors = 0;
	for (i = 0; i < pn->f->tensors_n; i++) {
		const struct gguf_tensor *t = &pn->f->tensors[i];
		int64_t il = plan_weight_layer(pn, t);
		struct plan_device *d = &pl->dev[0];
		bool fb = plan_falls_back(pn, pl, i);
		bool on_dev = pl->n_dev > 1 && il >= 0 && il >= gpu_start &&
		    device_runs(pn, i) && !plan_host_only(pn, t);
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
		if (on_dev && cpu_moe(pl, t, il)) {
			pl->cpu_moe_bytes = sadd(pl->cpu_moe_bytes,
			    pad32(t->nbytes));
			pl->n_cpu_moe_tensors++;
			on_dev = false;	/* the host's, claimed or not */
		}
		if (on_dev && fb) {
			pl->fallback_bytes = sadd(pl->fallback_bytes,
			    pad32(t->nbytes));
			pl->n_fallback++;
			pl->n_oversize += oversize(pn, pl, t);
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
			d->model_bytes = sadd(d->model_bytes,
			    plan_pad(t->nbytes, host_align(pn, pl)));
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
uint64_t
plan_device_layers(const struct model_geom *g, int64_t ngl)
{
	/* the output layer is offloaded first */
	uint64_t n = ngl > 1 ? (uint64_t)ngl - 1 : 0;

	return n > g->n_layer ? g->n_layer : n;
}

/* Columns of one layer's FFN tensor: ne[1] of a 2-D or 3-D weight. */
static uint64_t
ffn_cols(const struct gguf_tensor *t)
{
	return t->ne[1] > 0 ? (uint64_t)t->ne[1] : 0;
}

/* The FFN widths of a file: dense, experts (per token) and shared. */
void
plan_graph_scan(const struct model_geom *g, const struct gguf_file *f,
    struct graph_shape *s)
{
	uint64_t up = 0, exps = 0, shexp = 0, used = plan_experts_used(g, f);
	bool gate = false, gate_exps = false, gate_sh = false, bias = false;
	size_t i;

	for (i = 0; f != NULL && i < f->tensors_n; i++) {
		const struct gguf_tensor *t = &f->tensors[i];

		if (plan_name_ends(t, ".ffn_up.weight"))
			up = ffn_cols(t) > up ? ffn_cols(t) : up;
		else if (plan_name_ends(t, ".ffn_up_exps.weight"))
			exps = ffn_cols(t) > exps ? ffn_cols(t) : exps;
		else if (plan_name_ends(t, ".ffn_up_shexp.weight"))
			shexp = ffn_cols(t) > shexp ? ffn_cols(t) : shexp;
		gate |= plan_name_ends(t, ".ffn_gate.weight");
		gate_exps |= plan_name_ends(t, ".ffn_gate_exps.weight");
		gate_sh |= plan_name_ends(t, ".ffn_gate_shexp.weight");
		bias |= plan_name_ends(t, ".ffn_gate_exps.bias");
	}
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
	/* the down projection's output, every used expert's row, goes where
	 * the gate's and up's outputs were unless it is wider (measured on
	 * the CPU: qwen3moe-wide, 2048 wide, 128 experts of 768 with 8 used,
	 * and 32 with 4 used) */
	if (gate_exps && !bias && smul(used, g->n_embd) > smul(2 * used, exps))
		s->ffn = umax(s->ffn, sadd(smul(3 * used, exps),
		    smul(used, g->n_embd)));
	s->ffn = umax(s->ffn, smul(gate_sh ? 3 : 1, shexp));
	s->parallel = arch_row(g)->graph.block == GB_PAR_ATTN;
	s->cohere2 = arch_row(g)->graph.block == GB_PAR_RES;
	/* per_layer_token_embd's rows: n_layer per-layer embeddings */
	s->per_layer = 0;
	for (i = 0; f != NULL && i < f->tensors_n; i++)
		if (plan_name_ends(&f->tensors[i],
		    "per_layer_token_embd.weight") &&
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
uint64_t
plan_tensor_rows(const struct gguf_file *f, const char *suffix)
{
	size_t i;

	for (i = 0; f != NULL && i < f->tensors_n; i++)
		if (plan_name_ends(&f->tensors[i], suffix))
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
uint64_t
plan_compute_mamba2(const struct model_geom *g, const struct gguf_file *f,
    uint64_t ub, uint64_t n_seq)
{
	uint64_t di = g->ssm_d_inner, ds = g->ssm_d_state;
	uint64_t xbc = sadd(di, smul(smul(2, g->ssm_n_group), ds));
	uint64_t conv = g->ssm_d_conv ? g->ssm_d_conv - 1 : 0;
	uint64_t tok = n_seq ? ub / n_seq : ub;
	uint64_t cols = sadd(sadd(plan_tensor_rows(f, ".ssm_in.weight"),
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

/*
 * The phases of one ubatch of ub tokens, in bytes: the logits (with the
 * final norm's input and output), the attention (Q, K, V and their
 * outputs; KQ and its softmax unless flash attention) and the FFN (s's
 * intermediates and the residuals), each beside the masks (f16 with flash
 * attention, else f32; a second one over the sliding window's cells). An
 * encoder attends the ubatch itself and has no logits.
 */
uint64_t
plan_compute_graph(const struct model_geom *g, const struct graph_shape *s,
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

	plan_graph_scan(g, NULL, &s);
	return plan_compute_graph(g, &s, ub, n_kv, 0, fa, NULL);
}

/*
 * Whether g's fitted compute buffer is within 10 % of llama.cpp's
 * measured one (its row's fit.cpu: the CPU table, ctx 512-32768, FA on
 * and off, f16 and q8_0 caches, -np 1 and 4). Beside a GPU backend the
 * split between host and device holds for fewer (plan_gpu_measured: the
 * rows' split.measured): for the others the device's share is an
 * estimate.
 */
static bool
compute_measured(const struct model_geom *g, const struct plan *pl)
{
	if (pl->n_dev > 1)
		return plan_gpu_measured(g);
	return arch_row(g)->fit.cpu;
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

/*
 * With a quantized cache the rotations add Q-, K- and V-wide tensors to
 * the graph and ggml-alloc's greedy layout shifts: measured (v0.5.0, CPU,
 * the oracle's models) the buffer is one embedding-wide f32 tensor of
 * the ubatch smaller (-1) once the masks are at least that big, or
 * larger (1). Per architecture: with flash attention, for a quantized K
 * (only with an f16 V) or a quantized V; without it (V is then f16), for
 * a quantized K, a Q-wide tensor smaller (-1; -2: whatever the masks):
 * the row's fit (fa_k, fa_v, nofa_k). An architecture whose row has no
 * shift shifts nothing (its compute is an estimate anyway).
 */

/*
 * The compute buffer c with pl's quantized cache: rotations and, when the
 * whole graph runs on one device (shift), the layout shift.
 */
uint64_t
plan_quantized_cache(const struct model_geom *g, const struct plan *pl,
    uint64_t c, uint64_t ub, uint64_t mask, bool shift)
{
	bool qk = kv_type_info(pl->kv_k)->quantized;
	bool qv = kv_type_info(pl->kv_v)->quantized;
	uint64_t row = smul(smul(4, ub), g->n_embd), q = row;
	const struct arch_fit *fit = &arch_row(g)->fit;
	int k = 0;

	if (!qk && !qv)
		return c;
	c = sadd(c, plan_rot_bytes(g, pl));
	if (!fit->shift || !shift)
		return c;
	if (pl->flash_attention)
		k = qk && !qv ? fit->fa_k : 0;
	if (pl->flash_attention && qv)
		k = fit->fa_v;
	if (!pl->flash_attention && qk) {
		k = fit->nofa_k;
		if (k < 0)
			q = smul(smul(4, ub), smul(plan_head_width(g, false),
			    g->n_head[0]));
	}
	if (k == -1 && mask < row)
		return c;
	if (k > 0)
		return sadd(c, row);
	return k < 0 && c > q ? c - q : c;
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
	uint64_t in = plan_tensor_rows(pn->f, ".ssm_in.weight");
	uint64_t gqa = plan_kv_width(g);
	uint64_t cols = tok >= 512 ? smul(2, sadd(in, di)) :
	    sadd(sadd(in, smul(2, xbc)), di);
	uint64_t st = smul(4, sadd(smul(ds, di), smul(smul(2, conv), xbc)));
	uint64_t vidx = pl->flash_attention ? 0 : smul(smul(8, ub), gqa);
	uint64_t m;

	cols = sadd(cols, sadd(smul(3, g->n_embd), 7));
	m = sadd(sadd(smul(smul(4, ub), cols), 32), smul(pl->n_seq, st));
	m = sadd(sadd(m, plan_mask_bytes(g, pl, ub)), vidx > 8 * ub ?
	    vidx - 8 * ub : 0);
	if (!pl->flash_attention)
		dense = sadd(sadd(dense, vidx), sadd(smul(smul(16, ub),
		    gqa), 32));
	return sadd(umax(m, dense), plan_rot_matrices(g, pl));
}

/* The host's compute buffer at pl's settings (plan_llama_cells first);
 * *placed_out says whether it is llama.cpp's graph placed node by node. */
static uint64_t
compute_at(const struct planner *pn, const struct plan *pl, uint64_t ub,
    bool *placed_out)
{
	const struct model_geom *g = pn->g;
	uint8_t fit = arch_row(g)->fit.compute;
	struct graph_shape s;
	uint64_t logits = smul(smul(4, ub), sadd(sadd(g->n_vocab,
	    smul(2, g->n_embd)), 1));
	uint64_t placed, dev;

	*placed_out = pl->n_dev == 1 &&
	    plan_graph_compute(pn, pl, ub, &placed, &dev);
	if (*placed_out)
		return placed;	/* the graph itself, placed */
	if (g->memory == ARCH_MEM_RECURRENT && fit == FIT_MAMBA)
		return umax(compute_mamba(g, ub, pl->n_seq), logits);
	if (g->memory == ARCH_MEM_RECURRENT && fit == FIT_MAMBA2)
		return umax(plan_compute_mamba2(g, pn->f, ub, pl->n_seq),
		    logits);
	plan_graph_scan(g, pn->f, &s);
	if (g->memory == ARCH_MEM_HYBRID && fit == FIT_GRANITEHYBRID)
		return umax(compute_granitehybrid(g, pn, pl, ub,
		    plan_compute_graph(g, &s, ub, pl->ctx_seq, 0,
		    pl->flash_attention, NULL)), logits);
	return plan_quantized_cache(g, pl, plan_compute_graph(g, &s, ub,
	    pl->ctx_seq, g->swa ? pl->swa_cells : 0, pl->flash_attention, NULL),
	    ub, plan_mask_bytes(g, pl, ub), pl->n_dev == 1);
}

/* One layer's cache in every stream: its cells of K and V rows. */
uint64_t
plan_layer_kv(const struct model_geom *g, const struct plan *pl, uint32_t il)
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
		    plan_layer_kv(g, pl, il);

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
	dl = plan_device_layers(g, pl->ngl);
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

void
plan_params_of(const struct plan *pl, struct plan_params *pp)
{
	memset(pp, 0, sizeof *pp);
	pp->ctx = pl->ctx;
	pp->n_batch = pl->n_batch;
	pp->n_ubatch = pl->n_ubatch;
	pp->n_seq = pl->n_seq;
	pp->kv_k = pl->kv_k;
	pp->kv_v = pl->kv_v;
	pp->flash_attention = pl->flash_attention;
	pp->swa_full = pl->swa_full;
	pp->ngl = pl->ngl;
	pp->n_cpu_moe = pl->n_cpu_moe;
}

bool
plan_params_eq(const struct plan_params *a, const struct plan_params *b)
{
	return a->ctx == b->ctx && a->n_batch == b->n_batch &&
	    a->n_ubatch == b->n_ubatch && a->n_seq == b->n_seq &&
	    a->kv_k == b->kv_k && a->kv_v == b->kv_v &&
	    a->flash_attention == b->flash_attention &&
	    a->swa_full == b->swa_full && a->ngl == b->ngl &&
	    a->n_cpu_moe == b->n_cpu_moe;
}

const struct plan_measured *
plan_measured_at(const struct planner *pn, const struct plan *pl)
{
	struct plan_params pp;
	size_t i;

	if (pn->probe == NULL)
		return NULL;
	plan_params_of(pl, &pp);
	for (i = 0; i < pn->probe->n_measured; i++)
		if (plan_params_eq(&pp, &pn->probe->measured[i].at))
			return &pn->probe->measured[i];
	return NULL;
}

/* With a measurement at pl's parameters: its compute buffers for the
 * model's, each on the device its buffer type names (plan_measured). */
static void
take_measured(const struct planner *pn, struct plan *pl)
{
	const struct plan_measured *m = plan_measured_at(pn, pl);
	const char *gpu = pl->probed ? pl->probed_dev : pl->dev[1].name;
	size_t i, d;

	pl->compute_measured = false;
	if (m == NULL || m->refused)
		return;
	for (d = 0; d < PLAN_MAX_DEVICES; d++) {
		pl->dev[d].compute_modeled = pl->dev[d].compute_bytes;
		pl->dev[d].compute_bytes = 0;
	}
	for (i = 0; i < m->n; i++) {
		d = pl->n_dev > 1 && strcmp(m->name[i], gpu) == 0;
		pl->dev[d].compute_bytes = sadd(pl->dev[d].compute_bytes,
		    m->bytes[i]);
	}
	pl->compute_measured = true;
	pl->compute_placed = false;
	pl->compute_estimated = false;
	pl->compute_why = NULL;
	snprintf(pl->measured_by, sizeof pl->measured_by, "llama.cpp %s",
	    m->by != NULL ? m->by : "");
	pl->measured_cached = m->cached;
}

static void
plan_llama_buffers(const struct planner *pn, struct plan *pl)
{
	const struct model_geom *g = pn->g;
	uint64_t ub = umin(umin(pl->ctx, pl->n_batch), pl->n_ubatch);
	uint64_t c = 0;
	bool placed = false;

	if (g->plannable)
		c = compute_at(pn, pl, ub, &placed);
	pl->compute_placed = placed;
	pl->compute_estimated = !placed && !compute_measured(g, pl);
	pl->compute_why = NULL;
	pl->output_bytes = smul(smul(4, g->n_vocab), pl->n_seq);
	pl->dev[0].output_bytes = pl->output_bytes;
	if (pl->n_dev > 1 && g->plannable) {
		plan_llama_gpu_compute(pn, pl, c, ub);
		placed = plan_graph_compute(pn, pl, ub,
		    &pl->dev[0].compute_bytes, &pl->dev[1].compute_bytes);
		pl->compute_placed = placed;
		if (placed) {
			pl->compute_estimated = false;
			pl->compute_why = NULL;
		}
	} else {
		pl->dev[0].compute_bytes = c;
	}
	take_measured(pn, pl);
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
