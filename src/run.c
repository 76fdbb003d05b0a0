/*
 * run.c - load the catalogue, then lint, dump or document as the options
 * say, handing results to a reporter. Operational errors are printed here,
 * once, to stderr.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "run.h"

/* write_out: write and reset buf; -1 when stdout failed. */
static int
write_out(struct strbuf *buf)
{
	if (buf->len > 0 && fwrite(buf->buf, 1, buf->len, stdout) != buf->len)
		return -1;
	strbuf_reset(buf);
	return 0;
}

static int
fail(const struct gl_error *err)
{
	fprintf(stderr, "gguflint: %s\n", err->msg);
	return 2;
}

static int
build_filter(const struct options *o, const struct catalog *cat,
    struct diag_filter *f, struct gl_error *err)
{
	size_t i;

	for (i = 0; i < o->n_select; i++)
		if (diag_filter_add(f, cat, o->select[i], 0, err) < 0)
			return -1;
	for (i = 0; i < o->n_ignore; i++)
		if (diag_filter_add(f, cat, o->ignore[i], 1, err) < 0)
			return -1;
	return 0;
}

static int
plan_request_set(const struct options *o, struct plan_request *rq,
    struct gl_error *err)
{
	rq->ctx = o->ctx;
	if (o->kv != NULL) {
		if (kv_type_parse(o->kv, &rq->kv) < 0)
			return gl_error_set(err, "--kv: unknown KV cache type "
			    "'%s' (expected one of %s)", o->kv,
			    kv_type_names());
		rq->kv_set = true;
	}
	return 0;
}

static int
run_lint(const struct options *o, const struct lint_options *lo,
    const struct reporter *rep, struct strbuf *out)
{
	struct report_opts ro = { o->show_plan };
	struct lint_result res;
	struct gl_error err;
	int status = 0;
	size_t i;
	bool first = true;

	rep->begin(out);
	for (i = 0; i < o->n_files; i++) {
		if (lint_file(o->files[i], lo, &res, &err) < 0) {
			fail(&err);
			status = 2;
		} else {
			rep->file(out, &res, first, &ro);
			first = false;
			if (status == 0 &&
			    diag_count_at_least(&res.diags, SEV_ERROR) > 0)
				status = 1;
		}
		lint_result_free(&res);
		if (write_out(out) < 0)
			return -1;
	}
	rep->end(out);
	return status;
}

/* --dump: the header on stdout; the findings, as text, on stderr. */
static int
run_dump(const struct options *o, const struct lint_options *lo,
    const struct reporter *rep, struct strbuf *out)
{
	struct lint_result res;
	struct gl_error err;
	struct strbuf diags = STRBUF_INIT;
	int status = 0;
	size_t i;

	for (i = 0; i < o->n_files; i++) {
		if (lint_file(o->files[i], lo, &res, &err) < 0) {
			fail(&err);
			status = 2;
		} else {
			rep->dump(out, &res.file);
			report_text_file(&diags, &res, true, NULL);
			fputs(strbuf_cstr(&diags), stderr);
			strbuf_reset(&diags);
			if (status == 0 &&
			    diag_count_at_least(&res.diags, SEV_ERROR) > 0)
				status = 1;
		}
		lint_result_free(&res);
		if (write_out(out) < 0) {
			strbuf_free(&diags);
			return -1;
		}
	}
	strbuf_free(&diags);
	return status;
}

/* --list-kernels: load and probe every built-in table. */
static int
list_kernels(const struct reporter *rep, struct strbuf *out)
{
	const char *const *names = captable_builtin_names();
	struct captable *t;
	struct gl_error err;
	size_t n = 0, i;
	int status = 0;

	for (i = 0; names[i] != NULL; i++)
		;
	t = xcalloc(i + 1, sizeof *t);
	for (i = 0; names[i] != NULL; i++) {
		if (captable_load(names[i], &t[n], &err) < 0) {
			fail(&err);
			status = 2;
			continue;
		}
		captable_probe(&t[n++], NULL);
	}
	rep->kernels(out, t, n);
	for (i = 0; i < n; i++)
		captable_free(&t[i]);
	free(t);
	return status;
}

/* Whether a reporter implements what a mode needs. */
static bool
supports(const struct reporter *rep, enum run_mode m)
{
	switch (m) {
	case MODE_LIST_RULES:
		return rep->rules != NULL;
	case MODE_EXPLAIN:
		return rep->explain != NULL;
	case MODE_DUMP:
		return rep->dump != NULL;
	case MODE_LIST_PROFILES:
		return rep->profiles != NULL;
	case MODE_LIST_KERNELS:
		return rep->kernels != NULL;
	default:
		return rep->file != NULL;
	}
}

static int
run_with_catalog(const struct options *o, const struct catalog *cat,
    struct strbuf *out)
{
	const struct reporter *rep = reporter_find(o->format);
	struct diag_filter filter = { 0 };
	struct lint_options lo = { 0 };
	struct captable table = { 0 };
	struct profile profile;
	const struct rule *r;
	struct gl_error err;
	int status = 0;

	if (rep == NULL) {
		fprintf(stderr, "gguflint: unknown format '%s' (text or "
		    "json)\n", o->format);
		return 2;
	}
	if (!supports(rep, o->mode)) {
		fprintf(stderr, "gguflint: format '%s' cannot show this\n",
		    o->format);
		return 2;
	}
	if (build_filter(o, cat, &filter, &err) < 0) {
		diag_filter_free(&filter);
		return fail(&err);
	}
	lo.cat = cat;
	lo.filter = &filter;
	if (o->mode == MODE_LINT) {
		if (plan_request_set(o, &lo.request, &err) < 0 ||
		    profile_load(o->profile ? o->profile : PROFILE_DEFAULT,
		    &profile, &err) < 0) {
			diag_filter_free(&filter);
			return fail(&err);
		}
		lo.profile = &profile;
		if (captable_load(profile.kernels, &table, &err) < 0) {
			diag_filter_free(&filter);
			profile_free(&profile);
			return fail(&err);
		}
		captable_probe(&table, NULL);
		lo.table = &table;
		lo.strict = profile.strict || o->strict;
	}
	switch (o->mode) {
	case MODE_LIST_RULES:
		rep->rules(out, cat);
		break;
	case MODE_EXPLAIN:
		if ((r = catalog_find(cat, o->explain)) == NULL) {
			fprintf(stderr, "gguflint: --explain: no rule '%s' "
			    "(see --list-rules)\n", o->explain);
			status = 2;
		} else {
			rep->explain(out, r);
		}
		break;
	case MODE_DUMP:
		status = run_dump(o, &lo, rep, out);
		break;
	case MODE_LIST_PROFILES:
		rep->profiles(out);
		break;
	case MODE_LIST_KERNELS:
		status = list_kernels(rep, out);
		break;
	default:
		status = run_lint(o, &lo, rep, out);
		break;
	}
	diag_filter_free(&filter);
	if (lo.profile != NULL)
		profile_free(&profile);
	captable_free(&table);
	if (status < 0 || write_out(out) < 0 || fflush(stdout) != 0 ||
	    ferror(stdout)) {
		fprintf(stderr, "gguflint: error writing output: %s\n",
		    strerror(errno));
		return 2;
	}
	return status;
}

int
run(const struct options *o)
{
	struct strbuf out = STRBUF_INIT;
	struct catalog cat;
	struct gl_error err;
	int status;

	if (o->mode == MODE_HELP) {
		options_usage(stdout);
		return fflush(stdout) == 0 ? 0 : 2;
	}
	if (o->mode == MODE_VERSION) {
		printf("gguflint %s\n", PACKAGE_VERSION);
		return fflush(stdout) == 0 ? 0 : 2;
	}
	if (catalog_load_builtin(&cat, &err) < 0) {
		catalog_free(&cat);
		return fail(&err);
	}
	status = run_with_catalog(o, &cat, &out);
	strbuf_free(&out);
	catalog_free(&cat);
	return status;
}
