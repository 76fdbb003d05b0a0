/*
 * check-tokenizer.c - M family, the tokenizer (check_tokenizer, run by
 * check_meta of check-meta.c through check-meta-impl.h): its required keys
 * and their types, its internal consistency (array lengths, element
 * types, the vocabulary against token_embd, special token ids, token
 * types, byte tokens, duplicates).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/strset.h"
#include "base/util.h"
#include "checks/check-meta-impl.h"
#include "reader/gguf.h"

#define TOKEN_TYPE_MAX 6	/* LLAMA_TOKEN_TYPE_BYTE */

/* ---- the tokenizer ----------------------------------------------------- */

/* The tokenizer models llama.cpp v0.5.0 knows (llama_vocab::load). */
static const char *const tokenizer_models[] = {
	"no_vocab", "none", "llama", "bert", "gpt2", "hybriddna", "whitespace",
	"t5", "rwkv", "test", "plamo2", "gemma4", NULL
};

/* The tokenizer models whose merges llama.cpp v0.5.0 reads (and checks). */
static const char *const bpe_models[] = {
	"gpt2", "hybriddna", "whitespace", "gemma4", NULL
};

/* Whether llama.cpp reads key (a vocab_array) of s's tokenizer. */
static bool
vocab_array_read(const struct mt *s, const char *key)
{
	const struct gguf_kv *m;

	if (strcmp(key, "tokenizer.ggml.merges") != 0)
		return true;
	m = gguf_find_kv(s->f, "tokenizer.ggml.model");
	return m == NULL || m->type != GGUF_STRING ||
	    meta_str_in(m->val.v.s, bpe_models);
}

/* The other element type llama.cpp accepts for key, or UINT32_MAX. */
static uint32_t
vocab_array_alt(const char *key)
{
	if (strcmp(key, "tokenizer.ggml.scores") == 0)
		return GGUF_INT32;	/* read as whole numbers */
	if (strcmp(key, "tokenizer.ggml.precompiled_charsmap") == 0)
		return GGUF_INT8;	/* bytes either way */
	return UINT32_MAX;
}

/*
 * An array of elem (M007 when it is not); NULL when absent or wrong.
 * llama.cpp v0.5.0 checks the type of each tokenizer array and refuses
 * the file on another; its scores may be INT32[] too (read as whole
 * numbers), which the spec does not name, and its precompiled charsmap
 * INT8[] as well as UINT8[]: accepted as llama.cpp does. Merges it reads
 * for the BPE tokenizers only; elsewhere a wrong type breaks the spec
 * alone.
 */
static const struct gguf_kv *
vocab_array(struct mt *s, const char *key, uint32_t elem, bool *present)
{
	const struct gguf_kv *kv = gguf_find_kv(s->f, key);
	uint32_t alt = vocab_array_alt(key);
	char also[32] = "";
	bool read;

	*present = kv != NULL;
	if (kv == NULL)
		return NULL;
	if (kv->type == GGUF_ARRAY && (kv->elem_type == elem ||
	    kv->elem_type == alt))
		return kv;
	if (alt != UINT32_MAX)
		snprintf(also, sizeof also, " (or %s[])", gguf_vtype_name(alt));
	read = vocab_array_read(s, key);
	diag_note(diag_add(s->dl, "M007", kv->offset, SUBJECT_KEY, kv->key.p,
	    kv->key.n, "stored as %s%s%s; %s %s[]%s%s", kv->type == GGUF_ARRAY ?
	    "an array of " : "", gguf_vtype_name(kv->type == GGUF_ARRAY ?
	    kv->elem_type : kv->type), kv->type == GGUF_ARRAY ? "" :
	    " (not an array)", read ? "llama.cpp requires" : "the GGUF spec "
	    "requires", gguf_vtype_name(elem), also,
	    read ? " and refuses the file" : ""), read ? "llama.cpp says "
	    "\"invalid gguf type for %s\"" : "llama.cpp reads %s for BPE "
	    "tokenizers only", key);
	return NULL;
}

/*
 * M033: a t5 charsmap (kv: UINT8[] or INT8[], or NULL) whose leading
 * 32-bit size (little-endian whatever the file's order: llama.cpp reads
 * the blob as SentencePiece wrote it) leaves no room for the strings
 * after the trie, as llama.cpp v0.5.0 checks.
 */
static void
check_charsmap(struct mt *s, const struct gguf_kv *kv)
{
	const uint8_t *p;
	uint64_t blob;

	if (kv == NULL)
		return;
	if (kv->count < 4) {
		diag_note(diag_add(s->dl, "M033", kv->offset, SUBJECT_KEY,
		    kv->key.p, kv->key.n, "%" PRIu64 " bytes: less than its "
		    "4-byte size", kv->count), "llama.cpp says "
		    "\"precompiled_charsmap too small for xcda_blob_size "
		    "header!\"");
		return;
	}
	p = s->f->map + kv->arr_offset;
	blob = (uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16 |
	    (uint64_t)p[3] << 24;
	if (blob + 4 < kv->count)
		return;
	diag_note(diag_add(s->dl, "M033", kv->offset, SUBJECT_KEY, kv->key.p,
	    kv->key.n, "its trie is %" PRIu64 " bytes; %" PRIu64 " follow "
	    "its size: no room for its strings", blob, kv->count - 4),
	    "llama.cpp says \"Index out of array bounds in precompiled "
	    "charsmap!\"");
}

static void
check_tokenizer_keys(struct mt *s)
{
	const struct gguf_kv *model, *pre;
	struct gguf_str ms = { "", 0 };
	bool present;

	model = meta_require_key(s, "tokenizer.ggml.model", GGUF_STRING, true,
	    "");
	pre = meta_require_key(s, "tokenizer.ggml.pre", GGUF_STRING, false, "");
	if (model != NULL) {
		ms = model->val.v.s;
		if (!meta_str_in(ms, tokenizer_models))
			diag_add(s->dl, "M013", model->offset, SUBJECT_KEY,
			    model->key.p, model->key.n, "tokenizer model '%.*s'"
			    " is unknown to llama.cpp, which refuses the file",
			    (int)(ms.n > 64 ? 64 : ms.n), ms.p);
	}
	s->tokens = vocab_array(s, "tokenizer.ggml.tokens", GGUF_STRING,
	    &present);
	if (!present && model != NULL && !gguf_str_eq(ms, "no_vocab") &&
	    !gguf_str_eq(ms, "none"))
		meta_missing_key(s, "tokenizer.ggml.tokens", GGUF_ARRAY, "");
	vocab_array(s, "tokenizer.ggml.merges", GGUF_STRING, &present);
	if (!present && model != NULL && meta_str_in(ms, bpe_models) &&
	    (gguf_str_eq(ms, "gemma4") || pre == NULL ||
	    !gguf_str_eq(pre->val.v.s, "kimi-k2")))
		meta_missing_key(s, "tokenizer.ggml.merges", GGUF_ARRAY, " (a "
		    "BPE tokenizer needs its merges)");
	/* read by every tokenizer (suppress_tokens), by t5's (the
	 * charsmap); a no_vocab model is not read past its name */
	if (model == NULL || (!gguf_str_eq(ms, "no_vocab") &&
	    !gguf_str_eq(ms, "none")))
		vocab_array(s, "tokenizer.ggml.suppress_tokens", GGUF_INT32,
		    &present);
	if (model != NULL && gguf_str_eq(ms, "t5"))
		check_charsmap(s, vocab_array(s,
		    "tokenizer.ggml.precompiled_charsmap", GGUF_UINT8,
		    &present));
}

/* scores and token_type: element type, then length against the tokens. */
static const struct gguf_kv *
check_parallel(struct mt *s, const char *key, uint32_t elem)
{
	const struct gguf_kv *kv;
	uint64_t n = s->tokens ? s->tokens->count : 0;
	bool present;

	if ((kv = vocab_array(s, key, elem, &present)) == NULL ||
	    s->tokens == NULL)
		return kv;
	if (kv->count < n)
		diag_note(diag_add(s->dl, "M005", kv->offset, SUBJECT_KEY,
		    kv->key.p, kv->key.n, "%" PRIu64 " entries for %" PRIu64
		    " tokens", kv->count, n), "llama.cpp reads one per token, "
		    "past the end of the array");
	else if (kv->count > n)
		diag_note(diag_add(s->dl, "M006", kv->offset, SUBJECT_KEY,
		    kv->key.p, kv->key.n, "%" PRIu64 " entries for %" PRIu64
		    " tokens", kv->count, n), "the converter wrote a different "
		    "vocabulary than the token list");
	return kv;
}

/* A byte token's text as llama.cpp decodes it: "<0x" HEX HEX ">". */
static bool
is_byte_text(struct gguf_str t)
{
	static const char hex[] = "0123456789abcdefABCDEF";

	return t.n == 6 && memcmp(t.p, "<0x", 3) == 0 && t.p[5] == '>' &&
	    t.p[3] != '\0' && strchr(hex, t.p[3]) != NULL &&
	    t.p[4] != '\0' && strchr(hex, t.p[4]) != NULL;
}

/* M017: the byte tokens (type 6) whose text is not <0xHH>. */
static void
check_byte_tokens(struct mt *s, const struct gguf_kv *types)
{
	const uint8_t *p = s->f->map + types->arr_offset; /* INT32[count] */
	bool swap = gguf_swapped(s->f), wpm;
	struct gguf_arr_iter it;
	struct gguf_str tok, first = { NULL, 0 };
	uint64_t i, bad = 0, at = 0;
	char model[16];
	uint32_t w;

	wpm = gguf_find_name(s->f, "tokenizer.ggml.model", model,
	    sizeof model) && strcmp(model, "bert") == 0;
	gguf_arr_iter_init(&it, s->f, s->tokens);
	for (i = 0; i < types->count && gguf_arr_next_str(&it, &tok);
	    i++, p += 4) {
		memcpy(&w, p, 4);
		if ((swap ? __builtin_bswap32(w) : w) != TOKEN_TYPE_MAX ||
		    (!wpm && is_byte_text(tok)))
			continue;
		if (bad++ == 0) {
			at = i;
			first = tok;
		}
	}
	if (bad == 0)
		return;
	diag_note(diag_add(s->dl, "M017", types->offset, SUBJECT_KEY,
	    types->key.p, types->key.n, "%" PRIu64 " byte token%s (type 6) "
	    "%s (the first: token %" PRIu64 ", \"%.*s\")", bad, bad == 1 ?
	    "" : "s", wpm ? "in a WordPiece vocabulary" : "not written "
	    "<0xHH>", at, (int)(first.n > 32 ? 32 : first.n), first.p), "%s",
	    wpm ? "llama.cpp aborts on the first" : first.n < 3 ? "llama.cpp "
	    "fails to load the vocabulary" : "llama.cpp decodes the wrong "
	    "byte from it");
}

static void
check_token_types(struct mt *s, const struct gguf_kv *kv)
{
	const uint8_t *p = s->f->map + kv->arr_offset;	/* INT32[count] */
	bool swap = gguf_swapped(s->f);
	uint64_t i, bad = 0, first = 0;
	int32_t v, first_v = 0;
	uint32_t w;

	for (i = 0; i < kv->count; i++, p += 4) {
		memcpy(&w, p, 4);
		v = (int32_t)(swap ? __builtin_bswap32(w) : w);
		if (v >= 0 && v <= TOKEN_TYPE_MAX)
			continue;
		if (bad++ == 0) {
			first = i;
			first_v = v;
		}
	}
	if (bad > 0)
		diag_note(diag_add(s->dl, "M011", kv->offset, SUBJECT_KEY,
		    kv->key.p, kv->key.n, "%" PRIu64 " token type%s outside "
		    "0..%d (the first: token %" PRIu64 " has type %" PRId32 ")",
		    bad, bad == 1 ? "" : "s", TOKEN_TYPE_MAX, first, first_v),
		    "llama.cpp gives such tokens no meaningful attributes");
}

/* token_embd rows and <arch>.vocab_size against the token count. */
static void
check_vocab_size(struct mt *s)
{
	const struct gguf_file *f = s->f;
	uint64_t n = s->tokens->count;
	char key[160];
	int64_t v;
	size_t i;

	for (i = 0; i < f->tensors_n; i++) {
		const struct gguf_tensor *t = &f->tensors[i];

		if (gguf_str_eq(t->name, "token_embd.weight") && t->n_dims >= 2
		    && (uint64_t)t->ne[1] != n)
			diag_note(diag_add(s->dl, "M008", t->offset_info,
			    SUBJECT_TENSOR, t->name.p, t->name.n, "%" PRId64
			    " rows for a vocabulary of %" PRIu64 " tokens: "
			    "llama.cpp refuses the file", t->ne[1], n),
			    "llama.cpp says \"wrong shape\"");
	}
	snprintf(key, sizeof key, "%s.vocab_size", s->arch);
	if (s->arch[0] != '\0' && gguf_find_int(f, key, &v) &&
	    (v < 0 || (uint64_t)v != n))
		diag_note(diag_add(s->dl, "M009", gguf_find_kv(f, key)->offset,
		    SUBJECT_KEY, key, strlen(key), "vocab_size is %" PRId64
		    " but the vocabulary has %" PRIu64 " tokens", v, n),
		    "llama.cpp versions differ in which one they size the "
		    "output by");
}

static bool
is_special_id_key(struct gguf_str k)
{
	static const char pre[] = "tokenizer.ggml.", suf[] = "_token_id";

	return k.n > sizeof pre + sizeof suf - 2 &&
	    memcmp(k.p, pre, sizeof pre - 1) == 0 &&
	    memcmp(k.p + k.n - (sizeof suf - 1), suf, sizeof suf - 1) == 0;
}

/* Special token ids: UINT32, in range (UINT32_MAX / -1 mean "none"). */
static void
check_special_ids(struct mt *s)
{
	uint64_t n = s->tokens ? s->tokens->count : 0;
	size_t i;

	for (i = 0; i < s->f->kv_n; i++) {
		const struct gguf_kv *kv = &s->f->kv[i];
		int64_t id;

		if (!is_special_id_key(kv->key) ||
		    !meta_check_type(s, kv, GGUF_UINT32) || s->tokens == NULL)
			continue;
		id = (int64_t)kv->val.v.u;
		if (id == UINT32_MAX || (uint64_t)id < n)
			continue;
		diag_note(diag_add(s->dl, "M010", kv->offset, SUBJECT_KEY,
		    kv->key.p, kv->key.n, "token id %" PRId64 " is outside the "
		    "vocabulary of %" PRIu64 " tokens", id, n), "llama.cpp "
		    "warns and uses its default, so this token is not the one "
		    "the model expects");
	}
}

/*
 * A bitmap over a cheap hash of each token (16 slots a token, so it stays
 * in cache). A token whose slot is already set is a repeat, and its slot is
 * listed; then the bitmap is cleared and only the listed slots set: those
 * whose hash more than one token has. Only such tokens can be duplicates;
 * they are few, and only they go into the seeded set of strings. A
 * vocabulary built to collide in the cheap hash only sends more tokens to
 * the set: still O(n).
 */
struct dupfilter {
	uint64_t *bits;
	size_t words;
	unsigned shift;		/* a hash's slot is its top 64 - shift bits */
	uint32_t *rep;		/* the slots of the repeats */
	size_t repeats, rep_cap;
};

/* 8 bytes at p as a little-endian number, on any host. */
static uint64_t
le64(const unsigned char *p)
{
	uint64_t w;

	memcpy(&w, p, 8);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	w = __builtin_bswap64(w);
#endif
	return w;
}

/*
 * cheap_hash: multiply-shift over the token's bytes, a few cycles for a
 * short token; the top bits of the last product depend on every byte, and
 * are the slot. A token of up to 16 bytes is two loads and masks, without a
 * branch on its length (tokens' lengths vary too much for the predictor):
 * room says how many bytes can be read at p. The other paths compute the
 * same function (equal tokens must hash alike wherever they are).
 */
static uint64_t
cheap_hash(const unsigned char *p, uint64_t n, uint64_t room)
{
	static const uint64_t keep[9] = {
		0, 0xff, 0xffff, 0xffffff, 0xffffffffULL, 0xffffffffffULL,
		0xffffffffffffULL, 0xffffffffffffffULL, ~0ULL
	};
	unsigned char pad[16];
	uint64_t h = n * 0x9e3779b97f4a7c15ULL, k1, k2;

	for (; n > 16; n -= 8, p += 8, room -= 8) {
		h = (h ^ le64(p)) * 0xff51afd7ed558ccdULL;
		h ^= h >> 29;
	}
	if (room < 16) {	/* the end of the file: a padded copy */
		memset(pad, 0, sizeof pad);
		memcpy(pad, p, (size_t)n);
		p = pad;
	}
	k1 = n < 8 ? n : 8;
	k2 = n > 8 ? n - 8 : 0;
	h = (h ^ (le64(p) & keep[k1])) * 0xff51afd7ed558ccdULL;
	h ^= h >> 29;
	return (h ^ (le64(p + 8) & keep[k2])) * 0xc4ceb9fe1a85ec53ULL;
}

/*
 * next_batch: the next DUP_BATCH tokens (fewer at the end) and their slots,
 * whose bytes of the table are prefetched: the hashing runs ahead of the
 * cache misses. Returns how many.
 */
#define DUP_BATCH 16

static size_t
next_batch(struct gguf_arr_iter *it, const struct dupfilter *d,
    struct gguf_str tok[DUP_BATCH], uint64_t slot[DUP_BATCH])
{
	size_t k;

	for (k = 0; k < DUP_BATCH && gguf_arr_next_str(it, &tok[k]); k++) {
		slot[k] = cheap_hash((const unsigned char *)tok[k].p,
		    tok[k].n, it->size - (uint64_t)((const uint8_t *)tok[k].p -
		    it->map)) >> d->shift;
		__builtin_prefetch(&d->bits[slot[k] / 64]);
	}
	return k;
}

static bool
slot_set(const struct dupfilter *d, uint64_t b)
{
	return (d->bits[b / 64] >> (b % 64) & 1u) != 0;
}

static void
dupfilter_build(struct dupfilter *d, const struct mt *s)
{
	struct gguf_arr_iter it;
	struct gguf_str tok[DUP_BATCH];
	uint64_t slots = 64, slot[DUP_BATCH];
	size_t j, k;

	/* The count is bounded by the file (8 bytes or more a string); past
	 * 2^32 slots the filter only lets more through. */
	for (d->shift = 58; slots < 16 * s->tokens->count &&
	    slots < ((uint64_t)1 << 32); d->shift--)
		slots *= 2;
	d->words = (size_t)(slots / 64);
	d->bits = xcalloc(d->words, sizeof *d->bits);
	d->rep = NULL;
	d->repeats = d->rep_cap = 0;
	gguf_arr_iter_init(&it, s->f, s->tokens);
	while ((k = next_batch(&it, d, tok, slot)) > 0) {
		for (j = 0; j < k; j++) {
			if (!slot_set(d, slot[j])) {
				d->bits[slot[j] / 64] |= UINT64_C(1) <<
				    (slot[j] % 64);
				continue;
			}
			if (d->repeats == d->rep_cap) {
				d->rep_cap = d->rep_cap ? 2 * d->rep_cap : 256;
				d->rep = xreallocarray(d->rep, d->rep_cap,
				    sizeof *d->rep);
			}
			d->rep[d->repeats++] = (uint32_t)slot[j];
		}
	}
	/* now the bitmap marks the slots of more than one token */
	memset(d->bits, 0, d->words * sizeof *d->bits);
	for (j = 0; j < d->repeats; j++)
		d->bits[d->rep[j] / 64] |= UINT64_C(1) << (d->rep[j] % 64);
}

/* The first token equal to an earlier one, among those the filter let
 * through: M012. */
static void
report_first_duplicate(struct mt *s, const struct dupfilter *d)
{
	struct gguf_arr_iter it;
	struct gguf_str tok[DUP_BATCH];
	uint64_t slot[DUP_BATCH];
	struct strset set;
	size_t i = 0, j, k, prev, at = SIZE_MAX;

	strset_init(&set);
	strset_reserve(&set, 2 * d->repeats);	/* the candidates, about */
	gguf_arr_iter_init(&it, s->f, s->tokens);
	while (at == SIZE_MAX && (k = next_batch(&it, d, tok, slot)) > 0) {
		for (j = 0; at == SIZE_MAX && j < k; j++, i++)
			if (slot_set(d, slot[j]) &&	/* a shared hash */
			    strset_insert(&set, tok[j].p, (size_t)tok[j].n, i,
			    &prev) == 1)
				at = i;
	}
	if (at != SIZE_MAX)
		diag_note(diag_add(s->dl, "M012", s->tokens->offset,
		    SUBJECT_KEY, s->tokens->key.p, s->tokens->key.n, "tokens "
		    "%zu and %zu are the same string: llama.cpp aborts", prev,
		    at), "a GGML_ASSERT on the token map's size");
	strset_free(&set);
}

/* Duplicate token strings: llama.cpp asserts they are unique (abort). */
static void
check_duplicates(struct mt *s)
{
	struct dupfilter d;

	dupfilter_build(&d, s);
	if (d.repeats > 0)
		report_first_duplicate(s, &d);
	free(d.bits);
	free(d.rep);
}

/* The tokenizer of s's file (check-meta-impl.h). */
void
check_tokenizer(struct mt *s)
{
	const struct gguf_kv *kv;

	check_tokenizer_keys(s);
	if (s->tokens == NULL) {
		check_special_ids(s);
		return;
	}
	check_parallel(s, "tokenizer.ggml.scores", GGUF_FLOAT32);
	if ((kv = check_parallel(s, "tokenizer.ggml.token_type",
	    GGUF_INT32)) != NULL) {
		check_token_types(s, kv);
		check_byte_tokens(s, kv);
	}
	check_vocab_size(s);
	check_special_ids(s);
	check_duplicates(s);
}
