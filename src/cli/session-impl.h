/*
 * session-impl.h - what session.c shares with session-run.c (the lint
 * run), session-list.c, which holds the commands that list what gguflint
 * knows instead of linting (--list-profiles, --list-kernels,
 * --list-devices, --list-archs), and session-dump.c (--dump): the
 * session itself and its output.
 * Private to cli/.
 */
#ifndef GGUFLINT_SESSION_IMPL_H
#define GGUFLINT_SESSION_IMPL_H

#include <stdbool.h>

#include "base/error.h"
#include "base/util.h"
#include "checks/declrule.h"
#include "cli/configfile.h"
#include "cli/options.h"
#include "cli/progress.h"
#include "findings/baseline.h"
#include "findings/catalog.h"
#include "findings/policy.h"
#include "lint.h"
#include "report/report.h"
#include "runtime/runtime.h"
#include "source/source.h"
#include "target/captable.h"
#include "target/profile.h"

/* Everything one invocation needs, built from the configuration and the
 * options. */
struct session {
	struct catalog cat;
	struct declset decls; /* the rule files' matchers */
	struct policy policy;
	struct config cfg;
	struct profile profile;
	bool have_profile;
	struct captable table;
	struct lint_options lo;
	struct rt_request rq;	   /* the runtime, when one is given */
	struct source_opts src;	   /* how remote files are read */
	struct report_ctx report;  /* over cat, for every reporter call */
	struct baseline bl;	   /* --baseline, or what to record */
	bool have_bl;		   /* bl is in force */
	bool record;		   /* --write-baseline: bl is recorded */
	struct progress progress;  /* --deep's line on stderr */
	struct lint_progress tell; /* lo.progress: to progress */
};

/*
 * session_write_out: write and reset buf; -1 (errno set) when stdout
 * failed. The buffer goes out in one write(2) (after what stdio holds),
 * not through stdio's pieces, so that the report of one model, which the
 * session writes at once, is never mixed with another process's in a file
 * they share (xargs -P 8 gguflint ... > out): Linux writes a regular
 * file's one write whole. A pipe does so only up to PIPE_BUF bytes.
 */
int session_write_out(struct strbuf *buf);

/* session_fail: print err, once, to stderr; returns the exit status 2. */
int session_fail(const struct gl_error *err);

/* session_runtime_dir: the runtime folder: --runtime, else
 * GGUFLINT_RUNTIME, else NULL. */
const char *session_runtime_dir(const struct options *o);

/*
 * session_lint_inputs: lint every input of o (directories expanded, the
 * shards of a split model grouped into one model, an hf:// repository's
 * files listed) and report each model with rep, in the order given, with
 * --jobs workers (session-run.c); then --statistics, --max-warnings and
 * the summary. Returns the exit status (0, 1 or 2), or -1 when stdout
 * failed.
 */
int session_lint_inputs(const struct options *o, struct session *s,
    const struct reporter *rep, struct strbuf *out);

/*
 * session_list: o's --list-profiles, --list-kernels (with --write-kernels),
 * --list-devices or --list-archs, reported with rep into out, over the
 * session's report context ctx. Returns the exit status: 0, or 2 when
 * something could not be loaded or probed (said on stderr; what could be
 * is still reported).
 */
int session_list(const struct options *o, struct report_ctx *ctx,
    const struct reporter *rep, struct strbuf *out);

/*
 * session_dump_inputs: --dump (session-dump.c): for each input of o, the
 * header on stdout (rep's dump, into out, written as each is done) and
 * the findings of the built-in rules, as plain text, on stderr (the
 * user's rules of the configuration's rule files are not run: a dump
 * shows the file, not a team's policy). Returns the exit status (0, 1 or
 * 2), or -1 when stdout failed.
 */
int session_dump_inputs(const struct options *o, struct session *s,
    const struct reporter *rep, struct strbuf *out);

#endif
