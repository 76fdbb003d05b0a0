/*
 * splitname.c - the names of a split model's shards (splitname.h).
 */
#include "config.h"

#include <string.h>

#include "base/splitname.h"

#define SHARD_SUFFIX_LEN 20 /* "-00001-of-00004.gguf" */

/* digits5: the number written in the 5 decimal digits at p, or -1. */
static long
digits5(const char *p)
{
	long v = 0;
	int i;

	for (i = 0; i < 5; i++) {
		if (p[i] < '0' || p[i] > '9')
			return -1;
		v = v * 10 + (p[i] - '0');
	}
	return v;
}

bool
split_parse_name(const char *path, size_t *prefix_len, unsigned *no,
    unsigned *count)
{
	return split_parse_namen(path, strlen(path), prefix_len, no, count);
}

bool
split_parse_namen(const char *path, size_t n, size_t *prefix_len, unsigned *no,
    unsigned *count)
{
	const char *s;
	long a, b;

	if (n <= SHARD_SUFFIX_LEN)
		return false;
	s = path + n - SHARD_SUFFIX_LEN;
	if (s[0] != '-' || memcmp(s + 6, "-of-", 4) != 0 ||
	    memcmp(s + 15, ".gguf", 5) != 0)
		return false;
	a = digits5(s + 1);
	b = digits5(s + 10);
	if (a < 1 || b < 1 || a > b)
		return false;
	*prefix_len = n - SHARD_SUFFIX_LEN;
	*no = (unsigned)a;
	*count = (unsigned)b;
	return true;
}
