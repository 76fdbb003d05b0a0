/*
 * declrule.c - declarative rules from rule files (see declrule.h).
 *
 * Semantics, per match kind:
 *  - key: forbid P reports every key matching P; require P reports the file
 *    when no key matches P;
 *  - value: subjects are the STRING values of the keys matching "key" (all
 *    string keys when absent); forbid P reports each value matching P;
 *    require P reports each value not matching P, and the file when no key
 *    matches "key" at all;
 *  - tensor: subjects are the tensors passing the filters (types, min_bytes,
 *    min_dims); forbid P reports each name matching P; require P each name
 *    not matching P.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "data/builtin.h"
#include "checks/declrule.h"
#include "kernels/ggml-types.h"
#include "base/units.h"
#include "data/yamlutil.h"

static void declrule_free(struct declrule *d);

/* The rule being parsed: catalogue fields and the matcher. */
struct parsed {
	struct rule r;
	struct declrule d;
	const char *family;	/* as written (borrowed from the document),
				 * or NULL; it must be the code's letter,
				 * which is the family */
};

static int
compile(struct ydoc *d, yaml_node_t *n, pcre2_code **out, char **src,
    struct gl_error *err)
{
	const char *s = ydoc_scalar(n);
	PCRE2_UCHAR msg[256];
	PCRE2_SIZE off;
	int code;

	if (s == NULL)
		return ydoc_error(d, n, err, "expected a PCRE2 pattern");
	/* UTF-8 patterns; subjects may be invalid UTF-8 (hostile files). */
	*out = pcre2_compile((PCRE2_SPTR)s, PCRE2_ZERO_TERMINATED,
	    PCRE2_UTF | PCRE2_MATCH_INVALID_UTF, &code, &off, NULL);
	if (*out == NULL) {
		pcre2_get_error_message(code, msg, sizeof msg);
		return ydoc_error(d, n, err, "invalid pattern: %s at offset "
		    "%zu of the pattern", (const char *)msg, (size_t)off);
	}
	if (src != NULL)
		*src = xstrdup(s);
	return 0;
}

static int
f_key(struct ydoc *d, yaml_node_t *n, void *o, struct gl_error *err)
{
	return compile(d, n, &((struct parsed *)o)->d.key, NULL, err);
}

static int
f_require(struct ydoc *d, yaml_node_t *n, void *o, struct gl_error *err)
{
	struct declrule *dr = &((struct parsed *)o)->d;

	return compile(d, n, &dr->require, &dr->require_src, err);
}

static int
f_forbid(struct ydoc *d, yaml_node_t *n, void *o, struct gl_error *err)
{
	struct declrule *dr = &((struct parsed *)o)->d;

	return compile(d, n, &dr->forbid, &dr->forbid_src, err);
}

static int
f_types(struct ydoc *d, yaml_node_t *n, void *o, struct gl_error *err)
{
	struct declrule *dr = &((struct parsed *)o)->d;
	yaml_node_item_t *it;

	if (n->type != YAML_SEQUENCE_NODE)
		return ydoc_error(d, n, err, "expected a list of ggml type "
		    "names");
	for (it = n->data.sequence.items.start;
	    it < n->data.sequence.items.top; it++) {
		yaml_node_t *e = ydoc_node(d, *it);
		const char *s = ydoc_scalar(e);
		uint32_t t;

		if (s == NULL || ggml_type_parse(s, &t) < 0)
			return ydoc_error(d, e, err, "expected a ggml type "
			    "name such as f32, f16 or q4_K");
		dr->types = xreallocarray(dr->types, dr->n_types + 1,
		    sizeof *dr->types);
		dr->types[dr->n_types++] = t;
	}
	return 0;
}

/* In the order of enum decl_match. */
static const char *const match_names[] = { "key", "value", "tensor", NULL };

#define R(kind, member) YDOC_##kind##_AT(struct parsed, member)

static const struct ydoc_field rule_fields[] = {
	{ "code", true, R(STRDUP, r.code), .valid = catalog_valid_code,
	    .expect = "expected a code of one capital letter and three "
	    "digits (e.g. X001)" },
	{ "slug", true, R(STRDUP, r.slug), .valid = catalog_valid_slug,
	    .expect = "expected a slug of lowercase letters, digits and "
	    "'-'" },
	{ "family", false, R(STRING, family), .valid = catalog_valid_family,
	    .expect = "expected a family: one capital letter" },
	{ "severity", true, R(ENUM, r.severity), .names = severity_names,
	    .expect = "expected a severity: error, warning or info" },
	{ "summary", true, R(STRDUP, r.summary) },
	{ "rationale", false, R(STRDUP, r.rationale) },
	{ "basis", false, R(STRDUP, r.basis) },
	{ "fix", true, R(STRDUP, r.fix) },
	{ "match", true, R(ENUM, d.match), .names = match_names,
	    .expect = "expected what to match: key, value or tensor" },
	{ "key", false, .set = f_key },
	{ "require", false, .set = f_require },
	{ "forbid", false, .set = f_forbid },
	{ "types", false, .set = f_types },
	{ "min_bytes", false, R(SIZE, d.min_bytes),
	    .expect = "expected a size such as \"1 MiB\"" },
	{ "min_dims", false, R(UINT, d.min_dims), .max = 4,
	    .expect = "expected 0 to 4 dimensions" },
};

#undef R

static void
parsed_free(struct parsed *p)
{
	free(p->r.code);
	free(p->r.slug);
	free(p->r.summary);
	free(p->r.rationale);
	free(p->r.basis);
	free(p->r.fix);
	free(p->r.origin);
	declrule_free(&p->d);
}

/* Add m to set, taking what it owns; the set stays sorted by code (m's is
 * in no other matcher: the catalogue took it first). */
static void
declset_add(struct declset *set, const struct declrule *m)
{
	size_t lo = 0, hi = set->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(m->code, set->v[mid].code) < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	set->v = xreallocarray(set->v, set->n + 1, sizeof *set->v);
	memmove(&set->v[lo + 1], &set->v[lo], (set->n - lo) * sizeof *set->v);
	set->v[lo] = *m;
	set->n++;
}

static int
parse_rule(struct catalog *cat, struct declset *set, struct ydoc *d,
    yaml_node_t *n, struct gl_error *err)
{
	struct parsed p;

	memset(&p, 0, sizeof p);
	if (ydoc_fields(d, n, rule_fields, sizeof rule_fields /
	    sizeof rule_fields[0], &p, err) < 0)
		goto fail;
	if (p.family != NULL && p.family[0] != p.r.code[0]) {
		ydoc_error(d, n, err, "the code's letter must be the rule's "
		    "family");
		goto fail;
	}
	p.r.family = p.r.code[0];
	if ((p.d.require == NULL) == (p.d.forbid == NULL)) {
		ydoc_error(d, n, err, "expected exactly one of require and "
		    "forbid");
		goto fail;
	}
	if (p.d.match != DECL_TENSOR && (p.d.n_types || p.d.min_bytes ||
	    p.d.min_dims)) {
		ydoc_error(d, n, err, "types, min_bytes and min_dims apply to "
		    "match: tensor only");
		goto fail;
	}
	if (p.r.rationale == NULL)
		p.r.rationale = xstrdup(p.r.summary);
	p.r.origin = xasprintf("%s:%zu", d->origin, n->start_mark.line + 1);
	if (p.r.basis == NULL)
		p.r.basis = xasprintf("a declarative rule of %s", p.r.origin);
	if (catalog_add_rule(cat, &p.r) < 0) {
		ydoc_error(d, n, err, "code %s or slug %s is already declared",
		    p.r.code, p.r.slug);
		goto fail;
	}
	p.d.code = xstrdup(p.r.code);	/* p.r's strings are cat's now */
	declset_add(set, &p.d);
	return 0;
fail:
	parsed_free(&p);
	return -1;
}

int
declrule_parse(struct catalog *cat, struct declset *set, const char *origin,
    const char *text, size_t len, struct gl_error *err)
{
	yaml_node_item_t *it;
	yaml_node_t *root;
	struct ydoc d;
	int rc = 0;

	if (ydoc_load(&d, origin, text, len, err) < 0)
		return -1;
	root = ydoc_root(&d);
	if (root == NULL || root->type != YAML_SEQUENCE_NODE)
		rc = ydoc_error(&d, root, err, "expected a list of rules");
	for (it = rc == 0 ? root->data.sequence.items.start : NULL;
	    rc == 0 && it < root->data.sequence.items.top; it++)
		rc = parse_rule(cat, set, &d, ydoc_node(&d, *it), err);
	ydoc_free(&d);
	return rc;
}

int
declrule_load_file(struct catalog *cat, struct declset *set,
    const char *path, struct gl_error *err)
{
	char *text;
	size_t len;
	int rc;

	if (read_whole_file(path, 8u << 20, &text, &len, err) < 0)
		return -1;
	rc = declrule_parse(cat, set, path, text, len, err);
	free(text);
	return rc;
}

static void
declrule_free(struct declrule *d)
{
	free(d->code);
	pcre2_code_free(d->key);
	pcre2_code_free(d->require);
	pcre2_code_free(d->forbid);
	free(d->require_src);
	free(d->forbid_src);
	free(d->types);
	memset(d, 0, sizeof *d);
}

void
declset_free(struct declset *set)
{
	size_t i;

	for (i = 0; i < set->n; i++)
		declrule_free(&set->v[i]);
	free(set->v);
	set->v = NULL;
	set->n = 0;
}

/* ---- checking ---------------------------------------------------------- */

static bool
matches(pcre2_code *re, const void *s, size_t n, pcre2_match_data *md)
{
	return pcre2_match(re, (PCRE2_SPTR)s, n, 0, 0, md, NULL) >= 0;
}

static bool
tensor_passes(const struct declrule *d, const struct gguf_tensor *t)
{
	size_t i;
	bool ok = d->n_types == 0;

	for (i = 0; i < d->n_types; i++)
		ok = ok || d->types[i] == t->type;
	return ok && t->n_dims >= d->min_dims &&
	    (d->min_bytes == 0 || (t->size_ok && t->nbytes >= d->min_bytes));
}

static void
check_keys(const struct declrule *d, const struct rule *r,
    const struct gguf_file *f, struct diag_list *dl, pcre2_match_data *md)
{
	bool any = false;
	size_t i;

	for (i = 0; i < f->kv_n; i++) {
		const struct gguf_kv *kv = &f->kv[i];
		bool m = matches(d->require ? d->require : d->forbid, kv->key.p,
		    (size_t)kv->key.n, md);

		any = any || m;
		if (d->forbid && m)
			diag_add(dl, r->code, kv->offset, SUBJECT_KEY,
			    kv->key.p, (size_t)kv->key.n, "%s: key matches the "
			    "forbidden pattern /%s/", r->summary,
			    d->forbid_src);
	}
	if (d->require && !any)
		diag_add(dl, r->code, 0, SUBJECT_NONE, NULL, 0, "%s: no "
		    "metadata key matches /%s/", r->summary, d->require_src);
}

static void
check_values(const struct declrule *d, const struct rule *r,
    const struct gguf_file *f, struct diag_list *dl, pcre2_match_data *md)
{
	bool any = false;
	size_t i;

	for (i = 0; i < f->kv_n; i++) {
		const struct gguf_kv *kv = &f->kv[i];
		const struct gguf_str *v = &kv->val.v.s;
		bool m;

		if (d->key != NULL && !matches(d->key, kv->key.p,
		    (size_t)kv->key.n, md))
			continue;
		any = true;
		if (kv->type != GGUF_STRING)
			continue;
		m = matches(d->require ? d->require : d->forbid, v->p,
		    (size_t)v->n, md);
		if (d->forbid && m)
			diag_add(dl, r->code, kv->offset, SUBJECT_KEY,
			    kv->key.p, (size_t)kv->key.n, "%s: value matches "
			    "the forbidden pattern /%s/", r->summary,
			    d->forbid_src);
		else if (d->require && !m)
			diag_add(dl, r->code, kv->offset, SUBJECT_KEY,
			    kv->key.p, (size_t)kv->key.n, "%s: value does not "
			    "match /%s/", r->summary, d->require_src);
	}
	if (d->require && !any)
		diag_add(dl, r->code, 0, SUBJECT_NONE, NULL, 0, "%s: the "
		    "required key is missing", r->summary);
}

static void
check_tensors(const struct declrule *d, const struct rule *r,
    const struct gguf_file *f, struct diag_list *dl, pcre2_match_data *md)
{
	size_t i;

	for (i = 0; i < f->tensors_n; i++) {
		const struct gguf_tensor *t = &f->tensors[i];
		bool m;

		if (!tensor_passes(d, t))
			continue;
		m = matches(d->require ? d->require : d->forbid, t->name.p,
		    (size_t)t->name.n, md);
		if (d->forbid && m)
			diag_add(dl, r->code, t->offset_info, SUBJECT_TENSOR,
			    t->name.p, (size_t)t->name.n, "%s", r->summary);
		else if (d->require && !m)
			diag_add(dl, r->code, t->offset_info, SUBJECT_TENSOR,
			    t->name.p, (size_t)t->name.n, "%s: name does not "
			    "match /%s/", r->summary, d->require_src);
	}
}

/* The findings of one matcher d, reporting under r. */
static void
declrule_check(const struct declrule *d, const struct rule *r,
    const struct gguf_file *f, struct diag_list *dl)
{
	pcre2_match_data *md;

	md = xnonnull(pcre2_match_data_create_from_pattern(d->require ?
	    d->require : d->forbid, NULL));
	if (d->match == DECL_KEY)
		check_keys(d, r, f, dl, md);
	else if (d->match == DECL_VALUE)
		check_values(d, r, f, dl, md);
	else
		check_tensors(d, r, f, dl, md);
	pcre2_match_data_free(md);
}

void
declset_check(const struct declset *set, const struct gguf_file *f,
    struct diag_list *dl)
{
	size_t i;
	long r;

	for (i = 0; i < set->n; i++)
		if ((r = catalog_index(dl->cat, set->v[i].code)) >= 0)
			declrule_check(&set->v[i], &dl->cat->rules[r], f, dl);
}
