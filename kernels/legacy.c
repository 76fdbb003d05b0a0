/*
 * legacy.c - kernels for the single-scale block encodings: Q4_0, Q4_1, Q5_0,
 * Q5_1, Q8_0 (32 elements a block), and the 2026 additions Q1_0 (128) and
 * Q2_0 (64). Layouts and rules: gguf-format.md §5.
 *
 * In the 32-element nibble blocks, byte j's low nibble is element j and its
 * high nibble element j+16. The dequantizers compute exactly ggml's
 * expressions ((q - 8)*d, q*d + m, ...), in float, in that order. The dot
 * products sum q*x (and x, for the types with a minimum) over a block in
 * float, apply the block's scale once, and add the blocks up in double.
 */
#include <assert.h>

#include "kernels-impl.h"

/*
 * Block geometry is the table's; the loops below are written for blocks of
 * 32 (16 bytes of nibbles), and the layouts in the comments must add up to
 * the table's sizes: checked here, at compile time.
 */
#define QK GGML_BLCK_Q4_0
#define QK1_0 GGML_BLCK_Q1_0
#define QK2_0 GGML_BLCK_Q2_0
_Static_assert(QK == 32 && GGML_BLCK_Q4_1 == QK && GGML_BLCK_Q5_0 == QK &&
    GGML_BLCK_Q5_1 == QK && GGML_BLCK_Q8_0 == QK,
    "the loops are written for blocks of 32");
_Static_assert(GGML_SIZE_Q4_0 == 2 + QK / 2, "Q4_0: d, qs[16]");
_Static_assert(GGML_SIZE_Q4_1 == 4 + QK / 2, "Q4_1: d, m, qs[16]");
_Static_assert(GGML_SIZE_Q5_0 == 6 + QK / 2, "Q5_0: d, qh[4], qs[16]");
_Static_assert(GGML_SIZE_Q5_1 == 8 + QK / 2, "Q5_1: d, m, qh[4], qs[16]");
_Static_assert(GGML_SIZE_Q8_0 == 2 + QK, "Q8_0: d, qs[32]");
_Static_assert(GGML_SIZE_Q1_0 == 2 + QK1_0 / 8, "Q1_0: d, qs");
_Static_assert(GGML_SIZE_Q2_0 == 2 + QK2_0 / 4, "Q2_0: d, qs");

/* ---- Q4_0: d (fp16) @0, qs[16] @2; y = (q - 8)*d ---- */

KERNEL_CLONES void
kernel_dequant_q4_0(const void *restrict row, float *restrict out, size_t n)
{
	const uint8_t *b = row;
	size_t i;
	int j;

	assert(n % QK == 0);
	for (i = 0; i < n / QK; i++, b += GGML_SIZE_Q4_0, out += QK) {
		float d = kernel_half(b);

		for (j = 0; j < 16; j++) {
			out[j] = (float)((b[2 + j] & 15) - 8) * d;
			out[j + 16] = (float)((b[2 + j] >> 4) - 8) * d;
		}
	}
}

float
kernel_dot_q4_0(const void *row, const float *x, size_t n)
{
	const uint8_t *b = row;
	double acc = 0.0;
	size_t i;
	int j;

	assert(n % QK == 0);
	for (i = 0; i < n / QK; i++, b += GGML_SIZE_Q4_0, x += QK) {
		float s = 0.0f;

		for (j = 0; j < 16; j++) {
			s += (float)((b[2 + j] & 15) - 8) * x[j];
			s += (float)((b[2 + j] >> 4) - 8) * x[j + 16];
		}
		acc += kernel_half(b) * s;
	}
	return (float)acc;
}

/* ---- Q4_1: d @0, m @2, qs[16] @4; y = q*d + m ---- */

KERNEL_CLONES void
kernel_dequant_q4_1(const void *restrict row, float *restrict out, size_t n)
{
	const uint8_t *b = row;
	size_t i;
	int j;

	assert(n % QK == 0);
	for (i = 0; i < n / QK; i++, b += GGML_SIZE_Q4_1, out += QK) {
		float d = kernel_half(b), m = kernel_half(b + 2);

		for (j = 0; j < 16; j++) {
			out[j] = (float)(b[4 + j] & 15) * d + m;
			out[j + 16] = (float)(b[4 + j] >> 4) * d + m;
		}
	}
}

float
kernel_dot_q4_1(const void *row, const float *x, size_t n)
{
	const uint8_t *b = row;
	double acc = 0.0;
	size_t i;
	int j;

	assert(n % QK == 0);
	for (i = 0; i < n / QK; i++, b += GGML_SIZE_Q4_1, x += QK) {
		float sqx = 0.0f, sx = 0.0f;

		for (j = 0; j < 16; j++) {
			sqx += (float)(b[4 + j] & 15) * x[j];
			sqx += (float)(b[4 + j] >> 4) * x[j + 16];
			sx += x[j] + x[j + 16];
		}
		acc += kernel_half(b) * sqx + kernel_half(b + 2) * sx;
	}
	return (float)acc;
}

/*
 * ---- Q5_0: d @0, qh[4] @2 (u32 LE: bit j is the fifth bit of element j),
 * qs[16] @6; y = (q - 16)*d ----
 */

KERNEL_CLONES void
kernel_dequant_q5_0(const void *restrict row, float *restrict out, size_t n)
{
	const uint8_t *b = row;
	size_t i;
	int j;

	assert(n % QK == 0);
	for (i = 0; i < n / QK; i++, b += GGML_SIZE_Q5_0, out += QK) {
		float d = kernel_half(b);
		uint32_t qh = kernel_le32(b + 2);

		for (j = 0; j < 16; j++) {
			int lo = (b[6 + j] & 15) | (int)((qh >> j) & 1) << 4;
			int hi = (b[6 + j] >> 4) |
			    (int)((qh >> (j + 16)) & 1) << 4;

			out[j] = (float)(lo - 16) * d;
			out[j + 16] = (float)(hi - 16) * d;
		}
	}
}

float
kernel_dot_q5_0(const void *row, const float *x, size_t n)
{
	const uint8_t *b = row;
	double acc = 0.0;
	size_t i;
	int j;

	assert(n % QK == 0);
	for (i = 0; i < n / QK; i++, b += GGML_SIZE_Q5_0, x += QK) {
		uint32_t qh = kernel_le32(b + 2);
		float s = 0.0f;

		for (j = 0; j < 16; j++) {
			int lo = (b[6 + j] & 15) | (int)((qh >> j) & 1) << 4;
			int hi = (b[6 + j] >> 4) |
			    (int)((qh >> (j + 16)) & 1) << 4;

			s += (float)(lo - 16) * x[j];
			s += (float)(hi - 16) * x[j + 16];
		}
		acc += kernel_half(b) * s;
	}
	return (float)acc;
}

/* ---- Q5_1: d @0, m @2, qh[4] @4, qs[16] @8; y = q*d + m ---- */

KERNEL_CLONES void
kernel_dequant_q5_1(const void *restrict row, float *restrict out, size_t n)
{
	const uint8_t *b = row;
	size_t i;
	int j;

	assert(n % QK == 0);
	for (i = 0; i < n / QK; i++, b += GGML_SIZE_Q5_1, out += QK) {
		float d = kernel_half(b), m = kernel_half(b + 2);
		uint32_t qh = kernel_le32(b + 4);

		for (j = 0; j < 16; j++) {
			int lo = (b[8 + j] & 15) | (int)((qh >> j) & 1) << 4;
			int hi = (b[8 + j] >> 4) |
			    (int)((qh >> (j + 16)) & 1) << 4;

			out[j] = (float)lo * d + m;
			out[j + 16] = (float)hi * d + m;
		}
	}
}

float
kernel_dot_q5_1(const void *row, const float *x, size_t n)
{
	const uint8_t *b = row;
	double acc = 0.0;
	size_t i;
	int j;

	assert(n % QK == 0);
	for (i = 0; i < n / QK; i++, b += GGML_SIZE_Q5_1, x += QK) {
		uint32_t qh = kernel_le32(b + 4);
		float sqx = 0.0f, sx = 0.0f;

		for (j = 0; j < 16; j++) {
			int lo = (b[8 + j] & 15) | (int)((qh >> j) & 1) << 4;
			int hi = (b[8 + j] >> 4) |
			    (int)((qh >> (j + 16)) & 1) << 4;

			sqx += (float)lo * x[j] + (float)hi * x[j + 16];
			sx += x[j] + x[j + 16];
		}
		acc += kernel_half(b) * sqx + kernel_half(b + 2) * sx;
	}
	return (float)acc;
}

/* ---- Q8_0: d @0, i8 qs[32] @2; y = q*d ---- */

KERNEL_CLONES void
kernel_dequant_q8_0(const void *restrict row, float *restrict out, size_t n)
{
	const uint8_t *b = row;
	size_t i;
	int j;

	assert(n % QK == 0);
	for (i = 0; i < n / QK; i++, b += GGML_SIZE_Q8_0, out += QK) {
		float d = kernel_half(b);

		for (j = 0; j < QK; j++)
			out[j] = (float)(int8_t)b[2 + j] * d;
	}
}

float
kernel_dot_q8_0(const void *row, const float *x, size_t n)
{
	const uint8_t *b = row;
	double acc = 0.0;
	size_t i;
	int j;

	assert(n % QK == 0);
	for (i = 0; i < n / QK; i++, b += GGML_SIZE_Q8_0, x += QK) {
		float s = 0.0f;

		for (j = 0; j < QK; j++)
			s += (float)(int8_t)b[2 + j] * x[j];
		acc += kernel_half(b) * s;
	}
	return (float)acc;
}

/*
 * ---- Q1_0: d @0, qs[16] @2, 128 elements; bit j (LSB first) set: +d,
 * clear: -d ----
 */

KERNEL_CLONES void
kernel_dequant_q1_0(const void *restrict row, float *restrict out, size_t n)
{
	const uint8_t *b = row;
	size_t i;
	int j, t;

	assert(n % QK1_0 == 0);
	for (i = 0; i < n / QK1_0; i++, b += GGML_SIZE_Q1_0, out += QK1_0) {
		float d = kernel_half(b);

		/* (+1 or -1) * d is exactly d or -d, and vectorizes */
		for (j = 0; j < QK1_0 / 8; j++)
			for (t = 0; t < 8; t++)
				out[8 * j + t] = (float)((b[2 + j] >> t & 1) *
				    2 - 1) * d;
	}
}

float
kernel_dot_q1_0(const void *row, const float *x, size_t n)
{
	const uint8_t *b = row;
	double acc = 0.0;
	size_t i;
	int j;

	assert(n % QK1_0 == 0);
	for (i = 0; i < n / QK1_0; i++, b += GGML_SIZE_Q1_0, x += QK1_0) {
		float pos = 0.0f, neg = 0.0f;

		for (j = 0; j < QK1_0; j++) {
			if ((b[2 + j / 8] >> (j % 8)) & 1)
				pos += x[j];
			else
				neg += x[j];
		}
		acc += kernel_half(b) * (pos - neg);
	}
	return (float)acc;
}

/*
 * ---- Q2_0: d @0, qs[16] @2, 64 elements; element j is bits 2(j%4).. of
 * byte j/4; y = (q - 1)*d ----
 */

KERNEL_CLONES void
kernel_dequant_q2_0(const void *restrict row, float *restrict out, size_t n)
{
	const uint8_t *b = row;
	size_t i;
	int j;

	assert(n % QK2_0 == 0);
	for (i = 0; i < n / QK2_0; i++, b += GGML_SIZE_Q2_0, out += QK2_0) {
		float d = kernel_half(b);

		for (j = 0; j < QK2_0; j++) {
			int q = (b[2 + j / 4] >> (2 * (j % 4))) & 3;

			out[j] = (float)(q - 1) * d;
		}
	}
}

float
kernel_dot_q2_0(const void *row, const float *x, size_t n)
{
	const uint8_t *b = row;
	double acc = 0.0;
	size_t i;
	int j;

	assert(n % QK2_0 == 0);
	for (i = 0; i < n / QK2_0; i++, b += GGML_SIZE_Q2_0, x += QK2_0) {
		float s = 0.0f;

		for (j = 0; j < QK2_0; j++) {
			int q = (b[2 + j / 4] >> (2 * (j % 4))) & 3;

			s += (float)(q - 1) * x[j];
		}
		acc += kernel_half(b) * s;
	}
	return (float)acc;
}
