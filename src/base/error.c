/*
 * error.c - filling a struct gl_error (see error.h).
 */
#include "config.h"

#include <stdio.h>

#include "base/error.h"

static void error_vset(struct gl_error *err, enum gl_error_kind kind,
    const char *fmt, va_list ap) GL_VPRINTF(3);

static void
error_vset(struct gl_error *err, enum gl_error_kind kind, const char *fmt,
    va_list ap)
{
	err->kind = kind;
	vsnprintf(err->msg, sizeof err->msg, fmt, ap);
}

int
gl_error_setk(struct gl_error *err, enum gl_error_kind kind, const char *fmt,
    ...)
{
	va_list ap;

	if (err == NULL)
		return -1;
	va_start(ap, fmt);
	error_vset(err, kind, fmt, ap);
	va_end(ap);
	return -1;
}

int
gl_error_set(struct gl_error *err, const char *fmt, ...)
{
	va_list ap;

	if (err == NULL)
		return -1;
	va_start(ap, fmt);
	error_vset(err, GL_ERR_OTHER, fmt, ap);
	va_end(ap);
	return -1;
}
