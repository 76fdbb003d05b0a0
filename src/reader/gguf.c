/*
 * gguf.c - the hardened GGUF header reader (see gguf.h for the contract):
 * its entry points, the header's frame (the magic, the version, the
 * counts) and the parse that drives the rest, and the accessors.
 *
 * Parsing is a single forward pass with a cursor (gguf-cursor.c). Each
 * read first checks the bytes that remain; a count or length is compared
 * with the remaining bytes before anything depends on it. A finding that
 * makes the rest of the header unreadable (a truncation, an unknown value
 * type, an absurd count) sets stop; others are recorded and parsing goes
 * on. The metadata is gguf-meta.c's, the tensor infos gguf-tensors.c's.
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reader/gguf.h"
#include "reader/gguf-impl.h"
#include "source/source.h"

/* The header window: read first, and the most padding it keeps. */
#define HEAD_FIRST (1u << 20)
#define PAD_KEEP (1u << 20)
/* What a parsed window may hold past the header and keep: the reader's
 * 64 KiB ahead, and more. Cut, a local window would leave glibc's heap
 * for a mapping of its own at each lint of a serial run (64 local 8B
 * lints in turn: 0.45 s of system time, 0.13 uncut); what a remote
 * file's first request (1 MiB) took past a small header goes. */
#define FIT_SLACK (256u << 10)

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

unsigned
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

/* ---- magic, version, counts -------------------------------------------- */

static const char lfs_prefix[] = "version https://git-lfs.github.com/spec/";

/*
 * F001 for a file that is not a GGUF: what its first bytes are, where a
 * table knows them, and a GGUF inside it, where its window holds one (a
 * polyglot, or an archive that stores the model).
 */
static void
report_not_gguf(struct rd *r)
{
	const uint8_t *m = r->f->map;
	const char *what = magic_name(m, (size_t)r->f->avail, NULL);
	int64_t inner = magic_find_gguf(m, (size_t)r->f->avail, 1);
	char later[128] = "";

	if (memcmp(m, "lmgg", 4) == 0 || memcmp(m, "fmgg", 4) == 0 ||
	    memcmp(m, "tjgg", 4) == 0 || memcmp(m, "algg", 4) == 0)
		what = "a pre-GGUF GGML/GGJT file (convert it with a 2023 "
		    "llama.cpp)";
	else if (memcmp(m, "PK\003\004", 4) == 0)
		what = "a ZIP archive (a PyTorch checkpoint?)";
	else if (what == NULL && r->f->avail > 8 && m[8] == '{')
		what = "a safetensors file";
	if (inner >= 0)
		snprintf(later, sizeof later, "; a GGUF header begins at "
		    "offset %" PRId64 ": a GGUF inside another file (a "
		    "polyglot, or an archive)", inner);
	ADD(r, "F001", 0, SUBJECT_NONE, NULL, 0, "file starts with "
	    "bytes %02x %02x %02x %02x, not the GGUF magic 47 47 55 46 "
	    "(\"GGUF\")%s%s%s", m[0], m[1], m[2], m[3],
	    what != NULL ? "; it looks like " : "", what != NULL ? what : "",
	    later);
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
	if (!rd_need(r, f->size < 1024 ? f->size : 1024, "the file's start"))
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
	if (!rd_get_uint(r, 4, &v, "version"))
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

	if (!rd_get_len(r, &f->n_tensors, "tensor count"))
		return false;
	kv_off = r->pos;
	if (!rd_get_len(r, &f->n_kv, "metadata count"))
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
	f->infos_end = f->data_offset = f->data_end = 0;
	f->tail_n = f->tail_last_n = 0;
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
		gguf_parse_metadata(&r);
		if (!r.stop)
			gguf_parse_tensor_infos(&r);
	}
	if (!r.stop) {
		f->infos_end = r.pos;
		/* No overflow: pos <= size < 2^63 and alignment < 2^32. */
		u64_pad_overflow(r.pos, f->alignment, &f->data_offset);
		f->header_complete = true;
		/* the padding too, for its check (short read: less of it) */
		if (source_grows(&f->src) && padding_want(f) > f->avail)
			rd_grow_to(&r, padding_want(f));
	}
	f->read_failed = dl != NULL && r.failed;
	return r.failed ? -1 : 0;
}

/*
 * Where the tensor data ends: the farthest tensor's end, padded to the
 * alignment as writers pad every tensor's data; 0 when a size is unknown
 * or overflows (F010 and F021 say so).
 */
static uint64_t
data_end(const struct gguf_file *f)
{
	uint64_t end = f->data_offset, e;
	size_t i;

	for (i = 0; i < f->tensors_n; i++) {
		const struct gguf_tensor *t = &f->tensors[i];

		if (!t->size_ok || u64_pad_overflow(t->nbytes, f->alignment,
		    &e) || u64_add_overflow(e, t->offset, &e) ||
		    u64_add_overflow(e, f->data_offset, &e))
			return 0;
		if (e > end)
			end = e;
	}
	return end;
}

/*
 * A look past the data (check-file's F035, F036): its first bytes and the
 * file's last, where the source can give them without a request.
 */
static void
peek_tail(struct gguf_file *f)
{
	f->tail_n = f->tail_last_n = 0;
	f->data_end = 0;
	if (f->header_complete && f->kv_n == f->n_kv &&
	    f->tensors_n == f->n_tensors)
		f->data_end = data_end(f);
	if (f->data_end == 0 || f->data_end >= f->size)
		return;
	f->tail_n = source_peek(&f->src, f->data_end, f->tail,
	    f->size - f->data_end < sizeof f->tail ?
	    (size_t)(f->size - f->data_end) : sizeof f->tail);
	if (f->size - f->data_end >= MAGIC_ZIP_END_BYTES)
		f->tail_last_n = source_peek(&f->src,
		    f->size - MAGIC_ZIP_END_BYTES, f->tail_last,
		    MAGIC_ZIP_END_BYTES);
}

void
gguf_parse(struct gguf_file *f, struct diag_list *dl)
{
	parse_window(f, dl, NULL);
	peek_tail(f);
	source_settle(&f->src);	/* a remote file: nothing more to read */
	/* Past the header, a window that ends before the data does holds
	 * tensor data no check reads (the padding's stops at data_offset):
	 * more than FIT_SLACK of it goes. One that holds the data's end
	 * too stays (F047 looks there). */
	if (f->header_complete && f->data_end > f->avail &&
	    f->avail > f->data_offset + FIT_SLACK)
		gguf_fit_window(f, f->data_offset);
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
	gguf_sync_window(f);
	if (f->src.kind == SOURCE_STREAM && f->avail < f->size) {
		if (parse_window(f, NULL, err) < 0)
			return -1;
		if (source_head(&f->src, padding_want(f), err) < 0)
			return -1;
	}
	if (source_drain(&f->src, err) < 0)
		return -1;
	gguf_sync_window(f);
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
	gguf_decode_scalar(f->map + kv->arr_offset + i * sz, kv->elem_type,
	    f->big_endian, out);
	return 0;
}
