/*
 * report.h - reporters: the only code that turns results into output.
 * A reporter appends to a strbuf; the caller writes it out and checks the
 * write, so a full disk or closed pipe is an error, not silence.
 */
#ifndef GGUFLINT_REPORT_H
#define GGUFLINT_REPORT_H

#include "findings/catalog.h"
#include "lint.h"

/* What the reporters are asked to show beyond the diagnostics. */
struct report_opts {
	bool show_plan;		/* --plan (JSON always carries the plan) */
	bool color;		/* ANSI colours in text output */
};

struct reporter {
	const char *name;	/* the --format value */
	void (*begin)(struct strbuf *out);
	void (*file)(struct strbuf *out, const struct lint_result *res,
	    bool first, const struct report_opts *ro);
	void (*end)(struct strbuf *out);
	/* The catalogue, for --list-rules and --explain in this format. */
	void (*rules)(struct strbuf *out, const struct catalog *cat);
	void (*explain)(struct strbuf *out, const struct rule *r);
	/* The header, for --dump in this format. */
	void (*dump)(struct strbuf *out, const struct gguf_file *f);
	/* The built-in profiles, for --list-profiles. */
	void (*profiles)(struct strbuf *out);
	/* The probed capability tables, for --list-kernels. */
	void (*kernels)(struct strbuf *out, const struct captable *t, size_t n);
	/* It prints --deep's per-tensor statistics and SHA-256 (the others
	 * print only the findings, which need neither the sums nor the hash). */
	bool deep_stats;
};

/* The registry: a plain array ending with a NULL name. */
extern const struct reporter reporters[];

const struct reporter *reporter_find(const char *name);

void report_text_begin(struct strbuf *out);
void report_text_file(struct strbuf *out, const struct lint_result *res,
    bool first, const struct report_opts *ro);
void report_text_end(struct strbuf *out);
void report_text_rules(struct strbuf *out, const struct catalog *cat);
void report_text_explain(struct strbuf *out, const struct rule *r);
void report_text_profiles(struct strbuf *out);
void report_text_kernels(struct strbuf *out, const struct captable *t,
    size_t n);

void report_json_begin(struct strbuf *out);
void report_json_file(struct strbuf *out, const struct lint_result *res,
    bool first, const struct report_opts *ro);
void report_json_end(struct strbuf *out);
void report_json_rules(struct strbuf *out, const struct catalog *cat);
void report_json_explain(struct strbuf *out, const struct rule *r);
void report_json_profiles(struct strbuf *out);
void report_json_kernels(struct strbuf *out, const struct captable *t,
    size_t n);
void report_json_forms(struct strbuf *out, const struct lint_result *res);
void report_json_deep(struct strbuf *out, const struct lint_result *res);

void report_sarif_begin(struct strbuf *out);
void report_sarif_file(struct strbuf *out, const struct lint_result *res,
    bool first, const struct report_opts *ro);
void report_sarif_end(struct strbuf *out);

void report_github_begin(struct strbuf *out);
void report_github_file(struct strbuf *out, const struct lint_result *res,
    bool first, const struct report_opts *ro);
void report_github_end(struct strbuf *out);

/* report-man.c */
void report_rules_mdoc(struct strbuf *out, const struct catalog *cat);

/* report-plan.c */
void report_plan_text(struct strbuf *out, const struct lint_result *res);
void report_plan_json(struct strbuf *out, const struct lint_result *res);

/* dump.c */
void dump_text(struct strbuf *out, const struct gguf_file *f);
void dump_json(struct strbuf *out, const struct gguf_file *f);

#endif
