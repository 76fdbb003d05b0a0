/*
 * cachedir.h - gguflint's cache folder, $XDG_CACHE_HOME/gguflint (else
 * ~/.cache/gguflint): the runtime probe's answers and the headers of
 * remote files are kept there. The caches are an aid: a folder that
 * cannot be had means no cache, never an error.
 */
#ifndef GGUFLINT_CACHEDIR_H
#define GGUFLINT_CACHEDIR_H

#include <stdbool.h>

/*
 * cache_dir: the cache folder's path, made (mode 0700) when make is true
 * and it is absent; NULL when neither $XDG_CACHE_HOME (an absolute path)
 * nor $HOME says where it is, or, with make, it cannot be made. The
 * caller frees the result.
 */
char *cache_dir(bool make);

#endif
