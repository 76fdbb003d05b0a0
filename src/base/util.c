/*
 * util.c - checked allocation and the strbuf byte buffer (see util.h).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

static void
oom(void)
{
	fputs("gguflint: out of memory\n", stderr);
	exit(2);
}

void *
xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (p == NULL)
		oom();
	return p;
}

void *
xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (p == NULL)
		oom();
	return p;
}

/* p (NULL: a new block) resized to n bytes (0 as 1). */
static void *
xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);

	if (q == NULL)
		oom();
	return q;
}

void *
xreallocarray(void *p, size_t n, size_t size)
{
	size_t total;

	if (__builtin_mul_overflow(n, size, &total))
		oom();
	return xrealloc(p, total);
}

void *
xnonnull(void *p)
{
	if (p == NULL)
		oom();
	return p;
}

char *
xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *
xstrndup(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *
xasprintf(const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	return strbuf_detach(&sb);
}

void
strbuf_init(struct strbuf *sb)
{
	sb->buf = NULL;
	sb->len = 0;
	sb->cap = 0;
}

void
strbuf_free(struct strbuf *sb)
{
	free(sb->buf);
	strbuf_init(sb);
}

void
strbuf_reset(struct strbuf *sb)
{
	sb->len = 0;
	if (sb->buf != NULL)
		sb->buf[0] = '\0';
}

static void
strbuf_grow(struct strbuf *sb, size_t extra)
{
	size_t need;

	if (__builtin_add_overflow(sb->len, extra + 1, &need))
		oom();
	if (need <= sb->cap)
		return;
	if (sb->cap < 64)
		sb->cap = 64;
	while (sb->cap < need) {
		if (sb->cap > SIZE_MAX / 2)
			oom();
		sb->cap *= 2;
	}
	sb->buf = xrealloc(sb->buf, sb->cap);
}

void
strbuf_add(struct strbuf *sb, const void *p, size_t n)
{
	strbuf_grow(sb, n);
	if (n > 0)
		memcpy(sb->buf + sb->len, p, n);
	sb->len += n;
	sb->buf[sb->len] = '\0';
}

void
strbuf_addc(struct strbuf *sb, char c)
{
	strbuf_add(sb, &c, 1);
}

void
strbuf_adds(struct strbuf *sb, const char *s)
{
	strbuf_add(sb, s, strlen(s));
}

void
strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap)
{
	va_list cp;
	int n;

	va_copy(cp, ap);
	n = vsnprintf(NULL, 0, fmt, cp);
	va_end(cp);
	if (n < 0)
		return;
	strbuf_grow(sb, (size_t)n);
	vsnprintf(sb->buf + sb->len, (size_t)n + 1, fmt, ap);
	sb->len += (size_t)n;
}

void
strbuf_addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(sb, fmt, ap);
	va_end(ap);
}

char *
strbuf_detach(struct strbuf *sb)
{
	char *p;

	if (sb->buf == NULL)
		return xstrdup("");
	p = sb->buf;
	strbuf_init(sb);
	return p;
}

const char *
strbuf_cstr(const struct strbuf *sb)
{
	return sb->buf != NULL ? sb->buf : "";
}
