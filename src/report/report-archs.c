/*
 * report-archs.c - --list-archs in text and JSON: what gguflint knows of
 * each architecture (facts/archlist.h), one line or one object each.
 */
#include "config.h"

#include <stdio.h>

#include "base/enc.h"
#include "base/util.h"
#include "facts/archlist.h"
#include "report/report.h"

/* The backends e was measured on, "cpu,vulkan", or "-". */
static const char *
backends(const struct arch_entry *e, char *buf, size_t size)
{
	unsigned on = e->row != NULL ? e->row->measured_on : 0;

	snprintf(buf, size, "%s%s%s", on & ARCH_ON_CPU ? "cpu" : "",
	    on == (ARCH_ON_CPU | ARCH_ON_VULKAN) ? "," : "",
	    on & ARCH_ON_VULKAN ? "vulkan" : "");
	if (on == 0)
		snprintf(buf, size, "-");
	return buf;
}

/* A worst ratio (thousandths) as "1.07", or "-" when there is none. */
static const char *
ratio(uint16_t w, char *buf, size_t size)
{
	if (w == 0)
		snprintf(buf, size, "-");
	else
		snprintf(buf, size, "%u.%02u", (w + 5u) / 1000u,
		    (w + 5u) % 1000u / 10u);
	return buf;
}

/* The worst ratios of e's compute to llama.cpp's, "CPU/VULKAN", or "-"
 * where the graph is placed or nothing was measured. */
static const char *
worst(const struct arch_entry *e, char *buf, size_t size)
{
	char c[16], v[16];

	if (e->row == NULL || e->row->graph.built ||
	    (e->row->fit.worst_cpu == 0 && e->row->fit.worst_vulkan == 0))
		snprintf(buf, size, "-");
	else
		snprintf(buf, size, "%s/%s",
		    ratio(e->row->fit.worst_cpu, c, sizeof c),
		    ratio(e->row->fit.worst_vulkan, v, sizeof v));
	return buf;
}

/* A worst ratio (thousandths) as a JSON number, or null. */
static void
json_ratio(struct strbuf *out, uint16_t w)
{
	if (w == 0)
		strbuf_adds(out, "null");
	else
		strbuf_addf(out, "%u.%03u", w / 1000u, w % 1000u);
}

/* The first build that loads e, "b1041", "v0.5.0" when the data knows it
 * undated, or "-". */
static const char *
first_build(const struct arch_entry *e, const char *release, char *buf,
    size_t size)
{
	if (e->since != NULL && e->since->build != 0)
		snprintf(buf, size, "b%u", (unsigned)e->since->build);
	else
		snprintf(buf, size, "%s",
		    e->since != NULL && release ? release : "-");
	return buf;
}

void
report_text_archs(struct report_ctx *ctx, struct strbuf *out,
    const struct arch_entry *e, size_t n, const char *release)
{
	size_t i, names = 0, exact = 0, placed = 0, fitted = 0;
	char on[16], since[32], w[40];

	(void)ctx;
	strbuf_addf(out, "%-20s %-7s %-8s %-9s %-11s %-10s %s\n",
	    "ARCHITECTURE", "NAMES", "MEMORY", "COMPUTE", "WORST", "MEASURED",
	    "SINCE");
	for (i = 0; i < n; i++) {
		strbuf_addf(out, "%-20s %-7s %-8s %-9s %-11s %-10s %s\n",
		    e[i].name, e[i].names_checked ? "checked" : "-",
		    e[i].memory, e[i].compute, worst(&e[i], w, sizeof w),
		    backends(&e[i], on, sizeof on),
		    first_build(&e[i], release, since, sizeof since));
		names += e[i].names_checked;
		exact += e[i].memory[0] == 'e';
		placed += e[i].compute[0] == 'p';
		fitted += e[i].compute[0] == 'f';
	}
	strbuf_addf(out,
	    "%zu architectures: tensor names checked for %zu, "
	    "memory exact for %zu, compute placed for %zu, fitted for %zu\n",
	    n, names, exact, placed, fitted);
	for (i = 0; i < n; i++)
		if (e[i].row != NULL && e[i].row->unmeasured != NULL)
			strbuf_addf(out, "not measured alone: %s, %s\n",
			    e[i].name, e[i].row->unmeasured);
	strbuf_adds(out,
	    "not measured on CUDA or Metal: CUDA follows ggml-cuda's rules "
	    "read in the source (placed_from_source), Metal the rules "
	    "measured on Vulkan\n");
}

/* ", \"compute_worst_ratio\": {cpu, vulkan}" (each null when not
 * measured), or null where the graph is placed or nothing was. */
static void
json_worst(struct strbuf *out, const struct arch_entry *e)
{
	const struct arch_info *a = e->row;

	strbuf_adds(out, ", \"compute_worst_ratio\": ");
	if (a == NULL || a->graph.built ||
	    (a->fit.worst_cpu == 0 && a->fit.worst_vulkan == 0)) {
		strbuf_adds(out, "null");
		return;
	}
	strbuf_adds(out, "{\"cpu\": ");
	json_ratio(out, a->fit.worst_cpu);
	strbuf_adds(out, ", \"vulkan\": ");
	json_ratio(out, a->fit.worst_vulkan);
	strbuf_adds(out, "}");
}

/* One entry's JSON object. */
static void
json_arch(struct strbuf *out, const struct arch_entry *e, const char *release)
{
	unsigned on = e->row != NULL ? e->row->measured_on : 0;
	char since[32];

	strbuf_adds(out, "{\"name\": ");
	enc_json_cstr(out, e->name);
	strbuf_addf(out,
	    ", \"known\": %s, \"names_checked\": %s, "
	    "\"memory\": \"%s\", \"compute_basis\": \"%s\", "
	    "\"measured_on\": [%s%s%s], \"first_build\": ",
	    e->row != NULL ? "true" : "false",
	    e->names_checked ? "true" : "false", e->memory, e->compute,
	    on & ARCH_ON_CPU ? "\"cpu\"" : "",
	    on == (ARCH_ON_CPU | ARCH_ON_VULKAN) ? ", " : "",
	    on & ARCH_ON_VULKAN ? "\"vulkan\"" : "");
	if (e->since != NULL)
		enc_json_cstr(out,
		    first_build(e, release, since, sizeof since));
	else
		strbuf_adds(out, "null");
	json_worst(out, e);
	strbuf_adds(out, ", \"unmeasured\": ");
	if (e->row != NULL && e->row->unmeasured != NULL)
		enc_json_cstr(out, e->row->unmeasured);
	else
		strbuf_adds(out, "null");
	strbuf_adds(out, ", \"first_date\": ");
	if (e->since != NULL && e->since->date[0] != '\0')
		enc_json_cstr(out, e->since->date);
	else
		strbuf_adds(out, "null");
	strbuf_adds(out, "}");
}

void
report_json_archs(struct report_ctx *ctx, struct strbuf *out,
    const struct arch_entry *e, size_t n, const char *release)
{
	size_t i;

	(void)ctx;
	strbuf_adds(out, "[");
	for (i = 0; i < n; i++) {
		strbuf_adds(out, i ? ",\n  " : "\n  ");
		json_arch(out, &e[i], release);
	}
	strbuf_adds(out, "\n]\n");
}
