/*
 * builtin.c - data files: built-in copies and on-disk overrides (builtin.h).
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "data/builtin.h"

#ifndef GGUFLINT_DATADIR
#define GGUFLINT_DATADIR "/usr/local/share/gguflint"
#endif

int
read_whole_file(const char *path, size_t limit, char **data, size_t *len,
    struct gl_error *err)
{
	struct strbuf sb = STRBUF_INIT;
	char chunk[65536];
	FILE *fp;
	size_t n;

	fp = fopen(path, "rb");
	if (fp == NULL)
		return gl_error_setk(err, GL_ERR_IO, "%s: %s", path,
		    strerror(errno));
	while ((n = fread(chunk, 1, sizeof chunk, fp)) > 0) {
		if (sb.len + n > limit) {
			fclose(fp);
			strbuf_free(&sb);
			return gl_error_setk(err, GL_ERR_LIMIT, "%s: larger "
			    "than %zu bytes", path, limit);
		}
		strbuf_add(&sb, chunk, n);
	}
	if (ferror(fp)) {
		fclose(fp);
		strbuf_free(&sb);
		return gl_error_setk(err, GL_ERR_IO, "%s: read error",
		    path);
	}
	fclose(fp);
	*len = sb.len;
	*data = strbuf_detach(&sb);
	return 0;
}

int
datafile_load(const char *name, struct datafile *out, struct gl_error *err)
{
	const char *dir = getenv("GGUFLINT_DATADIR");
	struct stat st;
	char *path;
	size_t i;

	if (dir == NULL || *dir == '\0')
		dir = GGUFLINT_DATADIR;
	path = xasprintf("%s/%s", dir, name);
	if (stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
		if (read_whole_file(path, 64u << 20, &out->data, &out->len,
		    err) < 0) {
			free(path);
			return -1;
		}
		out->origin = path;
		return 0;
	}
	free(path);
	for (i = 0; i < builtin_n_files; i++) {
		if (strcmp(builtin_files[i].name, name) == 0) {
			out->origin = xasprintf("<builtin>/%s", name);
			out->data = xstrndup(builtin_files[i].data,
			    builtin_files[i].len);
			out->len = builtin_files[i].len;
			return 0;
		}
	}
	return gl_error_setk(err, GL_ERR_NOT_FOUND, "no data file named %s",
	    name);
}

void
datafile_free(struct datafile *df)
{
	free(df->origin);
	free(df->data);
	df->origin = NULL;
	df->data = NULL;
	df->len = 0;
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

const char *const *
builtin_names(const char *dir)
{
	static struct {
		const char *dir;
		const char **names;
	} cache[8];
	size_t d = strlen(dir), i, c, n = 0;
	const char **names;

	for (c = 0; c < 8 && cache[c].dir != NULL; c++)
		if (strcmp(cache[c].dir, dir) == 0)
			return cache[c].names;
	names = xcalloc(builtin_n_files + 1, sizeof *names);
	for (i = 0; i < builtin_n_files; i++) {
		const char *f = builtin_files[i].name;
		size_t len = strlen(f);

		if (strncmp(f, dir, d) == 0 && f[d] == '/' &&
		    len > d + 6 && strchr(f + d + 1, '/') == NULL &&
		    strcmp(f + len - 5, ".yaml") == 0)
			names[n++] = xstrndup(f + d + 1, len - d - 6);
	}
	qsort(names, n, sizeof *names, cmp_str);
	if (c < 8) {
		cache[c].dir = dir;
		cache[c].names = names;
	}
	return names;
}
