/*
 * test_bounds.c - resource bounds: headers built to be slow (hundreds of
 * thousands of keys or tensor names, duplicates, deep nesting) lint in
 * bounded memory, a small multiple of the header, under an address-space
 * limit; findings are capped per rule; and a file truncated after it was
 * mapped gives a finding, not SIGBUS. Timing lives in make bench
 * (bench/scale.sh), not here.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "findings/diag.h"
#include "ggufw.h"
#include "base/guard.h"
#include "lint.h"
#include "testutil.h"

#define N_RECORDS 200000

static char *
slow_file(const char *kind, size_t *size)
{
	struct ggufw w;
	const int64_t ne[] = { 8 };
	char name[32];
	unsigned long i;
	char *path;

	ggufw_init(&w, false);
	if (strcmp(kind, "keys") == 0 || strcmp(kind, "dupkeys") == 0) {
		ggufw_header(&w, "GGUF", 3, 0, N_RECORDS);
		for (i = 0; i < N_RECORDS; i++) {
			snprintf(name, sizeof name, "k.%08lu",
			    kind[0] == 'd' ? 0UL : i);
			ggufw_kv_u32(&w, name, (uint32_t)i);
		}
	} else {
		ggufw_header(&w, "GGUF", 3, N_RECORDS, 0);
		for (i = 0; i < N_RECORDS; i++) {
			snprintf(name, sizeof name, "t.%08lu",
			    kind[0] == 'd' ? 0UL : i);
			ggufw_tensor_info(&w, name, 1, ne, 0, (uint64_t)i * 32);
		}
		ggufw_pad(&w, 32);
		for (i = 0; i < (unsigned long)N_RECORDS * 32; i++)
			ggufw_u8(&w, 0);
	}
	*size = w.out.len;
	path = test_tmpfile(w.out.buf, w.out.len);
	ggufw_free(&w);
	return path;
}

/* Lint under an address-space limit of 64 MiB + 12 x the file. */
static void
lint_bounded(const char *kind, int want_status, const char *want_code)
{
	size_t size;
	char *path = slow_file(kind, &size);
	const char *argv[] = { "--no-config", "--select=F", path, NULL };
	unsigned long long limit = test_have_asan() ? 0 :
	    (64ull << 20) + 12ull * size;
	struct test_run r;
	size_t lines = 0;
	const char *p;

	test_run_bin(&r, argv, NULL, limit);
	cr_assert_eq(r.status, want_status, "%s: status %d, stderr %s", kind,
	    r.status, r.err);
	if (want_code != NULL)
		cr_assert(strstr(r.out, want_code) != NULL, "%s", kind);
	for (p = r.out; (p = strchr(p, '\n')) != NULL; p++)
		lines++;
	cr_assert(lines <= DIAG_MAX_PER_RULE + 1, "%s: %zu lines: findings "
	    "are capped per rule", kind, lines);
	if (want_code != NULL)
		cr_assert(strstr(r.out, "more ") != NULL, "%s: the cap is "
		    "reported", kind);
	test_run_free(&r);
	unlink(path);
	free(path);
}

Test(bounds, many_keys)
{
	lint_bounded("keys", 0, NULL);
}

Test(bounds, many_duplicate_keys)
{
	lint_bounded("dupkeys", 1, "F013");
}

Test(bounds, many_tensors)
{
	lint_bounded("tensors", 0, NULL);
}

Test(bounds, many_duplicate_tensor_names)
{
	lint_bounded("duptensors", 1, "F017");
}

/* Arrays nested far beyond the limit stop at the limit. */
Test(bounds, deep_nesting_is_bounded)
{
	struct ggufw w;
	struct test_lint t;
	unsigned long i;

	ggufw_init(&w, false);
	ggufw_header(&w, "GGUF", 3, 0, 1);
	ggufw_kv_arr_begin(&w, "deep", GGUFW_ARRAY, 1);
	for (i = 1; i < 1000000; i++) {
		ggufw_i32(&w, GGUFW_ARRAY);
		ggufw_u64(&w, 1);
	}
	ggufw_i32(&w, GGUFW_UINT8);
	ggufw_u64(&w, 0);
	test_lint_bytes(&t, w.out.buf, w.out.len);
	cr_assert_geq(test_count(&t, "F011"), 1, "%s", test_codes(&t));
	cr_assert_leq(t.res.diags.n, 3);
	test_lint_free(&t);
	ggufw_free(&w);
}

struct parse_args {
	struct gguf_file *f;
	struct diag_list *dl;
};

static void
parse(void *arg)
{
	struct parse_args *a = arg;

	gguf_parse(a->f, a->dl);
}

/*
 * A file truncated after it was opened, its header (5 MB) larger than the
 * first window read then: the parse reads on, finds the file shorter and
 * says so (F032) with what it parsed until then; not a crash, and the
 * records it made are the reader's own copy. The recheck after the lint
 * does not say it again.
 */
Test(bounds, truncated_after_open_is_not_a_crash)
{
	struct catalog cat;
	struct diag_list dl;
	struct gguf_file f;
	struct gl_error err;
	struct parse_args a = { &f, &dl };
	size_t size;
	char *path = slow_file("keys", &size);

	cr_assert(size > (2u << 20));
	cr_assert(catalog_load_builtin(&cat, &err) == 0);
	diag_list_init(&dl, &cat);
	cr_assert(gguf_open(&f, path, &err) == 0, "%s", err.msg);
	cr_assert(truncate(path, 4096) == 0);
	cr_assert_eq(guard_call(parse, &a), 0, "the parse reads, not maps");
	cr_assert(!f.header_complete);
	cr_assert(f.kv_n > 0 && f.kv_n < f.n_kv, "%zu keys", f.kv_n);
	cr_assert_eq(dl.n, 1);
	cr_assert_str_eq(dl.v[0].rule->code, "F032");
	cr_assert(strstr(dl.v[0].message, "shrank") != NULL);
	cr_assert(!gguf_recheck(&f, &dl));
	cr_assert_eq(dl.n, 1);
	gguf_close(&f);
	diag_list_free(&dl);
	catalog_free(&cat);
	unlink(path);
	free(path);
}

/*
 * LeakSanitizer's switch, where the program has it: what a guarded call
 * allocates before its fault is lost by design (guard.h), so the calls
 * below that fault are made with leak tracking off.
 */
extern void __lsan_disable(void) __attribute__((weak));
extern void __lsan_enable(void) __attribute__((weak));

/* What a fault leaves behind: a diagnostic about a name in the mapping. */
struct subject_args {
	struct diag_list *dl;
	const char *name;	/* in the mapping, past the file's new end */
};

static void
add_about(void *arg)
{
	struct subject_args *a = arg;
	struct diag *d;

	d = diag_add(a->dl, "N001", 0, SUBJECT_TENSOR, a->name, 8, "x");
	diag_attach_item(d, a->name, 8);
}

/*
 * A diagnostic whose subject faults (a name in a mapping of the file, which
 * the reader itself no longer hands out) is not recorded: the list holds only
 * whole entries (a counted entry with unset fields made the reporter and
 * diag_list_free read garbage after F032).
 */
Test(bounds, a_subject_that_faults_leaves_the_list_whole)
{
	struct catalog cat;
	struct diag_list dl;
	struct gl_error err;
	struct subject_args a = { &dl, NULL };
	size_t size, i;
	char *path = slow_file("keys", &size);
	void *map;
	int fd;

	cr_assert(size > 2 * 65536);
	cr_assert(catalog_load_builtin(&cat, &err) == 0);
	diag_list_init(&dl, &cat);
	fd = open(path, O_RDONLY);
	cr_assert(fd >= 0);
	map = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
	cr_assert(map != MAP_FAILED);
	a.name = (const char *)map + size - 64;
	cr_assert_eq(guard_call(add_about, &a), 0);
	cr_assert_eq(dl.n, 1);
	cr_assert_eq(dl.v[0].n_items, 1);
	cr_assert(truncate(path, 4096) == 0);
	if (__lsan_disable != NULL)
		__lsan_disable();
	for (i = 0; i < 3; i++)
		cr_assert_eq(guard_call(add_about, &a), -1);
	if (__lsan_enable != NULL)
		__lsan_enable();
	cr_assert_eq(dl.n, 1, "%zu entries: a faulted one was counted",
	    dl.n);
	cr_assert_eq(dl.v[0].n_items, 1);
	cr_assert_eq(memcmp(dl.v[0].subject, dl.v[0].items[0], 8), 0);
	munmap(map, size);
	close(fd);
	diag_list_free(&dl);
	catalog_free(&cat);
	unlink(path);
	free(path);
}

/*
 * A result that never opened a file, or is freed twice, closes nothing:
 * a zeroed result's fd 0 is standard input, and a long-running caller's
 * fd 0 may be any file by then.
 */
Test(bounds, freeing_a_result_closes_no_one_elses_fd)
{
	struct catalog cat;
	struct lint_options o = { 0 };
	struct lint_result res;
	struct gl_error err;
	int fd = open("/dev/null", O_RDONLY);

	cr_assert(fd >= 0);
	if (fd != 0) {			/* make fd 0 a file of ours */
		cr_assert(dup2(fd, 0) == 0);
		close(fd);
	}
	cr_assert(catalog_load_builtin(&cat, &err) == 0);
	o.cat = &cat;
	lint_buffer("m.gguf", "GGUF", 4, &o, &res);
	lint_result_free(&res);
	lint_result_free(&res);
	cr_assert(fcntl(0, F_GETFD) != -1, "fd 0 was closed");
	cr_assert(lint_file("/nonexistent/m.gguf", &o, &res, &err) < 0);
	lint_result_free(&res);
	cr_assert(fcntl(0, F_GETFD) != -1, "fd 0 was closed");
	catalog_free(&cat);
}

/*
 * N001 keeps the name of every one of 100 000 unmapped tensors, in file
 * order, for JSON (the list doubles as it grows: it was copied again for
 * each name, quadratic wherever realloc could not grow it in place).
 */
Test(bounds, n001_lists_every_unmapped_tensor, .timeout = 60)
{
	struct strbuf sb = STRBUF_INIT;
	struct ggufw_model m;
	struct test_lint t;
	const struct diag *d;
	int64_t ne[1] = { 4 };
	char name[32];
	size_t i, n = 100000;

	ggufw_model_init(&m, false, 32);
	ggufw_model_kv_str(&m, "general.architecture", "llama");
	ggufw_model_kv_u32(&m, "llama.embedding_length", 4);
	for (i = 0; i < n; i++) {
		snprintf(name, sizeof name, "extra.%zu", i);
		ggufw_model_tensor(&m, name, 1, ne, 0, 1, 4);
	}
	ggufw_model_finish(&m, &sb, GGUFW_DATA_ZERO);
	ggufw_model_free(&m);
	test_lint_bytes(&t, sb.buf, sb.len);
	d = test_find(&t, "N001");
	cr_assert(d != NULL, "%s", test_codes(&t));
	cr_assert_eq(d->n_items, n);
	for (i = 0; i < n; i++) {
		snprintf(name, sizeof name, "extra.%zu", i);
		cr_assert_str_eq(d->items[i], name);
	}
	test_lint_free(&t);
	strbuf_free(&sb);
}
