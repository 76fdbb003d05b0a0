/*
 * gguf-impl.h - what the parts of the GGUF header reader share inside
 * src/reader/: the cursor over the source's window (gguf-cursor.c), with
 * which gguf.c reads the magic, the version and the counts, gguf-meta.c
 * the metadata and gguf-tensors.c the tensor infos. Private to
 * src/reader/.
 */
#ifndef GGUFLINT_READER_GGUF_IMPL_H
#define GGUFLINT_READER_GGUF_IMPL_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "findings/diag.h"
#include "base/error.h"
#include "reader/gguf.h"

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

/* The cursor: one parse of the header, in one forward pass. */
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
static inline uint64_t
remain(const struct rd *r)
{
	return r->f->size - r->pos;
}

/* The bytes left in the window after the cursor. */
static inline uint64_t
window_left(const struct rd *r)
{
	return r->f->avail > r->pos ? r->f->avail - r->pos : 0;
}

/* Report a finding about the record being parsed. */
#define FINDING(r, code, off, ...)					\
	ADD(r, code, off, (r)->skind,					\
	    (r)->skind != SUBJECT_NONE ? (r)->subj.p : NULL,		\
	    (size_t)(r)->subj.n, __VA_ARGS__)

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

/* Names compare as C strings in ggml: only the bytes before a NUL count. */
static inline size_t
cstr_len(struct gguf_str s)
{
	const char *nul = memchr(s.p, '\0', (size_t)s.n);

	return nul != NULL ? (size_t)(nul - s.p) : (size_t)s.n;
}

/* gguf_vtype_size: the bytes of a value of type t; 0 for STRING, ARRAY
 * and an unknown type. */
unsigned gguf_vtype_size(uint32_t t);

/* gguf_decode_scalar: the fixed-size value of type t (a known type, not
 * STRING or ARRAY) at p, in the byte order be says, into *out. */
void gguf_decode_scalar(const uint8_t *p, uint32_t t, bool be,
    struct gguf_scalar *out);

/* gguf_sync_window: f's map, avail and size after its source's window
 * changed. */
void gguf_sync_window(struct gguf_file *f);

/* gguf_fit_window: f's window cut to keep bytes (source_fit), its
 * records moved with it when it moved. */
void gguf_fit_window(struct gguf_file *f, uint64_t keep);

/*
 * The reads at the cursor, each of which first checks the bytes that
 * remain and grows the window as they need. rd_need: true when n bytes
 * remain after the cursor (what names them in a finding); otherwise F003
 * (or F032: the file shrank; or a read failed, r->failed) and r->stop.
 * rd_get_uint: an unsigned number of n bytes (1 to 8) in the file's byte
 * order; rd_get_len: a count or length (u64, u32 in GGUF v1);
 * rd_get_string: a string (its length, then its bytes, borrowed from
 * the window), F007 when it is longer than llama.cpp reads. Each moves
 * the cursor past what it read and returns true, or false with r->stop.
 */
bool rd_need(struct rd *r, uint64_t n, const char *what);
bool rd_get_uint(struct rd *r, unsigned n, uint64_t *out, const char *what);
bool rd_get_len(struct rd *r, uint64_t *out, const char *what);
bool rd_get_string(struct rd *r, struct gguf_str *out, const char *what);

/*
 * rd_grow_to: the window grown to want bytes (a file's, or while
 * measuring a stream's, at most its limit), the records' strings
 * following it. Returns false, with r->failed and r->err, when a read
 * failed.
 */
bool rd_grow_to(struct rd *r, uint64_t want);

/*
 * gguf_parse_metadata: the n_kv key/values at the cursor, into f->kv (a
 * measuring parse keeps none but the first general.alignment), then the
 * duplicate keys and general.alignment (f->alignment) checked. Stops
 * early with r->stop.
 */
void gguf_parse_metadata(struct rd *r);

/*
 * gguf_parse_tensor_infos: the n_tensors tensor infos at the cursor, into
 * f->tensors (a measuring parse keeps none), their sizes computed, then
 * the duplicate names checked. Stops early with r->stop.
 */
void gguf_parse_tensor_infos(struct rd *r);

#endif
