/*
 * graph-shape.c - whether graph.c builds llama.cpp's graph for a model and
 * a plan (gb_known: the architecture, its memory, the cache types, the
 * backends, no adapter), and the graph's geometry from the header
 * (gb_shape: heads, caches and streams, experts, MLA's widths, the
 * recurrent layers', granite's switches), read from the file's keys.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "plan/graph-impl.h"
#include "plan/llfacts-impl.h"

int
gb_gpu(const struct plan *pl)
{
	if (pl->n_dev != 2)
		return -1;
	if (strncmp(pl->dev[1].name, "Vulkan", 6) == 0)
		return SC_GPU_VULKAN;
	if (strncmp(pl->dev[1].name, "CUDA", 4) == 0)
		return SC_GPU_CUDA;
	return -1;
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

/* Whether the sliding-window layers' heads are built: as wide as the
 * others, or (gemma4's) of their own width, K's as V's, a multiple of 64
 * as the others' (the rotations then each cache's own). */
static bool
swa_heads_known(const struct model_geom *g)
{
	uint64_t k = g->head_k_swa ? g->head_k_swa : g->head_k;
	uint64_t v = g->head_v_swa ? g->head_v_swa : g->head_v;

	if (!g->swa || (k == g->head_k && v == g->head_v))
		return true;
	return k == v && k != 0 && k % 64 == 0 && g->head_k % 64 == 0;
}

/* Whether a companion changes the model's graph: a LoRA adapter's
 * products beside every adapted weight's, a control vector's addition to
 * every layer's output (a projector or a draft model has a graph of its
 * own). */
static bool
graph_changed(const struct planner *pn)
{
	size_t i;

	for (i = 0; pn->rq != NULL && i < pn->rq->n_companions; i++)
		if (pn->rq->companions[i].kind == COMPANION_LORA ||
		    pn->rq->companions[i].kind == COMPANION_CVEC)
			return true;
	return false;
}

/* Metadata key name of pn's architecture ("ARCH.name"), or NULL. */
static const struct gguf_kv *
arch_kv(const struct planner *pn, const char *name)
{
	char key[sizeof pn->g->arch + 48];

	snprintf(key, sizeof key, "%s.%s", pn->g->arch, name);
	return gguf_find_kv(pn->f, key);
}

/* The same key as an integer (a bool as 0 or 1): false when absent or
 * not one. */
static bool
arch_int(const struct planner *pn, const char *name, int64_t *v)
{
	char key[sizeof pn->g->arch + 48];

	snprintf(key, sizeof key, "%s.%s", pn->g->arch, name);
	return gguf_find_int(pn->f, key, v);
}

/* An integer key within [0, 2^24]: its value, else 0. */
static uint64_t
arch_u32(const struct planner *pn, const char *name)
{
	int64_t v = 0;

	return arch_int(pn, name, &v) && v >= 0 && v <= 1 << 24 ? (uint64_t)v :
								  0;
}

/* Whether float key name is there and not 0 (nor 1, when one). */
static bool
arch_float_set(const struct planner *pn, const char *name, bool one)
{
	const struct gguf_kv *kv = arch_kv(pn, name);

	return kv != NULL && kv->type == GGUF_FLOAT32 &&
	    kv->val.v.f32 != 0.0f && (!one || kv->val.v.f32 != 1.0f);
}

/* The KV heads of the attention layers: layer 0's, or a hybrid's first
 * attention layer's. */
static uint32_t
attn_kv_heads(const struct model_geom *g)
{
	uint32_t il;

	for (il = 0; il < g->n_layer && il < ARCH_MAX_LAYERS; il++)
		if (!(g->memory == ARCH_MEM_HYBRID && g->is_recr[il]) &&
		    g->n_head_kv[il] != 0)
			return g->n_head_kv[il];
	/* falcon-h1's layers are all recurrent, and attention */
	for (il = 0; il < g->n_layer && il < ARCH_MAX_LAYERS; il++)
		if (g->n_head_kv[il] != 0)
			return g->n_head_kv[il];
	return 0;
}

/* The FFN's width: the first layer's that has one. */
static uint32_t
ffn_width(const struct model_geom *g)
{
	uint32_t il;

	for (il = 0; il < g->n_layer && il < ARCH_MAX_LAYERS; il++)
		if (g->n_ff[il] != 0)
			return g->n_ff[il];
	return 0;
}

/* Whether layer il is one nemotron_h builds (GB_MIXER_ONLY): Mamba-2 (0
 * KV heads, no FFN), attention (no FFN) or an FFN of the model's
 * width. */
static bool
mixer_known(const struct model_geom *g, uint32_t il)
{
	if (g->n_head[il] != g->n_head[0])
		return false;
	if (g->n_ff[il] != 0)
		return g->n_ff[il] == ffn_width(g);
	return g->is_recr[il] || g->n_head_kv[il] == attn_kv_heads(g);
}

bool
gb_known(const struct planner *pn, const struct plan *pl)
{
	const struct model_geom *g = pn->g;
	const struct arch_graph *a = gb_arch_of(g);
	bool hybrid = a != NULL &&
	    (a->block == GB_HYBRID || a->block == GB_GDN ||
		a->block == GB_PAR_SSM || a->block == GB_KDA);
	uint32_t il;

	if (a == NULL || graph_changed(pn) ||
	    (pl->n_dev != 1 && gb_gpu(pl) < 0) || g->n_layer == 0 ||
	    g->n_layer > ARCH_MAX_LAYERS || pl->n_fallback > pl->n_oversize ||
	    pl->n_cpu_moe_tensors > 0)
		return false;
	/* the recurrent states are f32 whatever the cache's types */
	if (a->block == GB_RECURRENT)
		return g->memory == ARCH_MEM_RECURRENT;
	/* an encoder has no cache, nor has a diffusion LM (a decoder's
	 * layers): its types do not matter */
	if (a->block == GB_ENCODER || g->memory == ARCH_MEM_NONE)
		return g->memory == ARCH_MEM_NONE && g->n_head[0] != 0 &&
		    g->head_k == g->head_v && !g->swa;
	/* MLA: deepseek2's alone, K and V of one type (llama.cpp refuses
	 * others); a hybrid's sliding-window cache is not built */
	if (g->mla && (!(a->extra & GB_MLA) || pl->kv_k != pl->kv_v))
		return false;
	if (g->memory != (hybrid ? ARCH_MEM_HYBRID : ARCH_MEM_KV) ||
	    (hybrid && g->swa) || !swa_heads_known(g) || !cache_known(pl) ||
	    g->n_head[0] == 0 || (g->head_k != g->head_v && !g->mla) ||
	    pl->n_stream == 0 || pl->n_ubatch % pl->n_stream != 0 ||
	    attn_kv_heads(g) == 0)
		return false;
	/* a hybrid's recurrent layers have no KV heads */
	for (il = 0; il < g->n_layer; il++)
		if (a->extra & GB_MIXER_ONLY) {
			if (!mixer_known(g, il))
				return false;
		} else if (g->n_head[il] != g->n_head[0] ||
		    (g->n_head_kv[il] != attn_kv_heads(g) &&
			!(hybrid && g->is_recr[il])) ||
		    g->n_ff[il] != g->n_ff[0] || g->n_ff[il] == 0)
			return false;
	return true;
}

/* A recurrent model's geometry (struct gb_ssm) from its keys, for a
 * ubatch of ub tokens over pl's sequences (rounded up to a multiple of
 * them, as llama.cpp reserves it); false for one out of range, for
 * Mamba with its dt, B and C normed (ssm.dt_b_c_rms) and for lfm2's
 * non-causal convolution (not built). */
static bool
ssm_of(const struct planner *pn, const struct plan *pl, uint64_t ub,
    struct gb_ssm *m)
{
	const struct model_geom *g = pn->g;
	int64_t rank = 0, v = 0;

	memset(m, 0, sizeof *m);
	m->ns = pl->n_seq ? pl->n_seq : 1;
	m->cells = m->ns; /* llama.cpp's n_seq_max, at least 1 */
	m->tok = (ub + m->ns - 1) / m->ns;
	if (gb_arch_of(g)->extra & GB_SHORTCONV) { /* lfm2's */
		m->shortconv = true;
		m->dc = g->shortconv_l_cache;
		m->xw = g->n_embd;
		m->din = smul(3, g->n_embd);
		m->rw = smul(m->dc - 1, m->xw);
		return m->dc > 1 && m->tok > 0 &&
		    (!arch_int(pn, "attention.causal", &v) || v != 0);
	}
	if (!arch_int(pn, "ssm.time_step_rank", &rank) || rank <= 0 ||
	    rank > 1 << 24 || (arch_int(pn, "ssm.dt_b_c_rms", &v) && v != 0))
		return false;
	m->v2 = !(gb_arch_of(g)->extra & GB_MAMBA1);
	m->di = g->ssm_d_inner;
	m->ds = g->ssm_d_state;
	m->dc = g->ssm_d_conv;
	m->ng = m->v2 ? g->ssm_n_group : 1;
	m->nh = m->v2 ? (uint64_t)rank : m->di;
	m->rank = (uint64_t)rank;
	if (m->di == 0 || m->ds == 0 || m->dc == 0 || m->ng == 0 ||
	    m->di % m->nh != 0 || m->di % m->ng != 0)
		return false;
	m->hd = m->di / m->nh;
	m->xw = m->v2 ? sadd(m->di, smul(smul(2, m->ng), m->ds)) : m->di;
	m->din = m->v2 ? sadd(sadd(m->di, m->xw), m->nh) : smul(2, m->di);
	m->rw = smul(m->dc - 1, m->xw);
	m->sw = smul(m->ds, m->di);
	return m->tok > 0;
}

/* kimi-linear's KDA layers (struct gb_ssm) from its keys, for a ubatch
 * of ub tokens over pl's sequences: n_head heads of kda.head_dim, the
 * convolutions of Q, K and V (ssm.conv_kernel wide) each of their
 * heads' width, one state of the three convolutions' columns and one
 * of the heads' squares; false for one out of range. */
static bool
kda_of(const struct planner *pn, const struct plan *pl, uint64_t ub,
    struct gb_ssm *m)
{
	const struct model_geom *g = pn->g;

	memset(m, 0, sizeof *m);
	m->ns = pl->n_seq ? pl->n_seq : 1;
	m->cells = m->ns;
	m->tok = (ub + m->ns - 1) / m->ns;
	m->nh = g->n_head[0];
	m->hd = g->kda_head_dim;
	m->dc = g->ssm_d_conv;
	if (m->nh == 0 || m->hd == 0 || m->hd > 1 << 16 || m->dc < 2 ||
	    m->dc > 1 << 16 || m->tok == 0)
		return false;
	m->di = m->xw = smul(m->nh, m->hd);
	m->rw = smul(smul(3, m->dc - 1), m->di);
	m->sw = smul(m->hd, m->di);
	return true;
}

/* glm4moe's gating (expert_gating_func: none or 2 sigmoid, 1 softmax),
 * whether its weights are normalized (expert_weights_norm, or always:
 * GB_NORM_W) and scaled (expert_weights_scale, but 0 and 1), its shared
 * experts' width (expert_shared_count of the experts', else
 * expert_shared_feed_forward_length, else none); false for another
 * gating. */
static bool
glm_experts(const struct planner *pn, struct shape *s)
{
	uint32_t extra = gb_arch_of(pn->g)->extra;
	int64_t v = 0;

	if (arch_int(pn, "expert_gating_func", &v) && v != 0 && v != 1 &&
	    v != 2)
		return false;
	if (v == 0 && (extra & GB_GATE_SOFTMAX))
		v = 1; /* DeepSeek V2's files say nothing: softmax */
	s->sigmoid = v != 1;
	s->norm_w = (extra & GB_NORM_W) ||
	    (arch_int(pn, "expert_weights_norm", &v) && v != 0);
	s->scale_w = arch_float_set(pn, "expert_weights_scale", true);
	v = 0;
	if (arch_int(pn, "expert_shared_count", &v)) {
		if (v < 0 || v > 1 << 16)
			return false;
		s->ff_shared = smul(s->ff_exp, (uint64_t)v);
		return true;
	}
	if (!arch_int(pn, "expert_shared_feed_forward_length", &v))
		v = 0;
	if (v < 0 || v > 1 << 24)
		return false;
	s->ff_shared = (uint64_t)v;
	return true;
}

/* The experts of a mixture-of-experts architecture (their count, those
 * a token uses, their FFN's width) from the file's keys; false when it
 * lacks one or one is out of range. */
static bool
experts_of(const struct planner *pn, struct shape *s)
{
	const struct model_geom *g = pn->g;
	int64_t n = 0, ff = 0;
	uint8_t kind = gb_arch_of(g)->ffn;

	s->n_exp = s->n_used = s->ff_exp = s->ff_shared = 0;
	if (kind < GB_MOE)
		return true;
	if (kind == GB_MOE_SHARED &&
	    (!arch_int(pn, "expert_shared_feed_forward_length", &ff) ||
		ff <= 0 || ff > 1 << 24))
		return false;
	s->ff_shared = (uint64_t)ff;
	if ((kind == GB_MIXED || kind == GB_MOE_GELU) &&
	    !arch_int(pn, "expert_count", &n))
		return true; /* no experts: dense */
	if (!arch_int(pn, "expert_count", &n) || n <= 0 || n > 1 << 16)
		return false;
	/* llama's and nomic-bert-moe's experts are the FFN's width, and
	 * olmoe's (GB_MOE) when
	 * no key says otherwise */
	if (kind == GB_MIXED || kind == GB_MOE_GELU ||
	    (!arch_int(pn, "expert_feed_forward_length", &ff) &&
		kind == GB_MOE))
		ff = (int64_t)s->ff;
	if (ff <= 0 || ff > 1 << 24)
		return false;
	s->n_exp = (uint64_t)n;
	s->ff_exp = (uint64_t)ff;
	s->n_used = plan_experts_used(g, pn->f);
	s->scale_w = kind == GB_MOE_SIG_SHEXP &&
	    arch_float_set(pn, "expert_weights_scale", true);
	return s->n_used <= s->n_exp &&
	    (kind != GB_MOE_GLM || glm_experts(pn, s));
}

/* deepseek2's MLA widths (struct gb_mla) from its keys; false when one
 * is missing or they disagree with K's row. */
static bool
mla_of(const struct planner *pn, struct shape *s)
{
	struct gb_mla *m = &s->mla;
	uint64_t kl = arch_u32(pn, "attention.key_length_mla");

	m->kvl = pn->g->kv_lora_rank;
	m->rope = arch_u32(pn, "rope.dimension_count");
	m->vdim = arch_u32(pn, "attention.value_length_mla");
	m->qlr = arch_u32(pn, "attention.q_lora_rank");
	m->nope = kl > m->rope ? kl - m->rope : 0;
	return m->kvl != 0 && m->rope != 0 && m->nope != 0 && m->vdim != 0 &&
	    s->hd == m->kvl + m->rope && s->kv == s->hd;
}

/* DSA's indexer (struct gb_dsa) from its keys, where the row says
 * ARCH_DSA, and its cache of keys (GB_LID: a layer's, every stream's);
 * false when a key is missing, or when the rotation llama.cpp makes for
 * the indexer (the largest power of two from 64 dividing the head) is
 * not the head's width: its product with Q and K would not fit. */
static bool
dsa_of(const struct planner *pn, const struct plan *pl, struct shape *s)
{
	struct gb_dsa *d = &s->dsa;
	uint64_t n = 64, cells = pl->ctx_seq;

	memset(d, 0, sizeof *d);
	if (!(arch_row(pn->g)->quirks & ARCH_DSA))
		return true;
	d->nh = arch_u32(pn, "attention.indexer.head_count");
	d->hd = pn->g->indexer_k;
	d->top = arch_u32(pn, "attention.indexer.top_k");
	while (d->hd != 0 && d->hd % (n * 2) == 0 && n < 1 << 24)
		n *= 2;
	d->nrot = n;
	/* the GPU's lightning indexer: heads of 128 alone on Vulkan, and
	 * 32 or 64 of them on CUDA */
	d->dev = d->hd == 128 &&
	    (s->gpu != SC_GPU_CUDA || d->nh == 32 || d->nh == 64);
	if (d->top > cells)
		d->top = cells;
	s->cache[GB_LID].cells = cells;
	s->cache[GB_LID].k_bytes =
	    smul(smul(kv_row_bytes(pl->kv_k, d->hd), cells), s->s);
	s->cache[GB_LID].v_bytes = 0;
	return d->nh != 0 && d->hd == n && d->top != 0 && s->mla.qlr != 0;
}

/* Granite's switches: RoPE unless rope.scaling.finetuned is false; the
 * residual, the logits and the embeddings scaled where their keys are
 * set. */
static void
granite_keys(const struct planner *pn, struct shape *s)
{
	const struct gguf_kv *kv = arch_kv(pn, "rope.scaling.finetuned");

	s->nope = kv != NULL && kv->type == GGUF_BOOL && !kv->val.v.b;
	s->res_scale = arch_float_set(pn, "residual_scale", false);
	s->scale_logits = arch_float_set(pn, "logit_scale", false);
	s->scale_embd = arch_float_set(pn, "embedding_scale", false);
}

/* GB_ROPE_LAYERS: the layers attention.rope_pattern marks 0 (an array
 * of one a layer; absent, every layer is roped). */
static void
rope_layers(const struct planner *pn, struct shape *s)
{
	const struct gguf_kv *kv = arch_kv(pn, "attention.rope_pattern");
	struct gguf_scalar v;
	uint64_t i;

	if (kv == NULL || kv->type != GGUF_ARRAY)
		return;
	for (i = 0; i < kv->count && i < ARCH_MAX_LAYERS; i++)
		if (gguf_arr_get(pn->f, kv, i, &v) == 0)
			s->nope_l[i] = v.type == GGUF_BOOL ? v.v.b == 0 :
							     v.v.u == 0;
}

/* Whether rope.dimension_sections' first two sections are not 0
 * (llama.cpp's use_mrope). */
static bool
mrope_sections(const struct planner *pn)
{
	const struct gguf_kv *kv = arch_kv(pn, "rope.dimension_sections");
	struct gguf_scalar v;
	bool sign;
	uint64_t i;

	if (kv == NULL || kv->type != GGUF_ARRAY || kv->count < 2)
		return false;
	for (i = 0; i < 2; i++) {
		if (gguf_arr_get(pn->f, kv, i, &v) != 0)
			return false;
		sign = v.type == GGUF_INT32 || v.type == GGUF_INT64;
		if (sign ? v.v.i <= 0 : v.v.u == 0)
			return false;
	}
	return true;
}

/* The switches of s the file's keys turn on for a; false where the
 * graph is not built for those keys. */
static bool
key_switches(const struct planner *pn, const struct arch_graph *a,
    uint8_t block, struct shape *s)
{
	s->scale_logits = ((a->scale & GB_SCALE_LOGITS) &&
			      (block != GB_HYBRID || s->scale_logits)) ||
	    ((a->scale & GB_SCALE_LOGITS_KEY) &&
		arch_float_set(pn, "logit_scale", false));
	s->attn_temp = (a->extra & GB_ATTN_TEMP) &&
	    arch_float_set(pn, "attention.temperature_scale", false);
	s->clamp = (a->extra & (GB_OLMO | GB_CLAMP | GB_CLAMP_KQV)) &&
	    arch_float_set(pn, "attention.clamp_kqv", false);
	s->scale_embd = s->scale_embd || (a->scale & GB_SCALE_EMBD) != 0;
	if (a->extra & GB_DEEPSTACK)
		s->deep = arch_u32(pn, "n_deepstack_layers");
	if (a->pos == GB_ROPE_SWA_LEAD)
		s->lead = arch_u32(pn, "leading_dense_block_count");
	if (a->pos == GB_ROPE_SECTIONS && mrope_sections(pn))
		s->n_pos = 4;
	/* layer norms not built where the keys say RMS norms */
	return !((a->extra & GB_LN_UNLESS_RMS) &&
	    arch_float_set(pn, "attention.layer_norm_rms_epsilon", false));
}

/* The row's switches of the residuals and the RoPE: GB_RES_SCALE,
 * GB_ROPE_LAYERS, GB_PAR_NORM2. */
static void
row_switches(const struct planner *pn, const struct arch_graph *a,
    struct shape *s)
{
	int64_t v = 0;

	if (a->extra & GB_RES_SCALE)
		s->res_scale = true;
	if (a->pos == GB_ROPE_LAYERS)
		rope_layers(pn, s);
	if (a->block == GB_PAR_NORM2)
		s->par_res = arch_int(pn, "use_parallel_residual", &v) && v;
}

/* The sliding-window layers' heads where they are not as wide as the
 * others (struct gb_heads), before the caches are sized; their cache's
 * rotations, which llama.cpp decides by the others' width, K's as wide
 * as its own allows (gb_known: a multiple of 64). */
static void
swa_width(const struct model_geom *g, const struct plan *pl, struct shape *s)
{
	uint64_t hd = g->head_k_swa;

	memset(&s->swa, 0, sizeof s->swa);
	s->kv_max = s->kv;
	if (!g->swa || hd == 0 || hd == s->hd)
		return;
	s->swa.hd = hd;
	s->swa.q = smul(hd, g->n_head[0]);
	s->swa.kv = smul(hd, attn_kv_heads(g));
	if (rotation(pl->kv_k, s->hd, true) != 0)
		s->swa.krot = rotation(pl->kv_k, hd, true);
	if (rotation(pl->kv_v, s->hd, false) != 0)
		s->swa.vrot = rotation(pl->kv_v, hd, false);
	if (s->swa.kv > s->kv_max)
		s->kv_max = s->swa.kv;
}

const struct shape *
gb_at_layer(const struct shape *s, const struct model_geom *g, int64_t il,
    struct shape *tmp)
{
	if (s->swa.hd == 0 || il < 0 || il >= ARCH_MAX_LAYERS || !g->is_swa[il])
		return s;
	*tmp = *s;
	tmp->hd = s->swa.hd;
	tmp->q = s->swa.q;
	tmp->kv = s->swa.kv;
	tmp->krot = s->swa.krot;
	tmp->vrot = s->swa.vrot;
	return tmp;
}

/* Each cache's K and V bytes of a layer, from its cells. */
static void
cache_bytes(const struct plan *pl, struct shape *s)
{
	uint64_t cells, kv;
	int c;

	for (c = 0; c < GB_N_CACHES; c++) {
		cells = s->cache[c].cells;
		kv = c == GB_SWA && s->swa.hd ? s->swa.kv : s->kv;
		s->cache[c].k_bytes =
		    smul(smul(kv_row_bytes(pl->kv_k, kv), cells), s->s);
		kv = s->fa ? kv : s->kv_max;
		s->cache[c].v_bytes =
		    smul(smul(kv_row_bytes(pl->kv_v, kv), cells), s->s);
	}
}

/* s cleared, then what the backends' kernels choose by: the GPU, the
 * caches' types, ALiBi, the positions a token. */
static void
shape_backend(const struct plan *pl, const struct arch_graph *a,
    struct shape *s)
{
	memset(s, 0, sizeof *s);
	s->gpu = (int8_t)gb_gpu(pl);
	s->alibi = a->pos == GB_ALIBI;
	s->kt = (uint8_t)pl->kv_k;
	s->vt = (uint8_t)pl->kv_v;
	s->n_pos = a->extra & GB_MROPE ? 4 : 1;
}

bool
gb_shape(const struct planner *pn, const struct plan *pl, uint64_t ub,
    struct shape *s)
{
	const struct model_geom *g = pn->g;
	const struct arch_graph *a = gb_arch_of(g);
	uint8_t block = a->block;
	bool own = block == GB_ENCODER || g->memory == ARCH_MEM_NONE;

	shape_backend(pl, a, s);
	if (block == GB_RECURRENT || block == GB_HYBRID || block == GB_GDN ||
	    block == GB_PAR_SSM || block == GB_KDA) {
		if (g->n_embd == 0 ||
		    !(block == GB_KDA ? kda_of(pn, pl, ub, &s->ssm) :
					ssm_of(pn, pl, ub, &s->ssm)) ||
		    (block == GB_GDN &&
			(s->ssm.hd != s->ssm.ds || s->ssm.nh % s->ssm.ng)))
			return false;
		s->ssm.gpu = s->gpu;
		ub = smul(s->ssm.tok, s->ssm.ns);
		s->e = g->n_embd;
		s->t = s->ts = ub;
		s->s = 1;
		if (block == GB_RECURRENT)
			return true;
	}
	if (block == GB_HYBRID || (a->extra & GB_GRANITE))
		granite_keys(pn, s);
	row_switches(pn, a, s);
	if (!key_switches(pn, a, block, s))
		return false;
	if (ub == 0 || (!own && ub % pl->n_stream != 0) ||
	    (g->swa && pl->swa_cells == 0))
		return false;
	s->hd = plan_head_width(g, false);
	/* a hostile header: no head width, no KV head, no embedding */
	if (s->hd == 0 || attn_kv_heads(g) == 0 || g->n_embd == 0 ||
	    pl->ctx_seq == 0)
		return false;
	s->e = g->n_embd;
	s->q = smul(s->hd, g->n_head[0]);
	s->kv = smul(s->hd, attn_kv_heads(g));
	s->ff = ffn_width(g);
	if (a->extra & GB_FF_HALF)
		s->ff /= 2;
	if (!experts_of(pn, s))
		return false;
	s->t = ub;
	s->s = pl->n_stream;
	s->ts = ub / pl->n_stream;
	s->fa = pl->flash_attention;
	s->iswa = g->swa;
	s->softcap = (a->scale & GB_SOFTCAP_ATTN) != 0;
	swa_width(g, pl, s);
	s->cache[GB_BASE].cells = pl->ctx_seq;
	s->cache[GB_SWA].cells = g->swa ? pl->swa_cells : 0;
	s->cache[GB_LID].cells = 0; /* dsa_of's */
	cache_bytes(pl, s);
	if ((g->mla && !mla_of(pn, s)) || !dsa_of(pn, pl, s))
		return false;
	if (g->mla) /* V: a narrower view of K's rows */
		s->mla.vgap = kv_row_bytes(pl->kv_k, s->hd) -
		    kv_row_bytes(pl->kv_k, s->mla.kvl);
	s->krot = rotation(pl->kv_k, s->hd, true);
	s->vrot = rotation(pl->kv_v, s->hd, false);
	if (own) { /* the ubatch attends to itself */
		s->s = 1;
		s->ts = ub;
		s->cache[GB_BASE].cells = s->cache[GB_SWA].cells = ub;
		s->krot = s->vrot = 0;
	}
	return true;
}
