/*
 * advisory.h - the published advisories on loading GGUF files (the data
 * file rules/runtime/advisories.yaml): which runtime each is about, the
 * first build that fixes it, and the findings of gguflint that mark the
 * pattern it is about. Rule S006 reads them (check-advisory.c).
 */
#ifndef GGUFLINT_ADVISORY_H
#define GGUFLINT_ADVISORY_H

#include <stddef.h>
#include <stdint.h>

#include "base/error.h"

/* The runtime an advisory is about. */
enum adv_component {
	ADV_LLAMA_CPP = 0, /* judged against llama.cpp builds */
	ADV_GGML,	   /* ggml as llama.cpp ships it: the same builds */
	ADV_OLLAMA	   /* Ollama's own versions: recorded, not judged */
};

#define ADV_MAX_RULES 8
#define ADV_RULE_MAX 64

/* One advisory. */
struct adv_row {
	char *id; /* "CVE-2025-53630" */
	enum adv_component component;
	char *fixed;	      /* "b5854", "0.17.1" */
	uint32_t fixed_build; /* llama.cpp's bNNNN; 0 for Ollama */
	bool verified;	      /* the fix's commit is in the history */
	char *bug;	      /* one line */
	char *source;	      /* a URL */
	char rules[ADV_MAX_RULES][ADV_RULE_MAX]; /* findings of its
					 * pattern: "F021", or
					 * "M004:SUFFIX", a finding of
					 * M004 whose subject (a key or
					 * tensor name) ends in SUFFIX */
	size_t n_rules;
};

struct adv_db {
	struct adv_row *rows;
	size_t n;
};

/*
 * adv_db_parse: read one data document (text of len bytes, named origin in
 * messages) into db. Returns 0 (free it with adv_db_free()), or -1 with err
 * (GL_ERR_PARSE, file:line:col and what was expected) and nothing to free.
 */
int adv_db_parse(struct adv_db *db, const char *origin, const char *text,
    size_t len, struct gl_error *err);
/* adv_db_free: free what db owns; db is left zeroed. */
void adv_db_free(struct adv_db *db);

/*
 * adv_db_get: the process-wide table, loaded from the data file
 * "rules/runtime/advisories.yaml" (datafile_load) on the first call, under
 * a lock. Returns 0 with *out (valid until adv_db_cleanup()), or -1 with
 * err: the load's error, kept and returned again on later calls.
 */
int adv_db_get(const struct adv_db **out, struct gl_error *err);
/* adv_db_cleanup: free the process-wide table. */
void adv_db_cleanup(void);

/* adv_component_name: "llama.cpp", "ggml", "ollama" (static). */
const char *adv_component_name(enum adv_component c);

#endif
