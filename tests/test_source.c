/*
 * test_source.c - the byte sources (src/source/) and the reader on top of
 * them: a header read into a window that grows as it needs, never the
 * whole file mapped (a multi-GiB sparse model lints under a small
 * address-space limit); a file truncated while it is linted, at a point
 * the program is stopped at (GGUFLINT_TEST_STOP), is F032 and exit 1 in
 * every format, with and without --deep, never a signal; standard input
 * from a pipe is read for its header and counted, not stored; views.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "findings/catalog.h"
#include "findings/diag.h"
#include "ggufw.h"
#include "reader/gguf.h"
#include "source/source.h"
#include "source/url.h"
#include "testutil.h"

/* ---- models ------------------------------------------------------------ */

/*
 * A small llama model whose header spans more than min_header bytes (a
 * vocabulary of that many bytes, at least) and whose data (Q4_K, zeros or
 * a hole) follows it. Returns the path; the caller unlinks and frees it.
 */
static char *
model_file(size_t min_header, bool sparse, uint64_t data_bytes)
{
	int64_t ne[2] = { 4096, 1 };
	struct ggufw_model m;
	struct strbuf sb = STRBUF_INIT;
	size_t n_tok = min_header / 12 + 1, i;
	const char **tok = xcalloc(n_tok, sizeof *tok);
	char *path;

	for (i = 0; i < n_tok; i++)
		tok[i] = xasprintf("tok%06zu", i);
	ne[1] = (int64_t)(data_bytes / 2 / 2304 + 1);	/* 2304 B a row */
	ggufw_model_init(&m, false, 32);
	/* a header of min_header bytes, of no architecture: its one error
	 * is M001 (only_m001) */
	ggufw_model_kv_arr_str(&m, "test.strings", tok, n_tok);
	ggufw_model_tensor(&m, "a.weight", 2, ne, 12, 256, 144);
	ggufw_model_tensor(&m, "b.weight", 2, ne, 12, 256, 144);
	if (sparse) {
		path = test_tmpfile("", 0);
		cr_assert(ggufw_model_finish_sparse(&m, path) == 0);
	} else {
		ggufw_model_finish(&m, &sb, GGUFW_DATA_ZERO);
		path = test_tmpfile(sb.buf, sb.len);
	}
	for (i = 0; i < n_tok; i++)
		free((char *)tok[i]);
	free(tok);
	strbuf_free(&sb);
	ggufw_model_free(&m);
	return path;
}

/* Whether the errors a lint printed (text or JSON) are model_file's
 * missing architecture alone. */
static bool
only_m001(const char *out)
{
	const char *p = out, *q;
	size_t errors = 0, m001 = 0;

	while ((q = strstr(p, "error")) != NULL) {
		errors += strncmp(q, "error: ", 7) == 0 ||
		    strncmp(q, "error\",", 7) == 0;
		m001 += strncmp(q, "error: M001", 11) == 0;
		p = q + 5;
	}
	for (p = out; (q = strstr(p, "\"code\": \"M001\"")) != NULL; p = q + 1)
		m001++;
	return errors > 0 && errors == m001;
}

/* The whole file in memory (the reference the windowed reads must match). */
static char *
slurp(const char *path, size_t *n)
{
	struct stat st;
	char *p;
	int fd = open(path, O_RDONLY);

	cr_assert(fd >= 0 && fstat(fd, &st) == 0);
	p = xmalloc((size_t)st.st_size + 1);
	cr_assert_eq(pread(fd, p, (size_t)st.st_size, 0), st.st_size);
	close(fd);
	*n = (size_t)st.st_size;
	return p;
}

/* ---- running the program ----------------------------------------------- */

struct run {
	int status;		/* exit status, or 128 + signal */
	char out[1 << 19];	/* the start of stdout and stderr (a
				 * SARIF log's rules alone take 230 KB) */
};

/* A temporary file's descriptor, already unlinked. */
static int
tmp_fd(void)
{
	char name[] = "/tmp/gguflint-src-XXXXXX";
	int fd = mkstemp(name);

	cr_assert(fd >= 0);
	unlink(name);
	return fd;
}

/*
 * Run the program on argv (without its name) with GGUFLINT_TEST_STOP=stop
 * (NULL: none), standard input from in_fd (-1: /dev/null), and an
 * address-space limit (0: none). When stop is set, wait until the program
 * stops there, truncate path to cut bytes, and let it go on.
 */
static void
run(struct run *r, const char *const argv[], const char *stop,
    const char *path, off_t cut, int in_fd, unsigned long long as_limit)
{
	const char *bin = getenv("GGUFLINT_BIN");
	const char *args[16];
	int out = tmp_fd(), st;
	size_t k = 0, i;
	ssize_t n;
	pid_t pid;

	cr_assert(bin != NULL, "GGUFLINT_BIN is not set (run via make check)");
	args[k++] = bin;
	for (i = 0; argv[i] != NULL && k < 15; i++)
		args[k++] = argv[i];
	args[k] = NULL;
	pid = fork();
	cr_assert(pid >= 0);
	if (pid == 0) {
		struct rlimit rl = { as_limit, as_limit };

		if (as_limit != 0)
			setrlimit(RLIMIT_AS, &rl);
		if (stop != NULL)
			setenv("GGUFLINT_TEST_STOP", stop, 1);
		if (in_fd < 0)
			in_fd = open("/dev/null", O_RDONLY);
		dup2(in_fd, 0);
		dup2(out, 1);
		dup2(out, 2);
		execv(args[0], (char *const *)args);
		_exit(127);
	}
	if (stop != NULL) {
		cr_assert_eq(waitpid(pid, &st, WUNTRACED), pid);
		cr_assert(WIFSTOPPED(st), "did not stop at %s (status %d)",
		    stop, st);
		cr_assert(truncate(path, cut) == 0);
		kill(pid, SIGCONT);
	}
	cr_assert_eq(waitpid(pid, &st, 0), pid);
	r->status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	n = pread(out, r->out, sizeof r->out - 1, 0);
	r->out[n > 0 ? n : 0] = '\0';
	close(out);
	cr_assert(r->status != 127, "could not run %s", bin);
	cr_assert(strstr(r->out, "Sanitizer") == NULL, "%s", r->out);
}

/* ---- the header window ------------------------------------------------- */

/* The parse of a windowed file matches the parse of the whole file. */
static void
same_parse(const char *path)
{
	struct catalog cat;
	struct diag_list a, b;
	struct gguf_file f, g;
	struct gl_error err;
	size_t n, i;
	char *whole = slurp(path, &n);

	cr_assert(catalog_load_builtin(&cat, &err) == 0, "%s", err.msg);
	diag_list_init(&a, &cat);
	diag_list_init(&b, &cat);
	cr_assert(gguf_open(&f, path, &err) == 0, "%s", err.msg);
	gguf_parse(&f, &a);
	gguf_open_mem(&g, path, whole, n);
	gguf_parse(&g, &b);
	cr_assert(f.header_complete && g.header_complete);
	cr_assert_eq(f.size, g.size);
	cr_assert(f.avail >= f.data_offset, "the window ends at %llu, the "
	    "header at %llu", (unsigned long long)f.avail,
	    (unsigned long long)f.data_offset);
	cr_assert_eq(f.kv_n, g.kv_n);
	cr_assert_eq(f.tensors_n, g.tensors_n);
	cr_assert_eq(f.data_offset, g.data_offset);
	for (i = 0; i < f.tensors_n; i++)
		cr_assert(f.tensors[i].name.n == g.tensors[i].name.n &&
		    memcmp(f.tensors[i].name.p, g.tensors[i].name.p,
		    f.tensors[i].name.n) == 0);
	cr_assert_eq(a.n, b.n);
	gguf_close(&f);
	gguf_close(&g);
	diag_list_free(&a);
	diag_list_free(&b);
	catalog_free(&cat);
	free(whole);
}

/* A header of 5 MiB (past the first 1 MiB window) is read whole, not the
 * data after it, and parses as the whole file does. */
Test(source, header_window_grows_as_the_header_needs)
{
	char *path = model_file(5u << 20, true, 64u << 20);
	struct catalog cat;
	struct diag_list dl;
	struct gguf_file f;
	struct gl_error err;

	cr_assert(catalog_load_builtin(&cat, &err) == 0, "%s", err.msg);
	diag_list_init(&dl, &cat);
	cr_assert(gguf_open(&f, path, &err) == 0, "%s", err.msg);
	gguf_parse(&f, &dl);
	cr_assert(f.header_complete && f.data_offset > (5u << 20));
	/* the header, and at most the 1 MiB read past the last record */
	cr_assert(f.avail >= f.data_offset &&
	    f.avail <= f.data_offset + (1u << 20), "window of %llu bytes for "
	    "a header of %llu", (unsigned long long)f.avail,
	    (unsigned long long)f.data_offset);
	cr_assert(f.size > f.avail + (32u << 20));
	gguf_close(&f);
	diag_list_free(&dl);
	catalog_free(&cat);
	same_parse(path);
	unlink(path);
	free(path);
}

/*
 * A 5 GiB sparse model lints under a 1 GiB address-space limit (mapping
 * it whole, it could not: "cannot map", exit 2); --deep reads a model
 * larger than its limit through windows (a smaller one: it reads it all).
 */
Test(source, big_model_under_an_address_space_limit, .timeout = 120)
{
	char *path = model_file(1u << 16, true, 5ull << 30);
	char *mid = model_file(1u << 16, true, 640ull << 20);
	const char *argv[] = { "--no-config", "--select=F", path, NULL };
	const char *deep[] = { "--no-config", "--select=F", "--deep", mid,
	    NULL };
	struct run r;

	if (test_have_asan())
		cr_skip_test("ASan reserves more address space than the limit");
	run(&r, argv, NULL, NULL, 0, -1, 1ull << 30);
	cr_assert_eq(r.status, 0, "status %d: %s", r.status, r.out);
	run(&r, deep, NULL, NULL, 0, -1, 512ull << 20);
	cr_assert_eq(r.status, 0, "--deep: status %d: %s", r.status, r.out);
	unlink(path);
	unlink(mid);
	free(path);
	free(mid);
}

/*
 * A header whose window does not fit in memory (a 32 MiB header under a
 * 16 MiB address-space limit) is an operational failure, exit 2, not a
 * finding: the parse stopped reading, and says why.
 */
Test(source, no_memory_for_the_window_is_exit_2, .timeout = 60)
{
	char *path = model_file(32u << 20, true, 1u << 20);
	const char *argv[] = { "--no-config", path, NULL };
	struct run r;

	if (test_have_asan())
		cr_skip_test("ASan reserves more address space than the limit");
	run(&r, argv, NULL, NULL, 0, -1, 16ull << 20);
	cr_assert_eq(r.status, 2, "status %d: %s", r.status, r.out);
	cr_assert(strstr(r.out, "no memory for a header window") != NULL,
	    "%s", r.out);
	cr_assert(strstr(r.out, "F032") == NULL, "%s", r.out);
	unlink(path);
	free(path);
}

/* A missing file named like a URL of a scheme gguflint does not read: the
 * message says which it reads (exit 2); a local path stays a path. */
Test(source, other_schemes_are_named)
{
	const char *argv[] = { "--no-config", "s3://bucket/m.gguf",
		"./ftp://x/m.gguf", NULL };
	struct test_run r;

	cr_assert_eq(url_other_scheme("s3://b/m.gguf"), 2);
	cr_assert_eq(url_other_scheme("git+ssh://h/m.gguf"), 7);
	cr_assert_eq(url_other_scheme("https://h/m.gguf"), 0);
	cr_assert_eq(url_other_scheme("C://m.gguf"), 0);
	cr_assert_eq(url_other_scheme("./s3://m.gguf"), 0);
	cr_assert_eq(url_other_scheme("models/m.gguf"), 0);
	test_run_bin(&r, argv, NULL, 0);
	cr_assert_eq(r.status, 2, "status %d: %s", r.status, r.err);
	cr_assert(strstr(r.err, "s3://bucket/m.gguf: no such file, and s3:// "
	    "is not a scheme gguflint reads (http://, https://, hf://)") !=
	    NULL, "%s", r.err);
	cr_assert(strstr(r.err, "./ftp://x/m.gguf: No such file or "
	    "directory") != NULL, "%s", r.err);
	test_run_free(&r);
}

/* ---- a file truncated while it is linted -------------------------------- */

static const char *const formats[] = { "text", "json", "sarif", "github" };

/* One run stopped at stop, the file cut to cut bytes: F032, exit 1. */
static void
truncated_run(const char *stop, off_t cut, const char *fmt, bool deep)
{
	char *path = model_file(64u << 10, false, 1u << 20);
	const char *argv[8];
	struct run r;
	size_t k = 0;

	argv[k++] = "--no-config";
	argv[k++] = "--format";
	argv[k++] = fmt;
	if (deep)
		argv[k++] = "--deep";
	argv[k++] = path;
	argv[k] = NULL;
	run(&r, argv, stop, path, cut, -1, 0);
	cr_assert_eq(r.status, 1, "stop at %s, cut to %lld, %s%s: status %d "
	    "(a signal is 128 + it): %.2000s", stop, (long long)cut, fmt,
	    deep ? " --deep" : "", r.status, r.out);
	/* In SARIF, a result: the rules name F032 whatever happens. */
	cr_assert(strstr(r.out, strcmp(fmt, "sarif") == 0 ?
	    "\"ruleId\": \"F032\"" : "F032") != NULL, "no F032 (stop at "
	    "%s, cut to %lld, %s%s): %.2000s", stop, (long long)cut, fmt,
	    deep ? " --deep" : "", r.out);
	unlink(path);
	free(path);
}

/*
 * Cut to 0 and to 4 KiB after the header was read, after it was parsed
 * (the checks then read it), and after the lint (the report then prints
 * the tensors' names, and with --deep their statistics), in every format,
 * with and without --deep (which then reads data that is gone).
 */
Test(source, truncated_after_the_header_read_is_f032, .timeout = 120)
{
	static const char *const stops[] = { "header", "parsed", "linted" };
	static const off_t cuts[] = { 0, 4096 };
	size_t s, i, c;
	int deep;

	for (s = 0; s < 3; s++)
		for (c = 0; c < 2; c++)
			for (i = 0; i < 4; i++)
				for (deep = 0; deep < 2; deep++)
					truncated_run(stops[s], cuts[c],
					    formats[i], deep);
}

/* Cut before the header was read: what could be read is reported, F032. */
Test(source, truncated_before_the_header_read_is_f032, .timeout = 60)
{
	size_t i;

	for (i = 0; i < 4; i++) {
		truncated_run("open", 0, formats[i], false);
		truncated_run("open", 4096, formats[i], true);
	}
}

/* ---- standard input ----------------------------------------------------- */

/* A pipe that a child fills with path's bytes; its read end. */
static int
pipe_from(const char *path, pid_t *writer)
{
	int p[2];

	cr_assert(pipe(p) == 0);
	*writer = fork();
	cr_assert(*writer >= 0);
	if (*writer == 0) {
		static char buf[1 << 20];
		int fd = open(path, O_RDONLY);
		ssize_t n;

		close(p[0]);
		while (fd >= 0 && (n = read(fd, buf, sizeof buf)) > 0)
			if (write(p[1], buf, (size_t)n) != n)
				_exit(1);
		_exit(0);
	}
	close(p[1]);
	return p[0];
}

/* The report of path piped to "-", with "-" written as path. */
static void
run_piped(struct run *r, const char *path, const char *const argv[],
    unsigned long long as_limit)
{
	pid_t writer;
	int in = pipe_from(path, &writer), st;

	run(r, argv, NULL, NULL, 0, in, as_limit);
	close(in);
	waitpid(writer, &st, 0);
}

/*
 * A model on a pipe, header past the first window, data cut short (F010
 * needs the size, which the pipe only gives by being counted): the same
 * findings as the file, and a big one under an address-space limit
 * smaller than the model (it was copied whole to memory, then mapped).
 */
Test(source, a_pipe_is_read_for_its_header_and_counted, .timeout = 120)
{
	char *path = model_file(3u << 20, false, 4u << 20), *big;
	const char *file_argv[] = { "--no-config", "--format", "json", path,
	    NULL };
	const char *pipe_argv[] = { "--no-config", "--format", "json", "-",
	    NULL };
	static struct run a, b;
	char *p;

	cr_assert(truncate(path, 5u << 20) == 0);	/* of 7 MiB */
	run(&a, file_argv, NULL, NULL, 0, -1, 0);
	run_piped(&b, path, pipe_argv, 0);
	cr_assert_eq(a.status, 1);
	cr_assert(strstr(a.out, "F010") != NULL, "%s", a.out);
	cr_assert_eq(b.status, a.status, "%s", b.out);
	p = strstr(b.out, "\"path\": \"-\"");
	cr_assert(p != NULL, "%s", b.out);
	cr_assert_str_eq(strstr(b.out, "\"profile\""),
	    strstr(a.out, "\"profile\""));
	unlink(path);
	free(path);

	big = model_file(1u << 16, true, 400ull << 20);
	if (!test_have_asan()) {
		run_piped(&b, big, pipe_argv, 256ull << 20);
		cr_assert(b.status == 1 && only_m001(b.out), "status %d: %s",
		    b.status, b.out);
	}
	unlink(big);
	free(big);
}

/* --deep cannot read a pipe's data: a clear refusal (2) before reading. */
Test(source, deep_on_a_pipe_is_refused)
{
	char *path = model_file(1u << 10, false, 1u << 16);
	const char *argv[] = { "--no-config", "--deep", "-", NULL };
	struct run r;
	int fd;

	run_piped(&r, path, argv, 0);
	cr_assert_eq(r.status, 2, "%s", r.out);
	cr_assert(strstr(r.out, "pipe") != NULL, "%s", r.out);
	fd = open(path, O_RDONLY);	/* a file redirected there is a file */
	run(&r, argv, NULL, NULL, 0, fd, 0);
	close(fd);
	cr_assert(r.status == 1 && only_m001(r.out), "%s", r.out);
	unlink(path);
	free(path);
}

/* ---- views -------------------------------------------------------------- */

/* A view holds a range inside the file, is reused, refuses one outside. */
Test(source, views_see_the_file_and_nothing_past_it)
{
	static const char data[] = "0123456789abcdef";
	char *path = test_tmpfile(data, 16);
	struct source s, m;
	struct source_view v = { 0 };
	struct gl_error err;
	const uint8_t *p, *q;

	cr_assert(source_open(&s, path, &err) == 0, "%s", err.msg);
	cr_assert(source_can_view(&s));
	p = source_view_get(&s, &v, 10, 6);
	cr_assert(p != NULL && memcmp(p, "abcdef", 6) == 0);
	q = source_view_get(&s, &v, 2, 3);
	cr_assert(q != NULL && memcmp(q, "234", 3) == 0);
	cr_assert_eq(q + 8, p, "the second range is in the same window");
	cr_assert_null(source_view_get(&s, &v, 10, 7));
	cr_assert_null(source_view_get(&s, &v, 17, 0));
	source_view_release(&v);
	cr_assert(source_head(&s, 1u << 20, &err) == 0);
	cr_assert_eq(source_avail(&s), 16);
	cr_assert(!s.shrank);
	source_close(&s);
	source_close(&s);	/* harmless */
	source_open_mem(&m, data, 16);
	p = source_view_get(&m, &v, 4, 4);
	cr_assert(p == (const uint8_t *)data + 4);
	cr_assert_null(source_view_get(&m, &v, 4, 13));
	source_close(&m);
	unlink(path);
	free(path);
}

/* A file shorter than it was at open: its window says so (shrank). */
Test(source, a_short_read_is_a_shrunk_file)
{
	char *path = test_tmpfile("GGUF0123456789", 14);
	struct source s;
	struct gl_error err;

	cr_assert(source_open(&s, path, &err) == 0, "%s", err.msg);
	cr_assert(truncate(path, 6) == 0);
	cr_assert(source_head(&s, 1u << 20, &err) == 0);
	cr_assert(s.shrank);
	cr_assert_eq(source_avail(&s), 6);
	cr_assert(source_shrank_now(&s, NULL));
	source_close(&s);
	unlink(path);
	free(path);
}
