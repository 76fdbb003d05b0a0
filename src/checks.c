/*
 * checks.c - the one table of checks, run in this order by lint.c.
 */
#include "checks.h"

const struct check checks[] = {
	{ "file-layout", 'F', true, check_file_layout },
	{ "plan", 'P', true, check_plan },
	{ NULL, 0, false, NULL }
};
