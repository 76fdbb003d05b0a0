/*
 * cudaopt.c - ggml-cuda's graph_optimize (llama.cpp v0.5.0, read in its
 * source, not yet measured): it keeps a split's order, but asks ggml-alloc
 * to keep the inputs of two fusions it will make alive (add_alloc_dep):
 *  - a MoE weighted sum (the experts times their weights, each expert's
 *    rows viewed and added up, 2 to 15 experts): the experts and the
 *    weights until the last ADD;
 *  - a top-k MoE router (a softmax or a sigmoid, the choice, the chosen
 *    weights, their normalization and scale; 2^n experts up to 512, or
 *    288 or 576): every node of it and their sources until the node
 *    after it.
 * Only the forms graph.c builds are matched; the sub-graph test is
 * ggml_can_fuse_subgraph's (a node but an output read only inside).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "plan/sched.h"

#define WR_MAX_EXPERTS 15 /* MOE_WEIGHTED_REDUCTION_MAX_EXPERTS */
#define TOPK_MAX_OPS 13

struct cu_run {
	const struct sc_graph *g;
	const int32_t *uses;
	const int32_t *nodes; /* the split */
	size_t n;
	struct sc_deps *deps;
	bool full;
};

static const struct sc_tensor *
at(const struct cu_run *c, size_t pos)
{
	return &c->g->t[c->nodes[pos]];
}

/* keep alive until until, once. */
static void
dep(struct cu_run *c, int32_t keep, int32_t until)
{
	if (!sc_deps_add(c->deps, keep, until))
		c->full = true;
}

/* Whether the n nodes from first are a sub-graph whose nodes but the
 * outputs (out, two at most) are read only inside it. */
static bool
fusable(const struct cu_run *c, size_t first, size_t n, const size_t *out,
    size_t n_out)
{
	size_t i, j, o;
	int k;

	for (i = first; i < first + n; i++) {
		int32_t t = c->nodes[i], inside = 0;
		bool is_out = false;

		for (o = 0; o < n_out; o++)
			is_out = is_out || out[o] == i;
		if (is_out)
			continue;
		if (c->g->t[t].flags & GA_OUTPUT)
			return false;
		for (j = i + 1; j < first + n; j++)
			for (k = 0; k < GA_MAX_SRC; k++)
				inside += at(c, j)->src[k] == t;
		if (inside != c->uses[t])
			return false;
	}
	return true;
}

/* The weighted sum at pos (MUL, k VIEWs of it, k - 1 ADDs): its node
 * count, 0 when it does not match. */
static size_t
weighted_sum(struct cu_run *c, size_t pos)
{
	const struct sc_tensor *mul = at(c, pos);
	int32_t m = c->nodes[pos], prev = GA_NONE;
	size_t k = 0, adds = 0, i, last;

	if (mul->op != SC_MUL || mul->src[0] == GA_NONE ||
	    mul->src[1] == GA_NONE || mul->batch <= 0)
		return 0;
	for (i = pos + 1;
	     i < c->n && at(c, i)->op == SC_VIEW && at(c, i)->view_src == m;
	     i++)
		k++;
	if (k < 2 || k > WR_MAX_EXPERTS || pos + 2 * k > c->n ||
	    c->g->t[mul->src[1]].bytes != 4 * k * (uint64_t)mul->batch ||
	    c->g->t[mul->src[0]].bytes != mul->bytes)
		return 0;
	for (; adds < k - 1; adds++, i++) {
		const struct sc_tensor *a = at(c, i);
		int32_t lhs = adds == 0 ? c->nodes[pos + 1] : prev;

		if (a->op != SC_ADD || a->src[0] != lhs ||
		    a->src[1] != c->nodes[pos + 2 + adds])
			return 0;
		prev = c->nodes[i];
	}
	last = pos + 2 * k - 1;
	if (!fusable(c, pos, 2 * k, &last, 1))
		return 0;
	dep(c, mul->src[0], c->nodes[last]);
	dep(c, mul->src[1], c->nodes[last]);
	return 2 * k;
}

/* Whether the ops from pos are seq[0..n) (a prefix match of the split). */
static bool
ops_are(const struct cu_run *c, size_t pos, const uint8_t *seq, size_t n)
{
	size_t i;

	if (pos + n > c->n)
		return false;
	for (i = 0; i < n; i++)
		if (at(c, pos + i)->op != seq[i])
			return false;
	return true;
}

/* Source k of the node at pos: the node at pos - back. */
static bool
reads(const struct cu_run *c, size_t pos, int k, size_t back)
{
	return back <= pos && at(c, pos)->src[k] == c->nodes[pos - back];
}

/* Whether the choice from pos (RESHAPE, [ADD,] ARGSORT, VIEW, GET_ROWS)
 * reads as ggml_cuda_topk_moe_fusion wants: the gate reshaped, the bias
 * added to the gate, the sort of either, the rows of the reshaped gate
 * at the sort's view. */
static bool
choice_reads(const struct cu_run *c, size_t pos, bool bias)
{
	size_t s = pos + 1 + bias; /* the ARGSORT */

	return reads(c, pos, 0, 1) && (!bias || reads(c, pos + 1, 0, 2)) &&
	    reads(c, s, 0, bias ? 1 : 2) && reads(c, s + 1, 0, 1) &&
	    at(c, s + 2)->src[0] == c->nodes[pos] && reads(c, s + 2, 1, 1);
}

/* Whether the normalization from pos (RESHAPE, SUM_ROWS, CLAMP, DIV,
 * RESHAPE) is of the rows before it. */
static bool
norm_reads(const struct cu_run *c, size_t pos)
{
	return reads(c, pos, 0, 1) && reads(c, pos + 1, 0, 1) &&
	    reads(c, pos + 2, 0, 1) && reads(c, pos + 3, 1, 1) &&
	    reads(c, pos + 3, 0, 3) && reads(c, pos + 4, 0, 1);
}

/* The router's ops from pos into seq: the gate, the choice, then the
 * normalization and the scale where they follow; its length, 0 when it
 * is not one. *ids: the position of the choice's VIEW. */
static size_t
topk_ops(const struct cu_run *c, size_t pos, uint8_t *seq, size_t *ids)
{
	static const uint8_t choice[] = { SC_RESHAPE, SC_ARGSORT, SC_VIEW,
		SC_GET_ROWS };
	static const uint8_t biased[] = { SC_RESHAPE, SC_ADD, SC_ARGSORT,
		SC_VIEW, SC_GET_ROWS };
	static const uint8_t norm[] = { SC_RESHAPE, SC_SUM_ROWS, SC_CLAMP,
		SC_DIV, SC_RESHAPE };
	size_t n = 1;

	seq[0] = at(c, pos)->op;
	if (ops_are(c, pos + n, biased, sizeof biased) &&
	    choice_reads(c, pos + n, true)) {
		memcpy(seq + n, biased, sizeof biased);
		n += sizeof biased;
	} else if (ops_are(c, pos + n, choice, sizeof choice) &&
	    choice_reads(c, pos + n, false)) {
		memcpy(seq + n, choice, sizeof choice);
		n += sizeof choice;
	} else {
		return 0;
	}
	*ids = pos + n - 2;
	/* a RESHAPE after the choice that is not the normalization ends
	 * the router there, its scale untried */
	if (ops_are(c, pos + n, norm, sizeof norm) && norm_reads(c, pos + n)) {
		memcpy(seq + n, norm, sizeof norm);
		n += sizeof norm;
	} else if (pos + n < c->n && at(c, pos + n)->op == SC_RESHAPE) {
		return n;
	}
	if (pos + n < c->n && at(c, pos + n)->op == SC_SCALE &&
	    reads(c, pos + n, 0, 1))
		seq[n++] = SC_SCALE;
	return n;
}

/* The top-k router at pos (a SOFT_MAX, or a sigmoid: graph.c's only
 * UNARY before a choice): its dependencies, and its length (0: none). */
static size_t
topk(struct cu_run *c, size_t pos)
{
	uint8_t seq[TOPK_MAX_OPS];
	size_t n, ids, out[2], i, sort;
	uint64_t n_exp;
	int k;

	if ((at(c, pos)->op != SC_SOFT_MAX && at(c, pos)->op != SC_UNARY) ||
	    at(c, pos)->src[1] != GA_NONE || at(c, pos)->src[2] != GA_NONE ||
	    (n = topk_ops(c, pos, seq, &ids)) == 0)
		return 0;
	sort = ids - 1;
	n_exp = at(c, sort)->batch > 0 ?
	    at(c, sort)->bytes / 4 / (uint64_t)at(c, sort)->batch :
	    0;
	if (((n_exp & (n_exp - 1)) != 0 || n_exp > 512 || n_exp == 0) &&
	    n_exp != 288 && n_exp != 576)
		return 0;
	out[0] = ids;
	out[1] = pos + n - 1;
	if (!fusable(c, pos, n, out, 2) || pos + n >= c->n)
		return 0;
	for (i = pos; i < pos + n; i++) {
		dep(c, c->nodes[i], c->nodes[pos + n]);
		for (k = 0; k < GA_MAX_SRC; k++)
			dep(c, at(c, i)->src[k], c->nodes[pos + n]);
	}
	return n;
}

bool
sc_cuda_deps(const struct sc_graph *g, const int32_t *uses,
    const int32_t *order, size_t n, struct sc_deps *deps)
{
	struct cu_run c = { g, uses, order, n, deps, false };
	size_t i, m;

	for (i = 0; i < n && !c.full; i++) {
		m = weighted_sum(&c, i);
		if (m > 0)
			i += m - 1;
		m = topk(&c, i);
		if (m > 0)
			i += m - 1;
	}
	return !c.full;
}
