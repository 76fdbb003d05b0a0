/*
 * test_differential.c - gguflint held against ggml's own GGUF loader: every
 * file that llama.cpp's gguf_init_from_*() refuses must be an F-family
 * error for gguflint ("never pass what llama.cpp refuses", issue 17).
 *
 * The oracle is the real libggml-base.so of the pinned llama.cpp build
 * ($GGUFLINT_LLAMA/cpu, installed by build-aux/install-llama), loaded with
 * dlopen in a forked child, called as llama.cpp's model loader calls it
 * (no_alloc, with a ggml context, so that the tensor infos are checked as
 * well). A child that crashes or hangs on a file is restarted from the
 * next file, and the file counts as refused.
 *
 * The files: the golden cases and the corpus as they are, and mutants of
 * them made from a fixed seed (bytes, bits, aligned fields set to edge
 * values, truncations, all in the header), GGUFLINT_DIFF_MUTANTS of them
 * (default 1500; raise it to fuzz longer). Where gguflint reports an F
 * error that ggml accepts (gguflint is stricter), the test only counts it.
 *
 * The second test does the same one level up, with llama.cpp's model
 * loader (tests/llama-load, built by make check where the headers of the
 * pinned build are installed): every file of the golden cases and the
 * corpus that libllama refuses must make gguflint, with a llama.cpp
 * profile, exit 1 with an error; the table of both verdicts is logged.
 * That is judged by the file's role: a companion (a projector, an
 * adapter: gguflint says P010 of it linted alone) is checked alone as a
 * companion, not loaded as a model; so it is judged as the main model of
 * a lint with companions (given itself as its --mmproj), where llama.cpp's
 * refusal must be gguflint's M022 error.
 *
 * A big-endian file (F005) is not judged: ggml refuses it on this
 * little-endian host whatever else is wrong, and loads it on a big-endian
 * one, so F005 is a warning by design.
 */
#if !defined(_GNU_SOURCE) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L
#endif

#include <criterion/criterion.h>
#include <criterion/logging.h>
#include <dlfcn.h>
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/util.h"
#include "loader.h"
#include "reader/gguf.h"
#include "shared_path.h"
#include "testutil.h"

#define DIFF_DEFAULT_MUTANTS 1500
#define DIFF_CHILD_SECONDS 60
#define DIFF_REASON_MAX 200

/* gguf.h's struct gguf_init_params (a fact of the ABI, stable since 2023) */
struct ggml_gguf_params {
	bool no_alloc;
	void **ctx;
};

struct ggml_fns {
	void *(*init_buffer)(const void *, size_t, struct ggml_gguf_params);
	void (*gguf_free)(void *);
	void (*ctx_free)(void *);
	void (*log_set)(void (*)(int, const char *, void *), void *);
};

/* One file of the run: a seed as it is, or mutant k of a seed. */
struct diff_file {
	uint8_t *p;
	size_t n;
	char label[160];
};

struct diff_seeds {
	char **paths;
	size_t n;
};

/* What the oracle said of one file: 'A' accepted, 'R' refused, 'C' its
 * child crashed, 'H' it hung; reason: ggml's last error line. */
struct diff_verdict {
	char v;
	char reason[DIFF_REASON_MAX];
};


/*
 * The seeds and their mutants.
 */

static uint64_t
rng_next(uint64_t *s)
{
	/* xorshift64* */
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 2685821657736338717ull;
}

static void
seeds_add_tree(struct diff_seeds *sd, const char *root)
{
	size_t n, i;
	char **v = test_tree_files(root, ".gguf", &n);

	for (i = 0; i < n; i++) {
		sd->paths = xreallocarray(sd->paths, sd->n + 1,
		    sizeof *sd->paths);
		sd->paths[sd->n++] = xstrdup(v[i]);
	}
	test_tree_files_free(v, n);
}

static void
seeds_load(struct diff_seeds *sd)
{
	static const char *const trees[] = { "gguf-py-generated",
		"zackshen-gguf" };
	const char *shared = test_shared_dir();
	char *cases = xasprintf("%s/tests/cases", test_srcdir());
	size_t i;

	memset(sd, 0, sizeof *sd);
	seeds_add_tree(sd, cases);
	cr_assert(sd->n >= 10, "only %zu seed files under %s", sd->n,
	    cases);
	free(cases);
	if (shared == NULL) {
		/* the corpus is optional: the golden cases still run */
		cr_log_warn("../shared is absent: the seeds are tests/cases "
		    "only, without the corpus");
		return;
	}
	for (i = 0; i < sizeof trees / sizeof trees[0]; i++) {
		char *dir = xasprintf("%s/corpus/%s", shared, trees[i]);

		seeds_add_tree(sd, dir);
		free(dir);
	}
}

static void
seeds_free(struct diff_seeds *sd)
{
	size_t i;

	for (i = 0; i < sd->n; i++)
		free(sd->paths[i]);
	free(sd->paths);
}

static uint8_t *
read_whole(const char *path, size_t *n)
{
	FILE *fp = fopen(path, "rb");
	uint8_t *p;
	long len;

	cr_assert(fp != NULL, "%s: %s", path, strerror(errno));
	cr_assert(fseek(fp, 0, SEEK_END) == 0 && (len = ftell(fp)) >= 0);
	rewind(fp);
	p = xmalloc(len > 0 ? (size_t)len : 1);
	cr_assert(fread(p, 1, (size_t)len, fp) == (size_t)len);
	fclose(fp);
	*n = (size_t)len;
	return p;
}

/* The end of the header region of a seed (its data offset, or its length
 * when the reader cannot say): mutations land before it. */
static size_t
header_end(const uint8_t *p, size_t n)
{
	struct gguf_file f;
	size_t end = n;

	gguf_open_mem(&f, "seed", p, n);
	if (f.data_offset > 0 && f.data_offset < n)
		end = (size_t)f.data_offset;
	gguf_close(&f);
	return end > 0 ? end : n;
}

static const uint64_t edge_values[] = {
	0, 1, 2, 3, 4, 0x7f, 0x80, 0xff, 0x100, 0xffff, 0x10000,
	0x7fffffff, 0x80000000, 0xffffffff, 0x100000000ull,
	0x7fffffffffffffffull, 0x8000000000000000ull, 0xffffffffffffffffull,
	0xfffffffffffffff0ull, 12, 13, 31, 32, 64, 255, 256,
};

#define N_EDGE (sizeof edge_values / sizeof edge_values[0])

static void
mutate_once(uint8_t *p, size_t *n, size_t hend, uint64_t *s)
{
	uint64_t r = rng_next(s), v;
	size_t at = hend > 0 ? (size_t)(rng_next(s) % hend) : 0;
	size_t w;

	switch (r % 5) {
	case 0:		/* a byte */
		p[at] = (uint8_t)rng_next(s);
		break;
	case 1:		/* a bit */
		p[at] ^= (uint8_t)(1u << (rng_next(s) % 8));
		break;
	case 2:		/* an edge value, 4 or 8 bytes, little-endian */
	case 3:
		v = edge_values[rng_next(s) % N_EDGE];
		w = r % 5 == 2 ? 4 : 8;
		at &= ~(size_t)3;
		for (size_t i = 0; i < w && at + i < *n; i++)
			p[at + i] = (uint8_t)(v >> (8 * i));
		break;
	default:	/* a truncation inside the header */
		*n = at;
		break;
	}
}

/* diff_make: file k of the run (k < nseeds: seed k as it is; otherwise a
 * mutant of seed k % nseeds), the same in every process for the same k. */
static void
diff_make(const struct diff_seeds *sd, size_t k, struct diff_file *df)
{
	const char *path = sd->paths[k % sd->n];
	const char *base = strrchr(path, '/');
	uint64_t s = 0x9e3779b97f4a7c15ull ^ ((uint64_t)k << 17) ^ k;
	size_t hend, m, i;

	df->p = read_whole(path, &df->n);
	base = base != NULL ? base + 1 : path;
	if (k < sd->n) {
		snprintf(df->label, sizeof df->label, "%s", base);
		return;
	}
	snprintf(df->label, sizeof df->label, "%s mutant %zu", base, k);
	hend = header_end(df->p, df->n);
	m = 1 + (size_t)(rng_next(&s) % 3);
	for (i = 0; i < m && df->n > 0; i++)
		mutate_once(df->p, &df->n, hend < df->n ? hend : df->n, &s);
}

/*
 * The oracle, in a child process.
 */

static char last_error[DIFF_REASON_MAX];

static void
oracle_log(int level, const char *text, void *ud)
{
	(void)ud;
	if (level >= 4 && text != NULL && strlen(text) > 1) /* ERROR */
		snprintf(last_error, sizeof last_error, "%s", text);
}

static int
oracle_bind(const char *lib, struct ggml_fns *fn)
{
	void *h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);

	if (h == NULL)
		return -1;
	*(void **)&fn->init_buffer = dlsym(h, "gguf_init_from_buffer");
	*(void **)&fn->gguf_free = dlsym(h, "gguf_free");
	*(void **)&fn->ctx_free = dlsym(h, "ggml_free");
	*(void **)&fn->log_set = dlsym(h, "ggml_log_set");
	return fn->init_buffer && fn->gguf_free && fn->ctx_free &&
	    fn->log_set ? 0 : -1;
}

/* In the child: the verdict of every file from `from` on, one line each
 * ("A", or "R reason") on fd. */
static void
oracle_child(const char *lib, const struct diff_seeds *sd, size_t from,
    size_t total, int fd)
{
	struct ggml_fns fn;
	FILE *out = fdopen(fd, "w");

	alarm(DIFF_CHILD_SECONDS);
	if (out == NULL || oracle_bind(lib, &fn) != 0)
		_exit(3);
	fn.log_set(oracle_log, NULL);
	for (size_t k = from; k < total; k++) {
		struct diff_file df;
		void *ctx = NULL;
		struct ggml_gguf_params gp = { true, &ctx };
		void *g;

		diff_make(sd, k, &df);
		last_error[0] = '\0';
		g = df.n > 0 ? fn.init_buffer(df.p, df.n, gp) : NULL;
		if (g != NULL) {
			fn.gguf_free(g);
			if (ctx != NULL)
				fn.ctx_free(ctx);
		}
		strtok(last_error, "\n");
		fprintf(out, "%s%s\n", g != NULL ? "A" : "R ",
		    g != NULL ? "" : last_error);
		fflush(out);
		free(df.p);
	}
	fclose(out);
	_exit(0);
}

/* Run the children until every file has a verdict. */
static void
oracle_run(const char *lib, const struct diff_seeds *sd, size_t total,
    struct diff_verdict *vd)
{
	size_t k = 0;

	while (k < total) {
		int fds[2], status;
		pid_t pid;
		FILE *in;
		char line[DIFF_REASON_MAX];

		cr_assert(pipe(fds) == 0);
		fflush(NULL);
		pid = fork();
		cr_assert(pid >= 0);
		if (pid == 0) {
			close(fds[0]);
			oracle_child(lib, sd, k, total, fds[1]);
		}
		close(fds[1]);
		in = fdopen(fds[0], "r");
		cr_assert(in != NULL);
		while (k < total && fgets(line, sizeof line, in) != NULL) {
			strtok(line, "\n");
			vd[k].v = line[0];
			memset(vd[k].reason, 0, sizeof vd[k].reason);
			if (line[0] == 'R' && line[1] != '\0')
				memcpy(vd[k].reason, line + 2,
				    strnlen(line + 2, DIFF_REASON_MAX - 3));
			k++;
		}
		fclose(in);
		cr_assert(waitpid(pid, &status, 0) == pid);
		cr_assert(!WIFEXITED(status) || WEXITSTATUS(status) != 3,
		    "cannot load %s in the child", lib);
		if (k < total && WIFSIGNALED(status)) {
			vd[k].v = WTERMSIG(status) == SIGALRM ? 'H' : 'C';
			snprintf(vd[k].reason, sizeof vd[k].reason,
			    "ggml died of signal %d", WTERMSIG(status));
			k++;
		}
	}
}

/*
 * gguflint's side, in process.
 */

static size_t
f_errors(const struct test_lint *t)
{
	size_t i, n = 0;

	for (i = 0; i < t->res.diags.n; i++) {
		const struct diag *d = &t->res.diags.v[i];

		if (d->rule->code[0] == 'F' && d->severity == SEV_ERROR)
			n++;
	}
	return n;
}

static size_t
diff_mutants(void)
{
	const char *e = getenv("GGUFLINT_DIFF_MUTANTS");
	char *end;
	unsigned long long v;

	if (e == NULL || *e == '\0')
		return DIFF_DEFAULT_MUTANTS;
	errno = 0;
	v = strtoull(e, &end, 10);
	cr_assert(errno == 0 && *end == '\0' && v <= 10000000,
	    "GGUFLINT_DIFF_MUTANTS=%s: expected a count", e);
	return (size_t)v;
}

Test(differential, ggml_refuses_implies_f_error, .timeout = 600)
{
	const char *lib = llama_base_lib();
	struct diff_seeds sd;
	struct diff_verdict *vd;
	size_t total, k, refused = 0, stricter = 0, missed = 0;
	size_t byteorder = 0;

	if (lib == NULL)
		cr_skip_test("llama.cpp's libggml-base.so is not installed "
		    "($GGUFLINT_LLAMA/cpu): run build-aux/install-llama");
	seeds_load(&sd);
	total = sd.n + diff_mutants();
	vd = xcalloc(total, sizeof *vd);
	oracle_run(lib, &sd, total, vd);
	for (k = 0; k < total; k++) {
		struct diff_file df;
		struct test_lint t;
		size_t fe;

		diff_make(&sd, k, &df);
		test_lint_bytes(&t, df.p, df.n);
		fe = f_errors(&t);
		if (test_count(&t, "F005") > 0) {
			/* big-endian: ggml on a little-endian host refuses
			 * it whatever else is wrong, and on a big-endian one
			 * loads it, so its verdict here says nothing */
			byteorder++;
		} else if (vd[k].v != 'A') {
			refused++;
			if (fe == 0 && missed++ < 20)
				cr_log_error("%s: ggml refuses it (%c: %s) "
				    "but gguflint reports no F error: %s",
				    df.label, vd[k].v, vd[k].reason,
				    test_codes(&t));
		} else if (fe > 0) {
			stricter++;
		}
		test_lint_free(&t);
		free(df.p);
	}
	cr_log_info("differential: %zu files (%zu seeds; %zu big-endian, "
	    "not judged), ggml refused %zu, gguflint missed %zu, gguflint "
	    "stricter on %zu", total, sd.n, byteorder, refused, missed,
	    stricter);
	cr_expect(refused > total / 10, "only %zu of %zu refused: the "
	    "mutator is not reaching the loader's checks", refused, total);
	cr_assert(missed == 0, "%zu files ggml refuses pass gguflint's F "
	    "checks (the first 20 are logged above)", missed);
	free(vd);
	seeds_free(&sd);
}

/*
 * llama.cpp's model loader against gguflint with a llama.cpp profile.
 */


/*
 * Files llama.cpp refuses that gguflint passes today, each with why: the
 * known gaps. The test fails on any other such file, and on a gap listed
 * here that is closed (remove it with the change that closes it).
 */
static const struct {
	const char *file, *why;
} known_gaps[] = {
	{ NULL, NULL }, /* the last entry */
};

static bool
is_known_gap(const char *base, bool *seen)
{
	for (size_t i = 0; known_gaps[i].file != NULL; i++)
		if (strcmp(base, known_gaps[i].file) == 0) {
			seen[i] = true;
			return true;
		}
	return false;
}





/* Whether a seed of this base name is in the run (the corpus is
 * optional). */
static bool
has_seed(const struct diff_seeds *sd, const char *base)
{
	for (size_t i = 0; i < sd->n; i++)
		if (strcmp(strrchr(sd->paths[i], '/') + 1, base) == 0)
			return true;
	return false;
}



Test(differential, llama_refuses_implies_error, .timeout = 600)
{
	char *prog = llama_load_bin(), *lines;
	struct diff_seeds sd;
	size_t i, missed = 0, refused = 0, gaps = 0, step;
	bool seen[sizeof known_gaps / sizeof known_gaps[0]] = { false };

	if (prog == NULL || llama_base_lib() == NULL)
		cr_skip_test("tests/llama-load or llama.cpp's libraries are "
		    "absent: run build-aux/install-llama, then make check");
	seeds_load(&sd);
	lines = loader_verdicts(prog, sd.paths, sd.n);
	/* under memcheck, every fourth file (the corpus runs of make
	 * check-valgrind see them all) */
	step = test_valgrind_step(8);
	for (i = 0; i < sd.n; i += step) {
		const char *reason, *codes;
		struct test_run r;
		bool comp;
		char v = '?';
		int len;

		cr_assert(verdict_of(lines, sd.paths[i], &v, &reason) != NULL,
		    "no verdict for %s", sd.paths[i]);
		len = (int)strcspn(reason, "\n");
		comp = lint_as_model(sd.paths[i], &r);
		codes = error_codes(r.out);
		cr_log_info("llama.cpp %c | gguflint exit %d [%s]%s | %s | "
		    "%.*s", v, r.status, codes, comp ? " as main model" : "",
		    strrchr(sd.paths[i], '/') + 1, len, reason);
		if (v != 'A' && v != 'V') {
			refused++;
			if (!lint_refuses(&r, comp) &&
			    is_known_gap(strrchr(sd.paths[i], '/') + 1, seen))
				gaps++;
			else if (!lint_refuses(&r, comp)) {
				missed++;
				cr_log_error("%s: llama.cpp refuses it (%.*s) "
				    "but gguflint exits %d", sd.paths[i], len,
				    reason, r.status);
			}
		}
		test_run_free(&r);
	}
	cr_log_info("llama loader: %zu files, llama.cpp refused %zu, "
	    "gguflint passed %zu of those (%zu known gaps)", sd.n, refused,
	    missed + gaps, gaps);
	cr_assert(missed == 0, "%zu files llama.cpp refuses pass gguflint "
	    "(-p %s)", missed, LOADER_PROFILE);
	for (i = 0; step == 1 && known_gaps[i].file != NULL; i++)
		cr_expect(seen[i] || !has_seed(&sd, known_gaps[i].file),
		    "%s is listed as a known gap (%s) but gguflint now "
		    "refuses it: remove it from known_gaps", known_gaps[i].file,
		    known_gaps[i].why);
	free(lines);
	free(prog);
	seeds_free(&sd);
}

/*
 * The same property on mutants: the first GGUFLINT_DIFF_LLAMA_MUTANTS
 * (default 300) mutants of the run above, written to files, through
 * llama.cpp's model loader and gguflint with a llama.cpp profile. A mutant
 * of an architecture gguflint has no name map for (N005, which says that
 * its tensors are not checked) is counted, not judged: that gguflint
 * cannot see a tensor llama.cpp misses there is what N005 reports.
 */
static size_t
llama_mutants(void)
{
	const char *e = getenv("GGUFLINT_DIFF_LLAMA_MUTANTS");
	char *end;
	unsigned long v;

	if (e == NULL || *e == '\0')
		return 300;
	errno = 0;
	v = strtoul(e, &end, 10);
	cr_assert(errno == 0 && *end == '\0' && v <= 100000,
	    "GGUFLINT_DIFF_LLAMA_MUTANTS=%s: expected a count", e);
	return (size_t)v;
}

/* Mutant files of the seeds: paths in mf (free with seeds_free). */
static void
write_mutants(const struct diff_seeds *sd, size_t n, struct diff_seeds *mf)
{
	memset(mf, 0, sizeof *mf);
	mf->paths = xcalloc(n + 1, sizeof *mf->paths);
	for (size_t k = 0; k < n; k++) {
		struct diff_file df;

		diff_make(sd, sd->n + k, &df);
		mf->paths[mf->n++] = test_tmpfile(df.p, df.n);
		free(df.p);
	}
}

Test(differential, llama_refuses_mutants_implies_error, .timeout = 900)
{
	char *prog = llama_load_bin(), *lines;
	struct diff_seeds sd, mf;
	size_t i, missed = 0, refused = 0, unmapped = 0;

	if (prog == NULL || llama_base_lib() == NULL)
		cr_skip_test("tests/llama-load or llama.cpp's libraries are "
		    "absent: run build-aux/install-llama, then make check");
	seeds_load(&sd);
	write_mutants(&sd, llama_mutants(), &mf);
	lines = loader_verdicts(prog, mf.paths, mf.n);
	for (i = 0; i < mf.n; i++) {
		const char *reason;
		struct test_run r;
		bool comp;
		char v = '?';

		cr_assert(verdict_of(lines, mf.paths[i], &v, &reason) != NULL,
		    "no verdict for %s", mf.paths[i]);
		if (v != 'A' && v != 'V') {
			refused++;
			comp = lint_as_model(mf.paths[i], &r);
			if (strstr(r.out, " N005 ") != NULL &&
			    !lint_refuses(&r, comp))
				unmapped++;	/* no name map: not judged */
			else if (!lint_refuses(&r, comp) && missed++ < 20)
				cr_log_error("mutant %zu (%s) of %s: llama.cpp "
				    "refuses it (%.*s) but gguflint exits %d: "
				    "%s", i, mf.paths[i],
				    strrchr(sd.paths[i % sd.n], '/') + 1,
				    (int)strcspn(reason, "\n"), reason,
				    r.status, r.out);
			test_run_free(&r);
		}
		if (getenv("GGUFLINT_DIFF_KEEP") == NULL)
			unlink(mf.paths[i]);
	}
	cr_log_info("llama loader, mutants: %zu files, llama.cpp refused "
	    "%zu, gguflint passed %zu of those (and %zu of an architecture "
	    "it has no name map for, not judged)", mf.n, refused, missed,
	    unmapped);
	cr_assert(missed == 0, "%zu mutants llama.cpp refuses pass gguflint "
	    "(-p %s; the first 20 are logged)", missed, LOADER_PROFILE);
	free(lines);
	free(prog);
	seeds_free(&mf);
	seeds_free(&sd);
}
