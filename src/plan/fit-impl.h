/*
 * fit-impl.h - the fitted estimates of llama.cpp's compute buffer, for a
 * plan whose graph is not placed: the host's (fit-cpu.c) and its split
 * beside a GPU backend (fit-gpu.c, with the host's share in fit-host.c).
 * Each number was fitted to llama.cpp v0.5.0's measurements
 * (base/replica.h names the build and the Vulkan device; an
 * architecture's row says which of its numbers were measured). Private
 * to src/plan/.
 */
#ifndef GGUFLINT_PLAN_FIT_IMPL_H
#define GGUFLINT_PLAN_FIT_IMPL_H

#include <stdbool.h>
#include <stdint.h>

#include "plan/plan-impl.h"

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

/*
 * What a layer's peak holds beside its own tensors, per token: three
 * embedding-wide columns (the residual, the normed input, the layer's
 * output or projection) and 7 columns of the graph's inputs. Fitted on
 * llama.cpp v0.5.0's CPU buffer (cohere2's full layers without flash
 * attention, granitehybrid's Mamba-2 layers: exact) and beside llvmpipe
 * (granitehybrid's device with layers on the host).
 */
static inline uint64_t
fit_beside_cols(uint64_t n_embd)
{
	return plan_sadd(plan_smul(3, n_embd), 7);
}

/* The peaks of one ubatch's phases (plan_compute_graph). */
struct graph_phases {
	uint64_t out, attn, ffn;
};

/*
 * plan_fit_compute: the fitted compute buffers of a ubatch of ub tokens at
 * pl's settings (plan_llama_cells first) into pl's devices, beside a GPU
 * split between the host and it; sets compute_estimated (and
 * compute_why) when the fit was not measured for the model or the split.
 * plan_fit_measured: whether g's fit holds at pl's backends (its row's
 * fit.cpu, or split.measured beside a GPU, or the worst ratio measured
 * there within 10 %). plan_fit_worst: pl's compute_worst, the row's worst
 * ratio at pl's backends when its graph is not built.
 */
void plan_fit_compute(const struct planner *pn, struct plan *pl, uint64_t ub);
bool plan_fit_measured(const struct model_geom *g, const struct plan *pl);
void plan_fit_worst(const struct model_geom *g, struct plan *pl);

/* fit-cpu.c: s, the graph's shape from f's tensors. */
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
 * fit-host.c, the host's share beside a GPU: plan_tensor_named: the first
 * tensor of f named *suffix, or NULL. plan_host_inputs: the graph's
 * inputs and token_embd's rows, whatever -ngl, and what the CPU runs of
 * a recurrent or hybrid model. plan_kv_indices: the cache's set_rows
 * indices of a ubatch. plan_mla_attention_on_host: whether MLA's
 * attention runs on the host (no repeating layer on the device, no flash
 * attention). plan_mla_host: what MLA's projection with several streams
 * adds to the host, what the device no longer holds into *dev.
 */
const struct gguf_tensor *plan_tensor_named(const struct gguf_file *f,
    const char *suffix);
uint64_t plan_host_inputs(const struct planner *pn, const struct plan *pl,
    uint64_t ub);
uint64_t plan_kv_indices(const struct planner *pn, const struct plan *pl,
    uint64_t ub);
bool plan_mla_attention_on_host(const struct planner *pn,
    const struct plan *pl);
uint64_t plan_mla_host(const struct planner *pn, const struct plan *pl,
    uint64_t ub, uint64_t *dev);

/*
 * fit-gpu.c: plan_llama_gpu_compute: split the host's compute buffer c of
 * a ubatch of ub tokens between pl's GPU device (dev[1]) and the host
 * (dev[0]), as llama.cpp's scheduler does under pl's -ngl; sets both
 * devices' compute_bytes. plan_gpu_measured: whether that split of g's
 * architecture is measured (else the plan says compute_estimated beside
 * a GPU).
 */
void plan_llama_gpu_compute(const struct planner *pn, struct plan *pl,
    uint64_t c, uint64_t ub);
bool plan_gpu_measured(const struct model_geom *g);

#endif
