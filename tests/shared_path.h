/*
 * shared_path.h - where the tests find the project's shared material
 * (the GGUF corpus and its peer files, the reference documents).
 */
#ifndef GGUFLINT_SHARED_PATH_H
#define GGUFLINT_SHARED_PATH_H

/*
 * test_shared_dir: the shared directory: $GGUFLINT_SHARED when it is set
 * (and names a directory), else "../shared" or "../../shared" relative to
 * the current directory, whichever is a directory first.  Returns NULL
 * when none is; tests that need it then skip.  The string is static.
 */
const char *test_shared_dir(void);

#endif
