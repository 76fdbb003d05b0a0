/*
 * llama-load.c - the test suite's window on llama.cpp's model loader: loads
 * each file named on the command line with the real libllama of a
 * llama.cpp build, as llama.cpp's tools load a model (metadata, vocabulary,
 * hyperparameters, every tensor's name and shape; no tensor data: no_alloc),
 * and prints one verdict line per file:
 *
 *     A <file>                  loaded
 *     V <file>                  a file without tensors, loaded as llama.cpp
 *                               loads a vocabulary (vocab_only)
 *     R <file>\t<reason>        refused (llama.cpp's first error line)
 *     C <file>\t<signal>        the loader crashed or aborted
 *     H <file>                  the loader took longer than the limit
 *
 *     llama-load LIBDIR FILE...
 *     llama-load LIBDIR --lora BASE FILE...
 *
 * With --lora, the model BASE is loaded once (its tensors allocated on the
 * CPU) and each FILE is given to llama_adapter_lora_init as an adapter of
 * it: A when the adapter loads, R with llama.cpp's error line when not
 * (C and H as above).
 *
 * LIBDIR holds libllama*.so, libggml*.so and the CPU backends (llama.cpp's
 * build folder, or $GGUFLINT_LLAMA/cpu). The libraries are opened with
 * dlopen in a child process, which loads the files one after another and
 * reports each as it finishes; when the child dies, the file it was on gets
 * C or H and a fresh child goes on from the next one. Built by `make check`
 * only where the headers of that build are installed (llama.h gives the
 * layout of struct llama_model_params); test-only code. Exit status: 0, or 2
 * when the libraries cannot be used.
 */
#define _POSIX_C_SOURCE 200809L

#include <dlfcn.h>
#include <fcntl.h>
#include <glob.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gguf.h"
#include "llama.h"

#define LOAD_SECONDS 20			/* per file */
#define LOAD_ADDRESS_SPACE (8ull << 30) /* per child */

struct llama_fns {
	struct llama_model_params (*default_params)(void);
	struct llama_model *(*load)(const char *, struct llama_model_params);
	void (*model_free)(struct llama_model *);
	void (*backend_init)(void);
	void (*log_set)(ggml_log_callback, void *);
	void (*load_all)(const char *);
	void *(*gguf_open)(const char *, struct gguf_init_params);
	int64_t (*gguf_n_tensors)(const void *);
	void (*gguf_free)(void *);
	struct llama_adapter_lora *(
	    *lora_init)(struct llama_model *, const char *);
	void (*lora_free)(struct llama_adapter_lora *);
};

static const char *lora_base; /* --lora BASE, or NULL */

static char last_error[512];

static void
on_log(enum ggml_log_level level, const char *text, void *ud)
{
	size_t n;

	(void)ud;
	if (level != GGML_LOG_LEVEL_ERROR || text == NULL ||
	    last_error[0] != '\0')
		return;
	n = strcspn(text, "\n");
	if (n == 0)
		return;
	if (n >= sizeof last_error)
		n = sizeof last_error - 1;
	memcpy(last_error, text, n);
	last_error[n] = '\0';
}

/* The first file of dir matching pattern, opened; NULL if none loads. */
static void *
open_glob(const char *dir, const char *pattern)
{
	char pat[4096];
	glob_t g;
	void *h = NULL;
	size_t i;

	snprintf(pat, sizeof pat, "%s/%s", dir, pattern);
	if (glob(pat, 0, NULL, &g) != 0)
		return NULL;
	for (i = 0; i < g.gl_pathc && h == NULL; i++)
		h = dlopen(g.gl_pathv[i], RTLD_NOW | RTLD_GLOBAL);
	globfree(&g);
	return h;
}

static int
bind_llama(const char *dir, struct llama_fns *fn)
{
	void *ggml = open_glob(dir, "libggml.*so");
	void *llama = open_glob(dir, "libllama.*so");

	if (llama == NULL) {
		fprintf(stderr, "llama-load: no libllama*.so in %s: %s\n", dir,
		    dlerror());
		return -1;
	}
	*(void **)&fn->default_params = dlsym(llama,
	    "llama_model_default_params");
	*(void **)&fn->load = dlsym(llama, "llama_model_load_from_file");
	*(void **)&fn->model_free = dlsym(llama, "llama_model_free");
	*(void **)&fn->backend_init = dlsym(llama, "llama_backend_init");
	*(void **)&fn->log_set = dlsym(llama, "llama_log_set");
	*(void **)&fn->load_all = dlsym(ggml != NULL ? ggml : llama,
	    "ggml_backend_load_all_from_path");
	*(void **)&fn->gguf_open = dlsym(llama, "gguf_init_from_file");
	*(void **)&fn->gguf_n_tensors = dlsym(llama, "gguf_get_n_tensors");
	*(void **)&fn->gguf_free = dlsym(llama, "gguf_free");
	*(void **)&fn->lora_init = dlsym(llama, "llama_adapter_lora_init");
	*(void **)&fn->lora_free = dlsym(llama, "llama_adapter_lora_free");
	if (!fn->default_params || !fn->load || !fn->model_free ||
	    !fn->backend_init || !fn->log_set || !fn->load_all ||
	    !fn->gguf_open || !fn->gguf_n_tensors || !fn->gguf_free ||
	    !fn->lora_init || !fn->lora_free) {
		fprintf(stderr, "llama-load: %s: a function is missing\n", dir);
		return -1;
	}
	return 0;
}

/* A file without tensors (a vocabulary), by gguf's own reading. */
static int
has_no_tensors(const struct llama_fns *fn, const char *path)
{
	struct gguf_init_params gp = { true, NULL };
	void *g = fn->gguf_open(path, gp);
	int none;

	if (g == NULL)
		return 0;
	none = fn->gguf_n_tensors(g) == 0;
	fn->gguf_free(g);
	return none;
}

/* Load one file; its verdict line to out. */
static void
load_one(const struct llama_fns *fn, const char *path, FILE *out)
{
	struct llama_model_params mp = fn->default_params();
	struct llama_model *m;
	char reason[sizeof last_error];

	/* the file's own vocabulary and shapes, no tensor data: no_alloc
	 * needs the model read, not mapped */
	mp.no_alloc = true;
	mp.load_mode = LLAMA_LOAD_MODE_NONE;
	mp.n_gpu_layers = 0;
	last_error[0] = '\0';
	if ((m = fn->load(path, mp)) != NULL) {
		fprintf(out, "A %s\n", path);
		fn->model_free(m);
		return;
	}
	memcpy(reason, last_error, sizeof reason);
	if (has_no_tensors(fn, path)) {
		mp.vocab_only = true;
		if ((m = fn->load(path, mp)) != NULL) {
			fprintf(out, "V %s\n", path);
			fn->model_free(m);
			return;
		}
	}
	fprintf(out, "R %s\t%s\n", path, reason);
}

/* The base model of --lora, allocated on the CPU (an adapter's tensors
 * go where the base's are), or NULL (the error is printed). */
static struct llama_model *
load_base(const struct llama_fns *fn)
{
	struct llama_model_params mp = fn->default_params();
	struct llama_model *m;

	mp.n_gpu_layers = 0;
	last_error[0] = '\0';
	if ((m = fn->load(lora_base, mp)) == NULL)
		fprintf(stderr, "llama-load: the base %s does not load: %s\n",
		    lora_base, last_error);
	return m;
}

/* Load one file as a LoRA of base; its verdict line to out. */
static void
load_lora(const struct llama_fns *fn, struct llama_model *base,
    const char *path, FILE *out)
{
	struct llama_adapter_lora *a;

	last_error[0] = '\0';
	if ((a = fn->lora_init(base, path)) != NULL) {
		fprintf(out, "A %s\n", path);
		fn->lora_free(a);
		return;
	}
	fprintf(out, "R %s\t%s\n", path, last_error);
}

/* In the child: load files[from..n), one verdict line each. */
static void
child(const char *dir, char **files, int from, int n, int fd)
{
	struct llama_fns fn;
	struct rlimit rl = { LOAD_ADDRESS_SPACE, LOAD_ADDRESS_SPACE };
	FILE *out = fdopen(fd, "w");
	int null = open("/dev/null", O_WRONLY), i;
	struct llama_model *base = NULL;

	setrlimit(RLIMIT_AS, &rl);
	/* the verdicts go to fd alone: ggml's abort handler prints a
	 * backtrace (through gdb) on stdout, which is the caller's */
	setenv("GGML_NO_BACKTRACE", "1", 1);
	if (null >= 0)
		dup2(null, 1);
	if (out == NULL || bind_llama(dir, &fn) != 0)
		_exit(2);
	fn.log_set(on_log, NULL);
	fn.load_all(dir);
	fn.backend_init();
	if (lora_base != NULL && (base = load_base(&fn)) == NULL)
		_exit(2);
	for (i = from; i < n; i++) {
		fprintf(out, "S %d\n", i);
		fflush(out);
		alarm(LOAD_SECONDS);
		if (base != NULL)
			load_lora(&fn, base, files[i], out);
		else
			load_one(&fn, files[i], out);
		alarm(0);
		fflush(out);
	}
	_exit(0);
}

/* Run one child from file `from`; returns the index it stopped at. */
static int
run_child(const char *dir, char **files, int from, int n)
{
	int fds[2], status, at = from;
	char line[8192];
	pid_t pid;
	FILE *in;

	if (pipe(fds) != 0)
		return -1;
	fflush(NULL);
	if ((pid = fork()) < 0)
		return -1;
	if (pid == 0) {
		close(fds[0]);
		child(dir, files, from, n, fds[1]);
	}
	close(fds[1]);
	in = fdopen(fds[0], "r");
	while (in != NULL && fgets(line, sizeof line, in) != NULL) {
		if (line[0] == 'S')
			at = atoi(line + 2);
		else {
			fputs(line, stdout);
			at++;
		}
	}
	if (in != NULL)
		fclose(in);
	if (waitpid(pid, &status, 0) != pid)
		return -1;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 2)
		return -2;
	if (at < n && WIFSIGNALED(status)) {
		if (WTERMSIG(status) == SIGALRM)
			printf("H %s\n", files[at]);
		else
			printf("C %s\tsignal %d\n", files[at],
			    WTERMSIG(status));
		at++;
	}
	fflush(stdout);
	return at;
}

int
main(int argc, char **argv)
{
	int at = 2;

	if (argc >= 4 && strcmp(argv[2], "--lora") == 0) {
		lora_base = argv[3];
		at = 4;
	}
	if (argc < 2) {
		fprintf(stderr,
		    "usage: llama-load LIBDIR [--lora BASE] "
		    "FILE...\n");
		return 2;
	}
	while (at < argc) {
		at = run_child(argv[1], argv, at, argc);
		if (at < 0)
			return 2;
	}
	return 0;
}
