/*
 * test_graph.c - llama's graph built and placed (src/plan/graph.c)
 * against llama.cpp's own compute buffers: for every llama row of the
 * CPU table (tests/oracle/measured-cpu.tsv, measured by llama.cpp v0.5.0
 * on the oracle's sparse llama), the plan of the same model at the same
 * settings must say its compute buffer was placed ("compute_basis":
 * "placed") and equal llama.cpp's to the byte; for a row the graph is not
 * built for (a q8_0 K), it must say it was not. No llama.cpp is needed:
 * the table holds its answers.
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
#include "jsontree.h"
#include "oraclegen.h"
#include "testutil.h"

/* A row of the table: the settings and llama.cpp's compute buffer. */
struct row {
	char ctx[12], ub[12], fa[8], ctk[12], ctv[12], np[8];
	int64_t compute;
};

/* The row's fields (tab-separated, the table's header order): true for a
 * q4_0 llama row of the CPU backend that llama.cpp accepted. */
static bool
parse_row(char *line, struct row *r)
{
	char *f[32], *save = NULL, *t;
	int n = 0;

	for (t = strtok_r(line, "\t\n", &save); t != NULL && n < 32;
	     t = strtok_r(NULL, "\t\n", &save))
		f[n++] = t;
	if (n < 19 || strcmp(f[0], "llama") != 0 || strcmp(f[1], "q4_0") ||
	    strcmp(f[2], "sim") || strcmp(f[3], "cpu") || strcmp(f[12], "ok"))
		return false;
	snprintf(r->ctx, sizeof r->ctx, "%s", f[5]);
	snprintf(r->ub, sizeof r->ub, "%s", f[6]);
	snprintf(r->fa, sizeof r->fa, "%s", f[7]);
	snprintf(r->ctk, sizeof r->ctk, "%s", f[8]);
	snprintf(r->ctv, sizeof r->ctv, "%s", f[9]);
	snprintf(r->np, sizeof r->np, "%s", f[10]);
	r->compute = strtoll(f[18], NULL, 10);
	return true;
}

static char *
write_profile(void)
{
	static const char text[] = "name: graph_test\n"
				   "description: the CPU table's host\n"
				   "runtime: llama.cpp\n"
				   "backend: cpu\n"
				   "cpu_features: [avx2, f16c, fma]\n"
				   "memory: 64 GiB\n"
				   "reserve: 1 GiB\n"
				   "weights: mapped\n"
				   "strict: false\n"
				   "context: 4096\n"
				   "kv_cache: f16\n"
				   "ubatch: 512\n"
				   "flash_attention: true\n";
	char *tmp = test_tmpfile(text, sizeof text - 1);
	char *path = xasprintf("%s.yaml", tmp);

	cr_assert(rename(tmp, path) == 0);
	free(tmp);
	return path;
}

/* The plan of model at r's settings: its compute bytes and basis. */
static void
plan_row(const char *model, const char *profile, const struct row *r,
    int64_t *compute, char *basis, size_t n)
{
	const char *argv[] = { "--no-config", "--format", "json", "--plan",
		"-p", profile, "-c", r->ctx, "-ctk", r->ctk, "-ctv", r->ctv,
		"-fa", r->fa, "-ub", r->ub, "-b", "2048", "-np", r->np,
		"--no-mmap", model, NULL };
	struct test_run run;
	struct jsonnode *root;
	const struct jsonnode *plan;
	char *err = NULL;

	test_run_bin(&run, argv, NULL, 0);
	root = jsontree_parse(run.out, run.out_len, &err);
	cr_assert(root != NULL, "gguflint's JSON: %s (stderr: %s)", err,
	    run.err);
	plan = jsontree_pointer(root, "/files/0/plan");
	cr_assert(jsontree_int64(jsontree_get(plan, "compute_bytes"), compute),
	    "no compute_bytes in the plan");
	cr_assert(jsontree_str(jsontree_get(plan, "compute_basis")) != NULL,
	    "no compute_basis in the plan");
	snprintf(basis, n, "%s",
	    jsontree_str(jsontree_get(plan, "compute_basis")));
	jsontree_free(root);
	test_run_free(&run);
}

Test(graph, placed_llama_is_llamas_own_compute_buffer, .timeout = 300)
{
	char *table = xasprintf("%s/tests/oracle/measured-cpu.tsv",
	    test_srcdir());
	char *profile = write_profile();
	char *model = test_tmpfile("", 0);
	char why[256], line[4096], basis[32];
	FILE *fp = fopen(table, "r");
	size_t n_placed = 0, n_other = 0;
	struct row r;
	int64_t got;

	cr_assert(fp != NULL, "cannot open %s", table);
	cr_assert(oraclegen_write("llama", "q4_0", model, why, sizeof why) == 0,
	    "oraclegen: %s", why);
	while (fgets(line, sizeof line, fp) != NULL) {
		if (!parse_row(line, &r))
			continue;
		plan_row(model, profile, &r, &got, basis, sizeof basis);
		if (strcmp(r.ctk, "f16") != 0) {
			/* a quantized K: its rotations are not built */
			cr_expect_str_neq(basis, "placed", "ctx %s -ctk %s",
			    r.ctx, r.ctk);
			n_other++;
			continue;
		}
		cr_expect_str_eq(basis, "placed", "ctx %s -fa %s -np %s", r.ctx,
		    r.fa, r.np);
		cr_expect_eq(got, r.compute,
		    "ctx %s -fa %s -np %s: placed "
		    "%" PRId64 ", llama.cpp %" PRId64,
		    r.ctx, r.fa, r.np, got, r.compute);
		n_placed++;
	}
	fclose(fp);
	cr_expect_geq(n_placed, 16, "only %zu placed rows in %s", n_placed,
	    table);
	cr_expect_geq(n_other, 2, "only %zu rows not placed", n_other);
	unlink(model);
	unlink(profile);
	free(model);
	free(profile);
	free(table);
}
