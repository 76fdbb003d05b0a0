/*
 * shared_path.c - find the shared directory for tests (see shared_path.h).
 */
#if !defined(_GNU_SOURCE) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L
#endif

#include <criterion/criterion.h>
#include <dirent.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "shared_path.h"
#include "base/util.h"

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

static int
str_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int
str_has_suffix(const char *s, const char *suf)
{
	size_t n = strlen(s), m = strlen(suf);

	return n >= m && strcmp(s + n - m, suf) == 0;
}

/* Every .gguf one level below corpus/, sorted; skips when absent. */
void
corpus_list(struct corpus *c)
{
	const char *shared = test_shared_dir();
	char *top;
	DIR *d, *sub;
	struct dirent *e, *f;

	memset(c, 0, sizeof *c);
	if (shared == NULL)
		cr_skip_test("../shared is absent: no corpus to compare with");
	top = xasprintf("%s/corpus", shared);
	d = opendir(top);
	cr_assert(d != NULL, "cannot open %s", top);
	while ((e = readdir(d)) != NULL) {
		char *dir;

		if (e->d_name[0] == '.')
			continue;
		dir = xasprintf("%s/%s", top, e->d_name);
		if ((sub = opendir(dir)) != NULL) {
			while ((f = readdir(sub)) != NULL) {
				if (!str_has_suffix(f->d_name, ".gguf"))
					continue;
				c->files = xreallocarray(c->files, c->n + 1,
				    sizeof *c->files);
				c->files[c->n++] = xasprintf("%s/%s", dir,
				    f->d_name);
			}
			closedir(sub);
		}
		free(dir);
	}
	closedir(d);
	free(top);
	qsort(c->files, c->n, sizeof *c->files, str_cmp);
	cr_assert(c->n >= 20, "only %zu corpus files found", c->n);
}

void
corpus_free(struct corpus *c)
{
	size_t i;

	for (i = 0; i < c->n; i++)
		free(c->files[i]);
	free(c->files);
}
