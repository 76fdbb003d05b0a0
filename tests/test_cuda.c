/*
 * test_cuda.c - ggml-cuda's rules as gguflint reads them in llama.cpp
 * v0.5.0's source (src/plan/graph-cuda.c, plan_cuda_row_pad, the
 * scheduler's CUDA buffer type): which flash-attention nodes it runs,
 * what its kernels add to a node's allocation, what a quantized tensor's
 * buffer adds, and that the compute buffer counts it. No GPU measured
 * these: each expectation is the source's arithmetic, worked by hand.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/ggml-types.h"
#include "plan/graph-impl.h"
#include "plan/llfacts-impl.h"
#include "testutil.h"

#define MiB (1024ull * 1024)

/* A graph of room for n tensors. */
static struct sc_graph
graph(size_t n)
{
	struct sc_graph b = { calloc(n, sizeof(struct sc_tensor)), 0, n,
		false };

	cr_assert(b.t != NULL);
	return b;
}

/* A shape of ts tokens a stream (one stream) on a CUDA device, caches
 * of types kt and vt. */
static struct shape
cuda_shape(uint64_t ts, enum kv_type kt, enum kv_type vt)
{
	struct shape s;

	memset(&s, 0, sizeof s);
	s.gpu = SC_GPU_CUDA;
	s.t = s.ts = ts;
	s.s = 1;
	s.kt = (uint8_t)kt;
	s.vt = (uint8_t)vt;
	return s;
}

/* An f32 flash-attention node [hd * nh, ts] over fa with shape s: its
 * pad, or UINT64_MAX when it runs on the host. */
static uint64_t
fa_pad_of(const struct shape *s, const struct gb_fa *fa)
{
	struct sc_graph b = graph(4);
	int32_t i = gb_add(&b, SC_FLASH_ATTN, 4 * fa->hv * fa->nh * s->ts, 0, 0,
	    GA_NONE, GA_NONE, GA_NONE);
	uint64_t pad;

	gb_cuda_fa(&b, s, i, fa);
	pad = b.t[i].host_only ? UINT64_MAX : b.t[i].pad;
	free(b.t);
	return pad;
}

/* 512 tokens: the MMA kernel, which takes K and V in f16: a q8_0 cache
 * adds an f16 copy of each (128 x 4096 cells x 8 heads x 2 bytes); an
 * f16 cache nothing; Vulkan never anything. */
Test(cuda, mma_copies_a_quantized_cache_to_f16)
{
	struct gb_fa fa = { 128, 128, 32, 8, 4096, false, false };
	struct shape s = cuda_shape(512, KV_Q8_0, KV_Q8_0);

	cr_expect_eq(fa_pad_of(&s, &fa), 2 * 8 * MiB);
	s.kt = KV_F16;
	cr_expect_eq(fa_pad_of(&s, &fa), 8 * MiB); /* V's alone */
	s.vt = KV_F16;
	cr_expect_eq(fa_pad_of(&s, &fa), 0);
	s = cuda_shape(512, KV_Q8_0, KV_Q8_0);
	s.gpu = SC_GPU_VULKAN;
	cr_expect_eq(fa_pad_of(&s, &fa), 0);
}

/* MLA: V is a view of K's rows, so K's copy serves both (576 x 4096). */
Test(cuda, mla_copies_k_once)
{
	struct gb_fa fa = { 576, 512, 16, 1, 4096, false, true };
	struct shape s = cuda_shape(512, KV_Q8_0, KV_Q8_0);

	cr_expect_eq(fa_pad_of(&s, &fa), 2ull * 576 * 4096);
}

/* One or two tokens a stream: the vector kernel, built for q8_0-q8_0
 * (no copy), not for q8_0-f16 (both converted: K's copy alone, V is
 * f16 already). */
Test(cuda, vector_kernel_copies_only_unbuilt_pairs)
{
	struct gb_fa fa = { 128, 128, 32, 8, 4096, false, false };
	struct shape s = cuda_shape(2, KV_Q8_0, KV_Q8_0);

	cr_expect_eq(fa_pad_of(&s, &fa), 0);
	s.vt = KV_F16;
	cr_expect_eq(fa_pad_of(&s, &fa),
	    (128ull * 2 * 4 * 32 + 127) / 128 * 128 - 128ull * 2 * 4 * 32 +
		2ull * 128 * 4096 * 8);
}

/* Head widths without a kernel run on the host; 192 (K) over 128 (V)
 * needs GQA batching in groups of 8, and cells a multiple of 256. */
Test(cuda, widths_without_a_kernel_run_on_the_host)
{
	struct gb_fa odd = { 160, 160, 32, 8, 4096, false, false };
	struct gb_fa wide = { 192, 128, 64, 8, 4096, false, false };
	struct shape s = cuda_shape(512, KV_F16, KV_F16);

	cr_expect_eq(fa_pad_of(&s, &odd), UINT64_MAX);
	cr_expect_eq(fa_pad_of(&s, &wide), 0);
	wide.nkv = 16; /* GQA 4 */
	cr_expect_eq(fa_pad_of(&s, &wide), UINT64_MAX);
	wide.nkv = 8;
	wide.cells = 4000;
	cr_expect_eq(fa_pad_of(&s, &wide), UINT64_MAX);
	wide.cells = 4096;
	wide.alibi = true;
	cr_expect_eq(fa_pad_of(&s, &wide), UINT64_MAX);
}

/* A quantized tensor whose rows are not a multiple of 512 wide gets the
 * rest of one such row; others nothing. */
Test(cuda, quantized_rows_are_padded_to_512)
{
	struct gguf_tensor t;

	memset(&t, 0, sizeof t);
	t.n_dims = 2;
	t.ne[0] = 256;
	t.ne[1] = 16;
	t.ne[2] = t.ne[3] = 1;
	t.type = GGML_TYPE_Q4_0; /* 18 bytes a block of 32 */
	cr_expect_eq(plan_cuda_row_pad(&t), 256 / 32 * 18);
	t.type = GGML_TYPE_Q8_0; /* 34 */
	cr_expect_eq(plan_cuda_row_pad(&t), 256 / 32 * 34);
	t.type = GGML_TYPE_Q4_K; /* 144 bytes a block of 256 */
	t.ne[0] = 2816;
	cr_expect_eq(plan_cuda_row_pad(&t), 144);
	t.ne[0] = 4096;
	cr_expect_eq(plan_cuda_row_pad(&t), 0);
	t.type = GGML_TYPE_F16;
	t.ne[0] = 100;
	cr_expect_eq(plan_cuda_row_pad(&t), 0);
}

/* The scheduler counts a node's pad in a CUDA compute buffer, and a
 * weight's pad in its copy there (a host weight an offloaded product
 * reads); not on Vulkan, not on the host. */
Test(cuda, the_compute_buffer_counts_the_pads)
{
	struct sc_buft cuda = { 128, 0, SC_GPU_CUDA };
	struct sc_buft vk = { 128, 0, SC_GPU_VULKAN };
	struct sc_buft host = { 32, 0, 0 };
	uint64_t dev[2], hst[2];
	int k;

	for (k = 0; k < 2; k++) {
		struct sc_graph b = graph(16);
		int32_t x, wt, y;

		x = gb_input(&b, 64 * 512 * 4, 1, 0);
		wt = gb_leaf(&b, SC_WEIGHT_HOST, 2304);
		b.t[wt].pad = 144;
		y = gb_op(&b, SC_MUL_MAT, 16 * 512 * 4, 2, 0, 512, wt, x);
		y = gb_op(&b, SC_FLASH_ATTN, 16 * 512 * 4, 2, GA_OUTPUT, 512, y,
		    GA_NONE);
		b.t[y].pad = 1 << 20;
		cr_assert(sc_place(&b, true, 0, k ? &vk : &cuda, &host, &dev[k],
		    &hst[k]));
		free(b.t);
	}
	cr_expect_eq(hst[0], hst[1]);
	/* Vulkan: x's copy, the weight's (2304), the product; the attention
	 * then fits where the first two were freed */
	cr_expect_eq(dev[1], 131072 + 2304 + 32768);
	/* CUDA: the weight's copy padded (2304 + 144 -> 2560, aligned), and
	 * the attention's megabyte more fits nowhere freed: it goes last */
	cr_expect_eq(dev[0], 131072 + 2560 + 32768 + 32768 + (1 << 20),
	    "cuda %llu", (unsigned long long)dev[0]);
}

/* A router of n experts choosing k for t tokens, normalized, then the
 * experts' weighted sum, as graph-ffn.c builds them; *gate: the gate's
 * index, *last: the sum's last ADD, *after: the node after the router,
 * *experts, *wt: the sum's inputs. */
static struct sc_graph
moe_graph(uint64_t n, uint64_t k, uint64_t t, int32_t *gate, int32_t *after,
    int32_t *experts, int32_t *wt, int32_t *last)
{
	struct sc_graph b = graph(64);
	int32_t x, p, probs, r, top, w, sum, e, m, first;
	uint64_t i;

	x = gb_input(&b, 4 * 64 * t, 1, 0);
	p = gb_op(&b, SC_MUL_MAT, 4 * n * t, 2, 0, t,
	    gb_leaf(&b, SC_WEIGHT_DEV, 4 * 64 * n), x);
	*gate = probs = gb_op(&b, SC_SOFT_MAX, 4 * n * t, 2, GA_INPLACE, t, p,
	    GA_NONE);
	r = gb_view(&b, SC_RESHAPE, probs, 4 * n * t);
	top = gb_op(&b, SC_ARGSORT, 4 * n * t, 3, 0, t, probs, GA_NONE);
	top = gb_view(&b, SC_VIEW, top, 4 * k * t);
	w = gb_op(&b, SC_GET_ROWS, 4 * k * t, 4, 0, t, r, top);
	w = gb_view(&b, SC_RESHAPE, w, 4 * k * t);
	sum = gb_op(&b, SC_SUM_ROWS, 4 * t, 5, 0, t, w, GA_NONE);
	sum = gb_op(&b, SC_CLAMP, 4 * t, 5, GA_INPLACE, t, sum, GA_NONE);
	w = gb_op(&b, SC_DIV, 4 * k * t, 4, GA_INPLACE, t, w, sum);
	*wt = w = gb_view(&b, SC_RESHAPE, w, 4 * k * t);
	*after = e = gb_add(&b, SC_MUL_MAT_ID, 4 * 64 * k * t, 6, 0,
	    gb_leaf(&b, SC_WEIGHT_DEV, 4 * 64 * 64 * n), x, top);
	b.t[e].batch = (int64_t)t;
	*experts = e;
	m = gb_op(&b, SC_MUL, 4 * 64 * k * t, 6, GA_INPLACE, t, e, w);
	first = gb_view(&b, SC_VIEW, m, 4 * 64 * t);
	for (i = 1; i < k; i++)
		gb_view(&b, SC_VIEW, m, 4 * 64 * t);
	x = first;
	for (i = 1; i < k; i++)
		x = gb_op(&b, SC_ADD, 4 * 64 * t, 7, GA_INPLACE, t, x,
		    first + (int32_t)i);
	*last = x;
	b.t[x].flags |= GA_OUTPUT;
	return b;
}

/* Whether deps keeps keep until until. */
static bool
has_dep(const struct sc_deps *d, int32_t keep, int32_t until)
{
	size_t i;

	for (i = 0; i < d->n; i++)
		if (d->deps[i].keep == keep && d->deps[i].until == until)
			return true;
	return false;
}

/* ggml-cuda's graph_optimize on the nodes of b (in order), as sched.c
 * calls it on a split: the dependencies it asks for. */
static struct sc_deps
cuda_deps_of(struct sc_graph *b)
{
	struct sc_deps d = { calloc(b->cap, sizeof(struct sc_dep)), 0, b->cap };
	int32_t *order = calloc(b->n, sizeof *order);
	int32_t *uses = calloc(b->n, sizeof *uses);
	size_t i, n = 0;
	int k;

	cr_assert(d.deps != NULL && order != NULL && uses != NULL);
	for (i = 0; i < b->n; i++) {
		if (b->t[i].op == SC_NONE)
			continue;
		order[n++] = (int32_t)i;
		for (k = 0; k < GA_MAX_SRC; k++)
			if (b->t[i].src[k] != GA_NONE)
				uses[b->t[i].src[k]]++;
	}
	cr_assert(sc_cuda_deps(b, uses, order, n, &d));
	free(order);
	free(uses);
	return d;
}

/* 128 experts choosing 8: the router's nodes and sources are kept until
 * the node after it (the experts' product), and the experts and their
 * weights until the sum's last ADD. */
Test(cuda, moe_fusions_keep_their_inputs)
{
	int32_t gate, after, experts, wt, last;
	struct sc_graph b = moe_graph(128, 8, 512, &gate, &after, &experts, &wt,
	    &last);
	struct sc_deps d = cuda_deps_of(&b);

	cr_expect(has_dep(&d, gate, after));
	cr_expect(has_dep(&d, b.t[gate].src[0], after)); /* the logits */
	cr_expect(has_dep(&d, wt, after));
	cr_expect(has_dep(&d, experts, last));
	cr_expect(has_dep(&d, wt, last));
	free(d.deps);
	free(b.t);
}

/* No fusion: 96 experts (no router kernel for them) and 16 chosen (the
 * weighted sum takes 15 at most). */
Test(cuda, moe_fusions_outside_their_kernels_keep_nothing)
{
	int32_t gate, after, experts, wt, last;
	struct sc_graph b = moe_graph(96, 8, 512, &gate, &after, &experts, &wt,
	    &last);
	struct sc_deps d = cuda_deps_of(&b);

	cr_expect(!has_dep(&d, gate, after));
	cr_expect(has_dep(&d, experts, last));
	free(d.deps);
	free(b.t);
	b = moe_graph(128, 16, 512, &gate, &after, &experts, &wt, &last);
	d = cuda_deps_of(&b);
	cr_expect(has_dep(&d, gate, after));
	cr_expect(!has_dep(&d, experts, last));
	free(d.deps);
	free(b.t);
}
