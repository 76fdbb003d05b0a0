/*
 * kvtype.c - KV cache types (see kvtype.h). llama.cpp's are ggml types, by
 * ggml's names, with the type table's block geometry (ggml-types.h; the
 * tests check the names against the table); turboquant4 is SKaiNET's
 * TurboQuantPolar(4, 128): a 4-byte seed, four fp16 group scales and 64
 * bytes of 4-bit codes per 128 elements (skainet-semantics.md §6.3).
 */
#include "config.h"

#include <string.h>

#include "kernels/ggml-types.h"
#include "target/kvtype.h"

/* The cache type kv, ggml's type T named name. */
#define GGML_KV(kv, T, name, quantized) \
	[kv] = { kv, (name), GGML_BLCK_##T, GGML_SIZE_##T, (quantized), \
		GGML_TYPE_##T }

static const struct kv_type_info kv_types[KV_TYPE_COUNT] = {
	GGML_KV(KV_F32, F32, "f32", false),
	GGML_KV(KV_F16, F16, "f16", false),
	GGML_KV(KV_BF16, BF16, "bf16", false),
	GGML_KV(KV_Q8_0, Q8_0, "q8_0", true),
	GGML_KV(KV_Q4_0, Q4_0, "q4_0", true),
	GGML_KV(KV_Q4_1, Q4_1, "q4_1", true),
	GGML_KV(KV_IQ4_NL, IQ4_NL, "iq4_nl", true),
	GGML_KV(KV_Q5_0, Q5_0, "q5_0", true),
	GGML_KV(KV_Q5_1, Q5_1, "q5_1", true),
	[KV_TURBOQUANT4] = { KV_TURBOQUANT4, "turboquant4", 128, 4 + 4 * 2 + 64,
	    true, -1 },
};

const struct kv_type_info *
kv_type_info(enum kv_type t)
{
	return &kv_types[(unsigned)t < KV_TYPE_COUNT ? t : KV_F16];
}

int
kv_type_parse(const char *name, enum kv_type *out)
{
	unsigned i;

	for (i = 0; i < KV_TYPE_COUNT; i++) {
		if (strcmp(kv_types[i].name, name) == 0) {
			*out = kv_types[i].type;
			return 0;
		}
	}
	return -1;
}

const char *
kv_type_names(void)
{
	return "f32, f16, bf16, q8_0, q4_0, q4_1, iq4_nl, q5_0, q5_1, "
	    "turboquant4";
}

uint64_t
kv_row_bytes(enum kv_type t, uint64_t n)
{
	const struct kv_type_info *k = kv_type_info(t);

	uint64_t blocks = n / k->blck + (n % k->blck != 0);

	if (blocks > UINT64_MAX / k->size)
		return UINT64_MAX;	/* hostile widths: saturate */
	return blocks * k->size;
}
