/*
 * util.h - small helpers shared by every module: checked allocation,
 * overflow-checked size arithmetic, and a growable byte buffer.
 *
 * Allocation failure is treated as fatal (the program prints a message and
 * exits 2): gguflint never sizes an allocation from an unchecked number read
 * from a file, so running out of memory is an operational failure, not a
 * finding.
 */
#ifndef GGUFLINT_UTIL_H
#define GGUFLINT_UTIL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#if defined(__GNUC__)
#define GL_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define GL_PRINTF(a, b)
#endif
/* GL_VPRINTF: for functions that take a va_list (format checked, args not). */
#define GL_VPRINTF(a) GL_PRINTF(a, 0)

/*
 * The allocators never return NULL: when memory runs out (or n * size
 * overflows) they print "gguflint: out of memory" and exit 2. What they
 * return is the caller's, to free(3).
 *
 * xmalloc: n uninitialised bytes (n 0 allocates 1). xcalloc: n * size
 * zeroed bytes. xreallocarray: p (NULL: a new block) resized to n * size
 * bytes (0 as 1), p then no longer valid; exits 2 when n * size overflows.
 */
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xreallocarray(void *p, size_t n, size_t size);
/*
 * xnonnull: p, when it is not NULL; otherwise what the allocators do when
 * memory runs out (the message, exit 2). For what a library allocates
 * itself (PCRE2's match data), so that its failure is as fatal as theirs.
 */
void *xnonnull(void *p);
/*
 * xstrdup: a copy of the C string s. xstrndup: a copy of the n bytes at s
 * (all n read, NUL bytes too: s must hold n bytes) and a NUL after them.
 * xasprintf: the printf-formatted string ("" when vsnprintf fails). The
 * caller frees each.
 */
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
char *xasprintf(const char *fmt, ...) GL_PRINTF(1, 2);

/*
 * Checked 64-bit arithmetic: return true on overflow (result unspecified).
 * u64_add_overflow: *r = a + b.
 */
static inline bool
u64_add_overflow(uint64_t a, uint64_t b, uint64_t *r)
{
	return __builtin_add_overflow(a, b, r);
}

/* u64_mul_overflow: *r = a * b; true on overflow. */
static inline bool
u64_mul_overflow(uint64_t a, uint64_t b, uint64_t *r)
{
	return __builtin_mul_overflow(a, b, r);
}

/*
 * u64_pad_overflow: round x up to a multiple of align (a power of two, > 0).
 * Returns true when the result would not fit in 64 bits.
 */
static inline bool
u64_pad_overflow(uint64_t x, uint64_t align, uint64_t *r)
{
	uint64_t t;

	if (__builtin_add_overflow(x, align - 1, &t))
		return true;
	*r = t & ~(align - 1);
	return false;
}

/*
 * struct strbuf: a growable, always NUL-terminated byte buffer.
 * Initialise with STRBUF_INIT or strbuf_init(); release with strbuf_free().
 * The buffer may hold NUL bytes; len is authoritative.
 */
struct strbuf {
	char *buf;
	size_t len;
	size_t cap;
};

#define STRBUF_INIT { NULL, 0, 0 }

/* strbuf_init: sb empty, owning nothing (what STRBUF_INIT gives). */
void strbuf_init(struct strbuf *sb);
/* strbuf_free: free sb's buffer; sb is left empty (initialised). */
void strbuf_free(struct strbuf *sb);
/* strbuf_reset: empty sb, keeping its buffer for reuse. */
void strbuf_reset(struct strbuf *sb);
/*
 * strbuf_add: append the n bytes at p (p may be NULL when n is 0);
 * strbuf_addc: one byte; strbuf_adds: the C string s; strbuf_addf and
 * strbuf_vaddf: the printf-formatted text (nothing when vsnprintf fails).
 * They copy; sb stays NUL-terminated; growth that cannot be allocated
 * exits 2, like the allocators.
 */
void strbuf_add(struct strbuf *sb, const void *p, size_t n);
void strbuf_addc(struct strbuf *sb, char c);
void strbuf_adds(struct strbuf *sb, const char *s);
void strbuf_addf(struct strbuf *sb, const char *fmt, ...) GL_PRINTF(2, 3);
void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap)
    GL_VPRINTF(2);
/* strbuf_detach: return the buffer (caller frees) and reset sb. Never NULL. */
char *strbuf_detach(struct strbuf *sb);
/* strbuf_cstr: the contents, NUL-terminated, never NULL; borrowed: valid
 * until sb next changes. */
const char *strbuf_cstr(const struct strbuf *sb);

#endif
