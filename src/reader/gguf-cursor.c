/*
 * gguf-cursor.c - the header reader's cursor (gguf-impl.h): reads of
 * fixed-size numbers, counts and strings at the cursor, each checked
 * against the bytes that remain, and the window of the source they are
 * read from, grown as the header asks (the records' strings follow it).
 */
#include "config.h"

#include <inttypes.h>
#include <string.h>

#include "reader/gguf.h"
#include "reader/gguf-impl.h"
#include "source/source.h"

/* A stream's size until its end is reached: larger than any file. */
#define SIZE_UNKNOWN ((uint64_t)INT64_MAX)
/* The most of a pipe kept for its header (llama.cpp's largest string). */
#define STREAM_HEAD_MAX (GGUF_MAX_STRING_LENGTH + (1u << 20))

/* ---- byte order -------------------------------------------------------- */

/* Decode a fixed-size value of type t at p (which has its size in bytes). */
void
gguf_decode_scalar(const uint8_t *p, uint32_t t, bool be,
    struct gguf_scalar *out)
{
	uint64_t raw = load(p, gguf_vtype_size(t), be);
	uint32_t u32;

	out->type = t;
	switch (t) {
	case GGUF_INT8:
		out->v.i = (int8_t)raw;
		break;
	case GGUF_INT16:
		out->v.i = (int16_t)raw;
		break;
	case GGUF_INT32:
		out->v.i = (int32_t)raw;
		break;
	case GGUF_INT64:
		out->v.i = (int64_t)raw;
		break;
	case GGUF_FLOAT32:
		u32 = (uint32_t)raw;
		memcpy(&out->v.f32, &u32, 4);
		break;
	case GGUF_FLOAT64:
		memcpy(&out->v.f64, &raw, 8);
		break;
	case GGUF_BOOL:
		out->v.b = (uint8_t)raw;
		break;
	default:
		out->v.u = raw;
		break;
	}
}

/* ---- the cursor -------------------------------------------------------- */

/* f's view of its source after the window changed. */
void
gguf_sync_window(struct gguf_file *f)
{
	f->map = source_bytes(&f->src);
	f->avail = source_avail(&f->src);
	f->size = f->src.size_known ? f->src.size : SIZE_UNKNOWN;
}

/* p, a string of the window that moved from old to f->map, moved too. */
static void
rebase_one(const struct gguf_file *f, const uint8_t *old, const char **p)
{
	if (*p != NULL)
		*p = (const char *)f->map + ((uintptr_t)*p - (uintptr_t)old);
}

/*
 * After the window moved: every string of the records made so far, of
 * the one being made (the cur_ pointers) and of the subject follows it.
 */
static void
rebase(struct rd *r, const uint8_t *old)
{
	struct gguf_file *f = r->f;
	size_t i;

	for (i = 0; i < f->kv_n; i++) {
		rebase_one(f, old, &f->kv[i].key.p);
		if (f->kv[i].type == GGUF_STRING)
			rebase_one(f, old, &f->kv[i].val.v.s.p);
	}
	if (r->cur_kv != NULL) {
		rebase_one(f, old, &r->cur_kv->key.p);
		if (r->cur_kv->type == GGUF_STRING)
			rebase_one(f, old, &r->cur_kv->val.v.s.p);
	}
	for (i = 0; i < f->tensors_n; i++)
		rebase_one(f, old, &f->tensors[i].name.p);
	if (r->cur_t != NULL)
		rebase_one(f, old, &r->cur_t->name.p);
	rebase_one(f, old, &r->subj.p);
}

/*
 * Grow the window to want bytes (a file's, or while measuring a stream's,
 * at most STREAM_HEAD_MAX of it), the records following it. Returns
 * false, with r->failed and r->err when a read failed.
 */
bool
rd_grow_to(struct rd *r, uint64_t want)
{
	struct gguf_file *f = r->f;
	const uint8_t *old = f->map;
	int rc;

	if (f->src.kind == SOURCE_STREAM && want > STREAM_HEAD_MAX) {
		gl_error_setk(r->err, GL_ERR_LIMIT, "a header of over %llu "
		    "bytes is not read from a pipe: name the file",
		    (unsigned long long)STREAM_HEAD_MAX);
		r->failed = true;
		return false;
	}
	rc = source_head(&f->src, want, r->err);
	gguf_sync_window(f);
	if (old != NULL && f->map != old)
		rebase(r, old);
	if (rc < 0)
		r->failed = true;
	return rc == 0;
}

/*
 * The window cut to keep bytes (source_fit), the records following it.
 * A parsed header holds its window to the end of the lint (--jobs holds
 * as many as jobs): a remote file's first megabyte would be kept whole
 * for a header of kilobytes (the shards of a split model after the
 * first).
 */
void
gguf_fit_window(struct gguf_file *f, uint64_t keep)
{
	const uint8_t *old = f->map;
	struct rd r;

	if (!source_fit(&f->src, keep))
		return;
	gguf_sync_window(f);
	if (old != NULL && f->map != old) {
		memset(&r, 0, sizeof r);
		r.f = f;
		rebase(&r, old);
	}
}

/*
 * The file holds n more bytes, the window does not: a file's window, or
 * a stream's while it is measured (gguf_open), grows by them and
 * source_ahead() more (the source doubles its memory, not the bytes it
 * reads), and the parse goes on: true when it now holds them. Otherwise
 * the parse stops: where a read failed, with r->failed (an operational
 * failure: gguf_read_error), else the file shrank while its header was
 * read: F032.
 */
static bool
window_grow(struct rd *r, uint64_t n, const char *what)
{
	struct gguf_file *f = r->f;
	uint64_t want = r->pos + n, ahead;
	bool can = source_grows(&f->src) ||
	    (f->src.kind == SOURCE_STREAM && r->dl == NULL);

	ahead = source_ahead(&f->src);
	if (remain(r) - n < ahead)
		ahead = remain(r) - n;
	if (f->src.kind == SOURCE_STREAM && want <= STREAM_HEAD_MAX &&
	    want + ahead > STREAM_HEAD_MAX)
		ahead = STREAM_HEAD_MAX - want;
	if (can && rd_grow_to(r, want + ahead) && n <= window_left(r) &&
	    n <= remain(r))
		return true;
	r->stop = true;
	if (!r->failed && n <= remain(r))
		FINDING(r, "F032", r->pos, "the file shrank while its header "
		    "was being read: %s at offset %" PRIu64 " needs %" PRIu64
		    " bytes, but only %" PRIu64 " of the %" PRIu64 " bytes it "
		    "had when opened could be read", what, r->pos, n,
		    f->avail, f->size);
	return false;
}

/* rd_need: true when n bytes remain; otherwise an F003 finding and stop. */
bool
rd_need(struct rd *r, uint64_t n, const char *what)
{
	if (r->stop)
		return false;
	if (n <= remain(r) && n <= window_left(r))
		return true;
	if (n <= remain(r) && window_grow(r, n, what))
		return true;
	if (r->stop)
		return false;	/* no more of the file can be read */
	FINDING(r, "F003", r->pos, "header truncated: %s at offset %" PRIu64
	    " needs %" PRIu64 " bytes, but the file ends %" PRIu64
	    " bytes later (file size %" PRIu64 ")", what, r->pos, n,
	    remain(r), r->f->size);
	r->stop = true;
	return false;
}

bool
rd_get_uint(struct rd *r, unsigned n, uint64_t *out, const char *what)
{
	if (!rd_need(r, n, what))
		return false;
	*out = load(r->f->map + r->pos, n, r->f->big_endian);
	r->pos += n;
	return true;
}

/* A count or length: u64, or u32 in GGUF v1. */
bool
rd_get_len(struct rd *r, uint64_t *out, const char *what)
{
	return rd_get_uint(r, r->v1 ? 4 : 8, out, what);
}

bool
rd_get_string(struct rd *r, struct gguf_str *out, const char *what)
{
	uint64_t off = r->pos, n;

	if (!rd_get_len(r, &n, what))
		return false;
	if (n > GGUF_MAX_STRING_LENGTH) {
		FINDING(r, "F007", off, "%s declares %" PRIu64 " bytes; "
		    "llama.cpp refuses strings over %llu bytes", what, n,
		    GGUF_MAX_STRING_LENGTH);
		r->stop = true;
		return false;
	}
	if (!rd_need(r, n, what))
		return false;
	out->p = (const char *)r->f->map + r->pos;
	out->n = n;
	r->pos += n;
	return true;
}
