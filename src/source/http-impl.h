/*
 * http-impl.h - what the parts of the remote source share inside
 * src/source/ (built with libcurl only): its knobs, the state of one
 * remote file and of its transfer, libcurl's functions (http.c loads
 * them), one transfer (http-transfer.c), one request with its redirects
 * and retries (http-request.c) and the cache (http-cache.c). Private to
 * src/source/.
 */
#ifndef GGUFLINT_SOURCE_HTTP_IMPL_H
#define GGUFLINT_SOURCE_HTTP_IMPL_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include <curl/curl.h>

#include "base/error.h"
#include "source/source.h"

/* Sizes, counts and times of the remote source. */
#define HTTP_FIRST (1u << 20)		/* the first window */
#define HTTP_TRIES 3			/* per request, and restarts */
#define HTTP_REDIRECTS 10
#define HTTP_BACKOFF_MS 250		/* then twice that, ... */
#define HTTP_RETRY_AFTER_MAX 30.0	/* seconds of Retry-After heeded */
#define HTTP_CONNECT_S 10.0
#define HTTP_TOTAL_S 120.0
#define HTTP_ERROR_BODY (64u << 10)	/* read of an unwanted body */
#define HTTP_CACHE_MAX (64u << 20)	/* the largest header cached */
#define HTTP_CACHE_MAGIC "gguflint-http 1"
#define STREAM_WINDOW (256 << 10)	/* its receive buffer */
#define ETAG_MAX 256
#define LOCATION_MAX 8192
#define HTTP_HOST_KEY 300		/* an origin's key (the gate's) */
#define HTTP_PER_HOST 8			/* requests in flight to a host */

/* What the headers of one response said. */
struct response {
	long status;			/* 0: no status line yet */
	bool done;			/* the headers ended */
	bool has_range;			/* Content-Range: bytes a-b/total */
	uint64_t first;			/* a */
	bool total_known;		/* total is not '*' */
	uint64_t total;
	char etag[ETAG_MAX];		/* "" when none */
	char *location;			/* owned, or NULL */
	char *next;			/* Link's rel="next" URL (owned),
					 * or NULL */
	double retry_after;		/* seconds, or < 0: none */
};

struct source_http {
	struct source *s;		/* whose window the bytes go to */
	char *url;			/* as asked: the cache key */
	char *shown;			/* what messages start with: "",
					 * or the URL and ": " when it is
					 * not the name the user gave */
	char *where;			/* the bytes' URL, after redirects */
	char *auth;			/* the Authorization header line */
	bool hub;			/* url is at the Hub's origin */
	long connect_ms;
	double total_s;
	double deadline;		/* monotonic ms; 0: not started */
	bool no_cache;
	const char *cacert;		/* o's CA file (borrowed), or NULL */
	const char *cacert_from;	/* what named it */
	CURLM *multi;
	CURL *easy;			/* the transfer, or NULL */
	struct curl_slist *hdrs;
	struct response rsp;
	uint64_t off, end;		/* this transfer's range [off, end) */
	uint64_t body;			/* body bytes it delivered */
	uint64_t junk;			/* bytes of an unwanted body */
	uint64_t want;			/* the window's goal (http_pump()) */
	bool paused;			/* the body waits: the goal is met */
	bool finished;			/* it ended: result says how */
	CURLcode result;
	bool cut;			/* we cut it off: it sent more */
	bool ignored;			/* a 200 to a range request */
	bool nomem;
	bool started;			/* the first window was asked */
	char etag[ETAG_MAX];		/* the window's bytes' (strong) */
	uint8_t *cached;		/* the cache's header, or NULL */
	uint64_t cached_len, cached_size;
	char cached_etag[ETAG_MAX];
	uint64_t stored_len;		/* what the cache holds of it */
	char errbuf[CURL_ERROR_SIZE];
	unsigned max_per_host;		/* o's; 0: HTTP_PER_HOST */
	bool gated;			/* a request of gate is in flight */
	char gate[HTTP_HOST_KEY];	/* its host's key */
};

/*
 * libcurl, loaded when the first remote file is opened (dlopen), so that
 * a lint of local files neither loads it nor the TLS libraries under it.
 * The headers give the types; every function is bound by name.
 */
#define CU_FN(name) __typeof__(curl_##name) *name
struct http_curl {
	CU_FN(easy_cleanup);
	CU_FN(easy_init);
	CU_FN(easy_pause);
	CU_FN(easy_setopt);
	CU_FN(easy_strerror);
	CU_FN(free);
	CU_FN(getdate);
	CU_FN(global_cleanup);
	CU_FN(global_init);
	CU_FN(multi_add_handle);
	CU_FN(multi_cleanup);
	CU_FN(multi_info_read);
	CU_FN(multi_init);
	CU_FN(multi_perform);
	CU_FN(multi_poll);
	CU_FN(multi_remove_handle);
	CU_FN(slist_append);
	CU_FN(slist_free_all);
	CU_FN(url);
	CU_FN(url_cleanup);
	CU_FN(url_get);
	CU_FN(url_set);
};
#undef CU_FN

extern struct http_curl http_cu;

/* The monotonic clock, in milliseconds (for h->deadline). */
static inline double
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/*
 * One transfer (http-transfer.c). http_start: start the transfer of
 * [off, end) of h->where (If-None-Match the cached ETag when cond),
 * h->rsp and the transfer's counts reset; -1 when it cannot be (then
 * http_stop it). http_pump: run the transfer until its headers are in
 * (want 0), or the window holds want bytes, or its end (h->finished,
 * h->result); the body is taken only as far as want. Returns 0, or -1
 * when libcurl fails. http_stop: end the transfer, if any, and free its
 * request headers; h stays, ready for another.
 */
int http_start(struct source_http *h, uint64_t off, uint64_t end, bool cond);
int http_pump(struct source_http *h, uint64_t want);
void http_stop(struct source_http *h);

/*
 * One request (http-request.c). http_request: ask for [off, end) of the
 * file, following redirects and retrying, until an answer's headers are
 * in: a 2xx, 304 or 416 (the transfer may go on: http_pump it). Returns
 * 0, or -1 with err. http_fail: the error of a request that failed with
 * status (0: none) or rc after tries tries; returns -1. http_reason: an
 * HTTP status's reason phrase (static), or "" for one it does not know.
 */
int http_request(struct source_http *h, uint64_t off, uint64_t end,
    bool cond, struct gl_error *err);
int http_fail(struct source_http *h, long status, CURLcode rc,
    unsigned tries, struct gl_error *err);
const char *http_reason(long status);

/*
 * http_make_auth (http-request.c): h->hub, and h->auth, the
 * Authorization header line of o's token for a URL at the Hub's origin
 * only. Returns 0, or -1 with err for a token that cannot be sent.
 */
int http_make_auth(struct source_http *h, const struct source_opts *o,
    struct gl_error *err);

/*
 * The cache (http-cache.c), whose failures are silent. http_cache_load:
 * the cached header of h->url (h->cached, its length, size and ETag), if
 * the cache holds a sound one. http_cache_drop: forget it.
 * http_cache_store: keep the window's bytes, when they have a strong ETag
 * and the cache does not hold them already.
 */
void http_cache_load(struct source_http *h);
void http_cache_drop(const struct source_http *h);
void http_cache_store(struct source_http *h);

/*
 * The gate (http-gate.c), shared by every remote file of the process.
 * http_gate_enter: wait until h->where's host has fewer than
 * h->max_per_host requests in flight and no 429's wait is pending, then
 * count h's as one; -1 when h->deadline passes first. http_gate_leave:
 * h's request is over (nothing when it is not counted). http_gate_pause:
 * no request to h->where's host for seconds (a 429's Retry-After).
 * http_gate_retried: count a retry. http_gate_stats: the counts so far.
 */
int http_gate_enter(struct source_http *h);
void http_gate_leave(struct source_http *h);
void http_gate_pause(const struct source_http *h, double seconds);
void http_gate_retried(void);
void http_gate_stats(struct source_stats *st);

#endif
