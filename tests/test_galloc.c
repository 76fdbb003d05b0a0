/*
 * test_galloc.c - ggml-alloc's placement (src/plan/galloc.c) against
 * llama.cpp's own: graphs llama.cpp v0.5.0 allocated and computed
 * (tests/graphs/, written by tests/oracle/llama-oracle graph=FILE: every
 * node in the scheduler's order with its buffer, offset, bytes, layout
 * and sources). Replayed through ga_place, each tensor of one compute
 * buffer must land at the offset llama.cpp gave it, and the buffer's
 * peak must be llama.cpp's compute buffer.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan/galloc.h"
#include "testutil.h"

#define MAX_NODES 4096
#define MAX_LINE 1024

struct dumped {
	char buffer[32], op[32], id[24], view[24], src[GA_MAX_SRC][24];
	char layout[160];
	uint64_t offset, bytes;
	unsigned flags;
	int n_src;
};

struct replay {
	struct dumped *d; /* every line */
	size_t n;
	struct ga_node *nodes; /* a node a line */
	int32_t *node_of;      /* line -> node */
	size_t n_nodes;
};

static uint64_t
hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ull;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ull;
	return h;
}

static void
parse_line(char *line, struct dumped *d)
{
	char *f[32], *save = NULL, *t;
	int n = 0, k;

	for (t = strtok_r(line, "\t\n", &save); t && n < 32;
	     t = strtok_r(NULL, "\t\n", &save))
		f[n++] = t;
	cr_assert_geq(n, 13, "a dumped line has 13 fields at least");
	memset(d, 0, sizeof *d);
	snprintf(d->buffer, sizeof d->buffer, "%s", f[0]);
	d->offset = strtoull(f[1], NULL, 10);
	d->bytes = strtoull(f[2], NULL, 10);
	snprintf(d->op, sizeof d->op, "%s", f[3]);
	snprintf(d->id, sizeof d->id, "%s", f[9]);
	snprintf(d->view, sizeof d->view, "%s", f[10]);
	d->flags = (unsigned)strtoul(f[11], NULL, 10);
	/* the layout: type and strides, with the shape */
	snprintf(d->layout, sizeof d->layout, "%s:%s:%s:%s:%s", f[12], f[5],
	    f[6], f[7], f[8]);
	for (k = 13; k < n && d->n_src < GA_MAX_SRC; k++)
		snprintf(d->src[d->n_src++], sizeof d->src[0], "%s", f[k]);
}

static int32_t
find_id(const struct replay *r, size_t before, const char *id)
{
	size_t i;

	for (i = before; i-- > 0;)
		if (strcmp(r->d[i].id, id) == 0)
			return r->node_of[i];
	return GA_NONE;
}

/* ggml_op_can_inplace's operations, and the unary ones (GGML_OP_UNARY) */
static bool
inplace_op(const char *op)
{
	static const char *const ops[] = { "FILL", "SCALE", "DIAG_MASK_ZERO",
		"DIAG_MASK_INF", "ADD", "ADD_ID", "ADD1", "SUB", "MUL", "DIV",
		"SQR", "SQRT", "LOG", "ROPE", "ROPE_BACK", "SILU_BACK",
		"RMS_NORM", "RMS_NORM_BACK", "CLAMP", "SOFT_MAX",
		"SOFT_MAX_BACK", "ABS", "SGN", "NEG", "STEP", "TANH", "ELU",
		"RELU", "SIGMOID", "GELU", "GELU_QUICK", "SILU", "HARDSWISH",
		"HARDSIGMOID", "EXP", "GELU_ERF", "XIELU", "FLOOR", "CEIL",
		"ROUND", "TRUNC" };
	size_t i;

	for (i = 0; i < sizeof ops / sizeof ops[0]; i++)
		if (strcmp(op, ops[i]) == 0)
			return true;
	return false;
}

/* The dumped line i as a node: of buffer 0 when it is the buffer's, of
 * buffer 1 (not checked) when it is another's (a cache's rows written, a
 * view of a weight), since its reading frees what it reads all the same.
 * A view of what no line made (a cache, a weight) is a tensor of its own
 * there. */
static void
as_node(struct replay *r, size_t i, const char *buffer, struct ga_node *n)
{
	const struct dumped *d = &r->d[i];
	int k;

	memset(n, 0, sizeof *n);
	n->buffer = strcmp(d->buffer, buffer) == 0 ? 0 : 1;
	n->bytes = d->bytes;
	n->layout = hash_str(d->layout);
	n->view_of = GA_NONE;
	for (k = 0; k < GA_MAX_SRC; k++)
		n->src[k] = GA_NONE;
	if (strcmp(d->view, "(nil)") != 0) {
		n->view_of = find_id(r, i, d->view);
		if (n->view_of != GA_NONE)
			n->flags |= GA_VIEW;
	}
	if (strcmp(d->op, "input") == 0) /* llama.cpp's, or the */
		n->flags |= GA_INPUT;	 /* scheduler's copies */
	if (d->flags & 2)
		n->flags |= GA_OUTPUT;
	if (inplace_op(d->op))
		n->flags |= GA_INPLACE;
	for (k = 0; k < d->n_src; k++)
		n->src[k] = find_id(r, i, d->src[k]);
}

static int
by_offset(const void *a, const void *b)
{
	const struct ga_node *x = *(struct ga_node *const *)a;
	const struct ga_node *y = *(struct ga_node *const *)b;

	return x->offset < y->offset ? -1 : x->offset > y->offset;
}

/*
 * The buffer's inputs first, in the order the allocator placed them (by
 * offset: it placed them one after another in an empty buffer), with a
 * gap before one taken by an input no node reads (the embeddings' input
 * beside the tokens': a leaf the dump cannot show) as an input of its
 * own; then every other line in the scheduler's order.
 */
static void
order_inputs(struct replay *r, struct ga_node *lines)
{
	struct ga_node **in = calloc(r->n, sizeof *in);
	int32_t *at = calloc(r->n, sizeof *at);
	size_t i, n_in = 0, out = 0;
	uint64_t end = 0;
	int k;

	cr_assert(in && at);
	for (i = 0; i < r->n; i++)
		if ((lines[i].flags & GA_INPUT) && lines[i].buffer == 0) {
			lines[i].offset = r->d[i].offset;
			in[n_in++] = &lines[i];
		}
	qsort(in, n_in, sizeof *in, by_offset);
	for (i = 0; i < n_in; i++) {
		if (in[i]->offset > end) { /* an unseen input */
			struct ga_node *gap = &r->nodes[out++];

			memset(gap, 0, sizeof *gap);
			gap->bytes = in[i]->offset - end;
			gap->view_of = GA_NONE;
			for (k = 0; k < GA_MAX_SRC; k++)
				gap->src[k] = GA_NONE;
			gap->flags = GA_INPUT | GA_OUTPUT;
		}
		at[in[i] - lines] = (int32_t)out;
		r->nodes[out++] = *in[i];
		end = in[i]->offset + in[i]->bytes;
	}
	for (i = 0; i < r->n; i++)
		if (!((lines[i].flags & GA_INPUT) && lines[i].buffer == 0)) {
			at[i] = (int32_t)out;
			r->nodes[out++] = lines[i];
		}
	for (i = 0; i < out; i++) {
		struct ga_node *n = &r->nodes[i];

		if (n->view_of != GA_NONE)
			n->view_of = at[n->view_of];
		for (k = 0; k < GA_MAX_SRC; k++)
			if (n->src[k] != GA_NONE)
				n->src[k] = at[n->src[k]];
	}
	for (i = 0; i < r->n; i++)
		r->node_of[i] = at[i];
	r->n_nodes = out;
	free(in);
	free(at);
}

static void
load(struct replay *r, const char *name, const char *buffer)
{
	char path[4096], line[MAX_LINE];
	struct ga_node *lines;
	size_t i, mine = 0;
	FILE *f;

	snprintf(path, sizeof path, "%s/tests/graphs/%s", test_srcdir(), name);
	f = fopen(path, "r");
	cr_assert_not_null(f, "%s opens", path);
	r->d = calloc(MAX_NODES, sizeof *r->d);
	r->nodes = calloc(2 * MAX_NODES, sizeof *r->nodes);
	r->node_of = calloc(MAX_NODES, sizeof *r->node_of);
	lines = calloc(MAX_NODES, sizeof *lines);
	cr_assert(r->d && r->nodes && r->node_of && lines);
	r->n = 0;
	while (fgets(line, sizeof line, f) && r->n < MAX_NODES)
		parse_line(line, &r->d[r->n++]);
	fclose(f);
	for (i = 0; i < r->n; i++) {
		r->node_of[i] = (int32_t)i; /* for find_id */
		as_node(r, i, buffer, &lines[i]);
		mine += lines[i].buffer == 0;
	}
	cr_assert_gt(mine, 10, "%s has %s's tensors", name, buffer);
	order_inputs(r, lines);
	free(lines);
}

/* Whether input i is where llama.cpp put another input of its size: the
 * dump lists inputs by their first reader, the allocator took them in
 * the split's order (two index vectors of one size may swap). */
static bool
same_input(const struct replay *r, size_t i)
{
	size_t j;

	if (!(r->nodes[r->node_of[i]].flags & GA_INPUT))
		return false;
	for (j = 0; j < r->n; j++)
		if ((r->nodes[r->node_of[j]].flags & GA_INPUT) &&
		    r->nodes[r->node_of[j]].buffer == 0 &&
		    r->d[j].offset == r->nodes[r->node_of[i]].offset &&
		    r->d[j].bytes == r->d[i].bytes)
			return true;
	return false;
}

static void
replay_check(const char *name, const char *buffer, uint64_t align,
    uint64_t expect_peak)
{
	struct replay r;
	struct ga_graph g;
	size_t i, wrong = 0;

	load(&r, name, buffer);
	memset(&g, 0, sizeof g);
	g.nodes = r.nodes;
	g.n = r.n_nodes;
	g.align[0] = align;
	g.align[1] = 1;
	cr_assert(ga_place(&g), "%s places", name);
	for (i = 0; i < r.n; i++) {
		const struct ga_node *n;

		if (r.node_of[i] == GA_NONE)
			continue;
		n = &r.nodes[r.node_of[i]];
		if (n->buffer != 0 || n->flags & GA_VIEW ||
		    n->offset == r.d[i].offset || same_input(&r, i))
			continue;
		if (wrong++ < 3)
			cr_log_warn("%s: line %zu (%s) at %llu, llama.cpp %llu",
			    name, i + 1, r.d[i].op,
			    (unsigned long long)n->offset,
			    (unsigned long long)r.d[i].offset);
	}
	cr_expect_eq(wrong, 0, "%s: %zu tensors where llama.cpp has none", name,
	    wrong);
	cr_expect_eq(g.peak[0], expect_peak,
	    "%s: %s peaks at %llu, llama.cpp "
	    "reserved %llu",
	    name, buffer, (unsigned long long)g.peak[0],
	    (unsigned long long)expect_peak);
	free(r.d);
	free(r.nodes);
	free(r.node_of);
}

/* Four streams fragment the buffer: llama.cpp's peak is in the last
 * layer, 1 MiB above the first layer's (the plan's model misses it). */
Test(galloc, starcoder2_on_vulkan_four_streams)
{
	replay_check("starcoder2-vulkan-np4-fa.tsv", "Vulkan0", 16, 6565888);
}

Test(galloc, starcoder2_on_vulkan_one_stream)
{
	replay_check("starcoder2-vulkan-np1-fa.tsv", "Vulkan0", 16, 5779456);
}

Test(galloc, llama_on_the_cpu)
{
	replay_check("llama-cpu-np1.tsv", "CPU", 32, 15214592);
}

/* A whole 4096-cell cache without flash attention (an 8 MiB mask, a
 * 64 MiB KQ), in the order Vulkan's graph optimizer left: 79 MB. */
Test(galloc, llama_on_vulkan_without_flash_attention)
{
	replay_check("llama-vulkan-4096.tsv", "Vulkan0", 16, 79175680);
}

Test(galloc, qwen3_on_the_cpu_four_streams)
{
	replay_check("qwen3-cpu-np4-fa.tsv", "CPU", 32, 14694400);
}

/* The experts' routing: argsort, views of the top-k, a weights' sum */
Test(galloc, qwen3moe_on_the_cpu_four_streams)
{
	replay_check("qwen3moe-cpu-np4-fa.tsv", "CPU", 32, 8402944);
}

/* n nodes with no sources, no view, layout 1, nothing else */
static void
blank_nodes(struct ga_node *n, int count)
{
	int i, k;

	memset(n, 0, (size_t)count * sizeof *n);
	for (i = 0; i < count; i++) {
		n[i].view_of = GA_NONE;
		for (k = 0; k < GA_MAX_SRC; k++)
			n[i].src[k] = GA_NONE;
		n[i].layout = 1;
	}
}

/* The allocator's own rules, on a graph written by hand. */
Test(galloc, in_place_best_fit_and_outputs)
{
	struct ga_node n[6];
	struct ga_graph g;

	blank_nodes(n, 6);
	n[0].bytes = 100; /* an input at 0 */
	n[0].flags = GA_INPUT;
	n[1].bytes = 1000; /* a = f(input) at 128 */
	n[1].src[0] = 0;
	n[2].bytes = 1000; /* b = a + 1, in a's bytes */
	n[2].flags = GA_INPLACE;
	n[2].src[0] = 1;
	n[3].bytes = 50;	/* c = g(b): the input's */
	n[3].src[0] = 2;	/* freed 128 bytes at 0 */
	n[4].bytes = 2000;	/* d = h(c), an output */
	n[4].src[0] = 3;	/* (b's bytes, freed, */
	n[4].flags = GA_OUTPUT; /* merged with the rest) */
	n[5].bytes = 10;	/* e = k(d): c's, freed */
	n[5].src[0] = 4;
	memset(&g, 0, sizeof g);
	g.nodes = n;
	g.n = 6;
	g.align[0] = 64;
	cr_assert(ga_place(&g));
	cr_expect_eq(n[0].offset, 0);
	cr_expect_eq(n[1].offset, 128);
	cr_expect_eq(n[2].offset, 128, "in place over its only parent");
	cr_expect_eq(n[3].offset, 0, "the best fit: the input's block");
	cr_expect_eq(n[4].offset, 64, "after c, where b was");
	cr_expect_eq(n[5].offset, 0, "c's block, freed");
	cr_expect_eq(g.peak[0], 2112, "d's end; d, an output, stays");
	n[5].src[0] = 5; /* its own source: malformed */
	cr_expect_not(ga_place(&g));
}

/* Of two free blocks that fit equally, the allocator takes the later. */
Test(galloc, equal_blocks_take_the_later)
{
	struct ga_node n[6];
	struct ga_graph g;
	int i;

	blank_nodes(n, 6);
	for (i = 0; i < 6; i++) {
		n[i].bytes = 64;
		n[i].layout = (uint64_t)i + 1; /* nothing in place */
		n[i].flags = i < 4 ? GA_INPUT : 0;
	}
	n[4].src[0] = 0; /* reads inputs 0 and 2: their blocks, */
	n[4].src[1] = 2; /* at 0 and 128, free after it */
	n[5].src[0] = 1;
	n[5].src[1] = 3;
	n[5].src[2] = 4;
	memset(&g, 0, sizeof g);
	g.nodes = n;
	g.n = 6;
	g.align[0] = 32;
	cr_assert(ga_place(&g));
	cr_expect_eq(n[3].offset, 192);
	cr_expect_eq(n[4].offset, 256);
	cr_expect_eq(n[5].offset, 128, "the later of two equal blocks");
	cr_expect_eq(g.peak[0], 320);
}

/* A buffer type's largest buffer (max_size): ggml-alloc's chunks. A
 * tensor goes where a free block of any chunk but its last holds it,
 * else to the last block that grows its chunk least (or, none growing
 * it, wastes least), else to a new chunk (as large as the tensor when
 * that is larger); no tensor spans two, and the buffer is the chunks'
 * sum. */
Test(galloc, chunks_of_the_largest_buffer)
{
	struct ga_node n[4];
	struct ga_graph g;
	int i;

	blank_nodes(n, 4);
	for (i = 0; i < 4; i++)
		n[i].layout = (uint64_t)i + 1; /* nothing in place */
	n[0].bytes = 600;		       /* chunk 0 at 0 */
	n[0].flags = GA_INPUT;
	n[1].bytes = 600;  /* 400 left in chunk 0: chunk 1; then the */
	n[1].src[0] = 0;   /* input is freed: chunk 0 is free whole */
	n[2].bytes = 300;  /* chunk 0 within its 600 (chunk 1 would */
	n[2].src[0] = 1;   /* grow by 300) */
	n[3].bytes = 1500; /* larger than a chunk: one of its own */
	n[3].src[0] = 2;
	memset(&g, 0, sizeof g);
	g.nodes = n;
	g.n = 4;
	g.align[0] = 1;
	g.max_size[0] = 1000;
	cr_assert(ga_place(&g));
	cr_expect(n[0].chunk == 0 && n[0].offset == 0);
	cr_expect(n[1].chunk == 1 && n[1].offset == 0);
	cr_expect(n[2].chunk == 0 && n[2].offset == 0);
	cr_expect(n[3].chunk == 2 && n[3].offset == 0);
	cr_expect_eq(g.chunks[0], 3);
	cr_expect_eq(g.peak[0], 600 + 600 + 1500);
	/* no limit: one buffer, the last tensor after the second's room */
	g.max_size[0] = 0;
	cr_assert(ga_place(&g));
	cr_expect_eq(g.chunks[0], 1);
	cr_expect_eq(n[3].offset, 300);
	cr_expect_eq(g.peak[0], 1800);
}
