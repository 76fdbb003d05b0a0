/*
 * baseline.h - a baseline: the findings a repository accepted on the day
 * it adopted gguflint, so that only new findings fail the run
 * (--write-baseline FILE records them; --baseline FILE, or baseline: in
 * .gguflint.yaml, reads them back).
 *
 * A finding is known by the model's path and a fingerprint. The path is
 * relative to the baseline file's folder when the model lies below it
 * (else the model's real path; "-" for standard input), so that a
 * baseline beside the models survives moving the repository and running
 * from another directory. The fingerprint is SHA-256 over the rule code,
 * the subject's kind and its raw bytes, and how many earlier findings of
 * the file have these three the same (a NUL after each field): never the
 * byte offset or the message, so that reordering the tensors, editing
 * other metadata or a change in a message's numbers keeps it.
 *
 * The file is JSON, read as YAML (any YAML of the same shape will do):
 *   {"version": 1, "tool": "gguflint", "findings": [{"path": "m.gguf",
 *    "code": "W002", "subject": "blk.0.attn_q.weight",
 *    "fingerprint": "<64 hex digits>"}]}
 * where subject (the name, null when the finding has none) is for people:
 * only path and fingerprint are compared.
 */
#ifndef GGUFLINT_BASELINE_H
#define GGUFLINT_BASELINE_H

#include <stdbool.h>
#include <stddef.h>

#include "base/error.h"
#include "base/util.h"
#include "findings/diag.h"

/* One finding the baseline holds. */
struct baseline_entry {
	char *path;		/* as recorded (see above) */
	char *code;
	char *subject;		/* as shown (valid UTF-8), or NULL */
	char fp[65];		/* the fingerprint, 64 lowercase hex digits */
	bool matched;		/* a finding of this run is this one */
	bool seen;		/* this run linted its file */
};

struct baseline {
	char *dir;		/* the baseline file's folder (its real path) */
	struct baseline_entry *v;
	size_t n, cap;
	bool sorted;		/* v is in (path, fp) order */
};

/*
 * baseline_init: an empty baseline for the file at path (which need not
 * exist), whose recorded paths are relative to its folder. Returns 0, or
 * -1 with err (GL_ERR_IO) when the folder cannot be resolved; free b with
 * baseline_free in both cases.
 */
int baseline_init(struct baseline *b, const char *path, struct gl_error *err);

/*
 * baseline_load: baseline_init, then read the baseline file at path (at
 * most 64 MiB). Returns 0, or -1 with err: GL_ERR_IO or GL_ERR_LIMIT when
 * it cannot be read, GL_ERR_PARSE as "FILE:LINE:COL: expected ..." when
 * it is not a baseline of version 1. Free b with baseline_free in both
 * cases.
 */
int baseline_load(struct baseline *b, const char *path,
    struct gl_error *err);

/*
 * baseline_apply: for the findings dl of the file at path, set
 * d->baselined on each that b holds (each entry matches one finding at
 * most) and mark b's entries of that file seen. Returns how many it
 * marked.
 */
size_t baseline_apply(struct baseline *b, const char *path,
    struct diag_list *dl);

/*
 * baseline_record: add every finding of dl (the file at path) to b, as
 * --write-baseline does, and mark each baselined. Returns how many.
 */
size_t baseline_record(struct baseline *b, const char *path,
    struct diag_list *dl);

/* baseline_gone: how many entries of files this run linted matched no
 * finding: what was fixed since the baseline was written. */
size_t baseline_gone(const struct baseline *b);

/* baseline_json: b as the JSON document above (entries in path, then
 * fingerprint order), appended to out. */
void baseline_json(struct baseline *b, struct strbuf *out);

/*
 * baseline_save: write baseline_json(b) to path, through path.tmp-PID
 * renamed into place once complete. Returns 0, or -1 with err (GL_ERR_IO)
 * naming path; an old file at path is then left as it was.
 */
int baseline_save(struct baseline *b, const char *path,
    struct gl_error *err);

/* baseline_free: free what b owns; b is zeroed. */
void baseline_free(struct baseline *b);

#endif
