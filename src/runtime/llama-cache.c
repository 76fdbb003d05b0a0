/*
 * llama-cache.c - what the runtime's libllama said of a model (its
 * vocabulary load, a measurement: the child's lines of llama-impl.h),
 * kept beside the probe's answers (cache.c), so that a model linted again
 * unchanged, with the same libraries, needs no child: one file per
 * (libraries, model), named by a key over libllama's and each libggml's
 * real path, size and modification time, the model's real path and the
 * environment's GGML_ and LLAMA_ variables. A file is text, one record a
 * line:
 *   gguflint-llama 1
 *   M <digest of the model's files as they were>
 *   J <job> <line>            one of the child's lines, for job
 * where a job is what was asked ("vocab", or "measure" and the
 * parameters) and the model's files are the file, or every shard of a
 * split model named as llama.cpp names them (-00001-of-00003.gguf), each
 * by its device, inode, size, modification and change times. A file
 * whose M line is not the model's files now holds nothing for it. A
 * model changed less than SETTLE_S seconds ago is not stored: a file's
 * times are as coarse as the kernel's clock tick, so another write within
 * the tick could leave them as they are; nor one whose files changed
 * while llama.cpp read them (their identity before the child, checked at
 * the store).
 */
#include "config.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/splitname.h"
#include "runtime/runtime-impl.h"

#define LLAMA_MAGIC "gguflint-llama 1"
#define SETTLE_S 2
#define KEEP_LINES 512 /* other jobs' lines kept at a store, newest */

/* One file's identity as a line of sb; false when it is not there. The
 * latest of its times into *newest. */
static bool
file_line(const char *path, struct strbuf *sb, time_t *newest)
{
	struct stat st;

	if (stat(path, &st) != 0)
		return false;
	strbuf_addf(sb, "%s\t%llu\t%llu\t%lld\t%lld.%09ld\t%lld.%09ld\n", path,
	    (unsigned long long)st.st_dev, (unsigned long long)st.st_ino,
	    (long long)st.st_size, (long long)st.st_mtim.tv_sec,
	    st.st_mtim.tv_nsec, (long long)st.st_ctim.tv_sec,
	    st.st_ctim.tv_nsec);
	if (st.st_mtim.tv_sec > *newest)
		*newest = st.st_mtim.tv_sec;
	if (st.st_ctim.tv_sec > *newest)
		*newest = st.st_ctim.tv_sec;
	return true;
}

/* The model at rp's files (rp, or each shard) as text into sb; false
 * when one is not there. Their latest time into *newest. */
static bool
model_text(const char *rp, struct strbuf *sb, time_t *newest)
{
	size_t pre = 0;
	unsigned no, n, i;
	bool ok = true;

	*newest = 0;
	if (!split_parse_name(rp, &pre, &no, &n) || n < 2)
		return file_line(rp, sb, newest);
	for (i = 1; i <= n && ok; i++) {
		char *p = xasprintf("%.*s-%05u-of-%05u.gguf", (int)pre, rp, i,
		    n);

		ok = file_line(p, sb, newest);
		free(p);
	}
	return ok;
}

/* The environment's GGML_ and LLAMA_ variables (ggml's and llama.cpp's
 * settings: the devices shown, the scheduler's copies, ...) into sb. */
static void
ggml_environ(struct strbuf *sb)
{
	char **e;

	for (e = environ; *e != NULL; e++)
		if (strncmp(*e, "GGML_", 5) == 0 ||
		    strncmp(*e, "LLAMA_", 6) == 0)
			strbuf_addf(sb, "env\t%s\n", *e);
}

bool
rt_llama_cache_ident(const char *path, char ident[33])
{
	struct strbuf sb = STRBUF_INIT;
	char rp[PATH_MAX];
	time_t newest;
	bool ok = realpath(path, rp) != NULL && model_text(rp, &sb, &newest);

	if (ok)
		rt_cache_digest(&sb, ident);
	else
		ident[0] = '\0';
	strbuf_free(&sb);
	return ok;
}

/* The cache file of dir's libraries and the model at path (new string),
 * and the model's digest into ident; NULL when either cannot be named.
 * *newest: the model's latest time. */
static char *
llama_file(const char *dir, const char *path, bool make, char ident[33],
    time_t *newest)
{
	struct strbuf sb = STRBUF_INIT;
	char rp[PATH_MAX], key[33], *file = NULL;

	if (realpath(path, rp) == NULL)
		return NULL;
	if (model_text(rp, &sb, newest)) {
		rt_cache_digest(&sb, ident);
		strbuf_reset(&sb);
		if (rt_cache_libs(dir, "libllama*", &sb) > 0 &&
		    rt_cache_libs(dir, "libggml*.so*", &sb) > 0) {
			strbuf_addf(&sb, "model\t%s\n", rp);
			ggml_environ(&sb);
			rt_cache_digest(&sb, key);
			file = rt_cache_path("llama", key, make);
		}
	}
	strbuf_free(&sb);
	return file;
}

/* The stored text of file if its model is ident's (past its M line),
 * else NULL; *text owns it. */
static char *
records(const char *file, const char ident[33], char **text)
{
	char *t = rt_cache_slurp(file, LLAMA_MAGIC), *m;

	*text = t;
	if (t == NULL)
		return NULL;
	m = t + sizeof LLAMA_MAGIC;
	if (strncmp(m, "M\t", 2) != 0 || strncmp(m + 2, ident, 32) != 0 ||
	    m[34] != '\n')
		return NULL;
	return m + 35;
}

/* Whether line (a J record) is of job; *rest: the child's line. */
static bool
of_job(const char *line, const char *job, const char **rest)
{
	size_t n = strlen(job);

	if (strncmp(line, "J\t", 2) != 0 || strncmp(line + 2, job, n) != 0 ||
	    line[2 + n] != '\t')
		return false;
	*rest = line + 3 + n;
	return true;
}

bool
rt_llama_cache_load(const char *dir, const char *path, const char *job,
    struct strbuf *lines)
{
	char ident[33], *text, *r, *line, *save = NULL;
	char *file = llama_file(dir, path, false, ident, &(time_t){ 0 });
	const char *rest;
	bool got = false;

	if (file == NULL)
		return false;
	r = records(file, ident, &text);
	for (line = r ? strtok_r(r, "\n", &save) : NULL; line != NULL;
	     line = strtok_r(NULL, "\n", &save))
		if (of_job(line, job, &rest)) {
			strbuf_addf(lines, "%s\n", rest);
			got = true;
		}
	free(text);
	free(file);
	return got;
}

/* The J lines of other jobs than job in r, the newest KEEP_LINES, into
 * sb. */
static void
keep_others(char *r, const char *job, struct strbuf *sb)
{
	char *line, *save = NULL;
	const char *rest;
	size_t n = 0, skip, i = 0;

	for (line = r; (line = strchr(line, '\n')) != NULL; line++)
		n++;
	skip = n > KEEP_LINES ? n - KEEP_LINES : 0;
	for (line = strtok_r(r, "\n", &save); line != NULL;
	     line = strtok_r(NULL, "\n", &save))
		if (i++ >= skip && strncmp(line, "J\t", 2) == 0 &&
		    !of_job(line, job, &rest))
			strbuf_addf(sb, "%s\n", line);
}

void
rt_llama_cache_store(const char *dir, const char *path, const char *before,
    const char *job, const struct strbuf *lines)
{
	char ident[33], *text = NULL, *r, *file;
	struct strbuf sb = STRBUF_INIT;
	const char *l, *nl;
	time_t newest = 0;

	file = llama_file(dir, path, true, ident, &newest);
	if (file == NULL || strcmp(ident, before) != 0 ||
	    newest >= time(NULL) - SETTLE_S) {
		free(file);
		return;
	}
	strbuf_addf(&sb, LLAMA_MAGIC "\nM\t%s\n", ident);
	if ((r = records(file, ident, &text)) != NULL)
		keep_others(r, job, &sb);
	free(text);
	for (l = lines->buf; l != NULL && *l != '\0'; l = nl + 1) {
		if ((nl = strchr(l, '\n')) == NULL)
			break;
		strbuf_addf(&sb, "J\t%s\t%.*s\n", job, (int)(nl - l), l);
	}
	rt_cache_write(file, &sb);
	strbuf_free(&sb);
	free(file);
}
