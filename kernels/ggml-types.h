/*
 * ggml-types.h - the ggml tensor type table (ids 0..42 of upstream ggml),
 * with block geometry, plus what is known of removed and fork-only ids.
 *
 * This table is the single source of truth for type ids, names and sizes
 * in gguflint: the reader, the dump, the kernels and every later rule ask
 * it. The ids and the block geometry are constants here, so that the
 * table (ggml-types.c) and the kernels' compile-time strides are the same
 * numbers; everything else asks ggml_type_get.
 *
 * Adding a type: its id below, its GGML_BLCK_ and GGML_SIZE_ constants,
 * and its row in ggml-types.c (kernels for it: see registry.c).
 */
#ifndef GGUFLINT_GGML_TYPES_H
#define GGUFLINT_GGML_TYPES_H

#include <stdbool.h>
#include <stdint.h>

/* The ids of ggml.h's enum ggml_type, removed ones included. */
enum ggml_type_id {
	GGML_TYPE_F32 = 0,
	GGML_TYPE_F16 = 1,
	GGML_TYPE_Q4_0 = 2,
	GGML_TYPE_Q4_1 = 3,
	GGML_TYPE_Q4_2 = 4,		/* removed */
	GGML_TYPE_Q4_3 = 5,		/* removed */
	GGML_TYPE_Q5_0 = 6,
	GGML_TYPE_Q5_1 = 7,
	GGML_TYPE_Q8_0 = 8,
	GGML_TYPE_Q8_1 = 9,
	GGML_TYPE_Q2_K = 10,
	GGML_TYPE_Q3_K = 11,
	GGML_TYPE_Q4_K = 12,
	GGML_TYPE_Q5_K = 13,
	GGML_TYPE_Q6_K = 14,
	GGML_TYPE_Q8_K = 15,
	GGML_TYPE_IQ2_XXS = 16,
	GGML_TYPE_IQ2_XS = 17,
	GGML_TYPE_IQ3_XXS = 18,
	GGML_TYPE_IQ1_S = 19,
	GGML_TYPE_IQ4_NL = 20,
	GGML_TYPE_IQ3_S = 21,
	GGML_TYPE_IQ2_S = 22,
	GGML_TYPE_IQ4_XS = 23,
	GGML_TYPE_I8 = 24,
	GGML_TYPE_I16 = 25,
	GGML_TYPE_I32 = 26,
	GGML_TYPE_I64 = 27,
	GGML_TYPE_F64 = 28,
	GGML_TYPE_IQ1_M = 29,
	GGML_TYPE_BF16 = 30,
	GGML_TYPE_Q4_0_4_4 = 31,	/* removed */
	GGML_TYPE_Q4_0_4_8 = 32,	/* removed */
	GGML_TYPE_Q4_0_8_8 = 33,	/* removed */
	GGML_TYPE_TQ1_0 = 34,
	GGML_TYPE_TQ2_0 = 35,
	GGML_TYPE_IQ4_NL_4_4 = 36,	/* removed */
	GGML_TYPE_IQ4_NL_4_8 = 37,	/* removed */
	GGML_TYPE_IQ4_NL_8_8 = 38,	/* removed */
	GGML_TYPE_MXFP4 = 39,
	GGML_TYPE_NVFP4 = 40,
	GGML_TYPE_Q1_0 = 41,
	GGML_TYPE_Q2_0 = 42,
	GGML_TYPE_COUNT			/* one past the last id */
};

#define GGML_QK_K 256		/* elements of a k-quant super-block */

/*
 * Block geometry of every defined type: GGML_BLCK_ elements in a block of
 * GGML_SIZE_ bytes, as ggml's block structs define them (gguf-format.md
 * §3.1). Removed types have none (block size 0 in the table).
 */
enum ggml_block_geometry {
	GGML_BLCK_F32 = 1, GGML_SIZE_F32 = 4,
	GGML_BLCK_F16 = 1, GGML_SIZE_F16 = 2,
	GGML_BLCK_Q4_0 = 32, GGML_SIZE_Q4_0 = 18,
	GGML_BLCK_Q4_1 = 32, GGML_SIZE_Q4_1 = 20,
	GGML_BLCK_Q5_0 = 32, GGML_SIZE_Q5_0 = 22,
	GGML_BLCK_Q5_1 = 32, GGML_SIZE_Q5_1 = 24,
	GGML_BLCK_Q8_0 = 32, GGML_SIZE_Q8_0 = 34,
	GGML_BLCK_Q8_1 = 32, GGML_SIZE_Q8_1 = 36,
	GGML_BLCK_Q2_K = GGML_QK_K, GGML_SIZE_Q2_K = 84,
	GGML_BLCK_Q3_K = GGML_QK_K, GGML_SIZE_Q3_K = 110,
	GGML_BLCK_Q4_K = GGML_QK_K, GGML_SIZE_Q4_K = 144,
	GGML_BLCK_Q5_K = GGML_QK_K, GGML_SIZE_Q5_K = 176,
	GGML_BLCK_Q6_K = GGML_QK_K, GGML_SIZE_Q6_K = 210,
	GGML_BLCK_Q8_K = GGML_QK_K, GGML_SIZE_Q8_K = 292,
	GGML_BLCK_IQ2_XXS = GGML_QK_K, GGML_SIZE_IQ2_XXS = 66,
	GGML_BLCK_IQ2_XS = GGML_QK_K, GGML_SIZE_IQ2_XS = 74,
	GGML_BLCK_IQ3_XXS = GGML_QK_K, GGML_SIZE_IQ3_XXS = 98,
	GGML_BLCK_IQ1_S = GGML_QK_K, GGML_SIZE_IQ1_S = 50,
	GGML_BLCK_IQ4_NL = 32, GGML_SIZE_IQ4_NL = 18,
	GGML_BLCK_IQ3_S = GGML_QK_K, GGML_SIZE_IQ3_S = 110,
	GGML_BLCK_IQ2_S = GGML_QK_K, GGML_SIZE_IQ2_S = 82,
	GGML_BLCK_IQ4_XS = GGML_QK_K, GGML_SIZE_IQ4_XS = 136,
	GGML_BLCK_I8 = 1, GGML_SIZE_I8 = 1,
	GGML_BLCK_I16 = 1, GGML_SIZE_I16 = 2,
	GGML_BLCK_I32 = 1, GGML_SIZE_I32 = 4,
	GGML_BLCK_I64 = 1, GGML_SIZE_I64 = 8,
	GGML_BLCK_F64 = 1, GGML_SIZE_F64 = 8,
	GGML_BLCK_IQ1_M = GGML_QK_K, GGML_SIZE_IQ1_M = 56,
	GGML_BLCK_BF16 = 1, GGML_SIZE_BF16 = 2,
	GGML_BLCK_TQ1_0 = GGML_QK_K, GGML_SIZE_TQ1_0 = 54,
	GGML_BLCK_TQ2_0 = GGML_QK_K, GGML_SIZE_TQ2_0 = 66,
	GGML_BLCK_MXFP4 = 32, GGML_SIZE_MXFP4 = 17,
	GGML_BLCK_NVFP4 = 64, GGML_SIZE_NVFP4 = 36,
	GGML_BLCK_Q1_0 = 128, GGML_SIZE_Q1_0 = 18,
	GGML_BLCK_Q2_0 = 64, GGML_SIZE_Q2_0 = 18
};

enum ggml_type_status {
	GGML_TYPE_UNKNOWN = 0,	/* not defined by upstream ggml */
	GGML_TYPE_OK,		/* a storable type */
	GGML_TYPE_INTERNAL,	/* defined, but only used for activations */
	GGML_TYPE_RECENT,	/* added in 2026; older llama.cpp rejects it */
	GGML_TYPE_REMOVED	/* once defined, now block size 0 */
};

struct ggml_type_info {
	uint32_t id;
	const char *name;	/* lowercase ggml name, e.g. "q4_K" */
	uint32_t blck;		/* elements per block; 0 when removed */
	uint32_t size;		/* bytes per block; 0 when removed */
	enum ggml_type_status status;
	const char *note;	/* history or fork use of the id, or NULL */
};

/*
 * ggml_type_get: the table entry for id (static, never to be freed), or
 * NULL when upstream ggml does not define it (id >= GGML_TYPE_COUNT).
 */
const struct ggml_type_info *ggml_type_get(uint32_t id);

/*
 * ggml_type_fork_note: what forks use an id upstream does not define (a
 * static string), or NULL when no fork is known to.
 */
const char *ggml_type_fork_note(uint32_t id);

/*
 * ggml_type_name: the table's name of id (static), or, when upstream does
 * not define it, "type<id>" written to buf (bufsz >= 16 bytes) and buf.
 */
const char *ggml_type_name(uint32_t id, char *buf, unsigned bufsz);

/*
 * ggml_type_parse: 0 and the id in *out for the name of a defined type
 * that is not removed (compared in any case); -1, *out untouched, for any
 * other name.
 */
int ggml_type_parse(const char *name, uint32_t *out);

#endif
