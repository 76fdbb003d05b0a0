/*
 * source-impl.h - what the byte sources share inside src/source/: the
 * window's growth (source.c) and the remote source (http.c), which
 * source.c calls for a source of kind SOURCE_HTTP.
 */
#ifndef GGUFLINT_SOURCE_IMPL_H
#define GGUFLINT_SOURCE_IMPL_H

#include "source/source.h"

/* The most of a remote file kept for its header (as of a pipe). */
#define SOURCE_REMOTE_MAX ((1ull << 30) + (1u << 20))

/*
 * source_reserve: room in s's window for want bytes (its capacity at
 * least doubles; never past a known size). Returns 0, or -1 with err
 * (GL_ERR_LIMIT) when there is no memory for it.
 */
int source_reserve(struct source *s, uint64_t want, struct gl_error *err);

/*
 * http_open: s (reset) becomes the remote file at url (name resolved:
 * http:// or https://), read as o says (NULL: the defaults); its cached
 * header, if any, is loaded, nothing is asked of the server. The errors
 * of its reads do not repeat name (their callers say it first), but say
 * url when it is another. Returns 0, or -1 with err (GL_ERR_USAGE: built
 * without libcurl, or a token that cannot be sent); s then holds nothing.
 */
int http_open(struct source *s, const char *name, const char *url,
    const struct source_opts *o, struct gl_error *err);

/* http_head: source_head for a remote file (see source.h). */
int http_head(struct source *s, uint64_t want, struct gl_error *err);

/* http_settle: source_settle for a remote file. */
void http_settle(struct source *s);

/* http_close: end the transfer, keep the header in the cache (once) and
 * free s->http; the window stays (source_close frees it). */
void http_close(struct source *s);

/* http_cleanup: source_cleanup's part: libcurl's global state freed. */
void http_cleanup(void);

/*
 * http_get: the body of url, at most max bytes (a listing of the Hub's
 * API, not a model: never cached), into *body (owned, NUL-terminated;
 * *len bytes before the NUL) and its Link header's rel="next" URL into
 * *next (owned, or NULL). Errors as a remote file's first read (HTTP
 * statuses, the token's refusal), or GL_ERR_LIMIT for a body over max.
 * Returns 0, or -1 with err.
 */
int http_get(const char *url, const struct source_opts *o, uint64_t max,
    char **body, size_t *len, char **next, struct gl_error *err);

/* http_stats: source_stats's counts (nothing without libcurl). */
void http_stats(struct source_stats *st);

#endif
