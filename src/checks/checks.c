/*
 * checks.c - the one table of checks, run in this order by lint.c. The
 * split checks (check-split.c) are not a row: they read all the files of a
 * model at once.
 */
#include "config.h"

#include "checks/checks.h"

const struct check checks[] = {
	/* name, family, needs_header, needs_plan, per_file, run */
	{ "file-layout", 'F', true, false, true, check_file_layout },
	{ "plan", 'P', true, true, false, check_plan },
	{ "forms", 'W', true, true, false, check_forms },
	{ "kernels", 'K', true, true, false, check_kernels },
	{ "metadata", 'M', true, false, false, check_meta },
	{ "runtime-version", 'M', true, false, false, check_version },
	{ "companion", 'M', true, false, false, check_companion },
	{ "names", 'N', true, false, false, check_names },
	{ "security", 'S', false, false, true, check_security },
	{ "declared", 0, true, false, false, check_declared },
	{ "deep", 'D', true, false, true, check_deep },
	/* last: it reads the findings of the others */
	{ "advisory", 'S', false, false, true, check_advisory },
	{ NULL, 0, false, false, false, NULL }
};
