/*
 * lint.c - the pipeline for one file (see lint.h): read the header (stage
 * 1), the model facts (2), the weight forms and the plan (5, 6), the
 * tensor data with --deep, then every check of the registry (7), then the
 * user's policy. The facts are computed here once and handed to the
 * checks, which do not compute them again. The file is read under
 * guard_call(), so a file truncated while it is read is reported (F032),
 * not a crash.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "checks/checks.h"
#include "base/guard.h"
#include "data/builtin.h"
#include "lint.h"

/* One file going through the pipeline: what its stages share. */
struct pipeline_job {
	const struct lint_options *o;
	struct lint_result *res;
	const struct names_db *names;	/* the name maps, or NULL: none */
	struct model_facts facts;	/* for the checks; freed after them */
	struct names_matcher *matcher;	/* this lint's, for the name maps */
};

/*
 * Stage 2, the geometry. Its findings (M002-M004) are recorded with a
 * profile only, as the plan's. Without one they are dropped: the M checks
 * find the keys of a wrong type (M002) themselves, and M003/M004 go
 * unreported, as they always have without a profile.
 */
static void
read_geometry(const struct lint_options *o, struct lint_result *res)
{
	struct diag_list quiet;

	res->geom = xcalloc(1, sizeof *res->geom);
	if (o->profile != NULL) {
		arch_read(&res->file, res->geom, &res->diags);
		return;
	}
	diag_list_init(&quiet, res->diags.cat);
	arch_read(&res->file, res->geom, &quiet);
	diag_list_free(&quiet);
}

/*
 * Stage 2, the file as the name maps see it: its kind and map, whether it
 * is a shard, and for a model each tensor's entry in the map.
 */
static void
read_names(const struct names_db *db, struct names_matcher *mm,
    const struct gguf_file *f, const struct model_geom *g,
    struct model_facts *mf)
{
	size_t i;

	mf->kind = names_classify(db, mm, f, g->arch, &mf->map);
	names_split(f, &mf->split_no, &mf->split_count);
	if (mf->kind != NAMES_MODEL)
		return;		/* so it has tensors */
	mf->entry = xcalloc(f->tensors_n, sizeof *mf->entry);
	mf->layer = xcalloc(f->tensors_n, sizeof *mf->layer);
	for (i = 0; i < f->tensors_n; i++) {
		mf->entry[i] = names_match(mf->map, mm, f->tensors[i].name,
		    &mf->layer[i]);
		if (mf->entry[i] < 0)
			mf->layer[i] = -1;
	}
}

static void
facts_free(struct model_facts *mf)
{
	free(mf->entry);
	free(mf->layer);
	memset(mf, 0, sizeof *mf);
}

/* Stages 5 and 6, with a profile: the weight forms and the memory plan. */
static void
make_plan(const struct lint_options *o, struct lint_result *res)
{
	res->forms = xcalloc(res->file.tensors_n + 1, sizeof *res->forms);
	resolve_forms(&res->file, o->profile, o->table, o->strict,
	    res->forms);
	plan_make(res->geom, &res->file, o->profile, &o->request, res->forms,
	    &res->plan);
}

/* The operation a weight tensor t is fed to in llama.cpp. */
static enum rt_op
tensor_op(const struct gguf_tensor *t)
{
	if (t->n_dims >= 3 && t->ne[2] > 1)
		return RT_MUL_MAT_ID;	/* experts, stacked */
	if (memmem(t->name.p, t->name.n, "token_embd", 10) != NULL)
		return RT_GET_ROWS;
	return RT_MUL_MAT;
}

/*
 * Stage 4 with a runtime: the model's (operation, encoding, row length)
 * pairs, each probed once on the device. A runtime that does not load is
 * res->rt_error.
 */
static void
probe_runtime(const struct lint_options *o, struct lint_result *res)
{
	const struct gguf_file *f = &res->file;
	struct gl_error err;
	size_t i, k;

	for (i = 0; i < f->tensors_n; i++) {
		const struct gguf_tensor *t = &f->tensors[i];
		enum rt_op op = tensor_op(t);

		if (t->n_dims < 2 || !t->size_ok || t->ne[0] <= 0 ||
		    t->ne[0] > 65536 || !runtime_has_reference(t->type))
			continue;
		for (k = 0; k < res->n_rt; k++)
			if (res->rt[k].op == op && res->rt[k].encoding ==
			    t->type && res->rt[k].row == (uint32_t)t->ne[0])
				break;
		if (k == res->n_rt) {
			res->rt = xreallocarray(res->rt, k + 1,
			    sizeof *res->rt);
			memset(&res->rt[k], 0, sizeof *res->rt);
			res->rt[k].op = op;
			res->rt[k].encoding = t->type;
			res->rt[k].row = (uint32_t)t->ne[0];
			res->rt[k].tag = i;
			res->n_rt++;
		}
		res->rt[k].count++;
	}
	if (res->n_rt > 0 && runtime_probe(o->runtime, res->rt, res->n_rt,
	    &res->rt_info, &err) < 0)
		res->rt_error = xstrdup(err.msg);
}

/* Stage 7: every check of the table whose conditions hold. */
static void
check_all(const struct check_ctx *ctx, struct diag_list *dl)
{
	const struct check *c;

	for (c = checks; c->run != NULL; c++) {
		if (c->needs_header && !ctx->file->header_complete)
			continue;
		if (c->needs_plan && ctx->plan == NULL)
			continue;	/* no profile, or no complete header */
		c->run(ctx, dl);
	}
}

/* Everything that reads the mapped file (arg: the pipeline_job). */
static void
read_model(void *arg)
{
	struct pipeline_job *j = arg;
	const struct lint_options *o = j->o;
	struct lint_result *res = j->res;
	const struct names_db *names = j->names;
	bool complete, planned;
	struct check_ctx ctx;

	gguf_parse(&res->file, &res->diags);
	complete = res->file.header_complete;
	planned = complete && o->profile != NULL;
	if (complete) {
		read_geometry(o, res);
		if (names != NULL) {
			j->matcher = names_matcher_new(names);
			read_names(names, j->matcher, &res->file, res->geom,
			    &j->facts);
		}
	}
	if (complete && o->runtime != NULL)
		probe_runtime(o, res);
	if (planned)
		make_plan(o, res);
	if (complete && o->deep) {
		res->deep = xcalloc(res->file.tensors_n + 1, sizeof *res->deep);
		deep_scan(&res->file, res->deep, o->threads, o->deep_full);
	}
	ctx.file = &res->file;
	ctx.geom = res->geom;
	ctx.profile = o->profile;
	ctx.plan = planned ? &res->plan : NULL;
	ctx.forms = res->forms;
	ctx.table = o->table;
	ctx.strict = o->strict;
	ctx.deep = res->deep;
	ctx.decls = o->decls;
	ctx.facts = complete && names != NULL ? &j->facts : NULL;
	ctx.rt = res->rt_error == NULL ? res->rt : NULL;
	ctx.n_rt = res->rt_error == NULL ? res->n_rt : 0;
	ctx.rt_info = &res->rt_info;
	check_all(&ctx, &res->diags);
}

/* After the checks: the policy, and the warnings it leaves. */
static void
apply_policy(const struct lint_options *o, struct lint_result *res)
{
	diag_finish(&res->diags);
	if (o->policy != NULL)
		policy_apply(o->policy, res->path, &res->diags, &res->warnings);
	else
		res->warnings = diag_count_at_least(&res->diags, SEV_WARNING) -
		    diag_count_at_least(&res->diags, SEV_ERROR);
}

/* The pipeline over res->file, opened: fills in the rest of res. */
static void
lint_pipeline(const struct lint_options *o, const struct names_db *names,
    struct lint_result *res)
{
	struct pipeline_job j;

	memset(&j, 0, sizeof j);
	j.o = o;
	j.res = res;
	j.names = names;
	res->profile = o->profile;
	res->table = o->table;
	if (guard_call(read_model, &j) < 0) {
		diag_add(&res->diags, "F032", 0, SUBJECT_NONE, NULL, 0, "the "
		    "file shrank while it was being read (it was %llu bytes "
		    "when opened); nothing more was checked",
		    (unsigned long long)res->file.size);
		res->file.header_complete = false;	/* do not trust it */
		res->plan.valid = false;
	}
	facts_free(&j.facts);
	names_matcher_free(j.matcher);
	apply_policy(o, res);
}

/* An empty result for name: nothing open (fd -1, not standard input). */
static void
result_init(struct lint_result *res, const char *name,
    const struct catalog *cat)
{
	memset(res, 0, sizeof *res);
	res->file.fd = -1;
	res->path = xstrdup(name);
	diag_list_init(&res->diags, cat);
}

int
lint_file(const char *path, const struct lint_options *o,
    struct lint_result *res, struct gl_error *err)
{
	const struct names_db *names;

	result_init(res, path, o->cat);
	if (names_db_get(&names, err) < 0)
		return -1;	/* a broken name map in the data directory */
	if (gguf_open(&res->file, path, err) < 0)
		return -1;
	lint_pipeline(o, names, res);
	return 0;
}

void
lint_buffer(const char *name, const void *data, uint64_t size,
    const struct lint_options *o, struct lint_result *res)
{
	const struct names_db *names;

	result_init(res, name, o->cat);
	if (names_db_get(&names, NULL) < 0)
		names = NULL;	/* the M and N checks are skipped */
	gguf_open_mem(&res->file, name, data, size);
	lint_pipeline(o, names, res);
}

void
lint_result_free(struct lint_result *res)
{
	gguf_close(&res->file);
	plan_free(&res->plan);
	free(res->forms);
	free(res->deep);
	free(res->geom);
	runtime_cases_free(res->rt, res->n_rt);
	free(res->rt);
	runtime_info_free(&res->rt_info);
	free(res->rt_error);
	diag_list_free(&res->diags);
	free(res->path);
	memset(res, 0, sizeof *res);
	res->file.fd = -1;	/* freeing again closes nothing */
}

void
lint_cleanup(void)
{
	names_db_cleanup();
	check_security_cleanup();
	builtin_names_cleanup();
}
