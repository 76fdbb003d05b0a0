/*
 * plan.c - the memory plan (see plan.h). llama.cpp's arithmetic for the KV
 * cache (memory-and-kv.md §3-§8), SKaiNET's for the forward working set,
 * headroom, budget, auto-quantize rule and suggestions
 * (skainet-semantics.md §5.3, §7). All sums saturate: a hostile header can
 * make a plan absurd, never wrap it into a small number.
 */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "base/units.h"
#include "plan/plan-impl.h"

#define sadd plan_sadd
#define smul plan_smul

static uint64_t
umin(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

uint64_t
plan_pad_ctx(uint64_t ctx)
{
	uint64_t r;

	if (ctx == 0)
		ctx = 1;
	return u64_pad_overflow(ctx, 256, &r) ? UINT64_MAX : r;
}

/* size_swa = PAD(min(n_ctx, n_swa + n_ubatch), 256), one sequence. */
uint64_t
plan_swa_cells(const struct model_geom *g, uint64_t ctx, uint64_t ubatch)
{
	uint64_t n_ctx = plan_pad_ctx(ctx);
	uint64_t n_ubatch = umin(umin(ctx, 2048), ubatch);

	return plan_pad_ctx(umin(n_ctx, sadd(g->n_swa, n_ubatch)));
}

uint64_t
plan_kv_bytes(const struct model_geom *g, enum kv_type kv, uint64_t cells,
    uint64_t swa_cells, bool fa, uint64_t *k_bytes, uint64_t *v_bytes)
{
	return plan_kv_split_bytes(g, kv, kv, cells, swa_cells, fa, k_bytes,
	    v_bytes);
}

/* DSV4's compressed cells: one a ratio of a stream's cells, at least
 * one, padded to 256. */
static uint64_t
dsv4_cells(uint64_t cells, uint32_t ratio)
{
	return plan_pad_ctx(cells / ratio + (cells % ratio != 0));
}

uint64_t
plan_dsv4_layer_kv(const struct model_geom *g, enum kv_type kt,
    uint64_t cells, uint64_t swa_cells, uint32_t il)
{
	uint64_t row = kv_row_bytes(kt, smul(g->head_k_swa, g->n_head_kv[il]));
	uint64_t n = smul(row, swa_cells);	/* the window's */
	uint32_t ratio = g->compress[il];

	if (ratio == 0)
		return n;
	n = sadd(n, smul(row, dsv4_cells(cells, ratio)));
	if (ratio == 4)		/* the indexer's keys, one head */
		n = sadd(n, smul(kv_row_bytes(kt, g->indexer_k),
		    dsv4_cells(cells, ratio)));
	return n;
}

/*
 * A compressor's state: its K and its scores, F32, of 2 x ratio rows of
 * twice the width at ratio 4 (CSA, and the indexer's), ratio rows of the
 * width at 128 (HCA); in the trunk layers.
 */
uint64_t
plan_dsv4_layer_state(const struct model_geom *g, uint32_t il)
{
	uint64_t hk = g->head_k_swa;

	if (il >= g->n_layer - g->n_layer_nextn || g->compress[il] == 0)
		return 0;
	if (g->compress[il] == 128)
		return smul(smul(2 * 4, hk), 128);
	return smul(2 * 4 * 2 * 8, sadd(hk, g->indexer_k));
}

/* DSV4's cache: every layer's (the MTP layers' too), K alone. */
static uint64_t
dsv4_kv(const struct model_geom *g, enum kv_type kt, uint64_t cells,
    uint64_t swa_cells)
{
	uint64_t k = 0;
	uint32_t il;

	for (il = 0; il < g->n_layer && il < ARCH_MAX_LAYERS; il++)
		k = sadd(k, plan_dsv4_layer_kv(g, kt, cells, swa_cells, il));
	return k;
}

uint64_t
plan_kv_split_bytes(const struct model_geom *g, enum kv_type kt,
    enum kv_type vt, uint64_t cells, uint64_t swa_cells, bool fa,
    uint64_t *k_bytes, uint64_t *v_bytes)
{
	uint64_t k = 0, v = 0, vmax = 0;
	uint32_t il, main = g->n_layer - g->n_layer_nextn;

	if (g->n_layer_kv > 0 && g->n_layer_kv < main)
		main = g->n_layer_kv;	/* the others reuse a cache */
	if (g->memory != ARCH_MEM_KV && g->memory != ARCH_MEM_HYBRID) {
		*k_bytes = *v_bytes = 0;
		return 0;
	}
	if (g->dsv4) {
		*k_bytes = dsv4_kv(g, kt, cells, swa_cells);
		*v_bytes = 0;
		return *k_bytes;
	}
	/* Without flash attention V is stored transposed, every layer as
	 * wide as the widest (llama.cpp's v_trans). */
	for (il = 0; !fa && il < g->n_layer; il++) {
		bool swa = g->swa && g->is_swa[il];
		uint64_t w = smul(swa ? g->head_v_swa : g->head_v,
		    g->n_head_kv[il]);

		if (w > vmax)
			vmax = w;
	}
	/* Recurrent layers, MTP layers and reusing layers have no cache. */
	for (il = 0; il < main; il++) {
		bool swa = g->swa && g->is_swa[il];
		uint64_t c = swa ? swa_cells : cells;
		uint64_t kw = smul(swa ? g->head_k_swa : g->head_k,
		    g->n_head_kv[il]);
		uint64_t vw = fa ? smul(swa ? g->head_v_swa : g->head_v,
		    g->n_head_kv[il]) : vmax;

		if (g->is_recr[il] ? !g->recr_kv : g->memory ==
		    ARCH_MEM_HYBRID && g->n_head_kv[il] == 0)
			continue;	/* a hybrid's layer without a cache */
		k = sadd(k, smul(kv_row_bytes(kt, kw), c));
		if (g->indexer[il])	/* DSA's indexer keys, no V */
			k = sadd(k, smul(kv_row_bytes(kt, g->indexer_k), c));
		if (g->indexer[il] && g->indexer_v) /* MSA's, one V head */
			v = sadd(v, smul(kv_row_bytes(vt, g->head_v), c));
		if (!g->mla)	/* MLA allocates no V */
			v = sadd(v, smul(kv_row_bytes(vt, vw), c));
	}
	if (g->router_kv) {	/* the router's one head, past the blocks */
		k = sadd(k, smul(kv_row_bytes(kt, g->head_k), cells));
		v = sadd(v, smul(kv_row_bytes(vt, fa ? g->head_v : vmax),
		    cells));
	}
	*k_bytes = k;
	*v_bytes = v;
	return sadd(k, v);
}

/*
 * One recurrent layer's state for one sequence, in floats: r, the
 * convolution's history, and s, the scan's state (llama.cpp's n_embd_r
 * and n_embd_s). Mamba: (d_conv - 1) x (d_inner + 2 n_group d_state) and
 * d_state x d_inner; lfm2: (l_cache - 1) x n_embd; RWKV: token_shift_count
 * x n_embd and n_embd x wkv.head_size; KDA (kimi-linear): the convolutions
 * of Q, K and V, 3 (d_conv - 1) x d (d_conv 4 when unset), and d x
 * head_dim, d being n_head x head_dim; linear attention: a square a head,
 * no convolution. False (both 0) when g has no recurrent state.
 */
bool
plan_state_rs(const struct model_geom *g, uint64_t *r, uint64_t *s)
{
	uint64_t d = smul(g->n_head[0], g->kda_head_dim);

	*r = *s = 0;
	if (g->wkv_head_size > 0) {
		*r = smul(g->token_shift_count, g->n_embd);
		*s = smul(g->n_embd, g->wkv_head_size);
	} else if (g->shortconv_l_cache > 0) {
		*r = smul(g->shortconv_l_cache - 1, g->n_embd);
		*s = smul(g->ssm_d_state, g->ssm_d_inner);
	} else if (g->kda_head_dim > 0) {
		*r = smul(smul(3, g->ssm_d_conv > 0 ? g->ssm_d_conv - 1 : 3),
		    d);
		*s = smul(d, g->kda_head_dim);
	} else if (g->la_head_dim > 0) {
		*s = smul(smul(g->la_head_dim, g->la_head_dim), g->n_head[0]);
	} else if (g->ssm_d_conv > 0) {
		*r = smul(g->ssm_d_conv - 1, sadd(g->ssm_d_inner,
		    smul(smul(2, g->ssm_n_group), g->ssm_d_state)));
		*s = smul(g->ssm_d_state, g->ssm_d_inner);
	} else {
		return false;
	}
	return true;
}

/* Per recurrent layer: F32 [n_embd_r + n_embd_s] for one sequence. */
uint64_t
plan_state_bytes(const struct model_geom *g)
{
	uint64_t r, s, n = 0;
	uint32_t il;

	for (il = 0; g->dsv4 && il < g->n_layer && il < ARCH_MAX_LAYERS; il++)
		n = sadd(n, plan_dsv4_layer_state(g, il));
	if (g->dsv4)
		return n;
	if (g->memory == ARCH_MEM_RECURRENT)
		n = g->n_layer - g->n_layer_nextn;
	else if (g->memory == ARCH_MEM_HYBRID)
		for (il = 0; il < g->n_layer; il++)
			n += g->is_recr[il];
	if (!plan_state_rs(g, &r, &s))
		return 0;
	return smul(smul(4, sadd(r, s)), n);
}

/* SKaiNET: T x (4 emb + 3 ffn + heads x ctx) x 4 + vocab x 4. */
uint64_t
plan_forward_bytes(const struct model_geom *g, uint64_t ctx, uint64_t chunk)
{
	uint64_t t = umin(chunk, ctx);
	uint64_t per_token = sadd(sadd(smul(4, g->n_embd), smul(3, g->n_ff[0])),
	    smul(g->n_head[0], ctx));

	return sadd(smul(smul(t, per_token), 4), smul(g->n_vocab, 4));
}

/* ---- one plan at a given context and cache type ------------------------- */

static enum kv_type
alternate_kv(const struct profile *p, enum kv_type kv)
{
	if (kv != p->kv_quantized)
		return p->kv_quantized;
	return p->kv_cache != kv ? p->kv_cache : KV_F16;
}

/* Weights as resolved: a kept weight at its stored bytes, mapped when the
 * profile maps weights; a converted one at its new size, on the heap. */
static void
plan_weights(const struct planner *pn, struct plan *pl)
{
	size_t i;

	for (i = 0; i < pn->f->tensors_n; i++) {
		const struct gguf_tensor *t = &pn->f->tensors[i];
		const struct weight_form *w = pn->forms ? &pn->forms[i] : NULL;
		uint64_t n = 1, res;
		bool mapped;
		int j;

		if (!t->size_ok) {
			pl->tensors_unsized++;
			continue;
		}
		if (w != NULL && w->refused)
			w = NULL;	/* priced as stored: see resolve.c */
		res = w ? w->resident_bytes : t->nbytes;
		mapped = w ? (w->encoding == FORM_KEEP &&
		    w->residency == WEIGHTS_MAPPED) :
		    pn->p->weights == WEIGHTS_MAPPED;
		pl->weights = sadd(pl->weights, res);
		pl->weights_as_stored = sadd(pl->weights_as_stored, t->nbytes);
		if (mapped)
			pl->weights_mapped = sadd(pl->weights_mapped, res);
		if (w != NULL && w->encoding != FORM_KEEP)
			pl->converted_stored = sadd(pl->converted_stored,
			    t->nbytes);
		for (j = 0; j < GGUF_MAX_DIMS; j++)
			n = smul(n, (uint64_t)t->ne[j]);
		pl->n_params = sadd(pl->n_params, n);
	}
	pl->weights_heap = pl->weights - pl->weights_mapped;
	pl->conversion = pl->weights > pl->weights_as_stored ?
	    pl->weights - pl->weights_as_stored : 0;
}

static void
plan_at(const struct planner *pn, uint64_t ctx, enum kv_type kv,
    struct plan *pl)
{
	const struct model_geom *g = pn->g;
	const struct profile *p = pn->p;
	uint64_t alt_k, alt_v;

	if (p->runtime == RUNTIME_LLAMA_CPP) {
		pl->kv_k = kv;
		plan_llama_at(pn, ctx, pl);
		return;
	}
	pl->ctx = ctx;
	pl->ctx_cells = plan_pad_ctx(ctx);
	pl->kv_k = pl->kv_v = kv;	/* one type for K and V */
	pl->flash_attention = p->flash_attention;
	pl->swa_cells = g->swa ? plan_swa_cells(g, ctx, p->ubatch) : 0;
	pl->kv_alt = alternate_kv(p, kv);
	if (g->plannable) {
		pl->kv_bytes = plan_kv_bytes(g, kv, pl->ctx_cells,
		    pl->swa_cells, p->flash_attention, &pl->k_bytes,
		    &pl->v_bytes);
		pl->kv_alt_bytes = plan_kv_bytes(g, pl->kv_alt, pl->ctx_cells,
		    pl->swa_cells, p->flash_attention, &alt_k, &alt_v);
		pl->state_bytes = plan_state_bytes(g);
		pl->forward = plan_forward_bytes(g, pl->ctx_cells,
		    p->prefill_chunk);
	} else {
		pl->kv_bytes = pl->k_bytes = pl->v_bytes = 0;
		pl->kv_alt_bytes = pl->state_bytes = pl->forward = 0;
	}
	pl->headroom = PLAN_HEADROOM;
	pl->total = sadd(sadd(sadd(sadd(pl->weights, pl->kv_bytes),
	    pl->state_bytes), pl->forward), pl->headroom);
	pl->budgeted = pl->total - pl->weights_mapped;
	pl->memory = p->memory;
	pl->reserve = p->reserve;
	/* profile.c: reserve <= memory */
	pl->budget = p->memory - p->reserve;
	pl->fits_budget = pl->budgeted <= pl->budget;
	pl->fits_memory = pl->total <= pl->memory;
	pl->fits = pl->fits_budget && pl->fits_memory;
	if (!pl->fits_budget)
		pl->over = pl->budgeted - pl->budget;
	else
		pl->over = pl->fits_memory ? 0 : pl->total - pl->memory;
}

/* The quantity that is over its limit (budgeted, or total vs memory). */
static uint64_t
plan_need(const struct plan *base, const struct plan *pl)
{
	if (base->device_over && base->fits_budget && base->fits_memory)
		return pl->dev[1].total_bytes;
	return !base->fits_budget ? pl->budgeted : pl->total;
}

/*
 * A head width a quantized llama.cpp cache cannot split into blocks, or 0.
 * With flash attention every layer's K and V head width must divide; without
 * it the whole row (width x KV heads) must.
 */
static uint32_t
kv_bad_width(const struct model_geom *g, enum kv_type kv, bool fa)
{
	const struct kv_type_info *k = kv_type_info(kv);
	uint32_t w[4] = { g->head_k, g->head_v, g->head_k_swa, g->head_v_swa };
	uint32_t il, i;

	if (!k->quantized || kv == KV_TURBOQUANT4 || !g->plannable ||
	    (g->memory != ARCH_MEM_KV && g->memory != ARCH_MEM_HYBRID))
		return 0;
	for (i = 0; i < (g->swa ? 4u : 2u); i++) {
		if (fa && w[i] % k->blck != 0)
			return w[i];
		for (il = 0; !fa && il < g->n_layer; il++)
			if ((uint64_t)w[i] * g->n_head_kv[il] % k->blck != 0)
				return w[i];
	}
	return 0;
}

/* A cache type llama.cpp (or SKaiNET) can create for this model: a
 * quantized V cache needs flash attention, and the blocks must divide. */
static bool
kv_allowed(const struct planner *pn, enum kv_type kv)
{
	const struct profile *p = pn->p;

	if (!p->flash_attention && kv_type_info(kv)->quantized &&
	    kv != KV_TURBOQUANT4)
		return false;
	return kv_bad_width(pn->g, kv, p->flash_attention) == 0;
}

static void
add_note(struct plan *pl, char *text)
{
	if (pl->n_notes < PLAN_MAX_NOTES)
		pl->notes[pl->n_notes++] = text;
	else
		free(text);
}

/*
 * What a plan beside a GPU assumed: CUDA takes ggml-cuda's rules as read
 * in llama.cpp's source, not measured; another backend measured nowhere
 * (Metal, ...) Vulkan's rules; and a device whose own footprint
 * (device_overhead) the profile does not state has only device_reserve's
 * margin for it.
 */
static void
gpu_notes(const struct planner *pn, struct plan *pl)
{
	const char *b = pn->p->backend;

	if (pl->n_dev < 2)
		return;
	if (strcmp(b, "cuda") == 0 && pl->compute_placed)
		add_note(pl, xasprintf("%s is planned by ggml-cuda's rules as "
		    "read in llama.cpp v0.5.0's source: not measured on a GPU",
		    pl->dev[1].name));
	else if (strcmp(b, "cuda") == 0)
		add_note(pl, xasprintf("%s's buffers follow ggml-cuda's rules "
		    "as read in llama.cpp v0.5.0's source, its compute the "
		    "law fitted on Vulkan: not measured on a GPU",
		    pl->dev[1].name));
	else if (strcmp(b, "vulkan") != 0)
		add_note(pl, xasprintf("%s is planned by the rules measured on "
		    "Vulkan: llama.cpp's %s backend is not measured",
		    pl->dev[1].name, b));
	if (pl->overhead_unknown)
		add_note(pl, xasprintf("%s's own memory (the %s runtime's "
		    "context, workspace and pool) is not counted: the profile "
		    "states no device_overhead", pl->dev[1].name, b));
}

static struct plan_suggestion *
add_sugg(struct plan *pl, char *text, char *args, uint64_t saving)
{
	struct plan_suggestion *s;

	if (pl->n_sugg == PLAN_MAX_SUGGESTIONS || saving == 0) {
		free(text);
		free(args);
		return NULL;
	}
	s = &pl->sugg[pl->n_sugg++];
	s->text = text;
	s->args = args;
	s->saving = saving;
	return s;
}

/* A suggestion re-planned as t; for llama.cpp at t's parameters, and
 * measured when t's compute buffers are llama.cpp's; not made when
 * llama.cpp refused those parameters. */
static void
add_planned_sugg(const struct planner *pn, struct plan *pl,
    const struct plan *t, char *text, char *args, uint64_t saving)
{
	const struct plan_measured *m;
	struct plan_suggestion *s;

	if (pn->p->runtime != RUNTIME_LLAMA_CPP) {
		add_sugg(pl, text, args, saving);
		return;
	}
	if ((m = plan_measured_at(pn, t)) != NULL && m->refused) {
		free(text);
		free(args);
		return;
	}
	if ((s = add_sugg(pl, text, args, saving)) == NULL)
		return;
	s->has_at = true;
	plan_params_of(t, &s->at);
	s->measured = t->compute_measured;
}

/* Copy the numbers of alt into pl, keeping pl's suggestions and notes. */
static void
plan_adopt(struct plan *pl, const struct plan *alt)
{
	struct plan keep = *pl;

	*pl = *alt;
	memcpy(pl->sugg, keep.sugg, sizeof pl->sugg);
	pl->n_sugg = keep.n_sugg;
	memcpy(pl->notes, keep.notes, sizeof pl->notes);
	pl->n_notes = keep.n_notes;
}

static void
auto_quantize(const struct planner *pn, struct plan *pl)
{
	const struct profile *p = pn->p;
	struct plan q;
	double share;
	char a[32];

	if (pl->kv_k == p->kv_quantized || !kv_allowed(pn, p->kv_quantized))
		return;
	share = pl->budget ? (double)pl->budgeted / (double)pl->budget : 1e300;
	if (!(share > p->kv_auto_quantize_above))
		return;
	q = *pl;
	plan_at(pn, pl->ctx, p->kv_quantized, &q);
	if (q.budgeted >= pl->budgeted)
		return;
	add_note(pl, xasprintf("KV cache switched to %s: the plan needed "
	    "%.1f%% of the budget (over %.1f%%), saving %s",
	    kv_type_info(q.kv_k)->name, share * 100.0,
	    p->kv_auto_quantize_above * 100.0,
	    format_size(pl->kv_bytes - q.kv_bytes, a, sizeof a)));
	q.kv_switched = true;
	q.kv_before = pl->kv_k;
	q.share_before = share;
	plan_adopt(pl, &q);
}

/* The largest context that fits, or 0. Plans are monotone in ctx. */
static uint64_t
largest_fitting_ctx(const struct planner *pn, const struct plan *base)
{
	uint64_t lo = 1, hi = base->ctx - 1, best = 0;
	struct plan t;

	while (lo <= hi && hi > 0) {
		uint64_t mid = lo + (hi - lo) / 2;

		t = *base;
		plan_at(pn, mid, base->kv_k, &t);
		if (t.fits) {
			best = mid;
			lo = mid + 1;
		} else {
			hi = mid - 1;
		}
	}
	/* Padding makes every ctx up to the next multiple of 256 equal. */
	return best;
}

/* The profile's quantized cache type, then q4_0 when it saves more. */
static void
suggest_kv(const struct planner *pn, struct plan *pl)
{
	enum kv_type cand[2] = { pn->p->kv_quantized, KV_Q4_0 };
	uint64_t need = plan_need(pl, pl), best = need;
	struct plan t;
	unsigned i;

	for (i = 0; i < 2; i++) {
		if (cand[i] == pl->kv_k || !kv_allowed(pn, cand[i]))
			continue;
		t = *pl;
		plan_at(pn, pl->ctx, cand[i], &t);
		if (plan_need(pl, &t) >= best)
			continue;
		best = plan_need(pl, &t);
		add_sugg(pl, xasprintf("--kv %s", kv_type_info(cand[i])->name),
		    xasprintf("--kv %s", kv_type_info(cand[i])->name),
		    need - best);
	}
}

static void
suggest_ctx(const struct planner *pn, struct plan *pl)
{
	uint64_t half = pl->ctx / 2, m;
	struct plan t;

	if (half >= 1 && half < pl->ctx) {
		t = *pl;
		plan_at(pn, half, pl->kv_k, &t);
		if (plan_need(pl, &t) < plan_need(pl, pl))
			add_planned_sugg(pn, pl, &t,
			    xasprintf("--ctx %" PRIu64, half),
			    xasprintf("--ctx %" PRIu64, half),
			    plan_need(pl, pl) - plan_need(pl, &t));
	}
	m = largest_fitting_ctx(pn, pl);
	if (m > 0 && m != half) {
		t = *pl;
		plan_at(pn, m, pl->kv_k, &t);
		add_planned_sugg(pn, pl, &t, xasprintf("--ctx %" PRIu64 " (the "
		    "largest context that fits)", m),
		    xasprintf("--ctx %" PRIu64, m),
		    plan_need(pl, pl) - plan_need(pl, &t));
	}
}

/*
 * Weights re-encoded at load: kernels for the stored encoding would keep
 * them as stored (and mapped, when the profile maps weights).
 */
static void
suggest_kernels(const struct planner *pn, struct plan *pl)
{
	uint64_t total, mapped;

	if (pl->conversion == 0)
		return;
	total = pl->total - pl->conversion;
	mapped = pl->weights_mapped + (pn->p->weights == WEIGHTS_MAPPED ?
	    pl->converted_stored : 0);
	add_sugg(pl, xstrdup("a build with kernels for the stored encoding: "
	    "loading it as-is instead of re-encoding"), NULL,
	    !pl->fits_budget ? pl->budgeted - (total - mapped) :
	    pl->total - total);
}

/* Smaller weights help unless they are mapped and only the heap is over. */
static void
suggest_weights(struct plan *pl)
{
	char a[32], b[32], c[32];
	uint64_t target;

	if (!pl->fits_budget && pl->weights_heap == 0)
		return;
	if (pl->over >= pl->weights || pl->n_params == 0) {
		add_sugg(pl, xasprintf("no quantization of these weights "
		    "fits: the rest of the plan alone is %s over", format_size(
		    pl->over - (pl->over >= pl->weights ? pl->weights : 0), a,
		    sizeof a)), NULL, pl->weights);
		return;
	}
	target = pl->weights - pl->over;
	add_sugg(pl, xasprintf("a smaller quantization: weights must shrink "
	    "by %s, from %s to at most %s (x%.2f, about %.1f bits per weight; "
	    "now %.1f)", format_size(pl->over, a, sizeof a),
	    format_size(pl->weights, b, sizeof b),
	    format_size(target, c, sizeof c),
	    (double)target / (double)pl->weights,
	    8.0 * (double)target / (double)pl->n_params,
	    8.0 * (double)pl->weights / (double)pl->n_params), NULL, pl->over);
}

/* llama.cpp: q8_0 then q4_0 for K, and V too when flash attention is on. */
static void
suggest_llama_kv(const struct planner *pn, struct plan *pl)
{
	enum kv_type cand[2] = { KV_Q8_0, KV_Q4_0 };
	uint64_t need = plan_need(pl, pl), best = need;
	struct plan t;
	unsigned i;

	for (i = 0; i < 2; i++) {
		const char *n = kv_type_info(cand[i])->name;

		t = *pl;
		t.kv_k = cand[i];
		if (pl->flash_attention)
			t.kv_v = cand[i];
		if (kv_bad_width(pn->g, t.kv_k, pl->flash_attention) != 0 ||
		    kv_bad_width(pn->g, t.kv_v, pl->flash_attention) != 0)
			continue;
		plan_llama_at(pn, pl->ctx, &t);
		if (plan_need(pl, &t) >= best)
			continue;
		best = plan_need(pl, &t);
		add_planned_sugg(pn, pl, &t, pl->flash_attention ?
		    xasprintf("-ctk %s -ctv %s", n, n) : xasprintf("-ctk %s (a "
		    "quantized V needs flash attention)", n),
		    pl->flash_attention ? xasprintf("-ctk %s -ctv %s", n, n) :
		    xasprintf("-ctk %s", n), need - best);
	}
}

/* t (a copy of pl with another placement) planned again at pl's
 * context: its weights, then the rest. */
static void
replan(const struct planner *pn, const struct plan *pl, struct plan *t)
{
	memset(t->dev, 0, sizeof t->dev);
	t->weights = t->n_params = 0;
	t->tensors_unsized = t->n_repacked = 0;
	plan_llama_weights(pn, t);
	plan_llama_at(pn, pl->ctx, t);
}

/* A GPU over its memory: the most layers that fit on it (-ngl). */
static void
suggest_ngl(const struct planner *pn, struct plan *pl)
{
	struct plan t;
	int64_t n;

	if (!pl->device_over || pl->ngl <= 0)
		return;
	for (n = pl->ngl - 1; n >= 0; n--) {
		t = *pl;
		t.ngl = n;
		replan(pn, pl, &t);
		if (!t.device_over)
			break;
	}
	if (n >= 0 && t.fits)
		add_planned_sugg(pn, pl, &t, xasprintf("-ngl %" PRId64 " (the "
		    "most layers that fit on %s)", n, pl->dev[1].name),
		    xasprintf("-ngl %" PRId64, n), pl->over);
}

/*
 * A GPU over its memory with a MoE model: the fewest layers whose expert
 * weights, kept on the CPU (--n-cpu-moe), let the rest fit on it, as
 * llama.cpp's --fit moves experts before whole layers (common/fit.cpp).
 */
static void
suggest_ncmoe(const struct planner *pn, struct plan *pl)
{
	struct plan t;
	int64_t n;

	if (!pl->device_over || pl->ngl <= 0 || pl->n_dev < 2)
		return;
	for (n = pl->n_cpu_moe + 1; n <= (int64_t)pn->g->n_layer; n++) {
		t = *pl;
		t.n_cpu_moe = n;
		replan(pn, pl, &t);
		if (t.n_cpu_moe_tensors == 0)
			return;	/* no expert FFN */
		if (!t.device_over)
			break;
	}
	if (n <= (int64_t)pn->g->n_layer && t.fits)
		add_planned_sugg(pn, pl, &t, xasprintf("-ncmoe %" PRId64
		    " (the first %" PRId64 " layers' experts on the CPU: the "
		    "rest fits on %s)", n, n, pl->dev[1].name),
		    xasprintf("-ncmoe %" PRId64, n), pl->over);
}

void
plan_llama_suggest(const struct planner *pn, struct plan *pl)
{
	suggest_llama_kv(pn, pl);
	suggest_ctx(pn, pl);
	suggest_ncmoe(pn, pl);
	suggest_ngl(pn, pl);
	suggest_weights(pl);
}

void
plan_make(const struct model_geom *g, const struct gguf_file *f,
    const struct profile *p, const struct plan_request *rq,
    const struct weight_form *forms, struct plan *pl)
{
	plan_make_probed(g, f, p, rq, forms, NULL, pl);
}

void
plan_make_probed(const struct model_geom *g, const struct gguf_file *f,
    const struct profile *p, const struct plan_request *rq,
    const struct weight_form *forms, const struct plan_probe *probe,
    struct plan *pl)
{
	struct planner pn = { g, f, p, rq, forms, probe };
	uint64_t ctx;

	memset(pl, 0, sizeof *pl);
	pl->runtime = p->runtime;
	if (f->tensors_n == 0)
		return;
	/* The profile's context is the longest the device is planned for;
	 * a model trained for less is planned at its own. */
	ctx = rq->ctx;
	if (ctx == 0 && p->context && g->n_ctx_train)
		ctx = p->context < g->n_ctx_train ? p->context : g->n_ctx_train;
	if (ctx == 0)
		ctx = p->context ? p->context : g->n_ctx_train ?
		    g->n_ctx_train : PLAN_CTX_FALLBACK;
	if (p->runtime == RUNTIME_LLAMA_CPP) {
		plan_llama_setup(&pn, pl);
		plan_llama_weights(&pn, pl);
		plan_llama_companions(&pn, pl);
		plan_at(&pn, ctx, pl->kv_k, pl);
		pl->valid = true;
		gpu_notes(&pn, pl);
		pl->kv_bad_type = pl->kv_k;
		pl->kv_bad_width = kv_bad_width(g, pl->kv_k,
		    pl->flash_attention);
		if (pl->kv_bad_width == 0) {
			pl->kv_bad_type = pl->kv_v;
			pl->kv_bad_width = kv_bad_width(g, pl->kv_v,
			    pl->flash_attention);
		}
		pl->kv_block_mismatch = pl->kv_bad_width != 0;
		if (!pl->fits)
			plan_llama_suggest(&pn, pl);
		return;
	}
	plan_weights(&pn, pl);
	if (rq->n_companions > 0)
		add_note(pl, xstrdup("companions (--mmproj, --lora, "
		    "--control-vector, --draft) are planned for llama.cpp "
		    "profiles only"));
	plan_at(&pn, ctx, rq->kv_set ? rq->kv : p->kv_cache, pl);
	pl->kv_explicit = rq->kv_set;
	pl->valid = true;
	if (!rq->kv_set)
		auto_quantize(&pn, pl);
	if (pl->weights_mapped > 0)
		add_note(pl, xstrdup("weights are mapped: they page against "
		    "device memory and are not charged to the budget"));
	pl->kv_bad_type = pl->kv_k;
	pl->kv_bad_width = kv_bad_width(g, pl->kv_k, p->flash_attention);
	pl->kv_block_mismatch = pl->kv_bad_width != 0;
	if (pl->fits)
		return;
	suggest_kv(&pn, pl);
	suggest_ctx(&pn, pl);
	suggest_kernels(&pn, pl);
	suggest_weights(pl);
}

void
plan_free(struct plan *pl)
{
	size_t i;

	for (i = 0; i < pl->n_sugg; i++) {
		free(pl->sugg[i].text);
		free(pl->sugg[i].args);
	}
	for (i = 0; i < pl->n_notes; i++)
		free(pl->notes[i]);
	for (i = 0; i < pl->n_comp; i++)
		free(pl->comp[i].path);
	memset(pl, 0, sizeof *pl);
}

const struct plan_suggestion *
plan_best(const struct plan *pl)
{
	const struct plan_suggestion *best = NULL;
	size_t i;

	for (i = 0; i < pl->n_sugg; i++)
		if (pl->sugg[i].saving >= pl->over)
			return &pl->sugg[i];
	for (i = 0; i < pl->n_sugg; i++)
		if (best == NULL || pl->sugg[i].saving > best->saving)
			best = &pl->sugg[i];
	return best;
}
