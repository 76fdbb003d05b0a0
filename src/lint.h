/*
 * lint.h - the pipeline for one model (a file, or the shards of a split
 * model): read the headers and the model facts, make the weight forms and
 * the plan, apply the checks, filter and sort the diagnostics. The result
 * is data for a reporter; nothing here prints.
 */
#ifndef GGUFLINT_LINT_H
#define GGUFLINT_LINT_H

#include "facts/arch.h"
#include "checks/checks.h"
#include "facts/role.h"
#include "reader/deep.h"
#include "findings/diag.h"
#include "reader/gguf.h"
#include "plan/plan.h"
#include "findings/policy.h"
#include "runtime/runtime.h"
#include "target/profile.h"
#include "plan/resolve.h"

struct declset;

/* What --deep's scan tells as it reads: struct deep_progress of deep.h,
 * for the session, which does not see the reader. */
struct lint_progress {
	void (*fn)(void *arg, uint64_t done, uint64_t total);
	void *arg;
};

/* A companion of the model (--mmproj, --lora, --control-vector, --draft):
 * a file llama.cpp loads beside it. */
struct lint_companion {
	enum companion_kind kind;
	const char *path;
};

struct lint_options {
	const struct catalog *cat;
	const struct declset *decls;	/* rule files' matchers (their
					 * entries in cat), or NULL */
	const struct policy *policy;	/* NULL: keep every finding */
	const struct profile *profile;	/* NULL: no plan */
	const struct captable *table;	/* the profile's, probed */
	bool strict;			/* the profile's, or --strict */
	bool deep;			/* --deep: read the tensor data */
	bool deep_full;			/* and its statistics and SHA-256 */
	unsigned threads;		/* for --deep; 0: one per CPU */
	const struct lint_progress *progress;	/* told as --deep reads,
					 * or NULL */
	const struct rt_request *runtime;	/* probe the model's
					 * (operation, encoding) pairs on it,
					 * or NULL */
	const struct source_opts *source;	/* how remote files are
					 * read, or NULL: the defaults */
	struct plan_request request;
	/* lint_input: the model's companions, each linted as a file of its
	 * own after the model and checked against it (its result follows
	 * the model's); none: NULL, 0 */
	const struct lint_companion *companions;
	size_t n_companions;
	/* set by lint_input for a companion's lint: what it is given as,
	 * and its model (NONE, NULL otherwise) */
	enum companion_kind given;
	const struct companion_base *base;
};

/*
 * The oldest llama.cpp a file needs, as far as gguflint's data says
 * (facts/llversions.h's llv_min): found by the lint for a llama.cpp
 * profile and a complete header, printed by the reporters.
 */
enum lint_min_state {
	LINT_MIN_NONE = 0,	/* none found: no llama.cpp profile, no
				 * complete header, no data, or the file
				 * names nothing the data dates */
	LINT_MIN_DATED,		/* build and date: the deciding name's */
	LINT_MIN_UNDATED,	/* a name known to the release, not dated:
				 * date is the release's */
	LINT_MIN_UNKNOWN	/* a name the data does not know */
};

struct lint_min_runtime {
	enum lint_min_state state;
	uint32_t build;		/* DATED: bNNNN's number */
	char date[11];		/* DATED, UNDATED: YYYY-MM-DD; else "" */
	char *release;		/* the release whose names the data lists
				 * (owned), or NULL with NONE */
	char because[160];	/* the name that decides it, as
				 * llv_describe() says it:
				 * "architecture 'qwen3next'" */
};

struct lint_result {
	char *path;
	/* a shard of a split model (lint_input): its place, from 0, among
	 * shards (0 of 1 for a file alone), and the model's name, the path
	 * of its first shard (NULL for a file alone) */
	size_t shard_no, shards;
	char *model;
	enum file_role role;		/* role_of(file), ROLE_MODEL until the
					 * header parsed */
	enum companion_kind given;	/* a companion: what it was given
					 * as (its model: companion_of) */
	char *companion_of;		/* the model's path, or NULL */
	struct gguf_file file;		/* kept open for reporters and --dump */
	struct model_geom *geom;	/* NULL when the header did not parse
					 * completely; may stay set after
					 * F032 (then file.header_complete
					 * and plan.valid are false) */
	struct plan plan;		/* plan.valid false when none */
	struct weight_form *forms;	/* one per tensor, or NULL */
	struct deep_stats *deep;	/* --deep: one per tensor, or NULL */
	const struct profile *profile;
	const struct captable *table;
	struct rt_case *rt;		/* o->runtime: the model's pairs */
	size_t n_rt;
	struct rt_info rt_info;
	char *rt_error;			/* the runtime did not load: an
					 * operational error, or NULL */
	struct rt_llama llama;		/* its libllama's vocabulary load
					 * (a split model's: the first's) */
	struct rt_measure measure;	/* --measure: its compute buffers */
	struct lint_min_runtime min_runtime;	/* the oldest llama.cpp the
					 * file needs */
	struct diag_list diags;		/* as the policy leaves them, sorted */
	size_t warnings;		/* counted before --quiet */
};

/*
 * lint_file: the pipeline over the file at path, with o, into res (zeroed
 * first; it owns a copy of path and the open file). res keeps o's
 * catalogue, profile and table (its diagnostics and forms point into
 * them): they must outlive res; o's policy and rule set are used only
 * during the call. Returns 0 (findings, if any, are in res->diags), or -1
 * with err set when the file cannot be read at all (gguf_open's error, or
 * gguf_read_error's: a read failed during the parse) or the name maps do
 * not load (names_db_get's). Release res with
 * lint_result_free() in both cases. Several threads may lint at once
 * (lint_file or lint_buffer), each into its own res, with the same o: a
 * lint only reads o and what it points to, fills the process-wide caches
 * under their locks and matches names with a matcher of its own.
 */
int lint_file(const char *path, const struct lint_options *o,
    struct lint_result *res, struct gl_error *err);

/*
 * lint_buffer: the same for size bytes at data, named name in messages
 * (fuzzing, tests). data is not copied: it must outlive res. It cannot
 * fail; when the name maps do not load, the M and N checks are skipped.
 * Release res with lint_result_free().
 */
void lint_buffer(const char *name, const void *data, uint64_t size,
    const struct lint_options *o, struct lint_result *res);

/* lint_result_free: release all res owns (the file closed); res is zeroed. */
void lint_result_free(struct lint_result *res);

/*
 * A model as the session found it: one file (split false, n 1), or the n
 * shards of a split model, path[i] the file named PREFIX-%05d-of-%05d.gguf
 * for shard i + 1 of n, given (named by the user, or found by a directory
 * walk) or derived from a given one's name (it may not exist).
 */
struct model_input {
	char **path;
	bool *given;
	size_t n;
	bool split;
};

/* The lint of a model: one result per file present, in shard order. */
struct lint_model {
	struct lint_result *res;
	size_t n;
};

/*
 * lint_input: the pipeline over the model in, with o, into m (zeroed
 * first; it owns its results). A file alone is lint_file's. For a split
 * model each shard present is read and checked as a file (the F, S and D
 * families, at its own path), the split structure (F040-F048) is checked
 * across the shards, and the rest (the plan, the forms, the M, N, K, W and
 * declarative checks) runs once over the whole model: the first shard's
 * metadata and every shard's tensors. The plan and the geometry are the
 * first result's (only); each result has the forms of its own tensors; a
 * finding about a tensor is reported at the shard holding it, any other at
 * the first shard present. A derived shard that cannot be opened is a
 * finding (F040); a given one that cannot be opened is an error: returns
 * -1 with err set (as lint_file), else 0. Release m with
 * lint_model_free() in both cases. o as for lint_file.
 */
int lint_input(const struct model_input *in, const struct lint_options *o,
    struct lint_model *m, struct gl_error *err);

/* lint_model_free: release every result of m; m is zeroed. */
void lint_model_free(struct lint_model *m);

/*
 * lint_cleanup: free the process-wide caches the library fills on first
 * use (the name maps, the S001 patterns, the lists of built-in names,
 * libcurl's global state), for a long-running caller at its end, or a
 * test or fuzzer; they are built again if needed. Call it when no thread
 * is linting and no pointer they handed out is in use.
 */
void lint_cleanup(void);

#endif
