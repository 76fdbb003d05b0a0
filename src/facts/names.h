/*
 * names.h - architecture knowledge: the name maps of rules/arch/ (one
 * YAML file per architecture family). names-expr.c holds the expression
 * language, names-map.c reads one map document, names-db.c loads them all
 * (and keeps the process-wide copy), names.c applies them to a file.
 *
 * A name map says, for one architecture and its aliases, which metadata keys
 * llama.cpp requires (and in which type), and which tensors it loads: each a
 * PCRE2 pattern over the tensor name, with the expected shape written as
 * expressions over the model's geometry (n_embd, n_head * head_k, ...), the
 * condition under which it is required, and the tensors that replace it.
 * A per-layer tensor's pattern has a named group (?<layer>...) for the block
 * index. The maps are data: they are loaded once per run (built in, or
 * overridden from the data directory), every pattern is compiled once (a
 * literal one, as 494 of the 501 built in are, is kept as its bytes and
 * compared without PCRE2: a quarter of a small model's lint went to
 * compiling them), and a mistake in a map is an operational error at
 * FILE:LINE:COL.
 *
 * The expression language: integers, names, parentheses, + - * / %,
 * == != < <= > >=, && || !, and a ?? b (a when a is known, else b). A name
 * is a built-in geometry value (see nx_builtins in names-expr.c) or, failing
 * that, the integer metadata key ARCH.NAME (general.* and tokenizer.* are
 * absolute). A value that cannot be known (a key the file lacks, a division
 * by zero) is unknown, and so is anything computed from it: an unknown
 * dimension is not checked and an unknown condition does not require.
 */
#ifndef GGUFLINT_NAMES_H
#define GGUFLINT_NAMES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "facts/arch.h"
#include "base/error.h"
#include "reader/gguf.h"

struct names_expr;

/* A key's type "any" in a map: llama.cpp takes a scalar or an array
 * (get_key_or_arr: qwen2vl's rope.dimension_sections); only whether it
 * is there is checked. */
#define NAMES_KEY_ANY 0xffffffffu

/* A required metadata key: <arch>.<key>, stored as type. */
struct names_key {
	char *key;			/* suffix after "<arch>." */
	uint32_t type;			/* enum gguf_vtype, or NAMES_KEY_ANY */
	struct names_expr *when;	/* NULL: always required */
	char *when_text;
};

#define NAMES_MAX_DIMS 4

/* A tensor the architecture loads. */
struct names_tensor {
	char *pattern;			/* as written in the map */
	char *display;			/* "blk.N.attn_q.weight" (messages) */
	char *id;			/* "attn_q.weight" (unless), or NULL */
	void *re;			/* the compiled pcre2_code, or NULL
					 * for a literal one (lit) */
	char *lit[2];			/* a pattern that is literal (apart
					 * from a (?<layer>\d+) group): the
					 * bytes before and after the digits
					 * (lit[1] "" without the group),
					 * matched without PCRE2 */
	size_t lit_len[2];
	bool per_layer;			/* has a (?<layer>...) group */
	uint32_t layer_group;		/* its number */
	bool optional;
	struct names_expr *when;	/* required when true; NULL: always */
	char *when_text;
	size_t n_dims;			/* 0: shape not checked */
	struct names_expr *shape[NAMES_MAX_DIMS];
	char *shape_text[NAMES_MAX_DIMS];
	size_t *unless;			/* indices of tensors that replace it */
	size_t n_unless;
};

struct names_map {
	char *origin;			/* file name for messages */
	char **archs;			/* general.architecture values */
	size_t n_archs;
	struct names_key *keys;
	size_t n_keys;
	struct names_tensor *tensors;
	size_t n_tensors;
	uint32_t max_group;		/* the largest capture group number
					 * of its patterns (names_matcher) */
	bool read;			/* keys and tensors read (not only
					 * the architectures) */
	bool mtp_optional;		/* mtp_layers: optional: the last
					 * nextn_predict_layers blocks may
					 * lack any tensor where the file
					 * has no MTP head (its first one's
					 * nextn.eh_proj), as llama.cpp
					 * loads them then */
};

struct names_lazy;			/* a built-in map not read yet */

struct names_db {
	struct names_map *maps;
	struct names_lazy *lazy;	/* per map, or NULL: all read */
	size_t n;
};

/* ---- one map document (names-map.c) ---- */

/*
 * names_map_parse: parse one map document (text of length len, named origin
 * in messages) into m, compiling its patterns. Any architecture names are
 * accepted (see names_db_check_archs). Returns 0, or -1 with err at
 * FILE:LINE:COL (for a bad pattern, with PCRE2's message and offset).
 * Release m with names_map_free() in both cases.
 */
int names_map_parse(struct names_map *m, const char *origin, const char *text,
    size_t len, struct gl_error *err);

/*
 * names_map_parse_archs: names_map_parse for the architectures alone: the
 * document's fields are checked (tensors given, keys and tensors lists),
 * their items not read (m->read false, no keys, no tensors).
 */
int names_map_parse_archs(struct names_map *m, const char *origin,
    const char *text, size_t len, struct gl_error *err);

/* names_map_free: release all m owns (patterns, trees, texts); m is zeroed. */
void names_map_free(struct names_map *m);

/* ---- the database (names-db.c) ---- */

/*
 * names_db_load: load every map file rules/arch/NAME.yaml built in
 * (Makefile.am's arch_files, in its order; each may be overridden from the
 * data directory) into db (zeroed first). An architecture named by two
 * maps is an error. A map from the data directory is read whole here, so
 * that its errors are the load's; of a built-in one only the architectures
 * are, the rest when names_db_find() first returns it (the tests read
 * every built-in map whole: names_db_read_all). Returns 0, or -1 with err
 * set: datafile_load's error, or a map's (GL_ERR_PARSE), a second map of
 * one architecture too. Release db with names_db_free() in both cases.
 */
int names_db_load(struct names_db *db, struct gl_error *err);

/*
 * names_db_read_all: read each map of db not read yet. Returns 0, or -1
 * with err the first map's error (GL_ERR_PARSE); that map then stays
 * unread, and names_db_find() exits 2 with the same error if asked for it.
 */
int names_db_read_all(const struct names_db *db, struct gl_error *err);

/*
 * names_db_check_archs: whether db agrees with arch.h's table, the one list
 * of architectures: each name a map gives is in it and marked mapped, and
 * each entry marked mapped is named by a map. Returns 0, or -1 with err
 * naming the first drift: a map naming what the table does not map
 * (GL_ERR_PARSE, at the map), or a mapped entry no map names (of no
 * particular kind: no file says anything wrong). The tests run it on the
 * built-in maps; a load does not (a map in the data directory may name
 * what it likes).
 */
int names_db_check_archs(const struct names_db *db, struct gl_error *err);

/* names_db_free: release the maps; db is zeroed. */
void names_db_free(struct names_db *db);

/*
 * names_db_get: the process-wide database, loaded on the first call (under
 * a lock: any thread may call it) and kept until names_db_cleanup(), then
 * only read: threads may use it at once, each matching with a matcher of
 * its own. Returns 0 and *out (owned by this module), or -1 with *err a
 * copy of the load's error (every call, once a load failed, until
 * names_db_cleanup()); err may be NULL (error.h).
 */
int names_db_get(const struct names_db **out, struct gl_error *err);

/*
 * names_db_cleanup: free the process-wide database (for a long-running
 * caller, at its end); the next names_db_get() loads it again. No thread
 * may be using a database names_db_get() returned.
 */
void names_db_cleanup(void);

/*
 * names_db_find: the map of architecture arch (borrowed from db), read
 * whole (once, under a lock: any thread may ask), or NULL. A built-in map
 * that does not read is a broken build: gguflint prints its error and
 * exits 2.
 */
const struct names_map *names_db_find(const struct names_db *db,
    const char *arch);

/* ---- applying the maps to a file (names.c) ---- */

/*
 * struct names_matcher: the scratch space of matching (PCRE2's match data,
 * grown to the patterns of the maps it matches). A map is only read while
 * names are matched, so several threads may match with one database (the
 * process-wide one) at once, each with its own matcher: a lint makes one
 * per model.
 */
struct names_matcher;

/*
 * names_matcher_new: a matcher, for any map. The caller's, to free with
 * names_matcher_free(); running out of memory exits, as the allocators of
 * base/util.h do.
 */
struct names_matcher *names_matcher_new(void);

/* names_matcher_free: release mm (NULL is nothing). */
void names_matcher_free(struct names_matcher *mm);

/*
 * names_match: which tensor of map m the name is: its index and, for a
 * per-layer tensor, the block index in *layer (else -1). Returns -1 when no
 * pattern matches (an index with leading zeros does not match: llama.cpp
 * would never look for it); *layer is then unspecified. A layer above
 * INT64_MAX reads as INT64_MAX. It matches in mm, which one thread at a
 * time may use.
 */
long names_match(const struct names_map *m, struct names_matcher *mm,
    struct gguf_str name, int64_t *layer);

/* What a file is, as far as the name and metadata rules are concerned. */
enum names_kind {
	NAMES_NO_TENSORS = 0,	/* vocabulary-only or metadata-only */
	NAMES_NOT_MODEL,	/* general.type says adapter, imatrix, ... */
	NAMES_NO_ARCH,		/* no usable general.architecture */
	NAMES_NO_MAP,		/* an architecture gguflint has no map for */
	NAMES_FOREIGN,		/* none of its tensors, none of its hparams */
	NAMES_MODEL		/* a model of a mapped architecture */
};

/*
 * names_classify: the kind of f, and its map (borrowed from db; NULL
 * unless the kind is NAMES_FOREIGN or NAMES_MODEL). arch is f's usable
 * general.architecture as the geometry read it (model_geom.arch), "" when
 * it has none. Matches in mm (a matcher for db; see names_match).
 */
enum names_kind names_classify(const struct names_db *db,
    struct names_matcher *mm, const struct gguf_file *f, const char *arch,
    const struct names_map **map);

/*
 * names_split: the shard number (split.no, from 0) and count (split.count)
 * of a file written by gguf-split; 0 of 1 for a whole file. A shard holds
 * only some of the tensors, and only the first holds the metadata.
 */
void names_split(const struct gguf_file *f, int64_t *no, int64_t *count);

/* ---- expressions (names-expr.c) ---- */

/* The context an expression is evaluated in. */
struct names_env {
	const struct gguf_file *file;
	const struct model_geom *geom;
	int64_t layer;			/* the block index, or -1 */
	int64_t n_vocab;		/* -1: unknown */
};

struct names_val {
	int64_t v;
	bool known;
};

/*
 * names_expr_parse: compile the expression text (NUL-terminated; not
 * kept). Returns the tree (the caller's: free it with names_expr_free()),
 * or NULL with *what (static text) saying what was expected at byte offset
 * *at, and nothing to free.
 */
struct names_expr *names_expr_parse(const char *text, const char **what,
    size_t *at);

/* names_expr_free: free the tree e (NULL is nothing). */
void names_expr_free(struct names_expr *e);

/*
 * names_eval: the value of e (not NULL) in env; unknown (known false) when
 * a name it needs is, or an operation overflows or divides by zero (see
 * above). Allocates nothing.
 */
struct names_val names_eval(const struct names_expr *e,
    const struct names_env *env);

#endif
