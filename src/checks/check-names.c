/*
 * check-names.c - N family: every tensor against its architecture's name
 * map (rules/arch/, see names.h). Tensors no pattern matches (kept,
 * counted in the plan, listed), required tensors that are missing, shapes
 * that disagree with the geometry, block indices beyond block_count; and,
 * once per file, why a file is not checked: no map for its architecture,
 * or general.type says it is not a model. A file whose tensors are none of
 * its architecture's and whose metadata lacks the architecture's
 * hyper-parameters (a test file, a GGUF of another program) is not a model
 * either, and gets nothing.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/units.h"
#include "checks/checks.h"
#include "facts/names.h"
#include "target/profile.h"

#define NAMES_LISTED 5		/* names quoted in a message */

/* One file's matching state. */
struct nm {
	const struct check_ctx *c;
	const struct names_map *map;
	struct names_env env;
	const long *entry;	/* per tensor: map index, or -1 (the facts) */
	const int64_t *layer;	/* per tensor: block index, or -1 */
	uint8_t *found;		/* per map tensor, per layer slot */
	uint32_t slots;		/* max(n_layer, 1) */
	const char *arch;
	struct diag_list *dl;
};

/* Append a tensor name for a message (up to a NUL, at most 80 bytes). */
static void
add_name(struct strbuf *sb, struct gguf_str s)
{
	const char *nul = memchr(s.p, '\0', (size_t)s.n);
	size_t n = nul ? (size_t)(nul - s.p) : (size_t)s.n;

	strbuf_add(sb, s.p, n > 80 ? 80 : n);
	if (n > 80)
		strbuf_adds(sb, "...");
}

/*
 * The vocabulary size shapes are checked against: the token count (else
 * vocab_size), or -1 when unknown or when token_embd.weight disagrees with
 * it (M008 reports that, once).
 */
static int64_t
vocab_size(const struct gguf_file *f, const char *arch)
{
	const struct gguf_kv *kv = gguf_find_kv(f, "tokenizer.ggml.tokens");
	char key[160];
	int64_t n = -1;
	size_t i;

	snprintf(key, sizeof key, "%s.vocab_size", arch);
	if (kv != NULL && kv->type == GGUF_ARRAY && kv->count <= INT64_MAX)
		n = (int64_t)kv->count;
	else if (!gguf_find_int(f, key, &n))
		return -1;
	for (i = 0; i < f->tensors_n; i++)
		if (gguf_str_eq(f->tensors[i].name, "token_embd.weight") &&
		    f->tensors[i].ne[1] != n)
			return -1;
	return n;
}

static void
not_model(const struct check_ctx *c, struct diag_list *dl)
{
	const struct gguf_kv *kv = gguf_find_kv(c->file, "general.type");

	diag_add(dl, "N006", kv->offset, SUBJECT_KEY, kv->key.p, kv->key.n,
	    "general.type is '%.*s', not a model: %zu tensors not checked "
	    "against a name map", (int)(kv->val.v.s.n > 64 ? 64 :
	    kv->val.v.s.n), kv->val.v.s.p, c->file->tensors_n);
}

static void
no_map(const struct check_ctx *c, const char *arch, struct diag_list *dl)
{
	const struct gguf_kv *kv = gguf_find_kv(c->file,
	    "general.architecture");

	diag_note(diag_add(dl, "N005", kv->offset, SUBJECT_KEY, kv->key.p,
	    kv->key.n, "no name map for architecture '%s': names and shapes "
	    "of %zu tensors not checked", arch, c->file->tensors_n),
	    "gguflint has no name map (rules/arch/*.yaml) for it");
}

/* "[64, 32]" */
static void
add_shape(struct strbuf *sb, const struct gguf_tensor *t)
{
	uint32_t d, n = t->n_dims ? t->n_dims : 1;

	strbuf_adds(sb, "[");
	for (d = 0; d < n && d < GGUF_MAX_DIMS; d++)
		strbuf_addf(sb, "%s%" PRId64, d ? ", " : "", t->ne[d]);
	strbuf_adds(sb, "]");
}

/* Compare tensor ti with entry e's shape; N003 when a known dim differs. */
static void
check_shape(struct nm *s, size_t ti, const struct names_tensor *e)
{
	const struct gguf_tensor *t = &s->c->file->tensors[ti];
	struct strbuf want = STRBUF_INIT, expr = STRBUF_INIT;
	struct strbuf got = STRBUF_INIT;
	struct names_val v;
	bool bad = false;
	size_t d;

	if (e->n_dims == 0)
		return;
	s->env.layer = s->layer[ti];
	for (d = 0; d < GGUF_MAX_DIMS; d++) {
		v.known = true;
		v.v = 1;
		if (d < e->n_dims)
			v = names_eval(e->shape[d], &s->env);
		if (v.known && v.v != t->ne[d])
			bad = true;
		if (d >= e->n_dims)
			continue;
		strbuf_adds(&want, d ? ", " : "[");
		strbuf_adds(&expr, d ? ", " : "[");
		strbuf_adds(&expr, e->shape_text[d]);
		if (v.known)
			strbuf_addf(&want, "%" PRId64, v.v);
		else
			strbuf_adds(&want, "?");
	}
	if (bad) {
		add_shape(&got, t);
		diag_note(diag_add(s->dl, "N003", t->offset_info,
		    SUBJECT_TENSOR, t->name.p, t->name.n, "shape %s, but the "
		    "%s geometry says %s]: llama.cpp refuses the file",
		    strbuf_cstr(&got), s->arch, strbuf_cstr(&want)), "the name "
		    "map's shape is %s]; llama.cpp says \"wrong shape\"",
		    strbuf_cstr(&expr));
	}
	strbuf_free(&want);
	strbuf_free(&expr);
	strbuf_free(&got);
}

/* Every matched tensor: N004 for a block beyond block_count, its shape. */
static void
match_all(struct nm *s)
{
	const struct gguf_file *f = s->c->file;
	uint32_t n_layer = arch_blocks(s->env.geom);
	int64_t il;
	size_t i;

	for (i = 0; i < f->tensors_n; i++) {
		const struct gguf_tensor *t = &f->tensors[i];
		long e = s->entry[i];

		if (e < 0)
			continue;
		if (s->layer[i] >= 0 && n_layer > 0 &&
		    s->layer[i] >= (int64_t)n_layer) {
			diag_note(diag_add(s->dl, "N004", t->offset_info,
			    SUBJECT_TENSOR, t->name.p, t->name.n, "block %"
			    PRId64 ", but %s.block_count is %" PRIu32 ": "
			    "llama.cpp refuses the file", s->layer[i], s->arch,
			    n_layer), "llama.cpp never loads it (\"wrong "
			    "number of tensors\")");
			continue;
		}
		il = s->layer[i] < 0 ? 0 : s->layer[i];
		if (il < (int64_t)s->slots)	/* else no block_count */
			s->found[(size_t)e * s->slots + (size_t)il] = 1;
		check_shape(s, i, &s->map->tensors[e]);
	}
}

/* The profile describes llama.cpp, which refuses what it does not load. */
static bool
llama_profile(const struct check_ctx *c)
{
	return c->profile != NULL && c->profile->runtime == RUNTIME_LLAMA_CPP;
}

static void
report_unmapped(struct nm *s)
{
	const struct gguf_file *f = s->c->file;
	struct strbuf sb = STRBUF_INIT;
	size_t i, n = 0, first = 0;
	uint64_t bytes = 0;
	struct diag *d;
	char size[32];

	for (i = 0; i < f->tensors_n; i++) {
		if (s->entry[i] >= 0)
			continue;
		if (n == 0)
			first = i;
		if (n < NAMES_LISTED) {
			strbuf_adds(&sb, n ? ", " : "");
			add_name(&sb, f->tensors[i].name);
		}
		n++;
		if (f->tensors[i].size_ok)
			bytes += f->tensors[i].nbytes;
	}
	if (n == 0)
		goto out;
	if (n > NAMES_LISTED)
		strbuf_addf(&sb, ", ... %zu more", n - NAMES_LISTED);
	d = diag_add(s->dl, "N001", f->tensors[first].offset_info,
	    SUBJECT_TENSOR, f->tensors[first].name.p, f->tensors[first].name.n,
	    "%zu tensor%s (%s) match%s no name of the %s map%s", n, n == 1 ?
	    "" : "s", format_size(bytes, size, sizeof size), n == 1 ? "es" :
	    "", s->arch, llama_profile(s->c) ? ": llama.cpp refuses the file" :
	    "");
	diag_note(d, "%s; kept and counted in the memory plan, but llama.cpp "
	    "does not load %s and refuses a file with tensors it does not "
	    "use%s", strbuf_cstr(&sb), n == 1 ? "it" : "them",
	    llama_profile(s->c) ? " (\"wrong number of tensors\")" :
	    s->c->profile != NULL ? " (SKaiNET keeps them)" : "");
	if (d != NULL && llama_profile(s->c))
		d->severity = SEV_ERROR;	/* the runtime refuses it */
	for (i = 0; i < f->tensors_n; i++)	/* all of them, for JSON */
		if (s->entry[i] < 0)
			diag_attach_item(d, f->tensors[i].name.p,
			    (size_t)f->tensors[i].name.n);
out:
	strbuf_free(&sb);
}

static bool
found_at(const struct nm *s, size_t e, int64_t il)
{
	const struct names_tensor *t = &s->map->tensors[e];
	uint32_t j;

	if (!t->per_layer)
		return s->found[e * s->slots] != 0;
	if (il >= 0)
		return s->found[e * s->slots + (size_t)il] != 0;
	for (j = 0; j < s->slots; j++)
		if (s->found[e * s->slots + j])
			return true;
	return false;
}

/* Whether entry e is required at layer il (-1: a global tensor). */
static bool
required_at(struct nm *s, size_t e, int64_t il)
{
	const struct names_tensor *t = &s->map->tensors[e];
	struct names_val v;
	size_t k;

	if (t->optional)
		return false;
	if (t->when != NULL) {
		s->env.layer = il;
		v = names_eval(t->when, &s->env);
		if (!v.known || v.v == 0)
			return false;
	}
	for (k = 0; k < t->n_unless; k++)
		if (found_at(s, t->unless[k], il))
			return false;
	return true;
}

/* "0-3, 7, 9-11" */
static void
add_range(struct strbuf *sb, int64_t a, int64_t b)
{
	strbuf_addf(sb, "%s%" PRId64, sb->len ? ", " : "", a);
	if (b > a)
		strbuf_addf(sb, "-%" PRId64, b);
}

static void
report_missing_layers(struct nm *s, size_t e, int64_t n_all)
{
	const struct names_tensor *t = &s->map->tensors[e];
	struct strbuf sb = STRBUF_INIT;
	int64_t il, start = -1, first = -1, n = 0;
	char subj[96];

	for (il = 0; il <= n_all; il++) {
		bool miss = il < n_all && !found_at(s, e, il) &&
		    required_at(s, e, il);

		if (miss && start < 0)
			start = il;
		if (miss && first < 0)
			first = il;
		n += miss;
		if (!miss && start >= 0) {
			add_range(&sb, start, il - 1);
			start = -1;
		}
	}
	if (n > 0) {
		if (strncmp(t->display, "blk.N.", 6) == 0)
			snprintf(subj, sizeof subj, "blk.%" PRId64 ".%s", first,
			    t->display + 6);
		else
			snprintf(subj, sizeof subj, "%s", t->display);
		diag_note(diag_add(s->dl, "N002", 0, SUBJECT_TENSOR, subj,
		    strlen(subj), "%s is missing in %" PRId64 " of %" PRId64
		    " blocks (%s): llama.cpp refuses the file", t->display, n,
		    n_all, strbuf_cstr(&sb)), "llama.cpp says \"missing "
		    "tensor\"");
	}
	strbuf_free(&sb);
}

/* Whether the file has the MTP head llama.cpp probes for
 * (blk.{n_layer - nextn}.nextn.eh_proj.weight): its MTP blocks are then
 * checked as any other, even where the map says mtp_layers: optional. */
static bool
has_mtp_head(const struct nm *s, int64_t n_main)
{
	size_t e;

	for (e = 0; e < s->map->n_tensors; e++)
		if (s->map->tensors[e].id != NULL &&
		    strcmp(s->map->tensors[e].id, "nextn.eh_proj.weight") == 0)
			return found_at(s, e, n_main);
	return false;
}

static void
report_missing(struct nm *s)
{
	/* every block, MTP layers included unless the map makes them
	 * optional and the file has no MTP head (a map's when says which
	 * tensors an MTP layer may leave out) */
	const struct model_geom *g = s->env.geom;
	int64_t n_main = (int64_t)g->n_layer - g->n_layer_nextn;
	int64_t n_all = (int64_t)arch_blocks(g) -
	    (s->map->mtp_optional && !has_mtp_head(s, n_main) ?
		    g->n_layer_nextn :
		    0);
	size_t e;

	for (e = 0; e < s->map->n_tensors; e++) {
		const struct names_tensor *t = &s->map->tensors[e];

		if (t->per_layer) {
			if (n_all > 0)
				report_missing_layers(s, e, n_all);
		} else if (!found_at(s, e, -1) && required_at(s, e, -1)) {
			diag_note(diag_add(s->dl, "N002", 0, SUBJECT_TENSOR,
			    t->display, strlen(t->display), "%s is missing: "
			    "llama.cpp refuses the file", t->display),
			    "llama.cpp says \"missing tensor\"");
		}
	}
}

static void
check_model(const struct check_ctx *c, struct diag_list *dl)
{
	const struct model_facts *mf = c->facts;
	struct nm s;

	memset(&s, 0, sizeof s);
	s.c = c;
	s.map = mf->map;
	s.arch = c->geom->arch;
	s.dl = dl;
	s.env.file = c->file;
	s.env.geom = c->geom;
	s.env.n_vocab = vocab_size(c->file, c->geom->arch);
	s.slots = s.env.geom->n_layer ? s.env.geom->n_layer : 1;
	s.entry = mf->entry;
	s.layer = mf->layer;
	s.found = xcalloc(mf->map->n_tensors, s.slots);
	match_all(&s);
	report_unmapped(&s);
	if (mf->split_count == 1)	/* a shard holds only some tensors */
		report_missing(&s);
	free(s.found);
}

void
check_names(const struct check_ctx *c, struct diag_list *dl)
{
	if (c->facts == NULL)
		return;		/* the maps did not load (lint_buffer) */
	if (check_companion_file(c)) {	/* not a model: no map applies */
		if (c->facts->kind == NAMES_NOT_MODEL)
			not_model(c, dl);
		return;
	}
	switch (c->facts->kind) {
	case NAMES_NO_MAP:
		no_map(c, c->geom->arch, dl);
		break;
	case NAMES_NOT_MODEL:
		not_model(c, dl);
		break;
	case NAMES_MODEL:
		check_model(c, dl);
		break;
	default:
		break;	/* no tensors, no architecture, or a foreign file */
	}
}
