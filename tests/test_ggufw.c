/*
 * test_ggufw.c - tests of the test helpers themselves: the GGUF writer
 * (tests/ggufw.c) and the JSON tree parser and comparer (tests/jsontree.c).
 * The other tests trust these two, so they are checked here against
 * bytes worked out by hand and against files written by other tools.
 */
#if !defined(_GNU_SOURCE) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L
#endif

#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ggufw.h"
#include "jsontree.h"
#include "shared_path.h"
#include "base/util.h"

/*
 * Helpers.
 */

static uint64_t
rd(const struct strbuf *sb, size_t off, unsigned n, bool be)
{
	uint64_t v = 0;
	unsigned i;

	cr_assert_leq(off + n, sb->len, "read of %u bytes at %zu past end %zu",
	    n, off, sb->len);
	for (i = 0; i < n; i++) {
		unsigned char b = (unsigned char)sb->buf[off + i];

		v |= (uint64_t)b << (8 * (be ? n - 1 - i : i));
	}
	return v;
}

/* A cursor that reads a GGUF back, independently of the writer. */
struct cursor {
	const struct strbuf *sb;
	size_t pos;
	bool be;
};

static uint64_t
cur_uint(struct cursor *c, unsigned n)
{
	uint64_t v = rd(c->sb, c->pos, n, c->be);

	c->pos += n;
	return v;
}

static void
cur_expect_str(struct cursor *c, const char *s)
{
	uint64_t len = cur_uint(c, 8);

	cr_assert_eq(len, strlen(s), "string at %zu: length %llu, want %zu",
	    c->pos - 8, (unsigned long long)len, strlen(s));
	cr_assert_leq(c->pos + len, c->sb->len);
	cr_assert(memcmp(c->sb->buf + c->pos, s, len) == 0,
	    "string at %zu is not \"%s\"", c->pos, s);
	c->pos += len;
}

static float
bits_f32(uint32_t bits)
{
	float f;

	memcpy(&f, &bits, sizeof(f));
	return f;
}

/* shared_file: test_shared_dir() + "/" + rest (caller frees), or NULL. */
static char *
shared_file(const char *rest)
{
	const char *dir = test_shared_dir();

	if (dir == NULL)
		return NULL;
	return xasprintf("%s/%s", dir, rest);
}

/* slurp: the whole file, or NULL. */
static bool
slurp(const char *path, struct strbuf *out)
{
	FILE *fp = fopen(path, "rb");
	char buf[8192];
	size_t k;

	if (fp == NULL)
		return false;
	while ((k = fread(buf, 1, sizeof(buf), fp)) > 0)
		strbuf_add(out, buf, k);
	fclose(fp);
	return true;
}

/*
 * Raw writers.
 */

Test(ggufw, raw_fields_little_endian)
{
	static const unsigned char want[] = {
		0xab,
		0x34, 0x12,
		0x78, 0x56, 0x34, 0x12,
		0xfe, 0xff, 0xff, 0xff,
		0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01,
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
		0x00, 0x00, 0x80, 0x3f,
		0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xf0, 0xbf,
		0x02, 0, 0, 0, 0, 0, 0, 0, 'a', 'b',
		0xff, 0, 0, 0, 0, 0, 0, 0, 'x',
	};
	struct ggufw w;

	ggufw_init(&w, false);
	ggufw_u8(&w, 0xab);
	ggufw_u16(&w, 0x1234);
	ggufw_u32(&w, 0x12345678);
	ggufw_i32(&w, -2);
	ggufw_u64(&w, 0x0102030405060708u);
	ggufw_i64(&w, -1);
	ggufw_f32(&w, 1.0f);
	ggufw_f64(&w, -1.0);
	ggufw_str(&w, "ab");
	ggufw_strlen(&w, 255, "x", 1);
	cr_assert_eq(w.out.len, sizeof(want));
	cr_assert(memcmp(w.out.buf, want, sizeof(want)) == 0);
	ggufw_free(&w);
}

Test(ggufw, raw_fields_big_endian)
{
	static const unsigned char want[] = {
		0x12, 0x34,
		0x12, 0x34, 0x56, 0x78,
		0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08,
		0x3f, 0x80, 0x00, 0x00,
		0xbf, 0xf0, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
		0, 0, 0, 0, 0, 0, 0, 0x02, 'a', 'b',
		'G', 'G', 'U', 'F', 0, 0, 0, 3,
		0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 2,
	};
	struct ggufw w;

	ggufw_init(&w, true);
	ggufw_u16(&w, 0x1234);
	ggufw_u32(&w, 0x12345678);
	ggufw_u64(&w, 0x0102030405060708u);
	ggufw_f32(&w, 1.0f);
	ggufw_f64(&w, -1.0);
	ggufw_strn(&w, "abc", 2);
	ggufw_header(&w, "GGUF", 3, 1, 2);
	cr_assert_eq(w.out.len, sizeof(want));
	cr_assert(memcmp(w.out.buf, want, sizeof(want)) == 0);
	ggufw_free(&w);
}

Test(ggufw, records_and_padding)
{
	static const int64_t ne[2] = { 32, 7 };
	struct ggufw w;
	struct cursor c;
	size_t i;

	ggufw_init(&w, false);
	ggufw_kv_bool(&w, "b", 2);
	ggufw_kv_arr_begin(&w, "arr", GGUFW_UINT16, 2);
	ggufw_u16(&w, 1);
	ggufw_u16(&w, 2);
	ggufw_kv_head(&w, "bad", 0x7fffffff);
	ggufw_tensor_info(&w, "t", 2, ne, GGUFW_GGML_Q8_0, 96);
	cr_assert_eq(w.out.len, 14 + 31 + 15 + 8 + 1 + 4 + 16 + 4 + 8);
	ggufw_pad(&w, 32);
	cr_assert_eq(w.out.len, 128);
	ggufw_pad(&w, 32);
	cr_assert_eq(w.out.len, 128);
	ggufw_u8(&w, 1);
	ggufw_pad_with(&w, 7, 0xee);
	cr_assert_eq(w.out.len, 133);
	for (i = 129; i < 133; i++)
		cr_assert_eq((unsigned char)w.out.buf[i], 0xee);

	c.sb = &w.out;
	c.pos = 0;
	c.be = false;
	cur_expect_str(&c, "b");
	cr_assert_eq(cur_uint(&c, 4), GGUFW_BOOL);
	cr_assert_eq(cur_uint(&c, 1), 2);
	cur_expect_str(&c, "arr");
	cr_assert_eq(cur_uint(&c, 4), GGUFW_ARRAY);
	cr_assert_eq(cur_uint(&c, 4), GGUFW_UINT16);
	cr_assert_eq(cur_uint(&c, 8), 2);
	cr_assert_eq(cur_uint(&c, 2), 1);
	cr_assert_eq(cur_uint(&c, 2), 2);
	cur_expect_str(&c, "bad");
	cr_assert_eq(cur_uint(&c, 4), 0x7fffffff);
	cur_expect_str(&c, "t");
	cr_assert_eq(cur_uint(&c, 4), 2);
	cr_assert_eq(cur_uint(&c, 8), 32);
	cr_assert_eq(cur_uint(&c, 8), 7);
	cr_assert_eq(cur_uint(&c, 4), GGUFW_GGML_Q8_0);
	cr_assert_eq(cur_uint(&c, 8), 96);
	for (i = c.pos; i < 128; i++)
		cr_assert_eq(w.out.buf[i], 0);
	ggufw_free(&w);
}

/*
 * The model builder.
 *
 * The small model: alignment 64, six KV pairs, four tensors.
 *
 *   header                                        24    [0, 24)
 *   general.architecture = "llama"  8+20+4+8+5  = 45    [24, 69)
 *   general.alignment = 64          8+17+4+4    = 33    [69, 102)
 *   llama.block_count = 2           8+17+4+4    = 33    [102, 135)
 *   tokenizer.ggml.tokens ["a","bc"] 8+21+4+4+8+9+10 = 64 [135, 199)
 *   tokenizer.ggml.scores [.5,-1]   8+21+4+4+8+8 = 53   [199, 252)
 *   tokenizer.ggml.token_type [1,3] 8+25+4+4+8+8 = 57   [252, 309)
 *   tensor a F32 8x3     8+1+4+16+4+8 = 41             [309, 350)
 *   tensor b Q8_0 64x2                41             [350, 391)
 *   tensor c Q4_K 256    8+1+4+8+4+8  = 33             [391, 424)
 *   tensor d F16 5                    33             [424, 457)
 *   padding to 64                                      [457, 512)
 *   data: a 96 bytes (padded 128) at 0, b 2*2*34 = 136 (192) at 128,
 *         c 144 (192) at 320, d 10 (64) at 512; blob 576; file 1088.
 */

static void
small_model(struct ggufw_model *m, bool be)
{
	static const char *const tokens[] = { "a", "bc" };
	static const float scores[] = { 0.5f, -1.0f };
	static const int32_t types[] = { 1, 3 };
	static const int64_t ne_a[] = { 8, 3 }, ne_b[] = { 64, 2 };
	static const int64_t ne_c[] = { 256 }, ne_d[] = { 5 };

	ggufw_model_init(m, be, 64);
	ggufw_model_kv_str(m, "general.architecture", "llama");
	ggufw_model_kv_u32(m, "general.alignment", 64);
	ggufw_model_kv_u32(m, "llama.block_count", 2);
	ggufw_model_kv_arr_str(m, "tokenizer.ggml.tokens", tokens, 2);
	ggufw_model_kv_arr_f32(m, "tokenizer.ggml.scores", scores, 2);
	ggufw_model_kv_arr_i32(m, "tokenizer.ggml.token_type", types, 2);
	cr_assert_eq(ggufw_model_tensor(m, "a", 2, ne_a, GGUFW_GGML_F32, 1, 4),
	    0);
	cr_assert_eq(ggufw_model_tensor(m, "b", 2, ne_b, GGUFW_GGML_Q8_0, 32,
	    34), 1);
	cr_assert_eq(ggufw_model_tensor(m, "c", 1, ne_c, GGUFW_GGML_Q4_K, 256,
	    144), 2);
	cr_assert_eq(ggufw_model_tensor(m, "d", 1, ne_d, GGUFW_GGML_F16, 1, 2),
	    3);
}

/* Where the small model's tensors sit in the data blob, and their sizes. */
static const uint64_t small_offsets[] = { 0, 128, 320, 512 };
static const uint64_t small_nbytes[] = { 96, 136, 144, 10 };

/* The builder's own accounting of the small model, before it is written. */
static void
check_small_layout(const struct ggufw_model *m)
{
	size_t i;

	cr_assert_eq(m->n_kv, 6);
	cr_assert_eq(m->data_size, 576);
	cr_assert_eq(ggufw_model_header_size(m), 512);
	cr_assert_eq(ggufw_model_file_size(m), 1088);
	for (i = 0; i < 4; i++) {
		cr_assert_eq(m->tensors[i].offset, small_offsets[i]);
		cr_assert_eq(m->tensors[i].nbytes, small_nbytes[i]);
	}
}

/* Fields at fixed positions in the written small model. */
static void
check_small_fixed(const struct strbuf *out, bool be)
{
	static const size_t offset_fields[] = { 342, 383, 416, 449 };
	size_t i;

	cr_assert(memcmp(out->buf, "GGUF", 4) == 0);
	cr_assert_eq(rd(out, 4, 4, be), 3);
	cr_assert_eq(rd(out, 8, 8, be), 4);
	cr_assert_eq(rd(out, 16, 8, be), 6);
	cr_assert_eq(rd(out, 24, 8, be), 20);
	cr_assert(memcmp(out->buf + 32, "general.architecture", 20) == 0);
	cr_assert_eq(rd(out, 52, 4, be), GGUFW_STRING);
	cr_assert_eq(rd(out, 56, 8, be), 5);
	cr_assert(memcmp(out->buf + 64, "llama", 5) == 0);
	cr_assert_eq(rd(out, 69, 8, be), 17);
	for (i = 0; i < 4; i++)
		cr_assert_eq(rd(out, offset_fields[i], 8, be),
		    small_offsets[i], "tensor %zu offset", i);
	if (be) {
		cr_assert_eq(out->buf[4], 0);
		cr_assert_eq(out->buf[7], 3);
	} else {
		cr_assert_eq(out->buf[4], 3);
		cr_assert_eq(out->buf[7], 0);
	}
}

/* The small model's six KV pairs, read from c->pos = 24 on. */
static void
walk_small_kvs(struct cursor *c)
{
	cur_expect_str(c, "general.architecture");
	cr_assert_eq(cur_uint(c, 4), GGUFW_STRING);
	cur_expect_str(c, "llama");
	cr_assert_eq(c->pos, 69);
	cur_expect_str(c, "general.alignment");
	cr_assert_eq(cur_uint(c, 4), GGUFW_UINT32);
	cr_assert_eq(cur_uint(c, 4), 64);
	cur_expect_str(c, "llama.block_count");
	cr_assert_eq(cur_uint(c, 4), GGUFW_UINT32);
	cr_assert_eq(cur_uint(c, 4), 2);
	cr_assert_eq(c->pos, 135);
	cur_expect_str(c, "tokenizer.ggml.tokens");
	cr_assert_eq(cur_uint(c, 4), GGUFW_ARRAY);
	cr_assert_eq(cur_uint(c, 4), GGUFW_STRING);
	cr_assert_eq(cur_uint(c, 8), 2);
	cur_expect_str(c, "a");
	cur_expect_str(c, "bc");
	cr_assert_eq(c->pos, 199);
	cur_expect_str(c, "tokenizer.ggml.scores");
	cr_assert_eq(cur_uint(c, 4), GGUFW_ARRAY);
	cr_assert_eq(cur_uint(c, 4), GGUFW_FLOAT32);
	cr_assert_eq(cur_uint(c, 8), 2);
	cr_assert_eq(cur_uint(c, 4), 0x3f000000);
	cr_assert_eq(cur_uint(c, 4), 0xbf800000);
	cur_expect_str(c, "tokenizer.ggml.token_type");
	cr_assert_eq(cur_uint(c, 4), GGUFW_ARRAY);
	cr_assert_eq(cur_uint(c, 4), GGUFW_INT32);
	cr_assert_eq(cur_uint(c, 8), 2);
	cr_assert_eq(cur_uint(c, 4), 1);
	cr_assert_eq(cur_uint(c, 4), 3);
	cr_assert_eq(c->pos, 309);
}

/* The four tensor infos that follow the KVs, and the header's padding. */
static void
walk_small_tensor_infos(struct cursor *c, const struct ggufw_model *m)
{
	static const char *const names[] = { "a", "b", "c", "d" };
	static const uint32_t dims[] = { 2, 2, 1, 1 };
	static const int32_t types[] = { 0, 8, 12, 1 };
	size_t i, j;

	for (i = 0; i < 4; i++) {
		cur_expect_str(c, names[i]);
		cr_assert_eq(cur_uint(c, 4), dims[i]);
		for (j = 0; j < dims[i]; j++)
			cr_assert_eq(cur_uint(c, 8),
			    (uint64_t)m->tensors[i].ne[j]);
		cr_assert_eq(cur_uint(c, 4), (uint64_t)types[i]);
		cr_assert_eq(cur_uint(c, 8), small_offsets[i]);
	}
	cr_assert_eq(c->pos, 457);
	for (i = 457; i < 512; i++)
		cr_assert_eq(c->sb->buf[i], 0, "padding byte %zu", i);
}

/* Data at out + data: padding between tensors is zero, values finite. */
static void
check_small_data(const struct strbuf *out, uint64_t data, bool be)
{
	const uint64_t *off = small_offsets;
	size_t i, j;

	for (i = 0; i < 4; i++)
		for (j = data + off[i] + small_nbytes[i];
		    j < data + off[i] + (i < 3 ? off[i + 1] - off[i] : 64);
		    j++)
			cr_assert_eq(out->buf[j], 0, "tensor %zu pad at %zu",
			    i, j);
	for (i = 0; i < 24; i++) {
		float f = bits_f32((uint32_t)rd(out, data + 4 * i, 4, be));

		cr_assert(isfinite(f), "a[%zu] not finite", i);
	}
	for (i = 0; i < 5; i++) {
		uint64_t h = rd(out, data + off[3] + 2 * i, 2, be);

		cr_assert_neq(h & 0x7c00, 0x7c00, "d[%zu] not finite", i);
	}
	for (i = 0; i < 4; i++) {
		/* each Q8_0 block's f16 scale */
		uint64_t h = rd(out, data + off[1] + 34 * i, 2, be);

		cr_assert_neq(h & 0x7c00, 0x7c00, "b block %zu scale", i);
	}
}

/* Deterministic; NONE and ZERO agree with RANDOM's out where they should. */
static void
check_small_fills(const struct ggufw_model *m, const struct strbuf *out)
{
	struct strbuf again = STRBUF_INIT;
	struct strbuf none = STRBUF_INIT, zero = STRBUF_INIT;
	size_t i;

	ggufw_model_finish(m, &again, GGUFW_DATA_RANDOM);
	cr_assert_eq(again.len, out->len);
	cr_assert(memcmp(again.buf, out->buf, out->len) == 0);
	cr_assert_eq(ggufw_model_finish(m, &none, GGUFW_DATA_NONE), 512);
	cr_assert_eq(none.len, 512);
	cr_assert(memcmp(none.buf, out->buf, 512) == 0);
	ggufw_model_finish(m, &zero, GGUFW_DATA_ZERO);
	cr_assert_eq(zero.len, 1088);
	cr_assert(memcmp(zero.buf, out->buf, 512) == 0);
	for (i = 512; i < 1088; i++)
		cr_assert_eq(zero.buf[i], 0);
	strbuf_free(&again);
	strbuf_free(&none);
	strbuf_free(&zero);
}

static void
check_small_model(bool be)
{
	struct ggufw_model m;
	struct strbuf out = STRBUF_INIT;
	struct cursor c;
	uint64_t data;

	small_model(&m, be);
	check_small_layout(&m);
	data = ggufw_model_finish(&m, &out, GGUFW_DATA_RANDOM);
	cr_assert_eq(data, 512);
	cr_assert_eq(out.len, 1088);
	check_small_fixed(&out, be);

	/* Walk the whole header. */
	c.sb = &out;
	c.pos = 24;
	c.be = be;
	walk_small_kvs(&c);
	walk_small_tensor_infos(&c, &m);

	check_small_data(&out, data, be);
	check_small_fills(&m, &out);
	strbuf_free(&out);
	ggufw_model_free(&m);
}

Test(ggufw_model, small_little_endian)
{
	check_small_model(false);
}

Test(ggufw_model, small_big_endian)
{
	check_small_model(true);
}

Test(ggufw_model, byte_orders_differ_only_in_numbers)
{
	struct ggufw_model le, be;
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;

	small_model(&le, false);
	small_model(&be, true);
	ggufw_model_finish(&le, &a, GGUFW_DATA_NONE);
	ggufw_model_finish(&be, &b, GGUFW_DATA_NONE);
	cr_assert_eq(a.len, b.len);
	cr_assert(memcmp(a.buf, b.buf, 4) == 0);
	/* The first KV's key bytes are not swapped. */
	cr_assert(memcmp(a.buf + 32, b.buf + 32, 20) == 0);
	cr_assert(memcmp(a.buf, b.buf, a.len) != 0);
	strbuf_free(&a);
	strbuf_free(&b);
	ggufw_model_free(&le);
	ggufw_model_free(&be);
}

Test(ggufw_model, no_tensors_no_padding)
{
	struct ggufw_model m;
	struct strbuf out = STRBUF_INIT;

	ggufw_model_init(&m, false, 32);
	ggufw_model_kv_u8(&m, "x", 1);
	cr_assert_eq(ggufw_model_finish(&m, &out, GGUFW_DATA_RANDOM),
	    24 + 8 + 1 + 4 + 1);
	cr_assert_eq(out.len, 38);
	cr_assert_eq(ggufw_model_file_size(&m), 38);
	strbuf_free(&out);
	ggufw_model_free(&m);
}

/*
 * The writer reproduces, byte for byte, the header of a file gguf-py
 * wrote (zackshen-gguf/test-le-v3.gguf: alignment 64, 6 KVs, 3 F32
 * tensors, data at 448, file 1216 bytes).
 */
Test(ggufw_model, reproduces_a_gguf_py_header)
{
	static const char *const tokens[] = { "a", "b", "c", "d", "e" };
	static const int64_t n1[] = { 32 }, n2[] = { 64 }, n3[] = { 96 };
	char *path = shared_file("corpus/zackshen-gguf/test-le-v3.gguf");
	struct strbuf file = STRBUF_INIT, out = STRBUF_INIT;
	struct ggufw_model m;

	if (path == NULL)
		cr_skip_test("shared directory not found "
		    "(set GGUFLINT_SHARED)");
	cr_assert(slurp(path, &file), "cannot read %s", path);
	free(path);

	ggufw_model_init(&m, false, 64);
	ggufw_model_kv_str(&m, "general.architecture", "llama");
	ggufw_model_kv_u32(&m, "llama.block_count", 12);
	ggufw_model_kv_u32(&m, "answer", 42);
	ggufw_model_kv_f32(&m, "answer_in_float", 42.0f);
	ggufw_model_kv_arr_str(&m, "tokenizer.ggml.tokens", tokens, 5);
	ggufw_model_kv_u32(&m, "general.alignment", 64);
	ggufw_model_tensor(&m, "tensor1", 1, n1, GGUFW_GGML_F32, 1, 4);
	ggufw_model_tensor(&m, "tensor2", 1, n2, GGUFW_GGML_F32, 1, 4);
	ggufw_model_tensor(&m, "tensor3", 1, n3, GGUFW_GGML_F32, 1, 4);
	cr_assert_eq(ggufw_model_finish(&m, &out, GGUFW_DATA_NONE), 448);
	cr_assert_eq(ggufw_model_file_size(&m), file.len);
	cr_assert_geq(file.len, 448);
	cr_assert(memcmp(out.buf, file.buf, 448) == 0);
	strbuf_free(&out);
	strbuf_free(&file);
	ggufw_model_free(&m);
}

Test(ggufw_model, sparse_file_is_a_hole)
{
	static const int64_t ne[] = { 4096, 65536 };
	char path[] = "/tmp/ggufw-sparse-XXXXXX";
	struct strbuf header = STRBUF_INIT;
	struct ggufw_model m;
	struct stat st;
	char *back;
	FILE *fp;
	uint64_t size;
	int fd;

	fd = mkstemp(path);
	cr_assert_geq(fd, 0);
	close(fd);

	ggufw_model_init(&m, false, 32);
	ggufw_model_kv_str(&m, "general.architecture", "llama");
	/* 4096 x 65536 Q4_K: 16 blocks x 144 bytes x 65536 rows = 144 MiB */
	ggufw_model_tensor(&m, "token_embd.weight", 2, ne, GGUFW_GGML_Q4_K,
	    256, 144);
	ggufw_model_tensor(&m, "output_norm.weight", 1, ne, GGUFW_GGML_F32, 1,
	    4);
	cr_assert_eq(m.tensors[0].nbytes, 16ull * 144 * 65536);
	cr_assert_eq(m.tensors[1].offset, 16ull * 144 * 65536);
	size = ggufw_model_file_size(&m);
	cr_assert_eq(ggufw_model_finish_sparse(&m, path), 0);
	ggufw_model_finish(&m, &header, GGUFW_DATA_NONE);

	cr_assert_eq(stat(path, &st), 0);
	cr_assert_eq((uint64_t)st.st_size, size);
	cr_assert_lt((uint64_t)st.st_blocks * 512, 1024 * 1024,
	    "the data takes disk space (%lld blocks)",
	    (long long)st.st_blocks);
	fp = fopen(path, "rb");
	cr_assert_not_null(fp);
	back = xmalloc(header.len);
	cr_assert_eq(fread(back, 1, header.len, fp), header.len);
	cr_assert(memcmp(back, header.buf, header.len) == 0);
	cr_assert_eq(fseek(fp, (long)(size - 1), SEEK_SET), 0);
	cr_assert_eq(fgetc(fp), 0);
	cr_assert_eq(fgetc(fp), EOF);
	fclose(fp);
	free(back);
	unlink(path);
	strbuf_free(&header);
	ggufw_model_free(&m);
}

Test(ggufw, write_file)
{
	char path[] = "/tmp/ggufw-file-XXXXXX";
	struct strbuf back = STRBUF_INIT;
	int fd;

	fd = mkstemp(path);
	cr_assert_geq(fd, 0);
	close(fd);
	cr_assert_eq(ggufw_write_file(path, "GGUF\0x", 6), 0);
	cr_assert(slurp(path, &back));
	cr_assert_eq(back.len, 6);
	cr_assert(memcmp(back.buf, "GGUF\0x", 6) == 0);
	unlink(path);
	cr_assert_eq(ggufw_write_file("/nonexistent-dir/x.gguf", "x", 1), -1);
	strbuf_free(&back);
}

/*
 * jsontree.
 */

static struct jsonnode *
parse_ok(const char *text)
{
	char *err = NULL;
	struct jsonnode *root = jsontree_parse(text, strlen(text), &err);

	cr_assert_not_null(root, "parse of %s failed: %s", text,
	    err ? err : "?");
	cr_assert_null(err);
	return root;
}

static void
parse_bad(const char *text, size_t n, const char *want)
{
	char *err = NULL;
	struct jsonnode *root = jsontree_parse(text, n, &err);

	cr_assert_null(root, "%s parsed", text);
	cr_assert_not_null(err);
	cr_assert(strstr(err, want) != NULL,
	    "error for %s: \"%s\", want \"%s\"", text, err, want);
	free(err);
}

Test(jsontree, parses_values)
{
	struct jsonnode *root = parse_ok(
	    " {\"b\": [1, -2.5e-3, 18446744073709551615, true, false, null],\n"
	    "  \"a\": \"x\\\"\\\\\\/\\b\\f\\n\\r\\t"
	    "\\u00e9\\ud83d\\ude00\\u0000\","
	    "  \"\": {}, \"e\": [], \"n\": -0,"
	    " \"s\": \"\xc3\xa9\xe2\x82\xac\"} ");
	const struct jsonnode *b, *a;
	int64_t v;

	cr_assert_eq(root->type, JSONTREE_OBJECT);
	cr_assert_eq(root->n, 6);
	cr_assert_str_eq(root->keys[0], "b");
	cr_assert_str_eq(root->keys[1], "a");
	cr_assert_str_eq(root->keys[2], "");
	b = jsontree_get(root, "b");
	cr_assert_eq(b->type, JSONTREE_ARRAY);
	cr_assert_eq(b->n, 6);
	cr_assert(jsontree_int64(jsontree_at(b, 0), &v) && v == 1);
	cr_assert_str_eq(jsontree_at(b, 1)->text, "-2.5e-3");
	cr_assert_float_eq(jsontree_at(b, 1)->number, -0.0025, 1e-12);
	cr_assert_str_eq(jsontree_at(b, 2)->text, "18446744073709551615");
	cr_assert(!jsontree_int64(jsontree_at(b, 2), &v));
	cr_assert_eq(jsontree_at(b, 3)->type, JSONTREE_BOOL);
	cr_assert(jsontree_at(b, 3)->boolean);
	cr_assert(!jsontree_at(b, 4)->boolean);
	cr_assert_eq(jsontree_at(b, 5)->type, JSONTREE_NULL);
	cr_assert_null(jsontree_at(b, 6));
	a = jsontree_get(root, "a");
	cr_assert_eq(a->len, 16);
	cr_assert(memcmp(a->text, "x\"\\/\b\f\n\r\t\xc3\xa9\xf0\x9f\x98\x80\0",
	    16) == 0);
	cr_assert_eq(jsontree_get(root, "")->type, JSONTREE_OBJECT);
	cr_assert_eq(jsontree_get(root, "e")->n, 0);
	cr_assert_str_eq(jsontree_get(root, "s")->text, "\xc3\xa9\xe2\x82\xac");
	cr_assert_null(jsontree_get(root, "zz"));
	cr_assert_null(jsontree_get(b, "a"));
	cr_assert_eq(jsontree_pointer(root, "/b/2"), jsontree_at(b, 2));
	cr_assert_eq(jsontree_pointer(root, ""), root);
	cr_assert_null(jsontree_pointer(root, "/b/06"));
	cr_assert_null(jsontree_pointer(root, "/b/9"));
	cr_assert_str_eq(jsontree_str(jsontree_pointer(root, "/s")),
	    "\xc3\xa9\xe2\x82\xac");
	jsontree_free(root);

	root = parse_ok("{\"a/b\": {\"~\": 1}}");
	cr_assert_not_null(jsontree_pointer(root, "/a~1b/~0"));
	jsontree_free(root);
	root = parse_ok("\"top\"");
	cr_assert_str_eq(jsontree_str(root), "top");
	jsontree_free(root);
}

Test(jsontree, rejects_bad_json)
{
	parse_bad("", 0, "1:1: unexpected end of input");
	parse_bad("   ", 3, "1:4:");
	parse_bad("[1,]", 4, "1:4:");
	parse_bad("{\"a\":1,}", 8, "1:8:");
	parse_bad("{\n  \"a\": 01\n}", 13, "2:9: leading zero");
	parse_bad("[\"\xc3\xa9\", x]", 9, "1:7:");
	parse_bad("{'a': 1}", 8, "1:2:");
	parse_bad("[NaN]", 5, "1:2:");
	parse_bad("[Infinity]", 10, "1:2:");
	parse_bad("[1.]", 4, "1:4:");
	parse_bad("[.5]", 4, "1:2:");
	parse_bad("[1e]", 4, "1:4:");
	parse_bad("[+1]", 4, "1:2:");
	parse_bad("[1] [2]", 7, "1:5: unexpected '['");
	parse_bad("[1] x", 5, "expected end of input");
	parse_bad("\"abc", 4, "unterminated string");
	parse_bad("\"a\tb\"", 5, "control character");
	parse_bad("\"\\x\"", 4, "bad escape");
	parse_bad("\"\\u12\"", 6, "bad \\u escape");
	parse_bad("\"\\ud800\"", 8, "unpaired high surrogate");
	parse_bad("\"\\ud800\\u0041\"", 14, "unpaired high surrogate");
	parse_bad("\"\\udc00\"", 8, "unpaired low surrogate");
	parse_bad("\"\xc0\xaf\"", 4, "invalid UTF-8");
	parse_bad("\"\xed\xa0\x80\"", 5, "invalid UTF-8");
	parse_bad("\"\xe2\x82\"", 4, "invalid UTF-8");
	parse_bad("\xef\xbb\xbf{}", 5, "1:1:");
	parse_bad("{\"a\":1,\"a\":2}", 13, "1:8: duplicate key \"a\"");
	parse_bad("tru", 3, "1:1:");
	parse_bad("{\"a\" 1}", 7, "expected ':'");
	parse_bad("[1 2]", 5, "expected ',' or ']'");
	parse_bad("[1]\0", 4, "unexpected byte 0x00");
}

Test(jsontree, depth_limit)
{
	struct strbuf sb = STRBUF_INIT;
	struct jsonnode *root;
	int i;

	for (i = 0; i < JSONTREE_MAX_DEPTH; i++)
		strbuf_addc(&sb, '[');
	for (i = 0; i < JSONTREE_MAX_DEPTH; i++)
		strbuf_addc(&sb, ']');
	root = parse_ok(strbuf_cstr(&sb));
	jsontree_free(root);
	strbuf_reset(&sb);
	for (i = 0; i <= JSONTREE_MAX_DEPTH; i++)
		strbuf_addc(&sb, '[');
	parse_bad(sb.buf, sb.len, "nesting deeper");
	strbuf_free(&sb);
}

Test(jsontree, write_round_trips)
{
	static const char text[] =
	    "{\"k\":[1,-2.50e+3,\"a\\\"b\\\\\\n\\u0001\xc3\xa9\",true,null,{}],"
	    "\"z\":{\"y\":[]}}";
	struct jsonnode *root = parse_ok(text);
	struct strbuf out = STRBUF_INIT;

	jsontree_write(root, &out);
	cr_assert_str_eq(strbuf_cstr(&out), text);
	strbuf_free(&out);
	jsontree_free(root);
}

/* diff_texts: parse both, diff, check the count and the report. */
static void
diff_texts(const char *e, const char *a, int want, const char *report,
    int max_report)
{
	struct jsonnode *je = parse_ok(e), *ja = parse_ok(a);
	struct strbuf sb = STRBUF_INIT;
	int n = jsontree_diff(je, ja, &sb, max_report);

	cr_assert_eq(n, want, "diff of %s and %s: %d, want %d\n%s", e, a, n,
	    want, strbuf_cstr(&sb));
	if (report != NULL)
		cr_assert_str_eq(strbuf_cstr(&sb), report);
	cr_assert_eq(jsontree_diff(je, ja, NULL, -1), want);
	strbuf_free(&sb);
	jsontree_free(je);
	jsontree_free(ja);
}

Test(jsontree, diff)
{
	diff_texts("{\"a\":1,\"b\":[true,null,\"x\"]}",
	    "{\"b\":[true,null,\"x\"],\"a\":1}", 0, "", -1);
	diff_texts("1000", "1e3", 0, "", -1);
	diff_texts("1", "1.0", 0, "", -1);
	diff_texts("-0", "0", 0, "", -1);
	diff_texts("0.1", "0.10000000000000001", 0, "", -1);
	diff_texts("1.5e-5", "0.000015", 0, "", -1);
	diff_texts("18446744073709551615", "18446744073709551614", 1,
	    "/: expected 18446744073709551615, got 18446744073709551614\n",
	    -1);
	diff_texts("1e400", "2e400", 1, NULL, -1);
	diff_texts("\"1\"", "1", 1, "/: expected \"1\", got 1\n", -1);
	diff_texts("{\"a\":{\"b/c\":[1,2,3]}}", "{\"a\":{\"b/c\":[1,5,3]}}", 1,
	    "/a/b~1c/1: expected 2, got 5\n", -1);
	diff_texts("{\"a\":1,\"b\":2}", "{\"b\":2,\"c\":3}", 2,
	    "/a: expected 1, got (missing)\n/c: expected (missing), got 3\n",
	    -1);
	diff_texts("[1,2,3]", "[1,2]", 1,
	    "/: expected 3 elements, got 2 elements\n", -1);
	diff_texts("[1,2,3]", "[0,2]", 2,
	    "/: expected 3 elements, got 2 elements\n/0: expected 1, got 0\n",
	    -1);
	diff_texts("[1,2,3,4]", "[5,6,7,8]", 4,
	    "/0: expected 1, got 5\n/1: expected 2, got 6\n"
	    "... and 2 more differences\n", 2);
	diff_texts("{\"s\":\"a\\u0000b\"}", "{\"s\":\"a\\u0000c\"}", 1,
	    "/s: expected \"a\\u0000b\", got \"a\\u0000c\"\n", -1);
	diff_texts("[\"" "0123456789012345678901234567890123456789"
	    "0123456789012345678901234567890123456789" "\"]", "[null]", 1,
	    "/0: expected \"0123456789012345678901234567890123456789"
	    "012345678901234567890123456789012345678..., got null\n", -1);
}

/*
 * A real peer file: parse it, then find one injected difference in a
 * copy.
 */
Test(jsontree, peer_file)
{
	static const char needle[] = "\"value\": 42";
	char *path = shared_file(
	    "corpus/zackshen-gguf/test-le-v3.gguf.peer.json");
	struct strbuf text = STRBUF_INIT, report = STRBUF_INIT;
	struct jsonnode *expected, *actual;
	char *err = NULL, *at;
	int64_t v;

	if (path == NULL)
		cr_skip_test("shared directory not found "
		    "(set GGUFLINT_SHARED)");
	cr_assert(slurp(path, &text), "cannot read %s", path);
	free(path);

	expected = jsontree_parse(text.buf, text.len, &err);
	cr_assert_not_null(expected, "%s", err ? err : "?");
	cr_assert(jsontree_int64(jsontree_get(expected, "version"), &v) &&
	    v == 3);
	cr_assert_str_eq(jsontree_str(jsontree_pointer(expected,
	    "/metadata/0/value")), "llama");
	cr_assert_str_eq(jsontree_str(jsontree_pointer(expected,
	    "/metadata/3/value")), "4.2e1");
	cr_assert(jsontree_int64(jsontree_pointer(expected,
	    "/tensors/2/offset"), &v) && v == 384);
	cr_assert(jsontree_int64(jsontree_pointer(expected, "/data_offset"),
	    &v) && v == 448);

	/* Identical to itself, and to its own compact rewrite. */
	actual = jsontree_parse(text.buf, text.len, NULL);
	cr_assert_eq(jsontree_diff(expected, actual, &report, 10), 0);
	jsontree_free(actual);

	at = strstr(text.buf, needle);
	cr_assert_not_null(at);
	at[sizeof(needle) - 2] = '3';
	actual = jsontree_parse(text.buf, text.len, NULL);
	cr_assert_not_null(actual);
	cr_assert_eq(jsontree_diff(expected, actual, &report, 10), 1);
	cr_assert_str_eq(strbuf_cstr(&report),
	    "/metadata/2/value: expected 42, got 43\n");

	jsontree_free(expected);
	jsontree_free(actual);
	strbuf_free(&text);
	strbuf_free(&report);
}

Test(shared_path, env_override)
{
	setenv("GGUFLINT_SHARED", "/nonexistent-gguflint-shared", 1);
	cr_assert_null(test_shared_dir());
	setenv("GGUFLINT_SHARED", "/tmp", 1);
	cr_assert_str_eq(test_shared_dir(), "/tmp");
	unsetenv("GGUFLINT_SHARED");
}
