/*
 * lint-split.c - the pipeline over a split model (lint_input's, see
 * lint.h): its shards, each read and checked as a file (the F, S and D
 * families), the split checks across them (F040-F048), then the model's
 * stages over a view of the whole (the first shard's metadata, every
 * shard's tensors), whose findings go to the shard holding their tensor
 * and whose forms are shared out among the shards. The stages are
 * lint.c's (lint-impl.h); the shards are read under guard_call(), so a
 * file truncated while it is read is reported (F032), not a crash.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/error.h"
#include "base/guard.h"
#include "base/strset.h"
#include "base/util.h"
#include "checks/checks.h"
#include "facts/names.h"
#include "facts/role.h"
#include "findings/diag.h"
#include "lint-impl.h"
#include "lint.h"
#include "reader/gguf.h"
#include "source/source.h"
#include "source/url.h"

/* The most shards of a remote split model asked for. */
#define LINT_REMOTE_SHARDS 256

/* A split model going through the pipeline: what its stages share. */
struct model_job {
	const struct lint_options *o;
	const struct names_db *names;	/* or NULL: none */
	struct lint_model *m;		/* the results of the present files */
	size_t cap;			/* room in m->res */
	struct split_shard *ss;		/* every shard, as check_split sees
					 * them */
	struct split_ctx sc;
	size_t *base;			/* per result: its first tensor's
					 * index in the view */
	struct gguf_file view;		/* the model: the first shard's
					 * metadata, all shards' tensors */
	struct strset owner;		/* tensor name -> result index */
	struct model_facts facts;
	struct names_matcher *matcher;
	struct weight_form *forms;	/* one per tensor of the view */
	struct diag_list dl;		/* the model's findings, unrouted */
};

/* The per-file stages of one shard (arg: a pipeline_job): the header, the
 * data with --deep, the checks of a file (F, S, D). */
static void
read_shard(void *arg)
{
	struct pipeline_job *j = arg;
	struct lint_result *res = j->res;
	struct check_ctx ctx;

	gguf_parse(&res->file, &res->diags);
	if (res->file.header_complete && j->o->deep) {
		res->deep = xcalloc(res->file.tensors_n + 1, sizeof *res->deep);
		lint_deep_scan(&res->file, res->deep, j->o);
	}
	lint_fill_ctx(&ctx, j->o, &res->file, NULL, false);
	ctx.deep = res->deep;
	lint_check_all(&ctx, &res->diags, PASS_FILE);
}

/* F032 in res, for a fault under the guard (what of the file shrank). */
static void
add_shrank(struct lint_result *res, const char *what)
{
	diag_add(&res->diags, "F032", 0, SUBJECT_NONE, NULL, 0, "%s shrank "
	    "while it was being read (it was %llu bytes when opened); nothing "
	    "more was checked", what, (unsigned long long)res->file.size);
	res->file.header_complete = false;	/* do not trust it */
	res->plan.valid = false;
}

/*
 * The view of the model: the first result's file (its metadata) with the
 * tensors of every result, and who holds each; false (nothing built) when
 * the first shard is absent or a header is incomplete.
 */
static bool
build_view(struct model_job *mj)
{
	struct lint_model *m = mj->m;
	size_t i, k, n = 0;

	if (mj->ss[0].file == NULL)
		return false;
	for (k = 0; k < m->n; k++) {
		if (!m->res[k].file.header_complete)
			return false;
		n += m->res[k].file.tensors_n;
	}
	mj->view = m->res[0].file;	/* borrowed: never closed */
	mj->view.tensors = xcalloc(n + 1, sizeof *mj->view.tensors);
	mj->view.tensors_n = n;
	strset_reserve(&mj->owner, n);
	for (n = 0, k = 0; k < m->n; k++) {
		const struct gguf_file *f = &m->res[k].file;

		mj->base[k] = n;
		for (i = 0; i < f->tensors_n; i++, n++) {
			mj->view.tensors[n] = f->tensors[i];
			strset_insert(&mj->owner, f->tensors[i].name.p,
			    f->tensors[i].name.n, k, NULL);
		}
	}
	return true;
}

/* A copy of d in dl (where the model's finding is reported). */
static void
copy_diag(struct diag_list *dl, const struct diag *d)
{
	struct diag *c;
	size_t i;

	c = diag_add(dl, d->rule->code, d->offset, d->kind, d->subject,
	    d->subject_len, "%s", d->message);
	if (c == NULL)
		return;
	c->severity = d->severity;
	if (d->note != NULL)
		diag_note(c, "%s", d->note);
	if (d->fix != NULL)
		diag_fix(c, "%s", d->fix);
	for (i = 0; i < d->n_items; i++)
		diag_attach_item(c, d->items[i], strlen(d->items[i]));
}

/* The model's findings to the results: a tensor's to the shard holding
 * it (strset_insert finds the first holder), any other to the first. */
static void
route_diags(struct model_job *mj)
{
	size_t i, k;

	diag_finish(&mj->dl);
	for (i = 0; i < mj->dl.n; i++) {
		const struct diag *d = &mj->dl.v[i];

		k = 0;
		if (d->kind != SUBJECT_TENSOR || d->subject == NULL ||
		    strset_insert(&mj->owner, d->subject, d->subject_len,
		    0, &k) == 0)
			k = 0;	/* no such tensor: added with value 0 */
		copy_diag(&mj->m->res[k].diags, d);
	}
}

/* The model's stages over the view (stages 2 to 7 but the per-file
 * checks), with the first result holding the geometry and the plan; no
 * plan (and no missing-tensor findings) when a shard is missing. */
static void
read_whole(struct model_job *mj)
{
	const struct lint_options *o = mj->o;
	struct lint_result *first = &mj->m->res[0];
	bool whole = mj->m->n == mj->sc.n;	/* no shard missing */
	bool planned = o->profile != NULL && whole;
	struct check_ctx ctx;

	lint_read_geometry(o, &mj->view, &first->geom, &mj->dl);
	if (mj->names != NULL) {
		mj->matcher = names_matcher_new();
		lint_read_names(mj->names, mj->matcher, &mj->view, first->geom,
		    &mj->facts);
		mj->facts.split_no = 0;	/* the whole model, when complete */
		mj->facts.split_count = whole ? 1 : (int64_t)mj->sc.n;
	}
	if (o->runtime != NULL) {	/* the model's tensors: the view's */
		lint_probe_runtime(o, &mj->view, first);
		lint_ask_llama(o, first->model, first);
	}
	if (planned)
		lint_make_plan(o, &mj->view, first->geom, first->model, first,
		    &mj->forms, &first->plan);
	first->role = role_of(&mj->view);
	lint_fill_ctx(&ctx, o, &mj->view, first, planned);
	ctx.forms = mj->forms;
	ctx.facts = mj->names != NULL ? &mj->facts : NULL;
	lint_check_all(&ctx, &mj->dl, PASS_MODEL);
}

/* What reads several mappings at once (arg: the model_job): the split
 * checks, then the model's stages and their findings' routing. */
static void
read_split(void *arg)
{
	struct model_job *mj = arg;

	check_split(&mj->sc);
	if (!build_view(mj))
		return;
	read_whole(mj);
	route_diags(mj);
}

/* Each result its own slice of the model's forms. */
static void
share_forms(struct model_job *mj)
{
	struct lint_model *m = mj->m;
	size_t k, n;

	if (mj->forms == NULL)
		return;
	for (k = 0; k < m->n; k++) {
		n = m->res[k].file.tensors_n;
		m->res[k].forms = xcalloc(n + 1, sizeof *m->res[k].forms);
		memcpy(m->res[k].forms, mj->forms + mj->base[k],
		    n * sizeof *mj->forms);
	}
}

/*
 * Why shard i of in, not given, could not be opened (e): missing, or
 * unreadable; a URL with a query refused by its server (401, 403) was
 * named after another shard's, whose query (a presigned URL's signature)
 * is for that one file only. Returns a string the caller frees.
 */
static char *
shard_why(const struct model_input *in, size_t i, const struct gl_error *e)
{
	const char *p = in->path[i], *msg = e->msg;
	size_t n = strlen(p);

	if (e->kind == GL_ERR_NOT_FOUND || (!source_is_remote(p) &&
	    access(p, F_OK) < 0 && errno == ENOENT))
		return xstrdup("is missing");
	if (e->kind != GL_ERR_DENIED || p[url_name_len(p)] == '\0')
		return xasprintf("cannot be read (%s)", e->msg);
	if (strncmp(msg, p, n) == 0 && strncmp(msg + n, ": ", 2) == 0)
		msg += n + 2;	/* the URL, said before */
	return xasprintf("cannot be read (%s): its URL is another shard's "
	    "with the number changed, but a query (a presigned URL's) may be "
	    "valid for one file only: give each shard's URL", msg);
}

/*
 * Open every shard of in: a result for each present, in order, and its
 * entry in ss. Returns 0, or -1 with err for a given file that cannot be
 * opened.
 */
static int
open_shards(const struct model_input *in, struct model_job *mj,
    char **why, struct gl_error *err)
{
	struct lint_model *m = mj->m;
	struct lint_result *res;
	struct gl_error e;
	size_t i;

	for (i = 0; i < in->n; i++) {
		mj->ss[i].path = in->path[i];
		if (m->n == mj->cap) {	/* it appeared since it was counted */
			mj->ss[i].why = "is missing";
			continue;
		}
		res = &m->res[m->n];
		lint_result_init(res, in->path[i], mj->o->cat);
		if (gguf_open_src(&res->file, in->path[i], mj->o->deep ?
		    GGUF_OPEN_DATA : 0, mj->o->source, &e) < 0) {
			lint_result_free(res);
			if (in->given[i]) {
				*err = e;
				return -1;
			}
			why[i] = shard_why(in, i, &e);
			mj->ss[i].why = why[i];
			continue;
		}
		res->shard_no = i;
		res->shards = in->n;
		res->model = xstrdup(in->path[0]);
		mj->ss[i].file = &res->file;
		mj->ss[i].dl = &res->diags;
		m->n++;
	}
	return 0;
}

/* The per-file stages of every result, then the model's, under the
 * guard; then the policy. */
static void
run_split(struct model_job *mj)
{
	struct lint_model *m = mj->m;
	struct pipeline_job j;
	size_t k;

	for (k = 0; k < m->n; k++) {
		memset(&j, 0, sizeof j);
		j.o = mj->o;
		j.res = &m->res[k];
		m->res[k].profile = mj->o->profile;
		m->res[k].table = mj->o->table;
		if (guard_call(read_shard, &j) < 0)
			add_shrank(&m->res[k], "the file");
	}
	if (m->n > 0 && guard_call(read_split, mj) < 0)
		add_shrank(&m->res[0], "a file of the model");
	share_forms(mj);
	for (k = 0; k < m->n; k++)
		lint_finish(mj->o, &m->res[k]);
}

int
lint_split(const struct model_input *in, const struct lint_options *o,
    const struct names_db *names, struct lint_model *m,
    struct gl_error *err)
{
	struct model_job mj;
	char **why = xcalloc(in->n, sizeof *why);
	size_t i;
	int rc;

	memset(&mj, 0, sizeof mj);
	mj.o = o;
	mj.names = names;
	mj.m = m;
	/* a name may claim 99999 shards: a local one is counted if it is
	 * there, a remote one asked for only in a model of at most
	 * LINT_REMOTE_SHARDS (a request each) */
	for (i = 0; i < in->n; i++)
		if (in->given[i] || (source_is_remote(in->path[i]) ?
		    in->n <= LINT_REMOTE_SHARDS :
		    access(in->path[i], F_OK) == 0))
			mj.cap++;
	m->res = xcalloc(mj.cap + 1, sizeof *m->res);
	mj.ss = xcalloc(in->n, sizeof *mj.ss);
	mj.base = xcalloc(in->n, sizeof *mj.base);
	strset_init(&mj.owner);
	diag_list_init(&mj.dl, o->cat);
	rc = open_shards(in, &mj, why, err);
	if (rc == 0) {
		mj.sc.shard = mj.ss;
		mj.sc.n = in->n;
		mj.sc.named = true;
		mj.sc.model_dl = m->n > 0 ? &m->res[0].diags : NULL;
		run_split(&mj);
	}
	for (i = 0; i < in->n; i++)
		free(why[i]);
	free(why);
	free(mj.ss);
	free(mj.base);
	free(mj.view.tensors);
	free(mj.forms);
	strset_free(&mj.owner);
	lint_facts_free(&mj.facts);
	names_matcher_free(mj.matcher);
	diag_list_free(&mj.dl);
	return rc;
}
