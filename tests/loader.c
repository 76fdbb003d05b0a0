/*
 * loader.c - llama.cpp's model loader seen from the tests (loader.h):
 * tests/llama-load's verdicts on files, and gguflint's verdict on the same
 * files with a llama.cpp profile.
 */
#if !defined(_GNU_SOURCE) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L
#endif

#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/util.h"
#include "loader.h"
#include "testutil.h"

const char *
llama_base_lib(void)
{
	static char path[4096];
	const char *dir = getenv("GGUFLINT_LLAMA");
	struct stat st;

	if (dir == NULL || *dir == '\0')
		return NULL;
	snprintf(path, sizeof path, "%s/cpu/libggml-base.so", dir);
	return stat(path, &st) == 0 ? path : NULL;
}

/* tests/llama-load beside the program under test, or NULL. */
char *
llama_load_bin(void)
{
	const char *bin = getenv("GGUFLINT_BIN");
	const char *slash = bin != NULL ? strrchr(bin, '/') : NULL;
	char *path;

	if (slash == NULL)
		return NULL;
	path = xasprintf("%.*s/tests/llama-load", (int)(slash - bin), bin);
	if (access(path, X_OK) != 0) {
		free(path);
		return NULL;
	}
	return path;
}

/* Run llama-load on the n files of paths; its stdout (a verdict line a
 * file). */
char *
loader_verdicts(const char *prog, char *const *paths, size_t n)
{
	const char *dir = getenv("GGUFLINT_LLAMA");
	char *cpu = xasprintf("%s/cpu", dir);
	char **argv = xcalloc(n + 3, sizeof *argv);
	int fds[2], status;
	struct strbuf out = STRBUF_INIT;
	char buf[4096];
	ssize_t got;
	pid_t pid;

	argv[0] = (char *)prog;
	argv[1] = cpu;
	for (size_t i = 0; i < n; i++)
		argv[i + 2] = paths[i];
	cr_assert(pipe(fds) == 0);
	fflush(NULL);
	pid = fork();
	cr_assert(pid >= 0);
	if (pid == 0) {
		dup2(fds[1], 1);
		close(fds[0]);
		close(fds[1]);
		freopen("/dev/null", "w", stderr);
		execv(prog, argv);
		_exit(127);
	}
	close(fds[1]);
	while ((got = read(fds[0], buf, sizeof buf)) > 0)
		strbuf_add(&out, buf, (size_t)got);
	close(fds[0]);
	cr_assert(waitpid(pid, &status, 0) == pid);
	cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	    "%s failed (status %d)", prog, status);
	free(argv);
	free(cpu);
	return strbuf_detach(&out);
}

/* The error codes of a text report, space-separated (static). */
const char *
error_codes(const char *text)
{
	static char codes[512];
	const char *p = text;

	codes[0] = '\0';
	while ((p = strstr(p, ": error: ")) != NULL) {
		p += strlen(": error: ");
		if (strlen(codes) + 6 < sizeof codes) {
			strncat(codes, p, 4);
			strcat(codes, " ");
		}
	}
	return codes;
}

/* One verdict line: its letter, and the file path it names. */
const char *
verdict_of(const char *lines, const char *path, char *letter,
    const char **reason)
{
	const char *p = lines;
	size_t n = strlen(path);

	while (p != NULL && *p != '\0') {
		if (strncmp(p + 2, path, n) == 0 &&
		    (p[2 + n] == '\n' || p[2 + n] == '\t')) {
			*letter = p[0];
			*reason = p[2 + n] == '\t' ? p + 3 + n : "";
			return p;
		}
		p = strchr(p, '\n');
		p = p != NULL ? p + 1 : NULL;
	}
	return NULL;
}

/*
 * gguflint on path as llama.cpp's model loader would take it, into r:
 * linted alone, or, a companion by its role, as the main model of itself
 * as its companion. Returns whether it is judged as a companion (then the
 * error must be M022).
 */
bool
lint_as_model(const char *path, struct test_run *r)
{
	const char *argv[] = { "--no-config", "-p", LOADER_PROFILE, "--color",
		"never", path, NULL, NULL, NULL };

	test_run_bin(r, argv, NULL, 0);
	if (strstr(r->out, " P010 companion-alone: a companion file") == NULL)
		return false;
	test_run_free(r);
	argv[6] = "--mmproj";
	argv[7] = path;
	test_run_bin(r, argv, NULL, 0);
	return true;
}

/* gguflint's verdict r refuses the file as llama.cpp's loader does. */
bool
lint_refuses(const struct test_run *r, bool companion)
{
	const char *codes = error_codes(r->out);

	return r->status == 1 &&
	    (companion ? strstr(codes, "M022") != NULL : codes[0] != '\0');
}

/*
 * loader_run (loader.h): run argv (argv[0] a path) with
 * GGML_VK_VISIBLE_DEVICES=0, its stdout captured, killed after timeout
 * seconds. Returns the output (NUL-terminated, the caller frees it) and
 * *status (the exit status, or 128+signal).
 */
char *
loader_run(const char *const argv[], unsigned timeout, int *status)
{
	struct strbuf out = STRBUF_INIT;
	char buf[4096];
	int fds[2], st;
	ssize_t n;
	pid_t pid;

	cr_assert(pipe(fds) == 0, "pipe: %s", strerror(errno));
	pid = fork();
	cr_assert(pid >= 0, "fork: %s", strerror(errno));
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);
		dup2(fds[1], 1);
		if (null >= 0 && getenv("LLAMA_ORACLE_LOG") == NULL)
			dup2(null, 2);
		close(fds[0]);
		setenv("GGML_VK_VISIBLE_DEVICES", "0", 1);
		alarm(timeout);
		execv(argv[0], (char *const *)argv);
		_exit(127);
	}
	close(fds[1]);
	while ((n = read(fds[0], buf, sizeof buf)) > 0 ||
	    (n < 0 && errno == EINTR))
		if (n > 0)
			strbuf_add(&out, buf, (size_t)n);
	close(fds[0]);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	*status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	strbuf_add(&out, "", 1);
	return strbuf_detach(&out);
}
