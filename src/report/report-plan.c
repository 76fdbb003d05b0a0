/*
 * report-plan.c - the memory plan as text (--plan; SKaiNET's table layout,
 * skainet-semantics.md §7.7, with binary unit labels) and as the JSON
 * "plan" object (every line in bytes).
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "base/enc.h"
#include "base/replica.h"
#include "base/units.h"
#include "base/util.h"
#include "facts/arch.h"
#include "facts/role.h"
#include "lint.h"
#include "plan/plan.h"
#include "report/report.h"
#include "target/kvtype.h"
#include "target/profile.h"

#define W_SECTION 10
#define W_DETAIL 26
#define W_BYTES 10

/* Append s padded with spaces to w display columns (UTF-8 aware). */
static void
pad(struct strbuf *out, const char *s, int w, bool right)
{
	int cols = 0;
	const unsigned char *p;

	for (p = (const unsigned char *)s; *p; p++)
		cols += (*p & 0xC0) != 0x80;
	if (right)
		for (; cols < w; cols++)
			strbuf_addc(out, ' ');
	strbuf_adds(out, s);
	if (!right)
		for (; cols < w; cols++)
			strbuf_addc(out, ' ');
}

static void
line(struct strbuf *out, const char *section, const char *detail,
    uint64_t bytes, const char *flag)
{
	char b[32];

	strbuf_adds(out, "  ");
	pad(out, section, W_SECTION, false);
	pad(out, detail, W_DETAIL, false);
	pad(out, format_size(bytes, b, sizeof b), W_BYTES, true);
	if (flag != NULL)
		strbuf_addf(out, "   %s", flag);
	strbuf_addc(out, '\n');
}

/* The mark of a figure over its limit: "\u2718 does not fit: +312 MiB over
 * the 1.3 GiB budget" (what: "budget", "of device memory", ...). */
#define MARK_OVER "\xe2\x9c\x98 does not fit: "

/*
 * flag_over: into buf (size n), flag (NULL: nothing) and, when bytes pass
 * limit, the mark saying by how much and of what: "+X over the LIMIT
 * what". Returns buf, or flag itself when bytes do not pass limit.
 */
static const char *
flag_over(char *buf, size_t n, const char *flag, uint64_t bytes,
    uint64_t limit, const char *what)
{
	char a[32], b[32];

	if (bytes <= limit)
		return flag;
	snprintf(buf, n, "%s%s" MARK_OVER "+%s over the %s %s", flag ?
	    flag : "", flag ? "  " : "", format_size(bytes - limit, a,
	    sizeof a), format_size(limit, b, sizeof b), what);
	return buf;
}

static void
profile_header(struct strbuf *out, const struct profile *p)
{
	char a[32], b[32], c[32];

	strbuf_addf(out, "profile %s \xc2\xb7 memory %s \xc2\xb7 reserve %s "
	    "\xc2\xb7 budget %s \xc2\xb7 weights %s \xc2\xb7 prefill %"
	    PRIu64 " \xc2\xb7 flash attention %s", p->name,
	    format_size(p->memory, a, sizeof a),
	    format_size(p->reserve, b, sizeof b),
	    format_size(p->memory - p->reserve, c, sizeof c),
	    p->weights == WEIGHTS_MAPPED ? "mapped" : "heap", p->prefill_chunk,
	    p->flash_attention ? "on" : "off");
	if (p->kv_auto_quantize_above < 1.0)
		strbuf_addf(out, " \xc2\xb7 KV auto-quantize over %.1f%%",
		    p->kv_auto_quantize_above * 100.0);
	if (p->strict)
		strbuf_adds(out, " \xc2\xb7 strict");
	strbuf_addc(out, '\n');
}

/* llama.cpp's header: its runtime, backend, CPU and settings. */
static void
llama_header(struct strbuf *out, const struct plan *pl,
    const struct profile *p)
{
	char a[32], b[32], c[32], f[64];

	strbuf_addf(out, "profile %s \xc2\xb7 llama.cpp, %s \xc2\xb7 memory %s "
	    "\xc2\xb7 reserve %s \xc2\xb7 budget %s", p->name, p->backend,
	    format_size(p->memory, a, sizeof a),
	    format_size(p->reserve, b, sizeof b),
	    format_size(p->memory - p->reserve, c, sizeof c));
	if (p->device_memory > 0 && !p->unified)
		strbuf_addf(out, " \xc2\xb7 device %s", format_size(
		    p->device_memory - p->device_reserve, a, sizeof a));
	strbuf_addf(out, " \xc2\xb7 cpu %s%s \xc2\xb7 mmap %s \xc2\xb7 ubatch %"
	    PRIu64 " \xc2\xb7 flash attention %s", cpu_features_format(
	    p->cpu_features, f, sizeof f), p->cpu_features_host ? " (host)" :
	    "", pl->mmap ? "on" : "off", pl->n_ubatch,
	    pl->flash_attention ? "on" : "off");
	if (pl->n_seq > 1)
		strbuf_addf(out, " \xc2\xb7 %" PRIu64 " sequences", pl->n_seq);
	if (pl->n_dev > 1)
		strbuf_addf(out, " \xc2\xb7 -ngl %" PRId64, pl->ngl);
	if (pl->n_cpu_moe > 0)
		strbuf_addf(out, " \xc2\xb7 --n-cpu-moe %" PRId64,
		    pl->n_cpu_moe);
	strbuf_addc(out, '\n');
}

/* The weights above that -ngl would put on the device and that stay on
 * the host: the probed GPU does not claim them (K003), or they are beyond
 * the largest tensor it claims (K006). */
static void
fallback_line(struct strbuf *out, const struct plan *pl)
{
	char d[64], f[160], lim[32];
	size_t n = pl->n_fallback, big = pl->n_oversize;

	snprintf(d, sizeof d, "not claimed by %s", pl->probed ?
	    pl->probed_dev : pl->dev[1].name);
	format_size(pl->max_tensor, lim, sizeof lim);
	if (big == 0)
		snprintf(f, sizeof f, "of the host's weights above: %zu "
		    "tensor%s -ngl would offload (K003)", n, n == 1 ? "" : "s");
	else if (pl->probed)
		snprintf(f, sizeof f, "of the host's weights above: %zu "
		    "tensor%s -ngl would offload (%zu beyond its %s: K006%s)",
		    n, n == 1 ? "" : "s", big, lim, big < n ? "; K003" : "");
	else
		snprintf(f, sizeof f, "of the host's weights above: %zu "
		    "tensor%s -ngl would offload, beyond the profile's "
		    "max_alloc %s", n, n == 1 ? "" : "s", lim);
	line(out, "fallback", d, pl->fallback_bytes, f);
}

/* The expert weights above that --n-cpu-moe keeps on the host. */
static void
cpu_moe_line(struct strbuf *out, const struct plan *pl)
{
	char d[64], f[96];
	size_t n = pl->n_cpu_moe_tensors;

	snprintf(d, sizeof d, "--n-cpu-moe %" PRId64, pl->n_cpu_moe);
	snprintf(f, sizeof f, "of the host's weights above: %zu expert "
	    "tensor%s -ngl would offload", n, n == 1 ? "" : "s");
	line(out, "cpu moe", d, pl->cpu_moe_bytes, f);
}

/* A ratio in thousandths as "1.07x". */
static const char *
times(char *buf, size_t size, unsigned w)
{
	snprintf(buf, size, "%u.%02ux", (w + 5) / 1000, (w + 5) % 1000 / 10);
	return buf;
}

/* The note of device v's compute line: measured (--measure, with the
 * model's figure), estimated (and why), or none. */
static void
compute_note(char *f, size_t n, const struct plan *pl,
    const struct plan_device *v)
{
	char m[32], w[16];

	f[0] = '\0';
	if (pl->compute_measured)
		snprintf(f, n, "measured by %s%s (the model: %s)",
		    pl->measured_by, pl->measured_cached ? ", cached" : "",
		    format_size(v->compute_modeled, m, sizeof m));
	else if (pl->compute_placed && pl->compute_unmeasured)
		snprintf(f, n, "llama.cpp's graph, placed by the rules read in "
		    "its source, not measured");
	else if (pl->compute_placed && !pl->limits_known)
		snprintf(f, n, "llama.cpp's graph, placed assuming no device "
		    "limit");
	else if (pl->compute_placed)
		snprintf(f, n, "llama.cpp's graph, placed tensor by tensor");
	else if (pl->compute_estimated && pl->compute_worst != 0)
		snprintf(f, n, "estimated (%s; %s llama.cpp's at worst)",
		    pl->compute_why ? pl->compute_why :
		    "not built for this architecture", times(w, sizeof w,
		    pl->compute_worst));
	else if (pl->compute_estimated)
		snprintf(f, n, "estimated (%s)", pl->compute_why ?
		    pl->compute_why : "not measured for this architecture");
	else if (pl->compute_worst != 0)
		snprintf(f, n, "fitted (%s llama.cpp's at worst)",
		    times(w, sizeof w, pl->compute_worst));
}

/* How the compute buffers were found, for the JSON plan. */
static const char *
compute_basis(const struct plan *pl)
{
	if (pl->compute_measured)
		return "measured";
	if (pl->compute_placed && pl->compute_unmeasured)
		return "placed_from_source";
	if (pl->compute_placed)
		return pl->limits_known ? "placed" : "placed_no_limits";
	return pl->compute_estimated ? "estimated" : "fitted";
}

/* One line per buffer of a llama.cpp plan, host first. */
static void
llama_table(struct strbuf *out, const struct plan *pl)
{
	char d[64], f[128], o[192], lim[48];
	size_t i;

	for (i = 0; i < pl->n_dev; i++) {
		const struct plan_device *v = &pl->dev[i];
		const char *dev = v->name;
		uint64_t resident = v->model_bytes - v->mapped_bytes;

		/* a line alone over its device's limit is marked */
		snprintf(lim, sizeof lim, v->host ? "budget" : "of %s", dev);
		if (v->mapped_bytes > 0)
			line(out, "weights", "mapped, as stored",
			    v->mapped_bytes, flag_over(o, sizeof o, "mapped "
			    "(page cache, evictable \xe2\x80\x94 not heap)",
			    v->mapped_bytes, pl->memory, "of device memory"));
		if (v->model_bytes > v->mapped_bytes) {
			snprintf(d, sizeof d, "%s, as stored", dev);
			line(out, "weights", d, resident, flag_over(o,
			    sizeof o, "resident", resident, v->memory_bytes,
			    lim));
		}
		if (v->repack_bytes > 0) {
			snprintf(f, sizeof f, "heap copy of %zu tensors in "
			    "kernel-feed order", pl->n_repacked);
			line(out, "repack", "CPU_REPACK", v->repack_bytes, f);
		}
		if (i == 0 && pl->n_fallback > 0)
			fallback_line(out, pl);
		if (i == 0 && pl->n_cpu_moe_tensors > 0)
			cpu_moe_line(out, pl);
		if (v->kv_bytes > 0) {
			snprintf(d, sizeof d, "%s K %s V %s @ ctx %" PRIu64,
			    dev, kv_type_info(pl->kv_k)->name,
			    kv_type_info(pl->kv_v)->name, pl->ctx);
			line(out, pl->state_bytes ? "kv+state" : "kv cache", d,
			    v->kv_bytes, flag_over(o, sizeof o, "resident",
			    v->kv_bytes, v->memory_bytes, lim));
		}
		snprintf(d, sizeof d, "%s, ubatch %" PRIu64, dev,
		    pl->n_ubatch);
		compute_note(f, sizeof f, pl, v);
		if (v->compute_bytes > 0 ||
		    (pl->compute_measured && v->compute_modeled > 0))
			line(out, "compute", d, v->compute_bytes,
			    f[0] != '\0' ? f : NULL);
		if (v->output_bytes > 0)
			line(out, "output", "logits, f32", v->output_bytes,
			    NULL);
		if (v->overhead_bytes > 0) {
			snprintf(d, sizeof d, "%s runtime", dev);
			line(out, "overhead", d, v->overhead_bytes,
			    "context, workspace, pool (device_overhead)");
		}
	}
}

/* One limit of the limits line: "128 MiB (profile)", "none (backend)",
 * "not known (KEY)". */
static void
limit_text(struct strbuf *out, uint64_t v, enum plan_limit_from from,
    const char *key)
{
	char b[32];

	if (from == PLAN_LIMIT_UNKNOWN)
		strbuf_addf(out, "not known (no %s in the profile%s)", key,
		    strcmp(key, "max_alloc") == 0 ? ", no probe" : "");
	else if (v == 0)
		strbuf_addf(out, "none (%s)", from == PLAN_LIMIT_NONE ?
		    "backend" : from == PLAN_LIMIT_PROBE ? "probed" :
		    "profile");
	else
		strbuf_addf(out, "%s (%s)", format_size(v, b, sizeof b),
		    from == PLAN_LIMIT_PROBE ? "probed" : "profile");
}

/* The GPU's limits the plan applied, and whether it had to assume
 * none. */
static void
limits_text(struct strbuf *out, const struct plan *pl)
{
	strbuf_addf(out, "  limits: largest tensor on %s ", pl->dev[1].name);
	limit_text(out, pl->max_tensor, pl->max_tensor_from, "max_alloc");
	strbuf_adds(out, " \xc2\xb7 host buffer block ");
	limit_text(out, pl->host_block, pl->host_block_from,
	    "host_max_alloc");
	if (!pl->limits_known)
		strbuf_adds(out, ": planned as if there were none");
	strbuf_addc(out, '\n');
}

/* The last component of path. */
static const char *
base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s != NULL ? s + 1 : path;
}

/* Each companion on its own lines: what it adds on each device. */
static void
companion_lines(struct strbuf *out, const struct plan *pl)
{
	struct strbuf f = STRBUF_INIT;
	char d[64];
	size_t k, i;

	for (k = 0; k < pl->n_comp; k++) {
		const struct plan_companion *c = &pl->comp[k];
		const char *what = c->kind == COMPANION_DRAFT ? "draft" :
		    c->kind == COMPANION_CVEC ? "cvec" :
		    companion_name(c->kind);

		for (i = 0; i < pl->n_dev; i++) {
			if (c->bytes[i] == 0 && !(i == 0 && c->weights == 0))
				continue;
			snprintf(d, sizeof d, "%s, %s", pl->dev[i].name,
			    c->kind == COMPANION_DRAFT ? "model, KV, compute" :
			    "weights");
			strbuf_reset(&f);
			strbuf_adds(&f, i == 0 && c->mapped > 0 ?
			    "partly mapped: " : "resident: ");
			enc_text(&f, base_name(c->path),
			    strlen(base_name(c->path)));
			line(out, what, d, c->bytes[i], strbuf_cstr(&f));
		}
	}
	strbuf_free(&f);
}

static void
table(struct strbuf *out, const struct plan *pl, const struct profile *p)
{
	char d[64], f[96], a[32], o[192];

	/* a line alone over the budget (or, mapped, the memory) is marked:
	 * P001 and P002 */
	if (pl->weights_mapped > 0)
		line(out, "weights", "mapped, as stored", pl->weights_mapped,
		    flag_over(o, sizeof o, "mapped (page cache, evictable "
		    "\xe2\x80\x94 not heap)", pl->weights_mapped, pl->memory,
		    "of device memory"));
	if (pl->weights_heap > 0 || pl->weights_mapped == 0)
		line(out, "weights", "heap, as stored", pl->weights_heap,
		    flag_over(o, sizeof o, "resident", pl->weights_heap,
		    pl->budget, "budget"));
	snprintf(d, sizeof d, "%s @ ctx %" PRIu64, kv_type_info(pl->kv_k)->name,
	    pl->ctx);
	snprintf(f, sizeof f, "resident   (%s with %s)", format_size(
	    pl->kv_alt_bytes, a, sizeof a), kv_type_info(pl->kv_alt)->name);
	line(out, "kv cache", d, pl->kv_bytes, flag_over(o, sizeof o, f,
	    pl->kv_bytes + pl->state_bytes, pl->budget, "budget"));
	if (pl->state_bytes > 0)
		line(out, "state", "recurrent, f32", pl->state_bytes,
		    "resident");
	snprintf(d, sizeof d, "prefill chunk %" PRIu64, p->prefill_chunk);
	line(out, "forward", d, pl->forward, NULL);
	line(out, "heap", "headroom", pl->headroom, NULL);
}

/* "\u2714 fits", or the mark of the excess (flag_over), and a newline. */
static void
add_fit(struct strbuf *out, uint64_t bytes, uint64_t limit, const char *what)
{
	char o[160];

	strbuf_adds(out, bytes <= limit ? "\xe2\x9c\x94 fits" : flag_over(o,
	    sizeof o, NULL, bytes, limit, what));
	strbuf_addc(out, '\n');
}

static void
verdict(struct strbuf *out, const struct plan *pl)
{
	char a[32], b[32], c[32];
	size_t i;

	strbuf_adds(out, "  ");
	pad(out, pl->weights_mapped > 0 ? "total heap" : "total",
	    W_SECTION + W_DETAIL, false);
	pad(out, format_size(pl->budgeted, a, sizeof a), W_BYTES, true);
	strbuf_addf(out, "   of %s  ", format_size(pl->budget, b, sizeof b));
	add_fit(out, pl->budgeted, pl->budget, "budget");
	if (pl->weights_mapped > 0) {
		strbuf_addf(out, "  mapped weights (%s) page against device "
		    "memory: %s of %s in all", format_size(pl->weights_mapped,
		    a, sizeof a), format_size(pl->total, b, sizeof b),
		    format_size(pl->memory, c, sizeof c));
		if (pl->total > pl->memory) {
			strbuf_adds(out, "  ");
			add_fit(out, pl->total, pl->memory, "of device memory");
		} else {
			strbuf_addc(out, '\n');
		}
	}
	for (i = 1; i < pl->n_dev; i++) {
		const struct plan_device *v = &pl->dev[i];

		if (v->host)
			continue;
		strbuf_addf(out, "  %s total %s of %s  ", v->name,
		    format_size(v->total_bytes, a, sizeof a),
		    format_size(v->memory_bytes, b, sizeof b));
		snprintf(c, sizeof c, "of %s", v->name);
		add_fit(out, v->total_bytes, v->memory_bytes, c);
	}
	if (pl->n_sugg == 0)
		return;
	strbuf_adds(out, "  suggestions: ");
	for (i = 0; i < pl->n_sugg; i++)
		strbuf_addf(out, "%s%s (\xe2\x88\x92%s%s)",
		    i ? " \xc2\xb7 " : "", pl->sugg[i].text,
		    format_size(pl->sugg[i].saving, a, sizeof a),
		    pl->sugg[i].measured ? ", measured" : "");
	strbuf_addc(out, '\n');
}

/* "b7186 or later (2025-11-28), for architecture 'qwen3next'" */
static void
min_runtime_text(struct strbuf *out, const struct lint_result *res)
{
	const struct lint_min_runtime *m = &res->min_runtime;

	if (m->state == LINT_MIN_NONE)
		return;
	strbuf_adds(out, "  llama.cpp: ");
	if (m->state == LINT_MIN_DATED)
		strbuf_addf(out, "needs b%u or later (%s), for ",
		    (unsigned)m->build, m->date);
	else if (m->state == LINT_MIN_UNDATED)
		strbuf_addf(out, "needs %s (%s) or an older build gguflint "
		    "cannot date, for ", m->release, m->date);
	else
		strbuf_addf(out, "no release up to %s loads it: ",
		    m->release);
	enc_text(out, m->because, strlen(m->because));
	if (m->state == LINT_MIN_UNKNOWN)
		strbuf_adds(out, " is unknown");
	if (res->profile->runtime_version != NULL)
		strbuf_addf(out, " \xc2\xb7 runtime_version %s",
		    res->profile->runtime_version);
	strbuf_addc(out, '\n');
}

void
report_runtime_json(struct strbuf *out, const struct lint_result *res)
{
	const struct lint_min_runtime *m = &res->min_runtime;

	if (m->state == LINT_MIN_NONE) {
		strbuf_adds(out, "null");
		return;
	}
	if (m->state == LINT_MIN_DATED)
		strbuf_addf(out, "{\"llama.cpp\": \"b%u\", \"date\": \"%s\"",
		    (unsigned)m->build, m->date);
	else if (m->state == LINT_MIN_UNDATED)
		strbuf_addf(out, "{\"llama.cpp\": \"%s\", \"date\": \"%s\"",
		    m->release, m->date);
	else
		strbuf_adds(out, "{\"llama.cpp\": null, \"date\": null");
	strbuf_addf(out, ", \"dated\": %s, \"known\": %s, \"because\": ",
	    m->state == LINT_MIN_DATED ? "true" : "false",
	    m->state == LINT_MIN_UNKNOWN ? "false" : "true");
	enc_json_string(out, m->because, strlen(m->because));
	strbuf_adds(out, "}");
}

void
report_plan_text(struct strbuf *out, const struct lint_result *res)
{
	const struct plan *pl = &res->plan;
	const struct model_geom *g = res->geom;
	size_t i;

	if (res->profile == NULL || g == NULL || !pl->valid)
		return;
	strbuf_adds(out, "\n");
	enc_text(out, res->path, strlen(res->path));
	if (res->shards > 1)
		strbuf_addf(out, " (%zu shards)", res->shards);
	strbuf_addf(out, " \xc2\xb7 %s", g->has_arch ? g->arch : "unknown");
	if (g->n_layer > 0)
		strbuf_addf(out, " \xc2\xb7 %" PRIu32 " layers", g->n_layer);
	strbuf_addf(out, " \xc2\xb7 ctx %" PRIu64 " (%" PRIu64 " cells",
	    pl->ctx, pl->ctx_cells);
	if (g->swa)
		strbuf_addf(out, ", %" PRIu64 " in sliding-window layers",
		    pl->swa_cells);
	strbuf_adds(out, ")\n");
	if (pl->runtime == RUNTIME_LLAMA_CPP)
		llama_header(out, pl, res->profile);
	else
		profile_header(out, res->profile);
	min_runtime_text(out, res);
	for (i = 0; i < pl->n_notes; i++)
		strbuf_addf(out, "  note: %s\n", pl->notes[i]);
	if (pl->runtime == RUNTIME_LLAMA_CPP && pl->n_dev > 1)
		limits_text(out, pl);
	if (pl->runtime == RUNTIME_LLAMA_CPP) {
		llama_table(out, pl);
		companion_lines(out, pl);
	}
	else
		table(out, pl, res->profile);
	verdict(out, pl);
}

static void
json_u64(struct strbuf *out, const char *key, uint64_t v)
{
	strbuf_addf(out, ", \"%s\": %" PRIu64, key, v);
}

/* "companions": what each adds, per device (only when there are). */
static void
json_companions(struct strbuf *out, const struct plan *pl)
{
	size_t k, i;

	strbuf_adds(out, ", \"companions\": [");
	for (k = 0; k < pl->n_comp; k++) {
		const struct plan_companion *c = &pl->comp[k];

		strbuf_addf(out, "%s{\"as\": \"%s\", \"path\": ",
		    k ? ", " : "", companion_name(c->kind));
		enc_json_cstr(out, c->path);
		json_u64(out, "weights_bytes", c->weights);
		json_u64(out, "kv_bytes", c->kv_bytes);
		json_u64(out, "mapped_bytes", c->mapped);
		strbuf_adds(out, ", \"devices\": [");
		for (i = 0; i < pl->n_dev; i++) {
			strbuf_adds(out, i ? ", {\"name\": " : "{\"name\": ");
			enc_json_cstr(out, pl->dev[i].name);
			json_u64(out, "bytes", c->bytes[i]);
			strbuf_adds(out, "}");
		}
		strbuf_adds(out, "]}");
	}
	strbuf_adds(out, "]");
}

static const char *
limit_from(enum plan_limit_from from)
{
	switch (from) {
	case PLAN_LIMIT_PROFILE:
		return "profile";
	case PLAN_LIMIT_PROBE:
		return "probe";
	case PLAN_LIMIT_NONE:
		return "backend";
	case PLAN_LIMIT_UNKNOWN:
		break;
	}
	return "unknown";
}

/* One limit: its bytes (null: none, or unknown) and where it came from. */
static void
json_limit(struct strbuf *out, const char *name, uint64_t v,
    enum plan_limit_from from)
{
	strbuf_addf(out, "\"%s\": ", name);
	if (v > 0)
		strbuf_addf(out, "%" PRIu64, v);
	else
		strbuf_adds(out, "null");
	strbuf_addf(out, ", \"%s_from\": \"%s\"", name, limit_from(from));
}

/* "device_limits": what the plan took for the GPU's limits. */
static void
json_limits(struct strbuf *out, const struct plan *pl)
{
	strbuf_addf(out, ", \"device_limits\": {\"known\": %s, ",
	    pl->limits_known ? "true" : "false");
	json_limit(out, "max_alloc", pl->max_tensor, pl->max_tensor_from);
	strbuf_adds(out, ", ");
	json_limit(out, "host_max_alloc", pl->host_block,
	    pl->host_block_from);
	json_u64(out, "device_block", pl->dev_block);
	strbuf_adds(out, "}");
}

/* llama.cpp's buffers (zero in a SKaiNET plan, which has no devices). */
static void
json_llama(struct strbuf *out, const struct plan *pl)
{
	size_t i;

	strbuf_addf(out, ", \"k_type\": \"%s\", \"v_type\": \"%s\"",
	    kv_type_info(pl->kv_k)->name, kv_type_info(pl->kv_v)->name);
	json_u64(out, "n_seq", pl->n_seq);
	json_u64(out, "n_ubatch", pl->n_ubatch);
	json_u64(out, "repack_bytes", pl->repack_bytes);
	strbuf_addf(out, ", \"repacked_tensors\": %zu", pl->n_repacked);
	json_u64(out, "compute_bytes", pl->compute_bytes);
	strbuf_addf(out, ", \"compute_estimated\": %s, \"compute_basis\": "
	    "\"%s\"", pl->compute_estimated ? "true" : "false",
	    compute_basis(pl));
	strbuf_adds(out, ", \"compute_worst_ratio\": ");
	if (pl->compute_worst != 0)
		strbuf_addf(out, "%u.%03u", pl->compute_worst / 1000u,
		    pl->compute_worst % 1000u);
	else
		strbuf_adds(out, "null");
	if (pl->compute_measured) {	/* --measure */
		strbuf_adds(out, ", \"compute_measured_by\": ");
		enc_json_cstr(out, pl->measured_by);
		strbuf_addf(out, ", \"compute_measured_cached\": %s",
		    pl->measured_cached ? "true" : "false");
	}
	json_u64(out, "output_bytes", pl->output_bytes);
	strbuf_addf(out, ", \"n_gpu_layers\": %" PRId64 ", \"devices\": [",
	    pl->ngl);
	for (i = 0; i < pl->n_dev; i++) {
		const struct plan_device *d = &pl->dev[i];

		strbuf_adds(out, i ? ", {\"name\": " : "{\"name\": ");
		enc_json_cstr(out, d->name);
		json_u64(out, "model_bytes", d->model_bytes);
		json_u64(out, "mapped_bytes", d->mapped_bytes);
		json_u64(out, "repack_bytes", d->repack_bytes);
		json_u64(out, "kv_bytes", d->kv_bytes);
		json_u64(out, "compute_bytes", d->compute_bytes);
		if (pl->compute_measured)
			json_u64(out, "compute_modeled_bytes",
			    d->compute_modeled);
		json_u64(out, "output_bytes", d->output_bytes);
		if (i > 0)
			strbuf_addf(out, ", \"overhead_bytes\": %s",
			    pl->overhead_unknown ? "null" : "");
		if (i > 0 && !pl->overhead_unknown)
			strbuf_addf(out, "%" PRIu64, d->overhead_bytes);
		json_u64(out, "total_bytes", d->total_bytes);
		json_u64(out, "memory_bytes", d->memory_bytes);
		strbuf_adds(out, "}");
	}
	strbuf_adds(out, "]");
	if (pl->n_cpu_moe > 0) {	/* --cpu-moe, --n-cpu-moe */
		strbuf_addf(out, ", \"cpu_moe\": {\"layers\": %" PRId64
		    ", \"tensors\": %zu", pl->n_cpu_moe,
		    pl->n_cpu_moe_tensors);
		json_u64(out, "bytes", pl->cpu_moe_bytes);
		strbuf_adds(out, "}");
	}
	if (pl->n_dev > 1)
		json_limits(out, pl);
	/* a runtime probed: its verdicts; else the weights beyond the
	 * profile's max_alloc */
	if (pl->probed || pl->n_fallback > 0) {
		strbuf_adds(out, ", \"fallback\": {\"device\": ");
		enc_json_cstr(out, pl->probed ? pl->probed_dev :
		    pl->dev[1].name);
		strbuf_addf(out, ", \"tensors\": %zu", pl->n_fallback);
		json_u64(out, "bytes", pl->fallback_bytes);
		strbuf_addf(out, ", \"oversize_tensors\": %zu",
		    pl->n_oversize);
		json_u64(out, "max_tensor_bytes", pl->max_tensor);
		strbuf_adds(out, "}");
	}
	if (pl->n_comp > 0)
		json_companions(out, pl);
}

/* "replica": the llama.cpp build a llama.cpp plan replicates
 * (base/replica.h); a SKaiNET plan follows no llama.cpp and has none. */
static void
json_replica(struct strbuf *out, const struct plan *pl)
{
	static const char *const members[][2] = {
		{ "llama_cpp", REPLICA_LLAMA_CPP },
		{ "commit", REPLICA_COMMIT },
		{ "ggml", REPLICA_GGML },
		{ "node_llama_cpp", REPLICA_NODE_LLAMA_CPP },
		{ "vulkan_device", REPLICA_VULKAN_DEVICE },
		{ "vulkan_driver", REPLICA_VULKAN_DRIVER },
	};
	size_t i;

	if (pl->runtime != RUNTIME_LLAMA_CPP)
		return;
	strbuf_adds(out, ", \"replica\": {");
	for (i = 0; i < sizeof members / sizeof members[0]; i++) {
		strbuf_addf(out, "%s\"%s\": ", i ? ", " : "", members[i][0]);
		enc_json_cstr(out, members[i][1]);
	}
	strbuf_adds(out, "}");
}

void
report_plan_json(struct strbuf *out, const struct lint_result *res)
{
	const struct plan *pl = &res->plan;
	size_t i;

	if (res->profile == NULL || res->geom == NULL || !pl->valid) {
		strbuf_adds(out, "null");
		return;
	}
	strbuf_addf(out, "{\"runtime\": \"%s\"",
	    profile_runtime_name(pl->runtime));
	json_replica(out, pl);
	json_u64(out, "ctx", pl->ctx);
	json_u64(out, "ctx_cells", pl->ctx_cells);
	json_u64(out, "swa_cells", pl->swa_cells);
	strbuf_addf(out, ", \"kv_type\": \"%s\", \"kv_auto_quantized\": %s, "
	    "\"flash_attention\": %s", kv_type_info(pl->kv_k)->name,
	    pl->kv_switched ? "true" : "false",
	    pl->flash_attention ? "true" : "false");
	json_u64(out, "weights_bytes", pl->weights);
	json_u64(out, "weights_mapped_bytes", pl->weights_mapped);
	json_u64(out, "weights_heap_bytes", pl->weights_heap);
	json_u64(out, "k_bytes", pl->k_bytes);
	json_u64(out, "v_bytes", pl->v_bytes);
	json_u64(out, "kv_bytes", pl->kv_bytes);
	strbuf_addf(out, ", \"kv_alt_type\": \"%s\"",
	    kv_type_info(pl->kv_alt)->name);
	json_u64(out, "kv_alt_bytes", pl->kv_alt_bytes);
	json_u64(out, "state_bytes", pl->state_bytes);
	json_u64(out, "forward_bytes", pl->forward);
	json_u64(out, "headroom_bytes", pl->headroom);
	json_u64(out, "total_bytes", pl->total);
	json_u64(out, "budgeted_bytes", pl->budgeted);
	json_u64(out, "memory_bytes", pl->memory);
	json_u64(out, "reserve_bytes", pl->reserve);
	json_u64(out, "budget_bytes", pl->budget);
	json_llama(out, pl);
	strbuf_addf(out, ", \"fits\": %s", pl->fits ? "true" : "false");
	json_u64(out, "over_bytes", pl->over);
	strbuf_adds(out, ", \"notes\": [");
	for (i = 0; i < pl->n_notes; i++) {
		strbuf_adds(out, i ? ", " : "");
		enc_json_string(out, pl->notes[i], strlen(pl->notes[i]));
	}
	strbuf_adds(out, "], \"suggestions\": [");
	for (i = 0; i < pl->n_sugg; i++) {
		const struct plan_suggestion *s = &pl->sugg[i];

		strbuf_adds(out, i ? ", {\"text\": " : "{\"text\": ");
		enc_json_string(out, s->text, strlen(s->text));
		strbuf_adds(out, ", \"args\": ");
		if (s->args != NULL)
			enc_json_string(out, s->args, strlen(s->args));
		else
			strbuf_adds(out, "null");
		json_u64(out, "saving_bytes", s->saving);
		strbuf_addf(out, ", \"measured\": %s}",
		    s->measured ? "true" : "false");
	}
	strbuf_adds(out, "]}");
}
