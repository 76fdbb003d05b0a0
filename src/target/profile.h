/*
 * profile.h - device profiles: what a target device offers (memory, the
 * reserve its system keeps, whether weights are mapped or copied to the
 * heap, strictness, default context and KV cache type, flash attention,
 * which capability table describes its kernels). Built-in profiles are
 * profiles/NAME.yaml, compiled into the binary; --profile PATH loads a file.
 * The format is documented in gguflint-profile(5).
 */
#ifndef GGUFLINT_PROFILE_H
#define GGUFLINT_PROFILE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "base/error.h"
#include "target/kvtype.h"
#include "base/util.h"

enum weights_residency {
	WEIGHTS_HEAP = 0,	/* copied into allocated memory */
	WEIGHTS_MAPPED		/* served from a read-only file mapping */
};

struct profile {
	char *name;
	char *description;
	char *origin;			/* where it was loaded from */
	uint64_t memory;		/* bytes the device offers */
	uint64_t reserve;		/* bytes its system keeps */
	enum weights_residency weights;
	bool strict;
	uint64_t context;		/* default context; 0: the model's */
	enum kv_type kv_cache;		/* default KV cache type */
	enum kv_type kv_quantized;	/* what auto-quantize switches to */
	double kv_auto_quantize_above;	/* share of the budget; 1.0:
					 * only when over it */
	uint64_t prefill_chunk;		/* tokens per forward pass */
	uint64_t ubatch;		/* llama.cpp's n_ubatch (the SWA
					 * cache's size) */
	bool flash_attention;
	char *kernels;			/* capability table name */
};

#define PROFILE_DEFAULT "desktop"

/*
 * profile_load: NAME is a built-in profile name (one in the data directory
 * counts), or a path to a YAML file (anything containing '/' or ending in
 * ".yaml"; at most 1 MiB). Returns 0 with p filled (free it with
 * profile_free()), or -1 with nothing to free and err set:
 * GL_ERR_NOT_FOUND "unknown profile" for a name there is no profile of,
 * GL_ERR_IO or GL_ERR_LIMIT when the file cannot be read, GL_ERR_PARSE
 * naming file:line:col and what was expected (or a data file declaring
 * another profile's name). err may be NULL (error.h).
 */
int profile_load(const char *name, struct profile *p, struct gl_error *err);

/*
 * profile_parse: parse one profile document (text of len bytes, named
 * origin in messages; both copied where kept) into p, its defaults first
 * (kernels "cpu" unless named). Returns 0 with p filled, or -1
 * (GL_ERR_PARSE) with nothing to free.
 */
int profile_parse(const char *origin, const char *text, size_t len,
    struct profile *p, struct gl_error *err);

/* profile_free: free what p owns; p is left zeroed. */
void profile_free(struct profile *p);

/* profile_builtin_names: the built-in profile names, NULL-terminated,
 * sorted (builtin_names("profiles"): kept until builtin_names_cleanup()). */
const char *const *profile_builtin_names(void);

#endif
