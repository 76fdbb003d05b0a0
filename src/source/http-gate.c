/*
 * http-gate.c - what the remote files read at once share (http-impl.h):
 * per host (an origin: scheme, host, port), the requests in flight, at
 * most --max-per-host of them, and the time until which a 429's
 * Retry-After asks every request to it to wait; and the run's counts of
 * requests, retries and waits, for the report.
 */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "source/http-impl.h"
#include "source/url.h"

/* The hosts known at once; a full table forgets an idle one. */
#define GATE_HOSTS 64

struct gate_host {
	char key[HTTP_HOST_KEY]; /* "" when the entry is free */
	unsigned busy;		 /* requests in flight */
	double pause_until;	 /* monotonic ms: 429's wait */
};

static pthread_mutex_t gate_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t gate_cv = PTHREAD_COND_INITIALIZER;
static struct gate_host gate_hosts[GATE_HOSTS];

static _Atomic unsigned long gate_requests, gate_retries, gate_limited;
static _Atomic unsigned long gate_waited_ms, gate_queued;

/* The entry of key (made when new), or NULL when the table is full of
 * busy or paused hosts (gate_mu held). */
static struct gate_host *
host_of(const char *key, double now)
{
	struct gate_host *free_one = NULL;
	size_t i;

	for (i = 0; i < GATE_HOSTS; i++) {
		struct gate_host *g = &gate_hosts[i];

		if (strcmp(g->key, key) == 0)
			return g;
		if (free_one == NULL &&
		    (g->key[0] == '\0' ||
			(g->busy == 0 && g->pause_until <= now)))
			free_one = g;
	}
	if (free_one != NULL) {
		snprintf(free_one->key, sizeof free_one->key, "%s", key);
		free_one->busy = 0;
		free_one->pause_until = 0;
	}
	return free_one;
}

/* Wait on gate_cv until the monotonic ms until (a second at most: look
 * again), or a signal (gate_mu held). */
static void
wait_until(double until)
{
	struct timespec ts;
	double ms = until - now_ms();
	long long ns;

	ms = ms < 1 ? 1 : ms > 1000 ? 1000 : ms;
	ns = (long long)(ms * 1e6);
	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_sec += (time_t)(ns / 1000000000LL);
	ts.tv_nsec += (long)(ns % 1000000000LL);
	if (ts.tv_nsec >= 1000000000L) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000L;
	}
	pthread_cond_timedwait(&gate_cv, &gate_mu, &ts);
}

int
http_gate_enter(struct source_http *h)
{
	unsigned max = h->max_per_host > 0 ? h->max_per_host : HTTP_PER_HOST;
	struct gate_host *g;
	double start = now_ms(), now;
	bool waited = false;
	int rc = 0;

	url_origin_key(h->where, h->gate, sizeof h->gate);
	pthread_mutex_lock(&gate_mu);
	for (;;) {
		now = now_ms();
		g = host_of(h->gate, now);
		if (g != NULL && g->busy < max && g->pause_until <= now)
			break;
		if (now >= h->deadline) {
			rc = -1;
			break;
		}
		waited = true;
		wait_until(g != NULL && g->pause_until > now &&
			    g->pause_until < h->deadline ?
			g->pause_until :
			h->deadline);
	}
	if (rc == 0)
		g->busy++;
	pthread_mutex_unlock(&gate_mu);
	if (rc == 0)
		h->gated = true;
	else
		h->gate[0] = '\0';
	if (waited) {
		gate_queued++;
		gate_waited_ms += (unsigned long)(now_ms() - start);
	}
	if (rc == 0)
		gate_requests++;
	return rc;
}

void
http_gate_leave(struct source_http *h)
{
	struct gate_host *g;

	if (!h->gated)
		return;
	pthread_mutex_lock(&gate_mu);
	if ((g = host_of(h->gate, now_ms())) != NULL && g->busy > 0)
		g->busy--;
	pthread_cond_broadcast(&gate_cv);
	pthread_mutex_unlock(&gate_mu);
	h->gated = false;
}

void
http_gate_pause(const struct source_http *h, double seconds)
{
	struct gate_host *g;
	char key[HTTP_HOST_KEY];
	double until = now_ms() + seconds * 1e3;

	url_origin_key(h->where, key, sizeof key);
	pthread_mutex_lock(&gate_mu);
	if ((g = host_of(key, now_ms())) != NULL && g->pause_until < until)
		g->pause_until = until;
	pthread_mutex_unlock(&gate_mu);
	gate_limited++;
}

void
http_gate_retried(void)
{
	gate_retries++;
}

void
http_gate_stats(struct source_stats *st)
{
	st->requests = gate_requests;
	st->retries = gate_retries;
	st->rate_limited = gate_limited;
	st->queued = gate_queued;
	st->waited_ms = gate_waited_ms;
}
