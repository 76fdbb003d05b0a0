/*
 * role.h - what a GGUF file is for, as general.type (and, for the files
 * written before it existed, general.architecture) says: a model, or a
 * companion that llama.cpp loads beside one (a LoRA adapter, a control
 * vector, a multimodal projector), an importance matrix, or a
 * vocabulary-only model. The role decides which checks apply. And what a
 * weight tensor is for in llama.cpp's graph: the operation it feeds.
 */
#ifndef GGUFLINT_ROLE_H
#define GGUFLINT_ROLE_H

#include <stdbool.h>
#include <stdint.h>

#include "reader/gguf.h"

enum file_role {
	ROLE_MODEL = 0,		/* the default when general.type is absent */
	ROLE_VOCAB,		/* a model with no tensors but a tokenizer */
	ROLE_LORA,		/* adapter, adapter.type lora */
	ROLE_CVEC,		/* a control vector */
	ROLE_ADAPTER,		/* adapter of another (or no) adapter.type */
	ROLE_MMPROJ,		/* a multimodal projector (clip) */
	ROLE_IMATRIX,		/* an importance matrix */
	ROLE_OTHER		/* a general.type gguflint does not know */
};

/*
 * role_of: the role of the parsed file f. general.type "adapter" is a LoRA
 * (adapter.type "lora"), a control vector ("control_vector" or
 * "controlvector") or another adapter; "mmproj" or "clip-vision" a
 * projector, "imatrix" an importance matrix, "model" (or none) a model.
 * Otherwise (no general.type, "model", or another value):
 * general.architecture "clip" is a projector and "controlvector" a
 * control vector (what llama.cpp's converters and cvector-generator
 * write; their loaders read no general.type); then another general.type
 * is OTHER, and a model with no tensors and a tokenizer.ggml.model is
 * vocabulary-only. Never fails.
 */
enum file_role role_of(const struct gguf_file *f);

/* role_name: "model", "vocabulary", "lora", "control-vector", "adapter",
 * "mmproj", "imatrix", "other" (static storage). */
const char *role_name(enum file_role r);

/* role_companion: r is loaded beside a model, never as one (a LoRA, a
 * control vector, another adapter, a projector). */
bool role_companion(enum file_role r);

/* role_model: r is checked as a model (the model or vocabulary roles). */
bool role_model(enum file_role r);

/* role_direction_layer: the N of a control vector's tensor name
 * "direction.N" (decimal, N from 1, at most about 10^9), or -1 for any
 * other name. */
int64_t role_direction_layer(struct gguf_str name);

/* What the user gave a file as, beside the model (--mmproj, --lora,
 * --control-vector, --draft), or NONE: the model itself, or a file alone. */
enum companion_kind {
	COMPANION_NONE = 0,
	COMPANION_MMPROJ,
	COMPANION_LORA,
	COMPANION_CVEC,
	COMPANION_DRAFT
};

/* companion_name: "mmproj", "lora", "control-vector", "draft" ("" for
 * NONE; static storage). */
const char *companion_name(enum companion_kind k);

/*
 * The operation llama.cpp feeds a weight tensor to: what its loader asks a
 * device to claim before it places the weight there (plan_claim_bytes),
 * and the runtime probe's case for it.
 */
enum weight_op {
	WOP_MUL_MAT = 0, /* any other matrix (a 3-D one batched) */
	WOP_GET_ROWS,	 /* token_embd: rows looked up */
	WOP_MUL_MAT_ID,	 /* stacked experts: *exps.weight, ne[2] > 1 */
	WOP_ADD_ID,	 /* the experts' biases: *exps.bias */
	WOP_VECTOR	 /* a vector: add or mul (norms, biases) */
};

/* weight_op: the operation of weight tensor t. */
enum weight_op weight_op(const struct gguf_tensor *t);

#endif
