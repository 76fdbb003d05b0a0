/*
 * session.h - what the program does once its options are parsed: one
 * session builds the catalogue, the configuration, the policy, the target
 * and the reporter's context, then lints, dumps or documents as the
 * options say.
 */
#ifndef GGUFLINT_SESSION_H
#define GGUFLINT_SESSION_H

#include "cli/options.h"

/*
 * session_main: do what o asks (o is only read; the caller frees it),
 * writing the output to stdout and every operational error, once, to
 * stderr. Returns the exit status: 0 clean, 1 when the findings fail the
 * policy, 2 on an operational error (an unreadable file, a bad
 * configuration, a format that cannot show what was asked, an unknown
 * rule to --explain, a failed write to stdout). Whatever it built is freed
 * before it returns, the library's process-wide caches too
 * (lint_cleanup()): no other thread may be linting meanwhile.
 */
int session_main(const struct options *o);

#endif
