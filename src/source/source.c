/*
 * source.c - byte sources (see source.h): a file read with pread into an
 * owned window and seen through mappings of a few MiB, a stream read in
 * order and counted past its header, a buffer; a remote file is http.c's.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "source/source-impl.h"
#include "source/source.h"
#include "source/url.h"

/* A view maps at least this much, so that neighbouring reads share it. */
#define VIEW_MIN (8u << 20)
/* What the reader reads past a record's need (source_ahead): locally as
 * little as remotely, so that the lint pages in at most its header and
 * 64 KiB of the file (with POSIX_FADV_RANDOM, no read-ahead beyond). */
#define AHEAD_LOCAL (64u << 10)
#define AHEAD_REMOTE (64u << 10)
/* What a stream is read and discarded by, past its window. */
#define DRAIN_CHUNK (1u << 20)

static void
source_reset(struct source *s)
{
	memset(s, 0, sizeof *s);
	s->fd = -1;
}

/* Standard input as a source: a regular file is a file, else a stream. */
static int
open_stdin(struct source *s, struct gl_error *err)
{
	struct stat st;

	if (fstat(STDIN_FILENO, &st) < 0)
		return gl_error_setk(err, GL_ERR_IO, "standard input: %s",
		    strerror(errno));
	s->fd = fcntl(STDIN_FILENO, F_DUPFD_CLOEXEC, 0);
	if (s->fd < 0)
		return gl_error_setk(err, GL_ERR_IO, "standard input: %s",
		    strerror(errno));
	s->kind = S_ISREG(st.st_mode) ? SOURCE_FILE : SOURCE_STREAM;
	s->size = S_ISREG(st.st_mode) ? (uint64_t)st.st_size : 0;
	s->size_known = S_ISREG(st.st_mode);
	return 0;
}

bool
source_is_remote(const char *path)
{
	return url_is_remote(path);
}

int
source_open(struct source *s, const char *path, struct gl_error *err)
{
	return source_open_opts(s, path, NULL, err);
}

/* A remote file: its URL resolved (hf://), then http.c's. */
static int
open_remote(struct source *s, const char *path, const struct source_opts *o,
    struct gl_error *err)
{
	char *url = url_resolve(path, o != NULL ? o->hf_endpoint : NULL, err);
	int rc;

	if (url == NULL)
		return -1;
	rc = http_open(s, path, url, o, err);
	free(url);
	if (rc < 0)
		source_reset(s);
	return rc;
}

/* A local path that does not open: why, and for what reads as a URL of
 * another scheme, which ones gguflint reads. */
static int
open_failed(const char *path, struct gl_error *err)
{
	size_t n = url_other_scheme(path);

	if (errno == ENOENT && n > 0)
		return gl_error_setk(err, GL_ERR_USAGE, "%s: no such file, and "
		    "%.*s:// is not a scheme gguflint reads (http://, "
		    "https://, hf://)", path, (int)n, path);
	return gl_error_setk(err, GL_ERR_IO, "%s: %s", path, strerror(errno));
}

int
source_open_opts(struct source *s, const char *path,
    const struct source_opts *o, struct gl_error *err)
{
	struct stat st;

	source_reset(s);
	if (url_is_remote(path))
		return open_remote(s, path, o, err);
	if (strcmp(path, "-") == 0) {
		if (open_stdin(s, err) == 0)
			return 0;
		source_close(s);
		return -1;
	}
	if ((s->fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return open_failed(path, err);
	s->kind = SOURCE_FILE;	/* so that source_close closes it */
	if (fstat(s->fd, &st) < 0) {
		gl_error_setk(err, GL_ERR_IO, "%s: %s", path, strerror(errno));
		source_close(s);
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		gl_error_setk(err, GL_ERR_IO, "%s: not a regular file", path);
		source_close(s);
		return -1;
	}
	s->size = (uint64_t)st.st_size;
	s->size_known = true;
	/* The header is read exactly, in the sizes the reader asks for: no
	 * read-ahead into the tensor data (megabytes of a model on a slow
	 * disk, read for nothing). view_map turns it back on for --deep. */
	(void)posix_fadvise(s->fd, 0, 0, POSIX_FADV_RANDOM);
	return 0;
}

void
source_open_mem(struct source *s, const void *data, uint64_t size)
{
	source_reset(s);
	s->kind = SOURCE_MEM;
	s->mem = size > 0 ? data : NULL;
	s->size = size;
	s->size_known = true;
}

int
source_reserve(struct source *s, uint64_t want, struct gl_error *err)
{
	uint8_t *p;

	uint64_t cap = (uint64_t)s->head_cap * 2;

	if (want <= s->head_cap)
		return 0;
	if (cap < want)
		cap = want;
	if (s->size_known && cap > s->size)
		cap = s->size;	/* want <= size */
	if ((uint64_t)(size_t)cap != cap ||
	    (p = realloc(s->head, (size_t)cap)) == NULL)
		return gl_error_setk(err, GL_ERR_LIMIT, "no memory for a "
		    "header window of %llu bytes", (unsigned long long)cap);
	s->head = p;
	s->head_cap = (size_t)cap;
	return 0;
}

/* One read or pread into the window at head_len; its result. */
static ssize_t
head_read_once(struct source *s, uint64_t want)
{
	size_t n = (size_t)(want - s->head_len);
	ssize_t got;

	do {
		if (s->kind == SOURCE_FILE)
			got = pread(s->fd, s->head + s->head_len, n,
			    (off_t)s->head_len);
		else
			got = read(s->fd, s->head + s->head_len, n);
	} while (got < 0 && errno == EINTR);
	return got;
}

int
source_head(struct source *s, uint64_t want, struct gl_error *err)
{
	ssize_t got;

	if (s->kind == SOURCE_HTTP)
		return http_head(s, want, err);
	if (s->kind != SOURCE_FILE && s->kind != SOURCE_STREAM)
		return 0;
	if (s->size_known && want > s->size)
		want = s->size;
	if (want <= s->head_len || s->shrank)
		return 0;
	if (source_reserve(s, want, err) < 0)
		return -1;
	while (s->head_len < want) {
		got = head_read_once(s, want);
		if (got < 0)
			return gl_error_setk(err, GL_ERR_IO, "cannot read: %s",
			    strerror(errno));
		if (got == 0)
			break;
		s->head_len += (uint64_t)got;
	}
	if (s->head_len == want)
		return 0;
	if (s->kind == SOURCE_FILE) {
		s->shrank = true;	/* it ended before its size */
	} else {
		s->size = s->head_len;	/* the stream ended */
		s->size_known = true;
	}
	return 0;
}

const uint8_t *
source_bytes(const struct source *s)
{
	if (s->kind == SOURCE_MEM)
		return s->mem;
	return s->head_len > 0 ? s->head : NULL;
}

uint64_t
source_avail(const struct source *s)
{
	return s->kind == SOURCE_MEM ? s->size : s->head_len;
}

size_t
source_peek(const struct source *s, uint64_t off, void *buf, size_t n)
{
	const uint8_t *win = source_bytes(s);
	uint64_t avail = source_avail(s);
	size_t done = 0;
	ssize_t got;

	if (win != NULL && off < avail) {
		done = avail - off < n ? (size_t)(avail - off) : n;
		memcpy(buf, win + off, done);
	}
	while (done < n && s->kind == SOURCE_FILE && off + done < INT64_MAX) {
		got = pread(s->fd, (uint8_t *)buf + done, n - done,
		    (off_t)(off + done));
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			break;
		done += (size_t)got;
	}
	return done;
}

/*
 * Move up to DRAIN_CHUNK bytes from the stream to /dev/null with Linux's
 * splice, which copies nothing; -1 where there is none (macOS, the BSDs:
 * the caller then reads).
 */
static ssize_t
drain_splice(int fd, int null)
{
#ifdef HAVE_SPLICE
	ssize_t got;

	do
		got = splice(fd, NULL, null, NULL, DRAIN_CHUNK, SPLICE_F_MOVE);
	while (got < 0 && errno == EINTR);
	return got;
#else
	(void)fd;
	(void)null;
	errno = ENOSYS;
	return -1;
#endif
}

/* Read and discard; the number of bytes, or -1 (errno). */
static ssize_t
drain_read(int fd, void *buf)
{
	ssize_t got;

	do
		got = read(fd, buf, DRAIN_CHUNK);
	while (got < 0 && errno == EINTR);
	return got;
}

int
source_drain(struct source *s, struct gl_error *err)
{
	uint64_t total = s->head_len;
	int null;
	void *buf = NULL;
	ssize_t got;

	if (s->kind != SOURCE_STREAM || s->size_known)
		return 0;
	null = open("/dev/null", O_WRONLY | O_CLOEXEC);
#ifdef F_SETPIPE_SZ
	/* a larger pipe, fewer calls (refused above the system's limit) */
	(void)fcntl(s->fd, F_SETPIPE_SZ, (int)DRAIN_CHUNK);
#endif
	for (;;) {
		got = null >= 0 ? drain_splice(s->fd, null) : -1;
		if (got < 0) {	/* not a pipe, say: read it */
			if (buf == NULL)
				buf = xmalloc(DRAIN_CHUNK);
			got = drain_read(s->fd, buf);
		}
		if (got <= 0)
			break;
		total += (uint64_t)got;
	}
	if (null >= 0)
		close(null);
	free(buf);
	if (got < 0)
		return gl_error_setk(err, GL_ERR_IO, "cannot read: %s",
		    strerror(errno));
	s->size = total;
	s->size_known = true;
	return 0;
}

uint64_t
source_ahead(const struct source *s)
{
	return s->kind == SOURCE_HTTP ? AHEAD_REMOTE : AHEAD_LOCAL;
}

bool
source_grows(const struct source *s)
{
	return s->kind == SOURCE_FILE || s->kind == SOURCE_HTTP;
}

void
source_settle(struct source *s)
{
	if (s->kind == SOURCE_HTTP)
		http_settle(s);
}

bool
source_fit(struct source *s, uint64_t keep)
{
	uint8_t *p;

	if (s->kind == SOURCE_MEM || keep == 0 || keep >= s->head_len ||
	    (p = realloc(s->head, (size_t)keep)) == NULL)
		return false;	/* a failed cut keeps the larger window */
	s->head = p;
	s->head_len = s->head_cap = (size_t)keep;
	return true;
}

bool
source_can_view(const struct source *s)
{
	return s->kind == SOURCE_FILE || s->kind == SOURCE_MEM;
}

/* Map a window of s's file holding [off, off + len) into v. */
static const uint8_t *
view_map(const struct source *s, struct source_view *v, uint64_t off,
    uint64_t len)
{
	uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
	uint64_t start = off / page * page, want, end;
	void *m;

	want = len + (off - start);
	if (want < VIEW_MIN)
		want = VIEW_MIN;
	end = s->size - start < want ? s->size : start + want;
	if ((uint64_t)(size_t)(end - start) != end - start)
		return NULL;	/* larger than this host can map */
	m = mmap(NULL, (size_t)(end - start), PROT_READ, MAP_PRIVATE, s->fd,
	    (off_t)start);
	if (m == MAP_FAILED)
		return NULL;
	/* the data is read in order (--deep): read ahead of it */
	(void)posix_fadvise(s->fd, 0, 0, POSIX_FADV_SEQUENTIAL);
	(void)madvise(m, (size_t)(end - start), MADV_SEQUENTIAL);
	v->map = m;
	v->map_len = (size_t)(end - start);
	v->base = m;
	v->off = start;
	v->len = end - start;
	return v->base + (off - start);
}

const uint8_t *
source_view_get(const struct source *s, struct source_view *v, uint64_t off,
    uint64_t len)
{
	if (!source_can_view(s) || off > s->size || len > s->size - off)
		return NULL;
	if (s->kind == SOURCE_MEM)
		return s->mem != NULL ? s->mem + off : NULL;
	if (v->base != NULL && off >= v->off && len <= v->len &&
	    off - v->off <= v->len - len)
		return v->base + (off - v->off);
	source_view_release(v);
	if (len == 0)
		return (const uint8_t *)"";	/* nothing to read */
	return view_map(s, v, off, len);
}

void
source_view_release(struct source_view *v)
{
	if (v->map != NULL)
		munmap(v->map, v->map_len);
	memset(v, 0, sizeof *v);
}

bool
source_shrank_now(const struct source *s, uint64_t *now)
{
	struct stat st;

	if (s->kind != SOURCE_FILE || fstat(s->fd, &st) < 0)
		return false;
	if (now != NULL)
		*now = (uint64_t)st.st_size;
	return (uint64_t)st.st_size < s->size;
}

void
source_close(struct source *s)
{
	/* a zeroed source holds nothing: its fd 0 is not ours */
	if (s->kind == SOURCE_HTTP)
		http_close(s);
	if (s->kind != SOURCE_NONE && s->kind != SOURCE_MEM && s->fd >= 0)
		close(s->fd);
	free(s->head);
	source_reset(s);
}

void
source_cleanup(void)
{
	http_cleanup();
}

void
source_stats(struct source_stats *st)
{
	memset(st, 0, sizeof *st);
	http_stats(st);
}

void
source_test_stop(const char *point)
{
	const char *want = getenv("GGUFLINT_TEST_STOP");

	if (want != NULL && strcmp(want, point) == 0)
		raise(SIGSTOP);
}
