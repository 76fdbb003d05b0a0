/*
 * galloc.h - ggml-alloc's placement of a graph's tensors, reproduced node
 * by node: the graph allocator llama.cpp's scheduler sizes each compute
 * buffer with (ggml 0.25, llama.cpp v0.5.0). Given the graph in the
 * scheduler's order, it places every tensor the allocator owns as the
 * allocator does (inputs first, a node in its parent's bytes when the
 * operation may run in place, best fit among the free blocks, the last
 * block grown otherwise, a tensor freed after its last reader) and
 * returns each buffer's peak: the compute buffer llama.cpp reserves.
 * Weights, caches and other tensors outside the compute buffers are not
 * nodes: a node simply does not list them as sources.
 */
#ifndef GGUFLINT_GALLOC_H
#define GGUFLINT_GALLOC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define GA_MAX_SRC 10 /* GGML_MAX_SRC */
#define GA_MAX_BUFFERS 4
#define GA_NONE (-1)

enum ga_flag {
	GA_INPUT = 1 << 0,   /* allocated before the first node */
	GA_OUTPUT = 1 << 1,  /* never freed, never reused */
	GA_INPLACE = 1 << 2, /* ggml_op_can_inplace(op) */
	GA_VIEW = 1 << 3,    /* bytes of view_of: allocates nothing */
	GA_DEP = 1 << 4,     /* the scheduler's dependency node (op NONE) */
	GA_EXTERN = 1 << 5,  /* in another buffer (a cache's view): never
			      * placed, owned or freed here */
};

struct ga_node {
	uint64_t bytes;		 /* the buffer type's alloc size */
	uint64_t layout;	 /* equal when ggml_are_same_layout */
	int32_t view_of;	 /* GA_VIEW: the viewed node's index */
	int32_t src[GA_MAX_SRC]; /* node indexes, GA_NONE for none */
	uint8_t flags;		 /* enum ga_flag */
	uint8_t buffer;		 /* < GA_MAX_BUFFERS; out: the parent's when
				 * placed in its parent's bytes */
	uint64_t offset; /* out: its offset in its chunk (not a view's) */
	uint8_t chunk;	 /* out: its chunk of its buffer */
};

struct ga_graph {
	struct ga_node *nodes;
	size_t n;
	uint64_t align[GA_MAX_BUFFERS];	   /* each buffer's alignment */
	uint64_t max_size[GA_MAX_BUFFERS]; /* each buffer type's largest
					    * buffer (a chunk), 0: none */
	uint64_t peak[GA_MAX_BUFFERS];	   /* out: each buffer's size, its
					    * chunks' sum */
	uint8_t chunks[GA_MAX_BUFFERS];	   /* out: its chunks */
};

/*
 * ga_place: places g's nodes (nodes[i].offset) and sets g->peak. False,
 * with nothing placed, when the graph is malformed (a source or view
 * after its reader, a buffer out of range) or memory runs out.
 */
bool ga_place(struct ga_graph *g);

#endif
