/*
 * iquants.c - kernels for the i-quants. The non-linear 4-bit encodings
 * IQ4_NL (blocks of 32) and IQ4_XS (super-blocks of 256 with 6-bit
 * sub-block scales), whose nibbles index a fixed table of 16 levels; and
 * the grid i-quants IQ2_XXS, IQ2_XS, IQ2_S, IQ3_XXS, IQ3_S, IQ1_S and
 * IQ1_M, super-blocks of 256 whose groups of 8 (IQ3: of 4) values are the
 * points of fixed grids (iq-grids.c), with signs and sub-block scales
 * beside. Layouts: gguf-format.md §5, and each type's comment below.
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

/*
 * ---- The grid i-quants. A super-block of 256 is 8 sub-blocks of 32, and
 * a sub-block 4 groups of 8 values: a group's magnitudes are one point of
 * its type's grid (iq-grids.c; IQ3: two points of 4), its signs 8 bits
 * (bit j negates element j), its scale dl = d times a small sub-block
 * factor. y = dl*level, negated by its sign; IQ1: y = dl*(level + delta),
 * levels -1, 0, 1, delta +-1/8 per group, no signs. Each type has a
 * function that decodes one sub-block into its 32 signed levels q and the
 * 4 group scales dl, and one driver does the rest, so that the
 * dequantizer (y = dl*q) and the dot (sum of dl*(q . x) over the groups)
 * read the layouts in one place. ggml rounds dl times the level and then
 * applies the sign; q is the level with its sign already (negation is
 * exact), and rounding is symmetric, so dl*q has the same bits. ----
 */

#define QK_GRID GGML_QK_K
#define IQ1_DELTA 0.125f	/* IQ1S_DELTA and IQ1M_DELTA */

_Static_assert(QK_GRID == 8 * 32, "8 sub-blocks of 32 a super-block");
_Static_assert(GGML_BLCK_IQ2_XXS == QK_GRID && GGML_BLCK_IQ2_XS == QK_GRID &&
    GGML_BLCK_IQ2_S == QK_GRID && GGML_BLCK_IQ3_XXS == QK_GRID &&
    GGML_BLCK_IQ3_S == QK_GRID && GGML_BLCK_IQ1_S == QK_GRID &&
    GGML_BLCK_IQ1_M == QK_GRID, "the grid i-quants are super-blocks");
_Static_assert(GGML_SIZE_IQ2_XXS == 2 + 64, "IQ2_XXS: d, qs");
_Static_assert(GGML_SIZE_IQ2_XS == 2 + 64 + 8, "IQ2_XS: d, qs, scales");
_Static_assert(GGML_SIZE_IQ2_S == 2 + 32 + 32 + 8 + 8,
    "IQ2_S: d, qs, signs, qh, scales");
_Static_assert(GGML_SIZE_IQ3_XXS == 2 + 64 + 32, "IQ3_XXS: d, qs, aux");
_Static_assert(GGML_SIZE_IQ3_S == 2 + 64 + 8 + 32 + 4,
    "IQ3_S: d, qs, qh, signs, scales");
_Static_assert(GGML_SIZE_IQ1_S == 2 + 32 + 16, "IQ1_S: d, qs, qh");
_Static_assert(GGML_SIZE_IQ1_M == 32 + 16 + 8, "IQ1_M: qs, qh, scales");

/*
 * The levels the grids' codes index (iq-grids.c), as floats, and for the
 * signed grids with the sign bit above the code: entry c | s << w is level
 * c negated when s is set (a load, not a branch on random sign bits).
 * Code 3 of the 2-bit grids is unused.
 */
static const float iq2_levels[8] = { 8, 25, 43, 0, -8, -25, -43, -0.0f };
static const float iq3xxs_levels[16] = {
	4, 12, 20, 28, 36, 44, 52, 62,
	-4, -12, -20, -28, -36, -44, -52, -62,
};
static const float iq3s_levels[16] = {
	1, 3, 5, 7, 9, 11, 13, 15,
	-1, -3, -5, -7, -9, -11, -13, -15,
};
static const float iq1_levels[4] = { -1, 0, 1, 0 };
static const float iq1_deltas[2] = { IQ1_DELTA, -IQ1_DELTA };	/* by sign */

/*
 * iq_signs: the 8 sign bits a 7-bit sign index stands for (IQ2_XXS,
 * IQ2_XS, IQ3_XXS): the index is the first 7, the eighth makes the count
 * of negative values even.
 */
static inline unsigned
iq_signs(unsigned k)
{
	return k | (unsigned)__builtin_parity(k) << 7;
}

/* iq_point8: the 8 levels of point p of a 2-bit-code grid, signed. */
static inline void
iq_point8(uint16_t p, unsigned signs, float *q)
{
	int j;

	for (j = 0; j < 8; j++)
		q[j] = iq2_levels[(p >> (2 * j) & 3) | (signs >> j & 1) << 2];
}

/* iq_point4: the 4 levels of point p of a 3-bit-code grid, signed. */
static inline void
iq_point4(uint16_t p, const float lv[16], unsigned signs, float *q)
{
	int j;

	for (j = 0; j < 4; j++)
		q[j] = lv[(p >> (3 * j) & 7) | (signs >> j & 1) << 3];
}

/* iq_point1: the 8 values level + delta of point p of the IQ1 grid. */
static inline void
iq_point1(uint16_t p, float delta, float *q)
{
	int j;

	for (j = 0; j < 8; j++)
		q[j] = iq1_levels[p >> (2 * j) & 3] + delta;
}

/*
 * IQ2_XXS (66): d @0, then 8 bytes a sub-block ib @2+8ib: 4 grid indices
 * (one a group), then a u32 whose bits 7l.. are group l's sign index and
 * whose top 4 bits s give dl = d*(0.5 + s)/4.
 */
static void
iq2_xxs_sub(const uint8_t *b, int ib, float d, float *q, float *dl)
{
	const uint8_t *p = b + 2 + 8 * ib;
	uint32_t aux = kernel_le32(p + 4);
	int l;

	for (l = 0; l < 4; l++) {
		dl[l] = d * (0.5f + (float)(aux >> 28)) * 0.25f;
		iq_point8(kernel_grid_iq2xxs[p[l]],
		    iq_signs(aux >> 7 * l & 127), q + 8 * l);
	}
}

/*
 * IQ2_XS (74): d @0, u16 qs[32] @2 (group l of sub-block ib: qs[4ib+l],
 * 9 bits of grid index, 7 of sign index), scales[8] @66 (sub-block ib's
 * byte: the low nibble s for groups 0-1, the high one for 2-3; dl =
 * d*(0.5 + s)/4).
 */
static void
iq2_xs_sub(const uint8_t *b, int ib, float d, float *q, float *dl)
{
	unsigned sc = b[66 + ib];
	int l;

	for (l = 0; l < 4; l++) {
		unsigned v = kernel_le16(b + 2 + 8 * ib + 2 * l);

		dl[l] = d * (0.5f + (float)(sc >> 4 * (l / 2) & 15)) * 0.25f;
		iq_point8(kernel_grid_iq2xs[v & 511], iq_signs(v >> 9),
		    q + 8 * l);
	}
}

/*
 * IQ2_S (82): d @0, qs[32] @2 (the low 8 bits of the grid index of group
 * l of sub-block ib: qs[4ib+l]), signs[32] @34 (8 sign bits a group),
 * qh[8] @66 (bits 2l, 2l+1 of qh[ib]: index bits 8, 9), scales[8] @74 (as
 * IQ2_XS's).
 */
static void
iq2_s_sub(const uint8_t *b, int ib, float d, float *q, float *dl)
{
	unsigned qh = b[66 + ib], sc = b[74 + ib];
	int l;

	for (l = 0; l < 4; l++) {
		unsigned idx = b[2 + 4 * ib + l] | (qh >> 2 * l & 3) << 8;

		dl[l] = d * (0.5f + (float)(sc >> 4 * (l / 2) & 15)) * 0.25f;
		iq_point8(kernel_grid_iq2s[idx], b[34 + 4 * ib + l], q + 8 * l);
	}
}

/*
 * IQ3_XXS (98): d @0, qs[64] @2 (8 grid indices a sub-block, two a group:
 * its elements 0-3 and 4-7), then a u32 a sub-block @66+4ib: bits 7l..
 * group l's sign index, the top 4 bits s: dl = d*(0.5 + s)/2.
 */
static void
iq3_xxs_sub(const uint8_t *b, int ib, float d, float *q, float *dl)
{
	const uint8_t *qs = b + 2 + 8 * ib;
	uint32_t aux = kernel_le32(b + 66 + 4 * ib);
	int l;

	for (l = 0; l < 4; l++) {
		unsigned sg = iq_signs(aux >> 7 * l & 127);

		dl[l] = d * (0.5f + (float)(aux >> 28)) * 0.5f;
		iq_point4(kernel_grid_iq3xxs[qs[2 * l]], iq3xxs_levels, sg,
		    q + 8 * l);
		iq_point4(kernel_grid_iq3xxs[qs[2 * l + 1]], iq3xxs_levels,
		    sg >> 4, q + 8 * l + 4);
	}
}

/*
 * IQ3_S (110): d @0, qs[64] @2 (the low 8 bits of 8 grid indices a
 * sub-block, as IQ3_XXS's), qh[8] @66 (bit k of qh[ib]: bit 8 of the
 * sub-block's index k), signs[32] @74 (8 bits a group), scales[4] @106
 * (nibble ib%2 of scales[ib/2] is s: dl = d*(1 + 2s)).
 */
static void
iq3_s_sub(const uint8_t *b, int ib, float d, float *q, float *dl)
{
	const uint8_t *qs = b + 2 + 8 * ib;
	unsigned qh = b[66 + ib], s = b[106 + ib / 2] >> 4 * (ib % 2) & 15;
	int l;

	for (l = 0; l < 4; l++) {
		unsigned sg = b[74 + 4 * ib + l];

		dl[l] = d * (float)(1 + 2 * s);
		iq_point4(kernel_grid_iq3s[qs[2 * l] | (qh >> 2 * l & 1) << 8],
		    iq3s_levels, sg, q + 8 * l);
		iq_point4(kernel_grid_iq3s[qs[2 * l + 1] |
		    (qh >> (2 * l + 1) & 1) << 8], iq3s_levels, sg >> 4,
		    q + 8 * l + 4);
	}
}

/*
 * IQ1_S (50): d @0, qs[32] @2 (the low 8 bits of the grid index of group
 * l of sub-block ib: qs[4ib+l]), u16 qh[8] @34: in qh[ib], bits 3l..3l+2
 * are index bits 8-10 of group l, bits 12-14 s (dl = d*(2s + 1)), bit 15
 * the sign of delta.
 */
static void
iq1_s_sub(const uint8_t *b, int ib, float d, float *q, float *dl)
{
	unsigned h = kernel_le16(b + 34 + 2 * ib);
	float delta = iq1_deltas[h >> 15];
	int l;

	for (l = 0; l < 4; l++) {
		dl[l] = d * (float)(2 * (h >> 12 & 7) + 1);
		iq_point1(kernel_grid_iq1s[b[2 + 4 * ib + l] |
		    (h >> 3 * l & 7) << 8], delta, q + 8 * l);
	}
}

/*
 * IQ1_M (56): qs[32] @0 (as IQ1_S's, from 0), qh[16] @32 (a nibble a
 * group: nibble l of qh[2ib..2ib+1] holds index bits 8-10 and, bit 3, the
 * sign of the group's delta), u16 sc[4] @48: bits 6(ib%2).. of sc[ib/2]
 * give s for groups 0-1 and the next 3 bits s for groups 2-3 (dl =
 * d*(2s + 1)); the top nibbles of sc[0..3] are the 4 nibbles of the
 * fp16 d, lowest first.
 */
static void
iq1_m_sub(const uint8_t *b, int ib, float d, float *q, float *dl)
{
	unsigned sc = kernel_le16(b + 48 + 2 * (ib / 2)) >> 6 * (ib % 2);
	int l;

	for (l = 0; l < 4; l++) {
		unsigned h = b[32 + 2 * ib + l / 2] >> 4 * (l % 2);

		dl[l] = d * (float)(2 * (sc >> 3 * (l / 2) & 7) + 1);
		iq_point1(kernel_grid_iq1s[b[4 * ib + l] | (h & 7) << 8],
		    iq1_deltas[h >> 3 & 1], q + 8 * l);
	}
}

/* A grid type: its block size and how to read a block's d and sub-blocks. */
struct iq_grid_type {
	unsigned size;
	bool d_split;		/* IQ1_M: d in the scales' top nibbles */
	void (*sub)(const uint8_t *b, int ib, float d, float *q, float *dl);
};

static inline float
iq_block_d(const struct iq_grid_type *t, const uint8_t *b)
{
	return t->d_split ? kernel_fp16_to_f32(kernel_iq1_m_d_bits(b)) :
	    kernel_half(b);
}

static void
iq_grid_dequant(const struct iq_grid_type *t, const uint8_t *b, float *out,
    size_t n)
{
	float q[32], dl[4];
	size_t i;
	int ib, j;

	assert(n % QK_GRID == 0);
	for (i = 0; i < n / QK_GRID; i++, b += t->size) {
		float d = iq_block_d(t, b);

		for (ib = 0; ib < 8; ib++, out += 32) {
			t->sub(b, ib, d, q, dl);
			for (j = 0; j < 32; j++)
				out[j] = dl[j / 8] * q[j];
		}
	}
}

static inline float
iq_grid_dot(const struct iq_grid_type *t, const uint8_t *b, const float *x,
    size_t n)
{
	float q[32], dl[4];
	double acc = 0.0;
	size_t i;
	int ib, l, j;

	assert(n % QK_GRID == 0);
	for (i = 0; i < n / QK_GRID; i++, b += t->size) {
		float d = iq_block_d(t, b), blk = 0.0f;

		for (ib = 0; ib < 8; ib++, x += 32) {
			t->sub(b, ib, d, q, dl);
			for (l = 0; l < 4; l++) {
				float s = 0.0f;

				for (j = 8 * l; j < 8 * l + 8; j++)
					s += q[j] * x[j];
				blk += dl[l] * s;
			}
		}
		acc += blk;
	}
	return (float)acc;
}

static const struct iq_grid_type iq2_xxs = {
	GGML_SIZE_IQ2_XXS, false, iq2_xxs_sub
};
static const struct iq_grid_type iq2_xs = {
	GGML_SIZE_IQ2_XS, false, iq2_xs_sub
};
static const struct iq_grid_type iq2_s = {
	GGML_SIZE_IQ2_S, false, iq2_s_sub
};
static const struct iq_grid_type iq3_xxs = {
	GGML_SIZE_IQ3_XXS, false, iq3_xxs_sub
};
static const struct iq_grid_type iq3_s = {
	GGML_SIZE_IQ3_S, false, iq3_s_sub
};
static const struct iq_grid_type iq1_s = {
	GGML_SIZE_IQ1_S, false, iq1_s_sub
};
static const struct iq_grid_type iq1_m = {
	GGML_SIZE_IQ1_M, true, iq1_m_sub
};

/*
 * The kernels of each grid type, as the registry names them. Not built
 * twice (KERNEL_CLONES): their loops are table lookups, and inlined into
 * AVX2 clones they ran no faster.
 */

void
kernel_dequant_iq2_xxs(const void *restrict row, float *restrict out, size_t n)
{
	iq_grid_dequant(&iq2_xxs, row, out, n);
}

float
kernel_dot_iq2_xxs(const void *row, const float *x, size_t n)
{
	return iq_grid_dot(&iq2_xxs, row, x, n);
}

void
kernel_dequant_iq2_xs(const void *restrict row, float *restrict out, size_t n)
{
	iq_grid_dequant(&iq2_xs, row, out, n);
}

float
kernel_dot_iq2_xs(const void *row, const float *x, size_t n)
{
	return iq_grid_dot(&iq2_xs, row, x, n);
}

void
kernel_dequant_iq2_s(const void *restrict row, float *restrict out, size_t n)
{
	iq_grid_dequant(&iq2_s, row, out, n);
}

float
kernel_dot_iq2_s(const void *row, const float *x, size_t n)
{
	return iq_grid_dot(&iq2_s, row, x, n);
}

void
kernel_dequant_iq3_xxs(const void *restrict row, float *restrict out, size_t n)
{
	iq_grid_dequant(&iq3_xxs, row, out, n);
}

float
kernel_dot_iq3_xxs(const void *row, const float *x, size_t n)
{
	return iq_grid_dot(&iq3_xxs, row, x, n);
}

void
kernel_dequant_iq3_s(const void *restrict row, float *restrict out, size_t n)
{
	iq_grid_dequant(&iq3_s, row, out, n);
}

float
kernel_dot_iq3_s(const void *row, const float *x, size_t n)
{
	return iq_grid_dot(&iq3_s, row, x, n);
}

void
kernel_dequant_iq1_s(const void *restrict row, float *restrict out, size_t n)
{
	iq_grid_dequant(&iq1_s, row, out, n);
}

float
kernel_dot_iq1_s(const void *row, const float *x, size_t n)
{
	return iq_grid_dot(&iq1_s, row, x, n);
}

void
kernel_dequant_iq1_m(const void *restrict row, float *restrict out, size_t n)
{
	iq_grid_dequant(&iq1_m, row, out, n);
}

float
kernel_dot_iq1_m(const void *row, const float *x, size_t n)
{
	return iq_grid_dot(&iq1_m, row, x, n);
}
