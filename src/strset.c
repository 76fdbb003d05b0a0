/*
 * strset.c - seeded open-addressing hash set of byte strings (strset.h).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#if defined(HAVE_SYS_RANDOM_H)
#include <sys/random.h>
#endif

#include "strset.h"
#include "util.h"

static uint64_t strset_seed;

static uint64_t
mix64(uint64_t x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebULL;
	x ^= x >> 31;
	return x;
}

static void
seed_once(void)
{
	uint64_t s = 0;

	if (strset_seed != 0)
		return;
#if defined(HAVE_SYS_RANDOM_H)
	if (getrandom(&s, sizeof s, GRND_NONBLOCK) != (ssize_t)sizeof s)
		s = 0;
#endif
	if (s == 0)
		s = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32) ^
		    (uint64_t)(uintptr_t)&s;
	strset_seed = mix64(s) | 1;
}

static uint64_t
hash_bytes(const void *p, size_t n)
{
	const unsigned char *b = p;
	uint64_t h = strset_seed ^ (n * 0x9e3779b97f4a7c15ULL);
	uint64_t w;

	while (n >= 8) {
		memcpy(&w, b, 8);
		h = mix64(h ^ w);
		b += 8;
		n -= 8;
	}
	w = 0;
	memcpy(&w, b, n);
	return mix64(h ^ w ^ ((uint64_t)n << 56));
}

void
strset_init(struct strset *s)
{
	seed_once();
	s->slots = NULL;
	s->cap = 0;
	s->count = 0;
}

void
strset_free(struct strset *s)
{
	free(s->slots);
	s->slots = NULL;
	s->cap = s->count = 0;
}

static struct strset_slot *
find_slot(struct strset_slot *slots, size_t cap, const void *p, size_t n,
    uint64_t h)
{
	size_t i = (size_t)h & (cap - 1);

	for (;;) {
		struct strset_slot *sl = &slots[i];

		if (sl->p == NULL)
			return sl;
		if (sl->hash == h && sl->n == n && memcmp(sl->p, p, n) == 0)
			return sl;
		i = (i + 1) & (cap - 1);
	}
}

static void
grow(struct strset *s)
{
	size_t ncap = s->cap ? s->cap * 2 : 64, i;
	struct strset_slot *ns = xcalloc(ncap, sizeof *ns);

	for (i = 0; i < s->cap; i++) {
		struct strset_slot *o = &s->slots[i];

		if (o->p != NULL)
			*find_slot(ns, ncap, o->p, o->n, o->hash) = *o;
	}
	free(s->slots);
	s->slots = ns;
	s->cap = ncap;
}

int
strset_insert(struct strset *s, const void *p, size_t n, size_t value,
    size_t *existing)
{
	static const char empty[1];
	struct strset_slot *sl;
	uint64_t h;

	if (p == NULL)
		p = empty;
	if ((s->count + 1) * 4 > s->cap * 3)
		grow(s);
	h = hash_bytes(p, n);
	sl = find_slot(s->slots, s->cap, p, n, h);
	if (sl->p != NULL) {
		if (existing != NULL)
			*existing = sl->value;
		return 1;
	}
	sl->p = p;
	sl->n = n;
	sl->value = value;
	sl->hash = h;
	s->count++;
	return 0;
}

int
strset_lookup(const struct strset *s, const void *p, size_t n, size_t *value)
{
	struct strset_slot *sl;

	if (s->cap == 0)
		return 0;
	if (p == NULL)
		p = "";
	sl = find_slot(s->slots, s->cap, p, n, hash_bytes(p, n));
	if (sl->p == NULL)
		return 0;
	if (value != NULL)
		*value = sl->value;
	return 1;
}
