/*
 * check-deep.c - D family: what --deep found in the tensor data.
 */
#include "config.h"

#include <math.h>

#include "checks/checks.h"

static void
check_one(const struct gguf_tensor *t, const struct deep_stats *s,
    struct diag_list *dl)
{
	double big = fmax(fabs(s->min), fabs(s->max));

	if (s->truncated)
		diag_add(dl, "F032", t->offset_info, SUBJECT_TENSOR, t->name.p,
		    (size_t)t->name.n, "the file shrank while this tensor's "
		    "data was being read");
	if (s->nonfinite > 0)
		diag_add(dl, "D001", t->offset_info, SUBJECT_TENSOR, t->name.p,
		    (size_t)t->name.n, "%llu of %llu values are NaN or "
		    "infinite (or come from an invalid block scale)",
		    (unsigned long long)s->nonfinite,
		    (unsigned long long)s->count);
	if (s->all_zero)
		diag_add(dl, "D002", t->offset_info, SUBJECT_TENSOR, t->name.p,
		    (size_t)t->name.n, "all %llu values are zero",
		    (unsigned long long)s->count);
	/* deep_scan decodes every tensor whose values may pass the limit */
	if (s->exact && s->finite > 0 && big > DEEP_RANGE_LIMIT)
		diag_add(dl, "D003", t->offset_info, SUBJECT_TENSOR, t->name.p,
		    (size_t)t->name.n, "values reach %g (from %g to %g); "
		    "weights normally stay below %g", big, s->min, s->max,
		    DEEP_RANGE_LIMIT);
}

void
check_deep(const struct check_ctx *c, struct diag_list *dl)
{
	size_t i;

	if (c->deep == NULL)
		return;
	for (i = 0; i < c->file->tensors_n; i++)
		if (c->deep[i].scanned)
			check_one(&c->file->tensors[i], &c->deep[i], dl);
}
