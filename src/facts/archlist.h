/*
 * archlist.h - the architectures of --list-archs: every one the bundled
 * llama.cpp loads (rules/runtime/llama.cpp.yaml) and every one of
 * gguflint's table (archs.c), each with what gguflint knows of it, in
 * words the reporters print as they are.
 */
#ifndef GGUFLINT_ARCHLIST_H
#define GGUFLINT_ARCHLIST_H

#include <stdbool.h>
#include <stddef.h>

#include "base/error.h"
#include "facts/archrow.h"
#include "facts/llversions.h"

struct arch_entry {
	const char *name;
	const struct arch_info *row; /* NULL: gguflint has no row */
	const struct llv_row *since; /* NULL: the runtime data lacks it */
	bool names_checked;	     /* a name map checks its tensors */
	const char *memory;	     /* "exact", "modelled", "assumed" */
	const char *compute;	     /* "placed", "fitted", "estimated" */
};

/*
 * arch_list: every architecture, sorted by name, into *out (n entries;
 * free(*out) alone: the strings and rows are borrowed from the static
 * table and from db, which must outlive them). The projector
 * architecture "clip" is not a model's and is left out. Never fails.
 */
void arch_list(const struct llv_db *db, struct arch_entry **out, size_t *n);

/*
 * arch_memory_word, arch_compute_word: how exact a's plan of memory (KV
 * and recurrent state) and of compute are, in one word (static; a NULL a
 * is an architecture gguflint does not know):
 * memory "exact" (measured against llama.cpp), "modelled" (a memory
 * model, not measured), "assumed" (planned as standard attention);
 * compute "placed" (llama.cpp's graph built and placed node by node),
 * "fitted" (a formula fitted to measurements), "estimated".
 */
const char *arch_memory_word(const struct arch_info *a);
const char *arch_compute_word(const struct arch_info *a);

#endif
