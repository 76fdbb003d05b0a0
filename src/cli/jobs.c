/*
 * jobs.c - the pool of --jobs (jobs.h): worker threads take the items in
 * order, work on them concurrently, and hand them to the calling thread,
 * which does them in order; a worker that is window items ahead of the
 * next to be done waits, so that finished results do not pile up.
 */
#include "config.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <unistd.h>

#include "base/util.h"
#include "cli/jobs.h"

struct pool {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	const struct jobs_fns *fns;
	size_t n, window;
	size_t next_take; /* the next item a worker takes */
	size_t next_done; /* the next item the caller does */
	bool *finished;	  /* per slot (item % window) */
	bool stop;	  /* done said stop: take no more */
};

static void *
worker(void *arg)
{
	struct pool *p = arg;
	size_t i;

	pthread_mutex_lock(&p->mu);
	for (;;) {
		while (!p->stop && p->next_take < p->n &&
		    p->next_take >= p->next_done + p->window)
			pthread_cond_wait(&p->cv, &p->mu);
		if (p->stop || p->next_take >= p->n)
			break;
		i = p->next_take++;
		pthread_mutex_unlock(&p->mu);
		p->fns->work(i, p->fns->arg);
		pthread_mutex_lock(&p->mu);
		p->finished[i % p->window] = true;
		pthread_cond_broadcast(&p->cv);
	}
	pthread_mutex_unlock(&p->mu);
	return NULL;
}

/* The caller's part: each item, in order, as soon as it is finished. */
static long
do_in_order(struct pool *p)
{
	size_t i;
	long count = 0;
	int r;

	pthread_mutex_lock(&p->mu);
	while (p->next_done < (p->stop ? p->next_take : p->n)) {
		i = p->next_done;
		while (!p->finished[i % p->window])
			pthread_cond_wait(&p->cv, &p->mu);
		p->finished[i % p->window] = false;
		pthread_mutex_unlock(&p->mu);
		r = p->fns->done(i, p->fns->arg);
		count++;
		pthread_mutex_lock(&p->mu);
		p->next_done++;
		if (r != 0)
			p->stop = true;
		pthread_cond_broadcast(&p->cv);
	}
	pthread_mutex_unlock(&p->mu);
	return count;
}

long
jobs_run(size_t n, unsigned threads, size_t window, const struct jobs_fns *fns)
{
	struct pool p = { .fns = fns, .n = n, .window = window ? window : 1 };
	pthread_t *tid;
	unsigned k, started = 0;
	long count;

	if (threads == 0)
		threads = 1;
	if (threads > n)
		threads = n > 0 ? (unsigned)n : 1;
	pthread_mutex_init(&p.mu, NULL);
	pthread_cond_init(&p.cv, NULL);
	p.finished = xcalloc(p.window, sizeof *p.finished);
	tid = xcalloc(threads, sizeof *tid);
	for (k = 0; k < threads; k++)
		if (pthread_create(&tid[k], NULL, worker, &p) == 0)
			started++;
		else
			break;
	if (started == 0)
		count = -1;
	else
		count = do_in_order(&p);
	for (k = 0; k < started; k++)
		pthread_join(tid[k], NULL);
	free(tid);
	free(p.finished);
	pthread_cond_destroy(&p.cv);
	pthread_mutex_destroy(&p.mu);
	return count;
}

unsigned
jobs_cpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n < 1 ? 1 : n > 1024 ? 1024 : (unsigned)n;
}
