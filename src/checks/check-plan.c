/*
 * check-plan.c - P family: the memory plan's verdict. Weights, KV cache or
 * the total over the profile's budget (each message with the numbers and
 * the best suggestion), a context beyond the trained one, an estimate the
 * planner could not complete, and cache settings llama.cpp refuses (or,
 * with --measure, the runtime's llama.cpp refused).
 */
#include "config.h"

#include <assert.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "base/units.h"
#include "checks/checks.h"
#include "runtime/runtime.h"

static void
check_incomplete(const struct check_ctx *c, struct diag_list *dl)
{
	const struct model_geom *g = c->geom;
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	for (i = 0; i < g->n_missing; i++)
		strbuf_addf(&sb, "%s%s", i ? "; " : "", g->missing[i]);
	if (c->plan->tensors_unsized > 0)
		strbuf_addf(&sb, "%s%zu tensors of unknown size (not counted)",
		    sb.len ? "; " : "", c->plan->tensors_unsized);
	if (sb.len > 0)
		diag_add(dl, "P005", 0, SUBJECT_NONE, NULL, 0, "memory "
		    "estimate incomplete: missing %s", strbuf_cstr(&sb));
	strbuf_free(&sb);
}

/* P004, P006 to P008; whether a refusal of llama.cpp's was reported. */
static bool
check_cache_settings(const struct check_ctx *c, struct diag_list *dl)
{
	const struct plan *pl = c->plan;
	const struct model_geom *g = c->geom;
	const char *kv = kv_type_info(pl->kv_v)->name;
	bool refused = false;
	char key[96];

	snprintf(key, sizeof key, "%s.context_length", g->arch);
	if (g->n_ctx_train > 0 && pl->ctx > g->n_ctx_train)
		diag_note(diag_add(dl, "P004", g->ctx_key_offset,
		    SUBJECT_KEY, key, strlen(key), "context %" PRIu64 " is "
		    "beyond the trained context %" PRIu32, pl->ctx,
		    g->n_ctx_train), "quality degrades unless RoPE scaling is "
		    "configured");
	if ((g->memory == ARCH_MEM_KV || g->memory == ARCH_MEM_HYBRID) &&
	    kv_type_info(pl->kv_v)->quantized && pl->kv_k != KV_TURBOQUANT4 &&
	    !pl->flash_attention && (refused = true))
		diag_note(diag_add(dl, "P006", 0, SUBJECT_NONE, NULL, 0, "a "
		    "%s V cache needs flash attention, which %s%s turns off",
		    kv, c->profile->flash_attention ? "-fa off" : "profile ",
		    c->profile->flash_attention ? "" : c->profile->name),
		    "llama.cpp refuses to create the context");
	if (g->mla && pl->runtime == RUNTIME_LLAMA_CPP &&
	    pl->kv_k != pl->kv_v && (refused = true))
		diag_note(diag_add(dl, "P006", 0, SUBJECT_NONE, NULL, 0, "this "
		    "MLA model needs the same K and V cache types (here %s and "
		    "%s)", kv_type_info(pl->kv_k)->name, kv), "llama.cpp "
		    "refuses to create the context");
	if (pl->kv_block_mismatch && (refused = true))
		diag_note(diag_add(dl, "P008", 0, SUBJECT_NONE, NULL, 0, "head "
		    "width %" PRIu32 " is not a multiple of %s's block of %"
		    PRIu32, pl->kv_bad_width,
		    kv_type_info(pl->kv_bad_type)->name,
		    kv_type_info(pl->kv_bad_type)->blck), "llama.cpp refuses "
		    "to create the cache");
	if (pl->kv_switched)
		diag_add(dl, "P007", 0, SUBJECT_NONE, NULL, 0, "%s",
		    pl->notes[0]);
	return refused;
}

/* P012: --measure's load or context refused (or crashed) by the runtime's
 * llama.cpp. */
static void
check_measured(const struct check_ctx *c, struct diag_list *dl)
{
	const struct rt_llama *m = c->measure != NULL ? &c->measure->said :
							 NULL;
	const char *v = m != NULL && m->version != NULL ? m->version : "";

	if (m != NULL && m->verdict == RT_LLAMA_REFUSED)
		diag_note(diag_add(dl, "P012", 0, SUBJECT_NONE, NULL, 0, "the "
		    "runtime's llama.cpp %s refuses the model or its context "
		    "at the plan's parameters", v), "it says: %s", m->text);
	else if (m != NULL && m->verdict == RT_LLAMA_DIED)
		diag_note(diag_add(dl, "P012", 0, SUBJECT_NONE, NULL, 0, "the "
		    "runtime's llama.cpp %s did not finish the model's load "
		    "and context at the plan's parameters", v), "%s", m->text);
}

/* d's fix, the plan's best suggestion: "--kv q8_0 (saves 1.2 GiB)". */
static void
add_best(struct diag *d, const struct plan *pl)
{
	const struct plan_suggestion *s = plan_best(pl);
	char a[32];

	if (s != NULL)
		diag_fix(d, "%s (saves %s%s)", s->text, format_size(s->saving,
		    a, sizeof a), s->measured ? ", measured" : "");
}

static void
check_fit(const struct check_ctx *c, struct diag_list *dl)
{
	const struct plan *pl = c->plan;
	struct strbuf sb = STRBUF_INIT;
	char a[32], b[32], d[32], e[32];
	uint64_t cache = pl->kv_bytes + pl->state_bytes;
	const char *code;
	struct diag *note;

	if (pl->fits)
		return;
	format_size(pl->budget, b, sizeof b);
	format_size(pl->memory, d, sizeof d);
	if (pl->weights_heap > pl->budget ||
	    (pl->weights_mapped > 0 && pl->weights > pl->memory)) {
		code = "P001";
		strbuf_addf(&sb, "weights need %s; %s", format_size(pl->weights,
		    a, sizeof a), pl->weights_mapped ? "device memory is " :
		    "the budget is ");
		strbuf_adds(&sb, pl->weights_mapped ? d : b);
	} else if (pl->device_over && pl->fits_budget && pl->fits_memory) {
		code = "P003";
		strbuf_addf(&sb, "%s needs %s; it has %s", pl->dev[1].name,
		    format_size(pl->dev[1].total_bytes, a, sizeof a),
		    format_size(pl->dev[1].memory_bytes, e, sizeof e));
	} else if (cache > pl->budget) {
		code = "P002";
		strbuf_addf(&sb, "KV cache at ctx %" PRIu64 " (%s) needs %s; "
		    "the budget is %s", pl->ctx, kv_type_info(pl->kv_k)->name,
		    format_size(cache, a, sizeof a), b);
	} else {
		code = "P003";
		strbuf_addf(&sb, "the plan needs %s%s; %s is %s",
		    format_size(pl->fits_budget ? pl->total : pl->budgeted, a,
		    sizeof a), pl->fits_budget ? " of device memory" : "",
		    pl->fits_budget ? "the device has" : "the budget",
		    pl->fits_budget ? d : b);
	}
	/* P003 compares the plan with the limit it passes; P001 and P002 a
	 * part of it, so they say what the plan's excess is of */
	format_size(pl->over, a, sizeof a);
	if (strcmp(code, "P003") == 0)
		strbuf_addf(&sb, ": %s over", a);
	else if (!pl->fits_budget)
		strbuf_addf(&sb, " (the whole plan: +%s over the %s budget)", a,
		    b);
	else
		strbuf_addf(&sb, " (the whole plan: +%s over the %s of device "
		    "memory)", a, d);
	note = diag_add(dl, code, 0, SUBJECT_NONE, NULL, 0, "%s",
	    strbuf_cstr(&sb));
	diag_note(note, "profile %s: %s memory, %s reserve", c->profile->name,
	    d, format_size(pl->reserve, e, sizeof e));
	add_best(note, pl);
	strbuf_free(&sb);
}

/*
 * P013: a layer's K or V cache on the GPU is one tensor larger than the
 * largest the device takes (its max_alloc, stated or probed). The fix
 * names the longest context whose cache fits: the tensor grows with the
 * cells, rounded to llama.cpp's 256.
 */
static void
check_cache_tensor(const struct check_ctx *c, struct diag_list *dl)
{
	const struct plan *pl = c->plan;
	uint64_t cells = pl->ctx_seq * pl->n_stream, per, fit;
	char a[32], b[32];

	if (pl->runtime != RUNTIME_LLAMA_CPP || pl->n_dev < 2 ||
	    pl->max_tensor == 0 || pl->cache_tensor <= pl->max_tensor ||
	    cells == 0)
		return;
	per = pl->cache_tensor / cells;
	fit = per > 0 ? pl->max_tensor / per / 256 * 256 : 0;
	diag_fix(diag_note(diag_add(dl, "P013", 0, SUBJECT_NONE, NULL, 0,
	    "cache_%s_l%" PRIu32 " is %s (%" PRIu64 " bytes), beyond %s's "
	    "largest tensor (%s, %" PRIu64 ")", pl->cache_tensor_v ? "v" :
	    "k", pl->cache_tensor_layer, format_size(pl->cache_tensor, a,
	    sizeof a), pl->cache_tensor, pl->dev[1].name,
	    format_size(pl->max_tensor, b, sizeof b), pl->max_tensor),
	    "llama.cpp aborts "
	    "making the context: the cache's buffer is on a device that "
	    "cannot use a tensor that large"), "a context of at most %"
	    PRIu64 " (-c %" PRIu64 "), a q8_0 cache (-ctk q8_0 -ctv q8_0), "
	    "or the layers on the host (-ngl)", fit, fit);
}

void
check_plan(const struct check_ctx *c, struct diag_list *dl)
{
	assert(c->plan != NULL);	/* the table's needs_plan */
	if (!c->plan->valid) {
		if (c->file->tensors_n == 0)
			diag_add(dl, "P009", 0, SUBJECT_NONE, NULL, 0, "no "
			    "tensors (a vocabulary-only file?): nothing to "
			    "plan");
		return;
	}
	check_incomplete(c, dl);
	if (!check_cache_settings(c, dl)) {
		check_cache_tensor(c, dl);
		check_measured(c, dl);
	}
	check_fit(c, dl);
}
