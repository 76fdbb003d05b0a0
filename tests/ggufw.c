/*
 * ggufw.c - the GGUF writer used to build test cases (see ggufw.h).
 */
#if !defined(_GNU_SOURCE) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L
#endif

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ggufw.h"

void
ggufw_init(struct ggufw *w, bool big_endian)
{
	strbuf_init(&w->out);
	w->big_endian = big_endian;
}

void
ggufw_free(struct ggufw *w)
{
	strbuf_free(&w->out);
}

/* ggufw_uint: append the low nbytes bytes of v in the writer's order. */
static void
ggufw_uint(struct ggufw *w, uint64_t v, unsigned nbytes)
{
	unsigned char b[8];
	unsigned i;

	for (i = 0; i < nbytes; i++) {
		unsigned shift = 8 * (w->big_endian ? nbytes - 1 - i : i);

		b[i] = (unsigned char)(v >> shift);
	}
	strbuf_add(&w->out, b, nbytes);
}

void
ggufw_u8(struct ggufw *w, uint8_t v)
{
	ggufw_uint(w, v, 1);
}

void
ggufw_i8(struct ggufw *w, int8_t v)
{
	ggufw_uint(w, (uint8_t)v, 1);
}

void
ggufw_u16(struct ggufw *w, uint16_t v)
{
	ggufw_uint(w, v, 2);
}

void
ggufw_i16(struct ggufw *w, int16_t v)
{
	ggufw_uint(w, (uint16_t)v, 2);
}

void
ggufw_u32(struct ggufw *w, uint32_t v)
{
	ggufw_uint(w, v, 4);
}

void
ggufw_i32(struct ggufw *w, int32_t v)
{
	ggufw_uint(w, (uint32_t)v, 4);
}

void
ggufw_u64(struct ggufw *w, uint64_t v)
{
	ggufw_uint(w, v, 8);
}

void
ggufw_i64(struct ggufw *w, int64_t v)
{
	ggufw_uint(w, (uint64_t)v, 8);
}

void
ggufw_f32_bits(struct ggufw *w, uint32_t bits)
{
	ggufw_uint(w, bits, 4);
}

void
ggufw_f64_bits(struct ggufw *w, uint64_t bits)
{
	ggufw_uint(w, bits, 8);
}

void
ggufw_f32(struct ggufw *w, float v)
{
	uint32_t bits;

	memcpy(&bits, &v, sizeof(bits));
	ggufw_f32_bits(w, bits);
}

void
ggufw_f64(struct ggufw *w, double v)
{
	uint64_t bits;

	memcpy(&bits, &v, sizeof(bits));
	ggufw_f64_bits(w, bits);
}

void
ggufw_bytes(struct ggufw *w, const void *p, size_t n)
{
	strbuf_add(&w->out, p, n);
}

void
ggufw_str(struct ggufw *w, const char *s)
{
	ggufw_strn(w, s, strlen(s));
}

void
ggufw_strn(struct ggufw *w, const void *p, size_t n)
{
	ggufw_strlen(w, n, p, n);
}

void
ggufw_strlen(struct ggufw *w, uint64_t declared_len, const void *p, size_t n)
{
	ggufw_u64(w, declared_len);
	ggufw_bytes(w, p, n);
}

void
ggufw_header(struct ggufw *w, const char *magic, uint32_t version,
    uint64_t n_tensors, uint64_t n_kv)
{
	ggufw_bytes(w, magic, 4);
	ggufw_u32(w, version);
	ggufw_u64(w, n_tensors);
	ggufw_u64(w, n_kv);
}

void
ggufw_kv_head(struct ggufw *w, const char *key, int32_t type)
{
	ggufw_str(w, key);
	ggufw_i32(w, type);
}

void
ggufw_kv_u8(struct ggufw *w, const char *key, uint8_t v)
{
	ggufw_kv_head(w, key, GGUFW_UINT8);
	ggufw_u8(w, v);
}

void
ggufw_kv_i8(struct ggufw *w, const char *key, int8_t v)
{
	ggufw_kv_head(w, key, GGUFW_INT8);
	ggufw_i8(w, v);
}

void
ggufw_kv_u16(struct ggufw *w, const char *key, uint16_t v)
{
	ggufw_kv_head(w, key, GGUFW_UINT16);
	ggufw_u16(w, v);
}

void
ggufw_kv_i16(struct ggufw *w, const char *key, int16_t v)
{
	ggufw_kv_head(w, key, GGUFW_INT16);
	ggufw_i16(w, v);
}

void
ggufw_kv_u32(struct ggufw *w, const char *key, uint32_t v)
{
	ggufw_kv_head(w, key, GGUFW_UINT32);
	ggufw_u32(w, v);
}

void
ggufw_kv_i32(struct ggufw *w, const char *key, int32_t v)
{
	ggufw_kv_head(w, key, GGUFW_INT32);
	ggufw_i32(w, v);
}

void
ggufw_kv_f32(struct ggufw *w, const char *key, float v)
{
	ggufw_kv_head(w, key, GGUFW_FLOAT32);
	ggufw_f32(w, v);
}

void
ggufw_kv_bool(struct ggufw *w, const char *key, uint8_t v)
{
	ggufw_kv_head(w, key, GGUFW_BOOL);
	ggufw_u8(w, v);
}

void
ggufw_kv_u64(struct ggufw *w, const char *key, uint64_t v)
{
	ggufw_kv_head(w, key, GGUFW_UINT64);
	ggufw_u64(w, v);
}

void
ggufw_kv_i64(struct ggufw *w, const char *key, int64_t v)
{
	ggufw_kv_head(w, key, GGUFW_INT64);
	ggufw_i64(w, v);
}

void
ggufw_kv_f64(struct ggufw *w, const char *key, double v)
{
	ggufw_kv_head(w, key, GGUFW_FLOAT64);
	ggufw_f64(w, v);
}

void
ggufw_kv_str(struct ggufw *w, const char *key, const char *v)
{
	ggufw_kv_head(w, key, GGUFW_STRING);
	ggufw_str(w, v);
}

void
ggufw_kv_arr_begin(struct ggufw *w, const char *key, int32_t elem_type,
    uint64_t count)
{
	ggufw_kv_head(w, key, GGUFW_ARRAY);
	ggufw_i32(w, elem_type);
	ggufw_u64(w, count);
}

void
ggufw_tensor_info(struct ggufw *w, const char *name, uint32_t n_dims,
    const int64_t ne[], int32_t type, uint64_t offset)
{
	uint32_t i;

	ggufw_str(w, name);
	ggufw_u32(w, n_dims);
	for (i = 0; i < n_dims; i++)
		ggufw_i64(w, ne[i]);
	ggufw_i32(w, type);
	ggufw_u64(w, offset);
}

void
ggufw_pad_with(struct ggufw *w, uint64_t align, uint8_t byte)
{
	assert(align > 0);
	while ((uint64_t)w->out.len % align != 0)
		strbuf_addc(&w->out, (char)byte);
}

void
ggufw_pad(struct ggufw *w, uint64_t align)
{
	ggufw_pad_with(w, align, 0);
}

/* write_all: write n bytes to fd, retrying short writes.  0 or -1/errno. */
static int
write_all(int fd, const void *p, size_t n)
{
	const char *c = p;

	while (n > 0) {
		ssize_t k = write(fd, c, n);

		if (k < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		c += k;
		n -= (size_t)k;
	}
	return 0;
}

/*
 * write_then_extend: create or truncate path, write n bytes from p, then
 * set the file's size to total (>= n) with ftruncate.  0 or -1/errno.
 */
static int
write_then_extend(const char *path, const void *p, size_t n, uint64_t total)
{
	int fd, saved;

	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		return -1;
	if (write_all(fd, p, n) < 0)
		goto fail;
	if (total > n) {
		if ((uint64_t)(off_t)total != total || (off_t)total < 0) {
			errno = EFBIG;
			goto fail;
		}
		if (ftruncate(fd, (off_t)total) < 0)
			goto fail;
	}
	if (close(fd) < 0)
		return -1;
	return 0;
fail:
	saved = errno;
	close(fd);
	errno = saved;
	return -1;
}

int
ggufw_write_file(const char *path, const void *p, size_t n)
{
	return write_then_extend(path, p, n, n);
}

/*
 * The model builder.
 */

static bool
is_pow2(uint64_t x)
{
	return x != 0 && (x & (x - 1)) == 0;
}

static uint64_t
checked_mul(uint64_t a, uint64_t b)
{
	uint64_t r;

	if (u64_mul_overflow(a, b, &r)) {
		fputs("ggufw: size overflows 64 bits\n", stderr);
		abort();
	}
	return r;
}

static uint64_t
checked_add(uint64_t a, uint64_t b)
{
	uint64_t r;

	if (u64_add_overflow(a, b, &r)) {
		fputs("ggufw: size overflows 64 bits\n", stderr);
		abort();
	}
	return r;
}

static uint64_t
checked_pad(uint64_t x, uint64_t align)
{
	uint64_t r;

	if (u64_pad_overflow(x, align, &r)) {
		fputs("ggufw: size overflows 64 bits\n", stderr);
		abort();
	}
	return r;
}

void
ggufw_model_init(struct ggufw_model *m, bool big_endian, uint64_t alignment)
{
	assert(is_pow2(alignment));
	m->version = 3;
	m->alignment = alignment;
	ggufw_init(&m->kv, big_endian);
	m->n_kv = 0;
	m->tensors = NULL;
	m->n_tensors = 0;
	m->cap_tensors = 0;
	m->data_size = 0;
}

void
ggufw_model_free(struct ggufw_model *m)
{
	size_t i;

	for (i = 0; i < m->n_tensors; i++)
		free(m->tensors[i].name);
	free(m->tensors);
	ggufw_free(&m->kv);
	m->tensors = NULL;
	m->n_tensors = 0;
	m->cap_tensors = 0;
	m->n_kv = 0;
	m->data_size = 0;
}

struct ggufw *
ggufw_model_kv_raw(struct ggufw_model *m)
{
	m->n_kv++;
	return &m->kv;
}

void
ggufw_model_kv_u8(struct ggufw_model *m, const char *key, uint8_t v)
{
	ggufw_kv_u8(ggufw_model_kv_raw(m), key, v);
}

void
ggufw_model_kv_i8(struct ggufw_model *m, const char *key, int8_t v)
{
	ggufw_kv_i8(ggufw_model_kv_raw(m), key, v);
}

void
ggufw_model_kv_u16(struct ggufw_model *m, const char *key, uint16_t v)
{
	ggufw_kv_u16(ggufw_model_kv_raw(m), key, v);
}

void
ggufw_model_kv_i16(struct ggufw_model *m, const char *key, int16_t v)
{
	ggufw_kv_i16(ggufw_model_kv_raw(m), key, v);
}

void
ggufw_model_kv_u32(struct ggufw_model *m, const char *key, uint32_t v)
{
	ggufw_kv_u32(ggufw_model_kv_raw(m), key, v);
}

void
ggufw_model_kv_i32(struct ggufw_model *m, const char *key, int32_t v)
{
	ggufw_kv_i32(ggufw_model_kv_raw(m), key, v);
}

void
ggufw_model_kv_f32(struct ggufw_model *m, const char *key, float v)
{
	ggufw_kv_f32(ggufw_model_kv_raw(m), key, v);
}

void
ggufw_model_kv_bool(struct ggufw_model *m, const char *key, bool v)
{
	ggufw_kv_bool(ggufw_model_kv_raw(m), key, v ? 1 : 0);
}

void
ggufw_model_kv_u64(struct ggufw_model *m, const char *key, uint64_t v)
{
	ggufw_kv_u64(ggufw_model_kv_raw(m), key, v);
}

void
ggufw_model_kv_i64(struct ggufw_model *m, const char *key, int64_t v)
{
	ggufw_kv_i64(ggufw_model_kv_raw(m), key, v);
}

void
ggufw_model_kv_f64(struct ggufw_model *m, const char *key, double v)
{
	ggufw_kv_f64(ggufw_model_kv_raw(m), key, v);
}

void
ggufw_model_kv_str(struct ggufw_model *m, const char *key, const char *v)
{
	ggufw_kv_str(ggufw_model_kv_raw(m), key, v);
}

void
ggufw_model_kv_arr_str(struct ggufw_model *m, const char *key,
    const char *const v[], size_t n)
{
	struct ggufw *w = ggufw_model_kv_raw(m);
	size_t i;

	ggufw_kv_arr_begin(w, key, GGUFW_STRING, n);
	for (i = 0; i < n; i++)
		ggufw_str(w, v[i]);
}

void
ggufw_model_kv_arr_u8(struct ggufw_model *m, const char *key,
    const uint8_t v[], size_t n)
{
	struct ggufw *w = ggufw_model_kv_raw(m);

	ggufw_kv_arr_begin(w, key, GGUFW_UINT8, n);
	ggufw_bytes(w, v, n);
}

void
ggufw_model_kv_arr_i32(struct ggufw_model *m, const char *key,
    const int32_t v[], size_t n)
{
	struct ggufw *w = ggufw_model_kv_raw(m);
	size_t i;

	ggufw_kv_arr_begin(w, key, GGUFW_INT32, n);
	for (i = 0; i < n; i++)
		ggufw_i32(w, v[i]);
}

void
ggufw_model_kv_arr_u32(struct ggufw_model *m, const char *key,
    const uint32_t v[], size_t n)
{
	struct ggufw *w = ggufw_model_kv_raw(m);
	size_t i;

	ggufw_kv_arr_begin(w, key, GGUFW_UINT32, n);
	for (i = 0; i < n; i++)
		ggufw_u32(w, v[i]);
}

void
ggufw_model_kv_arr_f32(struct ggufw_model *m, const char *key,
    const float v[], size_t n)
{
	struct ggufw *w = ggufw_model_kv_raw(m);
	size_t i;

	ggufw_kv_arr_begin(w, key, GGUFW_FLOAT32, n);
	for (i = 0; i < n; i++)
		ggufw_f32(w, v[i]);
}

size_t
ggufw_model_tensor(struct ggufw_model *m, const char *name, uint32_t n_dims,
    const int64_t ne[], int32_t type, uint32_t blck_size, uint32_t type_size)
{
	struct ggufw_model_tensor *t;
	uint64_t nbytes;
	uint32_t i;

	assert(n_dims >= 1 && n_dims <= 4);
	assert(blck_size > 0 && type_size > 0);
	if (m->n_tensors == m->cap_tensors) {
		m->cap_tensors = m->cap_tensors ? 2 * m->cap_tensors : 16;
		m->tensors = xreallocarray(m->tensors, m->cap_tensors,
		    sizeof(*m->tensors));
	}
	t = &m->tensors[m->n_tensors];
	t->name = xstrdup(name);
	t->n_dims = n_dims;
	t->type = type;
	for (i = 0; i < 4; i++)
		t->ne[i] = i < n_dims ? ne[i] : 1;
	for (i = 0; i < n_dims; i++)
		assert(ne[i] >= 0);
	assert(ne[0] % blck_size == 0);

	/* Whole blocks per row first, so no intermediate product is larger
	 * than the result. */
	nbytes = checked_mul((uint64_t)t->ne[0] / blck_size, type_size);
	for (i = 1; i < 4; i++)
		nbytes = checked_mul(nbytes, (uint64_t)t->ne[i]);
	t->nbytes = nbytes;
	t->offset = m->data_size;
	m->data_size = checked_add(m->data_size,
	    checked_pad(nbytes, m->alignment));
	return m->n_tensors++;
}

/* model_header: the bytes before the data blob, appended to w. */
static void
model_header(const struct ggufw_model *m, struct ggufw *w)
{
	size_t base = w->out.len;
	size_t i;

	ggufw_header(w, "GGUF", m->version, m->n_tensors, m->n_kv);
	ggufw_bytes(w, m->kv.out.buf, m->kv.out.len);
	for (i = 0; i < m->n_tensors; i++) {
		const struct ggufw_model_tensor *t = &m->tensors[i];

		ggufw_tensor_info(w, t->name, t->n_dims, t->ne, t->type,
		    t->offset);
	}
	if (m->n_tensors > 0)
		while ((w->out.len - base) % m->alignment != 0)
			strbuf_addc(&w->out, 0);
}

uint64_t
ggufw_model_header_size(const struct ggufw_model *m)
{
	uint64_t n = 24 + (uint64_t)m->kv.out.len;
	size_t i;

	for (i = 0; i < m->n_tensors; i++) {
		const struct ggufw_model_tensor *t = &m->tensors[i];

		/* name, n_dims, dims, type, offset */
		n += 8 + strlen(t->name) + 4 + 8 * (uint64_t)t->n_dims + 4 + 8;
	}
	if (m->n_tensors > 0)
		n = checked_pad(n, m->alignment);
	return n;
}

uint64_t
ggufw_model_file_size(const struct ggufw_model *m)
{
	return checked_add(ggufw_model_header_size(m), m->data_size);
}

/* splitmix64: the next value of a small deterministic generator. */
static uint64_t
splitmix64(uint64_t *state)
{
	uint64_t z;

	*state += 0x9e3779b97f4a7c15u;
	z = *state;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
	return z ^ (z >> 31);
}

/*
 * random_data: append n pseudo-random bytes for tensor number index.  In
 * each 16-bit word the high byte (second in little-endian order, first in
 * big-endian order) keeps the sign bit random and stays below 0x3c, so the
 * exponent of any f16, bf16 or f32 value it is the top of is finite.
 */
static void
random_data(struct strbuf *out, uint64_t n, size_t index, bool big_endian)
{
	uint64_t state = 0x6767756677726974u ^ ((uint64_t)index << 32);
	unsigned char chunk[4096];
	uint64_t done = 0;

	while (done < n) {
		size_t k = sizeof(chunk), j;

		if (n - done < k)
			k = (size_t)(n - done);
		for (j = 0; j < k; j += 8) {
			uint64_t r = splitmix64(&state);
			size_t b;

			for (b = 0; b < 8 && j + b < k; b++)
				chunk[j + b] = (unsigned char)(r >> (8 * b));
		}
		/* done is even at each chunk boundary (chunk size is). */
		for (j = big_endian ? 0 : 1; j < k; j += 2)
			chunk[j] = (unsigned char)((chunk[j] & 0x80) |
			    ((chunk[j] & 0x7f) % 0x3c));
		strbuf_add(out, chunk, k);
		done += k;
	}
}

static void
add_zeros(struct strbuf *out, uint64_t n)
{
	static const unsigned char zeros[4096];

	while (n > 0) {
		size_t k = n < sizeof(zeros) ? (size_t)n : sizeof(zeros);

		strbuf_add(out, zeros, k);
		n -= k;
	}
}

uint64_t
ggufw_model_finish(const struct ggufw_model *m, struct strbuf *out,
    enum ggufw_data_mode data_mode)
{
	struct ggufw w;
	uint64_t header_size;
	size_t i;

	ggufw_init(&w, m->kv.big_endian);
	model_header(m, &w);
	header_size = w.out.len;
	assert(header_size == ggufw_model_header_size(m));
	strbuf_add(out, w.out.buf, w.out.len);
	ggufw_free(&w);
	if (data_mode == GGUFW_DATA_NONE)
		return header_size;

	for (i = 0; i < m->n_tensors; i++) {
		const struct ggufw_model_tensor *t = &m->tensors[i];
		uint64_t padded = checked_pad(t->nbytes, m->alignment);
		uint64_t k;

		if (data_mode == GGUFW_DATA_RANDOM) {
			random_data(out, t->nbytes, i, m->kv.big_endian);
			k = padded - t->nbytes;
		} else {
			k = padded;
		}
		add_zeros(out, k);
	}
	return header_size;
}

int
ggufw_model_finish_sparse(const struct ggufw_model *m, const char *path)
{
	struct ggufw w;
	int rc;

	ggufw_init(&w, m->kv.big_endian);
	model_header(m, &w);
	rc = write_then_extend(path, w.out.buf, w.out.len,
	    ggufw_model_file_size(m));
	ggufw_free(&w);
	return rc;
}
