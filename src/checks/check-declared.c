/*
 * check-declared.c - runs the declarative rules of the catalogue (those
 * loaded from rule files, with no C code of their own).
 */
#include "config.h"

#include "checks/checks.h"
#include "checks/declrule.h"

void
check_declared(const struct check_ctx *c, struct diag_list *dl)
{
	size_t i;

	for (i = 0; i < dl->cat->n; i++)
		if (dl->cat->rules[i].decl != NULL)
			declrule_check(&dl->cat->rules[i], c->file, dl);
}
