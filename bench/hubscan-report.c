/*
 * hubscan-report.c - the hub-scale scan's figures and the goals
 * (issue 40), PASS or FAIL beside the measured values (see hubscan.c).
 */
#include "config.h"

#include <stdio.h>

#include "hubscan.h"

#define MIB (1024.0 * 1024.0)

static double
per_s(const struct hub_result *r)
{
	return r->secs > 0 ? r->models / r->secs : 0;
}

static double
per_model(double v, const struct hub_result *r)
{
	return r->models > 0 ? v / r->models : 0;
}

static const char *
verdict(bool ok)
{
	return ok ? "PASS" : "FAIL";
}

void
hub_print_head(const struct hub *hb)
{
	printf(
	    "hub-scale scan (issue 40): %u models served on loopback, all "
	    "sparse: a 1B, 8B, 70B, 235B MoE and a 70B in 3 shards in turn "
	    "(all shards listed), one in 4 behind a 302; %.1f MB of headers "
	    "a model; 50 ms a request; 429 (Retry-After: 1) to one request "
	    "in 50. BENCH_MODELS=%u; --jobs 1 on the first %u "
	    "(BENCH_MODELS_J1); the peer on the first %u at --jobs 8 and 32, "
	    "%u at 1 (BENCH_PEER_MODELS): rates compare, not totals\n",
	    hb->all.n, (double)hb->all.header_bytes / hb->all.n / 1e6,
	    hb->all.n, hb->one.n, hb->peer_all.n, hb->peer_one.n);
}

void
hub_print_run(const char *who, const struct hub_result *r)
{
	double extra = per_model((double)r->bytes, r) - r->header;

	printf("  %-8s --jobs %2u: %4u models in %6.2f s: %6.2f models/s, "
	       "%.2f requests and %.2f MB a model (header %+.0f KiB), peak RSS "
	       "%ld MiB, exit %d\n",
	    who, r->jobs, r->models, r->secs, per_s(r),
	    per_model(r->requests, r), per_model((double)r->bytes, r) / 1e6,
	    extra / 1024, r->rss / 1024, r->rc);
	if (who[0] == 'g')
		printf("%26s429s served %u, honoured %lu (workers waited "
		       "%.1f s in all), retries %lu; 302s %u; files linted %u, "
		       "unread %u\n",
		    "", r->served_429, r->honoured, r->waited_s, r->retries,
		    r->redirects, r->ok, r->failed);
	else
		printf("%26s429s served %u (not retried by gguf()); 302s %u; "
		       "URLs: %s\n",
		    "", r->served_429, r->redirects, r->note);
}

/* The goals that need the peer: requests and models a second. */
static void
peer_goals(const struct hub *hb)
{
	const struct hub_result *l, *p;
	double lr, pr;

	for (unsigned k = 0; k < HUB_LEVELS; k++) {
		l = &hb->lint[k];
		p = &hb->peer[k];
		lr = per_model(l->requests, l);
		pr = per_model(p->requests, p);
		printf("  --jobs %2u: requests a model %.2f vs the peer's %.2f "
		       "(goal: at least 2 fewer): %s\n",
		    l->jobs, lr, pr, verdict(lr <= pr - 2));
		printf(
		    "  --jobs %2u: %.2f models/s vs the peer's %.2f (goal: "
		    "at least as many; the peer failed %u of its URLs): %s\n",
		    l->jobs, per_s(l), per_s(p), p->failed,
		    verdict(per_s(l) >= per_s(p)));
	}
}

void
hub_print_goals(const struct hub *hb)
{
	const struct hub_result *l32 = &hb->lint[HUB_LEVELS - 1];
	double worst = -1e18, extra, speed, cap;

	if (l32->rc < 0 || hb->lint[0].secs <= 0)
		return;
	printf("goals (issue 40):\n");
	for (unsigned k = 0; k < HUB_LEVELS; k++) {
		extra = per_model((double)hb->lint[k].bytes, &hb->lint[k]) -
		    hb->lint[k].header;
		worst = extra > worst ? extra : worst;
	}
	printf("  bytes a model at most the header + 1 MiB: header %+.0f KiB "
	       "(the worst of the three runs): %s\n",
	    worst / 1024, verdict(worst <= MIB));
	if (hb->has_peer)
		peer_goals(hb);
	else
		printf("  requests and models/s against the peer: not measured "
		       "(no peer)\n");
	speed = per_s(&hb->lint[0]) > 0 ? per_s(l32) / per_s(&hb->lint[0]) : 0;
	printf("  --jobs 32 at least 20x --jobs 1 (models/s): %.1fx: %s\n",
	    speed, verdict(speed >= 20));
	cap = 32.0 * (double)hb->largest + 64 * MIB;
	printf("  peak RSS at --jobs 32 under 32 x the largest header (%.1f "
	       "MB) + 64 MiB = %.0f MiB: %ld MiB: %s\n",
	    hb->largest / 1e6, cap / MIB, l32->rss / 1024,
	    verdict(l32->rss * 1024.0 < cap));
}
