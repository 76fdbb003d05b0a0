/*
 * check-deep.c - D family: what --deep found in the tensor data.
 */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "base/util.h"
#include "base/units.h"
#include "checks/checks.h"
#include "kernels/ggml-types.h"

#define ZS_LISTED 5		/* tensors D004's message names */

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

/* A tensor's name, up to a NUL it may hold and at most 80 bytes. */
static void
add_name(struct strbuf *sb, struct gguf_str s)
{
	const char *nul = memchr(s.p, '\0', (size_t)s.n);
	size_t n = nul ? (size_t)(nul - s.p) : (size_t)s.n;

	strbuf_add(sb, s.p, n > 80 ? 80 : n);
	if (n > 80)
		strbuf_adds(sb, "...");
}

/* *acc += a * b, saturating (tensors may share their bytes: the sums of a
 * hostile file can pass any size). */
static void
add_sat(uint64_t *acc, uint64_t a, uint64_t b)
{
	uint64_t p;

	if (u64_mul_overflow(a, b, &p) || u64_add_overflow(*acc, p, acc))
		*acc = UINT64_MAX;
}

/*
 * D004: one finding for the tensors whose zero-scale blocks hide non-zero
 * quants, with the blocks and their bytes; the benign ones (zeros under a
 * zero scale) only counted in its note.
 */
static void
check_zero_scale(const struct check_ctx *c, struct diag_list *dl)
{
	const struct gguf_file *f = c->file;
	struct strbuf sb = STRBUF_INIT;
	uint64_t blocks = 0, bytes = 0, benign = 0;
	size_t i, n = 0, first = 0;
	struct diag *d;
	char size[32];

	for (i = 0; i < f->tensors_n; i++) {
		const struct deep_stats *s = &c->deep[i];
		const struct ggml_type_info *ti;

		add_sat(&benign, s->zs_benign, 1);
		if (!s->scanned || s->zs_hidden == 0)
			continue;
		ti = ggml_type_get(f->tensors[i].type);
		if (n == 0)
			first = i;
		if (n < ZS_LISTED) {
			strbuf_adds(&sb, n ? ", " : "");
			add_name(&sb, f->tensors[i].name);
			strbuf_addf(&sb, " (%llu)",
			    (unsigned long long)s->zs_hidden);
		}
		n++;
		add_sat(&blocks, s->zs_hidden, 1);
		add_sat(&bytes, s->zs_hidden, ti != NULL ? ti->size : 0);
	}
	if (n == 0)
		goto out;
	if (n > ZS_LISTED)
		strbuf_addf(&sb, ", ... %zu more", n - ZS_LISTED);
	d = diag_add(dl, "D004", f->tensors[first].offset_info,
	    SUBJECT_TENSOR, f->tensors[first].name.p, f->tensors[first].name.n,
	    "%llu block%s (%s) in %zu tensor%s hold non-zero quants under a "
	    "zero scale", (unsigned long long)blocks, blocks == 1 ? "" : "s",
	    format_size(bytes, size, sizeof size), n, n == 1 ? "" : "s");
	diag_note(d, "%s; the zero scale multiplies those quants by zero, so "
	    "no inference sees what they hold", strbuf_cstr(&sb));
	if (benign > 0)
		diag_note(d, "(%llu block%s of zeros under a zero scale, as a "
		    "quantizer writes zeros, %s not counted)",
		    (unsigned long long)benign, benign == 1 ? "" : "s",
		    benign == 1 ? "is" : "are");
	for (i = 0; i < f->tensors_n; i++)	/* all of them, for JSON */
		if (c->deep[i].scanned && c->deep[i].zs_hidden > 0)
			diag_attach_item(d, f->tensors[i].name.p,
			    (size_t)f->tensors[i].name.n);
out:
	strbuf_free(&sb);
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
	check_zero_scale(c, dl);
}
