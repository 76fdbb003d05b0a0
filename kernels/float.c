/*
 * float.c - kernels for the unquantized encodings F32, F16 and BF16 (the
 * conversions they use are fp16.c's).
 *
 * The dequantizers are exact. The dot products sum 32 products at a time in
 * float and the partial sums in double.
 */
#include "kernels-impl.h"

#define FLOAT_CHUNK 32		/* products summed in float before the total */

/* The loops read 4-byte f32 and 2-byte f16 and bf16 elements. */
_Static_assert(GGML_BLCK_F32 == 1 && GGML_SIZE_F32 == 4 &&
    GGML_BLCK_F16 == 1 && GGML_SIZE_F16 == 2 &&
    GGML_BLCK_BF16 == 1 && GGML_SIZE_BF16 == 2, "the float types' widths");

KERNEL_CLONES void
kernel_dequant_f32(const void *restrict row, float *restrict out, size_t n)
{
	const uint8_t *p = row;
	size_t i;

	for (i = 0; i < n; i++)
		out[i] = kernel_f32_bits(kernel_le32(p + 4 * i));
}

float
kernel_dot_f32(const void *row, const float *x, size_t n)
{
	const uint8_t *p = row;
	double acc = 0.0;
	size_t i, j;

	for (i = 0; i < n; i += FLOAT_CHUNK) {
		size_t end = n - i < FLOAT_CHUNK ? n : i + FLOAT_CHUNK;
		float s = 0.0f;

		for (j = i; j < end; j++)
			s += kernel_f32_bits(kernel_le32(p + 4 * j)) * x[j];
		acc += s;
	}
	return (float)acc;
}

KERNEL_CLONES void
kernel_dequant_f16(const void *restrict row, float *restrict out, size_t n)
{
	const uint8_t *p = row;
	size_t i;

	for (i = 0; i < n; i++)
		out[i] = kernel_half(p + 2 * i);
}

float
kernel_dot_f16(const void *row, const float *x, size_t n)
{
	const uint8_t *p = row;
	double acc = 0.0;
	size_t i, j;

	for (i = 0; i < n; i += FLOAT_CHUNK) {
		size_t end = n - i < FLOAT_CHUNK ? n : i + FLOAT_CHUNK;
		float s = 0.0f;

		for (j = i; j < end; j++)
			s += kernel_half(p + 2 * j) * x[j];
		acc += s;
	}
	return (float)acc;
}

KERNEL_CLONES void
kernel_dequant_bf16(const void *restrict row, float *restrict out, size_t n)
{
	const uint8_t *p = row;
	size_t i;

	for (i = 0; i < n; i++)
		out[i] = kernel_bf16_to_f32(kernel_le16(p + 2 * i));
}

float
kernel_dot_bf16(const void *row, const float *x, size_t n)
{
	const uint8_t *p = row;
	double acc = 0.0;
	size_t i, j;

	for (i = 0; i < n; i += FLOAT_CHUNK) {
		size_t end = n - i < FLOAT_CHUNK ? n : i + FLOAT_CHUNK;
		float s = 0.0f;

		for (j = i; j < end; j++)
			s += kernel_bf16_to_f32(kernel_le16(p + 2 * j)) * x[j];
		acc += s;
	}
	return (float)acc;
}
