/*
 * lint.c - the pipeline for one file (see lint.h): read the header, the
 * model facts, the weight forms and the plan, then every check of the
 * registry, then the user's policy. File reads run under guard_call(), so
 * a file truncated while it is read is reported (F032), not a crash.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "checks/checks.h"
#include "base/guard.h"
#include "lint.h"

struct run_args {
	const struct lint_options *o;
	struct lint_result *res;
};

/* Everything that reads the mapped file. */
static void
analyse(void *arg)
{
	const struct lint_options *o = ((struct run_args *)arg)->o;
	struct lint_result *res = ((struct run_args *)arg)->res;
	struct check_ctx ctx;
	const struct check *c;
	struct gl_error err;

	gguf_parse(&res->file, &res->diags);
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
	if (res->file.header_complete && o->deep) {
		res->deep = xcalloc(res->file.tensors_n + 1, sizeof *res->deep);
		deep_scan(&res->file, res->deep, o->threads, o->deep_full);
	}
	ctx.file = &res->file;
	ctx.geom = res->geom;
	ctx.profile = o->profile;
	ctx.plan = res->geom != NULL ? &res->plan : NULL;
	ctx.forms = res->forms;
	ctx.table = o->table;
	ctx.strict = o->strict;
	ctx.deep = res->deep;
	ctx.decls = o->decls;
	if (names_db_get(&ctx.names, &err) < 0)
		ctx.names = NULL;	/* lint_file reported it */
	for (c = checks; c->run != NULL; c++) {
		if (c->needs_header && !res->file.header_complete)
			continue;
		if ((c->family == 'P' || c->family == 'W' ||
		    c->family == 'K') && ctx.plan == NULL)
			continue;	/* no profile, or no complete header */
		c->run(&ctx, &res->diags);
	}
}

static void
lint_run(const struct lint_options *o, struct lint_result *res)
{
	struct run_args a = { o, res };

	res->profile = o->profile;
	res->table = o->table;
	if (guard_call(analyse, &a) < 0) {
		diag_add(&res->diags, "F032", 0, SUBJECT_NONE, NULL, 0, "the "
		    "file shrank while it was being read (it was %llu bytes "
		    "when opened); nothing more was checked",
		    (unsigned long long)res->file.size);
		res->file.header_complete = false;	/* do not trust it */
		res->plan.valid = false;
	}
	diag_finish(&res->diags);
	if (o->policy != NULL)
		policy_apply(o->policy, res->path, &res->diags, &res->warnings);
	else
		res->warnings = diag_count_at_least(&res->diags, SEV_WARNING) -
		    diag_count_at_least(&res->diags, SEV_ERROR);
}

int
lint_file(const char *path, const struct lint_options *o,
    struct lint_result *res, struct gl_error *err)
{
	const struct names_db *names;

	memset(res, 0, sizeof *res);
	res->path = xstrdup(path);
	diag_list_init(&res->diags, o->cat);
	if (names_db_get(&names, err) < 0)
		return -1;	/* a broken name map in the data directory */
	if (gguf_open(&res->file, path, err) < 0)
		return -1;
	lint_run(o, res);
	return 0;
}

void
lint_buffer(const char *name, const void *data, uint64_t size,
    const struct lint_options *o, struct lint_result *res)
{
	memset(res, 0, sizeof *res);
	res->path = xstrdup(name);
	diag_list_init(&res->diags, o->cat);
	gguf_open_mem(&res->file, name, data, size);
	lint_run(o, res);
}

void
lint_result_free(struct lint_result *res)
{
	gguf_close(&res->file);
	plan_free(&res->plan);
	free(res->forms);
	free(res->deep);
	free(res->geom);
	diag_list_free(&res->diags);
	free(res->path);
	memset(res, 0, sizeof *res);
}
