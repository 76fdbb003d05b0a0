/*
 * strset.c - seeded open-addressing hash set of byte strings (strset.h).
 */
#include "config.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#if defined(HAVE_SYS_RANDOM_H) && defined(HAVE_GETRANDOM)
#include <sys/random.h>
#endif

#include "base/strset.h"
#include "base/util.h"

static uint64_t strset_seed;	/* set once (seed_once), then only read */
static pthread_once_t strset_once = PTHREAD_ONCE_INIT;

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

#if defined(HAVE_SYS_RANDOM_H) && defined(HAVE_GETRANDOM)
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
	pthread_once(&strset_once, seed_once);	/* lints run in threads */
	memset(s, 0, sizeof *s);
}

void
strset_free(struct strset *s)
{
	free(s->slots);
	free(s->e);
	memset(s, 0, sizeof *s);
}

/* The slot of (p, n, h): the one holding an equal string, or the empty
 * one where it would go. */
static uint64_t *
find_slot(const struct strset *s, const void *p, size_t n, uint64_t h)
{
	uint64_t tag = h >> 32;
	size_t i = (size_t)h & (s->cap - 1);

	for (;; i = (i + 1) & (s->cap - 1)) {
		uint64_t v = s->slots[i];
		const struct strset_entry *e;

		if (v == 0)
			return &s->slots[i];
		if (v >> 32 != tag)
			continue;
		e = &s->e[(uint32_t)v - 1];
		if (e->n == n && memcmp(e->p, p, n) == 0)
			return &s->slots[i];
	}
}

/* A table of cap slots holding the entries there are. */
static void
rehash(struct strset *s, size_t cap)
{
	size_t i;

	free(s->slots);
	s->slots = xcalloc(cap, sizeof *s->slots);
	s->cap = cap;
	for (i = 0; i < s->count; i++) {
		const struct strset_entry *e = &s->e[i];
		uint64_t h = hash_bytes(e->p, e->n);

		*find_slot(s, e->p, e->n, h) = (h >> 32 << 32) | (i + 1);
	}
}

void
strset_reserve(struct strset *s, size_t n)
{
	size_t cap = 64;

	if (n > s->ecap) {
		s->e = xreallocarray(s->e, n, sizeof *s->e);
		s->ecap = n;
	}
	while (cap / 4 * 3 < n && cap < SIZE_MAX / 4)
		cap *= 2;
	if (cap > s->cap)
		rehash(s, cap);
}

int
strset_insert(struct strset *s, const void *p, size_t n, size_t value,
    size_t *existing)
{
	static const char empty[1];
	uint64_t h, *sl;

	if (p == NULL)
		p = empty;
	if (s->count >= UINT32_MAX - 1)
		return 0;	/* past what an index slot holds: not tracked */
	if (s->count + 1 > s->ecap)
		strset_reserve(s, s->ecap ? s->ecap * 2 : 64);
	else if ((s->count + 1) * 4 > s->cap * 3)
		strset_reserve(s, s->count + 1);
	h = hash_bytes(p, n);
	sl = find_slot(s, p, n, h);
	if (*sl != 0) {
		if (existing != NULL)
			*existing = s->e[(uint32_t)*sl - 1].value;
		return 1;
	}
	s->e[s->count] = (struct strset_entry){ p, n, value };
	*sl = (h >> 32 << 32) | (s->count + 1);
	s->count++;
	return 0;
}
