/*
 * llfacts-impl.h - the facts of llama.cpp v0.5.0 that the graph's replica
 * (graph*.c), the fitted estimates (fit-*.c) and the orchestrator
 * (plan-llama.c) share (llfacts.c), and the helpers they read sizes with.
 * Each function is pure: it reads, never writes, the model and the plan.
 * Private to src/plan/.
 */
#ifndef GGUFLINT_PLAN_LLFACTS_IMPL_H
#define GGUFLINT_PLAN_LLFACTS_IMPL_H

#include <stdbool.h>
#include <stdint.h>

#include "plan/plan-impl.h"

/*
 * The buffers' alignments: ggml-cpu's (TENSOR_ALIGNMENT, its buffers'
 * too); a Vulkan device's storage buffer offset alignment and its host
 * buffer type's (Vulkan_Host: minMemoryMapAlignment, which Vulkan makes
 * at least 64), both as llvmpipe reports them (base/replica.h's device;
 * measured: glm4moe's and gpt-oss's host layers, every Vulkan row of the
 * oracle's table). Another device may report others. A CUDA buffer's
 * alignment is 128 (ggml-cuda's get_alignment, v0.5.0); its host buffer
 * type (CUDA_Host, pinned) takes the CPU's.
 */
#define PLAN_TENSOR_ALIGN 32
#define PLAN_VULKAN_ALIGN 16
#define PLAN_VULKAN_HOST_ALIGN 64
#define PLAN_CUDA_ALIGN 128
#define PLAN_CUDA_ROW_PADDING 512 /* MATRIX_ROW_PADDING */

static inline uint64_t
plan_umin(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

static inline uint64_t
plan_umax(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

/* n rounded up to a multiple of align (UINT64_MAX on overflow). */
static inline uint64_t
plan_pad(uint64_t n, uint64_t align)
{
	return n > UINT64_MAX - align ? UINT64_MAX :
					(n + align - 1) / align * align;
}

/* n rounded up to the CPU's tensor alignment. */
static inline uint64_t
plan_pad32(uint64_t n)
{
	return plan_pad(n, PLAN_TENSOR_ALIGN);
}

/* Whether tensor t's name ends with suffix. */
bool plan_name_ends(const struct gguf_tensor *t, const char *suffix);
/* Columns of a layer's weight t: ne[1] of a 2-D or 3-D weight (0 when
 * negative). Rows (ne[1]) of the first tensor of f named *suffix, or 0. */
uint64_t plan_tensor_cols(const struct gguf_tensor *t);
uint64_t plan_tensor_rows(const struct gguf_file *f, const char *suffix);
/* plan_oversize: whether tensor t's claim test has a tensor beyond the
 * device's largest (K006: the probe's, else the profile's max_alloc).
 * plan_falls_back: whether the GPU leaves tensor i of the file on the
 * host: the probed one does not claim its operation (K003), or
 * plan_oversize. */
bool plan_oversize(const struct planner *pn, const struct plan *pl,
    const struct gguf_tensor *t);
bool plan_falls_back(const struct planner *pn, const struct plan *pl, size_t i);
/* plan_tied_oversize: whether the tied output (token_embd emb's copy) is
 * beyond the device's largest tensor: llama.cpp keeps it on the host. */
bool plan_tied_oversize(const struct plan *pl, const struct gguf_tensor *emb);
/* plan_experts_used: experts a token uses (expert_used_count), else 1. */
uint64_t plan_experts_used(const struct model_geom *g,
    const struct gguf_file *f);
/* Whether the profile's backend is backend ("vulkan", ...). */
bool plan_backend_is(const struct planner *pn, const char *backend);
/* Whether tensor t stays in the host's CPU buffer whatever -ngl. */
bool plan_host_only(const struct planner *pn, const struct gguf_tensor *t);
/* What a CUDA buffer adds to tensor t past its bytes (a quantized
 * tensor's last row padded). */
uint64_t plan_cuda_row_pad(const struct gguf_tensor *t);
/* plan_rope_layer: the first full-attention layer from layer from, or
 * -1 (an ARCH_ROPE_FULL architecture's rope_freqs). */
int64_t plan_rope_layer(const struct model_geom *g, uint32_t from);

/* plan_weight_layer: the layer whose device holds weight t (0 to
 * n_layer - 1; n_layer the output layer; -1 the input layer, the host). */
int64_t plan_weight_layer(const struct planner *pn,
    const struct gguf_tensor *t);
/* Repeating layers on the device under -ngl (the output layer aside). */
uint64_t plan_device_layers(const struct model_geom *g, int64_t ngl);
/* The head width of K (v false) or V: the geometry's, else n_embd /
 * n_head. The widest KV width of any layer. */
uint64_t plan_head_width(const struct model_geom *g, bool v);
uint64_t plan_kv_width(const struct model_geom *g);
/* One layer's cache in every stream: its cells of K and V rows (and
 * of its indexer's, where it has one). */
uint64_t plan_layer_kv(const struct model_geom *g, const struct plan *pl,
    uint32_t il);
/* The larger of one layer's two cache tensors, K and V in every stream
 * (llama.cpp allocates each whole); *is_v when it is V. 0 for a layer
 * without a KV cache, and for DSV4's caches. */
uint64_t plan_layer_cache_tensor(const struct model_geom *g,
    const struct plan *pl, uint32_t il, bool *is_v);
/* The masks of one ubatch of ub tokens: f16 with flash attention, else
 * f32. The Hadamard rotations of a quantized cache (rot_bytes: none for
 * a memory without a KV cache). */
uint64_t plan_mask_bytes(const struct model_geom *g, const struct plan *pl,
    uint64_t ub);
uint64_t plan_rot_matrices(const struct model_geom *g, const struct plan *pl);
uint64_t plan_rot_bytes(const struct model_geom *g, const struct plan *pl);

#endif
