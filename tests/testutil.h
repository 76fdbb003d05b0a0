/*
 * testutil.h - helpers for the Criterion tests: lint a byte buffer in
 * process, count its diagnostics, and run the gguflint binary capturing
 * its output and exit status.
 */
#ifndef GGUFLINT_TESTUTIL_H
#define GGUFLINT_TESTUTIL_H

#include <stddef.h>

#include "findings/catalog.h"
#include "lint.h"

/* An in-process lint of one buffer (written to a temporary file). */
struct test_lint {
	struct catalog cat;
	struct lint_result res;
	char *path;
};

/* test_lint_bytes: lint n bytes at p; asserts on operational failure. */
void test_lint_bytes(struct test_lint *t, const void *p, size_t n);
/* test_lint_bytes_profile: the same under profile prof (borrowed: it must
 * outlive t), without a capability table. */
void test_lint_bytes_profile(struct test_lint *t, const void *p, size_t n,
    const struct profile *prof);
void test_lint_free(struct test_lint *t);
/* test_count: diagnostics with this code. */
size_t test_count(const struct test_lint *t, const char *code);
/* test_errors: diagnostics of severity error (what makes exit status 1). */
size_t test_errors(const struct test_lint *t);
/* test_find: the first diagnostic with this code, or NULL. */
const struct diag *test_find(const struct test_lint *t, const char *code);
/* test_codes: all codes, space-separated, for failure messages (static). */
const char *test_codes(const struct test_lint *t);

/* test_tmpfile: write n bytes to a new temporary file; caller frees and
 * unlinks the returned path. */
char *test_tmpfile(const void *p, size_t n);

/* The result of running the gguflint binary. */
struct test_run {
	int status;		/* exit status, or 128+signal */
	char *out;		/* stdout, NUL-terminated */
	size_t out_len;
	char *err;		/* stderr */
};

/*
 * test_run_bin: run $GGUFLINT_BIN with argv (NULL-terminated, without the
 * program name); stdout to stdout_path when not NULL (e.g. "/dev/full").
 * as_limit, when non-zero, is an address-space limit (RLIMIT_AS) in bytes.
 */
void test_run_bin(struct test_run *r, const char *const argv[],
    const char *stdout_path, unsigned long long as_limit);
void test_run_free(struct test_run *r);

/*
 * test_tree_files: the paths of the files below root (recursively, hidden
 * entries skipped) whose names end in suffix, sorted; *n is their count.
 * The caller frees each path and the array (test_tree_files_free).
 */
char **test_tree_files(const char *root, const char *suffix, size_t *n);
void test_tree_files_free(char **paths, size_t n);

/*
 * test_llama_profile: the YAML of a llama.cpp profile named name for the
 * oracle's host: backend ("cpu", "vulkan", ...; a device of 8 GiB beside
 * a GPU; beside Vulkan llvmpipe's limits, max_alloc 128 MiB and
 * host_max_alloc 1 GiB), cpu_features features (a YAML list), 64 GiB of
 * memory, f16 cache, ubatch 512, FA on. The caller frees it.
 */
/*
 * test_remote_env: the environment of a remote test: no proxy (loopback
 * only), no token or endpoint, no CA override, and a cache folder of its
 * own (none cached yet), made from /tmp/gguflint-TAG-XXXXXX into dir (n
 * bytes) and set as XDG_CACHE_HOME. test_remote_env_done removes it.
 */
void test_remote_env(char *dir, size_t n, const char *tag);
void test_remote_env_done(const char *dir);

char *test_llama_profile(const char *name, const char *description,
    const char *backend, const char *features);

/* test_slurp: the whole file at path, NUL-terminated (the caller frees
 * it), or NULL when it cannot be read. */
char *test_slurp(const char *path);

/* test_srcdir: $GGUFLINT_SRCDIR or "." */
const char *test_srcdir(void);

/* 1 when built with AddressSanitizer or run under valgrind
 * ($GGUFLINT_VALGRIND): address-space limits do not apply there. */
int test_have_asan(void);

/*
 * test_valgrind_step: under make check-valgrind ($GGUFLINT_VALGRIND), where
 * every run of gguflint is under memcheck and some fifty times slower,
 * how many of a long list of like cases a test takes one of (n: every
 * n-th); 1 elsewhere.
 */
unsigned test_valgrind_step(unsigned n);

/*
 * test_sample_step: the same for lists that the sanitizer build samples
 * too: valgrind under make check-valgrind, asan in a build with
 * AddressSanitizer (unless $GGUFLINT_SAMPLE_ALL is set), 1 elsewhere.
 * make check holds every case; the sanitizer's and valgrind's stages
 * hold the code that every case runs to memory safety.
 */
unsigned test_sample_step(unsigned valgrind, unsigned asan);

/* test_asan_sampled: 1 where test_sample_step takes its asan step (the
 * sanitizer build, without $GGUFLINT_SAMPLE_ALL), for a sample that is
 * not every n-th case. */
int test_asan_sampled(void);

/*
 * TEST_SKIP_UNDER_VALGRIND: skip a test that runs no gguflint (it calls
 * the library in-process or a runtime in a child), under make
 * check-valgrind: memcheck watches only gguflint's runs, so it would see
 * nothing there that make check did not.
 */
#define TEST_SKIP_UNDER_VALGRIND()                                           \
	do {                                                                 \
		if (test_valgrind_step(2) > 1)                               \
			cr_skip_test("make check-valgrind: this test runs "  \
			    "no gguflint, so memcheck has nothing to watch " \
			    "(make check runs it)");                          \
	} while (0)

#endif
