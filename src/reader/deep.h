/*
 * deep.h - --deep: read the tensor data (through mapped windows of the
 * source, several threads)
 * with the real kernels and compute, per tensor, statistics of its
 * dequantized values and the SHA-256 of its stored bytes, so that a model
 * repository can pin them and the D rules can find NaN/Inf, all-zero
 * tensors and values far outside what weights hold.
 */
#ifndef GGUFLINT_DEEP_H
#define GGUFLINT_DEEP_H

#include <stdbool.h>
#include <stdint.h>

#include "reader/gguf.h"

/* D003: the largest magnitude weights normally reach. A scan without the
 * full statistics decodes a tensor whose values may pass it. */
#define DEEP_RANGE_LIMIT 1e4

struct deep_stats {
	bool scanned;		/* its data was inside the file and read */
	bool dequantized;	/* its values are known: decoded or screened */
	bool exact;		/* a kernel decoded every value: zeros, min and
				 * max are known */
	bool truncated;		/* the file shrank while it was read (or
				 * its data could not be mapped) */
	bool all_zero;		/* every value is zero (dequantized only) */
	uint64_t count;		/* elements */
	uint64_t nonfinite;	/* NaN/Inf values; a block whose scale is
				 * invalid (MXFP4 0xFF) counts all of its */
	uint64_t zeros;		/* values equal to zero (exact only) */
	uint64_t finite;	/* values min..rms are over */
	double min, max;	/* over the finite values (exact only) */
	double bound;		/* no finite value's magnitude exceeds it */
	double sum, sum_sq;	/* full only */
	uint64_t zs_hidden;	/* blocks whose zero scale hides non-zero
				 * quants (kernel_zero_scale) */
	uint64_t zs_benign;	/* blocks whose zero scale covers zeros */
	char sha256[65];	/* of the stored bytes, lowercase hex (full) */
};

/*
 * deep_scan: fill stats[i] (zeroed first) for every tensor of f, whose
 * header must be complete (stats has tensors_n entries), using up to
 * threads workers (0: one per online CPU; at most 64; the calling thread
 * is one). Each worker reads under its own guard (guard.h): a tensor whose
 * pages vanish is marked truncated, not a crash. Cannot fail; allocates
 * nothing that outlives it. Threads may scan at once: the first call of
 * the process, in whichever thread, picks the statistics code for this
 * CPU, once (pthread_once).
 *  - With full, all of struct deep_stats, for the JSON report: every value
 *    decoded by the real kernels, and the stored bytes hashed.
 *  - Without, only what the D rules need, in a fraction of the time. A
 *    tensor whose type has a screen (kernels.h) is screened from its block
 *    factors: nonfinite, finite, bound and all_zero are exact, and a block
 *    that may hold a nonzero value is decoded until one does. A tensor
 *    whose bound passes DEEP_RANGE_LIMIT, or whose type has no screen, is
 *    then decoded (exact). sum, sum_sq and sha256 stay empty, and a tensor
 *    no kernel decodes is not read (but for the zero-scale blocks).
 * Either way, every block of a type kernel_zero_scale reads (q8_1 too,
 * which no kernel decodes) is counted in zs_hidden or zs_benign when its
 * scale is zero (not for a big-endian file's types kernel_from_be does
 * not convert).
 */
void deep_scan(const struct gguf_file *f, struct deep_stats *stats,
    unsigned threads, bool full);

/*
 * What a scan tells as it reads: fn(arg, done, total), the bytes of the
 * work finished and planned so far (total grows when the scan plans a
 * second round; with full, a tensor counts once hashed and once decoded).
 * It is called from the workers one at a time (under the scan's lock)
 * after each piece of work (a few MiB) and once at the start, so it must
 * be quick, and must not call back into the scan. Printing is the
 * caller's: the scan never prints.
 */
struct deep_progress {
	void (*fn)(void *arg, uint64_t done, uint64_t total);
	void *arg;
};

/* deep_scan_progress: deep_scan, telling p (NULL: no one) as it goes. */
void deep_scan_progress(const struct gguf_file *f, struct deep_stats *stats,
    unsigned threads, bool full, const struct deep_progress *p);

#endif
