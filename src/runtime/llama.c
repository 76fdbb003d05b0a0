/*
 * llama.c - the child's side of the vocabulary load (runtime.h's
 * runtime_llama_vocab): libllama of the runtime's folder opened with
 * dlopen, the model at the job's path loaded as llama.cpp loads a
 * vocabulary (vocab_only: the metadata, the hyper-parameters and the
 * vocabulary, no tensor), and the verdict written to the pipe
 * (llama-impl.h's lines); or, for a measurement, measure.c's job.
 *
 * llama_model_params is a struct passed by value whose layout changes
 * between llama.cpp versions, and no loader entry takes a vocabulary load
 * without it. gguflint does not guess it: the defaults are fetched with
 * llama_model_default_params() into a buffer far larger and more aligned
 * than any version's struct (on x86-64 and AArch64 a struct over 16 bytes
 * is returned through a pointer to the caller's memory and passed as a
 * copy in memory, so a larger buffer only holds unused bytes), and
 * vocab_only is set only for a version of the table below, after the
 * defaults read at its offsets are that version's defaults. Any other
 * version, or other defaults, is N: no load rather than a guess.
 */
#include "config.h"

#include <dlfcn.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "runtime/llama-impl.h"

#define LLAMA_AS_LIMIT (8ull << 30) /* the child's address space */

/*
 * v0.5.0 (llama.h of that build), LP64: devices, tensor_buft_overrides
 * (0, 8), n_gpu_layers (16), split_mode, load_mode, lazy_mode, main_gpu
 * (20-35), tensor_split, progress_callback, its user data, kv_overrides
 * (40-71), then vocab_only, check_tensors, use_extra_bufts, no_host,
 * no_alloc, load_mtp (72-77; defaults 0 0 1 0 0 0), padded to 80;
 * load_mode's default is -1 (auto; 0 reads the file, no mapping). Its
 * prebuilt libraries (node-llama-cpp 3.22.1) call themselves 0.5.0-dev.
 */
static const struct params_layout layouts[] = {
	{ "0.5.0", 80, 72, 16, 24, 76, 0, 8, 6, { 0, 0, 1, 0, 0, 0 },
	    { { 0, 16 }, { 40, 72 } } },
	{ "0.5.0-dev", 80, 72, 16, 24, 76, 0, 8, 6, { 0, 0, 1, 0, 0, 0 },
	    { { 0, 16 }, { 40, 72 } } },
};

bool
rt_all_zero(const struct params_buf *p, const size_t r[2])
{
	size_t i;

	for (i = r[0]; i < r[1]; i++)
		if (p->b[i] != 0)
			return false;
	return true;
}

static int pipe_fd = -1;
static char first_error[480];

void
rt_tell(char tag, const char *text)
{
	char *c = rt_clean(text ? text : "", 600);
	char *line = xasprintf("%c\t%s\n", tag, c);
	size_t n = strlen(line), off = 0;

	while (off < n) {
		ssize_t w = write(pipe_fd, line + off, n - off);

		if (w <= 0)
			_exit(3); /* the parent is gone */
		off += (size_t)w;
	}
	free(line);
	free(c);
}

void
rt_tell_end(char tag, const char *text)
{
	rt_tell(tag, text);
	_exit(0);
}

/* ggml's log levels: 4 is GGML_LOG_LEVEL_ERROR (ggml.h, all versions). */
void
rt_note_error(int level, const char *text)
{
	size_t n;

	if (level != 4 || text == NULL || first_error[0] != '\0')
		return;
	n = strcspn(text, "\n");
	if (n >= sizeof first_error)
		n = sizeof first_error - 1;
	memcpy(first_error, text, n);
	first_error[n] = '\0';
}

const char *
rt_first_error(void)
{
	return first_error;
}

static void
on_log(int level, const char *text, void *ud)
{
	(void)ud;
	rt_note_error(level, text);
}

char *
rt_llama_lib(const char *dir)
{
	static const char *const pats[] = { "libllama.*", NULL };

	return rt_find_lib(dir, pats);
}

static void
bind_llama(const char *dir, struct llama_fns *fn)
{
	char *path = rt_llama_lib(dir), *msg;
	void *h;

	if (path == NULL)
		rt_tell_end('E', "no libllama in the runtime's folder");
	if ((h = dlopen(path, RTLD_NOW | RTLD_GLOBAL)) == NULL) {
		msg = xasprintf("cannot load %s: %s", path, dlerror());
		rt_tell_end('E', msg);
	}
	free(path);
	fn->lib = h;
	RT_BIND(h, fn->version, "llama_version");
	RT_BIND(h, fn->defaults, "llama_model_default_params");
	RT_BIND(h, fn->load, "llama_model_load_from_file");
	RT_BIND(h, fn->model_free, "llama_model_free");
	RT_BIND(h, fn->backend_init, "llama_backend_init");
	RT_BIND(h, fn->log_set, "llama_log_set");
}

const struct params_layout *
rt_model_layout(const char *version, const struct params_buf *p)
{
	size_t i;
	int32_t gl, lm;

	for (i = 0; i < sizeof layouts / sizeof layouts[0]; i++) {
		const struct params_layout *l = &layouts[i];

		if (strcmp(version, l->version) != 0)
			continue;
		memcpy(&gl, p->b + l->gpu_layers, sizeof gl);
		memcpy(&lm, p->b + l->load_mode, sizeof lm);
		if (gl == -1 && lm == -1 &&
		    memcmp(p->b + l->vocab_only, l->bools, l->bools_n) == 0 &&
		    rt_all_zero(p, l->zero[0]) && rt_all_zero(p, l->zero[1]))
			return l;
	}
	return NULL;
}

#if defined(__x86_64__) || defined(__aarch64__)
static void
load_vocab(const struct llama_fns *fn, const char *path)
{
	const char *ver = fn->version();
	const struct params_layout *l;
	struct params_buf p;
	char *why;
	void *m;

	rt_tell('L', ver ? ver : "unknown");
	memset(&p, 0, sizeof p);
	p = fn->defaults();
	if (ver == NULL || (l = rt_model_layout(ver, &p)) == NULL) {
		why = xasprintf("gguflint does not know the layout of "
				"llama_model_params of llama.cpp %s",
		    ver ? ver : "(no version)");
		rt_tell_end('N', why);
	}
	p.b[l->vocab_only] = 1;
	fn->log_set(on_log, NULL);
	fn->backend_init();
	if ((m = fn->load(path, p)) != NULL) {
		fn->model_free(m);
		rt_tell_end('A', "");
	}
	rt_tell_end('R', first_error[0] ? first_error : "the load failed");
}
#else
static void
load_vocab(const struct llama_fns *fn, const char *path)
{
	(void)path;
	rt_tell('L', fn->version());
	rt_tell_end('N',
	    "gguflint passes llama_model_params only on x86-64 "
	    "and AArch64");
}
#endif

/* Built with AddressSanitizer (gcc says so with a macro, clang with
 * __has_feature). */
#if defined(__SANITIZE_ADDRESS__)
#define RT_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define RT_ASAN 1
#endif
#endif
#ifndef RT_ASAN
#define RT_ASAN 0
#endif

void
rt_llama_main(const struct rt_job *job)
{
	struct rlimit rl = { LLAMA_AS_LIMIT, LLAMA_AS_LIMIT };
	struct llama_fns fn;

	pipe_fd = job->fd;
	/* no limit under ASan: its shadow memory needs more than any */
	if (!RT_ASAN)
		setrlimit(RLIMIT_AS, &rl);
	bind_llama(job->dir, &fn);
	if (job->measure != NULL)
		rt_measure_child(&fn, job->dir, job->model, job->measure);
	load_vocab(&fn, job->model);
	_exit(0);
}
