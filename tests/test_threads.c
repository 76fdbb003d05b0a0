/*
 * test_threads.c - several threads lint at once (lint.h allows it): two
 * different models, each linted over and over from a thread of its own,
 * both threads at once, give every time what each gives alone. The
 * threads share the process-wide name maps, caches and --deep's choice of
 * code; each lint has its own scratch space (the names matcher).
 */
#include "config.h"

#include <criterion/criterion.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "golden.h"
#include "lint.h"
#include "testutil.h"

/* The caches a lint fills are freed after every test (lint_cleanup). */
TestSuite(threads, .fini = lint_cleanup);

#define ROUNDS 150

/* One thread's model and what became of its lints. */
struct lint_thread {
	const struct lint_options *o;
	const char *path;
	const char *want;   /* its findings, linted alone */
	size_t rounds, bad; /* lints run, and how many differed */
	char *first_bad;    /* the findings of the first that did */
};

/* The findings of a lint of path, one line each (or its error). */
static char *
findings(const struct lint_options *o, const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	struct lint_result res;
	struct gl_error err;
	size_t i;

	if (lint_file(path, o, &res, &err) < 0)
		strbuf_addf(&sb, "error: %s\n", err.msg);
	for (i = 0; i < res.diags.n; i++) {
		const struct diag *d = &res.diags.v[i];

		strbuf_addf(&sb, "%s %llu [", d->rule->code,
		    (unsigned long long)d->offset);
		strbuf_add(&sb, d->subject, d->subject_len);
		strbuf_addf(&sb, "] %s\n", d->message);
	}
	lint_result_free(&res);
	return strbuf_detach(&sb);
}

/* Lint t's model ROUNDS times (no Criterion assertion off the main
 * thread: the main thread reads the counts). */
static void *
lint_rounds(void *arg)
{
	struct lint_thread *t = arg;
	char *got;

	for (t->rounds = 0; t->rounds < ROUNDS; t->rounds++) {
		got = findings(t->o, t->path);
		if (strcmp(got, t->want) != 0 && t->bad++ == 0)
			t->first_bad = got;
		else
			free(got);
	}
	return NULL;
}

/* A tiny llama of n_layer blocks, with setup's change, in a new file. */
static char *
model_file(uint32_t n_layer, void (*setup)(struct tiny *))
{
	struct strbuf sb = STRBUF_INIT;
	struct tiny t;
	char *path;

	tiny_init(&t);
	t.n_layer = n_layer;
	if (setup != NULL)
		setup(&t);
	tiny_build(&t, &sb);
	path = test_tmpfile(sb.buf, sb.len);
	strbuf_free(&sb);
	return path;
}

static void
set_extra_block(struct tiny *t)
{
	t->extra_block = true; /* N004 names a block number */
}

static void
set_bad_shape(struct tiny *t)
{
	t->bad_shape = "blk.7.attn_k.weight"; /* N003 */
}

/*
 * Both lints at once, in two threads, ROUNDS times each: every result is
 * the one-thread result. Names are matched per block: a shared match data
 * would give one model's block numbers the other's offsets. With --deep,
 * the two first calls of deep_scan race too.
 */
Test(threads, two_models_at_once)
{
	struct lint_options lo = { 0 };
	struct lint_thread t[2];
	struct catalog cat;
	struct gl_error err;
	char *path[2], *want[2];
	pthread_t tid[2];
	size_t i;

	cr_assert(catalog_load_builtin(&cat, &err) == 0, "%s", err.msg);
	lo.cat = &cat;
	lo.deep = true;
	lo.threads = 1;
	path[0] = model_file(12, set_extra_block);
	path[1] = model_file(105, set_bad_shape);
	for (i = 0; i < 2; i++) {
		want[i] = findings(&lo, path[i]);
		memset(&t[i], 0, sizeof t[i]);
		t[i].o = &lo;
		t[i].path = path[i];
		t[i].want = want[i];
	}
	cr_assert(strstr(want[0], "N004") != NULL, "%s", want[0]);
	cr_assert(strstr(want[1], "N003") != NULL, "%s", want[1]);
	lint_cleanup(); /* so that the threads fill the caches */
	for (i = 0; i < 2; i++)
		cr_assert(
		    pthread_create(&tid[i], NULL, lint_rounds, &t[i]) == 0);
	for (i = 0; i < 2; i++)
		pthread_join(tid[i], NULL);
	for (i = 0; i < 2; i++) {
		cr_expect_eq(t[i].rounds, ROUNDS);
		cr_expect_eq(t[i].bad, 0,
		    "%zu of %d lints of model %zu "
		    "differ; the first:\n%s\nalone:\n%s",
		    t[i].bad, ROUNDS, i, t[i].first_bad, want[i]);
		free(t[i].first_bad);
		free(want[i]);
		unlink(path[i]);
		free(path[i]);
	}
	catalog_free(&cat);
}

/* A lint that waits for the others before it starts. */
struct first_lint {
	const struct lint_options *o;
	const char *path;
	pthread_barrier_t *start;
	char *got;
};

static void *
lint_first(void *arg)
{
	struct first_lint *t = arg;

	pthread_barrier_wait(t->start);
	t->got = findings(t->o, t->path);
	return NULL;
}

/*
 * The first lints of the process, at once: what is set up on first use
 * (strset's seed, --deep's choice of code for this CPU, the caches) is set
 * up once, whichever thread comes first, and both lints see all of it.
 * Without the D rules' statistics (deep_full false), --deep runs the code
 * chosen second.
 */
Test(threads, first_lints_at_once)
{
	struct lint_options lo = { 0 };
	struct first_lint t[2];
	pthread_barrier_t start;
	struct catalog cat;
	struct gl_error err;
	pthread_t tid[2];
	char *path[2], *want;
	size_t i;

	cr_assert(catalog_load_builtin(&cat, &err) == 0, "%s", err.msg);
	lo.cat = &cat;
	lo.deep = true;
	lo.threads = 1;
	path[0] = model_file(12, set_extra_block);
	path[1] = model_file(30, set_bad_shape);
	cr_assert(pthread_barrier_init(&start, NULL, 2) == 0);
	for (i = 0; i < 2; i++) {
		t[i].o = &lo;
		t[i].path = path[i];
		t[i].start = &start;
		t[i].got = NULL;
		cr_assert(
		    pthread_create(&tid[i], NULL, lint_first, &t[i]) == 0);
	}
	for (i = 0; i < 2; i++)
		pthread_join(tid[i], NULL);
	pthread_barrier_destroy(&start);
	for (i = 0; i < 2; i++) {
		want = findings(&lo, path[i]);
		cr_expect_str_eq(t[i].got, want, "model %zu", i);
		free(want);
		free(t[i].got);
		unlink(path[i]);
		free(path[i]);
	}
	catalog_free(&cat);
}
