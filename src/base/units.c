/*
 * units.c - reading and writing sizes in bytes (see units.h).
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>

#include "base/units.h"
#include "base/util.h"

/* The largest unit's shift, and so the most fraction digits that count. */
#define MAX_SHIFT 40

/*
 * floor(0.D * 2^shift) for the fraction digits D (n of them, values 0-9,
 * n <= MAX_SHIFT), exactly: D doubled shift times, each carry out of it
 * the next bit. No digit after the first shift can change the result (a
 * multiple of 2^-shift has at most shift decimals). D is overwritten.
 */
static uint64_t
frac_bytes(unsigned char *dig, size_t n, unsigned shift)
{
	uint64_t bytes = 0;
	unsigned i, v, carry;
	size_t k;

	for (i = 0; i < shift; i++) {
		for (carry = 0, k = n; k-- > 0;) {
			v = dig[k] * 2u + carry;
			dig[k] = (unsigned char)(v % 10);
			carry = v / 10;
		}
		bytes = bytes * 2 + carry;
	}
	return bytes;
}

int
parse_size(const char *s, uint64_t *out)
{
	static const struct {
		const char *unit;
		unsigned shift;
	} units[] = {
		{ "", 0 }, { "B", 0 },
		{ "K", 10 }, { "KB", 10 }, { "KiB", 10 },
		{ "M", 20 }, { "MB", 20 }, { "MiB", 20 },
		{ "G", 30 }, { "GB", 30 }, { "GiB", 30 },
		{ "T", 40 }, { "TB", 40 }, { "TiB", 40 },
	};
	unsigned char dig[MAX_SHIFT];
	unsigned long long whole;
	size_t i, n_dig = 0;
	char *end;

	while (isspace((unsigned char)*s))
		s++;
	if (!isdigit((unsigned char)*s))
		return -1;
	/* Digits, an optional decimal fraction, spaces, a unit: no hex, no
	 * exponents, and whole numbers exact to the last byte. */
	errno = 0;
	whole = strtoull(s, &end, 10);
	if (errno != 0)
		return -1;
	if (*end == '.') {
		if (!isdigit((unsigned char)end[1]))
			return -1;
		/* digits only (strtod would also take an exponent), of which
		 * the first MAX_SHIFT count */
		for (end++; isdigit((unsigned char)*end); end++)
			if (n_dig < MAX_SHIFT)
				dig[n_dig++] = (unsigned char)(*end - '0');
	}
	while (isspace((unsigned char)*end))
		end++;
	for (i = 0; i < sizeof units / sizeof units[0]; i++) {
		unsigned shift = units[i].shift;
		uint64_t bytes;

		if (strcasecmp(end, units[i].unit) != 0)
			continue;
		if (shift > 0 && whole > (UINT64_MAX >> shift))
			return -1;
		bytes = (uint64_t)whole << shift;
		if (u64_add_overflow(bytes, frac_bytes(dig, n_dig, shift),
		    &bytes))
			return -1;
		*out = bytes;
		return 0;
	}
	return -1;
}

const char *
format_size(uint64_t b, char *buf, size_t bufsz)
{
	if (b >= (1ull << 40))
		snprintf(buf, bufsz, "%.1f TiB", (double)b / (1ull << 40));
	else if (b >= (1ull << 30))
		snprintf(buf, bufsz, "%.1f GiB", (double)b / (1ull << 30));
	else if (b >= (1ull << 20))
		snprintf(buf, bufsz, "%llu MiB", (unsigned long long)(b >> 20));
	else if (b >= (1ull << 10))
		snprintf(buf, bufsz, "%llu KiB", (unsigned long long)(b >> 10));
	else
		snprintf(buf, bufsz, "%llu B", (unsigned long long)b);
	return buf;
}
