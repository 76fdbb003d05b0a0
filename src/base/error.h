/*
 * error.h - operational failures (cannot open a file, invalid YAML, bad
 * usage). A function that can fail this way takes a struct gl_error * and
 * returns -1 after filling it; main prints it once. Findings in a model are
 * never errors: they are diagnostics (diag.h).
 */
#ifndef GGUFLINT_ERROR_H
#define GGUFLINT_ERROR_H

#include "base/util.h"

struct gl_error {
	char msg[1024];
};

/* gl_error_set: format the message; always returns -1 for convenience. */
int gl_error_set(struct gl_error *err, const char *fmt, ...) GL_PRINTF(2, 3);

#endif
