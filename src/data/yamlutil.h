/*
 * yamlutil.h - small helpers over libyaml's document API for gguflint's
 * configuration files (rule catalogue, profiles, capability tables): load a
 * document, walk mappings, read typed scalars, and report errors as
 * FILE:LINE:COL: what was expected.
 */
#ifndef GGUFLINT_YAMLUTIL_H
#define GGUFLINT_YAMLUTIL_H

#include <stdbool.h>
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
 * ydoc_load: the document of text. When text is, byte for byte, one of the
 * built-in data files, the document is rebuilt from its build-time parse
 * (struct ydoc_pre); otherwise libyaml parses it (ydoc_parse). origin (kept,
 * not copied: it must outlive d) names the text in messages. Returns 0, or
 * -1 with err (GL_ERR_PARSE) at the problem mark and nothing to free.
 */
int ydoc_load(struct ydoc *d, const char *origin, const char *text,
    size_t len, struct gl_error *err);
/*
 * ydoc_parse: the same, always with libyaml. More than one document in
 * text is an error.
 */
int ydoc_parse(struct ydoc *d, const char *origin, const char *text,
    size_t len, struct gl_error *err);
/* ydoc_free: free the document (again is harmless); its nodes are gone. */
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

/* ydoc_root: the root node, or NULL for an empty document. */
yaml_node_t *ydoc_root(struct ydoc *d);
/* ydoc_node: node index (as items and pairs name them), or NULL. */
yaml_node_t *ydoc_node(struct ydoc *d, int index);

/*
 * ydoc_error: err = "ORIGIN:LINE:COL: message" at node n (1:1 when n is
 * NULL), of kind GL_ERR_PARSE; returns -1.
 */
int ydoc_error(const struct ydoc *d, const yaml_node_t *n,
    struct gl_error *err, const char *fmt, ...) GL_PRINTF(4, 5);

/* ydoc_scalar: the scalar's text, or NULL when n is not a scalar. */
const char *ydoc_scalar(const yaml_node_t *n);

/* Typed scalars; each returns 0, or -1 with err saying what was expected. */
int ydoc_string(struct ydoc *d, yaml_node_t *n, const char **out,
    struct gl_error *err);
/* ydoc_strdup: *dst (freed first) becomes a copy of a non-empty string. */
int ydoc_strdup(struct ydoc *d, yaml_node_t *n, char **dst,
    struct gl_error *err);
int ydoc_bool(struct ydoc *d, yaml_node_t *n, bool *out,
    struct gl_error *err);
int ydoc_uint(struct ydoc *d, yaml_node_t *n, uint64_t *out,
    struct gl_error *err);
int ydoc_number(struct ydoc *d, yaml_node_t *n, double *out,
    struct gl_error *err);

/*
 * struct ydoc_field: one key of a mapping with a fixed set of keys.
 * ydoc_fields walks mapping n, calling set for each key (which may appear
 * once), and fails on an unknown key or a missing required one.
 */
struct ydoc_field {
	const char *key;
	bool required;
	int (*set)(struct ydoc *d, yaml_node_t *value, void *obj,
	    struct gl_error *err);
};

int ydoc_fields(struct ydoc *d, yaml_node_t *n, const struct ydoc_field *f,
    size_t nf, void *obj, struct gl_error *err);

#endif
