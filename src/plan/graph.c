/*
 * graph.c - llama.cpp's graph of one worst-case ubatch, tensor by tensor
 * in the order ggml builds it, scheduled and placed as ggml does it
 * (sched.c, vkorder.c, galloc.c): the compute buffers as llama.cpp
 * reserves them, not a model of them. Built so far for llama's graph
 * (RMS norms, separate Q, K and V, a gated FFN) and the architectures
 * that differ from it only as gb_archs says (qwen2, qwen3, olmo2,
 * starcoder2, gemma, gpt2: Q's and K's own norms, norms after the
 * attention and the FFN, layer norms, a GELU MLP, the embeddings and Q
 * scaled, learned positions for RoPE), with every bias the file has,
 * a fused QKV product where the file has one (Q, K and V strided views
 * of it), an f16
 * or a q8_0 cache (the q8_0 one rotated: gb_rotate) in any number of
 * streams, with and without flash attention, on
 * the CPU backend alone or beside a Vulkan device with any number of
 * layers offloaded. Anything else is not built (plan_graph_compute
 * returns false) and keeps the model of plan-llama.c and plan-gpu.c; so
 * is a file with a tensor the graph does not read, or without one it
 * does.
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

/* How an architecture's graph differs from llama's (llama.cpp's
 * src/models/ARCH.cpp). Biases are added wherever the file has them. */
enum gb_norm_kind {
	GB_RMS,
	GB_LAYER
};
enum gb_qk_norm {
	GB_QK_NONE,
	GB_QK_HEAD, /* Q's and K's own norms, per head (after the reshape) */
	GB_QK_ROW,  /* over the whole row, before the reshape */
};
enum gb_ffn_kind {
	GB_GATED, /* SwiGLU, GeGLU: one GLU node */
	GB_GELU
};
enum gb_scale {
	GB_SCALE_EMBD = 1, /* the embeddings scaled (by sqrt(n_embd)) */
	GB_SCALE_Q = 2,	   /* Q scaled after its RoPE, the attention not */
};
enum gb_pos {
	GB_ROPE,   /* Q and K roped */
	GB_LEARNED /* position embeddings added to the input, no RoPE */
};

struct gb_arch {
	const char *name;
	uint8_t norm;	 /* enum gb_norm_kind */
	uint8_t qk_norm; /* enum gb_qk_norm */
	uint8_t ffn;	 /* enum gb_ffn_kind: gated or up, GELU, down */
	bool post_norms; /* norms after attention and FFN, none before */
	uint8_t scale;	 /* enum gb_scale, or'ed */
	uint8_t pos;	 /* enum gb_pos */
};

static const struct gb_arch gb_archs[] = {
	{ "llama", GB_RMS, GB_QK_NONE, GB_GATED, false, 0, GB_ROPE },
	{ "qwen2", GB_RMS, GB_QK_NONE, GB_GATED, false, 0, GB_ROPE },
	{ "qwen3", GB_RMS, GB_QK_HEAD, GB_GATED, false, 0, GB_ROPE },
	{ "olmo2", GB_RMS, GB_QK_ROW, GB_GATED, true, 0, GB_ROPE },
	{ "starcoder2", GB_LAYER, GB_QK_NONE, GB_GELU, false, 0, GB_ROPE },
	{ "gemma", GB_RMS, GB_QK_NONE, GB_GATED, false,
	    GB_SCALE_EMBD | GB_SCALE_Q, GB_ROPE },
	{ "gpt2", GB_LAYER, GB_QK_NONE, GB_GELU, false, 0, GB_LEARNED },
};

#define N_GB_ARCHS (sizeof gb_archs / sizeof gb_archs[0])

struct shape {
	uint64_t e, q, kv, hd, ff, t, ts, s, cells;
	uint64_t kc, vc;     /* a layer's K and V cache, in bytes */
	uint64_t krot, vrot; /* the rotations' widths, 0 without */
	bool fa;
};

struct inputs {
	int32_t pos, krot, vrot, kidx, vidx, mask, out;
};

/* The model's weights, where -ngl puts them, and which the graph read:
 * a graph that leaves one of the file's tensors unread, or reads one the
 * file lacks, is not the file's. */
struct weights {
	const struct gguf_file *f;
	const struct gb_arch *a;
	uint32_t n_layer, dev_from; /* layers from dev_from on the device */
	bool output_dev;	    /* the output layer on the device */
	bool *seen;		    /* per tensor of the file */
	size_t n_seen;
	bool missing;
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

/* A node of op over t rows (its batch for the offload rule). */
static int32_t
gb_op(struct sc_graph *b, uint8_t op, uint64_t bytes, uint64_t layout,
    uint8_t flags, uint64_t t, int32_t s0, int32_t s1)
{
	int32_t i = gb_add(b, op, bytes, layout, flags, s0, s1, GA_NONE);

	if (i != GA_NONE)
		b->t[i].batch = op == SC_GET_ROWS ? 0 : (int64_t)t;
	return i;
}

/* The bytes of tensor i, 0 for none (a graph that did not fit). */
static uint64_t
gb_bytes(const struct sc_graph *b, int32_t i)
{
	return i != GA_NONE ? b->t[i].bytes : 0;
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

/* The file's tensor blk.il.name (il < 0: name alone), marked read; its
 * bytes, or false when the file has none. */
static bool
gb_find(struct weights *w, int64_t il, const char *name, uint64_t *bytes)
{
	char full[96];
	size_t i;

	if (il >= 0)
		snprintf(full, sizeof full, "blk.%lld.%s", (long long)il, name);
	else
		snprintf(full, sizeof full, "%s", name);
	for (i = 0; w->f != NULL && i < w->f->tensors_n; i++)
		if (gguf_str_eq(w->f->tensors[i].name, full)) {
			if (!w->seen[i])
				w->n_seen++;
			w->seen[i] = true;
			*bytes = w->f->tensors[i].nbytes;
			return true;
		}
	return false;
}

/* Layer il's weight (il < 0: outside the layers) as a leaf where -ngl
 * puts it; without an output weight, the embeddings' copy llama.cpp
 * makes for it. GA_NONE when the file lacks it and optional. */
static int32_t
gb_tensor(struct sc_graph *b, struct weights *w, int64_t il, const char *name,
    bool optional)
{
	uint64_t bytes = 0;
	bool dev;

	if (!gb_find(w, il, name, &bytes) &&
	    (strcmp(name, "output.weight") != 0 ||
		!gb_find(w, -1, "token_embd.weight", &bytes))) {
		if (optional)
			return GA_NONE;
		w->missing = true;
	}
	/* the input layer's tensors stay on the host */
	dev = il >= 0 ? (uint64_t)il >= w->dev_from :
			strcmp(name, "token_embd.weight") != 0 &&
		strcmp(name, "position_embd.weight") != 0 && w->output_dev;
	return gb_leaf(b, dev ? SC_WEIGHT_DEV : SC_WEIGHT_HOST, bytes);
}

static int32_t
gb_weight(struct sc_graph *b, struct weights *w, int64_t il, const char *name)
{
	return gb_tensor(b, w, il, name, false);
}

/* f32 [a, b] contiguous */
#define F32(a, b) smul(smul(4, (a)), (b))
#define L32(a, b) lay(4, (a), (b), 1, 1, 0)

/* What a row-wise node over x makes: its bytes, layout and rows. */
struct rows {
	uint64_t bytes, layout, n;
};

static struct rows
rows2(uint64_t width, uint64_t t)
{
	struct rows r = { F32(width, t), L32(width, t), t };

	return r;
}

/* x plus layer il's bias base.bias, where the file has one. */
static int32_t
gb_bias(struct sc_graph *b, struct weights *w, int64_t il, const char *base,
    int32_t x, struct rows r)
{
	char name[48];
	int32_t bias;

	snprintf(name, sizeof name, "%s.bias", base);
	bias = gb_tensor(b, w, il, name, true);
	if (bias == GA_NONE)
		return x;
	return gb_op(b, SC_ADD, r.bytes, r.layout, GA_INPLACE, r.n, x, bias);
}

/* x normed by layer il's norm base (its weight, and its bias where the
 * file has one): RMS or layer norm, as the architecture's. */
static int32_t
gb_norm(struct sc_graph *b, struct weights *w, int64_t il, const char *base,
    int32_t x, struct rows r)
{
	char name[48];
	bool rms = w->a->norm == GB_RMS;
	int32_t n;

	/* ggml_op_can_inplace: RMS_NORM may, NORM may not */
	n = gb_op(b, rms ? SC_RMS_NORM : SC_NORM, r.bytes, r.layout,
	    rms ? GA_INPLACE : 0, r.n, x, GA_NONE);
	snprintf(name, sizeof name, "%s.weight", base);
	n = gb_op(b, SC_MUL, r.bytes, r.layout, GA_INPLACE, r.n, n,
	    gb_weight(b, w, il, name));
	return gb_bias(b, w, il, base, n, r);
}

/* A weight's product with x: [rows, t]. */
static int32_t
gb_mm(struct sc_graph *b, const struct shape *s, int32_t w, int32_t x,
    uint64_t rows)
{
	return gb_op(b, SC_MUL_MAT, F32(rows, s->t), L32(rows, s->t), 0, s->t,
	    w, x);
}

/* The weight name.weight's product with x and its bias: [rows, t]. */
static int32_t
gb_linear(struct sc_graph *b, const struct shape *s, struct weights *w,
    int64_t il, const char *base, int32_t x, uint64_t rows)
{
	char name[48];

	snprintf(name, sizeof name, "%s.weight", base);
	x = gb_mm(b, s, gb_weight(b, w, il, name), x, rows);
	return gb_bias(b, w, il, base, x, rows2(rows, s->t));
}
/* The rows of cur into cache c at idxs: the cache merged across its
 * streams first (a reshape) when it has several. */
static void
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

	if (contig || s->t == 0)
		return F32(width, s->t);
	return smul(4, width + smul(s->t - 1, row));
}

/* K's and V's rows into the layer's cache (kc, vc), FA's layout or the
 * transposed V without (one element a row: V and the cache reshaped; V
 * copied first when it is a strided view). kcontig, vcontig: whether K
 * and V are contiguous. */
static void
gb_cache_writes(struct sc_graph *b, const struct shape *s,
    const struct inputs *in, int32_t kr, bool kcontig, int32_t vr, bool vcontig,
    int32_t kc, int32_t vc)
{
	uint64_t kvb = F32(s->kv, s->t);

	gb_set_rows(b, s,
	    gb_view(b, SC_VIEW, kr, head_bytes(s, s->kv, kcontig)), in->kidx,
	    kc, true);
	if (s->fa) {
		gb_set_rows(b, s,
		    gb_view(b, SC_VIEW, vr, head_bytes(s, s->kv, vcontig)),
		    in->vidx, vc, true);
		return;
	}
	vr = vcontig ?
	    gb_view(b, SC_RESHAPE, vr, kvb) :
	    gb_op(b, SC_CONT, kvb, L32(s->kv, s->t), 0, s->t, vr, GA_NONE);
	vr = gb_view(b, SC_RESHAPE, vr, kvb);
	gb_set_rows(b, s, vr, in->vidx,
	    gb_view(b, SC_RESHAPE, vc, gb_bytes(b, vc)), false);
}

/* The attention over the cache once written: its output, before the
 * output projection. */
static int32_t
gb_attend(struct sc_graph *b, const struct shape *s, const struct inputs *in,
    int32_t qr, int32_t kc, int32_t vc)
{
	uint64_t nh = s->q / s->hd, kb = gb_bytes(b, kc), vb = gb_bytes(b, vc);
	uint64_t qb = gb_bytes(b, qr); /* Q may be a strided view */
	int32_t q, k, v, kq, kv;

	if (s->fa) {
		q = gb_view(b, SC_PERMUTE, gb_view(b, SC_VIEW, qr, qb), qb);
		k = gb_view(b, SC_PERMUTE, gb_view(b, SC_VIEW, kc, kb), kb);
		v = gb_view(b, SC_PERMUTE, gb_view(b, SC_VIEW, vc, vb), vb);
		kv = gb_add(b, SC_FLASH_ATTN, F32(s->q, s->t),
		    lay(4, s->hd, nh, s->ts, s->s, 0), 0, q, k, v);
		if (kv != GA_NONE)
			b->t[kv].src[3] = in->mask;
		return gb_view(b, SC_RESHAPE, kv, F32(s->q, s->t));
	}
	v = gb_view(b, SC_PERMUTE, gb_view(b, SC_VIEW, vc, vb), vb);
	k = gb_view(b, SC_PERMUTE, gb_view(b, SC_VIEW, kc, kb), kb);
	q = gb_view(b, SC_PERMUTE, gb_view(b, SC_VIEW, qr, qb), qb);
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

/* x (bytes of f32) rotated by the Hadamard matrix rot of width n, as
 * llama.cpp rotates what a quantized cache holds (llama_mul_mat_hadamard):
 * x reshaped to rows of n (copied so, when *contig says x is a strided
 * view), their product with rot, reshaped back. x itself when rot is
 * GA_NONE; *contig is then whether the result is contiguous. */
static int32_t
gb_rotate(struct sc_graph *b, int32_t x, int32_t rot, uint64_t n,
    uint64_t bytes, bool *contig)
{
	uint64_t rows = n != 0 ? bytes / 4 / n : 0;

	if (rot == GA_NONE)
		return x;
	x = *contig ?
	    gb_view(b, SC_RESHAPE, x, bytes) :
	    gb_op(b, SC_CONT, bytes, L32(n, rows), 0, rows, x, GA_NONE);
	x = gb_op(b, SC_MUL_MAT, bytes, L32(n, rows), 0, rows, rot, x);
	*contig = true;
	return gb_view(b, SC_RESHAPE, x, bytes);
}

/* Layer il's RoPE of x (width columns), with the model's frequency
 * factors where the file has them (llama.cpp's copy in every layer). */
static int32_t
gb_rope(struct sc_graph *b, const struct shape *s, struct weights *w,
    const struct inputs *in, int64_t il, int32_t x, uint64_t width)
{
	uint64_t bytes = 0;
	int32_t r, f = GA_NONE;

	if (gb_find(w, -1, "rope_freqs.weight", &bytes))
		f = gb_leaf(b,
		    (uint64_t)il >= w->dev_from ? SC_WEIGHT_DEV :
						  SC_WEIGHT_HOST,
		    bytes);
	r = gb_op(b, SC_ROPE, F32(width, s->t),
	    lay(4, s->hd, width / s->hd, s->t, 1, 0), GA_INPLACE, s->t, x,
	    in->pos);
	if (r != GA_NONE)
		b->t[r].src[2] = f;
	return r;
}

/* Q, K or V (name "q", "k", "v") of the normed input cur, width columns:
 * the product and its bias, reshaped to heads, or, from a fused product
 * qkv (GA_NONE: none), a strided view of it; Q's and K's own norms where
 * the architecture has them, their RoPE, and the rotations of a
 * quantized cache. *contig: whether the result is contiguous. */
static int32_t
gb_head(struct sc_graph *b, const struct shape *s, struct weights *w,
    const struct inputs *in, int64_t il, const char *name, int32_t cur,
    int32_t qkv, uint64_t width, bool *contig)
{
	char base[24];
	bool v = strcmp(name, "v") == 0;
	uint8_t qk = v ? GB_QK_NONE : w->a->qk_norm;
	struct rows heads = { F32(width, s->t),
		lay(4, s->hd, width / s->hd, s->t, 1, 0),
		smul(width / s->hd, s->t) };
	int32_t x;

	*contig = qkv == GA_NONE;
	if (qkv != GA_NONE && qk != GB_QK_NONE)
		w->missing = true; /* norms of a fused product: not built */
	if (qkv != GA_NONE)
		x = gb_view(b, SC_VIEW, qkv, head_bytes(s, width, false));
	else {
		snprintf(base, sizeof base, "attn_%s", name);
		x = gb_linear(b, s, w, il, base, cur, width);
		snprintf(base, sizeof base, "attn_%s_norm", name);
		if (qk == GB_QK_ROW)
			x = gb_norm(b, w, il, base, x, rows2(width, s->t));
		x = gb_view(b, SC_RESHAPE, x, F32(width, s->t));
		if (qk == GB_QK_HEAD)
			x = gb_norm(b, w, il, base, x, heads);
	}
	if (v)
		return gb_rotate(b, x, in->vrot, s->vrot, F32(width, s->t),
		    contig);
	if (w->a->pos == GB_ROPE) {
		x = gb_rope(b, s, w, in, il, x, width);
		*contig = true;
	}
	if (*name == 'q' && (w->a->scale & GB_SCALE_Q))
		x = gb_op(b, SC_SCALE, heads.bytes, heads.layout, GA_INPLACE,
		    s->t, x, GA_NONE);
	return gb_rotate(b, x, in->krot, s->krot, F32(width, s->t), contig);
}

/* The attention of layer il on cur (the normed input), through the output
 * projection and its bias. */
static int32_t
gb_attention(struct sc_graph *b, const struct shape *s, struct weights *w,
    const struct inputs *in, int64_t il, int32_t cur)
{
	uint8_t home = (uint64_t)il >= w->dev_from ? SC_CACHE_DEV :
						     SC_CACHE_HOST;
	uint64_t width = s->q + 2 * s->kv;
	int32_t q, v, k, kc, vc, qkv;
	bool qc, vcontig, kcontig, ac = true;

	/* a fused product (attn_qkv), viewed as Q, K and V */
	qkv = gb_tensor(b, w, il, "attn_qkv.weight", true);
	if (qkv != GA_NONE)
		qkv = gb_bias(b, w, il, "attn_qkv",
		    gb_mm(b, s, qkv, cur, width), rows2(width, s->t));
	q = gb_head(b, s, w, in, il, "q", cur, qkv, s->q, &qc);
	v = gb_head(b, s, w, in, il, "v", cur, qkv, s->kv, &vcontig);
	k = gb_head(b, s, w, in, il, "k", cur, qkv, s->kv, &kcontig);
	kc = gb_leaf(b, home, s->kc);
	vc = gb_leaf(b, home, s->vc);
	gb_cache_writes(b, s, in, k, kcontig, v, vcontig, kc, vc);
	return gb_linear(b, s, w, il, "attn_output",
	    gb_rotate(b, gb_attend(b, s, in, q, kc, vc), in->vrot, s->vrot,
		F32(s->q, s->t), &ac),
	    s->e);
}

/* The FFN of layer il on cur: gated (SwiGLU) or up, GELU, down. */
static int32_t
gb_ffn(struct sc_graph *b, const struct shape *s, struct weights *w, int64_t il,
    int32_t cur)
{
	int32_t g, u;

	if (w->a->ffn == GB_GELU) {
		u = gb_linear(b, s, w, il, "ffn_up", cur, s->ff);
		u = gb_op(b, SC_UNARY, F32(s->ff, s->t), L32(s->ff, s->t),
		    GA_INPLACE, s->t, u, GA_NONE);
	} else {
		g = gb_linear(b, s, w, il, "ffn_gate", cur, s->ff);
		u = gb_linear(b, s, w, il, "ffn_up", cur, s->ff);
		u = gb_op(b, SC_GLU, F32(s->ff, s->t), L32(s->ff, s->t), 0,
		    s->t, g, u);
	}
	return gb_linear(b, s, w, il, "ffn_down", u, s->e);
}

static int32_t
gb_layer(struct sc_graph *b, const struct shape *s, struct weights *w,
    const struct inputs *in, int64_t il, int32_t x)
{
	struct rows r = rows2(s->e, s->t);
	bool post = w->a->post_norms, last = (uint64_t)il + 1 == w->n_layer;
	int32_t a, ffn;

	a = gb_attention(b, s, w, in, il,
	    post ? x : gb_norm(b, w, il, "attn_norm", x, r));
	/* in the last layer the rows of the outputs: the attention's (and
	 * its norm, which ggml reaches first), then the residual's */
	if (last)
		a = gb_op(b, SC_GET_ROWS, r.bytes, r.layout, 0, s->t, a,
		    in->out);
	if (post)
		a = gb_norm(b, w, il, "post_attention_norm", a, r);
	if (last)
		x = gb_op(b, SC_GET_ROWS, r.bytes, r.layout, 0, s->t, x,
		    in->out);
	ffn = gb_op(b, SC_ADD, r.bytes, r.layout, GA_INPLACE, s->t, a, x);
	a = gb_ffn(b, s, w, il,
	    post ? ffn : gb_norm(b, w, il, "ffn_norm", ffn, r));
	if (post)
		a = gb_norm(b, w, il, "post_ffw_norm", a, r);
	return gb_op(b, SC_ADD, r.bytes, r.layout, GA_INPLACE, s->t, a, ffn);
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
	/* the rotations, read first by Q's and V's */
	in->krot = s->krot == 0 ? GA_NONE :
				  gb_input(b, F32(s->krot, s->krot),
				      lay(4, s->krot, s->krot, 1, 1, 4), 0);
	in->vrot = s->vrot == 0 ? GA_NONE :
				  gb_input(b, F32(s->vrot, s->vrot),
				      lay(4, s->vrot, s->vrot, 1, 1, 5), 0);
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

static const struct gb_arch *
arch_of(const char *name)
{
	size_t i;

	for (i = 0; i < N_GB_ARCHS; i++)
		if (strcmp(gb_archs[i].name, name) == 0)
			return &gb_archs[i];
	return NULL;
}

/* The cache types built: f16, and q8_0 with its rotations (the types
 * the oracle's tables hold); a quantized V only with flash attention,
 * as llama.cpp refuses it without. */
static bool
cache_known(const struct plan *pl)
{
	return (pl->kv_k == KV_F16 || pl->kv_k == KV_Q8_0) &&
	    (pl->kv_v == KV_F16 ||
		(pl->kv_v == KV_Q8_0 && pl->flash_attention));
}

/* The width of the rotation of a cache of type t with heads of hd
 * (llama_kv_cache's attn_rot_k and attn_rot_v): none for a type that is
 * not quantized or a head width that 64 does not divide; for K the
 * largest power of two that divides hd, for V 64. */
static uint64_t
rotation(enum kv_type t, uint64_t hd, bool k)
{
	uint64_t n = 64;

	if (!kv_type_info(t)->quantized || hd % 64 != 0)
		return 0;
	while (k && hd % (n * 2) == 0)
		n *= 2;
	return n;
}

/* Whether the graph above is llama.cpp's for this model and plan (as far
 * as the header tells: build() checks the tensors). */
static bool
graph_known(const struct planner *pn, const struct plan *pl)
{
	const struct model_geom *g = pn->g;
	uint32_t il;

	if (arch_of(g->arch) == NULL || g->memory != ARCH_MEM_KV || g->swa ||
	    g->mla || (pl->n_dev != 1 && !on_vulkan(pl)) || !cache_known(pl) ||
	    g->n_layer == 0 || g->n_layer > ARCH_MAX_LAYERS ||
	    g->n_head[0] == 0 || g->head_k != g->head_v || pl->n_stream == 0 ||
	    pl->n_ubatch % pl->n_stream != 0 || pl->n_fallback > 0 ||
	    pl->n_cpu_moe_tensors > 0)
		return false;
	for (il = 0; il < g->n_layer; il++)
		if (g->n_head[il] != g->n_head[0] ||
		    g->n_head_kv[il] != g->n_head_kv[0] ||
		    g->n_ff[il] != g->n_ff[0] || g->n_ff[il] == 0)
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
	s->kc = smul(smul(kv_row_bytes(pl->kv_k, s->kv), s->cells), s->s);
	s->vc = smul(smul(kv_row_bytes(pl->kv_v, s->kv), s->cells), s->s);
	s->krot = rotation(pl->kv_k, s->hd, true);
	s->vrot = rotation(pl->kv_v, s->hd, false);
	return true;
}

/* The graph; false when it is not the file's (a tensor left unread, or
 * one it needs missing). */
static bool
build(struct sc_graph *b, const struct planner *pn, const struct shape *s,
    struct weights *w)
{
	struct inputs in;
	int32_t x;
	uint32_t il;

	gb_inputs(b, s, &in, &x);
	x = gb_op(b, SC_GET_ROWS, F32(s->e, s->t), L32(s->e, s->t), 0, s->t,
	    gb_weight(b, w, -1, "token_embd.weight"), x);
	if (w->a->scale & GB_SCALE_EMBD)
		x = gb_op(b, SC_SCALE, F32(s->e, s->t), L32(s->e, s->t),
		    GA_INPLACE, s->t, x, GA_NONE);
	if (w->a->pos == GB_LEARNED)
		x = gb_op(b, SC_ADD, F32(s->e, s->t), L32(s->e, s->t),
		    GA_INPLACE, s->t, x,
		    gb_op(b, SC_GET_ROWS, F32(s->e, s->t), L32(s->e, s->t), 0,
			s->t, gb_weight(b, w, -1, "position_embd.weight"),
			in.pos));
	for (il = 0; il < pn->g->n_layer; il++)
		x = gb_layer(b, s, w, &in, il, x);
	x = gb_norm(b, w, -1, "output_norm", x, rows2(s->e, s->t));
	if (!b->full)
		b->t[b->n - 1].flags |= GA_OUTPUT; /* result_norm */
	gb_linear(b, s, w, -1, "output", x, pn->g->n_vocab);
	if (!b->full)
		b->t[b->n - 1].flags |= GA_OUTPUT; /* the logits */
	return !b->full && !w->missing && w->f != NULL &&
	    w->n_seen == w->f->tensors_n;
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

	if (!graph_known(pn, pl) || !shape_of(pn, pl, ub, &s) || pn->f == NULL)
		return false;
	dl = gpu ? plan_device_layers(g, pl->ngl) : 0;
	memset(&w, 0, sizeof w);
	w.f = pn->f;
	w.a = arch_of(g->arch);
	w.n_layer = g->n_layer;
	w.dev_from = (uint32_t)(g->n_layer - dl);
	w.output_dev = gpu && pl->ngl >= 1;
	/* per layer 80 tensors at most, their copies and the scheduler's */
	b.cap = 32 + (size_t)g->n_layer * 160;
	b.t = calloc(b.cap, sizeof *b.t);
	w.seen = calloc(pn->f->tensors_n + 1, sizeof *w.seen);
	ok = b.t != NULL && w.seen != NULL && build(&b, pn, &s, &w) &&
	    sc_place(&b, gpu, pl->max_tensor, GB_VULKAN_ALIGN, GB_CPU_ALIGN,
		dev, host);
	free(w.seen);
	free(b.t);
	return ok;
}
