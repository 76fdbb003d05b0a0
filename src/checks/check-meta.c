/*
 * check-meta.c - M family: what llama.cpp requires of the metadata beyond
 * the geometry arch.c reads (M002-M004 come from there): the required keys
 * of each mapped architecture, their types, attention weights in layers
 * with no heads, values llama.cpp aborts on (rope scaling type, expert
 * counts, nextn_predict_layers), the per-layer arrays arch.c does not
 * read (their length against block_count and LLAMA_MAX_LAYERS),
 * general.file_type against the tensors, and
 * general.quantization_version. The tokenizer's keys and its internal
 * consistency are check-tokenizer.c's, over the state and helpers shared
 * through check-meta-impl.h.
 *
 * Vocabulary-only files get the tokenizer rules and nothing that needs
 * tensors or hyper-parameters; shards of a split model after the first
 * (which holds all the metadata) get nothing.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checks/check-meta-impl.h"
#include "checks/checks.h"
#include "kernels/ggml-types.h"
#include "facts/names.h"
#include "target/profile.h"

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

/* M002 for kv stored as another type than want, once per key
 * (check-meta-impl.h). */
bool
meta_check_type(struct mt *s, const struct gguf_kv *kv, uint32_t want)
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

/* M001 for key (check-meta-impl.h). */
void
meta_missing_key(struct mt *s, const char *key, uint32_t type, const char *why)
{
	diag_note(diag_add(s->dl, "M001", 0, SUBJECT_KEY, key, strlen(key),
	    "%s (%s) is missing%s: llama.cpp refuses the file", key,
	    gguf_vtype_name(type), why), "llama.cpp says \"key not found "
	    "in model\"");
}

/* key, which must be of type when present; M001 when required
 * (check-meta-impl.h). */
const struct gguf_kv *
meta_require_key(struct mt *s, const char *key, uint32_t type, bool required,
    const char *why)
{
	const struct gguf_kv *kv = gguf_find_kv(s->f, key);

	if (kv == NULL) {
		if (required)
			meta_missing_key(s, key, type, why);
		return NULL;
	}
	return meta_check_type(s, kv, type) ? kv : NULL;
}

/* Whether s is among list (check-meta-impl.h). */
bool
meta_str_in(struct gguf_str s, const char *const list[])
{
	for (; *list != NULL; list++)
		if (gguf_str_eq(s, *list))
			return true;
	return false;
}

/* ---- required keys ----------------------------------------------------- */

/*
 * general.architecture, in a file with tensors (of a model: check_meta)
 * or a vocabulary (llama.cpp reads the architecture before it loads a
 * vocabulary): the spec requires it, and llama.cpp, which finds no
 * architecture by an empty name, refuses the file.
 */
static void
check_arch_name(struct mt *s)
{
	static const char key[] = "general.architecture";
	static const char says[] = "llama.cpp says \"unknown model "
	    "architecture: ''\"";
	const struct gguf_kv *kv = gguf_find_kv(s->f, key);

	if (kv == NULL) {
		diag_note(diag_add(s->dl, "M001", 0, SUBJECT_KEY, key,
		    sizeof key - 1, "%s (STRING) is missing in a file with "
		    "%s: the GGUF spec requires it and llama.cpp refuses the "
		    "file", key, s->f->tensors_n > 0 ? "tensors" :
		    "a vocabulary"), says);
		return;
	}
	if (meta_check_type(s, kv, GGUF_STRING))
		diag_note(diag_add(s->dl, "M001", kv->offset, SUBJECT_KEY,
		    kv->key.p, kv->key.n, "%s is empty, too long or holds a "
		    "NUL: llama.cpp refuses the file", key), says);
}

/*
 * The per-layer keys llama.cpp reads as a scalar or an array of one entry
 * a layer (get_key_or_arr): a name map that declares one as UINT32 means
 * the scalar, and an array of INT32, UINT32 or BOOL elements is as good
 * (its length is check_layer_arrays'). The first two are the ones maps
 * declare.
 */
static const char *const or_arr_keys[] = {
	"expert_used_count", "expert_feed_forward_length", "swiglu_clamp_exp",
	"swiglu_clamp_shexp", NULL
};

static bool
is_or_arr_key(const char *suffix)
{
	const char *const *p;

	for (p = or_arr_keys; *p != NULL; p++)
		if (strcmp(*p, suffix) == 0)
			return true;
	return false;
}

/* Whether key (k's) is such a per-layer array; M002 for its elements
 * when they are not INT32, UINT32 or BOOL. */
static bool
layer_array_typed(struct mt *s, const struct names_key *k, const char *key)
{
	const struct gguf_kv *kv = gguf_find_kv(s->f, key);

	if (kv == NULL || kv->type != GGUF_ARRAY || k->type != GGUF_UINT32 ||
	    !is_or_arr_key(k->key))
		return false;
	if (kv->elem_type != GGUF_INT32 && kv->elem_type != GGUF_UINT32 &&
	    kv->elem_type != GGUF_BOOL && !has_m002(s->dl, kv->offset))
		diag_note(diag_add(s->dl, "M002", kv->offset, SUBJECT_KEY,
		    kv->key.p, kv->key.n, "per-layer array of %s; llama.cpp "
		    "accepts only INT32, UINT32 or BOOL elements and refuses "
		    "the file", gguf_vtype_name(kv->elem_type)), "llama.cpp "
		    "says \"%.*s has wrong array element type %s\"",
		    (int)kv->key.n, kv->key.p,
		    gguf_vtype_llama_name(kv->elem_type));
	return true;
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
		if (k->type != NAMES_KEY_ANY) {
			if (!layer_array_typed(s, k, key))
				meta_require_key(s, key, k->type, required,
				    "");
		} else if (required && gguf_find_kv(s->f, key) == NULL)
			diag_note(diag_add(s->dl, "M001", 0, SUBJECT_KEY, key,
			    strlen(key), "%s (a scalar or an array) is "
			    "missing: llama.cpp refuses the file", key),
			    "llama.cpp says \"key not found in model\"");
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
	if ((kv = meta_require_key(s, key, GGUF_STRING, false, "")) == NULL ||
	    meta_str_in(kv->val.v.s, types))
		return;
	diag_note(diag_add(s->dl, "M004", kv->offset, SUBJECT_KEY, kv->key.p,
	    kv->key.n, "rope scaling type '%.*s' is not none, linear, yarn or "
	    "longrope: llama.cpp aborts", (int)(kv->val.v.s.n > 64 ? 64 :
	    kv->val.v.s.n), kv->val.v.s.p), "a GGML_ASSERT");
}

/*
 * key as llama.cpp's largest per-layer value: a scalar, or the largest of
 * a per-layer array of INT32, UINT32 or BOOL (at most 512 entries, read
 * as UINT32), as n_expert_used_max() takes it. False when absent or not
 * such.
 */
static bool
layer_max(const struct gguf_file *f, const char *key, int64_t *out)
{
	const struct gguf_kv *kv = gguf_find_kv(f, key);
	struct gguf_scalar v;
	int64_t x, max = 0;
	uint64_t i;

	if (kv == NULL || kv->type != GGUF_ARRAY)
		return gguf_find_int(f, key, out);
	if ((kv->elem_type != GGUF_INT32 && kv->elem_type != GGUF_UINT32 &&
	    kv->elem_type != GGUF_BOOL) || kv->count > ARCH_MAX_LAYERS)
		return false;
	for (i = 0; i < kv->count; i++) {
		if (gguf_arr_get(f, kv, i, &v) < 0)
			return false;
		x = v.type == GGUF_BOOL ? (v.v.b != 0) : v.type == GGUF_INT32 ?
		    (int64_t)(uint32_t)v.v.i : (int64_t)(uint32_t)v.v.u;
		if (i == 0 || x > max)
			max = x;
	}
	*out = max;
	return true;
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
	if (!layer_max(s->f, key, &used) && gguf_find_kv(s->f, key) != NULL)
		return;		/* M002 or M003 says what is wrong with it */
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

/* nextn_predict_layers above block_count: llama.cpp asserts it is not. */
static void
check_nextn(struct mt *s)
{
	const struct gguf_kv *kv;
	int64_t layers = 0, nextn = 0;
	char key[160];

	snprintf(key, sizeof key, "%s.block_count", s->arch);
	if (!gguf_find_int(s->f, key, &layers) || layers <= 0 ||
	    layers > ARCH_MAX_LAYERS)
		return;		/* M001 or M004 already */
	snprintf(key, sizeof key, "%s.nextn_predict_layers", s->arch);
	if (!gguf_find_int(s->f, key, &nextn) || nextn <= layers)
		return;
	kv = gguf_find_kv(s->f, key);
	diag_note(diag_add(s->dl, "M004", kv->offset, SUBJECT_KEY, kv->key.p,
	    kv->key.n, "nextn_predict_layers %" PRId64 " is more than "
	    "block_count %" PRId64 ": llama.cpp aborts", nextn, layers),
	    "a GGML_ASSERT");
}

/* ---- per-layer arrays arch.c does not read ----------------------------- */

/*
 * Per-layer keys llama.cpp reads into arrays of LLAMA_MAX_LAYERS (512)
 * entries: expert_used_count for every architecture (its length must be
 * block_count), the others for the architectures that have them (more
 * than 512 entries is refused: "array length ... exceeds max 512", or
 * "wrong array length" where the length must be block_count). arch.c's
 * geom_layers reports feed_forward_length, the head counts, the
 * sliding-window pattern and the recurrent layers where the architecture
 * reads them (M003 there, with a profile); here they are checked for
 * their length alone.
 */
static const char *const layer_keys[] = {
	"expert_used_count", "expert_feed_forward_length",
	"attention.rope_pattern", "attention.indexer.types",
	"attention.compress_ratios", "deepstack_mapping", "swiglu_clamp_exp",
	"swiglu_clamp_shexp", "attention.sliding_window_pattern",
	"attention.recurrent_layers", NULL
};

static bool
has_m003(const struct diag_list *dl, uint64_t offset)
{
	size_t i;

	for (i = 0; i < dl->n; i++)
		if (dl->v[i].offset == offset &&
		    strcmp(dl->v[i].rule->code, "M003") == 0)
			return true;
	return false;
}

/* Whether text names suffix as a whole word (a key in an expression). */
static bool
names_word(const char *text, const char *suffix)
{
	size_t n = strlen(suffix);
	const char *p;

	for (p = text; p != NULL && (p = strstr(p, suffix)) != NULL; p += n)
		if ((p == text || (p[-1] != '_' && p[-1] != '.' &&
		    !(p[-1] >= 'a' && p[-1] <= 'z'))) && p[n] != '_' &&
		    !(p[n] >= 'a' && p[n] <= 'z'))
			return true;
	return false;
}

/* Whether the architecture's name map reads <arch>.suffix: a key it
 * requires, or one its tensors' shapes or conditions name. */
static bool
map_reads(const struct names_map *m, const char *suffix)
{
	size_t i, j;

	if (m == NULL)
		return false;
	for (i = 0; i < m->n_keys; i++)
		if (strcmp(m->keys[i].key, suffix) == 0)
			return true;
	for (i = 0; i < m->n_tensors; i++) {
		const struct names_tensor *t = &m->tensors[i];

		if (t->when_text != NULL && names_word(t->when_text, suffix))
			return true;
		for (j = 0; j < t->n_dims; j++)
			if (t->shape_text[j] != NULL &&
			    names_word(t->shape_text[j], suffix))
				return true;
	}
	return false;
}

/*
 * An array over LLAMA_MAX_LAYERS entries: an error where the architecture
 * reads the key (all: it reads it as one entry a layer, as every one reads
 * expert_used_count, apertus the xielu keys, and an architecture whose
 * name map names expert_feed_forward_length that key; the others where
 * its name map names them), a warning where llama.cpp ignores it.
 */
static void
layer_array_long(struct mt *s, const struct gguf_kv *kv, const char *suffix,
    bool all)
{
	bool read = all || map_reads(s->map, suffix);
	struct diag *d;

	d = diag_note(diag_add(s->dl, "M003", kv->offset, SUBJECT_KEY,
	    kv->key.p, kv->key.n, "per-layer array has %" PRIu64 " entries; "
	    "llama.cpp holds at most %d layers (%s)", kv->count,
	    ARCH_MAX_LAYERS, read ? "and refuses the file" : "it ignores the "
	    "key for this architecture and refuses it where it reads it"),
	    "llama.cpp says \"wrong array length\" where it reads one entry "
	    "per layer, \"array length %" PRIu64 " for key %.*s exceeds max "
	    "%d\" elsewhere", kv->count, (int)kv->key.n, kv->key.p,
	    ARCH_MAX_LAYERS);
	if (d != NULL && !read && d->severity > SEV_WARNING)
		d->severity = SEV_WARNING;
}

static void
layer_array(struct mt *s, const char *key, const char *suffix, bool all)
{
	const struct gguf_kv *kv = gguf_find_kv(s->f, key);
	uint32_t n = arch_blocks(s->c->geom);

	if (kv == NULL || kv->type != GGUF_ARRAY || has_m003(s->dl, kv->offset))
		return;
	if (kv->count > ARCH_MAX_LAYERS)
		layer_array_long(s, kv, suffix, all);
	else if (all && n > 0 && kv->count != n)
		diag_note(diag_add(s->dl, "M003", kv->offset, SUBJECT_KEY,
		    kv->key.p, kv->key.n, "per-layer array has %" PRIu64
		    " entries; block_count is %" PRIu32 " (llama.cpp refuses "
		    "it)", kv->count, n), "llama.cpp says \"key %.*s has wrong "
		    "array length; expected %" PRIu32 ", got %" PRIu64 "\"",
		    (int)kv->key.n, kv->key.p, n, kv->count);
}

static void
check_layer_arrays(struct mt *s)
{
	static const char *const xielu[] = {
		"xielu.alpha_n", "xielu.alpha_p", "xielu.beta", "xielu.eps",
		NULL
	};
	char key[160];
	size_t i;

	for (i = 0; layer_keys[i] != NULL; i++) {
		snprintf(key, sizeof key, "%s.%s", s->arch, layer_keys[i]);
		layer_array(s, key, layer_keys[i], i == 0 ||
		    (is_or_arr_key(layer_keys[i]) &&
		    map_reads(s->map, layer_keys[i])));
	}
	for (i = 0; xielu[i] != NULL; i++)	/* apertus reads them */
		layer_array(s, xielu[i], xielu[i],
		    strcmp(s->arch, "apertus") == 0);
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

	kv = meta_require_key(s, "general.file_type", GGUF_UINT32, false, "");
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
	if (s.kind == NAMES_NO_ARCH || (s.kind == NAMES_NO_TENSORS &&
	    has_tokenizer(&s) && s.arch[0] == '\0'))
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
		check_nextn(&s);
		check_layer_arrays(&s);
	}
	check_file_type(&s);
	if (s.kind == NAMES_MODEL)
		check_quant_version(&s);
}
