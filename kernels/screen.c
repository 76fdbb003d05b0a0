/*
 * screen.c - the screens (see kernels.h): what a run of blocks can hold,
 * from their scales alone, for the D rules. MXFP4's and NVFP4's (8-bit
 * scales) are in fp4.c, beside their level table; IQ1_M's (an fp16 split
 * in nibbles) is here, after the table of the others.
 *
 * Every dequantizer of a block with fp16 factors computes y from a factor
 * d (and, for some, a second one m) times small integers: a sub-block
 * scale, a quant, a level. Read in the kernels' expressions:
 *  - when d or m is NaN or infinite, every y of the block is: an infinite
 *    factor times a zero integer is NaN, times any other is infinite, and
 *    a NaN or an infinity added to a finite number stays one;
 *  - when both are finite, |y| <= |d|*A + |m|*B in real numbers, with A
 *    and B the largest the integers can make (below). The kernel's float
 *    operations round at most three times, each by at most 2^-24, so the
 *    bound, times 1 + 2^-20, holds for what they compute; and it is far
 *    below FLT_MAX (65504 * 4096 at most), so y is finite;
 *  - when both are zero, every y is (a zero times an integer, plus or
 *    minus a zero).
 * The float types are screened value by value, from their bits: exact.
 */
#include <math.h>

#include "kernels-impl.h"

/*
 * A block type whose values are at most |d|*d_mul + |m|*m_mul: d is the
 * fp16 at d_off, m the fp16 at m_off; a type with one factor names it
 * twice, with m_mul 0. The integers, from the kernels (q: quant, sc:
 * sub-block scale, L: level). The offsets are the layouts' (kernel files),
 * and the one list of where blocks keep their fp16 factors:
 * kernel_fp16_factors gives them to the probe and the byte-order code.
 */
static const struct block_screen {
	uint32_t type;
	unsigned d_off, m_off;
	double d_mul, m_mul;
} block_screens[] = {
	{ GGML_TYPE_Q4_0, 0, 0, 8, 0 },		/* q - 8 in -8..7 */
	{ GGML_TYPE_Q4_1, 0, 2, 15, 1 },	/* q*d + m, q <= 15 */
	{ GGML_TYPE_Q5_0, 0, 0, 16, 0 },	/* q - 16 in -16..15 */
	{ GGML_TYPE_Q5_1, 0, 2, 31, 1 },	/* q*d + m, q <= 31 */
	{ GGML_TYPE_Q8_0, 0, 0, 128, 0 },	/* int8 q */
	{ GGML_TYPE_Q1_0, 0, 0, 1, 0 },		/* +d or -d */
	{ GGML_TYPE_Q2_0, 0, 0, 2, 0 },		/* q - 1 in -1..2 */
	{ GGML_TYPE_Q2_K, 80, 82, 45, 15 },	/* sc, m <= 15; q <= 3 */
	{ GGML_TYPE_Q3_K, 108, 108, 128, 0 },	/* sc - 32, q in -4..3 */
	{ GGML_TYPE_Q4_K, 0, 2, 945, 63 },	/* sc, m <= 63; q <= 15 */
	{ GGML_TYPE_Q5_K, 0, 2, 1953, 63 },	/* sc, m <= 63; q <= 31 */
	{ GGML_TYPE_Q6_K, 208, 208, 4096, 0 },	/* int8 sc, q - 32 */
	{ GGML_TYPE_IQ4_NL, 0, 0, 127, 0 },	/* L in -127..113 */
	{ GGML_TYPE_IQ4_XS, 0, 0, 4064, 0 },	/* (ls - 32)*L */
	/* the grid i-quants (iquants.c): s <= 15 (IQ1: 7), L a grid level */
	{ GGML_TYPE_IQ2_XXS, 0, 0, 166.625, 0 }, /* (s + .5)L/4, L <= 43 */
	{ GGML_TYPE_IQ2_XS, 0, 0, 166.625, 0 },		/* the same */
	{ GGML_TYPE_IQ2_S, 0, 0, 166.625, 0 },		/* the same */
	{ GGML_TYPE_IQ3_XXS, 0, 0, 480.5, 0 },	/* (s + .5)L/2, L <= 62 */
	{ GGML_TYPE_IQ3_S, 0, 0, 465, 0 },	/* (2s + 1)*L, L <= 15 */
	{ GGML_TYPE_IQ1_S, 0, 0, 16.875, 0 },	/* (2s + 1)*(L +- 1/8) */
	{ GGML_TYPE_TQ1_0, 52, 52, 2, 0 },	/* t - 1, t <= 2 */
	{ GGML_TYPE_TQ2_0, 64, 64, 2, 0 },	/* q - 1 in -1..2 */
};

#define N_BLOCK_SCREENS (sizeof block_screens / sizeof block_screens[0])

/* The bound's margin for three roundings of 2^-24 each (see above). */
#define SCREEN_MARGIN (1.0 + 0x1p-20)

/* The magnitude bits of the fp16 at p: 0x7c00 and above are not finite. */
static inline unsigned
mag16(const uint8_t *p)
{
	return kernel_le16(p) & 0x7fffu;
}

/*
 * The greatest magnitudes of d and of m over blocks [0, n), not finite
 * ones included: four blocks a step, each in its own lanes, so that the
 * loads overlap (the loop waits on memory, not on arithmetic).
 */
static void
block_maxima(const struct block_screen *bs, const uint8_t *p, uint64_t n,
    unsigned size, unsigned *maxd, unsigned *maxm)
{
	const uint8_t *d = p + bs->d_off, *m = p + bs->m_off;
	unsigned d0 = 0, d1 = 0, d2 = 0, d3 = 0, m0 = 0, m1 = 0, m2 = 0, m3 = 0;
	uint64_t b;

#define SCREEN_MAX(acc, q) ((acc) = mag16(q) > (acc) ? mag16(q) : (acc))
	for (b = 0; b + 4 <= n; b += 4, d += 4 * size, m += 4 * size) {
		SCREEN_MAX(d0, d);
		SCREEN_MAX(m0, m);
		SCREEN_MAX(d1, d + size);
		SCREEN_MAX(m1, m + size);
		SCREEN_MAX(d2, d + 2 * size);
		SCREEN_MAX(m2, m + 2 * size);
		SCREEN_MAX(d3, d + 3 * size);
		SCREEN_MAX(m3, m + 3 * size);
	}
	for (; b < n; b++, d += size, m += size) {
		SCREEN_MAX(d0, d);
		SCREEN_MAX(m0, m);
	}
#undef SCREEN_MAX
	d0 = d0 > d1 ? d0 : d1;
	d2 = d2 > d3 ? d2 : d3;
	m0 = m0 > m1 ? m0 : m1;
	m2 = m2 > m3 ? m2 : m3;
	*maxd = d0 > d2 ? d0 : d2;
	*maxm = m0 > m2 ? m0 : m2;
}

/* The same over the finite blocks only; returns how many are not. */
static uint64_t
block_maxima_finite(const struct block_screen *bs, const uint8_t *p,
    uint64_t n, unsigned size, unsigned *maxd, unsigned *maxm)
{
	uint64_t bad = 0, b;

	*maxd = *maxm = 0;
	for (b = 0; b < n; b++, p += size) {
		unsigned d = mag16(p + bs->d_off), m = mag16(p + bs->m_off);

		if (d >= 0x7c00u || m >= 0x7c00u) {
			bad++;
			continue;
		}
		*maxd = d > *maxd ? d : *maxd;
		*maxm = m > *maxm ? m : *maxm;
	}
	return bad;
}

static void
screen_blocks(const struct block_screen *bs, const uint8_t *p,
    uint64_t blocks, unsigned size, unsigned blck, struct kernel_screen *s)
{
	unsigned maxd, maxm;

	block_maxima(bs, p, blocks, size, &maxd, &maxm);
	if (maxd >= 0x7c00u || maxm >= 0x7c00u)	/* rare: count them */
		s->nonfinite += block_maxima_finite(bs, p, blocks, size,
		    &maxd, &maxm) * blck;
	s->bound = fmax(s->bound, ((double)kernel_fp16_to_f32((uint16_t)maxd) *
	    bs->d_mul + (double)kernel_fp16_to_f32((uint16_t)maxm) *
	    bs->m_mul) * SCREEN_MARGIN);
	s->maybe_nonzero |= (maxd | maxm) != 0;
}

/*
 * The float types: the greatest magnitude bits of n values (of 2 or 4
 * bytes), NaN and infinities included. A lane per value of a step of 16
 * (or 8), so that the compiler vectorizes the loop at -O2.
 */
KERNEL_CLONES static uint32_t
max_mag16(const uint8_t *p, uint64_t n)
{
	uint16_t acc[16] = { 0 };
	uint32_t mx = 0;
	uint64_t i;
	unsigned k;

	for (i = 0; i + 16 <= n; i += 16)
		for (k = 0; k < 16; k++) {
			uint16_t u = kernel_le16(p + 2 * (i + k)) & 0x7fffu;

			acc[k] = u > acc[k] ? u : acc[k];
		}
	for (; i < n; i++) {
		uint16_t u = kernel_le16(p + 2 * i) & 0x7fffu;

		acc[0] = u > acc[0] ? u : acc[0];
	}
	for (k = 0; k < 16; k++)
		mx = acc[k] > mx ? acc[k] : mx;
	return mx;
}

KERNEL_CLONES static uint32_t
max_mag32(const uint8_t *p, uint64_t n)
{
	uint32_t acc[8] = { 0 }, mx = 0;
	uint64_t i;
	unsigned k;

	for (i = 0; i + 8 <= n; i += 8)
		for (k = 0; k < 8; k++) {
			uint32_t u = kernel_le32(p + 4 * (i + k)) & 0x7fffffffu;

			acc[k] = u > acc[k] ? u : acc[k];
		}
	for (; i < n; i++) {
		uint32_t u = kernel_le32(p + 4 * i) & 0x7fffffffu;

		acc[0] = u > acc[0] ? u : acc[0];
	}
	for (k = 0; k < 8; k++)
		mx = acc[k] > mx ? acc[k] : mx;
	return mx;
}

/*
 * The same over the finite values only (inf: the bits of an infinite
 * magnitude); returns how many are not finite. The slow path, for a row
 * the fast one found a NaN or an infinity in.
 */
static uint64_t
max_mag_finite(const uint8_t *p, uint64_t n, unsigned width, uint32_t inf,
    uint32_t *mx)
{
	uint64_t bad = 0, i;

	*mx = 0;
	for (i = 0; i < n; i++) {
		uint32_t u = width == 2 ? kernel_le16(p + 2 * i) & 0x7fffu :
		    kernel_le32(p + 4 * i) & 0x7fffffffu;

		if (u >= inf)
			bad++;
		else if (u > *mx)
			*mx = u;
	}
	return bad;
}

static void
screen_floats(uint32_t type, const uint8_t *p, uint64_t n,
    struct kernel_screen *s)
{
	unsigned width = type == GGML_TYPE_F32 ? GGML_SIZE_F32 : GGML_SIZE_F16;
	uint32_t inf = type == GGML_TYPE_F32 ? 0x7f800000u :
	    type == GGML_TYPE_F16 ? 0x7c00u : 0x7f80u;
	uint32_t mx = width == 2 ? max_mag16(p, n) : max_mag32(p, n);
	float big;

	if (mx >= inf)
		s->nonfinite += max_mag_finite(p, n, width, inf, &mx);
	big = type == GGML_TYPE_F32 ? kernel_f32_bits(mx) :
	    type == GGML_TYPE_F16 ? kernel_fp16_to_f32((uint16_t)mx) :
	    kernel_bf16_to_f32((uint16_t)mx);
	s->bound = fmax(s->bound, big);
	s->nonzero |= mx != 0;
	s->maybe_nonzero |= mx != 0;
}

/*
 * IQ1_M keeps its fp16 d in the top nibbles of its sub-block scales
 * (kernel_iq1_m_d_bits), not at an offset of its own: the same rules as
 * the blocks above, |y| <= |d|*(2*7 + 1)*(1 + 1/8).
 */
static void
screen_iq1_m(const uint8_t *b, uint64_t blocks, struct kernel_screen *s)
{
	unsigned maxd = 0;
	uint64_t i;

	for (i = 0; i < blocks; i++, b += GGML_SIZE_IQ1_M) {
		unsigned mag = kernel_iq1_m_d_bits(b) & 0x7fffu;

		if (mag >= 0x7c00u)
			s->nonfinite += GGML_BLCK_IQ1_M;
		else if (mag > maxd)
			maxd = mag;
	}
	s->bound = fmax(s->bound, (double)kernel_fp16_to_f32((uint16_t)maxd) *
	    16.875 * SCREEN_MARGIN);
	s->maybe_nonzero |= maxd != 0;
}

static const struct block_screen *
block_screen_find(uint32_t type)
{
	size_t i;

	for (i = 0; i < N_BLOCK_SCREENS; i++)
		if (block_screens[i].type == type)
			return &block_screens[i];
	return NULL;
}

unsigned
kernel_fp16_factors(uint32_t type, unsigned off[2])
{
	const struct block_screen *bs = block_screen_find(type);

	if (bs == NULL)
		return 0;
	off[0] = bs->d_off;
	if (bs->m_off == bs->d_off)
		return 1;
	off[1] = bs->m_off;
	return 2;
}

bool
kernel_screen_has(uint32_t type)
{
	return type == GGML_TYPE_F32 || type == GGML_TYPE_F16 ||
	    type == GGML_TYPE_BF16 || type == GGML_TYPE_MXFP4 ||
	    type == GGML_TYPE_NVFP4 || type == GGML_TYPE_IQ1_M ||
	    block_screen_find(type) != NULL;
}

bool
kernel_screen(uint32_t type, const void *row, size_t n,
    struct kernel_screen *s)
{
	const struct ggml_type_info *ti = ggml_type_get(type);
	const struct block_screen *bs = block_screen_find(type);

	if (type == GGML_TYPE_F32 || type == GGML_TYPE_F16 ||
	    type == GGML_TYPE_BF16) {
		screen_floats(type, row, n, s);
		return true;
	}
	if (ti == NULL || ti->blck == 0 || n % ti->blck != 0)
		return false;
	if (type == GGML_TYPE_MXFP4 || type == GGML_TYPE_NVFP4) {
		(type == GGML_TYPE_MXFP4 ? kernel_screen_mxfp4 :
		    kernel_screen_nvfp4)(row, n / ti->blck, s);
		return true;
	}
	if (type == GGML_TYPE_IQ1_M) {
		screen_iq1_m(row, n / ti->blck, s);
		return true;
	}
	if (bs == NULL)
		return false;
	screen_blocks(bs, row, n / ti->blck, ti->size, ti->blck, s);
	return true;
}
