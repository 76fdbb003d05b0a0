/*
 * fp16.c - binary16 and bfloat16 conversions (see fp16.h): the encoders,
 * rounding to nearest even on the f32 bits, and the decoders' external
 * definitions.
 */
#include "fp16.h"

/* The external definitions of the inline decoders. */
extern inline float kernel_fp16_to_f32(uint16_t h);
extern inline float kernel_bf16_to_f32(uint16_t b);

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
