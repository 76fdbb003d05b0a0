/*
 * archlist.c - the list of --list-archs (see archlist.h): the union of
 * the runtime data's architectures and gguflint's table, sorted by name.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "facts/arch.h"
#include "facts/archlist.h"

const char *
arch_memory_word(const struct arch_info *a)
{
	if (a == NULL || a->kind == ARCH_KIND_UNPLANNED)
		return "assumed";
	return a->measured_on != 0 ? "exact" : "modelled";
}

const char *
arch_compute_word(const struct arch_info *a)
{
	if (a != NULL && a->graph.built)
		return "placed";
	if (a == NULL || a->measured_on == 0)
		return "estimated";
	if ((a->measured_on & ARCH_ON_CPU) &&
	    !arch_worst_within(a->fit.worst_cpu))
		return "estimated";
	if ((a->measured_on & ARCH_ON_VULKAN) &&
	    !arch_worst_within(a->fit.worst_vulkan))
		return "estimated";
	return "fitted";
}

static void
fill(struct arch_entry *e, const char *name, const struct arch_info *a,
    const struct llv_row *since)
{
	e->name = name;
	e->row = a;
	e->since = since;
	e->names_checked = a != NULL && a->mapped;
	e->memory = arch_memory_word(a);
	e->compute = arch_compute_word(a);
}

static int
by_name(const void *a, const void *b)
{
	return strcmp(((const struct arch_entry *)a)->name,
	    ((const struct arch_entry *)b)->name);
}

void
arch_list(const struct llv_db *db, struct arch_entry **out, size_t *n)
{
	size_t nr = db != NULL ? db->n[LLV_ARCH] : 0, nt = 0, i, k = 0;
	const struct llv_row *r;
	const struct arch_info *a;
	struct arch_entry *e;

	while (arch_at(nt) != NULL)
		nt++;
	e = xcalloc(nr + nt + 1, sizeof *e);
	for (i = 0; i < nr; i++) {
		r = &db->rows[LLV_ARCH][i];
		if (strcmp(r->name, "clip") != 0)
			fill(&e[k++], r->name, arch_find(r->name), r);
	}
	for (i = 0; (a = arch_at(i)) != NULL; i++)
		if (db == NULL ||
		    llv_find(db, LLV_ARCH, a->name, strlen(a->name)) == NULL)
			fill(&e[k++], a->name, a, NULL);
	qsort(e, k, sizeof *e, by_name);
	*out = e;
	*n = k;
}
