/*
 * fakeggml.c - a test double of a ggml runtime for tests/test_runtime.c:
 * one small shared library, libggml-base.so, exporting the functions
 * gguflint's runtime probe binds (the same names and signatures as ggml's
 * public API), with one device, "Fake0", that claims every operation.
 * make check builds it once per misbehaviour, each in its own folder
 * tests/fakeggml/MODE/ (-DFAKE_MODE=...):
 *   wrong   computes, but every output is 1 (wrong numbers)
 *   abort   aborts in the computation, as a failed GGML_ASSERT does
 *   hang    never returns from the computation, waiting (no CPU)
 *   spin    never returns from the computation, busy (all CPU)
 *   stall   never returns from supports_op, before any computation
 *   refuse  claims nothing (supports_op false): the CPU fallback
 *   abi     lays its tensors out unlike ggml (another ABI)
 *   old     lacks ggml_backend_dev_supports_op (too old a ggml)
 *   noq4    claims every operation but those on q4_0 weights (which
 *           fall back to the CPU), computes like wrong
 *   noq8    the same with q8_0
 *   inf     computes, but every output is infinite (not finite numbers)
 *   limit   claims no operation with a tensor beyond FAKE_LIMIT bytes
 *           (as ggml-vulkan beyond its storage-buffer range), computes
 *           like wrong
 * It knows only f32, i32, q4_0 and q8_0.
 */
#include <math.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define WRONG 1
#define ABORT 2
#define HANG 3
#define REFUSE 4
#define ABI 5
#define OLD 6
#define NOQ4 7
#define NOQ8 8
#define SPIN 9
#define STALL 10
#define INF 11
#define LIMIT 12

#define FAKE_LIMIT 5000002 /* bytes: the largest f32 table is 5000000 */

#ifndef FAKE_MODE
#define FAKE_MODE WRONG
#endif

static volatile size_t spin_sink; /* what the spin mode writes */

#define API __attribute__((visibility("default")))

struct fake_tensor {
#if FAKE_MODE == ABI
	int64_t pad; /* not ggml's layout */
#endif
	int type;
	void *buffer;
	int64_t ne[4];
	size_t nb[4];
	int op; /* 0 leaf, 1 mul_mat, 2 get_rows, 3 mul_mat_id */
	struct fake_tensor *src[3];
	void *data;
	struct fake_tensor *next;
};

struct fake_ctx {
	struct fake_tensor *tensors;
	struct fake_tensor *graph_out;
};

struct ggml_init_params_fake {
	size_t mem_size;
	void *mem_buffer;
	bool no_alloc;
};

static int dev, backend, buffer;

API const char *ggml_version(void);
API const char *ggml_commit(void);
API size_t ggml_backend_dev_count(void);
API void *ggml_backend_dev_get(size_t i);
API const char *ggml_backend_dev_name(void *d);
API const char *ggml_backend_dev_description(void *d);
API int ggml_backend_dev_type(void *d);
API void ggml_backend_dev_memory(void *d, size_t *fr, size_t *tot);
API void *ggml_backend_dev_init(void *d, const char *params);
API bool ggml_backend_dev_supports_op(void *d, const void *op);
API void *ggml_init(struct ggml_init_params_fake p);
API void ggml_free(void *ctx);
API void *ggml_new_tensor_2d(void *ctx, int type, int64_t a, int64_t b);
API void *ggml_new_tensor_3d(void *ctx, int type, int64_t a, int64_t b,
    int64_t c);
API void *ggml_mul_mat(void *ctx, void *a, void *b);
API void *ggml_mul_mat_id(void *ctx, void *as, void *b, void *ids);
API void *ggml_get_rows(void *ctx, void *a, void *b);
API size_t ggml_tensor_overhead(void);
API size_t ggml_graph_overhead(void);
API void *ggml_new_graph(void *ctx);
API void ggml_build_forward_expand(void *g, void *t);
API size_t ggml_nbytes(const void *t);
API const char *ggml_type_name(int type);
API int64_t ggml_blck_size(int type);
API size_t ggml_type_size(int type);
API void *ggml_backend_alloc_ctx_tensors(void *ctx, void *be);
API void ggml_backend_buffer_free(void *b);
API void ggml_backend_tensor_set(void *t, const void *data, size_t off,
    size_t n);
API void ggml_backend_tensor_get(const void *t, void *data, size_t off,
    size_t n);
API int ggml_backend_graph_compute(void *be, void *g);

const char *
ggml_version(void)
{
	return "0.0.0-fake";
}

const char *
ggml_commit(void)
{
	return "fake";
}

size_t
ggml_backend_dev_count(void)
{
	return 1;
}

void *
ggml_backend_dev_get(size_t i)
{
	return i == 0 ? &dev : NULL;
}

const char *
ggml_backend_dev_name(void *d)
{
	(void)d;
	return "Fake0";
}

const char *
ggml_backend_dev_description(void *d)
{
	(void)d;
	return "fake ggml, a test double";
}

int
ggml_backend_dev_type(void *d)
{
	(void)d;
	return 1; /* GPU */
}

void
ggml_backend_dev_memory(void *d, size_t *fr, size_t *tot)
{
	(void)d;
	*fr = *tot = (size_t)1 << 30;
}

void *
ggml_backend_dev_init(void *d, const char *params)
{
	(void)d;
	(void)params;
	return &backend;
}

#if FAKE_MODE != OLD
bool
ggml_backend_dev_supports_op(void *d, const void *op)
{
	const struct fake_tensor *t = op;

	(void)d;
	while (FAKE_MODE == STALL)
		pause();
	if (FAKE_MODE == NOQ4 || FAKE_MODE == NOQ8)
		return t->src[0] == NULL ||
		    t->src[0]->type != (FAKE_MODE == NOQ4 ? 2 : 8);
	if (FAKE_MODE == LIMIT)
		return ggml_nbytes(t) <= FAKE_LIMIT &&
		    (t->src[0] == NULL || ggml_nbytes(t->src[0]) <= FAKE_LIMIT);
	return FAKE_MODE != REFUSE;
}
#endif

void *
ggml_init(struct ggml_init_params_fake p)
{
	(void)p;
	return calloc(1, sizeof(struct fake_ctx));
}

void
ggml_free(void *c)
{
	struct fake_ctx *ctx = c;
	struct fake_tensor *t, *n;

	for (t = ctx->tensors; t != NULL; t = n) {
		n = t->next;
		free(t->data);
		free(t);
	}
	free(ctx);
}

static struct fake_tensor *
make(void *c, int type, int64_t a, int64_t b, int64_t d)
{
	struct fake_ctx *ctx = c;
	struct fake_tensor *t = calloc(1, sizeof *t);

	t->type = type;
	t->ne[0] = a;
	t->ne[1] = b;
	t->ne[2] = d;
	t->ne[3] = 1;
	t->next = ctx->tensors;
	ctx->tensors = t;
	return t;
}

void *
ggml_new_tensor_2d(void *ctx, int type, int64_t a, int64_t b)
{
	return make(ctx, type, a, b, 1);
}

void *
ggml_new_tensor_3d(void *ctx, int type, int64_t a, int64_t b, int64_t c)
{
	return make(ctx, type, a, b, c);
}

void *
ggml_mul_mat(void *ctx, void *a, void *b)
{
	struct fake_tensor *x = a, *y = b;
	struct fake_tensor *t = make(ctx, 0, x->ne[1], y->ne[1], y->ne[2]);

	t->op = 1;
	t->src[0] = x;
	return t;
}

void *
ggml_mul_mat_id(void *ctx, void *as, void *b, void *ids)
{
	struct fake_tensor *x = as, *y = b;
	struct fake_tensor *t = make(ctx, 0, x->ne[1], y->ne[1], y->ne[2]);

	(void)ids;
	t->op = 3;
	t->src[0] = x;
	return t;
}

void *
ggml_get_rows(void *ctx, void *a, void *b)
{
	struct fake_tensor *x = a, *y = b;
	struct fake_tensor *t = make(ctx, 0, x->ne[0], y->ne[0], 1);

	t->op = 2;
	t->src[0] = x;
	return t;
}

size_t
ggml_tensor_overhead(void)
{
	return 512;
}

size_t
ggml_graph_overhead(void)
{
	return 1024;
}

void *
ggml_new_graph(void *ctx)
{
	return ctx;
}

void
ggml_build_forward_expand(void *g, void *t)
{
	((struct fake_ctx *)g)->graph_out = t;
}

const char *
ggml_type_name(int type)
{
	return type == 0 ? "f32" :
	    type == 2	 ? "q4_0" :
	    type == 8	 ? "q8_0" :
	    type == 26	 ? "i32" :
			   "NONE";
}

int64_t
ggml_blck_size(int type)
{
	return type == 2 || type == 8 ? 32 : 1;
}

size_t
ggml_type_size(int type)
{
	return type == 2 ? 18 : type == 8 ? 34 : 4;
}

size_t
ggml_nbytes(const void *p)
{
	const struct fake_tensor *t = p;

	return (size_t)(t->ne[0] / ggml_blck_size(t->type)) *
	    ggml_type_size(t->type) * (size_t)(t->ne[1] * t->ne[2] * t->ne[3]);
}

void *
ggml_backend_alloc_ctx_tensors(void *c, void *be)
{
	struct fake_ctx *ctx = c;
	struct fake_tensor *t;

	(void)be;
	for (t = ctx->tensors; t != NULL; t = t->next)
		t->data = calloc(1, ggml_nbytes(t));
	return &buffer;
}

void
ggml_backend_buffer_free(void *b)
{
	(void)b;
}

void
ggml_backend_tensor_set(void *p, const void *data, size_t off, size_t n)
{
	memcpy((char *)((struct fake_tensor *)p)->data + off, data, n);
}

void
ggml_backend_tensor_get(const void *p, void *data, size_t off, size_t n)
{
	memcpy(data, (const char *)((const struct fake_tensor *)p)->data + off,
	    n);
}

int
ggml_backend_graph_compute(void *be, void *g)
{
	struct fake_tensor *out = ((struct fake_ctx *)g)->graph_out;
	size_t i, n = ggml_nbytes(out) / 4;

	(void)be;
	if (FAKE_MODE == ABORT) {
		fprintf(stderr, "fake.c:1: GGML_ASSERT(false) failed\n");
		abort();
	}
	while (FAKE_MODE == HANG)
		pause();
	for (i = 0; FAKE_MODE == SPIN; i++) /* as a device computing */
		spin_sink = i;
	for (i = 0; i < n; i++)
		((float *)out->data)[i] = FAKE_MODE == INF ? INFINITY : 1.0f;
	return 0;
}
