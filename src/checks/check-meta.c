/*
 * check-meta.c - M family: what llama.cpp requires of the metadata beyond
 * the geometry arch.c reads (M002-M004 come from there): the required keys
 * of each mapped architecture and of the tokenizer, their types, the
 * tokenizer's internal consistency (array lengths, element types, the
 * vocabulary against token_embd, special token ids, token types,
 * duplicates), attention weights in layers with no heads, values
 * llama.cpp aborts on (rope scaling type, expert counts),
 * general.file_type against the tensors, and
 * general.quantization_version.
 *
 * Vocabulary-only files get the tokenizer rules and nothing that needs
 * tensors or hyper-parameters; shards of a split model after the first
 * (which holds all the metadata) get nothing.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checks/checks.h"
#include "kernels/ggml-types.h"
#include "facts/names.h"
#include "base/strset.h"
#include "target/profile.h"

#define TOKEN_TYPE_MAX 6	/* LLAMA_TOKEN_TYPE_BYTE */

/* One file's state. */
struct mt {
	const struct check_ctx *c;
	const struct gguf_file *f;
	struct diag_list *dl;
	enum names_kind kind;		/* kind, map: c->facts'; arch: geom's */
	const struct names_map *map;
	const char *arch;
	const struct gguf_kv *tokens;	/* a STRING array, or NULL */
};

static bool
has_m002(const struct diag_list *dl, uint64_t offset)
{
	size_t i;

	for (i = 0; i < dl->n; i++)
		if (dl->v[i].offset == offset &&
		    strcmp(dl->v[i].rule->code, "M002") == 0)
			return true;
	return false;
}

/* M002 for kv stored as another type than want, once per key. */
static bool
check_type(struct mt *s, const struct gguf_kv *kv, uint32_t want)
{
	if (kv->type == want)
		return true;
	if (!has_m002(s->dl, kv->offset))
		diag_note(diag_add(s->dl, "M002", kv->offset, SUBJECT_KEY,
		    kv->key.p, kv->key.n, "stored as %s%s; llama.cpp requires "
		    "%s and refuses the file", gguf_vtype_name(kv->type),
		    kv->type == GGUF_ARRAY ? " (an array)" : "",
		    gguf_vtype_name(want)), "llama.cpp says \"key %.*s has "
		    "wrong type %s but expected type %s\"", (int)kv->key.n,
		    kv->key.p, gguf_vtype_llama_name(kv->type),
		    gguf_vtype_llama_name(want));
	return false;
}

static void
missing_key(struct mt *s, const char *key, uint32_t type, const char *why)
{
	diag_note(diag_add(s->dl, "M001", 0, SUBJECT_KEY, key, strlen(key),
	    "%s (%s) is missing%s: llama.cpp refuses the file", key,
	    gguf_vtype_name(type), why), "llama.cpp says \"key not found "
	    "in model\"");
}

/* key, which must be of type when present; M001 when required. */
static const struct gguf_kv *
require_key(struct mt *s, const char *key, uint32_t type, bool required,
    const char *why)
{
	const struct gguf_kv *kv = gguf_find_kv(s->f, key);

	if (kv == NULL) {
		if (required)
			missing_key(s, key, type, why);
		return NULL;
	}
	return check_type(s, kv, type) ? kv : NULL;
}

/* ---- required keys ----------------------------------------------------- */

static void
check_arch_name(struct mt *s)
{
	const struct gguf_kv *kv = gguf_find_kv(s->f, "general.architecture");

	if (kv == NULL) {
		missing_key(s, "general.architecture", GGUF_STRING, " in a "
		    "file with tensors");
		return;
	}
	if (check_type(s, kv, GGUF_STRING))
		diag_note(diag_add(s->dl, "M001", kv->offset, SUBJECT_KEY,
		    kv->key.p, kv->key.n, "general.architecture is empty, too "
		    "long or holds a NUL: llama.cpp refuses the file"),
		    "llama.cpp says \"unknown model architecture\"");
}

static void
check_map_keys(struct mt *s)
{
	struct names_env env = { s->f, s->c->geom, -1, -1 };
	struct names_val v;
	char key[160];
	size_t i;

	for (i = 0; i < s->map->n_keys; i++) {
		const struct names_key *k = &s->map->keys[i];
		bool required = true;

		if (k->when != NULL) {
			v = names_eval(k->when, &env);
			required = v.known && v.v != 0;
		}
		snprintf(key, sizeof key, "%s.%s", s->arch, k->key);
		require_key(s, key, k->type, required, "");
	}
}

/* ---- attention heads ---------------------------------------------------- */

/* Layers whose weights need heads the metadata gives as 0. */
struct zero_heads {
	const char *stem;	/* the first such weight, "attn_q.weight" */
	uint32_t first;		/* its layer */
	uint32_t layers;	/* how many layers */
	bool seen[ARCH_MAX_LAYERS];
};

/* The name of a block tensor after "blk.N.", or NULL. */
static const char *
block_stem(struct gguf_str name, size_t *len)
{
	size_t i = 4;

	if (name.n < 6 || memcmp(name.p, "blk.", 4) != 0)
		return NULL;
	while (i < name.n && name.p[i] >= '0' && name.p[i] <= '9')
		i++;
	if (i == 4 || i >= name.n || name.p[i] != '.')
		return NULL;
	*len = (size_t)name.n - i - 1;
	return name.p + i + 1;
}

/* The weights llama.cpp sizes by the query heads, and by the KV heads. */
static const char *const query_weights[] = {
	"attn_q.weight", "attn_qkv.weight", "attn_output.weight", NULL
};
static const char *const kv_weights[] = {
	"attn_k.weight", "attn_v.weight", "attn_qkv.weight", NULL
};

/* The entry of list that is the stem [stem, stem + len), or NULL. */
static const char *
stem_among(const char *stem, size_t len, const char *const list[])
{
	for (; *list != NULL; list++)
		if (len == strlen(*list) && memcmp(stem, *list, len) == 0)
			return *list;
	return NULL;
}

static void
zero_heads_add(struct zero_heads *z, const char *stem, uint32_t il)
{
	if (z->seen[il])
		return;
	z->seen[il] = true;
	if (z->layers++ == 0 || il < z->first) {
		z->first = il;
		z->stem = stem;
	}
}

static void
zero_heads_report(struct mt *s, const struct zero_heads *z,
    const char *suffix, const char *heads)
{
	const struct gguf_kv *kv;
	char key[160];

	if (z->layers == 0)
		return;
	snprintf(key, sizeof key, "%s.%s", s->arch, suffix);
	kv = gguf_find_kv(s->f, key);
	diag_note(diag_add(s->dl, "M016", kv != NULL ? kv->offset : 0,
	    SUBJECT_KEY, key, strlen(key), "%s is 0 for %" PRIu32 " layer%s "
	    "holding attention weights (the first: layer %" PRIu32 ")",
	    suffix, z->layers, z->layers == 1 ? "" : "s", z->first),
	    "llama.cpp expects blk.%" PRIu32 ".%s with a dimension of 0 (%s "
	    "x head width) and refuses the file (\"wrong shape\")", z->first,
	    z->stem, heads);
}

/* M016 too: more heads than the embedding is wide, and no key_length, so
 * that the head width (embedding_length / head_count) is 0. */
static void
zero_width_report(struct mt *s, const char *stem)
{
	const struct model_geom *g = s->c->geom;
	const struct gguf_kv *kv;
	char key[160];

	snprintf(key, sizeof key, "%s.attention.head_count", s->arch);
	kv = gguf_find_kv(s->f, key);
	diag_note(diag_add(s->dl, "M016", kv != NULL ? kv->offset : 0,
	    SUBJECT_KEY, key, strlen(key), "%" PRIu32 " heads for an "
	    "embedding width of %" PRIu32 " and no key_length: the head width "
	    "is 0", g->n_head[0], g->n_embd), "llama.cpp expects %s with a "
	    "dimension of 0 and refuses the file (\"wrong shape\")", stem);
}

/*
 * M016: a layer holding weights sized by the query heads (attn_q,
 * attn_qkv, attn_output) or by the KV heads (attn_k, attn_v, attn_qkv)
 * whose head count is 0 in the metadata. KV heads are judged only when
 * head_count_kv is given: otherwise they are the query heads, already
 * reported; and not in a hybrid's recurrent layer, whose k and v are its
 * own (kimi-linear's KDA).
 */
static void
check_heads(struct mt *s)
{
	const struct model_geom *g = s->c->geom;
	const int64_t *layer = s->c->facts->layer;
	struct zero_heads q, k;
	const char *stem, *attn = NULL;
	size_t i, len;

	if (g == NULL || layer == NULL || !g->has_n_head)
		return;
	memset(&q, 0, sizeof q);
	memset(&k, 0, sizeof k);
	for (i = 0; i < s->f->tensors_n; i++) {
		const char *w;
		uint32_t il;

		stem = block_stem(s->f->tensors[i].name, &len);
		if (stem == NULL || layer[i] < 0 || layer[i] >= g->n_layer)
			continue;
		il = (uint32_t)layer[i];
		if ((w = stem_among(stem, len, query_weights)) != NULL &&
		    attn == NULL)
			attn = w;
		if (w != NULL && g->n_head[il] == 0)
			zero_heads_add(&q, w, il);
		if ((w = stem_among(stem, len, kv_weights)) != NULL &&
		    g->has_n_head_kv && g->n_head_kv[il] == 0 &&
		    !g->is_recr[il])
			zero_heads_add(&k, w, il);
	}
	zero_heads_report(s, &q, "attention.head_count", "heads");
	zero_heads_report(s, &k, "attention.head_count_kv", "KV heads");
	if (attn != NULL && q.layers == 0 && g->n_embd > 0 &&
	    g->n_head[0] > g->n_embd && g->head_k == 0)
		zero_width_report(s, attn);
}

/* ---- the tokenizer ----------------------------------------------------- */

static const char *const tokenizer_models[] = {
	"no_vocab", "none", "llama", "bert", "gpt2", "t5", "rwkv", "plamo2",
	NULL
};

static bool
str_in(struct gguf_str s, const char *const list[])
{
	for (; *list != NULL; list++)
		if (gguf_str_eq(s, *list))
			return true;
	return false;
}

/*
 * An array of elem (M007 when it is not); NULL when absent or wrong.
 * llama.cpp v0.5.0 checks the type of each tokenizer array and refuses
 * the file on another; its scores may be INT32[] too (read as whole
 * numbers), which the spec does not name: accepted as llama.cpp does.
 */
static const struct gguf_kv *
vocab_array(struct mt *s, const char *key, uint32_t elem, bool *present)
{
	const struct gguf_kv *kv = gguf_find_kv(s->f, key);
	bool scores = strcmp(key, "tokenizer.ggml.scores") == 0;

	*present = kv != NULL;
	if (kv == NULL)
		return NULL;
	if (kv->type == GGUF_ARRAY && (kv->elem_type == elem ||
	    (scores && kv->elem_type == GGUF_INT32)))
		return kv;
	diag_note(diag_add(s->dl, "M007", kv->offset, SUBJECT_KEY, kv->key.p,
	    kv->key.n, "stored as %s%s%s; llama.cpp requires %s[]%s and "
	    "refuses the file", kv->type == GGUF_ARRAY ? "an array of " : "",
	    gguf_vtype_name(kv->type == GGUF_ARRAY ? kv->elem_type : kv->type),
	    kv->type == GGUF_ARRAY ? "" : " (not an array)",
	    gguf_vtype_name(elem), scores ? " (or INT32[])" : ""),
	    "llama.cpp says \"invalid gguf type for %s\"", key);
	return NULL;
}

static void
check_tokenizer_keys(struct mt *s)
{
	const struct gguf_kv *model, *pre;
	struct gguf_str ms = { "", 0 };
	bool present;

	model = require_key(s, "tokenizer.ggml.model", GGUF_STRING, true, "");
	pre = require_key(s, "tokenizer.ggml.pre", GGUF_STRING, false, "");
	if (model != NULL) {
		ms = model->val.v.s;
		if (!str_in(ms, tokenizer_models))
			diag_add(s->dl, "M013", model->offset, SUBJECT_KEY,
			    model->key.p, model->key.n, "tokenizer model '%.*s'"
			    " is unknown to llama.cpp, which refuses the file",
			    (int)(ms.n > 64 ? 64 : ms.n), ms.p);
	}
	s->tokens = vocab_array(s, "tokenizer.ggml.tokens", GGUF_STRING,
	    &present);
	if (!present && model != NULL && !gguf_str_eq(ms, "no_vocab") &&
	    !gguf_str_eq(ms, "none"))
		missing_key(s, "tokenizer.ggml.tokens", GGUF_ARRAY, "");
	vocab_array(s, "tokenizer.ggml.merges", GGUF_STRING, &present);
	if (!present && model != NULL && gguf_str_eq(ms, "gpt2") &&
	    (pre == NULL || !gguf_str_eq(pre->val.v.s, "kimi-k2")))
		missing_key(s, "tokenizer.ggml.merges", GGUF_ARRAY, " (a "
		    "gpt2/BPE tokenizer needs its merges)");
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
		    !check_type(s, kv, GGUF_UINT32) || s->tokens == NULL)
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

static void
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

/* ---- values llama.cpp aborts on --------------------------------------- */

static void
check_rope_scaling(struct mt *s)
{
	static const char *const types[] = {
		"none", "linear", "yarn", "longrope", NULL
	};
	const struct gguf_kv *kv;
	char key[160];

	snprintf(key, sizeof key, "%s.rope.scaling.type", s->arch);
	if ((kv = require_key(s, key, GGUF_STRING, false, "")) == NULL ||
	    str_in(kv->val.v.s, types))
		return;
	diag_note(diag_add(s->dl, "M004", kv->offset, SUBJECT_KEY, kv->key.p,
	    kv->key.n, "rope scaling type '%.*s' is not none, linear, yarn or "
	    "longrope: llama.cpp aborts", (int)(kv->val.v.s.n > 64 ? 64 :
	    kv->val.v.s.n), kv->val.v.s.p), "a GGML_ASSERT");
}

static void
check_experts(struct mt *s)
{
	const struct gguf_kv *kv;
	char key[160];
	int64_t n = 0, used = 0;
	const char *why = NULL;

	snprintf(key, sizeof key, "%s.expert_count", s->arch);
	gguf_find_int(s->f, key, &n);
	snprintf(key, sizeof key, "%s.expert_used_count", s->arch);
	gguf_find_int(s->f, key, &used);
	if (n > 512)
		why = "more than 512 experts (LLAMA_MAX_EXPERTS)";
	else if (used > n)
		why = "more experts used per token than there are";
	else if (n > 0 && used <= 0)
		why = "experts, but none used per token";
	if (why == NULL)
		return;
	snprintf(key, sizeof key, "%s.%s", s->arch, n > 512 || used <= 0 ?
	    "expert_count" : "expert_used_count");
	kv = gguf_find_kv(s->f, key);
	diag_note(diag_add(s->dl, "M004", kv ? kv->offset : 0, SUBJECT_KEY,
	    key, strlen(key), "expert_count %" PRId64 ", expert_used_count %"
	    PRId64 ": %s; llama.cpp aborts", n, used, why), "a GGML_ASSERT");
}

/* ---- file type and quantization version ------------------------------- */

/*
 * llama_ftype values, their names and the tensor types they stand for
 * (FT: one type; FT2: either of two).
 */
#define FT(ft, name, T) { (ft), (name), { GGML_TYPE_##T, GGML_TYPE_##T } }
#define FT2(ft, name, T, U) { (ft), (name), { GGML_TYPE_##T, GGML_TYPE_##U } }

static const struct {
	uint32_t ftype;
	const char *name;
	uint32_t types[2];	/* ggml type ids; a second one or the first */
} ftypes[] = {
	FT(0, "all F32", F32),
	FT(1, "F16", F16),
	FT(2, "Q4_0", Q4_0),
	FT(3, "Q4_1", Q4_1),
	FT(7, "Q8_0", Q8_0),
	FT(8, "Q5_0", Q5_0),
	FT(9, "Q5_1", Q5_1),
	FT(10, "Q2_K - Medium", Q2_K),
	FT(11, "Q3_K - Small", Q3_K),
	FT(12, "Q3_K - Medium", Q3_K),
	FT(13, "Q3_K - Large", Q3_K),
	FT(14, "Q4_K - Small", Q4_K),
	FT(15, "Q4_K - Medium", Q4_K),
	FT(16, "Q5_K - Small", Q5_K),
	FT(17, "Q5_K - Medium", Q5_K),
	FT(18, "Q6_K", Q6_K),
	FT(19, "IQ2_XXS", IQ2_XXS),
	FT(20, "IQ2_XS", IQ2_XS),
	FT(21, "Q2_K - Small", Q2_K),
	FT2(22, "IQ3_XS", IQ3_S, IQ3_XXS),
	FT(23, "IQ3_XXS", IQ3_XXS),
	FT(24, "IQ1_S", IQ1_S),
	FT(25, "IQ4_NL", IQ4_NL),
	FT(26, "IQ3_S", IQ3_S),
	FT(27, "IQ3_S mix", IQ3_S),
	FT2(28, "IQ2_S", IQ2_XS, IQ2_S),
	FT(29, "IQ2_M", IQ2_S),
	FT(30, "IQ4_XS", IQ4_XS),
	FT(31, "IQ1_M", IQ1_M),
	FT(32, "BF16", BF16),
	FT(36, "TQ1_0", TQ1_0),
	FT(37, "TQ2_0", TQ2_0),
	FT(38, "MXFP4 MoE", MXFP4),
	FT(39, "NVFP4", NVFP4),
	FT(40, "Q1_0", Q1_0),
	FT(41, "Q2_0", Q2_0),
};

#define FTYPE_GUESSED 1024u

/* Per ggml type: how many tensors of two or more dimensions use it. */
static size_t
count_matrix_types(const struct gguf_file *f, size_t counts[GGML_TYPE_COUNT])
{
	size_t i, n = 0;

	memset(counts, 0, GGML_TYPE_COUNT * sizeof counts[0]);
	for (i = 0; i < f->tensors_n; i++) {
		if (f->tensors[i].n_dims < 2 ||
		    f->tensors[i].type >= GGML_TYPE_COUNT)
			continue;
		counts[f->tensors[i].type]++;
		n++;
	}
	return n;
}

static void
file_type_mismatch(struct mt *s, const struct gguf_kv *kv, size_t i,
    const size_t counts[GGML_TYPE_COUNT], size_t n)
{
	uint32_t t, best = 0;
	char a[16], b[16];

	for (t = 0; t < GGML_TYPE_COUNT; t++)
		if (counts[t] > counts[best])
			best = t;
	diag_note(diag_add(s->dl, "M014", kv->offset, SUBJECT_KEY, kv->key.p,
	    kv->key.n, "file_type is %" PRIu64 " (%s), but no weight matrix is "
	    "%s; %s is the most common (%zu of %zu)", kv->val.v.u,
	    ftypes[i].name, ggml_type_name(ftypes[i].types[0], a, sizeof a),
	    ggml_type_name(best, b, sizeof b), counts[best], n), "the label "
	    "is wrong");
}

static void
check_file_type(struct mt *s)
{
	size_t counts[GGML_TYPE_COUNT], n, i;
	const struct gguf_kv *kv;
	uint64_t ft;

	kv = require_key(s, "general.file_type", GGUF_UINT32, false, "");
	if (kv == NULL || s->f->tensors_n == 0)
		return;
	ft = kv->val.v.u & ~(uint64_t)FTYPE_GUESSED;
	for (i = 0; i < sizeof ftypes / sizeof ftypes[0]; i++)
		if (ftypes[i].ftype == ft)
			break;
	if (i == sizeof ftypes / sizeof ftypes[0]) {
		diag_note(diag_add(s->dl, "M014", kv->offset, SUBJECT_KEY,
		    kv->key.p, kv->key.n, "general.file_type %" PRIu64 " is "
		    "not a file type current llama.cpp knows", kv->val.v.u),
		    "removed or never defined: llama.cpp reports \"unknown, "
		    "may not work\"");
		return;
	}
	if ((n = count_matrix_types(s->f, counts)) == 0 ||
	    counts[ftypes[i].types[0]] > 0 || counts[ftypes[i].types[1]] > 0)
		return;
	file_type_mismatch(s, kv, i, counts, n);
}

static void
check_quant_version(struct mt *s)
{
	const struct ggml_type_info *ti;
	char name[16];
	size_t i;

	if (gguf_find_kv(s->f, "general.quantization_version") != NULL)
		return;
	for (i = 0; i < s->f->tensors_n; i++) {
		const struct gguf_tensor *t = &s->f->tensors[i];

		ti = ggml_type_get(t->type);
		if (ti == NULL || ti->blck <= 1)
			continue;
		diag_note(diag_add(s->dl, "M015", 0, SUBJECT_NONE, NULL, 0,
		    "no general.quantization_version, but tensors are "
		    "quantized (%.*s is %s)", (int)(t->name.n > 64 ? 64 :
		    t->name.n), t->name.p, ggml_type_name(t->type, name,
		    sizeof name)), "the spec requires it (the current value is "
		    "2)");
		return;
	}
}

/* ---- the check --------------------------------------------------------- */

/*
 * Whether the file carries a llama.cpp tokenizer: without one, a GGUF with
 * tensors and no architecture is not recognisably a model (GGUF also
 * carries other programs' weights).
 */
static bool
has_tokenizer_keys(const struct gguf_file *f)
{
	size_t i;

	for (i = 0; i < f->kv_n; i++)
		if (f->kv[i].key.n > 15 &&
		    memcmp(f->kv[i].key.p, "tokenizer.ggml.", 15) == 0)
			return true;
	return false;
}

/* A file llama.cpp would load a tokenizer from. */
static bool
has_tokenizer(const struct mt *s)
{
	if (s->kind == NAMES_MODEL)
		return true;
	return s->kind == NAMES_NO_TENSORS &&
	    (gguf_find_kv(s->f, "tokenizer.ggml.tokens") != NULL ||
	    gguf_find_kv(s->f, "tokenizer.ggml.model") != NULL);
}

void
check_meta(const struct check_ctx *c, struct diag_list *dl)
{
	struct mt s;

	if (c->facts == NULL)
		return;		/* the maps did not load (lint_buffer) */
	if (c->facts->split_no > 0)
		return;		/* the metadata is in the first shard */
	memset(&s, 0, sizeof s);
	s.c = c;
	s.f = c->file;
	s.dl = dl;
	s.kind = c->facts->kind;
	s.map = c->facts->map;
	if (check_companion_file(c) && s.kind != NAMES_NO_TENSORS) {
		s.kind = NAMES_NOT_MODEL;	/* no model's keys */
		s.map = NULL;
	}
	s.arch = c->geom->arch;
	if (s.kind == NAMES_NO_ARCH && has_tokenizer_keys(c->file))
		check_arch_name(&s);
	if (s.kind == NAMES_MODEL) {
		check_map_keys(&s);
		check_heads(&s);
	} else if (s.kind == NAMES_FOREIGN && c->profile != NULL &&
	    c->profile->runtime == RUNTIME_LLAMA_CPP) {
		check_map_keys(&s);	/* llama.cpp reads them first */
	}
	if (has_tokenizer(&s))
		check_tokenizer(&s);
	if (s.arch[0] != '\0') {
		check_rope_scaling(&s);
		check_experts(&s);
	}
	check_file_type(&s);
	if (s.kind == NAMES_MODEL)
		check_quant_version(&s);
}
