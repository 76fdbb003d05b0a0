/*
 * http-transfer.c - one transfer of the remote source (http-impl.h): a
 * range of the file asked of h->where, its response's headers read
 * (status, Content-Range, ETag, Retry-After, Location), its body written
 * into the window only as far as the reader asks (the transfer pauses
 * there), run until then or its end, and stopped.
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>

#include <curl/curl.h>

#include "base/util.h"
#include "source/http-impl.h"
#include "source/source-impl.h"
#include "source/url.h"

/* ---- one transfer ------------------------------------------------------- */

/* Milliseconds left before the deadline (at least 1). */
static long
left_ms(const struct source_http *h)
{
	double l = h->deadline - now_ms();

	return l < 1 ? 1 : l > 1e9 ? 1000000000L : (long)l;
}

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
	if ((t = http_cu.getdate(v, NULL)) < 0)
		return -1;
	return t > time(NULL) ? difftime(t, time(NULL)) : 0;
}

/* Link: "<URL>; rel=\"next\", <URL>; rel=\"prev\"": the next page's
 * URL (pagination, as the Hub's API gives it), if any. */
static void
read_link(struct response *r, const char *v)
{
	const char *lt, *gt, *end;

	while ((lt = strchr(v, '<')) != NULL &&
	    (gt = strchr(lt, '>')) != NULL) {
		end = gt + strcspn(gt, ",");
		if (strstr(gt, "rel=\"next\"") != NULL &&
		    strstr(gt, "rel=\"next\"") < end) {
			free(r->next);
			r->next = xasprintf("%.*s", (int)(gt - lt - 1),
			    lt + 1);
			return;
		}
		v = *end != '\0' ? end + 1 : end;
	}
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
		free(r->next);
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
	} else if (header_value(p, len, "Link", v, sizeof v)) {
		read_link(r, v);
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

void
http_stop(struct source_http *h)
{
	if (h->easy != NULL) {
		http_cu.multi_remove_handle(h->multi, h->easy);
		http_cu.easy_cleanup(h->easy);
		h->easy = NULL;
	}
	http_gate_leave(h);
	http_cu.slist_free_all(h->hdrs);
	h->hdrs = NULL;
}

/* The request's own headers: the token for the URL's origin only. */
static bool
add_headers(struct source_http *h, bool cond)
{
	char *line;
	bool ok = true;

	if (h->auth != NULL && url_same_origin(h->url, h->where))
		ok = (h->hdrs = http_cu.slist_append(h->hdrs, h->auth)) != NULL;
	if (ok && cond) {
		line = xasprintf("If-None-Match: %s", h->cached_etag);
		ok = (h->hdrs = http_cu.slist_append(h->hdrs, line)) != NULL;
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
int
http_start(struct source_http *h, uint64_t off, uint64_t end, bool cond)
{
	char range[64];
	CURL *e;

	free(h->rsp.location);
	free(h->rsp.next);
	memset(&h->rsp, 0, sizeof h->rsp);
	h->rsp.retry_after = -1;
	h->off = off;
	h->end = end;
	h->body = h->junk = 0;
	h->finished = h->cut = h->ignored = h->nomem = h->paused = false;
	h->errbuf[0] = '\0';
	if ((e = h->easy = http_cu.easy_init()) == NULL ||
	    !add_headers(h, cond))
		return -1;
	snprintf(range, sizeof range, "%" PRIu64 "-%" PRIu64, off, end - 1);
	http_cu.easy_setopt(e, CURLOPT_URL, h->where);
	http_cu.easy_setopt(e, CURLOPT_RANGE, range);
	http_cu.easy_setopt(e, CURLOPT_HTTPHEADER, h->hdrs);
	http_cu.easy_setopt(e, CURLOPT_FOLLOWLOCATION, 0L);
#if LIBCURL_VERSION_NUM >= 0x075500
	http_cu.easy_setopt(e, CURLOPT_PROTOCOLS_STR, "http,https");
#else
	http_cu.easy_setopt(e, CURLOPT_PROTOCOLS,
	    (long)(CURLPROTO_HTTP | CURLPROTO_HTTPS));
#endif
	http_cu.easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
	http_cu.easy_setopt(e, CURLOPT_CONNECTTIMEOUT_MS,
	    h->connect_ms < left_ms(h) ? h->connect_ms : left_ms(h));
	http_cu.easy_setopt(e, CURLOPT_TIMEOUT_MS, left_ms(h));
	http_cu.easy_setopt(e, CURLOPT_USERAGENT, PACKAGE_NAME "/"
	    PACKAGE_VERSION);
	http_cu.easy_setopt(e, CURLOPT_HEADERFUNCTION, header_cb);
	http_cu.easy_setopt(e, CURLOPT_HEADERDATA, h);
	http_cu.easy_setopt(e, CURLOPT_WRITEFUNCTION, write_cb);
	http_cu.easy_setopt(e, CURLOPT_WRITEDATA, h);
	http_cu.easy_setopt(e, CURLOPT_ERRORBUFFER, h->errbuf);
	if (h->cacert != NULL)
		http_cu.easy_setopt(e, CURLOPT_CAINFO, h->cacert);
	if (off > 0) {	/* read as the reader asks: a new connection */
		http_cu.easy_setopt(e, CURLOPT_SOCKOPTFUNCTION, sockopt_cb);
		http_cu.easy_setopt(e, CURLOPT_FRESH_CONNECT, 1L);
	}
	if (http_cu.multi_add_handle(h->multi, e) != CURLM_OK)
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
int
http_pump(struct source_http *h, uint64_t want)
{
	CURLMsg *m;
	int running, left;

	h->want = want;
	if (h->paused && !pumped(h, want)) {
		h->paused = false;
		if (http_cu.easy_pause(h->easy, CURLPAUSE_CONT) != CURLE_OK)
			return -1;
	}
	while (!h->finished && !pumped(h, want)) {
		if (http_cu.multi_perform(h->multi, &running) != CURLM_OK)
			return -1;
		while ((m = http_cu.multi_info_read(h->multi, &left)) != NULL)
			if (m->msg == CURLMSG_DONE) {
				h->finished = true;
				h->result = m->data.result;
			}
		if (h->finished || pumped(h, want))
			break;
		if (http_cu.multi_poll(h->multi, NULL, 0, 1000, NULL) !=
		    CURLM_OK)
			return -1;
	}
	return 0;
}
