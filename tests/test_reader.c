/*
 * test_reader.c - the reader on well-formed files built with the test
 * writer: every value type, arrays of every element type, both byte
 * orders, v1/v2/v3, alignment, tensor sizes from the type table.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <math.h>
#include <string.h>

#include "kernels/ggml-types.h"
#include "ggufw.h"
#include "testutil.h"

static const int64_t ne_64x8[] = { 64, 8 };
static const int64_t ne_256x4[] = { 256, 4 };
static const int64_t ne_64[] = { 64 };

/* A small model with one KV of each scalar type and a few arrays. */
static void
build_model(struct ggufw_model *m, bool be, uint64_t align)
{
	static const char *const toks[] = { "<s>", "h\xc3\xa9llo", "" };
	static const int32_t i32s[] = { -1, 0, 2147483647 };
	static const float f32s[] = { 1.5f, -0.0f, 3.0e38f };

	ggufw_model_init(m, be, align);
	ggufw_model_kv_str(m, "general.architecture", "llama");
	ggufw_model_kv_u8(m, "t.u8", 255);
	ggufw_model_kv_i8(m, "t.i8", -128);
	ggufw_model_kv_u16(m, "t.u16", 65535);
	ggufw_model_kv_i16(m, "t.i16", -32768);
	ggufw_model_kv_u32(m, "t.u32", 4000000000u);
	ggufw_model_kv_i32(m, "t.i32", -2000000000);
	ggufw_model_kv_f32(m, "t.f32", 0.25f);
	ggufw_model_kv_bool(m, "t.bool", true);
	ggufw_model_kv_u64(m, "t.u64", UINT64_MAX);
	ggufw_model_kv_i64(m, "t.i64", INT64_MIN);
	ggufw_model_kv_f64(m, "t.f64", -1.0 / 3.0);
	ggufw_model_kv_arr_str(m, "t.strs", toks, 3);
	ggufw_model_kv_arr_i32(m, "t.i32s", i32s, 3);
	ggufw_model_kv_arr_f32(m, "t.f32s", f32s, 3);
	if (align != GGUFW_DEFAULT_ALIGNMENT)
		ggufw_model_kv_u32(m, "general.alignment", (uint32_t)align);
	ggufw_model_tensor(m, "a.weight", 2, ne_64x8, GGUFW_GGML_F32, 1, 4);
	ggufw_model_tensor(m, "b.weight", 2, ne_256x4, GGUFW_GGML_Q4_K, 256,
	    144);
	ggufw_model_tensor(m, "c.weight", 1, ne_64, GGUFW_GGML_Q8_0, 32, 34);
}

static void
lint_model(struct test_lint *t, const struct ggufw_model *m)
{
	struct strbuf sb = STRBUF_INIT;

	ggufw_model_finish(m, &sb, GGUFW_DATA_RANDOM);
	test_lint_bytes(t, sb.buf, sb.len);
	strbuf_free(&sb);
}

static const struct gguf_kv *
kv(const struct test_lint *t, const char *key)
{
	const struct gguf_kv *k = gguf_find_kv(&t->res.file, key);

	cr_assert(k != NULL, "key %s not found", key);
	return k;
}

static void
check_values(const struct test_lint *t)
{
	const struct gguf_file *f = &t->res.file;
	struct gguf_arr_iter it;
	struct gguf_scalar s;
	struct gguf_str str;

	cr_assert(f->header_complete);
	cr_assert_eq(f->version, 3);
	cr_assert_eq(f->n_kv, f->kv_n);
	cr_assert(gguf_str_eq(kv(t, "general.architecture")->val.v.s, "llama"));
	cr_assert_eq(kv(t, "t.u8")->val.v.u, 255);
	cr_assert_eq(kv(t, "t.i8")->val.v.i, -128);
	cr_assert_eq(kv(t, "t.u16")->val.v.u, 65535);
	cr_assert_eq(kv(t, "t.i16")->val.v.i, -32768);
	cr_assert_eq(kv(t, "t.u32")->val.v.u, 4000000000u);
	cr_assert_eq(kv(t, "t.i32")->val.v.i, -2000000000);
	cr_assert(kv(t, "t.f32")->val.v.f32 == 0.25f);
	cr_assert_eq(kv(t, "t.bool")->val.v.b, 1);
	cr_assert_eq(kv(t, "t.u64")->val.v.u, UINT64_MAX);
	cr_assert_eq(kv(t, "t.i64")->val.v.i, INT64_MIN);
	cr_assert(kv(t, "t.f64")->val.v.f64 == -1.0 / 3.0);

	cr_assert_eq(kv(t, "t.strs")->elem_type, GGUF_STRING);
	cr_assert_eq(kv(t, "t.strs")->count, 3);
	gguf_arr_iter_init(&it, f, kv(t, "t.strs"));
	cr_assert(gguf_arr_next_str(&it, &str) && gguf_str_eq(str, "<s>"));
	cr_assert(gguf_arr_next_str(&it, &str) &&
	    gguf_str_eq(str, "h\xc3\xa9llo"));
	cr_assert(gguf_arr_next_str(&it, &str) && str.n == 0);
	cr_assert(!gguf_arr_next_str(&it, &str));

	cr_assert(gguf_arr_get(f, kv(t, "t.i32s"), 0, &s) == 0 &&
	    s.v.i == -1);
	cr_assert(gguf_arr_get(f, kv(t, "t.i32s"), 2, &s) == 0 &&
	    s.v.i == 2147483647);
	cr_assert(gguf_arr_get(f, kv(t, "t.i32s"), 3, &s) < 0);
	cr_assert(gguf_arr_get(f, kv(t, "t.f32s"), 1, &s) == 0 &&
	    s.v.f32 == 0.0f && signbit(s.v.f32));
	cr_assert(gguf_arr_get(f, kv(t, "t.strs"), 0, &s) < 0);

	cr_assert_eq(f->tensors_n, 3);
	cr_assert(gguf_str_eq(f->tensors[1].name, "b.weight"));
	cr_assert_eq(f->tensors[1].type, 12);
	cr_assert_eq(f->tensors[1].ne[0], 256);
	cr_assert_eq(f->tensors[1].ne[1], 4);
	cr_assert_eq(f->tensors[1].ne[2], 1);
	cr_assert_eq(f->tensors[0].nbytes, 64 * 8 * 4);
	cr_assert_eq(f->tensors[1].nbytes, 4 * 144);
	cr_assert_eq(f->tensors[2].nbytes, 2 * 34);
	cr_assert_eq(f->data_offset % f->alignment, 0);
	cr_assert(f->data_offset >= f->infos_end);
	cr_assert(f->data_offset - f->infos_end < f->alignment);
}

Test(reader, little_endian_model)
{
	struct ggufw_model m;
	struct test_lint t;

	build_model(&m, false, 32);
	lint_model(&t, &m);
	cr_assert_eq(t.res.diags.n, 0, "unexpected: %s", test_codes(&t));
	cr_assert(!t.res.file.big_endian);
	check_values(&t);
	cr_assert_eq(t.res.file.data_offset, ggufw_model_header_size(&m));
	test_lint_free(&t);
	ggufw_model_free(&m);
}

Test(reader, big_endian_model_reads_the_same_values)
{
	struct ggufw_model m;
	struct test_lint t;

	build_model(&m, true, 32);
	lint_model(&t, &m);
	cr_assert_eq(t.res.diags.n, 1, "unexpected: %s", test_codes(&t));
	cr_assert_eq(test_count(&t, "F005"), 1);
	cr_assert_eq(test_errors(&t), 0);
	cr_assert(t.res.file.big_endian);
	check_values(&t);
	test_lint_free(&t);
	ggufw_model_free(&m);
}

Test(reader, alignment_64_is_used_for_the_data_offset)
{
	struct ggufw_model m;
	struct test_lint t;

	build_model(&m, false, 64);
	lint_model(&t, &m);
	cr_assert_eq(t.res.diags.n, 0, "unexpected: %s", test_codes(&t));
	cr_assert_eq(t.res.file.alignment, 64);
	cr_assert_eq(t.res.file.data_offset % 64, 0);
	cr_assert_eq(t.res.file.data_offset, ggufw_model_header_size(&m));
	check_values(&t);
	test_lint_free(&t);
	ggufw_model_free(&m);
}

Test(reader, version_2_is_accepted)
{
	struct ggufw_model m;
	struct test_lint t;

	build_model(&m, false, 32);
	m.version = 2;
	lint_model(&t, &m);
	cr_assert_eq(t.res.diags.n, 0, "unexpected: %s", test_codes(&t));
	cr_assert_eq(t.res.file.version, 2);
	test_lint_free(&t);
	ggufw_model_free(&m);
}

/* GGUF v1: 32-bit counts, lengths and dimensions; read, then reported. */
Test(reader, version_1_is_read_and_reported)
{
	struct ggufw w;
	struct test_lint t;
	const struct gguf_kv *k;

	ggufw_init(&w, false);
	ggufw_bytes(&w, "GGUF", 4);
	ggufw_u32(&w, 1);
	ggufw_u32(&w, 1);		/* n_tensors */
	ggufw_u32(&w, 2);		/* n_kv */
	ggufw_u32(&w, 20);
	ggufw_bytes(&w, "general.architecture", 20);
	ggufw_u32(&w, GGUFW_STRING);
	ggufw_u32(&w, 5);
	ggufw_bytes(&w, "llama", 5);
	ggufw_u32(&w, 5);
	ggufw_bytes(&w, "n.arr", 5);
	ggufw_u32(&w, GGUFW_ARRAY);
	ggufw_u32(&w, GGUFW_STRING);
	ggufw_u32(&w, 2);
	ggufw_u32(&w, 1);
	ggufw_bytes(&w, "a", 1);
	ggufw_u32(&w, 2);
	ggufw_bytes(&w, "bc", 2);
	ggufw_u32(&w, 1);
	ggufw_bytes(&w, "t", 1);
	ggufw_u32(&w, 2);		/* n_dims */
	ggufw_u32(&w, 4);
	ggufw_u32(&w, 2);
	ggufw_u32(&w, 0);		/* F32 */
	ggufw_u64(&w, 0);
	ggufw_pad(&w, 32);
	ggufw_bytes(&w, "\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0"
	    "\0\0\0\0\0\0\0\0", 32);
	test_lint_bytes(&t, w.out.buf, w.out.len);
	cr_assert_eq(test_count(&t, "F002"), 1, "got %s", test_codes(&t));
	cr_assert_eq(t.res.diags.n, 1, "got %s", test_codes(&t));
	cr_assert(t.res.file.header_complete);
	k = gguf_find_kv(&t.res.file, "general.architecture");
	cr_assert(k != NULL && gguf_str_eq(k->val.v.s, "llama"));
	k = gguf_find_kv(&t.res.file, "n.arr");
	cr_assert(k != NULL && k->count == 2);
	cr_assert_eq(t.res.file.tensors[0].ne[0], 4);
	cr_assert_eq(t.res.file.tensors[0].ne[1], 2);
	cr_assert_eq(t.res.file.tensors[0].nbytes, 32);
	test_lint_free(&t);
	ggufw_free(&w);
}

Test(reader, arrays_of_every_element_type)
{
	struct ggufw_model m;
	struct ggufw *w;
	struct strbuf sb = STRBUF_INIT;
	struct test_lint t;
	struct gguf_scalar s;
	uint32_t et;
	char key[32];

	ggufw_model_init(&m, false, 32);
	for (et = 0; et < GGUFW_TYPE_COUNT; et++) {
		if (et == GGUFW_ARRAY || et == GGUFW_STRING)
			continue;
		snprintf(key, sizeof key, "arr.%u", et);
		w = ggufw_model_kv_raw(&m);
		ggufw_kv_arr_begin(w, key, (int32_t)et, 2);
		/* element 0 is all-zero bits, element 1 is "1" */
		switch (et) {
		case GGUFW_UINT8: case GGUFW_INT8: case GGUFW_BOOL:
			ggufw_u8(w, 0);
			ggufw_u8(w, 1);
			break;
		case GGUFW_UINT16: case GGUFW_INT16:
			ggufw_u16(w, 0);
			ggufw_u16(w, 1);
			break;
		case GGUFW_UINT32: case GGUFW_INT32:
			ggufw_u32(w, 0);
			ggufw_u32(w, 1);
			break;
		case GGUFW_FLOAT32:
			ggufw_f32(w, 0);
			ggufw_f32(w, 1);
			break;
		case GGUFW_FLOAT64:
			ggufw_f64(w, 0);
			ggufw_f64(w, 1);
			break;
		default:
			ggufw_u64(w, 0);
			ggufw_u64(w, 1);
			break;
		}
	}
	ggufw_model_finish(&m, &sb, GGUFW_DATA_NONE);
	test_lint_bytes(&t, sb.buf, sb.len);
	cr_assert_eq(t.res.diags.n, 0, "unexpected: %s", test_codes(&t));
	cr_assert_eq(t.res.file.kv_n, 11);
	for (et = 0; et < GGUFW_TYPE_COUNT; et++) {
		const struct gguf_kv *k;
		double one;

		if (et == GGUFW_ARRAY || et == GGUFW_STRING)
			continue;
		snprintf(key, sizeof key, "arr.%u", et);
		k = gguf_find_kv(&t.res.file, key);
		cr_assert(k != NULL && k->elem_type == et && k->count == 2);
		cr_assert(gguf_arr_get(&t.res.file, k, 1, &s) == 0);
		one = et == GGUFW_FLOAT32 ? s.v.f32 : et == GGUFW_FLOAT64 ?
		    s.v.f64 : et == GGUFW_BOOL ? s.v.b : (double)s.v.u;
		cr_assert(one == 1.0, "element type %u read as %g", et, one);
	}
	test_lint_free(&t);
	ggufw_model_free(&m);
	strbuf_free(&sb);
}

Test(reader, no_tensors_no_data_section)
{
	struct ggufw_model m;
	struct strbuf sb = STRBUF_INIT;
	struct test_lint t;

	ggufw_model_init(&m, false, 32);
	ggufw_model_kv_str(&m, "general.architecture", "llama");
	ggufw_model_finish(&m, &sb, GGUFW_DATA_NONE);
	test_lint_bytes(&t, sb.buf, sb.len);
	cr_assert_eq(t.res.diags.n, 0, "unexpected: %s", test_codes(&t));
	cr_assert_eq(t.res.file.tensors_n, 0);
	cr_assert_eq(t.res.file.data_offset % 32, 0);
	test_lint_free(&t);
	ggufw_model_free(&m);
	strbuf_free(&sb);
}

Test(types, table_matches_block_layouts)
{
	const struct ggml_type_info *t;
	uint32_t id;
	int removed = 0;

	cr_assert_eq(ggml_type_get(12)->blck, 256);
	cr_assert_eq(ggml_type_get(12)->size, 144);
	cr_assert_eq(ggml_type_get(9)->size, 36);	/* q8_1, not 40 */
	cr_assert_eq(ggml_type_get(39)->size, 17);	/* mxfp4 */
	cr_assert_eq(ggml_type_get(40)->blck, 64);	/* nvfp4 */
	cr_assert_eq(ggml_type_get(41)->blck, 128);	/* q1_0 */
	cr_assert(ggml_type_get(43) == NULL);
	for (id = 0; id < GGML_TYPE_COUNT; id++) {
		t = ggml_type_get(id);
		cr_assert_eq(t->id, id);
		cr_assert((t->blck == 0) == (t->status == GGML_TYPE_REMOVED));
		removed += t->status == GGML_TYPE_REMOVED;
	}
	cr_assert_eq(removed, 8);	/* 4, 5, 31-33, 36-38 */
	cr_assert(ggml_type_fork_note(134) != NULL);
	cr_assert(ggml_type_fork_note(43) == NULL);
}
