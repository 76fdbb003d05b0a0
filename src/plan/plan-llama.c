/*
 * plan-llama.c - llama.cpp's memory plan (profiles with runtime
 * llama.cpp), the orchestrator: where each weight goes (a file mapping,
 * the host heap, ggml-cpu's CPU_REPACK copy, a GPU's buffers under -ngl),
 * the KV cache with K and V types of their own, streams for -np and the
 * sliding-window cache (memory-and-kv.md §3-§8), the output buffer and
 * the compute buffer of one ubatch, per device, and the verdict against
 * each device's memory. The compute buffer is llama.cpp's graph placed
 * (graph.h) wherever it can be built, else the fitted estimate
 * (fit-impl.h); a measurement (--measure) replaces either. Facts from
 * llama.cpp v0.5.0 (ggml 0.25.1) as measured with its own libraries
 * (llfacts-impl.h); no auto-switch of the cache type (llama.cpp never
 * does).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "facts/arch.h"
#include "kernels/ggml-types.h"
#include "plan/fit-impl.h"
#include "plan/graph.h"
#include "plan/llfacts-impl.h"
#include "plan/plan-impl.h"

#define sadd plan_sadd
#define smul plan_smul

#define umin plan_umin
#define umax plan_umax
#define pad32 plan_pad32


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

/*
 * The alignment of the host's weights read into memory (no mmap): beside
 * Vulkan they sit in its host buffer type (Vulkan_Host), aligned to the
 * device's minMemoryMapAlignment; elsewhere the CPU's (CUDA's host
 * buffer takes the CPU's alignment).
 */
static uint64_t
host_align(const struct planner *pn, const struct plan *pl)
{
	if (pl->n_dev > 1 && plan_backend_is(pn, "vulkan"))
		return PLAN_VULKAN_HOST_ALIGN;
	return PLAN_TENSOR_ALIGN;
}

/*
 * The alignment of a tensor in the device's buffer: Vulkan's storage
 * buffer offset alignment (measured: qwen35's 16-byte ssm_a and ssm_dt
 * on the device), CUDA's 128 (read in ggml-cuda), else the CPU's.
 */
static uint64_t
device_align(const struct planner *pn)
{
	if (plan_backend_is(pn, "cuda"))
		return PLAN_CUDA_ALIGN;
	return plan_backend_is(pn, "vulkan") ? PLAN_VULKAN_ALIGN :
	    PLAN_TENSOR_ALIGN;
}

/* Tensor t's bytes in the device's buffer: its alloc size (a CUDA
 * buffer pads a quantized tensor's last row), aligned. */
static uint64_t
device_bytes(const struct planner *pn, const struct gguf_tensor *t)
{
	uint64_t pad = plan_backend_is(pn, "cuda") ? plan_cuda_row_pad(t) : 0;

	return plan_pad(sadd(t->nbytes, pad), device_align(pn));
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
 * repacks that copy (an encoder has no output matrix, unless its row
 * says ARCH_ENCODER_OUTPUT, and an ARCH_EMBD_OUTPUT one multiplies
 * token_embd itself); beside a GPU backend the copy is the device's when
 * the output layer is offloaded.
 */
static void
tied_output(const struct planner *pn, struct plan *pl)
{
	const struct gguf_tensor *emb = NULL;
	size_t i;
	bool tied;

	if ((pn->g->memory == ARCH_MEM_NONE &&
	    !(arch_row(pn->g)->quirks & ARCH_ENCODER_OUTPUT)) ||
	    (arch_row(pn->g)->quirks & ARCH_EMBD_OUTPUT))
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
	tied = pl->n_dev > 1 && pl->ngl >= 1;
	if (tied && plan_tied_oversize(pl, emb)) {
		/* the device refuses it (K006): the host's buffer types,
		 * CPU_REPACK first, else the CPU's, where it shares
		 * token_embd's bytes */
		pl->fallback_bytes = sadd(pl->fallback_bytes,
		    pad32(emb->nbytes));
		pl->n_fallback++;
		pl->n_oversize++;
	}
	if (tied && !plan_tied_oversize(pl, emb)) {
		pl->dev[1].model_bytes = sadd(pl->dev[1].model_bytes,
		    device_bytes(pn, emb));
	} else if ((pl->n_dev == 1 || tied) && emb->ne[2] == 1 &&
	    emb->ne[3] == 1 && emb->ne[1] >= 2 &&
	    plan_repacks(emb->type, emb->ne[1], pn->p->cpu_features)) {
		pl->dev[0].repack_bytes = sadd(pl->dev[0].repack_bytes,
		    pad32(emb->nbytes));
		pl->n_repacked++;
	} else if (output_created_first(pn->g) && !pl->mmap && !tied) {
		pl->dev[0].model_bytes = sadd(pl->dev[0].model_bytes,
		    plan_pad(emb->nbytes, host_align(pn, pl)));
	}
}

/*
 * The device's limits: its largest tensor (ggml-vulkan's supports_op
 * refuses a larger source or result, and llama.cpp's buffer-type test a
 * weight whose claim test has one) measured by the probe, else the
 * profile's max_alloc; the largest buffer ggml-alloc gives a compute
 * buffer (ggml_backend_buft_get_max_size: beyond it the buffer is placed
 * in chunks no tensor spans), the profile's host_max_alloc for the host
 * buffer type. Vulkan's device buffer type has the same limit as its host
 * one (both are its suballocation block), Metal's its maxBufferLength,
 * the device's largest tensor; CUDA's and the CPU's none. A limit
 * neither stated nor probed is unknown: the plan assumes none and says
 * so (limits_known).
 */
static void
device_limits(const struct planner *pn, struct plan *pl)
{
	const struct profile *p = pn->p;

	pl->max_tensor = pl->host_block = pl->dev_block = 0;
	pl->max_tensor_from = pl->host_block_from = PLAN_LIMIT_NONE;
	pl->limits_known = true;
	if (pl->n_dev < 2)
		return;
	if (pl->probed && pn->probe->max_tensor_known) {
		pl->max_tensor = pn->probe->max_tensor;
		pl->max_tensor_from = PLAN_LIMIT_PROBE;
	} else if (p->max_alloc_set) {
		pl->max_tensor = p->max_alloc;
		pl->max_tensor_from = PLAN_LIMIT_PROFILE;
	} else if (pl->probed) {	/* probed before the L line */
		pl->max_tensor = pn->probe->max_tensor;
		pl->max_tensor_from = pl->max_tensor ? PLAN_LIMIT_PROBE :
		    PLAN_LIMIT_UNKNOWN;
	} else {
		pl->max_tensor_from = PLAN_LIMIT_UNKNOWN;
	}
	if (p->host_max_alloc_set) {
		pl->host_block = p->host_max_alloc;
		pl->host_block_from = PLAN_LIMIT_PROFILE;
	} else if (plan_backend_is(pn, "vulkan")) {
		pl->host_block_from = PLAN_LIMIT_UNKNOWN;
	}
	if (plan_backend_is(pn, "vulkan"))
		pl->dev_block = pl->host_block;
	else if (plan_backend_is(pn, "metal"))
		pl->dev_block = pl->max_tensor;
	pl->limits_known = pl->max_tensor_from != PLAN_LIMIT_UNKNOWN &&
	    pl->host_block_from != PLAN_LIMIT_UNKNOWN;
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
	memset(pl->probed_dev, 0, sizeof pl->probed_dev);
	if (pl->probed)
		snprintf(pl->probed_dev, sizeof pl->probed_dev, "%s",
		    pn->probe->device);
	device_limits(pn, pl);
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

/* Whether name (of n bytes) ends with sfx. */
static bool
ends_with(const char *name, size_t n, const char *sfx)
{
	size_t k = strlen(sfx);

	return n > k && memcmp(name + n - k, sfx, k) == 0;
}

/* Of an MTP layer under ARCH_MTP_TRUNK_SKIP, the tensors llama.cpp
 * creates with the layer's skip flag: the ones it requires. */
static bool
mtp_required(const struct gguf_tensor *t)
{
	static const char *const sfx[] = { ".attn_norm.weight",
	    ".attn_q.weight", ".attn_k.weight", ".attn_v.weight",
	    ".attn_qkv.weight", ".attn_q.bias", ".attn_k.bias", ".attn_v.bias",
	    ".attn_qkv.bias", ".attn_output.weight", ".ffn_norm.weight",
	    ".nextn.eh_proj.weight", ".nextn.enorm.weight",
	    ".nextn.hnorm.weight" };
	size_t i;

	for (i = 0; i < sizeof sfx / sizeof sfx[0]; i++)
		if (ends_with(t->name.p, t->name.n, sfx[i]))
			return true;
	return false;
}

/* An MTP layer's tensor llama.cpp loads all the same: its exp_probs_b,
 * under ARCH_MTP_PROBS_B; all but the required ones under
 * ARCH_MTP_TRUNK_SKIP. */
static bool
mtp_loaded(const struct model_geom *g, const struct gguf_tensor *t)
{
	uint32_t q = arch_row(g)->quirks;

	if (q & ARCH_MTP_TRUNK_SKIP)
		return !mtp_required(t);
	return (q & ARCH_MTP_PROBS_B) &&
	    ends_with(t->name.p, t->name.n, ".exp_probs_b.bias");
}

/*
 * rope_freqs once more on the device where the first layer that creates
 * it is on the host and a later one on the device (every layer creates
 * it; an ARCH_ROPE_FULL architecture's full-attention layers alone):
 * llama.cpp shares a duplicated tensor only within one buffer type
 * (measured: gemma4 at -ngl 2 beside Vulkan, Llama-3.2-1B's shape at -ngl
 * 5 and 12).
 */
static void
rope_copy(const struct planner *pn, struct plan *pl, int64_t gpu_start)
{
	const struct model_geom *g = pn->g;
	const struct gguf_tensor *t;
	int64_t il = plan_rope_layer(g, 0);

	if (!(arch_row(g)->quirks & ARCH_ROPE_FULL))
		il = 0;
	if (pl->n_dev < 2 || il < 0 || il >= gpu_start ||
	    (t = plan_tensor_named(pn->f, "rope_freqs.weight")) == NULL)
		return;
	while (il >= 0 && il < gpu_start)
		il = (arch_row(g)->quirks & ARCH_ROPE_FULL) ?
		    plan_rope_layer(g, (uint32_t)il + 1) :
		    il + 1 < (int64_t)g->n_layer ? il + 1 : -1;
	if (il >= 0)
		pl->dev[1].model_bytes = sadd(pl->dev[1].model_bytes,
		    device_bytes(pn, t));
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
		if (mtp_layer(pn->g, il) && !mtp_loaded(pn->g, t))
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
			pl->n_oversize += plan_oversize(pn, pl, t);
		}
		if (on_dev && !fb) {
			d = &pl->dev[1];
			d->model_bytes = sadd(d->model_bytes,
			    device_bytes(pn, t));
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
	rope_copy(pn, pl, gpu_start);
	pl->weights_as_stored = pl->weights;
	pl->weights_mapped = pl->dev[0].mapped_bytes;
	pl->repack_bytes = pl->dev[0].repack_bytes;
}

/* An MLA layer's cache in every stream: its K rows (no V; a window's
 * cells and K width in a sliding-window layer), and DSA's indexer keys
 * where it has an indexer (MSA's V head beside them). */
static uint64_t
mla_layer_kv(const struct model_geom *g, const struct plan *pl, uint32_t il)
{
	bool swa = g->swa && g->is_swa[il];
	uint64_t row = kv_row_bytes(pl->kv_k, smul(swa ? g->head_k_swa :
	    g->head_k, g->n_head_kv[il]));

	if (g->indexer[il])
		row = sadd(row, kv_row_bytes(pl->kv_k, g->indexer_k));
	if (g->indexer[il] && g->indexer_v)
		row = sadd(row, kv_row_bytes(pl->kv_v, g->head_v));
	return smul(smul(row, swa ? pl->swa_cells : pl->ctx_seq),
	    pl->n_stream);
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
	bool hybrid = g->memory == ARCH_MEM_HYBRID, router;
	uint32_t il;

	if (dl >= g->n_layer)
		return all;
	router = g->router_kv && dl > 0;	/* offloaded first */
	/* the MTP layers are offloaded first and keep no cache (DSV4's
	 * keep their window's: counted among the layers below) */
	if (!g->dsv4)
		dl = dl > g->n_layer_nextn ? dl - g->n_layer_nextn : 0;
	/* a hybrid's recurrent layers: one layer's state each */
	for (il = 0; hybrid && il < trunk && il < ARCH_MAX_LAYERS; il++)
		n_rec += g->is_recr[il];
	rec = n_rec ? pl->state_bytes / n_rec : 0;
	if (g->dsv4)	/* every layer keeps a cache */
		trunk = g->n_layer;
	for (il = 0; (g->memory == ARCH_MEM_KV || hybrid) &&
	    il < trunk && il < ARCH_MAX_LAYERS; il++) {
		uint64_t n = g->mla && !g->dsv4 ? mla_layer_kv(g, pl, il) :
		    plan_layer_kv(g, pl, il);

		if (hybrid && g->is_recr[il])	/* falcon-h1: both */
			n = sadd(rec, g->recr_kv ? n : 0);

		if (g->n_layer_kv > 0 && il >= g->n_layer_kv)
			n = 0;	/* gemma3n: it reuses an earlier cache */

		sum = sadd(sum, n);
		if (il >= trunk - dl)
			on = sadd(on, n);
	}
	if (g->router_kv && sum <= all) {	/* the rest is the router's */
		on = router ? sadd(on, all - sum) : on;
		sum = all;
	}
	return sum == all ? on : trunk ? all / trunk * dl : 0;
}

/* What a CUDA buffer adds to a cache tensor of type t, ne0 wide and
 * bytes long: a quantized one's last row padded, then 128's alignment. */
static uint64_t
cuda_cache_pad(enum kv_type t, uint64_t ne0, uint64_t bytes)
{
	uint64_t rest = ne0 % PLAN_CUDA_ROW_PADDING, n = bytes;

	if (kv_type_info(t)->quantized && rest != 0)
		n = sadd(n, kv_row_bytes(t, PLAN_CUDA_ROW_PADDING - rest));
	return plan_pad(n, PLAN_CUDA_ALIGN) - bytes;
}

/* What ggml-cuda adds to layer il's K and V tensors (each a tensor of
 * its own, every stream's cells). */
static uint64_t
cuda_layer_kv_pad(const struct model_geom *g, const struct plan *pl,
    uint32_t il)
{
	bool swa = g->swa && g->is_swa[il];
	uint64_t hk = swa && g->head_k_swa ? g->head_k_swa : g->head_k;
	uint64_t hv = swa && g->head_v_swa ? g->head_v_swa : g->head_v;
	uint64_t cells = smul(swa ? pl->swa_cells : pl->ctx_seq,
	    pl->n_stream);
	uint64_t kw = smul(hk, g->n_head_kv[il]);
	uint64_t vw = smul(hv, g->n_head_kv[il]);

	if (kw == 0 || (g->n_layer_kv > 0 && il >= g->n_layer_kv))
		return 0;
	return sadd(cuda_cache_pad(pl->kv_k, kw,
			smul(kv_row_bytes(pl->kv_k, kw), cells)),
	    cuda_cache_pad(pl->kv_v, vw,
		smul(kv_row_bytes(pl->kv_v, vw), cells)));
}

/* What ggml-cuda adds to a recurrent layer's two f32 state tensors (r
 * and s, every sequence's): their alignment. */
static uint64_t
cuda_state_pad(const struct model_geom *g, const struct plan *pl)
{
	uint64_t r, s;

	if (!plan_state_rs(g, &r, &s))
		return 0;
	r = smul(smul(4, r), pl->n_seq);
	s = smul(smul(4, s), pl->n_seq);
	return sadd(cuda_cache_pad(KV_F32, 0, r), cuda_cache_pad(KV_F32, 0, s));
}

/*
 * What ggml-cuda adds to the caches of the layers on the device (the
 * last dl), read in its source: a recurrent layer's state, a layer's K
 * and V. Not MLA's or DSV4's tensors, nor a router's (not reproduced).
 */
static uint64_t
cuda_kv_pads(const struct model_geom *g, const struct plan *pl, uint64_t dl)
{
	bool recurrent = g->memory == ARCH_MEM_RECURRENT;
	uint64_t sum = 0;
	uint32_t il;

	if (g->memory != ARCH_MEM_KV && g->memory != ARCH_MEM_HYBRID &&
	    !recurrent)
		return 0; /* no cache: an encoder's, a diffusion LM's */
	for (il = 0; !g->mla && !g->dsv4 && il < g->n_layer &&
	    il < ARCH_MAX_LAYERS; il++) {
		bool recr = recurrent ||
		    (g->memory == ARCH_MEM_HYBRID && g->is_recr[il]);

		/* the MTP layers at the end keep no cache */
		if ((uint64_t)il + dl < g->n_layer ||
		    il >= g->n_layer - g->n_layer_nextn)
			continue;
		if (recr)
			sum = sadd(sum, cuda_state_pad(g, pl));
		if (!recr || g->recr_kv)
			sum = sadd(sum, cuda_layer_kv_pad(g, pl, il));
	}
	return sum;
}

/*
 * The largest cache tensor of the layers on the device (the last dl): a
 * layer's K or V is one tensor over every stream, and llama.cpp aborts
 * making the context when the device cannot hold it (P013).
 */
static void
device_cache_tensor(const struct model_geom *g, struct plan *pl,
    uint64_t dl)
{
	uint32_t il;
	bool v;

	pl->cache_tensor = 0;
	for (il = 0; il < g->n_layer; il++) {
		uint64_t n;

		if ((uint64_t)il + dl < g->n_layer)
			continue;
		n = plan_layer_cache_tensor(g, pl, il, &v);
		if (n > pl->cache_tensor) {
			pl->cache_tensor = n;
			pl->cache_tensor_layer = il;
			pl->cache_tensor_v = v;
		}
	}
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
		if (plan_backend_is(pn, "cuda"))
			pl->dev[1].kv_bytes = sadd(pl->dev[1].kv_bytes,
			    cuda_kv_pads(g, pl, dl));
		device_cache_tensor(g, pl, dl);
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
	pl->compute_worst = 0;
	snprintf(pl->measured_by, sizeof pl->measured_by, "llama.cpp %s",
	    m->by != NULL ? m->by : "");
	pl->measured_cached = m->cached;
}

/*
 * The compute and output buffers at pl's settings (plan_llama_cells
 * first): llama.cpp's graph placed where gguflint builds it, else the
 * fitted estimate; then a measurement at pl's parameters, if any, over
 * either.
 */
static void
plan_llama_buffers(const struct planner *pn, struct plan *pl)
{
	const struct model_geom *g = pn->g;
	uint64_t ub = umin(umin(pl->ctx, pl->n_batch), pl->n_ubatch);
	uint64_t host = 0, dev = 0;

	pl->compute_placed = g->plannable &&
	    plan_graph_compute(pn, pl, ub, &host, &dev);
	pl->compute_unmeasured = pl->compute_placed && pl->n_dev > 1 &&
	    plan_backend_is(pn, "cuda");
	pl->compute_estimated = false;
	pl->compute_why = NULL;
	pl->compute_worst = 0;
	if (pl->compute_placed) {
		pl->dev[0].compute_bytes = host;
		if (pl->n_dev > 1)
			pl->dev[1].compute_bytes = dev;
	} else if (g->plannable) {
		plan_fit_compute(pn, pl, ub);
	} else {
		pl->compute_estimated = !plan_fit_measured(g, pl);
		plan_fit_worst(g, pl);
	}
	pl->output_bytes = smul(smul(4, g->n_vocab), pl->n_seq);
	pl->dev[0].output_bytes = pl->output_bytes;
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

	pl->overhead_unknown = pl->n_dev > 1 &&
	    p->device_overhead == PROFILE_UNKNOWN;
	if (pl->n_dev > 1)	/* the GPU's own, beside llama.cpp's */
		pl->dev[1].overhead_bytes = pl->overhead_unknown ? 0 :
		    p->device_overhead;
	for (i = 0; i < pl->n_dev; i++) {
		struct plan_device *d = &pl->dev[i];

		d->total_bytes = sadd(sadd(sadd(sadd(sadd(d->model_bytes,
		    d->repack_bytes), d->kv_bytes), d->compute_bytes),
		    d->output_bytes), d->overhead_bytes);
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
