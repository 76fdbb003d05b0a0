/*
 * checks.h - the registry of checks. A check reads what the earlier stages
 * produced for one file and records diagnostics; it never prints or exits.
 */
#ifndef GGUFLINT_CHECKS_H
#define GGUFLINT_CHECKS_H

#include "diag.h"
#include "gguf.h"

/* Everything a check may read. Later stages add facts, plan and forms. */
struct check_ctx {
	const struct gguf_file *file;
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

#endif
