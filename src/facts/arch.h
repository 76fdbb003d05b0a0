/*
 * arch.h - model facts: the architectures gguflint knows, and the
 * architecture and geometry of one file, read from the metadata, as the
 * memory plan needs them. Integer keys are read whatever integer type they
 * are stored in; a type llama.cpp would refuse is its own diagnostic (M002).
 * What the planner cannot know is listed in missing[], so that the plan
 * says "incomplete" instead of passing silently.
 */
#ifndef GGUFLINT_ARCH_H
#define GGUFLINT_ARCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "facts/archrow.h"
#include "findings/diag.h"
#include "reader/gguf.h"

#define ARCH_MAX_LAYERS 512	/* LLAMA_MAX_LAYERS */
#define ARCH_MAX_MISSING 8

enum arch_memory {
	ARCH_MEM_KV = 0,	/* a KV cache (possibly with SWA or MLA) */
	ARCH_MEM_RECURRENT,	/* recurrent state (mamba) */
	ARCH_MEM_HYBRID,	/* a KV cache for the attention layers,
				   recurrent state for the others */
	ARCH_MEM_NONE		/* encoder-only: no cache */
};

/*
 * arch_find: the entry of the architecture called name, or NULL when
 * gguflint does not know it. The entry is static (never freed).
 */
const struct arch_info *arch_find(const char *name);

/*
 * arch_at: the entry at index i of the table (from 0), or NULL past its
 * end: for walking the list. Static storage.
 */
const struct arch_info *arch_at(size_t i);

struct model_geom;

/*
 * arch_row: the row of g's architecture, or a row of nothing known (kind
 * ARCH_KIND_UNPLANNED, no graph, no fitted numbers) when gguflint does not
 * know it. Static storage.
 */
const struct arch_info *arch_row(const struct model_geom *g);

/*
 * arch_split_of: a's fitted device split, or the defaults (2 rows kept,
 * SPLIT_HOST_ADDS, SPLIT_FULL_GRAPH, not measured) when a has none.
 */
struct arch_split arch_split_of(const struct arch_info *a);

/* Whether a worst ratio of the row's fit (worst_cpu, worst_vulkan) was
 * measured and is within 10 % of llama.cpp's. */
bool arch_worst_within(uint16_t worst);

struct model_geom {
	char arch[64];			/* general.architecture; "" when
					 * absent or too long (unusable) */
	bool has_arch;
	bool known;			/* a memory model in archs.c's table */
	const struct arch_info *row;	/* its row there (static), NULL when
					 * unknown: read it with arch_row() */
	enum arch_memory memory;
	uint32_t n_layer;		/* block_count, all layers */
	uint32_t n_layer_nextn;		/* MTP layers at the end */
	uint32_t n_embd;
	uint32_t n_vocab;
	uint32_t n_ctx_train;		/* 0: unknown */
	uint64_t ctx_key_offset;	/* of context_length, for messages */
	uint32_t n_head[ARCH_MAX_LAYERS];
	uint32_t n_head_kv[ARCH_MAX_LAYERS];
	bool has_n_head;		/* head_count was read (it may be 0) */
	bool has_n_head_kv;		/* head_count_kv too: n_head_kv is not
					 * n_head's copy */
	uint32_t n_ff[ARCH_MAX_LAYERS];
	uint32_t head_k, head_v;		/* full-attention layers */
	uint32_t head_k_swa, head_v_swa;	/* sliding-window layers */
	/* sliding-window attention */
	bool swa;
	uint32_t n_swa;			/* window */
	bool is_swa[ARCH_MAX_LAYERS];
	bool mask_swa;			/* swa false, but is_swa marks the
					 * layers whose mask has a window (an
					 * encoder's: no cache) */
	uint32_t n_layer_kv;		/* layers from the first with a cache
					 * of their own (later ones reuse
					 * one); 0: every layer */
	/* MLA (deepseek2) */
	bool mla;
	uint32_t kv_lora_rank;
	uint32_t indexer_k;		/* DSA: the indexer's cached key
					 * width; 0: no indexer cache */
	bool indexer[ARCH_MAX_LAYERS];	/* DSA: a layer with that cache */
	bool indexer_v;			/* MSA: that cache keeps one head of
					 * V beside its key */
	/* DSV4 (deepseek4): K rows alone, in a window cache in every
	 * layer, and compressed ones where the layer's ratio says */
	bool dsv4;			/* attention.compress_ratios read */
	bool router_kv;			/* ARCH_ROUTER_KV: the last layer
					 * is the router's, past
					 * block_count (n_layer counts it,
					 * n_layer_nextn is 1) */
	uint32_t n_loops;		/* ARCH_LOOPS: the blocks' passes
					 * (n_layer counts each pass's
					 * layers); 0 or 1: one */
	uint32_t compress[ARCH_MAX_LAYERS]; /* 0, 4 (CSA, with the
					 * indexer's keys) or 128 (HCA) */
	/* recurrent state (mamba; the recurrent layers of a hybrid) */
	uint32_t ssm_d_conv, ssm_d_inner, ssm_d_state, ssm_n_group;
	uint32_t shortconv_l_cache;	/* lfm2's convolution window */
	uint32_t kda_head_dim;		/* kimi-linear's KDA heads */
	uint32_t la_head_dim;		/* minimax-01's lightning heads */
	uint32_t wkv_head_size;		/* RWKV's wkv heads */
	uint32_t token_shift_count;	/* RWKV's token shifts (2 unset) */
	bool is_recr[ARCH_MAX_LAYERS];	/* hybrid: a recurrent layer (no
					 * KV cache but with recr_kv) */
	bool recr_kv;			/* recurrent layers keep a KV cache
					 * too (falcon-h1) */
	/* what the plan cannot know, for P005 estimate-incomplete */
	char missing[ARCH_MAX_MISSING][160];
	size_t n_missing;
	bool plannable;			/* enough geometry for a KV estimate */
};

/*
 * arch_read: fill g (zeroed first) from the metadata of f's parsed header,
 * recording M-family findings (wrong key types, bad per-layer arrays,
 * out-of-range values) in dl. It stops at the first of the keys the rest
 * depends on (general.architecture, block_count, embedding_length) that
 * is missing or unusable (listed in g->missing). Nothing to free: its
 * row is static.
 */
void arch_read(const struct gguf_file *f, struct model_geom *g,
    struct diag_list *dl);

/* arch_blocks: the blocks of the file, block_count: g's layers less the
 * one a router adds (ARCH_ROUTER_KV), of one pass (ARCH_LOOPS). */
uint32_t arch_blocks(const struct model_geom *g);

#endif
