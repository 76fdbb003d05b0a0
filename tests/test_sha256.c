/*
 * test_sha256.c - known-answer and chunking tests for src/sha256.c.
 *
 * The known answers are those published with FIPS 180-4 (the example
 * messages) plus digests of messages whose lengths straddle the padding
 * boundaries at 55/56 and 63/64 bytes.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "base/sha256.h"
#include "base/util.h"

/* digest_hex: one-shot digest of p[0..n) as 64 hex digits in out. */
static void
digest_hex(const void *p, size_t n, char out[65])
{
	struct sha256 ctx;
	uint8_t d[32];

	sha256_init(&ctx);
	sha256_update(&ctx, p, n);
	sha256_final(&ctx, d);
	sha256_hex(d, out);
}

/* pattern: fill p with the deterministic bytes the length tests hash. */
static void
pattern(uint8_t *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		p[i] = (uint8_t)(i * 7 + 3);
}

Test(sha256, empty)
{
	char hex[65];

	digest_hex("", 0, hex);
	cr_assert_str_eq(hex,
	    "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
	digest_hex(NULL, 0, hex);
	cr_assert_str_eq(hex,
	    "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

Test(sha256, abc)
{
	char hex[65];

	digest_hex("abc", 3, hex);
	cr_assert_str_eq(hex,
	    "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

Test(sha256, two_blocks_448_bits)
{
	const char *m =
	    "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
	char hex[65];

	cr_assert_eq(strlen(m), 56);
	digest_hex(m, strlen(m), hex);
	cr_assert_str_eq(hex,
	    "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

Test(sha256, two_blocks_896_bits)
{
	const char *m = "abcdefghbcdefghicdefghijdefghijkefghijklfghijklm"
	    "ghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu";
	char hex[65];

	cr_assert_eq(strlen(m), 112);
	digest_hex(m, strlen(m), hex);
	cr_assert_str_eq(hex,
	    "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");
}

Test(sha256, million_a_odd_chunks)
{
	static const size_t chunks[] = { 1, 3, 7, 13, 63, 64, 65, 127, 1001 };
	char *a = xmalloc(1001);
	struct sha256 ctx;
	uint8_t d[32];
	char hex[65];
	size_t left = 1000000, i = 0;

	memset(a, 'a', 1001);
	sha256_init(&ctx);
	while (left > 0) {
		size_t n = chunks[i++ % (sizeof chunks / sizeof chunks[0])];

		if (n > left)
			n = left;
		sha256_update(&ctx, a, n);
		sha256_update(&ctx, a, 0);
		left -= n;
	}
	sha256_final(&ctx, d);
	sha256_hex(d, hex);
	free(a);
	cr_assert_str_eq(hex,
	    "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

Test(sha256, padding_boundaries)
{
	static const struct {
		size_t n;
		const char *hex;
	} kat[] = {
		{ 55, "e7313d333c272e639f790978283f9eb3"
		    "92e843d0f29b7016828bb1daa4aac70b" },
		{ 56, "4324d65f3c103567f5589c710bc08f85"
		    "23f929a9272e3af36fc968e52abc6c27" },
		{ 57, "35df609437dcfea3279283ab79fd554e"
		    "2bf78f8f7ae2de532d8ee300b09e8f73" },
		{ 63, "81c80242132f230c3bd41b3e63bbcff1"
		    "6107339549214a99614ff26664625055" },
		{ 64, "39e3d7b6b5d075d37d053ad89b24b41b"
		    "ef4f3c29760c84447cab3f3be1882241" },
		{ 65, "aacca6ff74fdbb296d165a45cecfa04e"
		    "5127bc008770fbbdd48006f2d2fae95e" },
		{ 119, "9ce7368e4daf32341631b492e80359dc"
		    "9f594b48453cd0dd5bf0b19279cc177e" },
		{ 120, "7836b787757e95e58b3ca5aec90b1b00"
		    "4e8deba1e50e9675af9cabf1a13a04b5" },
		{ 128, "d2742f1f4ac6bb7ca2b239ee18402ba8"
		    "b3f9f8e652d2a72973c2b9ba11c08cf6" },
	};
	uint8_t buf[129];
	char hex[65];
	size_t i;

	for (i = 0; i < sizeof kat / sizeof kat[0]; i++) {
		/* Start at an odd address: the input need not be aligned. */
		pattern(buf + 1, kat[i].n);
		digest_hex(buf + 1, kat[i].n, hex);
		cr_assert_str_eq(hex, kat[i].hex, "length %zu", kat[i].n);
	}
}

Test(sha256, every_split_matches_one_shot)
{
	uint8_t buf[200], d[32];
	char one[65], split[65];
	size_t n, k, j;

	pattern(buf, sizeof buf);
	for (n = 0; n <= sizeof buf; n += 7) {
		digest_hex(buf, n, one);
		for (k = 0; k <= n; k++) {
			struct sha256 ctx;

			sha256_init(&ctx);
			sha256_update(&ctx, buf, k);
			sha256_update(&ctx, buf + k, n - k);
			sha256_final(&ctx, d);
			sha256_hex(d, split);
			cr_assert_str_eq(split, one, "n=%zu split at %zu",
			    n, k);
		}
		{
			struct sha256 ctx;

			sha256_init(&ctx);
			for (j = 0; j < n; j++)
				sha256_update(&ctx, buf + j, 1);
			sha256_final(&ctx, d);
			sha256_hex(d, split);
			cr_assert_str_eq(split, one, "n=%zu bytewise", n);
		}
	}
}

Test(sha256, reinit_after_final)
{
	struct sha256 ctx;
	uint8_t d[32];
	char hex[65];

	sha256_init(&ctx);
	sha256_update(&ctx, "junk", 4);
	sha256_final(&ctx, d);
	sha256_init(&ctx);
	sha256_update(&ctx, "ab", 2);
	sha256_update(&ctx, "c", 1);
	sha256_final(&ctx, d);
	sha256_hex(d, hex);
	cr_assert_str_eq(hex,
	    "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

Test(sha256, hex_is_lowercase_and_terminated)
{
	uint8_t d[32];
	char hex[66];
	int i;

	for (i = 0; i < 32; i++)
		d[i] = (uint8_t)(i * 8 + 0x0f);
	memset(hex, 'X', sizeof hex);
	sha256_hex(d, hex);
	cr_assert_str_eq(hex,
	    "0f171f272f373f474f575f676f777f878f979fa7afb7bfc7cfd7dfe7eff7ff07");
	cr_assert_eq(hex[65], 'X');
}

/* The portable block function, whatever the CPU offers (the other tests
 * run the SHA-extension path where the CPU has it). */
static void
force_portable(void)
{
	setenv("GGUFLINT_NO_SHA_NI", "1", 1);
}

Test(sha256, portable_path_known_answers, .init = force_portable)
{
	static const char *const want =
	    "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0";
	struct sha256 ctx;
	uint8_t d[32];
	char hex[65], block[1000];
	int i;

	memset(block, 'a', sizeof block);
	sha256_init(&ctx);
	for (i = 0; i < 1000; i++)
		sha256_update(&ctx, block, sizeof block);
	sha256_final(&ctx, d);
	sha256_hex(d, hex);
	cr_assert_str_eq(hex, want);
}
