/*
 * checks.h - the registry of checks. A check reads what the earlier stages
 * produced for one file and records diagnostics; it never prints or exits.
 */
#ifndef GGUFLINT_CHECKS_H
#define GGUFLINT_CHECKS_H

#include "facts/arch.h"
#include "reader/deep.h"
#include "findings/diag.h"
#include "reader/gguf.h"
#include "facts/names.h"
#include "plan/plan.h"
#include "target/profile.h"

struct declset;

/* Everything a check may read. */
struct check_ctx {
	const struct gguf_file *file;
	const struct model_geom *geom;	/* NULL without a complete header */
	const struct profile *profile;
	const struct plan *plan;	/* NULL without a complete header */
	const struct weight_form *forms;	/* one per tensor, or NULL */
	const struct captable *table;	/* the profile's, probed, or NULL */
	bool strict;
	const struct deep_stats *deep;	/* --deep: one per tensor, or NULL */
	const struct names_db *names;	/* the architecture name maps */
	const struct declset *decls;	/* the declarative rules, or NULL */
};

struct check {
	const char *name;	/* for --debug and tests */
	char family;		/* the family its codes belong to */
	bool needs_header;	/* run only when the header parsed completely */
	void (*run)(const struct check_ctx *ctx, struct diag_list *dl);
};

/* The registry: a plain array ending with a NULL run. */
extern const struct check checks[];

void check_file_layout(const struct check_ctx *ctx, struct diag_list *dl);
void check_plan(const struct check_ctx *ctx, struct diag_list *dl);
void check_forms(const struct check_ctx *ctx, struct diag_list *dl);
void check_kernels(const struct check_ctx *ctx, struct diag_list *dl);
void check_declared(const struct check_ctx *ctx, struct diag_list *dl);
void check_deep(const struct check_ctx *ctx, struct diag_list *dl);
void check_meta(const struct check_ctx *ctx, struct diag_list *dl);
void check_names(const struct check_ctx *ctx, struct diag_list *dl);
void check_security(const struct check_ctx *ctx, struct diag_list *dl);

#endif
