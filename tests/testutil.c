/*
 * testutil.c - helpers for the tests (see testutil.h).
 */
#include "config.h"

#include <criterion/criterion.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "testutil.h"
#include "base/util.h"

/*
 * What make check puts in the environment (TESTS_ENV in Makefile.am), as
 * defaults compiled in from the build tree (tests_unit_CPPFLAGS), so that
 * ./tests/unit run by hand finds the program, the sources and the shared
 * directory. A variable already set wins. The runner sets them before it
 * starts the tests, which inherit them, as do the programs they run.
 */
#ifndef TEST_DEFAULT_BIN
#define TEST_DEFAULT_BIN "./gguflint"
#endif
#ifndef TEST_DEFAULT_SRCDIR
#define TEST_DEFAULT_SRCDIR "."
#endif
#ifndef TEST_DEFAULT_SHARED
#define TEST_DEFAULT_SHARED "../shared"
#endif
#ifndef TEST_DEFAULT_SARIF
#define TEST_DEFAULT_SARIF ""
#endif
#ifndef TEST_DEFAULT_LLAMA
#define TEST_DEFAULT_LLAMA ""
#endif

ReportHook(PRE_ALL)(struct criterion_test_set *set)
{
	(void)set;
	setenv("GGUFLINT_BIN", TEST_DEFAULT_BIN, 0);
	setenv("GGUFLINT_SRCDIR", TEST_DEFAULT_SRCDIR, 0);
	/* the built-in data, not an installed copy */
	setenv("GGUFLINT_DATADIR", "/nonexistent", 0);
	setenv("GGUFLINT_SHARED", TEST_DEFAULT_SHARED, 0);
	setenv("SARIF_MULTITOOL", TEST_DEFAULT_SARIF, 0);
	setenv("GGUFLINT_LLAMA", TEST_DEFAULT_LLAMA, 0);
	setenv("ASAN_OPTIONS", "exitcode=86:abort_on_error=0", 0);
	setenv("UBSAN_OPTIONS", "print_stacktrace=1:halt_on_error=1", 0);
}

char *
test_tmpfile(const void *p, size_t n)
{
	const char *dir = getenv("TMPDIR");
	char *path;
	int fd;

	path = xasprintf("%s/gguflint-test-XXXXXX", dir ? dir : "/tmp");
	fd = mkstemp(path);
	cr_assert(fd >= 0, "mkstemp failed");
	while (n > 0) {
		ssize_t w = write(fd, p, n);

		cr_assert(w > 0, "write failed");
		p = (const char *)p + w;
		n -= (size_t)w;
	}
	close(fd);
	return path;
}

void
test_lint_bytes_profile(struct test_lint *t, const void *p, size_t n,
    const struct profile *prof)
{
	struct lint_options lo = { 0 };
	struct gl_error err;

	memset(t, 0, sizeof *t);
	cr_assert(catalog_load_builtin(&t->cat, &err) == 0, "%s", err.msg);
	t->path = test_tmpfile(p, n);
	lo.cat = &t->cat;
	lo.profile = prof;
	cr_assert(lint_file(t->path, &lo, &t->res, &err) == 0, "%s", err.msg);
}

void
test_lint_bytes(struct test_lint *t, const void *p, size_t n)
{
	test_lint_bytes_profile(t, p, n, NULL);
}

void
test_lint_free(struct test_lint *t)
{
	lint_result_free(&t->res);
	catalog_free(&t->cat);
	if (t->path != NULL)
		unlink(t->path);
	free(t->path);
	memset(t, 0, sizeof *t);
}

size_t
test_count(const struct test_lint *t, const char *code)
{
	size_t i, n = 0;

	for (i = 0; i < t->res.diags.n; i++)
		if (strcmp(t->res.diags.v[i].rule->code, code) == 0)
			n++;
	return n;
}

size_t
test_errors(const struct test_lint *t)
{
	return diag_count_at_least(&t->res.diags, SEV_ERROR);
}

const struct diag *
test_find(const struct test_lint *t, const char *code)
{
	size_t i;

	for (i = 0; i < t->res.diags.n; i++)
		if (strcmp(t->res.diags.v[i].rule->code, code) == 0)
			return &t->res.diags.v[i];
	return NULL;
}

const char *
test_codes(const struct test_lint *t)
{
	static char buf[4096];
	size_t i, len = 0;

	buf[0] = '\0';
	for (i = 0; i < t->res.diags.n && len + 8 < sizeof buf; i++)
		len += (size_t)snprintf(buf + len, sizeof buf - len, "%s%s",
		    i ? " " : "", t->res.diags.v[i].rule->code);
	return buf;
}

static char *
slurp_fd(int fd, size_t *len)
{
	struct strbuf sb = STRBUF_INIT;
	char chunk[8192];
	ssize_t n;

	lseek(fd, 0, SEEK_SET);
	while ((n = read(fd, chunk, sizeof chunk)) > 0)
		strbuf_add(&sb, chunk, (size_t)n);
	if (len != NULL)
		*len = sb.len;
	return strbuf_detach(&sb);
}

static int
tmp_fd(void)
{
	char *path = test_tmpfile("", 0);
	int fd = open(path, O_RDWR);

	unlink(path);
	free(path);
	cr_assert(fd >= 0);
	return fd;
}

void
test_run_bin(struct test_run *r, const char *const argv[],
    const char *stdout_path, unsigned long long as_limit)
{
	const char *bin = getenv("GGUFLINT_BIN");
	const char *vg = getenv("GGUFLINT_VALGRIND");
	const char *args[72];
	size_t i, k = 0;
	int ofd, efd, st;
	pid_t pid;

	cr_assert(bin != NULL, "GGUFLINT_BIN is not set (run via make check)");
	memset(r, 0, sizeof *r);
	/* make check-valgrind: every run of the program under memcheck */
	if (vg != NULL) {
		args[k++] = "valgrind";
		args[k++] = "-q";
		args[k++] = "--error-exitcode=99";
		args[k++] = "--leak-check=full";
		args[k++] = "--errors-for-leak-kinds=definite";
	}
	args[k++] = bin;
	for (i = 0; argv[i] != NULL && i < 62; i++)
		args[k++] = argv[i];
	args[k] = NULL;
	ofd = stdout_path ? open(stdout_path, O_WRONLY) : tmp_fd();
	efd = tmp_fd();
	cr_assert(ofd >= 0);
	pid = fork();
	cr_assert(pid >= 0);
	if (pid == 0) {
		if (as_limit != 0) {
			struct rlimit rl = { as_limit, as_limit };

			setrlimit(RLIMIT_AS, &rl);
		}
		dup2(ofd, 1);
		dup2(efd, 2);
		execvp(args[0], (char *const *)args);
		_exit(127);
	}
	cr_assert(waitpid(pid, &st, 0) == pid);
	r->status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	r->out = stdout_path ? xstrdup("") : slurp_fd(ofd, &r->out_len);
	r->err = slurp_fd(efd, NULL);
	close(ofd);
	close(efd);
	/* A sanitizer report fails the test whatever the exit status. */
	cr_assert(strstr(r->err, "Sanitizer") == NULL &&
	    strstr(r->err, "runtime error:") == NULL, "%s", r->err);
	cr_assert(r->status != 86, "AddressSanitizer exit: %s", r->err);
	cr_assert(r->status != 99, "valgrind memcheck error: %s", r->err);
	cr_assert(r->status != 127, "could not run %s", args[0]);
}

void
test_run_free(struct test_run *r)
{
	free(r->out);
	free(r->err);
	memset(r, 0, sizeof *r);
}

static void
tree_walk(const char *dir, const char *suffix, char ***paths, size_t *n)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t sl = strlen(suffix);

	cr_assert(d != NULL, "cannot open %s", dir);
	while ((e = readdir(d)) != NULL) {
		size_t len = strlen(e->d_name);
		char *path;
		struct stat st;

		if (e->d_name[0] == '.')
			continue;
		path = xasprintf("%s/%s", dir, e->d_name);
		cr_assert(stat(path, &st) == 0, "cannot stat %s", path);
		if (S_ISDIR(st.st_mode)) {
			tree_walk(path, suffix, paths, n);
			free(path);
		} else if (len >= sl &&
		    strcmp(e->d_name + len - sl, suffix) == 0) {
			*paths = xreallocarray(*paths, *n + 1, sizeof **paths);
			(*paths)[(*n)++] = path;
		} else
			free(path);
	}
	closedir(d);
}

static int
cmp_path(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

char **
test_tree_files(const char *root, const char *suffix, size_t *n)
{
	char **paths = NULL;

	*n = 0;
	tree_walk(root, suffix, &paths, n);
	if (*n > 1)
		qsort(paths, *n, sizeof *paths, cmp_path);
	return paths;
}

void
test_tree_files_free(char **paths, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(paths[i]);
	free(paths);
}

char *
test_llama_profile(const char *name, const char *description,
    const char *backend, const char *features)
{
	return xasprintf("name: %s\n"
			 "description: %s\n"
			 "runtime: llama.cpp\n"
			 "backend: %s\n"
			 "cpu_features: %s\n"
			 "memory: 64 GiB\n"
			 "%s"
			 "reserve: 1 GiB\n"
			 "weights: mapped\n"
			 "strict: false\n"
			 "context: 4096\n"
			 "kv_cache: f16\n"
			 "ubatch: 512\n"
			 "flash_attention: true\n",
	    name, description, backend, features,
	    strcmp(backend, "vulkan") == 0 ? "device_memory: 8 GiB\n"
	    /* llvmpipe's, the tables' device: its storage-buffer range
	     * and ggml-vulkan's suballocation block */
	    "max_alloc: 128 MiB\nhost_max_alloc: 1 GiB\n" :
	    /* ggml-cuda's buffers have no largest size */
	    strcmp(backend, "cuda") == 0 ? "device_memory: 8 GiB\n"
	    "max_alloc: none\nhost_max_alloc: none\n" :
	    strcmp(backend, "cpu") != 0 ? "device_memory: 8 GiB\n" : "");
}

const char *
test_srcdir(void)
{
	const char *s = getenv("GGUFLINT_SRCDIR");

	return s != NULL ? s : ".";
}

char *
test_slurp(const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	char buf[8192];
	FILE *f = fopen(path, "rb");
	size_t n;

	if (f == NULL)
		return NULL;
	while ((n = fread(buf, 1, sizeof buf, f)) > 0)
		strbuf_add(&sb, buf, n);
	fclose(f);
	return strbuf_detach(&sb);
}

unsigned
test_valgrind_step(unsigned n)
{
	return getenv("GGUFLINT_VALGRIND") != NULL && n > 1 ? n : 1;
}

/* 1 when this program was built with AddressSanitizer. */
static int
built_with_asan(void)
{
#if defined(__SANITIZE_ADDRESS__)
	return 1;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
	return 1;
#else
	return 0;
#endif
#else
	return 0;
#endif
}

unsigned
test_sample_step(unsigned valgrind, unsigned asan)
{
	if (getenv("GGUFLINT_VALGRIND") != NULL)
		return valgrind > 1 ? valgrind : 1;
	if (built_with_asan() && getenv("GGUFLINT_SAMPLE_ALL") == NULL)
		return asan > 1 ? asan : 1;
	return 1;
}

int
test_asan_sampled(void)
{
	return test_sample_step(1, 2) > 1;
}

int
test_have_asan(void)
{
	/* Under valgrind an address-space limit fails the same way. */
	if (getenv("GGUFLINT_VALGRIND") != NULL)
		return 1;
	return built_with_asan();
}

void
test_remote_env(char *dir, size_t n, const char *tag)
{
	static const char *const vars[] = { "http_proxy", "https_proxy",
		"HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "all_proxy",
		"HF_TOKEN", "HF_ENDPOINT", "CURL_CA_BUNDLE", "SSL_CERT_FILE" };

	for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++)
		unsetenv(vars[i]);
	snprintf(dir, n, "/tmp/gguflint-%s-XXXXXX", tag);
	cr_assert(mkdtemp(dir) != NULL);
	setenv("XDG_CACHE_HOME", dir, 1);
}

void
test_remote_env_done(const char *dir)
{
	char *cmd = xasprintf("rm -rf '%s'", dir);

	cr_expect(system(cmd) == 0);
	free(cmd);
}
