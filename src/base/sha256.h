/*
 * sha256.h - streaming SHA-256 (FIPS 180-4), used to fingerprint tensor data
 * and whole files in reports.
 *
 * Usage: sha256_init, then sha256_update any number of times with chunks of
 * any size (including zero), then sha256_final once.  The context needs no
 * cleanup; it holds no pointers.
 */
#ifndef GGUFLINT_SHA256_H
#define GGUFLINT_SHA256_H

#include <stddef.h>
#include <stdint.h>

struct sha256 {
	uint32_t state[8];	/* the running hash value H0..H7 */
	uint64_t nbytes;	/* message bytes consumed so far */
	uint8_t block[64];	/* a partial block waiting for more input */
	size_t nblock;		/* bytes used in block, always < 64 */
};

/* sha256_init: ctx ready for a new message. */
void sha256_init(struct sha256 *ctx);
/* sha256_update: hash the n bytes at p (p may be NULL when n is 0). */
void sha256_update(struct sha256 *ctx, const void *p, size_t n);
/*
 * sha256_final: pad, finish, and write the 32-byte digest to out.  The
 * context is left in an unspecified state; call sha256_init to reuse it.
 */
void sha256_final(struct sha256 *ctx, uint8_t out[32]);
/* sha256_hex: write digest as 64 lowercase hex digits and a NUL to out. */
void sha256_hex(const uint8_t digest[32], char out[65]);

#endif
