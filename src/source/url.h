/*
 * url.h - the names of remote files: which inputs are URLs, hf:// made the
 * Hub's https:// URL, and whether two URLs share an origin (the scheme,
 * host and port a credential may be sent to).
 */
#ifndef GGUFLINT_URL_H
#define GGUFLINT_URL_H

#include <stdbool.h>
#include <stddef.h>

#include "base/error.h"

/* The Hub's address, which $HF_ENDPOINT replaces. */
#define URL_HF_ENDPOINT "https://huggingface.co"

/* url_is_remote: whether path starts with http://, https:// or hf://
 * (the scheme in any case). */
bool url_is_remote(const char *path);

/*
 * url_other_scheme: the length of path's scheme when path reads as a URL
 * of a scheme gguflint does not read (s3://, ftp://, file://: a name of
 * two or more letters, digits, +, - or . that starts with a letter, then
 * "://"), else 0. For the message when no such file exists.
 */
size_t url_other_scheme(const char *path);

/*
 * url_name_len: how much of path names the file: a URL's up to its query
 * or fragment (the first '?' or '#'), anything else's whole (strlen).
 */
size_t url_name_len(const char *path);

/*
 * url_resolve: the URL path is read at: an http:// or https:// URL as it
 * is; hf://ORG/REPO[@REVISION]/PATH (also hf://datasets/ORG/REPO... and
 * hf://spaces/...) as ENDPOINT/ORG/REPO/resolve/REVISION/PATH, REVISION
 * main when absent, ENDPOINT endpoint (its trailing slashes dropped) or,
 * NULL or empty, the Hub's. Returns a string the caller frees, or NULL
 * with err (GL_ERR_USAGE) when path is not such a URL, an hf:// URL lacks
 * a part, or it holds a space or a control byte.
 */
char *url_resolve(const char *path, const char *endpoint, struct gl_error *err);

/*
 * url_same_origin: whether the absolute URLs a and b have the same scheme
 * (in any case), host (in any case; userinfo ignored) and port (the
 * scheme's default when absent). False when either cannot be read.
 */
bool url_same_origin(const char *a, const char *b);

/*
 * url_origin_key: the origin of the absolute URL url (scheme, host and
 * port, the host in lower case: "http://127.0.0.1:8080") into buf (size
 * bytes, truncated); false (buf "?") when url cannot be read.
 */
bool url_origin_key(const char *url, char *buf, size_t size);

/* A repository of the Hub, as hf://[datasets/|spaces/]ORG/REPO[@REV]
 * names it without a file (url_hf_repo). */
struct url_repo {
	const char *kind; /* "models", "datasets", "spaces" */
	char org[128], repo[128];
	char rev[256]; /* "" when not given */
};

/*
 * url_hf_repo: whether path is hf://[datasets/|spaces/]ORG/REPO[@REV]
 * with no file (a trailing slash allowed), and then its parts in r. ORG
 * and REPO are letters, digits, '-', '_' and '.'; REV any printable
 * bytes but '/', '?' and '#' (a branch's name with a slash is given as
 * %2F).
 */
bool url_hf_repo(const char *path, struct url_repo *r);

/*
 * url_hf_tree: the URL of the Hub's listing of every file of r at its
 * revision (main when not given): ENDPOINT/api/KIND/ORG/REPO/tree/REV
 * ?recursive=true, ENDPOINT as url_resolve takes it. Returns a string
 * the caller frees, or NULL with err (GL_ERR_USAGE) for a bad endpoint.
 */
char *url_hf_tree(const struct url_repo *r, const char *endpoint,
    struct gl_error *err);

#endif
