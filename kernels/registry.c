/*
 * registry.c - the kernel registry (see kernels.h): one entry per kernel,
 * found by (operation, encoding, byte order) or by name, and the reference
 * every dot kernel is checked against.
 *
 * Adding a kernel: write it in the file of its encoding family (its
 * geometry the type table's constants, ggml-types.h), declare it in
 * kernels-impl.h, list it here, and give its type a screen (screen.c: the
 * tests ask every dequantizer for one). Names are "<ggml type name>.<op>.
 * <variant>" (the tests check the type name against the table); the
 * variant of the portable C kernels is "scalar".
 */
#include <math.h>
#include <string.h>

#include "kernels-impl.h"

/*
 * SCALAR(t, T): the portable dequantize and dot kernels of type t (its
 * table name; T the same in capitals, as the GGML_TYPE_ ids spell it).
 * FEED(t, T): its kernel-feed matrix kernel.
 */
#define SCALAR(t, T) \
	{ #t ".dequant.scalar", KERNEL_DEQUANT, GGML_TYPE_##T, \
	    KERNEL_ORDER_AS_STORED, kernel_dequant_##t, NULL, NULL }, \
	{ #t ".dot.scalar", KERNEL_DOT, GGML_TYPE_##T, \
	    KERNEL_ORDER_AS_STORED, NULL, kernel_dot_##t, NULL }
#define FEED(t, T) \
	{ #t ".matvec.feed", KERNEL_DOT, GGML_TYPE_##T, \
	    KERNEL_ORDER_KERNEL_FEED, NULL, NULL, kernel_matvec_feed_##t }

const struct kernel kernels[] = {
	SCALAR(f32, F32),
	SCALAR(f16, F16),
	SCALAR(bf16, BF16),

	SCALAR(q4_0, Q4_0),
	SCALAR(q4_1, Q4_1),
	SCALAR(q5_0, Q5_0),
	SCALAR(q5_1, Q5_1),
	SCALAR(q8_0, Q8_0),
	SCALAR(q1_0, Q1_0),
	SCALAR(q2_0, Q2_0),

	SCALAR(q2_K, Q2_K),
	SCALAR(q3_K, Q3_K),
	SCALAR(q4_K, Q4_K),
	SCALAR(q5_K, Q5_K),
	SCALAR(q6_K, Q6_K),

	SCALAR(iq4_nl, IQ4_NL),
	SCALAR(iq4_xs, IQ4_XS),
	SCALAR(iq2_xxs, IQ2_XXS),
	SCALAR(iq2_xs, IQ2_XS),
	SCALAR(iq2_s, IQ2_S),
	SCALAR(iq3_xxs, IQ3_XXS),
	SCALAR(iq3_s, IQ3_S),
	SCALAR(iq1_s, IQ1_S),
	SCALAR(iq1_m, IQ1_M),

	SCALAR(tq1_0, TQ1_0),
	SCALAR(tq2_0, TQ2_0),

	SCALAR(mxfp4, MXFP4),
	SCALAR(nvfp4, NVFP4),

	FEED(q4_0, Q4_0),
	FEED(q8_0, Q8_0),

	{ NULL, KERNEL_DEQUANT, 0, KERNEL_ORDER_AS_STORED, NULL, NULL, NULL }
};

const struct kernel *
kernel_find(enum kernel_op op, uint32_t type, enum kernel_order order)
{
	const struct kernel *k;

	for (k = kernels; k->name != NULL; k++)
		if (k->op == op && k->type == type && k->order == order)
			return k;
	return NULL;
}

const struct kernel *
kernel_by_name(const char *name)
{
	const struct kernel *k;

	for (k = kernels; k->name != NULL; k++)
		if (strcmp(k->name, name) == 0)
			return k;
	return NULL;
}

size_t
kernel_row_bytes(uint32_t type, size_t n)
{
	const struct ggml_type_info *t = ggml_type_get(type);
	size_t bytes;

	if (t == NULL || t->blck == 0 || t->size == 0 || n % t->blck != 0)
		return 0;
	if (__builtin_mul_overflow(n / t->blck, (size_t)t->size, &bytes))
		return 0;
	return bytes;
}

double
kernel_reference_dot(uint32_t type, const void *row, const float *x,
    size_t n, float *scratch)
{
	const struct kernel *k = kernel_find(KERNEL_DEQUANT, type,
	    KERNEL_ORDER_AS_STORED);
	double sum = 0.0;
	size_t i;

	if (k == NULL)
		return NAN;
	k->dequant(row, scratch, n);
	for (i = 0; i < n; i++)
		sum += (double)scratch[i] * (double)x[i];
	return sum;
}
