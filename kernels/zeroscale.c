/*
 * zeroscale.c - the zero-scale blocks (see kernels.h): blocks whose fp16
 * scale d is zero, so that none of the bytes it multiplies (the quants,
 * and in a k-quant the sub-block scales d multiplies) reach a value. A
 * quantizer writes such a block for values that are all zero, with its
 * quants all zero or at the level that decodes to zero; anything else in
 * them is data no inference sees.
 *
 * The layouts are ggml's (ggml-common.h; the kernel files check them
 * against the type table): where d is, and which bytes (under which mask)
 * only d makes visible. q4_1, q5_1, q2_K, q4_K and q5_K keep a minimum
 * beside d: their values are then the minimum's, and the quants still
 * vanish. A block is benign when those bytes are all zero, or all at the
 * pattern ggml's reference quantizer writes for a block of zeros (q4_0:
 * every nibble 8, for 8 - 8 = 0; q5_0: every fifth bit set, for 16 - 16;
 * iq4_nl: every nibble 8, the level nearest zero; iq4_xs: that, under
 * sub-block scales of 32, for 32 - 32; q1_0: every bit set, for +d; q2_0
 * and tq2_0: every quant 1, for 1 - 1; tq1_0: every trit 1). The rest of
 * the types write all zeros (ggml_quantize_chunk, with and without an
 * importance matrix, checked on libggml-base).
 */
#include "kernels-impl.h"

/* Bytes [off, off + len) of a block, under mask; zero: the quantizer's
 * pattern for a block of zeros, under the same mask. */
struct zs_region {
	uint16_t off, len;
	uint8_t mask, zero;
};

struct zs_layout {
	uint32_t type;
	uint16_t d_off;
	struct zs_region r[3]; /* len 0: none */
};

/*
 * q2_K: scales[16] (d's in the low nibbles), qs[64], d, dmin. q3_K:
 * hmask[32], qs[64], scales[12], d. q4_K and q5_K: d, dmin, scales[12]
 * (d's six bits: the whole of bytes 0-3, whose top two bits are the high
 * bits of sub-blocks 4-7, and the low nibbles of bytes 8-11), then qh[32]
 * (q5_K) and qs[128]. q6_K: ql[128], qh[64], scales[16], d. iq4_xs: d,
 * scales_h[2], scales_l[4], qs[128]. tq1_0: qs[48], qh[4], d. tq2_0:
 * qs[64], d. q1_0 and q2_0: d, qs[16].
 */
static const struct zs_layout zs_layouts[] = {
	{ GGML_TYPE_Q4_0, 0, { { 2, 16, 0xff, 0x88 } } },
	{ GGML_TYPE_Q4_1, 0, { { 4, 16, 0xff, 0 } } },
	{ GGML_TYPE_Q5_0, 0, { { 2, 4, 0xff, 0xff }, { 6, 16, 0xff, 0 } } },
	{ GGML_TYPE_Q5_1, 0, { { 4, 20, 0xff, 0 } } },
	{ GGML_TYPE_Q8_0, 0, { { 2, 32, 0xff, 0 } } },
	{ GGML_TYPE_Q8_1, 0, { { 4, 32, 0xff, 0 } } },
	{ GGML_TYPE_Q2_K, 80, { { 0, 16, 0x0f, 0 }, { 16, 64, 0xff, 0 } } },
	{ GGML_TYPE_Q3_K, 108, { { 0, 108, 0xff, 0 } } },
	{ GGML_TYPE_Q4_K, 0,
	    { { 4, 4, 0xff, 0 }, { 12, 4, 0x0f, 0 }, { 16, 128, 0xff, 0 } } },
	{ GGML_TYPE_Q5_K, 0,
	    { { 4, 4, 0xff, 0 }, { 12, 4, 0x0f, 0 }, { 16, 160, 0xff, 0 } } },
	{ GGML_TYPE_Q6_K, 208, { { 0, 208, 0xff, 0 } } },
	{ GGML_TYPE_IQ4_NL, 0, { { 2, 16, 0xff, 0x88 } } },
	{ GGML_TYPE_IQ4_XS, 0,
	    { { 2, 2, 0xff, 0xaa }, { 4, 4, 0xff, 0 },
		{ 8, 128, 0xff, 0x88 } } },
	{ GGML_TYPE_TQ1_0, 52,
	    { { 0, 48, 0xff, 0x80 }, { 48, 4, 0xff, 0x7f } } },
	{ GGML_TYPE_TQ2_0, 64, { { 0, 64, 0xff, 0x55 } } },
	{ GGML_TYPE_Q1_0, 0, { { 2, 16, 0xff, 0xff } } },
	{ GGML_TYPE_Q2_0, 0, { { 2, 16, 0xff, 0x55 } } },
};

#define N_ZS_LAYOUTS (sizeof zs_layouts / sizeof zs_layouts[0])

/* The regions end where the blocks do (ggml-types.h's sizes). */
_Static_assert(2 + 16 == GGML_SIZE_Q4_0 && 4 + 16 == GGML_SIZE_Q4_1 &&
	6 + 16 == GGML_SIZE_Q5_0 && 4 + 20 == GGML_SIZE_Q5_1 &&
	2 + 32 == GGML_SIZE_Q8_0 && 4 + 32 == GGML_SIZE_Q8_1 &&
	80 + 4 == GGML_SIZE_Q2_K && 108 + 2 == GGML_SIZE_Q3_K &&
	16 + 128 == GGML_SIZE_Q4_K && 16 + 160 == GGML_SIZE_Q5_K &&
	208 + 2 == GGML_SIZE_Q6_K && 2 + 16 == GGML_SIZE_IQ4_NL &&
	8 + 128 == GGML_SIZE_IQ4_XS && 52 + 2 == GGML_SIZE_TQ1_0 &&
	64 + 2 == GGML_SIZE_TQ2_0 && 2 + 16 == GGML_SIZE_Q1_0 &&
	2 + 16 == GGML_SIZE_Q2_0,
    "zero-scale layouts");

static const struct zs_layout *
zs_find(uint32_t type)
{
	size_t i;

	for (i = 0; i < N_ZS_LAYOUTS; i++)
		if (zs_layouts[i].type == type)
			return &zs_layouts[i];
	return NULL;
}

/* Whether the masked bytes of block b are all zero (pattern false) or all
 * at the regions' zero pattern (pattern true). */
static bool
zs_matches(const struct zs_layout *l, const uint8_t *b, bool pattern)
{
	unsigned k, i;

	for (k = 0; k < 3 && l->r[k].len > 0; k++) {
		const struct zs_region *r = &l->r[k];
		uint8_t want = pattern ? r->zero & r->mask : 0;

		for (i = 0; i < r->len; i++)
			if ((b[r->off + i] & r->mask) != want)
				return false;
	}
	return true;
}

bool
kernel_zero_scale_has(uint32_t type)
{
	return zs_find(type) != NULL;
}

bool
kernel_zero_scale(uint32_t type, const void *row, size_t n,
    struct kernel_zero_scale *z)
{
	const struct ggml_type_info *ti = ggml_type_get(type);
	const struct zs_layout *l = zs_find(type);
	const uint8_t *b = row;
	size_t blocks, i;

	if (l == NULL || ti == NULL || ti->blck == 0 || n % ti->blck != 0)
		return false;
	blocks = n / ti->blck;
	for (i = 0; i < blocks; i++, b += ti->size) {
		if ((kernel_le16(b + l->d_off) & 0x7fffu) != 0)
			continue; /* d is not zero (plus or minus) */
		if (zs_matches(l, b, false) || zs_matches(l, b, true))
			z->benign++;
		else
			z->hidden++;
	}
	return true;
}
