/*
 * suggest.h - "did you mean": the nearest of a set of known words to a
 * word the user mistyped (a profile, a rule code or slug, a long option),
 * by edit distance.
 *
 * The caller offers the candidates one by one, in the order it wants ties
 * broken (the first nearest wins), and asks for the best at the end:
 *
 *	struct suggest sg;
 *	suggest_init(&sg, word);
 *	for (each known name)
 *		suggest_offer(&sg, name);
 *	if (suggest_best(&sg) != NULL) ...
 *
 * Nothing is allocated; the words are not copied, so they must stay valid
 * until the best one is read.
 */
#ifndef GGUFLINT_SUGGEST_H
#define GGUFLINT_SUGGEST_H

#include <stddef.h>

/* Longer words are never compared (no suggestion), which bounds the
 * work and the table of suggest_distance() on hostile input. */
#define SUGGEST_MAX_LEN 64

/* What the user typed, the nearest candidate so far (or NULL) and its
 * distance. */
struct suggest {
	const char *word;
	const char *best;
	size_t dist;
};

/* suggest_init: sg compares with word (not copied), nothing offered. */
void suggest_init(struct suggest *sg, const char *word);

/* suggest_offer: offer cand (not copied; NULL is ignored); kept when it is
 * near enough to the word (see suggest_best) and nearer than any offered
 * before. A candidate equal to the word is not a suggestion;
 * one that differs only in case is. */
void suggest_offer(struct suggest *sg, const char *cand);

/*
 * suggest_best: the nearest candidate offered, or NULL when none is near
 * enough: at most one edit per three characters of the longer word, and at
 * most 3 (an edit is an insertion, a deletion, a substitution or the swap
 * of two neighbours; letters compare without case).
 */
const char *suggest_best(const struct suggest *sg);

/* Room for suggest_hint's text: the longest word and the words around. */
#define SUGGEST_HINT_SIZE (SUGGEST_MAX_LEN + 32)

/*
 * suggest_hint: the text to append to an error message: "; did you mean
 * 'PREFIXBEST'?" (prefix may be NULL; "--" for an option), or "" when
 * nothing is near. Written into buf (SUGGEST_HINT_SIZE bytes), which is
 * returned.
 */
const char *suggest_hint(const struct suggest *sg, const char *prefix,
    char buf[SUGGEST_HINT_SIZE]);

/*
 * suggest_distance: the edit distance between a and b (optimal string
 * alignment: insertions, deletions, substitutions and swaps of adjacent
 * characters, ASCII letters without case), or (size_t)-1 when either is
 * longer than SUGGEST_MAX_LEN.
 */
size_t suggest_distance(const char *a, const char *b);

#endif
