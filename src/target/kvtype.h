/*
 * kvtype.h - the KV cache types a plan can use: llama.cpp's cache types
 * (f32, f16, bf16, q8_0, q4_0, q4_1, iq4_nl, q5_0, q5_1) and SKaiNET's
 * turboquant4, with the bytes one row of n elements takes in each.
 */
#ifndef GGUFLINT_KVTYPE_H
#define GGUFLINT_KVTYPE_H

#include <stdbool.h>
#include <stdint.h>

enum kv_type {
	KV_F32 = 0,
	KV_F16,
	KV_BF16,
	KV_Q8_0,
	KV_Q4_0,
	KV_Q4_1,
	KV_IQ4_NL,
	KV_Q5_0,
	KV_Q5_1,
	KV_TURBOQUANT4,
	KV_TYPE_COUNT
};

struct kv_type_info {
	enum kv_type type;
	const char *name;	/* as --kv takes it */
	uint32_t blck;		/* elements per block */
	uint32_t size;		/* bytes per block */
	bool quantized;		/* needs flash attention as a V cache */
	int32_t ggml;		/* ggml's type number; -1: none */
};

const struct kv_type_info *kv_type_info(enum kv_type t);
/* kv_type_parse: 0 and *out, or -1 when name is not a KV cache type. */
int kv_type_parse(const char *name, enum kv_type *out);
/* kv_type_names: "f32, f16, ..." for messages (static). */
const char *kv_type_names(void);

/*
 * kv_row_bytes: bytes of one cache row of n elements: n / blck blocks,
 * rounded up (only turboquant4 rows can end in a partial block; llama.cpp
 * refuses a quantized row that does not divide, which the plan reports).
 * Saturates at UINT64_MAX.
 */
uint64_t kv_row_bytes(enum kv_type t, uint64_t n);

#endif
