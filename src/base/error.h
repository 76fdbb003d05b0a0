/*
 * error.h - operational failures (cannot open a file, invalid YAML, bad
 * usage). A function that can fail this way takes a struct gl_error * and
 * returns -1 after filling it; main prints it once. Findings in a model are
 * never errors: they are diagnostics (diag.h).
 *
 * An error carries a kind, so that a caller that must tell failures apart
 * (an unknown profile name from an unreadable profile file) asks the kind,
 * never the message's text.
 *
 * The rule for every function that takes one: err may be NULL. The
 * function then fails the same way and returns the same, and only the
 * error is not recorded (a function that reads the kind of a callee's
 * error uses one of its own).
 */
#ifndef GGUFLINT_ERROR_H
#define GGUFLINT_ERROR_H

#include "base/util.h"

enum gl_error_kind {
	GL_ERR_OTHER = 0,	/* of no particular kind (gl_error_set) */
	GL_ERR_USAGE,		/* the command line asks for the impossible */
	GL_ERR_IO,		/* a file cannot be opened, read or mapped */
	GL_ERR_NOT_FOUND,	/* no data file (profile, table) of that name */
	GL_ERR_PARSE,		/* a YAML file (data, configuration, rules) is
				 * malformed or says something invalid */
	GL_ERR_LIMIT,		/* an input is larger than gguflint accepts */
	GL_ERR_DENIED		/* a server refuses it (HTTP 401, 403) */
};

struct gl_error {
	enum gl_error_kind kind;
	char msg[1024];
};

/*
 * gl_error_setk: set err's kind and format its message (truncated to fit);
 * err may be NULL (see above), then nothing is recorded. Always returns
 * -1, for
 * `return gl_error_setk(...)`.
 */
int gl_error_setk(struct gl_error *err, enum gl_error_kind kind,
    const char *fmt, ...) GL_PRINTF(3, 4);

/* gl_error_set: gl_error_setk with the kind GL_ERR_OTHER; returns -1. */
int gl_error_set(struct gl_error *err, const char *fmt, ...) GL_PRINTF(2, 3);

#endif
