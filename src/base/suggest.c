/*
 * suggest.c - the nearest known word to a mistyped one (see suggest.h).
 */
#include "config.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "base/suggest.h"

/* same: whether two characters are equal, ASCII letters without case. */
static int
same(char a, char b)
{
	return tolower((unsigned char)a) == tolower((unsigned char)b);
}

static size_t
min3(size_t a, size_t b, size_t c)
{
	size_t m = a < b ? a : b;

	return m < c ? m : c;
}

size_t
suggest_distance(const char *a, const char *b)
{
	size_t row[3][SUGGEST_MAX_LEN + 1];
	size_t la = strlen(a), lb = strlen(b), i, j;
	size_t *pp, *prev, *cur;

	if (la > SUGGEST_MAX_LEN || lb > SUGGEST_MAX_LEN)
		return (size_t)-1;
	/* row i of the table is row[i % 3] */
	for (j = 0; j <= lb; j++)
		row[0][j] = j;
	for (i = 1; i <= la; i++) {
		/* rows i - 2, i - 1 and i */
		pp = row[(i + 1) % 3];
		prev = row[(i + 2) % 3];
		cur = row[i % 3];
		cur[0] = i;
		for (j = 1; j <= lb; j++) {
			cur[j] = min3(prev[j] + 1, cur[j - 1] + 1,
			    prev[j - 1] + !same(a[i - 1], b[j - 1]));
			if (i > 1 && j > 1 && same(a[i - 1], b[j - 2]) &&
			    same(a[i - 2], b[j - 1]) && pp[j - 2] + 1 < cur[j])
				cur[j] = pp[j - 2] + 1;
		}
	}
	return row[la % 3][lb];
}

void
suggest_init(struct suggest *sg, const char *word)
{
	sg->word = word;
	sg->best = NULL;
	sg->dist = 0;
}

void
suggest_offer(struct suggest *sg, const char *cand)
{
	size_t d, la, lb, longer;

	if (cand == NULL || sg->word == NULL)
		return;
	d = suggest_distance(sg->word, cand);
	la = strlen(sg->word);
	lb = strlen(cand);
	longer = la > lb ? la : lb;
	if (strcmp(sg->word, cand) == 0 || d == (size_t)-1 || d > 3 ||
	    d * 3 > longer)
		return;
	if (sg->best == NULL || d < sg->dist) {
		sg->best = cand;
		sg->dist = d;
	}
}

const char *
suggest_best(const struct suggest *sg)
{
	return sg->best;
}

const char *
suggest_hint(const struct suggest *sg, const char *prefix,
    char buf[SUGGEST_HINT_SIZE])
{
	buf[0] = '\0';
	if (sg->best != NULL)
		snprintf(buf, SUGGEST_HINT_SIZE, "; did you mean '%s%s'?",
		    prefix != NULL ? prefix : "", sg->best);
	return buf;
}
