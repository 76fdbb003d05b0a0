/*
 * galloc.c - ggml-alloc's placement, node by node (galloc.h). The free
 * list is kept sorted by offset; a tensor takes the smallest free block
 * that holds it, the last block excepted, and the last block (which grows
 * the buffer) only when none does. A freed range merges with its
 * neighbours. A buffer whose type has a largest size (max_size) is
 * placed in chunks of it, as ggml's dynamic allocator does: a tensor
 * goes in one chunk, never across two, and the buffer is the sum of
 * its chunks.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "plan/galloc.h"

#define GA_MAX_FREE 256	 /* ggml's MAX_FREE_BLOCKS */
#define GA_MAX_CHUNKS 16 /* GGML_VBUFFER_MAX_CHUNKS */
#define GA_ENDLESS (UINT64_MAX / 2)

struct ga_block {
	uint64_t offset, size;
};

/* One chunk of a buffer: a backend buffer of its own, no tensor spans
 * two. */
struct ga_chunk {
	struct ga_block free[GA_MAX_FREE];
	int n_free;
	uint64_t max_size; /* its size: the end of its last tensor */
};

struct ga_talloc {
	struct ga_chunk *chunk[GA_MAX_CHUNKS];
	int n_chunks;
	uint64_t align, max_chunk; /* a chunk's room, GA_ENDLESS: none */
	bool full; /* more free blocks or chunks than ggml holds, or no
		    * memory */
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
ga_remove(struct ga_chunk *c, int i)
{
	memmove(&c->free[i], &c->free[i + 1],
	    (size_t)(c->n_free - i - 1) * sizeof c->free[0]);
	c->n_free--;
}

/* A new chunk with room for size at least: the chunk size, or the whole
 * rest when it is the last ggml allows. -1 when none is left. */
static int
ga_new_chunk(struct ga_talloc *a, uint64_t size)
{
	struct ga_chunk *c;

	if (a->n_chunks >= GA_MAX_CHUNKS ||
	    (c = calloc(1, sizeof *c)) == NULL) {
		a->full = true;
		return -1;
	}
	c->n_free = 1;
	c->free[0].size = size > a->max_chunk ? size : a->max_chunk;
	if (a->n_chunks == GA_MAX_CHUNKS - 1)
		c->free[0].size = GA_ENDLESS;
	a->chunk[a->n_chunks] = c;
	return a->n_chunks++;
}

/* The best fit among every chunk's free blocks but its last (the later
 * chunk's when two fit: ggml's search restarts its best size in each
 * chunk), else the last block that grows its chunk least (or wastes
 * least), else a new chunk. Returns the chunk (-1: none) and its block. */
static int
ga_find(struct ga_talloc *a, uint64_t size, int *block)
{
	int c, i, best_c = -1, best_b = -1;
	int64_t best_reuse = INT64_MIN;

	for (c = 0; c < a->n_chunks; c++) {
		const struct ga_chunk *k = a->chunk[c];
		uint64_t best_size = UINT64_MAX;

		for (i = 0; i < k->n_free - 1; i++)
			if (k->free[i].size >= size &&
			    k->free[i].size <= best_size) {
				best_c = c;
				best_b = i;
				best_size = k->free[i].size;
			}
	}
	for (c = 0; best_b < 0 && c < a->n_chunks; c++) {
		const struct ga_chunk *k = a->chunk[c];
		const struct ga_block *b;
		int64_t reuse;

		if (k->n_free == 0)
			continue;
		b = &k->free[k->n_free - 1];
		reuse = (int64_t)(k->max_size - b->offset - size);
		if (b->size >= size &&
		    ((best_reuse < 0 && reuse > best_reuse) ||
			(reuse >= 0 && reuse < best_reuse))) {
			best_c = c;
			best_reuse = reuse;
		}
	}
	if (best_b < 0 && best_c >= 0)
		best_b = a->chunk[best_c]->n_free - 1;
	if (best_b < 0) {
		best_c = ga_new_chunk(a, size);
		best_b = 0;
	}
	*block = best_b;
	return best_c;
}

static uint64_t
ga_alloc(struct ga_talloc *a, uint64_t size, uint8_t *chunk)
{
	struct ga_chunk *k;
	struct ga_block *b;
	uint64_t off;
	int c, i;

	size = ga_round(size, a->align);
	c = ga_find(a, size, &i);
	*chunk = 0;
	if (c < 0)
		return 0;
	k = a->chunk[c];
	b = &k->free[i];
	off = b->offset;
	b->offset += size;
	b->size -= size;
	if (b->size == 0)
		ga_remove(k, i);
	if (off + size > k->max_size)
		k->max_size = off + size;
	*chunk = (uint8_t)c;
	return off;
}

static void
ga_insert(struct ga_talloc *a, struct ga_chunk *c, uint64_t off, uint64_t size)
{
	int i = 0;

	if (c->n_free >= GA_MAX_FREE) {
		a->full = true;
		return;
	}
	while (i < c->n_free && c->free[i].offset < off)
		i++;
	memmove(&c->free[i + 1], &c->free[i],
	    (size_t)(c->n_free - i) * sizeof c->free[0]);
	c->free[i].offset = off;
	c->free[i].size = size;
	c->n_free++;
}

static void
ga_free(struct ga_talloc *a, uint8_t chunk, uint64_t off, uint64_t size)
{
	struct ga_chunk *c;
	int i;

	if (chunk >= a->n_chunks)
		return; /* never placed: the allocator ran out */
	c = a->chunk[chunk];
	size = ga_round(size, a->align);
	for (i = 0; i < c->n_free; i++) {
		struct ga_block *b = &c->free[i];

		if (b->offset + b->size == off) {
			b->size += size;
			if (i < c->n_free - 1 &&
			    b->offset + b->size == c->free[i + 1].offset) {
				b->size += c->free[i + 1].size;
				ga_remove(c, i + 1);
			}
			return;
		}
		if (off + size == b->offset) {
			b->offset = off;
			b->size += size;
			if (i > 0 &&
			    c->free[i - 1].offset + c->free[i - 1].size ==
				b->offset) {
				c->free[i - 1].size += b->size;
				ga_remove(c, i);
			}
			return;
		}
	}
	ga_insert(a, c, off, size);
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
		ga_free(a, parent->chunk, parent->offset + ns, ps - ns);
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
	n->chunk = pn->chunk;
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
	n->offset = ga_alloc(&r->ta[n->buffer], n->bytes, &n->chunk);
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
			    r->g->nodes[v].chunk, r->g->nodes[v].offset,
			    r->g->nodes[v].bytes);
			vs->owned = false;
		}
	} else if (ps->owned && !(pn->flags & GA_OUTPUT)) {
		ga_free(&r->ta[pn->buffer], pn->chunk, pn->offset, pn->bytes);
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
		r.ta[k].max_chunk = g->max_size[k] > 0 &&
			g->max_size[k] < GA_ENDLESS ?
		    g->max_size[k] :
		    GA_ENDLESS;
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
		int c;

		g->peak[k] = 0;
		g->chunks[k] = (uint8_t)r.ta[k].n_chunks;
		for (c = 0; c < r.ta[k].n_chunks; c++) {
			g->peak[k] += r.ta[k].chunk[c]->max_size;
			free(r.ta[k].chunk[c]);
		}
		ok = ok && !r.ta[k].full;
	}
	free(r.st);
	free(r.ta);
	return ok;
}
