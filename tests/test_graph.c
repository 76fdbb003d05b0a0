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
#include <ftw.h>
#include <sys/stat.h>
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
	bool cuda;

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
	cuda = strcmp(backend, "cuda") == 0;
	r->host = n > 24 ?
	    buffer_compute(f[24], cuda ? "CUDA_Host" : "Vulkan_Host") :
	    -1;
	r->dev = n > 24 ? buffer_compute(f[24], cuda ? "CUDA0" : "Vulkan0") :
			  -1;
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
	/* beside CUDA until its table holds the rules read in the source */
	if (strcmp(p.basis, "placed_from_source") == 0)
		snprintf(p.basis, sizeof p.basis, "placed");
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

/* Which of a table's rows are planned. make check plans them all. Under
 * make check-valgrind, where a plan under memcheck takes over a second,
 * every VALGRIND_STEP-th row this test sees (each test runs in a process
 * of its own, so the sample moves on from one architecture's rows to the
 * next's): the sanitizer's sample has every architecture. The sanitizer
 * build plans a cover of each architecture's rows (cover_rows): what
 * varies from row to row is data (sizes), what the sanitizer watches is
 * code, and a row runs the code its settings choose (flash attention,
 * the caches' types, the sequences, the layers offloaded), so every value
 * of every setting, for every architecture and weights type, is planned
 * there, in some 1,700 rows of the tables' 20,000 (every 8th row was
 * 2,600, and missed some settings of some architectures). */
#define VALGRIND_STEP 144
#define ASAN_STEP 8
static unsigned rows_seen;

/* The settings of a row that decide which code a plan runs. */
#define SETTINGS 7
static const char *
row_setting(const struct row *r, unsigned f)
{
	const char *const s[SETTINGS] = { r->ctx, r->ub, r->fa, r->ctk, r->ctv,
		r->np, r->ngl };

	return s[f];
}

/* The values of each setting a cover holds (a table has 3 at most). */
struct cover {
	const char *seen[SETTINGS][8];
	unsigned n[SETTINGS];
};

/* How many of r's settings have a value c does not hold yet; with add,
 * c then holds them. */
static unsigned
cover_add(struct cover *c, const struct row *r, bool add)
{
	unsigned f, k, gain = 0;

	for (f = 0; f < SETTINGS; f++) {
		const char *v = row_setting(r, f);

		for (k = 0; k < c->n[f] && strcmp(c->seen[f][k], v) != 0; k++)
			;
		if (k < c->n[f])
			continue;
		gain++;
		if (add && c->n[f] < 8)
			c->seen[f][c->n[f]++] = v;
	}
	return gain;
}

/* pick: a few of rows[0..n) that hold between them every value of every
 * setting: the row that adds the most values, until none adds one (some
 * 3 rows of an architecture's 30 to 40). */
static void
cover_rows(const struct row *rows, size_t n, bool *pick)
{
	struct cover c;
	size_t i, best;
	unsigned g, most;

	memset(&c, 0, sizeof c);
	for (;;) {
		for (i = 0, most = 0, best = n; i < n; i++) {
			g = pick[i] ? 0 : cover_add(&c, &rows[i], false);
			if (g > most) {
				most = g;
				best = i;
			}
		}
		if (best == n)
			return;
		pick[best] = true;
		cover_add(&c, &rows[best], true);
	}
}

/* The rows of table name for arch, weights wtype and backend (*n of
 * them; the caller frees them). */
static struct row *
table_rows(const char *name, const char *arch, const char *wtype,
    const char *backend, size_t *n)
{
	char *table = xasprintf("%s/tests/oracle/%s", test_srcdir(), name);
	FILE *fp = fopen(table, "r");
	struct row *rows = NULL, r;
	char line[4096];

	cr_assert(fp != NULL, "cannot open %s", table);
	*n = 0;
	while (fgets(line, sizeof line, fp) != NULL) {
		if (!parse_row(line, arch, wtype, backend, &r))
			continue;
		rows = xreallocarray(rows, *n + 1, sizeof *rows);
		rows[(*n)++] = r;
	}
	fclose(fp);
	free(table);
	return rows;
}

/* Which of rows[0..n) this build plans (see VALGRIND_STEP above); the
 * caller frees the flags. */
static bool *
sample_rows(const struct row *rows, size_t n)
{
	bool *pick = xcalloc(n, sizeof *pick);
	size_t i;

	if (test_valgrind_step(2) > 1)
		for (i = 0; i < n; i++)
			pick[i] = rows_seen++ % VALGRIND_STEP == 0;
	else if (test_asan_sampled())
		cover_rows(rows, n, pick);
	else
		for (i = 0; i < n; i++)
			pick[i] = true;
	return pick;
}

/* Every row of table for arch, weights wtype and backend, at least want
 * of them (under a sample, those of the sample: at least one in the
 * sanitizer's cover, maybe none in valgrind's). */
static void
check_table(const char *name, const char *arch, const char *wtype,
    const char *backend, size_t want)
{
	char *profile = write_profile(backend);
	char *model = test_tmpfile("", 0);
	char why[256];
	size_t i, n, n_rows = 0;
	struct row *rows = table_rows(name, arch, wtype, backend, &n);
	bool *pick = sample_rows(rows, n);

	if (test_valgrind_step(2) > 1)
		want = 0;
	else if (test_asan_sampled())
		want = 1;
	cr_assert(oraclegen_write(arch, wtype, model, why, sizeof why) == 0,
	    "oraclegen: %s", why);
	for (i = 0; i < n; i++) {
		if (pick[i]) {
			check_row(model, profile, &rows[i]);
			n_rows++;
		}
	}
	cr_expect_geq(n_rows, want, "%s: only %zu rows in %s", arch, n_rows,
	    name);
	unlink(model);
	unlink(profile);
	free(model);
	free(profile);
	free(pick);
	free(rows);
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
		    CPU_ROWS_MIN);
}

static void
placed_vulkan(unsigned part)
{
	static const char *const wtypes[] = { "q8_0", "f16" };
	const struct arch_info *a;
	size_t i = 0;

	for (; (a = built_at(&i, part)) != NULL; i++)
		check_table("measured-vulkan.tsv", a->name, "q4_0", "vulkan",
		    VULKAN_ROWS);
	/* the weights' types change the copies of the host's layers */
	for (i = 0; part == 0 && i < sizeof wtypes / sizeof wtypes[0]; i++)
		check_table("measured-vulkan.tsv", "llama", wtypes[i], "vulkan",
		    VULKAN_ROWS);
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
			    "vulkan", VULKAN_ROWS);
	}
}

/*
 * Every row of the CUDA table (measured-cuda.tsv, which
 * tests/oracle/measure-cuda.sh writes on a machine with an NVIDIA GPU),
 * each placed to the byte. Skipped while the table is absent.
 */
Test(graph, placed_graph_beside_cuda_is_llamas_own, .timeout = 600)
{
	char *table = xasprintf("%s/tests/oracle/measured-cuda.tsv",
	    test_srcdir());
	const struct arch_info *a;
	unsigned part;
	size_t i;
	bool have = access(table, R_OK) == 0;

	free(table);
	if (!have)
		cr_skip_test("no CUDA table: tests/oracle/measured-cuda.tsv "
			     "is measured on a machine with an NVIDIA GPU "
			     "(tests/oracle/measure-cuda.sh)");
	for (part = 0; part < PARTS; part++)
		for (i = 0; (a = built_at(&i, part)) != NULL; i++)
			check_table("measured-cuda.tsv", a->name, "q4_0",
			    "cuda", 1);
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
	char *profile = write_profile(backend);
	char *model = test_tmpfile("", 0);
	char why[256];
	size_t i, n;
	struct row *rows = table_rows(name, arch, "q4_0", backend, &n), *r;
	bool *pick = sample_rows(rows, n);
	struct planned p;
	unsigned w = 0;

	cr_assert(oraclegen_write(arch, "q4_0", model, why, sizeof why) == 0,
	    "oraclegen: %s", why);
	for (i = 0; i < n; i++) {
		if (!pick[i])
			continue;
		r = &rows[i];
		plan_row(model, profile, r, &p);
		cr_expect_str_eq(p.basis, basis, "%s ctx %s -fa %s -ngl %s",
		    arch, r->ctx, r->fa, r->ngl);
		cr_expect_eq(p.worst, (long)stated,
		    "%s: the plan's worst ratio %ld, its row's %u", arch,
		    p.worst, stated);
		w = farther(w ? w : 1000, thousandths(p.compute, r->compute));
		if (r->dev >= 0)
			w = farther(farther(w, thousandths(p.host, r->host)),
			    thousandths(p.dev, r->dev));
	}
	unlink(model);
	unlink(profile);
	free(model);
	free(profile);
	free(pick);
	free(rows);
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

/*
 * The Vulkan table's off-grid block (mode "offgrid", measured on llvmpipe
 * by llama.cpp v0.5.0 as the sim rows are: tests/oracle/measure.sh's
 * offgrid_table): Llama-3.2-1B's and Qwen2.5-0.5B's shapes with their
 * tied output and 128k and 152k vocabularies, the small llama and qwen2,
 * at 8192 and 20000 cells, ubatch 256 and 1024, -ngl 5, 12 and 99, FA on
 * and off, one and two sequences. There the device's limits decide: the
 * attention scores without FA and the output matrix beyond llvmpipe's
 * 128 MiB run on the host, the tied output stays there, and the host's
 * compute buffer beyond 1 GiB is placed in chunks. Every buffer of every
 * row must be llama.cpp's to the byte: each device's weights, cache and
 * compute.
 */
struct offrow {
	char arch[32], wtype[8];
	struct row r;
	int64_t model[2], kv[2], compute[2]; /* the host's, the device's */
};

/* Adds buffer "NAME=model/context/compute" to the host's or the
 * device's figures of o. */
static void
offgrid_buffer(struct offrow *o, const char *b)
{
	long long m = 0, c = 0, k = 0;
	const char *eq = strchr(b, '=');
	int d;

	if (eq == NULL || sscanf(eq + 1, "%lld/%lld/%lld", &m, &c, &k) != 3)
		return;
	d = strncmp(b, "Vulkan0=", 8) == 0;
	o->model[d] += m;
	o->kv[d] += c;
	o->compute[d] += k;
}

/* An off-grid row that llama.cpp accepted, into o. */
static bool
parse_offgrid(char *line, struct offrow *o)
{
	char *f[32], *save = NULL, *t, *b;
	int n = 0;

	for (t = strtok_r(line, "\t\n", &save); t != NULL && n < 32;
	     t = strtok_r(NULL, "\t\n", &save))
		f[n++] = t;
	if (n < 25 || strcmp(f[2], "offgrid") || strcmp(f[3], "vulkan") ||
	    strcmp(f[12], "ok"))
		return false;
	memset(o, 0, sizeof *o);
	snprintf(o->arch, sizeof o->arch, "%s", f[0]);
	snprintf(o->wtype, sizeof o->wtype, "%s", f[1]);
	snprintf(o->r.ctx, sizeof o->r.ctx, "%s", f[5]);
	snprintf(o->r.ub, sizeof o->r.ub, "%s", f[6]);
	snprintf(o->r.fa, sizeof o->r.fa, "%s", f[7]);
	snprintf(o->r.ctk, sizeof o->r.ctk, "%s", f[8]);
	snprintf(o->r.ctv, sizeof o->r.ctv, "%s", f[9]);
	snprintf(o->r.np, sizeof o->r.np, "%s", f[10]);
	snprintf(o->r.ngl, sizeof o->r.ngl, "%s", f[11]);
	for (b = strtok_r(f[24], ";", &save); b != NULL;
	     b = strtok_r(NULL, ";", &save))
		offgrid_buffer(o, b);
	return true;
}

/* A device's member of the plan, -1 when it has none. */
static int64_t
device_member(const struct jsonnode *plan, size_t i, const char *key)
{
	const struct jsonnode *d = jsontree_at(jsontree_get(plan, "devices"),
	    i);
	int64_t v;

	return jsontree_int64(jsontree_get(d, key), &v) ? v : -1;
}

/* The plan of model at o's settings (with runtime probed when not NULL)
 * against o, every buffer; the plan must say placed. */
static void
check_offgrid(const char *model, const char *profile, const char *runtime,
    const struct offrow *o)
{
	const struct row *r = &o->r;
	const char *argv[] = { "--no-config", "--format", "json", "--plan",
		"-p", profile, "-c", r->ctx, "-ctk", r->ctk, "-ctv", r->ctv,
		"-fa", r->fa, "-ub", r->ub, "-b", "2048", "-np", r->np, "-ngl",
		r->ngl, "--no-mmap", model, NULL, NULL, NULL };
	struct test_run run;
	struct jsonnode *root;
	const struct jsonnode *plan;
	const char *basis;
	char *err = NULL;
	int64_t got;
	size_t d;

	if (runtime != NULL) { /* --runtime DIR before the model */
		argv[23] = "--runtime";
		argv[24] = runtime;
		argv[25] = model;
	}
	test_run_bin(&run, argv, NULL, 0);
	root = jsontree_parse(run.out, run.out_len, &err);
	cr_assert(root != NULL, "gguflint's JSON: %s (stderr: %s)", err,
	    run.err);
	plan = jsontree_pointer(root, "/files/0/plan");
	basis = jsontree_str(jsontree_get(plan, "compute_basis"));
	cr_expect(basis != NULL && strcmp(basis, "placed") == 0,
	    "%s/%s ctx %s ub %s -fa %s -np %s -ngl %s: compute_basis %s",
	    o->arch, o->wtype, r->ctx, r->ub, r->fa, r->np, r->ngl,
	    basis ? basis : "(none)");
	for (d = 0; d < 2; d++) {
		static const char *const who[] = { "host", "device" };

		got = device_member(plan, d, "model_bytes") +
		    (d == 0 ? device_member(plan, d, "repack_bytes") : 0);
		cr_expect_eq(got, o->model[d],
		    "%s/%s ctx %s ub %s -fa %s -np %s -ngl %s%s: %s weights "
		    "%" PRId64 ", llama.cpp %" PRId64,
		    o->arch, o->wtype, r->ctx, r->ub, r->fa, r->np, r->ngl,
		    runtime ? " probed" : "", who[d], got, o->model[d]);
		got = device_member(plan, d, "kv_bytes");
		cr_expect_eq(got, o->kv[d],
		    "%s/%s ctx %s ub %s -fa %s -np %s -ngl %s%s: %s cache "
		    "%" PRId64 ", llama.cpp %" PRId64,
		    o->arch, o->wtype, r->ctx, r->ub, r->fa, r->np, r->ngl,
		    runtime ? " probed" : "", who[d], got, o->kv[d]);
		got = device_member(plan, d, "compute_bytes");
		cr_expect_eq(got, o->compute[d],
		    "%s/%s ctx %s ub %s -fa %s -np %s -ngl %s%s: %s compute "
		    "%" PRId64 ", llama.cpp %" PRId64,
		    o->arch, o->wtype, r->ctx, r->ub, r->fa, r->np, r->ngl,
		    runtime ? " probed" : "", who[d], got, o->compute[d]);
	}
	jsontree_free(root);
	test_run_free(&run);
}

/* Every step-th off-grid row (from the first), each model written once,
 * planned with profile (and runtime probed when not NULL); the rows
 * checked. */
static size_t
offgrid_rows(const char *profile, const char *runtime, unsigned step)
{
	char *table = xasprintf("%s/tests/oracle/measured-vulkan.tsv",
	    test_srcdir());
	char *model = NULL, have[48] = "", key[48], why[256], line[4096];
	FILE *fp = fopen(table, "r");
	struct offrow o;
	size_t seen = 0, n = 0;

	cr_assert(fp != NULL, "cannot open %s", table);
	while (fgets(line, sizeof line, fp) != NULL) {
		if (!parse_offgrid(line, &o) || seen++ % step != 0)
			continue;
		snprintf(key, sizeof key, "%s/%s", o.arch, o.wtype);
		if (strcmp(key, have) != 0) {
			if (model != NULL) {
				unlink(model);
				free(model);
			}
			model = test_tmpfile("", 0);
			cr_assert(oraclegen_write(o.arch, o.wtype, model, why,
				      sizeof why) == 0,
			    "oraclegen: %s", why);
			snprintf(have, sizeof have, "%s", key);
		}
		check_offgrid(model, profile, runtime, &o);
		n++;
	}
	fclose(fp);
	if (model != NULL) {
		unlink(model);
		free(model);
	}
	free(table);
	return n;
}

/* The off-grid block's rows: 240 (five models, 48 settings each). */
#define OFFGRID_ROWS 240

/* With the limits from the profile (llvmpipe's: write_profile), no
 * runtime: every row (under valgrind and the sanitizer a sample). */
Test(graph, offgrid_block_is_llamas_own, .timeout = 300)
{
	unsigned step = test_sample_step(VALGRIND_STEP, ASAN_STEP);
	char *profile = write_profile("vulkan");
	size_t n = offgrid_rows(profile, NULL, step);

	cr_expect_geq(n, (OFFGRID_ROWS + step - 1) / step,
	    "only %zu off-grid rows", n);
	unlink(profile);
	free(profile);
}

/* nftw's callback: removes each entry, the folders after their
 * contents. */
static int
rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

/* With the largest tensor probed on llvmpipe (the profile states only
 * host_max_alloc, which a probe does not measure): every fourth row (in
 * the sanitizer build every sixteenth). */
Test(graph, offgrid_block_probed_is_llamas_own, .timeout = 300)
{
	static const char yaml[] = "name: graph_probed\n"
				   "description: llvmpipe, probed\n"
				   "runtime: llama.cpp\nbackend: vulkan\n"
				   "cpu_features: [avx2, f16c, fma]\n"
				   "memory: 64 GiB\ndevice_memory: 8 GiB\n"
				   "host_max_alloc: 1 GiB\nreserve: 1 GiB\n"
				   "weights: mapped\nstrict: false\n"
				   "context: 4096\nkv_cache: f16\n"
				   "ubatch: 512\nflash_attention: true\n";
	const char *llama = getenv("GGUFLINT_LLAMA");
	char *tmp, *profile, *rt, *lib, *cache;
	size_t n;

	if (test_valgrind_step(2) > 1)
		cr_skip_test("make check-valgrind: gguflint's probe would run "
			     "ggml-vulkan under memcheck (make check runs "
			     "it)");
	rt = xasprintf("%s/vulkan",
	    llama != NULL ? llama : "/opt/gguflint-ci/llama");
	lib = xasprintf("%s/libggml-vulkan.so", rt);
	if (access(lib, R_OK) != 0) {
		free(lib);
		free(rt);
		cr_skip_test("no llama.cpp Vulkan backend in "
			     "$GGUFLINT_LLAMA");
	}
	tmp = test_tmpfile(yaml, sizeof yaml - 1);
	profile = xasprintf("%s.yaml", tmp);
	cr_assert(rename(tmp, profile) == 0);
	cache = test_tmpfile("", 0);
	unlink(cache);
	cr_assert(mkdir(cache, 0700) == 0);
	setenv("XDG_CACHE_HOME", cache, 1);
	setenv("GGML_VK_VISIBLE_DEVICES", "0", 1);
	n = offgrid_rows(profile, rt, 4 * test_sample_step(1, 4));
	cr_expect_geq(n, 1, "no off-grid rows");
	nftw(cache, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
	unlink(profile);
	free(cache);
	free(profile);
	free(tmp);
	free(lib);
	free(rt);
}

/* A Vulkan profile that states no limit, with no probe: the plan says
 * placed_no_limits, and what it did not know. */
Test(graph, plan_without_limits_says_so, .timeout = 60)
{
	static const char yaml[] = "name: nolimits\ndescription: no limits\n"
				   "runtime: llama.cpp\nbackend: vulkan\n"
				   "memory: 64 GiB\ndevice_memory: 8 GiB\n"
				   "reserve: 1 GiB\nweights: mapped\n";
	char *tmp = test_tmpfile(yaml, sizeof yaml - 1);
	char *profile = xasprintf("%s.yaml", tmp);
	char *model = test_tmpfile("", 0);
	char why[256];
	const char *argv[] = { "--no-config", "--format", "json", "--plan",
		"-p", profile, "-ngl", "3", "--no-mmap", model, NULL };
	const char *text[] = { "--no-config", "--plan", "-p", profile, "-ngl",
		"3", "--no-mmap", model, NULL };
	struct test_run run;
	struct jsonnode *root;
	const struct jsonnode *plan, *lim;
	char *err = NULL;

	cr_assert(rename(tmp, profile) == 0);
	cr_assert(oraclegen_write("llama", "q8_0", model, why, sizeof why) == 0,
	    "oraclegen: %s", why);
	test_run_bin(&run, argv, NULL, 0);
	root = jsontree_parse(run.out, run.out_len, &err);
	cr_assert(root != NULL, "gguflint's JSON: %s", err);
	plan = jsontree_pointer(root, "/files/0/plan");
	cr_expect_str_eq(jsontree_str(jsontree_get(plan, "compute_basis")),
	    "placed_no_limits");
	lim = jsontree_get(plan, "device_limits");
	cr_assert(lim != NULL, "no device_limits");
	cr_expect(jsontree_get(lim, "known") != NULL &&
	    jsontree_get(lim, "known")->type == JSONTREE_BOOL &&
	    !jsontree_get(lim, "known")->boolean);
	cr_expect_str_eq(jsontree_str(jsontree_get(lim, "max_alloc_from")),
	    "unknown");
	cr_expect_str_eq(jsontree_str(jsontree_get(lim, "host_max_alloc_from")),
	    "unknown");
	jsontree_free(root);
	test_run_free(&run);
	test_run_bin(&run, text, NULL, 0);
	cr_expect(strstr(run.out,
		      "limits: largest tensor on Vulkan0 not "
		      "known") != NULL &&
		strstr(run.out, "planned as if there were none") != NULL,
	    "--plan's limits line: %s", run.out);
	test_run_free(&run);
	unlink(model);
	unlink(profile);
	free(model);
	free(profile);
	free(tmp);
}

/* The compute basis of model (oraclegen's arch, q8_0) on profile, and
 * --plan's text in *text (the caller frees it). */
static char *
basis_on(const char *arch, const char *profile, char **text)
{
	char *model = test_tmpfile("", 0), *basis;
	char why[256], *err = NULL;
	const char *argv[] = { "--no-config", "--format", "json", "--plan",
		"-p", profile, model, NULL };
	const char *targv[] = { "--no-config", "--plan", "-p", profile, model,
		NULL };
	struct test_run run;
	struct jsonnode *root;

	cr_assert(oraclegen_write(arch, "q8_0", model, why, sizeof why) == 0,
	    "oraclegen: %s", why);
	test_run_bin(&run, argv, NULL, 0);
	root = jsontree_parse(run.out, run.out_len, &err);
	cr_assert(root != NULL, "gguflint's JSON: %s", err);
	basis = xstrdup(jsontree_str(
	    jsontree_pointer(root, "/files/0/plan/compute_basis")));
	jsontree_free(root);
	test_run_free(&run);
	test_run_bin(&run, targv, NULL, 0);
	*text = xstrdup(run.out);
	test_run_free(&run);
	unlink(model);
	free(model);
	return basis;
}

/*
 * Beside CUDA (gpu_8gb) the graph is placed by ggml-cuda's rules read in
 * the source, a mixture of experts' too, and the plan says they are not
 * measured.
 */
Test(graph, cuda_places_from_the_source, .timeout = 60)
{
	const char *const archs[] = { "llama", "qwen3moe" };
	char *text, *b;
	size_t i;

	for (i = 0; i < 2; i++) {
		b = basis_on(archs[i], "gpu_8gb", &text);
		cr_expect_str_eq(b, "placed_from_source", "%s", archs[i]);
		cr_expect(strstr(text,
			      "ggml-cuda's rules as read in "
			      "llama.cpp v0.5.0's source: not "
			      "measured") != NULL,
		    "%s", text);
		free(b);
		free(text);
	}
}

/* A diffusion LM keeps no cache: beside CUDA its device has no cache bytes
 * either, whatever the cache types (ggml-cuda's padding of a quantized
 * cache's rows is a cache's). */
Test(graph, cuda_model_without_a_cache_has_none, .timeout = 60)
{
	char *model = test_tmpfile("", 0), why[256], *err = NULL;
	const char *argv[] = { "--no-config", "--format", "json", "--plan",
		"-p", "gpu_8gb", "-ctk", "q8_0", "-ctv", "q8_0", "-fa", "on",
		model, NULL };
	const struct jsonnode *kv;
	struct test_run run;
	struct jsonnode *root;
	int64_t v = -1;

	cr_assert(oraclegen_write("dream", "q8_0", model, why, sizeof why) == 0,
	    "oraclegen: %s", why);
	test_run_bin(&run, argv, NULL, 0);
	root = jsontree_parse(run.out, run.out_len, &err);
	cr_assert(root != NULL, "gguflint's JSON: %s", err);
	kv = jsontree_pointer(root, "/files/0/plan/devices/1/kv_bytes");
	cr_expect(jsontree_int64(kv, &v) && v == 0, "CUDA0 kv_bytes %lld",
	    (long long)v);
	jsontree_free(root);
	test_run_free(&run);
	unlink(model);
	free(model);
}
