/*
 * test_kernels.c - the kernels in kernels/: the registry, the fp16/bf16
 * conversions, known answers per encoding from blocks built by hand (the
 * expected values worked out from the layouts in gguf-format.md §5), the
 * dequantized values of the corpus's gguf-py files (first values and the
 * SHA-256 of every value, bit for bit), every dot kernel against the
 * reference on deterministic random blocks, and wrong kernels that the
 * same check rejects.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/builtin.h"
#include "findings/catalog.h"
#include "findings/diag.h"
#include "kernels/ggml-types.h"
#include "reader/gguf.h"
#include "jsontree.h"
#include "kernels/fp16.h"
#include "kernels/kernels.h"
#include "base/sha256.h"
#include "shared_path.h"
#include "base/util.h"
#include "source/source.h"

/*
 * The agreement a dot kernel must reach with kernel_reference_dot:
 * |dot - ref| <= DOT_TOL * (1 + sum |w_i x_i|).
 */
#define DOT_TOL 1e-4

/* ---- helpers ---- */

/* put_half: write v as a little-endian fp16 at p. */
static void
put_half(uint8_t *p, float v)
{
	uint16_t h = kernel_f32_to_fp16(v);

	p[0] = (uint8_t)h;
	p[1] = (uint8_t)(h >> 8);
}

static const struct kernel *
must_find(enum kernel_op op, uint32_t type)
{
	const struct kernel *k = kernel_find(op, type, KERNEL_ORDER_AS_STORED);

	cr_assert(k != NULL, "no %s kernel for type %u",
	    op == KERNEL_DOT ? "dot" : "dequantize", type);
	return k;
}

/*
 * check_known: dequantize the n elements at row and compare them exactly
 * with want; then check the dot kernel on the same row: with x = e_k it
 * must give want[k] exactly (one product, no rounding but the kernel's
 * own), and with x = 1 it must give the sum within the tolerance.
 */
static void
check_known(uint32_t type, const uint8_t *row, const float *want, size_t n)
{
	const struct kernel *dq = must_find(KERNEL_DEQUANT, type);
	const struct kernel *dt = must_find(KERNEL_DOT, type);
	float *got = xcalloc(n, sizeof *got), *x = xcalloc(n, sizeof *x);
	double sum = 0.0, mag = 0.0;
	size_t i;
	float d;

	cr_assert(kernel_row_bytes(type, n) > 0);
	dq->dequant(row, got, n);
	for (i = 0; i < n; i++)
		cr_assert(got[i] == want[i] ||
		    (isnan(got[i]) && isnan(want[i])),
		    "%s: element %zu is %.9g, expected %.9g", dq->name, i,
		    (double)got[i], (double)want[i]);
	for (i = 0; i < n; i++) {
		x[i] = 1.0f;
		d = dt->dot(row, x, n);
		cr_assert(d == want[i], "%s: dot with e_%zu is %.9g, "
		    "expected %.9g", dt->name, i, (double)d, (double)want[i]);
		x[i] = 0.0f;
	}
	for (i = 0; i < n; i++) {
		x[i] = 1.0f;
		sum += want[i];
		mag += fabs(want[i]);
	}
	d = dt->dot(row, x, n);
	cr_assert(fabs(d - sum) <= DOT_TOL * (1.0 + mag),
	    "%s: dot with ones is %.9g, expected %.9g", dt->name, (double)d,
	    sum);
	free(got);
	free(x);
}

/* ---- the registry ---- */

/* The encodings the issue requires (and the recent ones done as well). */
static const uint32_t required_types[] = {
	GGML_TYPE_F32, GGML_TYPE_F16, GGML_TYPE_BF16, GGML_TYPE_Q4_0,
	GGML_TYPE_Q4_1, GGML_TYPE_Q5_0, GGML_TYPE_Q5_1, GGML_TYPE_Q8_0,
	GGML_TYPE_Q2_K, GGML_TYPE_Q3_K, GGML_TYPE_Q4_K, GGML_TYPE_Q5_K,
	GGML_TYPE_Q6_K, GGML_TYPE_IQ4_NL, GGML_TYPE_IQ4_XS,
	GGML_TYPE_TQ1_0, GGML_TYPE_TQ2_0, GGML_TYPE_MXFP4,
	GGML_TYPE_NVFP4, GGML_TYPE_Q1_0, GGML_TYPE_Q2_0,
	GGML_TYPE_IQ2_XXS, GGML_TYPE_IQ2_XS, GGML_TYPE_IQ2_S,
	GGML_TYPE_IQ3_XXS, GGML_TYPE_IQ3_S, GGML_TYPE_IQ1_S, GGML_TYPE_IQ1_M,
};

Test(kernels, registry_covers_the_encodings)
{
	size_t i;

	for (i = 0; i < sizeof required_types / sizeof required_types[0]; i++) {
		const struct kernel *dq = must_find(KERNEL_DEQUANT,
		    required_types[i]);
		const struct kernel *dt = must_find(KERNEL_DOT,
		    required_types[i]);

		cr_assert(dq->dequant != NULL && dq->dot == NULL);
		cr_assert(dt->dot != NULL && dt->dequant == NULL);
		cr_assert(kernel_by_name(dq->name) == dq);
		cr_assert(kernel_by_name(dt->name) == dt);
	}
	cr_assert(kernel_find(KERNEL_DOT, GGML_TYPE_Q4_0,
	    KERNEL_ORDER_KERNEL_FEED)->matvec != NULL);
	cr_assert(kernel_find(KERNEL_DOT, GGML_TYPE_Q4_K,
	    KERNEL_ORDER_KERNEL_FEED) == NULL);
	cr_assert(kernel_find(KERNEL_DOT, GGML_TYPE_Q8_K,
	    KERNEL_ORDER_AS_STORED) == NULL);
	cr_assert(kernel_by_name("q4_0.dot.avx512") == NULL);
	cr_assert_str_eq(must_find(KERNEL_DOT, GGML_TYPE_Q4_K)->name,
	    "q4_K.dot.scalar");
}

/* Names are "<ggml type name>.<op>.<variant>", unique, ops consistent. */
Test(kernels, registry_names_are_consistent)
{
	const struct kernel *k, *o;
	size_t count = 0;

	for (k = kernels; k->name != NULL; k++, count++) {
		const struct ggml_type_info *t = ggml_type_get(k->type);
		char *prefix;

		cr_assert(t != NULL && t->blck > 0, "%s: bad type", k->name);
		if (k->order == KERNEL_ORDER_KERNEL_FEED) {
			/* matrix kernels over the feed layout */
			prefix = xasprintf("%s.matvec.", t->name);
			cr_assert(strncmp(k->name, prefix, strlen(prefix)) ==
			    0 && k->op == KERNEL_DOT && k->matvec != NULL &&
			    k->dot == NULL && k->dequant == NULL, "%s",
			    k->name);
			free(prefix);
			continue;
		}
		prefix = xasprintf("%s.%s.", t->name,
		    k->op == KERNEL_DOT ? "dot" : "dequant");
		cr_assert(strncmp(k->name, prefix, strlen(prefix)) == 0,
		    "%s does not start with %s", k->name, prefix);
		free(prefix);
		cr_assert((k->op == KERNEL_DOT) == (k->dot != NULL), "%s",
		    k->name);
		cr_assert((k->op == KERNEL_DEQUANT) == (k->dequant != NULL),
		    "%s", k->name);
		for (o = kernels; o != k; o++)
			cr_assert(strcmp(o->name, k->name) != 0,
			    "%s listed twice", k->name);
	}
	cr_assert(count >= 2 * (sizeof required_types /
	    sizeof required_types[0]));
}

Test(kernels, row_bytes)
{
	cr_assert_eq(kernel_row_bytes(GGML_TYPE_F32, 10), 40);
	cr_assert_eq(kernel_row_bytes(GGML_TYPE_BF16, 3), 6);
	cr_assert_eq(kernel_row_bytes(GGML_TYPE_Q4_0, 64), 36);
	cr_assert_eq(kernel_row_bytes(GGML_TYPE_Q4_K, 512), 288);
	cr_assert_eq(kernel_row_bytes(GGML_TYPE_TQ1_0, 256), 54);
	cr_assert_eq(kernel_row_bytes(GGML_TYPE_MXFP4, 32), 17);
	cr_assert_eq(kernel_row_bytes(GGML_TYPE_NVFP4, 128), 72);
	cr_assert_eq(kernel_row_bytes(GGML_TYPE_Q1_0, 128), 18);
	cr_assert_eq(kernel_row_bytes(GGML_TYPE_Q4_0, 0), 0);
	cr_assert_eq(kernel_row_bytes(GGML_TYPE_Q4_0, 33), 0);
	cr_assert_eq(kernel_row_bytes(4, 32), 0);	/* removed Q4_2 */
	cr_assert_eq(kernel_row_bytes(999, 32), 0);
	cr_assert_eq(kernel_row_bytes(GGML_TYPE_F32, SIZE_MAX), 0);
}

Test(kernels, reference_without_a_kernel_is_nan)
{
	uint8_t row[292] = { 0 };
	float x[256] = { 0 }, scratch[256];

	cr_assert(isnan(kernel_reference_dot(GGML_TYPE_Q8_K, row, x, 256,
	    scratch)));
}

/* ---- conversions ---- */

Test(kernels, fp16_known_values)
{
	cr_assert_eq(kernel_fp16_to_f32(0x3c00), 1.0f);
	cr_assert_eq(kernel_fp16_to_f32(0xc000), -2.0f);
	cr_assert_eq(kernel_fp16_to_f32(0x3555), 0.333251953125f);
	cr_assert_eq(kernel_fp16_to_f32(0x7bff), 65504.0f);
	cr_assert_eq(kernel_fp16_to_f32(0x0400), 6.103515625e-05f);
	cr_assert_eq(kernel_fp16_to_f32(0x0001), 5.9604644775390625e-08f);
	cr_assert_eq(kernel_fp16_to_f32(0x83ff), -6.09755516052246094e-05f);
	cr_assert(kernel_fp16_to_f32(0x8000) == 0.0f &&
	    signbit(kernel_fp16_to_f32(0x8000)));
	cr_assert(isinf(kernel_fp16_to_f32(0x7c00)) &&
	    kernel_fp16_to_f32(0x7c00) > 0);
	cr_assert(isinf(kernel_fp16_to_f32(0xfc00)) &&
	    kernel_fp16_to_f32(0xfc00) < 0);
	cr_assert(isnan(kernel_fp16_to_f32(0x7e00)));
	cr_assert(isnan(kernel_fp16_to_f32(0x7c01)));

	/* rounding to nearest, ties to even */
	cr_assert_eq(kernel_f32_to_fp16(1.0f + 0x1p-11f), 0x3c00);
	cr_assert_eq(kernel_f32_to_fp16(1.0f + 0x3p-11f), 0x3c02);
	cr_assert_eq(kernel_f32_to_fp16(1.0f + 0x1p-11f + 0x1p-20f), 0x3c01);
	cr_assert_eq(kernel_f32_to_fp16(65519.0f), 0x7bff);
	cr_assert_eq(kernel_f32_to_fp16(65520.0f), 0x7c00);
	cr_assert_eq(kernel_f32_to_fp16(-1e10f), 0xfc00);
	cr_assert_eq(kernel_f32_to_fp16(0x1p-25f), 0x0000);
	cr_assert_eq(kernel_f32_to_fp16(0x1.8p-25f), 0x0001);
	cr_assert_eq(kernel_f32_to_fp16(0x3p-25f), 0x0002);
	cr_assert_eq(kernel_f32_to_fp16(0x1.ffcp-15f), 0x0400);
	cr_assert_eq(kernel_f32_to_fp16(-0.0f), 0x8000);
	cr_assert_eq(kernel_f32_to_fp16(1e-30f), 0x0000);
	cr_assert_eq(kernel_f32_to_fp16(NAN) & 0x7c00, 0x7c00);
	cr_assert_neq(kernel_f32_to_fp16(NAN) & 0x03ff, 0);
}

/* Every fp16 value survives f16 -> f32 -> f16 unchanged. */
Test(kernels, fp16_round_trip_is_exact)
{
	uint32_t h;

	for (h = 0; h < 0x10000; h++) {
		float f = kernel_fp16_to_f32((uint16_t)h);

		if ((h & 0x7c00) == 0x7c00 && (h & 0x3ff) != 0) {
			cr_assert(isnan(f), "0x%04x", h);
			continue;
		}
		cr_assert_eq(kernel_f32_to_fp16(f), h, "0x%04x -> %.9g -> "
		    "0x%04x", h, (double)f, kernel_f32_to_fp16(f));
	}
}

Test(kernels, bf16_known_values)
{
	cr_assert_eq(kernel_bf16_to_f32(0x3f80), 1.0f);
	cr_assert_eq(kernel_bf16_to_f32(0xc040), -3.0f);
	cr_assert_eq(kernel_bf16_to_f32(0x4049), 3.140625f);
	cr_assert(isinf(kernel_bf16_to_f32(0x7f80)));
	cr_assert_eq(kernel_f32_to_bf16(1.0f), 0x3f80);
	cr_assert_eq(kernel_f32_to_bf16(1.0f + 0x1p-8f), 0x3f80);
	cr_assert_eq(kernel_f32_to_bf16(1.0f + 0x3p-8f), 0x3f82);
	cr_assert_eq(kernel_f32_to_bf16(3.14159265f), 0x4049);
	cr_assert(isnan(kernel_bf16_to_f32(kernel_f32_to_bf16(NAN))));
}

/* ---- known answers, one block (or two) per encoding ---- */

Test(kernels, known_f32)
{
	const uint8_t row[] = {
		0x00, 0x00, 0xc0, 0x3f,		/* 1.5 */
		0x00, 0x00, 0x00, 0xc0,		/* -2 */
		0x00, 0x00, 0x00, 0x00,		/* 0 */
		0x00, 0x00, 0x50, 0x40,		/* 3.25 */
	};
	const float want[] = { 1.5f, -2.0f, 0.0f, 3.25f };

	check_known(GGML_TYPE_F32, row, want, 4);
}

Test(kernels, known_f16)
{
	const uint8_t row[] = {
		0x00, 0x3c, 0x00, 0xc0, 0x00, 0x38, 0xff, 0x7b,
		0x01, 0x00, 0x00, 0x04, 0x00, 0x80, 0x55, 0x35,
	};
	const float want[] = {
		1.0f, -2.0f, 0.5f, 65504.0f, 5.9604644775390625e-08f,
		6.103515625e-05f, -0.0f, 0.333251953125f,
	};

	check_known(GGML_TYPE_F16, row, want, 8);
}

Test(kernels, known_bf16)
{
	const uint8_t row[] = {
		0x80, 0x3f, 0x40, 0xc0, 0x49, 0x40, 0x00, 0x00,
	};
	const float want[] = { 1.0f, -3.0f, 3.140625f, 0.0f };

	check_known(GGML_TYPE_BF16, row, want, 4);
}

/* Q4_0: d = 0.5, byte j = j | (15 - j) << 4: y = (q - 8) * 0.5. */
Test(kernels, known_q4_0)
{
	uint8_t b[18];
	const float want[32] = {
		-4, -3.5, -3, -2.5, -2, -1.5, -1, -0.5,
		0, 0.5, 1, 1.5, 2, 2.5, 3, 3.5,
		3.5, 3, 2.5, 2, 1.5, 1, 0.5, 0,
		-0.5, -1, -1.5, -2, -2.5, -3, -3.5, -4,
	};
	int j;

	b[0] = 0x00;
	b[1] = 0x38;		/* 0.5 */
	for (j = 0; j < 16; j++)
		b[2 + j] = (uint8_t)(j | (15 - j) << 4);
	check_known(GGML_TYPE_Q4_0, b, want, 32);
}

/* Q4_1: d = 0.25, m = -1, same nibbles: y = q * 0.25 - 1. */
Test(kernels, known_q4_1)
{
	uint8_t b[20];
	const float want[32] = {
		-1, -0.75, -0.5, -0.25, 0, 0.25, 0.5, 0.75,
		1, 1.25, 1.5, 1.75, 2, 2.25, 2.5, 2.75,
		2.75, 2.5, 2.25, 2, 1.75, 1.5, 1.25, 1,
		0.75, 0.5, 0.25, 0, -0.25, -0.5, -0.75, -1,
	};
	int j;

	b[0] = 0x00;
	b[1] = 0x34;		/* 0.25 */
	b[2] = 0x00;
	b[3] = 0xbc;		/* -1 */
	for (j = 0; j < 16; j++)
		b[4 + j] = (uint8_t)(j | (15 - j) << 4);
	check_known(GGML_TYPE_Q4_1, b, want, 32);
}

/*
 * Q5_0: d = 1, qh = 0f 00 f0 ff (u32 0xfff0000f: fifth bits of elements
 * 0..3 and 20..31), byte j = j | j << 4: y = q - 16.
 */
Test(kernels, known_q5_0)
{
	uint8_t b[22] = { 0x00, 0x3c, 0x0f, 0x00, 0xf0, 0xff };
	const float want[32] = {
		0, 1, 2, 3, -12, -11, -10, -9,
		-8, -7, -6, -5, -4, -3, -2, -1,
		-16, -15, -14, -13, 4, 5, 6, 7,
		8, 9, 10, 11, 12, 13, 14, 15,
	};
	int j;

	for (j = 0; j < 16; j++)
		b[6 + j] = (uint8_t)(j | j << 4);
	check_known(GGML_TYPE_Q5_0, b, want, 32);
}

/* Q5_1: the same q (16..19, 4..15, 0..3, 20..31), d = 0.5, m = 2. */
Test(kernels, known_q5_1)
{
	uint8_t b[24] = { 0x00, 0x38, 0x00, 0x40, 0x0f, 0x00, 0xf0, 0xff };
	const float want[32] = {
		10, 10.5, 11, 11.5, 4, 4.5, 5, 5.5,
		6, 6.5, 7, 7.5, 8, 8.5, 9, 9.5,
		2, 2.5, 3, 3.5, 12, 12.5, 13, 13.5,
		14, 14.5, 15, 15.5, 16, 16.5, 17, 17.5,
	};
	int j;

	for (j = 0; j < 16; j++)
		b[8 + j] = (uint8_t)(j | j << 4);
	check_known(GGML_TYPE_Q5_1, b, want, 32);
}

/* Q8_0: d = 0.25, qs = -128, then 4j - 64, then 127. */
Test(kernels, known_q8_0)
{
	uint8_t b[34] = { 0x00, 0x34 };
	float want[32];
	int j;

	for (j = 0; j < 32; j++) {
		b[2 + j] = (uint8_t)(int8_t)(4 * j - 64);
		want[j] = (float)(j - 16);
	}
	b[2] = 0x80;		/* -128 */
	want[0] = -32.0f;
	b[33] = 0x7f;		/* 127 */
	want[31] = 31.75f;
	check_known(GGML_TYPE_Q8_0, b, want, 32);
}

/* Q1_0: d = 2, bytes 0x0f except the last (0xf0): +2 where the bit is 1. */
Test(kernels, known_q1_0)
{
	uint8_t b[18] = { 0x00, 0x40 };
	float want[128];
	int j;

	for (j = 0; j < 16; j++)
		b[2 + j] = j == 15 ? 0xf0 : 0x0f;
	for (j = 0; j < 128; j++)
		want[j] = (j % 8 < 4) == (j < 120) ? 2.0f : -2.0f;
	check_known(GGML_TYPE_Q1_0, b, want, 128);
}

/* Q2_0: d = 0.5, bytes 0xe4 (q = 0,1,2,3) except the last 0x1b (3,2,1,0). */
Test(kernels, known_q2_0)
{
	uint8_t b[18] = { 0x00, 0x38 };
	const float up[4] = { -0.5f, 0.0f, 0.5f, 1.0f };
	float want[64];
	int j;

	for (j = 0; j < 16; j++)
		b[2 + j] = j == 15 ? 0x1b : 0xe4;
	for (j = 0; j < 64; j++)
		want[j] = j < 60 ? up[j % 4] : up[3 - j % 4];
	check_known(GGML_TYPE_Q2_0, b, want, 64);
}

/*
 * Q2_K: d = 1, dmin = 0.5, scale byte i = i | 2 << 4 (dl = i, ml = 1).
 * qs: bytes 0..15 = 0xe4 (column j holds j), 16..31 = 0x1b (3 - j),
 * 32..47 = 0x00, 48..63 = 0xff. Element e: half h = e/128, column
 * j = (e%128)/32, byte 32h + e%32, sub-block e/16; y = (e/16)*q - 1.
 */
Test(kernels, known_q2_K)
{
	uint8_t b[84];
	float want[256];
	int i, e;

	for (i = 0; i < 16; i++)
		b[i] = (uint8_t)(i | 2 << 4);
	for (i = 0; i < 64; i++)
		b[16 + i] = i < 16 ? 0xe4 : i < 32 ? 0x1b : i < 48 ? 0x00 :
		    0xff;
	put_half(b + 80, 1.0f);
	put_half(b + 82, 0.5f);
	for (e = 0; e < 256; e++) {
		int h = e / 128, j = (e % 128) / 32, l = e % 32, q;

		if (h == 0)
			q = l < 16 ? j : 3 - j;
		else
			q = l < 16 ? 0 : 3;
		want[e] = (float)((e / 16) * q - 1);
	}
	/* a few worked by hand */
	cr_assert_eq(want[0], -1.0f);
	cr_assert_eq(want[35], 1.0f);	/* sub 2, column 1, byte 3: q 1 */
	cr_assert_eq(want[50], 5.0f);	/* sub 3, column 1, byte 18: q 2 */
	cr_assert_eq(want[100], 17.0f);	/* sub 6, column 3, byte 4: q 3 */
	cr_assert_eq(want[150], 26.0f);	/* sub 9, byte 54: q 3 */
	cr_assert_eq(want[255], 44.0f);
	check_known(GGML_TYPE_Q2_K, b, want, 256);
}

/*
 * Q3_K: d = 1; the 16 six-bit scales are 24 + i (so dl = i - 8), packed by
 * hand: bytes 0..7 = low nibble of scale i | low nibble of scale i+8 << 4,
 * bytes 8..11 = 0xa5 (high 2 bits: 1,1,2,2 at shifts 0,2,4,6). qs all 0xe4
 * (column j holds j). hmask[l] = 0x0f for l < 16 (high bit set in the first
 * half), 0xf0 for l >= 16 (set in the second): a clear bit subtracts 4.
 */
Test(kernels, known_q3_K)
{
	uint8_t b[110];
	const uint8_t scales[12] = {
		0x08, 0x19, 0x2a, 0x3b, 0x4c, 0x5d, 0x6e, 0x7f,
		0xa5, 0xa5, 0xa5, 0xa5,
	};
	float want[256];
	int i, e;

	for (i = 0; i < 32; i++)
		b[i] = i < 16 ? 0x0f : 0xf0;
	memset(b + 32, 0xe4, 64);
	memcpy(b + 96, scales, 12);
	put_half(b + 108, 1.0f);
	for (e = 0; e < 256; e++) {
		int h = e / 128, j = (e % 128) / 32, l = e % 32;
		bool set = (h == 0) == (l < 16);

		want[e] = (float)((e / 16 - 8) * (j - (set ? 0 : 4)));
	}
	cr_assert_eq(want[20], 28.0f);	/* dl -7, q 0 - 4 */
	cr_assert_eq(want[40], -6.0f);	/* dl -6, q 1 */
	cr_assert_eq(want[200], -8.0f);	/* dl 4, q 2 - 4 */
	cr_assert_eq(want[255], 21.0f);	/* dl 7, q 3 */
	check_known(GGML_TYPE_Q3_K, b, want, 256);
}

/*
 * The 12 scale bytes of Q4_K/Q5_K for (scale, min) = (10 + 7j, 60 - 5j),
 * j = 0..7, packed by hand: bytes 0..3 hold scales 0..3 with the high 2
 * bits of scales 4..7 on top; bytes 4..7 the same for the mins; bytes 8..11
 * the low nibbles of scale and min 4..7.
 */
static const uint8_t k4_scales[12] = {
	0x8a, 0x91, 0xd8, 0xdf, 0xbc, 0xb7, 0x72, 0x6d,
	0x86, 0x3d, 0xe4, 0x9b,
};

/*
 * Q4_K: d = 1, dmin = 0.5, the scales above; qs[32c + l] = l%16 |
 * (15 - l%16) << 4. Element e: sub-block e/32, q = low nibble in the first
 * 32 of its 64-chunk, high nibble in the second; y = sc*q - 0.5*m.
 */
Test(kernels, known_q4_K)
{
	uint8_t b[144];
	float want[256];
	int i, e;

	put_half(b, 1.0f);
	put_half(b + 2, 0.5f);
	memcpy(b + 4, k4_scales, 12);
	for (i = 0; i < 128; i++)
		b[16 + i] = (uint8_t)(i % 16 | (15 - i % 16) << 4);
	for (e = 0; e < 256; e++) {
		int sub = e / 32, r = e % 64, l = e % 32;
		int q = r < 32 ? l % 16 : 15 - l % 16;

		want[e] = (float)((10 + 7 * sub) * q) -
		    0.5f * (float)(60 - 5 * sub);
	}
	cr_assert_eq(want[0], -30.0f);
	cr_assert_eq(want[33], 210.5f);	/* 17 * 14 - 27.5 */
	cr_assert_eq(want[140], 436.0f);	/* 38 * 12 - 20 */
	cr_assert_eq(want[255], -12.5f);	/* 59 * 0 - 12.5 */
	check_known(GGML_TYPE_Q4_K, b, want, 256);
}

/* Q5_K: as Q4_K, qh[l] = 0x55 (l even) or 0xaa (l odd): +16 when bit
 * (sub-block) of qh[e%32] is set. */
Test(kernels, known_q5_K)
{
	uint8_t b[176];
	float want[256];
	int i, e;

	put_half(b, 1.0f);
	put_half(b + 2, 0.5f);
	memcpy(b + 4, k4_scales, 12);
	for (i = 0; i < 32; i++)
		b[16 + i] = i % 2 ? 0xaa : 0x55;
	for (i = 0; i < 128; i++)
		b[48 + i] = (uint8_t)(i % 16 | (15 - i % 16) << 4);
	for (e = 0; e < 256; e++) {
		int sub = e / 32, r = e % 64, l = e % 32;
		int q = r < 32 ? l % 16 : 15 - l % 16;

		if (sub % 2 == l % 2)
			q += 16;
		want[e] = (float)((10 + 7 * sub) * q) -
		    0.5f * (float)(60 - 5 * sub);
	}
	cr_assert_eq(want[0], 130.0f);	/* 10 * 16 - 30 */
	cr_assert_eq(want[32], 227.5f);	/* 17 * 15 - 27.5 */
	cr_assert_eq(want[33], 482.5f);	/* 17 * 30 - 27.5 */
	check_known(GGML_TYPE_Q5_K, b, want, 256);
}

/*
 * Q6_K: d = 1, scales[i] = i - 8, ql[k] = k (low nibble k%16, high k/16),
 * qh all 0xe4 (quarter k of a half gets high bits k). Element e: half
 * h = e/128, quarter k = (e%128)/32, l = e%32: low 4 bits from
 * ql[64h + 32(k%2) + l] (low nibble for k < 2), q = low | k << 4, minus 32.
 */
Test(kernels, known_q6_K)
{
	uint8_t b[210];
	float want[256];
	int i, e;

	for (i = 0; i < 128; i++)
		b[i] = (uint8_t)i;
	memset(b + 128, 0xe4, 64);
	for (i = 0; i < 16; i++)
		b[192 + i] = (uint8_t)(int8_t)(i - 8);
	put_half(b + 208, 1.0f);
	for (e = 0; e < 256; e++) {
		int h = e / 128, k = (e % 128) / 32, l = e % 32;
		int byte = 64 * h + 32 * (k % 2) + l;
		int low = k < 2 ? byte % 16 : byte / 16;

		want[e] = (float)((e / 16 - 8) * ((low | k << 4) - 32));
	}
	cr_assert_eq(want[0], 256.0f);	/* -8 * -32 */
	cr_assert_eq(want[40], 48.0f);	/* -6 * (8 + 16 - 32) */
	cr_assert_eq(want[70], 0.0f);	/* q = 0 + 32 - 32 */
	cr_assert_eq(want[127], -19.0f);	/* -1 * (3 + 48 - 32) */
	cr_assert_eq(want[200], 16.0f);	/* 4 * (4 + 32 - 32) */
	cr_assert_eq(want[255], 161.0f);	/* 7 * (7 + 48 - 32) */
	check_known(GGML_TYPE_Q6_K, b, want, 256);
}

static const float iq4_levels[16] = {
	-127, -104, -83, -65, -49, -35, -22, -10,
	1, 13, 25, 38, 53, 69, 89, 113,
};

/* IQ4_NL: d = 0.5, byte j = j | (15 - j) << 4. */
Test(kernels, known_iq4_nl)
{
	uint8_t b[18] = { 0x00, 0x38 };
	float want[32];
	int j;

	for (j = 0; j < 16; j++) {
		b[2 + j] = (uint8_t)(j | (15 - j) << 4);
		want[j] = 0.5f * iq4_levels[j];
		want[16 + j] = 0.5f * iq4_levels[15 - j];
	}
	cr_assert_eq(want[0], -63.5f);
	cr_assert_eq(want[16], 56.5f);
	check_known(GGML_TYPE_IQ4_NL, b, want, 32);
}

/*
 * IQ4_XS: d = 0.25 and the eight 6-bit scales 0, 63, 32, 33, 31, 16, 48,
 * 40 packed by hand: scales_l = f0 10 0f 80 (low nibbles, two a byte),
 * scales_h = 0xb5ac (high 2 bits 0,3,2,2,1,1,3,2 from bit 0 up).
 */
Test(kernels, known_iq4_xs)
{
	uint8_t b[136] = { 0x00, 0x34, 0xac, 0xb5, 0xf0, 0x10, 0x0f, 0x80 };
	const int ls[8] = { 0, 63, 32, 33, 31, 16, 48, 40 };
	float want[256];
	int ib, j;

	for (ib = 0; ib < 8; ib++) {
		for (j = 0; j < 16; j++) {
			float dl = 0.25f * (float)(ls[ib] - 32);

			b[8 + 16 * ib + j] = (uint8_t)(j | (15 - j) << 4);
			want[32 * ib + j] = dl * iq4_levels[j];
			want[32 * ib + 16 + j] = dl * iq4_levels[15 - j];
		}
	}
	cr_assert_eq(want[0], 1016.0f);		/* -8 * -127 */
	cr_assert_eq(want[32], -984.25f);	/* 7.75 * -127 */
	check_known(GGML_TYPE_IQ4_XS, b, want, 256);
}

/*
 * TQ1_0, d = 0.5. Trits encoded by hand as ceil(256 * v / 243), v the
 * base-3 number of the byte's trits (first trit most significant):
 * 0x80 = (1,1,1,1,1), 187 = (2,0,1,2,0), 0 = (0,...), 255 = (2,...),
 * and in qh 51 = (0,1,2,1). Everything else is 0x80 (value 0).
 */
Test(kernels, known_tq1_0)
{
	uint8_t b[54];
	float want[256];
	const float t20120[5] = { 0.5f, -0.5f, 0.0f, 0.5f, -0.5f };
	const float t0121[4] = { -0.5f, 0.0f, 0.5f, 0.0f };
	int k;

	memset(b, 0x80, 52);
	b[0] = 187;
	b[1] = 0;
	b[2] = 255;
	b[32] = 187;
	b[47] = 255;
	b[48] = 51;
	b[51] = 51;
	put_half(b + 52, 0.5f);
	memset(want, 0, sizeof want);
	for (k = 0; k < 5; k++) {
		want[32 * k + 0] = t20120[k];
		want[32 * k + 1] = -0.5f;
		want[32 * k + 2] = 0.5f;
		want[160 + 16 * k + 0] = t20120[k];
		want[160 + 16 * k + 15] = 0.5f;
	}
	for (k = 0; k < 4; k++) {
		want[240 + 4 * k + 0] = t0121[k];
		want[240 + 4 * k + 3] = t0121[k];
	}
	check_known(GGML_TYPE_TQ1_0, b, want, 256);
}

/*
 * TQ2_0, d = 2: bytes 0..31 = 0xe4 (fields 0,1,2,3) except byte 5 = 0x00,
 * bytes 32..63 = 0x1b (3,2,1,0). Element 128g + 32l + m is field l of byte
 * 32g + m: y = (q - 1) * 2.
 */
Test(kernels, known_tq2_0)
{
	uint8_t b[66];
	float want[256];
	int g, l, m;

	memset(b, 0xe4, 32);
	memset(b + 32, 0x1b, 32);
	b[5] = 0x00;
	put_half(b + 64, 2.0f);
	for (g = 0; g < 2; g++)
		for (l = 0; l < 4; l++)
			for (m = 0; m < 32; m++)
				want[128 * g + 32 * l + m] = g == 0 ?
				    (m == 5 ? -2.0f : (float)(l - 1) * 2) :
				    (float)(2 - l) * 2;
	check_known(GGML_TYPE_TQ2_0, b, want, 256);
}

static const float fp4_levels[16] = {
	0, 1, 2, 3, 4, 6, 8, 12, 0, -1, -2, -3, -4, -6, -8, -12,
};

/*
 * MXFP4: block 0 has e = 129 (d = 2^(129-128) = 2) and byte j = j |
 * (15 - j) << 4; block 1 has e = 0 (d = 2^-128, a subnormal) and every
 * nibble 7 (level 12).
 */
Test(kernels, known_mxfp4)
{
	uint8_t b[34];
	float want[64];
	double p64 = 1.0 / 18446744073709551616.0;	/* 2^-64 */
	int j;

	b[0] = 129;
	b[17] = 0;
	for (j = 0; j < 16; j++) {
		b[1 + j] = (uint8_t)(j | (15 - j) << 4);
		b[18 + j] = 0x77;
		want[j] = 2.0f * fp4_levels[j];
		want[16 + j] = 2.0f * fp4_levels[15 - j];
		want[32 + j] = want[48 + j] = (float)(12.0 * p64 * p64);
	}
	cr_assert(want[32] > 0.0f);
	check_known(GGML_TYPE_MXFP4, b, want, 64);
}

/*
 * NVFP4: sub-block scales 0x38 (UE4M3 1.0, so d = 0.5), 0x41 (2.25, d =
 * 1.125), 0x03 (subnormal 3 * 2^-9, d = 3 * 2^-10) and 0x7f (0); in each
 * sub-block byte j = j | (7 - j + 8) << 4, so element j has level j and
 * element 8 + j level 15 - j.
 */
Test(kernels, known_nvfp4)
{
	uint8_t b[36] = { 0x38, 0x41, 0x03, 0x7f };
	const float d[4] = { 0.5f, 1.125f, 0.0029296875f, 0.0f };
	float want[64];
	int s, j;

	for (s = 0; s < 4; s++) {
		for (j = 0; j < 8; j++) {
			b[4 + 8 * s + j] = (uint8_t)(j | (15 - j) << 4);
			want[16 * s + j] = fp4_levels[j] * d[s];
			want[16 * s + 8 + j] = fp4_levels[15 - j] * d[s];
		}
	}
	cr_assert_eq(want[7], 6.0f);
	cr_assert_eq(want[16 + 7], 13.5f);
	cr_assert_eq(want[16 + 8], -13.5f);
	check_known(GGML_TYPE_NVFP4, b, want, 64);
}

/* ---- the corpus: gguf-py's dequantized values, bit for bit ---- */

/* f32_le: append v to the hash as 4 little-endian bytes. */
static void
hash_f32_le(struct sha256 *h, float v)
{
	uint32_t u;
	uint8_t p[4];

	memcpy(&u, &v, sizeof u);
	p[0] = (uint8_t)u;
	p[1] = (uint8_t)(u >> 8);
	p[2] = (uint8_t)(u >> 16);
	p[3] = (uint8_t)(u >> 24);
	sha256_update(h, p, 4);
}

/* first_matches: v equals the JSON value (a number, or "nan"/"inf"/"-inf"). */
static bool
first_matches(const struct jsonnode *j, float v)
{
	const char *s = jsontree_str(j);

	if (s != NULL) {
		if (strcmp(s, "nan") == 0)
			return isnan(v);
		if (strcmp(s, "inf") == 0)
			return isinf(v) && v > 0;
		if (strcmp(s, "-inf") == 0)
			return isinf(v) && v < 0;
		return false;
	}
	return j != NULL && j->type == JSONTREE_NUMBER &&
	    (double)v == j->number;
}

/* The tensor of f named tname, or a failed test. */
static const struct gguf_tensor *
find_tensor(const struct gguf_file *f, const char *tname, const char *gpath)
{
	const struct gguf_tensor *t = NULL;
	size_t k;

	for (k = 0; k < f->tensors_n; k++)
		if (gguf_str_eq(f->tensors[k].name, tname))
			t = &f->tensors[k];
	cr_assert(t != NULL, "%s: no tensor %s", gpath, tname);
	return t;
}

/*
 * check_row_dots: the dot kernel of type on the first rows (of ne0
 * elements, rbytes bytes each) of data, against the reference.
 */
static void
check_row_dots(uint32_t type, const uint8_t *data, size_t rows, size_t ne0,
    size_t rbytes, const char *what)
{
	const struct kernel *dt = kernel_find(KERNEL_DOT, type,
	    KERNEL_ORDER_AS_STORED);
	float *x = xcalloc(ne0, sizeof *x);
	float *scratch = xcalloc(ne0, sizeof *scratch);
	size_t k, r;

	cr_assert(dt != NULL);
	for (k = 0; k < ne0; k++)
		x[k] = (float)((k * 37 % 101) - 50) / 50.0f;
	for (r = 0; r < rows && r < 4; r++) {
		double ref = kernel_reference_dot(type, data + r * rbytes, x,
		    ne0, scratch), mag = 0.0;
		float got = dt->dot(data + r * rbytes, x, ne0);

		for (k = 0; k < ne0; k++)
			mag += fabs((double)scratch[k] * x[k]);
		cr_assert(fabs(got - ref) <= DOT_TOL * (1.0 + mag),
		    "%s row %zu: %s gives %.9g, reference %.9g", what, r,
		    dt->name, (double)got, ref);
	}
	free(x);
	free(scratch);
}

/*
 * check_tensor_values: dequantize the tensor of f that jt (an entry of
 * NAME.values.json) describes and compare its first values and the
 * SHA-256 of all of them with jt's; then its first rows' dot products.
 */
static void
check_tensor_values(const struct gguf_file *f, const struct jsonnode *jt,
    const char *name, const char *gpath)
{
	const char *tname = jsontree_str(jsontree_get(jt, "name"));
	const char *want_sha = jsontree_str(jsontree_get(jt, "sha256_f32le"));
	const struct jsonnode *first = jsontree_get(jt, "first");
	const struct gguf_tensor *t;
	const struct kernel *dq;
	int64_t jtype, jn;
	size_t k, ne0, rows, rbytes, r;
	const uint8_t *data;
	struct source_view view = { 0 };
	float *vals;
	struct sha256 h;
	uint8_t digest[32];
	char hex[65], *what;

	cr_assert(tname != NULL && want_sha != NULL && first != NULL);
	cr_assert(jsontree_int64(jsontree_get(jt, "type"), &jtype));
	cr_assert(jsontree_int64(jsontree_get(jt, "n"), &jn));
	t = find_tensor(f, tname, gpath);
	cr_assert_eq(t->type, (uint32_t)jtype, "%s", tname);
	cr_assert(t->size_ok, "%s", tname);
	dq = kernel_find(KERNEL_DEQUANT, t->type, KERNEL_ORDER_AS_STORED);
	cr_assert(dq != NULL, "%s: no kernel for type %u", tname, t->type);

	ne0 = (size_t)t->ne[0];
	rows = (size_t)jn / ne0;
	rbytes = kernel_row_bytes(t->type, ne0);
	cr_assert(rbytes > 0 && rows * ne0 == (size_t)jn, "%s", tname);
	cr_assert_eq(t->nbytes, (uint64_t)(rows * rbytes), "%s", tname);
	cr_assert(f->data_offset + t->offset + t->nbytes <= f->size);
	data = source_view_get(&f->src, &view, f->data_offset + t->offset,
	    t->nbytes);
	cr_assert(data != NULL, "%s: no view of its data", tname);

	vals = xcalloc((size_t)jn, sizeof *vals);
	for (r = 0; r < rows; r++)
		dq->dequant(data + r * rbytes, vals + r * ne0, ne0);
	for (k = 0; k < first->n && k < (size_t)jn; k++)
		cr_assert(first_matches(first->items[k], vals[k]),
		    "%s %s: value %zu is %.9g, gguf-py says %s", name, tname,
		    k, (double)vals[k], first->items[k]->text ?
		    first->items[k]->text : "?");
	sha256_init(&h);
	for (k = 0; k < (size_t)jn; k++)
		hash_f32_le(&h, vals[k]);
	sha256_final(&h, digest);
	sha256_hex(digest, hex);
	cr_assert_str_eq(hex, want_sha, "%s %s (%s): the values differ from "
	    "gguf-py's", name, tname, dq->name);
	free(vals);

	/* the dot kernel on the real rows, against the reference */
	what = xasprintf("%s %s", name, tname);
	check_row_dots(t->type, data, rows, ne0, rbytes, what);
	free(what);
	source_view_release(&view);
}

/*
 * check_values_file: dequantize every tensor of corpus file NAME and
 * compare with NAME.values.json. Also checks each tensor's first rows'
 * dot products against the reference. Returns the number of tensors.
 */
static size_t
check_values_file(const char *name)
{
	const char *shared = test_shared_dir();
	char *gpath, *jpath, *text, *perr = NULL;
	const struct jsonnode *tensors;
	struct jsonnode *root;
	struct gguf_file f;
	struct catalog cat;
	struct diag_list dl;
	struct gl_error err;
	size_t len, i, n_tensors;

	if (shared == NULL)
		cr_skip_test("../shared is absent: no corpus values to check");
	gpath = xasprintf("%s/corpus/gguf-py-generated/%s", shared, name);
	jpath = xasprintf("%s.values.json", gpath);
	cr_assert(read_whole_file(jpath, 1u << 24, &text, &len, &err) == 0,
	    "%s", err.msg);
	root = jsontree_parse(text, len, &perr);
	cr_assert(root != NULL, "%s: %s", jpath, perr);
	tensors = jsontree_get(root, "tensors");
	cr_assert(tensors != NULL && tensors->type == JSONTREE_ARRAY);

	cr_assert(catalog_load_builtin(&cat, &err) == 0, "%s", err.msg);
	diag_list_init(&dl, &cat);
	cr_assert(gguf_open(&f, gpath, &err) == 0, "%s", err.msg);
	gguf_parse(&f, &dl);
	cr_assert(f.header_complete && !f.big_endian, "%s", gpath);

	n_tensors = tensors->n;
	for (i = 0; i < tensors->n; i++)
		check_tensor_values(&f, tensors->items[i], name, gpath);

	gguf_close(&f);
	diag_list_free(&dl);
	catalog_free(&cat);
	jsontree_free(root);
	free(text);
	free(jpath);
	free(gpath);
	return n_tensors;
}

Test(kernels, corpus_values_llama_tiny_mixed)
{
	size_t n = check_values_file("llama-tiny-mixed.gguf");

	cr_assert(n >= 20);
	cr_log_info("llama-tiny-mixed.gguf: %zu tensors match gguf-py", n);
}

Test(kernels, corpus_values_qwen2_tiny)
{
	size_t n = check_values_file("qwen2-tiny.gguf");

	cr_assert(n >= 20);
	cr_log_info("qwen2-tiny.gguf: %zu tensors match gguf-py", n);
}

/* ---- dot kernels against the reference on random blocks ---- */

/* A splitmix64 generator: deterministic across hosts. */
static uint64_t
rng_next(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* rng_unit: uniform in [-1, 1). */
static float
rng_unit(uint64_t *s)
{
	return (float)((double)(rng_next(s) >> 11) * 0x1p-52 - 1.0);
}

/* rng_scale: a random finite scale, |v| in [2^-8, 2^1), either sign. */
static float
rng_scale(uint64_t *s)
{
	uint64_t r = rng_next(s);
	float mant = 1.0f + (float)(r & 0xffff) / 65536.0f;
	int e = (int)((r >> 16) % 9) - 8;
	float v = mant;

	while (e++ < 0)
		v *= 0.5f;
	return (r >> 32) & 1 ? -v : v;
}

/*
 * factor_offsets: where a block of type keeps its fp16 factors (the fields
 * of gguf-format.md §5.1): off[0] the scale, off[1] the minimum, -1 where
 * it has none. Returns false for a type whose factors are not fp16.
 */
static bool
factor_offsets(uint32_t type, int off[2])
{
	off[0] = off[1] = -1;
	switch (type) {
	case GGML_TYPE_Q4_0: case GGML_TYPE_Q5_0: case GGML_TYPE_Q8_0:
	case GGML_TYPE_IQ4_NL: case GGML_TYPE_IQ4_XS:
	case GGML_TYPE_Q1_0: case GGML_TYPE_Q2_0:
	case GGML_TYPE_IQ2_XXS: case GGML_TYPE_IQ2_XS: case GGML_TYPE_IQ2_S:
	case GGML_TYPE_IQ3_XXS: case GGML_TYPE_IQ3_S: case GGML_TYPE_IQ1_S:
		off[0] = 0;
		return true;
	case GGML_TYPE_Q4_1: case GGML_TYPE_Q5_1:
	case GGML_TYPE_Q4_K: case GGML_TYPE_Q5_K:
		off[0] = 0;
		off[1] = 2;
		return true;
	case GGML_TYPE_Q2_K:
		off[0] = 80;
		off[1] = 82;
		return true;
	case GGML_TYPE_Q3_K:
		off[0] = 108;
		return true;
	case GGML_TYPE_Q6_K:
		off[0] = 208;
		return true;
	case GGML_TYPE_TQ1_0:
		off[0] = 52;
		return true;
	case GGML_TYPE_TQ2_0:
		off[0] = 64;
		return true;
	default:
		return false;
	}
}

/*
 * put_iq1_m_d: make h the fp16 d of the IQ1_M block at b: its nibbles,
 * lowest first, are the top nibbles of the u16 scales sc0..sc3 @48.
 */
static void
put_iq1_m_d(uint8_t *b, uint16_t h)
{
	int k;

	for (k = 0; k < 4; k++)
		b[49 + 2 * k] = (uint8_t)((b[49 + 2 * k] & 0x0f) |
		    (h >> 4 * k & 15) << 4);
}

/*
 * kernel_fp16_factors, the offsets the capability probe and the byte-order
 * conversion write and swap, says what the layouts say (factor_offsets)
 * for every type, and nothing for the types without fp16 factors.
 */
Test(kernels, fp16_factors_match_the_layouts)
{
	uint32_t type;

	for (type = 0; type < GGML_TYPE_COUNT + 8; type++) {
		int want[2];
		unsigned got[2] = { 999, 999 }, n;
		bool has = factor_offsets(type, want);

		n = kernel_fp16_factors(type, got);
		cr_assert_eq(n, has ? (want[1] >= 0 ? 2u : 1u) : 0u,
		    "type %u: %u fp16 factors", type, n);
		if (n >= 1)
			cr_assert_eq((int)got[0], want[0], "type %u", type);
		if (n == 2)
			cr_assert_eq((int)got[1], want[1], "type %u", type);
		else
			cr_assert_eq(got[1], 999, "type %u", type);
		if (has)
			cr_assert(kernel_find(KERNEL_DEQUANT, type,
			    KERNEL_ORDER_AS_STORED) != NULL, "type %u", type);
	}
}

/*
 * make_row: nblk random blocks of type at row (kernel_row_bytes of them):
 * random bytes, with every scale field a finite fp16, an MXFP4 exponent in
 * 120..135, and F32/F16/BF16 values in [-2, 2).
 */
static void
make_row(uint32_t type, uint8_t *row, size_t nblk, uint64_t *s)
{
	const struct ggml_type_info *t = ggml_type_get(type);
	int off[2];
	size_t i, k;

	for (i = 0; i < nblk * t->size; i++)
		row[i] = (uint8_t)rng_next(s);
	switch (type) {
	case GGML_TYPE_F32:
		for (i = 0; i < nblk; i++) {
			float v = 2.0f * rng_unit(s);
			uint32_t u;

			memcpy(&u, &v, 4);
			for (k = 0; k < 4; k++)
				row[4 * i + k] = (uint8_t)(u >> (8 * k));
		}
		return;
	case GGML_TYPE_F16:
		for (i = 0; i < nblk; i++)
			put_half(row + 2 * i, 2.0f * rng_unit(s));
		return;
	case GGML_TYPE_BF16:
		for (i = 0; i < nblk; i++) {
			uint16_t b = kernel_f32_to_bf16(2.0f * rng_unit(s));

			row[2 * i] = (uint8_t)b;
			row[2 * i + 1] = (uint8_t)(b >> 8);
		}
		return;
	case GGML_TYPE_MXFP4:
		for (i = 0; i < nblk; i++)
			row[17 * i] = (uint8_t)(120 + rng_next(s) % 16);
		return;
	case GGML_TYPE_NVFP4:
		return;		/* every byte is a valid scale */
	case GGML_TYPE_IQ1_M:	/* d split over the scales' nibbles */
		for (i = 0; i < nblk; i++)
			put_iq1_m_d(row + i * t->size,
			    kernel_f32_to_fp16(rng_scale(s)));
		return;
	default:
		cr_assert(factor_offsets(type, off),
		    "no probe-row generator for type %u: add one", type);
	}
	for (i = 0; i < nblk; i++)
		for (k = 0; k < 2; k++)
			if (off[k] >= 0)
				put_half(row + i * t->size + (size_t)off[k],
				    rng_scale(s));
}

/*
 * Every as-stored kernel steps through a row by the table's block size: a
 * row of three blocks dequantizes to its blocks dequantized one by one
 * (each at b times the table's size), and the dot kernel with a one-hot x
 * gives each of its values, exactly; so a kernel whose stride or block
 * length drifted from the table fails here.
 */
Test(kernels, kernels_step_by_the_tables_block_size)
{
	static uint8_t row[3 * 292];
	static float all[3 * 256], one[256], x[3 * 256];
	const struct kernel *k;
	uint64_t s = 0x57de;
	size_t b, i;

	for (k = kernels; k->name != NULL; k++) {
		const struct ggml_type_info *t = ggml_type_get(k->type);
		const struct kernel *dt = kernel_find(KERNEL_DOT, k->type,
		    KERNEL_ORDER_AS_STORED);

		if (k->op != KERNEL_DEQUANT ||
		    k->order != KERNEL_ORDER_AS_STORED || t->blck == 1)
			continue;
		cr_assert(t->blck <= 256 && t->size <= 292 && dt != NULL);
		make_row(k->type, row, 3, &s);
		k->dequant(row, all, 3 * t->blck);
		for (b = 0; b < 3; b++) {
			k->dequant(row + b * t->size, one, t->blck);
			cr_assert(memcmp(one, all + b * t->blck, t->blck *
			    sizeof one[0]) == 0, "%s: block %zu", k->name, b);
		}
		memset(x, 0, sizeof x);
		for (i = 0; i < 3 * t->blck; i++) {
			float got;

			x[i] = 1.0f;
			got = dt->dot(row, x, 3 * t->blck);
			cr_assert(got == all[i], "%s: dot with e_%zu is %.9g, "
			    "the value %.9g", dt->name, i, (double)got,
			    (double)all[i]);
			x[i] = 0.0f;
		}
	}
}

struct dot_stats {
	size_t rows;		/* rows checked */
	size_t bad;		/* rows beyond the tolerance */
	double max_abs;		/* max |dot - ref| */
	double max_rel;		/* max |dot - ref| / (1 + sum |w x|) */
};

/*
 * dot_check: run dot (a kernel for type) on random rows of several lengths
 * (1, 2, 7, 16 blocks, and about 4096 elements) and random activations,
 * against kernel_reference_dot; fill st.
 */
static void
dot_check(uint32_t type, float (*dot)(const void *, const float *, size_t),
    struct dot_stats *st)
{
	const struct ggml_type_info *t = ggml_type_get(type);
	size_t lens[5] = { 1, 2, 7, 16, 0 }, li, trial, i;
	uint64_t s = 0x6767756666ull * 31 + type;

	memset(st, 0, sizeof *st);
	lens[4] = 4096 / t->blck > 16 ? 4096 / t->blck : 32;
	for (li = 0; li < 5; li++) {
		size_t nblk = lens[li], n = nblk * t->blck;
		uint8_t *row = xmalloc(nblk * t->size);
		float *x = xmalloc(n * sizeof *x);
		float *scratch = xmalloc(n * sizeof *scratch);

		for (trial = 0; trial < 8; trial++) {
			double ref, mag = 0.0, err;
			float got;

			make_row(type, row, nblk, &s);
			for (i = 0; i < n; i++)
				x[i] = rng_unit(&s);
			ref = kernel_reference_dot(type, row, x, n, scratch);
			for (i = 0; i < n; i++)
				mag += fabs((double)scratch[i] * x[i]);
			got = dot(row, x, n);
			err = fabs((double)got - ref);
			if (!(err <= DOT_TOL * (1.0 + mag)))
				st->bad++;
			if (err > st->max_abs)
				st->max_abs = err;
			if (err / (1.0 + mag) > st->max_rel)
				st->max_rel = err / (1.0 + mag);
			st->rows++;
		}
		free(row);
		free(x);
		free(scratch);
	}
}

Test(kernels, every_dot_kernel_agrees_with_the_reference)
{
	const struct kernel *k;
	size_t n = 0;

	for (k = kernels; k->name != NULL; k++) {
		struct dot_stats st;

		if (k->op != KERNEL_DOT || k->dot == NULL)
			continue;	/* feed-order kernels: test_resolve.c */
		dot_check(k->type, k->dot, &st);
		cr_log_info("%-18s max |dot - ref| = %.3g, relative to 1 + "
		    "sum|w x|: %.3g (%zu rows)", k->name, st.max_abs,
		    st.max_rel, st.rows);
		cr_expect(st.bad == 0, "%s: %zu of %zu rows beyond %g * (1 + "
		    "sum|w x|); max relative error %.3g", k->name, st.bad,
		    st.rows, DOT_TOL, st.max_rel);
		n++;
	}
	cr_assert(n >= sizeof required_types / sizeof required_types[0]);
}

/*
 * On random blocks, the dot kernel with x = e_k reproduces the dequantized
 * element k exactly: the dot kernels walk the blocks in their own order,
 * so this checks the two traversals against each other element by element.
 */
Test(kernels, dot_with_unit_vectors_gives_the_dequantized_values)
{
	const struct kernel *k;

	for (k = kernels; k->name != NULL; k++) {
		const struct ggml_type_info *t = ggml_type_get(k->type);
		const struct kernel *dq;
		size_t nblk = t->blck == 1 ? 64 : 2, n = nblk * t->blck, i;
		uint64_t s = 12345 + k->type;
		uint8_t *row;
		float *x, *w;

		if (k->op != KERNEL_DOT || k->dot == NULL)
			continue;
		dq = must_find(KERNEL_DEQUANT, k->type);
		row = xmalloc(nblk * t->size);
		x = xcalloc(n, sizeof *x);
		w = xmalloc(n * sizeof *w);
		make_row(k->type, row, nblk, &s);
		dq->dequant(row, w, n);
		for (i = 0; i < n; i++) {
			float got;

			x[i] = 1.0f;
			got = k->dot(row, x, n);
			x[i] = 0.0f;
			cr_assert(got == w[i], "%s: element %zu: dot gives "
			    "%.9g, %s gives %.9g", k->name, i, (double)got,
			    dq->name, (double)w[i]);
		}
		free(row);
		free(x);
		free(w);
	}
}

/* ---- the check can fail: wrong kernels are caught ---- */

/* A Q4_0 dot product that forgets the -8 offset. */
static float
wrong_dot_q4_0_no_offset(const void *row, const float *x, size_t n)
{
	const uint8_t *b = row;
	float acc = 0.0f;
	size_t i;
	int j;

	for (i = 0; i < n / 32; i++, b += 18, x += 32) {
		float s = 0.0f;

		for (j = 0; j < 16; j++)
			s += (float)(b[2 + j] & 15) * x[j] +
			    (float)(b[2 + j] >> 4) * x[j + 16];
		acc += kernel_fp16_to_f32((uint16_t)(b[0] | b[1] << 8)) * s;
	}
	return acc;
}

/*
 * A Q4_K dot product with a plausible layout mistake: nibbles taken as
 * interleaved (element 2l low, 2l+1 high) instead of low half / high half.
 */
static float
wrong_dot_q4_K_interleaved(const void *row, const float *x, size_t n)
{
	const uint8_t *b = row;
	float acc = 0.0f;
	size_t i;
	int sub, l;

	for (i = 0; i < n / 256; i++, b += 144, x += 256) {
		float d = kernel_fp16_to_f32((uint16_t)(b[0] | b[1] << 8));
		float dmin = kernel_fp16_to_f32((uint16_t)(b[2] | b[3] << 8));
		const uint8_t *sc = b + 4;

		for (sub = 0; sub < 8; sub++) {
			const uint8_t *q = b + 16 + 32 * (sub / 2) +
			    16 * (sub % 2);
			int scale, min;
			float sqx = 0.0f, sx = 0.0f;

			if (sub < 4) {
				scale = sc[sub] & 63;
				min = sc[sub + 4] & 63;
			} else {
				scale = (sc[sub + 4] & 15) |
				    (sc[sub - 4] >> 6) << 4;
				min = (sc[sub + 4] >> 4) | (sc[sub] >> 6) << 4;
			}
			for (l = 0; l < 16; l++) {
				const float *xs = x + 32 * sub + 2 * l;

				sqx += (float)(q[l] & 15) * xs[0] +
				    (float)(q[l] >> 4) * xs[1];
				sx += xs[0] + xs[1];
			}
			acc += d * (float)scale * sqx - dmin * (float)min * sx;
		}
	}
	return acc;
}

Test(kernels, wrong_kernels_are_caught)
{
	struct dot_stats st;

	dot_check(GGML_TYPE_Q4_0, wrong_dot_q4_0_no_offset, &st);
	cr_assert(st.bad == st.rows, "a Q4_0 dot without the -8 passed on "
	    "%zu of %zu rows", st.rows - st.bad, st.rows);
	cr_log_info("q4_0 without -8: %zu of %zu rows rejected, max relative "
	    "error %.3g", st.bad, st.rows, st.max_rel);

	dot_check(GGML_TYPE_Q4_K, wrong_dot_q4_K_interleaved, &st);
	cr_assert(st.bad == st.rows, "an interleaved Q4_K dot passed on %zu "
	    "of %zu rows", st.rows - st.bad, st.rows);
	cr_log_info("q4_K interleaved: %zu of %zu rows rejected, max "
	    "relative error %.3g", st.bad, st.rows, st.max_rel);

	/* and the right kernels pass the same check */
	dot_check(GGML_TYPE_Q4_0, must_find(KERNEL_DOT,
	    GGML_TYPE_Q4_0)->dot, &st);
	cr_assert_eq(st.bad, 0);
	dot_check(GGML_TYPE_Q4_K, must_find(KERNEL_DOT,
	    GGML_TYPE_Q4_K)->dot, &st);
	cr_assert_eq(st.bad, 0);
}

/* ---- the screens against the dequantizers ---- */

/* fp16 factors at the edges: zeros, subnormals, one, the largest finite of
 * either sign, the infinities and NaNs. */
static const uint16_t edge_halves[] = {
	0x0000, 0x8000, 0x0001, 0x83ff, 0x3c00, 0x7bff, 0xfbff, 0x7c00,
	0xfc00, 0x7e00, 0xfe01,
};

/* What the dequantizer makes of a row: the screen's contract is on it. */
struct screen_truth {
	uint64_t nonfinite;
	double maxabs;		/* over the finite values */
	bool nonzero;		/* a finite value is not zero */
};

static void
decode_truth(uint32_t type, const uint8_t *row, size_t n, float *out,
    struct screen_truth *t)
{
	size_t i;

	must_find(KERNEL_DEQUANT, type)->dequant(row, out, n);
	kernel_mark_invalid(type, row, out, n);	/* what --deep decodes */
	memset(t, 0, sizeof *t);
	for (i = 0; i < n; i++) {
		if (!isfinite(out[i])) {
			t->nonfinite++;
			continue;
		}
		t->maxabs = fmax(t->maxabs, fabs((double)out[i]));
		t->nonzero |= out[i] != 0;
	}
}

/* A factor for screen_row by mode (below): random, zero or the largest. */
static uint16_t
screen_half(int mode, uint64_t *s)
{
	uint64_t r = rng_next(s);

	return mode == 1 ? (r & 1 ? 0x8000 : 0) : mode == 2 ?
	    (r & 1 ? 0xfbff : 0x7bff) : r % 3 == 0 ?
	    edge_halves[(r >> 8) % 11] : kernel_f32_to_fp16(rng_scale(s));
}

/*
 * A row of nblk blocks whose bytes are fill (or random when fill < 0) and
 * whose factors are, by mode: 0 a mix of edge values and random finite
 * ones, 1 all zero (either sign), 2 all the largest finite (either sign).
 * Float types: values of those bytes, one in four replaced by an edge.
 */
static void
screen_row(uint32_t type, uint8_t *row, size_t nblk, int fill, int mode,
    uint64_t *s)
{
	const struct ggml_type_info *t = ggml_type_get(type);
	int off[2];
	size_t i, k;

	for (i = 0; i < nblk * t->size; i++)
		row[i] = (uint8_t)(fill < 0 ? rng_next(s) : (uint64_t)fill);
	if (type == GGML_TYPE_F32 || type == GGML_TYPE_F16 ||
	    type == GGML_TYPE_BF16) {
		for (i = 0; i < nblk; i++) {
			uint64_t r = rng_next(s);
			uint16_t h = edge_halves[(r >> 8) % 11];

			if (r % 4 != 0)
				continue;
			if (type == GGML_TYPE_BF16)
				h = kernel_f32_to_bf16(kernel_fp16_to_f32(h));
			/* the top 16 bits of an f32, as bf16 */
			if (type == GGML_TYPE_F32)
				h = kernel_f32_to_bf16(kernel_fp16_to_f32(h)),
				row[t->size * i] = row[t->size * i + 1] = 0;
			row[t->size * (i + 1) - 2] = (uint8_t)h;
			row[t->size * (i + 1) - 1] = (uint8_t)(h >> 8);
		}
		return;
	}
	if (type == GGML_TYPE_MXFP4) {	/* mode 1: all invalid */
		static const uint8_t edge_e[] = {
			0, 1, 2, 127, 128, 200, 252, 253, 254, 255,
		};

		for (i = 0; i < nblk; i++) {
			uint64_t r = rng_next(s);

			row[17 * i] = mode == 1 ? 0xff : mode == 2 ?
			    (uint8_t)(252 + r % 3) : r % 3 == 0 ?
			    edge_e[(r >> 8) % 10] : (uint8_t)(r >> 16);
		}
		return;
	}
	if (type == GGML_TYPE_NVFP4) {	/* 0x00, 0x7f, 0x80 are 0 */
		static const uint8_t edge_d[] = {
			0x00, 0x7f, 0x80, 0x01, 0x08, 0x7e, 0xfe, 0xff,
		};

		for (i = 0; i < 4 * nblk; i++) {
			uint64_t r = rng_next(s);

			row[36 * (i / 4) + i % 4] = mode == 1 ?
			    edge_d[r % 3] : mode == 2 ? edge_d[5 + r % 3] :
			    r % 3 == 0 ? edge_d[(r >> 8) % 8] :
			    (uint8_t)(r >> 16);
		}
		return;
	}
	if (type == GGML_TYPE_IQ1_M) {	/* d in nibbles, as in make_row */
		for (i = 0; i < nblk; i++)
			put_iq1_m_d(row + i * t->size, screen_half(mode, s));
		return;
	}
	cr_assert(factor_offsets(type, off));
	for (i = 0; i < nblk; i++)
		for (k = 0; k < 2; k++) {
			uint16_t h = screen_half(mode, s);

			if (off[k] < 0)
				continue;
			row[i * t->size + (size_t)off[k]] = (uint8_t)h;
			row[i * t->size + (size_t)off[k] + 1] =
			    (uint8_t)(h >> 8);
		}
}

/* One row against its decoding; returns max |value| / bound (0 if none). */
static double
screen_check(uint32_t type, const uint8_t *row, size_t n, float *out,
    int mode)
{
	const struct ggml_type_info *t = ggml_type_get(type);
	bool floats = t->blck == 1;
	struct kernel_screen ks = { 0, 0, false, false };
	struct screen_truth want;

	decode_truth(type, row, n, out, &want);
	cr_assert(kernel_screen(type, row, n, &ks), "%s", t->name);
	cr_assert_eq(ks.nonfinite, want.nonfinite, "%s: %llu non-finite, "
	    "screened %llu", t->name, (unsigned long long)want.nonfinite,
	    (unsigned long long)ks.nonfinite);
	cr_assert(ks.bound >= want.maxabs, "%s: |value| %.9g over the bound "
	    "%.9g", t->name, want.maxabs, ks.bound);
	cr_assert(ks.maybe_nonzero || !want.nonzero, "%s", t->name);
	cr_assert(!ks.nonzero || want.nonzero, "%s", t->name);
	if (floats)
		cr_assert(ks.bound == want.maxabs && ks.nonzero ==
		    want.nonzero && ks.maybe_nonzero == want.nonzero, "%s",
		    t->name);
	else
		cr_assert(mode != 1 || !ks.maybe_nonzero, "%s: zero factors "
		    "may hold a nonzero value?", t->name);
	if (ks.nonfinite == 0)
		cr_assert(isfinite(ks.bound), "%s", t->name);
	return ks.bound > 0 ? want.maxabs / ks.bound : 0;
}

/* The rows of one type; returns how close the values came to the bound. */
static double
screen_type(uint32_t type, uint64_t *s)
{
	static const int fills[] = { -1, 0x00, 0xff, 0x80, 0x7f, 0x55 };
	static uint8_t row[8 * 256 * 4];
	static float out[8 * 256];
	const struct ggml_type_info *t = ggml_type_get(type);
	size_t nblk = t->blck == 1 ? 512 : 4, f;
	double tight = 0;
	int mode, trial;

	for (f = 0; f < sizeof fills / sizeof fills[0]; f++)
		for (mode = 0; mode < 3; mode++)
			for (trial = 0; trial < 20; trial++) {
				screen_row(type, row, nblk, fills[f], mode, s);
				tight = fmax(tight, screen_check(type, row,
				    nblk * t->blck, out, mode));
			}
	return tight;
}

/*
 * Every type with a dequantizer has a screen. On rows of random, constant
 * and extreme bytes with factors at the edges, it counts exactly the values
 * the dequantizer makes NaN or infinite (MXFP4's invalid scales marked),
 * no finite value passes its bound, zero factors mean zero values; and the
 * bound is tight: some row reaches it (TQ1_0's trits reach half of it).
 */
Test(kernels, screens_agree_with_the_dequantizers)
{
	uint64_t s = 0x5c4ee9;
	size_t k;

	for (k = 0; kernels[k].name != NULL; k++) {
		const struct kernel *kn = &kernels[k];
		const char *name = ggml_type_get(kn->type)->name;
		double tight;

		if (kn->op != KERNEL_DEQUANT ||
		    kn->order != KERNEL_ORDER_AS_STORED)
			continue;
		cr_assert(kernel_screen_has(kn->type), "%s: no screen", name);
		tight = screen_type(kn->type, &s);
		cr_assert(tight >= (kn->type == GGML_TYPE_TQ1_0 ? 0.49 :
		    0.99), "%s: the values reach only %.3g of the bound", name,
		    tight);
		cr_log_info("screen %s: the values reach %.6f of the bound",
		    name, tight);
	}
}

/* ---- big-endian files ---- */

/*
 * What gguf-py's gguf-convert-endian swaps, written out again for the test:
 * the elements of the float types; d (and dmin) of Q4_0, Q8_0, Q4_K, Q6_K.
 */
static void
swap_like_gguf_py(uint32_t type, uint8_t *p, size_t nblk)
{
	size_t size = ggml_type_get(type)->size, b;
	int off[2] = { -1, -1 }, k;

	if (type == GGML_TYPE_F32 || type == GGML_TYPE_F16 ||
	    type == GGML_TYPE_BF16) {
		for (b = 0; b < nblk; b++) {
			uint8_t *e = p + b * size;

			for (k = 0; k < (int)size / 2; k++) {
				uint8_t t = e[k];

				e[k] = e[size - 1 - (size_t)k];
				e[size - 1 - (size_t)k] = t;
			}
		}
		return;
	}
	if (type == GGML_TYPE_Q4_0 || type == GGML_TYPE_Q8_0)
		off[0] = 0;
	else if (type == GGML_TYPE_Q4_K)
		off[0] = 0, off[1] = 2;
	else if (type == GGML_TYPE_Q6_K)
		off[0] = 208;
	for (b = 0; b < nblk; b++)
		for (k = 0; k < 2; k++)
			if (off[k] >= 0) {
				uint8_t *f = p + b * size + off[k], t = f[0];

				f[0] = f[1];
				f[1] = t;
			}
}

/*
 * kernel_from_be turns a big-endian row back into the little-endian one
 * byte for byte, for the types gguf-py converts, and refuses the others
 * (whose big-endian layout nobody defines) without writing.
 */
Test(kernels, big_endian_rows_convert_as_gguf_py_swaps_them)
{
	static const uint32_t known[] = {
		GGML_TYPE_F32, GGML_TYPE_F16, GGML_TYPE_BF16,
		GGML_TYPE_Q4_0, GGML_TYPE_Q8_0, GGML_TYPE_Q4_K,
		GGML_TYPE_Q6_K, GGML_TYPE_MXFP4,
	};
	static uint8_t le[4 * 256 * 4], be[sizeof le], out[sizeof le];
	uint64_t s = 0xe2d1a;
	size_t i, k;

	for (i = 0; i < sizeof known / sizeof known[0]; i++) {
		const struct ggml_type_info *t = ggml_type_get(known[i]);
		size_t nblk = t->blck == 1 ? 1024 : 4;

		make_row(known[i], le, nblk, &s);
		memcpy(be, le, nblk * t->size);
		swap_like_gguf_py(known[i], be, nblk);
		if (known[i] != GGML_TYPE_MXFP4)
			cr_assert(memcmp(be, le, nblk * t->size) != 0, "%s",
			    t->name);
		cr_assert(kernel_be_known(known[i]), "%s", t->name);
		cr_assert(kernel_from_be(known[i], be, out, nblk * t->blck));
		cr_assert(memcmp(out, le, nblk * t->size) == 0, "%s", t->name);
	}
	for (k = 0; kernels[k].name != NULL; k++) {
		bool listed = false;

		for (i = 0; i < sizeof known / sizeof known[0]; i++)
			listed |= kernels[k].type == known[i];
		if (listed)
			continue;
		memset(out, 0xaa, sizeof out);
		cr_assert(!kernel_be_known(kernels[k].type));
		cr_assert(!kernel_from_be(kernels[k].type, le, out, 256));
		cr_assert(out[0] == 0xaa && out[100] == 0xaa);
	}
}

/* An MXFP4 block whose scale is 0xFF (E8M0's NaN) is all NaN once marked;
 * its neighbours, and every other type's values, stay as decoded. */
Test(kernels, invalid_mxfp4_scales_mark_their_block_nan)
{
	uint8_t row[3 * 17];
	float out[96], ref[96];
	uint64_t s = 0x3f;
	size_t i;

	make_row(GGML_TYPE_MXFP4, row, 3, &s);
	row[17] = 0xff;
	must_find(KERNEL_DEQUANT, GGML_TYPE_MXFP4)->dequant(row, out, 96);
	memcpy(ref, out, sizeof ref);
	kernel_mark_invalid(GGML_TYPE_MXFP4, row, out, 96);
	for (i = 0; i < 96; i++) {
		if (i >= 32 && i < 64)
			cr_assert(isnan(out[i]), "%zu", i);
		else
			cr_assert(out[i] == ref[i], "%zu", i);
	}
	memcpy(out, ref, sizeof out);
	kernel_mark_invalid(GGML_TYPE_Q8_0, row, out, 32);
	cr_assert(memcmp(out, ref, sizeof out) == 0);
}
