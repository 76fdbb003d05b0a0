/*
 * oraclegen.c - sparse models of every mapped architecture, for the
 * llama.cpp oracle (oraclegen.h). The metadata is written first and read
 * back through gguflint's own reader and geometry (arch_read), so that
 * the name map's shape expressions are evaluated exactly as the name
 * checks evaluate them; the tensors are then the map's required ones
 * (plus a few optional ones a real file of the family has).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "facts/arch.h"
#include "facts/names.h"
#include "findings/catalog.h"
#include "findings/diag.h"
#include "ggufw.h"
#include "oraclegen.h"
#include "reader/gguf.h"

#include "oraclegen-specs.h"

#define OG_N_VOCAB 512
#define OG_MAX_VOCAB 65536

const char *
oraclegen_arch(size_t i)
{
	return i < sizeof og_specs / sizeof og_specs[0] ? og_specs[i].arch :
							  NULL;
}

static void
og_key(char *out, size_t n, const char *arch, const char *k)
{
	if (strncmp(k, "general.", 8) == 0 ||
	    strncmp(k, "tokenizer.", 10) == 0 || strncmp(k, "xielu.", 6) == 0)
		snprintf(out, n, "%s", k);
	else
		snprintf(out, n, "%s.%s", arch, k);
}

static void
og_kv_array(struct ggufw_model *m, const char *key, const char *v)
{
	uint32_t vals[ARCH_MAX_LAYERS];
	size_t n = 0;
	char *end;

	while (*v != '\0' && n < ARCH_MAX_LAYERS) {
		vals[n++] = (uint32_t)strtoul(v, &end, 10);
		v = *end == ',' ? end + 1 : end;
		if (end == v && *v != '\0')
			break;
	}
	ggufw_model_kv_arr_u32(m, key, vals, n);
}

/* og_kvs: write the spec's metadata words. */
static void
og_kvs(struct ggufw_model *m, const struct og_spec *s)
{
	char buf[2048], key[160];
	char *save = NULL, *w;

	snprintf(buf, sizeof buf, "%s", s->kv);
	for (w = strtok_r(buf, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		char *eq = strchr(w, '=');
		if (eq == NULL || w[1] != ':')
			abort(); /* a bad spec is a bug in this file */
		if (w[0] == 'v')
			continue; /* the vocabulary's size: og_n_vocab */
		*eq = '\0';
		og_key(key, sizeof key, s->arch, w + 2);
		if (w[0] == 'u')
			ggufw_model_kv_u32(m, key,
			    (uint32_t)strtoul(eq + 1, NULL, 10));
		else if (w[0] == 'f')
			ggufw_model_kv_f32(m, key, strtof(eq + 1, NULL));
		else if (w[0] == 'b')
			ggufw_model_kv_bool(m, key, eq[1] == '1');
		else if (w[0] == 's')
			ggufw_model_kv_str(m, key, eq + 1);
		else
			og_kv_array(m, key, eq + 1);
	}
}

/* The vocabulary's size of geometry s: a tied shape's own, the spec's
 * ("v:vocab=N", for a graph that needs more tokens), else OG_N_VOCAB. */
static int
og_n_vocab(const struct og_spec *s)
{
	const char *p = strstr(s->kv, "v:vocab=");
	unsigned long n;

	for (size_t i = 0; i < sizeof og_tied / sizeof og_tied[0]; i++)
		if (s == &og_tied[i])
			return og_tied_vocab[i];
	if (p == NULL || (p != s->kv && p[-1] != ' '))
		return OG_N_VOCAB;
	n = strtoul(p + 8, NULL, 10);
	return n >= 259 && n <= OG_MAX_VOCAB ? (int)n : OG_N_VOCAB;
}

/* og_vocab: a SentencePiece ("llama") vocabulary of n tokens: <unk> <s>
 * </s>, the 256 byte tokens, then plain pieces. */
static void
og_vocab(struct ggufw_model *m, int n)
{
	char(*names)[16] = xcalloc((size_t)n, sizeof *names);
	const char **toks = xcalloc((size_t)n, sizeof *toks);
	float *scores = xcalloc((size_t)n, sizeof *scores);
	int32_t *types = xcalloc((size_t)n, sizeof *types);

	for (int i = 0; i < n; i++) {
		if (i < 3)
			snprintf(names[i], sizeof names[i], "%s",
			    i == 0     ? "<unk>" :
				i == 1 ? "<s>" :
					 "</s>");
		else if (i < 259)
			snprintf(names[i], sizeof names[i], "<0x%02X>", i - 3);
		else
			snprintf(names[i], sizeof names[i], "t%d", i);
		toks[i] = names[i];
		scores[i] = (float)-i;
		types[i] = i == 0 ? 2 : i < 3 ? 3 : i < 259 ? 6 : 1;
	}
	ggufw_model_kv_str(m, "tokenizer.ggml.model", "llama");
	ggufw_model_kv_arr_str(m, "tokenizer.ggml.tokens", toks, (size_t)n);
	ggufw_model_kv_arr_f32(m, "tokenizer.ggml.scores", scores, (size_t)n);
	ggufw_model_kv_arr_i32(m, "tokenizer.ggml.token_type", types,
	    (size_t)n);
	ggufw_model_kv_u32(m, "tokenizer.ggml.bos_token_id", 1);
	ggufw_model_kv_u32(m, "tokenizer.ggml.eos_token_id", 2);
	free(names);
	free(toks);
	free(scores);
	free(types);
}

struct og_type {
	const char *name;
	int32_t id;
	uint32_t blck, size;
};

static const struct og_type og_types[] = {
	{ "f32", 0, 1, 4 },
	{ "f16", 1, 1, 2 },
	{ "q4_0", 2, 32, 18 },
	{ "q8_0", 8, 32, 34 },
	{ "q4_K", 12, 256, 144 },
	{ "q6_K", 14, 256, 210 },
	{ "iq4_nl", 20, 32, 18 },
};

static const struct og_type *
og_type_find(const char *name)
{
	for (size_t i = 0; i < sizeof og_types / sizeof og_types[0]; i++)
		if (strcmp(og_types[i].name, name) == 0)
			return &og_types[i];
	return NULL;
}

/* Where the tensors go: the matrices' type, the one change of a mutant
 * (NULL: none), and the reason of a failure. */
struct og_out {
	const struct og_type *wt;
	struct og_mut *mu;
	char *why;
	size_t whylen;
};

/* A mutant's change (oraclegen_mutant) to the tensor of index target in
 * writing order; n counts the tensors seen. */
struct og_mut {
	enum oraclegen_mutation kind;
	size_t target, n;
	char *what;
	size_t whatlen;
};

/* og_keeps_f32: what a quantized file keeps in f32: vectors, norms and
 * the small state and routing tensors. */
static bool
og_keeps_f32(const char *name, size_t n_dims, int64_t ne0, uint32_t blck)
{
	static const char *const small[] = { "norm", ".bias", "ssm_a", "ssm_d",
		"ssm_conv1d", "ssm_dt", "gate_inp", "exp_probs", "token_types",
		NULL };

	if (n_dims < 2)
		return true;
	for (size_t i = 0; small[i]; i++)
		if (strstr(name, small[i]))
			return true;
	return ne0 % blck != 0;
}

bool
oraclegen_word_in(const char *words, const char *id)
{
	size_t n = strlen(id);

	for (const char *p = words; (p = strstr(p, id)) != NULL; p += n)
		if ((p == words || p[-1] == ' ') &&
		    (p[n] == '\0' || p[n] == ' '))
			return true;
	return false;
}

/* og_wanted: 1 when tensor t is written at layer (-1: global), 0 when
 * not, -1 when it is required but cannot be written. An optional one the
 * spec asks for is written where its when holds. */
static int
og_wanted(const struct names_map *map, const struct names_tensor *t,
    const struct og_spec *s, const struct names_env *env)
{
	if (t->when != NULL) {
		struct names_val v = names_eval(t->when, env);
		if (!v.known || v.v == 0)
			return 0;
	}
	if (t->id != NULL && oraclegen_word_in(s->extra, t->id))
		return 1;
	if (t->optional)
		return 0;
	for (size_t i = 0; i < t->n_unless; i++) {
		const struct names_tensor *u = &map->tensors[t->unless[i]];
		if (u->id != NULL && oraclegen_word_in(s->extra, u->id))
			return 0;
	}
	/* a per-layer name literal but for its layer (enc.blk.N.) is
	 * written from its literal parts */
	return (t->id != NULL || t->lit[0] != NULL) && t->n_dims > 0 ? 1 : -1;
}

/* A name with a suffix before its last dot (".weight"): into out. */
static void
og_name_with(char *out, size_t n, const char *name, const char *suffix)
{
	const char *dot = strrchr(name, '.');
	int stem = dot != NULL ? (int)(dot - name) : (int)strlen(name);

	snprintf(out, n, "%.*s%s%s", stem, name, suffix, name + stem);
}

/* og_mutate: write tensor name as the mutant's change makes it. */
static void
og_mutate(struct ggufw_model *m, const struct og_mut *mu, const char *name,
    uint32_t n_dims, int64_t ne[], const struct og_type *ty)
{
	char other[288];

	og_name_with(other, sizeof other, name, "_x");
	switch (mu->kind) {
	case OG_MUT_DROP:
		snprintf(mu->what, mu->whatlen, "%s left out", name);
		return;
	case OG_MUT_RENAME:
		snprintf(mu->what, mu->whatlen, "%s renamed %s", name, other);
		ggufw_model_tensor(m, other, n_dims, ne, ty->id, ty->blck,
		    ty->size);
		return;
	case OG_MUT_RESHAPE:
		snprintf(mu->what, mu->whatlen, "%s ne0 %lld made %lld", name,
		    (long long)ne[0], (long long)(ne[0] + ty->blck));
		ne[0] += ty->blck;
		break;
	case OG_MUT_ADD:
		snprintf(mu->what, mu->whatlen, "%s added beside %s", other,
		    name);
		ggufw_model_tensor(m, other, n_dims, ne, ty->id, ty->blck,
		    ty->size);
		break;
	}
	ggufw_model_tensor(m, name, n_dims, ne, ty->id, ty->blck, ty->size);
}

static int
og_tensor(struct ggufw_model *m, const struct names_tensor *t,
    const struct names_env *env, struct og_out *o)
{
	char name[256];
	int64_t ne[NAMES_MAX_DIMS];
	const struct og_type *ty;

	if (t->per_layer && t->lit[0] != NULL)
		snprintf(name, sizeof name, "%s%lld%s", t->lit[0],
		    (long long)env->layer, t->lit[1]);
	else if (t->per_layer)
		snprintf(name, sizeof name, "blk.%lld.%s",
		    (long long)env->layer, t->id);
	else
		snprintf(name, sizeof name, "%s", t->id);
	for (size_t d = 0; d < t->n_dims; d++) {
		struct names_val v = names_eval(t->shape[d], env);
		if (!v.known || v.v <= 0) {
			snprintf(o->why, o->whylen,
			    "%s: dimension %zu (%s) is %s", name, d,
			    t->shape_text[d],
			    v.known ? "not positive" : "unknown");
			return -1;
		}
		ne[d] = v.v;
	}
	ty = og_keeps_f32(name, t->n_dims, ne[0], o->wt->blck) ? &og_types[0] :
								 o->wt;
	if (o->mu != NULL && o->mu->n++ == o->mu->target)
		og_mutate(m, o->mu, name, (uint32_t)t->n_dims, ne, ty);
	else
		ggufw_model_tensor(m, name, (uint32_t)t->n_dims, ne, ty->id,
		    ty->blck, ty->size);
	return 0;
}

/* og_tensors: the map's tensors, the global ones then layer by layer. */
static int
og_tensors(struct ggufw_model *m, const struct names_map *map,
    const struct og_spec *s, struct names_env *env, struct og_out *o)
{
	for (int64_t il = -1; il < (int64_t)arch_blocks(env->geom); il++) {
		env->layer = il;
		for (size_t i = 0; i < map->n_tensors; i++) {
			const struct names_tensor *t = &map->tensors[i];
			int w;
			if (t->per_layer != (il >= 0))
				continue;
			w = og_wanted(map, t, s, env);
			if (w < 0) {
				snprintf(o->why, o->whylen,
				    "required tensor %s has "
				    "no literal name or no shape",
				    t->display);
				return -1;
			}
			if (w && og_tensor(m, t, env, o) != 0)
				return -1;
		}
	}
	return 0;
}

/* The geometry named name: an architecture's, ARCH-wide (og_wide) or a
 * tied real shape's (og_tied). */
static const struct og_spec *
og_spec_find(const char *name)
{
	_Static_assert(sizeof og_tied / sizeof og_tied[0] ==
		sizeof og_tied_names / sizeof og_tied_names[0],
	    "one name a tied geometry");
	for (size_t i = 0; i < sizeof og_specs / sizeof og_specs[0]; i++)
		if (strcmp(og_specs[i].arch, name) == 0)
			return &og_specs[i];
	for (size_t i = 0; i < sizeof og_wide / sizeof og_wide[0]; i++)
		if (strcmp(og_wide_names[i], name) == 0)
			return &og_wide[i];
	for (size_t i = 0; i < sizeof og_tied / sizeof og_tied[0]; i++)
		if (strcmp(og_tied_names[i], name) == 0)
			return &og_tied[i];
	return NULL;
}

const char *
oraclegen_wide(size_t i)
{
	_Static_assert(sizeof og_wide / sizeof og_wide[0] ==
		sizeof og_wide_names / sizeof og_wide_names[0],
	    "one name a wide geometry");
	return i < sizeof og_wide_names / sizeof og_wide_names[0] ?
	    og_wide_names[i] :
	    NULL;
}

/* og_geometry: read the metadata written so far back as gguflint does. */
static int
og_build(struct ggufw_model *m, const struct og_spec *s, struct og_out *o)
{
	const struct names_db *db;
	const struct names_map *map;
	struct catalog cat;
	struct gl_error err;
	struct diag_list dl;
	struct gguf_file f;
	struct model_geom *g;
	struct strbuf hdr = STRBUF_INIT;
	struct names_env env;
	int rc = -1;

	if (names_db_get(&db, &err) != 0 ||
	    (map = names_db_find(db, s->arch)) == NULL) {
		snprintf(o->why, o->whylen, "%s: no name map", s->arch);
		return -1;
	}
	if (catalog_load_builtin(&cat, &err) != 0) {
		snprintf(o->why, o->whylen, "catalogue: %s", err.msg);
		return -1;
	}
	ggufw_model_finish(m, &hdr, GGUFW_DATA_NONE);
	gguf_open_mem(&f, s->arch, hdr.buf, hdr.len);
	diag_list_init(&dl, &cat);
	gguf_parse(&f, &dl);
	g = xcalloc(1, sizeof *g);
	arch_read(&f, g, &dl);
	env.file = &f;
	env.geom = g;
	env.layer = -1;
	env.n_vocab = og_n_vocab(s);
	rc = og_tensors(m, map, s, &env, o);
	free(g);
	diag_list_free(&dl);
	gguf_close(&f);
	strbuf_free(&hdr);
	catalog_free(&cat);
	return rc;
}

/* og_write: the model of geometry s into path, through o. */
static int
og_write(const struct og_spec *s, const char *path, struct og_out *o)
{
	struct ggufw_model m;
	int rc;

	ggufw_model_init(&m, false, GGUFW_DEFAULT_ALIGNMENT);
	ggufw_model_kv_str(&m, "general.architecture", s->arch);
	ggufw_model_kv_str(&m, "general.name", "oracle test model");
	ggufw_model_kv_u32(&m, "general.quantization_version", 2);
	og_kvs(&m, s);
	og_vocab(&m, og_n_vocab(s));
	rc = og_build(&m, s, o);
	if (rc == 0 && path != NULL &&
	    ggufw_model_finish_sparse(&m, path) != 0) {
		snprintf(o->why, o->whylen, "%s: cannot write", path);
		rc = -1;
	}
	ggufw_model_free(&m);
	return rc;
}

/* og_find: the geometry and the type of a write, or -1 with why. */
static int
og_find(const char *arch, const char *wtype, const struct og_spec **s,
    struct og_out *o)
{
	*s = og_spec_find(arch);
	o->wt = og_type_find(wtype);
	if (*s != NULL && o->wt != NULL)
		return 0;
	snprintf(o->why, o->whylen, "%s: no geometry for %s", arch,
	    *s == NULL ? "this architecture" : wtype);
	return -1;
}

int
oraclegen_write(const char *arch, const char *wtype, const char *path,
    char *why, size_t whylen)
{
	struct og_out o = { .why = why, .whylen = whylen };
	const struct og_spec *s;

	if (og_find(arch, wtype, &s, &o) != 0)
		return -1;
	return og_write(s, path, &o);
}

int
oraclegen_mutant(const char *arch, const char *wtype, const char *path,
    enum oraclegen_mutation kind, size_t k, char *what, size_t whatlen,
    char *why, size_t whylen)
{
	struct og_mut mu = { kind, (size_t)-1, 0, what, whatlen };
	struct og_out o = { .mu = &mu, .why = why, .whylen = whylen };
	const struct og_spec *s;

	if (og_find(arch, wtype, &s, &o) != 0 || og_write(s, NULL, &o) != 0)
		return -1;
	if (mu.n == 0) {
		snprintf(why, whylen, "%s: no tensor to change", arch);
		return -1;
	}
	mu.target = k % mu.n;
	mu.n = 0;
	return og_write(s, path, &o);
}
