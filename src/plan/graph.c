/*
 * graph.c - llama.cpp's graph of one worst-case ubatch, tensor by tensor
 * in the order ggml's scheduler runs it, placed by ggml-alloc's rules
 * (galloc.c): the compute buffer as llama.cpp reserves it, not a model
 * of it. Built so far for what the replays and the measured tables hold
 * exactly: llama's graph (RMS norms, separate Q, K and V without biases,
 * a gated FFN) on the CPU backend alone, with an f16 cache in any number
 * of streams, with and without flash attention. Anything else is not
 * built (plan_graph_compute returns false) and keeps the model of
 * plan-llama.c.
 *
 * The order is llama.cpp's (v0.5.0): per layer the norm, Q (roped), V, K
 * (roped), K's then V's rows into the cache (V transposed, one element a
 * row, without flash attention), the attention, the output projection
 * and the residual; in the last layer the output rows of the attention
 * and of the residual; then the FFN. The graph's inputs come first: the
 * tokens, the embeddings' input (a leaf no node reads, kept), positions,
 * K's and V's cell indices, the mask, the output ids.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "plan/galloc.h"
#include "plan/graph.h"
#include "plan/plan-impl.h"
#include "plan/plan-llama-impl.h"

#define GB_CPU_ALIGN 32 /* ggml-cpu's buffer alignment */
#define smul plan_smul

struct gb {
	struct ga_node *n;
	size_t len, cap;
	bool full;
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

/* Appends a node reading s0..s2 (GA_NONE: none); its index. */
static int32_t
gb_add(struct gb *b, uint64_t bytes, uint64_t layout, uint8_t flags, int32_t s0,
    int32_t s1, int32_t s2)
{
	struct ga_node *n;
	int k;

	if (b->len >= b->cap) {
		b->full = true;
		return GA_NONE;
	}
	n = &b->n[b->len];
	memset(n, 0, sizeof *n);
	n->bytes = bytes;
	n->layout = layout;
	n->flags = flags;
	n->view_of = GA_NONE;
	for (k = 0; k < GA_MAX_SRC; k++)
		n->src[k] = GA_NONE;
	n->src[0] = s0;
	n->src[1] = s1;
	n->src[2] = s2;
	return (int32_t)b->len++;
}

/* A view (reshape, permute) of node v: reads v, allocates nothing; its
 * bytes are those of v's base tensor, as a view's view_src in ggml. */
static int32_t
gb_view(struct gb *b, int32_t v)
{
	int32_t i = gb_add(b, 0, 0, GA_VIEW, v, GA_NONE, GA_NONE);

	if (i != GA_NONE && v != GA_NONE)
		b->n[i].view_of = (b->n[v].flags & GA_VIEW) ? b->n[v].view_of :
							      v;
	return i;
}

/* A cache write (SET_ROWS into the cache: another buffer's view). */
static void
gb_cache_write(struct gb *b, int32_t rows, int32_t idxs)
{
	if (gb_add(b, 0, 0, 0, rows, idxs, GA_NONE) != GA_NONE)
		b->n[b->len - 1].buffer = 1;
}

struct shape {
	uint64_t e, q, kv, hd, ff, t, ts, s, cells;
	bool fa;
};

struct inputs {
	int32_t pos, kidx, vidx, mask, out;
};

/* f32 [a, b] contiguous */
#define F32(a, b) smul(smul(4, (a)), (b))
#define L32(a, b) lay(4, (a), (b), 1, 1, 0)

static int32_t
gb_norm(struct gb *b, const struct shape *s, int32_t x)
{
	int32_t n = gb_add(b, F32(s->e, s->t), L32(s->e, s->t), 0, x, GA_NONE,
	    GA_NONE);

	return gb_add(b, F32(s->e, s->t), L32(s->e, s->t), GA_INPLACE, n,
	    GA_NONE, GA_NONE); /* times the norm's weight */
}

/* The attention of one layer on cur (the normed input): its output,
 * before the output projection. */
static int32_t
gb_attention(struct gb *b, const struct shape *s, const struct inputs *in,
    int32_t cur)
{
	uint64_t nh = s->q / s->hd, nkv = s->kv / s->hd;
	int32_t q, qr, v, vr, k, kr, kv, kq, o;

	q = gb_add(b, F32(s->q, s->t), L32(s->q, s->t), 0, cur, GA_NONE,
	    GA_NONE);
	qr = gb_view(b, q);
	qr = gb_add(b, F32(s->q, s->t), lay(4, s->hd, nh, s->t, 1, 0),
	    GA_INPLACE, qr, in->pos, GA_NONE);
	v = gb_add(b, F32(s->kv, s->t), L32(s->kv, s->t), 0, cur, GA_NONE,
	    GA_NONE);
	vr = gb_view(b, v);
	k = gb_add(b, F32(s->kv, s->t), L32(s->kv, s->t), 0, cur, GA_NONE,
	    GA_NONE);
	kr = gb_view(b, k);
	kr = gb_add(b, F32(s->kv, s->t), lay(4, s->hd, nkv, s->t, 1, 0),
	    GA_INPLACE, kr, in->pos, GA_NONE);
	gb_cache_write(b, gb_view(b, kr), in->kidx);
	vr = gb_view(b, vr); /* V's rows (one element a row without */
	if (!s->fa)	     /* flash attention: reshaped twice) */
		vr = gb_view(b, vr);
	gb_cache_write(b, vr, in->vidx);
	qr = gb_view(b, gb_view(b, qr)); /* Q per stream, permuted */
	if (s->fa) {
		o = gb_add(b, F32(s->q, s->t),
		    lay(4, s->hd, nh, s->ts, s->s, 0), 0, qr, in->mask,
		    GA_NONE);
		return gb_view(b, o);
	}
	kq = gb_add(b, smul(F32(s->cells, s->t), nh),
	    lay(4, s->cells, s->ts, nh, s->s, 0), 0, qr, GA_NONE, GA_NONE);
	kq = gb_add(b, smul(F32(s->cells, s->t), nh),
	    lay(4, s->cells, s->ts, nh, s->s, 0), GA_INPLACE, kq, in->mask,
	    GA_NONE); /* the softmax */
	kv = gb_add(b, F32(s->q, s->t), lay(4, s->hd, s->ts, nh, s->s, 0), 0,
	    kq, GA_NONE, GA_NONE);
	return gb_add(b, F32(s->q, s->t), L32(s->q, s->t), 0, gb_view(b, kv),
	    GA_NONE, GA_NONE); /* permuted back, made contiguous */
}

static int32_t
gb_layer(struct gb *b, const struct shape *s, const struct inputs *in,
    int32_t x, bool last)
{
	int32_t a, ffn, g, u, d;

	a = gb_attention(b, s, in, gb_norm(b, s, x));
	a = gb_add(b, F32(s->e, s->t), L32(s->e, s->t), 0, a, GA_NONE,
	    GA_NONE); /* the output projection */
	if (last) {   /* the rows of the outputs */
		a = gb_add(b, F32(s->e, s->t), L32(s->e, s->t), 0, a, in->out,
		    GA_NONE);
		x = gb_add(b, F32(s->e, s->t), L32(s->e, s->t), 0, x, in->out,
		    GA_NONE);
	}
	ffn = gb_add(b, F32(s->e, s->t), L32(s->e, s->t), GA_INPLACE, a, x,
	    GA_NONE);
	a = gb_norm(b, s, ffn);
	g = gb_add(b, F32(s->ff, s->t), L32(s->ff, s->t), 0, a, GA_NONE,
	    GA_NONE);
	u = gb_add(b, F32(s->ff, s->t), L32(s->ff, s->t), 0, a, GA_NONE,
	    GA_NONE);
	g = gb_add(b, F32(s->ff, s->t), L32(s->ff, s->t), 0, g, u, GA_NONE);
	d = gb_add(b, F32(s->e, s->t), L32(s->e, s->t), 0, g, GA_NONE, GA_NONE);
	return gb_add(b, F32(s->e, s->t), L32(s->e, s->t), GA_INPLACE, d, ffn,
	    GA_NONE);
}

static void
gb_inputs(struct gb *b, const struct shape *s, struct inputs *in,
    int32_t *tokens)
{
	uint64_t vrows = s->fa ? s->t : smul(s->t, s->kv);

	*tokens = gb_add(b, smul(4, s->t), lay(4, s->t, 1, 1, 1, 1), GA_INPUT,
	    GA_NONE, GA_NONE, GA_NONE);
	gb_add(b, F32(s->e, s->t), lay(4, s->e, s->t, 1, 1, 1),
	    GA_INPUT | GA_OUTPUT, GA_NONE, GA_NONE, GA_NONE);
	in->pos = gb_add(b, smul(4, s->t), lay(4, s->t, 1, 1, 1, 2), GA_INPUT,
	    GA_NONE, GA_NONE, GA_NONE);
	in->kidx = gb_add(b, smul(8, s->t), lay(8, s->t, 1, 1, 1, 1), GA_INPUT,
	    GA_NONE, GA_NONE, GA_NONE);
	in->vidx = gb_add(b, smul(8, vrows), lay(8, vrows, 1, 1, 1, 2),
	    GA_INPUT, GA_NONE, GA_NONE, GA_NONE);
	in->mask = gb_add(b, smul(smul(s->fa ? 2 : 4, s->cells), s->t),
	    lay(s->fa ? 2 : 4, s->cells, s->ts, 1, s->s, 1), GA_INPUT, GA_NONE,
	    GA_NONE, GA_NONE);
	in->out = gb_add(b, smul(4, s->t), lay(4, s->t, 1, 1, 1, 3), GA_INPUT,
	    GA_NONE, GA_NONE, GA_NONE);
}

/* Whether the graph above is llama.cpp's for this model and plan. */
static bool
graph_known(const struct planner *pn, const struct plan *pl)
{
	const struct model_geom *g = pn->g;
	uint32_t il;

	if (strcmp(g->arch, "llama") != 0 || g->memory != ARCH_MEM_KV ||
	    g->swa || g->mla || pl->n_dev != 1 || pl->kv_k != KV_F16 ||
	    pl->kv_v != KV_F16 || g->n_layer == 0 ||
	    g->n_layer > ARCH_MAX_LAYERS || g->n_head[0] == 0 ||
	    g->head_k != g->head_v || pl->n_stream == 0 ||
	    pl->n_ubatch % pl->n_stream != 0)
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

bool
plan_graph_compute(const struct planner *pn, const struct plan *pl, uint64_t ub,
    uint64_t *bytes)
{
	const struct model_geom *g = pn->g;
	struct shape s;
	struct inputs in;
	struct ga_graph gg;
	struct gb b = { NULL, 0, 0, false };
	int32_t x;
	uint32_t il;
	bool ok;

	if (!graph_known(pn, pl) || ub == 0 || ub % pl->n_stream != 0)
		return false;
	s.hd = plan_head_width(g, false);
	/* a hostile header: no head width, no KV head, no embedding */
	if (s.hd == 0 || g->n_head_kv[0] == 0 || g->n_embd == 0 ||
	    pl->ctx_seq == 0)
		return false;
	s.e = g->n_embd;
	s.q = smul(s.hd, g->n_head[0]);
	s.kv = smul(s.hd, g->n_head_kv[0]);
	s.ff = g->n_ff[0];
	s.t = ub;
	s.s = pl->n_stream;
	s.ts = ub / pl->n_stream;
	s.cells = pl->ctx_seq;
	s.fa = pl->flash_attention;
	b.cap = 16 + (size_t)g->n_layer * 40;
	b.n = calloc(b.cap, sizeof *b.n);
	if (b.n == NULL)
		return false;
	gb_inputs(&b, &s, &in, &x);
	x = gb_add(&b, F32(s.e, s.t), L32(s.e, s.t), 0, x, GA_NONE,
	    GA_NONE); /* the token embeddings' rows */
	for (il = 0; il < g->n_layer; il++)
		x = gb_layer(&b, &s, &in, x, il + 1 == g->n_layer);
	x = gb_norm(&b, &s, x);
	b.n[b.len - 1].flags |= GA_OUTPUT; /* result_norm */
	x = gb_add(&b, F32(g->n_vocab, s.t), L32(g->n_vocab, s.t), GA_OUTPUT, x,
	    GA_NONE, GA_NONE); /* the logits */
	memset(&gg, 0, sizeof gg);
	gg.nodes = b.n;
	gg.n = b.len;
	gg.align[0] = GB_CPU_ALIGN;
	gg.align[1] = 1;
	ok = !b.full && ga_place(&gg);
	if (ok)
		*bytes = gg.peak[0];
	free(b.n);
	return ok;
}
