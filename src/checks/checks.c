/*
 * checks.c - the one table of checks, run in this order by lint.c.
 */
#include "config.h"

#include "checks/checks.h"

const struct check checks[] = {
	{ "file-layout", 'F', true, check_file_layout },
	{ "plan", 'P', true, check_plan },
	{ "forms", 'W', true, check_forms },
	{ "kernels", 'K', true, check_kernels },
	{ "metadata", 'M', true, check_meta },
	{ "names", 'N', true, check_names },
	{ "security", 'S', false, check_security },
	{ "declared", 0, true, check_declared },
	{ "deep", 'D', true, check_deep },
	{ NULL, 0, false, NULL }
};
