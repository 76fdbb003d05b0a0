/*
 * byteorder.c - the tensor data of a big-endian GGUF file, in the layout
 * the kernels read (see kernels.h). gguf-py's gguf-convert-endian defines
 * what a big-endian file swaps: every element of F32, F16 and BF16; the
 * fp16 factors of Q4_0 and Q8_0 (d @0), Q4_K (d @0, dmin @2) and Q6_K
 * (d @208); nothing in MXFP4 (an 8-bit scale). It refuses every other
 * type, so their big-endian layout is not defined: neither here.
 */
#include <string.h>

#include "kernels-impl.h"

/*
 * The types gguf-convert-endian converts: the float types element by
 * element (width: an element's bytes), the block types by their fp16
 * factors (the screens' list, kernel_fp16_factors), MXFP4 not at all.
 */
static const struct be_layout {
	uint32_t type;
	unsigned width;		/* swap every element of this many bytes */
} be_layouts[] = {
	{ GGML_TYPE_F32, GGML_SIZE_F32 },
	{ GGML_TYPE_F16, GGML_SIZE_F16 },
	{ GGML_TYPE_BF16, GGML_SIZE_BF16 },
	{ GGML_TYPE_Q4_0, 0 },
	{ GGML_TYPE_Q8_0, 0 },
	{ GGML_TYPE_Q4_K, 0 },
	{ GGML_TYPE_Q6_K, 0 },
	{ GGML_TYPE_MXFP4, 0 },
};

static const struct be_layout *
be_layout_find(uint32_t type)
{
	size_t i;

	for (i = 0; i < sizeof be_layouts / sizeof be_layouts[0]; i++)
		if (be_layouts[i].type == type)
			return &be_layouts[i];
	return NULL;
}

bool
kernel_be_known(uint32_t type)
{
	return be_layout_find(type) != NULL;
}

static void
swap_bytes(uint8_t *p, unsigned width)
{
	unsigned i;

	for (i = 0; i < width / 2; i++) {
		uint8_t t = p[i];

		p[i] = p[width - 1 - i];
		p[width - 1 - i] = t;
	}
}

bool
kernel_from_be(uint32_t type, const void *src, void *dst, size_t n)
{
	const struct be_layout *l = be_layout_find(type);
	const struct ggml_type_info *ti = ggml_type_get(type);
	uint8_t *d = dst;
	size_t blocks, b, bytes;
	unsigned off[2], k, nf;

	if (l == NULL || ti == NULL || ti->blck == 0 || n % ti->blck != 0)
		return false;
	blocks = n / ti->blck;
	bytes = blocks * ti->size;
	memcpy(d, src, bytes);
	if (l->width > 0) {
		for (b = 0; b < bytes; b += l->width)
			swap_bytes(d + b, l->width);
		return true;
	}
	nf = kernel_fp16_factors(type, off);
	for (b = 0; b < blocks; b++)
		for (k = 0; k < nf; k++)
			swap_bytes(d + b * ti->size + off[k], 2);
	return true;
}
