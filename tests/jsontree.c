/*
 * jsontree.c - strict JSON parsing into a tree, and tree comparison
 * (see jsontree.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jsontree.h"

/*
 * Parsing.
 */

struct jsontree_parser {
	const char *start;
	const char *p;
	const char *end;
	size_t line;		/* 1-based line of p */
	const char *line_start;	/* first byte of that line */
	int depth;
	char *err;		/* the first error, or NULL */
};

/* parser_error: record the first error, at the parser's position. */
static void GL_PRINTF(2, 3)
parser_error(struct jsontree_parser *ps, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	size_t col = 1;
	const char *q;
	va_list ap;

	if (ps->err != NULL)
		return;
	/* Columns count characters: skip UTF-8 continuation bytes. */
	for (q = ps->line_start; q < ps->p; q++)
		if (((unsigned char)*q & 0xc0) != 0x80)
			col++;
	strbuf_addf(&sb, "%zu:%zu: ", ps->line, col);
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	ps->err = strbuf_detach(&sb);
}

static void
skip_ws(struct jsontree_parser *ps)
{
	while (ps->p < ps->end) {
		char c = *ps->p;

		if (c == '\n') {
			ps->p++;
			ps->line++;
			ps->line_start = ps->p;
		} else if (c == ' ' || c == '\t' || c == '\r') {
			ps->p++;
		} else {
			break;
		}
	}
}

/* unexpected: report the byte at the parser's position (or the end of
 * input) as not what was wanted. */
static void
unexpected(struct jsontree_parser *ps, const char *wanted)
{
	unsigned char c;

	if (ps->p >= ps->end) {
		parser_error(ps, "unexpected end of input, expected %s",
		    wanted);
		return;
	}
	c = (unsigned char)*ps->p;
	if (c >= 0x21 && c < 0x7f)
		parser_error(ps, "unexpected '%c', expected %s", c, wanted);
	else
		parser_error(ps, "unexpected byte 0x%02x, expected %s", c,
		    wanted);
}

static struct jsonnode *
node_new(enum jsontree_type type)
{
	struct jsonnode *node = xcalloc(1, sizeof(*node));

	node->type = type;
	return node;
}

static void
add_utf8(struct strbuf *sb, uint32_t cp)
{
	char b[4];

	if (cp < 0x80) {
		b[0] = (char)cp;
		strbuf_add(sb, b, 1);
	} else if (cp < 0x800) {
		b[0] = (char)(0xc0 | (cp >> 6));
		b[1] = (char)(0x80 | (cp & 0x3f));
		strbuf_add(sb, b, 2);
	} else if (cp < 0x10000) {
		b[0] = (char)(0xe0 | (cp >> 12));
		b[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		b[2] = (char)(0x80 | (cp & 0x3f));
		strbuf_add(sb, b, 3);
	} else {
		b[0] = (char)(0xf0 | (cp >> 18));
		b[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
		b[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
		b[3] = (char)(0x80 | (cp & 0x3f));
		strbuf_add(sb, b, 4);
	}
}

/*
 * utf8_seq_len: the length of the well-formed UTF-8 sequence at p (at most
 * avail bytes), or 0 when it is not one (bad lead byte, missing or bad
 * continuation, overlong form, surrogate, beyond U+10FFFF).
 */
static size_t
utf8_seq_len(const unsigned char *p, size_t avail)
{
	uint32_t cp;
	size_t n, i;

	if (p[0] < 0x80)
		return 1;
	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		n = 2, cp = p[0] & 0x1f;
	else if (p[0] >= 0xe0 && p[0] <= 0xef)
		n = 3, cp = p[0] & 0x0f;
	else if (p[0] >= 0xf0 && p[0] <= 0xf4)
		n = 4, cp = p[0] & 0x07;
	else
		return 0;
	if (avail < n)
		return 0;
	for (i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (p[i] & 0x3f);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
	    cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

/* read_hex4: the four hex digits at p (p + 4 <= end), or -1. */
static long
read_hex4(const char *p)
{
	long v = 0;
	int i;

	for (i = 0; i < 4; i++) {
		char c = p[i];

		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= c - '0';
		else if (c >= 'a' && c <= 'f')
			v |= c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			v |= c - 'A' + 10;
		else
			return -1;
	}
	return v;
}

/*
 * parse_u_escape: decode the \u escape at ps->p (which is '\\' 'u'), a
 * surrogate pair taking two, append its UTF-8 to sb and step past it.
 * false on error.
 */
static bool
parse_u_escape(struct jsontree_parser *ps, struct strbuf *sb)
{
	long hi, lo;

	if (ps->end - ps->p < 6 || (hi = read_hex4(ps->p + 2)) < 0) {
		parser_error(ps, "bad \\u escape");
		return false;
	}
	if (hi >= 0xdc00 && hi <= 0xdfff) {
		parser_error(ps, "unpaired low surrogate \\u%04lx", hi);
		return false;
	}
	if (hi < 0xd800 || hi > 0xdbff) {
		add_utf8(sb, (uint32_t)hi);
		ps->p += 6;
		return true;
	}
	if (ps->end - ps->p < 12 || ps->p[6] != '\\' || ps->p[7] != 'u' ||
	    (lo = read_hex4(ps->p + 8)) < 0xdc00 || lo > 0xdfff) {
		parser_error(ps, "unpaired high surrogate \\u%04lx", hi);
		return false;
	}
	add_utf8(sb, 0x10000 + (((uint32_t)hi - 0xd800) << 10) +
	    ((uint32_t)lo - 0xdc00));
	ps->p += 12;
	return true;
}

/*
 * parse_escape: decode the escape at ps->p (which is '\\'), append the
 * byte(s) it stands for to sb and step past it.  false on error.
 */
static bool
parse_escape(struct jsontree_parser *ps, struct strbuf *sb)
{
	char c;

	if (ps->end - ps->p < 2) {
		ps->p++;
		parser_error(ps, "unterminated string");
		return false;
	}
	switch (ps->p[1]) {
	case '"':
	case '\\':
	case '/':
		c = ps->p[1];
		break;
	case 'b':
		c = '\b';
		break;
	case 'f':
		c = '\f';
		break;
	case 'n':
		c = '\n';
		break;
	case 'r':
		c = '\r';
		break;
	case 't':
		c = '\t';
		break;
	case 'u':
		return parse_u_escape(ps, sb);
	default:
		parser_error(ps, "bad escape in string");
		return false;
	}
	strbuf_addc(sb, c);
	ps->p += 2;
	return true;
}

/*
 * parse_string_into: parse a string literal at ps->p (which is '"') and
 * append its decoded bytes to sb.  false on error.
 */
static bool
parse_string_into(struct jsontree_parser *ps, struct strbuf *sb)
{
	ps->p++;
	for (;;) {
		unsigned char c;

		if (ps->p >= ps->end) {
			parser_error(ps, "unterminated string");
			return false;
		}
		c = (unsigned char)*ps->p;
		if (c == '"') {
			ps->p++;
			return true;
		}
		if (c < 0x20) {
			parser_error(ps, "control character 0x%02x in string",
			    c);
			return false;
		}
		if (c >= 0x80) {
			size_t k = utf8_seq_len((const unsigned char *)ps->p,
			    (size_t)(ps->end - ps->p));

			if (k == 0) {
				parser_error(ps, "invalid UTF-8 in string");
				return false;
			}
			strbuf_add(sb, ps->p, k);
			ps->p += k;
		} else if (c == '\\') {
			if (!parse_escape(ps, sb))
				return false;
		} else {
			strbuf_addc(sb, (char)c);
			ps->p++;
		}
	}
}

static bool
is_digit(const struct jsontree_parser *ps)
{
	return ps->p < ps->end && *ps->p >= '0' && *ps->p <= '9';
}

static struct jsonnode *
parse_number(struct jsontree_parser *ps)
{
	const char *begin = ps->p;
	struct jsonnode *node;

	if (ps->p < ps->end && *ps->p == '-')
		ps->p++;
	if (!is_digit(ps)) {
		unexpected(ps, "a digit");
		return NULL;
	}
	if (*ps->p == '0') {
		ps->p++;
		if (is_digit(ps)) {
			parser_error(ps, "leading zero in number");
			return NULL;
		}
	} else {
		while (is_digit(ps))
			ps->p++;
	}
	if (ps->p < ps->end && *ps->p == '.') {
		ps->p++;
		if (!is_digit(ps)) {
			unexpected(ps, "a digit after '.'");
			return NULL;
		}
		while (is_digit(ps))
			ps->p++;
	}
	if (ps->p < ps->end && (*ps->p == 'e' || *ps->p == 'E')) {
		ps->p++;
		if (ps->p < ps->end && (*ps->p == '+' || *ps->p == '-'))
			ps->p++;
		if (!is_digit(ps)) {
			unexpected(ps, "a digit in the exponent");
			return NULL;
		}
		while (is_digit(ps))
			ps->p++;
	}
	node = node_new(JSONTREE_NUMBER);
	node->len = (size_t)(ps->p - begin);
	node->text = xstrndup(begin, node->len);
	node->number = strtod(node->text, NULL);
	return node;
}

/* parse_literal: true, false or null. */
static struct jsonnode *
parse_literal(struct jsontree_parser *ps)
{
	static const struct {
		const char *word;
		enum jsontree_type type;
		bool value;
	} words[] = {
		{ "true", JSONTREE_BOOL, true },
		{ "false", JSONTREE_BOOL, false },
		{ "null", JSONTREE_NULL, false },
	};
	size_t i;

	for (i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		size_t k = strlen(words[i].word);
		struct jsonnode *node;

		if ((size_t)(ps->end - ps->p) < k ||
		    memcmp(ps->p, words[i].word, k) != 0)
			continue;
		ps->p += k;
		node = node_new(words[i].type);
		node->boolean = words[i].value;
		return node;
	}
	unexpected(ps, "a value");
	return NULL;
}

static struct jsonnode *parse_value(struct jsontree_parser *ps);

/* add_child: append child (and key, for objects) to a container. */
static void
add_child(struct jsonnode *node, size_t *cap, struct jsonnode *child,
    char *key, size_t key_len)
{
	if (node->n == *cap) {
		*cap = *cap ? 2 * *cap : 4;
		node->items = xreallocarray(node->items, *cap,
		    sizeof(*node->items));
		if (node->type == JSONTREE_OBJECT) {
			node->keys = xreallocarray(node->keys, *cap,
			    sizeof(*node->keys));
			node->key_lens = xreallocarray(node->key_lens, *cap,
			    sizeof(*node->key_lens));
		}
	}
	node->items[node->n] = child;
	if (node->type == JSONTREE_OBJECT) {
		node->keys[node->n] = key;
		node->key_lens[node->n] = key_len;
	}
	node->n++;
}

static struct jsonnode *
parse_array(struct jsontree_parser *ps)
{
	struct jsonnode *node = node_new(JSONTREE_ARRAY);
	size_t cap = 0;

	ps->p++;
	skip_ws(ps);
	if (ps->p < ps->end && *ps->p == ']') {
		ps->p++;
		return node;
	}
	for (;;) {
		struct jsonnode *child = parse_value(ps);

		if (child == NULL)
			goto fail;
		add_child(node, &cap, child, NULL, 0);
		skip_ws(ps);
		if (ps->p < ps->end && *ps->p == ',') {
			ps->p++;
			skip_ws(ps);
			continue;
		}
		if (ps->p < ps->end && *ps->p == ']') {
			ps->p++;
			return node;
		}
		unexpected(ps, "',' or ']'");
		goto fail;
	}
fail:
	jsontree_free(node);
	return NULL;
}

static struct jsonnode *
parse_object(struct jsontree_parser *ps)
{
	struct jsonnode *node = node_new(JSONTREE_OBJECT);
	size_t cap = 0;

	ps->p++;
	skip_ws(ps);
	if (ps->p < ps->end && *ps->p == '}') {
		ps->p++;
		return node;
	}
	for (;;) {
		struct strbuf key = STRBUF_INIT;
		const char *key_at = ps->p;
		struct jsonnode *child;
		size_t key_len, i;

		if (ps->p >= ps->end || *ps->p != '"') {
			unexpected(ps, "a string key");
			goto fail;
		}
		if (!parse_string_into(ps, &key)) {
			strbuf_free(&key);
			goto fail;
		}
		for (i = 0; i < node->n; i++) {
			if (node->key_lens[i] == key.len &&
			    memcmp(node->keys[i], strbuf_cstr(&key),
			    key.len) == 0) {
				ps->p = key_at;
				parser_error(ps, "duplicate key \"%s\"",
				    strbuf_cstr(&key));
				strbuf_free(&key);
				goto fail;
			}
		}
		skip_ws(ps);
		if (ps->p >= ps->end || *ps->p != ':') {
			strbuf_free(&key);
			unexpected(ps, "':'");
			goto fail;
		}
		ps->p++;
		skip_ws(ps);
		child = parse_value(ps);
		if (child == NULL) {
			strbuf_free(&key);
			goto fail;
		}
		key_len = key.len;
		add_child(node, &cap, child, strbuf_detach(&key), key_len);
		skip_ws(ps);
		if (ps->p < ps->end && *ps->p == ',') {
			ps->p++;
			skip_ws(ps);
			continue;
		}
		if (ps->p < ps->end && *ps->p == '}') {
			ps->p++;
			return node;
		}
		unexpected(ps, "',' or '}'");
		goto fail;
	}
fail:
	jsontree_free(node);
	return NULL;
}

/* parse_value: a value at ps->p (whitespace before it already skipped). */
static struct jsonnode *
parse_value(struct jsontree_parser *ps)
{
	struct jsonnode *node;

	if (ps->p >= ps->end) {
		unexpected(ps, "a value");
		return NULL;
	}
	switch (*ps->p) {
	case '{':
	case '[':
		if (ps->depth >= JSONTREE_MAX_DEPTH) {
			parser_error(ps, "nesting deeper than %d",
			    JSONTREE_MAX_DEPTH);
			return NULL;
		}
		ps->depth++;
		node = *ps->p == '{' ? parse_object(ps) : parse_array(ps);
		ps->depth--;
		return node;
	case '"': {
		struct strbuf sb = STRBUF_INIT;

		if (!parse_string_into(ps, &sb)) {
			strbuf_free(&sb);
			return NULL;
		}
		node = node_new(JSONTREE_STRING);
		node->len = sb.len;
		node->text = strbuf_detach(&sb);
		return node;
	}
	case '-':
	case '0': case '1': case '2': case '3': case '4':
	case '5': case '6': case '7': case '8': case '9':
		return parse_number(ps);
	default:
		return parse_literal(ps);
	}
}

struct jsonnode *
jsontree_parse(const char *text, size_t n, char **err)
{
	struct jsontree_parser ps;
	struct jsonnode *root;

	ps.start = text;
	ps.p = text;
	ps.end = text + n;
	ps.line = 1;
	ps.line_start = text;
	ps.depth = 0;
	ps.err = NULL;

	skip_ws(&ps);
	root = parse_value(&ps);
	if (root != NULL) {
		skip_ws(&ps);
		if (ps.p < ps.end) {
			unexpected(&ps, "end of input");
			jsontree_free(root);
			root = NULL;
		}
	}
	if (root == NULL && ps.err == NULL)
		parser_error(&ps, "invalid JSON");
	if (err != NULL)
		*err = ps.err;
	else
		free(ps.err);
	return root;
}

void
jsontree_free(struct jsonnode *node)
{
	size_t i;

	if (node == NULL)
		return;
	for (i = 0; i < node->n; i++) {
		jsontree_free(node->items[i]);
		if (node->keys != NULL)
			free(node->keys[i]);
	}
	free(node->items);
	free(node->keys);
	free(node->key_lens);
	free(node->text);
	free(node);
}

/*
 * Lookups.
 */

const char *
jsontree_type_name(enum jsontree_type type)
{
	switch (type) {
	case JSONTREE_NULL:
		return "null";
	case JSONTREE_BOOL:
		return "boolean";
	case JSONTREE_NUMBER:
		return "number";
	case JSONTREE_STRING:
		return "string";
	case JSONTREE_ARRAY:
		return "array";
	case JSONTREE_OBJECT:
		return "object";
	}
	return "?";
}

/* find_key: index of the member whose key is the len bytes at key. */
static bool
find_key(const struct jsonnode *obj, const char *key, size_t len, size_t *idx)
{
	size_t i;

	for (i = 0; i < obj->n; i++) {
		if (obj->key_lens[i] == len &&
		    memcmp(obj->keys[i], key, len) == 0) {
			*idx = i;
			return true;
		}
	}
	return false;
}

const struct jsonnode *
jsontree_get(const struct jsonnode *obj, const char *key)
{
	size_t i;

	if (obj == NULL || obj->type != JSONTREE_OBJECT ||
	    !find_key(obj, key, strlen(key), &i))
		return NULL;
	return obj->items[i];
}

const struct jsonnode *
jsontree_at(const struct jsonnode *arr, size_t i)
{
	if (arr == NULL || arr->type != JSONTREE_ARRAY || i >= arr->n)
		return NULL;
	return arr->items[i];
}

const struct jsonnode *
jsontree_pointer(const struct jsonnode *root, const char *pointer)
{
	const struct jsonnode *node = root;
	const char *p = pointer;

	while (node != NULL && *p != '\0') {
		struct strbuf token = STRBUF_INIT;
		size_t i;

		if (*p != '/')
			return NULL;
		p++;
		for (; *p != '\0' && *p != '/'; p++) {
			if (*p == '~' && p[1] == '0') {
				strbuf_addc(&token, '~');
				p++;
			} else if (*p == '~' && p[1] == '1') {
				strbuf_addc(&token, '/');
				p++;
			} else {
				strbuf_addc(&token, *p);
			}
		}
		if (node->type == JSONTREE_OBJECT) {
			node = find_key(node, strbuf_cstr(&token), token.len,
			    &i) ? node->items[i] : NULL;
		} else if (node->type == JSONTREE_ARRAY) {
			const char *s = strbuf_cstr(&token);
			char *end;
			unsigned long long k;

			errno = 0;
			k = strtoull(s, &end, 10);
			if (token.len == 0 || *end != '\0' || errno != 0 ||
			    s[0] < '0' || s[0] > '9' ||
			    (s[0] == '0' && token.len > 1))
				node = NULL;
			else
				node = jsontree_at(node, (size_t)k);
		} else {
			node = NULL;
		}
		strbuf_free(&token);
	}
	return node;
}

const char *
jsontree_str(const struct jsonnode *node)
{
	if (node == NULL || node->type != JSONTREE_STRING)
		return NULL;
	return node->text;
}

bool
jsontree_int64(const struct jsonnode *node, int64_t *v)
{
	long long k;
	char *end;

	if (node == NULL || node->type != JSONTREE_NUMBER ||
	    strpbrk(node->text, ".eE") != NULL)
		return false;
	errno = 0;
	k = strtoll(node->text, &end, 10);
	if (errno != 0 || *end != '\0')
		return false;
	*v = (int64_t)k;
	return true;
}

/*
 * Writing.
 */

static void
write_string(const char *s, size_t len, struct strbuf *out)
{
	size_t i;

	strbuf_addc(out, '"');
	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		switch (c) {
		case '"':
			strbuf_adds(out, "\\\"");
			break;
		case '\\':
			strbuf_adds(out, "\\\\");
			break;
		case '\n':
			strbuf_adds(out, "\\n");
			break;
		case '\r':
			strbuf_adds(out, "\\r");
			break;
		case '\t':
			strbuf_adds(out, "\\t");
			break;
		case '\b':
			strbuf_adds(out, "\\b");
			break;
		case '\f':
			strbuf_adds(out, "\\f");
			break;
		default:
			if (c < 0x20)
				strbuf_addf(out, "\\u%04x", c);
			else
				strbuf_addc(out, (char)c);
		}
	}
	strbuf_addc(out, '"');
}

void
jsontree_write(const struct jsonnode *node, struct strbuf *out)
{
	size_t i;

	switch (node->type) {
	case JSONTREE_NULL:
		strbuf_adds(out, "null");
		break;
	case JSONTREE_BOOL:
		strbuf_adds(out, node->boolean ? "true" : "false");
		break;
	case JSONTREE_NUMBER:
		strbuf_add(out, node->text, node->len);
		break;
	case JSONTREE_STRING:
		write_string(node->text, node->len, out);
		break;
	case JSONTREE_ARRAY:
		strbuf_addc(out, '[');
		for (i = 0; i < node->n; i++) {
			if (i > 0)
				strbuf_addc(out, ',');
			jsontree_write(node->items[i], out);
		}
		strbuf_addc(out, ']');
		break;
	case JSONTREE_OBJECT:
		strbuf_addc(out, '{');
		for (i = 0; i < node->n; i++) {
			if (i > 0)
				strbuf_addc(out, ',');
			write_string(node->keys[i], node->key_lens[i], out);
			strbuf_addc(out, ':');
			jsontree_write(node->items[i], out);
		}
		strbuf_addc(out, '}');
		break;
	}
}

/*
 * Comparison.
 */

/*
 * struct decimal: a number's exact value, sign × digits × 10^exp, with no
 * leading or trailing zeros in digits; zero has no digits.
 */
struct decimal {
	bool neg;
	struct strbuf digits;
	long long exp;
};

/* The exponent is clamped far beyond anything a double can hold. */
#define DECIMAL_EXP_LIMIT 1000000000000LL

/* decimal_parse: text is a number the parser accepted. */
static void
decimal_parse(const char *text, struct decimal *d)
{
	const char *p = text;
	long long frac_digits = 0, e = 0;
	bool eneg = false;

	strbuf_init(&d->digits);
	d->neg = *p == '-';
	if (d->neg)
		p++;
	for (; *p >= '0' && *p <= '9'; p++)
		if (d->digits.len > 0 || *p != '0')
			strbuf_addc(&d->digits, *p);
	if (*p == '.') {
		for (p++; *p >= '0' && *p <= '9'; p++) {
			if (d->digits.len > 0 || *p != '0')
				strbuf_addc(&d->digits, *p);
			frac_digits++;
		}
	}
	if (*p == 'e' || *p == 'E') {
		p++;
		if (*p == '+' || *p == '-')
			eneg = *p++ == '-';
		for (; *p >= '0' && *p <= '9'; p++)
			if (e < DECIMAL_EXP_LIMIT)
				e = 10 * e + (*p - '0');
	}
	d->exp = (eneg ? -e : e) - frac_digits;
	while (d->digits.len > 0 && d->digits.buf[d->digits.len - 1] == '0') {
		d->digits.len--;
		d->digits.buf[d->digits.len] = '\0';
		d->exp++;
	}
	if (d->digits.len == 0) {
		d->neg = false;
		d->exp = 0;
	}
}

static bool
numbers_equal(const struct jsonnode *a, const struct jsonnode *b)
{
	struct decimal da, db;
	bool equal;

	decimal_parse(a->text, &da);
	decimal_parse(b->text, &db);
	if (da.exp >= 0 && db.exp >= 0)
		equal = da.neg == db.neg && da.exp == db.exp &&
		    da.digits.len == db.digits.len &&
		    memcmp(strbuf_cstr(&da.digits), strbuf_cstr(&db.digits),
		    da.digits.len) == 0;
	else
		equal = a->number == b->number;
	strbuf_free(&da.digits);
	strbuf_free(&db.digits);
	return equal;
}

struct diff_ctx {
	struct strbuf *report;
	int max_report;
	int count;
	int reported;
	struct strbuf path;
};

#define DIFF_VALUE_MAX 80

/* add_value: node as compact JSON, cut to about DIFF_VALUE_MAX bytes. */
static void
add_value(struct strbuf *out, const struct jsonnode *node)
{
	struct strbuf sb = STRBUF_INIT;

	if (node == NULL) {
		strbuf_adds(out, "(missing)");
		return;
	}
	jsontree_write(node, &sb);
	if (sb.len > DIFF_VALUE_MAX) {
		size_t k = DIFF_VALUE_MAX;

		/* Do not cut a UTF-8 sequence. */
		while (k > 0 && ((unsigned char)sb.buf[k] & 0xc0) == 0x80)
			k--;
		strbuf_add(out, sb.buf, k);
		strbuf_adds(out, "...");
	} else {
		strbuf_add(out, sb.buf, sb.len);
	}
	strbuf_free(&sb);
}

/* diff_begin: count one difference; true when its line is to be written,
 * in which case "PATH: " has been appended. */
static bool
diff_begin(struct diff_ctx *c)
{
	c->count++;
	if (c->report == NULL ||
	    (c->max_report >= 0 && c->reported >= c->max_report))
		return false;
	c->reported++;
	strbuf_adds(c->report, c->path.len > 0 ? strbuf_cstr(&c->path) : "/");
	strbuf_adds(c->report, ": ");
	return true;
}

static void
diff_values(struct diff_ctx *c, const struct jsonnode *e,
    const struct jsonnode *a)
{
	if (!diff_begin(c))
		return;
	strbuf_adds(c->report, "expected ");
	add_value(c->report, e);
	strbuf_adds(c->report, ", got ");
	add_value(c->report, a);
	strbuf_addc(c->report, '\n');
}

static void
path_push_key(struct strbuf *path, const char *key, size_t len)
{
	size_t i;

	strbuf_addc(path, '/');
	for (i = 0; i < len; i++) {
		if (key[i] == '~')
			strbuf_adds(path, "~0");
		else if (key[i] == '/')
			strbuf_adds(path, "~1");
		else
			strbuf_addc(path, key[i]);
	}
}

static void
path_pop(struct strbuf *path, size_t len)
{
	path->len = len;
	if (path->buf != NULL)
		path->buf[len] = '\0';
}

static void
diff_node(struct diff_ctx *c, const struct jsonnode *e,
    const struct jsonnode *a)
{
	size_t mark = c->path.len, i, j;

	if (e->type != a->type) {
		diff_values(c, e, a);
		return;
	}
	switch (e->type) {
	case JSONTREE_NULL:
		break;
	case JSONTREE_BOOL:
		if (e->boolean != a->boolean)
			diff_values(c, e, a);
		break;
	case JSONTREE_NUMBER:
		if (!numbers_equal(e, a))
			diff_values(c, e, a);
		break;
	case JSONTREE_STRING:
		if (e->len != a->len || memcmp(e->text, a->text, e->len) != 0)
			diff_values(c, e, a);
		break;
	case JSONTREE_ARRAY:
		if (e->n != a->n && diff_begin(c))
			strbuf_addf(c->report,
			    "expected %zu elements, got %zu elements\n",
			    e->n, a->n);
		for (i = 0; i < e->n && i < a->n; i++) {
			strbuf_addf(&c->path, "/%zu", i);
			diff_node(c, e->items[i], a->items[i]);
			path_pop(&c->path, mark);
		}
		break;
	case JSONTREE_OBJECT:
		for (i = 0; i < e->n; i++) {
			path_push_key(&c->path, e->keys[i], e->key_lens[i]);
			if (find_key(a, e->keys[i], e->key_lens[i], &j))
				diff_node(c, e->items[i], a->items[j]);
			else
				diff_values(c, e->items[i], NULL);
			path_pop(&c->path, mark);
		}
		for (j = 0; j < a->n; j++) {
			if (find_key(e, a->keys[j], a->key_lens[j], &i))
				continue;
			path_push_key(&c->path, a->keys[j], a->key_lens[j]);
			diff_values(c, NULL, a->items[j]);
			path_pop(&c->path, mark);
		}
		break;
	}
}

int
jsontree_diff(const struct jsonnode *expected, const struct jsonnode *actual,
    struct strbuf *report, int max_report)
{
	struct diff_ctx c;

	c.report = report;
	c.max_report = max_report;
	c.count = 0;
	c.reported = 0;
	strbuf_init(&c.path);
	diff_node(&c, expected, actual);
	strbuf_free(&c.path);
	if (report != NULL && c.reported < c.count)
		strbuf_addf(report, "... and %d more differences\n",
		    c.count - c.reported);
	return c.count;
}
