/*
 * iquants.c - kernels for the non-linear 4-bit encodings IQ4_NL (blocks of
 * 32) and IQ4_XS (super-blocks of 256 with 6-bit sub-block scales), whose
 * nibbles index a fixed table of 16 levels. Layouts: gguf-format.md §5.
 *
 * The grid-based IQ1/IQ2/IQ3 types are not here: they dequantize through
 * codebooks of hundreds to thousands of entries.
 */
#include <assert.h>

#include "kernels-impl.h"

#define QK_NL GGML_BLCK_IQ4_NL
#define QK_XS GGML_BLCK_IQ4_XS

/* The layouts below must add up to the table's block sizes. */
_Static_assert(QK_NL == 32, "the IQ4_NL loops are written for blocks of 32");
_Static_assert(GGML_SIZE_IQ4_NL == 2 + QK_NL / 2, "IQ4_NL: d, qs");
_Static_assert(QK_XS == 8 * 32 && GGML_SIZE_IQ4_XS == 2 + 2 + 4 + QK_XS / 2,
    "IQ4_XS: d, scales_h, scales_l, qs; 8 sub-blocks of 32");

/* The 16 levels of IQ4_NL and IQ4_XS (ggml's kvalues_iq4nl). */
static const int8_t iquant_levels[16] = {
	-127, -104, -83, -65, -49, -35, -22, -10,
	1, 13, 25, 38, 53, 69, 89, 113,
};

/*
 * ---- IQ4_NL (18): d @0, qs[16] @2; byte j's low nibble is element j,
 * its high nibble element j+16; y = d*level ----
 */

KERNEL_CLONES void
kernel_dequant_iq4_nl(const void *restrict row, float *restrict out, size_t n)
{
	const uint8_t *b = row;
	size_t i;
	int j;

	assert(n % QK_NL == 0);
	for (i = 0; i < n / QK_NL; i++, b += GGML_SIZE_IQ4_NL, out += QK_NL) {
		float d = kernel_half(b);

		for (j = 0; j < 16; j++) {
			out[j] = d * (float)iquant_levels[b[2 + j] & 15];
			out[j + 16] = d * (float)iquant_levels[b[2 + j] >> 4];
		}
	}
}

float
kernel_dot_iq4_nl(const void *row, const float *x, size_t n)
{
	const uint8_t *b = row;
	double acc = 0.0;
	size_t i;
	int j;

	assert(n % QK_NL == 0);
	for (i = 0; i < n / QK_NL; i++, b += GGML_SIZE_IQ4_NL, x += QK_NL) {
		float s = 0.0f;

		for (j = 0; j < 16; j++) {
			s += (float)iquant_levels[b[2 + j] & 15] * x[j];
			s += (float)iquant_levels[b[2 + j] >> 4] * x[j + 16];
		}
		acc += kernel_half(b) * s;
	}
	return (float)acc;
}

/*
 * ---- IQ4_XS (136): d @0, u16 scales_h @2, scales_l[4] @4, qs[128] @8.
 * Sub-block ib (32 elements, bytes qs[16ib..16ib+15] split as in IQ4_NL)
 * has the 6-bit scale ls = nibble ib%2 of scales_l[ib/2] | bits 2ib.. of
 * scales_h << 4; y = d*(ls - 32)*level. ----
 */

/* iquant_xs_scale: the 6-bit scale of sub-block ib of the block at b. */
static int
iquant_xs_scale(const uint8_t *b, int ib)
{
	unsigned sh = kernel_le16(b + 2);

	return ((b[4 + ib / 2] >> (4 * (ib % 2))) & 15) |
	    (int)((sh >> (2 * ib)) & 3) << 4;
}

KERNEL_CLONES void
kernel_dequant_iq4_xs(const void *restrict row, float *restrict out, size_t n)
{
	const uint8_t *b = row;
	size_t i;
	int ib, j;

	assert(n % QK_XS == 0);
	for (i = 0; i < n / QK_XS; i++, b += GGML_SIZE_IQ4_XS) {
		float d = kernel_half(b);

		for (ib = 0; ib < 8; ib++, out += 32) {
			const uint8_t *q = b + 8 + 16 * ib;
			float dl = d * (float)(iquant_xs_scale(b, ib) - 32);

			for (j = 0; j < 16; j++) {
				out[j] = dl * (float)iquant_levels[q[j] & 15];
				out[j + 16] = dl *
				    (float)iquant_levels[q[j] >> 4];
			}
		}
	}
}

float
kernel_dot_iq4_xs(const void *row, const float *x, size_t n)
{
	const uint8_t *b = row;
	double acc = 0.0;
	size_t i;
	int ib, j;

	assert(n % QK_XS == 0);
	for (i = 0; i < n / QK_XS; i++, b += GGML_SIZE_IQ4_XS) {
		float d = kernel_half(b), blk = 0.0f;

		for (ib = 0; ib < 8; ib++, x += 32) {
			const uint8_t *q = b + 8 + 16 * ib;
			float s = 0.0f;

			for (j = 0; j < 16; j++) {
				s += (float)iquant_levels[q[j] & 15] * x[j];
				s += (float)iquant_levels[q[j] >> 4] *
				    x[j + 16];
			}
			blk += d * (float)(iquant_xs_scale(b, ib) - 32) * s;
		}
		acc += blk;
	}
	return (float)acc;
}
