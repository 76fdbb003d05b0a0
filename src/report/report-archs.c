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
	size_t i, names = 0, exact = 0, placed = 0;
	char on[16], since[32];

	(void)ctx;
	strbuf_addf(out, "%-20s %-7s %-8s %-9s %-10s %s\n", "ARCHITECTURE",
	    "NAMES", "MEMORY", "COMPUTE", "MEASURED", "SINCE");
	for (i = 0; i < n; i++) {
		strbuf_addf(out, "%-20s %-7s %-8s %-9s %-10s %s\n", e[i].name,
		    e[i].names_checked ? "checked" : "-", e[i].memory,
		    e[i].compute, backends(&e[i], on, sizeof on),
		    first_build(&e[i], release, since, sizeof since));
		names += e[i].names_checked;
		exact += e[i].memory[0] == 'e';
		placed += e[i].compute[0] == 'p';
	}
	strbuf_addf(out,
	    "%zu architectures: tensor names checked for %zu, "
	    "memory exact for %zu, compute placed for %zu\n",
	    n, names, exact, placed);
	for (i = 0; i < n; i++)
		if (e[i].row != NULL && e[i].row->unmeasured != NULL)
			strbuf_addf(out, "not measured alone: %s, %s\n",
			    e[i].name, e[i].row->unmeasured);
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
