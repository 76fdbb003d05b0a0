/*
 * kbench.c - `make bench`'s kernel figures: for each capability table, the
 * time to probe it; for each dequantize kernel, and each screen, its
 * throughput in GB/s of stored bytes read, on a buffer that stays in
 * cache-sized chunks.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "target/captable.h"
#include "kernels/ggml-types.h"
#include "kernels/kernels.h"
#include "base/sha256.h"
#include "base/util.h"

#define ROW 4096		/* elements per row: every block size divides */
#define ROWS 64
#define MIN_SECONDS 0.2

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void
bench_tables(void)
{
	const char *const *names = captable_builtin_names();
	struct gl_error err;

	for (; *names != NULL; names++) {
		struct captable t;
		size_t i, ok = 0;

		if (captable_load(*names, &t, &err) < 0) {
			fprintf(stderr, "kbench: %s\n", err.msg);
			exit(2);
		}
		captable_probe(&t, NULL);
		for (i = 0; i < t.n; i++)
			ok += t.entries[i].verified;
		printf("probe %-8s %3zu entries, %3zu verified, %8.3f ms\n",
		    t.name, t.n, ok, t.probe_us / 1000.0);
		captable_free(&t);
	}
}

/* ROWS probe rows of type (bytes each): a buffer that stays in cache. */
static uint8_t *
probe_rows(uint32_t type, size_t *bytes)
{
	uint8_t *buf;
	uint64_t rng = 7;
	size_t r;

	*bytes = kernel_row_bytes(type, ROW);
	buf = xmalloc(*bytes * ROWS);
	for (r = 0; r < ROWS; r++)
		probe_fill(type, buf + r * *bytes, ROW, &rng);
	return buf;
}

static void
bench_dequant(const struct kernel *k)
{
	size_t bytes, r, iters = 0;
	uint8_t *buf = probe_rows(k->type, &bytes);
	float *out = xmalloc(ROW * sizeof *out);
	volatile float sink = 0;
	double t0, t;

	t0 = now();
	do {
		for (r = 0; r < ROWS; r++) {
			k->dequant(buf + r * bytes, out, ROW);
			sink += out[r];
		}
		iters++;
		t = now() - t0;
	} while (t < MIN_SECONDS);
	printf("dequant %-22s %7.2f GB/s stored, %7.2f GB/s f32 out\n",
	    k->name, (double)(bytes * ROWS * iters) / t / 1e9,
	    (double)(ROW * 4.0 * ROWS * iters) / t / 1e9);
	free(buf);
	free(out);
}

/* The screen of a type (what --deep without JSON reads instead of
 * decoding), on the same rows. */
static void
bench_screen(uint32_t type)
{
	size_t bytes, r, iters = 0;
	uint8_t *buf = probe_rows(type, &bytes);
	volatile double sink = 0;
	double t0, t;

	t0 = now();
	do {
		for (r = 0; r < ROWS; r++) {
			struct kernel_screen s = { 0, 0, false, false };

			kernel_screen(type, buf + r * bytes, ROW, &s);
			sink += s.bound;
		}
		iters++;
		t = now() - t0;
	} while (t < MIN_SECONDS);
	printf("screen  %-22s %7.2f GB/s stored\n", ggml_type_get(type)->name,
	    (double)(bytes * ROWS * iters) / t / 1e9);
	free(buf);
}

/* SHA-256 of a 64 MiB buffer: the ceiling of --deep, which hashes every
 * tensor's bytes (sequentially within a tensor). */
static void
bench_sha256(void)
{
	size_t n = 64u << 20, iters = 0;
	uint8_t *buf = xcalloc(n, 1), d[32];
	struct sha256 ctx;
	double t0 = now(), t;

	do {
		sha256_init(&ctx);
		sha256_update(&ctx, buf, n);
		sha256_final(&ctx, d);
		iters++;
		t = now() - t0;
	} while (t < MIN_SECONDS);
	printf("sha256 %7.2f GB/s on one core\n", (double)n * iters / t / 1e9);
	free(buf);
}

int
main(void)
{
	const struct kernel *k;

	bench_tables();
	bench_sha256();
	for (k = kernels; k->name != NULL; k++)
		if (k->op == KERNEL_DEQUANT)
			bench_dequant(k);
	for (k = kernels; k->name != NULL; k++)
		if (k->op == KERNEL_DEQUANT && kernel_screen_has(k->type))
			bench_screen(k->type);
	return 0;
}
