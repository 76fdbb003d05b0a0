/*
 * configfile.h - the configuration file, .gguflint.yaml: found from the current
 * directory upward (or given with --config). It sets the profile, context,
 * KV cache type and strictness, the rules selected or ignored, severity
 * overrides, per-file ignores, suppressions naming a tensor or a key, extra
 * rule files, the severity that fails the run and a warning budget. The
 * format is documented in gguflint-profile(5); command-line flags win.
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
	bool has_strict;
	bool strict;
};

struct declset;

/*
 * config_find: the nearest regular file .gguflint.yaml from the current
 * directory upward, or NULL when there is none (or the current directory
 * cannot be named). The caller frees it.
 */
char *config_find(void);

/*
 * config_load: read the file at path: the rules of its rule files are
 * added to cat (their entries) and decls (their matchers), its decisions
 * to pol (globs become relative to the file's directory), the rest to cfg
 * (which it initialises). Returns 0, or -1 with err naming FILE:LINE:COL
 * and what was expected (GL_ERR_PARSE), or why a file could not be read
 * (GL_ERR_IO, GL_ERR_LIMIT); what was added so far stays added, and cfg
 * must still be freed with config_free().
 */
int config_load(const char *path, struct catalog *cat, struct declset *decls,
    struct policy *pol, struct config *cfg, struct gl_error *err);
/*
 * config_parse: the same for text (len bytes) named origin, whose
 * relative paths and globs are relative to dir; load_rules false skips
 * reading the rule files it names (for fuzzing; decls may then be NULL).
 */
int config_parse(const char *origin, const char *dir, const char *text,
    size_t len, bool load_rules, struct catalog *cat, struct declset *decls,
    struct policy *pol, struct config *cfg, struct gl_error *err);
/* config_free: free what cfg owns; cfg is left zeroed. */
void config_free(struct config *cfg);

#endif
