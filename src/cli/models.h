/*
 * models.h - the inputs as models: the files given on the command line or
 * found by a directory walk, those named as llama.cpp names the shards of
 * a split model (PREFIX-%05d-of-%05d.gguf; a URL's path, its query
 * aside) grouped into one model each, with the names of its shards that
 * were not given derived from the pattern.
 */
#ifndef GGUFLINT_MODELS_H
#define GGUFLINT_MODELS_H

#include <stdbool.h>
#include <stddef.h>

#include "base/error.h"
#include "lint.h"

/* The files to lint: each argument, or the *.gguf below a directory. */
struct file_list {
	char **v;
	size_t n, cap;
};

/*
 * models_expand: fl (zeroed first), the n paths in order, each directory
 * replaced by the *.gguf below it (any case; hidden directories skipped),
 * sorted; a directory with none is said on stderr. Free fl with
 * models_files_free().
 */
void models_expand(char *const *paths, size_t n, struct file_list *fl);
/* models_push_file: append a copy of path to fl. */
void models_push_file(struct file_list *fl, const char *path);
/* models_files_free: release what fl holds. */
void models_files_free(struct file_list *fl);

struct model_list {
	struct model_input *v;
	size_t n, cap;
};

/*
 * models_group: ml (zeroed first), the models of the n paths, in the
 * order of the first path of each: a path alone is a model of one file; a
 * shard's name makes a model of count files, PREFIX-00001-of-COUNT.gguf
 * and on, once however many of them are given (the given ones marked,
 * with the path given; the others with the first given's query, if a
 * URL had one). Everything is copied; release ml with models_free().
 */
void models_group(char *const *paths, size_t n, struct model_list *ml);

/* models_free: release what ml holds; ml is zeroed. */
void models_free(struct model_list *ml);

/*
 * models_read_list: append to fl the paths listed in the file at path
 * ("-": standard input), one a line; empty lines and lines that begin
 * with '#' are skipped, and a line's CR LF or LF is not part of it.
 * Returns 0, or -1 with err set (the file cannot be read; a NUL byte in a
 * line, with its number).
 */
int models_read_list(const char *path, struct file_list *fl,
    struct gl_error *err);

/*
 * models_in_shard: whether model in is in shard i (1 to n) of n: by a
 * hash (FNV-1a) of its first file's path or URL as given, so that a
 * model's shard does not change when the list is reordered, and every
 * model is in exactly one shard. Every model is in the one shard of 1.
 */
bool models_in_shard(const struct model_input *in, unsigned i, unsigned n);

#endif
