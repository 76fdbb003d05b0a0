/*
 * diag.h - diagnostics: the findings of one lint run. A diagnostic is data
 * (a rule, a severity, a byte offset, a subject and a message), never
 * printed by the stage that finds it; the reporters print them.
 *
 * The message is the essence: short (one line of a report, within about
 * 120 characters), with the numbers. Why it matters for this file goes in
 * a note and what to do about it in a fix (diag_note, diag_fix): the text
 * report shows them on indented lines below (--show-fixes), JSON as
 * fields of their own, SARIF and GitHub joined to the message.
 *
 * Each rule keeps at most DIAG_RECORD_MAX diagnostics per file; the rest
 * are counted and summarised by diag_finish(), so a hostile file with a
 * million bad records cannot make the output or memory explode. The text
 * report shows DIAG_MAX_PER_RULE of them by default (--max-per-rule);
 * JSON and SARIF show every one recorded.
 */
#ifndef GGUFLINT_DIAG_H
#define GGUFLINT_DIAG_H

#include <stdbool.h>
#include <stdint.h>

#include "base/util.h"
#include "findings/catalog.h"

#define DIAG_MAX_PER_RULE 50	/* text, by default (--max-per-rule) */
#define DIAG_RECORD_MAX 10000	/* recorded, per rule and file */

enum subject_kind {
	SUBJECT_NONE = 0,
	SUBJECT_KEY,
	SUBJECT_TENSOR
};

struct diag {
	const struct rule *rule;
	enum severity severity;
	uint64_t offset;		/* byte offset in the file */
	enum subject_kind kind;
	char *subject;			/* raw bytes from the file (may
					 * hold NUL), or NULL */
	size_t subject_len;
	char *message;			/* the essence, one short line;
					 * raw: reporters escape it */
	char *note;			/* why it matters, or NULL */
	char *fix;			/* what to do, or NULL (the
					 * catalogue's fix then applies) */
	char **items;			/* the full list a message abridges */
	size_t n_items;
	size_t seq;			/* insertion order, for a stable sort */
	bool baselined;			/* the baseline holds it: it does
					 * not fail the run (baseline.h) */
	size_t more;			/* diag_finish's summary of the
					 * findings past DIAG_RECORD_MAX:
					 * how many it stands for; else 0 */
};

struct diag_list {
	const struct catalog *cat;
	struct diag *v;
	size_t n, cap;
	size_t *per_rule;		/* kept per rule index */
	size_t *dropped;		/* beyond the cap, per rule index */
	uint64_t *last_offset;		/* of the last dropped one */
};

/*
 * diag_list_init: an empty list for findings of cat's rules (cat not NULL;
 * borrowed: it must outlive dl and not change meanwhile, as dl counts per
 * rule index and its diagnostics point at cat's rules). Free it with
 * diag_list_free().
 */
void diag_list_init(struct diag_list *dl, const struct catalog *cat);
/* diag_release: free what one diagnostic owns, not d itself. */
void diag_release(struct diag *d);
/* diag_list_free: free every diagnostic and the counts; dl is zeroed. */
void diag_list_free(struct diag_list *dl);

/*
 * diag_add: record a finding of rule CODE at offset, about subject
 * (subj_len bytes, copied; NULL for none, and then kind is SUBJECT_NONE).
 * The message is printf-formatted into a copy. CODE must be in the
 * catalogue: anything else is a bug, and aborts. Returns the diagnostic
 * (owned by dl; valid until the next diag_add or diag_finish), or NULL
 * when the rule's cap dropped it (it is then only counted).
 */
struct diag *diag_add(struct diag_list *dl, const char *code, uint64_t offset,
    enum subject_kind kind, const void *subj, size_t subj_len,
    const char *fmt, ...) GL_PRINTF(7, 8);

/*
 * diag_note, diag_fix: set d's note (why the finding matters here) or its
 * fix (what to do about it, when the finding knows better than the
 * catalogue's generic fix), printf-formatted into a copy; a second call
 * appends, after a space. d may be NULL (a capped diag_add): nothing
 * happens. Returns d, so that the calls nest around diag_add:
 *   diag_note(diag_add(dl, ...), "fmt", ...);
 */
struct diag *diag_note(struct diag *d, const char *fmt, ...) GL_PRINTF(2, 3);
struct diag *diag_fix(struct diag *d, const char *fmt, ...) GL_PRINTF(2, 3);

/*
 * diag_detail_text: append d's note and its fix, each after a newline (the
 * fix as "fix: ..."), raw (the caller escapes); nothing when d has
 * neither. After the message, it makes the whole finding for a format
 * with one message field (SARIF, GitHub).
 */
void diag_detail_text(const struct diag *d, struct strbuf *out);

/*
 * diag_attach_item: add a copy of one entry (n raw bytes at p) to d's list
 * (d may be NULL: nothing happens, as after a capped diag_add). For
 * findings whose message names only the first few of many subjects; JSON
 * shows them all.
 */
void diag_attach_item(struct diag *d, const void *p, size_t n);

/*
 * diag_finish: add one summary diagnostic per rule whose findings were
 * capped (once: the dropped counts are then reset), then sort by offset,
 * then code (stable for equal keys). Pointers into dl->v do not survive.
 */
void diag_finish(struct diag_list *dl);

/*
 * struct diag_filter: --select / --ignore as lists of rules and families.
 * A diagnostic is kept when it is selected (or nothing is selected) and not
 * ignored.
 */
struct diag_filter {
	char **select;
	size_t n_select;
	char **ignore;
	size_t n_ignore;
};

/*
 * diag_filter_add: add a comma-separated LIST of codes, slugs or family
 * letters to the select (is_ignore false) or ignore list (f starts zeroed;
 * empty items are skipped; f owns copies of the items). Returns 0, or -1
 * with err (GL_ERR_USAGE) naming the first item the catalogue does not
 * know; the items before it stay added.
 */
int diag_filter_add(struct diag_filter *f, const struct catalog *cat,
    const char *list, int is_ignore, struct gl_error *err);
/* diag_filter_free: free both lists; f is left zeroed (empty). */
void diag_filter_free(struct diag_filter *f);
/* diag_filter_keeps: 1 when f keeps findings of rule r, else 0. */
int diag_filter_keeps(const struct diag_filter *f, const struct rule *r);
/*
 * diag_item_hint: for an item no rule of cat matches, "; did you mean
 * 'X'?" naming the nearest code or slug (suggest.h), or "" when none is
 * near; written into buf (SUGGEST_HINT_SIZE bytes), which is returned.
 */
const char *diag_item_hint(const struct catalog *cat, const char *item,
    char *buf);
/* diag_item_matches: 1 when item (a family letter when one character,
 * else a code, any case, or a slug) names rule r, else 0. */
int diag_item_matches(const char *item, const struct rule *r);

/* diag_count_at_least: how many diagnostics have severity >= min. */
size_t diag_count_at_least(const struct diag_list *dl, enum severity min);

#endif
