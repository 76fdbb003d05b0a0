/*
 * hub.c - a repository of the Hub listed (hub.h): its tree, asked page
 * by page of the API, read by a small JSON reader that trusts nothing of
 * it (bounded strings, depth and counts, no allocation that the bytes
 * read do not pay for), and its GGUF files made hf:// paths.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/util.h"
#include "source/hub.h"
#include "source/source-impl.h"
#include "source/url.h"

#define JSON_DEPTH 32

/* The reader: the bytes, where it is, and its error. */
struct jr {
	const char *p;
	size_t len, at;
	struct gl_error *err;
};

static int
jr_fail(struct jr *j, const char *what)
{
	return gl_error_setk(j->err, GL_ERR_PARSE,
	    "the Hub's listing is not "
	    "a tree: %s at byte %zu",
	    what, j->at);
}

static void
jr_ws(struct jr *j)
{
	while (j->at < j->len &&
	    (j->p[j->at] == ' ' || j->p[j->at] == '\t' || j->p[j->at] == '\n' ||
		j->p[j->at] == '\r'))
		j->at++;
}

/* Whether the next byte (after blanks) is c; taken if so. */
static bool
jr_eat(struct jr *j, char c)
{
	jr_ws(j);
	if (j->at < j->len && j->p[j->at] == c) {
		j->at++;
		return true;
	}
	return false;
}

static int
hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Four hex digits at j into *u. */
static bool
jr_hex4(struct jr *j, unsigned *u)
{
	int d;

	*u = 0;
	if (j->len - j->at < 4)
		return false;
	for (int k = 0; k < 4; k++) {
		if ((d = hexval(j->p[j->at++])) < 0)
			return false;
		*u = *u << 4 | (unsigned)d;
	}
	return true;
}

/* Code point u as UTF-8 into out (at *n, room for 4 more); false for a
 * NUL or a lone surrogate. */
static bool
put_utf8(char *out, size_t *n, unsigned u)
{
	if (u == 0 || (u >= 0xd800 && u <= 0xdfff))
		return false;
	if (u < 0x80) {
		out[(*n)++] = (char)u;
	} else if (u < 0x800) {
		out[(*n)++] = (char)(0xc0 | u >> 6);
		out[(*n)++] = (char)(0x80 | (u & 0x3f));
	} else if (u < 0x10000) {
		out[(*n)++] = (char)(0xe0 | u >> 12);
		out[(*n)++] = (char)(0x80 | (u >> 6 & 0x3f));
		out[(*n)++] = (char)(0x80 | (u & 0x3f));
	} else {
		out[(*n)++] = (char)(0xf0 | u >> 18);
		out[(*n)++] = (char)(0x80 | (u >> 12 & 0x3f));
		out[(*n)++] = (char)(0x80 | (u >> 6 & 0x3f));
		out[(*n)++] = (char)(0x80 | (u & 0x3f));
	}
	return true;
}

/* A \u escape (the 'u' taken): one code point, or a surrogate pair. */
static bool
jr_unicode(struct jr *j, char *out, size_t *n)
{
	unsigned u, lo;

	if (!jr_hex4(j, &u))
		return false;
	if (u >= 0xd800 && u <= 0xdbff) {
		if (j->len - j->at < 2 || j->p[j->at] != '\\' ||
		    j->p[j->at + 1] != 'u')
			return false;
		j->at += 2;
		if (!jr_hex4(j, &lo) || lo < 0xdc00 || lo > 0xdfff)
			return false;
		u = 0x10000 + ((u - 0xd800) << 10) + (lo - 0xdc00);
	}
	return put_utf8(out, n, u);
}

/*
 * A string (the opening quote next), decoded into out (HUB_PATH_MAX + 1
 * bytes, NUL-terminated; one of more bytes is an error) when out is not
 * NULL, else skipped (it costs nothing but the bytes read); a control
 * byte, a bad escape or a NUL is an error. Returns 0, or -1 with j->err.
 */
static int
jr_string(struct jr *j, char *out)
{
	size_t n = 0;
	char c;

	if (!jr_eat(j, '"'))
		return jr_fail(j, "a string expected");
	for (;;) {
		if (j->at >= j->len)
			return jr_fail(j, "a string not closed");
		if (out != NULL && n + 4 > HUB_PATH_MAX)
			return gl_error_setk(j->err, GL_ERR_LIMIT,
			    "the Hub's "
			    "listing has a string of over %d bytes at byte "
			    "%zu",
			    HUB_PATH_MAX, j->at);
		c = j->p[j->at++];
		if (c == '"')
			break;
		if ((unsigned char)c < 0x20)
			return jr_fail(j, "a control byte in a string");
		if (c != '\\') {
			if (out != NULL)
				out[n] = c;
			n++;
			continue;
		}
		if (j->at >= j->len)
			return jr_fail(j, "a string not closed");
		c = j->p[j->at++];
		if (c == 'u') {
			char tmp[4];
			size_t k = 0;

			if (!jr_unicode(j, tmp, &k))
				return jr_fail(j, "a bad \\u escape");
			if (out != NULL)
				memcpy(out + n, tmp, k);
			n += k;
			continue;
		}
		c = c == 'n'			      ? '\n' :
		    c == 't'			      ? '\t' :
		    c == 'r'			      ? '\r' :
		    c == 'b'			      ? '\b' :
		    c == 'f'			      ? '\f' :
		    c == '"' || c == '\\' || c == '/' ? c :
							'\0';
		if (c == '\0')
			return jr_fail(j, "a bad escape");
		if (out != NULL)
			out[n] = c;
		n++;
	}
	if (out != NULL)
		out[n] = '\0';
	return 0;
}

/* Skip a value (any JSON), depth levels deep already. */
static int
jr_skip(struct jr *j, unsigned depth)
{
	const char *lit[] = { "true", "false", "null" };
	char close;

	if (depth > JSON_DEPTH)
		return gl_error_setk(j->err, GL_ERR_LIMIT,
		    "the Hub's listing "
		    "nests deeper than %d at byte %zu",
		    JSON_DEPTH, j->at);
	jr_ws(j);
	if (j->at >= j->len)
		return jr_fail(j, "a value expected");
	if (j->p[j->at] == '"')
		return jr_string(j, NULL);
	if (j->p[j->at] == '{' || j->p[j->at] == '[') {
		close = j->p[j->at++] == '{' ? '}' : ']';
		if (jr_eat(j, close))
			return 0;
		do {
			if (close == '}' &&
			    (jr_string(j, NULL) < 0 ||
				(!jr_eat(j, ':') &&
				    jr_fail(j, "':' expected"))))
				return -1;
			if (jr_skip(j, depth + 1) < 0)
				return -1;
		} while (jr_eat(j, ','));
		return jr_eat(j, close) ? 0 :
					  jr_fail(j,
					      "',' or a close "
					      "expected");
	}
	for (size_t k = 0; k < 3; k++)
		if (j->len - j->at >= strlen(lit[k]) &&
		    memcmp(j->p + j->at, lit[k], strlen(lit[k])) == 0) {
			j->at += strlen(lit[k]);
			return 0;
		}
	if (j->p[j->at] == '\0' || strchr("-0123456789", j->p[j->at]) == NULL)
		return jr_fail(j, "a value expected");
	while (j->at < j->len &&
	    strchr("+-.0123456789eE", j->p[j->at]) != NULL &&
	    j->p[j->at] != '\0')
		j->at++;
	return 0;
}

/* Whether path is one a repository can hold: no empty, "." or ".."
 * segment, no leading slash. */
static bool
sound_path(const char *path)
{
	const char *p = path;
	size_t n;

	for (;;) {
		n = strcspn(p, "/");
		if (n == 0 || (n == 1 && p[0] == '.') ||
		    (n == 2 && p[0] == '.' && p[1] == '.'))
			return false;
		if (p[n] == '\0')
			return true;
		p += n + 1;
	}
}

static bool
is_gguf(const char *path)
{
	size_t n = strlen(path);

	return n > 5 && strcasecmp(path + n - 5, ".gguf") == 0;
}

static void
files_push(struct hub_files *fl, char *path)
{
	if (fl->n == fl->cap) {
		fl->cap = fl->cap ? fl->cap * 2 : 16;
		fl->v = xreallocarray(fl->v, fl->cap, sizeof *fl->v);
	}
	fl->v[fl->n++] = path;
}

/* Scratch strings of one entry: a key, its type and its path. */
struct entry {
	char key[HUB_PATH_MAX + 1];
	char type[HUB_PATH_MAX + 1];
	char path[HUB_PATH_MAX + 1];
};

/* One entry of the array: an object whose "type" and "path" (strings)
 * are read, the rest skipped; a GGUF file's path goes to fl. */
static int
jr_entry(struct jr *j, struct hub_files *fl, struct entry *e)
{
	char *into;

	e->type[0] = e->path[0] = '\0';
	if (!jr_eat(j, '{'))
		return jr_fail(j, "an object expected");
	if (!jr_eat(j, '}')) {
		do {
			if (jr_string(j, e->key) < 0)
				return -1;
			if (!jr_eat(j, ':'))
				return jr_fail(j, "':' expected");
			into = strcmp(e->key, "type") == 0 ? e->type :
			    strcmp(e->key, "path") == 0	   ? e->path :
							     NULL;
			if ((into != NULL ? jr_string(j, into) :
					    jr_skip(j, 2)) < 0)
				return -1;
		} while (jr_eat(j, ','));
		if (!jr_eat(j, '}'))
			return jr_fail(j, "',' or '}' expected");
	}
	if (strcmp(e->type, "file") != 0 || !is_gguf(e->path))
		return 0;
	if (!sound_path(e->path))
		return jr_fail(j, "a path with an empty, '.' or '..' part");
	if (fl->n >= HUB_FILES_MAX)
		return gl_error_setk(j->err, GL_ERR_LIMIT,
		    "the Hub's listing "
		    "has over %d GGUF files",
		    HUB_FILES_MAX);
	files_push(fl, xstrdup(e->path));
	return 0;
}

int
hub_tree_parse(const char *p, size_t len, struct hub_files *fl,
    struct gl_error *err)
{
	struct jr j = { p, len, 0, err };
	struct entry *e;
	int rc = 0;

	if (!jr_eat(&j, '['))
		return jr_fail(&j, "an array expected");
	if (jr_eat(&j, ']'))
		goto end;
	e = xmalloc(sizeof *e);
	do
		rc = jr_entry(&j, fl, e);
	while (rc == 0 && jr_eat(&j, ','));
	free(e);
	if (rc < 0)
		return -1;
	if (!jr_eat(&j, ']'))
		return jr_fail(&j, "',' or ']' expected");
end:
	jr_ws(&j);
	if (j.at != j.len)
		return jr_fail(&j, "bytes after the array");
	return 0;
}

void
hub_files_free(struct hub_files *fl)
{
	for (size_t i = 0; i < fl->n; i++)
		free(fl->v[i]);
	free(fl->v);
	memset(fl, 0, sizeof *fl);
}

/* The next page's URL: an absolute one at the listing's origin, or a
 * path there; NULL (none, or refused: another origin). */
static char *
next_page(const char *listing, char *next)
{
	char *u = NULL;
	size_t n;

	if (next == NULL)
		return NULL;
	if (next[0] == '/' && next[1] != '/') {
		n = strstr(listing, "://") != NULL ?
		    (size_t)(strstr(listing, "://") - listing) + 3 :
		    0;
		n += strcspn(listing + n, "/?#");
		u = xasprintf("%.*s%s", (int)n, listing, next);
	} else if (url_same_origin(listing, next)) {
		u = xstrdup(next);
	}
	free(next);
	return u;
}

/* A path of the repository as an hf:// URL's tail: bytes outside
 * letters, digits and -._~/+=,@()! %-escaped. */
static void
add_escaped(struct strbuf *sb, const char *path)
{
	for (const unsigned char *c = (const unsigned char *)path; *c; c++)
		if ((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
		    (*c >= '0' && *c <= '9') || strchr("-._~/+=,@()!", *c))
			strbuf_add(sb, (const char *)c, 1);
		else
			strbuf_addf(sb, "%%%02X", *c);
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every page of the listing at url into paths. */
static int
list_pages(const char *path, char *url, const struct source_opts *o,
    struct hub_files *paths, struct gl_error *err)
{
	char *body, *next;
	size_t len;
	unsigned pages = 0;
	int rc = 0;

	while (url != NULL && rc == 0) {
		if (++pages > HUB_PAGES_MAX) {
			rc = gl_error_setk(err, GL_ERR_LIMIT,
			    "%s: a listing of "
			    "over %d pages",
			    path, HUB_PAGES_MAX);
			break;
		}
		if (http_get(url, o, HUB_PAGE_MAX, &body, &len, &next, err) <
			0 ||
		    hub_tree_parse(body, len, paths, err) < 0) {
			char *m = xstrdup(err->msg);

			gl_error_setk(err, err->kind, "%s: %s", path, m);
			free(m);
			free(next);
			rc = -1;
		} else {
			char *n = next_page(url, next);

			free(url);
			url = n;
		}
		free(body);
	}
	free(url);
	return rc;
}

int
hub_list(const char *path, const struct url_repo *r,
    const struct source_opts *o, struct hub_files *fl, struct gl_error *err)
{
	struct hub_files paths = { 0 };
	struct strbuf sb = STRBUF_INIT;
	char *url = url_hf_tree(r, o != NULL ? o->hf_endpoint : NULL, err);

	memset(fl, 0, sizeof *fl);
	if (url == NULL)
		return -1;
	if (list_pages(path, url, o, &paths, err) < 0) {
		hub_files_free(&paths);
		return -1;
	}
	if (paths.n > 1)
		qsort(paths.v, paths.n, sizeof *paths.v, cmp_str);
	for (size_t i = 0; i < paths.n; i++) {
		strbuf_reset(&sb);
		strbuf_addf(&sb, "hf://%s%s%s/%s%s%s/",
		    strcmp(r->kind, "models") == 0 ? "" : r->kind,
		    strcmp(r->kind, "models") == 0 ? "" : "/", r->org, r->repo,
		    r->rev[0] != '\0' ? "@" : "", r->rev);
		add_escaped(&sb, paths.v[i]);
		files_push(fl, xstrdup(strbuf_cstr(&sb)));
	}
	strbuf_free(&sb);
	hub_files_free(&paths);
	return 0;
}
