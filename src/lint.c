/*
 * lint.c - the pipeline for one file (see lint.h).
 */
#include "config.h"

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
	res->profile = o->profile;
	res->table = o->table;
	if (res->file.header_complete && o->profile != NULL) {
		res->geom = xcalloc(1, sizeof *res->geom);
		arch_read(&res->file, res->geom, &res->diags);
		res->forms = xcalloc(res->file.tensors_n + 1,
		    sizeof *res->forms);
		resolve_forms(&res->file, o->profile, o->table, o->strict,
		    res->forms);
		plan_make(res->geom, &res->file, o->profile, &o->request,
		    res->forms, &res->plan);
	}
	ctx.file = &res->file;
	ctx.geom = res->geom;
	ctx.profile = o->profile;
	ctx.plan = res->geom != NULL ? &res->plan : NULL;
	ctx.forms = res->forms;
	ctx.table = o->table;
	ctx.strict = o->strict;
	for (c = checks; c->run != NULL; c++) {
		if (c->needs_header && !res->file.header_complete)
			continue;
		if ((c->family == 'P' || c->family == 'W' ||
		    c->family == 'K') && ctx.plan == NULL)
			continue;	/* no profile, or no complete header */
		c->run(&ctx, &res->diags);
	}
	diag_finish(&res->diags);
	if (o->policy != NULL)
		policy_apply(o->policy, path, &res->diags, &res->warnings);
	else
		res->warnings = diag_count_at_least(&res->diags, SEV_WARNING) -
		    diag_count_at_least(&res->diags, SEV_ERROR);
	return 0;
}

void
lint_result_free(struct lint_result *res)
{
	gguf_close(&res->file);
	plan_free(&res->plan);
	free(res->forms);
	free(res->geom);
	diag_list_free(&res->diags);
	free(res->path);
	memset(res, 0, sizeof *res);
}
