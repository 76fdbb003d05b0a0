/*
 * graph.c - llama.cpp's graph of one worst-case ubatch, tensor by tensor
 * in the order ggml builds it, scheduled and placed as ggml does it
 * (sched.c, vkorder.c, galloc.c): the compute buffers as llama.cpp
 * reserves them, not a model of them. Built so far for llama's graph
 * (RMS norms, separate Q, K and V without biases, a gated FFN) with an
 * f16 cache in any number of streams, with and without flash attention,
 * on the CPU backend alone or beside a Vulkan device with any number of
 * layers offloaded. Anything else is not built (plan_graph_compute
 * returns false) and keeps the model of plan-llama.c and plan-gpu.c.
 *
 * The order is llama.cpp's (v0.5.0): per layer the norm, Q (roped), V, K
 * (roped), K's then V's rows into the cache (V transposed, one element a
 * row, without flash attention), the views of the cache, the attention,
 * the output projection and the residual; in the last layer the output
 * rows of the attention and of the residual; then the FFN. The graph's
 * inputs come first: the tokens, the embeddings' input (a leaf no node
 * reads, kept), positions, K's and V's cell indices, the mask, the output
 * ids. A weight is a leaf in the host's or the device's buffer, as -ngl
 * puts its layer; so is each layer's cache.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan/graph.h"
#include "plan/plan-impl.h"
#include "plan/plan-llama-impl.h"
#include "plan/sched.h"

#define GB_CPU_ALIGN 32	   /* ggml-cpu's buffer alignment */
#define GB_VULKAN_ALIGN 16 /* llvmpipe's storage buffer offset alignment */
#define smul plan_smul

struct shape {
	uint64_t e, q, kv, hd, ff, t, ts, s, cells;
	bool fa;
};

struct inputs {
	int32_t pos, kidx, vidx, mask, out;
};

/* The model's weights and where -ngl puts them. */
struct weights {
	const struct gguf_file *f;
	uint32_t n_layer, dev_from; /* layers from dev_from on the device */
	bool output_dev;	    /* the output layer on the device */
};

/* A layout id: type size, shape and whether the strides are permuted
 * (ggml_are_same_layout compares all three). */
static uint64_t
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
static int32_t
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

/* A node of op over t tokens (its batch for the offload rule). */
static int32_t
gb_op(struct sc_graph *b, uint8_t op, uint64_t bytes, uint64_t layout,
    uint8_t flags, uint64_t t, int32_t s0, int32_t s1)
{
	int32_t i = gb_add(b, op, bytes, layout, flags, s0, s1, GA_NONE);

	if (i != GA_NONE)
		b->t[i].batch = op == SC_GET_ROWS ? 0 : (int64_t)t;
	return i;
}

/* A view (op) of tensor v: reads v, allocates nothing; bytes are what a
 * copy of it would take. */
static int32_t
gb_view(struct sc_graph *b, uint8_t op, int32_t v, uint64_t bytes)
{
	int32_t i = gb_add(b, op, bytes, 0, 0, v, GA_NONE, GA_NONE);

	if (i != GA_NONE && v != GA_NONE)
		b->t[i].view_src = b->t[v].view_src != GA_NONE ?
		    b->t[v].view_src :
		    v;
	return i;
}

/* A leaf in a buffer (a weight or a cache) of bytes. */
static int32_t
gb_leaf(struct sc_graph *b, uint8_t home, uint64_t bytes)
{
	int32_t i = gb_add(b, SC_NONE, bytes, 0, 0, GA_NONE, GA_NONE, GA_NONE);

	if (i != GA_NONE)
		b->t[i].home = home;
	return i;
}

/* The weight blk.il.name (il < 0: name alone) as a leaf. */
static int32_t
gb_weight(struct sc_graph *b, const struct weights *w, int64_t il,
    const char *name)
{
	char full[96];
	uint64_t bytes = 0;
	bool dev;
	size_t i;

	if (il >= 0)
		snprintf(full, sizeof full, "blk.%lld.%s", (long long)il, name);
	else
		snprintf(full, sizeof full, "%s", name);
	for (i = 0; w->f != NULL && i < w->f->tensors_n; i++)
		if (gguf_str_eq(w->f->tensors[i].name, full))
			bytes = w->f->tensors[i].nbytes;
	dev = il >= 0 ? (uint64_t)il >= w->dev_from :
			strcmp(name, "token_embd.weight") != 0 && w->output_dev;
	return gb_leaf(b, dev ? SC_WEIGHT_DEV : SC_WEIGHT_HOST, bytes);
}

/* f32 [a, b] contiguous */
#define F32(a, b) smul(smul(4, (a)), (b))
#define L32(a, b) lay(4, (a), (b), 1, 1, 0)

static int32_t
gb_norm(struct sc_graph *b, const struct shape *s, int32_t x, int32_t w)
{
	int32_t n = gb_op(b, SC_RMS_NORM, F32(s->e, s->t), L32(s->e, s->t), 0,
	    s->t, x, GA_NONE);

	return gb_op(b, SC_MUL, F32(s->e, s->t), L32(s->e, s->t), GA_INPLACE,
	    s->t, n, w); /* times the norm's weight */
}

/* A weight's product with x: [rows, t]. */
static int32_t
gb_mm(struct sc_graph *b, const struct shape *s, int32_t w, int32_t x,
    uint64_t rows)
{
	return gb_op(b, SC_MUL_MAT, F32(rows, s->t), L32(rows, s->t), 0, s->t,
	    w, x);
}

/* The rows of cur into cache c at idxs: the cache merged across its
 * streams first (a reshape) when it has several. */
static void
gb_set_rows(struct sc_graph *b, const struct shape *s, int32_t cur,
    int32_t idxs, int32_t c, bool merge)
{
	int32_t w;

	if (merge && s->s > 1)
		c = gb_view(b, SC_RESHAPE, c, b->t[c].bytes);
	w = gb_add(b, SC_SET_ROWS, c != GA_NONE ? b->t[c].bytes : 0, 0, 0, cur,
	    idxs, c);
	if (w != GA_NONE && c != GA_NONE)
		b->t[w].view_src = b->t[c].view_src != GA_NONE ?
		    b->t[c].view_src :
		    c;
}

/* K's and V's rows into the layer's cache (kc, vc), FA's layout or the
 * transposed V without (one element a row: V and the cache reshaped). */
static void
gb_cache_writes(struct sc_graph *b, const struct shape *s,
    const struct inputs *in, int32_t kr, int32_t vr, int32_t kc, int32_t vc)
{
	uint64_t kvb = F32(s->kv, s->t);

	gb_set_rows(b, s, gb_view(b, SC_VIEW, kr, kvb), in->kidx, kc, true);
	if (s->fa) {
		gb_set_rows(b, s, gb_view(b, SC_VIEW, vr, kvb), in->vidx, vc,
		    true);
		return;
	}
	vr = gb_view(b, SC_RESHAPE, gb_view(b, SC_RESHAPE, vr, kvb), kvb);
	gb_set_rows(b, s, vr, in->vidx,
	    gb_view(b, SC_RESHAPE, vc, b->t[vc].bytes), false);
}

/* The attention over the cache once written: its output, before the
 * output projection. */
static int32_t
gb_attend(struct sc_graph *b, const struct shape *s, const struct inputs *in,
    int32_t qr, int32_t kc, int32_t vc)
{
	uint64_t nh = s->q / s->hd, cb = b->t[kc].bytes;
	int32_t q, k, v, kq, kv;

	if (s->fa) {
		q = gb_view(b, SC_PERMUTE,
		    gb_view(b, SC_VIEW, qr, F32(s->q, s->t)), F32(s->q, s->t));
		k = gb_view(b, SC_PERMUTE, gb_view(b, SC_VIEW, kc, cb), cb);
		v = gb_view(b, SC_PERMUTE, gb_view(b, SC_VIEW, vc, cb), cb);
		kv = gb_add(b, SC_FLASH_ATTN, F32(s->q, s->t),
		    lay(4, s->hd, nh, s->ts, s->s, 0), 0, q, k, v);
		if (kv != GA_NONE)
			b->t[kv].src[3] = in->mask;
		return gb_view(b, SC_RESHAPE, kv, F32(s->q, s->t));
	}
	v = gb_view(b, SC_PERMUTE, gb_view(b, SC_VIEW, vc, cb), cb);
	k = gb_view(b, SC_PERMUTE, gb_view(b, SC_VIEW, kc, cb), cb);
	q = gb_view(b, SC_PERMUTE, gb_view(b, SC_VIEW, qr, F32(s->q, s->t)),
	    F32(s->q, s->t));
	kq = gb_op(b, SC_MUL_MAT, smul(F32(s->cells, s->t), nh),
	    lay(4, s->cells, s->ts, nh, s->s, 0), 0, s->ts, k, q);
	kq = gb_op(b, SC_SOFT_MAX, smul(F32(s->cells, s->t), nh),
	    lay(4, s->cells, s->ts, nh, s->s, 0), GA_INPLACE, s->t, kq,
	    in->mask);
	kv = gb_op(b, SC_MUL_MAT, F32(s->q, s->t),
	    lay(4, s->hd, s->ts, nh, s->s, 0), 0, s->ts, v, kq);
	return gb_op(b, SC_CONT, F32(s->q, s->t), L32(s->q, s->t), 0, s->t,
	    gb_view(b, SC_PERMUTE, kv, F32(s->q, s->t)),
	    GA_NONE); /* permuted back, made contiguous */
}

/* The attention of layer il on cur (the normed input). */
static int32_t
gb_attention(struct sc_graph *b, const struct shape *s, const struct weights *w,
    const struct inputs *in, int64_t il, int32_t cur)
{
	uint64_t nh = s->q / s->hd, nkv = s->kv / s->hd;
	uint64_t cb = smul(smul(smul(2, s->kv), s->cells), s->s);
	uint8_t home = (uint64_t)il >= w->dev_from ? SC_CACHE_DEV :
						     SC_CACHE_HOST;
	int32_t q, v, k, kc, vc;

	q = gb_mm(b, s, gb_weight(b, w, il, "attn_q.weight"), cur, s->q);
	q = gb_op(b, SC_ROPE, F32(s->q, s->t), lay(4, s->hd, nh, s->t, 1, 0),
	    GA_INPLACE, s->t, gb_view(b, SC_RESHAPE, q, F32(s->q, s->t)),
	    in->pos);
	v = gb_mm(b, s, gb_weight(b, w, il, "attn_v.weight"), cur, s->kv);
	v = gb_view(b, SC_RESHAPE, v, F32(s->kv, s->t));
	k = gb_mm(b, s, gb_weight(b, w, il, "attn_k.weight"), cur, s->kv);
	k = gb_op(b, SC_ROPE, F32(s->kv, s->t), lay(4, s->hd, nkv, s->t, 1, 0),
	    GA_INPLACE, s->t, gb_view(b, SC_RESHAPE, k, F32(s->kv, s->t)),
	    in->pos);
	kc = gb_leaf(b, home, cb);
	vc = gb_leaf(b, home, cb);
	gb_cache_writes(b, s, in, k, v, kc, vc);
	return gb_attend(b, s, in, q, kc, vc);
}

static int32_t
gb_layer(struct sc_graph *b, const struct shape *s, const struct weights *w,
    const struct inputs *in, int64_t il, int32_t x)
{
	int32_t a, ffn, g, u;

	a = gb_attention(b, s, w, in, il,
	    gb_norm(b, s, x, gb_weight(b, w, il, "attn_norm.weight")));
	a = gb_mm(b, s, gb_weight(b, w, il, "attn_output.weight"), a, s->e);
	if ((uint64_t)il + 1 == w->n_layer) { /* the rows of the outputs */
		a = gb_op(b, SC_GET_ROWS, F32(s->e, s->t), L32(s->e, s->t), 0,
		    s->t, a, in->out);
		x = gb_op(b, SC_GET_ROWS, F32(s->e, s->t), L32(s->e, s->t), 0,
		    s->t, x, in->out);
	}
	ffn = gb_op(b, SC_ADD, F32(s->e, s->t), L32(s->e, s->t), GA_INPLACE,
	    s->t, a, x);
	a = gb_norm(b, s, ffn, gb_weight(b, w, il, "ffn_norm.weight"));
	g = gb_mm(b, s, gb_weight(b, w, il, "ffn_gate.weight"), a, s->ff);
	u = gb_mm(b, s, gb_weight(b, w, il, "ffn_up.weight"), a, s->ff);
	g = gb_op(b, SC_GLU, F32(s->ff, s->t), L32(s->ff, s->t), 0, s->t, g, u);
	g = gb_mm(b, s, gb_weight(b, w, il, "ffn_down.weight"), g, s->e);
	return gb_op(b, SC_ADD, F32(s->e, s->t), L32(s->e, s->t), GA_INPLACE,
	    s->t, g, ffn);
}

static int32_t
gb_input(struct sc_graph *b, uint64_t bytes, uint64_t layout, uint8_t flags)
{
	return gb_add(b, SC_NONE, bytes, layout, GA_INPUT | flags, GA_NONE,
	    GA_NONE, GA_NONE);
}

static void
gb_inputs(struct sc_graph *b, const struct shape *s, struct inputs *in,
    int32_t *tokens)
{
	uint64_t vrows = s->fa ? s->t : smul(s->t, s->kv);

	*tokens = gb_input(b, smul(4, s->t), lay(4, s->t, 1, 1, 1, 1), 0);
	gb_input(b, F32(s->e, s->t), lay(4, s->e, s->t, 1, 1, 1), GA_OUTPUT);
	in->pos = gb_input(b, smul(4, s->t), lay(4, s->t, 1, 1, 1, 2), 0);
	in->kidx = gb_input(b, smul(8, s->t), lay(8, s->t, 1, 1, 1, 1), 0);
	in->vidx = gb_input(b, smul(8, vrows), lay(8, vrows, 1, 1, 1, 2), 0);
	in->mask = gb_input(b, smul(smul(s->fa ? 2 : 4, s->cells), s->t),
	    lay(s->fa ? 2 : 4, s->cells, s->ts, 1, s->s, 1), 0);
	in->out = gb_input(b, smul(4, s->t), lay(4, s->t, 1, 1, 1, 3), 0);
}

/* Whether a Vulkan device is the plan's GPU. */
static bool
on_vulkan(const struct plan *pl)
{
	return pl->n_dev == 2 && strncmp(pl->dev[1].name, "Vulkan", 6) == 0;
}

/* Whether the graph above is llama.cpp's for this model and plan. */
static bool
graph_known(const struct planner *pn, const struct plan *pl)
{
	const struct model_geom *g = pn->g;
	uint32_t il;

	if (strcmp(g->arch, "llama") != 0 || g->memory != ARCH_MEM_KV ||
	    g->swa || g->mla || (pl->n_dev != 1 && !on_vulkan(pl)) ||
	    pl->kv_k != KV_F16 || pl->kv_v != KV_F16 || g->n_layer == 0 ||
	    g->n_layer > ARCH_MAX_LAYERS || g->n_head[0] == 0 ||
	    g->head_k != g->head_v || pl->n_stream == 0 ||
	    pl->n_ubatch % pl->n_stream != 0 || pl->n_fallback > 0 ||
	    pl->n_cpu_moe_tensors > 0)
		return false;
	for (il = 0; il < g->n_layer; il++)
		if (g->n_head[il] != g->n_head[0] ||
		    g->n_head_kv[il] != g->n_head_kv[0] ||
		    g->n_ff[il] != g->n_ff[0] || g->n_ff[il] == 0)
			return false;
	/* biases, fused QKV, experts: another graph */
	if (plan_tensor_rows(pn->f, ".attn_q.bias") ||
	    plan_tensor_rows(pn->f, ".attn_qkv.weight") ||
	    plan_tensor_rows(pn->f, ".ffn_gate_inp.weight") ||
	    !plan_tensor_rows(pn->f, ".ffn_gate.weight"))
		return false;
	return true;
}

static bool
shape_of(const struct planner *pn, const struct plan *pl, uint64_t ub,
    struct shape *s)
{
	const struct model_geom *g = pn->g;

	if (ub == 0 || ub % pl->n_stream != 0)
		return false;
	s->hd = plan_head_width(g, false);
	/* a hostile header: no head width, no KV head, no embedding */
	if (s->hd == 0 || g->n_head_kv[0] == 0 || g->n_embd == 0 ||
	    pl->ctx_seq == 0)
		return false;
	s->e = g->n_embd;
	s->q = smul(s->hd, g->n_head[0]);
	s->kv = smul(s->hd, g->n_head_kv[0]);
	s->ff = g->n_ff[0];
	s->t = ub;
	s->s = pl->n_stream;
	s->ts = ub / pl->n_stream;
	s->cells = pl->ctx_seq;
	s->fa = pl->flash_attention;
	return true;
}

static void
build(struct sc_graph *b, const struct planner *pn, const struct shape *s,
    const struct weights *w)
{
	struct inputs in;
	int32_t x;
	uint32_t il;

	gb_inputs(b, s, &in, &x);
	x = gb_op(b, SC_GET_ROWS, F32(s->e, s->t), L32(s->e, s->t), 0, s->t,
	    gb_weight(b, w, -1, "token_embd.weight"), x);
	for (il = 0; il < pn->g->n_layer; il++)
		x = gb_layer(b, s, w, &in, il, x);
	x = gb_norm(b, s, x, gb_weight(b, w, -1, "output_norm.weight"));
	if (!b->full)
		b->t[b->n - 1].flags |= GA_OUTPUT; /* result_norm */
	gb_op(b, SC_MUL_MAT, F32(pn->g->n_vocab, s->t),
	    L32(pn->g->n_vocab, s->t), GA_OUTPUT, s->t,
	    gb_weight(b, w, -1, "output.weight"), x); /* the logits */
}

bool
plan_graph_compute(const struct planner *pn, const struct plan *pl, uint64_t ub,
    uint64_t *host, uint64_t *dev)
{
	const struct model_geom *g = pn->g;
	struct shape s;
	struct weights w;
	struct sc_graph b = { NULL, 0, 0, false };
	bool gpu = pl->n_dev == 2, ok;
	uint64_t dl;

	if (!graph_known(pn, pl) || !shape_of(pn, pl, ub, &s))
		return false;
	dl = gpu ? plan_device_layers(g, pl->ngl) : 0;
	w.f = pn->f;
	w.n_layer = g->n_layer;
	w.dev_from = (uint32_t)(g->n_layer - dl);
	w.output_dev = gpu && pl->ngl >= 1;
	/* per layer 60 tensors at most, their copies and the scheduler's */
	b.cap = 32 + (size_t)g->n_layer * 120;
	b.t = calloc(b.cap, sizeof *b.t);
	if (b.t == NULL)
		return false;
	build(&b, pn, &s, &w);
	ok = sc_place(&b, gpu, pl->max_tensor, GB_VULKAN_ALIGN, GB_CPU_ALIGN,
	    dev, host);
	free(b.t);
	return ok;
}
