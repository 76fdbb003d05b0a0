/*
 * graph-attn.c - a layer's attention in llama.cpp's graph (graph-impl.h):
 * Q, K and V (separate products, or strided views of a fused one), their
 * norms, RoPE and the rotations of a quantized cache; K's and V's rows
 * into the layer's cache, the base one or the sliding-window one; the
 * attention over the cache, with flash attention or without; and the
 * inputs all that reads, each made at its first reader.
 *
 * The order is llama.cpp's (v0.5.0): Q, then V, then K (K last so that
 * its RoPE can write into the cache), or Q, K, V with two caches
 * (build_attn's iswa form); K's then V's rows into the cache (V
 * transposed, one element a row, without flash attention); the views of
 * the cache and the attention (build_attn_mha expands it); its output
 * projection later, where the layer's output reaches it.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "facts/arch.h"
#include "plan/graph-impl.h"

void
gb_inputs_init(struct inputs *in)
{
	int c;

	in->pos = in->out = in->attn_scale = in->embd = GB_UNSET;
	in->rs = in->rs_main = in->rs_extra = GB_UNSET;
	in->dsa_top = GA_NONE;
	for (c = 0; c < GB_N_CACHES; c++)
		in->krot[c] = in->vrot[c] = in->kidx[c] = in->vidx[c] =
		    in->mask[c] = GB_UNSET;
}

/* The input in *slot, made now when it is not yet. */
static int32_t
gb_in(struct sc_graph *b, int32_t *slot, uint64_t bytes, uint64_t layout)
{
	if (*slot == GB_UNSET)
		*slot = gb_input(b, bytes, layout, 0);
	return *slot;
}

int32_t
gb_in_pos(struct sc_graph *b, const struct shape *s, struct inputs *in)
{
	uint64_t n = smul(s->n_pos, s->t);

	return gb_in(b, &in->pos, smul(4, n), lay(4, n, 1, 1, 1, 2));
}

int32_t
gb_in_out(struct sc_graph *b, const struct shape *s, struct inputs *in)
{
	return gb_in(b, &in->out, smul(4, s->t), lay(4, s->t, 1, 1, 1, 3));
}

/* The indexer's keys (GB_LID) are always rotated (its head's width). */
int32_t
gb_in_rot(struct sc_graph *b, const struct shape *s, struct inputs *in, int c,
    bool k)
{
	uint64_t n = c == GB_LID ? s->dsa.nrot : k ? s->krot : s->vrot;

	if (n == 0)
		return GA_NONE;
	return gb_in(b, k ? &in->krot[c] : &in->vrot[c], F32(n, n),
	    lay(4, n, n, 1, 1, k ? 4 : 5));
}

/* Cache c's cell indices of K (k) or of V (without flash attention V is
 * transposed: an index an element). */
int32_t
gb_in_idx(struct sc_graph *b, const struct shape *s, struct inputs *in, int c,
    bool k)
{
	uint64_t n = k || s->fa ? s->t : smul(s->t, s->kv_max);

	return gb_in(b, k ? &in->kidx[c] : &in->vidx[c], smul(8, n),
	    lay(8, n, 1, 1, 1, k ? 1 : 2));
}

/* Cache c's mask: f16 for flash attention, f32 without; the indexer's
 * (GB_LID) f16, for its fused op. */
int32_t
gb_in_mask(struct sc_graph *b, const struct shape *s, struct inputs *in, int c)
{
	uint64_t ts = s->fa || c == GB_LID ? 2 : 4, cells = s->cache[c].cells;

	return gb_in(b, &in->mask[c], smul(smul(ts, cells), s->t),
	    lay(ts, cells, s->ts, 1, s->s, 1));
}

/* The rows of cur into cache c at idxs: the cache merged across its
 * streams first (a reshape) when it has several. */
void
gb_set_rows(struct sc_graph *b, const struct shape *s, int32_t cur,
    int32_t idxs, int32_t c, bool merge)
{
	int32_t w;

	if (merge && s->s > 1)
		c = gb_view(b, SC_RESHAPE, c, gb_bytes(b, c));
	w = gb_add(b, SC_SET_ROWS, gb_bytes(b, c), 0, 0, cur, idxs, c);
	if (w != GA_NONE && c != GA_NONE)
		b->t[w].view_src = b->t[c].view_src != GA_NONE ?
		    b->t[c].view_src :
		    c;
}

/* The bytes of width columns of t rows: contiguous, or a strided view
 * of the fused product's rows (ggml_nbytes: what a copy of it takes). */
static uint64_t
head_bytes(const struct shape *s, uint64_t width, bool contig)
{
	uint64_t row = s->q + 2 * s->kv;

	return contig ? F32(width, s->t) : gb_span(width, s->t, row);
}

/* A head's tensor and whether it is contiguous; Q's whole product where
 * it holds the gate too (GB_Q_GATE), else GA_NONE. */
struct head {
	int32_t x;
	bool contig;
	int32_t full;
};

/* K's and V's rows into cache c's (at->kc, at->vc), FA's layout or the
 * transposed V without (one element a row: V and the cache reshaped; V
 * copied first when it is a strided view). */
static void
gb_cache_writes(struct sc_graph *b, const struct shape *s, struct inputs *in,
    const struct head *k, const struct head *v, const struct gb_attn *at)
{
	uint64_t kvb = F32(s->kv, s->t);
	int32_t x, idx;

	x = gb_view(b, SC_VIEW, k->x, head_bytes(s, s->kv, k->contig));
	idx = gb_in_idx(b, s, in, at->c, true);
	gb_set_rows(b, s, x, idx, at->kc, true);
	if (s->fa) {
		x = gb_view(b, SC_VIEW, v->x, head_bytes(s, s->kv, v->contig));
		idx = gb_in_idx(b, s, in, at->c, false);
		gb_set_rows(b, s, x, idx, at->vc, true);
		return;
	}
	x = v->contig ?
	    gb_view(b, SC_RESHAPE, v->x, kvb) :
	    gb_op(b, SC_CONT, kvb, L32(s->kv, s->t), 0, s->t, v->x, GA_NONE);
	if (s->kv_max > s->kv) { /* padded to the cache's rows */
		kvb = F32(s->kv_max, s->t);
		x = gb_op(b, SC_PAD, kvb, L32(s->kv_max, s->t), 0, s->t, x,
		    GA_NONE);
	}
	x = gb_view(b, SC_RESHAPE, x, kvb);
	idx = gb_in_idx(b, s, in, at->c, false);
	gb_set_rows(b, s, x, idx,
	    gb_view(b, SC_RESHAPE, at->vc, gb_bytes(b, at->vc)), false);
}

/* The attention over cache c once written: its output, before the
 * output projection. */
static int32_t
gb_attend(struct sc_graph *b, const struct shape *s, struct inputs *in,
    const struct gb_attn *at)
{
	uint64_t nh = s->q / s->hd, cells = s->cache[at->c].cells;
	uint64_t kb = gb_bytes(b, at->kc), vb = gb_bytes(b, at->vc);
	uint64_t qb = gb_bytes(b, at->q); /* Q may be a strided view */
	int32_t q, k, v, kq, kv, mask;

	if (s->fa) {
		q = gb_view(b, SC_PERMUTE, gb_view(b, SC_VIEW, at->q, qb), qb);
		k = gb_view(b, SC_PERMUTE, gb_view(b, SC_VIEW, at->kc, kb), kb);
		v = gb_view(b, SC_PERMUTE, gb_view(b, SC_VIEW, at->vc, vb), vb);
		mask = gb_in_mask(b, s, in, at->c);
		kv = gb_add(b, SC_FLASH_ATTN, F32(s->q, s->t),
		    lay(4, s->hd, nh, s->ts, s->s, 0), 0, q, k, v);
		if (kv != GA_NONE) {
			struct gb_fa fa = { s->hd, s->hd, nh, s->kv / s->hd,
				cells, s->alibi, false };

			b->t[kv].src[3] = mask;
			b->t[kv].src[4] = at->sinks;
			gb_cuda_fa(b, s, kv, &fa);
		}
		return gb_view(b, SC_RESHAPE, kv, F32(s->q, s->t));
	}
	v = gb_view(b, SC_PERMUTE, gb_view(b, SC_VIEW, at->vc, vb), vb);
	k = gb_view(b, SC_PERMUTE, gb_view(b, SC_VIEW, at->kc, kb), kb);
	q = gb_view(b, SC_PERMUTE, gb_view(b, SC_VIEW, at->q, qb), qb);
	kq = gb_op(b, SC_MUL_MAT, smul(F32(cells, s->t), nh),
	    lay(4, cells, s->ts, nh, s->s, 0), 0, s->ts, k, q);
	if (s->softcap)
		kq = gb_softcap(b, kq, s->t);
	mask = gb_in_mask(b, s, in, at->c);
	kq = gb_op(b, SC_SOFT_MAX, smul(F32(cells, s->t), nh),
	    lay(4, cells, s->ts, nh, s->s, 0), GA_INPLACE, s->t, kq, mask);
	if (kq != GA_NONE)
		b->t[kq].src[2] = at->sinks;
	kv = gb_op(b, SC_MUL_MAT, F32(s->q, s->t),
	    lay(4, s->hd, s->ts, nh, s->s, 0), 0, s->ts, v, kq);
	return gb_op(b, SC_CONT, F32(s->q, s->t), L32(s->q, s->t), 0, s->t,
	    gb_view(b, SC_PERMUTE, kv, F32(s->q, s->t)),
	    GA_NONE); /* permuted back, made contiguous */
}

/* h (bytes of f32) rotated by the Hadamard matrix rot of width n, as
 * llama.cpp rotates what a quantized cache holds (llama_mul_mat_hadamard):
 * reshaped to rows of n (copied so when h is a strided view), their
 * product with rot, reshaped back. Unchanged when rot is GA_NONE. */
static void
gb_rotate(struct sc_graph *b, struct head *h, int32_t rot, uint64_t n,
    uint64_t bytes)
{
	uint64_t rows = n != 0 ? bytes / 4 / n : 0;
	int32_t x;

	if (rot == GA_NONE)
		return;
	x = h->contig ?
	    gb_view(b, SC_RESHAPE, h->x, bytes) :
	    gb_op(b, SC_CONT, bytes, L32(n, rows), 0, rows, h->x, GA_NONE);
	x = gb_op(b, SC_MUL_MAT, bytes, L32(n, rows), 0, rows, rot, x);
	h->x = gb_view(b, SC_RESHAPE, x, bytes);
	h->contig = true;
}

/* Layer il's RoPE of x (width columns), with the model's frequency
 * factors where the file has them (llama.cpp's copy in every layer; an
 * ARCH_ROPE_FULL architecture's in its full-attention layers alone). */
static int32_t
gb_rope(struct sc_graph *b, const struct shape *s, struct weights *w,
    struct inputs *in, int64_t il, int32_t x, uint64_t width)
{
	uint64_t bytes = 0;
	int32_t r, f = GA_NONE, pos;
	bool full = !(arch_row(w->g)->quirks & ARCH_ROPE_FULL) ||
	    !(w->g->swa && w->g->is_swa[il]);
	bool dev = (uint64_t)il >= w->dev_from;

	if (full && gb_find(w, -1, "rope_freqs.weight", &bytes)) {
		if (w->rope_freqs[dev] == 0)
			w->rope_freqs[dev] = 1 +
			    gb_leaf(b, dev ? SC_WEIGHT_DEV : SC_WEIGHT_HOST,
				bytes);
		f = w->rope_freqs[dev] - 1;
	}
	pos = gb_in_pos(b, s, in);
	r = gb_op(b, SC_ROPE, F32(width, s->t),
	    lay(4, s->hd, width / s->hd, s->t, 1, 0), GA_INPLACE, s->t, x, pos);
	if (r != GA_NONE)
		b->t[r].src[2] = f;
	return r;
}

/* Whether layer il's Q and K are roped. */
static bool
roped(const struct shape *s, const struct weights *w, int64_t il)
{
	uint64_t step = w->g->swa ? 4 : w->n_layer;

	if (s->nope)
		return false;
	if (w->a->pos == GB_ROPE_SWA)
		return w->g->swa && w->g->is_swa[il];
	if (w->a->pos == GB_ROPE_NTH)
		return (uint64_t)(il + 1) % step != 0;
	if (w->a->pos == GB_ROPE_SKIP4)
		return (il + 1) % 4 != 0;
	if (w->a->pos == GB_ROPE_SWA_ALL)
		return !w->g->swa || w->g->is_swa[il];
	if (w->a->pos == GB_ROPE_32)
		return w->g->n_layer == 32;
	if (w->a->pos == GB_ROPE_LAYERS)
		return il >= ARCH_MAX_LAYERS || !s->nope_l[il];
	if (w->a->pos == GB_ROPE_SWA_LEAD)
		return (w->g->swa && w->g->is_swa[il]) ||
		    (uint64_t)il < s->lead;
	return w->a->pos == GB_ROPE || w->a->pos == GB_ROPE_SECTIONS;
}

/* llama4's Q or K after the RoPE (or, not roped, Q scaled by the
 * attention-temperature input): RMS-normed without a weight, in place,
 * unless the model has 128 experts. */
static void
gb_llama4_qk(struct sc_graph *b, const struct shape *s, struct inputs *in,
    struct head *h, bool q, bool rope, uint64_t width)
{
	struct rows r = { F32(width, s->t),
		lay(4, s->hd, width / s->hd, s->t, 1, 0), s->t };
	int32_t scale;

	if (!rope && q) {
		scale = gb_in(b, &in->attn_scale, smul(4, s->t),
		    lay(4, 1, 1, s->t, 1, 8));
		h->x = gb_op(b, SC_MUL, r.bytes, r.layout, GA_INPLACE, s->t,
		    h->x, scale);
	} else if (rope && s->n_exp != 128)
		h->x = gb_op(b, SC_RMS_NORM, r.bytes, r.layout, GA_INPLACE,
		    s->t, h->x, GA_NONE);
}

/* x (width columns) clamped where the model clamps Q, K and V (olmo's
 * attention.clamp_kqv): a new tensor ggml-alloc may place in x's bytes. */
static int32_t
gb_clamp(struct sc_graph *b, const struct shape *s, int32_t x, uint64_t width)
{
	if (!s->clamp)
		return x;
	return gb_op(b, SC_CLAMP, F32(width, s->t), L32(width, s->t),
	    GA_INPLACE, s->t, x, GA_NONE);
}

/* Q, K or V (name "q", "k", "v") of the normed input cur, width columns:
 * the product and its bias (clamped where the model clamps), reshaped to
 * heads, or, from a fused product qkv (GA_NONE: none), a strided view of
 * it; Q's and K's own norms where the architecture has them (before
 * their RoPE, or after it), their RoPE, Q times the attention
 * temperature where the model has one, and the rotations of a quantized
 * cache c. */
static struct head
gb_head(struct sc_graph *b, const struct shape *s, struct weights *w,
    struct inputs *in, int64_t il, const char *name, int32_t cur, int32_t qkv,
    uint64_t width, int c)
{
	char base[24];
	bool v = strcmp(name, "v") == 0;
	uint8_t qk = v ? GB_QK_NONE : w->a->qk_norm;
	char norm[24];
	struct rows heads = { F32(width, s->t),
		lay(4, s->hd, width / s->hd, s->t, 1, 0),
		smul(width / s->hd, s->t) };
	struct head h = { GA_NONE, qkv == GA_NONE, GA_NONE };
	bool gate = *name == 'q' && (w->a->extra & GB_Q_GATE);

	snprintf(norm, sizeof norm, "attn_%s_norm.weight", name);
	if (qk == GB_QK_HEAD_OPT)
		qk = gb_has(w, il, norm) ? GB_QK_HEAD : GB_QK_NONE;
	/* norms of a fused product: per head after its view alone */
	if (qkv != GA_NONE && qk != GB_QK_NONE && qk != GB_QK_HEAD)
		w->missing = true;
	if (qkv != GA_NONE) {
		h.x = gb_view(b, SC_VIEW, qkv, head_bytes(s, width, false));
		snprintf(base, sizeof base, "attn_%s_norm", name);
		if (qk == GB_QK_HEAD) { /* a new, contiguous tensor */
			h.x = gb_norm(b, w, il, base, h.x, heads);
			h.contig = true;
		}
	} else if (gate) { /* Q, every other head of the product */
		h.full = gb_linear(b, s, w, il, "attn_q", cur, smul(2, width));
		if (w->a->extra & GB_GDN_NEXT) /* reshaped first */
			h.full = gb_view(b, SC_RESHAPE, h.full,
			    gb_bytes(b, h.full));
		h.x = gb_view(b, SC_VIEW, h.full,
		    gb_span(s->hd, heads.n, smul(2, s->hd)));
		h.contig = false;
		snprintf(base, sizeof base, "attn_q_norm");
	} else {
		snprintf(base, sizeof base, "attn_%s", name);
		h.x = gb_clamp(b, s, gb_linear(b, s, w, il, base, cur, width),
		    width);
		snprintf(base, sizeof base, "attn_%s_norm", name);
		if (qk == GB_QK_ROW)
			h.x = gb_norm(b, w, il, base, h.x, rows2(width, s->t));
		h.x = gb_view(b, SC_RESHAPE, h.x, F32(width, s->t));
	}
	if (qkv == GA_NONE) {
		if (qk == GB_QK_HEAD && gate)
			h.contig = true;
		if (qk == GB_QK_HEAD)
			h.x = gb_norm(b, w, il, base, h.x, heads);
		if (v && (w->a->extra & GB_V_NORM))
			h.x = gb_op(b, SC_RMS_NORM, heads.bytes, heads.layout,
			    GA_INPLACE, s->t, h.x, GA_NONE);
	}
	if (!v && roped(s, w, il)) {
		h.x = gb_rope(b, s, w, in, il, h.x, width);
		h.contig = true;
	}
	if (qk == GB_QK_HEAD_LATE && qkv == GA_NONE)
		h.x = gb_norm(b, w, il, base, h.x, heads);
	if (*name == 'q' && s->attn_temp)
		h.x = gb_op(b, SC_MUL, heads.bytes, heads.layout, GA_INPLACE,
		    s->t, h.x,
		    gb_in(b, &in->attn_scale, smul(4, s->t),
			lay(4, 1, 1, s->t, 1, 8)));
	if (!v && w->a->pos == GB_ROPE_NTH)
		gb_llama4_qk(b, s, in, &h, *name == 'q', roped(s, w, il),
		    width);
	if (*name == 'q' && (w->a->scale & GB_SCALE_Q))
		h.x = gb_op(b, SC_SCALE, heads.bytes, heads.layout, GA_INPLACE,
		    s->t, h.x, GA_NONE);
	gb_rotate(b, &h, gb_in_rot(b, s, in, c, !v), v ? s->vrot : s->krot,
	    F32(width, s->t));
	return h;
}

/* The layer whose cache layer il reads: its own, or past the layers
 * with one (gemma3n's n_layer_kv) the last of its kind before them. */
static int64_t
cache_layer(const struct weights *w, int64_t il)
{
	uint32_t n = w->g->n_layer_kv;

	if (n < 2 || (uint64_t)il < n)
		return il;
	return (int64_t)n - (w->g->is_swa[il] ? 2 : 1);
}

void
gb_attn_begin(struct sc_graph *b, const struct shape *s, struct weights *w,
    struct inputs *in, int64_t il, int32_t cur, struct gb_attn *at)
{
	int64_t cl = cache_layer(w, il);
	uint8_t home = (uint64_t)cl >= w->dev_from ? SC_CACHE_DEV :
						     SC_CACHE_HOST;
	uint64_t width = s->q + 2 * s->kv;
	struct head k, v, q;
	int32_t qkv;

	at->c = s->iswa && w->g->is_swa[il] ? GB_SWA : GB_BASE;
	if (s->mla.kvl != 0) {
		gb_mla_begin(b, s, w, in, il, cur, at);
		return;
	}
	if (cl != il) { /* Q alone, over an earlier layer's cache */
		static const char *const unread[] = { "attn_k.weight",
			"attn_v.weight", "attn_k_norm.weight", "attn_k.bias",
			"attn_v.bias" };
		uint64_t bytes;
		size_t i;

		/* its own K and V: loaded, never read */
		for (i = 0; i < sizeof unread / sizeof unread[0]; i++)
			gb_find(w, il, unread[i], &bytes);
		at->q =
		    gb_head(b, s, w, in, il, "q", cur, GA_NONE, s->q, at->c).x;
		at->kc = gb_leaf(b, home, s->cache[at->c].k_bytes);
		at->vc = gb_leaf(b, home, s->cache[at->c].v_bytes);
		at->sinks = GA_NONE;
		at->o = gb_attend(b, s, in, at);
		return;
	}
	/* a fused product (attn_qkv), viewed as Q, K and V */
	qkv = gb_tensor(b, w, il, "attn_qkv.weight", true);
	if (qkv != GA_NONE)
		qkv = gb_clamp(b, s,
		    gb_bias(b, w, il, "attn_qkv", gb_mm(b, s, qkv, cur, width),
			rows2(width, s->t)),
		    width);
	q = gb_head(b, s, w, in, il, "q", cur, qkv, s->q, at->c);
	at->q = q.x;
	at->qg = q.full;
	if (s->iswa) {
		k = gb_head(b, s, w, in, il, "k", cur, qkv, s->kv, at->c);
		v = gb_head(b, s, w, in, il, "v", cur, qkv, s->kv, at->c);
	} else {
		v = gb_head(b, s, w, in, il, "v", cur, qkv, s->kv, at->c);
		k = gb_head(b, s, w, in, il, "k", cur, qkv, s->kv, at->c);
	}
	at->kc = gb_leaf(b, home, s->cache[at->c].k_bytes);
	at->vc = gb_leaf(b, home, s->cache[at->c].v_bytes);
	gb_cache_writes(b, s, in, &k, &v, at);
	at->sinks = gb_tensor(b, w, il, "attn_sinks.weight", true);
	at->o = gb_attend(b, s, in, at);
}

/* An encoder's attention over the ubatch itself (no cache): K and V
 * permuted, cast to f16 for flash attention; without it V transposed
 * and made contiguous, KQ, its softmax, KQV. */
static int32_t
gb_enc_attend(struct sc_graph *b, const struct shape *s, struct inputs *in,
    const struct gb_attn *at)
{
	uint64_t nh = s->q / s->hd, nkv = s->kv / s->hd, t = s->t;
	uint64_t kb = F32(s->kv, t), qb = gb_bytes(b, at->q);
	int32_t q, k, v, kq, kv, mask;

	if (s->fa) {
		q = gb_view(b, SC_PERMUTE, gb_view(b, SC_VIEW, at->q, qb), qb);
		k = gb_view(b, SC_PERMUTE, at->kc, kb);
		k = gb_op(b, SC_CPY, smul(2, s->kv * t),
		    lay(2, s->hd, t, nkv, 1, 0), 0, t, k, GA_NONE);
		v = gb_view(b, SC_PERMUTE, at->vc, kb);
		v = gb_op(b, SC_CPY, smul(2, s->kv * t),
		    lay(2, s->hd, t, nkv, 1, 0), 0, t, v, GA_NONE);
		mask = gb_in_mask(b, s, in, at->c);
		kv = gb_add(b, SC_FLASH_ATTN, F32(s->q, t),
		    lay(4, s->hd, nh, t, 1, 0), 0, q, k, v);
		if (kv != GA_NONE) {
			/* K and V are f16 copies, never padded */
			struct gb_fa fa = { s->hd, s->hd, nh, nkv, t, s->alibi,
				false };
			struct shape f16 = *s;

			f16.kt = f16.vt = KV_F16;
			b->t[kv].src[3] = mask;
			gb_cuda_fa(b, &f16, kv, &fa);
		}
		return gb_view(b, SC_RESHAPE, kv, F32(s->q, t));
	}
	v = gb_view(b, SC_PERMUTE, at->vc, kb);
	v = gb_view(b, SC_TRANSPOSE, v, kb);
	v = gb_op(b, SC_CONT, kb, lay(4, t, s->hd, nkv, 1, 0), 0, t, v,
	    GA_NONE);
	k = gb_view(b, SC_PERMUTE, at->kc, kb);
	q = gb_view(b, SC_PERMUTE, gb_view(b, SC_VIEW, at->q, qb), qb);
	kq = gb_op(b, SC_MUL_MAT, smul(F32(t, t), nh), lay(4, t, t, nh, 1, 0),
	    0, t, k, q);
	mask = gb_in_mask(b, s, in, at->c);
	kq = gb_op(b, SC_SOFT_MAX, smul(F32(t, t), nh), lay(4, t, t, nh, 1, 0),
	    GA_INPLACE, t, kq, mask);
	kv = gb_op(b, SC_MUL_MAT, F32(s->q, t), lay(4, s->hd, t, nh, 1, 0), 0,
	    t, v, kq);
	return gb_op(b, SC_CONT, F32(s->q, t), L32(s->q, t), 0, t,
	    gb_view(b, SC_PERMUTE, kv, F32(s->q, t)), GA_NONE);
}

void
gb_enc_attn_begin(struct sc_graph *b, const struct shape *s, struct weights *w,
    struct inputs *in, int64_t il, int32_t cur, struct gb_attn *at)
{
	int32_t qkv;

	/* a sliding-window layer's mask (no cache: the window is the
	 * mask's alone) */
	at->c = w->g->mask_swa && w->g->is_swa[il] ? GB_SWA : GB_BASE;
	at->sinks = GA_NONE;
	qkv = gb_tensor(b, w, il, "attn_qkv.weight", true);
	if (qkv != GA_NONE)
		qkv = gb_bias(b, w, il, "attn_qkv",
		    gb_mm(b, s, qkv, cur, s->q + 2 * s->kv),
		    rows2(s->q + 2 * s->kv, s->t));
	at->q = gb_head(b, s, w, in, il, "q", cur, qkv, s->q, at->c).x;
	at->kc = gb_head(b, s, w, in, il, "k", cur, qkv, s->kv, at->c).x;
	at->vc = gb_head(b, s, w, in, il, "v", cur, qkv, s->kv, at->c).x;
	at->o = gb_enc_attend(b, s, in, at);
}

int32_t
gb_attn_end(struct sc_graph *b, const struct shape *s, struct weights *w,
    struct inputs *in, int64_t il, const struct gb_attn *at)
{
	struct head o = { at->o, true, GA_NONE };
	struct rows r = rows2(s->q, s->t);
	int32_t g;

	gb_rotate(b, &o, gb_in_rot(b, s, in, at->c, false), s->vrot,
	    F32(s->q, s->t));
	if (w->a->extra & GB_Q_GATE) { /* times the gate's sigmoid */
		g = gb_view(b, SC_VIEW, at->qg,
		    gb_span(s->hd, smul(s->q / s->hd, s->t), smul(2, s->hd)));
		g = gb_op(b, SC_CONT, r.bytes, r.layout, 0, s->t, g, GA_NONE);
		g = gb_op(b, SC_UNARY, r.bytes, r.layout, GA_INPLACE, s->t, g,
		    GA_NONE);
		o.x = gb_op(b, SC_MUL, r.bytes, r.layout, GA_INPLACE, s->t, o.x,
		    g);
	}
	if (w->a->norms == GB_NORM_SUB)
		o.x = gb_norm(b, w, il, "attn_sub_norm", o.x, r);
	return gb_linear(b, s, w, il, "attn_output", o.x, s->e);
}
