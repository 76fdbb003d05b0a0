/*
 * checks.c - the one table of checks, run in this order by lint.c.
 */
#include "config.h"

#include "checks/checks.h"

const struct check checks[] = {
	/* name, family, needs_header, needs_plan, run */
	{ "file-layout", 'F', true, false, check_file_layout },
	{ "plan", 'P', true, true, check_plan },
	{ "forms", 'W', true, true, check_forms },
	{ "kernels", 'K', true, true, check_kernels },
	{ "metadata", 'M', true, false, check_meta },
	{ "names", 'N', true, false, check_names },
	{ "security", 'S', false, false, check_security },
	{ "declared", 0, true, false, check_declared },
	{ "deep", 'D', true, false, check_deep },
	{ NULL, 0, false, false, NULL }
};
