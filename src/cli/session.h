/*
 * run.h - what the program does once its options are parsed.
 */
#ifndef GGUFLINT_RUN_H
#define GGUFLINT_RUN_H

#include "cli/options.h"

/* run: do what o asks; returns the exit status (0, 1 or 2). */
int run(const struct options *o);

#endif
