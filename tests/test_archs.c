/*
 * test_archs.c - the one row per architecture (src/facts/archs.c) and
 * --list-archs: every architecture the runtime data names is listed (but
 * the projector "clip"), and every row of the table; what the list says
 * of each follows the row; the plan's code compares no architecture name
 * with a literal (it reads the row's flags instead).
 */
#include "config.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "facts/arch.h"
#include "facts/archlist.h"
#include "jsontree.h"
#include "testutil.h"

/* The architectures' names in the runtime data file, read as text (not
 * by llversions.c): "  - {name: "X", ..." lines under "architectures:". */
static size_t
data_archs(char names[][48], size_t max)
{
	char *path = xasprintf("%s/rules/runtime/llama.cpp.yaml",
	    test_srcdir());
	FILE *fp = fopen(path, "r");
	char line[512], *q, *end;
	bool in = false;
	size_t n = 0;

	cr_assert(fp != NULL, "cannot open %s", path);
	while (fgets(line, sizeof line, fp) != NULL) {
		if (line[0] != ' ' && line[0] != '#')
			in = strncmp(line, "architectures:", 14) == 0;
		if (!in || (q = strstr(line, "{name: \"")) == NULL)
			continue;
		q += 8;
		end = strchr(q, '"');
		cr_assert(end != NULL && end - q < 48 && n < max);
		memcpy(names[n], q, (size_t)(end - q));
		names[n++][end - q] = '\0';
	}
	fclose(fp);
	free(path);
	return n;
}

/* The --list-archs JSON entry named name, or NULL. */
static const struct jsonnode *
entry(const struct jsonnode *root, const char *name)
{
	size_t i;
	const char *s;

	for (i = 0; i < root->n; i++) {
		s = jsontree_str(jsontree_get(jsontree_at(root, i), "name"));
		if (s != NULL && strcmp(s, name) == 0)
			return jsontree_at(root, i);
	}
	return NULL;
}

static struct jsonnode *
list_json(void)
{
	const char *argv[] = { "--list-archs", "--format", "json", NULL };
	struct jsonnode *root;
	struct test_run r;
	char *err = NULL;

	test_run_bin(&r, argv, NULL, 0);
	cr_assert_eq(r.status, 0, "stderr: %s", r.err);
	root = jsontree_parse(r.out, r.out_len, &err);
	cr_assert(root != NULL, "%s", err);
	test_run_free(&r);
	return root;
}

Test(archs, list_has_every_runtime_arch_and_every_row)
{
	static char names[512][48];
	size_t n = data_archs(names, 512), i, extra = 0;
	struct jsonnode *root = list_json();
	const struct arch_info *a;

	cr_assert_gt(n, 100, "only %zu architectures in the data", n);
	for (i = 0; i < n; i++)
		if (strcmp(names[i], "clip") == 0)
			cr_expect(entry(root, "clip") == NULL);
		else
			cr_expect(entry(root, names[i]) != NULL, "%s missing",
			    names[i]);
	for (i = 0; (a = arch_at(i)) != NULL; i++) {
		size_t k;

		cr_expect(entry(root, a->name) != NULL, "%s missing", a->name);
		for (k = 0; k < n && strcmp(names[k], a->name) != 0; k++)
			;
		extra += k == n;
	}
	cr_expect_eq(root->n, n - 1 + extra, "%zu listed, %zu expected",
	    root->n, n - 1 + extra);
	jsontree_free(root);
}

/* What the list says of an entry follows its row. */
static void
expect_entry(const struct jsonnode *root, const char *name, bool known,
    const char *memory, const char *compute, size_t backends)
{
	const struct jsonnode *e = entry(root, name);

	cr_assert(e != NULL, "%s missing", name);
	cr_expect_eq(jsontree_get(e, "known")->boolean, known, "%s", name);
	cr_expect_str_eq(jsontree_str(jsontree_get(e, "memory")), memory, "%s",
	    name);
	cr_expect_str_eq(jsontree_str(jsontree_get(e, "compute_basis")),
	    compute, "%s", name);
	cr_expect_eq(jsontree_get(e, "measured_on")->n, backends, "%s", name);
}

/* An entry's compute_worst_ratio: null where the graph is placed or no
 * ratio was measured, else each backend's, in thousandths of the row. */
static void
expect_worst(const struct jsonnode *w, const struct arch_info *a)
{
	const struct jsonnode *c = jsontree_get(w, "cpu");
	const struct jsonnode *v = jsontree_get(w, "vulkan");

	cr_assert(w != NULL, "%s: no compute_worst_ratio", a->name);
	if (a->graph.built ||
	    (a->fit.worst_cpu == 0 && a->fit.worst_vulkan == 0)) {
		cr_expect(w->type == JSONTREE_NULL, "%s", a->name);
		return;
	}
	cr_assert(c != NULL && v != NULL, "%s", a->name);
	cr_expect(a->fit.worst_cpu == 0 ? c->type == JSONTREE_NULL :
					  c->type == JSONTREE_NUMBER &&
		    (long)(c->number * 1000.0 + 0.5) == a->fit.worst_cpu,
	    "%s", a->name);
	cr_expect(a->fit.worst_vulkan == 0 ? v->type == JSONTREE_NULL :
					     v->type == JSONTREE_NUMBER &&
		    (long)(v->number * 1000.0 + 0.5) == a->fit.worst_vulkan,
	    "%s", a->name);
}

Test(archs, list_says_what_the_rows_say)
{
	struct jsonnode *root = list_json();
	const struct jsonnode *llama = entry(root, "llama");
	const struct arch_info *a;
	size_t i;

	expect_entry(root, "llama", true, "exact", "placed", 2);
	expect_entry(root, "gemma3n", true, "exact", "placed", 2);
	expect_entry(root, "jina-bert-v2", true, "exact", "placed", 2);
	expect_entry(root, "chameleon", true, "modelled", "estimated", 0);
	expect_entry(root, "qwen35", true, "exact", "placed", 2);
	expect_entry(root, "kimi-linear", true, "exact", "placed", 2);
	expect_entry(root, "kimi-k3", true, "exact", "estimated", 2);
	expect_entry(root, "wavtokenizer-dec", true, "exact", "estimated", 2);
	expect_entry(root, "qwen4exp", true, "exact", "estimated", 2);
	expect_entry(root, "llama-embed", true, "assumed", "estimated", 0);
	cr_expect_str_eq(jsontree_str(jsontree_get(llama, "first_build")),
	    "b1041");
	cr_expect_str_eq(jsontree_str(jsontree_get(llama, "first_date")),
	    "2023-08-23");
	cr_expect(jsontree_get(llama, "names_checked")->boolean);
	cr_expect(jsontree_get(llama, "unmeasured")->type == JSONTREE_NULL);
	cr_expect(strstr(jsontree_str(
			     jsontree_get(entry(root, "eagle3"), "unmeasured")),
		      "target model") != NULL);
	for (i = 0; (a = arch_at(i)) != NULL; i++) {
		const struct jsonnode *e = entry(root, a->name);

		/* what cannot be measured alone is not modelled either */
		cr_expect(a->unmeasured == NULL ||
			(a->kind == ARCH_KIND_UNPLANNED && !a->measured_on),
		    "%s", a->name);

		cr_expect_eq(jsontree_get(e, "names_checked")->boolean,
		    a->mapped, "%s", a->name);
		cr_expect_str_eq(jsontree_str(jsontree_get(e, "compute_basis")),
		    arch_compute_word(a), "%s", a->name);
		expect_worst(jsontree_get(e, "compute_worst_ratio"), a);
		/* a placed graph is measured on both tables' backends */
		if (a->graph.built)
			cr_expect_eq(a->measured_on,
			    ARCH_ON_CPU | ARCH_ON_VULKAN, "%s", a->name);
	}
	jsontree_free(root);
}

Test(archs, list_text_counts_match)
{
	const char *argv[] = { "--list-archs", NULL };
	struct jsonnode *root = list_json();
	size_t i, names = 0, exact = 0, placed = 0, fitted = 0;
	struct test_run r;
	char want[192];

	for (i = 0; i < root->n; i++) {
		const struct jsonnode *e = jsontree_at(root, i);

		names += jsontree_get(e, "names_checked")->boolean;
		exact += strcmp(jsontree_str(jsontree_get(e, "memory")),
			     "exact") == 0;
		placed += strcmp(jsontree_str(jsontree_get(e, "compute_basis")),
			      "placed") == 0;
		fitted += strcmp(jsontree_str(jsontree_get(e, "compute_basis")),
			      "fitted") == 0;
	}
	test_run_bin(&r, argv, NULL, 0);
	cr_assert_eq(r.status, 0);
	cr_expect(strncmp(r.out, "ARCHITECTURE ", 13) == 0, "%s", r.out);
	cr_expect(strstr(r.out,
		      "\nllama                checked exact    "
		      "placed    -           cpu,vulkan b1041\n") != NULL,
	    "%s", r.out);
	snprintf(want, sizeof want,
	    "\n%zu architectures: tensor names "
	    "checked for %zu, memory exact for %zu, compute placed for "
	    "%zu, fitted for %zu\n",
	    root->n, names, exact, placed, fitted);
	cr_expect(strstr(r.out, want) != NULL, "no '%s' in %s", want, r.out);
	cr_expect(strstr(r.out,
		      "\nnot measured alone: eagle3, an EAGLE-3 "
		      "draft head") != NULL,
	    "%s", r.out);
	cr_expect_geq(placed, 25);
	test_run_free(&r);
	jsontree_free(root);
}

Test(archs, list_takes_no_file_and_no_other_mode)
{
	const char *file[] = { "--list-archs", "model.gguf", NULL };
	const char *both[] = { "--list-archs", "--list-rules", NULL };
	struct test_run r;

	test_run_bin(&r, file, NULL, 0);
	cr_expect_eq(r.status, 2);
	cr_expect(strstr(r.err, "unexpected argument model.gguf") != NULL, "%s",
	    r.err);
	test_run_free(&r);
	test_run_bin(&r, both, NULL, 0);
	cr_expect_eq(r.status, 2);
	cr_expect(strstr(r.err, "cannot be combined") != NULL, "%s", r.err);
	test_run_free(&r);
}

/* Whether line compares an architecture's name with a string literal:
 * a strcmp, strncmp or memcmp over something named arch beside a "...". */
static bool
compares_arch(const char *line)
{
	const char *c = strstr(line, "cmp(");

	return c != NULL && strstr(c, "arch") != NULL && strchr(c, '"') != NULL;
}

Test(archs, plan_compares_no_arch_name_with_a_literal)
{
	char *dir = xasprintf("%s/src/plan", test_srcdir());
	size_t n, i, seen = 0;
	char **files = test_tree_files(dir, ".c", &n);
	char line[1024];

	cr_assert_gt(n, 5, "no sources under %s", dir);
	for (i = 0; i < n; i++) {
		FILE *fp = fopen(files[i], "r");
		unsigned ln = 0;

		cr_assert(fp != NULL);
		while (fgets(line, sizeof line, fp) != NULL) {
			ln++;
			seen += strstr(line, "arch_row(") != NULL;
			cr_expect(!compares_arch(line), "%s:%u: %s", files[i],
			    ln, line);
		}
		fclose(fp);
	}
	cr_expect_gt(seen, 5, "the plan reads no architecture's row");
	cr_expect(compares_arch("if (strcmp(g->arch, \"lfm2\") == 0)"));
	test_tree_files_free(files, n);
	free(dir);
}
