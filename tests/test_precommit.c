/*
 * test_precommit.c - the hook, its build and the action on any machine.
 *
 * The pre-commit hook (.pre-commit-hooks.yaml and tools/pre-commit-hook)
 * driven by the real pre-commit: `pre-commit try-repo SRCDIR gguflint
 * --files FILE` in a scratch git repository, with the build directory
 * first on PATH so that the hook runs the gguflint just built. A good
 * model passes (0), a truncated one fails (1). The gguflint-system hook
 * runs the installed gguflint, and without one says how to install it.
 * README's pre-commit snippet names a commit of the history that has the
 * hook.
 *
 * bootstrap, the hook's fallback build, on machines without dpkg-query or
 * apt-get, and missing a tool or a module (a PATH of links to the test's
 * programs but some, and a fake pkg-config), run on a copy of bootstrap
 * and configure.ac so that the tree is never touched. The GitHub Action's
 * script, tools/action-run, with GitHub's variables faked.
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
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "jsontree.h"
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

/* Skip unless SRCDIR is the top of a git work tree (not a tarball). */
static void
require_git_tree(void)
{
	struct strbuf cmd = STRBUF_INIT;

	strbuf_adds(&cmd, "cd ");
	sh_quote(&cmd, test_srcdir());
	strbuf_adds(&cmd, " && test \"$(git rev-parse --show-toplevel "
	    "2>/dev/null)\" = \"$(pwd -P)\"");
	if (sh(strbuf_cstr(&cmd)) != 0) {
		strbuf_free(&cmd);
		cr_skip_test("GGUFLINT_SRCDIR (%s) is not a git work tree: no "
		    "history to look the revision up in", test_srcdir());
	}
	strbuf_free(&cmd);
}

/*
 * The README's pre-commit snippet names a real revision: its rev is the
 * full id of a commit of this repository's history (an ancestor of HEAD)
 * that has the hook, never a placeholder.
 */
Test(precommit, readme_rev_is_a_commit_with_the_hook)
{
	struct strbuf cmd = STRBUF_INIT;
	char *path, *readme, *snippet, *rev, *end;
	size_t n = 0;

	require_git_tree();
	path = xasprintf("%s/README.md", test_srcdir());
	readme = slurp(path);
	snippet = strstr(readme, "```yaml\nrepos:\n");
	cr_assert(snippet != NULL, "no pre-commit snippet in %s", path);
	rev = strstr(snippet, "\n    rev: ");
	end = strstr(snippet + 3, "```");
	cr_assert(rev != NULL && end != NULL && rev < end,
	    "no rev: in the snippet");
	rev += strlen("\n    rev: ");
	while (rev[n] != '\0' && strchr("0123456789abcdef", rev[n]) != NULL)
		n++;
	cr_assert(n == 40 && (rev[n] == '\n' || rev[n] == ' '),
	    "rev is not a full commit id: %.50s", rev);
	rev[n] = '\0';
	strbuf_adds(&cmd, "cd ");
	sh_quote(&cmd, test_srcdir());
	strbuf_addf(&cmd, " && git cat-file -e '%s^{commit}' && "
	    "git merge-base --is-ancestor '%s' HEAD && "
	    "git cat-file -e '%s:.pre-commit-hooks.yaml' && "
	    "git cat-file -e '%s:tools/pre-commit-hook'", rev, rev, rev, rev);
	cr_assert(sh(strbuf_cstr(&cmd)) == 0, "README's rev %s is not a "
	    "commit of HEAD's history with .pre-commit-hooks.yaml and "
	    "tools/pre-commit-hook", rev);
	strbuf_free(&cmd);
	free(readme);
	free(path);
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
try_hook(const char *dir, const char *hook, const char *path,
    const char *file, char **out)
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
	strbuf_addf(&cmd, " %s --ref %s --verbose --files ", hook, ref);
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

/* try_repo: try_hook of the hook that builds gguflint when needed. */
static int
try_repo(const char *dir, const char *path, const char *file, char **out)
{
	return try_hook(dir, "gguflint", path, file, out);
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

/* Skip unless HEAD's .pre-commit-hooks.yaml has the gguflint-system
 * hook (besides require_precommit's conditions). */
static void
require_system_hook(void)
{
	struct strbuf cmd = STRBUF_INIT;

	require_precommit();
	strbuf_adds(&cmd, "git -C ");
	sh_quote(&cmd, test_srcdir());
	strbuf_adds(&cmd, " show HEAD:.pre-commit-hooks.yaml | "
	    "grep -q '^- id: gguflint-system$'");
	if (sh(strbuf_cstr(&cmd)) != 0) {
		strbuf_free(&cmd);
		cr_skip_test("HEAD's .pre-commit-hooks.yaml has no "
		    "gguflint-system hook yet (commit it to test it)");
	}
	strbuf_free(&cmd);
}

/* The gguflint-system hook runs the gguflint on PATH, as it is: the
 * findings of a truncated model fail the commit. */
Test(precommit, system_hook_runs_the_installed_gguflint)
{
	char *dir, *out, *path;
	int status;

	require_system_hook();
	dir = scratch_repo();
	path = path_with_build_dir();
	status = try_hook(dir, "gguflint-system", path, "bad.gguf", &out);
	cr_assert_eq(status, 1, "pre-commit exited %d:\n%s", status, out);
	cr_assert(strstr(out, "F010 tensor-data-out-of-bounds") != NULL,
	    "%s", out);
	cr_assert(strstr(out, "pre-commit-build.log") == NULL, "%s", out);
	free(out);
	status = try_hook(dir, "gguflint-system", path, "good.gguf", &out);
	cr_assert_eq(status, 0, "pre-commit exited %d:\n%s", status, out);
	free(out);
	free(path);
	rm_rf(dir);
	free(dir);
}

/* Without gguflint on PATH, the gguflint-system hook builds nothing: it
 * fails the commit and says how to install gguflint. */
Test(precommit, system_hook_says_how_to_install)
{
	const char *path = "/usr/local/bin:/usr/bin:/bin";
	char *dir, *out, *cmd;
	int status;

	require_system_hook();
	cmd = xasprintf("PATH=%s command -v gguflint >/dev/null", path);
	if (sh(cmd) == 0) {
		free(cmd);
		cr_skip_test("gguflint is installed in %s", path);
	}
	free(cmd);
	dir = scratch_repo();
	status = try_hook(dir, "gguflint-system", path, "good.gguf", &out);
	cr_assert_eq(status, 1, "pre-commit exited %d:\n%s", status, out);
	cr_assert(strstr(out, "gguflint: not installed on PATH") != NULL &&
	    strstr(out, "apt-get install") != NULL &&
	    strstr(out, "hook id gguflint") != NULL, "%s", out);
	free(out);
	rm_rf(dir);
	free(dir);
}

/* A model's suffix in any case is the hook's: MODEL.GGUF is linted. */
Test(precommit, upper_case_suffix_is_linted)
{
	struct strbuf cmd = STRBUF_INIT;
	char *dir, *out, *path;
	int status;

	require_precommit();
	dir = scratch_repo();
	strbuf_adds(&cmd, "cd ");
	sh_quote(&cmd, dir);
	strbuf_adds(&cmd, "/repo && cp bad.gguf BAD.GGUF && git add BAD.GGUF");
	cr_assert(sh(strbuf_cstr(&cmd)) == 0);
	path = path_with_build_dir();
	status = try_repo(dir, path, "BAD.GGUF", &out);
	cr_assert_eq(status, 1, "pre-commit exited %d:\n%s", status, out);
	cr_assert(strstr(out, "BAD.GGUF:0x") != NULL, "%s", out);
	free(out);
	free(path);
	strbuf_free(&cmd);
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

/*
 * machine: a PATH for a machine that lacks some programs: dir/fake (the
 * test's own programs, first), then dir/bin, a link to every file of the
 * test's PATH but those whose names match the shell pattern lacks.
 * Returned as "dir/fake:dir/bin"; the caller frees it.
 */
static char *
machine(const char *dir, const char *lacks)
{
	struct strbuf cmd = STRBUF_INIT;

	strbuf_adds(&cmd, "cd ");
	sh_quote(&cmd, dir);
	/* the last directory of PATH first, so that the first one wins */
	strbuf_addf(&cmd, " && mkdir -p fake bin && r= && IFS=: && "
	    "for d in $PATH; do r=\"$d:$r\"; done && "
	    "for d in $r; do [ -d \"$d\" ] && "
	    "ln -sf \"$d\"/* bin/ 2>/dev/null; done; unset IFS; "
	    "cd bin && for b in *; do case $b in %s) rm -f \"$b\";; esac; "
	    "done", lacks);
	cr_assert(sh(strbuf_cstr(&cmd)) == 0, "%s", strbuf_cstr(&cmd));
	strbuf_free(&cmd);
	return xasprintf("%s/fake:%s/bin", dir, dir);
}

/* fake: the program dir/fake/name, a shell script of body. */
static void
fake(const char *dir, const char *name, const char *body)
{
	char *path = xasprintf("%s/fake/%s", dir, name);
	FILE *f = fopen(path, "w");

	cr_assert(f != NULL, "%s", path);
	fprintf(f, "#!/bin/sh\n%s\n", body);
	cr_assert(fclose(f) == 0);
	cr_assert(chmod(path, 0755) == 0);
	free(path);
}

/* fake_pkgconfig: a pkg-config in dir/fake that does not find module and
 * asks the real one about the rest. */
static void
fake_pkgconfig(const char *dir, const char *module)
{
	struct strbuf body = STRBUF_INIT;
	char *real = xasprintf("%s/real-pkg-config", dir);
	struct strbuf cmd = STRBUF_INIT;

	strbuf_adds(&cmd, "command -v pkg-config > ");
	sh_quote(&cmd, real);
	if (sh(strbuf_cstr(&cmd)) != 0)
		cr_skip_test("no pkg-config on PATH");
	strbuf_addf(&body, "for a; do [ \"$a\" = '%s' ] && exit 1; done\n"
	    "exec \"$(cat '%s')\" \"$@\"", module, real);
	fake(dir, "pkg-config", strbuf_cstr(&body));
	strbuf_free(&body);
	strbuf_free(&cmd);
	free(real);
}

/* scratch_src: a folder with the source tree's bootstrap and
 * configure.ac (and extra appended to configure.ac), where bootstrap can
 * run without touching the tree; the caller frees it (rm_rf, free). */
static char *
scratch_src(const char *extra)
{
	struct strbuf cmd = STRBUF_INIT;
	char *dir = xstrdup("/tmp/gguflint-bootstrap-XXXXXX");

	cr_assert(mkdtemp(dir) != NULL);
	strbuf_adds(&cmd, "cd ");
	sh_quote(&cmd, dir);
	strbuf_adds(&cmd, " && mkdir src && cp ");
	sh_quote(&cmd, test_srcdir());
	strbuf_adds(&cmd, "/bootstrap ");
	sh_quote(&cmd, test_srcdir());
	strbuf_addf(&cmd, "/configure.ac src/ && printf '%%s\\n' '%s' "
	    ">> src/configure.ac", extra != NULL ? extra : "dnl");
	cr_assert(sh(strbuf_cstr(&cmd)) == 0, "%s", strbuf_cstr(&cmd));
	strbuf_free(&cmd);
	return dir;
}

/*
 * run_bootstrap: run dir/src/bootstrap with args under path; its status,
 * with its stdout and stderr in *out and *err.
 */
static int
run_bootstrap(const char *dir, const char *path, const char *args,
    char **out, char **err)
{
	struct strbuf cmd = STRBUF_INIT;
	char *o = xasprintf("%s/out", dir), *e = xasprintf("%s/err", dir);
	int status;

	strbuf_adds(&cmd, "PATH=");
	sh_quote(&cmd, path);
	strbuf_adds(&cmd, " /bin/sh ");
	sh_quote(&cmd, dir);
	strbuf_addf(&cmd, "/src/bootstrap %s > '%s' 2> '%s'", args, o, e);
	status = sh(strbuf_cstr(&cmd));
	*out = slurp(o);
	*err = slurp(e);
	strbuf_free(&cmd);
	free(o);
	free(e);
	return status;
}

/* A machine with every dependency but no dpkg-query or apt-get (Fedora,
 * Arch, macOS): the check passes. */
Test(bootstrap, builds_without_dpkg)
{
	char *dir = scratch_src(NULL), *path, *out, *err;
	int status;

	path = machine(dir, "dpkg*|apt*");
	status = run_bootstrap(dir, path, "--check", &out, &err);
	cr_assert_eq(status, 0, "bootstrap exited %d:\n%s%s", status, out,
	    err);
	cr_assert(strstr(out, "everything the build requires is there") !=
	    NULL, "%s", out);
	cr_assert_str_eq(err, "");
	free(out);
	free(err);
	free(path);
	rm_rf(dir);
	free(dir);
}

/* PCRE2 missing: bootstrap names the module and its package on each
 * system, exits 1, and generates nothing. */
Test(bootstrap, names_a_missing_module)
{
	char *dir = scratch_src(NULL), *path, *out, *err, *conf;
	int status;

	path = machine(dir, "dpkg*|apt*");
	fake_pkgconfig(dir, "libpcre2-8");
	status = run_bootstrap(dir, path, "", &out, &err);
	cr_assert_eq(status, 1, "bootstrap exited %d:\n%s%s", status, out,
	    err);
	cr_assert(strstr(err, "the pkg-config module libpcre2-8 (PCRE2)") !=
	    NULL, "%s", err);
	cr_assert(strstr(err, "Debian/Ubuntu:    sudo apt-get install "
	    "libpcre2-dev\n") != NULL, "%s", err);
	cr_assert(strstr(err, "Fedora:           sudo dnf install "
	    "pcre2-devel\n") != NULL, "%s", err);
	cr_assert(strstr(err, "Arch:             sudo pacman -S pcre2\n") !=
	    NULL, "%s", err);
	cr_assert(strstr(err, "macOS (Homebrew): brew install pcre2\n") !=
	    NULL, "%s", err);
	cr_assert(strstr(err, "yaml") == NULL, "libyaml is there: %s", err);
	conf = xasprintf("%s/src/configure", dir);
	cr_assert(access(conf, F_OK) != 0, "autoreconf ran");
	free(conf);
	free(out);
	free(err);
	free(path);
	rm_rf(dir);
	free(dir);
}

/* Criterion missing: said, and the build goes on (it is for the tests). */
Test(bootstrap, criterion_is_optional)
{
	char *dir = scratch_src(NULL), *path, *out, *err;
	int status;

	path = machine(dir, "dpkg*|apt*");
	fake_pkgconfig(dir, "criterion");
	status = run_bootstrap(dir, path, "--check", &out, &err);
	cr_assert_eq(status, 0, "bootstrap exited %d:\n%s%s", status, out,
	    err);
	cr_assert(strstr(out, "optional, not found") != NULL &&
	    strstr(out, "module criterion (Criterion, for the tests") !=
	    NULL && strstr(out, "libcriterion-dev") != NULL, "%s", out);
	free(out);
	free(err);
	free(path);
	rm_rf(dir);
	free(dir);
}

/* A tool missing (automake; pkg-config, without which no library can be
 * asked for): named, with its packages. */
Test(bootstrap, names_a_missing_tool)
{
	char *dir = scratch_src(NULL), *path, *out, *err;
	int status;

	path = machine(dir, "dpkg*|apt*|automake*|pkg-config|pkgconf");
	status = run_bootstrap(dir, path, "--check", &out, &err);
	cr_assert_eq(status, 1, "bootstrap exited %d:\n%s%s", status, out,
	    err);
	cr_assert(strstr(err, "the tool automake\n") != NULL, "%s", err);
	cr_assert(strstr(err, "the tool pkg-config\n") != NULL, "%s", err);
	cr_assert(strstr(err, "sudo dnf install automake "
	    "pkgconf-pkg-config\n") != NULL, "%s", err);
	free(out);
	free(err);
	/* a compiler that compiles nothing: the C library's headers */
	fake(dir, "gcc", "exit 1");
	status = run_bootstrap(dir, path, "--check", &out, &err);
	cr_assert_eq(status, 1, "bootstrap exited %d:\n%s%s", status, out,
	    err);
	cr_assert(strstr(err, "the C library headers (a test program did not "
	    "compile with gcc)\n") != NULL && strstr(err, "sudo apt-get "
	    "install automake libc6-dev pkg-config\n") != NULL, "%s", err);
	free(out);
	free(err);
	free(path);
	rm_rf(dir);
	free(dir);
}

/* The libraries are read from configure.ac: a module it requires (as
 * libcurl for remote reading) is required, one with a fallback is not. */
Test(bootstrap, modules_come_from_configure_ac)
{
	static const char *const extra[] = {
		"PKG_CHECK_MODULES([CURL], [libcurl >= 7.68])",
		"PKG_CHECK_MODULES([CURL], [libcurl],\n  [have_curl=yes], "
		"[have_curl=no])",
	};
	char *dir, *path, *out, *err;
	int status;
	size_t i;

	for (i = 0; i < 2; i++) {
		dir = scratch_src(extra[i]);
		path = machine(dir, "dpkg*|apt*");
		fake_pkgconfig(dir, "libcurl");
		status = run_bootstrap(dir, path, "--check", &out, &err);
		cr_assert_eq(status, i == 0 ? 1 : 0, "%s: exited %d:\n%s%s",
		    extra[i], status, out, err);
		cr_assert(strstr(i == 0 ? err : out, "the pkg-config module "
		    "libcurl (libcurl)") != NULL && strstr(i == 0 ? err : out,
		    "libcurl4-openssl-dev") != NULL, "%s%s", out, err);
		free(out);
		free(err);
		free(path);
		rm_rf(dir);
		free(dir);
	}
}

/* As root where apt-get is (Debian, Ubuntu, a CI runner under sudo): the
 * missing packages are installed, then checked again. */
Test(bootstrap, installs_with_apt_get_as_root)
{
	char *dir, *path, *out, *err, *log, *body, *got;
	int status;

	if (geteuid() != 0)
		cr_skip_test("not root: bootstrap only names the packages");
	dir = scratch_src(NULL);
	path = machine(dir, "dpkg*|apt*");
	fake_pkgconfig(dir, "libpcre2-8");
	log = xasprintf("%s/apt.log", dir);
	body = xasprintf("echo \"$*\" >> '%s'", log);
	fake(dir, "apt-get", body);
	status = run_bootstrap(dir, path, "", &out, &err);
	/* the fake installs nothing: still missing after it */
	cr_assert_eq(status, 1, "bootstrap exited %d:\n%s%s", status, out,
	    err);
	cr_assert(strstr(out, "bootstrap: installing libpcre2-dev\n") != NULL,
	    "%s", out);
	got = slurp(log);
	cr_assert(strstr(got, "install -y -qq -o DPkg::Lock::Timeout=300 "
	    "libpcre2-dev\n") != NULL, "%s", got);
	cr_assert(strstr(err, "module libpcre2-8") != NULL, "%s", err);
	free(got);
	free(body);
	free(log);
	free(out);
	free(err);
	free(path);
	rm_rf(dir);
	free(dir);
}

/* No gguflint on PATH and PCRE2 missing: the hook's build stops at once,
 * and the hook shows what is missing and its packages (status 2). */
Test(precommit, hook_names_what_its_build_misses)
{
	char *dir, *out, *path;
	int status;

	require_precommit();
	dir = scratch_repo();
	path = machine(dir, "dpkg*|apt*|gguflint");
	fake_pkgconfig(dir, "libpcre2-8");
	status = try_repo(dir, path, "bad.gguf", &out);
	cr_assert_eq(status, 1, "pre-commit exited %d:\n%s", status, out);
	cr_assert(strstr(out, "the pkg-config module libpcre2-8 (PCRE2)") !=
	    NULL && strstr(out, "sudo dnf install pcre2-devel") != NULL,
	    "%s", out);
	cr_assert(strstr(out, "gguflint: the build failed") != NULL, "%s", out);
	cr_assert(strstr(out, "exit code: 2") != NULL, "%s", out);
	free(out);
	free(path);
	rm_rf(dir);
	free(dir);
}

/* No gguflint on PATH: the hook builds one in its clone, then runs it, on
 * a machine without dpkg-query or apt-get. */
Test(precommit, hook_builds_gguflint_when_not_on_path)
{
	char *dir, *out, *path;
	int status;

	if (getenv("GGUFLINT_VALGRIND") != NULL)
		cr_skip_test("make check-valgrind: the hook's build and its "
		    "gguflint run outside memcheck (make check runs this)");
	require_precommit();
	dir = scratch_repo();
	path = machine(dir, "dpkg*|apt*|gguflint");
	status = try_repo(dir, path, "bad.gguf", &out);
	cr_assert_eq(status, 1, "pre-commit exited %d:\n%s", status, out);
	cr_assert(strstr(out, "building it in") != NULL, "%s", out);
	cr_assert(strstr(out, "F010 tensor-data-out-of-bounds") != NULL, "%s",
	    out);
	free(out);
	free(path);
	rm_rf(dir);
	free(dir);
}

/*
 * The GitHub Action (action.yml): its work is tools/action-run's, run here
 * as the runner runs it, with GitHub's variables (GITHUB_OUTPUT,
 * GITHUB_STEP_SUMMARY, RUNNER_TEMP) pointing into a scratch folder and
 * the inputs as INPUT_* variables.
 */
struct action_run {
	int status;
	char *out, *err;	/* the script's stdout and stderr */
	char *outputs;		/* what it wrote to GITHUB_OUTPUT */
	char *summary;		/* to GITHUB_STEP_SUMMARY */
	char *sarif;		/* the log, or "" */
};

/* run_action: tools/action-run of script's tree, in dir/repo, under path,
 * with env (shell assignments of INPUT_* variables) in *r. */
static void
run_action(const char *dir, const char *script, const char *path,
    const char *env, struct action_run *r)
{
	struct strbuf cmd = STRBUF_INIT;
	char *f;

	strbuf_adds(&cmd, "cd ");
	sh_quote(&cmd, dir);
	strbuf_adds(&cmd, " && rm -f output summary gguflint.sarif && "
	    "cd repo && PATH=");
	sh_quote(&cmd, path);
	strbuf_adds(&cmd, " RUNNER_TEMP=");
	sh_quote(&cmd, dir);
	strbuf_adds(&cmd, " GITHUB_OUTPUT=\"$PWD/../output\" "
	    "GITHUB_STEP_SUMMARY=\"$PWD/../summary\" ");
	strbuf_addf(&cmd, "%s /bin/sh ", env);
	sh_quote(&cmd, script);
	strbuf_adds(&cmd, " > ../out 2> ../err");
	r->status = sh(strbuf_cstr(&cmd));
	f = xasprintf("%s/out", dir);
	r->out = slurp(f);
	free(f);
	f = xasprintf("%s/err", dir);
	r->err = slurp(f);
	free(f);
	f = xasprintf("%s/output", dir);
	r->outputs = slurp(f);
	free(f);
	f = xasprintf("%s/summary", dir);
	r->summary = slurp(f);
	free(f);
	f = xasprintf("%s/gguflint.sarif", dir);
	r->sarif = slurp(f);
	free(f);
	strbuf_free(&cmd);
}

static void
action_run_free(struct action_run *r)
{
	free(r->out);
	free(r->err);
	free(r->outputs);
	free(r->summary);
	free(r->sarif);
}

/* The source tree's tools/action-run. */
static char *
action_script(void)
{
	return xasprintf("%s/tools/action-run", test_srcdir());
}

static bool
have_python3(void)
{
	return sh("command -v python3 >/dev/null 2>&1") == 0;
}

/*
 * check_log: r's SARIF log parses, and its results of level error (SARIF's
 * default level is warning) number what the errors output says; returns
 * that number.
 */
static size_t
check_log(const struct action_run *r)
{
	const struct jsonnode *res, *lv;
	struct jsonnode *root;
	struct strbuf want = STRBUF_INIT;
	char *perr = NULL;
	size_t i, errors = 0;

	root = jsontree_parse(r->sarif, strlen(r->sarif), &perr);
	cr_assert(root != NULL, "the SARIF log does not parse: %s\n%s", perr,
	    r->sarif);
	cr_assert_str_eq(jsontree_str(jsontree_get(root, "version")),
	    "2.1.0");
	res = jsontree_pointer(root, "/runs/0/results");
	cr_assert(res != NULL && res->type == JSONTREE_ARRAY);
	for (i = 0; i < res->n; i++) {
		lv = jsontree_get(res->items[i], "level");
		errors += lv != NULL && strcmp(jsontree_str(lv), "error") == 0;
	}
	if (have_python3()) {
		strbuf_addf(&want, "errors=%zu\n", errors);
		cr_assert(strstr(r->outputs, strbuf_cstr(&want)) != NULL,
		    "want %s in the outputs:\n%s", strbuf_cstr(&want),
		    r->outputs);
	}
	strbuf_free(&want);
	jsontree_free(root);
	return errors;
}

/* The outputs name the exit status and the log where it was written. */
static void
check_outputs(const char *dir, const struct action_run *r, int status)
{
	char *want = xasprintf("exit-code=%d\n", status);

	cr_assert(strstr(r->outputs, want) != NULL, "want %s in:\n%s", want,
	    r->outputs);
	free(want);
	want = xasprintf("sarif-file=%s/gguflint.sarif\n", dir);
	cr_assert(strstr(r->outputs, want) != NULL, "want %s in:\n%s", want,
	    r->outputs);
	free(want);
}

Test(action, clean_model_passes)
{
	char *dir = scratch_repo(), *path = path_with_build_dir();
	char *script = action_script();
	struct action_run r;

	run_action(dir, script, path, "INPUT_PATHS=good.gguf "
	    "INPUT_PROFILE=mobile_2gb", &r);
	cr_assert_eq(r.status, 0, "exited %d:\n%s%s", r.status, r.out, r.err);
	check_outputs(dir, &r, 0);
	cr_assert_eq(check_log(&r), 0);
	cr_assert(strstr(r.err, "--profile mobile_2gb") != NULL, "%s", r.err);
	if (have_python3())
		cr_assert(strstr(r.summary, "### gguflint: 0 errors, 0 "
		    "warnings, 0 notes (exit status 0)\n") != NULL, "%s",
		    r.summary);
	action_run_free(&r);
	free(script);
	free(path);
	rm_rf(dir);
	free(dir);
}

/* A truncated model: exit 1, and the log holds its error all the same. */
Test(action, broken_model_fails_with_its_log)
{
	char *dir = scratch_repo(), *path = path_with_build_dir();
	char *script = action_script();
	struct action_run r;

	run_action(dir, script, path, "INPUT_PATHS='bad.gguf  good.gguf'", &r);
	cr_assert_eq(r.status, 1, "exited %d:\n%s%s", r.status, r.out, r.err);
	check_outputs(dir, &r, 1);
	cr_assert_geq(check_log(&r), 1);
	cr_assert(strstr(r.sarif, "\"ruleId\": \"F010\"") != NULL &&
	    strstr(r.sarif, "\"uri\": \"bad.gguf\"") != NULL, "%s", r.sarif);
	if (have_python3())
		cr_assert(strstr(r.summary, "| F010 | error | bad.gguf | ") !=
		    NULL, "%s", r.summary);
	action_run_free(&r);
	free(script);
	free(path);
	rm_rf(dir);
	free(dir);
}

/* fail-on, args and globs reach gguflint; a bad fail-on is status 2. */
Test(action, inputs_reach_gguflint)
{
	static const struct {
		const char *env;
		int status;
		size_t errors;
	} cases[] = {
		{ "INPUT_PATHS='*.gguf'", 1, 1 },
		{ "INPUT_PATHS=bad.gguf INPUT_FAIL_ON=never", 0, 1 },
		{ "INPUT_PATHS=bad.gguf INPUT_ARGS='--ignore F010'", 0, 0 },
		{ "INPUT_PATHS=good.gguf INPUT_FAIL_ON=warning "
		    "INPUT_ARGS='--max-warnings 0'", 0, 0 },
	};
	char *dir = scratch_repo(), *path = path_with_build_dir();
	char *script = action_script();
	struct action_run r;
	size_t i;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		run_action(dir, script, path, cases[i].env, &r);
		cr_assert_eq(r.status, cases[i].status, "%s: exited %d:\n%s%s",
		    cases[i].env, r.status, r.out, r.err);
		check_outputs(dir, &r, cases[i].status);
		cr_assert_eq(check_log(&r), cases[i].errors, "%s",
		    cases[i].env);
		action_run_free(&r);
	}
	run_action(dir, script, path, "INPUT_FAIL_ON=sometimes", &r);
	cr_assert_eq(r.status, 2);
	cr_assert(strstr(r.out, "::error title=gguflint::fail-on: expected "
	    "error, warning, info or never, not 'sometimes'") != NULL, "%s",
	    r.out);
	cr_assert(strstr(r.outputs, "exit-code=2\n") != NULL, "%s",
	    r.outputs);
	action_run_free(&r);
	free(script);
	free(path);
	rm_rf(dir);
	free(dir);
}

/* A model that cannot be read: status 2, whatever fail-on says. */
Test(action, unreadable_model_is_2)
{
	char *dir = scratch_repo(), *path = path_with_build_dir();
	char *script = action_script();
	struct action_run r;

	run_action(dir, script, path, "INPUT_PATHS=missing.gguf "
	    "INPUT_FAIL_ON=never", &r);
	cr_assert_eq(r.status, 2, "exited %d:\n%s%s", r.status, r.out, r.err);
	check_outputs(dir, &r, 2);
	cr_assert(strstr(r.err, "missing.gguf: No such file") != NULL, "%s",
	    r.err);
	action_run_free(&r);
	free(script);
	free(path);
	rm_rf(dir);
	free(dir);
}

/* No gguflint on PATH and a build that cannot be done: status 2, what is
 * missing on stderr, an error annotation, and no log to upload. */
Test(action, failed_build_is_2)
{
	struct strbuf cmd = STRBUF_INIT;
	char *dir = scratch_src(NULL), *path, *script, *log, *body, *got;
	char *want;
	struct action_run r;

	strbuf_adds(&cmd, "cd ");
	sh_quote(&cmd, dir);
	strbuf_adds(&cmd, " && mkdir repo src/tools && cp ");
	sh_quote(&cmd, test_srcdir());
	strbuf_adds(&cmd, "/tools/action-run src/tools/");
	cr_assert(sh(strbuf_cstr(&cmd)) == 0);
	strbuf_free(&cmd);
	path = machine(dir, "dpkg*|apt*|gguflint|sudo");
	fake_pkgconfig(dir, "libpcre2-8");
	script = xasprintf("%s/src/tools/action-run", dir);
	run_action(dir, script, path, "INPUT_PATHS=.", &r);
	cr_assert_eq(r.status, 2, "exited %d:\n%s%s", r.status, r.out, r.err);
	cr_assert(strstr(r.err, "building it in") != NULL &&
	    strstr(r.err, "the pkg-config module libpcre2-8") != NULL, "%s",
	    r.err);
	cr_assert(strstr(r.out, "::error title=gguflint::the build of "
	    "gguflint failed") != NULL, "%s", r.out);
	cr_assert(strstr(r.outputs, "exit-code=2\n") != NULL &&
	    strstr(r.outputs, "sarif-file=") == NULL, "%s", r.outputs);
	action_run_free(&r);
	/* not root, and sudo without a password (GitHub's runners): the
	 * packages are asked for as root, the build is the user's */
	log = xasprintf("%s/sudo.log", dir);
	body = xasprintf("echo \"$*\" >> '%s'", log);
	fake(dir, "sudo", body);
	fake(dir, "id", "echo 1000");
	run_action(dir, script, path, "INPUT_PATHS=.", &r);
	cr_assert_eq(r.status, 2, "exited %d:\n%s%s", r.status, r.out, r.err);
	got = slurp(log);
	want = xasprintf("-n true\n-n %s/src/bootstrap --deps\n", dir);
	cr_assert_str_eq(got, want);
	action_run_free(&r);
	free(want);
	free(got);
	free(body);
	free(log);
	free(script);
	free(path);
	rm_rf(dir);
	free(dir);
}

/*
 * action_tree: a scratch source tree (scratch_src) with tools/action-run,
 * and dir/repo holding the example as good.gguf and its first 100 000
 * bytes as bad.gguf; a PATH of a machine without gguflint, dpkg-buildpackage,
 * apt-get and sudo, whose fakes log their calls to dir/calls: the package
 * build writes a .deb beside its tree, apt-get "installs" it as a gguflint
 * that runs $GGUFLINT_BIN, and sudo runs its command.
 */
static char *
action_tree(char **path)
{
	struct strbuf cmd = STRBUF_INIT, body = STRBUF_INIT;
	char *dir = scratch_src(NULL);
	const char *bin = getenv("GGUFLINT_BIN");

	cr_assert(bin != NULL, "GGUFLINT_BIN is not set");
	strbuf_adds(&cmd, "cd ");
	sh_quote(&cmd, dir);
	strbuf_adds(&cmd, " && mkdir repo src/tools && cp ");
	sh_quote(&cmd, test_srcdir());
	strbuf_adds(&cmd, "/tools/action-run src/tools/ && cp ");
	sh_quote(&cmd, test_srcdir());
	strbuf_adds(&cmd, "/examples/stories260K.gguf repo/good.gguf && "
	    "head -c 100000 repo/good.gguf > repo/bad.gguf");
	cr_assert(sh(strbuf_cstr(&cmd)) == 0, "%s", strbuf_cstr(&cmd));
	*path = machine(dir, "gguflint|dpkg-buildpackage|apt-get|sudo");
	strbuf_addf(&body, "echo built >> '%s/calls' && "
	    "echo deb > ../gguflint_0.1.0_amd64.deb", dir);
	fake(dir, "dpkg-buildpackage", strbuf_cstr(&body));
	strbuf_reset(&body);
	strbuf_addf(&body, "case \"$*\" in\n*.deb) echo installed >> "
	    "'%s/calls' && printf '#!/bin/sh\\nexec %%s \"$@\"\\n' '%s' > "
	    "'%s/fake/gguflint' && chmod +x '%s/fake/gguflint' ;;\n"
	    "update*) echo update >> '%s/calls' ;;\n"
	    "*) echo deps >> '%s/calls' ;;\nesac", dir, bin, dir, dir, dir,
	    dir);
	fake(dir, "apt-get", strbuf_cstr(&body));
	fake(dir, "sudo", "[ \"$1\" = -n ] && shift; exec \"$@\"");
	strbuf_free(&body);
	strbuf_free(&cmd);
	return dir;
}

/* The calls the fakes logged (dir/calls), then forgotten, and the
 * "installed" gguflint removed: the next run is a new job's. */
static char *
calls(const char *dir)
{
	char *f = xasprintf("%s/calls", dir), *got = slurp(f);
	char *g = xasprintf("%s/fake/gguflint", dir);

	unlink(f);
	unlink(g);
	free(f);
	free(g);
	return got;
}

/* On Debian: the package is built once, installed, and kept in the cache;
 * a later job installs the cached package and builds nothing. */
Test(action, package_is_built_once_and_cached)
{
	char *path, *dir = action_tree(&path), *got, *deb;
	char *script = xasprintf("%s/src/tools/action-run", dir);
	struct action_run r;

	run_action(dir, script, path, "INPUT_PATHS=bad.gguf", &r);
	cr_assert_eq(r.status, 1, "exited %d:\n%s%s", r.status, r.out, r.err);
	cr_assert(strstr(r.sarif, "\"ruleId\": \"F010\"") != NULL, "%s%s",
	    r.out, r.err);
	got = calls(dir);
	cr_assert_str_eq(got, "update\ndeps\nbuilt\ninstalled\n");
	free(got);
	deb = xasprintf("%s/gguflint-cache/gguflint_0.1.0_amd64.deb", dir);
	cr_assert(access(deb, F_OK) == 0, "no %s", deb);
	action_run_free(&r);
	run_action(dir, script, path, "INPUT_PATHS=good.gguf", &r);
	cr_assert_eq(r.status, 0, "exited %d:\n%s%s", r.status, r.out, r.err);
	got = calls(dir);
	cr_assert_str_eq(got, "installed\n");
	cr_assert(strstr(r.err, "installing gguflint_0.1.0_amd64.deb") !=
	    NULL, "%s", r.err);
	free(got);
	action_run_free(&r);
	free(deb);
	free(script);
	free(path);
	rm_rf(dir);
	free(dir);
}

/* build: source keeps the program in the cache, and a later job runs it
 * from there without building; an unknown build is status 2. */
Test(action, source_build_is_cached)
{
	char *path, *dir = action_tree(&path), *got, *cached;
	char *script = xasprintf("%s/src/tools/action-run", dir);
	struct action_run r;
	struct strbuf cmd = STRBUF_INIT;

	/* the tree's own gguflint stands for a build that succeeded */
	strbuf_adds(&cmd, "cp \"$GGUFLINT_BIN\" ");
	sh_quote(&cmd, dir);
	strbuf_adds(&cmd, "/src/gguflint");
	cr_assert(sh(strbuf_cstr(&cmd)) == 0);
	run_action(dir, script, path, "INPUT_BUILD=source INPUT_PATHS=bad.gguf",
	    &r);
	cr_assert_eq(r.status, 1, "exited %d:\n%s%s", r.status, r.out, r.err);
	action_run_free(&r);
	cached = xasprintf("%s/gguflint-cache/bin/gguflint", dir);
	cr_assert(access(cached, X_OK) == 0, "no %s", cached);
	strbuf_reset(&cmd);
	strbuf_adds(&cmd, "rm ");
	sh_quote(&cmd, dir);
	strbuf_adds(&cmd, "/src/gguflint");
	cr_assert(sh(strbuf_cstr(&cmd)) == 0);
	run_action(dir, script, path, "INPUT_BUILD=source INPUT_PATHS=bad.gguf",
	    &r);
	cr_assert_eq(r.status, 1, "exited %d:\n%s%s", r.status, r.out, r.err);
	cr_assert(strstr(r.err, "building") == NULL, "%s", r.err);
	got = calls(dir);
	cr_assert(got == NULL || got[0] == '\0', "calls: %s", got);
	free(got);
	action_run_free(&r);
	run_action(dir, script, path, "INPUT_BUILD=always", &r);
	cr_assert_eq(r.status, 2);
	cr_assert(strstr(r.out, "::error title=gguflint::build: expected auto, "
	    "package or source, not 'always'") != NULL, "%s", r.out);
	action_run_free(&r);
	strbuf_free(&cmd);
	free(cached);
	free(script);
	free(path);
	rm_rf(dir);
	free(dir);
}

/* README's workflow uses the action with inputs action.yml declares, and
 * action.yml passes each input to tools/action-run or a step. */
Test(action, readme_workflow_matches_action_yml)
{
	char *path = xasprintf("%s/README.md", test_srcdir());
	char *readme = slurp(path), *action, *p, *end, *key, *want;
	size_t n, used = 0;

	free(path);
	path = xasprintf("%s/action.yml", test_srcdir());
	action = slurp(path);
	cr_assert(strstr(action, "\n  using: composite\n") != NULL);
	cr_assert(strstr(action, "\"$GITHUB_ACTION_PATH/tools/action-run\"")
	    != NULL);
	p = strstr(readme, "      - uses: <owner>/gguflint@");
	cr_assert(p != NULL, "no workflow using the action in README.md");
	end = strstr(p, "```");
	cr_assert(end != NULL && (p = strstr(p, "        with:\n")) != NULL &&
	    p < end, "no with: in README's workflow");
	p += strlen("        with:\n");
	while (strncmp(p, "          ", 10) == 0 && p[10] != ' ') {
		n = strcspn(p + 10, ":");
		key = xstrndup(p + 10, n);
		want = xasprintf("\n  %s:\n    description: ", key);
		cr_assert(strstr(action, want) != NULL, "README's input %s is "
		    "not an input of action.yml", key);
		free(want);
		want = xasprintf("inputs.%s ", key);
		cr_assert(strstr(action, want) != NULL, "action.yml does not "
		    "use its input %s", key);
		free(want);
		free(key);
		used++;
		p = strchr(p, '\n') + 1;
	}
	cr_assert_geq(used, 4, "README's workflow shows %zu inputs", used);
	free(action);
	free(readme);
	free(path);
}
