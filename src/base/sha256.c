/*
 * sha256.c - SHA-256 as specified in FIPS 180-4 (see sha256.h).
 *
 * Words are assembled from bytes explicitly, so the code makes no
 * assumption about the host's byte order or the alignment of the input.
 */
#include "config.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "base/sha256.h"

/* The first 32 bits of the fractional parts of the cube roots of the first
 * 64 primes (FIPS 180-4, section 4.2.2). */
static const uint32_t sha256_k[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5,
	0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
	0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
	0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
	0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc,
	0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
	0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
	0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
	0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
	0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3,
	0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5,
	0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
	0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static uint32_t
sha256_rotr(uint32_t x, unsigned n)
{
	return (x >> n) | (x << (32 - n));
}

static uint32_t
sha256_load_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	    (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

static void
sha256_store_be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

/* sha256_compress_c: fold one 64-byte block into the running state. */
static void
sha256_compress_c(uint32_t state[8], const uint8_t *block)
{
	uint32_t w[64];
	uint32_t a, b, c, d, e, f, g, h, t1, t2;
	int i;

	for (i = 0; i < 16; i++)
		w[i] = sha256_load_be32(block + 4 * i);
	for (i = 16; i < 64; i++) {
		uint32_t s0 = sha256_rotr(w[i - 15], 7) ^
		    sha256_rotr(w[i - 15], 18) ^ (w[i - 15] >> 3);
		uint32_t s1 = sha256_rotr(w[i - 2], 17) ^
		    sha256_rotr(w[i - 2], 19) ^ (w[i - 2] >> 10);

		w[i] = w[i - 16] + s0 + w[i - 7] + s1;
	}

	a = state[0];
	b = state[1];
	c = state[2];
	d = state[3];
	e = state[4];
	f = state[5];
	g = state[6];
	h = state[7];
	for (i = 0; i < 64; i++) {
		uint32_t sig1 = sha256_rotr(e, 6) ^ sha256_rotr(e, 11) ^
		    sha256_rotr(e, 25);
		uint32_t ch = (e & f) ^ (~e & g);
		uint32_t sig0 = sha256_rotr(a, 2) ^ sha256_rotr(a, 13) ^
		    sha256_rotr(a, 22);
		uint32_t maj = (a & b) ^ (a & c) ^ (b & c);

		t1 = h + sig1 + ch + sha256_k[i] + w[i];
		t2 = sig0 + maj;
		h = g;
		g = f;
		f = e;
		e = d + t1;
		d = c;
		c = b;
		b = a;
		a = t1 + t2;
	}
	state[0] += a;
	state[1] += b;
	state[2] += c;
	state[3] += d;
	state[4] += e;
	state[5] += f;
	state[6] += g;
	state[7] += h;
}

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define SHA256_HAVE_NI 1

/*
 * sha256_compress_ni: the same with the x86 SHA extensions. The state is
 * kept as the instructions want it, (A,B,E,F) and (C,D,G,H); each group
 * of four rounds adds four message words and their constants.
 */
__attribute__((target("sha,sse4.1")))
static void
sha256_blocks_ni(uint32_t state[8], const uint8_t *block, size_t nblocks)
{
	const __m128i bswap = _mm_set_epi64x(0x0c0d0e0f08090a0bULL,
	    0x0405060700010203ULL);
	__m128i abef, cdgh, abef0, cdgh0, tmp, m[4];
	unsigned i;

	tmp = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)&state[0]),
	    0xB1);				/* C D A B */
	cdgh = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)&state[4]),
	    0x1B);				/* H G F E */
	abef = _mm_alignr_epi8(tmp, cdgh, 8);
	cdgh = _mm_blend_epi16(cdgh, tmp, 0xF0);
	for (; nblocks > 0; nblocks--, block += 64) {
		abef0 = abef;
		cdgh0 = cdgh;
		for (i = 0; i < 16; i++) {
			__m128i *w = &m[i % 4];

			if (i < 4)
				*w = _mm_shuffle_epi8(_mm_loadu_si128(
				    (const __m128i *)(block + 16 * i)), bswap);
			else
				*w = _mm_sha256msg2_epu32(_mm_add_epi32(
				    _mm_sha256msg1_epu32(m[i % 4],
				    m[(i + 1) % 4]), _mm_alignr_epi8(
				    m[(i + 3) % 4], m[(i + 2) % 4], 4)),
				    m[(i + 3) % 4]);
			tmp = _mm_add_epi32(*w, _mm_loadu_si128(
			    (const __m128i *)&sha256_k[4 * i]));
			cdgh = _mm_sha256rnds2_epu32(cdgh, abef, tmp);
			abef = _mm_sha256rnds2_epu32(abef, cdgh,
			    _mm_shuffle_epi32(tmp, 0x0E));
		}
		abef = _mm_add_epi32(abef, abef0);
		cdgh = _mm_add_epi32(cdgh, cdgh0);
	}
	tmp = _mm_shuffle_epi32(abef, 0x1B);	/* F E B A */
	cdgh = _mm_shuffle_epi32(cdgh, 0xB1);	/* D C H G */
	_mm_storeu_si128((__m128i *)&state[0], _mm_blend_epi16(tmp, cdgh,
	    0xF0));
	_mm_storeu_si128((__m128i *)&state[4], _mm_alignr_epi8(cdgh, tmp, 8));
}
#endif

static void
sha256_blocks_c(uint32_t state[8], const uint8_t *block, size_t nblocks)
{
	for (; nblocks > 0; nblocks--, block += 64)
		sha256_compress_c(state, block);
}

/* The block function this CPU runs: the SHA extensions when it has them. */
static void (*sha256_block)(uint32_t state[8], const uint8_t *block,
    size_t nblocks);

static void
sha256_choose(void)
{
	void (*fn)(uint32_t *, const uint8_t *, size_t) = sha256_blocks_c;

#ifdef SHA256_HAVE_NI
	__builtin_cpu_init();
	if (__builtin_cpu_supports("sse4.1") &&
	    getenv("GGUFLINT_NO_SHA_NI") == NULL) {
		unsigned a, b, c, d;

		/* CPUID leaf 7, EBX bit 29: SHA */
		__asm__("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d)
		    : "a"(7), "c"(0));
		if (b & (1u << 29))
			fn = sha256_blocks_ni;
	}
#endif
	sha256_block = fn;
}

/* sha256_blocks: fold nblocks consecutive 64-byte blocks into state. */
static void
sha256_blocks(uint32_t state[8], const uint8_t *block, size_t nblocks)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	pthread_once(&once, sha256_choose);	/* threads hash in --deep */
	sha256_block(state, block, nblocks);
}

void
sha256_init(struct sha256 *ctx)
{
	/* The first 32 bits of the fractional parts of the square roots of
	 * the first 8 primes (FIPS 180-4, section 5.3.3). */
	ctx->state[0] = 0x6a09e667;
	ctx->state[1] = 0xbb67ae85;
	ctx->state[2] = 0x3c6ef372;
	ctx->state[3] = 0xa54ff53a;
	ctx->state[4] = 0x510e527f;
	ctx->state[5] = 0x9b05688c;
	ctx->state[6] = 0x1f83d9ab;
	ctx->state[7] = 0x5be0cd19;
	ctx->nbytes = 0;
	ctx->nblock = 0;
}

void
sha256_update(struct sha256 *ctx, const void *p, size_t n)
{
	const uint8_t *in = p;

	if (n == 0)
		return;		/* p may be NULL */
	ctx->nbytes += n;
	if (ctx->nblock > 0) {
		size_t take = 64 - ctx->nblock;

		if (take > n)
			take = n;
		memcpy(ctx->block + ctx->nblock, in, take);
		ctx->nblock += take;
		in += take;
		n -= take;
		if (ctx->nblock < 64)
			return;
		sha256_blocks(ctx->state, ctx->block, 1);
		ctx->nblock = 0;
	}
	if (n >= 64) {
		sha256_blocks(ctx->state, in, n / 64);
		in += n / 64 * 64;
		n %= 64;
	}
	if (n > 0) {
		memcpy(ctx->block, in, n);
		ctx->nblock = n;
	}
}

void
sha256_final(struct sha256 *ctx, uint8_t out[32])
{
	uint64_t bits = ctx->nbytes * 8;
	int i;

	/* Append the 1 bit, zeros up to 56 mod 64, then the 64-bit length. */
	ctx->block[ctx->nblock++] = 0x80;
	if (ctx->nblock > 56) {
		memset(ctx->block + ctx->nblock, 0, 64 - ctx->nblock);
		sha256_blocks(ctx->state, ctx->block, 1);
		ctx->nblock = 0;
	}
	memset(ctx->block + ctx->nblock, 0, 56 - ctx->nblock);
	for (i = 0; i < 8; i++)
		ctx->block[56 + i] = (uint8_t)(bits >> (56 - 8 * i));
	sha256_blocks(ctx->state, ctx->block, 1);
	ctx->nblock = 0;

	for (i = 0; i < 8; i++)
		sha256_store_be32(out + 4 * i, ctx->state[i]);
}

void
sha256_hex(const uint8_t digest[32], char out[65])
{
	static const char hex[] = "0123456789abcdef";
	int i;

	for (i = 0; i < 32; i++) {
		out[2 * i] = hex[digest[i] >> 4];
		out[2 * i + 1] = hex[digest[i] & 0x0f];
	}
	out[64] = '\0';
}
