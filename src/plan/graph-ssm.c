/*
 * graph-ssm.c - a recurrent layer in llama.cpp's graph (graph-impl.h):
 * Mamba's (build_mamba_layer), Mamba-2's (build_mamba2_layer) and lfm2's
 * short convolution (B times x convolved, times C; no scan). Mamba's
 * have two states in the layer's cache, the convolution's and the scan's
 * (lfm2's the first alone); build_rs reads them (the one cell to clear
 * zeroed in place, the sequences' rows taken, the other cells' copied:
 * none in a worst-case ubatch, a copy of zero rows) and the layer writes
 * them back.
 *
 * The order is llama.cpp's (v0.5.0), ggml's depth-first walk from each
 * node the layer expands: the convolution states' read (gb_ssm_head),
 * which comes before the layer's input (the previous layer's output is
 * reached only from here); then from the convolution states' write, the
 * norm, the in-projection and the convolution's input; the scan states'
 * read and, from the scan, the convolution and the scan's other inputs;
 * the scan states' write (gb_ssm_body). The gate, the group norm and the
 * out-projection come only where the next layer reaches the output
 * (gb_ssm_tail). The states are f32 whatever the KV cache's types.
 */
#include "config.h"

#include <string.h>

#include "plan/graph-impl.h"
#include "plan/llfacts-impl.h"

int32_t
gb_into(struct sc_graph *b, uint8_t op, int32_t view, int32_t s0, int32_t s1)
{
	int32_t i = gb_add(b, op, gb_bytes(b, view), 0, 0, s0, s1, GA_NONE);

	if (i != GA_NONE && view != GA_NONE)
		b->t[i].view_src = b->t[view].view_src != GA_NONE ?
		    b->t[view].view_src :
		    view;
	return i;
}

/* The states' copy indices (rs_s_copy, i32, a cell each) and their view
 * of the ubatch's sequences, made at their first reader. */
static int32_t
rs_main(struct sc_graph *b, const struct gb_ssm *m, struct inputs *in)
{
	if (in->rs_main == GB_UNSET) {
		in->rs = gb_input(b, smul(4, m->cells),
		    lay(4, m->cells, 1, 1, 1, 6), 0);
		in->rs_main = gb_view(b, SC_VIEW, in->rs, smul(4, m->ns));
	}
	return in->rs_main;
}

/* build_rs's start on layer il's cache of width-wide states: the states
 * (a reshape) and the cell to clear, zeroed in place. */
static int32_t
rs_states(struct sc_graph *b, const struct gb_ssm *m, int32_t cache,
    uint64_t width)
{
	int32_t st = gb_view(b, SC_RESHAPE, cache, F32(width, m->cells));
	int32_t z = gb_view(b, SC_VIEW, st, F32(width, 1));

	gb_into(b, SC_SCALE, z, z, GA_NONE);
	return st;
}

/* build_rs's end: the other cells' states copied (none: zero rows). */
static void
rs_extra(struct sc_graph *b, const struct gb_ssm *m, struct inputs *in,
    int32_t st, int32_t cache, uint64_t width)
{
	int32_t r, d;

	rs_main(b, m, in);
	if (in->rs_extra == GB_UNSET)
		in->rs_extra = gb_view(b, SC_VIEW, in->rs,
		    smul(4, m->cells - m->ns));
	r = gb_op(b, SC_GET_ROWS, F32(width, m->cells - m->ns),
	    lay(4, width, m->cells - m->ns, 1, 1, 0), 0, 0, st, in->rs_extra);
	d = gb_view(b, SC_VIEW, cache, F32(width, m->cells - m->ns));
	gb_into(b, SC_CPY, d, r, d);
}

/* One of layer il's two caches, on its layer's device. */
static int32_t
state_cache(struct sc_graph *b, const struct gb_ssm *m, const struct weights *w,
    int64_t il, uint64_t width)
{
	return gb_leaf(b,
	    (uint64_t)il >= w->dev_from ? SC_CACHE_DEV : SC_CACHE_HOST,
	    F32(width, m->cells));
}

void
gb_rs_write(struct sc_graph *b, const struct gb_ssm *m, int32_t out,
    int32_t cache)
{
	int32_t y = gb_view(b, SC_VIEW, out, F32(m->sw, m->ns));
	int32_t d = gb_view(b, SC_VIEW, cache, F32(m->sw, m->ns));

	gb_into(b, SC_CPY, d, y, d);
}

int32_t
gb_rs_read(struct sc_graph *b, const struct shape *s, struct weights *w,
    struct inputs *in, int64_t il, uint64_t width, int32_t *cache)
{
	const struct gb_ssm *m = &s->ssm;
	int32_t st, rows;

	*cache = state_cache(b, m, w, il, width);
	st = rs_states(b, m, *cache, width);
	rows = gb_op(b, SC_GET_ROWS, F32(width, m->ns),
	    lay(4, width, m->ns, 1, 1, 0), 0, 0, st, rs_main(b, m, in));
	rs_extra(b, m, in, st, *cache, width);
	return rows;
}

void
gb_ssm_head(struct sc_graph *b, const struct shape *s, struct weights *w,
    struct inputs *in, int64_t il, struct gb_mamba *mb)
{
	int32_t rows = gb_rs_read(b, s, w, in, il, s->ssm.rw, &mb->r);

	mb->conv = gb_view(b, SC_RESHAPE, rows, gb_bytes(b, rows));
}

int32_t
gb_conv_input(struct sc_graph *b, const struct gb_ssm *m, struct gb_mamba *mb,
    int32_t x)
{
	uint64_t cols = m->dc - 1 + m->tok;
	int32_t cx, d;

	x = gb_view(b, SC_TRANSPOSE, x, gb_bytes(b, x));
	cx = gb_op(b, SC_CONCAT, smul(F32(cols, m->xw), m->ns),
	    lay(4, cols, m->xw, m->ns, 1, 0), 0, smul(m->xw, m->ns), mb->conv,
	    x);
	x = gb_view(b, SC_VIEW, cx,
	    gb_span(m->dc - 1, smul(m->xw, m->ns), cols));
	d = gb_view(b, SC_VIEW, mb->r, F32(m->rw, m->ns));
	gb_into(b, SC_CPY, d, x, d);
	return cx;
}

/* The convolution of cx, its bias and SiLU: [xw, tok, ns]. */
static int32_t
conv(struct sc_graph *b, const struct gb_ssm *m, struct weights *w, int64_t il,
    int32_t cx)
{
	uint64_t t = smul(m->tok, m->ns);
	struct rows r = { F32(m->xw, t), lay(4, m->xw, m->tok, m->ns, 1, 0),
		t };
	int32_t c;

	c = gb_ssm_conv(b, m, r, m->xw, cx,
	    gb_weight(b, w, il, "ssm_conv1d.weight"));
	c = gb_bias(b, w, il, "ssm_conv1d", c, r);
	return gb_op(b, SC_UNARY, r.bytes, r.layout, GA_INPLACE, t, c, GA_NONE);
}

/* The scan over the states st4 (SSM_SCAN: y and the new states), not on
 * the device where it does not run the scan's form (plan_host_only). */
static int32_t
scan(struct sc_graph *b, const struct gb_ssm *m, struct weights *w,
    struct inputs *in, int64_t il, const int32_t src[6])
{
	uint64_t t = smul(m->tok, m->ns);
	uint64_t n = sadd(smul(t, m->di), smul(m->sw, m->ns));
	int32_t i;
	int k;

	i = gb_op(b, SC_SSM_SCAN, smul(4, n), lay(4, n, 1, 1, 1, 0), 0, 1,
	    src[0], src[1]);
	if (i == GA_NONE)
		return i;
	for (k = 2; k < 6; k++)
		b->t[i].src[k] = src[k];
	b->t[i].src[6] = rs_main(b, m, in);
	b->t[i].host_only = gb_host_only(w, il, "ssm_a");
	return i;
}

/* Mamba's scan inputs: x the convolution's output reshaped, dt from
 * x_db's first rank rows, B and C its next. */
static void
scan_inputs_v1(struct sc_graph *b, const struct gb_ssm *m, struct weights *w,
    int64_t il, int32_t c, int32_t src[6])
{
	uint64_t t = smul(m->tok, m->ns), xdw = m->rank + 2 * m->ds;
	int32_t xdb, dt;

	src[1] = gb_view(b, SC_RESHAPE, c, F32(m->di, t));
	xdb = gb_op(b, SC_MUL_MAT, F32(xdw, t),
	    lay(4, xdw, m->tok, m->ns, 1, 0), 0, m->tok,
	    gb_weight(b, w, il, "ssm_x.weight"), c);
	dt = gb_view(b, SC_VIEW, xdb, gb_span(m->rank, t, xdw));
	dt = gb_op(b, SC_CONT, F32(m->rank, t),
	    lay(4, m->rank, m->tok, m->ns, 1, 0), 0, t, dt, GA_NONE);
	dt = gb_op(b, SC_MUL_MAT, F32(m->di, t),
	    lay(4, m->di, m->tok, m->ns, 1, 0), 0, m->tok,
	    gb_weight(b, w, il, "ssm_dt.weight"), dt);
	src[2] = gb_bias(b, w, il, "ssm_dt", dt,
	    (struct rows){ F32(m->di, t), lay(4, m->di, m->tok, m->ns, 1, 0),
		t });
	src[3] = gb_weight(b, w, il, "ssm_a");
	src[4] = gb_view(b, SC_VIEW, xdb, gb_span(m->ds, t, xdw));
	src[5] = gb_view(b, SC_VIEW, xdb, gb_span(m->ds, t, xdw));
}

/* Mamba-2's: x, B and C views of the convolution's output, dt the
 * in-projection's last heads, made contiguous, and its bias. */
static void
scan_inputs_v2(struct sc_graph *b, const struct gb_ssm *m, struct weights *w,
    int64_t il, const struct gb_mamba *mb, int32_t c, int32_t src[6])
{
	uint64_t t = smul(m->tok, m->ns);
	int32_t dt;

	src[1] = gb_view(b, SC_VIEW, c, gb_span(m->di, t, m->xw));
	dt = gb_view(b, SC_VIEW, mb->proj, gb_span(m->nh, t, m->din));
	dt = gb_op(b, SC_CONT, F32(m->nh, t),
	    lay(4, m->nh, m->tok, m->ns, 1, 0), 0, t, dt, GA_NONE);
	src[2] = gb_bias(b, w, il, "ssm_dt", dt,
	    (struct rows){ F32(m->nh, t), lay(4, m->nh, m->tok, m->ns, 1, 0),
		t });
	src[3] = gb_weight(b, w, il, "ssm_a");
	src[4] = gb_view(b, SC_VIEW, c, gb_span(m->ng * m->ds, t, m->xw));
	src[5] = gb_view(b, SC_VIEW, c, gb_span(m->ng * m->ds, t, m->xw));
}

/* lfm2's short convolution up to its states' write: the in-projection
 * of the normed input (B, C and x: three views), B times x transposed
 * after the states, the last columns written back. */
static void
shortconv_body(struct sc_graph *b, const struct shape *s, struct weights *w,
    int64_t il, int32_t n, struct gb_mamba *mb)
{
	const struct gb_ssm *m = &s->ssm;
	uint64_t t = smul(m->tok, m->ns), l = lay(4, s->e, m->tok, m->ns, 1, 0);
	int32_t bv, xv, bx;

	n = gb_view(b, SC_RESHAPE, n, gb_bytes(b, n));
	mb->proj = gb_op(b, SC_MUL_MAT, F32(m->din, t),
	    lay(4, m->din, m->tok, m->ns, 1, 0), 0, m->tok,
	    gb_weight(b, w, il, "shortconv.in_proj.weight"), n);
	bv = gb_view(b, SC_VIEW, mb->proj, gb_span(s->e, t, m->din));
	xv = gb_view(b, SC_VIEW, mb->proj, gb_span(s->e, t, m->din));
	bx = gb_op(b, SC_MUL, F32(s->e, t), l, GA_INPLACE, t, bv, xv);
	mb->cx = gb_conv_input(b, m, mb, bx);
}

void
gb_ssm_body(struct sc_graph *b, const struct shape *s, struct weights *w,
    struct inputs *in, int64_t il, int32_t x, struct gb_mamba *mb)
{
	const struct gb_ssm *m = &s->ssm;
	uint64_t t = smul(m->tok, m->ns);
	int32_t n, cx, sc, st, src[6];

	n = gb_norm(b, w, il, "attn_norm", x, rows2(s->e, t));
	if (m->shortconv) {
		shortconv_body(b, s, w, il, n, mb);
		return;
	}
	if (m->v2) { /* the product kept 2-D, then split by sequence */
		n = gb_mm(b, s, gb_weight(b, w, il, "ssm_in.weight"), n,
		    m->din);
		mb->proj = gb_view(b, SC_RESHAPE, n, gb_bytes(b, n));
	} else {
		n = gb_view(b, SC_RESHAPE, n, gb_bytes(b, n));
		mb->proj = gb_op(b, SC_MUL_MAT, F32(m->din, t),
		    lay(4, m->din, m->tok, m->ns, 1, 0), 0, m->tok,
		    gb_weight(b, w, il, "ssm_in.weight"), n);
	}
	cx = gb_conv_input(b, m, mb,
	    gb_view(b, SC_VIEW, mb->proj,
		gb_span(m->xw, smul(m->ns, m->tok), m->din)));
	sc = state_cache(b, m, w, il, m->sw);
	st = rs_states(b, m, sc, m->sw);
	src[0] = gb_view(b, SC_RESHAPE, st, gb_bytes(b, st));
	n = conv(b, m, w, il, cx);
	if (m->v2)
		scan_inputs_v2(b, m, w, il, mb, n, src);
	else
		scan_inputs_v1(b, m, w, il, n, src);
	mb->x = m->v2 ? src[1] : n;
	mb->scan = scan(b, m, w, in, il, src);
	rs_extra(b, m, in, st, sc, m->sw);
	gb_rs_write(b, m, mb->scan, sc);
}

/* lfm2's short convolution from its input: C times the convolution,
 * the out-projection. */
static int32_t
shortconv_tail(struct sc_graph *b, const struct shape *s, struct weights *w,
    int64_t il, const struct gb_mamba *mb)
{
	const struct gb_ssm *m = &s->ssm;
	uint64_t t = smul(m->tok, m->ns), l = lay(4, s->e, m->tok, m->ns, 1, 0);
	int32_t c, y;

	c = gb_view(b, SC_VIEW, mb->proj, gb_span(s->e, t, m->din));
	y = gb_ssm_conv(b, m, (struct rows){ F32(s->e, t), l, t }, s->e, mb->cx,
	    gb_weight(b, w, il, "shortconv.conv.weight"));
	y = gb_op(b, SC_MUL, F32(s->e, t), l, GA_INPLACE, t, c, y);
	y = gb_op(b, SC_MUL_MAT, F32(s->e, t), l, 0, m->tok,
	    gb_weight(b, w, il, "shortconv.out_proj.weight"), y);
	return gb_view(b, SC_RESHAPE, y, F32(s->e, t));
}

int32_t
gb_ssm_tail(struct sc_graph *b, const struct shape *s, struct weights *w,
    int64_t il, const struct gb_mamba *mb)
{
	const struct gb_ssm *m = &s->ssm;
	uint64_t t = smul(m->tok, m->ns);
	uint64_t l = m->v2 ? lay(4, m->hd, m->nh, m->tok, m->ns, 0) :
			     lay(4, m->di, m->tok, m->ns, 1, 0);
	struct rows r = { F32(m->di, t), l, t };
	int32_t z, y, d;

	if (m->shortconv)
		return shortconv_tail(b, s, w, il, mb);
	z = gb_view(b, SC_VIEW, mb->proj, gb_span(m->di, t, m->din));
	z = gb_op(b, SC_CONT, r.bytes, l, 0, t, z, GA_NONE);
	y = gb_view_as(b, SC_VIEW, mb->scan, r.bytes, l);
	d = gb_op(b, SC_MUL, r.bytes, l, GA_INPLACE, t, mb->x,
	    gb_weight(b, w, il, "ssm_d"));
	y = gb_op(b, SC_ADD, r.bytes, l, GA_INPLACE, t, y, d);
	y = gb_op(b, SC_GLU, r.bytes, l, 0, t, z, y);
	if (m->v2 && gb_has(w, il, "ssm_norm.weight") && m->ng > 0) {
		y = gb_view(b, SC_RESHAPE, y, r.bytes);
		r.layout = lay(4, m->di / m->ng, m->ng, m->tok, m->ns, 0);
		y = gb_norm(b, w, il, "ssm_norm", y, r);
	}
	if (m->v2) {
		y = gb_view(b, SC_RESHAPE, y, r.bytes);
		return gb_mm(b, s, gb_weight(b, w, il, "ssm_out.weight"), y,
		    s->e);
	}
	y = gb_op(b, SC_MUL_MAT, F32(s->e, t),
	    lay(4, s->e, m->tok, m->ns, 1, 0), 0, m->tok,
	    gb_weight(b, w, il, "ssm_out.weight"), y);
	return gb_view(b, SC_RESHAPE, y, F32(s->e, t));
}
