/*
 * magic.c - other file formats by their first bytes (see magic.h). The
 * table is data: one row a format, its bytes and what it is.
 */
#include "config.h"

#include <string.h>

#include "reader/magic.h"

struct magic {
	const char *bytes;
	size_t n;
	const char *what;
	bool container;
};

static const struct magic magics[] = {
	{ "PK\003\004", 4, "a ZIP archive", true },
	{ "PK\005\006", 4, "an empty ZIP archive", true },
	{ "GGUF", 4, "another GGUF file", true },
	{ "\177ELF", 4, "an ELF executable", true },
	{ "MZ", 2, "a Windows (PE) executable", true },
	{ "#!", 2, "a script", true },
	{ "\037\213", 2, "a gzip stream", true },
	{ "7z\274\257\047\034", 6, "a 7-Zip archive", true },
	{ "Rar!\032\007", 6, "a RAR archive", true },
	{ "\200\002", 2, "a Python pickle", true },
	{ "\200\003", 2, "a Python pickle", true },
	{ "\200\004", 2, "a Python pickle", true },
	{ "\200\005", 2, "a Python pickle", true },
	{ "%PDF-", 5, "a PDF document", true },
	{ "\211PNG\r\n\032\n", 8, "a PNG image", false },
	{ "\377\330\377", 3, "a JPEG image", false },
};

const char *
magic_name(const uint8_t *p, size_t n, bool *container)
{
	size_t i;

	for (i = 0; i < sizeof magics / sizeof magics[0]; i++) {
		if (n < magics[i].n ||
		    memcmp(p, magics[i].bytes, magics[i].n) != 0)
			continue;
		if (container != NULL)
			*container = magics[i].container;
		return magics[i].what;
	}
	return NULL;
}

bool
magic_zip_end(const uint8_t *p, size_t n)
{
	/* the signature, then the comment's length (0) in the last two */
	return n == MAGIC_ZIP_END_BYTES && memcmp(p, "PK\005\006", 4) == 0 &&
	    p[20] == 0 && p[21] == 0;
}

int64_t
magic_find_gguf(const uint8_t *p, size_t n, size_t from)
{
	const uint8_t *at;

	while (from + 8 <= n &&
	    (at = memmem(p + from, n - from, "GGUF", 4)) != NULL) {
		size_t i = (size_t)(at - p);

		if (i + 8 <= n && p[i + 4] >= 1 && p[i + 4] <= 3 &&
		    p[i + 5] == 0 && p[i + 6] == 0 && p[i + 7] == 0)
			return (int64_t)i;
		from = i + 1;
	}
	return -1;
}
