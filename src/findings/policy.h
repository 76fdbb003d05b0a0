/*
 * policy.h - what the user decided about the findings: which rules to
 * select or ignore, severity overrides, per-file ignores, suppressions that
 * name a tensor or a key (a binary file cannot carry a "noqa" comment), the
 * severity that fails the run, and a warning budget. Built from the
 * configuration file and the command line (command line wins) by the
 * session (cli/session.c); applied to each file's diagnostics by lint.c.
 */
#ifndef GGUFLINT_POLICY_H
#define GGUFLINT_POLICY_H

#include <stdbool.h>

#include "findings/diag.h"

struct sev_override {
	char *item;		/* code, slug or family letter */
	enum severity severity;
};

struct file_ignore {
	char *glob;		/* fnmatch(3) pattern over the file's path */
	struct diag_filter rules;	/* its "ignore" list */
};

struct pcre2_real_code_8;	/* pcre2_code, <pcre2.h> with 8-bit units */

struct suppression {
	char *item;		/* code, slug or family letter */
	char *tensor;		/* exact tensor name, or NULL */
	char *pattern_src;	/* tensor-pattern, as written, or NULL */
	/* it compiled (owned), matched against whole tensor names */
	struct pcre2_real_code_8 *pattern;
	char *key;		/* exact metadata key, or NULL */
	char *files;		/* fnmatch(3) pattern, or NULL: every file */
};

struct policy {
	struct diag_filter filter;	/* --select / --ignore */
	struct sev_override *sev;
	size_t n_sev;
	struct file_ignore *fi;
	size_t n_fi;
	struct suppression *sup;
	size_t n_sup;
	char *base;			/* directory globs are relative to */
	enum severity fail_on;		/* SEV_ERROR unless told otherwise */
	long max_warnings;		/* -1: no budget */
	bool quiet;			/* report only what fails the run */
};

/* policy_init: p empty, owning nothing: fail on errors, no budget. */
void policy_init(struct policy *p);
/* policy_free: free everything p owns; p is left as policy_init leaves it. */
void policy_free(struct policy *p);

/*
 * policy_apply: to the diagnostics of the file at path: severity
 * overrides (the last that names a rule wins), then suppressions,
 * per-file ignores and select/ignore, then --quiet. A tensor suppression
 * (a name, or a pattern over the whole name) silences a finding about
 * that tensor; a finding about several (its items) loses the tensors it
 * names, and is silenced when none is left, else kept with its subject
 * the first one left and a note of how many were suppressed. Globs match
 * the path relative to p->base (when realpath puts it below), the path as
 * given, or its last component. What is dropped is freed; the order of
 * the rest is kept. *warnings receives the warnings counted before
 * --quiet.
 */
void policy_apply(const struct policy *p, const char *path,
    struct diag_list *dl, size_t *warnings);

/* policy_fails: whether these diagnostics fail the run (>= fail_on, and
 * not baselined). */
bool policy_fails(const struct policy *p, const struct diag_list *dl);

#endif
