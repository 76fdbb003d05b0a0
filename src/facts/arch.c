/*
 * arch.c - reading a file's architecture and geometry from its metadata
 * (see arch.h), as its row of archs.c says. Key names and
 * defaults follow llama.cpp's load_hparams (memory-and-kv.md §1, §5-§7;
 * gguf-format.md §6.3).
 */
#include "config.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "facts/arch.h"

struct rd {
	const struct gguf_file *f;
	struct model_geom *g;
	struct diag_list *dl;
};

static void missing(struct model_geom *g, const char *fmt, ...)
    GL_PRINTF(2, 3);

/* Record what the plan lacks (the text may quote g->arch). */
static void
missing(struct model_geom *g, const char *fmt, ...)
{
	char text[sizeof g->missing[0]];
	va_list ap;

	if (g->n_missing == ARCH_MAX_MISSING)
		return;
	va_start(ap, fmt);
	vsnprintf(text, sizeof text, fmt, ap);
	va_end(ap);
	memcpy(g->missing[g->n_missing++], text, sizeof text);
}

static const struct gguf_kv *
arch_kv(struct rd *r, const char *suffix)
{
	char key[160];

	snprintf(key, sizeof key, "%s.%s", r->g->arch, suffix);
	return gguf_find_kv(r->f, key);
}

static bool
is_int_type(uint32_t t)
{
	return t <= GGUF_INT32 || t == GGUF_UINT64 || t == GGUF_INT64;
}

/* An integer scalar as u32; false (with a finding) when it cannot be. */
static bool
scalar_u32(struct rd *r, const struct gguf_kv *kv, uint32_t *out)
{
	const struct gguf_scalar *s = &kv->val;
	bool neg = (s->type == GGUF_INT8 || s->type == GGUF_INT16 ||
	    s->type == GGUF_INT32 || s->type == GGUF_INT64) && s->v.i < 0;

	if (!is_int_type(kv->type) || neg || s->v.u > UINT32_MAX) {
		diag_note(diag_add(r->dl, "M002", kv->offset, SUBJECT_KEY,
		    kv->key.p, kv->key.n, "stored as %s%s; llama.cpp requires "
		    "UINT32 and refuses the file", gguf_vtype_name(kv->type),
		    neg ? " (negative)" : (is_int_type(kv->type) ?
		    " (above 2^32)" : "")), "llama.cpp says \"key %.*s has "
		    "wrong type %s but expected type u32\"; gguflint cannot "
		    "use the value", (int)kv->key.n, kv->key.p,
		    gguf_vtype_llama_name(kv->type));
		return false;
	}
	if (kv->type != GGUF_UINT32)
		diag_note(diag_add(r->dl, "M002", kv->offset, SUBJECT_KEY,
		    kv->key.p, kv->key.n, "stored as %s; llama.cpp requires "
		    "UINT32 and refuses the file (gguflint reads %" PRIu64 ")",
		    gguf_vtype_name(kv->type), s->v.u), "llama.cpp says \"key "
		    "%.*s has wrong type %s but expected type u32\"",
		    (int)kv->key.n, kv->key.p,
		    gguf_vtype_llama_name(kv->type));
	*out = (uint32_t)s->v.u;
	return true;
}

/* <arch>.<suffix> as a u32 scalar; false when absent or unusable. */
static bool
geom_u32(struct rd *r, const char *suffix, uint32_t *out)
{
	const struct gguf_kv *kv = arch_kv(r, suffix);

	if (kv == NULL)
		return false;
	if (kv->type == GGUF_ARRAY) {
		diag_note(diag_add(r->dl, "M002", kv->offset, SUBJECT_KEY,
		    kv->key.p, kv->key.n, "an array where llama.cpp reads one "
		    "UINT32: it refuses the file"), "llama.cpp says \"wrong "
		    "type arr but expected type u32\"");
		return false;
	}
	return scalar_u32(r, kv, out);
}

/* An element type llama.cpp's array reader knows, if not for a per-layer
 * key (it names the type then; another, it lists the ones it knows). */
static bool
listed_elem(uint32_t t)
{
	return t == GGUF_FLOAT32 || t == GGUF_STRING || t == GGUF_UINT64;
}

/*
 * A per-layer key (scalar or array of n_layer entries) into v[]; def when
 * absent. Returns false when absent or unusable.
 */
static bool
geom_layers(struct rd *r, const char *suffix, uint32_t *v, uint32_t def)
{
	const struct gguf_kv *kv = arch_kv(r, suffix);
	uint32_t n = r->g->n_layer, i, x = def;
	struct gguf_scalar s;

	for (i = 0; i < n; i++)
		v[i] = def;
	if (kv == NULL)
		return false;
	if (kv->type != GGUF_ARRAY) {
		if (!scalar_u32(r, kv, &x))
			return false;
		for (i = 0; i < n; i++)
			v[i] = x;
		return true;
	}
	if (kv->elem_type != GGUF_INT32 && kv->elem_type != GGUF_UINT32 &&
	    kv->elem_type != GGUF_BOOL) {
		diag_note(diag_add(r->dl, "M002", kv->offset, SUBJECT_KEY,
		    kv->key.p, kv->key.n, "per-layer array of %s; llama.cpp "
		    "accepts only INT32, UINT32 or BOOL elements and refuses "
		    "the file", gguf_vtype_name(kv->elem_type)), "llama.cpp "
		    "says \"%.*s %s%s\"",
		    (int)kv->key.n, kv->key.p, listed_elem(kv->elem_type) ?
		    "has wrong array element type " : "is not a string/"
		    "float32/uint32/int32/uint64 array",
		    listed_elem(kv->elem_type) ?
		    gguf_vtype_llama_name(kv->elem_type) : "");
		return false;
	}
	if (kv->count != n) {
		diag_add(r->dl, "M003", kv->offset, SUBJECT_KEY, kv->key.p,
		    kv->key.n, "per-layer array has %" PRIu64 " entries; "
		    "block_count is %" PRIu32 " (llama.cpp refuses it)",
		    kv->count, n);
		return false;
	}
	for (i = 0; i < n; i++) {
		if (gguf_arr_get(r->f, kv, i, &s) < 0)
			return false;
		v[i] = s.type == GGUF_BOOL ? (s.v.b != 0) :
		    (s.type == GGUF_INT32 && s.v.i < 0) ? 0 : (uint32_t)s.v.u;
	}
	return true;
}

static enum arch_kind
lookup_kind(struct model_geom *g)
{
	const struct arch_info *a = arch_find(g->arch);

	g->row = a;
	g->known = a != NULL && a->kind != ARCH_KIND_UNPLANNED;
	return g->known ? a->kind : ARCH_KIND_ATTN;
}

static bool
read_arch_name(struct rd *r)
{
	const struct gguf_kv *kv = gguf_find_kv(r->f, "general.architecture");

	if (kv == NULL || kv->type != GGUF_STRING) {
		missing(r->g, "%s", "general.architecture");
		return false;
	}
	if (!gguf_find_name(r->f, "general.architecture", r->g->arch,
	    sizeof r->g->arch)) {
		missing(r->g, "%s", "general.architecture (unusable value)");
		return false;
	}
	r->g->has_arch = true;
	return true;
}

/* block_count: 1..512, or llama.cpp aborts (GGML_ASSERT). */
static bool
read_layers(struct rd *r)
{
	struct model_geom *g = r->g;
	const struct gguf_kv *kv = arch_kv(r, "block_count");
	uint32_t nextn = 0;

	if (!geom_u32(r, "block_count", &g->n_layer)) {
		missing(g, "%s.block_count", g->arch);
		return false;
	}
	if (g->n_layer == 0 || g->n_layer > ARCH_MAX_LAYERS) {
		diag_add(r->dl, "M004", kv->offset, SUBJECT_KEY, kv->key.p,
		    kv->key.n, "block_count is %" PRIu32 "; llama.cpp aborts "
		    "unless it is between 1 and %d", g->n_layer,
		    ARCH_MAX_LAYERS);
		missing(g, "%s.block_count (out of range)", g->arch);
		g->n_layer = 0;
		return false;
	}
	if (geom_u32(r, "nextn_predict_layers", &nextn) && nextn < g->n_layer)
		g->n_layer_nextn = nextn;
	return true;
}

static void
read_vocab(struct rd *r)
{
	const struct gguf_kv *kv;
	size_t i;

	if (geom_u32(r, "vocab_size", &r->g->n_vocab))
		return;
	kv = gguf_find_kv(r->f, "tokenizer.ggml.tokens");
	if (kv != NULL && kv->type == GGUF_ARRAY && kv->count <= UINT32_MAX) {
		r->g->n_vocab = (uint32_t)kv->count;
		return;
	}
	for (i = 0; i < r->f->tensors_n; i++) {
		const struct gguf_tensor *t = &r->f->tensors[i];

		if (gguf_str_eq(t->name, "token_embd.weight") &&
		    t->ne[1] > 0 && t->ne[1] <= UINT32_MAX) {
			r->g->n_vocab = (uint32_t)t->ne[1];
			return;
		}
	}
	missing(r->g, "%s", "the vocabulary size");
}

/*
 * The query and KV head counts, per layer; the KV heads default to the
 * query heads, as in llama.cpp. Returns whether head_count was read.
 */
static bool
read_heads(struct rd *r)
{
	struct model_geom *g = r->g;

	g->has_n_head = geom_layers(r, "attention.head_count", g->n_head, 0);
	g->has_n_head_kv = geom_layers(r, "attention.head_count_kv",
	    g->n_head_kv, 0);
	if (!g->has_n_head_kv)
		memcpy(g->n_head_kv, g->n_head, sizeof g->n_head);
	return g->has_n_head;
}

/* The head widths of a model of n_head[0] heads (not 0). */
static void
read_widths(struct rd *r)
{
	struct model_geom *g = r->g;
	uint32_t v;

	g->head_k = g->head_v = g->n_embd / g->n_head[0];
	if (geom_u32(r, "attention.key_length", &v))
		g->head_k = v;
	if (geom_u32(r, "attention.value_length", &v))
		g->head_v = v;
	g->head_k_swa = g->head_k;
	g->head_v_swa = g->head_v;
	if (geom_u32(r, "attention.key_length_swa", &v))
		g->head_k_swa = v;
	if (geom_u32(r, "attention.value_length_swa", &v))
		g->head_v_swa = v;
}

/* Heads and head widths of an attention model. */
static bool
read_attention(struct rd *r)
{
	struct model_geom *g = r->g;

	if (!read_heads(r) || g->n_head[0] == 0) {
		missing(g, "%s.attention.head_count", g->arch);
		return false;
	}
	read_widths(r);
	return true;
}

/* is_swa(il) = (n == 0) || (il % n < n - 1), or with the dense layer
 * first (ARCH_SWA_DENSE_FIRST) il % n != 0; MTP layers never are. */
static void
set_swa_pattern(struct model_geom *g, uint32_t n)
{
	uint32_t il, main = g->n_layer - g->n_layer_nextn;
	bool first = arch_row(g)->quirks & ARCH_SWA_DENSE_FIRST;

	for (il = 0; il < g->n_layer; il++)
		g->is_swa[il] = il < main &&
		    (n == 0 || (first ? il % n != 0 : il % n < n - 1));
}

/* The sliding-window pattern llama.cpp assumes for g's architecture
 * (load_hparams): its row's, else 6. */
static uint32_t
swa_pattern_default(const struct model_geom *g)
{
	uint32_t n = arch_row(g)->swa_pattern;

	return n != 0 ? n : 6;
}

/*
 * The window of kind: SWA_ALWAYS's and SWA_64's default to 4096 (gemma2,
 * exaone4); a chunked one's is 8192 (llama4's chunk) whatever the key
 * says, unless the key says 0 (no chunks); ARCH_SWA_4096's is 4096
 * whatever the key says, unless it says 0.
 */
static uint32_t
swa_window(struct rd *r, enum arch_kind kind)
{
	uint32_t window = 0;
	bool have = geom_u32(r, "attention.sliding_window", &window);

	if ((kind == ARCH_KIND_SWA_ALWAYS || kind == ARCH_KIND_SWA_64) &&
	    !have)
		return 4096;
	if (kind == ARCH_KIND_SWA_CHUNKED)
		return have && window == 0 ? 0 : 8192;
	if (window > 0 && (arch_row(r->g)->quirks & ARCH_SWA_4096))
		return 4096;
	return window;
}

/* The layers with a cache of their own: all but the last
 * attention.shared_kv_layers (gemma4). */
static void
read_kv_shared(struct rd *r)
{
	struct model_geom *g = r->g;
	uint32_t shared = 0;

	if (geom_u32(r, "attention.shared_kv_layers", &shared) && shared > 0 &&
	    shared < g->n_layer)
		g->n_layer_kv = g->n_layer - shared;
}

/* The sliding-window layers as a per-layer array marks them (gemma4). */
static void
swa_layers(struct rd *r)
{
	struct model_geom *g = r->g;
	uint32_t marks[ARCH_MAX_LAYERS], il;

	if (!geom_layers(r, "attention.sliding_window_pattern", marks, 0)) {
		missing(g, "%s.attention.sliding_window_pattern (per layer)",
		    g->arch);
		return;
	}
	for (il = 0; il < g->n_layer - g->n_layer_nextn; il++)
		g->is_swa[il] = marks[il] != 0;
}

static void
read_swa(struct rd *r, enum arch_kind kind)
{
	struct model_geom *g = r->g;
	const struct gguf_kv *pk;
	uint32_t window, pattern = swa_pattern_default(g), il;

	/* phi3: llama.cpp reads the window, then disables SWA; exaone4
	 * has it in its 64 blocks' model alone */
	if (kind == ARCH_KIND_SWA_OFF ||
	    (kind == ARCH_KIND_SWA_64 && g->n_layer - g->n_layer_nextn != 64))
		return;
	if (kind == ARCH_KIND_ATTN) {
		if (geom_u32(r, "attention.sliding_window", &window) &&
		    window > 0 && !g->known)
			missing(g, "the sliding-window layout of '%s'",
			    g->arch);
		return;
	}
	if ((window = swa_window(r, kind)) == 0)
		return;		/* gemma3 without a window: no SWA */
	pk = arch_kv(r, "attention.sliding_window_pattern");
	if (pk != NULL && pk->type != GGUF_ARRAY)
		geom_u32(r, "attention.sliding_window_pattern", &pattern);
	g->swa = true;
	g->n_swa = window;
	set_swa_pattern(g, pattern);
	/* load_swa_pattern reads a per-layer array first (exaone-moe's
	 * files) */
	if ((arch_row(g)->quirks & ARCH_SWA_LAYERS) ||
	    (pk != NULL && pk->type == GGUF_ARRAY))
		swa_layers(r);
	for (il = 0; il < g->n_layer; il++)
		if (g->is_swa[il])
			return;
	diag_add(r->dl, "M004", pk ? pk->offset : 0, SUBJECT_KEY,
	    pk ? pk->key.p : NULL, pk ? pk->key.n : 0, "sliding-window "
	    "pattern %" PRIu32 " leaves no layer with sliding-window "
	    "attention: llama.cpp aborts creating the context", pattern);
	g->swa = false;
}

/* The layers of an encoder (ARCH_MASK_SWA) whose masks have a window,
 * as read_swa would mark them; g->swa stays false: no cache has one. */
static void
read_mask_swa(struct rd *r)
{
	struct model_geom *g = r->g;
	const struct gguf_kv *pk;
	uint32_t window = 0, pattern = swa_pattern_default(g);

	pk = arch_kv(r, "attention.sliding_window_pattern");
	if (!geom_u32(r, "attention.sliding_window", &window) || window == 0)
		return;
	if (pk != NULL && pk->type != GGUF_ARRAY)
		geom_u32(r, "attention.sliding_window_pattern", &pattern);
	set_swa_pattern(g, pattern);
	if (pk != NULL && pk->type == GGUF_ARRAY)
		swa_layers(r);
	g->mask_swa = true;
}

/* MLA: the cache holds one K row of kv_lora_rank + rope width, no V. */
static void
read_mla(struct rd *r)
{
	struct model_geom *g = r->g;
	uint32_t k = 0, v = 0;

	if (geom_u32(r, "attention.key_length_mla", &k) &&
	    geom_u32(r, "attention.value_length_mla", &v) && k > 0 && v > 0)
		g->mla = true;
	geom_u32(r, "attention.kv_lora_rank", &g->kv_lora_rank);
}

/*
 * glm-dsa's indexer layers: attention.indexer.types, a scalar or an array
 * of one entry per trunk layer (llama.cpp refuses another length); by
 * default every layer below a trained context of 1048576, else GLM-5.2's
 * (the first two, then every fourth from the third).
 */
static void
dsa_types(struct rd *r, uint32_t main, bool glm)
{
	struct model_geom *g = r->g;
	const struct gguf_kv *kv = arch_kv(r, "attention.indexer.types");
	struct gguf_scalar s;
	uint32_t il, x;

	for (il = 0; il < main; il++)
		g->indexer[il] = glm && (g->n_ctx_train < 1048576 || il < 2 ||
		    (il - 2) % 4 == 0);
	if (kv != NULL && kv->type != GGUF_ARRAY && scalar_u32(r, kv, &x))
		for (il = 0; il < main; il++)
			g->indexer[il] = x != 0;
	if (kv == NULL || kv->type != GGUF_ARRAY || kv->count != main)
		return;
	for (il = 0; il < main; il++)
		if (gguf_arr_get(r->f, kv, il, &s) == 0)
			g->indexer[il] = s.type == GGUF_BOOL ? s.v.b != 0 :
			    s.v.u != 0;
}

/*
 * MSA (ARCH_MSA, minimax-m3): the indexer's cache of one K head of
 * indexer.key_length and one V head, in every layer from
 * leading_dense_block_count (0 when unset).
 */
static void
read_msa(struct rd *r, uint32_t main)
{
	struct model_geom *g = r->g;
	uint32_t il, lead = 0;

	if (!geom_u32(r, "attention.indexer.key_length", &g->indexer_k))
		missing(g, "%s.attention.indexer.key_length", g->arch);
	geom_u32(r, "leading_dense_block_count", &lead);
	g->indexer_v = true;
	for (il = lead; il < main; il++)
		g->indexer[il] = true;
}

/* hy_v4's first layer without an indexer (by attention.indexer.types,
 * or by its absence): llama.cpp refuses the file, a later layer
 * sharing the choice of an earlier indexer. */
static void
first_indexer(struct rd *r)
{
	const struct gguf_kv *kv = arch_kv(r, "attention.indexer.types");

	if (kv == NULL)
		kv = arch_kv(r, "attention.indexer.top_k");
	if (kv == NULL)
		return;
	diag_add(r->dl, "M004", kv->offset, SUBJECT_KEY, kv->key.p,
	    kv->key.n, "attention.indexer.types gives the first layer no "
	    "indexer: llama.cpp refuses %s's, whose layers without one "
	    "share an earlier one's choice", r->g->arch);
}

/* DSA (ARCH_DSA): the indexer's key cache, in which trunk layers. */
static void
read_dsa(struct rd *r)
{
	struct model_geom *g = r->g;
	uint32_t il, main = g->n_layer - g->n_layer_nextn;
	uint32_t q = arch_row(g)->quirks;

	if (q & ARCH_MSA) {
		read_msa(r, main);
		return;
	}
	if (!(q & ARCH_DSA))
		return;
	if ((q & ARCH_DSA_TOPK) &&
	    (!geom_u32(r, "attention.indexer.top_k", &il) || il == 0))
		return;		/* hy_v4 without an indexer */
	if (!geom_u32(r, "attention.indexer.key_length", &g->indexer_k))
		missing(g, "%s.attention.indexer.key_length", g->arch);
	for (il = 0; il < main; il++)
		g->indexer[il] = true;
	if (q & (ARCH_DSA_TYPES | ARCH_DSA_TOPK))
		dsa_types(r, main, !(q & ARCH_DSA_TOPK));
	if ((q & ARCH_DSA_TOPK) && main > 0 && !g->indexer[0])
		first_indexer(r);
}

/* Whether f has a tensor of that name. */
static bool
has_tensor(const struct gguf_file *f, const char *name)
{
	size_t i;

	for (i = 0; i < f->tensors_n; i++)
		if (gguf_str_eq(f->tensors[i].name, name))
			return true;
	return false;
}

/*
 * DSV4's compression ratios: an array of at least block_count integers
 * (llama.cpp reads the first, and refuses a shorter one), each 0, 4 or
 * 128 (it refuses another where the layer has a compressor).
 */
static bool
dsv4_ratios(struct rd *r)
{
	struct model_geom *g = r->g;
	const struct gguf_kv *kv = arch_kv(r, "attention.compress_ratios");
	struct gguf_scalar s;
	uint32_t il, x;

	if (kv == NULL || kv->type != GGUF_ARRAY) {
		missing(g, "%s.attention.compress_ratios", g->arch);
		return false;
	}
	if (kv->count < g->n_layer) {
		diag_add(r->dl, "M004", kv->offset, SUBJECT_KEY, kv->key.p,
		    kv->key.n, "compress_ratios has %" PRIu64 " entries, fewer "
		    "than block_count (%" PRIu32 "): llama.cpp refuses the "
		    "file", kv->count, g->n_layer);
		return false;
	}
	for (il = 0; il < g->n_layer; il++) {
		if (gguf_arr_get(r->f, kv, il, &s) < 0)
			return false;
		x = s.type == GGUF_INT32 && s.v.i < 0 ? 1 : (uint32_t)s.v.u;
		if (x != 0 && x != 4 && x != 128) {
			diag_add(r->dl, "M004", kv->offset, SUBJECT_KEY,
			    kv->key.p, kv->key.n, "compress_ratios[%" PRIu32
			    "] is %" PRIu32 "; llama.cpp loads 0, 4 and 128 "
			    "alone", il, x);
			return false;
		}
		g->compress[il] = x;
	}
	return true;
}

/*
 * DSV4 (deepseek4): one K row a cell (head_count_kv x key_length, no V)
 * in a window cache of every layer, the MTP layers' too; the blocks past
 * nextn_predict_layers are MTP layers only where the file has the first
 * one's nextn.eh_proj (else llama.cpp loads them as trunk blocks).
 */
static bool
read_dsv4(struct rd *r)
{
	struct model_geom *g = r->g;
	char probe[64];
	uint32_t il;
	bool ok = read_attention(r);

	snprintf(probe, sizeof probe, "blk.%" PRIu32 ".nextn.eh_proj.weight",
	    g->n_layer - g->n_layer_nextn);
	/* a header without tensors (the oracle's generator reads its
	 * metadata back before any) keeps the key's */
	if (g->n_layer_nextn > 0 && r->f->tensors_n > 0 &&
	    !has_tensor(r->f, probe))
		g->n_layer_nextn = 0;
	g->mla = true;
	g->dsv4 = dsv4_ratios(r);
	ok = ok && g->dsv4;
	if (!geom_u32(r, "attention.sliding_window", &g->n_swa)) {
		missing(g, "%s.attention.sliding_window", g->arch);
		ok = false;
	}
	g->swa = true;
	for (il = 0; il < g->n_layer; il++)
		g->is_swa[il] = true;
	if (!geom_u32(r, "attention.indexer.key_length", &g->indexer_k))
		missing(g, "%s.attention.indexer.key_length", g->arch);
	return ok;
}

static bool
read_ssm(struct rd *r)
{
	struct model_geom *g = r->g;
	bool ok = true;

	if (!geom_u32(r, "ssm.conv_kernel", &g->ssm_d_conv) ||
	    g->ssm_d_conv == 0) {
		missing(g, "%s.ssm.conv_kernel", g->arch);
		ok = false;
	}
	if (!geom_u32(r, "ssm.inner_size", &g->ssm_d_inner)) {
		missing(g, "%s.ssm.inner_size", g->arch);
		ok = false;
	}
	if (!geom_u32(r, "ssm.state_size", &g->ssm_d_state)) {
		missing(g, "%s.ssm.state_size", g->arch);
		ok = false;
	}
	geom_u32(r, "ssm.group_count", &g->ssm_n_group);
	return ok;
}

/*
 * A hybrid's recurrent layers, as its row marks them (enum arch_recr);
 * the MTP layers at the end are attention. Called once the feed-forward
 * widths are read.
 */
static void
mark_layers(struct rd *r)
{
	struct model_geom *g = r->g;
	uint32_t il, main = g->n_layer - g->n_layer_nextn, every = 4;
	uint32_t marks[ARCH_MAX_LAYERS];
	enum arch_recr how = arch_row(g)->recr;

	if (how == RECR_INTERVAL8) {
		how = RECR_INTERVAL;
		every = 8;
	}
	if (how == RECR_INTERVAL &&
	    geom_layers(r, "attention.recurrent_layers", marks, 0)) {
		for (il = 0; il < main; il++)
			g->is_recr[il] = marks[il] != 0;
		return;
	}
	if (how == RECR_INTERVAL)
		geom_u32(r, "full_attention_interval", &every);
	g->recr_kv = how == RECR_EVERY;
	for (il = 0; il < main; il++) {
		bool kv0 = g->n_head_kv[il] == 0;

		if (how == RECR_INTERVAL)
			g->is_recr[il] = every == 0 || (il + 1) % every != 0;
		else if (how == RECR_KV0_FF0)
			g->is_recr[il] = kv0 && g->n_ff[il] == 0;
		else
			g->is_recr[il] = how == RECR_EVERY || kv0;
	}
}

/*
 * QSA (ARCH_QSA): the indexer's keys, one head of
 * attention.indexer.key_length (llama.cpp requires it, not 0), cached
 * in each of a hybrid's attention layers, as its K is.
 */
static void
read_qsa(struct rd *r)
{
	struct model_geom *g = r->g;
	uint32_t il, main = g->n_layer - g->n_layer_nextn;

	if (!geom_u32(r, "attention.indexer.key_length", &g->indexer_k) ||
	    g->indexer_k == 0) {
		missing(g, "%s.attention.indexer.key_length", g->arch);
		g->indexer_k = 0;
		return;
	}
	for (il = 0; il < main && il < ARCH_MAX_LAYERS; il++)
		g->indexer[il] = !g->is_recr[il];
}

/* A hybrid's recurrent layers (mark_layers), then what depends on
 * them. */
static void
mark_recurrent(struct rd *r)
{
	mark_layers(r);
	if (arch_row(r->g)->quirks & ARCH_QSA)
		read_qsa(r);
}

/* KDA (kimi-linear): the head width of its delta attention. */
static bool
read_kda(struct rd *r)
{
	struct model_geom *g = r->g;

	if (!geom_u32(r, "kda.head_dim", &g->kda_head_dim) ||
	    g->kda_head_dim == 0) {
		missing(g, "%s.kda.head_dim", g->arch);
		return false;
	}
	if (!geom_u32(r, "ssm.conv_kernel", &g->ssm_d_conv))
		missing(g, "%s.ssm.conv_kernel", g->arch);
	read_mla(r);	/* its attention layers' */
	return true;
}

/* RWKV (rwkv6, rwkv7): its wkv heads' width (required) and its token
 * shifts (2 where unset, as llama.cpp's default). */
static bool
read_rwkv(struct rd *r)
{
	struct model_geom *g = r->g;

	if (!geom_u32(r, "wkv.head_size", &g->wkv_head_size) ||
	    g->wkv_head_size == 0) {
		missing(g, "%s.wkv.head_size", g->arch);
		return false;
	}
	if (!geom_u32(r, "token_shift_count", &g->token_shift_count))
		g->token_shift_count = 2;
	return true;
}

/*
 * A hybrid: attention layers and recurrent ones (mamba2's state, lfm2's
 * short convolution, KDA's); a window makes every attention layer a
 * sliding-window one (lfm2).
 */
static bool
read_hybrid(struct rd *r, enum arch_kind kind)
{
	struct model_geom *g = r->g;
	uint32_t il, main = g->n_layer - g->n_layer_nextn, window = 0;
	bool ok = read_attention(r);

	for (il = 0; il < main; il++)
		g->is_recr[il] = g->n_head_kv[il] == 0;
	if (kind == ARCH_KIND_HYBRID_SSM) {
		ok = read_ssm(r) && ok;
	} else if (kind == ARCH_KIND_HYBRID_KDA) {
		ok = read_kda(r) && ok;
	} else if (kind == ARCH_KIND_HYBRID_LA) {
		g->la_head_dim = g->head_k;	/* its state's squares */
	} else if (!geom_u32(r, "shortconv.l_cache",
	    &g->shortconv_l_cache) || g->shortconv_l_cache == 0) {
		missing(g, "%s.shortconv.l_cache", g->arch);
		ok = false;
	}
	if (kind == ARCH_KIND_HYBRID_CONV &&
	    geom_u32(r, "attention.sliding_window", &window) && window > 0) {
		g->swa = true;
		g->n_swa = window;
		for (il = 0; il < main; il++)
			g->is_swa[il] = !g->is_recr[il];
	}
	return ok;
}

/*
 * graniteswitch's router: llama.cpp appends a layer to the blocks, of
 * one query and one KV head and no FFN, and counts it as the one MTP
 * layer (n_layer_nextn 1), though it is no MTP layer: the trunk attends
 * its cache. Read once the per-layer keys are, whose arrays are of
 * block_count entries.
 */
static void
add_router(struct model_geom *g)
{
	uint32_t il = g->n_layer;

	if (il == 0 || il >= ARCH_MAX_LAYERS)
		return;
	g->n_layer = il + 1;
	g->n_layer_nextn = 1;
	g->n_head[il] = g->n_head_kv[il] = 1;
	g->n_ff[il] = 0;
	g->router_kv = true;
}

/*
 * nanbeige's loops: llama.cpp runs the blocks num_loops times over, each
 * pass's layers layers of their own (a cache each, counted by -ngl), the
 * per-layer keys and the weights the block's. No pass, or more than 512
 * layers in all, and it aborts.
 */
static void
add_loops(struct rd *r)
{
	struct model_geom *g = r->g;
	const struct gguf_kv *kv = arch_kv(r, "num_loops");
	uint32_t loops = 1, n = g->n_layer, il;

	if (!geom_u32(r, "num_loops", &loops) || loops == 1 || n == 0)
		return;
	if (loops == 0 || (uint64_t)n * loops > ARCH_MAX_LAYERS) {
		diag_add(r->dl, "M004", kv->offset, SUBJECT_KEY, kv->key.p,
		    kv->key.n, "num_loops is %" PRIu32 " (%" PRIu64
		    " layers of block_count %" PRIu32 "); llama.cpp aborts "
		    "unless it is at least 1 and the layers at most %d",
		    loops, (uint64_t)n * loops, n, ARCH_MAX_LAYERS);
		return;
	}
	for (il = n; il < n * loops; il++) {
		g->n_head[il] = g->n_head[il % n];
		g->n_head_kv[il] = g->n_head_kv[il % n];
		g->n_ff[il] = g->n_ff[il % n];
		g->is_swa[il] = g->is_swa[il % n];
		g->is_recr[il] = g->is_recr[il % n];
	}
	g->n_layer = n * loops;
	g->n_loops = loops;
}

/*
 * hrm_text's passes: llama.cpp asserts that the trunk's layers are every
 * pass's, hrm.layers_per_stack x h_cycles x (l_cycles + 1), each of
 * them at least 1 (M004 where the keys are there and they are not).
 */
static void
check_hrm(struct rd *r)
{
	const struct model_geom *g = r->g;
	const struct gguf_kv *kv = arch_kv(r, "block_count");
	uint32_t lps, h, l;
	uint64_t n;

	if (kv == NULL || !geom_u32(r, "hrm.layers_per_stack", &lps) ||
	    !geom_u32(r, "hrm.h_cycles", &h) ||
	    !geom_u32(r, "hrm.l_cycles", &l))
		return;
	n = (uint64_t)lps * h * ((uint64_t)l + 1);
	if (lps > 0 && h > 0 && l > 0 && n == g->n_layer - g->n_layer_nextn)
		return;
	diag_add(r->dl, "M004", kv->offset, SUBJECT_KEY, kv->key.p,
	    kv->key.n, "block_count is %" PRIu32 " (less %" PRIu32 " MTP "
	    "layers), but hrm.layers_per_stack x h_cycles x (l_cycles + 1) "
	    "is %" PRIu64 " (%" PRIu32 ", %" PRIu32 ", %" PRIu32 "): "
	    "llama.cpp aborts unless they are equal and each at least 1",
	    g->n_layer, g->n_layer_nextn, n, lps, h, l);
}

void
arch_read(const struct gguf_file *f, struct model_geom *g,
    struct diag_list *dl)
{
	struct rd r = { f, g, dl };
	const struct gguf_kv *kv;
	enum arch_kind kind;

	memset(g, 0, sizeof *g);
	if (!read_arch_name(&r))
		return;
	kind = lookup_kind(g);
	if (!g->known && g->row != NULL && g->row->unmeasured != NULL)
		missing(g, "a memory model for architecture '%s', %s "
		    "(planned as standard attention)", g->arch,
		    g->row->unmeasured);
	else if (!g->known)
		missing(g, "a memory model for architecture '%s' (planned "
		    "as standard attention)", g->arch);
	if (!read_layers(&r))
		return;
	if (!geom_u32(&r, "embedding_length", &g->n_embd) || g->n_embd == 0) {
		missing(g, "%s.embedding_length", g->arch);
		return;
	}
	if (geom_u32(&r, "context_length", &g->n_ctx_train) &&
	    (kv = arch_kv(&r, "context_length")) != NULL)
		g->ctx_key_offset = kv->offset;
	else
		missing(g, "%s.context_length", g->arch);
	read_vocab(&r);
	switch (kind) {
	case ARCH_KIND_ENCODER:
		g->memory = ARCH_MEM_NONE;
		/* a diffusion LM's heads may be wider than n_embd's share */
		if (read_heads(&r) && g->n_head[0] != 0)
			read_widths(&r);
		if (arch_row(g)->quirks & ARCH_MASK_SWA)
			read_mask_swa(&r);
		g->plannable = true;
		break;
	case ARCH_KIND_MAMBA:
		g->memory = ARCH_MEM_RECURRENT;
		g->plannable = read_ssm(&r);
		return;		/* no attention, no FFN keys */
	case ARCH_KIND_RWKV:
		g->memory = ARCH_MEM_RECURRENT;
		g->plannable = read_rwkv(&r);
		break;		/* no attention; the FFN's width */
	case ARCH_KIND_DSV4:
		g->plannable = read_dsv4(&r);
		break;
	case ARCH_KIND_HYBRID_SSM:
	case ARCH_KIND_HYBRID_CONV:
	case ARCH_KIND_HYBRID_KDA:
	case ARCH_KIND_HYBRID_LA:
		g->memory = ARCH_MEM_HYBRID;
		g->plannable = read_hybrid(&r, kind);
		break;
	default:
		g->plannable = read_attention(&r);
		if (kind == ARCH_KIND_MLA)
			read_mla(&r);
		read_dsa(&r);
		g->n_layer_kv = arch_row(g)->kv_layers;
		if (arch_row(g)->quirks & ARCH_KV_SHARED)
			read_kv_shared(&r);
		read_swa(&r, kind);
		break;
	}
	if (!geom_layers(&r, "feed_forward_length", g->n_ff, 4 * g->n_embd))
		missing(g, "%s.feed_forward_length (4 x embedding_length "
		    "assumed)", g->arch);
	if (g->memory == ARCH_MEM_HYBRID)
		mark_recurrent(&r);
	if (arch_row(g)->quirks & ARCH_ROUTER_KV)
		add_router(g);
	if (arch_row(g)->quirks & ARCH_LOOPS)
		add_loops(&r);
	if (arch_row(g)->quirks & ARCH_HRM)
		check_hrm(&r);
}

uint32_t
arch_blocks(const struct model_geom *g)
{
	return (g->n_layer - (g->router_kv ? 1 : 0)) /
	    (g->n_loops > 1 ? g->n_loops : 1);
}
