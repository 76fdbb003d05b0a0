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
#include "facts/arch.h"
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
	long worst; /* compute_worst_ratio in thousandths, 0: null */
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
	const struct jsonnode *plan, *w;
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
	w = jsontree_get(plan, "compute_worst_ratio");
	cr_assert(w != NULL, "no compute_worst_ratio in the plan");
	p->worst = w->type == JSONTREE_NUMBER ?
	    (long)(w->number * 1000.0 + 0.5) :
	    0;
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
 * them is planned, and in the sanitizer build every ASAN_STEP-th (each
 * test runs in a process of its own, so the sample moves on from one
 * architecture's rows to the next's), and each architecture's first row,
 * so that none goes unplanned (PARTS below). make check plans them all. */
#define VALGRIND_STEP 72
#define ASAN_STEP 8
static unsigned rows_seen;

/* Every row of table for arch, weights wtype and backend, at least want
 * of them (under a sample, those of the sample, and in the sanitizer's
 * its first when first is set: the CPU table's, where each
 * architecture's graph code runs once; the other tables run the same
 * code again, split. Valgrind's sample takes no first rows: the
 * sanitizer's has them all). */
static void
check_table(const char *name, const char *arch, const char *wtype,
    const char *backend, size_t want, bool first)
{
	unsigned step = test_sample_step(VALGRIND_STEP, ASAN_STEP);
	char *table = xasprintf("%s/tests/oracle/%s", test_srcdir(), name);
	char *profile = write_profile(backend);
	char *model = test_tmpfile("", 0);
	char why[256], line[4096];
	FILE *fp = fopen(table, "r");
	size_t n_rows = 0;
	struct row r;

	first = first && test_valgrind_step(2) == 1;
	cr_assert(fp != NULL, "cannot open %s", table);
	cr_assert(oraclegen_write(arch, wtype, model, why, sizeof why) == 0,
	    "oraclegen: %s", why);
	while (fgets(line, sizeof line, fp) != NULL) {
		if (!parse_row(line, arch, wtype, backend, &r))
			continue;
		/* under the sample, an architecture's first row as well */
		if (rows_seen++ % step == 0 || (first && n_rows == 0)) {
			check_row(model, profile, &r);
			n_rows++;
		}
	}
	fclose(fp);
	cr_expect_geq(n_rows, step == 1 ? want : first,
	    "%s: only %zu rows "
	    "in %s",
	    arch, n_rows, table);
	unlink(model);
	unlink(profile);
	free(model);
	free(profile);
	free(table);
}

/* The architectures whose graph is built (src/facts/archs.c's rows with
 * graph.built; the row's comment says what the graph holds), each held
 * to every row of both tables: at least as many rows as one CPU library
 * measures of a model without MTP layers at -np 4 (18), and the Vulkan
 * table's 36 of a weights type. */
#define CPU_ROWS_MIN 18
#define VULKAN_ROWS 36

/* The tables' rows are checked in PARTS tests of their own, each of
 * every PARTS-th architecture whose graph is built, so that --jobs runs
 * them side by side and each stays within its time limit. */
#define PARTS 3

/* The next architecture from *i on whose graph is built and which is
 * part's (the n-th built one, n % PARTS == part), or NULL. */
static const struct arch_info *
built_at(size_t *i, unsigned part)
{
	const struct arch_info *a;
	size_t k, n;

	for (; (a = arch_at(*i)) != NULL; (*i)++) {
		if (!a->graph.built)
			continue;
		for (k = 0, n = 0; k < *i; k++)
			n += arch_at(k)->graph.built;
		if (n % PARTS == part)
			return a;
	}
	return NULL;
}

static void
placed_cpu(unsigned part)
{
	const struct arch_info *a;
	size_t i = 0;

	for (; (a = built_at(&i, part)) != NULL; i++)
		check_table("measured-cpu.tsv", a->name, "q4_0", "cpu",
		    CPU_ROWS_MIN, true);
}

static void
placed_vulkan(unsigned part)
{
	static const char *const wtypes[] = { "q8_0", "f16" };
	const struct arch_info *a;
	size_t i = 0;

	for (; (a = built_at(&i, part)) != NULL; i++)
		check_table("measured-vulkan.tsv", a->name, "q4_0", "vulkan",
		    VULKAN_ROWS, false);
	/* the weights' types change the copies of the host's layers */
	for (i = 0; part == 0 && i < sizeof wtypes / sizeof wtypes[0]; i++)
		check_table("measured-vulkan.tsv", "llama", wtypes[i], "vulkan",
		    VULKAN_ROWS, false);
}

/* Every architecture's q8_0 and f16 weights beside Vulkan but llama's
 * (under valgrind every third architecture's: the rows above cover the
 * rest). */
static void
placed_other_weights(unsigned part)
{
	static const char *const wtypes[] = { "q8_0", "f16" };
	const struct arch_info *a;
	size_t i = 1, k, n = 0, step = test_valgrind_step(2) > 1 ? 3 : 1;

	for (; (a = built_at(&i, part)) != NULL; i++) {
		if (n++ % step != 0)
			continue;
		for (k = 0; k < sizeof wtypes / sizeof wtypes[0]; k++)
			check_table("measured-vulkan.tsv", a->name, wtypes[k],
			    "vulkan", VULKAN_ROWS, false);
	}
}

/* clang-format off */
#define PLACED_PART(p)							\
	Test(graph, placed_graph_is_llamas_own_on_the_cpu_##p,		\
	    .timeout = 300) { placed_cpu(p); }				\
	Test(graph, placed_graph_beside_vulkan_is_llamas_own_##p,	\
	    .timeout = 300) { placed_vulkan(p); }			\
	Test(graph, placed_graph_of_other_weights_beside_vulkan_##p,	\
	    .timeout = 300) { placed_other_weights(p); }
/* clang-format on */
PLACED_PART(0)
PLACED_PART(1)
PLACED_PART(2)

/* The ratio of planned to measured in thousandths, at least 1 (0 is
 * "not measured"), at most 65535; equal buffers are 1000. */
static unsigned
thousandths(int64_t planned, int64_t measured)
{
	double r;

	if (planned == measured)
		return 1000;
	if (measured <= 0)
		return 65535;
	r = (double)planned / (double)measured * 1000.0 + 0.5;
	return r < 1.0 ? 1 : r > 65535.0 ? 65535 : (unsigned)r;
}

/* Of two ratios (thousandths), the one farther from 1. */
static unsigned
farther(unsigned a, unsigned b)
{
	double la = a > 1000 ? (double)a / 1000.0 : 1000.0 / a;
	double lb = b > 1000 ? (double)b / 1000.0 : 1000.0 / b;

	return lb > la ? b : a;
}

/* The worst ratio of the plans of arch's rows of table (every buffer,
 * the host's and the device's), and that each plan says basis; under
 * valgrind and the sanitizer, of a sample. 0 when the table has none. */
static unsigned
table_worst(const char *name, const char *arch, const char *backend,
    unsigned stated)
{
	const char *basis = arch_worst_within(stated) ? "fitted" : "estimated";
	unsigned step = test_sample_step(VALGRIND_STEP, ASAN_STEP), w = 0;
	char *table = xasprintf("%s/tests/oracle/%s", test_srcdir(), name);
	char *profile = write_profile(backend);
	char *model = test_tmpfile("", 0);
	char why[256], line[4096];
	FILE *fp = fopen(table, "r");
	struct planned p;
	struct row r;

	cr_assert(fp != NULL, "cannot open %s", table);
	cr_assert(oraclegen_write(arch, "q4_0", model, why, sizeof why) == 0,
	    "oraclegen: %s", why);
	while (fgets(line, sizeof line, fp) != NULL) {
		if (!parse_row(line, arch, "q4_0", backend, &r) ||
		    rows_seen++ % step != 0)
			continue;
		plan_row(model, profile, &r, &p);
		cr_expect_str_eq(p.basis, basis, "%s ctx %s -fa %s -ngl %s",
		    arch, r.ctx, r.fa, r.ngl);
		cr_expect_eq(p.worst, (long)stated,
		    "%s: the plan's worst ratio %ld, its row's %u", arch,
		    p.worst, stated);
		w = farther(w ? w : 1000, thousandths(p.compute, r.compute));
		if (r.dev >= 0)
			w = farther(farther(w, thousandths(p.host, r.host)),
			    thousandths(p.dev, r.dev));
	}
	fclose(fp);
	unlink(model);
	unlink(profile);
	free(model);
	free(profile);
	free(table);
	return w;
}

/* A worst ratio the row states against the one measured: equal, or
 * under a sample (valgrind's, the sanitizer's), no farther from 1. */
static void
check_worst(const char *arch, const char *backend, unsigned stated,
    unsigned got)
{
	if (test_sample_step(VALGRIND_STEP, ASAN_STEP) == 1)
		cr_expect_eq(stated, got,
		    "%s on %s: the row says %u thousandths at worst, the "
		    "table's rows give %u",
		    arch, backend, stated, got);
	else
		cr_expect(got == 0 || farther(stated, got) == stated,
		    "%s on %s: %u thousandths beyond the row's %u", arch,
		    backend, got, stated);
}

/* Every measured architecture whose graph is not built: its row states
 * the worst ratio of the plan's compute to llama.cpp's over each
 * table's rows (fit.worst_cpu, fit.worst_vulkan), and the plan says
 * "fitted" within 10 %, else "estimated". */
Test(graph, unplaced_compute_is_as_far_as_its_row_says, .timeout = 300)
{
	const struct arch_info *a;
	size_t i;

	for (i = 0; (a = arch_at(i)) != NULL; i++) {
		if (a->graph.built || a->measured_on == 0 ||
		    a->unmeasured != NULL)
			continue;
		check_worst(a->name, "cpu", a->fit.worst_cpu,
		    table_worst("measured-cpu.tsv", a->name, "cpu",
			a->fit.worst_cpu));
		check_worst(a->name, "vulkan", a->fit.worst_vulkan,
		    table_worst("measured-vulkan.tsv", a->name, "vulkan",
			a->fit.worst_vulkan));
	}
}

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

/* A file with a tensor the graph does not read is another graph: qwen3's
 * model relabelled llama (its keys renamed, same lengths) keeps Q's and K's
 * norms, which llama's graph does not read; placed as qwen3, not as
 * llama. */
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
