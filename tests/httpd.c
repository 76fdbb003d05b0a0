/*
 * httpd.c - the loopback HTTP/1.1 server of the remote-file tests and the
 * benchmark (see httpd.h). Just enough HTTP for a client that asks for
 * byte ranges: one request per connection, answered with
 * "Connection: close"; over TLS (OpenSSL) when the connection opens with
 * a TLS handshake record and the server has a certificate, which is made
 * here for the test (a throwaway CA and a certificate for 127.0.0.1).
 */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifdef HAVE_OPENSSL
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>
#endif

#include "httpd.h"

#define REQ_MAX 16384
#define CHUNK 16384

/* ---- the certificates (TLS) ------------------------------------------ */

#ifdef HAVE_OPENSSL

struct httpd_tls {
	SSL_CTX *ctx;			/* the server's certificate and key */
};

bool
httpd_tls_available(void)
{
	return true;
}

/* A new P-256 key, or NULL. */
static EVP_PKEY *
new_key(void)
{
	EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_id(EVP_PKEY_EC, NULL);
	EVP_PKEY *k = NULL;

	if (c == NULL || EVP_PKEY_keygen_init(c) <= 0 ||
	    EVP_PKEY_CTX_set_ec_paramgen_curve_nid(c,
	    NID_X9_62_prime256v1) <= 0 || EVP_PKEY_keygen(c, &k) <= 0) {
		EVP_PKEY_free(k);
		k = NULL;
	}
	EVP_PKEY_CTX_free(c);
	return k;
}

/* The extension nid = value (OpenSSL's configuration syntax) added to x,
 * issued by issuer. */
static bool
add_ext(X509 *x, X509 *issuer, int nid, const char *value)
{
	X509V3_CTX v;
	X509_EXTENSION *e;
	bool ok;

	X509V3_set_ctx(&v, issuer, x, NULL, NULL, 0);
	e = X509V3_EXT_conf_nid(NULL, &v, nid, value);
	ok = e != NULL && X509_add_ext(x, e, -1) == 1;
	X509_EXTENSION_free(e);
	return ok;
}

/*
 * A certificate of key named cn, valid from an hour ago for a day: the
 * CA's, self-signed, when issuer is NULL; else the server's at 127.0.0.1,
 * signed by issuer's key ikey. NULL when OpenSSL fails.
 */
static X509 *
new_cert(EVP_PKEY *key, const char *cn, X509 *issuer, EVP_PKEY *ikey)
{
	X509 *x = X509_new();
	X509_NAME *name = x != NULL ? X509_get_subject_name(x) : NULL;
	X509 *by = issuer != NULL ? issuer : x;
	bool ok;

	ok = name != NULL && X509_set_version(x, 2) == 1 &&
	    ASN1_INTEGER_set(X509_get_serialNumber(x), issuer ? 2 : 1) == 1 &&
	    X509_gmtime_adj(X509_getm_notBefore(x), -3600) != NULL &&
	    X509_gmtime_adj(X509_getm_notAfter(x), 86400) != NULL &&
	    X509_set_pubkey(x, key) == 1 &&
	    X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC,
	    (const unsigned char *)cn, -1, -1, 0) == 1 &&
	    X509_set_issuer_name(x, X509_get_subject_name(by)) == 1 &&
	    add_ext(x, by, NID_subject_key_identifier, "hash") &&
	    add_ext(x, by, NID_authority_key_identifier, "keyid:always");
	if (ok && issuer == NULL)
		ok = add_ext(x, by, NID_basic_constraints,
		    "critical,CA:TRUE") &&
		    add_ext(x, by, NID_key_usage, "critical,keyCertSign");
	else if (ok)
		ok = add_ext(x, by, NID_basic_constraints, "CA:FALSE") &&
		    add_ext(x, by, NID_key_usage,
		    "critical,digitalSignature") &&
		    add_ext(x, by, NID_ext_key_usage, "serverAuth") &&
		    add_ext(x, by, NID_subject_alt_name, "IP:127.0.0.1");
	if (!ok || X509_sign(x, issuer != NULL ? ikey : key,
	    EVP_sha256()) <= 0) {
		X509_free(x);
		return NULL;
	}
	return x;
}

/* The CA's certificate ca into the file path (PEM). */
static bool
write_pem(const char *path, X509 *ca)
{
	FILE *fp = fopen(path, "w");
	bool ok;

	if (fp == NULL)
		return false;
	ok = PEM_write_X509(fp, ca) == 1;
	return fclose(fp) == 0 && ok;
}

struct httpd_tls *
httpd_tls_new(const char *ca_pem)
{
	EVP_PKEY *cakey = new_key(), *key = new_key();
	X509 *ca = NULL, *crt = NULL;
	struct httpd_tls *t = calloc(1, sizeof *t);
	bool ok;

	ok = t != NULL && cakey != NULL && key != NULL &&
	    (ca = new_cert(cakey, "gguflint test CA", NULL, NULL)) != NULL &&
	    (crt = new_cert(key, "127.0.0.1", ca, cakey)) != NULL &&
	    write_pem(ca_pem, ca) &&
	    (t->ctx = SSL_CTX_new(TLS_server_method())) != NULL &&
	    SSL_CTX_use_certificate(t->ctx, crt) == 1 &&
	    SSL_CTX_use_PrivateKey(t->ctx, key) == 1 &&
	    SSL_CTX_check_private_key(t->ctx) == 1;
	X509_free(ca);
	X509_free(crt);
	EVP_PKEY_free(cakey);
	EVP_PKEY_free(key);
	if (!ok) {
		httpd_tls_free(t);
		return NULL;
	}
	return t;
}

void
httpd_tls_free(struct httpd_tls *t)
{
	if (t == NULL)
		return;
	SSL_CTX_free(t->ctx);
	free(t);
}

#else

bool
httpd_tls_available(void)
{
	return false;
}

struct httpd_tls *
httpd_tls_new(const char *ca_pem)
{
	(void)ca_pem;
	return NULL;
}

void
httpd_tls_free(struct httpd_tls *t)
{
	(void)t;
}

#endif

/* ---- the server ------------------------------------------------------- */

/* One connection: its socket, and its TLS session or NULL. */
struct conn {
	int fd;
	void *ssl;			/* SSL *, or NULL: plain */
};

/* One request, as read. */
struct req {
	char path[1024];
	char query[1024];		/* after the '?', or "" */
	bool has_range;
	uint64_t a, b;			/* b UINT64_MAX: "a-" */
	char inm[256];			/* If-None-Match, or "" */
	bool auth;
};

static volatile sig_atomic_t httpd_alarmed;

static void
on_alarm(int sig)
{
	(void)sig;
	httpd_alarmed = 1;
}

/* The value of header name in the request head (NUL-terminated), into
 * buf; false when absent. */
static bool
header(const char *head, const char *name, char *buf, size_t size)
{
	size_t n = strlen(name), k;
	const char *p = head;

	while ((p = strstr(p, "\r\n")) != NULL) {
		p += 2;
		if (strncasecmp(p, name, n) == 0 && p[n] == ':') {
			p += n + 1;
			while (*p == ' ')
				p++;
			k = strcspn(p, "\r\n");
			if (k >= size)
				k = size - 1;
			memcpy(buf, p, k);
			buf[k] = '\0';
			return true;
		}
	}
	return false;
}

/* Read and parse the request head of c; false when there is none. */
static ssize_t
conn_recv(struct conn *c, void *buf, size_t n)
{
#ifdef HAVE_OPENSSL
	if (c->ssl != NULL)
		return SSL_read(c->ssl, buf, n > INT32_MAX ? INT32_MAX :
		    (int)n);
#endif
	return recv(c->fd, buf, n, 0);
}

static ssize_t
conn_send(struct conn *c, const void *p, size_t n)
{
#ifdef HAVE_OPENSSL
	if (c->ssl != NULL)
		return SSL_write(c->ssl, p, n > INT32_MAX ? INT32_MAX :
		    (int)n);
#endif
	return send(c->fd, p, n, MSG_NOSIGNAL);
}

static bool
read_req(struct conn *c, struct req *r, struct httpd_stats *st)
{
	char head[REQ_MAX + 1], v[256];
	size_t n = 0;
	ssize_t got;
	unsigned long long a, b;

	memset(r, 0, sizeof *r);
	while (n < REQ_MAX) {
		got = conn_recv(c, head + n, REQ_MAX - n);
		if (got <= 0)
			return false;
		n += (size_t)got;
		head[n] = '\0';
		if (strstr(head, "\r\n\r\n") != NULL)
			break;
	}
	if (sscanf(head, "GET %1023s HTTP/1.1", r->path) != 1)
		return false;
	if (strchr(r->path, '?') != NULL) {
		snprintf(r->query, sizeof r->query, "%s",
		    strchr(r->path, '?') + 1);
		snprintf(st->last_query, sizeof st->last_query, "%.127s",
		    r->query);
		st->queries++;
	}
	r->path[strcspn(r->path, "?")] = '\0';
	st->requests++;
	if (c->ssl != NULL)
		st->tls++;
	if (header(head, "Range", v, sizeof v)) {
		st->ranges++;
		header(head, "Range", st->last_range, sizeof st->last_range);
		r->b = UINT64_MAX;
		if (sscanf(v, "bytes=%llu-%llu", &a, &b) == 2) {
			r->has_range = true;
			r->a = a;
			r->b = b;
		} else if (sscanf(v, "bytes=%llu-", &a) == 1) {
			r->has_range = true;
			r->a = a;
		}
	}
	if (header(head, "If-None-Match", r->inm, sizeof r->inm))
		st->inm++;
	if (header(head, "Authorization", st->auth_value,
	    sizeof st->auth_value)) {
		r->auth = true;
		st->auth++;
		if (c->ssl == NULL)
			st->plain_auth++;
	}
	return true;
}

static bool
send_all(struct conn *c, const void *p, size_t n)
{
	const char *q = p;
	ssize_t put;

	while (n > 0) {
		put = conn_send(c, q, n);
		if (put < 0 && errno == EINTR)
			continue;
		if (put <= 0)
			return false;
		q += put;
		n -= (size_t)put;
	}
	return true;
}

static const char *
reason(int status)
{
	switch (status) {
	case 200: return "OK";
	case 206: return "Partial Content";
	case 302: return "Found";
	case 304: return "Not Modified";
	case 401: return "Unauthorized";
	case 403: return "Forbidden";
	case 404: return "Not Found";
	case 416: return "Range Not Satisfiable";
	case 429: return "Too Many Requests";
	case 500: return "Internal Server Error";
	case 503: return "Service Unavailable";
	default: return "Status";
	}
}

/* The head of an answer: status, extra (lines ending "\r\n"), length. */
static bool
send_head(struct conn *c, int status, const char *extra, uint64_t length)
{
	char head[2048];
	int n;

	n = snprintf(head, sizeof head, "HTTP/1.1 %d %s\r\nConnection: close"
	    "\r\nContent-Length: %" PRIu64 "\r\n%s\r\n", status,
	    reason(status), length, extra);
	return n > 0 && (size_t)n < sizeof head && send_all(c, head, (size_t)n);
}

/* Bytes [a, b] of f (b inclusive): its data, then zeros. */
static void
send_body(struct conn *c, const struct httpd_file *f, uint64_t a, uint64_t b,
    struct httpd_stats *st)
{
	static const char zeros[CHUNK];
	uint64_t at = a;
	size_t n;
	const void *p;

	while (at <= b) {
		n = b - at + 1 < CHUNK ? (size_t)(b - at + 1) : CHUNK;
		if (at < f->len) {
			if (n > f->len - at)
				n = (size_t)(f->len - at);
			p = (const char *)f->data + at;
		} else
			p = zeros;
		if (!send_all(c, p, n))
			return;	/* the client went away */
		st->bytes += n;
		at += n;
	}
}

/* Whether s ends with suffix (NULL: any s does). */
static bool
ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = suffix != NULL ? strlen(suffix) : 0;

	return k <= n && (k == 0 || strcmp(s + n - k, suffix) == 0);
}

/* The file at path: the one whose query is query's when there is one
 * (pages of one path), else the first at path; NULL: none. */
static const struct httpd_file *
find_file_q(const struct httpd *h, const char *path, const char *query)
{
	const struct httpd_file *first = NULL;
	size_t i;

	for (i = 0; i < HTTPD_FILES && h->files[i].name != NULL; i++)
		if (path[0] == '/' && (h->files[i].prefix ? strncmp(path + 1,
		    h->files[i].name, strlen(h->files[i].name)) == 0 &&
		    ends_with(path, h->files[i].suffix) :
		    strcmp(path + 1, h->files[i].name) == 0)) {
			if (query != NULL && h->files[i].query != NULL &&
			    strcmp(h->files[i].query, query) == 0)
				return &h->files[i];
			if (first == NULL)
				first = &h->files[i];
		}
	return first;
}

static const struct httpd_file *
find_file(const struct httpd *h, const char *path)
{
	return find_file_q(h, path, NULL);
}

/* The monotonic clock in ms. */
static double
mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static void
sleep_ms(unsigned ms)
{
	struct timespec ts = { (time_t)(ms / 1000),
		(long)(ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/* An answer of status alone (and Retry-After when set). */
static void
send_status(struct conn *c, const struct httpd *h, int status)
{
	char extra[128] = "";

	if (h->retry_after != NULL)
		snprintf(extra, sizeof extra, "Retry-After: %s\r\n",
		    h->retry_after);
	send_head(c, status, extra, 0);
}

/* A file, as HTTPD_SERVE or HTTPD_NO_RANGE answers it. */
static void
serve_file(struct conn *c, struct httpd *h, const struct req *r,
    struct httpd_stats *st)
{
	const struct httpd_file *f = find_file_q(h, r->path, r->query);
	char extra[1024], etag[600] = "";
	uint64_t b;

	if (f == NULL) {
		send_head(c, 404, "", 0);
		return;
	}
	if (f->query != NULL && strcmp(f->query, r->query) != 0) {
		send_head(c, 403, "", 0);
		return;
	}
	if (h->etag != NULL)
		snprintf(etag, sizeof etag, "ETag: %s\r\n", h->etag);
	if (f->headers != NULL)
		snprintf(etag + strlen(etag), sizeof etag - strlen(etag), "%s",
		    f->headers);
	if (f->delay_ms > 0)
		sleep_ms(f->delay_ms);
	if (h->etag != NULL && strcmp(r->inm, h->etag) == 0) {
		st->not_modified++;
		send_head(c, 304, etag, 0);
		return;
	}
	if (!r->has_range || h->mode == HTTPD_NO_RANGE || f->size == 0) {
		if (send_head(c, 200, etag, f->size) && f->size > 0)
			send_body(c, f, 0, f->size - 1, st);
		return;
	}
	if (r->a >= f->size) {
		snprintf(extra, sizeof extra, "Content-Range: bytes */%" PRIu64
		    "\r\n", f->size);
		send_head(c, 416, extra, 0);
		return;
	}
	b = r->b < f->size ? r->b : f->size - 1;
	snprintf(extra, sizeof extra, "%sContent-Range: bytes %" PRIu64 "-%"
	    PRIu64 "/%" PRIu64 "\r\n", etag, r->a, b, f->size);
	if (send_head(c, 206, extra, b - r->a + 1))
		send_body(c, f, r->a, b, st);
}

/* Wait until stopped (or the alarm). */
static void
wait_ctl(int ctl)
{
	struct pollfd p;

	p.fd = ctl;
	p.events = POLLIN;
	poll(&p, 1, 30000);
}

/* c's TLS handshake when its first byte opens a TLS handshake record
 * and h has a certificate; false when one fails. */
static bool
handshake(struct conn *c, const struct httpd *h)
{
#ifdef HAVE_OPENSSL
	unsigned char b;

	if (h->tls == NULL || recv(c->fd, &b, 1, MSG_PEEK) != 1 || b != 0x16)
		return true;
	if ((c->ssl = SSL_new(h->tls->ctx)) == NULL ||
	    SSL_set_fd(c->ssl, c->fd) != 1 || SSL_accept(c->ssl) != 1)
		return false;
#else
	(void)c;
	(void)h;
#endif
	return true;
}

/* What the threads of a threaded server share: h's changes (fail_first,
 * etag) and the time of the last fail_first answer. */
static pthread_mutex_t httpd_mu = PTHREAD_MUTEX_INITIALIZER;
static double httpd_failed_at;	/* ms, 0: none yet */
static unsigned httpd_busy, httpd_max_busy; /* requests in their delay */

/* Whether a fail_first answer is due (one fewer then); counts the
 * requests read while the last one's Retry-After runs. */
static bool
fail_due(struct httpd *h, struct httpd_stats *st)
{
	double now = mono_ms(), ra = h->retry_after != NULL ?
	    atof(h->retry_after) * 1e3 : 0;
	bool due;

	pthread_mutex_lock(&httpd_mu);
	if (httpd_failed_at > 0 && now > httpd_failed_at + 150 &&
	    now < httpd_failed_at + ra - 150)
		st->early++;
	due = h->fail_first > 0;
	if (due) {
		h->fail_first--;
		st->failed++;
		httpd_failed_at = now;
	}
	pthread_mutex_unlock(&httpd_mu);
	return due;
}

/* Whether this request is fail_every's n-th (counted over all the
 * threads). */
static bool
every_due(const struct httpd *h, struct httpd_stats *st)
{
	static unsigned seen;
	bool due;

	if (h->fail_every == 0)
		return false;
	pthread_mutex_lock(&httpd_mu);
	due = ++seen % h->fail_every == 0;
	pthread_mutex_unlock(&httpd_mu);
	if (due)
		st->failed++;
	return due;
}

/* Answer redirect_prefix's 302 when r's path is under it. */
static bool
redirected(struct conn *c, const struct httpd *h, const struct req *r,
    struct httpd_stats *st)
{
	size_t n = h->redirect_prefix != NULL ? strlen(h->redirect_prefix) : 0;
	char extra[600];

	if (n == 0 || strncmp(r->path + 1, h->redirect_prefix, n) != 0)
		return false;
	snprintf(extra, sizeof extra, "Location: /%.500s\r\n",
	    r->path + 1 + n);
	send_head(c, 302, extra, 0);
	st->redirects++;
	return true;
}

static void
serve(struct conn *c, struct httpd *h, int ctl, struct httpd_stats *st)
{
	struct timeval tv = { 5, 0 };
	char extra[600];
	struct req r;
	int sb = (int)h->sndbuf;

	setsockopt(c->fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
	if (sb > 0)
		setsockopt(c->fd, SOL_SOCKET, SO_SNDBUF, &sb, sizeof sb);
	if (h->mode == HTTPD_STALL_HELLO) {
		if (recv(c->fd, extra, sizeof extra, 0) > 0)
			st->requests++;
		wait_ctl(ctl);
		return;
	}
	if (!handshake(c, h) || !read_req(c, &r, st))
		return;
	if (fail_due(h, st)) {
		send_status(c, h, h->status);
		return;
	}
	if (h->delay_ms > 0) {	/* the client waits for its answer */
		pthread_mutex_lock(&httpd_mu);
		if (++httpd_busy > httpd_max_busy)
			httpd_max_busy = httpd_busy;
		pthread_mutex_unlock(&httpd_mu);
		sleep_ms(h->delay_ms);
		pthread_mutex_lock(&httpd_mu);
		httpd_busy--;
		pthread_mutex_unlock(&httpd_mu);
	}
	if (every_due(h, st)) {
		send_status(c, h, h->status);
		return;
	}
	if (redirected(c, h, &r, st))
		return;
	switch (h->mode) {
	case HTTPD_REDIRECT:
		if (find_file(h, r.path) != NULL) {
			serve_file(c, h, &r, st);
			break;
		}
		snprintf(extra, sizeof extra, "Location: %.255s%.300s\r\n",
		    h->location, r.path);
		send_head(c, 302, extra, 0);
		break;
	case HTTPD_STATUS:
		send_status(c, h, h->status);
		break;
	case HTTPD_STALL:
		wait_ctl(ctl);
		break;
	default:
		serve_file(c, h, &r, st);
	}
	pthread_mutex_lock(&httpd_mu);
	if (h->etag_after != NULL)
		h->etag = h->etag_after;
	pthread_mutex_unlock(&httpd_mu);
}

static void
conn_close(struct conn *c)
{
#ifdef HAVE_OPENSSL
	if (c->ssl != NULL) {
		SSL_shutdown(c->ssl);
		SSL_free(c->ssl);
	}
#endif
	shutdown(c->fd, SHUT_WR);
	close(c->fd);
}

/* A threaded server's connection: served in a thread of its own, its
 * counts added to the server's when it is done. */
struct conn_job {
	struct conn c;
	struct httpd *h;
	int ctl;
	struct httpd_stats *st;		/* the server's (httpd_mu) */
	unsigned *open;			/* connections open (httpd_mu) */
};

/* Add a connection's counts b into a. */
static void
stats_add(struct httpd_stats *a, const struct httpd_stats *b)
{
	a->requests += b->requests;
	a->ranges += b->ranges;
	a->auth += b->auth;
	a->inm += b->inm;
	a->not_modified += b->not_modified;
	a->tls += b->tls;
	a->plain_auth += b->plain_auth;
	a->bytes += b->bytes;
	a->queries += b->queries;
	a->failed += b->failed;
	a->redirects += b->redirects;
	a->early += b->early;
	if (b->auth_value[0] != '\0')
		memcpy(a->auth_value, b->auth_value, sizeof a->auth_value);
	if (b->last_range[0] != '\0')
		memcpy(a->last_range, b->last_range, sizeof a->last_range);
	if (b->last_query[0] != '\0')
		memcpy(a->last_query, b->last_query, sizeof a->last_query);
}

static void *
conn_thread(void *arg)
{
	struct conn_job *j = arg;
	struct httpd_stats mine;

	memset(&mine, 0, sizeof mine);
	serve(&j->c, j->h, j->ctl, &mine);
	conn_close(&j->c);
	pthread_mutex_lock(&httpd_mu);
	stats_add(j->st, &mine);
	(*j->open)--;
	pthread_mutex_unlock(&httpd_mu);
	free(j);
	return NULL;
}

/* Serve c in a thread of its own (at most 64 at once: else here). */
static void
serve_threaded(struct conn c, struct httpd *h, int ctl,
    struct httpd_stats *st, unsigned *open)
{
	struct conn_job *j = malloc(sizeof *j);
	pthread_attr_t at;
	pthread_t t;
	bool started = false;

	pthread_mutex_lock(&httpd_mu);
	(*open)++;
	if (*open > st->max_open)
		st->max_open = *open;
	pthread_mutex_unlock(&httpd_mu);
	if (j != NULL) {
		*j = (struct conn_job){ c, h, ctl, st, open };
		pthread_attr_init(&at);
		pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
		started = *open <= 64 &&
		    pthread_create(&t, &at, conn_thread, j) == 0;
		pthread_attr_destroy(&at);
	}
	if (!started && j != NULL)
		conn_thread(j);
	else if (j == NULL)
		conn_close(&c);
}

static void
child(struct httpd *h, int lfd, int ctl, int rep)
{
	struct httpd_stats st;
	struct sigaction sa;
	struct pollfd p[2];
	unsigned n = 0, max = h->max_requests ? h->max_requests : 64;
	unsigned open = 0, left;
	struct conn c;

	memset(&st, 0, sizeof st);
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_alarm;
	sigaction(SIGALRM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	alarm(h->seconds ? h->seconds : 20);
	while (n < max && !httpd_alarmed) {
		p[0].fd = lfd;
		p[0].events = POLLIN;
		p[1].fd = ctl;
		p[1].events = POLLIN;
		if (poll(p, 2, -1) < 0)
			continue;	/* EINTR: the alarm, looked at above */
		if (p[1].revents != 0)
			break;		/* stopped */
		if (!(p[0].revents & POLLIN) || (c.fd = accept(lfd, NULL,
		    NULL)) < 0)
			continue;
		c.ssl = NULL;
		n++;
		if (h->threaded) {
			pthread_mutex_lock(&httpd_mu);
			st.connections++;
			pthread_mutex_unlock(&httpd_mu);
			serve_threaded(c, h, ctl, &st, &open);
			continue;
		}
		st.connections++;
		st.max_open = 1;
		serve(&c, h, ctl, &st);
		conn_close(&c);
	}
	for (;;) {	/* the threads' connections end */
		pthread_mutex_lock(&httpd_mu);
		left = open;
		pthread_mutex_unlock(&httpd_mu);
		if (left == 0 || httpd_alarmed)
			break;
		sleep_ms(10);
	}
	pthread_mutex_lock(&httpd_mu);
	st.max_busy = httpd_max_busy;
	if (write(rep, &st, sizeof st) != (ssize_t)sizeof st)
		_exit(1);
	_exit(0);
}

int
httpd_start(struct httpd *h)
{
	struct sockaddr_in sa;
	socklen_t len = sizeof sa;
	int lfd, ctl[2], rep[2], one = 1, tries, bound;

	lfd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (lfd < 0)
		return -1;
	setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
	memset(&sa, 0, sizeof sa);
	sa.sin_family = AF_INET;
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	sa.sin_port = htons((uint16_t)h->port);	/* 0: any */
	/* the port of a server started again may be a client's a moment */
	for (tries = 0; (bound = bind(lfd, (struct sockaddr *)&sa,
	    sizeof sa)) < 0 && errno == EADDRINUSE && h->port != 0 &&
	    tries < 50; tries++)
		usleep(20000);
	if (bound < 0 || listen(lfd, 128) < 0 ||
	    getsockname(lfd, (struct sockaddr *)&sa, &len) < 0 ||
	    pipe2(ctl, O_CLOEXEC) < 0) {
		close(lfd);
		return -1;
	}
	if (pipe2(rep, O_CLOEXEC) < 0 || (h->pid = fork()) < 0) {
		close(lfd);
		return -1;
	}
	if (h->pid == 0) {
		close(ctl[1]);
		close(rep[0]);
		child(h, lfd, ctl[0], rep[1]);
	}
	close(lfd);
	close(ctl[0]);
	close(rep[1]);
	h->ctl = ctl[1];
	h->rep = rep[0];
	h->port = ntohs(sa.sin_port);
	return 0;
}

int
httpd_stop(struct httpd *h, struct httpd_stats *st)
{
	ssize_t got;
	size_t n = 0;
	int status;

	memset(st, 0, sizeof *st);
	close(h->ctl);
	while (n < sizeof *st) {
		got = read(h->rep, (char *)st + n, sizeof *st - n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			break;
		n += (size_t)got;
	}
	close(h->rep);
	while (waitpid(h->pid, &status, 0) < 0 && errno == EINTR)
		;
	return n == sizeof *st ? 0 : -1;
}
