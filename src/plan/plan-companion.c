/*
 * plan-companion.c - the files llama.cpp v0.5.0 loads beside a model, in
 * its plan (plan.h, struct plan_companion): a multimodal projector on the
 * GPU backend when there is one (tools/mtmd's clip loader, use_gpu by
 * default), else the host; a LoRA adapter's tensors in the buffer of the
 * base tensor each adapts (llama_adapter_lora_init), a control vector's
 * directions on their layer's device; a draft model as its own plan
 * (common_speculative: the model's context and batches, its own f16 cache
 * and layers all offloaded by default), device by device.
 */
#include "config.h"

#include <string.h>

#include "base/util.h"
#include "plan/plan-impl.h"

/* The device llama.cpp puts layer il's tensors on (plan_llama_weights'
 * rule): the GPU for a layer at or past the first offloaded one. */
static size_t
layer_device(const struct planner *pn, const struct plan *pl, int64_t il)
{
	int64_t gpu_start = (int64_t)pn->g->n_layer + 1 - pl->ngl;

	return pl->n_dev > 1 && il >= 0 && il >= gpu_start ? 1 : 0;
}

/* An mmproj, a LoRA or a control vector: its tensors on their devices. */
static void
place_tensors(const struct planner *pn, const struct plan *pl,
    const struct plan_companion_in *in, struct plan_companion *c)
{
	const struct gguf_file *f = in->file;
	size_t i, d = pl->n_dev > 1 ? 1 : 0;
	int64_t il;

	for (i = 0; f != NULL && i < f->tensors_n; i++) {
		const struct gguf_tensor *t = &f->tensors[i];

		if (!t->size_ok)
			continue;
		if (in->kind == COMPANION_LORA) {
			il = plan_llama_layer(t, pn->g->n_layer);
			d = layer_device(pn, pl, il);
		} else if (in->kind == COMPANION_CVEC) {
			il = role_direction_layer(t->name);
			d = layer_device(pn, pl, il);
		}
		c->weights = plan_sadd(c->weights, t->nbytes);
		c->bytes[d] = plan_sadd(c->bytes[d], t->nbytes);
	}
}

/* A draft model: every buffer of its own plan, device by device. */
static void
place_draft(const struct plan *pl, const struct plan *own,
    struct plan_companion *c)
{
	size_t i;

	if (own == NULL || !own->valid)
		return;
	c->weights = own->weights;
	c->kv_bytes = plan_sadd(own->kv_bytes, own->state_bytes);
	for (i = 0; i < own->n_dev && i < pl->n_dev; i++) {
		const struct plan_device *d = &own->dev[i];
		uint64_t n = plan_sadd(d->model_bytes, d->repack_bytes);

		n = plan_sadd(n, plan_sadd(d->kv_bytes, d->compute_bytes));
		c->bytes[i] = plan_sadd(n, d->output_bytes);
	}
	c->mapped = own->dev[0].mapped_bytes;
}

static const char mmproj_note[] = "the projector's compute buffer (its "
				  "encoder's graph) is not counted";

void
plan_llama_companions(const struct planner *pn, struct plan *pl)
{
	const struct plan_request *rq = pn->rq;
	size_t i;

	for (i = 0; i < rq->n_companions; i++) {
		const struct plan_companion_in *in = &rq->companions[i];
		struct plan_companion *c = &pl->comp[pl->n_comp];

		if (pl->n_comp == PLAN_MAX_COMPANIONS)
			break; /* not planned beyond */
		pl->n_comp++;
		memset(c, 0, sizeof *c);
		c->kind = in->kind;
		c->path = xstrdup(in->path);
		if (in->kind == COMPANION_DRAFT)
			place_draft(pl, in->own, c);
		else
			place_tensors(pn, pl, in, c);
		if (in->kind == COMPANION_MMPROJ &&
		    pl->n_notes < PLAN_MAX_NOTES)
			pl->notes[pl->n_notes++] = xstrdup(mmproj_note);
	}
}
