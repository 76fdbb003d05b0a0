/*
 * enc.h - string and number encodings for the reporters: UTF-8 validation
 * and decoding, JSON string literals, shortest round-trip decimal floats,
 * and terminal-safe text.
 *
 * Every function that appends to a strbuf only appends; it never resets the
 * buffer.  Input strings are byte ranges (pointer and length); they may hold
 * NUL bytes and need not be valid UTF-8.  A NULL pointer is allowed when the
 * length is 0.
 */
#ifndef GGUFLINT_ENC_H
#define GGUFLINT_ENC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/util.h"

/*
 * enc_utf8_valid: true when s[0..n) is well-formed UTF-8 in the strict sense
 * of Unicode (no overlong forms, no surrogates U+D800..U+DFFF, nothing above
 * U+10FFFF).  NUL bytes are valid.
 */
bool enc_utf8_valid(const void *s, size_t n);

/*
 * enc_utf8_next: decode the code point at s (n bytes available).  On a
 * well-formed sequence, store it in *cp and return its length (1..4).  On an
 * ill-formed one, store U+FFFD in *cp and return the length of its "maximal
 * subpart" (1..3), which is what Unicode's recommended practice, Python's
 * errors='replace' and the WHATWG decoder each replace with one U+FFFD.
 * Returns at least 1 when n > 0, and 0 (with *cp = U+FFFD) when n == 0.
 * A genuine U+FFFD in the input can be told from an error: it is the only
 * case where *cp is U+FFFD, the length is 3 and s[0] is 0xEF.
 */
size_t enc_utf8_next(const uint8_t *s, size_t n, uint32_t *cp);

/*
 * enc_json_string: append s as a double-quoted JSON string, byte for byte
 * what Python's json.dumps(s.decode('utf-8', 'replace'), ensure_ascii=False)
 * produces: '"' and '\' escaped, \b \f \n \r \t by name, other code points
 * below U+0020 as \u00xx (lowercase hex), everything else as raw UTF-8, and
 * each ill-formed subsequence as one U+FFFD.
 */
void enc_json_string(struct strbuf *sb, const void *s, size_t n);

/* enc_json_cstr: enc_json_string of the NUL-terminated string s. */
void enc_json_cstr(struct strbuf *sb, const char *s);

/*
 * enc_f32, enc_f64: append v as the decimal with the fewest significant
 * digits that reads back (strtof, strtod) as exactly v at that width, and
 * of those the nearest to v, written as <mantissa>e<exponent>: "-2.5e0",
 * "1e-5", "0e0", "-0e0".  The mantissa has one digit before the point and
 * no trailing zeros; the exponent has no '+' and no leading zeros.  For a
 * double the digits are those of Python's repr().  Non-finite values are
 * written "nan" (any NaN), "inf" and "-inf".  The output never depends on
 * the current locale, and errno is preserved.
 */
void enc_f32(struct strbuf *sb, float v);
void enc_f64(struct strbuf *sb, double v);

/*
 * enc_text: append s made safe to print on a terminal.  Printable UTF-8
 * passes through unchanged.  A backslash becomes "\\"; newline, tab and
 * carriage return become "\n", "\t" and "\r"; the other C0 controls, DEL,
 * the C1 controls, the bidirectional controls (U+061C, U+200E, U+200F,
 * U+202A..U+202E, U+2066..U+2069), U+FEFF, U+2028/U+2029 and the
 * noncharacters U+FFFE/U+FFFF become
 * "\u{XXXX}" (uppercase hex, at least 4 digits); each byte of an ill-formed
 * subsequence becomes "\xNN" (lowercase hex).  The output is valid UTF-8 and
 * holds no control character.
 */
void enc_text(struct strbuf *sb, const void *s, size_t n);

#endif
