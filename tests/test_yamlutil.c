/*
 * test_yamlutil.c - the YAML documents of the built-in data files, parsed
 * at build time (build-aux/yaml2c, struct ydoc_pre): each equals what
 * libyaml parses from the file's text, node for node, and only the exact
 * built-in text takes the prebuilt path.
 */
#include "config.h"

#include <criterion/criterion.h>
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
