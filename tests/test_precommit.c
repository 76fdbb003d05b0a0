/*
 * test_precommit.c - the pre-commit hook (.pre-commit-hooks.yaml and
 * tools/pre-commit-hook) driven by the real pre-commit: `pre-commit
 * try-repo SRCDIR gguflint --files FILE` in a scratch git repository, with
 * the build directory first on PATH so that the hook runs the gguflint just
 * built. A good model passes (0), a truncated one fails (1).
 *
 * try-repo clones SRCDIR at the commit HEAD names (given as --ref, so that
 * uncommitted changes are left out): the tests are skipped when SRCDIR is
 * not a git work tree whose HEAD has the hook files (a tarball under make
 * distcheck), or when pre-commit is not installed. One test leaves gguflint
 * off PATH, so that the hook builds it with ./bootstrap in pre-commit's
 * clone, as it does for a user who has not installed it.
 *
 * The tests that run external tools have no .timeout: with one, Criterion's
 * runner leaks a small allocation now and then, and LeakSanitizer fails the
 * sanitizer build for it.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "testutil.h"

static void
sh_quote(struct strbuf *sb, const char *s)
{
	strbuf_addc(sb, '\'');
	for (; *s != '\0'; s++) {
		if (*s == '\'')
			strbuf_adds(sb, "'\\''");
		else
			strbuf_addc(sb, *s);
	}
	strbuf_addc(sb, '\'');
}

/* sh: run a shell command; its exit status, or -1 when it did not exit. */
static int
sh(const char *cmd)
{
	int st = system(cmd);

	return st != -1 && WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static char *
slurp(const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	char buf[8192];
	size_t n;
	FILE *f = fopen(path, "rb");

	if (f != NULL) {
		while ((n = fread(buf, 1, sizeof buf, f)) > 0)
			strbuf_add(&sb, buf, n);
		fclose(f);
	}
	return strbuf_detach(&sb);
}

/* Skip unless pre-commit is installed and SRCDIR's HEAD has the hook. */
static void
require_precommit(void)
{
	struct strbuf cmd = STRBUF_INIT;

	if (sh("command -v pre-commit >/dev/null 2>&1") != 0)
		cr_skip_test("pre-commit is not installed (.ci/run installs "
		    "Debian's pre-commit)");
	strbuf_adds(&cmd, "cd ");
	sh_quote(&cmd, test_srcdir());
	strbuf_adds(&cmd, " && test \"$(git rev-parse --show-toplevel "
	    "2>/dev/null)\" = \"$(pwd -P)\" && "
	    "git cat-file -e HEAD:.pre-commit-hooks.yaml 2>/dev/null && "
	    "git cat-file -e HEAD:tools/pre-commit-hook 2>/dev/null");
	if (sh(strbuf_cstr(&cmd)) != 0) {
		strbuf_free(&cmd);
		cr_skip_test("GGUFLINT_SRCDIR (%s) is not a git work tree "
		    "whose HEAD has .pre-commit-hooks.yaml and "
		    "tools/pre-commit-hook; pre-commit try-repo needs one",
		    test_srcdir());
	}
	strbuf_free(&cmd);
}

/* A scratch git repository with the example model as good.gguf and its
 * first 100 000 bytes as bad.gguf (tensor data cut off: F010). */
static char *
scratch_repo(void)
{
	struct strbuf cmd = STRBUF_INIT;
	char *dir = xstrdup("/tmp/gguflint-precommit-XXXXXX");
	char *ex = xasprintf("%s/examples/stories260K.gguf", test_srcdir());

	cr_assert(mkdtemp(dir) != NULL);
	strbuf_adds(&cmd, "cd ");
	sh_quote(&cmd, dir);
	strbuf_adds(&cmd, " && mkdir repo && cd repo && git init -q && "
	    "git config user.email test@example.invalid && "
	    "git config user.name test && cp ");
	sh_quote(&cmd, ex);
	strbuf_adds(&cmd, " good.gguf && head -c 100000 good.gguf > bad.gguf "
	    "&& git add good.gguf bad.gguf");
	cr_assert(sh(strbuf_cstr(&cmd)) == 0, "%s", strbuf_cstr(&cmd));
	strbuf_free(&cmd);
	free(ex);
	return dir;
}

/* head: the commit SRCDIR's HEAD names, as 40 hex digits. */
static char *
head(void)
{
	struct strbuf cmd = STRBUF_INIT;
	char *dir = xstrdup("/tmp/gguflint-head-XXXXXX"), *out, *nl;

	cr_assert(mkdtemp(dir) != NULL);
	strbuf_adds(&cmd, "git -C ");
	sh_quote(&cmd, test_srcdir());
	strbuf_addf(&cmd, " rev-parse HEAD > '%s/head'", dir);
	cr_assert(sh(strbuf_cstr(&cmd)) == 0);
	strbuf_reset(&cmd);
	strbuf_addf(&cmd, "%s/head", dir);
	out = slurp(strbuf_cstr(&cmd));
	if ((nl = strchr(out, '\n')) != NULL)
		*nl = '\0';
	cr_assert_eq(strlen(out), 40, "HEAD is '%s'", out);
	strbuf_reset(&cmd);
	strbuf_addf(&cmd, "rm -rf '%s'", dir);
	cr_assert(sh(strbuf_cstr(&cmd)) == 0);
	strbuf_free(&cmd);
	free(dir);
	return out;
}

/*
 * try_repo: run the hook of SRCDIR's HEAD (--ref, so that pre-commit does
 * not mix in uncommitted changes) on file in the scratch repository under
 * dir, with path as PATH, and return pre-commit's exit status; its output
 * is stored in *out.
 */
static int
try_repo(const char *dir, const char *path, const char *file, char **out)
{
	struct strbuf cmd = STRBUF_INIT;
	char *log = xasprintf("%s/try-repo.log", dir);
	char *ref = head();
	int status;

	strbuf_adds(&cmd, "cd ");
	sh_quote(&cmd, dir);
	strbuf_adds(&cmd, "/repo && PRE_COMMIT_HOME=");
	sh_quote(&cmd, dir);
	strbuf_adds(&cmd, "/cache PATH=");
	sh_quote(&cmd, path);
	strbuf_adds(&cmd, " pre-commit try-repo ");
	sh_quote(&cmd, test_srcdir());
	strbuf_addf(&cmd, " gguflint --ref %s --verbose --files ", ref);
	sh_quote(&cmd, file);
	strbuf_adds(&cmd, " > ");
	sh_quote(&cmd, log);
	strbuf_adds(&cmd, " 2>&1");
	status = sh(strbuf_cstr(&cmd));
	*out = slurp(log);
	strbuf_free(&cmd);
	free(ref);
	free(log);
	return status;
}

/* PATH with the directory of $GGUFLINT_BIN first. */
static char *
path_with_build_dir(void)
{
	const char *bin = getenv("GGUFLINT_BIN");
	const char *path = getenv("PATH");
	char *copy, *p;

	cr_assert(bin != NULL, "GGUFLINT_BIN is not set");
	copy = xstrdup(bin);
	p = xasprintf("%s:%s", dirname(copy), path ? path : "/usr/bin:/bin");
	free(copy);
	return p;
}

static void
rm_rf(const char *dir)
{
	struct strbuf cmd = STRBUF_INIT;

	strbuf_adds(&cmd, "rm -rf ");
	sh_quote(&cmd, dir);
	cr_assert(sh(strbuf_cstr(&cmd)) == 0);
	strbuf_free(&cmd);
}

Test(precommit, good_model_passes)
{
	char *dir, *out, *path;
	int status;

	require_precommit();
	dir = scratch_repo();
	path = path_with_build_dir();
	status = try_repo(dir, path, "good.gguf", &out);
	cr_assert_eq(status, 0, "pre-commit exited %d:\n%s", status, out);
	cr_assert(strstr(out, "Passed") != NULL, "%s", out);
	free(out);
	free(path);
	rm_rf(dir);
	free(dir);
}

Test(precommit, truncated_model_fails)
{
	char *dir, *out, *path;
	int status;

	require_precommit();
	dir = scratch_repo();
	path = path_with_build_dir();
	status = try_repo(dir, path, "bad.gguf", &out);
	cr_assert_eq(status, 1, "pre-commit exited %d:\n%s", status, out);
	cr_assert(strstr(out, "Failed") != NULL, "%s", out);
	/* The hook's output is gguflint's: the finding, with its code. */
	cr_assert(strstr(out, "bad.gguf:0x") != NULL &&
	    strstr(out, "F010 tensor-data-out-of-bounds") != NULL, "%s", out);
	free(out);
	free(path);
	rm_rf(dir);
	free(dir);
}

/* A file that is not a model is not the hook's business: skipped. */
Test(precommit, other_files_are_skipped)
{
	struct strbuf cmd = STRBUF_INIT;
	char *dir, *out, *path;
	int status;

	require_precommit();
	dir = scratch_repo();
	strbuf_adds(&cmd, "cd ");
	sh_quote(&cmd, dir);
	strbuf_adds(&cmd, "/repo && echo hello > notes.txt && "
	    "git add notes.txt");
	cr_assert(sh(strbuf_cstr(&cmd)) == 0);
	path = path_with_build_dir();
	status = try_repo(dir, path, "notes.txt", &out);
	cr_assert_eq(status, 0, "pre-commit exited %d:\n%s", status, out);
	cr_assert(strstr(out, "(no files to check)Skipped") != NULL, "%s",
	    out);
	free(out);
	free(path);
	strbuf_free(&cmd);
	rm_rf(dir);
	free(dir);
}

/* No gguflint on PATH: the hook builds one in its clone, then runs it. */
Test(precommit, hook_builds_gguflint_when_not_on_path)
{
	const char *path = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:"
	    "/sbin:/bin";
	struct strbuf cmd = STRBUF_INIT;
	char *dir, *out;
	int status;

	require_precommit();
	strbuf_addf(&cmd, "PATH='%s' command -v gguflint >/dev/null", path);
	if (sh(strbuf_cstr(&cmd)) == 0)
		cr_skip_test("gguflint is installed in %s: the hook would not "
		    "build one", path);
	strbuf_free(&cmd);
	dir = scratch_repo();
	status = try_repo(dir, path, "bad.gguf", &out);
	cr_assert_eq(status, 1, "pre-commit exited %d:\n%s", status, out);
	cr_assert(strstr(out, "building it in") != NULL, "%s", out);
	cr_assert(strstr(out, "F010 tensor-data-out-of-bounds") != NULL, "%s",
	    out);
	free(out);
	rm_rf(dir);
	free(dir);
}
