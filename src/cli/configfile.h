/*
 * configfile.h - the configuration file, .gguflint.yaml: found from the current
 * directory upward (or given with --config). It sets the profile, context,
 * KV cache type and strictness, llama.cpp's settings (the K and V cache
 * types, flash attention, batches, sequences, offloaded layers, mmap, the
 * full sliding-window cache), the rules selected or ignored, severity
 * overrides, per-file ignores, suppressions naming a tensor or a key, extra
 * rule files, the severity that fails the run, a warning budget,
 * whether findings exit 0 (exit-zero), a baseline file and how many
 * findings of a rule the text report shows (max-per-rule). The format is
 * documented in gguflint-profile(5); command-line flags win.
 */
#ifndef GGUFLINT_CONFIGFILE_H
#define GGUFLINT_CONFIGFILE_H

#include <stdbool.h>
#include <stdint.h>

#include "findings/catalog.h"
#include "base/error.h"
#include "findings/policy.h"

#define CONFIG_NAME ".gguflint.yaml"

struct config {
	char *path;		/* the file */
	char *profile;		/* or NULL */
	uint64_t ctx;		/* 0: unset */
	char *kv;		/* or NULL */
	char *kv_k, *kv_v;	/* cache_type_k, cache_type_v, or NULL */
	char *flash_attn;	/* "on", "off", "auto", or NULL */
	uint64_t ubatch, batch;	/* ubatch_size, batch_size; 0: unset */
	uint64_t n_seq;		/* parallel; 0: unset */
	bool has_ngl;		/* n_gpu_layers given */
	int64_t ngl;		/* n_gpu_layers; -1: all */
	int64_t n_cpu_moe;	/* n_cpu_moe; -1: all; 0: none */
	bool no_mmap;		/* no_mmap */
	bool swa_full;		/* swa_full */
	bool has_strict;
	bool strict;
	bool exit_zero;		/* exit-zero: findings exit 0 */
	char *baseline;		/* baseline: its path (relative to the
				 * file's folder made whole), or NULL */
	uint64_t timeout;	/* a remote header's seconds; 0: unset */
	uint64_t connect_timeout;	/* seconds to connect; 0: unset */
	char *cacert;		/* cacert: its path (made whole as
				 * baseline's), or NULL */
	char *cacert_at;	/* "FILE:LINE:COL: cacert", for messages */
	bool has_max_per_rule;	/* max-per-rule given */
	uint64_t max_per_rule;	/* max-per-rule: text, per rule; 0: all */
};

struct declset;

/*
 * config_find: the nearest regular file .gguflint.yaml from the current
 * directory upward, or NULL when there is none (or the current directory
 * cannot be named). The caller frees it.
 */
char *config_find(void);

/*
 * config_load: read the file at path (at most 1 MiB): the rules of its
 * rule files are added to cat (their entries) and decls (their matchers),
 * its decisions to pol (pol->base, replaced, becomes the file's real
 * directory: globs and relative paths are relative to it), the rest to
 * cfg (which it initialises; cfg->path is path). Rule names are checked
 * against cat, rule files' rules included, and the profile is loaded once
 * to check it. Returns 0, or -1 with err naming FILE:LINE:COL and what was
 * expected (GL_ERR_PARSE), or FILE:LINE:COL of the name of a file (rule
 * file, profile) that could not be found or read and why (GL_ERR_IO,
 * GL_ERR_NOT_FOUND, GL_ERR_LIMIT), or an error inside a rule file or
 * profile at its own place (GL_ERR_PARSE); what was added so
 * far stays added, and cfg must still be freed with config_free(). All it
 * adds is owned by cat, decls, pol and cfg; nothing borrows the text.
 */
int config_load(const char *path, struct catalog *cat, struct declset *decls,
    struct policy *pol, struct config *cfg, struct gl_error *err);
/*
 * config_profile_hint: when err says that no profile is called name
 * (GL_ERR_NOT_FOUND, name not a path), append "; did you mean 'X'?"
 * naming the nearest built-in profile, if one is near; otherwise leave
 * err as it is. err may be NULL.
 */
void config_profile_hint(const char *name, struct gl_error *err);

/*
 * config_parse: the same for text (len bytes) named origin (copied into
 * cfg->path), whose relative paths and globs are relative to dir (copied
 * into pol->base); load_rules false skips reading the rule files and the
 * profile it names (for fuzzing; decls may then be NULL). Errors as
 * config_load's, but for GL_ERR_IO, GL_ERR_NOT_FOUND and GL_ERR_LIMIT only
 * from a rule file or the profile.
 */
int config_parse(const char *origin, const char *dir, const char *text,
    size_t len, bool load_rules, struct catalog *cat, struct declset *decls,
    struct policy *pol, struct config *cfg, struct gl_error *err);
/* config_free: free what cfg owns; cfg is left zeroed. */
void config_free(struct config *cfg);

#endif
