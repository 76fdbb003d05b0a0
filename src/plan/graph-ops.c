/*
 * graph-ops.c - the graph builder's tensors (graph-impl.h): nodes, views,
 * leaves and inputs as ggml's graph holds them, the file's weights where
 * -ngl puts them (each marked read), and the row-wise pieces every
 * architecture is made of: biases, norms, products.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan/graph-impl.h"
#include "plan/llfacts-impl.h"

/* A layout id: type size, shape and whether the strides are permuted
 * (ggml_are_same_layout compares all three). */
uint64_t
lay(uint64_t ts, uint64_t a, uint64_t b, uint64_t c, uint64_t d, int perm)
{
	uint64_t h = 1469598103934665603ull, v[6] = { ts, a, b, c, d, 0 };
	int i;

	v[5] = (uint64_t)perm;
	for (i = 0; i < 6; i++)
		h = (h ^ v[i]) * 1099511628211ull;
	return h;
}

/* Appends a tensor of op reading s0..s2 (GA_NONE: none); its index. */
int32_t
gb_add(struct sc_graph *b, uint8_t op, uint64_t bytes, uint64_t layout,
    uint8_t flags, int32_t s0, int32_t s1, int32_t s2)
{
	struct sc_tensor *n;
	int k;

	if (b->n >= b->cap) {
		b->full = true;
		return GA_NONE;
	}
	n = &b->t[b->n];
	memset(n, 0, sizeof *n);
	n->op = op;
	n->bytes = bytes;
	n->layout = layout;
	n->flags = flags;
	n->view_src = GA_NONE;
	for (k = 0; k < GA_MAX_SRC; k++)
		n->src[k] = GA_NONE;
	n->src[0] = s0;
	n->src[1] = s1;
	n->src[2] = s2;
	n->backend = -1;
	return (int32_t)b->n++;
}

/* A node of op over t rows (its batch for the offload rule). */
int32_t
gb_op(struct sc_graph *b, uint8_t op, uint64_t bytes, uint64_t layout,
    uint8_t flags, uint64_t t, int32_t s0, int32_t s1)
{
	int32_t i = gb_add(b, op, bytes, layout, flags, s0, s1, GA_NONE);

	if (i != GA_NONE)
		b->t[i].batch = op == SC_GET_ROWS ? 0 : (int64_t)t;
	return i;
}

/* The bytes of tensor i, 0 for none (a graph that did not fit). */
uint64_t
gb_bytes(const struct sc_graph *b, int32_t i)
{
	return i != GA_NONE ? b->t[i].bytes : 0;
}

/* A view (op) of tensor v: reads v, allocates nothing; bytes are what a
 * copy of it would take. */
int32_t
gb_view(struct sc_graph *b, uint8_t op, int32_t v, uint64_t bytes)
{
	int32_t i = gb_add(b, op, bytes, 0, 0, v, GA_NONE, GA_NONE);

	if (i != GA_NONE && v != GA_NONE)
		b->t[i].view_src = b->t[v].view_src != GA_NONE ?
		    b->t[v].view_src :
		    v;
	return i;
}

/* A view (op) of v whose layout (ggml_are_same_layout) is known: a copy
 * of it made for another backend keeps it, and may then be taken over
 * in place. */
int32_t
gb_view_as(struct sc_graph *b, uint8_t op, int32_t v, uint64_t bytes,
    uint64_t layout)
{
	int32_t i = gb_view(b, op, v, bytes);

	if (i != GA_NONE)
		b->t[i].layout = layout;
	return i;
}

uint64_t
gb_span(uint64_t a, uint64_t n_rows, uint64_t row)
{
	if (a == 0 || n_rows == 0)
		return 0;
	return smul(4, sadd(a, smul(n_rows - 1, row)));
}

int32_t
gb_op4(struct sc_graph *b, uint8_t op, const uint64_t a[4], uint8_t flags,
    uint64_t n, int32_t s0, int32_t s1)
{
	return gb_op(b, op, smul(smul(F32(a[0], a[1]), a[2]), a[3]),
	    lay(4, a[0], a[1], a[2], a[3], 0), flags, n, s0, s1);
}

/* A leaf in a buffer (a weight or a cache) of bytes. */
int32_t
gb_leaf(struct sc_graph *b, uint8_t home, uint64_t bytes)
{
	int32_t i = gb_add(b, SC_NONE, bytes, 0, 0, GA_NONE, GA_NONE, GA_NONE);

	if (i != GA_NONE)
		b->t[i].home = home;
	return i;
}

int32_t
gb_input(struct sc_graph *b, uint64_t bytes, uint64_t layout, uint8_t flags)
{
	return gb_add(b, SC_NONE, bytes, layout, GA_INPUT | flags, GA_NONE,
	    GA_NONE, GA_NONE);
}

/* The bucket of tensor t: 1 + N for layer N's (plan_llama_layer), 0 for
 * any other. */
static size_t
bucket_of(const struct gguf_tensor *t, size_t n_buckets)
{
	int64_t il = plan_llama_layer(t, (uint32_t)(n_buckets - 1));

	return il >= 0 && (uint64_t)il + 1 < n_buckets ? (size_t)il + 1 : 0;
}

bool
gb_index(struct weights *w)
{
	size_t n = w->f->tensors_n, k, i;
	size_t *fill;

	w->n_buckets = (size_t)w->g->n_layer + 1;
	w->order = calloc(n + 1, sizeof *w->order);
	w->start = calloc(w->n_buckets + 1, sizeof *w->start);
	fill = calloc(w->n_buckets + 1, sizeof *fill);
	if (w->order == NULL || w->start == NULL || fill == NULL) {
		free(fill);
		return false;
	}
	for (i = 0; i < n; i++) /* a counting sort: file order kept */
		w->start[bucket_of(&w->f->tensors[i], w->n_buckets) + 1]++;
	for (k = 0; k < w->n_buckets; k++)
		w->start[k + 1] += w->start[k];
	for (i = 0; i < n; i++) {
		k = bucket_of(&w->f->tensors[i], w->n_buckets);
		w->order[w->start[k] + fill[k]++] = i;
	}
	free(fill);
	return true;
}

void
gb_index_free(struct weights *w)
{
	free(w->order);
	free(w->start);
	w->order = NULL;
	w->start = NULL;
}

/* The index of the file's tensor blk.il.name (il < 0: name alone), or
 * SIZE_MAX. */
static size_t
gb_lookup(const struct weights *w, int64_t il, const char *name)
{
	char full[96];
	size_t k = 0, j;

	if (il >= 0)
		snprintf(full, sizeof full, "blk.%lld.%s", (long long)il, name);
	else
		snprintf(full, sizeof full, "%s", name);
	if (il >= 0 && (uint64_t)il + 1 < w->n_buckets)
		k = (size_t)il + 1;
	for (j = w->start[k]; w->f != NULL && j < w->start[k + 1]; j++)
		if (gguf_str_eq(w->f->tensors[w->order[j]].name, full))
			return w->order[j];
	return SIZE_MAX;
}

/* The file's tensor i marked read; its bytes. */
static uint64_t
gb_mark(struct weights *w, size_t i)
{
	if (!w->seen[i])
		w->n_seen++;
	w->seen[i] = true;
	return w->f->tensors[i].nbytes;
}

/* The file's tensor blk.il.name (il < 0: name alone), marked read; its
 * bytes, or false when the file has none. */
bool
gb_find(struct weights *w, int64_t il, const char *name, uint64_t *bytes)
{
	size_t i = gb_lookup(w, il, name);

	if (i == SIZE_MAX)
		return false;
	*bytes = gb_mark(w, i);
	return true;
}

bool
gb_has(const struct weights *w, int64_t il, const char *name)
{
	return gb_lookup(w, il, name) != SIZE_MAX;
}

uint64_t
gb_dim(const struct weights *w, int64_t il, const char *name, int k)
{
	size_t i = gb_lookup(w, il, name);

	if (i == SIZE_MAX || k < 0 || k >= GGUF_MAX_DIMS ||
	    w->f->tensors[i].ne[k] <= 0)
		return 0;
	return (uint64_t)w->f->tensors[i].ne[k];
}

bool
gb_host_only(const struct weights *w, int64_t il, const char *name)
{
	size_t i = gb_lookup(w, il, name);

	return i != SIZE_MAX && w->pn != NULL &&
	    plan_host_only(w->pn, &w->f->tensors[i]);
}

/* Layer il's weight (il < 0: outside the layers) as a leaf on its
 * layer's device (plan_weight_layer: the input layer's on the host, the
 * output layer's with the output; but one the device does not run,
 * plan_host_only), one leaf however many nodes read it; without an
 * output weight, the embeddings' copy llama.cpp makes for it (a tensor
 * of its own, with the output). GA_NONE when the file lacks it and
 * optional. */
int32_t
gb_tensor(struct sc_graph *b, struct weights *w, int64_t il, const char *name,
    bool optional)
{
	size_t i = gb_lookup(w, il, name);
	const struct gguf_tensor *t;
	bool copy = false, dev;
	uint64_t bytes;
	int64_t l;
	int32_t leaf;

	if (i == SIZE_MAX && strcmp(name, "output.weight") == 0) {
		i = gb_lookup(w, -1, "token_embd.weight");
		copy = i != SIZE_MAX;
	}
	if (i == SIZE_MAX) {
		if (optional)
			return GA_NONE;
		w->missing = true;
		return gb_leaf(b, SC_WEIGHT_HOST, 0);
	}
	if (!copy && w->leaf[i] != 0)
		return w->leaf[i] - 1;
	t = &w->f->tensors[i];
	bytes = gb_mark(w, i);
	l = copy ? (int64_t)w->g->n_layer : plan_weight_layer(w->pn, t);
	/* a weight the device refuses stays on the host (K003, K006), and
	 * so does a tied output beyond its largest tensor */
	dev = l >= 0 &&
	    (l >= (int64_t)w->g->n_layer ? w->output_dev :
					   (uint64_t)l >= w->dev_from) &&
	    !plan_host_only(w->pn, t) &&
	    !(copy ? plan_tied_oversize(w->pl, t) :
		     plan_falls_back(w->pn, w->pl, i));
	leaf = gb_leaf(b, dev ? SC_WEIGHT_DEV : SC_WEIGHT_HOST, bytes);
	if (leaf != GA_NONE) /* its copy's in a CUDA compute buffer */
		b->t[leaf].pad = plan_cuda_row_pad(t);
	if (!copy && leaf != GA_NONE)
		w->leaf[i] = leaf + 1;
	return leaf;
}

int32_t
gb_weight(struct sc_graph *b, struct weights *w, int64_t il, const char *name)
{
	return gb_tensor(b, w, il, name, false);
}

struct rows
rows2(uint64_t width, uint64_t t)
{
	struct rows r = { F32(width, t), L32(width, t), t };

	return r;
}

/* x plus layer il's bias base.bias, where the file has one. */
int32_t
gb_bias(struct sc_graph *b, struct weights *w, int64_t il, const char *base,
    int32_t x, struct rows r)
{
	char name[48];
	int32_t bias;

	snprintf(name, sizeof name, "%s.bias", base);
	bias = gb_tensor(b, w, il, name, true);
	if (bias == GA_NONE)
		return x;
	return gb_op(b, SC_ADD, r.bytes, r.layout, GA_INPLACE, r.n, x, bias);
}

/* x normed by layer il's norm base (its weight, and its bias where the
 * file has one; neither with GB_OLMO): RMS or layer norm, as the
 * architecture's. */
int32_t
gb_norm(struct sc_graph *b, struct weights *w, int64_t il, const char *base,
    int32_t x, struct rows r)
{
	char name[48];
	bool rms = w->a->norm == GB_RMS;
	int32_t n;

	/* ggml_op_can_inplace: RMS_NORM may, NORM may not */
	n = gb_op(b, rms ? SC_RMS_NORM : SC_NORM, r.bytes, r.layout,
	    rms ? GA_INPLACE : 0, r.n, x, GA_NONE);
	if (w->a->extra & GB_OLMO) /* no weight, no bias */
		return n;
	snprintf(name, sizeof name, "%s.weight", base);
	if ((arch_row(w->g)->quirks & ARCH_NORM_BARE) &&
	    strncmp(base, "post_", 5) == 0)
		snprintf(name, sizeof name, "%s", base);
	n = gb_op(b, SC_MUL, r.bytes, r.layout, GA_INPLACE, r.n, n,
	    gb_weight(b, w, il, name));
	return gb_bias(b, w, il, base, n, r);
}

/* A weight's product with x: [rows, t]. */
int32_t
gb_mm(struct sc_graph *b, const struct shape *s, int32_t w, int32_t x,
    uint64_t rows)
{
	return gb_op(b, SC_MUL_MAT, F32(rows, s->t), L32(rows, s->t), 0, s->t,
	    w, x);
}

/* The weight name.weight's product with x and its bias: [rows, t]. */
int32_t
gb_linear(struct sc_graph *b, const struct shape *s, struct weights *w,
    int64_t il, const char *base, int32_t x, uint64_t rows)
{
	char name[48];

	snprintf(name, sizeof name, "%s.weight", base);
	x = gb_mm(b, s, gb_weight(b, w, il, name), x, rows);
	return gb_bias(b, w, il, base, x, rows2(rows, s->t));
}

/* x capped as a soft cap does it: scaled down, its tanh, scaled back up,
 * each in place. */
int32_t
gb_softcap(struct sc_graph *b, int32_t x, uint64_t t)
{
	static const uint8_t ops[] = { SC_SCALE, SC_UNARY, SC_SCALE };
	size_t i;

	for (i = 0; i < sizeof ops && x != GA_NONE; i++)
		x = gb_op(b, ops[i], b->t[x].bytes, b->t[x].layout, GA_INPLACE,
		    t, x, GA_NONE);
	return x;
}

/* graph-impl.h. ggml-cuda runs an SSM_CONV over a multiple of 128
 * channels alone; ggml-vulkan any. */
int32_t
gb_ssm_conv(struct sc_graph *b, const struct gb_ssm *m, struct rows r,
    uint64_t ch, int32_t x, int32_t wt)
{
	int32_t c = gb_op(b, SC_SSM_CONV, r.bytes, r.layout, 0, r.n, x, wt);

	if (c != GA_NONE)
		b->t[c].host_only = m->gpu == SC_GPU_CUDA && ch % 128 != 0;
	return c;
}
