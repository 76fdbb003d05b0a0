/*
 * catalog.c - loading the rule catalogue from YAML with libyaml (catalog.h).
 *
 * A catalogue file is a sequence of mappings, each with exactly the keys
 * code, slug, family, severity, summary, rationale, basis and fix, all
 * scalars: a built-in rule must say what decides its severity (basis).
 * One more key is optional: security_severity, the CVSS-like score SARIF
 * gives the rule (see catalog.h).
 */
#include "config.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <yaml.h>

#include "data/builtin.h"
#include "findings/catalog.h"
#include "data/yamlutil.h"

static const char *const rule_fields[] = {
	"code", "slug", "family", "severity", "summary", "rationale", "basis",
	"fix", "security_severity"
};
#define N_RULE_FIELDS (sizeof rule_fields / sizeof rule_fields[0])
/* The required ones: all but the last. */
#define N_REQUIRED (N_RULE_FIELDS - 1)

/* A score "D.D" from 0.0 to 10.0, as GitHub's security-severity is. */
static bool
valid_score(const char *v)
{
	if (strcmp(v, "10.0") == 0)
		return true;
	return isdigit((unsigned char)v[0]) && v[1] == '.' &&
	    isdigit((unsigned char)v[2]) && v[3] == '\0';
}

static int
mark_error(struct gl_error *err, const char *origin, yaml_mark_t m,
    const char *what)
{
	return gl_error_setk(err, GL_ERR_PARSE, "%s:%zu:%zu: %s", origin,
	    m.line + 1, m.column + 1, what);
}

static const char *
scalar(yaml_node_t *n)
{
	return (const char *)n->data.scalar.value;
}

bool
catalog_valid_code(const char *s)
{
	size_t i;

	if (strlen(s) != 4 || !isupper((unsigned char)s[0]))
		return false;
	for (i = 1; i < 4; i++)
		if (!isdigit((unsigned char)s[i]))
			return false;
	return true;
}

bool
catalog_valid_slug(const char *s)
{
	if (*s == '\0' || *s == '-')
		return false;
	for (; *s != '\0'; s++)
		if (!(islower((unsigned char)*s) ||
		    isdigit((unsigned char)*s) || *s == '-'))
			return false;
	return true;
}

bool
catalog_valid_family(const char *s)
{
	return strlen(s) == 1 && isupper((unsigned char)s[0]);
}

/* Check one field's value; returns NULL or what was expected. */
static const char *
check_field(size_t field, const char *v)
{
	enum severity sev;

	switch (field) {
	case 0:
		return catalog_valid_code(v) ? NULL :
		    "a code of one capital letter and three digits (e.g. F010)";
	case 1:
		return catalog_valid_slug(v) ? NULL :
		    "a slug of lowercase letters, digits and '-'";
	case 2:
		return catalog_valid_family(v) ? NULL :
		    "a family: one capital letter";
	case 3:
		return severity_parse(v, &sev) == 0 ? NULL :
		    "a severity: error, warning or info";
	case 8:
		return valid_score(v) ? NULL :
		    "a score from 0.0 to 10.0 such as \"7.8\"";
	default:
		return *v != '\0' ? NULL : "a non-empty text";
	}
}

static int
rule_from_node(struct catalog *cat, yaml_document_t *doc, yaml_node_t *map,
    const char *origin, struct gl_error *err)
{
	const char *val[N_RULE_FIELDS] = { 0 };
	yaml_node_pair_t *p;
	struct rule *r;
	size_t f;

	if (map->type != YAML_MAPPING_NODE)
		return mark_error(err, origin, map->start_mark,
		    "expected a mapping describing one rule");
	for (p = map->data.mapping.pairs.start;
	    p < map->data.mapping.pairs.top; p++) {
		yaml_node_t *k = yaml_document_get_node(doc, p->key);
		yaml_node_t *v = yaml_document_get_node(doc, p->value);
		const char *bad;

		if (k->type != YAML_SCALAR_NODE)
			return mark_error(err, origin, k->start_mark,
			    "expected a scalar key");
		for (f = 0; f < N_RULE_FIELDS; f++)
			if (strcmp(scalar(k), rule_fields[f]) == 0)
				break;
		if (f == N_RULE_FIELDS)
			return mark_error(err, origin, k->start_mark,
			    "unknown key; expected one of code, slug, family, "
			    "severity, summary, rationale, basis, fix, "
			    "security_severity");
		if (val[f] != NULL)
			return mark_error(err, origin, k->start_mark,
			    "duplicate key");
		if (v->type != YAML_SCALAR_NODE)
			return mark_error(err, origin, v->start_mark,
			    "expected a scalar value");
		if ((bad = check_field(f, scalar(v))) != NULL) {
			char what[160];

			snprintf(what, sizeof what, "%s: expected %s",
			    rule_fields[f], bad);
			return mark_error(err, origin, v->start_mark, what);
		}
		val[f] = scalar(v);
	}
	for (f = 0; f < N_REQUIRED; f++) {
		if (val[f] == NULL) {
			char what[96];

			snprintf(what, sizeof what, "missing key '%s'",
			    rule_fields[f]);
			return mark_error(err, origin, map->start_mark, what);
		}
	}
	if (val[0][0] != val[2][0])
		return mark_error(err, origin, map->start_mark,
		    "the code's letter must be the rule's family");
	if (catalog_find(cat, val[0]) != NULL ||
	    catalog_find(cat, val[1]) != NULL)
		return mark_error(err, origin, map->start_mark,
		    "code or slug already declared");
	cat->rules = xreallocarray(cat->rules, cat->n + 1, sizeof *cat->rules);
	r = &cat->rules[cat->n++];
	r->code = xstrdup(val[0]);
	r->slug = xstrdup(val[1]);
	r->family = val[2][0];
	severity_parse(val[3], &r->severity);
	r->summary = xstrdup(val[4]);
	r->rationale = xstrdup(val[5]);
	r->basis = xstrdup(val[6]);
	r->fix = xstrdup(val[7]);
	r->security_severity = val[8] != NULL ? xstrdup(val[8]) : NULL;
	r->origin = xasprintf("%s:%zu", origin, map->start_mark.line + 1);
	return 0;
}

static int
rule_cmp(const void *a, const void *b)
{
	return strcmp(((const struct rule *)a)->code,
	    ((const struct rule *)b)->code);
}

int
catalog_add_yaml(struct catalog *cat, const char *origin, const char *text,
    size_t len, struct gl_error *err)
{
	struct ydoc d;
	yaml_node_t *root;
	yaml_node_item_t *it;
	int rc = 0;

	if (ydoc_load(&d, origin, text, len, err) < 0)
		return -1;
	root = ydoc_root(&d);
	if (root == NULL || root->type != YAML_SEQUENCE_NODE) {
		yaml_mark_t m = { 0, 0, 0 };

		rc = mark_error(err, origin, root ? root->start_mark : m,
		    "expected a sequence of rules");
	} else {
		for (it = root->data.sequence.items.start;
		    rc == 0 && it < root->data.sequence.items.top; it++)
			rc = rule_from_node(cat, &d.doc, ydoc_node(&d, *it),
			    origin, err);
	}
	ydoc_free(&d);
	if (cat->n > 0)
		qsort(cat->rules, cat->n, sizeof *cat->rules, rule_cmp);
	return rc;
}

int
catalog_load_builtin(struct catalog *cat, struct gl_error *err)
{
	struct datafile df;
	const char *name;
	size_t pos = 0;
	int rc;

	cat->rules = NULL;
	cat->n = 0;
	while ((name = builtin_next("rules", &pos)) != NULL) {
		if (datafile_load(name, &df, err) < 0)
			return -1;
		rc = catalog_add_yaml(cat, df.origin, df.data, df.len, err);
		datafile_free(&df);
		if (rc < 0)
			return -1;
	}
	return 0;
}

void
catalog_rule_free(struct rule *r)
{
	free(r->code);
	free(r->slug);
	free(r->summary);
	free(r->rationale);
	free(r->basis);
	free(r->fix);
	free(r->security_severity);
	free(r->origin);
}

void
catalog_free(struct catalog *cat)
{
	size_t i;

	for (i = 0; i < cat->n; i++)
		catalog_rule_free(&cat->rules[i]);
	free(cat->rules);
	cat->rules = NULL;
	cat->n = 0;
}

int
catalog_add_rule(struct catalog *cat, const struct rule *r)
{
	size_t i, lo = 0, hi = cat->n;
	char up[5];

	/* A valid code, in capitals, is taken only by a code (no slug has
	 * a capital), found by binary search; a slug by a slug, one by one,
	 * or by the code it spells in capitals (catalog_find's sense). */
	for (i = 0; i < 4 && r->slug[i] != '\0'; i++)
		up[i] = (char)toupper((unsigned char)r->slug[i]);
	up[i] = '\0';
	if (r->slug[i] == '\0' && catalog_index(cat, up) >= 0)
		return -1;
	for (i = 0; i < cat->n; i++)
		if (strcmp(cat->rules[i].slug, r->slug) == 0)
			return -1;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(r->code, cat->rules[mid].code);

		if (c == 0)
			return -1;
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	cat->rules = xreallocarray(cat->rules, cat->n + 1, sizeof *cat->rules);
	memmove(&cat->rules[lo + 1], &cat->rules[lo],
	    (cat->n - lo) * sizeof *cat->rules);
	cat->rules[lo] = *r;
	cat->n++;
	return 0;
}

long
catalog_index(const struct catalog *cat, const char *code)
{
	size_t lo = 0, hi = cat->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(code, cat->rules[mid].code);

		if (c == 0)
			return (long)mid;
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return -1;
}

const struct rule *
catalog_find(const struct catalog *cat, const char *name)
{
	size_t i;

	for (i = 0; i < cat->n; i++)
		if (strcasecmp(cat->rules[i].code, name) == 0 ||
		    strcmp(cat->rules[i].slug, name) == 0)
			return &cat->rules[i];
	return NULL;
}
