/*
 * profile.h - device profiles: what a target device offers (memory, the
 * reserve its system keeps, whether weights are mapped or copied to the
 * heap, strictness, default context and KV cache type, flash attention,
 * which capability table describes its kernels), and the runtime it
 * describes: SKaiNET's planner, or llama.cpp with its backend, device
 * memory, CPU features and batch settings. Built-in profiles are
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

/* The runtime a profile describes: whose arithmetic the plan follows. */
enum profile_runtime {
	RUNTIME_LLAMA_CPP = 0,	/* llama.cpp (ggml); a user profile's default */
	RUNTIME_SKAINET		/* SKaiNET's planner (skainet-semantics.md) */
};

/* CPU features that decide ggml-cpu's weight repacking (cpu_features:). */
#define CPU_FEAT_AVX2 (1u << 0)
#define CPU_FEAT_AVX512 (1u << 1)	/* avx512f */
#define CPU_FEAT_NEON (1u << 2)
#define CPU_FEAT_DOTPROD (1u << 3)
#define CPU_FEAT_I8MM (1u << 4)		/* matmul_int8 */
#define CPU_FEAT_SVE (1u << 5)
#define CPU_FEAT_OTHER (1u << 6)	/* a named feature that decides
					 * nothing (fma, f16c, avx, ...) */

/* A size the profile does not state. */
#define PROFILE_UNKNOWN UINT64_MAX

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

	enum profile_runtime runtime;
	bool runtime_set;		/* named in the file */
	char *backend;			/* llama.cpp's: cpu, cuda, metal, ... */
	uint64_t device_memory;		/* a discrete GPU's; 0: none */
	uint64_t device_reserve;	/* the free margin llama.cpp's --fit
					 * leaves (--fit-target) */
	uint64_t device_overhead;	/* what the device's runtime takes
					 * beyond llama.cpp's buffers (its
					 * context, BLAS workspace, pool);
					 * PROFILE_UNKNOWN: not stated */
	bool unified;			/* the GPU shares memory (RAM) */
	uint32_t cpu_features;		/* CPU_FEAT_* */
	bool cpu_features_host;		/* "host": detected on this machine */
	uint64_t batch;			/* llama.cpp's n_batch */
	uint64_t n_seq;			/* llama.cpp's n_seq_max */
	int64_t gpu_layers;		/* -ngl; -1: all */
	char *runtime_version;		/* llama.cpp's, as named; NULL */
	char *runtime_dir;		/* a ggml runtime's folder (the
					 * libraries to probe), or NULL */
	uint32_t runtime_build;		/* its build number; 0: not named;
					 * RUNTIME_BUILD_REPLICA */
	/* The GPU's limits (a llama.cpp GPU profile's; a probe of the
	 * device measures max_alloc and overrides it): */
	uint64_t max_alloc;		/* the largest tensor the device takes
					 * (ggml's supports_op and the weights'
					 * buffer-type test); 0: none */
	bool max_alloc_set;		/* named (a number, or none) */
	uint64_t host_max_alloc;	/* the largest buffer of the host
					 * buffer type beside the device
					 * (ggml_backend_buft_get_max_size):
					 * ggml-alloc places a compute buffer
					 * in blocks of it; 0: none */
	bool host_max_alloc_set;	/* named (a number, or none) */
};

/*
 * The release gguflint replicates (REPLICA_LLAMA_CPP, base/replica.h: the
 * llama.cpp whose libraries build-aux/install-llama installs): its build
 * number is not known (its source is a squashed snapshot), but it is
 * newer than every build the data of rules/runtime/llama.cpp.yaml dates,
 * and knows every name the data lists.
 */
#define RUNTIME_BUILD_REPLICA UINT32_MAX

/*
 * runtime_version_parse: a llama.cpp version: "bNNNN" (a build number from
 * 1 to 9999999, as llama.cpp's release tags name them) or the replicated
 * release's name, REPLICA_LLAMA_CPP ("v0.5.0", or "0.5.0"). Returns 0
 * with *build set (RUNTIME_BUILD_REPLICA for the release), or -1 for
 * anything else (*build untouched).
 */
int runtime_version_parse(const char *s, uint32_t *build);
/* runtime_version_expect: what runtime_version_parse accepts, for messages
 * ("expected ..."; static). */
const char *runtime_version_expect(void);

/* profile_runtime_name: "llama.cpp" or "skainet" (static). */
const char *profile_runtime_name(enum profile_runtime r);
/* profile_gpu: true when p describes llama.cpp on a GPU backend. */
bool profile_gpu(const struct profile *p);
/*
 * cpu_features_parse: the CPU_FEAT_* bit of one feature name (avx2,
 * avx512, avx512f, neon, dotprod, i8mm, sve; other known x86/arm names
 * give CPU_FEAT_OTHER), or 0 for a name that is no CPU feature.
 * cpu_features_host: this machine's, from /proc/cpuinfo (0 when it
 * cannot be read). cpu_features_format: "avx2 avx512" etc. into buf.
 */
uint32_t cpu_features_parse(const char *name);
uint32_t cpu_features_host(void);
const char *cpu_features_format(uint32_t f, char *buf, size_t bufsz);

#define PROFILE_DEFAULT "host"

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
