/*
 * http-cache.c - the remote source's cache (http-impl.h): a header read
 * is kept in the cache folder (base/cachedir.h) by URL and ETag, and
 * revalidated (If-None-Match) the next time its URL is read.
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/cachedir.h"
#include "base/sha256.h"
#include "base/util.h"
#include "source/http-impl.h"

/* ---- the cache ---------------------------------------------------------- */

static char *
cache_file(const char *url, bool make)
{
	char *d = cache_dir(make), *p, hex[65];
	struct sha256 c;
	uint8_t dg[32];

	if (d == NULL)
		return NULL;
	sha256_init(&c);
	sha256_update(&c, url, strlen(url));
	sha256_final(&c, dg);
	sha256_hex(dg, hex);
	p = xasprintf("%s/http-%.32s.bin", d, hex);
	free(d);
	return p;
}

/* One line of fp (its newline dropped) into buf; false past size - 1. */
static bool
cache_line(FILE *fp, char *buf, size_t size)
{
	size_t n;

	if (fgets(buf, (int)size, fp) == NULL)
		return false;
	n = strlen(buf);
	if (n == 0 || buf[n - 1] != '\n')
		return false;
	buf[n - 1] = '\0';
	return true;
}

/* The cached header of h->url, if the cache holds a sound one. */
void
http_cache_load(struct source_http *h)
{
	char *path = cache_file(h->url, false), line[LOCATION_MAX];
	unsigned long long size, n;
	FILE *fp = path != NULL ? fopen(path, "rb") : NULL;

	free(path);
	if (fp == NULL)
		return;
	if (!cache_line(fp, line, sizeof line) ||
	    strcmp(line, HTTP_CACHE_MAGIC) != 0 ||
	    !cache_line(fp, line, sizeof line) || strcmp(line, h->url) != 0 ||
	    !cache_line(fp, h->cached_etag, sizeof h->cached_etag) ||
	    h->cached_etag[0] == '\0' || !cache_line(fp, line, sizeof line) ||
	    sscanf(line, "%llu %llu", &size, &n) != 2 || n == 0 ||
	    n > HTTP_CACHE_MAX || n > size || size > INT64_MAX) {
		fclose(fp);
		h->cached_etag[0] = '\0';
		return;
	}
	h->cached = xmalloc((size_t)n);
	if (fread(h->cached, 1, (size_t)n, fp) != n || fgetc(fp) != EOF) {
		free(h->cached);
		h->cached = NULL;
		h->cached_etag[0] = '\0';
	} else {
		h->cached_len = n;
		h->cached_size = size;
	}
	fclose(fp);
}

/* Forget the cached header of h->url. */
void
http_cache_drop(const struct source_http *h)
{
	char *path = cache_file(h->url, false);

	if (path != NULL)
		unlink(path);
	free(path);
}

/* Keep the window's bytes in the cache (when they have a strong ETag and
 * the cache does not hold them already); failures are silent. */
void
http_cache_store(struct source_http *h)
{
	static _Atomic unsigned serial; /* one a write: threads share a pid */
	const struct source *s = h->s;
	char *path, *tmp;
	FILE *fp;
	bool ok;

	if (h->etag[0] == '\0' || s->head_len == 0 ||
	    s->head_len > HTTP_CACHE_MAX || s->head_len <= h->stored_len ||
	    (path = cache_file(h->url, true)) == NULL)
		return;
	tmp = xasprintf("%s.tmp-%ld-%u", path, (long)getpid(), serial++);
	if ((fp = fopen(tmp, "wb")) != NULL) {
		ok = fprintf(fp, HTTP_CACHE_MAGIC "\n%s\n%s\n%" PRIu64 " %"
		    PRIu64 "\n", h->url, h->etag, s->size, s->head_len) > 0 &&
		    fwrite(s->head, 1, (size_t)s->head_len, fp) == s->head_len;
		if (fclose(fp) == 0 && ok && rename(tmp, path) == 0) {
			tmp[0] = '\0';
			h->stored_len = s->head_len;
		}
	}
	if (tmp[0] != '\0')
		unlink(tmp);
	free(tmp);
	free(path);
}
