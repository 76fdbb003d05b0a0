/*
 * probe-llama.c - the parent's side of the libllama jobs of the runtime
 * (runtime.h): a vocabulary load (llama.c's child) and a measurement
 * (measure.c's), each run in a child of probe.c's machinery
 * (runtime-impl.h) with a time limit, or replayed from what
 * llama-cache.c kept of an earlier run of the same job.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/enc.h"
#include "base/util.h"
#include "runtime/runtime-impl.h"

/* ---- a vocabulary load (llama.c) --------------------------------------- */

bool
runtime_has_llama(const char *dir)
{
	char *p = rt_llama_lib(dir);

	free(p);
	return p != NULL;
}

void
runtime_llama_free(struct rt_llama *l)
{
	free(l->version);
	free(l->text);
	memset(l, 0, sizeof *l);
}

/* t with every byte outside printable ASCII shown as <U+XXXX> (or
 * <0xXX>, not UTF-8): llama.cpp quotes the file's names, which may hold
 * invisible or terminal-controlling characters. A new string. */
static char *
shown(const char *t)
{
	size_t n = strlen(t), i = 0, len = 0;
	char *out = xmalloc(n * 8 + 1);

	while (i < n) {
		const uint8_t *p = (const uint8_t *)t + i;
		uint32_t cp;
		size_t k = enc_utf8_next(p, n - i, &cp);

		if (k == 1 && cp >= 0x20 && cp < 0x7f)
			out[len++] = (char)cp;
		else if (cp == 0xfffd && !(k == 3 && p[0] == 0xef)) {
			len += (size_t)sprintf(out + len, "<0x%02x>", p[0]);
			k = 1;
		} else
			len += (size_t)sprintf(out + len, "<U+%04X>",
			    (unsigned)cp);
		i += k;
	}
	out[len] = '\0';
	return out;
}

/* One line of the child's into out. */
static void
llama_event(char *line, struct rt_llama *out)
{
	char *f[2];
	size_t nf = rt_split(line, f, 2);
	const char *t = nf > 1 ? f[1] : "";

	if (f[0][0] == 'L' && out->version == NULL) {
		out->version = xstrdup(t);
		return;
	}
	if (out->text != NULL || strchr("ARNE", f[0][0]) == NULL)
		return;
	out->verdict = f[0][0] == 'A' ? RT_LLAMA_LOADED :
	    f[0][0] == 'R'	      ? RT_LLAMA_REFUSED :
	    f[0][0] == 'N'	      ? RT_LLAMA_SKIPPED :
					RT_LLAMA_FAILED;
	out->text = shown(t);
}

static void measure_event(const char *line, struct rt_measure *out);

/* One of a libllama job's lines (changed in place) into said, or m's. */
static void
llama_line(char *line, struct rt_llama *said, struct rt_measure *m)
{
	if (m != NULL && line[0] == 'C')
		measure_event(line, m);
	else
		llama_event(line, said);
}

/* Run a libllama job in a child (llama.c's vocabulary load, or measure.c's
 * measurement of rq unless NULL) on the model at path with dir's
 * libllama, with a time limit of timeout_s: its verdict into said, a
 * measurement's lines into m, each line appended to lines. */
static void
llama_child(const char *dir, const char *path, const struct rt_measure_req *rq,
    unsigned timeout_s, struct rt_llama *said, struct rt_measure *m,
    struct strbuf *lines)
{
	struct rt_job job;
	struct gl_error err;
	struct rt_child ch;
	unsigned tmo = rt_timeout_of(timeout_s);
	char *line, *how;
	int r;

	memset(&job, 0, sizeof job);
	job.dir = dir;
	job.model = path;
	job.measure = rq;
	if (rt_child_start(&ch, &job, 0, &err) < 0) {
		said->verdict = RT_LLAMA_FAILED;
		said->text = xstrdup(err.msg);
		return;
	}
	while ((r = rt_child_line(&ch, &line, (int)tmo * 1000)) > 0) {
		strbuf_addf(lines, "%s\n", line);
		llama_line(line, said, m);
	}
	how = rt_child_end(&ch, r < 0, NULL);
	if (said->text == NULL) {
		said->verdict = RT_LLAMA_DIED;
		said->text = how != NULL ? how : xstrdup("ended early");
		how = NULL;
	}
	free(how);
}

/* What a libllama job asks, as the cache names it (one line). */
static char *
job_name(const struct rt_measure_req *rq)
{
	char *dev, *name;

	if (rq == NULL)
		return xstrdup("vocab");
	dev = rt_clean(rq->device ? rq->device : "", 64);
	name = xasprintf("measure c=%u b=%u ub=%u np=%u ctk=%d ctv=%d fa=%d "
			 "swa_full=%d ngl=%d ncmoe=%d device=%s",
	    rq->n_ctx, rq->n_batch, rq->n_ubatch, rq->n_seq, (int)rq->type_k,
	    (int)rq->type_v, (int)rq->flash_attn, (int)rq->swa_full,
	    (int)rq->ngl, (int)rq->n_cpu_moe, dev);
	free(dev);
	return name;
}

/* The stored lines of job replayed into said and m; false (said and m
 * as they were) when none are stored, or they end in no answer kept. */
static bool
llama_replay(const struct rt_request *rt, const char *path, const char *job,
    struct rt_llama *said, struct rt_measure *m)
{
	struct strbuf lines = STRBUF_INIT;
	char *line, *save = NULL;
	bool ok;

	if (rt->no_cache || !rt_llama_cache_load(rt->dir, path, job, &lines)) {
		strbuf_free(&lines);
		return false;
	}
	for (line = strtok_r(lines.buf, "\n", &save); line != NULL;
	     line = strtok_r(NULL, "\n", &save))
		llama_line(line, said, m);
	strbuf_free(&lines);
	ok = said->verdict == RT_LLAMA_LOADED ||
	    said->verdict == RT_LLAMA_REFUSED;
	if (!ok && m != NULL)
		runtime_llama_measure_free(m);
	else if (!ok)
		runtime_llama_free(said);
	said->cached = ok;
	return ok;
}

/* A libllama job (llama_child's) answered from the cache unless
 * rt->no_cache, else by a child, whose answer is stored when it is
 * llama.cpp's (it loaded or refused). No libllama in rt->dir: said stays
 * NONE. */
static void
llama_job(const struct rt_request *rt, const char *path,
    const struct rt_measure_req *rq, struct rt_llama *said,
    struct rt_measure *m)
{
	struct strbuf lines = STRBUF_INIT;
	char *job, before[33];
	bool named;

	if (!runtime_has_llama(rt->dir))
		return;
	job = job_name(rq);
	named = rt_llama_cache_ident(path, before);
	if (!llama_replay(rt, path, job, said, m)) {
		llama_child(rt->dir, path, rq, rt->timeout_s, said, m, &lines);
		if (named &&
		    (said->verdict == RT_LLAMA_LOADED ||
			said->verdict == RT_LLAMA_REFUSED))
			rt_llama_cache_store(rt->dir, path, before, job,
			    &lines);
	}
	strbuf_free(&lines);
	free(job);
}

void
runtime_llama_vocab(const struct rt_request *rt, const char *path,
    struct rt_llama *out)
{
	memset(out, 0, sizeof *out);
	llama_job(rt, path, NULL, out, NULL);
}

/* ---- a measurement (measure.c) ----------------------------------------- */

void
runtime_llama_measure_free(struct rt_measure *m)
{
	runtime_llama_free(&m->said);
	memset(m, 0, sizeof *m);
}

/* One of the measurement's own lines into out: "C\t<name> <bytes>"
 * (llama-impl.h). */
static void
measure_event(const char *line, struct rt_measure *out)
{
	char name[sizeof out->buf[0].name];
	unsigned long long v;

	if (out->n >= RT_MEASURE_BUFS ||
	    sscanf(line, "C\t%31s %llu", name, &v) != 2)
		return;
	memcpy(out->buf[out->n].name, name, sizeof name);
	out->buf[out->n++].bytes = v;
}

void
runtime_llama_measure(const struct rt_request *rt, const char *path,
    const struct rt_measure_req *rq, struct rt_measure *out)
{
	memset(out, 0, sizeof *out);
	llama_job(rt, path, rq, &out->said, out);
}
