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

/* How the plan sizes an architecture's memory (arch_read below). */
enum arch_kind {
	ARCH_KIND_ATTN = 0,	/* standard attention, no SWA */
	ARCH_KIND_GEMMA2,	/* SWA always: window 4096, pattern 2 */
	ARCH_KIND_GEMMA3,	/* SWA when sliding_window > 0: pattern 6 */
	ARCH_KIND_GEMMA3N,	/* SWA pattern 5; a cache in the first 20
				   layers only */
	ARCH_KIND_PHI3,		/* sliding_window read, SWA disabled */
	ARCH_KIND_DEEPSEEK2,	/* MLA when both *_mla keys are set */
	ARCH_KIND_GPTOSS,	/* SWA when sliding_window > 0: pattern 2 */
	ARCH_KIND_COHERE2,	/* SWA when sliding_window > 0: pattern 4 */
	ARCH_KIND_LLAMA4,	/* chunked attention, window 8192, pattern
				   4, unless sliding_window is 0 */
	ARCH_KIND_MAMBA,	/* recurrent state (mamba, mamba2) */
	ARCH_KIND_HYBRID_SSM,	/* layers with 0 KV heads are mamba2 */
	ARCH_KIND_HYBRID_CONV,	/* layers with 0 KV heads are short
				   convolutions (lfm2) */
	ARCH_KIND_ENCODER,	/* no cache */
	ARCH_KIND_UNPLANNED	/* no memory model: planned as standard
				   attention, and the plan says so (P005) */
};

/*
 * One architecture gguflint knows, by its general.architecture value. The
 * table of them in arch.c is the one list: the built-in name maps of
 * rules/arch/ may name only these, and must name every one whose entry is
 * mapped (names_db_check_archs says whether they do; a test runs it).
 */
struct arch_info {
	const char *name;
	enum arch_kind kind;
	bool mapped;		/* a name map of rules/arch/ names it */
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

struct model_geom {
	char arch[64];			/* general.architecture; "" when
					 * absent or too long (unusable) */
	bool has_arch;
	bool known;			/* a memory model in arch.c's table */
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
	uint32_t n_layer_kv;		/* layers from the first with a cache
					 * of their own (later ones reuse
					 * one); 0: every layer */
	/* MLA (deepseek2) */
	bool mla;
	uint32_t kv_lora_rank;
	/* recurrent state (mamba; the recurrent layers of a hybrid) */
	uint32_t ssm_d_conv, ssm_d_inner, ssm_d_state, ssm_n_group;
	uint32_t shortconv_l_cache;	/* lfm2's convolution window */
	bool is_recr[ARCH_MAX_LAYERS];	/* hybrid: a recurrent layer (no
					 * KV cache) */
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
 * is missing or unusable (listed in g->missing). g holds no pointers:
 * nothing to free.
 */
void arch_read(const struct gguf_file *f, struct model_geom *g,
    struct diag_list *dl);

#endif
