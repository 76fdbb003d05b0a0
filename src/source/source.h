/*
 * source.h - where a model's bytes come from: a local file, standard input
 * (a file redirected there, or a pipe), or a buffer in memory. The reader
 * asks a source for the bytes it needs; nothing is mapped whole.
 *
 * The header is read into a window the source owns (pread, or read from a
 * pipe), grown as the reader asks: what a report prints is copied out of
 * the file, so a file that shrinks afterwards cannot take it away. The
 * tensor data (--deep) is seen through views, mappings of a few MiB each,
 * which may fault when the file shrinks: read them under guard_call().
 * A pipe gives the header only: what follows it is counted, not kept.
 * A remote file (http://, https://, hf://; http.c) gives its header by
 * range requests into the same window, and no views.
 */
#ifndef GGUFLINT_SOURCE_H
#define GGUFLINT_SOURCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/error.h"

enum source_kind {
	SOURCE_NONE = 0,		/* nothing open (a zeroed source) */
	SOURCE_FILE,			/* a regular file: pread and views */
	SOURCE_STREAM,			/* a pipe: read once, in order */
	SOURCE_MEM,			/* the caller's buffer */
	SOURCE_HTTP			/* a remote file: range requests */
};

struct source_http;

/*
 * How remote files are read (source_open_opts); zeroed, or NULL, is the
 * defaults. The strings are borrowed: they must outlive the sources.
 */
struct source_opts {
	double connect_timeout;		/* seconds to connect; 0: 10 */
	double timeout;			/* seconds for a file's whole
					 * header, retries included; 0:
					 * 120 */
	bool no_cache;			/* --no-cache: the cached header
					 * is not revalidated (nor read) */
	const char *token;		/* a bearer token (HF_TOKEN), sent
					 * to the Hub's origin (that of
					 * hf_endpoint) only, or NULL */
	const char *hf_endpoint;	/* what hf:// resolves at
					 * (HF_ENDPOINT), or NULL: the Hub */
	const char *cacert;		/* the CA certificates (a PEM file)
					 * servers are verified with, in
					 * place of libcurl's bundle, or
					 * NULL */
	const char *cacert_from;	/* what named it, for messages:
					 * "--cacert", "CURL_CA_BUNDLE",
					 * "FILE:LINE:COL: cacert" */
	unsigned max_per_host;		/* requests in flight to one host,
					 * over every remote file read at
					 * once; 0: 8 */
};

/* What the remote files read so far asked (source_stats). */
struct source_stats {
	unsigned long requests;		/* requests made */
	unsigned long retries;		/* of them, retries (429, 5xx, a
					 * dropped connection) */
	unsigned long rate_limited;	/* 429 answers, whose Retry-After
					 * every request to the host waited */
	unsigned long queued;		/* requests that waited for their
					 * host (--max-per-host, a 429) */
	unsigned long waited_ms;	/* how long they waited, in all */
};

struct source {
	enum source_kind kind;
	int fd;				/* FILE, STREAM: owned; else -1 */
	uint64_t size;			/* when size_known */
	bool size_known;		/* FILE, MEM: always; STREAM: at EOF */
	bool shrank;			/* FILE: a read came back short */
	const uint8_t *mem;		/* MEM: borrowed */
	uint8_t *head;			/* FILE, STREAM: the window, owned */
	uint64_t head_len;		/* bytes of the file held at head */
	size_t head_cap;
	struct source_http *http;	/* HTTP: the transfer, owned */
};

/*
 * source_open: open path ("-": standard input; a regular file there is
 * read like any file, anything else as a stream). Reads nothing yet.
 * Returns 0, or -1 with err (GL_ERR_IO) when it cannot be opened or a
 * named path is not a regular file; s then holds nothing. Release s
 * with source_close().
 */
int source_open(struct source *s, const char *path, struct gl_error *err);

/*
 * source_open_opts: source_open, with remote files read as o says (NULL:
 * the defaults). A path that names a URL (source_is_remote) is a remote
 * source; nothing is asked of the server yet. Fails (GL_ERR_USAGE) for a
 * malformed URL, or any URL when gguflint was built without libcurl.
 */
int source_open_opts(struct source *s, const char *path,
    const struct source_opts *o, struct gl_error *err);

/* source_is_remote: whether path names a remote file (http://, https://
 * or hf://, the scheme in any case). */
bool source_is_remote(const char *path);

/* source_open_mem: size bytes at data (borrowed: it must outlive s). */
void source_open_mem(struct source *s, const void *data, uint64_t size);

/*
 * source_head: make the window hold the file's first want bytes, or all
 * of it when it is shorter (a stream then learns its size). The window's
 * address may change: pointers into it do not survive a call that grows
 * it. A read that comes back short because the file shrank sets
 * s->shrank and keeps what was read. A remote file's first call learns
 * its size (and may fail as a request does: GL_ERR_IO, GL_ERR_NOT_FOUND
 * for a 404 or 410, GL_ERR_DENIED for a 401 or 403); its window holds
 * at most 1 GiB (GL_ERR_LIMIT past it). Returns 0, or -1 with err
 * (GL_ERR_IO: a read failed; GL_ERR_LIMIT: no memory for the window).
 */
int source_head(struct source *s, uint64_t want, struct gl_error *err);

/* source_bytes: the window (the buffer of a MEM source), or NULL when it
 * is empty; borrowed from s, valid until source_head() or source_close(). */
const uint8_t *source_bytes(const struct source *s);

/* source_avail: how many bytes source_bytes() holds. */
uint64_t source_avail(const struct source *s);

/*
 * source_peek: copy up to n bytes of the file at off into buf, for a
 * look at a few bytes past the header (what follows the tensor data).
 * The window and a buffer are copied, a file is read with pread; a
 * pipe's bytes are gone and a remote file's would cost a request, so
 * both give none. Returns the bytes copied (fewer near the end, or after
 * a short or failed read).
 */
size_t source_peek(const struct source *s, uint64_t off, void *buf,
    size_t n);

/*
 * source_drain: a stream whose size is not known yet is read to its end
 * and counted, its bytes past the window discarded; anything else is left
 * alone. Returns 0, or -1 with err (GL_ERR_IO).
 */
int source_drain(struct source *s, struct gl_error *err);

/*
 * source_ahead: how many bytes past what a record needs the reader should
 * ask for when it grows the window: much for a file (fewer reads), little
 * for a remote file, whose bytes come in one stream anyway.
 */
uint64_t source_ahead(const struct source *s);

/* source_grows: whether the window can be grown at will, in any order of
 * calls (a file, a remote file); a stream grows only once, at open. */
bool source_grows(const struct source *s);

/*
 * source_settle: the reader needs nothing more for now: a remote file's
 * transfer is ended (the bytes in flight are not waited for) and its
 * header kept in the cache. A later source_head() asks again. Nothing for
 * other sources.
 */
void source_settle(struct source *s);

/*
 * source_fit: the window cut to its first keep bytes (the header's end,
 * once parsed), its memory with it: what the first read took past a
 * small header (a remote file's first request asks 1 MiB). The window
 * may move. A later source_head() reads again. True when it was cut;
 * nothing for a buffer, or when keep is 0 or holds the window already.
 */
bool source_fit(struct source *s, uint64_t keep);

/* source_can_view: whether views can be had (a file or a buffer). */
bool source_can_view(const struct source *s);

/* A view: one window onto the data, per thread. Zero it before use. */
struct source_view {
	const uint8_t *base;		/* the bytes of the file at off */
	uint64_t off, len;
	void *map;			/* the mapping, or NULL */
	size_t map_len;
};

/*
 * source_view_get: the bytes [off, off + len) of s through v, mapping a
 * window (at least a few MiB, within the file) when v does not hold them
 * yet. Returns them, borrowed from v until its next call or release, or
 * NULL when the range is not inside the file, s has no views, or the
 * mapping fails. Reading them may raise SIGBUS if the file shrank: do it
 * under guard_call(). Threads may share s, each with its own v.
 */
const uint8_t *source_view_get(const struct source *s, struct source_view *v,
    uint64_t off, uint64_t len);

/* source_view_release: unmap what v holds; v is left empty. */
void source_view_release(struct source_view *v);

/*
 * source_shrank_now: whether a file is now shorter than when it was opened
 * (its size at open in s->size; *now, when not NULL, set to its size now).
 * False for anything but a file, and when it cannot be asked.
 */
bool source_shrank_now(const struct source *s, uint64_t *now);

/* source_close: close and free what s holds; s is left empty (NONE), and
 * closing it again is harmless. */
void source_close(struct source *s);

/*
 * source_cleanup: free what reading remote files set up for the process
 * (libcurl's global state), for a caller at its end (lint_cleanup); the
 * next remote file sets it up again. Call it when no source is open.
 */
void source_cleanup(void);

/* source_stats: what the remote files read so far by the process (every
 * thread's) asked; zeros when none was read. */
void source_stats(struct source_stats *st);

/*
 * source_test_stop: a hook for the tests: when $GGUFLINT_TEST_STOP names
 * point, the process stops itself (SIGSTOP) there, so that a test can
 * change the file at a known moment and let it go on (SIGCONT). The
 * reader's points: "open" (opened, nothing read), "header" (gguf_open
 * done: a file's first window read, a pipe's whole header), "parsed"
 * (the records made), "linted" (every check done, nothing reported yet:
 * gguf_recheck).
 */
void source_test_stop(const char *point);

#endif
