/*
 * lint-impl.h - what lint.c (a file, companions), lint-plan.c (the
 * runtime and the plan) and lint-split.c (a split model) share of the
 * pipeline: its stages for one model, the checks' passes and the end of a
 * result. Private to the lint layer.
 */
#ifndef GGUFLINT_LINT_IMPL_H
#define GGUFLINT_LINT_IMPL_H

#include "checks/checks.h"
#include "facts/arch.h"
#include "facts/names.h"
#include "findings/catalog.h"
#include "findings/diag.h"
#include "lint.h"
#include "plan/plan.h"
#include "plan/resolve.h"
#include "reader/deep.h"
#include "reader/gguf.h"

/* One file going through the pipeline: what its stages share. */
struct pipeline_job {
	const struct lint_options *o;
	struct lint_result *res;
	const struct names_db *names;  /* the name maps, or NULL: none */
	struct model_facts facts;      /* for the checks; freed after them */
	struct names_matcher *matcher; /* this lint's, for the name maps */
};

/* Which rows of the table a pass runs: all (a file alone), those of each
 * file of a model (per_file), or those of the model as a whole. */
enum check_pass {
	PASS_ALL,
	PASS_FILE,
	PASS_MODEL
};

/* lint_result_init: res empty for name: nothing open (fd -1, not
 * standard input), its diagnostics over cat. */
void lint_result_init(struct lint_result *res, const char *name,
    const struct catalog *cat);

/*
 * lint_read_geometry: stage 2, the geometry of f into *gp (allocated;
 * the result frees it). Its findings (M002-M004) are recorded in dl with
 * a profile only, as the plan's.
 */
void lint_read_geometry(const struct lint_options *o, const struct gguf_file *f,
    struct model_geom **gp, struct diag_list *dl);

/*
 * lint_read_names: stage 2, the file f (geometry g) as the name maps db
 * see it, matched with mm, into mf: its kind and map, whether it is a
 * shard, and for a model each tensor's entry. Free mf with
 * lint_facts_free().
 */
void lint_read_names(const struct names_db *db, struct names_matcher *mm,
    const struct gguf_file *f, const struct model_geom *g,
    struct model_facts *mf);
/* lint_facts_free: release what mf holds; mf is zeroed. */
void lint_facts_free(struct model_facts *mf);

/*
 * lint_probe_runtime: stage 4 with o's runtime: f's (operation, encoding,
 * row length) pairs into res->rt, each probed once on the device; a
 * runtime that does not load is res->rt_error.
 */
void lint_probe_runtime(const struct lint_options *o, const struct gguf_file *f,
    struct lint_result *res);

/*
 * lint_ask_llama: with a runtime holding libllama, the model at path (a
 * regular file; a split model's first shard) loaded by it as a
 * vocabulary, the verdict into res->llama for check_version.
 */
void lint_ask_llama(const struct lint_options *o, const char *path,
    struct lint_result *res);

/*
 * lint_make_plan: stages 5 and 6, with a profile: the weight forms of f
 * (into *forms, allocated) and the memory plan of the model f with
 * geometry g into plan, with what a runtime probe (in res) said of the
 * device; with --measure, planned again with llama.cpp's compute buffers
 * for the model at path (NULL: not measured).
 */
void lint_make_plan(const struct lint_options *o, const struct gguf_file *f,
    const struct model_geom *g, const char *path, struct lint_result *res,
    struct weight_form **forms, struct plan *plan);

/*
 * lint_fill_ctx: what the checks read of file f into ctx (all of it set,
 * the rest zeroed): o's options; with res, the model's analyses res holds
 * (its geometry, the runtime's answers, its plan when planned, its role),
 * else none (the per-file checks of a shard).
 */
void lint_fill_ctx(struct check_ctx *ctx, const struct lint_options *o,
    const struct gguf_file *f, const struct lint_result *res, bool planned);

/* lint_check_all: stage 7, every check of pass whose conditions hold,
 * into dl. */
void lint_check_all(const struct check_ctx *ctx, struct diag_list *dl,
    enum check_pass pass);

/* lint_deep_scan: --deep's scan of f into stats (one per tensor), telling
 * o's progress, if any. */
void lint_deep_scan(const struct gguf_file *f, struct deep_stats *stats,
    const struct lint_options *o);

/*
 * lint_finish: after the checks: the oldest llama.cpp res's file needs
 * (res->min_runtime), the policy of o and the warnings it leaves.
 */
void lint_finish(const struct lint_options *o, struct lint_result *res);

/*
 * lint_split: the pipeline over the split model in (lint-split.c), with o
 * and the name maps names, into m (zeroed by the caller); as lint_input
 * for a split model without companions. Returns 0, or -1 with err for a
 * given shard that cannot be opened.
 */
int lint_split(const struct model_input *in, const struct lint_options *o,
    const struct names_db *names, struct lint_model *m, struct gl_error *err);

#endif
