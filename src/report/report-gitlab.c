/*
 * report-gitlab.c - the GitLab Code Quality reporter (--format gitlab): one
 * JSON array with an issue per diagnostic, the artifact of a job's
 * artifacts:reports:codequality, which GitLab shows in merge requests:
 *   {"description", "check_name", "fingerprint", "severity",
 *    "location": {"path", "lines": {"begin": 1}}}
 * GitLab requires a line and a GGUF file has none: every issue is on line
 * 1, and the description ends with the byte offset. The path is the one
 * given, without dot segments (run gguflint from the repository's root with
 * relative paths, as for SARIF). The fingerprint, which GitLab uses to tell
 * new issues from old ones, is the SHA-256 of that path and the SARIF
 * partial fingerprint (code, subject, repeats; never the message or the
 * offset), so it is unique in the report and survives reordering. Severity:
 * info is "info", warning "minor", error "critical" (GitLab's "major" and
 * "blocker" are not used). A finding the baseline holds is left out unless
 * --show-baselined.
 */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "base/enc.h"
#include "base/sha256.h"
#include "base/util.h"
#include "findings/diag.h"
#include "lint.h"
#include "report/report.h"

/* GitLab's severity of each of ours (indexed by enum severity). */
static const char *const gitlab_severity[] = { "info", "minor", "critical" };

void
report_gitlab_begin(struct report_ctx *ctx, struct strbuf *out)
{
	ctx->n_items = 0;
	strbuf_adds(out, "[");
}

/* The issue's fingerprint: SHA-256 over path, a NUL and the partial
 * fingerprint of diagnostic i of res. */
static void
issue_fingerprint(const struct lint_result *res, size_t i, const char *path,
    char hex[65])
{
	struct sha256 ctx;
	uint8_t digest[32];
	char fp[65];

	report_fingerprint(res, i, fp);
	sha256_init(&ctx);
	sha256_update(&ctx, path, strlen(path) + 1);
	sha256_update(&ctx, fp, 64);
	sha256_final(&ctx, digest);
	sha256_hex(digest, hex);
}

static void
add_issue(struct strbuf *out, const struct lint_result *res, size_t i,
    const char *path)
{
	const struct diag *d = &res->diags.v[i];
	struct strbuf desc = STRBUF_INIT;
	char hex[65];

	strbuf_addf(&desc, "%s %s: %s", d->rule->code, d->rule->slug,
	    report_message(d));
	if (d->subject != NULL) {
		strbuf_addf(&desc,
		    " [%s: ", d->kind == SUBJECT_KEY ? "key" : "tensor");
		strbuf_add(&desc, d->subject, d->subject_len);
		strbuf_addc(&desc, ']');
	}
	strbuf_addf(&desc, " (at byte %" PRIu64 ")", d->offset);
	if (d->baselined)
		strbuf_adds(&desc, " [baselined]");
	strbuf_adds(out, "{\"type\": \"issue\", \"description\": ");
	enc_json_string(out, desc.buf, desc.len);
	strbuf_adds(out, ", \"check_name\": ");
	enc_json_cstr(out, d->rule->code);
	issue_fingerprint(res, i, path, hex);
	strbuf_addf(out,
	    ", \"fingerprint\": \"%s\", \"severity\": \"%s\", "
	    "\"location\": {\"path\": ",
	    hex, gitlab_severity[d->severity]);
	enc_json_cstr(out, path);
	strbuf_adds(out, ", \"lines\": {\"begin\": 1}}}");
	strbuf_free(&desc);
}

void
report_gitlab_file(struct report_ctx *ctx, struct strbuf *out,
    const struct lint_result *res)
{
	char *path = report_normalize_path(res->path);
	size_t i;

	ctx->first = false;
	for (i = 0; i < res->diags.n; i++) {
		if (res->diags.v[i].baselined && !ctx->opts.show_baselined)
			continue;
		strbuf_adds(out, ctx->n_items++ ? ",\n  " : "\n  ");
		add_issue(out, res, i, path);
	}
	free(path);
}

void
report_gitlab_end(struct report_ctx *ctx, struct strbuf *out)
{
	strbuf_adds(out, ctx->n_items ? "\n]\n" : "]\n");
}
