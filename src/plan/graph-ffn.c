/*
 * graph-ffn.c - a layer's FFN in llama.cpp's graph (graph-impl.h): dense
 * (gated, GELU, one product halved by its GLU, ReLU squared) or experts
 * (build_moe_ffn: the router, the chosen experts' products, their
 * weighted sum) with the shared expert beside them.
 */
#include "config.h"

#include <stdio.h>

#include "plan/graph-impl.h"

/* Layer il's gated FFN on cur (SwiGLU, GeGLU) of ffn_gate, ffn_up and
 * ffn_down with suffix (a shared expert's "_shexp"), width ff; bitnet's
 * normed before its down product. */
int32_t
gb_gated(struct sc_graph *b, const struct shape *s, struct weights *w,
    int64_t il, int32_t cur, const char *suffix, uint64_t ff)
{
	char name[32];
	int32_t g, u;

	snprintf(name, sizeof name, "ffn_gate%s", suffix);
	g = gb_linear(b, s, w, il, name, cur, ff);
	snprintf(name, sizeof name, "ffn_up%s", suffix);
	u = gb_linear(b, s, w, il, name, cur, ff);
	u = gb_op(b, SC_GLU, F32(ff, s->t), L32(ff, s->t), 0, s->t, g, u);
	if (w->a->norms == GB_NORM_SUB && *suffix == '\0')
		u = gb_norm(b, w, il, "ffn_sub_norm", u, rows2(ff, s->t));
	snprintf(name, sizeof name, "ffn_down%s", suffix);
	return gb_linear(b, s, w, il, name, u, s->e);
}

/* Layer il's FFN of ReLU squared on cur (ffn_up and ffn_down with
 * suffix), width ff. */
static int32_t
gb_relu_sqr(struct sc_graph *b, const struct shape *s, struct weights *w,
    int64_t il, int32_t cur, const char *suffix, uint64_t ff)
{
	char name[32];
	int32_t u;

	snprintf(name, sizeof name, "ffn_up%s", suffix);
	u = gb_linear(b, s, w, il, name, cur, ff);
	u = gb_op(b, SC_UNARY, F32(ff, s->t), L32(ff, s->t), GA_INPLACE, s->t,
	    u, GA_NONE);
	u = gb_op(b, SC_SQR, F32(ff, s->t), L32(ff, s->t), GA_INPLACE, s->t, u,
	    GA_NONE);
	snprintf(name, sizeof name, "ffn_down%s", suffix);
	return gb_linear(b, s, w, il, name, u, s->e);
}

/* Layer il's shared expert on cur (qwen2moe), ff wide: its gated FFN
 * times sigmoid(its router), computed as silu(r) / r (qwen35moe's
 * sigmoid: sig). */
static int32_t
gb_shared_expert(struct sc_graph *b, const struct shape *s, struct weights *w,
    int64_t il, int32_t cur, uint64_t ff, bool sig)
{
	struct rows r1 = rows2(1, s->t), re = rows2(s->e, s->t);
	int32_t f, g, r;

	f = gb_gated(b, s, w, il, cur, "_shexp", ff);
	r = gb_linear(b, s, w, il, "ffn_gate_inp_shexp", cur, 1);
	g = gb_op(b, SC_UNARY, r1.bytes, r1.layout, GA_INPLACE, s->t, r,
	    GA_NONE);
	if (!sig)
		g = gb_op(b, SC_DIV, r1.bytes, r1.layout, GA_INPLACE, s->t, g,
		    r);
	return gb_op(b, SC_MUL, re.bytes, re.layout, GA_INPLACE, s->t, f, g);
}

/* The router of layer il's experts on cur: the chosen experts of each
 * token (*top: a view of the argsort's first n_used) and their weights
 * (returned), as build_moe_ffn makes them: a softmax over the experts
 * before the choice (GB_MOE*), its weights normalized by their sum
 * (GB_MOE_NORM); or the biased logits chosen from and a softmax over the
 * chosen (GB_MOE_OAI); or the logits chosen from and their sigmoid
 * (GB_MOE_L4). */
static int32_t
gb_router(struct sc_graph *b, const struct shape *s, struct weights *w,
    int64_t il, int32_t cur, int32_t *top)
{
	uint64_t n = s->n_exp, k = s->n_used, t = s->t, wb = F32(k, t);
	uint8_t kind = w->a->ffn;
	bool oai = kind == GB_MOE_OAI, l4 = kind == GB_MOE_L4;
	bool sigmoid = l4 || (kind == GB_MOE_GLM && s->sigmoid);
	int32_t p, probs, sel, wt, sum;

	p = gb_op(b, SC_MUL_MAT, F32(n, t), L32(n, t), 0, t,
	    gb_weight(b, w, il, "ffn_gate_inp.weight"), cur);
	p = gb_bias(b, w, il, "ffn_gate_inp", p, rows2(n, t));
	probs = p;
	if (!oai)
		probs = gb_op(b, sigmoid ? SC_UNARY : SC_SOFT_MAX, F32(n, t),
		    L32(n, t), GA_INPLACE, t, p, GA_NONE);
	wt = gb_view(b, SC_RESHAPE, probs, F32(n, t));
	/* llama4 chooses from the logits, glm4moe from the weights and a
	 * bias, the others from the weights */
	sel = l4 ? p : probs;
	if (kind == GB_MOE_GLM)
		sel = gb_bias(b, w, il, "exp_probs_b", probs, rows2(n, t));
	if (kind == GB_MOE_GLM && sel == probs) { /* hy_v3's: no suffix */
		struct rows r = rows2(n, t);
		int32_t bias = gb_tensor(b, w, il, "exp_probs_b", true);

		if (bias != GA_NONE)
			sel = gb_op(b, SC_ADD, r.bytes, r.layout, GA_INPLACE,
			    r.n, probs, bias);
	}
	*top = gb_op(b, SC_ARGSORT, F32(n, t), lay(4, n, t, 1, 1, 7), 0, t, sel,
	    GA_NONE);
	*top = gb_view(b, SC_VIEW, *top, smul(4, k + (t - 1) * n));
	wt = gb_op(b, SC_GET_ROWS, wb, lay(4, 1, k, t, 1, 0), 0, t, wt, *top);
	if (oai) {
		wt = gb_view(b, SC_RESHAPE, wt, wb);
		wt = gb_op(b, SC_SOFT_MAX, wb, L32(k, t), GA_INPLACE, t, wt,
		    GA_NONE);
		return gb_view(b, SC_RESHAPE, wt, wb);
	}
	if (kind == GB_MOE_NORM || kind == GB_MIXED ||
	    kind == GB_MOE_SIG_SHEXP || (kind == GB_MOE_GLM && s->norm_w)) {
		wt = gb_view(b, SC_RESHAPE, wt, wb);
		sum = gb_op(b, SC_SUM_ROWS, smul(4, t), lay(4, 1, t, 1, 1, 0),
		    0, t, wt, GA_NONE);
		sum = gb_op(b, SC_CLAMP, smul(4, t), lay(4, 1, t, 1, 1, 0),
		    GA_INPLACE, t, sum, GA_NONE);
		wt = gb_op(b, SC_DIV, wb, L32(k, t), GA_INPLACE, t, wt, sum);
		wt = gb_view(b, SC_RESHAPE, wt, wb);
	}
	if ((kind == GB_MOE_GLM || kind == GB_MOE_SIG_SHEXP) && s->scale_w)
		wt = gb_op(b, SC_SCALE, wb, lay(4, 1, k, t, 1, 0), GA_INPLACE,
		    t, wt, GA_NONE);
	return wt;
}

/* The chosen experts' product with x (MUL_MAT_ID: its batch is t) of
 * layer il's name_exps, and their biases where the file has them
 * (ADD_ID, in place). */
static int32_t
gb_experts(struct sc_graph *b, const struct shape *s, struct weights *w,
    int64_t il, const char *name, int32_t x, int32_t top, uint64_t rows)
{
	uint64_t k = s->n_used, t = s->t, bytes = smul(F32(rows, k), t);
	uint64_t layout = lay(4, rows, k, t, 1, 0);
	char full[48];
	int32_t i, bias;

	snprintf(full, sizeof full, "%s_exps.weight", name);
	i = gb_add(b, SC_MUL_MAT_ID, bytes, layout, 0,
	    gb_weight(b, w, il, full), x, top);
	if (i != GA_NONE)
		b->t[i].batch = (int64_t)t;
	snprintf(full, sizeof full, "%s_exps.bias", name);
	bias = gb_tensor(b, w, il, full, true);
	if (bias == GA_NONE)
		return i;
	i = gb_add(b, SC_ADD_ID, bytes, layout, GA_INPLACE, i, bias, top);
	if (i != GA_NONE)
		b->t[i].batch = (int64_t)smul(k, t);
	return i;
}

/* The chosen experts' activation of x: gate's and up's products, their
 * GLU; or up's, ReLU squared (GB_EXP_RELU_SQR) or its GELU
 * (GB_MOE_GELU). */
static int32_t
gb_expert_act(struct sc_graph *b, const struct shape *s, struct weights *w,
    int64_t il, int32_t x, int32_t top)
{
	uint64_t k = s->n_used, t = s->t, ff = s->ff_exp;
	uint64_t fb = smul(F32(ff, k), t), lf = lay(4, ff, k, t, 1, 0);
	int32_t g, u;

	if (w->a->extra & GB_EXP_RELU_SQR) {
		u = gb_experts(b, s, w, il, "ffn_up", x, top, ff);
		u = gb_op(b, SC_UNARY, fb, lf, GA_INPLACE, t, u, GA_NONE);
		return gb_op(b, SC_SQR, fb, lf, GA_INPLACE, t, u, GA_NONE);
	}
	if (w->a->ffn == GB_MOE_GELU) {
		u = gb_experts(b, s, w, il, "ffn_up", x, top, ff);
		return gb_op(b, SC_UNARY, fb, lf, GA_INPLACE, t, u, GA_NONE);
	}
	g = gb_experts(b, s, w, il, "ffn_gate", x, top, ff);
	u = gb_experts(b, s, w, il, "ffn_up", x, top, ff);
	return gb_op(b, SC_GLU, fb, lf, 0, t, g, u);
}

/* Layer il's experts on cur (build_moe_ffn, which expands them): the
 * router, then the chosen experts' activation, down, each scaled by its
 * weight, and the experts' rows (views, all made before the sum)
 * summed. */
int32_t
gb_moe_sum(struct sc_graph *b, const struct shape *s, struct weights *w,
    int64_t il, int32_t cur)
{
	uint64_t k = s->n_used, t = s->t, e = s->e;
	uint64_t eb = smul(F32(e, k), t), le = lay(4, e, k, t, 1, 0);
	uint64_t vb = smul(4, e + (t - 1) * e * k);
	bool l4 = w->a->ffn == GB_MOE_L4;
	int32_t top, wt, x, first;
	uint64_t i;

	wt = gb_router(b, s, w, il, cur, &top);
	x = gb_view(b, SC_RESHAPE, cur, F32(e, t));
	if (l4) { /* the weights applied to the input, repeated k times */
		x = gb_op(b, SC_REPEAT, eb, le, 0, t, x, GA_NONE);
		x = gb_op(b, SC_MUL, eb, le, GA_INPLACE, t, x, wt);
	}
	x = gb_experts(b, s, w, il, "ffn_down",
	    gb_expert_act(b, s, w, il, x, top), top, e);
	if ((w->a->extra & GB_DOWN_F32) && x != GA_NONE &&
	    b->t[x].op == SC_MUL_MAT_ID)
		b->t[x].host_only = true;
	if (!l4)
		x = gb_op(b, SC_MUL, eb, le, GA_INPLACE, t, x, wt);
	/* each expert's rows, a view of x; then their sum */
	first = gb_view(b, SC_VIEW, x, vb);
	for (i = 1; i < k; i++)
		gb_view(b, SC_VIEW, x, vb);
	x = first;
	for (i = 1; i < k && first != GA_NONE; i++)
		x = gb_op(b, SC_ADD, F32(e, t), L32(e, t), GA_INPLACE, t, x,
		    first + (int32_t)i);
	if (k == 1) /* not a view */
		x = gb_op(b, SC_CONT, F32(e, t), L32(e, t), 0, t, x, GA_NONE);
	return x;
}

/* The experts' sum x of layer il on cur with its shared expert added
 * (GB_MOE_SHARED, GB_MOE_SIG_SHEXP, GB_MOE_L4, GB_MOE_GLM). */
int32_t
gb_moe_shared(struct sc_graph *b, const struct shape *s, struct weights *w,
    int64_t il, int32_t cur, int32_t x)
{
	uint64_t t = s->t, e = s->e, fs = s->ff_shared;
	uint64_t dim = gb_dim(w, il, "ffn_up_shexp.weight", 1);
	bool l4 = w->a->ffn == GB_MOE_L4;
	int32_t y = GA_NONE;

	/* the shared expert as wide as its tensors where the keys do not
	 * say, or say otherwise (llama.cpp checked the tensors against
	 * them: exaone-moe's are one expert wide whatever
	 * expert_shared_count says) */
	if (fs == 0 || (w->a->extra & GB_EXP_RELU_SQR) ||
	    (w->a->ffn == GB_MOE_GLM && dim > 0))
		fs = dim;
	if (w->a->ffn == GB_MOE_SHARED ||
	    (w->a->ffn == GB_MOE_SIG_SHEXP &&
		gb_has(w, il, "ffn_up_shexp.weight")))
		y = gb_shared_expert(b, s, w, il, cur, fs,
		    w->a->ffn == GB_MOE_SIG_SHEXP);
	else if (w->a->extra & GB_EXP_RELU_SQR)
		y = fs > 0 ? gb_relu_sqr(b, s, w, il, cur, "_shexp", fs) :
			     GA_NONE;
	else if (l4 || (w->a->ffn == GB_MOE_GLM && fs > 0))
		y = gb_gated(b, s, w, il, cur, "_shexp", l4 ? s->ff_exp : fs);
	if (y == GA_NONE)
		return x;
	x = gb_op(b, SC_ADD, F32(e, t), L32(e, t), GA_INPLACE, t, x, y);
	if (w->a->extra & GB_SHEXP_HALF) /* the sum halved (cohere2moe) */
		x = gb_op(b, SC_SCALE, F32(e, t), L32(e, t), GA_INPLACE, t, x,
		    GA_NONE);
	return x;
}

static int32_t
gb_moe(struct sc_graph *b, const struct shape *s, struct weights *w, int64_t il,
    int32_t cur)
{
	return gb_moe_shared(b, s, w, il, cur, gb_moe_sum(b, s, w, il, cur));
}

int32_t
gb_ffn(struct sc_graph *b, const struct shape *s, struct weights *w, int64_t il,
    int32_t cur)
{
	int32_t u;

	/* llama4's, llama's, glm4moe's and nomic-bert-moe's layers
	 * without a router are dense */
	if (w->a->ffn >= GB_MOE &&
	    ((w->a->ffn != GB_MOE_L4 && w->a->ffn != GB_MIXED &&
		 w->a->ffn != GB_MOE_GLM && w->a->ffn != GB_MOE_SIG_SHEXP &&
		 w->a->ffn != GB_MOE_GELU) ||
		gb_has(w, il, "ffn_gate_inp.weight"))) {
		if (s->n_exp == 0) /* a router without experts' keys */
			w->missing = true;
		return gb_moe(b, s, w, il, cur);
	}
	if (w->a->ffn == GB_GELU || w->a->ffn == GB_MOE_GELU) {
		/* an up holding a gate beside it (jina-bert-v2's GEGLU)
		 * is not this graph */
		if (gb_has(w, il, "ffn_up.weight") &&
		    gb_dim(w, il, "ffn_up.weight", 1) != s->ff)
			w->missing = true;
		u = gb_linear(b, s, w, il, "ffn_up", cur, s->ff);
		u = gb_op(b, SC_UNARY, F32(s->ff, s->t), L32(s->ff, s->t),
		    GA_INPLACE, s->t, u, GA_NONE);
	} else if (w->a->ffn == GB_RELU_SQR ||
	    (w->a->extra & GB_EXP_RELU_SQR)) {
		return gb_relu_sqr(b, s, w, il, cur, "", s->ff);
	} else if (w->a->ffn == GB_UP_GLU) {
		u = gb_linear(b, s, w, il, "ffn_up", cur, smul(2, s->ff));
		u = gb_op(b, SC_GLU, F32(s->ff, s->t), L32(s->ff, s->t), 0,
		    s->t, u, GA_NONE);
	} else
		return gb_gated(b, s, w, il, cur, "", s->ff);
	return gb_linear(b, s, w, il, "ffn_down", u, s->e);
}
