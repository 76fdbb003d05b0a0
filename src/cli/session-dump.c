/*
 * session-dump.c - --dump: the header of each input as the reporter shows
 * it, and the findings of the built-in rules, as plain text, on stderr;
 * run by session.c over the session it built (session-impl.h).
 */
#include "config.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "base/error.h"
#include "base/guard.h"
#include "base/util.h"
#include "cli/models.h"
#include "cli/options.h"
#include "cli/session-impl.h"
#include "findings/policy.h"
#include "lint.h"
#include "report/report.h"

struct dump_args {
	const struct reporter *rep;
	struct report_ctx *ctx;
	struct strbuf *out;
	const struct gguf_file *f;
};

/* The dump reads strings from the mapping: run it under the guard. */
static void
dump_guarded(void *arg)
{
	struct dump_args *a = arg;

	a->rep->dump(a->ctx, a->out, a->f);
}

/* --dump: each input's header, and its findings on stderr
 * (session-impl.h). */
int
session_dump_inputs(const struct options *o, struct session *s,
    const struct reporter *rep, struct strbuf *out)
{
	struct strbuf diags = STRBUF_INIT;
	struct report_ctx plain;	/* stderr's: no colour, no plan */
	struct lint_options lo = s->lo;	/* without the user's rules */
	struct lint_result res;
	struct gl_error err;
	struct file_list fl;
	bool json = strcmp(o->format, "json") == 0;
	size_t i;
	int status = 0;

	lo.decls = NULL;
	report_ctx_init(&plain, &s->cat, NULL);
	plain.opts.max_per_rule = s->report.opts.max_per_rule;
	models_expand(o->files, o->n_files, &fl);
	for (i = 0; i < fl.n; i++) {
		if (lint_file(fl.v[i], &lo, &res, &err) < 0) {
			session_fail(&err);
			status = 2;
		} else {
			struct dump_args da = { rep, &s->report, out,
			    &res.file };

			/* the dump clears first, even when it faults */
			if (fl.n > 1 && json)
				strbuf_adds(out, s->report.first ? "[\n" :
				    ",\n");
			else if (fl.n > 1)
				strbuf_addf(out, "%s==> %s <==\n",
				    s->report.first ? "" : "\n", fl.v[i]);
			if (guard_call(dump_guarded, &da) < 0)
				strbuf_adds(out, "\n(the file shrank while it "
				    "was being printed)\n");
			report_text_file(&plain, &diags, &res);
			fputs(strbuf_cstr(&diags), stderr);
			strbuf_reset(&diags);
			if (status == 0 && policy_fails(&s->policy, &res.diags))
				status = 1;
		}
		lint_result_free(&res);
		if (session_write_out(out) < 0) {
			report_ctx_free(&plain);
			strbuf_free(&diags);
			models_files_free(&fl);
			return -1;
		}
	}
	if (fl.n > 1 && json && !s->report.first) {
		strbuf_adds(out, "]\n");
		if (session_write_out(out) < 0)
			status = -1;
	}
	report_ctx_free(&plain);
	strbuf_free(&diags);
	models_files_free(&fl);
	return status;
}
