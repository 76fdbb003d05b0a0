/*
 * fp16.h - IEEE binary16 and bfloat16 to and from f32: the conversions the
 * kernels read their fp16 scales and values with, and the rest of gguflint
 * (the capability probe, the tests) builds such values with. Functions of
 * bit patterns: no state, no allocation, no failure.
 *
 * The two decoders are C11 inline definitions, so that a kernel's loop can
 * inline them (fp16.c holds their external definitions); the encoders are
 * plain functions.
 */
#ifndef GGUFLINT_FP16_H
#define GGUFLINT_FP16_H

#include <stdint.h>
#include <string.h>

/*
 * kernel_fp16_to_f32: the value of binary16 bits h, exactly (subnormals,
 * infinities and NaN payloads kept).
 */
inline float
kernel_fp16_to_f32(uint16_t h)
{
	uint32_t sign = (uint32_t)(h & 0x8000) << 16;
	uint32_t exp = (h >> 10) & 0x1f;
	uint32_t man = h & 0x3ff;
	uint32_t bits;
	float f;

	if (exp == 0) {
		if (man == 0) {
			memcpy(&f, &sign, sizeof f);
			return f;
		}
		/* subnormal: man * 2^-24, exact in f32 */
		f = (float)man * 0x1p-24f;
		memcpy(&bits, &f, sizeof bits);
		bits |= sign;
	} else if (exp == 31)
		bits = sign | 0x7f800000u | man << 13;	/* inf, NaN payload */
	else
		bits = sign | (exp + 112) << 23 | man << 13;
	memcpy(&f, &bits, sizeof f);
	return f;
}

/*
 * kernel_bf16_to_f32: the value of bfloat16 bits b, exactly (the high half
 * of an f32).
 */
inline float
kernel_bf16_to_f32(uint16_t b)
{
	uint32_t bits = (uint32_t)b << 16;
	float f;

	memcpy(&f, &bits, sizeof f);
	return f;
}

/*
 * kernel_f32_to_fp16: the binary16 bits nearest f, ties to even; beyond the
 * largest finite value, an infinity of f's sign; a NaN stays a NaN.
 */
uint16_t kernel_f32_to_fp16(float f);

/*
 * kernel_f32_to_bf16: the bfloat16 bits nearest f, ties to even (overflow
 * gives an infinity); a NaN stays a NaN.
 */
uint16_t kernel_f32_to_bf16(float f);

#endif
