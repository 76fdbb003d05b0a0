/*
 * check-security.c - S family: what in a file's metadata is a hazard for
 * the programs that read it, whatever llama.cpp does with it.
 *
 *  - Chat templates (tokenizer.chat_template and tokenizer.chat_template.
 *    NAME) are scanned, without rendering, for the constructs of Jinja
 *    sandbox escapes (CVE-2024-34359 and its kin): dunder attribute walks,
 *    the attr filter, underscores built from strings, Python modules and
 *    callables, template loading.
 *  - Keys, string values and tensor names are scanned for control
 *    characters (ANSI escapes among them), bidirectional overrides and
 *    invisible characters, and invalid UTF-8. The vocabulary arrays are
 *    not: their tokens are data, and real vocabularies hold such tokens.
 *  - Arrays of absurd length where a handful of elements is expected, and
 *    absurdly long strings.
 */
#define PCRE2_CODE_UNIT_WIDTH 8

#include <assert.h>
#include <inttypes.h>
#include <pcre2.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checks/checks.h"
#include "base/enc.h"

/* ---- chat templates ---------------------------------------------------- */

/* The constructs S001 looks for inside {{ }} and {% %} tags. */
static const struct {
	const char *pattern;
	const char *what;
} sandbox_escapes[] = {
	{ "__[A-Za-z]\\w*__",
	  "a dunder attribute, the classic walk out of the Jinja sandbox" },
	{ "\\.\\s*_\\w",
	  "an underscore attribute (interpreter internals)" },
	{ "\\|\\s*attr\\s*\\(",
	  "the attr filter (attributes by computed name)" },
	{ "\\[\\s*['\"]_",
	  "a subscript by an underscore name (interpreter internals)" },
	{ "['\"]_+['\"]\\s*[*~+]|[*~+]\\s*['\"]_+['\"]",
	  "underscores built from strings (a hidden dunder)" },
	{ "\\b(?:lipsum|cycler|joiner|namespace|range|dict|url_for)\\s*\\.",
	  "an attribute of a Jinja global (a path to __globals__)" },
	{ "\\b(?:os|subprocess|importlib|builtins|posix)\\s*\\.\\s*"
	  "[A-Za-z_]",
	  "a Python module" },
	{ "\\b(?:popen|eval|exec|execfile|import_module|getattr|setattr|"
	  "globals|locals|spawn\\w*)\\s*\\(",
	  "a Python callable that runs code or reaches objects" },
	{ "^[-+]?\\s*\\K(?:include|import|extends|from)\\b",
	  "template loading (reads other files)" },
};

#define N_ESCAPES (sizeof sandbox_escapes / sizeof sandbox_escapes[0])
#define TEMPLATE_FINDINGS 3	/* quoted per template */

/*
 * The compiled patterns, once per process (fixed text: failure is a bug),
 * until check_security_cleanup(). The lock makes the first use safe from
 * several threads; matching with a compiled pattern needs no lock.
 */
static pcre2_code *escape_re[N_ESCAPES];
static bool escape_compiled;
static pthread_mutex_t escape_lock = PTHREAD_MUTEX_INITIALIZER;

static pcre2_code **
escape_patterns(void)
{
	PCRE2_SIZE off;
	size_t i;
	int code;

	pthread_mutex_lock(&escape_lock);
	for (i = 0; !escape_compiled && i < N_ESCAPES; i++) {
		escape_re[i] = pcre2_compile(
		    (PCRE2_SPTR)sandbox_escapes[i].pattern,
		    PCRE2_ZERO_TERMINATED, 0, &code, &off, NULL);
		assert(escape_re[i] != NULL);
		if (escape_re[i] == NULL)
			abort();
	}
	escape_compiled = true;
	pthread_mutex_unlock(&escape_lock);
	return escape_re;
}

void
check_security_cleanup(void)
{
	size_t i;

	pthread_mutex_lock(&escape_lock);
	for (i = 0; i < N_ESCAPES; i++) {
		pcre2_code_free(escape_re[i]);
		escape_re[i] = NULL;
	}
	escape_compiled = false;
	pthread_mutex_unlock(&escape_lock);
}

struct tpl_scan {
	const char *text;
	size_t len;
	pcre2_match_data *md;
	bool seen[N_ESCAPES];
	size_t n;
	struct strbuf msg;
	size_t first, first_n;	/* the first construct, in text */
};

static size_t
line_of(const char *text, size_t pos)
{
	size_t line = 1, i;

	for (i = 0; i < pos; i++)
		line += text[i] == '\n';
	return line;
}

/* Look for every construct in one tag's body [a, b). */
static void
scan_tag(struct tpl_scan *s, size_t a, size_t b)
{
	pcre2_code **re = escape_patterns();
	PCRE2_SIZE *ov = pcre2_get_ovector_pointer(s->md);
	size_t i, n;

	for (i = 0; i < N_ESCAPES; i++) {
		if (s->seen[i] || pcre2_match(re[i], (PCRE2_SPTR)s->text + a,
		    b - a, 0, 0, s->md, NULL) < 0)
			continue;
		s->seen[i] = true;
		if (s->n++ >= TEMPLATE_FINDINGS)
			continue;
		n = ov[1] - ov[0];
		if (s->n == 1) {
			s->first = a + ov[0];
			s->first_n = n > 40 ? 40 : n;
		}
		strbuf_addf(&s->msg, "%sline %zu: '", s->n > 1 ? "; " : "",
		    line_of(s->text, a + ov[0]));
		strbuf_add(&s->msg, s->text + a + ov[0], n > 40 ? 40 : n);
		strbuf_addf(&s->msg, "%s' (%s)", n > 40 ? "..." : "",
		    sandbox_escapes[i].what);
	}
}

/* Walk the {{ }} and {% %} tags of a template (comments skipped). */
static void
scan_template(struct tpl_scan *s)
{
	size_t i = 0, body, end;
	const char *close;

	while (i + 1 < s->len) {
		if (s->text[i] != '{' || (s->text[i + 1] != '{' &&
		    s->text[i + 1] != '%' && s->text[i + 1] != '#')) {
			i++;
			continue;
		}
		close = s->text[i + 1] == '{' ? "}}" : s->text[i + 1] == '%' ?
		    "%}" : "#}";
		body = i + 2;
		for (end = body; end + 1 < s->len; end++)
			if (s->text[end] == close[0] &&
			    s->text[end + 1] == close[1])
				break;
		if (end + 1 >= s->len)
			end = s->len;
		if (close[0] != '#')
			scan_tag(s, body, end);
		i = end + 2;
	}
}

static bool
is_template_key(struct gguf_str k)
{
	static const char base[] = "tokenizer.chat_template";
	size_t n = sizeof base - 1;

	return k.n >= n && memcmp(k.p, base, n) == 0 &&
	    (k.n == n || (k.n > n + 1 && k.p[n] == '.'));
}

static void
check_template(const struct gguf_kv *kv, struct diag_list *dl)
{
	struct tpl_scan s;

	memset(&s, 0, sizeof s);
	s.text = kv->val.v.s.p;
	s.len = (size_t)kv->val.v.s.n;
	s.md = xnonnull(pcre2_match_data_create(1, NULL));
	scan_template(&s);
	if (s.n > 0)
		diag_note(diag_add(dl, "S001", kv->offset, SUBJECT_KEY,
		    kv->key.p, kv->key.n, "chat template uses %zu construct%s "
		    "of Jinja sandbox escapes (the first: '%.*s', line %zu)",
		    s.n, s.n == 1 ? "" : "s", (int)s.first_n, s.text + s.first,
		    line_of(s.text, s.first)), "%s%s; a tool that renders it "
		    "without a sandbox runs code (CVE-2024-34359)",
		    strbuf_cstr(&s.msg), s.n > TEMPLATE_FINDINGS ? "; ..." :
		    "");
	strbuf_free(&s.msg);
	pcre2_match_data_free(s.md);
}

/* ---- characters -------------------------------------------------------- */

enum text_kind {
	TEXT_NAME = 0,		/* a key or tensor name: no control at all */
	TEXT_VALUE,		/* a string value: tab, LF, CR allowed */
	TEXT_TEMPLATE		/* a chat template: invisibles flagged too */
};

/* The first finding of each class in one string (or array element). */
struct text_scan {
	bool ctl, bidi, bad;
	bool ansi;
	uint32_t ctl_cp, bidi_cp;
	size_t ctl_at, bidi_at, bad_at;
	uint64_t ctl_elem, bidi_elem, bad_elem;
};

static bool
is_control(uint32_t cp, enum text_kind k)
{
	if (k != TEXT_NAME && (cp == '\t' || cp == '\n' || cp == '\r'))
		return false;
	return cp < 0x20 || (cp >= 0x7f && cp <= 0x9f);
}

static bool
is_hidden(uint32_t cp, enum text_kind k, size_t at)
{
	if ((cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 &&
	    cp <= 0x2069) || (cp >= 0xe0000 && cp <= 0xe007f))
		return true;
	return k == TEXT_TEMPLATE && ((cp >= 0x200b && cp <= 0x200d) ||
	    cp == 0x2060 || (cp == 0xfeff && at > 0));
}

/* Add the findings of string [p, p + n), element elem, to r. */
static void
scan_text(const uint8_t *p, size_t n, enum text_kind k, uint64_t elem,
    struct text_scan *r)
{
	size_t i = 0, len;
	uint32_t cp;

	while (i < n) {
		len = enc_utf8_next(p + i, n - i, &cp);
		if (cp == 0xfffd && !(len == 3 && p[i] == 0xef)) {
			if (!r->bad) {
				r->bad = true;
				r->bad_at = i;
				r->bad_elem = elem;
			}
		} else if (!r->ctl && is_control(cp, k)) {
			r->ctl = true;
			r->ctl_cp = cp;
			r->ctl_at = i;
			r->ctl_elem = elem;
			r->ansi = cp == 0x1b && i + 1 < n &&
			    (p[i + 1] == '[' || p[i + 1] == ']');
		} else if (!r->bidi && is_hidden(cp, k, i)) {
			r->bidi = true;
			r->bidi_cp = cp;
			r->bidi_at = i;
			r->bidi_elem = elem;
		}
		i += len;
	}
}

/* Where the findings are, for the messages. */
struct place {
	uint64_t offset;
	enum subject_kind kind;
	struct gguf_str subject;
	const char *what;		/* "the key", "the value", ... */
	bool array;			/* name the element */
};

static const char *
control_name(uint32_t cp, bool ansi)
{
	if (ansi)
		return "ESC: an ANSI escape sequence, which rewrites the "
		    "terminal that prints it";
	if (cp == 0x1b)
		return "ESC: a terminal escape";
	if (cp == 0)
		return "NUL: C tools see the string end there";
	if (cp == '\r')
		return "CR: hides what precedes it on a terminal";
	return "a control character in a string is never text: tools that "
	    "print or parse it disagree";
}

static const char *
hidden_name(uint32_t cp)
{
	if (cp >= 0xe0000)
		return "a Unicode tag character, invisible";
	if ((cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069))
		return "a bidirectional override";
	return "an invisible character";
}

/* " (element 3)" for an array, else "" (buf >= 32 bytes). */
static const char *
elem_name(const struct place *pl, uint64_t elem, char *buf, size_t size)
{
	if (!pl->array)
		return "";
	snprintf(buf, size, " (element %" PRIu64 ")", elem);
	return buf;
}

static void
report_text(const struct place *pl, const struct text_scan *r,
    struct diag_list *dl)
{
	char e[32];

	if (r->ctl)
		diag_note(diag_add(dl, "S002", pl->offset, pl->kind,
		    pl->subject.p, pl->subject.n, "%s%s holds control "
		    "character U+%04" PRIX32 " at byte %zu", pl->what,
		    elem_name(pl, r->ctl_elem, e, sizeof e), r->ctl_cp,
		    r->ctl_at), "%s", control_name(r->ctl_cp, r->ansi));
	if (r->bidi)
		diag_note(diag_add(dl, "S003", pl->offset, pl->kind,
		    pl->subject.p, pl->subject.n, "%s%s holds U+%04" PRIX32
		    " (%s) at byte %zu", pl->what, elem_name(pl, r->bidi_elem,
		    e, sizeof e), r->bidi_cp, hidden_name(r->bidi_cp),
		    r->bidi_at), "what a reader sees is not what a program "
		    "reads");
	if (r->bad)
		diag_note(diag_add(dl, "S004", pl->offset, pl->kind,
		    pl->subject.p, pl->subject.n, "%s%s is not valid UTF-8 "
		    "(from byte %zu)", pl->what, elem_name(pl, r->bad_elem, e,
		    sizeof e), r->bad_at), "GGUF strings are UTF-8, and "
		    "readers disagree on what this one says");
}

static void
scan_and_report(const struct place *pl, struct gguf_str s, enum text_kind k,
    struct diag_list *dl)
{
	struct text_scan r;

	memset(&r, 0, sizeof r);
	scan_text((const uint8_t *)s.p, (size_t)s.n, k, 0, &r);
	report_text(pl, &r, dl);
}

static bool
is_vocab_key(struct gguf_str k)
{
	return gguf_str_eq(k, "tokenizer.ggml.tokens") ||
	    gguf_str_eq(k, "tokenizer.ggml.merges");
}

/* Each element of a string array; the first finding of each class. */
static void
scan_array(const struct gguf_file *f, const struct gguf_kv *kv,
    struct place *pl, struct diag_list *dl)
{
	struct gguf_arr_iter it;
	struct text_scan r;
	struct gguf_str s;
	uint64_t i = 0;

	memset(&r, 0, sizeof r);
	pl->array = true;
	gguf_arr_iter_init(&it, f, kv);
	while (gguf_arr_next_str(&it, &s) && !(r.ctl && r.bidi && r.bad))
		scan_text((const uint8_t *)s.p, (size_t)s.n, TEXT_VALUE, i++,
		    &r);
	report_text(pl, &r, dl);
}

/* ---- sizes ------------------------------------------------------------- */

#define HANDFUL_MAX 65536		/* elements of an ordinary array */
#define VOCAB_MAX (1u << 22)		/* tokens, scores, types, merges */
#define CHARSMAP_MAX (1u << 26)		/* bytes of precompiled_charsmap */
#define STRING_MAX (1u << 20)		/* bytes of one string value */

static uint64_t
array_limit(struct gguf_str k)
{
	if (gguf_str_eq(k, "tokenizer.ggml.precompiled_charsmap"))
		return CHARSMAP_MAX;
	if (is_vocab_key(k) || gguf_str_eq(k, "tokenizer.ggml.scores") ||
	    gguf_str_eq(k, "tokenizer.ggml.token_type"))
		return VOCAB_MAX;
	return HANDFUL_MAX;
}

static void
check_size(const struct gguf_kv *kv, struct diag_list *dl)
{
	if (kv->type == GGUF_ARRAY && kv->count > array_limit(kv->key))
		diag_note(diag_add(dl, "S005", kv->offset, SUBJECT_KEY,
		    kv->key.p, kv->key.n, "an array of %" PRIu64 " elements "
		    "where at most %" PRIu64 " make sense", kv->count,
		    array_limit(kv->key)), "readers that load metadata eagerly "
		    "allocate it all");
	else if (kv->type == GGUF_STRING && kv->val.v.s.n > STRING_MAX)
		diag_note(diag_add(dl, "S005", kv->offset, SUBJECT_KEY,
		    kv->key.p, kv->key.n, "a string of %" PRIu64 " bytes where "
		    "at most %u make sense", kv->val.v.s.n, STRING_MAX),
		    "readers that load metadata eagerly allocate it all");
}

/* ---- the check --------------------------------------------------------- */

static void
check_kv(const struct gguf_file *f, const struct gguf_kv *kv,
    struct diag_list *dl)
{
	struct place pl = { kv->offset, SUBJECT_KEY, kv->key, "the key",
	    false };
	bool tpl = is_template_key(kv->key);

	scan_and_report(&pl, kv->key, TEXT_NAME, dl);
	pl.what = "the value";
	check_size(kv, dl);
	if (kv->type == GGUF_STRING) {
		scan_and_report(&pl, kv->val.v.s, tpl ? TEXT_TEMPLATE :
		    TEXT_VALUE, dl);
		if (tpl)
			check_template(kv, dl);
	} else if (kv->type == GGUF_ARRAY && kv->elem_type == GGUF_STRING &&
	    !is_vocab_key(kv->key)) {
		scan_array(f, kv, &pl, dl);
	}
}

void
check_security(const struct check_ctx *c, struct diag_list *dl)
{
	const struct gguf_file *f = c->file;
	size_t i;

	for (i = 0; i < f->kv_n; i++)
		check_kv(f, &f->kv[i], dl);
	for (i = 0; i < f->tensors_n; i++) {
		const struct gguf_tensor *t = &f->tensors[i];
		struct place pl = { t->offset_info, SUBJECT_TENSOR, t->name,
		    "the tensor name", false };

		scan_and_report(&pl, t->name, TEXT_NAME, dl);
	}
}
