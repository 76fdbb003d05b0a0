/*
 * diag.c - recording, capping, sorting and filtering diagnostics (diag.h).
 */
#include "config.h"

#include <assert.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/suggest.h"
#include "findings/diag.h"

void
diag_list_init(struct diag_list *dl, const struct catalog *cat)
{
	memset(dl, 0, sizeof *dl);
	dl->cat = cat;
	dl->per_rule = xcalloc(cat->n, sizeof *dl->per_rule);
	dl->dropped = xcalloc(cat->n, sizeof *dl->dropped);
	dl->last_offset = xcalloc(cat->n, sizeof *dl->last_offset);
}

void
diag_release(struct diag *d)
{
	size_t i;

	free(d->subject);
	free(d->message);
	free(d->note);
	free(d->fix);
	for (i = 0; i < d->n_items; i++)
		free(d->items[i]);
	free(d->items);
}

void
diag_list_free(struct diag_list *dl)
{
	size_t i;

	for (i = 0; i < dl->n; i++)
		diag_release(&dl->v[i]);
	free(dl->v);
	free(dl->per_rule);
	free(dl->dropped);
	free(dl->last_offset);
	memset(dl, 0, sizeof *dl);
}

/*
 * Append a diagnostic. The subject is copied before the list changes: it
 * may point into a mapping that faults (the guard then abandons the call),
 * and the list must never hold a counted entry with unset fields.
 */
static struct diag *
diag_push(struct diag_list *dl, const struct rule *r, uint64_t offset,
    enum subject_kind kind, const void *subj, size_t subj_len, char *msg)
{
	struct diag nd;

	memset(&nd, 0, sizeof nd);
	nd.subject = subj != NULL ? xstrndup(subj, subj_len) : NULL;
	nd.subject_len = subj != NULL ? subj_len : 0;
	nd.kind = subj != NULL ? kind : SUBJECT_NONE;
	nd.rule = r;
	nd.severity = r->severity;
	nd.offset = offset;
	nd.message = msg;
	if (dl->n == dl->cap) {
		dl->cap = dl->cap ? dl->cap * 2 : 16;
		dl->v = xreallocarray(dl->v, dl->cap, sizeof *dl->v);
	}
	nd.seq = dl->n;
	dl->v[dl->n] = nd;
	return &dl->v[dl->n++];
}

struct diag *
diag_add(struct diag_list *dl, const char *code, uint64_t offset,
    enum subject_kind kind, const void *subj, size_t subj_len,
    const char *fmt, ...)
{
	long idx = catalog_index(dl->cat, code);
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	assert(idx >= 0 && "diagnostic code missing from the catalogue");
	if (idx < 0)
		abort();
	if (dl->per_rule[idx] >= DIAG_RECORD_MAX) {
		dl->dropped[idx]++;
		dl->last_offset[idx] = offset;
		return NULL;
	}
	dl->per_rule[idx]++;
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	return diag_push(dl, &dl->cat->rules[idx], offset, kind, subj,
	    subj_len, strbuf_detach(&sb));
}

static void append_text(char **slot, const char *fmt, va_list ap)
    GL_VPRINTF(2);

/* Append to *slot (NULL or a string) the formatted text, after a space. */
static void
append_text(char **slot, const char *fmt, va_list ap)
{
	struct strbuf sb = STRBUF_INIT;

	if (*slot != NULL) {
		strbuf_adds(&sb, *slot);
		strbuf_addc(&sb, ' ');
		free(*slot);
	}
	strbuf_vaddf(&sb, fmt, ap);
	*slot = strbuf_detach(&sb);
}

struct diag *
diag_note(struct diag *d, const char *fmt, ...)
{
	va_list ap;

	if (d == NULL)
		return NULL;
	va_start(ap, fmt);
	append_text(&d->note, fmt, ap);
	va_end(ap);
	return d;
}

struct diag *
diag_fix(struct diag *d, const char *fmt, ...)
{
	va_list ap;

	if (d == NULL)
		return NULL;
	va_start(ap, fmt);
	append_text(&d->fix, fmt, ap);
	va_end(ap);
	return d;
}

void
diag_detail_text(const struct diag *d, struct strbuf *out)
{
	if (d->note != NULL) {
		strbuf_addc(out, '\n');
		strbuf_adds(out, d->note);
	}
	if (d->fix != NULL) {
		strbuf_adds(out, "\nfix: ");
		strbuf_adds(out, d->fix);
	}
}

static int
diag_cmp(const void *pa, const void *pb)
{
	const struct diag *a = pa, *b = pb;
	int c;

	if (a->offset != b->offset)
		return a->offset < b->offset ? -1 : 1;
	c = strcmp(a->rule->code, b->rule->code);
	if (c != 0)
		return c;
	/* Keep insertion order: the reader records in file order. */
	return a->seq < b->seq ? -1 : (a->seq > b->seq);
}

void
diag_attach_item(struct diag *d, const void *p, size_t n)
{
	char *item;

	if (d == NULL)
		return;
	item = xstrndup(p, n);	/* first: p may fault (diag_push) */
	/* The list is full when its length is a power of two (or 0): it
	 * doubles then, so that a list of a file's many tensors (N001) is
	 * not copied again for each one. */
	if ((d->n_items & (d->n_items - 1)) == 0)
		d->items = xreallocarray(d->items, d->n_items ?
		    d->n_items * 2 : 1, sizeof *d->items);
	d->items[d->n_items++] = item;
}

void
diag_finish(struct diag_list *dl)
{
	size_t i;

	for (i = 0; i < dl->cat->n; i++) {
		struct diag *d;

		if (dl->dropped[i] == 0)
			continue;
		d = diag_push(dl, &dl->cat->rules[i], dl->last_offset[i],
		    SUBJECT_NONE, NULL, 0, xasprintf("%zu more %s findings "
		    "not recorded (the first %d are)", dl->dropped[i],
		    dl->cat->rules[i].code, DIAG_RECORD_MAX));
		d->more = dl->dropped[i];
		dl->dropped[i] = 0;
	}
	/* qsort is not stable; diag_cmp falls back on seq, which is. */
	if (dl->n > 1)
		qsort(dl->v, dl->n, sizeof *dl->v, diag_cmp);
}

int
diag_item_matches(const char *item, const struct rule *r)
{
	if (item[0] != '\0' && item[1] == '\0')
		return (char)item[0] == r->family;
	return strcasecmp(item, r->code) == 0 || strcmp(item, r->slug) == 0;
}

const char *
diag_item_hint(const struct catalog *cat, const char *item, char *buf)
{
	struct suggest sg;
	size_t i;

	suggest_init(&sg, item);
	for (i = 0; i < cat->n; i++) {
		suggest_offer(&sg, cat->rules[i].code);
		suggest_offer(&sg, cat->rules[i].slug);
	}
	return suggest_hint(&sg, NULL, buf);
}

static int
item_known(const struct catalog *cat, const char *item)
{
	size_t i;

	for (i = 0; i < cat->n; i++)
		if (diag_item_matches(item, &cat->rules[i]))
			return 1;
	return 0;
}

int
diag_filter_add(struct diag_filter *f, const struct catalog *cat,
    const char *list, int is_ignore, struct gl_error *err)
{
	const char *p = list;

	while (*p != '\0') {
		size_t n = strcspn(p, ",");
		char *item = xstrndup(p, n);
		char **v;
		size_t *cnt;

		if (n > 0 && !item_known(cat, item)) {
			char hint[SUGGEST_HINT_SIZE];

			gl_error_setk(err, GL_ERR_USAGE, "%s: unknown rule, "
			    "slug or family '%s' (see --list-rules)%s",
			    is_ignore ? "--ignore" : "--select", item,
			    diag_item_hint(cat, item, hint));
			free(item);
			return -1;
		}
		if (n == 0) {
			free(item);
		} else {
			v = is_ignore ? f->ignore : f->select;
			cnt = is_ignore ? &f->n_ignore : &f->n_select;
			v = xreallocarray(v, *cnt + 1, sizeof *v);
			v[(*cnt)++] = item;
			if (is_ignore)
				f->ignore = v;
			else
				f->select = v;
		}
		p += n;
		if (*p == ',')
			p++;
	}
	return 0;
}

void
diag_filter_free(struct diag_filter *f)
{
	size_t i;

	for (i = 0; i < f->n_select; i++)
		free(f->select[i]);
	for (i = 0; i < f->n_ignore; i++)
		free(f->ignore[i]);
	free(f->select);
	free(f->ignore);
	memset(f, 0, sizeof *f);
}

int
diag_filter_keeps(const struct diag_filter *f, const struct rule *r)
{
	size_t i;
	int selected = f->n_select == 0;

	for (i = 0; !selected && i < f->n_select; i++)
		selected = diag_item_matches(f->select[i], r);
	if (!selected)
		return 0;
	for (i = 0; i < f->n_ignore; i++)
		if (diag_item_matches(f->ignore[i], r))
			return 0;
	return 1;
}

size_t
diag_count_at_least(const struct diag_list *dl, enum severity min)
{
	size_t i, n = 0;

	for (i = 0; i < dl->n; i++)
		if (dl->v[i].severity >= min)
			n++;
	return n;
}
