/*
 * hubscan.h - the hub-scale scan of `make bench` (bench/hubscan.c runs
 * it, bench/hubscan-report.c prints its figures and goals).
 */
#ifndef GGUFLINT_BENCH_HUBSCAN_H
#define GGUFLINT_BENCH_HUBSCAN_H

#include <stdbool.h>
#include <stdint.h>

#include "httpd.h"

/* The peer's version that `make bench` was measured with (npm). */
#define PEER_VERSION "0.4.6"

#define HUB_LEVELS 3 /* --jobs 1, 8, 32 */

/* One run of a list at one concurrency. */
struct hub_result {
	unsigned jobs, models;
	double header; /* headers' bytes a model listed */
	int rc;	       /* exit status, -1: not run */
	double secs;
	long rss;				  /* peak, KiB */
	unsigned requests, served_429, redirects; /* the server's */
	uint64_t bytes;
	unsigned long honoured, retries; /* gguflint's summary */
	double waited_s;		 /* its "waited_s" (the 429s' holds) */
	unsigned ok, failed;		 /* files linted and unread (the
					 * peer: URLs read and failed) */
	char note[512];			 /* the peer's line */
};

struct hub {
	const char *bin, *peer_script, *peer_dir;
	struct hub_list {
		const char *path;
		unsigned n;		/* models */
		uint64_t header_bytes;	/* their headers' */
	} all, one, peer_all, peer_one; /* the lists: all, for --jobs 1,
					 * the peer's at 8 and 32, at 1 */
	const char *out;		/* the output file */
	size_t largest;			/* the largest header served */
	struct httpd h;
	bool has_peer;
	struct hub_result lint[HUB_LEVELS], peer[HUB_LEVELS];
};

void hub_print_head(const struct hub *hb);
void hub_print_run(const char *who, const struct hub_result *r);
void hub_print_goals(const struct hub *hb);

#endif
