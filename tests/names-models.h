/*
 * names-models.h - the name maps' round-trip models (tests/test_names.c,
 * its only includer, after struct arch_model): for each mapped
 * architecture, the metadata and the tensors of a tiny model its map
 * must pass, and the tensor whose removal it must notice. Data only;
 * add an architecture's at the end of round_trips.
 */
#ifndef GGUFLINT_NAMES_MODELS_H
#define GGUFLINT_NAMES_MODELS_H

#define BASE_KEYS(e, l) \
	"u32 ARCH.context_length 32", "u32 ARCH.embedding_length " #e, \
	"u32 ARCH.block_count " #l

static const char *const llama_moe_keys[] = {
	BASE_KEYS(16, 2), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2", "u32 ARCH.attention.head_count_kv 1",
	"f32 ARCH.attention.layer_norm_rms_epsilon 1e-5",
	"u32 ARCH.expert_count 4", "u32 ARCH.expert_used_count 2",
	"u32 ARCH.rope.dimension_count 8", "str tokenizer.ggml.model llama",
	NULL
};
static const char *const llama_moe_tensors[] = {
	"G token_embd.weight 16 16", "G output_norm.weight 16",
	"G rope_freqs.weight 4",
	"L blk.%u.attn_norm.weight 16", "L blk.%u.attn_q.weight 16 16",
	"L blk.%u.attn_k.weight 16 8", "L blk.%u.attn_v.weight 16 8",
	"L blk.%u.attn_output.weight 16 16", "L blk.%u.ffn_norm.weight 16",
	"L blk.%u.ffn_gate_inp.weight 16 4",
	"L blk.%u.ffn_gate_exps.weight 16 32 4",
	"L blk.%u.ffn_up_exps.weight 16 32 4",
	"L blk.%u.ffn_down_exps.weight 32 16 4", NULL
};

static const char *const qwen3_keys[] = {
	BASE_KEYS(16, 2), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2", "u32 ARCH.attention.head_count_kv 1",
	"u32 ARCH.attention.key_length 16",
	"u32 ARCH.attention.value_length 16",
	"f32 ARCH.attention.layer_norm_rms_epsilon 1e-6",
	"str tokenizer.ggml.model gpt2", NULL
};
static const char *const qwen3_tensors[] = {
	"G token_embd.weight 16 16", "G output_norm.weight 16",
	"L blk.%u.attn_norm.weight 16", "L blk.%u.attn_q.weight 16 32",
	"L blk.%u.attn_k.weight 16 16", "L blk.%u.attn_v.weight 16 16",
	"L blk.%u.attn_q_norm.weight 16", "L blk.%u.attn_k_norm.weight 16",
	"L blk.%u.attn_output.weight 32 16", "L blk.%u.ffn_norm.weight 16",
	"L blk.%u.ffn_gate.weight 16 32", "L blk.%u.ffn_up.weight 16 32",
	"L blk.%u.ffn_down.weight 32 16", NULL
};

static const char *const qwen3moe_keys[] = {
	BASE_KEYS(16, 2), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2", "u32 ARCH.attention.head_count_kv 1",
	"u32 ARCH.attention.key_length 16",
	"u32 ARCH.attention.value_length 16",
	"f32 ARCH.attention.layer_norm_rms_epsilon 1e-6",
	"u32 ARCH.expert_count 4", "u32 ARCH.expert_used_count 2",
	"str tokenizer.ggml.model gpt2", NULL
};
static const char *const qwen3moe_tensors[] = {
	"G token_embd.weight 16 16", "G output_norm.weight 16",
	"G output.weight 16 16",
	"L blk.%u.attn_norm.weight 16", "L blk.%u.attn_q.weight 16 32",
	"L blk.%u.attn_k.weight 16 16", "L blk.%u.attn_v.weight 16 16",
	"L blk.%u.attn_q_norm.weight 16", "L blk.%u.attn_k_norm.weight 16",
	"L blk.%u.attn_output.weight 32 16", "L blk.%u.ffn_norm.weight 16",
	"L blk.%u.ffn_gate_inp.weight 16 4",
	"L blk.%u.ffn_gate_exps.weight 16 16 4",
	"L blk.%u.ffn_up_exps.weight 16 16 4",
	"L blk.%u.ffn_down_exps.weight 16 16 4", NULL
};

static const char *const qwen2moe_keys[] = {
	BASE_KEYS(16, 2), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2", "u32 ARCH.attention.head_count_kv 1",
	"f32 ARCH.attention.layer_norm_rms_epsilon 1e-6",
	"u32 ARCH.expert_count 4", "u32 ARCH.expert_used_count 2",
	"u32 ARCH.expert_feed_forward_length 8",
	"u32 ARCH.expert_shared_feed_forward_length 24",
	"str tokenizer.ggml.model gpt2", NULL
};
static const char *const qwen2moe_tensors[] = {
	"G token_embd.weight 16 16", "G output_norm.weight 16",
	"G output.weight 16 16",
	"L blk.%u.attn_norm.weight 16", "L blk.%u.attn_q.weight 16 16",
	"L blk.%u.attn_q.bias 16", "L blk.%u.attn_k.weight 16 8",
	"L blk.%u.attn_k.bias 8", "L blk.%u.attn_v.weight 16 8",
	"L blk.%u.attn_v.bias 8", "L blk.%u.attn_output.weight 16 16",
	"L blk.%u.ffn_norm.weight 16", "L blk.%u.ffn_gate_inp.weight 16 4",
	"L blk.%u.ffn_gate_exps.weight 16 8 4",
	"L blk.%u.ffn_up_exps.weight 16 8 4",
	"L blk.%u.ffn_down_exps.weight 8 16 4",
	"L blk.%u.ffn_gate_inp_shexp.weight 16",
	"L blk.%u.ffn_gate_shexp.weight 16 24",
	"L blk.%u.ffn_up_shexp.weight 16 24",
	"L blk.%u.ffn_down_shexp.weight 24 16", NULL
};

static const char *const phi3_keys[] = {
	BASE_KEYS(16, 2), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2", "u32 ARCH.attention.head_count_kv 2",
	"f32 ARCH.attention.layer_norm_rms_epsilon 1e-5",
	"u32 ARCH.rope.dimension_count 8", "str tokenizer.ggml.model llama",
	NULL
};
static const char *const phi3_tensors[] = {
	"G token_embd.weight 16 16", "G output_norm.weight 16",
	"G output.weight 16 16", "G rope_factors_long.weight 4",
	"G rope_factors_short.weight 4",
	"L blk.%u.attn_norm.weight 16", "L blk.%u.attn_qkv.weight 16 48",
	"L blk.%u.attn_output.weight 16 16", "L blk.%u.ffn_norm.weight 16",
	"L blk.%u.ffn_up.weight 16 64", "L blk.%u.ffn_down.weight 32 16", NULL
};

/* ernie4_5: llama's layout, here with one fused QKV and its bias and the
 * attention output's bias; output tied to token_embd. */
static const char *const ernie4_5_keys[] = {
	BASE_KEYS(16, 2), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2", "u32 ARCH.attention.head_count_kv 1",
	"f32 ARCH.attention.layer_norm_rms_epsilon 1e-5",
	"str tokenizer.ggml.model llama", NULL
};
static const char *const ernie4_5_tensors[] = {
	"G token_embd.weight 16 16", "G output_norm.weight 16",
	"L blk.%u.attn_norm.weight 16", "L blk.%u.attn_qkv.weight 16 32",
	"L blk.%u.attn_qkv.bias 32", "L blk.%u.attn_output.weight 16 16",
	"L blk.%u.attn_output.bias 16", "L blk.%u.ffn_norm.weight 16",
	"L blk.%u.ffn_gate.weight 16 32", "L blk.%u.ffn_up.weight 16 32",
	"L blk.%u.ffn_down.weight 32 16", NULL
};

/* The dense llama-likes of issue 36, in ernie4_5's keys (2 blocks of 16,
 * 2 heads of 8, 1 KV head) or their own. Llama's dense attention and
 * SwiGLU first, without biases. */
#define DENSE_QKV \
	"L blk.%u.attn_q.weight 16 16", "L blk.%u.attn_k.weight 16 8", \
	"L blk.%u.attn_v.weight 16 8", "L blk.%u.attn_output.weight 16 16"
#define DENSE_FFN \
	"L blk.%u.ffn_gate.weight 16 32", "L blk.%u.ffn_up.weight 16 32", \
	"L blk.%u.ffn_down.weight 32 16"

/* smollm3 (and granite's layout): llama's, output tied. */
static const char *const smollm3_tensors[] = { "G token_embd.weight 16 16",
	"G output_norm.weight 16", "L blk.%u.attn_norm.weight 16", DENSE_QKV,
	"L blk.%u.ffn_norm.weight 16", DENSE_FFN, NULL };
/* seed_oss: Q, K, V biases, the FFN's norm post_attention_norm. */
static const char *const seed_oss_tensors[] = { "G token_embd.weight 16 16",
	"G output_norm.weight 16", "G output.weight 16 16",
	"L blk.%u.attn_norm.weight 16", DENSE_QKV, "L blk.%u.attn_q.bias 16",
	"L blk.%u.attn_k.bias 8", "L blk.%u.attn_v.bias 8",
	"L blk.%u.post_attention_norm.weight 16", DENSE_FFN, NULL };
/* hunyuan-dense: Q's and K's own norms. */
static const char *const hunyuan_tensors[] = { "G token_embd.weight 16 16",
	"G output_norm.weight 16", "L blk.%u.attn_norm.weight 16", DENSE_QKV,
	"L blk.%u.attn_q_norm.weight 8", "L blk.%u.attn_k_norm.weight 8",
	"L blk.%u.ffn_norm.weight 16", DENSE_FFN, NULL };
/* exaone4: norms after the attention and the FFN, Q's and K's own. */
static const char *const exaone4_tensors[] = { "G token_embd.weight 16 16",
	"G output_norm.weight 16", "G output.weight 16 16", DENSE_QKV,
	"L blk.%u.post_attention_norm.weight 16",
	"L blk.%u.attn_q_norm.weight 8", "L blk.%u.attn_k_norm.weight 8",
	DENSE_FFN, "L blk.%u.post_ffw_norm.weight 16", NULL };
static const char *const granite_keys[] = { BASE_KEYS(16, 2),
	"u32 ARCH.feed_forward_length 32", "u32 ARCH.attention.head_count 2",
	"u32 ARCH.attention.head_count_kv 1",
	"f32 ARCH.attention.layer_norm_rms_epsilon 1e-5",
	"f32 ARCH.logit_scale 8", "f32 ARCH.residual_scale 0.22",
	"str tokenizer.ggml.model llama", NULL };
/* command-r: layer norms, no output tensor (token_embd always). */
static const char *const command_r_keys[] = { BASE_KEYS(16, 2),
	"u32 ARCH.feed_forward_length 32", "u32 ARCH.attention.head_count 2",
	"u32 ARCH.attention.head_count_kv 1",
	"f32 ARCH.attention.layer_norm_epsilon 1e-5",
	"f32 ARCH.logit_scale 0.0625", "str tokenizer.ggml.model llama",
	NULL };
static const char *const command_r_tensors[] = { "G token_embd.weight 16 16",
	"G output_norm.weight 16", "L blk.%u.attn_norm.weight 16", DENSE_QKV,
	DENSE_FFN, NULL };
/* olmo: no norm tensor at all. */
static const char *const olmo_tensors[] = { "G token_embd.weight 16 16",
	"G output.weight 16 16", DENSE_QKV, DENSE_FFN, NULL };
/* olmoe: Q's and K's norms over their whole rows, experts as wide as
 * the FFN, output required. */
static const char *const olmoe_keys[] = {
	BASE_KEYS(16, 2), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2", "u32 ARCH.attention.head_count_kv 2",
	"f32 ARCH.attention.layer_norm_rms_epsilon 1e-5",
	"u32 ARCH.expert_count 4", "u32 ARCH.expert_used_count 2",
	"str tokenizer.ggml.model gpt2", NULL
};
static const char *const olmoe_tensors[] = {
	"G token_embd.weight 16 16", "G output_norm.weight 16",
	"G output.weight 16 16", "L blk.%u.attn_norm.weight 16",
	"L blk.%u.attn_q.weight 16 16", "L blk.%u.attn_k.weight 16 16",
	"L blk.%u.attn_v.weight 16 16", "L blk.%u.attn_q_norm.weight 16",
	"L blk.%u.attn_k_norm.weight 16", "L blk.%u.attn_output.weight 16 16",
	"L blk.%u.ffn_norm.weight 16", "L blk.%u.ffn_gate_inp.weight 16 4",
	"L blk.%u.ffn_gate_exps.weight 16 32 4",
	"L blk.%u.ffn_up_exps.weight 16 32 4",
	"L blk.%u.ffn_down_exps.weight 32 16 4", NULL
};

/* phimoe: phi3's attention, every norm and the output biased, experts
 * as wide as the FFN. */
static const char *const phimoe_keys[] = {
	BASE_KEYS(16, 2), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2", "u32 ARCH.attention.head_count_kv 1",
	"f32 ARCH.attention.layer_norm_rms_epsilon 1e-5",
	"u32 ARCH.expert_count 4", "u32 ARCH.expert_used_count 2",
	"str tokenizer.ggml.model llama", NULL
};
static const char *const phimoe_tensors[] = {
	"G token_embd.weight 16 16", "G output_norm.weight 16",
	"G output_norm.bias 16", "G output.weight 16 16", "G output.bias 16",
	"L blk.%u.attn_norm.weight 16", "L blk.%u.attn_norm.bias 16",
	"L blk.%u.attn_qkv.weight 16 32", "L blk.%u.attn_output.weight 16 16",
	"L blk.%u.attn_output.bias 16", "L blk.%u.ffn_norm.weight 16",
	"L blk.%u.ffn_norm.bias 16", "L blk.%u.ffn_gate_inp.weight 16 4",
	"L blk.%u.ffn_gate_exps.weight 16 32 4",
	"L blk.%u.ffn_up_exps.weight 16 32 4",
	"L blk.%u.ffn_down_exps.weight 32 16 4", NULL
};

/* granitemoe: llama's attention, Granite's logit scale, experts as wide
 * as the FFN and a shared expert. */
static const char *const granitemoe_keys[] = {
	BASE_KEYS(16, 2), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2", "u32 ARCH.attention.head_count_kv 1",
	"f32 ARCH.attention.layer_norm_rms_epsilon 1e-5",
	"f32 ARCH.logit_scale 8", "u32 ARCH.expert_count 4",
	"u32 ARCH.expert_used_count 2",
	"u32 ARCH.expert_shared_feed_forward_length 24",
	"str tokenizer.ggml.model gpt2", NULL
};
static const char *const granitemoe_tensors[] = {
	"G token_embd.weight 16 16", "G output_norm.weight 16",
	"L blk.%u.attn_norm.weight 16", "L blk.%u.attn_q.weight 16 16",
	"L blk.%u.attn_k.weight 16 8", "L blk.%u.attn_v.weight 16 8",
	"L blk.%u.attn_output.weight 16 16", "L blk.%u.ffn_norm.weight 16",
	"L blk.%u.ffn_gate_inp.weight 16 4",
	"L blk.%u.ffn_gate_exps.weight 16 32 4",
	"L blk.%u.ffn_up_exps.weight 16 32 4",
	"L blk.%u.ffn_down_exps.weight 32 16 4",
	"L blk.%u.ffn_gate_shexp.weight 16 24",
	"L blk.%u.ffn_up_shexp.weight 16 24",
	"L blk.%u.ffn_down_shexp.weight 24 16", NULL
};

/* minimax-m2: Q's and K's norms over their rows, experts chosen with a
 * bias, output required. */
static const char *const minimax_m2_keys[] = {
	BASE_KEYS(16, 2), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2", "u32 ARCH.attention.head_count_kv 1",
	"f32 ARCH.attention.layer_norm_rms_epsilon 1e-6",
	"u32 ARCH.expert_feed_forward_length 32", "u32 ARCH.expert_count 4",
	"u32 ARCH.expert_used_count 2", "u32 ARCH.expert_gating_func 2",
	"str tokenizer.ggml.model gpt2", NULL
};
static const char *const minimax_m2_tensors[] = {
	"G token_embd.weight 16 16", "G output_norm.weight 16",
	"G output.weight 16 16", "L blk.%u.attn_norm.weight 16",
	"L blk.%u.attn_q.weight 16 16", "L blk.%u.attn_k.weight 16 8",
	"L blk.%u.attn_v.weight 16 8", "L blk.%u.attn_q_norm.weight 16",
	"L blk.%u.attn_k_norm.weight 8", "L blk.%u.attn_output.weight 16 16",
	"L blk.%u.ffn_norm.weight 16", "L blk.%u.ffn_gate_inp.weight 16 4",
	"L blk.%u.exp_probs_b.bias 4",
	"L blk.%u.ffn_gate_exps.weight 16 32 4",
	"L blk.%u.ffn_up_exps.weight 16 32 4",
	"L blk.%u.ffn_down_exps.weight 32 16 4", NULL
};

/* ernie4_5-moe: a dense layer, then experts, their selection bias and
 * a shared expert; output tied to token_embd. */
static const char *const ernie4_5_moe_keys[] = {
	BASE_KEYS(16, 2), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2", "u32 ARCH.attention.head_count_kv 1",
	"f32 ARCH.attention.layer_norm_rms_epsilon 1e-5",
	"u32 ARCH.leading_dense_block_count 1",
	"u32 ARCH.interleave_moe_layer_step 1",
	"u32 ARCH.expert_feed_forward_length 8",
	"u32 ARCH.expert_shared_feed_forward_length 24",
	"u32 ARCH.expert_count 4", "u32 ARCH.expert_used_count 2",
	"str tokenizer.ggml.model llama", NULL
};
static const char *const ernie4_5_moe_tensors[] = {
	"G token_embd.weight 16 16", "G output_norm.weight 16",
	"L blk.%u.attn_norm.weight 16", "L blk.%u.attn_q.weight 16 16",
	"L blk.%u.attn_k.weight 16 8", "L blk.%u.attn_v.weight 16 8",
	"L blk.%u.attn_output.weight 16 16", "L blk.%u.ffn_norm.weight 16",
	"L0-0 blk.%u.ffn_gate.weight 16 32", "L0-0 blk.%u.ffn_up.weight 16 32",
	"L0-0 blk.%u.ffn_down.weight 32 16",
	"L1-1 blk.%u.ffn_gate_inp.weight 16 4",
	"L1-1 blk.%u.exp_probs_b.bias 4",
	"L1-1 blk.%u.ffn_gate_exps.weight 16 8 4",
	"L1-1 blk.%u.ffn_up_exps.weight 16 8 4",
	"L1-1 blk.%u.ffn_down_exps.weight 8 16 4",
	"L1-1 blk.%u.ffn_gate_shexp.weight 16 24",
	"L1-1 blk.%u.ffn_up_shexp.weight 16 24",
	"L1-1 blk.%u.ffn_down_shexp.weight 24 16", NULL
};

/* qwen3vl, qwen3vlmoe: qwen3's and qwen3moe's models (their tensors),
 * M-RoPE's sections (an array the map does not check) and the
 * deepstack's layers. */
static const char *const qwen3vl_keys[] = {
	BASE_KEYS(16, 2), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2", "u32 ARCH.attention.head_count_kv 1",
	"u32 ARCH.attention.key_length 16",
	"u32 ARCH.attention.value_length 16",
	"f32 ARCH.attention.layer_norm_rms_epsilon 1e-6",
	"a32 ARCH.rope.dimension_sections 4,2,2,0",
	"u32 ARCH.n_deepstack_layers 1", "str tokenizer.ggml.model gpt2", NULL
};

static const char *const qwen3vlmoe_keys[] = {
	BASE_KEYS(16, 2), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2", "u32 ARCH.attention.head_count_kv 1",
	"u32 ARCH.attention.key_length 16",
	"u32 ARCH.attention.value_length 16",
	"f32 ARCH.attention.layer_norm_rms_epsilon 1e-6",
	"u32 ARCH.expert_count 4", "u32 ARCH.expert_used_count 2",
	"a32 ARCH.rope.dimension_sections 4,2,2,0",
	"u32 ARCH.n_deepstack_layers 1", "str tokenizer.ggml.model gpt2", NULL
};

/* hunyuan-moe: per-head Q and K norms, experts beside a shared expert
 * as wide as the FFN (no key for it). */
static const char *const hunyuan_moe_keys[] = {
	BASE_KEYS(16, 2), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2", "u32 ARCH.attention.head_count_kv 1",
	"f32 ARCH.attention.layer_norm_rms_epsilon 1e-5",
	"u32 ARCH.expert_feed_forward_length 32", "u32 ARCH.expert_count 4",
	"u32 ARCH.expert_used_count 2", "str tokenizer.ggml.model gpt2", NULL
};
static const char *const hunyuan_moe_tensors[] = {
	"G token_embd.weight 16 16", "G output_norm.weight 16",
	"L blk.%u.attn_norm.weight 16", "L blk.%u.attn_q.weight 16 16",
	"L blk.%u.attn_k.weight 16 8", "L blk.%u.attn_v.weight 16 8",
	"L blk.%u.attn_q_norm.weight 8", "L blk.%u.attn_k_norm.weight 8",
	"L blk.%u.attn_output.weight 16 16", "L blk.%u.ffn_norm.weight 16",
	"L blk.%u.ffn_gate_inp.weight 16 4",
	"L blk.%u.ffn_gate_exps.weight 16 32 4",
	"L blk.%u.ffn_up_exps.weight 16 32 4",
	"L blk.%u.ffn_down_exps.weight 32 16 4",
	"L blk.%u.ffn_gate_shexp.weight 16 32",
	"L blk.%u.ffn_up_shexp.weight 16 32",
	"L blk.%u.ffn_down_shexp.weight 32 16", NULL
};

static const char *const gemma3_keys[] = {
	BASE_KEYS(16, 2), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2", "u32 ARCH.attention.head_count_kv 1",
	"u32 ARCH.attention.key_length 16",
	"u32 ARCH.attention.value_length 16",
	"f32 ARCH.attention.layer_norm_rms_epsilon 1e-6",
	"str tokenizer.ggml.model llama", NULL
};
static const char *const gemma3_tensors[] = {
	"G token_embd.weight 16 16", "G output_norm.weight 16",
	"L blk.%u.attn_norm.weight 16", "L blk.%u.attn_q.weight 16 32",
	"L blk.%u.attn_k.weight 16 16", "L blk.%u.attn_v.weight 16 16",
	"L blk.%u.attn_q_norm.weight 16", "L blk.%u.attn_k_norm.weight 16",
	"L blk.%u.attn_output.weight 32 16",
	"L blk.%u.post_attention_norm.weight 16",
	"L blk.%u.ffn_norm.weight 16", "L blk.%u.ffn_gate.weight 16 32",
	"L blk.%u.ffn_up.weight 16 32", "L blk.%u.ffn_down.weight 32 16",
	"L blk.%u.post_ffw_norm.weight 16", NULL
};

/* MLA with a low-rank query, one dense block, then experts. */
static const char *const deepseek2_keys[] = {
	BASE_KEYS(16, 3), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2", "u32 ARCH.attention.head_count_kv 2",
	"u32 ARCH.attention.key_length 12", "u32 ARCH.attention.value_length 8",
	"u32 ARCH.attention.key_length_mla 12",
	"u32 ARCH.attention.value_length_mla 8",
	"u32 ARCH.attention.q_lora_rank 8", "u32 ARCH.attention.kv_lora_rank 8",
	"u32 ARCH.rope.dimension_count 4",
	"f32 ARCH.attention.layer_norm_rms_epsilon 1e-6",
	"u32 ARCH.leading_dense_block_count 1", "u32 ARCH.expert_count 4",
	"u32 ARCH.expert_used_count 2",
	"u32 ARCH.expert_feed_forward_length 8",
	"u32 ARCH.expert_shared_count 1", "str tokenizer.ggml.model gpt2",
	NULL
};
static const char *const deepseek2_tensors[] = {
	"G token_embd.weight 16 16", "G output_norm.weight 16",
	"G output.weight 16 16",
	"L blk.%u.attn_norm.weight 16", "L blk.%u.attn_q_a_norm.weight 8",
	"L blk.%u.attn_q_a.weight 16 8", "L blk.%u.attn_q_b.weight 8 24",
	"L blk.%u.attn_kv_a_mqa.weight 16 12",
	"L blk.%u.attn_kv_a_norm.weight 8", "L blk.%u.attn_k_b.weight 8 8 2",
	"L blk.%u.attn_v_b.weight 8 8 2", "L blk.%u.attn_output.weight 16 16",
	"L blk.%u.ffn_norm.weight 16",
	"L0-0 blk.%u.ffn_gate.weight 16 32", "L0-0 blk.%u.ffn_up.weight 16 32",
	"L0-0 blk.%u.ffn_down.weight 32 16",
	"L1-2 blk.%u.ffn_gate_inp.weight 16 4",
	"L1-2 blk.%u.exp_probs_b.bias 4",
	"L1-2 blk.%u.ffn_gate_exps.weight 16 8 4",
	"L1-2 blk.%u.ffn_up_exps.weight 16 8 4",
	"L1-2 blk.%u.ffn_down_exps.weight 8 16 4",
	"L1-2 blk.%u.ffn_gate_shexp.weight 16 8",
	"L1-2 blk.%u.ffn_up_shexp.weight 16 8",
	"L1-2 blk.%u.ffn_down_shexp.weight 8 16", NULL
};

static const char *const mamba_keys[] = {
	BASE_KEYS(8, 2), "u32 ARCH.ssm.conv_kernel 4",
	"u32 ARCH.ssm.inner_size 16", "u32 ARCH.ssm.state_size 4",
	"u32 ARCH.ssm.time_step_rank 2",
	"f32 ARCH.attention.layer_norm_rms_epsilon 1e-5",
	"str tokenizer.ggml.model gpt2", NULL
};
static const char *const mamba_tensors[] = {
	"G token_embd.weight 8 16", "G output_norm.weight 8",
	"L blk.%u.attn_norm.weight 8", "L blk.%u.ssm_in.weight 8 32",
	"L blk.%u.ssm_conv1d.weight 4 16", "L blk.%u.ssm_conv1d.bias 16",
	"L blk.%u.ssm_x.weight 16 10", "L blk.%u.ssm_dt.weight 2 16",
	"L blk.%u.ssm_dt.bias 16", "L blk.%u.ssm_a 4 16", "L blk.%u.ssm_d 16",
	"L blk.%u.ssm_out.weight 16 8", NULL
};

static const char *const falcon_keys[] = {
	BASE_KEYS(16, 2), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2", "u32 ARCH.attention.head_count_kv 1",
	"f32 ARCH.attention.layer_norm_epsilon 1e-5",
	"str tokenizer.ggml.model gpt2", NULL
};
static const char *const falcon_tensors[] = {
	"G token_embd.weight 16 16", "G output_norm.weight 16",
	"G output_norm.bias 16", "G output.weight 16 16",
	"L blk.%u.attn_norm.weight 16", "L blk.%u.attn_norm.bias 16",
	"L blk.%u.attn_qkv.weight 16 32", "L blk.%u.attn_output.weight 16 16",
	"L blk.%u.ffn_up.weight 16 32", "L blk.%u.ffn_down.weight 32 16", NULL
};

static const char *const gpt2_keys[] = {
	BASE_KEYS(16, 2), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2",
	"f32 ARCH.attention.layer_norm_epsilon 1e-5",
	"str tokenizer.ggml.model gpt2", NULL
};
static const char *const gpt2_tensors[] = {
	"G token_embd.weight 16 16", "G position_embd.weight 16 32",
	"G output_norm.weight 16", "G output_norm.bias 16",
	"L blk.%u.attn_norm.weight 16", "L blk.%u.attn_norm.bias 16",
	"L blk.%u.attn_qkv.weight 16 48", "L blk.%u.attn_qkv.bias 48",
	"L blk.%u.attn_output.weight 16 16", "L blk.%u.attn_output.bias 16",
	"L blk.%u.ffn_norm.weight 16", "L blk.%u.ffn_norm.bias 16",
	"L blk.%u.ffn_up.weight 16 32", "L blk.%u.ffn_up.bias 32",
	"L blk.%u.ffn_down.weight 32 16", "L blk.%u.ffn_down.bias 16", NULL
};

static const char *const bert_keys[] = {
	BASE_KEYS(16, 2), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2",
	"f32 ARCH.attention.layer_norm_epsilon 1e-12",
	"u32 tokenizer.ggml.token_type_count 2",
	"str tokenizer.ggml.model bert", NULL
};
static const char *const bert_tensors[] = {
	"G token_embd.weight 16 16", "G token_types.weight 16 2",
	"G position_embd.weight 16 32", "G token_embd_norm.weight 16",
	"G token_embd_norm.bias 16",
	"L blk.%u.attn_q.weight 16 16", "L blk.%u.attn_q.bias 16",
	"L blk.%u.attn_k.weight 16 16", "L blk.%u.attn_k.bias 16",
	"L blk.%u.attn_v.weight 16 16", "L blk.%u.attn_v.bias 16",
	"L blk.%u.attn_output.weight 16 16", "L blk.%u.attn_output.bias 16",
	"L blk.%u.attn_output_norm.weight 16",
	"L blk.%u.attn_output_norm.bias 16",
	"L blk.%u.ffn_up.weight 16 32", "L blk.%u.ffn_up.bias 32",
	"L blk.%u.ffn_down.weight 32 16", "L blk.%u.ffn_down.bias 16",
	"L blk.%u.layer_output_norm.weight 16",
	"L blk.%u.layer_output_norm.bias 16", "G cls.weight 16 2",
	"G cls.bias 2", NULL
};

static const char *const starcoder2_keys[] = {
	BASE_KEYS(16, 2), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2", "u32 ARCH.attention.head_count_kv 1",
	"f32 ARCH.attention.layer_norm_epsilon 1e-5",
	"str tokenizer.ggml.model gpt2", NULL
};
static const char *const starcoder2_tensors[] = {
	"G token_embd.weight 16 16", "G output_norm.weight 16",
	"G output_norm.bias 16",
	"L blk.%u.attn_norm.weight 16", "L blk.%u.attn_norm.bias 16",
	"L blk.%u.attn_q.weight 16 16", "L blk.%u.attn_q.bias 16",
	"L blk.%u.attn_k.weight 16 8", "L blk.%u.attn_k.bias 8",
	"L blk.%u.attn_v.weight 16 8", "L blk.%u.attn_v.bias 8",
	"L blk.%u.attn_output.weight 16 16", "L blk.%u.attn_output.bias 16",
	"L blk.%u.ffn_norm.weight 16", "L blk.%u.ffn_norm.bias 16",
	"L blk.%u.ffn_up.weight 16 32", "L blk.%u.ffn_up.bias 32",
	"L blk.%u.ffn_down.weight 32 16", "L blk.%u.ffn_down.bias 16", NULL
};

static const char *const olmo2_keys[] = {
	BASE_KEYS(16, 2), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2", "u32 ARCH.attention.head_count_kv 1",
	"f32 ARCH.attention.layer_norm_rms_epsilon 1e-6",
	"str tokenizer.ggml.model gpt2", NULL
};
static const char *const olmo2_tensors[] = {
	"G token_embd.weight 16 16", "G output_norm.weight 16",
	"G output.weight 16 16",
	"L blk.%u.attn_q.weight 16 16", "L blk.%u.attn_k.weight 16 8",
	"L blk.%u.attn_v.weight 16 8", "L blk.%u.attn_output.weight 16 16",
	"L blk.%u.attn_q_norm.weight 16", "L blk.%u.attn_k_norm.weight 8",
	"L blk.%u.post_attention_norm.weight 16",
	"L blk.%u.ffn_gate.weight 16 32", "L blk.%u.ffn_up.weight 16 32",
	"L blk.%u.ffn_down.weight 32 16", "L blk.%u.post_ffw_norm.weight 16",
	NULL
};

static const char *const nomic_bert_keys[] = {
	BASE_KEYS(16, 2), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2",
	"f32 ARCH.attention.layer_norm_epsilon 1e-12",
	"u32 tokenizer.ggml.token_type_count 2",
	"str tokenizer.ggml.model bert", NULL
};
static const char *const nomic_bert_tensors[] = {
	"G token_embd.weight 16 16", "G token_types.weight 16 2",
	"G token_embd_norm.weight 16", "G token_embd_norm.bias 16",
	"L blk.%u.attn_qkv.weight 16 48",
	"L blk.%u.attn_output.weight 16 16",
	"L blk.%u.attn_output_norm.weight 16",
	"L blk.%u.attn_output_norm.bias 16",
	"L blk.%u.ffn_up.weight 16 32", "L blk.%u.ffn_gate.weight 16 32",
	"L blk.%u.ffn_down.weight 32 16",
	"L blk.%u.layer_output_norm.weight 16",
	"L blk.%u.layer_output_norm.bias 16", NULL
};

static const char *const gptoss_keys[] = {
	BASE_KEYS(16, 2), "u32 ARCH.attention.head_count 2",
	"u32 ARCH.attention.head_count_kv 1",
	"f32 ARCH.attention.layer_norm_rms_epsilon 1e-5",
	"u32 ARCH.attention.sliding_window 4", "u32 ARCH.expert_count 4",
	"u32 ARCH.expert_used_count 2",
	"u32 ARCH.expert_feed_forward_length 8",
	"str tokenizer.ggml.model llama", NULL
};
static const char *const gptoss_tensors[] = {
	"G token_embd.weight 16 16", "G output_norm.weight 16",
	"G output.weight 16 16", "L blk.%u.attn_norm.weight 16",
	"L blk.%u.post_attention_norm.weight 16",
	"L blk.%u.attn_q.weight 16 16", "L blk.%u.attn_k.weight 16 8",
	"L blk.%u.attn_v.weight 16 8", "L blk.%u.attn_output.weight 16 16",
	"L blk.%u.attn_output.bias 16", "L blk.%u.attn_sinks.weight 2",
	"L blk.%u.ffn_gate_inp.weight 16 4", "L blk.%u.ffn_gate_inp.bias 4",
	"L blk.%u.ffn_gate_exps.weight 16 8 4",
	"L blk.%u.ffn_up_exps.weight 16 8 4",
	"L blk.%u.ffn_down_exps.weight 8 16 4",
	"L blk.%u.ffn_gate_exps.bias 8 4", "L blk.%u.ffn_up_exps.bias 8 4",
	"L blk.%u.ffn_down_exps.bias 16 4", NULL
};

static const char *const llama4_keys[] = {
	BASE_KEYS(16, 2), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2", "u32 ARCH.attention.head_count_kv 1",
	"f32 ARCH.attention.layer_norm_rms_epsilon 1e-5",
	"u32 ARCH.expert_count 4", "u32 ARCH.expert_used_count 1",
	"u32 ARCH.expert_feed_forward_length 8",
	"u32 ARCH.interleave_moe_layer_step 2",
	"str tokenizer.ggml.model llama", NULL
};
/* block 0 dense, block 1 experts (every second block) */
static const char *const llama4_tensors[] = {
	"G token_embd.weight 16 16", "G output_norm.weight 16",
	"L blk.%u.attn_norm.weight 16", "L blk.%u.attn_q.weight 16 16",
	"L blk.%u.attn_k.weight 16 8", "L blk.%u.attn_v.weight 16 8",
	"L blk.%u.attn_output.weight 16 16", "L blk.%u.ffn_norm.weight 16",
	"L0-0 blk.%u.ffn_gate.weight 16 32", "L0-0 blk.%u.ffn_up.weight 16 32",
	"L0-0 blk.%u.ffn_down.weight 32 16",
	"L1-1 blk.%u.ffn_gate_inp.weight 16 4",
	"L1-1 blk.%u.ffn_gate_exps.weight 16 8 4",
	"L1-1 blk.%u.ffn_up_exps.weight 16 8 4",
	"L1-1 blk.%u.ffn_down_exps.weight 8 16 4",
	"L1-1 blk.%u.ffn_gate_shexp.weight 16 8",
	"L1-1 blk.%u.ffn_up_shexp.weight 16 8",
	"L1-1 blk.%u.ffn_down_shexp.weight 8 16", NULL
};

static const char *const cohere2_keys[] = {
	BASE_KEYS(16, 2), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2", "u32 ARCH.attention.head_count_kv 1",
	"f32 ARCH.attention.layer_norm_epsilon 1e-5",
	"u32 ARCH.attention.sliding_window 4", "f32 ARCH.logit_scale 0.25",
	"str tokenizer.ggml.model llama", NULL
};
static const char *const cohere2_tensors[] = {
	"G token_embd.weight 16 16", "G output_norm.weight 16",
	"L blk.%u.attn_norm.weight 16", "L blk.%u.attn_q.weight 16 16",
	"L blk.%u.attn_k.weight 16 8", "L blk.%u.attn_v.weight 16 8",
	"L blk.%u.attn_output.weight 16 16",
	"L blk.%u.ffn_gate.weight 16 32", "L blk.%u.ffn_up.weight 16 32",
	"L blk.%u.ffn_down.weight 32 16", NULL
};

static const char *const glm4moe_keys[] = {
	BASE_KEYS(16, 3), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2", "u32 ARCH.attention.head_count_kv 1",
	"f32 ARCH.attention.layer_norm_rms_epsilon 1e-5",
	"u32 ARCH.leading_dense_block_count 1", "u32 ARCH.expert_count 4",
	"u32 ARCH.expert_used_count 2", "u32 ARCH.expert_feed_forward_length 8",
	"u32 ARCH.expert_shared_count 1", "u32 ARCH.nextn_predict_layers 1",
	"str tokenizer.ggml.model llama", NULL
};
/* block 0 dense, block 1 experts, block 2 multi-token prediction */
static const char *const glm4moe_tensors[] = {
	"G token_embd.weight 16 16", "G output_norm.weight 16",
	"L blk.%u.attn_norm.weight 16", "L blk.%u.attn_q.weight 16 16",
	"L blk.%u.attn_k.weight 16 8", "L blk.%u.attn_v.weight 16 8",
	"L blk.%u.attn_q.bias 16", "L blk.%u.attn_k.bias 8",
	"L blk.%u.attn_v.bias 8", "L blk.%u.attn_output.weight 16 16",
	"L blk.%u.post_attention_norm.weight 16",
	"L0-0 blk.%u.ffn_gate.weight 16 32", "L0-0 blk.%u.ffn_up.weight 16 32",
	"L0-0 blk.%u.ffn_down.weight 32 16",
	"L1-2 blk.%u.ffn_gate_inp.weight 16 4",
	"L1-2 blk.%u.exp_probs_b.bias 4",
	"L1-2 blk.%u.ffn_gate_exps.weight 16 8 4",
	"L1-2 blk.%u.ffn_up_exps.weight 16 8 4",
	"L1-2 blk.%u.ffn_down_exps.weight 8 16 4",
	"L1-2 blk.%u.ffn_gate_shexp.weight 16 8",
	"L1-2 blk.%u.ffn_up_shexp.weight 16 8",
	"L1-2 blk.%u.ffn_down_shexp.weight 8 16",
	"L2-2 blk.%u.nextn.eh_proj.weight 32 16",
	"L2-2 blk.%u.nextn.enorm.weight 16",
	"L2-2 blk.%u.nextn.hnorm.weight 16", NULL
};
/* bailingmoe2: one fused QKV, Q's and K's norms, block 0 dense, block 1
 * experts (their routing bias) and a shared expert, block 2 multi-token
 * prediction (loaded, skipped) with its own norms. */
static const char *const bailingmoe2_keys[] = {
	BASE_KEYS(16, 3), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2", "u32 ARCH.attention.head_count_kv 1",
	"f32 ARCH.attention.layer_norm_rms_epsilon 1e-5",
	"u32 ARCH.leading_dense_block_count 1", "u32 ARCH.expert_count 4",
	"u32 ARCH.expert_used_count 2", "u32 ARCH.expert_feed_forward_length 8",
	"u32 ARCH.expert_shared_count 1", "u32 ARCH.expert_gating_func 2",
	"u32 ARCH.nextn_predict_layers 1", "str tokenizer.ggml.model llama",
	NULL
};
static const char *const bailingmoe2_tensors[] = {
	"G token_embd.weight 16 16", "G output_norm.weight 16",
	"G output.weight 16 16", "L blk.%u.attn_norm.weight 16",
	"L blk.%u.attn_qkv.weight 16 32", "L blk.%u.attn_output.weight 16 16",
	"L blk.%u.attn_q_norm.weight 8", "L blk.%u.attn_k_norm.weight 8",
	"L blk.%u.ffn_norm.weight 16", "L0-0 blk.%u.ffn_gate.weight 16 32",
	"L0-0 blk.%u.ffn_up.weight 16 32", "L0-0 blk.%u.ffn_down.weight 32 16",
	"L1-2 blk.%u.ffn_gate_inp.weight 16 4",
	"L1-2 blk.%u.exp_probs_b.bias 4",
	"L1-2 blk.%u.ffn_gate_exps.weight 16 8 4",
	"L1-2 blk.%u.ffn_up_exps.weight 16 8 4",
	"L1-2 blk.%u.ffn_down_exps.weight 8 16 4",
	"L1-2 blk.%u.ffn_gate_shexp.weight 16 8",
	"L1-2 blk.%u.ffn_up_shexp.weight 16 8",
	"L1-2 blk.%u.ffn_down_shexp.weight 8 16",
	"L2-2 blk.%u.nextn.eh_proj.weight 32 16",
	"L2-2 blk.%u.nextn.enorm.weight 16",
	"L2-2 blk.%u.nextn.hnorm.weight 16",
	"L2-2 blk.%u.layer_output_norm.weight 16", NULL
};

/* dots1: K and V as wide as Q (as many heads), Q's and K's norms, block
 * 0 dense, block 1 experts (no routing bias) and a shared expert. */
static const char *const dots1_keys[] = {
	BASE_KEYS(16, 2), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2", "u32 ARCH.attention.head_count_kv 2",
	"f32 ARCH.attention.layer_norm_rms_epsilon 1e-5",
	"u32 ARCH.leading_dense_block_count 1", "u32 ARCH.expert_count 4",
	"u32 ARCH.expert_used_count 2", "u32 ARCH.expert_feed_forward_length 8",
	"u32 ARCH.expert_shared_count 1", "u32 ARCH.expert_gating_func 2",
	"str tokenizer.ggml.model llama", NULL
};
static const char *const dots1_tensors[] = {
	"G token_embd.weight 16 16", "G output_norm.weight 16",
	"G output.weight 16 16", "L blk.%u.attn_norm.weight 16",
	"L blk.%u.attn_q.weight 16 16", "L blk.%u.attn_k.weight 16 16",
	"L blk.%u.attn_v.weight 16 16", "L blk.%u.attn_output.weight 16 16",
	"L blk.%u.attn_q_norm.weight 8", "L blk.%u.attn_k_norm.weight 8",
	"L blk.%u.ffn_norm.weight 16", "L0-0 blk.%u.ffn_gate.weight 16 32",
	"L0-0 blk.%u.ffn_up.weight 16 32", "L0-0 blk.%u.ffn_down.weight 32 16",
	"L1-1 blk.%u.ffn_gate_inp.weight 16 4",
	"L1-1 blk.%u.ffn_gate_exps.weight 16 8 4",
	"L1-1 blk.%u.ffn_up_exps.weight 16 8 4",
	"L1-1 blk.%u.ffn_down_exps.weight 8 16 4",
	"L1-1 blk.%u.ffn_gate_shexp.weight 16 8",
	"L1-1 blk.%u.ffn_up_shexp.weight 16 8",
	"L1-1 blk.%u.ffn_down_shexp.weight 8 16", NULL
};

/* exaone-moe: block 0 dense, block 1 experts and a shared expert of its
 * own width, block 2 multi-token prediction: dense, nextn.*, its Q, K
 * and V left out (llama.cpp skips them, not requiring them). */
static const char *const exaone_moe_keys[] = {
	BASE_KEYS(16, 3), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2", "u32 ARCH.attention.head_count_kv 1",
	"f32 ARCH.attention.layer_norm_rms_epsilon 1e-5",
	"u32 ARCH.attention.sliding_window 8",
	"u32 ARCH.leading_dense_block_count 1", "u32 ARCH.expert_count 4",
	"u32 ARCH.expert_used_count 2", "u32 ARCH.expert_feed_forward_length 8",
	"u32 ARCH.expert_shared_feed_forward_length 12",
	"u32 ARCH.expert_gating_func 2", "u32 ARCH.nextn_predict_layers 1",
	"str tokenizer.ggml.model gpt2", NULL
};
static const char *const exaone_moe_tensors[] = {
	"G token_embd.weight 16 16", "G output_norm.weight 16",
	"G output.weight 16 16", "L blk.%u.attn_norm.weight 16",
	"L0-1 blk.%u.attn_q.weight 16 16", "L0-1 blk.%u.attn_k.weight 16 8",
	"L0-1 blk.%u.attn_v.weight 16 8", "L blk.%u.attn_output.weight 16 16",
	"L blk.%u.attn_q_norm.weight 8", "L blk.%u.attn_k_norm.weight 8",
	"L blk.%u.ffn_norm.weight 16", "L0-0 blk.%u.ffn_gate.weight 16 32",
	"L0-0 blk.%u.ffn_up.weight 16 32", "L0-0 blk.%u.ffn_down.weight 32 16",
	"L1-1 blk.%u.ffn_gate_inp.weight 16 4",
	"L1-1 blk.%u.ffn_gate_exps.weight 16 8 4",
	"L1-1 blk.%u.ffn_up_exps.weight 16 8 4",
	"L1-1 blk.%u.ffn_down_exps.weight 8 16 4",
	"L1-1 blk.%u.ffn_gate_shexp.weight 16 12",
	"L1-1 blk.%u.ffn_up_shexp.weight 16 12",
	"L1-1 blk.%u.ffn_down_shexp.weight 12 16",
	"L2-2 blk.%u.ffn_gate.weight 16 32", "L2-2 blk.%u.ffn_up.weight 16 32",
	"L2-2 blk.%u.ffn_down.weight 32 16",
	"L2-2 blk.%u.nextn.eh_proj.weight 32 16",
	"L2-2 blk.%u.nextn.enorm.weight 16",
	"L2-2 blk.%u.nextn.hnorm.weight 16", NULL
};

/* cohere2moe: cohere2's layers (no ffn_norm), block 0 dense, block 1
 * experts with gate and up fused, a shared expert; output tied. */
static const char *const cohere2moe_keys[] = {
	BASE_KEYS(16, 2), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2", "u32 ARCH.attention.head_count_kv 1",
	"f32 ARCH.attention.layer_norm_epsilon 1e-5",
	"u32 ARCH.attention.sliding_window 8", "f32 ARCH.logit_scale 0.25",
	"u32 ARCH.leading_dense_block_count 1", "u32 ARCH.expert_count 4",
	"u32 ARCH.expert_used_count 2", "u32 ARCH.expert_feed_forward_length 8",
	"u32 ARCH.expert_shared_count 1", "str tokenizer.ggml.model llama",
	NULL
};
static const char *const cohere2moe_tensors[] = {
	"G token_embd.weight 16 16", "G output_norm.weight 16",
	"L blk.%u.attn_norm.weight 16", "L blk.%u.attn_q.weight 16 16",
	"L blk.%u.attn_k.weight 16 8", "L blk.%u.attn_v.weight 16 8",
	"L blk.%u.attn_output.weight 16 16",
	"L0-0 blk.%u.ffn_gate.weight 16 32", "L0-0 blk.%u.ffn_up.weight 16 32",
	"L0-0 blk.%u.ffn_down.weight 32 16",
	"L1-1 blk.%u.ffn_gate_inp.weight 16 4",
	"L1-1 blk.%u.ffn_gate_up_exps.weight 16 16 4",
	"L1-1 blk.%u.ffn_down_exps.weight 8 16 4",
	"L1-1 blk.%u.ffn_gate_shexp.weight 16 8",
	"L1-1 blk.%u.ffn_up_shexp.weight 16 8",
	"L1-1 blk.%u.ffn_down_shexp.weight 8 16", NULL
};

/* afmoe: norms before and after attention and FFN, Q's and K's norms,
 * the attention's gate, block 0 dense, block 1 experts with their
 * routing bias and a shared expert; output tied. */
static const char *const afmoe_keys[] = {
	BASE_KEYS(16, 2), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2", "u32 ARCH.attention.head_count_kv 1",
	"f32 ARCH.attention.layer_norm_rms_epsilon 1e-5",
	"u32 ARCH.attention.sliding_window 8",
	"u32 ARCH.leading_dense_block_count 1", "u32 ARCH.expert_count 4",
	"u32 ARCH.expert_used_count 2", "u32 ARCH.expert_feed_forward_length 8",
	"u32 ARCH.expert_shared_count 1", "str tokenizer.ggml.model llama",
	NULL
};
static const char *const afmoe_tensors[] = {
	"G token_embd.weight 16 16", "G output_norm.weight 16",
	"L blk.%u.attn_norm.weight 16",
	"L blk.%u.post_attention_norm.weight 16",
	"L blk.%u.attn_q.weight 16 16", "L blk.%u.attn_k.weight 16 8",
	"L blk.%u.attn_v.weight 16 8", "L blk.%u.attn_output.weight 16 16",
	"L blk.%u.attn_q_norm.weight 8", "L blk.%u.attn_k_norm.weight 8",
	"L blk.%u.attn_gate.weight 16 16", "L blk.%u.ffn_norm.weight 16",
	"L blk.%u.post_ffw_norm.weight 16",
	"L0-0 blk.%u.ffn_gate.weight 16 32", "L0-0 blk.%u.ffn_up.weight 16 32",
	"L0-0 blk.%u.ffn_down.weight 32 16",
	"L1-1 blk.%u.ffn_gate_inp.weight 16 4",
	"L1-1 blk.%u.exp_probs_b.bias 4",
	"L1-1 blk.%u.ffn_gate_exps.weight 16 8 4",
	"L1-1 blk.%u.ffn_up_exps.weight 16 8 4",
	"L1-1 blk.%u.ffn_down_exps.weight 8 16 4",
	"L1-1 blk.%u.ffn_gate_shexp.weight 16 8",
	"L1-1 blk.%u.ffn_up_shexp.weight 16 8",
	"L1-1 blk.%u.ffn_down_shexp.weight 8 16", NULL
};

/* bailingmoe: a fused QKV of heads rope.dimension_count wide, experts
 * and a shared expert in every block. */
static const char *const bailingmoe_keys[] = {
	BASE_KEYS(16, 2), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2", "u32 ARCH.attention.head_count_kv 1",
	"f32 ARCH.attention.layer_norm_rms_epsilon 1e-5",
	"u32 ARCH.rope.dimension_count 8", "u32 ARCH.expert_count 4",
	"u32 ARCH.expert_used_count 2", "u32 ARCH.expert_feed_forward_length 8",
	"u32 ARCH.expert_shared_count 1", "str tokenizer.ggml.model llama",
	NULL
};
static const char *const bailingmoe_tensors[] = {
	"G token_embd.weight 16 16", "G output_norm.weight 16",
	"G output.weight 16 16", "L blk.%u.attn_norm.weight 16",
	"L blk.%u.attn_qkv.weight 16 32", "L blk.%u.attn_output.weight 16 16",
	"L blk.%u.ffn_norm.weight 16", "L blk.%u.ffn_gate_inp.weight 16 4",
	"L blk.%u.ffn_gate_exps.weight 16 8 4",
	"L blk.%u.ffn_up_exps.weight 16 8 4",
	"L blk.%u.ffn_down_exps.weight 8 16 4",
	"L blk.%u.ffn_gate_shexp.weight 16 8",
	"L blk.%u.ffn_up_shexp.weight 16 8",
	"L blk.%u.ffn_down_shexp.weight 8 16", NULL
};

/* dbrx: a fused QKV (Q n_embd wide), the attention output's norm,
 * experts as wide as the FFN. */
static const char *const dbrx_keys[] = {
	BASE_KEYS(16, 2), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2", "u32 ARCH.attention.head_count_kv 1",
	"f32 ARCH.attention.layer_norm_epsilon 1e-5",
	"f32 ARCH.attention.clamp_kqv 8", "u32 ARCH.expert_count 4",
	"u32 ARCH.expert_used_count 2", "str tokenizer.ggml.model gpt2", NULL
};
static const char *const dbrx_tensors[] = {
	"G token_embd.weight 16 16", "G output_norm.weight 16",
	"G output.weight 16 16", "L blk.%u.attn_norm.weight 16",
	"L blk.%u.attn_qkv.weight 16 32", "L blk.%u.attn_output.weight 16 16",
	"L blk.%u.attn_output_norm.weight 16",
	"L blk.%u.ffn_gate_inp.weight 16 4",
	"L blk.%u.ffn_gate_exps.weight 16 32 4",
	"L blk.%u.ffn_up_exps.weight 16 32 4",
	"L blk.%u.ffn_down_exps.weight 32 16 4", NULL
};

/* arctic: a dense FFN n_embd wide and experts as wide as the FFN with
 * a norm of their own; output tied. */
static const char *const arctic_keys[] = {
	BASE_KEYS(16, 2), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2", "u32 ARCH.attention.head_count_kv 1",
	"f32 ARCH.attention.layer_norm_rms_epsilon 1e-5",
	"u32 ARCH.expert_count 4", "u32 ARCH.expert_used_count 2",
	"str tokenizer.ggml.model llama", NULL
};
static const char *const arctic_tensors[] = {
	"G token_embd.weight 16 16", "G output_norm.weight 16",
	"L blk.%u.attn_norm.weight 16", "L blk.%u.attn_q.weight 16 16",
	"L blk.%u.attn_k.weight 16 8", "L blk.%u.attn_v.weight 16 8",
	"L blk.%u.attn_output.weight 16 16", "L blk.%u.ffn_norm.weight 16",
	"L blk.%u.ffn_gate.weight 16 16", "L blk.%u.ffn_up.weight 16 16",
	"L blk.%u.ffn_down.weight 16 16", "L blk.%u.ffn_gate_inp.weight 16 4",
	"L blk.%u.ffn_norm_exps.weight 16",
	"L blk.%u.ffn_gate_exps.weight 16 32 4",
	"L blk.%u.ffn_up_exps.weight 16 32 4",
	"L blk.%u.ffn_down_exps.weight 32 16 4", NULL
};

/* smallthinker: a fused QKV, experts alone. */
static const char *const smallthinker_keys[] = {
	BASE_KEYS(16, 2), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2", "u32 ARCH.attention.head_count_kv 1",
	"f32 ARCH.attention.layer_norm_rms_epsilon 1e-5",
	"u32 ARCH.attention.sliding_window 8", "u32 ARCH.expert_count 4",
	"u32 ARCH.expert_used_count 2", "u32 ARCH.expert_feed_forward_length 8",
	"u32 ARCH.expert_gating_func 1", "str tokenizer.ggml.model llama",
	NULL
};
static const char *const smallthinker_tensors[] = {
	"G token_embd.weight 16 16", "G output_norm.weight 16",
	"L blk.%u.attn_norm.weight 16", "L blk.%u.attn_qkv.weight 16 32",
	"L blk.%u.attn_output.weight 16 16", "L blk.%u.ffn_norm.weight 16",
	"L blk.%u.ffn_gate_inp.weight 16 4",
	"L blk.%u.ffn_gate_exps.weight 16 8 4",
	"L blk.%u.ffn_up_exps.weight 16 8 4",
	"L blk.%u.ffn_down_exps.weight 8 16 4", NULL
};

/* grovemoe: Q's and K's norms, experts and one chunk expert per two. */
static const char *const grovemoe_keys[] = {
	BASE_KEYS(16, 2), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2", "u32 ARCH.attention.head_count_kv 1",
	"f32 ARCH.attention.layer_norm_rms_epsilon 1e-5",
	"u32 ARCH.expert_count 4", "u32 ARCH.expert_used_count 2",
	"u32 ARCH.expert_feed_forward_length 8",
	"u32 ARCH.expert_chunk_feed_forward_length 4",
	"f32 ARCH.expert_group_scale 0.05", "u32 ARCH.experts_per_group 2",
	"str tokenizer.ggml.model gpt2", NULL
};
static const char *const grovemoe_tensors[] = {
	"G token_embd.weight 16 16", "G output_norm.weight 16",
	"L blk.%u.attn_norm.weight 16", "L blk.%u.attn_q.weight 16 16",
	"L blk.%u.attn_k.weight 16 8", "L blk.%u.attn_v.weight 16 8",
	"L blk.%u.attn_output.weight 16 16", "L blk.%u.attn_q_norm.weight 8",
	"L blk.%u.attn_k_norm.weight 8", "L blk.%u.ffn_norm.weight 16",
	"L blk.%u.ffn_gate_inp.weight 16 4",
	"L blk.%u.ffn_gate_exps.weight 16 8 4",
	"L blk.%u.ffn_up_exps.weight 16 8 4",
	"L blk.%u.ffn_down_exps.weight 8 16 4",
	"L blk.%u.ffn_gate_chexps.weight 16 4 2",
	"L blk.%u.ffn_up_chexps.weight 16 4 2",
	"L blk.%u.ffn_down_chexps.weight 4 16 2", NULL
};

/* mimo2: block 1 windowed, blocks 0 dense and 1 experts, block 2
 * multi-token prediction without Q, K and V. */
static const char *const mimo2_keys[] = {
	BASE_KEYS(16, 3), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2", "u32 ARCH.attention.head_count_kv 1",
	"f32 ARCH.attention.layer_norm_rms_epsilon 1e-5",
	"u32 ARCH.attention.sliding_window 4",
	"a32 ARCH.attention.sliding_window_pattern 0,1,0",
	"u32 ARCH.expert_count 4", "u32 ARCH.expert_used_count 2",
	"u32 ARCH.expert_feed_forward_length 8",
	"u32 ARCH.nextn_predict_layers 1", "str tokenizer.ggml.model gpt2",
	NULL
};
static const char *const mimo2_tensors[] = {
	"G token_embd.weight 16 16", "G output_norm.weight 16",
	"G output.weight 16 16", "L0-1 blk.%u.attn_q.weight 16 16",
	"L0-1 blk.%u.attn_k.weight 16 8", "L0-1 blk.%u.attn_v.weight 16 8",
	"L blk.%u.attn_output.weight 16 16", "L blk.%u.attn_norm.weight 16",
	"L blk.%u.attn_sinks.weight 2", "L blk.%u.ffn_norm.weight 16",
	"L0-0 blk.%u.ffn_gate.weight 16 32", "L0-0 blk.%u.ffn_up.weight 16 32",
	"L0-0 blk.%u.ffn_down.weight 32 16",
	"L1-2 blk.%u.ffn_gate_inp.weight 16 4",
	"L1-2 blk.%u.ffn_gate_exps.weight 16 8 4",
	"L1-2 blk.%u.ffn_up_exps.weight 16 8 4",
	"L1-2 blk.%u.ffn_down_exps.weight 8 16 4",
	"L2-2 blk.%u.nextn.eh_proj.weight 32 16",
	"L2-2 blk.%u.nextn.enorm.weight 16",
	"L2-2 blk.%u.nextn.hnorm.weight 16", NULL
};

/* hy_v3: Q's and K's norms, block 0 dense, block 1 experts (gate and
 * up fused, the routing bias without a suffix) and a shared expert. */
static const char *const hy_v3_keys[] = {
	BASE_KEYS(16, 2), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2", "u32 ARCH.attention.head_count_kv 1",
	"f32 ARCH.attention.layer_norm_rms_epsilon 1e-5",
	"u32 ARCH.expert_count 4", "u32 ARCH.expert_used_count 2",
	"u32 ARCH.expert_feed_forward_length 8",
	"str tokenizer.ggml.model gpt2", NULL
};
static const char *const hy_v3_tensors[] = {
	"G token_embd.weight 16 16", "G output_norm.weight 16",
	"L blk.%u.attn_norm.weight 16", "L blk.%u.attn_q.weight 16 16",
	"L blk.%u.attn_k.weight 16 8", "L blk.%u.attn_v.weight 16 8",
	"L blk.%u.attn_output.weight 16 16", "L blk.%u.attn_q_norm.weight 8",
	"L blk.%u.attn_k_norm.weight 8", "L blk.%u.ffn_norm.weight 16",
	"L0-0 blk.%u.ffn_gate.weight 16 32", "L0-0 blk.%u.ffn_up.weight 16 32",
	"L0-0 blk.%u.ffn_down.weight 32 16",
	"L1-1 blk.%u.ffn_gate_inp.weight 16 4", "L1-1 blk.%u.exp_probs_b 4",
	"L1-1 blk.%u.ffn_gate_up_exps.weight 16 16 4",
	"L1-1 blk.%u.ffn_down_exps.weight 8 16 4",
	"L1-1 blk.%u.ffn_gate_shexp.weight 16 8",
	"L1-1 blk.%u.ffn_up_shexp.weight 16 8",
	"L1-1 blk.%u.ffn_down_shexp.weight 8 16", NULL
};

/* minimax-m3: Q's and K's norms per head, block 0 dense, block 1
 * experts with their selection bias, a shared expert and MSA's
 * indexer. */
static const char *const minimax_m3_keys[] = {
	BASE_KEYS(16, 2), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2", "u32 ARCH.attention.head_count_kv 1",
	"f32 ARCH.attention.layer_norm_rms_epsilon 1e-5",
	"u32 ARCH.leading_dense_block_count 1", "u32 ARCH.expert_count 4",
	"u32 ARCH.expert_used_count 2", "u32 ARCH.expert_feed_forward_length 8",
	"u32 ARCH.expert_shared_count 1", "u32 ARCH.expert_gating_func 2",
	"u32 ARCH.attention.indexer.head_count 1",
	"u32 ARCH.attention.indexer.key_length 4",
	"u32 ARCH.attention.indexer.top_k 2",
	"u32 ARCH.attention.indexer.block_size 16",
	"u32 ARCH.attention.indexer.local_blocks 1",
	"str tokenizer.ggml.model gpt2", NULL
};
static const char *const minimax_m3_tensors[] = {
	"G token_embd.weight 16 16", "G output_norm.weight 16",
	"G output.weight 16 16", "L blk.%u.attn_norm.weight 16",
	"L blk.%u.attn_q.weight 16 16", "L blk.%u.attn_k.weight 16 8",
	"L blk.%u.attn_v.weight 16 8", "L blk.%u.attn_output.weight 16 16",
	"L blk.%u.attn_q_norm.weight 8", "L blk.%u.attn_k_norm.weight 8",
	"L blk.%u.ffn_norm.weight 16", "L0-0 blk.%u.ffn_gate.weight 16 32",
	"L0-0 blk.%u.ffn_up.weight 16 32", "L0-0 blk.%u.ffn_down.weight 32 16",
	"L1-1 blk.%u.ffn_gate_inp.weight 16 4",
	"L1-1 blk.%u.exp_probs_b.bias 4",
	"L1-1 blk.%u.ffn_gate_exps.weight 16 8 4",
	"L1-1 blk.%u.ffn_up_exps.weight 16 8 4",
	"L1-1 blk.%u.ffn_down_exps.weight 8 16 4",
	"L1-1 blk.%u.ffn_gate_shexp.weight 16 8",
	"L1-1 blk.%u.ffn_up_shexp.weight 16 8",
	"L1-1 blk.%u.ffn_down_shexp.weight 8 16",
	"L1-1 blk.%u.indexer.q_proj.weight 16 4",
	"L1-1 blk.%u.indexer.k_proj.weight 16 4",
	"L1-1 blk.%u.indexer.q_norm.weight 4",
	"L1-1 blk.%u.indexer.k_norm.weight 4", NULL
};

/* minimax-01: block 0 lightning attention (an interval of 2), block 1
 * softmax attention, experts without their gate product. */
static const char *const minimax_01_keys[] = {
	BASE_KEYS(16, 2), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2", "u32 ARCH.attention.head_count_kv 1",
	"f32 ARCH.attention.layer_norm_rms_epsilon 1e-5",
	"f32 ARCH.residual_scale 1", "u32 ARCH.full_attention_interval 2",
	"u32 ARCH.expert_count 4", "u32 ARCH.expert_used_count 2",
	"str tokenizer.ggml.model gpt2", NULL
};
static const char *const minimax_01_tensors[] = {
	"G token_embd.weight 16 16", "G output_norm.weight 16",
	"L blk.%u.attn_norm.weight 16",
	"L0-0 blk.%u.attn_norm_2.weight 16",
	"L0-0 blk.%u.attn_qkv.weight 16 48",
	"L0-0 blk.%u.attn_gate.weight 16 16",
	"L1-1 blk.%u.attn_q.weight 16 16", "L1-1 blk.%u.attn_k.weight 16 8",
	"L1-1 blk.%u.attn_v.weight 16 8", "L blk.%u.attn_output.weight 16 16",
	"L blk.%u.ffn_norm.weight 16", "L blk.%u.ffn_gate_inp.weight 16 4",
	"L blk.%u.ffn_up_exps.weight 16 32 4",
	"L blk.%u.ffn_down_exps.weight 32 16 4", NULL
};

/* plm: a compressed KV decompressed before the cache (2 heads of 8 + 4
 * of K, 8 of V), a squared-ReLU FFN, the output tied. */
static const char *const plm_keys[] = {
	BASE_KEYS(16, 2), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2", "u32 ARCH.attention.key_length 12",
	"u32 ARCH.attention.value_length 8", "u32 ARCH.rope.dimension_count 4",
	"u32 ARCH.attention.kv_lora_rank 8",
	"f32 ARCH.attention.layer_norm_rms_epsilon 1e-5",
	"str tokenizer.ggml.model gpt2", NULL
};
static const char *const plm_tensors[] = {
	"G token_embd.weight 16 16", "G output_norm.weight 16",
	"L blk.%u.attn_norm.weight 16", "L blk.%u.attn_q.weight 16 24",
	"L blk.%u.attn_kv_a_mqa.weight 16 12",
	"L blk.%u.attn_kv_a_norm.weight 8", "L blk.%u.attn_kv_b.weight 8 32",
	"L blk.%u.attn_output.weight 16 16", "L blk.%u.ffn_norm.weight 16",
	"L blk.%u.ffn_up.weight 16 32", "L blk.%u.ffn_down.weight 32 16", NULL
};

/* talkie: no norm weights, Q's gain a head, a scale a layer. */
static const char *const talkie_keys[] = {
	BASE_KEYS(16, 2), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2", "u32 ARCH.attention.head_count_kv 1",
	"f32 ARCH.attention.layer_norm_rms_epsilon 1e-5",
	"f32 ARCH.logit_scale 1", "str tokenizer.ggml.model gpt2", NULL
};
static const char *const talkie_tensors[] = {
	"G token_embd.weight 16 16", "G output.weight 16 16",
	"L blk.%u.attn_q.weight 16 16", "L blk.%u.attn_k.weight 16 8",
	"L blk.%u.attn_v.weight 16 8", "L blk.%u.attn_output.weight 16 16",
	"L blk.%u.attn_q_norm.weight 1 2", "L blk.%u.ffn_gate.weight 16 32",
	"L blk.%u.ffn_up.weight 16 32", "L blk.%u.ffn_down.weight 32 16",
	"L blk.%u.layer_output_scale.weight 1", NULL
};

/* maincoder: hunyuan-dense's layout. */
static const char *const maincoder_keys[] = {
	BASE_KEYS(16, 2), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2", "u32 ARCH.attention.head_count_kv 1",
	"f32 ARCH.attention.layer_norm_rms_epsilon 1e-5",
	"str tokenizer.ggml.model gpt2", NULL
};
static const char *const maincoder_tensors[] = {
	"G token_embd.weight 16 16", "G output_norm.weight 16",
	"L blk.%u.attn_norm.weight 16", "L blk.%u.attn_q.weight 16 16",
	"L blk.%u.attn_k.weight 16 8", "L blk.%u.attn_v.weight 16 8",
	"L blk.%u.attn_output.weight 16 16", "L blk.%u.attn_q_norm.weight 8",
	"L blk.%u.attn_k_norm.weight 8", "L blk.%u.ffn_norm.weight 16",
	"L blk.%u.ffn_gate.weight 16 32", "L blk.%u.ffn_up.weight 16 32",
	"L blk.%u.ffn_down.weight 32 16", NULL
};

/* mellum: qwen3moe's layout, windows in three layers of four. */
static const char *const mellum_keys[] = {
	BASE_KEYS(16, 4), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2", "u32 ARCH.attention.head_count_kv 1",
	"f32 ARCH.attention.layer_norm_rms_epsilon 1e-5",
	"u32 ARCH.attention.sliding_window 8", "u32 ARCH.expert_count 4",
	"u32 ARCH.expert_used_count 2", "u32 ARCH.expert_feed_forward_length 8",
	"str tokenizer.ggml.model gpt2", NULL
};
static const char *const mellum_tensors[] = {
	"G token_embd.weight 16 16", "G output_norm.weight 16",
	"G output.weight 16 16", "L blk.%u.attn_norm.weight 16",
	"L blk.%u.attn_q.weight 16 16", "L blk.%u.attn_k.weight 16 8",
	"L blk.%u.attn_v.weight 16 8", "L blk.%u.attn_output.weight 16 16",
	"L blk.%u.attn_q_norm.weight 8", "L blk.%u.attn_k_norm.weight 8",
	"L blk.%u.ffn_norm.weight 16", "L blk.%u.ffn_gate_inp.weight 16 4",
	"L blk.%u.ffn_gate_exps.weight 16 8 4",
	"L blk.%u.ffn_up_exps.weight 16 8 4",
	"L blk.%u.ffn_down_exps.weight 8 16 4", NULL
};

/* pangu-embedded: llama's, the attention's output bias. */
static const char *const pangu_embedded_tensors[] = {
	"G token_embd.weight 16 16", "G output_norm.weight 16",
	"L blk.%u.attn_norm.weight 16", "L blk.%u.attn_q.weight 16 16",
	"L blk.%u.attn_k.weight 16 8", "L blk.%u.attn_v.weight 16 8",
	"L blk.%u.attn_output.weight 16 16", "L blk.%u.attn_output.bias 16",
	"L blk.%u.ffn_norm.weight 16", "L blk.%u.ffn_gate.weight 16 32",
	"L blk.%u.ffn_up.weight 16 32", "L blk.%u.ffn_down.weight 32 16", NULL
};

/* spark2_5: block 0 windowed, block 1 not, a gate a head. */
static const char *const spark2_5_keys[] = {
	BASE_KEYS(16, 2), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2", "u32 ARCH.attention.head_count_kv 1",
	"f32 ARCH.attention.layer_norm_rms_epsilon 1e-5",
	"u32 ARCH.attention.sliding_window 4",
	"a32 ARCH.attention.sliding_window_pattern 1,0",
	"str tokenizer.ggml.model gpt2", NULL
};
static const char *const spark2_5_tensors[] = {
	"G token_embd.weight 16 16", "G output_norm.weight 16",
	"L blk.%u.attn_norm.weight 16", "L blk.%u.attn_q.weight 16 16",
	"L blk.%u.attn_k.weight 16 8", "L blk.%u.attn_v.weight 16 8",
	"L blk.%u.attn_gate.weight 16 2", "L blk.%u.attn_output.weight 16 16",
	"L blk.%u.ffn_norm.weight 16", "L blk.%u.ffn_gate.weight 16 32",
	"L blk.%u.ffn_up.weight 16 32", "L blk.%u.ffn_down.weight 32 16", NULL
};

/* maple: block 0 windowed and roped, block 1 not, experts. */
static const char *const maple_keys[] = {
	BASE_KEYS(16, 2), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2", "u32 ARCH.attention.head_count_kv 1",
	"f32 ARCH.attention.layer_norm_rms_epsilon 1e-5",
	"u32 ARCH.attention.sliding_window 4",
	"a32 ARCH.attention.sliding_window_pattern 1,0",
	"u32 ARCH.expert_count 4", "u32 ARCH.expert_used_count 2",
	"u32 ARCH.expert_feed_forward_length 8",
	"f32 ARCH.swiglu_clamp_exp 7", "str tokenizer.ggml.model gpt2", NULL
};
static const char *const maple_tensors[] = {
	"G token_embd.weight 16 16", "G output_norm.weight 16",
	"G output.weight 16 16", "L blk.%u.attn_norm.weight 16",
	"L blk.%u.attn_q.weight 16 16", "L blk.%u.attn_k.weight 16 8",
	"L blk.%u.attn_v.weight 16 8", "L blk.%u.attn_output.weight 16 16",
	"L blk.%u.attn_q_norm.weight 8", "L blk.%u.attn_k_norm.weight 8",
	"L blk.%u.ffn_norm.weight 16", "L blk.%u.ffn_gate_inp.weight 16 4",
	"L blk.%u.ffn_gate_exps.weight 16 8 4",
	"L blk.%u.ffn_up_exps.weight 16 8 4",
	"L blk.%u.ffn_down_exps.weight 8 16 4", NULL
};

/* muse-glimmer: four norms a layer, a gate on the attention. */
static const char *const muse_glimmer_keys[] = {
	BASE_KEYS(16, 4), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2", "u32 ARCH.attention.head_count_kv 1",
	"f32 ARCH.attention.layer_norm_rms_epsilon 1e-5",
	"u32 ARCH.attention.sliding_window 4", "f32 ARCH.logit_scale 1",
	"str tokenizer.ggml.model gpt2", NULL
};
static const char *const muse_glimmer_tensors[] = {
	"G token_embd.weight 16 16", "G output_norm.weight 16",
	"G output.weight 16 16", "L blk.%u.attn_norm.weight 16",
	"L blk.%u.post_attention_norm.weight 16",
	"L blk.%u.attn_q.weight 16 16", "L blk.%u.attn_k.weight 16 8",
	"L blk.%u.attn_v.weight 16 8", "L blk.%u.attn_output.weight 16 16",
	"L blk.%u.attn_q_norm.weight 8", "L blk.%u.attn_k_norm.weight 8",
	"L blk.%u.attn_gate.weight 16 16", "L blk.%u.ffn_norm.weight 16",
	"L blk.%u.post_ffw_norm.weight 16", "L blk.%u.ffn_gate.weight 16 32",
	"L blk.%u.ffn_up.weight 16 32", "L blk.%u.ffn_down.weight 32 16", NULL
};


static const char *const mamba2_keys[] = {
	BASE_KEYS(8, 2), "u32 ARCH.ssm.conv_kernel 4",
	"u32 ARCH.ssm.inner_size 16", "u32 ARCH.ssm.state_size 4",
	"u32 ARCH.ssm.time_step_rank 2", "u32 ARCH.ssm.group_count 2",
	"f32 ARCH.attention.layer_norm_rms_epsilon 1e-5",
	"str tokenizer.ggml.model gpt2", NULL
};
static const char *const mamba2_tensors[] = {
	"G token_embd.weight 8 16", "G output_norm.weight 8",
	"L blk.%u.attn_norm.weight 8", "L blk.%u.ssm_in.weight 8 50",
	"L blk.%u.ssm_conv1d.weight 4 32", "L blk.%u.ssm_conv1d.bias 32",
	"L blk.%u.ssm_dt.bias 2", "L blk.%u.ssm_a 1 2", "L blk.%u.ssm_d 1 2",
	"L blk.%u.ssm_norm.weight 8 2", "L blk.%u.ssm_out.weight 16 8", NULL
};

static const char *const lfm2_keys[] = {
	BASE_KEYS(16, 2), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2",
	"a32 ARCH.attention.head_count_kv 0,1",
	"f32 ARCH.attention.layer_norm_rms_epsilon 1e-5",
	"u32 ARCH.shortconv.l_cache 3", "str tokenizer.ggml.model llama", NULL
};
/* block 0 a convolution (0 KV heads), block 1 attention */
static const char *const lfm2_tensors[] = {
	"G token_embd.weight 16 16", "G token_embd_norm.weight 16",
	"L blk.%u.attn_norm.weight 16", "L blk.%u.ffn_norm.weight 16",
	"L blk.%u.ffn_gate.weight 16 32", "L blk.%u.ffn_up.weight 16 32",
	"L blk.%u.ffn_down.weight 32 16",
	"L0-0 blk.%u.shortconv.conv.weight 3 16",
	"L0-0 blk.%u.shortconv.in_proj.weight 16 48",
	"L0-0 blk.%u.shortconv.out_proj.weight 16 16",
	"L1-1 blk.%u.attn_q_norm.weight 8", "L1-1 blk.%u.attn_k_norm.weight 8",
	"L1-1 blk.%u.attn_q.weight 16 16", "L1-1 blk.%u.attn_k.weight 16 8",
	"L1-1 blk.%u.attn_v.weight 16 8",
	"L1-1 blk.%u.attn_output.weight 16 16", NULL
};

/* lfm2moe: lfm2's blocks, block 0 dense, block 1 experts with their
 * selection bias */
static const char *const lfm2moe_keys[] = {
	BASE_KEYS(16, 2), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2",
	"a32 ARCH.attention.head_count_kv 0,1",
	"f32 ARCH.attention.layer_norm_rms_epsilon 1e-5",
	"u32 ARCH.shortconv.l_cache 3", "u32 ARCH.leading_dense_block_count 1",
	"u32 ARCH.expert_feed_forward_length 8", "u32 ARCH.expert_count 4",
	"u32 ARCH.expert_used_count 2", "u32 ARCH.expert_gating_func 2",
	"str tokenizer.ggml.model llama", NULL
};
static const char *const lfm2moe_tensors[] = {
	"G token_embd.weight 16 16", "G token_embd_norm.weight 16",
	"L blk.%u.attn_norm.weight 16", "L blk.%u.ffn_norm.weight 16",
	"L0-0 blk.%u.ffn_gate.weight 16 32", "L0-0 blk.%u.ffn_up.weight 16 32",
	"L0-0 blk.%u.ffn_down.weight 32 16",
	"L0-0 blk.%u.shortconv.conv.weight 3 16",
	"L0-0 blk.%u.shortconv.in_proj.weight 16 48",
	"L0-0 blk.%u.shortconv.out_proj.weight 16 16",
	"L1-1 blk.%u.ffn_gate_inp.weight 16 4",
	"L1-1 blk.%u.exp_probs_b.bias 4",
	"L1-1 blk.%u.ffn_gate_exps.weight 16 8 4",
	"L1-1 blk.%u.ffn_up_exps.weight 16 8 4",
	"L1-1 blk.%u.ffn_down_exps.weight 8 16 4",
	"L1-1 blk.%u.attn_q_norm.weight 8", "L1-1 blk.%u.attn_k_norm.weight 8",
	"L1-1 blk.%u.attn_q.weight 16 16", "L1-1 blk.%u.attn_k.weight 16 8",
	"L1-1 blk.%u.attn_v.weight 16 8",
	"L1-1 blk.%u.attn_output.weight 16 16", NULL
};

/* deepseek32: deepseek2's MLA (split K and V decompression) and the DSA
 * indexer in every block, one dense block, then experts. */
static const char *const deepseek32_keys[] = {
	BASE_KEYS(16, 3), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2", "u32 ARCH.attention.head_count_kv 1",
	"u32 ARCH.attention.key_length 12", "u32 ARCH.attention.value_length 8",
	"u32 ARCH.attention.key_length_mla 12",
	"u32 ARCH.attention.value_length_mla 8",
	"u32 ARCH.attention.q_lora_rank 8", "u32 ARCH.attention.kv_lora_rank 8",
	"u32 ARCH.attention.indexer.head_count 2",
	"u32 ARCH.attention.indexer.key_length 4",
	"u32 ARCH.attention.indexer.top_k 8", "u32 ARCH.rope.dimension_count 4",
	"f32 ARCH.attention.layer_norm_rms_epsilon 1e-6",
	"u32 ARCH.leading_dense_block_count 1", "u32 ARCH.expert_count 4",
	"u32 ARCH.expert_used_count 2", "u32 ARCH.expert_gating_func 2",
	"u32 ARCH.expert_feed_forward_length 8",
	"u32 ARCH.expert_shared_count 1", "str tokenizer.ggml.model gpt2",
	NULL
};
static const char *const deepseek32_tensors[] = {
	"G token_embd.weight 16 16", "G output_norm.weight 16",
	"L blk.%u.attn_norm.weight 16", "L blk.%u.attn_q_a_norm.weight 8",
	"L blk.%u.attn_q_a.weight 16 8", "L blk.%u.attn_q_b.weight 8 24",
	"L blk.%u.attn_kv_a_mqa.weight 16 12",
	"L blk.%u.attn_kv_a_norm.weight 8", "L blk.%u.attn_k_b.weight 8 8 2",
	"L blk.%u.attn_v_b.weight 8 8 2", "L blk.%u.attn_output.weight 16 16",
	"L blk.%u.ffn_norm.weight 16", "L blk.%u.indexer.k_norm.weight 4",
	"L blk.%u.indexer.k_norm.bias 4", "L blk.%u.indexer.proj.weight 16 2",
	"L blk.%u.indexer.attn_k.weight 16 4",
	"L blk.%u.indexer.attn_q_b.weight 8 8",
	"L0-0 blk.%u.ffn_gate.weight 16 32", "L0-0 blk.%u.ffn_up.weight 16 32",
	"L0-0 blk.%u.ffn_down.weight 32 16",
	"L1-2 blk.%u.ffn_gate_inp.weight 16 4",
	"L1-2 blk.%u.exp_probs_b.bias 4",
	"L1-2 blk.%u.ffn_gate_exps.weight 16 8 4",
	"L1-2 blk.%u.ffn_up_exps.weight 16 8 4",
	"L1-2 blk.%u.ffn_down_exps.weight 8 16 4",
	"L1-2 blk.%u.ffn_gate_shexp.weight 16 8",
	"L1-2 blk.%u.ffn_up_shexp.weight 16 8",
	"L1-2 blk.%u.ffn_down_shexp.weight 8 16", NULL
};

/* deepseek4: blocks without compression, at 4 (the indexer) and at
 * 128; 2 hyper-connections, 2 output groups; the first block's experts
 * routed by token id; an MTP layer by its key, but without its head, so
 * that llama.cpp loads the last block as a trunk block */
static const char *const deepseek4_keys[] = {
	BASE_KEYS(16, 3), "u32 ARCH.attention.head_count 2",
	"u32 ARCH.attention.head_count_kv 1", "u32 ARCH.attention.key_length 8",
	"u32 ARCH.attention.value_length 8", "u32 ARCH.rope.dimension_count 4",
	"f32 ARCH.attention.layer_norm_rms_epsilon 1e-6",
	"u32 ARCH.attention.q_lora_rank 8",
	"u32 ARCH.attention.sliding_window 4",
	"a32 ARCH.attention.compress_ratios 0,4,128",
	"f32 ARCH.attention.compress_rope_freq_base 160000",
	"u32 ARCH.attention.output_group_count 2",
	"u32 ARCH.attention.output_lora_rank 4",
	"u32 ARCH.attention.indexer.head_count 2",
	"u32 ARCH.attention.indexer.key_length 4",
	"u32 ARCH.attention.indexer.top_k 8", "u32 ARCH.expert_count 4",
	"u32 ARCH.expert_used_count 2", "u32 ARCH.expert_feed_forward_length 8",
	"u32 ARCH.expert_shared_count 1", "f32 ARCH.expert_weights_scale 1.5",
	"bool ARCH.expert_weights_norm 1", "u32 ARCH.expert_gating_func 4",
	"f32 ARCH.swiglu_clamp_exp 10", "u32 ARCH.hyper_connection.count 2",
	"u32 ARCH.hyper_connection.sinkhorn_iterations 20",
	"f32 ARCH.hyper_connection.epsilon 1e-6", "u32 ARCH.hash_layer_count 1",
	"u32 ARCH.nextn_predict_layers 1", "str tokenizer.ggml.model gpt2",
	NULL
};
#define DEEPSEEK4_TENSORS \
	"G token_embd.weight 16 16", "G output_norm.weight 16", \
	"G output.weight 16 16", "G output_hc_fn.weight 32 2", \
	"G output_hc_base.weight 2", "G output_hc_scale.weight 1", \
	"L blk.%u.attn_norm.weight 16", "L blk.%u.attn_sinks.weight 2", \
	"L blk.%u.attn_q_a.weight 16 8", "L blk.%u.attn_q_a_norm.weight 8", \
	"L blk.%u.attn_q_b.weight 8 16", "L blk.%u.attn_kv.weight 16 8", \
	"L blk.%u.attn_kv_a_norm.weight 8", \
	"L blk.%u.attn_output_a.weight 8 8", \
	"L blk.%u.attn_output_b.weight 8 16", \
	"L blk.%u.hc_attn_fn.weight 32 8", \
	"L blk.%u.hc_attn_base.weight 8", "L blk.%u.hc_attn_scale.weight 3", \
	"L blk.%u.hc_ffn_fn.weight 32 8", "L blk.%u.hc_ffn_base.weight 8", \
	"L blk.%u.hc_ffn_scale.weight 3", \
	"L1-1 blk.%u.attn_compressor_kv.weight 16 16", \
	"L1-1 blk.%u.attn_compressor_gate.weight 16 16", \
	"L1-1 blk.%u.attn_compressor_ape.weight 16 4", \
	"L1-2 blk.%u.attn_compressor_norm.weight 8", \
	"L1-1 blk.%u.indexer.proj.weight 16 2", \
	"L1-1 blk.%u.indexer.attn_q_b.weight 8 8", \
	"L1-1 blk.%u.indexer_compressor_kv.weight 16 8", \
	"L1-1 blk.%u.indexer_compressor_gate.weight 16 8", \
	"L1-1 blk.%u.indexer_compressor_ape.weight 8 4", \
	"L1-1 blk.%u.indexer_compressor_norm.weight 4", \
	"L2-2 blk.%u.attn_compressor_kv.weight 16 8", \
	"L2-2 blk.%u.attn_compressor_gate.weight 16 8", \
	"L2-2 blk.%u.attn_compressor_ape.weight 8 128", \
	"L blk.%u.ffn_norm.weight 16", "L blk.%u.ffn_gate_inp.weight 16 4", \
	"L0-0 blk.%u.ffn_gate_tid2eid.weight 2 16", \
	"L1-2 blk.%u.exp_probs_b.bias 4", \
	"L blk.%u.ffn_gate_exps.weight 16 8 4", \
	"L blk.%u.ffn_up_exps.weight 16 8 4", \
	"L blk.%u.ffn_down_exps.weight 8 16 4", \
	"L blk.%u.ffn_gate_shexp.weight 16 8", \
	"L blk.%u.ffn_up_shexp.weight 16 8", \
	"L blk.%u.ffn_down_shexp.weight 8 16"
static const char *const deepseek4_tensors[] = { DEEPSEEK4_TENSORS, NULL };
/* the same with an MTP tensor of the last block, which llama.cpp
 * loads as a trunk block without its eh_proj: it refuses the file */
static const char *const deepseek4_stray_nextn_tensors[] = {
	DEEPSEEK4_TENSORS, "L2-2 blk.%u.nextn.enorm.weight 16", NULL
};

/* graniteswitch: granite's keys, 2 adapters of rank 4 (3 LoRA slots a
 * product); the router's layer has no tensors, and a per-layer array
 * has block_count entries, not the router's one more */
static const char *const graniteswitch_keys[] = { BASE_KEYS(16, 2),
	"u32 ARCH.feed_forward_length 32", "u32 ARCH.attention.head_count 2",
	"u32 ARCH.attention.head_count_kv 1",
	"f32 ARCH.attention.layer_norm_rms_epsilon 1e-5",
	"f32 ARCH.logit_scale 8", "u32 ARCH.adapters.count 2",
	"u32 ARCH.adapters.lora_rank 4", "a32 ARCH.expert_used_count 0,0",
	"a32 ARCH.adapters.token_ids_activate 14,15",
	"a32 ARCH.adapters.token_ids_substitute 1,2",
	"str tokenizer.ggml.model llama", NULL };
static const char *const graniteswitch_tensors[] = {
	"G token_embd.weight 16 16", "G output_norm.weight 16",
	"L blk.%u.attn_norm.weight 16", "L blk.%u.attn_qkv.weight 16 32",
	"L blk.%u.attn_output.weight 16 16", "L blk.%u.ffn_norm.weight 16",
	DENSE_FFN, "L blk.%u.attn_q.lora_a 16 4 3",
	"L blk.%u.attn_q.lora_b 4 16 3", "L blk.%u.attn_k.lora_a 16 4 3",
	"L blk.%u.attn_k.lora_b 4 8 3", "L blk.%u.attn_v.lora_a 16 4 3",
	"L blk.%u.attn_v.lora_b 4 8 3", "L blk.%u.attn_output.lora_a 16 4 3",
	"L blk.%u.attn_output.lora_b 4 16 3",
	"L blk.%u.ffn_gate.lora_a 16 4 3", "L blk.%u.ffn_gate.lora_b 4 32 3",
	"L blk.%u.ffn_up.lora_a 16 4 3", "L blk.%u.ffn_up.lora_b 4 32 3",
	"L blk.%u.ffn_down.lora_a 32 4 3", "L blk.%u.ffn_down.lora_b 4 16 3",
	NULL
};

/* minicpm3: a low-rank query, a compressed KV and its one decompression
 * (2 heads: K 12 wide, its RoPE part 4, V 8) */
static const char *const minicpm3_keys[] = {
	BASE_KEYS(16, 2), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2", "u32 ARCH.attention.key_length 12",
	"u32 ARCH.attention.value_length 8", "u32 ARCH.rope.dimension_count 4",
	"u32 ARCH.attention.q_lora_rank 8", "u32 ARCH.attention.kv_lora_rank 8",
	"f32 ARCH.attention.layer_norm_rms_epsilon 1e-5",
	"str tokenizer.ggml.model llama", NULL
};
static const char *const minicpm3_tensors[] = {
	"G token_embd.weight 16 16", "G output_norm.weight 16",
	"G output.weight 16 16", "G rope_factors_long.weight 2",
	"L blk.%u.attn_norm.weight 16", "L blk.%u.attn_q_a_norm.weight 8",
	"L blk.%u.attn_q_a.weight 16 8", "L blk.%u.attn_q_b.weight 8 24",
	"L blk.%u.attn_kv_a_mqa.weight 16 12",
	"L blk.%u.attn_kv_a_norm.weight 8", "L blk.%u.attn_kv_b.weight 8 32",
	"L blk.%u.attn_output.weight 16 16", "L blk.%u.ffn_norm.weight 16",
	"L blk.%u.ffn_gate.weight 16 32", "L blk.%u.ffn_up.weight 16 32",
	"L blk.%u.ffn_down.weight 32 16", NULL
};

/* deepseek: llama's attention, one dense block, then experts and a
 * shared one */
static const char *const deepseek_keys[] = {
	BASE_KEYS(16, 3), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2", "u32 ARCH.attention.head_count_kv 1",
	"u32 ARCH.rope.dimension_count 8",
	"f32 ARCH.attention.layer_norm_rms_epsilon 1e-6",
	"u32 ARCH.leading_dense_block_count 1", "u32 ARCH.expert_count 4",
	"u32 ARCH.expert_used_count 2",
	"u32 ARCH.expert_feed_forward_length 8",
	"u32 ARCH.expert_shared_count 1", "str tokenizer.ggml.model gpt2",
	NULL
};
static const char *const deepseek_tensors[] = {
	"G token_embd.weight 16 16", "G output_norm.weight 16",
	"L blk.%u.attn_norm.weight 16", "L blk.%u.attn_q.weight 16 16",
	"L blk.%u.attn_k.weight 16 8", "L blk.%u.attn_v.weight 16 8",
	"L blk.%u.attn_output.weight 16 16", "L blk.%u.ffn_norm.weight 16",
	"L0-0 blk.%u.ffn_gate.weight 16 32", "L0-0 blk.%u.ffn_up.weight 16 32",
	"L0-0 blk.%u.ffn_down.weight 32 16",
	"L1-2 blk.%u.ffn_gate_inp.weight 16 4",
	"L1-2 blk.%u.ffn_gate_exps.weight 16 8 4",
	"L1-2 blk.%u.ffn_up_exps.weight 16 8 4",
	"L1-2 blk.%u.ffn_down_exps.weight 8 16 4",
	"L1-2 blk.%u.ffn_gate_shexp.weight 16 8",
	"L1-2 blk.%u.ffn_up_shexp.weight 16 8",
	"L1-2 blk.%u.ffn_down_shexp.weight 8 16", NULL
};

/* deepseek2-ocr: deepseek's, its K and V as wide as its queries */
static const char *const deepseek2ocr_tensors[] = {
	"G token_embd.weight 16 16", "G output_norm.weight 16",
	"L blk.%u.attn_norm.weight 16", "L blk.%u.attn_q.weight 16 16",
	"L blk.%u.attn_k.weight 16 16", "L blk.%u.attn_v.weight 16 16",
	"L blk.%u.attn_output.weight 16 16", "L blk.%u.ffn_norm.weight 16",
	"L0-0 blk.%u.ffn_gate.weight 16 32", "L0-0 blk.%u.ffn_up.weight 16 32",
	"L0-0 blk.%u.ffn_down.weight 32 16",
	"L1-2 blk.%u.ffn_gate_inp.weight 16 4",
	"L1-2 blk.%u.exp_probs_b.bias 4",
	"L1-2 blk.%u.ffn_gate_up_exps.weight 16 16 4",
	"L1-2 blk.%u.ffn_down_exps.weight 8 16 4",
	"L1-2 blk.%u.ffn_gate_shexp.weight 16 8",
	"L1-2 blk.%u.ffn_up_shexp.weight 16 8",
	"L1-2 blk.%u.ffn_down_shexp.weight 8 16", NULL
};

static const char *const granitehybrid_keys[] = {
	BASE_KEYS(8, 2), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2",
	"a32 ARCH.attention.head_count_kv 0,1",
	"f32 ARCH.attention.layer_norm_rms_epsilon 1e-5",
	"u32 ARCH.ssm.conv_kernel 4", "u32 ARCH.ssm.inner_size 16",
	"u32 ARCH.ssm.state_size 4", "u32 ARCH.ssm.time_step_rank 2",
	"u32 ARCH.ssm.group_count 1", "str tokenizer.ggml.model gpt2", NULL
};
/* block 0 mamba2 (0 KV heads), block 1 attention */
static const char *const granitehybrid_tensors[] = {
	"G token_embd.weight 8 16", "G output_norm.weight 8",
	"L blk.%u.attn_norm.weight 8", "L blk.%u.ffn_norm.weight 8",
	"L blk.%u.ffn_gate.weight 8 32", "L blk.%u.ffn_up.weight 8 32",
	"L blk.%u.ffn_down.weight 32 8",
	"L0-0 blk.%u.ssm_in.weight 8 42", "L0-0 blk.%u.ssm_conv1d.weight 4 24",
	"L0-0 blk.%u.ssm_conv1d.bias 24", "L0-0 blk.%u.ssm_dt.bias 2",
	"L0-0 blk.%u.ssm_a 1 2", "L0-0 blk.%u.ssm_d 1 2",
	"L0-0 blk.%u.ssm_norm.weight 16 1", "L0-0 blk.%u.ssm_out.weight 16 8",
	"L1-1 blk.%u.attn_q.weight 8 8", "L1-1 blk.%u.attn_k.weight 8 4",
	"L1-1 blk.%u.attn_v.weight 8 4", "L1-1 blk.%u.attn_output.weight 8 8",
	NULL
};

static const char *const qwen35_keys[] = {
	BASE_KEYS(8, 2), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2", "u32 ARCH.attention.head_count_kv 1",
	"f32 ARCH.attention.layer_norm_rms_epsilon 1e-5",
	"u32 ARCH.full_attention_interval 2",
	"u32 ARCH.ssm.conv_kernel 4", "u32 ARCH.ssm.inner_size 8",
	"u32 ARCH.ssm.state_size 4", "u32 ARCH.ssm.time_step_rank 2",
	"u32 ARCH.ssm.group_count 1", "str tokenizer.ggml.model gpt2", NULL
};
/* block 0 Gated DeltaNet, block 1 attention (an interval of 2) */
static const char *const qwen35_tensors[] = {
	"G token_embd.weight 8 16", "G output_norm.weight 8",
	"L blk.%u.attn_norm.weight 8", "L blk.%u.post_attention_norm.weight 8",
	"L blk.%u.ffn_gate.weight 8 32", "L blk.%u.ffn_up.weight 8 32",
	"L blk.%u.ffn_down.weight 32 8",
	"L0-0 blk.%u.attn_qkv.weight 8 16", "L0-0 blk.%u.attn_gate.weight 8 8",
	"L0-0 blk.%u.ssm_conv1d.weight 4 16", "L0-0 blk.%u.ssm_dt.bias 2",
	"L0-0 blk.%u.ssm_a 2", "L0-0 blk.%u.ssm_beta.weight 8 2",
	"L0-0 blk.%u.ssm_alpha.weight 8 2", "L0-0 blk.%u.ssm_norm.weight 4",
	"L0-0 blk.%u.ssm_out.weight 8 8",
	"L1-1 blk.%u.attn_q.weight 8 16", "L1-1 blk.%u.attn_k.weight 8 4",
	"L1-1 blk.%u.attn_v.weight 8 4", "L1-1 blk.%u.attn_output.weight 8 8",
	"L1-1 blk.%u.attn_q_norm.weight 4", "L1-1 blk.%u.attn_k_norm.weight 4",
	NULL
};

#define QWEN3NEXT_KEYS \
	BASE_KEYS(8, 2), "u32 ARCH.feed_forward_length 32", \
	"u32 ARCH.attention.head_count 2", \
	"u32 ARCH.attention.head_count_kv 1", \
	"f32 ARCH.attention.layer_norm_rms_epsilon 1e-5", \
	"u32 ARCH.full_attention_interval 2", "u32 ARCH.ssm.conv_kernel 4", \
	"u32 ARCH.ssm.inner_size 8", "u32 ARCH.ssm.state_size 4", \
	"u32 ARCH.ssm.time_step_rank 2", "u32 ARCH.ssm.group_count 1", \
	"u32 ARCH.expert_count 4", "u32 ARCH.expert_used_count 2", \
	"u32 ARCH.expert_feed_forward_length 8", \
	"u32 ARCH.expert_shared_feed_forward_length 16", \
	"str tokenizer.ggml.model gpt2"
static const char *const qwen3next_keys[] = { QWEN3NEXT_KEYS, NULL };
#define QWEN3NEXT_FFN \
	"L blk.%u.ffn_gate_inp.weight 8 4", \
	"L blk.%u.ffn_gate_exps.weight 8 8 4", \
	"L blk.%u.ffn_up_exps.weight 8 8 4", \
	"L blk.%u.ffn_down_exps.weight 8 8 4", \
	"L blk.%u.ffn_gate_inp_shexp.weight 8", \
	"L blk.%u.ffn_gate_shexp.weight 8 16", \
	"L blk.%u.ffn_up_shexp.weight 8 16", \
	"L blk.%u.ffn_down_shexp.weight 16 8"
#define QWEN35_ATTN \
	"G token_embd.weight 8 16", "G output_norm.weight 8", \
	"L blk.%u.attn_norm.weight 8", \
	"L blk.%u.post_attention_norm.weight 8", \
	"L1-1 blk.%u.attn_q.weight 8 16", "L1-1 blk.%u.attn_k.weight 8 4", \
	"L1-1 blk.%u.attn_v.weight 8 4", \
	"L1-1 blk.%u.attn_output.weight 8 8", \
	"L1-1 blk.%u.attn_q_norm.weight 4", \
	"L1-1 blk.%u.attn_k_norm.weight 4", \
	"L0-0 blk.%u.attn_qkv.weight 8 16", \
	"L0-0 blk.%u.attn_gate.weight 8 8", \
	"L0-0 blk.%u.ssm_conv1d.weight 4 16", "L0-0 blk.%u.ssm_dt.bias 2", \
	"L0-0 blk.%u.ssm_a 2", "L0-0 blk.%u.ssm_norm.weight 4", \
	"L0-0 blk.%u.ssm_out.weight 8 8"
/* block 0 Gated DeltaNet (beta and alpha in one), block 1 attention */
static const char *const qwen3next_tensors[] = {
	QWEN35_ATTN, QWEN3NEXT_FFN, "L0-0 blk.%u.ssm_ba.weight 8 4", NULL
};
/* qwen35moe: qwen35's layers, qwen3next's experts */
static const char *const qwen35moe_tensors[] = {
	QWEN35_ATTN, QWEN3NEXT_FFN, "L0-0 blk.%u.ssm_beta.weight 8 2",
	"L0-0 blk.%u.ssm_alpha.weight 8 2", NULL
};

#define NEMOTRON_H_KEYS(ff, kv) \
	BASE_KEYS(8, 3), "a32 ARCH.feed_forward_length " ff, \
	"u32 ARCH.attention.head_count 2", \
	"a32 ARCH.attention.head_count_kv " kv, \
	"f32 ARCH.attention.layer_norm_epsilon 1e-5", \
	"u32 ARCH.ssm.conv_kernel 4", "u32 ARCH.ssm.inner_size 16", \
	"u32 ARCH.ssm.state_size 4", "u32 ARCH.ssm.time_step_rank 2", \
	"u32 ARCH.ssm.group_count 1", "str tokenizer.ggml.model gpt2"
#define NEMOTRON_H_SSM(l) \
	"L" l "-" l " blk.%u.ssm_in.weight 8 42", \
	"L" l "-" l " blk.%u.ssm_conv1d.weight 4 24", \
	"L" l "-" l " blk.%u.ssm_conv1d.bias 24", \
	"L" l "-" l " blk.%u.ssm_dt.bias 2", "L" l "-" l " blk.%u.ssm_a 1 2", \
	"L" l "-" l " blk.%u.ssm_d 1 2", \
	"L" l "-" l " blk.%u.ssm_norm.weight 16 1", \
	"L" l "-" l " blk.%u.ssm_out.weight 16 8"
#define NEMOTRON_H_ATTN(l) \
	"L" l "-" l " blk.%u.attn_q.weight 8 8", \
	"L" l "-" l " blk.%u.attn_k.weight 8 4", \
	"L" l "-" l " blk.%u.attn_v.weight 8 4", \
	"L" l "-" l " blk.%u.attn_output.weight 8 8"
static const char *const nemotron_h_keys[] = {
	NEMOTRON_H_KEYS("0,0,32", "0,1,0"), NULL
};
/* block 0 Mamba-2, block 1 attention, block 2 a feed-forward */
static const char *const nemotron_h_tensors[] = {
	"G token_embd.weight 8 16", "G output_norm.weight 8",
	"L blk.%u.attn_norm.weight 8", NEMOTRON_H_SSM("0"),
	NEMOTRON_H_ATTN("1"), "L2-2 blk.%u.ffn_up.weight 8 32",
	"L2-2 blk.%u.ffn_down.weight 32 8", NULL
};
static const char *const nemotron_h_moe_keys[] = {
	NEMOTRON_H_KEYS("32,0,0", "0,0,1"), "u32 ARCH.expert_count 4",
	"u32 ARCH.expert_used_count 2", "u32 ARCH.expert_feed_forward_length 8",
	"u32 ARCH.expert_shared_feed_forward_length 16", NULL
};
/* block 0 experts, block 1 Mamba-2, block 2 attention */
static const char *const nemotron_h_moe_tensors[] = {
	"G token_embd.weight 8 16", "G output_norm.weight 8",
	"L blk.%u.attn_norm.weight 8", "L0-0 blk.%u.ffn_gate_inp.weight 8 4",
	"L0-0 blk.%u.exp_probs_b.bias 4",
	"L0-0 blk.%u.ffn_down_exps.weight 8 8 4",
	"L0-0 blk.%u.ffn_up_exps.weight 8 8 4",
	"L0-0 blk.%u.ffn_down_shexp.weight 16 8",
	"L0-0 blk.%u.ffn_up_shexp.weight 8 16", NEMOTRON_H_SSM("1"),
	NEMOTRON_H_ATTN("2"), NULL
};

static const char *const falcon_h1_keys[] = {
	BASE_KEYS(8, 2), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2", "u32 ARCH.attention.head_count_kv 1",
	"f32 ARCH.attention.layer_norm_rms_epsilon 1e-5",
	"u32 ARCH.ssm.conv_kernel 4", "u32 ARCH.ssm.inner_size 16",
	"u32 ARCH.ssm.state_size 4", "u32 ARCH.ssm.time_step_rank 2",
	"u32 ARCH.ssm.group_count 1", "str tokenizer.ggml.model gpt2", NULL
};
/* every block Mamba-2 and attention */
static const char *const falcon_h1_tensors[] = {
	"G token_embd.weight 8 16", "G output_norm.weight 8",
	"L blk.%u.attn_norm.weight 8", NEMOTRON_H_SSM("0"),
	NEMOTRON_H_SSM("1"), "L blk.%u.attn_q.weight 8 8",
	"L blk.%u.attn_k.weight 8 4", "L blk.%u.attn_v.weight 8 4",
	"L blk.%u.attn_output.weight 8 8", "L blk.%u.ffn_norm 8",
	"L blk.%u.ffn_gate.weight 8 32", "L blk.%u.ffn_up.weight 8 32",
	"L blk.%u.ffn_down.weight 32 8", NULL
};

static const char *const kimi_linear_keys[] = {
	BASE_KEYS(8, 2), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2",
	"a32 ARCH.attention.head_count_kv 0,1",
	"f32 ARCH.attention.layer_norm_rms_epsilon 1e-5",
	"u32 ARCH.attention.key_length 6", "u32 ARCH.attention.value_length 4",
	"u32 ARCH.attention.key_length_mla 6",
	"u32 ARCH.attention.value_length_mla 4",
	"u32 ARCH.attention.kv_lora_rank 4", "u32 ARCH.rope.dimension_count 2",
	"u32 ARCH.ssm.conv_kernel 4", "u32 ARCH.kda.head_dim 4",
	"u32 ARCH.leading_dense_block_count 1", "u32 ARCH.expert_count 4",
	"u32 ARCH.expert_used_count 2", "u32 ARCH.expert_feed_forward_length 8",
	"u32 ARCH.expert_shared_count 1", "u32 ARCH.expert_gating_func 2",
	"str tokenizer.ggml.model gpt2", NULL
};
/* block 0 KDA and dense, block 1 MLA and experts */
static const char *const kimi_linear_tensors[] = {
	"G token_embd.weight 8 16", "G output_norm.weight 8",
	"G output.weight 8 16", "L blk.%u.attn_norm.weight 8",
	"L blk.%u.ffn_norm.weight 8", "L0-0 blk.%u.ssm_conv1d_q.weight 4 1 8",
	"L0-0 blk.%u.ssm_conv1d_k.weight 4 1 8",
	"L0-0 blk.%u.ssm_conv1d_v.weight 4 1 8",
	"L0-0 blk.%u.attn_q.weight 8 8", "L0-0 blk.%u.attn_k.weight 8 8",
	"L0-0 blk.%u.attn_v.weight 8 8", "L0-0 blk.%u.ssm_f_a.weight 8 4",
	"L0-0 blk.%u.ssm_f_b.weight 4 8", "L0-0 blk.%u.ssm_beta.weight 8 2",
	"L0-0 blk.%u.ssm_a 1 2", "L0-0 blk.%u.ssm_dt.bias 8",
	"L0-0 blk.%u.ssm_g_a.weight 8 4", "L0-0 blk.%u.ssm_g_b.weight 4 8",
	"L0-0 blk.%u.ssm_norm.weight 4", "L blk.%u.attn_output.weight 8 8",
	"L1-1 blk.%u.attn_q.weight 8 12",
	"L1-1 blk.%u.attn_kv_a_norm.weight 4",
	"L1-1 blk.%u.attn_kv_a_mqa.weight 8 6",
	"L1-1 blk.%u.attn_k_b.weight 4 4 2",
	"L1-1 blk.%u.attn_v_b.weight 4 4 2",
	"L0-0 blk.%u.ffn_gate.weight 8 32", "L0-0 blk.%u.ffn_up.weight 8 32",
	"L0-0 blk.%u.ffn_down.weight 32 8",
	"L1-1 blk.%u.ffn_gate_inp.weight 8 4",
	"L1-1 blk.%u.ffn_gate_exps.weight 8 8 4",
	"L1-1 blk.%u.ffn_up_exps.weight 8 8 4",
	"L1-1 blk.%u.ffn_down_exps.weight 8 8 4",
	"L1-1 blk.%u.exp_probs_b.bias 4",
	"L1-1 blk.%u.ffn_gate_shexp.weight 8 8",
	"L1-1 blk.%u.ffn_up_shexp.weight 8 8",
	"L1-1 blk.%u.ffn_down_shexp.weight 8 8", NULL
};

/* kimi-k3: kimi-linear's blocks with a full-rank KDA gate, an MLA output
 * gate, the residuals' scores, experts in a latent space of 4 */
static const char *const kimi_k3_keys[] = {
	BASE_KEYS(8, 2), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2",
	"a32 ARCH.attention.head_count_kv 0,1",
	"f32 ARCH.attention.layer_norm_rms_epsilon 1e-5",
	"u32 ARCH.attention.key_length_mla 6",
	"u32 ARCH.attention.value_length_mla 4",
	"u32 ARCH.attention.kv_lora_rank 4", "u32 ARCH.rope.dimension_count 2",
	"u32 ARCH.ssm.conv_kernel 4", "u32 ARCH.kda.head_dim 4",
	"u32 ARCH.leading_dense_block_count 1", "u32 ARCH.expert_count 4",
	"u32 ARCH.expert_used_count 2", "u32 ARCH.expert_feed_forward_length 8",
	"u32 ARCH.expert_shared_count 1", "u32 ARCH.expert_gating_func 2",
	"u32 ARCH.expert_latent_length 4", "u32 ARCH.attn_res.block_size 2",
	"f32 ARCH.activation.situ_beta 1",
	"f32 ARCH.activation.situ_linear_beta 1",
	"str tokenizer.ggml.model gpt2", NULL
};
static const char *const kimi_k3_tensors[] = {
	"G token_embd.weight 8 16", "G output_norm.weight 8",
	"G output.weight 8 16", "G output_res_score.weight 8",
	"L blk.%u.attn_norm.weight 8", "L blk.%u.ffn_norm.weight 8",
	"L blk.%u.attn_res_score.weight 8", "L blk.%u.ffn_res_score.weight 8",
	"L0-0 blk.%u.ssm_conv1d_q.weight 4 1 8",
	"L0-0 blk.%u.ssm_conv1d_k.weight 4 1 8",
	"L0-0 blk.%u.ssm_conv1d_v.weight 4 1 8",
	"L0-0 blk.%u.attn_q.weight 8 8", "L0-0 blk.%u.attn_k.weight 8 8",
	"L0-0 blk.%u.attn_v.weight 8 8", "L0-0 blk.%u.ssm_f_a.weight 8 4",
	"L0-0 blk.%u.ssm_f_b.weight 4 8", "L0-0 blk.%u.ssm_beta.weight 8 2",
	"L0-0 blk.%u.ssm_a 2", "L0-0 blk.%u.ssm_dt.bias 8",
	"L0-0 blk.%u.ssm_g.weight 8 8", "L0-0 blk.%u.ssm_norm.weight 4",
	"L blk.%u.attn_output.weight 8 8", "L1-1 blk.%u.attn_q.weight 8 12",
	"L1-1 blk.%u.attn_kv_a_norm.weight 4",
	"L1-1 blk.%u.attn_kv_a_mqa.weight 8 6",
	"L1-1 blk.%u.attn_k_b.weight 4 4 2",
	"L1-1 blk.%u.attn_v_b.weight 4 4 2",
	"L1-1 blk.%u.attn_gate.weight 8 8",
	"L0-0 blk.%u.ffn_gate.weight 8 32", "L0-0 blk.%u.ffn_up.weight 8 32",
	"L0-0 blk.%u.ffn_down.weight 32 8",
	"L1-1 blk.%u.ffn_gate_inp.weight 8 4",
	"L1-1 blk.%u.ffn_gate_exps.weight 4 8 4",
	"L1-1 blk.%u.ffn_up_exps.weight 4 8 4",
	"L1-1 blk.%u.ffn_down_exps.weight 8 4 4",
	"L1-1 blk.%u.ffn_routed_down.weight 8 4",
	"L1-1 blk.%u.ffn_routed_up.weight 4 8",
	"L1-1 blk.%u.exp_probs_b.bias 4",
	"L1-1 blk.%u.ffn_gate_shexp.weight 8 8",
	"L1-1 blk.%u.ffn_up_shexp.weight 8 8",
	"L1-1 blk.%u.ffn_down_shexp.weight 8 8", NULL
};

static const char *const gemma4_keys[] = {
	BASE_KEYS(8, 3), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2", "u32 ARCH.attention.head_count_kv 1",
	"f32 ARCH.attention.layer_norm_rms_epsilon 1e-5",
	"u32 ARCH.attention.key_length 4", "u32 ARCH.attention.value_length 4",
	"u32 ARCH.attention.key_length_swa 2",
	"u32 ARCH.attention.value_length_swa 2",
	"u32 ARCH.attention.sliding_window 4",
	"a32 ARCH.attention.sliding_window_pattern 1,0,1",
	"u32 ARCH.attention.shared_kv_layers 1",
	"u32 ARCH.embedding_length_per_layer_input 0",
	"str tokenizer.ggml.model llama", NULL
};
/* blocks 0 and 2 windowed (2-wide heads), 1 full (4-wide); block 2
 * reuses block 0's cache: no attn_k */
static const char *const gemma4_tensors[] = {
	"G token_embd.weight 8 16", "G output_norm.weight 8",
	"G rope_freqs.weight 2", "L blk.%u.attn_norm.weight 8",
	"L blk.%u.post_attention_norm.weight 8", "L blk.%u.ffn_norm.weight 8",
	"L blk.%u.ffn_gate.weight 8 32", "L blk.%u.ffn_up.weight 8 32",
	"L blk.%u.ffn_down.weight 32 8", "L blk.%u.post_ffw_norm.weight 8",
	"L0-0 blk.%u.attn_q.weight 8 4", "L0-0 blk.%u.attn_k.weight 8 2",
	"L0-0 blk.%u.attn_output.weight 4 8",
	"L0-0 blk.%u.attn_q_norm.weight 2", "L0-0 blk.%u.attn_k_norm.weight 2",
	"L1-1 blk.%u.attn_q.weight 8 8", "L1-1 blk.%u.attn_k.weight 8 4",
	"L1-1 blk.%u.attn_output.weight 8 8",
	"L1-1 blk.%u.attn_q_norm.weight 4", "L1-1 blk.%u.attn_k_norm.weight 4",
	"L2-2 blk.%u.attn_q.weight 8 4", "L2-2 blk.%u.attn_output.weight 4 8",
	"L2-2 blk.%u.attn_q_norm.weight 2", NULL
};

/* gemma3's layers as an encoder: a window in every layer, no cache */
static const char *const gemma_embedding_keys[] = {
	BASE_KEYS(16, 2), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2", "u32 ARCH.attention.head_count_kv 1",
	"u32 ARCH.attention.key_length 16",
	"u32 ARCH.attention.value_length 16",
	"u32 ARCH.attention.sliding_window 4",
	"f32 ARCH.attention.layer_norm_rms_epsilon 1e-6",
	"str tokenizer.ggml.model llama", NULL
};
static const char *const gemma_embedding_tensors[] = {
	"G token_embd.weight 16 16", "G output_norm.weight 16",
	"L blk.%u.attn_norm.weight 16", "L blk.%u.attn_q.weight 16 32",
	"L blk.%u.attn_k.weight 16 16", "L blk.%u.attn_v.weight 16 16",
	"L blk.%u.attn_q_norm.weight 16", "L blk.%u.attn_k_norm.weight 16",
	"L blk.%u.attn_output.weight 32 16",
	"L blk.%u.post_attention_norm.weight 16",
	"L blk.%u.ffn_norm.weight 16", "L blk.%u.ffn_gate.weight 16 32",
	"L blk.%u.ffn_up.weight 16 32", "L blk.%u.ffn_down.weight 32 16",
	"L blk.%u.post_ffw_norm.weight 16", NULL
};

static const char *const gemma3n_keys[] = {
	BASE_KEYS(16, 2), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2", "u32 ARCH.attention.head_count_kv 1",
	"f32 ARCH.attention.layer_norm_rms_epsilon 1e-5",
	"u32 ARCH.attention.sliding_window 4",
	"str tokenizer.ggml.model llama", NULL
};
/* 256-wide per-layer inputs, 4 AltUp streams, LAuReL rank 64 */
static const char *const gemma3n_tensors[] = {
	"G token_embd.weight 16 16", "G output_norm.weight 16",
	"G altup_proj.weight 16 16 3", "G altup_unembd_proj.weight 16 16 3",
	"G per_layer_token_embd.weight 512 16",
	"G per_layer_model_proj.weight 16 512",
	"G per_layer_proj_norm.weight 256",
	"L blk.%u.attn_norm.weight 16", "L blk.%u.attn_q.weight 16 16",
	"L blk.%u.attn_k.weight 16 8", "L blk.%u.attn_v.weight 16 8",
	"L blk.%u.attn_output.weight 16 16", "L blk.%u.attn_q_norm.weight 8",
	"L blk.%u.attn_k_norm.weight 8",
	"L blk.%u.post_attention_norm.weight 16",
	"L blk.%u.ffn_norm.weight 16", "L blk.%u.ffn_gate.weight 16 32",
	"L blk.%u.ffn_up.weight 16 32", "L blk.%u.ffn_down.weight 32 16",
	"L blk.%u.post_ffw_norm.weight 16", "L blk.%u.inp_gate.weight 16 256",
	"L blk.%u.proj.weight 256 16", "L blk.%u.post_norm.weight 16",
	"L blk.%u.altup_correct_coef.weight 4 4",
	"L blk.%u.altup_correct_scale.weight 16",
	"L blk.%u.altup_predict_coef.weight 4 16",
	"L blk.%u.altup_router.weight 16 4",
	"L blk.%u.altup_router_norm.weight 16",
	"L blk.%u.laurel_l.weight 16 64", "L blk.%u.laurel_r.weight 64 16",
	"L blk.%u.laurel_post_norm.weight 16", NULL
};

/* glm4: norms after the attention and the FFN, one doubled ffn_up; block
 * 2 an MTP layer (nextn.*, its q, k, v left out). */
static const char *const glm4_keys[] = {
	BASE_KEYS(16, 3), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2", "u32 ARCH.attention.head_count_kv 1",
	"f32 ARCH.attention.layer_norm_rms_epsilon 1e-5",
	"u32 ARCH.nextn_predict_layers 1", "str tokenizer.ggml.model gpt2",
	NULL
};
static const char *const glm4_tensors[] = {
	"G token_embd.weight 16 16", "G output_norm.weight 16",
	"G output.weight 16 16", "L blk.%u.attn_norm.weight 16",
	"L0-1 blk.%u.attn_q.weight 16 16", "L0-1 blk.%u.attn_k.weight 16 8",
	"L0-1 blk.%u.attn_v.weight 16 8", "L0-1 blk.%u.attn_q.bias 16",
	"L0-1 blk.%u.attn_k.bias 8", "L0-1 blk.%u.attn_v.bias 8",
	"L blk.%u.attn_output.weight 16 16",
	"L blk.%u.post_attention_norm.weight 16",
	"L blk.%u.ffn_norm.weight 16", "L blk.%u.ffn_up.weight 16 64",
	"L blk.%u.ffn_down.weight 32 16", "L blk.%u.post_ffw_norm.weight 16",
	"L2-2 blk.%u.nextn.eh_proj.weight 32 16",
	"L2-2 blk.%u.nextn.enorm.weight 16",
	"L2-2 blk.%u.nextn.hnorm.weight 16", NULL
};

/* arcee: llama's attention, an FFN of up, ReLU squared, down (no
 * gate); output tied to token_embd. */
static const char *const arcee_tensors[] = { "G token_embd.weight 16 16",
	"G output_norm.weight 16", "L blk.%u.attn_norm.weight 16", DENSE_QKV,
	"L blk.%u.ffn_norm.weight 16", "L blk.%u.ffn_up.weight 16 32",
	"L blk.%u.ffn_down.weight 32 16", NULL };

/* apertus: Q's and K's norms, an FFN of up, xIELU, down (no gate);
 * xIELU's keys unprefixed, one float each. */
static const char *const apertus_keys[] = {
	BASE_KEYS(16, 2), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2", "u32 ARCH.attention.head_count_kv 1",
	"f32 ARCH.attention.layer_norm_rms_epsilon 1e-5",
	"f32 xielu.alpha_n 0.8", "f32 xielu.alpha_p 0.8", "f32 xielu.beta 0.5",
	"f32 xielu.eps 1e-6", "str tokenizer.ggml.model gpt2", NULL
};
static const char *const apertus_tensors[] = { "G token_embd.weight 16 16",
	"G output_norm.weight 16", "G output.weight 16 16",
	"L blk.%u.attn_norm.weight 16", DENSE_QKV,
	"L blk.%u.attn_q_norm.weight 8", "L blk.%u.attn_k_norm.weight 8",
	"L blk.%u.ffn_norm.weight 16", "L blk.%u.ffn_up.weight 16 32",
	"L blk.%u.ffn_down.weight 32 16", NULL };

/* internlm2, baichuan, xverse: llama's layout (Q as wide as the
 * embedding), output required. */
static const char *const dense_out_tensors[] = { "G token_embd.weight 16 16",
	"G output_norm.weight 16", "G output.weight 16 16",
	"L blk.%u.attn_norm.weight 16", DENSE_QKV,
	"L blk.%u.ffn_norm.weight 16", DENSE_FFN, NULL };





/* orion: layer norms with biases, llama's attention and SwiGLU. */
static const char *const orion_keys[] = { BASE_KEYS(16, 2),
	"u32 ARCH.feed_forward_length 32", "u32 ARCH.attention.head_count 2",
	"u32 ARCH.attention.head_count_kv 1",
	"f32 ARCH.attention.layer_norm_epsilon 1e-5",
	"str tokenizer.ggml.model llama", NULL };
static const char *const orion_tensors[] = { "G token_embd.weight 16 16",
	"G output_norm.weight 16", "G output_norm.bias 16",
	"G output.weight 16 16", "L blk.%u.attn_norm.weight 16",
	"L blk.%u.attn_norm.bias 16", DENSE_QKV, "L blk.%u.ffn_norm.weight 16",
	"L blk.%u.ffn_norm.bias 16", DENSE_FFN, NULL };

/* nemotron: orion's norms, an FFN of up, ReLU squared, down. */
static const char *const nemotron_tensors[] = { "G token_embd.weight 16 16",
	"G output_norm.weight 16", "G output_norm.bias 16",
	"G output.weight 16 16", "L blk.%u.attn_norm.weight 16",
	"L blk.%u.attn_norm.bias 16", DENSE_QKV, "L blk.%u.ffn_norm.weight 16",
	"L blk.%u.ffn_norm.bias 16", "L blk.%u.ffn_up.weight 16 32",
	"L blk.%u.ffn_down.weight 32 16", NULL };

/* granite_swa: granite's layers, each with its sinks; the first layer's
 * attention in a sliding window, the second's not roped. */
static const char *const granite_swa_keys[] = { BASE_KEYS(16, 2),
	"u32 ARCH.feed_forward_length 32", "u32 ARCH.attention.head_count 2",
	"u32 ARCH.attention.head_count_kv 1",
	"f32 ARCH.attention.layer_norm_rms_epsilon 1e-5",
	"f32 ARCH.logit_scale 8", "u32 ARCH.attention.sliding_window 4",
	"a32 ARCH.attention.sliding_window_pattern 1,0",
	"a32 ARCH.attention.rope_pattern 1,0",
	"str tokenizer.ggml.model gpt2", NULL };
static const char *const granite_swa_tensors[] = {
	"G token_embd.weight 16 16", "G output_norm.weight 16",
	"L blk.%u.attn_norm.weight 16", DENSE_QKV,
	"L blk.%u.attn_sinks.weight 2", "L blk.%u.ffn_norm.weight 16",
	DENSE_FFN, NULL };

/* phi2: one norm for the attention and the FFN (up, GELU, down), every
 * bias required. */
static const char *const phi2_tensors[] = { "G token_embd.weight 16 16",
	"G output_norm.weight 16", "G output_norm.bias 16",
	"G output.weight 16 16", "G output.bias 16",
	"L blk.%u.attn_norm.weight 16", "L blk.%u.attn_norm.bias 16",
	"L blk.%u.attn_qkv.weight 16 32", "L blk.%u.attn_qkv.bias 32",
	"L blk.%u.attn_output.weight 16 16", "L blk.%u.attn_output.bias 16",
	"L blk.%u.ffn_up.weight 16 32", "L blk.%u.ffn_up.bias 32",
	"L blk.%u.ffn_down.weight 32 16", "L blk.%u.ffn_down.bias 16", NULL };

/* gptneox: layer norms, one fused QKV, up, GELU, down, every bias
 * required; the attention and the FFN side by side. */
static const char *const gptneox_keys[] = { BASE_KEYS(16, 2),
	"u32 ARCH.feed_forward_length 32", "u32 ARCH.attention.head_count 2",
	"u32 ARCH.attention.head_count_kv 1",
	"f32 ARCH.attention.layer_norm_epsilon 1e-5",
	"bool ARCH.use_parallel_residual 1", "str tokenizer.ggml.model gpt2",
	NULL };
static const char *const gptneox_tensors[] = { "G token_embd.weight 16 16",
	"G output_norm.weight 16", "G output_norm.bias 16",
	"G output.weight 16 16", "L blk.%u.attn_norm.weight 16",
	"L blk.%u.attn_norm.bias 16", "L blk.%u.attn_qkv.weight 16 32",
	"L blk.%u.attn_qkv.bias 32", "L blk.%u.attn_output.weight 16 16",
	"L blk.%u.attn_output.bias 16", "L blk.%u.ffn_norm.weight 16",
	"L blk.%u.ffn_norm.bias 16", "L blk.%u.ffn_up.weight 16 32",
	"L blk.%u.ffn_up.bias 32", "L blk.%u.ffn_down.weight 32 16",
	"L blk.%u.ffn_down.bias 16", NULL };

/* starcoder: gpt2's layout, learned positions (32 trained), output
 * tied. */
static const char *const starcoder_tensors[] = { "G token_embd.weight 16 16",
	"G position_embd.weight 16 32", "G output_norm.weight 16",
	"G output_norm.bias 16", "L blk.%u.attn_norm.weight 16",
	"L blk.%u.attn_norm.bias 16", "L blk.%u.attn_qkv.weight 16 32",
	"L blk.%u.attn_qkv.bias 32", "L blk.%u.attn_output.weight 16 16",
	"L blk.%u.attn_output.bias 16", "L blk.%u.ffn_norm.weight 16",
	"L blk.%u.ffn_norm.bias 16", "L blk.%u.ffn_up.weight 16 32",
	"L blk.%u.ffn_up.bias 32", "L blk.%u.ffn_down.weight 32 16",
	"L blk.%u.ffn_down.bias 16", NULL };

/* bloom: the embeddings normed, no positions, output tied. */
static const char *const bloom_tensors[] = { "G token_embd.weight 16 16",
	"G token_embd_norm.weight 16", "G token_embd_norm.bias 16",
	"G output_norm.weight 16", "G output_norm.bias 16",
	"L blk.%u.attn_norm.weight 16", "L blk.%u.attn_norm.bias 16",
	"L blk.%u.attn_qkv.weight 16 32", "L blk.%u.attn_qkv.bias 32",
	"L blk.%u.attn_output.weight 16 16", "L blk.%u.attn_output.bias 16",
	"L blk.%u.ffn_norm.weight 16", "L blk.%u.ffn_norm.bias 16",
	"L blk.%u.ffn_up.weight 16 32", "L blk.%u.ffn_up.bias 32",
	"L blk.%u.ffn_down.weight 32 16", "L blk.%u.ffn_down.bias 16", NULL };

/* mpt: layer norms and one fused QKV without biases, up, GELU, down; no
 * positions; output tied. */
static const char *const mpt_tensors[] = { "G token_embd.weight 16 16",
	"G output_norm.weight 16", "L blk.%u.attn_norm.weight 16",
	"L blk.%u.attn_qkv.weight 16 32", "L blk.%u.attn_output.weight 16 16",
	"L blk.%u.ffn_norm.weight 16", "L blk.%u.ffn_up.weight 16 32",
	"L blk.%u.ffn_down.weight 32 16", NULL };

/* qwen: one fused QKV of three times the embedding with its bias, a
 * SwiGLU FFN half feed_forward_length (64 here), output required. */
static const char *const qwen_keys[] = { BASE_KEYS(16, 2),
	"u32 ARCH.feed_forward_length 64", "u32 ARCH.attention.head_count 2",
	"f32 ARCH.attention.layer_norm_rms_epsilon 1e-5",
	"str tokenizer.ggml.model gpt2", NULL };
static const char *const qwen_tensors[] = { "G token_embd.weight 16 16",
	"G output_norm.weight 16", "G output.weight 16 16",
	"L blk.%u.attn_norm.weight 16", "L blk.%u.attn_qkv.weight 16 48",
	"L blk.%u.attn_qkv.bias 48", "L blk.%u.attn_output.weight 16 16",
	"L blk.%u.ffn_norm.weight 16", DENSE_FFN, NULL };

/* codeshell: layer norms, separate q, k, v, up, GELU, down, the
 * attention's output and the FFN's biases. */
static const char *const codeshell_tensors[] = { "G token_embd.weight 16 16",
	"G output_norm.weight 16", "G output_norm.bias 16",
	"G output.weight 16 16", "L blk.%u.attn_norm.weight 16",
	"L blk.%u.attn_norm.bias 16", DENSE_QKV,
	"L blk.%u.attn_output.bias 16", "L blk.%u.ffn_norm.weight 16",
	"L blk.%u.ffn_norm.bias 16", "L blk.%u.ffn_up.weight 16 32",
	"L blk.%u.ffn_up.bias 32", "L blk.%u.ffn_down.weight 32 16",
	"L blk.%u.ffn_down.bias 16", NULL };

/* RWKV: 8 wide, heads of 4; the time mix's low ranks 2 and 4 */
#define RWKV_KEYS BASE_KEYS(8, 2), "u32 ARCH.feed_forward_length 16", \
	"u32 ARCH.wkv.head_size 4", "str tokenizer.ggml.model gpt2"
#define RWKV6_KEYS RWKV_KEYS, "u32 ARCH.time_mix_extra_dim 2", \
	"u32 ARCH.time_decay_extra_dim 4"
#define RWKV6_MIX \
	"L blk.%u.time_mix_w1.weight 8 10", \
	"L blk.%u.time_mix_w2.weight 2 8 5", \
	"L blk.%u.time_mix_lerp_x.weight 8 1 1", \
	"L blk.%u.time_mix_lerp_fused.weight 8 1 1 5", \
	"L blk.%u.time_mix_decay.weight 8", \
	"L blk.%u.time_mix_decay_w1.weight 8 4", \
	"L blk.%u.time_mix_decay_w2.weight 4 8", \
	"L blk.%u.time_mix_key.weight 8 8", \
	"L blk.%u.time_mix_value.weight 8 8", \
	"L blk.%u.time_mix_receptance.weight 8 8", \
	"L blk.%u.time_mix_gate.weight 8 8", \
	"L blk.%u.time_mix_output.weight 8 8"
#define RWKV_LN_NORMS \
	"G token_embd.weight 8 16", "G token_embd_norm.weight 8", \
	"G token_embd_norm.bias 8", "G output_norm.weight 8", \
	"G output_norm.bias 8", "G output.weight 8 16", \
	"L blk.%u.attn_norm.weight 8", "L blk.%u.attn_norm.bias 8", \
	"L blk.%u.attn_norm_2.weight 8", "L blk.%u.attn_norm_2.bias 8", \
	"L blk.%u.time_mix_ln.weight 8", "L blk.%u.time_mix_ln.bias 8"
#define RWKV_QWEN2_BODY \
	"G token_embd.weight 8 16", "G output_norm.weight 8", \
	"G output.weight 8 16", "L blk.%u.attn_norm.weight 8", \
	"L blk.%u.ffn_norm.weight 8", "L blk.%u.ffn_gate.weight 8 16", \
	"L blk.%u.ffn_up.weight 8 16", "L blk.%u.ffn_down.weight 16 8"
static const char *const rwkv6_keys[] = {
	RWKV6_KEYS, "f32 ARCH.attention.layer_norm_epsilon 1e-5", NULL
};
static const char *const rwkv6_tensors[] = {
	RWKV_LN_NORMS, RWKV6_MIX, "L blk.%u.time_mix_first.weight 4 2",
	"L blk.%u.channel_mix_lerp_k.weight 8 1 1",
	"L blk.%u.channel_mix_lerp_r.weight 8 1 1",
	"L blk.%u.channel_mix_key.weight 8 16",
	"L blk.%u.channel_mix_value.weight 16 8",
	"L blk.%u.channel_mix_receptance.weight 8 8", NULL
};
static const char *const rwkv6qwen2_keys[] = {
	RWKV6_KEYS, "u32 ARCH.token_shift_count 1",
	"f32 ARCH.attention.layer_norm_rms_epsilon 1e-5", NULL
};
static const char *const rwkv6qwen2_tensors[] = {
	RWKV_QWEN2_BODY, RWKV6_MIX, NULL
};
#define RWKV7_KEYS RWKV_KEYS, "u32 ARCH.attention.decay_lora_rank 4", \
	"u32 ARCH.attention.iclr_lora_rank 4", \
	"u32 ARCH.attention.value_residual_mix_lora_rank 2", \
	"u32 ARCH.attention.gate_lora_rank 4"
/* layer 0's value pair is iclr_lora_rank wide, the others' the value
 * residual's */
#define RWKV7_MIX \
	"L blk.%u.time_mix_w0.weight 8", "L blk.%u.time_mix_w1.weight 8 4", \
	"L blk.%u.time_mix_w2.weight 4 8", "L blk.%u.time_mix_a0.weight 8", \
	"L blk.%u.time_mix_a1.weight 8 4", "L blk.%u.time_mix_a2.weight 4 8", \
	"L blk.%u.time_mix_v0.weight 8", \
	"L0-0 blk.%u.time_mix_v1.weight 8 4", \
	"L0-0 blk.%u.time_mix_v2.weight 4 8", \
	"L1-1 blk.%u.time_mix_v1.weight 8 2", \
	"L1-1 blk.%u.time_mix_v2.weight 2 8", \
	"L blk.%u.time_mix_g1.weight 8 4", "L blk.%u.time_mix_g2.weight 4 8", \
	"L blk.%u.time_mix_lerp_fused.weight 8 1 1 6", \
	"L blk.%u.time_mix_k_k.weight 8", "L blk.%u.time_mix_k_a.weight 8", \
	"L blk.%u.time_mix_r_k.weight 8", \
	"L blk.%u.time_mix_key.weight 8 8", \
	"L blk.%u.time_mix_value.weight 8 8", \
	"L blk.%u.time_mix_receptance.weight 8 8", \
	"L blk.%u.time_mix_output.weight 8 8"
static const char *const rwkv7_keys[] = {
	RWKV7_KEYS, "f32 ARCH.attention.layer_norm_epsilon 1e-5", NULL
};
static const char *const rwkv7_tensors[] = {
	RWKV_LN_NORMS, RWKV7_MIX, "L blk.%u.channel_mix_lerp_k.weight 8 1 1",
	"L blk.%u.channel_mix_key.weight 8 16",
	"L blk.%u.channel_mix_value.weight 16 8", NULL
};
static const char *const arwkv7_keys[] = {
	RWKV7_KEYS, "u32 ARCH.token_shift_count 1",
	"f32 ARCH.attention.layer_norm_rms_epsilon 1e-5", NULL
};
static const char *const arwkv7_tensors[] = {
	RWKV_QWEN2_BODY, RWKV7_MIX, NULL
};
/* jamba: block 0 Mamba with its dt, B and C norms, block 1 attention */
static const char *const jamba_keys[] = {
	BASE_KEYS(8, 2), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2",
	"a32 ARCH.attention.head_count_kv 0,1",
	"f32 ARCH.attention.layer_norm_rms_epsilon 1e-5",
	"u32 ARCH.ssm.conv_kernel 4", "u32 ARCH.ssm.inner_size 16",
	"u32 ARCH.ssm.state_size 4", "u32 ARCH.ssm.time_step_rank 2",
	"str tokenizer.ggml.model gpt2", NULL
};
static const char *const jamba_tensors[] = {
	"G token_embd.weight 8 16", "G output_norm.weight 8",
	"L blk.%u.attn_norm.weight 8", "L blk.%u.ffn_norm.weight 8",
	"L blk.%u.ffn_gate.weight 8 32", "L blk.%u.ffn_up.weight 8 32",
	"L blk.%u.ffn_down.weight 32 8", "L0-0 blk.%u.ssm_in.weight 8 32",
	"L0-0 blk.%u.ssm_conv1d.weight 4 16", "L0-0 blk.%u.ssm_conv1d.bias 16",
	"L0-0 blk.%u.ssm_x.weight 16 10", "L0-0 blk.%u.ssm_dt_norm.weight 2",
	"L0-0 blk.%u.ssm_dt.weight 2 16", "L0-0 blk.%u.ssm_dt.bias 16",
	"L0-0 blk.%u.ssm_b_norm.weight 4", "L0-0 blk.%u.ssm_c_norm.weight 4",
	"L0-0 blk.%u.ssm_a 4 16", "L0-0 blk.%u.ssm_d 16",
	"L0-0 blk.%u.ssm_out.weight 16 8", "L1-1 blk.%u.attn_q.weight 8 8",
	"L1-1 blk.%u.attn_k.weight 8 4", "L1-1 blk.%u.attn_v.weight 8 4",
	"L1-1 blk.%u.attn_output.weight 8 8", NULL
};

/* deci: block 0 attention and an FFN, block 1 a linear attention
 * without an FFN */
static const char *const deci_keys[] = {
	BASE_KEYS(16, 2), "a32 ARCH.feed_forward_length 32,0",
	"a32 ARCH.attention.head_count 2,2",
	"a32 ARCH.attention.head_count_kv 1,0",
	"f32 ARCH.attention.layer_norm_rms_epsilon 1e-5",
	"str tokenizer.ggml.model llama", NULL
};
static const char *const deci_tensors[] = {
	"G token_embd.weight 16 16", "G output_norm.weight 16",
	"L blk.%u.attn_norm.weight 16", "L blk.%u.attn_output.weight 16 16",
	"L0-0 blk.%u.attn_q.weight 16 16", "L0-0 blk.%u.attn_k.weight 16 8",
	"L0-0 blk.%u.attn_v.weight 16 8", "L0-0 blk.%u.ffn_norm.weight 16",
	"L0-0 blk.%u.ffn_gate.weight 16 32", "L0-0 blk.%u.ffn_up.weight 16 32",
	"L0-0 blk.%u.ffn_down.weight 32 16", NULL
};

/* chatglm: a fused QKV with its bias, up twice the FFN's width */
static const char *const chatglm_tensors[] = {
	"G token_embd.weight 16 16", "G output_norm.weight 16",
	"L blk.%u.attn_norm.weight 16", "L blk.%u.attn_qkv.weight 16 32",
	"L blk.%u.attn_qkv.bias 32", "L blk.%u.attn_output.weight 16 16",
	"L blk.%u.ffn_norm.weight 16", "L blk.%u.ffn_up.weight 16 64",
	"L blk.%u.ffn_down.weight 32 16", NULL
};

/* grok: norms after the attention and the FFN, experts */
static const char *const grok_keys[] = {
	BASE_KEYS(16, 2), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2", "u32 ARCH.attention.head_count_kv 1",
	"f32 ARCH.attention.layer_norm_rms_epsilon 1e-5",
	"u32 ARCH.expert_count 4", "u32 ARCH.expert_used_count 2",
	"u32 ARCH.expert_feed_forward_length 8",
	"str tokenizer.ggml.model gpt2", NULL
};
static const char *const grok_tensors[] = {
	"G token_embd.weight 16 16", "G output_norm.weight 16",
	"L blk.%u.attn_norm.weight 16", "L blk.%u.attn_q.weight 16 16",
	"L blk.%u.attn_k.weight 16 8", "L blk.%u.attn_v.weight 16 8",
	"L blk.%u.attn_output.weight 16 16",
	"L blk.%u.attn_output_norm.weight 16", "L blk.%u.ffn_norm.weight 16",
	"L blk.%u.ffn_gate_inp.weight 16 4",
	"L blk.%u.ffn_gate_exps.weight 16 8 4",
	"L blk.%u.ffn_up_exps.weight 16 8 4",
	"L blk.%u.ffn_down_exps.weight 8 16 4",
	"L blk.%u.post_ffw_norm.weight 16", NULL
};

/* jais: layer norms, a fused QKV, a gated FFN, every bias */
static const char *const jais_keys[] = {
	BASE_KEYS(16, 2), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2", "u32 ARCH.attention.head_count_kv 1",
	"f32 ARCH.attention.layer_norm_epsilon 1e-5",
	"str tokenizer.ggml.model gpt2", NULL
};
static const char *const jais_tensors[] = {
	"G token_embd.weight 16 16", "G output_norm.weight 16",
	"G output_norm.bias 16", "G output.weight 16 16",
	"L blk.%u.attn_norm.weight 16", "L blk.%u.attn_norm.bias 16",
	"L blk.%u.attn_qkv.weight 16 32", "L blk.%u.attn_qkv.bias 32",
	"L blk.%u.attn_output.weight 16 16", "L blk.%u.attn_output.bias 16",
	"L blk.%u.ffn_norm.weight 16", "L blk.%u.ffn_norm.bias 16",
	"L blk.%u.ffn_gate.weight 16 32", "L blk.%u.ffn_gate.bias 32",
	"L blk.%u.ffn_up.weight 16 32", "L blk.%u.ffn_up.bias 32",
	"L blk.%u.ffn_down.weight 32 16", "L blk.%u.ffn_down.bias 16", NULL
};

/* jais2: layer norms, separate Q, K and V, up and down with biases */
static const char *const jais2_tensors[] = {
	"G token_embd.weight 16 16", "G output_norm.weight 16",
	"G output_norm.bias 16", "L blk.%u.attn_norm.weight 16",
	"L blk.%u.attn_norm.bias 16", "L blk.%u.attn_q.weight 16 16",
	"L blk.%u.attn_k.weight 16 8", "L blk.%u.attn_v.weight 16 8",
	"L blk.%u.attn_output.weight 16 16", "L blk.%u.attn_output.bias 16",
	"L blk.%u.ffn_norm.weight 16", "L blk.%u.ffn_norm.bias 16",
	"L blk.%u.ffn_up.weight 16 32", "L blk.%u.ffn_up.bias 32",
	"L blk.%u.ffn_down.weight 32 16", "L blk.%u.ffn_down.bias 16", NULL
};

/* openelm: 2 and 4 heads of 4, 1 and 2 KV heads, FFNs 32 and 48 */
static const char *const openelm_keys[] = {
	BASE_KEYS(16, 2), "a32 ARCH.feed_forward_length 32,48",
	"a32 ARCH.attention.head_count 2,4",
	"a32 ARCH.attention.head_count_kv 1,2",
	"u32 ARCH.attention.key_length 4", "u32 ARCH.attention.value_length 4",
	"f32 ARCH.attention.layer_norm_rms_epsilon 1e-5",
	"str tokenizer.ggml.model llama", NULL
};
static const char *const openelm_tensors[] = {
	"G token_embd.weight 16 16", "G output_norm.weight 16",
	"L blk.%u.attn_norm.weight 16", "L blk.%u.attn_q_norm.weight 4",
	"L blk.%u.attn_k_norm.weight 4", "L blk.%u.ffn_norm.weight 16",
	"L0-0 blk.%u.attn_qkv.weight 16 16",
	"L0-0 blk.%u.attn_output.weight 8 16",
	"L0-0 blk.%u.ffn_gate.weight 16 32", "L0-0 blk.%u.ffn_up.weight 16 32",
	"L0-0 blk.%u.ffn_down.weight 32 16",
	"L1-1 blk.%u.attn_qkv.weight 16 32",
	"L1-1 blk.%u.attn_output.weight 16 16",
	"L1-1 blk.%u.ffn_gate.weight 16 48", "L1-1 blk.%u.ffn_up.weight 16 48",
	"L1-1 blk.%u.ffn_down.weight 48 16", NULL
};

/* plamo: attention and FFN on one norm, an output of its own */
static const char *const plamo_tensors[] = {
	"G token_embd.weight 16 16", "G output_norm.weight 16",
	"G output.weight 16 16", "L blk.%u.attn_norm.weight 16",
	"L blk.%u.attn_q.weight 16 16", "L blk.%u.attn_k.weight 16 8",
	"L blk.%u.attn_v.weight 16 8", "L blk.%u.attn_output.weight 16 16",
	"L blk.%u.ffn_gate.weight 16 32", "L blk.%u.ffn_up.weight 16 32",
	"L blk.%u.ffn_down.weight 32 16", NULL
};

/* plamo3: a fused QKV, Q's and K's norms, the norms after without a
 * suffix, up of twice the FFN's width; a window in block 0 of 2 */
static const char *const plamo3_keys[] = {
	BASE_KEYS(16, 2), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2", "u32 ARCH.attention.head_count_kv 1",
	"u32 ARCH.attention.sliding_window 8",
	"u32 ARCH.attention.sliding_window_pattern 2",
	"f32 ARCH.attention.layer_norm_rms_epsilon 1e-5",
	"str tokenizer.ggml.model llama", NULL
};
static const char *const plamo3_tensors[] = {
	"G token_embd.weight 16 16", "G output_norm.weight 16",
	"L blk.%u.attn_norm.weight 16", "L blk.%u.attn_qkv.weight 16 32",
	"L blk.%u.attn_q_norm.weight 8", "L blk.%u.attn_k_norm.weight 8",
	"L blk.%u.attn_output.weight 16 16", "L blk.%u.post_attention_norm 16",
	"L blk.%u.ffn_norm.weight 16", "L blk.%u.post_ffw_norm 16",
	"L blk.%u.ffn_up.weight 16 64", "L blk.%u.ffn_down.weight 32 16", NULL
};

/* bitnet: the sub-norms, a scale beside one product, no output */
static const char *const bitnet_tensors[] = {
	"G token_embd.weight 16 16", "G output_norm.weight 16",
	"L blk.%u.attn_norm.weight 16", "L blk.%u.attn_sub_norm.weight 16",
	"L blk.%u.attn_q.weight 16 16", "L blk.%u.attn_k.weight 16 8",
	"L blk.%u.attn_v.weight 16 8", "L blk.%u.attn_output.weight 16 16",
	"L blk.%u.attn_output.scale 1", "L blk.%u.ffn_norm.weight 16",
	"L blk.%u.ffn_sub_norm.weight 32", "L blk.%u.ffn_gate.weight 16 32",
	"L blk.%u.ffn_up.weight 16 32", "L blk.%u.ffn_down.weight 32 16", NULL
};

/* plamo2: block 0 Mamba (dt 64 wide, 2 heads), block 1 attention */
static const char *const plamo2_keys[] = {
	BASE_KEYS(16, 2), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2",
	"a32 ARCH.attention.head_count_kv 0,1",
	"f32 ARCH.attention.layer_norm_rms_epsilon 1e-5",
	"u32 ARCH.ssm.conv_kernel 4", "u32 ARCH.ssm.inner_size 32",
	"u32 ARCH.ssm.state_size 4", "u32 ARCH.ssm.time_step_rank 2",
	"u32 ARCH.ssm.group_count 0", "str tokenizer.ggml.model gpt2", NULL
};
static const char *const plamo2_tensors[] = {
	"G token_embd.weight 16 16", "G output_norm.weight 16",
	"L blk.%u.attn_norm.weight 16", "L blk.%u.post_attention_norm 16",
	"L blk.%u.ffn_norm.weight 16", "L blk.%u.ffn_up.weight 16 64",
	"L blk.%u.ffn_down.weight 32 16", "L blk.%u.post_ffw_norm 16",
	"L0-0 blk.%u.ssm_in.weight 16 64", "L0-0 blk.%u.ssm_conv1d.weight 4 32",
	"L0-0 blk.%u.ssm_x.weight 32 72", "L0-0 blk.%u.ssm_dt.weight 64 2",
	"L0-0 blk.%u.ssm_dt.bias 2", "L0-0 blk.%u.ssm_a 2",
	"L0-0 blk.%u.ssm_d 2", "L0-0 blk.%u.ssm_out.weight 32 16",
	"L0-0 blk.%u.ssm_dt_norm 64",
	"L0-0 blk.%u.ssm_b_norm 4", "L0-0 blk.%u.ssm_c_norm 4",
	"L1-1 blk.%u.attn_qkv.weight 16 32",
	"L1-1 blk.%u.attn_q_norm.weight 8 2",
	"L1-1 blk.%u.attn_k_norm.weight 8 1",
	"L1-1 blk.%u.attn_output.weight 16 16", NULL
};

/* A model of each mapped architecture, and the tensor whose widening
 * must be the model's one finding. */
/* t5encoder: the encoder's RMS norms, the first block's position bias. */
static const char *const t5_keys[] = {
	BASE_KEYS(16, 2), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2", "u32 ARCH.attention.head_count_kv 2",
	"f32 ARCH.attention.layer_norm_rms_epsilon 1e-6",
	"u32 ARCH.attention.relative_buckets_count 32",
	"str tokenizer.ggml.model t5", NULL
};
#define T5_ENCODER_TENSORS \
	"G token_embd.weight 16 16", "G enc.output_norm.weight 16", \
	    "L enc.blk.%u.attn_norm.weight 16", \
	    "L0-0 enc.blk.%u.attn_rel_b.weight 2 32", \
	    "L enc.blk.%u.attn_q.weight 16 16", \
	    "L enc.blk.%u.attn_k.weight 16 16", \
	    "L enc.blk.%u.attn_v.weight 16 16", \
	    "L enc.blk.%u.attn_o.weight 16 16", \
	    "L enc.blk.%u.ffn_norm.weight 16", \
	    "L enc.blk.%u.ffn_gate.weight 16 32", \
	    "L enc.blk.%u.ffn_up.weight 16 32", \
	    "L enc.blk.%u.ffn_down.weight 32 16"
static const char *const t5encoder_tensors[] = { T5_ENCODER_TENSORS, NULL };

/* t5: the encoder, then a decoder with self- and cross-attention. */
static const char *const t5_tensors[] = { T5_ENCODER_TENSORS,
	"G dec.output_norm.weight 16", "L dec.blk.%u.attn_norm.weight 16",
	"L0-0 dec.blk.%u.attn_rel_b.weight 2 32",
	"L dec.blk.%u.attn_q.weight 16 16", "L dec.blk.%u.attn_k.weight 16 16",
	"L dec.blk.%u.attn_v.weight 16 16", "L dec.blk.%u.attn_o.weight 16 16",
	"L dec.blk.%u.cross_attn_norm.weight 16",
	"L dec.blk.%u.cross_attn_q.weight 16 16",
	"L dec.blk.%u.cross_attn_k.weight 16 16",
	"L dec.blk.%u.cross_attn_v.weight 16 16",
	"L dec.blk.%u.cross_attn_o.weight 16 16",
	"L dec.blk.%u.ffn_norm.weight 16", "L dec.blk.%u.ffn_up.weight 16 32",
	"L dec.blk.%u.ffn_down.weight 32 16", NULL };

/* jina-bert-v3: bert's layers with a fused QKV and rotary positions. */
static const char *const jina_bert_v3_tensors[] = {
	"G token_embd.weight 16 16", "G token_types.weight 16 2",
	"G token_embd_norm.weight 16", "G token_embd_norm.bias 16",
	"L blk.%u.attn_qkv.weight 16 48", "L blk.%u.attn_qkv.bias 48",
	"L blk.%u.attn_output.weight 16 16", "L blk.%u.attn_output.bias 16",
	"L blk.%u.attn_output_norm.weight 16",
	"L blk.%u.attn_output_norm.bias 16", "L blk.%u.ffn_up.weight 16 32",
	"L blk.%u.ffn_up.bias 32", "L blk.%u.ffn_down.weight 32 16",
	"L blk.%u.ffn_down.bias 16", "L blk.%u.layer_output_norm.weight 16",
	"L blk.%u.layer_output_norm.bias 16", NULL
};

/* nomic-bert-moe: experts in block 1 of 2 (every second block). */
static const char *const nomic_bert_moe_keys[] = {
	BASE_KEYS(16, 2), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2",
	"f32 ARCH.attention.layer_norm_epsilon 1e-12",
	"u32 ARCH.moe_every_n_layers 2", "u32 ARCH.expert_count 4",
	"u32 ARCH.expert_used_count 2",
	"u32 tokenizer.ggml.token_type_count 1",
	"str tokenizer.ggml.model bert", NULL
};
static const char *const nomic_bert_moe_tensors[] = {
	"G token_embd.weight 16 16", "G token_types.weight 16 1",
	"G token_embd_norm.weight 16", "G token_embd_norm.bias 16",
	"L blk.%u.attn_qkv.weight 16 48", "L blk.%u.attn_output.weight 16 16",
	"L blk.%u.attn_output_norm.weight 16",
	"L blk.%u.attn_output_norm.bias 16",
	"L0-0 blk.%u.ffn_up.weight 16 32", "L0-0 blk.%u.ffn_down.weight 32 16",
	"L1-1 blk.%u.ffn_gate_inp.weight 16 4",
	"L1-1 blk.%u.ffn_up_exps.weight 16 32 4",
	"L1-1 blk.%u.ffn_down_exps.weight 32 16 4",
	"L blk.%u.layer_output_norm.weight 16",
	"L blk.%u.layer_output_norm.bias 16", NULL
};

/* neo-bert: pre-normed, a fused QKV, SwiGLU's gate in ffn_up. */
static const char *const rms_enc_keys[] = {
	BASE_KEYS(16, 2), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2", "u32 ARCH.attention.head_count_kv 2",
	"f32 ARCH.attention.layer_norm_rms_epsilon 1e-6",
	"str tokenizer.ggml.model bert", NULL
};
static const char *const neo_bert_tensors[] = { "G token_embd.weight 16 16",
	"G enc.output_norm.weight 16", "L blk.%u.attn_norm.weight 16",
	"L blk.%u.attn_qkv.weight 16 48", "L blk.%u.attn_output.weight 16 16",
	"L blk.%u.ffn_norm.weight 16", "L blk.%u.ffn_up.weight 16 64",
	"L blk.%u.ffn_down.weight 32 16", NULL };

/* eurobert: llama's layers without an output matrix. */
static const char *const eurobert_tensors[] = { "G token_embd.weight 16 16",
	"G output_norm.weight 16", "L blk.%u.attn_norm.weight 16",
	"L blk.%u.attn_q.weight 16 16", "L blk.%u.attn_k.weight 16 16",
	"L blk.%u.attn_v.weight 16 16", "L blk.%u.attn_output.weight 16 16",
	"L blk.%u.ffn_norm.weight 16", "L blk.%u.ffn_gate.weight 16 32",
	"L blk.%u.ffn_up.weight 16 32", "L blk.%u.ffn_down.weight 32 16",
	NULL };

/* modern-bert: block 0 without its attention norm. */
static const char *const modern_bert_keys[] = {
	BASE_KEYS(16, 2), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2",
	"f32 ARCH.attention.layer_norm_epsilon 1e-5",
	"str tokenizer.ggml.model bert", NULL
};
static const char *const modern_bert_tensors[] = {
	"G token_embd.weight 16 16", "G token_embd_norm.weight 16",
	"G output_norm.weight 16", "L1-1 blk.%u.attn_norm.weight 16",
	"L blk.%u.attn_qkv.weight 16 48", "L blk.%u.attn_output.weight 16 16",
	"L blk.%u.ffn_norm.weight 16", "L blk.%u.ffn_up.weight 16 64",
	"L blk.%u.ffn_down.weight 32 16", NULL
};

/* dream: qwen2's layers, Q, K and V with biases, the output tied. */
static const char *const dream_tensors[] = { "G token_embd.weight 16 16",
	"G output_norm.weight 16", "L blk.%u.attn_norm.weight 16",
	"L blk.%u.attn_q.weight 16 16", "L blk.%u.attn_q.bias 16",
	"L blk.%u.attn_k.weight 16 16", "L blk.%u.attn_k.bias 16",
	"L blk.%u.attn_v.weight 16 16", "L blk.%u.attn_v.bias 16",
	"L blk.%u.attn_output.weight 16 16", "L blk.%u.ffn_norm.weight 16",
	"L blk.%u.ffn_gate.weight 16 32", "L blk.%u.ffn_up.weight 16 32",
	"L blk.%u.ffn_down.weight 32 16", NULL };

/* llada-moe and rnd1: Q's and K's norms, experts. */
static const char *const diff_moe_keys[] = {
	BASE_KEYS(16, 2), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2", "u32 ARCH.attention.head_count_kv 1",
	"f32 ARCH.attention.layer_norm_rms_epsilon 1e-6",
	"u32 ARCH.expert_count 4", "u32 ARCH.expert_used_count 2",
	"u32 ARCH.expert_feed_forward_length 8",
	"str tokenizer.ggml.model gpt2", NULL
};
static const char *const diff_moe_tensors[] = { "G token_embd.weight 16 16",
	"G output_norm.weight 16", "G output.weight 16 16",
	"L blk.%u.attn_norm.weight 16", "L blk.%u.attn_q.weight 16 16",
	"L blk.%u.attn_k.weight 16 8", "L blk.%u.attn_v.weight 16 8",
	"L blk.%u.attn_output.weight 16 16", "L blk.%u.attn_q_norm.weight 8",
	"L blk.%u.attn_k_norm.weight 8", "L blk.%u.ffn_norm.weight 16",
	"L blk.%u.ffn_gate_inp.weight 16 4",
	"L blk.%u.ffn_gate_exps.weight 16 8 4",
	"L blk.%u.ffn_up_exps.weight 16 8 4",
	"L blk.%u.ffn_down_exps.weight 8 16 4", NULL };

/* qwen2vl: qwen2's layers, Q, K and V with biases, M-RoPE. */
static const char *const qwen2vl_keys[] = {
	BASE_KEYS(16, 2), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2", "u32 ARCH.attention.head_count_kv 1",
	"f32 ARCH.attention.layer_norm_rms_epsilon 1e-6",
	"a32 ARCH.rope.dimension_sections 2,1,1,0",
	"str tokenizer.ggml.model gpt2", NULL
};
static const char *const qwen2vl_tensors[] = { "G token_embd.weight 16 16",
	"G output_norm.weight 16", "L blk.%u.attn_norm.weight 16",
	"L blk.%u.attn_q.weight 16 16", "L blk.%u.attn_q.bias 16",
	"L blk.%u.attn_k.weight 16 8", "L blk.%u.attn_k.bias 8",
	"L blk.%u.attn_v.weight 16 8", "L blk.%u.attn_v.bias 8",
	"L blk.%u.attn_output.weight 16 16", "L blk.%u.ffn_norm.weight 16",
	"L blk.%u.ffn_gate.weight 16 32", "L blk.%u.ffn_up.weight 16 32",
	"L blk.%u.ffn_down.weight 32 16", NULL };

/* chameleon: Q's and K's norms of head_k x heads. */
static const char *const chameleon_tensors[] = { "G token_embd.weight 16 16",
	"G output_norm.weight 16", "L blk.%u.attn_norm.weight 16",
	"L blk.%u.attn_q_norm.weight 8 2", "L blk.%u.attn_k_norm.weight 8 1",
	"L blk.%u.attn_q.weight 16 16", "L blk.%u.attn_k.weight 16 8",
	"L blk.%u.attn_v.weight 16 8", "L blk.%u.attn_output.weight 16 16",
	"L blk.%u.ffn_norm.weight 16", "L blk.%u.ffn_gate.weight 16 32",
	"L blk.%u.ffn_up.weight 16 32", "L blk.%u.ffn_down.weight 32 16",
	NULL };

/* cogvlm: a fused QKV of every head, the visual expert's weights. */
static const char *const cogvlm_keys[] = {
	BASE_KEYS(16, 2), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2", "u32 ARCH.attention.head_count_kv 2",
	"f32 ARCH.attention.layer_norm_rms_epsilon 1e-5",
	"str tokenizer.ggml.model llama", NULL
};
static const char *const cogvlm_tensors[] = { "G token_embd.weight 16 16",
	"G output_norm.weight 16", "L blk.%u.attn_norm.weight 16",
	"L blk.%u.attn_qkv.weight 16 48", "L blk.%u.attn_output.weight 16 16",
	"L blk.%u.vis_attn_qkv.weight 16 48",
	"L blk.%u.vis_attn_output.weight 16 16", "L blk.%u.ffn_norm.weight 16",
	"L blk.%u.ffn_gate.weight 16 32", "L blk.%u.ffn_up.weight 16 32",
	"L blk.%u.ffn_down.weight 32 16", "L blk.%u.vis_gate.weight 16 32",
	"L blk.%u.vis_up.weight 16 32", "L blk.%u.vis_down.weight 32 16",
	NULL };

/* step35: block 1 windowed, experts beside a shared expert, Q's and
 * K's norms and a gate a head, block 2 an MTP layer. */
static const char *const step35_keys[] = {
	BASE_KEYS(16, 3), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2", "u32 ARCH.attention.head_count_kv 1",
	"f32 ARCH.attention.layer_norm_rms_epsilon 1e-5",
	"u32 ARCH.attention.sliding_window 4",
	"a32 ARCH.attention.sliding_window_pattern 0,1,0",
	"u32 ARCH.expert_count 4", "u32 ARCH.expert_used_count 2",
	"u32 ARCH.expert_feed_forward_length 8",
	"u32 ARCH.expert_shared_feed_forward_length 8",
	"u32 ARCH.nextn_predict_layers 1", "str tokenizer.ggml.model gpt2",
	NULL
};
static const char *const step35_tensors[] = {
	"G token_embd.weight 16 16", "G output_norm.weight 16",
	"G output.weight 16 16", "L blk.%u.attn_q.weight 16 16",
	"L blk.%u.attn_k.weight 16 8", "L blk.%u.attn_v.weight 16 8",
	"L blk.%u.attn_output.weight 16 16", "L blk.%u.attn_norm.weight 16",
	"L blk.%u.attn_q_norm.weight 8", "L blk.%u.attn_k_norm.weight 8",
	"L blk.%u.attn_gate.weight 16 2", "L blk.%u.ffn_norm.weight 16",
	"L blk.%u.ffn_gate_inp.weight 16 4",
	"L blk.%u.ffn_gate_exps.weight 16 8 4",
	"L blk.%u.ffn_up_exps.weight 16 8 4",
	"L blk.%u.ffn_down_exps.weight 8 16 4",
	"L blk.%u.ffn_gate_shexp.weight 16 8",
	"L blk.%u.ffn_up_shexp.weight 16 8",
	"L blk.%u.ffn_down_shexp.weight 8 16",
	"L2-2 blk.%u.nextn.eh_proj.weight 32 16",
	"L2-2 blk.%u.nextn.enorm.weight 16",
	"L2-2 blk.%u.nextn.hnorm.weight 16", NULL
};

/* laguna: block 0 dense and full, block 1 windowed with experts and
 * a shared expert; Q's and K's norms, a gate a head. */
static const char *const laguna_keys[] = {
	BASE_KEYS(16, 2), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2", "u32 ARCH.attention.head_count_kv 1",
	"f32 ARCH.attention.layer_norm_rms_epsilon 1e-5",
	"u32 ARCH.attention.sliding_window 4",
	"u32 ARCH.leading_dense_block_count 1", "u32 ARCH.expert_count 4",
	"u32 ARCH.expert_used_count 2", "u32 ARCH.expert_feed_forward_length 8",
	"str tokenizer.ggml.model gpt2", NULL
};
static const char *const laguna_tensors[] = {
	"G token_embd.weight 16 16", "G output_norm.weight 16",
	"L blk.%u.attn_norm.weight 16", "L blk.%u.attn_q.weight 16 16",
	"L blk.%u.attn_k.weight 16 8", "L blk.%u.attn_v.weight 16 8",
	"L blk.%u.attn_output.weight 16 16", "L blk.%u.attn_q_norm.weight 8",
	"L blk.%u.attn_k_norm.weight 8", "L blk.%u.attn_gate.weight 16 2",
	"L blk.%u.ffn_norm.weight 16", "L0-0 blk.%u.ffn_gate.weight 16 32",
	"L0-0 blk.%u.ffn_up.weight 16 32", "L0-0 blk.%u.ffn_down.weight 32 16",
	"L1-1 blk.%u.ffn_gate_inp.weight 16 4",
	"L1-1 blk.%u.exp_probs_b.bias 4",
	"L1-1 blk.%u.ffn_gate_exps.weight 16 8 4",
	"L1-1 blk.%u.ffn_up_exps.weight 16 8 4",
	"L1-1 blk.%u.ffn_down_exps.weight 8 16 4",
	"L1-1 blk.%u.ffn_gate_shexp.weight 16 8",
	"L1-1 blk.%u.ffn_up_shexp.weight 16 8",
	"L1-1 blk.%u.ffn_down_shexp.weight 8 16", NULL
};

/* nanbeige: llama's, its two blocks run twice. */
static const char *const nanbeige_keys[] = {
	BASE_KEYS(16, 2), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2", "u32 ARCH.attention.head_count_kv 1",
	"f32 ARCH.attention.layer_norm_rms_epsilon 1e-5",
	"u32 ARCH.num_loops 2", "str tokenizer.ggml.model gpt2", NULL
};
static const char *const nanbeige_tensors[] = {
	"G token_embd.weight 16 16", "G output_norm.weight 16",
	"L blk.%u.attn_norm.weight 16", "L blk.%u.attn_q.weight 16 16",
	"L blk.%u.attn_k.weight 16 8", "L blk.%u.attn_v.weight 16 8",
	"L blk.%u.attn_output.weight 16 16", "L blk.%u.ffn_norm.weight 16",
	"L blk.%u.ffn_gate.weight 16 32", "L blk.%u.ffn_up.weight 16 32",
	"L blk.%u.ffn_down.weight 32 16", NULL
};

/* hy_v4: MLA with sinks and a gate, the indexer in block 0 alone,
 * hyper-connections of 2, block 0 dense, block 1 experts. */
static const char *const hy_v4_keys[] = {
	BASE_KEYS(16, 2), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2", "u32 ARCH.attention.head_count_kv 1",
	"f32 ARCH.attention.layer_norm_rms_epsilon 1e-5",
	"u32 ARCH.attention.q_lora_rank 8", "u32 ARCH.attention.kv_lora_rank 8",
	"u32 ARCH.attention.key_length 12", "u32 ARCH.attention.value_length 8",
	"u32 ARCH.attention.key_length_mla 12",
	"u32 ARCH.attention.value_length_mla 8",
	"u32 ARCH.rope.dimension_count 4",
	"u32 ARCH.attention.indexer.head_count 2",
	"u32 ARCH.attention.indexer.key_length 8",
	"u32 ARCH.attention.indexer.top_k 4",
	"a32 ARCH.attention.indexer.types 1,0",
	"u32 ARCH.leading_dense_block_count 1", "u32 ARCH.expert_count 4",
	"u32 ARCH.expert_used_count 2", "u32 ARCH.expert_feed_forward_length 8",
	"u32 ARCH.expert_shared_count 1", "u32 ARCH.expert_gating_func 2",
	"u32 ARCH.hyper_connection.count 2",
	"f32 ARCH.hyper_connection.epsilon 1e-6",
	"f32 ARCH.hyper_connection.magnitude 1",
	"str tokenizer.ggml.model gpt2", NULL
};
static const char *const hy_v4_tensors[] = {
	"G token_embd.weight 16 16", "G output_norm.weight 16",
	"G output.weight 16 16", "G output_hc_fn.weight 32 2",
	"G output_hc_base.weight 2", "G output_hc_scale.weight 1",
	"L blk.%u.attn_norm.weight 16", "L blk.%u.attn_sinks.weight 2",
	"L blk.%u.attn_q_a.weight 16 8", "L blk.%u.attn_q_a_norm.weight 8",
	"L blk.%u.attn_q_b.weight 8 24", "L blk.%u.attn_kv_a_mqa.weight 16 12",
	"L blk.%u.attn_kv_a_norm.weight 8", "L blk.%u.attn_k_b.weight 8 8 2",
	"L blk.%u.attn_v_b.weight 8 8 2", "L blk.%u.attn_output.weight 16 16",
	"L blk.%u.attn_gate.weight 16 16",
	"L0-0 blk.%u.indexer.attn_q_b.weight 8 16",
	"L0-0 blk.%u.indexer.attn_k.weight 16 8",
	"L0-0 blk.%u.indexer.k_norm.weight 8",
	"L0-0 blk.%u.indexer.k_norm.bias 8",
	"L0-0 blk.%u.indexer.proj.weight 16 2",
	"L blk.%u.hc_attn_fn.weight 32 4", "L blk.%u.hc_attn_base.weight 4",
	"L blk.%u.hc_attn_scale.weight 2", "L blk.%u.hc_ffn_fn.weight 32 4",
	"L blk.%u.hc_ffn_base.weight 4", "L blk.%u.hc_ffn_scale.weight 2",
	"L blk.%u.ffn_norm.weight 16", "L0-0 blk.%u.ffn_gate.weight 16 32",
	"L0-0 blk.%u.ffn_up.weight 16 32", "L0-0 blk.%u.ffn_down.weight 32 16",
	"L1-1 blk.%u.ffn_gate_inp.weight 16 4",
	"L1-1 blk.%u.ffn_gate_exps.weight 16 8 4",
	"L1-1 blk.%u.ffn_up_exps.weight 16 8 4",
	"L1-1 blk.%u.ffn_down_exps.weight 8 16 4",
	"L1-1 blk.%u.ffn_gate_shexp.weight 16 8",
	"L1-1 blk.%u.ffn_up_shexp.weight 16 8",
	"L1-1 blk.%u.ffn_down_shexp.weight 8 16", NULL
};

/* jina-bert-v2: bert's without positions, a plain GELU FFN. */
static const char *const jina_bert_v2_keys[] = {
	BASE_KEYS(16, 2), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2", "u32 ARCH.attention.head_count_kv 2",
	"f32 ARCH.attention.layer_norm_epsilon 1e-5",
	"u32 tokenizer.ggml.token_type_count 2",
	"str tokenizer.ggml.model bert", NULL
};
static const char *const jina_bert_v2_tensors[] = {
	"G token_embd.weight 16 16", "G token_types.weight 16 2",
	"G token_embd_norm.weight 16", "G token_embd_norm.bias 16",
	"L blk.%u.attn_q.weight 16 16", "L blk.%u.attn_k.weight 16 16",
	"L blk.%u.attn_v.weight 16 16", "L blk.%u.attn_output.weight 16 16",
	"L blk.%u.attn_output.bias 16", "L blk.%u.attn_output_norm.weight 16",
	"L blk.%u.attn_output_norm.bias 16", "L blk.%u.ffn_up.weight 16 32",
	"L blk.%u.ffn_down.weight 32 16", "L blk.%u.ffn_down.bias 16",
	"L blk.%u.layer_output_norm.weight 16",
	"L blk.%u.layer_output_norm.bias 16", NULL
};

/* qwen3tts: qwen3vl's, its output the codec's 3072 tokens. */
static const char *const qwen3tts_tensors[] = {
	"G token_embd.weight 16 16", "G output_norm.weight 16",
	"G output.weight 16 3072", "L blk.%u.attn_norm.weight 16",
	"L blk.%u.attn_q.weight 16 32", "L blk.%u.attn_k.weight 16 16",
	"L blk.%u.attn_v.weight 16 16", "L blk.%u.attn_q_norm.weight 16",
	"L blk.%u.attn_k_norm.weight 16", "L blk.%u.attn_output.weight 32 16",
	"L blk.%u.ffn_norm.weight 16", "L blk.%u.ffn_gate.weight 16 32",
	"L blk.%u.ffn_up.weight 16 32", "L blk.%u.ffn_down.weight 32 16", NULL
};

/* pockettts: LayerNorms with biases, a GELU FFN, no output. */
static const char *const pockettts_keys[] = {
	BASE_KEYS(16, 2), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2", "u32 ARCH.attention.head_count_kv 1",
	"f32 ARCH.attention.layer_norm_epsilon 1e-5",
	"str tokenizer.ggml.model gpt2", NULL
};
static const char *const pockettts_tensors[] = {
	"G token_embd.weight 16 16", "G output_norm.weight 16",
	"G output_norm.bias 16", "L blk.%u.attn_norm.weight 16",
	"L blk.%u.attn_norm.bias 16", "L blk.%u.attn_q.weight 16 16",
	"L blk.%u.attn_k.weight 16 8", "L blk.%u.attn_v.weight 16 8",
	"L blk.%u.attn_output.weight 16 16", "L blk.%u.ffn_norm.weight 16",
	"L blk.%u.ffn_norm.bias 16", "L blk.%u.ffn_up.weight 16 32",
	"L blk.%u.ffn_down.weight 32 16", NULL
};

/* bailingmoe3: block 0 KDA (full-rank gates) and dense, block 1 MLA
 * with a gate a head and experts; the output tied. */
static const char *const bailingmoe3_keys[] = {
	BASE_KEYS(8, 2), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2",
	"a32 ARCH.attention.head_count_kv 0,1",
	"f32 ARCH.attention.layer_norm_rms_epsilon 1e-5",
	"u32 ARCH.attention.key_length 6", "u32 ARCH.attention.value_length 4",
	"u32 ARCH.attention.key_length_mla 6",
	"u32 ARCH.attention.value_length_mla 4",
	"u32 ARCH.attention.kv_lora_rank 4", "u32 ARCH.rope.dimension_count 2",
	"u32 ARCH.ssm.conv_kernel 4", "u32 ARCH.kda.head_dim 4",
	"f32 ARCH.kda.gate_lower_bound -5",
	"u32 ARCH.leading_dense_block_count 1", "u32 ARCH.expert_count 4",
	"u32 ARCH.expert_used_count 2", "u32 ARCH.expert_feed_forward_length 8",
	"u32 ARCH.expert_shared_count 1", "u32 ARCH.expert_gating_func 2",
	"str tokenizer.ggml.model gpt2", NULL
};
static const char *const bailingmoe3_tensors[] = {
	"G token_embd.weight 8 16", "G output_norm.weight 8",
	"L blk.%u.attn_norm.weight 8", "L blk.%u.ffn_norm.weight 8",
	"L0-0 blk.%u.ssm_conv1d_q.weight 4 1 8",
	"L0-0 blk.%u.ssm_conv1d_k.weight 4 1 8",
	"L0-0 blk.%u.ssm_conv1d_v.weight 4 1 8",
	"L0-0 blk.%u.attn_q.weight 8 8", "L0-0 blk.%u.attn_k.weight 8 8",
	"L0-0 blk.%u.attn_v.weight 8 8", "L0-0 blk.%u.ssm_f_a.weight 8 8",
	"L0-0 blk.%u.ssm_beta.weight 8 2", "L0-0 blk.%u.ssm_a 1 2",
	"L0-0 blk.%u.ssm_dt.bias 8", "L0-0 blk.%u.ssm_g_a.weight 8 8",
	"L0-0 blk.%u.ssm_norm.weight 4", "L blk.%u.attn_output.weight 8 8",
	"L1-1 blk.%u.attn_q.weight 8 12",
	"L1-1 blk.%u.attn_kv_a_norm.weight 4",
	"L1-1 blk.%u.attn_kv_a_mqa.weight 8 6",
	"L1-1 blk.%u.attn_k_b.weight 4 4 2",
	"L1-1 blk.%u.attn_v_b.weight 4 4 2", "L1-1 blk.%u.attn_gate.weight 8 2",
	"L0-0 blk.%u.ffn_gate.weight 8 32", "L0-0 blk.%u.ffn_up.weight 8 32",
	"L0-0 blk.%u.ffn_down.weight 32 8",
	"L1-1 blk.%u.ffn_gate_inp.weight 8 4",
	"L1-1 blk.%u.ffn_gate_exps.weight 8 8 4",
	"L1-1 blk.%u.ffn_up_exps.weight 8 8 4",
	"L1-1 blk.%u.ffn_down_exps.weight 8 8 4",
	"L1-1 blk.%u.exp_probs_b.bias 4",
	"L1-1 blk.%u.ffn_gate_shexp.weight 8 8",
	"L1-1 blk.%u.ffn_up_shexp.weight 8 8",
	"L1-1 blk.%u.ffn_down_shexp.weight 8 8", NULL
};

/* hrm_text: stacks of one layer (blocks 0 and 1) run 1 x (1 + 1)
 * times: two layers, the weights of both blocks. */
static const char *const hrm_text_keys[] = {
	BASE_KEYS(16, 2), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2", "u32 ARCH.attention.head_count_kv 1",
	"f32 ARCH.attention.layer_norm_rms_epsilon 1e-5",
	"u32 ARCH.hrm.layers_per_stack 1", "u32 ARCH.hrm.h_cycles 1",
	"u32 ARCH.hrm.l_cycles 1", "str tokenizer.ggml.model gpt2", NULL
};
static const char *const hrm_text_tensors[] = {
	"G token_embd.weight 16 16", "G hrm.z_l_init 16",
	"L blk.%u.attn_q.weight 16 16", "L blk.%u.attn_k.weight 16 8",
	"L blk.%u.attn_v.weight 16 8", "L blk.%u.attn_gate.weight 16 16",
	"L blk.%u.attn_output.weight 16 16", "L blk.%u.ffn_gate.weight 16 32",
	"L blk.%u.ffn_up.weight 16 32", "L blk.%u.ffn_down.weight 32 16", NULL
};

/* dots3note: MLA, block 1 windowed with its own rank and widths, the
 * indexer in block 0, block 0 dense, block 1 experts. */
static const char *const dots3note_keys[] = {
	BASE_KEYS(16, 2), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2", "u32 ARCH.attention.head_count_kv 1",
	"f32 ARCH.attention.layer_norm_rms_epsilon 1e-5",
	"u32 ARCH.attention.q_lora_rank 8", "u32 ARCH.attention.kv_lora_rank 8",
	"u32 ARCH.attention.key_length 12", "u32 ARCH.attention.value_length 8",
	"u32 ARCH.attention.key_length_mla 12",
	"u32 ARCH.attention.value_length_mla 8",
	"u32 ARCH.attention.kv_lora_rank_swa 4",
	"u32 ARCH.attention.key_length_swa 8",
	"u32 ARCH.attention.key_length_mla_swa 8",
	"u32 ARCH.attention.value_length_mla_swa 4",
	"u32 ARCH.rope.dimension_count 4",
	"u32 ARCH.attention.sliding_window 4",
	"a32 ARCH.attention.sliding_window_pattern 0,1",
	"f32 ARCH.rope.freq_base_swa 10000",
	"u32 ARCH.attention.indexer.head_count 2",
	"u32 ARCH.attention.indexer.key_length 8",
	"u32 ARCH.attention.indexer.top_k 4",
	"a32 ARCH.attention.indexer.types 1,0",
	"u32 ARCH.leading_dense_block_count 1", "u32 ARCH.expert_count 4",
	"u32 ARCH.expert_used_count 2", "u32 ARCH.expert_feed_forward_length 8",
	"u32 ARCH.expert_shared_count 1", "u32 ARCH.expert_gating_func 2",
	"str tokenizer.ggml.model gpt2", NULL
};
static const char *const dots3note_tensors[] = {
	"G token_embd.weight 16 16", "G output_norm.weight 16",
	"L blk.%u.attn_norm.weight 16", "L blk.%u.attn_q_a.weight 16 8",
	"L blk.%u.attn_q_a_norm.weight 8", "L blk.%u.attn_k_norm.weight 4",
	"L0-0 blk.%u.attn_q_b.weight 8 24", "L1-1 blk.%u.attn_q_b.weight 8 16",
	"L0-0 blk.%u.attn_kv_a_mqa.weight 16 12",
	"L1-1 blk.%u.attn_kv_a_mqa.weight 16 8",
	"L0-0 blk.%u.attn_kv_a_norm.weight 8",
	"L1-1 blk.%u.attn_kv_a_norm.weight 4",
	"L0-0 blk.%u.attn_k_b.weight 8 8 2",
	"L1-1 blk.%u.attn_k_b.weight 4 4 2",
	"L0-0 blk.%u.attn_v_b.weight 8 8 2",
	"L1-1 blk.%u.attn_v_b.weight 4 4 2",
	"L0-0 blk.%u.attn_output.weight 16 16",
	"L1-1 blk.%u.attn_output.weight 8 16", "L blk.%u.attn_gate.weight 16 2",
	"L blk.%u.ffn_norm.weight 16",
	"L0-0 blk.%u.indexer.attn_q_b.weight 8 16",
	"L0-0 blk.%u.indexer.attn_k.weight 16 8",
	"L0-0 blk.%u.indexer.k_norm.weight 8",
	"L0-0 blk.%u.indexer.k_norm.bias 8",
	"L0-0 blk.%u.indexer.proj.weight 16 2",
	"L0-0 blk.%u.ffn_gate.weight 16 32", "L0-0 blk.%u.ffn_up.weight 16 32",
	"L0-0 blk.%u.ffn_down.weight 32 16",
	"L1-1 blk.%u.ffn_gate_inp.weight 16 4",
	"L1-1 blk.%u.exp_probs_b.bias 4",
	"L1-1 blk.%u.ffn_gate_exps.weight 16 8 4",
	"L1-1 blk.%u.ffn_up_exps.weight 16 8 4",
	"L1-1 blk.%u.ffn_down_exps.weight 8 16 4",
	"L1-1 blk.%u.ffn_gate_shexp.weight 16 8",
	"L1-1 blk.%u.ffn_up_shexp.weight 16 8",
	"L1-1 blk.%u.ffn_down_shexp.weight 8 16", NULL
};

/* qwen4exp: block 0 Gated DeltaNet, block 1 attention with its
 * indexer; hyper-connections of 2 streams in place of the norms;
 * qwen3next's experts. */
static const char *const qwen4exp_keys[] = {
	QWEN3NEXT_KEYS, "a32 ARCH.rope.dimension_sections 1,1,0,0",
	"u32 ARCH.hyper_connection.count 2",
	"u32 ARCH.hyper_connection.low_rank 4",
	"u32 ARCH.attention.indexer.head_count 2",
	"u32 ARCH.attention.indexer.key_length 4",
	"u32 ARCH.attention.indexer.top_k 4", NULL
};
#define QWEN4EXP_HC(w) \
	w "norm.weight 8 2", w "down.weight 16 4", w "up.weight 4 16"
static const char *const qwen4exp_tensors[] = {
	"G token_embd.weight 8 16", QWEN4EXP_HC("G output_hc_"),
	QWEN4EXP_HC("L blk.%u.hc_attn_"), "L blk.%u.hc_attn_inject.weight 16 2",
	QWEN4EXP_HC("L blk.%u.hc_ffn_"), "L blk.%u.hc_ffn_inject.weight 16 2",
	"L1-1 blk.%u.attn_q.weight 8 16", "L1-1 blk.%u.attn_k.weight 8 4",
	"L1-1 blk.%u.attn_v.weight 8 4", "L1-1 blk.%u.attn_output.weight 8 8",
	"L1-1 blk.%u.attn_q_norm.weight 4", "L1-1 blk.%u.attn_k_norm.weight 4",
	"L1-1 blk.%u.indexer.q_proj.weight 8 8",
	"L1-1 blk.%u.indexer.k_proj.weight 8 4",
	"L1-1 blk.%u.indexer.q_norm.weight 4",
	"L1-1 blk.%u.indexer.k_norm.weight 4",
	"L0-0 blk.%u.attn_qkv.weight 8 16", "L0-0 blk.%u.attn_gate.weight 8 8",
	"L0-0 blk.%u.ssm_conv1d.weight 4 16", "L0-0 blk.%u.ssm_dt.bias 2",
	"L0-0 blk.%u.ssm_a 2", "L0-0 blk.%u.ssm_beta.weight 8 2",
	"L0-0 blk.%u.ssm_alpha.weight 8 2", "L0-0 blk.%u.ssm_norm.weight 4",
	"L0-0 blk.%u.ssm_out.weight 8 8", QWEN3NEXT_FFN, NULL
};

/* wavtokenizer-dec: the six PosNet blocks (features and PosNet of
 * 8), one ConvNeXt block, an output of 10. */
static const char *const wavtokenizer_dec_keys[] = {
	BASE_KEYS(10, 6), "u32 ARCH.features_length 8",
	"u32 ARCH.feed_forward_length 16",
	"u32 ARCH.posnet.embedding_length 8", "u32 ARCH.posnet.block_count 6",
	"u32 ARCH.convnext.embedding_length 8",
	"u32 ARCH.convnext.block_count 1",
	"f32 ARCH.attention.layer_norm_epsilon 1e-6",
	"f32 ARCH.attention.group_norm_epsilon 1e-6",
	"u32 ARCH.attention.group_norm_groups 4",
	"str tokenizer.ggml.model none", NULL
};
static const char *const wavtokenizer_dec_tensors[] = {
	"G token_embd.weight 8 16", "G conv1d.weight 7 8 8",
	"G conv1d.bias 1 8", "G token_embd_norm.weight 8",
	"G token_embd_norm.bias 8",
	"L0-1 posnet.%u.norm1.weight 1 8", "L0-1 posnet.%u.norm1.bias 1 8",
	"L0-1 posnet.%u.conv1.weight 3 8 8", "L0-1 posnet.%u.conv1.bias 1 8",
	"L0-1 posnet.%u.norm2.weight 1 8", "L0-1 posnet.%u.norm2.bias 1 8",
	"L0-1 posnet.%u.conv2.weight 3 8 8", "L0-1 posnet.%u.conv2.bias 1 8",
	"L3-4 posnet.%u.norm1.weight 1 8", "L3-4 posnet.%u.norm1.bias 1 8",
	"L3-4 posnet.%u.conv1.weight 3 8 8", "L3-4 posnet.%u.conv1.bias 1 8",
	"L3-4 posnet.%u.norm2.weight 1 8", "L3-4 posnet.%u.norm2.bias 1 8",
	"L3-4 posnet.%u.conv2.weight 3 8 8", "L3-4 posnet.%u.conv2.bias 1 8",
	"L2-2 posnet.%u.attn_q.weight 1 8 8", "L2-2 posnet.%u.attn_q.bias 1 8",
	"L2-2 posnet.%u.attn_k.weight 1 8 8", "L2-2 posnet.%u.attn_k.bias 1 8",
	"L2-2 posnet.%u.attn_v.weight 1 8 8", "L2-2 posnet.%u.attn_v.bias 1 8",
	"L2-2 posnet.%u.attn_output.weight 1 8 8",
	"L2-2 posnet.%u.attn_output.bias 1 8",
	"L2-2 posnet.%u.attn_norm.weight 1 8",
	"L2-2 posnet.%u.attn_norm.bias 1 8",
	"L5-5 posnet.%u.attn_norm.weight 1 8",
	"L5-5 posnet.%u.attn_norm.bias 1 8",
	"L0-0 convnext.%u.dw.weight 7 1 8", "L0-0 convnext.%u.dw.bias 1 8",
	"L0-0 convnext.%u.norm.weight 8", "L0-0 convnext.%u.norm.bias 8",
	"L0-0 convnext.%u.pw1.weight 8 16", "L0-0 convnext.%u.pw1.bias 16",
	"L0-0 convnext.%u.pw2.weight 16 8", "L0-0 convnext.%u.pw2.bias 8",
	"L0-0 convnext.%u.gamma.weight 8", "G output_norm.weight 8",
	"G output_norm.bias 8", "G output.weight 8 10", "G output.bias 10",
	NULL
};

static const struct {
	struct arch_model m;
	const char *widen;
} round_trips[] = {
	{ { "llama", 2, llama_moe_keys, llama_moe_tensors },
	  "blk.%u.ffn_down_exps.weight" },
	{ { "qwen3", 2, qwen3_keys, qwen3_tensors },
	  "blk.%u.attn_q_norm.weight" },
	{ { "qwen3moe", 2, qwen3moe_keys, qwen3moe_tensors },
	  "blk.%u.ffn_up_exps.weight" },
	{ { "qwen2moe", 2, qwen2moe_keys, qwen2moe_tensors },
	  "blk.%u.ffn_down_shexp.weight" },
	{ { "phi3", 2, phi3_keys, phi3_tensors },
	  "blk.%u.attn_qkv.weight" },
	{ { "gemma3", 2, gemma3_keys, gemma3_tensors },
	  "blk.%u.attn_output.weight" },
	{ { "deepseek2", 3, deepseek2_keys, deepseek2_tensors },
	  "blk.%u.attn_k_b.weight" },
	{ { "mamba", 2, mamba_keys, mamba_tensors },
	  "blk.%u.ssm_x.weight" },
	{ { "falcon", 2, falcon_keys, falcon_tensors },
	  "blk.%u.attn_qkv.weight" },
	{ { "gpt2", 2, gpt2_keys, gpt2_tensors },
	  "position_embd.weight" },
	{ { "bert", 2, bert_keys, bert_tensors },
	  "token_types.weight" },
	{ { "starcoder2", 2, starcoder2_keys, starcoder2_tensors },
	  "blk.%u.attn_k.bias" },
	{ { "olmo2", 2, olmo2_keys, olmo2_tensors },
	  "blk.%u.attn_k_norm.weight" },
	{ { "nomic-bert", 2, nomic_bert_keys, nomic_bert_tensors },
	  "blk.%u.attn_qkv.weight" },
	{ { "gpt-oss", 2, gptoss_keys, gptoss_tensors },
	  "blk.%u.attn_sinks.weight" },
	{ { "llama4", 2, llama4_keys, llama4_tensors },
	  "blk.%u.ffn_up_shexp.weight" },
	{ { "cohere2", 2, cohere2_keys, cohere2_tensors },
	  "blk.%u.attn_k.weight" },
	{ { "glm4moe", 3, glm4moe_keys, glm4moe_tensors },
	  "blk.%u.exp_probs_b.bias" },
	{ { "mamba2", 2, mamba2_keys, mamba2_tensors },
	  "blk.%u.ssm_norm.weight" },
	{ { "lfm2", 2, lfm2_keys, lfm2_tensors },
	  "blk.%u.attn_k.weight" },
	{ { "lfm2", 2, lfm2_keys, lfm2_tensors },
	  "blk.%u.shortconv.in_proj.weight" },
	{ { "granitehybrid", 2, granitehybrid_keys,
	    granitehybrid_tensors },
	  "blk.%u.ssm_in.weight" },
	{ { "gemma3n", 2, gemma3n_keys, gemma3n_tensors },
	  "per_layer_token_embd.weight" },
	{ { "ernie4_5", 2, ernie4_5_keys, ernie4_5_tensors },
	  "blk.%u.attn_qkv.weight" },
	{ { "mistral3", 2, ernie4_5_keys, ernie4_5_tensors },
	  "blk.%u.ffn_up.weight" },
	{ { "seed_oss", 2, ernie4_5_keys, seed_oss_tensors },
	  "blk.%u.post_attention_norm.weight" },
	{ { "smollm3", 2, ernie4_5_keys, smollm3_tensors },
	  "blk.%u.attn_k.weight" },
	{ { "hunyuan-dense", 2, ernie4_5_keys, hunyuan_tensors },
	  "blk.%u.attn_q_norm.weight" },
	{ { "granite", 2, granite_keys, smollm3_tensors },
	  "blk.%u.ffn_down.weight" },
	{ { "command-r", 2, command_r_keys, command_r_tensors },
	  "blk.%u.attn_v.weight" },
	{ { "olmo", 2, command_r_keys, olmo_tensors },
	  "blk.%u.attn_output.weight" },
	{ { "exaone4", 2, ernie4_5_keys, exaone4_tensors },
	  "blk.%u.post_ffw_norm.weight" },
	{ { "olmoe", 2, olmoe_keys, olmoe_tensors },
	  "blk.%u.ffn_up_exps.weight" },
	{ { "phimoe", 2, phimoe_keys, phimoe_tensors },
	  "blk.%u.attn_qkv.weight" },
	{ { "granitemoe", 2, granitemoe_keys, granitemoe_tensors },
	  "blk.%u.ffn_up_shexp.weight" },
	{ { "minimax-m2", 2, minimax_m2_keys, minimax_m2_tensors },
	  "blk.%u.attn_k_norm.weight" },
	{ { "ernie4_5-moe", 2, ernie4_5_moe_keys,
	    ernie4_5_moe_tensors },
	  "blk.%u.ffn_down_shexp.weight" },
	{ { "qwen3vl", 2, qwen3vl_keys, qwen3_tensors },
	  "blk.%u.attn_q_norm.weight" },
	{ { "qwen3vlmoe", 2, qwen3vlmoe_keys, qwen3moe_tensors },
	  "blk.%u.ffn_up_exps.weight" },
	{ { "hunyuan-moe", 2, hunyuan_moe_keys, hunyuan_moe_tensors },
	  "blk.%u.ffn_up_shexp.weight" },
	{ { "qwen35", 2, qwen35_keys, qwen35_tensors },
	  "blk.%u.attn_gate.weight" },
	{ { "qwen35moe", 2, qwen3next_keys, qwen35moe_tensors },
	  "blk.%u.ffn_down_shexp.weight" },
	{ { "qwen3next", 2, qwen3next_keys, qwen3next_tensors },
	  "blk.%u.ssm_ba.weight" },
	{ { "nemotron_h", 3, nemotron_h_keys, nemotron_h_tensors },
	  "blk.%u.ffn_up.weight" },
	{ { "nemotron_h_moe", 3, nemotron_h_moe_keys,
	    nemotron_h_moe_tensors },
	  "blk.%u.ffn_up_exps.weight" },
	{ { "falcon-h1", 2, falcon_h1_keys, falcon_h1_tensors },
	  "blk.%u.attn_q.weight" },
	{ { "kimi-linear", 2, kimi_linear_keys, kimi_linear_tensors },
	  "blk.%u.ssm_f_b.weight" },
	{ { "gemma4", 3, gemma4_keys, gemma4_tensors },
	  "blk.%u.post_ffw_norm.weight" },
	{ { "lfm2moe", 2, lfm2moe_keys, lfm2moe_tensors },
	  "blk.%u.ffn_gate_exps.weight" },
	{ { "glm4", 3, glm4_keys, glm4_tensors }, "blk.%u.ffn_up.weight" },
	{ { "arcee", 2, ernie4_5_keys, arcee_tensors },
	  "blk.%u.ffn_down.weight" },
	{ { "apertus", 2, apertus_keys, apertus_tensors },
	  "blk.%u.attn_k_norm.weight" },
	{ { "exaone", 2, ernie4_5_keys, smollm3_tensors },
	  "blk.%u.attn_v.weight" },
	{ { "internlm2", 2, ernie4_5_keys, dense_out_tensors },
	  "blk.%u.attn_output.weight" },
	{ { "baichuan", 2, ernie4_5_keys, dense_out_tensors },
	  "blk.%u.ffn_up.weight" },
	{ { "xverse", 2, ernie4_5_keys, dense_out_tensors },
	  "blk.%u.ffn_gate.weight" },
	{ { "deepseek32", 3, deepseek32_keys, deepseek32_tensors },
	  "blk.%u.indexer.attn_k.weight" },
	/* glm-dsa: deepseek32's tensors (its indexer's optional) */
	{ { "glm-dsa", 3, deepseek32_keys, deepseek32_tensors },
	  "blk.%u.indexer.attn_q_b.weight" },
	/* mistral4: deepseek2's loader */
	{ { "mistral4", 3, deepseek2_keys, deepseek2_tensors },
	  "blk.%u.attn_v_b.weight" },
	{ { "deepseek4", 3, deepseek4_keys, deepseek4_tensors },
	  "blk.%u.indexer_compressor_ape.weight" },
	{ { "graniteswitch", 2, graniteswitch_keys, graniteswitch_tensors },
	  "blk.%u.ffn_down.lora_b" },
	{ { "minicpm3", 2, minicpm3_keys, minicpm3_tensors },
	  "blk.%u.attn_kv_b.weight" },
	{ { "kimi-k3", 2, kimi_k3_keys, kimi_k3_tensors },
	  "blk.%u.ffn_routed_down.weight" },
	{ { "deepseek", 3, deepseek_keys, deepseek_tensors },
	  "blk.%u.ffn_up_shexp.weight" },
	{ { "deepseek2-ocr", 3, deepseek_keys, deepseek2ocr_tensors },
	  "blk.%u.attn_v.weight" },
	{ { "orion", 2, orion_keys, orion_tensors }, "blk.%u.ffn_norm.bias" },
	{ { "minicpm", 2, ernie4_5_keys, smollm3_tensors },
	  "blk.%u.ffn_norm.weight" },
	{ { "nemotron", 2, orion_keys, nemotron_tensors },
	  "blk.%u.ffn_up.weight" },
	{ { "stablelm", 2, orion_keys, orion_tensors },
	  "blk.%u.attn_norm.bias" },
	{ { "granite_swa", 2, granite_swa_keys, granite_swa_tensors },
	  "blk.%u.attn_sinks.weight" },
	{ { "phi2", 2, orion_keys, phi2_tensors }, "blk.%u.ffn_up.bias" },
	{ { "gptneox", 2, gptneox_keys, gptneox_tensors },
	  "blk.%u.attn_qkv.bias" },
	{ { "starcoder", 2, orion_keys, starcoder_tensors },
	  "position_embd.weight" },
	{ { "bloom", 2, orion_keys, bloom_tensors },
	  "token_embd_norm.weight" },
	{ { "mpt", 2, orion_keys, mpt_tensors }, "blk.%u.attn_qkv.weight" },
	{ { "qwen", 2, qwen_keys, qwen_tensors }, "blk.%u.ffn_gate.weight" },
	{ { "refact", 2, ernie4_5_keys, smollm3_tensors },
	  "blk.%u.ffn_down.weight" },
	{ { "codeshell", 2, orion_keys, codeshell_tensors },
	  "blk.%u.ffn_down.bias" },
	{ { "bailingmoe2", 3, bailingmoe2_keys, bailingmoe2_tensors },
	  "blk.%u.attn_qkv.weight" },
	{ { "dots1", 2, dots1_keys, dots1_tensors },
	  "blk.%u.attn_k.weight" },
	{ { "exaone-moe", 3, exaone_moe_keys, exaone_moe_tensors },
	  "blk.%u.ffn_up_shexp.weight" },
	{ { "cohere2moe", 2, cohere2moe_keys, cohere2moe_tensors },
	  "blk.%u.ffn_gate_up_exps.weight" },
	{ { "afmoe", 2, afmoe_keys, afmoe_tensors },
	  "blk.%u.attn_gate.weight" },
	{ { "bailingmoe", 2, bailingmoe_keys, bailingmoe_tensors },
	  "blk.%u.attn_qkv.weight" },
	{ { "dbrx", 2, dbrx_keys, dbrx_tensors },
	  "blk.%u.attn_output_norm.weight" },
	{ { "arctic", 2, arctic_keys, arctic_tensors },
	  "blk.%u.ffn_norm_exps.weight" },
	{ { "smallthinker", 2, smallthinker_keys, smallthinker_tensors },
	  "blk.%u.attn_qkv.weight" },
	{ { "grovemoe", 2, grovemoe_keys, grovemoe_tensors },
	  "blk.%u.ffn_up_chexps.weight" },
	{ { "mimo2", 3, mimo2_keys, mimo2_tensors },
	  "blk.%u.attn_sinks.weight" },
	{ { "hy_v3", 2, hy_v3_keys, hy_v3_tensors },
	  "blk.%u.exp_probs_b" },
	{ { "minimax-m3", 2, minimax_m3_keys, minimax_m3_tensors },
	  "blk.%u.indexer.k_proj.weight" },
	{ { "minimax-01", 2, minimax_01_keys, minimax_01_tensors },
	  "blk.%u.attn_norm_2.weight" },
	{ { "plm", 2, plm_keys, plm_tensors },
	  "blk.%u.attn_kv_a_norm.weight" },
	{ { "talkie", 2, talkie_keys, talkie_tensors },
	  "blk.%u.layer_output_scale.weight" },
	{ { "maincoder", 2, maincoder_keys, maincoder_tensors },
	  "blk.%u.attn_k_norm.weight" },
	{ { "mellum", 4, mellum_keys, mellum_tensors },
	  "blk.%u.ffn_gate_inp.weight" },
	{ { "gemma-embedding", 2, gemma_embedding_keys,
	      gemma_embedding_tensors },
	  "blk.%u.attn_q_norm.weight" },
	{ { "rwkv6", 2, rwkv6_keys, rwkv6_tensors },
	  "blk.%u.time_mix_key.weight" },
	{ { "rwkv6qwen2", 2, rwkv6qwen2_keys, rwkv6qwen2_tensors },
	  "blk.%u.time_mix_value.weight" },
	{ { "rwkv7", 2, rwkv7_keys, rwkv7_tensors },
	  "blk.%u.time_mix_a1.weight" },
	{ { "arwkv7", 2, arwkv7_keys, arwkv7_tensors },
	  "blk.%u.time_mix_g1.weight" },
	{ { "pangu-embedded", 2, maincoder_keys, pangu_embedded_tensors },
	  "blk.%u.attn_output.bias" },
	{ { "spark2_5", 2, spark2_5_keys, spark2_5_tensors },
	  "blk.%u.attn_gate.weight" },
	{ { "maple", 2, maple_keys, maple_tensors },
	  "blk.%u.attn_k_norm.weight" },
	{ { "muse-glimmer", 4, muse_glimmer_keys, muse_glimmer_tensors },
	  "blk.%u.post_ffw_norm.weight" },
	{ { "t5encoder", 2, t5_keys, t5encoder_tensors },
	  "enc.blk.%u.attn_k.weight" },
	{ { "t5", 2, t5_keys, t5_tensors }, "dec.blk.%u.cross_attn_v.weight" },
	{ { "jina-bert-v3", 2, nomic_bert_keys, jina_bert_v3_tensors },
	  "blk.%u.attn_qkv.bias" },
	{ { "nomic-bert-moe", 2, nomic_bert_moe_keys, nomic_bert_moe_tensors },
	  "blk.%u.ffn_up_exps.weight" },
	{ { "neo-bert", 2, rms_enc_keys, neo_bert_tensors },
	  "blk.%u.ffn_up.weight" },
	{ { "eurobert", 2, rms_enc_keys, eurobert_tensors },
	  "blk.%u.attn_k.weight" },
	{ { "modern-bert", 2, modern_bert_keys, modern_bert_tensors },
	  "blk.%u.attn_qkv.weight" },
	{ { "dream", 2, rms_enc_keys, dream_tensors }, "blk.%u.attn_v.bias" },
	{ { "llada", 2, rms_enc_keys, eurobert_tensors },
	  "blk.%u.ffn_gate.weight" },
	{ { "llada-moe", 2, diff_moe_keys, diff_moe_tensors },
	  "blk.%u.attn_q_norm.weight" },
	{ { "rnd1", 2, diff_moe_keys, diff_moe_tensors },
	  "blk.%u.ffn_down_exps.weight" },
	{ { "qwen2vl", 2, qwen2vl_keys, qwen2vl_tensors },
	  "blk.%u.attn_k.bias" },
	{ { "paddleocr", 2, ernie4_5_keys, ernie4_5_tensors },
	  "blk.%u.attn_qkv.weight" },
	{ { "hunyuan_vl", 2, ernie4_5_keys, hunyuan_tensors },
	  "blk.%u.attn_q_norm.weight" },
	{ { "chameleon", 2, ernie4_5_keys, chameleon_tensors },
	  "blk.%u.attn_k_norm.weight" },
	{ { "cogvlm", 2, cogvlm_keys, cogvlm_tensors },
	  "blk.%u.vis_attn_qkv.weight" },
	{ { "jamba", 2, jamba_keys, jamba_tensors },
	  "blk.%u.ssm_b_norm.weight" },
	{ { "deci", 2, deci_keys, deci_tensors }, "blk.%u.attn_output.weight" },
	{ { "chatglm", 2, ernie4_5_keys, chatglm_tensors },
	  "blk.%u.ffn_up.weight" },
	{ { "grok", 2, grok_keys, grok_tensors },
	  "blk.%u.attn_output_norm.weight" },
	{ { "jais", 2, jais_keys, jais_tensors }, "blk.%u.attn_qkv.bias" },
	{ { "jais2", 2, jais_keys, jais2_tensors }, "blk.%u.ffn_up.bias" },
	{ { "openelm", 2, openelm_keys, openelm_tensors },
	  "blk.%u.attn_q_norm.weight" },
	{ { "plamo", 2, ernie4_5_keys, plamo_tensors },
	  "blk.%u.ffn_gate.weight" },
	{ { "plamo3", 2, plamo3_keys, plamo3_tensors },
	  "blk.%u.post_ffw_norm" },
	{ { "bitnet", 2, ernie4_5_keys, bitnet_tensors },
	  "blk.%u.ffn_sub_norm.weight" },
	{ { "plamo2", 2, plamo2_keys, plamo2_tensors },
	  "blk.%u.post_attention_norm" },
	{ { "step35", 3, step35_keys, step35_tensors },
	  "blk.%u.attn_output.weight" },
	{ { "laguna", 2, laguna_keys, laguna_tensors },
	  "blk.%u.attn_gate.weight" },
	{ { "nanbeige", 2, nanbeige_keys, nanbeige_tensors },
	  "blk.%u.ffn_up.weight" },
	{ { "hy_v4", 2, hy_v4_keys, hy_v4_tensors },
	  "blk.%u.hc_ffn_fn.weight" },
	{ { "jina-bert-v2", 2, jina_bert_v2_keys, jina_bert_v2_tensors },
	  "blk.%u.ffn_down.bias" },
	{ { "qwen3tts", 2, qwen3vl_keys, qwen3tts_tensors },
	  "blk.%u.attn_q_norm.weight" },
	{ { "pockettts", 2, pockettts_keys, pockettts_tensors },
	  "blk.%u.attn_q.weight" },
	{ { "bailingmoe3", 2, bailingmoe3_keys, bailingmoe3_tensors },
	  "blk.%u.ssm_g_a.weight" },
	{ { "hrm_text", 2, hrm_text_keys, hrm_text_tensors },
	  "blk.%u.attn_gate.weight" },
	{ { "dots3note", 2, dots3note_keys, dots3note_tensors },
	  "blk.%u.attn_gate.weight" },
	{ { "qwen4exp", 2, qwen4exp_keys, qwen4exp_tensors },
	  "blk.%u.hc_ffn_inject.weight" },
	{ { "wavtokenizer-dec", 6, wavtokenizer_dec_keys,
	    wavtokenizer_dec_tensors },
	  "posnet.%u.attn_q.weight" },
};

#endif
