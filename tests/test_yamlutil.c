/*
 * test_yamlutil.c - the YAML documents of the built-in data files, parsed
 * at build time (build-aux/yaml2c, struct ydoc_pre): each equals what
 * libyaml parses from the file's text, node for node, and only the exact
 * built-in text takes the prebuilt path.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <criterion/redirect.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/builtin.h"
#include "findings/catalog.h"
#include "base/util.h"
#include "data/yamlutil.h"

static void
assert_marks_equal(const yaml_mark_t *a, const yaml_mark_t *b,
    const char *what, size_t i)
{
	cr_assert(a->index == b->index && a->line == b->line &&
	    a->column == b->column, "%s: node %zu: mark %zu:%zu:%zu, "
	    "prebuilt %zu:%zu:%zu", what, i, a->index, a->line, a->column,
	    b->index, b->line, b->column);
}

static void
assert_nodes_equal(const yaml_node_t *a, const yaml_node_t *b,
    const char *what, size_t i)
{
	cr_assert_eq(a->type, b->type, "%s: node %zu: type", what, i);
	cr_assert((a->tag == NULL) == (b->tag == NULL) && (a->tag == NULL ||
	    strcmp((const char *)a->tag, (const char *)b->tag) == 0),
	    "%s: node %zu: tag", what, i);
	assert_marks_equal(&a->start_mark, &b->start_mark, what, i);
	assert_marks_equal(&a->end_mark, &b->end_mark, what, i);
	switch (a->type) {
	case YAML_SCALAR_NODE:
		cr_assert_eq(a->data.scalar.length, b->data.scalar.length,
		    "%s: node %zu: length", what, i);
		cr_assert(memcmp(a->data.scalar.value, b->data.scalar.value,
		    a->data.scalar.length) == 0 &&
		    b->data.scalar.value[b->data.scalar.length] == '\0',
		    "%s: node %zu: value", what, i);
		cr_assert_eq(a->data.scalar.style, b->data.scalar.style);
		break;
	case YAML_SEQUENCE_NODE:
		cr_assert_eq(a->data.sequence.items.top -
		    a->data.sequence.items.start, b->data.sequence.items.top -
		    b->data.sequence.items.start, "%s: node %zu: items", what,
		    i);
		cr_assert(memcmp(a->data.sequence.items.start,
		    b->data.sequence.items.start,
		    (size_t)(a->data.sequence.items.top -
		    a->data.sequence.items.start) *
		    sizeof(yaml_node_item_t)) == 0, "%s: node %zu: items",
		    what, i);
		cr_assert_eq(a->data.sequence.style, b->data.sequence.style);
		break;
	case YAML_MAPPING_NODE:
		cr_assert_eq(a->data.mapping.pairs.top -
		    a->data.mapping.pairs.start, b->data.mapping.pairs.top -
		    b->data.mapping.pairs.start, "%s: node %zu: pairs", what,
		    i);
		cr_assert(memcmp(a->data.mapping.pairs.start,
		    b->data.mapping.pairs.start,
		    (size_t)(a->data.mapping.pairs.top -
		    a->data.mapping.pairs.start) *
		    sizeof(yaml_node_pair_t)) == 0, "%s: node %zu: pairs",
		    what, i);
		cr_assert_eq(a->data.mapping.style, b->data.mapping.style);
		break;
	default:
		cr_assert_fail("%s: node %zu: type %d", what, i, (int)a->type);
	}
}

/* Every built-in file: the prebuilt document is libyaml's parse of it. */
Test(yamlutil, prebuilt_documents_equal_the_parse)
{
	struct gl_error err;
	size_t i, k, nodes = 0;

	cr_assert(builtin_n_files >= 30);
	for (i = 0; i < builtin_n_files; i++) {
		const struct builtin_file *f = &builtin_files[i];
		struct ydoc a, b;
		size_t n;

		cr_assert(ydoc_parse(&a, f->name, f->data, f->len, &err) == 0,
		    "%s", err.msg);
		cr_assert(ydoc_load(&b, f->name, f->data, f->len, &err) == 0,
		    "%s", err.msg);
		cr_assert(!a.prebuilt && b.prebuilt, "%s", f->name);
		n = (size_t)(a.doc.nodes.top - a.doc.nodes.start);
		cr_assert_eq(n, (size_t)(b.doc.nodes.top - b.doc.nodes.start),
		    "%s: node count", f->name);
		for (k = 0; k < n; k++)
			assert_nodes_equal(&a.doc.nodes.start[k],
			    &b.doc.nodes.start[k], f->name, k);
		cr_assert(a.doc.start_implicit == b.doc.start_implicit &&
		    a.doc.end_implicit == b.doc.end_implicit);
		assert_marks_equal(&a.doc.start_mark, &b.doc.start_mark,
		    f->name, n);
		assert_marks_equal(&a.doc.end_mark, &b.doc.end_mark, f->name,
		    n);
		nodes += n;
		ydoc_free(&a);
		ydoc_free(&b);
	}
	cr_assert(nodes > 3000, "%zu nodes in all", nodes);
}

/* ydoc_parse of text: "" when it is one document, else the error. */
static const char *
parse_error(const char *text)
{
	static struct gl_error err;
	struct ydoc d;

	err.msg[0] = '\0';
	if (ydoc_parse(&d, "t.yaml", text, strlen(text), &err) == 0) {
		ydoc_free(&d);
		return "";
	}
	cr_expect_eq(err.kind, GL_ERR_PARSE, "%s", err.msg);
	return err.msg;
}

/*
 * A file is exactly one document: comments or a "..." may follow it; a
 * second document, even an empty one, or text libyaml cannot parse may
 * not, and the error says where and what libyaml expected.
 */
Test(yamlutil, text_after_the_document)
{
	cr_expect_str_eq(parse_error("a: 1\n"), "");
	cr_expect_str_eq(parse_error("a: 1\n# the end\n"), "");
	cr_expect_str_eq(parse_error("a: 1\n...\n# the end\n"), "");
	cr_expect_str_eq(parse_error("a: 1\n---\n[ : : {"), "t.yaml:3:3: "
	    "invalid YAML after the first document: did not find expected "
	    "node content");
	cr_expect_str_eq(parse_error("a: 1\n...\nb: [\n"), "t.yaml:3:1: "
	    "invalid YAML after the first document: did not find expected "
	    "<document start>");
	/* at the second document's "---", even when it is empty (its root
	 * is then past the end of the text) */
	cr_expect_str_eq(parse_error("a: 1\n--- b\n"), "t.yaml:2:1: "
	    "expected one YAML document, found another");
	cr_expect_str_eq(parse_error("a: 1\n---\n"), "t.yaml:2:1: "
	    "expected one YAML document, found another");
	cr_expect_str_eq(parse_error("a: 1\n# c\n...\n--- # d\n\nb: 2\n"),
	    "t.yaml:4:1: expected one YAML document, found another");
	cr_expect_str_eq(parse_error("a: [1\n"), "t.yaml:2:1: invalid YAML: "
	    "did not find expected ',' or ']'");
}

/* Text that differs from a built-in file in one byte, or is a prefix of
 * one, is parsed: what it says is what loads. */
Test(yamlutil, other_text_is_parsed)
{
	const struct builtin_file *f = NULL;
	struct gl_error err;
	struct catalog cat;
	struct ydoc d;
	char *text, *p;
	size_t i;

	for (i = 0; i < builtin_n_files; i++)
		if (strcmp(builtin_files[i].name, "rules/K-kernels.yaml") == 0)
			f = &builtin_files[i];
	cr_assert(f != NULL);
	text = xstrndup(f->data, f->len);
	cr_assert(ydoc_load(&d, "k.yaml", text, f->len, &err) == 0);
	cr_assert(d.prebuilt, "the same bytes anywhere take the table");
	ydoc_free(&d);
	cr_assert(ydoc_load(&d, "k.yaml", text, f->len - 1, &err) == 0);
	cr_assert(!d.prebuilt, "a prefix is parsed");
	ydoc_free(&d);
	/* the rule's severity, edited in the copy, is what the catalogue
	 * holds */
	p = strstr(text, "severity: warning");
	cr_assert(p != NULL);
	memcpy(p, "severity: info   ", 17);
	cr_assert(ydoc_load(&d, "k.yaml", text, f->len, &err) == 0);
	cr_assert(!d.prebuilt);
	ydoc_free(&d);
	memset(&cat, 0, sizeof cat);
	cr_assert(catalog_add_yaml(&cat, "k.yaml", text, f->len, &err) == 0,
	    "%s", err.msg);
	cr_assert(cat.n >= 1 && cat.rules[0].severity == SEV_INFO);
	catalog_free(&cat);
	free(text);
}

/* ---- ydoc_fields: the field kinds --------------------------------------- */

struct other {
	uint64_t n;
};

struct kinds {
	char *copy;
	const char *borrowed;
	bool flag;
	uint8_t small;
	uint32_t mid;
	long wide;
	uint64_t bytes;
	double share;
	double ratio;
	enum { KIND_A, KIND_B, KIND_C } which;
	int custom;
	struct other *other;	/* where "other" goes (at) */
};

static bool
two_letters(const char *s)
{
	return strlen(s) == 2;
}

static int
set_custom(struct ydoc *d, yaml_node_t *n, void *dst, struct gl_error *err)
{
	(void)d;
	(void)err;
	*(int *)dst = (int)strlen(ydoc_scalar(n));
	return 0;
}

static void *
other_of(void *o)
{
	return ((struct kinds *)o)->other;
}

static const char *const which_names[] = { "a", "b", "c", NULL };

#define K(kind, member) YDOC_##kind##_AT(struct kinds, member)

static const struct ydoc_field kind_fields[] = {
	{ "copy", true, K(STRDUP, copy) },
	{ "borrowed", false, K(STRING, borrowed), .valid = two_letters,
	    .expect = "expected two letters" },
	{ "flag", false, K(BOOL, flag) },
	{ "small", false, K(UINT, small), .min = 2, .max = 1000,
	    .expect = "expected 2 to 255" },
	{ "mid", false, K(UINT, mid), .max = UINT64_MAX },
	{ "wide", false, K(UINT, wide), .max = 1000000000 },
	{ "bytes", false, K(SIZE, bytes) },
	{ "share", false, K(NUMBER, share), .lo = 0, .hi = 1,
	    .expect = "expected a share" },
	{ "ratio", false, K(NUMBER, ratio), .lo = -1, .hi = 1 },
	{ "which", false, K(ENUM, which), .names = which_names },
	{ "custom", false, .set = set_custom, YDOC_AT(struct kinds, custom) },
	{ "other", false, .at = other_of, YDOC_UINT_AT(struct other, n),
	    .max = 7 },
	{ "later", false, .kind = YDOC_IGNORE },
};

#undef K

/* Parse text into k (zeroed first); returns ydoc_fields' result. */
static int
kinds_parse(const char *text, struct kinds *k, struct gl_error *err)
{
	static struct other other;
	struct ydoc d;
	int rc;

	free(k->copy);
	memset(k, 0, sizeof *k);
	other.n = 0;
	k->other = &other;
	cr_assert(ydoc_parse(&d, "k.yaml", text, strlen(text), err) == 0);
	rc = ydoc_fields(&d, ydoc_root(&d), kind_fields, sizeof kind_fields /
	    sizeof kind_fields[0], k, err);
	if (rc == 0 && k->borrowed != NULL)	/* borrowed: gone after */
		k->borrowed = strcmp(k->borrowed, "ab") == 0 ? "ab" : "?";
	ydoc_free(&d);
	return rc;
}

static void
kinds_error(const char *text, const char *msg)
{
	struct kinds k = { 0 };
	struct gl_error err;

	cr_expect(kinds_parse(text, &k, &err) < 0, "accepted %s", text);
	cr_expect_str_eq(err.msg, msg, "for %s", text);
	free(k.copy);
}

Test(yamlutil, fields_store_each_kind_at_its_member)
{
	struct kinds k = { 0 };
	struct gl_error err;

	cr_assert(kinds_parse("copy: text\nborrowed: ab\nflag: yes\n"
	    "small: 255\nmid: 4294967295\nwide: 1000000000\nbytes: 1.5 KiB\n"
	    "share: 1\nratio: -0.5\nwhich: c\ncustom: four\nother: 7\n"
	    "later: [x]\n", &k,
	    &err) == 0, "%s", err.msg);
	cr_expect_str_eq(k.copy, "text");
	cr_expect_str_eq(k.borrowed, "ab");
	cr_expect(k.flag);
	cr_expect_eq(k.small, 255);
	cr_expect_eq(k.mid, UINT32_MAX);
	cr_expect_eq(k.wide, 1000000000L);
	cr_expect_eq(k.bytes, 1536);
	cr_expect(k.share == 1.0);
	cr_expect(k.ratio == -0.5);
	cr_expect_eq(k.which, KIND_C);
	cr_expect_eq(k.custom, 4);
	cr_expect_eq(k.other->n, 7);
	cr_assert(kinds_parse("copy: x\nwhich: a\n", &k, &err) == 0);
	cr_expect_eq(k.which, KIND_A);
	cr_expect_eq(k.small, 0, "a field not given is left alone");
	free(k.copy);
}

Test(yamlutil, fields_reject_with_the_kinds_messages)
{
	kinds_error("copy: ''\n", "k.yaml:1:7: expected a non-empty string");
	kinds_error("copy: [x]\n", "k.yaml:1:7: expected a non-empty string");
	kinds_error("copy: x\nborrowed: abc\n",
	    "k.yaml:2:11: expected two letters");
	kinds_error("copy: x\nflag: 2\n", "k.yaml:2:7: expected true or false");
	kinds_error("copy: x\nsmall: 1\n", "k.yaml:2:8: expected 2 to 255");
	/* within min..max, but more than a uint8_t holds */
	kinds_error("copy: x\nsmall: 256\n", "k.yaml:2:8: expected 2 to 255");
	kinds_error("copy: x\nsmall: -3\n",
	    "k.yaml:2:8: expected a non-negative integer");
	kinds_error("copy: x\nmid: 4294967296\n",
	    "k.yaml:2:6: expected a non-negative integer");
	kinds_error("copy: x\nwide: 1000000001\n",
	    "k.yaml:2:7: expected a non-negative integer");
	kinds_error("copy: x\nbytes: 2 XB\n", "k.yaml:2:8: expected a size "
	    "such as \"2 GiB\", \"700 MiB\" or a number of bytes");
	kinds_error("copy: x\nshare: 0\n", "k.yaml:2:8: expected a share");
	kinds_error("copy: x\nshare: 1.5\n", "k.yaml:2:8: expected a share");
	kinds_error("copy: x\nshare: lots\n", "k.yaml:2:8: expected a number");
	/* a range is checked without an expect too, with the kind's words */
	kinds_error("copy: x\nratio: 1.5\n",
	    "k.yaml:2:8: expected a number above -1 and at most 1");
	kinds_error("copy: x\nratio: -1\n",
	    "k.yaml:2:8: expected a number above -1 and at most 1");
	kinds_error("copy: x\nwhich: d\n",
	    "k.yaml:2:8: expected one of: a, b, c");
	kinds_error("copy: x\nother: 8\n",
	    "k.yaml:2:8: expected a non-negative integer");
	kinds_error("flag: no\n", "k.yaml:1:1: missing required key 'copy'");
	kinds_error("copy: x\ncopy: y\n", "k.yaml:2:1: duplicate key 'copy'");
}

#define WIDE_FIELDS 70		/* more than ydoc_fields ever had room for */

/* ydoc_fields over a table of WIDE_FIELDS integers k0 ... k69, of which
 * k66 is required: 0, or -1 with the error in err. */
static int
wide_parse(const char *text, struct gl_error *err)
{
	static char keys[WIDE_FIELDS][8];
	struct ydoc_field f[WIDE_FIELDS];
	uint64_t v[WIDE_FIELDS];
	struct ydoc d;
	size_t i;
	int rc;

	memset(f, 0, sizeof f);
	for (i = 0; i < WIDE_FIELDS; i++) {
		snprintf(keys[i], sizeof keys[i], "k%zu", i);
		f[i].key = keys[i];
		f[i].kind = YDOC_UINT;
		f[i].off = i * sizeof v[0];
		f[i].size = sizeof v[0];
		f[i].max = UINT64_MAX;
	}
	f[66].required = true;
	cr_assert(ydoc_parse(&d, "w.yaml", text, strlen(text), err) == 0);
	rc = ydoc_fields(&d, ydoc_root(&d), f, WIDE_FIELDS, v, err);
	ydoc_free(&d);
	return rc;
}

/* Every field of a table is checked, however many it has. */
Test(yamlutil, fields_of_a_wide_table)
{
	struct gl_error err;

	cr_expect(wide_parse("k0: 1\nk66: 2\nk69: 3\n", &err) == 0, "%s",
	    err.msg);
	cr_expect(wide_parse("k66: 1\nk65: 2\nk65: 3\n", &err) < 0,
	    "a duplicate key beyond the 64th field");
	cr_expect_str_eq(err.msg, "w.yaml:3:1: duplicate key 'k65'");
	cr_expect(wide_parse("k0: 1\nk69: 3\n", &err) < 0,
	    "a missing required key beyond the 64th field");
	cr_expect_str_eq(err.msg, "w.yaml:1:1: missing required key 'k66'");
	cr_expect(wide_parse("k1: 1\nk66: 2\nk1: 3\n", &err) < 0);
	cr_expect_str_eq(err.msg, "w.yaml:3:1: duplicate key 'k1'");
}

/* ---- a table that cannot be right ------------------------------------- */

static int
set_nothing(struct ydoc *d, yaml_node_t *n, void *dst, struct gl_error *err)
{
	(void)d;
	(void)n;
	(void)dst;
	(void)err;
	return 0;
}

static const char *const no_names[] = { NULL };

/* Entries no table may have: each one alone is a bug. */
static const struct ydoc_field bad_fields[] = {
	{ "size4", false, .kind = YDOC_SIZE, .size = 4 },
	{ "number4", false, .kind = YDOC_NUMBER, .size = 4, .lo = 0, .hi = 1 },
	{ "bool4", false, .kind = YDOC_BOOL, .size = 4 },
	{ "strdup4", false, .kind = YDOC_STRDUP, .size = 4 },
	{ "uint3", false, .kind = YDOC_UINT, .size = 3, .max = 9 },
	{ "custom", false, .kind = YDOC_CUSTOM },
	{ "set", false, .kind = YDOC_BOOL, .size = sizeof(bool),
	    .set = set_nothing },
	{ "max0", false, .kind = YDOC_UINT, .size = 8 },
	{ "max_below_min", false, .kind = YDOC_UINT, .size = 8, .min = 5,
	    .max = 4 },
	{ "no_range", false, .kind = YDOC_NUMBER, .size = sizeof(double) },
	{ "no_names", false, .kind = YDOC_ENUM, .size = 4, .names = no_names },
	{ "bool_expect", false, .kind = YDOC_BOOL, .size = sizeof(bool),
	    .expect = "expected yes" },
	{ NULL, false, .kind = YDOC_IGNORE },
};

/* ydoc_fields with bad_fields[i] and a good field over a document that
 * gives only the good one: the bad entry aborts all the same. */
static void
bad_table(size_t i)
{
	static const char text[] = "good: 1\n";
	struct ydoc_field f[2] = {
		{ "good", false, .kind = YDOC_UINT, .size = 8, .max = 9 },
	};
	uint64_t v[2] = { 0 };
	struct gl_error err;
	struct ydoc d;

	cr_assert(i < sizeof bad_fields / sizeof bad_fields[0]);
	f[1] = bad_fields[i];
	cr_redirect_stderr();	/* the bug's message */
	cr_assert(ydoc_parse(&d, "b.yaml", text, strlen(text), &err) == 0);
	cr_expect(ydoc_fields(&d, ydoc_root(&d), f, 2, v, &err) == 0,
	    "%s", err.msg);
	ydoc_free(&d);
	cr_assert_fail("the table with '%s' was taken", bad_fields[i].key);
}

#define BAD_TABLE(name, i) \
	Test(yamlutil, bad_table_##name, .signal = SIGABRT) { bad_table(i); }

BAD_TABLE(size_of_4_bytes, 0)
BAD_TABLE(number_of_4_bytes, 1)
BAD_TABLE(bool_of_4_bytes, 2)
BAD_TABLE(strdup_of_4_bytes, 3)
BAD_TABLE(uint_of_3_bytes, 4)
BAD_TABLE(custom_without_set, 5)
BAD_TABLE(set_of_another_kind, 6)
BAD_TABLE(uint_with_max_0, 7)
BAD_TABLE(uint_with_max_below_min, 8)
BAD_TABLE(number_without_range, 9)
BAD_TABLE(enum_without_names, 10)
BAD_TABLE(bool_with_expect, 11)
BAD_TABLE(no_key, 12)

/* The good field alone is taken: what aborts above is the bad entry. */
Test(yamlutil, bad_table_control)
{
	static const char text[] = "good: 1\n";
	struct ydoc_field f = { "good", false, .kind = YDOC_UINT, .size = 8,
		.max = 9 };
	uint64_t v = 0;
	struct gl_error err;
	struct ydoc d;

	cr_assert(ydoc_parse(&d, "b.yaml", text, strlen(text), &err) == 0);
	cr_expect(ydoc_fields(&d, ydoc_root(&d), &f, 1, &v, &err) == 0,
	    "%s", err.msg);
	cr_expect_eq(v, 1);
	ydoc_free(&d);
}
