/*
 * options.c - command-line parsing with getopt_long (see options.h).
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "base/replica.h"
#include "base/suggest.h"
#include "cli/options.h"
#include "target/profile.h"

enum {
	OPT_SELECT = 256,
	OPT_IGNORE,
	OPT_DUMP,
	OPT_LIST_RULES,
	OPT_EXPLAIN,
	OPT_KV,
	OPT_PLAN,
	OPT_LIST_PROFILES,
	OPT_LIST_KERNELS,
	OPT_STRICT,
	OPT_CONFIG,
	OPT_NO_CONFIG,
	OPT_FAIL_ON,
	OPT_MAX_WARNINGS,
	OPT_STATISTICS,
	OPT_COLOR,
	OPT_DEEP,
	OPT_EXIT_ZERO,
	OPT_RUNTIME,
	OPT_DEVICE,
	OPT_LIST_DEVICES,
	OPT_LIST_ARCHS,
	OPT_NO_CACHE,
	OPT_MEASURE,
	OPT_WRITE_KERNELS,
	OPT_BASELINE,
	OPT_WRITE_BASELINE,
	OPT_SHOW_BASELINED,
	OPT_MAX_PER_RULE,
	OPT_SHOW_FIXES,
	OPT_NO_SHOW_FIXES,
	OPT_PROGRESS,
	OPT_NO_PROGRESS,
	OPT_CTK,
	OPT_CTV,
	OPT_FA,
	OPT_UBATCH,
	OPT_PARALLEL,
	OPT_NGL,
	OPT_CPU_MOE,
	OPT_N_CPU_MOE,
	OPT_NO_MMAP,
	OPT_SWA_FULL,
	OPT_RUNTIME_VERSION,
	OPT_MMPROJ,
	OPT_LORA,
	OPT_CVEC,
	OPT_DRAFT,
	OPT_TIMEOUT,
	OPT_CONNECT_TIMEOUT,
	OPT_CACERT,
	OPT_FILES_FROM,
	OPT_SHARD,
	OPT_JOBS,
	OPT_MAX_PER_HOST
};

static const struct option long_options[] = {
	{ "format", required_argument, NULL, 'f' },
	{ "profile", required_argument, NULL, 'p' },
	{ "ctx", required_argument, NULL, 'c' },
	{ "kv", required_argument, NULL, OPT_KV },
	{ "cache-type-k", required_argument, NULL, OPT_CTK },
	{ "cache-type-v", required_argument, NULL, OPT_CTV },
	{ "flash-attn", required_argument, NULL, OPT_FA },
	{ "ubatch-size", required_argument, NULL, OPT_UBATCH },
	{ "batch-size", required_argument, NULL, 'b' },
	{ "parallel", required_argument, NULL, OPT_PARALLEL },
	{ "n-gpu-layers", required_argument, NULL, OPT_NGL },
	{ "cpu-moe", no_argument, NULL, OPT_CPU_MOE },
	{ "n-cpu-moe", required_argument, NULL, OPT_N_CPU_MOE },
	{ "no-mmap", no_argument, NULL, OPT_NO_MMAP },
	{ "swa-full", no_argument, NULL, OPT_SWA_FULL },
	{ "runtime-version", required_argument, NULL, OPT_RUNTIME_VERSION },
	{ "mmproj", required_argument, NULL, OPT_MMPROJ },
	{ "lora", required_argument, NULL, OPT_LORA },
	{ "control-vector", required_argument, NULL, OPT_CVEC },
	{ "draft", required_argument, NULL, OPT_DRAFT },
	{ "plan", no_argument, NULL, OPT_PLAN },
	{ "list-profiles", no_argument, NULL, OPT_LIST_PROFILES },
	{ "list-kernels", no_argument, NULL, OPT_LIST_KERNELS },
	{ "runtime", required_argument, NULL, OPT_RUNTIME },
	{ "device", required_argument, NULL, OPT_DEVICE },
	{ "list-devices", no_argument, NULL, OPT_LIST_DEVICES },
	{ "list-archs", no_argument, NULL, OPT_LIST_ARCHS },
	{ "no-cache", no_argument, NULL, OPT_NO_CACHE },
	{ "measure", no_argument, NULL, OPT_MEASURE },
	{ "timeout", required_argument, NULL, OPT_TIMEOUT },
	{ "connect-timeout", required_argument, NULL, OPT_CONNECT_TIMEOUT },
	{ "cacert", required_argument, NULL, OPT_CACERT },
	{ "files-from", required_argument, NULL, OPT_FILES_FROM },
	{ "shard", required_argument, NULL, OPT_SHARD },
	{ "jobs", required_argument, NULL, 'j' },
	{ "max-per-host", required_argument, NULL, OPT_MAX_PER_HOST },
	{ "write-kernels", required_argument, NULL, OPT_WRITE_KERNELS },
	{ "strict", no_argument, NULL, OPT_STRICT },
	{ "config", required_argument, NULL, OPT_CONFIG },
	{ "no-config", no_argument, NULL, OPT_NO_CONFIG },
	{ "fail-on", required_argument, NULL, OPT_FAIL_ON },
	{ "max-warnings", required_argument, NULL, OPT_MAX_WARNINGS },
	{ "exit-zero", no_argument, NULL, OPT_EXIT_ZERO },
	{ "output", required_argument, NULL, 'o' },
	{ "baseline", required_argument, NULL, OPT_BASELINE },
	{ "write-baseline", required_argument, NULL, OPT_WRITE_BASELINE },
	{ "show-baselined", no_argument, NULL, OPT_SHOW_BASELINED },
	{ "max-per-rule", required_argument, NULL, OPT_MAX_PER_RULE },
	{ "show-fixes", no_argument, NULL, OPT_SHOW_FIXES },
	{ "no-show-fixes", no_argument, NULL, OPT_NO_SHOW_FIXES },
	{ "progress", no_argument, NULL, OPT_PROGRESS },
	{ "no-progress", no_argument, NULL, OPT_NO_PROGRESS },
	{ "quiet", no_argument, NULL, 'q' },
	{ "statistics", no_argument, NULL, OPT_STATISTICS },
	{ "color", required_argument, NULL, OPT_COLOR },
	{ "deep", no_argument, NULL, OPT_DEEP },
	{ "select", required_argument, NULL, OPT_SELECT },
	{ "ignore", required_argument, NULL, OPT_IGNORE },
	{ "dump", no_argument, NULL, OPT_DUMP },
	{ "list-rules", no_argument, NULL, OPT_LIST_RULES },
	{ "explain", required_argument, NULL, OPT_EXPLAIN },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 }
};

/* The help text: what to lint and plan for, then what to report. */
static const char usage_lint[] =
	"usage: gguflint [options] FILE...\n"
	"\n"
	"Lint GGUF model files: is the file well formed, what is it, "
	"will it fit the\n"
	"device, and can the device's kernels use its weights as stored?\n"
	"A directory FILE stands for every *.gguf below it; - is standard "
	"input.\n"
	"\n"
	"      --files-from LIST  also the paths and URLs listed in LIST, one "
	"a line\n"
	"                      (- is standard input; # begins a comment)\n"
	"      --shard I/N     only the I-th of N parts of the models (1 to "
	"N), by a\n"
	"                      hash of each model's path or URL\n"
	"  -j, --jobs N        lint N models at once, reported in order "
	"(default: the\n"
	"                      CPUs; with a URL --max-per-host's; 1 with "
	"--deep)\n"
	"      --max-per-host M  at most M requests in flight to one host "
	"(default 8)\n"
	"  -p, --profile NAME  device profile, built-in name or YAML file "
	"(default host)\n"
	"  -c, --ctx N         context length to plan for (default: the "
	"profile's,\n"
	"                      else the model's trained context)\n"
	"      --kv TYPE       KV cache type: f32 f16 bf16 q8_0 q4_0 q4_1 "
	"iq4_nl\n"
	"                      q5_0 q5_1 turboquant4 (K and V)\n"
	"  -ctk, --cache-type-k TYPE  K cache type (llama.cpp profiles)\n"
	"  -ctv, --cache-type-v TYPE  V cache type (quantized: needs flash "
	"attention)\n"
	"  -fa, --flash-attn on|off|auto  flash attention (default auto)\n"
	"  -ub, --ubatch-size N  physical batch (default 512)\n"
	"  -b, --batch-size N  logical batch (default 2048)\n"
	"  -np, --parallel N   sequences, one KV stream each (default 1)\n"
	"  -ngl, --n-gpu-layers N  layers on the GPU, output layer first "
	"(default all)\n"
	"  -cmoe, --cpu-moe    keep every expert FFN weight on the CPU\n"
	"  -ncmoe, --n-cpu-moe N  keep the first N layers' expert weights on "
	"the CPU\n"
	"      --no-mmap       read the weights into memory, do not map "
	"them\n"
	"      --swa-full      full-size sliding-window cache\n"
	"      --mmproj FILE   the model's multimodal projector (planned, "
	"checked)\n"
	"      --lora FILE     a LoRA adapter of the model (repeatable): "
	"checked\n"
	"                      against the model, planned beside it\n"
	"      --control-vector FILE  a control vector of the model "
	"(repeatable)\n"
	"      --draft FILE    a draft model for speculative decoding "
	"(planned)\n"
	"      --strict        as if the profile were strict\n"
	"      --plan          also print the memory plan\n"
	"      --deep          also read the tensor data (NaN/Inf, zeros, "
	"statistics)\n"
	"      --progress, --no-progress  --deep's progress on stderr "
	"(default: when\n"
	"                      stderr is a terminal)\n"
	"      --runtime-version V  the llama.cpp build that will load the "
	"files\n"
	"                      (bNNNN or " REPLICA_LLAMA_CPP "; over the "
	"profile's)\n";

static const char usage_report[] =
	"  -f, --format FMT    output format: text (default), json, jsonl "
	"(JSON\n"
	"                      Lines, a line per file), sarif, github, gitlab "
	"(Code\n"
	"                      Quality), junit (JUnit XML)\n"
	"      --select LIST   only these codes, slugs or families "
	"(comma-separated)\n"
	"      --ignore LIST   not these codes, slugs or families\n"
	"      --config FILE   configuration file (default: the nearest "
	".gguflint.yaml)\n"
	"      --no-config     do not read a configuration file\n"
	"      --fail-on LEVEL severity that fails the run: error "
	"(default), warning, info\n"
	"      --max-warnings N  fail when there are more than N "
	"warnings\n"
	"      --exit-zero     exit 0 even when findings fail the run "
	"(2 stays 2)\n"
	"  -o, --output FILE   write the report (also --dump's, --list-*'s)"
	" to FILE,\n"
	"                      whole once complete; errors stay on "
	"stderr\n"
	"      --max-per-rule N  text: at most N findings of a rule per "
	"file (default\n"
	"                      50; 0: all); JSON and SARIF have every "
	"one\n"
	"      --baseline FILE  findings recorded in FILE do not fail the "
	"run\n"
	"      --write-baseline FILE  record this run's findings in FILE\n"
	"      --show-baselined  show baselined findings in text, github, "
	"gitlab\n"
	"                      and junit output\n"
	"      --show-fixes, --no-show-fixes  text: each finding's note "
	"and fix below\n"
	"                      it (default: when stdout is a terminal)\n"
	"  -q, --quiet         report only what fails the run (no "
	"summary line)\n"
	"      --statistics    also count the findings per rule\n"
	"      --color WHEN    auto (default), always or never\n"
	"      --dump          print the parsed header instead of linting\n"
	"      --list-rules    list every rule\n"
	"      --explain CODE  explain one rule (code or slug)\n"
	"      --list-profiles list the built-in device profiles\n"
	"      --list-kernels  probe and list the capability tables\n"
	"      --list-archs    list the architectures and how well each is "
	"planned\n"
	"      --runtime DIR   probe the ggml runtime (libggml-base and "
	"its backends)\n"
	"                      in DIR (also GGUFLINT_RUNTIME)\n"
	"      --device NAME   the runtime's device to probe (CPU, "
	"Vulkan0, ...)\n"
	"      --list-devices  list the runtime's devices\n"
	"      --measure       the compute buffers as the runtime's "
	"libllama reserves\n"
	"                      them (no_alloc: sizes only), in the plan\n"
	"      --no-cache      ask the runtime, read remote headers "
	"afresh\n"
	"      --timeout S     seconds for a remote file's header "
	"(default 120)\n"
	"      --connect-timeout S  seconds to connect to its server "
	"(default 10)\n"
	"      --cacert FILE   verify https:// servers with FILE's CA "
	"certificates (PEM;\n"
	"                      default: cacert: of the configuration, "
	"CURL_CA_BUNDLE,\n"
	"                      SSL_CERT_FILE, the system's)\n"
	"      --write-kernels FILE  write the runtime's verified table "
	"as YAML\n"
	"  -h, --help          show this help\n"
	"  -V, --version       show the version\n"
	"\n"
	"Exit status: 0 nothing at or above --fail-on, 1 findings that "
	"fail the run,\n"
	"2 gguflint could not do its job.\n"
	"See gguflint(1) and gguflint-rules(7).\n";

void
options_usage(FILE *fp)
{
	fputs(usage_lint, fp);
	fputs(usage_report, fp);
}

static void
push(const char ***v, size_t *n, const char *s)
{
	*v = xreallocarray(*v, *n + 1, sizeof **v);
	(*v)[(*n)++] = s;
}

static int
parse_ctx(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno != 0 || *end != '\0' || v == 0 || v > UINT32_MAX)
		return -1;
	*out = v;
	return 0;
}

static int
parse_count(const char *s, long *out)
{
	char *end;
	long v;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno != 0 || *end != '\0' || v > 1000000000)
		return -1;
	*out = v;
	return 0;
}

/* A positive count up to max (-ub, -b, -np). */
static int
parse_pos(const char *s, uint64_t max, uint64_t *out)
{
	uint64_t v;

	if (parse_ctx(s, &v) < 0 || v > max)
		return -1;
	*out = v;
	return 0;
}

/* -ctk -ctv -fa -ub -b -np -ngl -ncmoe. Returns 0, or -1 with err set. */
static int
set_llama(struct options *o, int c, const char *arg, struct gl_error *err)
{
	switch (c) {
	case OPT_CTK:
		o->kv_k = arg;
		break;
	case OPT_CTV:
		o->kv_v = arg;
		break;
	case OPT_FA:
		if (strcmp(arg, "on") != 0 && strcmp(arg, "off") != 0 &&
		    strcmp(arg, "auto") != 0)
			return gl_error_setk(err, GL_ERR_USAGE, "--flash-attn: "
			    "expected on, off or auto, not '%s'", arg);
		o->flash_attn = arg;
		break;
	case OPT_UBATCH:
	case 'b':
		if (parse_pos(arg, UINT32_MAX, c == 'b' ? &o->batch :
		    &o->ubatch) < 0)
			return gl_error_setk(err, GL_ERR_USAGE, "%s: expected "
			    "a batch size from 1 to 4294967295, not '%s'",
			    c == 'b' ? "--batch-size" : "--ubatch-size", arg);
		break;
	case OPT_PARALLEL:
		if (parse_pos(arg, 256, &o->n_seq) < 0)
			return gl_error_setk(err, GL_ERR_USAGE, "--parallel: "
			    "expected a number of sequences from 1 to 256, not "
			    "'%s'", arg);
		break;
	case OPT_NGL:
		if (parse_count(arg, &o->ngl) < 0 && strcmp(arg, "-1") != 0 &&
		    strcmp(arg, "all") != 0)
			return gl_error_setk(err, GL_ERR_USAGE,
			    "--n-gpu-layers: expected a number of layers, -1 "
			    "or all, not '%s'", arg);
		if (strcmp(arg, "-1") == 0 || strcmp(arg, "all") == 0)
			o->ngl = -1;
		break;
	case OPT_N_CPU_MOE:
		if (parse_count(arg, &o->n_cpu_moe) < 0)
			return gl_error_setk(err, GL_ERR_USAGE,
			    "--n-cpu-moe: expected a number of layers, not "
			    "'%s'", arg);
		break;
	}
	return 0;
}

/* --timeout, --connect-timeout: seconds, more than 0, at most a day;
 * --cacert FILE. */
static int
set_remote(struct options *o, int c, const char *arg, struct gl_error *err)
{
	char *end;
	double v;

	if (c == OPT_CACERT) {
		o->cacert = arg;
		return *arg != '\0' ? 0 : gl_error_setk(err, GL_ERR_USAGE,
		    "--cacert: expected a file of CA certificates");
	}
	errno = 0;
	v = strtod(arg, &end);
	if (*arg < '0' || *arg > '9' || errno != 0 || *end != '\0' ||
	    !(v > 0 && v <= 86400))
		return gl_error_setk(err, GL_ERR_USAGE, "%s: expected seconds "
		    "(more than 0, at most 86400), not '%s'", c ==
		    OPT_TIMEOUT ? "--timeout" : "--connect-timeout", arg);
	if (c == OPT_TIMEOUT)
		o->timeout = v;
	else
		o->connect_timeout = v;
	return 0;
}

/* llama.cpp's single-dash long names, rewritten to gguflint's. */
static void
rewrite_llama_names(int argc, char **argv)
{
	static const struct {
		const char *from;
		char *to;
	} names[] = { { "-ctk", "--cache-type-k" },
	    { "-ctv", "--cache-type-v" }, { "-fa", "--flash-attn" },
	    { "-ub", "--ubatch-size" }, { "-np", "--parallel" },
	    { "-ngl", "--n-gpu-layers" }, { "-cmoe", "--cpu-moe" },
	    { "-ncmoe", "--n-cpu-moe" } };
	int i;
	size_t j;

	for (i = 1; i < argc && strcmp(argv[i], "--") != 0; i++)
		for (j = 0; j < sizeof names / sizeof names[0]; j++)
			if (strcmp(argv[i], names[j].from) == 0)
				argv[i] = names[j].to;
}

/* --output --baseline --write-baseline --max-per-rule. Returns 0, or -1
 * with err set. */
/* parse_shard: "I/N" with 1 <= I <= N <= 1000000 into *i and *n. */
static int
parse_shard(const char *s, unsigned *i, unsigned *n)
{
	uint64_t a, b;
	const char *slash = strchr(s, '/');
	char head[16];

	if (slash == NULL || (size_t)(slash - s) >= sizeof head)
		return -1;
	memcpy(head, s, (size_t)(slash - s));
	head[slash - s] = '\0';
	if (parse_pos(head, 1000000, &a) < 0 ||
	    parse_pos(slash + 1, 1000000, &b) < 0 || a > b)
		return -1;
	*i = (unsigned)a;
	*n = (unsigned)b;
	return 0;
}

/* set_inputs: --files-from LIST, --shard I/N, --jobs N, --max-per-host
 * M. */
static int
set_inputs(struct options *o, int c, const char *arg, struct gl_error *err)
{
	uint64_t v;

	if (c == 'j' || c == OPT_MAX_PER_HOST) {
		if (parse_pos(arg, 1024, &v) < 0)
			return gl_error_setk(err, GL_ERR_USAGE, "%s: expected "
			    "a number from 1 to 1024, not '%s'", c == 'j' ?
			    "--jobs" : "--max-per-host", arg);
		*(c == 'j' ? &o->jobs : &o->max_per_host) = (unsigned)v;
		return 0;
	}
	if (c == OPT_SHARD) {
		if (parse_shard(arg, &o->shard_i, &o->shard_n) < 0)
			return gl_error_setk(err, GL_ERR_USAGE, "--shard: "
			    "expected I/N with 1 <= I <= N <= 1000000, not "
			    "'%s'", arg);
		return 0;
	}
	if (*arg == '\0')
		return gl_error_setk(err, GL_ERR_USAGE, "--files-from: "
		    "expected a file name");
	o->files_from = arg;
	return 0;
}

static int
set_report(struct options *o, int c, const char *arg, struct gl_error *err)
{
	if (c == OPT_MAX_WARNINGS) {
		if (parse_count(arg, &o->max_warnings) < 0)
			return gl_error_setk(err, GL_ERR_USAGE,
			    "--max-warnings: expected a number, not '%s'", arg);
		return 0;
	}
	if (c == OPT_MAX_PER_RULE) {
		if (parse_count(arg, &o->max_per_rule) < 0)
			return gl_error_setk(err, GL_ERR_USAGE,
			    "--max-per-rule: expected a number (0: all), not "
			    "'%s'", arg);
		return 0;
	}
	if (*arg == '\0')
		return gl_error_setk(err, GL_ERR_USAGE, "%s: expected a file "
		    "name", c == 'o' ? "--output" : c == OPT_BASELINE ?
		    "--baseline" : "--write-baseline");
	*(c == 'o' ? &o->output : c == OPT_BASELINE ? &o->baseline :
	    &o->write_baseline) = arg;
	return 0;
}

static int
set_mode(struct options *o, enum cli_mode m, struct gl_error *err)
{
	if (o->mode != CLI_MODE_LINT && o->mode != m)
		return gl_error_setk(err, GL_ERR_USAGE, "--dump, "
		    "--list-rules, --list-profiles, --list-kernels, "
		    "--list-devices, --list-archs and --explain cannot be "
		    "combined");
	o->mode = m;
	return 0;
}

/* --runtime, --device, --write-kernels. */
static void
set_runtime_value(struct options *o, int c, const char *arg)
{
	if (c == OPT_RUNTIME)
		o->runtime = arg;
	else if (c == OPT_DEVICE)
		o->device = arg;
	else
		o->write_kernels = arg;
}

/* --fail-on LEVEL, --color WHEN. Returns 0, or -1 with err set. */
static int
set_gate_value(struct options *o, int c, const char *arg,
    struct gl_error *err)
{
	if (c == OPT_FAIL_ON) {
		if (strcmp(arg, "error") != 0 &&
		    strcmp(arg, "warning") != 0 &&
		    strcmp(arg, "info") != 0)
			return gl_error_setk(err, GL_ERR_USAGE, "--fail-on: "
			    "expected error, warning or info, not '%s'", arg);
		o->fail_on = arg;
	} else if (strcmp(arg, "auto") == 0) {
		o->color = COLOR_AUTO;
	} else if (strcmp(arg, "always") == 0) {
		o->color = COLOR_ALWAYS;
	} else if (strcmp(arg, "never") == 0) {
		o->color = COLOR_NEVER;
	} else {
		return gl_error_setk(err, GL_ERR_USAGE, "--color: "
		    "expected auto, always or never, not '%s'", arg);
	}
	return 0;
}

/* --mmproj --lora --control-vector --draft: a companion of each model.
 * Returns 0, or -1 with err set. */
static int
set_companion(struct options *o, int c, const char *arg, struct gl_error *err)
{
	enum companion_kind k = c == OPT_MMPROJ ? COMPANION_MMPROJ :
	    c == OPT_LORA ? COMPANION_LORA : c == OPT_CVEC ? COMPANION_CVEC :
	    COMPANION_DRAFT;
	size_t i;

	if (*arg == '\0')
		return gl_error_setk(err, GL_ERR_USAGE, "--%s: expected a "
		    "file name", companion_name(k));
	for (i = 0; i < o->n_companions; i++)
		if ((k == COMPANION_MMPROJ || k == COMPANION_DRAFT) &&
		    o->companions[i].kind == k)
			return gl_error_setk(err, GL_ERR_USAGE, "--%s: given "
			    "twice (llama.cpp loads one)", companion_name(k));
	o->companions = xreallocarray(o->companions, o->n_companions + 1,
	    sizeof *o->companions);
	o->companions[o->n_companions].kind = k;
	o->companions[o->n_companions++].path = arg;
	return 0;
}

/* An option with an argument. Returns 0, or -1 with err set. */
static int
set_value(struct options *o, int c, const char *arg, struct gl_error *err)
{
	switch (c) {
	case 'f':
		o->format = arg;
		break;
	case 'p':
		o->profile = arg;
		break;
	case 'c':
		if (parse_ctx(arg, &o->ctx) < 0)
			return gl_error_setk(err, GL_ERR_USAGE, "--ctx: "
			    "expected a context length from 1 to 4294967295, "
			    "not '%s'", arg);
		break;
	case OPT_KV:
		o->kv = arg;
		break;
	case OPT_CTK:
	case OPT_CTV:
	case OPT_FA:
	case OPT_UBATCH:
	case OPT_PARALLEL:
	case OPT_NGL:
	case OPT_N_CPU_MOE:
	case 'b':
		return set_llama(o, c, arg, err);
	case OPT_CONFIG:
		o->config = arg;
		break;
	case OPT_MMPROJ:
	case OPT_LORA:
	case OPT_CVEC:
	case OPT_DRAFT:
		return set_companion(o, c, arg, err);
	case OPT_RUNTIME:
	case OPT_DEVICE:
	case OPT_WRITE_KERNELS:
		set_runtime_value(o, c, arg);
		break;
	case OPT_TIMEOUT:
	case OPT_CONNECT_TIMEOUT:
	case OPT_CACERT:
		return set_remote(o, c, arg, err);
	case OPT_FILES_FROM:
	case OPT_SHARD:
	case 'j':
	case OPT_MAX_PER_HOST:
		return set_inputs(o, c, arg, err);
	case 'o':
	case OPT_BASELINE:
	case OPT_WRITE_BASELINE:
	case OPT_MAX_PER_RULE:
	case OPT_MAX_WARNINGS:
		return set_report(o, c, arg, err);
	case OPT_FAIL_ON:
	case OPT_COLOR:
		return set_gate_value(o, c, arg, err);
	case OPT_SELECT:
		push(&o->select, &o->n_select, arg);
		break;
	case OPT_IGNORE:
		push(&o->ignore, &o->n_ignore, arg);
		break;
	case OPT_EXPLAIN:
		if (set_mode(o, CLI_MODE_EXPLAIN, err) < 0)
			return -1;
		o->explain = arg;
		break;
	case OPT_RUNTIME_VERSION:
		if (runtime_version_parse(arg, &o->runtime_build) < 0)
			return gl_error_setk(err, GL_ERR_USAGE, "--runtime-"
			    "version: %s, not '%s'", runtime_version_expect(),
			    arg);
		o->runtime_version = arg;
		break;
	}
	return 0;
}

/* unknown_option: the usage error of arg, an option getopt does not know,
 * with the nearest long option when one is near. Returns -1. */
static int
unknown_option(const char *arg, struct gl_error *err)
{
	char name[SUGGEST_MAX_LEN + 1], hint[SUGGEST_HINT_SIZE];
	struct suggest sg;
	size_t i, n;

	hint[0] = '\0';
	if (strncmp(arg, "--", 2) == 0 &&
	    (n = strcspn(arg + 2, "=")) <= SUGGEST_MAX_LEN) {
		memcpy(name, arg + 2, n);
		name[n] = '\0';
		suggest_init(&sg, name);
		for (i = 0; long_options[i].name != NULL; i++)
			suggest_offer(&sg, long_options[i].name);
		suggest_hint(&sg, "--", hint);
	}
	return gl_error_setk(err, GL_ERR_USAGE, "unknown option %s%s", arg,
	    hint);
}

/* The options that set a flag of struct options true. */
static const struct {
	int opt;
	size_t field; /* offsetof the bool */
} true_flags[] = {
	{ OPT_PLAN, offsetof(struct options, show_plan) },
	{ OPT_DEEP, offsetof(struct options, deep) },
	{ OPT_NO_MMAP, offsetof(struct options, no_mmap) },
	{ OPT_SWA_FULL, offsetof(struct options, swa_full) },
	{ OPT_NO_CACHE, offsetof(struct options, no_cache) },
	{ OPT_MEASURE, offsetof(struct options, measure) },
	{ OPT_STRICT, offsetof(struct options, strict) },
	{ OPT_NO_CONFIG, offsetof(struct options, no_config) },
	{ 'q', offsetof(struct options, quiet) },
	{ OPT_STATISTICS, offsetof(struct options, statistics) },
	{ OPT_EXIT_ZERO, offsetof(struct options, exit_zero) },
	{ OPT_SHOW_BASELINED, offsetof(struct options, show_baselined) },
};

/*
 * An option without an argument, or a usage error. Returns 0, 1 to stop
 * parsing (--help, --version), or -1 with err set.
 */
static int
set_flag(struct options *o, int c, char **argv, struct gl_error *err)
{
	size_t i;

	for (i = 0; i < sizeof true_flags / sizeof true_flags[0]; i++)
		if (true_flags[i].opt == c) {
			*(bool *)((char *)o + true_flags[i].field) = true;
			return 0;
		}
	switch (c) {
	case OPT_CPU_MOE:
		o->n_cpu_moe = -1;
		break;
	case OPT_LIST_PROFILES:
		if (set_mode(o, CLI_MODE_LIST_PROFILES, err) < 0)
			return -1;
		break;
	case OPT_LIST_KERNELS:
		if (set_mode(o, CLI_MODE_LIST_KERNELS, err) < 0)
			return -1;
		break;
	case OPT_LIST_DEVICES:
		if (set_mode(o, CLI_MODE_LIST_DEVICES, err) < 0)
			return -1;
		break;
	case OPT_LIST_ARCHS:
		if (set_mode(o, CLI_MODE_LIST_ARCHS, err) < 0)
			return -1;
		break;
	case OPT_SHOW_FIXES:
	case OPT_NO_SHOW_FIXES:
		o->show_fixes = c == OPT_SHOW_FIXES ? 1 : 0;
		break;
	case OPT_PROGRESS:
	case OPT_NO_PROGRESS:
		o->progress = c == OPT_PROGRESS ? 1 : 0;
		break;
	case OPT_DUMP:
		if (set_mode(o, CLI_MODE_DUMP, err) < 0)
			return -1;
		break;
	case OPT_LIST_RULES:
		if (set_mode(o, CLI_MODE_LIST_RULES, err) < 0)
			return -1;
		break;
	case 'h':
		o->mode = CLI_MODE_HELP;
		return 1;
	case 'V':
		o->mode = CLI_MODE_VERSION;
		return 1;
	case ':':
		return gl_error_setk(err, GL_ERR_USAGE, "option %s needs an "
		    "argument", argv[optind - 1]);
	default:
		return unknown_option(argv[optind - 1], err);
	}
	return 0;
}

int
options_parse(struct options *o, int argc, char **argv, struct gl_error *err)
{
	int c, rc;

	memset(o, 0, sizeof *o);
	o->format = "text";
	o->max_warnings = -1;
	o->max_per_rule = -1;
	o->show_fixes = -1;
	o->progress = -1;
	o->ngl = -2;
	opterr = 0;
	optind = 1;
	rewrite_llama_names(argc, argv);
	while ((c = getopt_long(argc, argv, ":f:p:c:b:o:j:qhV", long_options,
	    NULL)) != -1) {
		rc = optarg != NULL && c != ':' && c != '?' ?
		    set_value(o, c, optarg, err) : set_flag(o, c, argv, err);
		if (rc < 0)
			return -1;
		if (rc > 0)
			return 0;
	}
	o->files = argv + optind;
	o->n_files = (size_t)(argc - optind);
	if ((o->mode == CLI_MODE_LINT || o->mode == CLI_MODE_DUMP) &&
	    o->n_files == 0 && o->files_from == NULL)
		return gl_error_setk(err, GL_ERR_USAGE, "no input file");
	if (o->files_from != NULL && strcmp(o->files_from, "-") == 0)
		for (size_t i = 0; i < o->n_files; i++)
			if (strcmp(o->files[i], "-") == 0)
				return gl_error_setk(err, GL_ERR_USAGE,
				    "--files-from - and the input - both "
				    "read standard input");
	if ((o->mode == CLI_MODE_LIST_RULES || o->mode == CLI_MODE_EXPLAIN ||
	    o->mode == CLI_MODE_LIST_PROFILES ||
	    o->mode == CLI_MODE_LIST_KERNELS ||
	    o->mode == CLI_MODE_LIST_DEVICES ||
	    o->mode == CLI_MODE_LIST_ARCHS) && o->n_files > 0)
		return gl_error_setk(err, GL_ERR_USAGE, "unexpected argument "
		    "%s", o->files[0]);
	return 0;
}

void
options_free(struct options *o)
{
	free(o->select);
	free(o->ignore);
	free(o->companions);
	memset(o, 0, sizeof *o);
}
