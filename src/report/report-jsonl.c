/*
 * report-jsonl.c - the JSON Lines reporter (--format jsonl), for scans of
 * many models: a line for each linted file as soon as it is done, a line
 * for each input that could not be read, and a last line that sums up the
 * run. A line is never held back for the next, so a scan of a million
 * models holds one model's report at a time.
 *
 *   {"type": "file", "path": ..., ...}     the JSON report's file object
 *   {"type": "error", "path": ..., "message": ..., "read": false}
 *   {"type": "summary", "gguflint": {"version", "commit"}, "files": N,
 *    "unread": N, "errors": N, "warnings": N, "infos": N,
 *    "baselined": N, "exit_code": N}   (and "baseline_gone" with one;
 *    "http": {"requests", "retries", "rate_limited", "queued",
 *    "waited_s"} when a remote file was read)
 */
#include "config.h"

#include <string.h>

#include "base/enc.h"
#include "base/util.h"
#include "findings/diag.h"
#include "findings/severity.h"
#include "lint.h"
#include "report/report.h"

void
report_jsonl_begin(struct report_ctx *ctx, struct strbuf *out)
{
	(void)out;
	memset(ctx->jsonl, 0, sizeof ctx->jsonl);
}

/* one_line: the JSON text s (its raw newlines are formatting only: a
 * string escapes its own) appended to out without them and the
 * indentation after each. */
static void
one_line(struct strbuf *out, const char *s)
{
	for (; *s != '\0'; s++) {
		if (*s != '\n') {
			strbuf_add(out, s, 1);
			continue;
		}
		while (s[1] == ' ')
			s++;
	}
}

void
report_jsonl_file(struct report_ctx *ctx, struct strbuf *out,
    const struct lint_result *res)
{
	struct strbuf obj = STRBUF_INIT;
	const char *p;
	size_t i;

	ctx->first = true;
	report_json_file(ctx, &obj, res);
	p = strchr(strbuf_cstr(&obj), '{');
	strbuf_adds(out, "{\"type\": \"file\", ");
	one_line(out, p != NULL ? p + 1 : "}");
	strbuf_adds(out, "\n");
	strbuf_free(&obj);
	ctx->jsonl[JSONL_FILES]++;
	for (i = 0; i < res->diags.n; i++) {
		const struct diag *d = &res->diags.v[i];

		if (d->baselined)
			ctx->jsonl[JSONL_BASELINED]++;
		else
			ctx->jsonl[JSONL_INFOS + d->severity]++;
	}
}

void
report_jsonl_error(struct report_ctx *ctx, struct strbuf *out, const char *path,
    const char *why, bool read)
{
	strbuf_adds(out, "{\"type\": \"error\", \"path\": ");
	enc_json_cstr(out, path);
	strbuf_adds(out, ", \"message\": ");
	enc_json_cstr(out, why);
	strbuf_addf(out, ", \"read\": %s}\n", read ? "true" : "false");
	ctx->jsonl[JSONL_UNREAD] += !read;
}

void
report_jsonl_end(struct report_ctx *ctx, struct strbuf *out)
{
	const size_t *n = ctx->jsonl;

	strbuf_adds(out, "{\"type\": \"summary\", \"gguflint\": ");
	report_json_tool(out);
	strbuf_addf(out,
	    ", \"files\": %zu, \"unread\": %zu, \"errors\": "
	    "%zu, \"warnings\": %zu, \"infos\": %zu, \"baselined\": %zu",
	    n[JSONL_FILES], n[JSONL_UNREAD], n[JSONL_INFOS + SEV_ERROR],
	    n[JSONL_INFOS + SEV_WARNING], n[JSONL_INFOS + SEV_INFO],
	    n[JSONL_BASELINED]);
	if (ctx->opts.baseline)
		strbuf_addf(out, ", \"baseline_gone\": %zu",
		    ctx->baseline_gone);
	if (ctx->http.requests > 0)
		strbuf_addf(out,
		    ", \"http\": {\"requests\": %lu, "
		    "\"retries\": %lu, \"rate_limited\": %lu, \"queued\": "
		    "%lu, \"waited_s\": %.3f}",
		    ctx->http.requests, ctx->http.retries,
		    ctx->http.rate_limited, ctx->http.queued,
		    (double)ctx->http.waited_ms / 1e3);
	strbuf_addf(out, ", \"exit_code\": %d}\n", ctx->exit_code);
}
