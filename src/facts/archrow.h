/*
 * archrow.h - one architecture's row: everything gguflint knows about an
 * architecture llama.cpp loads, in one place (the table is archs.c). The
 * row says how the plan sizes its memory (kind, sliding-window pattern),
 * whether a name map of rules/arch/ checks its tensors, how llama.cpp's
 * graph for it differs from llama's (the graph builder of src/plan
 * reads it: GB_ names are that builder's vocabulary), and the numbers
 * fitted to llama.cpp's measurements where the graph is not placed
 * (compute formula, device split, quantized-cache shift), with the
 * backends they were measured on. Which llama.cpp build, and which
 * device, every fitted number follows is base/replica.h's.
 */
#ifndef GGUFLINT_ARCHROW_H
#define GGUFLINT_ARCHROW_H

#include <stdbool.h>
#include <stdint.h>

/* How the plan sizes an architecture's memory (arch_read). */
enum arch_kind {
	ARCH_KIND_ATTN = 0,	/* standard attention, no SWA */
	ARCH_KIND_SWA_ALWAYS,	/* SWA always; window 4096 by default */
	ARCH_KIND_SWA,		/* SWA when sliding_window > 0 */
	ARCH_KIND_SWA_CHUNKED,	/* chunked attention, window 8192, unless
				   sliding_window is 0 (llama4) */
	ARCH_KIND_SWA_OFF,	/* sliding_window read, SWA disabled */
	ARCH_KIND_SWA_64,	/* SWA (window 4096 by default) in models of
				   64 blocks alone (exaone4's 32B) */
	ARCH_KIND_MLA,		/* MLA when both *_mla keys are set */
	ARCH_KIND_MAMBA,	/* recurrent state (mamba, mamba2) */
	ARCH_KIND_HYBRID_SSM,	/* layers with 0 KV heads are mamba2 */
	ARCH_KIND_HYBRID_CONV,	/* layers with 0 KV heads are short
				   convolutions (lfm2) */
	ARCH_KIND_HYBRID_KDA,	/* recurrent layers keep Kimi's delta
				   attention state (kda.head_dim) */
	ARCH_KIND_HYBRID_LA,	/* recurrent layers keep lightning
				   attention's state: n_head F32 squares
				   of the head's width (minimax-01) */
	ARCH_KIND_RWKV,		/* recurrent state in every layer: the
				   token shifts (token_shift_count rows
				   of n_embd) and the wkv state (n_embd x
				   wkv.head_size) (rwkv6, rwkv7) */
	ARCH_KIND_DSV4,		/* DeepSeek V4's: K rows alone, a window
				   cache in every layer, compressed ones
				   (one in 4 or 128 tokens) where
				   attention.compress_ratios says, the
				   compressors' F32 states, the
				   indexer's keys (deepseek4) */
	ARCH_KIND_ENCODER,	/* no cache */
	ARCH_KIND_UNPLANNED	/* no memory model: planned as standard
				   attention, and the plan says so (P005) */
};

/*
 * Which layers of a hybrid (ARCH_KIND_HYBRID_*) are recurrent, as
 * llama.cpp's load_arch_hparams marks them. A recurrent layer keeps the
 * kind's state and, but under RECR_EVERY, no KV cache; a layer with 0 KV
 * heads keeps no KV cache (nemotron_h's MLP layers).
 */
enum arch_recr {
	RECR_KV0 = 0,	/* 0 KV heads (granitehybrid, lfm2, kimi-linear) */
	RECR_INTERVAL,	/* attention.recurrent_layers, else all but every
			 * full_attention_interval-th (default 4) (qwen35) */
	RECR_KV0_FF0,	/* 0 KV heads and a feed-forward of 0 (nemotron_h) */
	RECR_EVERY,	/* every layer, beside its attention (falcon-h1) */
	RECR_INTERVAL8,	/* RECR_INTERVAL, every 8th layer attention by
			 * default (minimax-01) */
};

/* How an architecture's graph differs from llama's (llama.cpp's
 * src/models/ARCH.cpp). Biases are added wherever the file has them. */
enum gb_norm_kind {
	GB_RMS,
	GB_LAYER
};
enum gb_qk_norm {
	GB_QK_NONE,
	GB_QK_HEAD, /* Q's and K's own norms, per head (after the reshape) */
	GB_QK_ROW,  /* over the whole row, before the reshape */
	GB_QK_HEAD_OPT, /* GB_QK_HEAD where the file has them */
	GB_QK_HEAD_LATE, /* GB_QK_HEAD after the RoPE (hunyuan-dense,
			  * hunyuan-moe) */
};
enum gb_ffn_kind {
	GB_GATED,      /* SwiGLU, GeGLU: one GLU node of gate and up */
	GB_GELU,       /* up, GELU, down */
	GB_UP_GLU,     /* one product of twice the width, its GLU, down */
	GB_RELU_SQR,   /* up, ReLU, squared, down (nemotron_h, arcee) */
	GB_MOE,	       /* experts chosen by a softmax's top k (gated, SwiGLU) */
	GB_MOE_NORM,   /* the same, the chosen weights normalized */
	GB_MOE_SHARED, /* GB_MOE and a shared expert its own sigmoid gates */
	GB_MOE_OAI,    /* chosen by the logits' top k, their weights' softmax,
			* SwiGLU-OAI */
	GB_MOE_L4,     /* chosen by the logits' top k, their sigmoid weighting
			* the input, a shared expert; dense where a layer
			* has no router */
	GB_MIXED,      /* gated and dense, or GB_MOE_NORM where a layer has
			* a router (llama's Mixtral-style experts, as wide as
			* the FFN) */
	GB_MOE_GLM,    /* the keys' gating (sigmoid by default), chosen with
			* a bias, normalized and scaled as the keys say, a
			* shared expert; dense where a layer has no router */
	GB_MOE_SIG_SHEXP, /* GB_MOE_NORM's experts, scaled as the keys
			   * say, and a shared expert (where the file has
			   * one) times its own router's sigmoid; dense
			   * where a layer has no router (qwen35moe) */
	GB_MOE_GELU,	  /* GB_GELU, or where a layer has a router,
			   * experts as wide as the FFN of up alone and its
			   * GELU, chosen by a softmax's top k, their
			   * weights not normalized (nomic-bert-moe) */
};
enum gb_extra {
	GB_FFN_NORM_PA = 1,    /* the FFN's norm is post_attention_norm */
	GB_ROWS_LATE = 2,      /* the output rows taken after the last layer */
	GB_RES_FIRST = 4,      /* GB_HYBRID: x + the part, not the part + x */
	GB_OUT_NORM_EMBD = 8,  /* the output norm is token_embd_norm */
	GB_V_NORM = 16,	       /* V RMS-normed (no weight) after its reshape */
	GB_MLA = 32,	       /* MLA's absorbed latent attention is built */
	GB_SHORTCONV = 64,     /* GB_HYBRID's recurrent layers are short
				* convolutions, not Mamba-2 */
	GB_MAMBA1 = 128,       /* GB_RECURRENT: Mamba's layer, not Mamba-2's */
	GB_GATE_SOFTMAX = 256, /* GB_MOE_GLM: a softmax where the file names
				* no gating (DeepSeek V2) */
	GB_ATTN_TEMP = 512,    /* Q times the attention-temperature input
				* where attention.temperature_scale is set
				* (mistral3) */
	GB_GRANITE = 1024,     /* Granite's scales, where their keys are
				* set: residual_scale (each part's output
				* before its residual), embedding_scale,
				* logit_scale; rope.scaling.finetuned */
	GB_OLMO = 2048,	       /* olmo's: norms without weights or biases;
				* Q, K and V clamped where
				* attention.clamp_kqv is set */
	GB_NORM_W = 4096,      /* GB_MOE_GLM: the chosen weights normalized
				* whatever the keys say */
	GB_MROPE = 8192,       /* M-RoPE: four positions a token */
	GB_DEEPSTACK = 16384,  /* the input embeddings n_deepstack_layers
				* times wider (padded), a slice of them
				* added after each of the first layers
				* (qwen3vl) */
	GB_Q_GATE = 32768,     /* Q's product twice as wide: Q and, its
				* other half's sigmoid, the attention's
				* gate before the output projection
				* (qwen35) */
	GB_GDN_NEXT = 65536,   /* qwen3next's forms: Q's product reshaped
				* before its views; beta and alpha one
				* product (ssm_ba), each a view made
				* contiguous; Q and K repeated to V's
				* heads where they have fewer */
	GB_MIXER_ONLY = 131072, /* GB_HYBRID's layers one part each: a
				 * Mamba-2 layer, an attention layer (a
				 * feed-forward of 0) or an FFN alone
				 * (nemotron_h) */
	GB_ROWS_NORMED = 262144, /* the output rows taken after the
				  * output norm (both kept: h_nextn) */
	GB_EXP_RELU_SQR = 524288, /* the experts and the shared expert
				   * without gates: up, ReLU squared,
				   * down (nemotron_h_moe) */
	GB_RES_SCALE = 1048576, /* GB_GRANITE's residual scale whatever the
				* keys (minicpm's default) */
	GB_EMBD_NORM = 2097152, /* the embeddings layer-normed
				* (token_embd_norm) before the first
				* layer (bloom) */
	GB_CLAMP = 4194304,     /* Q, K and V clamped where
				* attention.clamp_kqv is set (mpt) */
	GB_FF_HALF = 8388608,   /* the FFN half as wide as
				* feed_forward_length (qwen) */
	GB_ROWS_AFTER_NORM = 268435456, /* the output rows taken after
					 * the output norm, which is not
					 * kept (hy_v3) */
	GB_CLAMP_KQV = 16777216, /* Q, K and V clamped where
				* attention.clamp_kqv is set, the norms
				* kept (dbrx) */
	GB_FFN_NORM_AO = 33554432, /* the FFN's norm is attn_output_norm
				 * (dbrx) */
	GB_SHEXP_HALF = 67108864, /* GB_MOE_GLM: the experts' and the
				  * shared expert's sum halved (cohere2moe) */
	GB_LN_UNLESS_RMS = 134217728, /* layer norms: not built where
				    * attention.layer_norm_rms_epsilon says
				    * RMS norms (cohere2moe) */
	GB_DOWN_F32 = 536870912, /* the experts' down product at F32
				  * precision, which ggml-vulkan does not
				  * run: on the CPU (mistral4) */
	GB_ATTN_NORM_OPT = 1073741824, /* the attention's norm where the
					* file has it (modern-bert's first
					* layer has none) */
};
enum gb_norms {
	GB_NORM_PRE,  /* norms before the attention and the FFN */
	GB_NORM_POST, /* after them, none before */
	GB_NORM_BOTH,
	GB_NORM_SUB,  /* before them, and before their output products:
		       * attn_sub_norm, ffn_sub_norm (bitnet) */
};
enum gb_scale {
	GB_SCALE_EMBD = 1,	/* the embeddings scaled (by sqrt(n_embd)) */
	GB_SCALE_Q = 2,		/* Q scaled after its RoPE, the attention not */
	GB_SCALE_LOGITS = 4,	/* the logits scaled (in place) */
	GB_SOFTCAP_ATTN = 8,	/* KQ capped (scale, tanh, scale) without FA */
	GB_SOFTCAP_LOGITS = 16, /* the logits capped so */
	GB_SCALE_LOGITS_KEY = 32, /* the logits scaled where logit_scale is
				   * set and not 0 (command-r) */
};
enum gb_pos {
	GB_ROPE,     /* Q and K roped */
	GB_LEARNED,  /* position embeddings added to the input, no RoPE */
	GB_ROPE_SWA, /* roped in the sliding-window layers alone */
	GB_ROPE_NTH, /* llama4: every fourth layer (with a window; else the
		      * last) not roped but Q scaled by an input, the roped
		      * layers' Q and K RMS-normed (but with 128 experts) */
	GB_ROPE_SKIP4,	  /* every fourth layer not roped (smollm3) */
	GB_ROPE_SWA_ALL,  /* roped in the sliding-window layers alone, in
			   * every layer without a window (exaone4) */
	GB_ROPE_32,	  /* roped in a model of 32 blocks alone (baichuan's
			   * 7B; the others have ALiBi) */
	GB_NO_ROPE,	  /* no RoPE, no positions (nemotron_h) */
	GB_ROPE_LAYERS,	  /* roped where attention.rope_pattern marks the
			   * layer, in all without it (granite_swa) */
	GB_ALIBI,	  /* no RoPE (ALiBi's bias, in the soft max); the
			   * learned positions added where the file has
			   * position_embd (bloom, mpt) */
	GB_ROPE_SWA_LEAD, /* roped in the sliding-window layers and the
			   * leading_dense_block_count first (cohere2moe) */
	GB_ROPE_SECTIONS, /* roped, with M-RoPE's four positions a token
			   * where rope.dimension_sections' first two
			   * sections are not 0 (hunyuan_vl) */
};
/* How a layer's attention, FFN and residuals meet. */
enum gb_block {
	GB_SEQ,	      /* x + attention, then that + FFN */
	GB_SEQ_RES,   /* the same, the FFN's residual added the other way */
	GB_PAR_RES,   /* one norm for both: (FFN + x) + attention */
	GB_PAR_ATTN,  /* one norm for both: (FFN + attention) + x */
	GB_RECURRENT, /* Mamba's or Mamba-2's layer, x + its output
		       * (graph-ssm.c) */
	GB_HYBRID,    /* a Mamba-2 layer or an attention layer (hparams'
		       * is_recr), then the FFN, as GB_SEQ (granitehybrid) */
	GB_ENCODER,   /* no cache: x + attention, normed; + FFN, normed
		       * (bert, nomic-bert) */
	GB_ALTUP,     /* gemma3n's: AltUp's predictions and corrections
		       * around the attention, laurel, the FFN and the
		       * per-layer inputs (graph-altup.c) */
	GB_GDN,	      /* a Gated DeltaNet layer or an attention layer
		       * (hparams' is_recr), x added; the FFN of that
		       * normed (post_attention_norm), added; the output
		       * rows taken after the output norm (qwen35,
		       * graph-gdn.c) */
	GB_PAR_SSM,   /* attention and a Mamba-2 layer side by side on
		       * the one norm (computed twice), summed, x added;
		       * the FFN of that, normed (ffn_norm), added
		       * (falcon-h1) */
	GB_KDA,	      /* a Kimi delta attention layer or an MLA layer
		       * (hparams' is_recr) on the norm, x added; the
		       * FFN of that normed (ffn_norm), added; the output
		       * rows taken in the last layer (kimi-linear,
		       * graph-kda.c) */
	GB_PAR_FIRST, /* one norm for both: (attention + FFN) + x, the
		       * attention reached first (phi2) */
	GB_PAR_NORM2, /* where use_parallel_residual is set, a norm each:
		       * (FFN + x) + attention; else GB_SEQ (gptneox) */
	GB_DENSE_MOE, /* GB_SEQ with a gated FFN as wide as n_embd, and
		       * beside it the experts of x normed (ffn_norm_exps),
		       * added last (arctic) */
};

/* What the graph ends with. */
enum gb_out {
	GB_OUT_LOGITS,	 /* the logits: the output matrix (or its copy of
			  * token_embd) times the output norm */
	GB_OUT_NORM,	 /* the output norm alone: an encoder's
			  * embeddings (eurobert) */
	GB_OUT_NORM_ENC, /* the same, the norm enc.output_norm (neo-bert) */
};

/* llama.cpp's graph of the architecture, as src/plan builds it; built
 * false: not built (the plan falls back to its fitted estimate). */
struct arch_graph {
	bool built;
	uint8_t norm;	 /* enum gb_norm_kind */
	uint8_t qk_norm; /* enum gb_qk_norm */
	uint8_t ffn;	 /* enum gb_ffn_kind: gated or up, GELU, down */
	uint8_t norms;	 /* enum gb_norms */
	uint8_t scale;	 /* enum gb_scale, or'ed */
	uint8_t pos;	 /* enum gb_pos */
	uint8_t block;	 /* enum gb_block */
	uint32_t extra;	 /* enum gb_extra, or'ed */
	uint8_t out;	 /* enum gb_out */
};

/*
 * The fitted split of the compute buffer between the host and a GPU
 * under -ngl (plan-gpu.c says what each choice means): the rows the
 * device keeps, how it peaks with layers on the host, how with every
 * layer offloaded. fitted false: the defaults (2 rows, SPLIT_HOST_ADDS,
 * SPLIT_FULL_GRAPH), unmeasured.
 */
enum arch_split_host {
	SPLIT_HOST_ADDS,
	SPLIT_HOST_PHASE,
	SPLIT_HOST_COPIES,
	SPLIT_HOST_LAYERS
};
enum arch_split_full {
	SPLIT_FULL_GRAPH,
	SPLIT_FULL_PARALLEL,
	SPLIT_FULL_LEARNED,
	SPLIT_FULL_SCAN
};
struct arch_split {
	bool fitted;	/* the row's numbers, not the defaults */
	bool measured;	/* within 10 % at the Vulkan table's points */
	uint8_t kept;
	uint8_t host;	/* enum arch_split_host */
	uint8_t full;	/* enum arch_split_full */
};

/* The fitted compute of the host, when the graph is not placed. */
enum arch_fit_compute {
	FIT_GRAPH,	   /* the attention model's dense graph */
	FIT_MAMBA,	   /* Mamba (v1), measured exactly */
	FIT_MAMBA2,	   /* Mamba-2 */
	FIT_GRANITEHYBRID, /* Mamba-2 layers among attention layers */
};

/*
 * The numbers fitted to llama.cpp's CPU measurements: the compute
 * formula; whether it is within 10 % of the CPU table (cpu); where the
 * graph is not placed, the worst ratio of the plan's compute to
 * llama.cpp's over each table's rows (worst_cpu, worst_vulkan: the one
 * farthest from 1, in thousandths; 0: not measured; tests/test_graph.c
 * holds them to the tables; within 10 %, the compute is fitted); whether the
 * attention on the host (its KQ beyond the device's largest tensor) and
 * the experts' FFN on the host were measured; and the layout shift of a
 * quantized cache (shift: measured; fa_k, fa_v, nofa_k as plan-llama.c's
 * plan_quantized_cache reads them).
 */
struct arch_fit {
	uint8_t compute; /* enum arch_fit_compute */
	bool cpu;
	bool kq_host;
	bool experts_host;
	bool shift;
	signed char fa_k, fa_v, nofa_k;
	uint16_t worst_cpu, worst_vulkan;
};

/* The backends an architecture's oracle rows were measured on. */
enum arch_backend {
	ARCH_ON_CPU = 1,
	ARCH_ON_VULKAN = 2,
};

/* The row's quirks of llama.cpp's loader. */
enum arch_quirk {
	ARCH_OUTPUT_FIRST = 1,	   /* the tied output copy is created before
				    * token_embd (gemma3n) */
	ARCH_EMBD_NORM_OUTPUT = 2, /* token_embd_norm is the output norm,
				    * placed with the output layer (lfm2) */
	ARCH_SSM_A_MUL = 4,	   /* ssm_a is multiplied, not scanned
				    * (Gated DeltaNet): it stays with its
				    * layer (plan_host_only) */
	ARCH_SWA_LAYERS = 8,	   /* attention.sliding_window_pattern is a
				    * per-layer array of the sliding-window
				    * layers (gemma4) */
	ARCH_KV_SHARED = 16,	   /* the last attention.shared_kv_layers
				    * layers reuse an earlier cache (gemma4) */
	ARCH_ROPE_FULL = 32,	   /* rope_freqs is created in each
				    * full-attention layer: with the first,
				    * copied to another buffer type a later
				    * one is in (gemma4) */
	ARCH_DSA = 64,		   /* MLA with DSA's lightning indexer: its
				    * keys (attention.indexer.key_length)
				    * cached in every trunk layer
				    * (deepseek32) */
	ARCH_DSA_TYPES = 128,	   /* ARCH_DSA in the layers
				    * attention.indexer.types marks, by
				    * default every layer before a context
				    * of 1048576, else GLM-5.2's pattern
				    * (glm-dsa) */
	ARCH_MTP_PROBS_B = 256,	   /* an MTP layer's exp_probs_b is loaded
				    * (created without the layer's skip
				    * flag), the rest of the layer not
				    * (deepseek32, glm-dsa) */
	ARCH_SWA_DENSE_FIRST = 512, /* the window pattern's full-attention
				    * layer is the first of each group, not
				    * the last (cohere2moe) */
	ARCH_SWA_4096 = 1024,	   /* the window 4096 wherever
				    * attention.sliding_window is set and not
				    * 0 (smallthinker) */
	ARCH_MSA = 2048,	   /* MiniMax Sparse Attention: a second
				    * cache, one head of K
				    * (attention.indexer.key_length) and one
				    * of V (the head's width), in the layers
				    * from leading_dense_block_count
				    * (minimax-m3) */
	ARCH_FA_ABORTS = 4096,	   /* llama.cpp aborts making a context
				    * with flash attention (plm: its graph's
				    * V of two dimensions); the tests run it
				    * without */
	ARCH_ENCODER_OUTPUT = 8192, /* an encoder whose loader creates the
				    * output matrix all the same (a copy of
				    * token_embd where the file has no
				    * output.weight), whether or not its
				    * graph reads it (gemma-embedding; the
				    * diffusion LMs: dream, llada, rnd1) */
	ARCH_ENC_GRAPH = 16384,	   /* the graph attends the ubatch alone, an
				    * encoder's, though llama.cpp makes a
				    * cache it never reads (t5encoder) */
	ARCH_EMBD_OUTPUT = 32768,  /* no output matrix and no tied copy:
				    * the graph multiplies token_embd itself,
				    * in the input layer's buffer (neither
				    * repacked nor offloaded) (bitnet) */
	ARCH_ROUTER_KV = 65536,	   /* one layer more than block_count, at
				    * the end, without weights: the router's
				    * cache, one head of K and V (placed
				    * as an MTP layer, offloaded first)
				    * (graniteswitch) */
	ARCH_MTP_TRUNK_SKIP = 131072, /* of an MTP layer llama.cpp skips
				    * only what it requires: the attention's
				    * norm, Q, K, V and output, the FFN's
				    * norm, nextn.eh_proj, enorm and hnorm;
				    * the optional rest is loaded (step35) */
	ARCH_LOOPS = 262144,	   /* the blocks run num_loops times over,
				    * each pass a layer of its own (its
				    * cache, its place in -ngl) sharing the
				    * block's weights (nanbeige) */
	ARCH_DSA_TOPK = 524288,	   /* ARCH_DSA only where
				    * attention.indexer.top_k is set and not
				    * 0, in the layers
				    * attention.indexer.types marks (by
				    * default none; llama.cpp refuses a
				    * first layer without) (hy_v4) */
	ARCH_HRM = 1048576,	   /* block_count must be
				    * hrm.layers_per_stack x h_cycles x
				    * (l_cycles + 1), each at least 1, or
				    * llama.cpp aborts (hrm_text) */
	ARCH_QSA = 2097152,	   /* a hybrid's attention layers cache
				    * their indexer's keys too, one head of
				    * attention.indexer.key_length, no V
				    * (qwen4exp) */
	ARCH_MASK_SWA = 4194304,   /* an encoder whose sliding-window layers
				    * read a mask of their own (no cache:
				    * the window is the mask's alone),
				    * where attention.sliding_window is set
				    * and not 0 (modern-bert,
				    * gemma-embedding) */
	ARCH_NORM_BARE = 8388608,  /* the norms after the attention and the
				    * FFN are named without .weight
				    * (post_attention_norm, post_ffw_norm:
				    * plamo3) */
};

/*
 * One architecture gguflint knows, by its general.architecture value. The
 * table of them in archs.c is the one list: the built-in name maps of
 * rules/arch/ may name only these, and must name every one whose entry is
 * mapped (names_db_check_archs says whether they do; a test runs it).
 */
struct arch_info {
	const char *name;
	enum arch_kind kind;
	const char *unmeasured;	/* why llama.cpp cannot be measured on it
				   alone (a draft head beside its target):
				   planned as standard attention, said so */
	uint8_t swa_pattern;	/* llama.cpp's default pattern (0: 6) */
	uint8_t kv_layers;	/* layers with a cache of their own (0:
				   all; gemma3n's 20) */
	uint8_t recr;		/* enum arch_recr: a hybrid's recurrent
				   layers */
	bool mapped;		/* a name map of rules/arch/ names it */
	uint32_t quirks;	/* enum arch_quirk, or'ed */
	uint8_t measured_on;	/* enum arch_backend, or'ed */
	struct arch_graph graph;
	struct arch_split split;
	struct arch_fit fit;
};

#endif
