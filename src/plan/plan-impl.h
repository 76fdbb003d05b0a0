/*
 * plan-impl.h - what plan.c (SKaiNET's arithmetic, the suggestions) and
 * plan-llama.c (llama.cpp's buffers) share: the planner's inputs and the
 * saturating arithmetic. Private to src/plan/.
 */
#ifndef GGUFLINT_PLAN_IMPL_H
#define GGUFLINT_PLAN_IMPL_H

#include <stdint.h>

#include "plan/plan.h"

struct planner {
	const struct model_geom *g;
	const struct gguf_file *f;
	const struct profile *p;
	const struct plan_request *rq;
	const struct weight_form *forms;	/* or NULL: all kept */
	const struct plan_probe *probe;		/* or NULL: none */
};

static inline uint64_t
plan_sadd(uint64_t a, uint64_t b)
{
	uint64_t r;

	return __builtin_add_overflow(a, b, &r) ? UINT64_MAX : r;
}

static inline uint64_t
plan_smul(uint64_t a, uint64_t b)
{
	uint64_t r;

	return __builtin_mul_overflow(a, b, &r) ? UINT64_MAX : r;
}

/*
 * plan_llama_setup: the llama.cpp settings of pl (cache types, sequences,
 * batches, flash attention, offload, mmap) from the request and profile.
 * plan_llama_weights: each tensor's place and buffer (mapped, host heap,
 * CPU_REPACK, device), into pl's devices. plan_llama_at: the plan at
 * context ctx with pl's settings: KV, compute and output buffers, totals
 * and the verdict.
 */
void plan_llama_setup(const struct planner *pn, struct plan *pl);
void plan_llama_weights(const struct planner *pn, struct plan *pl);
void plan_llama_at(const struct planner *pn, uint64_t ctx, struct plan *pl);
/*
 * plan_llama_layer: the layer llama.cpp gives tensor t (blk.N: N; output:
 * n_layer; any other: -1, the input layer). plan_llama_companions: the
 * request's companions into pl->comp (after plan_llama_weights, before
 * plan_llama_at, whose verdict counts them).
 */
int64_t plan_llama_layer(const struct gguf_tensor *t, uint32_t n_layer);
void plan_llama_companions(const struct planner *pn, struct plan *pl);
/* plan_llama_suggest: llama.cpp's fixes when pl does not fit. */
void plan_llama_suggest(const struct planner *pn, struct plan *pl);
/* plan_measured_at: the probe's measurement at pl's parameters, or
 * NULL. */
const struct plan_measured *plan_measured_at(const struct planner *pn,
    const struct plan *pl);

#endif
