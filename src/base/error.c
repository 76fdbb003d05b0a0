/*
 * error.c - filling a struct gl_error (see error.h).
 */
#include "config.h"

#include <stdio.h>

#include "base/error.h"

int
gl_error_set(struct gl_error *err, const char *fmt, ...)
{
	va_list ap;

	if (err == NULL)
		return -1;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof err->msg, fmt, ap);
	va_end(ap);
	return -1;
}
