/*
 * http.c - the remote byte source (see source.h): a file on an HTTP(S)
 * server, its header read by range requests with libcurl. The first
 * request asks for the header's first window (1 MiB) and learns the
 * file's size; the rest of the header comes by one more request, whose
 * body is read only as far as the reader asks and is cut off when the
 * reader has what it needs (source_settle). Redirects are followed here,
 * not by libcurl, so that the token goes to the URL's own origin only;
 * 429 and 5xx answers are retried a bounded number of times. Servers'
 * certificates are verified, with libcurl's CA bundle or the CA file the
 * options name (--cacert, $CURL_CA_BUNDLE, $SSL_CERT_FILE). A header is
 * kept in the cache folder by URL and ETag, and revalidated
 * (If-None-Match) the next time it is read.
 */
#include "config.h"

#include <dlfcn.h>
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#ifdef HAVE_LIBCURL
#include <curl/curl.h>
#endif

#include "base/cachedir.h"
#include "base/sha256.h"
#include "base/util.h"
#include "source/source-impl.h"
#include "source/url.h"

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

#else

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
	uint64_t want;			/* the window's goal (pump()) */
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
};

/*
 * libcurl, loaded when the first remote file is opened (dlopen), so that
 * a lint of local files neither loads it nor the TLS libraries under it.
 * The headers give the types; every function is bound by name.
 */
#define CU_FN(name) __typeof__(curl_##name) *name
static struct {
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
} cu;
#undef CU_FN

static pthread_mutex_t http_lock = PTHREAD_MUTEX_INITIALIZER;
static bool http_tried;			/* loaded, or http_load_error */
static bool http_inited;		/* curl_global_init done */
static char http_load_error[512];	/* why it did not load, or "" */

/* Bind cu's function name from h; false when h lacks it. */
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
	if (!cu_bind(h, &cu.name, #name)) \
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
		if (cu.global_init(CURL_GLOBAL_DEFAULT) == CURLE_OK)
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
		cu.global_cleanup();
	http_inited = false;
	pthread_mutex_unlock(&http_lock);
}

static double
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* Milliseconds left before the deadline (at least 1). */
static long
left_ms(const struct source_http *h)
{
	double l = h->deadline - now_ms();

	return l < 1 ? 1 : l > 1e9 ? 1000000000L : (long)l;
}

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
static void
cache_load(struct source_http *h)
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
static void
cache_drop(const struct source_http *h)
{
	char *path = cache_file(h->url, false);

	if (path != NULL)
		unlink(path);
	free(path);
}

/* Keep the window's bytes in the cache (when they have a strong ETag and
 * the cache does not hold them already); failures are silent. */
static void
cache_store(struct source_http *h)
{
	const struct source *s = h->s;
	char *path, *tmp;
	FILE *fp;
	bool ok;

	if (h->etag[0] == '\0' || s->head_len == 0 ||
	    s->head_len > HTTP_CACHE_MAX || s->head_len <= h->stored_len ||
	    (path = cache_file(h->url, true)) == NULL)
		return;
	tmp = xasprintf("%s.tmp-%ld", path, (long)getpid());
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

/* ---- one transfer ------------------------------------------------------- */

/* The value of header line p (n bytes) when its name is name, trimmed,
 * in buf (size bytes, truncated); false when it is not name's. */
static bool
header_value(const char *p, size_t n, const char *name, char *buf,
    size_t size)
{
	size_t k = strlen(name), m;

	if (n <= k || strncasecmp(p, name, k) != 0 || p[k] != ':')
		return false;
	p += k + 1;
	n -= k + 1;
	while (n > 0 && (*p == ' ' || *p == '\t'))
		p++, n--;
	while (n > 0 && (p[n - 1] == '\r' || p[n - 1] == '\n' ||
	    p[n - 1] == ' ' || p[n - 1] == '\t'))
		n--;
	m = n < size - 1 ? n : size - 1;
	memcpy(buf, p, m);
	buf[m] = '\0';
	return true;
}

/* Content-Range: "bytes FIRST-LAST/TOTAL" (TOTAL may be a star), or, of
 * a 416, "bytes", a star, "/" and TOTAL. */
static void
read_range(struct response *r, const char *v)
{
	unsigned long long a, b, t;
	char c;

	r->has_range = r->total_known = false;
	if (sscanf(v, "bytes %llu-%llu/%llu%c", &a, &b, &t, &c) == 3 &&
	    a <= b && b < t) {
		r->has_range = r->total_known = true;
		r->first = a;
		r->total = t;
	} else if (sscanf(v, "bytes %llu-%llu/%c", &a, &b, &c) == 3 &&
	    c == '*' && a <= b) {
		r->has_range = true;
		r->first = a;
	} else if (sscanf(v, "bytes */%llu%c", &t, &c) == 1) {
		r->total_known = true;
		r->total = t;
	}
}

/* Retry-After: seconds, or an HTTP date. */
static double
read_retry_after(const char *v)
{
	char *end;
	unsigned long sec = strtoul(v, &end, 10);
	time_t t;

	if (end != v && *end == '\0')
		return (double)sec;
	if ((t = cu.getdate(v, NULL)) < 0)
		return -1;
	return t > time(NULL) ? difftime(t, time(NULL)) : 0;
}

static size_t
header_cb(char *p, size_t size, size_t n, void *arg)
{
	struct source_http *h = arg;
	struct response *r = &h->rsp;
	char v[LOCATION_MAX];
	size_t len = size * n;
	long st;

	if (len >= 5 && strncmp(p, "HTTP/", 5) == 0) {
		free(r->location);
		memset(r, 0, sizeof *r);
		r->retry_after = -1;
		/* the line is not NUL-terminated: a copy of its start is */
		snprintf(v, sizeof v, "%.*s", len < 64 ? (int)len : 64, p);
		if (sscanf(v, "HTTP/%*s %ld", &st) == 1)
			r->status = st;
	} else if (len <= 2 && (len == 0 || p[0] == '\r' || p[0] == '\n')) {
		if (r->status >= 200)
			r->done = true;	/* not a 1xx's end */
	} else if (header_value(p, len, "Content-Range", v, sizeof v)) {
		read_range(r, v);
	} else if (header_value(p, len, "ETag", r->etag, sizeof r->etag)) {
		/* kept, truncated past ETAG_MAX */
	} else if (header_value(p, len, "Retry-After", v, sizeof v)) {
		r->retry_after = read_retry_after(v);
	} else if (header_value(p, len, "Location", v, sizeof v)) {
		free(r->location);
		r->location = xstrdup(v);
	}
	return len;
}

/* Where this transfer's bytes go in the file; false when they are not
 * wanted (they are then counted and dropped). */
static bool
body_at(struct source_http *h, uint64_t *at)
{
	const struct response *r = &h->rsp;

	if (r->status == 206 && r->has_range && r->first == h->off) {
		*at = r->first + h->body;
		return true;
	}
	if (r->status == 200 && h->off == 0) {
		*at = h->body;
		return true;
	}
	if (r->status == 200)
		h->ignored = true;	/* the whole file, not the range */
	return false;
}

static size_t
write_cb(char *p, size_t size, size_t n, void *arg)
{
	struct source_http *h = arg;
	struct source *s = h->s;
	size_t len = size * n, take = len;
	uint64_t at;

	if (!body_at(h, &at) || at != s->head_len) {
		h->junk += len;
		return h->ignored || h->junk > HTTP_ERROR_BODY ? 0 : len;
	}
	if (s->head_len >= h->want) {	/* no more until asked */
		h->paused = true;
		return CURL_WRITEFUNC_PAUSE;
	}
	if (take > h->end - at) {
		take = (size_t)(h->end - at);
		h->cut = true;	/* more than asked: a 200, or hostile */
		if (h->rsp.status == 200)
			h->ignored = true;
	}
	if (take > 0 && source_reserve(s, at + take, NULL) < 0) {
		h->nomem = true;
		return 0;
	}
	memcpy(s->head + s->head_len, p, take);
	s->head_len += take;
	h->body += take;
	return take == len ? len : 0;
}

static void
stop(struct source_http *h)
{
	if (h->easy != NULL) {
		cu.multi_remove_handle(h->multi, h->easy);
		cu.easy_cleanup(h->easy);
		h->easy = NULL;
	}
	cu.slist_free_all(h->hdrs);
	h->hdrs = NULL;
}

/* The request's own headers: the token for the URL's origin only. */
static bool
add_headers(struct source_http *h, bool cond)
{
	char *line;
	bool ok = true;

	if (h->auth != NULL && url_same_origin(h->url, h->where))
		ok = (h->hdrs = cu.slist_append(h->hdrs, h->auth)) != NULL;
	if (ok && cond) {
		line = xasprintf("If-None-Match: %s", h->cached_etag);
		ok = (h->hdrs = cu.slist_append(h->hdrs, line)) != NULL;
		free(line);
	}
	return ok;
}

/*
 * The socket of a transfer that is read only as far as the reader asks
 * (the rest of the header): a receive buffer of STREAM_WINDOW bytes, so
 * that the server cannot send much more than was read before the
 * transfer is cut off (the bytes in flight are at most the window).
 */
static int
sockopt_cb(void *arg, curl_socket_t fd, curlsocktype purpose)
{
	int n = STREAM_WINDOW;

	(void)arg;
	if (purpose == CURLSOCKTYPE_IPCXN)
		(void)setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &n, sizeof n);
	return CURL_SOCKOPT_OK;
}

/* Start the transfer of [off, end) of h->where; -1 when it cannot be. */
static int
start(struct source_http *h, uint64_t off, uint64_t end, bool cond)
{
	char range[64];
	CURL *e;

	free(h->rsp.location);
	memset(&h->rsp, 0, sizeof h->rsp);
	h->rsp.retry_after = -1;
	h->off = off;
	h->end = end;
	h->body = h->junk = 0;
	h->finished = h->cut = h->ignored = h->nomem = h->paused = false;
	h->errbuf[0] = '\0';
	if ((e = h->easy = cu.easy_init()) == NULL || !add_headers(h, cond))
		return -1;
	snprintf(range, sizeof range, "%" PRIu64 "-%" PRIu64, off, end - 1);
	cu.easy_setopt(e, CURLOPT_URL, h->where);
	cu.easy_setopt(e, CURLOPT_RANGE, range);
	cu.easy_setopt(e, CURLOPT_HTTPHEADER, h->hdrs);
	cu.easy_setopt(e, CURLOPT_FOLLOWLOCATION, 0L);
#if LIBCURL_VERSION_NUM >= 0x075500
	cu.easy_setopt(e, CURLOPT_PROTOCOLS_STR, "http,https");
#else
	cu.easy_setopt(e, CURLOPT_PROTOCOLS,
	    (long)(CURLPROTO_HTTP | CURLPROTO_HTTPS));
#endif
	cu.easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
	cu.easy_setopt(e, CURLOPT_CONNECTTIMEOUT_MS,
	    h->connect_ms < left_ms(h) ? h->connect_ms : left_ms(h));
	cu.easy_setopt(e, CURLOPT_TIMEOUT_MS, left_ms(h));
	cu.easy_setopt(e, CURLOPT_USERAGENT, PACKAGE_NAME "/"
	    PACKAGE_VERSION);
	cu.easy_setopt(e, CURLOPT_HEADERFUNCTION, header_cb);
	cu.easy_setopt(e, CURLOPT_HEADERDATA, h);
	cu.easy_setopt(e, CURLOPT_WRITEFUNCTION, write_cb);
	cu.easy_setopt(e, CURLOPT_WRITEDATA, h);
	cu.easy_setopt(e, CURLOPT_ERRORBUFFER, h->errbuf);
	if (h->cacert != NULL)
		cu.easy_setopt(e, CURLOPT_CAINFO, h->cacert);
	if (off > 0) {	/* read as the reader asks: a new connection */
		cu.easy_setopt(e, CURLOPT_SOCKOPTFUNCTION, sockopt_cb);
		cu.easy_setopt(e, CURLOPT_FRESH_CONNECT, 1L);
	}
	if (cu.multi_add_handle(h->multi, e) != CURLM_OK)
		return -1;
	return 0;
}

/* Whether pumping may stop: the headers are in (want 0), or the window
 * holds want bytes. */
static bool
pumped(const struct source_http *h, uint64_t want)
{
	return want == 0 ? h->rsp.done : h->s->head_len >= want;
}

/*
 * Run the transfer until pumped(want) or its end. The body is taken only
 * as far as want (the write pauses the transfer past it; 0: none of it),
 * so that the bytes read but not asked for are at most one write's.
 * Returns 0, or -1 when libcurl fails.
 */
static int
pump(struct source_http *h, uint64_t want)
{
	CURLMsg *m;
	int running, left;

	h->want = want;
	if (h->paused && !pumped(h, want)) {
		h->paused = false;
		if (cu.easy_pause(h->easy, CURLPAUSE_CONT) != CURLE_OK)
			return -1;
	}
	while (!h->finished && !pumped(h, want)) {
		if (cu.multi_perform(h->multi, &running) != CURLM_OK)
			return -1;
		while ((m = cu.multi_info_read(h->multi, &left)) != NULL)
			if (m->msg == CURLMSG_DONE) {
				h->finished = true;
				h->result = m->data.result;
			}
		if (h->finished || pumped(h, want))
			break;
		if (cu.multi_poll(h->multi, NULL, 0, 1000, NULL) != CURLM_OK)
			return -1;
	}
	return 0;
}

/* ---- requests, redirects, retries --------------------------------------- */

static const char *
reason(long status)
{
	static const struct {
		long status;
		const char *text;
	} t[] = { { 400, "Bad Request" }, { 401, "Unauthorized" },
	    { 403, "Forbidden" }, { 404, "Not Found" }, { 410, "Gone" },
	    { 416, "Range Not Satisfiable" }, { 429, "Too Many Requests" },
	    { 500, "Internal Server Error" }, { 502, "Bad Gateway" },
	    { 503, "Service Unavailable" }, { 504, "Gateway Timeout" } };
	size_t i;

	for (i = 0; i < sizeof t / sizeof t[0]; i++)
		if (t[i].status == status)
			return t[i].text;
	return "";
}

static bool
retryable(long status, CURLcode rc)
{
	if (status != 0)
		return status == 429 || status == 500 || status == 502 ||
		    status == 503 || status == 504;
	return rc == CURLE_GOT_NOTHING || rc == CURLE_RECV_ERROR ||
	    rc == CURLE_SEND_ERROR || rc == CURLE_PARTIAL_FILE;
}

/* The host of h->where (after redirects) into buf, or "?". */
static void
where_host(const struct source_http *h, char *buf, size_t size)
{
	CURLU *u = cu.url();
	char *host = NULL;

	if (u != NULL && cu.url_set(u, CURLUPART_URL, h->where, 0) ==
	    CURLUE_OK && cu.url_get(u, CURLUPART_HOST, &host, 0) == CURLUE_OK)
		snprintf(buf, size, "%s", host);
	else
		snprintf(buf, size, "?");
	cu.free(host);
	cu.url_cleanup(u);
}

/* Whether the CA file was named by an environment variable (curl's). */
static bool
is_env(const char *from)
{
	return strcmp(from, "CURL_CA_BUNDLE") == 0 ||
	    strcmp(from, "SSL_CERT_FILE") == 0;
}

/*
 * A server whose certificate does not verify (rc 60), or CA certificates
 * that libcurl cannot use (rc 77): the host and libcurl's reason, and
 * what to do about it. Returns -1.
 */
static int
fail_tls(const struct source_http *h, CURLcode rc, struct gl_error *err)
{
	const char *why = h->errbuf[0] ? h->errbuf : cu.easy_strerror(rc);
	char host[256];

	if (rc == CURLE_SSL_CACERT_BADFILE)
		return gl_error_setk(err, GL_ERR_USAGE, "%sthe CA certificates "
		    "of %s (%s) cannot be used: %s", h->shown,
		    h->cacert_from != NULL ? h->cacert_from : "libcurl",
		    h->cacert != NULL ? h->cacert : "its bundle", why);
	where_host(h, host, sizeof host);
	if (h->cacert != NULL)
		return gl_error_setk(err, GL_ERR_IO, "%scertificate not "
		    "trusted: %s: %s (with %s%s%s)", h->shown, host, why,
		    h->cacert_from, is_env(h->cacert_from) ? "=" : " ",
		    h->cacert);
	return gl_error_setk(err, GL_ERR_IO, "%scertificate not trusted: %s: "
	    "%s (use --cacert FILE)", h->shown, host, why);
}

/* The error of a request that failed with status (0: none) or rc. */
static int
fail(struct source_http *h, long status, CURLcode rc, unsigned tries,
    struct gl_error *err)
{
	char n[32] = "";

	if (tries > 1)
		snprintf(n, sizeof n, " (%u tries)", tries);
	if ((status == 401 || status == 403) && h->hub)
		return gl_error_setk(err, GL_ERR_DENIED, "%sHTTP %ld %s: %s%s",
		    h->shown, status, reason(status), h->auth != NULL ? "the "
		    "token (HF_TOKEN) is not allowed to read it" : "it needs "
		    "a token (a gated or private repository: set HF_TOKEN)",
		    n);
	if (status != 0)
		return gl_error_setk(err, status == 404 || status == 410 ?
		    GL_ERR_NOT_FOUND : status == 401 || status == 403 ?
		    GL_ERR_DENIED : GL_ERR_IO, "%sHTTP %ld%s%s%s", h->shown,
		    status, *reason(status) ? " " : "", reason(status), n);
	if (rc == CURLE_PEER_FAILED_VERIFICATION ||
	    rc == CURLE_SSL_CACERT_BADFILE)
		return fail_tls(h, rc, err);
	if (rc == CURLE_OPERATION_TIMEDOUT)
		return gl_error_setk(err, GL_ERR_IO, "%stimed out (%s)",
		    h->shown, h->errbuf[0] ? h->errbuf : "--timeout");
	return gl_error_setk(err, GL_ERR_IO, "%s%s%s", h->shown,
	    h->errbuf[0] ? h->errbuf : cu.easy_strerror(rc), n);
}

/* Follow the redirect of h->rsp: h->where becomes its target. */
static int
redirect(struct source_http *h, struct gl_error *err)
{
	CURLU *u = cu.url();
	char *to = NULL, *scheme = NULL;
	int rc = -1;

	if (u != NULL && cu.url_set(u, CURLUPART_URL, h->where, 0) ==
	    CURLUE_OK && cu.url_set(u, CURLUPART_URL, h->rsp.location, 0) ==
	    CURLUE_OK && cu.url_get(u, CURLUPART_URL, &to, 0) == CURLUE_OK &&
	    cu.url_get(u, CURLUPART_SCHEME, &scheme, 0) == CURLUE_OK &&
	    (strcmp(scheme, "http") == 0 || strcmp(scheme, "https") == 0)) {
		free(h->where);
		h->where = xstrdup(to);
		rc = 0;
	} else
		gl_error_setk(err, GL_ERR_IO, "%sHTTP %ld: a redirect to "
		    "'%.200s', which is not an http:// or https:// URL",
		    h->shown, h->rsp.status, h->rsp.location);
	cu.free(to);
	cu.free(scheme);
	cu.url_cleanup(u);
	return rc;
}

/* Wait before try number tries + 1; false when the deadline would pass. */
static bool
back_off(struct source_http *h, unsigned tries)
{
	double ms = h->rsp.retry_after >= 0 ? (h->rsp.retry_after <
	    HTTP_RETRY_AFTER_MAX ? h->rsp.retry_after :
	    HTTP_RETRY_AFTER_MAX) * 1e3 : (double)(HTTP_BACKOFF_MS << (tries -
	    1));
	struct timespec ts;

	if (now_ms() + ms >= h->deadline)
		return false;
	ts.tv_sec = (time_t)(ms / 1e3);
	ts.tv_nsec = (long)((ms - (double)ts.tv_sec * 1e3) * 1e6);
	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
	return true;
}

static bool
is_redirect(long status)
{
	return status == 301 || status == 302 || status == 303 ||
	    status == 307 || status == 308;
}

/*
 * Ask for [off, end) of the file, following redirects and retrying, until
 * an answer's headers are in: a 2xx, 304 or 416 (the transfer may go
 * on: pump() it), else an error. Returns 0, or -1 with err.
 */
static int
request(struct source_http *h, uint64_t off, uint64_t end, bool cond,
    struct gl_error *err)
{
	unsigned hops = 0, tries = 0;
	long st;
	CURLcode rc;

	for (;;) {
		if (start(h, off, end, cond) < 0 || pump(h, 0) < 0)
			return gl_error_setk(err, GL_ERR_IO, "%scannot make "
			    "a request (libcurl)", h->shown);
		st = h->rsp.done ? h->rsp.status : 0;
		if ((st >= 200 && st < 300) || st == 304 || st == 416)
			return 0;	/* the caller's to judge */
		rc = h->finished ? h->result : CURLE_OK;
		stop(h);
		tries++;
		if (is_redirect(st) && h->rsp.location != NULL) {
			if (++hops > HTTP_REDIRECTS)
				return gl_error_setk(err, GL_ERR_IO, "%smore "
				    "than %d redirects", h->shown,
				    HTTP_REDIRECTS);
			if (redirect(h, err) < 0)
				return -1;
			tries = 0;
			continue;
		}
		if (retryable(st, rc) && tries < HTTP_TRIES &&
		    back_off(h, tries))
			continue;
		return fail(h, st, rc, tries, err);
	}
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
		stop(h);
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
		if (pump(h, UINT64_MAX) < 0 || h->ignored || !h->finished ||
		    h->result != CURLE_OK)
			return gl_error_setk(err, GL_ERR_IO, "%sthe server "
			    "ignores range requests (it sends the whole file): "
			    "download it and lint the file", h->shown);
		s->size = s->head_len;	/* it was all there is */
		s->size_known = true;
		return 0;
	}
	return gl_error_setk(err, GL_ERR_IO, "%sHTTP %ld%s%s to a range "
	    "request", h->shown, r->status, *reason(r->status) ? " " : "",
	    reason(r->status));
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
	if (request(h, 0, want > HTTP_FIRST ? want : HTTP_FIRST, cond,
	    err) < 0)
		return -1;
	if (r->status == 416 && r->total_known && r->total == 0) {
		stop(h);	/* an empty file: F001, as locally */
		h->s->size = 0;
		h->s->size_known = true;
		return 0;
	}
	rc = first_answer(h, cond, err);
	if (rc == 0 && h->rsp.etag[0] != '\0' && strncmp(h->rsp.etag, "W/", 2))
		snprintf(h->etag, sizeof h->etag, "%s", h->rsp.etag);
	if (rc == 0 && cond && h->etag[0] == '\0')
		cache_drop(h);	/* stale, and not to be replaced */
	free(h->cached);	/* stale, or adopted */
	h->cached = NULL;
	if (rc < 0)
		stop(h);
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

	if (request(h, s->head_len, end, false, err) < 0)
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
			stop(h);
			return -1;
		}
		if (pump(h, want) < 0 || h->nomem) {
			stop(h);
			return gl_error_setk(err, GL_ERR_LIMIT, "%sno memory "
			    "for the header window", h->shown);
		}
		if (h->finished && s->head_len < want) {
			if (h->result == CURLE_OPERATION_TIMEDOUT)
				return fail(h, 0, h->result, 1, err);
			stop(h);	/* it ended early: ask again */
		}
	}
	return 0;
}

void
http_settle(struct source *s)
{
	struct source_http *h = s->http;

	if (h == NULL)
		return;
	stop(h);
	cache_store(h);
}

void
http_close(struct source *s)
{
	struct source_http *h = s->http;

	if (h == NULL)
		return;
	http_settle(s);
	free(h->rsp.location);
	if (h->multi != NULL)
		cu.multi_cleanup(h->multi);
	free(h->cached);
	free(h->url);
	free(h->shown);
	free(h->where);
	free(h->auth);
	free(h);
	s->http = NULL;
}

/*
 * The Authorization header line of o's token, for a URL at the Hub's
 * origin (o->hf_endpoint's, else huggingface.co's) only: a Hub token is
 * not sent to any other server, redirected to or named. Returns 0, or -1
 * with err for a token that cannot be sent.
 */
static int
make_auth(struct source_http *h, const struct source_opts *o,
    struct gl_error *err)
{
	const char *token = o->token, *hub = o->hf_endpoint, *p;

	if (hub == NULL || *hub == '\0')
		hub = URL_HF_ENDPOINT;
	h->hub = url_same_origin(h->url, hub);
	if (token == NULL || *token == '\0' || !h->hub)
		return 0;
	for (p = token; *p != '\0'; p++)
		if ((unsigned char)*p < ' ' || *p == 0x7f)
			return gl_error_setk(err, GL_ERR_USAGE, "HF_TOKEN "
			    "holds a control character: it cannot be sent");
	h->auth = xasprintf("Authorization: Bearer %s", token);
	return 0;
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
	if (o->cacert != NULL && *o->cacert != '\0') {
		h->cacert = o->cacert;
		h->cacert_from = o->cacert_from != NULL ? o->cacert_from :
		    "--cacert";
	}
	s->http = h;
	s->kind = SOURCE_HTTP;
	if (make_auth(h, o, err) < 0) {
		http_close(s);
		return -1;
	}
	if ((h->multi = cu.multi_init()) == NULL) {
		http_close(s);
		return gl_error_setk(err, GL_ERR_IO, "%s: libcurl: no multi "
		    "handle", url);
	}
	if (!h->no_cache)
		cache_load(h);
	return 0;
}

#endif
