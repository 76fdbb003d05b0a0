/*
 * plan-llama-impl.h - what plan-llama.c (llama.cpp's weights, cache,
 * compute buffer and verdict) and plan-gpu.c (the compute buffer's split
 * between the host and a GPU device) share: the graph's shape and phases
 * and the helpers both read the model with. Private to src/plan/.
 */
#ifndef GGUFLINT_PLAN_LLAMA_IMPL_H
#define GGUFLINT_PLAN_LLAMA_IMPL_H

#include <stdbool.h>
#include <stdint.h>

#include "plan/plan-impl.h"

#define PLAN_TENSOR_ALIGN 32 /* ggml-cpu's TENSOR_ALIGNMENT */

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

/*
 * The graph's shape beyond the geometry, from the tensors: the widest FFN
 * intermediate live at once (gate, up and their product for a gated FFN,
 * one up for an ungated one; a MoE layer's per-token experts), whether
 * attention and FFN run in parallel (falcon) and whether it is an encoder.
 */
struct graph_shape {
	uint64_t ffn;	    /* f32 columns of the FFN's intermediates */
	bool gated;	    /* the dense FFN has a gate (or a fused one) */
	bool parallel;	    /* falcon: attention output live in the FFN */
	uint64_t per_layer; /* gemma3n: columns of the per-layer inputs */
	bool cohere2;	    /* RoPE on the sliding layers only, and
				 * attention beside the FFN */
};

/* The peaks of one ubatch's phases (plan_compute_graph). */
struct graph_phases {
	uint64_t out, attn, ffn;
};

/* ---- plan-llama.c's helpers (each pure: it reads, never writes, the
 * model and the plan) -------------------------------------------------- */

/* Whether tensor t's name ends with suffix. */
bool plan_name_ends(const struct gguf_tensor *t, const char *suffix);
/* plan_falls_back: whether the probed GPU leaves tensor i of the file on
 * the host: it does not claim its operation (K003) or a tensor of its
 * claim test is too large for it (K006). */
bool plan_falls_back(const struct planner *pn, const struct plan *pl, size_t i);
/* plan_experts_used: experts a token uses (expert_used_count), else 1. */
uint64_t plan_experts_used(const struct model_geom *g,
    const struct gguf_file *f);
/* Rows (ne[1]) of the first tensor of f named *suffix, or 0. */
uint64_t plan_tensor_rows(const struct gguf_file *f, const char *suffix);
/* Whether the profile's backend is backend ("vulkan", ...). */
bool plan_backend_is(const struct planner *pn, const char *backend);
/* Whether tensor t stays in the host's CPU buffer whatever -ngl. */
bool plan_host_only(const struct planner *pn, const struct gguf_tensor *t);
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
/* One layer's cache in every stream: its cells of K and V rows. */
uint64_t plan_layer_kv(const struct model_geom *g, const struct plan *pl,
    uint32_t il);
/* The masks of one ubatch of ub tokens: f16 with flash attention, else
 * f32. The Hadamard rotations of a quantized cache (rot_bytes: none for
 * a memory without a KV cache). */
uint64_t plan_mask_bytes(const struct model_geom *g, const struct plan *pl,
    uint64_t ub);
uint64_t plan_rot_matrices(const struct model_geom *g, const struct plan *pl);
uint64_t plan_rot_bytes(const struct model_geom *g, const struct plan *pl);
/* s: the graph's shape from f's tensors. */
void plan_graph_scan(const struct model_geom *g, const struct gguf_file *f,
    struct graph_shape *s);
/* The compute buffer of one ubatch of ub tokens over n_kv cells (n_swa in
 * the sliding window's cache, 0 without), flash attention fa; its phases
 * into *ph unless NULL. */
uint64_t plan_compute_graph(const struct model_geom *g,
    const struct graph_shape *s, uint64_t ub, uint64_t n_kv, uint64_t n_swa,
    bool fa, struct graph_phases *ph);
/* Mamba-2's compute buffer for a ubatch of ub tokens in n_seq sequences. */
uint64_t plan_compute_mamba2(const struct model_geom *g,
    const struct gguf_file *f, uint64_t ub, uint64_t n_seq);
/* The compute buffer c with pl's quantized cache: rotations and, when the
 * whole graph runs on one device (shift), the layout shift. */
uint64_t plan_quantized_cache(const struct model_geom *g, const struct plan *pl,
    uint64_t c, uint64_t ub, uint64_t mask, bool shift);

/*
 * plan_llama_gpu_compute (plan-gpu.c): split the host's compute buffer c
 * of a ubatch of ub tokens between pl's GPU device (dev[1]) and the host
 * (dev[0]), as llama.cpp's scheduler does under pl's -ngl; sets both
 * devices' compute_bytes.
 */
void plan_llama_gpu_compute(const struct planner *pn, struct plan *pl,
    uint64_t c, uint64_t ub);
/* plan_gpu_measured (plan-gpu.c): whether that split of g's architecture
 * is measured (else the plan says compute_estimated beside a GPU). */
bool plan_gpu_measured(const struct model_geom *g);

#endif
