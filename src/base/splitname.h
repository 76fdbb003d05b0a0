/*
 * splitname.h - the names llama.cpp gives the shards of a split model
 * (llama_split_path: PREFIX-%05d-of-%05d.gguf), read back.
 */
#ifndef GGUFLINT_SPLITNAME_H
#define GGUFLINT_SPLITNAME_H

#include <stdbool.h>
#include <stddef.h>

/*
 * split_parse_name: whether path is named as llama.cpp names shard no of
 * count of a split model (PREFIX-%05d-of-%05d.gguf with PREFIX not empty
 * and 1 <= no <= count); then *prefix_len is PREFIX's length (the name
 * without its last 20 bytes), and no and count are set.
 */
bool split_parse_name(const char *path, size_t *prefix_len, unsigned *no,
    unsigned *count);

/* split_parse_namen: split_parse_name of path's first n bytes (a URL's
 * name before its query); path need not end there. */
bool split_parse_namen(const char *path, size_t n, size_t *prefix_len,
    unsigned *no, unsigned *count);

#endif
