/*
 * http-request.c - one request of the remote source (http-impl.h): a
 * range of the file asked until an answer's headers are in, following
 * redirects (here, not in libcurl) and retrying 429, 5xx and dropped
 * connections a bounded number of times; the error of one that failed
 * (HTTP statuses, TLS, timeouts); and the token, sent to the Hub's
 * origin only.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <curl/curl.h>

#include "base/util.h"
#include "source/http-impl.h"
#include "source/url.h"

/* ---- requests, redirects, retries --------------------------------------- */

const char *
http_reason(long status)
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
	CURLU *u = http_cu.url();
	char *host = NULL;

	if (u != NULL && http_cu.url_set(u, CURLUPART_URL, h->where, 0) ==
	    CURLUE_OK && http_cu.url_get(u, CURLUPART_HOST, &host, 0) ==
	    CURLUE_OK)
		snprintf(buf, size, "%s", host);
	else
		snprintf(buf, size, "?");
	http_cu.free(host);
	http_cu.url_cleanup(u);
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
	const char *why = h->errbuf[0] ? h->errbuf : http_cu.easy_strerror(rc);
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
int
http_fail(struct source_http *h, long status, CURLcode rc, unsigned tries,
    struct gl_error *err)
{
	char n[32] = "";

	if (tries > 1)
		snprintf(n, sizeof n, " (%u tries)", tries);
	if ((status == 401 || status == 403) && h->hub)
		return gl_error_setk(err, GL_ERR_DENIED, "%sHTTP %ld %s: %s%s",
		    h->shown, status, http_reason(status), h->auth != NULL ?
		    "the token (HF_TOKEN) is not allowed to read it" : "it "
		    "needs a token (a gated or private repository: set "
		    "HF_TOKEN)", n);
	if (status != 0)
		return gl_error_setk(err, status == 404 || status == 410 ?
		    GL_ERR_NOT_FOUND : status == 401 || status == 403 ?
		    GL_ERR_DENIED : GL_ERR_IO, "%sHTTP %ld%s%s%s", h->shown,
		    status, *http_reason(status) ? " " : "",
		    http_reason(status), n);
	if (rc == CURLE_PEER_FAILED_VERIFICATION ||
	    rc == CURLE_SSL_CACERT_BADFILE)
		return fail_tls(h, rc, err);
	if (rc == CURLE_OPERATION_TIMEDOUT)
		return gl_error_setk(err, GL_ERR_IO, "%stimed out (%s)",
		    h->shown, h->errbuf[0] ? h->errbuf : "--timeout");
	return gl_error_setk(err, GL_ERR_IO, "%s%s%s", h->shown,
	    h->errbuf[0] ? h->errbuf : http_cu.easy_strerror(rc), n);
}

/* Follow the redirect of h->rsp: h->where becomes its target. */
static int
redirect(struct source_http *h, struct gl_error *err)
{
	CURLU *u = http_cu.url();
	char *to = NULL, *scheme = NULL;
	int rc = -1;

	if (u != NULL && http_cu.url_set(u, CURLUPART_URL, h->where, 0) ==
	    CURLUE_OK && http_cu.url_set(u, CURLUPART_URL, h->rsp.location,
	    0) == CURLUE_OK && http_cu.url_get(u, CURLUPART_URL, &to, 0) ==
	    CURLUE_OK && http_cu.url_get(u, CURLUPART_SCHEME, &scheme, 0) ==
	    CURLUE_OK &&
	    (strcmp(scheme, "http") == 0 || strcmp(scheme, "https") == 0)) {
		free(h->where);
		h->where = xstrdup(to);
		rc = 0;
	} else
		gl_error_setk(err, GL_ERR_IO, "%sHTTP %ld: a redirect to "
		    "'%.200s', which is not an http:// or https:// URL",
		    h->shown, h->rsp.status, h->rsp.location);
	http_cu.free(to);
	http_cu.free(scheme);
	http_cu.url_cleanup(u);
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
 * A 429: every request to its host waits out its Retry-After (heeded up
 * to HTTP_RETRY_AFTER_MAX seconds), else the backoff of try tries; false
 * when the deadline would pass first.
 */
static bool
rate_limited(struct source_http *h, unsigned tries)
{
	double s = h->rsp.retry_after >= 0 ? (h->rsp.retry_after <
	    HTTP_RETRY_AFTER_MAX ? h->rsp.retry_after :
	    HTTP_RETRY_AFTER_MAX) : (double)(HTTP_BACKOFF_MS << (tries - 1)) /
	    1e3;

	if (now_ms() + s * 1e3 >= h->deadline)
		return false;
	http_gate_pause(h, s);
	return true;
}

/*
 * Ask for [off, end) of the file, following redirects and retrying, until
 * an answer's headers are in: a 2xx, 304 or 416 (the transfer may go
 * on: http_pump() it), else an error. Each request waits its turn at the
 * gate of its host (http-gate.c). Returns 0, or -1 with err.
 */
int
http_request(struct source_http *h, uint64_t off, uint64_t end, bool cond,
    struct gl_error *err)
{
	unsigned hops = 0, tries = 0;
	long st;
	CURLcode rc;

	for (;;) {
		if (http_gate_enter(h) < 0)
			return gl_error_setk(err, GL_ERR_IO, "%stimed out "
			    "waiting for a request to %s (--max-per-host, a "
			    "429's Retry-After)", h->shown, h->where);
		if (http_start(h, off, end, cond) < 0 || http_pump(h, 0) < 0)
			return gl_error_setk(err, GL_ERR_IO, "%scannot make "
			    "a request (libcurl)", h->shown);
		st = h->rsp.done ? h->rsp.status : 0;
		if ((st >= 200 && st < 300) || st == 304 || st == 416)
			return 0;	/* the caller's to judge */
		rc = h->finished ? h->result : CURLE_OK;
		http_stop(h);
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
		    (st == 429 ? rate_limited(h, tries) : back_off(h, tries))) {
			http_gate_retried();
			continue;
		}
		return http_fail(h, st, rc, tries, err);
	}
}

/*
 * The Authorization header line of o's token, for a URL at the Hub's
 * origin (o->hf_endpoint's, else huggingface.co's) only: a Hub token is
 * not sent to any other server, redirected to or named. Returns 0, or -1
 * with err for a token that cannot be sent.
 */
int
http_make_auth(struct source_http *h, const struct source_opts *o,
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
