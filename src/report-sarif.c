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
 * The log is streamed: begin writes the head, the first file writes the
 * rules (the catalogue is known only from a lint result), each file writes
 * its results, and end writes the tail. The only state kept across calls is
 * the list of artifacts (one short entry per file).
 */
#include "config.h"

#include <inttypes.h>
#include <string.h>

#include "enc.h"
#include "report.h"
#include "sha256.h"

#define SARIF_SCHEMA "https://json.schemastore.org/sarif-2.1.0.json"
/* The key of partialFingerprints; bump its version if the recipe changes. */
#define SARIF_FINGERPRINT_KEY "gguflint/v1"

/* What is carried from begin through file to end (one log at a time). */
static struct {
	bool rules_done;	/* the rules array and "results": [ written */
	size_t n_results;
	size_t n_files;
	struct strbuf artifacts;	/* the artifacts array's elements */
} sarif;

static void
add_str(struct strbuf *out, const char *s)
{
	enc_json_string(out, s, strlen(s));
}

static const char *
sarif_level(enum severity s)
{
	switch (s) {
	case SEV_ERROR:
		return "error";
	case SEV_WARNING:
		return "warning";
	default:
		return "note";
	}
}

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

static void
add_rule(struct strbuf *out, const struct rule *r)
{
	const char *tag = family_tag(r->family);

	strbuf_adds(out, "{\"id\": ");
	add_str(out, r->code);
	strbuf_adds(out, ", \"name\": ");
	add_str(out, r->slug);
	strbuf_adds(out, ", \"shortDescription\": {\"text\": ");
	add_str(out, r->summary);
	strbuf_adds(out, "}, \"fullDescription\": {\"text\": ");
	add_str(out, r->rationale);
	strbuf_adds(out, "}, \"help\": {\"text\": ");
	add_str(out, r->fix);
	strbuf_addf(out, "}, \"defaultConfiguration\": {\"level\": \"%s\"}, "
	    "\"properties\": {\"family\": \"%c\", \"tags\": [\"gguf\"",
	    sarif_level(r->severity), r->family);
	if (tag != NULL)
		strbuf_addf(out, ", \"%s\"", tag);
	strbuf_adds(out, "]");
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
	sarif.rules_done = true;
}

static bool
uri_unreserved(unsigned char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
	    (c >= '0' && c <= '9') || c == '-' || c == '.' || c == '_' ||
	    c == '~' || c == '/';
}

/*
 * add_uri: append path as a URI reference (as a JSON string): a relative
 * path stays relative (leading "./" dropped, so that it matches the
 * repository path code scanning expects), an absolute one becomes a file://
 * URI. Every byte but the unreserved characters and '/' is percent-encoded,
 * so ':' in a first segment cannot read as a scheme, and bytes that are not
 * UTF-8 survive.
 */
static void
add_uri(struct strbuf *out, const char *path)
{
	static const char hex[] = "0123456789ABCDEF";
	const unsigned char *p = (const unsigned char *)path;

	strbuf_addc(out, '"');
	if (*p == '/')
		strbuf_adds(out, "file://");
	else
		while (p[0] == '.' && p[1] == '/' && p[2] != '\0') {
			p += 2;
			while (*p == '/' && p[1] != '\0')
				p++;
		}
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

static void
add_result(struct strbuf *out, const struct lint_result *res, size_t i,
    size_t artifact)
{
	const struct diag *d = &res->diags.v[i];
	const struct catalog *cat = res->diags.cat;
	struct strbuf msg = STRBUF_INIT;
	char fp[65];
	long index;

	index = catalog_index(cat, d->rule->code);
	strbuf_adds(out, "{\"ruleId\": ");
	add_str(out, d->rule->code);
	if (index >= 0)
		strbuf_addf(out, ", \"ruleIndex\": %ld", index);
	strbuf_addf(out, ", \"level\": \"%s\", \"message\": {\"text\": ",
	    sarif_level(d->severity));
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
	add_uri(out, res->path);
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
	    SARIF_FINGERPRINT_KEY "\": \"%s\"},\n        \"properties\": "
	    "{\"slug\": ", fp);
	add_str(out, d->rule->slug);
	strbuf_addf(out, ", \"byteOffset\": %" PRIu64, d->offset);
	if (d->subject != NULL)
		strbuf_addf(out, ", \"subjectKind\": \"%s\"",
		    subject_label(d->kind));
	strbuf_adds(out, "}}");
}

void
report_sarif_begin(struct strbuf *out)
{
	strbuf_free(&sarif.artifacts);
	memset(&sarif, 0, sizeof sarif);
	strbuf_adds(out, "{\"$schema\": \"" SARIF_SCHEMA "\",\n"
	    " \"version\": \"2.1.0\",\n"
	    " \"runs\": [{\n"
	    "    \"tool\": {\"driver\": {\"name\": \"gguflint\", "
	    "\"version\": ");
	add_str(out, PACKAGE_VERSION);
#ifdef PACKAGE_URL
	/* Set by AC_INIT's fifth argument; none is known yet. */
	if (PACKAGE_URL[0] != '\0') {
		strbuf_adds(out, ", \"informationUri\": ");
		add_str(out, PACKAGE_URL);
	}
#endif
}

void
report_sarif_file(struct strbuf *out, const struct lint_result *res,
    bool first, const struct report_opts *ro)
{
	size_t i;

	(void)first;
	(void)ro;
	if (!sarif.rules_done)
		add_rules(out, res->diags.cat);
	for (i = 0; i < res->diags.n; i++) {
		strbuf_adds(out, sarif.n_results++ ? ",\n      " :
		    "\n      ");
		add_result(out, res, i, sarif.n_files);
	}
	strbuf_adds(&sarif.artifacts, sarif.n_files ? ",\n      " :
	    "\n      ");
	strbuf_adds(&sarif.artifacts, "{\"location\": {\"uri\": ");
	add_uri(&sarif.artifacts, res->path);
	strbuf_addf(&sarif.artifacts, "}, \"length\": %" PRIu64 "}",
	    res->file.size);
	sarif.n_files++;
}

void
report_sarif_end(struct strbuf *out)
{
	struct catalog cat = { 0 };
	struct gl_error err;

	if (!sarif.rules_done) {
		/* No file could be read: describe the built-in rules. */
		if (catalog_load_builtin(&cat, &err) < 0) {
			catalog_free(&cat);
			memset(&cat, 0, sizeof cat);
		}
		add_rules(out, &cat);
		catalog_free(&cat);
	}
	strbuf_adds(out, sarif.n_results ? "\n    ],\n" : "],\n");
	strbuf_adds(out, "    \"artifacts\": [");
	strbuf_add(out, sarif.artifacts.buf, sarif.artifacts.len);
	strbuf_adds(out, sarif.n_files ? "\n    ]" : "]");
	strbuf_adds(out, "\n}]}\n");
	strbuf_free(&sarif.artifacts);
	memset(&sarif, 0, sizeof sarif);
}
