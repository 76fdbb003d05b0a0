/*
 * vkorder.c - the Vulkan backend's reordering of a split's nodes
 * (ggml_vk_graph_optimize, llama.cpp v0.5.0), which decides the order
 * ggml-alloc places them in. Repeatedly, from the first node not yet
 * taken:
 *  - a run of nodes that fuses as a whole (ROPE, VIEW, SET_ROWS; RMS_NORM,
 *    MUL, ADD; ...) is taken as it is;
 *  - otherwise that node is taken with every later node among the next
 *    20 that does not depend on one not yet taken (a few fusable pairs
 *    excepted), pulling in a ROPE that reads a norm just taken and a
 *    ROPE's or norm's VIEW and SET_ROWS; then the views among those 20
 *    whose sources are taken.
 * A top-k MoE routing pattern also keeps its outside inputs alive through
 * its last node (add_pattern_alloc_deps: sc_deps). Only the patterns of
 * the operations sched.h knows can occur; those of other operations
 * (sigmoid routing, snake, ...) never match here.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "plan/sched.h"

#define VK_LOOKAHEAD 20 /* NUM_TO_CHECK */
#define VK_PULL 15	/* how far a ROPE, VIEW or SET_ROWS is pulled from */

struct vk_run {
	const struct sc_graph *g;
	const int32_t *uses;
	const int32_t *nodes; /* the split as given */
	size_t n;
	bool *used;   /* per position */
	bool *taken;  /* per tensor: already in the new order */
	int32_t *out; /* the new order */
	size_t n_out;
	int32_t *set; /* the current set (positions) */
	size_t n_set;
	struct sc_deps *deps;
	bool full; /* a dependency did not fit */
};

/* top-k MoE routing, softmax first, with and without the weights'
 * normalization */
static const uint8_t pat_topk_norm[] = { SC_SOFT_MAX, SC_RESHAPE, SC_ARGSORT,
	SC_VIEW, SC_GET_ROWS, SC_RESHAPE, SC_SUM_ROWS, SC_CLAMP, SC_DIV,
	SC_RESHAPE };
static const uint8_t pat_topk_sigmoid[] = { SC_UNARY, SC_RESHAPE, SC_ADD,
	SC_ARGSORT, SC_VIEW, SC_GET_ROWS, SC_RESHAPE, SC_SUM_ROWS, SC_CLAMP,
	SC_DIV, SC_RESHAPE };
static const uint8_t pat_topk[] = { SC_SOFT_MAX, SC_RESHAPE, SC_ARGSORT,
	SC_VIEW, SC_GET_ROWS };
static const uint8_t pat_topk_late[] = { SC_ARGSORT, SC_VIEW, SC_GET_ROWS,
	SC_RESHAPE, SC_SOFT_MAX, SC_RESHAPE };
static const uint8_t pat_rope_set_rows[] = { SC_ROPE, SC_VIEW, SC_SET_ROWS };
static const uint8_t pat_norm_set_rows[] = { SC_RMS_NORM, SC_VIEW,
	SC_SET_ROWS };
static const uint8_t pat_norm_rope_set_rows[] = { SC_RMS_NORM, SC_MUL, SC_ROPE,
	SC_VIEW, SC_SET_ROWS };
static const uint8_t pat_norm_add[] = { SC_RMS_NORM, SC_MUL, SC_ADD };
static const uint8_t pat_norm_add_mul[] = { SC_RMS_NORM, SC_MUL, SC_ADD,
	SC_MUL };

struct vk_pattern {
	const uint8_t *ops;
	size_t n;
	bool deps; /* keeps its inputs alive through its last node (topk) */
};

/* In the order they are tried. */
static const struct vk_pattern patterns[] = {
	{ pat_topk_norm, sizeof pat_topk_norm, true },
	{ pat_topk_sigmoid, sizeof pat_topk_sigmoid, true },
	{ pat_topk, sizeof pat_topk, true },
	{ pat_topk_late, sizeof pat_topk_late, true },
	{ pat_norm_add_mul, sizeof pat_norm_add_mul, false },
	{ pat_norm_add, sizeof pat_norm_add, false },
	{ pat_norm_rope_set_rows, sizeof pat_norm_rope_set_rows, false },
	{ pat_norm_set_rows, sizeof pat_norm_set_rows, false },
	{ pat_rope_set_rows, sizeof pat_rope_set_rows, false },
};

#define N_PATTERNS (sizeof patterns / sizeof patterns[0])

static const struct sc_tensor *
node(const struct vk_run *v, size_t pos)
{
	return &v->g->t[v->nodes[pos]];
}

static uint8_t
op_at(const struct vk_run *v, size_t pos)
{
	return node(v, pos)->op;
}

static bool
is_empty(uint8_t op)
{
	return op == SC_NONE || op == SC_RESHAPE || op == SC_TRANSPOSE ||
	    op == SC_VIEW || op == SC_PERMUTE;
}

static int32_t
base(const struct sc_graph *g, int32_t t)
{
	return g->t[t].view_src != GA_NONE ? g->t[t].view_src : t;
}

/* Whether tensor dst depends on tensor src (is_src_of): a source, or
 * storage either reads through another view. */
static bool
is_src_of(const struct sc_graph *g, int32_t dst, int32_t src)
{
	const struct sc_tensor *d = &g->t[dst], *s = &g->t[src];
	int k;

	for (k = 0; k < GA_MAX_SRC; k++) {
		if (d->src[k] == src)
			return true;
		if (is_empty(d->op) || is_empty(s->op))
			continue;
		if (d->src[k] != GA_NONE && base(g, d->src[k]) == base(g, src))
			return true;
		if (s->src[k] != GA_NONE && base(g, dst) == base(g, s->src[k]))
			return true;
	}
	return base(g, dst) == base(g, src);
}

static bool
match(const struct vk_run *v, const struct vk_pattern *p, size_t start)
{
	size_t j;

	if (start + p->n > v->n)
		return false;
	for (j = 0; j < p->n; j++)
		if (op_at(v, start + j) != p->ops[j] || v->used[start + j])
			return false;
	return true;
}

static bool
match_any(const struct vk_run *v, size_t start)
{
	size_t i;

	for (i = 0; i < N_PATTERNS; i++)
		if (match(v, &patterns[i], start))
			return true;
	return false;
}

static void
emit(struct vk_run *v, size_t pos)
{
	v->out[v->n_out++] = v->nodes[pos];
	v->taken[v->nodes[pos]] = true;
	v->used[pos] = true;
}

/* keep alive until until, once. */
static void
add_dep(struct vk_run *v, int32_t keep, int32_t until)
{
	if (!sc_deps_add(v->deps, keep, until))
		v->full = true;
}

/* add_pattern_alloc_deps: every source from outside the pattern at first
 * (p) kept alive through its last node, or the SCALE right after it. */
static void
pattern_deps(struct vk_run *v, const struct vk_pattern *p, size_t first)
{
	size_t last = first + p->n - 1, j, i;
	int k;

	if (last + 1 < v->n && op_at(v, last + 1) == SC_SCALE)
		last++;
	for (j = 0; j < p->n; j++)
		for (k = 0; k < GA_MAX_SRC; k++) {
			int32_t s = node(v, first + j)->src[k];
			bool inside = false;

			for (i = first; i < first + j && !inside; i++)
				inside = v->nodes[i] == s;
			if (s != GA_NONE && !inside)
				add_dep(v, s, v->nodes[last]);
		}
}

/* A whole pattern at first: taken as it is. */
static bool
keep_pattern(struct vk_run *v, size_t first)
{
	size_t i, j;

	for (i = 0; i < N_PATTERNS; i++) {
		if (!match(v, &patterns[i], first))
			continue;
		if (patterns[i].deps)
			pattern_deps(v, &patterns[i], first);
		for (j = 0; j < patterns[i].n; j++)
			emit(v, first + j);
		return true;
	}
	return false;
}

/* Nothing but taken or empty nodes in [lo, hi). */
static bool
empty_between(const struct vk_run *v, size_t lo, size_t hi)
{
	for (; lo < hi; lo++)
		if (!v->used[lo] && !is_empty(op_at(v, lo)))
			return false;
	return true;
}

/* The pairs that may run one after the other although dependent. */
static bool
fusable(const struct vk_run *v, size_t c, size_t j)
{
	uint8_t oc = op_at(v, c), oj = op_at(v, j);

	if (v->n_set == 0 || (size_t)v->set[v->n_set - 1] != c)
		return false;
	if ((oc == SC_RMS_NORM || oc == SC_UNARY) && oj == SC_MUL &&
	    empty_between(v, c + 1, j))
		return true;
	return j == c + 1 &&
	    ((oc == SC_MUL_MAT && oj == SC_ADD) ||
		(oc == SC_MUL_MAT_ID && (oj == SC_ADD_ID || oj == SC_MUL)) ||
		(oc == SC_ADD && oj == SC_ADD) ||
		(oc == SC_SSM_CONV && (oj == SC_ADD || oj == SC_UNARY)));
}

static bool
independent(const struct vk_run *v, size_t first, size_t j)
{
	size_t c;

	for (c = first; c < j; c++)
		if (!v->used[c] && is_src_of(v->g, v->nodes[j], v->nodes[c]) &&
		    !fusable(v, c, j))
			return false;
	return true;
}

static void
add_set(struct vk_run *v, size_t pos)
{
	v->set[v->n_set++] = (int32_t)pos;
}

static bool
is_leaf_or_none(const struct vk_run *v, int32_t t)
{
	return t == GA_NONE || v->g->t[t].op == SC_NONE;
}

/* After RMS_NORM, MUL at j: a ROPE of it whose other sources are leaves;
 * its position, or j. */
static size_t
pull_rope(struct vk_run *v, size_t j)
{
	size_t k, end = j + VK_PULL < v->n ? j + VK_PULL : v->n;

	if (j == 0 || op_at(v, j) != SC_MUL || op_at(v, j - 1) != SC_RMS_NORM)
		return j;
	for (k = j + 1; k < end; k++) {
		const struct sc_tensor *t = node(v, k);

		if (t->op == SC_ROPE && t->src[0] == v->nodes[j] &&
		    t->src[1] != GA_NONE && is_leaf_or_none(v, t->src[1]) &&
		    is_leaf_or_none(v, t->src[2])) {
			add_set(v, k);
			v->used[k] = true;
			return k;
		}
	}
	return j;
}

/* ggml_can_fuse_subgraph_ext for ROPE (or RMS_NORM), VIEW, SET_ROWS at
 * positions p[0..3), the SET_ROWS its output. */
static bool
fuses(const struct vk_run *v, const size_t p[3])
{
	int i, j, k;

	for (i = 0; i < 2; i++) {
		const struct sc_tensor *t = node(v, p[i]);
		int32_t uses = 0, vs;

		if (t->flags & GA_OUTPUT)
			return false;
		for (j = i + 1; j < 3; j++)
			for (k = 0; k < GA_MAX_SRC; k++)
				uses += node(v, p[j])->src[k] == v->nodes[p[i]];
		if (uses != v->uses[v->nodes[p[i]]])
			return false;
		vs = t->view_src;
		if (vs != GA_NONE && vs != v->nodes[p[0]] &&
		    vs != v->nodes[p[1]] && v->g->t[vs].home != SC_WEIGHT_DEV &&
		    v->g->t[vs].home != SC_WEIGHT_HOST)
			return false;
	}
	return true;
}

/* After a ROPE or RMS_NORM at r: its VIEW and that view's SET_ROWS,
 * pulled in when they fuse and nothing between feeds the SET_ROWS. */
static void
pull_set_rows(struct vk_run *v, size_t r)
{
	size_t k, end = r + VK_PULL < v->n ? r + VK_PULL : v->n, p[3];
	size_t view = SIZE_MAX, rows = SIZE_MAX, c;

	if (op_at(v, r) != SC_ROPE && op_at(v, r) != SC_RMS_NORM)
		return;
	for (k = r + 1; k < end && rows == SIZE_MAX; k++) {
		const struct sc_tensor *t = node(v, k);

		if (v->used[k])
			continue;
		if (view == SIZE_MAX && t->op == SC_VIEW &&
		    t->src[0] == v->nodes[r])
			view = k;
		else if (view != SIZE_MAX && t->op == SC_SET_ROWS &&
		    t->src[0] == v->nodes[view])
			rows = k;
	}
	if (rows == SIZE_MAX)
		return;
	p[0] = r;
	p[1] = view;
	p[2] = rows;
	if (!fuses(v, p))
		return;
	for (c = r + 1; c < rows; c++)
		if (!v->used[c] && c != view && !is_empty(op_at(v, c)) &&
		    is_src_of(v->g, v->nodes[rows], v->nodes[c]))
			return;
	add_set(v, view);
	add_set(v, rows);
	v->used[view] = v->used[rows] = true;
}

/* After MUL_MAT, ADD at j: a second ADD of it whose other source is a
 * leaf or taken. */
static void
pull_add(struct vk_run *v, size_t j)
{
	size_t k, end = j + VK_PULL < v->n ? j + VK_PULL : v->n;

	if (j == 0 || op_at(v, j) != SC_ADD || op_at(v, j - 1) != SC_MUL_MAT)
		return;
	for (k = j + 1; k < end; k++) {
		const struct sc_tensor *t = node(v, k);

		if (t->op == SC_ADD && t->src[0] == v->nodes[j] &&
		    (is_leaf_or_none(v, t->src[1]) || v->taken[t->src[1]])) {
			add_set(v, k);
			v->used[k] = true;
			return;
		}
	}
}

/* After SSM_CONV, ADD at j: the UNARY (SiLU) of it. */
static void
pull_conv_unary(struct vk_run *v, size_t j)
{
	size_t k, end = j + VK_PULL < v->n ? j + VK_PULL : v->n;

	if (j == 0 || op_at(v, j) != SC_ADD || op_at(v, j - 1) != SC_SSM_CONV)
		return;
	for (k = j + 1; k < end; k++)
		if (op_at(v, k) == SC_UNARY &&
		    node(v, k)->src[0] == v->nodes[j]) {
			add_set(v, k);
			v->used[k] = true;
			return;
		}
}

static bool
in_set(const struct vk_run *v, size_t pos)
{
	size_t i;

	for (i = 0; i < v->n_set; i++)
		if ((size_t)v->set[i] == pos)
			return true;
	return false;
}

/* The views among the next nodes whose sources are taken or in the set. */
static void
take_views(struct vk_run *v, size_t first, size_t end)
{
	size_t j, c;

	if (op_at(v, (size_t)v->set[v->n_set - 1]) == SC_ADD)
		return; /* add -> rms_norm, add -> add stay together */
	for (j = first + 1; j < end; j++) {
		bool ok = true;

		if (v->used[j] || !is_empty(op_at(v, j)))
			continue;
		for (c = first; c < j && ok; c++)
			if (!v->used[c] &&
			    is_src_of(v->g, v->nodes[j], v->nodes[c]) &&
			    !in_set(v, c))
				ok = false;
		if (ok)
			add_set(v, j);
	}
}

/* One set from first: the node, the independent ones after it, views. */
static void
take_set(struct vk_run *v, size_t first)
{
	size_t j,
	    end = first + VK_LOOKAHEAD < v->n ? first + VK_LOOKAHEAD : v->n;
	size_t i;

	v->n_set = 0;
	add_set(v, first);
	for (j = first + 1; j < end; j++) {
		if (v->used[j] || is_empty(op_at(v, j)) || match_any(v, j) ||
		    !independent(v, first, j))
			continue;
		add_set(v, j);
		pull_set_rows(v, pull_rope(v, j));
		pull_add(v, j);
		pull_conv_unary(v, j);
	}
	take_views(v, first, end);
	for (i = 0; i < v->n_set; i++)
		emit(v, (size_t)v->set[i]);
}

bool
sc_vk_reorder(const struct sc_graph *g, const int32_t *uses, int32_t *order,
    size_t n, struct sc_deps *deps)
{
	struct vk_run v;
	size_t first = 0;
	bool ok;

	memset(&v, 0, sizeof v);
	v.g = g;
	v.uses = uses;
	v.deps = deps;
	v.nodes = calloc(n ? n : 1, sizeof *v.nodes);
	v.used = calloc(n ? n : 1, sizeof *v.used);
	v.taken = calloc(g->n ? g->n : 1, sizeof *v.taken);
	v.out = calloc(n ? n : 1, sizeof *v.out);
	v.set = calloc(n ? n : 1, sizeof *v.set);
	ok = v.nodes && v.used && v.taken && v.out && v.set;
	if (ok) {
		memcpy((int32_t *)v.nodes, order, n * sizeof *order);
		v.n = n;
		while (first < n) {
			if (!keep_pattern(&v, first))
				take_set(&v, first);
			while (first < n && v.used[first])
				first++;
		}
		ok = v.n_out == n && !v.full;
		if (ok)
			memcpy(order, v.out, n * sizeof *order);
	}
	free((int32_t *)v.nodes);
	free(v.used);
	free(v.taken);
	free(v.out);
	free(v.set);
	return ok;
}
