/*
 * role.c - a file's role from general.type and general.architecture (see
 * role.h). The names are those of gguf-py's GGUFType and of the files
 * llama.cpp v0.5.0's tools write.
 */
#include "config.h"

#include <string.h>

#include "facts/role.h"

/* The string value of key in *out, when it is a string. */
static bool
key_str(const struct gguf_file *f, const char *key, struct gguf_str *out)
{
	const struct gguf_kv *kv = gguf_find_kv(f, key);

	if (kv == NULL || kv->type != GGUF_STRING)
		return false;
	*out = kv->val.v.s;
	return true;
}

static enum file_role
adapter_role(const struct gguf_file *f)
{
	struct gguf_str t;

	if (!key_str(f, "adapter.type", &t))
		return ROLE_ADAPTER;
	if (gguf_str_eq(t, "lora"))
		return ROLE_LORA;
	if (gguf_str_eq(t, "control_vector") || gguf_str_eq(t, "controlvector"))
		return ROLE_CVEC;
	return ROLE_ADAPTER;
}

enum file_role
role_of(const struct gguf_file *f)
{
	struct gguf_str t, a;
	bool typed = key_str(f, "general.type", &t) && !gguf_str_eq(t, "model");

	if (typed && gguf_str_eq(t, "adapter"))
		return adapter_role(f);
	if (typed &&
	    (gguf_str_eq(t, "mmproj") || gguf_str_eq(t, "clip-vision")))
		return ROLE_MMPROJ;
	if (typed && gguf_str_eq(t, "imatrix"))
		return ROLE_IMATRIX;
	/* no general.type, "model", or one no tool writes: the
	 * architecture of llama.cpp's own companions says it (their
	 * loaders read no general.type) */
	if (key_str(f, "general.architecture", &a)) {
		if (gguf_str_eq(a, "clip"))
			return ROLE_MMPROJ;
		if (gguf_str_eq(a, "controlvector"))
			return ROLE_CVEC;
	}
	if (typed)
		return ROLE_OTHER;
	if (f->tensors_n == 0 && gguf_find_kv(f, "tokenizer.ggml.model"))
		return ROLE_VOCAB;
	return ROLE_MODEL;
}

const char *
role_name(enum file_role r)
{
	static const char *const names[] = { "model", "vocabulary", "lora",
		"control-vector", "adapter", "mmproj", "imatrix", "other" };

	return (unsigned)r < sizeof names / sizeof names[0] ? names[r] : "?";
}

bool
role_companion(enum file_role r)
{
	return r == ROLE_LORA || r == ROLE_CVEC || r == ROLE_ADAPTER ||
	    r == ROLE_MMPROJ;
}

bool
role_model(enum file_role r)
{
	return r == ROLE_MODEL || r == ROLE_VOCAB;
}

const char *
companion_name(enum companion_kind k)
{
	static const char *const names[] = { "", "mmproj", "lora",
		"control-vector", "draft" };

	return (unsigned)k < sizeof names / sizeof names[0] ? names[k] : "?";
}

int64_t
role_direction_layer(struct gguf_str name)
{
	int64_t v = 0;
	size_t i;

	if (name.n <= 10 || memcmp(name.p, "direction.", 10) != 0)
		return -1;
	for (i = 10; i < name.n; i++) {
		if (name.p[i] < '0' || name.p[i] > '9' || v > 100000000)
			return -1;
		v = v * 10 + (name.p[i] - '0');
	}
	return v >= 1 ? v : -1;
}

/* Whether t's name ends with suffix. */
static bool
name_ends(const struct gguf_tensor *t, const char *suffix)
{
	size_t n = strlen(suffix);

	return t->name.n >= n &&
	    memcmp(t->name.p + t->name.n - n, suffix, n) == 0;
}

enum weight_op
weight_op(const struct gguf_tensor *t)
{
	if (memmem(t->name.p, t->name.n, "token_embd", 10) != NULL)
		return WOP_GET_ROWS;
	if (name_ends(t, "exps.weight") && t->n_dims >= 3 && t->ne[2] > 1)
		return WOP_MUL_MAT_ID; /* _exps, _chexps */
	if (name_ends(t, "exps.bias"))
		return WOP_ADD_ID;
	return t->n_dims < 2 ? WOP_VECTOR : WOP_MUL_MAT;
}
