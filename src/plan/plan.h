/*
 * plan.h - the memory plan: what running a model on a profile's device
 * needs, in bytes, and whether it fits. Weights at their stored bytes,
 * resident as the profile says; the KV cache as llama.cpp sizes it (context
 * padded to 256, grouped-query and per-layer heads, sliding-window caches,
 * MLA's K-only cache, recurrent state); SKaiNET's forward working set and
 * heap headroom; the budget (memory - reserve); and, when it does not fit,
 * suggestions whose savings come from planning again.
 */
#ifndef GGUFLINT_PLAN_H
#define GGUFLINT_PLAN_H

#include <stdbool.h>
#include <stdint.h>

#include "facts/arch.h"
#include "facts/role.h"
#include "reader/gguf.h"
#include "target/kvtype.h"
#include "target/profile.h"
#include "plan/resolve.h"

#define PLAN_HEADROOM (64ull << 20)	/* SKaiNET's HEAP_HEADROOM_BYTES */
#define PLAN_CTX_FALLBACK 2048		/* no --ctx, profile or trained ctx */
#define PLAN_MAX_SUGGESTIONS 6
#define PLAN_MAX_NOTES 4

#define PLAN_MAX_DEVICES 2	/* the host, and one GPU */
#define PLAN_MAX_COMPANIONS 8	/* beyond: not planned */

struct plan;

/* A file llama.cpp loads beside the model, to plan with it. */
struct plan_companion_in {
	enum companion_kind kind;	/* not COMPANION_NONE */
	const char *path;
	const struct gguf_file *file;	/* its tensors (parsed) */
	const struct plan *own;		/* a draft: its own plan at the
					 * model's settings, or NULL */
};

/* Flash attention as asked: the profile's, or -fa on|off|auto. */
enum plan_fa {
	PLAN_FA_PROFILE = 0,
	PLAN_FA_AUTO,		/* llama.cpp's default: on where it runs */
	PLAN_FA_ON,
	PLAN_FA_OFF
};

/* What the user asked for; zero values mean "the profile's default". */
struct plan_request {
	uint64_t ctx;
	bool kv_set;		/* --kv: K and V */
	enum kv_type kv;
	bool kv_k_set, kv_v_set;	/* -ctk, -ctv (over --kv) */
	enum kv_type kv_k, kv_v;
	enum plan_fa fa;
	uint64_t ubatch, batch;	/* -ub, -b */
	uint64_t n_seq;		/* -np */
	bool ngl_set;		/* -ngl */
	int64_t ngl;		/* < 0: all */
	int64_t n_cpu_moe;	/* --n-cpu-moe: the first layers whose
				 * expert weights stay on the CPU; < 0:
				 * every layer (--cpu-moe); 0: none */
	bool no_mmap;		/* --no-mmap */
	bool swa_full;		/* --swa-full */
	bool strict;		/* --strict */
	/* --mmproj, --lora, --control-vector, --draft: planned beside the
	 * model, where llama.cpp puts them (borrowed; none: NULL, 0) */
	const struct plan_companion_in *companions;
	size_t n_companions;
};

/* A llama.cpp plan's parameters, as llama.cpp's context takes them. */
struct plan_params {
	uint64_t ctx, n_batch, n_ubatch, n_seq;
	enum kv_type kv_k, kv_v;
	bool flash_attention, swa_full;
	int64_t ngl, n_cpu_moe;
};

struct plan_suggestion {
	char *text;		/* for people */
	char *args;		/* command-line arguments that apply it, or
				 * NULL */
	uint64_t saving;	/* bytes it saves, by planning again */
	bool has_at;		/* a llama.cpp re-plan, at these parameters */
	struct plan_params at;
	bool measured;		/* whose compute buffers llama.cpp
				 * reserved (--measure) */
};

/* Where a device limit of a llama.cpp plan came from. */
enum plan_limit_from {
	PLAN_LIMIT_UNKNOWN = 0,	/* neither the profile nor a probe states
				 * it: planned as if there were none */
	PLAN_LIMIT_PROFILE,	/* the profile's max_alloc, host_max_alloc */
	PLAN_LIMIT_PROBE,	/* measured by the runtime probe */
	PLAN_LIMIT_NONE		/* no device, or a backend without one */
};

/* One device's buffers in a llama.cpp plan (bytes). */
struct plan_device {
	char name[16];			/* "CPU", "CUDA0", "Metal", ... */
	bool host;			/* host RAM (or unified memory) */
	uint64_t model_bytes;		/* weights in its model buffers */
	uint64_t mapped_bytes;		/* of which a file mapping */
	uint64_t repack_bytes;		/* CPU_REPACK copies */
	uint64_t kv_bytes;		/* KV cache and recurrent state */
	uint64_t compute_bytes;
	uint64_t compute_modeled;	/* --measure: the model's figure for
					 * the compute_bytes llama.cpp says */
	uint64_t output_bytes;
	uint64_t overhead_bytes;	/* a GPU's own: its runtime's context,
					 * workspace and pool (the profile's
					 * device_overhead) */
	uint64_t total_bytes;
	uint64_t memory_bytes;		/* what it offers, reserve kept */
};

/*
 * A companion's part of a llama.cpp plan: what it adds on each device. An
 * mmproj's weights go to the GPU backend when there is one (mtmd's
 * default), else the host, read into memory (never mapped); a LoRA's and
 * a control vector's beside the tensors or layers they adapt; a draft
 * model is its own plan (weights, KV cache at the model's context,
 * compute, output) on the same devices.
 */
struct plan_companion {
	enum companion_kind kind;
	char *path;			/* owned by the plan */
	uint64_t weights;		/* its tensors' bytes */
	uint64_t kv_bytes;		/* a draft's cache and state */
	uint64_t bytes[PLAN_MAX_DEVICES];	/* all it adds, per device */
	uint64_t mapped;		/* of bytes[0]: a draft's mapping */
};

struct plan {
	bool valid;			/* a plan was made */
	enum profile_runtime runtime;	/* whose arithmetic */
	uint64_t ctx;			/* requested context */
	uint64_t ctx_cells;		/* llama.cpp's n_ctx: padded to 256 */
	uint64_t swa_cells;		/* cells of the sliding-window cache */
	enum kv_type kv_k, kv_v;	/* the cache types, K's and V's, in
					 * either runtime (SKaiNET has one:
					 * both are it) */
	bool kv_explicit;
	bool kv_switched;		/* auto-quantized from kv_before */
	enum kv_type kv_before;
	double share_before;		/* of the budget, before the switch */
	bool flash_attention;

	uint64_t weights;		/* resident bytes of every tensor */
	uint64_t weights_as_stored;	/* their stored bytes */
	uint64_t conversion;		/* weights - as stored: re-encoding */
	uint64_t converted_stored;	/* stored bytes of converted tensors */
	uint64_t weights_mapped;	/* of which served from the mapping */
	uint64_t weights_heap;
	uint64_t n_params;		/* elements of every tensor */
	size_t tensors_unsized;		/* tensors whose size is unknown */
	uint64_t k_bytes, v_bytes, kv_bytes;
	uint64_t state_bytes;		/* recurrent state */
	uint64_t cache_tensor;		/* the largest cache tensor on the GPU
					 * (a layer's K or V, every stream),
					 * 0: none */
	uint32_t cache_tensor_layer;	/* its layer */
	bool cache_tensor_v;		/* it is V */
	enum kv_type kv_alt;		/* the other type shown beside KV */
	uint64_t kv_alt_bytes;
	uint64_t forward;
	uint64_t headroom;
	uint64_t total;
	uint64_t budgeted;		/* total - mapped weights */

	uint64_t memory, reserve, budget;
	bool fits_budget;		/* budgeted <= budget */
	bool fits_memory;		/* total <= memory (mapped pages too) */
	bool fits;
	uint64_t over;			/* bytes over the failing limit */

	bool kv_block_mismatch;		/* a head width the cache type
					 * cannot split */
	uint32_t kv_bad_width;
	enum kv_type kv_bad_type;	/* the cache type it does not fit */

	/* llama.cpp plans (runtime llama.cpp); zero for SKaiNET's */
	uint64_t n_seq, n_stream;	/* sequences, KV streams */
	uint64_t ctx_seq;		/* cells per stream */
	uint64_t n_batch, n_ubatch;
	bool swa_full, mmap;
	int64_t ngl;			/* layers offloaded, output counted */
	uint64_t repack_bytes;		/* CPU_REPACK, every device */
	size_t n_repacked;		/* tensors repacked */
	uint64_t compute_bytes;		/* every device */
	uint64_t output_bytes;
	bool compute_estimated;		/* an architecture the compute
					 * formula was not fitted on, or a
					 * split it does not model */
	const char *compute_why;	/* why (static), or NULL: not
					 * measured for this architecture */
	uint16_t compute_worst;		/* the fitted or estimated compute's
					 * worst ratio to llama.cpp's on the
					 * tests' table of this backend, in
					 * thousandths (0: none) */
	bool device_over;		/* a discrete device is over */
	bool overhead_unknown;		/* a GPU whose device_overhead the
					 * profile does not state */
	bool probed;			/* a probed GPU's verdicts were given */
	char probed_dev[16];		/* that device's name */
	uint64_t fallback_bytes;	/* weights -ngl puts on the device that
					 * stay on the host: it does not claim
					 * them (K003), or they are beyond the
					 * largest tensor it claims (K006) */
	size_t n_fallback;		/* tensors of fallback_bytes */
	size_t n_oversize;		/* of them, beyond max_tensor */
	int64_t n_cpu_moe;		/* layers whose expert weights
					 * --n-cpu-moe keeps on the host */
	uint64_t cpu_moe_bytes;		/* those weights, that -ngl would
					 * otherwise offload */
	size_t n_cpu_moe_tensors;	/* tensors of cpu_moe_bytes */
	uint64_t max_tensor;		/* the device's largest tensor (the
					 * probe's, else the profile's
					 * max_alloc), or 0: no limit */
	uint64_t host_block;		/* the host compute buffer's largest
					 * block (the profile's host_max_alloc:
					 * ggml-alloc's chunks), 0: none */
	uint64_t dev_block;		/* the device compute buffer's, 0:
					 * none */
	enum plan_limit_from max_tensor_from, host_block_from;
	bool limits_known;		/* every limit above stated (a CPU
					 * plan's: none), so the placement
					 * assumed none that is not */
	bool compute_placed;		/* compute_bytes are llama.cpp's graph
					 * placed as ggml-alloc places it
					 * (plan/graph.c), not the model's */
	bool compute_unmeasured;	/* placed by a backend's rules read in
					 * its source alone (CUDA), not held
					 * to a measurement */
	bool compute_measured;		/* compute_bytes are llama.cpp's own
					 * (--measure), not the model's */
	char measured_by[48];		/* then by whom, "llama.cpp 0.5.0" */
	bool measured_cached;		/* that measurement from the cache */
	struct plan_device dev[PLAN_MAX_DEVICES];
	size_t n_dev;

	/* the companions (llama.cpp plans), each counted in its devices'
	 * total_bytes and the verdict */
	struct plan_companion comp[PLAN_MAX_COMPANIONS];
	size_t n_comp;

	struct plan_suggestion sugg[PLAN_MAX_SUGGESTIONS];
	size_t n_sugg;
	char *notes[PLAN_MAX_NOTES];
	size_t n_notes;
};

/*
 * What a runtime probe said of the model's weights, handed to the plan as
 * data (lint.c builds it from the verdicts): the probed device (a GPU);
 * per tensor of the file, whether that device does not claim the
 * operation that reads it (K003); and the largest tensor it claims an
 * operation on (K006: a weight whose claim test, plan_claim_bytes, has
 * a larger tensor is not claimed either). llama.cpp then keeps the
 * tensor on the host, in CPU_REPACK when ggml-cpu repacks it, else where
 * a host layer's weights go, and runs it on the CPU.
 */
struct plan_probe {
	const char *device;	/* ggml's name of the probed device, or
				 * NULL: none probed */
	const bool *fallback;	/* one per tensor of the file */
	uint64_t max_tensor;	/* bytes; 0: no limit */
	const struct plan_measured *measured;	/* n_measured of them */
	size_t n_measured;
	bool max_tensor_known;	/* the probe measured max_tensor */
};

/* plan_params_of: pl's parameters; plan_params_eq: whether a and b are
 * the same. */
void plan_params_of(const struct plan *pl, struct plan_params *pp);
bool plan_params_eq(const struct plan_params *a, const struct plan_params *b);

#define PLAN_MEASURED_BUFS 8

/*
 * What the runtime's llama.cpp reserved for a plan (--measure): the
 * compute buffer of each buffer type its scheduler uses, at the
 * parameters it was asked for (at). A plan at those parameters takes
 * them for its compute buffers (a buffer type named like its GPU device
 * is the device's, any other the host's); a plan at other parameters
 * keeps gguflint's model. A suggestion whose re-plan is at parameters
 * llama.cpp refused is not made.
 */
struct plan_measured {
	struct plan_params at;
	bool refused;		/* llama.cpp refused them: nothing more */
	const char *by;		/* llama_version(): "0.5.0" */
	bool cached;		/* taken from gguflint's cache */
	size_t n;
	const char *name[PLAN_MEASURED_BUFS];
	uint64_t bytes[PLAN_MEASURED_BUFS];
};

/*
 * plan_claim_bytes: the largest tensor of the operation llama.cpp's
 * loader asks a device to claim before it puts weight t of file f
 * (model g) in that device's buffer: the weight itself, or the f32
 * activations or result of that operation over its 512 test tokens
 * (a matrix product's result is ne[1] x 512, each used expert's too). A
 * device that claims no operation on a tensor that large leaves t on the
 * host.
 */
uint64_t plan_claim_bytes(const struct model_geom *g,
    const struct gguf_file *f, const struct gguf_tensor *t);

/* plan_tensor_layer: the layer of tensor t, as -ngl places it: blk.N is
 * N, output* is n_layer (the output layer), else -1 (the host's). */
int64_t plan_tensor_layer(const struct gguf_tensor *t, uint32_t n_layer);

/*
 * plan_make: plan model g (file f) on profile p as request rq asks, pricing
 * each tensor by its resolved form (forms: one per tensor, or NULL to keep
 * every tensor as stored). plan is overwritten (free an earlier one
 * first); it owns its texts and borrows nothing of g, f, p or forms.
 * Leaves plan->valid false when the file has no tensors. Cannot fail;
 * free the plan with plan_free() either way.
 */
void plan_make(const struct model_geom *g, const struct gguf_file *f,
    const struct profile *p, const struct plan_request *rq,
    const struct weight_form *forms, struct plan *plan);
/*
 * plan_make_probed: plan_make with a probed device's verdicts (probe, or
 * NULL: none; borrowed during the call only). They change a llama.cpp
 * plan with a GPU device; any other plan is plan_make's.
 */
void plan_make_probed(const struct model_geom *g, const struct gguf_file *f,
    const struct profile *p, const struct plan_request *rq,
    const struct weight_form *forms, const struct plan_probe *probe,
    struct plan *plan);
/* plan_free: free the plan's suggestions and notes; plan is zeroed. */
void plan_free(struct plan *plan);

/*
 * plan_best: the first suggestion (in the plan's order) that saves at
 * least the excess, else the one that saves the most; NULL when there is
 * none. Borrowed from plan.
 */
const struct plan_suggestion *plan_best(const struct plan *plan);

/*
 * The arithmetic, exposed for tests; every sum and product saturates at
 * UINT64_MAX. plan_pad_ctx: ctx (0 as 1) rounded up to 256 cells.
 * plan_kv_bytes: the KV cache of g (0 unless it has one) at cells, its
 * sliding-window layers at swa_cells; K and V in *k_bytes, *v_bytes,
 * their sum returned. plan_swa_cells: the sliding-window cache's cells at
 * ctx. plan_state_bytes: the recurrent state (0 unless g has one).
 * plan_forward_bytes: SKaiNET's forward working set at ctx, chunk tokens
 * a pass.
 */
uint64_t plan_pad_ctx(uint64_t ctx);
/*
 * plan_kv_split_bytes: plan_kv_bytes with K of type kt and V of type vt.
 * plan_repacks: the rows ggml-cpu interleaves a 2-D (or expert 3-D)
 * matrix of this type and ne[1] by on a CPU with features (CPU_FEAT_*):
 * 4 or 8, or 0 when it keeps the matrix as stored (ggml-cpu v0.5.0's
 * repack.cpp). The copy is as large as the tensor.
 */
uint64_t plan_kv_split_bytes(const struct model_geom *g, enum kv_type kt,
    enum kv_type vt, uint64_t cells, uint64_t swa_cells,
    bool flash_attention, uint64_t *k_bytes, uint64_t *v_bytes);
unsigned plan_repacks(uint32_t type, int64_t ne1, uint32_t features);
/*
 * plan_tensor_repacked: whether llama.cpp puts tensor t in the CPU_REPACK
 * buffer on a CPU with features: a weight multiplied by mul_mat (not one
 * read by get_rows: token_embd and the other embeddings), 2-D or an
 * expert 3-D stack, whose type and shape plan_repacks accepts.
 */
bool plan_tensor_repacked(const struct gguf_tensor *t, uint32_t features);
/*
 * plan_compute_bytes: llama.cpp's CPU compute buffer (the graph reserved
 * for one ubatch of ub tokens over n_kv cells per stream), fitted on
 * llama-family models: the largest of the output phase (logits of ub
 * tokens), the attention phase (KQ unless flash attention) and the FFN
 * phase, each with the attention mask.
 */
uint64_t plan_compute_bytes(const struct model_geom *g, uint64_t ub,
    uint64_t n_kv, bool flash_attention);
uint64_t plan_kv_bytes(const struct model_geom *g, enum kv_type kv,
    uint64_t cells, uint64_t swa_cells, bool flash_attention,
    uint64_t *k_bytes, uint64_t *v_bytes);
uint64_t plan_swa_cells(const struct model_geom *g, uint64_t ctx,
    uint64_t ubatch);
uint64_t plan_state_bytes(const struct model_geom *g);
/* plan_state_rs: a recurrent layer's state for one sequence, in floats:
 * its convolution's history r and its scan's state s (false: none). */
bool plan_state_rs(const struct model_geom *g, uint64_t *r, uint64_t *s);
/*
 * DSV4 (g->dsv4): layer il's K rows of type kt, one stream, its window
 * cache at swa_cells and its compressed ones at cells (a stream's
 * context) over the layer's ratio; and its compressors' F32 state, one
 * sequence (0 in an MTP layer).
 */
uint64_t plan_dsv4_layer_kv(const struct model_geom *g, enum kv_type kt,
    uint64_t cells, uint64_t swa_cells, uint32_t il);
uint64_t plan_dsv4_layer_state(const struct model_geom *g, uint32_t il);
uint64_t plan_forward_bytes(const struct model_geom *g, uint64_t ctx,
    uint64_t chunk);

#endif
