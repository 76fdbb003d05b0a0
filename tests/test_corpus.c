/*
 * test_corpus.c - the differential test: for every .gguf under
 * ../shared/corpus, --dump's canonical JSON must agree, field by field, with
 * the right peer parser's output (FILE.peer.json where the peers agree,
 * else FILE.peer-py.json: the corpus README says gguf-py is right wherever
 * they differ). Also: no corpus file gets an error-severity finding, and
 * the M, N and S families warn only where the corpus means them to.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "data/builtin.h"
#include "jsontree.h"
#include "report/report.h"
#include "shared_path.h"
#include "testutil.h"

static char *
peer_path(const char *gguf)
{
	struct stat st;
	char *p = xasprintf("%s.peer.json", gguf);

	if (stat(p, &st) == 0)
		return p;
	free(p);
	p = xasprintf("%s.peer-py.json", gguf);
	cr_assert(stat(p, &st) == 0, "no peer output for %s", gguf);
	return p;
}

/* The canonical dump of path, made in process. */
static void
dump_of(const char *path, struct strbuf *out, struct test_lint *t)
{
	struct lint_options lo = { 0 };
	struct report_ctx rc;
	struct gl_error err;

	memset(t, 0, sizeof *t);
	cr_assert(catalog_load_builtin(&t->cat, &err) == 0, "%s", err.msg);
	lo.cat = &t->cat;
	cr_assert(lint_file(path, &lo, &t->res, &err) == 0, "%s", err.msg);
	report_ctx_init(&rc, &t->cat, NULL);
	dump_json(&rc, out, &t->res.file);
	report_ctx_free(&rc);
}

Test(corpus, dump_agrees_with_peer)
{
	struct corpus c;
	size_t i, bad = 0;

	corpus_list(&c);
	for (i = 0; i < c.n; i++) {
		struct strbuf got = STRBUF_INIT, report = STRBUF_INIT;
		struct jsonnode *exp_tree, *got_tree;
		struct test_lint t;
		char *ppath = peer_path(c.files[i]), *text, *perr = NULL;
		size_t len;
		struct gl_error err;
		int ndiff;

		cr_assert(read_whole_file(ppath, 1u << 24, &text, &len, &err)
		    == 0, "%s", err.msg);
		exp_tree = jsontree_parse(text, len, &perr);
		cr_assert(exp_tree != NULL, "%s: %s", ppath, perr);
		dump_of(c.files[i], &got, &t);
		got_tree = jsontree_parse(got.buf, got.len, &perr);
		cr_assert(got_tree != NULL, "our dump of %s is not JSON: %s",
		    c.files[i], perr);
		ndiff = jsontree_diff(exp_tree, got_tree, &report, 10);
		if (ndiff != 0) {
			cr_log_error("%s: %d differences from %s:\n%s",
			    c.files[i], ndiff, ppath, strbuf_cstr(&report));
			bad++;
		}
		jsontree_free(exp_tree);
		jsontree_free(got_tree);
		test_lint_free(&t);
		strbuf_free(&got);
		strbuf_free(&report);
		free(text);
		free(ppath);
	}
	cr_assert(bad == 0, "%zu of %zu corpus files disagree with their peer",
	    bad, c.n);
	cr_log_info("%zu corpus files agree with their peer outputs", c.n);
	corpus_free(&c);
}

/* The differential test must be able to fail: a changed value is found. */
Test(corpus, diff_detects_a_changed_field)
{
	struct corpus c;
	struct strbuf got = STRBUF_INIT;
	struct jsonnode *a, *b;
	struct test_lint t;
	char *perr = NULL, *p;

	corpus_list(&c);
	dump_of(c.files[0], &got, &t);
	a = jsontree_parse(got.buf, got.len, &perr);
	cr_assert(a != NULL);
	p = strstr(got.buf, "\"data_offset\": ");
	cr_assert(p != NULL);
	p += strlen("\"data_offset\": ");
	*p = *p == '9' ? '1' : (char)(*p + 1);
	b = jsontree_parse(got.buf, got.len, &perr);
	cr_assert(b != NULL);
	cr_assert_eq(jsontree_diff(a, b, NULL, 10), 1);
	jsontree_free(a);
	jsontree_free(b);
	test_lint_free(&t);
	strbuf_free(&got);
	corpus_free(&c);
}

/*
 * The families of architecture knowledge (M, N, S) may say "info" about a
 * real file, but no error or warning, except where the file holds such a
 * finding: kv-edge-values.gguf holds, on purpose, a string with control
 * characters and one of invalid UTF-8 (errors: the spec says UTF-8, and a
 * terminal prints the control characters), llama-tiny-unmapped.gguf a
 * tensor llama.cpp does not know, and llama-gqa.gguf (generated with
 * gguf-py; llama.cpp loads it) quantizes tensors without the
 * general.quantization_version the spec requires (an error).
 */
static const struct {
	const char *file;
	const char *codes;	/* the M, N and S findings above info */
} corpus_expected[] = {
	{ "gguf-py-generated/kv-edge-values.gguf", "S002 S004" },
	{ "gguf-py-generated/llama-tiny-unmapped.gguf", "N001" },
	{ "llama.cpp-oracle/llama-gqa.gguf", "M015" },
};

static const char *
expected_codes(const char *path)
{
	size_t i;

	for (i = 0; i < sizeof corpus_expected / sizeof corpus_expected[0];
	    i++)
		if (str_has_suffix(path, corpus_expected[i].file))
			return corpus_expected[i].codes;
	return "";
}

/* The M, N and S diagnostics above info, as "CODE CODE". */
static void
mns_findings(const struct test_lint *t, struct strbuf *sb)
{
	size_t i;

	for (i = 0; i < t->res.diags.n; i++) {
		const struct diag *d = &t->res.diags.v[i];

		if (d->severity == SEV_INFO || !strchr("MNS", d->rule->family))
			continue;
		strbuf_addf(sb, "%s%s", sb->len ? " " : "", d->rule->code);
	}
}

/* Errors whose codes are not in expected ("CODE CODE"). */
static size_t
unexpected_errors(const struct test_lint *t, const char *expected)
{
	size_t i, n = 0;

	for (i = 0; i < t->res.diags.n; i++) {
		const struct diag *d = &t->res.diags.v[i];

		n += d->severity == SEV_ERROR &&
		    strstr(expected, d->rule->code) == NULL;
	}
	return n;
}

/* Diagnostics of the other families (F, P, ...). */
static size_t
other_findings(const struct test_lint *t)
{
	size_t i, n = 0;

	for (i = 0; i < t->res.diags.n; i++)
		n += strchr("MNS", t->res.diags.v[i].rule->family) == NULL;
	return n;
}

/* Real files from other tools: no structural errors (a BE file warns),
 * and no error but those listed above. */
Test(corpus, no_errors_on_real_files)
{
	struct corpus c;
	size_t i;

	corpus_list(&c);
	for (i = 0; i < c.n; i++) {
		struct strbuf got = STRBUF_INIT;
		struct test_lint t;
		struct lint_options lo = { 0 };
		struct gl_error err;

		memset(&t, 0, sizeof t);
		cr_assert(catalog_load_builtin(&t.cat, &err) == 0);
		lo.cat = &t.cat;
		cr_assert(lint_file(c.files[i], &lo, &t.res, &err) == 0);
		cr_expect(unexpected_errors(&t, expected_codes(c.files[i])) ==
		    0, "%s: %s", c.files[i], test_codes(&t));
		cr_expect(t.res.file.header_complete, "%s", c.files[i]);
		if (str_has_suffix(c.files[i], "-be.gguf"))
			cr_expect(test_count(&t, "F005") == 1);
		else
			cr_expect(other_findings(&t) == 0, "%s: %s",
			    c.files[i], test_codes(&t));
		mns_findings(&t, &got);
		cr_expect_str_eq(strbuf_cstr(&got), expected_codes(c.files[i]),
		    "%s: M/N/S findings above info", c.files[i]);
		strbuf_free(&got);
		test_lint_free(&t);
	}
	corpus_free(&c);
}

/* The unmapped tensor is named; each file gets at most one N005/N006. */
Test(corpus, unmapped_tensor_is_listed)
{
	struct corpus c;
	size_t i;

	corpus_list(&c);
	for (i = 0; i < c.n; i++) {
		struct test_lint t;
		struct lint_options lo = { 0 };
		struct gl_error err;

		memset(&t, 0, sizeof t);
		cr_assert(catalog_load_builtin(&t.cat, &err) == 0);
		lo.cat = &t.cat;
		cr_assert(lint_file(c.files[i], &lo, &t.res, &err) == 0);
		cr_expect(test_count(&t, "N005") + test_count(&t, "N006") <= 1,
		    "%s: %s", c.files[i], test_codes(&t));
		if (str_has_suffix(c.files[i], "llama-tiny-unmapped.gguf"))
			cr_expect(strstr(test_find(&t, "N001")->note,
			    "model.layers.0.self_attn.rotary_emb.inv_freq") !=
			    NULL);
		test_lint_free(&t);
	}
	corpus_free(&c);
}
