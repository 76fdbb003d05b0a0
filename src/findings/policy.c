/*
 * policy.c - applying the user's decisions to diagnostics (see policy.h).
 */
#include "config.h"

#include <fnmatch.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include "findings/policy.h"

void
policy_init(struct policy *p)
{
	memset(p, 0, sizeof *p);
	p->fail_on = SEV_ERROR;
	p->max_warnings = -1;
}

void
policy_free(struct policy *p)
{
	size_t i;

	diag_filter_free(&p->filter);
	for (i = 0; i < p->n_sev; i++)
		free(p->sev[i].item);
	for (i = 0; i < p->n_fi; i++) {
		free(p->fi[i].glob);
		diag_filter_free(&p->fi[i].rules);
	}
	for (i = 0; i < p->n_sup; i++) {
		free(p->sup[i].item);
		free(p->sup[i].tensor);
		free(p->sup[i].key);
		free(p->sup[i].files);
		free(p->sup[i].pattern_src);
		pcre2_code_free(p->sup[i].pattern);
	}
	free(p->sev);
	free(p->fi);
	free(p->sup);
	free(p->base);
	policy_init(p);
}

/*
 * The path a glob is matched against: relative to the policy's base
 * directory when the file lies below it, else as given.
 */
static char *
relative_path(const struct policy *p, const char *path)
{
	char abs[PATH_MAX];
	size_t n;

	if (p->base == NULL || realpath(path, abs) == NULL)
		return xstrdup(path);
	n = strlen(p->base);
	if (strncmp(abs, p->base, n) == 0 && abs[n] == '/')
		return xstrdup(abs + n + 1);
	return xstrdup(path);
}

/* A glob matches the relative path, the path as given, or the basename. */
static bool
glob_matches(const char *glob, const char *rel, const char *path)
{
	const char *base = strrchr(path, '/');

	return fnmatch(glob, rel, 0) == 0 || fnmatch(glob, path, 0) == 0 ||
	    fnmatch(glob, base ? base + 1 : path, 0) == 0;
}

static bool
subject_is(const struct diag *d, enum subject_kind kind, const char *name)
{
	return d->kind == kind && d->subject != NULL &&
	    d->subject_len == strlen(name) &&
	    memcmp(d->subject, name, d->subject_len) == 0;
}

/* Whether the tensor name (n bytes at name) is the one s names. */
static bool
names_tensor(const struct suppression *s, const char *name, size_t n,
    pcre2_match_data *md)
{
	if (s->tensor != NULL)
		return n == strlen(s->tensor) && memcmp(name, s->tensor, n) ==
		    0;
	return pcre2_match(s->pattern, (PCRE2_SPTR)name, n, 0,
	    PCRE2_ANCHORED | PCRE2_ENDANCHORED, md, NULL) >= 0;
}

/*
 * drop_items: a finding about several tensors (d->items) loses those s
 * names. Returns true when none is left (the finding is silenced); when
 * some went, the subject becomes the first left and the message says
 * how many went.
 */
static bool
drop_items(const struct suppression *s, struct diag *d)
{
	pcre2_match_data *md = NULL;
	size_t i, j = 0, n = d->n_items;
	char *msg;

	if (s->pattern != NULL)
		md = xnonnull(pcre2_match_data_create_from_pattern(s->pattern,
		    NULL));
	for (i = 0; i < d->n_items; i++) {
		if (names_tensor(s, d->items[i], strlen(d->items[i]), md))
			free(d->items[i]);
		else
			d->items[j++] = d->items[i];
	}
	pcre2_match_data_free(md);
	d->n_items = j;
	if (j == 0 || j == n)
		return j == 0;
	free(d->subject);
	d->subject = xstrdup(d->items[0]);
	d->subject_len = strlen(d->items[0]);
	d->kind = SUBJECT_TENSOR;
	msg = xasprintf("%s (%zu of them suppressed by the configuration)",
	    d->message, n - j);
	free(d->message);
	d->message = msg;
	return false;
}

/* Whether s, a tensor suppression, silences d (or, for a finding about
 * several tensors, what it leaves of it). */
static bool
tensor_suppressed(const struct suppression *s, struct diag *d)
{
	pcre2_match_data *md;
	bool hit;

	if (d->n_items > 0)
		return drop_items(s, d);
	if (d->kind != SUBJECT_TENSOR || d->subject == NULL)
		return false;
	if (s->pattern == NULL)
		return names_tensor(s, d->subject, d->subject_len, NULL);
	md = xnonnull(pcre2_match_data_create_from_pattern(s->pattern, NULL));
	hit = names_tensor(s, d->subject, d->subject_len, md);
	pcre2_match_data_free(md);
	return hit;
}

static bool
suppressed(const struct policy *p, struct diag *d, const char *rel,
    const char *path)
{
	size_t i;

	for (i = 0; i < p->n_sup; i++) {
		const struct suppression *s = &p->sup[i];

		if (!diag_item_matches(s->item, d->rule))
			continue;
		if (s->files != NULL && !glob_matches(s->files, rel, path))
			continue;
		if ((s->tensor != NULL || s->pattern != NULL) &&
		    !tensor_suppressed(s, d))
			continue;
		if (s->key != NULL && !subject_is(d, SUBJECT_KEY, s->key))
			continue;
		return true;
	}
	for (i = 0; i < p->n_fi; i++)
		if (glob_matches(p->fi[i].glob, rel, path) &&
		    !diag_filter_keeps(&p->fi[i].rules, d->rule))
			return true;
	return !diag_filter_keeps(&p->filter, d->rule);
}

void
policy_apply(const struct policy *p, const char *path, struct diag_list *dl,
    size_t *warnings)
{
	char *rel = relative_path(p, path);
	size_t i, j = 0, n;

	for (i = 0; i < dl->n; i++) {
		struct diag *d = &dl->v[i];

		for (n = 0; n < p->n_sev; n++)
			if (diag_item_matches(p->sev[n].item, d->rule))
				d->severity = p->sev[n].severity;
		if (suppressed(p, d, rel, path)) {
			diag_release(d);
			continue;
		}
		dl->v[j++] = *d;
	}
	dl->n = j;
	free(rel);
	*warnings = 0;
	for (i = 0; i < dl->n; i++)
		*warnings += dl->v[i].severity == SEV_WARNING;
	if (!p->quiet)
		return;
	for (i = j = 0; i < dl->n; i++) {
		if (dl->v[i].severity >= p->fail_on) {
			dl->v[j++] = dl->v[i];
		} else {
			diag_release(&dl->v[i]);
		}
	}
	dl->n = j;
}

bool
policy_fails(const struct policy *p, const struct diag_list *dl)
{
	size_t i;

	for (i = 0; i < dl->n; i++)
		if (dl->v[i].severity >= p->fail_on && !dl->v[i].baselined)
			return true;
	return false;
}
