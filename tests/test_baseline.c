/*
 * test_baseline.c - baselines end to end: --write-baseline records the
 * findings, --baseline (or baseline: in the configuration) lets those pass
 * and fails on new ones, counts the fixed ones as gone, survives the
 * tensors being reordered and other metadata changing, and a malformed
 * baseline is FILE:LINE:COL and exit 2.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/util.h"
#include "data/builtin.h"
#include "ggufw.h"
#include "testutil.h"

/* A model whose tensor names hold an escape sequence (S002, an error,
 * per tensor), in the order given, with extra metadata when asked (it
 * moves every offset). */
static void
write_model(const char *path, const char *first, const char *second,
    bool extra)
{
	static const int64_t ne[] = { 32 };
	struct ggufw_model m;
	struct strbuf sb = STRBUF_INIT;

	ggufw_model_init(&m, false, 32);
	ggufw_model_kv_str(&m, "general.architecture", "llama");
	if (extra)
		ggufw_model_kv_str(&m, "general.name", "a longer name here");
	ggufw_model_tensor(&m, first, 1, ne, 0, 1, 4);
	if (second != NULL)
		ggufw_model_tensor(&m, second, 1, ne, 0, 1, 4);
	ggufw_model_finish(&m, &sb, GGUFW_DATA_ZERO);
	cr_assert(ggufw_write_file(path, sb.buf, sb.len) == 0);
	strbuf_free(&sb);
	ggufw_model_free(&m);
}

struct fixture {
	char dir[32];
	char *model, *baseline;
};

static void
fixture_init(struct fixture *fx)
{
	strcpy(fx->dir, "/tmp/gguflint-bl-XXXXXX");
	cr_assert(mkdtemp(fx->dir) != NULL);
	fx->model = xasprintf("%s/m.gguf", fx->dir);
	fx->baseline = xasprintf("%s/baseline.json", fx->dir);
}

static void
fixture_free(struct fixture *fx)
{
	char *cmd = xasprintf("rm -rf %s", fx->dir);

	cr_assert(system(cmd) == 0);
	free(cmd);
	free(fx->model);
	free(fx->baseline);
}

static void
lint(struct test_run *r, const char *a0, const char *a1, const char *a2,
    const char *a3)
{
	const char *argv[] = { "--no-config", "--select=S002", a0, a1, a2, a3,
	    NULL };

	test_run_bin(r, argv, NULL, 0);
}

/* A recorded finding passes; a new one fails; a fixed one is gone. */
Test(baseline, old_findings_pass_new_ones_fail_fixed_ones_are_gone)
{
	struct fixture fx;
	struct test_run r;

	fixture_init(&fx);
	write_model(fx.model, "a\x1b[1m.weight", NULL, false);
	lint(&r, "--write-baseline", fx.baseline, fx.model, NULL);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_expect_str_empty(r.out, "what the baseline holds is not shown");
	cr_expect(strstr(r.err, "1 findings of 1 models recorded in") !=
	    NULL, "%s", r.err);
	test_run_free(&r);
	lint(&r, "--baseline", fx.baseline, fx.model, NULL);
	cr_assert_eq(r.status, 0, "a baselined finding passes: %s", r.err);
	cr_expect_str_empty(r.out);
	cr_expect_str_eq(r.err, "no new findings in 1 model (none failed); 1 "
	    "baselined, 0 gone from the baseline\n");
	test_run_free(&r);
	lint(&r, "--baseline", fx.baseline, "--show-baselined", fx.model);
	cr_expect(strstr(r.out, "S002") != NULL && strstr(r.out,
	    "[baselined]\n") != NULL, "%s", r.out);
	test_run_free(&r);
	write_model(fx.model, "a\x1b[1m.weight", "b\x1b[1m.weight", false);
	lint(&r, "--baseline", fx.baseline, fx.model, NULL);
	cr_assert_eq(r.status, 1, "a new finding fails: %s", r.err);
	cr_expect(strstr(r.out, "[tensor: b") != NULL, "%s", r.out);
	cr_expect(strstr(r.out, "[tensor: a") == NULL, "%s", r.out);
	cr_expect_str_eq(r.err, "1 error in 1 model (1 failed); 1 baselined, "
	    "0 gone from the baseline\n");
	test_run_free(&r);
	write_model(fx.model, "c.weight", NULL, false);
	lint(&r, "--baseline", fx.baseline, fx.model, NULL);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_expect_str_eq(r.err, "no findings in 1 model (none failed); 0 "
	    "baselined, 1 gone from the baseline\n");
	test_run_free(&r);
	lint(&r, "--baseline", fx.baseline, "--format=json", fx.model);
	cr_expect(strstr(r.out, "\"baseline\": {\"gone\": 1}") != NULL, "%s",
	    r.out);
	test_run_free(&r);
	fixture_free(&fx);
}

/* Reordered tensors, moved offsets and another working directory keep a
 * finding baselined; JSON and SARIF mark new and baselined ones. */
Test(baseline, fingerprints_survive_reordering_and_mark_each_format)
{
	struct fixture fx;
	struct test_run r;
	char *cfg;
	FILE *fp;

	fixture_init(&fx);
	write_model(fx.model, "a\x1b[1m.weight", "b\x1b[1m.weight", false);
	lint(&r, "--write-baseline", fx.baseline, fx.model, NULL);
	cr_assert_eq(r.status, 0, "%s", r.err);
	test_run_free(&r);
	write_model(fx.model, "b\x1b[1m.weight", "a\x1b[1m.weight", true);
	lint(&r, "--baseline", fx.baseline, fx.model, NULL);
	cr_expect_eq(r.status, 0, "reordered: %s %s", r.out, r.err);
	test_run_free(&r);
	write_model(fx.model, "b\x1b[1m.weight", "n\x1b[1m.weight", true);
	lint(&r, "--baseline", fx.baseline, "--format=json", fx.model);
	cr_expect_eq(r.status, 1);
	cr_expect(strstr(r.out, "\"baselined\": true") != NULL &&
	    strstr(r.out, "\"baselined\": false") != NULL, "%s", r.out);
	test_run_free(&r);
	lint(&r, "--baseline", fx.baseline, "--format=sarif", fx.model);
	cr_expect(strstr(r.out, "\"baselineState\": \"unchanged\"") != NULL &&
	    strstr(r.out, "\"baselineState\": \"new\"") != NULL, "%s", r.out);
	test_run_free(&r);
	/* baseline: in the configuration, relative to its folder */
	cfg = xasprintf("%s/.gguflint.yaml", fx.dir);
	fp = fopen(cfg, "w");
	cr_assert_not_null(fp);
	fputs("select: [S002]\nbaseline: baseline.json\n", fp);
	fclose(fp);
	{
		const char *argv[] = { "--config", cfg, fx.model, NULL };

		test_run_bin(&r, argv, NULL, 0);
	}
	cr_expect_eq(r.status, 1, "%s", r.err);
	cr_expect(strstr(r.err, "1 error in 1 model (1 failed); 1 baselined, "
	    "1 gone") != NULL, "%s", r.err);
	test_run_free(&r);
	free(cfg);
	fixture_free(&fx);
}

/* A baseline that is not one is FILE:LINE:COL and what was expected. */
Test(baseline, malformed_baseline_is_file_line_col_and_exit_2)
{
	static const struct {
		const char *text, *where, *what;
	} bad[] = {
		{ "{\"version\": 2, \"findings\": []}\n", ":1:13:",
		    "expected version 1" },
		{ "{\"version\": 1, \"findings\": [\n  {\"path\": \"m.gguf\", "
		    "\"code\": \"S002\", \"fingerprint\": \"xyz\"}]}\n",
		    ":2:53:", "64 lowercase hex digits" },
		{ "{\"version\": 1, \"findings\": {}}\n", ":1:28:",
		    "expected a list of findings" },
		{ "{\"version\": 1,\n \"findings\": [}\n", ":2:15:", "" },
		{ "{\"version\": 1}\n", ":1:1:", "findings" },
	};
	struct fixture fx;
	struct test_run r;
	size_t i;

	fixture_init(&fx);
	write_model(fx.model, "a.weight", NULL, false);
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		cr_assert(ggufw_write_file(fx.baseline, bad[i].text,
		    strlen(bad[i].text)) == 0);
		lint(&r, "--baseline", fx.baseline, fx.model, NULL);
		cr_expect_eq(r.status, 2, "%zu: %s", i, r.err);
		cr_expect(strstr(r.err, bad[i].where) != NULL &&
		    strstr(r.err, bad[i].what) != NULL, "%zu: want %s %s in: "
		    "%s", i, bad[i].where, bad[i].what, r.err);
		test_run_free(&r);
	}
	lint(&r, "--baseline", "/nonexistent/b.json", fx.model, NULL);
	cr_expect_eq(r.status, 2);
	cr_expect(strstr(r.err, "/nonexistent/b.json") != NULL, "%s", r.err);
	test_run_free(&r);
	fixture_free(&fx);
}
