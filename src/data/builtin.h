/*
 * builtin.h - the data files (rules/, profiles/, kernels/ YAML) compiled into
 * the binary, and lookup of their on-disk overrides.
 *
 * builtin-data.c is generated at build time by build-aux/yaml2c.
 */
#ifndef GGUFLINT_BUILTIN_H
#define GGUFLINT_BUILTIN_H

#include <stdbool.h>
#include <stddef.h>

#include "base/error.h"

struct ydoc_pre;

struct builtin_file {
	const char *name;		/* relative to the data directory,
					   e.g. "rules/F-file.yaml" */
	const char *data;		/* NUL-terminated contents */
	size_t len;
	const struct ydoc_pre *doc;	/* its YAML document, parsed at
					   build time */
};

/*
 * The built-in files (generated from Makefile.am's data_files, in its
 * order; builtin_n_files of them, then an entry of zeros).
 */
extern const struct builtin_file builtin_files[];
extern const size_t builtin_n_files;

/*
 * struct datafile: the contents of one data file and where they came from.
 * origin is the on-disk path when a file in the data directory overrides the
 * built-in copy, else "<builtin>/NAME". Free with datafile_free().
 */
struct datafile {
	char *origin;
	char *data;
	size_t len;
};

/*
 * datafile_load: contents of the data file NAME. The data directory is
 * $GGUFLINT_DATADIR when set (and not empty), else the configured
 * pkgdatadir; a regular file there overrides the built-in one. Returns 0
 * with out filled (a copy, NUL-terminated, even of the built-in data: free
 * it with datafile_free()), or -1 with err set, out untouched and nothing
 * to free: GL_ERR_NOT_FOUND when NAME is neither on disk nor built in, or
 * read_whole_file's error when the file on disk cannot be read (limit
 * 64 MiB).
 */
int datafile_load(const char *name, struct datafile *out, struct gl_error *err);

/* datafile_builtin: whether df is the built-in copy (no file overrode it). */
bool datafile_builtin(const struct datafile *df);

/*
 * datafile_resolve: the text NAME stands for where a built-in name or a
 * path may be given (--profile, a profile's kernels): a path when NAME
 * contains '/' or ends in ".yaml" (that file, at most 1 MiB, its origin
 * NAME), else the data file DIR/NAME.yaml (datafile_load's). Returns 0 for
 * a path or 1 for a data file, with out filled (free it with
 * datafile_free()), or -1 with err set and nothing to free: the path's
 * read_whole_file error, datafile_load's when the data file cannot be
 * read, and GL_ERR_NOT_FOUND "unknown WHAT 'NAME' (see LIST, or give a
 * path to a YAML file)" when there is none. err may be NULL (error.h).
 */
int datafile_resolve(const char *dir, const char *name, const char *what,
    const char *list, struct datafile *out, struct gl_error *err);

/* datafile_free: release what datafile_load filled in; df is left empty. */
void datafile_free(struct datafile *df);

/*
 * builtin_next: walk the built-in files DIR/NAME.yaml (directly in DIR, not
 * in a folder of it) in the order of Makefile.am's data_files. Start with
 * *pos = 0; each call returns the next one's name ("rules/F-file.yaml",
 * static storage) and advances *pos, or returns NULL at the end. Allocates
 * nothing, keeps no state: safe from any thread.
 */
const char *builtin_next(const char *dir, size_t *pos);

/*
 * builtin_names: the NAMEs of the built-in files DIR/NAME.yaml, sorted and
 * NULL-terminated (just NULL for a DIR with none). Built on the first call
 * for a DIR and kept (under a lock: safe from several threads); owned by
 * this module: the same pointer is returned until builtin_names_cleanup().
 */
const char *const *builtin_names(const char *dir);

/*
 * builtin_names_cleanup: free every list builtin_names made (for a
 * long-running caller, at its end). A later builtin_names() builds them
 * again. No list it returned may be in use, in any thread.
 */
void builtin_names_cleanup(void);

/*
 * read_whole_file: read a (small, configuration) file into memory with a
 * terminating NUL; limit caps its size. Returns 0 with *data (the caller
 * frees it) and *len set, or -1 with err "PATH: why" of kind GL_ERR_IO
 * (cannot open or read) or GL_ERR_LIMIT (more than limit bytes), and
 * nothing to free.
 */
int read_whole_file(const char *path, size_t limit, char **data, size_t *len,
    struct gl_error *err);

#endif
