/*
 * graph-cuda.c - what ggml-cuda (llama.cpp v0.5.0) does otherwise to a
 * node of the graph, read in its source (ggml/src/ggml-cuda: fattn.cu,
 * fattn-common.cuh, ggml-cuda.cu) and not yet held to a measurement:
 * whether it has a flash-attention kernel for a node, and what that
 * kernel adds to the node's allocation (its f16 copies of K and V). The
 * scheduler adds a tensor's pad in a CUDA buffer alone (a weight's is
 * plan_cuda_row_pad's).
 */
#include "config.h"

#include "plan/graph-impl.h"
#include "plan/llfacts-impl.h"

#define CUDA_KQ_STRIDE 256 /* FATTN_KQ_STRIDE */

/* Whether ggml-cuda has a flash-attention kernel for these head widths
 * (its best-kernel choice: NONE otherwise). gqa_opt: the GQA batching
 * applies (GQA of 2 or more, no ALiBi, cells a multiple of 256). */
static bool
fa_widths_run(const struct gb_fa *fa, bool gqa_opt, uint64_t gqa)
{
	switch (fa->hk) {
	case 40:
	case 64:
	case 72:
	case 80:
	case 96:
	case 112:
	case 128:
	case 256:
		return fa->hv == fa->hk;
	case 192:
		return fa->hv == 128 && gqa_opt && gqa % 8 == 0;
	case 320:
		return fa->hv == 256 && gqa_opt && gqa % 32 == 0;
	case 512:
	case 576:
		return fa->hv == 512 && gqa_opt;
	default:
		return false;
	}
}

/*
 * Whether the kernel chosen is the vector one, for a GPU with tensor
 * cores (Turing and later) of compute capability 8.9 or more (Ada,
 * Hopper, Blackwell); Turing and Ampere take the vector kernel at one
 * token a stream where this says two. The MMA and tile kernels take K
 * and V in f16.
 */
static bool
fa_vector(const struct shape *s, const struct gb_fa *fa, bool gqa_opt,
    bool quantized)
{
	bool vec_ok = fa->hk <= 256 && fa->hk % 64 == 0 && fa->hk != 192 &&
	    fa->cells % CUDA_KQ_STRIDE == 0;

	if (!vec_ok || fa->hk == 40 || fa->hk == 72)
		return false;
	if (quantized && s->ts <= 2)
		return true;
	return !gqa_opt && s->ts == 1;
}

/* The bytes of one f16 copy of K (or V): its view's elements. */
static uint64_t
f16_copy(const struct shape *s, const struct gb_fa *fa, uint64_t h)
{
	return smul(smul(smul(2, h), fa->cells), smul(fa->nkv, s->s));
}

/*
 * ggml_cuda_flash_attn_ext_get_alloc_size: the output, then (each
 * aligned to 128) an f16 copy of K where the kernel takes f16 and K is
 * not, and one of V, none when V is a view of K's rows (MLA). Returns
 * what that adds to the output's bytes.
 */
static uint64_t
fa_pad(const struct shape *s, const struct gb_fa *fa, uint64_t out, bool vec)
{
	/* the vector kernels built: f16-f16, q8_0-q8_0 (and q4_0, bf16) */
	bool fallback = vec && s->kt != s->vt;
	bool k16 = (!vec || fallback) && s->kt != KV_F16;
	bool v16 = (!vec || fallback) && s->vt != KV_F16;
	uint64_t end = out;

	if (k16)
		end = sadd(plan_pad(end, PLAN_CUDA_ALIGN),
		    f16_copy(s, fa, fa->hk));
	if (v16 && !(fa->v_is_k && k16))
		end = sadd(plan_pad(end, PLAN_CUDA_ALIGN),
		    f16_copy(s, fa, fa->hv));
	return end - out;
}

void
gb_cuda_fa(struct sc_graph *b, const struct shape *s, int32_t i,
    const struct gb_fa *fa)
{
	uint64_t gqa = fa->nkv ? fa->nh / fa->nkv : 0;
	bool gqa_opt = gqa >= 2 && !fa->alibi &&
	    fa->cells % CUDA_KQ_STRIDE == 0;
	bool quantized = s->kt != KV_F16 || s->vt != KV_F16;

	if (i == GA_NONE || s->gpu != SC_GPU_CUDA)
		return;
	if (!fa_widths_run(fa, gqa_opt, gqa)) {
		b->t[i].host_only = true;
		return;
	}
	b->t[i].pad = fa_pad(s, fa, b->t[i].bytes,
	    fa_vector(s, fa, gqa_opt, quantized));
}
