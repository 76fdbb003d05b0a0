/*
 * session-run.c - a lint run over the session's inputs: the models found
 * (directories, lists, shards, hf:// repositories expanded), each linted
 * in turn or by --jobs' workers, reported in the order given, the
 * baseline applied or recorded, --statistics, and the run's exit status.
 * session.c builds the session and dispatches here.
 */
#include "config.h"

#ifdef HAVE_MALLOC_H
#include <malloc.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/error.h"
#include "base/util.h"
#include "cli/jobs.h"
#include "cli/models.h"
#include "cli/options.h"
#include "cli/session-impl.h"
#include "findings/baseline.h"
#include "findings/catalog.h"
#include "findings/diag.h"
#include "findings/policy.h"
#include "findings/severity.h"
#include "lint.h"
#include "report/report.h"
#include "runtime/runtime.h"
#include "source/hub.h"
#include "source/source.h"
#include "source/url.h"

/* A vocabulary load or a measurement the runtime's libllama could not be
 * asked for. */
static void
llama_note(const struct lint_result *res)
{
	const struct rt_llama *l = &res->llama;
	const struct rt_llama *m = &res->measure.said;

	if (l->verdict == RT_LLAMA_SKIPPED || l->verdict == RT_LLAMA_FAILED)
		fprintf(stderr,
		    "gguflint: note: %s: no vocabulary load by the "
		    "runtime's libllama: %s\n",
		    res->path, l->text);
	if (m->verdict == RT_LLAMA_SKIPPED || m->verdict == RT_LLAMA_FAILED)
		fprintf(stderr,
		    "gguflint: note: %s: not measured (--measure) by the "
		    "runtime's libllama: %s\n",
		    res->path, m->text);
}

/* --statistics: one line per rule found, most frequent first. */
static void
print_statistics(const struct catalog *cat, const size_t *count, FILE *fp)
{
	size_t i, max = 0, n;

	for (i = 0; i < cat->n; i++)
		if (count[i] > max)
			max = count[i];
	for (n = max; n > 0; n--)
		for (i = 0; i < cat->n; i++)
			if (count[i] == n)
				fprintf(fp, "%6zu  %s %-32s %s\n", n,
				    cat->rules[i].code, cat->rules[i].slug,
				    severity_name(cat->rules[i].severity));
}

/* What a lint run adds up as it goes. */
struct tally {
	size_t *count;		/* per rule index, for --statistics */
	size_t warnings;	/* for --max-warnings */
	bool failed;		/* the findings fail the run */
	struct report_summary sum;	/* the closing summary line */
};

/* tally_model: what one model's results add to the run's verdict and
 * counts. */
static void
tally_model(const struct session *s, const struct lint_model *m,
    struct tally *t)
{
	bool failed = false;
	size_t j, k;

	for (k = 0; k < m->n; k++) {
		const struct lint_result *res = &m->res[k];

		failed = failed || policy_fails(&s->policy, &res->diags);
		t->warnings += res->warnings;
		for (j = 0; j < res->diags.n; j++) {
			const struct diag *d = &res->diags.v[j];

			t->count[d->rule - s->cat.rules]++;
			if (!d->baselined)
				t->sum.count[d->severity]++;
			else if (d->severity == SEV_WARNING &&
			    t->warnings > 0)
				t->warnings--;	/* --max-warnings */
			t->sum.baselined += d->baselined;
		}
	}
	t->sum.failed += failed;
	t->failed = t->failed || failed;
}

/* mark_baselined: with a baseline, mark res's findings it holds (or,
 * for --write-baseline, record them all). */
static void
mark_baselined(struct session *s, struct lint_result *res)
{
	if (s->record)
		baseline_record(&s->bl, res->path, &res->diags);
	else if (s->have_bl)
		baseline_apply(&s->bl, res->path, &res->diags);
}

/* save_baseline: --write-baseline: the file, and a line saying so. */
static int
save_baseline(const struct options *o, struct session *s,
    const struct tally *t)
{
	struct gl_error err;

	if (baseline_save(&s->bl, o->write_baseline, &err) < 0) {
		session_fail(&err);
		return -1;
	}
	fprintf(stderr, "gguflint: %zu findings of %zu models recorded in "
	    "%s\n", s->bl.n, t->sum.models, o->write_baseline);
	return 0;
}

/* over_budget: whether the warnings exceed --max-warnings. */
static bool
over_budget(const struct session *s, const struct tally *t)
{
	return s->policy.max_warnings >= 0 &&
	    t->warnings > (size_t)s->policy.max_warnings;
}

/* exit_code: the run's exit status as it stands before the report ends
 * (status: 0, or 2 for an operational error), for SARIF's invocation. */
static int
exit_code(const struct options *o, const struct session *s,
    const struct tally *t, int status)
{
	if (status != 0)
		return status;
	if (!t->failed && !over_budget(s, t))
		return 0;
	return o->exit_zero || s->cfg.exit_zero ? 0 : 1;
}

/*
 * finish_run: after the report: --statistics, --max-warnings and the
 * closing summary of the text format (on stderr, so that it stays on the
 * terminal with --output or a redirection; not with --quiet). Returns 0,
 * or -1 when stdout failed.
 */
static int
finish_run(const struct options *o, struct session *s, struct tally *t,
    struct strbuf *out)
{
	bool text = strcmp(o->format, "text") == 0;
	struct strbuf line = STRBUF_INIT;

	if (o->statistics) {
		if (session_write_out(out) < 0 || fflush(stdout) != 0)
			return -1;
		print_statistics(&s->cat, t->count, text ? stdout : stderr);
	}
	if (over_budget(s, t)) {
		fprintf(stderr, "gguflint: %zu warnings, more than "
		    "--max-warnings %ld\n", t->warnings,
		    s->policy.max_warnings);
		t->failed = true;
	}
	if (text && !s->policy.quiet) {
		if (session_write_out(out) < 0 || fflush(stdout) != 0)
			return -1;
		report_text_summary(&line, &t->sum);
		fputs(strbuf_cstr(&line), stderr);
		strbuf_free(&line);
	}
	return 0;
}

/*
 * Whether input in of several (ml) is a file given as a companion
 * (--mmproj, ...), found again among the models (a directory walk): it is
 * linted beside each model, not as one. Alone, it is the model.
 */
static bool
companion_input(const struct options *o, const struct model_list *ml,
    const struct model_input *in)
{
	struct stat a, b;
	size_t i;

	if (ml->n < 2 || in->split || stat(in->path[0], &a) < 0)
		return false;
	for (i = 0; i < o->n_companions; i++)
		if (stat(o->companions[i].path, &b) == 0 &&
		    a.st_dev == b.st_dev && a.st_ino == b.st_ino)
			return true;
	return false;
}

/* A lint run: what reporting a model needs, and how the run stands. */
struct run {
	const struct options *o;
	struct session *s;
	const struct reporter *rep;
	struct strbuf *out;
	struct tally t;
	const struct model_input **todo;	/* the models to lint */
	size_t n;
	int status;		/* 0, 2: an input failed, -1: stdout */
	/* --jobs: the results of the models taken and not yet reported,
	 * each in slot i % window */
	struct job_slot *slot;
	size_t window;
	struct lint_options lo;	/* the workers' (no progress line) */
	/* the repositories whose listing failed, reported first */
	char **unread_path;
	struct gl_error *unread_err;
	size_t n_unread;
};

/*
 * expand_repos: each hf://ORG/REPO[@REV] of given (no file) replaced by
 * the hf:// paths of its GGUF files (hub.c: the Hub's tree API); a
 * repository with none is said on stderr, one whose listing fails is
 * kept in r to be reported as an input that could not be read.
 */
static void
expand_repos(const struct session *s, struct file_list *given,
    struct run *r)
{
	struct file_list out = { 0 };
	struct url_repo rp;
	struct hub_files fl;
	struct gl_error e;
	size_t i, k;

	for (i = 0; i < given->n; i++) {
		if (!url_hf_repo(given->v[i], &rp)) {
			models_push_file(&out, given->v[i]);
			continue;
		}
		if (hub_list(given->v[i], &rp, &s->src, &fl, &e) < 0) {
			r->unread_path = xreallocarray(r->unread_path,
			    r->n_unread + 1, sizeof *r->unread_path);
			r->unread_err = xreallocarray(r->unread_err,
			    r->n_unread + 1, sizeof *r->unread_err);
			r->unread_path[r->n_unread] = xstrdup(given->v[i]);
			r->unread_err[r->n_unread++] = e;
			continue;
		}
		if (fl.n == 0)
			fprintf(stderr, "gguflint: no .gguf file in %s\n",
			    given->v[i]);
		for (k = 0; k < fl.n; k++)
			models_push_file(&out, fl.v[k]);
		hub_files_free(&fl);
	}
	models_files_free(given);
	*given = out;
}

/*
 * session_models: the models of o's inputs: the files given and those
 * --files-from lists, repositories listed, directories expanded, the
 * shards of a split model grouped. Returns 0, or -1 with err set (the
 * list cannot be read).
 */
static int
session_models(const struct options *o, const struct session *s,
    struct model_list *ml, struct run *r, struct gl_error *err)
{
	struct file_list given = { 0 }, fl;
	size_t i;

	for (i = 0; i < o->n_files; i++)
		models_push_file(&given, o->files[i]);
	if (o->files_from != NULL &&
	    models_read_list(o->files_from, &given, err) < 0) {
		models_files_free(&given);
		return -1;
	}
	expand_repos(s, &given, r);
	models_expand(given.v, given.n, &fl);
	models_files_free(&given);
	models_group(fl.v, fl.n, ml);
	models_files_free(&fl);
	return 0;
}

/* One model's lint, as a worker leaves it for the report. */
struct job_slot {
	int rc;
	struct lint_model m;
	struct gl_error err;
};

/*
 * report_model: report the lint of in (rc, m, err as lint_input left
 * them), tally it, free m and write the report out; 0, or 1 when stdout
 * failed (r->status is then -1).
 */
static int
report_model(struct run *r, const struct model_input *in, int rc,
    struct lint_model *m, const struct gl_error *err)
{
	struct session *s = r->s;
	const struct reporter *rep = r->rep;
	size_t k;

	if (rc < 0) {
		session_fail(err);
		r->status = 2;
		r->t.sum.unread++;
		if (rep->error != NULL)
			rep->error(&s->report, r->out, in->path[0], err->msg,
			    false);
	} else {
		for (k = 0; k < m->n; k++) {
			if (m->res[k].rt_error != NULL) {
				fprintf(stderr, "gguflint: %s\n",
				    m->res[k].rt_error);
				r->status = 2;
				if (rep->error != NULL)
					rep->error(&s->report, r->out,
					    m->res[k].path,
					    m->res[k].rt_error, true);
			}
			llama_note(&m->res[k]);
			mark_baselined(s, &m->res[k]);
			rep->file(&s->report, r->out, &m->res[k]);
		}
		tally_model(s, m, &r->t);
	}
	lint_model_free(m);
	if (session_write_out(r->out) < 0) {
		r->status = -1;
		return 1;
	}
	return 0;
}

/* The repositories whose listing failed, as inputs that could not be
 * read. */
static void
report_unlisted(struct run *r)
{
	struct model_input in;
	size_t i;

	for (i = 0; i < r->n_unread; i++) {
		in.path = &r->unread_path[i];
		in.n = 1;
		if (r->status >= 0)
			report_model(r, &in, -1, &(struct lint_model){ 0 },
			    &r->unread_err[i]);
		free(r->unread_path[i]);
	}
	free(r->unread_path);
	free(r->unread_err);
}

/* The models to lint, one after another (--jobs 1). */
static void
lint_serial(struct run *r)
{
	struct session *s = r->s;
	struct lint_model m;
	struct gl_error err;
	size_t i;
	int rc;

	for (i = 0; i < r->n && r->status >= 0; i++) {
		progress_begin(&s->progress, r->todo[i]->path[0]);
		rc = lint_input(r->todo[i], &s->lo, &m, &err);
		progress_end(&s->progress);
		report_model(r, r->todo[i], rc, &m, &err);
	}
}

/* --jobs: a worker's lint of model i, into its slot. */
/* AddressSanitizer's allocator is not glibc's: its malloc_trim would
 * walk arenas that were never made (a crash). */
#if defined(__SANITIZE_ADDRESS__)
#define GL_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define GL_ASAN 1
#endif
#endif

/*
 * What the lint freed (its plans, its transfers) goes back to the system
 * now: the arenas the workers share would keep the high-water mark of
 * every lint they served, a few MiB each (the hub bench's 1000 remote
 * models at --jobs 32: 368 and 369 MiB peak, 351 and 357 trimmed).
 */
static void
trim_heap(void)
{
#if defined(HAVE_MALLOC_TRIM) && !defined(GL_ASAN)
	(void)malloc_trim(0);
#endif
}

static void
job_work(size_t i, void *arg)
{
	struct run *r = arg;
	struct job_slot *js = &r->slot[i % r->window];

	js->rc = lint_input(r->todo[i], &r->lo, &js->m, &js->err);
	trim_heap();
}

/* --jobs: model i's report, in order; nonzero when stdout failed. */
static int
job_done(size_t i, void *arg)
{
	struct run *r = arg;
	struct job_slot *js = &r->slot[i % r->window];

	if (r->status < 0) {	/* stdout failed: only free it */
		lint_model_free(&js->m);
		return 1;
	}
	return report_model(r, r->todo[i], js->rc, &js->m, &js->err);
}

/* Whether a model of r is read from a URL. */
static bool
any_remote(const struct run *r)
{
	size_t i, k;

	for (i = 0; i < r->n; i++)
		for (k = 0; k < r->todo[i]->n; k++)
			if (source_is_remote(r->todo[i]->path[k]))
				return true;
	return false;
}

/*
 * session_jobs: how many models to lint at once: --jobs, else 1 with
 * --deep (each model's scan has a thread per CPU already), else
 * --max-per-host (8) when an input is a URL (the requests, not the CPUs,
 * are what it waits for: as many as a host may have in flight), else the
 * CPUs; never more than the models.
 */
static unsigned
session_jobs(const struct options *o, const struct run *r)
{
	unsigned n = o->jobs;

	if (n == 0 && o->deep)
		n = 1;
	if (n == 0 && any_remote(r))
		n = o->max_per_host ? o->max_per_host : 8;
	if (n == 0)
		n = jobs_cpus();
	return n > r->n ? (unsigned)(r->n > 0 ? r->n : 1) : n;
}

/*
 * malloc_fix: glibc's mmap threshold fixed at 1 MiB, so that each
 * header window (a megabyte and more) is mapped and unmapped whole. The
 * first free of a window would raise it past the next ones otherwise.
 * With --jobs they would come from per-thread arenas that keep what
 * they free (64 sparse 8B headers at --jobs 32: 415 MB peak RSS, 357
 * fixed). A remote window, grown by doubling, would be copied at each
 * step in the heap, and the smaller copies kept there (20 remote
 * models of the hub bench, one at a time: 42 MiB, 29 fixed). A local
 * serial run keeps glibc's threshold: it reuses the heap's pages, where
 * every mapping is faulted in afresh (64 local 8B lints: 1.3 s, 2.4 s
 * fixed).
 */
static void
malloc_fix(void)
{
#ifdef M_MMAP_THRESHOLD
	(void)mallopt(M_MMAP_THRESHOLD, 1 << 20);
#endif
}

/*
 * lint_pooled: the models on jobs worker threads, reported in order as
 * each is done; a worker waits when jobs models are taken and not yet
 * reported, so that at most jobs results (their headers) are held. The
 * workers have no progress line, and --deep's threads are shared out.
 */
static void
lint_pooled(struct run *r, unsigned jobs)
{
	struct jobs_fns fns = { job_work, job_done, r };
	unsigned cpus = jobs_cpus();

	r->lo = r->s->lo;
	r->lo.progress = NULL;
	if (r->lo.threads == 0)
		r->lo.threads = cpus > jobs ? cpus / jobs : 1;
	r->window = jobs;
	r->slot = xcalloc(r->window, sizeof *r->slot);
	if (jobs_run(r->n, jobs, r->window, &fns) < 0)
		lint_serial(r);	/* no thread could start */
	free(r->slot);
	r->slot = NULL;
}

/*
 * http_counts: what the remote files asked, for the report's end; and,
 * in a run of several models where a request was retried or
 * rate-limited, a note on stderr saying so (not with --quiet; a model
 * that could not be read says its tries in its error).
 */
static void
http_counts(struct session *s, size_t models)
{
	struct report_http *h = &s->report.http;
	struct source_stats st;

	source_stats(&st);
	h->requests = st.requests;
	h->retries = st.retries;
	h->rate_limited = st.rate_limited;
	h->queued = st.queued;
	h->waited_ms = st.waited_ms;
	if ((st.retries > 0 || st.rate_limited > 0) && models > 1 &&
	    !s->policy.quiet)
		fprintf(stderr, "gguflint: note: %lu requests, %lu of them "
		    "retries; %lu answered 429 (Too Many Requests); %lu "
		    "waited for their host, %.1f s in all\n", st.requests,
		    st.retries, st.rate_limited, st.queued,
		    (double)st.waited_ms / 1e3);
}

/* The lint run (session-impl.h). */
int
session_lint_inputs(const struct options *o, struct session *s,
    const struct reporter *rep, struct strbuf *out)
{
	struct run r = { .o = o, .s = s, .rep = rep, .out = out };
	struct model_list ml;
	struct gl_error err;
	unsigned jobs;
	size_t i;

	if (session_models(o, s, &ml, &r, &err) < 0) {
		session_fail(&err);
		return 2;
	}
	r.t.count = xcalloc(s->cat.n + 1, sizeof *r.t.count);
	r.todo = xcalloc(ml.n + 1, sizeof *r.todo);
	for (i = 0; i < ml.n; i++)
		if (!companion_input(o, &ml, &ml.v[i]) &&
		    models_in_shard(&ml.v[i], o->shard_i, o->shard_n))
			r.todo[r.n++] = &ml.v[i]; /* else beside each model;
						   * or another shard's */
	r.t.sum.models = r.n + r.n_unread;
	rep->begin(&s->report, out);
	report_unlisted(&r);
	jobs = session_jobs(o, &r);
	if (jobs > 1 || any_remote(&r))
		malloc_fix();
	if (jobs <= 1)
		lint_serial(&r);
	else
		lint_pooled(&r, jobs);
	free(r.todo);
	models_free(&ml);
	if (r.status >= 0 && s->have_bl && !s->record)
		r.t.sum.gone = s->report.baseline_gone = baseline_gone(&s->bl);
	if (r.status >= 0 && s->record && save_baseline(o, s, &r.t) < 0)
		r.status = 2;
	if (r.status >= 0) {
		s->report.exit_code = exit_code(o, s, &r.t, r.status);
		http_counts(s, r.n);
		rep->end(&s->report, out);
		if (finish_run(o, s, &r.t, out) < 0)
			r.status = -1;
	}
	free(r.t.count);
	return r.status != 0 ? r.status : r.t.failed ? 1 : 0;
}

