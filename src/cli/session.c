/*
 * session.c - what the program does once its options are parsed: build the
 * session (catalogue, configuration file, policy, profile, probed
 * capability table, the reporter's context), then lint, dump or document
 * as the options say (the lint run is session-run.c's, the --list-*
 * commands session-list.c's, --dump session-dump.c's), handing results
 * to a reporter. Operational errors are printed here, once, to stderr.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/error.h"
#include "base/suggest.h"
#include "base/util.h"
#include "base/version.h"
#include "checks/declrule.h"
#include "cli/configfile.h"
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
#include "source/source.h"
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
