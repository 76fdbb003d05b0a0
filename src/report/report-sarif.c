/*
 * report-sarif.c - the SARIF 2.1.0 reporter, for GitHub code scanning and
 * other SARIF consumers: one log, one run, the whole rule catalogue in
 * tool.driver.rules, one result per diagnostic.
 *
 * A GGUF file is binary and has no lines, but GitHub requires a line: every
 * result is placed at region.startLine 1, and the byte offset is kept in the
 * result's properties.byteOffset. The tensor or key a finding is about is a
 * logical location and is also named in the message, since code scanning
 * shows the message but not the logical locations.
 *
 * With a baseline in force, each result has a baselineState: "unchanged"
 * for a finding the baseline holds, "new" for any other.
 *
 * The log is streamed: begin writes the head and the rules (the context's
 * catalogue, the one the lint used), each file writes its results, and end
 * writes the artifacts and the tail. The state kept across calls, in the
 * context, is the count of results and the list of artifacts (one short
 * entry per file).
 */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "base/enc.h"
#include "base/sha256.h"
#include "base/util.h"
#include "findings/catalog.h"
#include "findings/diag.h"
#include "lint.h"
#include "report/report.h"

#define SARIF_SCHEMA "https://json.schemastore.org/sarif-2.1.0.json"
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
 * like score as a string); only rules tagged "security" may carry it.
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
 * add_prose: append catalogue text as a JSON string, with the lines the
 * YAML source wraps at 76 columns joined into paragraphs (viewers wrap
 * them again): a single newline becomes a space unless a list item follows,
 * blank lines stay paragraph breaks, and trailing newlines go.
 */
static void
add_prose(struct strbuf *out, const char *s)
{
	struct strbuf t = STRBUF_INIT;
	const char *p;

	for (p = s; *p != '\0'; p++) {
		if (*p != '\n') {
			strbuf_addc(&t, *p);
			continue;
		}
		if (p[1] == '\n') {
			while (p[1] == '\n')
				p++;
			if (p[1] != '\0')
				strbuf_adds(&t, "\n\n");
		} else if (p[1] != '\0') {
			strbuf_addc(&t, starts_list_item(p + 1) ? '\n' : ' ');
		}
	}
	enc_json_string(out, t.buf, t.len);
	strbuf_free(&t);
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
	strbuf_adds(out, "}, \"help\": {\"text\": ");
	add_prose(out, r->fix);
	strbuf_addf(out, "}, \"defaultConfiguration\": {\"level\": \"%s\"}, "
	    "\"properties\": {\"family\": \"%c\", \"tags\": [\"gguf\"",
	    sarif_level[r->severity], r->family);
	if (tag != NULL)
		strbuf_addf(out, ", \"%s\"", tag);
	strbuf_adds(out, "], \"basis\": ");
	add_prose(out, r->basis);
	if (r->family == 'S')
		strbuf_addf(out, ", \"security-severity\": \"%s\"",
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

/*
 * normalize_path: path with its "." segments and empty segments (repeated
 * slashes) removed and each ".." folded into the segment before it, as
 * RFC 3986 does with dot segments: a file URI must not hold them. A ".."
 * that has nothing to fold stays at the start of a relative path and goes
 * at the root of an absolute one. The caller frees the result.
 */
static char *
normalize_path(const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	size_t *starts = xcalloc(strlen(path) / 2 + 2, sizeof *starts);
	size_t depth = 0;
	bool absolute = path[0] == '/';
	const char *p = path;

	if (absolute)
		strbuf_addc(&sb, '/');
	while (*p != '\0') {
		size_t n = strcspn(p, "/");

		if (n == 2 && p[0] == '.' && p[1] == '.') {
			if (depth > 0) {
				/* Drop the last segment and its slash. */
				sb.len = starts[--depth];
				sb.buf[sb.len] = '\0';
			} else if (!absolute) {
				strbuf_adds(&sb, sb.len ? "/.." : "..");
			}
		} else if (n > 0 && !(n == 1 && p[0] == '.')) {
			starts[depth++] = sb.len;
			if (sb.len > 0 && sb.buf[sb.len - 1] != '/')
				strbuf_addc(&sb, '/');
			strbuf_add(&sb, p, n);
		}
		p += n;
		if (*p == '/')
			p++;
	}
	free(starts);
	return strbuf_detach(&sb);
}

/* Whether path is an absolute URL (a remote file: SCHEME://...). */
static bool
is_url(const char *path)
{
	const char *p = path;

	if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z')))
		return false;
	while ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
	    (*p >= '0' && *p <= '9') || *p == '+' || *p == '-' || *p == '.')
		p++;
	return strncmp(p, "://", 3) == 0;
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

	if (is_url(path)) {	/* a remote file: its URL */
		add_url(out, path);
		return;
	}
	norm = normalize_path(path);
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

/*
 * fingerprint: the partial fingerprint of diagnostic i of res, as 64 hex
 * digits: SHA-256 over the code, the path's basename, the subject kind and
 * the subject's raw bytes, each field followed by a NUL. When earlier
 * diagnostics of the file have the same code and subject, their count is
 * appended as a decimal, so that repeats stay distinct. The message is not
 * hashed: a finding whose numbers change is still the same finding, and so
 * is a file moved to another directory.
 */
static void
fingerprint(const struct lint_result *res, size_t i, char hex[65])
{
	const struct diag *d = &res->diags.v[i];
	const char *base = strrchr(res->path, '/');
	static const char kinds[] = "-kt";
	struct sha256 ctx;
	uint8_t digest[32];
	size_t j, repeats = 0;

	for (j = 0; j < i; j++) {
		const struct diag *e = &res->diags.v[j];

		if (e->rule == d->rule && e->kind == d->kind &&
		    e->subject_len == d->subject_len &&
		    (d->subject_len == 0 ||
		    memcmp(e->subject, d->subject, d->subject_len) == 0))
			repeats++;
	}
	base = base != NULL ? base + 1 : res->path;
	sha256_init(&ctx);
	sha256_update(&ctx, d->rule->code, strlen(d->rule->code) + 1);
	sha256_update(&ctx, base, strlen(base) + 1);
	sha256_update(&ctx, &kinds[d->kind <= SUBJECT_TENSOR ? d->kind : 0],
	    1);
	sha256_update(&ctx, "", 1);
	if (d->subject != NULL)
		sha256_update(&ctx, d->subject, d->subject_len);
	sha256_update(&ctx, "", 1);
	if (repeats > 0) {
		char num[24];
		int n = snprintf(num, sizeof num, "%zu", repeats);

		sha256_update(&ctx, num, (size_t)n);
	}
	sha256_final(&ctx, digest);
	sha256_hex(digest, hex);
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
	char fp[65];
	long index;

	index = rule_index(ctx->cat, d);
	strbuf_adds(out, "{\"ruleId\": ");
	enc_json_cstr(out, d->rule->code);
	if (index >= 0)
		strbuf_addf(out, ", \"ruleIndex\": %ld", index);
	strbuf_addf(out, ", \"level\": \"%s\", \"message\": {\"text\": ",
	    sarif_level[d->severity]);
	strbuf_adds(&msg, d->message);
	if (d->subject != NULL) {
		strbuf_addf(&msg, " [%s: ", subject_label(d->kind));
		strbuf_add(&msg, d->subject, d->subject_len);
		strbuf_addc(&msg, ']');
	}
	enc_json_string(out, msg.buf, msg.len);
	strbuf_free(&msg);
	strbuf_adds(out, "},\n        \"locations\": [{\"physicalLocation\": "
	    "{\"artifactLocation\": {\"uri\": ");
	strbuf_adds(out, ctx->sarif->artifacts[artifact].uri);
	strbuf_addf(out, ", \"index\": %zu}, \"region\": {\"startLine\": 1}}",
	    artifact);
	if (d->subject != NULL) {
		strbuf_adds(out, ", \"logicalLocations\": [{\"name\": ");
		enc_json_string(out, d->subject, d->subject_len);
		strbuf_adds(out, ", \"fullyQualifiedName\": ");
		enc_json_string(out, d->subject, d->subject_len);
		strbuf_addf(out, ", \"kind\": \"%s\"}]",
		    d->kind == SUBJECT_KEY ? "property" : "variable");
	}
	fingerprint(res, i, fp);
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
	strbuf_adds(out, "\n}]}\n");
	report_sarif_free(s);
	ctx->sarif = NULL;
}
