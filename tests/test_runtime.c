/*
 * test_runtime.c - the runtime probe (src/runtime/): the test doubles of
 * tests/fakeggml/ (wrong numbers, an abort, a hang, no claim, another ABI,
 * too old a ggml) come out as they must without gguflint crashing or
 * hanging; llama.cpp's real CPU backend and its Vulkan backend on Mesa's
 * llvmpipe, from $GGUFLINT_LLAMA (build-aux/install-llama), probed for
 * every encoding gguflint knows (Vulkan: a subset, its shaders compile
 * slowly), verdicts and NMSE checked; the cache; the command line.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <fcntl.h>
#include <glob.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/util.h"
#include "ggufw.h"
#include "golden.h"
#include "jsontree.h"
#include "kernels/ggml-types.h"
#include "oraclegen.h"
#include "runtime/runtime-impl.h"
#include "runtime/runtime.h"
#include "target/captable.h"
#include "testutil.h"

/* The folder of a test double: beside the program, tests/fakeggml/MODE. */
static char *
fake_dir(const char *mode)
{
	const char *bin = getenv("GGUFLINT_BIN");
	const char *slash = bin ? strrchr(bin, '/') : NULL;
	char *dir;

	cr_assert(slash != NULL, "GGUFLINT_BIN is not a path");
	dir = xasprintf("%.*s/tests/fakeggml/%s", (int)(slash - bin), bin,
	    mode);
	return dir;
}

/* A fresh, empty cache for the test (the user's is never touched). */
static void
private_cache(void)
{
	char tmpl[] = "/tmp/gguflint-cache-XXXXXX";

	cr_assert(mkdtemp(tmpl) != NULL);
	setenv("XDG_CACHE_HOME", tmpl, 1);
}

static double
now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The four cases the test doubles know: q4_0 and q8_0, both operations. */
static void
fake_cases(struct rt_case c[4])
{
	static const uint32_t enc[2] = { GGML_TYPE_Q4_0, GGML_TYPE_Q8_0 };
	size_t i;

	memset(c, 0, 4 * sizeof *c);
	for (i = 0; i < 4; i++) {
		c[i].op = i % 2 ? RT_GET_ROWS : RT_MUL_MAT;
		c[i].encoding = enc[i / 2];
		c[i].row = 256;
	}
}

/* Probe the four cases on a double; returns runtime_probe's status. */
static int
probe_fake(const char *mode, struct rt_case c[4], struct rt_info *info,
    struct gl_error *err, unsigned timeout)
{
	char *dir = fake_dir(mode);
	struct rt_request rq = { dir, NULL, true, timeout, false };
	int rc;

	private_cache();
	fake_cases(c);
	rc = runtime_probe(&rq, c, 4, info, err);
	free(dir);
	return rc;
}

Test(runtime, wrong_numbers_are_unsafe)
{
	struct rt_case c[4];
	struct rt_info info;
	struct gl_error err;
	size_t i;

	cr_assert_eq(probe_fake("wrong", c, &info, &err, 0), 0, "%s", err.msg);
	cr_assert_str_eq(info.device.name, "Fake0");
	cr_assert_str_eq(info.version, "0.0.0-fake");
	for (i = 0; i < 4; i++) {
		cr_expect_eq(c[i].state, RT_UNSAFE, "case %zu: %s", i,
		    rt_state_name(c[i].state));
		cr_expect(c[i].nmse > RT_TOLERANCE, "case %zu: %g", i,
		    c[i].nmse);
		cr_expect(c[i].reason && strstr(c[i].reason, "wrong numbers"),
		    "case %zu: %s", i, c[i].reason);
	}
	runtime_cases_free(c, 4);
	runtime_info_free(&info);
}

/* Each case aborts its child; every case is still answered, by a fresh
 * child each, with what the runtime said before it died. */
Test(runtime, an_abort_is_unsafe_and_the_next_case_goes_on)
{
	struct rt_case c[4];
	struct rt_info info;
	struct gl_error err;
	size_t i;

	cr_assert_eq(probe_fake("abort", c, &info, &err, 0), 0, "%s", err.msg);
	for (i = 0; i < 4; i++) {
		cr_expect_eq(c[i].state, RT_UNSAFE, "case %zu", i);
		cr_expect(c[i].reason && strstr(c[i].reason, "abort") &&
			strstr(c[i].reason, "GGML_ASSERT") != NULL,
		    "case %zu: %s", i, c[i].reason);
		cr_expect(c[i].reason && strlen(c[i].reason) > 22 &&
			strcmp(c[i].reason + strlen(c[i].reason) - 22,
			    "while running on Fake0") == 0,
		    "case %zu: %s", i, c[i].reason);
	}
	runtime_cases_free(c, 4);
	runtime_info_free(&info);
}

Test(runtime, a_hang_is_unsafe_within_the_time_limit, .timeout = 60)
{
	struct rt_case c[4];
	struct rt_info info;
	struct gl_error err;
	double t0 = now_s();
	size_t i;

	cr_assert_eq(probe_fake("hang", c, &info, &err, 1), 0, "%s", err.msg);
	cr_expect_lt(now_s() - t0, 20.0, "four 1 s limits took %.1f s",
	    now_s() - t0);
	for (i = 0; i < 4; i++) {
		cr_expect_eq(c[i].state, RT_UNSAFE, "case %zu", i);
		cr_expect(c[i].reason && strstr(c[i].reason, "hang") &&
			strstr(c[i].reason, "(no answer in 1 s)"),
		    "case %zu: %s", i, c[i].reason);
	}
	runtime_cases_free(c, 4);
	runtime_info_free(&info);
}

/*
 * A case out of time says what was seen: a computation waiting (hang), one
 * still busy (spin: slow or hung, and the variable that sets the limit),
 * or a child stuck before its computation (stall, in supports_op).
 */
Test(runtime, a_late_case_says_what_the_child_was_doing, .timeout = 90)
{
	static const char *const mode[] = { "hang", "spin", "stall" };
	static const char *const said[][2] = {
		{ "hang: the computation on Fake0 did not return, the child "
		  "idle (0.",
		    " s of CPU time in 1 s) (no answer in 1 s)" },
		{ "slow or hung: still computing on Fake0, the child busy (",
		    "(no answer in 1 s: GGUFLINT_PROBE_TIMEOUT sets the "
		    "limit)" },
		{ "hang before the computation on Fake0 (in building the "
		  "case, supports_op or the allocation) (no answer in 1 s)",
		    "" },
	};
	struct rt_case c[4];
	struct rt_info info;
	struct gl_error err;
	size_t m, i;

	for (m = 0; m < 3; m++) {
		cr_assert_eq(probe_fake(mode[m], c, &info, &err, 1), 0, "%s",
		    err.msg);
		for (i = 0; i < 4; i++) {
			const char *r = c[i].reason ? c[i].reason : "";

			cr_expect_eq(c[i].state, RT_UNSAFE, "%s %zu", mode[m],
			    i);
			cr_expect(strncmp(r, said[m][0], strlen(said[m][0])) ==
				    0 &&
				strstr(r, said[m][1]) != NULL,
			    "%s %zu: %s", mode[m], i, r);
		}
		runtime_cases_free(c, 4);
		runtime_info_free(&info);
	}
}

/* An answer of no answer in time is cached for that limit: the same limit
 * takes it from the cache, a longer one probes it again. */
Test(runtime, a_late_answer_is_probed_again_under_a_longer_limit, .timeout = 60)
{
	static const unsigned limit[] = { 1, 1, 2 };
	static const size_t cached[] = { 0, 2, 0 };
	char *dir = fake_dir("hang");
	struct rt_case c[4];
	struct rt_info info;
	struct gl_error err;
	size_t k, i;

	private_cache();
	for (k = 0; k < 3; k++) {
		struct rt_request rq = { dir, NULL, false, limit[k], false };
		char want[32];

		fake_cases(c);
		cr_assert_eq(runtime_probe(&rq, c, 2, &info, &err), 0, "%s",
		    err.msg);
		cr_expect_eq(info.n_cached, cached[k], "probe %zu: %zu cached",
		    k, info.n_cached);
		snprintf(want, sizeof want, "(no answer in %u s)", limit[k]);
		for (i = 0; i < 2; i++) {
			cr_expect_eq(c[i].state, RT_UNSAFE);
			cr_expect_eq(c[i].late_s, limit[k]);
			cr_expect(c[i].reason && strstr(c[i].reason, want),
			    "probe %zu case %zu: %s", k, i, c[i].reason);
		}
		runtime_cases_free(c, 2);
		runtime_info_free(&info);
	}
	free(dir);
}

Test(runtime, an_unclaimed_case_falls_back)
{
	struct rt_case c[4];
	struct rt_info info;
	struct gl_error err;
	size_t i;

	cr_assert_eq(probe_fake("refuse", c, &info, &err, 0), 0, "%s", err.msg);
	for (i = 0; i < 4; i++)
		cr_expect_eq(c[i].state, RT_FALLBACK, "case %zu: %s", i,
		    rt_state_name(c[i].state));
	runtime_cases_free(c, 4);
	runtime_info_free(&info);
}

/*
 * The largest tensor the device claims, measured by bisection to 4 bytes
 * (the double claims up to 5000002 bytes: the largest f32 table is of
 * 5000000) and kept in the cache; a device that claims any size has none.
 */
Test(runtime, the_largest_tensor_claimed_is_measured_and_cached)
{
	char *dir = fake_dir("limit");
	struct rt_request rq = { dir, NULL, false, 0, false };
	struct rt_case c[4], d[4];
	struct rt_info info, again;
	struct gl_error err;

	private_cache();
	fake_cases(c);
	fake_cases(d);
	cr_assert_eq(runtime_probe(&rq, c, 4, &info, &err), 0, "%s", err.msg);
	cr_expect_eq(info.device.max_tensor, 5000000, "%llu",
	    (unsigned long long)info.device.max_tensor);
	cr_assert_eq(runtime_probe(&rq, d, 4, &again, &err), 0, "%s", err.msg);
	cr_expect_eq(again.n_cached, 4);
	cr_expect_eq(again.device.max_tensor, 5000000, "the cache keeps it");
	runtime_cases_free(c, 4);
	runtime_cases_free(d, 4);
	runtime_info_free(&info);
	runtime_info_free(&again);
	cr_assert_eq(probe_fake("wrong", c, &info, &err, 0), 0, "%s", err.msg);
	cr_expect_eq(info.device.max_tensor, 0, "no limit");
	cr_expect(info.device.max_tensor_known);
	runtime_cases_free(c, 4);
	runtime_info_free(&info);
	/* every case's child dies in its computation, none says the limit:
	 * a child of its own measures it */
	cr_assert_eq(probe_fake("abort", c, &info, &err, 0), 0, "%s", err.msg);
	cr_expect(info.device.max_tensor_known, "the limit's own child");
	runtime_cases_free(c, 4);
	runtime_info_free(&info);
	free(dir);
}

/* --list-devices gives each device's limit: the text's "no tensor
 * beyond", the JSON's max_tensor_bytes (0 where it claims any size). */
Test(runtime, list_devices_gives_the_largest_tensor)
{
	char *lim = fake_dir("limit"), *wrong = fake_dir("wrong");
	const char *text[] = { "--list-devices", "--runtime", lim, NULL };
	const char *json[] = { "--list-devices", "--runtime", wrong, "-f",
		"json", NULL };
	struct test_run r;

	test_run_bin(&r, text, NULL, 0);
	cr_expect_eq(r.status, 0, "%s", r.err);
	cr_expect(strstr(r.out, ", no tensor beyond 4 MiB\n") != NULL, "%s",
	    r.out);
	test_run_free(&r);
	test_run_bin(&r, json, NULL, 0);
	cr_expect_eq(r.status, 0, "%s", r.err);
	cr_expect(strstr(r.out, "\"max_tensor_bytes\": 0}") != NULL, "%s",
	    r.out);
	test_run_free(&r);
	json[2] = lim;
	test_run_bin(&r, json, NULL, 0);
	cr_expect(strstr(r.out, "\"max_tensor_bytes\": 5000000}") != NULL, "%s",
	    r.out);
	test_run_free(&r);
	free(lim);
	free(wrong);
}

Test(runtime, another_abi_or_an_old_ggml_is_an_error)
{
	static const char *const modes[] = { "abi", "old" };
	static const char *const says[] = { "another ggml ABI",
		"lacks ggml_backend_dev_supports_op" };
	struct rt_case c[4];
	struct rt_info info;
	struct gl_error err;
	size_t i;

	for (i = 0; i < 2; i++) {
		cr_expect_eq(probe_fake(modes[i], c, &info, &err, 0), -1, "%s",
		    modes[i]);
		cr_expect(strstr(err.msg, says[i]) != NULL, "%s: %s", modes[i],
		    err.msg);
		runtime_cases_free(c, 4);
		runtime_info_free(&info);
	}
}

/* The command line: exit 2 and a message for a folder without ggml and
 * for another ABI; the JSON fields of a probed table. */
Test(runtime, cli_errors_and_json)
{
	char *abi = fake_dir("abi"), *wrong = fake_dir("wrong");
	const char *none[] = { "--list-kernels", "--runtime", "/nonexistent",
		NULL };
	const char *bad[] = { "--list-devices", "--runtime", abi, NULL };
	const char *json[] = { "--list-kernels", "--no-cache", "--runtime",
		wrong, "-f", "json", NULL };
	struct test_run r;
	struct jsonnode *root;
	char *perr = NULL;
	size_t i;

	private_cache();
	test_run_bin(&r, none, NULL, 0);
	cr_expect_eq(r.status, 2);
	cr_expect(strstr(r.err, "no libggml-base in /nonexistent") != NULL,
	    "%s", r.err);
	test_run_free(&r);
	test_run_bin(&r, bad, NULL, 0);
	cr_expect_eq(r.status, 0, "listing needs no tensor: %s", r.err);
	test_run_free(&r);
	bad[0] = "--list-kernels";
	test_run_bin(&r, bad, NULL, 0);
	cr_expect_eq(r.status, 2);
	cr_expect(strstr(r.err, "ABI") != NULL, "%s", r.err);
	test_run_free(&r);
	test_run_bin(&r, json, NULL, 0);
	cr_assert_eq(r.status, 0, "%s", r.err);
	root = jsontree_parse(r.out, r.out_len, &perr);
	cr_assert(root != NULL && root->type == JSONTREE_ARRAY, "%s", perr);
	cr_assert_gt(root->n, 2);
	for (i = 0; i < root->n; i++) {
		const struct jsonnode *e = jsontree_at(root, i);
		const char *enc = jsontree_str(jsontree_get(e, "encoding"));

		cr_expect_str_eq(jsontree_str(jsontree_get(e, "device")),
		    "Fake0");
		cr_expect(jsontree_get(e, "op") != NULL);
		cr_expect(jsontree_get(e, "nmse") != NULL);
		cr_expect_str_eq(jsontree_str(jsontree_get(e, "state")),
		    "unsafe", "%s", enc);
	}
	jsontree_free(root);
	test_run_free(&r);
	free(abi);
	free(wrong);
}

/*
 * A device that answers infinities (llvmpipe 4 lanes wide answers F32's
 * product so): unsafe, "NMSE inf" in the text listing, null in JSON, and
 * -1 in a written table, which loads back.
 */
Test(runtime, infinite_answers_are_unsafe_and_said_so)
{
	char *inf = fake_dir("inf");
	char *yaml = xasprintf("/tmp/gguflint-inf-%d.yaml", (int)getpid());
	const char *text[] = { "--list-kernels", "--no-cache", "--runtime", inf,
		"--write-kernels", yaml, NULL };
	const char *json[] = { "--list-kernels", "--runtime", inf, "-f", "json",
		NULL };
	struct test_run r;
	struct jsonnode *root;
	struct captable t;
	struct gl_error err;
	const struct jsonnode *e;
	char *perr = NULL;

	private_cache();
	test_run_bin(&r, text, NULL, 0);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_expect(strstr(r.out,
		      "runtime: unsafe, NMSE inf: wrong numbers: "
		      "NMSE inf over") != NULL,
	    "%s", r.out);
	cr_expect(strstr(r.out, "NMSE -1") == NULL, "%s", r.out);
	test_run_free(&r);
	cr_assert_eq(captable_load(yaml, &t, &err), 0, "%s", err.msg);
	cr_assert_gt(t.n, 0);
	cr_expect_eq(t.entries[0].state, CAP_RT_UNSAFE);
	cr_expect(t.entries[0].nmse < 0, "%g", t.entries[0].nmse);
	captable_free(&t);
	test_run_bin(&r, json, NULL, 0); /* from the cache */
	cr_assert_eq(r.status, 0, "%s", r.err);
	root = jsontree_parse(r.out, r.out_len, &perr);
	cr_assert(root != NULL && root->type == JSONTREE_ARRAY, "%s", perr);
	cr_assert_gt(root->n, 0);
	e = jsontree_at(root, 0);
	cr_expect_str_eq(jsontree_str(jsontree_get(e, "state")), "unsafe");
	cr_expect(jsontree_get(e, "nmse") != NULL &&
		jsontree_get(e, "nmse")->type == JSONTREE_NULL,
	    "%s", r.out);
	jsontree_free(root);
	test_run_free(&r);
	unlink(yaml);
	free(yaml);
	free(inf);
}

/* $GGUFLINT_LLAMA/SUB when its libggml-base.so is there, else skip. */
static char *
llama_dir(const char *sub)
{
	const char *top = getenv("GGUFLINT_LLAMA");
	char *dir = xasprintf("%s/%s", top ? top : "", sub);
	char *lib = xasprintf("%s/libggml-base.so", dir);
	struct stat st;
	bool ok = top != NULL && *top != '\0' && stat(lib, &st) == 0;

	free(lib);
	if (!ok) {
		free(dir);
		cr_skip_test("llama.cpp's %s libraries are absent (run "
			     "build-aux/install-llama)",
		    sub);
	}
	return dir;
}

/* Check the answers of a real backend: each verified with an NMSE within
 * the tolerance, get_rows exact, a quantized mul_mat not exact (the CPU
 * and Vulkan backends quantize the activations to 8 bits). */
static void
check_real(const struct rt_case *c, size_t n)
{
	char tb[16];
	size_t i;

	for (i = 0; i < n; i++) {
		const char *name = ggml_type_name(c[i].encoding, tb, sizeof tb);

		cr_expect_eq(c[i].state, RT_VERIFIED, "%s %s: %s (%s)",
		    rt_op_name(c[i].op), name, rt_state_name(c[i].state),
		    c[i].reason ? c[i].reason : "");
		cr_expect_leq(c[i].nmse, RT_TOLERANCE, "%s", name);
		if (c[i].op == RT_GET_ROWS)
			cr_expect_eq(c[i].nmse, 0.0, "get_rows %s: %g", name,
			    c[i].nmse);
		else if (c[i].encoding != GGML_TYPE_F32)
			cr_expect_gt(c[i].nmse, 0.0,
			    "mul_mat %s: exact? the "
			    "activations are quantized",
			    name);
	}
}

/* The real CPU backend: every encoding, both operations, then the cache
 * answers all of them again, fast. */
Test(runtime, cpu_backend_verifies_every_encoding, .timeout = 300)
{
	char *dir = llama_dir("cpu");
	struct rt_request rq = { dir, "CPU", false, 0, false };
	struct rt_info info, again;
	struct gl_error err;
	struct rt_case *c, *d;
	size_t n, i;
	double t0;

	TEST_SKIP_UNDER_VALGRIND();
	private_cache();
	c = runtime_cases_all(1024, &n);
	d = runtime_cases_all(1024, &n);
	cr_assert_gt(n, 30);
	t0 = now_s();
	cr_assert_eq(runtime_probe(&rq, c, n, &info, &err), 0, "%s", err.msg);
	cr_log_info("CPU: %zu cases in %.0f ms uncached", n,
	    (now_s() - t0) * 1e3);
	cr_expect_str_eq(info.device.name, "CPU");
	cr_expect_str_eq(info.version, "0.25.1");
	cr_expect_eq(info.device.max_tensor, 0, "the CPU claims any size");
	check_real(c, n);
	cr_assert_eq(runtime_probe(&rq, d, n, &again, &err), 0);
	cr_expect_eq(again.n_cached, n);
	cr_expect_lt(again.probe_ms, 50.0, "cached: %.2f ms", again.probe_ms);
	for (i = 0; i < n; i++) {
		cr_expect_eq(d[i].state, c[i].state);
		cr_expect_eq(d[i].nmse, c[i].nmse, "the cache keeps every bit");
	}
	runtime_cases_free(c, n);
	runtime_cases_free(d, n);
	free(c);
	free(d);
	runtime_info_free(&info);
	runtime_info_free(&again);
	free(dir);
}

/*
 * The Vulkan backend on Mesa's llvmpipe (GGML_VK_VISIBLE_DEVICES=0): its
 * shaders compile on first use, about 10 s per encoding on a shared
 * machine (the grid i-quants: minutes each, see the next test), so a
 * subset: f16, Q4_0, Q4_K and IQ4_XS multiplied (a batch of 512: the
 * matrix-matrix shaders), Q4_K read out; each verified, with the NMSE of
 * 8-bit activations.
 * (IQ4_XS on random valid blocks rather than quantized values gives an
 * NMSE of 1.4e-3 there: the probe quantizes with the runtime's quantizer
 * where it has one, as real weights are made.)
 */
Test(runtime, vulkan_backend_on_llvmpipe, .timeout = 600)
{
	static const uint32_t mm[] = { GGML_TYPE_F16, GGML_TYPE_Q4_0,
		GGML_TYPE_Q4_K, GGML_TYPE_IQ4_XS };
	static const uint32_t gr[] = { GGML_TYPE_Q4_K };
	char *dir = llama_dir("vulkan");
	struct rt_request rq = { dir, "Vulkan0", true, 0, false };
	struct rt_case c[sizeof mm / sizeof mm[0] + sizeof gr / sizeof gr[0]];
	size_t n = 0, i;
	struct rt_info info;
	struct gl_error err;
	double t0;

	TEST_SKIP_UNDER_VALGRIND();
	setenv("GGML_VK_VISIBLE_DEVICES", "0", 1);
	private_cache();
	memset(c, 0, sizeof c);
	for (i = 0; i < sizeof mm / sizeof mm[0]; i++, n++) {
		c[n].op = RT_MUL_MAT;
		c[n].encoding = mm[i];
		c[n].row = 4096;
	}
	for (i = 0; i < sizeof gr / sizeof gr[0]; i++, n++) {
		c[n].op = RT_GET_ROWS;
		c[n].encoding = gr[i];
		c[n].row = 4096;
	}
	t0 = now_s();
	cr_assert_eq(runtime_probe(&rq, c, n, &info, &err), 0, "%s", err.msg);
	cr_log_info("Vulkan: %zu cases in %.0f ms uncached", n,
	    (now_s() - t0) * 1e3);
	for (i = 0; i < n; i++)
		cr_log_info("vulkan %s %u: %s %g", rt_op_name(c[i].op),
		    c[i].encoding, rt_state_name(c[i].state), c[i].nmse);
	cr_expect_str_eq(info.device.name, "Vulkan0");
	cr_expect(strstr(info.device.description, "llvmpipe") != NULL, "%s",
	    info.device.description);
	/* llvmpipe's maxStorageBufferRange, 2^27, and no 64-bit indexing:
	 * ggml-vulkan claims no larger tensor */
	cr_expect_eq(info.device.max_tensor, (uint64_t)1 << 27, "%llu",
	    (unsigned long long)info.device.max_tensor);
	check_real(c, n);
	runtime_cases_free(c, n);
	runtime_info_free(&info);
	free(dir);
}

/*
 * IQ2_XS on llvmpipe is slow, not hung: its matrix-matrix shader compiles
 * at its first dispatch for minutes (about 40 s of one core's time;
 * doc/kernels.md has the figures), then runs in under a second. With an
 * empty Mesa shader cache and a 10 s limit the case must come out busy
 * computing, never idle nor dead (or verified, on a machine fast enough).
 */
Test(runtime, vulkan_iq2_xs_is_slow_not_hung, .timeout = 120)
{
	static const char busy[] = "slow or hung: still computing on Vulkan0, "
				   "the child busy (";
	char *dir = llama_dir("vulkan");
	struct rt_request rq = { dir, "Vulkan0", true, 10, false };
	char mesa[] = "/tmp/gguflint-mesa-XXXXXX";
	struct rt_case c;
	struct rt_info info;
	struct gl_error err;

	TEST_SKIP_UNDER_VALGRIND();
	setenv("GGML_VK_VISIBLE_DEVICES", "0", 1);
	cr_assert(mkdtemp(mesa) != NULL);
	setenv("MESA_SHADER_CACHE_DIR", mesa, 1);
	private_cache();
	memset(&c, 0, sizeof c);
	c.op = RT_MUL_MAT;
	c.encoding = GGML_TYPE_IQ2_XS;
	c.row = 4096;
	cr_assert_eq(runtime_probe(&rq, &c, 1, &info, &err), 0, "%s", err.msg);
	cr_log_info("vulkan iq2_xs: %s %g %s", rt_state_name(c.state), c.nmse,
	    c.reason ? c.reason : "");
	if (c.state == RT_VERIFIED)
		cr_expect_leq(c.nmse, RT_TOLERANCE);
	else {
		cr_expect_eq(c.state, RT_UNSAFE);
		cr_expect(c.reason != NULL &&
			strncmp(c.reason, busy, sizeof busy - 1) == 0 &&
			strstr(c.reason, "(no answer in 10 s") != NULL,
		    "%s", c.reason ? c.reason : "");
		cr_expect_eq(c.late_s, 10);
	}
	runtime_cases_free(&c, 1);
	runtime_info_free(&info);
	unsetenv("MESA_SHADER_CACHE_DIR");
	free(dir);
}

/*
 * Every encoding on the Vulkan backend (llvmpipe), both operations, at
 * the row length --list-kernels probes: opt-in (make check-vulkan sets
 * GGUFLINT_VULKAN_ALL, and GALLIVM_PERF=nopt: six minutes on 2 cores),
 * because llvmpipe compiles each shader at its first dispatch and the
 * grid i-quants' take a minute or more (doc/kernels.md's table).
 * Each case is verified within the tolerance or a fallback the device
 * does not claim; none is unsafe. Mesa's own shader cache
 * (MESA_SHADER_CACHE_DIR) is left as the caller has it.
 */
Test(runtime, vulkan_backend_every_encoding, .timeout = 7200)
{
	struct rt_request rq = { NULL, "Vulkan0", true, 1800, false };
	struct rt_info info;
	struct gl_error err;
	struct rt_case *c;
	size_t n, i, verified = 0;
	char tb[16];
	double t0;

	if (getenv("GGUFLINT_VULKAN_ALL") == NULL)
		cr_skip_test("every encoding on Vulkan: minutes a grid "
			     "i-quant on llvmpipe; make check-vulkan runs it");
	TEST_SKIP_UNDER_VALGRIND();
	rq.dir = llama_dir("vulkan");
	setenv("GGML_VK_VISIBLE_DEVICES", "0", 1);
	private_cache();
	c = runtime_cases_all(RT_ROW_DEFAULT, &n);
	cr_assert_gt(n, 30);
	t0 = now_s();
	cr_assert_eq(runtime_probe(&rq, c, n, &info, &err), 0, "%s", err.msg);
	cr_log_info("Vulkan: %zu cases in %.0f s", n, now_s() - t0);
	for (i = 0; i < n; i++) {
		const char *name = ggml_type_name(c[i].encoding, tb, sizeof tb);

		cr_log_info("vulkan %s %s: %s %g", rt_op_name(c[i].op), name,
		    rt_state_name(c[i].state), c[i].nmse);
		cr_expect_neq(c[i].state, RT_UNSAFE, "%s %s: %s",
		    rt_op_name(c[i].op), name, c[i].reason ? c[i].reason : "");
		if (c[i].state == RT_VERIFIED) {
			verified++;
			cr_expect_leq(c[i].nmse, RT_TOLERANCE, "%s", name);
		}
	}
	cr_expect_gt(verified, n / 2, "%zu of %zu verified", verified, n);
	runtime_cases_free(c, n);
	runtime_info_free(&info);
	free((char *)rq.dir);
}

/*
 * A real device that claims what it computes wrong: llvmpipe made to
 * vectorize 4 lanes wide (LP_NATIVE_VECTOR_WIDTH=128, a documented Mesa
 * setting) runs ggml-vulkan's matrix products and returns wrong numbers
 * (Debian 12's Mesa 22.3.6: NMSE 2e5 for Q4_K, infinite for F32), while
 * its get_rows stays right. The probe must say unsafe, with the error,
 * and go on. Opt-in with the every-encoding test (half a minute of
 * shader compiling, with make check-vulkan's GALLIVM_PERF=nopt).
 */
Test(runtime, vulkan_narrow_vectors_are_unsafe, .timeout = 900)
{
	static const char wrong[] = "wrong numbers: NMSE ";
	struct rt_request rq = { NULL, "Vulkan0", true, 600, false };
	char mesa[] = "/tmp/gguflint-mesa-XXXXXX";
	struct rt_case c[2];
	struct rt_info info;
	struct gl_error err;

	if (getenv("GGUFLINT_VULKAN_ALL") == NULL)
		cr_skip_test("llvmpipe's narrow vectors: half a minute of "
			     "compiling; make check-vulkan runs it");
	TEST_SKIP_UNDER_VALGRIND();
	rq.dir = llama_dir("vulkan");
	setenv("GGML_VK_VISIBLE_DEVICES", "0", 1);
	setenv("LP_NATIVE_VECTOR_WIDTH", "128", 1);
	cr_assert(mkdtemp(mesa) != NULL);
	setenv("MESA_SHADER_CACHE_DIR", mesa, 1); /* not the wide code */
	private_cache();
	memset(c, 0, sizeof c);
	c[0].op = RT_MUL_MAT;
	c[0].encoding = GGML_TYPE_Q4_K;
	c[1].op = RT_GET_ROWS;
	c[1].encoding = GGML_TYPE_Q4_K;
	c[0].row = c[1].row = 4096;
	cr_assert_eq(runtime_probe(&rq, c, 2, &info, &err), 0, "%s", err.msg);
	cr_log_info("narrow llvmpipe q4_K: mul_mat %s (%s), get_rows %s %g",
	    rt_state_name(c[0].state), c[0].reason ? c[0].reason : "",
	    rt_state_name(c[1].state), c[1].nmse);
	cr_expect_eq(c[0].state, RT_UNSAFE,
	    "mul_mat q4_K on llvmpipe 4 lanes wide: %s, NMSE %g (has Mesa "
	    "fixed it? Debian 12's computes wrong numbers)",
	    rt_state_name(c[0].state), c[0].nmse);
	cr_expect(c[0].reason != NULL &&
		strncmp(c[0].reason, wrong, sizeof wrong - 1) == 0,
	    "%s", c[0].reason ? c[0].reason : "(no reason)");
	cr_expect(c[0].nmse < 0 || c[0].nmse > RT_TOLERANCE, "%g", c[0].nmse);
	cr_expect_eq(c[1].state, RT_VERIFIED, "get_rows: %s",
	    c[1].reason ? c[1].reason : "");
	runtime_cases_free(c, 2);
	runtime_info_free(&info);
	free((char *)rq.dir);
}

/* A model with a Q8_0 embedding and a Q4_0 matrix, in a temporary file. */
static char *
small_model(void)
{
	static const int64_t ne[] = { 256, 16 };
	struct ggufw_model m;
	struct strbuf sb = STRBUF_INIT;
	char *path;

	ggufw_model_init(&m, false, 32);
	ggufw_model_kv_str(&m, "general.architecture", "llama");
	ggufw_model_kv_u32(&m, "llama.block_count", 1);
	ggufw_model_kv_u32(&m, "llama.embedding_length", 256);
	ggufw_model_kv_u32(&m, "llama.context_length", 64);
	ggufw_model_kv_u32(&m, "llama.attention.head_count", 1);
	ggufw_model_tensor(&m, "token_embd.weight", 2, ne, GGUFW_GGML_Q8_0, 32,
	    34);
	ggufw_model_tensor(&m, "blk.0.attn_q.weight", 2, ne, GGUFW_GGML_Q4_0,
	    32, 18);
	ggufw_model_finish(&m, &sb, GGUFW_DATA_ZERO);
	path = test_tmpfile(sb.buf, sb.len);
	strbuf_free(&sb);
	ggufw_model_free(&m);
	return path;
}

/* How many findings of code the JSON report r has (every file's); *msg,
 * unless msg is NULL, the first one's message and note (static). */
static size_t
count_code(const struct test_run *r, const char *code, const char **msg)
{
	static char keep[1024];
	struct jsonnode *root;
	const struct jsonnode *files, *ds, *d;
	char *err = NULL;
	size_t i, j, n = 0;

	root = jsontree_parse(r->out, r->out_len, &err);
	cr_assert(root != NULL, "%s: %s", err, r->out);
	files = jsontree_pointer(root, "/files");
	cr_assert(files != NULL, "%s", r->out);
	for (j = 0; j < files->n; j++) {
		ds = jsontree_get(jsontree_at(files, j), "diagnostics");
		for (i = 0; ds != NULL && i < ds->n; i++) {
			d = jsontree_at(ds, i);
			if (strcmp(jsontree_str(jsontree_get(d, "code")), code))
				continue;
			if (msg != NULL && n == 0) {
				const char *note;

				note = jsontree_str(jsontree_get(d, "note"));
				snprintf(keep, sizeof keep, "%s\n%s",
				    jsontree_str(jsontree_get(d, "message")),
				    note != NULL ? note : "");
				*msg = keep;
			}
			n++;
		}
	}
	jsontree_free(root);
	return n;
}

/* A model linted on a runtime: K002 names the device, the description and
 * the runtime's version; K003 for what the device does not claim; a
 * runtime that does not load is exit 2. */
Test(runtime, model_findings_k002_k003)
{
	char *path = small_model(), *wrong = fake_dir("wrong");
	char *refuse = fake_dir("refuse");
	const char *argv[] = { "--no-config", "-f", "json", "--select=K",
		"--runtime", wrong, path, NULL };
	const char *msg = NULL;
	struct test_run r;

	private_cache();
	test_run_bin(&r, argv, NULL, 0);
	cr_expect_eq(r.status, 1, "%s", r.err);
	cr_expect_eq(count_code(&r, "K002", &msg), 2, "%s", r.out);
	cr_expect(msg && strstr(msg, "Fake0") &&
		strstr(msg,
		    "fake ggml, a "
		    "test double") &&
		strstr(msg, "0.0.0-fake"),
	    "%s", msg);
	test_run_free(&r);
	argv[5] = refuse;
	test_run_bin(&r, argv, NULL, 0);
	cr_expect_eq(r.status, 0, "%s", r.err);
	cr_expect_eq(count_code(&r, "K003", NULL), 2, "%s", r.out);
	cr_expect_eq(count_code(&r, "K002", NULL), 0, "%s", r.out);
	test_run_free(&r);
	argv[5] = "/nonexistent";
	test_run_bin(&r, argv, NULL, 0);
	cr_expect_eq(r.status, 2);
	cr_expect(strstr(r.err, "no libggml-base") != NULL, "%s", r.err);
	test_run_free(&r);
	unlink(path);
	free(path);
	free(wrong);
	free(refuse);
}

/* mul_mat_id (stacked experts, two per token) on the real CPU backend. */
Test(runtime, cpu_backend_mul_mat_id, .timeout = 120)
{
	static const uint32_t enc[] = { GGML_TYPE_F16, GGML_TYPE_Q4_0,
		GGML_TYPE_Q4_K, GGML_TYPE_MXFP4 };
	char *dir = llama_dir("cpu");
	struct rt_request rq = { dir, "CPU", true, 0, false };
	struct rt_case c[sizeof enc / sizeof enc[0]];
	struct rt_info info;
	struct gl_error err;
	size_t i, n = sizeof enc / sizeof enc[0];

	private_cache();
	memset(c, 0, sizeof c);
	for (i = 0; i < n; i++) {
		c[i].op = RT_MUL_MAT_ID;
		c[i].encoding = enc[i];
		c[i].row = 512;
	}
	cr_assert_eq(runtime_probe(&rq, c, n, &info, &err), 0, "%s", err.msg);
	check_real(c, n);
	runtime_cases_free(c, n);
	runtime_info_free(&info);
	free(dir);
}

/* Point the runtime_dir of the table at path to a folder that is not. */
static void
move_runtime_dir(const char *path)
{
	char buf[65536], *at;
	size_t n;
	FILE *fp = fopen(path, "r");

	cr_assert(fp != NULL);
	n = fread(buf, 1, sizeof buf - 1, fp);
	fclose(fp);
	buf[n] = '\0';
	at = strstr(buf, "runtime_dir: \"");
	cr_assert(at != NULL, "%s", buf);
	memcpy(at, "runtime_dir: \"/", 15); /* "/tmp/..." becomes "//..." */
	at[15] = 'X';
	cr_assert((fp = fopen(path, "w")) != NULL);
	fwrite(buf, 1, n, fp);
	cr_assert_eq(fclose(fp), 0);
}

/*
 * --write-kernels: the probed table as YAML that loads back as a table,
 * with its provenance and states; a profile using it, with no runtime,
 * reports K005 ("recorded on").
 */
Test(runtime, write_kernels_loads_back_and_is_labelled)
{
	char *refuse = fake_dir("refuse"), *model = small_model();
	char *yaml = xasprintf("%s.kernels.yaml", model);
	char *prof = xasprintf("%s.profile.yaml", model);
	const char *wr[] = { "--list-kernels", "--no-cache", "--runtime",
		refuse, "--write-kernels", yaml, NULL };
	const char *lint[] = { "--no-config", "-f", "json", "-p", prof, model,
		NULL };
	const char *msg = NULL;
	struct captable t;
	struct gl_error err;
	struct test_run r;
	FILE *fp;
	size_t i;

	private_cache();
	test_run_bin(&r, wr, NULL, 0);
	cr_assert_eq(r.status, 0, "%s", r.err);
	test_run_free(&r);
	cr_assert_eq(captable_load(yaml, &t, &err), 0, "%s", err.msg);
	cr_expect(t.recorded);
	cr_expect_str_eq(t.prov.device, "Fake0");
	cr_expect_str_eq(t.prov.version, "0.0.0-fake");
	cr_expect_str_eq(t.prov.description, "fake ggml, a test double");
	cr_expect(t.prov.date != NULL && strlen(t.prov.date) == 20);
	cr_assert_gt(t.n, 2);
	for (i = 0; i < t.n; i++) { /* the double knows three */
		uint32_t e = t.entries[i].encoding;

		cr_expect_eq(t.entries[i].state,
		    e == GGML_TYPE_F32 || e == GGML_TYPE_Q4_0 ||
			    e == GGML_TYPE_Q8_0 ?
			CAP_RT_FALLBACK :
			CAP_RT_UNSAFE,
		    "entry %zu", i);
	}
	captable_free(&t);
	cr_assert((fp = fopen(prof, "w")) != NULL);
	fprintf(fp,
	    "name: recorded\ndescription: a recorded table\n"
	    "memory: 8 GiB\nreserve: 1 GiB\nweights: mapped\nkernels: %s\n",
	    yaml);
	cr_assert_eq(fclose(fp), 0);
	/* where the table's runtime is: probed, not labelled */
	test_run_bin(&r, lint, NULL, 0);
	cr_expect_eq(count_code(&r, "K005", NULL), 0, "%s", r.out);
	cr_expect_eq(count_code(&r, "K003", NULL), 2, "%s", r.out);
	test_run_free(&r);
	/* elsewhere: used as recorded, and labelled */
	move_runtime_dir(yaml);
	test_run_bin(&r, lint, NULL, 0);
	cr_expect_eq(count_code(&r, "K003", NULL), 0, "%s", r.out);
	cr_expect_eq(count_code(&r, "K005", &msg), 1, "%s %s", r.out, r.err);
	cr_expect(msg && strstr(msg, "recorded on Fake0"), "%s", msg);
	test_run_free(&r);
	unlink(yaml);
	unlink(prof);
	unlink(model);
	free(yaml);
	free(prof);
	free(model);
	free(refuse);
}

/* Two layers of a Q8_0 and a Q4_0 matrix, a Q4_0 embedding and output
 * (of out_rows rows; the others have 16). */
static char *
layered_model_out(int64_t out_rows)
{
	static const int64_t ne[] = { 256, 16 };
	const int64_t wide[] = { 256, out_rows };
	static const char *const names[] = { "token_embd.weight",
		"blk.0.attn_q.weight", "blk.0.attn_k.weight",
		"blk.1.attn_q.weight", "blk.1.attn_k.weight", "output.weight" };
	struct ggufw_model m;
	struct strbuf sb = STRBUF_INIT;
	char *path;
	size_t i;

	ggufw_model_init(&m, false, 32);
	ggufw_model_kv_str(&m, "general.architecture", "llama");
	ggufw_model_kv_u32(&m, "llama.block_count", 2);
	ggufw_model_kv_u32(&m, "llama.embedding_length", 256);
	ggufw_model_kv_u32(&m, "llama.context_length", 64);
	ggufw_model_kv_u32(&m, "llama.attention.head_count", 1);
	for (i = 0; i < 6; i++) {
		bool q8 = strstr(names[i], "attn_q") != NULL;

		ggufw_model_tensor(&m, names[i], 2, i == 5 ? wide : ne,
		    q8 ? GGUFW_GGML_Q8_0 : GGUFW_GGML_Q4_0, 32, q8 ? 34 : 18);
	}
	ggufw_model_finish(&m, &sb, GGUFW_DATA_ZERO);
	path = test_tmpfile(sb.buf, sb.len);
	strbuf_free(&sb);
	ggufw_model_free(&m);
	return path;
}

static char *
layered_model(void)
{
	return layered_model_out(16);
}

/* The llama.cpp plan of the JSON report r: one member's integer. */
static int64_t
plan_int(const struct jsonnode *root, const char *member)
{
	char *ptr = xasprintf("/files/0/plan/%s", member);
	int64_t v = -1;

	cr_assert(jsontree_int64(jsontree_pointer(root, ptr), &v), "%s", ptr);
	free(ptr);
	return v;
}

/* gguflint --plan of path on gpu_8gb without mmap (a runtime: dir, or
 * none), parsed. */
static struct jsonnode *
gpu_plan(const char *path, const char *dir, struct test_run *r)
{
	const char *argv[] = { "--no-config", "-f", "json", "--plan", "-p",
		"gpu_8gb", "--no-mmap", path, "--runtime", dir, NULL };
	struct jsonnode *root;
	char *err = NULL;

	if (dir == NULL)
		argv[8] = NULL;
	test_run_bin(r, argv, NULL, 0);
	cr_assert(r->status == 0 || r->status == 1, "%s", r->err);
	root = jsontree_parse(r->out, r->out_len, &err);
	cr_assert(root != NULL, "%s: %s", err, r->out);
	return root;
}

/*
 * The probe's K003 moves bytes in the plan: on a GPU that does not claim
 * Q8_0, the offloaded layers' Q8_0 matrices (2 x 4352 bytes) stay in host
 * memory; where it does not claim Q4_0, the offloaded Q4_0 matrices and
 * the output (3 x 2304) go to CPU_REPACK (gpu_8gb's CPU has AVX2). The
 * plan says so (JSON "fallback", a table line); without a runtime nothing
 * moves and there is no "fallback" member. On gpu_8gb's CUDA device a
 * matrix takes ggml-cuda's alloc size: its rows of 256 padded by one
 * half row of 512 (Q8_0 +272, Q4_0 +144 bytes), aligned to 128 (CUDA_Q8
 * and CUDA_Q4 below).
 */
#define CUDA_Q8 4736
#define CUDA_Q4 2560
Test(runtime, fallback_bytes_stay_on_the_host)
{
	char *path = layered_model(), *noq8 = fake_dir("noq8");
	char *noq4 = fake_dir("noq4");
	const char *text[] = { "--no-config", "--plan", "-p", "gpu_8gb",
		"--color", "never", path, "--runtime", noq8, NULL };
	struct jsonnode *root;
	struct test_run r;

	private_cache();
	root = gpu_plan(path, NULL, &r);
	cr_expect_eq(plan_int(root, "devices/1/model_bytes"),
	    2 * CUDA_Q8 + 3 * CUDA_Q4);
	cr_expect_eq(plan_int(root, "devices/0/model_bytes"), 2304);
	cr_expect(jsontree_pointer(root, "/files/0/plan/fallback") == NULL);
	jsontree_free(root);
	test_run_free(&r);
	root = gpu_plan(path, noq8, &r);
	cr_expect_eq(plan_int(root, "fallback/tensors"), 2, "%s", r.out);
	cr_expect_eq(plan_int(root, "fallback/bytes"), 8704);
	cr_expect_str_eq(jsontree_str(jsontree_pointer(root,
			     "/files/0/plan/fallback/device")),
	    "Fake0");
	cr_expect_eq(plan_int(root, "devices/1/model_bytes"), 3 * CUDA_Q4);
	cr_expect_eq(plan_int(root, "devices/0/model_bytes"), 2304 + 8704);
	cr_expect_eq(plan_int(root, "devices/0/repack_bytes"), 0);
	jsontree_free(root);
	test_run_free(&r);
	root = gpu_plan(path, noq4, &r);
	cr_expect_eq(plan_int(root, "fallback/tensors"), 3, "%s", r.out);
	cr_expect_eq(plan_int(root, "devices/1/model_bytes"), 2 * CUDA_Q8);
	cr_expect_eq(plan_int(root, "devices/0/repack_bytes"), 6912);
	cr_expect_eq(plan_int(root, "repacked_tensors"), 3);
	jsontree_free(root);
	test_run_free(&r);
	test_run_bin(&r, text, NULL, 0);
	cr_expect(strstr(r.out, "fallback  not claimed by Fake0") != NULL &&
		strstr(r.out, "2 tensors -ngl would offload (K003)") != NULL,
	    "%s", r.out);
	test_run_free(&r);
	unlink(path);
	free(path);
	free(noq8);
	free(noq4);
}

/*
 * A weight beyond the largest tensor the device claims stays on the host
 * (K006): the double claims no tensor beyond 5000002 bytes, and llama.cpp
 * asks for the output's product over 512 tokens, 4096 rows of f32 each
 * (8 MiB): the output (4096 x 256 Q4_0, 589824 bytes) goes to CPU_REPACK
 * (gpu_8gb's CPU has AVX2), the layers' matrices (2 x 2304 + 2 x 4352
 * bytes, 512 KiB tests, each padded as CUDA's above) stay on the
 * device.
 */
Test(runtime, a_weight_beyond_the_device_limit_stays_on_the_host)
{
	char *path = layered_model_out(4096), *lim = fake_dir("limit");
	const char *msg = NULL;
	const char *text[] = { "--no-config", "--plan", "-p", "gpu_8gb",
		"--color", "never", path, "--runtime", lim, NULL };
	struct jsonnode *root;
	struct test_run r;

	private_cache();
	root = gpu_plan(path, lim, &r);
	cr_expect_eq(plan_int(root, "fallback/tensors"), 1, "%s", r.out);
	cr_expect_eq(plan_int(root, "fallback/oversize_tensors"), 1);
	cr_expect_eq(plan_int(root, "fallback/max_tensor_bytes"), 5000000);
	cr_expect_eq(plan_int(root, "fallback/bytes"), 589824);
	cr_expect_eq(plan_int(root, "devices/1/model_bytes"),
	    2 * CUDA_Q4 + 2 * CUDA_Q8);
	cr_expect_eq(plan_int(root, "devices/0/repack_bytes"), 589824);
	cr_expect_eq(count_code(&r, "K006", &msg), 1, "%s", r.out);
	cr_expect(strstr(msg, "output.weight the largest") != NULL, "%s", msg);
	jsontree_free(root);
	test_run_free(&r);
	test_run_bin(&r, text, NULL, 0);
	cr_expect(strstr(r.out,
		      "1 tensor -ngl would offload (1 beyond its "
		      "4 MiB: K006)") != NULL,
	    "%s", r.out);
	cr_expect(strstr(r.out,
		      "device Fake0 claims no tensor beyond 4 MiB: 1 "
		      "weight (576 KiB) would stay on the host, "
		      "output.weight the largest (its claim test has a "
		      "tensor of 8 MiB)") != NULL,
	    "%s", r.out);
	test_run_free(&r);
	unlink(path);
	free(path);
	free(lim);
}

/* One shard of a two-file model: the metadata and the split keys, and one
 * tensor (shard 0: a Q8_0 embedding; shard 1: a Q4_0 matrix). */
static void
write_shard(const char *dir, unsigned k)
{
	static const int64_t ne[] = { 256, 16 };
	struct ggufw_model m;
	struct strbuf sb = STRBUF_INIT;
	char *path = xasprintf("%s/m-%05u-of-00002.gguf", dir, k + 1);

	ggufw_model_init(&m, false, 32);
	if (k == 0) {
		ggufw_model_kv_str(&m, "general.architecture", "llama");
		ggufw_model_kv_u32(&m, "llama.block_count", 1);
		ggufw_model_kv_u32(&m, "llama.embedding_length", 256);
		ggufw_model_kv_u32(&m, "llama.context_length", 64);
		ggufw_model_kv_u32(&m, "llama.attention.head_count", 1);
	}
	ggufw_model_kv_u16(&m, "split.no", (uint16_t)k);
	ggufw_model_kv_u16(&m, "split.count", 2);
	ggufw_model_kv_i32(&m, "split.tensors.count", 2);
	if (k == 0)
		ggufw_model_tensor(&m, "token_embd.weight", 2, ne,
		    GGUFW_GGML_Q8_0, 32, 34);
	else
		ggufw_model_tensor(&m, "blk.0.attn_q.weight", 2, ne,
		    GGUFW_GGML_Q4_0, 32, 18);
	ggufw_model_finish(&m, &sb, GGUFW_DATA_ZERO);
	cr_assert(ggufw_write_file(path, sb.buf, sb.len) == 0, "%s", path);
	strbuf_free(&sb);
	ggufw_model_free(&m);
	free(path);
}

/* A split model: its pairs are probed over the whole model (both
 * shards' tensors), and the findings come out once each. */
Test(runtime, split_model_is_probed_whole)
{
	char dir[] = "/tmp/gguflint-split-XXXXXX";
	char *wrong = fake_dir("wrong");
	const char *argv[] = { "--no-config", "-f", "json", "--select=K",
		"--runtime", wrong, dir, NULL };
	struct test_run r;
	char *p0, *p1;

	private_cache();
	cr_assert(mkdtemp(dir) != NULL);
	write_shard(dir, 0);
	write_shard(dir, 1);
	test_run_bin(&r, argv, NULL, 0);
	cr_expect_eq(r.status, 1, "%s", r.err);
	cr_expect_eq(count_code(&r, "K002", NULL), 2, "%s", r.out);
	test_run_free(&r);
	p0 = xasprintf("%s/m-00001-of-00002.gguf", dir);
	p1 = xasprintf("%s/m-00002-of-00002.gguf", dir);
	unlink(p0);
	unlink(p1);
	rmdir(dir);
	free(p0);
	free(p1);
	free(wrong);
}

/* A profile's runtime_dir is probed as --runtime is: the double that
 * returns wrong numbers gives K002 without any option naming it. */
Test(runtime, profile_runtime_dir_is_probed)
{
	char *path = small_model(), *wrong = fake_dir("wrong");
	char *prof = test_tmpfile("", 0);
	const char *argv[] = { "--no-config", "-f", "json", "--select=K", "-p",
		prof, path, NULL };
	struct test_run r;
	FILE *fp;

	private_cache();
	cr_assert((fp = fopen(prof, "w")) != NULL);
	fprintf(fp,
	    "name: withruntime\ndescription: a profile naming its "
	    "runtime\nmemory: 8 GiB\nreserve: 1 GiB\nweights: mapped\n"
	    "runtime_dir: %s\n",
	    wrong);
	cr_assert_eq(fclose(fp), 0);
	test_run_bin(&r, argv, NULL, 0);
	cr_expect_eq(r.status, 1, "%s", r.err);
	cr_expect_eq(count_code(&r, "K002", NULL), 2, "%s", r.out);
	test_run_free(&r);
	unlink(prof);
	unlink(path);
	free(prof);
	free(path);
	free(wrong);
}

/* ---- the runtime's libllama asked for a vocabulary load ---------------- */

/* The tiny llama as a vocabulary (no tensor) of architecture arch, a BPE
 * vocabulary of model tok whose pre-tokenizer is pre. */
static char *
vocab_file(const char *arch, const char *tok, const char *pre)
{
	static const char *const merges[] = { "t 1" };
	struct ggufw_model m;
	struct strbuf sb = STRBUF_INIT;
	struct tiny t;
	char *path;

	tiny_init(&t);
	t.arch = arch;
	t.no_tensors = true;
	t.tok_model = tok;
	t.str_key = "tokenizer.ggml.pre";
	t.str_val = pre;
	t.str_len = strlen(pre);
	tiny_model(&t, &m);
	ggufw_model_kv_arr_str(&m, "tokenizer.ggml.merges", merges, 1);
	ggufw_model_finish(&m, &sb, GGUFW_DATA_NONE);
	ggufw_model_free(&m);
	path = test_tmpfile(sb.buf, sb.len);
	strbuf_free(&sb);
	return path;
}

/* Lint the file at path with the runtime dir, as JSON, into r; with
 * lora, that file given with --lora (path is then the main model). */
static void
lint_with(struct test_run *r, const char *dir, const char *path,
    const char *lora)
{
	const char *argv[] = { "--no-config", "-f", "json", "--runtime", dir,
		path, lora ? "--lora" : NULL, lora, NULL };

	private_cache();
	test_run_bin(r, argv, NULL, 0);
}

static void
lint_on(struct test_run *r, const char *dir, const char *path)
{
	lint_with(r, dir, path, NULL);
}

/* An unknown architecture and an unknown pre-tokenizer: M019 quotes the
 * real loader's refusal; a vocabulary llama.cpp cannot read is M021 with
 * its text; a good vocabulary has neither, and no note. A projector (clip)
 * is not loaded as a model when it is linted alone (neither M022 nor
 * M021), but is as the main model of companions: M022 quotes the
 * refusal. */
Test(runtime, llama_vocab_load_refusals, .timeout = 120)
{
	char *dir = llama_dir("cpu");
	char *zw = vocab_file("llama\xe2\x80\x8b", "gpt2", "llama3");
	char *pre = vocab_file("llama", "gpt2", "qwen9");
	char *tok = vocab_file("llama", "gpt9", "llama3");
	char *good = vocab_file("llama", "gpt2", "llama3");
	char *clip = vocab_file("clip", "gpt2", "llama3");
	const char *msg = NULL;
	struct test_run r;

	lint_on(&r, dir, zw);
	cr_expect_eq(r.status, 1, "%s", r.err);
	cr_expect_eq(count_code(&r, "M019", &msg), 1, "%s", r.out);
	cr_expect(msg && strstr(msg, "the runtime's llama.cpp 0.5.0") &&
		strstr(msg, "unknown model architecture: 'llama<U+200B>'"),
	    "%s", msg);
	cr_expect_eq(count_code(&r, "M021", NULL), 0, "%s", r.out);
	test_run_free(&r);
	lint_on(&r, dir, pre);
	cr_expect_eq(count_code(&r, "M019", &msg), 1, "%s", r.out);
	cr_expect(msg && strstr(msg, "says: ") &&
		strstr(msg, "unknown pre-tokenizer type: 'qwen9'"),
	    "%s", msg);
	cr_expect_eq(count_code(&r, "M021", NULL), 0, "%s", r.out);
	test_run_free(&r);
	lint_on(&r, dir, tok);
	cr_expect_eq(r.status, 1, "%s", r.err);
	cr_expect_eq(count_code(&r, "M021", &msg), 1, "%s", r.out);
	cr_expect(msg && strstr(msg, "unknown tokenizer: 'gpt9'"), "%s", msg);
	test_run_free(&r);
	lint_on(&r, dir, clip);
	cr_expect_eq(count_code(&r, "M022", NULL), 0, "%s", r.out);
	cr_expect_eq(count_code(&r, "M021", NULL), 0, "%s", r.out);
	test_run_free(&r);
	lint_with(&r, dir, clip, good);
	cr_expect_eq(count_code(&r, "M022", &msg), 1, "%s", r.out);
	cr_expect(msg && strstr(msg, "says: ") &&
		strstr(msg, "CLIP cannot be used as main model"),
	    "%s", msg);
	cr_expect_eq(count_code(&r, "M021", NULL), 0, "%s", r.out);
	test_run_free(&r);
	lint_on(&r, dir, good);
	cr_expect_eq(count_code(&r, "M019", NULL), 0, "%s", r.out);
	cr_expect_eq(count_code(&r, "M021", NULL), 0, "%s", r.out);
	cr_expect(strstr(r.err, "note:") == NULL, "%s", r.err);
	test_run_free(&r);
	unlink(zw);
	unlink(pre);
	unlink(tok);
	unlink(good);
	unlink(clip);
	free(clip);
	free(zw);
	free(pre);
	free(tok);
	free(good);
	free(dir);
}

/* The file at path read whole into *n bytes (the caller frees it). */
static unsigned char *
slurp(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	unsigned char *b;
	long len;

	cr_assert(f != NULL && fseek(f, 0, SEEK_END) == 0 &&
	    (len = ftell(f)) > 0 && fseek(f, 0, SEEK_SET) == 0);
	b = xmalloc((size_t)len);
	cr_assert(fread(b, 1, (size_t)len, f) == (size_t)len);
	fclose(f);
	*n = (size_t)len;
	return b;
}

/* Lint path with --plan --measure on dir's llama.cpp, as JSON. */
static void
measure_on(struct test_run *r, const char *dir, const char *path)
{
	const char *argv[] = { "--no-config", "-f", "json", "--plan",
		"--runtime", dir, "--measure", path, NULL };

	private_cache();
	test_run_bin(r, argv, NULL, 0);
}

/*
 * --measure: the oracle's llama model is measured by llama.cpp (the plan
 * says by whom, and no P012). The same model with a wider
 * llama.embedding_length loads as a vocabulary (no M021) but not as a
 * model: P012 quotes llama.cpp's refusal. Without libllama in the
 * runtime's folder, or with a SKaiNET profile, --measure is a usage
 * error (exit 2).
 */
Test(runtime, measure_and_its_refusal, .timeout = 120)
{
	static const char key[] = "llama.embedding_length";
	char *dir = llama_dir("cpu"), *fake = fake_dir("refuse");
	char why[256], path[] = "/tmp/gguflint-measure-XXXXXX";
	const char *argv[] = { "--no-config", "--plan", "--runtime", fake,
		"--measure", path, NULL };
	const char *skainet[] = { "--no-config", "-p", "mobile_2gb",
		"--runtime", dir, "--measure", path, NULL };
	const char *msg = NULL;
	struct test_run r;
	unsigned char *b, *k;
	uint32_t v;
	size_t n;
	int fd = mkstemp(path);

	cr_assert(fd >= 0);
	close(fd);
	cr_assert(oraclegen_write("llama", "q4_0", path, why, sizeof why) == 0,
	    "%s", why);
	measure_on(&r, dir, path);
	cr_expect(strstr(r.out, "\"compute_measured_by\": \"llama.cpp 0.5.0") !=
		NULL,
	    "%s", r.out);
	cr_expect_eq(count_code(&r, "P012", NULL), 0, "%s", r.out);
	test_run_free(&r);
	b = slurp(path, &n);
	k = memmem(b, n, key, sizeof key - 1);
	cr_assert(k != NULL && (size_t)(k - b) + sizeof key + 7 <= n);
	memcpy(&v, k + sizeof key - 1 + 4, sizeof v); /* after its type */
	v += 64;
	fd = open(path, O_WRONLY);
	cr_assert(fd >= 0 &&
	    pwrite(fd, &v, sizeof v,
		(off_t)(k - b) + (off_t)sizeof key - 1 + 4) == sizeof v);
	close(fd);
	measure_on(&r, dir, path);
	cr_expect_eq(r.status, 1, "%s", r.err);
	cr_expect_eq(count_code(&r, "M021", NULL), 0, "%s", r.out);
	cr_expect_eq(count_code(&r, "P012", &msg), 1, "%s", r.out);
	cr_expect(msg && strstr(msg, "the runtime's llama.cpp 0.5.0") &&
		strstr(msg, "says: ") && strstr(msg, "error loading model"),
	    "%s", msg);
	test_run_free(&r);
	test_run_bin(&r, argv, NULL, 0);
	cr_expect_eq(r.status, 2, "%s", r.err);
	cr_expect(strstr(r.err, "--measure needs llama.cpp's libraries") &&
		strstr(r.err, "no libllama"),
	    "%s", r.err);
	test_run_free(&r);
	test_run_bin(&r, skainet, NULL, 0);
	cr_expect_eq(r.status, 2, "%s", r.err);
	cr_expect(strstr(r.err, "profile mobile_2gb describes SKaiNET"), "%s",
	    r.err);
	test_run_free(&r);
	unlink(path);
	free(b);
	free(fake);
	free(dir);
}

/* The compute bytes of r's JSON plan into *bytes, and whether the plan
 * says its measurement is the cache's. */
static bool
measured_cached(const struct test_run *r, int64_t *bytes)
{
	struct jsonnode *root = jsontree_parse(r->out, r->out_len, NULL);
	const struct jsonnode *c;
	bool cached;

	cr_assert(root != NULL, "%s", r->out);
	c = jsontree_pointer(root, "/files/0/plan/compute_measured_cached");
	cr_assert(c != NULL && c->type == JSONTREE_BOOL, "%s", r->out);
	cached = c->boolean;
	cr_assert(jsontree_int64(jsontree_pointer(root,
				     "/files/0/plan/compute_bytes"),
	    bytes));
	jsontree_free(root);
	return cached;
}

/* The cache's file of libllama's answers (one: a single model). */
static char *
llama_cache_file(void)
{
	char *pat = xasprintf("%s/gguflint/llama-*.txt",
		 getenv("XDG_CACHE_HOME")),
	     *f;
	glob_t g;

	cr_assert(glob(pat, 0, NULL, &g) == 0 && g.gl_pathc == 1,
	    "no cache file %s", pat);
	f = xstrdup(g.gl_pathv[0]);
	globfree(&g);
	free(pat);
	return f;
}

/* Whether the file at f holds text. */
static bool
file_has(const char *f, const char *text)
{
	size_t len;
	char *t = (char *)slurp(f, &len);
	bool has = memmem(t, len, text, strlen(text)) != NULL;

	free(t);
	return has;
}

/* The stored CPU compute buffer of the cache file at f made n bytes: the
 * first after the text job (NULL: the first). */
static void
edit_cached_bytes(const char *f, const char *job, int64_t n)
{
	size_t len;
	unsigned char *b = slurp(f, &len);
	char *t = xmalloc(len + 1), *c, *e;
	FILE *fp;

	memcpy(t, b, len);
	t[len] = '\0';
	free(b);
	c = job != NULL ? strstr(t, job) : t;
	cr_assert(c != NULL && (c = strstr(c, "\tC\tCPU ")) != NULL, "%s", t);
	c += sizeof "\tC\tCPU " - 1;
	e = strchr(c, '\n');
	cr_assert(e != NULL && (fp = fopen(f, "w")) != NULL);
	fprintf(fp, "%.*s%lld%s", (int)(c - t), t, (long long)n, e);
	cr_assert(fclose(fp) == 0);
	free(t);
}

/*
 * What the runtime's libllama says of a model (the vocabulary load, a
 * measurement) is cached: a second run takes the cache's answer (its
 * bytes, edited in the cache, are the plan's) and says so; --no-cache
 * asks llama.cpp again; a model changed is asked again.
 */
Test(runtime, llama_answers_are_cached, .timeout = 120)
{
	char *dir = llama_dir("cpu"), *f, why[256];
	char path[] = "/tmp/gguflint-lcache-XXXXXX";
	const char *argv[] = { "--no-config", "-f", "json", "--plan",
		"--runtime", dir, "--measure", path, NULL, NULL };
	struct test_run r;
	int64_t first, b;
	int fd = mkstemp(path);

	cr_assert(fd >= 0);
	close(fd);
	cr_assert(oraclegen_write("llama", "q4_0", path, why, sizeof why) == 0,
	    "%s", why);
	private_cache();
	sleep(3); /* the file settled: its times are stored */
	test_run_bin(&r, argv, NULL, 0);
	cr_expect(!measured_cached(&r, &first) && first > 0, "%s", r.out);
	test_run_free(&r);
	f = llama_cache_file();
	cr_expect(file_has(f, "\nJ\tvocab\tA\t\n"), "%s", f);
	test_run_bin(&r, argv, NULL, 0);
	cr_expect(measured_cached(&r, &b) && b == first, "%s", r.out);
	test_run_free(&r);
	edit_cached_bytes(f, NULL, first + 4096);
	test_run_bin(&r, argv, NULL, 0);
	cr_expect(measured_cached(&r, &b) && b == first + 4096, "%s", r.out);
	test_run_free(&r);
	argv[8] = "--no-cache";
	test_run_bin(&r, argv, NULL, 0);
	cr_expect(!measured_cached(&r, &b) && b == first, "%s", r.out);
	test_run_free(&r);
	argv[8] = NULL;
	test_run_bin(&r, argv, NULL, 0); /* --no-cache stored it again */
	cr_expect(measured_cached(&r, &b) && b == first, "%s", r.out);
	test_run_free(&r);
	edit_cached_bytes(f, NULL, first + 4096);
	cr_assert(oraclegen_write("llama", "q4_0", path, why, sizeof why) == 0,
	    "%s", why); /* the same bytes, written again */
	test_run_bin(&r, argv, NULL, 0);
	cr_expect(!measured_cached(&r, &b) && b == first, "%s", r.out);
	test_run_free(&r);
	unlink(f);
	unlink(path);
	free(f);
	free(dir);
}

/* The context of r's JSON suggestion "--ctx N (the largest context that
 * fits)", and whether it was measured; 0 when there is none. */
static int64_t
largest_ctx(const struct test_run *r, bool *measured)
{
	struct jsonnode *root = jsontree_parse(r->out, r->out_len, NULL);
	const struct jsonnode *ss, *s;
	int64_t ctx = 0;
	size_t i;

	cr_assert(root != NULL, "%s", r->out);
	ss = jsontree_pointer(root, "/files/0/plan/suggestions");
	cr_assert(ss != NULL && ss->type == JSONTREE_ARRAY, "%s", r->out);
	for (i = 0; i < ss->n; i++) {
		const char *t;

		s = jsontree_at(ss, i);
		t = jsontree_str(jsontree_get(s, "text"));
		if (t == NULL || strstr(t, "(the largest context") == NULL)
			continue;
		ctx = strtoll(t + strlen("--ctx "), NULL, 10);
		*measured = jsontree_get(s, "measured")->boolean;
	}
	jsontree_free(root);
	return ctx;
}

/*
 * With --measure, a plan that does not fit has its suggestions measured
 * too: each re-plan's compute buffers are llama.cpp's (JSON measured),
 * and when llama.cpp's figure at a suggestion does not fit (here: the
 * cache's, edited), the search goes on with it and the suggestion moves.
 */
Test(runtime, suggestions_are_measured, .timeout = 120)
{
	char *dir = llama_dir("cpu"), *f, why[256], job[64];
	char path[] = "/tmp/gguflint-msugg-XXXXXX";
	static const char yaml[] =
	    "name: tiny_cpu\ndescription: a small CPU box\n"
	    "runtime: llama.cpp\nbackend: cpu\ncpu_features: [avx2, fma]\n"
	    "memory: 28 MiB\nreserve: 0\nweights: mapped\ncontext: 4096\n"
	    "kv_cache: f16\nubatch: 512\nflash_attention: true\n";
	char *prof = test_tmpfile(yaml, sizeof yaml - 1);
	const char *argv[] = { "--no-config", "-f", "json", "--plan", "-p",
		prof, "--runtime", dir, "--measure", path, NULL };
	struct test_run r;
	struct jsonnode *root;
	const struct jsonnode *ss;
	bool measured = false;
	int64_t ctx, moved;
	size_t i;
	int fd = mkstemp(path);

	cr_assert(fd >= 0);
	close(fd);
	cr_assert(oraclegen_write("llama", "q4_0", path, why, sizeof why) == 0,
	    "%s", why);
	private_cache();
	sleep(3);
	test_run_bin(&r, argv, NULL, 0);
	cr_expect_eq(r.status, 1, "%s", r.err);
	root = jsontree_parse(r.out, r.out_len, NULL);
	cr_assert(root != NULL, "%s", r.out);
	ss = jsontree_pointer(root, "/files/0/plan/suggestions");
	cr_assert(ss != NULL && ss->n >= 3, "%s", r.out);
	for (i = 0; i < ss->n; i++) {
		const struct jsonnode *s = jsontree_at(ss, i);
		bool has_args = jsontree_str(jsontree_get(s, "args")) != NULL;

		cr_expect_eq(jsontree_get(s, "measured")->boolean, has_args,
		    "suggestion %zu: %s", i, r.out);
	}
	jsontree_free(root);
	ctx = largest_ctx(&r, &measured);
	cr_expect(ctx > 256 && measured, "%s", r.out);
	test_run_free(&r);
	f = llama_cache_file();
	snprintf(job, sizeof job, "J\tmeasure c=%lld ", (long long)ctx);
	edit_cached_bytes(f, job, 64ll << 20);
	test_run_bin(&r, argv, NULL, 0);
	moved = largest_ctx(&r, &measured);
	cr_expect(moved > 0 && moved < ctx && measured,
	    "llama.cpp's --ctx %lld over: %s", (long long)ctx, r.out);
	test_run_free(&r);
	unlink(f);
	unlink(prof);
	unlink(path);
	free(prof);
	free(f);
	free(dir);
}

/* A file of n bytes at path (a stand-in library or model). */
static void
small_file(const char *path, size_t n)
{
	FILE *fp = fopen(path, "w");

	cr_assert(fp != NULL);
	while (n-- > 0)
		fputc('x', fp);
	cr_assert(fclose(fp) == 0);
}

/*
 * libllama's answers are stored only for a model's files settled (not
 * changed in the last 2 s: file times are as coarse as the clock's tick)
 * and as they were before llama.cpp read them: a model replaced meanwhile
 * (another file renamed over it) is not stored, though settled; one
 * unchanged is, and reads back line for line.
 */
Test(runtime, llama_cache_keeps_no_answer_of_a_changed_file, .timeout = 60)
{
	char dir[] = "/tmp/gguflint-lc-XXXXXX", *lib, *ggml, *model, *other;
	char before[33], now[33];
	struct strbuf lines = STRBUF_INIT, back = STRBUF_INIT;

	TEST_SKIP_UNDER_VALGRIND();
	cr_assert(mkdtemp(dir) != NULL);
	lib = xasprintf("%s/libllama.so", dir);
	ggml = xasprintf("%s/libggml-base.so", dir);
	model = xasprintf("%s/m.gguf", dir);
	other = xasprintf("%s/other.gguf", dir);
	small_file(lib, 10);
	small_file(ggml, 10);
	small_file(model, 100);
	small_file(other, 100);
	private_cache();
	strbuf_adds(&lines, "L\t0.5.0\nA\t\n");
	cr_assert(rt_llama_cache_ident(model, before));
	rt_llama_cache_store(dir, model, before, "vocab", &lines);
	cr_expect(!rt_llama_cache_load(dir, model, "vocab", &back),
	    "stored for a file written just now: %s", back.buf);
	sleep(3); /* every file settled */
	cr_assert(rt_llama_cache_ident(model, before));
	cr_assert(rename(other, model) == 0); /* replaced while read */
	sleep(3); /* settled again: the rename changed its ctime */
	rt_llama_cache_store(dir, model, before, "vocab", &lines);
	cr_expect(!rt_llama_cache_load(dir, model, "vocab", &back),
	    "stored for a file replaced: %s", back.buf);
	cr_assert(rt_llama_cache_ident(model, now));
	cr_expect(strcmp(now, before) != 0);
	rt_llama_cache_store(dir, model, now, "vocab", &lines);
	cr_expect(rt_llama_cache_load(dir, model, "vocab", &back));
	cr_expect_str_eq(back.buf, lines.buf);
	strbuf_free(&lines);
	strbuf_free(&back);
	unlink(model);
	unlink(ggml);
	unlink(lib);
	rmdir(dir);
	free(lib);
	free(ggml);
	free(model);
	free(other);
}

/* A split model's identity in libllama's cache is every shard's: one
 * shard changed changes it, one missing leaves the model unnamed. */
Test(runtime, llama_cache_names_every_shard)
{
	char dir[] = "/tmp/gguflint-shards-XXXXXX", *one, *two;
	char a[33], b[33];

	TEST_SKIP_UNDER_VALGRIND();
	cr_assert(mkdtemp(dir) != NULL);
	one = xasprintf("%s/m-00001-of-00002.gguf", dir);
	two = xasprintf("%s/m-00002-of-00002.gguf", dir);
	small_file(one, 100);
	small_file(two, 100);
	cr_assert(rt_llama_cache_ident(one, a));
	small_file(two, 101);
	cr_assert(rt_llama_cache_ident(one, b));
	cr_expect(strcmp(a, b) != 0, "the second shard is not in %s", a);
	unlink(two);
	cr_expect(!rt_llama_cache_ident(one, b) && b[0] == '\0');
	unlink(one);
	rmdir(dir);
	free(one);
	free(two);
}

/* With --measure a draft model (--draft) is measured too: its own plan's
 * compute buffers are llama.cpp's, and the model's plan counts them. */
Test(runtime, a_draft_is_measured_too, .timeout = 120)
{
	char *dir = llama_dir("cpu"), why[256];
	char path[] = "/tmp/gguflint-draft-XXXXXX";
	char draft[] = "/tmp/gguflint-draft-XXXXXX";
	const char *argv[] = { "--no-config", "-f", "json", "--plan",
		"--runtime", dir, "--measure", "--draft", draft, path, NULL };
	const struct jsonnode *by, *of;
	struct jsonnode *root;
	struct test_run r;
	int fd = mkstemp(path), fd2 = mkstemp(draft);

	cr_assert(fd >= 0 && fd2 >= 0);
	close(fd);
	close(fd2);
	cr_assert(oraclegen_write("llama", "q4_0", path, why, sizeof why) ==
		    0 &&
		oraclegen_write("llama", "q4_0", draft, why, sizeof why) == 0,
	    "%s", why);
	private_cache();
	test_run_bin(&r, argv, NULL, 0);
	cr_expect_eq(r.status, 0, "%s", r.err);
	root = jsontree_parse(r.out, r.out_len, NULL);
	cr_assert(root != NULL, "%s", r.out);
	of = jsontree_pointer(root, "/files/1/companion/of");
	by = jsontree_pointer(root, "/files/1/plan/compute_measured_by");
	cr_expect(jsontree_str(of) != NULL &&
		strcmp(jsontree_str(of), path) == 0,
	    "the draft is not files[1]: %s", r.out);
	cr_expect(jsontree_str(by) != NULL &&
		strncmp(jsontree_str(by), "llama.cpp 0.5.0", 15) == 0,
	    "the draft is not measured: %s", r.out);
	jsontree_free(root);
	test_run_free(&r);
	unlink(draft);
	unlink(path);
	free(dir);
}

/* A runtime without libllama (a test double of ggml alone) is asked
 * nothing: no M021, no note; --list-devices says it has none. */
Test(runtime, no_libllama_no_vocab_load)
{
	char *dir = fake_dir("refuse");
	char *tok = vocab_file("llama", "gpt9", "llama3");
	const char *argv[] = { "--list-devices", "--runtime", dir, NULL };
	struct test_run r;

	test_run_bin(&r, argv, NULL, 0);
	cr_expect_eq(r.status, 0, "%s", r.err);
	cr_expect(strstr(r.err, "has no libllama") != NULL, "%s", r.err);
	test_run_free(&r);

	cr_expect(!runtime_has_llama(dir));
	lint_on(&r, dir, tok);
	cr_expect_eq(count_code(&r, "M021", NULL), 0, "%s", r.out);
	cr_expect(strstr(r.err, "vocabulary load") == NULL, "%s", r.err);
	test_run_free(&r);
	unlink(tok);
	free(tok);
	free(dir);
}
