/*
 * jobs.h - a pool of worker threads that does n items of work, each
 * handed back in the order of the items (--jobs): item i is worked on by
 * any worker, and done by the calling thread after items 0 to i - 1.
 */
#ifndef GGUFLINT_JOBS_H
#define GGUFLINT_JOBS_H

#include <stddef.h>

struct jobs_fns {
	/* work: item i, on a worker thread, concurrently with others'. Its
	 * result goes to the slot i % window, which is free: the item that
	 * had it was done before i was taken. */
	void (*work)(size_t i, void *arg);
	/* done: item i, on the calling thread, in order; nonzero: take no
	 * more items (those already taken are still done, in order). */
	int (*done)(size_t i, void *arg);
	void *arg;
};

/*
 * jobs_run: the n items of fns on threads worker threads (at least 1),
 * done in order. A worker takes item i only while i < (the next item to
 * be done) + window: at most window items are taken and not yet done, so
 * that what their results hold is bounded (window at least 1). Returns
 * the number of items done (n, unless done stopped it), or -1 when no
 * thread can be started (nothing was done: do the items another way).
 */
long jobs_run(size_t n, unsigned threads, size_t window,
    const struct jobs_fns *fns);

/* jobs_cpus: the number of CPUs online (at least 1). */
unsigned jobs_cpus(void);

#endif
