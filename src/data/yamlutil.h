/*
 * yamlutil.h - small helpers over libyaml's document API for gguflint's
 * configuration files (rule catalogue, profiles, capability tables): load a
 * document, walk mappings, read typed scalars, and report errors as
 * FILE:LINE:COL: what was expected.
 */
#ifndef GGUFLINT_YAMLUTIL_H
#define GGUFLINT_YAMLUTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <yaml.h>

#include "base/error.h"

struct ydoc {
	yaml_document_t doc;
	const char *origin;	/* file name for messages; borrowed */
	bool loaded;
	bool prebuilt;		/* rebuilt from a struct ydoc_pre */
};

/*
 * ydoc_load: the document of text (d need not be initialised). When text
 * is, byte for byte, one of the built-in data files, the document is
 * rebuilt from its build-time parse (struct ydoc_pre: its strings are the
 * static tables'); otherwise libyaml parses it (ydoc_parse). origin (kept,
 * not copied: it must outlive d) names the text in messages; text is not
 * kept. Returns 0 (free d with ydoc_free()), or -1 with err (GL_ERR_PARSE)
 * at the problem mark and nothing to free.
 */
int ydoc_load(struct ydoc *d, const char *origin, const char *text,
    size_t len, struct gl_error *err);
/*
 * ydoc_parse: the same, always with libyaml. The text must be exactly one
 * document: anything after it but comments and a "..." is an error at its
 * FILE:LINE:COL (GL_ERR_PARSE), a second document (even an empty one)
 * "expected one YAML document, found another" at its "---", text libyaml
 * cannot parse "invalid YAML after the first document: " and what libyaml
 * expected.
 * (A built-in file, which ydoc_load does not parse, was checked the same
 * way by build-aux/yaml2c when it was compiled in.)
 */
int ydoc_parse(struct ydoc *d, const char *origin, const char *text,
    size_t len, struct gl_error *err);
/* ydoc_free: free the document (again is harmless); every node, scalar and
 * string borrowed from it is gone. */
void ydoc_free(struct ydoc *d);

/*
 * struct ydoc_pre: a YAML document as libyaml parsed it at build time
 * (build-aux/yaml2c writes one for each built-in data file), without
 * pointers: node I's tag and scalar value are offsets in pool (UINT32_MAX:
 * no tag); a sequence's items are items[a .. a + b), a mapping's pairs
 * pairs[a .. a + b); a scalar's value is pool[a .. a + b).
 */
struct ydoc_pre_mark {
	uint32_t index, line, column;
};

struct ydoc_pre_node {
	unsigned char type, style;	/* yaml_node_type_t, its style */
	uint32_t tag, a, b;
	struct ydoc_pre_mark mark[2];	/* start, end */
};

struct ydoc_pre {
	const struct ydoc_pre_node *nodes;
	size_t n_nodes;
	const yaml_node_item_t *items;
	const yaml_node_pair_t *pairs;
	const char *pool;
	int start_implicit, end_implicit;
	struct ydoc_pre_mark mark[2];
};

/*
 * ydoc_root: the root node, or NULL for an empty document. ydoc_node:
 * node index (as items and pairs name them), or NULL. Both borrowed from
 * d: valid until ydoc_free(d).
 */
yaml_node_t *ydoc_root(struct ydoc *d);
yaml_node_t *ydoc_node(struct ydoc *d, int index);

/*
 * ydoc_error: err = "ORIGIN:LINE:COL: message" at node n (1:1 when n is
 * NULL), of kind GL_ERR_PARSE, the message truncated to 767 bytes; err may
 * be NULL. Returns -1.
 */
int ydoc_error(const struct ydoc *d, const yaml_node_t *n,
    struct gl_error *err, const char *fmt, ...) GL_PRINTF(4, 5);

/* ydoc_scalar: the scalar's text (borrowed from the document), or NULL
 * when n is NULL or not a scalar. */
const char *ydoc_scalar(const yaml_node_t *n);

/*
 * Typed scalars: each stores the value of scalar n and returns 0, or
 * returns -1 with err (ydoc_error) saying what was expected at n and the
 * output untouched.
 *  - ydoc_string: a non-empty string, borrowed from the document.
 *  - ydoc_strdup: *dst (freed first, on success only) becomes a copy of a
 *    non-empty string; the caller frees it.
 *  - ydoc_bool: true/yes/on or false/no/off.
 * (Integers and numbers are read by ydoc_fields' kinds.)
 */
int ydoc_string(struct ydoc *d, yaml_node_t *n, const char **out,
    struct gl_error *err);
int ydoc_strdup(struct ydoc *d, yaml_node_t *n, char **dst,
    struct gl_error *err);
int ydoc_bool(struct ydoc *d, yaml_node_t *n, bool *out,
    struct gl_error *err);

/*
 * enum ydoc_kind: what a field's value is, and where it goes. dst is the
 * field's member in the object: at offset off of obj, or of at(obj) when
 * the field has an at. Every kind but YDOC_CUSTOM stores only a good value;
 * for a bad one it fails with "FILE:LINE:COL: " and the field's expect, or
 * without one the kind's own message (quoted below).
 */
enum ydoc_kind {
	YDOC_CUSTOM = 0,	/* set(d, value, dst, err) reads it */
	YDOC_STRDUP,	/* char *: a copy of a non-empty string (the old one
			 * freed), or with valid, of a string valid accepts
			 * ("expected a non-empty string") */
	YDOC_STRING,	/* const char *: the same, borrowed from the document
			 * (good until ydoc_free) */
	YDOC_BOOL,	/* bool: true/yes/on or false/no/off ("expected true
			 * or false"; no expect) */
	YDOC_UINT,	/* an unsigned member of 1, 2, 4 or 8 bytes (or an
			 * enum or a signed one, for values it holds): a
			 * decimal from min to max that fits it ("expected a
			 * non-negative integer"; so is what is no decimal,
			 * whatever expect says) */
	YDOC_SIZE,	/* uint64_t: a size, parse_size ("expected a size such
			 * as \"2 GiB\", \"700 MiB\" or a number of bytes") */
	YDOC_NUMBER,	/* double: a finite number ("expected a number",
			 * whatever expect says) above lo and at most hi
			 * ("expected a number above LO and at most HI") */
	YDOC_ENUM,	/* an enum member (stored as YDOC_UINT): the index of
			 * the value in names, NULL-terminated ("expected one
			 * of: NAME, ...") */
	YDOC_IGNORE	/* any value, unread: the caller reads it itself */
};

/*
 * Where a field is stored: YDOC_AT(type, member) gives .off and .size of
 * member, of any type (what YDOC_CUSTOM's set reads it as). The per-kind
 * ones also give .kind and fail to compile when the member is not of the
 * kind's type: YDOC_STRDUP_AT (char *), YDOC_STRING_AT (const char *),
 * YDOC_BOOL_AT (bool), YDOC_SIZE_AT (uint64_t), YDOC_NUMBER_AT (double),
 * and YDOC_UINT_AT and YDOC_ENUM_AT (a member of 1, 2, 4 or 8 bytes).
 */
#define YDOC_AT(type, member) .off = offsetof(type, member), \
	.size = sizeof(((type *)0)->member)
#define YDOC_TYPED_AT_(kind_, type, member, mtype) .kind = (kind_), \
	.off = _Generic(&((type *)0)->member, mtype *: \
	    offsetof(type, member)), .size = sizeof(((type *)0)->member)
#define YDOC_STRDUP_AT(type, member) \
	YDOC_TYPED_AT_(YDOC_STRDUP, type, member, char *)
#define YDOC_STRING_AT(type, member) \
	YDOC_TYPED_AT_(YDOC_STRING, type, member, const char *)
#define YDOC_BOOL_AT(type, member) \
	YDOC_TYPED_AT_(YDOC_BOOL, type, member, bool)
#define YDOC_SIZE_AT(type, member) \
	YDOC_TYPED_AT_(YDOC_SIZE, type, member, uint64_t)
#define YDOC_NUMBER_AT(type, member) \
	YDOC_TYPED_AT_(YDOC_NUMBER, type, member, double)
/* An integer member's size, or a negative array's: a compile error. */
#define YDOC_INT_SIZE_(type, member) (sizeof(((type *)0)->member) + \
	0 * sizeof(char[YDOC_INT_WIDTH_(sizeof(((type *)0)->member)) ? 1 : \
	-1]))
#define YDOC_INT_WIDTH_(n) ((n) == 1 || (n) == 2 || (n) == 4 || (n) == 8)
#define YDOC_UINT_AT(type, member) .kind = YDOC_UINT, \
	.off = offsetof(type, member), .size = YDOC_INT_SIZE_(type, member)
#define YDOC_ENUM_AT(type, member) .kind = YDOC_ENUM, \
	.off = offsetof(type, member), .size = YDOC_INT_SIZE_(type, member)

/*
 * struct ydoc_field: one key of a mapping with a fixed set of keys and how
 * its value is read: a table of them, written with designated initializers
 * ({ "memory", true, YDOC_SIZE_AT(struct profile, memory) }), describes
 * the mapping. Each kind uses the members its comment names, and only
 * those.
 * set's dst is where the field is stored: the member when the entry has a
 * YDOC_AT, and for an entry without one the whole object (obj, or
 * at(obj)).
 *
 * A table that cannot be right is a bug, caught on its first use, before
 * any value is read: ydoc_fields prints what is wrong with which key and
 * aborts. Each entry needs a key and a known kind; a member whose size is
 * its kind's (char *, const char *, bool, uint64_t, double; 1, 2, 4 or 8
 * bytes for YDOC_UINT and YDOC_ENUM); set for YDOC_CUSTOM (and for no
 * other kind); for YDOC_UINT max > 0 and max >= min; for YDOC_NUMBER
 * lo < hi (-HUGE_VAL and HUGE_VAL for any number); for YDOC_ENUM names
 * with at least one; and valid, names, min, max, lo, hi and expect only
 * where its kind reads them.
 */
struct ydoc_field {
	const char *key;
	bool required;
	int (*set)(struct ydoc *d, yaml_node_t *value, void *dst,
	    struct gl_error *err);	/* YDOC_CUSTOM */
	enum ydoc_kind kind;
	size_t off, size;		/* YDOC_AT */
	void *(*at)(void *obj);		/* the object off is in, or NULL */
	const char *expect;		/* "expected ...", or NULL */
	bool (*valid)(const char *s);	/* YDOC_STRDUP, YDOC_STRING */
	const char *const *names;	/* YDOC_ENUM */
	uint64_t min, max;		/* YDOC_UINT */
	double lo, hi;			/* YDOC_NUMBER */
};

/*
 * ydoc_fields: walks mapping n, reading each key's value as its field of
 * f[0 .. nf) says (enum ydoc_kind) into obj; a key may appear once. Returns
 * 0, or -1 with err at the problem: not a mapping, an unknown or duplicate
 * key (at the key), a value its field rejects (at the value), a required
 * key missing (at the mapping). On failure the fields before the problem
 * are stored; what YDOC_STRDUP stored is the caller's to free either way,
 * and what YDOC_STRING stored is borrowed from d. A table may have any
 * number of fields: every one is checked for duplicates and for being
 * required. A table that cannot be right (struct ydoc_field) is a bug: it
 * aborts, on every call, before n is looked at.
 */
int ydoc_fields(struct ydoc *d, yaml_node_t *n, const struct ydoc_field *f,
    size_t nf, void *obj, struct gl_error *err);

#endif
