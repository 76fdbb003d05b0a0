/*
 * names.c - loading, compiling and applying the architecture name maps
 * (see names.h): the map files, the expression language of shapes and
 * conditions, PCRE2 matching of tensor names, and what kind of file a GGUF
 * is for the name and metadata rules.
 */
#define PCRE2_CODE_UNIT_WIDTH 8

#include <ctype.h>
#include <inttypes.h>
#include <pcre2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/builtin.h"
#include "facts/names.h"
#include "data/yamlutil.h"

/* The registry of map files: one per architecture family. */
const char *const names_map_files[] = {
	"rules/arch/bert.yaml",
	"rules/arch/deepseek2.yaml",
	"rules/arch/falcon.yaml",
	"rules/arch/gemma.yaml",
	"rules/arch/gemma2.yaml",
	"rules/arch/gemma3.yaml",
	"rules/arch/gpt2.yaml",
	"rules/arch/llama.yaml",
	"rules/arch/mamba.yaml",
	"rules/arch/phi3.yaml",
	"rules/arch/qwen2.yaml",
	"rules/arch/qwen2moe.yaml",
	"rules/arch/qwen3.yaml",
	"rules/arch/qwen3moe.yaml",
	NULL
};

/* ---- expressions ------------------------------------------------------- */

enum nx_op {
	NX_NUM = 0, NX_VAR, NX_NEG, NX_NOT,
	NX_ADD, NX_SUB, NX_MUL, NX_DIV, NX_MOD,
	NX_EQ, NX_NE, NX_LT, NX_LE, NX_GT, NX_GE,
	NX_AND, NX_OR, NX_DEFAULT
};

struct names_expr {
	enum nx_op op;
	int64_t num;			/* NX_NUM */
	char *name;			/* NX_VAR */
	int builtin;			/* NX_VAR: in nx_builtins, or -1 */
	struct names_expr *a, *b;
};

/*
 * The built-in names. Values of 0 in the geometry mean "not known" and
 * evaluate as unknown, so that a check never compares with a guess.
 */
enum nx_builtin {
	NB_N_EMBD = 0, NB_N_LAYER, NB_N_VOCAB, NB_N_CTX_TRAIN, NB_N_HEAD,
	NB_N_HEAD_KV, NB_N_FF, NB_HEAD_K, NB_HEAD_V, NB_N_ROT, NB_N_EXPERT,
	NB_N_EXPERT_USED, NB_LAYER
};

static const char *const nx_builtins[] = {
	"n_embd", "n_layer", "n_vocab", "n_ctx_train", "n_head", "n_head_kv",
	"n_ff", "head_k", "head_v", "n_rot", "n_expert", "n_expert_used",
	"layer", NULL
};

#define NX_MAX_DEPTH 64

struct nx_parser {
	const char *s;
	size_t pos;
	int depth;
	const char *err;		/* what was expected, or NULL */
	size_t err_pos;
};

static void
nx_free(struct names_expr *e)
{
	if (e == NULL)
		return;
	nx_free(e->a);
	nx_free(e->b);
	free(e->name);
	free(e);
}

static struct names_expr *
nx_node(enum nx_op op, struct names_expr *a, struct names_expr *b)
{
	struct names_expr *e = xcalloc(1, sizeof *e);

	e->op = op;
	e->a = a;
	e->b = b;
	e->builtin = -1;
	return e;
}

static void
nx_skip(struct nx_parser *p)
{
	while (p->s[p->pos] == ' ' || p->s[p->pos] == '\t')
		p->pos++;
}

/* nx_eat: consume tok (after blanks) when it is next. */
static bool
nx_eat(struct nx_parser *p, const char *tok)
{
	size_t n = strlen(tok);

	nx_skip(p);
	if (strncmp(p->s + p->pos, tok, n) != 0)
		return false;
	p->pos += n;
	return true;
}

static struct names_expr *
nx_fail(struct nx_parser *p, const char *what)
{
	if (p->err == NULL) {
		p->err = what;
		p->err_pos = p->pos;
	}
	return NULL;
}

static struct names_expr *nx_or(struct nx_parser *p);

static struct names_expr *
nx_number(struct nx_parser *p)
{
	struct names_expr *e = nx_node(NX_NUM, NULL, NULL);
	int64_t v = 0;

	while (isdigit((unsigned char)p->s[p->pos])) {
		if (__builtin_mul_overflow(v, 10, &v) ||
		    __builtin_add_overflow(v, p->s[p->pos] - '0', &v)) {
			nx_free(e);
			return nx_fail(p, "a number below 2^63");
		}
		p->pos++;
	}
	e->num = v;
	return e;
}

static struct names_expr *
nx_name(struct nx_parser *p)
{
	struct names_expr *e = nx_node(NX_VAR, NULL, NULL);
	size_t start = p->pos;
	int i;

	while (islower((unsigned char)p->s[p->pos]) ||
	    isdigit((unsigned char)p->s[p->pos]) || p->s[p->pos] == '_' ||
	    p->s[p->pos] == '.')
		p->pos++;
	e->name = xstrndup(p->s + start, p->pos - start);
	for (i = 0; nx_builtins[i] != NULL; i++)
		if (strcmp(nx_builtins[i], e->name) == 0)
			e->builtin = i;
	return e;
}

static struct names_expr *
nx_primary(struct nx_parser *p)
{
	struct names_expr *e;
	char c;

	nx_skip(p);
	c = p->s[p->pos];
	if (isdigit((unsigned char)c))
		return nx_number(p);
	if (islower((unsigned char)c) || c == '_')
		return nx_name(p);
	if (!nx_eat(p, "("))
		return nx_fail(p, "a number, a name or '('");
	if (++p->depth > NX_MAX_DEPTH)
		return nx_fail(p, "less nesting");
	e = nx_or(p);
	p->depth--;
	if (e != NULL && !nx_eat(p, ")")) {
		nx_free(e);
		return nx_fail(p, "')'");
	}
	return e;
}

/* a ?? b ?? c */
static struct names_expr *
nx_default(struct nx_parser *p)
{
	struct names_expr *e = nx_primary(p), *b;

	while (e != NULL && nx_eat(p, "??")) {
		if ((b = nx_primary(p)) == NULL) {
			nx_free(e);
			return NULL;
		}
		e = nx_node(NX_DEFAULT, e, b);
	}
	return e;
}

static struct names_expr *
nx_unary(struct nx_parser *p)
{
	struct names_expr *a;
	enum nx_op op;

	nx_skip(p);
	if (p->s[p->pos] == '-')
		op = NX_NEG;
	else if (p->s[p->pos] == '!' && p->s[p->pos + 1] != '=')
		op = NX_NOT;
	else
		return nx_default(p);
	p->pos++;
	if (++p->depth > NX_MAX_DEPTH)
		return nx_fail(p, "less nesting");
	a = nx_unary(p);
	p->depth--;
	return a != NULL ? nx_node(op, a, NULL) : NULL;
}

/* One left-associative level: operand (op operand)*. */
static struct names_expr *
nx_level(struct nx_parser *p,
    struct names_expr *(*operand)(struct nx_parser *),
    const char *const toks[], const enum nx_op ops[])
{
	struct names_expr *e = operand(p), *b;
	size_t i;

	while (e != NULL) {
		for (i = 0; toks[i] != NULL; i++)
			if (nx_eat(p, toks[i]))
				break;
		if (toks[i] == NULL)
			break;
		if ((b = operand(p)) == NULL) {
			nx_free(e);
			return NULL;
		}
		e = nx_node(ops[i], e, b);
	}
	return e;
}

static struct names_expr *
nx_term(struct nx_parser *p)
{
	static const char *const toks[] = { "*", "/", "%", NULL };
	static const enum nx_op ops[] = { NX_MUL, NX_DIV, NX_MOD };

	return nx_level(p, nx_unary, toks, ops);
}

static struct names_expr *
nx_sum(struct nx_parser *p)
{
	static const char *const toks[] = { "+", "-", NULL };
	static const enum nx_op ops[] = { NX_ADD, NX_SUB };

	return nx_level(p, nx_term, toks, ops);
}

static struct names_expr *
nx_cmp(struct nx_parser *p)
{
	/* Two-character operators first. */
	static const char *const toks[] = {
		"==", "!=", "<=", ">=", "<", ">", NULL
	};
	static const enum nx_op ops[] = {
		NX_EQ, NX_NE, NX_LE, NX_GE, NX_LT, NX_GT
	};

	return nx_level(p, nx_sum, toks, ops);
}

static struct names_expr *
nx_and(struct nx_parser *p)
{
	static const char *const toks[] = { "&&", NULL };
	static const enum nx_op ops[] = { NX_AND };

	return nx_level(p, nx_cmp, toks, ops);
}

static struct names_expr *
nx_or(struct nx_parser *p)
{
	static const char *const toks[] = { "||", NULL };
	static const enum nx_op ops[] = { NX_OR };

	return nx_level(p, nx_and, toks, ops);
}

/*
 * nx_parse: compile text. Returns the tree, or NULL with *what and *at
 * saying what was expected where.
 */
static struct names_expr *
nx_parse(const char *text, const char **what, size_t *at)
{
	struct nx_parser p = { text, 0, 0, NULL, 0 };
	struct names_expr *e = nx_or(&p);

	nx_skip(&p);
	if (e != NULL && p.s[p.pos] != '\0') {
		nx_free(e);
		e = nx_fail(&p, "an operator or the end");
	}
	if (e == NULL) {
		*what = p.err;
		*at = p.err_pos;
	}
	return e;
}

/* ---- evaluation -------------------------------------------------------- */

static const struct names_val nx_unknown = { 0, false };

bool
names_key_int(const struct gguf_file *f, const char *key, int64_t *out)
{
	const struct gguf_kv *kv = gguf_find_kv(f, key);

	if (kv == NULL)
		return false;
	switch (kv->type) {
	case GGUF_UINT8: case GGUF_UINT16: case GGUF_UINT32:
		*out = (int64_t)kv->val.v.u;
		return true;
	case GGUF_UINT64:
		if (kv->val.v.u > INT64_MAX)
			return false;
		*out = (int64_t)kv->val.v.u;
		return true;
	case GGUF_INT8: case GGUF_INT16: case GGUF_INT32: case GGUF_INT64:
		*out = kv->val.v.i;
		return true;
	case GGUF_BOOL:
		*out = kv->val.v.b != 0;
		return true;
	default:
		return false;
	}
}

bool
names_key_str(const struct gguf_file *f, const char *key,
    struct gguf_str *out)
{
	const struct gguf_kv *kv = gguf_find_kv(f, key);

	if (kv == NULL || kv->type != GGUF_STRING)
		return false;
	*out = kv->val.v.s;
	return true;
}

/* The metadata key a name stands for: ARCH.NAME, or NAME itself. */
static bool
nx_key_value(const struct names_env *env, const char *name, int64_t *out)
{
	char key[256];

	if (strncmp(name, "general.", 8) == 0 ||
	    strncmp(name, "tokenizer.", 10) == 0)
		return names_key_int(env->file, name, out);
	if (env->geom == NULL || !env->geom->has_arch)
		return false;
	snprintf(key, sizeof key, "%s.%s", env->geom->arch, name);
	return names_key_int(env->file, key, out);
}

static struct names_val
nx_known(int64_t v)
{
	struct names_val r = { v, v != 0 };

	return r;
}

static struct names_val
nx_opt(bool ok, int64_t v)
{
	struct names_val r = { v, ok };

	return r;
}

/* A per-layer geometry value (0: unknown) at the env's layer. */
static struct names_val
nx_layer_value(const struct names_env *env, const uint32_t *v)
{
	int64_t il = env->layer < 0 ? 0 : env->layer;

	if (env->geom->n_layer == 0 || il >= env->geom->n_layer)
		return nx_unknown;
	return nx_known(v[il]);
}

static struct names_val
nx_ff(const struct names_env *env)
{
	int64_t v;

	/* arch.c assumes 4 x n_embd when the key is absent: no guessing. */
	if (!nx_key_value(env, "feed_forward_length", &v))
		return nx_unknown;
	return nx_layer_value(env, env->geom->n_ff);
}

/*
 * Head widths and KV heads as llama.cpp defaults them: key_length, else
 * n_embd / n_head; head_count_kv, else head_count. arch.c does the same
 * for attention models; encoders get it here.
 */
static struct names_val
nx_head_width(const struct names_env *env, uint32_t have, const char *key)
{
	const struct model_geom *g = env->geom;
	int64_t v;

	if (have > 0)
		return nx_known(have);
	if (nx_key_value(env, key, &v))
		return nx_opt(v > 0, v);
	if (g->n_layer == 0 || g->n_head[0] == 0)
		return nx_unknown;
	return nx_known(g->n_embd / g->n_head[0]);
}

static struct names_val
nx_head_kv(const struct names_env *env)
{
	struct names_val v = nx_layer_value(env, env->geom->n_head_kv);
	int64_t k;

	if (v.known || nx_key_value(env, "attention.head_count_kv", &k))
		return v;
	return nx_layer_value(env, env->geom->n_head);
}

static struct names_val
nx_builtin(const struct names_env *env, int b)
{
	const struct model_geom *g = env->geom;
	int64_t v = 0;

	switch (b) {
	case NB_N_EMBD: return nx_known(g->n_embd);
	case NB_N_LAYER: return nx_known(g->n_layer);
	case NB_N_VOCAB: return nx_opt(env->n_vocab >= 0, env->n_vocab);
	case NB_N_CTX_TRAIN: return nx_known(g->n_ctx_train);
	case NB_N_HEAD: return nx_layer_value(env, g->n_head);
	case NB_N_HEAD_KV: return nx_head_kv(env);
	case NB_N_FF: return nx_ff(env);
	case NB_HEAD_K:
		return nx_head_width(env, g->head_k, "attention.key_length");
	case NB_HEAD_V:
		return nx_head_width(env, g->head_v, "attention.value_length");
	case NB_N_ROT:
		if (nx_key_value(env, "rope.dimension_count", &v))
			return nx_opt(true, v);
		return nx_head_width(env, g->head_k, "attention.key_length");
	case NB_N_EXPERT:
		return nx_opt(true, nx_key_value(env, "expert_count", &v) ?
		    v : 0);
	case NB_N_EXPERT_USED:
		return nx_opt(true, nx_key_value(env, "expert_used_count",
		    &v) ? v : 0);
	default:
		return nx_opt(env->layer >= 0, env->layer);
	}
}

static struct names_val
nx_var(const struct names_expr *e, const struct names_env *env)
{
	int64_t v = 0;
	bool ok;

	if (e->builtin >= 0)
		return nx_builtin(env, e->builtin);
	ok = nx_key_value(env, e->name, &v);
	return nx_opt(ok, v);
}

static struct names_val
nx_arith(enum nx_op op, int64_t a, int64_t b)
{
	int64_t r = 0;
	bool ovf;

	switch (op) {
	case NX_ADD: ovf = __builtin_add_overflow(a, b, &r); break;
	case NX_SUB: ovf = __builtin_sub_overflow(a, b, &r); break;
	case NX_MUL: ovf = __builtin_mul_overflow(a, b, &r); break;
	case NX_DIV:
		ovf = b == 0 || (a == INT64_MIN && b == -1);
		r = ovf ? 0 : a / b;
		break;
	case NX_MOD:
		ovf = b == 0 || (a == INT64_MIN && b == -1);
		r = ovf ? 0 : a % b;
		break;
	case NX_EQ: ovf = false; r = a == b; break;
	case NX_NE: ovf = false; r = a != b; break;
	case NX_LT: ovf = false; r = a < b; break;
	case NX_LE: ovf = false; r = a <= b; break;
	case NX_GT: ovf = false; r = a > b; break;
	default: ovf = false; r = a >= b; break;
	}
	return nx_opt(!ovf, r);
}

/* && and || are known when one known side decides them. */
static struct names_val
nx_logic(const struct names_expr *e, const struct names_env *env)
{
	struct names_val a = names_eval(e->a, env), b = names_eval(e->b, env);
	bool decide = e->op == NX_OR;

	if ((a.known && (a.v != 0) == decide) ||
	    (b.known && (b.v != 0) == decide))
		return nx_opt(true, decide);
	if (a.known && b.known)
		return nx_opt(true, !decide);
	return nx_unknown;
}

struct names_val
names_eval(const struct names_expr *e, const struct names_env *env)
{
	struct names_val a, b;

	switch (e->op) {
	case NX_NUM:
		return nx_opt(true, e->num);
	case NX_VAR:
		return nx_var(e, env);
	case NX_AND: case NX_OR:
		return nx_logic(e, env);
	case NX_DEFAULT:
		a = names_eval(e->a, env);
		return a.known ? a : names_eval(e->b, env);
	default:
		break;
	}
	a = names_eval(e->a, env);
	if (e->op == NX_NEG)
		return a.known && a.v != INT64_MIN ? nx_opt(true, -a.v) :
		    nx_unknown;
	if (e->op == NX_NOT)
		return a.known ? nx_opt(true, a.v == 0) : nx_unknown;
	b = names_eval(e->b, env);
	if (!a.known || !b.known)
		return nx_unknown;
	return nx_arith(e->op, a.v, b.v);
}

/* ---- patterns ---------------------------------------------------------- */

static const char nx_meta[] = ".^$|?*+()[]{}\\";

/*
 * The end of the group that opens at p (a '('), or NULL when unbalanced.
 * Escapes and character classes are skipped.
 */
static const char *
pat_group_end(const char *p)
{
	int depth = 0;
	bool cls = false;

	for (; *p != '\0'; p++) {
		if (*p == '\\' && p[1] != '\0')
			p++;
		else if (cls)
			cls = *p != ']';
		else if (*p == '[')
			cls = true;
		else if (*p == '(')
			depth++;
		else if (*p == ')' && --depth == 0)
			return p;
	}
	return NULL;
}

/*
 * pat_literal: append to sb the text pattern [p, end) matches when it is
 * literal (escaped punctuation allowed); false when it is not.
 */
static bool
pat_literal(struct strbuf *sb, const char *p, const char *end)
{
	for (; p < end; p++) {
		if (*p == '\\') {
			if (p + 1 >= end || isalnum((unsigned char)p[1]))
				return false;
			p++;
		} else if (strchr(nx_meta, *p) != NULL) {
			return false;
		}
		strbuf_addc(sb, *p);
	}
	return true;
}

/*
 * pat_describe: for a pattern that is literal apart from its layer group,
 * set t->display ("blk.N.x.weight"), t->id ("x.weight") and return true;
 * otherwise display is the pattern and id NULL.
 */
static bool
pat_describe(struct names_tensor *t)
{
	struct strbuf sb = STRBUF_INIT;
	const char *g = strstr(t->pattern, "(?<layer>"), *ge = NULL, *end;
	bool lit;

	end = t->pattern + strlen(t->pattern);
	if (g != NULL && (ge = pat_group_end(g)) == NULL)
		g = NULL;
	if (g == NULL) {
		lit = pat_literal(&sb, t->pattern, end);
	} else {
		lit = pat_literal(&sb, t->pattern, g);
		strbuf_adds(&sb, "N");
		lit = lit && pat_literal(&sb, ge + 1, end);
	}
	if (!lit) {
		strbuf_free(&sb);
		t->display = xstrdup(t->pattern);
		return false;
	}
	t->display = strbuf_detach(&sb);
	if (t->id != NULL)
		return true;	/* given explicitly */
	if (strncmp(t->display, "blk.N.", 6) == 0)
		t->id = xstrdup(t->display + 6);
	else if (g == NULL)
		t->id = xstrdup(t->display);
	return true;
}

static int
pat_compile(struct ydoc *d, yaml_node_t *n, struct names_tensor *t,
    struct gl_error *err)
{
	PCRE2_UCHAR msg[256];
	PCRE2_SIZE off;
	int code, g;

	t->re = pcre2_compile((PCRE2_SPTR)t->pattern, PCRE2_ZERO_TERMINATED,
	    PCRE2_ANCHORED | PCRE2_ENDANCHORED, &code, &off, NULL);
	if (t->re == NULL) {
		pcre2_get_error_message(code, msg, sizeof msg);
		return ydoc_error(d, n, err, "invalid pattern '%s': %s at "
		    "offset %zu", t->pattern, (const char *)msg, (size_t)off);
	}
	g = pcre2_substring_number_from_name(t->re, (PCRE2_SPTR)"layer");
	if (g > 0) {
		t->per_layer = true;
		t->layer_group = (uint32_t)g;
	}
	return 0;
}

/* ---- the map documents ------------------------------------------------- */

/* What the field setters of one map file fill in. */
struct map_parse {
	struct names_map *m;
	struct names_tensor *t;		/* the tensor being read */
	struct names_key *k;		/* the key being read */
	int *unless_nodes;		/* per tensor, for the second pass */
	size_t cap_tensors;
};

static int
set_expr(struct ydoc *d, yaml_node_t *n, struct names_expr **out,
    char **text, struct gl_error *err)
{
	const char *s = ydoc_scalar(n), *what;
	size_t at;

	if (s == NULL || *s == '\0')
		return ydoc_error(d, n, err, "expected an expression");
	*out = nx_parse(s, &what, &at);
	if (*out == NULL)
		return ydoc_error(d, n, err, "in expression '%s': expected %s "
		    "at offset %zu", s, what, at);
	*text = xstrdup(s);
	return 0;
}

static const struct {
	const char *name;
	uint32_t type;
} map_types[] = {
	{ "uint8", GGUF_UINT8 }, { "int8", GGUF_INT8 },
	{ "uint16", GGUF_UINT16 }, { "int16", GGUF_INT16 },
	{ "uint32", GGUF_UINT32 }, { "int32", GGUF_INT32 },
	{ "float32", GGUF_FLOAT32 }, { "bool", GGUF_BOOL },
	{ "string", GGUF_STRING }, { "uint64", GGUF_UINT64 },
	{ "int64", GGUF_INT64 }, { "float64", GGUF_FLOAT64 },
};

static int
key_set_key(struct ydoc *d, yaml_node_t *n, void *obj, struct gl_error *err)
{
	struct map_parse *mp = obj;

	return ydoc_strdup(d, n, &mp->k->key, err);
}

static int
key_set_type(struct ydoc *d, yaml_node_t *n, void *obj, struct gl_error *err)
{
	struct map_parse *mp = obj;
	const char *s = ydoc_scalar(n);
	size_t i;

	for (i = 0; s != NULL && i < sizeof map_types / sizeof map_types[0];
	    i++) {
		if (strcmp(s, map_types[i].name) == 0) {
			mp->k->type = map_types[i].type;
			return 0;
		}
	}
	return ydoc_error(d, n, err, "expected a GGUF scalar type (uint32, "
	    "float32, string, bool, ...)");
}

static int
key_set_when(struct ydoc *d, yaml_node_t *n, void *obj, struct gl_error *err)
{
	struct map_parse *mp = obj;

	return set_expr(d, n, &mp->k->when, &mp->k->when_text, err);
}

static int
t_set_pattern(struct ydoc *d, yaml_node_t *n, void *obj, struct gl_error *err)
{
	struct map_parse *mp = obj;

	if (ydoc_strdup(d, n, &mp->t->pattern, err) < 0)
		return -1;
	if (pat_compile(d, n, mp->t, err) < 0)
		return -1;
	pat_describe(mp->t);
	return 0;
}

static int
t_set_id(struct ydoc *d, yaml_node_t *n, void *obj, struct gl_error *err)
{
	struct map_parse *mp = obj;
	const char *s;

	if (ydoc_string(d, n, &s, err) < 0)
		return -1;
	free(mp->t->id);
	mp->t->id = xstrdup(s);
	return 0;
}

static int
t_set_shape(struct ydoc *d, yaml_node_t *n, void *obj, struct gl_error *err)
{
	struct map_parse *mp = obj;
	struct names_tensor *t = mp->t;
	yaml_node_item_t *it;

	if (n->type != YAML_SEQUENCE_NODE)
		return ydoc_error(d, n, err, "expected a list of dimensions");
	for (it = n->data.sequence.items.start;
	    it < n->data.sequence.items.top; it++) {
		if (t->n_dims == NAMES_MAX_DIMS)
			return ydoc_error(d, n, err, "expected at most %d "
			    "dimensions", NAMES_MAX_DIMS);
		if (set_expr(d, ydoc_node(d, *it), &t->shape[t->n_dims],
		    &t->shape_text[t->n_dims], err) < 0)
			return -1;
		t->n_dims++;
	}
	if (t->n_dims == 0)
		return ydoc_error(d, n, err, "expected at least one dimension");
	return 0;
}

static int
t_set_optional(struct ydoc *d, yaml_node_t *n, void *obj,
    struct gl_error *err)
{
	struct map_parse *mp = obj;

	return ydoc_bool(d, n, &mp->t->optional, err);
}

static int
t_set_when(struct ydoc *d, yaml_node_t *n, void *obj, struct gl_error *err)
{
	struct map_parse *mp = obj;

	return set_expr(d, n, &mp->t->when, &mp->t->when_text, err);
}

static int
t_set_unless(struct ydoc *d, yaml_node_t *n, void *obj, struct gl_error *err)
{
	struct map_parse *mp = obj;

	if (n->type != YAML_SEQUENCE_NODE)
		return ydoc_error(d, n, err, "expected a list of tensor ids "
		    "(such as attn_qkv.weight)");
	mp->unless_nodes[mp->m->n_tensors] = (int)(n - d->doc.nodes.start) +
	    1;
	return 0;
}

static int
map_read_key(struct ydoc *d, yaml_node_t *n, struct map_parse *mp,
    struct gl_error *err)
{
	static const struct ydoc_field fields[] = {
		{ "key", true, .set = key_set_key },
		{ "type", true, .set = key_set_type },
		{ "when", false, .set = key_set_when },
	};
	struct names_map *m = mp->m;

	m->keys = xreallocarray(m->keys, m->n_keys + 1, sizeof *m->keys);
	mp->k = &m->keys[m->n_keys++];
	memset(mp->k, 0, sizeof *mp->k);
	return ydoc_fields(d, n, fields, sizeof fields / sizeof fields[0], mp,
	    err);
}

static int
map_read_tensor(struct ydoc *d, yaml_node_t *n, struct map_parse *mp,
    struct gl_error *err)
{
	static const struct ydoc_field fields[] = {
		{ "pattern", true, .set = t_set_pattern },
		{ "id", false, .set = t_set_id },
		{ "shape", false, .set = t_set_shape },
		{ "optional", false, .set = t_set_optional },
		{ "when", false, .set = t_set_when },
		{ "unless", false, .set = t_set_unless },
	};
	struct names_map *m = mp->m;
	struct names_tensor *t;

	if (m->n_tensors == mp->cap_tensors) {
		mp->cap_tensors = mp->cap_tensors ? 2 * mp->cap_tensors : 32;
		m->tensors = xreallocarray(m->tensors, mp->cap_tensors,
		    sizeof *m->tensors);
		mp->unless_nodes = xreallocarray(mp->unless_nodes,
		    mp->cap_tensors, sizeof *mp->unless_nodes);
	}
	t = mp->t = &m->tensors[m->n_tensors];
	memset(t, 0, sizeof *t);
	mp->unless_nodes[m->n_tensors] = 0;
	if (ydoc_fields(d, n, fields, sizeof fields / sizeof fields[0], mp,
	    err) < 0) {
		m->n_tensors++;		/* so that it is freed */
		return -1;
	}
	m->n_tensors++;
	if (!t->optional && strcmp(t->display, t->pattern) == 0 &&
	    strpbrk(t->pattern, nx_meta) != NULL)
		return ydoc_error(d, n, err, "a required tensor's pattern must "
		    "be literal apart from its (?<layer>...) group (mark it "
		    "optional: true otherwise)");
	return 0;
}

static long
map_find_id(const struct names_map *m, const char *id)
{
	size_t i;

	for (i = 0; i < m->n_tensors; i++)
		if (m->tensors[i].id != NULL &&
		    strcmp(m->tensors[i].id, id) == 0)
			return (long)i;
	return -1;
}

/* Second pass: the unless lists, now that every id is known. */
static int
map_resolve_unless(struct ydoc *d, struct map_parse *mp, struct gl_error *err)
{
	struct names_map *m = mp->m;
	yaml_node_item_t *it;
	size_t i;

	for (i = 0; i < m->n_tensors; i++) {
		struct names_tensor *t = &m->tensors[i];
		yaml_node_t *n;

		if (mp->unless_nodes[i] == 0)
			continue;
		n = ydoc_node(d, mp->unless_nodes[i]);
		for (it = n->data.sequence.items.start;
		    it < n->data.sequence.items.top; it++) {
			yaml_node_t *in = ydoc_node(d, *it);
			const char *s = ydoc_scalar(in);
			long j = s != NULL ? map_find_id(m, s) : -1;

			if (j < 0)
				return ydoc_error(d, in, err, "no tensor of "
				    "this map has the id '%s'", s ? s : "?");
			t->unless = xreallocarray(t->unless, t->n_unless + 1,
			    sizeof *t->unless);
			t->unless[t->n_unless++] = (size_t)j;
		}
	}
	return 0;
}

static int
map_seq(struct ydoc *d, yaml_node_t *n, struct map_parse *mp,
    int (*read)(struct ydoc *, yaml_node_t *, struct map_parse *,
    struct gl_error *), struct gl_error *err)
{
	yaml_node_item_t *it;

	if (n->type != YAML_SEQUENCE_NODE)
		return ydoc_error(d, n, err, "expected a list");
	for (it = n->data.sequence.items.start;
	    it < n->data.sequence.items.top; it++)
		if (read(d, ydoc_node(d, *it), mp, err) < 0)
			return -1;
	return 0;
}

static int
map_set_archs(struct ydoc *d, yaml_node_t *n, void *obj, struct gl_error *err)
{
	struct names_map *m = ((struct map_parse *)obj)->m;
	yaml_node_item_t *it;
	const char *s;

	if (n->type != YAML_SEQUENCE_NODE ||
	    n->data.sequence.items.start == n->data.sequence.items.top)
		return ydoc_error(d, n, err, "expected a list of architecture "
		    "names");
	for (it = n->data.sequence.items.start;
	    it < n->data.sequence.items.top; it++) {
		if (ydoc_string(d, ydoc_node(d, *it), &s, err) < 0)
			return -1;
		m->archs = xreallocarray(m->archs, m->n_archs + 1,
		    sizeof *m->archs);
		m->archs[m->n_archs++] = xstrdup(s);
	}
	return 0;
}

static int
map_set_keys(struct ydoc *d, yaml_node_t *n, void *obj, struct gl_error *err)
{
	return map_seq(d, n, obj, map_read_key, err);
}

static int
map_set_tensors(struct ydoc *d, yaml_node_t *n, void *obj,
    struct gl_error *err)
{
	return map_seq(d, n, obj, map_read_tensor, err);
}

int
names_map_parse(struct names_map *m, const char *origin, const char *text,
    size_t len, struct gl_error *err)
{
	static const struct ydoc_field fields[] = {
		{ "architectures", true, .set = map_set_archs },
		{ "keys", false, .set = map_set_keys },
		{ "tensors", true, .set = map_set_tensors },
	};
	struct map_parse mp = { m, NULL, NULL, NULL, 0 };
	struct ydoc d;
	int rc;

	memset(m, 0, sizeof *m);
	m->origin = xstrdup(origin);
	if (ydoc_load(&d, origin, text, len, err) < 0)
		return -1;
	rc = ydoc_fields(&d, ydoc_root(&d), fields,
	    sizeof fields / sizeof fields[0], &mp, err);
	if (rc == 0)
		rc = map_resolve_unless(&d, &mp, err);
	free(mp.unless_nodes);
	ydoc_free(&d);
	return rc;
}

static void
tensor_free(struct names_tensor *t)
{
	size_t i;

	pcre2_code_free(t->re);
	free(t->pattern);
	free(t->display);
	free(t->id);
	nx_free(t->when);
	free(t->when_text);
	for (i = 0; i < t->n_dims; i++) {
		nx_free(t->shape[i]);
		free(t->shape_text[i]);
	}
	free(t->unless);
}

void
names_map_free(struct names_map *m)
{
	size_t i;

	for (i = 0; i < m->n_archs; i++)
		free(m->archs[i]);
	free(m->archs);
	for (i = 0; i < m->n_keys; i++) {
		free(m->keys[i].key);
		nx_free(m->keys[i].when);
		free(m->keys[i].when_text);
	}
	free(m->keys);
	for (i = 0; i < m->n_tensors; i++)
		tensor_free(&m->tensors[i]);
	free(m->tensors);
	free(m->origin);
	memset(m, 0, sizeof *m);
}

/* ---- the database ------------------------------------------------------ */

const struct names_map *
names_db_find(const struct names_db *db, const char *arch)
{
	size_t i, j;

	for (i = 0; i < db->n; i++)
		for (j = 0; j < db->maps[i].n_archs; j++)
			if (strcmp(db->maps[i].archs[j], arch) == 0)
				return &db->maps[i];
	return NULL;
}

static int
db_check_unique(const struct names_db *db, const struct names_map *m,
    struct gl_error *err)
{
	const struct names_map *other;
	size_t j;

	for (j = 0; j < m->n_archs; j++)
		if ((other = names_db_find(db, m->archs[j])) != NULL)
			return gl_error_set(err, "%s: architecture '%s' is "
			    "already mapped by %s", m->origin, m->archs[j],
			    other->origin);
	return 0;
}

/* The largest capture group number of any pattern. */
static uint32_t
db_max_groups(const struct names_db *db)
{
	uint32_t max = 1, n;
	size_t i, j;

	for (i = 0; i < db->n; i++) {
		for (j = 0; j < db->maps[i].n_tensors; j++) {
			pcre2_pattern_info(db->maps[i].tensors[j].re,
			    PCRE2_INFO_CAPTURECOUNT, &n);
			if (n > max)
				max = n;
		}
	}
	return max;
}

int
names_db_load(struct names_db *db, struct gl_error *err)
{
	const char *const *name;
	struct datafile df;
	struct names_map m;
	int rc;

	memset(db, 0, sizeof *db);
	for (name = names_map_files; *name != NULL; name++) {
		if (datafile_load(*name, &df, err) < 0)
			return -1;
		rc = names_map_parse(&m, df.origin, df.data, df.len, err);
		if (rc == 0)
			rc = db_check_unique(db, &m, err);
		datafile_free(&df);
		if (rc < 0) {
			names_map_free(&m);
			return -1;
		}
		db->maps = xreallocarray(db->maps, db->n + 1,
		    sizeof *db->maps);
		db->maps[db->n++] = m;
	}
	db->md = pcre2_match_data_create(db_max_groups(db) + 1, NULL);
	if (db->md == NULL)
		return gl_error_set(err, "out of memory (PCRE2 match data)");
	return 0;
}

void
names_db_free(struct names_db *db)
{
	size_t i;

	for (i = 0; i < db->n; i++)
		names_map_free(&db->maps[i]);
	free(db->maps);
	pcre2_match_data_free(db->md);
	memset(db, 0, sizeof *db);
}

int
names_db_get(const struct names_db **out, struct gl_error *err)
{
	static struct names_db db;
	static int state;		/* 0 not loaded, 1 loaded, -1 failed */
	static struct gl_error saved;

	if (state == 0) {
		if (names_db_load(&db, &saved) < 0) {
			names_db_free(&db);
			state = -1;
		} else {
			state = 1;
		}
	}
	if (state < 0) {
		*err = saved;
		return -1;
	}
	*out = &db;
	return 0;
}

/* ---- matching ---------------------------------------------------------- */

/* The layer number in [p, p + n): digits, no leading zero. */
static bool
match_layer(const char *p, size_t n, int64_t *out)
{
	uint64_t v = 0;
	size_t i;

	if (n == 0 || (n > 1 && p[0] == '0'))
		return false;
	for (i = 0; i < n; i++) {
		if (!isdigit((unsigned char)p[i]))
			return false;
		if (v <= INT64_MAX / 10)
			v = v * 10 + (uint64_t)(p[i] - '0');
		else
			v = INT64_MAX;
	}
	*out = v > INT64_MAX ? INT64_MAX : (int64_t)v;
	return true;
}

long
names_match(const struct names_db *db, const struct names_map *m,
    struct gguf_str name, int64_t *layer)
{
	PCRE2_SIZE *ov = pcre2_get_ovector_pointer(db->md);
	size_t i;
	int rc;

	for (i = 0; i < m->n_tensors; i++) {
		const struct names_tensor *t = &m->tensors[i];

		rc = pcre2_match(t->re, (PCRE2_SPTR)name.p, (PCRE2_SIZE)name.n,
		    0, 0, db->md, NULL);
		if (rc < 0)
			continue;
		*layer = -1;
		if (!t->per_layer)
			return (long)i;
		if (ov[2 * t->layer_group] != PCRE2_UNSET &&
		    match_layer(name.p + ov[2 * t->layer_group],
		    ov[2 * t->layer_group + 1] - ov[2 * t->layer_group],
		    layer))
			return (long)i;
	}
	return -1;
}

/* ---- what a file is ---------------------------------------------------- */

/* general.architecture into arch when it is a usable name. */
static bool
classify_arch(const struct gguf_file *f, char *arch, size_t size)
{
	struct gguf_str s;

	arch[0] = '\0';
	if (!names_key_str(f, "general.architecture", &s) || s.n == 0 ||
	    s.n >= size || memchr(s.p, '\0', (size_t)s.n) != NULL)
		return false;
	memcpy(arch, s.p, (size_t)s.n);
	arch[s.n] = '\0';
	return true;
}

enum names_kind
names_classify(const struct names_db *db, const struct gguf_file *f,
    const struct names_map **map, char *arch, size_t size)
{
	bool have_arch = classify_arch(f, arch, size);
	struct gguf_str type;
	char key[160];
	int64_t layer;
	size_t i;

	*map = NULL;
	if (f->tensors_n == 0)
		return NAMES_NO_TENSORS;
	if (names_key_str(f, "general.type", &type) &&
	    !gguf_str_eq(type, "model"))
		return NAMES_NOT_MODEL;
	if (!have_arch)
		return NAMES_NO_ARCH;
	if ((*map = names_db_find(db, arch)) == NULL)
		return NAMES_NO_MAP;
	for (i = 0; i < f->tensors_n; i++)
		if (names_match(db, *map, f->tensors[i].name, &layer) >= 0)
			return NAMES_MODEL;
	snprintf(key, sizeof key, "%s.embedding_length", arch);
	return gguf_find_kv(f, key) != NULL ? NAMES_MODEL : NAMES_FOREIGN;
}

void
names_split(const struct gguf_file *f, int64_t *no, int64_t *count)
{
	if (!names_key_int(f, "split.no", no) || *no < 0)
		*no = 0;
	if (!names_key_int(f, "split.count", count) || *count < 1)
		*count = 1;
}

const struct model_geom *
names_geom(const struct gguf_file *f, const struct model_geom *ctx_geom,
    struct model_geom *scratch, const struct catalog *cat)
{
	struct diag_list quiet;

	if (ctx_geom != NULL)
		return ctx_geom;
	diag_list_init(&quiet, cat);
	arch_read(f, scratch, &quiet);
	diag_list_free(&quiet);
	return scratch;
}
