/*
 * lint-plan.c - the pipeline's stages 4 to 6 for one model (lint-impl.h):
 * the runtime probe of the model's (operation, encoding, row length)
 * pairs, the vocabulary load by the runtime's libllama, and the weight
 * forms and the memory plan, with the probe's verdicts as data and, with
 * --measure, llama.cpp's own compute buffers for the plan and its
 * suggestions.
 */
#include "config.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/util.h"
#include "facts/role.h"
#include "lint-impl.h"
#include "lint.h"
#include "plan/plan.h"
#include "plan/resolve.h"
#include "runtime/runtime.h"
#include "target/kvtype.h"

/*
 * The runtime's children, one at a time: a session linting several models
 * at once (--jobs) forks them from one worker at a time, and the probe's
 * caches are read and written by one lint at a time.
 */
static pthread_mutex_t runtime_lock = PTHREAD_MUTEX_INITIALIZER;

static bool *fallback_tensors(const struct gguf_file *f,
    const struct lint_result *res);

/* Whether path names a regular file (llama.cpp loads it by its path). */
static bool
regular_file(const char *path)
{
	struct stat st;

	return path != NULL && strcmp(path, "-") != 0 &&
	    stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* Parameters at of plan pl (its device) as llama.cpp's measurement takes
 * them, into rq; false when they do not fit its types. */
static bool
measure_request(const struct plan_params *at, const struct plan *pl,
    struct rt_measure_req *rq)
{
	memset(rq, 0, sizeof *rq);
	if (at->ctx > UINT32_MAX || at->n_batch > UINT32_MAX ||
	    at->n_ubatch > UINT32_MAX || at->n_seq > UINT32_MAX ||
	    kv_type_info(at->kv_k)->ggml < 0 ||
	    kv_type_info(at->kv_v)->ggml < 0)
		return false;
	rq->n_ctx = (uint32_t)at->ctx;
	rq->n_batch = (uint32_t)at->n_batch;
	rq->n_ubatch = (uint32_t)at->n_ubatch;
	rq->n_seq = (uint32_t)at->n_seq;
	rq->type_k = kv_type_info(at->kv_k)->ggml;
	rq->type_v = kv_type_info(at->kv_v)->ggml;
	rq->flash_attn = at->flash_attention;
	rq->swa_full = at->swa_full;
	rq->ngl = at->ngl > INT32_MAX ? INT32_MAX : (int32_t)at->ngl;
	rq->n_cpu_moe = (int32_t)(at->n_cpu_moe > INT32_MAX ? INT32_MAX :
	    at->n_cpu_moe);
	if (pl->n_dev > 1)
		rq->device = pl->probed ? pl->probed_dev : pl->dev[1].name;
	return true;
}

/* What llama.cpp said, m, at parameters at, as the plan takes it into
 * pm; false when it said nothing the plan takes (it neither measured nor
 * refused). */
static bool
take_measure(const struct rt_measure *m, const struct plan_params *at,
    struct plan_measured *pm)
{
	size_t i;

	memset(pm, 0, sizeof *pm);
	pm->at = *at;
	pm->by = m->said.version;
	pm->cached = m->said.cached;
	pm->refused = m->said.verdict == RT_LLAMA_REFUSED;
	for (i = 0; i < m->n && i < PLAN_MEASURED_BUFS; i++) {
		pm->name[i] = m->buf[i].name;
		pm->bytes[i] = m->buf[i].bytes;
	}
	pm->n = i;
	return m->said.verdict == RT_LLAMA_LOADED || pm->refused;
}

/*
 * --measure: llama.cpp's own compute buffers for plan pl of the model at
 * path (NULL: a shard, measured with its model), into res->measure, and
 * as the plan takes them into *pm. NULL when none was measured: no
 * --measure, not a llama.cpp plan, a vocabulary llama.cpp refuses (M021
 * says so), or it was not asked or did not measure (res->measure's
 * verdict says why: a remote file, a refusal, ...).
 */
static const struct plan_measured *
measure_plan(const struct lint_options *o, const char *path,
    const struct plan *pl, struct lint_result *res, struct plan_measured *pm)
{
	struct rt_measure_req rq;
	struct plan_params at;

	if (o->runtime == NULL || !o->runtime->measure || !pl->valid ||
	    pl->runtime != RUNTIME_LLAMA_CPP || path == NULL ||
	    (res->llama.verdict != RT_LLAMA_LOADED &&
		res->llama.verdict != RT_LLAMA_NONE))
		return NULL;
	plan_params_of(pl, &at);
	if (!regular_file(path) || !measure_request(&at, pl, &rq)) {
		res->measure.said.verdict = RT_LLAMA_SKIPPED;
		res->measure.said.text = xstrdup(!regular_file(path) ?
			"llama.cpp loads a local file, and this one is not" :
			"the plan's parameters are beyond llama.cpp's types");
		return NULL;
	}
	pthread_mutex_lock(&runtime_lock);
	runtime_llama_measure(o->runtime, path, &rq, &res->measure);
	pthread_mutex_unlock(&runtime_lock);
	if (res->measure.said.verdict != RT_LLAMA_LOADED)
		return NULL;
	take_measure(&res->measure, &at, pm);
	return pm;
}

/* The most measurements of one plan: its own, and two rounds of its
 * suggestions'. */
#define MEASURES_MAX (1 + 2 * PLAN_MAX_SUGGESTIONS)

/* A plan's measurements: [0] the plan's (res->measure's), then its
 * suggestions' (their runtime answers in rt, which pm[i] points into). */
struct measures {
	struct plan_measured pm[MEASURES_MAX];
	struct rt_measure rt[MEASURES_MAX];
	size_t n;
	struct plan_params tried[MEASURES_MAX]; /* every one asked */
	size_t n_tried;
};

/* Measure the suggestions of plan (measured itself) that are at
 * parameters not yet asked; returns how many llama.cpp answered. */
static size_t
measure_suggestions(const struct lint_options *o, const char *path,
    const struct plan *plan, struct measures *ms)
{
	struct rt_measure_req rq;
	size_t i, k, got = 0;

	for (i = 0; i < plan->n_sugg && ms->n_tried < MEASURES_MAX; i++) {
		const struct plan_suggestion *s = &plan->sugg[i];
		struct rt_measure *m = &ms->rt[ms->n];

		for (k = 0; k < ms->n_tried; k++)
			if (plan_params_eq(&ms->tried[k], &s->at))
				break;
		if (!s->has_at || k < ms->n_tried ||
		    !measure_request(&s->at, plan, &rq))
			continue;
		ms->tried[ms->n_tried++] = s->at;
		pthread_mutex_lock(&runtime_lock);
		runtime_llama_measure(o->runtime, path, &rq, m);
		pthread_mutex_unlock(&runtime_lock);
		if (take_measure(m, &s->at, &ms->pm[ms->n])) {
			ms->n++;
			got++;
		} else {
			runtime_llama_measure_free(m);
		}
	}
	return got;
}

/* Stages 5 and 6, with a profile: the weight forms of f (into *forms)
 * and the memory plan of the model f with geometry g, with what a
 * runtime probe (in res, when one ran) said of the device; with
 * --measure, planned again with llama.cpp's compute buffers for the
 * model at path, and, when it does not fit, twice more at most with its
 * suggestions' (a suggestion llama.cpp finds over moves on, as its
 * search goes on with the measurement). */
void
lint_make_plan(const struct lint_options *o, const struct gguf_file *f,
    const struct model_geom *g, const char *path, struct lint_result *res,
    struct weight_form **forms, struct plan *plan)
{
	bool *fb = fallback_tensors(f, res);
	struct plan_probe probe = { fb != NULL ? res->rt_info.device.name :
					NULL, fb,
		res->rt_info.device.max_tensor, NULL, 0,
		fb != NULL && res->rt_info.device.max_tensor_known };
	struct measures *ms = xcalloc(1, sizeof *ms);
	int round;
	size_t i;

	*forms = xcalloc(f->tensors_n + 1, sizeof **forms);
	resolve_forms(f, o->profile, o->table, o->strict, *forms);
	plan_make_probed(g, f, o->profile, &o->request, *forms, &probe, plan);
	if (measure_plan(o, path, plan, res, &ms->pm[0]) != NULL) {
		ms->tried[0] = ms->pm[0].at;
		ms->n = ms->n_tried = 1;
		probe.measured = ms->pm;
		for (round = 0; round < 3; round++) {
			probe.n_measured = ms->n;
			plan_free(plan);
			plan_make_probed(g, f, o->profile, &o->request, *forms,
			    &probe, plan);
			if (round == 2 || measure_suggestions(o, path, plan,
			    ms) == 0)
				break;
		}
	}
	for (i = 1; i < ms->n; i++)
		runtime_llama_measure_free(&ms->rt[i]);
	free(ms);
	free(fb);
}

/* The runtime probe's operation for weight tensor t (weight_op's). */
static enum rt_op
tensor_op(const struct gguf_tensor *t)
{
	enum weight_op w = weight_op(t);

	return w == WOP_MUL_MAT_ID ? RT_MUL_MAT_ID :
	    w == WOP_GET_ROWS	   ? RT_GET_ROWS :
				     RT_MUL_MAT;
}

/* Whether tensor t is probed: a matrix of a matrix product, a lookup or
 * the experts' product, of an encoding gguflint has a reference for. */
static bool
probed_tensor(const struct gguf_tensor *t)
{
	enum weight_op w = weight_op(t);

	return (w == WOP_MUL_MAT || w == WOP_GET_ROWS ||
		   w == WOP_MUL_MAT_ID) &&
	    t->n_dims >= 2 && t->size_ok && t->ne[0] > 0 &&
	    t->ne[0] <= 65536 && runtime_has_reference(t->type);
}

/* The case among rt[0..n) that answers for tensor t, or n. */
static size_t
case_of(const struct rt_case *rt, size_t n, const struct gguf_tensor *t)
{
	enum rt_op op = tensor_op(t);
	size_t k;

	for (k = 0; k < n; k++)
		if (rt[k].op == op && rt[k].encoding == t->type &&
		    rt[k].row == (uint32_t)t->ne[0])
			break;
	return k;
}

/*
 * The probe's verdicts as the plan takes them (one-way: data, not the
 * probe): per tensor of f, whether the probed device does not claim its
 * operation. NULL (nothing for the plan) without probed answers or when
 * the device probed is a CPU: its verdicts say nothing of a GPU.
 */
static bool *
fallback_tensors(const struct gguf_file *f, const struct lint_result *res)
{
	const char *type = res->rt_info.device.type;
	bool *fb;
	size_t i, k;

	if (res->n_rt == 0 || res->rt_error != NULL || type == NULL ||
	    strcmp(type, "CPU") == 0 || res->rt_info.device.name == NULL)
		return NULL;
	fb = xcalloc(f->tensors_n + 1, sizeof *fb);
	for (i = 0; i < f->tensors_n; i++) {
		if (!probed_tensor(&f->tensors[i]))
			continue;
		k = case_of(res->rt, res->n_rt, &f->tensors[i]);
		fb[i] = k < res->n_rt && res->rt[k].state == RT_FALLBACK;
	}
	return fb;
}

/*
 * Stage 4 with a runtime: the model's (operation, encoding, row length)
 * pairs, each probed once on the device. A runtime that does not load is
 * res->rt_error.
 */
void
lint_probe_runtime(const struct lint_options *o, const struct gguf_file *f,
    struct lint_result *res)
{
	struct gl_error err;
	size_t i, k;

	for (i = 0; i < f->tensors_n; i++) {
		const struct gguf_tensor *t = &f->tensors[i];

		if (!probed_tensor(t))
			continue;
		k = case_of(res->rt, res->n_rt, t);
		if (k == res->n_rt) {
			res->rt = xreallocarray(res->rt, k + 1,
			    sizeof *res->rt);
			memset(&res->rt[k], 0, sizeof *res->rt);
			res->rt[k].op = tensor_op(t);
			res->rt[k].encoding = t->type;
			res->rt[k].row = (uint32_t)t->ne[0];
			res->rt[k].tag = i;
			res->n_rt++;
		}
		res->rt[k].count++;
	}
	pthread_mutex_lock(&runtime_lock);
	if (res->n_rt > 0 && runtime_probe(o->runtime, res->rt, res->n_rt,
	    &res->rt_info, &err) < 0)
		res->rt_error = xstrdup(err.msg);
	pthread_mutex_unlock(&runtime_lock);
}

/*
 * With a runtime holding libllama: the model at path (a regular file; a
 * split model's first shard) loaded by it as a vocabulary, the verdict
 * into res->llama for check_version.
 */
void
lint_ask_llama(const struct lint_options *o, const char *path,
    struct lint_result *res)
{
	if (!regular_file(path))
		return;
	pthread_mutex_lock(&runtime_lock);
	runtime_llama_vocab(o->runtime, path, &res->llama);
	pthread_mutex_unlock(&runtime_lock);
}
