/*
 * test_scan.c - scans of many models: --format jsonl (a line per file,
 * per unread input, and a summary line), --files-from (a list of inputs)
 * and --shard I/N (every model in exactly one shard, whatever the order
 * of the list), --jobs N (the same report as one job).
 */
#include "config.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/util.h"
#include "jsontree.h"
#include "testutil.h"

#define N_MODELS 12

/* models: N_MODELS copies of the example (a fresh file each), one with
 * its data cut off (an F010 error), their paths in p. */
static void
models(char *p[N_MODELS])
{
	char *path = xasprintf("%s/examples/stories260K.gguf", test_srcdir());
	char *bytes = test_slurp(path);
	FILE *f = fopen(path, "rb");
	long n;

	cr_assert(bytes != NULL && f != NULL, "%s", path);
	cr_assert(fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) > 100000);
	fclose(f);
	for (size_t i = 0; i < N_MODELS; i++)
		p[i] = test_tmpfile(bytes, i == 0 ? 100000 : (size_t)n);
	free(bytes);
	free(path);
}

static void
models_free(char *p[N_MODELS])
{
	for (size_t i = 0; i < N_MODELS; i++) {
		unlink(p[i]);
		free(p[i]);
	}
}

/* list: a --files-from file of the paths p in the order ord (NULL: as
 * they are), with a comment, an empty line and CR LF line ends. */
static char *
list(char *p[N_MODELS], const size_t *ord)
{
	struct strbuf sb = STRBUF_INIT;
	char *path;

	strbuf_adds(&sb, "# the models\r\n\r\n");
	for (size_t i = 0; i < N_MODELS; i++)
		strbuf_addf(&sb, "%s\r\n", p[ord != NULL ? ord[i] : i]);
	path = test_tmpfile(sb.buf, sb.len);
	strbuf_free(&sb);
	return path;
}

/* lines: each line of out parsed, in n[0..]; returns the count. */
static size_t
lines(const char *out, struct jsonnode **v, size_t max)
{
	size_t n = 0;

	while (*out != '\0') {
		const char *nl = strchr(out, '\n');
		char *err = NULL;

		cr_assert(nl != NULL, "a line without its newline: %s", out);
		cr_assert(n < max, "more than %zu lines", max);
		v[n] = jsontree_parse(out, (size_t)(nl - out), &err);
		cr_assert(v[n] != NULL, "line %zu is not JSON (%s): %.*s",
		    n + 1, err, (int)(nl - out), out);
		n++;
		out = nl + 1;
	}
	return n;
}

static const char *
type(const struct jsonnode *line)
{
	return jsontree_str(jsontree_get(line, "type"));
}

static int64_t
num(const struct jsonnode *line, const char *key)
{
	int64_t v = -1;

	cr_assert(jsontree_int64(jsontree_get(line, key), &v), "no %s", key);
	return v;
}

/* jsonl: a line per file in order, its object the JSON report's; one for
 * the input that cannot be read; then the summary, which counts them. */
Test(scan, jsonl_has_a_line_per_file_and_a_summary)
{
	char *p[N_MODELS], *l;
	struct jsonnode *v[N_MODELS + 4];
	struct test_run r;
	size_t n;

	models(p);
	l = list(p, NULL);
	const char *argv[] = { "--no-config", "--format", "jsonl",
		"--files-from", l, "/nonexistent/m.gguf", NULL };
	test_run_bin(&r, argv, NULL, 0);
	cr_assert_eq(r.status, 2, "%s", r.err);
	n = lines(r.out, v, N_MODELS + 4);
	cr_assert_eq(n, N_MODELS + 2, "%s", r.out);
	cr_assert_str_eq(type(v[0]), "error");
	cr_assert_str_eq(jsontree_str(jsontree_get(v[0], "path")),
	    "/nonexistent/m.gguf");
	for (size_t i = 0; i < N_MODELS; i++) {
		const struct jsonnode *d = jsontree_get(v[i + 1],
		    "diagnostics");

		cr_assert_str_eq(type(v[i + 1]), "file");
		cr_assert_str_eq(jsontree_str(jsontree_get(v[i + 1], "path")),
		    p[i]);
		cr_assert(d != NULL && d->type == JSONTREE_ARRAY);
		cr_assert_eq(d->n, i == 0, "%zu diagnostics in line %zu", d->n,
		    i + 2);
		cr_assert(jsontree_get(v[i + 1], "plan") != NULL);
	}
	cr_assert_str_eq(type(v[n - 1]), "summary");
	cr_assert_eq(num(v[n - 1], "files"), N_MODELS);
	cr_assert_eq(num(v[n - 1], "unread"), 1);
	cr_assert_eq(num(v[n - 1], "errors"), 1);
	cr_assert_eq(num(v[n - 1], "exit_code"), 2);
	cr_assert_str_eq(jsontree_str(
			     jsontree_pointer(v[n - 1], "/gguflint/version")),
	    PACKAGE_VERSION);
	for (size_t i = 0; i < n; i++)
		jsontree_free(v[i]);
	test_run_free(&r);
	unlink(l);
	free(l);
	models_free(p);
}

/* shard_paths: the paths linted in shard i of n of the list l, as a
 * set: mark[k] counts model k's lines. */
static void
shard_paths(const char *l, unsigned i, unsigned n, char *p[N_MODELS],
    unsigned mark[N_MODELS])
{
	char shard[32];
	struct jsonnode *v[N_MODELS + 2];
	struct test_run r;
	size_t k, m;

	snprintf(shard, sizeof shard, "%u/%u", i, n);
	const char *argv[] = { "--no-config", "--format", "jsonl", "--shard",
		shard, "--files-from", l, NULL };
	test_run_bin(&r, argv, NULL, 0);
	cr_assert(r.status == 0 || r.status == 1, "%s: %d %s", shard, r.status,
	    r.err);
	m = lines(r.out, v, N_MODELS + 2);
	for (k = 0; k + 1 < m; k++) {
		const char *path = jsontree_str(jsontree_get(v[k], "path"));
		size_t j;

		for (j = 0; j < N_MODELS && strcmp(p[j], path) != 0; j++)
			;
		cr_assert(j < N_MODELS, "%s linted %s", shard, path);
		mark[j]++;
	}
	cr_assert_str_eq(type(v[m - 1]), "summary");
	for (k = 0; k < m; k++)
		jsontree_free(v[k]);
	test_run_free(&r);
}

/* Every model is in exactly one shard of N, and in the same one when the
 * list is reversed. */
Test(scan, shards_partition_the_models_in_any_order)
{
	static const unsigned ns[] = { 3, 1, 2, 5 };
	/* under valgrind, 3 parts alone: the lists are the same code */
	size_t n_ns = test_valgrind_step(4) > 1 ? 1 : sizeof ns / sizeof ns[0];
	size_t rev[N_MODELS];
	char *p[N_MODELS], *fwd, *bwd;

	models(p);
	for (size_t i = 0; i < N_MODELS; i++)
		rev[i] = N_MODELS - 1 - i;
	fwd = list(p, NULL);
	bwd = list(p, rev);
	for (size_t k = 0; k < n_ns; k++) {
		for (unsigned i = 1; i <= ns[k]; i++) {
			unsigned a[N_MODELS] = { 0 }, b[N_MODELS] = { 0 };

			shard_paths(fwd, i, ns[k], p, a);
			shard_paths(bwd, i, ns[k], p, b);
			cr_assert(memcmp(a, b, sizeof a) == 0,
			    "shard %u/%u "
			    "differs when the list is reversed",
			    i, ns[k]);
		}
	}
	for (size_t k = 0; k < n_ns; k++) {
		unsigned seen[N_MODELS] = { 0 };

		for (unsigned i = 1; i <= ns[k]; i++)
			shard_paths(fwd, i, ns[k], p, seen);
		for (size_t j = 0; j < N_MODELS; j++)
			cr_assert_eq(seen[j], 1, "model %zu in %u of %u shards",
			    j, seen[j], ns[k]);
	}
	unlink(fwd);
	unlink(bwd);
	free(fwd);
	free(bwd);
	models_free(p);
}

/* Usage errors (exit 2, said on stderr): a shard outside 1..N, no N; a
 * list that cannot be read; the list and a model both on stdin. */
Test(scan, bad_shards_and_lists_are_usage_errors)
{
	static const struct {
		const char *a[4], *say;
	} cases[] = {
		{ { "--shard", "0/3", "m.gguf" }, "--shard: expected I/N" },
		{ { "--shard", "4/3", "m.gguf" }, "--shard: expected I/N" },
		{ { "--shard", "3", "m.gguf" }, "--shard: expected I/N" },
		{ { "--shard", "1/x", "m.gguf" }, "--shard: expected I/N" },
		{ { "--files-from", "/nonexistent/list", NULL },
		    "--files-from /nonexistent/list: No such file" },
		{ { "--files-from", "-", "-" }, "both read standard input" },
		{ { "--jobs", "0", "m.gguf" }, "--jobs: expected a number" },
		{ { "-j", "x", "m.gguf" }, "--jobs: expected a number" },
		{ { "--jobs", "1025", "m.gguf" }, "--jobs: expected a number" },
		{ { "--max-per-host", "0", "m.gguf" },
		    "--max-per-host: expected a number" },
	};
	struct test_run r;

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const char *argv[] = { "--no-config", cases[i].a[0],
			cases[i].a[1], cases[i].a[2], NULL };

		test_run_bin(&r, argv, NULL, 0);
		cr_assert_eq(r.status, 2, "%s %s: exit %d", cases[i].a[0],
		    cases[i].a[1], r.status);
		cr_assert(strstr(r.err, cases[i].say) != NULL, "%s %s: %s",
		    cases[i].a[0], cases[i].a[1], r.err);
		test_run_free(&r);
	}
}

/* run_jobs: the run of the list l (and a missing file) in format fmt
 * with --jobs jobs (NULL: the default), into r. */
static void
run_jobs(struct test_run *r, const char *l, const char *fmt, const char *jobs)
{
	const char *argv[] = { "--no-config", "--format", fmt, "--files-from",
		l, "/nonexistent/m.gguf", "--jobs", jobs, NULL };

	if (jobs == NULL)
		argv[6] = NULL;
	test_run_bin(r, argv, NULL, 0);
}

/* --jobs N writes what one job writes, in the order of the inputs, on
 * stdout and on stderr, with the same exit status: in text, JSON and
 * JSON Lines, with fewer, as many and more workers than models. */
Test(scan, jobs_report_as_one_job_does)
{
	static const char *const fmts[] = { "text", "json", "jsonl" };
	static const char *const jobs[] = { "2", "5", "12", "64", NULL };
	size_t n_jobs = test_valgrind_step(4) > 1 ? 2 : 5;
	char *p[N_MODELS], *l;
	struct test_run one, r;

	models(p);
	l = list(p, NULL);
	for (size_t f = 0; f < 3; f++) {
		run_jobs(&one, l, fmts[f], "1");
		cr_assert_eq(one.status, 2, "%s: %s", fmts[f], one.err);
		for (size_t k = 0; k < n_jobs; k++) {
			run_jobs(&r, l, fmts[f], jobs[k]);
			cr_assert_eq(r.status, one.status, "%s -j %s", fmts[f],
			    jobs[k] ? jobs[k] : "default");
			cr_assert_str_eq(r.out, one.out, "%s -j %s", fmts[f],
			    jobs[k] ? jobs[k] : "default");
			cr_assert_str_eq(r.err, one.err, "%s -j %s", fmts[f],
			    jobs[k] ? jobs[k] : "default");
			test_run_free(&r);
		}
		test_run_free(&one);
	}
	unlink(l);
	free(l);
	models_free(p);
}
