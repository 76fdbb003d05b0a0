/*
 * lint.h - one run of the pipeline over one file: read the header, run the
 * checks, filter and sort the diagnostics. The result is data for a
 * reporter; nothing here prints.
 */
#ifndef GGUFLINT_LINT_H
#define GGUFLINT_LINT_H

#include "facts/arch.h"
#include "reader/deep.h"
#include "findings/diag.h"
#include "reader/gguf.h"
#include "plan/plan.h"
#include "findings/policy.h"
#include "target/profile.h"
#include "plan/resolve.h"

struct declset;

struct lint_options {
	const struct catalog *cat;
	const struct declset *decls;	/* rule files' matchers (their
					 * entries in cat), or NULL */
	const struct policy *policy;	/* NULL: keep every finding */
	const struct profile *profile;	/* NULL: no plan */
	const struct captable *table;	/* the profile's, probed */
	bool strict;			/* the profile's, or --strict */
	bool deep;			/* --deep: read the tensor data */
	bool deep_full;			/* and its statistics and SHA-256 */
	unsigned threads;		/* for --deep; 0: one per CPU */
	struct plan_request request;
};

struct lint_result {
	char *path;
	struct gguf_file file;		/* kept open for reporters and --dump */
	struct model_geom *geom;	/* NULL without a complete header */
	struct plan plan;		/* plan.valid false when none */
	struct weight_form *forms;	/* one per tensor, or NULL */
	struct deep_stats *deep;	/* --deep: one per tensor, or NULL */
	const struct profile *profile;
	const struct captable *table;
	struct diag_list diags;		/* as the policy leaves them, sorted */
	size_t warnings;		/* counted before --quiet */
};

/*
 * lint_file: run the pipeline on path. Returns 0 (findings, if any, are in
 * res->diags), or -1 with err set when the file cannot be read at all.
 * Release res with lint_result_free() in both cases.
 */
int lint_file(const char *path, const struct lint_options *o,
    struct lint_result *res, struct gl_error *err);

/* lint_buffer: the same for size bytes at data (fuzzing, tests). */
void lint_buffer(const char *name, const void *data, uint64_t size,
    const struct lint_options *o, struct lint_result *res);
/* lint_result_free: free what res holds (closing the file); res zeroed. */
void lint_result_free(struct lint_result *res);

#endif
