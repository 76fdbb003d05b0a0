/*
 * runtime.h - the runtime probe: a user's ggml install (the folder of
 * libggml-base, libggml and the backend libraries), loaded at run time
 * with dlopen in a child process, asked which (operation, encoding) each
 * device claims (supports_op) and made to run every claimed one once on
 * deterministic probe data, compared with gguflint's reference.
 *
 * gguflint never links ggml: every function is bound with dlsym, and no
 * struct layout is assumed beyond ggml_init_params and a tensor's type and
 * ne, which the child checks on the first tensor it makes. The runtime runs
 * only in children (fork, then dlopen and device init: a GPU context does
 * not survive a fork); a child that aborts, crashes or hangs makes the case
 * it was on unsafe, and a fresh child goes on from the next one.
 */
#ifndef GGUFLINT_RUNTIME_H
#define GGUFLINT_RUNTIME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/error.h"
#include "target/captable.h"

enum rt_op {
	RT_MUL_MAT = 0, /* weights times a batch of activations */
	RT_GET_ROWS,	/* rows read out, as an embedding lookup */
	RT_MUL_MAT_ID	/* expert weights chosen per token */
};

enum rt_state {
	RT_REFERENCE_ONLY = 0, /* not probed on a runtime */
	RT_VERIFIED,	       /* claimed and right on the probe data */
	RT_FALLBACK,	       /* not claimed: ggml runs it on the CPU */
	RT_UNSAFE	       /* claimed, but wrong, an abort or a hang */
};

#define RT_TOLERANCE 5e-4   /* NMSE bound of a matrix product */
#define RT_BATCH 512	    /* activations of a mul_mat probe */
#define RT_ROW_DEFAULT 4096 /* row length when no model says one */

/* One (operation, encoding, row length) to probe, and its answer. */
struct rt_case {
	enum rt_op op;
	uint32_t encoding; /* ggml type id of the weights */
	uint32_t row;	   /* elements of a weight row */
	/* the answer */
	enum rt_state state;
	double nmse;	   /* when run; else 0 */
	char *reason;	   /* what happened (unsafe, fallback), or NULL */
	bool cached;	   /* the answer came from the cache */
	unsigned late_s;   /* unsafe for no answer within this limit
			    * (s); else 0. A cached one is probed
			    * again under a longer limit */
	size_t tag, count; /* the caller's (lint: the first tensor of
				 * the case and how many it covers) */
};

/* One device of the runtime, as ggml describes it. */
struct rt_device {
	char *name;	   /* "CPU", "Vulkan0" */
	char *description; /* the driver's name of it */
	char *type;	   /* "CPU", "GPU", "IGPU", "ACCEL", "META" */
	uint64_t mem_free, mem_total;
	/* the backend library that registered it ("libggml-cpu-zen4.so"),
	 * or "" */
	char *library;
	/* the largest tensor (bytes) it claims an operation on; 0: no
	 * limit found */
	uint64_t max_tensor;
	bool max_tensor_known; /* measured (else max_tensor is 0) */
};

/* What was loaded and on what it ran; runtime_info_free() frees it. */
struct rt_info {
	char *dir;
	char *version;		   /* ggml_version(), or "unknown" */
	char *commit;		   /* ggml_commit(), or "unknown" */
	struct rt_device *devices; /* runtime_devices() */
	size_t n_devices;
	struct rt_device device; /* the one probed */
	char *date;		 /* when the probe ran (UTC, ISO 8601) */
	double probe_ms;	 /* the whole probe, cache included */
	size_t n_cached;	 /* answers taken from the cache */
};

struct rt_request {
	const char *dir;    /* the folder of the libraries */
	const char *device; /* ggml's device name; NULL: the first GPU,
				 * else the first device */
	bool no_cache;	    /* --no-cache: probe afresh */
	unsigned timeout_s; /* per case; 0: GGUFLINT_PROBE_TIMEOUT or
				 * 120 */
	bool measure;	    /* --measure: llama.cpp reserves the plan's
			     * compute buffers (runtime_llama_measure) */
};

/*
 * runtime_devices: load the runtime of dir in a child and list its
 * devices into info (zeroed first). Returns 0, or -1 with err set (the
 * libraries missing, of another ABI, or the child failing); either way
 * free info with runtime_info_free().
 */
int runtime_devices(const char *dir, struct rt_info *info,
    struct gl_error *err);

/*
 * runtime_probe: answer the n cases (each's state, nmse, reason, cached
 * filled; reasons owned by the case, freed by runtime_cases_free) on the
 * device rq asks for, from the cache where it holds them unless
 * rq->no_cache (an answer of no answer in time only for a limit as long),
 * and store what was probed. info (zeroed first) says what
 * ran. Returns 0, or -1 with err set when the runtime cannot be loaded or
 * the device is not found or does not initialise (no case answered);
 * free info with runtime_info_free() either way.
 */
int runtime_probe(const struct rt_request *rq, struct rt_case *cases, size_t n,
    struct rt_info *info, struct gl_error *err);

/*
 * runtime_cases_all: every encoding gguflint has a reference for, each
 * for mul_mat and get_rows, with rows of row elements (rounded up to a
 * multiple of 256), in a new array of *n cases (free() it, after
 * runtime_cases_free).
 */
struct rt_case *runtime_cases_all(uint32_t row, size_t *n);

/*
 * runtime_table: the mul_mat and get_rows answers among the n cases as a
 * capability table t (zeroed first; free it with captable_free), each
 * entry naming gguflint's kernel for it, with info's provenance and live
 * set: loadable as a table once written (captable_write).
 */
void runtime_table(const struct rt_info *info, const struct rt_case *cases,
    size_t n, struct captable *t);

/* runtime_cases_free: free the reasons of n cases. */
void runtime_cases_free(struct rt_case *cases, size_t n);

/* runtime_info_free: free what info owns; info is zeroed. */
void runtime_info_free(struct rt_info *info);

/* rt_op_name, rt_state_name: their spelling in reports (static). */
const char *rt_op_name(enum rt_op op);
const char *rt_state_name(enum rt_state s);

/*
 * runtime_has_reference: whether gguflint can compute the reference of
 * encoding (it has an as-stored dequantizer for it): only such encodings
 * can be verified.
 */
bool runtime_has_reference(uint32_t encoding);

/* What the runtime's llama.cpp said of a model's vocabulary load. */
enum rt_llama_verdict {
	RT_LLAMA_NONE = 0, /* not asked: the folder has no libllama */
	RT_LLAMA_SKIPPED,  /* not loaded: text says why (its
			    * llama_model_params layout is unknown) */
	RT_LLAMA_LOADED,   /* it loads the vocabulary */
	RT_LLAMA_REFUSED,  /* text: llama.cpp's first error line */
	RT_LLAMA_DIED,	   /* text: how the loader crashed or hung */
	RT_LLAMA_FAILED	   /* text: libllama did not load */
};

struct rt_llama {
	enum rt_llama_verdict verdict;
	char *version; /* llama_version(), or NULL */
	char *text;    /* see the verdicts, or NULL */
	bool cached;   /* the verdict is the cache's (llama-cache.c) */
};

/*
 * runtime_llama_vocab: load the model at path (a file; a split model's
 * first shard) with rt->dir's libllama, vocabulary only (vocab_only), in
 * a child with a time limit (rt->timeout_s; 0: GGUFLINT_PROBE_TIMEOUT or
 * 120) and an 8 GiB address space, into out (zeroed first; free it with
 * runtime_llama_free). No libllama in the folder is RT_LLAMA_NONE. Never
 * fails: what went wrong is the verdict. A load or a refusal is cached,
 * keyed by the libraries and the model's files (each one's real path,
 * size and times), and taken from the cache unless rt->no_cache.
 */
void runtime_llama_vocab(const struct rt_request *rt, const char *path,
    struct rt_llama *out);

/* runtime_llama_free: free what l owns; l is zeroed. */
void runtime_llama_free(struct rt_llama *l);

/* What a measurement asks llama.cpp for: a plan's parameters. */
struct rt_measure_req {
	uint32_t n_ctx, n_batch, n_ubatch, n_seq;
	int32_t type_k, type_v;	   /* ggml's type numbers */
	bool flash_attn, swa_full; /* kv_unified: off, as llama-cli's */
	int32_t ngl;		   /* n_gpu_layers */
	int32_t n_cpu_moe;	   /* layers whose experts stay on the CPU */
	const char *device;	   /* ggml's device name; NULL: the CPU only */
};

#define RT_MEASURE_BUFS 8

/* What llama.cpp reserved: its compute buffers, by buffer type. */
struct rt_measure {
	struct rt_llama said; /* LOADED: measured; else why not */
	size_t n;
	struct {
		char name[32];	/* ggml's buffer type, "Vulkan0", "CPU" */
		uint64_t bytes; /* to 0.01 MiB: llama.cpp's log */
	} buf[RT_MEASURE_BUFS];
};

/*
 * runtime_llama_measure: load the model at path with rt->dir's libllama
 * as rq says, in llama.cpp's no_alloc mode (sizes, no memory, no tensor
 * read: the file is read like --no-mmap's), make its context and read
 * the compute buffers its scheduler reserves from its log; into out
 * (zeroed first; free it with runtime_llama_measure_free). In a child
 * and cached like runtime_llama_vocab's (per rq); never fails: what went
 * wrong is out->said's verdict.
 */
void runtime_llama_measure(const struct rt_request *rt, const char *path,
    const struct rt_measure_req *rq, struct rt_measure *out);
void runtime_llama_measure_free(struct rt_measure *m);

/* runtime_has_llama: whether dir holds a libllama library. */
bool runtime_has_llama(const char *dir);

/* runtime_present: whether dir holds a libggml-base library. */
bool runtime_present(const char *dir);

/*
 * runtime_dir_default: the folder of the libraries when no option names
 * one: $GGUFLINT_RUNTIME, or NULL (static or the environment's).
 */
const char *runtime_dir_default(void);

#endif
