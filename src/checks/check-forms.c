/*
 * check-forms.c - W family (weight forms) and K family (capability tables).
 * W001/W002: weights no verified kernel of the profile's table can feed,
 * one finding per encoding with the tensors and bytes it concerns. K001: a
 * table entry the probe could not verify.
 */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "base/units.h"
#include "checks/checks.h"
#include "kernels/ggml-types.h"

/* What the tensors of one encoding would cost if dequantized. */
struct enc_total {
	size_t count;
	size_t first;		/* index of the first tensor */
	uint64_t stored, resident;
};

static void
report_encoding(const struct check_ctx *c, struct diag_list *dl,
    uint32_t type, const struct enc_total *e)
{
	const struct gguf_tensor *t = &c->file->tensors[e->first];
	char mult[16], tb[16], a[32], b[32];
	const char *name = ggml_type_name(type, tb, sizeof tb);

	resolve_multiplier(type, mult, sizeof mult);
	if (c->strict)
		diag_add(dl, "W001", t->offset_info, SUBJECT_TENSOR, t->name.p,
		    (size_t)t->name.n, "no kernel on this target can feed a "
		    "%s weight, and %s is strict: loading %zu %s tensor%s (%s) "
		    "would dequantize %s to f32 \xe2\x80\x94 about %s\xc3\x97 "
		    "the bytes (%s) \xe2\x80\x94 and the profile asks to be "
		    "told rather than to pay that quietly. Convert the file to "
		    "an encoding table %s can feed, add a verified %s kernel "
		    "to the table, or use a non-strict profile", name,
		    c->profile->name, e->count, name, e->count == 1 ? "" : "s",
		    format_size(e->stored, a, sizeof a),
		    e->count == 1 ? "it" : "them", mult,
		    format_size(e->resident, b, sizeof b), c->table->name,
		    name);
	else
		diag_add(dl, "W002", t->offset_info, SUBJECT_TENSOR, t->name.p,
		    (size_t)t->name.n, "no kernel of table %s can feed a %s "
		    "weight: %zu tensor%s (%s) dequantized to f32 at load, "
		    "adding %s (about %s\xc3\x97 the bytes)", c->table->name,
		    name, e->count, e->count == 1 ? "" : "s",
		    format_size(e->stored, a, sizeof a),
		    format_size(e->resident - e->stored, b, sizeof b), mult);
}

void
check_forms(const struct check_ctx *c, struct diag_list *dl)
{
	struct enc_total *tot;
	uint32_t type;
	size_t i;

	if (c->forms == NULL || c->table == NULL)
		return;
	tot = xcalloc(GGML_TYPE_COUNT, sizeof *tot);
	for (i = 0; i < c->file->tensors_n; i++) {
		const struct weight_form *w = &c->forms[i];
		struct enc_total *e;

		type = c->file->tensors[i].type;
		if (w->encoding == FORM_KEEP || type >= GGML_TYPE_COUNT)
			continue;
		e = &tot[type];
		if (e->count++ == 0)
			e->first = i;
		e->stored += w->stored_bytes;
		e->resident += w->resident_bytes;
	}
	for (type = 0; type < GGML_TYPE_COUNT; type++)
		if (tot[type].count > 0)
			report_encoding(c, dl, type, &tot[type]);
	free(tot);
}

void
check_kernels(const struct check_ctx *c, struct diag_list *dl)
{
	char tb[16];
	size_t i;

	if (c->table == NULL)
		return;
	for (i = 0; i < c->table->n; i++) {
		const struct cap_entry *e = &c->table->entries[i];

		if (e->verified)
			continue;
		diag_add(dl, "K001", 0, SUBJECT_NONE, NULL, 0, "capability "
		    "table %s (%s:%zu) claims %s %s via %s, but %s; the entry "
		    "is left out of the verified set", c->table->name,
		    c->table->origin, e->line, cap_op_name(e->op),
		    ggml_type_name(e->encoding, tb, sizeof tb),
		    e->kernel_name, e->error ? e->error : "it was not probed");
	}
}
