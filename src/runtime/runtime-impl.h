/*
 * runtime-impl.h - what the files of src/runtime/ share: the job a child
 * runs (ggml.c), the line protocol it answers in (probe.c reads it), the
 * parent's side of one child (probe.c's, which probe-llama.c's libllama
 * jobs run in too) and the caches (cache.c: the probe's; llama-cache.c:
 * libllama's answers).
 *
 * The child writes one line per event to its pipe, fields separated by
 * tabs (texts have tabs and newlines replaced by spaces):
 *   V <version> <commit>                 after loading
 *   D <name> <description> <type> <free> <total> <library>   a device
 *   U <name> <description> <type> <free> <total> <library>   the one
 *                                        probed
 *   R <index> <cpu>                      the case's computation begins,
 *                                        the child having used cpu s of
 *                                        CPU time so far
 *   C <index> <state> <nmse> <reason>    one case answered
 *   L <limit> [<i>]                      after the cases: the largest
 *                                        tensor the device claims an
 *                                        operation on (bytes; 0: no
 *                                        limit found); listing, the
 *                                        i-th device's, after every D
 *   E <message>                          a fatal error: nothing more comes
 *   Z                                    done
 */
#ifndef GGUFLINT_RUNTIME_IMPL_H
#define GGUFLINT_RUNTIME_IMPL_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "base/error.h"
#include "base/util.h"
#include "runtime/runtime.h"

struct rt_job {
	const char *dir;
	const char *device; /* NULL: the first GPU, else the first */
	bool list;	    /* list the devices, run no case */
	const struct rt_case *cases;
	size_t first, n;   /* run cases[first..n) */
	int fd;		   /* the pipe's write end */
	const char *model; /* set: load it with libllama (llama.c's
			    * lines), no case */
	const struct rt_measure_req *measure; /* with model: measure it */
};

/* One child, as its parent sees it (probe.c). */
struct rt_child {
	pid_t pid;
	int fd;	   /* the pipe's read end */
	int errfd; /* the child's stderr, a file */
	char buf[4096];
	size_t len;
	bool eof;
};

/*
 * rt_child_start: fork a child running tmpl's job (rt_child_main) from
 * case first, its answers on a pipe into ch, its stderr into a file.
 * Returns 0, or -1 with err when it could not be started.
 */
int rt_child_start(struct rt_child *ch, const struct rt_job *tmpl, size_t first,
    struct gl_error *err);

/*
 * rt_child_line: the next line of ch's answers (NUL-terminated in ch->buf,
 * valid until the next call), within timeout_ms: 1, 0 at the end (EOF),
 * -1 on timeout.
 */
int rt_child_line(struct rt_child *ch, char **line, int timeout_ms);

/*
 * rt_child_end: stop ch (killed when kill), reap it, and say how it ended:
 * NULL when it exited 0, else a text (the caller's to free); *cpu, unless
 * cpu is NULL, the CPU time (s) it used in all, every thread.
 */
char *rt_child_end(struct rt_child *ch, bool kill_it, double *cpu);

/* rt_timeout_of: the time limit (s) of a child's answer: asked, unless 0,
 * else GGUFLINT_PROBE_TIMEOUT, else 120. */
unsigned rt_timeout_of(unsigned asked);

/* rt_llama_main: job->model's vocabulary load, in this (child) process
 * (llama.c), and _exit. */
void rt_llama_main(const struct rt_job *job) __attribute__((noreturn));

/* rt_find_lib: the path (new string) of the first file of dir matching
 * one of the glob patterns pats (NULL-terminated), or NULL. */
char *rt_find_lib(const char *dir, const char *const *pats);

/* rt_llama_lib: the path of dir's libllama (new string), or NULL. */
char *rt_llama_lib(const char *dir);

/* rt_child_main: run job in this (child) process and _exit. */
void rt_child_main(const struct rt_job *job) __attribute__((noreturn));

/* rt_cache_libs: a line (real path, size, modification time) into sb
 * for each file of dir matching the glob pattern pat; returns how many. */
int rt_cache_libs(const char *dir, const char *pat, struct strbuf *sb);

/* rt_cache_digest: sb's text hashed, as 32 hex digits into key[33]. */
void rt_cache_digest(const struct strbuf *sb, char key[33]);

/* rt_cache_path: the cache's file of kind and key (new string), its folder
 * made first when make; NULL when there is no cache folder. */
char *rt_cache_path(const char *kind, const char *key, bool make);

/* rt_cache_slurp: the text (new, NUL-terminated) of the cache file at
 * path when it begins with the line magic, else NULL. */
char *rt_cache_slurp(const char *path, const char *magic);

/* rt_cache_write: sb's text as the file at path (written beside it, then
 * renamed over it); failures are silent (the cache is an aid). */
void rt_cache_write(const char *path, const struct strbuf *sb);

/*
 * rt_cache_key: a key naming the libraries of dir (each libggml*.so's
 * real path, size and modification time) and the device asked for, as 32
 * hex digits into key[33]. Returns 0, or -1 when dir has no library.
 */
int rt_cache_key(const char *dir, const char *device, char key[33]);

/*
 * rt_cache_load: the answers stored under key for the cases that match
 * (op, encoding, row), with info's version, commit, device and date,
 * but for answers of no answer within a limit shorter than limit s (they
 * are probed again). Returns how many cases it answered (0 when there is
 * no entry).
 */
size_t rt_cache_load(const char *key, struct rt_case *cases, size_t n,
    unsigned limit, struct rt_info *info);

/* rt_cache_store: store the answered cases and info under key, merged
 * with what is stored; failures are silent (the cache is an aid). */
void rt_cache_store(const char *key, const struct rt_case *cases, size_t n,
    const struct rt_info *info);

/*
 * rt_llama_cache_load: the child's lines (llama-impl.h's, each ending in
 * a newline) a libllama job (job: what it asks, one line) gave on the
 * model at path with dir's libllama, appended to lines, as stored by
 * rt_llama_cache_store for these libraries and the model's files as they
 * are now (llama-cache.c). Returns whether it held them.
 */
bool rt_llama_cache_load(const char *dir, const char *path, const char *job,
    struct strbuf *lines);

/* rt_llama_cache_ident: the identity of the model at path's files now
 * (32 hex digits into ident); false (ident empty) when one is not there. */
bool rt_llama_cache_ident(const char *path, char ident[33]);

/* rt_llama_cache_store: keep lines as the answer of job (above), unless
 * the model's identity is no longer before (rt_llama_cache_ident's,
 * taken before the child ran); failures are silent. */
void rt_llama_cache_store(const char *dir, const char *path, const char *before,
    const char *job, const struct strbuf *lines);

/* rt_clean: s with tabs, newlines and other control bytes made spaces,
 * at most max bytes, in a new string. */
char *rt_clean(const char *s, size_t max);

/* rt_split: split line at tabs, in place, into at most max fields f;
 * returns how many (at least 1). */
size_t rt_split(char *line, char **f, size_t max);

/* rt_device_set: d (freed first) from a D or U line's nf fields f. */
void rt_device_set(struct rt_device *d, char **f, size_t nf);

/* rt_device_free: free what d owns; d is zeroed. */
void rt_device_free(struct rt_device *d);

#endif
