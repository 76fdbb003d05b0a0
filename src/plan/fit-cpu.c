/*
 * fit-cpu.c - llama.cpp's compute buffer where its graph is not placed
 * (graph.c builds no graph for the plan): gguflint's model of the graph,
 * its phases' peaks fitted to llama.cpp v0.5.0's measurements on the CPU
 * (the oracle's tables), per architecture where its row says so
 * (facts/archs.c: fit), and beside a GPU split between the host and the
 * device by fit-gpu.c.
 */
#include "config.h"

#include <string.h>

#include "facts/arch.h"
#include "plan/fit-impl.h"
#include "plan/llfacts-impl.h"

#define sadd plan_sadd
#define smul plan_smul
#define umax plan_umax


/* The FFN widths of a file: dense, experts (per token) and shared. */
void
plan_graph_scan(const struct model_geom *g, const struct gguf_file *f,
    struct graph_shape *s)
{
	uint64_t up = 0, exps = 0, shexp = 0, used = plan_experts_used(g, f);
	bool gate = false, gate_exps = false, gate_sh = false, bias = false;
	size_t i;

	for (i = 0; f != NULL && i < f->tensors_n; i++) {
		const struct gguf_tensor *t = &f->tensors[i];

		if (plan_name_ends(t, ".ffn_up.weight"))
			up = umax(up, plan_tensor_cols(t));
		else if (plan_name_ends(t, ".ffn_up_exps.weight"))
			exps = umax(exps, plan_tensor_cols(t));
		else if (plan_name_ends(t, ".ffn_up_shexp.weight"))
			shexp = umax(shexp, plan_tensor_cols(t));
		gate |= plan_name_ends(t, ".ffn_gate.weight");
		gate_exps |= plan_name_ends(t, ".ffn_gate_exps.weight");
		gate_sh |= plan_name_ends(t, ".ffn_gate_shexp.weight");
		bias |= plan_name_ends(t, ".ffn_gate_exps.bias");
	}
	/* a fused gate and up (phi3): one tensor twice n_ff wide */
	if (!gate && up > 0 && up == 2 * (uint64_t)g->n_ff[0]) {
		gate = true;
		up /= 2;
	}
	s->gated = gate || (up == 0 && exps == 0);
	s->ffn = up == 0 && exps == 0 && shexp == 0 ? 3 * (uint64_t)g->n_ff[0] :
	    smul(gate ? 3 : 1, up);
	/* biased experts (gpt-oss): the biases are added in place and the
	 * activation writes over the gate's output, two intermediates */
	s->ffn = umax(s->ffn, smul(smul(gate_exps ? bias ? 2 : 3 : 1, exps),
	    used));
	/* the down projection's output, every used expert's row, goes where
	 * the gate's and up's outputs were unless it is wider (measured on
	 * the CPU: qwen3moe-wide, 2048 wide, 128 experts of 768 with 8 used,
	 * and 32 with 4 used) */
	if (gate_exps && !bias && smul(used, g->n_embd) > smul(2 * used, exps))
		s->ffn = umax(s->ffn, sadd(smul(3 * used, exps),
		    smul(used, g->n_embd)));
	s->ffn = umax(s->ffn, smul(gate_sh ? 3 : 1, shexp));
	s->parallel = arch_row(g)->graph.block == GB_PAR_ATTN;
	s->cohere2 = arch_row(g)->graph.block == GB_PAR_RES;
	/* per_layer_token_embd's rows: n_layer per-layer embeddings */
	s->per_layer = 0;
	for (i = 0; f != NULL && i < f->tensors_n; i++)
		if (plan_name_ends(&f->tensors[i],
		    "per_layer_token_embd.weight") &&
		    f->tensors[i].ne[0] > 0)
			s->per_layer = (uint64_t)f->tensors[i].ne[0];
}

/*
 * Mamba (v1): the ubatch's in-projection (2 d_inner), the convolution's
 * input and output, dt, the scan's output and the gated output live at
 * once (6 d_inner and the residual), plus every sequence's conv and scan
 * states copied in and out; 32 bytes of alignment. Measured exactly.
 */
static uint64_t
compute_mamba(const struct model_geom *g, uint64_t ub, uint64_t n_seq)
{
	uint64_t di = g->ssm_d_inner, conv = g->ssm_d_conv ?
	    g->ssm_d_conv - 1 : 0;
	uint64_t cols = sadd(sadd(smul(6, di), g->n_embd), 2);
	uint64_t st = smul(smul(4, di), sadd(smul(2, conv), g->ssm_d_state));

	return sadd(sadd(smul(smul(4, ub), cols), 32), smul(n_seq, st));
}

/*
 * Mamba-2 (llama.cpp's build_mamba2_layer; ggml's ssm_scan): per token
 * the in-projection zxBCdt (d_in_proj, ssm_in's rows), xBC twice (the
 * convolution's input and output: d_inner + 2 n_group d_state), the
 * scan's y (d_inner) and 2 more (tokens, ids); per sequence of the
 * ubatch (ub / n_seq tokens each) an n_group x tokens x tokens f32 block
 * of the scan, and its states: the scan's four times, the convolution's
 * twice. 32 bytes of alignment. Exact against llama.cpp v0.5.0's CPU
 * buffer (any context: no attention) while each sequence has 128 tokens
 * of the ubatch or more (ubatch 128-512, 1, 2 and 4 sequences); with
 * fewer, ggml-alloc fits part of the states where the tokens' tensors
 * were and this is over (ubatch 128 and 4 sequences: 1.44x).
 */
uint64_t
plan_compute_mamba2(const struct model_geom *g, const struct gguf_file *f,
    uint64_t ub, uint64_t n_seq)
{
	uint64_t di = g->ssm_d_inner, ds = g->ssm_d_state;
	uint64_t xbc = sadd(di, smul(smul(2, g->ssm_n_group), ds));
	uint64_t conv = g->ssm_d_conv ? g->ssm_d_conv - 1 : 0;
	uint64_t tok = n_seq ? ub / n_seq : ub;
	uint64_t cols = sadd(sadd(plan_tensor_rows(f, ".ssm_in.weight"),
	    smul(2, xbc)), sadd(di, 2));
	uint64_t st = smul(4, sadd(smul(smul(4, ds), di), smul(smul(2, conv),
	    xbc)));
	uint64_t scan = smul(smul(smul(4, g->ssm_n_group), tok), tok);

	return sadd(sadd(smul(smul(4, ub), cols), 32), smul(n_seq,
	    sadd(st, scan)));
}

/*
 * cohere2's attention phase without flash attention (attn: its tensors
 * on a sliding layer, u: 4 ubatch bytes): a full layer applies no RoPE,
 * so Q and K stay views of their projections beside its KQ over every
 * cell (the residual, the normed input waiting for the FFN, the
 * projection); a sliding layer ropes them, beside a KQ over its cells.
 * Exact on llama.cpp v0.5.0's CPU buffer.
 */
static uint64_t
cohere2_attn(const struct model_geom *g, uint64_t attn, uint64_t u,
    uint64_t n_kv, uint64_t n_swa)
{
	uint64_t full = smul(u, fit_beside_cols(g->n_embd));

	full = sadd(full, smul(smul(u, n_kv), g->n_head[0]));
	return umax(full, sadd(attn, smul(smul(u, n_swa), g->n_head[0])));
}

/*
 * The phases of one ubatch of ub tokens, in bytes: the logits (with the
 * final norm's input and output), the attention (Q, K, V and their
 * outputs; KQ and its softmax unless flash attention) and the FFN (s's
 * intermediates and the residuals), each beside the masks (f16 with flash
 * attention, else f32; a second one over the sliding window's cells). An
 * encoder (or ARCH_ENC_GRAPH's graph) attends the ubatch itself and has
 * no logits.
 */
uint64_t
plan_compute_graph(const struct model_geom *g, const struct graph_shape *s,
    uint64_t ub, uint64_t n_kv, uint64_t n_swa, bool fa,
    struct graph_phases *ph)
{
	uint64_t emb = g->n_embd, u = smul(4, ub), out = 0, attn, ffn, mask;
	uint64_t hk = g->head_k ? g->head_k : g->n_head[0] ? emb /
	    g->n_head[0] : 0;	/* an encoder's geometry has no KV widths */
	uint64_t qd = smul(hk, g->n_head[0]), gqa = smul(hk, g->n_head_kv[0]);
	bool enc = g->memory == ARCH_MEM_NONE ||
	    (arch_row(g)->quirks & ARCH_ENC_GRAPH);

	if (enc)
		n_kv = ub, n_swa = 0;
	mask = smul(smul(fa ? 2 : 4, ub), sadd(n_kv, n_swa));
	if (enc) {
		attn = smul(u, sadd(sadd(smul(4, emb), sadd(qd, gqa)), 3));
		ffn = smul(u, sadd(sadd(s->ffn, smul(s->gated ? 2 : 3, emb)),
		    3));
	} else {
		out = smul(u, sadd(sadd(g->n_vocab, smul(2, emb)), 1));
		/* KQV and its merged copy; one Q-wide output with FA */
		attn = smul(u, sadd(sadd(smul(3, emb), smul(fa ? 1 : 2, qd)),
		    sadd(smul(2, gqa), 5)));
		ffn = smul(u, sadd(sadd(s->ffn, smul(4, emb)), 7));
	}
	if (!fa && s->cohere2 && !enc)
		attn = cohere2_attn(g, attn, u, n_kv, n_swa);
	else if (!fa)
		attn = sadd(attn, smul(smul(u, n_kv), g->n_head[0]));
	if (s->cohere2 && !enc && !fa)	/* attention beside the FFN */
		ffn = sadd(ffn, smul(u, smul(2, emb)));
	attn = sadd(attn, mask);
	/* falcon: the attention output waits for the FFN's */
	ffn = sadd(ffn, s->parallel ? umax(mask, smul(u, emb)) : mask);
	if (g->memory == ARCH_MEM_RECURRENT)
		attn = 0;
	if (s->per_layer > 0) {
		/* gemma3n: the per-layer inputs (their rows, the model's
		 * projection and its norm, then their sum) are built before
		 * the first layer and the sum stays live through every one:
		 * measured, three widths beside the FFN phase's columns, and
		 * one beside the attention's */
		ffn = sadd(ffn, smul(u, sadd(smul(3, s->per_layer), 5)));
		attn = sadd(attn, smul(u, s->per_layer));
	}
	if (ph != NULL)
		ph->out = out, ph->attn = attn, ph->ffn = ffn;
	return umax(out, umax(attn, ffn));
}

uint64_t
plan_compute_bytes(const struct model_geom *g, uint64_t ub, uint64_t n_kv,
    bool fa)
{
	struct graph_shape s;

	plan_graph_scan(g, NULL, &s);
	return plan_compute_graph(g, &s, ub, n_kv, 0, fa, NULL);
}

/*
 * Whether g's fitted compute buffer is within 10 % of llama.cpp's
 * measured one (its row's fit.cpu: the CPU table, ctx 512-32768, FA on
 * and off, f16 and q8_0 caches, -np 1 and 4). Beside a GPU backend the
 * split between host and device holds for fewer (plan_gpu_measured: the
 * rows' split.measured): for the others the device's share is an
 * estimate.
 */
bool
plan_fit_measured(const struct model_geom *g, const struct plan *pl)
{
	const struct arch_fit *fit = &arch_row(g)->fit;

	if (pl->n_dev > 1)
		return plan_gpu_measured(g) ||
		    arch_worst_within(fit->worst_vulkan);
	return fit->cpu || arch_worst_within(fit->worst_cpu);
}

void
plan_fit_worst(const struct model_geom *g, struct plan *pl)
{
	const struct arch_info *a = arch_row(g);

	pl->compute_worst = 0;
	if (!a->graph.built)
		pl->compute_worst = pl->n_dev > 1 ? a->fit.worst_vulkan :
		    a->fit.worst_cpu;
}

/*
 * With a quantized cache the rotations add Q-, K- and V-wide tensors to
 * the graph and ggml-alloc's greedy layout shifts: measured (v0.5.0, CPU,
 * the oracle's models) the buffer is one embedding-wide f32 tensor of
 * the ubatch smaller (-1) once the masks are at least that big, or
 * larger (1). Per architecture: with flash attention, for a quantized K
 * (only with an f16 V) or a quantized V; without it (V is then f16), for
 * a quantized K, a Q-wide tensor smaller (-1; -2: whatever the masks):
 * the row's fit (fa_k, fa_v, nofa_k). An architecture whose row has no
 * shift shifts nothing (its compute is an estimate anyway).
 */

/*
 * The compute buffer c with pl's quantized cache: rotations and, when the
 * whole graph runs on one device (shift), the layout shift.
 */
uint64_t
plan_quantized_cache(const struct model_geom *g, const struct plan *pl,
    uint64_t c, uint64_t ub, uint64_t mask, bool shift)
{
	bool qk = kv_type_info(pl->kv_k)->quantized;
	bool qv = kv_type_info(pl->kv_v)->quantized;
	uint64_t row = smul(smul(4, ub), g->n_embd), q = row;
	const struct arch_fit *fit = &arch_row(g)->fit;
	int k = 0;

	if (!qk && !qv)
		return c;
	c = sadd(c, plan_rot_bytes(g, pl));
	if (!fit->shift || !shift)
		return c;
	if (pl->flash_attention)
		k = qk && !qv ? fit->fa_k : 0;
	if (pl->flash_attention && qv)
		k = fit->fa_v;
	if (!pl->flash_attention && qk) {
		k = fit->nofa_k;
		if (k < 0)
			q = smul(smul(4, ub), smul(plan_head_width(g, false),
			    g->n_head[0]));
	}
	if (k == -1 && mask < row)
		return c;
	if (k > 0)
		return sadd(c, row);
	return k < 0 && c > q ? c - q : c;
}

/*
 * Granite 4.0 hybrid (Mamba-2 layers, some attention layers, a gated FFN
 * in every layer): the peak is a Mamba-2 layer's, while the attention
 * layers' graph inputs (masks, positions, output ids, K and V cell
 * indices: i64, V's one an element without flash attention) are live.
 * Per token: the in-projection (d_in_proj), the convolution's input and
 * output (xBC twice), the scan's y (d_inner), the residual, the normed
 * input and the layer's output (3 n_embd) and 7 for the inputs; once a
 * sequence has 512 tokens of the ubatch or more, two in-projections and
 * two d_inner instead (measured, the same threshold with d_state 64 and
 * 128: ggml-alloc's layout, not derived op by op). Per sequence one SSM
 * state and the convolution's state twice. The FFN never peaks (n_ff
 * 1024 and 1536 alike). Without flash attention the attention layer can:
 * the dense graph's (dense: it reads layer 0's KV heads, none here), the
 * V indices and four KV widths more (K and V among them). Measured
 * exactly on llama.cpp v0.5.0's CPU buffer (ubatch 64-2048, 1, 2 and 4
 * sequences, d_state 64 and 128; 457-511 tokens a sequence: 0.4 % over).
 */
static uint64_t
compute_granitehybrid(const struct model_geom *g, const struct planner *pn,
    const struct plan *pl, uint64_t ub, uint64_t dense)
{
	uint64_t di = g->ssm_d_inner, ds = g->ssm_d_state;
	uint64_t xbc = sadd(di, smul(smul(2, g->ssm_n_group), ds));
	uint64_t conv = g->ssm_d_conv ? g->ssm_d_conv - 1 : 0;
	uint64_t tok = pl->n_seq ? ub / pl->n_seq : ub;
	uint64_t in = plan_tensor_rows(pn->f, ".ssm_in.weight");
	uint64_t gqa = plan_kv_width(g);
	uint64_t cols = tok >= 512 ? smul(2, sadd(in, di)) :
	    sadd(sadd(in, smul(2, xbc)), di);
	uint64_t st = smul(4, sadd(smul(ds, di), smul(smul(2, conv), xbc)));
	uint64_t vidx = pl->flash_attention ? 0 : smul(smul(8, ub), gqa);
	uint64_t m;

	cols = sadd(cols, fit_beside_cols(g->n_embd));
	m = sadd(sadd(smul(smul(4, ub), cols), 32), smul(pl->n_seq, st));
	m = sadd(sadd(m, plan_mask_bytes(g, pl, ub)), vidx > 8 * ub ?
	    vidx - 8 * ub : 0);
	if (!pl->flash_attention)
		dense = sadd(sadd(dense, vidx), sadd(smul(smul(16, ub),
		    gqa), 32));
	return sadd(umax(m, dense), plan_rot_matrices(g, pl));
}

/* The host's compute buffer at pl's settings, fitted: the whole graph's
 * on one device (the split beside a GPU starts from it). */
static uint64_t
fit_host(const struct planner *pn, const struct plan *pl, uint64_t ub)
{
	const struct model_geom *g = pn->g;
	uint8_t fit = arch_row(g)->fit.compute;
	struct graph_shape s;
	uint64_t logits = smul(smul(4, ub), sadd(sadd(g->n_vocab,
	    smul(2, g->n_embd)), 1));

	if (g->memory == ARCH_MEM_RECURRENT && fit == FIT_MAMBA)
		return umax(compute_mamba(g, ub, pl->n_seq), logits);
	if (g->memory == ARCH_MEM_RECURRENT && fit == FIT_MAMBA2)
		return umax(plan_compute_mamba2(g, pn->f, ub, pl->n_seq),
		    logits);
	plan_graph_scan(g, pn->f, &s);
	if (g->memory == ARCH_MEM_HYBRID && fit == FIT_GRANITEHYBRID)
		return umax(compute_granitehybrid(g, pn, pl, ub,
		    plan_compute_graph(g, &s, ub, pl->ctx_seq, 0,
		    pl->flash_attention, NULL)), logits);
	return plan_quantized_cache(g, pl, plan_compute_graph(g, &s, ub,
	    pl->ctx_seq, g->swa ? pl->swa_cells : 0, pl->flash_attention, NULL),
	    ub, plan_mask_bytes(g, pl, ub), pl->n_dev == 1);
}

void
plan_fit_compute(const struct planner *pn, struct plan *pl, uint64_t ub)
{
	uint64_t c = fit_host(pn, pl, ub);

	pl->compute_estimated = !plan_fit_measured(pn->g, pl);
	pl->compute_why = NULL;
	plan_fit_worst(pn->g, pl);
	if (pl->n_dev > 1)
		plan_llama_gpu_compute(pn, pl, c, ub);
	else
		pl->dev[0].compute_bytes = c;
}
