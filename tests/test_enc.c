/*
 * test_enc.c - tests for src/enc.c: UTF-8 decoding with maximal-subpart
 * replacement, JSON strings, shortest round-trip floats and terminal-safe
 * text.
 *
 * The expected JSON strings and U+FFFD counts are those Python 3 produces
 * with bytes.decode('utf-8', 'replace') and json.dumps(ensure_ascii=False);
 * the expected doubles match Python's repr().  Both were worked out once
 * and are written here as literals.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <float.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/enc.h"
#include "base/util.h"

/* The UTF-8 encoding of U+FFFD REPLACEMENT CHARACTER. */
#define R "\xef\xbf\xbd"

/* L(lit): a string literal as a (pointer, length) pair, NULs included. */
#define L(lit) (lit), (sizeof(lit) - 1)

static uint64_t lcg_state;

/* lcg_next: a deterministic 32-bit pseudo-random number (Knuth's MMIX). */
static uint32_t
lcg_next(void)
{
	lcg_state = lcg_state * 6364136223846793005u + 1442695040888963407u;
	return (uint32_t)(lcg_state >> 32);
}

static void
check_json(const char *in, size_t n, const char *want)
{
	struct strbuf sb = STRBUF_INIT;

	enc_json_string(&sb, in, n);
	cr_assert_str_eq(strbuf_cstr(&sb), want);
	cr_assert_eq(sb.len, strlen(want));
	strbuf_free(&sb);
}

static void
check_text(const char *in, size_t n, const char *want)
{
	struct strbuf sb = STRBUF_INIT;

	enc_text(&sb, in, n);
	cr_assert_str_eq(strbuf_cstr(&sb), want);
	cr_assert_eq(sb.len, strlen(want));
	strbuf_free(&sb);
}

static void
check_f32(float v, const char *want)
{
	struct strbuf sb = STRBUF_INIT;

	enc_f32(&sb, v);
	cr_assert_str_eq(strbuf_cstr(&sb), want, "f32 %.9g", (double)v);
	strbuf_free(&sb);
}

static void
check_f64(double v, const char *want)
{
	struct strbuf sb = STRBUF_INIT;

	enc_f64(&sb, v);
	cr_assert_str_eq(strbuf_cstr(&sb), want, "f64 %.17g", v);
	strbuf_free(&sb);
}

static float
f32_from_bits(uint32_t b)
{
	float f;

	memcpy(&f, &b, sizeof f);
	return f;
}

static double
f64_from_bits(uint64_t b)
{
	double d;

	memcpy(&d, &b, sizeof d);
	return d;
}

/* ---- enc_utf8_next ------------------------------------------------- */

/*
 * check_next: decode in[0..n) step by step and compare each step's length
 * and code point with the expected lists (nsteps entries each).
 */
static void
check_next(const char *in, size_t n, const size_t *lens, const uint32_t *cps,
    size_t nsteps)
{
	const uint8_t *p = (const uint8_t *)in;
	size_t step = 0;

	while (n > 0) {
		uint32_t cp = 0;
		size_t len = enc_utf8_next(p, n, &cp);

		cr_assert_lt(step, nsteps, "more steps than expected");
		cr_assert_eq(len, lens[step], "step %zu: length %zu, want %zu",
		    step, len, lens[step]);
		cr_assert_eq(cp, cps[step], "step %zu: U+%04X, want U+%04X",
		    step, (unsigned)cp, (unsigned)cps[step]);
		p += len;
		n -= len;
		step++;
	}
	cr_assert_eq(step, nsteps, "%zu steps, want %zu", step, nsteps);
}

#define NEXT(lit, ...)							\
	do {								\
		static const struct { size_t len; uint32_t cp; } e[] =	\
		    { __VA_ARGS__ };					\
		size_t lens[sizeof e / sizeof e[0]];			\
		uint32_t cps[sizeof e / sizeof e[0]];			\
		size_t k;						\
									\
		for (k = 0; k < sizeof e / sizeof e[0]; k++) {		\
			lens[k] = e[k].len;				\
			cps[k] = e[k].cp;				\
		}							\
		check_next(L(lit), lens, cps, k);			\
	} while (0)

#define BAD(len) { len, 0xFFFD }

Test(utf8_next, well_formed)
{
	NEXT("A", { 1, 0x41 });
	NEXT("\0", { 1, 0 });
	NEXT("\x7f", { 1, 0x7f });
	NEXT("\xc2\x80", { 2, 0x80 });
	NEXT("\xc2\xa9", { 2, 0xa9 });
	NEXT("\xdf\xbf", { 2, 0x7ff });
	NEXT("\xe0\xa0\x80", { 3, 0x800 });
	NEXT("\xe2\x82\xac", { 3, 0x20ac });
	NEXT("\xed\x9f\xbf", { 3, 0xd7ff });
	NEXT("\xee\x80\x80", { 3, 0xe000 });
	NEXT("\xef\xbf\xbd", { 3, 0xfffd });
	NEXT("\xef\xbf\xbf", { 3, 0xffff });
	NEXT("\xf0\x90\x80\x80", { 4, 0x10000 });
	NEXT("\xf0\x9f\x98\x80", { 4, 0x1f600 });
	NEXT("\xf4\x8f\xbf\xbf", { 4, 0x10ffff });
	NEXT("a\xc3\xa9z", { 1, 'a' }, { 2, 0xe9 }, { 1, 'z' });
}

Test(utf8_next, maximal_subparts)
{
	/* Overlongs: C0/C1 are never valid leads; E0 and F0 need A0/90+. */
	NEXT("\xc0\x80", BAD(1), BAD(1));
	NEXT("\xc1\xbf", BAD(1), BAD(1));
	NEXT("\xe0\x80\x80", BAD(1), BAD(1), BAD(1));
	NEXT("\xe0\x9f\xbf", BAD(1), BAD(1), BAD(1));
	NEXT("\xf0\x80\x80\x80", BAD(1), BAD(1), BAD(1), BAD(1));
	NEXT("\xf0\x8f\xbf\xbf", BAD(1), BAD(1), BAD(1), BAD(1));
	/* Surrogates. */
	NEXT("\xed\xa0\x80", BAD(1), BAD(1), BAD(1));
	NEXT("\xed\xbf\xbf", BAD(1), BAD(1), BAD(1));
	/* Above U+10FFFF. */
	NEXT("\xf4\x90\x80\x80", BAD(1), BAD(1), BAD(1), BAD(1));
	/* Truncated sequences: one U+FFFD for the whole prefix. */
	NEXT("\xe2\x82", BAD(2));
	NEXT("\xe2\x82" "A", BAD(2), { 1, 'A' });
	NEXT("\xf0\x9f\x98", BAD(3));
	NEXT("\xf0\x9f\x98" "A", BAD(3), { 1, 'A' });
	NEXT("\xf0\x9f" "A", BAD(2), { 1, 'A' });
	NEXT("\xf1\x80\x80", BAD(3));
	NEXT("\xc2", BAD(1));
	NEXT("\xe2\x28\xa1", BAD(1), { 1, '(' }, BAD(1));
	NEXT("\xe2\x82\xac\xe2\x82", { 3, 0x20ac }, BAD(2));
	/* Lone continuation bytes and bytes that never occur. */
	NEXT("\x80", BAD(1));
	NEXT("\xbf", BAD(1));
	NEXT("\x80\x80", BAD(1), BAD(1));
	NEXT("\xf5", BAD(1));
	NEXT("\xf5\x80\x80\x80", BAD(1), BAD(1), BAD(1), BAD(1));
	NEXT("\xf8\x88\x80\x80\x80", BAD(1), BAD(1), BAD(1), BAD(1), BAD(1));
	NEXT("\xf5\xf6\xf7\xf8\xf9\xfa\xfb\xfc\xfd\xfe\xff", BAD(1), BAD(1),
	    BAD(1), BAD(1), BAD(1), BAD(1), BAD(1), BAD(1), BAD(1), BAD(1),
	    BAD(1));
}

Test(utf8_next, length_limits_the_read)
{
	const uint8_t euro[] = { 0xe2, 0x82, 0xac };
	uint32_t cp = 0;

	cr_assert_eq(enc_utf8_next(euro, 2, &cp), 2);
	cr_assert_eq(cp, 0xfffd);
	cr_assert_eq(enc_utf8_next(euro, 1, &cp), 1);
	cr_assert_eq(cp, 0xfffd);
	cr_assert_eq(enc_utf8_next(euro, 3, &cp), 3);
	cr_assert_eq(cp, 0x20ac);
	cp = 0;
	cr_assert_eq(enc_utf8_next(euro, 0, &cp), 0);
	cr_assert_eq(cp, 0xfffd);
}

/* ---- enc_utf8_valid ------------------------------------------------ */

Test(utf8_valid, examples)
{
	cr_assert(enc_utf8_valid(NULL, 0));
	cr_assert(enc_utf8_valid(L("")));
	cr_assert(enc_utf8_valid(L("plain ASCII")));
	cr_assert(enc_utf8_valid(L("a\0b")));
	cr_assert(enc_utf8_valid(L("caf\xc3\xa9 \xe2\x82\xac "
	    "\xf0\x9f\x98\x80")));
	cr_assert(enc_utf8_valid(L("\xed\x9f\xbf\xee\x80\x80")));
	cr_assert(enc_utf8_valid(L("\xf4\x8f\xbf\xbf")));
	cr_assert(enc_utf8_valid(L("\xef\xbf\xbd")));

	cr_assert_not(enc_utf8_valid(L("\xc0\x80")));
	cr_assert_not(enc_utf8_valid(L("\xc1\xbf")));
	cr_assert_not(enc_utf8_valid(L("\xe0\x80\x80")));
	cr_assert_not(enc_utf8_valid(L("\xf0\x8f\xbf\xbf")));
	cr_assert_not(enc_utf8_valid(L("\xed\xa0\x80")));
	cr_assert_not(enc_utf8_valid(L("\xed\xbf\xbf")));
	cr_assert_not(enc_utf8_valid(L("\xe2\x82")));
	cr_assert_not(enc_utf8_valid(L("abc\xe2\x82")));
	cr_assert_not(enc_utf8_valid(L("\x80")));
	cr_assert_not(enc_utf8_valid(L("\xf4\x90\x80\x80")));
	cr_assert_not(enc_utf8_valid(L("\xf5\x80\x80\x80")));
	cr_assert_not(enc_utf8_valid(L("\xfe")));
	cr_assert_not(enc_utf8_valid(L("\xff")));
}

/*
 * ref_valid: an independent definition of well-formed UTF-8: split the
 * bytes into sequences by bit pattern alone, then reject truncated
 * sequences, non-shortest forms, surrogates and values above U+10FFFF.
 */
static bool
ref_valid(const uint8_t *s, size_t n)
{
	size_t need, i, at = 0;
	uint32_t cp, min;

	while (at < n) {
		const uint8_t *q = s + at;

		if (q[0] < 0x80) {
			need = 0;
			cp = q[0];
			min = 0;
		} else if ((q[0] & 0xe0) == 0xc0) {
			need = 1;
			cp = q[0] & 0x1f;
			min = 0x80;
		} else if ((q[0] & 0xf0) == 0xe0) {
			need = 2;
			cp = q[0] & 0x0f;
			min = 0x800;
		} else if ((q[0] & 0xf8) == 0xf0) {
			need = 3;
			cp = q[0] & 0x07;
			min = 0x10000;
		} else {
			return false;
		}
		if (n - at < need + 1)
			return false;
		for (i = 1; i <= need; i++) {
			if ((q[i] & 0xc0) != 0x80)
				return false;
			cp = cp << 6 | (q[i] & 0x3f);
		}
		if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
			return false;
		at += need + 1;
	}
	return true;
}

Test(utf8_valid, agrees_with_reference)
{
	static const uint8_t tails[] = { 0x00, 0x41, 0x7f, 0xc0, 0xc2, 0xe0,
		0xf0, 0xff };
	uint8_t s[4], c[72];
	unsigned a, b, d, e, nc = 0;

	/* Continuation bytes plus a sample of bytes that are not. */
	for (a = 0x80; a <= 0xbf; a++)
		c[nc++] = (uint8_t)a;
	for (a = 0; a < sizeof tails / sizeof tails[0]; a++)
		c[nc++] = tails[a];

	for (a = 0; a < 256; a++) {
		s[0] = (uint8_t)a;
		cr_assert_eq(enc_utf8_valid(s, 1), ref_valid(s, 1), "%02x", a);
		for (b = 0; b < 256; b++) {
			s[1] = (uint8_t)b;
			if (enc_utf8_valid(s, 2) != ref_valid(s, 2))
				cr_assert_fail("%02x %02x", a, b);
		}
	}
	for (a = 0xe0; a <= 0xef; a++)
		for (b = 0; b < 256; b++)
			for (d = 0; d < 256; d++) {
				s[0] = (uint8_t)a;
				s[1] = (uint8_t)b;
				s[2] = (uint8_t)d;
				if (enc_utf8_valid(s, 3) != ref_valid(s, 3))
					cr_assert_fail("%02x %02x %02x",
					    a, b, d);
			}
	for (a = 0xf0; a <= 0xf7; a++)
		for (b = 0; b < nc; b++)
			for (d = 0; d < nc; d++)
				for (e = 0; e < nc; e++) {
					s[0] = (uint8_t)a;
					s[1] = c[b];
					s[2] = c[d];
					s[3] = c[e];
					if (enc_utf8_valid(s, 4) !=
					    ref_valid(s, 4))
						cr_assert_fail(
						    "%02x %02x %02x %02x",
						    a, c[b], c[d], c[e]);
				}
}

/* ---- enc_json_string ----------------------------------------------- */

Test(json, plain)
{
	check_json(NULL, 0, "\"\"");
	check_json(L(""), "\"\"");
	check_json(L("abc"), "\"abc\"");
	check_json(L("a/b"), "\"a/b\"");
	check_json(L("blk.0.attn_q.weight"), "\"blk.0.attn_q.weight\"");
}

Test(json, escapes)
{
	check_json(L("\""), "\"\\\"\"");
	check_json(L("\\"), "\"\\\\\"");
	check_json(L("\b"), "\"\\b\"");
	check_json(L("\f"), "\"\\f\"");
	check_json(L("\n"), "\"\\n\"");
	check_json(L("\r"), "\"\\r\"");
	check_json(L("\t"), "\"\\t\"");
	check_json(L("\0"), "\"\\u0000\"");
	check_json(L("\x1f"), "\"\\u001f\"");
	check_json(L("\x1b[0m"), "\"\\u001b[0m\"");
	check_json(L("a\0b"), "\"a\\u0000b\"");
	check_json(L("say \"hi\"\\n"), "\"say \\\"hi\\\"\\\\n\"");
}

Test(json, every_control)
{
	char in[36];
	int i;

	for (i = 0; i < 32; i++)
		in[i] = (char)i;
	memcpy(in + 32, "\x7f\"\\/", 4);
	check_json(in, sizeof in,
	    "\"\\u0000\\u0001\\u0002\\u0003\\u0004\\u0005\\u0006\\u0007"
	    "\\b\\t\\n\\u000b\\f\\r\\u000e\\u000f"
	    "\\u0010\\u0011\\u0012\\u0013\\u0014\\u0015\\u0016\\u0017"
	    "\\u0018\\u0019\\u001a\\u001b\\u001c\\u001d\\u001e\\u001f"
	    "\x7f\\\"\\\\/\"");
}

Test(json, non_ascii_is_raw)
{
	check_json(L("caf\xc3\xa9"), "\"caf\xc3\xa9\"");
	check_json(L("\xc2\x80\xc2\x9f"), "\"\xc2\x80\xc2\x9f\"");
	check_json(L("\xe2\x80\xa8\xe2\x80\xa9"),
	    "\"\xe2\x80\xa8\xe2\x80\xa9\"");
	check_json(L("\xe2\x80\xae"), "\"\xe2\x80\xae\"");
	check_json(L("\xef\xbb\xbf"), "\"\xef\xbb\xbf\"");
	check_json(L("\xf0\x9f\x98\x80"), "\"\xf0\x9f\x98\x80\"");
	check_json(L("\xf4\x8f\xbf\xbf"), "\"\xf4\x8f\xbf\xbf\"");
	check_json(L("\xef\xbf\xbd"), "\"" R "\"");
	check_json(L("\xe2\x96\x81the"), "\"\xe2\x96\x81the\"");
}

Test(json, invalid_utf8_replaced)
{
	check_json(L("\xc0\x80"), "\"" R R "\"");
	check_json(L("\xc1\xbf"), "\"" R R "\"");
	check_json(L("\xe0\x80\x80"), "\"" R R R "\"");
	check_json(L("\xf0\x80\x80\x80"), "\"" R R R R "\"");
	check_json(L("\xed\xa0\x80"), "\"" R R R "\"");
	check_json(L("\xe2\x82"), "\"" R "\"");
	check_json(L("\xe2\x82\xac\xe2\x82"), "\"\xe2\x82\xac" R "\"");
	check_json(L("\x80"), "\"" R "\"");
	check_json(L("\xf4\x90\x80\x80"), "\"" R R R R "\"");
	check_json(L("\xf5"), "\"" R "\"");
	check_json(L("\xff"), "\"" R "\"");
	check_json(L("\xf5\xf6\xf7\xf8\xf9\xfa\xfb\xfc\xfd\xfe\xff"),
	    "\"" R R R R R R R R R R R "\"");
	check_json(L("\xf0\x9f\x98"), "\"" R "\"");
	check_json(L("\xf0\x9f\x98" "A"), "\"" R "A\"");
	check_json(L("\xf1\x80\x80"), "\"" R "\"");
	check_json(L("\xe2\x28\xa1"), "\"" R "(" R "\"");
	check_json(L("a\xed" "b"), "\"a" R "b\"");
	check_json(L("\x80\n\x80"), "\"" R "\\n" R "\"");
}

Test(json, appends)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_adds(&sb, "{\"k\":");
	enc_json_string(&sb, L("v"));
	strbuf_addc(&sb, '}');
	cr_assert_str_eq(strbuf_cstr(&sb), "{\"k\":\"v\"}");
	strbuf_free(&sb);
}

/* ---- enc_f32 / enc_f64: examples ----------------------------------- */

Test(float, f32_examples)
{
	check_f32(1e-5f, "1e-5");
	check_f32(-2.5f, "-2.5e0");
	check_f32(42.0f, "4.2e1");
	check_f32(1.0f, "1e0");
	check_f32(100.0f, "1e2");
	check_f32(0.1f, "1e-1");
	check_f32(1.1920929e-7f, "1.1920929e-7");
	check_f32(FLT_EPSILON, "1.1920929e-7");
	check_f32(0.0f, "0e0");
	check_f32(-0.0f, "-0e0");
	check_f32(FLT_MAX, "3.4028235e38");
	check_f32(-FLT_MAX, "-3.4028235e38");
	check_f32(FLT_MIN, "1.1754944e-38");
	check_f32(1.0f / 3.0f, "3.3333334e-1");
	check_f32(f32_from_bits(0x00000001), "1e-45");
	check_f32(f32_from_bits(0x80000001), "-1e-45");
	check_f32(f32_from_bits(0x007fffff), "1.1754942e-38");
	check_f32(16777216.0f, "1.6777216e7");
	check_f32(1e10f, "1e10");
	check_f32(65504.0f, "6.5504e4");
}

Test(float, f32_powers_of_two_use_the_wider_gap)
{
	/*
	 * At these powers of two no 8-digit decimal rounds to the value
	 * correctly rounded, but the next 8-digit decimal above does, because
	 * the gap above a power of two is twice the gap below.
	 */
	check_f32(ldexpf(1.0f, -96), "1.2621775e-29");
	check_f32(ldexpf(1.0f, 87), "1.5474251e26");
	check_f32(ldexpf(1.0f, 90), "1.2379401e27");
}

Test(float, f64_examples)
{
	check_f64(1e-5, "1e-5");
	check_f64(-2.5, "-2.5e0");
	check_f64(42.0, "4.2e1");
	check_f64(0.1, "1e-1");
	check_f64((double)0.1f, "1.0000000149011612e-1");
	check_f64((double)1.1920929e-7f, "1.1920928955078125e-7");
	check_f64(0.0, "0e0");
	check_f64(-0.0, "-0e0");
	check_f64(1.0 / 3.0, "3.333333333333333e-1");
	check_f64(DBL_MAX, "1.7976931348623157e308");
	check_f64(DBL_MIN, "2.2250738585072014e-308");
	check_f64(f64_from_bits(1), "5e-324");
	check_f64(f64_from_bits(3), "1.5e-323");
	check_f64(f64_from_bits(0x8000000000000001u), "-5e-324");
	check_f64(1e23, "1e23");
	check_f64(123456789012345680.0, "1.2345678901234568e17");
	check_f64(9007199254740993.0, "9.007199254740992e15");
	check_f64(ldexp(1.0, -24), "5.960464477539063e-8");
	check_f64(ldexp(1.0, 89), "6.189700196426902e26");
}

Test(float, non_finite)
{
	check_f32(NAN, "nan");
	check_f32(-NAN, "nan");
	check_f32(f32_from_bits(0x7f800001), "nan");
	check_f32(f32_from_bits(0xffffffff), "nan");
	check_f32(f32_from_bits(0x7fc00001), "nan");
	check_f32(INFINITY, "inf");
	check_f32(-INFINITY, "-inf");
	check_f64(NAN, "nan");
	check_f64(-NAN, "nan");
	check_f64(f64_from_bits(0x7ff0000000000001u), "nan");
	check_f64(f64_from_bits(0xffffffffffffffffu), "nan");
	check_f64(INFINITY, "inf");
	check_f64(-INFINITY, "-inf");
}

Test(float, appends_and_keeps_errno)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_adds(&sb, "eps=");
	errno = 0;
	enc_f32(&sb, f32_from_bits(1));
	cr_assert_eq(errno, 0);
	strbuf_addc(&sb, ' ');
	errno = EDOM;
	enc_f64(&sb, f64_from_bits(1));
	cr_assert_eq(errno, EDOM);
	cr_assert_str_eq(strbuf_cstr(&sb), "eps=1e-45 5e-324");
	strbuf_free(&sb);
}

Test(float, independent_of_locale)
{
	static const char *const names[] = { "de_DE.UTF-8", "de_DE.utf8",
		"fr_FR.UTF-8", "fr_FR.utf8", "ru_RU.UTF-8", "ru_RU.utf8",
		"de_DE", "fr_FR" };
	size_t i;

	for (i = 0; i < sizeof names / sizeof names[0]; i++)
		if (setlocale(LC_NUMERIC, names[i]) != NULL)
			break;
	if (i == sizeof names / sizeof names[0])
		cr_skip_test("no locale with a decimal comma is installed");
	check_f32(-2.5f, "-2.5e0");
	check_f32(1.1920929e-7f, "1.1920929e-7");
	check_f64(1.0 / 3.0, "3.333333333333333e-1");
	check_f64(f64_from_bits(1), "5e-324");
	setlocale(LC_NUMERIC, "C");
}

/* ---- enc_f32 / enc_f64: properties --------------------------------- */

/*
 * struct parsed: an output of enc_f32/enc_f64 taken apart, after checking
 * its shape: [-]d[.ddd]e[-]ddd with no trailing zero in the mantissa and
 * no '+' or leading zero in the exponent.
 */
struct parsed {
	int ndig;		/* significant digits in the mantissa */
	bool zero;
};

static struct parsed
check_shape(const char *s)
{
	struct parsed r = { 0, false };
	const char *p = s;

	if (*p == '-')
		p++;
	cr_assert(*p >= '0' && *p <= '9', "bad mantissa in %s", s);
	r.zero = *p == '0';
	r.ndig = 1;
	p++;
	if (*p == '.') {
		p++;
		cr_assert(*p >= '0' && *p <= '9', "empty fraction in %s", s);
		cr_assert_not(r.zero, "0.x in %s", s);
		while (*p >= '0' && *p <= '9') {
			r.ndig++;
			p++;
		}
		cr_assert_neq(p[-1], '0', "trailing zero in %s", s);
	}
	cr_assert_eq(*p, 'e', "no exponent in %s", s);
	p++;
	if (*p == '-')
		p++;
	cr_assert(*p >= '0' && *p <= '9', "bad exponent in %s", s);
	cr_assert(*p != '0' || p[1] == '\0', "leading zero in %s", s);
	cr_assert(!r.zero || strcmp(p, "0") == 0, "zero with exponent %s", s);
	while (*p >= '0' && *p <= '9')
		p++;
	cr_assert_eq(*p, '\0', "junk after %s", s);
	return r;
}

/*
 * near_decimals: the decimals with q significant digits around v, as
 * strings with no radix point: the correctly rounded one (first), one unit
 * below and one above it, and, when the rounded one is a power of ten, the
 * largest q-digit decimal below it (whose unit is ten times finer).  Any
 * q-digit decimal lying in an interval around v that holds no such one is
 * at least 1.5 units from v on one side while the interval reaches less
 * than half a unit on the other, which no float's rounding interval does;
 * so checking these suffices to show that no q-digit decimal round-trips.
 */
static int
near_decimals(double v, int q, char out[4][48])
{
	char buf[64];
	long long m = 0;
	int k = 0, e, n = 3;
	const char *p = buf;
	const char *sign = "";

	snprintf(buf, sizeof buf, "%.*e", q - 1, v);
	if (*p == '-') {
		sign = "-";
		p++;
	}
	for (; *p != 'e'; p++)
		if (*p >= '0' && *p <= '9') {
			m = m * 10 + (*p - '0');
			k++;
		}
	e = atoi(p + 1) - (k - 1);
	snprintf(out[0], 48, "%s%llde%d", sign, m, e);
	snprintf(out[1], 48, "%s%llde%d", sign, m - 1, e);
	snprintf(out[2], 48, "%s%llde%d", sign, m + 1, e);
	{
		long long pow10 = 1;

		while (--k > 0)
			pow10 *= 10;
		if (m == pow10) {
			snprintf(out[3], 48, "%s%llde%d", sign, pow10 * 10 - 1,
			    e - 1);
			n = 4;
		}
	}
	return n;
}

Test(float, f32_round_trip_and_shortest, .timeout = 600)
{
	struct strbuf sb = STRBUF_INIT;
	char near[4][48];
	long i;
	int j, n;

	lcg_state = 20240601;
	for (i = 0; i < 200000; i++) {
		uint32_t bits = lcg_next(), got;
		float v = f32_from_bits(bits), back;
		struct parsed pr;

		strbuf_reset(&sb);
		enc_f32(&sb, v);
		if (isnan(v)) {
			cr_assert_str_eq(strbuf_cstr(&sb), "nan");
			continue;
		}
		back = strtof(strbuf_cstr(&sb), NULL);
		memcpy(&got, &back, sizeof got);
		cr_assert_eq(got, bits, "%08x -> %s -> %08x", bits,
		    strbuf_cstr(&sb), got);
		if (isinf(v))
			continue;
		pr = check_shape(strbuf_cstr(&sb));

		/* The nearest decimal of this length, when it works. */
		n = near_decimals(v, pr.ndig, near);
		if (strtof(near[0], NULL) == v)
			cr_assert_eq(strtod(near[0], NULL),
			    strtod(strbuf_cstr(&sb), NULL),
			    "%08x: %s, nearer %s", bits, strbuf_cstr(&sb),
			    near[0]);
		if (pr.ndig == 1)
			continue;
		/* No decimal with one digit fewer reads back as v. */
		n = near_decimals(v, pr.ndig - 1, near);
		for (j = 0; j < n; j++) {
			back = strtof(near[j], NULL);
			memcpy(&got, &back, sizeof got);
			cr_assert_neq(got, bits, "%08x: %s but %s also works",
			    bits, strbuf_cstr(&sb), near[j]);
		}
	}
	strbuf_free(&sb);
}

Test(float, f64_round_trip_and_shortest, .timeout = 600)
{
	struct strbuf sb = STRBUF_INIT;
	char near[4][48];
	long i;
	int j, n;

	lcg_state = 7;
	for (i = 0; i < 50000; i++) {
		uint64_t bits = (uint64_t)lcg_next() << 32 | lcg_next(), got;
		double v = f64_from_bits(bits), back;
		struct parsed pr;

		strbuf_reset(&sb);
		enc_f64(&sb, v);
		if (isnan(v)) {
			cr_assert_str_eq(strbuf_cstr(&sb), "nan");
			continue;
		}
		back = strtod(strbuf_cstr(&sb), NULL);
		memcpy(&got, &back, sizeof got);
		cr_assert_eq(got, bits, "%016llx -> %s",
		    (unsigned long long)bits, strbuf_cstr(&sb));
		if (isinf(v))
			continue;
		pr = check_shape(strbuf_cstr(&sb));
		if (pr.ndig == 1)
			continue;
		n = near_decimals(v, pr.ndig - 1, near);
		for (j = 0; j < n; j++) {
			back = strtod(near[j], NULL);
			memcpy(&got, &back, sizeof got);
			cr_assert_neq(got, bits,
			    "%016llx: %s but %s also works",
			    (unsigned long long)bits, strbuf_cstr(&sb),
			    near[j]);
		}
	}
	strbuf_free(&sb);
}

/* ---- enc_text ------------------------------------------------------ */

Test(text, printable_passes)
{
	check_text(NULL, 0, "");
	check_text(L("plain ASCII ~!@#$%^&*()"), "plain ASCII ~!@#$%^&*()");
	check_text(L("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"),
	    "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");
	check_text(L("\xc2\xa0"), "\xc2\xa0");		/* U+00A0 */
	check_text(L("\xe2\x80\x8d"), "\xe2\x80\x8d");	/* U+200D ZWJ */
	check_text(L("\xe2\x80\xaf"), "\xe2\x80\xaf");	/* U+202F */
	check_text(L("\xe2\x81\xa5"), "\xe2\x81\xa5");	/* U+2065 */
	check_text(L("\xe2\x81\xaa"), "\xe2\x81\xaa");	/* U+206A */
	check_text(L("\xef\xbf\xbd"), "\xef\xbf\xbd");	/* U+FFFD */
	check_text(L("\xf4\x8f\xbf\xbf"), "\xf4\x8f\xbf\xbf");
	check_text(L("\xe2\x96\x81the"), "\xe2\x96\x81the");
}

Test(text, named_escapes)
{
	check_text(L("\\"), "\\\\");
	check_text(L("a\\b"), "a\\\\b");
	check_text(L("\n"), "\\n");
	check_text(L("\t"), "\\t");
	check_text(L("\r"), "\\r");
	check_text(L("x\r\ny"), "x\\r\\ny");
	check_text(L("\\n"), "\\\\n");
}

Test(text, controls)
{
	check_text(L("\0"), "\\u{0000}");
	check_text(L("\x01"), "\\u{0001}");
	check_text(L("\b"), "\\u{0008}");
	check_text(L("\v"), "\\u{000B}");
	check_text(L("\f"), "\\u{000C}");
	check_text(L("\x1b[31mred"), "\\u{001B}[31mred");
	check_text(L("\x1f"), "\\u{001F}");
	check_text(L("\x7f"), "\\u{007F}");
	check_text(L("\xc2\x80"), "\\u{0080}");
	check_text(L("\xc2\x85"), "\\u{0085}");
	check_text(L("\xc2\x9b" "2J"), "\\u{009B}2J");
	check_text(L("\xc2\x9f"), "\\u{009F}");
}

Test(text, format_characters)
{
	check_text(L("\xd8\x9c"), "\\u{061C}");
	check_text(L("\xe2\x80\x8e"), "\\u{200E}");
	check_text(L("\xe2\x80\x8f"), "\\u{200F}");
	check_text(L("\xe2\x80\xa8"), "\\u{2028}");
	check_text(L("\xe2\x80\xa9"), "\\u{2029}");
	check_text(L("\xe2\x80\xaa"), "\\u{202A}");
	check_text(L("\xe2\x80\xab"), "\\u{202B}");
	check_text(L("\xe2\x80\xac"), "\\u{202C}");
	check_text(L("\xe2\x80\xad"), "\\u{202D}");
	check_text(L("\xe2\x80\xae"), "\\u{202E}");
	check_text(L("\xe2\x81\xa6"), "\\u{2066}");
	check_text(L("\xe2\x81\xa7"), "\\u{2067}");
	check_text(L("\xe2\x81\xa8"), "\\u{2068}");
	check_text(L("\xe2\x81\xa9"), "\\u{2069}");
	check_text(L("\xef\xbb\xbf"), "\\u{FEFF}");
	check_text(L("admin\xe2\x80\xae\xe2\x81\xa6txt.exe"),
	    "admin\\u{202E}\\u{2066}txt.exe");
}

Test(text, invalid_bytes)
{
	check_text(L("\xff"), "\\xff");
	check_text(L("\x80"), "\\x80");
	check_text(L("\x9b"), "\\x9b");
	check_text(L("\xc0\x80"), "\\xc0\\x80");
	check_text(L("\xe2\x82"), "\\xe2\\x82");
	check_text(L("a\xe2\x82" "b"), "a\\xe2\\x82b");
	check_text(L("\xed\xa0\x80"), "\\xed\\xa0\\x80");
	check_text(L("\xf4\x90\x80\x80"), "\\xf4\\x90\\x80\\x80");
	check_text(L("\xf0\x9f\x98" "A"), "\\xf0\\x9f\\x98A");
	check_text(L("\xe2\x28\xa1"), "\\xe2(\\xa1");
	check_text(L("\xfe\xff"), "\\xfe\\xff");
}

Test(text, appends)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_adds(&sb, "name: ");
	enc_text(&sb, L("x\ty"));
	cr_assert_str_eq(strbuf_cstr(&sb), "name: x\\ty");
	strbuf_free(&sb);
}

/* text_hidden: the code points enc_text must never let through raw. */
static bool
text_hidden(uint32_t cp)
{
	return cp < 0x20 || (cp >= 0x7f && cp <= 0x9f) || cp == 0x61c ||
	    cp == 0x200e || cp == 0x200f || (cp >= 0x202a && cp <= 0x202e) ||
	    (cp >= 0x2066 && cp <= 0x2069) || cp == 0x2028 || cp == 0x2029 ||
	    cp == 0xfeff;
}

Test(text, random_input_never_leaks_controls)
{
	/* Fragments that bias the random strings toward the hard cases. */
	static const char *const frags[] = { "\x1b", "\\", "\xc2\x9b",
		"\xe2\x80\xae", "\xe2\x81\xa6", "\xef\xbb\xbf", "\xe2\x80",
		"\xf0\x9f", "\xed\xa0\x80", "\xc3\xa9", "\xf4\x8f\xbf\xbf",
		"\xd8\x9c", "\xe2\x80\xa8" };
	struct strbuf sb = STRBUF_INIT;
	char in[64];
	int i;

	lcg_state = 99;
	for (i = 0; i < 20000; i++) {
		size_t n = 0, off;
		uint32_t cp;

		while (n < sizeof in - 4) {
			uint32_t r = lcg_next();

			if (r % 3 == 0) {
				const char *f = frags[(r >> 8) %
				    (sizeof frags / sizeof frags[0])];

				memcpy(in + n, f, strlen(f));
				n += strlen(f);
			} else {
				in[n++] = (char)(r >> 16);
			}
			if ((r >> 24) % 16 == 0)
				break;
		}
		strbuf_reset(&sb);
		enc_text(&sb, in, n);
		cr_assert(enc_utf8_valid(sb.buf, sb.len));
		for (off = 0; off < sb.len;) {
			const uint8_t *at = (const uint8_t *)sb.buf + off;
			size_t len = enc_utf8_next(at, sb.len - off, &cp);

			cr_assert_not(text_hidden(cp), "U+%04X leaked",
			    (unsigned)cp);
			off += len;
		}
	}
	strbuf_free(&sb);
}
