/*
 * builtin.c - data files: built-in copies and on-disk overrides (builtin.h).
 */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
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

/* The origin of a built-in copy: this, then its name. */
#define BUILTIN_PREFIX "<builtin>/"

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
			out->origin = xasprintf(BUILTIN_PREFIX "%s", name);
			out->data = xstrndup(builtin_files[i].data,
			    builtin_files[i].len);
			out->len = builtin_files[i].len;
			return 0;
		}
	}
	return gl_error_setk(err, GL_ERR_NOT_FOUND, "no data file named %s",
	    name);
}

int
datafile_resolve(const char *dir, const char *name, const char *what,
    const char *list, struct datafile *out, struct gl_error *err)
{
	struct gl_error own;
	size_t n = strlen(name);
	char *rel;
	int rc;

	if (err == NULL)
		err = &own;	/* the kind of datafile_load's is read */
	if (strchr(name, '/') != NULL ||
	    (n > 5 && strcmp(name + n - 5, ".yaml") == 0)) {
		if (read_whole_file(name, 1u << 20, &out->data, &out->len,
		    err) < 0)
			return -1;
		out->origin = xstrdup(name);
		return 0;
	}
	rel = xasprintf("%s/%s.yaml", dir, name);
	rc = datafile_load(rel, out, err);
	free(rel);
	if (rc < 0 && err->kind == GL_ERR_NOT_FOUND)
		return gl_error_setk(err, GL_ERR_NOT_FOUND, "unknown %s '%s' "
		    "(see %s, or give a path to a YAML file)", what, name,
		    list);
	return rc < 0 ? -1 : 1;
}

bool
datafile_builtin(const struct datafile *df)
{
	return strncmp(df->origin, BUILTIN_PREFIX, sizeof BUILTIN_PREFIX - 1)
	    == 0;
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

/* Whether the built-in file f is DIR/NAME.yaml (d: DIR's length). */
static bool
in_dir(const char *f, const char *dir, size_t d)
{
	size_t len = strlen(f);

	return strncmp(f, dir, d) == 0 && f[d] == '/' && len > d + 6 &&
	    strchr(f + d + 1, '/') == NULL &&
	    strcmp(f + len - 5, ".yaml") == 0;
}

const char *
builtin_next(const char *dir, size_t *pos)
{
	size_t d = strlen(dir);

	for (; *pos < builtin_n_files; (*pos)++)
		if (in_dir(builtin_files[*pos].name, dir, d))
			return builtin_files[(*pos)++].name;
	return NULL;
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The lists builtin_names made, one per directory asked for. */
static struct dir_names {
	char *dir;
	const char **names;
} *cache;
static size_t cache_n;
static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;

/* The sorted NAMEs of DIR/NAME.yaml, newly allocated. */
static const char **
list_names(const char *dir)
{
	size_t d = strlen(dir), i, n = 0;
	const char **names = xcalloc(builtin_n_files + 1, sizeof *names);

	for (i = 0; i < builtin_n_files; i++) {
		const char *f = builtin_files[i].name;

		if (in_dir(f, dir, d))
			names[n++] = xstrndup(f + d + 1, strlen(f) - d - 6);
	}
	qsort(names, n, sizeof *names, cmp_str);
	return names;
}

const char *const *
builtin_names(const char *dir)
{
	const char **names = NULL;
	size_t c;

	pthread_mutex_lock(&cache_lock);
	for (c = 0; c < cache_n && names == NULL; c++)
		if (strcmp(cache[c].dir, dir) == 0)
			names = cache[c].names;
	if (names == NULL) {
		names = list_names(dir);
		cache = xreallocarray(cache, cache_n + 1, sizeof *cache);
		cache[cache_n].dir = xstrdup(dir);
		cache[cache_n++].names = names;
	}
	pthread_mutex_unlock(&cache_lock);
	return names;
}

void
builtin_names_cleanup(void)
{
	size_t c, i;

	pthread_mutex_lock(&cache_lock);
	for (c = 0; c < cache_n; c++) {
		for (i = 0; cache[c].names[i] != NULL; i++)
			free((char *)cache[c].names[i]);
		free(cache[c].names);
		free(cache[c].dir);
	}
	free(cache);
	cache = NULL;
	cache_n = 0;
	pthread_mutex_unlock(&cache_lock);
}
