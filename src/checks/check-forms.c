/*
 * check-forms.c - W family (weight forms) and K family (capability tables).
 * W001/W002: weights no verified kernel of the profile's table can feed,
 * one finding per encoding with the tensors and bytes it concerns. K001: a
 * table entry the probe (or the runtime) could not verify. With a ggml
 * runtime probed for the model's pairs: K002 (claimed, but unsafe), K003
 * (not claimed: the CPU runs it), K004 (verified, but not in the table),
 * K006 (beyond the largest tensor the device claims).
 */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "base/units.h"
#include "checks/checks.h"
#include "kernels/ggml-types.h"
#include "runtime/runtime.h"

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
	struct diag *d;

	resolve_multiplier(type, mult, sizeof mult);
	if (c->strict) {
		d = diag_add(dl, "W001", t->offset_info, SUBJECT_TENSOR,
		    t->name.p, (size_t)t->name.n, "%zu %s tensor%s (%s) would "
		    "be dequantized to f32: %s, about %s\xc3\x97 (%s is "
		    "strict)", e->count, name, e->count == 1 ? "" : "s",
		    format_size(e->stored, a, sizeof a),
		    format_size(e->resident, b, sizeof b), mult,
		    c->profile->name);
		diag_note(d, "no kernel on this target can feed a %s weight, "
		    "and a strict profile asks to be told rather than to pay "
		    "that quietly", name);
		diag_fix(d, "convert the file to an encoding table %s can "
		    "feed, add a verified %s kernel to the table, or use a "
		    "non-strict profile", c->table->name, name);
	} else {
		diag_note(diag_add(dl, "W002", t->offset_info, SUBJECT_TENSOR,
		    t->name.p, (size_t)t->name.n, "%zu %s tensor%s (%s) "
		    "dequantized to f32 at load: +%s (about %s\xc3\x97 the "
		    "bytes)", e->count, name, e->count == 1 ? "" : "s",
		    format_size(e->stored, a, sizeof a),
		    format_size(e->resident - e->stored, b, sizeof b), mult),
		    "no kernel of table %s can feed a %s weight",
		    c->table->name, name);
	}
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

/* The table's first entry for what case r asks, or NULL. */
static const struct cap_entry *
table_entry(const struct captable *t, const struct rt_case *r)
{
	enum cap_op op = r->op == RT_GET_ROWS ? CAP_GET_ROWS : CAP_MATMUL;
	size_t i;

	for (i = 0; i < t->n; i++)
		if (t->entries[i].op == op && t->entries[i].encoding ==
		    r->encoding && t->entries[i].input == GGML_TYPE_F32)
			return &t->entries[i];
	return NULL;
}

/* K001 from a runtime (an entry it refuses or fails) and K004. */
static void
table_vs_runtime(const struct check_ctx *c, const struct rt_case *r,
    struct diag_list *dl)
{
	const struct cap_entry *e = table_entry(c->table, r);
	const struct rt_info *ri = c->rt_info;
	char tb[16];
	const char *name = ggml_type_name(r->encoding, tb, sizeof tb);

	if (e != NULL && e->verified && (r->state == RT_UNSAFE ||
	    r->state == RT_FALLBACK))
		diag_note(diag_add(dl, "K001", 0, SUBJECT_NONE, NULL, 0,
		    "table %s claims %s %s, but runtime ggml %s on %s %s",
		    c->table->name, cap_op_name(e->op), name, ri->version,
		    ri->device.name, r->state == RT_UNSAFE ? "fails it" :
		    "refuses it"), "%s:%zu: %s", c->table->origin, e->line,
		    r->reason ? r->reason : "");
	else if (e == NULL && r->state == RT_VERIFIED)
		diag_note(diag_add(dl, "K004", 0, SUBJECT_NONE, NULL, 0,
		    "runtime ggml %s on %s verifies %s %s (NMSE %.1e), which "
		    "table %s does not list", ri->version, ri->device.name,
		    rt_op_name(r->op), name, r->nmse, c->table->name),
		    "the device: %s", ri->device.description);
}

/*
 * K006: the weights -ngl would offload whose claim test (plan_claim_bytes)
 * has a tensor beyond the largest the probed GPU claims; one finding, at
 * the largest of them.
 */
static void
oversize_findings(const struct check_ctx *c, struct diag_list *dl)
{
	const struct rt_device *d = &c->rt_info->device;
	const struct gguf_tensor *top = NULL;
	uint64_t bytes = 0, most = 0, cb;
	size_t i, n = 0;
	char a[32], b[32], e[32];

	if (c->geom == NULL || d->max_tensor == 0 || d->type == NULL ||
	    strcmp(d->type, "CPU") == 0)
		return;
	for (i = 0; i < c->file->tensors_n; i++) {
		const struct gguf_tensor *t = &c->file->tensors[i];

		if (!t->size_ok || plan_tensor_layer(t, c->geom->n_layer) < 0 ||
		    (cb = plan_claim_bytes(c->geom, c->file, t)) <=
		    d->max_tensor)
			continue;
		n++;
		bytes = bytes + t->nbytes < bytes ? UINT64_MAX :
		    bytes + t->nbytes;	/* overlapping tensors: saturate */
		if (top == NULL || cb > most)
			top = t, most = cb;
	}
	if (top == NULL)
		return;
	diag_note(diag_add(dl, "K006", top->offset_info, SUBJECT_TENSOR,
	    top->name.p, (size_t)top->name.n, "device %s claims no tensor "
	    "beyond %s: %zu weight%s (%s) would stay on the host, %.*s the "
	    "largest (its claim test has a tensor of %s)", d->name,
	    format_size(d->max_tensor, a, sizeof a), n, n == 1 ? "" : "s",
	    format_size(bytes, b, sizeof b), (int)top->name.n, top->name.p,
	    format_size(most, e, sizeof e)), "llama.cpp's loader keeps them "
	    "in host memory and ggml runs their operations on the CPU; "
	    "device %s, runtime ggml %s", d->description,
	    c->rt_info->version);
}

/* K002 and K003: what the device does with the model's weights. */
static void
runtime_findings(const struct check_ctx *c, struct diag_list *dl)
{
	const struct rt_info *ri = c->rt_info;
	char tb[16];
	size_t i;

	for (i = 0; i < c->n_rt; i++) {
		const struct rt_case *r = &c->rt[i];
		const struct gguf_tensor *t = &c->file->tensors[r->tag];
		const char *name = ggml_type_name(r->encoding, tb, sizeof tb);

		if (r->state == RT_UNSAFE)
			diag_note(diag_add(dl, "K002", t->offset_info,
			    SUBJECT_TENSOR, t->name.p, (size_t)t->name.n,
			    "device %s claims %s on %s weights (rows of %u; "
			    "%zu tensor%s) but is unsafe", ri->device.name,
			    rt_op_name(r->op), name, r->row, r->count,
			    r->count == 1 ? "" : "s"), "%s; device %s, runtime "
			    "ggml %s, commit %s", r->reason ? r->reason :
			    "wrong numbers", ri->device.description,
			    ri->version, ri->commit);
		else if (r->state == RT_FALLBACK)
			diag_note(diag_add(dl, "K003", t->offset_info,
			    SUBJECT_TENSOR, t->name.p, (size_t)t->name.n,
			    "device %s does not claim %s on %s weights (rows "
			    "of %u; %zu tensor%s): the CPU runs it",
			    ri->device.name, rt_op_name(r->op), name, r->row,
			    r->count, r->count == 1 ? "" : "s"), "ggml runs it "
			    "on the CPU, with those bytes in host memory; "
			    "device %s, runtime ggml %s",
			    ri->device.description, ri->version);
		if (r->op != RT_MUL_MAT_ID)
			table_vs_runtime(c, r, dl);
	}
	oversize_findings(c, dl);
}

void
check_kernels(const struct check_ctx *c, struct diag_list *dl)
{
	char tb[16];
	size_t i;

	if (c->table == NULL)
		return;
	if (c->rt != NULL)
		runtime_findings(c, dl);
	else if (c->table->recorded)
		diag_note(diag_add(dl, "K005", 0, SUBJECT_NONE, NULL, 0,
		    "capability table %s: recorded on %s, %s, runtime ggml %s",
		    c->table->name, c->table->prov.device, c->table->prov.date,
		    c->table->prov.version ? c->table->prov.version :
		    "unknown"), "%s%sits states are not checked again here",
		    c->table->prov.description ? c->table->prov.description :
		    "", c->table->prov.description ? "; " : "");
	for (i = 0; i < c->table->n; i++) {
		const struct cap_entry *e = &c->table->entries[i];

		if (e->verified)
			continue;
		diag_note(diag_add(dl, "K001", 0, SUBJECT_NONE, NULL, 0,
		    "table %s claims %s %s via %s, but %s", c->table->name,
		    cap_op_name(e->op), ggml_type_name(e->encoding, tb,
		    sizeof tb), e->kernel_name, e->error ? e->error : "it was "
		    "not probed"), "%s:%zu; the entry is left out of the "
		    "verified set", c->table->origin, e->line);
	}
}
