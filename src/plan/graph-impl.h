/*
 * graph-impl.h - what the graph builder's files share (graph.c: the
 * architectures, the layers and the driver; graph-ops.c: tensors,
 * weights, norms and products; graph-attn.c: the attention, its cache
 * and its inputs; graph-ffn.c: the FFN and the experts; graph-ssm.c,
 * graph-gdn.c, graph-kda.c, graph-altup.c, graph-mla.c, graph-dsa.c: the
 * recurrent, Gated DeltaNet, Kimi delta attention, AltUp and MLA layers,
 * DSA's indexer). A tensor is an index into the sc_graph being built;
 * GA_NONE is none (and what every call returns once the graph is full:
 * build() then gives up).
 */
#ifndef GGUFLINT_PLAN_GRAPH_IMPL_H
#define GGUFLINT_PLAN_GRAPH_IMPL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "facts/archrow.h"
#include "plan/plan-impl.h"
#include "plan/sched.h"

#define smul plan_smul
#define sadd plan_sadd

/* The caches: the model's, the sliding-window layers' when it has them
 * (llama_kv_cache_iswa's base and swa), and DSA's indexer keys
 * (llama_kv_cache_dsa's lid beside its MLA cache, the base). */
enum gb_cache_kind {
	GB_BASE,
	GB_SWA,
	GB_LID,
	GB_N_CACHES
};

struct gb_cache {
	uint64_t cells;		   /* a stream's, as the graph sees them */
	uint64_t k_bytes, v_bytes; /* a layer's K and V, every stream */
};

/* A recurrent layer's geometry (the ssm keys): d_inner, d_state, the
 * groups of B and C (Mamba-2), the heads (Mamba-2: time_step_rank) and
 * their width, the convolution's width, Mamba's dt rank; the channels
 * the convolution mixes, the in-projection's rows, a convolution state's
 * and a scan state's width; the ubatch's sequences, each one's tokens,
 * the states kept (a cell a sequence). */
struct gb_ssm {
	uint64_t di, ds, ng, nh, hd, dc, rank;
	uint64_t xw, din, rw, sw;
	uint64_t ns, tok, cells;
	bool v2;
	bool shortconv; /* lfm2's: a gated convolution, no scan */
	int8_t gpu;	/* the plan's GPU (gb_gpu), -1: the CPU alone */
};

/* deepseek2's MLA (absorbed): the compressed KV's width, RoPE's, the
 * heads' un-roped part of Q, V's width per head, Q's LoRA rank (0: one
 * product). */
struct gb_mla {
	uint64_t kvl, rope, nope, vdim, qlr;
	uint64_t vgap; /* a cache row's bytes past V's (K's RoPE part) */
};

/* DSA's lightning indexer (ARCH_DSA): its heads, their width (the
 * indexer's one cached key too), the keys it keeps a token (of the
 * cells: ggml_top_k's k), the Hadamard rotation's width (the head's) and
 * whether the GPU runs the indexer. hd 0: no DSA. */
struct gb_dsa {
	uint64_t nh, hd, top, nrot;
	bool dev;
};

/* The heads of the sliding-window layers where their width is not the
 * others' (gemma4's attention.key_length_swa): head width, Q's and K's
 * (V's) rows, the rotations of their cache; hd 0: the others'. */
struct gb_heads {
	uint64_t hd, q, kv, krot, vrot;
};

struct shape {
	uint64_t e, q, kv, hd, ff, t, ts, s;
	int8_t gpu;	/* the plan's GPU (gb_gpu), -1: the CPU alone */
	uint8_t kt, vt; /* the caches' types (enum kv_type) */
	bool alibi;	/* ALiBi's bias in the soft max (GB_ALIBI) */
	struct gb_heads swa;
	/* the widest layer's V rows: a transposed V cache's rows (no
	 * flash attention), V padded to them */
	uint64_t kv_max;
	struct gb_mla mla; /* kvl 0: not MLA */
	struct gb_dsa dsa; /* hd 0: not DSA */
	struct gb_ssm ssm;
	struct gb_cache cache[GB_N_CACHES];
	uint64_t krot, vrot;		/* the rotations' widths, 0 without */
	uint64_t n_exp, n_used, ff_exp; /* experts, used a token, their FFN */
	uint64_t ff_shared;		/* the shared expert's FFN */
	uint64_t deep;			/* GB_DEEPSTACK: its layers */
	uint64_t lead;			/* GB_ROPE_SWA_LEAD: the dense
					 * layers first */
	uint64_t n_pos;			/* positions a token (M-RoPE: 4) */
	bool sigmoid;			/* GB_MOE_GLM: sigmoid gating */
	bool norm_w;			/* GB_MOE_GLM: weights normalized */
	bool scale_w;			/* GB_MOE_GLM: weights scaled */
	bool fa;
	bool iswa;	   /* two caches: Q, K and V reached in that order */
	bool softcap;	   /* KQ capped without flash attention */
	bool nope;	   /* no RoPE (granite: rope.scaling.finetuned off) */
	bool res_scale;	   /* the layer's parts scaled (residual_scale) */
	bool scale_logits; /* the logits scaled (in place) */
	bool scale_embd;   /* the embeddings scaled (in place) */
	bool attn_temp;	   /* Q times the attention-temperature input */
	bool clamp;	   /* Q, K and V clamped (attention.clamp_kqv) */
	bool par_res;	   /* GB_PAR_NORM2: use_parallel_residual set */

	/* GB_ROPE_LAYERS: the layers not roped */
	bool nope_l[ARCH_MAX_LAYERS];
};

/* The graph's inputs past the tokens, each made at its first reader (its
 * place among the inputs is where ggml-alloc places it): GB_UNSET until
 * then. Per cache: the rotations, K's and V's cell indices, the mask. */
#define GB_UNSET (-2)

struct inputs {
	int32_t pos, out, attn_scale;
	int32_t embd; /* GB_DEEPSTACK: the input embeddings' view */
	int32_t rs, rs_main, rs_extra; /* the states' copy indices, the
					* sequences' view, the others' */
	int32_t krot[GB_N_CACHES], vrot[GB_N_CACHES];
	int32_t kidx[GB_N_CACHES], vidx[GB_N_CACHES], mask[GB_N_CACHES];
	int32_t dsa_top; /* DSA: the last indexer's top k (GA_NONE) */
};

/* The model's weights, where -ngl puts them, and which the graph read:
 * a graph that leaves one of the file's tensors unread, or reads one the
 * file lacks, is not the file's. */
struct weights {
	const struct planner *pn;
	const struct plan *pl;
	const struct gguf_file *f;
	const struct arch_graph *a; /* its row's graph (facts/archrow.h) */
	const struct model_geom *g;
	uint32_t n_layer, dev_from; /* layers from dev_from on the device */
	bool output_dev;	    /* the output layer on the device */
	bool *seen;		    /* per tensor of the file */
	size_t n_seen;
	int32_t *leaf; /* per tensor: 1 + its leaf once made (one tensor,
			* however many read it), 0 before */
	/* the file's tensors by layer (gb_index): bucket 0 the tensors
	 * outside the layers, bucket 1 + il layer il's, each in file order
	 * in order[start[k] .. start[k + 1]) */
	size_t *order;
	size_t *start;
	size_t n_buckets;
	bool missing; /* or a part of the graph not built */
	/* rope_freqs's leaves, on the host and on the device: 1 + the
	 * leaf once made, 0 before (llama.cpp's copy a buffer type) */
	int32_t rope_freqs[2];
};

/* What a row-wise node over x makes: its bytes, layout and rows. */
struct rows {
	uint64_t bytes, layout, n;
};

/* f32 [a, b] contiguous */
#define F32(a, b) smul(smul(4, (a)), (b))
#define L32(a, b) lay(4, (a), (b), 1, 1, 0)

/* graph.c: the graph of g's architecture (its row's), or NULL when not
 * built. */
const struct arch_graph *gb_arch_of(const struct model_geom *g);

/* A flash-attention node as ggml-cuda's kernel choice sees it: K's and
 * V's head widths, Q's heads and K's, K's cells (its ne[1]), whether the
 * soft max has ALiBi's bias and whether V is a view of K's rows. */
struct gb_fa {
	uint64_t hk, hv, nh, nkv, cells;
	bool alibi, v_is_k;
};

/* graph-cuda.c: on a CUDA plan, flash-attention node i marked
 * host_only where ggml-cuda has no kernel for it, else given its pad
 * (the f16 copies of K and V its kernel takes). */
void gb_cuda_fa(struct sc_graph *b, const struct shape *s, int32_t i,
    const struct gb_fa *fa);

/* graph-shape.c: gb_gpu: the plan's GPU (enum sc_gpu), -1 with the CPU
 * alone or a GPU whose rules are not known (Metal, ...). */
int gb_gpu(const struct plan *pl);

/* graph-shape.c: gb_known: whether the graph is llama.cpp's for pn and
 * pl (as far as the header tells: build() checks the tensors); gb_shape:
 * its geometry for a ubatch of ub tokens, false when the keys do not
 * give one. */
bool gb_known(const struct planner *pn, const struct plan *pl);
bool gb_shape(const struct planner *pn, const struct plan *pl, uint64_t ub,
    struct shape *s);
/* gb_at_layer: s as layer il's attention sees it (its own heads, in a
 * sliding-window layer whose width is not the others': a copy in *tmp). */
const struct shape *gb_at_layer(const struct shape *s,
    const struct model_geom *g, int64_t il, struct shape *tmp);

/* graph-ops.c */
/* gb_index: w's tensors by layer, for gb_find and gb_has (false when
 * memory runs out); gb_index_free frees them. */
bool gb_index(struct weights *w);
void gb_index_free(struct weights *w);
uint64_t lay(uint64_t ts, uint64_t a, uint64_t b, uint64_t c, uint64_t d,
    int perm);
int32_t gb_add(struct sc_graph *b, uint8_t op, uint64_t bytes, uint64_t layout,
    uint8_t flags, int32_t s0, int32_t s1, int32_t s2);
int32_t gb_op(struct sc_graph *b, uint8_t op, uint64_t bytes, uint64_t layout,
    uint8_t flags, uint64_t t, int32_t s0, int32_t s1);
uint64_t gb_bytes(const struct sc_graph *b, int32_t i);
int32_t gb_view(struct sc_graph *b, uint8_t op, int32_t v, uint64_t bytes);
/* gb_view_as: a view whose layout travels with a copy of it; gb_span:
 * ggml_nbytes of an f32 view of n_rows rows of a floats, row floats
 * apart (a strided view: what a copy of it takes); gb_op4: an f32 node
 * of op shaped a[0..4), contiguous, batch n. */
int32_t gb_view_as(struct sc_graph *b, uint8_t op, int32_t v, uint64_t bytes,
    uint64_t layout);
uint64_t gb_span(uint64_t a, uint64_t n_rows, uint64_t row);
int32_t gb_op4(struct sc_graph *b, uint8_t op, const uint64_t a[4],
    uint8_t flags, uint64_t n, int32_t s0, int32_t s1);
int32_t gb_leaf(struct sc_graph *b, uint8_t home, uint64_t bytes);
int32_t gb_input(struct sc_graph *b, uint64_t bytes, uint64_t layout,
    uint8_t flags);
bool gb_find(struct weights *w, int64_t il, const char *name, uint64_t *bytes);
int32_t gb_tensor(struct sc_graph *b, struct weights *w, int64_t il,
    const char *name, bool optional);
int32_t gb_weight(struct sc_graph *b, struct weights *w, int64_t il,
    const char *name);
struct rows rows2(uint64_t width, uint64_t t);
int32_t gb_bias(struct sc_graph *b, struct weights *w, int64_t il,
    const char *base, int32_t x, struct rows r);
int32_t gb_norm(struct sc_graph *b, struct weights *w, int64_t il,
    const char *base, int32_t x, struct rows r);
int32_t gb_mm(struct sc_graph *b, const struct shape *s, int32_t w, int32_t x,
    uint64_t rows);
int32_t gb_linear(struct sc_graph *b, const struct shape *s, struct weights *w,
    int64_t il, const char *base, int32_t x, uint64_t rows);
int32_t gb_softcap(struct sc_graph *b, int32_t x, uint64_t t);

/* graph-ffn.c: gb_ffn: layer il's FFN on cur (dense or experts, as the
 * row's ffn says); gb_gated: its gated FFN ff wide (suffix: a shared
 * expert's "_shexp", else ""); gb_moe_sum: its experts alone (what
 * build_moe_ffn expands), their sum; gb_moe_shared: that sum x with the
 * shared expert added. */
int32_t gb_ffn(struct sc_graph *b, const struct shape *s, struct weights *w,
    int64_t il, int32_t cur);
int32_t gb_gated(struct sc_graph *b, const struct shape *s, struct weights *w,
    int64_t il, int32_t cur, const char *suffix, uint64_t ff);
int32_t gb_moe_sum(struct sc_graph *b, const struct shape *s, struct weights *w,
    int64_t il, int32_t cur);
int32_t gb_moe_shared(struct sc_graph *b, const struct shape *s,
    struct weights *w, int64_t il, int32_t cur, int32_t x);

/* graph-attn.c */

/* An attention begun: Q, the layer's caches once written, which cache,
 * the attention's output. */
struct gb_attn {
	int32_t q, kc, vc, o;
	int32_t sinks; /* the attention's sinks (a weight), or GA_NONE */
	int32_t qg;    /* GB_Q_GATE: Q's product, its gate beside Q */
	int32_t qr, x; /* DSA: Q's LoRA normed, the layer's normed input */
	int c;	       /* enum gb_cache_kind */
};

void gb_inputs_init(struct inputs *in);
int32_t gb_in_pos(struct sc_graph *b, const struct shape *s, struct inputs *in);
int32_t gb_in_out(struct sc_graph *b, const struct shape *s, struct inputs *in);
/* gb_has: whether the file has layer il's tensor name (not marked read). */
bool gb_has(const struct weights *w, int64_t il, const char *name);
/* gb_dim: dimension k of layer il's tensor name (0: none). */
uint64_t gb_dim(const struct weights *w, int64_t il, const char *name, int k);
/* gb_host_only: whether the device does not run what reads layer il's
 * tensor name (plan_host_only). */
bool gb_host_only(const struct weights *w, int64_t il, const char *name);
/* gb_attn_begin: layer il's Q, K and V of cur (the normed input), K's and
 * V's rows written into its cache, the attention over the cache (what
 * build_attn expands); gb_attn_end: its output projection and bias, where
 * the layer reaches them. */
void gb_attn_begin(struct sc_graph *b, const struct shape *s, struct weights *w,
    struct inputs *in, int64_t il, int32_t cur, struct gb_attn *at);
/* The cell indices of cache c's K (k) or V, its mask; rows x written
 * into cache (merged across its streams first when merge). */
int32_t gb_in_idx(struct sc_graph *b, const struct shape *s, struct inputs *in,
    int c, bool k);
int32_t gb_in_mask(struct sc_graph *b, const struct shape *s, struct inputs *in,
    int c);
/* Cache c's rotation of K (k) or of V: GA_NONE without one. */
int32_t gb_in_rot(struct sc_graph *b, const struct shape *s, struct inputs *in,
    int c, bool k);
void gb_set_rows(struct sc_graph *b, const struct shape *s, int32_t x,
    int32_t idxs, int32_t cache, bool merge);

/* gb_enc_attn_begin: an encoder layer's attention (no cache): Q, K and V
 * of cur and the attention over them, as gb_attn_begin. */
void gb_enc_attn_begin(struct sc_graph *b, const struct shape *s,
    struct weights *w, struct inputs *in, int64_t il, int32_t cur,
    struct gb_attn *at);

/* graph-mla.c: gb_attn_begin's MLA form (deepseek2): Q and the compressed
 * KV, its rows into the K cache (V is a view of it), the attention and
 * the heads' V up-projection. */
void gb_mla_begin(struct sc_graph *b, const struct shape *s, struct weights *w,
    struct inputs *in, int64_t il, int32_t cur, struct gb_attn *at);
int32_t gb_attn_end(struct sc_graph *b, const struct shape *s,
    struct weights *w, struct inputs *in, int64_t il, const struct gb_attn *at);

/* graph-dsa.c: DSA's lightning indexer in layer il (deepseek32,
 * glm-dsa). gb_dsa_keys: the indexer's key of cur (the layer's normed
 * input), rotated, into its cache (where the layer has an indexer);
 * gb_dsa_mask: the MLA attention's mask, every cell masked but the top
 * k the indexer scores highest (a later layer without an indexer takes
 * the last one's). */
void gb_dsa_keys(struct sc_graph *b, const struct shape *s, struct weights *w,
    struct inputs *in, int64_t il, int32_t cur);
int32_t gb_dsa_mask(struct sc_graph *b, const struct shape *s,
    struct weights *w, struct inputs *in, int64_t il, const struct gb_attn *at);

/* graph-altup.c */

/* gemma3n's layers from the embeddings x (the rows of the tokens): the
 * per-layer inputs, AltUp's stack, every layer, the stack merged back:
 * the merged rows, before the output rows are taken. */
int32_t gb_altup(struct sc_graph *b, const struct shape *s, struct weights *w,
    struct inputs *in, int32_t x);

/* graph-ssm.c */

/* A recurrent layer begun: its caches (the convolution's states and the
 * scan's), the convolution states' rows (reshaped), the in-projection,
 * the convolution's input and output (Mamba-2: the view of its x), the
 * scan. */
struct gb_mamba {
	int32_t r, conv, proj, cx, x, scan;
};

/* gb_rs_read: build_rs on layer il's cache of width-wide states (made
 * in *cache): the sequences' rows (returned), the cell to clear zeroed,
 * the other cells' rows copied; gb_conv_input: the convolution's input
 * (mb's states, read by gb_ssm_head, and x transposed) and the states'
 * write of its last columns; gb_into: a node of op whose result is in
 * view's bytes (an in-place scale, a copy into it). */
int32_t gb_rs_read(struct sc_graph *b, const struct shape *s, struct weights *w,
    struct inputs *in, int64_t il, uint64_t width, int32_t *cache);
int32_t gb_conv_input(struct sc_graph *b, const struct gb_ssm *m,
    struct gb_mamba *mb, int32_t x);
int32_t gb_into(struct sc_graph *b, uint8_t op, int32_t view, int32_t s0,
    int32_t s1);
/* gb_rs_write: the new states, out's first floats (a scan's or a delta
 * net's, after its output), copied into cache's sequences' rows. */
void gb_rs_write(struct sc_graph *b, const struct gb_ssm *m, int32_t out,
    int32_t cache);

/* gb_ssm_head: layer il's convolution states read (build_rs), which
 * ggml reaches before the layer's input; gb_ssm_body: the rest the
 * layer expands, from its norm of x to its states written back;
 * gb_ssm_tail: what only the layer's output reaches (the gate, the
 * norm, the out-projection): that output. */
void gb_ssm_head(struct sc_graph *b, const struct shape *s, struct weights *w,
    struct inputs *in, int64_t il, struct gb_mamba *m);
void gb_ssm_body(struct sc_graph *b, const struct shape *s, struct weights *w,
    struct inputs *in, int64_t il, int32_t x, struct gb_mamba *m);
int32_t gb_ssm_tail(struct sc_graph *b, const struct shape *s,
    struct weights *w, int64_t il, const struct gb_mamba *m);

/* graph-gdn.c: the layers of a Gated DeltaNet hybrid (GB_GDN) from the
 * embeddings x: their output, before the output norm. */
int32_t gb_gdn_layers(struct sc_graph *b, const struct shape *s,
    struct weights *w, struct inputs *in, int32_t x);

/* graph-gdn.c: the GATED_DELTA_NET op of n floats over src (q, k, v,
 * gate, beta, states), on the host where the device does not run it;
 * Gated DeltaNet's and Kimi delta attention's. */
/* gb_ssm_conv: the SSM_CONV of x by the weight wt over ch channels
 * (rows r), on the host where the GPU does not run it. */
int32_t gb_ssm_conv(struct sc_graph *b, const struct gb_ssm *m, struct rows r,
    uint64_t ch, int32_t x, int32_t wt);
int32_t gb_delta_net_op(struct sc_graph *b, const struct gb_ssm *m, uint64_t n,
    const int32_t src[6]);

/* graph-kda.c: the layers of kimi-linear (GB_KDA) from the embeddings x:
 * their output, before the output norm. */
int32_t gb_kda_layers(struct sc_graph *b, const struct shape *s,
    struct weights *w, struct inputs *in, int32_t x);

#endif
