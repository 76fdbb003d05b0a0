/*
 * ternary.c - kernels for the ternary encodings TQ1_0 and TQ2_0 (BitNet
 * b1.58 and TriLM weights): super-blocks of 256 values in {-1, 0, +1}
 * times one fp16 scale.
 *
 * TQ1_0 (54 bytes): qs[48] @0 holds 5 trits a byte, qh[4] @48 holds 4 trits
 * a byte, d @52. A byte stores its trits t0..t4 (t0 most significant) as
 * the fraction ceil(256 * (t0 t1 t2 t3 t4)_3 / 243); trit k is read back as
 * the integer part of 3 * frac(byte * 3^k / 256), i.e. ((uint8_t)(byte *
 * 3^k) * 3) >> 8. Element order in a super-block:
 *  - elements 0..159: qs[0..31], element 32k + m is trit k of qs[m];
 *  - elements 160..239: qs[32..47], element 160 + 16k + m is trit k of
 *    qs[32 + m];
 *  - elements 240..255: qh[0..3], element 240 + 4k + m is trit k of qh[m]
 *    (k < 4).
 * y = (t - 1)*d.
 *
 * TQ2_0 (66 bytes): qs[64] @0 holds 2 bits an element, d @64. Element
 * 128g + 32l + m is bits 2l..2l+1 of qs[32g + m]; y = (q - 1)*d (the value
 * 3 gives +2).
 */
#include <assert.h>

#include "kernels-impl.h"

#define QK GGML_QK_K

/* The layouts above must add up to the table's block sizes. */
_Static_assert(GGML_BLCK_TQ1_0 == QK && GGML_BLCK_TQ2_0 == QK,
    "ternary types are super-blocks of 256");
_Static_assert(5 * 32 + 5 * 16 + 4 * 4 == QK && GGML_SIZE_TQ1_0 == 48 + 4 + 2,
    "TQ1_0: qs[48] of 5 trits, qh[4] of 4, d");
_Static_assert(GGML_SIZE_TQ2_0 == QK / 4 + 2, "TQ2_0: qs, d");

static const uint8_t ternary_pow3[5] = { 1, 3, 9, 27, 81 };

/* ternary_trit: trit k (0 = most significant) of a TQ1_0 byte, 0..2. */
static int
ternary_trit(uint8_t byte, int k)
{
	uint8_t q = (uint8_t)(byte * ternary_pow3[k]);

	return (q * 3) >> 8;
}

KERNEL_CLONES void
kernel_dequant_tq1_0(const void *restrict row, float *restrict out, size_t n)
{
	const uint8_t *b = row;
	size_t i;
	int k, m;

	assert(n % QK == 0);
	for (i = 0; i < n / QK; i++, b += GGML_SIZE_TQ1_0) {
		float d = kernel_half(b + 52);

		for (k = 0; k < 5; k++)
			for (m = 0; m < 32; m++)
				*out++ = (float)(ternary_trit(b[m], k) - 1) * d;
		for (k = 0; k < 5; k++)
			for (m = 0; m < 16; m++)
				*out++ = (float)(ternary_trit(b[32 + m], k) -
				    1) * d;
		for (k = 0; k < 4; k++)
			for (m = 0; m < 4; m++)
				*out++ = (float)(ternary_trit(b[48 + m], k) -
				    1) * d;
	}
}

/*
 * ternary_acc: add x[k*stride] to *pos or *neg for the trits k < ntrits of
 * byte (a trit of 2 is +1, of 0 is -1).
 */
static void
ternary_acc(uint8_t byte, int ntrits, const float *x, int stride, float *pos,
    float *neg)
{
	int k;

	for (k = 0; k < ntrits; k++) {
		int t = ternary_trit(byte, k);

		if (t == 2)
			*pos += x[k * stride];
		else if (t == 0)
			*neg += x[k * stride];
	}
}

float
kernel_dot_tq1_0(const void *row, const float *x, size_t n)
{
	const uint8_t *b = row;
	double acc = 0.0;
	size_t i;
	int m;

	assert(n % QK == 0);
	for (i = 0; i < n / QK; i++, b += GGML_SIZE_TQ1_0, x += QK) {
		float pos = 0.0f, neg = 0.0f;

		for (m = 0; m < 32; m++)
			ternary_acc(b[m], 5, x + m, 32, &pos, &neg);
		for (m = 0; m < 16; m++)
			ternary_acc(b[32 + m], 5, x + 160 + m, 16, &pos, &neg);
		for (m = 0; m < 4; m++)
			ternary_acc(b[48 + m], 4, x + 240 + m, 4, &pos, &neg);
		acc += kernel_half(b + 52) * (pos - neg);
	}
	return (float)acc;
}

KERNEL_CLONES void
kernel_dequant_tq2_0(const void *restrict row, float *restrict out, size_t n)
{
	const uint8_t *b = row;
	size_t i;
	int g, l, m;

	assert(n % QK == 0);
	for (i = 0; i < n / QK; i++, b += GGML_SIZE_TQ2_0) {
		float d = kernel_half(b + 64);

		for (g = 0; g < 2; g++)
			for (l = 0; l < 4; l++)
				for (m = 0; m < 32; m++)
					*out++ = (float)(((b[32 * g + m] >>
					    (2 * l)) & 3) - 1) * d;
	}
}

float
kernel_dot_tq2_0(const void *row, const float *x, size_t n)
{
	const uint8_t *b = row;
	double acc = 0.0;
	size_t i;
	int j, l;

	assert(n % QK == 0);
	for (i = 0; i < n / QK; i++, b += GGML_SIZE_TQ2_0, x += QK) {
		float s = 0.0f;

		for (j = 0; j < 64; j++) {
			const float *xs = x + 128 * (j / 32) + j % 32;

			for (l = 0; l < 4; l++)
				s += (float)(((b[j] >> (2 * l)) & 3) - 1) *
				    xs[32 * l];
		}
		acc += kernel_half(b + 64) * s;
	}
	return (float)acc;
}
