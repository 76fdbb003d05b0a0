/*
 * feed.c - kernel-feed order: the input-block-major layout a repacking
 * backend (llama.cpp's CPU_REPACK, SKaiNET's KERNEL_FEED) feeds its matrix
 * kernels, in which block b of every output row lies together (flat block
 * b * n_out + o instead of o * blocks_per_row + b). The relayout, and
 * matrix-vector kernels for Q4_0 and Q8_0 that read it.
 */
#include <string.h>

#include "kernels-impl.h"

int
kernel_relayout_feed(uint32_t type, const void *src, void *dst, size_t n_in,
    size_t n_out)
{
	const struct ggml_type_info *ti = ggml_type_get(type);
	const uint8_t *s = src;
	uint8_t *d = dst;
	size_t per_row, o, b;

	if (ti == NULL || ti->blck == 0 || n_in % ti->blck != 0)
		return -1;
	per_row = n_in / ti->blck;
	for (o = 0; o < n_out; o++)
		for (b = 0; b < per_row; b++)
			memcpy(d + (b * n_out + o) * ti->size,
			    s + (o * per_row + b) * ti->size, ti->size);
	return 0;
}

/*
 * y[o] = sum over blocks b of block (b, o) times x's block b. A one-block
 * row is the same in either order, so the as-stored dot kernel of one
 * block is the per-block product; sums are kept in double.
 */
static void
matvec_feed(float (*dot)(const void *, const float *, size_t), size_t blck,
    size_t size, const void *w, const float *x, float *y, size_t n_in,
    size_t n_out)
{
	const uint8_t *p = w;
	size_t per_row = n_in / blck, o, b;

	for (o = 0; o < n_out; o++) {
		double sum = 0;

		for (b = 0; b < per_row; b++)
			sum += dot(p + (b * n_out + o) * size, x + b * blck,
			    blck);
		y[o] = (float)sum;
	}
}

void
kernel_matvec_feed_q4_0(const void *w, const float *x, float *y, size_t n_in,
    size_t n_out)
{
	matvec_feed(kernel_dot_q4_0, GGML_BLCK_Q4_0, GGML_SIZE_Q4_0, w, x, y,
	    n_in, n_out);
}

void
kernel_matvec_feed_q8_0(const void *w, const float *x, float *y, size_t n_in,
    size_t n_out)
{
	matvec_feed(kernel_dot_q8_0, GGML_BLCK_Q8_0, GGML_SIZE_Q8_0, w, x, y,
	    n_in, n_out);
}
