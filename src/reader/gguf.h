/*
 * gguf.h - the GGUF reader: reads a file's header through a byte source
 * (source.h) into memory it owns, and parses it (magic, version, counts,
 * metadata, tensor infos) without touching tensor data. Versions 2 and 3
 * in either byte order are read; version 1 is read and reported.
 *
 * Every count and length is checked against the bytes that remain before it
 * is used, every size computation is overflow-checked, and memory grows only
 * with records actually parsed. What is wrong with the file is recorded as
 * diagnostics (F family); the reader parses as far as it safely can and says
 * in header_complete whether it reached the end of the tensor infos.
 */
#ifndef GGUFLINT_GGUF_H
#define GGUFLINT_GGUF_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "findings/diag.h"
#include "base/error.h"
#include "reader/magic.h"
#include "source/source.h"

enum gguf_vtype {
	GGUF_UINT8 = 0,
	GGUF_INT8 = 1,
	GGUF_UINT16 = 2,
	GGUF_INT16 = 3,
	GGUF_UINT32 = 4,
	GGUF_INT32 = 5,
	GGUF_FLOAT32 = 6,
	GGUF_BOOL = 7,
	GGUF_STRING = 8,
	GGUF_ARRAY = 9,
	GGUF_UINT64 = 10,
	GGUF_INT64 = 11,
	GGUF_FLOAT64 = 12,
	GGUF_VTYPE_COUNT = 13
};

#define GGUF_DEFAULT_ALIGNMENT 32
#define GGUF_MAX_DIMS 4
#define GGUF_MAX_NAME 64			/* names must be shorter */
#define GGUF_MAX_KEY_LENGTH 65535	/* the spec's key grammar */
#define GGUF_MAX_STRING_LENGTH (1024ull * 1024 * 1024)
#define GGUF_MAX_ARRAY_ELEMENTS (1024ull * 1024 * 1024)
#define GGUF_MAX_NESTING 8		/* arrays of arrays: skipped to
					 * this depth */

/* A byte string of the header (not NUL-terminated), in the window. */
struct gguf_str {
	const char *p;
	uint64_t n;
};

/* One scalar value, decoded to host order. */
struct gguf_scalar {
	uint32_t type;			/* enum gguf_vtype, never ARRAY */
	union {
		uint64_t u;		/* UINT8..UINT64 */
		int64_t i;		/* INT8..INT64 */
		float f32;
		double f64;
		uint8_t b;		/* BOOL: the raw byte */
		struct gguf_str s;
	} v;
};

struct gguf_kv {
	struct gguf_str key;
	uint64_t offset;		/* of the record (its key length) */
	uint32_t type;			/* enum gguf_vtype */
	struct gguf_scalar val;		/* when type != ARRAY */
	uint32_t elem_type;		/* arrays */
	uint64_t count;			/* arrays: number of elements */
	uint64_t arr_offset;		/* arrays: the first element's
					 * offset */
};

struct gguf_tensor {
	struct gguf_str name;
	uint64_t offset_info;		/* of the tensor info record */
	uint32_t n_dims;
	int64_t ne[GGUF_MAX_DIMS];	/* missing dimensions are 1 */
	uint32_t type;			/* ggml type id as stored */
	uint64_t offset;		/* relative to the data section */
	uint64_t nbytes;		/* valid when size_ok */
	bool size_ok;			/* known type, sane dims, no overflow */
};

struct gguf_file {
	char *path;
	int fd;				/* the source's descriptor, or -1 */
	const uint8_t *map;		/* the header window: the file's
					 * first avail bytes, in memory
					 * the source owns (or the
					 * caller's buffer); moves as
					 * gguf_parse grows it */
	uint64_t avail;			/* bytes at map (<= size) */
	uint64_t size;			/* of the file, as opened */
	bool borrowed;			/* map is the caller's memory */
	struct source src;		/* where the bytes come from */
	bool read_failed;		/* the last gguf_parse could not
					 * read: read_err says why */
	struct gl_error read_err;

	bool is_gguf;			/* magic and version understood */
	bool big_endian;
	uint32_t version;		/* in the file's byte order, decoded */
	uint64_t n_tensors;		/* as declared */
	uint64_t n_kv;			/* as declared */
	struct gguf_kv *kv;		/* as parsed (may be fewer) */
	size_t kv_n;
	struct gguf_tensor *tensors;
	size_t tensors_n;
	uint32_t alignment;		/* effective */
	bool header_complete;		/* all KVs and tensor infos parsed */
	uint64_t infos_end;		/* offset just after the tensor infos */
	uint64_t data_offset;		/* PAD(infos_end, alignment) */
	uint64_t data_end;		/* where the tensor data ends, its
					 * last padding included; 0 when
					 * unknown (a size overflows) */
	uint8_t tail[16];		/* the first bytes after data_end */
	uint8_t tail_last[MAGIC_ZIP_END_BYTES];	/* the file's last */
	size_t tail_n, tail_last_n;	/* bytes of each read: none where
					 * the source cannot peek (a pipe,
					 * a remote file) */
};

/*
 * gguf_open: open path ("-" is standard input: a file redirected there is
 * read as a file, a pipe as a stream) and read the first window of its
 * header (1 MiB) into memory f owns; nothing is mapped. gguf_parse reads
 * a file's on as the header needs. A pipe's header is read whole here,
 * the window grown as the header's own lengths ask (at most 1 GiB), then
 * the pipe is read to its end and counted (its size bounds the tensor
 * data), its bytes past the header discarded. f is zeroed first and owns
 * a copy of path, the descriptor and the window. Returns 0, or -1 with
 * err set when the file cannot be opened, is not a regular file, or
 * cannot be read (GL_ERR_IO), or the window needs more memory than there
 * is (GL_ERR_LIMIT); f then owns nothing. An empty file is not an error
 * here, nor a file that shrinks while it is read (gguf_parse reports it).
 * Either way, release f with gguf_close().
 */
int gguf_open(struct gguf_file *f, const char *path, struct gl_error *err);

/* gguf_open_opts flags: the tensor data will be read (--deep), so a
 * source that cannot give it (a pipe) is refused before it is read. */
#define GGUF_OPEN_DATA 1u

/*
 * gguf_open_opts: gguf_open with flags (GGUF_OPEN_DATA, or 0). With
 * GGUF_OPEN_DATA a pipe fails, before anything is read from it, with
 * GL_ERR_USAGE.
 */
int gguf_open_opts(struct gguf_file *f, const char *path, unsigned flags,
    struct gl_error *err);

/*
 * gguf_open_src: gguf_open_opts with a remote file (http://, https://,
 * hf://; source_is_remote) read as so says (NULL: the defaults): its
 * header by range requests into the same window, its URL the path. With
 * GGUF_OPEN_DATA a remote file fails before anything is asked of the
 * server (GL_ERR_USAGE); a failed request is GL_ERR_IO (GL_ERR_NOT_FOUND
 * for HTTP 404 or 410).
 */
int gguf_open_src(struct gguf_file *f, const char *path, unsigned flags,
    const struct source_opts *so, struct gl_error *err);

/*
 * gguf_parse: parse the header, recording findings in dl; a second call
 * starts afresh (the records of the first are freed). A file's window
 * grows as the header needs (and over its padding, at most 1 MiB of it),
 * by at least 1 MiB at a time; its size at open bounds it. Parsed, a
 * window holding more than 256 KiB of tensor data past the header is cut
 * to the header (one that holds the data's end stays). What it could
 * not parse is a finding (F032 where the file shrank before the header
 * was read whole); a read that fails stops it (gguf_read_error). The
 * records' strings (struct gguf_str) point into the window, memory f
 * owns: valid until gguf_close() or the next gguf_parse(), whatever
 * happens to the file.
 */
void gguf_parse(struct gguf_file *f, struct diag_list *dl);

/*
 * gguf_read_error: 0 when the last gguf_parse read what it needed (or
 * found the file shorter: a finding); -1 with err (GL_ERR_IO, or
 * GL_ERR_LIMIT: no memory for the window) when a read failed and the
 * header could not be parsed whole: an operational failure (exit 2), not
 * a finding.
 */
int gguf_read_error(const struct gguf_file *f, struct gl_error *err);

/*
 * gguf_recheck: after the lint, F032 in dl when the file is now shorter
 * than when it was opened (and its header read did not already say so).
 * Returns whether it added one.
 */
bool gguf_recheck(const struct gguf_file *f, struct diag_list *dl);

/*
 * gguf_open_mem: read size bytes at data instead of a file (for fuzzing and
 * tests); data is borrowed (never freed) and must outlive f. name, copied,
 * is used in messages. Cannot fail; release f with gguf_close().
 */
void gguf_open_mem(struct gguf_file *f, const char *name, const void *data,
    uint64_t size);

/* gguf_close: close and free what f holds (a borrowed buffer is left
 * alone); f is left closed, and closing it again is harmless. */
void gguf_close(struct gguf_file *f);

/* Accessors for later stages. */
/* gguf_find_kv: the first KV whose key is exactly key, or NULL; borrowed
 * from f: valid until it is parsed again or closed. */
const struct gguf_kv *gguf_find_kv(const struct gguf_file *f, const char *key);

/*
 * gguf_find_int: the integer value of metadata key (any integer type, or
 * a bool as 0/1) in *out. Returns false, *out untouched, when absent, of
 * another type, or a UINT64 above INT64_MAX.
 */
bool gguf_find_int(const struct gguf_file *f, const char *key, int64_t *out);

/*
 * gguf_find_name: copy the string value of metadata key into buf (size
 * bytes), NUL-terminated, when it is a usable name: a string, not empty,
 * shorter than size, without a NUL byte. Returns true then; false, with
 * buf "", otherwise (absent, of another type, or unusable).
 */
bool gguf_find_name(const struct gguf_file *f, const char *key, char *buf,
    size_t size);
/* gguf_str_eq: the file's string s is, byte for byte, the C string c. */
bool gguf_str_eq(struct gguf_str s, const char *c);
/* gguf_vtype_name: "UINT8" .. "FLOAT64", or "?" (static storage). */
const char *gguf_vtype_name(uint32_t t);

/* gguf_vtype_llama_name: the type's name in llama.cpp's messages ("u8"
 * .. "f64", "str", "arr"), or "?" (static storage). */
const char *gguf_vtype_llama_name(uint32_t t);

/*
 * gguf_arr_get: element i of a fixed-size array, kv one of f's parsed
 * records (its bytes are trusted as the parse checked them). Returns 0
 * with *out set, or -1 for a string or nested array, a scalar, or i at or
 * past kv->count.
 */
int gguf_arr_get(const struct gguf_file *f, const struct gguf_kv *kv,
    uint64_t i, struct gguf_scalar *out);

/*
 * Sequential iteration over a STRING array (already validated by parse).
 * Inline: the vocabulary checks walk hundreds of thousands of strings.
 */
struct gguf_arr_iter {
	const uint8_t *map;
	uint64_t size, pos, left;
	unsigned lsz;			/* 4 in GGUF v1, else 8 */
	bool swap;			/* file and host byte orders differ */
};

/* gguf_swapped: the file's byte order is not the host's. */
static inline bool
gguf_swapped(const struct gguf_file *f)
{
	return f->big_endian != (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__);
}

/* gguf_arr_iter_init: it at the first string of kv, one of f's records
 * (a kv that is no STRING array yields none). */
static inline void
gguf_arr_iter_init(struct gguf_arr_iter *it, const struct gguf_file *f,
    const struct gguf_kv *kv)
{
	it->map = f->map;
	it->size = f->avail;
	it->pos = kv->arr_offset;
	it->left = (kv->type == GGUF_ARRAY && kv->elem_type == GGUF_STRING) ?
	    kv->count : 0;
	it->lsz = f->version == 1 ? 4 : 8;
	it->swap = gguf_swapped(f);
}

/* gguf_arr_next_str: the next string in *out (borrowed from the
 * window); false at the end, or where a length runs past the window. */
static inline bool
gguf_arr_next_str(struct gguf_arr_iter *it, struct gguf_str *out)
{
	uint64_t n;
	uint32_t w;

	if (it->left == 0 || it->size - it->pos < it->lsz)
		return false;
	if (it->lsz == 8) {
		memcpy(&n, it->map + it->pos, 8);
		n = it->swap ? __builtin_bswap64(n) : n;
	} else {
		memcpy(&w, it->map + it->pos, 4);
		n = it->swap ? __builtin_bswap32(w) : w;
	}
	if (n > it->size - it->pos - it->lsz)
		return false;
	out->p = (const char *)it->map + it->pos + it->lsz;
	out->n = n;
	it->pos += it->lsz + n;
	it->left--;
	return true;
}

#endif
