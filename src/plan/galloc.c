/*
 * galloc.c - ggml-alloc's placement, node by node (galloc.h). The free
 * list is kept sorted by offset; a tensor takes the smallest free block
 * that holds it, the last block excepted, and the last block (which grows
 * the buffer) only when none does. A freed range merges with its
 * neighbours. One chunk a buffer: a compute buffer beyond the backend's
 * largest allocation is not split here.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "plan/galloc.h"

#define GA_MAX_FREE 256 /* ggml's MAX_FREE_BLOCKS */

struct ga_block {
	uint64_t offset, size;
};

struct ga_talloc {
	struct ga_block free[GA_MAX_FREE];
	int n_free;
	uint64_t align, max_size;
	bool full; /* more free blocks than ggml holds */
};

struct ga_state {
	int32_t children, views;
	bool owned; /* allocated here and not yet freed */
	bool placed;
};

static uint64_t
ga_round(uint64_t n, uint64_t align)
{
	if (align <= 1)
		return n;
	return n > UINT64_MAX - (align - 1) ? UINT64_MAX :
					      (n + align - 1) / align * align;
}

static void
ga_remove(struct ga_talloc *a, int i)
{
	memmove(&a->free[i], &a->free[i + 1],
	    (size_t)(a->n_free - i - 1) * sizeof a->free[0]);
	a->n_free--;
}

static uint64_t
ga_alloc(struct ga_talloc *a, uint64_t size)
{
	int i, best = -1;
	uint64_t best_size = UINT64_MAX, off;

	size = ga_round(size, a->align);
	for (i = 0; i < a->n_free - 1; i++)
		if (a->free[i].size >= size && a->free[i].size <= best_size) {
			best = i;
			best_size = a->free[i].size;
		}
	if (best < 0)
		best = a->n_free - 1; /* the last block: endless */
	off = a->free[best].offset;
	a->free[best].offset += size;
	a->free[best].size -= size;
	if (a->free[best].size == 0)
		ga_remove(a, best);
	if (off + size > a->max_size)
		a->max_size = off + size;
	return off;
}

static void
ga_insert(struct ga_talloc *a, uint64_t off, uint64_t size)
{
	int i = 0;

	if (a->n_free >= GA_MAX_FREE) {
		a->full = true;
		return;
	}
	while (i < a->n_free && a->free[i].offset < off)
		i++;
	memmove(&a->free[i + 1], &a->free[i],
	    (size_t)(a->n_free - i) * sizeof a->free[0]);
	a->free[i].offset = off;
	a->free[i].size = size;
	a->n_free++;
}

static void
ga_free(struct ga_talloc *a, uint64_t off, uint64_t size)
{
	int i;

	size = ga_round(size, a->align);
	for (i = 0; i < a->n_free; i++) {
		struct ga_block *b = &a->free[i];

		if (b->offset + b->size == off) {
			b->size += size;
			if (i < a->n_free - 1 &&
			    b->offset + b->size == a->free[i + 1].offset) {
				b->size += a->free[i + 1].size;
				ga_remove(a, i + 1);
			}
			return;
		}
		if (off + size == b->offset) {
			b->offset = off;
			b->size += size;
			if (i > 0 &&
			    a->free[i - 1].offset + a->free[i - 1].size ==
				b->offset) {
				a->free[i - 1].size += b->size;
				ga_remove(a, i);
			}
			return;
		}
	}
	ga_insert(a, off, size);
}

struct ga_run {
	struct ga_graph *g;
	struct ga_state *st;
	struct ga_talloc *ta;
};

/* Gives the parent's extra bytes back when a smaller node reuses it. */
static void
ga_shrink(struct ga_run *r, const struct ga_node *node,
    const struct ga_node *parent)
{
	struct ga_talloc *a = &r->ta[parent->buffer];
	uint64_t ps = ga_round(parent->bytes, a->align);
	uint64_t ns = ga_round(node->bytes, a->align);

	if (ps > ns)
		ga_free(a, parent->offset + ns, ps - ns);
}

/* Whether node i may take over its parent p's bytes (in place): an
 * owned parent (never a view: the allocator owns no view) with no other
 * reader, not an output, of the same layout. The node takes the parent's
 * buffer, as ggml does. */
static bool
ga_reuse(struct ga_run *r, int32_t i, int32_t p)
{
	struct ga_node *n = &r->g->nodes[i], *pn = &r->g->nodes[p];
	struct ga_state *ps = &r->st[p];

	if (!ps->owned || (pn->flags & GA_OUTPUT) || pn->layout != n->layout ||
	    ps->children != 1 || ps->views != 0)
		return false;
	n->offset = pn->offset;
	n->buffer = pn->buffer;
	ps->owned = false;
	ga_shrink(r, n, pn);
	return true;
}

static void
ga_allocate(struct ga_run *r, int32_t i)
{
	struct ga_node *n = &r->g->nodes[i];
	struct ga_state *s = &r->st[i];
	int k;

	if (s->placed)
		return;
	s->placed = true;
	if (n->flags & (GA_VIEW | GA_EXTERN))
		return;
	s->owned = true;
	if (n->flags & GA_INPLACE)
		for (k = 0; k < GA_MAX_SRC; k++)
			if (n->src[k] != GA_NONE && ga_reuse(r, i, n->src[k]))
				return;
	n->offset = ga_alloc(&r->ta[n->buffer], n->bytes);
}

static void
ga_release(struct ga_run *r, int32_t p)
{
	struct ga_node *pn = &r->g->nodes[p];
	struct ga_state *ps = &r->st[p];

	if (--ps->children != 0 || ps->views != 0 || (pn->flags & GA_DEP))
		return;
	if (pn->flags & GA_VIEW) {
		int32_t v = pn->view_of;
		struct ga_state *vs = &r->st[v];

		if (--vs->views == 0 && vs->children == 0 && vs->owned &&
		    !(r->g->nodes[v].flags & GA_OUTPUT)) {
			ga_free(&r->ta[r->g->nodes[v].buffer],
			    r->g->nodes[v].offset, r->g->nodes[v].bytes);
			vs->owned = false;
		}
	} else if (ps->owned && !(pn->flags & GA_OUTPUT)) {
		ga_free(&r->ta[pn->buffer], pn->offset, pn->bytes);
		ps->owned = false;
	}
}

static bool
ga_valid(const struct ga_graph *g)
{
	size_t i;
	int k;

	for (i = 0; i < g->n; i++) {
		const struct ga_node *n = &g->nodes[i];

		if (n->buffer >= GA_MAX_BUFFERS)
			return false;
		if ((n->flags & GA_VIEW) && !(n->flags & GA_DEP) &&
		    (n->view_of < 0 || (size_t)n->view_of >= i))
			return false;
		/* a dependency may name a view the graph reaches later */
		for (k = 0; k < GA_MAX_SRC; k++)
			if (n->src[k] != GA_NONE &&
			    (n->src[k] < 0 || (size_t)n->src[k] >= g->n ||
				((size_t)n->src[k] >= i &&
				    (!(n->flags & GA_DEP) ||
					!(g->nodes[n->src[k]].flags &
					    GA_VIEW)))))
				return false;
	}
	return true;
}

/* Counts readers and views, and places the inputs (and sources that are
 * inputs) before any node, as the allocator does. */
static void
ga_count(struct ga_run *r)
{
	size_t i;
	int k;

	for (i = 0; i < r->g->n; i++) {
		const struct ga_node *n = &r->g->nodes[i];

		if ((n->flags & GA_VIEW) && !(n->flags & GA_DEP))
			r->st[n->view_of].views++;
		if (n->flags & GA_INPUT)
			ga_allocate(r, (int32_t)i);
		for (k = 0; k < GA_MAX_SRC; k++) {
			if (n->src[k] == GA_NONE)
				continue;
			r->st[n->src[k]].children++;
			if (r->g->nodes[n->src[k]].flags & GA_INPUT)
				ga_allocate(r, n->src[k]);
		}
	}
}

bool
ga_place(struct ga_graph *g)
{
	struct ga_run r = { g, NULL, NULL };
	size_t i;
	int k;
	bool ok;

	if (g->n > INT32_MAX || !ga_valid(g))
		return false;
	r.st = calloc(g->n ? g->n : 1, sizeof *r.st);
	r.ta = calloc(GA_MAX_BUFFERS, sizeof *r.ta);
	if (r.st == NULL || r.ta == NULL) {
		free(r.st);
		free(r.ta);
		return false;
	}
	for (k = 0; k < GA_MAX_BUFFERS; k++) {
		r.ta[k].align = g->align[k];
		r.ta[k].n_free = 1;
		r.ta[k].free[0].size = UINT64_MAX / 2;
	}
	ga_count(&r);
	for (i = 0; i < g->n; i++) {
		const struct ga_node *n = &g->nodes[i];

		for (k = 0; k < GA_MAX_SRC; k++)
			if (n->src[k] != GA_NONE)
				ga_allocate(&r, n->src[k]);
		ga_allocate(&r, (int32_t)i);
		for (k = 0; k < GA_MAX_SRC; k++)
			if (n->src[k] != GA_NONE)
				ga_release(&r, n->src[k]);
	}
	ok = true;
	for (k = 0; k < GA_MAX_BUFFERS; k++) {
		g->peak[k] = r.ta[k].max_size;
		ok = ok && !r.ta[k].full;
	}
	free(r.st);
	free(r.ta);
	return ok;
}
