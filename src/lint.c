/*
 * lint.c - the pipeline for one file (see lint.h).
 */
#include <stdlib.h>
#include <string.h>

#include "checks.h"
#include "lint.h"

int
lint_file(const char *path, const struct lint_options *o,
    struct lint_result *res, struct gl_error *err)
{
	struct check_ctx ctx;
	const struct check *c;

	memset(res, 0, sizeof *res);
	res->path = xstrdup(path);
	diag_list_init(&res->diags, o->cat);
	if (gguf_open(&res->file, path, err) < 0)
		return -1;
	gguf_parse(&res->file, &res->diags);
	ctx.file = &res->file;
	for (c = checks; c->run != NULL; c++) {
		if (c->needs_header && !res->file.header_complete)
			continue;
		c->run(&ctx, &res->diags);
	}
	diag_finish(&res->diags);
	if (o->filter != NULL)
		diag_apply_filter(&res->diags, o->filter);
	return 0;
}

void
lint_result_free(struct lint_result *res)
{
	gguf_close(&res->file);
	diag_list_free(&res->diags);
	free(res->path);
	memset(res, 0, sizeof *res);
}
