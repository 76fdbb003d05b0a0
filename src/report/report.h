/*
 * report.h - reporters: the only code that turns results into output.
 * A reporter appends to a strbuf; the caller writes it out and checks the
 * write, so a full disk or closed pipe is an error, not silence.
 *
 * Every entry point of a reporter is handed a report context: what the
 * caller decided for the whole run (the catalogue, the options) and what a
 * format carries from one call to the next (whether a file was reported
 * yet, SARIF's list of artifacts). The caller owns the context; the
 * reporters keep no state of their own between calls.
 */
#ifndef GGUFLINT_REPORT_H
#define GGUFLINT_REPORT_H

#include "base/util.h"
#include "facts/archlist.h"
#include "findings/catalog.h"
#include "findings/diag.h"
#include "findings/severity.h"
#include "lint.h"
#include "reader/gguf.h"
#include "runtime/runtime.h"
#include "target/captable.h"
#include "target/profile.h"

/* What the reporters are asked to show beyond the diagnostics. */
struct report_opts {
	bool show_plan;		/* --plan (JSON always carries the plan) */
	bool color;		/* ANSI colours in text output */
	bool baseline;		/* a baseline is in force: JSON and SARIF
				 * mark each finding new or baselined */
	bool show_baselined;	/* text and github show baselined findings
				 * (marked) instead of leaving them out */
	size_t max_per_rule;	/* text: diagnostics shown per rule and
				 * file (--max-per-rule); 0: all */
	enum severity fail_on;	/* the policy's: a finding at least this
				 * severe (not baselined) fails the run
				 * (junit's failures); SEV_INFO when
				 * zeroed */
	bool show_fixes;	/* text: each finding's note and fix on
				 * indented lines below it (--show-fixes) */
};

/* SARIF's state across one log (report-sarif.c). */
struct report_sarif;

/* What jsonl counts: files, inputs not read, baselined findings, and the
 * others by severity (JSONL_INFOS + enum severity). */
enum jsonl_count {
	JSONL_FILES,
	JSONL_UNREAD,
	JSONL_BASELINED,
	JSONL_INFOS,
	JSONL_WARNINGS,
	JSONL_ERRORS,
	JSONL_N
};

/* What a reporter is handed at every call; see report_ctx_init. */
struct report_ctx {
	/* The rules in force (with the user's), borrowed: what --list-rules
	 * lists and SARIF's log describes. It outlives the context. */
	const struct catalog *cat;
	struct report_opts opts;
	/* No file reported yet: set by report_ctx_init, cleared by every
	 * file and dump entry point as it starts (JSON separates the files
	 * with commas; the caller may read it, and never sets it). */
	bool first;
	/* With a baseline: its entries no finding matched, set by the
	 * caller before end (JSON's "baseline": {"gone": N}). */
	size_t baseline_gone;
	/* Made by SARIF's begin, freed by its end or by report_ctx_free. */
	struct report_sarif *sarif;
	/* The run's exit status (0, 1, 2), set by the caller before end
	 * (SARIF's invocation); 0 until then. */
	int exit_code;
	/* The rules in force (--select/--ignore), borrowed, or NULL: every
	 * rule of cat (junit's test cases). */
	const struct diag_filter *filter;
	/* Items a streaming format wrote so far (gitlab's issues). */
	size_t n_items;
	/* jsonl's counts for its summary line (enum jsonl_count). */
	size_t jsonl[JSONL_N];
	/* What the remote files asked, set by the caller before end (jsonl's
	 * "http"; all 0: no remote file, no member). */
	struct report_http {
		unsigned long requests, retries, rate_limited, queued;
		unsigned long waited_ms;
	} http;
};

/*
 * report_ctx_init: a context for one run over cat (borrowed, may be NULL
 * where no entry point called needs it: dump, profiles, kernels), with the
 * options opts (copied; NULL: no plan, no colour), first set. Free it with
 * report_ctx_free, which never frees cat.
 */
void report_ctx_init(struct report_ctx *ctx, const struct catalog *cat,
    const struct report_opts *opts);

/* report_ctx_free: free what the formats left in ctx (a log not ended);
 * the context can be initialised again. */
void report_ctx_free(struct report_ctx *ctx);

/*
 * A reporter. Each entry point appends to out and cannot fail (memory
 * exhaustion aborts, as everywhere). Lint output is begin, then file once
 * per linted file (in order), then end, all with the same context; file
 * and dump clear ctx->first.
 */
struct reporter {
	const char *name;	/* the --format value */
	void (*begin)(struct report_ctx *ctx, struct strbuf *out);
	void (*file)(struct report_ctx *ctx, struct strbuf *out,
	    const struct lint_result *res);
	void (*end)(struct report_ctx *ctx, struct strbuf *out);
	/* The catalogue ctx->cat, for --list-rules in this format. */
	void (*rules)(struct report_ctx *ctx, struct strbuf *out);
	/* One rule, for --explain in this format. */
	void (*explain)(struct report_ctx *ctx, struct strbuf *out,
	    const struct rule *r);
	/* The header, for --dump in this format. */
	void (*dump)(struct report_ctx *ctx, struct strbuf *out,
	    const struct gguf_file *f);
	/* The n loaded built-in profiles p, for --list-profiles. */
	void (*profiles)(struct report_ctx *ctx, struct strbuf *out,
	    const struct profile *p, size_t n);
	/* The n probed capability tables t, for --list-kernels. */
	void (*kernels)(struct report_ctx *ctx, struct strbuf *out,
	    const struct captable *t, size_t n);
	/* It prints --deep's per-tensor statistics and SHA-256 (the others
	 * print only the findings, which need neither the sums nor the
	 * hash). */
	bool deep_stats;
	/* The runtime's devices, for --list-devices. */
	void (*devices)(struct report_ctx *ctx, struct strbuf *out,
	    const struct rt_info *info);
	/* An operational error about the input at path (why: the error's
	 * message), between begin and end: it could not be read (read
	 * false), or it was but something else failed (the runtime did not
	 * load), for the formats that report it (SARIF's notifications,
	 * junit's errors); NULL: the message on stderr is all. */
	void (*error)(struct report_ctx *ctx, struct strbuf *out,
	    const char *path, const char *why, bool read);
	/* The n architectures e, for --list-archs; release names the
	 * runtime data's release (a build it knows undated). */
	void (*archs)(struct report_ctx *ctx, struct strbuf *out,
	    const struct arch_entry *e, size_t n, const char *release);
};

/* The registry: a plain array ending with a NULL name; an entry point a
 * format does not implement is NULL. */
extern const struct reporter reporters[];

/* reporter_find: the reporter named name (a --format value; static
 * storage), or NULL. */
const struct reporter *reporter_find(const char *name);

/* report_message: the message of d as the formats show it (borrowed from
 * d): the one place a reporter reads a diagnostic's text. */
const char *report_message(const struct diag *d);

/*
 * report_fingerprint: the partial fingerprint of diagnostic i of res, as
 * 64 hex digits and a NUL in hex: SHA-256 over the code, the path's base
 * name, the subject's kind and bytes, and how many earlier diagnostics of
 * res share the code and subject (when any); never the message or the
 * offset. SARIF's partialFingerprints, gitlab's fingerprint.
 */
void report_fingerprint(const struct lint_result *res, size_t i,
    char hex[65]);

/*
 * report_normalize_path: path without "." and empty segments, each ".."
 * folded into the segment before it (RFC 3986's dot segments); a ".."
 * with nothing to fold stays at the start of a relative path and goes at
 * the root of an absolute one. A URL (report_is_url) is returned as it
 * is. The caller frees the result.
 */
char *report_normalize_path(const char *path);

/* report_json_tool: append {"version": the release, "commit": the
 * checkout's commit or null}, which gguflint wrote a report (json, jsonl). */
void report_json_tool(struct strbuf *out);

/* report_is_url: whether path is an absolute URL, SCHEME://... (a remote
 * file's name). */
bool report_is_url(const char *path);

/*
 * report_subject_extent: where diagnostic d of res lies in its file, for
 * a binary region: returns true with *length set when d's offset is the
 * start of a record the header window holds (a key/value record or a
 * tensor info record) or of a tensor's data, and the extent ends within
 * the file; false when its length is unknown.
 */
bool report_subject_extent(const struct lint_result *res,
    const struct diag *d, uint64_t *length);

/*
 * The formats' entry points, as the registry holds them (see struct
 * reporter for what each does). Strings from the file are escaped as the
 * format needs (enc.h). Each only appends to out and cannot fail; what it
 * is handed is borrowed for the call, and only SARIF's state (copies)
 * outlives it.
 */

/*
 * text: one line per diagnostic, and the plan after them with --plan;
 * begin and end write nothing. Past opts.max_per_rule diagnostics of one
 * rule in a file, one line says how many more there are, where the last
 * of them would be. With opts.show_fixes, a finding's note and fix
 * follow its line, indented ("  = note: ", "  = fix: "), wrapped at 80
 * columns; a finding without a fix of its own shows the catalogue's, on
 * the first finding of its rule in the file.
 */
void report_text_begin(struct report_ctx *ctx, struct strbuf *out);
void report_text_file(struct report_ctx *ctx, struct strbuf *out,
    const struct lint_result *res);
void report_text_end(struct report_ctx *ctx, struct strbuf *out);
void report_text_rules(struct report_ctx *ctx, struct strbuf *out);
void report_text_explain(struct report_ctx *ctx, struct strbuf *out,
    const struct rule *r);
void report_text_profiles(struct report_ctx *ctx, struct strbuf *out,
    const struct profile *p, size_t n);
void report_text_kernels(struct report_ctx *ctx, struct strbuf *out,
    const struct captable *t, size_t n);
void report_text_devices(struct report_ctx *ctx, struct strbuf *out,
    const struct rt_info *info);
/* report-archs.c: --list-archs, a line an architecture and a count of
 * each word at the end (text), an array of objects (json). */
void report_text_archs(struct report_ctx *ctx, struct strbuf *out,
    const struct arch_entry *e, size_t n, const char *release);
void report_json_archs(struct report_ctx *ctx, struct strbuf *out,
    const struct arch_entry *e, size_t n, const char *release);

/* What a lint run found, for its closing summary line. */
struct report_summary {
	size_t count[3];	/* findings per severity, baselined ones not */
	size_t models;		/* models linted or tried */
	size_t failed;		/* models whose findings fail the run */
	size_t unread;		/* models that could not be read */
	size_t baselined;	/* findings the baseline holds */
	size_t gone;		/* baseline entries no longer found */
};

/*
 * report_text_summary: the closing line of a text report, "3 errors, 2
 * warnings in 2 models (1 failed)", with what could not be read and the
 * baseline's counts when there are any; nothing when there is nothing to
 * say (no finding, nothing baselined, gone or unread).
 */
void report_text_summary(struct strbuf *out, const struct report_summary *s);

/*
 * json: one object for the run; each file with its plan, forms and --deep
 * statistics, a comma before it unless ctx->first.
 */
void report_json_begin(struct report_ctx *ctx, struct strbuf *out);
void report_json_file(struct report_ctx *ctx, struct strbuf *out,
    const struct lint_result *res);
void report_json_end(struct report_ctx *ctx, struct strbuf *out);
void report_json_rules(struct report_ctx *ctx, struct strbuf *out);
void report_json_explain(struct report_ctx *ctx, struct strbuf *out,
    const struct rule *r);
void report_json_profiles(struct report_ctx *ctx, struct strbuf *out,
    const struct profile *p, size_t n);
void report_json_kernels(struct report_ctx *ctx, struct strbuf *out,
    const struct captable *t, size_t n);
void report_json_devices(struct report_ctx *ctx, struct strbuf *out,
    const struct rt_info *info);

/*
 * jsonl: JSON Lines, for scans: a line per file as it is reported (the
 * json format's file object with "type": "file"), one per input not read
 * ("type": "error"), and a summary line at the end (report-jsonl.c).
 */
void report_jsonl_begin(struct report_ctx *ctx, struct strbuf *out);
void report_jsonl_file(struct report_ctx *ctx, struct strbuf *out,
    const struct lint_result *res);
void report_jsonl_end(struct report_ctx *ctx, struct strbuf *out);
void report_jsonl_error(struct report_ctx *ctx, struct strbuf *out,
    const char *path, const char *why, bool read);

/*
 * sarif: one SARIF 2.1.0 log whose rules are ctx->cat (so ctx->cat must
 * not be NULL for it; a NULL one gives an empty rules array). begin makes
 * ctx->sarif (freeing any left), file adds to it (a copy of each distinct
 * path), end writes the artifacts and frees it: file and end need a begin
 * first (ctx->sarif not NULL).
 */
void report_sarif_begin(struct report_ctx *ctx, struct strbuf *out);
void report_sarif_file(struct report_ctx *ctx, struct strbuf *out,
    const struct lint_result *res);
void report_sarif_end(struct report_ctx *ctx, struct strbuf *out);
/* report_sarif_help_uri: append tmpl with "{code}" and "{slug}" replaced
 * by r's (a rule's helpUri; GGUFLINT_RULES_URL in report-sarif.c). */
void report_sarif_help_uri(struct strbuf *out, const char *tmpl,
    const struct rule *r);
/* sarif's error: a notification of the invocation (a copy kept until
 * end), about the input at path. */
void report_sarif_error(struct report_ctx *ctx, struct strbuf *out,
    const char *path, const char *why, bool read);
/* report_sarif_free: free a SARIF state (NULL is fine). */
void report_sarif_free(struct report_sarif *s);

/* github: one workflow command per diagnostic; begin and end write
 * nothing. */
void report_github_begin(struct report_ctx *ctx, struct strbuf *out);
void report_github_file(struct report_ctx *ctx, struct strbuf *out,
    const struct lint_result *res);
void report_github_end(struct report_ctx *ctx, struct strbuf *out);

/*
 * gitlab: a GitLab Code Quality report, one JSON array of issues
 * (description, check_name, fingerprint, severity, location.path,
 * location.lines.begin), one per diagnostic but the baselined ones
 * (unless opts.show_baselined); ctx->n_items counts the issues.
 */
void report_gitlab_begin(struct report_ctx *ctx, struct strbuf *out);
void report_gitlab_file(struct report_ctx *ctx, struct strbuf *out,
    const struct lint_result *res);
void report_gitlab_end(struct report_ctx *ctx, struct strbuf *out);

/*
 * junit: JUnit XML, one testsuite per model file and one testcase per
 * rule in force (ctx->filter), failed when a finding of the rule fails
 * the run (opts.fail_on, not baselined); an input that could not be read
 * is a testsuite with one error. Text from the file is made safe for XML
 * 1.0 (no control character, valid UTF-8, escaped).
 */
void report_junit_begin(struct report_ctx *ctx, struct strbuf *out);
void report_junit_file(struct report_ctx *ctx, struct strbuf *out,
    const struct lint_result *res);
void report_junit_end(struct report_ctx *ctx, struct strbuf *out);
/* junit's error: an input not read is a testsuite with one error (an
 * error about a file read is left to stderr). */
void report_junit_error(struct report_ctx *ctx, struct strbuf *out,
    const char *path, const char *why, bool read);

/* report-man.c: ctx->cat as the gguflint-rules(7) manual page, in mdoc:
 * only the built-in families (F M N P W K S D), so a rule file's rules of
 * another family are left out. */
void report_rules_mdoc(struct report_ctx *ctx, struct strbuf *out);

/* report-plan.c: res's memory plan, as a text table (nothing when the
 * lint made none) or a JSON object (null when it made none). */
void report_plan_text(struct strbuf *out, const struct lint_result *res);
void report_plan_json(struct strbuf *out, const struct lint_result *res);
/* report-plan.c: the oldest llama.cpp res's file needs (the lint's
 * res->min_runtime), as the JSON object {"llama.cpp": "bNNNN", "date",
 * "dated", "known", "because"} (null when the lint found none: a SKaiNET
 * profile, or a file that names nothing dated). */
void report_runtime_json(struct strbuf *out, const struct lint_result *res);

/* dump.c: the header of f (metadata, tensor infos), for --dump, as text
 * or JSON; of ctx, only first is touched (cleared, before anything is
 * read from f). Strings are read from f's mapping: run it under the guard
 * when the file may shrink (guard.h). */
void dump_text(struct report_ctx *ctx, struct strbuf *out,
    const struct gguf_file *f);
void dump_json(struct report_ctx *ctx, struct strbuf *out,
    const struct gguf_file *f);

#endif
