/*
 * table.c - the runtime probe's answers as a capability table
 * (runtime.h): what --list-kernels shows and --write-kernels writes.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "kernels/ggml-types.h"
#include "kernels/kernels.h"
#include "runtime/runtime.h"

struct rt_case *
runtime_cases_all(uint32_t row, size_t *n)
{
	struct rt_case *v = NULL;
	const struct kernel *k;
	size_t m = 0;

	row = (row + 255) / 256 * 256;
	for (k = kernels; k->name != NULL; k++) {
		if (k->op != KERNEL_DEQUANT ||
		    k->order != KERNEL_ORDER_AS_STORED ||
		    !runtime_has_reference(k->type))
			continue;
		v = xreallocarray(v, m + 2, sizeof *v);
		memset(&v[m], 0, 2 * sizeof *v);
		v[m].op = RT_MUL_MAT;
		v[m + 1].op = RT_GET_ROWS;
		v[m].encoding = v[m + 1].encoding = k->type;
		v[m].row = v[m + 1].row = row;
		m += 2;
	}
	*n = m;
	return v;
}

static enum cap_state
state_of(enum rt_state s)
{
	return s == RT_VERIFIED ? CAP_RT_VERIFIED :
	    s == RT_FALLBACK	? CAP_RT_FALLBACK :
	    s == RT_UNSAFE	? CAP_RT_UNSAFE :
				  CAP_REFERENCE_ONLY;
}

static char *
dup_or_null(const char *s)
{
	return s != NULL ? xstrdup(s) : NULL;
}

void
runtime_table(const struct rt_info *info, const struct rt_case *cases, size_t n,
    struct captable *t)
{
	const char *dev = info->device.name ? info->device.name : "unknown";
	char tb[16];
	size_t i;

	memset(t, 0, sizeof *t);
	t->name = xasprintf("runtime-%s", dev);
	t->description = xasprintf("ggml %s on %s (%s)",
	    info->version ? info->version : "unknown", dev,
	    info->device.description ? info->device.description : "");
	t->origin = xstrdup(info->dir ? info->dir : "runtime");
	t->prov.runtime_dir = dup_or_null(info->dir);
	t->prov.version = dup_or_null(info->version);
	t->prov.commit = dup_or_null(info->commit);
	t->prov.device = xstrdup(dev);
	t->prov.description = dup_or_null(info->device.description);
	/* the backend library; a GPU's own driver is in its description */
	t->prov.driver = info->device.library && *info->device.library ?
	    xstrdup(info->device.library) :
	    NULL;
	t->prov.date = dup_or_null(info->date);
	t->live = true;
	t->entries = xcalloc(n + 1, sizeof *t->entries);
	for (i = 0; i < n; i++) {
		const struct rt_case *c = &cases[i];
		struct cap_entry *e = &t->entries[t->n];

		if (c->op == RT_MUL_MAT_ID)
			continue;
		e->op = c->op == RT_MUL_MAT ? CAP_MATMUL : CAP_GET_ROWS;
		e->encoding = c->encoding;
		e->input = GGML_TYPE_F32;
		e->order = KERNEL_ORDER_AS_STORED;
		e->kernel_name = xasprintf("%s.%s.scalar",
		    ggml_type_name(c->encoding, tb, sizeof tb),
		    c->op == RT_MUL_MAT ? "dot" : "dequant");
		e->state = state_of(c->state);
		e->nmse = c->nmse;
		e->reason = dup_or_null(c->reason);
		t->n++;
	}
}
