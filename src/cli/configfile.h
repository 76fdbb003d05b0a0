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

/*
 * config_find: the nearest .gguflint.yaml from the current directory
 * upward, or NULL. The caller frees it.
 */
char *config_find(void);

/*
 * config_load: read the file at path: its rule files are added to cat, its
 * decisions to pol (globs become relative to the file's directory), the
 * rest to cfg. Returns 0, or -1 with err naming FILE:LINE:COL and what was
 * expected.
 */
int config_load(const char *path, struct catalog *cat, struct policy *pol,
    struct config *cfg, struct gl_error *err);
/*
 * config_parse: the same for text (len bytes) named origin, whose
 * relative paths and globs are relative to dir; load_rules false skips
 * reading the rule files it names (for fuzzing).
 */
int config_parse(const char *origin, const char *dir, const char *text,
    size_t len, bool load_rules, struct catalog *cat, struct policy *pol,
    struct config *cfg, struct gl_error *err);
void config_free(struct config *cfg);

#endif
