/*
 * lint.c - the pipeline for one model (see lint.h): read the header (stage
 * 1), the model facts (2), the weight forms and the plan (5, 6), the
 * tensor data with --deep, then every check of the registry (7), then the
 * user's policy; a model's companions, each a file of its own checked
 * against it. The runtime probe, libllama's answers and the plan (4 to 6)
 * are lint-plan.c's; a split model is lint-split.c's, over the stages
 * shared here (lint-impl.h). The facts are computed here once and handed to the
 * checks, which do not compute them again; so is the oldest llama.cpp a
 * file needs, which the reporters print. The file is read under
 * guard_call(), so a file truncated while it is read is reported (F032),
 * not a crash.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checks/checks.h"
#include "base/guard.h"
#include "data/builtin.h"
#include "facts/advisory.h"
#include "facts/llversions.h"
#include "lint-impl.h"
#include "lint.h"
#include "source/source.h"

/*
 * Stage 2, the geometry of f into *gp. Its findings (M002-M004) are
 * recorded in dl with a profile only, as the plan's. Without one they are
 * dropped: the M checks find the keys of a wrong type (M002) themselves,
 * and M003/M004 go unreported, as they always have without a profile.
 */
void
lint_read_geometry(const struct lint_options *o, const struct gguf_file *f,
    struct model_geom **gp, struct diag_list *dl)
{
	struct diag_list quiet;

	*gp = xcalloc(1, sizeof **gp);
	if (o->profile != NULL) {
		arch_read(f, *gp, dl);
		return;
	}
	diag_list_init(&quiet, dl->cat);
	arch_read(f, *gp, &quiet);
	diag_list_free(&quiet);
}

/*
 * Stage 2, the file as the name maps see it: its kind and map, whether it
 * is a shard, and for a model each tensor's entry in the map.
 */
void
lint_read_names(const struct names_db *db, struct names_matcher *mm,
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

void
lint_facts_free(struct model_facts *mf)
{
	free(mf->entry);
	free(mf->layer);
	memset(mf, 0, sizeof *mf);
}

/* Stage 7: every check of the table whose conditions hold. */
void
lint_check_all(const struct check_ctx *ctx, struct diag_list *dl,
    enum check_pass pass)
{
	const struct check *c;

	for (c = checks; c->run != NULL; c++) {
		if ((pass == PASS_FILE && !c->per_file) ||
		    (pass == PASS_MODEL && c->per_file))
			continue;
		if (c->needs_header && !ctx->file->header_complete)
			continue;
		if (c->needs_plan && ctx->plan == NULL)
			continue;	/* no profile, or no complete header */
		c->run(ctx, dl);
	}
}

/* What the checks read of file f (ctx, all of it set, the rest zeroed):
 * o's options; with res, the model's analyses res holds (its geometry,
 * the runtime's answers, its plan when planned, its role), else none (the
 * per-file checks of a shard). */
void
lint_fill_ctx(struct check_ctx *ctx, const struct lint_options *o,
    const struct gguf_file *f, const struct lint_result *res, bool planned)
{
	memset(ctx, 0, sizeof *ctx);
	ctx->file = f;
	ctx->profile = o->profile;
	ctx->table = o->table;
	ctx->strict = o->strict;
	ctx->decls = o->decls;
	if (res == NULL)
		return;
	ctx->geom = res->geom;
	ctx->plan = planned ? &res->plan : NULL;
	ctx->rt = res->rt_error == NULL ? res->rt : NULL;
	ctx->n_rt = res->rt_error == NULL ? res->n_rt : 0;
	ctx->rt_info = &res->rt_info;
	ctx->llama = &res->llama;
	ctx->measure = &res->measure;
	ctx->role = res->role;
	ctx->as_model = o->n_companions > 0;
}

/* --deep's scan of f into stats, telling o's progress, if any. */
void
lint_deep_scan(const struct gguf_file *f, struct deep_stats *stats,
    const struct lint_options *o)
{
	struct deep_progress p = { NULL, NULL };

	if (o->progress != NULL) {
		p.fn = o->progress->fn;
		p.arg = o->progress->arg;
	}
	deep_scan_progress(f, stats, o->threads, o->deep_full, &p);
}

/* The split checks of a file alone: what its split keys say of it. */
static void
check_alone(struct lint_result *res)
{
	struct split_shard s;
	struct split_ctx sc;

	s.path = res->path;
	s.file = &res->file;
	s.why = NULL;
	s.dl = &res->diags;
	sc.shard = &s;
	sc.n = 1;
	sc.named = false;
	sc.model_dl = &res->diags;
	check_split(&sc);
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
	if (complete)
		res->role = role_of(&res->file);
	res->given = o->given;
	/* a companion is planned with its model, an imatrix never */
	planned = complete && o->profile != NULL && role_model(res->role) &&
	    (o->given == COMPANION_NONE || o->given == COMPANION_DRAFT);
	if (complete) {
		lint_read_geometry(o, &res->file, &res->geom, &res->diags);
		if (names != NULL) {
			j->matcher = names_matcher_new();
			lint_read_names(names, j->matcher, &res->file,
			    res->geom, &j->facts);
		}
	}
	if (complete && o->runtime != NULL && (o->given == COMPANION_NONE ||
	    o->given == COMPANION_DRAFT))
		lint_probe_runtime(o, &res->file, res);	/* a model's pairs */
	/* a model, or the main one */
	if (complete && o->runtime != NULL && res->model == NULL &&
	    (o->given == COMPANION_NONE || o->given == COMPANION_DRAFT) &&
	    (!role_companion(res->role) || o->n_companions > 0))
		lint_ask_llama(o, res->path, res);
	if (planned)
		lint_make_plan(o, &res->file, res->geom,
		    res->model == NULL ? res->path : NULL, res, &res->forms,
		    &res->plan);
	if (complete && o->deep) {
		res->deep = xcalloc(res->file.tensors_n + 1, sizeof *res->deep);
		lint_deep_scan(&res->file, res->deep, o);
	}
	lint_fill_ctx(&ctx, o, &res->file, res, planned);
	ctx.forms = res->forms;
	ctx.deep = res->deep;
	ctx.facts = complete && names != NULL ? &j->facts : NULL;
	ctx.given = o->given;
	ctx.base = o->base;
	lint_check_all(&ctx, &res->diags, PASS_ALL);
	check_alone(res);
}

/*
 * The oldest llama.cpp res's file needs (llversions.h) into
 * res->min_runtime, for a llama.cpp profile and a complete header; left
 * LINT_MIN_NONE without one, without the data, or when the file names
 * nothing the data dates.
 */
static void
find_min_runtime(struct lint_result *res)
{
	struct lint_min_runtime *mr = &res->min_runtime;
	struct llv_item items[LLV_MAX_ITEMS];
	const struct llv_db *db;
	struct llv_min m;
	size_t n;

	if (res->profile == NULL || res->profile->runtime != RUNTIME_LLAMA_CPP
	    || !res->file.header_complete || llv_db_get(&db, NULL) < 0)
		return;
	n = llv_items(&res->file, db, items, LLV_MAX_ITEMS);
	m = llv_min_of(db, items, n);
	if (m.state == LLV_MIN_NONE)
		return;
	mr->state = m.state == LLV_MIN_DATED ? LINT_MIN_DATED :
	    m.state == LLV_MIN_UNDATED ? LINT_MIN_UNDATED : LINT_MIN_UNKNOWN;
	mr->build = m.build;
	snprintf(mr->date, sizeof mr->date, "%s", m.date ? m.date : "");
	mr->release = xstrdup(db->release);
	llv_describe(m.item, mr->because, sizeof mr->because);
}

/* After the checks: the oldest llama.cpp the file needs, the policy, and
 * the warnings it leaves. */
void
lint_finish(const struct lint_options *o, struct lint_result *res)
{
	find_min_runtime(res);
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
	} else {
		gguf_recheck(&res->file, &res->diags);	/* shrank since? */
	}
	lint_facts_free(&j.facts);
	names_matcher_free(j.matcher);
	lint_finish(o, res);
}

/* An empty result for name: nothing open (fd -1, not standard input). */
void
lint_result_init(struct lint_result *res, const char *name,
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

	lint_result_init(res, path, o->cat);
	if (names_db_get(&names, err) < 0)
		return -1;	/* a broken name map in the data directory */
	if (gguf_open_src(&res->file, path, o->deep ? GGUF_OPEN_DATA : 0,
	    o->source, err) < 0)
		return -1;
	lint_pipeline(o, names, res);
	return gguf_read_error(&res->file, err);	/* it stopped reading */
}

void
lint_buffer(const char *name, const void *data, uint64_t size,
    const struct lint_options *o, struct lint_result *res)
{
	const struct names_db *names;

	lint_result_init(res, name, o->cat);
	if (names_db_get(&names, NULL) < 0)
		names = NULL;	/* the M and N checks are skipped */
	gguf_open_mem(&res->file, name, data, size);
	lint_pipeline(o, names, res);
}

/* ---- companions ------------------------------------------------------ */

/* The model alone: a file, or the shards of a split model. */
static int
lint_model_alone(const struct model_input *in, const struct lint_options *o,
    struct lint_model *m, struct gl_error *err)
{
	const struct names_db *names;

	memset(m, 0, sizeof *m);
	if (!in->split) {
		m->res = xcalloc(1, sizeof *m->res);
		m->n = 1;
		return lint_file(in->path[0], o, &m->res[0], err);
	}
	if (names_db_get(&names, err) < 0)
		return -1;	/* a broken name map in the data directory */
	return lint_split(in, o, names, m, err);
}

/*
 * A draft's request: the model's context and batches (plan, its plan,
 * when there is one), llama.cpp's draft defaults (an f16 cache whatever
 * -ctk and -ctv ask of the model, the profile's offload whatever -ngl
 * does), no companions of its own.
 */
static void
draft_request(const struct plan *plan, struct plan_request *rq)
{
	if (plan->valid)
		rq->ctx = plan->ctx;
	rq->kv_set = false;
	rq->kv_k_set = rq->kv_v_set = true;
	rq->kv_k = rq->kv_v = KV_F16;
	rq->ngl_set = false;	/* -ngld: all layers by default */
	rq->n_cpu_moe = 0;	/* --cpu-moe-draft's, not the model's */
	rq->companions = NULL;
	rq->n_companions = 0;
}

/*
 * Each companion of o linted as a file of its own into a result after the
 * model's (m's first n_model), checked against the model (a draft is a
 * model of its own, whose vocabulary is checked against the model's,
 * planned at the model's context). Returns 0, or -1 with err when a
 * companion cannot be read (its result is in m all the same).
 */
static int
lint_companions(const struct lint_options *o, struct lint_model *m,
    struct gl_error *err)
{
	size_t i, k, n_model = m->n;
	const struct gguf_file **files;
	struct companion_base base;
	struct lint_options co;
	struct lint_result *r;
	int rc = 0;

	m->res = xreallocarray(m->res, n_model + o->n_companions + 1,
	    sizeof *m->res);
	files = xcalloc(n_model + 1, sizeof *files);
	for (k = 0; k < n_model; k++)
		files[k] = &m->res[k].file;
	base.files = files;
	base.n = n_model;
	base.geom = m->res[0].geom;
	for (k = 0; k < n_model; k++)
		if (!m->res[k].file.header_complete)
			base.n = 0;	/* nothing to check against */
	if (base.n == 0)
		base.geom = NULL;
	for (i = 0; i < o->n_companions && rc == 0; i++) {
		co = *o;
		co.companions = NULL;
		co.n_companions = 0;
		co.given = o->companions[i].kind;
		co.base = &base;
		if (co.given == COMPANION_DRAFT)
			draft_request(&m->res[0].plan, &co.request);
		r = &m->res[m->n++];
		rc = lint_file(o->companions[i].path, &co, r, err);
		r->companion_of = xstrdup(m->res[0].model ? m->res[0].model :
		    m->res[0].path);
	}
	free(files);
	return rc;
}

/*
 * The model linted again, its plan with the companions (m's results after
 * the first n_model), into m's first results. Returns 0, or -1 with err.
 */
static int
lint_with_companions(const struct model_input *in,
    const struct lint_options *o, struct lint_model *m, size_t n_model,
    struct gl_error *err)
{
	size_t n_comp = m->n - n_model, i;
	struct plan_companion_in *pc = xcalloc(n_comp + 1, sizeof *pc);
	struct lint_options wo = *o;
	struct lint_model again;
	int rc;

	for (i = 0; i < n_comp; i++) {
		const struct lint_result *r = &m->res[n_model + i];

		pc[i].kind = r->given;
		pc[i].path = r->path;
		pc[i].file = r->file.header_complete ? &r->file : NULL;
		pc[i].own = r->plan.valid ? &r->plan : NULL;
	}
	wo.request.companions = pc;
	wo.request.n_companions = n_comp;
	rc = lint_model_alone(in, &wo, &again, err);
	free(pc);
	for (i = 0; i < n_model; i++)
		lint_result_free(&m->res[i]);
	/* the model's new results, then the companions' */
	if (again.n > n_model)
		m->res = xreallocarray(m->res, again.n + n_comp + 1,
		    sizeof *m->res);
	memmove(m->res + again.n, m->res + n_model, n_comp * sizeof *m->res);
	memcpy(m->res, again.res, again.n * sizeof *m->res);
	m->n = again.n + n_comp;
	free(again.res);
	return rc;
}

int
lint_input(const struct model_input *in, const struct lint_options *o,
    struct lint_model *m, struct gl_error *err)
{
	struct lint_options first = *o;
	size_t n_model;
	int rc;

	if (o->n_companions == 0)
		return lint_model_alone(in, o, m, err);
	if (o->profile != NULL) {
		/* the base of the companions' checks: a plan at the model's
		 * settings, its other stages once the plan has them all */
		first.deep = false;
		first.runtime = NULL;
	}
	rc = lint_model_alone(in, &first, m, err);
	if (rc < 0 || m->n == 0)
		return rc;
	n_model = m->n;
	rc = lint_companions(o, m, err);
	if (rc < 0 || o->profile == NULL)
		return rc;
	return lint_with_companions(in, o, m, n_model, err);
}

void
lint_model_free(struct lint_model *m)
{
	size_t i;

	for (i = 0; i < m->n; i++)
		lint_result_free(&m->res[i]);
	free(m->res);
	memset(m, 0, sizeof *m);
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
	runtime_llama_free(&res->llama);
	runtime_llama_measure_free(&res->measure);
	free(res->rt_error);
	diag_list_free(&res->diags);
	free(res->path);
	free(res->model);
	free(res->companion_of);
	free(res->min_runtime.release);
	memset(res, 0, sizeof *res);
	res->file.fd = -1;	/* freeing again closes nothing */
}

void
lint_cleanup(void)
{
	names_db_cleanup();
	adv_db_cleanup();
	check_security_cleanup();
	builtin_names_cleanup();
	source_cleanup();
}
