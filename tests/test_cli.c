/*
 * test_cli.c - the program end to end: exit statuses, the text and JSON
 * output contracts, --select/--ignore, --list-rules, --explain, --dump,
 * escaping of hostile strings, write errors, --exit-zero, --output and
 * --list-profiles (each profile's runtime and backend), the text summary.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <regex.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <string.h>
#include <unistd.h>

#include "base/suggest.h"
#include "cli/options.h"
#include "data/builtin.h"
#include "ggufw.h"
#include "golden.h"
#include "jsontree.h"
#include "report/report.h"
#include "target/profile.h"
#include "testutil.h"

static char *
example(void)
{
	return xasprintf("%s/examples/stories260K.gguf", test_srcdir());
}

/* A small file with a duplicate tensor name (F017) and a bad bool (F028),
 * both errors, whose tensor names carry an escape sequence and a newline
 * (S002, an error too); the plan is incomplete (P005, a warning). */
static char *
broken_file(void)
{
	static const int64_t ne[] = { 32 };
	struct ggufw_model m;
	struct strbuf sb = STRBUF_INIT;
	struct ggufw *w;
	char *path;

	ggufw_model_init(&m, false, 32);
	ggufw_model_kv_str(&m, "general.architecture", "llama");
	w = ggufw_model_kv_raw(&m);
	ggufw_kv_bool(w, "odd.bool", 7);
	ggufw_model_tensor(&m, "evil\x1b[31m\n.weight", 1, ne, 0, 1, 4);
	ggufw_model_tensor(&m, "evil\x1b[31m\n.weight", 1, ne, 0, 1, 4);
	ggufw_model_finish(&m, &sb, GGUFW_DATA_ZERO);
	path = test_tmpfile(sb.buf, sb.len);
	strbuf_free(&sb);
	ggufw_model_free(&m);
	return path;
}

static void
run(struct test_run *r, const char *a0, const char *a1, const char *a2,
    const char *a3)
{
	const char *argv[] = { a0, a1, a2, a3, NULL };

	test_run_bin(r, argv, NULL, 0);
}

/* How many times needle occurs in hay. */
static size_t
count(const char *hay, const char *needle)
{
	size_t n = 0;

	while ((hay = strstr(hay, needle)) != NULL) {
		n++;
		hay += strlen(needle);
	}
	return n;
}

/* Command-line mistakes are errors of kind GL_ERR_USAGE. */
Test(cli, usage_errors_are_of_kind_usage)
{
	char *color[] = { "gguflint", "--color", "purple", "m.gguf", NULL };
	char *none[] = { "gguflint", "-q", NULL };
	struct diag_filter f = { 0 };
	struct options o;
	struct catalog cat;
	struct gl_error err;

	cr_assert(options_parse(&o, 4, color, &err) < 0);
	cr_expect_eq(err.kind, GL_ERR_USAGE);
	cr_expect_str_eq(err.msg, "--color: expected auto, always or never, "
	    "not 'purple'");
	options_free(&o);
	cr_assert(options_parse(&o, 2, none, &err) < 0);
	cr_expect_eq(err.kind, GL_ERR_USAGE);
	cr_expect_str_eq(err.msg, "no input file");
	options_free(&o);
	cr_assert(catalog_load_builtin(&cat, &err) == 0, "%s", err.msg);
	cr_assert(diag_filter_add(&f, &cat, "F010,Q999", 0, &err) < 0);
	cr_expect_eq(err.kind, GL_ERR_USAGE);
	cr_expect_str_eq(err.msg, "--select: unknown rule, slug or family "
	    "'Q999' (see --list-rules)");
	diag_filter_free(&f);
	catalog_free(&cat);
}

Test(cli, clean_example_exits_0_silently)
{
	struct test_run r;
	char *ex = example();

	run(&r, ex, NULL, NULL, NULL);
	cr_assert_eq(r.status, 0, "stderr: %s", r.err);
	cr_assert_str_empty(r.out);
	test_run_free(&r);
	free(ex);
}

Test(cli, text_lines_follow_the_contract)
{
	struct test_run r;
	char *path = broken_file();
	regex_t re;
	char *line, *save = NULL;
	int n = 0;

	run(&r, "--select", "F", path, NULL);
	cr_assert_eq(r.status, 1, "stderr: %s", r.err);
	cr_assert(regcomp(&re, "^[^ ]+:0x[0-9a-f]+: (error|warning|info): "
	    "[A-Z][0-9]{3} [a-z0-9-]+: .* \\[(tensor|key): .+\\]$",
	    REG_EXTENDED | REG_NOSUB) == 0);
	for (line = strtok_r(r.out, "\n", &save); line != NULL;
	    line = strtok_r(NULL, "\n", &save), n++)
		cr_assert(regexec(&re, line, 0, NULL, 0) == 0,
		    "line does not follow the format: %s", line);
	cr_assert_eq(n, 2, "expected F017 and F028");
	regfree(&re);
	test_run_free(&r);
	unlink(path);
	free(path);
}

Test(cli, strings_from_the_file_are_escaped)
{
	struct test_run r;
	char *path = broken_file();
	size_t i;

	run(&r, path, NULL, NULL, NULL);
	for (i = 0; i < r.out_len; i++)
		cr_assert(r.out[i] == '\n' || (unsigned char)r.out[i] >= 0x20,
		    "raw control byte 0x%02x in the output", r.out[i]);
	cr_assert(strstr(r.out, "evil\\u{001B}[31m\\n.weight") != NULL,
	    "%s", r.out);
	test_run_free(&r);
	unlink(path);
	free(path);
}

Test(cli, json_output_has_the_documented_fields)
{
	struct test_run r;
	char *path = broken_file(), *err = NULL;
	struct jsonnode *root;
	const struct jsonnode *d;

	run(&r, "--format=json", "--select=F", path, NULL);
	cr_assert_eq(r.status, 1);
	root = jsontree_parse(r.out, r.out_len, &err);
	cr_assert(root != NULL, "not JSON (%s): %s", err, r.out);
	cr_assert_str_eq(jsontree_pointer(root, "/version")->text, "1");
	cr_assert_str_eq(jsontree_str(jsontree_pointer(root, "/files/0/path")),
	    path);
	cr_assert_eq(jsontree_pointer(root, "/files/0/diagnostics")->n, 2);
	d = jsontree_pointer(root, "/files/0/diagnostics/0");
	cr_assert_str_eq(jsontree_str(jsontree_get(d, "code")), "F028");
	cr_assert_str_eq(jsontree_str(jsontree_get(d, "slug")), "invalid-bool");
	cr_assert_str_eq(jsontree_str(jsontree_get(d, "severity")), "error");
	cr_assert_str_eq(jsontree_str(jsontree_get(d, "subject")), "odd.bool");
	cr_assert_str_eq(jsontree_str(jsontree_get(d, "subject_kind")), "key");
	cr_assert(jsontree_get(d, "message") != NULL);
	/* no note or fix of its own: both null, present */
	cr_assert(jsontree_get(d, "note") != NULL &&
	    jsontree_get(d, "note")->type == JSONTREE_NULL);
	cr_assert(jsontree_get(d, "fix") != NULL &&
	    jsontree_get(d, "fix")->type == JSONTREE_NULL);
	cr_assert(jsontree_get(d, "offset")->type == JSONTREE_NUMBER);
	d = jsontree_pointer(root, "/files/0/diagnostics/1");
	cr_assert_str_eq(jsontree_str(jsontree_get(d, "code")), "F017");
	cr_assert_str_eq(jsontree_str(jsontree_get(d, "subject")),
	    "evil\x1b[31m\n.weight");
	cr_assert(jsontree_pointer(root, "/files/0/plan") != NULL);
	cr_assert(jsontree_pointer(root, "/files/0/forms") != NULL);
	jsontree_free(root);
	test_run_free(&r);
	unlink(path);
	free(path);
}

/* Several files make one JSON object, with the files in the order given
 * and an unreadable one left out (it is an error on stderr). */
Test(cli, json_of_several_files_is_one_object)
{
	char *ex = example(), *path = broken_file(), *err = NULL;
	const char *argv[] = { "--format=json", "--select=F", path,
	    "/nonexistent/x.gguf", ex, path, NULL };
	struct test_run r;
	struct jsonnode *root;
	const struct jsonnode *files;

	test_run_bin(&r, argv, NULL, 0);
	cr_assert_eq(r.status, 2, "status %d: %s", r.status, r.err);
	root = jsontree_parse(r.out, r.out_len, &err);
	cr_assert(root != NULL, "not JSON (%s): %s", err, r.out);
	files = jsontree_get(root, "files");
	cr_assert(files != NULL && files->type == JSONTREE_ARRAY);
	cr_assert_eq(files->n, 3);
	cr_assert_str_eq(jsontree_str(jsontree_pointer(root, "/files/0/path")),
	    path);
	cr_assert_str_eq(jsontree_str(jsontree_pointer(root, "/files/1/path")),
	    ex);
	cr_assert_str_eq(jsontree_str(jsontree_pointer(root, "/files/2/path")),
	    path);
	cr_assert_eq(jsontree_pointer(root, "/files/0/diagnostics")->n, 2);
	cr_assert_eq(jsontree_pointer(root, "/files/1/diagnostics")->n, 0);
	cr_assert_eq(jsontree_pointer(root, "/files/2/diagnostics")->n, 2);
	jsontree_free(root);
	test_run_free(&r);
	unlink(path);
	free(path);
	free(ex);
}

/*
 * The reporters keep ctx->first themselves: a caller that only calls the
 * entry points (the session, fuzz-lint, any new one) gets JSON's files
 * separated by commas, and every file and dump entry point clears it.
 */
Test(cli, reporters_keep_the_first_file_flag)
{
	struct lint_options lo = { 0 };
	struct strbuf out = STRBUF_INIT;
	const struct reporter *r = reporter_find("json");
	char *ex = example(), *jerr = NULL;
	struct lint_result res;
	struct report_ctx rc;
	struct gl_error err;
	struct jsonnode *root;
	struct catalog cat;

	cr_assert(catalog_load_builtin(&cat, &err) == 0, "%s", err.msg);
	lo.cat = &cat;
	cr_assert(lint_file(ex, &lo, &res, &err) == 0, "%s", err.msg);
	report_ctx_init(&rc, &cat, NULL);
	r->begin(&rc, &out);
	r->file(&rc, &out, &res);
	r->file(&rc, &out, &res);
	r->end(&rc, &out);
	report_ctx_free(&rc);
	root = jsontree_parse(out.buf, out.len, &jerr);
	cr_assert(root != NULL, "not JSON (%s): %s", jerr, strbuf_cstr(&out));
	cr_expect_eq(jsontree_get(root, "files")->n, 2);
	jsontree_free(root);
	for (r = reporters; r->name != NULL; r++) {
		report_ctx_init(&rc, &cat, NULL);
		if (r->file != NULL) {
			r->begin(&rc, &out);
			r->file(&rc, &out, &res);
			cr_expect(!rc.first, "%s: file left first", r->name);
			r->end(&rc, &out);
		}
		report_ctx_free(&rc);
		report_ctx_init(&rc, &cat, NULL);
		if (r->dump != NULL) {
			r->dump(&rc, &out, &res.file);
			cr_expect(!rc.first, "%s: dump left first", r->name);
		}
		report_ctx_free(&rc);
	}
	strbuf_free(&out);
	lint_result_free(&res);
	catalog_free(&cat);
	lint_cleanup();
	free(ex);
}

Test(cli, select_and_ignore_change_findings_and_status)
{
	struct test_run r;
	char *path = broken_file();

	run(&r, "--ignore", "F017,F028,S002,M001", path, NULL);
	cr_assert_eq(r.status, 0, "only a warning is left: %s", r.out);
	cr_assert(strstr(r.out, "warning: P005") != NULL, "%s", r.out);
	cr_assert(!strstr(r.out, "F017") && !strstr(r.out, "F028"));
	test_run_free(&r);
	run(&r, "--ignore", "F017", path, NULL);
	cr_assert_eq(r.status, 1, "F028 is an error: %s", r.out);
	cr_assert(strstr(r.out, "F028") != NULL && !strstr(r.out, "F017"));
	test_run_free(&r);
	run(&r, "--select", "duplicate-tensor-name", path, NULL);
	cr_assert_eq(r.status, 1);
	cr_assert(strstr(r.out, "F017") != NULL && !strstr(r.out, "F028"));
	test_run_free(&r);
	run(&r, "--select", "F", "--ignore=F017,F028", path);
	cr_assert_eq(r.status, 0);
	cr_assert_str_empty(r.out);
	test_run_free(&r);
	run(&r, "--select", "Z999", path, NULL);
	cr_assert_eq(r.status, 2);
	cr_assert(strstr(r.err, "Z999") != NULL);
	test_run_free(&r);
	unlink(path);
	free(path);
}

Test(cli, list_rules_text_and_json)
{
	struct test_run r;
	struct jsonnode *root;
	char *err = NULL;
	size_t i;

	run(&r, "--list-rules", NULL, NULL, NULL);
	cr_assert_eq(r.status, 0);
	cr_assert(strstr(r.out, "F010  tensor-data-out-of-bounds") != NULL);
	test_run_free(&r);
	run(&r, "--list-rules", "--format", "json", NULL);
	cr_assert_eq(r.status, 0);
	root = jsontree_parse(r.out, r.out_len, &err);
	cr_assert(root != NULL && root->type == JSONTREE_ARRAY, "%s", err);
	cr_assert(root->n >= 31);
	for (i = 0; i < root->n; i++) {
		const struct jsonnode *e = jsontree_at(root, i);

		cr_assert(jsontree_get(e, "code") && jsontree_get(e, "slug") &&
		    jsontree_get(e, "family") && jsontree_get(e, "severity") &&
		    jsontree_get(e, "summary"));
	}
	jsontree_free(root);
	test_run_free(&r);
}

Test(cli, explain_by_code_or_slug)
{
	struct test_run r;

	run(&r, "--explain", "F010", NULL, NULL);
	cr_assert_eq(r.status, 0);
	cr_assert(strstr(r.out,
	    "F010 tensor-data-out-of-bounds (error") != NULL);
	cr_assert(strstr(r.out, "How to fix it:") != NULL);
	cr_assert(strstr(r.out, "\nWhy it is an error:\n  llama.cpp refuses "
	    "the file") != NULL, "the basis of the severity: %s", r.out);
	test_run_free(&r);
	run(&r, "--explain", "F005", "--format", "json");
	cr_assert_eq(r.status, 0);
	cr_assert(strstr(r.out, "\"basis\": \"The file is valid GGUF") !=
	    NULL, "%s", r.out);
	test_run_free(&r);
	run(&r, "--explain", "P009", NULL, NULL);
	cr_assert(strstr(r.out, "\nWhy it is information only:\n") != NULL,
	    "%s", r.out);
	test_run_free(&r);
	run(&r, "--explain", "git-lfs-pointer", NULL, NULL);
	cr_assert_eq(r.status, 0);
	cr_assert(strstr(r.out, "F004") != NULL);
	test_run_free(&r);
	run(&r, "--explain", "nope", NULL, NULL);
	cr_assert_eq(r.status, 2);
	test_run_free(&r);
}

Test(cli, usage_and_operational_errors_exit_2)
{
	struct test_run r;
	char *ex = example();

	run(&r, NULL, NULL, NULL, NULL);
	cr_assert_eq(r.status, 2);
	cr_assert(strstr(r.err, "no input file") != NULL);
	test_run_free(&r);
	run(&r, "--bogus", ex, NULL, NULL);
	cr_assert_eq(r.status, 2);
	test_run_free(&r);
	run(&r, "--format", "yaml", ex, NULL);
	cr_assert_eq(r.status, 2);
	test_run_free(&r);
	run(&r, "/nonexistent/model.gguf", NULL, NULL, NULL);
	cr_assert_eq(r.status, 2);
	cr_assert(strstr(r.err, "/nonexistent/model.gguf") != NULL);
	test_run_free(&r);
	run(&r, "/dev/null", NULL, NULL, NULL);
	cr_assert_eq(r.status, 2, "not a regular file");
	test_run_free(&r);
	/* a missing file among good ones: the others are still linted */
	run(&r, ex, "/nonexistent/x.gguf", NULL, NULL);
	cr_assert_eq(r.status, 2);
	test_run_free(&r);
	free(ex);
}

Test(cli, write_error_is_an_error)
{
	static const char *const modes[] = { "--list-rules", "--help",
		"--version" };
	struct test_run r;
	size_t i;

	if (access("/dev/full", W_OK) != 0)
		cr_skip_test("no /dev/full");
	for (i = 0; i < sizeof modes / sizeof modes[0]; i++) {
		const char *argv[] = { modes[i], NULL };

		test_run_bin(&r, argv, "/dev/full", 0);
		cr_expect_eq(r.status, 2, "%s: status %d", modes[i], r.status);
		cr_expect(strstr(r.err, "gguflint: error writing output: ") !=
		    NULL, "%s: stderr \"%s\"", modes[i], r.err);
		test_run_free(&r);
	}
}

Test(cli, dump_text_and_json)
{
	struct test_run r;
	struct jsonnode *root;
	char *ex = example(), *err = NULL;

	run(&r, "--dump", ex, NULL, NULL);
	cr_assert_eq(r.status, 0);
	cr_assert(strstr(r.out, "GGUF v3, little-endian, 48 tensors") != NULL,
	    "%s", r.out);
	cr_assert(strstr(r.out, "general.architecture STRING = \"llama\"") !=
	    NULL);
	cr_assert(strstr(r.out, "tok_embeddings.weight f32 [64, 512]") != NULL
	    || strstr(r.out, "token_embd.weight f32 [64, 512]") != NULL,
	    "%s", r.out);
	test_run_free(&r);
	run(&r, "--dump", "--format=json", ex, NULL);
	cr_assert_eq(r.status, 0);
	root = jsontree_parse(r.out, r.out_len, &err);
	cr_assert(root != NULL, "%s", err);
	cr_assert_str_eq(jsontree_pointer(root, "/tensor_count")->text, "48");
	cr_assert_str_eq(jsontree_pointer(root, "/data_offset")->text, "14176");
	jsontree_free(root);
	test_run_free(&r);
	free(ex);
}

Test(cli, version_and_help)
{
	struct test_run r;

	run(&r, "--version", NULL, NULL, NULL);
	cr_assert_eq(r.status, 0);
	cr_assert(strncmp(r.out, "gguflint ", 9) == 0);
	test_run_free(&r);
	run(&r, "--help", NULL, NULL, NULL);
	cr_assert_eq(r.status, 0);
	cr_assert(strstr(r.out, "--explain") != NULL);
	test_run_free(&r);
}

/* Every example of gguflint(1) runs, from the source directory. */
Test(cli, man_page_examples_run)
{
	char *path = xasprintf("%s/man/gguflint.1", test_srcdir()), *man;
	char *line, *save = NULL;
	struct gl_error err;
	size_t len, n = 0;

	cr_assert(read_whole_file(path, 1u << 20, &man, &len, &err) == 0, "%s",
	    err.msg);
	cr_assert(chdir(test_srcdir()) == 0);
	for (line = strtok_r(man, "\n", &save); line != NULL;
	    line = strtok_r(NULL, "\n", &save)) {
		const char *argv[16];
		char *tok, *s2 = NULL;
		struct test_run r;
		size_t argc = 0;

		if (strncmp(line, ".Dl $ gguflint", 14) != 0)
			continue;
		for (tok = strtok_r(line + 14, " ", &s2); tok != NULL &&
		    argc < 15; tok = strtok_r(NULL, " ", &s2))
			argv[argc++] = tok;
		argv[argc] = NULL;
		test_run_bin(&r, argv, NULL, 0);
		cr_expect(r.status == 0 || r.status == 1, "example %zu exits "
		    "%d: %s", n, r.status, r.err);
		cr_expect(strstr(r.err, "gguflint:") == NULL, "example %zu: "
		    "%s", n, r.err);
		test_run_free(&r);
		n++;
	}
	cr_assert_geq(n, 10, "examples found: %zu", n);
	free(man);
	free(path);
}

/* N001 names the first few unmapped tensors; JSON lists every one. */
Test(cli, json_lists_every_unmapped_tensor)
{
	static const int64_t ne[] = { 32 };
	struct ggufw_model m;
	struct strbuf sb = STRBUF_INIT;
	const struct jsonnode *d = NULL, *items;
	struct jsonnode *root;
	struct test_run r;
	char *path, *err = NULL, name[32];
	const char *argv[] = { "--no-config", "--format=json",
	    "--select=N001", NULL, NULL };
	size_t i;

	ggufw_model_init(&m, false, 32);
	ggufw_model_kv_str(&m, "general.architecture", "llama");
	ggufw_model_kv_u32(&m, "llama.block_count", 1);
	ggufw_model_kv_u32(&m, "llama.embedding_length", 32);
	ggufw_model_kv_u32(&m, "llama.context_length", 64);
	ggufw_model_kv_u32(&m, "llama.attention.head_count", 1);
	ggufw_model_tensor(&m, "blk.0.attn_norm.weight", 1, ne, 0, 1, 4);
	for (i = 0; i < 8; i++) {
		snprintf(name, sizeof name, "extra.%zu.weight", i);
		ggufw_model_tensor(&m, name, 1, ne, 0, 1, 4);
	}
	ggufw_model_finish(&m, &sb, GGUFW_DATA_ZERO);
	path = test_tmpfile(sb.buf, sb.len);
	argv[3] = path;
	test_run_bin(&r, argv, NULL, 0);
	root = jsontree_parse(r.out, r.out_len, &err);
	cr_assert(root != NULL, "%s", err);
	d = jsontree_pointer(root, "/files/0/diagnostics/0");
	cr_assert(d != NULL, "%s", r.out);
	cr_assert_str_eq(jsontree_str(jsontree_get(d, "code")), "N001");
	items = jsontree_get(d, "items");
	cr_assert(items != NULL && items->n == 8, "%s", r.out);
	cr_assert_str_eq(jsontree_str(jsontree_at(items, 7)), "extra.7.weight");
	cr_assert(strstr(jsontree_str(jsontree_get(d, "message")),
	    "extra.7.weight") == NULL, "the message is abridged");
	jsontree_free(root);
	test_run_free(&r);
	unlink(path);
	free(path);
	strbuf_free(&sb);
	ggufw_model_free(&m);
}

Test(cli, list_kernels_json_has_the_documented_fields)
{
	const char *argv[] = { "--list-kernels", "--format", "json", NULL };
	struct test_run r;
	struct jsonnode *root;
	char *err = NULL;
	size_t i, verified = 0;

	test_run_bin(&r, argv, NULL, 0);
	cr_assert_eq(r.status, 0, "%s", r.err);
	root = jsontree_parse(r.out, r.out_len, &err);
	cr_assert(root != NULL && root->type == JSONTREE_ARRAY, "%s", err);
	cr_assert_geq(root->n, 100);
	for (i = 0; i < root->n; i++) {
		const struct jsonnode *e = jsontree_at(root, i);
		static const char *const keys[] = { "table", "op", "encoding",
		    "order", "kernel", "verified", "max_error", "probe_us" };
		size_t k;

		for (k = 0; k < sizeof keys / sizeof keys[0]; k++)
			cr_assert(jsontree_get(e, keys[k]) != NULL, "%s",
			    keys[k]);
		verified += jsontree_get(e, "verified")->boolean;
	}
	cr_assert_eq(verified, root->n, "every shipped entry verifies");
	jsontree_free(root);
	test_run_free(&r);
	/* text: one header line per table */
	argv[1] = NULL;
	test_run_bin(&r, argv, NULL, 0);
	cr_assert(strstr(r.out, "mobile: ") != NULL, "%s", r.out);
	cr_assert(strstr(r.out, "q4_0.dot.scalar") != NULL);
	test_run_free(&r);
}

Test(cli, list_profiles_text_and_json)
{
	const char *json[] = { "--list-profiles", "--format=json", NULL };
	const char *text[] = { "--list-profiles", NULL };
	struct test_run r;
	struct jsonnode *root;
	const struct jsonnode *p = NULL;
	char *err = NULL;
	size_t i;

	test_run_bin(&r, json, NULL, 0);
	cr_assert_eq(r.status, 0);
	root = jsontree_parse(r.out, r.out_len, &err);
	cr_assert(root != NULL && root->n >= 12, "%s", err);
	for (i = 0; i < root->n; i++)
		if (strcmp(jsontree_str(jsontree_get(jsontree_at(root, i),
		    "name")), "mobile_2gb") == 0)
			p = jsontree_at(root, i);
	cr_assert(p != NULL);
	cr_assert_str_eq(jsontree_get(p, "memory_bytes")->text, "2147483648");
	cr_assert(jsontree_get(p, "strict")->boolean);
	jsontree_free(root);
	test_run_free(&r);
	test_run_bin(&r, text, NULL, 0);
	cr_assert(strstr(r.out, "mobile_2gb") != NULL);
	cr_assert(strstr(r.out, "strict") != NULL);
	test_run_free(&r);
}

/* The line of --list-profiles' text output that lists profile name. */
static char *
profile_line(const char *out, const char *name)
{
	size_t len = strlen(name);
	const char *l, *end;

	for (l = out; *l != '\0'; l = *end ? end + 1 : end) {
		end = strchr(l, '\n');
		if (end == NULL)
			end = l + strlen(l);
		if (strncmp(l, name, len) == 0 && l[len] == ' ')
			return xasprintf("%.*s", (int)(end - l), l);
	}
	return NULL;
}

/*
 * --list-profiles names each profile's runtime, and for llama.cpp its
 * backend, as the profile file says (the host profile's memory differs
 * from machine to machine; its runtime and backend do not).
 */
Test(cli, list_profiles_runtime_and_backend)
{
	const char *json[] = { "--list-profiles", "--format=json", NULL };
	const char *text[] = { "--list-profiles", NULL };
	struct jsonnode *root;
	struct test_run r, t;
	struct gl_error e;
	char *err = NULL;
	size_t i, skainet = 0;

	test_run_bin(&r, json, NULL, 0);
	test_run_bin(&t, text, NULL, 0);
	cr_assert_eq(r.status, 0);
	cr_assert_eq(t.status, 0);
	root = jsontree_parse(r.out, r.out_len, &err);
	cr_assert(root != NULL && root->n >= 12, "%s", err);
	for (i = 0; i < root->n; i++) {
		const struct jsonnode *j = jsontree_at(root, i);
		const char *name = jsontree_str(jsontree_get(j, "name"));
		const struct jsonnode *b = jsontree_get(j, "backend");
		struct profile p;
		char *line, *want;

		cr_assert(name != NULL);
		cr_assert(profile_load(name, &p, &e) == 0, "%s", e.msg);
		cr_expect_str_eq(jsontree_str(jsontree_get(j, "runtime")),
		    profile_runtime_name(p.runtime), "%s", name);
		line = profile_line(t.out, name);
		cr_assert(line != NULL, "%s not in: %s", name, t.out);
		if (p.runtime == RUNTIME_SKAINET) {
			skainet++;
			cr_expect(b != NULL && b->type == JSONTREE_NULL,
			    "%s: a SKaiNET profile has no backend", name);
			want = xstrdup(" skainet ");
		} else {
			cr_expect_str_eq(jsontree_str(b), p.backend, "%s",
			    name);
			want = xasprintf(" llama.cpp %s ", p.backend);
		}
		cr_expect(strstr(line, want) != NULL, "want '%s' in '%s'",
		    want, line);
		free(want);
		free(line);
		profile_free(&p);
	}
	cr_expect_eq(skainet, 4, "desktop, native, mobile_2gb, edge");
	jsontree_free(root);
	test_run_free(&r);
	/* two by name, as their files say */
	{
		char *g = profile_line(t.out, "gpu_8gb");
		char *d = profile_line(t.out, "desktop");
		char *m = profile_line(t.out, "mac_16gb");

		cr_assert(g && d && m);
		cr_expect(strstr(g, " llama.cpp cuda ") != NULL, "%s", g);
		cr_expect(strstr(m, " llama.cpp metal ") != NULL, "%s", m);
		cr_expect(strstr(d, " skainet ") != NULL &&
		    strstr(d, "llama.cpp") == NULL, "%s", d);
		free(g);
		free(d);
		free(m);
	}
	test_run_free(&t);
}

/*
 * A built-in profile that does not load (here a broken copy in the data
 * directory) is an operational error in every format, as a table is for
 * --list-kernels: its file:line:col on stderr, the others listed, exit
 * status 2.
 */
Test(cli, list_profiles_fails_on_a_broken_profile)
{
	static const char *const formats[] = { "text", "json" };
	char dir[] = "/tmp/gguflint-profiles-XXXXXX";
	char *sub, *file, *want;
	struct test_run r;
	size_t i;
	FILE *fp;

	cr_assert(mkdtemp(dir) != NULL);
	sub = xasprintf("%s/profiles", dir);
	file = xasprintf("%s/desktop.yaml", sub);
	cr_assert(mkdir(sub, 0700) == 0);
	cr_assert((fp = fopen(file, "w")) != NULL);
	fputs("name: desktop\nmemory: [1, 2\n", fp);
	cr_assert(fclose(fp) == 0);
	setenv("GGUFLINT_DATADIR", dir, 1);
	want = xasprintf("gguflint: %s:3:1: ", file);
	for (i = 0; i < sizeof formats / sizeof formats[0]; i++) {
		const char *argv[] = { "--list-profiles", "-f", formats[i],
			NULL };

		test_run_bin(&r, argv, NULL, 0);
		cr_expect_eq(r.status, 2, "%s: status %d", formats[i],
		    r.status);
		cr_expect(strstr(r.err, want) != NULL, "%s: stderr %s",
		    formats[i], r.err);
		cr_expect(strstr(r.out, "mobile_2gb") != NULL &&
		    strstr(r.out, "invalid") == NULL, "%s: stdout %s",
		    formats[i], r.out);
		test_run_free(&r);
	}
	unsetenv("GGUFLINT_DATADIR");
	unlink(file);
	rmdir(sub);
	rmdir(dir);
	free(want);
	free(file);
	free(sub);
}

/* A directory is searched for *.gguf, in sorted order, hidden ones
 * skipped; none found is said on stderr. */
Test(cli, directories_are_searched)
{
	char dir[] = "/tmp/gguflint-dir-XXXXXX";
	char *ex = example(), *cmd;
	struct test_run r;

	cr_assert(mkdtemp(dir) != NULL);
	run(&r, "--no-config", dir, NULL, NULL);
	cr_assert_eq(r.status, 0);
	cr_assert(strstr(r.err, "no .gguf file under") != NULL, "%s", r.err);
	cr_assert(strstr(r.err, dir) != NULL, "names it: %s", r.err);
	test_run_free(&r);
	/* a model's suffix in any case */
	cmd = xasprintf("cp %s %s/UP.GGUF && cp %s %s/mixed.Gguf", ex, dir, ex,
	    dir);
	cr_assert(system(cmd) == 0);
	free(cmd);
	run(&r, "--no-config", "--format=json", dir, NULL);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert(strstr(r.out, "/UP.GGUF") != NULL, "%s", r.out);
	cr_assert(strstr(r.out, "/mixed.Gguf") != NULL, "%s", r.out);
	cr_assert(strstr(r.err, "no .gguf file") == NULL, "%s", r.err);
	test_run_free(&r);
	cmd = xasprintf("rm %s/UP.GGUF %s/mixed.Gguf", dir, dir);
	cr_assert(system(cmd) == 0);
	free(cmd);
	cmd = xasprintf("mkdir -p %s/b %s/a/deep %s/.git && cp %s %s/b/m.gguf "
	    "&& cp %s %s/a/deep/m.gguf && cp %s %s/.git/x.gguf && "
	    "echo junk > %s/a/notes.txt", dir, dir, dir, ex, dir, ex, dir, ex,
	    dir, dir);
	cr_assert(system(cmd) == 0);
	free(cmd);
	run(&r, "--no-config", "--format=json", dir, NULL);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert(strstr(r.out, "/a/deep/m.gguf") != NULL, "%s", r.out);
	cr_assert(strstr(r.out, "/a/deep/m.gguf") < strstr(r.out, "/b/m.gguf"),
	    "sorted");
	cr_assert(strstr(r.out, ".git") == NULL, "hidden directories skipped");
	cr_assert(strstr(r.out, "notes.txt") == NULL);
	test_run_free(&r);
	/* --dump too: several headers are an array in JSON, and each is
	 * named in text. */
	run(&r, "--no-config", "--format=json", "--dump", dir);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert(r.out[0] == '[', "%s", r.out);
	cr_assert(count(r.out, "\"tensor_count\"") == 2, "%s", r.out);
	test_run_free(&r);
	run(&r, "--no-config", "--dump", dir, NULL);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert(strstr(r.out, "/a/deep/m.gguf <==") != NULL, "%s", r.out);
	cr_assert(strstr(r.out, "/a/deep/m.gguf <==") <
	    strstr(r.out, "/b/m.gguf <=="), "sorted");
	test_run_free(&r);
	cmd = xasprintf("rm -rf %s", dir);
	cr_assert(system(cmd) == 0);
	free(cmd);
	free(ex);
}

/* The edit distance and the nearness rule of suggest.h. */
Test(cli, suggest_distance_and_nearness)
{
	char longer[SUGGEST_MAX_LEN + 2], hint[SUGGEST_HINT_SIZE];
	struct suggest sg;

	cr_expect_eq(suggest_distance("", "abc"), 3);
	cr_expect_eq(suggest_distance("kitten", "sitting"), 3);
	cr_expect_eq(suggest_distance("seelct", "select"), 1, "a swap");
	cr_expect_eq(suggest_distance("ca", "abc"), 3, "no edit twice");
	cr_expect_eq(suggest_distance("f010", "F010"), 0);
	cr_expect_eq(suggest_distance("plan", "plan"), 0);
	memset(longer, 'a', sizeof longer - 1);
	longer[sizeof longer - 1] = '\0';
	cr_expect_eq(suggest_distance(longer, "a"), (size_t)-1);
	longer[SUGGEST_MAX_LEN] = '\0';
	cr_expect_eq(suggest_distance(longer, ""), SUGGEST_MAX_LEN);

	suggest_init(&sg, "plna");
	suggest_offer(&sg, "deep");
	suggest_offer(&sg, "plan");
	suggest_offer(&sg, "plans");
	suggest_offer(&sg, NULL);
	cr_expect_str_eq(suggest_best(&sg), "plan");
	cr_expect_str_eq(suggest_hint(&sg, "--", hint),
	    "; did you mean '--plan'?");
	/* one edit per three characters at most: not kv for ctx */
	suggest_init(&sg, "kv");
	suggest_offer(&sg, "ctx");
	suggest_offer(&sg, "kv");	/* itself: not a suggestion */
	cr_expect_null(suggest_best(&sg));
	cr_expect_str_eq(suggest_hint(&sg, NULL, hint), "");
	/* the first of equals wins */
	suggest_init(&sg, "F01");
	suggest_offer(&sg, "F001");
	suggest_offer(&sg, "F010");
	cr_expect_str_eq(suggest_best(&sg), "F001");
	/* never more than 3 edits, however long */
	suggest_init(&sg, "abcdefghijklmnop");
	suggest_offer(&sg, "abcdefghijklXXXX");
	cr_expect_null(suggest_best(&sg));
	suggest_offer(&sg, "abcdefghijklmXXX");
	cr_expect_str_eq(suggest_best(&sg), "abcdefghijklmXXX");
}

/* "did you mean": a mistyped profile, rule code or slug, or long option
 * gets the nearest known name; a word near none gets no guess. */
Test(cli, did_you_mean)
{
	static const struct {
		const char *a0, *a1, *want;
	} cases[] = {
		{ "--profile=mobile_2g", NULL, "unknown profile 'mobile_2g' "
		    "(see --list-profiles, or give a path to a YAML file); "
		    "did you mean 'mobile_2gb'?\n" },
		{ "--profile=Desktop", NULL, "did you mean 'desktop'?\n" },
		{ "--select=F01O", NULL, "--select: unknown rule, slug or "
		    "family 'F01O' (see --list-rules); did you mean 'F010'?" },
		{ "--ignore", "tensor-data-out-of-bound", "did you mean "
		    "'tensor-data-out-of-bounds'?" },
		{ "--explain", "F10", "--explain: no rule 'F10' (see "
		    "--list-rules); did you mean 'F010'?\n" },
		{ "--seelct=F", NULL, "unknown option --seelct=F; did you mean "
		    "'--select'? (see --help)\n" },
		{ "--no-conifg", NULL, "did you mean '--no-config'?" },
		{ "--xyzzy", NULL, "gguflint: unknown option --xyzzy (see "
		    "--help)\n" },
		{ "--profile=zz", NULL, "unknown profile 'zz' (see "
		    "--list-profiles, or give a path to a YAML file)\n" },
		{ "--format=sarf", NULL, "format 'sarf' is unknown (text, "
		    "json, jsonl, sarif, github, gitlab, junit); did you mean "
		    "'sarif'?\n" },
	};
	char *ex = example();
	struct test_run r;
	size_t i;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		if (strcmp(cases[i].a0, "--explain") == 0)
			run(&r, "--no-config", cases[i].a0, cases[i].a1, NULL);
		else if (cases[i].a1 != NULL)
			run(&r, "--no-config", cases[i].a0, cases[i].a1, ex);
		else
			run(&r, "--no-config", cases[i].a0, ex, NULL);
		cr_assert_eq(r.status, 2, "%s: %s", cases[i].a0, r.err);
		cr_assert(strstr(r.err, cases[i].want) != NULL, "%s: want %s "
		    "in: %s", cases[i].a0, cases[i].want, r.err);
		test_run_free(&r);
	}
	free(ex);
}

/* shell's output (stdout and stderr) and exit status. */
static char *
shell(const char *cmd, int *status)
{
	FILE *p = popen(cmd, "r");
	char *buf = xcalloc(1, 65536);
	size_t n;

	cr_assert(p != NULL);
	n = fread(buf, 1, 65535, p);
	buf[n] = '\0';
	*status = pclose(p);
	cr_assert(WIFEXITED(*status));
	*status = WEXITSTATUS(*status);
	return buf;
}

/* "-" is standard input: a pipe and a redirected file are both read, and
 * a truncated stream is a finding like a truncated file. */
Test(cli, standard_input)
{
	char *ex = example(), *cmd, *out;
	const char *bin = getenv("GGUFLINT_BIN");
	int status;

	cr_assert(bin != NULL);
	cmd = xasprintf("cat %s | %s --no-config --format=json -", ex, bin);
	out = shell(cmd, &status);
	cr_assert_eq(status, 0, "%s", out);
	cr_assert(strstr(out, "\"path\": \"-\"") != NULL, "%s", out);
	cr_assert(strstr(out, "\"diagnostics\": []") != NULL, "%s", out);
	free(out);
	free(cmd);
	cmd = xasprintf("%s --no-config --dump --format=json - < %s", bin, ex);
	out = shell(cmd, &status);
	cr_assert_eq(status, 0, "%s", out);
	cr_assert(strstr(out, "\"tensor_count\": 48") != NULL, "%s", out);
	free(out);
	free(cmd);
	cmd = xasprintf("head -c 5000 %s | %s --no-config - 2>&1", ex, bin);
	out = shell(cmd, &status);
	cr_assert_eq(status, 1, "%s", out);
	cr_assert(strstr(out, "-:0x") == out, "%s", out);
	cr_assert(strstr(out, "F003") != NULL, "%s", out);
	free(out);
	free(cmd);
	free(ex);
}

/* ---- --exit-zero and --output ------------------------------------------ */

/* Findings exit 0 with --exit-zero (or exit-zero: true in the
 * configuration), reported as usual; what stops gguflint is still 2. */
Test(cli, exit_zero_keeps_the_report_and_status_2)
{
	char *path = broken_file(), *out;
	char *cfg = test_tmpfile("exit-zero: true\n", 16);
	char *bad = test_tmpfile("exit-zero: maybe\n", 17);
	const char *warn[] = { "--no-config", "--ignore=F017,F028,S002",
	    "--max-warnings=0", path, NULL, NULL };
	struct test_run r;

	run(&r, "--no-config", path, NULL, NULL);
	cr_assert_eq(r.status, 1, "%s", r.err);
	out = xstrdup(r.out);
	test_run_free(&r);
	run(&r, "--no-config", "--exit-zero", path, NULL);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert_str_eq(r.out, out, "the same report");
	test_run_free(&r);
	run(&r, "--config", cfg, path, NULL);
	cr_assert_eq(r.status, 0, "exit-zero: true: %s", r.err);
	test_run_free(&r);
	run(&r, "--config", bad, path, NULL);
	cr_assert_eq(r.status, 2);
	cr_assert(strstr(r.err, ":1:12: expected true or false") != NULL,
	    "%s", r.err);
	test_run_free(&r);
	test_run_bin(&r, warn, NULL, 0);
	cr_assert_eq(r.status, 1, "over --max-warnings: %s", r.err);
	test_run_free(&r);
	warn[4] = "--exit-zero";
	test_run_bin(&r, warn, NULL, 0);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert(strstr(r.err, "more than --max-warnings") != NULL);
	test_run_free(&r);
	run(&r, "--no-config", "--exit-zero", path, "/nonexistent/x.gguf");
	cr_assert_eq(r.status, 2, "a missing file is still 2");
	test_run_free(&r);
	unlink(path);
	unlink(cfg);
	unlink(bad);
	free(path);
	free(cfg);
	free(bad);
	free(out);
}

/* path's contents (it must exist); *len its length. */
static char *
slurp(const char *path, size_t *len)
{
	struct gl_error err;
	char *data;

	cr_assert(read_whole_file(path, 1u << 24, &data, len, &err) == 0,
	    "%s", err.msg);
	return data;
}

/* 1 when dir has an entry (. and .. aside), else 0. */
static int
entries(const char *dir)
{
	char *cmd = xasprintf("test $(ls -A %s | wc -l) -eq 0", dir);
	int n = system(cmd);

	free(cmd);
	return n == 0 ? 0 : 1;
}

static void
remove_tree(const char *dir)
{
	char *cmd = xasprintf("chmod -R u+w %s; rm -rf %s", dir, dir);

	cr_assert(system(cmd) == 0);
	free(cmd);
}

/* --output FILE holds exactly what stdout would have, in every format and
 * mode; stderr and the status are the same, stdout is empty, and nothing
 * else is left in FILE's folder. */
Test(cli, output_holds_what_stdout_would)
{
	static const char *const modes[][2] = {
		{ "--format=text", "--plan" }, { "--format=json", "--plan" },
		{ "--format=sarif", NULL }, { "--format=github", NULL },
		{ "--statistics", "--deep" }, { "--dump", NULL },
		{ "--dump", "--format=json" }, { "--list-rules", NULL },
		{ "--list-profiles", "--format=json" }, { "--explain", "F010" },
	};
	char dir[] = "/tmp/gguflint-out-XXXXXX";
	char *path = broken_file(), *file, *data;
	struct test_run a, b;
	size_t i, len;

	cr_assert(mkdtemp(dir) != NULL);
	file = xasprintf("%s/report", dir);
	for (i = 0; i < sizeof modes / sizeof modes[0]; i++) {
		bool model = strncmp(modes[i][0], "--list", 6) != 0 &&
		    strcmp(modes[i][0], "--explain") != 0;
		const char *argv[] = { "--no-config", modes[i][0],
		    modes[i][1], NULL, NULL, NULL, NULL };
		size_t k = modes[i][1] != NULL ? 3 : 2;

		if (model)
			argv[k++] = path;
		test_run_bin(&a, argv, NULL, 0);
		argv[k++] = "-o";
		argv[k] = file;
		test_run_bin(&b, argv, NULL, 0);
		cr_expect_eq(b.status, a.status, "%s", modes[i][0]);
		cr_expect_str_eq(b.err, a.err, "%s", modes[i][0]);
		cr_expect_str_empty(b.out, "%s", modes[i][0]);
		data = slurp(file, &len);
		cr_expect(len == a.out_len && memcmp(data, a.out, len) == 0,
		    "%s %s: the file differs from stdout:\n%s\n---\n%s",
		    modes[i][0], modes[i][1] ? modes[i][1] : "", data, a.out);
		cr_expect(len > 0);
		free(data);
		unlink(file);
		cr_expect_eq(entries(dir), 0, "no temporary file left");
		test_run_free(&a);
		test_run_free(&b);
	}
	remove_tree(dir);
	unlink(path);
	free(path);
	free(file);
}

/* Whether dir has an entry, waiting up to 10 s for one. */
static bool
wait_entry(const char *dir)
{
	int i;

	for (i = 0; i < 1000; i++) {
		if (entries(dir) != 0)
			return true;
		usleep(10000);
	}
	return false;
}

/* The file appears only when the report is complete: while gguflint
 * waits for the rest of its input, FILE does not exist yet. */
Test(cli, output_appears_only_when_complete)
{
	char dir[] = "/tmp/gguflint-out-XXXXXX";
	const char *bin = getenv("GGUFLINT_BIN");
	char *ex = example(), *file, *tmp, *model, *data;
	size_t len, half, n;
	int fds[2], st;
	pid_t pid;

	cr_assert(bin != NULL && mkdtemp(dir) != NULL && pipe(fds) == 0);
	file = xasprintf("%s/report.json", dir);
	model = slurp(ex, &len);
	pid = fork();
	cr_assert(pid >= 0);
	if (pid == 0) {
		dup2(fds[0], 0);
		close(fds[0]);
		close(fds[1]);
		execl(bin, bin, "--no-config", "--format=json", "-o", file,
		    "-", (char *)NULL);
		_exit(127);
	}
	close(fds[0]);
	tmp = xasprintf("%s.tmp-%ld", file, (long)pid);
	half = len / 2;
	for (n = 0; n < half; n += (size_t)write(fds[1], model + n, half - n))
		;
	cr_assert(wait_entry(dir), "gguflint created nothing");
	cr_assert(access(file, F_OK) != 0, "FILE exists before the end");
	cr_assert(access(tmp, F_OK) == 0, "expected %s", tmp);
	for (; n < len; n += (size_t)write(fds[1], model + n, len - n))
		;
	close(fds[1]);
	cr_assert(waitpid(pid, &st, 0) == pid && WIFEXITED(st));
	cr_assert_eq(WEXITSTATUS(st), 0);
	cr_assert(access(tmp, F_OK) != 0, "the temporary file is gone");
	data = slurp(file, &len);
	cr_assert(strstr(data, "\"path\": \"-\"") != NULL, "%s", data);
	remove_tree(dir);
	free(data);
	free(model);
	free(tmp);
	free(file);
	free(ex);
}

/* A file that cannot be created is an error naming it (exit 2), and
 * nothing is left behind; a run that fails before its report leaves an
 * existing FILE as it was. */
Test(cli, output_failures_name_the_file_and_leave_nothing)
{
	char dir[] = "/tmp/gguflint-out-XXXXXX";
	char *ex = example(), *file, *ro, *rofile, *data;
	struct test_run r;
	size_t len;

	cr_assert(mkdtemp(dir) != NULL);
	file = xasprintf("%s/no/such/dir/report.json", dir);
	run(&r, "-o", file, ex, NULL);
	cr_assert_eq(r.status, 2);
	cr_assert(strstr(r.err, file) != NULL, "%s", r.err);
	cr_assert_str_empty(r.out);
	cr_assert_eq(entries(dir), 0, "nothing created");
	test_run_free(&r);
	/* a read-only folder (for root, whom modes do not stop: /sys) */
	ro = xasprintf("%s/ro", dir);
	cr_assert(mkdir(ro, 0555) == 0);
	rofile = access(ro, W_OK) == 0 ? xstrdup("/sys/gguflint-report") :
	    xasprintf("%s/report", ro);
	run(&r, "--output", rofile, ex, NULL);
	cr_assert_eq(r.status, 2);
	cr_assert(strstr(r.err, rofile) != NULL, "%s", r.err);
	cr_assert(access(rofile, F_OK) != 0);
	cr_assert_eq(entries(ro), 0);
	test_run_free(&r);
	/* a failed write names FILE too */
	if (access("/dev/full", W_OK) == 0) {
		run(&r, "-o", "/dev/full", "--list-rules", NULL);
		cr_assert_eq(r.status, 2);
		cr_assert(strstr(r.err, "error writing /dev/full: ") != NULL,
		    "%s", r.err);
		test_run_free(&r);
	}
	free(file);
	file = xasprintf("%s/report", dir);
	data = xasprintf("echo old > %s", file);
	cr_assert(system(data) == 0);
	free(data);
	run(&r, "-o", file, "--config=/nonexistent/c.yaml", ex);
	cr_assert_eq(r.status, 2);
	data = slurp(file, &len);
	cr_assert_str_eq(data, "old\n", "FILE kept as it was");
	free(data);
	test_run_free(&r);
	run(&r, "-o", file, "--no-config", ex);
	cr_assert_eq(r.status, 0, "%s", r.err);
	data = slurp(file, &len);
	cr_assert_eq(len, 0, "replaced: %s", data);
	free(data);
	test_run_free(&r);
	remove_tree(dir);
	free(file);
	free(ro);
	free(rofile);
	free(ex);
}

/* What the terminal's side of pty m has received, waiting for it briefly. */
static char *
pty_drain(int m)
{
	struct strbuf sb = STRBUF_INIT;
	struct pollfd p = { m, POLLIN, 0 };
	char chunk[4096];
	ssize_t n;

	while (poll(&p, 1, 200) > 0 && (n = read(m, chunk, sizeof chunk)) > 0)
		strbuf_add(&sb, chunk, (size_t)n);
	return strbuf_detach(&sb);
}

/* --color auto decides by FILE, not by the terminal on stdout: no ANSI
 * codes in FILE unless --color always. */
Test(cli, output_colour_follows_the_file)
{
	char dir[] = "/tmp/gguflint-out-XXXXXX";
	char *path = broken_file(), *file, *data, *seen;
	const char *argv[] = { "--no-config", "--color=auto", path, NULL,
	    NULL, NULL };
	int m = posix_openpt(O_RDWR | O_NOCTTY);
	struct test_run r;
	const char *tty;
	size_t len;

	if (m < 0 || grantpt(m) < 0 || unlockpt(m) < 0 ||
	    (tty = ptsname(m)) == NULL)
		cr_skip_test("no pseudo-terminal");
	cr_assert(mkdtemp(dir) != NULL);
	file = xasprintf("%s/report.txt", dir);
	setenv("TERM", "xterm", 1);
	unsetenv("NO_COLOR");
	test_run_bin(&r, argv, tty, 0);	/* the terminal: colours */
	cr_assert_eq(r.status, 1, "%s", r.err);
	seen = pty_drain(m);
	cr_assert(strstr(seen, "\x1b[") != NULL, "no colour on a tty: %s",
	    seen);
	free(seen);
	test_run_free(&r);
	argv[3] = "-o";
	argv[4] = file;
	test_run_bin(&r, argv, tty, 0);
	cr_assert_eq(r.status, 1, "%s", r.err);
	data = slurp(file, &len);
	cr_assert(strstr(data, "error: F017") != NULL, "%s", data);
	cr_assert(strchr(data, '\x1b') == NULL, "ANSI codes in FILE: %s",
	    data);
	free(data);
	seen = pty_drain(m);
	cr_assert_str_empty(seen, "nothing on the terminal: %s", seen);
	free(seen);
	test_run_free(&r);
	argv[1] = "--color=always";
	test_run_bin(&r, argv, tty, 0);
	data = slurp(file, &len);
	cr_assert(strchr(data, '\x1b') != NULL, "--color always: %s", data);
	free(data);
	test_run_free(&r);
	close(m);
	remove_tree(dir);
	unlink(path);
	free(path);
	free(file);
}

/* The text report closes with a summary on stderr: counts per severity,
 * models, how many failed; nothing with --quiet or nothing to say. */
Test(cli, text_summary_counts_findings_and_models)
{
	char *path = broken_file(), *ex = example();
	const char *two[] = { "--no-config", "--select=F,P", path, ex, NULL };
	struct test_run r;

	run(&r, "--no-config", "--select=F", path, NULL);
	cr_assert_eq(r.status, 1, "%s", r.err);
	cr_expect_str_eq(r.err, "2 errors in 1 model (1 failed)\n");
	test_run_free(&r);
	test_run_bin(&r, two, NULL, 0);
	cr_expect_str_eq(r.err, "2 errors, 1 warning in 2 models (1 failed)\n");
	test_run_free(&r);
	run(&r, "--no-config", "--select=P", path, "/nonexistent/x.gguf");
	cr_assert_eq(r.status, 2, "%s", r.err);
	cr_expect(strstr(r.err, "\n1 warning in 2 models (none failed, 1 could "
	    "not be read)\n") != NULL, "%s", r.err);
	test_run_free(&r);
	run(&r, "--no-config", "-q", path, NULL);
	cr_expect_eq(count(r.err, "model"), 0, "--quiet: %s", r.err);
	test_run_free(&r);
	run(&r, "--no-config", "--format=json", path, NULL);
	cr_expect_str_empty(r.err, "JSON has no summary line");
	test_run_free(&r);
	run(&r, "--no-config", ex, NULL, NULL);
	cr_expect_str_empty(r.err, "nothing to say");
	test_run_free(&r);
	unlink(path);
	free(path);
	free(ex);
}

/* A model with n tensors whose names hold an escape sequence: n S002
 * errors, one per tensor. */
static char *
many_findings_file(int n)
{
	static const int64_t ne[] = { 32 };
	struct ggufw_model m;
	struct strbuf sb = STRBUF_INIT;
	char *path;
	int i;

	ggufw_model_init(&m, false, 32);
	ggufw_model_kv_str(&m, "general.architecture", "llama");
	for (i = 0; i < n; i++) {
		char name[32];

		snprintf(name, sizeof name, "t%03d\x1b[1m.weight", i);
		ggufw_model_tensor(&m, name, 1, ne, 0, 1, 4);
	}
	ggufw_model_finish(&m, &sb, GGUFW_DATA_ZERO);
	path = test_tmpfile(sb.buf, sb.len);
	strbuf_free(&sb);
	ggufw_model_free(&m);
	return path;
}

/* Text shows 50 findings of a rule per file by default, --max-per-rule N
 * (or max-per-rule: N) as many, 0 all, with a line counting the rest;
 * JSON has every one. */
Test(cli, max_per_rule_caps_text_only)
{
	char *path = many_findings_file(60);
	char *cfg = test_tmpfile("max-per-rule: 3\nselect: [S002]\n", 31);
	char *bad = test_tmpfile("max-per-rule: -1\n", 17);
	struct test_run r;

	run(&r, "--no-config", "--select=S002", path, NULL);
	cr_assert_eq(r.status, 1, "%s", r.err);
	cr_expect_eq(count(r.out, "\n"), 51, "%s", r.out);
	cr_expect_eq(count(r.out, "[tensor: t0"), 50);
	cr_expect(strstr(r.out, ": error: S002 control-characters: 10 more "
	    "S002 findings not shown (the first 50 are)\n") !=
	    NULL, "%s", r.out);
	cr_expect(strstr(r.out, "t049") != NULL && strstr(r.out, "t050") ==
	    NULL, "the first ones are shown");
	cr_expect_str_eq(r.err, "60 errors in 1 model (1 failed)\n");
	test_run_free(&r);
	run(&r, "--no-config", "--select=S002", "--max-per-rule=5", path);
	cr_expect_eq(count(r.out, "\n"), 6, "%s", r.out);
	cr_expect(strstr(r.out, "55 more S002 findings not shown (the first "
	    "5 are)") != NULL, "%s", r.out);
	test_run_free(&r);
	run(&r, "--no-config", "--select=S002", "--max-per-rule=0", path);
	cr_expect_eq(count(r.out, "\n"), 60, "0: all");
	cr_expect_eq(count(r.out, "more S002"), 0);
	test_run_free(&r);
	run(&r, "--config", cfg, path, NULL);
	cr_expect_eq(count(r.out, "\n"), 4, "max-per-rule: 3: %s", r.out);
	test_run_free(&r);
	run(&r, "--config", cfg, "--format=json", path);
	cr_expect_eq(count(r.out, "\"code\": \"S002\""), 60, "JSON is whole");
	test_run_free(&r);
	run(&r, "--no-config", "--select=S002", "--format=sarif", path);
	cr_expect_eq(count(r.out, "\"ruleId\": \"S002\""), 60, "SARIF too");
	test_run_free(&r);
	run(&r, "--no-config", "--max-per-rule=x", path, NULL);
	cr_expect_eq(r.status, 2);
	cr_expect(strstr(r.err, "--max-per-rule: expected a number") != NULL,
	    "%s", r.err);
	test_run_free(&r);
	run(&r, "--config", bad, path, NULL);
	cr_expect_eq(r.status, 2);
	cr_expect(strstr(r.err, ":1:15: expected a number of findings") !=
	    NULL, "%s", r.err);
	test_run_free(&r);
	unlink(path);
	unlink(cfg);
	unlink(bad);
	free(path);
	free(cfg);
	free(bad);
}

/*
 * --deep's progress goes to stderr only when asked (--progress) or on a
 * terminal: in a pipe, as here, nothing by default, and with --progress a
 * closing line with what was read; never on stdout, which is the same
 * report either way; nothing without --deep, or with --no-progress last.
 */
Test(cli, deep_progress_only_when_asked)
{
	char *path = example(), *out;
	struct test_run r;

	run(&r, "--no-config", "--deep", path, NULL);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_expect_str_eq(r.err, "", "%s", r.err);
	out = xstrdup(r.out);
	test_run_free(&r);
	run(&r, "--no-config", "--deep", "--progress", path);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_expect(strstr(r.err, "gguflint: --deep stories260K.gguf: read ") !=
	    NULL && strstr(r.err, " in ") != NULL, "%s", r.err);
	cr_expect(strchr(r.err, '\r') == NULL && strchr(r.err, '\033') ==
	    NULL, "no terminal codes in a pipe: %s", r.err);
	cr_expect_str_eq(r.out, out, "the same report");
	test_run_free(&r);
	run(&r, "--no-config", "--progress", path, NULL);
	cr_expect_str_eq(r.err, "", "no --deep, no progress");
	test_run_free(&r);
	{
		const char *argv[] = { "--no-config", "--deep", "--progress",
			"--no-progress", path, NULL };

		test_run_bin(&r, argv, NULL, 0);
		cr_expect_str_eq(r.err, "", "%s", r.err);
		test_run_free(&r);
	}
	free(out);
	free(path);
}

/*
 * Several gguflint processes writing to one file at once (the shell's
 * "xargs -P 8 gguflint ... > out": one open file, shared): each model's
 * report arrives in one piece. Each process lints its own copies of a
 * model whose report (51 lines, about 6 KiB) is longer than stdio's
 * buffer, which used to cut it wherever the buffer filled.
 */
#define PIECE_PROCS 8
#define PIECE_MODELS 12

Test(cli, each_model_report_is_one_piece, .timeout = 120)
{
	char *paths[PIECE_PROCS][PIECE_MODELS], *outpath, *out, *p;
	const char *bin = getenv("GGUFLINT_BIN");
	const char *argv[PIECE_MODELS + 4];
	size_t i, j, k, lines = 0, blocks = 0, n;
	pid_t pid[PIECE_PROCS];
	int fd, st;
	FILE *fp;

	cr_assert(bin != NULL);
	for (i = 0; i < PIECE_PROCS; i++)
		for (j = 0; j < PIECE_MODELS; j++)
			paths[i][j] = many_findings_file(60);
	outpath = test_tmpfile("", 0);
	fd = open(outpath, O_WRONLY | O_TRUNC);
	cr_assert(fd >= 0);
	for (i = 0; i < PIECE_PROCS; i++) {
		argv[0] = bin;
		argv[1] = "--no-config";
		argv[2] = "--select=S002";
		for (j = 0; j < PIECE_MODELS; j++)
			argv[3 + j] = paths[i][j];
		argv[3 + PIECE_MODELS] = NULL;
		pid[i] = fork();
		cr_assert(pid[i] >= 0);
		if (pid[i] == 0) {
			dup2(fd, 1);
			if (freopen("/dev/null", "w", stderr) == NULL)
				_exit(126);
			execv(bin, (char *const *)argv);
			_exit(127);
		}
	}
	for (i = 0; i < PIECE_PROCS; i++) {
		cr_assert(waitpid(pid[i], &st, 0) == pid[i]);
		cr_expect(WIFEXITED(st) && WEXITSTATUS(st) == 1, "status %d",
		    st);
	}
	close(fd);
	fp = fopen(outpath, "r");
	cr_assert(fp != NULL);
	out = xcalloc(1, 1u << 22);
	n = fread(out, 1, (1u << 22) - 1, fp);
	fclose(fp);
	/* each path's lines: one block of 51 whole lines, so that there
	 * are as many blocks as models */
	for (p = out, k = 0; p < out + n; p = strchr(p, '\n') + 1) {
		const char *colon = strstr(p, ":0x"), *nl = strchr(p, '\n');
		size_t len;

		cr_assert(nl != NULL, "unterminated line");
		cr_assert(p[0] == '/' && colon != NULL && colon < nl,
		    "a broken line: %.*s", (int)(nl - p), p);
		len = (size_t)(colon - p);
		if (lines > 0 && len == k && memcmp(p, out + i, len) == 0) {
			lines++;
			continue;
		}
		cr_expect(lines == 0 || lines == 51, "a model's %zu lines, "
		    "then another's: %.*s", lines, (int)(nl - p), p);
		i = (size_t)(p - out);
		k = len;
		lines = 1;
		blocks++;
	}
	cr_expect(lines == 51, "the last model's %zu lines", lines);
	cr_expect_eq(blocks, PIECE_PROCS * PIECE_MODELS, "%zu pieces",
	    blocks);
	free(out);
	for (i = 0; i < PIECE_PROCS; i++)
		for (j = 0; j < PIECE_MODELS; j++)
			free(paths[i][j]);
	free(outpath);
}

/* A projector (architecture clip): path to a temporary file. */
static char *
clip_model(void)
{
	struct tiny m;
	struct strbuf sb = STRBUF_INIT;
	char *path;

	tiny_init(&m);
	m.arch = "clip";
	tiny_build(&m, &sb);
	path = test_tmpfile(sb.buf, sb.len);
	strbuf_free(&sb);
	return path;
}

/* Lint the projector at path as the main model, with itself as its
 * --mmproj (M022), with up to three more options. */
static void
lint_clip(struct test_run *r, const char *path, const char *a0,
    const char *a1, const char *a2)
{
	const char *argv[] = { "--no-config", "--mmproj", path, path, a0, a1,
		a2, NULL };

	test_run_bin(r, argv, NULL, 0);
}

/*
 * A finding's essence, note and fix, in each format: the text line holds
 * the essence alone (no note, and no "[tensor: -]" for a finding without
 * a subject), --show-fixes adds "  = note: " and "  = fix: " lines, JSON
 * has them as fields, GitHub after the message on lines of their own
 * (%0A), SARIF in the message text.
 */
Test(cli, essence_note_and_fix_in_each_format)
{
	char *path = clip_model();
	const char *essence = "error: M022 companion-as-main-model: "
	    "architecture 'clip' is a multimodal projector: llama.cpp v0.5.0 "
	    "refuses it as the main model [key: general.architecture]\n";
	const struct jsonnode *ds, *d;
	struct jsonnode *root;
	struct test_run r;
	char *err = NULL;
	size_t i;

	lint_clip(&r, path, "--select=M022,N005", NULL, NULL);
	cr_assert_eq(r.status, 1, "%s", r.err);
	cr_expect(strstr(r.out, essence) != NULL, "%s", r.out);
	cr_expect(strstr(r.out, "= note") == NULL && strstr(r.out, "= fix") ==
	    NULL, "not on a pipe by default: %s", r.out);
	test_run_free(&r);
	lint_clip(&r, path, "--select=M022", "--show-fixes", NULL);
	cr_expect(strstr(r.out, essence) != NULL, "%s", r.out);
	cr_expect(strstr(r.out, "\n  = note: llama.cpp says \"cannot be used "
	    "as main model\"\n  = fix: pass it with --mmproj beside the "
	    "language model\n") != NULL, "%s", r.out);
	test_run_free(&r);
	{
		lint_clip(&r, path, "--show-fixes", "--no-show-fixes",
		    "--select=M022");
		cr_expect(strstr(r.out, "= note") == NULL, "%s", r.out);
		test_run_free(&r);
	}
	lint_clip(&r, path, "--format=json", NULL, NULL);
	root = jsontree_parse(r.out, r.out_len, &err);
	cr_assert(root != NULL, "%s: %s", err, r.out);
	ds = jsontree_pointer(root, "/files/0/diagnostics");
	for (i = 0; ds != NULL && (d = jsontree_at(ds, i)) != NULL; i++) {
		if (strcmp(jsontree_str(jsontree_get(d, "code")), "M022"))
			continue;
		cr_expect_str_eq(jsontree_str(jsontree_get(d, "message")),
		    "architecture 'clip' is a multimodal projector: llama.cpp "
		    "v0.5.0 refuses it as the main model");
		cr_expect_str_eq(jsontree_str(jsontree_get(d, "note")),
		    "llama.cpp says \"cannot be used as main model\"");
		cr_expect_str_eq(jsontree_str(jsontree_get(d, "fix")),
		    "pass it with --mmproj beside the language model");
		break;
	}
	cr_expect(ds != NULL && i < ds->n, "no M022: %s", r.out);
	jsontree_free(root);
	test_run_free(&r);
	lint_clip(&r, path, "--format=github", "--select=M022", NULL);
	cr_expect(strstr(r.out, "as the main model [key: general.architecture]"
	    "%0Allama.cpp says \"cannot be used as main model\"%0Afix: pass "
	    "it with --mmproj beside the language model\n") != NULL, "%s",
	    r.out);
	test_run_free(&r);
	lint_clip(&r, path, "--format=sarif", "--select=M022", NULL);
	cr_expect(strstr(r.out, "as the main model [key: general.architecture]"
	    "\\nllama.cpp says \\\"cannot be used as main model\\\"\\nfix: "
	    "pass it with --mmproj beside the language model\"") != NULL,
	    "%s", r.out);
	test_run_free(&r);
	free(path);
}

/* The file at path is a JSON report with no terminal code in it. */
static void
expect_plain_json(const char *path)
{
	FILE *fp = fopen(path, "r");
	int c = fp != NULL ? fgetc(fp) : EOF;

	cr_expect(c == '{', "stdout is the JSON report");
	while (c != EOF && c != '\033')
		c = fgetc(fp);
	cr_expect(c == EOF, "no terminal codes on stdout");
	if (fp != NULL)
		fclose(fp);
}

/*
 * On a terminal, --deep's progress is one line rewritten in place
 * ("\r\033[K" before each) and erased when the model is done, and stdout
 * is the report alone. stderr is a pseudo-terminal here; the model's 1
 * GiB (a hole) are hashed and decoded for -f json, which takes long
 * enough for the first line (after a quarter of a second) on this kind
 * of machine; a machine that does it faster skips the check, saying so.
 */
Test(cli, deep_progress_on_a_terminal_is_erased, .timeout = 120)
{
	static const int64_t ne[] = { 4096, 65536 };
	char path[] = "/tmp/gguflint-progress-XXXXXX";
	const char *bin = getenv("GGUFLINT_BIN");
	struct strbuf got = STRBUF_INIT;
	struct ggufw_model m;
	struct timespec t0, t1;
	char buf[4096], *out;
	int fd, master, st, ofd;
	pid_t pid;
	ssize_t n;
	double secs;

	cr_assert(bin != NULL);
	fd = mkstemp(path);
	cr_assert_geq(fd, 0);
	close(fd);
	ggufw_model_init(&m, false, 32);
	ggufw_model_kv_str(&m, "general.architecture", "llama");
	ggufw_model_tensor(&m, "big.weight", 2, ne, GGUFW_GGML_F32, 1, 4);
	cr_assert(ggufw_model_finish_sparse(&m, path) == 0);
	ggufw_model_free(&m);
	out = test_tmpfile("", 0);
	master = posix_openpt(O_RDWR | O_NOCTTY);
	cr_assert(master >= 0 && grantpt(master) == 0 &&
	    unlockpt(master) == 0);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	pid = fork();
	cr_assert(pid >= 0);
	if (pid == 0) {
		int slave = open(ptsname(master), O_RDWR | O_NOCTTY);

		ofd = open(out, O_WRONLY | O_TRUNC);
		if (slave < 0 || ofd < 0)
			_exit(126);
		dup2(ofd, 1);
		dup2(slave, 2);
		setenv("TERM", "xterm", 1);
		execl(bin, bin, "--no-config", "--deep", "--format=json",
		    path, (char *)NULL);
		_exit(127);
	}
	/* the terminal's output until the last writer closes it (EIO) */
	while ((n = read(master, buf, sizeof buf)) > 0 || (n < 0 &&
	    errno == EINTR))
		if (n > 0)
			strbuf_add(&got, buf, (size_t)n);
	cr_assert(waitpid(pid, &st, 0) == pid);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	close(master);
	secs = (double)(t1.tv_sec - t0.tv_sec) +
	    (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	cr_assert(WIFEXITED(st) && WEXITSTATUS(st) <= 1, "status %d", st);
	if (got.len == 0 && secs < 0.5) {
		cr_log_warn("the scan took %.2f s: too fast for a progress "
		    "line, not checked", secs);
	} else {
		cr_expect(strncmp(got.buf, "\r\033[Kgguflint: --deep gguflint-"
		    "progress-", 30) == 0, "%s", strbuf_cstr(&got));
		cr_expect(strstr(strbuf_cstr(&got), " of 2.0 GiB (") != NULL,
		    "%s", strbuf_cstr(&got));
		cr_expect(got.len >= 4 && memcmp(got.buf + got.len - 4,
		    "\r\033[K", 4) == 0, "not erased: %s", strbuf_cstr(&got));
		cr_expect(strchr(strbuf_cstr(&got), '\n') == NULL, "%s",
		    strbuf_cstr(&got));
	}
	expect_plain_json(out);
	strbuf_free(&got);
	unlink(path);
	free(out);
}
