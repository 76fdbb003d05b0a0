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

/*
 * The entries, in insertion order, and an open-addressing index over them:
 * a slot holds 32 bits of the entry's hash and its index + 1 (0: empty),
 * 8 bytes, so that most probes stay in cache and compare no string.
 */
struct strset_entry {
	const void *p;
	size_t n;
	size_t value;
};

struct strset {
	uint64_t *slots;
	size_t cap;		/* slots, a power of two (or 0) */
	struct strset_entry *e;
	size_t count, ecap;
};

/* strset_init: s empty, owning nothing (seeds the process's hash once,
 * under pthread_once: any thread may call it). */
void strset_init(struct strset *s);
/* strset_free: free s's tables (never the strings); s is left empty. */
void strset_free(struct strset *s);

/* strset_reserve: room for n strings in all, so that inserting them
 * allocates nothing more. n must be bounded by the input already. */
void strset_reserve(struct strset *s, size_t n);

/*
 * strset_insert: add (p, n) with value. When an equal string is already
 * present, nothing is added, its value is stored in *existing (unless
 * existing is NULL) and 1 is returned; otherwise 0. p (NULL allowed when
 * n is 0) is kept, not copied: it must stay valid while the set is used.
 * Past UINT32_MAX - 1 strings nothing more is added, and 0 is returned:
 * a duplicate beyond that count goes unnoticed.
 */
int strset_insert(struct strset *s, const void *p, size_t n, size_t value,
    size_t *existing);

#endif
