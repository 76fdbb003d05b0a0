/*
 * float.c - kernels for the unquantized encodings F32, F16 and BF16, and
 * the fp16/bf16 conversions every other kernel file uses for its scales.
 *
 * The conversions to f32 are exact. The dot products sum 32 products at a
 * time in float and the partial sums in double.
 */
#include "kernels-impl.h"

#define FLOAT_CHUNK 32		/* products summed in float before the total */

float
kernel_fp16_to_f32(uint16_t h)
{
	uint32_t sign = (uint32_t)(h & 0x8000) << 16;
	uint32_t exp = (h >> 10) & 0x1f;
	uint32_t man = h & 0x3ff;
	uint32_t bits;

	if (exp == 0) {
		float v;

		if (man == 0)
			return kernel_f32_bits(sign);
		/* subnormal: man * 2^-24, exact in f32 */
		v = (float)man * kernel_f32_bits(0x33800000u);
		memcpy(&bits, &v, sizeof bits);
		return kernel_f32_bits(bits | sign);
	}
	if (exp == 31)
		bits = sign | 0x7f800000u | man << 13;	/* inf, NaN payload */
	else
		bits = sign | (exp + 112) << 23 | man << 13;
	return kernel_f32_bits(bits);
}

float
kernel_bf16_to_f32(uint16_t b)
{
	return kernel_f32_bits((uint32_t)b << 16);
}

uint16_t
kernel_f32_to_fp16(float f)
{
	uint32_t u, exp, man, m, q, rem, half, shift;
	uint16_t sign;

	memcpy(&u, &f, sizeof u);
	sign = (uint16_t)((u >> 16) & 0x8000);
	exp = (u >> 23) & 0xff;
	man = u & 0x7fffff;
	if (exp == 255)
		return (uint16_t)(sign | 0x7c00 |
		    (man ? 0x200 | man >> 13 : 0));
	if (exp > 112) {
		/* normal in fp16 unless it overflows */
		if (exp - 112 >= 31)
			return (uint16_t)(sign | 0x7c00);
		q = (exp - 112) << 10 | man >> 13;
		rem = man & 0x1fff;
		if (rem > 0x1000 || (rem == 0x1000 && (q & 1)))
			q++;		/* a carry into the exponent is right */
		if (q >= 0x7c00)
			q = 0x7c00;
		return (uint16_t)(sign | q);
	}
	if (exp == 0)
		return sign;	/* f32 subnormals are far below fp16's */
	/* fp16 subnormal: (man | 2^23) * 2^(exp - 126) units of 2^-24 */
	shift = 126 - exp;
	if (shift > 24)
		return sign;
	m = man | 0x800000;
	q = m >> shift;
	rem = m & ((1u << shift) - 1);
	half = 1u << (shift - 1);
	if (rem > half || (rem == half && (q & 1)))
		q++;
	return (uint16_t)(sign | q);
}

uint16_t
kernel_f32_to_bf16(float f)
{
	uint32_t u;

	memcpy(&u, &f, sizeof u);
	if ((u & 0x7fffffff) > 0x7f800000)
		return (uint16_t)(u >> 16 | 0x40);	/* keep it a NaN */
	return (uint16_t)((u + 0x7fff + ((u >> 16) & 1)) >> 16);
}

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
