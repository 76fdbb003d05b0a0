/*
 * oraclegen-specs.h - the oracle's geometries (tests/oraclegen.c, its
 * only includer): one a mapped architecture, each small but shaped as
 * the architecture's models are, and a few of a real model's
 * proportions. Data only; add an architecture's at the end of og_specs.
 */
#ifndef GGUFLINT_ORACLEGEN_SPECS_H
#define GGUFLINT_ORACLEGEN_SPECS_H

/*
 * One geometry: metadata as "T:key=value" words (T: u uint32, f float32,
 * b bool, s string, a array of uint32 "1,2,3"; "v:vocab=N" the
 * vocabulary's size, 512 by default; a key without a dot-free
 * prefix of general., tokenizer. or xielu. (apertus's, unprefixed in
 * llama.cpp) is ARCH.key), and the optional tensors
 * (ids of the map, "attn_q.bias") to write as well.
 */
struct og_spec {
	const char *arch;
	const char *kv;
	const char *extra;
};

#define OG_ATTN_L(n) \
	"u:context_length=8192 u:embedding_length=512 u:block_count=" #n \
	" u:feed_forward_length=1536 u:attention.head_count=8 "
#define OG_ATTN OG_ATTN_L(4)
#define OG_KV2 "u:attention.head_count_kv=2 "
#define OG_RMS "f:attention.layer_norm_rms_epsilon=1e-5 "
#define OG_LN "f:attention.layer_norm_epsilon=1e-5 "

/* Gated DeltaNet (qwen35's): 4 heads of 128 in 2 groups */
#define OG_GDN_L(n) \
	"u:context_length=8192 u:embedding_length=512 u:block_count=" #n \
	" u:feed_forward_length=1536 u:attention.head_count=8 " OG_KV2 OG_RMS \
	"u:attention.key_length=128 u:attention.value_length=128 " \
	"u:rope.dimension_count=64 u:ssm.conv_kernel=4 " \
	"u:ssm.inner_size=512 u:ssm.state_size=128 " \
	"u:ssm.time_step_rank=4 u:ssm.group_count=2 "
/* its experts and shared expert, and an MTP layer */
#define OG_GDN_MOE \
	"u:nextn_predict_layers=1 u:expert_count=8 u:expert_used_count=2 " \
	"u:expert_feed_forward_length=256 " \
	"u:expert_shared_feed_forward_length=512 "

/* KDA, MLA, KDA, MLA; the first layer dense, then experts */
#define OG_KIMI \
	"u:context_length=8192 u:embedding_length=512 u:block_count=4 " \
	"u:feed_forward_length=1536 u:attention.head_count=8 " \
	"a:attention.head_count_kv=0,1,0,1 " OG_RMS \
	"u:attention.key_length=96 u:attention.value_length=64 " \
	"u:attention.key_length_mla=96 u:attention.value_length_mla=64 " \
	"u:attention.kv_lora_rank=64 u:rope.dimension_count=32 " \
	"u:ssm.conv_kernel=4 u:kda.head_dim=64 " \
	"u:leading_dense_block_count=1 u:expert_count=8 " \
	"u:expert_used_count=2 u:expert_feed_forward_length=256 " \
	"u:expert_shared_count=1 u:expert_gating_func=2 "

/* RWKV-6's and RWKV-7's: 8 wkv heads of 64, their low ranks */
#define OG_RWKV \
	"u:context_length=8192 u:embedding_length=512 u:block_count=4 " \
	"u:feed_forward_length=1536 u:wkv.head_size=64 "
#define OG_RWKV6 OG_RWKV "u:time_mix_extra_dim=32 u:time_decay_extra_dim=64 "
#define OG_RWKV7 \
	OG_RWKV "u:attention.decay_lora_rank=64 " \
		"u:attention.iclr_lora_rank=64 " \
		"u:attention.value_residual_mix_lora_rank=32 " \
		"u:attention.gate_lora_rank=128 "

/* deepseek2's MLA (a low-rank query), a dense block, then experts */
#define OG_DS2 \
	OG_ATTN OG_RMS \
	    "u:attention.head_count_kv=1 u:leading_dense_block_count=1 " \
	    "u:expert_feed_forward_length=256 u:expert_shared_count=1 " \
	    "u:expert_count=8 u:expert_used_count=2 f:expert_weights_scale=1 " \
	    "u:attention.q_lora_rank=192 u:attention.kv_lora_rank=128 " \
	    "u:attention.key_length=160 u:attention.value_length=128 " \
	    "u:attention.key_length_mla=96 u:attention.value_length_mla=64 " \
	    "u:rope.dimension_count=32"

/* deepseek2's MLA, the DSA indexer (4 heads of 64), a dense block, three
 * of experts and an MTP block */
#define OG_DSA \
	OG_ATTN_L(5) \
	OG_RMS \
	"u:attention.head_count_kv=1 u:leading_dense_block_count=1 " \
	"u:nextn_predict_layers=1 u:expert_feed_forward_length=256 " \
	"u:expert_shared_count=1 u:expert_count=8 " \
	"u:expert_used_count=2 f:expert_weights_scale=1 " \
	"u:attention.q_lora_rank=192 u:attention.kv_lora_rank=128 " \
	"u:attention.key_length=160 u:attention.value_length=128 " \
	"u:attention.key_length_mla=96 u:attention.value_length_mla=64 " \
	"u:rope.dimension_count=32 u:attention.indexer.head_count=4 " \
	"u:attention.indexer.key_length=64 u:attention.indexer.top_k=256 "

static const struct og_spec og_specs[] = {
	{ "llama", OG_ATTN OG_KV2 OG_RMS "u:rope.dimension_count=64",
	    "output.weight" },
	{ "qwen2", OG_ATTN OG_KV2 OG_RMS,
	    "output.weight attn_q.bias attn_k.bias attn_v.bias" },
	{ "ernie4_5", OG_ATTN OG_KV2 OG_RMS, "output.weight" },
	{ "qwen2moe",
	    OG_ATTN OG_KV2 OG_RMS "u:expert_count=8 u:expert_used_count=2 "
				  "u:expert_feed_forward_length=256 "
				  "u:expert_shared_feed_forward_length=512",
	    "output.weight attn_q.bias attn_k.bias attn_v.bias" },
	{ "qwen3",
	    OG_ATTN OG_KV2 OG_RMS "u:attention.key_length=128 "
				  "u:attention.value_length=128",
	    "output.weight" },
	{ "qwen3moe",
	    OG_ATTN OG_KV2 OG_RMS
	    "u:attention.key_length=128 "
	    "u:attention.value_length=128 u:expert_count=8 "
	    "u:expert_used_count=2 "
	    "u:expert_feed_forward_length=256",
	    "output.weight" },
	{ "gemma",
	    OG_ATTN OG_KV2 OG_RMS "u:attention.key_length=64 "
				  "u:attention.value_length=64",
	    "" },
	{ "gemma2",
	    OG_ATTN OG_KV2 OG_RMS "u:attention.key_length=64 "
				  "u:attention.value_length=64 "
				  "u:attention.sliding_window=4096 "
				  "f:attn_logit_softcapping=50 "
				  "f:final_logit_softcapping=30",
	    "" },
	{ "gemma3",
	    OG_ATTN_L(6) OG_KV2 OG_RMS "u:attention.key_length=64 "
				       "u:attention.value_length=64 "
				       "u:attention.sliding_window=512",
	    "" },
	/* 22 blocks: the last two reuse the caches of blocks 18 and 19 */
	{ "gemma3n",
	    OG_ATTN_L(22) OG_KV2 OG_RMS "u:attention.key_length=64 "
					"u:attention.value_length=64 "
					"u:attention.sliding_window=512",
	    "" },
	{ "phi3",
	    OG_ATTN OG_KV2 OG_RMS "u:rope.dimension_count=64 "
				  "u:attention.sliding_window=2047",
	    "output.weight" },
	{ "deepseek2", OG_DS2, "output.weight" },
	{ "mamba",
	    "u:context_length=1048576 u:embedding_length=512 "
	    "u:block_count=4 u:feed_forward_length=0 "
	    "u:attention.head_count=0 u:ssm.conv_kernel=4 "
	    "u:ssm.inner_size=1024 u:ssm.state_size=16 "
	    "u:ssm.time_step_rank=32 " OG_RMS,
	    "" },
	{ "bert",
	    "u:context_length=512 u:embedding_length=512 u:block_count=4 "
	    "u:feed_forward_length=1536 u:attention.head_count=8 "
	    "u:attention.head_count_kv=8 b:attention.causal=0 " OG_LN
	    "u:pooling_type=1 u:tokenizer.ggml.token_type_count=2",
	    "attn_q.bias attn_k.bias attn_v.bias attn_output.bias ffn_up.bias "
	    "ffn_down.bias" },
	{ "nomic-bert",
	    "u:context_length=2048 u:embedding_length=512 u:block_count=4 "
	    "u:feed_forward_length=1536 u:attention.head_count=8 "
	    "u:attention.head_count_kv=8 b:attention.causal=0 " OG_LN
	    "u:pooling_type=1 u:tokenizer.ggml.token_type_count=2",
	    "token_types.weight" },
	{ "olmo2", OG_ATTN OG_KV2 OG_RMS, "" },
	{ "starcoder2", OG_ATTN OG_KV2 OG_LN,
	    "output.weight attn_q.bias attn_k.bias attn_v.bias" },
	{ "falcon", OG_ATTN OG_KV2 OG_LN, "output.weight" },
	{ "gpt2", OG_ATTN OG_KV2 OG_LN, "output.weight" },
	{ "gpt-oss",
	    OG_ATTN OG_KV2 OG_RMS "u:attention.key_length=64 "
				  "u:attention.value_length=64 "
				  "u:attention.sliding_window=128 "
				  "u:expert_count=8 u:expert_used_count=2 "
				  "u:expert_feed_forward_length=256",
	    "" },
	{ "llama4",
	    OG_ATTN OG_KV2 OG_RMS "u:rope.dimension_count=64 "
				  "u:expert_count=8 u:expert_used_count=1 "
				  "u:expert_feed_forward_length=256 "
				  "u:interleave_moe_layer_step=2",
	    "output.weight" },
	{ "cohere2",
	    OG_ATTN OG_KV2 OG_LN "u:attention.sliding_window=256 "
				 "f:logit_scale=0.25",
	    "" },
	/* the fifth block is an MTP layer the file leaves out */
	{ "glm4moe",
	    OG_ATTN_L(5) OG_KV2 OG_RMS "u:rope.dimension_count=32 "
				       "u:nextn_predict_layers=1 "
				       "u:leading_dense_block_count=1 "
				       "u:expert_count=8 u:expert_used_count=2 "
				       "u:expert_feed_forward_length=256 "
				       "u:expert_shared_count=1",
	    "output.weight attn_q.bias attn_k.bias attn_v.bias" },
	{ "mamba2",
	    "u:context_length=1048576 u:embedding_length=512 "
	    "u:block_count=4 u:feed_forward_length=0 "
	    "u:attention.head_count=0 u:ssm.conv_kernel=4 "
	    "u:ssm.inner_size=1024 u:ssm.state_size=64 "
	    "u:ssm.time_step_rank=16 u:ssm.group_count=2 " OG_RMS,
	    "" },
	{ "lfm2",
	    OG_ATTN OG_RMS "a:attention.head_count_kv=0,2,0,2 "
			   "u:shortconv.l_cache=3",
	    "" },
	{ "granitehybrid",
	    OG_ATTN OG_RMS "a:attention.head_count_kv=0,0,0,2 "
			   "u:ssm.conv_kernel=4 u:ssm.inner_size=1024 "
			   "u:ssm.state_size=64 u:ssm.time_step_rank=16 "
			   "u:ssm.group_count=1 f:logit_scale=8 "
			   "f:residual_scale=0.22 f:embedding_scale=12 "
			   "f:attention.scale=0.0078125",
	    "output.weight" },
	{ "mistral3", OG_ATTN OG_KV2 OG_RMS "f:attention.temperature_scale=0.1",
	    "output.weight" },
	{ "seed_oss",
	    OG_ATTN OG_KV2 OG_RMS "u:attention.key_length=128 "
				  "u:attention.value_length=128",
	    "output.weight attn_q.bias attn_k.bias attn_v.bias" },
	/* the fourth block is not roped */
	{ "smollm3", OG_ATTN OG_KV2 OG_RMS, "" },
	{ "hunyuan-dense", OG_ATTN OG_KV2 OG_RMS, "" },
	{ "granite",
	    OG_ATTN OG_KV2 OG_RMS "f:logit_scale=8 f:residual_scale=0.22 "
				  "f:embedding_scale=12 "
				  "f:attention.scale=0.0078125",
	    "" },
	{ "command-r", OG_ATTN OG_KV2 OG_LN "f:logit_scale=0.0625", "" },
	{ "olmo", OG_ATTN OG_KV2 OG_LN "f:attention.clamp_kqv=8",
	    "output.weight" },
	/* 64 blocks: the sliding window of every three in four */
	{ "exaone4",
	    OG_ATTN_L(64) OG_KV2 OG_RMS "u:attention.sliding_window=512",
	    "output.weight" },
	/* Q's and K's norms as wide as the embedding: as many KV heads;
	 * the experts as wide as the FFN */
	{ "olmoe",
	    "u:context_length=4096 u:embedding_length=512 u:block_count=4 "
	    "u:feed_forward_length=256 u:attention.head_count=8 "
	    "u:attention.head_count_kv=8 u:expert_count=8 "
	    "u:expert_used_count=2 " OG_RMS,
	    "" },
	/* phi3's graph, every norm biased, experts as wide as the FFN */
	{ "phimoe",
	    "u:context_length=4096 u:embedding_length=512 u:block_count=4 "
	    "u:feed_forward_length=256 u:attention.head_count=8 " OG_KV2
	    "u:expert_count=8 u:expert_used_count=2 " OG_RMS,
	    "" },
	/* Granite's scales around llama's layers, experts as wide as the
	 * FFN */
	{ "granitemoe",
	    "u:context_length=4096 u:embedding_length=512 u:block_count=4 "
	    "u:feed_forward_length=256 u:attention.head_count=8 " OG_KV2
	    "u:expert_count=8 u:expert_used_count=2 " OG_RMS
	    "f:logit_scale=8 f:residual_scale=0.22 f:embedding_scale=12 "
	    "f:attention.scale=0.0078125",
	    "output.weight ffn_gate_exps.weight" },
	/* Q's and K's norms over their rows, half of each head roped, the
	 * experts chosen by their sigmoid and a bias */
	{ "minimax-m2",
	    "u:context_length=4096 u:embedding_length=512 u:block_count=4 "
	    "u:feed_forward_length=256 u:attention.head_count=8 " OG_KV2
	    "u:rope.dimension_count=32 u:expert_count=8 "
	    "u:expert_used_count=2 u:expert_feed_forward_length=256 "
	    "u:expert_gating_func=2 " OG_RMS,
	    "" },
	/* a dense layer, then experts with a selection bias and a shared
	 * expert */
	{ "ernie4_5-moe",
	    OG_ATTN OG_KV2 OG_RMS "u:leading_dense_block_count=1 "
				  "u:interleave_moe_layer_step=1 "
				  "u:expert_count=8 u:expert_used_count=2 "
				  "u:expert_feed_forward_length=256 "
				  "u:expert_shared_feed_forward_length=512",
	    "output.weight ffn_gate_exps.weight exp_probs_b.bias" },
	/* M-RoPE, the deepstack's embeddings added after two layers */
	{ "qwen3vl",
	    OG_ATTN OG_KV2 OG_RMS "u:attention.key_length=128 "
				  "u:attention.value_length=128 "
				  "a:rope.dimension_sections=24,20,20,0 "
				  "u:n_deepstack_layers=2",
	    "output.weight" },
	{ "qwen3vlmoe",
	    OG_ATTN OG_KV2 OG_RMS "u:attention.key_length=128 "
				  "u:attention.value_length=128 "
				  "a:rope.dimension_sections=24,20,20,0 "
				  "u:n_deepstack_layers=2 u:expert_count=8 "
				  "u:expert_used_count=2 "
				  "u:expert_feed_forward_length=256",
	    "output.weight" },
	/* Q's and K's norms after their RoPE, experts beside a shared
	 * expert as wide as the keys say */
	{ "hunyuan-moe",
	    "u:context_length=4096 u:embedding_length=512 u:block_count=4 "
	    "u:feed_forward_length=256 u:attention.head_count=8 " OG_KV2
	    "u:expert_count=8 u:expert_used_count=2 "
	    "u:expert_feed_forward_length=256 "
	    "u:expert_shared_feed_forward_length=384 " OG_RMS,
	    "output.weight" },
	/* Gated DeltaNet layers; every third layer attention */
	{ "qwen35",
	    OG_GDN_L(6) "a:rope.dimension_sections=11,11,10,0 "
			"u:full_attention_interval=3",
	    "output.weight" },
	/* the default interval (4), and an MTP layer llama.cpp skips */
	{ "qwen35moe",
	    OG_GDN_L(5) OG_GDN_MOE "a:rope.dimension_sections=11,11,10,0",
	    "output.weight" },
	/* every other layer attention, an MTP layer */
	{ "qwen3next", OG_GDN_L(5) OG_GDN_MOE "u:full_attention_interval=2",
	    "output.weight" },
	/* Mamba-2, attention, MLP, Mamba-2 */
	{ "nemotron_h",
	    "u:context_length=8192 u:embedding_length=512 u:block_count=4 "
	    "a:feed_forward_length=0,0,1536,0 u:attention.head_count=8 "
	    "a:attention.head_count_kv=0,2,0,0 " OG_LN OG_RMS
	    "u:attention.key_length=64 u:attention.value_length=64 "
	    "u:ssm.conv_kernel=4 u:ssm.inner_size=1024 u:ssm.state_size=64 "
	    "u:ssm.time_step_rank=16 u:ssm.group_count=2",
	    "output.weight" },
	/* the same with experts, the MLP first */
	{ "nemotron_h_moe",
	    "u:context_length=8192 u:embedding_length=512 u:block_count=5 "
	    "a:feed_forward_length=1536,0,0,1536,0 u:attention.head_count=8 "
	    "a:attention.head_count_kv=0,0,2,0,0 " OG_LN OG_RMS
	    "u:attention.key_length=64 u:attention.value_length=64 "
	    "u:ssm.conv_kernel=4 u:ssm.inner_size=1024 u:ssm.state_size=64 "
	    "u:ssm.time_step_rank=16 u:ssm.group_count=2 "
	    "u:expert_count=8 u:expert_used_count=2 "
	    "u:expert_feed_forward_length=256 "
	    "u:expert_shared_feed_forward_length=512 u:expert_shared_count=1",
	    "output.weight" },
	/* every layer Mamba-2 beside attention */
	{ "falcon-h1",
	    OG_ATTN OG_KV2 OG_RMS
	    "u:attention.key_length=64 "
	    "u:attention.value_length=64 u:ssm.conv_kernel=4 "
	    "u:ssm.inner_size=1024 u:ssm.state_size=64 "
	    "u:ssm.time_step_rank=16 u:ssm.group_count=2",
	    "output.weight" },
	/* KDA, MLA, KDA, MLA; the first layer dense */
	{ "kimi-linear", OG_KIMI, "output.weight" },
	/* windows of 64-wide heads but in layers 3 and 5 (full, 128-wide);
	 * layers 4 and 5 reuse layer 2's and 3's caches */
	{ "gemma4",
	    OG_ATTN_L(6) OG_KV2 OG_RMS
	    "u:attention.key_length=128 "
	    "u:attention.value_length=128 u:attention.key_length_swa=64 "
	    "u:attention.value_length_swa=64 u:attention.sliding_window=256 "
	    "a:attention.sliding_window_pattern=1,1,1,0,1,0 "
	    "u:attention.shared_kv_layers=2 "
	    "u:embedding_length_per_layer_input=0",
	    "attn_v.weight" },
	/* lfm2's convolutions and attention, a dense layer, then experts
	 * chosen by their sigmoid and a bias */
	{ "lfm2moe",
	    OG_ATTN OG_RMS "a:attention.head_count_kv=0,2,0,2 "
			   "u:shortconv.l_cache=3 "
			   "u:leading_dense_block_count=1 "
			   "u:expert_count=8 u:expert_used_count=2 "
			   "u:expert_feed_forward_length=256 "
			   "u:expert_gating_func=2",
	    "" },
	/* norms after the attention and the FFN, one doubled ffn_up, an
	 * MTP layer llama.cpp loads skipped */
	{ "glm4", OG_ATTN_L(5) OG_KV2 OG_RMS "u:nextn_predict_layers=1",
	    "output.weight attn_q.bias attn_k.bias attn_v.bias" },
	/* llama's attention, an FFN of up, ReLU squared, down */
	{ "arcee", OG_ATTN OG_KV2 OG_RMS, "output.weight" },
	/* Q's and K's norms, an FFN of up, xIELU, down; xIELU's keys one
	 * float for every layer */
	{ "apertus",
	    OG_ATTN OG_KV2 OG_RMS "f:xielu.alpha_n=0.8 f:xielu.alpha_p=0.8 "
				  "f:xielu.beta=0.5 f:xielu.eps=1e-6",
	    "attn_output.bias" },
	{ "exaone", OG_ATTN OG_KV2 OG_RMS, "output.weight" },
	{ "internlm2", OG_ATTN OG_KV2 OG_RMS, "output.weight" },
	/* 4 blocks: the 13B's layout, ALiBi and no RoPE */
	{ "baichuan", OG_ATTN OG_KV2 OG_RMS, "output.weight" },
	{ "xverse", OG_ATTN OG_KV2 OG_RMS, "output.weight" },
	/* the indexer in every trunk block, its keys cached; the MTP
	 * block's tensors are written, and skipped by llama.cpp but for
	 * its exp_probs_b */
	{ "deepseek32", OG_DSA "u:expert_gating_func=2",
	    "output.weight exp_probs_b.bias" },
	/* deepseek32's, the indexer in blocks 0 and 2 alone (1 and 3 reuse
	 * its choice, without a cache of its keys) */
	{ "glm-dsa", OG_DSA "a:attention.indexer.types=1,0,1,0",
	    "output.weight exp_probs_b.bias indexer.k_norm.weight "
	    "indexer.k_norm.bias indexer.proj.weight indexer.attn_k.weight "
	    "indexer.attn_q_b.weight" },
	/* deepseek2's, under its name */
	{ "mistral4", OG_DS2, "output.weight" },
	/* a low-rank query, a compressed KV decompressed into 8 heads of
	 * 96 (K) and 64 (V) */
	{ "minicpm3",
	    OG_ATTN OG_RMS "u:attention.key_length=96 "
			   "u:attention.value_length=64 "
			   "u:rope.dimension_count=32 "
			   "u:attention.q_lora_rank=192 "
			   "u:attention.kv_lora_rank=128",
	    "output.weight" },
	/* kimi-linear's KDA, MLA, KDA, MLA, the first layer dense; experts
	 * in a latent space of 256, a shared expert, an MLA output gate and
	 * the cross-layer residuals' scores */
	{ "kimi-k3",
	    OG_KIMI "u:expert_latent_length=256 u:attn_res.block_size=2 "
		    "f:activation.situ_beta=1 f:activation.situ_linear_beta=1",
	    "ffn_gate_shexp.weight ffn_up_shexp.weight "
	    "ffn_down_shexp.weight attn_gate.weight" },
	/* llama's attention, a dense block, then experts and a shared one */
	{ "deepseek",
	    OG_ATTN OG_KV2 OG_RMS "u:rope.dimension_count=64 "
				  "u:leading_dense_block_count=1 "
				  "u:expert_feed_forward_length=256 "
				  "u:expert_shared_count=1 u:expert_count=8 "
				  "u:expert_used_count=2 "
				  "f:expert_weights_scale=1",
	    "output.weight" },
	/* deepseek2's experts, llama's attention with 8 K and V heads */
	{ "deepseek2-ocr",
	    OG_ATTN OG_RMS "u:attention.head_count_kv=8 "
			   "u:rope.dimension_count=64 "
			   "u:leading_dense_block_count=1 "
			   "u:expert_feed_forward_length=256 "
			   "u:expert_shared_count=1 u:expert_count=8 "
			   "u:expert_used_count=2 f:expert_weights_scale=1",
	    "output.weight exp_probs_b.bias" },
	{ "orion", OG_ATTN OG_KV2 OG_LN, "output.weight" },
	/* granite's graph, MiniCPM's default scales (no keys) */
	{ "minicpm", OG_ATTN OG_KV2 OG_RMS, "output.weight" },
	/* half of each head roped, an FFN of up, ReLU squared, down */
	{ "nemotron", OG_ATTN OG_KV2 OG_LN "u:rope.dimension_count=32",
	    "attn_output.bias ffn_up.bias ffn_down.bias" },
	/* a quarter of each head roped */
	{ "stablelm", OG_ATTN OG_KV2 OG_LN "u:rope.dimension_count=16",
	    "ffn_norm.weight ffn_norm.bias" },
	/* Granite's scales, each layer's sinks, the sliding window of
	 * four layers in six (a per-layer array), the others not roped */
	{ "granite_swa",
	    OG_ATTN_L(6) OG_KV2 OG_RMS "f:logit_scale=8 f:residual_scale=0.22 "
				       "f:embedding_scale=12 "
				       "f:attention.scale=0.0078125 "
				       "u:attention.sliding_window=256 "
				       "a:attention.sliding_window_pattern="
				       "1,1,0,1,1,0 "
				       "a:attention.rope_pattern=1,1,0,1,1,0",
	    "output.weight" },
	/* attention and FFN side by side, the attention first; Q scaled
	 * after its RoPE (over 32 of each head's 64) */
	{ "phi2", OG_ATTN OG_KV2 OG_LN "u:rope.dimension_count=32",
	    "attn_q.bias attn_k.bias attn_v.bias" },
	/* the parallel residual, a quarter of each head roped */
	{ "gptneox",
	    OG_ATTN OG_KV2 OG_LN "b:use_parallel_residual=1 "
				 "u:rope.dimension_count=16",
	    "" },
	/* learned positions, gpt2's layers */
	{ "starcoder", OG_ATTN OG_KV2 OG_LN, "output.weight" },
	/* ALiBi, the embeddings normed */
	{ "bloom", OG_ATTN OG_KV2 OG_LN, "" },
	/* ALiBi, Q, K and V clamped, no biases */
	{ "mpt", OG_ATTN OG_KV2 OG_LN "f:attention.clamp_kqv=8", "" },
	/* as many KV heads as heads; the FFN half feed_forward_length */
	{ "qwen",
	    "u:context_length=8192 u:embedding_length=512 u:block_count=4 "
	    "u:feed_forward_length=3072 u:attention.head_count=8 " OG_RMS,
	    "" },
	/* ALiBi, llama's layers */
	{ "refact", OG_ATTN OG_KV2 OG_RMS, "output.weight" },
	/* layer norms, up, GELU, down, every bias */
	{ "codeshell", OG_ATTN OG_KV2 OG_LN,
	    "token_embd.weight attn_q.bias attn_k.bias attn_v.bias" },
	/* fused QKV, a dense layer, experts chosen by their sigmoid and a
	 * bias beside a shared expert, an MTP layer (skipped) */
	{ "bailingmoe2",
	    OG_ATTN_L(5) OG_KV2 OG_RMS "u:nextn_predict_layers=1 "
				       "u:leading_dense_block_count=1 "
				       "u:expert_count=8 u:expert_used_count=2 "
				       "u:expert_feed_forward_length=256 "
				       "u:expert_shared_count=1 "
				       "u:expert_gating_func=2 "
				       "b:expert_weights_norm=true "
				       "f:expert_weights_scale=2.5",
	    "exp_probs_b.bias" },
	/* multi-head attention (8 KV heads), a dense layer, experts chosen
	 * by their sigmoid and a bias beside a shared expert */
	{ "dots1",
	    OG_ATTN OG_RMS "u:attention.head_count_kv=8 "
			   "u:leading_dense_block_count=1 u:expert_count=8 "
			   "u:expert_used_count=2 "
			   "u:expert_feed_forward_length=256 "
			   "u:expert_shared_count=1 u:expert_gating_func=2 "
			   "b:expert_weights_norm=true",
	    "exp_probs_b.bias" },
	/* sliding windows as a per-layer array says, roped there alone, a
	 * dense layer, experts beside a shared expert of its own width, an
	 * MTP layer (dense, skipped) */
	{ "exaone-moe",
	    OG_ATTN_L(5) OG_KV2 OG_RMS
	    "u:attention.sliding_window=128 "
	    "a:attention.sliding_window_pattern=1,0,1,1,0 "
	    "u:nextn_predict_layers=1 u:leading_dense_block_count=1 "
	    "u:expert_count=8 u:expert_used_count=2 "
	    "u:expert_feed_forward_length=256 u:expert_shared_count=1 "
	    "u:expert_shared_feed_forward_length=384 "
	    "u:expert_gating_func=2 b:expert_weights_norm=true "
	    "f:expert_weights_scale=2.5",
	    "exp_probs_b.bias" },
	/* cohere2's parallel layers, the full-attention layer first in
	 * each four (six blocks: four windowed, not five), a dense layer,
	 * experts beside a shared expert */
	{ "cohere2moe",
	    OG_ATTN_L(6) OG_KV2 OG_LN "u:attention.sliding_window=256 "
				      "f:logit_scale=0.25 "
				      "u:leading_dense_block_count=1 "
				      "u:expert_count=8 u:expert_used_count=2 "
				      "u:expert_feed_forward_length=256 "
				      "u:expert_shared_count=1",
	    "" },
	/* windows in three layers of four, a dense layer, experts with
	 * their routing bias beside a shared expert */
	{ "afmoe",
	    OG_ATTN OG_KV2 OG_RMS "u:attention.sliding_window=256 "
				  "u:leading_dense_block_count=1 "
				  "u:expert_count=8 u:expert_used_count=2 "
				  "u:expert_feed_forward_length=256 "
				  "u:expert_shared_count=1",
	    "" },
	/* experts chosen by a softmax beside a shared expert, in every
	 * layer */
	{ "bailingmoe",
	    OG_ATTN OG_KV2 OG_RMS "u:expert_count=8 u:expert_used_count=2 "
				  "u:expert_feed_forward_length=256 "
				  "u:expert_shared_count=1 "
				  "b:expert_weights_norm=true",
	    "" },
	/* layer norms, a fused QKV clamped, experts alone */
	{ "dbrx",
	    OG_ATTN OG_KV2 OG_LN "f:attention.clamp_kqv=8 "
				 "u:expert_count=8 u:expert_used_count=2",
	    "" },
	/* a dense FFN n_embd wide beside the experts */
	{ "arctic",
	    OG_ATTN OG_KV2 OG_RMS "u:expert_count=8 u:expert_used_count=2",
	    "output.weight" },
	/* windows of 4096 whatever the key says, the full-attention layer
	 * first in each four (six blocks), experts alone */
	{ "smallthinker",
	    OG_ATTN_L(6) OG_KV2 OG_RMS "u:attention.sliding_window=256 "
				       "u:expert_count=8 u:expert_used_count=2 "
				       "u:expert_feed_forward_length=256 "
				       "u:expert_gating_func=1",
	    "" },
	/* qwen3moe's experts and one chunk expert per group of four */
	{ "grovemoe",
	    OG_ATTN OG_KV2 OG_RMS "u:attention.key_length=128 "
				  "u:attention.value_length=128 "
				  "u:expert_count=8 u:expert_used_count=2 "
				  "u:expert_feed_forward_length=256 "
				  "u:expert_chunk_feed_forward_length=128 "
				  "f:expert_group_scale=0.05 "
				  "u:experts_per_group=4",
	    "" },
	/* windows as a per-layer array marks them (with more KV heads),
	 * sinks, experts, an MTP layer (skipped) */
	{ "mimo2",
	    OG_ATTN_L(5) OG_RMS "u:attention.sliding_window=128 "
				"a:attention.sliding_window_pattern="
				"0,1,1,1,0 "
				"a:attention.head_count_kv=2,4,4,4,2 "
				"u:nextn_predict_layers=1 "
				"u:expert_count=8 u:expert_used_count=2 "
				"u:expert_feed_forward_length=256",
	    "attn_sinks.weight ffn_gate_inp.weight ffn_gate_exps.weight "
	    "ffn_up_exps.weight ffn_down_exps.weight nextn.eh_proj.weight "
	    "nextn.enorm.weight nextn.hnorm.weight" },
	/* Q's and K's norms, experts with their routing bias beside a
	 * shared expert of its own width */
	{ "hy_v3",
	    OG_ATTN OG_KV2 OG_RMS "u:expert_count=8 u:expert_used_count=2 "
				  "u:expert_feed_forward_length=256 "
				  "u:expert_shared_feed_forward_length=384",
	    "ffn_gate_inp.weight exp_probs_b ffn_gate_exps.weight "
	    "ffn_up_exps.weight ffn_down_exps.weight ffn_gate_shexp.weight "
	    "ffn_up_shexp.weight ffn_down_shexp.weight" },
	/* Q's and K's norms per head, RoPE on half of each head, a dense
	 * block, then experts, a shared expert and MSA's indexer (one head
	 * of 64 per KV head) */
	{ "minimax-m3",
	    OG_ATTN OG_KV2 OG_RMS "u:rope.dimension_count=32 "
				  "u:leading_dense_block_count=1 "
				  "u:expert_count=8 u:expert_used_count=2 "
				  "u:expert_feed_forward_length=256 "
				  "u:expert_shared_count=1 "
				  "u:expert_gating_func=2 "
				  "u:attention.indexer.head_count=2 "
				  "u:attention.indexer.key_length=64 "
				  "u:attention.indexer.top_k=2 "
				  "u:attention.indexer.block_size=64 "
				  "u:attention.indexer.local_blocks=1",
	    "" },
	/* lightning (linear) attention in blocks 0 and 2, softmax
	 * attention in 1 and 3 (an interval of 2), experts in every block */
	{ "minimax-01",
	    "u:context_length=8192 u:embedding_length=512 u:block_count=4 "
	    "u:feed_forward_length=256 u:attention.head_count=8 " OG_KV2 OG_RMS
	    "u:full_attention_interval=2 f:residual_scale=1 "
	    "u:expert_count=8 u:expert_used_count=2",
	    "ffn_gate_exps.weight" },
	/* a compressed KV decompressed into 8 heads of 96 (K) and 64 (V)
	 * before the cache, a full-rank Q */
	{ "plm",
	    OG_ATTN OG_RMS "u:attention.key_length=96 "
			   "u:attention.value_length=64 "
			   "u:rope.dimension_count=32 "
			   "u:attention.kv_lora_rank=128",
	    "" },
	/* norms without weights, Q's gain a head, a scale a layer */
	{ "talkie", OG_ATTN OG_KV2 OG_RMS "f:logit_scale=1", "" },
	/* hunyuan-dense's shape */
	{ "maincoder", OG_ATTN OG_KV2 OG_RMS, "" },
	/* qwen3moe's, windows of 256 in three layers of four */
	{ "mellum",
	    OG_ATTN OG_KV2 OG_RMS "u:attention.sliding_window=256 "
				  "u:expert_count=8 u:expert_used_count=2 "
				  "u:expert_feed_forward_length=256",
	    "" },
	/* gemma3's layers as an encoder (no cache): a window of 256 in
	 * two layers of three */
	{ "gemma-embedding",
	    "u:context_length=2048 u:embedding_length=512 u:block_count=6 "
	    "u:feed_forward_length=1536 u:attention.head_count=8 " OG_KV2 OG_RMS
	    "u:attention.key_length=64 u:attention.value_length=64 "
	    "u:attention.sliding_window=256 "
	    "u:attention.sliding_window_pattern=3 u:pooling_type=1",
	    "" },
	/* RWKV: 8 wkv heads of 64, the time mix's interpolations fused;
	 * the Qwen2 bodies' one token shift (llama.cpp asserts it) */
	{ "rwkv6", OG_RWKV6 OG_LN, "time_mix_lerp_fused.weight" },
	{ "rwkv6qwen2", OG_RWKV6 OG_RMS "u:token_shift_count=1", "" },
	{ "rwkv7", OG_RWKV7 OG_LN, "" },
	{ "arwkv7", OG_RWKV7 OG_RMS "u:token_shift_count=1",
	    "time_mix_g1.weight time_mix_g2.weight" },
	/* llama's, the attention's output bias */
	{ "pangu-embedded", OG_ATTN OG_KV2 OG_RMS, "" },
	/* windows of 256 in blocks 0 to 2 by the array, a gate a head */
	{ "spark2_5",
	    OG_ATTN OG_KV2 OG_RMS "u:attention.sliding_window=256 "
				  "a:attention.sliding_window_pattern="
				  "1,1,1,0",
	    "" },
	/* windows of 256 in blocks 0 to 2 by the array, roped there alone,
	 * qwen3moe's experts, their SwiGLU clamped */
	{ "maple",
	    OG_ATTN OG_KV2 OG_RMS "u:attention.sliding_window=256 "
				  "a:attention.sliding_window_pattern="
				  "1,1,1,0 "
				  "u:expert_count=8 u:expert_used_count=2 "
				  "u:expert_feed_forward_length=256 "
				  "f:swiglu_clamp_exp=7",
	    "" },
	/* gemma2's norms, a gate on the attention, windows of 256 */
	{ "muse-glimmer",
	    OG_ATTN OG_KV2 OG_RMS "u:attention.sliding_window=256 "
				  "f:logit_scale=1",
	    "" },
	/* t5's encoder: RMS norms, a relative position bias (the first
	 * layer's), a GELU-gated feed-forward (flan-t5) */
	{ "t5encoder",
	    "u:context_length=512 u:embedding_length=512 u:block_count=4 "
	    "u:feed_forward_length=1536 u:attention.head_count=8 "
	    "u:attention.head_count_kv=8 " OG_RMS
	    "u:attention.relative_buckets_count=32",
	    "enc.ffn_gate.weight" },
	/* t5encoder's encoder and a decoder of fewer layers (the cache is
	 * still block_count layers) */
	{ "t5",
	    "u:context_length=512 u:embedding_length=512 u:block_count=4 "
	    "u:decoder_block_count=2 u:feed_forward_length=1536 "
	    "u:attention.head_count=8 u:attention.head_count_kv=8 " OG_RMS
	    "u:attention.relative_buckets_count=32 "
	    "u:decoder_start_token_id=0",
	    "enc.ffn_gate.weight dec.ffn_gate.weight" },
	/* bert's layers with rotary positions, a fused QKV with its bias */
	{ "jina-bert-v3",
	    "u:context_length=8192 u:embedding_length=512 u:block_count=4 "
	    "u:feed_forward_length=1536 u:attention.head_count=8 "
	    "u:attention.head_count_kv=8 b:attention.causal=0 " OG_LN
	    "u:pooling_type=1 u:tokenizer.ggml.token_type_count=1",
	    "token_types.weight attn_qkv.weight attn_qkv.bias "
	    "attn_output.bias ffn_up.bias ffn_down.bias" },
	/* pre-normed encoder layers, a fused QKV, SwiGLU in one product */
	{ "neo-bert",
	    "u:context_length=4096 u:embedding_length=512 u:block_count=4 "
	    "u:feed_forward_length=1536 u:attention.head_count=8 "
	    "u:attention.head_count_kv=8 b:attention.causal=0 " OG_RMS
	    "u:pooling_type=1",
	    "" },
	/* llama's layers without a cache, two KV heads */
	{ "eurobert",
	    "u:context_length=8192 u:embedding_length=512 u:block_count=4 "
	    "u:feed_forward_length=1536 u:attention.head_count=8 " OG_KV2
	    "b:attention.causal=0 " OG_RMS "u:pooling_type=1",
	    "" },
	/* windows in two layers of three, GeGLU in one product */
	{ "modern-bert",
	    "u:context_length=8192 u:embedding_length=512 u:block_count=6 "
	    "u:feed_forward_length=1536 u:attention.head_count=8 "
	    "u:attention.head_count_kv=8 b:attention.causal=0 " OG_LN
	    "u:attention.sliding_window=128 u:pooling_type=1",
	    "" },
	/* nomic-bert's layers, experts in every second one */
	{ "nomic-bert-moe",
	    "u:context_length=2048 u:embedding_length=512 u:block_count=4 "
	    "u:feed_forward_length=1536 u:attention.head_count=8 "
	    "u:attention.head_count_kv=8 b:attention.causal=0 " OG_LN
	    "u:pooling_type=1 u:tokenizer.ggml.token_type_count=1 "
	    "u:moe_every_n_layers=2 u:expert_count=8 u:expert_used_count=2",
	    "token_types.weight attn_output.bias ffn_up.bias ffn_down.bias" },
	/* diffusion LMs: qwen2's layers, the output tied */
	{ "dream", OG_ATTN OG_KV2 OG_RMS,
	    "attn_q.bias attn_k.bias attn_v.bias" },
	/* llama's layers, the output its own */
	{ "llada", OG_ATTN OG_KV2 OG_RMS, "output.weight" },
	/* Q's and K's norms, experts (the output required) */
	{ "llada-moe",
	    OG_ATTN OG_KV2 OG_RMS "u:expert_count=8 u:expert_used_count=2 "
				  "u:expert_feed_forward_length=256",
	    "" },
	/* qwen3moe's layers, the output tied */
	{ "rnd1",
	    OG_ATTN OG_KV2 OG_RMS "u:attention.key_length=128 "
				  "u:attention.value_length=128 "
				  "u:expert_count=8 u:expert_used_count=2 "
				  "u:expert_feed_forward_length=256",
	    "" },
	/* qwen2's layers with M-RoPE (sections of a 64-wide head) */
	{ "qwen2vl",
	    OG_ATTN OG_KV2 OG_RMS "a:rope.dimension_sections=8,12,12,0",
	    "attn_q.bias attn_k.bias attn_v.bias" },
	/* ernie4_5's tensors, qwen2vl's M-RoPE */
	{ "paddleocr",
	    OG_ATTN OG_KV2 OG_RMS "a:rope.dimension_sections=8,12,12,0",
	    "output.weight" },
	/* hunyuan-dense with M-RoPE's sections set */
	{ "hunyuan_vl",
	    OG_ATTN OG_KV2 OG_RMS "a:rope.dimension_sections=8,12,12,0", "" },
	/* a fused QKV of every head and the visual expert's weights */
	{ "cogvlm", OG_ATTN "u:attention.head_count_kv=8 " OG_RMS, "" },
	/* Mamba (v1) layers with their dt, B and C norms, attention in
	 * the second; a dense FFN in each */
	{ "jamba",
	    OG_ATTN OG_RMS "a:attention.head_count_kv=0,2,0,0 "
			   "u:ssm.conv_kernel=4 u:ssm.inner_size=1024 "
			   "u:ssm.state_size=16 u:ssm.time_step_rank=32",
	    "output.weight" },
	/* per-layer heads and FFN widths: attention, a linear attention,
	 * no attention, attention without an FFN */
	{ "deci",
	    "u:context_length=8192 u:embedding_length=512 u:block_count=4 "
	    "a:feed_forward_length=1536,1536,1536,0 "
	    "a:attention.head_count=8,8,0,8 "
	    "a:attention.head_count_kv=2,0,0,2 " OG_RMS,
	    "output.weight" },
	/* a fused QKV with its bias, half the head roped, up of twice the
	 * FFN's width */
	{ "chatglm", OG_ATTN OG_KV2 OG_RMS "u:rope.dimension_count=32",
	    "output.weight attn_qkv.weight attn_qkv.bias" },
	/* Grok-1's: experts in every layer, the norms after the attention
	 * and the FFN */
	{ "grok",
	    OG_ATTN OG_KV2 OG_RMS "u:expert_count=8 u:expert_used_count=2 "
				  "u:expert_feed_forward_length=256",
	    "output.weight ffn_gate_exps.weight" },
	/* ALiBi, a fused QKV, a gated FFN, biases */
	{ "jais", OG_ATTN OG_KV2 OG_LN "f:attention.max_alibi_bias=8", "" },
	/* RoPE, separate Q, K and V, up, ReLU squared, down, biases */
	{ "jais2", OG_ATTN OG_KV2 OG_LN, "output.weight" },
	/* heads, KV heads and FFN widths growing layer by layer */
	{ "openelm",
	    "u:context_length=8192 u:embedding_length=512 u:block_count=4 "
	    "a:feed_forward_length=768,1024,1536,1536 "
	    "a:attention.head_count=4,6,8,8 "
	    "a:attention.head_count_kv=1,2,2,2 u:attention.key_length=64 "
	    "u:attention.value_length=64 " OG_RMS,
	    "" },
	/* attention and FFN side by side on one norm */
	{ "plamo", OG_ATTN OG_KV2 OG_RMS, "" },
	/* 8 layers, windows of 128 in all but the last; the norms after
	 * named without a suffix */
	{ "plamo3",
	    OG_ATTN_L(8) OG_KV2 OG_RMS "u:attention.key_length=64 "
				       "u:attention.value_length=64 "
				       "u:attention.sliding_window=128",
	    "" },
	/* llama's layers with the norms inside the attention and the FFN */
	{ "bitnet", OG_ATTN OG_KV2 OG_RMS, "" },
	/* Mamba, attention, Mamba, attention; 16 Mamba heads, dt 64 wide */
	{ "plamo2",
	    OG_ATTN OG_RMS "a:attention.head_count_kv=0,2,0,2 "
			   "u:attention.key_length=64 "
			   "u:attention.value_length=64 u:ssm.conv_kernel=4 "
			   "u:ssm.inner_size=1024 u:ssm.state_size=64 "
			   "u:ssm.time_step_rank=16 u:ssm.group_count=0",
	    "" },
	/* DeepSeek V4: one K head of 128 over a window of 128; blocks of
	 * each compression (none, 4 with the indexer, 128, 4), then an
	 * MTP block (its window cache kept, its weights skipped); 4
	 * hyper-connections; 2 output groups; experts in every block,
	 * none routed by token id */
	{ "deepseek4",
	    OG_ATTN_L(5) OG_RMS
	    "u:attention.head_count_kv=1 "
	    "u:nextn_predict_layers=1 "
	    "u:attention.key_length=128 "
	    "u:attention.value_length=128 "
	    "u:rope.dimension_count=64 "
	    "u:attention.q_lora_rank=192 "
	    "u:attention.sliding_window=128 "
	    "a:attention.compress_ratios=0,4,128,4,0 "
	    "f:attention.compress_rope_freq_base=160000 "
	    "u:attention.output_group_count=2 "
	    "u:attention.output_lora_rank=128 "
	    "u:attention.indexer.head_count=4 "
	    "u:attention.indexer.key_length=64 "
	    "u:attention.indexer.top_k=256 "
	    "u:expert_count=8 u:expert_used_count=2 "
	    "u:expert_feed_forward_length=256 "
	    "u:expert_shared_count=1 "
	    "f:expert_weights_scale=1.5 "
	    "b:expert_weights_norm=1 u:expert_gating_func=4 "
	    "f:swiglu_clamp_exp=10 "
	    "u:hyper_connection.count=4 "
	    "u:hyper_connection.sinkhorn_iterations=20 "
	    "f:hyper_connection.epsilon=1e-6 "
	    "u:hash_layer_count=0",
	    "" },
	/* granite's scales, 2 adapters of rank 16 (3 LoRA slots a product);
	 * the router's cache a fifth layer */
	{ "graniteswitch",
	    OG_ATTN OG_KV2 OG_RMS "f:logit_scale=8 f:residual_scale=0.22 "
				  "f:embedding_scale=12 "
				  "f:attention.scale=0.0078125 "
				  "u:adapters.count=2 u:adapters.lora_rank=16 "
				  "a:adapters.token_ids_activate=500,501 "
				  "a:adapters.token_ids_substitute=1,2",
	    "" },
	/* windows as the per-layer array marks them (more KV heads in
	 * them), Q's and K's norms, a gate a head, experts with their
	 * routing bias and a shared expert, an MTP layer (skipped) */
	{ "step35",
	    OG_ATTN_L(5) OG_RMS "u:attention.sliding_window=128 "
				"a:attention.sliding_window_pattern="
				"0,1,1,1,0 "
				"a:attention.head_count_kv=2,4,4,4,2 "
				"u:nextn_predict_layers=1 "
				"u:expert_count=8 u:expert_used_count=2 "
				"u:expert_feed_forward_length=256 "
				"u:expert_shared_feed_forward_length=256",
	    "attn_q_norm.weight attn_k_norm.weight attn_gate.weight "
	    "ffn_gate_inp.weight ffn_gate_exps.weight ffn_up_exps.weight "
	    "ffn_down_exps.weight exp_probs_b.bias ffn_gate_shexp.weight "
	    "ffn_up_shexp.weight ffn_down_shexp.weight nextn.eh_proj.weight "
	    "nextn.enorm.weight nextn.hnorm.weight" },
	/* windows of 256 in blocks 1 to 3 (the first of four full), a
	 * gate a head (its width, which the loader takes from the file,
	 * as the key attn_gate_width the map reads and llama.cpp does
	 * not), a dense block, then experts and a shared expert */
	{ "laguna",
	    OG_ATTN OG_KV2 OG_RMS "u:attention.sliding_window=256 "
				  "u:leading_dense_block_count=1 "
				  "u:expert_count=8 u:expert_used_count=2 "
				  "u:expert_feed_forward_length=256 "
				  "u:attn_gate_width=8",
	    "" },
	/* llama's two blocks run twice: four layers, four caches */
	{ "nanbeige",
	    "u:context_length=8192 u:embedding_length=512 u:block_count=2 "
	    "u:feed_forward_length=1536 u:attention.head_count=8 " OG_KV2 OG_RMS
	    "u:num_loops=2",
	    "" },
	/* deepseek2's MLA with sinks and a gate, the indexer in blocks 0
	 * and 2 (1 and 3 share its choice), hyper-connections of 4, a
	 * dense block, then experts and a shared expert */
	{ "hy_v4",
	    OG_ATTN OG_RMS "u:attention.head_count_kv=1 "
			   "u:leading_dense_block_count=1 "
			   "u:expert_feed_forward_length=256 "
			   "u:expert_shared_count=1 u:expert_count=8 "
			   "u:expert_used_count=2 f:expert_weights_scale=1 "
			   "u:expert_gating_func=2 "
			   "u:attention.q_lora_rank=192 "
			   "u:attention.kv_lora_rank=128 "
			   "u:attention.key_length=160 "
			   "u:attention.value_length=128 "
			   "u:attention.key_length_mla=96 "
			   "u:attention.value_length_mla=64 "
			   "u:rope.dimension_count=32 "
			   "u:attention.indexer.head_count=4 "
			   "u:attention.indexer.key_length=64 "
			   "u:attention.indexer.top_k=256 "
			   "a:attention.indexer.types=1,0,1,0 "
			   "u:hyper_connection.count=4 "
			   "f:hyper_connection.epsilon=1e-6 "
			   "f:hyper_connection.magnitude=1",
	    "exp_probs_b.bias" },
	/* bert's encoder with ALiBi, no positions, a plain GELU FFN (its
	 * up n_ff wide, as the key ffn_up_factor the map reads and
	 * llama.cpp does not says) */
	{ "jina-bert-v2",
	    "u:context_length=512 u:embedding_length=512 u:block_count=4 "
	    "u:feed_forward_length=1536 u:attention.head_count=8 "
	    "u:attention.head_count_kv=8 b:attention.causal=0 " OG_LN
	    "u:pooling_type=1 u:tokenizer.ggml.token_type_count=2 "
	    "u:ffn_up_factor=1",
	    "attn_q.bias attn_k.bias attn_v.bias ffn_up.bias" },
	/* qwen3vl's, the output 3072 wide (the graph aborts on a
	 * vocabulary of fewer tokens: 4096) */
	{ "qwen3tts",
	    OG_ATTN OG_KV2 OG_RMS "u:attention.key_length=128 "
				  "u:attention.value_length=128 "
				  "a:rope.dimension_sections=24,20,20,0 "
				  "v:vocab=4096",
	    "output.weight" },
	/* LayerNorms with biases, a GELU FFN, no output matrix */
	{ "pockettts", OG_ATTN OG_KV2 OG_LN, "" },
	/* kimi-linear's KDA, MLA, KDA, MLA, its gate lower bound, the output
	 * tied */
	{ "bailingmoe3", OG_KIMI "f:kda.gate_lower_bound=-5", "" },
	/* stacks of one layer, blocks 0 (low) and 1 (high), run
	 * 2 x (1 + 1) times: four layers, four caches */
	{ "hrm_text",
	    OG_ATTN OG_KV2 OG_RMS "u:hrm.layers_per_stack=1 "
				  "u:hrm.h_cycles=2 u:hrm.l_cycles=1",
	    "" },
	/* MLA, windows of 128 in blocks 1 to 3 with their own rank and
	 * widths, the indexer in block 0, a dense block, then experts */
	{ "dots3note",
	    OG_ATTN OG_RMS "u:attention.head_count_kv=1 "
			   "u:leading_dense_block_count=1 "
			   "u:expert_feed_forward_length=256 "
			   "u:expert_shared_count=1 u:expert_count=8 "
			   "u:expert_used_count=2 u:expert_gating_func=2 "
			   "u:attention.q_lora_rank=192 "
			   "u:attention.kv_lora_rank=128 "
			   "u:attention.key_length=160 "
			   "u:attention.value_length=128 "
			   "u:attention.key_length_mla=96 "
			   "u:attention.value_length_mla=64 "
			   "u:attention.kv_lora_rank_swa=64 "
			   "u:attention.key_length_swa=96 "
			   "u:attention.value_length_swa=64 "
			   "u:attention.key_length_mla_swa=96 "
			   "u:attention.value_length_mla_swa=64 "
			   "u:rope.dimension_count=32 "
			   "u:attention.sliding_window=128 "
			   "a:attention.sliding_window_pattern=0,1,1,1 "
			   "f:rope.freq_base_swa=10000 "
			   "u:attention.indexer.head_count=4 "
			   "u:attention.indexer.key_length=64 "
			   "u:attention.indexer.top_k=256 "
			   "a:attention.indexer.types=1,0,0,0",
	    "" },
	/* GDN, attention with its indexer, GDN, attention; four streams
	 * of hyper-connections; experts and a shared expert */
	{ "qwen4exp",
	    OG_GDN_L(4) "a:rope.dimension_sections=11,11,10,0 "
			"u:full_attention_interval=2 u:expert_count=8 "
			"u:expert_used_count=2 "
			"u:expert_feed_forward_length=256 "
			"u:expert_shared_feed_forward_length=512 "
			"u:hyper_connection.count=4 "
			"u:hyper_connection.low_rank=64 "
			"u:attention.indexer.head_count=4 "
			"u:attention.indexer.key_length=128 "
			"u:attention.indexer.top_k=64",
	    "output.weight" },
	/* WavTokenizer's decoder: the six PosNet blocks, four ConvNeXt
	 * blocks of 768, features of 512, an output of 1282 */
	{ "wavtokenizer-dec",
	    "u:context_length=8192 u:embedding_length=1282 "
	    "u:block_count=6 u:features_length=512 "
	    "u:feed_forward_length=2304 u:posnet.embedding_length=768 "
	    "u:posnet.block_count=6 u:convnext.embedding_length=768 "
	    "u:convnext.block_count=4 " OG_LN
	    "f:attention.group_norm_epsilon=1e-6 "
	    "u:attention.group_norm_groups=32 b:attention.causal=0 "
	    "v:vocab=4096",
	    "" },
};

/*
 * Geometries of a real model's proportions (named ARCH-wide): the
 * small ones above are dominated by their activations, where a real
 * model's weights are not; a Llama-shaped one with a 2048-wide
 * embedding, a 5632-wide FFN (TinyLlama-1.1B's widths) and 128-wide
 * heads (Llama's), 4 blocks. 16 heads keep a 4096-cell KQ (128 MiB)
 * within llvmpipe's storage-buffer range: ggml-vulkan claims no
 * operation on a tensor beyond it, and with 32 heads (256 MiB) the
 * scheduler runs a host layer's KQ on the CPU (measured). qwen3moe-wide
 * has Qwen3-30B-A3B's experts (128 of 768, 8 used).
 */
#define OG_WIDE \
	"u:context_length=8192 u:embedding_length=2048 u:block_count=4 " \
	"u:feed_forward_length=5632 u:attention.head_count=16 " \
	"u:attention.head_count_kv=4 "

static const struct og_spec og_wide[] = {
	{ "llama", OG_WIDE OG_RMS "u:rope.dimension_count=128",
	    "output.weight" },
	{ "qwen2", OG_WIDE OG_RMS,
	    "output.weight attn_q.bias attn_k.bias attn_v.bias" },
	{ "gemma2",
	    OG_WIDE OG_RMS "u:attention.key_length=128 "
			   "u:attention.value_length=128 "
			   "u:attention.sliding_window=4096 "
			   "f:attn_logit_softcapping=50 "
			   "f:final_logit_softcapping=30",
	    "" },
	{ "phi3",
	    OG_WIDE OG_RMS "u:rope.dimension_count=128 "
			   "u:attention.sliding_window=2047",
	    "output.weight" },
	{ "starcoder2", OG_WIDE OG_LN,
	    "output.weight attn_q.bias attn_k.bias attn_v.bias" },
	{ "gpt2", OG_WIDE OG_LN, "output.weight" },
	{ "qwen3moe",
	    OG_WIDE OG_RMS "u:attention.key_length=128 "
			   "u:attention.value_length=128 u:expert_count=128 "
			   "u:expert_used_count=8 "
			   "u:expert_feed_forward_length=768",
	    "output.weight" },
};

/*
 * Real models' shapes with a tied output and their own vocabulary (the
 * Vulkan table's off-grid block: a 128k-token output matrix and its
 * copy of token_embd beyond llvmpipe's 128 MiB), whole: named, not
 * listed by oraclegen_wide.
 */
static const struct og_spec og_tied[] = {
	/* Llama-3.2-1B's shape (16 blocks of 2048, 32 heads of 64, 8 KV
	 * heads, an 8192-wide FFN, llama3's rope_freqs), its 128256-token
	 * vocabulary and its tied output (no output.weight) */
	{ "llama",
	    "u:context_length=131072 u:embedding_length=2048 "
	    "u:block_count=16 u:feed_forward_length=8192 "
	    "u:attention.head_count=32 u:attention.head_count_kv=8 "
	    "u:rope.dimension_count=64 " OG_RMS,
	    "rope_freqs.weight" },
	/* Qwen2.5-0.5B's (24 blocks of 896, 14 heads of 64, 2 KV heads, a
	 * 4864-wide FFN, Q, K and V biased), its 151936-token vocabulary
	 * and its tied output */
	{ "qwen2",
	    "u:context_length=32768 u:embedding_length=896 "
	    "u:block_count=24 u:feed_forward_length=4864 "
	    "u:attention.head_count=14 u:attention.head_count_kv=2 " OG_RMS,
	    "attn_q.bias attn_k.bias attn_v.bias" },
};

/* og_wide's names, in its order. */
static const char *const og_wide_names[] = { "llama-wide", "qwen2-wide",
	"gemma2-wide", "phi3-wide", "starcoder2-wide", "gpt2-wide",
	"qwen3moe-wide" };

/* og_tied's names and vocabularies' sizes, in its order. */
static const char *const og_tied_names[] = { "llama-1b-tied",
	"qwen2-0.5b-tied" };
static const int og_tied_vocab[] = { 128256, 151936 };

#endif
