/*
 * httpd.h - a loopback HTTP/1.1 server for the remote-file tests and the
 * benchmark: a forked child listening on 127.0.0.1 at an ephemeral port,
 * answering one connection at a time (each answer closes it), or each in
 * a thread of its own (threaded), serving files from memory with Range,
 * ETag and If-None-Match, after a delay when asked, or misbehaving as
 * asked (redirects, error statuses, Retry-After, a Range ignored, a
 * stall). It stops by itself after a number of requests or seconds
 * (alarm), or when told to; it then reports what it saw (requests, bytes,
 * headers, the most connections open at once) through a pipe. Given a
 * throwaway certificate (httpd_tls_new, when the tests are built with
 * OpenSSL), it speaks TLS on a connection that opens with a TLS record
 * and plain HTTP on any other, on the same port.
 */
#ifndef GGUFLINT_TESTS_HTTPD_H
#define GGUFLINT_TESTS_HTTPD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define HTTPD_FILES 16

/* A file served at "/" name: len bytes of data, then zeros up to size
 * (a sparse model's data); with query set, only to a request whose URL
 * has that query (a presigned URL's), 403 to any other. */
struct httpd_file {
	const char *name;
	const void *data;
	size_t len;
	uint64_t size;
	const char *query;		/* without the '?', or NULL: any */
	const char *headers;		/* more header lines ("Link: ...\r\n")
					 * sent with it, or NULL */
	unsigned delay_ms;		/* before each answer of it */
	bool prefix;			/* name is a prefix: it is served
					 * at every path that starts so */
	const char *suffix;		/* with prefix: the path must also
					 * end so (a shard's "-00002-of-
					 * 00003.gguf"), or NULL: any */
};

enum httpd_mode {
	HTTPD_SERVE = 0,	/* the files, Range and ETag honoured */
	HTTPD_NO_RANGE,		/* the files, always whole (200) */
	HTTPD_REDIRECT,		/* 302 to location + the path, for a
				 * path of none of its files */
	HTTPD_STATUS,		/* every answer status (no body) */
	HTTPD_STALL,		/* read the request, answer nothing */
	HTTPD_STALL_HELLO	/* read the first bytes (a TLS client's
				 * hello), answer nothing: a handshake
				 * that never ends */
};

struct httpd_tls;

struct httpd {
	/* set before httpd_start */
	enum httpd_mode mode;
	struct httpd_file files[HTTPD_FILES];
	const char *etag;		/* every file's ETag, or NULL */
	const char *etag_after;		/* the ETag after the first answer
					 * (the file changed), or NULL */
	int status;			/* HTTPD_STATUS's, and fail_first's */
	unsigned fail_first;		/* the first n answers: status */
	unsigned fail_every;		/* every n-th request read (after
					 * delay_ms): status, or 0: none */
	const char *redirect_prefix;	/* a path "/" + it + rest: 302 to
					 * "/" + rest, or NULL: none */
	const char *retry_after;	/* sent with status, or NULL */
	char location[256];		/* HTTPD_REDIRECT: a URL prefix or a
					 * path ("" + path: relative) */
	unsigned max_requests;		/* 0: 64 */
	unsigned seconds;		/* alarm; 0: 20 */
	size_t sndbuf;			/* the socket's send buffer, or 0 */
	bool threaded;			/* a thread a connection (at most
					 * 64 at once): connections served
					 * concurrently */
	unsigned delay_ms;		/* before every answer */
	struct httpd_tls *tls;		/* TLS with its certificate, or
					 * NULL: plain HTTP only */
	/* set by httpd_start */
	int port;			/* before it: the port to take
					 * again (0: any) */
	pid_t pid;
	int ctl;			/* closed to stop it */
	int rep;			/* its report */
};

/* What the server saw, over its whole life. */
struct httpd_stats {
	unsigned connections;		/* connections accepted */
	unsigned requests;		/* requests read */
	unsigned ranges;		/* with a Range header */
	unsigned auth;			/* with an Authorization header */
	unsigned inm;			/* with If-None-Match */
	unsigned not_modified;		/* 304 answers */
	unsigned tls;			/* requests read over TLS */
	unsigned plain_auth;		/* with Authorization, not over TLS */
	uint64_t bytes;			/* body bytes written */
	char auth_value[128];		/* the last Authorization's */
	char last_range[64];		/* the last Range's */
	unsigned queries;		/* requests with a query */
	char last_query[128];		/* the last one, without the '?' */
	unsigned max_open;		/* the most connections open at
					 * once (threaded) */
	unsigned max_busy;		/* the most requests answered at
					 * once: read, and their answer
					 * not begun (counted over the
					 * delay_ms of the server) */
	unsigned failed;		/* fail_first's and fail_every's
					 * answers sent */
	unsigned redirects;		/* redirect_prefix's 302s */
	unsigned early;			/* requests read while the last
					 * fail_first answer's Retry-After
					 * (whole seconds) ran, 150 ms of
					 * slack either side */
};

/* httpd_start: start h's server at h->port (0: a free one); h->port is
 * then its port. Returns 0, or -1 (errno) when it cannot listen or
 * fork. */
int httpd_start(struct httpd *h);

/* httpd_tls_available: whether httpd_tls_new can be had (the tests were
 * built with OpenSSL). */
bool httpd_tls_available(void);

/*
 * httpd_tls_new: a throwaway certificate authority, its certificate
 * written to the file ca_pem (PEM, for the client's --cacert), and a
 * server certificate for 127.0.0.1 (its subjectAltName) signed by it; the
 * keys stay in memory. For any number of servers (set their tls) until
 * httpd_tls_free. Returns NULL when OpenSSL is not built in or fails.
 */
struct httpd_tls *httpd_tls_new(const char *ca_pem);

/* httpd_tls_free: release t (NULL: nothing). */
void httpd_tls_free(struct httpd_tls *t);

/* httpd_stop: stop it (it finishes the connection it is in), wait for it
 * and read its report into st. Returns 0, or -1 when none came. */
int httpd_stop(struct httpd *h, struct httpd_stats *st);

#endif
