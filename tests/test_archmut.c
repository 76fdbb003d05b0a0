/*
 * test_archmut.c - every architecture of the oracle's generator, through
 * llama.cpp's real model loader (tests/llama-load) and gguflint with a
 * llama.cpp profile, as the file is and as four mutants of it:
 *
 *  - the model as oraclegen writes it: llama.cpp loads it, and gguflint
 *    reports no N, M or F error on it (any would be a false alarm);
 *  - one tensor left out, renamed, reshaped, or another added beside it:
 *    where llama.cpp refuses the mutant, gguflint must refuse it with an
 *    error; where llama.cpp loads it (an optional tensor left out),
 *    gguflint must not call it an N, M or F error, unless llama.cpp then
 *    fails to make a context of it: the oracle client
 *    (tests/oracle/llama-oracle-cpu, no_alloc) reserves its graph, which
 *    crashes where the graph builder reads a tensor the loader took as
 *    optional. Such a tensor is required, and gguflint says so.
 *
 * Which tensor each mutant changes follows from the architecture's name
 * and GGUFLINT_ARCHMUT_SEED (default 0): set it to walk other tensors.
 * GGUFLINT_DIFF_KEEP keeps the files (their folder is logged).
 */
#if !defined(_GNU_SOURCE) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L
#endif

#include <criterion/criterion.h>
#include <criterion/logging.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/util.h"
#include "facts/arch.h"
#include "loader.h"
#include "oraclegen.h"
#include "testutil.h"

#define AM_KINDS 5 /* the file as it is, then the four mutations */
#define AM_WHAT 320

struct am_file {
	char *path;
	const char *arch;
	int kind; /* -1: as written; else an oraclegen_mutation */
	char what[AM_WHAT];
};

struct am_run {
	struct am_file *f;
	char **paths;
	size_t n;
	char dir[64];
};

static uint64_t
am_seed(void)
{
	const char *e = getenv("GGUFLINT_ARCHMUT_SEED");
	char *end;
	unsigned long long v;

	if (e == NULL || *e == '\0')
		return 0;
	errno = 0;
	v = strtoull(e, &end, 10);
	cr_assert(errno == 0 && *end == '\0',
	    "GGUFLINT_ARCHMUT_SEED=%s: expected a number", e);
	return v;
}

/* The index of the tensor a mutation of arch changes (FNV-1a). */
static size_t
am_pick(const char *arch, int kind, uint64_t seed)
{
	uint64_t h = 1469598103934665603ull ^ seed;

	for (const char *p = arch; *p != '\0'; p++)
		h = (h ^ (uint8_t)*p) * 1099511628211ull;
	h = (h ^ (uint64_t)kind) * 1099511628211ull;
	return (size_t)(h >> 17);
}

static void
am_add(struct am_run *run, const char *arch, int kind, uint64_t seed)
{
	struct am_file *f = &run->f[run->n];
	char why[256];
	int rc;

	f->path = xasprintf("%s/%s.%d.gguf", run->dir, arch, kind + 1);
	f->arch = arch;
	f->kind = kind;
	snprintf(f->what, sizeof f->what, "as written");
	rc = kind < 0 ?
	    oraclegen_write(arch, "q4_0", f->path, why, sizeof why) :
	    oraclegen_mutant(arch, "q4_0", f->path,
		(enum oraclegen_mutation)kind, am_pick(arch, kind, seed),
		f->what, sizeof f->what, why, sizeof why);
	cr_assert(rc == 0, "%s: %s", arch, why);
	run->paths[run->n++] = f->path;
}

/* The files of every architecture, into a fresh folder. */
static void
am_write(struct am_run *run)
{
	uint64_t seed = am_seed();
	size_t n_arch = 0;

	while (oraclegen_arch(n_arch) != NULL)
		n_arch++;
	snprintf(run->dir, sizeof run->dir, "/tmp/gguflint-archmut-XXXXXX");
	cr_assert(mkdtemp(run->dir) != NULL, "mkdtemp: %s", strerror(errno));
	run->f = xcalloc(n_arch * AM_KINDS, sizeof *run->f);
	run->paths = xcalloc(n_arch * AM_KINDS, sizeof *run->paths);
	run->n = 0;
	for (size_t a = 0; a < n_arch; a++)
		for (int k = -1; k < AM_KINDS - 1; k++)
			am_add(run, oraclegen_arch(a), k, seed);
}

static void
am_free(struct am_run *run)
{
	bool keep = getenv("GGUFLINT_DIFF_KEEP") != NULL;

	for (size_t i = 0; i < run->n; i++) {
		if (!keep)
			unlink(run->f[i].path);
		free(run->f[i].path);
	}
	if (!keep)
		rmdir(run->dir);
	free(run->f);
	free(run->paths);
}

/*
 * Where gguflint is stricter than llama.cpp on purpose: tensors llama.cpp
 * loads a file without, and reserves its graph, that gguflint requires.
 * A mutant leaving one out is judged by this table (the tensor's name
 * ends so), and each entry says why.
 */
static const struct {
	const char *archs, *tail, *why; /* archs: names, space-separated */
} am_stricter[] = {
	{ "kimi-linear", "_shexp.weight",
	    "llama.cpp builds the shared expert whatever it lacks: without "
	    "a matrix, ggml_add repeats the narrower output into the "
	    "residual, a wrong result, not an error" },
	{ "qwen3next qwen35 qwen35moe deepseek32 glm-dsa glm4moe",
	    "blk.0.attn_norm.weight",
	    "without it llama.cpp takes the file for an MTP-only draft and "
	    "every trunk tensor as optional; gguflint lints a model" },
};

/* The reason gguflint may refuse f where llama.cpp loads it, or NULL. */
static const char *
am_stricter_why(const struct am_file *f)
{
	size_t n = strcspn(f->what, " ");

	for (size_t i = 0; i < sizeof am_stricter / sizeof am_stricter[0];
	     i++) {
		size_t k = strlen(am_stricter[i].tail);
		if (f->kind == OG_MUT_DROP &&
		    oraclegen_word_in(am_stricter[i].archs, f->arch) &&
		    n >= k &&
		    strncmp(f->what + n - k, am_stricter[i].tail, k) == 0)
			return am_stricter[i].why;
	}
	return NULL;
}

/* Whether codes (error_codes') holds an N, M or F error. */
static bool
nmf_error(const char *codes)
{
	for (const char *p = codes; *p != '\0'; p++)
		if ((p == codes || p[-1] == ' ') &&
		    (*p == 'N' || *p == 'M' || *p == 'F'))
			return true;
	return false;
}

/* Whether llama.cpp makes a context of path (the oracle client exits 0:
 * the model loaded and its graph reserved); true when the client is
 * absent, so that gguflint's error stays unexplained. */
static bool
am_reserves(const char *path, const char *arch)
{
	const struct arch_info *a = arch_find(arch);
	/* a row that says llama.cpp aborts with flash attention: without */
	const char *fa = a != NULL && (a->quirks & ARCH_FA_ABORTS) != 0 ?
	    "fa=off" :
	    "fa=auto";
	const char *bin = getenv("GGUFLINT_BIN");
	const char *slash = bin != NULL ? strrchr(bin, '/') : NULL;
	char *client, *dir, *out;
	int st = 0;

	if (slash == NULL)
		return true;
	client = xasprintf("%.*s/tests/oracle/llama-oracle-cpu",
	    (int)(slash - bin), bin);
	dir = xasprintf("dir=%s/cpu", getenv("GGUFLINT_LLAMA"));
	if (access(client, X_OK) == 0) {
		const char *const argv[] = { client, path, dir, "ctx=512",
			"mmap=off", "alloc=off", fa, NULL };

		out = loader_run(argv, 60, &st);
		free(out);
	}
	free(client);
	free(dir);
	return st == 0;
}

/* One file's verdicts against each other; false (logged) when gguflint
 * disagrees with llama.cpp. */
static bool
am_judge(const struct am_file *f, char v, const char *reason)
{
	struct test_run r;
	bool comp, ok = true;
	const char *codes;
	int len = (int)strcspn(reason, "\n");

	comp = lint_as_model(f->path, &r);
	codes = error_codes(r.out);
	if (v != 'A')
		ok = f->kind >= 0 && lint_refuses(&r, comp);
	else if (nmf_error(codes) && f->kind >= 0 &&
	    !am_reserves(f->path, f->arch))
		ok = lint_refuses(&r, comp), v = 'G';
	else if (nmf_error(codes) && am_stricter_why(f) != NULL)
		cr_log_info("stricter on purpose: %s", am_stricter_why(f));
	else
		ok = !nmf_error(codes);
	/* G: llama.cpp loads it but fails on its graph */
	cr_log_info("%-16s %-54.54s llama.cpp %c | gguflint exit %d [%s] "
		    "| %.*s",
	    f->arch, f->what, v, r.status, codes, len, reason);
	if (!ok)
		cr_log_error("%s, %s: llama.cpp %s (%.*s) but gguflint exits "
			     "%d with [%s]:\n%s",
		    f->arch, f->what, v == 'A' ? "loads it" : "refuses it", len,
		    reason, r.status, codes, r.out);
	test_run_free(&r);
	return ok;
}

/* Whether the i-th file is judged. make check judges them all, valgrind
 * every step-th. The sanitizer build judges every architecture's file
 * as written, which runs the architecture's own checks on every tensor,
 * and one mutant of each, the mutation turning from one architecture to
 * the next, so that each of the four (the error paths they run are the
 * same for every architecture, from its table) is judged for some 35
 * architectures: 286 of the 715 runs, where each run's cost is mostly
 * the sanitizer's start (make check judges every pair). */
static bool
am_judged(size_t i, size_t step)
{
	size_t arch = i / AM_KINDS, kind = i % AM_KINDS;

	if (step > 1 || !test_asan_sampled())
		return i % step == 0;
	return kind == 0 || kind == 1 + arch % (AM_KINDS - 1);
}

Test(archmut, every_architecture_loads_and_its_mutants_are_judged_alike,
    .timeout = 900)
{
	char *prog = llama_load_bin(), *lines;
	struct am_run run;
	size_t wrong = 0, refused = 0, judged = 0, mutants = 0;
	size_t step = test_valgrind_step(28);

	if (prog == NULL || llama_base_lib() == NULL)
		cr_skip_test("tests/llama-load or llama.cpp's libraries are "
			     "absent: run build-aux/install-llama, then make "
			     "check");
	am_write(&run);
	cr_log_info("the files: %s", run.dir);
	lines = loader_verdicts(prog, run.paths, run.n);
	for (size_t i = 0; i < run.n; i++) {
		const char *reason = "";
		char v = '?';

		if (!am_judged(i, step))
			continue;
		cr_assert(verdict_of(lines, run.f[i].path, &v, &reason) != NULL,
		    "no verdict for %s", run.f[i].path);
		refused += v != 'A';
		judged++;
		mutants += run.f[i].kind >= 0;
		cr_expect(run.f[i].kind >= 0 || v == 'A',
		    "llama.cpp does not load the generated %s model: %c %s",
		    run.f[i].arch, v, reason);
		wrong += !am_judge(&run.f[i], v, reason);
	}
	cr_log_info("architecture mutants: %zu files (%zu judged), llama.cpp "
		    "refused %zu, gguflint judged %zu otherwise",
	    run.n, judged, refused, wrong);
	/* over half the files when all are judged: 5 in 8 of the mutants */
	cr_expect(refused * 8 > mutants * 5,
	    "only %zu of %zu mutants refused: the mutations miss the loader",
	    refused, mutants);
	cr_assert(wrong == 0,
	    "gguflint and llama.cpp disagree on %zu files "
	    "(logged above)",
	    wrong);
	free(lines);
	free(prog);
	am_free(&run);
}
