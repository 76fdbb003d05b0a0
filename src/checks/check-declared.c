/*
 * check-declared.c - runs the declarative rules (those loaded from rule
 * files, with no C code of their own): the matchers of ctx->decls, each
 * reporting under its catalogue entry.
 */
#include "config.h"

#include "checks/checks.h"
#include "checks/declrule.h"

void
check_declared(const struct check_ctx *c, struct diag_list *dl)
{
	if (c->decls != NULL)
		declset_check(c->decls, c->file, dl);
}
