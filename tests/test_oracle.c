/*
 * test_oracle.c - the memory plan against llama.cpp itself: for sparse
 * models of every mapped architecture (oraclegen.h), the allocations
 * llama.cpp reports (tests/oracle/llama-oracle.cpp, run in a child with a
 * time limit) and gguflint's --plan in JSON, compared buffer by buffer:
 * weights, repack and KV exact, compute within 10 %.
 *
 * kv_today compares what the plan says today (KV at -c and --kv on a
 * built-in profile); the plan_* tests use the llama.cpp plan of issue 14
 * (runtime: llama.cpp profiles, -ctk/-ctv/-fa/-ub/-b/-np/-ngl/--no-mmap,
 * and the plan's repack/compute/output/devices fields). Every test skips
 * with a message when llama.cpp's libraries (build-aux/install-llama) or
 * the client (a C++ compiler at configure time) are absent.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/util.h"
#include "facts/arch.h"
#include "jsontree.h"
#include "loader.h"
#include "oraclegen.h"
#include "testutil.h"

#define ORACLE_TIMEOUT 60 /* seconds, per llama.cpp run */
#define MIB (1024.0 * 1024.0)

/* One run of llama.cpp and the plan. */
struct ocase {
	const char *arch;
	const char *backend; /* "cpu" or "vulkan" */
	const char *variant; /* the CPU library: zen4, haswell */
	unsigned ctx;
	const char *fa;
	const char *ctk, *ctv;
	unsigned np;
	int ngl;
	const char *wtype; /* the weights' type (wtypes): NULL, q4_0 */
	int probe;	   /* the plan with the backend's runtime probed
			    * (1, true: --runtime, its device's claims),
			    * and measured (MEASURED: --measure too) */
	int cpu_moe;	   /* --n-cpu-moe: layers whose experts' weights
			    * stay on the CPU (0: none) */
};

#define MEASURED 2 /* ocase.probe: --runtime DIR --measure */

/* The weight types of the models the tests write (wtype's values). */
static const char *const wtypes[] = { "q4_0", "f16", "q8_0" };

static const char *
ocase_wtype(const struct ocase *c)
{
	return c->wtype != NULL ? c->wtype : wtypes[0];
}

struct oenv {
	char llama[PATH_MAX];
	char client[PATH_MAX];
	char models[PATH_MAX];
};

static bool
file_exists(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0;
}

/* oenv_need: the folders, or skip the test saying what is missing. */
static void
oenv_need(struct oenv *e, const char *backend)
{
	const char *llama = getenv("GGUFLINT_LLAMA");
	const char *bin = getenv("GGUFLINT_BIN");
	char probe[PATH_MAX];
	const char *slash;

	if (llama == NULL || *llama == '\0')
		llama = "/opt/gguflint-ci/llama";
	snprintf(e->llama, sizeof e->llama, "%s", llama);
	snprintf(probe, sizeof probe, "%s/%s/libggml-base.so", llama, backend);
	if (!file_exists(probe))
		cr_skip_test(
		    "%s is absent: llama.cpp's libraries are installed "
		    "by build-aux/install-llama",
		    probe);
	slash = bin ? strrchr(bin, '/') : NULL;
	snprintf(e->client, sizeof e->client,
	    "%.*s/tests/oracle/llama-oracle-%s", slash ? (int)(slash - bin) : 1,
	    slash ? bin : ".", backend);
	if (!file_exists(e->client))
		cr_skip_test(
		    "%s is absent: make check builds it when configure "
		    "found a C++ compiler (g++) and %s/include/"
		    "llama-ext.h exists",
		    e->client, llama);
	snprintf(e->models, sizeof e->models, "%s/gguflint-oracle-XXXXXX",
	    getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	cr_assert(mkdtemp(e->models) != NULL, "mkdtemp: %s", strerror(errno));
}

/* remove_cache: the probe's cache a probed case left in dir (its
 * XDG_CACHE_HOME). */
static void
remove_cache(const char *dir)
{
	char path[PATH_MAX + 64];
	glob_t gl;

	snprintf(path, sizeof path, "%s/gguflint/probe-*", dir);
	if (glob(path, 0, NULL, &gl) == 0)
		for (size_t i = 0; i < gl.gl_pathc; i++)
			unlink(gl.gl_pathv[i]);
	globfree(&gl);
	snprintf(path, sizeof path, "%s/gguflint", dir);
	rmdir(path);
}

static void
oenv_free(struct oenv *e)
{
	char path[PATH_MAX + 64];

	if (e->models[0] == '\0')
		return;
	for (size_t i = 0; oraclegen_arch(i) != NULL || oraclegen_wide(i); i++)
		for (size_t t = 0; t < sizeof wtypes / sizeof wtypes[0]; t++) {
			if (oraclegen_arch(i) != NULL) {
				snprintf(path, sizeof path, "%s/%s-%s.gguf",
				    e->models, oraclegen_arch(i), wtypes[t]);
				unlink(path);
			}
			if (oraclegen_wide(i) != NULL) {
				snprintf(path, sizeof path, "%s/%s-%s.gguf",
				    e->models, oraclegen_wide(i), wtypes[t]);
				unlink(path);
			}
		}
	snprintf(path, sizeof path, "%s/profile.yaml", e->models);
	unlink(path);
	remove_cache(e->models);
	rmdir(e->models);
	e->models[0] = '\0';
}

/* The folder of one test's models, removed however the test ends. */
static struct oenv g_oenv;

static void
oracle_fini(void)
{
	oenv_free(&g_oenv);
}

/* oenv_model: the path of case c's model, written on first use. */
static const char *
oenv_model(struct oenv *e, const struct ocase *c, char *path, size_t n)
{
	char why[512];

	snprintf(path, n, "%s/%s-%s.gguf", e->models, c->arch, ocase_wtype(c));
	if (!file_exists(path))
		cr_assert(oraclegen_write(c->arch, ocase_wtype(c), path, why,
			      sizeof why) == 0,
		    "%s", why);
	return path;
}

/*
 * ocase_variant: the CPU library case c runs. zen4's is built for
 * AVX-512 (F, VL, BW, DQ, VBMI, VNNI, BF16) and does not load on a CPU
 * without it: there the case runs haswell's, the tests' other variant,
 * and its profile says haswell's features (said once a test).
 */
static const char *
ocase_variant(const struct ocase *c)
{
	static bool said;

	if (strcmp(c->variant, "zen4") != 0 ||
	    (__builtin_cpu_supports("avx512f") &&
		__builtin_cpu_supports("avx512vl") &&
		__builtin_cpu_supports("avx512bw") &&
		__builtin_cpu_supports("avx512dq") &&
		__builtin_cpu_supports("avx512vbmi") &&
		__builtin_cpu_supports("avx512vnni") &&
		__builtin_cpu_supports("avx512bf16")))
		return c->variant;
	if (!said)
		cr_log_info("this CPU has no AVX-512: the zen4 cases run "
			    "libggml-cpu-haswell.so");
	said = true;
	return "haswell";
}

/* ocase_name: "llama q4_0 cpu/zen4 ctx 4096 fa on f16/f16 np 1 ngl 0". */
static const char *
ocase_name(const struct ocase *c)
{
	static char name[256];

	snprintf(name, sizeof name,
	    "%s %s %s/%s ctx %u fa %s %s/%s np %u ngl %d%s", c->arch,
	    ocase_wtype(c), c->backend, ocase_variant(c), c->ctx, c->fa, c->ctk,
	    c->ctv, c->np, c->ngl, c->cpu_moe ? " with --n-cpu-moe" : "");
	return name;
}

/*
 * The cases llama.cpp v0.5.0 aborts on, known and why: such a case is
 * one llama.cpp refuses, and one that no longer aborts fails the test,
 * so that the entry cannot stay behind.
 */
static const struct {
	const char *arch;
	unsigned min_np;
	const char *why;
} oracle_aborts[] = {
	{ "t5", 2,
	    "t5's decoder aborts reserving its graph over several streams "
	    "(GGML_ASSERT(ggml_can_repeat(b, a)): its position bias)" },
};

static const char *
oracle_abort_why(const struct ocase *c)
{
	for (size_t i = 0; i < sizeof oracle_aborts / sizeof oracle_aborts[0];
	     i++)
		if (strcmp(oracle_aborts[i].arch, c->arch) == 0 &&
		    c->np >= oracle_aborts[i].min_np)
			return oracle_aborts[i].why;
	return NULL;
}

/*
 * run_llama: llama.cpp's allocations for case c, parsed (the caller frees
 * the tree), or NULL when llama.cpp refuses the case (*why then holds its
 * reason, freed by the caller), or aborts on it as oracle_aborts says. Any
 * other crash or a timeout fails the test.
 */
static struct jsonnode *
run_llama(struct oenv *e, const struct ocase *c, char **why)
{
	char model[PATH_MAX + 64], dir[PATH_MAX + 16], cpu[64], ctx[32];
	char fa[16], ctk[32], ctv[32], np[32], ngl[32], cm[32];
	const char *argv[] = { e->client, oenv_model(e, c, model, sizeof model),
		dir, cpu, ctx, "ubatch=512", "batch=2048", fa, ctk, ctv, np,
		ngl, cm, NULL };
	struct jsonnode *root;
	char *out, *err = NULL;
	int status;

	snprintf(dir, sizeof dir, "dir=%s/%s", e->llama, c->backend);
	snprintf(cpu, sizeof cpu, "cpu=%s", ocase_variant(c));
	snprintf(ctx, sizeof ctx, "ctx=%u", c->ctx);
	snprintf(fa, sizeof fa, "fa=%s", c->fa);
	snprintf(ctk, sizeof ctk, "ctk=%s", c->ctk);
	snprintf(ctv, sizeof ctv, "ctv=%s", c->ctv);
	snprintf(np, sizeof np, "np=%u", c->np);
	snprintf(ngl, sizeof ngl, "ngl=%d", c->ngl);
	snprintf(cm, sizeof cm, "cpumoe=%d", c->cpu_moe);
	out = loader_run(argv, ORACLE_TIMEOUT, &status);
	if (oracle_abort_why(c) != NULL) {
		cr_assert(status > 1,
		    "%s: llama.cpp's client exited %d, but "
		    "oracle_aborts says: %s",
		    ocase_name(c), status, oracle_abort_why(c));
		free(out);
		*why = xstrdup(oracle_abort_why(c));
		return NULL;
	}
	cr_assert(status <= 1,
	    "%s: llama.cpp's client exited %d (crash or "
	    "time limit of %d s)",
	    ocase_name(c), status, ORACLE_TIMEOUT);
	root = jsontree_parse(out, strlen(out), &err);
	cr_assert(root != NULL, "%s: the client's output is not JSON (%s): %s",
	    ocase_name(c), err, out);
	free(out);
	if (status == 1) {
		*why = xstrdup(jsontree_str(jsontree_get(root, "error")));
		jsontree_free(root);
		return NULL;
	}
	return root;
}

/* j_int: the integer member key of obj, failing the test naming it when
 * absent (a field of the plan that does not exist yet, say). */
static int64_t
j_int(const struct jsonnode *obj, const char *key, const char *who)
{
	int64_t v;

	cr_assert(jsontree_int64(jsontree_get(obj, key), &v),
	    "%s: no integer field \"%s\"", who, key);
	return v;
}

/* buf_picked: whether llama.cpp's buffer name is among those part names:
 * NULL all, "-REPACK" all but the CPU repack ones, else those whose name
 * contains part. */
static bool
buf_picked(const char *name, const char *part)
{
	bool repack = name != NULL && strstr(name, "REPACK") != NULL;

	if (part == NULL)
		return true;
	if (strcmp(part, "-REPACK") == 0)
		return !repack;
	return name != NULL && strstr(name, part) != NULL;
}

/* llama_sum: the sum of member field ("model", "context", "compute") over
 * llama.cpp's buffers that buf_picked(part). */
static int64_t
llama_sum(const struct jsonnode *root, const char *field, const char *part)
{
	const struct jsonnode *bufs = jsontree_get(root, "buffers"), *b;
	int64_t sum = 0;

	for (size_t i = 0; (b = jsontree_at(bufs, i)) != NULL; i++)
		if (buf_picked(jsontree_str(jsontree_get(b, "name")), part))
			sum += j_int(b, field, "llama.cpp's breakdown");
	return sum;
}

/*
 * oenv_profile: a llama.cpp profile of the oracle's host for case c (the
 * backend, the CPU library's features, memory enough for every case),
 * written to the models folder; returns its path (static).
 */
static const char *
oenv_profile(struct oenv *e, const struct ocase *c)
{
	static char path[PATH_MAX + 16];
	const char *variant = ocase_variant(c);
	const char *features = strcmp(variant, "zen4") == 0 ?
	    "[avx2, f16c, fma, avx512, avx512_vnni, avx512_bf16]" :
	    strcmp(variant, "haswell") == 0 ? "[avx2, f16c, fma]" :
					      "[sse42]";
	char *name, *desc, *text;
	FILE *f;

	snprintf(path, sizeof path, "%s/profile.yaml", e->models);
	f = fopen(path, "w");
	cr_assert(f != NULL, "%s: %s", path, strerror(errno));
	name = xasprintf("oracle_%s_%s", c->backend, variant);
	desc = xasprintf("the oracle's host, llama.cpp %s (%s library)",
	    c->backend, variant);
	text = test_llama_profile(name, desc, c->backend, features);
	fputs(text, f);
	free(text);
	free(desc);
	free(name);
	cr_assert(fclose(f) == 0, "%s: %s", path, strerror(errno));
	return path;
}

/*
 * run_plan: gguflint's JSON report of case c's model with --plan, parsed
 * (*root, the caller frees it); returns the plan object. today: the
 * options and fields gguflint has before issue 14 (a built-in profile,
 * -c and --kv); otherwise the llama.cpp plan's (-ctk, -ctv, -fa, -ub,
 * -b, -np, -ngl, --no-mmap and a llama.cpp profile).
 */
static const struct jsonnode *
run_plan(struct oenv *e, const struct ocase *c, bool today,
    struct jsonnode **root)
{
	char model[PATH_MAX + 64], ctx[32], np[32], ngl[32], cm[32];
	const char *now[] = { "--format", "json", "--plan", "-p", "laptop_16gb",
		"-c", ctx, "--kv", c->ctk, model, NULL };
	const char *next[] = { "--format", "json", "--plan", "-p",
		oenv_profile(e, c), "-c", ctx, "-ctk", c->ctk, "-ctv", c->ctv,
		"-fa", c->fa, "-ub", "512", "-b", "2048", "-np", np, "-ngl",
		ngl, "-ncmoe", cm, "--no-mmap", model, NULL, NULL, NULL, NULL };
	const struct jsonnode *plan;
	struct test_run r;
	char *err = NULL, rt[PATH_MAX + 16];
	size_t at = sizeof next / sizeof next[0] - 5; /* the model's */

	if (c->probe) { /* --runtime (and --measure) before the model, in
			 * the probe's own cache */
		snprintf(rt, sizeof rt, "%s/%s", e->llama, c->backend);
		next[at + 2 + (c->probe == MEASURED)] = next[at];
		next[at] = "--runtime";
		next[at + 1] = rt;
		if (c->probe == MEASURED)
			next[at + 2] = "--measure";
		setenv("XDG_CACHE_HOME", e->models, 1);
		setenv("GGML_VK_VISIBLE_DEVICES", "0", 1);
	}
	oenv_model(e, c, model, sizeof model);
	snprintf(ctx, sizeof ctx, "%u", c->ctx);
	snprintf(np, sizeof np, "%u", c->np);
	snprintf(ngl, sizeof ngl, "%d", c->ngl);
	snprintf(cm, sizeof cm, "%d", c->cpu_moe);
	test_run_bin(&r, today ? now : next, NULL, 0);
	*root = jsontree_parse(r.out, r.out_len, &err);
	cr_assert(*root != NULL,
	    "%s: gguflint exited %d without a JSON "
	    "report (%s); stderr: %s",
	    ocase_name(c), r.status, err, r.err);
	plan = jsontree_pointer(*root, "/files/0/plan");
	cr_assert(plan != NULL,
	    "%s: gguflint's report has no "
	    "/files/0/plan (exit %d); stderr: %s",
	    ocase_name(c), r.status, r.err);
	if (c->probe && strcmp(c->backend, "vulkan") == 0) {
		/* the probe ran and measured the device's limit */
		const struct jsonnode *fb = jsontree_get(plan, "fallback");
		int64_t lim = 0;

		cr_assert(r.status != 2 && fb != NULL &&
			jsontree_int64(jsontree_get(fb, "max_tensor_bytes"),
			    &lim) &&
			lim > 0,
		    "%s: the runtime probe failed or measured no limit (exit "
		    "%d); stderr: %s",
		    ocase_name(c), r.status, r.err);
	}
	test_run_free(&r);
	return plan;
}

/* near: whether got is within pct percent of want. */
static bool
near(int64_t got, int64_t want, double pct)
{
	double d = (double)got - (double)want;

	return (d < 0 ? -d : d) <= (double)want * pct / 100.0;
}

/* expect: one comparison, a line in *bad when it fails. */
static void
expect(struct strbuf *bad, const struct ocase *c, const char *what,
    int64_t plan, int64_t llama, double pct)
{
	if (pct == 0 ? plan == llama : near(plan, llama, pct))
		return;
	strbuf_addf(bad,
	    "  %s: %s: plan %" PRId64 ", llama.cpp %" PRId64 " (%.3fx%s)\n",
	    ocase_name(c), what, plan, llama,
	    llama ? (double)plan / (double)llama : 0.0,
	    pct == 0 ? ", must be exact" : ", must be within 10 %");
}

/*
 * expect_compute: a compute buffer within 10 %; outside it the plan must
 * say compute_estimated (est), and the case is then listed in *estimated
 * instead of failing.
 */
static void
expect_compute(struct strbuf *bad, struct strbuf *estimated,
    const struct ocase *c, const char *what, int64_t plan, int64_t llama,
    bool est)
{
	if (near(plan, llama, 10))
		return;
	if (!est) {
		expect(bad, c, what, plan, llama, 10);
		return;
	}
	strbuf_addf(estimated,
	    "  %s: %s: plan %" PRId64 ", llama.cpp %" PRId64
	    " (%.3fx, marked estimated)\n",
	    ocase_name(c), what, plan, llama,
	    llama ? (double)plan / (double)llama : 0.0);
}

/* plan_estimated: the plan's compute_estimated, failing when absent. */
static bool
plan_estimated(const struct jsonnode *plan, const struct ocase *c)
{
	const struct jsonnode *e = jsontree_get(plan, "compute_estimated");

	cr_assert(e != NULL && e->type == JSONTREE_BOOL,
	    "%s: the plan has no boolean \"compute_estimated\"", ocase_name(c));
	return e->boolean;
}

/* plan_device: the plan's device named like llama.cpp's buffer name
 * (case-insensitively), or NULL. */
static const struct jsonnode *
plan_device(const struct jsonnode *plan, const char *name)
{
	const struct jsonnode *devs = jsontree_get(plan, "devices"), *d;

	for (size_t i = 0; (d = jsontree_at(devs, i)) != NULL; i++) {
		const char *n = jsontree_str(jsontree_get(d, "name"));
		if (n != NULL && strcasecmp(n, name) == 0)
			return d;
	}
	return NULL;
}

/* compare_devices: a GPU backend's device buffer (Vulkan0) against the
 * plan's device of that name. */
static void
compare_devices(struct strbuf *bad, struct strbuf *est, const struct ocase *c,
    const struct jsonnode *ll, const struct jsonnode *plan)
{
	const struct jsonnode *d, *h;
	char who[300];

	if (strcmp(c->backend, "vulkan") != 0)
		return;
	snprintf(who, sizeof who, "%s: plan device Vulkan0", ocase_name(c));
	cr_assert(jsontree_get(plan, "devices") != NULL,
	    "%s: the plan has no \"devices\" array", ocase_name(c));
	d = plan_device(plan, "Vulkan0");
	cr_assert(d != NULL,
	    "%s: no device named Vulkan0 in the plan's "
	    "devices",
	    ocase_name(c));
	expect(bad, c, "Vulkan0 model_bytes", j_int(d, "model_bytes", who),
	    llama_sum(ll, "model", "Vulkan0"), 0);
	/* the host's weights, exact (64-byte aligned in Vulkan_Host; with
	 * no layer offloaded gemma3n's holds token_embd twice) */
	h = plan_device(plan, "CPU");
	cr_assert(h != NULL, "%s: no device named CPU in the plan's devices",
	    ocase_name(c));
	expect(bad, c, "host model_bytes", j_int(h, "model_bytes", who),
	    llama_sum(ll, "model", NULL) - llama_sum(ll, "model", "Vulkan0") -
		llama_sum(ll, "model", "REPACK"),
	    0);
	expect(bad, c, "Vulkan0 kv_bytes", j_int(d, "kv_bytes", who),
	    llama_sum(ll, "context", "Vulkan0"), 0);
	expect_compute(bad, est, c, "Vulkan0 compute_bytes",
	    j_int(d, "compute_bytes", who), llama_sum(ll, "compute", "Vulkan0"),
	    plan_estimated(plan, c));
	expect_compute(bad, est, c, "host compute_bytes",
	    j_int(plan, "compute_bytes", who) - j_int(d, "compute_bytes", who),
	    llama_sum(ll, "compute", NULL) -
		llama_sum(ll, "compute", "Vulkan0"),
	    plan_estimated(plan, c));
}

/* devices_model: the sum of the plan's devices' model_bytes (what the
 * weights take in memory: a tied output's copy included). */
static int64_t
devices_model(const struct jsonnode *plan, const char *who)
{
	const struct jsonnode *devs = jsontree_get(plan, "devices"), *d;
	int64_t sum = 0;

	cr_assert(devs != NULL, "%s: no \"devices\" array", who);
	for (size_t i = 0; (d = jsontree_at(devs, i)) != NULL; i++)
		sum += j_int(d, "model_bytes", who);
	return sum;
}

/*
 * compare_plan: the llama.cpp plan of case c against llama.cpp's
 * allocations: weights (every tensor's bytes), the CPU repack copy and
 * the KV cache (with recurrent state) exact, compute within 10 % (or
 * outside it, listed in *est, when the plan says compute_estimated), the
 * output buffer to the log's precision (0.01 MiB). A missing field fails
 * at once, naming it; a wrong value is a line in *bad.
 */
static void
compare_plan(struct strbuf *bad, struct strbuf *est, const struct ocase *c,
    const struct jsonnode *ll, const struct jsonnode *plan)
{
	char who[300];
	int64_t state = 0, out;
	const struct jsonnode *omib = jsontree_get(ll, "output_mib");

	snprintf(who, sizeof who, "%s: the plan", ocase_name(c));
	jsontree_int64(jsontree_get(plan, "state_bytes"), &state);
	expect(bad, c, "weights_bytes", j_int(plan, "weights_bytes", who),
	    j_int(ll, "model_size", "llama.cpp"), 0);
	expect(bad, c, "repack_bytes", j_int(plan, "repack_bytes", who),
	    llama_sum(ll, "model", "REPACK"), 0);
	expect(bad, c, "devices' model_bytes", devices_model(plan, who),
	    llama_sum(ll, "model", "-REPACK"), 0);
	expect(bad, c, "kv_bytes + state_bytes",
	    j_int(plan, "kv_bytes", who) + state,
	    llama_sum(ll, "context", NULL), 0);
	expect_compute(bad, est, c, "compute_bytes",
	    j_int(plan, "compute_bytes", who), llama_sum(ll, "compute", NULL),
	    plan_estimated(plan, c));
	out = j_int(plan, "output_bytes", who);
	cr_assert(omib != NULL && omib->type == JSONTREE_NUMBER);
	if (out < omib->number * MIB - 0.005 * MIB - 1 ||
	    out > omib->number * MIB + 0.005 * MIB + 1)
		strbuf_addf(bad,
		    "  %s: output_bytes: plan %" PRId64
		    ", llama.cpp %.2f MiB\n",
		    ocase_name(c), out, omib->number);
	compare_devices(bad, est, c, ll, plan);
}

/* A case with flash attention of a row that says llama.cpp aborts
 * there (ARCH_FA_ABORTS: plm): not run. */
static bool
fa_aborts(const struct ocase *c)
{
	const struct arch_info *a = arch_find(c->arch);

	return a != NULL && (a->quirks & ARCH_FA_ABORTS) != 0 &&
	    strcmp(c->fa, "on") == 0;
}

/*
 * run_cases: each case of cs through llama.cpp and the plan (today's or
 * the llama.cpp one), every mismatch collected and reported at the end.
 * Cases llama.cpp refuses are listed, not compared; at least one must
 * run.
 */
static void
run_cases(const struct ocase *cs, size_t n, bool today)
{
	struct strbuf bad = STRBUF_INIT, refused = STRBUF_INIT;
	struct strbuf est = STRBUF_INIT;
	struct oenv *e = &g_oenv;
	size_t ran = 0, step;

	/* Under make check-valgrind every fortieth case, in the sanitizer
	 * build every fifth: gguflint's plan code under memcheck or ASan, not
	 * llama.cpp again (make check holds every case against it, and
	 * test_graph plans each architecture's first row under both). */
	step = test_sample_step(40, 5);
	oenv_need(e, cs[0].backend);
	for (size_t i = 0; i < n; i += step) {
		struct jsonnode *ll, *root;
		const struct jsonnode *plan;
		char *why = NULL;

		if (fa_aborts(&cs[i])) {
			strbuf_addf(&refused,
			    "  %s: aborts with flash "
			    "attention (ARCH_FA_ABORTS)\n",
			    ocase_name(&cs[i]));
			continue;
		}
		ll = run_llama(e, &cs[i], &why);
		if (ll == NULL) {
			strbuf_addf(&refused, "  %s: %s\n", ocase_name(&cs[i]),
			    why);
			free(why);
			continue;
		}
		plan = run_plan(e, &cs[i], today, &root);
		if (today)
			expect(&bad, &cs[i], "kv_bytes + state_bytes",
			    j_int(plan, "kv_bytes", "the plan") +
				j_int(plan, "state_bytes", "the plan"),
			    llama_sum(ll, "context", NULL), 0);
		else
			compare_plan(&bad, &est, &cs[i], ll, plan);
		jsontree_free(root);
		jsontree_free(ll);
		ran++;
	}
	cr_expect(ran > 0, "llama.cpp refused every case:\n%s",
	    strbuf_cstr(&refused));
	cr_expect(bad.len == 0,
	    "%zu cases, the plan differs from "
	    "llama.cpp:\n%s(refused by llama.cpp:\n%s)(estimated:\n%s)",
	    n, strbuf_cstr(&bad), strbuf_cstr(&refused), strbuf_cstr(&est));
	strbuf_free(&est);
	strbuf_free(&bad);
	strbuf_free(&refused);
}

#define MAX_CASES 512

/* kv_today: the KV cache (and recurrent state) of today's plan, exact,
 * for every architecture, three contexts and two cache types. */
Test(oracle, kv_today, .timeout = 300, .fini = oracle_fini)
{
	static const unsigned ctxs[] = { 512, 4096, 32768 };
	static const char *const types[] = { "f16", "q8_0" };
	struct ocase cs[MAX_CASES];
	size_t n = 0;

	for (size_t a = 0; oraclegen_arch(a) != NULL; a++)
		for (size_t i = 0; i < 3; i++)
			for (size_t t = 0; t < 2 && n < MAX_CASES; t++)
				cs[n++] = (struct ocase){ oraclegen_arch(a),
					"cpu", "zen4", ctxs[i], "on", types[t],
					types[t], 1, 0, NULL, false, 0 };
	run_cases(cs, n, true);
}

/*
 * plan_cpu: the llama.cpp plan on the CPU backend, both libraries, every
 * architecture, at five points of the matrix (contexts, FA on and off,
 * f16, q8_0 and differing K/V types, one and four sequences).
 */
Test(oracle, plan_cpu, .timeout = 300, .fini = oracle_fini)
{
	static const struct ocase pts[] = {
		{ NULL, "cpu", "zen4", 4096, "on", "f16", "f16", 1, 0, NULL,
		    false, 0 },
		{ NULL, "cpu", "haswell", 32768, "off", "f16", "f16", 4, 0,
		    NULL, false, 0 },
		{ NULL, "cpu", "zen4", 512, "on", "q8_0", "f16", 1, 0, NULL,
		    false, 0 },
		{ NULL, "cpu", "haswell", 4096, "on", "q8_0", "q8_0", 4, 0,
		    NULL, false, 0 },
		{ NULL, "cpu", "zen4", 4096, "off", "f16", "f16", 4, 0, NULL,
		    false, 0 },
	};
	struct ocase cs[MAX_CASES];
	size_t n = 0;

	for (size_t a = 0; oraclegen_arch(a) != NULL; a++)
		for (size_t p = 0; p < 5 && n < MAX_CASES; p++) {
			cs[n] = pts[p];
			cs[n++].arch = oraclegen_arch(a);
		}
	run_cases(cs, n, false);
}

/*
 * plan_f16: every architecture with F16 weights, a type no CPU repacks:
 * the tied output copy and gemma3n's second token_embd where llama.cpp
 * keeps them (the CPU backend).
 */
Test(oracle, plan_f16, .timeout = 300, .fini = oracle_fini)
{
	static const struct ocase pts[] = {
		{ NULL, "cpu", "zen4", 4096, "on", "f16", "f16", 1, 0, "f16",
		    false, 0 },
	};
	struct ocase cs[MAX_CASES];

	for (size_t p = 0; p < sizeof pts / sizeof pts[0]; p++) {
		size_t n = 0;

		for (size_t a = 0; oraclegen_arch(a) != NULL && n < MAX_CASES;
		     a++) {
			cs[n] = pts[p];
			cs[n++].arch = oraclegen_arch(a);
		}
		run_cases(cs, n, false);
		oenv_free(&g_oenv);
	}
}

/*
 * plan_wide: a model of a real one's proportions (oraclegen_wide), whose
 * weights outweigh its activations, beside Vulkan with layers on the
 * host, where the device takes a copy of each host layer's weights in
 * turn: three weight types, two contexts, FA on and off, -ngl 2 and 0
 * (every layer offloaded too); and every wide geometry on the CPU.
 */
Test(oracle, plan_wide, .timeout = 300, .fini = oracle_fini)
{
	static const struct ocase pts[] = {
		{ NULL, "vulkan", "zen4", 4096, "on", "f16", "f16", 1, 2, NULL,
		    false, 0 },
		{ NULL, "vulkan", "zen4", 512, "off", "f16", "f16", 1, 0, NULL,
		    false, 0 },
		{ NULL, "vulkan", "zen4", 4096, "off", "f16", "f16", 1, 2, NULL,
		    false, 0 },
		{ NULL, "vulkan", "zen4", 512, "on", "q8_0", "q8_0", 4, 0, NULL,
		    false, 0 },
		{ NULL, "vulkan", "zen4", 4096, "on", "f16", "f16", 1, 99, NULL,
		    false, 0 },
	};
	struct ocase cs[MAX_CASES];
	size_t n = 0;

	for (size_t t = 0; t < sizeof wtypes / sizeof wtypes[0]; t++)
		for (size_t p = 0; p < sizeof pts / sizeof pts[0]; p++) {
			cs[n] = pts[p];
			cs[n].arch = oraclegen_wide(0);
			cs[n++].wtype = wtypes[t];
		}
	run_cases(cs, n, false);
	oenv_free(&g_oenv);
	/* the CPU: every wide geometry (qwen3moe-wide's experts' outputs) */
	n = 0;
	for (size_t i = 0; oraclegen_wide(i) != NULL; i++)
		for (size_t p = 0; p < 2; p++)
			cs[n++] = (struct ocase){ oraclegen_wide(i), "cpu",
				"zen4", p ? 512 : 4096, p ? "off" : "on",
				p ? "f16" : "q8_0", p ? "f16" : "q8_0", 1, 0,
				wtypes[i % 3], false, 0 };
	run_cases(cs, n, false);
}

/* run_moe_wide: the n cases pts of qwen3moe-wide (their arch set). */
static void
run_moe_wide(const struct ocase *pts, size_t n)
{
	struct ocase cs[MAX_CASES];
	size_t i, w = 0;

	while (oraclegen_wide(w) != NULL &&
	    strcmp(oraclegen_wide(w), "qwen3moe-wide") != 0)
		w++;
	cr_assert(oraclegen_wide(w) != NULL, "no qwen3moe-wide geometry");
	cr_assert(n <= MAX_CASES);
	for (i = 0; i < n; i++) {
		cs[i] = pts[i];
		cs[i].arch = oraclegen_wide(w);
	}
	run_cases(cs, n, false);
}

/*
 * plan_oversize: weights beyond the largest tensor the device claims.
 * llvmpipe claims none beyond 128 MiB (its storage-buffer range), so
 * qwen3moe-wide's f16 and q8_0 expert tensors (384 and 204 MiB each)
 * stay on the host at -ngl 99, and each layer's expert FFN runs on the
 * CPU: the plan with the runtime probed (K006) against llama.cpp's
 * buffers, at five points (FA on and off, 512 to 32768 cells, four
 * sequences, both weight types).
 */
Test(oracle, plan_oversize, .timeout = 300, .fini = oracle_fini)
{
	static const struct ocase pts[] = {
		{ NULL, "vulkan", "zen4", 4096, "on", "f16", "f16", 1, 99,
		    "f16", true, 0 },
		{ NULL, "vulkan", "zen4", 512, "off", "f16", "f16", 1, 99,
		    "f16", true, 0 },
		{ NULL, "vulkan", "zen4", 4096, "on", "q8_0", "q8_0", 4, 99,
		    "f16", true, 0 },
		{ NULL, "vulkan", "zen4", 32768, "on", "f16", "f16", 1, 99,
		    "f16", true, 0 },
		{ NULL, "vulkan", "zen4", 4096, "on", "f16", "f16", 1, 99,
		    "q8_0", true, 0 },
	};
	struct ocase kq[] = {
		{ NULL, "vulkan", "zen4", 8192, "off", "f16", "f16", 1, 99,
		    "q4_0", true, 0 },
		{ NULL, "vulkan", "zen4", 16384, "off", "f16", "f16", 1, 99,
		    "q8_0", true, 0 },
	};
	if (test_valgrind_step(2) > 1)
		cr_skip_test("make check-valgrind: gguflint's probe would run "
			     "ggml-vulkan under memcheck for minutes (make "
			     "check runs it; runtime's tests watch the probe "
			     "on the test doubles)");
	run_moe_wide(pts, sizeof pts / sizeof pts[0]);
	oenv_free(&g_oenv);
	/* without flash attention at 8192 cells a layer's KQ (16 heads:
	 * 256 MiB) runs on the CPU */
	for (size_t i = 0; i < 2; i++)
		kq[i].arch = oraclegen_wide(i == 0 ? 0 : 4);
	run_cases(kq, 2, false);
}

/*
 * plan_cpu_moe: llama.cpp's --n-cpu-moe (the client's cpumoe=N overrides
 * the experts' weights of the first N layers to the CPU, as llama-cli
 * does) beside Vulkan at -ngl 99: qwen3moe-wide's q4_0 experts, which
 * llvmpipe claims, stay in Vulkan_Host and the device copies each in
 * (one layer's and every layer's), and its f16 ones, which it does not,
 * stay in the CPU buffer and run there.
 */
Test(oracle, plan_cpu_moe, .timeout = 300, .fini = oracle_fini)
{
	static const struct ocase pts[] = {
		{ NULL, "vulkan", "zen4", 4096, "on", "f16", "f16", 1, 99,
		    "q4_0", false, 4 },
		{ NULL, "vulkan", "zen4", 512, "off", "f16", "f16", 1, 99,
		    "q4_0", false, 1 },
		{ NULL, "vulkan", "zen4", 4096, "on", "q8_0", "q8_0", 4, 99,
		    "q4_0", false, 4 },
		{ NULL, "vulkan", "zen4", 4096, "on", "f16", "f16", 1, 99,
		    "f16", true, 4 },
	};
	run_moe_wide(pts, sizeof pts / sizeof pts[0]);
}

/*
 * plan_vulkan: the llama.cpp plan on Vulkan (llvmpipe), every layer
 * offloaded, two of four, and none, for the architectures whose split
 * between host and device is measured (three points each: f16 at 4096
 * with FA, f16 at 512 without, q8_0 at 4096 with four sequences), and
 * one partial offload of every other architecture whose weights and
 * cache the plan places exactly (their compute may be estimated, and
 * then must say so).
 */
Test(oracle, plan_vulkan, .timeout = 300, .fini = oracle_fini)
{
	/* the first n_full: three points at three -ngl; the others one */
	static const char *const goal[] = { "llama", "qwen2", "gemma2", "qwen3",
		"qwen2moe", "starcoder2", "glm4moe", "gpt-oss", "bert",
		"nomic-bert", "gpt2", "qwen3moe", "gemma3", "llama4", "falcon",
		"deepseek2", "mamba", "mamba2", "lfm2", "gemma3n", "gemma",
		"phi3", "olmo2" };
	static const size_t n_full = 20;
	static const char *const other[] = { "granitehybrid", "cohere2" };
	static const struct ocase pts[] = {
		{ NULL, "vulkan", "zen4", 4096, "on", "f16", "f16", 1, 0, NULL,
		    false, 0 },
		{ NULL, "vulkan", "zen4", 512, "off", "f16", "f16", 1, 0, NULL,
		    false, 0 },
		{ NULL, "vulkan", "zen4", 4096, "on", "q8_0", "q8_0", 4, 0,
		    NULL, false, 0 },
	};
	static const int ngls[] = { 99, 2, 0 };
	struct ocase cs[MAX_CASES];
	size_t n = 0;

	for (size_t a = 0; a < sizeof goal / sizeof goal[0]; a++)
		for (size_t p = 0; p < 3; p++)
			for (size_t g = 0; g < 3; g++) {
				/* gemma, phi3, olmo2: one point, two -ngl */
				if (a >= n_full && (p != 0 || g == 2))
					continue;
				cs[n] = pts[p];
				cs[n].arch = goal[a];
				cs[n++].ngl = ngls[g];
			}
	for (size_t a = 0; a < sizeof other / sizeof other[0]; a++) {
		cs[n] = pts[0];
		cs[n].arch = other[a];
		cs[n++].ngl = 2;
	}
	/* MLA without flash attention, four streams: the host layers'
	 * attention on the CPU (mla_host, mla_attention_on_host) */
	for (size_t g = 1; g < 3; g++)
		cs[n++] = (struct ocase){ "deepseek2", "vulkan", "zen4", 4096,
			"off", "f16", "f16", 4, ngls[g], NULL, false, 0 };
	run_cases(cs, n, false);
}

/*
 * vulkan_part: case c's compute on Vulkan, the device's (dev) and the
 * host's within 10 % even where the plan says compute_estimated.
 */
static void
vulkan_part(struct oenv *e, const struct ocase *c, bool dev)
{
	const struct jsonnode *plan, *d;
	struct jsonnode *ll, *root;
	char *why = NULL;
	int64_t pd, pt, ld, lt;

	ll = run_llama(e, c, &why);
	cr_assert(ll != NULL, "%s: llama.cpp: %s", ocase_name(c),
	    why ? why : "?");
	plan = run_plan(e, c, false, &root);
	d = plan_device(plan, "Vulkan0");
	cr_assert(d != NULL, "%s: no Vulkan0 in the plan", ocase_name(c));
	pd = j_int(d, "compute_bytes", "Vulkan0");
	pt = j_int(plan, "compute_bytes", "the plan");
	ld = llama_sum(ll, "compute", "Vulkan0");
	lt = llama_sum(ll, "compute", NULL);
	cr_expect(!dev || near(pd, ld, 10),
	    "%s: Vulkan0 compute: plan %" PRId64 ", llama.cpp %" PRId64,
	    ocase_name(c), pd, ld);
	cr_expect(near(pt - pd, lt - ld, 10),
	    "%s: host compute: plan %" PRId64 ", llama.cpp %" PRId64,
	    ocase_name(c), pt - pd, lt - ld);
	jsontree_free(root);
	jsontree_free(ll);
}

/*
 * plan_vulkan_part: what is measured of granitehybrid's split, whose
 * device with every layer offloaded is not modelled (its
 * plan says compute_estimated): at plan_vulkan's three points the host
 * at -ngl 99, 2 and 0 (the scan's share, host_scan) and the device with
 * layers on the host (hybrid_split), -ngl 2 and 0.
 */
Test(oracle, plan_vulkan_part, .timeout = 300, .fini = oracle_fini)
{
	static const struct ocase pts[] = {
		{ NULL, "vulkan", "zen4", 4096, "on", "f16", "f16", 1, 0, NULL,
		    false, 0 },
		{ NULL, "vulkan", "zen4", 512, "off", "f16", "f16", 1, 0, NULL,
		    false, 0 },
		{ NULL, "vulkan", "zen4", 4096, "on", "q8_0", "q8_0", 4, 0,
		    NULL, false, 0 },
	};
	static const int ngls[] = { 99, 2, 0 };
	struct oenv *e = &g_oenv;

	oenv_need(e, "vulkan");
	for (size_t p = 0; p < 3; p++)
		for (size_t n = 0; n < 3; n++) {
			struct ocase c = pts[p];

			c.arch = "granitehybrid";
			c.ngl = ngls[n];
			vulkan_part(e, &c, n != 0);
		}
}

/*
 * measured_case: case c planned with --measure: its compute buffers are
 * llama.cpp's, per device, to the log's 0.01 MiB (half of it, 5243
 * bytes, a buffer; the host may have two), and not estimated. The cases
 * are ones where gguflint's model is off by more than that (outside the
 * 10 % goal or estimated), so a plan that ignored the measurement fails.
 */
static void
measured_case(struct strbuf *bad, const struct ocase *c)
{
	struct oenv *e = &g_oenv;
	struct jsonnode *ll, *root;
	const struct jsonnode *plan, *d, *est, *by;
	char *why = NULL;
	int64_t pd = 0, ld = 0, ph, lh;

	ll = run_llama(e, c, &why);
	cr_assert(ll != NULL, "%s: llama.cpp: %s", ocase_name(c),
	    why ? why : "?");
	plan = run_plan(e, c, false, &root);
	if ((d = plan_device(plan, "Vulkan0")) != NULL) {
		pd = j_int(d, "compute_bytes", "Vulkan0");
		ld = llama_sum(ll, "compute", "Vulkan0");
	}
	ph = j_int(plan, "compute_bytes", "the plan") - pd;
	lh = llama_sum(ll, "compute", NULL) - ld;
	est = jsontree_get(plan, "compute_estimated");
	by = jsontree_get(plan, "compute_measured_by");
	if (pd - ld > 5243 || ld - pd > 5243 || ph - lh > 10486 ||
	    lh - ph > 10486 || est == NULL || est->boolean || by == NULL ||
	    strstr(jsontree_str(by), "llama.cpp") == NULL)
		strbuf_addf(bad,
		    "  %s: device %" PRId64 " / %" PRId64 ", host %" PRId64
		    " / %" PRId64 ", estimated %s, by %s\n",
		    ocase_name(c), pd, ld, ph, lh,
		    est && est->boolean ? "yes" : "no",
		    by ? jsontree_str(by) : "(none)");
	jsontree_free(root);
	jsontree_free(ll);
}

/* plan_measured: --measure on the CPU and on Vulkan, where the model is
 * outside the goal or estimated (and --n-cpu-moe's overrides). */
Test(oracle, plan_measured, .timeout = 300, .fini = oracle_fini)
{
	static const struct ocase cpu[] = {
		{ "cohere2", "cpu", "zen4", 4096, "on", "f16", "f16", 1, 0,
		    NULL, MEASURED, 0 },
		{ "granitehybrid", "cpu", "zen4", 512, "off", "f16", "f16", 4,
		    0, NULL, MEASURED, 0 },
	};
	static const struct ocase vk[] = {
		{ "starcoder2", "vulkan", "zen4", 512, "on", "q8_0", "q8_0", 1,
		    99, NULL, MEASURED, 0 },
		{ "qwen3moe", "vulkan", "zen4", 512, "off", "f16", "f16", 4, 99,
		    NULL, MEASURED, 0 },
		{ "gemma3n", "vulkan", "zen4", 4096, "off", "f16", "f16", 1, 2,
		    NULL, MEASURED, 0 },
		{ "granitehybrid", "vulkan", "zen4", 512, "off", "f16", "f16",
		    1, 99, NULL, MEASURED, 0 },
		{ "cohere2", "vulkan", "zen4", 4096, "on", "f16", "f16", 1, 2,
		    NULL, MEASURED, 0 },
		{ "qwen3moe", "vulkan", "zen4", 4096, "on", "f16", "f16", 1, 99,
		    "q4_0", MEASURED, 1 },
	};
	struct strbuf bad = STRBUF_INIT;
	struct oenv *e = &g_oenv;

	if (getenv("GGUFLINT_VALGRIND") != NULL)
		cr_skip_test("the measurement runs ggml-vulkan under memcheck "
			     "(the plain and sanitizer runs hold it)");
	oenv_need(e, "cpu");
	for (size_t i = 0; i < sizeof cpu / sizeof cpu[0]; i++)
		measured_case(&bad, &cpu[i]);
	oenv_need(e, "vulkan");
	for (size_t i = 0; i < sizeof vk / sizeof vk[0]; i++)
		measured_case(&bad, &vk[i]);
	cr_expect(bad.len == 0, "the measured plan is not llama.cpp's:\n%s",
	    strbuf_cstr(&bad));
	strbuf_free(&bad);
}

/* Vulkan0's bytes (weights, cache, compute) as llama.cpp allocates them
 * for case c. */
static int64_t
llama_device_total(struct oenv *e, const struct ocase *c)
{
	struct jsonnode *ll;
	char *why = NULL;
	int64_t t;

	ll = run_llama(e, c, &why);
	cr_assert(ll != NULL, "%s: llama.cpp: %s", ocase_name(c),
	    why ? why : "?");
	t = llama_sum(ll, "model", "Vulkan0") +
	    llama_sum(ll, "context", "Vulkan0") +
	    llama_sum(ll, "compute", "Vulkan0");
	jsontree_free(ll);
	return t;
}

/* The run of argv (its last two slots free) with --measure on the
 * Vulkan libraries suggests -ncmoe n, measured. */
static void
measured_ncmoe(struct oenv *e, const char **argv, int n)
{
	char rt[PATH_MAX + 16], want[64];
	const char *run[24], *s;
	struct test_run r;
	size_t i, k = 0;

	snprintf(rt, sizeof rt, "%s/vulkan", e->llama);
	snprintf(want, sizeof want,
	    "\"args\": \"-ncmoe %d\", "
	    "\"saving_bytes\": ",
	    n);
	for (i = 0; argv[i] != NULL && k + 4 < 24; i++) {
		if (argv[i + 1] == NULL) { /* before the model */
			run[k++] = "--runtime";
			run[k++] = rt;
			run[k++] = "--measure";
		}
		run[k++] = argv[i];
	}
	run[k] = NULL;
	setenv("XDG_CACHE_HOME", e->models, 1);
	setenv("GGML_VK_VISIBLE_DEVICES", "0", 1);
	test_run_bin(&r, run, NULL, 0);
	s = strstr(r.out, want);
	cr_expect(s != NULL && strstr(s, "\"measured\": true") != NULL &&
		strstr(s, "\"measured\": true") < strchr(s, '}'),
	    "--measure: no measured -ncmoe %d: %s%s", n, r.out, r.err);
	test_run_free(&r);
}

/*
 * suggested_ncmoe_is_llama_cpps: qwen3moe-wide's q4_0 (1.3 GiB of
 * weights) at -ngl 99 on a 1 GiB device does not fit, and gguflint
 * suggests -ncmoe N, the fewest layers whose experts off the device make
 * it fit. llama.cpp itself, with --n-cpu-moe N, holds the device to
 * 1 GiB, and with N - 1 does not: the suggestion is the runtime's. With
 * --measure the suggestion is the same, and measured.
 */
Test(oracle, suggested_ncmoe_is_llama_cpps, .timeout = 300, .fini = oracle_fini)
{
	struct ocase c = { NULL, "vulkan", "zen4", 4096, "on", "f16", "f16", 1,
		99, "q4_0", false, 0 };
	struct oenv *e = &g_oenv;
	char prof[PATH_MAX + 32], model[PATH_MAX + 64];
	const char *argv[] = { "--no-config", "--format", "json", "-p", prof,
		"-c", "4096", "-fa", "on", "-ub", "512", "-b", "2048", "-ngl",
		"99", "--no-mmap", model, NULL };
	const int64_t gib = 1 << 30;
	struct test_run r;
	const char *s;
	int64_t at, below;
	FILE *f;

	if (test_valgrind_step(2) > 1)
		cr_skip_test("make check-valgrind: llama.cpp's Vulkan loads, "
			     "not gguflint's code (make check runs it)");
	oenv_need(e, "vulkan");
	for (size_t w = 0; oraclegen_wide(w) != NULL; w++)
		if (strcmp(oraclegen_wide(w), "qwen3moe-wide") == 0)
			c.arch = oraclegen_wide(w);
	cr_assert(c.arch != NULL, "no qwen3moe-wide geometry");
	oenv_model(e, &c, model, sizeof model);
	snprintf(prof, sizeof prof, "%s/small.yaml", e->models);
	f = fopen(prof, "w");
	cr_assert(f != NULL);
	fputs("name: small_gpu\ndescription: a 1 GiB GPU\nruntime: llama.cpp\n"
	      "backend: vulkan\ncpu_features: [avx2, f16c, fma]\n"
	      "memory: 16 GiB\ndevice_memory: 1 GiB\nreserve: 1 GiB\n"
	      "weights: mapped\ncontext: 4096\nkv_cache: f16\nubatch: 512\n"
	      "flash_attention: true\n",
	    f);
	cr_assert(fclose(f) == 0);
	test_run_bin(&r, argv, NULL, 0);
	s = strstr(r.out, "\"args\": \"-ncmoe ");
	cr_assert(s != NULL, "no -ncmoe suggestion: %s", r.out);
	c.cpu_moe = atoi(s + strlen("\"args\": \"-ncmoe "));
	test_run_free(&r);
	cr_assert(c.cpu_moe >= 1, "-ncmoe %d", c.cpu_moe);
	at = llama_device_total(e, &c);
	c.cpu_moe--;
	below = llama_device_total(e, &c);
	cr_expect(at <= gib && below > gib,
	    "-ncmoe %d: llama.cpp's Vulkan0 %" PRId64 " bytes, with one "
	    "layer less %" PRId64 " (the device: %" PRId64 ")",
	    c.cpu_moe + 1, at, below, gib);
	measured_ncmoe(e, argv, c.cpu_moe + 1);
}

/*
 * P013 (issue 41): a layer's KV cache is one tensor on the device, and
 * llama.cpp v0.5.0 aborts making the context when the device cannot take
 * it: a Llama-3.2-1B shape (K and V 1 KiB a cell) on llvmpipe (128 MiB)
 * holds 131072 cells and aborts at 131328, at two sequences too, and not
 * with a q8_0 cache or the layers on the host. gguflint, with llvmpipe's
 * limit from the profile, says P013 exactly where llama.cpp aborts.
 */
struct cache_case {
	unsigned ctx, np;
	const char *ct;
	int ngl;
	bool aborts;
};

static void
cache_case_run(struct oenv *e, const struct cache_case *k, const char *profile)
{
	struct ocase c = { "llama-1b-tied", "vulkan", "haswell", k->ctx, "on",
		k->ct, k->ct, k->np, k->ngl, "q8_0", 0, 0 };
	char model[PATH_MAX + 64], ctx[16], np[16], ngl[16], *why = NULL;
	const char *argv[] = { "--format", "json", "-p", profile, "-c", ctx,
		"-np", np, "-ngl", ngl, "-ctk", k->ct, "-ctv", k->ct, "-fa",
		"on", "--no-mmap", model, NULL };
	struct jsonnode *ll;
	struct test_run r;

	setenv("GGML_VK_VISIBLE_DEVICES", "0", 1);
	if (k->aborts) {
		char dir[PATH_MAX + 16], cpu[32], cx[32], n[32], g[32];
		const char *cargv[] = { e->client,
			oenv_model(e, &c, model, sizeof model), dir, cpu, cx, n,
			g, "fa=on", NULL };
		int status;
		char *out;

		snprintf(dir, sizeof dir, "dir=%s/vulkan", e->llama);
		snprintf(cpu, sizeof cpu, "cpu=%s", ocase_variant(&c));
		snprintf(cx, sizeof cx, "ctx=%u", k->ctx);
		snprintf(n, sizeof n, "np=%u", k->np);
		snprintf(g, sizeof g, "ngl=%d", k->ngl);
		out = loader_run(cargv, ORACLE_TIMEOUT, &status);
		cr_expect(status > 1,
		    "%s: llama.cpp's client exited %d, not "
		    "an abort: %s",
		    ocase_name(&c), status, out);
		free(out);
	} else {
		ll = run_llama(e, &c, &why);
		cr_expect(ll != NULL, "%s: llama.cpp refused: %s",
		    ocase_name(&c), why);
		jsontree_free(ll);
		free(why);
	}
	oenv_model(e, &c, model, sizeof model);
	snprintf(ctx, sizeof ctx, "%u", k->ctx);
	snprintf(np, sizeof np, "%u", k->np);
	snprintf(ngl, sizeof ngl, "%d", k->ngl);
	test_run_bin(&r, argv, NULL, 0);
	cr_expect_eq(strstr(r.out, "\"P013\"") != NULL, k->aborts,
	    "%s: llama.cpp %s, gguflint %s P013 (exit %d): %s", ocase_name(&c),
	    k->aborts ? "aborts" : "makes the context",
	    k->aborts ? "does not say" : "says", r.status, r.err);
	test_run_free(&r);
}

Test(oracle, cache_beyond_the_device_limit_is_p013, .timeout = 300,
    .fini = oracle_fini)
{
	static const struct cache_case cases[] = {
		{ 131072, 1, "f16", 99, false },
		{ 131328, 1, "f16", 99, true },
		{ 140000, 2, "f16", 99, true },
		{ 131328, 1, "f16", 8, true },
		{ 131328, 1, "q8_0", 99, false },
		{ 131328, 1, "f16", 0, false },
	};
	struct oenv *e = &g_oenv;
	char *text, path[PATH_MAX + 32];
	size_t i, step = test_valgrind_step(3);
	FILE *f;

	oenv_need(e, "vulkan");
	snprintf(path, sizeof path, "%s/llvmpipe.yaml", e->models);
	text = test_llama_profile("llvmpipe", "llvmpipe's limits", "vulkan",
	    "[avx2, f16c, fma]");
	f = fopen(path, "w");
	cr_assert(f != NULL && fputs(text, f) >= 0 && fclose(f) == 0);
	free(text);
	for (i = 0; i < sizeof cases / sizeof cases[0]; i += step)
		cache_case_run(e, &cases[i], path);
}
