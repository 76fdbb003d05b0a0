/*
 * graph-dsa.c - DSA's lightning indexer in llama.cpp's graph
 * (graph-impl.h): deepseek32's and glm-dsa's MLA (graph-mla.c) with a
 * second cache, the indexer's keys (one head a token, layer-normed,
 * roped and rotated by a Hadamard matrix), and a mask that lets each
 * token attend to the top k cells the indexer scores (its heads' rotated
 * queries of Q's LoRA, weighted by a product of the layer's input: the
 * fused LIGHTNING_INDEXER op), every other cell masked. A glm-dsa layer
 * without an indexer takes the last indexer's choice.
 *
 * The order is llama.cpp's (v0.5.0, src/models/deepseek32.cpp and
 * build_attn's DSA form): the indexer's key into its cache first (the
 * model code expands it before the attention), then MLA's Q, K and its
 * cache; the mask is first reached by the attention (the softmax, or
 * flash attention): ggml_set_rows's sources in their order (the zeros,
 * the top k, the filled mask), then the model's mask added.
 */
#include "config.h"

#include "plan/graph-impl.h"

void
gb_dsa_keys(struct sc_graph *b, const struct shape *s, struct weights *w,
    struct inputs *in, int64_t il, int32_t cur)
{
	const struct gb_dsa *d = &s->dsa;
	uint8_t home = (uint64_t)il >= w->dev_from ? SC_CACHE_DEV :
						     SC_CACHE_HOST;
	uint64_t t = s->t;
	struct rows r = rows2(d->hd, t);
	const uint64_t a[4] = { d->hd, 1, t, 1 };
	const uint64_t h[4] = { d->nrot, 1, t, 1 };
	int32_t k, c, rot;

	k = gb_linear(b, s, w, il, "indexer.attn_k", cur, d->hd);
	/* ggml_op_can_inplace: NORM may not */
	k = gb_op(b, SC_NORM, r.bytes, r.layout, 0, t, k, GA_NONE);
	k = gb_op(b, SC_MUL, r.bytes, r.layout, GA_INPLACE, t, k,
	    gb_weight(b, w, il, "indexer.k_norm.weight"));
	k = gb_bias(b, w, il, "indexer.k_norm", k, r);
	k = gb_view(b, SC_RESHAPE, k, r.bytes);
	k = gb_op4(b, SC_ROPE, a, GA_INPLACE, t, k, gb_in_pos(b, s, in));
	rot = gb_in_rot(b, s, in, GB_LID, true);
	k = gb_op4(b, SC_MUL_MAT, h, 0, t, rot, k);
	k = gb_view(b, SC_VIEW, k, F32(d->hd, t));
	c = gb_leaf(b, home, s->cache[GB_LID].k_bytes);
	gb_set_rows(b, s, k, gb_in_idx(b, s, in, GB_LID, true), c, true);
}

/* Layer il's indexer: the indices of the top k cells of each token
 * (ggml_top_k, made contiguous), from its heads' queries of qr, the
 * cached keys (c: the cache) and its weights of x. */
static int32_t
dsa_top(struct sc_graph *b, const struct shape *s, struct weights *w,
    struct inputs *in, int64_t il, const struct gb_attn *at, int32_t c)
{
	const struct gb_dsa *d = &s->dsa;
	uint64_t t = s->t, cells = s->cache[GB_LID].cells;
	const uint64_t qa[4] = { d->hd, d->nh, t, 1 };
	const uint64_t qh[4] = { d->nrot, d->nh, t, 1 };
	const uint64_t wa[4] = { d->nh, s->ts, 1, s->s };
	const uint64_t sc[4] = { cells, s->ts, 1, s->s };
	int32_t q, k, x, m, li;

	q = gb_linear(b, s, w, il, "indexer.attn_q_b", at->qr,
	    smul(d->nh, d->hd));
	q = gb_view(b, SC_RESHAPE, q, gb_bytes(b, q));
	q = gb_op4(b, SC_ROPE, qa, GA_INPLACE, t, q, gb_in_pos(b, s, in));
	q = gb_op4(b, SC_MUL_MAT, qh, 0, t, gb_in_rot(b, s, in, GB_LID, true),
	    q);
	q = gb_view(b, SC_VIEW, q, gb_bytes(b, q));
	k = gb_view(b, SC_VIEW, c, gb_bytes(b, c));
	x = gb_linear(b, s, w, il, "indexer.proj", at->x, d->nh);
	x = gb_view(b, SC_VIEW, x, gb_bytes(b, x));
	x = gb_op4(b, SC_SCALE, wa, GA_INPLACE, t, x, GA_NONE);
	m = gb_in_mask(b, s, in, GB_LID);
	li = gb_op4(b, SC_LID, sc, 0, t, q, k);
	if (li != GA_NONE) {
		b->t[li].src[2] = x;
		b->t[li].src[3] = m;
		b->t[li].host_only = !d->dev; /* gb_shape's dsa_of */
	}
	x = gb_op(b, SC_TOP_K, smul(smul(4, d->top), t),
	    lay(4, d->top, s->ts, 1, s->s, 0), 0, t, li, GA_NONE);
	return gb_op(b, SC_CONT, smul(smul(4, d->top), t),
	    lay(4, d->top, s->ts, 1, s->s, 0), 0, t, x, GA_NONE);
}

/* A layer without an indexer: its indexer's tensors, which llama.cpp
 * loads where the file has them, marked read (the graph never reads
 * them). */
static void
dsa_unread(struct weights *w, int64_t il)
{
	static const char *const names[] = { "indexer.k_norm.weight",
		"indexer.k_norm.bias", "indexer.proj.weight",
		"indexer.attn_k.weight", "indexer.attn_q_b.weight" };
	uint64_t bytes;
	size_t i;

	for (i = 0; i < sizeof names / sizeof names[0]; i++)
		gb_find(w, il, names[i], &bytes);
}

int32_t
gb_dsa_mask(struct sc_graph *b, const struct shape *s, struct weights *w,
    struct inputs *in, int64_t il, const struct gb_attn *at)
{
	uint64_t t = s->t, zb = smul(smul(4, s->dsa.top), t);
	uint64_t zl = lay(4, 1, s->dsa.top, s->ts, s->s, 0);
	int32_t z, top, m, f, set;

	/* the zeros (a leaf of the compute buffer), filled */
	z = gb_add(b, SC_NONE, zb, zl, 0, GA_NONE, GA_NONE, GA_NONE);
	z = gb_op(b, SC_FILL, zb, zl, GA_INPLACE, t, z, GA_NONE);
	if (w->g->indexer[il]) {
		uint8_t home = (uint64_t)il >= w->dev_from ? SC_CACHE_DEV :
							     SC_CACHE_HOST;

		in->dsa_top = dsa_top(b, s, w, in, il, at,
		    gb_leaf(b, home, s->cache[GB_LID].k_bytes));
	} else
		dsa_unread(w, il);
	if (in->dsa_top == GA_NONE) {
		w->missing = true; /* no indexer before: llama.cpp asserts */
		return GA_NONE;
	}
	top = gb_view(b, SC_VIEW, in->dsa_top, gb_bytes(b, in->dsa_top));
	m = gb_in_mask(b, s, in, at->c);
	if (m == GA_NONE)
		return GA_NONE;
	f = gb_op(b, SC_FILL, gb_bytes(b, m), b->t[m].layout, GA_INPLACE, t, m,
	    GA_NONE);
	f = gb_view(b, SC_VIEW, f, gb_bytes(b, f));
	set = gb_add(b, SC_SET_ROWS, gb_bytes(b, f), 0, 0, z, top, f);
	if (set != GA_NONE && f != GA_NONE)
		b->t[set].view_src = b->t[f].view_src;
	set = gb_view(b, SC_VIEW, set, gb_bytes(b, set));
	return gb_op(b, SC_ADD, gb_bytes(b, m), b->t[m].layout, GA_INPLACE, t,
	    set, m);
}
