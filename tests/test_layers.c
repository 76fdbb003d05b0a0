/*
 * test_layers.c - who may include whom. Every #include "..." of src/ and
 * kernels/ is checked against the layer table below, the one place where
 * the rule is written down (HACKING.md shows the same table, and a test
 * here checks that it does).
 *
 * A file's folder is its layer: src/reader/gguf.c is in reader, every file
 * of kernels/ in kernels, src/lint.[ch] in lint and src/main.c in main. An
 * include names the folder of the header ("reader/gguf.h", with -I src and
 * -I the top source directory); "lint.h" names src/lint.h. Two includes
 * without a folder are allowed: "config.h" (written by configure) and, in
 * kernels/ only, kernels/'s own headers, which keeps kernels/ buildable
 * apart from src/.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/util.h"
#include "testutil.h"

/*
 * The layers, bottom-up. A file may include its own folder and the folders
 * in its "may" list, each of which must come earlier in this table (the
 * table is checked for that). The lists are the includes the code has, not
 * everything below: a new edge is a decision, made here and in HACKING.md.
 */
static const struct layer {
	const char *name;
	/* the folders below it that it may include, space-separated */
	const char *may;
} layers[] = {
	{ "kernels", "" },
	{ "base", "" },
	{ "data", "base" },
	{ "findings", "base data" },
	{ "reader", "base findings kernels" },
	{ "facts", "base data findings reader" },
	{ "target", "base data kernels" },
	{ "plan", "base facts kernels reader target" },
	{ "checks", "base data facts findings kernels plan reader target" },
	{ "lint", "base checks data facts findings plan reader target" },
	{ "report", "base findings kernels lint" },
	{ "cli", "base checks data findings report target" },
	{ "main", "cli" },
};
#define N_LAYERS (sizeof layers / sizeof layers[0])

/*
 * Known breaks of the layering, each to go with the change that removes
 * it. An entry no file needs any more fails the test too, so that it cannot
 * stay behind and let the include back in.
 */
static const struct layer_exception {
	/* relative to the top source directory */
	const char *file;
	const char *include;
} exceptions[] = {
	/* none today; the last entry ends the list */
	{ NULL, NULL },
};
#define N_EXCEPTIONS (sizeof exceptions / sizeof exceptions[0])

/* Edges no edit of the table may allow, whatever the order says. */
static const char *const never[][2] = {
	{ "reader", "report" },
	{ "facts", "report" },
	{ "plan", "report" },
};

static int
layer_index(const char *name, size_t n)
{
	size_t i;

	for (i = 0; i < N_LAYERS; i++)
		if (strlen(layers[i].name) == n &&
		    strncmp(layers[i].name, name, n) == 0)
			return (int)i;
	return -1;
}

/* 1 when the may-list of layer from names layer to. */
static int
layer_may(int from, int to)
{
	const char *p = layers[from].may, *name = layers[to].name;
	size_t n = strlen(name);

	if (from == to)
		return 1;
	while (*p != '\0') {
		size_t len = strcspn(p, " ");

		if (len == n && strncmp(p, name, n) == 0)
			return 1;
		p += len;
		p += strspn(p, " ");
	}
	return 0;
}

/* The layer of a file (a path relative to the top source directory). */
static int
file_layer(const char *rel)
{
	const char *slash;

	if (strncmp(rel, "kernels/", 8) == 0)
		return layer_index("kernels", 7);
	if (strcmp(rel, "src/main.c") == 0)
		return layer_index("main", 4);
	if (strcmp(rel, "src/lint.c") == 0 || strcmp(rel, "src/lint.h") == 0)
		return layer_index("lint", 4);
	if (strncmp(rel, "src/", 4) != 0 ||
	    (slash = strchr(rel + 4, '/')) == NULL)
		return -1;
	return layer_index(rel + 4, (size_t)(slash - (rel + 4)));
}

static bool
file_exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0;
}

static int
is_exception(const char *rel, const char *inc, bool *used)
{
	size_t i;

	for (i = 0; exceptions[i].file != NULL; i++)
		if (strcmp(exceptions[i].file, rel) == 0 &&
		    strcmp(exceptions[i].include, inc) == 0) {
			if (used != NULL)
				used[i] = true;
			return 1;
		}
	return 0;
}

/*
 * include_error: why the file rel (below top) may not include inc, or NULL
 * when it may. The message is static or in buf.
 */
static const char *
include_error(const char *top, const char *rel, const char *inc, char *buf,
    size_t bufsz)
{
	int from = file_layer(rel), to;
	const char *slash = strchr(inc, '/');
	const char *base;

	if (from < 0)
		return "the file is in no layer of tests/test_layers.c";
	if (strcmp(inc, "config.h") == 0)
		return NULL;
	if (slash == NULL) {
		char *own;
		bool found;

		if (strcmp(inc, "lint.h") == 0) {
			to = layer_index("lint", 4);
		} else if (strcmp(layers[from].name, "kernels") == 0) {
			own = xasprintf("%s/kernels/%s", top, inc);
			found = file_exists(own);
			free(own);
			return found ? NULL : "no such header in kernels/";
		} else
			return "an include must name its folder";
	} else {
		to = layer_index(inc, (size_t)(slash - inc));
		if (to < 0)
			return "the folder is in no layer";
	}
	base = strrchr(inc, '/');
	base = base != NULL ? base + 1 : inc;
	if (to != from && strlen(base) >= 7 &&
	    strcmp(base + strlen(base) - 7, "-impl.h") == 0)
		return "an -impl.h header is private to its folder";
	if (layer_may(from, to))
		return NULL;
	snprintf(buf, bufsz, "%s may not include %s (its list: %s)",
	    layers[from].name, layers[to].name,
	    *layers[from].may ? layers[from].may : "nothing");
	return buf;
}

/* The quoted name of an #include "..." line, into name; 0 when none. */
static int
parse_include(const char *line, char *name, size_t size)
{
	const char *p = line + strspn(line, " \t"), *end;

	if (*p++ != '#')
		return 0;
	p += strspn(p, " \t");
	if (strncmp(p, "include", 7) != 0)
		return 0;
	p += 7;
	p += strspn(p, " \t");
	if (*p++ != '"' || (end = strchr(p, '"')) == NULL ||
	    (size_t)(end - p) >= size)
		return 0;
	memcpy(name, p, (size_t)(end - p));
	name[end - p] = '\0';
	return 1;
}

/* Check the includes of one file; the problems are appended to out. */
static void
check_file(const char *top, const char *path, bool *used, struct strbuf *out)
{
	const char *rel = path + strlen(top) + 1;
	FILE *fp = fopen(path, "r");
	char line[4096], inc[256], buf[256];
	unsigned lineno = 0;
	bool at_start = true;

	cr_assert(fp != NULL, "cannot open %s", path);
	while (fgets(line, sizeof line, fp) != NULL) {
		bool whole = strchr(line, '\n') != NULL;
		const char *why;

		if (at_start)
			lineno++;
		if (!at_start || !parse_include(line, inc, sizeof inc))
			why = NULL;
		else
			why = include_error(top, rel, inc, buf, sizeof buf);
		if (why != NULL && !is_exception(rel, inc, used))
			strbuf_addf(out, "  %s:%u: #include \"%s\": %s\n", rel,
			    lineno, inc, why);
		at_start = whole;
	}
	fclose(fp);
}

/* Every .c and .h below top/dir, appended to *paths. */
static void
collect(const char *top, const char *dir, char ***paths, size_t *n)
{
	static const char *const suffixes[] = { ".c", ".h" };
	char *root = xasprintf("%s/%s", top, dir);
	size_t s, i, k;

	for (s = 0; s < 2; s++) {
		char **p = test_tree_files(root, suffixes[s], &k);

		*paths = xreallocarray(*paths, *n + k + 1, sizeof **paths);
		for (i = 0; i < k; i++)
			(*paths)[(*n)++] = p[i];
		free(p);
	}
	free(root);
}

Test(layers, table_is_bottom_up)
{
	size_t i, j;

	for (i = 0; i < N_LAYERS; i++)
		for (j = 0; j < N_LAYERS; j++)
			if (i != j && layer_may((int)i, (int)j))
				cr_expect(j < i, "%s may include %s, above it",
				    layers[i].name, layers[j].name);
	for (i = 0; i < N_LAYERS; i++) {
		const char *p = layers[i].may;

		while (*p != '\0') {
			size_t len = strcspn(p, " ");

			cr_expect(layer_index(p, len) >= 0,
			    "%s names %.*s, which is no layer", layers[i].name,
			    (int)len, p);
			p += len;
			p += strspn(p, " ");
		}
	}
}

/* The rules of issue 13 that the table must keep, whatever else changes. */
Test(layers, table_keeps_the_fixed_rules)
{
	int cli = layer_index("cli", 3), k = layer_index("kernels", 7);
	size_t i;

	for (i = 0; i < sizeof never / sizeof never[0]; i++) {
		int from = layer_index(never[i][0], strlen(never[i][0]));
		int to = layer_index(never[i][1], strlen(never[i][1]));

		cr_expect(!layer_may(from, to), "%s may not include %s",
		    never[i][0], never[i][1]);
	}
	for (i = 0; i < N_LAYERS; i++) {
		if (strcmp(layers[i].name, "main") != 0 && (int)i != cli)
			cr_expect(!layer_may((int)i, cli),
			    "only src/main.c may include cli/, not %s",
			    layers[i].name);
		if ((int)i != k)
			cr_expect(layer_may(k, (int)i) == 0,
			    "kernels/ may include nothing from src/ (%s)",
			    layers[i].name);
	}
}

/* The checker itself, on includes planted in memory. */
Test(layers, checker_rejects_planted_includes)
{
	static const char *const bad[][2] = {
		{ "src/reader/gguf.c", "report/report.h" },
		{ "src/facts/arch.c", "report/report.h" },
		{ "src/plan/plan.h", "report/report.h" },
		{ "src/report/report.c", "cli/options.h" },
		{ "src/lint.c", "cli/session.h" },
		{ "kernels/feed.c", "base/util.h" },
		{ "kernels/feed.c", "lint.h" },
		{ "kernels/feed.c", "nonexistent.h" },
		{ "src/reader/gguf.c", "gguf.h" },
		{ "src/reader/gguf.c", "kernels/kernels-impl.h" },
		{ "src/base/util.c", "data/builtin.h" },
		{ "src/reader/gguf.c", "nowhere/x.h" },
		{ "src/nowhere/x.c", "base/util.h" },
		{ "src/x.c", "base/util.h" },
	};
	static const char *const good[][2] = {
		{ "src/reader/gguf.c", "reader/gguf.h" },
		{ "src/reader/gguf.c", "kernels/ggml-types.h" },
		{ "src/reader/gguf.c", "config.h" },
		{ "src/main.c", "cli/options.h" },
		{ "src/report/report.h", "lint.h" },
		{ "kernels/feed.c", "kernels-impl.h" },
	};
	const char *top = test_srcdir();
	char buf[256];
	size_t i;

	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		const char *why = include_error(top, bad[i][0], bad[i][1], buf,
		    sizeof buf);

		cr_expect(why != NULL, "%s including \"%s\" was accepted",
		    bad[i][0], bad[i][1]);
	}
	for (i = 0; i < sizeof good / sizeof good[0]; i++) {
		const char *why = include_error(top, good[i][0], good[i][1],
		    buf, sizeof buf);

		cr_expect(why == NULL, "%s including \"%s\": %s", good[i][0],
		    good[i][1], why);
	}
}

Test(layers, includes_follow_the_table)
{
	const char *top = test_srcdir();
	struct strbuf out = STRBUF_INIT;
	bool used[N_EXCEPTIONS + 1] = { false };
	char **paths = NULL;
	size_t i, n = 0;

	collect(top, "src", &paths, &n);
	collect(top, "kernels", &paths, &n);
	cr_assert(n > 50, "only %zu files below %s/src and %s/kernels", n, top,
	    top);
	for (i = 0; i < n; i++)
		check_file(top, paths[i], used, &out);
	for (i = 0; exceptions[i].file != NULL; i++)
		if (!used[i])
			strbuf_addf(&out,
			    "  %s no longer includes \"%s\": remove its "
			    "exception from tests/test_layers.c\n",
			    exceptions[i].file, exceptions[i].include);
	cr_assert(out.len == 0,
	    "includes that break the layering (see HACKING.md):\n%s",
	    strbuf_cstr(&out));
	strbuf_free(&out);
	test_tree_files_free(paths, n);
}

/* HACKING.md carries the table as "| layer | may include |" rows. */
Test(layers, hacking_md_shows_the_table)
{
	char *path = xasprintf("%s/HACKING.md", test_srcdir());
	FILE *fp = fopen(path, "r");
	char line[512];
	bool seen[N_LAYERS] = { false };
	size_t i;

	cr_assert(fp != NULL, "cannot open %s", path);
	while (fgets(line, sizeof line, fp) != NULL) {
		line[strcspn(line, "\n")] = '\0';
		for (i = 0; i < N_LAYERS; i++) {
			char *want = xasprintf("| %s | %s |", layers[i].name,
			    *layers[i].may ? layers[i].may : "-");

			if (strcmp(line, want) == 0)
				seen[i] = true;
			free(want);
		}
	}
	fclose(fp);
	for (i = 0; i < N_LAYERS; i++)
		cr_expect(seen[i], "HACKING.md lacks the row \"| %s | %s |\"",
		    layers[i].name, *layers[i].may ? layers[i].may : "-");
	free(path);
}
