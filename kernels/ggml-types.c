/*
 * ggml-types.c - the ggml type table (see ggml-types.h). Sizes are the bytes
 * of one block as ggml's block structs define them (gguf-format.md §3.1).
 */
#include "config.h"

#include <stdio.h>
#include <strings.h>

#include "ggml-types.h"

#define OK GGML_TYPE_OK
#define INTERNAL GGML_TYPE_INTERNAL
#define RECENT GGML_TYPE_RECENT
#define REMOVED GGML_TYPE_REMOVED

static const struct ggml_type_info ggml_types[GGML_TYPE_COUNT] = {
	{ 0, "f32", 1, 4, OK, NULL },
	{ 1, "f16", 1, 2, OK, NULL },
	{ 2, "q4_0", 32, 18, OK, NULL },
	{ 3, "q4_1", 32, 20, OK, NULL },
	{ 4, "q4_2", 0, 0, REMOVED, "Q4_2, removed from ggml in 2023" },
	{ 5, "q4_3", 0, 0, REMOVED, "Q4_3, removed from ggml in 2023" },
	{ 6, "q5_0", 32, 22, OK, NULL },
	{ 7, "q5_1", 32, 24, OK, NULL },
	{ 8, "q8_0", 32, 34, OK, NULL },
	{ 9, "q8_1", 32, 36, INTERNAL, "an activation type used inside "
	    "ggml's dot products" },
	{ 10, "q2_K", 256, 84, OK, NULL },
	{ 11, "q3_K", 256, 110, OK, NULL },
	{ 12, "q4_K", 256, 144, OK, NULL },
	{ 13, "q5_K", 256, 176, OK, NULL },
	{ 14, "q6_K", 256, 210, OK, NULL },
	{ 15, "q8_K", 256, 292, INTERNAL, "an activation type used inside "
	    "ggml's k-quant dot products" },
	{ 16, "iq2_xxs", 256, 66, OK, NULL },
	{ 17, "iq2_xs", 256, 74, OK, NULL },
	{ 18, "iq3_xxs", 256, 98, OK, NULL },
	{ 19, "iq1_s", 256, 50, OK, NULL },
	{ 20, "iq4_nl", 32, 18, OK, NULL },
	{ 21, "iq3_s", 256, 110, OK, NULL },
	{ 22, "iq2_s", 256, 82, OK, NULL },
	{ 23, "iq4_xs", 256, 136, OK, NULL },
	{ 24, "i8", 1, 1, OK, NULL },
	{ 25, "i16", 1, 2, OK, NULL },
	{ 26, "i32", 1, 4, OK, NULL },
	{ 27, "i64", 1, 8, OK, NULL },
	{ 28, "f64", 1, 8, OK, NULL },
	{ 29, "iq1_m", 256, 56, OK, NULL },
	{ 30, "bf16", 1, 2, OK, NULL },
	{ 31, "q4_0_4_4", 0, 0, REMOVED, "Q4_0_4_4, removed from GGUF in "
	    "favour of Q4_0 with runtime repacking; still live in ik_llama.cpp" },
	{ 32, "q4_0_4_8", 0, 0, REMOVED, "Q4_0_4_8, removed from GGUF in "
	    "favour of Q4_0 with runtime repacking; still live in ik_llama.cpp" },
	{ 33, "q4_0_8_8", 0, 0, REMOVED, "Q4_0_8_8, removed from GGUF in "
	    "favour of Q4_0 with runtime repacking; still live in ik_llama.cpp" },
	{ 34, "tq1_0", 256, 54, OK, "IQ1_BN in old ik_llama.cpp headers" },
	{ 35, "tq2_0", 256, 66, OK, "IQ2_BN in old ik_llama.cpp headers" },
	{ 36, "iq4_nl_4_4", 0, 0, REMOVED, "IQ4_NL_4_4, removed in favour "
	    "of IQ4_NL with runtime repacking; I2_S in BitNet.cpp and "
	    "ik_llama.cpp" },
	{ 37, "iq4_nl_4_8", 0, 0, REMOVED, "IQ4_NL_4_8, removed in favour "
	    "of IQ4_NL with runtime repacking" },
	{ 38, "iq4_nl_8_8", 0, 0, REMOVED, "IQ4_NL_8_8, removed in favour "
	    "of IQ4_NL with runtime repacking" },
	{ 39, "mxfp4", 32, 17, OK, NULL },
	{ 40, "nvfp4", 64, 36, RECENT, "added to ggml in 2026" },
	{ 41, "q1_0", 128, 18, RECENT, "added to ggml in 2026; Q1_0_G128 "
	    "in ik_llama.cpp" },
	{ 42, "q2_0", 64, 18, RECENT, "added to ggml in 2026" },
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
