/*
 * report-json.c - the JSON reporter: one object,
 *   {"version": 1, "gguflint": {"version", "commit"}, "files": [{"path",
 *    "profile", "role", "diagnostics": [...], "plan": null, "forms": []}]}
 * "version" is the format's (1), "gguflint" the program's release and the
 * commit it was built from (null for a release tarball's build).
 * A companion of the model (--mmproj, --lora, ...) has "companion": {"of":
 * the model's path, "as": "mmproj", "lora", "control-vector" or "draft"}.
 * With a baseline, each diagnostic has "baselined" (true or false) and
 * the object ends with "baseline": {"gone": N}, the entries no finding
 * matched. Byte sizes and offsets are integers; strings are valid UTF-8
 * (bytes that are not become U+FFFD).
 */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "base/enc.h"
#include "base/util.h"
#include "facts/role.h"
#include "findings/catalog.h"
#include "findings/diag.h"
#include "findings/severity.h"
#include "kernels/ggml-types.h"
#include "lint.h"
#include "plan/resolve.h"
#include "reader/deep.h"
#include "reader/gguf.h"
#include "report/report.h"
#include "target/captable.h"
#include "target/kvtype.h"
#include "target/profile.h"

/* res's weight forms as a JSON array ([] without). */
static void report_json_forms(struct strbuf *out,
    const struct lint_result *res);
/* res's --deep statistics as a JSON array (one object per tensor
 * scanned), or null when the data was not read. */
static void report_json_deep(struct strbuf *out,
    const struct lint_result *res);

void
report_json_begin(struct report_ctx *ctx, struct strbuf *out)
{
	(void)ctx;
	strbuf_adds(out, "{\"version\": 1, \"gguflint\": ");
	report_json_tool(out);
	strbuf_adds(out, ", \"files\": [");
}

static const char *
kind_name(enum subject_kind k)
{
	switch (k) {
	case SUBJECT_KEY:
		return "key";
	case SUBJECT_TENSOR:
		return "tensor";
	default:
		return NULL;
	}
}

static void
add_diag(struct strbuf *out, const struct diag *d, bool baseline)
{
	strbuf_adds(out, "{\"code\": ");
	enc_json_cstr(out, d->rule->code);
	strbuf_adds(out, ", \"slug\": ");
	enc_json_cstr(out, d->rule->slug);
	strbuf_adds(out, ", \"severity\": ");
	enc_json_cstr(out, severity_name(d->severity));
	strbuf_adds(out, ", \"message\": ");
	enc_json_cstr(out, d->message);
	strbuf_adds(out, ", \"note\": ");
	if (d->note != NULL)
		enc_json_cstr(out, d->note);
	else
		strbuf_adds(out, "null");
	strbuf_adds(out, ", \"fix\": ");
	if (d->fix != NULL)
		enc_json_cstr(out, d->fix);
	else
		strbuf_adds(out, "null");
	strbuf_addf(out, ", \"offset\": %" PRIu64 ", \"subject\": ", d->offset);
	if (d->subject != NULL)
		enc_json_string(out, d->subject, d->subject_len);
	else
		strbuf_adds(out, "null");
	strbuf_adds(out, ", \"subject_kind\": ");
	if (kind_name(d->kind) != NULL)
		enc_json_cstr(out, kind_name(d->kind));
	else
		strbuf_adds(out, "null");
	if (d->n_items > 0) {	/* the full list the message abridges */
		size_t i;

		strbuf_adds(out, ", \"items\": [");
		for (i = 0; i < d->n_items; i++) {
			strbuf_adds(out, i ? ", " : "");
			enc_json_cstr(out, d->items[i]);
		}
		strbuf_adds(out, "]");
	}
	if (baseline)	/* a baseline is in force: new or baselined */
		strbuf_addf(out, ", \"baselined\": %s", d->baselined ?
		    "true" : "false");
	strbuf_adds(out, "}");
}

void
report_json_file(struct report_ctx *ctx, struct strbuf *out,
    const struct lint_result *res)
{
	size_t i;

	if (!ctx->first)
		strbuf_adds(out, ",");
	ctx->first = false;
	strbuf_adds(out, "\n  {\"path\": ");
	enc_json_cstr(out, res->path);
	strbuf_adds(out, ", \"profile\": ");
	if (res->profile != NULL)
		enc_json_cstr(out, res->profile->name);
	else
		strbuf_adds(out, "null");
	strbuf_addf(out, ", \"role\": \"%s\"", role_name(res->role));
	if (res->companion_of != NULL) {	/* --mmproj, --lora, ... */
		strbuf_adds(out, ", \"companion\": {\"of\": ");
		enc_json_cstr(out, res->companion_of);
		strbuf_addf(out, ", \"as\": \"%s\"}",
		    companion_name(res->given));
	}
	if (res->model != NULL) {	/* a shard of a split model */
		strbuf_adds(out, ", \"split\": {\"model\": ");
		enc_json_cstr(out, res->model);
		strbuf_addf(out, ", \"no\": %zu, \"count\": %zu}",
		    res->shard_no, res->shards);
	}
	strbuf_adds(out, ", \"diagnostics\": [");
	for (i = 0; i < res->diags.n; i++) {
		strbuf_adds(out, i ? ",\n    " : "\n    ");
		add_diag(out, &res->diags.v[i], ctx->opts.baseline);
	}
	strbuf_adds(out, res->diags.n ? "\n  ], " : "], ");
	strbuf_adds(out, "\"plan\": ");
	report_plan_json(out, res);
	strbuf_adds(out, ", \"forms\": ");
	report_json_forms(out, res);
	strbuf_adds(out, ", \"deep\": ");
	report_json_deep(out, res);
	strbuf_adds(out, ", \"min_runtime\": ");
	report_runtime_json(out, res);
	strbuf_adds(out, "}");
}

void
report_json_end(struct report_ctx *ctx, struct strbuf *out)
{
	if (ctx->opts.baseline)
		strbuf_addf(out, "\n], \"baseline\": {\"gone\": %zu}}\n",
		    ctx->baseline_gone);
	else
		strbuf_adds(out, "\n]}\n");
}

void
report_json_rules(struct report_ctx *ctx, struct strbuf *out)
{
	const struct catalog *cat = ctx->cat;
	size_t i;

	strbuf_adds(out, "[");
	for (i = 0; i < cat->n; i++) {
		const struct rule *r = &cat->rules[i];

		strbuf_adds(out, i ? ",\n  {\"code\": " : "\n  {\"code\": ");
		enc_json_cstr(out, r->code);
		strbuf_adds(out, ", \"slug\": ");
		enc_json_cstr(out, r->slug);
		strbuf_addf(out, ", \"family\": \"%c\", \"severity\": ",
		    r->family);
		enc_json_cstr(out, severity_name(r->severity));
		strbuf_adds(out, ", \"summary\": ");
		enc_json_cstr(out, r->summary);
		strbuf_adds(out, "}");
	}
	strbuf_adds(out, "\n]\n");
}

void
report_json_explain(struct report_ctx *ctx, struct strbuf *out,
    const struct rule *r)
{
	(void)ctx;
	strbuf_adds(out, "{\"code\": ");
	enc_json_cstr(out, r->code);
	strbuf_adds(out, ", \"slug\": ");
	enc_json_cstr(out, r->slug);
	strbuf_addf(out, ", \"family\": \"%c\", \"severity\": ", r->family);
	enc_json_cstr(out, severity_name(r->severity));
	strbuf_adds(out, ", \"summary\": ");
	enc_json_cstr(out, r->summary);
	strbuf_adds(out, ", \"rationale\": ");
	enc_json_cstr(out, r->rationale);
	strbuf_adds(out, ", \"basis\": ");
	enc_json_cstr(out, r->basis);
	strbuf_adds(out, ", \"fix\": ");
	enc_json_cstr(out, r->fix);
	strbuf_adds(out, "}\n");
}

void
report_json_profiles(struct report_ctx *ctx, struct strbuf *out,
    const struct profile *p, size_t n)
{
	size_t i;

	(void)ctx;
	strbuf_adds(out, "[");
	for (i = 0; i < n; i++) {
		strbuf_adds(out, i ? ",\n  {\"name\": " : "\n  {\"name\": ");
		enc_json_cstr(out, p[i].name);
		strbuf_adds(out, ", \"description\": ");
		enc_json_cstr(out, p[i].description);
		strbuf_addf(out, ", \"runtime\": \"%s\", \"backend\": ",
		    profile_runtime_name(p[i].runtime));
		if (p[i].runtime == RUNTIME_LLAMA_CPP && p[i].backend != NULL)
			enc_json_cstr(out, p[i].backend);
		else
			strbuf_adds(out, "null");
		strbuf_addf(out, ", \"memory_bytes\": %" PRIu64 ", "
		    "\"reserve_bytes\": %" PRIu64 ", \"weights\": \"%s\", "
		    "\"strict\": %s, \"context\": %" PRIu64 ", "
		    "\"kv_cache\": \"%s\", \"kv_quantized\": \"%s\", "
		    "\"kv_auto_quantize_above\": %g, \"prefill_chunk\": %"
		    PRIu64 ", \"ubatch\": %" PRIu64 ", "
		    "\"flash_attention\": %s, \"kernels\": ", p[i].memory,
		    p[i].reserve,
		    p[i].weights == WEIGHTS_MAPPED ? "mapped" : "heap",
		    p[i].strict ? "true" : "false", p[i].context,
		    kv_type_info(p[i].kv_cache)->name,
		    kv_type_info(p[i].kv_quantized)->name,
		    p[i].kv_auto_quantize_above, p[i].prefill_chunk,
		    p[i].ubatch, p[i].flash_attention ? "true" : "false");
		enc_json_cstr(out, p[i].kernels);
		strbuf_adds(out, "}");
	}
	strbuf_adds(out, "\n]\n");
}

/* A string member, or null. */
static void
json_str_or_null(struct strbuf *out, const char *key, const char *v)
{
	strbuf_addf(out, ", \"%s\": ", key);
	if (v != NULL)
		enc_json_cstr(out, v);
	else
		strbuf_adds(out, "null");
}

/* What a runtime said of entry e of t: state, device, nmse, reason. */
static void
json_entry_state(struct strbuf *out, const struct captable *t,
    const struct cap_entry *e)
{
	char vb[256];
	bool rt = e->state != CAP_REFERENCE_ONLY;

	strbuf_addf(out, ", \"state\": \"%s\"", cap_state_name(e->state));
	json_str_or_null(out, "device", rt ? t->prov.device : NULL);
	if (rt && e->state != CAP_RT_FALLBACK && e->nmse >= 0)
		strbuf_addf(out, ", \"nmse\": %.17g", e->nmse);
	else
		strbuf_adds(out, ", \"nmse\": null");
	json_str_or_null(out, "reason", rt ? e->reason : NULL);
	json_str_or_null(out, "verified_by", captable_verified_by(t, e, vb,
	    sizeof vb));
}

void
report_json_kernels(struct report_ctx *ctx, struct strbuf *out,
    const struct captable *t, size_t n)
{
	char tb[16];
	size_t i, j;
	bool first = true;

	(void)ctx;
	strbuf_adds(out, "[");
	for (i = 0; i < n; i++) {
		for (j = 0; j < t[i].n; j++) {
			const struct cap_entry *e = &t[i].entries[j];

			strbuf_adds(out, first ? "\n  {\"table\": " :
			    ",\n  {\"table\": ");
			first = false;
			enc_json_cstr(out, t[i].name);
			strbuf_addf(out, ", \"op\": \"%s\", \"encoding\": "
			    "\"%s\", \"order\": \"%s\", \"kernel\": ",
			    cap_op_name(e->op), ggml_type_name(e->encoding, tb,
			    sizeof tb), kernel_order_name(e->order));
			enc_json_cstr(out, e->kernel_name);
			strbuf_addf(out, ", \"verified\": %s, \"max_error\": "
			    "%.17g, \"probe_us\": %.3f, \"error\": ",
			    e->verified ? "true" : "false",
			    isfinite(e->max_error) ? e->max_error : -1.0,
			    e->probe_us);
			if (e->error != NULL)
				enc_json_cstr(out, e->error);
			else
				strbuf_adds(out, "null");
			json_entry_state(out, &t[i], e);
			strbuf_adds(out, "}");
		}
	}
	strbuf_adds(out, "\n]\n");
}

static void
report_json_forms(struct strbuf *out, const struct lint_result *res)
{
	char tb[16];
	size_t i;

	strbuf_adds(out, "[");
	for (i = 0; res->forms != NULL && i < res->file.tensors_n; i++) {
		const struct weight_form *w = &res->forms[i];
		const struct gguf_tensor *t = &res->file.tensors[i];

		strbuf_adds(out, i ? ",\n    {\"tensor\": " :
		    "\n    {\"tensor\": ");
		enc_json_string(out, t->name.p, (size_t)t->name.n);
		strbuf_addf(out, ", \"encoding\": \"%s\", \"form\": \"%s\", "
		    "\"to\": ", ggml_type_name(t->type, tb, sizeof tb),
		    form_encoding_name(w->encoding));
		if (w->encoding != FORM_KEEP)
			strbuf_addf(out, "\"%s\"", ggml_type_name(w->to_type,
			    tb, sizeof tb));
		else
			strbuf_adds(out, "null");
		strbuf_addf(out, ", \"order\": \"%s\", \"residency\": "
		    "\"%s\", \"refused\": %s, \"stored_bytes\": %" PRIu64
		    ", \"resident_bytes\": %" PRIu64 ", \"kernel\": ",
		    kernel_order_name(w->order), w->residency ==
		    WEIGHTS_MAPPED ? "mapped" : "heap", w->refused ? "true" :
		    "false", w->stored_bytes, w->resident_bytes);
		if (w->entry != NULL)
			enc_json_cstr(out, w->entry->kernel_name);
		else
			strbuf_adds(out, "null");
		strbuf_adds(out, "}");
	}
	strbuf_adds(out, res->forms != NULL && res->file.tensors_n ?
	    "\n  ]" : "]");
}

/* JSON numbers for doubles: shortest round trip; NaN (no data) as null. */
static void
add_double(struct strbuf *out, double v)
{
	if (!isfinite(v))
		strbuf_adds(out, "null");
	else
		strbuf_addf(out, "%.17g", v);
}

static void
report_json_deep(struct strbuf *out, const struct lint_result *res)
{
	size_t i, n = 0;

	if (res->deep == NULL) {
		strbuf_adds(out, "null");
		return;
	}
	strbuf_adds(out, "[");
	for (i = 0; i < res->file.tensors_n; i++) {
		const struct deep_stats *s = &res->deep[i];
		const struct gguf_tensor *t = &res->file.tensors[i];
		double mean = s->finite ? s->sum / (double)s->finite : NAN;
		double rms = s->finite ? sqrt(s->sum_sq / (double)s->finite) :
		    NAN;

		if (!s->scanned)
			continue;
		strbuf_adds(out, n++ ? ",\n    {\"name\": " :
		    "\n    {\"name\": ");
		enc_json_string(out, t->name.p, (size_t)t->name.n);
		strbuf_addf(out, ", \"count\": %" PRIu64 ", \"dequantized\": "
		    "%s, \"min\": ", s->count, s->dequantized ? "true" :
		    "false");
		add_double(out, s->finite ? s->min : NAN);
		strbuf_adds(out, ", \"max\": ");
		add_double(out, s->finite ? s->max : NAN);
		strbuf_adds(out, ", \"mean\": ");
		add_double(out, mean);
		strbuf_adds(out, ", \"rms\": ");
		add_double(out, rms);
		strbuf_addf(out, ", \"nonfinite\": %" PRIu64 ", \"zeros\": %"
		    PRIu64 ", \"zero_scale_hidden\": %" PRIu64 ", "
		    "\"zero_scale_benign\": %" PRIu64 ", \"sha256\": \"%s\"}",
		    s->nonfinite, s->zeros, s->zs_hidden, s->zs_benign,
		    s->truncated ? "" : s->sha256);
	}
	strbuf_adds(out, n ? "\n  ]" : "]");
}

void
report_json_devices(struct report_ctx *ctx, struct strbuf *out,
    const struct rt_info *info)
{
	size_t i;

	(void)ctx;
	strbuf_adds(out, "{\"runtime\": {\"dir\": ");
	enc_json_cstr(out, info->dir ? info->dir : "");
	strbuf_adds(out, ", \"version\": ");
	enc_json_cstr(out, info->version ? info->version : "unknown");
	strbuf_adds(out, ", \"commit\": ");
	enc_json_cstr(out, info->commit ? info->commit : "unknown");
	strbuf_adds(out, "},\n \"devices\": [");
	for (i = 0; i < info->n_devices; i++) {
		const struct rt_device *d = &info->devices[i];

		strbuf_adds(out, i ? ",\n  {\"name\": " : "\n  {\"name\": ");
		enc_json_cstr(out, d->name);
		strbuf_adds(out, ", \"description\": ");
		enc_json_cstr(out, d->description);
		strbuf_adds(out, ", \"type\": ");
		enc_json_cstr(out, d->type);
		strbuf_adds(out, ", \"library\": ");
		enc_json_cstr(out, d->library ? d->library : "");
		strbuf_addf(out, ", \"memory_free\": %" PRIu64 ", "
		    "\"memory_total\": %" PRIu64 ", \"max_tensor_bytes\": %"
		    PRIu64 "}", d->mem_free, d->mem_total, d->max_tensor);
	}
	strbuf_adds(out, "\n]}\n");
}
