/*
 * session.c - what the program does once its options are parsed: build the
 * session (catalogue, configuration file, policy, profile, probed
 * capability table, the reporter's context), then lint, dump or document
 * as the options say (the --list-* commands are session-list.c's, --dump
 * session-dump.c's), handing results to a reporter. Operational errors
 * are printed here, once, to stderr.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/error.h"
#include "base/suggest.h"
#include "base/util.h"
#include "base/version.h"
#include "checks/declrule.h"
#include "cli/configfile.h"
#include "cli/jobs.h"
#include "cli/models.h"
#include "cli/options.h"
#include "cli/output.h"
#include "cli/progress.h"
#include "cli/session-impl.h"
#include "cli/session.h"
#include "facts/advisory.h"
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
#include "target/captable.h"
#include "target/kvtype.h"
#include "target/profile.h"

/* Write and reset buf, in one write(2) (session-impl.h). */
int
session_write_out(struct strbuf *buf)
{
	size_t off = 0;
	ssize_t n;

	if (buf->len == 0)
		return 0;
	if (fflush(stdout) != 0)
		return -1;
	while (off < buf->len) {
		n = write(STDOUT_FILENO, buf->buf + off, buf->len - off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n == 0)
				errno = EIO;
			return -1;
		}
		off += (size_t)n;
	}
	strbuf_reset(buf);
	return 0;
}

/* write_failed: say that stdout failed (errno's reason); returns the
 * exit status 2. */
static int
write_failed(void)
{
	fprintf(stderr, "gguflint: error writing output: %s\n",
	    strerror(errno));
	return 2;
}

/* Print err, once, to stderr (session-impl.h). */
int
session_fail(const struct gl_error *err)
{
	fprintf(stderr, "gguflint: %s\n", err->msg);
	return 2;
}

/* Command-line --select/--ignore replace the configuration's lists. */
static int
merge_filter(const struct options *o, struct session *s, struct gl_error *err)
{
	struct diag_filter *f = &s->policy.filter;
	size_t i;

	if (o->n_select > 0) {
		for (i = 0; i < f->n_select; i++)
			free(f->select[i]);
		f->n_select = 0;
	}
	if (o->n_ignore > 0) {
		for (i = 0; i < f->n_ignore; i++)
			free(f->ignore[i]);
		f->n_ignore = 0;
	}
	for (i = 0; i < o->n_select; i++)
		if (diag_filter_add(f, &s->cat, o->select[i], 0, err) < 0)
			return -1;
	for (i = 0; i < o->n_ignore; i++)
		if (diag_filter_add(f, &s->cat, o->ignore[i], 1, err) < 0)
			return -1;
	if (o->fail_on != NULL)
		severity_parse(o->fail_on, &s->policy.fail_on);
	if (o->max_warnings >= 0)
		s->policy.max_warnings = o->max_warnings;
	s->policy.quiet = s->policy.quiet || o->quiet;
	return 0;
}

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

/* The runtime folder (session-impl.h). */
const char *
session_runtime_dir(const struct options *o)
{
	return o->runtime != NULL ? o->runtime : runtime_dir_default();
}

/*
 * llama.cpp's settings of the request: -ctk -ctv -fa -ub -b -np -ngl
 * -ncmoe --no-mmap --swa-full, else the configuration file's. --kv on the
 * command line sets K and V over the file's cache_type_k and _v.
 */
static int
llama_request(const struct options *o, const struct config *cfg,
    struct plan_request *rq, struct gl_error *err)
{
	const char *k = o->kv_k ? o->kv_k : o->kv ? NULL : cfg->kv_k;
	const char *v = o->kv_v ? o->kv_v : o->kv ? NULL : cfg->kv_v;
	const char *fa = o->flash_attn ? o->flash_attn : cfg->flash_attn;

	if (k != NULL && kv_type_parse(k, &rq->kv_k) < 0)
		return gl_error_set(err, "--cache-type-k: unknown KV cache "
		    "type '%s' (expected one of %s)", k, kv_type_names());
	if (v != NULL && kv_type_parse(v, &rq->kv_v) < 0)
		return gl_error_set(err, "--cache-type-v: unknown KV cache "
		    "type '%s' (expected one of %s)", v, kv_type_names());
	rq->kv_k_set = k != NULL;
	rq->kv_v_set = v != NULL;
	if (fa != NULL)
		rq->fa = strcmp(fa, "on") == 0 ? PLAN_FA_ON :
		    strcmp(fa, "off") == 0 ? PLAN_FA_OFF : PLAN_FA_AUTO;
	rq->ubatch = o->ubatch ? o->ubatch : cfg->ubatch;
	rq->batch = o->batch ? o->batch : cfg->batch;
	rq->n_seq = o->n_seq ? o->n_seq : cfg->n_seq;
	rq->ngl_set = o->ngl != -2 || cfg->has_ngl;
	rq->ngl = o->ngl != -2 ? o->ngl : cfg->ngl;
	rq->n_cpu_moe = o->n_cpu_moe != 0 ? o->n_cpu_moe : cfg->n_cpu_moe;
	rq->no_mmap = o->no_mmap || cfg->no_mmap;
	rq->swa_full = o->swa_full || cfg->swa_full;
	return 0;
}

/* The profile, its capability table (probed) and the plan request. */
static int
load_target(const struct options *o, struct session *s, struct gl_error *err)
{
	const char *kv = o->kv ? o->kv : s->cfg.kv;
	const char *pname = o->profile ? o->profile : s->cfg.profile ?
	    s->cfg.profile : PROFILE_DEFAULT;
	struct plan_request *rq = &s->lo.request;

	rq->ctx = o->ctx ? o->ctx : s->cfg.ctx;
	if (kv != NULL) {
		if (kv_type_parse(kv, &rq->kv) < 0)
			return gl_error_set(err, "--kv: unknown KV cache type "
			    "'%s' (expected one of %s)", kv, kv_type_names());
		rq->kv_set = true;
	}
	if (llama_request(o, &s->cfg, rq, err) < 0)
		return -1;
	if (profile_load(pname, &s->profile, err) < 0) {
		config_profile_hint(pname, err);
		return -1;
	}
	s->have_profile = true;
	if (o->runtime_version != NULL) {
		free(s->profile.runtime_version);
		s->profile.runtime_version = xstrdup(o->runtime_version);
		s->profile.runtime_build = o->runtime_build;
	}
	if (captable_load(s->profile.kernels, &s->table, err) < 0)
		return -1;
	captable_probe(&s->table, NULL);
	/* then the profile's runtime_dir, then the table's, each only where
	 * it is: a recorded table used elsewhere is used as recorded (K005) */
	s->rq.dir = session_runtime_dir(o);
	if (s->rq.dir == NULL && s->profile.runtime_dir != NULL &&
	    runtime_present(s->profile.runtime_dir))
		s->rq.dir = s->profile.runtime_dir;
	if (s->rq.dir == NULL && s->table.prov.runtime_dir != NULL &&
	    runtime_present(s->table.prov.runtime_dir))
		s->rq.dir = s->table.prov.runtime_dir;
	s->rq.device = o->device;
	s->rq.no_cache = o->no_cache;
	s->rq.measure = o->measure;
	if (o->measure && s->profile.runtime != RUNTIME_LLAMA_CPP)
		return gl_error_setk(err, GL_ERR_USAGE,
		    "--measure: profile %s describes SKaiNET, and llama.cpp "
		    "measures its own plans only (use a llama.cpp profile)",
		    s->profile.name);
	if (o->measure && (s->rq.dir == NULL || !runtime_has_llama(s->rq.dir)))
		return gl_error_setk(err, GL_ERR_USAGE,
		    "--measure needs llama.cpp's libraries (libllama beside "
		    "libggml-base): %s", s->rq.dir == NULL ?
		    "name their folder with --runtime DIR" :
		    "the runtime's folder has no libllama");
	s->lo.runtime = s->rq.dir != NULL ? &s->rq : NULL;
	s->lo.profile = &s->profile;
	s->lo.table = &s->table;
	s->lo.strict = s->profile.strict || o->strict || s->cfg.strict;
	return 0;
}

/* The baseline: --write-baseline's (recorded, whatever else is named),
 * else --baseline's or the configuration's. */
static int
load_baseline(const struct options *o, struct session *s,
    struct gl_error *err)
{
	const char *path = o->baseline ? o->baseline : s->cfg.baseline;

	if (o->mode != CLI_MODE_LINT)
		return 0;
	if (o->write_baseline != NULL) {
		s->have_bl = s->record = true;
		return baseline_init(&s->bl, o->write_baseline, err);
	}
	if (path == NULL)
		return 0;
	s->have_bl = true;
	return baseline_load(&s->bl, path, err);
}

/* use_color: whether --color=m asks for colours on this stdout. */
static bool
use_color(enum color_mode m)
{
	const char *term = getenv("TERM");

	if (m != COLOR_AUTO)
		return m == COLOR_ALWAYS;
	return isatty(STDOUT_FILENO) && getenv("NO_COLOR") == NULL &&
	    term != NULL && strcmp(term, "dumb") != 0;
}

/* The CA certificates remote servers are verified with: --cacert, else
 * the configuration's cacert:, else $CURL_CA_BUNDLE, else $SSL_CERT_FILE
 * (curl's order), else libcurl's. */
static void
set_cacert(const struct options *o, const struct config *cfg,
    struct source_opts *src)
{
	static const char *const env[] = { "CURL_CA_BUNDLE", "SSL_CERT_FILE" };
	const char *v;
	size_t i;

	src->cacert = o->cacert;
	src->cacert_from = "--cacert";
	if (src->cacert == NULL && cfg->cacert != NULL) {
		src->cacert = cfg->cacert;
		src->cacert_from = cfg->cacert_at;
	}
	for (i = 0; src->cacert == NULL && i < 2; i++)
		if ((v = getenv(env[i])) != NULL && *v != '\0') {
			src->cacert = v;
			src->cacert_from = env[i];
		}
}

/*
 * session_setup: build s from the built-in catalogue, the configuration
 * file and o (and, to lint, the target), for the reporter rep. On failure
 * returns -1 with err set; s is then only fit for session_free, which it
 * always needs.
 */
static int
session_setup(const struct options *o, const struct reporter *rep,
    struct session *s, struct gl_error *err)
{
	const struct adv_db *adv;
	struct report_opts ro;
	char *path = NULL;
	int rc = 0;

	memset(s, 0, sizeof *s);
	policy_init(&s->policy);
	if (catalog_load_builtin(&s->cat, err) < 0)
		return -1;
	if (o->config != NULL)
		path = xstrdup(o->config);
	else if (!o->no_config && o->mode != CLI_MODE_LIST_PROFILES &&
	    o->mode != CLI_MODE_LIST_KERNELS &&
	    o->mode != CLI_MODE_LIST_DEVICES && o->mode != CLI_MODE_LIST_ARCHS)
		path = config_find();
	if (path != NULL)
		rc = config_load(path, &s->cat, &s->decls, &s->policy,
		    &s->cfg, err);
	free(path);
	if (rc < 0 || merge_filter(o, s, err) < 0 ||
	    load_baseline(o, s, err) < 0)
		return -1;
	s->lo.cat = &s->cat;
	s->lo.decls = &s->decls;
	s->lo.policy = &s->policy;
	s->lo.deep = o->deep;
	progress_init(&s->progress, stderr, o->deep ? o->progress : 0);
	s->tell.fn = progress_tell;
	s->tell.arg = &s->progress;
	s->lo.progress = &s->tell;
	s->lo.deep_full = rep->deep_stats;
	s->lo.companions = o->companions;	/* beside each model */
	s->lo.n_companions = o->n_companions;
	s->src.connect_timeout = o->connect_timeout > 0 ? o->connect_timeout :
	    (double)s->cfg.connect_timeout;
	s->src.timeout = o->timeout > 0 ? o->timeout :
	    (double)s->cfg.timeout;
	s->src.no_cache = o->no_cache;
	s->src.max_per_host = o->max_per_host;
	s->src.token = getenv("HF_TOKEN");
	s->src.hf_endpoint = getenv("HF_ENDPOINT");
	set_cacert(o, &s->cfg, &s->src);
	s->lo.source = &s->src;
	ro.show_plan = o->show_plan;
	ro.color = use_color(o->color);
	ro.baseline = s->have_bl;
	ro.show_baselined = o->show_baselined;
	ro.show_fixes = o->show_fixes >= 0 ? o->show_fixes == 1 :
	    isatty(STDOUT_FILENO) == 1;
	ro.max_per_rule = o->max_per_rule >= 0 ? (size_t)o->max_per_rule :
	    s->cfg.has_max_per_rule ? s->cfg.max_per_rule : DIAG_MAX_PER_RULE;
	ro.fail_on = s->policy.fail_on;
	report_ctx_init(&s->report, &s->cat, &ro);
	s->report.filter = &s->policy.filter;
	if (o->mode == CLI_MODE_LINT && load_target(o, s, err) < 0)
		return -1;
	/* S006's data: a broken copy in the data directory stops the run
	 * here, with its place, rather than silence the rule */
	if (o->mode == CLI_MODE_LINT && adv_db_get(&adv, err) < 0)
		return -1;
	return 0;
}

/* session_free: free what session_setup built, however far it got. */
static void
session_free(struct session *s)
{
	report_ctx_free(&s->report);
	baseline_free(&s->bl);
	if (s->have_profile)
		profile_free(&s->profile);
	captable_free(&s->table);
	config_free(&s->cfg);
	policy_free(&s->policy);
	declset_free(&s->decls);
	catalog_free(&s->cat);
	lint_cleanup();
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
static void
job_work(size_t i, void *arg)
{
	struct run *r = arg;
	struct job_slot *js = &r->slot[i % r->window];

	js->rc = lint_input(r->todo[i], &r->lo, &js->m, &js->err);
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
	size_t i, k;

	if (n == 0 && o->deep)
		n = 1;
	for (i = 0; n == 0 && i < r->n; i++)
		for (k = 0; k < r->todo[i]->n; k++)
			if (source_is_remote(r->todo[i]->path[k]))
				n = o->max_per_host ? o->max_per_host : 8;
	if (n == 0)
		n = jobs_cpus();
	return n > r->n ? (unsigned)(r->n > 0 ? r->n : 1) : n;
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

/*
 * session_lint_inputs: lint every input of o (directories expanded, the
 * shards of a split model grouped into one model) and report each file
 * with rep, in the order given, with --jobs workers; then --statistics,
 * --max-warnings and the summary. Returns the exit status (0, 1 or 2), or
 * -1 when stdout failed.
 */
static int
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

/* Whether a reporter implements what a mode needs. */
static bool
supports(const struct reporter *rep, enum cli_mode m)
{
	switch (m) {
	case CLI_MODE_LIST_RULES:
		return rep->rules != NULL;
	case CLI_MODE_EXPLAIN:
		return rep->explain != NULL;
	case CLI_MODE_DUMP:
		return rep->dump != NULL;
	case CLI_MODE_LIST_PROFILES:
		return rep->profiles != NULL;
	case CLI_MODE_LIST_KERNELS:
		return rep->kernels != NULL;
	case CLI_MODE_LIST_DEVICES:
		return rep->devices != NULL;
	case CLI_MODE_LIST_ARCHS:
		return rep->archs != NULL;
	default:
		return rep->file != NULL;
	}
}

/* session_dispatch: do what o's mode asks, with rep; the exit status, or
 * -1 when stdout failed. */
static int
session_dispatch(const struct options *o, struct session *s,
    const struct reporter *rep, struct strbuf *out)
{
	const struct rule *r;

	switch (o->mode) {
	case CLI_MODE_LIST_RULES:
		rep->rules(&s->report, out);
		return 0;
	case CLI_MODE_EXPLAIN:
		if ((r = catalog_find(&s->cat, o->explain)) == NULL) {
			char hint[SUGGEST_HINT_SIZE];

			fprintf(stderr, "gguflint: --explain: no rule '%s' "
			    "(see --list-rules)%s\n", o->explain,
			    diag_item_hint(&s->cat, o->explain, hint));
			return 2;
		}
		rep->explain(&s->report, out, r);
		return 0;
	case CLI_MODE_DUMP:
		return session_dump_inputs(o, s, rep, out);
	case CLI_MODE_LIST_PROFILES:
	case CLI_MODE_LIST_KERNELS:
	case CLI_MODE_LIST_DEVICES:
	case CLI_MODE_LIST_ARCHS:
		return session_list(o, &s->report, rep, out);
	default:
		return session_lint_inputs(o, s, rep, out);
	}
}
/* The error for an unknown --format: the formats that lint (the
 * registry's, mdoc aside: it only lists rules), and the nearest one. */
static void
unknown_format(const char *name)
{
	const struct reporter *r;
	char hint[SUGGEST_HINT_SIZE];
	struct strbuf names = STRBUF_INIT;
	struct suggest sg;

	suggest_init(&sg, name);
	for (r = reporters; r->name != NULL; r++) {
		suggest_offer(&sg, r->name);
		if (r->file != NULL)
			strbuf_addf(&names, "%s%s", names.len ? ", " : "",
			    r->name);
	}
	fprintf(stderr, "gguflint: format '%s' is unknown (%s)%s\n", name,
	    strbuf_cstr(&names), suggest_hint(&sg, NULL, hint));
	strbuf_free(&names);
}


int
session_main(const struct options *o)
{
	const struct reporter *rep = reporter_find(o->format);
	struct strbuf out = STRBUF_INIT;
	struct output sink;
	struct session s;
	struct gl_error err;
	int status;

	if (o->mode == CLI_MODE_HELP || o->mode == CLI_MODE_VERSION) {
		if (o->mode == CLI_MODE_HELP)
			options_usage(stdout);
		else if (gguflint_commit[0] != '\0')
			printf("gguflint %s (commit %s)\n", PACKAGE_VERSION,
			    gguflint_commit);
		else
			printf("gguflint %s\n", PACKAGE_VERSION);
		if (fflush(stdout) != 0 || ferror(stdout))
			return write_failed();
		return 0;
	}
	if (rep == NULL) {
		unknown_format(o->format);
		return 2;
	}
	if (!supports(rep, o->mode)) {
		fprintf(stderr, "gguflint: format '%s' cannot show this\n",
		    o->format);
		return 2;
	}
	if (o->device != NULL && session_runtime_dir(o) == NULL &&
	    o->mode != CLI_MODE_LINT) {
		fprintf(stderr, "gguflint: --device needs a runtime: --runtime "
		    "DIR or GGUFLINT_RUNTIME\n");
		return 2;
	}
	if (output_open(o->output, &sink, &err) < 0)
		return session_fail(&err);
	if (session_setup(o, rep, &s, &err) < 0) {
		output_close(&sink, false);
		session_free(&s);
		return session_fail(&err);
	}
	status = session_dispatch(o, &s, rep, &out);
	if (status < 0 || session_write_out(&out) < 0 || fflush(stdout) != 0 ||
	    ferror(stdout) || output_close(&sink, true) < 0) {
		fprintf(stderr, "gguflint: error writing %s: %s\n", sink.name,
		    strerror(errno));
		output_close(&sink, false);
		status = 2;
	}
	if (status == 1 && (o->exit_zero || s.cfg.exit_zero))
		status = 0;	/* findings do not fail the run */
	strbuf_free(&out);
	session_free(&s);
	return status;
}
