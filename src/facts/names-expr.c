/*
 * names-expr.c - the expression language of the name maps (see names.h):
 * compiling the text of a shape or a condition into a tree, and evaluating
 * the tree against a model's geometry and metadata, where anything that
 * cannot be known stays unknown.
 */
#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "facts/names.h"

/* ---- the trees --------------------------------------------------------- */

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
	NB_N_EXPERT_USED, NB_LAYER, NB_RECURRENT, NB_SWA, NB_COMPRESS,
	NB_N_MTP, NB_INDEXER
};

static const char *const nx_builtins[] = {
	"n_embd", "n_layer", "n_vocab", "n_ctx_train", "n_head", "n_head_kv",
	"n_ff", "head_k", "head_v", "n_rot", "n_expert", "n_expert_used",
	"layer", "recurrent", "swa", "compress_ratio", "n_mtp", "indexer",
	NULL
};

/* ---- parsing ----------------------------------------------------------- */

#define NX_MAX_DEPTH 64

struct nx_parser {
	const char *s;
	size_t pos;
	int depth;
	const char *err;		/* what was expected, or NULL */
	size_t err_pos;
};

void
names_expr_free(struct names_expr *e)
{
	if (e == NULL)
		return;
	names_expr_free(e->a);
	names_expr_free(e->b);
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
			names_expr_free(e);
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
		names_expr_free(e);
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
			names_expr_free(e);
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
			names_expr_free(e);
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

struct names_expr *
names_expr_parse(const char *text, const char **what, size_t *at)
{
	struct nx_parser p = { text, 0, 0, NULL, 0 };
	struct names_expr *e = nx_or(&p);

	nx_skip(&p);
	if (e != NULL && p.s[p.pos] != '\0') {
		names_expr_free(e);
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

/* The metadata key a name stands for: ARCH.NAME, or NAME itself. */
static bool
nx_key_value(const struct names_env *env, const char *name, int64_t *out)
{
	char key[256];

	if (strncmp(name, "general.", 8) == 0 ||
	    strncmp(name, "tokenizer.", 10) == 0)
		return gguf_find_int(env->file, name, out);
	if (env->geom == NULL || !env->geom->has_arch)
		return false;
	snprintf(key, sizeof key, "%s.%s", env->geom->arch, name);
	return gguf_find_int(env->file, key, out);
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

/*
 * The FFN's width. Without the key llama.cpp takes 0 in every layer (its
 * per-layer widths start as zeros), so a dense FFN's tensor of any width
 * is refused ("wrong shape; expected N, 0"): a known 0 here, which a
 * shape of n_ff alone compares, and an expression over it leaves unknown
 * (arch.c's 4 x n_embd is the plan's assumption, not llama.cpp's). A
 * per-layer array is arch.c's (nemotron_h's).
 */
static struct names_val
nx_ff(const struct names_env *env)
{
	static const struct names_val absent = { 0, true };
	int64_t v;
	char key[256];

	if (env->geom == NULL || !env->geom->has_arch)
		return nx_unknown;
	snprintf(key, sizeof key, "%s.feed_forward_length", env->geom->arch);
	if (!nx_key_value(env, "feed_forward_length", &v) &&
	    gguf_find_kv(env->file, key) == NULL)
		return absent;
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

	/* read as a per-layer array (0 in a hybrid's recurrent layers) */
	if (v.known || env->geom->has_n_head_kv ||
	    nx_key_value(env, "attention.head_count_kv", &k))
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
	case NB_N_LAYER: return nx_known(arch_blocks(g));
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
	case NB_N_MTP:		/* the MTP layers llama.cpp loads as such
				 * (deepseek4: 0 without the MTP head) */
		return nx_opt(true, g->n_layer_nextn - (g->router_kv ? 1 : 0));
	case NB_COMPRESS:	/* DSV4: the layer's compression ratio */
		return nx_opt(g->dsv4 && env->layer >= 0 &&
		    env->layer < g->n_layer && env->layer < ARCH_MAX_LAYERS,
		    g->dsv4 && env->layer >= 0 &&
		    env->layer < ARCH_MAX_LAYERS ? g->compress[env->layer] :
		    0);
	case NB_INDEXER:	/* DSA: a layer with an indexer, 1, else 0 */
		return nx_opt(env->layer >= 0 && env->layer < g->n_layer,
		    env->layer >= 0 && env->layer < ARCH_MAX_LAYERS &&
		    g->indexer_k > 0 && g->indexer[env->layer]);
	case NB_RECURRENT:	/* a hybrid's recurrent layer: 1, else 0 */
	case NB_SWA:		/* a sliding-window layer: 1, else 0 */
		return nx_opt(env->layer >= 0 && env->layer < g->n_layer,
		    env->layer >= 0 && env->layer < ARCH_MAX_LAYERS &&
		    (b == NB_SWA ? g->swa && g->is_swa[env->layer] :
		    g->is_recr[env->layer]));
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

