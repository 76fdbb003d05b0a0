/*
 * llversions.c - the table of which llama.cpp build first knew each name
 * (rules/runtime/llama.cpp.yaml), and what one file needs of it (see
 * llversions.h).
 */
#include "config.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/enc.h"
#include "base/util.h"
#include "base/once.h"
#include "data/builtin.h"
#include "data/yamlutil.h"
#include "facts/llversions.h"

#define LLV_DATA "rules/runtime/llama.cpp.yaml"

/* ---- parsing ----------------------------------------------------------- */

/* build: "" (not dated) or bNNNN. */
static int
set_build(struct ydoc *d, yaml_node_t *n, void *dst, struct gl_error *err)
{
	const char *s = ydoc_scalar(n);
	unsigned long v = 0;
	char *end = NULL;

	if (s != NULL && *s == '\0') {
		*(uint32_t *)dst = 0;
		return 0;
	}
	if (s != NULL && s[0] == 'b' && s[1] >= '0' && s[1] <= '9')
		v = strtoul(s + 1, &end, 10);
	if (end == NULL || *end != '\0' || v == 0 || v > 9999999)
		return ydoc_error(d, n, err,
		    "expected a llama.cpp build "
		    "such as b6500, or \"\"");
	*(uint32_t *)dst = (uint32_t)v;
	return 0;
}

/* date: "" or YYYY-MM-DD. */
static int
set_date(struct ydoc *d, yaml_node_t *n, void *dst, struct gl_error *err)
{
	const char *s = ydoc_scalar(n);
	size_t i;

	for (i = 0; s != NULL && i < 10; i++)
		if (i == 4 || i == 7 ? s[i] != '-' : (s[i] < '0' || s[i] > '9'))
			break;
	if (s == NULL || (*s != '\0' && (i != 10 || s[10] != '\0')))
		return ydoc_error(d, n, err,
		    "expected a date YYYY-MM-DD, "
		    "or \"\"");
	memcpy(dst, s, strlen(s) + 1);
	return 0;
}

#define R(kind, member) YDOC_##kind##_AT(struct llv_row, member)

static const struct ydoc_field row_fields[] = {
	{ "name", true, R(STRDUP, name) },
	{ "id", false, R(UINT, id), .min = 0, .max = 1023,
	    .expect = "expected a ggml type id" },
	{ "build", true, .set = set_build, YDOC_AT(struct llv_row, build) },
	{ "date", true, .set = set_date, YDOC_AT(struct llv_row, date) },
	{ "commit", true, .kind = YDOC_IGNORE },
};

#undef R

/* One section: a sequence of rows into db->rows[k]. */
static int
parse_rows(struct ydoc *d, yaml_node_t *n, struct llv_db *db, enum llv_kind k,
    struct gl_error *err)
{
	yaml_node_item_t *it;
	size_t cnt;

	if (n == NULL || n->type != YAML_SEQUENCE_NODE)
		return ydoc_error(d, n, err,
		    "expected a list of rows "
		    "{name, build, date, commit}");
	cnt = (size_t)(n->data.sequence.items.top -
	    n->data.sequence.items.start);
	db->rows[k] = xcalloc(cnt ? cnt : 1, sizeof *db->rows[k]);
	for (it = n->data.sequence.items.start; it < n->data.sequence.items.top;
	     it++) {
		struct llv_row *r = &db->rows[k][db->n[k]];
		yaml_node_t *e = ydoc_node(d, *it);

		db->n[k]++;
		if (ydoc_fields(d, e, row_fields,
			sizeof row_fields / sizeof row_fields[0], r, err) < 0)
			return -1;
		if ((r->build == 0) != (r->date[0] == '\0'))
			return ydoc_error(d, e, err,
			    "expected a build and a "
			    "date, or neither");
	}
	return 0;
}

static int
set_arch(struct ydoc *d, yaml_node_t *n, void *dst, struct gl_error *err)
{
	return parse_rows(d, n, dst, LLV_ARCH, err);
}

static int
set_pre(struct ydoc *d, yaml_node_t *n, void *dst, struct gl_error *err)
{
	return parse_rows(d, n, dst, LLV_PRE, err);
}

static int
set_types(struct ydoc *d, yaml_node_t *n, void *dst, struct gl_error *err)
{
	return parse_rows(d, n, dst, LLV_TYPE, err);
}

static int
set_proj(struct ydoc *d, yaml_node_t *n, void *dst, struct gl_error *err)
{
	return parse_rows(d, n, dst, LLV_PROJ, err);
}

struct release {
	char *name;
	char date[11];
};

static const struct ydoc_field release_fields[] = {
	{ "name", true, YDOC_STRDUP_AT(struct release, name) },
	{ "commit", true, .kind = YDOC_IGNORE },
	{ "date", true, .set = set_date, YDOC_AT(struct release, date) },
	{ "knows", true, .kind = YDOC_IGNORE },
};

/* releases: one entry, the release whose names the data lists. */
static int
set_releases(struct ydoc *d, yaml_node_t *n, void *dst, struct gl_error *err)
{
	struct llv_db *db = dst;
	struct release r = { 0 };
	int rc;

	if (n == NULL || n->type != YAML_SEQUENCE_NODE ||
	    n->data.sequence.items.top - n->data.sequence.items.start != 1)
		return ydoc_error(d, n, err,
		    "expected a list of one release "
		    "{name, commit, date, knows}");
	rc = ydoc_fields(d, ydoc_node(d, *n->data.sequence.items.start),
	    release_fields, sizeof release_fields / sizeof release_fields[0],
	    &r, err);
	free(db->release);
	db->release = r.name;
	memcpy(db->release_date, r.date, sizeof r.date);
	return rc;
}

static int
set_runtime(struct ydoc *d, yaml_node_t *n, void *dst, struct gl_error *err)
{
	const char *s = ydoc_scalar(n);

	(void)dst;
	if (s == NULL || strcmp(s, "llama.cpp") != 0)
		return ydoc_error(d, n, err, "expected llama.cpp");
	return 0;
}

#define WHOLE .off = 0, .size = sizeof(struct llv_db)

static const struct ydoc_field db_fields[] = {
	{ "runtime", true, .set = set_runtime, WHOLE },
	{ "releases", true, .set = set_releases, WHOLE },
	{ "architectures", true, .set = set_arch, WHOLE },
	{ "pre_tokenizers", true, .set = set_pre, WHOLE },
	{ "ggml_types", true, .set = set_types, WHOLE },
	{ "projectors", true, .set = set_proj, WHOLE },
};

#undef WHOLE

int
llv_db_parse(struct llv_db *db, const char *origin, const char *text,
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
		llv_db_free(db);
	return rc;
}

void
llv_db_free(struct llv_db *db)
{
	size_t k, i;

	for (k = 0; k < LLV_NKINDS; k++) {
		for (i = 0; i < db->n[k]; i++)
			free(db->rows[k][i].name);
		free(db->rows[k]);
	}
	free(db->release);
	memset(db, 0, sizeof *db);
}

/* ---- the process-wide copy --------------------------------------------- */

static struct llv_db shared_db;
static struct gl_once shared_once = GL_ONCE_INIT;

static int
db_load(void *arg, struct gl_error *err)
{
	struct llv_db *db = arg;
	struct datafile df;
	int rc;

	if (datafile_load(LLV_DATA, &df, err) < 0)
		return -1;
	rc = llv_db_parse(db, df.origin, df.data, df.len, err);
	datafile_free(&df);
	return rc;
}

static void
db_free(void *db)
{
	llv_db_free(db);
}

int
llv_db_get(const struct llv_db **out, struct gl_error *err)
{
	if (gl_once_get(&shared_once, db_load, NULL, &shared_db, err) < 0)
		return -1;
	*out = &shared_db;
	return 0;
}

void
llv_db_cleanup(void)
{
	gl_once_reset(&shared_once, db_free, &shared_db);
}

/* ---- lookups ----------------------------------------------------------- */

const char *
llv_kind_name(enum llv_kind k)
{
	static const char *const names[LLV_NKINDS] = { "architecture",
		"pre-tokenizer", "ggml type", "projector type" };

	return (unsigned)k < LLV_NKINDS ? names[k] : "name";
}

const struct llv_row *
llv_find(const struct llv_db *db, enum llv_kind k, const char *name, size_t len)
{
	size_t i;

	for (i = 0; (unsigned)k < LLV_NKINDS && i < db->n[k]; i++)
		if (strlen(db->rows[k][i].name) == len &&
		    memcmp(db->rows[k][i].name, name, len) == 0)
			return &db->rows[k][i];
	return NULL;
}

const struct llv_row *
llv_find_type(const struct llv_db *db, uint32_t id)
{
	size_t i;

	for (i = 0; i < db->n[LLV_TYPE]; i++)
		if (db->rows[LLV_TYPE][i].id == id)
			return &db->rows[LLV_TYPE][i];
	return NULL;
}

/* ---- what a file needs ------------------------------------------------- */

static const char *const proj_keys[] = { "clip.projector_type",
	"clip.vision.projector_type", "clip.audio.projector_type",
	"clip.gen.audio.projector_type" };
static const char *const bpe_models[] = { "gpt2", "hybriddna", "whitespace" };

/* The string value of key as an item of kind k (0 or 1 items). */
static size_t
key_item(const struct gguf_file *f, const struct llv_db *db, const char *key,
    enum llv_kind k, struct llv_item *out)
{
	const struct gguf_kv *kv = gguf_find_kv(f, key);

	if (kv == NULL || kv->type != GGUF_STRING)
		return 0;
	memset(out, 0, sizeof *out);
	out->kind = k;
	out->name = kv->val.v.s;
	out->offset = kv->offset;
	out->kv = kv;
	out->row = llv_find(db, k, kv->val.v.s.p, (size_t)kv->val.v.s.n);
	return 1;
}

static bool
bpe_vocab(const struct gguf_file *f)
{
	const struct gguf_kv *kv = gguf_find_kv(f, "tokenizer.ggml.model");
	size_t i;

	for (i = 0; kv != NULL && kv->type == GGUF_STRING &&
	     i < sizeof bpe_models / sizeof bpe_models[0];
	     i++)
		if (gguf_str_eq(kv->val.v.s, bpe_models[i]))
			return true;
	return false;
}

/* Each distinct tensor type the data knows, in order of first use. */
static size_t
type_items(const struct gguf_file *f, const struct llv_db *db,
    struct llv_item *out, size_t max)
{
	size_t i, j, n = 0;

	for (i = 0; i < f->tensors_n && n < max; i++) {
		const struct llv_row *r = llv_find_type(db, f->tensors[i].type);

		for (j = 0; r != NULL && j < n; j++)
			if (out[j].row == r)
				break;
		if (r == NULL || j < n)
			continue;
		memset(&out[n], 0, sizeof out[n]);
		out[n].kind = LLV_TYPE;
		out[n].type_id = f->tensors[i].type;
		out[n].name = f->tensors[i].name;
		out[n].offset = f->tensors[i].offset_info;
		out[n].row = r;
		n++;
	}
	return n;
}

size_t
llv_items(const struct gguf_file *f, const struct llv_db *db,
    struct llv_item *out, size_t max)
{
	size_t i, n = 0;

	if (n < max)
		n += key_item(f, db, "general.architecture", LLV_ARCH, &out[n]);
	if (n < max && bpe_vocab(f))
		n += key_item(f, db, "tokenizer.ggml.pre", LLV_PRE, &out[n]);
	for (i = 0; i < sizeof proj_keys / sizeof proj_keys[0]; i++)
		if (n < max)
			n += key_item(f, db, proj_keys[i], LLV_PROJ, &out[n]);
	return n + type_items(f, db, out + n, max - n);
}

const struct llv_item *
llv_newest(const struct llv_item *items, size_t n)
{
	const struct llv_item *best = NULL;
	size_t i;

	for (i = 0; i < n; i++)
		if (items[i].row != NULL && items[i].row->build != 0 &&
		    (best == NULL || items[i].row->build > best->row->build))
			best = &items[i];
	return best;
}

struct llv_min
llv_min_of(const struct llv_db *db, const struct llv_item *items, size_t n)
{
	struct llv_min m = { LLV_MIN_NONE, NULL, 0, NULL };
	size_t i;

	for (i = 0; i < n && m.state != LLV_MIN_UNKNOWN; i++)
		if (items[i].row == NULL)
			m = (struct llv_min){ LLV_MIN_UNKNOWN, &items[i], 0,
				NULL };
		else if (items[i].row->build == 0 && m.state != LLV_MIN_UNDATED)
			m = (struct llv_min){ LLV_MIN_UNDATED, &items[i], 0,
				db->release_date };
	if (m.state == LLV_MIN_NONE &&
	    (m.item = llv_newest(items, n)) != NULL) {
		m.state = LLV_MIN_DATED;
		m.build = m.item->row->build;
		m.date = m.item->row->date;
	}
	return m;
}

char *
llv_describe(const struct llv_item *it, char *buf, size_t size)
{
	size_t len, i;

	if (it->kind == LLV_TYPE) {
		char lower[32] = "";

		for (i = 0; it->row != NULL && it->row->name[i] != '\0' &&
		     i + 1 < sizeof lower;
		     i++)
			lower[i] = (char)tolower(
			    (unsigned char)it->row->name[i]);
		lower[i] = '\0';
		snprintf(buf, size, "ggml type %u%s%s%s", (unsigned)it->type_id,
		    lower[0] ? " (" : "", lower, lower[0] ? ")" : "");
		return buf;
	}
	len = (size_t)snprintf(buf, size, "%s '", llv_kind_name(it->kind));
	for (i = 0; i < it->name.n && len + 12 < size;) {
		const uint8_t *p = (const uint8_t *)it->name.p + i;
		uint32_t cp;
		size_t k = enc_utf8_next(p, (size_t)(it->name.n - i), &cp);

		if (k == 1 && cp >= 0x20 && cp < 0x7f)
			buf[len++] = (char)cp;
		else if (cp == 0xfffd && !(k == 3 && p[0] == 0xef)) {
			len += (size_t)snprintf(buf + len, size - len,
			    "<0x%02x>", p[0]);
			k = 1;
		} else
			len += (size_t)snprintf(buf + len, size - len,
			    "<U+%04X>", (unsigned)cp);
		i += k;
	}
	if (i < it->name.n && len + 4 < size)
		len += (size_t)snprintf(buf + len, size - len, "...");
	snprintf(buf + (len < size ? len : size - 1),
	    size - (len < size ? len : size - 1), "'");
	return buf;
}
