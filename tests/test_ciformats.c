/*
 * test_ciformats.c - the reports CI systems read natively besides SARIF:
 * GitLab Code Quality (--format gitlab), checked member by member against
 * GitLab's documented format with the strict JSON parser, and JUnit XML
 * (--format junit), checked byte by byte for what XML 1.0 allows, for its
 * structure against the JUnit reports' schema of tests/junit.xsd (with
 * xmllint, when installed) and for its figures against the JSON report.
 * The models carry hostile names: a NUL, control characters, bytes that
 * are not UTF-8, "]]>", '<', '&' and quotes, in a key and in the path.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/enc.h"
#include "base/util.h"
#include "ggufw.h"
#include "jsontree.h"
#include "testutil.h"

/* A key with a NUL, C0 controls, a byte that is not UTF-8, U+FFFF, and
 * what XML and JSON escape. */
static const char hostile_key[] = "k\0\x01\x1b]]>\xff<&\"'\xef\xbf\xbf.b";
#define HOSTILE_KEY_LEN (sizeof hostile_key - 1)
/* A directory name with what XML escapes and a CDATA end. */
#define HOSTILE_DIR "d]]>&<'\""

/*
 * write_model: at path, a model with a bad BOOL under the hostile key
 * (F028), a second bad BOOL (F028 again), a duplicate tensor name (F017,
 * an error) and no plan's worth of metadata (P005, a warning); extra adds
 * a key first, which moves every offset. With swap the tensors come in
 * another order.
 */
static void
write_model(const char *path, bool swap)
{
	static const int64_t ne[] = { 32 };
	struct ggufw_model m;
	struct strbuf sb = STRBUF_INIT;
	struct ggufw *w;

	ggufw_model_init(&m, false, 32);
	ggufw_model_kv_str(&m, "general.architecture", "llama");
	w = ggufw_model_kv_raw(&m);
	ggufw_strn(w, hostile_key, HOSTILE_KEY_LEN);
	ggufw_u32(w, 7);	/* BOOL */
	ggufw_u8(w, 9);
	w = ggufw_model_kv_raw(&m);
	ggufw_kv_bool(w, "odd.bool", 3);
	ggufw_model_tensor(&m, swap ? "b.w" : "a.w", 1, ne, 0, 1, 4);
	ggufw_model_tensor(&m, swap ? "a.w" : "b.w", 1, ne, 0, 1, 4);
	ggufw_model_tensor(&m, "a.w", 1, ne, 0, 1, 4);
	ggufw_model_finish(&m, &sb, GGUFW_DATA_ZERO);
	cr_assert(ggufw_write_file(path, sb.buf, sb.len) == 0);
	strbuf_free(&sb);
	ggufw_model_free(&m);
}

struct fixture {
	char dir[40];
	char *sub;		/* dir/HOSTILE_DIR */
	char *model;		/* sub/m.gguf */
	char *rel;		/* HOSTILE_DIR/m.gguf, from dir */
	char *old_cwd;
};

static void
fixture_init(struct fixture *fx)
{
	strcpy(fx->dir, "/tmp/gguflint-ci-XXXXXX");
	cr_assert(mkdtemp(fx->dir) != NULL);
	fx->sub = xasprintf("%s/" HOSTILE_DIR, fx->dir);
	cr_assert(mkdir(fx->sub, 0700) == 0);
	fx->model = xasprintf("%s/m.gguf", fx->sub);
	fx->rel = xstrdup(HOSTILE_DIR "/m.gguf");
	write_model(fx->model, false);
	fx->old_cwd = getcwd(NULL, 0);
	cr_assert(chdir(fx->dir) == 0);
}

static void
fixture_free(struct fixture *fx)
{
	char *cmd = xasprintf("rm -rf '%s'", fx->dir);

	cr_assert(chdir(fx->old_cwd) == 0);
	cr_assert(system(cmd) == 0);
	free(cmd);
	free(fx->sub);
	free(fx->model);
	free(fx->rel);
	free(fx->old_cwd);
}

static struct jsonnode *
parse_or_fail(const char *text, size_t n)
{
	char *err = NULL;
	struct jsonnode *root = jsontree_parse(text, n, &err);

	cr_assert(root != NULL, "not JSON (%s): %.2000s", err, text);
	return root;
}

/* run: gguflint with argv; the status must be status. */
static void
run(struct test_run *r, const char *const argv[], int status)
{
	test_run_bin(r, argv, NULL, 0);
	cr_assert_eq(r->status, status, "status %d; stderr: %s", r->status,
	    r->err);
}

static struct jsonnode *
run_json(const char *const argv[], int status)
{
	struct test_run r;
	struct jsonnode *root;

	run(&r, argv, status);
	root = parse_or_fail(r.out, r.out_len);
	test_run_free(&r);
	return root;
}

static const char *
str_member(const struct jsonnode *obj, const char *key)
{
	const char *s = jsontree_str(jsontree_get(obj, key));

	cr_assert(s != NULL, "no string member %s", key);
	return s;
}

/* gitlab_severity: GitLab's severity for one of ours (report-gitlab.c's
 * documented mapping). */
static const char *
gitlab_severity(const char *ours)
{
	if (strcmp(ours, "error") == 0)
		return "critical";
	if (strcmp(ours, "warning") == 0)
		return "minor";
	cr_assert_str_eq(ours, "info");
	return "info";
}

/*
 * check_issue: one issue of a Code Quality report, as GitLab documents
 * it: description, check_name, fingerprint and severity (one of info,
 * minor, major, critical, blocker) strings, location.path a string and
 * location.lines.begin a positive integer.
 */
static void
check_issue(const struct jsonnode *is)
{
	static const char *const sev[] = { "info", "minor", "major",
	    "critical", "blocker" };
	const char *s;
	int64_t line;
	size_t i;

	cr_assert_eq(is->type, JSONTREE_OBJECT);
	cr_assert(strlen(str_member(is, "description")) > 0);
	cr_assert(strlen(str_member(is, "check_name")) > 0);
	cr_assert(strlen(str_member(is, "fingerprint")) > 0);
	s = str_member(is, "severity");
	for (i = 0; i < 5 && strcmp(s, sev[i]) != 0; i++)
		;
	cr_assert(i < 5, "severity %s", s);
	cr_assert(jsontree_str(jsontree_pointer(is, "/location/path")));
	cr_assert(jsontree_int64(jsontree_pointer(is,
	    "/location/lines/begin"), &line) && line >= 1);
}

/* The gitlab report of argv (status expected), every issue checked, and
 * no two with one fingerprint (GitLab keeps one issue per fingerprint). */
static struct jsonnode *
run_gitlab(const char *const argv[], int status)
{
	struct jsonnode *rep = run_json(argv, status);
	size_t i, j;

	cr_assert_eq(rep->type, JSONTREE_ARRAY);
	for (i = 0; i < rep->n; i++) {
		check_issue(jsontree_at(rep, i));
		for (j = 0; j < i; j++)
			cr_assert_str_neq(str_member(jsontree_at(rep, i),
			    "fingerprint"), str_member(jsontree_at(rep, j),
			    "fingerprint"));
	}
	return rep;
}

/* has: whether string node s (which may hold NUL) contains needle. */
static bool
has(const struct jsonnode *s, const char *needle)
{
	return memmem(s->text, s->len, needle, strlen(needle)) != NULL;
}

/* The issues match the JSON report's diagnostics, in order. */
static void
check_issues_match(const struct jsonnode *rep, const struct jsonnode *json,
    const char *path)
{
	const struct jsonnode *diags = jsontree_pointer(json,
	    "/files/0/diagnostics");
	size_t i;

	cr_assert_eq(rep->n, diags->n);
	for (i = 0; i < rep->n; i++) {
		const struct jsonnode *is = jsontree_at(rep, i);
		const struct jsonnode *d = jsontree_at(diags, i);
		char *off = xasprintf("(at byte %s)", jsontree_get(d,
		    "offset")->text);

		cr_assert_str_eq(str_member(is, "check_name"),
		    str_member(d, "code"));
		cr_assert_str_eq(str_member(is, "severity"),
		    gitlab_severity(str_member(d, "severity")));
		cr_assert_str_eq(jsontree_str(jsontree_pointer(is,
		    "/location/path")), path);
		cr_assert(has(jsontree_get(is, "description"),
		    str_member(d, "message")));
		cr_assert(has(jsontree_get(is, "description"), off));
		free(off);
	}
}

/* The hostile key's finding: its description holds the key as JSON
 * decodes it (0xff as U+FFFD), NUL and all. */
static void
check_hostile_issue(const struct jsonnode *rep)
{
	static const char want[] = "[key: k\0\x01\x1b]]>\xef\xbf\xbd<&\"'"
	    "\xef\xbf\xbf.b]";
	size_t i, found = 0;

	for (i = 0; i < rep->n; i++) {
		const struct jsonnode *d = jsontree_get(jsontree_at(rep, i),
		    "description");

		if (memmem(d->text, d->len, want, sizeof want - 1) != NULL &&
		    strcmp(str_member(jsontree_at(rep, i), "check_name"),
		    "F028") == 0)
			found++;
	}
	cr_assert_eq(found, 1, "the hostile key's F028, once");
}

Test(gitlab, issues_follow_the_code_quality_format)
{
	struct fixture fx;
	struct jsonnode *rep, *json;

	fixture_init(&fx);
	{
		const char *ga[] = { "--no-config", "--format", "gitlab",
		    "./" HOSTILE_DIR "//m.gguf", NULL };
		const char *ja[] = { "--no-config", "--format", "json",
		    fx.rel, NULL };

		rep = run_gitlab(ga, 1);
		json = run_json(ja, 1);
	}
	cr_assert(rep->n >= 4, "F028 twice, F017, P005: %zu", rep->n);
	check_issues_match(rep, json, fx.rel);
	check_hostile_issue(rep);
	jsontree_free(rep);
	jsontree_free(json);
	fixture_free(&fx);
}

/* A clean model is an empty array; so is a run of no readable file. */
Test(gitlab, nothing_found_is_an_empty_array)
{
	char *ex = xasprintf("%s/examples/stories260K.gguf", test_srcdir());
	const char *a0[] = { "--no-config", "--format", "gitlab", ex, NULL };
	const char *a2[] = { "--no-config", "--format", "gitlab",
	    "/nonexistent.gguf", NULL };
	struct test_run r;

	run(&r, a0, 0);
	cr_assert_str_eq(r.out, "[]\n");
	test_run_free(&r);
	run(&r, a2, 2);
	cr_assert_str_eq(r.out, "[]\n");
	test_run_free(&r);
	free(ex);
}

/* The fingerprints of rep, sorted, one a line. */
static char *
fingerprints(const struct jsonnode *rep)
{
	struct strbuf sb = STRBUF_INIT;
	char **v = xcalloc(rep->n + 1, sizeof *v);
	size_t i, j;

	for (i = 0; i < rep->n; i++) {
		const char *f = str_member(jsontree_at(rep, i), "fingerprint");

		for (j = i; j > 0 && strcmp(v[j - 1], f) > 0; j--)
			v[j] = v[j - 1];
		v[j] = (char *)f;
	}
	for (i = 0; i < rep->n; i++)
		strbuf_addf(&sb, "%s\n", v[i]);
	free(v);
	return strbuf_detach(&sb);
}

/*
 * Fingerprints survive the tensors being reordered (every offset and the
 * order of the issues change); a copy of the model in another folder, of
 * the same name, has its own (the report's fingerprints are unique).
 */
Test(gitlab, fingerprints_survive_reordering_and_differ_by_path)
{
	struct fixture fx;
	struct jsonnode *a, *b, *both;
	char *fa, *fb;

	fixture_init(&fx);
	{
		const char *argv[] = { "--no-config", "--format", "gitlab",
		    fx.rel, NULL };
		const char *two[] = { "--no-config", "--format", "gitlab",
		    fx.rel, "copy/m.gguf", NULL };

		a = run_gitlab(argv, 1);
		write_model(fx.model, true);
		b = run_gitlab(argv, 1);
		cr_assert(mkdir("copy", 0700) == 0);
		write_model("copy/m.gguf", true);
		both = run_gitlab(two, 1);
	}
	fa = fingerprints(a);
	fb = fingerprints(b);
	cr_assert_str_eq(fa, fb);
	cr_assert_eq(both->n, 2 * a->n, "distinct across the two files");
	free(fa);
	free(fb);
	jsontree_free(a);
	jsontree_free(b);
	jsontree_free(both);
	fixture_free(&fx);
}

/* The baseline tests take the hostile key's F028 in: a subject with
 * U+FFFF once made a baseline libyaml could not read back. */
#define BL_RULES "F017,F028,P005"

/* Baselined findings are left out, or marked with --show-baselined. */
Test(gitlab, baselined_findings_are_left_out)
{
	struct fixture fx;
	struct jsonnode *rep;
	struct test_run r;
	size_t i;

	fixture_init(&fx);
	{
		const char *wa[] = { "--no-config", "--select", BL_RULES,
		    "--write-baseline", "bl.json", fx.rel, NULL };
		const char *ga[] = { "--no-config", "--select", BL_RULES,
		    "--baseline", "bl.json", "--format", "gitlab", fx.rel,
		    NULL };
		const char *sa[] = { "--no-config", "--select", BL_RULES,
		    "--baseline", "bl.json", "--show-baselined", "--format",
		    "gitlab", fx.rel, NULL };

		run(&r, wa, 0);
		test_run_free(&r);
		run(&r, ga, 0);
		cr_assert_str_eq(r.out, "[]\n");
		test_run_free(&r);
		rep = run_gitlab(sa, 0);
	}
	cr_assert_eq(rep->n, 4, "F017, F028 twice and P005");
	for (i = 0; i < rep->n; i++) {
		const struct jsonnode *d = jsontree_get(jsontree_at(rep, i),
		    "description");

		cr_assert(memmem(d->text, d->len, " [baselined]", 12) != NULL);
	}
	jsontree_free(rep);
	fixture_free(&fx);
}

/*
 * xml_chars_ok: whether the n bytes at s are UTF-8 holding only what XML
 * 1.0 allows (tab, LF, CR, U+0020..U+D7FF, U+E000..U+FFFD, above), with
 * no CR at all and no "]]>" (which the reporter never needs). On failure
 * *at is the offset of the first bad byte.
 */
static bool
xml_chars_ok(const char *s, size_t n, size_t *at)
{
	size_t i = 0, k;
	uint32_t cp;

	while (i < n) {
		k = enc_utf8_next((const uint8_t *)s + i, n - i, &cp);
		if ((cp == 0xfffd && !(k == 3 &&
		    (unsigned char)s[i] == 0xef)) || cp == '\r' ||
		    (cp < 0x20 && cp != '\t' && cp != '\n') ||
		    cp == 0xfffe || cp == 0xffff ||
		    (n - i >= 3 && memcmp(s + i, "]]>", 3) == 0)) {
			*at = i;
			return false;
		}
		i += k;
	}
	return true;
}

/* count: occurrences of needle in s. */
static size_t
count(const char *s, const char *needle)
{
	size_t n = 0;

	while ((s = strstr(s, needle)) != NULL) {
		n++;
		s += strlen(needle);
	}
	return n;
}

/* xmllint: whether xmllint runs here. */
static bool
have_xmllint(void)
{
	return system("xmllint --version > /dev/null 2>&1") == 0;
}

/* xml_validate: xmllint's verdict on the n bytes at s: well-formed, and
 * valid against tests/junit.xsd; the exit status (0: valid). */
static int
xml_validate(const char *s, size_t n, char **output)
{
	char dir[] = "/tmp/gguflint-xml-XXXXXX";
	char *path, *log, *cmd;
	int rc;
	size_t len;
	FILE *f;

	cr_assert(mkdtemp(dir) != NULL);
	path = xasprintf("%s/report.xml", dir);
	log = xasprintf("%s/xmllint.log", dir);
	cr_assert(ggufw_write_file(path, s, n) == 0);
	cmd = xasprintf("xmllint --noout --schema '%s/tests/junit.xsd' '%s' "
	    "> '%s' 2>&1", test_srcdir(), path, log);
	rc = system(cmd);
	f = fopen(log, "rb");
	cr_assert(f != NULL);
	*output = xcalloc(1, 4097);
	len = fread(*output, 1, 4096, f);
	(*output)[len] = '\0';
	fclose(f);
	free(cmd);
	cmd = xasprintf("rm -rf '%s'", dir);
	cr_assert(system(cmd) == 0);
	free(cmd);
	free(path);
	free(log);
	return rc;
}

/* check_xml: what XML allows, and, with xmllint, well-formed and valid. */
static void
check_xml(const char *s, size_t n)
{
	size_t at = 0;
	char *why;

	cr_assert(xml_chars_ok(s, n, &at), "byte %zu (0x%02x) of: %.3000s",
	    at, (unsigned char)s[at], s);
	cr_assert(strncmp(s, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n",
	    39) == 0);
	if (!have_xmllint())
		return;
	cr_assert_eq(xml_validate(s, n, &why), 0, "xmllint: %s\n%.3000s",
	    why, s);
	free(why);
}

/* The rules --list-rules lists (every rule is a test case). */
static size_t
rule_count(void)
{
	const char *argv[] = { "--no-config", "--list-rules", "--format",
	    "json", NULL };
	struct jsonnode *cat = run_json(argv, 0);
	size_t n = cat->n;

	jsontree_free(cat);
	return n;
}

/* The rules with an error in the JSON report of path (what fails the
 * run by default), counted once each. */
static size_t
failing_rules(const char *path)
{
	const char *argv[] = { "--no-config", "--format", "json", path, NULL };
	struct jsonnode *json = run_json(argv, 1);
	const struct jsonnode *diags = jsontree_pointer(json,
	    "/files/0/diagnostics");
	size_t i, j, n = 0;

	for (i = 0; i < diags->n; i++) {
		const struct jsonnode *d = jsontree_at(diags, i);

		if (strcmp(str_member(d, "severity"), "error") != 0)
			continue;
		for (j = 0; j < i; j++)
			if (strcmp(str_member(jsontree_at(diags, j), "code"),
			    str_member(d, "code")) == 0)
				break;
		n += j == i;
	}
	jsontree_free(json);
	cr_assert(n >= 3, "F017, F028, S002 at least: %zu", n);
	return n;
}

Test(junit, report_is_valid_xml_whatever_the_names)
{
	struct fixture fx;
	struct test_run r;
	char *want;

	if (!have_xmllint())
		cr_log_warn("xmllint is not installed (libxml2-utils): the "
		    "report is checked for XML's characters only");
	fixture_init(&fx);
	{
		const char *argv[] = { "--no-config", "--format", "junit",
		    fx.rel, "/nonexistent/x&y.gguf", NULL };

		run(&r, argv, 2);
	}
	check_xml(r.out, r.out_len);
	cr_assert_eq(count(r.out, "<testsuite "), 2);
	/* The path: '&', '<', quotes escaped; "]]>" with its '>' escaped. */
	cr_assert(strstr(r.out, "<testsuite name=\"d]]&gt;&amp;&lt;&apos;"
	    "&quot;/m.gguf\"") != NULL, "%.2000s", r.out);
	/* The key as the text report shows it (enc_text), then escaped. */
	cr_assert(strstr(r.out, "[key: k\\u{0000}\\u{0001}\\u{001B}]]&gt;"
	    "\\xff&lt;&amp;&quot;&apos;\\u{FFFF}.b]") != NULL,
	    "%.3000s", r.out);
	want = xasprintf("tests=\"%zu\" failures=\"%zu\" errors=\"0\"",
	    rule_count(), failing_rules(fx.rel));
	cr_assert(strstr(r.out, want) != NULL, "%s: %.600s", want, r.out);
	cr_assert(strstr(r.out, "<testsuite name=\"/nonexistent/x&amp;y.gguf"
	    "\" tests=\"1\" failures=\"0\" errors=\"1\"") != NULL);
	cr_assert_eq(count(r.out, "<failure "), failing_rules(fx.rel));
	cr_assert_eq(count(r.out, "<error "), 1);
	free(want);
	test_run_free(&r);
	fixture_free(&fx);
}

/*
 * One test case per rule in force, named "CODE slug"; a rule whose
 * findings fail the run is a failure listing them all (F028 twice); the
 * warning P005 does not fail it and passes with its finding in
 * system-out, unless --fail-on warning. --select narrows the cases.
 */
Test(junit, rules_are_test_cases_failed_by_what_fails_the_run)
{
	struct fixture fx;
	struct test_run r;
	const char *p, *end;

	fixture_init(&fx);
	{
		const char *argv[] = { "--no-config", "--format", "junit",
		    "--select", "F028,P005,F001", fx.rel, NULL };
		const char *warn[] = { "--no-config", "--format", "junit",
		    "--select", "F028,P005,F001", "--fail-on", "warning",
		    fx.rel, NULL };

		run(&r, argv, 1);
		check_xml(r.out, r.out_len);
		cr_assert(strstr(r.out, "tests=\"3\" failures=\"1\"") != NULL,
		    "%s", r.out);
		cr_assert(strstr(r.out, "<testcase name=\"F001 not-gguf\" "
		    "classname=\"d]]&gt;&amp;&lt;&apos;&quot;/m_gguf\" file=\"")
		    != NULL, "%s", r.out);
		p = strstr(r.out, "<testcase name=\"F028 invalid-bool\"");
		cr_assert(p != NULL);
		end = strstr(p, "</testcase>");
		cr_assert(end != NULL && strstr(p, "<failure message=\"") <
		    end && strstr(p, " (and 1 more)\" type=\"error\">") < end);
		cr_assert_eq(count(p, "error at byte ") - count(end,
		    "error at byte "), 3, "the message, then both findings");
		p = strstr(r.out, "<testcase name=\"P005 ");
		cr_assert(p != NULL && strstr(p, "<system-out>warning at byte ")
		    == strstr(p, "<system-out>"), "%s", r.out);
		test_run_free(&r);
		run(&r, warn, 1);
		check_xml(r.out, r.out_len);
		cr_assert(strstr(r.out, "tests=\"3\" failures=\"2\"") != NULL,
		    "%s", r.out);
	}
	test_run_free(&r);
	fixture_free(&fx);
}

/* Baselined findings pass and are not shown, unless --show-baselined. */
Test(junit, baselined_findings_pass)
{
	struct fixture fx;
	struct test_run r;

	fixture_init(&fx);
	{
		const char *wa[] = { "--no-config", "--select", "F017",
		    "--write-baseline", "bl.json", fx.rel, NULL };
		const char *ja[] = { "--no-config", "--baseline", "bl.json",
		    "--format", "junit", "--select", "F017", fx.rel, NULL };
		const char *sa[] = { "--no-config", "--baseline", "bl.json",
		    "--show-baselined", "--format", "junit", "--select",
		    "F017", fx.rel, NULL };

		run(&r, wa, 0);
		test_run_free(&r);
		run(&r, ja, 0);
		check_xml(r.out, r.out_len);
		cr_assert(strstr(r.out, "tests=\"1\" failures=\"0\"") != NULL);
		cr_assert(strstr(r.out, "<testcase name=\"F017 duplicate-"
		    "tensor-name\" classname=") != NULL && strstr(r.out,
		    "/>\n  </testsuite>") != NULL, "%s", r.out);
		test_run_free(&r);
		run(&r, sa, 0);
		check_xml(r.out, r.out_len);
		cr_assert(strstr(r.out, "tests=\"1\" failures=\"0\"") != NULL);
		cr_assert_eq(count(r.out, " [baselined]\n"), 1, "%s", r.out);
		cr_assert(strstr(r.out, "<system-out>") != NULL);
	}
	test_run_free(&r);
	fixture_free(&fx);
}

/* The schema check itself finds a report without the required names. */
Test(junit, schema_refuses_a_bad_report)
{
	static const char bad[] = "<?xml version=\"1.0\"?>\n<testsuites>"
	    "<testsuite tests=\"1\"><testcase classname=\"x\"/></testsuite>"
	    "</testsuites>\n";
	static const char broken[] = "<testsuites><testsuite name=\"a\" "
	    "tests=\"1\">\x01</testsuite></testsuites>";
	char *why;

	if (!have_xmllint())
		cr_skip_test("xmllint is not installed (libxml2-utils; .ci/run "
		    "installs it)");
	cr_assert_neq(xml_validate(bad, sizeof bad - 1, &why), 0);
	free(why);
	cr_assert_neq(xml_validate(broken, sizeof broken - 1, &why), 0);
	free(why);
}
