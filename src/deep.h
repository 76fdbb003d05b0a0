/*
 * deep.h - --deep: read the tensor data (memory-mapped, several threads)
 * with the real kernels and compute, per tensor, statistics of its
 * dequantized values and the SHA-256 of its stored bytes, so that a model
 * repository can pin them and the D rules can find NaN/Inf, all-zero
 * tensors and values far outside what weights hold.
 */
#ifndef GGUFLINT_DEEP_H
#define GGUFLINT_DEEP_H

#include <stdbool.h>
#include <stdint.h>

#include "gguf.h"

struct deep_stats {
	bool scanned;		/* its data was inside the file and read */
	bool dequantized;	/* a kernel decoded its values */
	bool truncated;		/* the file shrank while it was read */
	uint64_t count;		/* elements */
	uint64_t nonfinite;	/* NaN/Inf values (or invalid block scales) */
	uint64_t zeros;		/* values equal to zero */
	uint64_t finite;	/* values min..rms are over */
	double min, max;	/* over the finite values */
	double sum, sum_sq;
	char sha256[65];	/* of the stored bytes, lowercase hex */
};

/*
 * deep_scan: fill stats[i] for every tensor of f (stats has tensors_n
 * entries), using up to threads workers (0: one per online CPU). With full,
 * all of struct deep_stats, for the JSON report; without, only what the D
 * rules need, in a fraction of the time: sum and sum_sq stay 0, sha256
 * empty, and a tensor no kernel decodes is not read.
 */
void deep_scan(const struct gguf_file *f, struct deep_stats *stats,
    unsigned threads, bool full);

#endif
