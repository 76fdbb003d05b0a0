/*
 * test_config.c - the gate: .gguflint.yaml (found upward, or --config),
 * command-line precedence, severity overrides, per-file ignores,
 * suppressions naming a tensor (or a pattern) or key, declarative rule
 * files (PCRE2), baselines and max-per-rule in the configuration, the
 * failing severity, the warning budget, --quiet, --statistics, --color, and
 * every configuration error reported at FILE:LINE:COL with exit 2.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "data/builtin.h"
#include "ggufw.h"
#include "golden.h"
#include "oraclegen.h"
#include "testutil.h"

/* A temporary project: dir/.gguflint.yaml, dir/sub/, dir/m.gguf. */
struct project {
	char dir[64];
	char *sub;
	char *model;
};

static void
write_text(const char *path, const char *text)
{
	FILE *fp = fopen(path, "w");

	cr_assert(fp != NULL, "%s", path);
	fputs(text, fp);
	fclose(fp);
}

/*
 * The model: llama with a BOOL of byte 7 (F028 error, key odd.bool), a
 * duplicate tensor name (F017 error, tensor dup.weight), an empty tensor
 * (F027 warning, tensor empty.weight), a 1 MiB F32 matrix big.weight and
 * general.license "proprietary".
 */
static void
project_init(struct project *p, const char *config)
{
	static const int64_t small[] = { 32 }, big[] = { 512, 512 };
	static const int64_t none[] = { 0 };
	struct ggufw_model m;
	struct strbuf sb = STRBUF_INIT;
	struct ggufw *w;

	strcpy(p->dir, "/tmp/gguflint-cfg-XXXXXX");
	cr_assert(mkdtemp(p->dir) != NULL);
	p->sub = xasprintf("%s/sub", p->dir);
	p->model = xasprintf("%s/m.gguf", p->dir);
	cr_assert(mkdir(p->sub, 0700) == 0);
	ggufw_model_init(&m, false, 32);
	ggufw_model_kv_str(&m, "general.architecture", "llama");
	ggufw_model_kv_str(&m, "general.license", "proprietary");
	w = ggufw_model_kv_raw(&m);
	ggufw_kv_bool(w, "odd.bool", 7);
	ggufw_model_tensor(&m, "dup.weight", 1, small, 0, 1, 4);
	ggufw_model_tensor(&m, "dup.weight", 1, small, 0, 1, 4);
	ggufw_model_tensor(&m, "big.weight", 2, big, 0, 1, 4);
	ggufw_model_tensor(&m, "empty.weight", 1, none, 0, 1, 4);
	ggufw_model_finish(&m, &sb, GGUFW_DATA_ZERO);
	cr_assert(ggufw_write_file(p->model, sb.buf, sb.len) == 0);
	strbuf_free(&sb);
	ggufw_model_free(&m);
	if (config != NULL) {
		char *c = xasprintf("%s/.gguflint.yaml", p->dir);

		write_text(c, config);
		free(c);
	}
}

static void
project_free(struct project *p)
{
	char *cmd = xasprintf("rm -rf '%s'", p->dir);

	cr_assert(system(cmd) == 0);
	free(cmd);
	free(p->sub);
	free(p->model);
}

/* Run the binary from dir with up to six arguments (NULL-terminated). */
static void
run_in(struct test_run *r, const char *dir, const char *a0, const char *a1,
    const char *a2, const char *a3, const char *a4, const char *a5)
{
	const char *argv[] = { a0, a1, a2, a3, a4, a5, NULL };

	cr_assert(chdir(dir) == 0);
	test_run_bin(r, argv, NULL, 0);
}

Test(config, found_upward_and_applied)
{
	struct project p;
	struct test_run r;

	project_init(&p, "# test\nignore: [F017, F028]\n");
	run_in(&r, p.sub, "--select=F", "../m.gguf", NULL, NULL, NULL, NULL);
	cr_assert_eq(r.status, 0, "F017 ignored by the file: %s", r.out);
	cr_assert(strstr(r.out, "F027") != NULL);
	cr_assert(strstr(r.out, "F017") == NULL);
	test_run_free(&r);
	/* --no-config: the file is not read */
	run_in(&r, p.sub, "--no-config", "--select=F", "../m.gguf", NULL, NULL,
	    NULL);
	cr_assert_eq(r.status, 1);
	cr_assert(strstr(r.out, "F017") != NULL);
	test_run_free(&r);
	project_free(&p);
}

Test(config, command_line_wins)
{
	struct project p;
	struct test_run r;

	project_init(&p,
	    "select: [F017]\nprofile: mobile_2gb\nctx: 1024\n"
	    "kv: q8_0\n");
	run_in(&r, p.dir, "--format=json", "m.gguf", NULL, NULL, NULL, NULL);
	cr_assert(strstr(r.out, "\"profile\": \"mobile_2gb\"") != NULL, "%s",
	    r.out);
	cr_assert(strstr(r.out, "\"ctx\": 1024") != NULL);
	cr_assert(strstr(r.out, "\"kv_type\": \"q8_0\"") != NULL);
	cr_assert(strstr(r.out, "\"F028\"") == NULL, "config selects F017");
	test_run_free(&r);
	run_in(&r, p.dir, "--format=json", "-p", "desktop", "--select=F028",
	    "m.gguf", NULL);
	cr_assert(strstr(r.out, "\"profile\": \"desktop\"") != NULL);
	cr_assert(strstr(r.out, "\"F028\"") != NULL);
	cr_assert(strstr(r.out, "\"F017\"") == NULL, "CLI select replaces");
	test_run_free(&r);
	project_free(&p);
}

/*
 * A gemma3-shaped model at dir/g.gguf that llama.cpp plans: 6 layers,
 * head width 256 (any cache type's block divides it), a 512-token window.
 */
static char *
write_gemma3(const char *dir)
{
	static const int64_t ne[] = { 256, 64 };
	struct ggufw_model m;
	struct strbuf sb = STRBUF_INIT;
	char *path = xasprintf("%s/g.gguf", dir);

	ggufw_model_init(&m, false, 32);
	ggufw_model_kv_str(&m, "general.architecture", "gemma3");
	ggufw_model_kv_u32(&m, "gemma3.block_count", 6);
	ggufw_model_kv_u32(&m, "gemma3.embedding_length", 256);
	ggufw_model_kv_u32(&m, "gemma3.feed_forward_length", 1024);
	ggufw_model_kv_u32(&m, "gemma3.context_length", 8192);
	ggufw_model_kv_u32(&m, "gemma3.vocab_size", 64);
	ggufw_model_kv_u32(&m, "gemma3.attention.head_count", 1);
	ggufw_model_kv_u32(&m, "gemma3.attention.head_count_kv", 1);
	ggufw_model_kv_u32(&m, "gemma3.attention.key_length", 256);
	ggufw_model_kv_u32(&m, "gemma3.attention.value_length", 256);
	ggufw_model_kv_u32(&m, "gemma3.attention.sliding_window", 512);
	ggufw_model_tensor(&m, "token_embd.weight", 2, ne, GGUFW_GGML_F32, 1,
	    4);
	ggufw_model_finish(&m, &sb, GGUFW_DATA_ZERO);
	cr_assert(ggufw_write_file(path, sb.buf, sb.len) == 0);
	strbuf_free(&sb);
	ggufw_model_free(&m);
	return path;
}

/* Whether the JSON report r holds "key": value (value as JSON text). */
static bool
has_json(const struct test_run *r, const char *key, const char *value)
{
	char *want = xasprintf("\"%s\": %s", key, value);
	bool found = strstr(r->out, want) != NULL;

	free(want);
	return found;
}

/* The file's llama.cpp settings plan; each flag given wins over its key. */
Test(config, llama_settings_and_command_line_wins)
{
	struct project p;
	struct test_run r;
	char *model;

	project_init(&p,
	    "profile: gpu_8gb\nctx: 4096\n"
	    "cache_type_k: q8_0\ncache_type_v: q4_0\nflash_attn: on\n"
	    "ubatch_size: 256\nbatch_size: 1024\nparallel: 2\n"
	    "n_gpu_layers: 3\nno_mmap: true\nswa_full: true\n");
	model = write_gemma3(p.dir);
	run_in(&r, p.dir, "--format=json", "g.gguf", NULL, NULL, NULL, NULL);
	cr_assert(has_json(&r, "k_type", "\"q8_0\""), "%s", r.out);
	cr_assert(has_json(&r, "v_type", "\"q4_0\""));
	cr_assert(has_json(&r, "flash_attention", "true"));
	cr_assert(has_json(&r, "n_ubatch", "256"));
	cr_assert(has_json(&r, "n_seq", "2"));
	cr_assert(has_json(&r, "n_gpu_layers", "3"));
	cr_assert(has_json(&r, "weights_mapped_bytes", "0"), "no_mmap");
	/* swa_full: the window layers hold the whole stream, 2048 cells */
	cr_assert(has_json(&r, "swa_cells", "2048"), "%s", r.out);
	test_run_free(&r);
	/* the command line wins, key by key; --kv over cache_type_k/_v */
	{
		const char *argv[] = { "--format=json", "--kv=f16", "-fa",
			"off", "-ub", "128", "-np", "1", "-ngl", "all",
			"g.gguf", NULL };

		cr_assert(chdir(p.dir) == 0);
		test_run_bin(&r, argv, NULL, 0);
	}
	cr_assert(has_json(&r, "k_type", "\"f16\""), "%s", r.out);
	cr_assert(has_json(&r, "v_type", "\"f16\""));
	cr_assert(has_json(&r, "flash_attention", "false"));
	cr_assert(has_json(&r, "n_ubatch", "128"));
	cr_assert(has_json(&r, "n_seq", "1"));
	cr_assert(has_json(&r, "n_gpu_layers", "7"), "6 + output");
	cr_assert(has_json(&r, "swa_cells", "4096"), "%s", r.out);
	test_run_free(&r);
	/* -ctv over the file's cache_type_v; K stays the file's */
	run_in(&r, p.dir, "--format=json", "-ctv", "q8_0", "g.gguf", NULL,
	    NULL);
	cr_assert(has_json(&r, "k_type", "\"q8_0\""), "%s", r.out);
	cr_assert(has_json(&r, "v_type", "\"q8_0\""));
	test_run_free(&r);
	free(model);
	project_free(&p);
	/* without the keys: llama.cpp's defaults, the window's own cells */
	project_init(&p, "profile: laptop_16gb\nctx: 4096\n");
	model = write_gemma3(p.dir);
	run_in(&r, p.dir, "--format=json", "g.gguf", NULL, NULL, NULL, NULL);
	cr_assert(has_json(&r, "k_type", "\"f16\""), "%s", r.out);
	cr_assert(has_json(&r, "n_ubatch", "512"));
	cr_assert(has_json(&r, "swa_cells", "1024"), "%s", r.out);
	cr_assert(!has_json(&r, "weights_mapped_bytes", "0"), "mapped");
	test_run_free(&r);
	free(model);
	project_free(&p);
	/* n_gpu_layers: all is every layer and the output one; 0 is none */
	project_init(&p, "profile: gpu_8gb\nn_gpu_layers: all\n");
	model = write_gemma3(p.dir);
	run_in(&r, p.dir, "--format=json", "g.gguf", NULL, NULL, NULL, NULL);
	cr_assert(has_json(&r, "n_gpu_layers", "7"), "%s", r.out);
	test_run_free(&r);
	free(model);
	project_free(&p);
	project_init(&p, "profile: gpu_8gb\nn_gpu_layers: 0\n");
	model = write_gemma3(p.dir);
	run_in(&r, p.dir, "--format=json", "g.gguf", NULL, NULL, NULL, NULL);
	cr_assert(has_json(&r, "n_gpu_layers", "0"), "%s", r.out);
	test_run_free(&r);
	free(model);
	project_free(&p);
}

/*
 * n_cpu_moe (llama.cpp's --n-cpu-moe): the first layers' expert weights
 * stay on the host, three tensors a layer of the oracle's qwen3moe; -cmoe
 * is every layer, -ncmoe wins over the file; a bad count is exit 2.
 */
Test(config, n_cpu_moe_and_command_line_wins)
{
	struct project p;
	struct test_run r;
	char why[256], *model;

	project_init(&p, "profile: gpu_8gb\nn_cpu_moe: 2\n");
	model = xasprintf("%s/moe.gguf", p.dir);
	cr_assert(oraclegen_write("qwen3moe", "q4_0", model, why, sizeof why) ==
		0,
	    "%s", why);
	run_in(&r, p.dir, "--format=json", "moe.gguf", NULL, NULL, NULL, NULL);
	cr_assert(has_json(&r, "cpu_moe", "{\"layers\": 2, \"tensors\": 6"),
	    "%s", r.out);
	test_run_free(&r);
	run_in(&r, p.dir, "--format=json", "-cmoe", "moe.gguf", NULL, NULL,
	    NULL);
	cr_assert(has_json(&r, "cpu_moe", "{\"layers\": 4, \"tensors\": 12"),
	    "every layer: %s", r.out);
	test_run_free(&r);
	run_in(&r, p.dir, "--format=json", "-ncmoe", "1", "moe.gguf", NULL,
	    NULL);
	cr_assert(has_json(&r, "cpu_moe", "{\"layers\": 1, \"tensors\": 3"),
	    "%s", r.out);
	test_run_free(&r);
	run_in(&r, p.dir, "-ncmoe", "x", "moe.gguf", NULL, NULL, NULL);
	cr_assert_eq(r.status, 2);
	cr_assert(strstr(r.err, "--n-cpu-moe: expected a number of layers") !=
		NULL,
	    "%s", r.err);
	test_run_free(&r);
	unlink(model);
	free(model);
	project_free(&p);
}

/*
 * A MoE model over its GPU's memory: the suggestion keeps the fewest
 * layers' experts on the CPU (-ncmoe) that let the rest fit, as
 * llama.cpp's --fit does first: qwen3moe-wide's q4_0 (1.3 GiB) on a
 * 1 GiB device needs two of four layers' experts off it (one leaves
 * 1.25 GB there; measured with llama.cpp, tests/oracle/README.md), and
 * planning with it fits.
 */
Test(config, a_moe_model_over_its_device_suggests_n_cpu_moe)
{
	struct project p;
	struct test_run r;
	char why[256], *model;
	const char *vk = "name: small_gpu\ndescription: a 1 GiB GPU\n"
			 "runtime: llama.cpp\nbackend: vulkan\n"
			 "cpu_features: [avx2, f16c, fma]\nmemory: 16 GiB\n"
			 "device_memory: 1 GiB\nreserve: 1 GiB\n"
			 "weights: mapped\ncontext: 4096\nkv_cache: f16\n"
			 "ubatch: 512\nflash_attention: true\n";

	project_init(&p, "profile: small.yaml\n");
	model = xasprintf("%s/small.yaml", p.dir);
	write_text(model, vk);
	free(model);
	model = xasprintf("%s/wide.gguf", p.dir);
	cr_assert(oraclegen_write("qwen3moe-wide", "q4_0", model, why,
		      sizeof why) == 0,
	    "%s", why);
	run_in(&r, p.dir, "--format=json", "wide.gguf", NULL, NULL, NULL, NULL);
	cr_assert(strstr(r.out, "\"args\": \"-ncmoe 2\"") != NULL, "%s", r.out);
	test_run_free(&r);
	run_in(&r, p.dir, "--format=json", "-ncmoe", "2", "wide.gguf", NULL,
	    NULL);
	cr_assert(has_json(&r, "fits", "true"), "%s", r.out);
	cr_assert(strstr(r.out, "-ncmoe") == NULL, "no suggestion: %s", r.out);
	test_run_free(&r);
	unlink(model);
	free(model);
	project_free(&p);
}

Test(config, severity_override_and_fail_on)
{
	struct project p;
	struct test_run r;

	project_init(&p,
	    "select: [F027]\nseverity:\n  zero-size-tensor: "
	    "error\n");
	run_in(&r, p.dir, "m.gguf", NULL, NULL, NULL, NULL, NULL);
	cr_assert_eq(r.status, 1, "a warning raised to error: %s", r.out);
	cr_assert(strstr(r.out, ": error: F027") != NULL, "%s", r.out);
	test_run_free(&r);
	project_free(&p);
	project_init(&p,
	    "select: [F028]\nseverity:\n  invalid-bool: "
	    "warning\n");
	run_in(&r, p.dir, "m.gguf", NULL, NULL, NULL, NULL, NULL);
	cr_assert_eq(r.status, 0, "an error lowered to warning: %s", r.out);
	cr_assert(strstr(r.out, ": warning: F028") != NULL, "%s", r.out);
	test_run_free(&r);
	project_free(&p);
	project_init(&p, "select: [F027]\nfail-on: warning\n");
	run_in(&r, p.dir, "m.gguf", NULL, NULL, NULL, NULL, NULL);
	cr_assert_eq(r.status, 1, "fail-on warning");
	test_run_free(&r);
	run_in(&r, p.dir, "--fail-on=error", "m.gguf", NULL, NULL, NULL, NULL);
	cr_assert_eq(r.status, 0, "the command line wins");
	test_run_free(&r);
	project_free(&p);
}

Test(config, per_file_ignores_and_suppressions)
{
	struct project p;
	struct test_run r;

	project_init(&p,
	    "select: [F]\nper-file-ignores:\n"
	    "  \"m.*\": [F027, F028]\n"
	    "suppress:\n  - { rule: F017, tensor: dup.weight }\n");
	run_in(&r, p.sub, "../m.gguf", NULL, NULL, NULL, NULL, NULL);
	cr_assert_eq(r.status, 0, "%s", r.out);
	cr_assert_str_empty(r.out);
	test_run_free(&r);
	project_free(&p);
	/* a suppression for another tensor or key leaves the finding */
	project_init(&p,
	    "select: [F]\nsuppress:\n"
	    "  - { rule: F017, tensor: other.weight }\n"
	    "  - { rule: invalid-bool, key: odd.bool, files: \"*.gguf\" }\n");
	run_in(&r, p.dir, "m.gguf", NULL, NULL, NULL, NULL, NULL);
	cr_assert_eq(r.status, 1);
	cr_assert(strstr(r.out, "F017") != NULL);
	cr_assert(strstr(r.out, "F028") == NULL, "%s", r.out);
	test_run_free(&r);
	project_free(&p);
}

Test(config, declarative_rules)
{
	struct project p;
	struct test_run r;
	char *rules;

	project_init(&p, "select: [X]\nrules: [team-rules.yaml]\n");
	rules = xasprintf("%s/team-rules.yaml", p.dir);
	write_text(rules,
	    "- code: X001\n  slug: license-allowed\n  severity: error\n"
	    "  summary: general.license must be mit or apache-2.0\n"
	    "  fix: relicense or do not publish\n  match: value\n"
	    "  key: '^general\\.license$'\n  require: '^(mit|apache-2\\.0)$'\n"
	    "- code: X002\n  slug: no-big-f32\n  severity: warning\n"
	    "  summary: no F32 matrices larger than 1 MiB\n"
	    "  fix: quantize it\n  match: tensor\n  types: [f32]\n"
	    "  min_dims: 2\n  min_bytes: 1 MiB\n  forbid: '.'\n"
	    "- code: X003\n  slug: no-odd-keys\n  severity: info\n"
	    "  summary: no odd keys\n  fix: remove them\n  match: key\n"
	    "  forbid: '^odd\\.'\n"
	    "- code: X004\n  slug: needs-author\n  severity: warning\n"
	    "  summary: general.author is required\n  fix: add it\n"
	    "  match: key\n  require: '^general\\.author$'\n");
	run_in(&r, p.dir, "m.gguf", NULL, NULL, NULL, NULL, NULL);
	cr_assert_eq(r.status, 1, "%s", r.out);
	cr_assert(strstr(r.out, "X001 license-allowed") != NULL, "%s", r.out);
	cr_assert(strstr(r.out, "[key: general.license]") != NULL);
	cr_assert(strstr(r.out, "X002 no-big-f32") != NULL);
	cr_assert(strstr(r.out, "[tensor: big.weight]") != NULL);
	cr_assert(strstr(r.out, "[tensor: dup.weight]") == NULL, "too small");
	cr_assert(strstr(r.out, "X003 no-odd-keys") != NULL);
	cr_assert(strstr(r.out, "X004 needs-author") != NULL);
	test_run_free(&r);
	/* --dump shows the file: the user's rules are not run, so they
	 * neither print nor fail it */
	run_in(&r, p.dir, "--dump", "m.gguf", NULL, NULL, NULL, NULL);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert(strstr(r.out, "general.license") != NULL, "%s", r.out);
	cr_assert(strstr(r.err, "X00") == NULL, "%s", r.err);
	test_run_free(&r);
	/* the rules are in --explain and --list-rules too */
	run_in(&r, p.dir, "--explain", "no-big-f32", NULL, NULL, NULL, NULL);
	cr_assert_eq(r.status, 0);
	cr_assert(strstr(r.out, "X002") != NULL);
	test_run_free(&r);
	free(rules);
	project_free(&p);
}

/* A configuration error: exit 2, FILE:LINE:COL and what was expected. */
static void
expect_config_error(const char *config, const char *rules, const char *where,
    const char *what)
{
	struct project p;
	struct test_run r;

	project_init(&p, config);
	if (rules != NULL) {
		char *path = xasprintf("%s/r.yaml", p.dir);

		write_text(path, rules);
		free(path);
	}
	run_in(&r, p.dir, "m.gguf", NULL, NULL, NULL, NULL, NULL);
	cr_assert_eq(r.status, 2, "%s", config);
	cr_assert(strstr(r.err, where) != NULL, "want %s in: %s", where, r.err);
	cr_assert(strstr(r.err, what) != NULL, "want %s in: %s", what, r.err);
	test_run_free(&r);
	project_free(&p);
}

Test(config, errors_name_file_line_col)
{
	expect_config_error("profile: desktop\ncolour: red\n", NULL,
	    ".gguflint.yaml:2:1", "unknown key 'colour'");
	expect_config_error("ctx: lots\n", NULL, ".gguflint.yaml:1:6",
	    "non-negative integer");
	expect_config_error("ignore: [F017, Z999]\n", NULL,
	    ".gguflint.yaml:1:16", "unknown rule 'Z999'");
	expect_config_error("severity:\n  F017: fatal\n", NULL,
	    ".gguflint.yaml:2:9", "error, warning or info");
	expect_config_error("kv: q3_0\n", NULL, ".gguflint.yaml:1:5",
	    "KV cache type");
	expect_config_error("cache_type_k: q3_0\n", NULL, ".gguflint.yaml:1:15",
	    "expected a K cache type: f32");
	expect_config_error("kv: f16\ncache_type_v: [q8_0]\n", NULL,
	    ".gguflint.yaml:2:15", "expected a V cache type");
	expect_config_error("flash_attn: true\n", NULL, ".gguflint.yaml:1:13",
	    "expected on, off or auto");
	expect_config_error("ubatch_size: 0\n", NULL, ".gguflint.yaml:1:14",
	    "batch size from 1 to 4294967295");
	expect_config_error("batch_size: 4294967296\n", NULL,
	    ".gguflint.yaml:1:13", "batch size from 1 to 4294967295");
	expect_config_error("parallel: 257\n", NULL, ".gguflint.yaml:1:11",
	    "number of sequences from 1 to 256");
	expect_config_error("n_gpu_layers: -2\n", NULL, ".gguflint.yaml:1:15",
	    "number of layers from 0 to 1000000000, "
	    "-1 or all");
	expect_config_error("n_gpu_layers: 12abc\n", NULL,
	    ".gguflint.yaml:1:15", "-1 or all");
	expect_config_error("n_cpu_moe: some\n", NULL, ".gguflint.yaml:1:12",
	    "number of layers from 0 to 1000000000, -1 or all");
	expect_config_error("no_mmap: sometimes\n", NULL, ".gguflint.yaml:1:10",
	    "expected true or false");
	expect_config_error("swa_full: 1\n", NULL, ".gguflint.yaml:1:11",
	    "expected true or false");
	expect_config_error("parallel: 2\nparallel: 3\n", NULL,
	    ".gguflint.yaml:2:1", "duplicate key 'parallel'");
	expect_config_error("suppress:\n  - { tensor: x }\n", NULL,
	    ".gguflint.yaml:2:5", "missing required key 'rule'");
	expect_config_error("select: [F\n", NULL,
	    ".gguflint.yaml:", "invalid YAML");
	expect_config_error("profile: nonesuch\n", NULL,
	    ".gguflint.yaml:1:10: unknown profile 'nonesuch'", "nonesuch");
	expect_config_error("ctx: 4\nprofile: mobile_2g\n", NULL,
	    ".gguflint.yaml:2:10: unknown profile 'mobile_2g'",
	    "; did you mean 'mobile_2gb'?");
	expect_config_error("profile: profiles/none.yaml\n", NULL,
	    ".gguflint.yaml:1:10: /", "/profiles/none.yaml: No such file");
	expect_config_error("profile: r.yaml\n", "memory: lots\n",
	    "/r.yaml:1:9: expected a size", "or host");
	expect_config_error("rules: [r.yaml]\n",
	    "- code: X001\n  slug: x\n  severity: error\n  summary: s\n"
	    "  fix: f\n  match: tensor\n  forbid: 'a(b'\n",
	    "r.yaml:7:11", "missing closing parenthesis at offset 3");
	expect_config_error("rules: [r.yaml]\n",
	    "- code: X001\n  slug: x\n  severity: error\n  summary: s\n"
	    "  fix: f\n  match: tensor\n",
	    "r.yaml:1:3", "exactly one of require and forbid");
	expect_config_error("rules: [r.yaml]\n",
	    "- code: F001\n  slug: x\n  severity: error\n  summary: s\n"
	    "  fix: f\n  match: key\n  forbid: x\n",
	    "r.yaml:1:3", "already declared");
	expect_config_error("rules: [missing.yaml]\n", NULL,
	    ".gguflint.yaml:1:9: /", "/missing.yaml: No such file");
	expect_config_error("rules:\n  - r.yaml\n  - gone.yaml\n",
	    "- code: X001\n  slug: x\n  severity: error\n  summary: s\n"
	    "  fix: f\n  match: key\n  forbid: x\n",
	    ".gguflint.yaml:3:5: /", "/gone.yaml: No such file");
	expect_config_error("ignore: [tensor-data-out-of-bound]\n", NULL,
	    ".gguflint.yaml:1:10: unknown rule 'tensor-data-out-of-bound'",
	    "; did you mean 'tensor-data-out-of-bounds'?");
	expect_config_error("baseline: [b.json]\n", NULL, ".gguflint.yaml:1:11",
	    "expected a non-empty string");
	expect_config_error("baseline: missing.json\n", NULL, "/missing.json",
	    "No such file");
	expect_config_error("baseline: r.yaml\n",
	    "{\"version\": 1,\n"
	    "\"findings\": [{\"path\": \"m.gguf\"}]}\n",
	    "r.yaml:2:14", "missing required key 'code'");
}

/* A garbled second document after a good first one, at line 3 col 3. */
#define GARBLED "---\n[ : : {\n"

/*
 * A configuration, rule or profile file is exactly one YAML document: a
 * second one, or text libyaml cannot parse after the first, is an error at
 * FILE:LINE:COL saying what was expected (exit 2), not ignored.
 */
Test(config, exactly_one_document_per_file)
{
	struct datafile df;
	struct gl_error err;
	struct project p;
	struct test_run r;
	char *cfg, *prof, *want;
	size_t i, lines = 0;

	expect_config_error("select: [F017]\n" GARBLED, NULL,
	    ".gguflint.yaml:3:3: invalid YAML after the first document",
	    "did not find expected node content");
	expect_config_error("select: [F017]\n--- [F028]\n", NULL,
	    ".gguflint.yaml:2:1", "expected one YAML document");
	expect_config_error("rules: [r.yaml]\n",
	    "- code: X001\n  slug: x\n"
	    "  severity: error\n  summary: s\n  fix: f\n  match: key\n"
	    "  forbid: x\n" GARBLED,
	    "r.yaml:9:3: invalid YAML after the "
	    "first document",
	    "did not find expected node content");

	project_init(&p, NULL);
	cfg = xasprintf("%s/c.yaml", p.dir);
	write_text(cfg, "select: [F028]\n" GARBLED);
	run_in(&r, p.dir, "--config", cfg, "m.gguf", NULL, NULL, NULL);
	cr_assert_eq(r.status, 2, "%s", r.out);
	want = xasprintf("%s:3:3: invalid YAML after the first document", cfg);
	cr_assert(strstr(r.err, want) != NULL, "%s", r.err);
	test_run_free(&r);
	free(want);

	cr_assert(datafile_load("profiles/desktop.yaml", &df, &err) == 0);
	for (i = 0; i < df.len; i++)
		lines += df.data[i] == '\n';
	prof = xasprintf("%s/p.yaml", p.dir);
	want = xasprintf("%.*s" GARBLED, (int)df.len, df.data);
	write_text(prof, want);
	free(want);
	datafile_free(&df);
	run_in(&r, p.dir, "--profile", prof, "m.gguf", NULL, NULL, NULL);
	cr_assert_eq(r.status, 2, "%s", r.out);
	want = xasprintf("%s:%zu:3: invalid YAML after the first document: "
			 "did not find expected node content",
	    prof, lines + 2);
	cr_assert(strstr(r.err, want) != NULL, "want %s in: %s", want, r.err);
	test_run_free(&r);
	free(want);
	free(prof);
	free(cfg);
	project_free(&p);
}

Test(config, explicit_config_file)
{
	struct project p;
	struct test_run r;
	char *cfg;

	project_init(&p, NULL);
	cfg = xasprintf("%s/sub/other.yaml", p.dir);
	write_text(cfg, "select: [F027]\n");
	run_in(&r, p.dir, "--config", cfg, "m.gguf", NULL, NULL, NULL);
	cr_assert_eq(r.status, 0, "%s", r.out);
	cr_assert(strstr(r.out, "F027") != NULL && !strstr(r.out, "F017"));
	test_run_free(&r);
	run_in(&r, p.dir, "--config", "/nonexistent.yaml", "m.gguf", NULL, NULL,
	    NULL);
	cr_assert_eq(r.status, 2);
	test_run_free(&r);
	free(cfg);
	project_free(&p);
}

Test(config, quiet_statistics_max_warnings_color)
{
	struct project p;
	struct test_run r;

	project_init(&p, "select: [F]\n");
	run_in(&r, p.dir, "--quiet", "m.gguf", NULL, NULL, NULL, NULL);
	cr_assert_eq(r.status, 1);
	cr_assert(strstr(r.out, "F017") != NULL && !strstr(r.out, "F027"),
	    "--quiet shows only what fails the run: %s", r.out);
	test_run_free(&r);
	run_in(&r, p.dir, "--statistics", "m.gguf", NULL, NULL, NULL, NULL);
	cr_assert(strstr(r.out, "     1  F017 duplicate-tensor-name") != NULL,
	    "%s", r.out);
	test_run_free(&r);
	run_in(&r, p.dir, "--ignore=F017,F028", "--max-warnings=0", "m.gguf",
	    NULL, NULL, NULL);
	cr_assert_eq(r.status, 1, "one warning over a budget of 0");
	cr_assert(strstr(r.err, "max-warnings") != NULL);
	test_run_free(&r);
	run_in(&r, p.dir, "--ignore=F017,F028", "--max-warnings=1", "m.gguf",
	    NULL, NULL, NULL);
	cr_assert_eq(r.status, 0);
	test_run_free(&r);
	run_in(&r, p.dir, "--color=always", "m.gguf", NULL, NULL, NULL, NULL);
	cr_assert(strstr(r.out, "\033[1;31merror\033[0m") != NULL);
	test_run_free(&r);
	run_in(&r, p.dir, "--color=never", "m.gguf", NULL, NULL, NULL, NULL);
	cr_assert(strchr(r.out, '\033') == NULL);
	test_run_free(&r);
	run_in(&r, p.dir, "--color=sometimes", "m.gguf", NULL, NULL, NULL,
	    NULL);
	cr_assert_eq(r.status, 2);
	test_run_free(&r);
	project_free(&p);
}

/* dir/u.gguf: the tiny llama with three tensors no name matches, one
 * N001 about x.a.weight, x.b.weight and y.c.weight. */
static void
write_unmapped(const char *dir)
{
	static const char *const names[] = { "x.a.weight", "x.b.weight",
		"y.c.weight" };
	struct ggufw_model m;
	struct strbuf sb = STRBUF_INIT;
	struct tiny t;
	char *path = xasprintf("%s/u.gguf", dir);
	size_t i;

	tiny_init(&t);
	tiny_model(&t, &m);
	for (i = 0; i < 3; i++) {
		int64_t ne[] = { t.n_embd };

		ggufw_model_tensor(&m, names[i], 1, ne, GGUFW_GGML_F32, 1, 4);
	}
	ggufw_model_finish(&m, &sb, GGUFW_DATA_ZERO);
	cr_assert(ggufw_write_file(path, sb.buf, sb.len) == 0);
	strbuf_free(&sb);
	ggufw_model_free(&m);
	free(path);
}

/* project_init with config, and u.gguf beside m.gguf. */
static void
unmapped_project(struct project *p, const char *config)
{
	project_init(p, config);
	write_unmapped(p->dir);
}

/* A tensor suppression (a name, or tensor-pattern: a PCRE2 pattern over
 * the whole name) silences one tensor's share of a finding about several
 * (N001 here lists x.a.weight, x.b.weight and y.c.weight): the finding
 * stays for the others, about the first left; naming all silences it. */
Test(config, tensor_patterns_suppress_one_tensor_of_many)
{
	struct project p;
	struct test_run r;

	unmapped_project(&p,
	    "select: [N001]\nsuppress:\n"
	    "  - { rule: N001, tensor-pattern: 'x\\.[ab]\\.weight' }\n");
	run_in(&r, p.dir, "--format=json", "u.gguf", NULL, NULL, NULL, NULL);
	cr_assert_eq(r.status, 1, "%s", r.err);
	cr_expect(strstr(r.out, "\"subject\": \"y.c.weight\"") != NULL &&
		strstr(r.out, "\"items\": [\"y.c.weight\"]") != NULL &&
		strstr(r.out, "(2 of them suppressed by the configuration)") !=
		    NULL,
	    "%s", r.out);
	test_run_free(&r);
	project_free(&p);
	/* an exact name: only that tensor; before, naming the first
	 * silenced the whole finding */
	unmapped_project(&p,
	    "select: [N001]\nsuppress:\n"
	    "  - { rule: N001, tensor: x.a.weight }\n");
	run_in(&r, p.dir, "u.gguf", NULL, NULL, NULL, NULL, NULL);
	cr_assert_eq(r.status, 1, "%s", r.err);
	cr_expect(strstr(r.out, "[tensor: x.b.weight]") != NULL, "%s", r.out);
	test_run_free(&r);
	project_free(&p);
	/* anchored: 'weight' alone matches no whole name */
	unmapped_project(&p,
	    "select: [N001]\nsuppress:\n"
	    "  - { rule: N001, tensor-pattern: weight }\n"
	    "  - { rule: N001, tensor-pattern: 'x.*' }\n");
	run_in(&r, p.dir, "u.gguf", NULL, NULL, NULL, NULL, NULL);
	cr_expect(strstr(r.out, "[tensor: y.c.weight]") != NULL, "%s", r.out);
	test_run_free(&r);
	project_free(&p);
	unmapped_project(&p,
	    "select: [N001]\nsuppress:\n"
	    "  - { rule: N001, tensor-pattern: '.*\\.weight' }\n");
	run_in(&r, p.dir, "u.gguf", NULL, NULL, NULL, NULL, NULL);
	cr_expect_eq(r.status, 0, "every tensor: %s", r.out);
	cr_expect_str_empty(r.out);
	test_run_free(&r);
	project_free(&p);
	expect_config_error("suppress:\n  - { rule: N001, tensor-pattern: "
			    "'a(b' }\n",
	    NULL, ".gguflint.yaml:2:35",
	    "missing closing "
	    "parenthesis at offset 3");
	expect_config_error("suppress:\n  - { rule: N001, tensor: a, "
			    "tensor-pattern: b }\n",
	    NULL, ".gguflint.yaml:2:5", "only one");
}
