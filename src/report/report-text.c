/*
 * report-text.c - the text reporter: one line per diagnostic,
 *   FILE:0xOFFSET: SEVERITY: CODE slug: message [tensor: NAME]
 * with every string from the file escaped for the terminal, and the
 * closing summary line (report_text_summary) that the session prints.
 */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "base/enc.h"
#include "base/units.h"
#include "base/util.h"
#include "findings/catalog.h"
#include "findings/diag.h"
#include "findings/severity.h"
#include "kernels/ggml-types.h"
#include "lint.h"
#include "report/report.h"
#include "target/captable.h"
#include "target/profile.h"

void
report_text_begin(struct report_ctx *ctx, struct strbuf *out)
{
	(void)ctx;
	(void)out;
}

/* ANSI colours of the severities (info, warning, error), for --color. */
static const char *const sev_color[] = {
	"\033[36m", "\033[33m", "\033[1;31m"
};

static const char *
subject_label(enum subject_kind k)
{
	return k == SUBJECT_KEY ? "key" : "tensor";
}

/* add_line: one diagnostic line: d's place, severity, rule, then the
 * message (msg, or d's own when NULL) and, when there is one and the
 * message is d's, the subject. */
static void
add_line(const struct report_ctx *ctx, struct strbuf *out,
    const struct lint_result *res, const struct diag *d, const char *msg)
{
	enc_text(out, res->path, strlen(res->path));
	if (ctx->opts.color)
		strbuf_addf(out, ":0x%" PRIx64 ": %s%s\033[0m: "
		    "\033[1m%s\033[0m %s: ", d->offset,
		    sev_color[d->severity], severity_name(d->severity),
		    d->rule->code, d->rule->slug);
	else
		strbuf_addf(out, ":0x%" PRIx64 ": %s: %s %s: ", d->offset,
		    severity_name(d->severity), d->rule->code, d->rule->slug);
	if (msg != NULL) {
		strbuf_addf(out, "%s\n", msg);
		return;
	}
	enc_text(out, d->message, strlen(d->message));
	if (d->subject != NULL) {
		strbuf_addf(out, " [%s: ", subject_label(d->kind));
		enc_text(out, d->subject, d->subject_len);
		strbuf_addc(out, ']');
	}
	strbuf_adds(out, d->baselined ? " [baselined]\n" : "\n");
}

/* The width the notes and fixes are wrapped to. */
#define TEXT_WRAP 80

/*
 * add_wrapped: "  = LABEL: " then text (raw: escaped here, its runs of
 * white space made one space), wrapped at spaces within TEXT_WRAP
 * columns, the lines after the first indented under the first word (a
 * word longer than a line stays whole).
 */
static void
add_wrapped(const struct report_ctx *ctx, struct strbuf *out,
    const char *label, const char *text)
{
	struct strbuf safe = STRBUF_INIT;
	size_t indent = 6 + strlen(label), col = indent, i = 0, n, k;
	const char *p;

	enc_text(&safe, text, strlen(text));
	p = strbuf_cstr(&safe);
	if (ctx->opts.color)
		strbuf_addf(out, "  = \033[1m%s\033[0m: ", label);
	else
		strbuf_addf(out, "  = %s: ", label);
	while (p[i] != '\0') {
		while (p[i] == ' ' || p[i] == '\t')
			i++;
		n = strcspn(p + i, " \t");
		if (n == 0)
			break;
		if (col > indent && col + 1 + n > TEXT_WRAP) {
			strbuf_addc(out, '\n');
			for (k = 0; k < indent; k++)
				strbuf_addc(out, ' ');
			col = indent;
		} else if (col > indent) {
			strbuf_addc(out, ' ');
			col++;
		}
		strbuf_add(out, p + i, n);
		col += n;
		i += n;
	}
	strbuf_addc(out, '\n');
	strbuf_free(&safe);
}

/* A catalogue text as one paragraph: its line breaks made spaces. */
static char *
one_paragraph(const char *s)
{
	char *t = xstrdup(s), *q;

	for (q = t; *q != '\0'; q++)
		if (*q == '\n' || *q == '\r')
			*q = ' ';
	return t;
}

/*
 * add_details: with --show-fixes, d's note and fix below its line; a
 * finding with no fix of its own gets the catalogue's, on the first
 * finding of its rule in the file only (first_of_rule).
 */
static void
add_details(const struct report_ctx *ctx, struct strbuf *out,
    const struct diag *d, bool first_of_rule)
{
	char *fix;

	if (!ctx->opts.show_fixes)
		return;
	if (d->note != NULL)
		add_wrapped(ctx, out, "note", d->note);
	if (d->fix != NULL) {
		add_wrapped(ctx, out, "fix", d->fix);
	} else if (first_of_rule && d->rule->fix != NULL &&
	    *d->rule->fix != '\0') {
		fix = one_paragraph(d->rule->fix);
		add_wrapped(ctx, out, "fix", fix);
		free(fix);
	}
}

/* rule_slot: the index of d's rule in cat (n, a spare slot, if none). */
static size_t
rule_slot(const struct catalog *cat, size_t n, const struct diag *d)
{
	long i;

	if (cat != NULL && d->rule >= cat->rules && d->rule < cat->rules + n)
		return (size_t)(d->rule - cat->rules);
	i = cat != NULL ? catalog_index(cat, d->rule->code) : -1;
	return i >= 0 ? (size_t)i : n;
}

void
report_text_file(struct report_ctx *ctx, struct strbuf *out,
    const struct lint_result *res)
{
	size_t n = ctx->cat != NULL ? ctx->cat->n : 0, max =
	    ctx->opts.max_per_rule, *total, *extra, *seen, i, r;

	ctx->first = false;
	total = xcalloc(3 * (n + 1), sizeof *total);
	extra = total + n + 1;
	seen = extra + n + 1;
	for (i = 0; max > 0 && i < res->diags.n; i++) {
		const struct diag *d = &res->diags.v[i];

		if (d->baselined && !ctx->opts.show_baselined)
			continue;
		r = rule_slot(ctx->cat, n, d);
		if (d->more > 0)
			extra[r] += d->more;
		else
			total[r]++;
	}
	for (i = 0; i < res->diags.n; i++) {
		const struct diag *d = &res->diags.v[i];
		char *msg;

		if (d->baselined && !ctx->opts.show_baselined)
			continue;
		r = rule_slot(ctx->cat, n, d);
		if (d->more == 0)
			seen[r]++;
		if (max == 0 || (d->more == 0 ? seen[r] <= max :
		    total[r] <= max)) {
			add_line(ctx, out, res, d, NULL);
			add_details(ctx, out, d, d->more == 0 && seen[r] == 1);
		} else if (d->more == 0 && seen[r] == total[r]) {
			msg = xasprintf("%zu more %s findings not shown (the "
			    "first %zu are)", total[r] - max + extra[r],
			    d->rule->code, max);
			add_line(ctx, out, res, d, msg);
			free(msg);
		}
	}
	free(total);
	if (ctx->opts.show_plan)
		report_plan_text(out, res);
}

void
report_text_end(struct report_ctx *ctx, struct strbuf *out)
{
	(void)ctx;
	(void)out;
}

/* "N thing" or "N things" ("info" has no plural). */
static void
add_count(struct strbuf *out, const char *sep, size_t n, const char *what)
{
	strbuf_addf(out, "%s%zu %s%s", sep, n, what, n == 1 ||
	    strcmp(what, "info") == 0 ? "" : "s");
}

void
report_text_summary(struct strbuf *out, const struct report_summary *s)
{
	static const char *const names[] = { "info", "warning", "error" };
	const char *sep = "";
	int k;

	if (s->count[0] + s->count[1] + s->count[2] + s->baselined +
	    s->gone + s->unread == 0)
		return;
	for (k = SEV_ERROR; k >= SEV_INFO; k--)
		if (s->count[k] > 0) {
			add_count(out, sep, s->count[k], names[k]);
			sep = ", ";
		}
	if (*sep == '\0')
		strbuf_adds(out, s->baselined ? "no new findings" :
		    "no findings");
	add_count(out, " in ", s->models, "model");
	if (s->failed > 0)
		strbuf_addf(out, " (%zu failed", s->failed);
	else
		strbuf_adds(out, " (none failed");
	if (s->unread > 0)
		strbuf_addf(out, ", %zu could not be read", s->unread);
	strbuf_adds(out, ")");
	if (s->baselined + s->gone > 0)
		strbuf_addf(out, "; %zu baselined, %zu gone from the baseline",
		    s->baselined, s->gone);
	strbuf_addc(out, '\n');
}

void
report_text_rules(struct report_ctx *ctx, struct strbuf *out)
{
	const struct catalog *cat = ctx->cat;
	size_t i;

	for (i = 0; i < cat->n; i++) {
		const struct rule *r = &cat->rules[i];

		strbuf_addf(out, "%s  %-30s %-8s %s\n", r->code, r->slug,
		    severity_name(r->severity), r->summary);
	}
}

/* Append text with every line indented by two spaces. */
static void
add_indented(struct strbuf *out, const char *text)
{
	const char *p = text;

	while (*p != '\0') {
		size_t n = strcspn(p, "\n");

		strbuf_adds(out, "  ");
		strbuf_add(out, p, n);
		strbuf_addc(out, '\n');
		p += n;
		if (*p == '\n')
			p++;
	}
}

void
report_text_explain(struct report_ctx *ctx, struct strbuf *out,
    const struct rule *r)
{
	(void)ctx;
	strbuf_addf(out, "%s %s (%s, family %c)\n\n", r->code, r->slug,
	    severity_name(r->severity), r->family);
	add_indented(out, r->summary);
	strbuf_adds(out, "\nWhy it matters:\n");
	add_indented(out, r->rationale);
	strbuf_addf(out, "\nWhy it is %s:\n", r->severity == SEV_ERROR ?
	    "an error" : r->severity == SEV_WARNING ? "a warning" :
	    "information only");
	add_indented(out, r->basis);
	strbuf_adds(out, "\nHow to fix it:\n");
	add_indented(out, r->fix);
}

void
report_text_profiles(struct report_ctx *ctx, struct strbuf *out,
    const struct profile *p, size_t n)
{
	char a[32], b[32], rt[64];
	size_t i;

	(void)ctx;
	for (i = 0; i < n; i++) {
		bool llama = p[i].runtime == RUNTIME_LLAMA_CPP;

		/* the runtime, and llama.cpp's backend: "llama.cpp cuda" */
		snprintf(rt, sizeof rt, "%s%s%s",
		    profile_runtime_name(p[i].runtime), llama ? " " : "",
		    llama && p[i].backend != NULL ? p[i].backend : "");
		strbuf_addf(out, "%-22s %9s %9s  %-6s %-6s %-16s %s\n",
		    p[i].name, format_size(p[i].memory, a, sizeof a),
		    format_size(p[i].reserve, b, sizeof b),
		    p[i].weights == WEIGHTS_MAPPED ? "mapped" : "heap",
		    p[i].strict ? "strict" : "", rt, p[i].description);
	}
}

/* The runtime's word on entry e, or nothing for reference-only. */
static void
text_entry_state(struct strbuf *out, const struct cap_entry *e)
{
	if (e->state == CAP_REFERENCE_ONLY)
		return;
	strbuf_addf(out, "\n           runtime: %s", cap_state_name(e->state));
	if (e->state != CAP_RT_FALLBACK && e->nmse < 0) /* not finite */
		strbuf_adds(out, ", NMSE inf");
	else if (e->state != CAP_RT_FALLBACK)
		strbuf_addf(out, ", NMSE %.2e", e->nmse);
	if (e->reason != NULL)
		strbuf_addf(out, ": %s", e->reason);
}

void
report_text_kernels(struct report_ctx *ctx, struct strbuf *out,
    const struct captable *t, size_t n)
{
	char tb[16], vb[256];
	size_t i, j, ok;

	(void)ctx;
	for (i = 0; i < n; i++) {
		for (j = ok = 0; j < t[i].n; j++)
			ok += t[i].entries[j].verified;
		strbuf_addf(out, "%s: %s (%zu of %zu entries verified, probed "
		    "in %.0f us)\n", t[i].name, t[i].description, ok, t[i].n,
		    t[i].probe_us);
		if (t[i].n > 0)
			strbuf_addf(out, "  verified by: %s%s%s\n",
			    captable_verified_by(&t[i], &t[i].entries[0], vb,
			    sizeof vb), t[i].prov.commit ? ", commit " : "",
			    t[i].prov.commit ? t[i].prov.commit : "");
		if (t[i].live)
			strbuf_addf(out, "  runtime probe: %.1f ms, %zu of %zu "
			    "answers from the cache\n", t[i].runtime_ms,
			    t[i].runtime_cached, t[i].n);
		for (j = 0; j < t[i].n; j++) {
			const struct cap_entry *e = &t[i].entries[j];

			strbuf_addf(out, "  %-8s %-7s %-9s %-22s %s error %.1e "
			    "%6.1f us%s%s", cap_op_name(e->op),
			    ggml_type_name(e->encoding, tb, sizeof tb),
			    kernel_order_name(e->order), e->kernel_name,
			    e->verified ? "verified    " : "NOT VERIFIED",
			    e->max_error, e->probe_us, e->error ? ": " : "",
			    e->error ? e->error : "");
			text_entry_state(out, e);
			strbuf_addc(out, '\n');
		}
	}
}

void
report_text_devices(struct report_ctx *ctx, struct strbuf *out,
    const struct rt_info *info)
{
	char a[32], b[32];
	size_t i;

	(void)ctx;
	strbuf_addf(out, "runtime: ggml %s (commit %s) in %s\n",
	    info->version ? info->version : "unknown", info->commit ?
	    info->commit : "unknown", info->dir ? info->dir : "?");
	for (i = 0; i < info->n_devices; i++) {
		const struct rt_device *d = &info->devices[i];

		strbuf_addf(out, "  %-10s %-5s %s free of %s  %s%s%s%s",
		    d->name, d->type, format_size(d->mem_free, a, sizeof a),
		    format_size(d->mem_total, b, sizeof b), d->description,
		    d->library && *d->library ? " (" : "",
		    d->library ? d->library : "", d->library && *d->library ?
		    ")" : "");
		if (d->max_tensor > 0)	/* K006's limit */
			strbuf_addf(out, ", no tensor beyond %s",
			    format_size(d->max_tensor, a, sizeof a));
		strbuf_addc(out, '\n');
	}
}
