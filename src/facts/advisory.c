/*
 * advisory.c - the published advisories on loading GGUF files
 * (rules/runtime/advisories.yaml; see advisory.h).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "base/once.h"
#include "base/util.h"
#include "data/builtin.h"
#include "data/yamlutil.h"
#include "facts/advisory.h"

#define ADV_DATA "rules/runtime/advisories.yaml"

static const char *const components[] = { "llama.cpp", "ggml", "ollama", NULL };

/* fixed: as written; fixed_build() reads it once the row's component is
 * known (a bNNNN for llama.cpp and ggml). */
static int
set_fixed(struct ydoc *d, yaml_node_t *n, void *dst, struct gl_error *err)
{
	struct adv_row *r = dst;
	const char *s = ydoc_scalar(n);

	if (s == NULL || *s == '\0' || strlen(s) > 31)
		return ydoc_error(d, n, err,
		    "expected a llama.cpp build such "
		    "as b6500, or a version such as 0.17.1");
	free(r->fixed);
	r->fixed = xstrdup(s);
	return 0;
}

/* verified: history or reported. */
static int
set_verified(struct ydoc *d, yaml_node_t *n, void *dst, struct gl_error *err)
{
	const char *s = ydoc_scalar(n);

	if (s != NULL && strcmp(s, "history") == 0)
		*(bool *)dst = true;
	else if (s != NULL && strcmp(s, "reported") == 0)
		*(bool *)dst = false;
	else
		return ydoc_error(d, n, err, "expected history or reported");
	return 0;
}

/* A rule code (a family letter and three digits), alone or with ":" and
 * a subject's suffix, shorter than ADV_RULE_MAX. */
static bool
is_code(const char *s)
{
	return s != NULL && s[0] >= 'A' && s[0] <= 'Z' && s[1] >= '0' &&
	    s[1] <= '9' && s[2] >= '0' && s[2] <= '9' && s[3] >= '0' &&
	    s[3] <= '9' && (s[4] == '\0' || (s[4] == ':' && s[5] != '\0')) &&
	    strlen(s) < ADV_RULE_MAX;
}

/* rules: a list of codes (F021), at most ADV_MAX_RULES. */
static int
set_rules(struct ydoc *d, yaml_node_t *n, void *dst, struct gl_error *err)
{
	struct adv_row *r = dst;
	yaml_node_item_t *it;

	if (n == NULL || n->type != YAML_SEQUENCE_NODE ||
	    n->data.sequence.items.top - n->data.sequence.items.start >
		ADV_MAX_RULES)
		return ydoc_error(d, n, err,
		    "expected a list of at most 8 rule codes "
		    "such as [F021, \"M004:.nextn_predict_layers\"]");
	r->n_rules = 0;
	for (it = n->data.sequence.items.start; it < n->data.sequence.items.top;
	     it++) {
		yaml_node_t *e = ydoc_node(d, *it);
		const char *s = ydoc_scalar(e);

		if (!is_code(s))
			return ydoc_error(d, e, err,
			    "expected a rule code such as F021, "
			    "or one with a subject such as "
			    "M004:.nextn_predict_layers");
		memcpy(r->rules[r->n_rules++], s, strlen(s) + 1);
	}
	return 0;
}

#define R(kind, member) YDOC_##kind##_AT(struct adv_row, member)

static const struct ydoc_field row_fields[] = {
	{ "id", true, R(STRDUP, id) },
	{ "component", true, R(ENUM, component), .names = components },
	{ "fixed", true, .set = set_fixed, .off = 0,
	    .size = sizeof(struct adv_row) },
	{ "verified", true, .set = set_verified,
	    YDOC_AT(struct adv_row, verified) },
	{ "commit", true, .kind = YDOC_IGNORE },
	{ "rules", true, .set = set_rules, .off = 0,
	    .size = sizeof(struct adv_row) },
	{ "bug", true, R(STRDUP, bug) },
	{ "source", true, R(STRDUP, source) },
};

#undef R

/* The value of key in mapping n (which ydoc_fields has read), or n. */
static yaml_node_t *
value_of(struct ydoc *d, yaml_node_t *n, const char *key)
{
	yaml_node_pair_t *p;

	for (p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top;
	     p++) {
		const char *k = ydoc_scalar(ydoc_node(d, p->key));

		if (k != NULL && strcmp(k, key) == 0)
			return ydoc_node(d, p->value);
	}
	return n;
}

/* The build of r->fixed for llama.cpp and ggml ("b" and 1-7 digits); a
 * bad one is reported at the row's fixed: value. */
static int
fixed_build(struct ydoc *d, yaml_node_t *e, struct adv_row *r,
    struct gl_error *err)
{
	unsigned long v = 0;
	char *end = NULL;
	const char *s = r->fixed;

	if (r->component == ADV_OLLAMA)
		return 0;
	if (s[0] == 'b' && s[1] >= '1' && s[1] <= '9')
		v = strtoul(s + 1, &end, 10);
	if (end == NULL || *end != '\0' || v > 9999999)
		return ydoc_error(d, value_of(d, e, "fixed"), err,
		    "expected a llama.cpp build "
		    "such as b6500 for %s",
		    adv_component_name(r->component));
	r->fixed_build = (uint32_t)v;
	return 0;
}

static int
parse_rows(struct ydoc *d, yaml_node_t *n, struct adv_db *db,
    struct gl_error *err)
{
	yaml_node_item_t *it;
	size_t cnt;

	if (n == NULL || n->type != YAML_SEQUENCE_NODE)
		return ydoc_error(d, n, err,
		    "expected a list of advisories "
		    "{id, component, fixed, verified, commit, rules, bug, "
		    "source}");
	cnt = (size_t)(n->data.sequence.items.top -
	    n->data.sequence.items.start);
	db->rows = xcalloc(cnt ? cnt : 1, sizeof *db->rows);
	for (it = n->data.sequence.items.start; it < n->data.sequence.items.top;
	     it++) {
		struct adv_row *r = &db->rows[db->n++];
		yaml_node_t *e = ydoc_node(d, *it);

		if (ydoc_fields(d, e, row_fields,
			sizeof row_fields / sizeof row_fields[0], r, err) < 0 ||
		    fixed_build(d, e, r, err) < 0)
			return -1;
	}
	return 0;
}

static int
set_rows(struct ydoc *d, yaml_node_t *n, void *dst, struct gl_error *err)
{
	return parse_rows(d, n, dst, err);
}

static int
set_runtime(struct ydoc *d, yaml_node_t *n, void *dst, struct gl_error *err)
{
	const char *s = ydoc_scalar(n);

	(void)dst;
	if (s == NULL || strcmp(s, "advisories") != 0)
		return ydoc_error(d, n, err, "expected advisories");
	return 0;
}

static const struct ydoc_field db_fields[] = {
	{ "runtime", true, .set = set_runtime, .off = 0,
	    .size = sizeof(struct adv_db) },
	{ "advisories", true, .set = set_rows, .off = 0,
	    .size = sizeof(struct adv_db) },
};

int
adv_db_parse(struct adv_db *db, const char *origin, const char *text,
    size_t len, struct gl_error *err)
{
	struct ydoc d;
	int rc;

	memset(db, 0, sizeof *db);
	if (ydoc_load(&d, origin, text, len, err) < 0)
		return -1;
	rc = ydoc_fields(&d, ydoc_root(&d), db_fields,
	    sizeof db_fields / sizeof db_fields[0], db, err);
	ydoc_free(&d);
	if (rc < 0)
		adv_db_free(db);
	return rc;
}

void
adv_db_free(struct adv_db *db)
{
	size_t i;

	for (i = 0; i < db->n; i++) {
		free(db->rows[i].id);
		free(db->rows[i].fixed);
		free(db->rows[i].bug);
		free(db->rows[i].source);
	}
	free(db->rows);
	memset(db, 0, sizeof *db);
}

static struct adv_db shared_db;
static struct gl_once shared_once = GL_ONCE_INIT;

static int
db_load(void *arg, struct gl_error *err)
{
	struct datafile df;
	int rc;

	if (datafile_load(ADV_DATA, &df, err) < 0)
		return -1;
	rc = adv_db_parse(arg, df.origin, df.data, df.len, err);
	datafile_free(&df);
	return rc;
}

static void
db_free(void *db)
{
	adv_db_free(db);
}

int
adv_db_get(const struct adv_db **out, struct gl_error *err)
{
	if (gl_once_get(&shared_once, db_load, NULL, &shared_db, err) < 0)
		return -1;
	*out = &shared_db;
	return 0;
}

void
adv_db_cleanup(void)
{
	gl_once_reset(&shared_once, db_free, &shared_db);
}

const char *
adv_component_name(enum adv_component c)
{
	return (unsigned)c <= ADV_OLLAMA ? components[c] : "runtime";
}
