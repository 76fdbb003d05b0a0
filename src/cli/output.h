/*
 * output.h - --output FILE: the program's stdout pointed at a file for
 * the time of its report (struct output says how).
 */
#ifndef GGUFLINT_OUTPUT_H
#define GGUFLINT_OUTPUT_H

#include <stdbool.h>

#include "base/error.h"

/*
 * --output FILE: stdout becomes a new file beside FILE, put in FILE's
 * place once the report is complete, so that FILE is never half a report;
 * a FILE that exists and is not a regular file (a device, a pipe, a
 * symbolic link) is written in place. Everything that writes to stdout,
 * and the colour decision, follow.
 */
struct output {
	const char *name; /* FILE, or "output": stdout */
	char *tmp;	  /* FILE.tmp-PID, or NULL: in place */
	int saved;	  /* the original stdout, or -1 */
	bool open;	  /* stdout is the file */
};

/* output_open: point stdout at path's file (nothing with path NULL).
 * Returns 0, or -1 with err naming path, nothing created. */
int output_open(const char *path, struct output *k, struct gl_error *err);

/*
 * output_close: give stdout back and, with keep, put the file in FILE's
 * place: returns 0, or -1 with errno when closing or renaming it failed.
 * Without keep, or on failure, the temporary file is removed. Once done,
 * later calls return 0.
 */
int output_close(struct output *k, bool keep);

#endif
