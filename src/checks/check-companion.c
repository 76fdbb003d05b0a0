/*
 * check-companion.c - the checks of a file whose role (facts/role.h) is a
 * companion of a model, as llama.cpp v0.5.0 loads it: a multimodal
 * projector (clip_model_loader of tools/mtmd: M023, M024), a LoRA adapter
 * (llama_adapter_lora_init: M025-M029), a control vector
 * (common_control_vector_load: M031), and, given its base model
 * (--lora, --control-vector), the adapter against the base (M030, M032).
 * A companion linted alone gets P010, which says what is planned; a draft
 * model (--draft) is a model, whose vocabulary must be the model's (P011).
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/strset.h"
#include "base/units.h"
#include "base/util.h"
#include "checks/checks.h"

/* A key the file must hold, of this type (the loader reads it as one). */
static const struct gguf_kv *
need_key(const struct check_ctx *c, struct diag_list *dl, const char *key,
    uint32_t type, const char *why)
{
	const struct gguf_kv *kv = gguf_find_kv(c->file, key);

	if (kv == NULL) {
		diag_fix(diag_note(diag_add(dl, "M023", 0, SUBJECT_KEY, key,
		    strlen(key), "%s is missing: llama.cpp requires it %s",
		    key, why), "llama.cpp's projector loader (tools/mtmd) "
		    "refuses the file without it"), "set %s (%s), or convert "
		    "the projector again (convert_hf_to_gguf.py --mmproj)",
		    key, gguf_vtype_name(type));
		return NULL;
	}
	if (kv->type != type) {
		diag_fix(diag_note(diag_add(dl, "M023", kv->offset,
		    SUBJECT_KEY, key, strlen(key), "%s is %s, not %s: "
		    "llama.cpp aborts", key, gguf_vtype_name(kv->type),
		    gguf_vtype_name(type)), "llama.cpp's projector loader "
		    "(tools/mtmd) reads it as %s, and ggml aborts on a key of "
		    "another type", gguf_vtype_name(type)), "store %s as %s",
		    key, gguf_vtype_name(type));
		return NULL;
	}
	return kv;
}

/* A bool key that is present and true. */
static bool
flag(const struct gguf_file *f, const char *key)
{
	const struct gguf_kv *kv = gguf_find_kv(f, key);

	return kv != NULL && kv->type == GGUF_BOOL && kv->val.v.b != 0;
}

/* The keys one encoder (vision or audio) of a projector needs. */
static void
mmproj_encoder(const struct check_ctx *c, struct diag_list *dl,
    const char *m)
{
	static const char *const u32s[] = { "embedding_length",
		"attention.head_count", "feed_forward_length", "block_count",
		"projection_dim" };
	char key[96], why[64], alt[96];
	size_t i;

	snprintf(why, sizeof why, "for its %s encoder", m);
	snprintf(alt, sizeof alt, "clip.%s.projector_type", m);
	if (gguf_find_kv(c->file, "clip.projector_type") == NULL &&
	    gguf_find_kv(c->file, alt) == NULL)
		diag_fix(diag_note(diag_add(dl, "M023", 0, SUBJECT_KEY,
		    "clip.projector_type", 19, "neither clip.projector_type "
		    "nor %s is present", alt), "llama.cpp's projector loader "
		    "cannot tell the %s projector's type (\"unknown projector "
		    "type\")", m), "set clip.projector_type (or %s) to the "
		    "projector's type, or convert the projector again", alt);
	for (i = 0; i < sizeof u32s / sizeof u32s[0]; i++) {
		snprintf(key, sizeof key, "clip.%s.%s", m, u32s[i]);
		need_key(c, dl, key, GGUF_UINT32, why);
	}
	snprintf(key, sizeof key, "clip.%s.attention.layer_norm_epsilon", m);
	need_key(c, dl, key, GGUF_FLOAT32, why);
	if (strcmp(m, "vision") == 0) {
		need_key(c, dl, "clip.vision.image_size", GGUF_UINT32, why);
		need_key(c, dl, "clip.vision.patch_size", GGUF_UINT32, why);
	} else {
		need_key(c, dl, "clip.audio.num_mel_bins", GGUF_UINT32, why);
	}
}

/* M023, M024: a projector's keys. */
static void
check_mmproj(const struct check_ctx *c, struct diag_list *dl)
{
	bool vision = flag(c->file, "clip.has_vision_encoder");
	bool audio = flag(c->file, "clip.has_audio_encoder");

	if (!vision && !audio) {
		diag_note(diag_add(dl, "M024", 0, SUBJECT_NONE, NULL, 0,
		    "neither clip.has_vision_encoder nor "
		    "clip.has_audio_encoder is true: no encoder to load"),
		    "llama.cpp's projector loader loads no encoder, and mtmd "
		    "fails");
		return;
	}
	if (vision)
		mmproj_encoder(c, dl, "vision");
	if (audio)
		mmproj_encoder(c, dl, "audio");
}

/* The tensor's name ends with suffix. */
static bool
ends(struct gguf_str s, const char *suffix)
{
	size_t n = strlen(suffix);

	return s.n >= n && memcmp(s.p + s.n - n, suffix, n) == 0;
}

/* Key k's offset and a diagnostic on it, or on the file when absent;
 * returns diag_add's. */
static struct diag *
on_key(const struct check_ctx *c, struct diag_list *dl, const char *code,
    const char *k, const char *msg)
{
	const struct gguf_kv *kv = gguf_find_kv(c->file, k);

	return diag_add(dl, code, kv != NULL ? kv->offset : 0, SUBJECT_KEY, k,
	    strlen(k), "%s", msg);
}

/* The string value of key as "'VALUE'" (at most 64 bytes) in buf, or
 * "missing". */
static const char *
quoted(const struct gguf_file *f, const char *key, char *buf, size_t n)
{
	const struct gguf_kv *kv = gguf_find_kv(f, key);

	if (kv == NULL)
		return "missing";
	if (kv->type != GGUF_STRING)
		snprintf(buf, n, "of type %s", gguf_vtype_name(kv->type));
	else
		snprintf(buf, n, "'%.*s'", (int)(kv->val.v.s.n > 64 ? 64 :
		    kv->val.v.s.n), kv->val.v.s.p);
	return buf;
}

/* M025: what llama.cpp's adapter loader asks of general.type and
 * adapter.type. Returns whether they are a LoRA's. */
static bool
lora_type(const struct check_ctx *c, struct diag_list *dl)
{
	bool adapter = c->role == ROLE_ADAPTER;
	const char *key = adapter ? "adapter.type" : "general.type";
	const char *want = adapter ? "lora" : "adapter";
	char msg[320], val[96];

	if (c->role == ROLE_LORA)
		return true;
	snprintf(msg, sizeof msg, "%s is %s: llama.cpp loads only %s '%s' "
	    "and refuses the adapter", key, quoted(c->file, key, val,
	    sizeof val), key, want);
	diag_note(on_key(c, dl, "M025", key, msg), "llama.cpp says \"expect "
	    "%s to be '%s'\"", key, want);
	return false;
}

/* M029: adapter.lora.alpha (M002 when of another type). */
static void
lora_alpha(const struct check_ctx *c, struct diag_list *dl)
{
	const struct gguf_kv *kv = gguf_find_kv(c->file, "adapter.lora.alpha");

	if (kv == NULL)
		diag_note(diag_add(dl, "M029", 0, SUBJECT_KEY,
		    "adapter.lora.alpha", 18, "adapter.lora.alpha is missing: "
		    "llama.cpp applies the adapter unscaled"), "llama.cpp "
		    "reads it as 0 and does not scale the adapter by "
		    "alpha/rank");
	else if (kv->type != GGUF_FLOAT32)
		diag_fix(diag_note(diag_add(dl, "M002", kv->offset,
		    SUBJECT_KEY, kv->key.p, (size_t)kv->key.n,
		    "adapter.lora.alpha is %s, not FLOAT32: llama.cpp aborts",
		    gguf_vtype_name(kv->type)), "llama.cpp's adapter loader "
		    "reads it as FLOAT32 and aborts on any other type"),
		    "store adapter.lora.alpha as FLOAT32");
}

/* One adapted tensor: its a and b (indices, or SIZE_MAX). */
struct lora_pair {
	struct gguf_str base;		/* X of X.lora_a */
	size_t a, b;
};

/* The pairs of the file's tensors into *pp (xcalloc'd); M026 for a
 * tensor of another suffix. Returns how many. */
static size_t
lora_pairs(const struct check_ctx *c, struct diag_list *dl,
    struct lora_pair **pp)
{
	const struct gguf_file *f = c->file;
	struct lora_pair *p = xcalloc(f->tensors_n + 1, sizeof *p);
	struct strset set;
	size_t i, n = 0, k;

	strset_init(&set);
	strset_reserve(&set, f->tensors_n);
	for (i = 0; i < f->tensors_n; i++) {
		struct gguf_str name = f->tensors[i].name;
		bool a = ends(name, ".lora_a"), b = ends(name, ".lora_b");

		if (!a && !b) {
			if (!ends(name, "_norm.weight"))
				diag_note(diag_add(dl, "M026",
				    f->tensors[i].offset_info, SUBJECT_TENSOR,
				    name.p, (size_t)name.n, "the name ends "
				    "neither in .lora_a nor in .lora_b: "
				    "llama.cpp refuses the adapter"),
				    "llama.cpp pairs a LoRA's tensors by these "
				    "suffixes, skips _norm.weight and refuses "
				    "any other (\"unexpected suffix\")");
			continue;
		}
		name.n -= 7;
		if (strset_insert(&set, name.p, (size_t)name.n, n, &k) == 0) {
			k = n++;
			p[k].base = name;
			p[k].a = p[k].b = SIZE_MAX;
		}
		if (a)
			p[k].a = i;
		else
			p[k].b = i;
	}
	strset_free(&set);
	*pp = p;
	return n;
}

/* M027, M028: each pair complete, its rank the same in a and b. */
static bool
lora_pair_ok(const struct check_ctx *c, struct diag_list *dl,
    const struct lora_pair *p)
{
	const struct gguf_tensor *t = c->file->tensors, *a, *b;
	size_t have = p->a != SIZE_MAX ? p->a : p->b;

	if (p->a == SIZE_MAX || p->b == SIZE_MAX) {
		diag_note(diag_add(dl, "M027", t[have].offset_info,
		    SUBJECT_TENSOR, t[have].name.p, (size_t)t[have].name.n,
		    "%.*s has a %s but no %s: llama.cpp refuses the adapter",
		    (int)p->base.n, p->base.p, p->a == SIZE_MAX ? "lora_b" :
		    "lora_a", p->a == SIZE_MAX ? "lora_a" : "lora_b"),
		    "an adapted tensor needs both halves of the low-rank "
		    "product (\"missing one component\")");
		return false;
	}
	a = &t[p->a];
	b = &t[p->b];
	if (ends(p->base, "token_embd.weight") || a->ne[1] == b->ne[0])
		return true;
	diag_note(diag_add(dl, "M028", a->offset_info, SUBJECT_TENSOR,
	    a->name.p, (size_t)a->name.n, "lora_a is [%" PRId64 ", %" PRId64
	    "] and lora_b [%" PRId64 ", %" PRId64 "]: the ranks differ",
	    a->ne[0], a->ne[1], b->ne[0], b->ne[1]), "the rank (lora_a's "
	    "second dimension) must be lora_b's first; llama.cpp refuses "
	    "the adapter (\"lora_a tensor is not transposed\")");
	return false;
}

/* The base model's tensors by name (values: the index among all the
 * files' tensors, in order). */
static void
base_index(const struct companion_base *b, struct strset *set)
{
	size_t k, i, n = 0;

	strset_init(set);
	for (k = 0; k < b->n; k++)
		for (i = 0; i < b->files[k]->tensors_n; i++)
			strset_insert(set, b->files[k]->tensors[i].name.p,
			    (size_t)b->files[k]->tensors[i].name.n, n++, NULL);
}

/* The base's tensor named name, or NULL. */
static const struct gguf_tensor *
base_find(const struct companion_base *b, struct strset *set,
    struct gguf_str name)
{
	size_t v, k;

	if (strset_insert(set, name.p, (size_t)name.n, SIZE_MAX, &v) == 0 ||
	    v == SIZE_MAX)
		return NULL;	/* added now, with SIZE_MAX: not the base's */
	for (k = 0; k < b->n && v >= b->files[k]->tensors_n; k++)
		v -= b->files[k]->tensors_n;
	return k < b->n ? &b->files[k]->tensors[v] : NULL;
}

/* M030: the pair p against the base's tensor of its name. */
static void
lora_against(const struct check_ctx *c, struct diag_list *dl,
    struct strset *set, const struct lora_pair *p)
{
	const struct gguf_tensor *a = &c->file->tensors[p->a];
	const struct gguf_tensor *b = &c->file->tensors[p->b];
	const struct gguf_tensor *w = base_find(c->base, set, p->base);
	bool emb = ends(p->base, "token_embd.weight");

	if (w == NULL) {
		diag_note(diag_add(dl, "M030", a->offset_info,
		    SUBJECT_TENSOR, a->name.p, (size_t)a->name.n, "the base "
		    "model has no tensor %.*s: llama.cpp refuses the adapter",
		    (int)p->base.n, p->base.p), "llama.cpp says \"does not "
		    "exist in base model\"");
		return;
	}
	if (emb ? w->ne[0] == b->ne[1] && w->ne[1] == a->ne[1] :
	    w->ne[0] == a->ne[0] && w->ne[1] == b->ne[1])
		return;
	diag_note(diag_add(dl, "M030", a->offset_info, SUBJECT_TENSOR,
	    a->name.p, (size_t)a->name.n, "lora_a [%" PRId64 ", %" PRId64
	    "] and lora_b [%" PRId64 ", %" PRId64 "] do not fit the base's [%"
	    PRId64 ", %" PRId64 "]", a->ne[0], a->ne[1], b->ne[0], b->ne[1],
	    w->ne[0], w->ne[1]), "for %.*s llama.cpp wants %s, and refuses "
	    "the adapter (\"incorrect shape\")", (int)p->base.n, p->base.p,
	    emb ? "lora_b's second dimension the base's first and lora_a's "
	    "second the base's second" : "lora_a's first dimension the "
	    "base's first and lora_b's second the base's second");
}

/* M030: the adapter's general.architecture against the base's. */
static void
same_arch(const struct check_ctx *c, struct diag_list *dl, const char *who)
{
	char arch[64], msg[400];

	if (c->base->geom == NULL)
		return;
	if (!gguf_find_name(c->file, "general.architecture", arch,
	    sizeof arch))
		arch[0] = '\0';
	if (strcmp(arch, c->base->geom->arch) == 0)
		return;
	snprintf(msg, sizeof msg, "the %s's architecture is '%s', the base "
	    "model's '%s': llama.cpp refuses it", who, arch,
	    c->base->geom->arch);
	diag_note(on_key(c, dl, "M030", "general.architecture", msg),
	    "llama.cpp says \"model arch and LoRA arch mismatch\"");
}

/* M025-M030: a LoRA, alone or against its base. */
static void
check_lora(const struct check_ctx *c, struct diag_list *dl)
{
	bool against = c->base != NULL && c->base->n > 0;
	struct lora_pair *p;
	struct strset set;
	size_t i, n;

	if (!lora_type(c, dl) && c->given != COMPANION_LORA)
		return;		/* an adapter of another type: not paired */
	lora_alpha(c, dl);
	if (against)
		same_arch(c, dl, "LoRA");
	n = lora_pairs(c, dl, &p);
	if (against)
		base_index(c->base, &set);
	for (i = 0; i < n; i++)
		if (lora_pair_ok(c, dl, &p[i]) && against)
			lora_against(c, dl, &set, &p[i]);
	if (against)
		strset_free(&set);
	free(p);
}

/* M031 about tensor t. */
static void
direction_bad(struct diag_list *dl, const struct gguf_tensor *t,
    const char *what)
{
	diag_note(diag_add(dl, "M031", t->offset_info, SUBJECT_TENSOR,
	    t->name.p, (size_t)t->name.n, "%s: llama.cpp skips the control "
	    "vector", what), "a control vector holds one 1-D F32 tensor per "
	    "layer, direction.N (N from 1), all of one width; llama.cpp "
	    "skips any other file (\"invalid direction tensors\")");
}

/* M030, M032: a direction of width n at layer l against the base. */
static void
direction_against(const struct check_ctx *c, struct diag_list *dl,
    const struct gguf_tensor *t, int64_t l)
{
	const struct model_geom *g = c->base->geom;

	if (g == NULL || g->n_embd == 0)
		return;
	if (t->ne[0] != (int64_t)g->n_embd)
		diag_note(diag_add(dl, "M030", t->offset_info,
		    SUBJECT_TENSOR, t->name.p, (size_t)t->name.n, "the "
		    "direction is %" PRId64 " wide, the base model's "
		    "embedding %" PRIu32 ": llama.cpp refuses the control "
		    "vector", t->ne[0], g->n_embd), "llama.cpp says "
		    "\"control vector n_embd does not match model\"");
	else if (g->n_layer > 0 && l >= (int64_t)g->n_layer)
		diag_note(diag_add(dl, "M032", t->offset_info,
		    SUBJECT_TENSOR, t->name.p, (size_t)t->name.n, "layer %"
		    PRId64 " is beyond the base model's %" PRIu32 " layers: "
		    "this direction is ignored", l, g->n_layer),
		    "llama.cpp applies directions to layers 1 to %" PRIu32
		    " only", g->n_layer - 1);
}

/* M031, and against a base M030/M032: a control vector's directions. */
static void
check_cvec(const struct check_ctx *c, struct diag_list *dl)
{
	const struct gguf_file *f = c->file;
	int64_t width = -1, l;
	size_t i;

	for (i = 0; i < f->tensors_n; i++) {
		const struct gguf_tensor *t = &f->tensors[i];

		if ((l = role_direction_layer(t->name)) < 0) {
			direction_bad(dl, t, "not named direction.N (N a "
			    "layer from 1)");
			return;
		}
		if (t->type != 0 || t->n_dims != 1) {
			direction_bad(dl, t, "not a 1-D F32 tensor");
			return;
		}
		if (width >= 0 && t->ne[0] != width) {
			direction_bad(dl, t, "not as wide as the directions "
			    "before it");
			return;
		}
		width = t->ne[0];
		if (c->base != NULL)
			direction_against(c, dl, t, l);
	}
}

/* A bool key's value into *v; false when absent or not a bool. */
static bool
bool_key(const struct gguf_file *f, const char *key, bool *v)
{
	const struct gguf_kv *kv = gguf_find_kv(f, key);

	if (kv == NULL || kv->type != GGUF_BOOL)
		return false;
	*v = kv->val.v.b != 0;
	return true;
}

/* The special token (add key, id key) agrees in d and t, when both files
 * say it (llama.cpp's defaults are not guessed). */
static bool
same_special(const struct gguf_file *d, const struct gguf_file *t,
    const char *add, const char *id)
{
	bool ad, at;
	int64_t vd, vt;

	if (!bool_key(d, add, &ad) || !bool_key(t, add, &at))
		return true;
	if (ad != at)
		return false;
	if (!ad || !gguf_find_int(d, id, &vd) || !gguf_find_int(t, id, &vt))
		return true;
	return vd == vt;
}

/* The first token from id 5 whose text differs in a and b, or -1. */
static int64_t
token_differs(const struct gguf_file *fa, const struct gguf_kv *a,
    const struct gguf_file *fb, const struct gguf_kv *b)
{
	struct gguf_arr_iter ia, ib;
	struct gguf_str sa, sb;
	int64_t i;

	gguf_arr_iter_init(&ia, fa, a);
	gguf_arr_iter_init(&ib, fb, b);
	for (i = 0; gguf_arr_next_str(&ia, &sa) &&
	    gguf_arr_next_str(&ib, &sb); i++)
		if (i >= 5 && (sa.n != sb.n || memcmp(sa.p, sb.p, sa.n) != 0))
			return i;
	return -1;
}

/* P011: a draft whose vocabulary llama.cpp finds incompatible with the
 * model's (common_speculative_are_compatible). */
static void
check_draft(const struct check_ctx *c, struct diag_list *dl)
{
	const struct gguf_file *d = c->file, *t = c->base->files[0];
	const struct gguf_kv *kd = gguf_find_kv(d, "tokenizer.ggml.tokens");
	const struct gguf_kv *kt = gguf_find_kv(t, "tokenizer.ggml.tokens");
	char md[64], mt[64], why[200] = "";
	int64_t i;

	if (!gguf_find_name(d, "tokenizer.ggml.model", md, sizeof md) ||
	    !gguf_find_name(t, "tokenizer.ggml.model", mt, sizeof mt) ||
	    kd == NULL || kt == NULL)
		return;
	if (strcmp(md, mt) != 0)
		snprintf(why, sizeof why, "its tokenizer is '%s', the model's "
		    "'%s'", md, mt);
	else if (!same_special(d, t, "tokenizer.ggml.add_bos_token",
	    "tokenizer.ggml.bos_token_id"))
		snprintf(why, sizeof why, "its BOS token differs");
	else if (!same_special(d, t, "tokenizer.ggml.add_eos_token",
	    "tokenizer.ggml.eos_token_id"))
		snprintf(why, sizeof why, "its EOS token differs");
	else if ((kd->count > kt->count ? kd->count - kt->count :
	    kt->count - kd->count) > 128)
		snprintf(why, sizeof why, "it has %" PRIu64 " tokens, the "
		    "model %" PRIu64, kd->count, kt->count);
	else if ((i = token_differs(d, kd, t, kt)) >= 0)
		snprintf(why, sizeof why, "token %" PRId64 " differs", i);
	if (why[0] != '\0')
		diag_note(diag_add(dl, "P011", kd->offset, SUBJECT_KEY,
		    kd->key.p, (size_t)kd->key.n, "the draft model's "
		    "vocabulary is not the model's: %s", why), "llama.cpp "
		    "wants the same tokenizer, BOS and EOS, at most 128 tokens "
		    "more or fewer and the same text from token 5, and refuses "
		    "speculative decoding with it (\"vocabs are not "
		    "compatible\")");
}

/* P010: a companion (or an importance matrix) linted alone, with a
 * profile: what is planned of it. */
static void
alone(const struct check_ctx *c, struct diag_list *dl)
{
	const struct gguf_file *f = c->file;
	uint64_t bytes = 0;
	char sz[32];
	size_t i;

	for (i = 0; i < f->tensors_n; i++)
		if (f->tensors[i].size_ok &&
		    u64_add_overflow(bytes, f->tensors[i].nbytes, &bytes))
			bytes = UINT64_MAX;
	format_size(bytes, sz, sizeof sz);
	if (c->role == ROLE_IMATRIX) {
		diag_fix(diag_add(dl, "P010", 0, SUBJECT_NONE, NULL, 0, "an "
		    "importance matrix (%s): read by llama-quantize, never "
		    "loaded for inference", sz), "nothing: there is nothing "
		    "to plan (llama-quantize --imatrix reads it)");
		return;
	}
	diag_fix(diag_note(diag_add(dl, "P010", 0, SUBJECT_NONE, NULL, 0,
	    "a companion file (%s, %s of weights): planned only beside its "
	    "model", role_name(c->role), sz), "llama.cpp loads it only "
	    "beside a model, never alone"), "plan it with its model: "
	    "gguflint MODEL %s%s", c->role == ROLE_MMPROJ ? "--mmproj " :
	    c->role == ROLE_CVEC ? "--control-vector " : "--lora ",
	    c->file->path);
}

bool
check_companion_file(const struct check_ctx *c)
{
	return role_companion(c->role) || (c->given != COMPANION_NONE &&
	    c->given != COMPANION_DRAFT);
}

void
check_companion(const struct check_ctx *c, struct diag_list *dl)
{
	enum companion_kind k = c->given;

	if (k == COMPANION_NONE)
		k = c->role == ROLE_MMPROJ ? COMPANION_MMPROJ :
		    c->role == ROLE_CVEC ? COMPANION_CVEC :
		    c->role == ROLE_LORA || c->role == ROLE_ADAPTER ?
		    COMPANION_LORA : COMPANION_NONE;
	if (k == COMPANION_MMPROJ)
		check_mmproj(c, dl);
	else if (k == COMPANION_LORA)
		check_lora(c, dl);
	else if (k == COMPANION_CVEC)
		check_cvec(c, dl);
	else if (k == COMPANION_DRAFT && c->base != NULL && c->base->n > 0)
		check_draft(c, dl);
	if (c->base == NULL && c->profile != NULL &&
	    (role_companion(c->role) || c->role == ROLE_IMATRIX))
		alone(c, dl);
}
