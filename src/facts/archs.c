/*
 * archs.c - the one table of the architectures gguflint knows (see
 * archrow.h): a row each, with all that gguflint knows of it. An
 * architecture not here is planned as standard attention, like an
 * ARCH_KIND_UNPLANNED one, and has no graph, name map or fitted numbers.
 * Adding a llama-like architecture is its row here, its name map in
 * rules/arch/, and its tests (HACKING.md, "An architecture").
 */
#include "config.h"

#include <string.h>

#include "facts/arch.h"

/* A split fitted and measured within 10 % on Vulkan: the rows the device
 * keeps, how it peaks with layers on the host, with all offloaded. */
#define SPLIT(k, h, f) \
	{ \
		.fitted = true, .measured = true, .kept = (k), .host = (h), \
		.full = (f) \
	}
#define SPLIT2 SPLIT(2, SPLIT_HOST_ADDS, SPLIT_FULL_GRAPH)

/* A quantized cache's layout shift (plan_quantized_cache). */
#define SHIFT(k, v, nk) .shift = true, .fa_k = (k), .fa_v = (v), .nofa_k = (nk)
#define BOTH (ARCH_ON_CPU | ARCH_ON_VULKAN)
#define GB_GEMMA (GB_SCALE_EMBD | GB_SCALE_Q)

/* gemma3's final soft cap, when its file has one, is in place at the
 * graph's end and moves nothing: not built. */
static const struct arch_info arch_table[] = {
	{ .name = "llama",
	    .mapped = true,
	    .measured_on = BOTH,
	    .graph = { .built = true, .ffn = GB_MIXED },
	    .split = SPLIT2,
	    .fit = { .cpu = true, .kq_host = true, SHIFT(0, -1, -1) } },
	{ .name = "llama-embed", .kind = ARCH_KIND_UNPLANNED, .mapped = true },
	{ .name = "mistral", .mapped = true },
	{ .name = "qwen2",
	    .mapped = true,
	    .measured_on = BOTH,
	    .graph = { .built = true },
	    .split = SPLIT2,
	    .fit = { .cpu = true, .kq_host = true, SHIFT(0, -1, -1) } },
	{ .name = "qwen2moe",
	    .mapped = true,
	    .measured_on = BOTH,
	    .graph = { .built = true, .ffn = GB_MOE_SHARED },
	    .split = SPLIT(1, SPLIT_HOST_PHASE, SPLIT_FULL_GRAPH),
	    .fit = { .cpu = true } },
	{ .name = "qwen3",
	    .mapped = true,
	    .measured_on = BOTH,
	    .graph = { .built = true, .qk_norm = GB_QK_HEAD },
	    .split = SPLIT(0, SPLIT_HOST_PHASE, SPLIT_FULL_GRAPH),
	    .fit = { .cpu = true, SHIFT(-1, 0, -1) } },
	{ .name = "qwen3moe",
	    .mapped = true,
	    .measured_on = BOTH,
	    .graph = { .built = true,
		.qk_norm = GB_QK_HEAD,
		.ffn = GB_MOE_NORM },
	    .split = SPLIT(0, SPLIT_HOST_COPIES, SPLIT_FULL_GRAPH),
	    .fit = { .cpu = true,
		.kq_host = true,
		.experts_host = true,
		SHIFT(0, 0, -2) } },
	{ .name = "phi2" },
	{ .name = "phi3",
	    .kind = ARCH_KIND_SWA_OFF,
	    .mapped = true,
	    .measured_on = BOTH,
	    .graph = { .built = true,
		.ffn = GB_UP_GLU,
		.scale = GB_SCALE_Q,
		.block = GB_SEQ_RES },
	    .split = SPLIT2,
	    .fit = { .cpu = true, .kq_host = true, SHIFT(0, -1, -1) } },
	{ .name = "gemma",
	    .mapped = true,
	    .measured_on = BOTH,
	    .graph = { .built = true, .scale = GB_GEMMA },
	    .split = SPLIT2,
	    .fit = { .cpu = true, SHIFT(0, -1, -1) } },
	{ .name = "gemma2",
	    .kind = ARCH_KIND_SWA_ALWAYS,
	    .swa_pattern = 2,
	    .mapped = true,
	    .measured_on = BOTH,
	    .graph = { .built = true,
		.norms = GB_NORM_BOTH,
		.scale = GB_GEMMA | GB_SOFTCAP_ATTN | GB_SOFTCAP_LOGITS },
	    .split = SPLIT2,
	    .fit = { .cpu = true, SHIFT(0, -1, -1) } },
	{ .name = "gemma3",
	    .kind = ARCH_KIND_SWA,
	    .swa_pattern = 6,
	    .mapped = true,
	    .measured_on = BOTH,
	    .graph = { .built = true,
		.qk_norm = GB_QK_HEAD,
		.norms = GB_NORM_BOTH,
		.scale = GB_GEMMA },
	    .split = SPLIT(2, SPLIT_HOST_COPIES, SPLIT_FULL_GRAPH),
	    .fit = { .cpu = true, SHIFT(0, -1, -1) } },
	{ .name = "gemma3n",
	    .kind = ARCH_KIND_SWA,
	    .swa_pattern = 5,
	    .kv_layers = 20,
	    .mapped = true,
	    .quirks = ARCH_OUTPUT_FIRST,
	    .measured_on = BOTH,
	    .graph = { .built = true,
		.qk_norm = GB_QK_HEAD,
		.norms = GB_NORM_BOTH,
		.scale = GB_SOFTCAP_LOGITS,
		.block = GB_ALTUP,
		.extra = GB_ROWS_LATE | GB_V_NORM },
	    .split = SPLIT(0, SPLIT_HOST_ADDS, SPLIT_FULL_GRAPH),
	    .fit = { .cpu = true } },
	{ .name = "deepseek" },
	{ .name = "deepseek2",
	    .kind = ARCH_KIND_MLA,
	    .mapped = true,
	    .measured_on = BOTH,
	    .graph = { .built = true,
		.ffn = GB_MOE_GLM,
		.extra = GB_MLA | GB_GATE_SOFTMAX },
	    .split = SPLIT(1, SPLIT_HOST_ADDS, SPLIT_FULL_GRAPH),
	    .fit = { .cpu = true } },
	{ .name = "gpt-oss",
	    .kind = ARCH_KIND_SWA,
	    .swa_pattern = 2,
	    .mapped = true,
	    .measured_on = BOTH,
	    .graph = { .built = true,
		.ffn = GB_MOE_OAI,
		.extra = GB_FFN_NORM_PA | GB_ROWS_LATE },
	    .split = SPLIT2,
	    .fit = { .cpu = true, SHIFT(0, -2, 0) } },
	{ .name = "llama4",
	    .kind = ARCH_KIND_SWA_CHUNKED,
	    .swa_pattern = 4,
	    .mapped = true,
	    .measured_on = BOTH,
	    .graph = { .built = true, .ffn = GB_MOE_L4, .pos = GB_ROPE_NTH },
	    .split = SPLIT(2, SPLIT_HOST_COPIES, SPLIT_FULL_GRAPH),
	    .fit = { .cpu = true } },
	{ .name = "glm4moe",
	    .mapped = true,
	    .measured_on = BOTH,
	    .graph = { .built = true,
		.qk_norm = GB_QK_HEAD_OPT,
		.ffn = GB_MOE_GLM,
		.extra = GB_FFN_NORM_PA },
	    .split = SPLIT2,
	    .fit = { .cpu = true } },
	{ .name = "cohere2",
	    .kind = ARCH_KIND_SWA,
	    .swa_pattern = 4,
	    .mapped = true,
	    .measured_on = BOTH,
	    .graph = { .built = true,
		.norm = GB_LAYER,
		.scale = GB_SCALE_LOGITS,
		.pos = GB_ROPE_SWA,
		.block = GB_PAR_RES },
	    .split = { .fitted = true, .kept = 2, .full = SPLIT_FULL_PARALLEL },
	    .fit = { .cpu = true } },
	{ .name = "lfm2",
	    .kind = ARCH_KIND_HYBRID_CONV,
	    .mapped = true,
	    .quirks = ARCH_EMBD_NORM_OUTPUT,
	    .measured_on = BOTH,
	    .graph = { .built = true,
		.qk_norm = GB_QK_HEAD,
		.block = GB_HYBRID,
		.extra = GB_RES_FIRST | GB_OUT_NORM_EMBD | GB_SHORTCONV },
	    .split = SPLIT2,
	    .fit = { .cpu = true } },
	{ .name = "granitehybrid",
	    .kind = ARCH_KIND_HYBRID_SSM,
	    .mapped = true,
	    .measured_on = BOTH,
	    .graph = { .built = true,
		.scale = GB_SCALE_LOGITS,
		.block = GB_HYBRID },
	    .fit = { .compute = FIT_GRANITEHYBRID, .cpu = true } },
	{ .name = "falcon",
	    .mapped = true,
	    .measured_on = BOTH,
	    .graph = { .built = true,
		.norm = GB_LAYER,
		.ffn = GB_GELU,
		.block = GB_PAR_ATTN },
	    .split = SPLIT(2, SPLIT_HOST_LAYERS, SPLIT_FULL_PARALLEL),
	    .fit = { .cpu = true, SHIFT(0, 0, 1) } },
	{ .name = "gpt2",
	    .mapped = true,
	    .measured_on = BOTH,
	    .graph = { .built = true,
		.norm = GB_LAYER,
		.ffn = GB_GELU,
		.pos = GB_LEARNED },
	    .split = SPLIT(2, SPLIT_HOST_ADDS, SPLIT_FULL_LEARNED),
	    .fit = { .cpu = true, SHIFT(0, -1, 1) } },
	{ .name = "gptneox" },
	{ .name = "mpt" },
	{ .name = "starcoder" },
	{ .name = "starcoder2",
	    .mapped = true,
	    .measured_on = BOTH,
	    .graph = { .built = true, .norm = GB_LAYER, .ffn = GB_GELU },
	    .split = SPLIT2,
	    .fit = { .cpu = true, .kq_host = true, SHIFT(0, -1, -2) } },
	{ .name = "stablelm" },
	{ .name = "baichuan" },
	{ .name = "internlm2" },
	{ .name = "granite" },
	{ .name = "granitemoe" },
	{ .name = "command-r" },
	{ .name = "olmo" },
	{ .name = "olmo2",
	    .mapped = true,
	    .measured_on = BOTH,
	    .graph = { .built = true,
		.qk_norm = GB_QK_ROW,
		.norms = GB_NORM_POST },
	    .split = SPLIT2,
	    .fit = { .cpu = true, SHIFT(-1, 0, -1) } },
	{ .name = "bitnet" },
	{ .name = "ernie4_5",
	    .mapped = true,
	    .measured_on = BOTH,
	    .graph = { .built = true } },
	{ .name = "exaone" },
	{ .name = "mamba",
	    .kind = ARCH_KIND_MAMBA,
	    .mapped = true,
	    .measured_on = BOTH,
	    .graph = { .built = true,
		.block = GB_RECURRENT,
		.extra = GB_MAMBA1 },
	    .split = SPLIT(1, SPLIT_HOST_ADDS, SPLIT_FULL_GRAPH),
	    .fit = { .compute = FIT_MAMBA, .cpu = true } },
	{ .name = "mamba2",
	    .kind = ARCH_KIND_MAMBA,
	    .mapped = true,
	    .measured_on = BOTH,
	    .graph = { .built = true, .block = GB_RECURRENT },
	    .split = SPLIT(2, SPLIT_HOST_ADDS, SPLIT_FULL_SCAN),
	    .fit = { .compute = FIT_MAMBA2, .cpu = true } },
	{ .name = "bert",
	    .kind = ARCH_KIND_ENCODER,
	    .mapped = true,
	    .measured_on = BOTH,
	    .graph = { .built = true,
		.norm = GB_LAYER,
		.ffn = GB_GELU,
		.norms = GB_NORM_POST,
		.pos = GB_LEARNED,
		.block = GB_ENCODER },
	    .split = SPLIT(1, SPLIT_HOST_ADDS, SPLIT_FULL_GRAPH),
	    .fit = { .cpu = true } },
	{ .name = "nomic-bert",
	    .kind = ARCH_KIND_ENCODER,
	    .mapped = true,
	    .measured_on = BOTH,
	    .graph = { .built = true,
		.norm = GB_LAYER,
		.norms = GB_NORM_POST,
		.block = GB_ENCODER },
	    .split = SPLIT(1, SPLIT_HOST_ADDS, SPLIT_FULL_GRAPH),
	    .fit = { .cpu = true } },
	{ .name = "jina-bert-v2", .kind = ARCH_KIND_ENCODER },
	{ .name = "t5encoder", .kind = ARCH_KIND_ENCODER },
	{ .name = "qwen35",
	    .kind = ARCH_KIND_HYBRID_SSM,
	    .recr = RECR_INTERVAL,
	    .mapped = true,
	    .quirks = ARCH_SSM_A_MUL,
	    .measured_on = BOTH },
	{ .name = "qwen35moe",
	    .kind = ARCH_KIND_HYBRID_SSM,
	    .recr = RECR_INTERVAL,
	    .mapped = true,
	    .quirks = ARCH_SSM_A_MUL,
	    .measured_on = BOTH },
	{ .name = "qwen3next",
	    .kind = ARCH_KIND_HYBRID_SSM,
	    .recr = RECR_INTERVAL,
	    .mapped = true,
	    .quirks = ARCH_SSM_A_MUL,
	    .measured_on = BOTH },
	{ .name = "nemotron_h",
	    .kind = ARCH_KIND_HYBRID_SSM,
	    .recr = RECR_KV0_FF0,
	    .mapped = true,
	    .measured_on = BOTH },
	{ .name = "nemotron_h_moe",
	    .kind = ARCH_KIND_HYBRID_SSM,
	    .recr = RECR_KV0_FF0,
	    .mapped = true,
	    .measured_on = BOTH },
};

#define ARCH_N (sizeof arch_table / sizeof arch_table[0])

/* The row of an architecture gguflint does not know. */
static const struct arch_info arch_unknown = { .name = "",
	.kind = ARCH_KIND_UNPLANNED };

const struct arch_info *
arch_find(const char *name)
{
	size_t i;

	for (i = 0; i < ARCH_N; i++)
		if (strcmp(arch_table[i].name, name) == 0)
			return &arch_table[i];
	return NULL;
}

const struct arch_info *
arch_at(size_t i)
{
	return i < ARCH_N ? &arch_table[i] : NULL;
}

const struct arch_info *
arch_row(const struct model_geom *g)
{
	return g->row != NULL ? g->row : &arch_unknown;
}

struct arch_split
arch_split_of(const struct arch_info *a)
{
	struct arch_split def = { false, false, 2, SPLIT_HOST_ADDS,
		SPLIT_FULL_GRAPH };

	return a->split.fitted ? a->split : def;
}
