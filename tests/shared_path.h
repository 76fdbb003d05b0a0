/*
 * shared_path.h - where the tests find the project's shared material
 * (the GGUF corpus and its peer files, the reference documents).
 */
#ifndef GGUFLINT_SHARED_PATH_H
#define GGUFLINT_SHARED_PATH_H

#include <stddef.h>

/*
 * test_shared_dir: the shared directory: $GGUFLINT_SHARED when it is set
 * (and names a directory), else "../shared" or "../../shared" relative to
 * the current directory, whichever is a directory first.  Returns NULL
 * when none is; tests that need it then skip.  The string is static.
 */
const char *test_shared_dir(void);

/* The corpus: every .gguf one level below <shared>/corpus, sorted. */
struct corpus {
	char **files;
	size_t n;
};

/* corpus_list: fill c; skips the test when the shared directory is absent,
 * and fails it when fewer than 20 files are found. */
void corpus_list(struct corpus *c);
void corpus_free(struct corpus *c);

/* str_has_suffix: whether s ends with suf. */
int str_has_suffix(const char *s, const char *suf);

#endif
