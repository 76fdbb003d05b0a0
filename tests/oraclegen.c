/*
 * oraclegen.c - sparse models of every mapped architecture, for the
 * llama.cpp oracle (oraclegen.h). The metadata is written first and read
 * back through gguflint's own reader and geometry (arch_read), so that
 * the name map's shape expressions are evaluated exactly as the name
 * checks evaluate them; the tensors are then the map's required ones
 * (plus a few optional ones a real file of the family has).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "facts/arch.h"
#include "facts/names.h"
#include "findings/catalog.h"
#include "findings/diag.h"
#include "ggufw.h"
#include "oraclegen.h"
#include "reader/gguf.h"

/*
 * One geometry: metadata as "T:key=value" words (T: u uint32, f float32,
 * b bool, s string, a array of uint32 "1,2,3"; a key without a dot-free
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

/* og_wide's names, in its order. */
static const char *const og_wide_names[] = { "llama-wide", "qwen2-wide",
	"gemma2-wide", "phi3-wide", "starcoder2-wide", "gpt2-wide",
	"qwen3moe-wide" };

#define OG_N_VOCAB 512

const char *
oraclegen_arch(size_t i)
{
	return i < sizeof og_specs / sizeof og_specs[0] ? og_specs[i].arch :
							  NULL;
}

static void
og_key(char *out, size_t n, const char *arch, const char *k)
{
	if (strncmp(k, "general.", 8) == 0 ||
	    strncmp(k, "tokenizer.", 10) == 0 || strncmp(k, "xielu.", 6) == 0)
		snprintf(out, n, "%s", k);
	else
		snprintf(out, n, "%s.%s", arch, k);
}

static void
og_kv_array(struct ggufw_model *m, const char *key, const char *v)
{
	uint32_t vals[ARCH_MAX_LAYERS];
	size_t n = 0;
	char *end;

	while (*v != '\0' && n < ARCH_MAX_LAYERS) {
		vals[n++] = (uint32_t)strtoul(v, &end, 10);
		v = *end == ',' ? end + 1 : end;
		if (end == v && *v != '\0')
			break;
	}
	ggufw_model_kv_arr_u32(m, key, vals, n);
}

/* og_kvs: write the spec's metadata words. */
static void
og_kvs(struct ggufw_model *m, const struct og_spec *s)
{
	char buf[2048], key[160];
	char *save = NULL, *w;

	snprintf(buf, sizeof buf, "%s", s->kv);
	for (w = strtok_r(buf, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		char *eq = strchr(w, '=');
		if (eq == NULL || w[1] != ':')
			abort(); /* a bad spec is a bug in this file */
		*eq = '\0';
		og_key(key, sizeof key, s->arch, w + 2);
		if (w[0] == 'u')
			ggufw_model_kv_u32(m, key,
			    (uint32_t)strtoul(eq + 1, NULL, 10));
		else if (w[0] == 'f')
			ggufw_model_kv_f32(m, key, strtof(eq + 1, NULL));
		else if (w[0] == 'b')
			ggufw_model_kv_bool(m, key, eq[1] == '1');
		else if (w[0] == 's')
			ggufw_model_kv_str(m, key, eq + 1);
		else
			og_kv_array(m, key, eq + 1);
	}
}

/* og_vocab: a SentencePiece ("llama") vocabulary of OG_N_VOCAB tokens:
 * <unk> <s> </s>, the 256 byte tokens, then plain pieces. */
static void
og_vocab(struct ggufw_model *m)
{
	static char names[OG_N_VOCAB][16];
	const char *toks[OG_N_VOCAB];
	float scores[OG_N_VOCAB];
	int32_t types[OG_N_VOCAB];

	for (int i = 0; i < OG_N_VOCAB; i++) {
		if (i < 3)
			snprintf(names[i], sizeof names[i], "%s",
			    i == 0     ? "<unk>" :
				i == 1 ? "<s>" :
					 "</s>");
		else if (i < 259)
			snprintf(names[i], sizeof names[i], "<0x%02X>", i - 3);
		else
			snprintf(names[i], sizeof names[i], "t%d", i);
		toks[i] = names[i];
		scores[i] = (float)-i;
		types[i] = i == 0 ? 2 : i < 3 ? 3 : i < 259 ? 6 : 1;
	}
	ggufw_model_kv_str(m, "tokenizer.ggml.model", "llama");
	ggufw_model_kv_arr_str(m, "tokenizer.ggml.tokens", toks, OG_N_VOCAB);
	ggufw_model_kv_arr_f32(m, "tokenizer.ggml.scores", scores, OG_N_VOCAB);
	ggufw_model_kv_arr_i32(m, "tokenizer.ggml.token_type", types,
	    OG_N_VOCAB);
	ggufw_model_kv_u32(m, "tokenizer.ggml.bos_token_id", 1);
	ggufw_model_kv_u32(m, "tokenizer.ggml.eos_token_id", 2);
}

struct og_type {
	const char *name;
	int32_t id;
	uint32_t blck, size;
};

static const struct og_type og_types[] = {
	{ "f32", 0, 1, 4 },
	{ "f16", 1, 1, 2 },
	{ "q4_0", 2, 32, 18 },
	{ "q8_0", 8, 32, 34 },
	{ "q4_K", 12, 256, 144 },
	{ "q6_K", 14, 256, 210 },
	{ "iq4_nl", 20, 32, 18 },
};

static const struct og_type *
og_type_find(const char *name)
{
	for (size_t i = 0; i < sizeof og_types / sizeof og_types[0]; i++)
		if (strcmp(og_types[i].name, name) == 0)
			return &og_types[i];
	return NULL;
}

/* Where the tensors go: the matrices' type, the one change of a mutant
 * (NULL: none), and the reason of a failure. */
struct og_out {
	const struct og_type *wt;
	struct og_mut *mu;
	char *why;
	size_t whylen;
};

/* A mutant's change (oraclegen_mutant) to the tensor of index target in
 * writing order; n counts the tensors seen. */
struct og_mut {
	enum oraclegen_mutation kind;
	size_t target, n;
	char *what;
	size_t whatlen;
};

/* og_keeps_f32: what a quantized file keeps in f32: vectors, norms and
 * the small state and routing tensors. */
static bool
og_keeps_f32(const char *name, size_t n_dims, int64_t ne0, uint32_t blck)
{
	static const char *const small[] = { "norm", ".bias", "ssm_a", "ssm_d",
		"ssm_conv1d", "ssm_dt", "gate_inp", "exp_probs", "token_types",
		NULL };

	if (n_dims < 2)
		return true;
	for (size_t i = 0; small[i]; i++)
		if (strstr(name, small[i]))
			return true;
	return ne0 % blck != 0;
}

static bool
og_in_words(const char *words, const char *id)
{
	size_t n = strlen(id);

	for (const char *p = words; (p = strstr(p, id)) != NULL; p += n)
		if ((p == words || p[-1] == ' ') &&
		    (p[n] == '\0' || p[n] == ' '))
			return true;
	return false;
}

/* og_wanted: 1 when tensor t is written at layer (-1: global), 0 when
 * not, -1 when it is required but cannot be written. An optional one the
 * spec asks for is written where its when holds. */
static int
og_wanted(const struct names_map *map, const struct names_tensor *t,
    const struct og_spec *s, const struct names_env *env)
{
	if (t->when != NULL) {
		struct names_val v = names_eval(t->when, env);
		if (!v.known || v.v == 0)
			return 0;
	}
	if (t->id != NULL && og_in_words(s->extra, t->id))
		return 1;
	if (t->optional)
		return 0;
	for (size_t i = 0; i < t->n_unless; i++) {
		const struct names_tensor *u = &map->tensors[t->unless[i]];
		if (u->id != NULL && og_in_words(s->extra, u->id))
			return 0;
	}
	return t->id != NULL && t->n_dims > 0 ? 1 : -1;
}

/* A name with a suffix before its last dot (".weight"): into out. */
static void
og_name_with(char *out, size_t n, const char *name, const char *suffix)
{
	const char *dot = strrchr(name, '.');
	int stem = dot != NULL ? (int)(dot - name) : (int)strlen(name);

	snprintf(out, n, "%.*s%s%s", stem, name, suffix, name + stem);
}

/* og_mutate: write tensor name as the mutant's change makes it. */
static void
og_mutate(struct ggufw_model *m, const struct og_mut *mu, const char *name,
    uint32_t n_dims, int64_t ne[], const struct og_type *ty)
{
	char other[288];

	og_name_with(other, sizeof other, name, "_x");
	switch (mu->kind) {
	case OG_MUT_DROP:
		snprintf(mu->what, mu->whatlen, "%s left out", name);
		return;
	case OG_MUT_RENAME:
		snprintf(mu->what, mu->whatlen, "%s renamed %s", name, other);
		ggufw_model_tensor(m, other, n_dims, ne, ty->id, ty->blck,
		    ty->size);
		return;
	case OG_MUT_RESHAPE:
		snprintf(mu->what, mu->whatlen, "%s ne0 %lld made %lld", name,
		    (long long)ne[0], (long long)(ne[0] + ty->blck));
		ne[0] += ty->blck;
		break;
	case OG_MUT_ADD:
		snprintf(mu->what, mu->whatlen, "%s added beside %s", other,
		    name);
		ggufw_model_tensor(m, other, n_dims, ne, ty->id, ty->blck,
		    ty->size);
		break;
	}
	ggufw_model_tensor(m, name, n_dims, ne, ty->id, ty->blck, ty->size);
}

static int
og_tensor(struct ggufw_model *m, const struct names_tensor *t,
    const struct names_env *env, struct og_out *o)
{
	char name[256];
	int64_t ne[NAMES_MAX_DIMS];
	const struct og_type *ty;

	if (t->per_layer)
		snprintf(name, sizeof name, "blk.%lld.%s",
		    (long long)env->layer, t->id);
	else
		snprintf(name, sizeof name, "%s", t->id);
	for (size_t d = 0; d < t->n_dims; d++) {
		struct names_val v = names_eval(t->shape[d], env);
		if (!v.known || v.v <= 0) {
			snprintf(o->why, o->whylen,
			    "%s: dimension %zu (%s) is %s", name, d,
			    t->shape_text[d],
			    v.known ? "not positive" : "unknown");
			return -1;
		}
		ne[d] = v.v;
	}
	ty = og_keeps_f32(name, t->n_dims, ne[0], o->wt->blck) ? &og_types[0] :
								 o->wt;
	if (o->mu != NULL && o->mu->n++ == o->mu->target)
		og_mutate(m, o->mu, name, (uint32_t)t->n_dims, ne, ty);
	else
		ggufw_model_tensor(m, name, (uint32_t)t->n_dims, ne, ty->id,
		    ty->blck, ty->size);
	return 0;
}

/* og_tensors: the map's tensors, the global ones then layer by layer. */
static int
og_tensors(struct ggufw_model *m, const struct names_map *map,
    const struct og_spec *s, struct names_env *env, struct og_out *o)
{
	for (int64_t il = -1; il < (int64_t)env->geom->n_layer; il++) {
		env->layer = il;
		for (size_t i = 0; i < map->n_tensors; i++) {
			const struct names_tensor *t = &map->tensors[i];
			int w;
			if (t->per_layer != (il >= 0))
				continue;
			w = og_wanted(map, t, s, env);
			if (w < 0) {
				snprintf(o->why, o->whylen,
				    "required tensor %s has "
				    "no literal name or no shape",
				    t->display);
				return -1;
			}
			if (w && og_tensor(m, t, env, o) != 0)
				return -1;
		}
	}
	return 0;
}

/* The geometry named name: an architecture's, or ARCH-wide (og_wide). */
static const struct og_spec *
og_spec_find(const char *name)
{
	for (size_t i = 0; i < sizeof og_specs / sizeof og_specs[0]; i++)
		if (strcmp(og_specs[i].arch, name) == 0)
			return &og_specs[i];
	for (size_t i = 0; i < sizeof og_wide / sizeof og_wide[0]; i++)
		if (strcmp(og_wide_names[i], name) == 0)
			return &og_wide[i];
	return NULL;
}

const char *
oraclegen_wide(size_t i)
{
	_Static_assert(sizeof og_wide / sizeof og_wide[0] ==
		sizeof og_wide_names / sizeof og_wide_names[0],
	    "one name a wide geometry");
	return i < sizeof og_wide_names / sizeof og_wide_names[0] ?
	    og_wide_names[i] :
	    NULL;
}

/* og_geometry: read the metadata written so far back as gguflint does. */
static int
og_build(struct ggufw_model *m, const struct og_spec *s, struct og_out *o)
{
	const struct names_db *db;
	const struct names_map *map;
	struct catalog cat;
	struct gl_error err;
	struct diag_list dl;
	struct gguf_file f;
	struct model_geom *g;
	struct strbuf hdr = STRBUF_INIT;
	struct names_env env;
	int rc = -1;

	if (names_db_get(&db, &err) != 0 ||
	    (map = names_db_find(db, s->arch)) == NULL) {
		snprintf(o->why, o->whylen, "%s: no name map", s->arch);
		return -1;
	}
	if (catalog_load_builtin(&cat, &err) != 0) {
		snprintf(o->why, o->whylen, "catalogue: %s", err.msg);
		return -1;
	}
	ggufw_model_finish(m, &hdr, GGUFW_DATA_NONE);
	gguf_open_mem(&f, s->arch, hdr.buf, hdr.len);
	diag_list_init(&dl, &cat);
	gguf_parse(&f, &dl);
	g = xcalloc(1, sizeof *g);
	arch_read(&f, g, &dl);
	env.file = &f;
	env.geom = g;
	env.layer = -1;
	env.n_vocab = OG_N_VOCAB;
	rc = og_tensors(m, map, s, &env, o);
	free(g);
	diag_list_free(&dl);
	gguf_close(&f);
	strbuf_free(&hdr);
	catalog_free(&cat);
	return rc;
}

/* og_write: the model of geometry s into path, through o. */
static int
og_write(const struct og_spec *s, const char *path, struct og_out *o)
{
	struct ggufw_model m;
	int rc;

	ggufw_model_init(&m, false, GGUFW_DEFAULT_ALIGNMENT);
	ggufw_model_kv_str(&m, "general.architecture", s->arch);
	ggufw_model_kv_str(&m, "general.name", "oracle test model");
	ggufw_model_kv_u32(&m, "general.quantization_version", 2);
	og_kvs(&m, s);
	og_vocab(&m);
	rc = og_build(&m, s, o);
	if (rc == 0 && path != NULL &&
	    ggufw_model_finish_sparse(&m, path) != 0) {
		snprintf(o->why, o->whylen, "%s: cannot write", path);
		rc = -1;
	}
	ggufw_model_free(&m);
	return rc;
}

/* og_find: the geometry and the type of a write, or -1 with why. */
static int
og_find(const char *arch, const char *wtype, const struct og_spec **s,
    struct og_out *o)
{
	*s = og_spec_find(arch);
	o->wt = og_type_find(wtype);
	if (*s != NULL && o->wt != NULL)
		return 0;
	snprintf(o->why, o->whylen, "%s: no geometry for %s", arch,
	    *s == NULL ? "this architecture" : wtype);
	return -1;
}

int
oraclegen_write(const char *arch, const char *wtype, const char *path,
    char *why, size_t whylen)
{
	struct og_out o = { .why = why, .whylen = whylen };
	const struct og_spec *s;

	if (og_find(arch, wtype, &s, &o) != 0)
		return -1;
	return og_write(s, path, &o);
}

int
oraclegen_mutant(const char *arch, const char *wtype, const char *path,
    enum oraclegen_mutation kind, size_t k, char *what, size_t whatlen,
    char *why, size_t whylen)
{
	struct og_mut mu = { kind, (size_t)-1, 0, what, whatlen };
	struct og_out o = { .mu = &mu, .why = why, .whylen = whylen };
	const struct og_spec *s;

	if (og_find(arch, wtype, &s, &o) != 0 || og_write(s, NULL, &o) != 0)
		return -1;
	if (mu.n == 0) {
		snprintf(why, whylen, "%s: no tensor to change", arch);
		return -1;
	}
	mu.target = k % mu.n;
	mu.n = 0;
	return og_write(s, path, &o);
}
