/*
 * kernels-impl.h - what the kernel files share and only they see: the
 * little-endian field readers and the prototypes of every kernel the
 * registry (registry.c) lists. Block geometry is the type table's
 * (ggml-types.h's GGML_BLCK_ and GGML_SIZE_ constants), the fp16
 * conversions fp16.h's.
 *
 * Fields are assembled from bytes, so a kernel works on any host byte order
 * and at any alignment (no pointer casts: the tests run under UBSan).
 */
#ifndef GGUFLINT_KERNELS_IMPL_H
#define GGUFLINT_KERNELS_IMPL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "fp16.h"
#include "ggml-types.h"
#include "kernels.h"

/*
 * KERNEL_CLONES: build a kernel twice, for AVX2 and for the baseline, and
 * pick one at load time (ifunc). The compiler vectorizes the simple loops
 * of the dequantizers for each; with -ffp-contract=off and no reassociation
 * both give the same bits. GCC on x86-64 Linux (glibc's ifuncs) only, and
 * not under ASan or TSan (an instrumented resolver runs before the
 * sanitizer's runtime is up: TSan's crashes at load); clang would want
 * the attribute on every declaration.
 */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && \
    defined(__linux__) && !defined(__SANITIZE_ADDRESS__) && \
    !defined(__SANITIZE_THREAD__)
#define KERNEL_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define KERNEL_CLONES
#endif

/* kernel_le16: the little-endian u16 at p. */
static inline uint16_t
kernel_le16(const uint8_t *p)
{
	return (uint16_t)(p[0] | (unsigned)p[1] << 8);
}

/* kernel_le32: the little-endian u32 at p. */
static inline uint32_t
kernel_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	    (uint32_t)p[3] << 24;
}

/* kernel_half: the little-endian fp16 at p, as f32. */
static inline float
kernel_half(const uint8_t *p)
{
	return kernel_fp16_to_f32(kernel_le16(p));
}

/* kernel_f32_bits: the f32 whose bit pattern is u. */
static inline float
kernel_f32_bits(uint32_t u)
{
	float f;

	memcpy(&f, &u, sizeof f);
	return f;
}

/*
 * The kernels, each as struct kernel's dequant or dot (kernels.h) for the
 * type its name says: n a multiple of the type's block size (asserted),
 * row kernel_row_bytes(type, n) bytes at any alignment.
 */

/* float.c */
void kernel_dequant_f32(const void *row, float *out, size_t n);
float kernel_dot_f32(const void *row, const float *x, size_t n);
void kernel_dequant_f16(const void *row, float *out, size_t n);
float kernel_dot_f16(const void *row, const float *x, size_t n);
void kernel_dequant_bf16(const void *row, float *out, size_t n);
float kernel_dot_bf16(const void *row, const float *x, size_t n);

/* legacy.c */
void kernel_dequant_q4_0(const void *row, float *out, size_t n);
float kernel_dot_q4_0(const void *row, const float *x, size_t n);
void kernel_dequant_q4_1(const void *row, float *out, size_t n);
float kernel_dot_q4_1(const void *row, const float *x, size_t n);
void kernel_dequant_q5_0(const void *row, float *out, size_t n);
float kernel_dot_q5_0(const void *row, const float *x, size_t n);
void kernel_dequant_q5_1(const void *row, float *out, size_t n);
float kernel_dot_q5_1(const void *row, const float *x, size_t n);
void kernel_dequant_q8_0(const void *row, float *out, size_t n);
float kernel_dot_q8_0(const void *row, const float *x, size_t n);
void kernel_dequant_q1_0(const void *row, float *out, size_t n);
float kernel_dot_q1_0(const void *row, const float *x, size_t n);
void kernel_dequant_q2_0(const void *row, float *out, size_t n);
float kernel_dot_q2_0(const void *row, const float *x, size_t n);

/* kquants.c */
void kernel_dequant_q2_K(const void *row, float *out, size_t n);
float kernel_dot_q2_K(const void *row, const float *x, size_t n);
void kernel_dequant_q3_K(const void *row, float *out, size_t n);
float kernel_dot_q3_K(const void *row, const float *x, size_t n);
void kernel_dequant_q4_K(const void *row, float *out, size_t n);
float kernel_dot_q4_K(const void *row, const float *x, size_t n);
void kernel_dequant_q5_K(const void *row, float *out, size_t n);
float kernel_dot_q5_K(const void *row, const float *x, size_t n);
void kernel_dequant_q6_K(const void *row, float *out, size_t n);
float kernel_dot_q6_K(const void *row, const float *x, size_t n);

/* iquants.c */
void kernel_dequant_iq4_nl(const void *row, float *out, size_t n);
float kernel_dot_iq4_nl(const void *row, const float *x, size_t n);
void kernel_dequant_iq4_xs(const void *row, float *out, size_t n);
float kernel_dot_iq4_xs(const void *row, const float *x, size_t n);
void kernel_dequant_iq2_xxs(const void *row, float *out, size_t n);
float kernel_dot_iq2_xxs(const void *row, const float *x, size_t n);
void kernel_dequant_iq2_xs(const void *row, float *out, size_t n);
float kernel_dot_iq2_xs(const void *row, const float *x, size_t n);
void kernel_dequant_iq2_s(const void *row, float *out, size_t n);
float kernel_dot_iq2_s(const void *row, const float *x, size_t n);
void kernel_dequant_iq3_xxs(const void *row, float *out, size_t n);
float kernel_dot_iq3_xxs(const void *row, const float *x, size_t n);
void kernel_dequant_iq3_s(const void *row, float *out, size_t n);
float kernel_dot_iq3_s(const void *row, const float *x, size_t n);
void kernel_dequant_iq1_s(const void *row, float *out, size_t n);
float kernel_dot_iq1_s(const void *row, const float *x, size_t n);
void kernel_dequant_iq1_m(const void *row, float *out, size_t n);
float kernel_dot_iq1_m(const void *row, const float *x, size_t n);

/*
 * iq-grids.c: the grids of the grid i-quants, a u16 of level codes a
 * point (the file says how they are packed).
 */
extern const uint16_t kernel_grid_iq2xxs[256];
extern const uint16_t kernel_grid_iq2xs[512];
extern const uint16_t kernel_grid_iq2s[1024];
extern const uint16_t kernel_grid_iq3xxs[256];
extern const uint16_t kernel_grid_iq3s[512];
extern const uint16_t kernel_grid_iq1s[2048];

/*
 * kernel_iq1_m_d_bits: the fp16 scale of the IQ1_M block at b, which has
 * no field of its own: its 4 nibbles, lowest first, are the top nibbles of
 * the block's 4 little-endian u16 sub-block scales (@48).
 */
static inline uint16_t
kernel_iq1_m_d_bits(const uint8_t *b)
{
	return (uint16_t)(kernel_le16(b + 48) >> 12 |
	    (kernel_le16(b + 50) >> 12) << 4 |
	    (kernel_le16(b + 52) >> 12) << 8 |
	    (kernel_le16(b + 54) >> 12) << 12);
}

/* ternary.c */
void kernel_dequant_tq1_0(const void *row, float *out, size_t n);
float kernel_dot_tq1_0(const void *row, const float *x, size_t n);
void kernel_dequant_tq2_0(const void *row, float *out, size_t n);
float kernel_dot_tq2_0(const void *row, const float *x, size_t n);

/* fp4.c */
void kernel_dequant_mxfp4(const void *row, float *out, size_t n);
float kernel_dot_mxfp4(const void *row, const float *x, size_t n);
void kernel_dequant_nvfp4(const void *row, float *out, size_t n);
float kernel_dot_nvfp4(const void *row, const float *x, size_t n);
/*
 * The MXFP4 and NVFP4 screens (fp4.c; kernel_screen dispatches to them):
 * add to *s, as kernel_screen does, what the whole blocks at b (blocks
 * of them) hold.
 */
void kernel_screen_mxfp4(const uint8_t *b, size_t blocks,
    struct kernel_screen *s);
void kernel_screen_nvfp4(const uint8_t *b, size_t blocks,
    struct kernel_screen *s);

/*
 * feed.c: kernel-feed (input-block-major) matrix kernels, as struct
 * kernel's matvec: n_in a multiple of the block size.
 */
void kernel_matvec_feed_q4_0(const void *w, const float *x, float *y,
    size_t n_in, size_t n_out);
void kernel_matvec_feed_q8_0(const void *w, const float *x, float *y,
    size_t n_in, size_t n_out);

#endif
