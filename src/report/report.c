/*
 * report.c - the reporter registry and the report context (see report.h).
 */
#include "config.h"

#include <string.h>

#include "report/report.h"

const struct reporter reporters[] = {
	{ "text", report_text_begin, report_text_file, report_text_end,
	    report_text_rules, report_text_explain, dump_text,
	    report_text_profiles, report_text_kernels, false,
	    report_text_devices, NULL, report_text_archs },
	{ "json", report_json_begin, report_json_file, report_json_end,
	    report_json_rules, report_json_explain, dump_json,
	    report_json_profiles, report_json_kernels, true,
	    report_json_devices, NULL, report_json_archs },
	{ "jsonl", report_jsonl_begin, report_jsonl_file, report_jsonl_end,
	    NULL, NULL, NULL, NULL, NULL, false, NULL, report_jsonl_error,
	    NULL },
	{ "sarif", report_sarif_begin, report_sarif_file, report_sarif_end,
	    NULL, NULL, NULL, NULL, NULL, false, NULL, report_sarif_error,
	    NULL },
	{ "github", report_github_begin, report_github_file,
	    report_github_end, NULL, NULL, NULL, NULL, NULL, false, NULL,
	    NULL, NULL },
	{ "gitlab", report_gitlab_begin, report_gitlab_file,
	    report_gitlab_end, NULL, NULL, NULL, NULL, NULL, false, NULL,
	    NULL, NULL },
	{ "junit", report_junit_begin, report_junit_file, report_junit_end,
	    NULL, NULL, NULL, NULL, NULL, false, NULL, report_junit_error,
	    NULL },
	{ "mdoc", NULL, NULL, NULL, report_rules_mdoc, NULL, NULL, NULL,
	    NULL, false, NULL, NULL, NULL },
	{ NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, false, NULL,
	    NULL, NULL }
};

const struct reporter *
reporter_find(const char *name)
{
	const struct reporter *r;

	for (r = reporters; r->name != NULL; r++)
		if (strcmp(r->name, name) == 0)
			return r;
	return NULL;
}

void
report_ctx_init(struct report_ctx *ctx, const struct catalog *cat,
    const struct report_opts *opts)
{
	memset(ctx, 0, sizeof *ctx);
	ctx->cat = cat;
	if (opts != NULL)
		ctx->opts = *opts;
	ctx->first = true;
}

void
report_ctx_free(struct report_ctx *ctx)
{
	report_sarif_free(ctx->sarif);
	ctx->sarif = NULL;
}
