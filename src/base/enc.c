/*
 * enc.c - UTF-8 decoding, JSON string literals, shortest round-trip floats
 * and terminal-safe text (see enc.h).
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/enc.h"

#define ENC_REPLACEMENT 0xFFFDu

/*
 * enc_utf8_decode: the decoder behind enc_utf8_next and enc_utf8_valid.
 * Requires n > 0.  Returns the length consumed, sets *cp, and sets *ok to
 * whether the sequence was well-formed.  The accepted ranges for the second
 * byte follow Unicode's table of well-formed byte sequences, which is what
 * rules out overlongs (E0, F0), surrogates (ED) and values above U+10FFFF
 * (F4); the maximal subpart is the lead byte plus every continuation byte
 * that was still acceptable when the sequence broke off.
 */
static size_t
enc_utf8_decode(const uint8_t *s, size_t n, uint32_t *cp, bool *ok)
{
	uint8_t b = s[0];
	uint8_t lo = 0x80, hi = 0xbf;
	size_t need, i;
	uint32_t c;

	if (b < 0x80) {
		*cp = b;
		*ok = true;
		return 1;
	}
	if (b >= 0xc2 && b <= 0xdf) {
		need = 1;
		c = b & 0x1f;
	} else if (b >= 0xe0 && b <= 0xef) {
		need = 2;
		c = b & 0x0f;
		if (b == 0xe0)
			lo = 0xa0;
		else if (b == 0xed)
			hi = 0x9f;
	} else if (b >= 0xf0 && b <= 0xf4) {
		need = 3;
		c = b & 0x07;
		if (b == 0xf0)
			lo = 0x90;
		else if (b == 0xf4)
			hi = 0x8f;
	} else {
		/* 80..BF stray continuation, C0/C1 always overlong, F5..FF. */
		*cp = ENC_REPLACEMENT;
		*ok = false;
		return 1;
	}
	for (i = 1; i <= need; i++) {
		if (i >= n || s[i] < lo || s[i] > hi) {
			*cp = ENC_REPLACEMENT;
			*ok = false;
			return i;
		}
		c = c << 6 | (uint32_t)(s[i] & 0x3f);
		lo = 0x80;
		hi = 0xbf;
	}
	*cp = c;
	*ok = true;
	return need + 1;
}

bool
enc_utf8_valid(const void *s, size_t n)
{
	const uint8_t *p = s;
	uint32_t cp;
	bool ok;

	while (n > 0) {
		size_t len = enc_utf8_decode(p, n, &cp, &ok);

		if (!ok)
			return false;
		p += len;
		n -= len;
	}
	return true;
}

size_t
enc_utf8_next(const uint8_t *s, size_t n, uint32_t *cp)
{
	bool ok;

	if (n == 0) {
		*cp = ENC_REPLACEMENT;
		return 0;
	}
	return enc_utf8_decode(s, n, cp, &ok);
}

/* enc_add_utf8: append code point cp (at most U+10FFFF) encoded as UTF-8. */
static void
enc_add_utf8(struct strbuf *sb, uint32_t cp)
{
	char b[4];

	if (cp < 0x80) {
		b[0] = (char)cp;
		strbuf_add(sb, b, 1);
	} else if (cp < 0x800) {
		b[0] = (char)(0xc0 | cp >> 6);
		b[1] = (char)(0x80 | (cp & 0x3f));
		strbuf_add(sb, b, 2);
	} else if (cp < 0x10000) {
		b[0] = (char)(0xe0 | cp >> 12);
		b[1] = (char)(0x80 | (cp >> 6 & 0x3f));
		b[2] = (char)(0x80 | (cp & 0x3f));
		strbuf_add(sb, b, 3);
	} else {
		b[0] = (char)(0xf0 | cp >> 18);
		b[1] = (char)(0x80 | (cp >> 12 & 0x3f));
		b[2] = (char)(0x80 | (cp >> 6 & 0x3f));
		b[3] = (char)(0x80 | (cp & 0x3f));
		strbuf_add(sb, b, 4);
	}
}

void
enc_json_string(struct strbuf *sb, const void *s, size_t n)
{
	const uint8_t *p = s;
	uint32_t cp;
	bool ok;

	strbuf_addc(sb, '"');
	while (n > 0) {
		size_t len, run = 0;

		/* plain printable ASCII goes out in one piece */
		while (run < n && p[run] >= 0x20 && p[run] < 0x80 &&
		    p[run] != '"' && p[run] != '\\')
			run++;
		if (run > 0) {
			strbuf_add(sb, p, run);
			p += run;
			n -= run;
			continue;
		}
		len = enc_utf8_decode(p, n, &cp, &ok);
		switch (cp) {
		case '"':
			strbuf_adds(sb, "\\\"");
			break;
		case '\\':
			strbuf_adds(sb, "\\\\");
			break;
		case '\b':
			strbuf_adds(sb, "\\b");
			break;
		case '\f':
			strbuf_adds(sb, "\\f");
			break;
		case '\n':
			strbuf_adds(sb, "\\n");
			break;
		case '\r':
			strbuf_adds(sb, "\\r");
			break;
		case '\t':
			strbuf_adds(sb, "\\t");
			break;
		default:
			if (cp < 0x20)
				strbuf_addf(sb, "\\u%04x", (unsigned)cp);
			else if (ok)
				strbuf_add(sb, p, len);
			else
				enc_add_utf8(sb, ENC_REPLACEMENT);
			break;
		}
		p += len;
		n -= len;
	}
	strbuf_addc(sb, '"');
}

void
enc_json_cstr(struct strbuf *sb, const char *s)
{
	enc_json_string(sb, s, strlen(s));
}

/*
 * struct enc_dec: a decimal read back from printf's "%.*e" output, worth
 * (neg ? -1 : 1) * d[0].d[1]...d[ndig-1] * 10^exp.  The digits are ASCII
 * and not NUL-terminated.
 */
struct enc_dec {
	bool neg;
	char d[24];
	int ndig;
	int exp;
};

/*
 * enc_dec_format: round v (finite) to prec significant digits with printf
 * and split the result into sign, digits and exponent.  printf's radix
 * character depends on the locale (and may be several bytes); it is skipped
 * by keeping only the ASCII digits before the 'e', which printf never
 * localises.  prec is at most 17, so the digits always fit.  Trailing zeros
 * are kept: dec has exactly prec digits.
 */
static void
enc_dec_format(struct enc_dec *dec, double v, int prec)
{
	char buf[80];
	const char *q = buf;
	int sign = 1, e = 0;

	snprintf(buf, sizeof buf, "%.*e", prec - 1, v);
	dec->neg = false;
	dec->ndig = 0;
	if (*q == '-') {
		dec->neg = true;
		q++;
	}
	for (; *q != '\0' && *q != 'e' && *q != 'E'; q++) {
		if (*q >= '0' && *q <= '9' &&
		    dec->ndig < (int)sizeof dec->d)
			dec->d[dec->ndig++] = *q;
	}
	if (*q != '\0')
		q++;
	if (*q == '-') {
		sign = -1;
		q++;
	} else if (*q == '+') {
		q++;
	}
	for (; *q >= '0' && *q <= '9'; q++)
		e = e * 10 + (*q - '0');
	dec->exp = sign * e;
}

/*
 * enc_dec_bump: move dec one unit in its last digit away from zero,
 * carrying as needed (9.99e2 becomes 1.00e3).
 */
static void
enc_dec_bump(struct enc_dec *dec)
{
	int i = dec->ndig - 1;

	while (i >= 0 && dec->d[i] == '9')
		dec->d[i--] = '0';
	if (i >= 0) {
		dec->d[i]++;
	} else {
		dec->d[0] = '1';
		dec->exp++;
	}
}

/*
 * enc_dec_integer: write dec as "<digits>e<exp>" with no radix point at
 * all, a form strtof/strtod read the same way in every locale.
 */
static void
enc_dec_integer(const struct enc_dec *dec, char *out, size_t size)
{
	snprintf(out, size, "%s%.*se%d", dec->neg ? "-" : "", dec->ndig,
	    dec->d, dec->exp - (dec->ndig - 1));
}

/*
 * enc_dec_add: append dec in the reporters' "<mantissa>e<exp>" form,
 * without trailing zeros in the mantissa (but at least one digit: "0e0").
 */
static void
enc_dec_add(struct strbuf *sb, const struct enc_dec *dec)
{
	int n = dec->ndig;

	while (n > 1 && dec->d[n - 1] == '0')
		n--;
	if (dec->neg)
		strbuf_addc(sb, '-');
	strbuf_addc(sb, dec->d[0]);
	if (n > 1) {
		strbuf_addc(sb, '.');
		strbuf_add(sb, dec->d + 1, (size_t)n - 1);
	}
	strbuf_addf(sb, "e%d", dec->exp);
}

/* enc_f32_same: does the decimal text s read back as exactly *want? */
static bool
enc_f32_same(const char *s, const void *want)
{
	float back = strtof(s, NULL);	/* ERANGE on subnormals: ignored */

	return memcmp(&back, want, sizeof back) == 0;
}

static bool
enc_f64_same(const char *s, const void *want)
{
	double back = strtod(s, NULL);	/* ERANGE on subnormals: ignored */

	return memcmp(&back, want, sizeof back) == 0;
}

/*
 * enc_shortest: append finite v (exactly representable in the format that
 * same() reads) using the fewest significant digits that read back as v;
 * maxprec digits always suffice.
 *
 * At each precision the correctly rounded decimal is the nearest candidate,
 * so it is tried first.  When it fails, the next decimal up in magnitude is
 * tried too: at a power of two the gap to the next float above is twice the
 * gap below, so that neighbour can round-trip when the nearest one does not
 * (2^-24 needs 16 digits, not 17, as 5.960464477539063e-8).  The neighbour
 * below never can, since the gap below is never the wider one.  The result
 * is the shortest round-trip decimal and, among those, the nearest to v.
 */
static void
enc_shortest(struct strbuf *sb, double v, int maxprec,
    bool (*same)(const char *, const void *), const void *want)
{
	struct enc_dec dec;
	char buf[64];
	int prec, saved = errno;

	for (prec = 1; prec < maxprec; prec++) {
		enc_dec_format(&dec, v, prec);
		enc_dec_integer(&dec, buf, sizeof buf);
		if (same(buf, want))
			break;
		enc_dec_bump(&dec);
		enc_dec_integer(&dec, buf, sizeof buf);
		if (same(buf, want))
			break;
	}
	if (prec == maxprec)
		enc_dec_format(&dec, v, prec);
	errno = saved;
	enc_dec_add(sb, &dec);
}

/* enc_nonfinite: append the name of v and return true if v is not finite. */
static bool
enc_nonfinite(struct strbuf *sb, double v)
{
	if (isnan(v)) {
		strbuf_adds(sb, "nan");
		return true;
	}
	if (isinf(v)) {
		strbuf_adds(sb, v < 0 ? "-inf" : "inf");
		return true;
	}
	return false;
}

void
enc_f32(struct strbuf *sb, float v)
{
	/* Nine significant digits always identify a binary32 value. */
	if (!enc_nonfinite(sb, (double)v))
		enc_shortest(sb, (double)v, 9, enc_f32_same, &v);
}

void
enc_f64(struct strbuf *sb, double v)
{
	/* Seventeen significant digits always identify a binary64 value. */
	if (!enc_nonfinite(sb, v))
		enc_shortest(sb, v, 17, enc_f64_same, &v);
}

/*
 * enc_text_hidden: true for the code points enc_text must never emit raw:
 * controls, format characters that reorder or hide text on screen, and
 * the noncharacters U+FFFE and U+FFFF (which YAML and XML refuse: the
 * baseline file, a YAML document, holds enc_text's output).
 */
static bool
enc_text_hidden(uint32_t cp)
{
	return cp < 0x20 || (cp >= 0x7f && cp <= 0x9f) || cp == 0x061c ||
	    cp == 0x200e || cp == 0x200f || (cp >= 0x202a && cp <= 0x202e) ||
	    (cp >= 0x2066 && cp <= 0x2069) || cp == 0x2028 || cp == 0x2029 ||
	    cp == 0xfeff || cp == 0xfffe || cp == 0xffff;
}

void
enc_text(struct strbuf *sb, const void *s, size_t n)
{
	const uint8_t *p = s;
	uint32_t cp;
	bool ok;
	size_t i;

	while (n > 0) {
		size_t len = enc_utf8_decode(p, n, &cp, &ok);

		if (!ok) {
			for (i = 0; i < len; i++)
				strbuf_addf(sb, "\\x%02x", (unsigned)p[i]);
		} else if (cp == '\\') {
			strbuf_adds(sb, "\\\\");
		} else if (cp == '\n') {
			strbuf_adds(sb, "\\n");
		} else if (cp == '\t') {
			strbuf_adds(sb, "\\t");
		} else if (cp == '\r') {
			strbuf_adds(sb, "\\r");
		} else if (enc_text_hidden(cp)) {
			strbuf_addf(sb, "\\u{%04X}", (unsigned)cp);
		} else {
			strbuf_add(sb, p, len);
		}
		p += len;
		n -= len;
	}
}
