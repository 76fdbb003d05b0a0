/*
 * kernels.h - the real kernels gguflint runs to verify a capability table's
 * claims: for each weight encoding, a dequantizer (one row of blocks to f32)
 * and a dot product of one quantized row with an f32 vector computed on the
 * blocks themselves, plus the reference they are checked against.
 *
 * Every kernel reads the blocks as stored in a GGUF file (little-endian,
 * packed, no alignment assumed) and is listed once in the registry
 * kernels[]: a plain array that grep can find, searched by (operation,
 * encoding, byte order) or by name ("q4_K.dot.scalar").
 *
 * The dequantizers reproduce ggml's C dequantizers bit for bit when the
 * files are compiled with -ffp-contract=off (y = d*q + m must be two
 * roundings, not one fused multiply-add).
 *
 * A type is a ggml type id (ggml-types.h's GGML_TYPE_*), whose block
 * geometry the type table gives; the registry is the one list of the types
 * that have kernels. Nothing here allocates: every buffer is the caller's.
 * The library (kernels/: this, fp16.h and ggml-types.h) includes nothing
 * from src/: it stands on its own.
 */
#ifndef GGUFLINT_KERNELS_H
#define GGUFLINT_KERNELS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ggml-types.h"

enum kernel_op {
	KERNEL_DEQUANT,		/* a row of blocks to f32 */
	KERNEL_DOT		/* a row of blocks times an f32 vector */
};

enum kernel_order {
	KERNEL_ORDER_AS_STORED,	/* canonical row-major blocks, as in GGUF */
	KERNEL_ORDER_KERNEL_FEED	/* repacked for a backend's kernel */
};

/*
 * struct kernel: one registry entry. Exactly one of dequant and dot is set,
 * as op says. Both take n, the number of elements of the row, which must be
 * a multiple of the encoding's block size (a bug otherwise: asserted); row
 * points to kernel_row_bytes(type, n) bytes with any alignment.
 *  - dequant writes n floats to out;
 *  - dot returns sum(w[i] * x[i]) over the row's values w and x[0..n).
 */
struct kernel {
	const char *name;	/* "<type>.<op>.<variant>": "q4_K.dot.scalar" */
	enum kernel_op op;
	uint32_t type;		/* ggml type id of the weights */
	enum kernel_order order;
	void (*dequant)(const void *row, float *out, size_t n);
	float (*dot)(const void *row, const float *x, size_t n);
	/*
	 * Kernel-feed dot kernels multiply a whole matrix held in
	 * input-block-major order (kernel_relayout_feed): y[o] for the n_out
	 * rows of n_in elements. Set instead of dot when order is
	 * KERNEL_ORDER_KERNEL_FEED.
	 */
	void (*matvec)(const void *w, const float *x, float *y, size_t n_in,
	    size_t n_out);
};

/* The registry, terminated by an entry whose name is NULL. */
extern const struct kernel kernels[];

/*
 * kernel_find: the first registry entry for (op, type, order) (static), or
 * NULL when none.
 */
const struct kernel *kernel_find(enum kernel_op op, uint32_t type,
    enum kernel_order order);

/* kernel_by_name: the registry entry with this exact name, or NULL. */
const struct kernel *kernel_by_name(const char *name);

/*
 * kernel_row_bytes: bytes of a row of n elements of type, from ggml's block
 * geometry. 0 when the type is unknown or removed, when n is not a multiple
 * of its block size, or when the size does not fit in size_t.
 */
size_t kernel_row_bytes(uint32_t type, size_t n);

/*
 * kernel_reference_dot: the reference a dot kernel must agree with:
 * dequantize the row with the type's as-stored dequantize kernel into
 * scratch (n floats, the caller's), then sum (double)w[i] * (double)x[i] in
 * double. NaN when the registry has no dequantize kernel for type.
 */
double kernel_reference_dot(uint32_t type, const void *row, const float *x,
    size_t n, float *scratch);

/*
 * kernel_relayout_feed: copy a matrix of n_out rows of n_in elements of
 * type from as-stored order (block b of row o at o * blocks_per_row + b) to
 * kernel-feed order (at b * n_out + o), the input-block-major layout a
 * repacking backend feeds its kernels. src and dst (the caller's, not
 * overlapping) hold n_out rows of kernel_row_bytes(type, n_in) bytes.
 * Returns 0, or -1, writing nothing, when type has no block geometry or
 * n_in is not a multiple of its block size.
 */
int kernel_relayout_feed(uint32_t type, const void *src, void *dst,
    size_t n_in, size_t n_out);

/*
 * The screens: what the D rules need to know of a row's values, from the
 * blocks' fp16 factors (MXFP4: E8M0 scales) alone (the float types: from
 * each value's bits), without decoding it. kernel_screen adds what a row
 * of n elements of type holds to *s (start from a zeroed one):
 *  - nonfinite: how many of its values the dequantizer makes NaN or
 *    infinite (and kernel_mark_invalid NaN). Exact: a block's values all
 *    are when one of its fp16 factors is, and none are otherwise;
 *  - bound: no finite value's magnitude exceeds it (for the float types it
 *    is the largest magnitude);
 *  - maybe_nonzero false: every finite value is zero; nonzero true: some
 *    value is known not to be (only the float types can tell).
 * Returns false, leaving *s alone, when type has no screen or n is not a
 * multiple of its block size. kernel_screen_has says whether it has one.
 * The contract, the same on every block, is checked against the
 * dequantizers in the tests.
 */
struct kernel_screen {
	uint64_t nonfinite;
	double bound;
	bool maybe_nonzero, nonzero;
};

bool kernel_screen(uint32_t type, const void *row, size_t n,
    struct kernel_screen *s);

/* kernel_screen_has: whether kernel_screen screens rows of type. */
bool kernel_screen_has(uint32_t type);

/*
 * The zero-scale blocks: blocks whose fp16 scale d is zero (plus or
 * minus), so that the bytes it multiplies (the quants, and a k-quant's
 * sub-block scales) reach no value. kernel_zero_scale adds to *z (start
 * from a zeroed one), for a row of n elements of type:
 *  - benign: such blocks whose bytes under d are all zero, or all at the
 *    level nearest zero (what ggml's quantizers write for zeros);
 *  - hidden: such blocks whose bytes under d hold anything else: data no
 *    inference sees.
 * Returns false, leaving *z alone, when type has no such layout (only
 * q4_0, q4_1, q5_0, q5_1, q8_0, q8_1, q1_0, q2_0, q2_K to q6_K, iq4_nl,
 * iq4_xs, tq1_0 and tq2_0 have) or n is not a multiple of its block
 * size. row holds kernel_row_bytes(type,
 * n) bytes, little-endian (the layout every kernel reads).
 */
struct kernel_zero_scale {
	uint64_t hidden, benign;	/* blocks */
};

bool kernel_zero_scale(uint32_t type, const void *row, size_t n,
    struct kernel_zero_scale *z);

/* kernel_zero_scale_has: whether kernel_zero_scale reads rows of type. */
bool kernel_zero_scale_has(uint32_t type);

/*
 * kernel_fp16_factors: where a block of type keeps its fp16 factors, the
 * ones the screens read: the byte offset of the scale d in off[0] and, for
 * a type with a minimum m, of m in off[1]. Returns how many it has (1 or
 * 2; the entries beyond are left alone), or 0 when they are not fp16 (the
 * float types, MXFP4, NVFP4), not at an offset of their own (IQ1_M, whose
 * d is split over the top nibbles of its scales) or type has no kernel.
 */
unsigned kernel_fp16_factors(uint32_t type, unsigned off[2]);

/*
 * kernel_mark_invalid: set to NaN the values out[0..n) of the blocks of a
 * dequantized row whose scale is invalid: MXFP4's E8M0 0xFF, which is NaN
 * but which the dequantizer decodes as ggml does (2^127). Other types have
 * no invalid scale bytes; their rows are left alone.
 */
void kernel_mark_invalid(uint32_t type, const void *row, float *out,
    size_t n);

/*
 * kernel_from_be: copy a row of n elements of type from a big-endian GGUF
 * file (src) to dst in the little-endian layout every kernel reads, by the
 * byte order gguf-py's gguf-convert-endian defines: the elements of F32,
 * F16 and BF16, and the fp16 factors of Q4_0, Q8_0, Q4_K and Q6_K, swapped;
 * MXFP4 as it is. Returns false, writing nothing, for any other type (a
 * big-endian layout nobody defines) or an n that is not a multiple of the
 * block size. src and dst hold kernel_row_bytes(type, n) bytes and must
 * not overlap.
 */
bool kernel_from_be(uint32_t type, const void *src, void *dst, size_t n);

/* kernel_be_known: whether kernel_from_be converts rows of type. */
bool kernel_be_known(uint32_t type);

#endif
