/*
 * baseline.c - recording findings in a baseline, reading one back and
 * telling the findings it holds from new ones (see baseline.h).
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/enc.h"
#include "base/sha256.h"
#include "data/builtin.h"
#include "data/yamlutil.h"
#include "findings/baseline.h"

#define BASELINE_LIMIT (64u << 20)

int
baseline_init(struct baseline *b, const char *path, struct gl_error *err)
{
	char abs[PATH_MAX], *dir = xstrdup(path), *slash = strrchr(dir, '/');

	memset(b, 0, sizeof *b);
	if (slash == dir)
		slash[1] = '\0';
	else if (slash != NULL)
		*slash = '\0';
	if (realpath(slash != NULL ? dir : ".", abs) == NULL) {
		gl_error_setk(err, GL_ERR_IO, "%s: %s", path, strerror(errno));
		free(dir);
		return -1;
	}
	free(dir);
	b->dir = xstrdup(abs);
	b->sorted = true;
	return 0;
}

void
baseline_free(struct baseline *b)
{
	size_t i;

	for (i = 0; i < b->n; i++) {
		free(b->v[i].path);
		free(b->v[i].code);
		free(b->v[i].subject);
	}
	free(b->v);
	free(b->dir);
	memset(b, 0, sizeof *b);
}

/* The path the baseline records for the model at path (see baseline.h). */
static char *
recorded_path(const struct baseline *b, const char *path)
{
	char abs[PATH_MAX];
	size_t n = strlen(b->dir);

	if (strcmp(path, "-") == 0 || realpath(path, abs) == NULL)
		return xstrdup(path);
	if (n == 1)
		n = 0;	/* the root: every path lies below it */
	if (strncmp(abs, b->dir, n) == 0 && abs[n] == '/')
		return xstrdup(abs + n + 1);
	return xstrdup(abs);
}

/* One finding's identity: its digest and its index in the list. */
struct ident {
	uint8_t digest[32];
	size_t i;
};

static int
cmp_ident(const void *pa, const void *pb)
{
	const struct ident *a = pa, *b = pb;
	int c = memcmp(a->digest, b->digest, sizeof a->digest);

	return c != 0 ? c : a->i < b->i ? -1 : a->i > b->i;
}

/*
 * fingerprints: fp[i] for every finding of dl (the caller frees the
 * array): the digest of the code, the kind and the subject, then the
 * number of earlier findings with the same three (see baseline.h).
 */
static char (*fingerprints(const struct diag_list *dl))[65]
{
	static const char kinds[] = "-kt";
	struct ident *id = xcalloc(dl->n + 1, sizeof *id);
	char (*fp)[65] = xcalloc(dl->n + 1, sizeof *fp);
	size_t i, occ = 0;

	for (i = 0; i < dl->n; i++) {
		const struct diag *d = &dl->v[i];
		struct sha256 ctx;

		sha256_init(&ctx);
		sha256_update(&ctx, d->rule->code, strlen(d->rule->code) + 1);
		sha256_update(&ctx, &kinds[d->kind <= SUBJECT_TENSOR ?
		    d->kind : 0], 1);
		sha256_update(&ctx, "", 1);
		sha256_update(&ctx, d->subject, d->subject_len);
		sha256_update(&ctx, "", 1);
		sha256_final(&ctx, id[i].digest);
		id[i].i = i;
	}
	qsort(id, dl->n, sizeof *id, cmp_ident);
	for (i = 0; i < dl->n; i++) {
		struct sha256 ctx;
		uint8_t digest[32];
		char num[24];
		int len;

		occ = i > 0 && memcmp(id[i].digest, id[i - 1].digest, 32) ==
		    0 ? occ + 1 : 0;
		len = snprintf(num, sizeof num, "%zu", occ);
		sha256_init(&ctx);
		sha256_update(&ctx, id[i].digest, sizeof id[i].digest);
		sha256_update(&ctx, num, (size_t)len + 1);
		sha256_final(&ctx, digest);
		sha256_hex(digest, fp[id[i].i]);
	}
	free(id);
	return fp;
}

static int
cmp_entry(const void *pa, const void *pb)
{
	const struct baseline_entry *a = pa, *b = pb;
	int c = strcmp(a->path, b->path);

	return c != 0 ? c : strcmp(a->fp, b->fp);
}

static void
sort_entries(struct baseline *b)
{
	if (!b->sorted && b->n > 1)
		qsort(b->v, b->n, sizeof *b->v, cmp_entry);
	b->sorted = true;
}

/* The first entry not before (path, fp) in sorted order (b->n if none). */
static size_t
lower_bound(const struct baseline *b, const char *path, const char *fp)
{
	size_t lo = 0, hi = b->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(b->v[mid].path, path);

		if (c == 0)
			c = strcmp(b->v[mid].fp, fp);
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

size_t
baseline_apply(struct baseline *b, const char *path, struct diag_list *dl)
{
	char *rel = recorded_path(b, path), (*fp)[65];
	size_t i, k, marked = 0;

	sort_entries(b);
	for (k = lower_bound(b, rel, ""); k < b->n &&
	    strcmp(b->v[k].path, rel) == 0; k++)
		b->v[k].seen = true;
	fp = fingerprints(dl);
	for (i = 0; i < dl->n; i++) {
		for (k = lower_bound(b, rel, fp[i]); k < b->n &&
		    strcmp(b->v[k].path, rel) == 0 &&
		    strcmp(b->v[k].fp, fp[i]) == 0; k++)
			if (!b->v[k].matched)
				break;
		if (k < b->n && strcmp(b->v[k].path, rel) == 0 &&
		    strcmp(b->v[k].fp, fp[i]) == 0) {
			b->v[k].matched = true;
			dl->v[i].baselined = true;
			marked++;
		}
	}
	free(fp);
	free(rel);
	return marked;
}

/* add: a new entry of b (its fields zeroed), which b owns. */
static struct baseline_entry *
add(struct baseline *b)
{
	struct baseline_entry *e;

	if (b->n == b->cap) {
		b->cap = b->cap ? b->cap * 2 : 64;
		b->v = xreallocarray(b->v, b->cap, sizeof *b->v);
	}
	e = &b->v[b->n++];
	memset(e, 0, sizeof *e);
	b->sorted = b->n == 1;
	return e;
}

size_t
baseline_record(struct baseline *b, const char *path, struct diag_list *dl)
{
	char *rel = recorded_path(b, path), (*fp)[65] = fingerprints(dl);
	size_t i;

	for (i = 0; i < dl->n; i++) {
		const struct diag *d = &dl->v[i];
		struct baseline_entry *e = add(b);
		struct strbuf sb = STRBUF_INIT;

		e->path = xstrdup(rel);
		e->code = xstrdup(d->rule->code);
		if (d->subject != NULL) {
			enc_text(&sb, d->subject, d->subject_len);
			e->subject = strbuf_detach(&sb);
		}
		memcpy(e->fp, fp[i], sizeof e->fp);
		e->matched = e->seen = true;
		dl->v[i].baselined = true;
	}
	free(fp);
	free(rel);
	return dl->n;
}

size_t
baseline_gone(const struct baseline *b)
{
	size_t i, n = 0;

	for (i = 0; i < b->n; i++)
		n += b->v[i].seen && !b->v[i].matched;
	return n;
}

void
baseline_json(struct baseline *b, struct strbuf *out)
{
	size_t i;

	sort_entries(b);
	strbuf_adds(out, "{\"version\": 1, \"tool\": \"gguflint\", "
	    "\"findings\": [");
	for (i = 0; i < b->n; i++) {
		const struct baseline_entry *e = &b->v[i];

		strbuf_adds(out, i ? ",\n  {\"path\": " : "\n  {\"path\": ");
		enc_json_cstr(out, e->path);
		strbuf_adds(out, ", \"code\": ");
		enc_json_cstr(out, e->code);
		strbuf_adds(out, ", \"subject\": ");
		if (e->subject != NULL)
			enc_json_cstr(out, e->subject);
		else
			strbuf_adds(out, "null");
		strbuf_addf(out, ", \"fingerprint\": \"%s\"}", e->fp);
	}
	strbuf_adds(out, b->n ? "\n]}\n" : "]}\n");
}

int
baseline_save(struct baseline *b, const char *path, struct gl_error *err)
{
	struct strbuf sb = STRBUF_INIT;
	char *tmp = xasprintf("%s.tmp-%ld", path, (long)getpid());
	FILE *fp = fopen(tmp, "wx");
	int rc = 0, e = 0;

	baseline_json(b, &sb);
	if (fp == NULL)
		rc = -1, e = errno;
	else if (fwrite(sb.buf, 1, sb.len, fp) != sb.len || fflush(fp) != 0)
		rc = -1, e = errno;
	if (fp != NULL && fclose(fp) != 0 && rc == 0)
		rc = -1, e = errno;
	if (rc == 0 && rename(tmp, path) < 0)
		rc = -1, e = errno;
	if (rc < 0 && fp != NULL)
		unlink(tmp);
	if (rc < 0)
		gl_error_setk(err, GL_ERR_IO, "--write-baseline %s: %s", path,
		    strerror(e));
	free(tmp);
	strbuf_free(&sb);
	return rc;
}

/* 64 lowercase hex digits. */
static bool
valid_fp(const char *s)
{
	size_t i;

	for (i = 0; i < 64; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' &&
		    s[i] <= 'f')))
			return false;
	return s[64] == '\0';
}

#define E(member) YDOC_STRDUP_AT(struct baseline_entry, member)

static const struct ydoc_field entry_fields[] = {
	{ "path", true, E(path), .expect = "expected the model's path" },
	{ "code", true, E(code), .expect = "expected a rule code" },
	{ "subject", false, .kind = YDOC_IGNORE },
	{ "fingerprint", true, E(subject), .valid = valid_fp,
	    .expect = "expected a fingerprint of 64 lowercase hex digits" },
};

#undef E

/* findings: [entries]; the fingerprint is read through subject, then
 * moved to fp. */
static int
b_findings(struct ydoc *d, yaml_node_t *n, void *o, struct gl_error *err)
{
	struct baseline *b = o;
	yaml_node_item_t *it;

	if (n->type != YAML_SEQUENCE_NODE)
		return ydoc_error(d, n, err, "expected a list of findings");
	for (it = n->data.sequence.items.start;
	    it < n->data.sequence.items.top; it++) {
		struct baseline_entry *e = add(b);
		int rc = ydoc_fields(d, ydoc_node(d, *it), entry_fields,
		    sizeof entry_fields / sizeof entry_fields[0], e, err);

		if (e->subject != NULL)
			memcpy(e->fp, e->subject, sizeof e->fp);
		free(e->subject);
		e->subject = NULL;
		if (rc < 0)
			return -1;
	}
	return 0;
}

/* The version, read and dropped (only 1 is accepted). */
struct bl_head {
	unsigned version;
	struct baseline *b;
};

static void *
b_of(void *o)
{
	return ((struct bl_head *)o)->b;
}

static const struct ydoc_field baseline_fields[] = {
	{ "version", true, YDOC_UINT_AT(struct bl_head, version), .min = 1,
	    .max = 1, .expect = "expected version 1 (the only version of a "
	    "baseline)" },
	{ "tool", false, .kind = YDOC_IGNORE },
	{ "findings", true, .set = b_findings, .at = b_of },
};

int
baseline_load(struct baseline *b, const char *path, struct gl_error *err)
{
	struct bl_head h = { 0, b };
	struct ydoc d;
	char *text;
	size_t len;
	int rc;

	if (baseline_init(b, path, err) < 0)
		return -1;
	if (read_whole_file(path, BASELINE_LIMIT, &text, &len, err) < 0)
		return -1;
	rc = ydoc_parse(&d, path, text, len, err);
	free(text);
	if (rc < 0)
		return -1;
	if (ydoc_root(&d) == NULL)
		rc = ydoc_error(&d, NULL, err, "expected a baseline: "
		    "{\"version\": 1, \"findings\": [...]}");
	else
		rc = ydoc_fields(&d, ydoc_root(&d), baseline_fields,
		    sizeof baseline_fields / sizeof baseline_fields[0], &h,
		    err);
	ydoc_free(&d);
	b->sorted = b->n <= 1;
	sort_entries(b);
	return rc;
}
