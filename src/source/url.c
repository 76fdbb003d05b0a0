/*
 * url.c - the names of remote files (see url.h): no network here.
 */
#include "config.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/util.h"
#include "source/url.h"

/* The length of path's scheme and "://" when it is name's, else 0. */
static size_t
scheme_is(const char *path, const char *name)
{
	size_t n = strlen(name);

	if (strncasecmp(path, name, n) != 0 || strncmp(path + n, "://", 3))
		return 0;
	return n + 3;
}

bool
url_is_remote(const char *path)
{
	return scheme_is(path, "http") || scheme_is(path, "https") ||
	    scheme_is(path, "hf");
}

size_t
url_other_scheme(const char *path)
{
	size_t n = 0;

	if (!isalpha((unsigned char)path[0]) || url_is_remote(path))
		return 0;
	while (isalnum((unsigned char)path[n]) || path[n] == '+' ||
	    path[n] == '-' || path[n] == '.')
		n++;
	return n > 1 && strncmp(path + n, "://", 3) == 0 ? n : 0;
}

size_t
url_name_len(const char *path)
{
	return url_is_remote(path) ? strcspn(path, "?#") : strlen(path);
}

/* Whether s holds a space, a control byte or DEL (never in a URL). */
static bool
has_bad_byte(const char *s)
{
	for (; *s != '\0'; s++)
		if ((unsigned char)*s <= ' ' || *s == 0x7f)
			return true;
	return false;
}

/* The next '/'-separated segment of *p (its length), *p past it and the
 * slash; 0 at the end. */
static size_t
segment(const char **p, const char **seg)
{
	size_t n = strcspn(*p, "/");

	*seg = *p;
	*p += n;
	if (**p == '/')
		(*p)++;
	return n;
}

/* hf://[datasets/|spaces/]ORG/REPO[@REV]/PATH at the Hub (rest: after
 * "hf://"). */
static char *
resolve_hf(const char *path, const char *rest, const char *endpoint,
    struct gl_error *err)
{
	const char *p = rest, *kind = "", *org, *repo, *at;
	size_t norg, nrepo, nep, nrev = 4;
	const char *rev = "main";

	if (strncmp(p, "datasets/", 9) == 0 || strncmp(p, "spaces/", 7) == 0) {
		kind = p[0] == 'd' ? "datasets/" : "spaces/";
		p += strlen(kind);
	}
	norg = segment(&p, &org);
	nrepo = segment(&p, &repo);
	if ((at = memchr(repo, '@', nrepo)) != NULL) {
		rev = at + 1;
		nrev = (size_t)(repo + nrepo - rev);
		nrepo = (size_t)(at - repo);
	}
	if (norg == 0 || nrepo == 0 || nrev == 0 || *p == '\0' ||
	    p[strlen(p) - 1] == '/')
		return gl_error_setk(err, GL_ERR_USAGE, "%s: expected "
		    "hf://ORG/REPO[@REVISION]/PATH", path), NULL;
	if (endpoint == NULL || *endpoint == '\0')
		endpoint = URL_HF_ENDPOINT;
	nep = strlen(endpoint);
	while (nep > 0 && endpoint[nep - 1] == '/')
		nep--;
	if (scheme_is(endpoint, "http") == 0 &&
	    scheme_is(endpoint, "https") == 0)
		return gl_error_setk(err, GL_ERR_USAGE, "HF_ENDPOINT: "
		    "expected an http:// or https:// address, not '%s'",
		    endpoint), NULL;
	return xasprintf("%.*s/%s%.*s/%.*s/resolve/%.*s/%s", (int)nep,
	    endpoint, kind, (int)norg, org, (int)nrepo, repo, (int)nrev, rev,
	    p);
}

char *
url_resolve(const char *path, const char *endpoint, struct gl_error *err)
{
	size_t n;

	if (has_bad_byte(path) ||
	    (endpoint != NULL && has_bad_byte(endpoint)))
		return gl_error_setk(err, GL_ERR_USAGE, "'%s': a URL holds no "
		    "space or control character", path), NULL;
	if ((n = scheme_is(path, "hf")) > 0)
		return resolve_hf(path, path + n, endpoint, err);
	n = scheme_is(path, "http");
	if (n == 0)
		n = scheme_is(path, "https");
	if (n == 0 || path[n] == '\0' || path[n] == '/')
		return gl_error_setk(err, GL_ERR_USAGE, "'%s': expected an "
		    "http://, https:// or hf:// URL", path), NULL;
	return xstrdup(path);
}

/* An origin: the scheme, the host and the port of an absolute URL. */
struct origin {
	const char *scheme, *host;
	size_t nscheme, nhost;
	long port;
};

/* The port of ":PORT" at p (n bytes), or -1. */
static long
read_port(const char *p, size_t n)
{
	long v = 0;
	size_t i;

	if (n == 0 || n > 5)
		return -1;
	for (i = 0; i < n; i++) {
		if (p[i] < '0' || p[i] > '9')
			return -1;
		v = v * 10 + (p[i] - '0');
	}
	return v;
}

static bool
read_origin(const char *url, struct origin *o)
{
	const char *s = strstr(url, "://"), *a, *end, *colon;
	size_t n;

	if (s == NULL || s == url)
		return false;
	o->scheme = url;
	o->nscheme = (size_t)(s - url);
	a = s + 3;
	n = strcspn(a, "/?#");
	end = a + n;
	for (colon = a; colon < end; colon++)	/* userinfo@ */
		if (*colon == '@')
			a = colon + 1;
	if (*a == '[') {	/* [v6 address] */
		colon = memchr(a, ']', (size_t)(end - a));
		if (colon == NULL)
			return false;
		colon++;
	} else {
		colon = memchr(a, ':', (size_t)(end - a));
		if (colon == NULL)
			colon = end;
	}
	o->host = a;
	o->nhost = (size_t)(colon - a);
	if (colon < end && *colon == ':')
		o->port = read_port(colon + 1, (size_t)(end - colon - 1));
	else
		o->port = o->nscheme == 5 ? 443 : o->nscheme == 4 ? 80 : 0;
	return o->nhost > 0 && o->port >= 0;
}

bool
url_same_origin(const char *a, const char *b)
{
	struct origin x, y;

	if (!read_origin(a, &x) || !read_origin(b, &y))
		return false;
	return x.nscheme == y.nscheme &&
	    strncasecmp(x.scheme, y.scheme, x.nscheme) == 0 &&
	    x.nhost == y.nhost && strncasecmp(x.host, y.host, x.nhost) == 0 &&
	    x.port == y.port;
}

bool
url_origin_key(const char *url, char *buf, size_t size)
{
	struct origin o;
	size_t i, n;

	if (!read_origin(url, &o)) {
		snprintf(buf, size, "?");
		return false;
	}
	snprintf(buf, size, "%.*s://%.*s:%ld", (int)o.nscheme, o.scheme,
	    (int)o.nhost, o.host, o.port);
	for (i = 0, n = strlen(buf); i < n; i++)
		if (buf[i] >= 'A' && buf[i] <= 'Z')
			buf[i] = (char)(buf[i] - 'A' + 'a');
	return true;
}

/* Whether the n bytes at p are a name of the Hub: letters, digits, '-',
 * '_' and '.', not "." or "..", at most max - 1 of them. */
static bool
hub_name(const char *p, size_t n, size_t max)
{
	size_t i;

	if (n == 0 || n >= max || (n <= 2 && strncmp(p, "..", n) == 0))
		return false;
	for (i = 0; i < n; i++)
		if (!((p[i] >= 'a' && p[i] <= 'z') ||
		    (p[i] >= 'A' && p[i] <= 'Z') ||
		    (p[i] >= '0' && p[i] <= '9') || p[i] == '-' ||
		    p[i] == '_' || p[i] == '.'))
			return false;
	return true;
}

bool
url_hf_repo(const char *path, struct url_repo *r)
{
	const char *p, *org, *repo, *at;
	size_t n, norg, nrepo, nrev = 0;

	if ((n = scheme_is(path, "hf")) == 0 || has_bad_byte(path))
		return false;
	p = path + n;
	r->kind = "models";
	if (strncmp(p, "datasets/", 9) == 0 || strncmp(p, "spaces/", 7) == 0) {
		r->kind = p[0] == 'd' ? "datasets" : "spaces";
		p += strlen(r->kind) + 1;
	}
	norg = segment(&p, &org);
	nrepo = segment(&p, &repo);
	if (*p != '\0' || strpbrk(repo, "?#") != NULL)
		return false;	/* a file, or a query */
	if (nrepo > 0 && repo[nrepo - 1] == '/')
		nrepo--;
	if ((at = memchr(repo, '@', nrepo)) != NULL) {
		nrev = (size_t)(repo + nrepo - at - 1);
		if (nrev == 0 || nrev >= sizeof r->rev)
			return false;
		memcpy(r->rev, at + 1, nrev);
		nrepo = (size_t)(at - repo);
	}
	r->rev[nrev] = '\0';
	if (!hub_name(org, norg, sizeof r->org) ||
	    !hub_name(repo, nrepo, sizeof r->repo))
		return false;
	memcpy(r->org, org, norg);
	r->org[norg] = '\0';
	memcpy(r->repo, repo, nrepo);
	r->repo[nrepo] = '\0';
	return true;
}

char *
url_hf_tree(const struct url_repo *r, const char *endpoint,
    struct gl_error *err)
{
	size_t nep;

	if (endpoint == NULL || *endpoint == '\0')
		endpoint = URL_HF_ENDPOINT;
	nep = strlen(endpoint);
	while (nep > 0 && endpoint[nep - 1] == '/')
		nep--;
	if (has_bad_byte(endpoint) || (scheme_is(endpoint, "http") == 0 &&
	    scheme_is(endpoint, "https") == 0))
		return gl_error_setk(err, GL_ERR_USAGE, "HF_ENDPOINT: "
		    "expected an http:// or https:// address, not '%s'",
		    endpoint), NULL;
	return xasprintf("%.*s/api/%s/%s/%s/tree/%s?recursive=true",
	    (int)nep, endpoint, r->kind, r->org, r->repo,
	    r->rev[0] != '\0' ? r->rev : "main");
}
