/*
 * check-meta-impl.h - what check-meta.c (the M family's metadata checks)
 * shares with check-tokenizer.c (the tokenizer's): one file's state, the
 * findings of a key that is missing or of the wrong type, and the
 * tokenizer's check, which check_meta runs. Private to checks/.
 */
#ifndef GGUFLINT_CHECK_META_IMPL_H
#define GGUFLINT_CHECK_META_IMPL_H

#include <stdbool.h>
#include <stdint.h>

#include "checks/checks.h"
#include "facts/names.h"
#include "findings/diag.h"
#include "reader/gguf.h"

/* One file's state. */
struct mt {
	const struct check_ctx *c;
	const struct gguf_file *f;
	struct diag_list *dl;
	enum names_kind kind; /* kind, map: c->facts'; arch: geom's */
	const struct names_map *map;
	const char *arch;
	const struct gguf_kv *tokens; /* a STRING array, or NULL */
};

/* meta_check_type: whether kv is stored as want; if not, M002 into
 * s->dl (once per key: not again for a key already reported). */
bool meta_check_type(struct mt *s, const struct gguf_kv *kv, uint32_t want);

/* meta_missing_key: M001 into s->dl, key (of type) is missing; why ("" or
 * " (a reason)") is appended to the message. */
void meta_missing_key(struct mt *s, const char *key, uint32_t type,
    const char *why);

/* meta_require_key: s's file's key when present and of type; else NULL,
 * with M002 (meta_check_type) when of another type, or M001 when absent
 * and required. */
const struct gguf_kv *meta_require_key(struct mt *s, const char *key,
    uint32_t type, bool required, const char *why);

/* meta_str_in: whether s is one of list's strings (NULL-terminated). */
bool meta_str_in(struct gguf_str s, const char *const list[]);

/*
 * check_tokenizer: the tokenizer of s's file (check-tokenizer.c): its
 * required keys and their types (M001, M002, M007, M013), its arrays
 * against the token list (M005, M006, M008, M009), special token ids
 * (M010), token types (M011, M017) and duplicate tokens (M012), into
 * s->dl; s->tokens is set to the token list, or NULL.
 */
void check_tokenizer(struct mt *s);

#endif
