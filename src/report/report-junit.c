/*
 * report-junit.c - the JUnit XML reporter (--format junit), for CI systems
 * that show test reports (GitLab's artifacts:reports:junit, Jenkins' junit
 * step): one testsuite per model file (named by its path) and in it one
 * testcase per rule in force (--select/--ignore), named "CODE slug", so
 * that a rule keeps its name, and its history, from run to run. A rule
 * whose findings fail the run (at least --fail-on, not baselined) is a
 * failure: its message is the first finding and how many more there are,
 * its text every finding, one a line; a rule with findings that do not
 * fail the run passes and lists them in its system-out. Baselined findings
 * are left out unless --show-baselined. An input that could not be read is
 * a testsuite with one testcase, "read", in error.
 *
 * classname is the path with '.' replaced by '_' (Jenkins reads the part
 * before the last '.' as a package); file is the path.
 *
 * XML 1.0 cannot carry most C0 controls even as character references, so
 * every string from the file or the command line is first made
 * terminal-safe with enc_text (valid UTF-8, no control character: a NUL
 * becomes "\u{0000}", a byte that is not UTF-8 "\xNN"), then U+FFFE and
 * U+FFFF (not XML characters either) become U+FFFD, then '&', '<', '>',
 * '"' and '\'' are escaped, so "]]>" cannot end anything.
 */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "base/enc.h"
#include "base/util.h"
#include "findings/catalog.h"
#include "findings/diag.h"
#include "findings/severity.h"
#include "lint.h"
#include "report/report.h"

/* Append the n bytes at s as XML character data or attribute text. */
static void
xml_add(struct strbuf *out, const void *s, size_t n)
{
	struct strbuf safe = STRBUF_INIT;
	size_t i;

	enc_text(&safe, s, n);
	for (i = 0; i < safe.len; i++) {
		const unsigned char *u = (const unsigned char *)safe.buf + i;

		switch (*u) {
		case '&':
			strbuf_adds(out, "&amp;");
			break;
		case '<':
			strbuf_adds(out, "&lt;");
			break;
		case '>':
			strbuf_adds(out, "&gt;");
			break;
		case '"':
			strbuf_adds(out, "&quot;");
			break;
		case '\'':
			strbuf_adds(out, "&apos;");
			break;
		default:
			/* U+FFFE, U+FFFF: EF BF BE, EF BF BF */
			if (u[0] == 0xef && i + 2 < safe.len && u[1] == 0xbf &&
			    (u[2] == 0xbe || u[2] == 0xbf)) {
				strbuf_adds(out, "\xef\xbf\xbd");
				i += 2;
			} else {
				strbuf_addc(out, (char)*u);
			}
		}
	}
	strbuf_free(&safe);
}

static void
xml_adds(struct strbuf *out, const char *s)
{
	xml_add(out, s, strlen(s));
}

/* The path as a classname: '.' replaced by '_'. */
static void
add_classname(struct strbuf *out, const char *path)
{
	char *c = xstrdup(path), *p;

	for (p = c; *p != '\0'; p++)
		if (*p == '.')
			*p = '_';
	xml_adds(out, c);
	free(c);
}

void
report_junit_begin(struct report_ctx *ctx, struct strbuf *out)
{
	(void)ctx;
	strbuf_adds(out,
	    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	    "<testsuites name=\"gguflint\">\n");
}

/* One finding as a line: "error at byte N: message [tensor: NAME]". */
static void
add_finding(struct strbuf *out, const struct diag *d)
{
	struct strbuf line = STRBUF_INIT;

	strbuf_addf(&line, "%s at byte %" PRIu64 ": %s",
	    severity_name(d->severity), d->offset, report_message(d));
	if (d->subject != NULL) {
		strbuf_addf(&line,
		    " [%s: ", d->kind == SUBJECT_KEY ? "key" : "tensor");
		strbuf_add(&line, d->subject, d->subject_len);
		strbuf_addc(&line, ']');
	}
	if (d->baselined)
		strbuf_adds(&line, " [baselined]");
	xml_add(out, line.buf, line.len);
	strbuf_free(&line);
}

/* What one rule found in a file: its findings shown, and those that
 * fail the run, the first of them. */
struct rule_tally {
	size_t shown, failing;
	const struct diag *first_failing;
};

static bool
fails(const struct report_ctx *ctx, const struct diag *d)
{
	return d->severity >= ctx->opts.fail_on && !d->baselined;
}

static bool
shown(const struct report_ctx *ctx, const struct diag *d)
{
	return !d->baselined || ctx->opts.show_baselined;
}

static void
tally_rule(const struct report_ctx *ctx, const struct lint_result *res,
    const struct rule *r, struct rule_tally *t)
{
	size_t i;

	memset(t, 0, sizeof *t);
	for (i = 0; i < res->diags.n; i++) {
		const struct diag *d = &res->diags.v[i];

		if (d->rule != r || !shown(ctx, d))
			continue;
		t->shown++;
		if (fails(ctx, d) && t->failing++ == 0)
			t->first_failing = d;
	}
}

/* Rule r's findings in res, one a line. */
static void
add_findings(const struct report_ctx *ctx, struct strbuf *out,
    const struct lint_result *res, const struct rule *r)
{
	size_t i;

	for (i = 0; i < res->diags.n; i++) {
		const struct diag *d = &res->diags.v[i];

		if (d->rule != r || !shown(ctx, d))
			continue;
		add_finding(out, d);
		strbuf_addc(out, '\n');
	}
}

static void
add_testcase(const struct report_ctx *ctx, struct strbuf *out,
    const struct lint_result *res, const struct rule *r)
{
	struct rule_tally t;

	tally_rule(ctx, res, r, &t);
	strbuf_adds(out, "    <testcase name=\"");
	xml_adds(out, r->code);
	strbuf_addc(out, ' ');
	xml_adds(out, r->slug);
	strbuf_adds(out, "\" classname=\"");
	add_classname(out, res->path);
	strbuf_adds(out, "\" file=\"");
	xml_adds(out, res->path);
	if (t.shown == 0) {
		strbuf_adds(out, "\"/>\n");
		return;
	}
	if (t.failing > 0) {
		strbuf_adds(out, "\">\n      <failure message=\"");
		add_finding(out, t.first_failing);
		if (t.shown > 1)
			strbuf_addf(out, " (and %zu more)", t.shown - 1);
		strbuf_addf(out, "\" type=\"%s\">",
		    severity_name(t.first_failing->severity));
		add_findings(ctx, out, res, r);
		strbuf_adds(out, "</failure>\n    </testcase>\n");
		return;
	}
	strbuf_adds(out, "\">\n      <system-out>");
	add_findings(ctx, out, res, r);
	strbuf_adds(out, "</system-out>\n    </testcase>\n");
}

static bool
in_force(const struct report_ctx *ctx, const struct rule *r)
{
	return ctx->filter == NULL || diag_filter_keeps(ctx->filter, r);
}

void
report_junit_file(struct report_ctx *ctx, struct strbuf *out,
    const struct lint_result *res)
{
	const struct catalog *cat = ctx->cat;
	struct rule_tally t;
	size_t i, tests = 0, failures = 0;

	ctx->first = false;
	for (i = 0; cat != NULL && i < cat->n; i++) {
		if (!in_force(ctx, &cat->rules[i]))
			continue;
		tests++;
		tally_rule(ctx, res, &cat->rules[i], &t);
		failures += t.failing > 0;
	}
	strbuf_adds(out, "  <testsuite name=\"");
	xml_adds(out, res->path);
	strbuf_addf(out,
	    "\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" "
	    "skipped=\"0\">\n",
	    tests, failures);
	for (i = 0; cat != NULL && i < cat->n; i++)
		if (in_force(ctx, &cat->rules[i]))
			add_testcase(ctx, out, res, &cat->rules[i]);
	strbuf_adds(out, "  </testsuite>\n");
}

void
report_junit_error(struct report_ctx *ctx, struct strbuf *out, const char *path,
    const char *why, bool read)
{
	if (read)
		return;
	ctx->first = false;
	strbuf_adds(out, "  <testsuite name=\"");
	xml_adds(out, path);
	strbuf_adds(out,
	    "\" tests=\"1\" failures=\"0\" errors=\"1\" "
	    "skipped=\"0\">\n    <testcase name=\"read\" classname=\"");
	add_classname(out, path);
	strbuf_adds(out, "\" file=\"");
	xml_adds(out, path);
	strbuf_adds(out, "\">\n      <error message=\"");
	xml_adds(out, why);
	strbuf_adds(out, "\" type=\"unreadable\">");
	xml_adds(out, why);
	strbuf_adds(out, "</error>\n    </testcase>\n  </testsuite>\n");
}

void
report_junit_end(struct report_ctx *ctx, struct strbuf *out)
{
	(void)ctx;
	strbuf_adds(out, "</testsuites>\n");
}
