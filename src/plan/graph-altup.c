/*
 * graph-altup.c - gemma3n's layers in llama.cpp's graph (graph-impl.h):
 * AltUp's stack of n_altup copies of the stream ([n_embd, tokens,
 * n_altup]), predicted from the stack and a router before each layer and
 * corrected after it; laurel's low-rank residual beside the attention;
 * the FFN with activation sparsity in the first ten layers (a Gaussian
 * top-k); the per-layer inputs (their own token rows plus a projection
 * of the embeddings) gating each layer's contribution to the stack; the
 * stack merged back after the last layer. The attention is
 * graph-attn.c's, the last layers reading earlier layers' caches.
 *
 * The order is llama.cpp's (v0.5.0, src/models/gemma3n.cpp), ggml's
 * depth-first walk: the per-layer inputs' rows come first (expanded
 * before anything else), the embeddings' scale and the stack after
 * them, the per-layer projection where the first layer reads it; within
 * a layer everything as its output reaches it. n_altup, the per-layer
 * width and laurel's rank are the tensors' own dimensions.
 */
#include "config.h"

#include <string.h>

#include "plan/graph-impl.h"

#define GB_SPARSE_LAYERS 10 /* llama.cpp's n_layer_sparsity */

/* The stack's geometry: copies, per-layer width, laurel's rank. */
struct altup {
	uint64_t a, p, r;
	int32_t pl;   /* the per-layer inputs' rows, scaled */
	int32_t proj; /* the per-layer inputs, made at their first reader */
	int32_t embd; /* the scaled embeddings */
};

/* An f32 node [a0, a1, a2] of op on s0, s1 (its batch: a product's
 * columns, else its rows). */
static int32_t
nd(struct sc_graph *b, uint8_t op, uint64_t a0, uint64_t a1, uint64_t a2,
    bool inplace, int32_t s0, int32_t s1)
{
	const uint64_t a[4] = { a0, a1, a2, 1 };

	return gb_op4(b, op, a, inplace ? GA_INPLACE : 0,
	    op == SC_MUL_MAT ? a1 : smul(a1, a2), s0, s1);
}

/* A view of v, [a0, a1, a2] contiguous (perm 0) or permuted. */
static int32_t
vw(struct sc_graph *b, uint8_t op, int32_t v, uint64_t a0, uint64_t a1,
    uint64_t a2, int perm)
{
	return gb_view_as(b, op, v, smul(F32(a0, a1), a2),
	    lay(4, a0, a1, a2, 1, perm));
}

/* sqrt(sum_rows(x^2)) of x [a0, a1, a2]: [1, a1, a2]. */
static int32_t
magnitude(struct sc_graph *b, int32_t x, uint64_t a0, uint64_t a1, uint64_t a2)
{
	x = nd(b, SC_SQR, a0, a1, a2, true, x, GA_NONE);
	x = nd(b, SC_SUM_ROWS, 1, a1, a2, false, x, GA_NONE);
	return nd(b, SC_SQRT, 1, a1, a2, true, x, GA_NONE);
}

/* The router's modalities of x [e, t]: its norm, scaled, the product,
 * tanh: [a, t]. The prediction and the correction read the same two
 * weights (one leaf each: one copy for a device, alive between them). */
static int32_t
router(struct sc_graph *b, const struct shape *s, struct weights *w, int64_t il,
    const struct altup *u, int32_t x)
{
	x = gb_norm(b, w, il, "altup_router_norm", x, rows2(s->e, s->t));
	x = nd(b, SC_SCALE, s->e, s->t, 1, true, x, GA_NONE);
	x = gb_mm(b, s, gb_weight(b, w, il, "altup_router.weight"), x, u->a);
	return nd(b, SC_UNARY, u->a, s->t, 1, true, x, GA_NONE);
}

/* The stack from the scaled embeddings x: x, then its n_altup - 1
 * projections rescaled to x's magnitude, concatenated. */
static int32_t
stack(struct sc_graph *b, const struct shape *s, struct weights *w,
    const struct altup *u, int32_t x)
{
	uint64_t e = s->e, t = s->t, n = u->a - 1;
	int32_t r, m;

	r = nd(b, SC_REPEAT, e, t, n, false, x, GA_NONE);
	r = nd(b, SC_MUL_MAT, e, t, n, false,
	    gb_weight(b, w, -1, "altup_proj.weight"), r);
	m = nd(b, SC_MUL, e, t, n, true, r, magnitude(b, x, e, t, 1));
	m = nd(b, SC_DIV, e, t, n, true, m, magnitude(b, r, e, t, n));
	return nd(b, SC_CONCAT, e, t, u->a, false, x, m);
}

/* Layer il's predictions from the stack x: the stack permuted times the
 * coefficients of the router's modalities, permuted back, plus x. */
static int32_t
predict(struct sc_graph *b, const struct shape *s, struct weights *w,
    int64_t il, struct altup *u, int32_t x)
{
	uint64_t e = s->e, t = s->t, a = u->a;
	int32_t xp, c;

	xp = vw(b, SC_PERMUTE, x, a, e, t, 9);
	xp = nd(b, SC_CONT, a, e, t, false, xp, GA_NONE);
	c = router(b, s, w, il, u, vw(b, SC_VIEW, x, e, t, 1, 0));
	c = gb_mm(b, s, gb_weight(b, w, il, "altup_predict_coef.weight"), c,
	    a * a);
	c = vw(b, SC_RESHAPE, c, a, a, t, 0);
	c = nd(b, SC_MUL_MAT, e, a, t, false, xp, c);
	c = vw(b, SC_PERMUTE, c, e, t, a, 9);
	c = nd(b, SC_CONT, e, t, a, false, c, GA_NONE);
	return nd(b, SC_ADD, e, t, a, true, c, x);
}

/* x's activation sparsity (gaussian_topk): relu(x - (mean + k std)). */
static int32_t
sparse(struct sc_graph *b, const struct shape *s, int32_t x)
{
	uint64_t f = s->ff, t = s->t;
	int32_t mean, d;

	mean = nd(b, SC_MEAN, 1, t, 1, false, x, GA_NONE);
	d = nd(b, SC_SUB, f, t, 1, true, x, mean);
	d = nd(b, SC_SQR, f, t, 1, true, d, GA_NONE);
	d = nd(b, SC_SUM_ROWS, 1, t, 1, false, d, GA_NONE);
	d = nd(b, SC_SCALE, 1, t, 1, true, d, GA_NONE);
	d = nd(b, SC_SQRT, 1, t, 1, true, d, GA_NONE);
	d = nd(b, SC_SCALE, 1, t, 1, true, d, GA_NONE);
	d = nd(b, SC_ADD, 1, t, 1, true, mean, d);
	d = nd(b, SC_SUB, f, t, 1, true, x, d);
	return nd(b, SC_UNARY, f, t, 1, true, d, GA_NONE);
}

/* Layer il's attention, laurel and FFN on the active prediction act:
 * their sum (attn_ffw_laurel_gated). */
static int32_t
body(struct sc_graph *b, const struct shape *s, struct weights *w,
    struct inputs *in, int64_t il, const struct altup *u, int32_t act)
{
	struct rows r = rows2(s->e, s->t);
	struct gb_attn at;
	int32_t n, g, l, up, gate;

	n = gb_norm(b, w, il, "attn_norm", act, r);
	gb_attn_begin(b, s, w, in, il, n, &at);
	g = gb_attn_end(b, s, w, in, il, &at);
	g = gb_norm(b, w, il, "post_attention_norm", g, r);
	g = nd(b, SC_ADD, s->e, s->t, 1, true, g, act);
	l = gb_mm(b, s, gb_weight(b, w, il, "laurel_l.weight"), n, u->r);
	l = gb_mm(b, s, gb_weight(b, w, il, "laurel_r.weight"), l, s->e);
	l = gb_norm(b, w, il, "laurel_post_norm", l, r);
	l = nd(b, SC_ADD, s->e, s->t, 1, true, l, n);
	g = nd(b, SC_ADD, s->e, s->t, 1, true, g, l);
	g = nd(b, SC_SCALE, s->e, s->t, 1, true, g, GA_NONE);
	n = gb_norm(b, w, il, "ffn_norm", g, r);
	up = gb_mm(b, s, gb_weight(b, w, il, "ffn_up.weight"), n, s->ff);
	gate = gb_mm(b, s, gb_weight(b, w, il, "ffn_gate.weight"), n, s->ff);
	if (il < GB_SPARSE_LAYERS)
		gate = sparse(b, s, gate);
	gate = nd(b, SC_UNARY, s->ff, s->t, 1, true, gate, GA_NONE);
	up = nd(b, SC_MUL, s->ff, s->t, 1, true, up, gate);
	up = gb_mm(b, s, gb_weight(b, w, il, "ffn_down.weight"), up, s->e);
	up = gb_norm(b, w, il, "post_ffw_norm", up, r);
	return nd(b, SC_ADD, s->e, s->t, 1, true, up, g);
}

/* The per-layer inputs [p, t, layers]: the embeddings' projection,
 * scaled, normed, plus the per-layer rows, scaled, permuted. */
static int32_t
per_layer(struct sc_graph *b, const struct shape *s, struct weights *w,
    struct altup *u)
{
	uint64_t p = u->p, n = w->n_layer, t = s->t;
	struct rows r = { smul(F32(p, n), t), lay(4, p, n, t, 1, 0),
		smul(n, t) };
	int32_t x;

	if (u->proj != GA_NONE)
		return u->proj;
	x = gb_mm(b, s, gb_weight(b, w, -1, "per_layer_model_proj.weight"),
	    u->embd, smul(p, n));
	x = nd(b, SC_SCALE, smul(p, n), t, 1, true, x, GA_NONE);
	x = vw(b, SC_RESHAPE, x, p, n, t, 0);
	x = gb_norm(b, w, -1, "per_layer_proj_norm", x, r);
	x = nd(b, SC_ADD, p, n, t, true, x, u->pl);
	x = nd(b, SC_SCALE, p, n, t, true, x, GA_NONE);
	x = vw(b, SC_PERMUTE, x, p, t, n, 9);
	u->proj = nd(b, SC_CONT, p, t, n, false, x, GA_NONE);
	return u->proj;
}

/* Layer il's correction of the predictions pr by y (the layer's sum),
 * and the per-layer input's gate added to all but the first copy: the
 * next stack. */
static int32_t
correct(struct sc_graph *b, const struct shape *s, struct weights *w,
    int64_t il, struct altup *u, int32_t pr, int32_t y)
{
	uint64_t e = s->e, t = s->t, a = u->a;
	int32_t inn, c, first, rest, f;

	inn = nd(b, SC_SUB, e, t, 1, true, y, vw(b, SC_VIEW, pr, e, t, 1, 0));
	inn = nd(b, SC_REPEAT, e, t, a, false, inn, GA_NONE);
	c = router(b, s, w, il, u, y);
	c = gb_mm(b, s, gb_weight(b, w, il, "altup_correct_coef.weight"), c, a);
	c = nd(b, SC_SCALE, a, t, 1, true, c, GA_NONE);
	c = vw(b, SC_TRANSPOSE, c, t, a, 1, 9);
	c = nd(b, SC_CONT, 1, t, a, false, c, GA_NONE);
	c = nd(b, SC_MUL, e, t, a, true, inn, c);
	c = nd(b, SC_ADD, e, t, a, true, c, pr);
	first = vw(b, SC_VIEW, c, e, t, 1, 0);
	rest = vw(b, SC_VIEW, c, e, t, a - 1, 0);
	f = vw(b, SC_VIEW, c, e, t, 1, 0);
	f = nd(b, SC_MUL, e, t, 1, true, f,
	    gb_weight(b, w, il, "altup_correct_scale.weight"));
	f = gb_mm(b, s, gb_weight(b, w, il, "inp_gate.weight"), f, u->p);
	f = nd(b, SC_UNARY, u->p, t, 1, true, f, GA_NONE);
	f = nd(b, SC_MUL, u->p, t, 1, true, f,
	    vw(b, SC_VIEW, per_layer(b, s, w, u), u->p, t, 1, 0));
	f = gb_mm(b, s, gb_weight(b, w, il, "proj.weight"), f, e);
	f = gb_norm(b, w, il, "post_norm", f, rows2(e, t));
	f = nd(b, SC_ADD, e, t, a - 1, true, rest, f);
	return nd(b, SC_CONCAT, e, t, a, false, first, f);
}

/* The stack x merged: its first copy plus the others' projections
 * rescaled to its magnitude, over n_altup. */
static int32_t
merge(struct sc_graph *b, const struct shape *s, struct weights *w,
    const struct altup *u, int32_t x)
{
	uint64_t e = s->e, t = s->t, n = u->a - 1, i;
	int32_t cur, p, m;

	cur = vw(b, SC_VIEW, x, e, t, 1, 0);
	p = nd(b, SC_MUL_MAT, e, t, n, false,
	    gb_weight(b, w, -1, "altup_unembd_proj.weight"),
	    vw(b, SC_VIEW, x, e, t, n, 0));
	m = magnitude(b, vw(b, SC_VIEW, x, e, t, 1, 0), e, t, 1);
	m = nd(b, SC_MUL, e, t, n, true, p, m);
	m = nd(b, SC_DIV, e, t, n, true, m, magnitude(b, p, e, t, n));
	for (i = 0; i < n; i++)
		cur = nd(b, SC_ADD, e, t, 1, true, cur,
		    vw(b, SC_VIEW, m, e, t, 1, 0));
	return nd(b, SC_SCALE, e, t, 1, true, cur, GA_NONE);
}

int32_t
gb_altup(struct sc_graph *b, const struct shape *s, struct weights *w,
    struct inputs *in, int32_t x)
{
	struct altup u;
	uint64_t n = w->n_layer, t = s->t;
	int32_t tok, pr;
	uint32_t il;

	memset(&u, 0, sizeof u);
	u.a = gb_dim(w, -1, "altup_proj.weight", 2) + 1;
	u.p = gb_dim(w, 0, "inp_gate.weight", 1);
	u.r = gb_dim(w, 0, "laurel_l.weight", 1);
	u.proj = GA_NONE;
	if (u.a < 2 || u.p == 0 || u.r == 0)
		w->missing = true;
	/* the per-layer inputs' own token rows, scaled */
	tok = gb_input(b, smul(4, t), lay(4, t, 1, 1, 1, 10), 0);
	u.pl = gb_op(b, SC_GET_ROWS, smul(F32(u.p, n), t),
	    lay(4, smul(u.p, n), t, 1, 1, 0), 0, t,
	    gb_weight(b, w, -1, "per_layer_token_embd.weight"), tok);
	u.pl = vw(b, SC_RESHAPE, u.pl, u.p, n, t, 0);
	u.pl = nd(b, SC_SCALE, u.p, n, t, true, u.pl, GA_NONE);
	u.embd = nd(b, SC_SCALE, s->e, t, 1, true, x, GA_NONE);
	x = stack(b, s, w, &u, u.embd);
	for (il = 0; il < w->n_layer; il++) {
		pr = predict(b, s, w, il, &u, x);
		x = correct(b, s, w, il, &u, pr,
		    body(b, s, w, in, il, &u,
			vw(b, SC_VIEW, pr, s->e, t, 1, 0)));
	}
	return merge(b, s, w, &u, x);
}
