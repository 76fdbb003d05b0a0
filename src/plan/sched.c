/*
 * sched.c - ggml's backend scheduler for a GPU beside the CPU (sched.h),
 * as ggml_backend_sched_split_graph does it:
 *  1. a leaf or node in a buffer runs on the backend of that buffer;
 *     graph inputs on the CPU; a node reading a weight (ROPE and flash
 *     attention excepted) on the weight's backend, or on the GPU when
 *     the weight is in host memory and the node's batch is 32 or more;
 *  2. the GPU's nodes spread to their unassigned neighbours, down then
 *     up, then every backend's do;
 *  3. a node still unassigned goes where most of its sources are;
 *  4. views follow what they view, sources their reader;
 *  5. the graph splits where the backend changes, and where a node reads
 *     a weight from another backend's buffer once the split has inputs;
 *     a source in a buffer the split's backend cannot read is copied into
 *     its compute buffer, once for the graph, at the start of the split
 *     that first reads it, the source kept alive until then.
 * On Vulkan the GPU's splits are then reordered (vkorder.c); ggml-cuda
 * keeps the order and the inputs of its MoE fusions alive (cudaopt.c).
 * The whole graph, each split's copies first, is placed by ggml-alloc's
 * rules, a CUDA buffer's tensors with their pad.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "plan/sched.h"

#define SC_OFFLOAD_BATCH 32 /* ggml-vulkan's op_offload_min_batch_size */

struct sc_split {
	int8_t backend;
	size_t start, end; /* in order[] */
	size_t in0, n_in;  /* in inputs[] */
};

struct sc_run {
	struct sc_graph *g;
	bool gpu;
	bool pads; /* the device's buffers add each tensor's pad (CUDA) */
	uint64_t max_tensor; /* the GPU's largest tensor, or 0: no limit */
	int32_t *order;	     /* the graph's nodes (not its leaves) */
	size_t n_order;
	struct sc_split *sp;
	size_t n_sp;
	int32_t *inputs;
	size_t n_inputs;
	int32_t *copy;	     /* per tensor: its copy, or GA_NONE */
	int32_t *uses;	     /* per tensor: its readers' sources that are it */
	struct sc_deps deps; /* the GPU's reordering's */
	size_t n_built;	     /* the graph's tensors before the copies */
};

static bool
is_view_op(uint8_t op)
{
	return op == SC_VIEW || op == SC_RESHAPE || op == SC_PERMUTE ||
	    op == SC_TRANSPOSE;
}

static int32_t
base_of(const struct sc_graph *g, int32_t i)
{
	return g->t[i].view_src != GA_NONE ? g->t[i].view_src : i;
}

static bool
home_is_host(uint8_t h)
{
	return h == SC_WEIGHT_HOST || h == SC_CACHE_HOST;
}

/* Whether backend b runs node t: the CPU any; the GPU neither one marked
 * host_only nor one with a tensor (t or a source) beyond the largest it
 * claims, as ggml-vulkan's supports_op refuses them. */
static bool
supports(const struct sc_run *r, int b, int32_t t)
{
	const struct sc_tensor *n = &r->g->t[t];
	int k;

	if (b == SC_CPU)
		return true;
	if (n->host_only)
		return false;
	if (r->max_tensor == 0)
		return true;
	if (n->bytes > r->max_tensor)
		return false;
	for (k = 0; k < GA_MAX_SRC; k++)
		if (n->src[k] != GA_NONE &&
		    r->g->t[n->src[k]].bytes > r->max_tensor)
			return false;
	return true;
}

/* The backend of the buffer i (or what it views) is in, when it runs op
 * (ggml_backend_sched_backend_from_buffer), or -1. */
static int
from_buffer(const struct sc_run *r, int32_t i, int32_t op)
{
	uint8_t h = r->g->t[base_of(r->g, i)].home;
	int b;

	if (h == SC_COMPUTE)
		return -1;
	b = !r->gpu || home_is_host(h) ? SC_CPU : SC_DEV;
	return supports(r, b, op) ? b : -1;
}

static bool
is_weight(const struct sc_graph *g, int32_t i)
{
	return g->t[i].op == SC_NONE &&
	    (g->t[i].home == SC_WEIGHT_HOST || g->t[i].home == SC_WEIGHT_DEV);
}

/* Pass 1 for one tensor (ggml_backend_sched_backend_id_from_cur). */
static int
from_cur(const struct sc_run *r, int32_t i)
{
	const struct sc_tensor *t = &r->g->t[i];
	int b = from_buffer(r, i, i), k;

	if (b != -1)
		return b;
	if (t->flags & GA_INPUT)
		return SC_CPU;
	if (t->op == SC_ROPE || t->op == SC_FLASH_ATTN)
		return -1;
	for (k = 0; k < GA_MAX_SRC; k++) {
		int32_t s = t->src[k];

		if (s == GA_NONE || !is_weight(r->g, s))
			continue;
		b = from_buffer(r, s, i);
		if (b == SC_CPU && r->gpu && supports(r, SC_DEV, i) &&
		    t->batch >= SC_OFFLOAD_BATCH)
			return SC_DEV; /* offloaded */
		return b;
	}
	return -1;
}

/* The backend whose buffer type holds s (its buffer's, or its
 * backend's), or -1. */
static int
buft_of(const struct sc_run *r, int32_t s)
{
	const struct sc_graph *g = r->g;
	uint8_t h = g->t[base_of(g, s)].home;
	int b;

	if (h != SC_COMPUTE)
		return !r->gpu || home_is_host(h) ? SC_CPU : SC_DEV;
	b = g->t[s].backend;
	if (b == -1 && g->t[s].view_src != GA_NONE)
		b = g->t[g->t[s].view_src].backend;
	return b;
}

/* ggml_backend_sched_buffer_supported: each backend reads its own
 * buffers only (the CPU the host's, the GPU its device's). */
static bool
readable(const struct sc_run *r, int32_t s, int b)
{
	return buft_of(r, s) == b;
}

/* Pass 2: the assigned backends spread along the order (fwd or back),
 * the CPU's too unless gpu_only. */
static void
spread(struct sc_run *r, bool fwd, bool gpu_only)
{
	int cur = -1;
	size_t k;

	for (k = 0; k < r->n_order; k++) {
		int32_t i = r->order[fwd ? k : r->n_order - 1 - k];
		struct sc_tensor *t = &r->g->t[i];

		if (is_view_op(t->op))
			continue;
		if (t->backend != -1)
			cur = gpu_only && t->backend == SC_CPU ? -1 :
								 t->backend;
		else if (cur != -1 && supports(r, cur, i))
			t->backend = (int8_t)cur;
	}
}

static bool
assigned(const struct sc_run *r, int32_t s)
{
	const struct sc_tensor *t = &r->g->t[s];

	return t->backend != -1 ||
	    (t->view_src != GA_NONE && r->g->t[t->view_src].backend != -1);
}

/* Pass 3: an unassigned node goes where most of its sources are. */
static void
best_backend(struct sc_run *r, int32_t i)
{
	struct sc_tensor *t = &r->g->t[i];
	int best = -1, b, k, n;

	for (b = r->gpu ? SC_DEV : SC_CPU; b <= SC_CPU; b++) {
		if (!supports(r, b, i))
			continue;
		n = 0;
		for (k = 0; k < GA_MAX_SRC; k++)
			if (t->src[k] != GA_NONE && assigned(r, t->src[k]) &&
			    readable(r, t->src[k], b))
				n++;
		if (n > best) {
			best = n;
			t->backend = (int8_t)b;
		}
	}
}

/* Pass 4: views follow what they view, sources their reader. */
static void
follow(struct sc_run *r, int32_t i)
{
	struct sc_tensor *t = &r->g->t[i];
	int k;

	if (t->view_src != GA_NONE && t->backend == -1)
		t->backend = r->g->t[t->view_src].backend;
	for (k = 0; k < GA_MAX_SRC; k++) {
		struct sc_tensor *s;

		if (t->src[k] == GA_NONE)
			continue;
		s = &r->g->t[t->src[k]];
		if (s->backend != -1)
			continue;
		s->backend = s->view_src != GA_NONE ?
		    r->g->t[s->view_src].backend :
		    t->backend;
	}
	if (t->backend == -1)
		t->backend = r->gpu && supports(r, SC_DEV, i) ? SC_DEV : SC_CPU;
}

static void
assign(struct sc_run *r)
{
	struct sc_graph *g = r->g;
	size_t i;

	for (i = 0; i < g->n; i++)
		g->t[i].backend = -1;
	for (i = 0; i < g->n; i++)
		if (g->t[i].op == SC_NONE)
			g->t[i].backend = (int8_t)from_cur(r, (int32_t)i);
	for (i = 0; i < r->n_order; i++)
		g->t[r->order[i]].backend = (int8_t)from_cur(r, r->order[i]);
	spread(r, true, true);
	spread(r, false, true);
	spread(r, true, false);
	spread(r, false, false);
	for (i = 0; i < r->n_order; i++) {
		struct sc_tensor *t = &g->t[r->order[i]];

		if (!is_view_op(t->op) && t->backend == -1)
			best_backend(r, r->order[i]);
	}
	for (i = 0; i < r->n_order; i++)
		follow(r, r->order[i]);
}

/* Appends a tensor to g: its index, or GA_NONE when g is full. */
static int32_t
append(struct sc_graph *g, const struct sc_tensor *t)
{
	if (g->n >= g->cap || g->n >= INT32_MAX) {
		g->full = true;
		return GA_NONE;
	}
	g->t[g->n] = *t;
	return (int32_t)g->n++;
}

/* The copy of source s into backend b's compute buffer, made once. */
static bool
copy_in(struct sc_run *r, struct sc_split *sp, int32_t s, int b)
{
	struct sc_tensor c;
	int k;

	if (r->copy[s] != GA_NONE)
		return true;
	memset(&c, 0, sizeof c);
	c.bytes = r->g->t[s].bytes;
	/* a weight's padded rows travel with it; a node's pad is its op's */
	c.pad = r->g->t[s].op == SC_NONE ? r->g->t[s].pad : 0;
	c.layout = r->g->t[s].layout;
	c.view_src = GA_NONE;
	for (k = 0; k < GA_MAX_SRC; k++)
		c.src[k] = GA_NONE;
	c.backend = (int8_t)b;
	r->copy[s] = append(r->g, &c);
	if (r->copy[s] == GA_NONE)
		return false;
	r->inputs[r->n_inputs++] = s;
	sp->n_in++;
	return true;
}

/* Whether node t, on its split's backend cur, reads a weight from a
 * buffer cur cannot read (a new split once the split has inputs). */
static bool
foreign_weight(const struct sc_run *r, const struct sc_tensor *t, int cur)
{
	int k;

	for (k = 0; k < GA_MAX_SRC; k++) {
		int32_t s = t->src[k];

		if (s != GA_NONE && is_weight(r->g, s) &&
		    r->g->t[s].backend != cur && !readable(r, s, cur))
			return true;
	}
	return false;
}

static bool
split_at(struct sc_run *r, size_t i, int backend)
{
	struct sc_split *sp = &r->sp[r->n_sp++];

	sp->backend = (int8_t)backend;
	sp->start = i;
	sp->end = r->n_order;
	sp->in0 = r->n_inputs;
	sp->n_in = 0;
	if (r->n_sp > 1)
		r->sp[r->n_sp - 2].end = i;
	return true;
}

/* Pass 5: the splits and their inputs' copies. */
static bool
split(struct sc_run *r)
{
	size_t i = 0;
	int cur, k;

	while (i < r->n_order && is_view_op(r->g->t[r->order[i]].op))
		i++;
	cur = i < r->n_order ? r->g->t[r->order[i]].backend : SC_CPU;
	split_at(r, 0, cur);
	for (; i < r->n_order; i++) {
		struct sc_tensor *t = &r->g->t[r->order[i]];
		struct sc_split *sp = &r->sp[r->n_sp - 1];

		if (is_view_op(t->op))
			continue;
		if (t->backend != cur ||
		    (sp->n_in > 0 && foreign_weight(r, t, cur))) {
			cur = t->backend;
			split_at(r, i, cur);
			sp = &r->sp[r->n_sp - 1];
		}
		for (k = 0; k < GA_MAX_SRC; k++) {
			int32_t s = t->src[k];

			if (s == GA_NONE || r->g->t[s].backend == cur ||
			    readable(r, s, cur))
				continue;
			if (!copy_in(r, sp, s, cur))
				return false;
			t->src[k] = r->copy[s];
		}
	}
	return true;
}

/* The ga node of tensor t (into ga, its index in map): its size the
 * buffer type's alloc size. */
static bool
ga_add(struct ga_graph *ga, int32_t *map, const struct sc_run *r, int32_t t,
    uint8_t extra)
{
	const struct sc_graph *g = r->g;
	const struct sc_tensor *s = &g->t[t];
	struct ga_node *n = &ga->nodes[ga->n];
	int k;

	memset(n, 0, sizeof *n);
	n->view_of = GA_NONE;
	for (k = 0; k < GA_MAX_SRC; k++)
		n->src[k] = s->src[k] != GA_NONE ? map[s->src[k]] : GA_NONE;
	n->buffer = s->backend == SC_DEV ? 0 : 1;
	n->flags = (uint8_t)(s->flags | extra);
	if (g->t[base_of(g, t)].home != SC_COMPUTE) {
		n->flags = GA_EXTERN; /* a cache's view */
	} else if (s->view_src != GA_NONE) {
		n->flags = (uint8_t)(n->flags | GA_VIEW);
		n->view_of = map[s->view_src];
		if (n->view_of == GA_NONE)
			return false;
	} else {
		n->bytes = s->bytes;
		if (n->buffer == 0 && r->pads)
			n->bytes = s->pad > UINT64_MAX - s->bytes ?
			    UINT64_MAX :
			    s->bytes + s->pad;
		n->layout = s->layout;
	}
	map[t] = (int32_t)ga->n++;
	return true;
}

/* The scheduler's dependency on input s: keeps it until its copy. Its
 * source is set once every node has its place (fix_deps): a split's
 * input may be a view the graph copy reaches later. */
static void
ga_dep(struct ga_graph *ga, int32_t s, int32_t *dep_of)
{
	struct ga_node *n = &ga->nodes[ga->n];
	int k;

	memset(n, 0, sizeof *n);
	for (k = 0; k < GA_MAX_SRC; k++)
		n->src[k] = GA_NONE;
	n->flags = GA_VIEW | GA_DEP;
	n->view_of = GA_NONE;
	dep_of[ga->n++] = s;
}

/* The dependencies' sources, now that every tensor is placed; one on a
 * tensor that is not the allocator's (a weight, or a cache's view the
 * graph reaches later) depends on nothing. */
static void
fix_deps(struct ga_graph *ga, const int32_t *map, const int32_t *dep_of)
{
	size_t i;

	for (i = 0; i < ga->n; i++) {
		struct ga_node *n = &ga->nodes[i];
		int32_t m;

		if (!(n->flags & GA_DEP))
			continue;
		m = map[dep_of[i]];
		if (m != GA_NONE && (ga->nodes[m].flags & GA_EXTERN))
			m = GA_NONE;
		n->src[0] = m;
		if (m == GA_NONE)
			continue;
		n->buffer = ga->nodes[m].buffer;
	}
}

/* Node t, then a dependency for each tensor the reordering keeps alive
 * until t. */
static bool
ga_add_node(const struct sc_run *r, struct ga_graph *ga, int32_t *map,
    int32_t t, int32_t *dep_of)
{
	size_t i;

	if (!ga_add(ga, map, r, t, 0))
		return false;
	for (i = 0; i < r->deps.n; i++)
		if (r->deps.deps[i].until == t)
			ga_dep(ga, r->deps.deps[i].keep, dep_of);
	return true;
}

/* A leaf of the compute buffer that is not an input: what ggml-alloc
 * allocates with the inputs, on its reader's backend. */
static bool
compute_leaf(const struct sc_run *r, size_t i)
{
	const struct sc_graph *g = r->g;

	return i < r->n_built && g->t[i].op == SC_NONE &&
	    g->t[i].home == SC_COMPUTE && g->t[i].view_src == GA_NONE &&
	    !(g->t[i].flags & GA_INPUT);
}

/* The graph copy (inputs, then each split's copies and nodes) as
 * ggml-alloc's graph. */
static bool
to_ga(const struct sc_run *r, struct ga_graph *ga, int32_t *map,
    int32_t *dep_of)
{
	const struct sc_graph *g = r->g;
	size_t i, j;

	for (i = 0; i < g->n; i++)
		map[i] = GA_NONE;
	/* ggml-alloc places the graph's leaves first: its inputs, and a
	 * tensor of the compute buffer that no node makes (DSA's zeros) */
	for (i = 0; i < g->n; i++)
		if (g->t[i].op == SC_NONE &&
		    ((g->t[i].flags & GA_INPUT) || compute_leaf(r, i)) &&
		    !ga_add(ga, map, r, (int32_t)i, GA_INPUT))
			return false;
	for (i = 0; i < r->n_sp; i++) {
		const struct sc_split *sp = &r->sp[i];

		for (j = sp->in0; j < sp->in0 + sp->n_in; j++) {
			ga_dep(ga, r->inputs[j], dep_of);
			if (!ga_add(ga, map, r, r->copy[r->inputs[j]], 0))
				return false;
		}
		for (j = sp->start; j < sp->end; j++)
			if (!ga_add_node(r, ga, map, r->order[j], dep_of))
				return false;
	}
	fix_deps(ga, map, dep_of);
	return true;
}

static void
run_free(struct sc_run *r)
{
	free(r->order);
	free(r->sp);
	free(r->inputs);
	free(r->copy);
	free(r->uses);
	free(r->deps.deps);
}

static bool
run_init(struct sc_run *r, struct sc_graph *g, bool gpu, uint64_t max_tensor)
{
	size_t i, cap = g->cap > 0 ? g->cap : 1;

	memset(r, 0, sizeof *r);
	r->g = g;
	r->n_built = g->n;
	r->gpu = gpu;
	r->max_tensor = max_tensor;
	r->order = calloc(cap, sizeof *r->order);
	r->sp = calloc(cap, sizeof *r->sp);
	r->inputs = calloc(cap, sizeof *r->inputs);
	r->copy = calloc(cap, sizeof *r->copy);
	r->uses = calloc(cap, sizeof *r->uses);
	r->deps.deps = calloc(cap, sizeof *r->deps.deps);
	r->deps.cap = cap;
	if (r->order == NULL || r->sp == NULL || r->inputs == NULL ||
	    r->copy == NULL || r->uses == NULL || r->deps.deps == NULL)
		return false;
	for (i = 0; i < cap; i++)
		r->copy[i] = GA_NONE;
	for (i = 0; i < g->n; i++) {
		int k;

		if (g->t[i].op == SC_NONE)
			continue;
		r->order[r->n_order++] = (int32_t)i;
		for (k = 0; k < GA_MAX_SRC; k++)
			if (g->t[i].src[k] != GA_NONE)
				r->uses[g->t[i].src[k]]++;
	}
	return true;
}

bool
sc_deps_add(struct sc_deps *d, int32_t keep, int32_t until)
{
	size_t i;

	if (keep == GA_NONE)
		return true;
	for (i = 0; i < d->n; i++)
		if (d->deps[i].keep == keep && d->deps[i].until == until)
			return true;
	if (d->n >= d->cap)
		return false;
	d->deps[d->n].keep = keep;
	d->deps[d->n++].until = until;
	return true;
}

/* The GPU backend's graph_optimize of each of its splits: Vulkan's
 * reordering, or CUDA's dependencies. */
static bool
optimize_gpu(struct sc_run *r, uint8_t gpu)
{
	size_t i;

	for (i = 0; i < r->n_sp; i++) {
		int32_t *o = r->order + r->sp[i].start;
		size_t n = r->sp[i].end - r->sp[i].start;

		if (r->sp[i].backend != SC_DEV)
			continue;
		if (gpu == SC_GPU_CUDA ?
			!sc_cuda_deps(r->g, r->uses, o, n, &r->deps) :
			!sc_vk_reorder(r->g, r->uses, o, n, &r->deps))
			return false;
	}
	return true;
}

bool
sc_place(struct sc_graph *g, bool gpu, uint64_t max_tensor,
    const struct sc_buft *dev, const struct sc_buft *host, uint64_t *dev_bytes,
    uint64_t *host_bytes)
{
	struct sc_run r;
	struct ga_graph ga;
	int32_t *map = NULL, *dep_of = NULL;
	bool ok;

	memset(&ga, 0, sizeof ga);
	memset(&r, 0, sizeof r);
	ok = !g->full && run_init(&r, g, gpu, max_tensor);
	r.pads = gpu && dev->gpu == SC_GPU_CUDA;
	if (ok) {
		assign(&r);
		ok = split(&r) && (!gpu || optimize_gpu(&r, dev->gpu));
	}
	/* every tensor a node at most, and a dependency per input and per
	 * kept tensor */
	if (ok) {
		size_t n = g->n + r.n_inputs + r.deps.n + 1;

		map = calloc(g->n + 1, sizeof *map);
		dep_of = calloc(n, sizeof *dep_of);
		ga.nodes = calloc(n, sizeof *ga.nodes);
		ok = map != NULL && dep_of != NULL && ga.nodes != NULL &&
		    to_ga(&r, &ga, map, dep_of);
	}
	ga.align[0] = dev->align;
	ga.align[1] = host->align;
	ga.max_size[0] = dev->max_size;
	ga.max_size[1] = host->max_size;
	ga.align[2] = ga.align[3] = 1;
	ok = ok && ga_place(&ga);
	if (ok) {
		*dev_bytes = ga.peak[0];
		*host_bytes = ga.peak[1];
	}
	free(ga.nodes);
	free(map);
	free(dep_of);
	run_free(&r);
	return ok;
}
