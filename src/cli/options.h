/*
 * options.h - the command line, parsed into plain data. Nothing is loaded
 * or checked against the catalogue here; the session (session.c) does
 * that.
 */
#ifndef GGUFLINT_OPTIONS_H
#define GGUFLINT_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "base/error.h"
#include "lint.h"

enum cli_mode {
	CLI_MODE_LINT = 0,
	CLI_MODE_DUMP,
	CLI_MODE_LIST_RULES,
	CLI_MODE_EXPLAIN,
	CLI_MODE_LIST_PROFILES,
	CLI_MODE_LIST_KERNELS,
	CLI_MODE_LIST_DEVICES,
	CLI_MODE_LIST_ARCHS,
	CLI_MODE_HELP,
	CLI_MODE_VERSION
};

struct options {
	enum cli_mode mode;
	const char *format;		/* reporter name */
	const char *explain;		/* --explain's argument */
	const char *profile;		/* name or path */
	uint64_t ctx;			/* 0: the profile's or model's */
	const char *kv;			/* KV cache type name, or NULL */
	const char *kv_k, *kv_v;	/* -ctk, -ctv, or NULL */
	const char *flash_attn;		/* -fa on|off|auto, or NULL */
	uint64_t ubatch, batch;		/* -ub, -b; 0: the profile's */
	uint64_t n_seq;			/* -np; 0: the profile's */
	long ngl;			/* -ngl; -2: the profile's */
	long n_cpu_moe;			/* -ncmoe N; -1: --cpu-moe (all);
					 * 0: none given */
	bool no_mmap;			/* --no-mmap */
	bool swa_full;			/* --swa-full */
	bool show_plan;			/* --plan */
	bool deep;			/* --deep */
	bool strict;			/* --strict */
	const char *runtime_version;	/* --runtime-version, or NULL */
	uint32_t runtime_build;		/* its build (profile.h) */
	const char *runtime;		/* --runtime DIR, or NULL */
	const char *device;		/* --device NAME, or NULL */
	bool no_cache;			/* --no-cache */
	bool measure;			/* --measure */
	double connect_timeout;		/* --connect-timeout S, or 0 */
	double timeout;			/* --timeout S, or 0 */
	const char *cacert;		/* --cacert FILE, or NULL */
	const char *write_kernels;	/* --write-kernels FILE, or NULL */
	const char *config;		/* --config FILE */
	bool no_config;			/* --no-config */
	const char *fail_on;		/* --fail-on LEVEL, or NULL */
	long max_warnings;		/* --max-warnings N, or -1 */
	bool exit_zero;			/* --exit-zero: 1 becomes 0 */
	const char *output;		/* --output FILE, or NULL: stdout */
	const char *baseline;		/* --baseline FILE, or NULL */
	const char *write_baseline;	/* --write-baseline FILE, or NULL */
	bool show_baselined;		/* --show-baselined */
	long max_per_rule;		/* --max-per-rule N, or -1 */
	int show_fixes;			/* --show-fixes 1, --no-show-fixes
					 * 0; -1: when stdout is a TTY */
	int progress;			/* --progress 1, --no-progress 0;
					 * -1: when stderr is a TTY */
	bool quiet;			/* --quiet */
	bool statistics;		/* --statistics */
	enum color_mode { COLOR_AUTO, COLOR_ALWAYS, COLOR_NEVER } color;
	const char **select;		/* each a comma-separated list */
	size_t n_select;
	const char **ignore;
	size_t n_ignore;
	struct lint_companion *companions;	/* --mmproj --lora
					 * --control-vector --draft, in order
					 * (paths borrowed from argv) */
	size_t n_companions;
	char **files;			/* borrowed from argv */
	size_t n_files;
	const char *files_from;		/* --files-from LIST, or NULL */
	unsigned shard_i, shard_n;	/* --shard I/N; 0/0: every model */
	unsigned jobs;			/* --jobs N; 0: the default */
	unsigned max_per_host;		/* --max-per-host M; 0: 8 */
};

/*
 * options_parse: fill o (zeroed first) from argv with getopt_long, which
 * may reorder argv (options first) and whose global state (optind) it
 * resets: not reentrant. --help and --version stop the parse (no files).
 * Returns 0, or -1 with err describing the usage error (GL_ERR_USAGE).
 * Strings, files among them, are borrowed from argv, which must outlive
 * o; either way release o with options_free(). llama.cpp's single-dash
 * names (-ctk -ctv -fa -ub -np -ngl -cmoe -ncmoe) are rewritten in argv
 * to their long forms first.
 */
int options_parse(struct options *o, int argc, char **argv,
    struct gl_error *err);
/* options_free: free the lists o holds (not the borrowed strings); o is
 * left zeroed. */
void options_free(struct options *o);
/* options_usage: print the --help text to fp (write errors are fp's). */
void options_usage(FILE *fp);

#endif
