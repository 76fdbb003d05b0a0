/*
 * ggufw.h - a small GGUF writer for building test cases.
 *
 * Two layers:
 *
 *  - struct ggufw appends raw GGUF fields (integers, floats, strings) and
 *    whole records (header, KV pairs, tensor infos, padding) to a byte
 *    buffer in either byte order.  Nothing is checked: counts, lengths,
 *    types and offsets are written exactly as given, so a test can build a
 *    deliberately malformed file field by field.
 *
 *  - struct ggufw_model builds a well-formed file: the caller adds KV pairs
 *    and tensors, and ggufw_model_finish() lays out the header, the tensor
 *    infos with contiguous aligned offsets, the padding and the data.
 *
 * The writer knows no ggml type table: a tensor's block size and bytes per
 * block are passed in by the caller (F32 is 1/4, F16 1/2, Q8_0 32/34,
 * Q4_0 32/18, Q4_K 256/144, Q6_K 256/210).
 *
 * Test-only code: invalid use (n_dims > 4 in the model builder, a row that
 * is not a whole number of blocks, an alignment that is not a power of two,
 * a size that overflows 64 bits) is a bug in the test and aborts.
 */
#ifndef GGUFLINT_GGUFW_H
#define GGUFLINT_GGUFW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/util.h"

/* GGUF value type ids (gguf.h, enum gguf_type). */
enum ggufw_type {
	GGUFW_UINT8 = 0,
	GGUFW_INT8 = 1,
	GGUFW_UINT16 = 2,
	GGUFW_INT16 = 3,
	GGUFW_UINT32 = 4,
	GGUFW_INT32 = 5,
	GGUFW_FLOAT32 = 6,
	GGUFW_BOOL = 7,
	GGUFW_STRING = 8,
	GGUFW_ARRAY = 9,
	GGUFW_UINT64 = 10,
	GGUFW_INT64 = 11,
	GGUFW_FLOAT64 = 12,
	GGUFW_TYPE_COUNT = 13
};

/* A few ggml tensor type ids, for convenience (ggml.h, enum ggml_type). */
enum ggufw_ggml_type {
	GGUFW_GGML_F32 = 0,
	GGUFW_GGML_F16 = 1,
	GGUFW_GGML_Q4_0 = 2,
	GGUFW_GGML_Q4_1 = 3,
	GGUFW_GGML_Q5_0 = 6,
	GGUFW_GGML_Q5_1 = 7,
	GGUFW_GGML_Q8_0 = 8,
	GGUFW_GGML_Q2_K = 10,
	GGUFW_GGML_Q3_K = 11,
	GGUFW_GGML_Q4_K = 12,
	GGUFW_GGML_Q5_K = 13,
	GGUFW_GGML_Q6_K = 14,
	GGUFW_GGML_BF16 = 30
};

#define GGUFW_DEFAULT_ALIGNMENT 32

/*
 * struct ggufw: the bytes written so far (out.len is the current offset)
 * and the byte order of every multi-byte number.  Strings and raw bytes are
 * never swapped; the magic is raw bytes.
 */
struct ggufw {
	struct strbuf out;
	bool big_endian;
};

void ggufw_init(struct ggufw *w, bool big_endian);
void ggufw_free(struct ggufw *w);

/* Raw fields. */
void ggufw_u8(struct ggufw *w, uint8_t v);
void ggufw_i8(struct ggufw *w, int8_t v);
void ggufw_u16(struct ggufw *w, uint16_t v);
void ggufw_i16(struct ggufw *w, int16_t v);
void ggufw_u32(struct ggufw *w, uint32_t v);
void ggufw_i32(struct ggufw *w, int32_t v);
void ggufw_u64(struct ggufw *w, uint64_t v);
void ggufw_i64(struct ggufw *w, int64_t v);
/* Floats are written as their IEEE-754 bit pattern in the writer's order. */
void ggufw_f32(struct ggufw *w, float v);
void ggufw_f64(struct ggufw *w, double v);
/* ggufw_f32_bits: a float32 given as its bit pattern (NaN payloads etc). */
void ggufw_f32_bits(struct ggufw *w, uint32_t bits);
void ggufw_f64_bits(struct ggufw *w, uint64_t bits);
void ggufw_bytes(struct ggufw *w, const void *p, size_t n);
/* A GGUF string: u64 length, then the bytes (no NUL). */
void ggufw_str(struct ggufw *w, const char *s);
void ggufw_strn(struct ggufw *w, const void *p, size_t n);
/* ggufw_strlen: a string whose declared length may lie: writes declared_len,
 * then exactly n bytes from p. */
void ggufw_strlen(struct ggufw *w, uint64_t declared_len, const void *p,
    size_t n);

/*
 * Records.
 *
 * ggufw_header: magic (exactly 4 bytes are copied from magic, normally
 * "GGUF"), u32 version, u64 n_tensors, u64 n_kv.
 */
void ggufw_header(struct ggufw *w, const char *magic, uint32_t version,
    uint64_t n_tensors, uint64_t n_kv);

/* ggufw_kv_head: key string then the i32 value type (any value, even an
 * invalid one); the caller writes the value. */
void ggufw_kv_head(struct ggufw *w, const char *key, int32_t type);

/* Complete scalar KV pairs. */
void ggufw_kv_u8(struct ggufw *w, const char *key, uint8_t v);
void ggufw_kv_i8(struct ggufw *w, const char *key, int8_t v);
void ggufw_kv_u16(struct ggufw *w, const char *key, uint16_t v);
void ggufw_kv_i16(struct ggufw *w, const char *key, int16_t v);
void ggufw_kv_u32(struct ggufw *w, const char *key, uint32_t v);
void ggufw_kv_i32(struct ggufw *w, const char *key, int32_t v);
void ggufw_kv_f32(struct ggufw *w, const char *key, float v);
/* ggufw_kv_bool: the raw byte is written as given (0/1 legal, others not). */
void ggufw_kv_bool(struct ggufw *w, const char *key, uint8_t v);
void ggufw_kv_u64(struct ggufw *w, const char *key, uint64_t v);
void ggufw_kv_i64(struct ggufw *w, const char *key, int64_t v);
void ggufw_kv_f64(struct ggufw *w, const char *key, double v);
void ggufw_kv_str(struct ggufw *w, const char *key, const char *v);

/*
 * ggufw_kv_arr_begin: key, type ARRAY, i32 elem_type, u64 count.  The
 * caller then writes the elements with the raw writers (ggufw_str for
 * strings).  Nothing ties count to what is written after it.
 */
void ggufw_kv_arr_begin(struct ggufw *w, const char *key, int32_t elem_type,
    uint64_t count);

/*
 * ggufw_tensor_info: name string, u32 n_dims, n_dims i64 dimensions from ne
 * (ne may be NULL when n_dims is 0), i32 ggml type, u64 offset.  n_dims is
 * not limited to 4 here.
 */
void ggufw_tensor_info(struct ggufw *w, const char *name, uint32_t n_dims,
    const int64_t ne[], int32_t type, uint64_t offset);

/* ggufw_pad: append zero bytes until out.len is a multiple of align
 * (align > 0, any value); ggufw_pad_with: the same with another byte. */
void ggufw_pad(struct ggufw *w, uint64_t align);
void ggufw_pad_with(struct ggufw *w, uint64_t align, uint8_t byte);

/*
 * ggufw_write_file: create or truncate path and write n bytes from p.
 * Returns 0, or -1 with errno set.
 */
int ggufw_write_file(const char *path, const void *p, size_t n);

/*
 * The builder of well-formed files.
 */

enum ggufw_data_mode {
	/* Stop after the padding that precedes the data blob. */
	GGUFW_DATA_NONE,
	/* Every tensor's bytes zero. */
	GGUFW_DATA_ZERO,
	/*
	 * Deterministic pseudo-random bytes, the same for the same model on
	 * every run.  Every 16-bit word of a tensor (counted from the tensor's
	 * start, in the file's byte order) has a high byte whose exponent
	 * bits keep it finite, so F32, F16 and BF16 values and the f16 scales
	 * of the quantized blocks are finite: a --deep scan finds no NaN/Inf.
	 */
	GGUFW_DATA_RANDOM
};

struct ggufw_model_tensor {
	char *name;
	uint32_t n_dims;
	int64_t ne[4];
	int32_t type;
	uint64_t nbytes;	/* exact size of the data */
	uint64_t offset;	/* relative to the start of the data blob */
};

struct ggufw_model {
	uint32_t version;	/* 3 after init; a test may change it */
	uint64_t alignment;
	struct ggufw kv;	/* the KV pairs, serialized as they are added */
	uint64_t n_kv;
	struct ggufw_model_tensor *tensors;
	size_t n_tensors;
	size_t cap_tensors;
	uint64_t data_size;	/* sum of the tensors' padded sizes */
};

/* ggufw_model_init: an empty model (alignment: a power of two; it is not
 * written as general.alignment unless the caller adds that KV). */
void ggufw_model_init(struct ggufw_model *m, bool big_endian,
    uint64_t alignment);
void ggufw_model_free(struct ggufw_model *m);

void ggufw_model_kv_u8(struct ggufw_model *m, const char *key, uint8_t v);
void ggufw_model_kv_i8(struct ggufw_model *m, const char *key, int8_t v);
void ggufw_model_kv_u16(struct ggufw_model *m, const char *key, uint16_t v);
void ggufw_model_kv_i16(struct ggufw_model *m, const char *key, int16_t v);
void ggufw_model_kv_u32(struct ggufw_model *m, const char *key, uint32_t v);
void ggufw_model_kv_i32(struct ggufw_model *m, const char *key, int32_t v);
void ggufw_model_kv_f32(struct ggufw_model *m, const char *key, float v);
void ggufw_model_kv_bool(struct ggufw_model *m, const char *key, bool v);
void ggufw_model_kv_u64(struct ggufw_model *m, const char *key, uint64_t v);
void ggufw_model_kv_i64(struct ggufw_model *m, const char *key, int64_t v);
void ggufw_model_kv_f64(struct ggufw_model *m, const char *key, double v);
void ggufw_model_kv_str(struct ggufw_model *m, const char *key,
    const char *v);
void ggufw_model_kv_arr_str(struct ggufw_model *m, const char *key,
    const char *const v[], size_t n);
void ggufw_model_kv_arr_u8(struct ggufw_model *m, const char *key,
    const uint8_t v[], size_t n);
void ggufw_model_kv_arr_i32(struct ggufw_model *m, const char *key,
    const int32_t v[], size_t n);
void ggufw_model_kv_arr_u32(struct ggufw_model *m, const char *key,
    const uint32_t v[], size_t n);
void ggufw_model_kv_arr_f32(struct ggufw_model *m, const char *key,
    const float v[], size_t n);

/*
 * ggufw_model_kv_raw: for a KV pair the helpers above do not cover (a
 * large array written element by element, an odd type).  Counts one more
 * KV pair and returns the writer the pairs are kept in; the caller must
 * write exactly one complete pair to it before the next call.
 */
struct ggufw *ggufw_model_kv_raw(struct ggufw_model *m);

/*
 * ggufw_model_tensor: add a tensor of n_dims (1..4) dimensions, ne[0]
 * innermost, of ggml type id type, whose blocks hold blck_size elements in
 * type_size bytes.  Its offset is the end of the previous tensor padded to
 * the alignment.  Returns the tensor's index.
 */
size_t ggufw_model_tensor(struct ggufw_model *m, const char *name,
    uint32_t n_dims, const int64_t ne[], int32_t type, uint32_t blck_size,
    uint32_t type_size);

/* ggufw_model_header_size: bytes before the data blob (header, KVs,
 * tensor infos, and the padding when there are tensors). */
uint64_t ggufw_model_header_size(const struct ggufw_model *m);
/* ggufw_model_file_size: header size plus the padded data blob. */
uint64_t ggufw_model_file_size(const struct ggufw_model *m);

/*
 * ggufw_model_finish: append the whole file to out (the layout's offsets
 * are counted from where it starts in out, so pass an empty buffer) and
 * return the header size, which is where the data blob starts.  The model
 * is left as it was, and may be finished again.
 */
uint64_t ggufw_model_finish(const struct ggufw_model *m, struct strbuf *out,
    enum ggufw_data_mode data_mode);

/*
 * ggufw_model_finish_sparse: write the header (up to the data blob) to
 * path, then extend the file with ftruncate() to its full size, so the
 * tensor data is a hole that reads as zeros and takes no disk space.
 * Returns 0, or -1 with errno set.
 */
int ggufw_model_finish_sparse(const struct ggufw_model *m, const char *path);

#endif
