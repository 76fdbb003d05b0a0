/*
 * graph.c - llama.cpp's graph of one worst-case ubatch, tensor by tensor
 * in the order ggml builds it, scheduled and placed as ggml does it
 * (sched.c, vkorder.c, galloc.c): the compute buffers as llama.cpp
 * reserves them, not a model of them. Built so far for llama's graph
 * (RMS norms, separate Q, K and V, a gated FFN) and the architectures
 * that differ from it only as gb_archs says (qwen2, qwen3, olmo2,
 * starcoder2, gemma, gemma2, gemma3, gpt2, cohere2, falcon, phi3,
 * qwen3moe, qwen2moe, gpt-oss, llama4, glm4moe: Q's and K's own
 * norms, norms after the attention and the FFN (instead of before, or
 * as well), layer norms, a GELU MLP, the embeddings, Q and the logits
 * scaled, soft caps, learned positions for RoPE or RoPE in the
 * sliding-window layers alone, attention and FFN side by side, an FFN
 * of one product halved by its GLU, experts chosen by a softmax's top
 * k or a softmax over the top k of the biased logits, the experts'
 * biases, a shared expert beside them, the attention's sinks, llama4's
 * sigmoid-weighted input and unroped layers, glm4moe's biased sigmoid
 * choice and its MTP layer left out), the recurrent layers of mamba and
 * mamba2 (graph-ssm.c), granitehybrid's Mamba-2 layers among attention
 * layers, each with a dense FFN and scaled residuals, lfm2's short
 * convolutions among attention layers, its residuals the other way, and
 * gemma3n's AltUp layers (graph-altup.c), the last reading earlier
 * layers' caches, deepseek2's latent attention (graph-mla.c) with its
 * softmax-chosen experts, deepseek32's and glm-dsa's beside DSA's
 * lightning indexer (graph-dsa.c), and the encoders bert, nomic-bert and
 * nomic-bert-moe (the ubatch attending to itself, no cache, norms after
 * each part; nomic-bert-moe's GELU experts in every second layer), the
 * diffusion LMs (dream, llada, rnd1, llada-moe: a decoder's layers whose
 * attention is the encoders', over the ubatch without a cache), the
 * encoders of a decoder's layers (eurobert's, neo-bert's,
 * modern-bert's and gemma-embedding's, the output norm the graph's end;
 * the last two's sliding-window layers each reading a mask of their
 * own), issue 36's dense llama-likes (mistral3's attention temperature,
 * smollm3's unroped fourth layers, hunyuan-dense's Q and K norms after
 * the RoPE, hunyuan_vl's with M-RoPE where its sections say, bitnet's
 * norms before the output products and its logits of token_embd,
 * arctic's dense FFN beside experts on the layer's input, plamo3's
 * post-norms named without .weight, granite's
 * scaled residuals, command-r's parallel block, olmo's norms
 * without weights and clamped Q, K and V, exaone4's RoPE in its window's
 * layers), qwen35's, qwen35moe's and qwen3next's Gated DeltaNet layers
 * among attention layers with Q's gate (graph-gdn.c), nemotron_h's and
 * nemotron_h_moe's layers of one part each (Mamba-2, attention without
 * RoPE, an FFN of ReLU squared or experts), falcon-h1's attention and
 * Mamba-2 side by side, gemma4's dense layers (the window's heads of
 * their own width, V normed, the last layers over earlier caches), with
 * every bias the file has, a fused QKV product where the file has one
 * (graph-attn.c), an f16 or a q8_0 cache (the q8_0 one rotated), a
 * sliding-window cache beside the model's, in any number of streams,
 * with and without flash attention, on the CPU backend alone or beside a
 * Vulkan device with any number of layers offloaded. Anything else is
 * not built (plan_graph_compute returns false) and keeps the model of
 * plan-llama.c and plan-gpu.c; so is a file with a tensor the graph does
 * not read, or without one it does, and a model with a LoRA adapter or a
 * control vector (their nodes are not built).
 *
 * The order is llama.cpp's (v0.5.0), ggml's depth-first walk from each
 * node the model code expands: per layer the norm, the attention's Q, K
 * and V and their rows into the cache (graph-attn.c); then what the
 * layer's output reaches first: the attention over the cache, its
 * output projection and the residual, then the FFN (with attention and
 * FFN side by side, the FFN and its residual first); in the last layer
 * the output rows of each input of the residuals. A recurrent layer
 * reads its states before its input, so a recurrent or hybrid model's
 * layer ends (its output projection, residual and FFN) only inside the
 * next layer, after that layer's first reads (gb_deferred). The tokens
 * come first, then the embeddings' input (a leaf no node reads, kept);
 * every other input where it is first read. A weight is a leaf in the
 * host's or the device's buffer, as -ngl puts its layer; so is each
 * layer's cache (and recurrent state).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "plan/graph-impl.h"
#include "plan/graph.h"
#include "plan/llfacts-impl.h"

/* x's rows of the outputs (the last layer's). */
static int32_t
gb_out_rows(struct sc_graph *b, const struct shape *s, struct inputs *in,
    int32_t x)
{
	struct rows r = rows2(s->e, s->t);
	int32_t out = gb_in_out(b, s, in);

	return gb_op(b, SC_GET_ROWS, r.bytes, r.layout, 0, s->t, x, out);
}

static int32_t
gb_add_rows(struct sc_graph *b, const struct shape *s, int32_t x, int32_t y)
{
	struct rows r = rows2(s->e, s->t);

	return gb_op(b, SC_ADD, r.bytes, r.layout, GA_INPLACE, s->t, x, y);
}

/* A layer whose attention and FFN both read the one norm's output: the
 * FFN, then (FFN + x) + attention (cohere2) or (FFN + attention) + x
 * (falcon), each part reached (in the last layer, its output rows taken)
 * in that order; or the attention, then (attention + FFN) + x (phi2). */
static int32_t
gb_parallel_layer(struct sc_graph *b, const struct shape *s, struct weights *w,
    struct inputs *in, int64_t il, int32_t x)
{
	bool last = (uint64_t)il + 1 == w->n_layer &&
	    !(w->a->extra & GB_ROWS_AFTER_NORM);
	bool res = w->a->block == GB_PAR_RES;
	struct gb_attn at;
	int32_t n, a, f;

	n = gb_norm(b, w, il, "attn_norm", x, rows2(s->e, s->t));
	gb_attn_begin(b, s, w, in, il, n, &at);
	if (w->a->block == GB_PAR_FIRST) {
		a = gb_attn_end(b, s, w, in, il, &at);
		a = last ? gb_out_rows(b, s, in, a) : a;
		f = gb_ffn(b, s, w, il, last ? gb_out_rows(b, s, in, n) : n);
		f = gb_add_rows(b, s, a, f);
		return gb_add_rows(b, s, f,
		    last ? gb_out_rows(b, s, in, x) : x);
	}
	f = gb_ffn(b, s, w, il, last ? gb_out_rows(b, s, in, n) : n);
	if (res)
		f = gb_add_rows(b, s, f, last ? gb_out_rows(b, s, in, x) : x);
	a = gb_attn_end(b, s, w, in, il, &at);
	f = gb_add_rows(b, s, f, last ? gb_out_rows(b, s, in, a) : a);
	if (res)
		return f;
	return gb_add_rows(b, s, f, last ? gb_out_rows(b, s, in, x) : x);
}

/* gptneox's parallel residual: attention and FFN of their own norms of
 * x, (FFN + x) + attention; x's output rows taken once. */
static int32_t
gb_par_norm2(struct sc_graph *b, const struct shape *s, struct weights *w,
    struct inputs *in, int64_t il, int32_t x)
{
	struct rows r = rows2(s->e, s->t);
	bool last = (uint64_t)il + 1 == w->n_layer;
	struct gb_attn at;
	int32_t f, a;

	gb_attn_begin(b, s, w, in, il, gb_norm(b, w, il, "attn_norm", x, r),
	    &at);
	x = last ? gb_out_rows(b, s, in, x) : x;
	f = gb_ffn(b, s, w, il, gb_norm(b, w, il, "ffn_norm", x, r));
	f = gb_add_rows(b, s, f, x);
	a = gb_attn_end(b, s, w, in, il, &at);
	return gb_add_rows(b, s, f, last ? gb_out_rows(b, s, in, a) : a);
}

/* arctic's layer: the attention on x normed; the experts of x normed
 * again (ffn_norm_exps), which build_moe_ffn expands first; then the
 * attention's end, x added, a dense gated FFN n_embd wide on that
 * normed, added, and the experts' sum added last. */
static int32_t
gb_dense_moe(struct sc_graph *b, const struct shape *s, struct weights *w,
    struct inputs *in, int64_t il, int32_t x)
{
	struct rows r = rows2(s->e, s->t);
	bool last = (uint64_t)il + 1 == w->n_layer;
	struct gb_attn at;
	int32_t m, a, f;

	if (s->n_exp == 0) /* no experts' keys */
		w->missing = true;
	gb_attn_begin(b, s, w, in, il, gb_norm(b, w, il, "attn_norm", x, r),
	    &at);
	if (last)
		x = gb_out_rows(b, s, in, x);
	m = gb_moe_sum(b, s, w, il, gb_norm(b, w, il, "ffn_norm_exps", x, r));
	a = gb_attn_end(b, s, w, in, il, &at);
	if (last)
		a = gb_out_rows(b, s, in, a);
	a = gb_add_rows(b, s, a, x);
	f = gb_gated(b, s, w, il, gb_norm(b, w, il, "ffn_norm", a, r), "",
	    s->e);
	return gb_add_rows(b, s, m, gb_add_rows(b, s, f, a));
}

/* x scaled (residual_scale), where the model does. */
static int32_t
gb_res_scale(struct sc_graph *b, const struct shape *s, int32_t x)
{
	struct rows r = rows2(s->e, s->t);

	if (!s->res_scale)
		return x;
	return gb_op(b, SC_SCALE, r.bytes, r.layout, GA_INPLACE, s->t, x,
	    GA_NONE);
}

/* x times layer il's scalar, where the file has one (gemma4's
 * layer_output_scale). */
static int32_t
gb_out_scale(struct sc_graph *b, const struct shape *s, struct weights *w,
    int64_t il, int32_t x)
{
	struct rows r = rows2(s->e, s->t);
	int32_t k = gb_tensor(b, w, il, "layer_output_scale.weight", true);

	if (k == GA_NONE)
		return x;
	return gb_op(b, SC_MUL, r.bytes, r.layout, GA_INPLACE, s->t, x, k);
}

/* Whether layer il's attention has its norm: but where the row says
 * it may not (GB_ATTN_NORM_OPT), always. */
static bool
gb_attn_normed(struct weights *w, int64_t il)
{
	return !(w->a->extra & GB_ATTN_NORM_OPT) ||
	    gb_has(w, il, "attn_norm.weight");
}

static int32_t
gb_layer(struct sc_graph *b, const struct shape *s0, struct weights *w,
    struct inputs *in, int64_t il, int32_t x)
{
	struct shape own;
	const struct shape *s = gb_at_layer(s0, w->g, il, &own);
	struct rows r = rows2(s->e, s->t);
	bool pre = w->a->norms != GB_NORM_POST;
	bool post = w->a->norms == GB_NORM_POST || w->a->norms == GB_NORM_BOTH;
	bool last = (uint64_t)il + 1 == w->n_layer &&
	    !(w->a->extra &
		(GB_ROWS_LATE | GB_ROWS_AFTER_NORM | GB_ROWS_NORMED));
	const char *fnorm = w->a->extra & GB_FFN_NORM_PA ?
	    "post_attention_norm" :
	    w->a->extra & GB_FFN_NORM_AO ? "attn_output_norm" :
					   "ffn_norm";
	struct gb_attn at;
	int32_t a, ffn;

	if (w->a->block == GB_PAR_RES || w->a->block == GB_PAR_ATTN ||
	    w->a->block == GB_PAR_FIRST)
		return gb_parallel_layer(b, s, w, in, il, x);
	if (w->a->block == GB_PAR_NORM2 && s->par_res)
		return gb_par_norm2(b, s, w, in, il, x);
	if (w->a->block == GB_DENSE_MOE)
		return gb_dense_moe(b, s, w, in, il, x);
	a = pre && gb_attn_normed(w, il) ?
	    gb_norm(b, w, il, "attn_norm", x, r) :
	    x;
	if (w->g->memory == ARCH_MEM_NONE) /* no cache (diffusion LMs) */
		gb_enc_attn_begin(b, s, w, in, il, a, &at);
	else
		gb_attn_begin(b, s, w, in, il, a, &at);
	a = gb_attn_end(b, s, w, in, il, &at);
	/* in the last layer the rows of the outputs: the attention's (and
	 * its norm, which ggml reaches first), then the residual's */
	if (last)
		a = gb_out_rows(b, s, in, a);
	if (post)
		a = gb_norm(b, w, il, "post_attention_norm", a, r);
	if (last)
		x = gb_out_rows(b, s, in, x);
	ffn = gb_add_rows(b, s, gb_res_scale(b, s, a), x);
	a = gb_ffn(b, s, w, il, pre ? gb_norm(b, w, il, fnorm, ffn, r) : ffn);
	if (post)
		a = gb_norm(b, w, il, "post_ffw_norm", a, r);
	a = gb_res_scale(b, s, a);
	if (w->a->block == GB_SEQ_RES)
		return gb_add_rows(b, s, ffn, a);
	return gb_out_scale(b, s, w, il, gb_add_rows(b, s, a, ffn));
}

/* A layer begun whose end waits for the next layer to reach it: its
 * input, its recurrent part or its attention (or, an FFN alone, none:
 * GB_MIXER_ONLY). */
struct gb_open {
	struct gb_mamba mb;
	struct gb_attn at;
	int32_t x;
	int64_t il;
	bool recr, ffn;
};

/* Whether the output rows are taken after the output norm. */
static bool
gb_rows_normed(const struct weights *w)
{
	return w->a->block == GB_GDN || (w->a->extra & GB_ROWS_NORMED);
}

/* x + y, or y + x (GB_RES_FIRST: ggml-alloc then tries x's bytes
 * first). */
static int32_t
gb_residual(struct sc_graph *b, const struct shape *s, struct weights *w,
    int32_t x, int32_t y)
{
	return w->a->extra & GB_RES_FIRST ? gb_add_rows(b, s, x, y) :
					    gb_add_rows(b, s, y, x);
}

/* The end of the layer o began: its output (in the last layer, the rows
 * of the outputs of it and of the input, in the order the sum reaches
 * them), scaled, and its input summed (returned); with an FFN
 * (GB_HYBRID), the FFN of that (*ffn), its residual not yet added. */
static int32_t
gb_open_ffn(struct sc_graph *b, const struct shape *s, struct weights *w,
    struct inputs *in, const struct gb_open *o, int32_t *ffn)
{
	bool last = (uint64_t)o->il + 1 == w->n_layer && !gb_rows_normed(w);
	bool first = (w->a->extra & GB_RES_FIRST) != 0;
	int32_t y, x = o->x;

	if (last && first)
		x = gb_out_rows(b, s, in, x);
	if (o->ffn)
		y = gb_ffn(b, s, w, o->il,
		    gb_norm(b, w, o->il, "attn_norm", x, rows2(s->e, s->t)));
	else
		y = o->recr ? gb_ssm_tail(b, s, w, o->il, &o->mb) :
			      gb_attn_end(b, s, w, in, o->il, &o->at);
	if (last)
		y = gb_out_rows(b, s, in, y);
	y = gb_res_scale(b, s, y);
	if (last && !first)
		x = gb_out_rows(b, s, in, x);
	x = gb_residual(b, s, w, x, y);
	if (w->a->block != GB_HYBRID || (w->a->extra & GB_MIXER_ONLY))
		return x;
	*ffn = gb_ffn(b, s, w, o->il,
	    gb_norm(b, w, o->il, "ffn_norm", x, rows2(s->e, s->t)));
	return x;
}

/* The end of the layer o began: gb_open_ffn's, its FFN's residual. */
static int32_t
gb_close(struct sc_graph *b, const struct shape *s, struct weights *w,
    struct inputs *in, const struct gb_open *o)
{
	int32_t y = GA_NONE, x = gb_open_ffn(b, s, w, in, o, &y);

	if (y == GA_NONE)
		return x;
	return gb_residual(b, s, w, x, gb_res_scale(b, s, y));
}

/* Whether layer il's FFN is experts: build_moe_ffn expands their sum at
 * once, before the next layer's recurrent states are read. */
static bool
gb_moe_layer(const struct weights *w, int64_t il)
{
	return w->a->ffn >= GB_MOE && gb_has(w, il, "ffn_gate_inp.weight");
}

/* The layers of a recurrent or hybrid model from x. A recurrent layer's
 * states are read before its input, the previous layer's output, which
 * only the layer reaches: each layer is closed in the next one. */
static int32_t
gb_deferred(struct sc_graph *b, const struct shape *s, struct weights *w,
    struct inputs *in, int32_t x)
{
	struct gb_open o, cur;
	int32_t y = GA_NONE;
	uint32_t il;
	bool moe;

	memset(&o, 0, sizeof o);
	for (il = 0; il < w->n_layer; il++) {
		memset(&cur, 0, sizeof cur);
		cur.il = il;
		cur.recr = w->a->block == GB_RECURRENT || w->g->is_recr[il];
		moe = il > 0 && gb_moe_layer(w, o.il);
		if (moe)
			x = gb_open_ffn(b, s, w, in, &o, &y);
		if (cur.recr)
			gb_ssm_head(b, s, w, in, il, &cur.mb);
		if (moe)
			x = gb_residual(b, s, w, x, gb_res_scale(b, s, y));
		else if (il > 0)
			x = gb_close(b, s, w, in, &o);
		cur.x = x;
		if (cur.recr)
			gb_ssm_body(b, s, w, in, il, x, &cur.mb);
		else
			gb_attn_begin(b, s, w, in, il,
			    gb_norm(b, w, il, "attn_norm", x,
				rows2(s->e, s->t)),
			    &cur.at);
		o = cur;
	}
	return w->n_layer ? gb_close(b, s, w, in, &o) : x;
}

/* The end of falcon-h1's layer o: the attention's output projection and
 * the Mamba-2 layer's output summed, the input added (in the last
 * layer, the outputs' rows of that), the FFN of that normed (ffn_norm,
 * a weight of that name), added. */
static int32_t
gb_par_ssm_end(struct sc_graph *b, const struct shape *s, struct weights *w,
    struct inputs *in, const struct gb_open *o)
{
	struct rows r = rows2(s->e, s->t);
	int32_t y, n;

	y = gb_attn_end(b, s, w, in, o->il, &o->at);
	y = gb_add_rows(b, s, y, gb_ssm_tail(b, s, w, o->il, &o->mb));
	y = gb_add_rows(b, s, y, o->x);
	if ((uint64_t)o->il + 1 == w->n_layer)
		y = gb_out_rows(b, s, in, y);
	n = gb_op(b, SC_RMS_NORM, r.bytes, r.layout, GA_INPLACE, r.n, y,
	    GA_NONE);
	n = gb_op(b, SC_MUL, r.bytes, r.layout, GA_INPLACE, r.n, n,
	    gb_weight(b, w, o->il, "ffn_norm"));
	return gb_add_rows(b, s, gb_ffn(b, s, w, o->il, n), y);
}

/* falcon-h1's layers from x: each layer's attention (which reaches the
 * previous layer's end through its input), then its Mamba-2 layer's
 * states read and the rest it expands, on its own norm of x. */
static int32_t
gb_par_ssm(struct sc_graph *b, const struct shape *s, struct weights *w,
    struct inputs *in, int32_t x)
{
	struct gb_open o;
	uint32_t il;

	memset(&o, 0, sizeof o);
	for (il = 0; il < w->n_layer; il++) {
		if (il > 0)
			x = gb_par_ssm_end(b, s, w, in, &o);
		o.il = il;
		o.x = x;
		gb_attn_begin(b, s, w, in, il,
		    gb_norm(b, w, il, "attn_norm", x, rows2(s->e, s->t)),
		    &o.at);
		gb_ssm_head(b, s, w, in, il, &o.mb);
		gb_ssm_body(b, s, w, in, il, x, &o.mb);
	}
	return w->n_layer ? gb_par_ssm_end(b, s, w, in, &o) : x;
}

/* The layers begun and not yet closed of a model of one part a layer
 * (GB_MIXER_ONLY): o (o.il < 0: none), an FFN layer's experts' sum and
 * its norm of its input where o is one (y_n), and the FFN layers alone
 * after it, first to last, which expand nothing. */
struct gb_pend {
	struct gb_open o;
	int32_t y_n[2];
	int64_t first, last;
};

/* What reaches x's layer's input closes them all: their outputs in
 * turn (an expert layer's shared expert and residual), the last's
 * returned. */
static int32_t
gb_close_all(struct sc_graph *b, const struct shape *s, struct weights *w,
    struct inputs *in, struct gb_pend *p, int32_t x)
{
	struct gb_open f;
	int64_t il;

	if (p->o.il >= 0 && p->o.ffn)
		x = gb_residual(b, s, w, p->o.x,
		    gb_moe_shared(b, s, w, p->o.il, p->y_n[1], p->y_n[0]));
	else if (p->o.il >= 0)
		x = gb_close(b, s, w, in, &p->o);
	for (il = p->first; il <= p->last; il++) {
		memset(&f, 0, sizeof f);
		f.il = il;
		f.ffn = true;
		f.x = x;
		x = gb_close(b, s, w, in, &f);
	}
	p->o.il = -1;
	p->first = 0;
	p->last = -1;
	return x;
}

/* The layers of a model of one part a layer from x (nemotron_h): a
 * Mamba-2 layer reads its states first, an attention layer expands its
 * attention, an expert layer its experts (build_moe_ffn), each reaching
 * the open layers' ends through its input; a dense FFN layer expands
 * nothing. */
static int32_t
gb_mixers(struct sc_graph *b, const struct shape *s, struct weights *w,
    struct inputs *in, int32_t x)
{
	struct rows r = rows2(s->e, s->t);
	struct gb_pend p;
	struct gb_open cur;
	uint32_t il;

	memset(&p, 0, sizeof p);
	p.o.il = -1;
	p.last = -1;
	for (il = 0; il < w->n_layer; il++) {
		memset(&cur, 0, sizeof cur);
		cur.il = il;
		cur.recr = w->g->is_recr[il];
		cur.ffn = !cur.recr && w->g->n_ff[il] != 0;
		if (cur.ffn && !gb_moe_layer(w, il)) {
			if (p.last < p.first)
				p.first = il;
			p.last = il;
			continue;
		}
		if (cur.recr)
			gb_ssm_head(b, s, w, in, il, &cur.mb);
		cur.x = x = gb_close_all(b, s, w, in, &p, x);
		if (cur.recr)
			gb_ssm_body(b, s, w, in, il, x, &cur.mb);
		else if (cur.ffn) {
			p.y_n[1] = gb_norm(b, w, il, "attn_norm", x, r);
			p.y_n[0] = gb_moe_sum(b, s, w, il, p.y_n[1]);
		} else
			gb_attn_begin(b, s, w, in, il,
			    gb_norm(b, w, il, "attn_norm", x, r), &cur.at);
		p.o = cur;
	}
	return gb_close_all(b, s, w, in, &p, x);
}

/* An encoder's embeddings x: the first token type's row added, the
 * positions' rows plus x, normed. */
static int32_t
gb_enc_embd(struct sc_graph *b, const struct shape *s, struct weights *w,
    struct inputs *in, int32_t x)
{
	struct rows r = rows2(s->e, s->t);
	int32_t t, pos;

	t = gb_tensor(b, w, -1, "token_types.weight", true);
	if (t != GA_NONE)
		x = gb_op(b, SC_ADD, r.bytes, r.layout, GA_INPLACE, s->t, x,
		    gb_view(b, SC_VIEW, t, F32(s->e, 1)));
	if (w->a->pos == GB_LEARNED) {
		pos = gb_op(b, SC_GET_ROWS, r.bytes, r.layout, 0, s->t,
		    gb_weight(b, w, -1, "position_embd.weight"),
		    gb_in_pos(b, s, in));
		x = gb_op(b, SC_ADD, r.bytes, r.layout, GA_INPLACE, s->t, pos,
		    x);
	}
	return gb_norm(b, w, -1, "token_embd_norm", x, r);
}

/* An encoder layer on x (bert's): the attention over the ubatch, x
 * added, normed; the FFN, that added, normed. */
static int32_t
gb_enc_layer(struct sc_graph *b, const struct shape *s, struct weights *w,
    struct inputs *in, int64_t il, int32_t x)
{
	struct rows r = rows2(s->e, s->t);
	struct gb_attn at;
	int32_t a, f;

	gb_enc_attn_begin(b, s, w, in, il, x, &at);
	a = gb_attn_end(b, s, w, in, il, &at);
	if ((uint64_t)il + 1 == w->n_layer) {
		a = gb_out_rows(b, s, in, a);
		x = gb_out_rows(b, s, in, x);
	}
	a = gb_norm(b, w, il, "attn_output_norm", gb_add_rows(b, s, a, x), r);
	f = gb_add_rows(b, s, gb_ffn(b, s, w, il, a), a);
	return gb_norm(b, w, il, "layer_output_norm", f, r);
}

const struct arch_graph *
gb_arch_of(const struct model_geom *g)
{
	const struct arch_graph *a = &arch_row(g)->graph;

	return a->built ? a : NULL;
}

/* The MTP layers' tensors (past the graph's layers) marked read: llama.cpp
 * loads them (glm4moe's nextn block) but its graph does not use them. */
static void
skip_mtp(struct weights *w)
{
	size_t i;
	int64_t il;

	for (i = 0; w->f != NULL && i < w->f->tensors_n; i++) {
		il = plan_llama_layer(&w->f->tensors[i], w->g->n_layer);
		if (il >= (int64_t)w->n_layer && il < (int64_t)w->g->n_layer &&
		    !w->seen[i]) {
			w->seen[i] = true;
			w->n_seen++;
		}
	}
}

/* The embeddings x with the learned positions added (where the file has
 * them) and layer-normed (GB_EMBD_NORM). */
static int32_t
gb_embd_pos(struct sc_graph *b, const struct shape *s, struct weights *w,
    struct inputs *in, int32_t x)
{
	int32_t pos;

	if (w->a->pos == GB_LEARNED ||
	    (w->a->pos == GB_ALIBI && gb_has(w, -1, "position_embd.weight"))) {
		pos = gb_in_pos(b, s, in);
		pos = gb_op(b, SC_GET_ROWS, F32(s->e, s->t), L32(s->e, s->t), 0,
		    s->t, gb_weight(b, w, -1, "position_embd.weight"), pos);
		x = gb_op(b, SC_ADD, F32(s->e, s->t), L32(s->e, s->t),
		    GA_INPLACE, s->t, x, pos);
	}
	if (w->a->extra & GB_EMBD_NORM)
		x = gb_norm(b, w, -1, "token_embd_norm", x, rows2(s->e, s->t));
	return x;
}

/* The output norm of x (which the row names), kept as an output; the
 * output rows taken before it, after it or not at all, as the row
 * says. */
static int32_t
gb_out_norm(struct sc_graph *b, const struct shape *s, struct weights *w,
    struct inputs *in, int32_t x)
{
	const char *name = w->a->extra & GB_OUT_NORM_EMBD ? "token_embd_norm" :
	    w->a->out == GB_OUT_NORM_ENC		  ? "enc.output_norm" :
							    "output_norm";

	x = gb_norm(b, w, -1, name, x, rows2(s->e, s->t));
	if (w->a->extra & GB_ROWS_AFTER_NORM) /* the norm not kept */
		x = gb_out_rows(b, s, in, x);
	else if (!b->full)
		b->t[b->n - 1].flags |= GA_OUTPUT; /* result_norm, h_nextn */
	if (gb_rows_normed(w))			   /* the rows after the norm */
		x = gb_out_rows(b, s, in, x);
	if (!b->full)
		b->t[b->n - 1].flags |= GA_OUTPUT; /* result_norm */
	return x;
}

/* The graph; false when it is not the file's (a tensor left unread, or
 * one it needs missing). */
static bool
build(struct sc_graph *b, const struct planner *pn, const struct shape *s,
    struct weights *w)
{
	uint64_t ei = smul(s->e, s->deep + 1);
	struct inputs in;
	int32_t x;
	uint32_t il;

	gb_inputs_init(&in);
	x = gb_input(b, smul(4, s->t), lay(4, s->t, 1, 1, 1, 1), 0);
	gb_input(b, F32(ei, s->t), lay(4, ei, s->t, 1, 1, 1), GA_OUTPUT);
	x = gb_op(b, SC_GET_ROWS, F32(s->e, s->t), L32(s->e, s->t), 0, s->t,
	    gb_weight(b, w, -1, "token_embd.weight"), x);
	if (s->deep > 0) { /* padded to the deepstack's width, a view */
		x = gb_op(b, SC_PAD, F32(ei, s->t), L32(ei, s->t), 0, s->t, x,
		    GA_NONE);
		x = in.embd = gb_view(b, SC_VIEW, x, gb_span(s->e, s->t, ei));
	}
	if (s->scale_embd)
		x = gb_op(b, SC_SCALE, F32(s->e, s->t), L32(s->e, s->t),
		    GA_INPLACE, s->t, x, GA_NONE);
	if (w->a->block == GB_ENCODER) {
		x = gb_enc_embd(b, s, w, &in, x);
		for (il = 0; il < w->n_layer; il++)
			x = gb_enc_layer(b, s, w, &in, il, x);
		if (!b->full)
			b->t[b->n - 1].flags |= GA_OUTPUT; /* result_embd */
		return !b->full && !w->missing && w->n_seen == w->f->tensors_n;
	}
	x = gb_embd_pos(b, s, w, &in, x);
	if (w->a->block == GB_ALTUP)
		x = gb_altup(b, s, w, &in, x);
	else if (w->a->extra & GB_MIXER_ONLY)
		x = gb_mixers(b, s, w, &in, x);
	else if (w->a->block == GB_PAR_SSM)
		x = gb_par_ssm(b, s, w, &in, x);
	else if (w->a->block == GB_RECURRENT || w->a->block == GB_HYBRID)
		x = gb_deferred(b, s, w, &in, x);
	else if (w->a->block == GB_GDN)
		x = gb_gdn_layers(b, s, w, &in, x);
	else if (w->a->block == GB_KDA)
		x = gb_kda_layers(b, s, w, &in, x);
	for (il = 0; il < w->n_layer &&
	     (w->a->block < GB_RECURRENT || w->a->block >= GB_PAR_FIRST);
	     il++) {
		x = gb_layer(b, s, w, &in, il, x);
		if (il < s->deep) /* the deepstack's slice il + 1 */
			x = gb_add_rows(b, s, x,
			    gb_view(b, SC_VIEW, in.embd,
				gb_span(s->e, s->t, ei)));
	}
	skip_mtp(w);
	if (w->a->extra & GB_ROWS_LATE)
		x = gb_out_rows(b, s, &in, x);
	x = gb_out_norm(b, s, w, &in, x);
	if (w->a->out != GB_OUT_LOGITS) /* an encoder's embeddings */
		return !b->full && !w->missing && w->f != NULL &&
		    w->n_seen == w->f->tensors_n;
	/* bitnet's logits: token_embd itself, not a copy */
	x = gb_linear(b, s, w, -1,
	    arch_row(pn->g)->quirks & ARCH_EMBD_OUTPUT ? "token_embd" :
							 "output",
	    x, pn->g->n_vocab);
	if (w->a->scale & GB_SOFTCAP_LOGITS)
		x = gb_softcap(b, x, s->t);
	if (s->scale_logits)
		gb_op(b, SC_SCALE, F32(pn->g->n_vocab, s->t),
		    L32(pn->g->n_vocab, s->t), GA_INPLACE, s->t, x, GA_NONE);
	if (!b->full)
		b->t[b->n - 1].flags |= GA_OUTPUT; /* the logits */
	return !b->full && !w->missing && w->f != NULL &&
	    w->n_seen == w->f->tensors_n;
}

/*
 * The compute buffers' types. Beside Vulkan the host's is Vulkan_Host
 * (its block the suballocation's); beside CUDA it is CUDA_Host (the
 * CPU's alignment, no limit); on the CPU alone the CPU's, no limit.
 */
static void
bufts(const struct plan *pl, int gpu, struct sc_buft *dev, struct sc_buft *host)
{
	dev->align = gpu == SC_GPU_CUDA ? PLAN_CUDA_ALIGN : PLAN_VULKAN_ALIGN;
	dev->max_size = pl->dev_block;
	dev->gpu = gpu == SC_GPU_CUDA ? SC_GPU_CUDA : SC_GPU_VULKAN;
	host->align = gpu == SC_GPU_VULKAN ? PLAN_VULKAN_HOST_ALIGN :
					     PLAN_TENSOR_ALIGN;
	host->max_size = gpu >= 0 ? pl->host_block : 0;
	host->gpu = 0;
}

bool
plan_graph_compute(const struct planner *pn, const struct plan *pl, uint64_t ub,
    uint64_t *host, uint64_t *dev)
{
	const struct model_geom *g = pn->g;
	struct shape s;
	struct weights w;
	struct sc_graph b = { NULL, 0, 0, false };
	bool gpu = pl->n_dev == 2, ok, indexed;
	uint64_t dl;
	struct sc_buft dbt, hbt;

	if (pn->f == NULL || !gb_known(pn, pl) || !gb_shape(pn, pl, ub, &s))
		return false;
	bufts(pl, s.gpu, &dbt, &hbt);
	dl = gpu ? plan_device_layers(g, pl->ngl) : 0;
	memset(&w, 0, sizeof w);
	w.pn = pn;
	w.pl = pl;
	w.f = pn->f;
	w.a = gb_arch_of(g);
	w.g = g;
	/* the graph's layers: not the MTP layers at the end (n_layer()) */
	w.n_layer = g->n_layer_nextn < g->n_layer ?
	    g->n_layer - g->n_layer_nextn :
	    g->n_layer;
	w.dev_from = (uint32_t)(g->n_layer - dl);
	w.output_dev = gpu && pl->ngl >= 1;
	/* per layer 160 tensors at most (gemma3n), their copies and the
	 * scheduler's */
	b.cap = 64 + (size_t)g->n_layer * 320;
	b.t = calloc(b.cap, sizeof *b.t);
	w.seen = calloc(pn->f->tensors_n + 1, sizeof *w.seen);
	w.leaf = calloc(pn->f->tensors_n + 1, sizeof *w.leaf);
	indexed = gb_index(&w);
	ok = b.t != NULL && w.seen != NULL && w.leaf != NULL && indexed &&
	    build(&b, pn, &s, &w) &&
	    sc_place(&b, gpu, pl->max_tensor, &dbt, &hbt, dev, host);
	gb_index_free(&w);
	free(w.seen);
	free(w.leaf);
	free(b.t);
	return ok;
}
