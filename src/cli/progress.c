/*
 * progress.c - --deep's progress line on stderr (progress.h).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/units.h"
#include "cli/progress.h"

/* Seconds before the first line, and between lines, on a terminal and
 * elsewhere. */
#define PROGRESS_DELAY_TTY 0.25
#define PROGRESS_EVERY_TTY 0.25
#define PROGRESS_EVERY_LOG 1.0

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void
progress_init(struct progress *p, FILE *fp, int mode)
{
	const char *term = getenv("TERM");
	bool tty = isatty(fileno(fp)) == 1 && term != NULL &&
	    strcmp(term, "dumb") != 0;

	memset(p, 0, sizeof *p);
	p->tty = tty;
	p->fp = mode == 1 || (mode < 0 && tty) ? fp : NULL;
}

void
progress_begin(struct progress *p, const char *label)
{
	const char *base = strrchr(label, '/');
	size_t n;

	base = base != NULL && base[1] != '\0' ? base + 1 : label;
	n = strlen(base);
	if (n < sizeof p->label)
		memcpy(p->label, base, n + 1);
	else /* the end of the name says most: "...-00002-of-00004.gguf" */
		snprintf(p->label, sizeof p->label, "...%s",
		    base + n - (sizeof p->label - 4));
	p->start = p->last = now();
	p->done = p->total = 0;
	p->shown = false;
}

/* "1.2 GiB of 4.0 GiB (30%), 850 MiB/s, 3 s left" */
static void
print_line(struct progress *p, double t)
{
	char a[32], b[32], r[32];
	double secs = t - p->start,
	       rate = secs > 0 ? (double)p->done / secs : 0, left;

	format_size(p->done, a, sizeof a);
	format_size(p->total, b, sizeof b);
	format_size(rate > 0 ? (uint64_t)rate : 0, r, sizeof r);
	fprintf(p->fp, "%sgguflint: --deep %s: %s of %s (%d%%), %s/s",
	    p->tty ? "\r\033[K" : "", p->label, a, b,
	    p->total > 0 ? (int)((double)p->done * 100.0 / (double)p->total) :
			   0,
	    r);
	if (rate > 0 && p->done < p->total) {
		left = (double)(p->total - p->done) / rate;
		fprintf(p->fp, ", %.0f s left", left < 1 ? 1 : left);
	}
	fputs(p->tty ? "" : "\n", p->fp);
	fflush(p->fp);
	p->shown = p->tty;
	p->last = t;
}

void
progress_tell(void *arg, uint64_t done, uint64_t total)
{
	struct progress *p = arg;
	double t;

	if (p->fp == NULL)
		return;
	p->done = done;
	p->total = total;
	t = now();
	if (p->tty ? t - p->start < PROGRESS_DELAY_TTY ||
		    (p->shown && t - p->last < PROGRESS_EVERY_TTY) :
		     t - p->last < PROGRESS_EVERY_LOG)
		return;
	print_line(p, t);
}

void
progress_end(struct progress *p)
{
	char a[32];

	if (p->fp == NULL)
		return;
	if (p->shown) {
		fputs("\r\033[K", p->fp);
		fflush(p->fp);
	} else if (!p->tty && p->total > 0) {
		fprintf(p->fp, "gguflint: --deep %s: read %s in %.1f s\n",
		    p->label, format_size(p->done, a, sizeof a),
		    now() - p->start);
	}
	p->shown = false;
	p->total = 0;
}
