/*
 * fp4.c - kernels for the 4-bit float encodings MXFP4 (OCP microscaling:
 * E2M1 values, one E8M0 scale per 32) and NVFP4 (E2M1 values, one UE4M3
 * scale per 16, four per 64-element block). Layouts: gguf-format.md §5.
 *
 * Both use ggml's doubled E2M1 table, so each scale is decoded at half its
 * value: 2^(e-128) for E8M0, ue4m3/2 for UE4M3. Every scale and product is
 * exact in f32, so the dequantized values do not depend on rounding.
 */
#include <assert.h>
#include <math.h>

#include "kernels-impl.h"

#define QK_MX GGML_BLCK_MXFP4
#define QK_NV GGML_BLCK_NVFP4
#define SZ_MX GGML_SIZE_MXFP4
#define SZ_NV GGML_SIZE_NVFP4

/* The layouts below must add up to the table's block sizes. */
_Static_assert(QK_MX == 32 && SZ_MX == 1 + QK_MX / 2, "MXFP4: e, qs[16]");
_Static_assert(QK_NV == 4 * 16 && SZ_NV == 4 + QK_NV / 2,
    "NVFP4: d[4], qs[32]; 4 sub-blocks of 16");

/* E2M1 values doubled (ggml's kvalues_mxfp4), indexed by the nibble. */
static const int8_t fp4_levels[16] = {
	0, 1, 2, 3, 4, 6, 8, 12, 0, -1, -2, -3, -4, -6, -8, -12,
};

/*
 * fp4_e8m0_half: E8M0 byte e as 2^(e - 128): the f32 bits are 0x00200000 <<
 * e for the two subnormal cases e < 2, else (e - 1) << 23. 0xFF (E8M0's NaN)
 * is not special-cased, as in ggml.
 */
static float
fp4_e8m0_half(uint8_t e)
{
	return kernel_f32_bits(e < 2 ? 0x00200000u << e :
	    (uint32_t)(e - 1) << 23);
}

/*
 * fp4_ue4m3_half: half the value of UE4M3 byte u (bit 7 ignored, exponent
 * bias 7, 3 mantissa bits). Exponent 0 is subnormal: man * 2^-9; the bytes
 * 0x00 and 0x7F decode to 0. So: man * 2^-10, or (8 + man) * 2^(exp - 11).
 */
static float
fp4_ue4m3_half(uint8_t u)
{
	int exp = (u >> 3) & 15, man = u & 7;

	if (u == 0 || u == 0x7f)
		return 0.0f;
	if (exp == 0)	/* 2^-10 */
		return (float)man * kernel_f32_bits((uint32_t)(127 - 10) << 23);
	return (float)(8 + man) *
	    kernel_f32_bits((uint32_t)(127 + exp - 11) << 23);
}

/*
 * ---- MXFP4 (17): e @0, qs[16] @1, 32 elements; byte j's low nibble is
 * element j, its high nibble element j+16; y = level*d ----
 */

KERNEL_CLONES void
kernel_dequant_mxfp4(const void *restrict row, float *restrict out, size_t n)
{
	const uint8_t *b = row;
	size_t i;
	int j;

	assert(n % QK_MX == 0);
	for (i = 0; i < n / QK_MX; i++, b += SZ_MX, out += QK_MX) {
		float d = fp4_e8m0_half(b[0]);

		for (j = 0; j < 16; j++) {
			out[j] = (float)fp4_levels[b[1 + j] & 15] * d;
			out[j + 16] = (float)fp4_levels[b[1 + j] >> 4] * d;
		}
	}
}

float
kernel_dot_mxfp4(const void *row, const float *x, size_t n)
{
	const uint8_t *b = row;
	double acc = 0.0;
	size_t i;
	int j;

	assert(n % QK_MX == 0);
	for (i = 0; i < n / QK_MX; i++, b += SZ_MX, x += QK_MX) {
		float s = 0.0f;

		for (j = 0; j < 16; j++) {
			s += (float)fp4_levels[b[1 + j] & 15] * x[j];
			s += (float)fp4_levels[b[1 + j] >> 4] * x[j + 16];
		}
		acc += fp4_e8m0_half(b[0]) * s;
	}
	return (float)acc;
}

/*
 * ---- NVFP4 (36): d[4] @0 (UE4M3), qs[32] @4, 64 elements. Sub-block s
 * (16 elements) uses bytes qs[8s..8s+7]: low nibbles are its elements 0..7,
 * high nibbles 8..15; y = level*d[s] ----
 */

KERNEL_CLONES void
kernel_dequant_nvfp4(const void *restrict row, float *restrict out, size_t n)
{
	const uint8_t *b = row;
	size_t i;
	int s, j;

	assert(n % QK_NV == 0);
	for (i = 0; i < n / QK_NV; i++, b += SZ_NV) {
		for (s = 0; s < 4; s++, out += 16) {
			const uint8_t *q = b + 4 + 8 * s;
			float d = fp4_ue4m3_half(b[s]);

			for (j = 0; j < 8; j++) {
				out[j] = (float)fp4_levels[q[j] & 15] * d;
				out[j + 8] = (float)fp4_levels[q[j] >> 4] * d;
			}
		}
	}
}

float
kernel_dot_nvfp4(const void *row, const float *x, size_t n)
{
	const uint8_t *b = row;
	double acc = 0.0;
	size_t i;
	int s, j;

	assert(n % QK_NV == 0);
	for (i = 0; i < n / QK_NV; i++, b += SZ_NV) {
		float blk = 0.0f;

		for (s = 0; s < 4; s++, x += 16) {
			const uint8_t *q = b + 4 + 8 * s;
			float sum = 0.0f;

			for (j = 0; j < 8; j++) {
				sum += (float)fp4_levels[q[j] & 15] * x[j];
				sum += (float)fp4_levels[q[j] >> 4] * x[j + 8];
			}
			blk += fp4_ue4m3_half(b[s]) * sum;
		}
		acc += blk;
	}
	return (float)acc;
}

void
kernel_mark_invalid(uint32_t type, const void *row, float *out, size_t n)
{
	const uint8_t *b = row;
	size_t i;
	int j;

	if (type != GGML_TYPE_MXFP4)
		return;
	for (i = 0; i < n / QK_MX; i++, b += SZ_MX, out += QK_MX)
		if (b[0] == 0xff)
			for (j = 0; j < QK_MX; j++)
				out[j] = NAN;
}

/*
 * The MXFP4 screen (kernels.h). A block's values are level * 2^(e - 128),
 * products without rounding: a value is infinite only when it reaches
 * 2^128, when |level| >= 2^(256 - e), so only in blocks with e of 253 or
 * 254; and e = 0xFF is invalid, all NaN (kernel_mark_invalid). One pass
 * takes the greatest e, four blocks a step; the rare block above 252 is
 * counted value by value.
 */
static unsigned
mxfp4_max_e(const uint8_t *b, size_t blocks)
{
	unsigned e0 = 0, e1 = 0, e2 = 0, e3 = 0;
	size_t i;

	for (i = 0; i + 4 <= blocks; i += 4, b += 4 * SZ_MX) {
		e0 = b[0] > e0 ? b[0] : e0;
		e1 = b[SZ_MX] > e1 ? b[SZ_MX] : e1;
		e2 = b[2 * SZ_MX] > e2 ? b[2 * SZ_MX] : e2;
		e3 = b[3 * SZ_MX] > e3 ? b[3 * SZ_MX] : e3;
	}
	for (; i < blocks; i++, b += SZ_MX)
		e0 = b[0] > e0 ? b[0] : e0;
	e0 = e0 > e1 ? e0 : e1;
	e2 = e2 > e3 ? e2 : e3;
	return e0 > e2 ? e0 : e2;
}

/* The non-finite values of one block with e > 252. */
static unsigned
mxfp4_block_nonfinite(const uint8_t *b)
{
	unsigned n = 0, j;

	if (b[0] == 0xff)
		return QK_MX;
	for (j = 0; j < 16; j++) {
		int lo = fp4_levels[b[1 + j] & 15];
		int hi = fp4_levels[b[1 + j] >> 4];

		n += (unsigned)((lo < 0 ? -lo : lo) >= 1 << (256 - b[0]));
		n += (unsigned)((hi < 0 ? -hi : hi) >= 1 << (256 - b[0]));
	}
	return n;
}

void
kernel_screen_mxfp4(const uint8_t *b, size_t blocks, struct kernel_screen *s)
{
	unsigned e = mxfp4_max_e(b, blocks);
	size_t i;

	if (e > 252) {
		for (e = 0, i = 0; i < blocks; i++) {
			const uint8_t *blk = b + SZ_MX * i;

			if (blk[0] > 252)
				s->nonfinite += mxfp4_block_nonfinite(blk);
			if (blk[0] != 0xff) {
				e = blk[0] > e ? blk[0] : e;
				s->maybe_nonzero = true;
			}
		}
	} else
		s->maybe_nonzero |= blocks > 0;
	/* the largest level, 12, at the largest valid scale */
	if (s->maybe_nonzero)
		s->bound = fmax(s->bound, ldexp(12.0, (int)e - 128));
}

/*
 * The NVFP4 screen: a value is level * d[s], exact (d has 4 significant
 * bits, a level 3), at most 12 * 240 in magnitude: never infinite, and
 * every scale byte is valid. The bound is 12 times the largest scale.
 * fp4_ue4m3_half grows with u & 0x7f, but for 0x7f itself (zero; 0xff is
 * not), so the largest scale is found on that key, in integers.
 */
void
kernel_screen_nvfp4(const uint8_t *b, size_t blocks, struct kernel_screen *s)
{
	unsigned top = 0, key;
	size_t i;
	int k;
	float d;

	for (i = 0; i < blocks; i++, b += SZ_NV)
		for (k = 0; k < 4; k++) {
			key = b[k] == 0x7f ? 0 : b[k] & 0x7fu;
			top = key > top ? key : top;
		}
	d = fp4_ue4m3_half(top == 0x7f ? 0xff : (uint8_t)top);
	s->bound = fmax(s->bound, 12.0 * d);
	s->maybe_nonzero |= d != 0.0f;
}
