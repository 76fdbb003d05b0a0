/*
 * test_layers.c - who may include whom. Every include of src/ and kernels/
 * is checked against the layer table below, the one place where the rule
 * is written down (HACKING.md shows the same table, and a test here checks
 * that it does). The files are read as the preprocessor reads them
 * (comments, continued lines, #include_next, "..." and <...>); a <...>
 * include is the project's when its first folder is a layer's or it names
 * a file of src/ or kernels/, and a system header's otherwise (not
 * checked). A "." or ".." segment, an absolute path or an include through
 * a macro is refused outright: the checker could not tell where it goes.
 *
 * A file's folder is its layer: src/reader/gguf.c is in reader, every file
 * of kernels/ in kernels, src/lint.[ch] and src/lint-*.[ch] in lint and
 * src/main.c in main. An include names the folder of the header
 * ("reader/gguf.h", with -I src and -I the top source directory); "lint.h"
 * names src/lint.h, and "lint-impl.h" src/lint-impl.h, private to lint.
 * Two other includes without a folder are allowed: "config.h" (written by
 * configure) and, in kernels/ only, kernels/'s own headers, which keeps
 * kernels/ buildable apart from src/.
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
 * everything below: a new edge is a decision, made here and in HACKING.md,
 * and an edge no file uses fails includes_follow_the_table.
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
	{ "source", "base" },
	{ "reader", "base findings kernels source" },
	{ "facts", "base data findings reader" },
	{ "target", "base data kernels" },
	{ "runtime", "base kernels target" },
	{ "plan", "base facts kernels reader target" },
	{ "checks",
	    "base data facts findings kernels plan reader runtime "
	    "target" },
	{ "lint",
	    "base checks data facts findings plan reader runtime source "
	    "target" },
	{ "report",
	    "base facts findings kernels lint plan reader runtime "
	    "target" },
	{ "cli",
	    "base checks data facts findings lint report runtime source "
	    "target" },
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

/*
 * Whether name (no folder) is a file of the lint layer in src/: lint.c,
 * lint.h, or lint-PART.c and lint-PART.h (PART without a "/").
 */
static bool
lint_file_name(const char *name)
{
	size_t n = strlen(name);

	if (strcmp(name, "lint.c") == 0 || strcmp(name, "lint.h") == 0)
		return true;
	return n > 7 && strncmp(name, "lint-", 5) == 0 &&
	    strchr(name, '/') == NULL && name[n - 2] == '.' &&
	    (name[n - 1] == 'c' || name[n - 1] == 'h');
}

/* Whether an include without a folder names a header of the lint layer
 * ("lint.h", "lint-impl.h"). */
static bool
lint_header(const char *inc)
{
	size_t n = strlen(inc);

	return lint_file_name(inc) && inc[n - 1] == 'h';
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
	if (strncmp(rel, "src/", 4) == 0 && lint_file_name(rel + 4))
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

		if (lint_header(inc)) {
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

/*
 * A source text as the preprocessor reads its directives (C11 5.1.1.2,
 * phases 1 to 3): trigraphs replaced, lines ending in a backslash joined
 * to the next, each comment one space. So "/ * * / #include", a "#" and
 * "include" split by a backslash-newline and "??=include" are all seen
 * as the compiler sees them.
 */
struct pp_text {
	/* the text, trigraphs replaced, unspliced */
	char *buf;
	/* the offsets in buf where a backslash-newline was */
	size_t *splice;
	size_t n_splice;
	/* where pp_next goes on, the newlines and splices before it */
	size_t pos, nl, k;
};

/* The character at s[*i] after phase 1 (a trigraph is one); *i moves on. */
static char
pp_char(const char *s, size_t *i)
{
	static const char from[] = "=/'()!<>-", to[] = "#\\^[]|{}~";
	const char *f;

	if (s[*i] == '?' && s[*i + 1] == '?' && s[*i + 2] != '\0' &&
	    (f = strchr(from, s[*i + 2])) != NULL) {
		*i += 3;
		return to[f - from];
	}
	return s[(*i)++];
}

/* pp_init: t over text (copied; NUL-terminated); free it with pp_free. */
static void
pp_init(struct pp_text *t, const char *text)
{
	struct strbuf b = STRBUF_INIT;
	size_t i = 0, cap = 0;

	memset(t, 0, sizeof *t);
	while (text[i] != '\0') {
		char c = pp_char(text, &i);
		size_t j = i + strspn(text + i, " \t\f\v\r");

		/* GCC joins a backslash and a newline with blanks between */
		if (c == '\\' && text[j] == '\n') {
			if (t->n_splice == cap) {
				cap = cap ? 2 * cap : 16;
				t->splice = xreallocarray(t->splice, cap,
				    sizeof *t->splice);
			}
			t->splice[t->n_splice++] = b.len;
			i = j + 1;
			continue;
		}
		strbuf_addc(&b, c);
	}
	t->buf = strbuf_detach(&b);
}

static void
pp_free(struct pp_text *t)
{
	free(t->buf);
	free(t->splice);
}

/*
 * pp_next: the next logical line of t into line (comments as one space,
 * string and character literals kept), and the physical line it starts
 * on into *lineno; 0 at the end of the text.
 */
static int
pp_next(struct pp_text *t, struct strbuf *line, unsigned *lineno)
{
	const char *b = t->buf;
	size_t i = t->pos;
	char quote = 0;
	bool block = false;

	if (b[i] == '\0')
		return 0;
	while (t->k < t->n_splice && t->splice[t->k] < i)
		t->k++;
	*lineno = (unsigned)(1 + t->nl + t->k);
	strbuf_reset(line);
	for (; b[i] != '\0'; i++) {
		if (block) {
			if (b[i] == '\n')
				t->nl++;
			else if (b[i] == '*' && b[i + 1] == '/') {
				block = false;
				i++;
			}
		} else if (b[i] == '\n') {
			t->nl++;
			i++;
			break;
		} else if (quote != 0) {
			if (b[i] == '\\' && b[i + 1] != '\0' &&
			    b[i + 1] != '\n')
				strbuf_addc(line, b[i++]);
			else if (b[i] == quote)
				quote = 0;
			strbuf_addc(line, b[i]);
		} else if (b[i] == '/' && b[i + 1] == '*') {
			block = true;
			i++;
			strbuf_addc(line, ' ');
		} else if (b[i] == '/' && b[i + 1] == '/') {
			i += strcspn(b + i, "\n") - 1;
			strbuf_addc(line, ' ');
		} else {
			if (b[i] == '"' || b[i] == '\'')
				quote = b[i];
			strbuf_addc(line, b[i]);
		}
	}
	t->pos = i;
	return 1;
}

/*
 * What a directive line includes: nothing, "name", <name>, or something
 * else (a macro, or nothing the checker can read).
 */
enum inc_kind {
	INC_NONE,
	INC_QUOTE,
	INC_ANGLE,
	INC_OTHER
};

#define BLANKS " \t\f\v\r"
#define IDENT_CHARS \
	"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_"

/*
 * parse_include: what the logical line includes, with #include,
 * #include_next or #import ("#" may be "%:"), as a whole word; the name
 * between the quotes or the brackets into name, or for INC_OTHER the rest
 * of the line (cut to size).
 */
static enum inc_kind
parse_include(const char *line, char *name, size_t size)
{
	const char *p = line + strspn(line, BLANKS), *end;
	size_t n;
	char close;

	if (*p == '#')
		p++;
	else if (p[0] == '%' && p[1] == ':')
		p += 2;
	else
		return INC_NONE;
	p += strspn(p, BLANKS);
	n = strspn(p, IDENT_CHARS);
	if (!(n == 7 && strncmp(p, "include", n) == 0) &&
	    !(n == 12 && strncmp(p, "include_next", n) == 0) &&
	    !(n == 6 && strncmp(p, "import", n) == 0))
		return INC_NONE;
	p += n;
	p += strspn(p, BLANKS);
	close = *p == '"' ? '"' : *p == '<' ? '>' : '\0';
	if (close != '\0' && (end = strchr(p + 1, close)) != NULL &&
	    (size_t)(end - p - 1) < size) {
		memcpy(name, p + 1, (size_t)(end - p - 1));
		name[end - p - 1] = '\0';
		return close == '"' ? INC_QUOTE : INC_ANGLE;
	}
	snprintf(name, size, "%s", p);
	name[strcspn(name, BLANKS)] = '\0';
	return INC_OTHER;
}

/* 1 when a segment of the path inc is "." or "..". */
static int
has_dot_segment(const char *inc)
{
	const char *p = inc;

	for (;;) {
		size_t n = strcspn(p, "/");

		if ((n == 1 && p[0] == '.') ||
		    (n == 2 && p[0] == '.' && p[1] == '.'))
			return 1;
		if (p[n] == '\0')
			return 0;
		p += n + 1;
	}
}

/*
 * angle_is_ours: 1 when #include <inc> is a project include: its first
 * segment is src, kernels or a layer's folder, or it names a file of src/
 * or kernels/ (the compiler has -I src and -I the top directory); a system
 * header is 0.
 */
static int
angle_is_ours(const char *top, const char *inc)
{
	size_t n = strcspn(inc, "/");
	char *path;
	int ours;

	if (inc[n] == '/' && n == 3 && strncmp(inc, "src", n) == 0)
		return 1;
	if (inc[n] == '/' && layer_index(inc, n) >= 0)
		return 1;
	path = xasprintf("%s/src/%s", top, inc);
	ours = file_exists(path);
	free(path);
	if (!ours) {
		path = xasprintf("%s/kernels/%s", top, inc);
		ours = file_exists(path);
		free(path);
	}
	return ours;
}

/*
 * include_problem: why the file rel may not have the include of kind kind
 * naming inc, or NULL when it may (a system header always may). The
 * message is static or in buf.
 */
static const char *
include_problem(const char *top, const char *rel, enum inc_kind kind,
    const char *inc, char *buf, size_t bufsz)
{
	static const char macro[] = "an include through a macro (or "
				    "unreadable) cannot be checked: name the "
				    "header in \"\" or <>";
	static const char dots[] = "an include may not have a \".\" or "
				   "\"..\" segment: name the folder of the "
				   "header";

	if (kind == INC_OTHER)
		return macro;
	if (inc[0] == '/')
		return "an include may not be an absolute path";
	if (has_dot_segment(inc))
		return dots;
	if (kind == INC_ANGLE && !angle_is_ours(top, inc))
		return NULL;
	return include_error(top, rel, inc, buf, bufsz);
}

/* shown: inc as the include wrote it ("inc", <inc>), into buf. */
static const char *
shown(enum inc_kind kind, const char *inc, char *buf, size_t size)
{
	if (kind == INC_QUOTE)
		snprintf(buf, size, "\"%s\"", inc);
	else if (kind == INC_ANGLE)
		snprintf(buf, size, "<%s>", inc);
	else
		snprintf(buf, size, "%s", inc);
	return buf;
}

/* What a scan of the tree saw: the exceptions and the edges it used. */
struct scan {
	bool used[N_EXCEPTIONS + 1];
	bool edge[N_LAYERS][N_LAYERS];
};

/* note_edge: mark in sc the edge of the allowed include inc of rel. */
static void
note_edge(struct scan *sc, const char *rel, const char *inc)
{
	int from = file_layer(rel), to = -1;
	const char *slash = strchr(inc, '/');

	if (slash == NULL && lint_header(inc))
		to = layer_index("lint", 4);
	else if (slash != NULL)
		to = layer_index(inc, (size_t)(slash - inc));
	if (sc != NULL && from >= 0 && to >= 0)
		sc->edge[from][to] = true;
}

/*
 * check_text: check the includes of text, the contents of the file rel;
 * the problems are appended to out, one a line. sc, when not NULL, gets
 * the exceptions and the edges used.
 */
static void
check_text(const char *top, const char *rel, const char *text, struct scan *sc,
    struct strbuf *out)
{
	struct strbuf line = STRBUF_INIT;
	struct pp_text t;
	char inc[256], buf[256], name[260];
	unsigned lineno;

	pp_init(&t, text);
	while (pp_next(&t, &line, &lineno)) {
		enum inc_kind kind = parse_include(strbuf_cstr(&line), inc,
		    sizeof inc);
		const char *why;

		if (kind == INC_NONE)
			continue;
		why = include_problem(top, rel, kind, inc, buf, sizeof buf);
		if (why == NULL &&
		    (kind == INC_QUOTE || angle_is_ours(top, inc)))
			note_edge(sc, rel, inc);
		if (why != NULL &&
		    !is_exception(rel, inc, sc != NULL ? sc->used : NULL))
			strbuf_addf(out, "  %s:%u: #include %s: %s\n", rel,
			    lineno, shown(kind, inc, name, sizeof name), why);
	}
	pp_free(&t);
	strbuf_free(&line);
}

/* The text of file path (the caller frees it). */
static char *
slurp_text(const char *path)
{
	struct strbuf text = STRBUF_INIT;
	FILE *fp = fopen(path, "r");
	char chunk[4096];
	size_t n;

	cr_assert(fp != NULL, "cannot open %s", path);
	while ((n = fread(chunk, 1, sizeof chunk, fp)) > 0)
		strbuf_add(&text, chunk, n);
	cr_assert(!ferror(fp), "cannot read %s", path);
	fclose(fp);
	return strbuf_detach(&text);
}

/* Check the includes of one file; the problems are appended to out. */
static void
check_file(const char *top, const char *path, struct scan *sc,
    struct strbuf *out)
{
	char *text = slurp_text(path);

	check_text(top, path + strlen(top) + 1, text, sc, out);
	free(text);
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
		{ "src/lint-split.c", "cli/session.h" },
		{ "src/lint-x/y.c", "base/util.h" },
		{ "src/report/report.c", "lint-impl.h" },
		{ "src/cli/session.c", "lint-impl.h" },
		{ "src/lint.c", "lint-x.c" },
	};
	static const char *const good[][2] = {
		{ "src/reader/gguf.c", "reader/gguf.h" },
		{ "src/reader/gguf.c", "kernels/ggml-types.h" },
		{ "src/reader/gguf.c", "config.h" },
		{ "src/main.c", "cli/options.h" },
		{ "src/report/report.h", "lint.h" },
		{ "src/lint-split.c", "lint-impl.h" },
		{ "src/lint-split.c", "checks/checks.h" },
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

/*
 * The reading of the includes, on planted files: every way the compiler
 * accepts to include a header must be seen, and what is no include (a
 * comment, a string, a system header) must not be.
 */
Test(layers, checker_reads_includes_as_the_compiler_does)
{
	static const char *const bad[][2] = {
		{ "src/reader/gguf.c", "#include <report/report.h>\n" },
		{ "src/reader/gguf.c",
		    "#include \"reader/../report/report.h\"\n" },
		{ "src/reader/gguf.c", "#include \"./reader/gguf.h\"\n" },
		{ "kernels/feed.c",
		    "#include \"kernels/../src/base/util.h\"\n" },
		{ "kernels/feed.c", "#include <lint.h>\n" },
		{ "kernels/feed.c", "#include <src/base/util.h>\n" },
		{ "src/lint.c", "/**/ #include \"cli/session.h\"\n" },
		{ "src/lint.c",
		    "/* one\n   two */ #include \"cli/session.h\"\n" },
		{ "src/lint.c", "#include_next \"cli/session.h\"\n" },
		{ "src/lint.c", "#import \"cli/session.h\"\n" },
		{ "src/lint.c", "#define H \"cli/session.h\"\n#include H\n" },
		{ "src/lint.c", "  #  include\t\"cli/session.h\"\n" },
		{ "src/lint.c", "#include\"cli/session.h\"\n" },
		{ "src/lint.c", "#\\\ninclude \"cli/session.h\"\n" },
		{ "src/lint.c", "#inc\\\nlude \"cli/session.h\"\n" },
		{ "src/lint.c", "%:include \"cli/session.h\"\n" },
		{ "src/lint.c", "?\?=include \"cli/session.h\"\n" },
		{ "src/lint.c", "#include \"/usr/include/cli/session.h\"\n" },
		{ "src/lint.c", "#include <cli/session.h> /* a comment */\n" },
	};
	static const char *const good[][2] = {
		{ "src/lint.c", "#include <stdio.h>\n#include <sys/stat.h>\n" },
		{ "src/lint.c", "#include <pcre2.h>\n#include \"config.h\"\n" },
		{ "src/lint.c", "// #include \"cli/session.h\"\n" },
		{ "src/lint.c", "/* #include \"cli/session.h\" */\n" },
		{ "src/lint.c", "/*\n#include \"cli/session.h\"\n*/\n" },
		{ "src/lint.c",
		    "const char *s = \"#include \\\"cli/x.h\\\"\";\n" },
		{ "src/lint.c",
		    "const char *s = \"/*\";\n#include <stdio.h>\n" },
		{ "src/lint.c", "#includes \"cli/session.h\"\n" },
		{ "src/lint.c", "#pragma include \"cli/session.h\"\n" },
		/* a stray "#" after a token: no directive (and no build) */
		{ "src/lint.c", "int x; /*\n*/ #include \"cli/session.h\"\n" },
		{ "src/reader/gguf.c", "#include <reader/gguf.h>\n" },
		{ "src/main.c", "/**/ # include \"cli/session.h\"\n" },
		{ "kernels/feed.c", "#include \"kernels-impl.h\"\n" },
	};
	const char *top = test_srcdir();
	struct strbuf out = STRBUF_INIT;
	size_t i;

	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		check_text(top, bad[i][0], bad[i][1], NULL, &out);
		cr_expect(out.len > 0, "%s with this text was accepted:\n%s",
		    bad[i][0], bad[i][1]);
		strbuf_reset(&out);
	}
	for (i = 0; i < sizeof good / sizeof good[0]; i++) {
		check_text(top, good[i][0], good[i][1], NULL, &out);
		cr_expect(out.len == 0, "%s with this text:\n%s\nrejected:\n%s",
		    good[i][0], good[i][1], strbuf_cstr(&out));
		strbuf_reset(&out);
	}
	/* the line of a problem is the physical line the directive is on */
	check_text(top, "src/lint.c", "/*\n\n*/\n#\\\n include \"cli/x.h\"\n",
	    NULL, &out);
	cr_expect(strstr(strbuf_cstr(&out), "src/lint.c:4:") != NULL,
	    "the problem is on the wrong line: %s", strbuf_cstr(&out));
	strbuf_free(&out);
}

Test(layers, includes_follow_the_table)
{
	const char *top = test_srcdir();
	struct strbuf out = STRBUF_INIT;
	struct scan *sc = xcalloc(1, sizeof *sc);
	char **paths = NULL;
	size_t i, j, n = 0;

	collect(top, "src", &paths, &n);
	collect(top, "kernels", &paths, &n);
	cr_assert(n > 50, "only %zu files below %s/src and %s/kernels", n, top,
	    top);
	for (i = 0; i < n; i++)
		check_file(top, paths[i], sc, &out);
	for (i = 0; exceptions[i].file != NULL; i++)
		if (!sc->used[i])
			strbuf_addf(&out,
			    "  %s no longer includes \"%s\": remove its "
			    "exception from tests/test_layers.c\n",
			    exceptions[i].file, exceptions[i].include);
	/* the lists are the edges the code has: an unused one goes */
	for (i = 0; i < N_LAYERS; i++)
		for (j = 0; j < N_LAYERS; j++)
			if (i != j && layer_may((int)i, (int)j) &&
			    !sc->edge[i][j])
				strbuf_addf(&out,
				    "  no file of %s includes %s: take it "
				    "out of %s's list\n",
				    layers[i].name, layers[j].name,
				    layers[i].name);
	cr_assert(out.len == 0,
	    "includes that break the layering (see HACKING.md):\n%s",
	    strbuf_cstr(&out));
	strbuf_free(&out);
	free(sc);
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

/*
 * src/plan's own layers, bottom-up, by file: the replicas of ggml
 * (allocator, scheduler, Vulkan's reordering), the plan's data (plan.h,
 * the weight forms), the planner's inputs and arithmetic, llama.cpp's
 * facts the builders share, the graph builders, the fitted estimates, and
 * the orchestrators on top (llama.cpp's plan, SKaiNET's and the
 * suggestions, the companions). A file is in the layer whose pattern
 * names it (NAME.c, NAME.h, NAME-impl.h; "graph*": any name that starts
 * so); it may include its own layer's headers and those of its list. An
 * unused edge fails too. HACKING.md shows the same rows, each as
 * "| plan/NAME | LIST |".
 */
static const struct plan_layer {
	const char *name;
	const char *files; /* space-separated patterns */
	const char *may;
} plan_layers[] = {
	{ "replica", "galloc sched vkorder cudaopt", "" },
	{ "data", "plan resolve", "" },
	{ "planner", "plan-impl.h", "data" },
	{ "llfacts", "llfacts", "planner" },
	{ "graph", "graph*", "replica planner llfacts" },
	{ "fit", "fit*", "planner llfacts" },
	{ "orchestrator", "plan-llama plan-companion plan.c",
	    "planner llfacts graph fit" },
};
#define N_PLAN_LAYERS (sizeof plan_layers / sizeof plan_layers[0])

/* Whether the space-separated list has the word w (n bytes). */
static bool
has_word(const char *list, const char *w, size_t n)
{
	while (*list != '\0') {
		size_t len = strcspn(list, " ");

		if (len == n && strncmp(list, w, n) == 0)
			return true;
		list += len;
		list += strspn(list, " ");
	}
	return false;
}

/* Whether pattern p (len bytes) names file base, whose stem is stem:
 * by its whole name (pass 0), by its stem or a prefix "name*" (pass 1). */
static bool
plan_names(const char *p, size_t len, const char *base, const char *stem,
    int pass)
{
	if (pass == 0)
		return len == strlen(base) && strncmp(p, base, len) == 0;
	return (len == strlen(stem) && strncmp(p, stem, len) == 0) ||
	    (p[len - 1] == '*' && strncmp(p, stem, len - 1) == 0);
}

/* The plan layer of file base (a name in src/plan: "graph-ops.c"), or -1:
 * a pattern naming the whole file first ("plan.c"), then its stem. */
static int
plan_layer_of(const char *base)
{
	size_t i, n = strcspn(base, ".");
	char stem[128];
	int pass;

	snprintf(stem, sizeof stem, "%.*s", (int)n, base);
	if (n > 5 && strcmp(stem + n - 5, "-impl") == 0)
		stem[n - 5] = '\0';
	for (pass = 0; pass < 2; pass++)
		for (i = 0; i < N_PLAN_LAYERS; i++) {
			const char *p = plan_layers[i].files;

			while (*p != '\0') {
				size_t len = strcspn(p, " ");

				if (plan_names(p, len, base, stem, pass))
					return (int)i;
				p += len;
				p += strspn(p, " ");
			}
		}
	return -1;
}

/* The problems of src/plan file base's includes of plan/ in text, into
 * out; the edges used into edge. */
static void
plan_check_text(const char *base, const char *text, bool edge[][N_PLAN_LAYERS],
    struct strbuf *out)
{
	int from = plan_layer_of(base), to;
	struct strbuf line = STRBUF_INIT;
	struct pp_text t;
	char inc[256];
	unsigned lineno;

	if (from < 0)
		strbuf_addf(out, "  src/plan/%s is in no plan layer\n", base);
	pp_init(&t, text);
	while (from >= 0 && pp_next(&t, &line, &lineno)) {
		if (parse_include(strbuf_cstr(&line), inc, sizeof inc) ==
			INC_NONE ||
		    strncmp(inc, "plan/", 5) != 0)
			continue;
		to = plan_layer_of(inc + 5);
		if (to < 0 ||
		    (to != from &&
			!has_word(plan_layers[from].may, plan_layers[to].name,
			    strlen(plan_layers[to].name))))
			strbuf_addf(out,
			    "  src/plan/%s:%u: #include \"%s\": "
			    "%s may not include %s\n",
			    base, lineno, inc, plan_layers[from].name,
			    to < 0 ? "a file of no layer" :
				     plan_layers[to].name);
		else if (edge != NULL)
			edge[from][to] = true;
	}
	pp_free(&t);
	strbuf_free(&line);
}

Test(layers, plan_files_follow_their_layers)
{
	static bool edge[N_PLAN_LAYERS][N_PLAN_LAYERS];
	const char *top = test_srcdir();
	struct strbuf out = STRBUF_INIT;
	char **paths = NULL;
	size_t i, j, n = 0;

	collect(top, "src/plan", &paths, &n);
	cr_assert(n > 20, "only %zu files below %s/src/plan", n, top);
	for (i = 0; i < n; i++) {
		char *text = slurp_text(paths[i]);

		plan_check_text(strrchr(paths[i], '/') + 1, text, edge, &out);
		free(text);
	}
	for (i = 0; i < N_PLAN_LAYERS; i++)
		for (j = 0; j < N_PLAN_LAYERS; j++)
			if (i != j &&
			    has_word(plan_layers[i].may, plan_layers[j].name,
				strlen(plan_layers[j].name))) {
				if (j > i)
					strbuf_addf(&out,
					    "  %s may include "
					    "%s, above it\n",
					    plan_layers[i].name,
					    plan_layers[j].name);
				if (!edge[i][j])
					strbuf_addf(&out,
					    "  no file of %s "
					    "includes %s\n",
					    plan_layers[i].name,
					    plan_layers[j].name);
			}
	cr_assert(out.len == 0, "src/plan's layering:\n%s", strbuf_cstr(&out));
	strbuf_free(&out);
	test_tree_files_free(paths, n);
}

Test(layers, plan_checker_rejects_planted_includes)
{
	static const char *const bad[][2] = {
		{ "graph-ops.c", "#include \"plan/plan-llama.h\"\n" },
		{ "graph.c", "#include \"plan/fit-impl.h\"\n" },
		{ "fit-gpu.c", "#include \"plan/graph.h\"\n" },
		{ "llfacts.c", "#include \"plan/graph-impl.h\"\n" },
		{ "sched.c", "#include \"plan/plan-impl.h\"\n" },
		{ "newfile.c", "" },
	};
	static const char *const good[][2] = {
		{ "graph-ops.c", "#include \"plan/llfacts-impl.h\"\n" },
		{ "plan-llama.c", "#include \"plan/graph.h\"\n" },
		{ "vkorder.c", "#include \"plan/sched.h\"\n" },
	};
	struct strbuf out = STRBUF_INIT;
	size_t i;

	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		plan_check_text(bad[i][0], bad[i][1], NULL, &out);
		cr_expect(out.len > 0, "%s with %s accepted", bad[i][0],
		    bad[i][1]);
		strbuf_reset(&out);
	}
	for (i = 0; i < sizeof good / sizeof good[0]; i++) {
		plan_check_text(good[i][0], good[i][1], NULL, &out);
		cr_expect(out.len == 0, "%s with %s: %s", good[i][0],
		    good[i][1], strbuf_cstr(&out));
		strbuf_reset(&out);
	}
	strbuf_free(&out);
}

/* HACKING.md shows src/plan's layers as "| plan/NAME | LIST |" rows. */
Test(layers, hacking_md_shows_the_plan_layers)
{
	char *path = xasprintf("%s/HACKING.md", test_srcdir());
	char *text = slurp_text(path);
	size_t i;

	for (i = 0; i < N_PLAN_LAYERS; i++) {
		char *want = xasprintf("\n| plan/%s | %s | %s |\n",
		    plan_layers[i].name, plan_layers[i].files,
		    *plan_layers[i].may ? plan_layers[i].may : "-");

		cr_expect(strstr(text, want) != NULL,
		    "HACKING.md lacks the row %s", want + 1);
		free(want);
	}
	free(text);
	free(path);
}
