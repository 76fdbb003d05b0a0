/*
 * checks.h - the registry of checks. A check reads what the earlier stages
 * produced for one file and records diagnostics; it never prints or exits.
 */
#ifndef GGUFLINT_CHECKS_H
#define GGUFLINT_CHECKS_H

#include "facts/arch.h"
#include "reader/deep.h"
#include "findings/diag.h"
#include "reader/gguf.h"
#include "facts/names.h"
#include "facts/role.h"
#include "plan/plan.h"
#include "target/profile.h"

/*
 * The model facts (stage 2) as the name maps see them, computed once per
 * file by lint.c: what the file is, whether it is a shard, and each
 * tensor's role in the architecture's map. A check is given them only for
 * a complete header, and so with the geometry, whose arch is the one the
 * map was chosen by.
 */
struct model_facts {
	enum names_kind kind;		/* see names_classify */
	const struct names_map *map;	/* NULL unless FOREIGN or MODEL */
	int64_t split_no;		/* names_split: 0 of 1 when whole */
	int64_t split_count;
	/* per tensor, only for NAMES_MODEL (else NULL): */
	long *entry;			/* its map entry, or -1: unmapped */
	int64_t *layer;			/* its block index, or -1 */
};
struct declset;

/* The model a companion is checked against: its files (a split model's
 * shards, in order) and geometry; none (n 0, geom NULL) when a header is
 * incomplete. */
struct companion_base {
	const struct gguf_file *const *files;
	size_t n;
	const struct model_geom *geom;
};

/* Everything a check may read. */
struct check_ctx {
	const struct gguf_file *file;
	const struct model_geom *geom;	/* NULL without a complete header */
	const struct profile *profile;
	const struct plan *plan;	/* NULL without a profile or header */
	const struct weight_form *forms;	/* one per tensor, or NULL */
	const struct captable *table;	/* the profile's, probed, or NULL */
	bool strict;
	const struct deep_stats *deep;	/* --deep: one per tensor, or NULL */
	const struct model_facts *facts;	/* NULL without the maps or
						 * a complete header */
	const struct declset *decls;	/* the declarative rules, or NULL */
	const struct rt_case *rt;	/* a runtime's answers for the model's
					 * pairs, or NULL */
	size_t n_rt;
	const struct rt_info *rt_info;	/* what ran them */
	const struct rt_llama *llama;	/* the runtime's vocabulary load,
					 * or NULL */
	const struct rt_measure *measure;	/* --measure's, or NULL */
	enum file_role role;		/* role_of(file) */
	enum companion_kind given;	/* what the user gave it as */
	const struct companion_base *base;	/* a companion's model
						 * (given), or NULL */
	bool as_model;			/* the main model of companions */
};

struct check {
	/* name and family are for a reader of the table (and a debugger):
	 * the pipeline reads only the flags below and run. */
	const char *name;
	char family;		/* the family of its codes, 0: several */
	bool needs_header;	/* run only when the header parsed completely */
	bool needs_plan;	/* run only when there is a plan (ctx->plan) */
	bool per_file;		/* of a split model: run on each shard (its
				 * file alone in ctx), not on the model */
	void (*run)(const struct check_ctx *ctx, struct diag_list *dl);
};

/* The registry: a plain array ending with a NULL run. */
extern const struct check checks[];

/*
 * The checks, each a struct check's run: each reads ctx (which it does not
 * keep) and appends its findings to dl; none fails (an allocation failure
 * exits, as everywhere). Their conditions are in the table of checks.c.
 */

/* check_file_layout: F, the data section and the tensors' offsets. */
void check_file_layout(const struct check_ctx *ctx, struct diag_list *dl);
/* check_plan: P, the plan's verdict; P009 when a file has no tensors. */
void check_plan(const struct check_ctx *ctx, struct diag_list *dl);
/* check_forms: W, weights no verified kernel of ctx->table can feed
 * (nothing without forms or a table). */
void check_forms(const struct check_ctx *ctx, struct diag_list *dl);
/* check_kernels: K, the table's entries the probe did not verify
 * (nothing without ctx->table). */
void check_kernels(const struct check_ctx *ctx, struct diag_list *dl);
/*
 * check_advisory: S006, a llama.cpp build (the profile's runtime_version,
 * or the runtime's own) older than the fix of a published advisory on
 * loading GGUF files (facts/advisory.h); an error when the findings
 * recorded before it show the advisory's pattern. Run last.
 */
void check_advisory(const struct check_ctx *ctx, struct diag_list *dl);
/* check_version: M018-M020, the llama.cpp build a file needs against the
 * profile's runtime_version (nothing for a SKaiNET profile). */
void check_version(const struct check_ctx *ctx, struct diag_list *dl);
/* check_declared: the declarative rules of ctx->decls (none when NULL),
 * over ctx->file: declset_check. */
void check_declared(const struct check_ctx *ctx, struct diag_list *dl);
/* check_deep: D, what --deep found (nothing when ctx->deep is NULL). */
void check_deep(const struct check_ctx *ctx, struct diag_list *dl);
/* check_meta: M, the metadata (nothing when ctx->facts is NULL, or in a
 * shard after the first, which holds no metadata). */
void check_meta(const struct check_ctx *ctx, struct diag_list *dl);
/* check_companion: M023-M032, P010, a companion file (an mmproj, a LoRA,
 * a control vector) by its role or as the user gave it, against its base
 * model when ctx->base is set (facts/role.h). */
void check_companion(const struct check_ctx *ctx, struct diag_list *dl);
/* check_companion_file: ctx's file is a companion (by its role, or as the
 * user gave it), to which the model's name map and keys do not apply. */
bool check_companion_file(const struct check_ctx *ctx);
/* check_names: N, the tensors against the map (none without facts). */
void check_names(const struct check_ctx *ctx, struct diag_list *dl);
/*
 * check_security: S, hazards in the metadata for the programs reading it
 * (on an incomplete header too: in what was parsed).
 */
void check_security(const struct check_ctx *ctx, struct diag_list *dl);

/* One file of a model, for check_split. */
struct split_shard {
	const char *path;		/* given, or derived from a name */
	const struct gguf_file *file;	/* NULL: could not be opened */
	const char *why;		/* then: why not ("is missing", ...) */
	struct diag_list *dl;		/* its findings; NULL when absent */
};

/*
 * A model as its files: n shards in order, shard[i] the one named
 * PREFIX-(i+1)-of-n (named), or a single file (named false, n 1, present).
 * model_dl is where a finding about the model as a whole goes: the first
 * present shard's list.
 */
struct split_ctx {
	const struct split_shard *shard;
	size_t n;
	bool named;
	struct diag_list *model_dl;
};

/*
 * check_split: F040-F048, the split structure of the model sc (every
 * present shard parsed; strings are read from the mappings, so call it
 * under the guard). A single file that says it is not split gets nothing,
 * nor does one named as a shard (it is checked with its model).
 */
void check_split(const struct split_ctx *sc);

/*
 * check_security_cleanup: free the S001 patterns check_security compiles
 * on first use (for a long-running caller, at its end; they are compiled
 * again when needed). No thread may be running check_security.
 */
void check_security_cleanup(void);

#endif
