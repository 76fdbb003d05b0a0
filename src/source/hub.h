/*
 * hub.h - the files of a repository of the Hugging Face Hub, for
 * hf://ORG/REPO[@REV] without a file: its GGUF files, found through the
 * Hub's tree API, as hf:// paths.
 */
#ifndef GGUFLINT_HUB_H
#define GGUFLINT_HUB_H

#include <stdbool.h>
#include <stddef.h>

#include "base/error.h"
#include "source/source.h"
#include "source/url.h"

/* The most GGUF files a repository's listing may give, pages and the
 * paths' bytes (of a hostile or broken answer). */
#define HUB_FILES_MAX 100000
#define HUB_PAGES_MAX 1000
#define HUB_PAGE_MAX (16u << 20)
#define HUB_PATH_MAX 4096

/* The files of a listing: paths inside the repository, owned. */
struct hub_files {
	char **v;
	size_t n, cap;
};

/*
 * hub_tree_parse: add to fl the path of every entry of the tree API's
 * answer (len bytes at p: a JSON array of objects {"type": "file" or
 * "directory", "path": ..., "size": ..., ...}) that is a file whose name
 * ends in .gguf (any case), in the order given. Any JSON is read without
 * trusting it: a string of over HUB_PATH_MAX bytes, nesting deeper than
 * 32, more than HUB_FILES_MAX files in fl, a path with a NUL, an empty,
 * "." or ".." segment or a leading slash, or anything that is not such
 * an array, is an error (GL_ERR_PARSE, or GL_ERR_LIMIT; what fl holds
 * then stays, to free). Returns 0, or -1 with err.
 */
int hub_tree_parse(const char *p, size_t len, struct hub_files *fl,
    struct gl_error *err);

/*
 * hub_list: the GGUF files of the repository r names (url_hf_repo's
 * reading of path), asked of o's endpoint (HF_ENDPOINT) with o's token,
 * every page of the listing (its Link header's rel="next", at the same
 * origin, HUB_PAGES_MAX at most), each file as the hf:// path that reads
 * it, in path order, into fl. The revision, when given, is in each path
 * (hf://ORG/REPO@REV/PATH); bytes of a path outside letters, digits and
 * -._~/+=,@()! are %-escaped. Returns 0 (fl may be empty: no GGUF file),
 * or -1 with err (the listing's status: 401, 404, ...; or what
 * hub_tree_parse says).
 */
int hub_list(const char *path, const struct url_repo *r,
    const struct source_opts *o, struct hub_files *fl, struct gl_error *err);

/* hub_files_free: free fl's paths; fl is emptied. */
void hub_files_free(struct hub_files *fl);

#endif
