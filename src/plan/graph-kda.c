/*
 * graph-kda.c - kimi-linear's layers in llama.cpp's graph (graph-impl.h;
 * src/models/kimi-linear.cpp, delta-net-base.cpp): each layer a Kimi
 * delta attention (KDA) layer or an MLA layer without RoPE (hparams'
 * is_recr; graph-mla.c), on the layer's norm, its input added; the FFN
 * of that normed (ffn_norm), added. In the last layer the output rows
 * of the mixer's output and of the input are taken before their sum.
 *
 * A KDA layer reads two states from its layer's cache as a Mamba-2
 * layer does (build_rs: graph-ssm.c): one row of the three
 * convolutions' columns (Q's, K's, V's, each (d_conv - 1) x n_head x
 * head_dim) and one of the delta net's. Q, K and V each: its view of
 * the convolutions' states, its product, transposed after that view,
 * the last columns written back. The delta net's states read; then
 * from the delta net (llama.cpp's fused GATED_DELTA_NET, which both
 * backends claim at these widths): each convolution and its SiLU (Q's
 * and K's L2-normed), the gate (f_a's and f_b's products, the bias,
 * softplus, times ssm_a per head), beta (its product's sigmoid), the
 * states; the states' write. The layer's output only where its sum
 * reaches it: the delta net's output made contiguous, normed per head
 * (ssm_norm), times the sigmoid of g_a's and g_b's products, made
 * contiguous, the out-projection.
 *
 * The order is llama.cpp's (v0.5.0): every layer expands its norm
 * first, so each ends before the next begins. The states are f32
 * whatever the KV cache's types.
 */
#include "config.h"

#include "plan/graph-impl.h"

/* The ubatch's tokens: a row each. */
static uint64_t
tokens(const struct gb_ssm *m)
{
	return smul(m->tok, m->ns);
}

/* ggml_nbytes of an f32 view [a, b, ns] whose rows are a apart and
 * whose sequences are seq apart (floats). */
static uint64_t
seq_span(const struct gb_ssm *m, uint64_t a, uint64_t b, uint64_t seq)
{
	if (a == 0 || b == 0)
		return 0;
	return smul(4, sadd(smul(a, b), smul(m->ns - 1, seq)));
}

/* Convolution k's (0 Q, 1 K, 2 V) input from the normed input n: its
 * states' view (of the rows read, st), its product, transposed after
 * them; the last columns written back into the cache's rows. The
 * convolution's input [dc - 1 + tok, di, ns]. */
static int32_t
conv_input(struct sc_graph *b, const struct shape *s, struct weights *w,
    int64_t il, int32_t n, int32_t st, int32_t cache, int k)
{
	static const char *const proj[] = { "attn_q.weight", "attn_k.weight",
		"attn_v.weight" };
	const struct gb_ssm *m = &s->ssm;
	uint64_t cols = m->dc - 1 + m->tok;
	int32_t v, x, cx, d;

	v = gb_view(b, SC_VIEW, st, seq_span(m, m->dc - 1, m->di, m->rw));
	x = gb_mm(b, s, gb_weight(b, w, il, proj[k]), n, m->di);
	x = gb_view(b, SC_RESHAPE, x, gb_bytes(b, x));
	x = gb_view(b, SC_TRANSPOSE, x, gb_bytes(b, x));
	cx = gb_op(b, SC_CONCAT, smul(F32(cols, m->di), m->ns),
	    lay(4, cols, m->di, m->ns, 1, 0), 0, smul(m->di, m->ns), v, x);
	x = gb_view(b, SC_VIEW, cx,
	    gb_span(m->dc - 1, smul(m->di, m->ns), cols));
	d = gb_view(b, SC_VIEW, cache, seq_span(m, m->dc - 1, m->di, m->rw));
	gb_into(b, SC_CPY, d, x, d);
	return cx;
}

/* Convolution k of its input cx (its weight reshaped), its SiLU,
 * reshaped to the heads; Q's and K's L2-normed (an RMS norm, scaled). */
static int32_t
conv_out(struct sc_graph *b, const struct shape *s, struct weights *w,
    int64_t il, int32_t cx, int k)
{
	static const char *const conv[] = { "ssm_conv1d_q.weight",
		"ssm_conv1d_k.weight", "ssm_conv1d_v.weight" };
	const struct gb_ssm *m = &s->ssm;
	uint64_t t = tokens(m);
	struct rows r = { F32(m->di, t), lay(4, m->di, m->tok, m->ns, 1, 0),
		t };
	uint64_t l4 = lay(4, m->hd, m->nh, m->tok, m->ns, 0);
	int32_t c, x;

	c = gb_weight(b, w, il, conv[k]);
	c = gb_view(b, SC_RESHAPE, c, gb_bytes(b, c));
	x = gb_ssm_conv(b, m, r, m->di, cx, c);
	x = gb_view(b, SC_RESHAPE, x, r.bytes);
	x = gb_op(b, SC_UNARY, r.bytes, L32(m->di, t), GA_INPLACE, t, x,
	    GA_NONE);
	x = gb_view(b, SC_RESHAPE, x, r.bytes);
	if (k == 2)
		return x;
	x = gb_op(b, SC_RMS_NORM, r.bytes, l4, GA_INPLACE, t, x, GA_NONE);
	return gb_op(b, SC_SCALE, r.bytes, l4, GA_INPLACE, t, x, GA_NONE);
}

/* The delta net's gate: f_a's and f_b's products of n, ssm_dt's bias,
 * softplus, reshaped to the heads, times ssm_a (a view of a head
 * each), reshaped. */
static int32_t
gate(struct sc_graph *b, const struct shape *s, struct weights *w, int64_t il,
    int32_t n)
{
	const struct gb_ssm *m = &s->ssm;
	uint64_t t = tokens(m);
	struct rows r = rows2(m->di, t);
	uint64_t l3 = lay(4, m->hd, m->nh, t, 1, 0);
	int32_t x, a;

	x = gb_mm(b, s, gb_weight(b, w, il, "ssm_f_a.weight"), n, m->hd);
	x = gb_mm(b, s, gb_weight(b, w, il, "ssm_f_b.weight"), x, m->di);
	x = gb_op(b, SC_ADD, r.bytes, r.layout, GA_INPLACE, t, x,
	    gb_weight(b, w, il, "ssm_dt.bias"));
	x = gb_op(b, SC_UNARY, r.bytes, r.layout, GA_INPLACE, t, x, GA_NONE);
	x = gb_view(b, SC_RESHAPE, x, r.bytes);
	a = gb_weight(b, w, il, "ssm_a");
	a = gb_view(b, SC_RESHAPE, a, gb_bytes(b, a));
	x = gb_op(b, SC_MUL, r.bytes, l3, GA_INPLACE, t, x, a);
	return gb_view(b, SC_RESHAPE, x, r.bytes);
}

/* beta: its product of n, reshaped, its sigmoid. */
static int32_t
beta(struct sc_graph *b, const struct shape *s, struct weights *w, int64_t il,
    int32_t n)
{
	const struct gb_ssm *m = &s->ssm;
	uint64_t t = tokens(m);
	int32_t x;

	x = gb_mm(b, s, gb_weight(b, w, il, "ssm_beta.weight"), n, m->nh);
	x = gb_view(b, SC_RESHAPE, x, F32(m->nh, t));
	return gb_op(b, SC_UNARY, F32(m->nh, t),
	    lay(4, 1, m->nh, m->tok, m->ns, 0), GA_INPLACE, t, x, GA_NONE);
}

/* The delta net (gb_delta_net_op) of the convolutions' inputs cx, the
 * normed input n and the states' rows st. */
static int32_t
delta_net(struct sc_graph *b, const struct shape *s, struct weights *w,
    int64_t il, const int32_t cx[3], int32_t n, int32_t st)
{
	const struct gb_ssm *m = &s->ssm;
	uint64_t t = tokens(m);
	uint64_t nf = sadd(smul(t, m->di), smul(m->sw, m->ns));
	int32_t src[6];
	int k;

	for (k = 0; k < 3; k++)
		src[k] = conv_out(b, s, w, il, cx[k], k);
	src[3] = gate(b, s, w, il, n);
	src[4] = beta(b, s, w, il, n);
	src[5] = gb_view(b, SC_RESHAPE, st, gb_bytes(b, st));
	return gb_delta_net_op(b, m, nf, src);
}

/* Layer il's KDA up to its states' write, from its normed input n: the
 * delta net. */
static int32_t
kda_begin(struct sc_graph *b, const struct shape *s, struct weights *w,
    struct inputs *in, int64_t il, int32_t n)
{
	const struct gb_ssm *m = &s->ssm;
	int32_t rows, rc, cx[3], st, sc, net;
	int k;

	rows = gb_rs_read(b, s, w, in, il, m->rw, &rc);
	for (k = 0; k < 3; k++)
		cx[k] = conv_input(b, s, w, il, n, rows, rc, k);
	st = gb_rs_read(b, s, w, in, il, m->sw, &sc);
	net = delta_net(b, s, w, il, cx, n, st);
	gb_rs_write(b, m, net, sc);
	return net;
}

/* The layer's output: the delta net's output made contiguous, normed
 * per head, times the sigmoid of the output gate's products of n, made
 * contiguous, the out-projection. */
static int32_t
kda_tail(struct sc_graph *b, const struct shape *s, struct weights *w,
    int64_t il, int32_t n, int32_t net)
{
	const struct gb_ssm *m = &s->ssm;
	uint64_t t = tokens(m);
	struct rows r = { F32(m->di, t), lay(4, m->hd, m->nh, t, 1, 0), t };
	int32_t o, g;

	o = gb_view(b, SC_VIEW, net, r.bytes);
	o = gb_op(b, SC_CONT, r.bytes, lay(4, m->hd, m->nh, m->tok, m->ns, 0),
	    0, t, o, GA_NONE);
	o = gb_view(b, SC_RESHAPE, o, r.bytes);
	o = gb_norm(b, w, il, "ssm_norm", o, r);
	n = gb_view(b, SC_RESHAPE, n, gb_bytes(b, n));
	n = gb_view(b, SC_RESHAPE, n, gb_bytes(b, n));
	g = gb_mm(b, s, gb_weight(b, w, il, "ssm_g_a.weight"), n, m->hd);
	g = gb_mm(b, s, gb_weight(b, w, il, "ssm_g_b.weight"), g, m->di);
	g = gb_view(b, SC_RESHAPE, g, r.bytes);
	g = gb_op(b, SC_UNARY, r.bytes, r.layout, GA_INPLACE, t, g, GA_NONE);
	o = gb_op(b, SC_MUL, r.bytes, r.layout, GA_INPLACE, t, o, g);
	o = gb_op(b, SC_CONT, r.bytes, L32(m->di, t), 0, t, o, GA_NONE);
	return gb_mm(b, s, gb_weight(b, w, il, "attn_output.weight"), o, s->e);
}

static int32_t
add(struct sc_graph *b, const struct shape *s, int32_t x, int32_t y)
{
	struct rows r = rows2(s->e, s->t);

	return gb_op(b, SC_ADD, r.bytes, r.layout, GA_INPLACE, s->t, x, y);
}

/* x's rows of the outputs. */
static int32_t
out_rows(struct sc_graph *b, const struct shape *s, struct inputs *in,
    int32_t x)
{
	struct rows r = rows2(s->e, s->t);

	return gb_op(b, SC_GET_ROWS, r.bytes, r.layout, 0, s->t, x,
	    gb_in_out(b, s, in));
}

int32_t
gb_kda_layers(struct sc_graph *b, const struct shape *s, struct weights *w,
    struct inputs *in, int32_t x)
{
	struct rows r = rows2(s->e, s->t);
	struct gb_attn at;
	int32_t n, y;
	uint32_t il;

	for (il = 0; il < w->n_layer; il++) {
		n = gb_norm(b, w, il, "attn_norm", x, r);
		if (w->g->is_recr[il]) {
			y = kda_begin(b, s, w, in, il, n);
			y = kda_tail(b, s, w, il, n, y);
		} else {
			gb_attn_begin(b, s, w, in, il, n, &at);
			y = gb_attn_end(b, s, w, in, il, &at);
		}
		if (il + 1 == w->n_layer) {
			y = out_rows(b, s, in, y);
			x = out_rows(b, s, in, x);
		}
		x = add(b, s, y, x);
		n = gb_norm(b, w, il, "ffn_norm", x, r);
		x = add(b, s, gb_ffn(b, s, w, il, n), x);
	}
	return x;
}
