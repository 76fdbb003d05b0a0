/*
 * strset.h - a set of byte strings (pointer + length, not copied) for
 * finding duplicate keys and tensor names in O(n).
 *
 * The hash is seeded per process, so a hostile file cannot be built to make
 * every name collide; results never depend on the seed.
 */
#ifndef GGUFLINT_STRSET_H
#define GGUFLINT_STRSET_H

#include <stddef.h>
#include <stdint.h>

struct strset_slot {
	const void *p;		/* NULL: empty slot */
	size_t n;
	size_t value;
	uint64_t hash;
};

struct strset {
	struct strset_slot *slots;
	size_t cap;		/* a power of two */
	size_t count;
};

void strset_init(struct strset *s);
void strset_free(struct strset *s);

/*
 * strset_insert: add (p, n) with value. When an equal string is already
 * present, nothing is added and its value is stored in *existing and 1 is
 * returned; otherwise 0. p must stay valid while the set is used.
 */
int strset_insert(struct strset *s, const void *p, size_t n, size_t value,
    size_t *existing);

/* strset_lookup: 1 and *value when (p, n) is present, else 0. */
int strset_lookup(const struct strset *s, const void *p, size_t n,
    size_t *value);

#endif
