/*
 * graph-gdn.c - the Gated DeltaNet hybrids' layers in llama.cpp's graph
 * (graph-impl.h): qwen35's (src/models/qwen35.cpp, delta-net-base.cpp).
 * Each layer is a Gated DeltaNet layer or an attention layer (hparams'
 * is_recr), its input added; then the FFN of that, normed by
 * post_attention_norm, added.
 *
 * A Gated DeltaNet layer reads two states from its layer's cache as a
 * Mamba-2 layer does (build_rs: graph-ssm.c), the convolution's and the
 * delta net's. From the normed input: QKV's product, transposed after
 * the convolution states (the states' write of its last columns); the
 * delta net's states read; the convolution and its SiLU, Q and K
 * L2-normed (an RMS norm, scaled), V a view; the gate (alpha's product,
 * biased, softplus, times ssm_a) and beta (its product's sigmoid); one
 * GATED_DELTA_NET node (llama.cpp's fused form, which both backends
 * claim at these widths: its output and the new states), the states'
 * write. Only the layer's output reaches the rest: the output's gated
 * norm (z's product, SiLU) and the out-projection.
 *
 * The order is llama.cpp's (v0.5.0): every layer expands its norm
 * first, so, unlike Mamba's layers, each ends before the next begins.
 * The states are f32 whatever the KV cache's types.
 */
#include "config.h"

#include "plan/graph-impl.h"

/* A Gated DeltaNet layer begun: its normed input, the delta net. */
struct gdn {
	int32_t n, net;
};

/* Q's or K's L2 norm of the convolution's output c: a view of its
 * heads, RMS-normed, scaled; qwen3next's (next) repeated to V's heads
 * where they are fewer. */
static int32_t
l2_heads(struct sc_graph *b, const struct gb_ssm *m, int32_t c, bool next)
{
	uint64_t t = smul(m->tok, m->ns), w = smul(m->ng, m->ds);
	struct rows r = { F32(w, t), lay(4, m->ds, m->ng, m->tok, m->ns, 0),
		t };
	int32_t x = gb_view(b, SC_VIEW, c, gb_span(w, t, m->xw));

	x = gb_op(b, SC_RMS_NORM, r.bytes, r.layout, GA_INPLACE, r.n, x,
	    GA_NONE);
	x = gb_op(b, SC_SCALE, r.bytes, r.layout, GA_INPLACE, r.n, x, GA_NONE);
	if (!next || m->ng == m->nh)
		return x;
	x = gb_view(b, SC_RESHAPE, x, r.bytes);
	x = gb_op(b, SC_REPEAT, F32(smul(m->ds, m->nh), t),
	    lay(4, m->ds, m->nh / m->ng, m->ng, t, 0), 0, t, x, GA_NONE);
	return gb_view(b, SC_RESHAPE, x, gb_bytes(b, x));
}

/* qwen3next's beta and alpha, one product (ssm_ba) reshaped to the K
 * heads' pairs of their V heads (*ba), and the view of the second
 * (alpha) or the first (beta) of each. */
static int32_t
ba_view(struct sc_graph *b, const struct shape *s, struct weights *w,
    int64_t il, int32_t n, int32_t *ba)
{
	const struct gb_ssm *m = &s->ssm;
	uint64_t t = smul(m->tok, m->ns), h = m->nh / m->ng;

	if (*ba == GA_NONE) {
		*ba = gb_mm(b, s, gb_weight(b, w, il, "ssm_ba.weight"), n,
		    smul(2, m->nh));
		*ba = gb_view(b, SC_RESHAPE, *ba, gb_bytes(b, *ba));
	}
	return gb_view(b, SC_VIEW, *ba, gb_span(h, smul(m->ng, t), 2 * h));
}

/* The delta net's gate: alpha's product, reshaped (qwen3next's: its
 * view made contiguous), ssm_dt's bias added, its softplus times ssm_a,
 * reshaped. */
static int32_t
gate(struct sc_graph *b, const struct shape *s, struct weights *w, int64_t il,
    int32_t n, int32_t *ba)
{
	const struct gb_ssm *m = &s->ssm;
	uint64_t t = smul(m->tok, m->ns);
	struct rows r = { F32(m->nh, t), lay(4, m->nh, m->tok, m->ns, 1, 0),
		t };
	int32_t a;

	if (w->a->extra & GB_GDN_NEXT) {
		a = ba_view(b, s, w, il, n, ba);
		a = gb_op(b, SC_CONT, r.bytes, r.layout, 0, t, a, GA_NONE);
	} else {
		a = gb_mm(b, s, gb_weight(b, w, il, "ssm_alpha.weight"), n,
		    m->nh);
		a = gb_view(b, SC_RESHAPE, a, r.bytes);
	}
	a = gb_op(b, SC_ADD, r.bytes, r.layout, GA_INPLACE, r.n, a,
	    gb_weight(b, w, il, "ssm_dt.bias"));
	a = gb_op(b, SC_UNARY, r.bytes, r.layout, GA_INPLACE, r.n, a, GA_NONE);
	a = gb_op(b, SC_MUL, r.bytes, r.layout, GA_INPLACE, r.n, a,
	    gb_weight(b, w, il, "ssm_a"));
	return gb_view(b, SC_RESHAPE, a, r.bytes);
}

/* beta: its product, reshaped, its sigmoid (qwen3next's: its view made
 * contiguous, its sigmoid, reshaped). */
static int32_t
beta(struct sc_graph *b, const struct shape *s, struct weights *w, int64_t il,
    int32_t n, int32_t *ba)
{
	const struct gb_ssm *m = &s->ssm;
	uint64_t t = smul(m->tok, m->ns), h = m->nh / m->ng;
	uint64_t l = lay(4, h, m->ng, m->tok, m->ns, 0);
	int32_t x;

	if (w->a->extra & GB_GDN_NEXT) {
		x = ba_view(b, s, w, il, n, ba);
		x = gb_op(b, SC_CONT, F32(m->nh, t), l, 0, t, x, GA_NONE);
		x = gb_op(b, SC_UNARY, F32(m->nh, t), l, GA_INPLACE, t, x,
		    GA_NONE);
		return gb_view(b, SC_RESHAPE, x, F32(m->nh, t));
	}
	x = gb_mm(b, s, gb_weight(b, w, il, "ssm_beta.weight"), n, m->nh);
	x = gb_view(b, SC_RESHAPE, x, F32(m->nh, t));
	return gb_op(b, SC_UNARY, F32(m->nh, t),
	    lay(4, 1, m->nh, m->tok, m->ns, 0), GA_INPLACE, t, x, GA_NONE);
}

/* graph-impl.h: the GATED_DELTA_NET op of n floats (its output, then
 * the new states) over src; Vulkan does not run it at head widths
 * other than 16, 32, 64 and 128. */
int32_t
gb_delta_net_op(struct sc_graph *b, const struct gb_ssm *m, uint64_t n,
    const int32_t src[6])
{
	int32_t i = gb_op(b, SC_GDN, smul(4, n), lay(4, n, 1, 1, 1, 0), 0, 1,
	    src[0], src[1]);
	int k;

	if (i == GA_NONE)
		return i;
	for (k = 2; k < 6; k++)
		b->t[i].src[k] = src[k];
	/* ggml-vulkan's heads are 16, 32, 64 or 128 wide; ggml-cuda's any */
	b->t[i].host_only = m->gpu == SC_GPU_VULKAN && m->hd != 16 &&
	    m->hd != 32 && m->hd != 64 && m->hd != 128;
	return i;
}

/* The delta net (GATED_DELTA_NET: its output, then the new states) of
 * the convolution's output c, the normed input n and the states' rows
 * st. */
static int32_t
delta_net(struct sc_graph *b, const struct shape *s, struct weights *w,
    int64_t il, const int32_t cns[3])
{
	const struct gb_ssm *m = &s->ssm;
	uint64_t t = smul(m->tok, m->ns);
	uint64_t n = sadd(smul(t, m->di), smul(m->sw, m->ns));
	bool next = (w->a->extra & GB_GDN_NEXT) != 0;
	int32_t src[6], ba = GA_NONE;

	src[0] = l2_heads(b, m, cns[0], next);
	src[1] = l2_heads(b, m, cns[0], next);
	src[2] = gb_view(b, SC_VIEW, cns[0], gb_span(m->di, t, m->xw));
	src[3] = gate(b, s, w, il, cns[1], &ba);
	src[4] = beta(b, s, w, il, cns[1], &ba);
	src[5] = gb_view(b, SC_RESHAPE, cns[2], gb_bytes(b, cns[2]));
	return gb_delta_net_op(b, m, n, src);
}

/* Layer il's Gated DeltaNet up to its states' write, from its normed
 * input n. */
static void
gdn_begin(struct sc_graph *b, const struct shape *s, struct weights *w,
    struct inputs *in, int64_t il, int32_t n, struct gdn *g)
{
	const struct gb_ssm *m = &s->ssm;
	uint64_t t = smul(m->tok, m->ns);
	struct gb_mamba mb;
	int32_t x, cns[3], sc;
	struct rows r = { F32(m->xw, t), lay(4, m->xw, m->tok, m->ns, 1, 0),
		t };

	g->n = n;
	x = gb_rs_read(b, s, w, in, il, m->rw, &mb.r);
	mb.conv = gb_view(b, SC_RESHAPE, x, gb_bytes(b, x));
	x = gb_mm(b, s, gb_weight(b, w, il, "attn_qkv.weight"), n, m->xw);
	x = gb_view(b, SC_RESHAPE, x, gb_bytes(b, x));
	x = gb_conv_input(b, m, &mb, x);
	cns[2] = gb_rs_read(b, s, w, in, il, m->sw, &sc);
	x = gb_ssm_conv(b, m, r, m->xw, x,
	    gb_weight(b, w, il, "ssm_conv1d.weight"));
	cns[0] = gb_op(b, SC_UNARY, r.bytes, r.layout, GA_INPLACE, t, x,
	    GA_NONE);
	cns[1] = n;
	g->net = delta_net(b, s, w, il, cns);
	gb_rs_write(b, m, g->net, sc);
}

/* The layer's output: the delta net's output normed, times SiLU of z
 * (the gate's product), the out-projection. */
static int32_t
gdn_tail(struct sc_graph *b, const struct shape *s, struct weights *w,
    int64_t il, const struct gdn *g)
{
	const struct gb_ssm *m = &s->ssm;
	uint64_t t = smul(m->tok, m->ns);
	struct rows r = { F32(m->di, t), lay(4, m->hd, m->nh, m->tok, m->ns, 0),
		t };
	int32_t o, z;

	o = gb_view(b, SC_VIEW, g->net, r.bytes);
	o = gb_norm(b, w, il, "ssm_norm", o, r);
	z = gb_mm(b, s, gb_weight(b, w, il, "attn_gate.weight"), g->n, m->di);
	z = gb_view(b, SC_RESHAPE, z, r.bytes);
	z = gb_op(b, SC_UNARY, r.bytes, r.layout, GA_INPLACE, t, z, GA_NONE);
	o = gb_op(b, SC_MUL, r.bytes, r.layout, GA_INPLACE, t, o, z);
	o = gb_view(b, SC_RESHAPE, o, r.bytes);
	o = gb_op(b, SC_MUL_MAT, F32(s->e, t),
	    lay(4, s->e, m->tok, m->ns, 1, 0), 0, m->tok,
	    gb_weight(b, w, il, "ssm_out.weight"), o);
	return gb_view(b, SC_RESHAPE, o, F32(s->e, t));
}

static int32_t
add(struct sc_graph *b, const struct shape *s, int32_t x, int32_t y)
{
	struct rows r = rows2(s->e, s->t);

	return gb_op(b, SC_ADD, r.bytes, r.layout, GA_INPLACE, s->t, x, y);
}

int32_t
gb_gdn_layers(struct sc_graph *b, const struct shape *s, struct weights *w,
    struct inputs *in, int32_t x)
{
	struct rows r = rows2(s->e, s->t);
	struct gb_attn at;
	struct gdn g;
	int32_t n, y;
	uint32_t il;

	for (il = 0; il < w->n_layer; il++) {
		n = gb_norm(b, w, il, "attn_norm", x, r);
		if (w->g->is_recr[il]) {
			gdn_begin(b, s, w, in, il, n, &g);
			y = gdn_tail(b, s, w, il, &g);
		} else {
			gb_attn_begin(b, s, w, in, il, n, &at);
			y = gb_attn_end(b, s, w, in, il, &at);
		}
		x = add(b, s, y, x);
		n = gb_norm(b, w, il, "post_attention_norm", x, r);
		x = add(b, s, gb_ffn(b, s, w, il, n), x);
	}
	return x;
}
