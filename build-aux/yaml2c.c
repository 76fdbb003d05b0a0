/*
 * yaml2c.c - write src/data/builtin-data.c: the data files (rules/, profiles/,
 * kernels/ YAML) as byte arrays, and each one's YAML document as libyaml
 * parsed it, here at build time, in a form without pointers (struct
 * ydoc_pre, yamlutil.h). ydoc_load rebuilds a document from it instead of
 * parsing the text again, which is most of gguflint's start-up time.
 *
 * Usage: yaml2c SRCDIR NAME... > builtin-data.c   (NAME relative to SRCDIR)
 * A file that is not exactly one valid YAML document fails the build.
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

static void die(const char *fmt, ...)
    __attribute__((format(printf, 1, 2), noreturn));

static void
die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("yaml2c: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	exit(1);
}

static char *
slurp(const char *path, size_t *len)
{
	FILE *fp = fopen(path, "rb");
	char *buf = NULL;
	size_t cap = 0, n;

	if (fp == NULL)
		die("%s: %s", path, strerror(errno));
	*len = 0;
	do {
		if (*len + 65536 + 1 > cap) {
			cap = 2 * cap + 65536 + 1;
			if ((buf = realloc(buf, cap)) == NULL)
				die("out of memory");
		}
		n = fread(buf + *len, 1, 65536, fp);
		*len += n;
	} while (n > 0);
	if (ferror(fp))
		die("%s: read error", path);
	fclose(fp);
	buf[*len] = '\0';
	return buf;
}

/* Bytes as a C initializer, 16 to a line, with a NUL at the end. */
static void
put_bytes(const char *type, const char *name, int i, const unsigned char *p,
    size_t n)
{
	size_t k;

	printf("static const %s %s_%d[] = {", type, name, i);
	for (k = 0; k < n; k++)
		printf("%s0x%02x,", k % 16 ? "" : "\n", p[k]);
	printf("\n0x00 };\n");
}

/* The string pool of one document: scalar values and tags. */
struct pool {
	unsigned char *p;
	size_t n, cap;
};

static unsigned long
pool_add(struct pool *pl, const unsigned char *s, size_t n)
{
	size_t at = pl->n;

	if (s == NULL)
		return 0xffffffffUL;	/* no tag */
	if (pl->n + n + 1 > pl->cap) {
		pl->cap = 2 * (pl->n + n + 1);
		if ((pl->p = realloc(pl->p, pl->cap)) == NULL)
			die("out of memory");
	}
	memcpy(pl->p + pl->n, s, n);
	pl->p[pl->n + n] = '\0';
	pl->n += n + 1;
	return (unsigned long)at;
}

static void
put_mark(const yaml_mark_t *m)
{
	if (m->index > 0xffffffffUL)
		die("a data file over 4 GiB");
	printf(" { %zu, %zu, %zu },", m->index, m->line, m->column);
}

/* Parse text as exactly one YAML document into doc, or fail the build. */
static void
load_document(const char *name, const char *text, size_t len,
    yaml_document_t *doc)
{
	yaml_parser_t parser;
	yaml_document_t extra;

	yaml_parser_initialize(&parser);
	yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
	if (!yaml_parser_load(&parser, doc))
		die("%s:%zu:%zu: invalid YAML: %s", name,
		    parser.problem_mark.line + 1,
		    parser.problem_mark.column + 1,
		    parser.problem ? parser.problem : "parse error");
	if (!yaml_parser_load(&parser, &extra))
		die("%s: invalid YAML after the first document", name);
	if (yaml_document_get_root_node(&extra) != NULL)
		die("%s: more than one YAML document", name);
	yaml_document_delete(&extra);
	yaml_parser_delete(&parser);
}

/* Every sequence's items, then every mapping's pairs, in node order. */
static void
put_items_and_pairs(yaml_document_t *doc, int i)
{
	yaml_node_t *n;
	size_t n_items = 0, n_pairs = 0;

	printf("static const yaml_node_item_t items_%d[] = { 0", i);
	for (n = doc->nodes.start; n < doc->nodes.top; n++) {
		yaml_node_item_t *it;

		if (n->type != YAML_SEQUENCE_NODE)
			continue;
		for (it = n->data.sequence.items.start;
		    it < n->data.sequence.items.top; it++, n_items++)
			printf(",%s%d", n_items % 16 ? " " : "\n", *it);
	}
	printf(" };\nstatic const yaml_node_pair_t pairs_%d[] = { { 0, 0 }", i);
	for (n = doc->nodes.start; n < doc->nodes.top; n++) {
		yaml_node_pair_t *pr;

		if (n->type != YAML_MAPPING_NODE)
			continue;
		for (pr = n->data.mapping.pairs.start;
		    pr < n->data.mapping.pairs.top; pr++, n_pairs++)
			printf(",%s{ %d, %d }", n_pairs % 8 ? " " : "\n",
			    pr->key, pr->value);
	}
	printf(" };\n");
}

/*
 * The nodes, each with its tag and scalar in the pool pl, and its items or
 * pairs as a 1-based range of the arrays put_items_and_pairs wrote.
 */
static void
put_nodes(const char *name, yaml_document_t *doc, int i, struct pool *pl)
{
	yaml_node_t *n;
	size_t n_items = 0, n_pairs = 0;

	printf("static const struct ydoc_pre_node nodes_%d[] = {", i);
	for (n = doc->nodes.start; n < doc->nodes.top; n++) {
		unsigned long tag = pool_add(pl, n->tag,
		    n->tag ? strlen((const char *)n->tag) : 0);
		unsigned long a = 0, b = 0, style = 0;

		switch (n->type) {
		case YAML_SCALAR_NODE:
			a = pool_add(pl, n->data.scalar.value,
			    n->data.scalar.length);
			b = (unsigned long)n->data.scalar.length;
			style = (unsigned long)n->data.scalar.style;
			break;
		case YAML_SEQUENCE_NODE:
			a = (unsigned long)n_items + 1;
			b = (unsigned long)(n->data.sequence.items.top -
			    n->data.sequence.items.start);
			n_items += b;
			style = (unsigned long)n->data.sequence.style;
			break;
		case YAML_MAPPING_NODE:
			a = (unsigned long)n_pairs + 1;
			b = (unsigned long)(n->data.mapping.pairs.top -
			    n->data.mapping.pairs.start);
			n_pairs += b;
			style = (unsigned long)n->data.mapping.style;
			break;
		default:
			die("%s: a YAML node of unknown type %d", name,
			    (int)n->type);
		}
		printf("\n{ %d, %lu, %luu, %luu, %luu, {", (int)n->type, style,
		    tag, a, b);
		put_mark(&n->start_mark);
		put_mark(&n->end_mark);
		printf(" } },");
	}
	printf("\n{ 0, 0, 0, 0, 0, { { 0, 0, 0 }, { 0, 0, 0 } } } };\n");
}

/* One document's nodes, items, pairs and pool, as doc_I. */
static void
put_document(const char *name, int i, const char *text, size_t len)
{
	yaml_document_t doc;
	struct pool pl = { NULL, 0, 0 };

	load_document(name, text, len, &doc);
	put_items_and_pairs(&doc, i);
	put_nodes(name, &doc, i, &pl);
	put_bytes("char", "pool", i, pl.p ? pl.p : (const unsigned char *)"",
	    pl.n);
	printf("static const struct ydoc_pre doc_%d = { nodes_%d, %zu, "
	    "items_%d, pairs_%d, pool_%d, %d, %d, {", i, i,
	    (size_t)(doc.nodes.top - doc.nodes.start), i, i, i,
	    doc.start_implicit, doc.end_implicit);
	put_mark(&doc.start_mark);
	put_mark(&doc.end_mark);
	printf(" } };\n");
	free(pl.p);
	yaml_document_delete(&doc);
}

int
main(int argc, char **argv)
{
	char *path, *text;
	size_t len;
	int i;

	if (argc < 2)
		die("usage: yaml2c SRCDIR NAME...");
	printf("/* Generated by build-aux/yaml2c; do not edit. */\n"
	    "#include \"data/builtin.h\"\n#include \"data/yamlutil.h\"\n");
	for (i = 2; i < argc; i++) {
		if ((path = malloc(strlen(argv[1]) + strlen(argv[i]) + 2)) ==
		    NULL)
			die("out of memory");
		if (strpbrk(argv[i], "\"\\") != NULL)
			die("%s: a file name to quote", argv[i]);
		sprintf(path, "%s/%s", argv[1], argv[i]);
		text = slurp(path, &len);
		put_bytes("char", "data", i, (const unsigned char *)text, len);
		put_document(argv[i], i, text, len);
		free(text);
		free(path);
	}
	printf("const struct builtin_file builtin_files[] = {\n");
	for (i = 2; i < argc; i++)
		printf("\t{ \"%s\", data_%d, sizeof data_%d - 1, &doc_%d },\n",
		    argv[i], i, i, i);
	printf("\t{ 0, 0, 0, 0 }\n};\nconst size_t builtin_n_files = %d;\n",
	    argc - 2);
	return fflush(stdout) == 0 && !ferror(stdout) ? 0 : 1;
}
