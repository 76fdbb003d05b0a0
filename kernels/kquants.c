/*
 * kquants.c - kernels for the k-quants Q2_K, Q3_K, Q4_K, Q5_K and Q6_K:
 * super-blocks of 256 elements with one or two fp16 factors and 6- or 8-bit
 * sub-block scales. Layouts and traversal: gguf-format.md §5.
 *
 * The dequantizers walk a super-block in ggml's order and compute ggml's
 * expressions with its rounding steps: a sub-block factor dl = d*sc (and
 * ml = dmin*m) first, then y = dl*q - ml. The dot products visit each
 * sub-block once: they sum q*x (and x, for the types with a minimum) in
 * float, apply the sub-block's factors, and add the super-blocks up in
 * double.
 */
#include <assert.h>

#include "kernels-impl.h"

#define QK GGML_QK_K

/*
 * The layouts below (in the comments, and the offsets the kernels read)
 * must add up to the table's block sizes: checked at compile time.
 */
_Static_assert(GGML_BLCK_Q2_K == QK && GGML_BLCK_Q3_K == QK &&
    GGML_BLCK_Q4_K == QK && GGML_BLCK_Q5_K == QK && GGML_BLCK_Q6_K == QK,
    "k-quants are super-blocks of 256");
_Static_assert(GGML_SIZE_Q2_K == 16 + QK / 4 + 4, "Q2_K: scales, qs, d, dmin");
_Static_assert(GGML_SIZE_Q3_K == QK / 8 + QK / 4 + 12 + 2,
    "Q3_K: hmask, qs, scales, d");
_Static_assert(GGML_SIZE_Q4_K == 4 + 12 + QK / 2, "Q4_K: d, dmin, scales, qs");
_Static_assert(GGML_SIZE_Q5_K == 4 + 12 + QK / 8 + QK / 2,
    "Q5_K: d, dmin, scales, qh, qs");
_Static_assert(GGML_SIZE_Q6_K == QK / 2 + QK / 4 + QK / 16 + 2,
    "Q6_K: ql, qh, scales, d");

/*
 * kquant_q3_scales: unpack Q3_K's 12 scale bytes into its 16 six-bit
 * scales (not yet offset by 32). Scale i: the low 4 bits are the low nibble
 * of byte i (i < 8) or the high nibble of byte i-8; the high 2 bits are
 * bits 2*(i/4).. of byte 8 + i%4.
 */
static void
kquant_q3_scales(const uint8_t *s, int out[16])
{
	int i;

	for (i = 0; i < 16; i++) {
		int lo = i < 8 ? s[i] & 15 : s[i - 8] >> 4;
		int hi = (s[8 + i % 4] >> (2 * (i / 4))) & 3;

		out[i] = lo | hi << 4;
	}
}

/*
 * kquant_scale_min: the (scale, min) pair of sub-block j (0..7) from the
 * 12 packed bytes s of Q4_K and Q5_K: j < 4 keeps them in the low 6 bits of
 * bytes j and j+4; j >= 4 puts the low 4 bits in the nibbles of byte j+4
 * and the high 2 bits in the top bits of bytes j-4 (scale) and j (min).
 */
static void
kquant_scale_min(int j, const uint8_t *s, int *sc, int *m)
{
	if (j < 4) {
		*sc = s[j] & 63;
		*m = s[j + 4] & 63;
	} else {
		*sc = (s[j + 4] & 15) | (s[j - 4] >> 6) << 4;
		*m = (s[j + 4] >> 4) | (s[j] >> 6) << 4;
	}
}

/*
 * ---- Q2_K (84): scales[16] @0 (low nibble scale, high nibble min),
 * qs[64] @16, d @80, dmin @82. Element e: sub-block e/16; within its
 * 128-element half h, column j = (e%128)/32 is the 2-bit field at shift 2j
 * of byte qs[32h + e%32]. y = d*sc*q - dmin*m. ----
 */

KERNEL_CLONES void
kernel_dequant_q2_K(const void *restrict row, float *restrict out, size_t n)
{
	const uint8_t *b = row;
	size_t i;
	int h, j, g, l;

	assert(n % QK == 0);
	for (i = 0; i < n / QK; i++, b += GGML_SIZE_Q2_K) {
		float d = kernel_half(b + 80), dmin = kernel_half(b + 82);
		int is = 0;

		for (h = 0; h < 2; h++) {
			const uint8_t *q = b + 16 + 32 * h;

			for (j = 0; j < 4; j++) {
				for (g = 0; g < 2; g++) {
					const uint8_t *qg = q + 16 * g;
					uint8_t sc = b[is++];
					float dl = d * (float)(sc & 15);
					float ml = dmin * (float)(sc >> 4);

					for (l = 0; l < 16; l++)
						*out++ = dl * (float)((qg[l] >>
						    (2 * j)) & 3) - ml;
				}
			}
		}
	}
}

float
kernel_dot_q2_K(const void *row, const float *x, size_t n)
{
	const uint8_t *b = row;
	double acc = 0.0;
	size_t i;
	int sub, l;

	assert(n % QK == 0);
	for (i = 0; i < n / QK; i++, b += GGML_SIZE_Q2_K, x += QK) {
		float d = kernel_half(b + 80), dmin = kernel_half(b + 82);
		float blk = 0.0f;

		for (sub = 0; sub < 16; sub++) {
			int h = sub / 8, shift = 2 * ((sub % 8) / 2);
			const uint8_t *q = b + 16 + 32 * h + 16 * (sub % 2);
			const float *xs = x + 16 * sub;
			float sqx = 0.0f, sx = 0.0f;

			for (l = 0; l < 16; l++) {
				sqx += (float)((q[l] >> shift) & 3) * xs[l];
				sx += xs[l];
			}
			blk += d * (float)(b[sub] & 15) * sqx -
			    dmin * (float)(b[sub] >> 4) * sx;
		}
		acc += blk;
	}
	return (float)acc;
}

/*
 * ---- Q3_K (110): hmask[32] @0, qs[64] @32, scales[12] @96, d @108. The
 * low 2 bits as in Q2_K; the high bit of element e is bit (e/32) of
 * hmask[e%32], and a clear bit subtracts 4. y = d*(scale - 32)*q. ----
 */

KERNEL_CLONES void
kernel_dequant_q3_K(const void *restrict row, float *restrict out, size_t n)
{
	const uint8_t *b = row;
	size_t i;
	int h, j, g, l, sc[16];

	assert(n % QK == 0);
	for (i = 0; i < n / QK; i++, b += GGML_SIZE_Q3_K) {
		const uint8_t *hm = b;
		float d = kernel_half(b + 108);
		int is = 0;

		kquant_q3_scales(b + 96, sc);
		for (h = 0; h < 2; h++) {
			const uint8_t *q = b + 32 + 32 * h;

			for (j = 0; j < 4; j++) {
				uint8_t m = (uint8_t)(1u << (4 * h + j));

				for (g = 0; g < 2; g++) {
					float dl = d * (float)(sc[is++] - 32);

					for (l = 16 * g; l < 16 * g + 16; l++) {
						int v = (q[l] >> (2 * j)) & 3;

						if (!(hm[l] & m))
							v -= 4;
						*out++ = dl * (float)v;
					}
				}
			}
		}
	}
}

float
kernel_dot_q3_K(const void *row, const float *x, size_t n)
{
	const uint8_t *b = row;
	double acc = 0.0;
	size_t i;
	int sub, l, sc[16];

	assert(n % QK == 0);
	for (i = 0; i < n / QK; i++, b += GGML_SIZE_Q3_K, x += QK) {
		float d = kernel_half(b + 108);
		float blk = 0.0f;

		kquant_q3_scales(b + 96, sc);
		for (sub = 0; sub < 16; sub++) {
			int col = (sub % 8) / 2, off = 16 * (sub % 2);
			const uint8_t *q = b + 32 + 32 * (sub / 8) + off;
			const uint8_t *hm = b + off;
			unsigned bit = (unsigned)(sub / 2);	/* = e/32 */
			const float *xs = x + 16 * sub;
			float s = 0.0f;

			for (l = 0; l < 16; l++) {
				int v = ((q[l] >> (2 * col)) & 3) -
				    ((hm[l] >> bit) & 1 ? 0 : 4);

				s += (float)v * xs[l];
			}
			blk += d * (float)(sc[sub] - 32) * s;
		}
		acc += blk;
	}
	return (float)acc;
}

/*
 * ---- Q4_K (144): d @0, dmin @2, scales[12] @4, qs[128] @16. Chunk c of 64
 * elements uses bytes qs[32c..32c+31]: low nibbles are sub-block 2c, high
 * nibbles sub-block 2c+1. y = d*sc*q - dmin*m. ----
 */

KERNEL_CLONES void
kernel_dequant_q4_K(const void *restrict row, float *restrict out, size_t n)
{
	const uint8_t *b = row;
	size_t i;
	int c, l, sc, m;

	assert(n % QK == 0);
	for (i = 0; i < n / QK; i++, b += GGML_SIZE_Q4_K) {
		float d = kernel_half(b), dmin = kernel_half(b + 2);

		for (c = 0; c < 4; c++) {
			const uint8_t *q = b + 16 + 32 * c;
			float d1, m1, d2, m2;

			kquant_scale_min(2 * c, b + 4, &sc, &m);
			d1 = d * (float)sc;
			m1 = dmin * (float)m;
			kquant_scale_min(2 * c + 1, b + 4, &sc, &m);
			d2 = d * (float)sc;
			m2 = dmin * (float)m;
			for (l = 0; l < 32; l++)
				*out++ = d1 * (float)(q[l] & 15) - m1;
			for (l = 0; l < 32; l++)
				*out++ = d2 * (float)(q[l] >> 4) - m2;
		}
	}
}

float
kernel_dot_q4_K(const void *row, const float *x, size_t n)
{
	const uint8_t *b = row;
	double acc = 0.0;
	size_t i;
	int sub, l, sc, m;

	assert(n % QK == 0);
	for (i = 0; i < n / QK; i++, b += GGML_SIZE_Q4_K, x += QK) {
		float d = kernel_half(b), dmin = kernel_half(b + 2);
		float blk = 0.0f;

		for (sub = 0; sub < 8; sub++) {
			const uint8_t *q = b + 16 + 32 * (sub / 2);
			int shift = 4 * (sub % 2);
			const float *xs = x + 32 * sub;
			float sqx = 0.0f, sx = 0.0f;

			for (l = 0; l < 32; l++) {
				sqx += (float)((q[l] >> shift) & 15) * xs[l];
				sx += xs[l];
			}
			kquant_scale_min(sub, b + 4, &sc, &m);
			blk += d * (float)sc * sqx - dmin * (float)m * sx;
		}
		acc += blk;
	}
	return (float)acc;
}

/*
 * ---- Q5_K (176): d @0, dmin @2, scales[12] @4, qh[32] @16, qs[128] @48.
 * As Q4_K, plus 16 when bit (sub-block index) of qh[e%32] is set. ----
 */

KERNEL_CLONES void
kernel_dequant_q5_K(const void *restrict row, float *restrict out, size_t n)
{
	const uint8_t *b = row;
	size_t i;
	int c, l, sc, m;

	assert(n % QK == 0);
	for (i = 0; i < n / QK; i++, b += GGML_SIZE_Q5_K) {
		float d = kernel_half(b), dmin = kernel_half(b + 2);
		const uint8_t *qh = b + 16;

		for (c = 0; c < 4; c++) {
			const uint8_t *q = b + 48 + 32 * c;
			uint8_t u1 = (uint8_t)(1u << (2 * c));
			uint8_t u2 = (uint8_t)(2u << (2 * c));
			float d1, m1, d2, m2;

			kquant_scale_min(2 * c, b + 4, &sc, &m);
			d1 = d * (float)sc;
			m1 = dmin * (float)m;
			kquant_scale_min(2 * c + 1, b + 4, &sc, &m);
			d2 = d * (float)sc;
			m2 = dmin * (float)m;
			for (l = 0; l < 32; l++)
				*out++ = d1 * (float)((q[l] & 15) +
				    (qh[l] & u1 ? 16 : 0)) - m1;
			for (l = 0; l < 32; l++)
				*out++ = d2 * (float)((q[l] >> 4) +
				    (qh[l] & u2 ? 16 : 0)) - m2;
		}
	}
}

float
kernel_dot_q5_K(const void *row, const float *x, size_t n)
{
	const uint8_t *b = row;
	double acc = 0.0;
	size_t i;
	int sub, l, sc, m;

	assert(n % QK == 0);
	for (i = 0; i < n / QK; i++, b += GGML_SIZE_Q5_K, x += QK) {
		float d = kernel_half(b), dmin = kernel_half(b + 2);
		float blk = 0.0f;

		for (sub = 0; sub < 8; sub++) {
			const uint8_t *q = b + 48 + 32 * (sub / 2);
			const uint8_t *qh = b + 16;
			int shift = 4 * (sub % 2);
			const float *xs = x + 32 * sub;
			float sqx = 0.0f, sx = 0.0f;

			for (l = 0; l < 32; l++) {
				int v = ((q[l] >> shift) & 15) |
				    ((qh[l] >> sub) & 1) << 4;

				sqx += (float)v * xs[l];
				sx += xs[l];
			}
			kquant_scale_min(sub, b + 4, &sc, &m);
			blk += d * (float)sc * sqx - dmin * (float)m * sx;
		}
		acc += blk;
	}
	return (float)acc;
}

/*
 * ---- Q6_K (210): ql[128] @0, qh[64] @128, i8 scales[16] @192, d @208.
 * In half h, quarter k (32 elements) of the half, column l: the low 4 bits
 * are the low (k < 2) or high nibble of ql[64h + 32(k%2) + l], the high 2
 * bits are bits 2k.. of qh[32h + l]; q - 32, times d*scales[e/16]. ----
 */

KERNEL_CLONES void
kernel_dequant_q6_K(const void *restrict row, float *restrict out, size_t n)
{
	const uint8_t *b = row;
	size_t i;
	int h, l, g;

	assert(n % QK == 0);
	for (i = 0; i < n / QK; i++, b += GGML_SIZE_Q6_K) {
		float d = kernel_half(b + 208);

		for (h = 0; h < 2; h++, out += 128) {
			const uint8_t *ql = b + 64 * h;
			const uint8_t *qh = b + 128 + 32 * h;
			const int8_t sc[8] = {
				(int8_t)b[192 + 8 * h], (int8_t)b[193 + 8 * h],
				(int8_t)b[194 + 8 * h], (int8_t)b[195 + 8 * h],
				(int8_t)b[196 + 8 * h], (int8_t)b[197 + 8 * h],
				(int8_t)b[198 + 8 * h], (int8_t)b[199 + 8 * h],
			};

			/* two runs of 16 with fixed scales, so the loop
			 * vectorizes; (d * sc) * q as ggml rounds it */
			for (g = 0; g < 2; g++) {
				float s1 = d * (float)sc[g];
				float s2 = d * (float)sc[g + 2];
				float s3 = d * (float)sc[g + 4];
				float s4 = d * (float)sc[g + 6];

				for (l = 16 * g; l < 16 * g + 16; l++) {
					int q1 = ((ql[l] & 15) |
					    (qh[l] & 3) << 4) - 32;
					int q2 = ((ql[l + 32] & 15) |
					    ((qh[l] >> 2) & 3) << 4) - 32;
					int q3 = ((ql[l] >> 4) |
					    ((qh[l] >> 4) & 3) << 4) - 32;
					int q4 = ((ql[l + 32] >> 4) |
					    ((qh[l] >> 6) & 3) << 4) - 32;

					out[l] = s1 * (float)q1;
					out[l + 32] = s2 * (float)q2;
					out[l + 64] = s3 * (float)q3;
					out[l + 96] = s4 * (float)q4;
				}
			}
		}
	}
}

float
kernel_dot_q6_K(const void *row, const float *x, size_t n)
{
	const uint8_t *b = row;
	double acc = 0.0;
	size_t i;
	int sub, l;

	assert(n % QK == 0);
	for (i = 0; i < n / QK; i++, b += GGML_SIZE_Q6_K, x += QK) {
		float d = kernel_half(b + 208);
		float blk = 0.0f;

		for (sub = 0; sub < 16; sub++) {
			int h = sub / 8, k = (sub % 8) / 2, l0 = 16 * (sub % 2);
			const uint8_t *ql = b + 64 * h + 32 * (k % 2) + l0;
			const uint8_t *qh = b + 128 + 32 * h + l0;
			int nshift = k < 2 ? 0 : 4;
			const float *xs = x + 16 * sub;
			float s = 0.0f;

			for (l = 0; l < 16; l++) {
				int v = ((ql[l] >> nshift) & 15) |
				    ((qh[l] >> (2 * k)) & 3) << 4;

				s += (float)(v - 32) * xs[l];
			}
			blk += d * (float)(int8_t)b[192 + sub] * s;
		}
		acc += blk;
	}
	return (float)acc;
}
