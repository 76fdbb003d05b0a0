/*
 * test_ship.c - what a release ships: the version (--version, and the
 * JSON and SARIF reports, with the commit of a build from a checkout),
 * NEWS.md's entry for it, the Debian package's version, and the bash
 * completion (tools/bash-completion/gguflint) run by bash itself.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "jsontree.h"
#include "testutil.h"

/* sh_quote: s in single quotes for sh, appended to sb. */
static void
sh_quote(struct strbuf *sb, const char *s)
{
	strbuf_adds(sb, "'");
	for (; *s != '\0'; s++) {
		if (*s == '\'')
			strbuf_adds(sb, "'\\''");
		else
			strbuf_add(sb, s, 1);
	}
	strbuf_adds(sb, "'");
}

/* run_sh: cmd's standard output (sh -c) and, in *status, its exit
 * status. */
static char *
run_sh(const char *cmd, int *status)
{
	struct strbuf sb = STRBUF_INIT;
	char buf[4096];
	FILE *p = popen(cmd, "r");
	size_t n;

	cr_assert(p != NULL, "popen %s", cmd);
	while ((n = fread(buf, 1, sizeof buf, p)) > 0)
		strbuf_add(&sb, buf, n);
	*status = pclose(p);
	return strbuf_detach(&sb);
}

/* capture: cmd's standard output; cmd must exit 0. */
static char *
capture(const char *cmd)
{
	int status;
	char *out = run_sh(cmd, &status);

	cr_assert(status == 0, "exit status %d of: %s\n%s", status, cmd, out);
	return out;
}

/* version_commit: the commit --version names, "" when it names none. */
static char *
version_commit(void)
{
	static const char *const argv[] = { "--version", NULL };
	struct test_run r;
	regex_t re;
	regmatch_t m[3];
	char *commit;

	test_run_bin(&r, argv, NULL, 0);
	cr_assert_eq(r.status, 0);
	cr_assert(regcomp(&re,
		      "^gguflint ([^ ]+)( \\(commit "
		      "([0-9a-f]{12}(-dirty)?)\\))?\n$",
		      REG_EXTENDED) == 0);
	cr_assert(regexec(&re, r.out, 3, m, 0) == 0, "--version printed '%s'",
	    r.out);
	regfree(&re);
	cr_assert(m[1].rm_eo - m[1].rm_so ==
		    (regoff_t)strlen(PACKAGE_VERSION) &&
		strncmp(r.out + m[1].rm_so, PACKAGE_VERSION,
		    strlen(PACKAGE_VERSION)) == 0,
	    "--version printed '%s', not "
	    "configure.ac's %s",
	    r.out, PACKAGE_VERSION);
	commit = m[2].rm_so < 0 ? xstrdup("") :
				  xstrndup(r.out + m[2].rm_so + 9,
				      (size_t)(m[2].rm_eo - m[2].rm_so - 10));
	test_run_free(&r);
	return commit;
}

/* In a git checkout, the commit --version names is HEAD's (make writes it
 * at every build); from a tarball there is none. */
Test(ship, version_names_the_release_and_the_commit)
{
	struct strbuf cmd = STRBUF_INIT;
	char *commit = version_commit(), *git, *head;
	int status;

	strbuf_adds(&cmd, "test -e ");
	sh_quote(&cmd, test_srcdir());
	strbuf_adds(&cmd, "/.git && command -v git >/dev/null && echo yes");
	git = run_sh(strbuf_cstr(&cmd), &status);
	if (status != 0) {
		cr_assert_str_eq(commit, "",
		    "a build outside a checkout "
		    "names commit %s",
		    commit);
	} else {
		strbuf_reset(&cmd);
		strbuf_adds(&cmd, "git -C ");
		sh_quote(&cmd, test_srcdir());
		strbuf_adds(&cmd, " rev-parse --short=12 HEAD");
		head = capture(strbuf_cstr(&cmd));
		cr_assert(strlen(head) == 13 && strncmp(commit, head, 12) == 0,
		    "--version names commit '%s', HEAD is %s", commit, head);
		free(head);
	}
	free(git);
	free(commit);
	strbuf_free(&cmd);
}

/* report: the JSON tree of gguflint's report in fmt on the example. */
static struct jsonnode *
report(const char *fmt)
{
	char *ex = xasprintf("%s/examples/stories260K.gguf", test_srcdir());
	const char *argv[] = { "--format", fmt, ex, NULL };
	struct jsonnode *root;
	struct test_run r;
	char *err = NULL;

	test_run_bin(&r, argv, NULL, 0);
	cr_assert_eq(r.status, 0, "%s", r.err);
	root = jsontree_parse(r.out, r.out_len, &err);
	cr_assert(root != NULL, "--format %s: %s", fmt, err);
	test_run_free(&r);
	free(ex);
	return root;
}

/* str: the string at pointer p of root, or NULL (absent, null, another
 * type). */
static const char *
str(const struct jsonnode *root, const char *p)
{
	const struct jsonnode *n = jsontree_pointer(root, p);

	return n != NULL ? jsontree_str(n) : NULL;
}

/* A report says which gguflint wrote it: JSON's "gguflint" object, the
 * SARIF driver's version, semanticVersion and commit property. */
Test(ship, reports_carry_the_version_and_the_commit)
{
	char *commit = version_commit();
	struct jsonnode *json = report("json"), *sarif = report("sarif");
	const char *drv = "/runs/0/tool/driver";
	char *p;

	cr_assert_str_eq(str(json, "/gguflint/version"), PACKAGE_VERSION);
	if (commit[0] == '\0')
		cr_assert_null(str(json, "/gguflint/commit"));
	else
		cr_assert_str_eq(str(json, "/gguflint/commit"), commit);
	p = xasprintf("%s/version", drv);
	cr_assert_str_eq(str(sarif, p), PACKAGE_VERSION);
	free(p);
	p = xasprintf("%s/semanticVersion", drv);
	cr_assert_str_eq(str(sarif, p), PACKAGE_VERSION);
	free(p);
	p = xasprintf("%s/properties/commit", drv);
	if (commit[0] == '\0')
		cr_assert_null(str(sarif, p));
	else
		cr_assert_str_eq(str(sarif, p), commit);
	free(p);
	jsontree_free(json);
	jsontree_free(sarif);
	free(commit);
}

/* NEWS.md has an entry for this release, and the Debian package is this
 * release: configure.ac's version is the one place it is raised. */
Test(ship, news_and_the_package_follow_configure_ac)
{
	char *path = xasprintf("%s/NEWS.md", test_srcdir());
	char *news = test_slurp(path), *want, *log;

	cr_assert(news != NULL, "no %s", path);
	want = xasprintf("\n## %s (", PACKAGE_VERSION);
	cr_assert(strstr(news, want) != NULL,
	    "NEWS.md has no '## %s (DATE)' "
	    "entry",
	    PACKAGE_VERSION);
	free(want);
	free(path);
	path = xasprintf("%s/debian/changelog", test_srcdir());
	log = test_slurp(path);
	cr_assert(log != NULL, "no %s", path);
	want = xasprintf("gguflint (%s) ", PACKAGE_VERSION);
	cr_assert(strncmp(log, want, strlen(want)) == 0,
	    "debian/changelog "
	    "begins '%.40s', not '%s'",
	    log, want);
	free(want);
	free(log);
	free(news);
	free(path);
}

/* complete: what the bash completion offers for words (the last is the
 * one being completed), with $GGUFLINT_BIN as the program, one per line. */
static char *
complete(const char *words)
{
	struct strbuf cmd = STRBUF_INIT, script = STRBUF_INIT;
	const char *bin = getenv("GGUFLINT_BIN");
	char *out;

	cr_assert(bin != NULL, "GGUFLINT_BIN is not set");
	strbuf_adds(&script, "source \"$1\"; COMP_WORDS=(\"$2\" ");
	strbuf_adds(&script, words);
	strbuf_adds(&script,
	    "); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); "
	    "_gguflint; printf '%s\\n' \"${COMPREPLY[@]}\"");
	strbuf_adds(&cmd, "bash -c ");
	sh_quote(&cmd, strbuf_cstr(&script));
	strbuf_adds(&cmd, " completion ");
	strbuf_adds(&cmd, test_srcdir());
	strbuf_adds(&cmd, "/tools/bash-completion/gguflint ");
	sh_quote(&cmd, bin);
	out = capture(strbuf_cstr(&cmd));
	strbuf_free(&cmd);
	strbuf_free(&script);
	return out;
}

/* has: out (lines) holds line. */
static bool
has(const char *out, const char *line)
{
	size_t n = strlen(line);

	for (const char *p = out; (p = strstr(p, line)) != NULL; p++)
		if ((p == out || p[-1] == '\n') && p[n] == '\n')
			return true;
	return false;
}

/* The completion asks the program: profiles from --list-profiles, codes
 * and slugs from --list-rules, options from --help; a --select list is
 * completed item by item, and formats, colours and levels are offered. */
Test(ship, bash_completion_asks_the_program)
{
	static const struct {
		const char *words, *want, *absent;
	} cases[] = {
		{ "--profile mob", "mobile_2gb", "host" },
		{ "-p gpu_", "gpu_24gb", "mobile_2gb" },
		{ "--explain F00", "F001", "M001" },
		{ "--explain trailing", "trailing-data", "F001" },
		{ "--select F001,M01", "F001,M010", "M010" },
		{ "--ignore ''", "W", "F001,W" },
		{ "--list-a", "--list-archs", "--list-rules" },
		{ "-ct", "-ctk", "--ctx" },
		{ "--format j", "json", "sarif" },
		{ "--fail-on w", "warning", "error" },
		{ "--color n", "never", "auto" },
		{ "--jo", "--jobs", "--json" },
		{ "--max-per-h", "--max-per-host", "--max-per-rule" },
	};

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *out = complete(cases[i].words);

		cr_assert(has(out, cases[i].want), "'%s' offers no %s:\n%s",
		    cases[i].words, cases[i].want, out);
		cr_assert(!has(out, cases[i].absent), "'%s' offers %s:\n%s",
		    cases[i].words, cases[i].absent, out);
		free(out);
	}
}
