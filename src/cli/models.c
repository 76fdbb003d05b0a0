/*
 * models.c - the inputs (see models.h): the files given, each directory
 * walked for the *.gguf below it, then grouped into models: a file named
 * as a shard of a split model stands for all of its shards, found beside
 * it by the names llama.cpp derives (llama_split_path: the prefix, then
 * -%05d-of-%05d.gguf with the shard's number from 1 and the count). A
 * URL's name is its path: its query (or fragment) is not part of it, and
 * a shard not given gets the URL of one that was, its number replaced
 * and its query kept.
 */
#include "config.h"

#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "base/error.h"
#include "base/splitname.h"
#include "base/util.h"
#include "cli/models.h"
#include "source/url.h"

static struct file_list *walk_list; /* nftw has no user pointer */

void
models_push_file(struct file_list *fl, const char *path)
{
	if (fl->n == fl->cap) {
		fl->cap = fl->cap ? fl->cap * 2 : 16;
		fl->v = xreallocarray(fl->v, fl->cap, sizeof *fl->v);
	}
	fl->v[fl->n++] = xstrdup(path);
}

/* walk_one: nftw's callback: keep *.gguf (any case: *.GGUF too), skip
 * hidden directories. */
static int
walk_one(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	const char *base = path + ftw->base;
	size_t n = strlen(base);

	(void)st;
	if (type == FTW_D && base[0] == '.' && ftw->level > 0)
		return FTW_SKIP_SUBTREE; /* .git and the like */
	if (type == FTW_F && n > 5 && strcasecmp(base + n - 5, ".gguf") == 0)
		models_push_file(walk_list, path);
	return FTW_CONTINUE;
}

static int
cmp_path(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void
models_expand(char *const *paths, size_t n, struct file_list *fl)
{
	struct stat st;
	size_t i, first;

	memset(fl, 0, sizeof *fl);
	walk_list = fl;
	for (i = 0; i < n; i++) {
		if (stat(paths[i], &st) == 0 && S_ISDIR(st.st_mode)) {
			first = fl->n;
			nftw(paths[i], walk_one, 16,
			    FTW_PHYS | FTW_ACTIONRETVAL);
			if (fl->n > first)
				qsort(fl->v + first, fl->n - first,
				    sizeof *fl->v, cmp_path);
			else
				fprintf(stderr,
				    "gguflint: no .gguf file under %s\n",
				    paths[i]);
			continue;
		}
		models_push_file(fl, paths[i]); /* whatever its name */
	}
}

void
models_files_free(struct file_list *fl)
{
	size_t i;

	for (i = 0; i < fl->n; i++)
		free(fl->v[i]);
	free(fl->v);
}

/* push: a new model of n files at the end of ml, paths to be filled in. */
static struct model_input *
push(struct model_list *ml, size_t n, bool split)
{
	struct model_input *in;

	if (ml->n == ml->cap) {
		ml->cap = ml->cap ? ml->cap * 2 : 16;
		ml->v = xreallocarray(ml->v, ml->cap, sizeof *ml->v);
	}
	in = &ml->v[ml->n++];
	in->path = xcalloc(n, sizeof *in->path);
	in->given = xcalloc(n, sizeof *in->given);
	in->n = n;
	in->split = split;
	return in;
}

/* find: the split model of ml whose first shard's name (its query
 * aside) is first, or NULL. */
static struct model_input *
find(const struct model_list *ml, const char *first)
{
	size_t i, n = strlen(first);

	for (i = 0; i < ml->n; i++)
		if (ml->v[i].split && url_name_len(ml->v[i].path[0]) == n &&
		    memcmp(ml->v[i].path[0], first, n) == 0)
			return &ml->v[i];
	return NULL;
}

/* add_shard: path, shard no of count (its prefix plen bytes, its name
 * nlen: a query follows), into its model (made when new: the shards not
 * given named after path, its query kept). A shard given twice keeps the
 * first path. */
static void
add_shard(struct model_list *ml, const char *path, size_t plen, size_t nlen,
    unsigned no, unsigned count)
{
	struct model_input *in;
	char *first;
	unsigned i;

	first = xasprintf("%.*s-%05u-of-%05u.gguf", (int)plen, path, 1u, count);
	if ((in = find(ml, first)) == NULL) {
		in = push(ml, count, true);
		for (i = 0; i < count; i++)
			in->path[i] = xasprintf("%.*s-%05u-of-%05u.gguf%s",
			    (int)plen, path, i + 1, count, path + nlen);
	}
	free(first);
	if (!in->given[no - 1]) {
		free(in->path[no - 1]);
		in->path[no - 1] = xstrdup(path);
	}
	in->given[no - 1] = true;
}

void
models_group(char *const *paths, size_t n, struct model_list *ml)
{
	struct model_input *in;
	unsigned no, count;
	size_t i, plen, nlen;

	memset(ml, 0, sizeof *ml);
	for (i = 0; i < n; i++) {
		nlen = url_name_len(paths[i]);
		if (split_parse_namen(paths[i], nlen, &plen, &no, &count) &&
		    plen <= (size_t)INT_MAX) {
			add_shard(ml, paths[i], plen, nlen, no, count);
			continue;
		}
		in = push(ml, 1, false);
		in->path[0] = xstrdup(paths[i]);
		in->given[0] = true;
	}
}

void
models_free(struct model_list *ml)
{
	size_t i, j;

	for (i = 0; i < ml->n; i++) {
		for (j = 0; j < ml->v[i].n; j++)
			free(ml->v[i].path[j]);
		free(ml->v[i].path);
		free(ml->v[i].given);
	}
	free(ml->v);
	memset(ml, 0, sizeof *ml);
}

int
models_read_list(const char *path, struct file_list *fl, struct gl_error *err)
{
	FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "r");
	char *line = NULL;
	size_t cap = 0, no = 0;
	ssize_t len;
	int rc = 0;

	if (f == NULL)
		return gl_error_setk(err, GL_ERR_IO, "--files-from %s: %s",
		    path, strerror(errno));
	while (rc == 0 && (len = getline(&line, &cap, f)) >= 0) {
		no++;
		while (
		    len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
			line[--len] = '\0';
		if (memchr(line, '\0', (size_t)len) != NULL)
			rc = gl_error_setk(err, GL_ERR_PARSE,
			    "--files-from "
			    "%s:%zu: a NUL byte in the path",
			    path, no);
		else if (len > 0 && line[0] != '#')
			models_push_file(fl, line);
	}
	if (rc == 0 && ferror(f))
		rc = gl_error_setk(err, GL_ERR_IO, "--files-from %s: %s", path,
		    strerror(errno));
	free(line);
	if (f != stdin)
		fclose(f);
	return rc;
}

/* FNV-1a, 64 bits, of the n bytes at p. */
static uint64_t
fnv1a(const char *p, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ull;

	while (n-- > 0) {
		h ^= (unsigned char)*p++;
		h *= 0x100000001b3ull;
	}
	return h;
}

bool
models_in_shard(const struct model_input *in, unsigned i, unsigned n)
{
	if (n <= 1)
		return true;
	return fnv1a(in->path[0], strlen(in->path[0])) % n == i - 1;
}
