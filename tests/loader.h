/*
 * loader.h - llama.cpp's model loader seen from the tests: the verdicts of
 * tests/llama-load (the real libllama, loaded at run time) and gguflint's
 * verdict on the same files with a llama.cpp profile. Test-only code.
 */
#ifndef GGUFLINT_TESTS_LOADER_H
#define GGUFLINT_TESTS_LOADER_H

#include <stdbool.h>
#include <stddef.h>

#include "testutil.h"

/* The llama.cpp profile files are judged with (its runtime's loader). */
#define LOADER_PROFILE "laptop_16gb"

/* $GGUFLINT_LLAMA/cpu/libggml-base.so, or NULL when absent (static). */
const char *llama_base_lib(void);

/* tests/llama-load beside the program under test, or NULL (free it). */
char *llama_load_bin(void);

/* llama-load's stdout on the n files of paths: one verdict line a file,
 * "L PATH" or "L PATH\tREASON" (L: A, V, R, C or H; free it). */
char *loader_verdicts(const char *prog, char *const *paths, size_t n);

/* The verdict line of path in lines (NULL when none): its letter into
 * letter, llama.cpp's reason into reason (up to the line's end). */
const char *verdict_of(const char *lines, const char *path, char *letter,
    const char **reason);

/* The error codes of a text report, space-separated (static). */
const char *error_codes(const char *text);

/* gguflint on path as llama.cpp's loader takes it, into r; true when it
 * is judged as a companion (then its error must be M022). */
bool lint_as_model(const char *path, struct test_run *r);

/* Whether gguflint's verdict r refuses the file as llama.cpp does. */
bool lint_refuses(const struct test_run *r, bool companion);

/* Run argv (argv[0] a path), its stdout captured and returned
 * (NUL-terminated; the caller frees it), *status its exit status or
 * 128+signal; killed after timeout seconds. */
char *loader_run(const char *const argv[], unsigned timeout, int *status);

#endif
