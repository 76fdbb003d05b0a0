/*
 * registry.c - the kernel registry (see kernels.h): one entry per kernel,
 * found by (operation, encoding, byte order) or by name, and the reference
 * every dot kernel is checked against.
 *
 * Adding a kernel: write it in the file of its encoding family, declare it
 * in kernels-impl.h, and list it here. Names are "<ggml type name>.<op>.
 * <variant>"; the variant of the portable C kernels is "scalar".
 */
#include <math.h>
#include <string.h>

#include "ggml-types.h"
#include "kernels-impl.h"

#define DEQ(tname, id, fn) \
	{ tname ".dequant.scalar", KERNEL_DEQUANT, (id), \
	    KERNEL_ORDER_AS_STORED, (fn), NULL, NULL }
#define DOT(tname, id, fn) \
	{ tname ".dot.scalar", KERNEL_DOT, (id), \
	    KERNEL_ORDER_AS_STORED, NULL, (fn), NULL }
#define FEED(tname, id, fn) \
	{ tname ".matvec.feed", KERNEL_DOT, (id), \
	    KERNEL_ORDER_KERNEL_FEED, NULL, NULL, (fn) }

const struct kernel kernels[] = {
	DEQ("f32", KERNEL_TYPE_F32, kernel_dequant_f32),
	DOT("f32", KERNEL_TYPE_F32, kernel_dot_f32),
	DEQ("f16", KERNEL_TYPE_F16, kernel_dequant_f16),
	DOT("f16", KERNEL_TYPE_F16, kernel_dot_f16),
	DEQ("bf16", KERNEL_TYPE_BF16, kernel_dequant_bf16),
	DOT("bf16", KERNEL_TYPE_BF16, kernel_dot_bf16),

	DEQ("q4_0", KERNEL_TYPE_Q4_0, kernel_dequant_q4_0),
	DOT("q4_0", KERNEL_TYPE_Q4_0, kernel_dot_q4_0),
	DEQ("q4_1", KERNEL_TYPE_Q4_1, kernel_dequant_q4_1),
	DOT("q4_1", KERNEL_TYPE_Q4_1, kernel_dot_q4_1),
	DEQ("q5_0", KERNEL_TYPE_Q5_0, kernel_dequant_q5_0),
	DOT("q5_0", KERNEL_TYPE_Q5_0, kernel_dot_q5_0),
	DEQ("q5_1", KERNEL_TYPE_Q5_1, kernel_dequant_q5_1),
	DOT("q5_1", KERNEL_TYPE_Q5_1, kernel_dot_q5_1),
	DEQ("q8_0", KERNEL_TYPE_Q8_0, kernel_dequant_q8_0),
	DOT("q8_0", KERNEL_TYPE_Q8_0, kernel_dot_q8_0),
	DEQ("q1_0", KERNEL_TYPE_Q1_0, kernel_dequant_q1_0),
	DOT("q1_0", KERNEL_TYPE_Q1_0, kernel_dot_q1_0),
	DEQ("q2_0", KERNEL_TYPE_Q2_0, kernel_dequant_q2_0),
	DOT("q2_0", KERNEL_TYPE_Q2_0, kernel_dot_q2_0),

	DEQ("q2_K", KERNEL_TYPE_Q2_K, kernel_dequant_q2_K),
	DOT("q2_K", KERNEL_TYPE_Q2_K, kernel_dot_q2_K),
	DEQ("q3_K", KERNEL_TYPE_Q3_K, kernel_dequant_q3_K),
	DOT("q3_K", KERNEL_TYPE_Q3_K, kernel_dot_q3_K),
	DEQ("q4_K", KERNEL_TYPE_Q4_K, kernel_dequant_q4_K),
	DOT("q4_K", KERNEL_TYPE_Q4_K, kernel_dot_q4_K),
	DEQ("q5_K", KERNEL_TYPE_Q5_K, kernel_dequant_q5_K),
	DOT("q5_K", KERNEL_TYPE_Q5_K, kernel_dot_q5_K),
	DEQ("q6_K", KERNEL_TYPE_Q6_K, kernel_dequant_q6_K),
	DOT("q6_K", KERNEL_TYPE_Q6_K, kernel_dot_q6_K),

	DEQ("iq4_nl", KERNEL_TYPE_IQ4_NL, kernel_dequant_iq4_nl),
	DOT("iq4_nl", KERNEL_TYPE_IQ4_NL, kernel_dot_iq4_nl),
	DEQ("iq4_xs", KERNEL_TYPE_IQ4_XS, kernel_dequant_iq4_xs),
	DOT("iq4_xs", KERNEL_TYPE_IQ4_XS, kernel_dot_iq4_xs),

	DEQ("tq1_0", KERNEL_TYPE_TQ1_0, kernel_dequant_tq1_0),
	DOT("tq1_0", KERNEL_TYPE_TQ1_0, kernel_dot_tq1_0),
	DEQ("tq2_0", KERNEL_TYPE_TQ2_0, kernel_dequant_tq2_0),
	DOT("tq2_0", KERNEL_TYPE_TQ2_0, kernel_dot_tq2_0),

	DEQ("mxfp4", KERNEL_TYPE_MXFP4, kernel_dequant_mxfp4),
	DOT("mxfp4", KERNEL_TYPE_MXFP4, kernel_dot_mxfp4),
	DEQ("nvfp4", KERNEL_TYPE_NVFP4, kernel_dequant_nvfp4),
	DOT("nvfp4", KERNEL_TYPE_NVFP4, kernel_dot_nvfp4),

	FEED("q4_0", KERNEL_TYPE_Q4_0, kernel_matvec_feed_q4_0),
	FEED("q8_0", KERNEL_TYPE_Q8_0, kernel_matvec_feed_q8_0),

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
