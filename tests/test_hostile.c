/*
 * test_hostile.c - the hostile-input suite: malformed GGUF files built
 * field by field with the test writer (tests/ggufw.h), each reproducing a
 * row of the security history table (gguf-format.md §7.1, "row N") or a
 * negative case of llama.cpp's tests/test-gguf.cpp (named in capitals).
 *
 * Every case asserts the rule that must fire, whether the file then counts
 * as an error (exit status 1) or only as a warning, and, where it says
 * something, the offset, subject or message of the finding. Two sweeps lint
 * every prefix of a valid header and every single-byte corruption of it;
 * a few cases run the real binary, under an address-space limit or to check
 * the text output format end to end.
 */
#if !defined(_GNU_SOURCE) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L
#endif

#include <criterion/criterion.h>
#include <regex.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "golden.h"
#include "ggufw.h"
#include "testutil.h"

/*
 * Helpers.
 */

/* ggml type ids not in ggufw.h's short list. */
#define T_Q8_1 9
#define T_Q8_K 15
#define T_I8 24
#define T_I64 27
#define T_NVFP4 40

#define ASSERT_HAS(t, code)						\
	cr_assert(test_count(t, code) >= 1, "expected %s, got: %s",	\
	    code, test_codes(t))
#define ASSERT_NOT(t, code)						\
	cr_assert(test_count(t, code) == 0, "unexpected %s, got: %s",	\
	    code, test_codes(t))
#define ASSERT_ERROR(t)							\
	cr_assert(test_errors(t) > 0, "expected an error, got: %s",	\
	    test_codes(t))
#define ASSERT_NO_ERROR(t)						\
	cr_assert(test_errors(t) == 0, "expected no error, got: %s",	\
	    test_codes(t))
/* Exactly these diagnostics, in the sorted order the linter keeps. */
#define ASSERT_CODES(t, want)						\
	cr_assert(strcmp(test_codes(t), want) == 0,			\
	    "expected \"%s\", got \"%s\"", want, test_codes(t))
/* The same for the F family alone: small_model() is a valid file but not
 * a complete llama, and a file without general.architecture is M001
 * (llama.cpp refuses it), which the M and N families say. */
#define ASSERT_F_CODES(t, want)						\
	cr_assert(strcmp(f_codes(t), want) == 0,			\
	    "expected \"%s\", got \"%s\"", want, test_codes(t))
#define ASSERT_NO_F_ERROR(t)						\
	cr_assert(f_errors(t) == 0, "expected no F error, got: %s",	\
	    test_codes(t))

static const char *
f_codes(const struct test_lint *t)
{
	static char buf[4096];
	size_t i, len = 0;

	buf[0] = '\0';
	for (i = 0; i < t->res.diags.n && len + 8 < sizeof buf; i++)
		if (t->res.diags.v[i].rule->family == 'F')
			len += (size_t)snprintf(buf + len, sizeof buf - len,
			    "%s%s", len ? " " : "",
			    t->res.diags.v[i].rule->code);
	return buf;
}

static size_t
f_errors(const struct test_lint *t)
{
	size_t i, n = 0;

	for (i = 0; i < t->res.diags.n; i++)
		n += t->res.diags.v[i].rule->family == 'F' &&
		    t->res.diags.v[i].severity >= SEV_ERROR;
	return n;
}

static void
lint_w(struct test_lint *t, const struct ggufw *w)
{
	test_lint_bytes(t, w->out.len ? w->out.buf : "", w->out.len);
}

static void
zeros(struct ggufw *w, size_t n)
{
	static const unsigned char z[4096];

	while (n > 0) {
		size_t k = n < sizeof z ? n : sizeof z;

		ggufw_bytes(w, z, k);
		n -= k;
	}
}

/* d's message contains s. */
static void
assert_msg(const struct diag *d, const char *s)
{
	cr_assert_not_null(d);
	cr_assert(strstr(d->message, s) != NULL,
	    "%s message \"%s\" does not contain \"%s\"", d->rule->code,
	    d->message, s);
}

/* d's subject is exactly s (a key or tensor name). */
static void
assert_subject(const struct diag *d, enum subject_kind kind, const char *s)
{
	size_t n = strlen(s);

	cr_assert_not_null(d);
	cr_assert_eq(d->kind, kind, "%s subject kind %d, want %d",
	    d->rule->code, (int)d->kind, (int)kind);
	cr_assert_not_null(d->subject, "%s has no subject", d->rule->code);
	cr_assert(d->subject_len == n && memcmp(d->subject, s, n) == 0,
	    "%s subject \"%.*s\", want \"%s\"", d->rule->code,
	    (int)d->subject_len, d->subject, s);
}

static void
assert_offset(const struct diag *d, uint64_t off)
{
	cr_assert_not_null(d);
	cr_assert_eq(d->offset, off, "%s at offset %llu, want %llu",
	    d->rule->code, (unsigned long long)d->offset,
	    (unsigned long long)off);
}

/*
 * A v3 file of one tensor and no metadata: header, the tensor info, zero
 * padding to 32, then data_len zero bytes. The tensor info starts at
 * offset 24.
 */
static void
one_tensor(struct ggufw *w, const char *name, uint32_t n_dims,
    const int64_t ne[], int32_t type, uint64_t offset, size_t data_len)
{
	ggufw_init(w, false);
	ggufw_header(w, "GGUF", 3, 1, 0);
	ggufw_tensor_info(w, name, n_dims, ne, type, offset);
	ggufw_pad(w, 32);
	zeros(w, data_len);
}

static void
lint_one_tensor(struct test_lint *t, const char *name, uint32_t n_dims,
    const int64_t ne[], int32_t type, uint64_t offset, size_t data_len)
{
	struct ggufw w;

	one_tensor(&w, name, n_dims, ne, type, offset, data_len);
	lint_w(t, &w);
	ggufw_free(&w);
}

/* A v3 header with no tensors and one KV pair written by the caller. */
static void
kv_file_begin(struct ggufw *w, uint64_t n_kv)
{
	ggufw_init(w, false);
	ggufw_header(w, "GGUF", 3, 0, n_kv);
}

/* A file whose only KV is general.alignment of the given type and value. */
static void
lint_alignment_u32(struct test_lint *t, uint32_t a)
{
	struct ggufw w;

	kv_file_begin(&w, 1);
	ggufw_kv_u32(&w, "general.alignment", a);
	lint_w(t, &w);
	ggufw_free(&w);
}

/*
 * The small valid model of the sweeps: a few KVs of several types
 * including a string array, and three tensors of three types. Returns the
 * data offset; the whole file is in out.
 */
static uint64_t
small_model(struct strbuf *out, bool big_endian)
{
	static const char *const toks[] = { "<s>", "</s>", "hello", "world" };
	static const float scores[] = { 0.0f, -1.0f, -2.5f, -3.0f };
	static const int64_t ne_emb[] = { 32, 4 };
	static const int64_t ne_q[] = { 64, 2 };
	static const int64_t ne_norm[] = { 32 };
	struct ggufw_model m;
	uint64_t hdr;

	ggufw_model_init(&m, big_endian, 32);
	ggufw_model_kv_str(&m, "general.architecture", "llama");
	ggufw_model_kv_u32(&m, "general.alignment", 32);
	ggufw_model_kv_bool(&m, "general.flag", true);
	ggufw_model_kv_u64(&m, "llama.context_length", 4096);
	ggufw_model_kv_arr_str(&m, "tokenizer.ggml.tokens", toks, 4);
	ggufw_model_kv_arr_f32(&m, "tokenizer.ggml.scores", scores, 4);
	ggufw_model_tensor(&m, "token_embd.weight", 2, ne_emb,
	    GGUFW_GGML_F32, 1, 4);
	ggufw_model_tensor(&m, "blk.0.attn_q.weight", 2, ne_q,
	    GGUFW_GGML_Q8_0, 32, 34);
	ggufw_model_tensor(&m, "output_norm.weight", 1, ne_norm,
	    GGUFW_GGML_F16, 1, 2);
	hdr = ggufw_model_finish(&m, out, GGUFW_DATA_RANDOM);
	ggufw_model_free(&m);
	return hdr;
}

/* Every diagnostic is well formed and points inside the file. */
static void
assert_sane(const struct test_lint *t, size_t file_size)
{
	size_t i;

	cr_assert_leq(t->res.diags.n, 40 * (DIAG_MAX_PER_RULE + 1));
	for (i = 0; i < t->res.diags.n; i++) {
		const struct diag *d = &t->res.diags.v[i];

		cr_assert_not_null(d->rule);
		cr_assert_not_null(d->message);
		cr_assert_leq(d->offset, (uint64_t)file_size,
		    "%s at offset %llu past the end of a %zu-byte file: %s",
		    d->rule->code, (unsigned long long)d->offset, file_size,
		    d->message);
	}
}

/*
 * Magic, version and counts.
 */

/* Row 2 (ggml 4af8f4a4): a file too short to hold the magic. */
Test(hostile, empty_file)
{
	struct test_lint t;

	test_lint_bytes(&t, "", 0);
	ASSERT_CODES(&t, "F001");
	ASSERT_ERROR(&t);
	assert_msg(test_find(&t, "F001"), "empty");
	test_lint_free(&t);
}

/* Row 2: 3 bytes, the magic cut short. */
Test(hostile, three_byte_file)
{
	struct test_lint t;

	test_lint_bytes(&t, "GGU", 3);
	ASSERT_CODES(&t, "F001");
	ASSERT_ERROR(&t);
	assert_msg(test_find(&t, "F001"), "3 bytes");
	test_lint_free(&t);
}

/* Row 2: a file shorter than the 24-byte header, magic intact. */
Test(hostile, file_shorter_than_header)
{
	struct test_lint t;
	struct ggufw w;

	ggufw_init(&w, false);
	ggufw_header(&w, "GGUF", 3, 0, 0);
	test_lint_bytes(&t, w.out.buf, 20);
	ASSERT_CODES(&t, "F003");
	ASSERT_ERROR(&t);
	assert_offset(test_find(&t, "F003"), 16);
	test_lint_free(&t);
	ggufw_free(&w);
}

/* test-gguf HEADER_EMPTY: a bare header with no KVs and no tensors is
 * valid and loads. */
Test(hostile, header_only_is_clean)
{
	struct test_lint t;
	struct ggufw w;

	kv_file_begin(&w, 0);
	lint_w(&t, &w);
	ASSERT_CODES(&t, "");
	cr_assert(t.res.file.header_complete);
	test_lint_free(&t);
	ggufw_free(&w);
}

/* test-gguf HEADER_BAD_MAGIC. */
Test(hostile, bad_magic)
{
	struct test_lint t;
	struct ggufw w;

	ggufw_init(&w, false);
	ggufw_header(&w, "GGUG", 3, 0, 0);
	lint_w(&t, &w);
	ASSERT_CODES(&t, "F001");
	ASSERT_ERROR(&t);
	assert_offset(test_find(&t, "F001"), 0);
	assert_msg(test_find(&t, "F001"), "47 47 55 47");
	test_lint_free(&t);
	ggufw_free(&w);
}

/* §1.1 / F001 rationale: a legacy GGJT file ("ggjt" as a LE u32). */
Test(hostile, legacy_ggjt_magic)
{
	struct test_lint t;
	struct ggufw w;

	ggufw_init(&w, false);
	ggufw_header(&w, "tjgg", 3, 0, 0);
	lint_w(&t, &w);
	ASSERT_CODES(&t, "F001");
	ASSERT_ERROR(&t);
	assert_msg(test_find(&t, "F001"), "GGML/GGJT");
	test_lint_free(&t);
	ggufw_free(&w);
}

/* F004: a Git LFS pointer left by a clone without git-lfs. */
Test(hostile, git_lfs_pointer)
{
	static const char ptr[] =
	    "version https://git-lfs.github.com/spec/v1\n"
	    "oid sha256:4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2"
	    "ca24d17e2393\n"
	    "size 1234567\n";
	struct test_lint t;

	test_lint_bytes(&t, ptr, sizeof ptr - 1);
	ASSERT_CODES(&t, "F004");
	ASSERT_ERROR(&t);
	assert_msg(test_find(&t, "F004"), "1234567");
	test_lint_free(&t);
}

/* test-gguf BAD_VERSION_0. */
Test(hostile, version_0)
{
	struct test_lint t;
	struct ggufw w;

	ggufw_init(&w, false);
	ggufw_header(&w, "GGUF", 0, 0, 0);
	lint_w(&t, &w);
	ASSERT_CODES(&t, "F002");
	ASSERT_ERROR(&t);
	assert_offset(test_find(&t, "F002"), 4);
	test_lint_free(&t);
	ggufw_free(&w);
}

/*
 * Write a GGUF v1 file (§1.4): 32-bit counts, string lengths, array
 * counts and dimensions; value types stop at 9. One string KV, one u32 KV,
 * one string array and one F32 [4, 2] tensor with its data. When bad_u64,
 * the u32 KV is written with type UINT64 instead.
 */
static void
v1_file(struct ggufw *w, bool bad_u64)
{
	ggufw_init(w, false);
	ggufw_bytes(w, "GGUF", 4);
	ggufw_u32(w, 1);
	ggufw_u32(w, 1);		/* n_tensors */
	ggufw_u32(w, 3);		/* n_kv */
	ggufw_u32(w, 12);
	ggufw_bytes(w, "general.name", 12);
	ggufw_u32(w, GGUFW_STRING);
	ggufw_u32(w, 5);
	ggufw_bytes(w, "tiny1", 5);
	ggufw_u32(w, 13);
	ggufw_bytes(w, "test.v1.count", 13);
	if (bad_u64) {
		ggufw_u32(w, GGUFW_UINT64);
		ggufw_u64(w, 7);
	} else {
		ggufw_u32(w, GGUFW_UINT32);
		ggufw_u32(w, 7);
	}
	ggufw_u32(w, 11);
	ggufw_bytes(w, "test.v1.arr", 11);
	ggufw_u32(w, GGUFW_ARRAY);
	ggufw_u32(w, GGUFW_STRING);
	ggufw_u32(w, 2);		/* count */
	ggufw_u32(w, 1);
	ggufw_bytes(w, "a", 1);
	ggufw_u32(w, 2);
	ggufw_bytes(w, "bc", 2);
	ggufw_u32(w, 6);		/* tensor name */
	ggufw_bytes(w, "weight", 6);
	ggufw_u32(w, 2);		/* n_dims */
	ggufw_u32(w, 4);
	ggufw_u32(w, 2);
	ggufw_u32(w, GGUFW_GGML_F32);
	ggufw_u64(w, 0);		/* offset: u64 already in v1 */
	ggufw_pad(w, 32);
	zeros(w, 32);
}

/* test-gguf BAD_VERSION_1: reported, yet parsed with the v1 layout. */
Test(hostile, version_1_parsed_and_reported)
{
	struct test_lint t;
	struct ggufw w;
	const struct gguf_kv *kv;
	struct gguf_arr_iter it;
	struct gguf_str s;

	v1_file(&w, false);
	lint_w(&t, &w);
	ASSERT_F_CODES(&t, "F002");
	ASSERT_ERROR(&t);
	assert_offset(test_find(&t, "F002"), 4);
	cr_assert(t.res.file.header_complete);
	kv = gguf_find_kv(&t.res.file, "general.name");
	cr_assert_not_null(kv);
	cr_assert(gguf_str_eq(kv->val.v.s, "tiny1"));
	kv = gguf_find_kv(&t.res.file, "test.v1.count");
	cr_assert_not_null(kv);
	cr_assert_eq(kv->type, GGUF_UINT32);
	cr_assert_eq(kv->val.v.u, 7);
	kv = gguf_find_kv(&t.res.file, "test.v1.arr");
	cr_assert_not_null(kv);
	cr_assert_eq(kv->count, 2);
	gguf_arr_iter_init(&it, &t.res.file, kv);
	cr_assert(gguf_arr_next_str(&it, &s) && gguf_str_eq(s, "a"));
	cr_assert(gguf_arr_next_str(&it, &s) && gguf_str_eq(s, "bc"));
	cr_assert(!gguf_arr_next_str(&it, &s));
	cr_assert_eq(t.res.file.tensors_n, 1);
	cr_assert_eq(t.res.file.tensors[0].ne[0], 4);
	cr_assert_eq(t.res.file.tensors[0].ne[1], 2);
	cr_assert_eq(t.res.file.tensors[0].nbytes, 32);
	test_lint_free(&t);
	ggufw_free(&w);
}

/* test-gguf BAD_VERSION_FUTURE. */
Test(hostile, version_4)
{
	struct test_lint t;
	struct ggufw w;

	ggufw_init(&w, false);
	ggufw_header(&w, "GGUF", 4, 0, 0);
	lint_w(&t, &w);
	ASSERT_CODES(&t, "F002");
	ASSERT_ERROR(&t);
	assert_msg(test_find(&t, "F002"), "4");
	test_lint_free(&t);
	ggufw_free(&w);
}

/* §1.5 (ggml 3a9ce1fb): low 16 bits zero, but no version in either byte
 * order: neither big-endian nor supported. */
Test(hostile, version_implausible)
{
	static const uint32_t bad[] = { 0x00010000u, 0xffff0000u, 0x04000000u };
	struct test_lint t;
	struct ggufw w;
	size_t i;

	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		ggufw_init(&w, false);
		ggufw_header(&w, "GGUF", bad[i], 0, 0);
		lint_w(&t, &w);
		ASSERT_CODES(&t, "F002");
		ASSERT_ERROR(&t);
		test_lint_free(&t);
		ggufw_free(&w);
	}
}

/* §1.5: a big-endian v3 file is valid; F005 only, a warning, and every
 * value is read in the right byte order. */
Test(hostile, big_endian_v3)
{
	static const int64_t ne[] = { 8, 2 };
	struct ggufw_model m;
	struct strbuf out = STRBUF_INIT;
	struct test_lint t;
	const struct gguf_kv *kv;

	ggufw_model_init(&m, true, 32);
	ggufw_model_kv_u32(&m, "test.u32", 0x12345678u);
	ggufw_model_kv_i64(&m, "test.i64", -5);
	ggufw_model_kv_str(&m, "general.name", "be");
	ggufw_model_tensor(&m, "w", 2, ne, GGUFW_GGML_F32, 1, 4);
	ggufw_model_finish(&m, &out, GGUFW_DATA_ZERO);
	test_lint_bytes(&t, out.buf, out.len);
	ASSERT_F_CODES(&t, "F005");
	ASSERT_NO_F_ERROR(&t);
	assert_offset(test_find(&t, "F005"), 4);
	cr_assert(t.res.file.big_endian);
	cr_assert_eq(t.res.file.version, 3);
	kv = gguf_find_kv(&t.res.file, "test.u32");
	cr_assert_not_null(kv);
	cr_assert_eq(kv->val.v.u, 0x12345678u);
	kv = gguf_find_kv(&t.res.file, "test.i64");
	cr_assert_not_null(kv);
	cr_assert_eq(kv->val.v.i, -5);
	kv = gguf_find_kv(&t.res.file, "general.name");
	cr_assert_not_null(kv);
	cr_assert(gguf_str_eq(kv->val.v.s, "be"));
	cr_assert_eq(t.res.file.tensors_n, 1);
	cr_assert_eq(t.res.file.tensors[0].ne[0], 8);
	cr_assert_eq(t.res.file.tensors[0].ne[1], 2);
	cr_assert_eq(t.res.file.tensors[0].nbytes, 64);
	test_lint_free(&t);
	strbuf_free(&out);
	ggufw_model_free(&m);
}

/* Row 1, CVE-2024-23605: n_kv = 2^63, negative as int64. */
Test(hostile, n_kv_2_63_negative)
{
	struct test_lint t;
	struct ggufw w;

	ggufw_init(&w, false);
	ggufw_header(&w, "GGUF", 3, 0, UINT64_C(1) << 63);
	lint_w(&t, &w);
	ASSERT_CODES(&t, "F006");
	ASSERT_ERROR(&t);
	assert_msg(test_find(&t, "F006"), "negative");
	test_lint_free(&t);
	ggufw_free(&w);
}

/* Row 1, CVE-2024-21836: n_tensors = 2^63. */
Test(hostile, n_tensors_2_63_negative)
{
	struct test_lint t;
	struct ggufw w;

	ggufw_init(&w, false);
	ggufw_header(&w, "GGUF", 3, UINT64_C(1) << 63, 0);
	lint_w(&t, &w);
	ASSERT_CODES(&t, "F006");
	ASSERT_ERROR(&t);
	test_lint_free(&t);
	ggufw_free(&w);
}

/* test-gguf BAD_N_TENSORS and BAD_N_KV: a count of -1. */
Test(hostile, counts_minus_1)
{
	struct test_lint t;
	struct ggufw w;
	int i;

	for (i = 0; i < 2; i++) {
		ggufw_init(&w, false);
		ggufw_header(&w, "GGUF", 3, i ? 0 : UINT64_MAX,
		    i ? UINT64_MAX : 0);
		lint_w(&t, &w);
		ASSERT_CODES(&t, "F006");
		ASSERT_ERROR(&t);
		assert_msg(test_find(&t, "F006"), "-1");
		test_lint_free(&t);
		ggufw_free(&w);
	}
}

/* Row 1 (n_tensors allocation wrap): n_tensors = 2^60, positive but far
 * beyond the file. */
Test(hostile, n_tensors_2_60)
{
	struct test_lint t;
	struct ggufw w;

	ggufw_init(&w, false);
	ggufw_header(&w, "GGUF", 3, UINT64_C(1) << 60, 0);
	lint_w(&t, &w);
	ASSERT_CODES(&t, "F006");
	ASSERT_ERROR(&t);
	assert_msg(test_find(&t, "F006"), "1152921504606846976");
	test_lint_free(&t);
	ggufw_free(&w);
}

/*
 * Row 29, CVE-2025-0315: n_kv far above what the bytes can hold. A
 * plausible count in a short file is a truncation (F003, found where the
 * file ends, with no allocation sized by the count); an absurd one is F006.
 */
Test(hostile, n_kv_exceeds_file)
{
	struct test_lint t;
	struct ggufw w;

	kv_file_begin(&w, 1000);
	ggufw_kv_u32(&w, "a.b", 1);
	ggufw_kv_u32(&w, "a.c", 2);
	lint_w(&t, &w);
	ASSERT_CODES(&t, "F003");
	ASSERT_ERROR(&t);
	assert_msg(test_find(&t, "F003"), "truncated");
	cr_assert_eq(t.res.file.kv_n, 2, "the two real entries are read");
	test_lint_free(&t);
	ggufw_free(&w);
}

Test(hostile, n_kv_absurd_for_file)
{
	struct test_lint t;
	struct ggufw w;

	kv_file_begin(&w, UINT64_C(1) << 40);
	ggufw_kv_u32(&w, "a.b", 1);
	lint_w(&t, &w);
	ASSERT_CODES(&t, "F006");
	ASSERT_ERROR(&t);
	assert_offset(test_find(&t, "F006"), 16);
	assert_msg(test_find(&t, "F006"), "1099511627776");
	cr_assert_eq(t.res.file.kv_n, 0, "nothing allocated for the count");
	test_lint_free(&t);
	ggufw_free(&w);
}

/*
 * A tensor count that the bytes after the counts could hold (so that the
 * check of the counts passes) but the bytes after the metadata cannot: one
 * UINT8 array takes all the room. F006 points at the tensor count, at
 * offset 8 in every version (in v1 it is 32 bits wide, not elsewhere).
 */
Test(hostile, n_tensors_absurd_after_metadata)
{
	uint64_t n = (UINT64_C(1) << 20) + 1;	/* past PLAUSIBLE_COUNT */
	struct test_lint t;
	struct ggufw w;
	int v1;

	for (v1 = 0; v1 < 2; v1++) {
		uint64_t room = n * (v1 ? 20 : 24);	/* smallest infos */

		ggufw_init(&w, false);
		if (v1) {
			ggufw_bytes(&w, "GGUF", 4);
			ggufw_u32(&w, 1);
			ggufw_u32(&w, (uint32_t)n);
			ggufw_u32(&w, 1);
			ggufw_u32(&w, 3);
			ggufw_bytes(&w, "a.b", 3);
			ggufw_u32(&w, GGUFW_ARRAY);
			ggufw_u32(&w, GGUFW_UINT8);
			ggufw_u32(&w, (uint32_t)room);
		} else {
			ggufw_header(&w, "GGUF", 3, n, 1);
			ggufw_kv_arr_begin(&w, "a.b", GGUFW_UINT8, room);
		}
		zeros(&w, (size_t)room);
		lint_w(&t, &w);
		ASSERT_HAS(&t, "F006");
		assert_offset(test_find(&t, "F006"), 8);
		assert_msg(test_find(&t, "F006"), "after the metadata");
		cr_assert_eq(t.res.file.kv_n, 1, "the metadata is read");
		cr_assert_eq(t.res.file.tensors_n, 0, "no tensor is read");
		test_lint_free(&t);
		ggufw_free(&w);
	}
}

/*
 * Strings, arrays and value types.
 */

/* Row 1 / row 11: a string value of length 2^62. */
Test(hostile, string_len_2_62)
{
	struct test_lint t;
	struct ggufw w;
	size_t len_off;

	kv_file_begin(&w, 1);
	ggufw_kv_head(&w, "general.name", GGUFW_STRING);
	len_off = w.out.len;
	ggufw_strlen(&w, UINT64_C(1) << 62, "abc", 3);
	lint_w(&t, &w);
	ASSERT_CODES(&t, "F007");
	ASSERT_ERROR(&t);
	assert_offset(test_find(&t, "F007"), len_off);
	assert_subject(test_find(&t, "F007"), SUBJECT_KEY, "general.name");
	test_lint_free(&t);
	ggufw_free(&w);
}

/* test-gguf KV_BAD_KEY_SIZE; row 1 (CVE-2024-23496): key length -1. */
Test(hostile, key_len_minus_1)
{
	struct test_lint t;
	struct ggufw w;

	kv_file_begin(&w, 1);
	ggufw_strlen(&w, UINT64_MAX, "key", 3);
	ggufw_i32(&w, GGUFW_UINT8);
	ggufw_u8(&w, 0);
	lint_w(&t, &w);
	ASSERT_CODES(&t, "F007");
	ASSERT_ERROR(&t);
	assert_offset(test_find(&t, "F007"), 24);
	test_lint_free(&t);
	ggufw_free(&w);
}

/* Row 11 (GGUF_MAX_STRING_LENGTH): 2^30 is the limit, 2^30 + 1 is over
 * it; a length at the limit is only a truncation. */
Test(hostile, string_len_limit_boundary)
{
	struct test_lint t;
	struct ggufw w;

	kv_file_begin(&w, 1);
	ggufw_kv_head(&w, "general.name", GGUFW_STRING);
	ggufw_strlen(&w, (UINT64_C(1) << 30) + 1, "x", 1);
	lint_w(&t, &w);
	ASSERT_CODES(&t, "F007");
	test_lint_free(&t);
	ggufw_free(&w);

	kv_file_begin(&w, 1);
	ggufw_kv_head(&w, "general.name", GGUFW_STRING);
	ggufw_strlen(&w, UINT64_C(1) << 30, "x", 1);
	lint_w(&t, &w);
	ASSERT_CODES(&t, "F003");
	test_lint_free(&t);
	ggufw_free(&w);
}

/* Row 1 (CVE-2024-21825 class): an array count of 2^31. */
Test(hostile, array_count_2_31)
{
	struct test_lint t;
	struct ggufw w;
	size_t arr_off;

	kv_file_begin(&w, 1);
	ggufw_kv_head(&w, "tokenizer.ggml.scores", GGUFW_ARRAY);
	arr_off = w.out.len;
	ggufw_i32(&w, GGUFW_FLOAT32);
	ggufw_u64(&w, UINT64_C(1) << 31);
	ggufw_f32(&w, 1.0f);
	lint_w(&t, &w);
	ASSERT_CODES(&t, "F008");
	ASSERT_ERROR(&t);
	assert_offset(test_find(&t, "F008"), arr_off);
	assert_subject(test_find(&t, "F008"), SUBJECT_KEY,
	    "tokenizer.ggml.scores");
	assert_msg(test_find(&t, "F008"), "2147483648");
	test_lint_free(&t);
	ggufw_free(&w);
}

/* Row 1: a string array whose count times 8 exceeds the file (not over
 * the element limit): a truncation, found before any allocation. */
Test(hostile, string_array_count_exceeds_file)
{
	struct test_lint t;
	struct ggufw w;

	kv_file_begin(&w, 1);
	ggufw_kv_arr_begin(&w, "tokenizer.ggml.tokens", GGUFW_STRING,
	    UINT64_C(1) << 30);
	ggufw_str(&w, "a");
	lint_w(&t, &w);
	ASSERT_CODES(&t, "F003");
	ASSERT_ERROR(&t);
	test_lint_free(&t);
	ggufw_free(&w);
}

/* KV type lint: one KV of value type vt (raw i32), followed by 4 bytes. */
static void
lint_bad_vtype(struct test_lint *t, int32_t vt, size_t *type_off)
{
	struct ggufw w;

	kv_file_begin(&w, 1);
	ggufw_str(&w, "general.name");
	*type_off = w.out.len;
	ggufw_i32(&w, vt);
	ggufw_u32(&w, 0);
	lint_w(t, &w);
	ggufw_free(&w);
}

/* test-gguf KV_BAD_TYPE: value type 13 (GGUF_TYPE_COUNT). */
Test(hostile, value_type_13)
{
	struct test_lint t;
	size_t off;

	lint_bad_vtype(&t, 13, &off);
	ASSERT_CODES(&t, "F009");
	ASSERT_ERROR(&t);
	assert_offset(test_find(&t, "F009"), off);
	assert_subject(test_find(&t, "F009"), SUBJECT_KEY, "general.name");
	assert_msg(test_find(&t, "F009"), "13");
	test_lint_free(&t);
}

/* Row 1 (public UBSan PoC): value type 0x7fffffff. */
Test(hostile, value_type_0x7fffffff)
{
	struct test_lint t;
	size_t off;

	lint_bad_vtype(&t, INT32_MAX, &off);
	ASSERT_CODES(&t, "F009");
	ASSERT_ERROR(&t);
	assert_msg(test_find(&t, "F009"), "2147483647");
	test_lint_free(&t);
}

/* Row 11 (negative type): value type -1. */
Test(hostile, value_type_minus_1)
{
	struct test_lint t;
	size_t off;

	lint_bad_vtype(&t, -1, &off);
	ASSERT_CODES(&t, "F009");
	ASSERT_ERROR(&t);
	assert_msg(test_find(&t, "F009"), "-1");
	test_lint_free(&t);
}

/* Row 1 (array type out of range): array element type 13. */
Test(hostile, array_elem_type_13)
{
	struct test_lint t;
	struct ggufw w;
	size_t off;

	kv_file_begin(&w, 1);
	ggufw_kv_head(&w, "test.arr", GGUFW_ARRAY);
	off = w.out.len;
	ggufw_i32(&w, 13);
	ggufw_u64(&w, 1);
	ggufw_u64(&w, 0);
	lint_w(&t, &w);
	ASSERT_CODES(&t, "F009");
	ASSERT_ERROR(&t);
	assert_offset(test_find(&t, "F009"), off);
	assert_subject(test_find(&t, "F009"), SUBJECT_KEY, "test.arr");
	test_lint_free(&t);
	ggufw_free(&w);
}

/*
 * A string array is skipped in a tight loop; the first bad element is still
 * reported at its own offset: a length over the limit (F007), and one that
 * runs past the end of the file (F003), in both byte orders.
 */
static void
string_array_with_bad_element(bool be, uint64_t bad_len, const char *code,
    size_t after_len)
{
	struct test_lint t;
	struct ggufw w;
	size_t off;

	ggufw_init(&w, be);
	ggufw_header(&w, "GGUF", 3, 0, 1);
	ggufw_kv_arr_begin(&w, "test.arr", GGUFW_STRING, 4);
	ggufw_str(&w, "a");
	ggufw_str(&w, "bcd");
	off = w.out.len;
	ggufw_strlen(&w, bad_len, "efgh", 4);
	ggufw_str(&w, "i");
	lint_w(&t, &w);
	cr_assert_eq(test_count(&t, code), 1, "%s", test_codes(&t));
	cr_assert_eq(test_count(&t, "F005"), be ? 1 : 0, "%s",
	    test_codes(&t));	/* big-endian */
	cr_assert_eq(t.res.diags.n, be ? 2u : 1u, "%s", test_codes(&t));
	ASSERT_ERROR(&t);
	assert_offset(test_find(&t, code), off + after_len);
	assert_subject(test_find(&t, code), SUBJECT_KEY, "test.arr");
	test_lint_free(&t);
	ggufw_free(&w);
}

Test(hostile, string_array_element_over_the_limit)
{
	string_array_with_bad_element(false, (UINT64_C(1) << 30) + 1, "F007",
	    0);
	string_array_with_bad_element(true, (UINT64_C(1) << 30) + 1, "F007",
	    0);
}

Test(hostile, string_array_element_past_the_end)
{
	/* F003 names where the missing bytes start: after the length */
	string_array_with_bad_element(false, 1000, "F003", 8);
	string_array_with_bad_element(true, 1000, "F003", 8);
}

/* §1.4: UINT64 did not exist in GGUF v1. */
Test(hostile, v1_uint64)
{
	struct test_lint t;
	struct ggufw w;

	v1_file(&w, true);
	lint_w(&t, &w);
	ASSERT_HAS(&t, "F002");
	ASSERT_HAS(&t, "F009");
	ASSERT_ERROR(&t);
	assert_msg(test_find(&t, "F009"), "UINT64");
	assert_subject(test_find(&t, "F009"), SUBJECT_KEY, "test.v1.count");
	test_lint_free(&t);
	ggufw_free(&w);
}

/*
 * Tensor data bounds.
 */

/* test-gguf DATA_NOT_ENOUGH_DATA: the data one byte short. */
Test(hostile, data_one_byte_short)
{
	static const int64_t ne[] = { 8, 2 };
	struct ggufw_model m;
	struct strbuf out = STRBUF_INIT;
	struct test_lint t;
	const struct diag *d;

	ggufw_model_init(&m, false, 32);
	ggufw_model_kv_str(&m, "general.architecture", "llama");
	ggufw_model_tensor(&m, "a", 1, ne, GGUFW_GGML_F32, 1, 4);
	ggufw_model_tensor(&m, "b", 2, ne, GGUFW_GGML_F32, 1, 4);
	ggufw_model_finish(&m, &out, GGUFW_DATA_RANDOM);
	test_lint_bytes(&t, out.buf, out.len - 1);
	ASSERT_CODES(&t, "F010");
	ASSERT_ERROR(&t);
	d = test_find(&t, "F010");
	assert_subject(d, SUBJECT_TENSOR, "b");
	assert_offset(d, t.res.file.tensors[1].offset_info);
	assert_msg(d, "1 of 2 tensors");
	assert_msg(d, "(1 bytes missing");
	test_lint_free(&t);
	strbuf_free(&out);
	ggufw_model_free(&m);
}

/* §1.6 (pre-2025 readers used blob + offset unchecked): offset 2^63. */
Test(hostile, tensor_offset_2_63)
{
	static const int64_t ne[] = { 8 };
	struct test_lint t;

	lint_one_tensor(&t, "w", 1, ne, GGUFW_GGML_F32, UINT64_C(1) << 63, 32);
	ASSERT_HAS(&t, "F010");
	ASSERT_ERROR(&t);
	assert_subject(test_find(&t, "F010"), SUBJECT_TENSOR, "w");
	test_lint_free(&t);
}

/* test-gguf BAD_OFFSET: offset UINT64_MAX (also misaligned). */
Test(hostile, tensor_offset_u64_max)
{
	static const int64_t ne[] = { 8 };
	struct test_lint t;

	lint_one_tensor(&t, "w", 1, ne, GGUFW_GGML_F32, UINT64_MAX, 32);
	ASSERT_HAS(&t, "F010");
	ASSERT_HAS(&t, "F025");
	ASSERT_ERROR(&t);
	assert_msg(test_find(&t, "F010"), "18446744073709551615");
	test_lint_free(&t);
}

/*
 * Nested arrays.
 */

/* §1.3 and row 18: an array of arrays, two levels. Reported once, and
 * the rest of the file is still parsed. */
Test(hostile, nested_array_depth_2)
{
	static const int64_t ne[] = { 8 };
	struct test_lint t;
	struct ggufw w;
	const struct gguf_kv *kv;
	size_t off;

	ggufw_init(&w, false);
	ggufw_header(&w, "GGUF", 3, 1, 2);
	ggufw_kv_head(&w, "test.nested", GGUFW_ARRAY);
	off = w.out.len;
	ggufw_i32(&w, GGUFW_ARRAY);
	ggufw_u64(&w, 2);
	ggufw_i32(&w, GGUFW_UINT8);	/* inner 1: u8[3] */
	ggufw_u64(&w, 3);
	ggufw_bytes(&w, "\1\2\3", 3);
	ggufw_i32(&w, GGUFW_STRING);	/* inner 2: string[1] */
	ggufw_u64(&w, 1);
	ggufw_str(&w, "xyz");
	ggufw_kv_str(&w, "general.name", "after");
	ggufw_tensor_info(&w, "w", 1, ne, GGUFW_GGML_F32, 0);
	ggufw_pad(&w, 32);
	zeros(&w, 32);
	lint_w(&t, &w);
	ASSERT_F_CODES(&t, "F011");
	ASSERT_ERROR(&t);
	assert_offset(test_find(&t, "F011"), off);
	assert_subject(test_find(&t, "F011"), SUBJECT_KEY, "test.nested");
	cr_assert(t.res.file.header_complete);
	kv = gguf_find_kv(&t.res.file, "general.name");
	cr_assert_not_null(kv, "the KV after the nested array was not parsed");
	cr_assert(gguf_str_eq(kv->val.v.s, "after"));
	cr_assert_eq(t.res.file.tensors_n, 1);
	test_lint_free(&t);
	ggufw_free(&w);
}

/* Row 18 (GGUF-PY-F001): ARRAY of ARRAY nested 100000 deep. Bounded
 * recursion, a bounded number of findings, no crash. */
Test(hostile, nested_array_100000_deep)
{
	struct test_lint t;
	struct ggufw w;
	int i;

	kv_file_begin(&w, 1);
	ggufw_kv_head(&w, "test.deep", GGUFW_ARRAY);
	for (i = 0; i < 100000; i++) {
		ggufw_i32(&w, GGUFW_ARRAY);
		ggufw_u64(&w, 1);
	}
	ggufw_i32(&w, GGUFW_UINT8);
	ggufw_u64(&w, 0);
	lint_w(&t, &w);
	ASSERT_HAS(&t, "F011");
	ASSERT_ERROR(&t);
	cr_assert_leq(test_count(&t, "F011"), 2, "got: %s", test_codes(&t));
	cr_assert_leq(t.res.diags.n, 3, "got: %s", test_codes(&t));
	test_lint_free(&t);
	ggufw_free(&w);
}

/*
 * BUG (see the report): in a GGUF v1 file an inner array header is 8 bytes
 * (u32 type, u32 count), but the reader bounds the count of an array of
 * arrays by 12-byte headers, so a complete v1 file is reported truncated.
 * Enable when fixed.
 */
Test(hostile, v1_nested_array_not_truncated)
{
	struct test_lint t;
	struct ggufw w;
	int i;

	ggufw_init(&w, false);
	ggufw_bytes(&w, "GGUF", 4);
	ggufw_u32(&w, 1);
	ggufw_u32(&w, 0);		/* n_tensors */
	ggufw_u32(&w, 1);		/* n_kv */
	ggufw_u32(&w, 3);
	ggufw_bytes(&w, "a.b", 3);
	ggufw_u32(&w, GGUFW_ARRAY);
	ggufw_u32(&w, GGUFW_ARRAY);
	ggufw_u32(&w, 3);
	for (i = 0; i < 3; i++) {
		ggufw_u32(&w, GGUFW_UINT8);
		ggufw_u32(&w, 0);
	}
	lint_w(&t, &w);
	ASSERT_HAS(&t, "F011");
	ASSERT_NOT(&t, "F003");
	cr_assert(t.res.file.header_complete);
	test_lint_free(&t);
	ggufw_free(&w);
}

/*
 * Keys and alignment.
 */

/* Row 15 (ggml 64b07822), test-gguf KV_EMPTY_KEY: key of length 0. */
Test(hostile, empty_key)
{
	struct test_lint t;
	struct ggufw w;

	kv_file_begin(&w, 2);
	ggufw_kv_u32(&w, "", 1);
	ggufw_kv_str(&w, "general.name", "x");
	lint_w(&t, &w);
	ASSERT_CODES(&t, "F012");
	ASSERT_ERROR(&t);
	assert_offset(test_find(&t, "F012"), 24);
	cr_assert_eq(t.res.file.kv_n, 2, "parsing goes on after the empty key");
	test_lint_free(&t);
	ggufw_free(&w);
}

/*
 * §1.2 (the spec's key grammar: at most 65535 bytes, which ggml does not
 * check): a key of 65536 bytes is F033, one of 65535 is not.
 */
Test(hostile, key_too_long)
{
	char *key = xmalloc(65537);
	struct test_lint t;
	struct ggufw w;

	memset(key, 'k', 65536);
	key[65536] = '\0';
	kv_file_begin(&w, 2);
	ggufw_kv_u32(&w, key, 1);
	ggufw_kv_str(&w, "general.name", "x");
	lint_w(&t, &w);
	ASSERT_CODES(&t, "F033");
	ASSERT_ERROR(&t);
	assert_offset(test_find(&t, "F033"), 24);
	assert_msg(test_find(&t, "F033"), "key of 65536 bytes");
	cr_assert_eq(t.res.file.kv_n, 2, "parsing goes on after the key");
	test_lint_free(&t);
	ggufw_free(&w);
	key[65535] = '\0';
	kv_file_begin(&w, 1);
	ggufw_kv_u32(&w, key, 1);
	lint_w(&t, &w);
	ASSERT_CODES(&t, "");
	test_lint_free(&t);
	ggufw_free(&w);
	free(key);
}

/* test-gguf KV_DUPLICATE_KEY: the finding is on the second copy. */
Test(hostile, duplicate_key)
{
	struct test_lint t;
	struct ggufw w;
	size_t second;
	const struct diag *d;

	kv_file_begin(&w, 3);
	ggufw_kv_str(&w, "tokenizer.chat_template", "{{ safe }}");
	ggufw_kv_u32(&w, "general.x", 1);
	second = w.out.len;
	ggufw_kv_str(&w, "tokenizer.chat_template", "{{ evil }}");
	lint_w(&t, &w);
	ASSERT_CODES(&t, "F013");
	ASSERT_ERROR(&t);
	cr_assert_eq(test_count(&t, "F013"), 1);
	d = test_find(&t, "F013");
	assert_subject(d, SUBJECT_KEY, "tokenizer.chat_template");
	assert_offset(d, second);
	assert_msg(d, "0x18");		/* first defined at offset 24 */
	test_lint_free(&t);
	ggufw_free(&w);
}

/* Row 14b (ggml c2cdd2b2): general.alignment stored as INT32. */
Test(hostile, alignment_int32)
{
	struct test_lint t;
	struct ggufw w;

	kv_file_begin(&w, 1);
	ggufw_kv_i32(&w, "general.alignment", 32);
	lint_w(&t, &w);
	ASSERT_CODES(&t, "F014");
	ASSERT_ERROR(&t);
	assert_subject(test_find(&t, "F014"), SUBJECT_KEY, "general.alignment");
	assert_offset(test_find(&t, "F014"), 24);
	assert_msg(test_find(&t, "F014"), "INT32");
	test_lint_free(&t);
	ggufw_free(&w);
}

/* Row 14b: general.alignment stored as STRING. */
Test(hostile, alignment_string)
{
	struct test_lint t;
	struct ggufw w;

	kv_file_begin(&w, 1);
	ggufw_kv_str(&w, "general.alignment", "32");
	lint_w(&t, &w);
	ASSERT_CODES(&t, "F014");
	ASSERT_ERROR(&t);
	assert_msg(test_find(&t, "F014"), "STRING");
	test_lint_free(&t);
	ggufw_free(&w);
}

/* Issue 38: general.alignment as UINT64 (ggml requires UINT32 exactly:
 * "general.alignment has wrong type"). */
Test(hostile, alignment_uint64)
{
	struct test_lint t;
	struct ggufw w;

	kv_file_begin(&w, 1);
	ggufw_kv_u64(&w, "general.alignment", 32);
	lint_w(&t, &w);
	ASSERT_CODES(&t, "F014");
	ASSERT_ERROR(&t);
	assert_msg(test_find(&t, "F014"), "UINT64");
	test_lint_free(&t);
	ggufw_free(&w);
}

/* Issue 38: general.alignment as INT32 in a file with a tensor: the data
 * is then located at the default alignment, and the finding is F014. */
Test(hostile, alignment_int32_with_tensor)
{
	static const int64_t ne[] = { 8 };
	struct test_lint t;
	struct ggufw w;

	ggufw_init(&w, false);
	ggufw_header(&w, "GGUF", 3, 1, 1);
	ggufw_kv_i32(&w, "general.alignment", 64);
	ggufw_tensor_info(&w, "w", 1, ne, GGUFW_GGML_F32, 0);
	ggufw_pad(&w, 32);
	zeros(&w, 32);
	lint_w(&t, &w);
	ASSERT_F_CODES(&t, "F014");
	ASSERT_ERROR(&t);
	cr_assert_eq(t.res.file.alignment, 32);
	test_lint_free(&t);
	ggufw_free(&w);
}

/* Row 29, CVE-2025-0317 (Ollama divide by zero): alignment 0. */
Test(hostile, alignment_0)
{
	struct test_lint t;

	lint_alignment_u32(&t, 0);
	ASSERT_CODES(&t, "F014");
	ASSERT_ERROR(&t);
	cr_assert_eq(t.res.file.alignment, 32, "falls back to the default");
	test_lint_free(&t);
}

/* test-gguf KV_BAD_ALIGN: alignment 13, not a power of two. */
Test(hostile, alignment_13)
{
	struct test_lint t;

	lint_alignment_u32(&t, 13);
	ASSERT_CODES(&t, "F014");
	ASSERT_ERROR(&t);
	assert_msg(test_find(&t, "F014"), "13");
	test_lint_free(&t);
}

/* §1.6 (spec: a multiple of 8; ggml accepts it): alignment 4, an error
 * since the file breaks the spec. */
Test(hostile, alignment_4)
{
	struct test_lint t;

	lint_alignment_u32(&t, 4);
	ASSERT_CODES(&t, "F015");
	ASSERT_ERROR(&t);
	cr_assert_eq(t.res.file.alignment, 4);
	test_lint_free(&t);
}

/* Row 16 (oss-security V-01): alignment 2^31 with n_tensors = 0. */
Test(hostile, alignment_2_31)
{
	struct test_lint t;

	lint_alignment_u32(&t, UINT32_C(1) << 31);
	ASSERT_CODES(&t, "F034");
	ASSERT_NO_ERROR(&t);
	assert_msg(test_find(&t, "F034"), "2147483648");
	test_lint_free(&t);
}

/* Issue 38: alignment 2^31 beside a tensor. ggml (64-bit) pads the data
 * start to 2 GiB without wrapping, and the data is then past the end of
 * the file: F034 (the warning) and F010 (the error). */
Test(hostile, alignment_2_31_with_tensor)
{
	static const int64_t ne[] = { 8 };
	struct test_lint t;
	struct ggufw w;

	ggufw_init(&w, false);
	ggufw_header(&w, "GGUF", 3, 1, 1);
	ggufw_kv_u32(&w, "general.alignment", UINT32_C(1) << 31);
	ggufw_tensor_info(&w, "w", 1, ne, GGUFW_GGML_F32, 0);
	ggufw_pad(&w, 32);
	zeros(&w, 32);
	lint_w(&t, &w);
	ASSERT_HAS(&t, "F034");
	ASSERT_HAS(&t, "F010");
	ASSERT_ERROR(&t);
	cr_assert_eq(test_find(&t, "F034")->severity, SEV_WARNING);
	test_lint_free(&t);
	ggufw_free(&w);
}

/*
 * Tensor infos.
 */

/* F016: a tensor with an empty name. */
Test(hostile, empty_tensor_name)
{
	static const int64_t ne[] = { 8 };
	struct test_lint t;

	lint_one_tensor(&t, "", 1, ne, GGUFW_GGML_F32, 0, 32);
	ASSERT_F_CODES(&t, "F016");
	ASSERT_ERROR(&t);
	assert_offset(test_find(&t, "F016"), 24);
	test_lint_free(&t);
}

/* Write a two-tensor file: names n1 and n2, F32 [8] each, offsets o1 and
 * o2, with data_len bytes of data. *info2 is where the second info starts. */
static void
two_tensors(struct ggufw *w, const char *n1, uint64_t o1, const char *n2,
    uint64_t o2, size_t data_len, size_t *info2)
{
	static const int64_t ne[] = { 8 };

	ggufw_init(w, false);
	ggufw_header(w, "GGUF", 3, 2, 0);
	ggufw_tensor_info(w, n1, 1, ne, GGUFW_GGML_F32, o1);
	if (info2 != NULL)
		*info2 = w->out.len;
	ggufw_tensor_info(w, n2, 1, ne, GGUFW_GGML_F32, o2);
	ggufw_pad(w, 32);
	zeros(w, data_len);
}

/* Row 3 (llama.cpp e6db6ac6), test-gguf DUPLICATE_NAME. */
Test(hostile, duplicate_tensor_name)
{
	struct test_lint t;
	struct ggufw w;
	size_t info2;

	two_tensors(&w, "blk.0.attn_q.weight", 0, "blk.0.attn_q.weight", 32,
	    64, &info2);
	lint_w(&t, &w);
	ASSERT_F_CODES(&t, "F017");
	ASSERT_ERROR(&t);
	assert_subject(test_find(&t, "F017"), SUBJECT_TENSOR,
	    "blk.0.attn_q.weight");
	assert_offset(test_find(&t, "F017"), info2);
	test_lint_free(&t);
	ggufw_free(&w);
}

/*
 * BUG (see the report): F017's rationale says ggml compares names as C
 * strings, so names that differ only after an embedded NUL are duplicates,
 * but the reader compares all the bytes. Enable when fixed.
 */
Test(hostile, duplicate_tensor_name_after_nul)
{
	static const int64_t ne[] = { 8 };
	struct test_lint t;
	struct ggufw w;

	ggufw_init(&w, false);
	ggufw_header(&w, "GGUF", 3, 2, 0);
	ggufw_strn(&w, "w\0a", 3);
	ggufw_u32(&w, 1);
	ggufw_i64(&w, ne[0]);
	ggufw_i32(&w, GGUFW_GGML_F32);
	ggufw_u64(&w, 0);
	ggufw_strn(&w, "w\0b", 3);
	ggufw_u32(&w, 1);
	ggufw_i64(&w, ne[0]);
	ggufw_i32(&w, GGUFW_GGML_F32);
	ggufw_u64(&w, 32);
	ggufw_pad(&w, 32);
	zeros(&w, 64);
	lint_w(&t, &w);
	ASSERT_HAS(&t, "F017");
	test_lint_free(&t);
	ggufw_free(&w);
}

/* Row 4 (ggml df9ac4ac), test-gguf BAD_NAME_SIZE: a 64-byte name is too
 * long; 63 bytes is the maximum. */
Test(hostile, tensor_name_64_bytes)
{
	static const int64_t ne[] = { 8 };
	char name[65];
	struct test_lint t;

	memset(name, 'n', 64);
	name[64] = '\0';
	lint_one_tensor(&t, name, 1, ne, GGUFW_GGML_F32, 0, 32);
	ASSERT_F_CODES(&t, "F018");
	ASSERT_ERROR(&t);
	assert_subject(test_find(&t, "F018"), SUBJECT_TENSOR, name);
	assert_msg(test_find(&t, "F018"), "64 bytes");
	test_lint_free(&t);

	name[63] = '\0';
	lint_one_tensor(&t, name, 1, ne, GGUFW_GGML_F32, 0, 32);
	ASSERT_F_CODES(&t, "");
	test_lint_free(&t);
}

/* Row 1d (CVE-2024-21802), test-gguf BAD_N_DIMS: n_dims = 5. The info is
 * still parsed to its end, so a following tensor is read. */
Test(hostile, n_dims_5)
{
	static const int64_t ne5[] = { 8, 1, 1, 1, 1 };
	static const int64_t ne[] = { 8 };
	struct test_lint t;
	struct ggufw w;

	ggufw_init(&w, false);
	ggufw_header(&w, "GGUF", 3, 2, 0);
	ggufw_tensor_info(&w, "five", 5, ne5, GGUFW_GGML_F32, 0);
	ggufw_tensor_info(&w, "one", 1, ne, GGUFW_GGML_F32, 32);
	ggufw_pad(&w, 32);
	zeros(&w, 64);
	lint_w(&t, &w);
	ASSERT_HAS(&t, "F019");
	ASSERT_ERROR(&t);
	assert_subject(test_find(&t, "F019"), SUBJECT_TENSOR, "five");
	assert_offset(test_find(&t, "F019"), 24);
	cr_assert(t.res.file.header_complete);
	cr_assert_eq(t.res.file.tensors_n, 2);
	test_lint_free(&t);
	ggufw_free(&w);
}

/* Rows 1 and 17 (gguf-py 5788b510): n_dims = 0xFFFFFFFF. F019, then the
 * dimensions run past the end of the file (F003); nothing huge is
 * allocated. */
Test(hostile, n_dims_ffffffff)
{
	static const int64_t ne[] = { 8, 8 };
	struct test_lint t;
	struct ggufw w;

	ggufw_init(&w, false);
	ggufw_header(&w, "GGUF", 3, 1, 0);
	ggufw_str(&w, "w");
	ggufw_u32(&w, UINT32_MAX);
	ggufw_i64(&w, ne[0]);
	ggufw_i64(&w, ne[1]);
	ggufw_i32(&w, GGUFW_GGML_F32);
	ggufw_u64(&w, 0);
	lint_w(&t, &w);
	ASSERT_CODES(&t, "F019 F003");
	ASSERT_ERROR(&t);
	assert_msg(test_find(&t, "F019"), "4294967295");
	test_lint_free(&t);
	ggufw_free(&w);
}

/* test-gguf BAD_SHAPE: a dimension of -1. */
Test(hostile, negative_dimension)
{
	static const int64_t ne[] = { 8, -1 };
	struct test_lint t;

	lint_one_tensor(&t, "w", 2, ne, GGUFW_GGML_F32, 0, 32);
	ASSERT_F_CODES(&t, "F020");
	ASSERT_ERROR(&t);
	assert_subject(test_find(&t, "F020"), SUBJECT_TENSOR, "w");
	assert_msg(test_find(&t, "F020"), "-1");
	test_lint_free(&t);
}

/* test-gguf NE_TOO_BIG: four dimensions of 4 * INT32_MAX. */
Test(hostile, ne_too_big)
{
	static const int64_t ne[] = {
		4 * (int64_t)INT32_MAX, 4 * (int64_t)INT32_MAX,
		4 * (int64_t)INT32_MAX, 4 * (int64_t)INT32_MAX
	};
	struct test_lint t;

	lint_one_tensor(&t, "w", 4, ne, GGUFW_GGML_F32, 0, 32);
	ASSERT_F_CODES(&t, "F021");
	ASSERT_ERROR(&t);
	assert_subject(test_find(&t, "F021"), SUBJECT_TENSOR, "w");
	test_lint_free(&t);
}

/*
 * Issue 17: ne = 2^32 x 2^32 x 2^32, an element count of 2^96, which
 * wraps to 0 in 64 bits. llama.cpp v0.5.0's container parser accepts the
 * tensor; gguflint flags the element count itself (F021).
 */
Test(hostile, element_count_2_96_wraps_to_0)
{
	static const int64_t ne[] = {
		INT64_C(1) << 32, INT64_C(1) << 32, INT64_C(1) << 32
	};
	struct test_lint t;

	lint_one_tensor(&t, "w", 3, ne, GGUFW_GGML_F32, 0, 32);
	ASSERT_F_CODES(&t, "F021");
	ASSERT_ERROR(&t);
	assert_subject(test_find(&t, "F021"), SUBJECT_TENSOR, "w");
	assert_msg(test_find(&t, "F021"), "element count 4294967296 x "
	    "4294967296 x 4294967296 x 1 does not fit");
	test_lint_free(&t);
}

/* Row 10 (CVE-2026-33298), test-gguf NBYTES_TOO_BIG: I64 with ne0 = 2^61,
 * whose byte count (2^64) overflows. */
Test(hostile, nbytes_too_big_i64)
{
	static const int64_t ne[] = { INT64_C(1) << 61 };
	struct test_lint t;

	lint_one_tensor(&t, "w", 1, ne, T_I64, 0, 32);
	ASSERT_F_CODES(&t, "F021");
	ASSERT_ERROR(&t);
	test_lint_free(&t);
}

/* Row 12 (llama.cpp PR #24759): F32 with ne0 = SIZE_MAX / 4, whose byte
 * count SIZE_MAX - 3 makes GGML_PAD wrap to 0. */
Test(hostile, ggml_pad_wrap_f32)
{
	static const int64_t ne[] = { INT64_C(4611686018427387903) };
	struct test_lint t;

	lint_one_tensor(&t, "w", 1, ne, GGUFW_GGML_F32, 0, 32);
	ASSERT_F_CODES(&t, "F021");
	ASSERT_ERROR(&t);
	test_lint_free(&t);
}

/* Row 13 (ggml_nbytes multiplies before dividing): Q4_0 with ne0 = 2^60.
 * The byte count itself (18 * 2^55) fits, but ggml_nbytes computes
 * ne0 * 18 first, which wraps: llama.cpp would size it at 2^56 bytes.
 * F021 says both; the data is not in the file either (F010). */
Test(hostile, ggml_nbytes_intermediate_q4_0)
{
	static const int64_t ne[] = { INT64_C(1) << 60 };
	struct test_lint t;

	lint_one_tensor(&t, "w", 1, ne, GGUFW_GGML_Q4_0, 0, 32);
	ASSERT_F_CODES(&t, "F010 F021");
	ASSERT_ERROR(&t);
	cr_assert_eq(t.res.file.tensors[0].nbytes, UINT64_C(18) << 55);
	assert_msg(test_find(&t, "F021"), "sizes it at 72057594037927936 "
	    "bytes, not 648518346341351424");
	test_lint_free(&t);
}

/*
 * Issue 38: a Q4_0 tensor whose ggml_nbytes wraps to 2 bytes. ne0 =
 * 32 * k with 9k = 1 (mod 2^58), so ne0 * 18 = 64 (mod 2^64): llama.cpp
 * v0.5.0's header checks pass (the true size, about 2^62 bytes, fits in
 * size_t), and its loader would size the tensor at 2 bytes, which any
 * file holds. gguflint flags the wrap (F021) and the true size (F010).
 */
Test(hostile, ggml_nbytes_wraps_to_2_q4_0)
{
	static const int64_t ne[] = { INT64_C(5124095576030431008), 1 };
	struct test_lint t;
	const struct diag *d;

	lint_one_tensor(&t, "w", 2, ne, GGUFW_GGML_Q4_0, 0, 32);
	ASSERT_F_CODES(&t, "F010 F021");
	ASSERT_ERROR(&t);
	d = test_find(&t, "F021");
	assert_subject(d, SUBJECT_TENSOR, "w");
	assert_offset(d, 24);
	assert_msg(d, "wraps in ggml_nbytes: ne[0] x 18 overflows 64 bits, so "
	    "llama.cpp sizes it at 2 bytes");
	test_lint_free(&t);
}

/* The same shape as Q8_0 (34 bytes a block) does not wrap to 2, but wraps
 * all the same: every block type is checked, not one size. */
Test(hostile, ggml_nbytes_wraps_q8_0)
{
	static const int64_t ne[] = { INT64_C(5124095576030431008) };
	struct test_lint t;

	lint_one_tensor(&t, "w", 1, ne, GGUFW_GGML_Q8_0, 0, 32);
	ASSERT_HAS(&t, "F021");
	ASSERT_ERROR(&t);
	assert_msg(test_find(&t, "F021"), "ne[0] x 34 overflows");
	test_lint_free(&t);
}

/* An F32 (block size 1) tensor of 2^59 elements: ne0 * 4 fits, no wrap;
 * only the data is missing (F010). */
Test(hostile, ggml_nbytes_no_wrap_f32)
{
	static const int64_t ne[] = { INT64_C(1) << 59 };
	struct test_lint t;

	lint_one_tensor(&t, "w", 1, ne, GGUFW_GGML_F32, 0, 32);
	ASSERT_F_CODES(&t, "F010");
	test_lint_free(&t);
}

/* Issue 38: ne = (INT64_MAX, 2, 1, 1), whose element count 2^64 - 2
 * slips past an unsigned 64-bit product; ggml refuses it ("total number
 * of elements ... is >= INT64_MAX"), and so does gguflint (F021). */
Test(hostile, element_count_int64_max_x2)
{
	static const int64_t ne[] = { INT64_MAX, 2, 1, 1 };
	struct test_lint t;

	lint_one_tensor(&t, "w", 4, ne, GGUFW_GGML_F32, 0, 32);
	ASSERT_F_CODES(&t, "F021");
	ASSERT_ERROR(&t);
	assert_subject(test_find(&t, "F021"), SUBJECT_TENSOR, "w");
	assert_msg(test_find(&t, "F021"), "element count 9223372036854775807 "
	    "x 2 x 1 x 1 does not fit in int64");
	test_lint_free(&t);
}

/* The same as I8 over two dimensions the other way round: (2, INT64_MAX). */
Test(hostile, element_count_2_x_int64_max)
{
	static const int64_t ne[] = { 2, INT64_MAX };
	struct test_lint t;

	lint_one_tensor(&t, "w", 2, ne, T_I8, 0, 32);
	ASSERT_F_CODES(&t, "F021");
	ASSERT_ERROR(&t);
	test_lint_free(&t);
}

/* Row 11 (CVE-2026-27940), test-gguf DATA_MEM_SIZE_OVERFLOW: two I8
 * tensors of ne0 = 0x7FFFFFFFFFFFFFC0, offsets laid out contiguously. */
Test(hostile, data_mem_size_overflow)
{
	static const int64_t ne[] = { INT64_C(0x7FFFFFFFFFFFFFC0) };
	struct test_lint t;
	struct ggufw w;

	ggufw_init(&w, false);
	ggufw_header(&w, "GGUF", 3, 2, 0);
	ggufw_tensor_info(&w, "a", 1, ne, T_I8, 0);
	ggufw_tensor_info(&w, "b", 1, ne, T_I8, UINT64_C(0x7FFFFFFFFFFFFFC0));
	ggufw_pad(&w, 32);
	zeros(&w, 64);
	lint_w(&t, &w);
	cr_assert(test_count(&t, "F010") + test_count(&t, "F021") >= 1,
	    "got: %s", test_codes(&t));
	ASSERT_ERROR(&t);
	test_lint_free(&t);
	ggufw_free(&w);
}

/*
 * BUG (see the report): as above, with a header long enough that the
 * data offset plus the second tensor's end wraps 64 bits. The F010 message
 * then says the first tensor's offset (0) "lies beyond any possible file
 * end", which is false for it. Enable when fixed.
 */
Test(hostile, data_mem_size_overflow_message)
{
	static const int64_t ne[] = { INT64_C(0x7FFFFFFFFFFFFFC0) };
	char na[41], nb[41];
	struct test_lint t;
	struct ggufw w;

	memset(na, 'a', 40);
	memset(nb, 'b', 40);
	na[40] = nb[40] = '\0';
	ggufw_init(&w, false);
	ggufw_header(&w, "GGUF", 3, 2, 0);
	ggufw_tensor_info(&w, na, 1, ne, T_I8, 0);
	ggufw_tensor_info(&w, nb, 1, ne, T_I8, UINT64_C(0x7FFFFFFFFFFFFFC0));
	ggufw_pad(&w, 32);
	cr_assert_geq(w.out.len, 128);
	zeros(&w, 64);
	lint_w(&t, &w);
	ASSERT_HAS(&t, "F010");
	cr_assert(strstr(test_find(&t, "F010")->message,
	    "offset 0 lies beyond") == NULL, "%s",
	    test_find(&t, "F010")->message);
	test_lint_free(&t);
	ggufw_free(&w);
}

/* Row 9 (CVE-2025-53630): padded sizes that fit one by one but whose
 * running sum wraps 64 bits. */
Test(hostile, running_size_sum_overflow)
{
	static const int64_t ne[] = { INT64_C(0x6000000000000000) };
	struct test_lint t;
	struct ggufw w;

	ggufw_init(&w, false);
	ggufw_header(&w, "GGUF", 3, 3, 0);
	ggufw_tensor_info(&w, "a", 1, ne, T_I8, 0);
	ggufw_tensor_info(&w, "b", 1, ne, T_I8, UINT64_C(0x6000000000000000));
	ggufw_tensor_info(&w, "c", 1, ne, T_I8, UINT64_C(0xC000000000000000));
	ggufw_pad(&w, 32);
	zeros(&w, 32);
	lint_w(&t, &w);
	ASSERT_HAS(&t, "F021");
	ASSERT_ERROR(&t);
	assert_subject(test_find(&t, "F021"), SUBJECT_TENSOR, "c");
	test_lint_free(&t);
	ggufw_free(&w);
}

/*
 * Tensor types.
 */

/* Row 1e, test-gguf BAD_TYPE: type 43 (GGML_TYPE_COUNT). */
Test(hostile, tensor_type_43)
{
	static const int64_t ne[] = { 8 };
	struct test_lint t;

	lint_one_tensor(&t, "w", 1, ne, 43, 0, 32);
	ASSERT_F_CODES(&t, "F022");
	ASSERT_ERROR(&t);
	assert_subject(test_find(&t, "F022"), SUBJECT_TENSOR, "w");
	assert_msg(test_find(&t, "F022"), "43");
	test_lint_free(&t);
}

/* §3.2: fork type 134 (ik_llama.cpp IQ1_BN), named in the message. */
Test(hostile, tensor_type_134_ik_llama)
{
	static const int64_t ne[] = { 64 };
	struct test_lint t;

	lint_one_tensor(&t, "w", 1, ne, 134, 0, 32);
	ASSERT_F_CODES(&t, "F022");
	ASSERT_ERROR(&t);
	assert_msg(test_find(&t, "F022"), "ik_llama.cpp");
	test_lint_free(&t);
}

/* Row 1e / row 11: tensor types -1 and 0x7fffffff. */
Test(hostile, tensor_type_negative_and_huge)
{
	static const int64_t ne[] = { 8 };
	struct test_lint t;

	lint_one_tensor(&t, "w", 1, ne, -1, 0, 32);
	ASSERT_F_CODES(&t, "F022");
	ASSERT_ERROR(&t);
	assert_msg(test_find(&t, "F022"), "-1");
	test_lint_free(&t);
	lint_one_tensor(&t, "w", 1, ne, INT32_MAX, 0, 32);
	ASSERT_F_CODES(&t, "F022");
	ASSERT_ERROR(&t);
	test_lint_free(&t);
}

/* §2.3 (removed ids, blck_size 0): type 4, Q4_2. */
Test(hostile, tensor_type_4_removed)
{
	static const int64_t ne[] = { 32 };
	struct test_lint t;

	lint_one_tensor(&t, "w", 1, ne, 4, 0, 32);
	ASSERT_F_CODES(&t, "F023");
	ASSERT_ERROR(&t);
	assert_msg(test_find(&t, "F023"), "Q4_2");
	test_lint_free(&t);
}

/* §3.2: type 36, IQ4_NL_4_4 upstream, I2_S in BitNet and ik_llama.cpp. */
Test(hostile, tensor_type_36_removed)
{
	static const int64_t ne[] = { 32 };
	struct test_lint t;

	lint_one_tensor(&t, "w", 1, ne, 36, 0, 32);
	ASSERT_F_CODES(&t, "F023");
	ASSERT_ERROR(&t);
	assert_msg(test_find(&t, "F023"), "I2_S");
	test_lint_free(&t);
}

/* §1.7: Q4_0 with ne0 = 33, not a whole number of 32-element blocks. */
Test(hostile, block_size_mismatch)
{
	static const int64_t ne[] = { 33 };
	struct test_lint t;

	lint_one_tensor(&t, "w", 1, ne, GGUFW_GGML_Q4_0, 0, 32);
	ASSERT_F_CODES(&t, "F024");
	ASSERT_ERROR(&t);
	assert_msg(test_find(&t, "F024"), "33");
	test_lint_free(&t);
}

/* F030: Q8_K (15), an activation type, stored as a weight. */
Test(hostile, q8_k_tensor)
{
	static const int64_t ne[] = { 256 };
	struct test_lint t;

	lint_one_tensor(&t, "w", 1, ne, T_Q8_K, 0, 292);
	ASSERT_F_CODES(&t, "F030");
	ASSERT_NO_F_ERROR(&t);
	test_lint_free(&t);
}

/* F030: Q8_1 (9), the other activation type. */
Test(hostile, q8_1_tensor)
{
	static const int64_t ne[] = { 32 };
	struct test_lint t;

	lint_one_tensor(&t, "w", 1, ne, T_Q8_1, 0, 36);
	ASSERT_F_CODES(&t, "F030");
	ASSERT_NO_F_ERROR(&t);
	test_lint_free(&t);
}

/* F031: NVFP4 (40), a 2026 type; information only. */
Test(hostile, nvfp4_tensor)
{
	static const int64_t ne[] = { 64 };
	struct test_lint t;

	lint_one_tensor(&t, "w", 1, ne, T_NVFP4, 0, 36);
	ASSERT_F_CODES(&t, "F031");
	ASSERT_NO_F_ERROR(&t);
	cr_assert_eq(test_find(&t, "F031")->severity, SEV_INFO);
	test_lint_free(&t);
}

/*
 * Layout.
 */

/* test-gguf INCONSISTENT_ALIGN: offsets padded to 1 while the alignment is
 * 32; the second tensor's offset 12 is misaligned. */
Test(hostile, misaligned_offset)
{
	static const int64_t ne[] = { 3 };
	struct test_lint t;
	struct ggufw w;
	size_t info2;

	ggufw_init(&w, false);
	ggufw_header(&w, "GGUF", 3, 2, 0);
	ggufw_tensor_info(&w, "a", 1, ne, GGUFW_GGML_F32, 0);
	info2 = w.out.len;
	ggufw_tensor_info(&w, "b", 1, ne, GGUFW_GGML_F32, 12);
	ggufw_pad(&w, 32);
	zeros(&w, 24);
	lint_w(&t, &w);
	ASSERT_HAS(&t, "F025");
	ASSERT_ERROR(&t);
	assert_subject(test_find(&t, "F025"), SUBJECT_TENSOR, "b");
	assert_offset(test_find(&t, "F025"), info2);
	test_lint_free(&t);
	ggufw_free(&w);
}

/* §1.6 (llama.cpp 53ff6b9b9 contiguity rule): a gap between tensors. */
Test(hostile, offsets_gap)
{
	struct test_lint t;
	struct ggufw w;

	two_tensors(&w, "a", 0, "b", 64, 96, NULL);
	lint_w(&t, &w);
	ASSERT_F_CODES(&t, "F026");
	ASSERT_ERROR(&t);
	assert_subject(test_find(&t, "F026"), SUBJECT_TENSOR, "b");
	assert_msg(test_find(&t, "F026"), "gap");
	test_lint_free(&t);
	ggufw_free(&w);
}

/* §1.6: overlapping tensor data (64-byte tensor a, b at 32). */
Test(hostile, offsets_overlap)
{
	static const int64_t ne_a[] = { 16 };
	static const int64_t ne_b[] = { 8 };
	struct test_lint t;
	struct ggufw w;

	ggufw_init(&w, false);
	ggufw_header(&w, "GGUF", 3, 2, 0);
	ggufw_tensor_info(&w, "a", 1, ne_a, GGUFW_GGML_F32, 0);
	ggufw_tensor_info(&w, "b", 1, ne_b, GGUFW_GGML_F32, 32);
	ggufw_pad(&w, 32);
	zeros(&w, 64);
	lint_w(&t, &w);
	ASSERT_F_CODES(&t, "F026");
	ASSERT_ERROR(&t);
	assert_subject(test_find(&t, "F026"), SUBJECT_TENSOR, "b");
	assert_msg(test_find(&t, "F026"), "overlaps");
	test_lint_free(&t);
	ggufw_free(&w);
}

/* §1.6: tensors in the file, but in the opposite order to their infos. */
Test(hostile, offsets_out_of_order)
{
	struct test_lint t;
	struct ggufw w;

	two_tensors(&w, "a", 32, "b", 0, 64, NULL);
	lint_w(&t, &w);
	cr_assert_eq(test_count(&t, "F026"), 2, "got: %s", test_codes(&t));
	ASSERT_ERROR(&t);
	test_lint_free(&t);
	ggufw_free(&w);
}

/* Row 14a (ggml c2cdd2b2, SIGFPE): ne = [1, 0], an empty tensor. */
Test(hostile, zero_dimension)
{
	static const int64_t ne[] = { 1, 0 };
	struct test_lint t;

	lint_one_tensor(&t, "w", 2, ne, GGUFW_GGML_F32, 0, 0);
	ASSERT_F_CODES(&t, "F027");
	ASSERT_NO_F_ERROR(&t);
	assert_subject(test_find(&t, "F027"), SUBJECT_TENSOR, "w");
	test_lint_free(&t);
}

/* §1.2 (BOOL must be 0 or 1): a BOOL scalar stored as 2. llama.cpp reads
 * it as true, but the spec allows only 0 and 1: an error. */
Test(hostile, bool_scalar_2)
{
	struct test_lint t;
	struct ggufw w;

	kv_file_begin(&w, 1);
	ggufw_kv_bool(&w, "general.flag", 2);
	lint_w(&t, &w);
	ASSERT_CODES(&t, "F028");
	ASSERT_ERROR(&t);
	assert_subject(test_find(&t, "F028"), SUBJECT_KEY, "general.flag");
	assert_msg(test_find(&t, "F028"), "0x02");
	test_lint_free(&t);
	ggufw_free(&w);
}

/* §1.2: a BOOL array holding a 2. */
Test(hostile, bool_array_2)
{
	struct test_lint t;
	struct ggufw w;

	kv_file_begin(&w, 1);
	ggufw_kv_arr_begin(&w, "test.flags", GGUFW_BOOL, 4);
	ggufw_bytes(&w, "\0\1\2\1", 4);
	lint_w(&t, &w);
	ASSERT_CODES(&t, "F028");
	ASSERT_ERROR(&t);
	assert_subject(test_find(&t, "F028"), SUBJECT_KEY, "test.flags");
	assert_msg(test_find(&t, "F028"), "element 2");
	test_lint_free(&t);
	ggufw_free(&w);
}

/* §1.6 (padding not checked by ggml): a non-zero byte before the data;
 * the spec pads with 0x00, so it is an error. */
Test(hostile, nonzero_padding)
{
	static const int64_t ne[] = { 8 };
	struct test_lint t;
	struct ggufw w;
	size_t pad_at;

	ggufw_init(&w, false);
	ggufw_header(&w, "GGUF", 3, 1, 0);
	ggufw_tensor_info(&w, "w", 1, ne, GGUFW_GGML_F32, 0);
	cr_assert_neq(w.out.len % 32, 0, "the test needs some padding");
	ggufw_u8(&w, 0);
	pad_at = w.out.len;
	ggufw_u8(&w, 0x5a);
	ggufw_pad(&w, 32);
	zeros(&w, 32);
	lint_w(&t, &w);
	ASSERT_F_CODES(&t, "F029");
	ASSERT_ERROR(&t);
	assert_offset(test_find(&t, "F029"), pad_at);
	assert_msg(test_find(&t, "F029"), "0x5a");
	test_lint_free(&t);
	ggufw_free(&w);
}

/*
 * Sweeps.
 */

/* Rows 2 and 29 (CVE-2024-39720): every prefix of a valid header is an
 * error, never a crash; the whole file is clean. */
Test(hostile, truncation_sweep)
{
	struct strbuf out = STRBUF_INIT;
	struct test_lint t;
	uint64_t hdr, n;

	hdr = small_model(&out, false);
	test_lint_bytes(&t, out.buf, out.len);
	ASSERT_F_CODES(&t, "");
	test_lint_free(&t);
	for (n = 0; n <= hdr; n++) {
		test_lint_bytes(&t, out.buf, (size_t)n);
		cr_assert(test_errors(&t) > 0, "prefix of %llu bytes: no "
		    "error, got: %s", (unsigned long long)n, test_codes(&t));
		cr_assert(test_count(&t, "F001") + test_count(&t, "F003") +
		    test_count(&t, "F006") + test_count(&t, "F010") > 0,
		    "prefix of %llu bytes: got %s", (unsigned long long)n,
		    test_codes(&t));
		assert_sane(&t, (size_t)n);
		test_lint_free(&t);
	}
	strbuf_free(&out);
}

/* Prefixes cut inside the data only (after the header) are F010 with the
 * missing byte count. */
Test(hostile, truncation_sweep_data)
{
	struct strbuf out = STRBUF_INIT;
	struct test_lint t;
	uint64_t hdr, n;
	char want[64];

	hdr = small_model(&out, false);
	for (n = hdr; n < out.len; n++) {
		test_lint_bytes(&t, out.buf, (size_t)n);
		ASSERT_F_CODES(&t, "F010");
		snprintf(want, sizeof want, "the file has %llu (",
		    (unsigned long long)n);
		assert_msg(test_find(&t, "F010"), want);
		test_lint_free(&t);
	}
	strbuf_free(&out);
}

/* Rows 1 to 29 in general (fuzzing prior art, §7.3): every header byte
 * set to 0xFF and to 0x80, in both byte orders. No crash, no sanitizer
 * report, and every finding points inside the file. */
Test(hostile, corruption_sweep, .timeout = 600)
{
	static const uint8_t vals[] = { 0xff, 0x80 };
	struct strbuf out = STRBUF_INIT;
	struct test_lint t;
	uint64_t hdr, i;
	size_t v;
	int be;
	char *copy;

	for (be = 0; be < 2; be++) {
		strbuf_reset(&out);
		hdr = small_model(&out, be);
		copy = xmalloc(out.len);
		for (i = 0; i < hdr; i++) {
			for (v = 0; v < sizeof vals; v++) {
				memcpy(copy, out.buf, out.len);
				copy[i] = (char)vals[v];
				test_lint_bytes(&t, copy, out.len);
				assert_sane(&t, out.len);
				test_lint_free(&t);
			}
		}
		free(copy);
	}
	strbuf_free(&out);
}

/*
 * The real binary: resource bounds and the output format.
 */

/* Run gguflint on the bytes, under a 64 MiB address-space limit unless
 * built with ASan (which reserves terabytes of address space). */
static void
run_bytes(struct test_run *r, const void *p, size_t n, unsigned long long lim)
{
	char *path = test_tmpfile(p, n);
	const char *argv[] = { path, NULL };

	test_run_bin(r, argv, NULL, test_have_asan() ? 0 : lim);
	unlink(path);
	free(path);
}

/* Row 1 / CVE-2025-0315: 2^60 declared tensors cannot make the linter
 * allocate for them. */
Test(hostile, rlimit_2_60_tensors)
{
	struct test_run r;
	struct ggufw w;

	ggufw_init(&w, false);
	ggufw_header(&w, "GGUF", 3, UINT64_C(1) << 60, 1);
	ggufw_kv_u32(&w, "general.alignment", 32);
	run_bytes(&r, w.out.buf, w.out.len, 64ull << 20);
	cr_assert_eq(r.status, 1, "status %d, stderr: %s", r.status, r.err);
	cr_assert(strstr(r.out, "F006") != NULL, "stdout: %s", r.out);
	test_run_free(&r);
	ggufw_free(&w);
}

/* Rows 1 and 11: a 2^62-byte string cannot make it allocate either. */
Test(hostile, rlimit_2_62_string)
{
	struct test_run r;
	struct ggufw w;

	kv_file_begin(&w, 1);
	ggufw_kv_head(&w, "general.name", GGUFW_STRING);
	ggufw_strlen(&w, UINT64_C(1) << 62, "abcd", 4);
	run_bytes(&r, w.out.buf, w.out.len, 64ull << 20);
	cr_assert_eq(r.status, 1, "status %d, stderr: %s", r.status, r.err);
	cr_assert(strstr(r.out, "F007") != NULL, "stdout: %s", r.out);
	test_run_free(&r);
	ggufw_free(&w);
}

/*
 * Check that out holds a line for path matching
 *   PATH:0xHEX: SEV: CODE SLUG: MESSAGE [KIND: SUBJECT]
 * with the given offset, severity, code, slug and subject; with kind
 * NULL, a finding without a subject, whose line has no [KIND: ...].
 */
static void
assert_line(const char *out, const char *path, uint64_t off,
    const char *sev, const char *code, const char *slug,
    const char *kind, const char *subject)
{
	char *head = xasprintf("%s:0x%llx: %s: %s %s: ", path,
	    (unsigned long long)off, sev, code, slug);
	char *tail = kind != NULL ? xasprintf(" [%s: %s]", kind, subject) :
	    xstrdup("");
	const char *line = strstr(out, head), *end;
	regex_t re;
	char *one;

	cr_assert_not_null(line, "no line starting \"%s\" in:\n%s", head, out);
	cr_assert(line == out || line[-1] == '\n', "not at a line start");
	end = strchr(line, '\n');
	cr_assert_not_null(end, "unterminated line");
	one = xstrndup(line, (size_t)(end - line));
	cr_assert(strlen(one) > strlen(head) + strlen(tail) &&
	    strcmp(one + strlen(one) - strlen(tail), tail) == 0,
	    "line \"%s\" does not end with \"%s\"", one, tail);
	cr_assert(kind != NULL || strstr(one, " [tensor: ") == NULL,
	    "line \"%s\" names a subject", one);
	cr_assert_eq(regcomp(&re, "^[^\n]+:0x[0-9a-f]+: (error|warning|info): "
	    "F[0-9]{3} [a-z0-9-]+: [^\n]+( \\[(tensor|key): [^\n]*\\])?$",
	    REG_EXTENDED | REG_NOSUB), 0);
	cr_assert_eq(regexec(&re, one, 0, NULL, 0), 0, "line \"%s\"", one);
	regfree(&re);
	free(one);
	free(head);
	free(tail);
}

/* End to end, test-gguf HEADER_BAD_MAGIC. */
Test(hostile, e2e_bad_magic)
{
	struct test_run r;
	char *path = test_tmpfile("GGML\3\0\0\0", 8);
	const char *argv[] = { path, NULL };

	test_run_bin(&r, argv, NULL, 0);
	cr_assert_eq(r.status, 1, "status %d, stderr: %s", r.status, r.err);
	assert_line(r.out, path, 0, "error", "F001", "not-gguf", NULL,
	    "-");
	test_run_free(&r);
	unlink(path);
	free(path);
}

/* End to end, test-gguf DATA_NOT_ENOUGH_DATA. */
Test(hostile, e2e_truncated_data)
{
	static const int64_t ne[] = { 16 };
	struct test_run r;
	struct ggufw w;
	char *path;
	const char *argv[2];

	one_tensor(&w, "token_embd.weight", 1, ne, GGUFW_GGML_F32, 0, 63);
	path = test_tmpfile(w.out.buf, w.out.len);
	argv[0] = path;
	argv[1] = NULL;
	test_run_bin(&r, argv, NULL, 0);
	cr_assert_eq(r.status, 1, "status %d, stderr: %s", r.status, r.err);
	assert_line(r.out, path, 24, "error", "F010",
	    "tensor-data-out-of-bounds", "tensor", "token_embd.weight");
	cr_assert(strstr(r.out, "(1 bytes missing") != NULL, "%s", r.out);
	test_run_free(&r);
	unlink(path);
	free(path);
	ggufw_free(&w);
}

/* End to end, test-gguf DUPLICATE_NAME. */
Test(hostile, e2e_duplicate_tensor_name)
{
	struct test_run r;
	struct ggufw w;
	char *path;
	const char *argv[2];
	size_t info2;

	two_tensors(&w, "output.weight", 0, "output.weight", 32, 64, &info2);
	path = test_tmpfile(w.out.buf, w.out.len);
	argv[0] = path;
	argv[1] = NULL;
	test_run_bin(&r, argv, NULL, 0);
	cr_assert_eq(r.status, 1, "status %d, stderr: %s", r.status, r.err);
	assert_line(r.out, path, info2, "error", "F017",
	    "duplicate-tensor-name", "tensor", "output.weight");
	test_run_free(&r);
	unlink(path);
	free(path);
	ggufw_free(&w);
}

/* End to end, §1.5: a big-endian file has only a warning and exits 0. */
/* F005 follows the profile: a warning in itself (and on a SKaiNET
 * profile), an error on a llama.cpp profile of a little-endian device. */
static void
run_big_endian(const char *profile, int status, const char *sev)
{
	struct strbuf out = STRBUF_INIT;
	struct test_run r;
	char *path;
	const char *argv[] = { "--select", "F", "-p", profile, NULL, NULL };

	small_model(&out, true);
	path = test_tmpfile(out.buf, out.len);
	argv[4] = path;
	test_run_bin(&r, argv, NULL, 0);
	cr_assert_eq(r.status, status, "-p %s: status %d, stdout: %s",
	    profile, r.status, r.out);
	assert_line(r.out, path, 4, sev, "F005", "big-endian", NULL, NULL);
	test_run_free(&r);
	unlink(path);
	free(path);
	strbuf_free(&out);
}

Test(hostile, e2e_big_endian_exits_0)
{
	run_big_endian("desktop", 0, "warning");
	run_big_endian("laptop_16gb", 1, "error");
}

/* ---- what follows the data (issue 38) ------------------------------------ */

#define TAIL(t, s) ((t)->trailing = (s), (t)->trailing_n = sizeof(s) - 1)

static void set_tail_text(struct tiny *t) { TAIL(t, "appended by a tool\n"); }
static void set_tail_zip(struct tiny *t) { TAIL(t, "PK\003\004\024\0\0\0"); }
static void set_tail_script(struct tiny *t) { TAIL(t, "#!/bin/sh\necho\n"); }
static void set_tail_pickle(struct tiny *t) { TAIL(t, "\200\004\225\0"); }

/* a ZIP's end record (22 bytes, no comment) after ten other bytes */
static void
set_tail_zip_end(struct tiny *t)
{
	TAIL(t, "0123456789PK\005\006\0\0\0\0\0\0\0\0\0\0\0\0"
		"\0\0\0\0\0\0");
}

static const struct golden_case tail_cases[] = {
	{ "F035-trailing-text", "F035", 1, set_tail_text },
	{ "F035-ok", "F035", 0, NULL },
	{ "F036-zip-after-data", "F036", 1, set_tail_zip },
	{ "F036-script-after-data", "F036", 1, set_tail_script },
	{ "F036-pickle-after-data", "F036", 1, set_tail_pickle },
	{ "F036-zip-end-record", "F036", 1, set_tail_zip_end },
	{ "F036-ok-text", "F036", 0, set_tail_text },
};

/*
 * Issue 38's header classes as golden cases (tests/cases), which the
 * differential test gives ggml's and llama.cpp's loaders: one tensor of
 * ne = (INT64_MAX, 2, 1, 1), which ggml refuses; a Q4_0 tensor whose
 * ggml_nbytes wraps to 2 bytes, which ggml v0.5.0 accepts; general.alignment
 * as INT32 beside a tensor, which ggml refuses.
 */
static void
raw_out(struct ggufw *w, struct strbuf *out)
{
	strbuf_add(out, w->out.buf, w->out.len);
	ggufw_free(w);
}

static void
raw_int64_max_x2(struct strbuf *out)
{
	static const int64_t ne[] = { INT64_MAX, 2, 1, 1 };
	struct ggufw w;

	one_tensor(&w, "w", 4, ne, GGUFW_GGML_F32, 0, 32);
	raw_out(&w, out);
}

static void
raw_nbytes_2(struct strbuf *out)
{
	static const int64_t ne[] = { INT64_C(5124095576030431008), 1 };
	struct ggufw w;

	one_tensor(&w, "w", 2, ne, GGUFW_GGML_Q4_0, 0, 32);
	raw_out(&w, out);
}

static void
raw_align_i32(struct strbuf *out)
{
	static const int64_t ne[] = { 8 };
	struct ggufw w;

	ggufw_init(&w, false);
	ggufw_header(&w, "GGUF", 3, 1, 1);
	ggufw_kv_i32(&w, "general.alignment", 64);
	ggufw_tensor_info(&w, "w", 1, ne, GGUFW_GGML_F32, 0);
	ggufw_pad(&w, 32);
	zeros(&w, 32);
	raw_out(&w, out);
}

static void set_int64_max_x2(struct tiny *t) { t->raw = raw_int64_max_x2; }
static void set_nbytes_2(struct tiny *t) { t->raw = raw_nbytes_2; }
static void set_align_i32(struct tiny *t) { t->raw = raw_align_i32; }

static const struct golden_case header_cases[] = {
	{ "F021-element-count-int64-max-x2", "F021", 1, set_int64_max_x2 },
	{ "F021-q4_0-nbytes-wraps-to-2", "F021", 1, set_nbytes_2 },
	{ "F014-alignment-int32", "F014", 1, set_align_i32 },
};

Test(hostile, header_golden_cases)
{
	size_t i;

	for (i = 0; i < sizeof header_cases / sizeof header_cases[0]; i++)
		golden_run(&header_cases[i]);
	golden_flush();
}

/* Bytes after the data: F035 a warning, another format there F036 an
 * error (a polyglot); the golden cases, which the differential test also
 * gives llama.cpp's loader (it loads them all). */
Test(hostile, what_follows_the_data)
{
	struct strbuf sb = STRBUF_INIT;
	struct test_lint t;
	struct tiny m;
	size_t i;

	for (i = 0; i < sizeof tail_cases / sizeof tail_cases[0]; i++)
		golden_run(&tail_cases[i]);
	golden_flush();
	tiny_init(&m);
	set_tail_text(&m);
	tiny_build(&m, &sb);
	test_lint_bytes(&t, sb.buf, sb.len);
	cr_assert_eq(test_find(&t, "F035")->severity, SEV_WARNING);
	assert_offset(test_find(&t, "F035"), sb.len - m.trailing_n);
	assert_msg(test_find(&t, "F035"), "19 bytes");
	test_lint_free(&t);
	strbuf_free(&sb);
}

/* A file that begins as another format and holds a GGUF later: F001
 * names both and where the GGUF begins. */
Test(hostile, gguf_inside_another_format)
{
	struct strbuf sb = STRBUF_INIT;
	struct test_lint t;
	struct tiny m;

	strbuf_add(&sb, "PK\003\004\024\0\0\0", 8);
	tiny_init(&m);
	tiny_build(&m, &sb);
	test_lint_bytes(&t, sb.buf, sb.len);
	ASSERT_CODES(&t, "F001");
	assert_msg(test_find(&t, "F001"), "ZIP archive");
	assert_msg(test_find(&t, "F001"), "GGUF header begins at offset 8");
	test_lint_free(&t);
	strbuf_free(&sb);
}
