/*
 * test_advisory.c - S006, the runtime's advisory floor: the rows of
 * rules/runtime/advisories.yaml (facts/advisory.h) are well formed and
 * name declared rules; a runtime_version below each fix is a warning
 * naming the advisory and its fixing build, the fixing build itself none;
 * the file's pattern makes it an error; a bad row in a data directory is
 * a configuration error (exit 2) at its file:line:col; the runtime's own
 * version is read when none is named; JSON and SARIF name the ids.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/util.h"
#include "checks/checks.h"
#include "facts/advisory.h"
#include "findings/catalog.h"
#include "findings/diag.h"
#include "ggufw.h"
#include "golden.h"
#include "runtime/runtime.h"
#include "target/profile.h"
#include "testutil.h"

static const struct adv_db *
db(void)
{
	const struct adv_db *d;
	struct gl_error err;

	cr_assert(adv_db_get(&d, &err) == 0, "%s", err.msg);
	cr_assert(d->n > 0);
	return d;
}

/* An id: CVE-YYYY-N... or GHSA-xxxx-xxxx-xxxx. */
static bool
good_id(const char *s)
{
	size_t i;

	if (strncmp(s, "CVE-", 4) == 0) {
		for (i = 4; i < 8; i++)
			if (s[i] < '0' || s[i] > '9')
				return false;
		if (s[8] != '-' || strlen(s + 9) < 4)
			return false;
		for (i = 9; s[i] != '\0'; i++)
			if (s[i] < '0' || s[i] > '9')
				return false;
		return true;
	}
	if (strncmp(s, "GHSA-", 5) != 0 || strlen(s) != 19)
		return false;
	for (i = 5; i < 19; i++)
		if (i == 9 || i == 14 ? s[i] != '-' :
					!((s[i] >= 'a' && s[i] <= 'z') ||
					    (s[i] >= '0' && s[i] <= '9')))
			return false;
	return true;
}

/* Every row: an id, a fixed build (a bNNNN for llama.cpp and ggml), one
 * line of bug, an https source, and rules the catalogue declares. */
Test(advisory, rows_are_well_formed)
{
	const struct adv_db *d = db();
	struct gl_error err;
	struct catalog cat;
	size_t i, k, judged = 0;

	cr_assert(catalog_load_builtin(&cat, &err) == 0, "%s", err.msg);
	for (i = 0; i < d->n; i++) {
		const struct adv_row *r = &d->rows[i];

		cr_expect(good_id(r->id), "id '%s'", r->id);
		cr_expect(strncmp(r->source, "https://", 8) == 0, "%s: %s",
		    r->id, r->source);
		cr_expect(strchr(r->bug, '\n') == NULL &&
			strlen(r->bug) <= 160 && r->bug[0] != '\0',
		    "%s: bug '%s'", r->id, r->bug);
		if (r->component == ADV_OLLAMA) {
			cr_expect_eq(r->fixed_build, 0, "%s", r->id);
		} else {
			cr_expect(r->fixed_build > 0 && r->fixed[0] == 'b',
			    "%s: %s", r->id, r->fixed);
			judged++;
		}
		cr_expect(r->n_rules > 0, "%s: no rules", r->id);
		for (k = 0; k < r->n_rules; k++) {
			char code[5];

			memcpy(code, r->rules[k], 4);
			code[4] = '\0';
			cr_expect(catalog_find(&cat, code) != NULL,
			    "%s: rule %s is declared nowhere", r->id,
			    r->rules[k]);
		}
		/* --explain names it */
		cr_expect(strstr(catalog_find(&cat, "S006")->rationale,
			      r->id) != NULL,
		    "S006's rationale does not name %s", r->id);
	}
	cr_expect(judged >= 5, "%zu rows judged against builds", judged);
	catalog_free(&cat);
}

/* The ids of the S006 findings of t, space-separated (static). */
static const char *
s006_ids(const struct test_lint *t, enum severity *worst)
{
	static char buf[1024];
	size_t i, n = 0;

	buf[0] = '\0';
	*worst = SEV_INFO;
	for (i = 0; i < t->res.diags.n; i++) {
		const struct diag *g = &t->res.diags.v[i];

		if (strcmp(g->rule->code, "S006") != 0)
			continue;
		cr_assert_eq(g->n_items, 1, "%s", g->message);
		n += (size_t)snprintf(buf + n, sizeof buf - n, " %s",
		    g->items[0]);
		cr_assert(strstr(g->message, g->items[0]) != NULL, "%s",
		    g->message);
		if (g->severity > *worst)
			*worst = g->severity;
	}
	return buf;
}

/* The tiny llama under the default profile at runtime_version version. */
static void
lint_at(struct test_lint *t, struct profile *p, const char *version)
{
	struct strbuf sb = STRBUF_INIT;
	struct gl_error err;
	struct tiny m;

	cr_assert(profile_load(PROFILE_DEFAULT, p, &err) == 0, "%s", err.msg);
	p->runtime_version = xstrdup(version);
	cr_assert(runtime_version_parse(version, &p->runtime_build) == 0);
	tiny_init(&m);
	tiny_build(&m, &sb);
	test_lint_bytes_profile(t, sb.buf, sb.len, p);
	strbuf_free(&sb);
}

/* Below each fix: a warning naming the advisory and the fixing build (the
 * clean model has no pattern); at the fix: none for it. */
Test(advisory, below_and_at_each_fix)
{
	const struct adv_db *d = db();
	size_t i;

	for (i = 0; i < d->n; i++) {
		const struct adv_row *r = &d->rows[i];
		char below[16], at[16], want[64];
		struct test_lint t;
		enum severity worst;
		struct profile p;
		const char *ids;

		if (r->component == ADV_OLLAMA)
			continue;
		snprintf(below, sizeof below, "b%u",
		    (unsigned)r->fixed_build - 1);
		snprintf(at, sizeof at, "b%u", (unsigned)r->fixed_build);
		snprintf(want, sizeof want, " %s", r->id);
		lint_at(&t, &p, below);
		ids = s006_ids(&t, &worst);
		cr_expect(strstr(ids, want) != NULL, "%s: %s names%s", r->id,
		    below, ids);
		cr_expect_eq(worst, SEV_WARNING, "%s at %s", r->id, below);
		{
			const struct diag *g = test_find(&t, "S006");

			cr_expect(g == NULL ||
			    strstr(g->message, "predates") != NULL);
		}
		test_lint_free(&t);
		profile_free(&p);
		lint_at(&t, &p, at);
		ids = s006_ids(&t, &worst);
		cr_expect(strstr(ids, want) == NULL, "%s: %s still names%s",
		    r->id, at, ids);
		test_lint_free(&t);
		profile_free(&p);
	}
}

/* The release gguflint replicates is newer than every fix. */
Test(advisory, replica_has_none)
{
	struct test_lint t;
	struct profile p;

	lint_at(&t, &p, "v0.5.0");
	cr_expect_eq(test_count(&t, "S006"), 0, "%s", test_codes(&t));
	test_lint_free(&t);
	profile_free(&p);
}

/* The file at tests/cases/NAME.gguf, linted by the binary with args. */
static void
run_case(struct test_run *r, const char *name, const char *version,
    const char *format)
{
	char *path = xasprintf("%s/tests/cases/%s.gguf", test_srcdir(), name);
	const char *argv[] = { "--runtime-version", version, "--format", format,
		path, NULL };

	test_run_bin(r, argv, NULL, 0);
	free(path);
}

/* The S006 line of the text report naming id, or NULL (static copy). */
static const char *
line_of(const struct test_run *r, const char *id)
{
	static char buf[1024];
	const char *p = r->out, *e;

	while ((p = strstr(p, "S006")) != NULL) {
		const char *s = p;

		while (s > r->out && s[-1] != '\n')
			s--;
		e = strchr(p, '\n');
		if (e == NULL)
			e = p + strlen(p);
		if ((size_t)(e - s) < sizeof buf) {
			memcpy(buf, s, (size_t)(e - s));
			buf[e - s] = '\0';
			if (strstr(buf, id) != NULL)
				return buf;
		}
		p = e;
	}
	return NULL;
}

/* The pattern makes it an error: F021 (a byte size that wraps) under a
 * build before b7824 (CVE-2026-33298) and b8146 (CVE-2026-27940); at the
 * fixes, nothing names them. */
Test(advisory, pattern_is_an_error)
{
	struct test_run r;
	const char *l;

	run_case(&r, "F021-q4_0-nbytes-wraps-to-2", "b7823", "text");
	cr_expect_eq(r.status, 1);
	l = line_of(&r, "CVE-2026-33298");
	cr_assert(l != NULL, "%s", r.out);
	cr_expect(strstr(l, "error: S006") != NULL &&
		strstr(l, "b7824") != NULL &&
		strstr(l, "the file has its pattern") != NULL,
	    "%s", l);
	l = line_of(&r, "CVE-2026-27940");
	cr_expect(l != NULL && strstr(l, "error: S006") != NULL, "%s", r.out);
	/* GHSA-645x-v54x-34w8 is about nextn_predict_layers: a warning */
	l = line_of(&r, "GHSA-645x-v54x-34w8");
	cr_expect(l != NULL && strstr(l, "warning: S006") != NULL, "%s", r.out);
	test_run_free(&r);
	run_case(&r, "F021-q4_0-nbytes-wraps-to-2", "b7824", "text");
	cr_expect(line_of(&r, "CVE-2026-33298") == NULL, "%s", r.out);
	cr_expect(line_of(&r, "CVE-2026-27940") != NULL, "%s", r.out);
	test_run_free(&r);
}

/* A rule with a subject: M004 on nextn_predict_layers is the pattern of
 * GHSA-645x-v54x-34w8, M004 on block_count is not. */
Test(advisory, pattern_with_a_subject)
{
	struct test_run r;
	const char *l;

	run_case(&r, "M004-nextn-above-block-count", "b8456", "text");
	l = line_of(&r, "GHSA-645x-v54x-34w8");
	cr_expect(l != NULL && strstr(l, "error: S006") != NULL, "%s", r.out);
	test_run_free(&r);
	run_case(&r, "M004-block-count-513", "b8456", "text");
	l = line_of(&r, "GHSA-645x-v54x-34w8");
	cr_expect(l != NULL && strstr(l, "warning: S006") != NULL, "%s", r.out);
	test_run_free(&r);
	run_case(&r, "M004-nextn-above-block-count", "b8457", "text");
	cr_expect(line_of(&r, "GHSA-645x-v54x-34w8") == NULL, "%s", r.out);
	test_run_free(&r);
}

/* JSON lists the id in the finding's items; SARIF's result names it and
 * its rule has the catalogue's security-severity. */
Test(advisory, json_and_sarif_name_the_ids)
{
	struct test_run r;

	run_case(&r, "F021-q4_0-nbytes-wraps-to-2", "b7823", "json");
	cr_expect(strstr(r.out, "\"items\": [\"CVE-2026-33298\"]") != NULL ||
		strstr(r.out, "\"items\":[\"CVE-2026-33298\"]") != NULL,
	    "%.4000s", r.out);
	test_run_free(&r);
	run_case(&r, "F021-q4_0-nbytes-wraps-to-2", "b7823", "sarif");
	cr_expect(strstr(r.out, "fixes CVE-2026-33298") != NULL, "%.2000s",
	    r.out);
	cr_expect(strstr(r.out, "\"security-severity\": \"7.8\"") != NULL,
	    "no S006 security-severity");
	test_run_free(&r);
}

/* The runtime's own llama_version(), when no version is named: the
 * prebuilt v0.5.0's "0.5.0-dev" is newer than every fix; a version that
 * names an older build is judged; one naming none is not. */
Test(advisory, the_runtimes_own_version)
{
	static const struct {
		const char *version;
		bool found;
	} cases[] = { { "0.5.0-dev", false }, { "b8000", true },
		{ "b8000-dev", true }, { "1.2.3", false }, { NULL, false } };
	struct gl_error err;
	struct catalog cat;
	struct profile p;
	size_t i;

	cr_assert(catalog_load_builtin(&cat, &err) == 0, "%s", err.msg);
	cr_assert(profile_load(PROFILE_DEFAULT, &p, &err) == 0, "%s", err.msg);
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct rt_llama l = { .verdict = RT_LLAMA_LOADED };
		struct check_ctx ctx = { .profile = &p, .llama = &l };
		struct diag_list dl;
		size_t k, n = 0;

		l.version = (char *)cases[i].version;
		diag_list_init(&dl, &cat);
		check_advisory(&ctx, &dl);
		for (k = 0; k < dl.n; k++)
			if (strstr(dl.v[k].message,
				"the runtime's llama.cpp") != NULL)
				n++;
		cr_expect_eq(n > 0, cases[i].found, "'%s': %zu",
		    cases[i].version ? cases[i].version : "(null)", n);
		cr_expect_eq(n, dl.n, "'%s'", cases[i].version);
		diag_list_free(&dl);
	}
	/* a named version wins over the runtime's */
	{
		struct rt_llama l = { .verdict = RT_LLAMA_LOADED,
			.version = (char *)"b8000" };
		struct check_ctx ctx = { .profile = &p, .llama = &l };
		struct diag_list dl;

		p.runtime_version = xstrdup("v0.5.0");
		cr_assert(
		    runtime_version_parse("v0.5.0", &p.runtime_build) == 0);
		diag_list_init(&dl, &cat);
		check_advisory(&ctx, &dl);
		cr_expect_eq(dl.n, 0);
		diag_list_free(&dl);
	}
	profile_free(&p);
	catalog_free(&cat);
}

/* A data directory's file of the name, with text, for the binary. */
static char *
data_dir_with(const char *text)
{
	char tmpl[] = "/tmp/gguflint-adv-XXXXXX";
	char *dir, *sub, *file;
	FILE *fp;

	cr_assert(mkdtemp(tmpl) != NULL);
	dir = xstrdup(tmpl);
	sub = xasprintf("%s/rules", dir);
	cr_assert(mkdir(sub, 0700) == 0);
	free(sub);
	sub = xasprintf("%s/rules/runtime", dir);
	cr_assert(mkdir(sub, 0700) == 0);
	file = xasprintf("%s/advisories.yaml", sub);
	cr_assert((fp = fopen(file, "w")) != NULL);
	fputs(text, fp);
	cr_assert(fclose(fp) == 0);
	free(sub);
	free(file);
	return dir;
}

static void
data_dir_remove(char *dir)
{
	char *cmd = xasprintf("rm -rf '%s'", dir);

	cr_assert(system(cmd) == 0);
	free(cmd);
	free(dir);
}

#define ROW(fixed, rules) \
	"runtime: advisories\n" \
	"advisories:\n" \
	"  - id: CVE-2025-53630\n" \
	"    component: ggml\n" \
	"    fixed: " fixed "\n" \
	"    verified: history\n" \
	"    commit: x\n" \
	"    rules: " rules "\n" \
	"    bug: a bug\n" \
	"    source: https://example.org/\n"

/* A bad row in the data directory: exit 2, its file:line:col, whatever
 * the file linted; a good one replaces the built-in data. */
Test(advisory, bad_row_in_a_data_dir_exits_2)
{
	static const struct {
		const char *text, *want;
	} cases[] = {
		{ ROW("5854", "[F021]"),
		    "advisories.yaml:5:12: expected a llama.cpp build" },
		{ ROW("b5854", "[F21]"),
		    "advisories.yaml:8:13: expected a rule code" },
		{ ROW("b5854", "F021"),
		    "advisories.yaml:8:12: expected a list of at most 8" },
	};
	char *ex = xasprintf("%s/examples/stories260K.gguf", test_srcdir());
	const char *argv[] = { "--runtime-version", "b5000", ex, NULL };
	struct test_run r;
	size_t i;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *dir = data_dir_with(cases[i].text);

		setenv("GGUFLINT_DATADIR", dir, 1);
		test_run_bin(&r, argv, NULL, 0);
		cr_expect_eq(r.status, 2, "case %zu: status %d", i, r.status);
		cr_expect(strstr(r.err, cases[i].want) != NULL, "case %zu: %s",
		    i, r.err);
		test_run_free(&r);
		data_dir_remove(dir);
	}
	{
		char *dir = data_dir_with(ROW("b5854", "[F021]"));

		setenv("GGUFLINT_DATADIR", dir, 1);
		test_run_bin(&r, argv, NULL, 0);
		cr_expect_eq(r.status, 0, "%s", r.err);
		cr_expect(strstr(r.out, "fixes CVE-2025-53630") != NULL &&
			strstr(r.out, "CVE-2026-27940") == NULL,
		    "%s", r.out);
		test_run_free(&r);
		data_dir_remove(dir);
	}
	setenv("GGUFLINT_DATADIR", "/nonexistent", 1);
	free(ex);
}

/* A catalogue rule's security_severity is a score from 0.0 to 10.0; SARIF
 * gives it (above), and a rule without one the severity's. */
Test(advisory, security_severity_is_a_score)
{
#define RULE(extra) \
	"- code: S901\n  slug: s-nine\n  family: S\n  severity: warning\n" \
	"  summary: s\n  rationale: r\n  basis: b\n  fix: f\n" extra
	static const char good[] = RULE("  security_severity: \"9.1\"\n");
	static const char none[] = RULE("");
	static const char bad[] = RULE("  security_severity: high\n");
#undef RULE
	struct gl_error err;
	struct catalog cat = { 0 };

	cr_assert(catalog_add_yaml(&cat, "t.yaml", good, strlen(good), &err) ==
		0,
	    "%s", err.msg);
	cr_expect_str_eq(catalog_find(&cat, "S901")->security_severity, "9.1");
	catalog_free(&cat);
	memset(&cat, 0, sizeof cat);
	cr_assert(catalog_add_yaml(&cat, "t.yaml", none, strlen(none), &err) ==
		0,
	    "%s", err.msg);
	cr_expect_null(catalog_find(&cat, "S901")->security_severity);
	catalog_free(&cat);
	memset(&cat, 0, sizeof cat);
	cr_expect(catalog_add_yaml(&cat, "t.yaml", bad, strlen(bad), &err) < 0);
	cr_expect(strstr(err.msg,
		      "t.yaml:9:22: security_severity: expected "
		      "a score") != NULL,
	    "%s", err.msg);
	catalog_free(&cat);
}

/* A hostile header of kind k: 0 a key/value count the file cannot hold
 * (F006), 1 a token of 2 GiB (F007 on tokenizer.ggml.tokens), 2 a name
 * of 2 GiB (F007 elsewhere), 3 a value type of 99 (F009). */
static void
hostile(struct ggufw *w, int k)
{
	static const char pad[64];

	ggufw_init(w, false);
	ggufw_header(w, "GGUF", 3, 0, k == 0 ? (uint64_t)1 << 40 : 1);
	if (k == 1) {
		ggufw_kv_head(w, "tokenizer.ggml.tokens", 9);
		ggufw_u32(w, 8);
		ggufw_u64(w, 1);
	} else if (k == 2) {
		ggufw_kv_head(w, "general.name", 8);
	} else if (k == 3) {
		ggufw_kv_head(w, "general.name", 99);
	}
	if (k == 1 || k == 2)
		ggufw_strlen(w, (uint64_t)1 << 31, pad, sizeof pad);
	else
		ggufw_bytes(w, pad, sizeof pad);
}

/* How many rows judged against builds a build predates. */
static size_t
judged_above(uint32_t build)
{
	const struct adv_db *d = db();
	size_t i, n = 0;

	for (i = 0; i < d->n; i++)
		n += d->rows[i].component != ADV_OLLAMA &&
		    d->rows[i].fixed_build > build;
	return n;
}

/* Each row's pattern, from the header: under b2000 the advisories whose
 * rules the file's findings match are errors, the others warnings. */
Test(advisory, each_pattern_escalates_its_advisories)
{
	static const struct {
		const char *code, *errors;
	} cases[] = {
		{ "F006", " CVE-2024-32878 CVE-2026-27940" },
		{ "F007", " CVE-2025-49847 CVE-2026-27940" },
		{ "F007", " CVE-2026-27940" },
		{ "F009", " CVE-2024-32878" },
	};
	struct gl_error err;
	struct profile p;
	int k;

	cr_assert(profile_load(PROFILE_DEFAULT, &p, &err) == 0, "%s", err.msg);
	p.runtime_version = xstrdup("b2000");
	cr_assert(runtime_version_parse("b2000", &p.runtime_build) == 0);
	for (k = 0; k < 4; k++) {
		char errors[512] = "";
		struct test_lint t;
		struct ggufw w;
		size_t i, n = 0;

		hostile(&w, k);
		test_lint_bytes_profile(&t, w.out.buf, w.out.len, &p);
		cr_assert(test_find(&t, cases[k].code) != NULL, "%d: %s", k,
		    test_codes(&t));
		for (i = 0; i < t.res.diags.n; i++) {
			const struct diag *g = &t.res.diags.v[i];

			if (strcmp(g->rule->code, "S006") != 0 ||
			    g->severity != SEV_ERROR)
				continue;
			n += (size_t)snprintf(errors + n, sizeof errors - n,
			    " %s", g->items[0]);
		}
		cr_expect_str_eq(errors, cases[k].errors, "%d", k);
		cr_expect_eq(test_count(&t, "S006"), judged_above(2000),
		    "%d: %s", k, test_codes(&t));
		test_lint_free(&t);
		ggufw_free(&w);
	}
	profile_free(&p);
}
