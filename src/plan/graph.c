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
 * softmax-chosen experts, and the encoders bert and nomic-bert (the
 * ubatch attending to itself, no cache, norms after each part), issue
 * 36's dense llama-likes (mistral3's attention temperature, smollm3's
 * unroped fourth layers, hunyuan-dense's Q and K norms after the RoPE,
 * granite's scaled residuals, command-r's parallel block, olmo's norms
 * without weights and clamped Q, K and V, exaone4's RoPE in its window's
 * layers), with
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

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan/graph-impl.h"
#include "plan/graph.h"
#include "plan/llfacts-impl.h"

/* Layer il's gated FFN on cur (SwiGLU, GeGLU) of ffn_gate, ffn_up and
 * ffn_down with suffix (a shared expert's "_shexp"), width ff. */
static int32_t
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
	snprintf(name, sizeof name, "ffn_down%s", suffix);
	return gb_linear(b, s, w, il, name, u, s->e);
}

/* Layer il's shared expert on cur (qwen2moe): its gated FFN times
 * sigmoid(its router), computed as silu(r) / r. */
static int32_t
gb_shared_expert(struct sc_graph *b, const struct shape *s, struct weights *w,
    int64_t il, int32_t cur)
{
	struct rows r1 = rows2(1, s->t), re = rows2(s->e, s->t);
	int32_t f, g, r;

	f = gb_gated(b, s, w, il, cur, "_shexp", s->ff_shared);
	r = gb_linear(b, s, w, il, "ffn_gate_inp_shexp", cur, 1);
	g = gb_op(b, SC_UNARY, r1.bytes, r1.layout, GA_INPLACE, s->t, r,
	    GA_NONE);
	g = gb_op(b, SC_DIV, r1.bytes, r1.layout, GA_INPLACE, s->t, g, r);
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
	    (kind == GB_MOE_GLM && s->norm_w)) {
		wt = gb_view(b, SC_RESHAPE, wt, wb);
		sum = gb_op(b, SC_SUM_ROWS, smul(4, t), lay(4, 1, t, 1, 1, 0),
		    0, t, wt, GA_NONE);
		sum = gb_op(b, SC_CLAMP, smul(4, t), lay(4, 1, t, 1, 1, 0),
		    GA_INPLACE, t, sum, GA_NONE);
		wt = gb_op(b, SC_DIV, wb, L32(k, t), GA_INPLACE, t, wt, sum);
		wt = gb_view(b, SC_RESHAPE, wt, wb);
	}
	if (kind == GB_MOE_GLM && s->scale_w)
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

/* Layer il's experts on cur (build_moe_ffn): the router, then gate and up
 * of the chosen experts, their GLU, down, each scaled by its weight, and
 * the experts' rows (views, all made before the sum) summed; a shared
 * expert's added (GB_MOE_SHARED). */
static int32_t
gb_moe(struct sc_graph *b, const struct shape *s, struct weights *w, int64_t il,
    int32_t cur)
{
	uint64_t k = s->n_used, t = s->t, e = s->e;
	uint64_t eb = smul(F32(e, k), t), le = lay(4, e, k, t, 1, 0);
	uint64_t vb = smul(4, e + (t - 1) * e * k);
	uint64_t fs = s->ff_shared;
	bool l4 = w->a->ffn == GB_MOE_L4;
	int32_t top, wt, g, u, x, first;
	uint64_t i;

	/* the shared expert as wide as its tensors (llama.cpp checked
	 * them against its keys: exaone-moe's are one expert's wide
	 * whatever expert_shared_count says) */
	i = gb_dim(w, il, "ffn_up_shexp.weight", 1);
	if (fs == 0 || (w->a->ffn == GB_MOE_GLM && i > 0))
		fs = i;

	wt = gb_router(b, s, w, il, cur, &top);
	x = gb_view(b, SC_RESHAPE, cur, F32(e, t));
	if (l4) { /* the weights applied to the input, repeated k times */
		x = gb_op(b, SC_REPEAT, eb, le, 0, t, x, GA_NONE);
		x = gb_op(b, SC_MUL, eb, le, GA_INPLACE, t, x, wt);
	}
	g = gb_experts(b, s, w, il, "ffn_gate", x, top, s->ff_exp);
	u = gb_experts(b, s, w, il, "ffn_up", x, top, s->ff_exp);
	g = gb_op(b, SC_GLU, smul(F32(s->ff_exp, k), t),
	    lay(4, s->ff_exp, k, t, 1, 0), 0, t, g, u);
	x = gb_experts(b, s, w, il, "ffn_down", g, top, e);
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
	if (w->a->ffn == GB_MOE_SHARED)
		x = gb_op(b, SC_ADD, F32(e, t), L32(e, t), GA_INPLACE, t, x,
		    gb_shared_expert(b, s, w, il, cur));
	if (l4 || (w->a->ffn == GB_MOE_GLM && fs > 0))
		x = gb_op(b, SC_ADD, F32(e, t), L32(e, t), GA_INPLACE, t, x,
		    gb_gated(b, s, w, il, cur, "_shexp", l4 ? s->ff_exp : fs));
	if ((w->a->extra & GB_SHEXP_HALF) && fs > 0)
		x = gb_op(b, SC_SCALE, F32(e, t), L32(e, t), GA_INPLACE, t, x,
		    GA_NONE);
	return x;
}

/* The FFN of layer il on cur: gated (SwiGLU, GeGLU) or up, GELU, down. */
static int32_t
gb_ffn(struct sc_graph *b, const struct shape *s, struct weights *w, int64_t il,
    int32_t cur)
{
	int32_t u;

	/* llama4's, llama's and glm4moe's layers without a router are
	 * dense */
	if (w->a->ffn >= GB_MOE &&
	    ((w->a->ffn != GB_MOE_L4 && w->a->ffn != GB_MIXED &&
		 w->a->ffn != GB_MOE_GLM) ||
		gb_has(w, il, "ffn_gate_inp.weight"))) {
		if (s->n_exp == 0) /* a router without experts' keys */
			w->missing = true;
		return gb_moe(b, s, w, il, cur);
	}
	if (w->a->ffn == GB_GELU) {
		u = gb_linear(b, s, w, il, "ffn_up", cur, s->ff);
		u = gb_op(b, SC_UNARY, F32(s->ff, s->t), L32(s->ff, s->t),
		    GA_INPLACE, s->t, u, GA_NONE);
	} else if (w->a->ffn == GB_UP_GLU) {
		u = gb_linear(b, s, w, il, "ffn_up", cur, smul(2, s->ff));
		u = gb_op(b, SC_GLU, F32(s->ff, s->t), L32(s->ff, s->t), 0,
		    s->t, u, GA_NONE);
	} else
		return gb_gated(b, s, w, il, cur, "", s->ff);
	return gb_linear(b, s, w, il, "ffn_down", u, s->e);
}

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
 * in that order. */
static int32_t
gb_parallel_layer(struct sc_graph *b, const struct shape *s, struct weights *w,
    struct inputs *in, int64_t il, int32_t x)
{
	bool last = (uint64_t)il + 1 == w->n_layer &&
	    !(w->a->extra & GB_ROWS_NORMED);
	bool res = w->a->block == GB_PAR_RES;
	struct gb_attn at;
	int32_t n, a, f;

	n = gb_norm(b, w, il, "attn_norm", x, rows2(s->e, s->t));
	gb_attn_begin(b, s, w, in, il, n, &at);
	f = gb_ffn(b, s, w, il, last ? gb_out_rows(b, s, in, n) : n);
	if (res)
		f = gb_add_rows(b, s, f, last ? gb_out_rows(b, s, in, x) : x);
	a = gb_attn_end(b, s, w, in, il, &at);
	f = gb_add_rows(b, s, f, last ? gb_out_rows(b, s, in, a) : a);
	if (res)
		return f;
	return gb_add_rows(b, s, f, last ? gb_out_rows(b, s, in, x) : x);
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

static int32_t
gb_layer(struct sc_graph *b, const struct shape *s, struct weights *w,
    struct inputs *in, int64_t il, int32_t x)
{
	struct rows r = rows2(s->e, s->t);
	bool pre = w->a->norms != GB_NORM_POST;
	bool post = w->a->norms != GB_NORM_PRE;
	bool last = (uint64_t)il + 1 == w->n_layer &&
	    !(w->a->extra & (GB_ROWS_LATE | GB_ROWS_NORMED));
	const char *fnorm = w->a->extra & GB_FFN_NORM_PA ?
	    "post_attention_norm" :
	    w->a->extra & GB_FFN_NORM_AO ? "attn_output_norm" :
					   "ffn_norm";
	struct gb_attn at;
	int32_t a, ffn;

	if (w->a->block == GB_PAR_RES || w->a->block == GB_PAR_ATTN)
		return gb_parallel_layer(b, s, w, in, il, x);
	gb_attn_begin(b, s, w, in, il,
	    pre ? gb_norm(b, w, il, "attn_norm", x, r) : x, &at);
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
	return gb_add_rows(b, s, a, ffn);
}

/* A layer begun whose end waits for the next layer to reach it: its
 * input, its recurrent part or its attention. */
struct gb_open {
	struct gb_mamba mb;
	struct gb_attn at;
	int32_t x;
	int64_t il;
	bool recr;
};

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
	bool last = (uint64_t)o->il + 1 == w->n_layer;
	bool first = (w->a->extra & GB_RES_FIRST) != 0;
	int32_t y, x = o->x;

	if (last && first)
		x = gb_out_rows(b, s, in, x);
	y = o->recr ? gb_ssm_tail(b, s, w, o->il, &o->mb) :
		      gb_attn_end(b, s, w, in, o->il, &o->at);
	if (last)
		y = gb_out_rows(b, s, in, y);
	y = gb_res_scale(b, s, y);
	if (last && !first)
		x = gb_out_rows(b, s, in, x);
	x = gb_residual(b, s, w, x, y);
	if (w->a->block != GB_HYBRID)
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

/* The graph; false when it is not the file's (a tensor left unread, or
 * one it needs missing). */
static bool
build(struct sc_graph *b, const struct planner *pn, const struct shape *s,
    struct weights *w)
{
	uint64_t ei = smul(s->e, s->deep + 1);
	struct inputs in;
	int32_t x, pos;
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
	if (w->a->pos == GB_LEARNED) {
		pos = gb_in_pos(b, s, &in);
		pos = gb_op(b, SC_GET_ROWS, F32(s->e, s->t), L32(s->e, s->t), 0,
		    s->t, gb_weight(b, w, -1, "position_embd.weight"), pos);
		x = gb_op(b, SC_ADD, F32(s->e, s->t), L32(s->e, s->t),
		    GA_INPLACE, s->t, x, pos);
	}
	if (w->a->block == GB_ALTUP)
		x = gb_altup(b, s, w, &in, x);
	else if (w->a->block == GB_RECURRENT || w->a->block == GB_HYBRID)
		x = gb_deferred(b, s, w, &in, x);
	for (il = 0; il < w->n_layer && w->a->block < GB_RECURRENT; il++) {
		x = gb_layer(b, s, w, &in, il, x);
		if (il < s->deep) /* the deepstack's slice il + 1 */
			x = gb_add_rows(b, s, x,
			    gb_view(b, SC_VIEW, in.embd,
				gb_span(s->e, s->t, ei)));
	}
	skip_mtp(w);
	if (w->a->extra & GB_ROWS_LATE)
		x = gb_out_rows(b, s, &in, x);
	x = gb_norm(b, w, -1,
	    w->a->extra & GB_OUT_NORM_EMBD ? "token_embd_norm" : "output_norm",
	    x, rows2(s->e, s->t));
	if (w->a->extra & GB_ROWS_NORMED)
		x = gb_out_rows(b, s, &in, x);
	if (!b->full)
		b->t[b->n - 1].flags |= GA_OUTPUT; /* result_norm */
	x = gb_linear(b, s, w, -1, "output", x, pn->g->n_vocab);
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

	if (pn->f == NULL || !gb_known(pn, pl) || !gb_shape(pn, pl, ub, &s))
		return false;
	dl = gpu ? plan_device_layers(g, pl->ngl) : 0;
	memset(&w, 0, sizeof w);
	w.pn = pn;
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
	    sc_place(&b, gpu, pl->max_tensor, PLAN_VULKAN_ALIGN,
		gpu ? PLAN_VULKAN_HOST_ALIGN : PLAN_TENSOR_ALIGN, dev, host);
	gb_index_free(&w);
	free(w.seen);
	free(w.leaf);
	free(b.t);
	return ok;
}
