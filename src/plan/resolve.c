/*
 * resolve.c - the weight-form resolver (see resolve.h). Its rules, in
 * order: residency from the profile alone; a dense weight keeps its form; a
 * weight a verified kernel can feed is kept, in the order that kernel reads;
 * anything else is dequantized to f32 at load, on the heap, unless the
 * profile is strict, which refuses it (W001). A refused weight keeps its
 * f32 cost in the form (what the target would have to do) but the plan
 * prices it as stored: the load fails anyway, and converting the file to a
 * feedable encoding of about the same size is the fix. For llama.cpp
 * profiles every weight is kept as stored; the ones ggml-cpu repacks are in
 * kernel-feed order, on the heap.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "kernels/ggml-types.h"
#include "plan/plan.h"
#include "plan/resolve.h"

bool
resolve_dense(uint32_t type)
{
	const struct ggml_type_info *ti = ggml_type_get(type);

	/* f32 f16 bf16 f64 i8 i16 i32 i64: the types of one-element blocks */
	return ti != NULL && ti->blck == 1;
}

const char *
form_encoding_name(enum form_encoding e)
{
	switch (e) {
	case FORM_DEQUANTIZE:
		return "dequantize";
	case FORM_REQUANTIZE:
		return "requantize";
	default:
		return "keep";
	}
}

const char *
resolve_multiplier(uint32_t type, char *buf, size_t bufsz)
{
	/* SKaiNET's payload bits per element, scales excluded (§3). */
	static const struct {
		uint32_t type;
		double bits;
	} payload[] = {
		{ GGML_TYPE_Q4_0, 4.0 }, { GGML_TYPE_Q4_K, 4.0 },
		{ GGML_TYPE_Q5_0, 5.0 }, { GGML_TYPE_Q5_1, 5.0 },
		{ GGML_TYPE_Q5_K, 5.0 }, { GGML_TYPE_Q6_K, 6.0 },
		{ GGML_TYPE_Q8_0, 8.0 }, { GGML_TYPE_TQ1_0, 1.625 },
		{ GGML_TYPE_TQ2_0, 2.0 },
	};
	const struct ggml_type_info *ti = ggml_type_get(type);
	double bits = 0;
	unsigned tenths;
	size_t i;

	for (i = 0; i < sizeof payload / sizeof payload[0]; i++)
		if (payload[i].type == type)
			bits = payload[i].bits;
	if (bits == 0 && ti != NULL && ti->blck > 0)
		bits = 8.0 * ti->size / ti->blck;
	if (bits == 0) {
		snprintf(buf, bufsz, "several");
		return buf;
	}
	tenths = (unsigned)(32.0 / bits * 10.0);
	snprintf(buf, bufsz, "%u.%u", tenths / 10, tenths % 10);
	return buf;
}

static uint64_t
elements(const struct gguf_tensor *t)
{
	uint64_t n = 1;
	int j;

	for (j = 0; j < GGUF_MAX_DIMS; j++)
		n *= (uint64_t)t->ne[j];	/* size_ok: fits in int64 */
	return n;
}

static void
resolve_one(const struct gguf_tensor *t, const struct profile *p,
    const struct captable *tab, bool strict, struct weight_form *w)
{
	const struct cap_entry *e;

	memset(w, 0, sizeof *w);
	w->residency = p->weights;
	w->stored_bytes = t->size_ok ? t->nbytes : 0;
	w->resident_bytes = w->stored_bytes;
	/* No table: nothing is known of the kernels; keep every weight. */
	if (!t->size_ok || resolve_dense(t->type) || tab == NULL)
		return;
	/* llama.cpp keeps every tensor as stored (a type a GPU cannot run
	 * stays on the host); ggml-cpu repacks some into kernel-feed order,
	 * a heap copy. */
	if (p->runtime == RUNTIME_LLAMA_CPP) {
		w->entry = captable_feeds(tab, t->type);
		if (!profile_gpu(p) &&
		    plan_tensor_repacked(t, p->cpu_features)) {
			w->order = KERNEL_ORDER_KERNEL_FEED;
			w->residency = WEIGHTS_HEAP;
		}
		return;
	}
	if ((e = captable_feeds(tab, t->type)) != NULL) {
		w->entry = e;
		w->order = e->order;
		/* A repacked copy lives on the heap, not in the mapping. */
		if (e->order == KERNEL_ORDER_KERNEL_FEED)
			w->residency = WEIGHTS_HEAP;
		return;
	}
	w->encoding = FORM_DEQUANTIZE;
	w->to_type = 0;			/* f32 */
	w->residency = WEIGHTS_HEAP;
	w->refused = strict;
	if (u64_mul_overflow(elements(t), 4, &w->resident_bytes))
		w->resident_bytes = UINT64_MAX;
}

void
resolve_forms(const struct gguf_file *f, const struct profile *p,
    const struct captable *t, bool strict, struct weight_form *forms)
{
	size_t i;

	for (i = 0; i < f->tensors_n; i++)
		resolve_one(&f->tensors[i], p, t, strict, &forms[i]);
}
