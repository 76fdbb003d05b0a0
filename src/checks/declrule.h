/*
 * declrule.h - declarative rules: rules with no C behind them, written in a
 * rule file (YAML) by a model repository. Each requires or forbids a PCRE2
 * pattern over metadata keys, metadata string values, or tensor names
 * (optionally only tensors of some types and sizes). The rule file format
 * is documented in gguflint-profile(5).
 *
 * Loading a rule file splits each rule in two: its documentation entry
 * (code, slug, severity, summary...) goes to the catalogue like any other
 * rule's, and its matcher to a struct declset, which names the entry by
 * code. The session owns the set and hands it to the lint (lint_options),
 * which hands it to check_declared (check_ctx).
 */
#ifndef GGUFLINT_DECLRULE_H
#define GGUFLINT_DECLRULE_H

#include <stdbool.h>
#include <stdint.h>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include "findings/catalog.h"
#include "findings/diag.h"
#include "reader/gguf.h"

enum decl_match {
	DECL_KEY = 0,		/* metadata key names */
	DECL_VALUE,		/* string values (of keys matching "key") */
	DECL_TENSOR		/* tensor names (passing the filters) */
};

/* One rule's matcher. */
struct declrule {
	char *code;		/* its catalogue entry's code */
	enum decl_match match;
	pcre2_code *key;	/* DECL_VALUE: which keys; NULL: every key */
	pcre2_code *require;
	pcre2_code *forbid;
	char *require_src;
	char *forbid_src;
	uint32_t *types;	/* DECL_TENSOR: ggml types, or none: any */
	size_t n_types;
	uint64_t min_bytes;
	uint32_t min_dims;
};

/*
 * The matchers of the declarative rules loaded, sorted by code (the order
 * they run in). A zeroed struct declset is an empty set; it owns its
 * matchers: free it with declset_free().
 */
struct declset {
	struct declrule *v;
	size_t n;
};

/*
 * declrule_load_file: read the rule file at path (at most 8 MiB) and add
 * each rule's entry to cat (which takes its strings; cat stays sorted) and
 * its matcher to set (which owns it; set stays sorted by code). Returns 0,
 * or -1 with err naming FILE:LINE:COL and what was expected (for a bad
 * pattern, PCRE2's message and the offset in the pattern; GL_ERR_PARSE),
 * or why the file could not be read (GL_ERR_IO, GL_ERR_LIMIT). On failure
 * the rules before the bad one stay added, to both; the bad one's parts
 * are freed.
 */
int declrule_load_file(struct catalog *cat, struct declset *set,
    const char *path, struct gl_error *err);

/*
 * declrule_parse: the same for the rule file text (len bytes) named origin
 * in messages (neither kept; each entry's origin is a copy). A code or
 * slug already in cat is an error. A rule's rationale defaults to its
 * summary, and the basis of its severity to "a declarative rule of
 * ORIGIN:LINE".
 */
int declrule_parse(struct catalog *cat, struct declset *set,
    const char *origin, const char *text, size_t len, struct gl_error *err);

/* declset_free: free every matcher and the array; set is left empty. */
void declset_free(struct declset *set);

/*
 * declset_check: record in dl the findings of every rule of set on f, in
 * the order of their codes. Each rule reports under its entry in dl's
 * catalogue; a matcher whose code is not there is skipped. It reads f's
 * strings from the mapping (run it under the guard) and allocates PCRE2
 * match data per rule, freed before it returns; when that allocation
 * fails it exits, as the allocators of base/util.h do.
 */
void declset_check(const struct declset *set, const struct gguf_file *f,
    struct diag_list *dl);

#endif
