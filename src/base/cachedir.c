/*
 * cachedir.c - where gguflint keeps its caches (see cachedir.h).
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "base/cachedir.h"
#include "base/util.h"

char *
cache_dir(bool make)
{
	const char *x = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	char *top, *d;

	if (x != NULL && *x == '/')
		top = xstrdup(x);
	else if (home != NULL && *home != '\0')
		top = xasprintf("%s/.cache", home);
	else
		return NULL;
	d = xasprintf("%s/gguflint", top);
	if (make) {
		mkdir(top, 0700);
		if (mkdir(d, 0700) < 0 && errno != EEXIST) {
			free(top);
			free(d);
			return NULL;
		}
	}
	free(top);
	return d;
}
