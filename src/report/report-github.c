/*
 * report-github.c - the GitHub Actions reporter: one workflow command per
 * diagnostic, which the runner turns into an annotation on the file,
 *   ::error file=PATH,title=CODE slug::message [tensor: NAME]
 * (::warning for a warning, ::notice for info), the finding's note and
 * fix after it on lines of their own (%0A). A finding the baseline
 * holds gets no annotation unless --show-baselined (then it ends with
 * " [baselined]"). With --plan, one ::notice line first says that the plan
 * is not shown in this format.
 *
 * Strings from the file and the command line are first made terminal-safe
 * with enc_text (valid UTF-8, no control characters, so nothing can start
 * a workflow command of its own), then escaped as the runner expects: in
 * the data '%', CR and LF become %25, %0D and %0A; in a property value ':'
 * and ',' also become %3A and %2C.
 */
#include "config.h"

#include <string.h>

#include "base/enc.h"
#include "base/util.h"
#include "findings/diag.h"
#include "lint.h"
#include "report/report.h"

/* The workflow command of each severity (indexed by enum severity). */
static const char *const github_command[] = { "notice", "warning", "error" };

/* Append s (terminal-safe already) escaped as data or a property value. */
static void
add_escaped(struct strbuf *out, const char *s, size_t n, bool property)
{
	size_t i;

	for (i = 0; i < n; i++) {
		switch (s[i]) {
		case '%':
			strbuf_adds(out, "%25");
			break;
		case '\r':
			strbuf_adds(out, "%0D");
			break;
		case '\n':
			strbuf_adds(out, "%0A");
			break;
		case ':':
			strbuf_adds(out, property ? "%3A" : ":");
			break;
		case ',':
			strbuf_adds(out, property ? "%2C" : ",");
			break;
		default:
			strbuf_addc(out, s[i]);
		}
	}
}

/* Append the n bytes at s made safe with enc_text, then escaped. */
static void
add_field(struct strbuf *out, const void *s, size_t n, bool property)
{
	struct strbuf safe = STRBUF_INIT;

	enc_text(&safe, s, n);
	add_escaped(out, safe.buf, safe.len, property);
	strbuf_free(&safe);
}

/* The note and fix after the message, on lines of their own (%0A: each
 * made safe alone, since enc_text would escape the line break). */
static void
add_rest(struct strbuf *out, const struct diag *d)
{
	if (d->note != NULL) {
		strbuf_adds(out, "%0A");
		add_field(out, d->note, strlen(d->note), false);
	}
	if (d->fix != NULL) {
		strbuf_adds(out, "%0Afix: ");
		add_field(out, d->fix, strlen(d->fix), false);
	}
}

void
report_github_begin(struct report_ctx *ctx, struct strbuf *out)
{
	/* Annotations cannot carry a table: say so rather than drop it. */
	if (ctx->opts.show_plan)
		strbuf_adds(out, "::notice title=gguflint --plan::The memory "
		    "plan is not shown with --format github; --format text, "
		    "json or sarif shows it\n");
}

void
report_github_file(struct report_ctx *ctx, struct strbuf *out,
    const struct lint_result *res)
{
	struct strbuf title = STRBUF_INIT;
	size_t i;

	ctx->first = false;
	for (i = 0; i < res->diags.n; i++) {
		const struct diag *d = &res->diags.v[i];

		if (d->baselined && !ctx->opts.show_baselined)
			continue;
		strbuf_addf(out, "::%s file=", github_command[d->severity]);
		add_field(out, res->path, strlen(res->path), true);
		strbuf_reset(&title);
		strbuf_addf(&title, "%s %s", d->rule->code, d->rule->slug);
		strbuf_adds(out, ",title=");
		add_field(out, title.buf, title.len, true);
		strbuf_adds(out, "::");
		add_field(out, d->message, strlen(d->message), false);
		if (d->subject != NULL) {
			strbuf_addf(out, " [%s: ", d->kind == SUBJECT_KEY ?
			    "key" : "tensor");
			add_field(out, d->subject, d->subject_len, false);
			strbuf_addc(out, ']');
		}
		if (d->baselined)
			strbuf_adds(out, " [baselined]");
		add_rest(out, d);
		strbuf_addc(out, '\n');
	}
	strbuf_free(&title);
}

void
report_github_end(struct report_ctx *ctx, struct strbuf *out)
{
	(void)ctx;
	(void)out;
}
