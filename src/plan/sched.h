/*
 * sched.h - ggml's backend scheduler (ggml-backend.cpp, ggml 0.25,
 * llama.cpp v0.5.0) for one GPU device beside the CPU, reproduced on a
 * graph of tensors: which backend runs each node (its five passes), where
 * the graph splits, the copies of each split's inputs, the Vulkan
 * backend's reordering of its splits (vkorder.c), and the graph ggml-alloc
 * then places (galloc.h), each backend's nodes in its compute buffer.
 * With the CPU alone the graph is placed as built.
 *
 * Only the operations graph.c builds are known (enum sc_op); the CPU
 * runs all of them, the GPU all but a node marked host_only (and those
 * with a tensor past max_tensor).
 */
#ifndef GGUFLINT_SCHED_H
#define GGUFLINT_SCHED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "plan/galloc.h"

enum sc_op {
	SC_NONE, /* a leaf: weight, cache, graph input, copy */
	SC_VIEW,
	SC_RESHAPE,
	SC_PERMUTE,
	SC_TRANSPOSE,
	SC_GET_ROWS,
	SC_RMS_NORM,
	SC_MUL,
	SC_ADD,
	SC_MUL_MAT,
	SC_ROPE,
	SC_SET_ROWS,
	SC_SOFT_MAX,
	SC_CONT,
	SC_FLASH_ATTN,
	SC_GLU,
	SC_NORM,  /* a layer norm (ggml_norm) */
	SC_UNARY, /* GELU and the like */
	SC_SCALE,
	SC_ARGSORT,
	SC_SUM_ROWS,
	SC_CLAMP,
	SC_DIV,
	SC_MUL_MAT_ID,
	SC_ADD_ID,
	SC_REPEAT,
	SC_CONCAT,
	SC_SSM_CONV,
	SC_SSM_SCAN,
	SC_CPY, /* into a cache's view */
	SC_SQR,
	SC_SQRT,
	SC_SUB,
	SC_MEAN,
	SC_PAD,
	SC_GDN,	  /* GATED_DELTA_NET */
	SC_FILL,  /* a tensor filled with a constant */
	SC_TOP_K, /* ggml_top_k's indices */
	SC_LID,	  /* LIGHTNING_INDEXER (DSA's scores) */
};

/* Where a leaf's bytes are: a weights buffer or a cache buffer, on the
 * host or the device; or nowhere yet (a tensor of a compute buffer). */
enum sc_home {
	SC_COMPUTE,
	SC_WEIGHT_HOST,
	SC_WEIGHT_DEV,
	SC_CACHE_HOST,
	SC_CACHE_DEV,
};

enum sc_backend {
	SC_DEV = 0, /* the GPU: ggml's first backend, the highest priority */
	SC_CPU = 1, /* the last one */
};

struct sc_tensor {
	uint64_t bytes;		 /* its size in a buffer (ggml_nbytes) */
	uint64_t layout;	 /* equal when ggml_are_same_layout */
	int64_t batch;		 /* ggml_vk_get_op_batch_size */
	int32_t src[GA_MAX_SRC]; /* tensor indexes, GA_NONE for none */
	int32_t view_src;	 /* the base tensor a view views, or GA_NONE */
	uint8_t op;		 /* enum sc_op */
	uint8_t flags;		 /* GA_INPUT, GA_OUTPUT, GA_INPLACE */
	uint8_t home;		 /* enum sc_home (leaves) */
	int8_t backend;		 /* out: enum sc_backend, or -1 */
	bool host_only;		 /* the GPU does not run this node */
	uint64_t pad;		 /* what a CUDA buffer adds past bytes
				  * (its get_alloc_size): a quantized
				  * tensor's last row padded, flash
				  * attention's f16 copies of K and V */
};

/* A graph: its tensors in the order ggml's graph holds its nodes (leaves
 * anywhere before their first reader). */
struct sc_graph {
	struct sc_tensor *t;
	size_t n, cap;
	bool full; /* a tensor did not fit: the graph is not whole */
};

/* A compute buffer's type: its alignment and its largest buffer
 * (ggml_backend_buft_get_max_size; 0: none), beyond which ggml-alloc
 * places it in chunks; for the device's, which backend it is (what its
 * graph_optimize does, whether its alloc size adds a tensor's pad). */
enum sc_gpu {
	SC_GPU_VULKAN, /* reorders its splits (vkorder.c) */
	SC_GPU_CUDA,   /* keeps the order; pads tensors */
};

struct sc_buft {
	uint64_t align, max_size;
	uint8_t gpu; /* enum sc_gpu (the device's buffer type) */
};

/*
 * sc_place: schedules g (both backends when gpu, else the CPU alone),
 * places every compute tensor as ggml-alloc does, in the device's buffer
 * type dev and the host's host, and gives each compute buffer's size
 * (dev_bytes is 0 without a GPU). max_tensor, when not 0, is the largest
 * tensor the GPU claims: it runs no node with a larger one (the node or a
 * source). Appends the scheduler's copies to g. False when the graph
 * cannot be scheduled or placed.
 */
bool sc_place(struct sc_graph *g, bool gpu, uint64_t max_tensor,
    const struct sc_buft *dev, const struct sc_buft *host, uint64_t *dev_bytes,
    uint64_t *host_bytes);

/* An allocation dependency ggml_vk_graph_optimize asks for: tensor keep
 * is not freed before node until has run. */
struct sc_dep {
	int32_t keep, until;
};

/* Where sc_vk_reorder adds its dependencies: deps[0..n) of cap. */
struct sc_deps {
	struct sc_dep *deps;
	size_t n, cap;
};

/* sc_deps_add: keep alive until until, once (keep GA_NONE: nothing);
 * false when deps is full. */
bool sc_deps_add(struct sc_deps *deps, int32_t keep, int32_t until);

/* sc_vk_reorder: the Vulkan backend's reordering (ggml_vk_graph_optimize)
 * of the nodes order[0..n) of g, in place (vkorder.c); uses[t] is how
 * many sources of the graph's nodes tensor t was as built. The
 * dependencies a fused pattern keeps (a top-k MoE router's input alive
 * through its last node) are added to deps; false when they do not fit
 * or memory runs out. */
bool sc_vk_reorder(const struct sc_graph *g, const int32_t *uses,
    int32_t *order, size_t n, struct sc_deps *deps);

/* sc_cuda_deps: ggml-cuda's graph_optimize of the nodes order[0..n) of g
 * (cudaopt.c): the order kept, the dependencies its MoE fusions keep
 * added to deps; false when they do not fit. */
bool sc_cuda_deps(const struct sc_graph *g, const int32_t *uses,
    const int32_t *order, size_t n, struct sc_deps *deps);

#endif
