/*
 * graph-mla.c - deepseek2's multi-head latent attention in llama.cpp's
 * graph (graph-impl.h), in its absorbed form (the file's attn_k_b and
 * attn_v_b): Q (through its LoRA, or one product), its un-roped part
 * times attn_k_b per head and its roped part, concatenated; the
 * compressed KV (normed) and its roped part as one K row a token, the
 * cache's only row (V is the first kv_lora_rank columns of K); the
 * attention over it, with flash attention or without (V then made
 * contiguous transposed), and the heads' V up-projection by attn_v_b.
 *
 * kimi-linear's MLA layers (src/models/kimi-linear.cpp) are the same
 * without RoPE, Q's views reading its product unreshaped.
 *
 * The order is llama.cpp's (v0.5.0, src/models/deepseek2.cpp and
 * build_attn_mha): Q's chain, K's, K's rows into the cache, then the
 * attention as build_attn expands it; the output projection is
 * gb_attn_end's. With DSA (deepseek32, glm-dsa: graph-dsa.c) the
 * indexer's key comes first, Q is not reshaped before its views, and
 * the attention's mask is the indexer's.
 */
#include "config.h"

#include "plan/graph-impl.h"

/* The RoPE of x [a0, a1, a2] (a strided view: a new tensor); x itself
 * where the row ropes nothing (kimi-linear's MLA). */
static int32_t
rope(struct sc_graph *b, const struct shape *s, const struct weights *w,
    struct inputs *in, int32_t x, uint64_t a0, uint64_t a1)
{
	const uint64_t a[4] = { a0, a1, s->t, 1 };

	if (w->a->pos == GB_NO_ROPE)
		return x;
	return gb_op4(b, SC_ROPE, a, GA_INPLACE, s->t, x, gb_in_pos(b, s, in));
}

/* Q [kvl + rope, heads, t]: the absorbed un-roped part, the roped one;
 * *qr its LoRA's normed product (GA_NONE without). */
static int32_t
mla_q(struct sc_graph *b, const struct shape *s, struct weights *w,
    struct inputs *in, int64_t il, int32_t cur, int32_t *qr)
{
	const struct gb_mla *m = &s->mla;
	uint64_t nh = s->q / s->hd, t = s->t, row = m->nope + m->rope;
	const uint64_t qa[4] = { m->kvl, t, nh, 1 };
	const uint64_t qc[4] = { m->kvl + m->rope, nh, t, 1 };
	int32_t q, n, p;

	*qr = GA_NONE;
	if (m->qlr != 0) {
		q = gb_linear(b, s, w, il, "attn_q_a", cur, m->qlr);
		q = gb_norm(b, w, il, "attn_q_a_norm", q, rows2(m->qlr, t));
		*qr = q;
		q = gb_linear(b, s, w, il, "attn_q_b", q, smul(nh, row));
	} else
		q = gb_linear(b, s, w, il, "attn_q", cur, smul(nh, row));
	/* deepseek2 reshapes Q first; DSA and kimi-linear's views read
	 * the product */
	if (s->dsa.hd == 0 && w->a->block != GB_KDA)
		q = gb_view(b, SC_RESHAPE, q, gb_bytes(b, q));
	n = gb_view(b, SC_VIEW, q, gb_span(m->nope, smul(nh, t), row));
	n = gb_view(b, SC_PERMUTE, n, gb_bytes(b, n));
	n = gb_op4(b, SC_MUL_MAT, qa, 0, t,
	    gb_weight(b, w, il, "attn_k_b.weight"), n);
	n = gb_view(b, SC_PERMUTE, n, gb_bytes(b, n));
	p = gb_view(b, SC_VIEW, q, gb_span(m->rope, smul(nh, t), row));
	p = rope(b, s, w, in, p, m->rope, nh);
	return gb_op4(b, SC_CONCAT, qc, 0, smul(nh, t), n, p);
}

/* K [kvl + rope, 1, t]: the compressed KV normed, its roped part. */
static int32_t
mla_k(struct sc_graph *b, const struct shape *s, struct weights *w,
    struct inputs *in, int64_t il, int32_t cur)
{
	const struct gb_mla *m = &s->mla;
	uint64_t t = s->t, row = m->kvl + m->rope;
	const uint64_t kc[4] = { row, 1, t, 1 };
	int32_t kv, c, p;

	kv = gb_linear(b, s, w, il, "attn_kv_a_mqa", cur, row);
	c = gb_view(b, SC_VIEW, kv, gb_span(m->kvl, t, row));
	c = gb_norm(b, w, il, "attn_kv_a_norm", c, rows2(m->kvl, t));
	c = gb_view(b, SC_RESHAPE, c, gb_bytes(b, c));
	p = gb_view(b, SC_VIEW, kv, gb_span(m->rope, t, row));
	p = rope(b, s, w, in, p, m->rope, 1);
	return gb_op4(b, SC_CONCAT, kc, 0, t, c, p);
}

/* The attention's mask: the cache's, or DSA's of the indexer's top k. */
static int32_t
mla_mask(struct sc_graph *b, const struct shape *s, struct inputs *in,
    struct weights *w, int64_t il, const struct gb_attn *at)
{
	if (s->dsa.hd != 0)
		return gb_dsa_mask(b, s, w, in, il, at);
	return gb_in_mask(b, s, in, at->c);
}

/* The attention of q over the K cache: [vdim * heads, t] (before the
 * output projection). */
static int32_t
mla_attend(struct sc_graph *b, const struct shape *s, struct inputs *in,
    struct weights *w, int64_t il, const struct gb_attn *at)
{
	const struct gb_mla *m = &s->mla;
	uint64_t nh = s->q / s->hd, cells = s->cache[at->c].cells;
	uint64_t kb = gb_bytes(b, at->kc), qb = gb_bytes(b, at->q);
	uint64_t vb = kb - m->vgap; /* ggml_nbytes of V's view */
	const uint64_t fa[4] = { m->kvl, nh, s->ts, s->s };
	const uint64_t kq[4] = { cells, s->ts, nh, s->s };
	const uint64_t kqv[4] = { m->kvl, s->ts, nh, s->s };
	const uint64_t up[4] = { m->vdim, s->ts, nh, s->s };
	const uint64_t o[4] = { m->vdim, nh, s->ts, s->s };
	int32_t q, k, v, x, mask;

	if (s->fa) {
		q = gb_view(b, SC_PERMUTE, gb_view(b, SC_VIEW, at->q, qb), qb);
		k = gb_view(b, SC_VIEW, at->kc, kb);
		v = gb_view(b, SC_PERMUTE, gb_view(b, SC_VIEW, k, vb), vb);
		k = gb_view(b, SC_PERMUTE, k, kb);
		mask = mla_mask(b, s, in, w, il, at);
		x = gb_add(b, SC_FLASH_ATTN, smul(F32(m->kvl, nh), s->t),
		    lay(4, fa[0], fa[1], fa[2], fa[3], 0), 0, q, k, v);
		if (x != GA_NONE) {
			struct gb_fa cf = { s->hd, m->kvl, nh, 1, cells,
				s->alibi, true };

			b->t[x].src[3] = mask;
			gb_cuda_fa(b, s, x, &cf);
		}
		x = gb_view(b, SC_PERMUTE, x, gb_bytes(b, x));
	} else {
		k = gb_view(b, SC_VIEW, at->kc, kb);
		v = gb_view(b, SC_PERMUTE, gb_view(b, SC_VIEW, k, vb), vb);
		v = gb_view(b, SC_TRANSPOSE, v, vb);
		/* V's contiguous copy keeps the cache's type (f16) */
		v = gb_op(b, SC_CONT, smul(smul(2, cells), smul(m->kvl, s->s)),
		    lay(2, cells, m->kvl, 1, s->s, 0), 0, smul(m->kvl, s->s), v,
		    GA_NONE);
		k = gb_view(b, SC_PERMUTE, k, kb);
		q = gb_view(b, SC_PERMUTE, gb_view(b, SC_VIEW, at->q, qb), qb);
		x = gb_op4(b, SC_MUL_MAT, kq, 0, s->ts, k, q);
		mask = mla_mask(b, s, in, w, il, at);
		x = gb_op4(b, SC_SOFT_MAX, kq, GA_INPLACE, s->t, x, mask);
		x = gb_op4(b, SC_MUL_MAT, kqv, 0, s->ts, v, x);
	}
	x = gb_op4(b, SC_MUL_MAT, up, 0, s->ts,
	    gb_weight(b, w, il, "attn_v_b.weight"), x);
	/* ggml-vulkan runs no product whose operands differ in ne[3]: with
	 * several streams attn_v_b's (one) against the streams' */
	if (x != GA_NONE && s->s > 1 && s->gpu == SC_GPU_VULKAN)
		b->t[x].host_only = true;
	x = gb_view(b, SC_PERMUTE, x, gb_bytes(b, x));
	if (!s->fa) /* made contiguous as the heads' rows */
		return gb_op(b, SC_CONT, F32(m->vdim * nh, s->t),
		    L32(m->vdim * nh, s->t), 0, s->t, x, GA_NONE);
	x = gb_op4(b, SC_CONT, o, 0, smul(nh, s->t), x, GA_NONE);
	return gb_view(b, SC_RESHAPE, x, gb_bytes(b, x));
}

void
gb_mla_begin(struct sc_graph *b, const struct shape *s, struct weights *w,
    struct inputs *in, int64_t il, int32_t cur, struct gb_attn *at)
{
	uint8_t home = (uint64_t)il >= w->dev_from ? SC_CACHE_DEV :
						     SC_CACHE_HOST;
	int32_t k;

	if (s->dsa.hd != 0 && w->g->indexer[il])
		gb_dsa_keys(b, s, w, in, il, cur);
	at->x = cur;
	at->q = mla_q(b, s, w, in, il, cur, &at->qr);
	k = mla_k(b, s, w, in, il, cur);
	at->kc = gb_leaf(b, home, s->cache[at->c].k_bytes);
	at->vc = GA_NONE;
	at->sinks = GA_NONE;
	k = gb_view(b, SC_VIEW, k, F32(s->mla.kvl + s->mla.rope, s->t));
	gb_set_rows(b, s, k, gb_in_idx(b, s, in, at->c, true), at->kc, true);
	at->o = mla_attend(b, s, in, w, il, at);
}
