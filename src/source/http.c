/*
 * http.c - the remote byte source (see source.h): a file on an HTTP(S)
 * server, its header read by range requests with libcurl. The first
 * request asks for the header's first window (1 MiB) and learns the
 * file's size; the rest of the header comes by one more request, whose
 * body is read only as far as the reader asks and is cut off when the
 * reader has what it needs (source_settle). Redirects are followed by
 * the source, not by libcurl, so that the token goes to the URL's own
 * origin only; 429 and 5xx answers are retried a bounded number of
 * times. Servers' certificates are verified, with libcurl's CA bundle or
 * the CA file the options name (--cacert, $CURL_CA_BUNDLE,
 * $SSL_CERT_FILE). A header is kept in the cache folder by URL and ETag,
 * and revalidated (If-None-Match) the next time it is read.
 *
 * This file holds the entry points (source-impl.h), libcurl's loading and
 * the window: the first request and the next ones. One transfer is
 * http-transfer.c's; a request, with its redirects, retries and errors,
 * and the token, http-request.c's; the cache http-cache.c's. They share
 * http-impl.h.
 */
#include "config.h"

#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef HAVE_LIBCURL
#include <curl/curl.h>
#endif

#include "base/util.h"
#include "source/source-impl.h"
#ifdef HAVE_LIBCURL
#include "source/http-impl.h"
#endif

#ifndef HAVE_LIBCURL

int
http_open(struct source *s, const char *name, const char *url,
    const struct source_opts *o, struct gl_error *err)
{
	(void)s;
	(void)url;
	(void)o;
	return gl_error_setk(err, GL_ERR_USAGE, "%s: this gguflint was built "
	    "without remote reading (configured without libcurl): download "
	    "the file and lint it", name);
}

int
http_head(struct source *s, uint64_t want, struct gl_error *err)
{
	(void)s;
	(void)want;
	return gl_error_setk(err, GL_ERR_IO, "no remote reading");
}

void
http_settle(struct source *s)
{
	(void)s;
}

void
http_close(struct source *s)
{
	(void)s;
}

void
http_cleanup(void)
{
}

void
http_stats(struct source_stats *st)
{
	(void)st;
}

int
http_get(const char *url, const struct source_opts *o, uint64_t max,
    char **body, size_t *len, char **next, struct gl_error *err)
{
	struct source s;

	(void)max;
	*body = *next = NULL;
	*len = 0;
	return http_open(&s, url, url, o, err);
}

#else

/* libcurl's functions, bound by http_load (http-impl.h). */
struct http_curl http_cu;

static pthread_mutex_t http_lock = PTHREAD_MUTEX_INITIALIZER;
static bool http_tried;			/* loaded, or http_load_error */
static bool http_inited;		/* curl_global_init done */
static char http_load_error[512];	/* why it did not load, or "" */

/* Bind http_cu's function name from h; false when h lacks it. */
static bool
cu_bind(void *h, void *slot, const char *name)
{
	char sym[64];
	void *p;

	snprintf(sym, sizeof sym, "curl_%s", name);
	if ((p = dlsym(h, sym)) == NULL)
		return false;
	memcpy(slot, &p, sizeof p);
	return true;
}

/* libcurl's name for dlopen (the system's; $GGUFLINT_LIBCURL another) */
#if defined(__APPLE__)
#define LIBCURL_NAME "libcurl.4.dylib"
#else
#define LIBCURL_NAME "libcurl.so.4"
#endif

/* Load libcurl and bind its functions; else say why in
 * http_load_error. */
static void
http_load(void)
{
	const char *name = getenv("GGUFLINT_LIBCURL");
	void *h;

	if (name == NULL || *name == '\0')
		name = LIBCURL_NAME;
	if ((h = dlopen(name, RTLD_NOW | RTLD_LOCAL)) == NULL) {
		snprintf(http_load_error, sizeof http_load_error, "remote "
		    "reading needs libcurl (Debian: libcurl4), which does not "
		    "load: %s", dlerror());
		return;
	}
#define CU_BIND(name) \
	if (!cu_bind(h, &http_cu.name, #name)) \
		goto old
	CU_BIND(easy_cleanup);
	CU_BIND(easy_init);
	CU_BIND(easy_pause);
	CU_BIND(easy_setopt);
	CU_BIND(easy_strerror);
	CU_BIND(free);
	CU_BIND(getdate);
	CU_BIND(global_cleanup);
	CU_BIND(global_init);
	CU_BIND(multi_add_handle);
	CU_BIND(multi_cleanup);
	CU_BIND(multi_info_read);
	CU_BIND(multi_init);
	CU_BIND(multi_perform);
	CU_BIND(multi_poll);
	CU_BIND(multi_remove_handle);
	CU_BIND(slist_append);
	CU_BIND(slist_free_all);
	CU_BIND(url);
	CU_BIND(url_cleanup);
	CU_BIND(url_get);
	CU_BIND(url_set);
#undef CU_BIND
	return;
old:
	snprintf(http_load_error, sizeof http_load_error, "%s is older than "
	    "the 7.66 remote reading needs", name);
}

/* libcurl loaded (once) and initialized (again after http_cleanup);
 * false when it cannot be (http_load_error says why). */
static bool
http_ready(void)
{
	bool ok;

	pthread_mutex_lock(&http_lock);
	if (!http_tried) {
		http_tried = true;
		http_load();
	}
	if (http_load_error[0] == '\0' && !http_inited) {
		if (http_cu.global_init(CURL_GLOBAL_DEFAULT) == CURLE_OK)
			http_inited = true;
		else
			snprintf(http_load_error, sizeof http_load_error,
			    "libcurl did not initialize");
	}
	ok = http_load_error[0] == '\0';
	pthread_mutex_unlock(&http_lock);
	return ok;
}

void
http_cleanup(void)
{
	pthread_mutex_lock(&http_lock);
	if (http_inited)
		http_cu.global_cleanup();
	http_inited = false;
	pthread_mutex_unlock(&http_lock);
}

void
http_stats(struct source_stats *st)
{
	http_gate_stats(st);
}

/* ---- the window --------------------------------------------------------- */

/* The first answer: 304 (the cache holds the header), 206 (the file's
 * size), a 200 within the first window (the whole file), 416 of an empty
 * file; anything else is an error. */
static int
first_answer(struct source_http *h, bool cond, struct gl_error *err)
{
	struct source *s = h->s;
	const struct response *r = &h->rsp;

	if (r->status == 304 && cond) {
		http_stop(h);
		free(s->head);
		s->head = h->cached;
		s->head_len = s->head_cap = (size_t)h->cached_len;
		s->size = h->cached_size;
		s->size_known = true;
		h->cached = NULL;
		h->stored_len = h->cached_len;
		snprintf(h->etag, sizeof h->etag, "%s", h->cached_etag);
		return 0;
	}
	if (r->status == 206 && r->has_range && r->first == 0 &&
	    r->total_known && r->total <= INT64_MAX) {
		s->size = r->total;
		s->size_known = true;
		return 0;
	}
	if (r->status == 200) {
		if (http_pump(h, UINT64_MAX) < 0 || h->ignored ||
		    !h->finished || h->result != CURLE_OK)
			return gl_error_setk(err, GL_ERR_IO, "%sthe server "
			    "ignores range requests (it sends the whole file): "
			    "download it and lint the file", h->shown);
		s->size = s->head_len;	/* it was all there is */
		s->size_known = true;
		return 0;
	}
	return gl_error_setk(err, GL_ERR_IO, "%sHTTP %ld%s%s to a range "
	    "request", h->shown, r->status, *http_reason(r->status) ? " " : "",
	    http_reason(r->status));
}

/* The first request: the first window, and the file's size. */
static int
first_window(struct source_http *h, uint64_t want, struct gl_error *err)
{
	bool cond = h->cached != NULL;
	const struct response *r = &h->rsp;
	int rc;

	h->deadline = now_ms() + h->total_s * 1e3;
	h->started = true;
	if (http_request(h, 0, want > HTTP_FIRST ? want : HTTP_FIRST, cond,
	    err) < 0)
		return -1;
	if (r->status == 416 && r->total_known && r->total == 0) {
		http_stop(h);	/* an empty file: F001, as locally */
		h->s->size = 0;
		h->s->size_known = true;
		return 0;
	}
	rc = first_answer(h, cond, err);
	if (rc == 0 && h->rsp.etag[0] != '\0' && strncmp(h->rsp.etag, "W/", 2))
		snprintf(h->etag, sizeof h->etag, "%s", h->rsp.etag);
	if (rc == 0 && cond && h->etag[0] == '\0')
		http_cache_drop(h);	/* stale, and not to be replaced */
	free(h->cached);	/* stale, or adopted */
	h->cached = NULL;
	if (rc < 0)
		http_stop(h);
	return rc;
}

/* A request for the rest of the file, from the window's end; its answer
 * must be a 206 from there, with the first answer's ETag. */
static int
next_request(struct source_http *h, struct gl_error *err)
{
	struct source *s = h->s;
	uint64_t end = s->size < SOURCE_REMOTE_MAX ? s->size :
	    SOURCE_REMOTE_MAX;

	if (http_request(h, s->head_len, end, false, err) < 0)
		return -1;
	if (h->rsp.status == 200)
		return gl_error_setk(err, GL_ERR_IO, "%sthe server ignores "
		    "range requests (it sends the whole file): download it "
		    "and lint the file", h->shown);
	if (h->rsp.status != 206 || !h->rsp.has_range ||
	    h->rsp.first != h->off)
		return gl_error_setk(err, GL_ERR_IO, "%sHTTP %ld, not the "
		    "bytes asked for", h->shown, h->rsp.status);
	if (h->etag[0] != '\0' && strcmp(h->etag, h->rsp.etag) != 0)
		return gl_error_setk(err, GL_ERR_IO, "%sthe file changed "
		    "while it was read (its ETag is now %s)", h->shown,
		    h->rsp.etag[0] ? h->rsp.etag : "none");
	return 0;
}

int
http_head(struct source *s, uint64_t want, struct gl_error *err)
{
	struct source_http *h = s->http;
	unsigned restarts = 0;

	if (!h->started && first_window(h, want, err) < 0)
		return -1;
	if (want > s->size)
		want = s->size;
	if (want > SOURCE_REMOTE_MAX)
		return gl_error_setk(err, GL_ERR_LIMIT, "%sa header of over "
		    "%llu bytes is not read from a remote file", h->shown,
		    (unsigned long long)SOURCE_REMOTE_MAX);
	while (s->head_len < want) {
		if (h->easy == NULL && (restarts++ == HTTP_TRIES ||
		    next_request(h, err) < 0)) {
			if (restarts > HTTP_TRIES)
				gl_error_setk(err, GL_ERR_IO, "%sthe server "
				    "stopped sending", h->shown);
			http_stop(h);
			return -1;
		}
		if (http_pump(h, want) < 0 || h->nomem) {
			http_stop(h);
			return gl_error_setk(err, GL_ERR_LIMIT, "%sno memory "
			    "for the header window", h->shown);
		}
		if (h->finished && s->head_len < want) {
			if (h->result == CURLE_OPERATION_TIMEDOUT)
				return http_fail(h, 0, h->result, 1, err);
			http_stop(h);	/* it ended early: ask again */
		}
	}
	if (h->easy != NULL && (h->finished || h->off + h->body >= h->end ||
	    s->head_len >= s->size))
		http_stop(h);	/* all it was asked for, or all there is:
				 * its host's turn is another's (the shards
				 * of a split model are all opened before
				 * any is parsed: http-gate.c) */
	return 0;
}

void
http_settle(struct source *s)
{
	struct source_http *h = s->http;

	if (h == NULL)
		return;
	http_stop(h);
	http_cache_store(h);
}

void
http_close(struct source *s)
{
	struct source_http *h = s->http;

	if (h == NULL)
		return;
	http_settle(s);
	free(h->rsp.location);
	free(h->rsp.next);
	if (h->multi != NULL)
		http_cu.multi_cleanup(h->multi);
	free(h->cached);
	free(h->url);
	free(h->shown);
	free(h->where);
	free(h->auth);
	free(h);
	s->http = NULL;
}
/* The body of a GET (source-impl.h): read as a remote file's window is,
 * by one request (a range the server may ignore), never cached. */
int
http_get(const char *url, const struct source_opts *o, uint64_t max,
    char **body, size_t *len, char **next, struct gl_error *err)
{
	static const struct source_opts none;
	struct source_opts oo = o != NULL ? *o : none;
	struct source s;
	int rc;

	*body = *next = NULL;
	*len = 0;
	memset(&s, 0, sizeof s);
	s.fd = -1;
	oo.no_cache = true;
	if (http_open(&s, url, url, &oo, err) < 0)
		return -1;
	rc = http_head(&s, max, err);
	if (rc < 0 && s.http->ignored)
		rc = gl_error_setk(err, GL_ERR_LIMIT, "%s: an answer of over "
		    "%llu bytes", url, (unsigned long long)max);
	else if (rc == 0 && s.size > max)
		rc = gl_error_setk(err, GL_ERR_LIMIT, "%s: an answer of %llu "
		    "bytes, over %llu", url, (unsigned long long)s.size,
		    (unsigned long long)max);
	if (rc == 0) {
		*len = (size_t)s.head_len;
		*body = xmalloc(*len + 1);
		memcpy(*body, s.head, *len);
		(*body)[*len] = '\0';
		*next = s.http->rsp.next;
		s.http->rsp.next = NULL;
	}
	s.http->etag[0] = '\0';	/* not cached */
	http_close(&s);
	free(s.head);
	return rc;
}

int
http_open(struct source *s, const char *name, const char *url,
    const struct source_opts *o, struct gl_error *err)
{
	static const struct source_opts none;
	struct source_http *h;

	if (o == NULL)
		o = &none;
	if (!http_ready())
		return gl_error_setk(err, GL_ERR_IO, "%s: %s", name,
		    http_load_error);
	if (o->cacert != NULL && *o->cacert != '\0' &&
	    access(o->cacert, R_OK) < 0)
		return gl_error_setk(err, GL_ERR_USAGE, "%s: %s %s: %s", name,
		    o->cacert_from != NULL ? o->cacert_from : "--cacert",
		    o->cacert, strerror(errno));
	h = xcalloc(1, sizeof *h);
	h->s = s;
	h->url = xstrdup(url);
	h->shown = strcmp(url, name) != 0 ? xasprintf("%s: ", url) :
	    xstrdup("");
	h->where = xstrdup(url);
	h->connect_ms = (long)((o->connect_timeout > 0 ? o->connect_timeout :
	    HTTP_CONNECT_S) * 1e3);
	h->total_s = o->timeout > 0 ? o->timeout : HTTP_TOTAL_S;
	h->no_cache = o->no_cache;
	h->max_per_host = o->max_per_host;
	if (o->cacert != NULL && *o->cacert != '\0') {
		h->cacert = o->cacert;
		h->cacert_from = o->cacert_from != NULL ? o->cacert_from :
		    "--cacert";
	}
	s->http = h;
	s->kind = SOURCE_HTTP;
	if (http_make_auth(h, o, err) < 0) {
		http_close(s);
		return -1;
	}
	if ((h->multi = http_cu.multi_init()) == NULL) {
		http_close(s);
		return gl_error_setk(err, GL_ERR_IO, "%s: libcurl: no multi "
		    "handle", url);
	}
	if (!h->no_cache)
		http_cache_load(h);
	return 0;
}

#endif
