/*
 * test_sarif.c - the SARIF 2.1.0 and GitHub Actions reporters, end to end:
 * the log's structure against the catalogue and the JSON report, escaping
 * of hostile names, URIs, fingerprints that survive changed numbers and
 * moved files, the validation of the logs by Microsoft's SARIF validator
 * (sarif-multitool, when $SARIF_MULTITOOL is installed), and the workflow
 * command lines of --format github.
 *
 * The tests that run external tools have no .timeout: with one, Criterion's
 * runner leaks a small allocation now and then, and LeakSanitizer fails the
 * sanitizer build for it.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ggufw.h"
#include "jsontree.h"
#include "report/report.h"
#include "testutil.h"

/* What the reporter was built with (report-sarif.c's default). */
#ifndef GGUFLINT_RULES_URL
#define GGUFLINT_TEST_RULES_URL ""
#else
#define GGUFLINT_TEST_RULES_URL GGUFLINT_RULES_URL
#endif

/* A tensor name with a quote, a backslash, a control character, a byte
 * that is not UTF-8, and what GitHub's workflow commands escape. */
#define NASTY "evil\"\\\x01\xff%:,\r\n.w"
/* The same as JSON decodes it: 0xff became U+FFFD. */
#define NASTY_DECODED "evil\"\\\x01\xef\xbf\xbd%:,\r\n.w"

/*
 * build_broken: a small model with a bad BOOL (F028, on a key) and two
 * duplicate tensor names (F017, on tensors), one of them NASTY. extra_kv
 * adds a key first, which moves every offset and so changes the numbers in
 * the messages, not the findings. "plain.w" appears three times, so two
 * F017 findings share a code and a subject.
 */
static void
build_broken(struct strbuf *out, bool extra_kv)
{
	static const int64_t ne[] = { 32 };
	struct ggufw_model m;
	struct ggufw *w;

	ggufw_model_init(&m, false, 32);
	if (extra_kv)
		ggufw_model_kv_u32(&m, "aaa.extra", 1);
	ggufw_model_kv_str(&m, "general.architecture", "llama");
	w = ggufw_model_kv_raw(&m);
	ggufw_kv_bool(w, "odd.bool", 7);
	ggufw_model_tensor(&m, NASTY, 1, ne, GGUFW_GGML_F32, 1, 4);
	ggufw_model_tensor(&m, "plain.w", 1, ne, GGUFW_GGML_F32, 1, 4);
	ggufw_model_tensor(&m, NASTY, 1, ne, GGUFW_GGML_F32, 1, 4);
	ggufw_model_tensor(&m, "plain.w", 1, ne, GGUFW_GGML_F32, 1, 4);
	ggufw_model_tensor(&m, "plain.w", 1, ne, GGUFW_GGML_F32, 1, 4);
	ggufw_model_finish(&m, out, GGUFW_DATA_ZERO);
	ggufw_model_free(&m);
}

/* build_reordered: build_broken's model with its keys and tensors in
 * another order (the duplicates are still the same ones). */
static void
build_reordered(struct strbuf *out)
{
	static const int64_t ne[] = { 32 };
	struct ggufw_model m;
	struct ggufw *w;

	ggufw_model_init(&m, false, 32);
	w = ggufw_model_kv_raw(&m);
	ggufw_kv_bool(w, "odd.bool", 7);
	ggufw_model_kv_str(&m, "general.architecture", "llama");
	ggufw_model_tensor(&m, "plain.w", 1, ne, GGUFW_GGML_F32, 1, 4);
	ggufw_model_tensor(&m, NASTY, 1, ne, GGUFW_GGML_F32, 1, 4);
	ggufw_model_tensor(&m, "plain.w", 1, ne, GGUFW_GGML_F32, 1, 4);
	ggufw_model_tensor(&m, NASTY, 1, ne, GGUFW_GGML_F32, 1, 4);
	ggufw_model_tensor(&m, "plain.w", 1, ne, GGUFW_GGML_F32, 1, 4);
	ggufw_model_finish(&m, out, GGUFW_DATA_ZERO);
	ggufw_model_free(&m);
}

/* A model with no tensors: P009, an info finding. */
static void
build_empty(struct strbuf *out)
{
	struct ggufw_model m;

	ggufw_model_init(&m, false, 32);
	ggufw_model_kv_str(&m, "general.architecture", "llama");
	ggufw_model_finish(&m, out, GGUFW_DATA_NONE);
	ggufw_model_free(&m);
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int
cmp_cstr(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static char *
make_tmpdir(void)
{
	char *dir = xstrdup("/tmp/gguflint-sarif-XXXXXX");

	cr_assert(mkdtemp(dir) != NULL);
	return dir;
}

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

static void
rm_rf(const char *dir)
{
	struct strbuf cmd = STRBUF_INIT;

	strbuf_adds(&cmd, "rm -rf ");
	sh_quote(&cmd, dir);
	cr_assert(system(strbuf_cstr(&cmd)) == 0);
	strbuf_free(&cmd);
}

static void
write_file(const char *path, const void *p, size_t n)
{
	cr_assert(ggufw_write_file(path, p, n) == 0, "cannot write %s", path);
}

/* slurp: a whole file, NUL-terminated, or NULL when it cannot be read. */
static char *
slurp(const char *path, size_t *len)
{
	struct strbuf sb = STRBUF_INIT;
	char buf[65536];
	size_t n;
	FILE *f = fopen(path, "rb");

	if (f == NULL)
		return NULL;
	while ((n = fread(buf, 1, sizeof buf, f)) > 0)
		strbuf_add(&sb, buf, n);
	fclose(f);
	strbuf_addc(&sb, '\0');
	*len = sb.len - 1;
	return sb.buf;
}

static struct jsonnode *
parse_or_fail(const char *text, size_t n)
{
	char *err = NULL;
	struct jsonnode *root = jsontree_parse(text, n, &err);

	cr_assert(root != NULL, "not JSON (%s): %.2000s", err, text);
	return root;
}

/* run_json: run gguflint with argv, parse stdout, check the status. */
static struct jsonnode *
run_json(const char *const argv[], int status)
{
	struct test_run r;
	struct jsonnode *root;

	test_run_bin(&r, argv, NULL, 0);
	cr_assert_eq(r.status, status, "status %d; stderr: %s", r.status,
	    r.err);
	root = parse_or_fail(r.out, r.out_len);
	test_run_free(&r);
	return root;
}

static const char *
str_at(const struct jsonnode *root, const char *pointer)
{
	const char *s = jsontree_str(jsontree_pointer(root, pointer));

	cr_assert(s != NULL, "no string at %s", pointer);
	return s;
}

static int64_t
int_at(const struct jsonnode *root, const char *pointer)
{
	int64_t v;

	cr_assert(jsontree_int64(jsontree_pointer(root, pointer), &v),
	    "no integer at %s", pointer);
	return v;
}

static const char *
level_of(const char *severity)
{
	if (strcmp(severity, "error") == 0)
		return "error";
	if (strcmp(severity, "warning") == 0)
		return "warning";
	cr_assert_str_eq(severity, "info");
	return "note";
}

static char *
example_path(void)
{
	return xasprintf("%s/examples/stories260K.gguf", test_srcdir());
}

static bool
is_hex64(const char *s)
{
	size_t i;

	for (i = 0; s[i] != '\0'; i++)
		if (!((s[i] >= '0' && s[i] <= '9') ||
		    (s[i] >= 'a' && s[i] <= 'f')))
			return false;
	return i == 64;
}

/*
 * check_help: rule r's help (a rule of the log) against c, its entry of
 * --list-rules --format json: help.text and help.markdown open with the
 * summary and hold the fix; the Markdown names the rule in bold; no
 * helpUri, since this build knows no public home for the rules (the
 * template is tested in sarif/help_uri_template).
 */
static void
check_help(const struct jsonnode *r, const struct jsonnode *c)
{
	const char *text = str_at(r, "/help/text");
	const char *md = str_at(r, "/help/markdown");
	char *head = xasprintf("**%s %s** (%s): ", str_at(c, "/code"),
	    str_at(c, "/slug"), str_at(c, "/severity"));
	const char *fix = strstr(text, "\n\nFix: ");

	cr_assert(strncmp(text, str_at(c, "/summary"),
	    strlen(str_at(c, "/summary"))) == 0, "%s", text);
	cr_assert(strstr(text, "\n\nSeverity: ") != NULL, "%s", text);
	cr_assert(fix != NULL && strlen(fix) > 8, "%s", text);
	cr_assert(strncmp(md, head, strlen(head)) == 0, "%s", md);
	fix = strstr(md, "\n\n**Fix:** ");
	cr_assert(fix != NULL && strlen(fix) > 16, "%s", md);
	cr_assert(strstr(md, "**Severity:** ") != NULL, "%s", md);
	if (GGUFLINT_TEST_RULES_URL[0] == '\0')
		cr_assert_null(jsontree_get(r, "helpUri"));
	free(head);
}

/*
 * check_log: the parts of a SARIF log that do not depend on the findings:
 * the schema and version, one run, the driver, and its rules, which must
 * be the catalogue of --list-rules --format json, in the same order.
 */
static void
check_log(const struct jsonnode *log)
{
	static const char *const list_argv[] = { "--list-rules", "--format",
	    "json", NULL };
	struct jsonnode *cat = run_json(list_argv, 0);
	const struct jsonnode *rules;
	size_t i;

	cr_assert_str_eq(str_at(log, "/version"), "2.1.0");
	cr_assert_str_eq(str_at(log, "/$schema"),
	    "https://json.schemastore.org/sarif-2.1.0.json");
	cr_assert_eq(jsontree_get(log, "runs")->type, JSONTREE_ARRAY);
	cr_assert_eq(jsontree_get(log, "runs")->n, 1);
	cr_assert_str_eq(str_at(log, "/runs/0/tool/driver/name"), "gguflint");
	cr_assert_str_eq(str_at(log, "/runs/0/tool/driver/version"),
	    PACKAGE_VERSION);
	rules = jsontree_pointer(log, "/runs/0/tool/driver/rules");
	cr_assert(rules != NULL && rules->type == JSONTREE_ARRAY);
	cr_assert_eq(rules->n, cat->n, "%zu rules, the catalogue has %zu",
	    rules->n, cat->n);
	for (i = 0; i < rules->n; i++) {
		const struct jsonnode *r = jsontree_at(rules, i);
		const struct jsonnode *c = jsontree_at(cat, i);

		cr_assert_str_eq(str_at(r, "/id"), str_at(c, "/code"));
		cr_assert_str_eq(str_at(r, "/name"), str_at(c, "/slug"));
		cr_assert_str_eq(str_at(r, "/shortDescription/text"),
		    str_at(c, "/summary"));
		cr_assert(strlen(str_at(r, "/fullDescription/text")) > 0);
		check_help(r, c);
		cr_assert(strlen(str_at(r, "/properties/basis")) > 0,
		    "%s: the basis of its severity", str_at(r, "/id"));
		cr_assert_str_eq(str_at(r, "/defaultConfiguration/level"),
		    level_of(str_at(c, "/severity")));
		cr_assert_str_eq(str_at(r, "/properties/family"),
		    str_at(c, "/family"));
		cr_assert_eq(jsontree_pointer(r, "/properties/tags")->type,
		    JSONTREE_ARRAY);
	}
	jsontree_free(cat);
}

/*
 * check_results_match_json: the results of a SARIF log against the JSON
 * report of the same run (argv with the format in argv[1]): one result per
 * diagnostic, in order, with the code, level, offset and subject.
 */
static void
check_results_match_json(const struct jsonnode *log,
    const struct jsonnode *json)
{
	const struct jsonnode *results = jsontree_pointer(log,
	    "/runs/0/results");
	const struct jsonnode *rules = jsontree_pointer(log,
	    "/runs/0/tool/driver/rules");
	const struct jsonnode *diags = jsontree_pointer(json,
	    "/files/0/diagnostics");
	size_t i;

	cr_assert(results != NULL && results->type == JSONTREE_ARRAY);
	cr_assert_eq(results->n, diags->n);
	for (i = 0; i < results->n; i++) {
		const struct jsonnode *res = jsontree_at(results, i);
		const struct jsonnode *d = jsontree_at(diags, i);
		const struct jsonnode *subj = jsontree_get(d, "subject");
		const struct jsonnode *loc = jsontree_pointer(res,
		    "/locations/0");
		const struct jsonnode *ll = jsontree_get(loc,
		    "logicalLocations");
		int64_t index = int_at(res, "/ruleIndex");

		cr_assert_str_eq(str_at(res, "/ruleId"), str_at(d, "/code"));
		cr_assert(index >= 0 && (size_t)index < rules->n);
		cr_assert_str_eq(str_at(jsontree_at(rules, (size_t)index),
		    "/id"), str_at(res, "/ruleId"));
		cr_assert_str_eq(str_at(res, "/level"),
		    level_of(str_at(d, "/severity")));
		cr_assert(strncmp(str_at(res, "/message/text"),
		    str_at(d, "/message"), strlen(str_at(d, "/message"))) == 0);
		cr_assert_eq(jsontree_get(res, "locations")->n, 1);
		cr_assert_eq(int_at(loc, "/physicalLocation/region/startLine"),
		    1);
		/* The offset is a binary region beside the placeholder line
		 * (and a property, as before). */
		cr_assert_eq(int_at(loc, "/physicalLocation/region/byteOffset"),
		    int_at(d, "/offset"));
		cr_assert_eq(int_at(res, "/properties/byteOffset"),
		    int_at(d, "/offset"));
		cr_assert(strlen(str_at(loc,
		    "/physicalLocation/artifactLocation/uri")) > 0);
		cr_assert(is_hex64(str_at(res,
		    "/partialFingerprints/gguflint~1v1")));
		if (subj->type == JSONTREE_NULL) {
			cr_assert_null(ll);
			continue;
		}
		cr_assert(ll != NULL && ll->n == 1);
		cr_assert_eq(jsontree_at(ll, 0)->n, 3);
		cr_assert_eq(jsontree_pointer(ll, "/0/name")->len, subj->len);
		cr_assert(memcmp(str_at(ll, "/0/name"), subj->text,
		    subj->len) == 0);
		cr_assert(memcmp(str_at(ll, "/0/fullyQualifiedName"),
		    subj->text, subj->len) == 0);
		cr_assert_str_eq(str_at(ll, "/0/kind"),
		    strcmp(str_at(d, "/subject_kind"), "key") == 0 ?
		    "property" : "variable");
		/* The message names the subject too: code scanning shows
		 * the message, not the logical locations. */
		cr_assert(strstr(str_at(res, "/message/text"), "[tensor: ") ||
		    strstr(str_at(res, "/message/text"), "[key: "));
	}
}

/* Every binary region lies within its artifact. */
static void
check_extents_in_file(const struct jsonnode *log)
{
	const struct jsonnode *results = jsontree_pointer(log,
	    "/runs/0/results");
	const struct jsonnode *arts = jsontree_pointer(log,
	    "/runs/0/artifacts");
	size_t i, lengths = 0;

	for (i = 0; i < results->n; i++) {
		const struct jsonnode *pl = jsontree_pointer(jsontree_at(
		    results, i), "/locations/0/physicalLocation");
		int64_t off = int_at(pl, "/region/byteOffset"), len, size;

		size = int_at(jsontree_at(arts, (size_t)int_at(pl,
		    "/artifactLocation/index")), "/length");
		cr_assert(off >= 0 && off <= size);
		if (jsontree_pointer(pl, "/region/byteLength") == NULL)
			continue;
		len = int_at(pl, "/region/byteLength");
		cr_assert(len > 0 && off + len <= size, "%lld+%lld > %lld",
		    (long long)off, (long long)len, (long long)size);
		lengths++;
	}
	cr_assert(lengths > 0, "no result has a byteLength");
}

/* The result at index i of results whose ruleId is code and logical
 * name is subject (NULL: any), or NULL. */
static const struct jsonnode *
find_result(const struct jsonnode *log, const char *code,
    const char *subject, size_t subject_len)
{
	const struct jsonnode *results = jsontree_pointer(log,
	    "/runs/0/results");
	size_t i;

	for (i = 0; i < results->n; i++) {
		const struct jsonnode *r = jsontree_at(results, i);
		const struct jsonnode *name = jsontree_pointer(r,
		    "/locations/0/logicalLocations/0/name");

		if (strcmp(str_at(r, "/ruleId"), code) != 0)
			continue;
		if (subject == NULL || (name != NULL && name->len ==
		    subject_len && memcmp(name->text, subject,
		    subject_len) == 0))
			return r;
	}
	return NULL;
}

static const char *
fingerprint_of(const struct jsonnode *log, const char *code,
    const char *subject)
{
	const struct jsonnode *r = find_result(log, code, subject,
	    strlen(subject));

	cr_assert(r != NULL, "no %s result for that subject", code);
	return str_at(r, "/partialFingerprints/gguflint~1v1");
}

Test(sarif, clean_example_is_a_log_with_every_rule_and_no_results)
{
	char *ex = example_path();
	const char *argv[] = { "--format", "sarif", ex, NULL };
	struct jsonnode *log = run_json(argv, 0);
	const char *uri;

	check_log(log);
	cr_assert_eq(jsontree_pointer(log, "/runs/0/results")->type,
	    JSONTREE_ARRAY);
	cr_assert_eq(jsontree_pointer(log, "/runs/0/results")->n, 0);
	/* An absolute path is a file:// URI. */
	uri = str_at(log, "/runs/0/artifacts/0/location/uri");
	cr_assert(strncmp(uri, "file:///", 8) == 0, "%s", uri);
	cr_assert(strstr(uri, "/examples/stories260K.gguf") != NULL, "%s",
	    uri);
	cr_assert_eq(jsontree_pointer(log, "/runs/0/artifacts")->n, 1);
	jsontree_free(log);
	free(ex);
}

Test(sarif, findings_are_results_that_match_the_json_report)
{
	struct strbuf sb = STRBUF_INIT;
	const struct jsonnode *r;
	struct jsonnode *log, *json;
	char *path;

	build_broken(&sb, false);
	path = test_tmpfile(sb.buf, sb.len);
	{
		const char *sargv[] = { "--format", "sarif", path, NULL };
		const char *jargv[] = { "--format", "json", path, NULL };

		log = run_json(sargv, 1);
		json = run_json(jargv, 1);
	}
	check_log(log);
	check_results_match_json(log, json);
	r = find_result(log, "F028", "odd.bool", 8);
	cr_assert(r != NULL);
	cr_assert_str_eq(str_at(r, "/level"), "error");
	/* The key/value record: key length (8), key, type (4), the byte. */
	cr_assert_eq(int_at(r, "/locations/0/physicalLocation/region/"
	    "byteLength"), 8 + 8 + 4 + 1);
	check_extents_in_file(log);
	cr_assert_str_eq(str_at(r, "/locations/0/logicalLocations/0/kind"),
	    "property");
	r = find_result(log, "P005", NULL, 0);
	cr_assert(r != NULL, "the incomplete plan");
	cr_assert_str_eq(str_at(r, "/level"), "warning");
	r = find_result(log, "F017", NASTY_DECODED, strlen(NASTY_DECODED));
	cr_assert(r != NULL, "the nasty name, decoded, is a logical location");
	cr_assert_str_eq(str_at(r, "/level"), "error");
	cr_assert_str_eq(str_at(r, "/locations/0/logicalLocations/0/kind"),
	    "variable");
	cr_assert(strstr(str_at(r, "/message/text"), "[tensor: "
	    NASTY_DECODED "]") != NULL);
	/* The tensor info record: name length (8), name, n_dims (4), one
	 * dimension (8), type (4), data offset (8). */
	cr_assert_eq(int_at(r, "/locations/0/physicalLocation/region/"
	    "byteLength"), 8 + (int64_t)strlen(NASTY) + 4 + 8 + 4 + 8);
	cr_assert(find_result(log, "F017", "plain.w", 7) != NULL);
	jsontree_free(log);
	jsontree_free(json);
	strbuf_free(&sb);
	unlink(path);
	free(path);
}

Test(sarif, info_is_a_note)
{
	struct strbuf sb = STRBUF_INIT;
	struct jsonnode *log;
	const struct jsonnode *r;
	char *path;

	build_empty(&sb);
	path = test_tmpfile(sb.buf, sb.len);
	{
		const char *argv[] = { "--format", "sarif", path, NULL };

		log = run_json(argv, 0);
	}
	r = find_result(log, "P009", NULL, 0);
	cr_assert(r != NULL);
	cr_assert_str_eq(str_at(r, "/level"), "note");
	cr_assert_null(jsontree_pointer(r, "/locations/0/logicalLocations"));
	jsontree_free(log);
	strbuf_free(&sb);
	unlink(path);
	free(path);
}

/* The F017 message of the JSON report differs between files p1 and p2
 * (the messages quote offsets, which moved). */
static void
check_messages_differ(const char *p1, const char *p2)
{
	const char *jp1[] = { "--format", "json", "--select", "F017",
	    p1, NULL };
	const char *jp2[] = { "--format", "json", "--select", "F017",
	    p2, NULL };
	struct jsonnode *j1, *j2;

	j1 = run_json(jp1, 1);
	j2 = run_json(jp2, 1);
	cr_assert_str_neq(str_at(j1, "/files/0/diagnostics/0/message"),
	    str_at(j2, "/files/0/diagnostics/0/message"));
	jsontree_free(j1);
	jsontree_free(j2);
}

/* Logs l1, l2 (the same file, twice) and l3 (the changed, moved file)
 * give each subject the same fingerprint; different subjects differ. */
static void
check_fingerprints_agree(const struct jsonnode *l1,
    const struct jsonnode *l2, const struct jsonnode *l3)
{
	cr_assert_str_eq(fingerprint_of(l1, "F017", NASTY_DECODED),
	    fingerprint_of(l2, "F017", NASTY_DECODED));
	cr_assert_str_eq(fingerprint_of(l1, "F017", NASTY_DECODED),
	    fingerprint_of(l3, "F017", NASTY_DECODED));
	cr_assert_str_eq(fingerprint_of(l1, "F017", "plain.w"),
	    fingerprint_of(l3, "F017", "plain.w"));
	cr_assert_str_eq(fingerprint_of(l1, "F028", "odd.bool"),
	    fingerprint_of(l3, "F028", "odd.bool"));
	cr_assert_str_neq(fingerprint_of(l1, "F017", NASTY_DECODED),
	    fingerprint_of(l1, "F017", "plain.w"));
}

/* Within one file's results, no two fingerprints are equal, not even
 * those of the two F017 findings about "plain.w". */
static void
check_fingerprints_distinct(const struct jsonnode *log)
{
	const struct jsonnode *results;
	size_t i, j;

	results = jsontree_pointer(log, "/runs/0/results");
	for (i = 0; i < results->n; i++)
		for (j = i + 1; j < results->n; j++)
			cr_assert_str_neq(str_at(jsontree_at(results, i),
			    "/partialFingerprints/gguflint~1v1"),
			    str_at(jsontree_at(results, j),
			    "/partialFingerprints/gguflint~1v1"));
}

/* Three files in one run (log), one of them twice, n results each: one
 * run, two artifacts (the schema wants them unique), each result
 * pointing at its own. */
static void
check_one_run_two_artifacts(const struct jsonnode *log, size_t n)
{
	const struct jsonnode *results;
	size_t i;

	cr_assert_eq(jsontree_get(log, "runs")->n, 1);
	cr_assert_eq(jsontree_pointer(log, "/runs/0/artifacts")->n, 2);
	results = jsontree_pointer(log, "/runs/0/results");
	cr_assert_eq(results->n, 3 * n);
	for (i = 0; i < results->n; i++)
		cr_assert_eq(int_at(jsontree_at(results, i), "/locations/0/"
		    "physicalLocation/artifactLocation/index"),
		    i >= n && i < 2 * n ? 1 : 0);
}

/*
 * Fingerprints: the same across runs, across a change of the numbers in
 * the messages, and across a move to another directory; different for
 * different subjects and codes.
 */
Test(sarif, fingerprints_are_stable_and_distinct)
{
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;
	char *dir = make_tmpdir();
	char *p1 = xasprintf("%s/model.gguf", dir);
	char *sub = xasprintf("%s/moved", dir);
	char *p2 = xasprintf("%s/moved/model.gguf", dir);
	struct jsonnode *l1, *l2, *l3, *l4;

	build_broken(&a, false);
	build_broken(&b, true);
	write_file(p1, a.buf, a.len);
	cr_assert(mkdir(sub, 0700) == 0);
	{
		const char *argv[] = { "--format", "sarif", p1, NULL };

		l1 = run_json(argv, 1);
		l2 = run_json(argv, 1);
	}
	write_file(p2, b.buf, b.len);
	{
		const char *argv[] = { "--format", "sarif", p2, NULL };

		l3 = run_json(argv, 1);
	}
	check_messages_differ(p1, p2);
	{
		const char *argv[] = { "--format", "sarif", p1, p2, p1, NULL };

		l4 = run_json(argv, 1);
	}
	check_fingerprints_agree(l1, l2, l3);
	check_fingerprints_distinct(l1);
	check_one_run_two_artifacts(l4,
	    jsontree_pointer(l1, "/runs/0/results")->n);
	jsontree_free(l1);
	jsontree_free(l2);
	jsontree_free(l3);
	jsontree_free(l4);
	strbuf_free(&a);
	strbuf_free(&b);
	rm_rf(dir);
	free(p1);
	free(p2);
	free(sub);
	free(dir);
}

/* The fingerprints of log's results, sorted, one a line. */
static char *
fingerprint_set(const struct jsonnode *log)
{
	const struct jsonnode *results = jsontree_pointer(log,
	    "/runs/0/results");
	struct strbuf sb = STRBUF_INIT;
	const char **v = xcalloc(results->n + 1, sizeof *v);
	size_t i;

	for (i = 0; i < results->n; i++)
		v[i] = str_at(jsontree_at(results, i),
		    "/partialFingerprints/gguflint~1v1");
	qsort(v, results->n, sizeof *v, cmp_cstr);
	for (i = 0; i < results->n; i++)
		strbuf_addf(&sb, "%s\n", v[i]);
	free(v);
	return strbuf_detach(&sb);
}

/*
 * Reordering the keys and the tensors moves every offset and changes the
 * order of the results, not their fingerprints: the same set, and the
 * same fingerprint for each (code, subject).
 */
Test(sarif, fingerprints_survive_reordering)
{
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;
	char *dir = make_tmpdir();
	char *p1 = xasprintf("%s/model.gguf", dir);
	char *p2 = xasprintf("%s/moved/model.gguf", dir);
	char *sub = xasprintf("%s/moved", dir);
	char *s1, *s2;
	struct jsonnode *l1, *l2;

	build_broken(&a, false);
	build_reordered(&b);
	cr_assert(a.len == b.len && memcmp(a.buf, b.buf, a.len) != 0);
	write_file(p1, a.buf, a.len);
	cr_assert(mkdir(sub, 0700) == 0);
	write_file(p2, b.buf, b.len);
	{
		const char *argv1[] = { "--format", "sarif", p1, NULL };
		const char *argv2[] = { "--format", "sarif", p2, NULL };

		l1 = run_json(argv1, 1);
		l2 = run_json(argv2, 1);
	}
	cr_assert_neq(int_at(find_result(l1, "F028", "odd.bool", 8),
	    "/locations/0/physicalLocation/region/byteOffset"),
	    int_at(find_result(l2, "F028", "odd.bool", 8),
	    "/locations/0/physicalLocation/region/byteOffset"));
	s1 = fingerprint_set(l1);
	s2 = fingerprint_set(l2);
	cr_assert(strlen(s1) > 3 * 65);
	cr_assert_str_eq(s1, s2);
	cr_assert_str_eq(fingerprint_of(l1, "F017", NASTY_DECODED),
	    fingerprint_of(l2, "F017", NASTY_DECODED));
	cr_assert_str_eq(fingerprint_of(l1, "F028", "odd.bool"),
	    fingerprint_of(l2, "F028", "odd.bool"));
	free(s1);
	free(s2);
	jsontree_free(l1);
	jsontree_free(l2);
	strbuf_free(&a);
	strbuf_free(&b);
	rm_rf(dir);
	free(p1);
	free(p2);
	free(sub);
	free(dir);
}

/* A relative path stays relative, percent-encoded; "./" is dropped. */
Test(sarif, uris_are_relative_and_percent_encoded)
{
	struct strbuf sb = STRBUF_INIT;
	char *dir = make_tmpdir();
	char *sub = xasprintf("%s/m d", dir);
	char *file = xasprintf("%s/m d/a:b%%#\xc3\xa9.gguf", dir);
	char *abs, *up, *want;
	const char *base;
	struct jsonnode *log;

	build_broken(&sb, false);
	cr_assert(mkdir(sub, 0700) == 0);
	write_file(file, sb.buf, sb.len);
	cr_assert(chdir(dir) == 0);
	/* An absolute path through "..", as GGUFLINT_SRCDIR is under make
	 * distcheck. */
	base = strrchr(dir, '/') + 1;
	abs = xasprintf("%s/./../%s//m d/a:b%%#\xc3\xa9.gguf", dir, base);
	up = xasprintf("../%s/m d/a:b%%#\xc3\xa9.gguf", base);
	{
		const char *argv[] = { "--format", "sarif",
		    "./m d/a:b%#\xc3\xa9.gguf",
		    ".//m d/.././m d/a:b%#\xc3\xa9.gguf", up, abs, NULL };

		log = run_json(argv, 1);
	}
	/* Dot segments are resolved (a file URI must not hold them), so the
	 * first two name one artifact; a leading ".." of a relative path has
	 * nothing to fold. */
	cr_assert_eq(jsontree_pointer(log, "/runs/0/artifacts")->n, 3);
	cr_assert_str_eq(str_at(log, "/runs/0/artifacts/0/location/uri"),
	    "m%20d/a%3Ab%25%23%C3%A9.gguf");
	cr_assert_str_eq(str_at(log, "/runs/0/results/0/locations/0/"
	    "physicalLocation/artifactLocation/uri"),
	    "m%20d/a%3Ab%25%23%C3%A9.gguf");
	want = xasprintf("../%s/m%%20d/a%%3Ab%%25%%23%%C3%%A9.gguf", base);
	cr_assert_str_eq(str_at(log, "/runs/0/artifacts/1/location/uri"),
	    want);
	free(want);
	want = xasprintf("file://%s/m%%20d/a%%3Ab%%25%%23%%C3%%A9.gguf", dir);
	cr_assert_str_eq(str_at(log, "/runs/0/artifacts/2/location/uri"),
	    want);
	free(want);
	free(abs);
	free(up);
	jsontree_free(log);
	strbuf_free(&sb);
	rm_rf(dir);
	free(file);
	free(sub);
	free(dir);
}

/* The invocation of log: executionSuccessful and exitCode as expected. */
static void
check_invocation(const struct jsonnode *log, bool ok, int64_t code)
{
	const struct jsonnode *inv = jsontree_pointer(log,
	    "/runs/0/invocations");

	cr_assert(inv != NULL && inv->type == JSONTREE_ARRAY && inv->n == 1);
	cr_assert_eq(jsontree_pointer(inv, "/0/executionSuccessful")->type,
	    JSONTREE_BOOL);
	cr_assert_eq(jsontree_pointer(inv, "/0/executionSuccessful")->boolean,
	    ok);
	cr_assert_eq(int_at(inv, "/0/exitCode"), code);
}

/* No file could be read: still a valid log with every rule (status 2),
 * and the reason as a notification of a failed invocation. */
Test(sarif, unreadable_file_still_gives_a_log)
{
	const char *argv[] = { "--format", "sarif", "/nonexistent/x.gguf",
	    NULL };
	struct jsonnode *log = run_json(argv, 2);
	const struct jsonnode *n;

	check_log(log);
	cr_assert_eq(jsontree_pointer(log, "/runs/0/results")->n, 0);
	cr_assert_eq(jsontree_pointer(log, "/runs/0/artifacts")->n, 0);
	check_invocation(log, false, 2);
	n = jsontree_pointer(log,
	    "/runs/0/invocations/0/toolExecutionNotifications");
	cr_assert(n != NULL && n->n == 1);
	cr_assert_str_eq(str_at(n, "/0/level"), "error");
	cr_assert_str_eq(str_at(n, "/0/descriptor/id"), "unreadable-input");
	cr_assert(strstr(str_at(n, "/0/message/text"), "/nonexistent/x.gguf")
	    != NULL);
	cr_assert_str_eq(str_at(n, "/0/locations/0/physicalLocation/"
	    "artifactLocation/uri"), "file:///nonexistent/x.gguf");
	jsontree_free(log);
}

/* The exit status of every run is in the log: 0 for a clean file, 1 for
 * findings that fail it (0 again with --exit-zero), 2 when a file of the
 * run was not read, whose results the others' still are. */
Test(sarif, invocation_has_the_exit_status)
{
	struct strbuf sb = STRBUF_INIT;
	char *ex = example_path(), *path;
	struct jsonnode *log;
	const struct jsonnode *n;

	build_broken(&sb, false);
	path = test_tmpfile(sb.buf, sb.len);
	{
		const char *a0[] = { "--format", "sarif", ex, NULL };
		const char *a1[] = { "--format", "sarif", path, NULL };
		const char *az[] = { "--format", "sarif", "--exit-zero", path,
		    NULL };
		const char *a2[] = { "--format", "sarif", path,
		    "/nonexistent/y.gguf", ex, NULL };

		log = run_json(a0, 0);
		check_invocation(log, true, 0);
		cr_assert_null(jsontree_pointer(log, "/runs/0/invocations/0/"
		    "toolExecutionNotifications"));
		jsontree_free(log);
		log = run_json(a1, 1);
		check_invocation(log, true, 1);
		jsontree_free(log);
		log = run_json(az, 0);
		check_invocation(log, true, 0);
		jsontree_free(log);
		log = run_json(a2, 2);
	}
	check_invocation(log, false, 2);
	n = jsontree_pointer(log,
	    "/runs/0/invocations/0/toolExecutionNotifications");
	cr_assert(n != NULL && n->n == 1);
	cr_assert_eq(jsontree_pointer(log, "/runs/0/artifacts")->n, 2);
	cr_assert(find_result(log, "F028", "odd.bool", 8) != NULL);
	jsontree_free(log);
	strbuf_free(&sb);
	unlink(path);
	free(path);
	free(ex);
}

/* A runtime folder that is none: the file is read and reported, the run
 * fails (2), and the reason is a notification about that file. */
Test(sarif, runtime_error_is_a_notification)
{
	char *dir = make_tmpdir(), *ex = example_path();
	const char *argv[] = { "--format", "sarif", "--runtime", dir, ex,
	    NULL };
	struct jsonnode *log = run_json(argv, 2);
	const struct jsonnode *n;

	check_invocation(log, false, 2);
	n = jsontree_pointer(log,
	    "/runs/0/invocations/0/toolExecutionNotifications");
	cr_assert(n != NULL && n->n == 1);
	cr_assert_str_eq(str_at(n, "/0/descriptor/id"), "runtime-error");
	cr_assert(strstr(str_at(n, "/0/message/text"), dir) != NULL);
	cr_assert_str_eq(str_at(n, "/0/locations/0/physicalLocation/"
	    "artifactLocation/uri"), str_at(log,
	    "/runs/0/artifacts/0/location/uri"));
	jsontree_free(log);
	rm_rf(dir);
	free(dir);
	free(ex);
}

/*
 * --plan: SARIF carries each file's plan in run.properties.plans, the
 * same object as the JSON report's plan (which JSON has with or without
 * --plan); without --plan the run has no properties.
 */
Test(sarif, plan_is_in_the_run_properties)
{
	char *ex = example_path();
	const char *sp[] = { "--format", "sarif", "--plan", ex, ex, NULL };
	const char *s0[] = { "--format", "sarif", ex, NULL };
	const char *jp[] = { "--format", "json", "--plan", ex, NULL };
	const char *j0[] = { "--format", "json", ex, NULL };
	struct jsonnode *log = run_json(sp, 0), *bare = run_json(s0, 0);
	struct jsonnode *json = run_json(jp, 0), *json0 = run_json(j0, 0);
	const struct jsonnode *plans = jsontree_pointer(log,
	    "/runs/0/properties/plans");
	const struct jsonnode *plan = jsontree_pointer(json, "/files/0/plan");
	struct strbuf diff = STRBUF_INIT;

	cr_assert(plan != NULL && plan->type == JSONTREE_OBJECT);
	cr_assert(jsontree_get(plan, "total_bytes") != NULL);
	cr_assert_eq(jsontree_diff(plan, jsontree_pointer(json0,
	    "/files/0/plan"), &diff, 10), 0, "%s", diff.buf);
	cr_assert(plans != NULL && plans->type == JSONTREE_ARRAY);
	cr_assert_eq(plans->n, 2, "one per file reported");
	cr_assert_eq(int_at(plans, "/0/index"), 0);
	cr_assert_str_eq(str_at(plans, "/0/uri"), str_at(log,
	    "/runs/0/artifacts/0/location/uri"));
	cr_assert_eq(jsontree_diff(plan, jsontree_pointer(plans, "/0/plan"),
	    &diff, 10), 0, "%s", diff.buf);
	cr_assert_null(jsontree_pointer(bare, "/runs/0/properties"));
	strbuf_free(&diff);
	jsontree_free(log);
	jsontree_free(bare);
	jsontree_free(json);
	jsontree_free(json0);
	free(ex);
}

/* The helpUri template: {code} and {slug} are the rule's. */
Test(sarif, help_uri_template)
{
	struct rule r = { 0 };
	struct strbuf sb = STRBUF_INIT;

	r.code = "F017";
	r.slug = "duplicate-tensor-name";
	report_sarif_help_uri(&sb, "https://h/r.html#{code}-{slug}{", &r);
	cr_assert_str_eq(strbuf_cstr(&sb),
	    "https://h/r.html#F017-duplicate-tensor-name{");
	strbuf_reset(&sb);
	report_sarif_help_uri(&sb, "x", &r);
	cr_assert_str_eq(strbuf_cstr(&sb), "x");
	strbuf_free(&sb);
}

/*
 * The log describes the catalogue in force, the user's declarative rules
 * with it, whether or not a file could be read: the rules of a run that
 * read none are those of a run that read one.
 */
Test(sarif, user_rules_are_in_the_log_even_with_no_file)
{
	static const char rule[] =
	    "- code: X001\n  slug: license-allowed\n  severity: error\n"
	    "  summary: general.license must be mit\n"
	    "  fix: relicense\n  match: value\n"
	    "  key: '^general\\.license$'\n  require: '^mit$'\n";
	static const char cfg_text[] = "rules: [team-rules.yaml]\n";
	char *dir = make_tmpdir(), *ex = example_path();
	char *cfg = xasprintf("%s/gguflint.yaml", dir);
	char *rules_path = xasprintf("%s/team-rules.yaml", dir);
	const char *none_argv[] = { "--config", cfg, "--format", "sarif",
	    "/nonexistent/x.gguf", NULL };
	const char *one_argv[] = { "--config", cfg, "--format", "sarif", ex,
	    NULL };
	struct jsonnode *none, *one;
	const struct jsonnode *rn, *r1;
	size_t i;

	write_file(rules_path, rule, sizeof rule - 1);
	write_file(cfg, cfg_text, sizeof cfg_text - 1);
	none = run_json(none_argv, 2);
	one = run_json(one_argv, 1);
	rn = jsontree_pointer(none, "/runs/0/tool/driver/rules");
	r1 = jsontree_pointer(one, "/runs/0/tool/driver/rules");
	cr_assert(rn != NULL && r1 != NULL && rn->n > 0);
	cr_assert_eq(rn->n, r1->n, "%zu rules with no file, %zu with one",
	    rn->n, r1->n);
	for (i = 0; i < rn->n; i++)
		cr_assert_str_eq(str_at(jsontree_at(rn, i), "/id"),
		    str_at(jsontree_at(r1, i), "/id"));
	cr_assert_str_eq(str_at(jsontree_at(rn, rn->n - 1), "/id"), "X001");
	jsontree_free(none);
	jsontree_free(one);
	rm_rf(dir);
	free(rules_path);
	free(cfg);
	free(ex);
	free(dir);
}


/*
 * validate: run Microsoft's validator on the log at path, with its SARIF
 * rules and its GitHub code scanning rules (--rule-kind "Sarif;Gh"), and
 * return what it found as "LEVEL RULEID MESSAGEID" lines, sorted.
 * The npm package's launcher re-parses its arguments with a shell, so when
 * the tool is a script the rule-kind list is quoted once more for it.
 */
static char *
validate(const char *tool, const char *dir, const char *path)
{
	struct strbuf cmd = STRBUF_INIT, found = STRBUF_INIT;
	char *out = xasprintf("%s/validation.sarif", dir);
	char *log = xasprintf("%s/validation.log", dir);
	char head[2] = { 0, 0 };
	char *text, *console;
	size_t n, i, cn;
	struct jsonnode *root;
	const struct jsonnode *results;
	FILE *f = fopen(tool, "rb");
	char **lines;

	cr_assert(f != NULL);
	cr_assert(fread(head, 1, 2, f) <= 2);
	fclose(f);
	unlink(out);
	/* The validator is a .NET program; without this it needs ICU. */
	strbuf_adds(&cmd, "DOTNET_SYSTEM_GLOBALIZATION_INVARIANT=1 ");
	sh_quote(&cmd, tool);
	strbuf_adds(&cmd, " validate --rule-kind ");
	sh_quote(&cmd, head[0] == '#' && head[1] == '!' ? "'Sarif;Gh'" :
	    "Sarif;Gh");
	strbuf_adds(&cmd, " -o ");
	sh_quote(&cmd, out);
	strbuf_addc(&cmd, ' ');
	sh_quote(&cmd, path);
	strbuf_adds(&cmd, " > ");
	sh_quote(&cmd, log);
	strbuf_adds(&cmd, " 2>&1");
	cr_assert(system(strbuf_cstr(&cmd)) == 0, "%s failed",
	    strbuf_cstr(&cmd));
	console = slurp(log, &cn);
	text = slurp(out, &n);
	cr_assert(text != NULL, "no output from the validator: %s",
	    console ? console : "");
	root = parse_or_fail(text, n);
	results = jsontree_pointer(root, "/runs/0/results");
	cr_assert(results != NULL, "%s", text);
	lines = xcalloc(results->n + 1, sizeof *lines);
	for (i = 0; i < results->n; i++) {
		const struct jsonnode *r = jsontree_at(results, i);
		const char *level = jsontree_str(jsontree_get(r, "level"));
		const char *id = jsontree_str(jsontree_pointer(r,
		    "/message/id"));

		/* SARIF's default level is warning. */
		lines[i] = xasprintf("%s %s %s", level ? level : "warning",
		    str_at(r, "/ruleId"), id ? id : "-");
	}
	qsort(lines, results->n, sizeof *lines, cmp_str);
	for (i = 0; i < results->n; i++) {
		strbuf_addf(&found, "%s\n", lines[i]);
		free(lines[i]);
	}
	free(lines);
	jsontree_free(root);
	free(text);
	free(console);
	unlink(out);
	unlink(log);
	free(out);
	free(log);
	strbuf_free(&cmd);
	return strbuf_detach(&found);
}

/* $SARIF_MULTITOOL when it is an executable file, else NULL. */
static const char *
multitool(void)
{
	const char *tool = getenv("SARIF_MULTITOOL");

	if (tool == NULL || *tool == '\0' || access(tool, X_OK) != 0)
		return NULL;
	return tool;
}

/*
 * The warnings of the validator this project accepts, and why:
 *
 *  - SARIF2005 (ProvideToolProperties), message id
 *    Warning_ProvideToolnformationUri (sic): the driver has no
 *    informationUri, because the project has no public home yet (AC_INIT
 *    has no URL). Inventing one would send users to the wrong place, and a
 *    relative reference is not what the property is for. The reporter
 *    writes informationUri as soon as configure.ac sets PACKAGE_URL, and
 *    then this warning is no longer expected.
 *
 * Nothing else is accepted: no error and no other warning, under the SARIF
 * rules and GitHub code scanning's rules (GH*) alike. The validator's notes
 * are below the levels checked here: they ask for what a linter of binary
 * files cannot give (snippets, context regions, embedded contents, version
 * control provenance) or for what was decided against (message ids instead
 * of text, Pascal-case rule names where the catalogue has slugs, help URIs
 * without a public home), or they need the network (a reachable $schema).
 */
static const char *
accepted_warnings(void)
{
	return PACKAGE_URL[0] == '\0' ?
	    "warning SARIF2005 Warning_ProvideToolnformationUri\n" : "";
}

/* write_baseline: bl.json in the current directory, from model's
 * findings. */
static void
write_baseline(const char *model)
{
	const char *argv[] = { "--write-baseline", "bl.json", model, NULL };
	struct test_run r;

	test_run_bin(&r, argv, NULL, 0);
	cr_assert_eq(r.status, 0, "%s", r.err);
	test_run_free(&r);
}

/* The validator on run i's log (written to log, in dir): nothing but the
 * accepted warnings. The sanitizer build does not ask it (2 s a log, a
 * .NET program that make check runs on the same bytes): what that build
 * watches is gguflint's runs. */
static void
validate_log(const char *tool, const char *dir, const char *log,
    const struct test_run *r, size_t i)
{
	char *found;

	if (test_asan_sampled())
		return;
	write_file(log, r->out, r->out_len);
	found = validate(tool, dir, log);
	cr_assert_str_eq(found, accepted_warnings(),
	    "log %zu: the validator found:\n%s\nthe log:\n%.3000s", i, found,
	    r->out);
	free(found);
}

Test(sarif, microsoft_validator_accepts_the_logs)
{
	const char *tool = multitool();
	struct strbuf broken = STRBUF_INIT, empty = STRBUF_INIT;
	char *dir, *ex, *dotted, *log, *model, *none;
	size_t i;

	if (tool == NULL)
		cr_skip_test("SARIF_MULTITOOL (%s) is not installed: .ci/run "
		    "installs @microsoft/sarif-multitool",
		    getenv("SARIF_MULTITOOL") ? getenv("SARIF_MULTITOOL") :
		    "unset");
	/* the validator reads logs the other tests make under memcheck */
	TEST_SKIP_UNDER_VALGRIND();
	dir = make_tmpdir();
	ex = example_path();
	dotted = xasprintf("%s/./examples/../examples//stories260K.gguf",
	    test_srcdir());
	model = xasprintf("%s/broken.gguf", dir);
	none = xasprintf("%s/empty.gguf", dir);
	log = xasprintf("%s/gguflint.sarif", dir);
	build_broken(&broken, false);
	build_empty(&empty);
	write_file(model, broken.buf, broken.len);
	write_file(none, empty.buf, empty.len);
	cr_assert(chdir(dir) == 0);
	write_baseline("broken.gguf");
	for (i = 0; i < 9; i++) {
		/* The clean example (an absolute path with dot segments), the
		 * broken model (a relative path), the info finding, all three
		 * in one run, one file named twice, a baseline holding the
		 * broken model's findings (unchanged ones and new ones), the
		 * plans in the run's properties, a file not read (a
		 * notification), and advisories' findings (S006) under an old
		 * build. */
		const char *argv[][6] = {
			{ "--format", "sarif", dotted, NULL, NULL, NULL },
			{ "--format", "sarif", "broken.gguf", NULL, NULL,
			    NULL },
			{ "--format", "sarif", "./empty.gguf", NULL, NULL,
			    NULL },
			{ "--format", "sarif", ex, "broken.gguf",
			    "empty.gguf", NULL },
			{ "--format", "sarif", "broken.gguf", "empty.gguf",
			    "./broken.gguf", NULL },
			{ "--format", "sarif", "--baseline", "bl.json",
			    "broken.gguf", "empty.gguf" },
			{ "--format", "sarif", "--plan", "broken.gguf", ex,
			    NULL },
			{ "--format", "sarif", "broken.gguf", "missing.gguf",
			    NULL, NULL },
			{ "--format", "sarif", "--runtime-version", "b5000",
			    "broken.gguf", NULL },
		};
		const char *args[7] = { 0 };
		struct test_run r;

		memcpy(args, argv[i], sizeof argv[i]);
		test_run_bin(&r, args, NULL, 0);
		cr_assert(r.status == (i == 7 ? 2 : 0) || r.status == 1,
		    "%s", r.err);
		validate_log(tool, dir, log, &r, i);
		test_run_free(&r);
	}
	strbuf_free(&broken);
	strbuf_free(&empty);
	rm_rf(dir);
	free(dir);
	free(ex);
	free(dotted);
	free(model);
	free(none);
	free(log);
}

/* The validator does find errors: a log without a driver is one. */
Test(sarif, microsoft_validator_finds_errors)
{
	static const char bad[] = "{\"version\": \"2.1.0\", \"runs\": "
	    "[{\"tool\": {}}]}";
	const char *tool = multitool();
	char *dir, *log, *found;

	if (tool == NULL)
		cr_skip_test("SARIF_MULTITOOL is not installed");
	dir = make_tmpdir();
	log = xasprintf("%s/bad.sarif", dir);
	write_file(log, bad, sizeof bad - 1);
	found = validate(tool, dir, log);
	cr_assert(strstr(found, "error ") != NULL, "%s", found);
	free(found);
	rm_rf(dir);
	free(log);
	free(dir);
}

/*
 * --format github: one workflow command per finding,
 *   ::error file=PATH,title=CODE slug::message [tensor: NAME]
 * with the path's '%', ':' and ',' escaped as a property value, and the
 * message's '%' as data; strings from the file are made terminal-safe
 * first, so no raw control character reaches the log.
 */
Test(github, lines_follow_the_workflow_command_format)
{
	struct strbuf sb = STRBUF_INIT, em = STRBUF_INIT;
	char *dir = make_tmpdir();
	char *sub = xasprintf("%s/a%%b:c,d", dir);
	char *path = xasprintf("%s/a%%b:c,d/m.gguf", dir);
	char *epath = xasprintf("%s/empty.gguf", dir);
	char *want_file, *copy, *line, *save = NULL;
	struct test_run r;
	regex_t re;
	size_t i;
	int n = 0, errors = 0, warnings = 0, notices = 0;

	build_broken(&sb, false);
	build_empty(&em);
	cr_assert(mkdir(sub, 0700) == 0);
	write_file(path, sb.buf, sb.len);
	write_file(epath, em.buf, em.len);
	{
		const char *argv[] = { "--format", "github", "--select",
		    "F017,F028,P005,P009", path, epath, NULL };

		test_run_bin(&r, argv, NULL, 0);
	}
	cr_assert_eq(r.status, 1, "%s", r.err);
	for (i = 0; i < r.out_len; i++)
		cr_assert(r.out[i] == '\n' || (unsigned char)r.out[i] >= 0x20,
		    "raw control byte 0x%02x in the output", r.out[i]);
	want_file = xasprintf("file=%s/a%%25b%%3Ac%%2Cd/m.gguf,", dir);
	cr_assert(regcomp(&re, "^::(error|warning|notice) file=[^,:]+,"
	    "title=[A-Z][0-9]{3} [a-z0-9-]+::[^%]*(%25[^%]*)*$",
	    REG_EXTENDED | REG_NOSUB) == 0);
	copy = xstrdup(r.out);
	for (line = strtok_r(copy, "\n", &save); line != NULL;
	    line = strtok_r(NULL, "\n", &save), n++) {
		cr_assert(regexec(&re, line, 0, NULL, 0) == 0,
		    "line does not follow the format: %s", line);
		errors += strncmp(line, "::error ", 8) == 0;
		warnings += strncmp(line, "::warning ", 10) == 0;
		notices += strncmp(line, "::notice ", 9) == 0;
		if (strstr(line, "title=P009 no-weights::") != NULL)
			continue;
		cr_assert(strstr(line, want_file) != NULL, "%s", line);
	}
	cr_assert_eq(n, 6, "F028, F017 three times, P005, P009: %d lines", n);
	cr_assert_eq(errors, 4);
	cr_assert_eq(warnings, 1);
	cr_assert_eq(notices, 1);
	/* Data: '%' escaped; ':' and ',' kept; the rest as the text
	 * reporter writes it (enc_text). */
	cr_assert(strstr(r.out, ",title=F017 duplicate-tensor-name::") != NULL);
	cr_assert(strstr(r.out, " [tensor: evil\"\\\\\\u{0001}\\xff%25:,"
	    "\\r\\n.w]") != NULL, "%s", r.out);
	cr_assert(strstr(r.out, "::error ") != NULL &&
	    strstr(r.out, "title=F028 invalid-bool::") != NULL);
	cr_assert(strstr(r.out, "::warning ") != NULL &&
	    strstr(r.out, "title=P005 estimate-incomplete::") != NULL);
	cr_assert(strstr(r.out, " [key: odd.bool]") != NULL);
	regfree(&re);
	free(copy);
	test_run_free(&r);
	strbuf_free(&sb);
	strbuf_free(&em);
	rm_rf(dir);
	free(want_file);
	free(sub);
	free(path);
	free(epath);
	free(dir);
}

/* --plan: one notice says the plan is not shown, before the findings. */
Test(github, plan_is_a_notice_not_silence)
{
	char *ex = example_path();
	const char *argv[] = { "--format", "github", "--plan", ex, NULL };
	struct test_run r;

	test_run_bin(&r, argv, NULL, 0);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert(strncmp(r.out, "::notice title=gguflint --plan::", 32) == 0,
	    "%s", r.out);
	cr_assert(strstr(r.out, "plan is not shown") != NULL, "%s", r.out);
	cr_assert(strchr(r.out, '\n') == r.out + r.out_len - 1, "one line");
	test_run_free(&r);
	free(ex);
}

Test(github, clean_file_prints_nothing)
{
	char *ex = example_path();
	const char *argv[] = { "--format", "github", ex, NULL };
	struct test_run r;

	test_run_bin(&r, argv, NULL, 0);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert_str_empty(r.out);
	test_run_free(&r);
	free(ex);
}
