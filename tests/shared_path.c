/*
 * shared_path.c - find the shared directory for tests (see shared_path.h).
 */
#if !defined(_GNU_SOURCE) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L
#endif

#include <stdbool.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "shared_path.h"

static bool
is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

const char *
test_shared_dir(void)
{
	const char *env = getenv("GGUFLINT_SHARED");

	if (env != NULL && *env != '\0')
		return is_dir(env) ? env : NULL;
	if (is_dir("../shared"))
		return "../shared";
	if (is_dir("../../shared"))
		return "../../shared";
	return NULL;
}
