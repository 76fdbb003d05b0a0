/*
 * jsontree.h - a minimal, strict JSON parser into a tree, and a structural
 * comparison of two trees, for tests that check JSON output against
 * expected files (gguflint's own JSON reports, the corpus's peer files).
 *
 * Strict means RFC 8259 and nothing more: no comments, no trailing commas,
 * no single quotes, no NaN/Infinity, no leading zeros, no control
 * characters in strings, no unpaired surrogates, UTF-8 input only (invalid
 * or overlong sequences are rejected), one value per text.  Duplicate keys
 * in an object are rejected too, so that lookups and comparisons have one
 * answer.  Nesting is limited to JSONTREE_MAX_DEPTH.
 */
#ifndef GGUFLINT_JSONTREE_H
#define GGUFLINT_JSONTREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/util.h"

#define JSONTREE_MAX_DEPTH 512

enum jsontree_type {
	JSONTREE_NULL,
	JSONTREE_BOOL,
	JSONTREE_NUMBER,
	JSONTREE_STRING,
	JSONTREE_ARRAY,
	JSONTREE_OBJECT
};

/*
 * struct jsonnode: one value.  A tree is owned by its root; free it with
 * jsontree_free().
 */
struct jsonnode {
	enum jsontree_type type;
	bool boolean;		/* BOOL */
	double number;		/* NUMBER: the text converted by strtod */
	/*
	 * NUMBER: the number's source text, as written.
	 * STRING: the decoded value in UTF-8 (escapes resolved), which may
	 * contain NUL bytes (from \u0000).
	 * Both NUL-terminated, len bytes long; NULL for other types.
	 */
	char *text;
	size_t len;
	/* ARRAY and OBJECT: n children in source order. */
	size_t n;
	struct jsonnode **items;
	/* OBJECT: the decoded keys, parallel to items. */
	char **keys;
	size_t *key_lens;
};

/*
 * jsontree_parse: parse the n bytes at text (no terminator needed).
 * Returns the root, or NULL on error; then, if err is not NULL, *err is
 * set to a message "LINE:COL: what" (1-based, columns in characters) that
 * the caller frees.
 */
struct jsonnode *jsontree_parse(const char *text, size_t n, char **err);

/* jsontree_free: free node and everything under it (NULL is fine). */
void jsontree_free(struct jsonnode *node);

/* jsontree_type_name: "null", "boolean", "number", "string", "array",
 * "object". */
const char *jsontree_type_name(enum jsontree_type type);

/* jsontree_get: the member named key of an object, or NULL when obj is
 * NULL, not an object, or has no such member. */
const struct jsonnode *jsontree_get(const struct jsonnode *obj,
    const char *key);

/* jsontree_at: element i of an array, or NULL when arr is NULL, not an
 * array, or too short. */
const struct jsonnode *jsontree_at(const struct jsonnode *arr, size_t i);

/*
 * jsontree_pointer: follow a JSON pointer ("" is the root, "/a/0/b";
 * "~0" is '~' and "~1" is '/' in a key).  NULL when it leads nowhere.
 */
const struct jsonnode *jsontree_pointer(const struct jsonnode *root,
    const char *pointer);

/* jsontree_str: a string node's value, or NULL for any other node. */
const char *jsontree_str(const struct jsonnode *node);

/*
 * jsontree_int64: true and *v set when node is a number written as an
 * integer (no fraction, no exponent) that fits in int64_t.
 */
bool jsontree_int64(const struct jsonnode *node, int64_t *v);

/* jsontree_write: append node as compact JSON (numbers as written). */
void jsontree_write(const struct jsonnode *node, struct strbuf *out);

/*
 * jsontree_diff: compare actual with expected, structurally:
 *  - objects: the same set of keys, in any order, with equal values;
 *  - arrays: the same length, element by element;
 *  - numbers: when both are integers (exactly, as decimals: 1e3 is, 1.5
 *    is not), their exact values must be equal, however many digits;
 *    otherwise their double values must be equal;
 *  - strings: the same bytes; booleans and null: the same value.
 * Appends to report (if not NULL) one line per difference,
 * "PATH: expected X, got Y\n", where PATH is a JSON pointer ("/" for the
 * root) and X and Y are compact JSON, shortened when long, or "(missing)"
 * for an absent member, or "N elements" for arrays of unequal length.
 * At most max_report lines are written (all when max_report < 0); when
 * some are left out a last line "... and N more differences" says so.
 * Returns the number of differences (0: equal).
 */
int jsontree_diff(const struct jsonnode *expected,
    const struct jsonnode *actual, struct strbuf *report, int max_report);

#endif
