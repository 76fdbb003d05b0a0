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
#include "reader/gguf.h"
#include "target/kvtype.h"
#include "target/profile.h"
#include "plan/resolve.h"

#define PLAN_HEADROOM (64ull << 20)	/* SKaiNET's HEAP_HEADROOM_BYTES */
#define PLAN_CTX_FALLBACK 2048		/* no --ctx, profile or trained ctx */
#define PLAN_MAX_SUGGESTIONS 6
#define PLAN_MAX_NOTES 4

/* What the user asked for; zero values mean "the profile's default". */
struct plan_request {
	uint64_t ctx;
	bool kv_set;
	enum kv_type kv;
	bool strict;		/* --strict */
};

struct plan_suggestion {
	char *text;		/* for people */
	char *args;		/* command-line arguments that apply it, or
				 * NULL */
	uint64_t saving;	/* bytes it saves, by planning again */
};

struct plan {
	bool valid;			/* a plan was made */
	uint64_t ctx;			/* requested context */
	uint64_t ctx_cells;		/* llama.cpp's n_ctx: padded to 256 */
	uint64_t swa_cells;		/* cells of the sliding-window cache */
	enum kv_type kv;
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

	struct plan_suggestion sugg[PLAN_MAX_SUGGESTIONS];
	size_t n_sugg;
	char *notes[PLAN_MAX_NOTES];
	size_t n_notes;
};

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
uint64_t plan_kv_bytes(const struct model_geom *g, enum kv_type kv,
    uint64_t cells, uint64_t swa_cells, bool flash_attention,
    uint64_t *k_bytes, uint64_t *v_bytes);
uint64_t plan_swa_cells(const struct model_geom *g, uint64_t ctx,
    uint64_t ubatch);
uint64_t plan_state_bytes(const struct model_geom *g);
uint64_t plan_forward_bytes(const struct model_geom *g, uint64_t ctx,
    uint64_t chunk);

#endif
