/*
 * benchcommon.h - what the remote benchmarks (bench/remote.c,
 * bench/hubscan.c) share: the clock, and a model's header read into
 * memory for the loopback server (tests/httpd.c) to serve.
 */
#ifndef GGUFLINT_BENCH_BENCHCOMMON_H
#define GGUFLINT_BENCH_BENCHCOMMON_H

#include "httpd.h"

/* The monotonic clock in seconds. */
double now_s(void);

/* The header of the GGUF file path (up to its data) into f, served under
 * name, f->size the file's size (its data served as zeros). Returns 0, or
 * -1 with a message on standard error. */
int load_header(const char *path, struct httpd_file *f, const char *name);

#endif
