/*
 * test_graph.c - llama.cpp's graph built, scheduled and placed
 * (src/plan/graph.c, sched.c, vkorder.c, galloc.c) against llama.cpp's
 * own compute buffers: for every row of the CPU table and of the Vulkan
 * table (tests/oracle/measured-{cpu,vulkan}.tsv, measured by llama.cpp
 * v0.5.0 on the oracle's sparse models; f16 and q8_0 caches, the q8_0
 * ones rotated; on Vulkan at -ngl 0, 2 and 99) of each architecture
 * graph.c builds, the plan of the same model at the same settings must
 * say its compute buffers were placed ("compute_basis": "placed") and
 * equal llama.cpp's to the byte, the host's and the device's. A graph
 * that is not the file's, or a cache type not built, must not say
 * placed. No llama.cpp is needed: the tables hold its answers.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <stdbool.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/util.h"
#include "ggufw.h"
#include "jsontree.h"
#include "oraclegen.h"
#include "testutil.h"

/* A row of a table: the settings and llama.cpp's compute buffers. */
struct row {
	char ctx[12], ub[12], fa[8], ctk[12], ctv[12], np[8], ngl[8];
	int64_t compute, host, dev; /* every buffer's, the two apart */
};

/* The compute bytes of buffer name in a row's buffers field
 * ("NAME=model/context/compute;..."), or -1. */
static int64_t
buffer_compute(const char *buffers, const char *name)
{
	size_t n = strlen(name);
	const char *p = buffers, *slash;

	while (p != NULL && *p != '\0') {
		if (strncmp(p, name, n) == 0 && p[n] == '=') {
			slash = strchr(p, '/');
			slash = slash != NULL ? strchr(slash + 1, '/') : NULL;
			return slash != NULL ? strtoll(slash + 1, NULL, 10) :
					       -1;
		}
		p = strchr(p, ';');
		p = p != NULL ? p + 1 : NULL;
	}
	return -1;
}

/* The row's fields (tab-separated, the table's header order): true for a
 * row of arch, weights wtype and backend that llama.cpp accepted. */
static bool
parse_row(char *line, const char *arch, const char *wtype, const char *backend,
    struct row *r)
{
	char *f[32], *save = NULL, *t;
	int n = 0;

	for (t = strtok_r(line, "\t\n", &save); t != NULL && n < 32;
	     t = strtok_r(NULL, "\t\n", &save))
		f[n++] = t;
	if (n < 19 || strcmp(f[0], arch) != 0 || strcmp(f[1], wtype) ||
	    strcmp(f[2], "sim") || strcmp(f[3], backend) || strcmp(f[12], "ok"))
		return false;
	snprintf(r->ctx, sizeof r->ctx, "%s", f[5]);
	snprintf(r->ub, sizeof r->ub, "%s", f[6]);
	snprintf(r->fa, sizeof r->fa, "%s", f[7]);
	snprintf(r->ctk, sizeof r->ctk, "%s", f[8]);
	snprintf(r->ctv, sizeof r->ctv, "%s", f[9]);
	snprintf(r->np, sizeof r->np, "%s", f[10]);
	snprintf(r->ngl, sizeof r->ngl, "%s", f[11]);
	r->compute = strtoll(f[18], NULL, 10);
	r->host = n > 24 ? buffer_compute(f[24], "Vulkan_Host") : -1;
	r->dev = n > 24 ? buffer_compute(f[24], "Vulkan0") : -1;
	return true;
}

static char *
write_profile(const char *backend)
{
	char *text = test_llama_profile("graph_test", "the table's host",
	    backend, "[avx2, f16c, fma]");
	char *tmp = test_tmpfile(text, strlen(text));
	char *path = xasprintf("%s.yaml", tmp);

	cr_assert(rename(tmp, path) == 0);
	free(tmp);
	free(text);
	return path;
}

/* What the plan says of the compute buffers. */
struct planned {
	int64_t compute, host, dev; /* dev: -1 without a second device */
	char basis[32];
};

static int64_t
device_compute(const struct jsonnode *plan, size_t i)
{
	const struct jsonnode *d = jsontree_at(jsontree_get(plan, "devices"),
	    i);
	int64_t v;

	return jsontree_int64(jsontree_get(d, "compute_bytes"), &v) ? v : -1;
}

/* The plan of model at r's settings. */
static void
plan_row(const char *model, const char *profile, const struct row *r,
    struct planned *p)
{
	const char *argv[] = { "--no-config", "--format", "json", "--plan",
		"-p", profile, "-c", r->ctx, "-ctk", r->ctk, "-ctv", r->ctv,
		"-fa", r->fa, "-ub", r->ub, "-b", "2048", "-np", r->np, "-ngl",
		r->ngl, "--no-mmap", model, NULL };
	struct test_run run;
	struct jsonnode *root;
	const struct jsonnode *plan;
	const char *basis;
	char *err = NULL;

	test_run_bin(&run, argv, NULL, 0);
	root = jsontree_parse(run.out, run.out_len, &err);
	cr_assert(root != NULL, "gguflint's JSON: %s (stderr: %s)", err,
	    run.err);
	plan = jsontree_pointer(root, "/files/0/plan");
	cr_assert(jsontree_int64(jsontree_get(plan, "compute_bytes"),
		      &p->compute),
	    "no compute_bytes in the plan");
	basis = jsontree_str(jsontree_get(plan, "compute_basis"));
	cr_assert(basis != NULL, "no compute_basis in the plan");
	snprintf(p->basis, sizeof p->basis, "%s", basis);
	p->host = device_compute(plan, 0);
	p->dev = device_compute(plan, 1);
	jsontree_free(root);
	test_run_free(&run);
}

/* One row: placed and llama.cpp's to the byte (every buffer, and each of
 * the host's and the device's when there are two). */
static void
check_row(const char *model, const char *profile, const struct row *r)
{
	struct planned p;

	plan_row(model, profile, r, &p);
	cr_expect_str_eq(p.basis, "placed", "ctx %s -fa %s -np %s -ngl %s",
	    r->ctx, r->fa, r->np, r->ngl);
	cr_expect_eq(p.compute, r->compute,
	    "ctx %s -ctk %s -ctv %s -fa %s -np %s -ngl %s: placed %" PRId64
	    ", llama.cpp %" PRId64,
	    r->ctx, r->ctk, r->ctv, r->fa, r->np, r->ngl, p.compute,
	    r->compute);
	if (r->dev >= 0) {
		cr_expect_eq(p.host, r->host,
		    "ctx %s -fa %s -np %s -ngl %s: host %" PRId64
		    ", llama.cpp %" PRId64,
		    r->ctx, r->fa, r->np, r->ngl, p.host, r->host);
		cr_expect_eq(p.dev, r->dev,
		    "ctx %s -fa %s -np %s -ngl %s: device %" PRId64
		    ", llama.cpp %" PRId64,
		    r->ctx, r->fa, r->np, r->ngl, p.dev, r->dev);
	}
}

/* Rows seen by check_table in this test: under make check-valgrind, where
 * a plan under memcheck takes over a second, every VALGRIND_STEP-th of
 * them is planned (each test runs in a process of its own, so the
 * sample moves on from one architecture's rows to the next's): one or
 * two an architecture: 37 plans for the CPU table's 870 rows (130 plans
 * took 176 s here). */
#define VALGRIND_STEP 24
static unsigned rows_seen;

/* Every row of table for arch, weights wtype and backend, at least want
 * of them (under make check-valgrind, one of the sample). */
static void
check_table(const char *name, const char *arch, const char *wtype,
    const char *backend, size_t want)
{
	unsigned step = test_valgrind_step(VALGRIND_STEP);
	char *table = xasprintf("%s/tests/oracle/%s", test_srcdir(), name);
	char *profile = write_profile(backend);
	char *model = test_tmpfile("", 0);
	char why[256], line[4096];
	FILE *fp = fopen(table, "r");
	size_t n_rows = 0;
	struct row r;

	cr_assert(fp != NULL, "cannot open %s", table);
	cr_assert(oraclegen_write(arch, wtype, model, why, sizeof why) == 0,
	    "oraclegen: %s", why);
	while (fgets(line, sizeof line, fp) != NULL)
		if (parse_row(line, arch, wtype, backend, &r) &&
		    rows_seen++ % step == 0) {
			check_row(model, profile, &r);
			n_rows++;
		}
	fclose(fp);
	cr_expect_geq(n_rows, step == 1 ? want : 1, "%s: only %zu rows in %s",
	    arch, n_rows, table);
	unlink(model);
	unlink(profile);
	free(model);
	free(profile);
	free(table);
}

/* The architectures graph.c builds: llama's graph, with biases (qwen2,
 * starcoder2), Q's and K's norms per head (qwen3) or per row with norms
 * after attention and FFN (olmo2), layer norms and a GELU MLP
 * (starcoder2), the embeddings and Q scaled (gemma), learned positions
 * and a fused QKV (gpt2), a sliding-window cache beside the model's with
 * attention and FFN side by side (cohere2), norms before and after
 * attention and FFN with soft caps (gemma2) or Q's and K's norms
 * (gemma3), both with that window cache, a fused QKV with attention and
 * FFN side by side (falcon), one up product halved by its GLU and the
 * FFN's residual added the other way (phi3), experts chosen by a top-k
 * router (qwen3moe), and beside them a shared expert (qwen2moe), or
 * chosen from the router's biased logits with their own biases and the
 * attention's sinks, the output rows taken after the last layer
 * (gpt-oss), or by the logits with their sigmoid weighting the input, a
 * shared expert, every fourth layer not roped (llama4), or by sigmoid
 * weights and a bias, a leading dense layer, an MTP layer left out
 * (glm4moe); Mamba's and Mamba-2's recurrent layers, their states read
 * and written back, the scan on the host where the device does not run
 * it (mamba, mamba2), and Mamba-2 layers among attention layers, each
 * with an FFN, scaled residuals (granitehybrid), or short convolutions
 * among them, the residuals added the other way (lfm2), AltUp's stack,
 * laurel, activation sparsity, per-layer inputs and layers reading an
 * earlier layer's cache (gemma3n), MLA's latent attention (deepseek2),
 * encoders attending to the ubatch without a cache (bert, nomic-bert),
 * and llama's graph under another name (ernie4_5), with Q scaled by
 * the attention temperature (mistral3), the FFN's norm named otherwise
 * (seed_oss), every fourth layer not roped (smollm3), Q's and K's norms
 * after the RoPE (hunyuan-dense), scaled residuals and embeddings
 * (granite), attention and FFN side by side in layer norms (command-r),
 * norms without weights and Q, K and V clamped (olmo), norms after the
 * parts and RoPE in the sliding-window layers alone (exaone4), experts
 * chosen by a softmax's top k, their weights not normalized, with Q's
 * and K's norms
 * over their rows (olmoe), phi3's graph with experts as wide as the
 * FFN (phimoe), Granite's scales around llama's layers with those
 * experts (granitemoe), experts chosen by a sigmoid or a softmax and a
 * bias, their weights always normalized, without a shared expert
 * (minimax-m2, its Q's and K's norms over their rows) or with one of
 * its own width after dense layers (ernie4_5-moe), or chosen by a
 * softmax beside a shared expert, Q's and K's norms after their RoPE
 * (hunyuan-moe); M-RoPE's four positions a token and the deepstack's
 * wider input embeddings, a slice added after each of the first layers
 * (qwen3vl, qwen3vlmoe); lfm2's layers with a dense first FFN, then
 * experts chosen by their sigmoid and a bias, each layer's experts
 * summed before the next layer's states are read (lfm2moe); the dense
 * ones of the recipe: norms before and after with a doubled ffn_up
 * (glm4), ReLU squared (arcee, nemotron) or xIELU (apertus) without a
 * gate, llama's under other names (exaone, internlm2, xverse, orion,
 * qwen), roped in 7B alone (baichuan), MiniCPM's scales
 * (minicpm), sinks, per-layer windows and RoPE (granite_swa), layer
 * norms with Q and K's (stablelm), attention and FFN side by side
 * (phi2, gptneox), learned positions (starcoder), ALiBi (bloom, mpt,
 * refact), gpt2-like with RoPE (codeshell); Gated
 * DeltaNet layers among attention layers whose Q product holds a gate,
 * with a dense FFN or with experts and a shared expert its router's
 * sigmoid gates (qwen35, qwen35moe), qwen3next's forms of them (Q's
 * product reshaped first, beta and alpha one product, Q and K repeated
 * to V's heads); layers of one part each, Mamba-2, attention without
 * RoPE or a ReLU-squared FFN, the output rows taken after the output
 * norm (nemotron_h), its FFN layers with experts and a shared expert
 * of ReLU squared, chosen by their sigmoid and a bias (nemotron_h_moe);
 * attention and a Mamba-2 layer side by side on one norm, summed
 * (falcon-h1); llama's
 * attention with deepseek2's softmax-chosen experts and shared experts
 * after a dense layer (deepseek, deepseek2-ocr); glm4moe's
 * experts after Q's and K's norms on a fused QKV, an MTP layer loaded
 * and skipped (bailingmoe2), or on separate Q, K and V of as many
 * heads (dots1), or with sliding windows as a per-layer array marks
 * them, roped there alone, a shared expert of its own width (exaone-moe);
 * experts chosen by a softmax beside a shared expert, in every
 * layer (bailingmoe); layer norms, a fused QKV clamped, the FFN normed
 * by attn_output_norm, experts alone (dbrx); glm4moe's experts after Q's
 * and K's norms, a routing bias without a suffix, the output rows taken
 * after the output norm (hy_v3); cohere2's parallel layers with
 * experts, roped in the windowed and the leading dense layers, the
 * shared expert's sum halved, the rows after the output norm
 * (cohere2moe);
 * and how many rows of the CPU table
 * each has (cohere2's, gpt-oss's, llama4's, glm4moe's, mamba2's,
 * granitehybrid's, lfm2's, gemma3n's, ernie4_5's and the later ones'
 * measured on haswell's library alone). */
static const struct {
	const char *name;
	size_t cpu_rows;
} archs[] = { { "llama", 60 }, { "qwen2", 60 }, { "qwen3", 60 },
	{ "olmo2", 60 }, { "starcoder2", 60 }, { "gemma", 60 }, { "gpt2", 60 },
	{ "cohere2", 30 }, { "gemma2", 60 }, { "gemma3", 60 }, { "falcon", 60 },
	{ "phi3", 60 }, { "qwen3moe", 60 }, { "qwen2moe", 60 },
	{ "gpt-oss", 30 }, { "llama4", 30 }, { "glm4moe", 30 }, { "mamba", 60 },
	{ "mamba2", 30 }, { "granitehybrid", 30 }, { "lfm2", 30 },
	{ "gemma3n", 30 }, { "deepseek2", 36 }, { "bert", 60 },
	{ "nomic-bert", 60 }, { "ernie4_5", 30 }, { "mistral3", 30 },
	{ "seed_oss", 30 }, { "smollm3", 30 }, { "hunyuan-dense", 30 },
	{ "granite", 30 }, { "command-r", 30 }, { "olmo", 30 },
	{ "exaone4", 30 }, { "olmoe", 30 }, { "phimoe", 30 },
	{ "granitemoe", 30 }, { "minimax-m2", 30 }, { "ernie4_5-moe", 30 },
	{ "qwen3vl", 30 }, { "qwen3vlmoe", 30 }, { "hunyuan-moe", 30 },
	{ "lfm2moe", 30 }, { "glm4", 30 }, { "arcee", 30 }, { "apertus", 30 },
	{ "exaone", 30 }, { "internlm2", 30 }, { "baichuan", 30 },
	{ "xverse", 30 }, { "deepseek", 18 }, { "deepseek2-ocr", 18 },
	{ "qwen35", 30 }, { "qwen35moe", 30 }, { "qwen3next", 30 },
	{ "nemotron_h", 30 }, { "nemotron_h_moe", 30 }, { "falcon-h1", 30 },
	{ "orion", 30 }, { "minicpm", 30 }, { "nemotron", 30 },
	{ "stablelm", 30 }, { "granite_swa", 30 }, { "phi2", 30 },
	{ "gptneox", 30 }, { "starcoder", 30 }, { "bloom", 30 }, { "mpt", 30 },
	{ "qwen", 30 }, { "refact", 30 }, { "codeshell", 30 },
	{ "bailingmoe2", 30 }, { "dots1", 30 }, { "exaone-moe", 30 },
	{ "bailingmoe", 30 }, { "dbrx", 30 }, { "hy_v3", 30 },
	{ "cohere2moe", 30 } };

#define N_ARCHS (sizeof archs / sizeof archs[0])

Test(graph, placed_graph_is_llamas_own_compute_buffer, .timeout = 300)
{
	size_t i;

	for (i = 0; i < N_ARCHS; i++)
		check_table("measured-cpu.tsv", archs[i].name, "q4_0", "cpu",
		    archs[i].cpu_rows);
}

Test(graph, placed_graph_beside_vulkan_is_llamas_own, .timeout = 300)
{
	static const char *const wtypes[] = { "q8_0", "f16" };
	size_t i;

	for (i = 0; i < N_ARCHS; i++)
		check_table("measured-vulkan.tsv", archs[i].name, "q4_0",
		    "vulkan", 36);
	/* the weights' types change the copies of the host's layers */
	for (i = 0; i < sizeof wtypes / sizeof wtypes[0]; i++)
		check_table("measured-vulkan.tsv", "llama", wtypes[i], "vulkan",
		    36);
}

/* Every architecture's q8_0 and f16 weights beside Vulkan (under
 * valgrind every third architecture's: the rows above cover the rest). */
Test(graph, placed_graph_of_other_weights_beside_vulkan, .timeout = 300)
{
	static const char *const wtypes[] = { "q8_0", "f16" };
	size_t i, k, step = test_valgrind_step(2) > 1 ? 3 : 1;

	for (i = 1; i < N_ARCHS; i += step)
		for (k = 0; k < sizeof wtypes / sizeof wtypes[0]; k++)
			check_table("measured-vulkan.tsv", archs[i].name,
			    wtypes[k], "vulkan", 36);
}

/* A file with a tensor the graph does not read is another graph: qwen3's
 * model relabelled llama (its keys renamed, same lengths) keeps Q's and K's
 * norms, which llama's graph does not read; placed as qwen3, not as
 * llama. */
/* A LoRA adapter adds its products beside the weights it adapts: the
 * oracle's llama with one (block 0's Q, rank 2) is not placed. */
Test(graph, adapter_is_not_placed, .timeout = 60)
{
	static const struct row r = { "512", "512", "on", "f16", "f16", "1",
		"0", 0, -1, -1 };
	static const int64_t a[4] = { 512, 2, 1, 1 }, bq[4] = { 2, 512, 1, 1 };
	char *profile = write_profile("cpu");
	char *model = test_tmpfile("", 0), *lora;
	char why[256];
	struct ggufw_model m;
	struct strbuf out = STRBUF_INIT;
	struct planned p;
	const char *argv[] = { "--no-config", "--format", "json", "--plan",
		"-p", profile, "-c", r.ctx, "-fa", r.fa, "--no-mmap", "--lora",
		NULL, model, NULL };
	struct test_run run;
	struct jsonnode *root;
	const char *basis;
	char *err = NULL;

	cr_assert(oraclegen_write("llama", "q4_0", model, why, sizeof why) == 0,
	    "oraclegen: %s", why);
	plan_row(model, profile, &r, &p);
	cr_expect_str_eq(p.basis, "placed");
	ggufw_model_init(&m, false, 32);
	ggufw_model_kv_str(&m, "general.architecture", "llama");
	ggufw_model_kv_str(&m, "general.type", "adapter");
	ggufw_model_kv_str(&m, "adapter.type", "lora");
	ggufw_model_kv_f32(&m, "adapter.lora.alpha", 4.0f);
	ggufw_model_tensor(&m, "blk.0.attn_q.weight.lora_a", 2, a,
	    GGUFW_GGML_F32, 1, 4);
	ggufw_model_tensor(&m, "blk.0.attn_q.weight.lora_b", 2, bq,
	    GGUFW_GGML_F32, 1, 4);
	ggufw_model_finish(&m, &out, GGUFW_DATA_RANDOM);
	ggufw_model_free(&m);
	lora = test_tmpfile(out.buf, out.len);
	argv[12] = lora;
	test_run_bin(&run, argv, NULL, 0);
	root = jsontree_parse(run.out, run.out_len, &err);
	cr_assert(root != NULL, "gguflint's JSON: %s (stderr: %s)", err,
	    run.err);
	basis = jsontree_str(
	    jsontree_get(jsontree_pointer(root, "/files/0/plan"),
		"compute_basis"));
	cr_assert(basis != NULL, "no compute_basis (stderr: %s)", run.err);
	cr_expect_str_neq(basis, "placed", "a graph with a LoRA placed");
	jsontree_free(root);
	test_run_free(&run);
	strbuf_free(&out);
	unlink(lora);
	unlink(model);
	unlink(profile);
	free(lora);
	free(model);
	free(profile);
}

/* A cache type the graph is not built for (q4_0: the tables hold f16
 * and q8_0 alone) keeps the model. */
Test(graph, unbuilt_cache_type_is_not_placed, .timeout = 60)
{
	static const struct row built = { "512", "512", "on", "q8_0", "q8_0",
		"1", "0", 0, -1, -1 };
	static const struct row other = { "512", "512", "on", "q4_0", "q4_0",
		"1", "0", 0, -1, -1 };
	char *profile = write_profile("cpu");
	char *model = test_tmpfile("", 0);
	char why[256];
	struct planned p;

	cr_assert(oraclegen_write("llama", "q4_0", model, why, sizeof why) == 0,
	    "oraclegen: %s", why);
	plan_row(model, profile, &built, &p);
	cr_expect_str_eq(p.basis, "placed");
	plan_row(model, profile, &other, &p);
	cr_expect_str_neq(p.basis, "placed", "a q4_0 cache placed");
	unlink(model);
	unlink(profile);
	free(model);
	free(profile);
}

Test(graph, unread_tensor_is_not_placed, .timeout = 60)
{
	static const struct row r = { "512", "512", "on", "f16", "f16", "1",
		"0", 0, -1, -1 };
	char *profile = write_profile("cpu");
	char *model = test_tmpfile("", 0);
	char why[256], *buf, *p;
	struct planned before, after;
	FILE *fp;
	long n;

	cr_assert(oraclegen_write("qwen3", "q4_0", model, why, sizeof why) == 0,
	    "oraclegen: %s", why);
	plan_row(model, profile, &r, &before);
	cr_expect_str_eq(before.basis, "placed");
	fp = fopen(model, "r+b");
	cr_assert(fp != NULL && fseek(fp, 0, SEEK_END) == 0);
	n = ftell(fp);
	cr_assert(n > 0 && fseek(fp, 0, SEEK_SET) == 0);
	buf = malloc((size_t)n);
	cr_assert(buf != NULL && fread(buf, 1, (size_t)n, fp) == (size_t)n);
	for (p = buf;
	     (p = memmem(p, (size_t)(buf + n - p), "qwen3", 5)) != NULL; p += 5)
		memcpy(p, "llama", 5);
	cr_assert(fseek(fp, 0, SEEK_SET) == 0 &&
	    fwrite(buf, 1, (size_t)n, fp) == (size_t)n && fclose(fp) == 0);
	plan_row(model, profile, &r, &after);
	cr_expect_str_neq(after.basis, "placed",
	    "llama's graph placed for a file with Q's and K's norms");
	free(buf);
	unlink(model);
	unlink(profile);
	free(model);
	free(profile);
}
