/*
 * llversions.h - which llama.cpp build first knew each architecture name,
 * pre-tokenizer, ggml type and projector type (the data file
 * rules/runtime/llama.cpp.yaml, written by tools/gen-runtime-versions from
 * llama.cpp's history), and what one file needs of them: the oldest
 * llama.cpp build that knows everything its header names.
 */
#ifndef GGUFLINT_LLVERSIONS_H
#define GGUFLINT_LLVERSIONS_H

#include <stddef.h>
#include <stdint.h>

#include "base/error.h"
#include "reader/gguf.h"

/* What a row names; the order of the data file's sections. */
enum llv_kind {
	LLV_ARCH = 0, /* general.architecture */
	LLV_PRE,      /* tokenizer.ggml.pre (of a BPE vocabulary) */
	LLV_TYPE,     /* a tensor's ggml type id */
	LLV_PROJ,     /* clip.projector_type and its kin */
	LLV_NKINDS
};

/* One row: a name and the first build that knew it (0: not dated). */
struct llv_row {
	char *name;
	uint32_t id;	/* LLV_TYPE: the type id */
	uint32_t build; /* bNNNN's number; 0: not dated */
	char date[11];	/* YYYY-MM-DD, or "" */
};

struct llv_db {
	struct llv_row *rows[LLV_NKINDS];
	size_t n[LLV_NKINDS];
	char *release; /* the release whose names the data lists */
	char release_date[11];
};

/*
 * llv_db_parse: read one data document (text of len bytes, named origin in
 * messages) into db. Returns 0 (free it with llv_db_free()), or -1 with err
 * (GL_ERR_PARSE, file:line:col and what was expected) and nothing to free.
 */
int llv_db_parse(struct llv_db *db, const char *origin, const char *text,
    size_t len, struct gl_error *err);
/* llv_db_free: free what db owns; db is left zeroed. */
void llv_db_free(struct llv_db *db);

/*
 * llv_db_get: the process-wide table, loaded from the data file
 * "rules/runtime/llama.cpp.yaml" (datafile_load) on the first call, under
 * a lock. Returns 0 with *out (owned by this module, valid until
 * llv_db_cleanup()), or -1 with err: the load's error, kept and returned
 * again on later calls.
 */
int llv_db_get(const struct llv_db **out, struct gl_error *err);
/* llv_db_cleanup: free the process-wide table (no use of it may remain). */
void llv_db_cleanup(void);

/* llv_kind_name: "architecture", "pre-tokenizer", "ggml type",
 * "projector type" (static). */
const char *llv_kind_name(enum llv_kind k);

/* llv_find: the row of kind k named name (len bytes, exactly), or NULL;
 * llv_find_type: the LLV_TYPE row of type id, or NULL. Borrowed from db. */
const struct llv_row *llv_find(const struct llv_db *db, enum llv_kind k,
    const char *name, size_t len);
const struct llv_row *llv_find_type(const struct llv_db *db, uint32_t id);

/* One thing a file names that a runtime must know. */
struct llv_item {
	enum llv_kind kind;
	struct gguf_str name;	   /* from the file (a type: the name
					 * of its first tensor) */
	uint32_t type_id;	   /* LLV_TYPE */
	uint64_t offset;	   /* of its key or first tensor info */
	const struct gguf_kv *kv;  /* its key; NULL for a type */
	const struct llv_row *row; /* NULL: the data does not know it */
};

#define LLV_MAX_ITEMS 96

/*
 * llv_items: what f's header names, at most max (LLV_MAX_ITEMS is enough)
 * items into out: its architecture, its pre-tokenizer when the vocabulary
 * is BPE (tokenizer.ggml.model gpt2, hybriddna or whitespace), its
 * projector types, and each distinct tensor type the data lists (a type id
 * unknown to it is the reader's finding, not an item). Returns the count.
 * The items borrow from f and db.
 */
size_t llv_items(const struct gguf_file *f, const struct llv_db *db,
    struct llv_item *out, size_t max);

/*
 * llv_newest: of items[0 .. n), the known item with the newest dated row
 * (the one that decides the oldest build able to load the file), or NULL
 * when no item is dated.
 */
const struct llv_item *llv_newest(const struct llv_item *items, size_t n);

/* The oldest llama.cpp a file's items need, as far as the data says. */
enum llv_min_state {
	LLV_MIN_NONE = 0, /* the file names nothing the data dates */
	LLV_MIN_DATED,	  /* build: the newest item's */
	LLV_MIN_UNDATED,  /* an item known to the release, not dated */
	LLV_MIN_UNKNOWN	  /* an item the data does not know */
};

struct llv_min {
	enum llv_min_state state;
	const struct llv_item *item; /* what decides it (NULL: NONE) */
	uint32_t build;		     /* DATED */
	const char *date;	     /* DATED: the row's; UNDATED: the
					 * release's; else NULL */
};

/* llv_min_of: the oldest build items[0 .. n) need: an unknown item over
 * an undated one over the newest dated one. Borrows from items and db. */
struct llv_min llv_min_of(const struct llv_db *db, const struct llv_item *items,
    size_t n);

/* llv_describe: "architecture 'qwen3next'" or "ggml type 39 (mxfp4)"
 * into buf (NUL-terminated, truncated to size, "..." when the name is);
 * in the quoted name, a character outside printable ASCII is <U+XXXX>
 * ("llama<U+200B>") and a byte that is not UTF-8 <0xHH>. Returns buf. */
char *llv_describe(const struct llv_item *it, char *buf, size_t size);

#endif
