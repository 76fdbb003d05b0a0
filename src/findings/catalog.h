/*
 * catalog.h - the rule catalogue: every rule's code, slug, family, default
 * severity and documentation, loaded from the rules/ YAML files (built in, or
 * overridden on disk), and the entries of the declarative rules of rule
 * files (whose matchers are the checks' business: checks/declrule.h). The
 * same catalogue drives the checks' diagnostics, --list-rules, --explain,
 * SARIF's rule descriptions and the man page. It is data: it knows nothing
 * of how a rule is checked.
 */
#ifndef GGUFLINT_CATALOG_H
#define GGUFLINT_CATALOG_H

#include <stdbool.h>
#include <stddef.h>

#include "base/error.h"
#include "findings/severity.h"

/* One rule's documentation entry; the catalogue owns every string. */
struct rule {
	char *code;		/* "F010" */
	char *slug;		/* "tensor-data-out-of-bounds" */
	char family;		/* 'F' */
	enum severity severity;	/* default severity */
	char *summary;
	char *rationale;
	char *basis;		/* what decides the severity: the spec's
				 * clause or the runtime's behaviour */
	char *fix;
	char *security_severity; /* SARIF's score ("7.8"), or NULL: the
				  * severity's */
	char *origin;		/* file:line where it was declared */
};

struct catalog {
	struct rule *rules;	/* sorted by code */
	size_t n;
};

/*
 * catalog_load_builtin: load the catalogue files, rules/NAME.yaml as built in
 * (Makefile.am's data_files, in its order; each may be overridden from the
 * data directory) into cat, which it empties first without freeing (pass
 * it unused or freed). Returns 0, or -1 with err naming file:line:col and
 * what was expected (catalog_add_yaml's), or why a file could not be read
 * (datafile_load's); cat then holds the rules loaded so far: release it
 * with catalog_free() in both cases.
 */
int catalog_load_builtin(struct catalog *cat, struct gl_error *err);

/*
 * catalog_add_yaml: parse one catalogue document (text of length len, named
 * origin in messages; neither is kept) and add its rules, each owning
 * copies of its strings; cat is re-sorted by code, so pointers into it do
 * not survive the call. Every rule needs all of struct rule's texts, the
 * basis of its severity among them; a missing key, or a code or slug
 * already present, is an error.
 * Returns 0, or -1 with err "ORIGIN:LINE:COL: what" (GL_ERR_PARSE), for
 * YAML libyaml cannot read as for a document that says something wrong;
 * the rules before the bad one stay added.
 */
int catalog_add_yaml(struct catalog *cat, const char *origin,
    const char *text, size_t len, struct gl_error *err);

/* catalog_free: free every rule and the array; cat is left empty. */
void catalog_free(struct catalog *cat);
/* catalog_rule_free: free what one rule owns (its texts), not r itself. */
void catalog_rule_free(struct rule *r);

/*
 * catalog_add_rule: add a copy of r, taking ownership of its strings,
 * unless its code or slug is taken (as catalog_find finds them). r's code
 * and slug are valid (catalog_valid_code, _slug), as every entry's is.
 * Returns 0, or -1 when taken (the strings are then still the caller's).
 * r goes in at its place by code, so the rules stay sorted, and pointers
 * into cat->rules and indexes do not survive the call.
 */
int catalog_add_rule(struct catalog *cat, const struct rule *r);

/* catalog_find: a rule by code or slug (case-insensitive code), or NULL;
 * borrowed from cat, valid until cat changes. */
const struct rule *catalog_find(const struct catalog *cat, const char *name);

/* catalog_index: index of the rule with this exact code in cat->rules
 * (a binary search: cat sorted by code, as it is kept), or -1. */
long catalog_index(const struct catalog *cat, const char *code);

/*
 * catalog_valid_code, _slug, _family: whether s is a rule's code (one
 * capital letter and three digits), slug (lowercase letters, digits and
 * '-', not first) or family (one capital letter).
 */
bool catalog_valid_code(const char *s);
bool catalog_valid_slug(const char *s);
bool catalog_valid_family(const char *s);

#endif
