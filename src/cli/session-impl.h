/*
 * session-impl.h - what session.c shares with session-list.c, which holds
 * the commands that list what gguflint knows instead of linting
 * (--list-profiles, --list-kernels, --list-devices, --list-archs).
 * Private to cli/.
 */
#ifndef GGUFLINT_SESSION_IMPL_H
#define GGUFLINT_SESSION_IMPL_H

#include "base/error.h"
#include "base/util.h"
#include "cli/options.h"
#include "report/report.h"

/* session_fail: print err, once, to stderr; returns the exit status 2. */
int session_fail(const struct gl_error *err);

/* session_runtime_dir: the runtime folder: --runtime, else
 * GGUFLINT_RUNTIME, else NULL. */
const char *session_runtime_dir(const struct options *o);

/*
 * session_list: o's --list-profiles, --list-kernels (with
 * --write-kernels), --list-devices or --list-archs, reported with rep
 * into out, over the session's report context ctx. Returns the exit
 * status: 0, or 2 when something could not be loaded or probed (said on
 * stderr; what could be is still reported).
 */
int session_list(const struct options *o, struct report_ctx *ctx,
    const struct reporter *rep, struct strbuf *out);

#endif
