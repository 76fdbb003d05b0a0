/*
 * ggml-types.c - the ggml type table (see ggml-types.h): a row per id, its
 * block geometry the constants of ggml-types.h (which the kernels use), so
 * that no id, name or size is written twice.
 */
#include "config.h"

#include <stdio.h>
#include <strings.h>

#include "ggml-types.h"

#define OK GGML_TYPE_OK
#define INTERNAL GGML_TYPE_INTERNAL
#define RECENT GGML_TYPE_RECENT
#define REMOVED GGML_TYPE_REMOVED

/* A defined type's row, at its id, with its geometry; a removed one's. */
#define TYPE(t, name, status, note) \
	[GGML_TYPE_##t] = { GGML_TYPE_##t, (name), GGML_BLCK_##t, \
	    GGML_SIZE_##t, (status), (note) }
#define REMOVED_TYPE(t, name, note) \
	[GGML_TYPE_##t] = { GGML_TYPE_##t, (name), 0, 0, REMOVED, (note) }

static const struct ggml_type_info ggml_types[GGML_TYPE_COUNT] = {
	TYPE(F32, "f32", OK, NULL),
	TYPE(F16, "f16", OK, NULL),
	TYPE(Q4_0, "q4_0", OK, NULL),
	TYPE(Q4_1, "q4_1", OK, NULL),
	REMOVED_TYPE(Q4_2, "q4_2", "Q4_2, removed from ggml in 2023"),
	REMOVED_TYPE(Q4_3, "q4_3", "Q4_3, removed from ggml in 2023"),
	TYPE(Q5_0, "q5_0", OK, NULL),
	TYPE(Q5_1, "q5_1", OK, NULL),
	TYPE(Q8_0, "q8_0", OK, NULL),
	TYPE(Q8_1, "q8_1", INTERNAL, "an activation type used inside "
	    "ggml's dot products"),
	TYPE(Q2_K, "q2_K", OK, NULL),
	TYPE(Q3_K, "q3_K", OK, NULL),
	TYPE(Q4_K, "q4_K", OK, NULL),
	TYPE(Q5_K, "q5_K", OK, NULL),
	TYPE(Q6_K, "q6_K", OK, NULL),
	TYPE(Q8_K, "q8_K", INTERNAL, "an activation type used inside "
	    "ggml's k-quant dot products"),
	TYPE(IQ2_XXS, "iq2_xxs", OK, NULL),
	TYPE(IQ2_XS, "iq2_xs", OK, NULL),
	TYPE(IQ3_XXS, "iq3_xxs", OK, NULL),
	TYPE(IQ1_S, "iq1_s", OK, NULL),
	TYPE(IQ4_NL, "iq4_nl", OK, NULL),
	TYPE(IQ3_S, "iq3_s", OK, NULL),
	TYPE(IQ2_S, "iq2_s", OK, NULL),
	TYPE(IQ4_XS, "iq4_xs", OK, NULL),
	TYPE(I8, "i8", OK, NULL),
	TYPE(I16, "i16", OK, NULL),
	TYPE(I32, "i32", OK, NULL),
	TYPE(I64, "i64", OK, NULL),
	TYPE(F64, "f64", OK, NULL),
	TYPE(IQ1_M, "iq1_m", OK, NULL),
	TYPE(BF16, "bf16", OK, NULL),
	REMOVED_TYPE(Q4_0_4_4, "q4_0_4_4", "Q4_0_4_4, removed from GGUF in "
	    "favour of Q4_0 with runtime repacking; still live in "
	    "ik_llama.cpp"),
	REMOVED_TYPE(Q4_0_4_8, "q4_0_4_8", "Q4_0_4_8, removed from GGUF in "
	    "favour of Q4_0 with runtime repacking; still live in "
	    "ik_llama.cpp"),
	REMOVED_TYPE(Q4_0_8_8, "q4_0_8_8", "Q4_0_8_8, removed from GGUF in "
	    "favour of Q4_0 with runtime repacking; still live in "
	    "ik_llama.cpp"),
	TYPE(TQ1_0, "tq1_0", OK, "IQ1_BN in old ik_llama.cpp headers"),
	TYPE(TQ2_0, "tq2_0", OK, "IQ2_BN in old ik_llama.cpp headers"),
	REMOVED_TYPE(IQ4_NL_4_4, "iq4_nl_4_4", "IQ4_NL_4_4, removed in "
	    "favour of IQ4_NL with runtime repacking; I2_S in BitNet.cpp and "
	    "ik_llama.cpp"),
	REMOVED_TYPE(IQ4_NL_4_8, "iq4_nl_4_8", "IQ4_NL_4_8, removed in "
	    "favour of IQ4_NL with runtime repacking"),
	REMOVED_TYPE(IQ4_NL_8_8, "iq4_nl_8_8", "IQ4_NL_8_8, removed in "
	    "favour of IQ4_NL with runtime repacking"),
	TYPE(MXFP4, "mxfp4", OK, NULL),
	TYPE(NVFP4, "nvfp4", RECENT, "added to ggml in 2026"),
	TYPE(Q1_0, "q1_0", RECENT, "added to ggml in 2026; Q1_0_G128 "
	    "in ik_llama.cpp"),
	TYPE(Q2_0, "q2_0", RECENT, "added to ggml in 2026"),
};

/* Ids used by forks beyond upstream's range (gguf-format.md §3.2). */
static const struct {
	uint32_t lo, hi;
	const char *note;
} ggml_fork_ids[] = {
	{ 97, 99, "ik_llama.cpp Q8_0_X4/Q8_1_X4/Q8_2_X4" },
	{ 133, 133, "ik_llama.cpp Q6_0" },
	{ 134, 135, "ik_llama.cpp IQ1_BN/IQ2_BN" },
	{ 136, 136, "ik_llama.cpp Q8_K64" },
	{ 137, 141, "ik_llama.cpp IQ2_K..IQ6_K" },
	{ 144, 146, "ik_llama.cpp IQ4_KS/IQ2_KS/IQ4_KSS" },
	{ 152, 152, "ik_llama.cpp IQ5_KS" },
	{ 153, 155, "ik_llama.cpp IQ2_KT/IQ3_KT/IQ4_KT" },
	{ 156, 156, "ik_llama.cpp IQ3_KS" },
	{ 157, 157, "ik_llama.cpp IQ2_KL" },
	{ 158, 158, "ik_llama.cpp IQ1_KT" },
	{ 202, 399, "an ik_llama.cpp repacked _R4/_R8/_R16 type" },
};

const struct ggml_type_info *
ggml_type_get(uint32_t id)
{
	if (id >= GGML_TYPE_COUNT)
		return NULL;
	return &ggml_types[id];
}

const char *
ggml_type_fork_note(uint32_t id)
{
	size_t i;

	for (i = 0; i < sizeof ggml_fork_ids / sizeof ggml_fork_ids[0]; i++)
		if (id >= ggml_fork_ids[i].lo && id <= ggml_fork_ids[i].hi)
			return ggml_fork_ids[i].note;
	return NULL;
}

const char *
ggml_type_name(uint32_t id, char *buf, unsigned bufsz)
{
	const struct ggml_type_info *t = ggml_type_get(id);

	if (t != NULL)
		return t->name;
	snprintf(buf, bufsz, "type%u", id);
	return buf;
}

int
ggml_type_parse(const char *name, uint32_t *out)
{
	uint32_t i;

	for (i = 0; i < GGML_TYPE_COUNT; i++) {
		if (ggml_types[i].status != GGML_TYPE_REMOVED &&
		    strcasecmp(ggml_types[i].name, name) == 0) {
			*out = i;
			return 0;
		}
	}
	return -1;
}
