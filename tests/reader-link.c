/*
 * reader-link.c - a build-time check of the reader's dependencies: it reads
 * a GGUF header (and, with --deep, the tensor data) and prints the tensor
 * count. Makefile.am links it against libgguflint-reader.a, the objects of
 * base, data, findings, reader and kernels alone, and libyaml, so if the
 * reader, the findings it records or anything they use comes to call the
 * facts, the target, the plan, the checks, a reporter or the cli,
 * `make check` fails to link.
 *
 * Usage: reader-link [--deep] FILE.gguf; exit 0, or 2 when FILE cannot be
 * read (or the built-in catalogue cannot be loaded).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "findings/catalog.h"
#include "findings/diag.h"
#include "reader/deep.h"
#include "reader/gguf.h"

int
main(int argc, char **argv)
{
	struct catalog cat;
	struct diag_list dl;
	struct gguf_file f;
	struct gl_error err;
	struct deep_stats *st = NULL;
	bool deep = argc == 3 && strcmp(argv[1], "--deep") == 0;

	if (argc != 2 && !deep) {
		fprintf(stderr, "usage: reader-link [--deep] FILE.gguf\n");
		return 2;
	}
	if (catalog_load_builtin(&cat, &err) < 0 ||
	    gguf_open(&f, argv[argc - 1], &err) < 0) {
		fprintf(stderr, "reader-link: %s\n", err.msg);
		return 2;
	}
	diag_list_init(&dl, &cat);
	gguf_parse(&f, &dl);
	if (deep && f.header_complete) {
		st = xcalloc(f.tensors_n + 1, sizeof *st);
		deep_scan(&f, st, 1, true);
	}
	printf("%zu tensors, %zu findings\n", f.tensors_n, dl.n);
	free(st);
	diag_list_free(&dl);
	gguf_close(&f);
	catalog_free(&cat);
	return 0;
}
