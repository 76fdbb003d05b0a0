/*
 * policy.c - applying the user's decisions to diagnostics (see policy.h).
 */
#include "config.h"

#include <fnmatch.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

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

static bool
suppressed(const struct policy *p, const struct diag *d, const char *rel,
    const char *path)
{
	size_t i;

	for (i = 0; i < p->n_sup; i++) {
		const struct suppression *s = &p->sup[i];

		if (!diag_item_matches(s->item, d->rule))
			continue;
		if (s->files != NULL && !glob_matches(s->files, rel, path))
			continue;
		if (s->tensor != NULL && !subject_is(d, SUBJECT_TENSOR,
		    s->tensor))
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
