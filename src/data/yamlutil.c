/*
 * yamlutil.c - libyaml document helpers (see yamlutil.h).
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/units.h"
#include "base/util.h"
#include "data/builtin.h"
#include "data/yamlutil.h"

/* The build-time parse of text, when text is a built-in data file. */
static const struct ydoc_pre *
prebuilt_find(const char *text, size_t len)
{
	size_t i;

	for (i = 0; i < builtin_n_files; i++)
		if (builtin_files[i].len == len && builtin_files[i].doc != NULL
		    && memcmp(builtin_files[i].data, text, len) == 0)
			return builtin_files[i].doc;
	return NULL;
}

/* A pointer into the read-only tables, for libyaml's (non-const) fields;
 * nothing writes through it, and ydoc_free frees only the node array. */
#define UNCONST(type, p) ((type)(uintptr_t)(const void *)(p))

static yaml_mark_t
prebuilt_mark(const struct ydoc_pre_mark *m)
{
	yaml_mark_t y;

	y.index = m->index;
	y.line = m->line;
	y.column = m->column;
	return y;
}

static void
prebuilt_node(const struct ydoc_pre *pre, const struct ydoc_pre_node *p,
    yaml_node_t *n)
{
	n->type = (yaml_node_type_t)p->type;
	n->tag = p->tag == UINT32_MAX ? NULL :
	    UNCONST(yaml_char_t *, pre->pool + p->tag);
	switch (n->type) {
	case YAML_SCALAR_NODE:
		n->data.scalar.value = UNCONST(yaml_char_t *, pre->pool + p->a);
		n->data.scalar.length = p->b;
		n->data.scalar.style = (yaml_scalar_style_t)p->style;
		break;
	case YAML_SEQUENCE_NODE:
		n->data.sequence.items.start =
		    UNCONST(yaml_node_item_t *, pre->items + p->a);
		n->data.sequence.items.end = n->data.sequence.items.top =
		    n->data.sequence.items.start + p->b;
		n->data.sequence.style = (yaml_sequence_style_t)p->style;
		break;
	default:
		n->data.mapping.pairs.start =
		    UNCONST(yaml_node_pair_t *, pre->pairs + p->a);
		n->data.mapping.pairs.end = n->data.mapping.pairs.top =
		    n->data.mapping.pairs.start + p->b;
		n->data.mapping.style = (yaml_mapping_style_t)p->style;
		break;
	}
	n->start_mark = prebuilt_mark(&p->mark[0]);
	n->end_mark = prebuilt_mark(&p->mark[1]);
}

/* d = the document of pre: a node array pointing into pre's tables. */
static void
prebuilt_load(struct ydoc *d, const char *origin, const struct ydoc_pre *pre)
{
	yaml_node_t *nodes = xcalloc(pre->n_nodes + 1, sizeof *nodes);
	size_t i;

	memset(d, 0, sizeof *d);
	d->origin = origin;
	for (i = 0; i < pre->n_nodes; i++)
		prebuilt_node(pre, &pre->nodes[i], &nodes[i]);
	d->doc.nodes.start = nodes;
	d->doc.nodes.end = d->doc.nodes.top = nodes + pre->n_nodes;
	d->doc.start_implicit = pre->start_implicit;
	d->doc.end_implicit = pre->end_implicit;
	d->doc.start_mark = prebuilt_mark(&pre->mark[0]);
	d->doc.end_mark = prebuilt_mark(&pre->mark[1]);
	d->loaded = d->prebuilt = true;
}

int
ydoc_load(struct ydoc *d, const char *origin, const char *text, size_t len,
    struct gl_error *err)
{
	const struct ydoc_pre *pre = prebuilt_find(text, len);

	if (pre == NULL)
		return ydoc_parse(d, origin, text, len, err);
	prebuilt_load(d, origin, pre);
	return 0;
}

/* libyaml's error at the parser's problem mark; after is "" or " after
 * the first document". */
static int
parser_error(yaml_parser_t *parser, const char *origin, const char *after,
    struct gl_error *err)
{
	yaml_mark_t m = parser->problem_mark;

	return gl_error_setk(err, GL_ERR_PARSE, "%s:%zu:%zu: invalid YAML%s: "
	    "%s", origin, m.line + 1, m.column + 1, after,
	    parser->problem ? parser->problem : "parse error");
}

/*
 * One document per file: after the first, the parser must find the end of
 * the stream (comments and a "..." are fine). A second document, even an
 * empty one, is a mistake, and so is text libyaml cannot parse.
 */
static int
parse_end(yaml_parser_t *parser, const char *origin, struct gl_error *err)
{
	yaml_document_t extra;
	int rc = 0;

	if (!yaml_parser_load(parser, &extra))
		return parser_error(parser, origin, " after the first document",
		    err);
	/* at its start (the "---"), not its root: an empty document's
	 * root is past the end of the text */
	if (yaml_document_get_root_node(&extra) != NULL)
		rc = gl_error_setk(err, GL_ERR_PARSE, "%s:%zu:%zu: expected "
		    "one YAML document, found another", origin,
		    extra.start_mark.line + 1, extra.start_mark.column + 1);
	yaml_document_delete(&extra);
	return rc;
}

int
ydoc_parse(struct ydoc *d, const char *origin, const char *text, size_t len,
    struct gl_error *err)
{
	yaml_parser_t parser;
	int rc;

	memset(d, 0, sizeof *d);
	d->origin = origin;
	yaml_parser_initialize(&parser);
	yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
	if (!yaml_parser_load(&parser, &d->doc)) {
		rc = parser_error(&parser, origin, "", err);
	} else {
		d->loaded = true;
		rc = parse_end(&parser, origin, err);
	}
	yaml_parser_delete(&parser);
	if (rc < 0)
		ydoc_free(d);
	return rc;
}

void
ydoc_free(struct ydoc *d)
{
	if (d->loaded && d->prebuilt)
		free(d->doc.nodes.start);
	else if (d->loaded)
		yaml_document_delete(&d->doc);
	d->loaded = d->prebuilt = false;
}

yaml_node_t *
ydoc_root(struct ydoc *d)
{
	return yaml_document_get_root_node(&d->doc);
}

yaml_node_t *
ydoc_node(struct ydoc *d, int index)
{
	return yaml_document_get_node(&d->doc, index);
}

int
ydoc_error(const struct ydoc *d, const yaml_node_t *n, struct gl_error *err,
    const char *fmt, ...)
{
	char msg[768];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	if (n == NULL)
		return gl_error_setk(err, GL_ERR_PARSE, "%s:1:1: %s",
		    d->origin, msg);
	return gl_error_setk(err, GL_ERR_PARSE, "%s:%zu:%zu: %s", d->origin,
	    n->start_mark.line + 1, n->start_mark.column + 1, msg);
}

const char *
ydoc_scalar(const yaml_node_t *n)
{
	if (n == NULL || n->type != YAML_SCALAR_NODE)
		return NULL;
	return (const char *)n->data.scalar.value;
}

/* A non-empty string, or one valid accepts (when valid is not NULL); a bad
 * one is expect, or "expected a non-empty string" without one. */
static int
string_value(struct ydoc *d, yaml_node_t *n, bool (*valid)(const char *),
    const char *expect, const char **out, struct gl_error *err)
{
	const char *s = ydoc_scalar(n);

	if (s == NULL || (valid != NULL ? !valid(s) : *s == '\0'))
		return ydoc_error(d, n, err, "%s", expect != NULL ? expect :
		    "expected a non-empty string");
	*out = s;
	return 0;
}

/* *dst (freed first, on success only) = a copy of string_value's. */
static int
strdup_value(struct ydoc *d, yaml_node_t *n, bool (*valid)(const char *),
    const char *expect, char **dst, struct gl_error *err)
{
	const char *s = NULL;

	if (string_value(d, n, valid, expect, &s, err) < 0)
		return -1;
	free(*dst);
	*dst = xstrdup(s);
	return 0;
}

int
ydoc_string(struct ydoc *d, yaml_node_t *n, const char **out,
    struct gl_error *err)
{
	return string_value(d, n, NULL, NULL, out, err);
}

int
ydoc_strdup(struct ydoc *d, yaml_node_t *n, char **dst, struct gl_error *err)
{
	return strdup_value(d, n, NULL, NULL, dst, err);
}

int
ydoc_bool(struct ydoc *d, yaml_node_t *n, bool *out, struct gl_error *err)
{
	const char *s = ydoc_scalar(n);

	if (s != NULL && (strcmp(s, "true") == 0 || strcmp(s, "yes") == 0 ||
	    strcmp(s, "on") == 0)) {
		*out = true;
		return 0;
	}
	if (s != NULL && (strcmp(s, "false") == 0 || strcmp(s, "no") == 0 ||
	    strcmp(s, "off") == 0)) {
		*out = false;
		return 0;
	}
	return ydoc_error(d, n, err, "expected true or false");
}

/* A decimal integer that fits 64 bits, no sign (as the typed scalars). */
static int
ydoc_uint(struct ydoc *d, yaml_node_t *n, uint64_t *out, struct gl_error *err)
{
	const char *s = ydoc_scalar(n);
	char *end;
	unsigned long long v;

	if (s == NULL || *s < '0' || *s > '9')
		return ydoc_error(d, n, err, "expected a non-negative integer");
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno != 0 || *end != '\0')
		return ydoc_error(d, n, err, "expected a non-negative integer");
	*out = v;
	return 0;
}

/* A finite number as strtod reads it (as the typed scalars). */
static int
ydoc_number(struct ydoc *d, yaml_node_t *n, double *out, struct gl_error *err)
{
	const char *s = ydoc_scalar(n);
	char *end;
	double v;

	if (s == NULL || *s == '\0')
		return ydoc_error(d, n, err, "expected a number");
	errno = 0;
	v = strtod(s, &end);
	if (errno != 0 || *end != '\0' || !isfinite(v))
		return ydoc_error(d, n, err, "expected a number");
	*out = v;
	return 0;
}

/* What a field says when its value is bad and it has no expect of its own. */
static int
field_error(struct ydoc *d, const struct ydoc_field *f, yaml_node_t *n,
    const char *dflt, struct gl_error *err)
{
	return ydoc_error(d, n, err, "%s", f->expect != NULL ? f->expect :
	    dflt);
}

/* A YDOC_ENUM value that is none of the names. */
static int
enum_error(struct ydoc *d, const struct ydoc_field *f, yaml_node_t *n,
    struct gl_error *err)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	if (f->expect != NULL)
		return ydoc_error(d, n, err, "%s", f->expect);
	for (i = 0; f->names[i] != NULL; i++)
		strbuf_addf(&sb, "%s%s", i ? ", " : "", f->names[i]);
	ydoc_error(d, n, err, "expected one of: %s", strbuf_cstr(&sb));
	strbuf_free(&sb);
	return -1;
}

/* dst, an unsigned member of size bytes, = v; false when v does not fit. */
static bool
put_uint(void *dst, size_t size, uint64_t v)
{
	uint8_t v8 = (uint8_t)v;
	uint16_t v16 = (uint16_t)v;
	uint32_t v32 = (uint32_t)v;

	if (size == 1 && v <= UINT8_MAX)
		memcpy(dst, &v8, 1);
	else if (size == 2 && v <= UINT16_MAX)
		memcpy(dst, &v16, 2);
	else if (size == 4 && v <= UINT32_MAX)
		memcpy(dst, &v32, 4);
	else if (size == 8)
		memcpy(dst, &v, 8);
	else
		return false;
	return true;
}

/* YDOC_UINT, YDOC_SIZE, YDOC_NUMBER and YDOC_ENUM into dst. */
static int
field_number(struct ydoc *d, const struct ydoc_field *f, yaml_node_t *n,
    void *dst, struct gl_error *err)
{
	const char *s = ydoc_scalar(n);
	uint64_t v = 0;
	double x = 0;

	switch (f->kind) {
	case YDOC_UINT:
		if (ydoc_uint(d, n, &v, err) < 0)
			return -1;
		if (v < f->min || v > f->max || !put_uint(dst, f->size, v))
			return field_error(d, f, n, "expected a non-negative "
			    "integer", err);
		return 0;
	case YDOC_SIZE:
		if (s == NULL || parse_size(s, &v) < 0)
			return field_error(d, f, n, "expected a size such as "
			    "\"2 GiB\", \"700 MiB\" or a number of bytes", err);
		*(uint64_t *)dst = v;
		return 0;
	case YDOC_NUMBER:
		if (ydoc_number(d, n, &x, err) < 0)
			return -1;
		if (!(x > f->lo) || x > f->hi) {
			if (f->expect != NULL)
				return ydoc_error(d, n, err, "%s", f->expect);
			return ydoc_error(d, n, err, "expected a number above "
			    "%g and at most %g", f->lo, f->hi);
		}
		*(double *)dst = x;
		return 0;
	default:	/* YDOC_ENUM */
		while (s != NULL && f->names[v] != NULL &&
		    strcmp(s, f->names[v]) != 0)
			v++;
		if (s == NULL || f->names[v] == NULL ||
		    !put_uint(dst, f->size, v))
			return enum_error(d, f, n, err);
		return 0;
	}
}

/* Read value n of field f into obj. */
static int
field_set(struct ydoc *d, const struct ydoc_field *f, yaml_node_t *n,
    void *obj, struct gl_error *err)
{
	char *dst = (char *)(f->at != NULL ? f->at(obj) : obj) + f->off;

	switch (f->kind) {
	case YDOC_CUSTOM:
		return f->set(d, n, dst, err);
	case YDOC_STRDUP:
		return strdup_value(d, n, f->valid, f->expect,
		    (char **)(void *)dst, err);
	case YDOC_STRING:
		return string_value(d, n, f->valid, f->expect,
		    (const char **)(void *)dst, err);
	case YDOC_BOOL:
		return ydoc_bool(d, n, (bool *)dst, err);
	case YDOC_IGNORE:
		return 0;
	default:
		return field_number(d, f, n, dst, err);
	}
}

/* A table entry that cannot be right: a bug in the table, not the input. */
static void
field_bug(const struct ydoc_field *f, const char *what)
{
	fprintf(stderr, "gguflint: bug: the ydoc_fields table's entry for "
	    "'%s': %s\n", f->key != NULL ? f->key : "(no key)", what);
	abort();
}

/* The size of the member a kind stores into, or 0: any (YDOC_UINT and
 * YDOC_ENUM are checked apart). */
static size_t
kind_width(enum ydoc_kind kind)
{
	switch (kind) {
	case YDOC_STRDUP:
		return sizeof(char *);
	case YDOC_STRING:
		return sizeof(const char *);
	case YDOC_BOOL:
		return sizeof(bool);
	case YDOC_SIZE:
		return sizeof(uint64_t);
	case YDOC_NUMBER:
		return sizeof(double);
	default:
		return 0;
	}
}

/* Abort, naming the key, when entry f cannot be right (yamlutil.h). */
static void
field_check(const struct ydoc_field *f)
{
	enum ydoc_kind k = f->kind;
	bool is_str = k == YDOC_STRDUP || k == YDOC_STRING;
	bool is_int = k == YDOC_UINT || k == YDOC_ENUM;

	if (f->key == NULL)
		field_bug(f, "no key");
	if ((unsigned)k > YDOC_IGNORE)
		field_bug(f, "no such kind");
	if ((k == YDOC_CUSTOM) != (f->set != NULL))
		field_bug(f, k == YDOC_CUSTOM ? "YDOC_CUSTOM without set" :
		    "set, which only YDOC_CUSTOM calls");
	if (kind_width(k) != 0 && f->size != kind_width(k))
		field_bug(f, "its member is not of its kind's size");
	if (is_int && f->size != 1 && f->size != 2 && f->size != 4 &&
	    f->size != 8)
		field_bug(f, "an integer member not of 1, 2, 4 or 8 bytes");
	if (k == YDOC_UINT && (f->max == 0 || f->max < f->min))
		field_bug(f, "YDOC_UINT needs max > 0 and max >= min");
	if (k == YDOC_NUMBER && !(f->lo < f->hi))
		field_bug(f, "YDOC_NUMBER needs lo < hi");
	if (k == YDOC_ENUM && (f->names == NULL || f->names[0] == NULL))
		field_bug(f, "YDOC_ENUM without names");
	if ((f->valid != NULL && !is_str) ||
	    (f->names != NULL && k != YDOC_ENUM))
		field_bug(f, "valid or names, which its kind does not read");
	if ((k != YDOC_UINT && (f->min != 0 || f->max != 0)) ||
	    (k != YDOC_NUMBER && (f->lo != 0 || f->hi != 0)))
		field_bug(f, "a range, which its kind does not read");
	if (f->expect != NULL && (k == YDOC_BOOL || k == YDOC_CUSTOM ||
	    k == YDOC_IGNORE))
		field_bug(f, "expect, which its kind does not read");
}

/*
 * Whether key is the key of a pair of mapping n before end (all pairs when
 * end is NULL). ydoc_fields asks it of pairs whose keys it has accepted, no
 * two the same: it compares at most one key per field.
 */
static bool
key_given(struct ydoc *d, const yaml_node_t *n, const yaml_node_pair_t *end,
    const char *key)
{
	const yaml_node_pair_t *q;
	const char *s;

	if (end == NULL)
		end = n->data.mapping.pairs.top;
	for (q = n->data.mapping.pairs.start; q < end; q++)
		if ((s = ydoc_scalar(ydoc_node(d, q->key))) != NULL &&
		    strcmp(s, key) == 0)
			return true;
	return false;
}

int
ydoc_fields(struct ydoc *d, yaml_node_t *n, const struct ydoc_field *f,
    size_t nf, void *obj, struct gl_error *err)
{
	yaml_node_pair_t *p;
	size_t i;

	for (i = 0; i < nf; i++)
		field_check(&f[i]);
	if (n == NULL || n->type != YAML_MAPPING_NODE)
		return ydoc_error(d, n, err, "expected a mapping");
	for (p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top;
	    p++) {
		yaml_node_t *k = ydoc_node(d, p->key);
		const char *key = ydoc_scalar(k);

		for (i = 0; key != NULL && i < nf; i++)
			if (strcmp(key, f[i].key) == 0)
				break;
		if (key == NULL || i == nf) {
			struct strbuf sb = STRBUF_INIT;
			size_t j;

			for (j = 0; j < nf; j++)
				strbuf_addf(&sb, "%s%s", j ? ", " : "",
				    f[j].key);
			ydoc_error(d, k, err, "unknown key '%s'; expected one "
			    "of: %s", key ? key : "?", strbuf_cstr(&sb));
			strbuf_free(&sb);
			return -1;
		}
		if (key_given(d, n, p, key))
			return ydoc_error(d, k, err, "duplicate key '%s'", key);
		if (field_set(d, &f[i], ydoc_node(d, p->value), obj, err) < 0)
			return -1;
	}
	for (i = 0; i < nf; i++)
		if (f[i].required && !key_given(d, n, NULL, f[i].key))
			return ydoc_error(d, n, err, "missing required key "
			    "'%s'", f[i].key);
	return 0;
}
