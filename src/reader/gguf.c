/*
 * gguf.c - the hardened GGUF header reader (see gguf.h for the contract).
 *
 * Parsing is a single forward pass with a cursor. Each read first checks
 * the bytes that remain; a count or length is compared with the remaining
 * bytes before anything depends on it. A finding that makes the rest of the
 * header unreadable (a truncation, an unknown value type, an absurd count)
 * sets stop; others are recorded and parsing goes on.
 */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/ggml-types.h"
#include "reader/gguf.h"
#include "base/strset.h"
#include "source/source.h"

/* Smallest possible records, for bounding declared counts. */
#define MIN_KV_BYTES 13		/* u64 key length, u32 type, 1-byte value */
#define MIN_KV_BYTES_V1 9
/* a tensor info: u64 name length, u32 n_dims, u32 type, u64 offset */
#define MIN_TENSOR_BYTES 24
#define MIN_TENSOR_BYTES_V1 20
/*
 * A declared count the remaining bytes cannot hold is a truncation (F003,
 * found where the file ends) when it is plausible, and an absurd count
 * (F006, rejected before parsing) above this.
 */
#define PLAUSIBLE_COUNT (1u << 20)
/*
 * The tensor count follows the magic and the version in every version; v1
 * changes its width (u32, not u64), not its place.
 */
#define TENSOR_COUNT_OFFSET 8
/* The header window: read first, and the most padding it keeps. */
#define HEAD_FIRST (1u << 20)
#define PAD_KEEP (1u << 20)
/* A stream's size until its end is reached: larger than any file. */
#define SIZE_UNKNOWN ((uint64_t)INT64_MAX)
/* The most of a pipe kept for its header (llama.cpp's largest string). */
#define STREAM_HEAD_MAX (GGUF_MAX_STRING_LENGTH + (1u << 20))

static const char *const vtype_names[GGUF_VTYPE_COUNT] = {
	"UINT8", "INT8", "UINT16", "INT16", "UINT32", "INT32", "FLOAT32",
	"BOOL", "STRING", "ARRAY", "UINT64", "INT64", "FLOAT64"
};
static const unsigned char vtype_sizes[GGUF_VTYPE_COUNT] = {
	1, 1, 2, 2, 4, 4, 4, 1, 0, 0, 8, 8, 8
};

const char *
gguf_vtype_name(uint32_t t)
{
	return t < GGUF_VTYPE_COUNT ? vtype_names[t] : "?";
}

const char *
gguf_vtype_llama_name(uint32_t t)
{
	static const char *const names[GGUF_VTYPE_COUNT] = { "u8", "i8",
		"u16", "i16", "u32", "i32", "f32", "bool", "str", "arr", "u64",
		"i64", "f64" };

	return t < GGUF_VTYPE_COUNT ? names[t] : "?";
}

static unsigned
gguf_vtype_size(uint32_t t)
{
	return t < GGUF_VTYPE_COUNT ? vtype_sizes[t] : 0;
}

bool
gguf_str_eq(struct gguf_str s, const char *c)
{
	size_t n = strlen(c);

	return s.n == n && memcmp(s.p, c, n) == 0;
}

/* ---- byte order -------------------------------------------------------- */

/* n bytes at p as an unsigned number stored in the byte order be says. */
static inline uint64_t
load(const uint8_t *p, unsigned n, bool be)
{
	uint64_t v = 0;
	unsigned i;

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	uint32_t w;

	/* the lengths and counts on every string: one load, not 8 */
	if (n == 8) {
		memcpy(&v, p, 8);
		return be ? __builtin_bswap64(v) : v;
	}
	if (n == 4) {
		memcpy(&w, p, 4);
		return be ? __builtin_bswap32(w) : w;
	}
#endif
	for (i = 0; i < n; i++)
		v |= (uint64_t)p[be ? n - 1 - i : i] << (8 * i);
	return v;
}

/* Decode a fixed-size value of type t at p (which has its size in bytes). */
static void
decode_scalar(const uint8_t *p, uint32_t t, bool be, struct gguf_scalar *out)
{
	uint64_t raw = load(p, vtype_sizes[t], be);
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

/* ---- open / close ------------------------------------------------------ */

static int read_header(struct gguf_file *f, struct gl_error *err);

void
gguf_open_mem(struct gguf_file *f, const char *name, const void *data,
    uint64_t size)
{
	memset(f, 0, sizeof *f);
	f->fd = -1;
	f->alignment = GGUF_DEFAULT_ALIGNMENT;
	f->path = xstrdup(name);
	source_open_mem(&f->src, data, size);
	f->map = source_bytes(&f->src);
	f->avail = f->size = size;
	f->borrowed = true;
}

void
gguf_close(struct gguf_file *f)
{
	source_close(&f->src);
	free(f->kv);
	free(f->tensors);
	free(f->path);
	memset(f, 0, sizeof *f);
	f->fd = -1;
}

/* f's view of its source after the window changed. */
static void
sync_window(struct gguf_file *f)
{
	f->map = source_bytes(&f->src);
	f->avail = source_avail(&f->src);
	f->size = f->src.size_known ? f->src.size : SIZE_UNKNOWN;
}

int
gguf_open(struct gguf_file *f, const char *path, struct gl_error *err)
{
	return gguf_open_opts(f, path, 0, err);
}

int
gguf_open_opts(struct gguf_file *f, const char *path, unsigned flags,
    struct gl_error *err)
{
	return gguf_open_src(f, path, flags, NULL, err);
}

int
gguf_open_src(struct gguf_file *f, const char *path, unsigned flags,
    const struct source_opts *so, struct gl_error *err)
{
	struct gl_error rerr;

	memset(f, 0, sizeof *f);
	f->fd = -1;
	f->alignment = GGUF_DEFAULT_ALIGNMENT;
	if (source_open_opts(&f->src, path, so, err) < 0)
		return -1;
	if ((flags & GGUF_OPEN_DATA) && f->src.kind == SOURCE_HTTP) {
		gl_error_setk(err, GL_ERR_USAGE, "%s: the tensor data (--deep) "
		    "is not read from a remote file (it would download the "
		    "model): download it and lint the file", path);
		goto fail;
	}
	if ((flags & GGUF_OPEN_DATA) && !source_can_view(&f->src)) {
		gl_error_setk(err, GL_ERR_USAGE, "%s: the tensor data (--deep) "
		    "cannot be read from a pipe: name the file, or redirect "
		    "it (< FILE)", path);
		goto fail;
	}
	f->fd = f->src.fd;
	f->path = xstrdup(path);
	source_test_stop("open");
	if (read_header(f, &rerr) < 0) {
		gl_error_setk(err, rerr.kind, "%s: %s", path, rerr.msg);
		goto fail;
	}
	source_test_stop("header");
	return 0;
fail:
	gguf_close(f);
	return -1;
}

/* ---- the cursor -------------------------------------------------------- */

struct rd {
	struct gguf_file *f;
	struct diag_list *dl;		/* NULL: measuring the header */
	uint64_t pos;
	bool v1;			/* 32-bit counts and lengths */
	bool stop;			/* the rest cannot be parsed */
	enum subject_kind skind;	/* what is being parsed, for messages */
	struct gguf_str subj;
	/* growing the window (window_grow) */
	struct gl_error *err;		/* a read's failure (never NULL) */
	bool failed;			/* a read failed: err says why */
	struct gguf_kv *cur_kv;		/* the record being made, if any */
	struct gguf_tensor *cur_t;
	/* measuring (dl NULL), which keeps no records */
	bool have_align;		/* the first general.alignment... */
	struct gguf_kv align;		/* ...as parsed (its value only) */
};

/*
 * A finding, when the parse records them: a measuring parse (dl NULL)
 * only learns how much of the file the header spans.
 */
#define ADD(r, ...)							\
	do {								\
		if ((r)->dl != NULL)					\
			diag_add((r)->dl, __VA_ARGS__);			\
	} while (0)

/* ADD as an expression: the finding, for diag_note and diag_fix, or NULL
 * (a measuring parse, or a capped rule). */
#define ADD_D(r, ...)							\
	((r)->dl != NULL ? diag_add((r)->dl, __VA_ARGS__) : NULL)

/* The bytes left in the file (as opened) after the cursor. */
static uint64_t
remain(const struct rd *r)
{
	return r->f->size - r->pos;
}

/* The bytes left in the window after the cursor. */
static uint64_t
window_left(const struct rd *r)
{
	return r->f->avail > r->pos ? r->f->avail - r->pos : 0;
}

/* Report a finding about the record being parsed. */
#define FINDING(r, code, off, ...)					\
	ADD(r, code, off, (r)->skind,					\
	    (r)->skind != SUBJECT_NONE ? (r)->subj.p : NULL,		\
	    (size_t)(r)->subj.n, __VA_ARGS__)

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
static bool
grow_to(struct rd *r, uint64_t want)
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
	sync_window(f);
	if (old != NULL && f->map != old)
		rebase(r, old);
	if (rc < 0)
		r->failed = true;
	return rc == 0;
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
	if (can && grow_to(r, want + ahead) && n <= window_left(r) &&
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

/* need: true when n bytes remain; otherwise an F003 finding and stop. */
static bool
need(struct rd *r, uint64_t n, const char *what)
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

static bool
get_uint(struct rd *r, unsigned n, uint64_t *out, const char *what)
{
	if (!need(r, n, what))
		return false;
	*out = load(r->f->map + r->pos, n, r->f->big_endian);
	r->pos += n;
	return true;
}

/* A count or length: u64, or u32 in GGUF v1. */
static bool
get_len(struct rd *r, uint64_t *out, const char *what)
{
	return get_uint(r, r->v1 ? 4 : 8, out, what);
}

static bool
get_string(struct rd *r, struct gguf_str *out, const char *what)
{
	uint64_t off = r->pos, n;

	if (!get_len(r, &n, what))
		return false;
	if (n > GGUF_MAX_STRING_LENGTH) {
		FINDING(r, "F007", off, "%s declares %" PRIu64 " bytes; "
		    "llama.cpp refuses strings over %llu bytes", what, n,
		    GGUF_MAX_STRING_LENGTH);
		r->stop = true;
		return false;
	}
	if (!need(r, n, what))
		return false;
	out->p = (const char *)r->f->map + r->pos;
	out->n = n;
	r->pos += n;
	return true;
}

/* ---- metadata ---------------------------------------------------------- */

static bool
check_vtype(struct rd *r, uint64_t off, uint32_t t, const char *what)
{
	if (t >= GGUF_VTYPE_COUNT) {
		FINDING(r, "F009", off, "%s %" PRId32 " is not a GGUF value "
		    "type (0..12); the rest of the header cannot be parsed",
		    what, (int32_t)t);
		r->stop = true;
		return false;
	}
	if (r->v1 && t >= GGUF_UINT64) {
		FINDING(r, "F009", off, "%s %s did not exist in GGUF v1", what,
		    vtype_names[t]);
		r->stop = true;
		return false;
	}
	return true;
}

static void
check_bools(struct rd *r, uint64_t off, uint64_t count)
{
	const uint8_t *p = r->f->map + r->pos;
	uint64_t i, bad = 0, first = 0;

	for (i = 0; i < count; i++) {
		if (p[i] > 1 && bad++ == 0)
			first = i;
	}
	if (bad == 0)
		return;
	if (count == 1)
		FINDING(r, "F028", off, "BOOL value stored as byte 0x%02x; "
		    "only 0 and 1 are valid", p[first]);
	else
		FINDING(r, "F028", off, "%" PRIu64 " BOOL elements are "
		    "neither 0 nor 1 (first: element %" PRIu64 ", byte 0x%02x)",
		    bad, first, p[first]);
}

static bool parse_array(struct rd *r, struct gguf_kv *kv, unsigned depth);

/*
 * skip_strings: the well-formed strings at the start of an array of count
 * strings, in one tight loop (a vocabulary is most of a header). Returns how
 * many it passed; get_string reports the first one it stopped at.
 */
static uint64_t
skip_strings(struct rd *r, uint64_t count)
{
	const uint8_t *map = r->f->map;
	uint64_t pos = r->pos, size = r->f->avail, i, n;
	unsigned lsz = r->v1 ? 4 : 8;
	bool be = r->f->big_endian;

	for (i = 0; i < count && size - pos >= lsz; i++) {
		n = load(map + pos, lsz, be);
		if (n > GGUF_MAX_STRING_LENGTH || n > size - pos - lsz)
			break;
		pos += lsz + n;
	}
	r->pos = pos;
	return i;
}

/* Skip the elements of one array of count elements of type t. */
static bool
skip_elements(struct rd *r, uint64_t off, uint32_t t, uint64_t count,
    unsigned depth)
{
	struct gguf_kv inner;
	struct gguf_str s;
	uint64_t i, bytes;

	if (t == GGUF_STRING) {
		if (count > remain(r) / (r->v1 ? 4 : 8))
			return need(r, count * (r->v1 ? 4 : 8),
			    "array of strings");
		/* get_string where skip_strings stops: an end of the window
		 * (grown, then the fast loop goes on) or a finding */
		for (i = skip_strings(r, count); i < count;
		    i += skip_strings(r, count - i)) {
			if (!get_string(r, &s, "string array element"))
				return false;
			i++;
		}
		return true;
	}
	if (t == GGUF_ARRAY) {
		unsigned hdr = 4 + (r->v1 ? 4 : 8);	/* type, count */

		if (count > remain(r) / hdr)
			return need(r, count * hdr, "array of arrays");
		for (i = 0; i < count; i++)
			if (!parse_array(r, &inner, depth + 1))
				return false;
		return true;
	}
	bytes = count * vtype_sizes[t];	/* count <= 2^30, size <= 8 */
	if (!need(r, bytes, "array elements"))
		return false;
	if (t == GGUF_BOOL)
		check_bools(r, off, count);
	r->pos += bytes;
	return true;
}

/* Parse an array value (element type, count, elements) into kv. */
static bool
parse_array(struct rd *r, struct gguf_kv *kv, unsigned depth)
{
	uint64_t off = r->pos, count, et;

	if (!get_uint(r, 4, &et, "array element type"))
		return false;
	if (!check_vtype(r, off, (uint32_t)et, "array element type"))
		return false;
	if (!get_len(r, &count, "array length"))
		return false;
	if (count > GGUF_MAX_ARRAY_ELEMENTS) {
		FINDING(r, "F008", off, "array declares %" PRIu64 " elements; "
		    "llama.cpp refuses more than %llu", count,
		    GGUF_MAX_ARRAY_ELEMENTS);
		r->stop = true;
		return false;
	}
	kv->elem_type = (uint32_t)et;
	kv->count = count;
	kv->arr_offset = r->pos;
	if (et == GGUF_ARRAY) {
		if (depth == 0)
			FINDING(r, "F011", off, "array of arrays: the GGUF "
			    "spec allows nesting, llama.cpp rejects it");
		if (depth + 1 >= GGUF_MAX_NESTING) {
			FINDING(r, "F011", off, "arrays nested deeper than %d "
			    "levels; the rest of the header is not parsed",
			    GGUF_MAX_NESTING);
			r->stop = true;
			return false;
		}
	}
	return skip_elements(r, off, (uint32_t)et, count, depth);
}

static bool
parse_kv(struct rd *r, struct gguf_kv *kv)
{
	uint64_t t;

	memset(kv, 0, sizeof *kv);
	kv->offset = r->pos;
	r->skind = SUBJECT_NONE;
	if (!get_string(r, &kv->key, "metadata key"))
		return false;
	r->skind = SUBJECT_KEY;
	r->subj = kv->key;
	if (kv->key.n == 0)
		FINDING(r, "F012", kv->offset, "metadata key of length 0 "
		    "(llama.cpp rejects it; older builds abort)");
	else if (kv->key.n > GGUF_MAX_KEY_LENGTH)
		FINDING(r, "F033", kv->offset, "metadata key of %" PRIu64
		    " bytes; the GGUF spec allows at most %d", kv->key.n,
		    GGUF_MAX_KEY_LENGTH);
	if (!get_uint(r, 4, &t, "value type"))
		return false;
	if (!check_vtype(r, r->pos - 4, (uint32_t)t, "value type"))
		return false;
	kv->type = (uint32_t)t;
	if (t == GGUF_ARRAY)
		return parse_array(r, kv, 0);
	if (t == GGUF_STRING) {
		kv->val.type = GGUF_STRING;
		return get_string(r, &kv->val.v.s, "string value");
	}
	if (!need(r, vtype_sizes[t], "value"))
		return false;
	decode_scalar(r->f->map + r->pos, (uint32_t)t, r->f->big_endian,
	    &kv->val);
	if (t == GGUF_BOOL)
		check_bools(r, kv->offset, 1);
	r->pos += vtype_sizes[t];
	return true;
}

/* Names compare as C strings in ggml: only the bytes before a NUL count. */
static size_t
cstr_len(struct gguf_str s)
{
	const char *nul = memchr(s.p, '\0', (size_t)s.n);

	return nul != NULL ? (size_t)(nul - s.p) : (size_t)s.n;
}

static void
check_duplicate_keys(struct rd *r)
{
	struct strset seen;
	size_t i, first;

	strset_init(&seen);
	strset_reserve(&seen, r->f->kv_n);
	for (i = 0; i < r->f->kv_n; i++) {
		const struct gguf_kv *kv = &r->f->kv[i];

		if (strset_insert(&seen, kv->key.p, cstr_len(kv->key), i,
		    &first))
			ADD(r, "F013", kv->offset, SUBJECT_KEY,
			    kv->key.p, kv->key.n, "duplicate key (first "
			    "defined at offset 0x%" PRIx64 ")",
			    r->f->kv[first].offset);
	}
	strset_free(&seen);
}

static void
check_alignment(struct rd *r)
{
	const struct gguf_kv *kv = r->dl == NULL ?
	    (r->have_align ? &r->align : NULL) :
	    gguf_find_kv(r->f, "general.alignment");
	uint64_t a;

	if (kv == NULL)
		return;
	if (kv->type != GGUF_UINT32) {
		diag_note(ADD_D(r, "F014", kv->offset, SUBJECT_KEY, kv->key.p,
		    kv->key.n, "general.alignment is stored as %s, not UINT32: "
		    "llama.cpp refuses it; using %d", gguf_vtype_name(kv->type),
		    GGUF_DEFAULT_ALIGNMENT), "llama.cpp builds before 2026-08 "
		    "abort on it");
		return;
	}
	a = kv->val.v.u;
	if (a == 0 || (a & (a - 1)) != 0) {
		ADD(r, "F014", kv->offset, SUBJECT_KEY, kv->key.p,
		    kv->key.n, "general.alignment is %" PRIu64 ", not a "
		    "power of two; using %d", a, GGUF_DEFAULT_ALIGNMENT);
		return;
	}
	r->f->alignment = (uint32_t)a;
	if (a % 8 != 0)
		ADD(r, "F015", kv->offset, SUBJECT_KEY, kv->key.p,
		    kv->key.n, "general.alignment is %" PRIu64 "; the spec "
		    "requires a multiple of 8", a);
	else if (a > (1u << 20))
		ADD(r, "F034", kv->offset, SUBJECT_KEY, kv->key.p,
		    kv->key.n, "general.alignment is %" PRIu64 " (over 1 MiB); "
		    "32-bit readers overflow padding arithmetic with it", a);
}

/*
 * A measuring parse keeps no records (their strings would move as the
 * window grows): only the first general.alignment, for the data offset.
 * Its key is compared where it lies in the window, which holds it still.
 */
static void
measure_kv(struct rd *r)
{
	static const char align[] = "general.alignment";
	struct gguf_kv kv;
	uint64_t at;

	if (!parse_kv(r, &kv) || r->have_align)
		return;
	at = kv.offset + (r->v1 ? 4 : 8);
	if (kv.key.n == sizeof align - 1 &&
	    memcmp(r->f->map + at, align, sizeof align - 1) == 0) {
		r->align = kv;
		r->have_align = true;
	}
}

static void
parse_metadata(struct rd *r)
{
	size_t cap = 0;
	uint64_t i;
	struct gguf_file *f = r->f;

	for (i = 0; i < f->n_kv && !r->stop; i++) {
		if (r->dl == NULL) {
			measure_kv(r);
			continue;
		}
		if (f->kv_n == cap) {
			cap = cap ? cap * 2 : 32;
			f->kv = xreallocarray(f->kv, cap, sizeof *f->kv);
		}
		r->cur_kv = &f->kv[f->kv_n];
		if (parse_kv(r, r->cur_kv))
			f->kv_n++;
		r->cur_kv = NULL;
	}
	r->skind = SUBJECT_NONE;
	if (r->dl != NULL)
		check_duplicate_keys(r);
	check_alignment(r);
}

/* ---- tensor infos ------------------------------------------------------ */

static void
check_tensor_type(struct rd *r, struct gguf_tensor *t)
{
	const struct ggml_type_info *ti = ggml_type_get(t->type);
	const char *fork;

	if (ti == NULL) {
		fork = ggml_type_fork_note(t->type);
		FINDING(r, "F022", t->offset_info, "tensor type id %" PRId32
		    " is not defined by ggml (ids 0..%d)%s%s%s",
		    (int32_t)t->type, GGML_TYPE_COUNT - 1,
		    fork ? "; it is " : "", fork ? fork : "",
		    fork ? ", which llama.cpp cannot load" : "");
		return;
	}
	switch (ti->status) {
	case GGML_TYPE_REMOVED:
		FINDING(r, "F023", t->offset_info, "tensor type id %" PRIu32
		    " was %s", t->type, ti->note);
		break;
	case GGML_TYPE_INTERNAL:
		FINDING(r, "F030", t->offset_info, "tensor stored as %s, %s",
		    ti->name, ti->note);
		break;
	case GGML_TYPE_RECENT:
		FINDING(r, "F031", t->offset_info, "tensor type %s (id %"
		    PRIu32 ") was %s; older llama.cpp builds reject it",
		    ti->name, t->type, ti->note);
		break;
	default:
		break;
	}
}

/* Compute nbytes with checked arithmetic; findings for what is wrong. */
static void
tensor_size(struct rd *r, struct gguf_tensor *t, bool dims_ok)
{
	const struct ggml_type_info *ti = ggml_type_get(t->type);
	uint64_t nel = 1, bytes, padded;
	int j;

	if (!dims_ok || ti == NULL || ti->blck == 0)
		return;
	for (j = 0; j < GGUF_MAX_DIMS; j++) {
		if (t->ne[j] == 0) {
			FINDING(r, "F027", t->offset_info, "dimension %d is 0: "
			    "an empty tensor (ggml before 2026-08 divides by "
			    "zero on it)", j);
			t->nbytes = 0;
			t->size_ok = true;
			return;
		}
	}
	for (j = 0; j < GGUF_MAX_DIMS; j++) {
		if (u64_mul_overflow(nel, (uint64_t)t->ne[j], &nel) ||
		    nel > INT64_MAX) {
			FINDING(r, "F021", t->offset_info, "element count "
			    "%" PRId64 " x %" PRId64 " x %" PRId64 " x %" PRId64
			    " does not fit in int64", t->ne[0], t->ne[1],
			    t->ne[2], t->ne[3]);
			return;
		}
	}
	if ((uint64_t)t->ne[0] % ti->blck != 0) {
		FINDING(r, "F024", t->offset_info, "ne[0] = %" PRId64 " is not "
		    "a multiple of %s's block size %" PRIu32, t->ne[0],
		    ti->name, ti->blck);
		return;
	}
	bytes = (uint64_t)t->ne[0] / ti->blck;
	if (u64_mul_overflow(bytes, ti->size, &bytes) ||
	    u64_mul_overflow(bytes, (uint64_t)t->ne[1], &bytes) ||
	    u64_mul_overflow(bytes, (uint64_t)t->ne[2], &bytes) ||
	    u64_mul_overflow(bytes, (uint64_t)t->ne[3], &bytes) ||
	    bytes > INT64_MAX ||
	    u64_pad_overflow(bytes, r->f->alignment, &padded)) {
		FINDING(r, "F021", t->offset_info, "byte size of %s [%" PRId64
		    ", %" PRId64 ", %" PRId64 ", %" PRId64 "] overflows 64 "
		    "bits (or its padding does)", ti->name, t->ne[0], t->ne[1],
		    t->ne[2], t->ne[3]);
		return;
	}
	t->nbytes = bytes;
	t->size_ok = true;
}

static bool
parse_tensor(struct rd *r, struct gguf_tensor *t)
{
	uint64_t n_dims, v, type;
	bool dims_ok = true;
	unsigned dsz = r->v1 ? 4 : 8;
	uint32_t j;

	memset(t, 0, sizeof *t);
	t->offset_info = r->pos;
	r->skind = SUBJECT_NONE;
	if (!get_string(r, &t->name, "tensor name"))
		return false;
	r->skind = SUBJECT_TENSOR;
	r->subj = t->name;
	if (t->name.n == 0)
		FINDING(r, "F016", t->offset_info, "tensor with an empty name");
	else if (t->name.n >= GGUF_MAX_NAME)
		FINDING(r, "F018", t->offset_info, "tensor name is %" PRIu64
		    " bytes; llama.cpp allows at most %d", t->name.n,
		    GGUF_MAX_NAME - 1);
	if (!get_uint(r, 4, &n_dims, "n_dims"))
		return false;
	t->n_dims = (uint32_t)n_dims;
	if (n_dims > GGUF_MAX_DIMS) {
		FINDING(r, "F019", t->offset_info, "tensor has %" PRIu64
		    " dimensions; ggml allows at most %d", n_dims,
		    GGUF_MAX_DIMS);
		dims_ok = false;
		if (!need(r, n_dims * dsz, "tensor dimensions"))
			return false;
	}
	for (j = 0; j < GGUF_MAX_DIMS; j++)
		t->ne[j] = 1;
	for (j = 0; j < n_dims; j++) {
		if (!get_uint(r, dsz, &v, "tensor dimension"))
			return false;
		if (j >= GGUF_MAX_DIMS)
			continue;
		t->ne[j] = r->v1 ? (int64_t)(uint32_t)v : (int64_t)v;
		if (t->ne[j] < 0) {
			FINDING(r, "F020", t->offset_info, "dimension %" PRIu32
			    " is %" PRId64, j, t->ne[j]);
			dims_ok = false;
		}
	}
	if (!get_uint(r, 4, &type, "tensor type") ||
	    !get_uint(r, 8, &t->offset, "tensor offset"))
		return false;
	t->type = (uint32_t)type;
	check_tensor_type(r, t);
	tensor_size(r, t, dims_ok);
	return true;
}

static void
check_duplicate_names(struct rd *r)
{
	struct strset seen;
	size_t i, first;

	strset_init(&seen);
	strset_reserve(&seen, r->f->tensors_n);
	for (i = 0; i < r->f->tensors_n; i++) {
		const struct gguf_tensor *t = &r->f->tensors[i];

		if (strset_insert(&seen, t->name.p, cstr_len(t->name), i,
		    &first))
			ADD(r, "F017", t->offset_info, SUBJECT_TENSOR,
			    t->name.p, t->name.n, "duplicate tensor name "
			    "(first defined at offset 0x%" PRIx64 ")",
			    r->f->tensors[first].offset_info);
	}
	strset_free(&seen);
}

static void
parse_tensor_infos(struct rd *r)
{
	struct gguf_file *f = r->f;
	unsigned min = r->v1 ? MIN_TENSOR_BYTES_V1 : MIN_TENSOR_BYTES;
	size_t cap = 0;
	uint64_t i;

	if (f->n_tensors > remain(r) / min && f->n_tensors > PLAUSIBLE_COUNT) {
		ADD(r, "F006", TENSOR_COUNT_OFFSET, SUBJECT_NONE,
		    NULL, 0, "header declares %" PRIu64 " tensors, but the %"
		    PRIu64 " bytes after the metadata can hold at most %"
		    PRIu64, f->n_tensors, remain(r), remain(r) / min);
		r->stop = true;
		return;
	}
	for (i = 0; i < f->n_tensors && !r->stop; i++) {
		if (r->dl == NULL) {	/* measuring: no records */
			struct gguf_tensor t;

			parse_tensor(r, &t);
			continue;
		}
		if (f->tensors_n == cap) {
			cap = cap ? cap * 2 : 32;
			f->tensors = xreallocarray(f->tensors, cap,
			    sizeof *f->tensors);
		}
		r->cur_t = &f->tensors[f->tensors_n];
		if (parse_tensor(r, r->cur_t))
			f->tensors_n++;
		r->cur_t = NULL;
	}
	r->skind = SUBJECT_NONE;
	if (r->dl != NULL)
		check_duplicate_names(r);
}

/* ---- magic, version, counts -------------------------------------------- */

static const char lfs_prefix[] = "version https://git-lfs.github.com/spec/";

static void
report_not_gguf(struct rd *r)
{
	const uint8_t *m = r->f->map;
	const char *what = "";

	if (memcmp(m, "lmgg", 4) == 0 || memcmp(m, "fmgg", 4) == 0 ||
	    memcmp(m, "tjgg", 4) == 0 || memcmp(m, "algg", 4) == 0)
		what = "; it looks like a pre-GGUF GGML/GGJT file "
		    "(convert it with a 2023 llama.cpp)";
	else if (memcmp(m, "PK\003\004", 4) == 0)
		what = "; it looks like a ZIP archive (a PyTorch checkpoint?)";
	else if (r->f->avail > 8 && m[8] == '{')
		what = "; it looks like a safetensors file";
	ADD(r, "F001", 0, SUBJECT_NONE, NULL, 0, "file starts with "
	    "bytes %02x %02x %02x %02x, not the GGUF magic 47 47 55 46 "
	    "(\"GGUF\")%s", m[0], m[1], m[2], m[3], what);
}

static void
report_lfs(struct rd *r)
{
	const char *p = (const char *)r->f->map;
	size_t n = (size_t)(r->f->avail < 1024 ? r->f->avail : 1024);
	const char *sz = memmem(p, n, "\nsize ", 6);
	unsigned long long declared = 0;
	size_t i;

	if (sz != NULL) {
		for (i = (size_t)(sz - p) + 6; i < n && p[i] >= '0' &&
		    p[i] <= '9' && declared < UINT64_MAX / 10; i++)
			declared = declared * 10 + (unsigned)(p[i] - '0');
	}
	if (declared > 0)
		ADD(r, "F004", 0, SUBJECT_NONE, NULL, 0, "this is a "
		    "Git LFS pointer, not the model: the %llu-byte file it "
		    "stands for was never downloaded", declared);
	else
		ADD(r, "F004", 0, SUBJECT_NONE, NULL, 0, "this is a "
		    "Git LFS pointer, not the model");
}

/* Magic and version; false when the rest cannot be parsed. */
static bool
parse_preamble(struct rd *r)
{
	struct gguf_file *f = r->f;
	uint64_t v;
	uint32_t sw;

	if (f->size < 4) {
		ADD(r, "F001", 0, SUBJECT_NONE, NULL, 0, f->size == 0 ?
		    "file is empty" : "file is %" PRIu64 " bytes long, too "
		    "short to hold the GGUF magic", f->size);
		return false;
	}
	/* what the file starts with must be in the window */
	if (!need(r, f->size < 1024 ? f->size : 1024, "the file's start"))
		return false;
	if (f->avail >= sizeof lfs_prefix - 1 &&
	    memcmp(f->map, lfs_prefix, sizeof lfs_prefix - 1) == 0) {
		report_lfs(r);
		return false;
	}
	if (memcmp(f->map, "GGUF", 4) != 0) {
		report_not_gguf(r);
		return false;
	}
	r->pos = 4;
	if (!get_uint(r, 4, &v, "version"))
		return false;
	if (v != 0 && (v & 0xFFFF) == 0) {
		sw = __builtin_bswap32((uint32_t)v);
		if (sw < 1 || sw > 3) {
			ADD(r, "F002", 4, SUBJECT_NONE, NULL, 0,
			    "version 0x%08" PRIx64 " is not a GGUF version in "
			    "either byte order", v);
			return false;
		}
		f->big_endian = true;
		v = sw;
		ADD(r, "F005", 4, SUBJECT_NONE, NULL, 0, "big-endian "
		    "GGUF v%" PRIu64 ": llama.cpp on a little-endian host "
		    "refuses it", v);
	}
	f->version = (uint32_t)v;
	if (v == 0 || v > 3) {
		ADD(r, "F002", 4, SUBJECT_NONE, NULL, 0,
		    "GGUF version %" PRIu64 " is not supported "
		    "(llama.cpp reads 2 and 3)", v);
		return false;
	}
	if (v == 1) {
		ADD(r, "F002", 4, SUBJECT_NONE, NULL, 0, "GGUF v1 "
		    "(2023) is no longer loaded by llama.cpp; the header was "
		    "read with the v1 layout");
		r->v1 = true;
	}
	f->is_gguf = true;
	return true;
}

static bool
parse_counts(struct rd *r)
{
	struct gguf_file *f = r->f;
	unsigned min = r->v1 ? MIN_KV_BYTES_V1 : MIN_KV_BYTES;
	uint64_t off = r->pos, kv_off;

	if (!get_len(r, &f->n_tensors, "tensor count"))
		return false;
	kv_off = r->pos;
	if (!get_len(r, &f->n_kv, "metadata count"))
		return false;
	if ((int64_t)f->n_tensors < 0 || (int64_t)f->n_kv < 0) {
		ADD(r, "F006", off, SUBJECT_NONE, NULL, 0, "header "
		    "declares %" PRId64 " tensors and %" PRId64 " metadata "
		    "entries; llama.cpp reads both as int64 and rejects "
		    "negative counts", (int64_t)f->n_tensors,
		    (int64_t)f->n_kv);
		return false;
	}
	if ((f->n_kv > remain(r) / min && f->n_kv > PLAUSIBLE_COUNT) ||
	    (f->n_tensors > remain(r) / MIN_TENSOR_BYTES_V1 &&
	    f->n_tensors > PLAUSIBLE_COUNT)) {
		bool kv = f->n_kv > remain(r) / min &&
		    f->n_kv > PLAUSIBLE_COUNT;

		ADD(r, "F006", kv ? kv_off : off,
		    SUBJECT_NONE, NULL, 0, "header declares %" PRIu64 " %s, "
		    "but the remaining %" PRIu64 " bytes can hold at most %"
		    PRIu64, kv ? f->n_kv : f->n_tensors,
		    kv ? "metadata entries" : "tensors", remain(r),
		    remain(r) / (kv ? min : MIN_TENSOR_BYTES_V1));
		return false;
	}
	return true;
}

/*
 * What the window must hold after a complete header: the padding up to
 * the data too (check-file reads it), of at most PAD_KEEP bytes.
 */
static uint64_t
padding_want(const struct gguf_file *f)
{
	uint64_t end = f->data_offset;

	if (!f->header_complete)
		return 0;
	if (end - f->infos_end > PAD_KEEP)
		end = f->infos_end + PAD_KEEP;
	return end;
}

/* Forget what a parse found: the records and what follows from them. */
static void
records_reset(struct gguf_file *f)
{
	free(f->kv);
	free(f->tensors);
	f->kv = NULL;
	f->tensors = NULL;
	f->kv_n = f->tensors_n = 0;
	f->header_complete = f->is_gguf = f->big_endian = false;
	f->version = 0;
	f->n_tensors = f->n_kv = 0;
	f->infos_end = f->data_offset = 0;
	f->alignment = GGUF_DEFAULT_ALIGNMENT;
}

/*
 * One parse of the window, recording findings in dl, or, dl NULL,
 * measuring: growing the window as the header needs, and keeping no
 * records. Returns 0, or -1 with err when a measuring parse could not
 * read what it needed.
 */
static int
parse_window(struct gguf_file *f, struct diag_list *dl, struct gl_error *err)
{
	struct rd r;

	memset(&r, 0, sizeof r);
	r.f = f;
	r.dl = dl;
	r.err = err != NULL ? err : &f->read_err;
	f->read_failed = false;
	records_reset(f);	/* parsing again starts afresh */
	if (parse_preamble(&r) && parse_counts(&r)) {
		parse_metadata(&r);
		if (!r.stop)
			parse_tensor_infos(&r);
	}
	if (!r.stop) {
		f->infos_end = r.pos;
		/* No overflow: pos <= size < 2^63 and alignment < 2^32. */
		u64_pad_overflow(r.pos, f->alignment, &f->data_offset);
		f->header_complete = true;
		/* the padding too, for its check (short read: less of it) */
		if (source_grows(&f->src) && padding_want(f) > f->avail)
			grow_to(&r, padding_want(f));
	}
	f->read_failed = dl != NULL && r.failed;
	return r.failed ? -1 : 0;
}

void
gguf_parse(struct gguf_file *f, struct diag_list *dl)
{
	parse_window(f, dl, NULL);
	source_settle(&f->src);	/* a remote file: nothing more to read */
	source_test_stop("parsed");
}

/*
 * Read the first window of the header. A file's grows as gguf_parse
 * needs; a stream's is grown here by one measuring parse, as the
 * header's lengths ask, then its padding, and the stream is counted to
 * its end. The records are forgotten: gguf_parse makes them again, over
 * the window that stays.
 */
static int
read_header(struct gguf_file *f, struct gl_error *err)
{
	if (source_head(&f->src, HEAD_FIRST, err) < 0)
		return -1;
	sync_window(f);
	if (f->src.kind == SOURCE_STREAM && f->avail < f->size) {
		if (parse_window(f, NULL, err) < 0)
			return -1;
		if (source_head(&f->src, padding_want(f), err) < 0)
			return -1;
	}
	if (source_drain(&f->src, err) < 0)
		return -1;
	sync_window(f);
	records_reset(f);
	return 0;
}

int
gguf_read_error(const struct gguf_file *f, struct gl_error *err)
{
	if (!f->read_failed)
		return 0;
	return gl_error_setk(err, f->read_err.kind, "%s: %s", f->path,
	    f->read_err.msg);
}

bool
gguf_recheck(const struct gguf_file *f, struct diag_list *dl)
{
	uint64_t now;

	source_test_stop("linted");
	if (f->src.shrank || !source_shrank_now(&f->src, &now))
		return false;
	diag_add(dl, "F032", 0, SUBJECT_NONE, NULL, 0, "the file shrank "
	    "while it was being linted: it was %" PRIu64 " bytes when opened, "
	    "it is %" PRIu64 " now", f->size, now);
	return true;
}

/* ---- accessors --------------------------------------------------------- */

const struct gguf_kv *
gguf_find_kv(const struct gguf_file *f, const char *key)
{
	size_t i;

	for (i = 0; i < f->kv_n; i++)
		if (gguf_str_eq(f->kv[i].key, key))
			return &f->kv[i];
	return NULL;
}

bool
gguf_find_name(const struct gguf_file *f, const char *key, char *buf,
    size_t size)
{
	const struct gguf_kv *kv = gguf_find_kv(f, key);
	size_t n;

	buf[0] = '\0';
	if (kv == NULL || kv->type != GGUF_STRING)
		return false;
	n = (size_t)kv->val.v.s.n;
	if (n == 0 || n >= size || memchr(kv->val.v.s.p, '\0', n) != NULL)
		return false;
	memcpy(buf, kv->val.v.s.p, n);
	buf[n] = '\0';
	return true;
}

bool
gguf_find_int(const struct gguf_file *f, const char *key, int64_t *out)
{
	const struct gguf_kv *kv = gguf_find_kv(f, key);

	if (kv == NULL)
		return false;
	switch (kv->type) {
	case GGUF_UINT8: case GGUF_UINT16: case GGUF_UINT32:
		*out = (int64_t)kv->val.v.u;
		return true;
	case GGUF_UINT64:
		if (kv->val.v.u > INT64_MAX)
			return false;
		*out = (int64_t)kv->val.v.u;
		return true;
	case GGUF_INT8: case GGUF_INT16: case GGUF_INT32: case GGUF_INT64:
		*out = kv->val.v.i;
		return true;
	case GGUF_BOOL:
		*out = kv->val.v.b != 0;
		return true;
	default:
		return false;
	}
}

int
gguf_arr_get(const struct gguf_file *f, const struct gguf_kv *kv, uint64_t i,
    struct gguf_scalar *out)
{
	unsigned sz = gguf_vtype_size(kv->elem_type);

	if (kv->type != GGUF_ARRAY || sz == 0 || i >= kv->count)
		return -1;
	decode_scalar(f->map + kv->arr_offset + i * sz, kv->elem_type,
	    f->big_endian, out);
	return 0;
}
