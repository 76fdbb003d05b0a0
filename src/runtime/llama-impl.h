/*
 * llama-impl.h - what the child's two libllama jobs share: llama.c (the
 * binding, the layouts of llama_model_params, the pipe, the vocabulary
 * load) and measure.c (a load in no_alloc mode and a context, whose
 * compute buffers it reads from llama.cpp's log). Private to
 * src/runtime/.
 *
 * Their lines (tab-separated, texts cleaned):
 *   L <llama_version()>            after binding
 *   C <buffer type>' '<bytes>      measure: a compute buffer reserved
 *   A                              loaded (measure: the context made)
 *   R <llama.cpp's first error>    refused
 *   N <why>                        not asked (the layout is unknown)
 *   E <message>                    libllama did not load
 */
#ifndef GGUFLINT_LLAMA_IMPL_H
#define GGUFLINT_LLAMA_IMPL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "runtime/runtime-impl.h"

/* Large and aligned enough for any version's llama_model_params and
 * llama_context_params. */
struct params_buf {
	_Alignas(16) unsigned char b[1024];
};

/* The defaults' bytes of one llama.cpp version's llama_model_params. */
struct params_layout {
	const char *version; /* llama_version() */
	size_t size;	     /* sizeof (struct llama_model_params) */
	size_t vocab_only;   /* offsetof vocab_only */
	size_t gpu_layers;   /* offsetof n_gpu_layers (int32, default -1) */
	size_t load_mode;    /* offsetof load_mode (int32, default -1) */
	size_t no_alloc;     /* offsetof no_alloc */
	size_t devices;	     /* offsetof devices (a pointer) */
	size_t overrides;    /* offsetof tensor_buft_overrides (one) */
	size_t bools_n;	     /* the bools from vocab_only, their defaults */
	unsigned char bools[8];
	size_t zero[2][2]; /* byte ranges [from, to) all 0 by default (the
			    * pointers) */
};

struct llama_fns {
	void *lib; /* dlopen's handle */
	const char *(*version)(void);
	struct params_buf (*defaults)(void);
	void *(*load)(const char *, struct params_buf);
	void (*model_free)(void *);
	void (*backend_init)(void);
	void (*log_set)(void (*)(int, const char *, void *), void *);
};

/* Bind the lvalue dst (a function pointer) to symbol name of the dlopen
 * handle lib, or tell E and _exit. */
#define RT_BIND(lib, dst, name) \
	do { \
		void *p_ = dlsym((lib), (name)); \
		if (p_ == NULL) \
			rt_tell_end('E', "the runtime lacks " name); \
		memcpy(&(dst), &p_, sizeof p_); \
	} while (0)

/* Write one line (tag, text) to the parent; _exit when it is gone. */
void rt_tell(char tag, const char *text);
void rt_tell_end(char tag, const char *text) __attribute__((noreturn));

/* Whether p's bytes [r[0], r[1]) are all 0. */
bool rt_all_zero(const struct params_buf *p, const size_t r[2]);

/* The model parameters' layout of version whose defaults p holds, or
 * NULL. */
const struct params_layout *rt_model_layout(const char *version,
    const struct params_buf *p);

/* Keep the first line of an error of ggml's (level 4) for R. */
void rt_note_error(int level, const char *text);
/* That line, or "" when none came. */
const char *rt_first_error(void);

/* The measurement (measure.c): load path as rq says, make the context,
 * tell its compute buffers, and _exit. */
void rt_measure_child(const struct llama_fns *fn, const char *dir,
    const char *path, const struct rt_measure_req *rq)
    __attribute__((noreturn));

#endif
