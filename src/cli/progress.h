/*
 * progress.h - --deep's progress line on stderr: the bytes read of the
 * bytes to read, the rate and the time left, for the model being linted.
 * The scan only counts (deep.h's callback); this module, which the
 * session owns, decides when and how to print.
 *
 * On a terminal the line is rewritten in place at most four times a
 * second, once the scan has run for a quarter of a second, and erased
 * when the model is done, so that the report never follows it. Elsewhere
 * (--progress into a pipe or a log) it is a plain line at most once a
 * second, and a closing line with the total and the time.
 */
#ifndef GGUFLINT_PROGRESS_H
#define GGUFLINT_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct progress {
	FILE *fp;	      /* stderr, or NULL: off */
	bool tty;	      /* fp is a terminal: rewrite, then erase */
	char label[48];	      /* the model's file name, abridged */
	double start, last;   /* seconds (CLOCK_MONOTONIC) */
	uint64_t done, total; /* the last counts told */
	bool shown;	      /* a line is on the terminal */
};

/*
 * progress_init: mode 1 (--progress) on, 0 (--no-progress) off, -1 on
 * when fp is a terminal whose TERM is not "dumb". fp (borrowed) must
 * outlive p; nothing to free.
 */
void progress_init(struct progress *p, FILE *fp, int mode);

/* progress_begin: a model starts; label (copied, abridged) names it. */
void progress_begin(struct progress *p, const char *label);

/*
 * progress_tell: the scan's callback (struct deep_progress, with arg a
 * struct progress): done of total bytes. Prints when it is time to.
 */
void progress_tell(void *arg, uint64_t done, uint64_t total);

/*
 * progress_end: the model is done: on a terminal its line is erased;
 * elsewhere a closing line says what was read, if a scan told anything.
 */
void progress_end(struct progress *p);

#endif
