/*
 * cache.c - the runtime probe's answers kept under $XDG_CACHE_HOME/gguflint
 * (else ~/.cache/gguflint), one file per (libraries, device asked for),
 * named by a key over each library's real path, size and modification
 * time (runtime-impl.h). A file is text, one record a line:
 *   gguflint-probe 4
 *   V <version> <commit>
 *   U <name> <description> <type> <free> <total> <library> <limit>
 *   T <date>
 *   C <op> <encoding> <row> <state> <nmse> <reason> <late>
 * where limit is the largest tensor the device claims an operation on
 * (bytes; 0: none found; empty: not measured, measured again on the
 * next probe) and late the limit (s) a case had no answer
 * within, else 0. A file that does not read as this is ignored (one of
 * an earlier version too: it has no claim limit): the cache is an aid,
 * and a probe afresh replaces it. The file helpers (rt_cache_path,
 * rt_cache_slurp, rt_cache_write) serve llama-cache.c's files too.
 */
#include "config.h"

#include <glob.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/cachedir.h"
#include "base/sha256.h"
#include "runtime/runtime-impl.h"

#define CACHE_MAGIC "gguflint-probe 4"
#define CACHE_MAX (1u << 20)

int
rt_cache_libs(const char *dir, const char *pat, struct strbuf *sb)
{
	char *g_pat = xasprintf("%s/%s", dir, pat), rp[PATH_MAX];
	struct stat st;
	glob_t g;
	size_t i;
	int n = 0;

	if (glob(g_pat, 0, NULL, &g) == 0) {
		for (i = 0; i < g.gl_pathc; i++)
			if (realpath(g.gl_pathv[i], rp) != NULL &&
			    stat(rp, &st) == 0) {
				strbuf_addf(sb, "%s\t%lld\t%lld.%09ld\n", rp,
				    (long long)st.st_size,
				    (long long)st.st_mtim.tv_sec,
				    st.st_mtim.tv_nsec);
				n++;
			}
		globfree(&g);
	}
	free(g_pat);
	return n;
}

void
rt_cache_digest(const struct strbuf *sb, char key[33])
{
	struct sha256 h;
	uint8_t dg[32];
	char hex[65];

	sha256_init(&h);
	sha256_update(&h, sb->buf, sb->len);
	sha256_final(&h, dg);
	sha256_hex(dg, hex);
	memcpy(key, hex, 32);
	key[32] = '\0';
}

int
rt_cache_key(const char *dir, const char *device, char key[33])
{
	struct strbuf sb = STRBUF_INIT;
	int n = rt_cache_libs(dir, "libggml*.so*", &sb);

	strbuf_addf(&sb, "device\t%s\n", device ? device : "");
	if (n > 0)
		rt_cache_digest(&sb, key);
	strbuf_free(&sb);
	return n > 0 ? 0 : -1;
}

char *
rt_cache_path(const char *kind, const char *key, bool make)
{
	char *d = cache_dir(make), *p;

	if (d == NULL)
		return NULL;
	p = xasprintf("%s/%s-%s.txt", d, kind, key);
	free(d);
	return p;
}

char *
rt_cache_slurp(const char *path, const char *magic)
{
	FILE *fp = fopen(path, "r");
	size_t n, m = strlen(magic);
	char *buf;

	if (fp == NULL)
		return NULL;
	buf = xmalloc(CACHE_MAX + 1);
	n = fread(buf, 1, CACHE_MAX, fp);
	fclose(fp);
	if (n == CACHE_MAX || n <= m || memcmp(buf, magic, m) != 0 ||
	    buf[m] != '\n') {
		free(buf);
		return NULL;
	}
	buf[n] = '\0';
	return buf;
}

void
rt_cache_write(const char *path, const struct strbuf *sb)
{
	static _Atomic unsigned serial; /* one a write: threads share a pid */
	char *tmp = xasprintf("%s.tmp-%ld-%u", path, (long)getpid(), serial++);
	FILE *fp;

	if ((fp = fopen(tmp, "w")) != NULL) {
		bool ok = fwrite(sb->buf, 1, sb->len, fp) == sb->len;

		if (fclose(fp) == 0 && ok && rename(tmp, path) == 0)
			tmp[0] = '\0';
	}
	if (tmp[0] != '\0')
		unlink(tmp);
	free(tmp);
}

/* A C record's answer into the matching, unanswered case, unless it is
 * of no answer within a limit shorter than limit. */
static size_t
load_case(char **f, size_t nf, struct rt_case *cases, size_t n, unsigned limit)
{
	unsigned long op, enc, row, st, late;
	size_t i;

	if (nf < 7)
		return 0;
	op = strtoul(f[1], NULL, 10);
	enc = strtoul(f[2], NULL, 10);
	row = strtoul(f[3], NULL, 10);
	st = strtoul(f[4], NULL, 10);
	late = nf > 7 ? strtoul(f[7], NULL, 10) : 0;
	if (st > RT_UNSAFE || (late > 0 && late < limit))
		return 0;
	for (i = 0; i < n; i++) {
		struct rt_case *c = &cases[i];

		if (c->cached || c->op != op || c->encoding != enc ||
		    c->row != row)
			continue;
		c->state = (enum rt_state)st;
		c->nmse = strtod(f[5], NULL);
		free(c->reason);
		c->reason = *f[6] ? xstrdup(f[6]) : NULL;
		c->late_s = (unsigned)late;
		c->cached = true;
		return 1;
	}
	return 0;
}

size_t
rt_cache_load(const char *key, struct rt_case *cases, size_t n, unsigned limit,
    struct rt_info *info)
{
	char *path = rt_cache_path("probe", key, false), *text, *line;
	char *save = NULL, *f[8];
	size_t got = 0, nf;

	text = path ? rt_cache_slurp(path, CACHE_MAGIC) : NULL;
	free(path);
	if (text == NULL)
		return 0;
	for (line = strtok_r(text, "\n", &save); line != NULL;
	     line = strtok_r(NULL, "\n", &save)) {
		nf = rt_split(line, f, 8);
		if (f[0][0] == 'V' && nf >= 3 && info->version == NULL) {
			info->version = xstrdup(f[1]);
			info->commit = xstrdup(f[2]);
		} else if (f[0][0] == 'U')
			rt_device_set(&info->device, f, nf);
		else if (f[0][0] == 'T' && nf >= 2 && info->date == NULL)
			info->date = xstrdup(f[1]);
		else if (f[0][0] == 'C')
			got += load_case(f, nf, cases, n, limit);
	}
	free(text);
	return got;
}

/* Whether a stored C record is for one of the cases (to be replaced). */
static bool
stored_replaced(const char *rec, const struct rt_case *cases, size_t n)
{
	unsigned long op, enc, row;
	size_t i;

	if (sscanf(rec, "C\t%lu\t%lu\t%lu", &op, &enc, &row) != 3)
		return true; /* not a record: dropped */
	for (i = 0; i < n; i++)
		if (cases[i].op == op && cases[i].encoding == enc &&
		    cases[i].row == row && cases[i].state != RT_REFERENCE_ONLY)
			return true;
	return false;
}

void
rt_cache_store(const char *key, const struct rt_case *cases, size_t n,
    const struct rt_info *info)
{
	char *path = rt_cache_path("probe", key, true), *old, *line;
	char *save = NULL;
	const struct rt_device *d = &info->device;
	struct strbuf sb = STRBUF_INIT;
	char lim[24] = ""; /* empty: not measured */
	size_t i;

	if (path == NULL || d->name == NULL) {
		free(path);
		return;
	}
	if (d->max_tensor_known)
		snprintf(lim, sizeof lim, "%llu",
		    (unsigned long long)d->max_tensor);
	strbuf_addf(&sb,
	    CACHE_MAGIC "\nV\t%s\t%s\nU\t%s\t%s\t%s\t%llu\t%llu\t%s\t%s\n"
			"T\t%s\n",
	    info->version ? info->version : "unknown",
	    info->commit ? info->commit : "unknown", d->name, d->description,
	    d->type, (unsigned long long)d->mem_free,
	    (unsigned long long)d->mem_total, d->library ? d->library : "", lim,
	    info->date ? info->date : "");
	if ((old = rt_cache_slurp(path, CACHE_MAGIC)) != NULL)
		for (line = strtok_r(old, "\n", &save); line != NULL;
		     line = strtok_r(NULL, "\n", &save))
			if (line[0] == 'C' && !stored_replaced(line, cases, n))
				strbuf_addf(&sb, "%s\n", line);
	free(old);
	for (i = 0; i < n; i++)
		if (cases[i].state != RT_REFERENCE_ONLY)
			strbuf_addf(&sb, "C\t%d\t%u\t%u\t%d\t%.17g\t%s\t%u\n",
			    (int)cases[i].op, cases[i].encoding, cases[i].row,
			    (int)cases[i].state, cases[i].nmse,
			    cases[i].reason ? cases[i].reason : "",
			    cases[i].late_s);
	rt_cache_write(path, &sb);
	free(path);
	strbuf_free(&sb);
}
