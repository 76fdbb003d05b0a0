/*
 * names-map.c - one name map document (rules/arch/NAME.yaml, see names.h)
 * read into a struct names_map: its fields, its tensors' PCRE2 patterns
 * compiled (a literal one is kept as its bytes and matched without PCRE2)
 * and described (the display name and id of a literal pattern),
 * its expressions compiled, and its unless lists resolved to indices.
 */
#define PCRE2_CODE_UNIT_WIDTH 8

#include <ctype.h>
#include <pcre2.h>
#include <stdlib.h>
#include <string.h>

#include "facts/names.h"
#include "data/yamlutil.h"

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

/*
 * pat_plain: for a pattern that is literal, or literal apart from one
 * (?<layer>\d+) group, set t->lit and t->per_layer and return true: it
 * matches a name equal to lit[0] + digits + lit[1] (anchored at both ends,
 * \d ASCII: what PCRE2 would match), so it needs no compiling (and is a
 * valid expression, having no operator).
 */
static bool
pat_plain(struct names_tensor *t)
{
	static const char group[] = "(?<layer>\\d+)";
	struct strbuf pre = STRBUF_INIT, post = STRBUF_INIT;
	const char *g = strstr(t->pattern, group), *end;
	bool lit;

	end = t->pattern + strlen(t->pattern);
	if (g == NULL && strstr(t->pattern, "(?<layer>") != NULL)
		return false;
	lit = pat_literal(&pre, t->pattern, g != NULL ? g : end) &&
	    (g == NULL || pat_literal(&post, g + strlen(group), end));
	if (!lit) {
		strbuf_free(&pre);
		strbuf_free(&post);
		return false;
	}
	t->lit_len[0] = pre.len;
	t->lit_len[1] = post.len;
	t->lit[0] = strbuf_detach(&pre);
	t->lit[1] = strbuf_detach(&post);
	t->per_layer = g != NULL;
	return true;
}

static int
pat_compile(struct ydoc *d, yaml_node_t *n, struct names_tensor *t,
    struct gl_error *err)
{
	PCRE2_UCHAR msg[256];
	PCRE2_SIZE off;
	int code, g;

	if (pat_plain(t))
		return 0;
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
	bool archs_only;		/* the architectures alone */
};

static int
set_expr(struct ydoc *d, yaml_node_t *n, struct names_expr **out,
    char **text, struct gl_error *err)
{
	const char *s = ydoc_scalar(n), *what;
	size_t at;

	if (s == NULL || *s == '\0')
		return ydoc_error(d, n, err, "expected an expression");
	*out = names_expr_parse(s, &what, &at);
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
	{ "any", NAMES_KEY_ANY },
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
map_set_mtp(struct ydoc *d, yaml_node_t *n, void *obj, struct gl_error *err)
{
	struct names_map *m = ((struct map_parse *)obj)->m;
	const char *s;

	if (ydoc_string(d, n, &s, err) < 0)
		return -1;
	if (strcmp(s, "optional") != 0 && strcmp(s, "required") != 0)
		return ydoc_error(d, n, err, "expected optional or required");
	m->mtp_optional = strcmp(s, "optional") == 0;
	return 0;
}

static int
map_set_keys(struct ydoc *d, yaml_node_t *n, void *obj, struct gl_error *err)
{
	if (((struct map_parse *)obj)->archs_only)
		return 0;
	return map_seq(d, n, obj, map_read_key, err);
}

static int
map_set_tensors(struct ydoc *d, yaml_node_t *n, void *obj,
    struct gl_error *err)
{
	if (((struct map_parse *)obj)->archs_only)
		return 0;
	return map_seq(d, n, obj, map_read_tensor, err);
}

/* The largest capture group number of m's patterns (1 at least). */
static uint32_t
map_max_group(const struct names_map *m)
{
	uint32_t max = 1, n;
	size_t j;

	for (j = 0; j < m->n_tensors; j++) {
		n = m->tensors[j].per_layer ? 1 : 0;
		if (m->tensors[j].re != NULL)
			pcre2_pattern_info(m->tensors[j].re,
			    PCRE2_INFO_CAPTURECOUNT, &n);
		if (n > max)
			max = n;
	}
	return max;
}

static int
map_parse(struct names_map *m, const char *origin, const char *text,
    size_t len, bool archs_only, struct gl_error *err)
{
	static const struct ydoc_field fields[] = {
		{ "architectures", true, .set = map_set_archs },
		{ "mtp_layers", false, .set = map_set_mtp },
		{ "keys", false, .set = map_set_keys },
		{ "tensors", true, .set = map_set_tensors },
	};
	struct map_parse mp = { m, NULL, NULL, NULL, 0, archs_only };
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
	m->max_group = map_max_group(m);
	m->read = rc == 0 && !archs_only;
	return rc;
}

int
names_map_parse(struct names_map *m, const char *origin, const char *text,
    size_t len, struct gl_error *err)
{
	return map_parse(m, origin, text, len, false, err);
}

int
names_map_parse_archs(struct names_map *m, const char *origin,
    const char *text, size_t len, struct gl_error *err)
{
	return map_parse(m, origin, text, len, true, err);
}

static void
tensor_free(struct names_tensor *t)
{
	size_t i;

	pcre2_code_free(t->re);
	free(t->lit[0]);
	free(t->lit[1]);
	free(t->pattern);
	free(t->display);
	free(t->id);
	names_expr_free(t->when);
	free(t->when_text);
	for (i = 0; i < t->n_dims; i++) {
		names_expr_free(t->shape[i]);
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
		names_expr_free(m->keys[i].when);
		free(m->keys[i].when_text);
	}
	free(m->keys);
	for (i = 0; i < m->n_tensors; i++)
		tensor_free(&m->tensors[i]);
	free(m->tensors);
	free(m->origin);
	memset(m, 0, sizeof *m);
}
