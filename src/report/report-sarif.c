/*
 * report-sarif.c - the SARIF 2.1.0 reporter, for GitHub code scanning and
 * other SARIF consumers: one log, one run, the whole rule catalogue in
 * tool.driver.rules, one result per diagnostic.
 *
 * A GGUF file is binary and has no lines, but GitHub requires a line: every
 * result is placed at region.startLine 1, the placeholder code scanning
 * needs, and the same region carries the finding's place as a binary
 * region: byteOffset, and byteLength when the offset starts a record whose
 * end is known (a key/value or tensor info record, or a tensor's data;
 * report_subject_extent), else none (an insertion point at the offset).
 * properties.byteOffset repeats the offset for older readers. The tensor
 * or key a finding is about is a logical location and is also named in the
 * message, since code scanning shows the message but not the logical
 * locations. Each rule has help.text and help.markdown (the summary, the
 * rationale, the basis and the fix of its catalogue entry) and a helpUri
 * where the build knows where the rules are published.
 *
 * With a baseline in force, each result has a baselineState: "unchanged"
 * for a finding the baseline holds, "new" for any other.
 *
 * The log is streamed: begin writes the head and the rules (the context's
 * catalogue, the one the lint used), each file writes its results, and end
 * writes the artifacts, the invocation (exitCode, executionSuccessful, and
 * one toolExecutionNotification per input that could not be read), the
 * plans (--plan: run.properties.plans, each file's plan as the JSON report
 * writes it) and the tail. The state kept across calls, in the context, is
 * the count of results, the list of artifacts (one short entry per file),
 * the notifications and the plans.
 */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "base/enc.h"
#include "base/util.h"
#include "base/version.h"
#include "findings/catalog.h"
#include "findings/diag.h"
#include "findings/severity.h"
#include "lint.h"
#include "report/report.h"

#define SARIF_SCHEMA "https://json.schemastore.org/sarif-2.1.0.json"
/*
 * The rules' documentation on the web, as a template ("{code}" and
 * "{slug}" are replaced by the rule's): each rule's helpUri. The project
 * has no public home yet (AC_INIT names no URL), so by default there is
 * none, and help.text and help.markdown carry the whole entry; a build
 * that publishes the rules sets it with configure's --with-rules-url
 * (config.h then defines it), e.g.
 *   ./configure --with-rules-url='https://example.org/rules.html#{code}'
 */
#ifndef GGUFLINT_RULES_URL
#define GGUFLINT_RULES_URL ""
#endif
/* The key of partialFingerprints; bump its version if the recipe changes. */
#define SARIF_FINGERPRINT_KEY "gguflint/v1"

/* One file of the run: its URI (as a JSON string) and its size. */
struct sarif_artifact {
	char *uri;
	uint64_t length;
};

/* What is carried from begin through file to end (report.h). */
struct report_sarif {
	size_t n_results;
	/* Distinct files (the schema wants unique artifacts: a file named
	 * twice, even as "m.gguf" and "./m.gguf", is listed once). */
	struct sarif_artifact *artifacts;
	size_t n_artifacts, cap_artifacts;
	/* The inputs not read: toolExecutionNotifications, as JSON. */
	struct strbuf notes;
	size_t n_notes;
	/* --plan: the files' plans, as the members of an array. */
	struct strbuf plans;
	size_t n_plans;
};

void
report_sarif_free(struct report_sarif *s)
{
	size_t i;

	if (s == NULL)
		return;
	for (i = 0; i < s->n_artifacts; i++)
		free(s->artifacts[i].uri);
	free(s->artifacts);
	strbuf_free(&s->notes);
	strbuf_free(&s->plans);
	free(s);
}

/* SARIF's level of each severity (indexed by enum severity). */
static const char *const sarif_level[] = { "note", "warning", "error" };

/* A tag naming the family, for code scanning's filters. */
static const char *
family_tag(char family)
{
	switch (family) {
	case 'F':
		return "file-structure";
	case 'M':
		return "metadata";
	case 'N':
		return "tensor-names";
	case 'P':
		return "memory-plan";
	case 'W':
		return "weight-forms";
	case 'K':
		return "kernels";
	case 'S':
		return "security";
	case 'D':
		return "tensor-data";
	default:
		return NULL;
	}
}

/*
 * GitHub ranks security findings by properties.security-severity (a CVSS-
 * like score as a string); only rules tagged "security" may carry it. A
 * rule's catalogue entry may give it (security_severity: S006's is the
 * CVSS of the advisories it reports); else it follows the severity.
 */
static const char *
security_severity(enum severity s)
{
	switch (s) {
	case SEV_ERROR:
		return "8.0";
	case SEV_WARNING:
		return "5.0";
	default:
		return "2.0";
	}
}

static bool
starts_list_item(const char *p)
{
	while (*p == ' ')
		p++;
	return (p[0] == '-' || p[0] == '*') && p[1] == ' ';
}

/*
 * join_prose: append catalogue text to t with the lines the YAML source
 * wraps at 76 columns joined into paragraphs (viewers wrap them again): a
 * single newline becomes a space unless a list item follows, blank lines
 * stay paragraph breaks, and trailing newlines go.
 */
static void
join_prose(struct strbuf *t, const char *s)
{
	const char *p;

	for (p = s; *p != '\0'; p++) {
		if (*p != '\n') {
			strbuf_addc(t, *p);
			continue;
		}
		if (p[1] == '\n') {
			while (p[1] == '\n')
				p++;
			if (p[1] != '\0')
				strbuf_adds(t, "\n\n");
		} else if (p[1] != '\0') {
			strbuf_addc(t, starts_list_item(p + 1) ? '\n' : ' ');
		}
	}
}

/* add_prose: catalogue text, joined, as a JSON string. */
static void
add_prose(struct strbuf *out, const char *s)
{
	struct strbuf t = STRBUF_INIT;

	join_prose(&t, s);
	enc_json_string(out, t.buf, t.len);
	strbuf_free(&t);
}

/*
 * join_markdown: catalogue text, joined, as Markdown: outside `code`
 * spans (which the catalogue uses for commands and keys) the characters
 * Markdown would read as markup are escaped with a backslash, so that a
 * key such as general.file_type or a "<" reads as written.
 */
static void
join_markdown(struct strbuf *t, const char *s)
{
	struct strbuf plain = STRBUF_INIT;
	bool code = false;
	size_t i;

	join_prose(&plain, s);
	for (i = 0; i < plain.len; i++) {
		char c = plain.buf[i];

		if (c == '`')
			code = !code;
		else if (!code && strchr("\\*_<>[]#|", c) != NULL &&
		    !(c == '*' && (i == 0 || plain.buf[i - 1] == '\n')))
			strbuf_addc(t, '\\');
		strbuf_addc(t, c);
	}
	strbuf_free(&plain);
}

/* The rule's help in one form: the summary, the rationale, the basis of
 * its severity and the fix, each joined by join under its label. */
static void
help_form(struct strbuf *t, const struct rule *r,
    void (*join)(struct strbuf *, const char *), const char *const label[2])
{
	join(t, r->summary);
	strbuf_adds(t, "\n\n");
	join(t, r->rationale);
	strbuf_adds(t, label[0]);
	join(t, r->basis);
	strbuf_adds(t, label[1]);
	join(t, r->fix);
}

/* add_help: the rule's help, as text and as Markdown. */
static void
add_help(struct strbuf *out, const struct rule *r)
{
	static const char *const text[2] = { "\n\nSeverity: ", "\n\nFix: " };
	static const char *const md[2] = { "\n\n**Severity:** ",
		"\n\n**Fix:** " };
	struct strbuf t = STRBUF_INIT;

	help_form(&t, r, join_prose, text);
	strbuf_adds(out, "\"help\": {\"text\": ");
	enc_json_string(out, t.buf, t.len);
	strbuf_reset(&t);
	strbuf_addf(&t, "**%s %s** (%s): ", r->code, r->slug,
	    severity_name(r->severity));
	help_form(&t, r, join_markdown, md);
	strbuf_adds(out, ", \"markdown\": ");
	enc_json_string(out, t.buf, t.len);
	strbuf_adds(out, "}");
	strbuf_free(&t);
}

void
report_sarif_help_uri(struct strbuf *out, const char *tmpl,
    const struct rule *r)
{
	const char *p = tmpl;

	while (*p != '\0') {
		if (strncmp(p, "{code}", 6) == 0) {
			strbuf_adds(out, r->code);
			p += 6;
		} else if (strncmp(p, "{slug}", 6) == 0) {
			strbuf_adds(out, r->slug);
			p += 6;
		} else {
			strbuf_addc(out, *p++);
		}
	}
}

static void
add_rule(struct strbuf *out, const struct rule *r)
{
	const char *tag = family_tag(r->family);

	strbuf_adds(out, "{\"id\": ");
	enc_json_cstr(out, r->code);
	strbuf_adds(out, ", \"name\": ");
	enc_json_cstr(out, r->slug);
	strbuf_adds(out, ", \"shortDescription\": {\"text\": ");
	add_prose(out, r->summary);
	strbuf_adds(out, "}, \"fullDescription\": {\"text\": ");
	add_prose(out, r->rationale);
	strbuf_adds(out, "}, ");
	if (GGUFLINT_RULES_URL[0] != '\0') {
		struct strbuf uri = STRBUF_INIT;

		report_sarif_help_uri(&uri, GGUFLINT_RULES_URL, r);
		strbuf_adds(out, "\"helpUri\": ");
		enc_json_string(out, uri.buf, uri.len);
		strbuf_adds(out, ", ");
		strbuf_free(&uri);
	}
	add_help(out, r);
	strbuf_addf(out, ", \"defaultConfiguration\": {\"level\": \"%s\"}, "
	    "\"properties\": {\"family\": \"%c\", \"tags\": [\"gguf\"",
	    sarif_level[r->severity], r->family);
	if (tag != NULL)
		strbuf_addf(out, ", \"%s\"", tag);
	strbuf_adds(out, "], \"basis\": ");
	add_prose(out, r->basis);
	if (r->family == 'S')
		strbuf_addf(out, ", \"security-severity\": \"%s\"",
		    r->security_severity != NULL ? r->security_severity :
		    security_severity(r->severity));
	strbuf_adds(out, "}}");
}

/* Close the driver with the rules of cat and open the results. */
static void
add_rules(struct strbuf *out, const struct catalog *cat)
{
	size_t i;

	strbuf_adds(out, ",\n      \"rules\": [");
	for (i = 0; cat != NULL && i < cat->n; i++) {
		strbuf_adds(out, i ? ",\n        " : "\n        ");
		add_rule(out, &cat->rules[i]);
	}
	strbuf_adds(out, cat != NULL && cat->n ? "\n      ]}},\n    "
	    "\"results\": [" : "]}},\n    \"results\": [");
}

static bool
uri_unreserved(unsigned char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
	    (c >= '0' && c <= '9') || c == '-' || c == '.' || c == '_' ||
	    c == '~' || c == '/';
}

/* A URL as it is, as a JSON string; a byte no URI holds
 * percent-encoded. */
static void
add_url(struct strbuf *out, const char *url)
{
	static const char hex[] = "0123456789ABCDEF";
	const unsigned char *p = (const unsigned char *)url;

	strbuf_addc(out, '"');
	for (; *p != '\0'; p++) {
		if (uri_unreserved(*p) || (*p != '"' && *p != '\\' &&
		    strchr(":?#[]@!$&'()*+,;=%", *p) != NULL)) {
			strbuf_addc(out, (char)*p);
		} else {
			strbuf_addc(out, '%');
			strbuf_addc(out, hex[*p >> 4]);
			strbuf_addc(out, hex[*p & 15]);
		}
	}
	strbuf_addc(out, '"');
}

/*
 * add_uri: append path as a URI reference (as a JSON string): a relative
 * path stays relative (without "./", so that it matches the repository
 * path code scanning expects), an absolute one becomes a file:// URI; both
 * without dot segments. Every byte but the unreserved characters and '/'
 * is percent-encoded, so ':' in a first segment cannot read as a scheme,
 * and bytes that are not UTF-8 survive. A URL (a remote file) is its own
 * URI.
 */
static void
add_uri(struct strbuf *out, const char *path)
{
	static const char hex[] = "0123456789ABCDEF";
	char *norm;
	const unsigned char *p;

	if (report_is_url(path)) {	/* a remote file: its URL */
		add_url(out, path);
		return;
	}
	norm = report_normalize_path(path);
	p = (const unsigned char *)norm;
	strbuf_addc(out, '"');
	if (*p == '/')
		strbuf_adds(out, "file://");
	for (; *p != '\0'; p++) {
		if (uri_unreserved(*p)) {
			strbuf_addc(out, (char)*p);
		} else {
			strbuf_addc(out, '%');
			strbuf_addc(out, hex[*p >> 4]);
			strbuf_addc(out, hex[*p & 15]);
		}
	}
	strbuf_addc(out, '"');
	free(norm);
}

static const char *
subject_label(enum subject_kind k)
{
	return k == SUBJECT_KEY ? "key" : "tensor";
}

/* rule_index: the index of d's rule in the rules array (cat), or -1. */
static long
rule_index(const struct catalog *cat, const struct diag *d)
{
	if (cat == NULL)
		return -1;
	if (d->rule >= cat->rules && d->rule < cat->rules + cat->n)
		return (long)(d->rule - cat->rules);
	return catalog_index(cat, d->rule->code);
}

/* add_result: diagnostic i of res, in the file at artifacts[artifact]. */
static void
add_result(const struct report_ctx *ctx, struct strbuf *out,
    const struct lint_result *res, size_t i, size_t artifact)
{
	const struct diag *d = &res->diags.v[i];
	struct strbuf msg = STRBUF_INIT;
	uint64_t length;
	char fp[65];
	long index;

	index = rule_index(ctx->cat, d);
	strbuf_adds(out, "{\"ruleId\": ");
	enc_json_cstr(out, d->rule->code);
	if (index >= 0)
		strbuf_addf(out, ", \"ruleIndex\": %ld", index);
	strbuf_addf(out, ", \"level\": \"%s\", \"message\": {\"text\": ",
	    sarif_level[d->severity]);
	strbuf_adds(&msg, report_message(d));
	if (d->subject != NULL) {
		strbuf_addf(&msg, " [%s: ", subject_label(d->kind));
		strbuf_add(&msg, d->subject, d->subject_len);
		strbuf_addc(&msg, ']');
	}
	diag_detail_text(d, &msg);	/* the note and the fix */
	enc_json_string(out, msg.buf, msg.len);
	strbuf_free(&msg);
	strbuf_adds(out, "},\n        \"locations\": [{\"physicalLocation\": "
	    "{\"artifactLocation\": {\"uri\": ");
	strbuf_adds(out, ctx->sarif->artifacts[artifact].uri);
	strbuf_addf(out, ", \"index\": %zu}, \"region\": {\"startLine\": 1, "
	    "\"byteOffset\": %" PRIu64, artifact, d->offset);
	if (report_subject_extent(res, d, &length))
		strbuf_addf(out, ", \"byteLength\": %" PRIu64, length);
	strbuf_adds(out, "}}");
	if (d->subject != NULL) {
		strbuf_adds(out, ", \"logicalLocations\": [{\"name\": ");
		enc_json_string(out, d->subject, d->subject_len);
		strbuf_adds(out, ", \"fullyQualifiedName\": ");
		enc_json_string(out, d->subject, d->subject_len);
		strbuf_addf(out, ", \"kind\": \"%s\"}]",
		    d->kind == SUBJECT_KEY ? "property" : "variable");
	}
	report_fingerprint(res, i, fp);
	strbuf_addf(out, "}],\n        \"partialFingerprints\": {\""
	    SARIF_FINGERPRINT_KEY "\": \"%s\"},", fp);
	if (ctx->opts.baseline)
		strbuf_addf(out, " \"baselineState\": \"%s\",",
		    d->baselined ? "unchanged" : "new");
	strbuf_adds(out, "\n        \"properties\": {\"slug\": ");
	enc_json_cstr(out, d->rule->slug);
	strbuf_addf(out, ", \"byteOffset\": %" PRIu64, d->offset);
	if (d->subject != NULL)
		strbuf_addf(out, ", \"subjectKind\": \"%s\"",
		    subject_label(d->kind));
	strbuf_adds(out, "}}");
}

/* artifact_index: the index of res's file in the artifacts, added if new. */
static size_t
artifact_index(struct report_sarif *s, const struct lint_result *res)
{
	struct strbuf uri = STRBUF_INIT;
	size_t i;

	add_uri(&uri, res->path);
	for (i = 0; i < s->n_artifacts; i++)
		if (strcmp(s->artifacts[i].uri, strbuf_cstr(&uri)) == 0) {
			strbuf_free(&uri);
			return i;
		}
	if (s->n_artifacts == s->cap_artifacts) {
		s->cap_artifacts = s->cap_artifacts ? 2 * s->cap_artifacts : 8;
		s->artifacts = xreallocarray(s->artifacts, s->cap_artifacts,
		    sizeof *s->artifacts);
	}
	s->artifacts[i].uri = strbuf_detach(&uri);
	s->artifacts[i].length = res->file.size;
	return s->n_artifacts++;
}

void
report_sarif_begin(struct report_ctx *ctx, struct strbuf *out)
{
	report_sarif_free(ctx->sarif);
	ctx->sarif = xcalloc(1, sizeof *ctx->sarif);
	strbuf_adds(out, "{\"$schema\": \"" SARIF_SCHEMA "\",\n"
	    " \"version\": \"2.1.0\",\n"
	    " \"runs\": [{\n"
	    "    \"tool\": {\"driver\": {\"name\": \"gguflint\", "
	    "\"version\": ");
	enc_json_cstr(out, PACKAGE_VERSION);
	strbuf_adds(out, ", \"semanticVersion\": ");
	enc_json_cstr(out, PACKAGE_VERSION);
	if (gguflint_commit[0] != '\0') {
		strbuf_adds(out, ", \"properties\": {\"commit\": ");
		enc_json_cstr(out, gguflint_commit);
		strbuf_adds(out, "}");
	}
#ifdef PACKAGE_URL
	/* Set by AC_INIT's fifth argument; none is known yet. */
	if (PACKAGE_URL[0] != '\0') {
		strbuf_adds(out, ", \"informationUri\": ");
		enc_json_cstr(out, PACKAGE_URL);
	}
#endif
	add_rules(out, ctx->cat);
}

void
report_sarif_file(struct report_ctx *ctx, struct strbuf *out,
    const struct lint_result *res)
{
	struct report_sarif *s = ctx->sarif;
	size_t i, artifact;

	ctx->first = false;
	artifact = artifact_index(s, res);
	for (i = 0; i < res->diags.n; i++) {
		strbuf_adds(out, s->n_results++ ? ",\n      " : "\n      ");
		add_result(ctx, out, res, i, artifact);
	}
	if (ctx->opts.show_plan) {
		strbuf_adds(&s->plans, s->n_plans++ ? ",\n        " :
		    "\n        ");
		strbuf_adds(&s->plans, "{\"uri\": ");
		strbuf_adds(&s->plans, s->artifacts[artifact].uri);
		strbuf_addf(&s->plans, ", \"index\": %zu, \"plan\": ",
		    artifact);
		report_plan_json(&s->plans, res);
		strbuf_adds(&s->plans, "}");
	}
}

void
report_sarif_error(struct report_ctx *ctx, struct strbuf *out,
    const char *path, const char *why, bool read)
{
	struct report_sarif *s = ctx->sarif;

	(void)out;
	strbuf_adds(&s->notes, s->n_notes++ ? ",\n        " : "\n        ");
	strbuf_adds(&s->notes, "{\"level\": \"error\", \"message\": "
	    "{\"text\": ");
	enc_json_cstr(&s->notes, why);
	strbuf_addf(&s->notes, "}, \"descriptor\": {\"id\": \"%s\"}, "
	    "\"locations\": [{\"physicalLocation\": "
	    "{\"artifactLocation\": {\"uri\": ", read ? "runtime-error" :
	    "unreadable-input");
	add_uri(&s->notes, path);
	strbuf_adds(&s->notes, "}}}]}");
}

/* The invocation: how the run ended, and what it could not read. */
static void
add_invocation(const struct report_ctx *ctx, struct strbuf *out)
{
	const struct report_sarif *s = ctx->sarif;

	strbuf_addf(out, ",\n    \"invocations\": [{\"executionSuccessful\": "
	    "%s, \"exitCode\": %d", ctx->exit_code == 2 ? "false" : "true",
	    ctx->exit_code);
	if (s->n_notes > 0) {
		strbuf_adds(out, ",\n      \"toolExecutionNotifications\": [");
		strbuf_add(out, s->notes.buf, s->notes.len);
		strbuf_adds(out, "\n      ]");
	}
	strbuf_adds(out, "}]");
	if (ctx->opts.show_plan) {
		strbuf_adds(out, ",\n    \"properties\": {\"plans\": [");
		strbuf_add(out, s->plans.buf, s->plans.len);
		strbuf_adds(out, s->n_plans ? "\n    ]}" : "]}");
	}
}

void
report_sarif_end(struct report_ctx *ctx, struct strbuf *out)
{
	struct report_sarif *s = ctx->sarif;
	size_t i;

	strbuf_adds(out, s->n_results ? "\n    ],\n" : "],\n");
	strbuf_adds(out, "    \"artifacts\": [");
	for (i = 0; i < s->n_artifacts; i++) {
		strbuf_adds(out, i ? ",\n      {\"location\": {\"uri\": " :
		    "\n      {\"location\": {\"uri\": ");
		strbuf_adds(out, s->artifacts[i].uri);
		strbuf_addf(out, "}, \"length\": %" PRIu64 "}",
		    s->artifacts[i].length);
	}
	strbuf_adds(out, s->n_artifacts ? "\n    ]" : "]");
	add_invocation(ctx, out);
	strbuf_adds(out, "\n}]}\n");
	report_sarif_free(s);
	ctx->sarif = NULL;
}
