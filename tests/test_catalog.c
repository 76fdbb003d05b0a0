/*
 * test_catalog.c - the rule catalogue: the built-in files load, bad YAML is
 * reported at file:line:col with what was expected, a data directory
 * overrides the built-in copy, and the catalogue, the C sources and the
 * rules man page cannot drift apart. A rule file's rules are split between
 * the catalogue (their entries) and a declset (their matchers).
 */
#include "config.h"

#include <criterion/criterion.h>
#include <criterion/redirect.h>
#include <stdio.h>
#include <ctype.h>
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "checks/declrule.h"
#include "data/builtin.h"
#include "findings/catalog.h"
#include "ggufw.h"
#include "testutil.h"

Test(catalog, builtin_loads_with_every_field)
{
	struct catalog cat;
	struct gl_error err;
	size_t i;

	cr_assert(catalog_load_builtin(&cat, &err) == 0, "%s", err.msg);
	cr_assert(cat.n >= 31);
	for (i = 0; i < cat.n; i++) {
		const struct rule *r = &cat.rules[i];

		cr_assert_eq(r->code[0], r->family);
		cr_assert(*r->slug && *r->summary && *r->rationale && *r->fix);
		cr_assert(r->basis != NULL && *r->basis, "%s: no basis",
		    r->code);
		if (i > 0)
			cr_assert(strcmp(cat.rules[i - 1].code, r->code) < 0);
	}
	cr_assert(catalog_find(&cat, "F010") != NULL);
	cr_assert(catalog_find(&cat, "f010") != NULL);
	cr_assert(catalog_find(&cat, "not-gguf") == catalog_find(&cat, "F001"));
	cr_assert(catalog_find(&cat, "F999") == NULL);
	cr_assert_eq(catalog_find(&cat, "F005")->severity, SEV_WARNING);
	catalog_free(&cat);
}

static void
expect_error(const char *yaml, const char *where, const char *what)
{
	struct catalog cat = { 0 };
	struct gl_error err;

	cr_assert(catalog_add_yaml(&cat, "t.yaml", yaml, strlen(yaml), &err)
	    < 0, "accepted: %s", yaml);
	cr_assert(strstr(err.msg, where) != NULL, "want %s in: %s", where,
	    err.msg);
	cr_assert(strstr(err.msg, what) != NULL, "want %s in: %s", what,
	    err.msg);
	cr_assert_eq(err.kind, GL_ERR_PARSE, "%s", err.msg);
	catalog_free(&cat);
}

#define RULE(extra) \
	"- code: F100\n  slug: x-y\n  family: F\n" extra \
	"  summary: s\n  rationale: r\n  basis: b\n  fix: f\n"

Test(catalog, errors_name_the_place_and_what_was_expected)
{
	expect_error(RULE("  severity: fatal\n"), "t.yaml:4:13",
	    "error, warning or info");
	expect_error(RULE("  severity: error\n  colour: red\n"), "t.yaml:5:3",
	    "unknown key");
	expect_error("- code: F100\n  slug: x\n", "t.yaml:1:3",
	    "missing key 'family'");
	expect_error("code: F100\n", "t.yaml:1:1", "sequence");
	expect_error("- [unclosed\n", "t.yaml:", "");
	expect_error(RULE("  severity: error\n") RULE("  severity: info\n"),
	    "t.yaml:9:3", "already declared");
	expect_error("- code: f1\n", "t.yaml:1:9", "capital letter");
	expect_error(RULE("  severity: [error]\n"), "t.yaml:4:13", "scalar");
	expect_error("- code: M100\n  slug: x-y\n  family: F\n"
	    "  severity: info\n  summary: s\n  rationale: r\n  basis: b\n"
	    "  fix: f\n", "t.yaml:1:3", "family");
	/* a built-in rule must say what decides its severity */
	expect_error("- code: F100\n  slug: x-y\n  family: F\n"
	    "  severity: info\n  summary: s\n  rationale: r\n  fix: f\n",
	    "t.yaml:1:3", "missing key 'basis'");
	expect_error(RULE("  severity: info\n  basis: again\n"), "t.yaml:",
	    "duplicate key");
}

Test(catalog, data_directory_overrides_the_builtin_copy)
{
	char dir[] = "/tmp/gguflint-data-XXXXXX";
	struct catalog cat;
	struct gl_error err;
	char *rules, *file;
	FILE *fp;

	cr_assert(mkdtemp(dir) != NULL);
	rules = xasprintf("%s/rules", dir);
	file = xasprintf("%s/rules/F-file.yaml", dir);
	cr_assert(mkdir(rules, 0700) == 0);
	fp = fopen(file, "w");
	cr_assert(fp != NULL);
	fputs(RULE("  severity: info\n"), fp);
	fclose(fp);
	setenv("GGUFLINT_DATADIR", dir, 1);
	cr_assert(catalog_load_builtin(&cat, &err) == 0, "%s", err.msg);
	cr_assert(catalog_find(&cat, "F100") != NULL);
	cr_assert(catalog_find(&cat, "F001") == NULL, "the override replaces "
	    "the whole built-in F-file.yaml");
	cr_assert(catalog_find(&cat, "P001") != NULL, "other files stay");
	cr_assert(strstr(catalog_find(&cat, "F100")->origin, file) ==
	    catalog_find(&cat, "F100")->origin);
	catalog_free(&cat);
	/* a broken override is an error naming the file on disk */
	fp = fopen(file, "w");
	fputs("- code: [\n", fp);
	fclose(fp);
	cr_assert(catalog_load_builtin(&cat, &err) < 0);
	cr_assert(strstr(err.msg, file) != NULL, "%s", err.msg);
	catalog_free(&cat);
	unlink(file);
	rmdir(rules);
	rmdir(dir);
	free(rules);
	free(file);
}

/* The text of every C file below src/, for the drift check. */
static char *
source_text(void)
{
	struct strbuf all = STRBUF_INIT;
	char *dir = xasprintf("%s/src", test_srcdir());
	size_t i, n;
	char **paths = test_tree_files(dir, ".c", &n);

	for (i = 0; i < n; i++) {
		char *text;
		size_t len;
		struct gl_error err;

		cr_assert(read_whole_file(paths[i], 1u << 24, &text, &len,
		    &err) == 0, "%s", err.msg);
		strbuf_add(&all, text, len);
		free(text);
	}
	test_tree_files_free(paths, n);
	free(dir);
	return strbuf_detach(&all);
}

Test(catalog, every_code_used_is_declared_and_every_rule_is_used)
{
	struct catalog cat;
	struct gl_error err;
	char *src = source_text(), *p, quoted[8];
	size_t i;

	cr_assert(catalog_load_builtin(&cat, &err) == 0);
	for (p = src; (p = strchr(p, '"')) != NULL; p++) {
		if (isupper((unsigned char)p[1]) && isdigit((unsigned char)p[2])
		    && isdigit((unsigned char)p[3]) &&
		    isdigit((unsigned char)p[4]) && p[5] == '"') {
			char code[5];

			memcpy(code, p + 1, 4);
			code[4] = '\0';
			cr_expect(catalog_index(&cat, code) >= 0,
			    "src uses %s, which no rules/*.yaml declares",
			    code);
		}
	}
	for (i = 0; i < cat.n; i++) {
		snprintf(quoted, sizeof quoted, "\"%s\"", cat.rules[i].code);
		cr_expect(strstr(src, quoted) != NULL, "rule %s is declared "
		    "but no check emits it", cat.rules[i].code);
	}
	catalog_free(&cat);
	free(src);
}

/* man/gguflint-rules.7 is the catalogue's mdoc output, byte for byte. */
Test(catalog, rules_man_page_is_generated_from_the_catalogue)
{
	const char *argv[] = { "--list-rules", "--format", "mdoc", NULL };
	char *path = xasprintf("%s/man/gguflint-rules.7", test_srcdir());
	struct test_run r;
	struct gl_error err;
	char *man;
	size_t len;

	cr_assert(read_whole_file(path, 1u << 22, &man, &len, &err) == 0,
	    "%s", err.msg);
	test_run_bin(&r, argv, NULL, 0);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert(r.out_len == len && memcmp(r.out, man, len) == 0,
	    "man/gguflint-rules.7 is stale: run make update-man");
	cr_assert(strstr(man, ".It Sy F010 Cm tensor-data-out-of-bounds Pq "
	    "error") != NULL);
	test_run_free(&r);
	free(man);
	free(path);
}

/* Count of the findings of code in a lint of data with these matchers. */
static size_t
lint_count(const struct catalog *cat, const struct declset *set,
    const struct strbuf *data, const char *code)
{
	struct lint_options lo = { 0 };
	struct lint_result res;
	size_t i, n = 0;

	lo.cat = cat;
	lo.decls = set;
	lint_buffer("m.gguf", data->buf, data->len, &lo, &res);
	for (i = 0; i < res.diags.n; i++)
		n += strcmp(res.diags.v[i].rule->code, code) == 0;
	lint_result_free(&res);
	return n;
}

/*
 * A rule file's rule is an entry in the catalogue (for --list-rules,
 * --explain, SARIF) and a matcher in the set, named by code and sorted by
 * it; only the set makes the lint run it. A bad rule leaves the ones
 * before it in both.
 */
Test(catalog, declarative_rules_are_an_entry_and_a_matcher)
{
	static const char rules[] =
	    "- code: X002\n  slug: needs-author\n  severity: warning\n"
	    "  summary: general.author is required\n  fix: add it\n"
	    "  match: key\n  require: '^general\\.author$'\n"
	    "- code: X001\n  slug: license-mit\n  severity: error\n"
	    "  summary: the licence must be mit\n  fix: relicense\n"
	    "  match: value\n  key: '^general\\.license$'\n"
	    "  require: '^mit$'\n  basis: the team's licence policy\n";
	static const char dup[] =
	    "- code: X003\n  slug: no-odd-keys\n  severity: info\n"
	    "  summary: no odd keys\n  fix: remove them\n  match: key\n"
	    "  forbid: '^odd\\.'\n"
	    "- code: X001\n  slug: again\n  severity: info\n"
	    "  summary: s\n  fix: f\n  match: key\n  forbid: x\n";
	struct declset set = { 0 };
	struct catalog cat;
	struct gl_error err;
	const struct rule *r;
	struct ggufw w;
	size_t n;

	cr_assert(catalog_load_builtin(&cat, &err) == 0, "%s", err.msg);
	n = cat.n;
	cr_assert(declrule_parse(&cat, &set, "r.yaml", rules, strlen(rules),
	    &err) == 0, "%s", err.msg);
	cr_assert_eq(cat.n, n + 2);
	cr_assert_not_null(r = catalog_find(&cat, "license-mit"));
	cr_expect_str_eq(r->code, "X001");
	cr_expect_eq(r->severity, SEV_ERROR);
	cr_expect_str_eq(r->origin, "r.yaml:8");
	cr_expect_str_eq(r->rationale, r->summary);
	cr_expect_str_eq(r->basis, "the team's licence policy");
	cr_expect_str_eq(catalog_find(&cat, "X002")->basis,
	    "a declarative rule of r.yaml:1", "the default basis");
	cr_assert_eq(set.n, 2);
	cr_expect_str_eq(set.v[0].code, "X001");
	cr_expect_eq(set.v[0].match, DECL_VALUE);
	cr_expect_str_eq(set.v[1].code, "X002");

	ggufw_init(&w, false);
	ggufw_header(&w, "GGUF", 3, 0, 1);
	ggufw_kv_str(&w, "general.license", "gpl");
	cr_expect_eq(lint_count(&cat, &set, &w.out, "X001"), 1);
	cr_expect_eq(lint_count(&cat, &set, &w.out, "X002"), 1);
	cr_expect_eq(lint_count(&cat, NULL, &w.out, "X001"), 0,
	    "the catalogue alone runs nothing");

	cr_assert(declrule_parse(&cat, &set, "d.yaml", dup, strlen(dup),
	    &err) < 0);
	cr_expect(strstr(err.msg, "d.yaml:8:3: code X001 or slug again is "
	    "already declared") != NULL, "%s", err.msg);
	cr_expect_eq(err.kind, GL_ERR_PARSE);
	cr_expect_eq(cat.n, n + 3);
	cr_assert_eq(set.n, 3);
	cr_expect_str_eq(set.v[2].code, "X003");
	cr_expect_eq(lint_count(&cat, &set, &w.out, "X001"), 1);

	ggufw_free(&w);
	declset_free(&set);
	cr_expect_eq(set.n, 0);
	catalog_free(&cat);
}

/* One rule of a rule file, with code and slug. */
#define DECL(code, slug) "- code: " code "\n  slug: " slug "\n" \
	"  severity: info\n  summary: s\n  fix: f\n  match: key\n" \
	"  forbid: x\n"

/*
 * Rules added in any order leave the catalogue and the set sorted by
 * code; a code or slug taken, as catalog_find finds it (a slug that is a
 * code but for its case too), is refused.
 */
Test(catalog, declarative_rules_keep_both_sorted)
{
	static const char *const taken[] = {
		DECL("X005", "again"), DECL("X100", "five"),
		DECL("X101", "f010"), DECL("F010", "new-slug"),
	};
	static const char rules[] = DECL("X007", "seven") DECL("X003",
	    "three") DECL("Y001", "y-one") DECL("X005", "five")
	    DECL("A999", "a-last") DECL("X004", "four");
	struct declset set = { 0 };
	struct catalog cat;
	struct gl_error err;
	size_t i, n;

	cr_assert(catalog_load_builtin(&cat, &err) == 0, "%s", err.msg);
	n = cat.n;
	cr_assert(declrule_parse(&cat, &set, "r.yaml", rules, strlen(rules),
	    &err) == 0, "%s", err.msg);
	cr_assert_eq(cat.n, n + 6);
	cr_assert_eq(set.n, 6);
	for (i = 1; i < cat.n; i++)
		cr_expect(strcmp(cat.rules[i - 1].code, cat.rules[i].code) < 0,
		    "catalogue: %s before %s", cat.rules[i - 1].code,
		    cat.rules[i].code);
	for (i = 1; i < set.n; i++)
		cr_expect(strcmp(set.v[i - 1].code, set.v[i].code) < 0,
		    "set: %s before %s", set.v[i - 1].code, set.v[i].code);
	cr_expect_str_eq(set.v[0].code, "A999");
	cr_expect_str_eq(set.v[5].code, "Y001");
	for (i = 0; i < sizeof taken / sizeof taken[0]; i++) {
		cr_expect(declrule_parse(&cat, &set, "t.yaml", taken[i],
		    strlen(taken[i]), &err) < 0, "took %s", taken[i]);
		cr_expect(strstr(err.msg, "is already declared") != NULL,
		    "%s", err.msg);
	}
	cr_expect_eq(cat.n, n + 6);
	cr_expect_eq(set.n, 6);
	declset_free(&set);
	catalog_free(&cat);
}

/*
 * A rule file's family, when given, is the code's letter, as in a
 * catalogue file, and fails with the catalogue's words at the rule.
 */
Test(catalog, declarative_rule_family_is_the_code_letter)
{
	static const char good[] =
	    "- code: X001\n  slug: one\n  family: X\n  severity: info\n"
	    "  summary: s\n  fix: f\n  match: key\n  forbid: x\n";
	static const char bad[] =
	    "- code: X002\n  slug: two\n  severity: info\n"
	    "  summary: s\n  fix: f\n  match: key\n  forbid: x\n"
	    "- code: X003\n  slug: three\n  family: Y\n  severity: info\n"
	    "  summary: s\n  fix: f\n  match: key\n  forbid: x\n";
	struct declset set = { 0 };
	struct catalog cat;
	struct gl_error err;

	cr_assert(catalog_load_builtin(&cat, &err) == 0, "%s", err.msg);
	cr_assert(declrule_parse(&cat, &set, "g.yaml", good, strlen(good),
	    &err) == 0, "%s", err.msg);
	cr_expect_eq(catalog_find(&cat, "X001")->family, 'X');
	cr_assert(declrule_parse(&cat, &set, "b.yaml", bad, strlen(bad),
	    &err) < 0, "family Y for code X003 was accepted");
	cr_expect_str_eq(err.msg, "b.yaml:8:3: the code's letter must be the "
	    "rule's family");
	cr_expect_eq(err.kind, GL_ERR_PARSE);
	cr_expect_not_null(catalog_find(&cat, "X002"), "the rule before stays");
	cr_expect_null(catalog_find(&cat, "X003"));
	cr_expect_eq(set.n, 2);
	declset_free(&set);
	catalog_free(&cat);
}

/*
 * An allocator for PCRE2 that fails once told to. A pattern compiled with
 * it passes it on to the match data made from the pattern, which is what
 * declset_check makes for each rule.
 */
static bool fail_pcre2_alloc;

static void *
failing_malloc(PCRE2_SIZE n, void *data)
{
	(void)data;
	return fail_pcre2_alloc ? NULL : malloc(n);
}

static void
failing_free(void *p, void *data)
{
	(void)data;
	free(p);
}

/*
 * Out of memory for a rule's match data is fatal (exit 2, as for xmalloc),
 * not a rule that silently matches nothing.
 */
Test(catalog, declarative_rule_out_of_memory_exits, .exit_code = 2)
{
	static const char rules[] =
	    "- code: X001\n  slug: no-odd-keys\n  severity: error\n"
	    "  summary: no odd keys\n  fix: remove them\n  match: key\n"
	    "  forbid: '^odd\\.'\n";
	pcre2_general_context *gc;
	pcre2_compile_context *cc;
	struct declset set = { 0 };
	struct catalog cat;
	struct gl_error err;
	PCRE2_SIZE off;
	struct ggufw w;
	int code;

	/* what xmalloc's exit prints is expected: not on the terminal */
	cr_redirect_stderr();
	cr_assert(catalog_load_builtin(&cat, &err) == 0, "%s", err.msg);
	cr_assert(declrule_parse(&cat, &set, "r.yaml", rules, strlen(rules),
	    &err) == 0, "%s", err.msg);
	cr_assert_not_null(gc = pcre2_general_context_create(failing_malloc,
	    failing_free, NULL));
	cr_assert_not_null(cc = pcre2_compile_context_create(gc));
	pcre2_code_free(set.v[0].forbid);
	set.v[0].forbid = pcre2_compile((PCRE2_SPTR)"^odd\\.",
	    PCRE2_ZERO_TERMINATED, 0, &code, &off, cc);
	cr_assert_not_null(set.v[0].forbid);
	/* The code keeps its own copy of the allocators: the contexts can go,
	 * and must, or LeakSanitizer counts them when the lint exits. */
	pcre2_compile_context_free(cc);
	pcre2_general_context_free(gc);
	ggufw_init(&w, false);
	ggufw_header(&w, "GGUF", 3, 0, 1);
	ggufw_kv_str(&w, "odd.key", "x");
	cr_assert_eq(lint_count(&cat, &set, &w.out, "X001"), 1);
	fail_pcre2_alloc = true;
	lint_count(&cat, &set, &w.out, "X001");
	cr_assert_fail("the lint went on without the rule's match data");
}
