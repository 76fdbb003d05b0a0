/*
 * check-advisory.c - S006, the runtime's advisory floor: a llama.cpp
 * build (the profile's runtime_version, --runtime-version, or else what
 * the runtime of --runtime says of itself) older than the first build
 * that fixes a published advisory on loading GGUF files
 * (rules/runtime/advisories.yaml, facts/advisory.h). A warning; an error
 * when the file carries the pattern the advisory is about (a finding of
 * one of its rules: the header's F rules, the M checks).
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "checks/checks.h"
#include "facts/advisory.h"
#include "runtime/runtime.h"
#include "target/profile.h"

/* The build whose advisories apply. */
struct floor {
	uint32_t build;	   /* 0: none named */
	char name[64];	   /* as named */
	const char *whose; /* "the profile's", "the runtime's" */
};

/*
 * The runtime's own version (llama_version(): "0.5.0-dev" for the
 * release gguflint replicates) as a build, when runtime_version_parse
 * takes it without its suffix; false otherwise.
 */
static bool
runtime_build(const struct rt_llama *l, struct floor *f)
{
	char v[64];
	size_t n;

	if (l == NULL || l->version == NULL)
		return false;
	n = strcspn(l->version, "-+ ");
	if (n == 0 || n >= sizeof v)
		return false;
	memcpy(v, l->version, n);
	v[n] = '\0';
	if (runtime_version_parse(v, &f->build) < 0)
		return false;
	snprintf(f->name, sizeof f->name, "%s", l->version);
	f->whose = "the runtime's";
	return true;
}

/* The build to judge: the profile's (or --runtime-version), else the
 * runtime's. False when neither names one. */
static bool
floor_of(const struct check_ctx *ctx, struct floor *f)
{
	const struct profile *p = ctx->profile;

	memset(f, 0, sizeof *f);
	if (p != NULL && p->runtime != RUNTIME_LLAMA_CPP)
		return false; /* SKaiNET: no llama.cpp loader */
	if (p != NULL && p->runtime_build != 0 && p->runtime_version != NULL) {
		f->build = p->runtime_build;
		snprintf(f->name, sizeof f->name, "%s", p->runtime_version);
		f->whose = "the profile's";
		return true;
	}
	return runtime_build(ctx->llama, f);
}

/* Whether d is a finding of rule (a code, or "CODE:SUFFIX": the code on
 * a subject ending in SUFFIX). */
static bool
matches(const struct diag *d, const char *rule)
{
	const char *suffix = rule[4] == ':' ? rule + 5 : NULL;
	size_t n;

	if (strncmp(d->rule->code, rule, 4) != 0 || d->rule->code[4] != '\0')
		return false;
	if (suffix == NULL)
		return true;
	n = strlen(suffix);
	return d->subject != NULL && d->subject_len >= n &&
	    memcmp(d->subject + d->subject_len - n, suffix, n) == 0;
}

/* The first finding in dl of one of r's rules, or NULL. */
static const struct diag *
pattern(const struct diag_list *dl, const struct adv_row *r)
{
	size_t i, k;

	for (i = 0; i < dl->n; i++)
		for (k = 0; k < r->n_rules; k++)
			if (matches(&dl->v[i], r->rules[k]))
				return &dl->v[i];
	return NULL;
}

/* Whether dl says the file is no GGUF file at all (F001, F004). */
static bool
not_gguf(const struct diag_list *dl)
{
	size_t i;

	for (i = 0; i < dl->n; i++)
		if (strcmp(dl->v[i].rule->code, "F001") == 0 ||
		    strcmp(dl->v[i].rule->code, "F004") == 0)
			return true;
	return false;
}

/* S006 for one advisory r that f's build predates. */
static void
report(struct diag_list *dl, const struct floor *f, const struct adv_row *r)
{
	const struct diag *has = pattern(dl, r);
	char code[8] = "";
	struct diag *d;

	if (has != NULL)
		snprintf(code, sizeof code, "%s", has->rule->code);
	d = diag_add(dl, "S006", 0, SUBJECT_NONE, NULL, 0,
	    "%s llama.cpp %s predates %s, which fixes %s (%s)%s", f->whose,
	    f->name, r->fixed, r->id, adv_component_name(r->component),
	    has != NULL ? "; the file has its pattern" : "");
	if (d == NULL)
		return;
	diag_attach_item(d, r->id, strlen(r->id));
	if (has != NULL) {
		d->severity = SEV_ERROR;
		diag_note(d,
		    "%s: %s; this file has it (%s), so that build is "
		    "exposed: %s",
		    r->id, r->bug, code, r->source);
	} else {
		diag_note(d, "%s: %s (%s%s)", r->id, r->bug, r->source,
		    r->verified ? "" : "; fix build as reported");
	}
	diag_fix(d, "load the file with llama.cpp %s or later", r->fixed);
}

void
check_advisory(const struct check_ctx *ctx, struct diag_list *dl)
{
	const struct adv_db *db;
	struct floor f;
	size_t i;

	if (!floor_of(ctx, &f) || f.build == RUNTIME_BUILD_REPLICA ||
	    adv_db_get(&db, NULL) < 0 || not_gguf(dl))
		return; /* v0.5.0 is newer than every fix the data lists */
	for (i = 0; i < db->n; i++) {
		const struct adv_row *r = &db->rows[i];

		if (r->component == ADV_OLLAMA || r->fixed_build <= f.build)
			continue; /* Ollama's versions are not llama.cpp's */
		report(dl, &f, r);
	}
}
