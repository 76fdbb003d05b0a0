/*
 * magic.h - other file formats by their first bytes: what a file handed
 * to gguflint may really be, and what may ride along after a GGUF's
 * tensor data (a polyglot: one file that two tools read as two formats).
 */
#ifndef GGUFLINT_MAGIC_H
#define GGUFLINT_MAGIC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * magic_name: what the n bytes at p begin with ("a ZIP archive"), or
 * NULL when they begin with no format the table knows. *container is
 * set when the format carries or runs other content (an archive, an
 * executable, a script, a pickle, another GGUF), not merely data.
 */
const char *magic_name(const uint8_t *p, size_t n, bool *container);

/* magic_zip_end: whether the n bytes at p (a file's last bytes) are a
 * ZIP archive's end record without a comment, which a ZIP reader finds
 * from the end of a file whatever precedes it. */
bool magic_zip_end(const uint8_t *p, size_t n);

/* Bytes magic_zip_end reads: the end record's size. */
#define MAGIC_ZIP_END_BYTES 22

/*
 * magic_find_gguf: the offset of the first "GGUF" followed by version
 * 1, 2 or 3 (little-endian) at or after from in the n bytes at p, or -1.
 */
int64_t magic_find_gguf(const uint8_t *p, size_t n, size_t from);

#endif
