/*
 * declrule.h - declarative rules: a catalogue entry with no C behind it,
 * written in a rule file (YAML) by a model repository. It requires or
 * forbids a PCRE2 pattern over metadata keys, metadata string values, or
 * tensor names (optionally only tensors of some types and sizes). The rule
 * file format is documented in gguflint-profile(5).
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

struct declrule {
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
 * declrule_load_file: add the rules of the rule file at path to cat.
 * Returns 0, or -1 with err naming FILE:LINE:COL and what was expected
 * (for a bad pattern, PCRE2's message and the offset in the pattern).
 */
int declrule_load_file(struct catalog *cat, const char *path,
    struct gl_error *err);
int declrule_parse(struct catalog *cat, const char *origin, const char *text,
    size_t len, struct gl_error *err);

void declrule_free(struct declrule *d);

/* declrule_check: record the findings of declarative rule r on f. */
void declrule_check(const struct rule *r, const struct gguf_file *f,
    struct diag_list *dl);

#endif
