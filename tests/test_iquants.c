/*
 * test_iquants.c - gguflint's dequantizers against ggml's own, bit for
 * bit: every type the registry dequantizes, on many random blocks (fp16
 * scales kept finite), decoded by gguflint here and by the to_float of
 * llama.cpp's libggml-base (ggml_get_type_traits) in a child process, so
 * that a crash or a hang in the library is a failure, not ours; and the
 * screens' verdict on NaN and infinite values against ggml's own row
 * validation (ggml_validate_row_data, what llama.cpp's --check-tensors
 * runs), on rows with and without a bad factor; the blocks ggml's
 * quantizers write for zeros, which D004 must count benign. Then the
 * grid i-quants (IQ2_XXS, IQ2_XS, IQ2_S, IQ3_XXS, IQ3_S, IQ1_S, IQ1_M):
 * known values from blocks built by hand (the grid points written as
 * ggml-common.h writes them, not as iq-grids.c packs them), and the
 * capability probe verifying their kernels in the shipped tables.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <dlfcn.h>
#include <math.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/error.h"
#include "base/util.h"
#include "kernels/fp16.h"
#include "kernels/ggml-types.h"
#include "kernels/kernels.h"
#include "target/captable.h"

/* ---- against ggml ---- */

/*
 * ggml.h's struct ggml_type_traits (ggml 0.25.1, a public struct stable
 * for years): only its first fields are read, and to_float called.
 */
struct ggml_traits_abi {
	const char *type_name;
	int64_t blck_size;
	int64_t blck_size_interleave;
	size_t type_size;
	bool is_quantized;
	void (*to_float)(const void *x, float *y, int64_t k);
	void (*from_float_ref)(const float *x, void *y, int64_t k);
};

#define MAX_TYPES 64
#define ORACLE_SECONDS 60

/* One type's case: the random row, both decodings, ggml's geometry. */
struct oracle_case {
	uint32_t type;
	size_t n;		/* elements */
	uint8_t *row;
	float *ours;
	float *theirs;		/* in the shared mapping */
};

/* What the child writes back, in the shared mapping. */
struct oracle_reply {
	char error[256];
	int64_t blck[MAX_TYPES];
	uint64_t size[MAX_TYPES];
	bool has_to_float[MAX_TYPES];
	size_t done;		/* cases decoded */
};

static uint64_t
rng_next(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Clear the top exponent bit of the fp16 at p when it is not finite. */
static void
finite16(uint8_t *p)
{
	if ((p[1] & 0x7c) == 0x7c)
		p[1] &= 0xbf;
}

/*
 * rand_row: nblk random blocks of type at row: every byte random, but the
 * values and scales finite: the float types' elements, every fp16 factor
 * (kernel_fp16_factors; IQ1_M's d, in the scales' top nibbles), MXFP4's
 * scale never the invalid 0xFF. Subnormal and the largest scales included.
 */
static void
rand_row(uint32_t type, uint8_t *row, size_t nblk, uint64_t *s)
{
	const struct ggml_type_info *t = ggml_type_get(type);
	size_t i, bytes = nblk * t->size;
	unsigned off[2], nf, k;

	for (i = 0; i < bytes; i++)
		row[i] = (uint8_t)rng_next(s);
	for (i = 0; i < nblk; i++) {
		uint8_t *b = row + i * t->size;

		if (type == GGML_TYPE_F32 && (b[3] & 0x7f) == 0x7f &&
		    (b[2] & 0x80))
			b[3] &= 0xbf;
		else if (type == GGML_TYPE_F16)
			finite16(b);
		else if (type == GGML_TYPE_BF16 && (b[1] & 0x7f) == 0x7f &&
		    (b[0] & 0x80))
			b[1] &= 0xbf;
		else if (type == GGML_TYPE_MXFP4 && b[0] == 0xff)
			b[0] = 0xfe;
		else if (type == GGML_TYPE_IQ1_M && (b[55] & 0x7c) == 0x7c)
			b[55] &= 0xbf;	/* d's bits 10-14: sc3's 12-14 */
		nf = kernel_fp16_factors(type, off);
		for (k = 0; k < nf; k++)
			finite16(b + off[k]);
	}
}

/*
 * In the child: load lib (under the time limit) and return its symbol
 * name, or exit 3 with the reason in error.
 */
static void *
oracle_symbol(const char *lib, const char *name, char *error, size_t len)
{
	void *h, *sym;

	alarm(ORACLE_SECONDS);
	h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
	if (h == NULL) {
		snprintf(error, len, "%.200s", dlerror());
		_exit(3);
	}
	sym = dlsym(h, name);
	if (sym == NULL) {
		snprintf(error, len, "no %.100s", name);
		_exit(3);
	}
	return sym;
}

/* The child: decode every case into the shared mapping, then exit 0. */
static void
oracle_child(const char *lib, struct oracle_case *c, size_t n,
    struct oracle_reply *reply)
{
	const struct ggml_traits_abi *(*traits)(int);
	size_t i;

	*(void **)&traits = oracle_symbol(lib, "ggml_get_type_traits",
	    reply->error, sizeof reply->error);
	for (i = 0; i < n; i++, reply->done++) {
		const struct ggml_traits_abi *t = traits((int)c[i].type);

		reply->blck[i] = t->blck_size;
		reply->size[i] = t->type_size;
		reply->has_to_float[i] = t->to_float != NULL;
		if (t->to_float != NULL)
			t->to_float(c[i].row, c[i].theirs, (int64_t)c[i].n);
	}
	_exit(0);
}

/* How many values of a case differ in their bits; logs the first. */
static size_t
oracle_compare(const struct oracle_case *c, const char *name)
{
	size_t i, bad = 0;

	for (i = 0; i < c->n; i++) {
		if (memcmp(&c->ours[i], &c->theirs[i], sizeof(float)) == 0)
			continue;
		if (bad++ == 0)
			cr_log_error("%s: value %zu (block %zu) is %.9g, "
			    "ggml's %.9g", name, i,
			    i / ggml_type_get(c->type)->blck,
			    (double)c->ours[i], (double)c->theirs[i]);
	}
	return bad;
}

/* The cases: every type with an as-stored dequantizer, a row of each. */
static size_t
oracle_cases(struct oracle_case *c, float *shared, uint64_t *s)
{
	const struct kernel *k;
	size_t n = 0;

	for (k = kernels; k->name != NULL; k++) {
		const struct ggml_type_info *t = ggml_type_get(k->type);
		size_t nblk = t->blck == 1 ? 65536 : 4096;

		if (k->op != KERNEL_DEQUANT ||
		    k->order != KERNEL_ORDER_AS_STORED)
			continue;
		cr_assert(n < MAX_TYPES);
		c[n].type = k->type;
		c[n].n = nblk * t->blck;
		c[n].row = xmalloc(nblk * t->size);
		c[n].ours = xmalloc(c[n].n * sizeof(float));
		c[n].theirs = shared;
		shared += c[n].n;
		rand_row(k->type, c[n].row, nblk, s);
		k->dequant(c[n].row, c[n].ours, c[n].n);
		n++;
	}
	return n;
}

/* The elements of all the cases oracle_cases makes, for the mapping. */
static size_t
oracle_elements(void)
{
	const struct kernel *k;
	size_t n = 0;

	for (k = kernels; k->name != NULL; k++)
		if (k->op == KERNEL_DEQUANT &&
		    k->order == KERNEL_ORDER_AS_STORED)
			n += ggml_type_get(k->type)->blck == 1 ? 65536 :
			    4096 * (size_t)ggml_type_get(k->type)->blck;
	return n;
}

/*
 * oracle_wait: wait for the child pid, which writes error and counts the
 * cases it finished in *done; asserts that it finished all n of them.
 */
static void
oracle_wait(pid_t pid, const char *lib, const char *error,
    const volatile size_t *done, size_t n)
{
	int st;

	cr_assert(pid >= 0);
	cr_assert(waitpid(pid, &st, 0) == pid);
	cr_assert(!WIFSIGNALED(st), "ggml's child died of signal %d%s after "
	    "%zu of %zu types", WTERMSIG(st), WTERMSIG(st) == SIGALRM ?
	    " (the time limit)" : "", *done, n);
	cr_assert(WEXITSTATUS(st) == 0, "loading %s: %s", lib, error);
	cr_assert_eq(*done, n);
}

/* Run the child over the cases; asserts it finished them all. */
static void
oracle_run(const char *lib, struct oracle_case *c, size_t n,
    struct oracle_reply *reply)
{
	pid_t pid = fork();

	if (pid == 0)
		oracle_child(lib, c, n, reply);
	oracle_wait(pid, lib, reply->error, &reply->done, n);
}

/* $GGUFLINT_LLAMA's libggml-base.so into lib, or skip the test. */
static void
oracle_lib(char *lib, size_t len)
{
	const char *dir = getenv("GGUFLINT_LLAMA");

	snprintf(lib, len, "%s/cpu/libggml-base.so", dir != NULL ? dir : "");
	if (dir == NULL || access(lib, R_OK) != 0)
		cr_skip_test("%s is absent: run build-aux/install-llama to "
		    "compare gguflint's kernels with ggml's", lib);
}

/*
 * Every dequantizer gives ggml's bits on 4096 random blocks of its type
 * (65536 values of the float types), and ggml's block geometry is the
 * type table's.
 */
Test(iquants, dequantizers_match_ggml_bit_for_bit)
{
	static struct oracle_case c[MAX_TYPES];
	size_t n, i, elems = oracle_elements(), bad = 0, total = 0;
	size_t map_bytes = sizeof(struct oracle_reply) + elems * sizeof(float);
	struct oracle_reply *reply;
	uint64_t s = 0x16a1c0de;
	char lib[4096];

	oracle_lib(lib, sizeof lib);
	reply = mmap(NULL, map_bytes, PROT_READ | PROT_WRITE,
	    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	cr_assert(reply != MAP_FAILED);
	n = oracle_cases(c, (float *)(reply + 1), &s);
	oracle_run(lib, c, n, reply);
	for (i = 0; i < n; i++) {
		const struct ggml_type_info *t = ggml_type_get(c[i].type);
		size_t diff;

		cr_expect(reply->blck[i] == (int64_t)t->blck &&
		    reply->size[i] == t->size, "%s: ggml's block is %lld "
		    "values in %llu bytes", t->name, (long long)reply->blck[i],
		    (unsigned long long)reply->size[i]);
		if (reply->has_to_float[i]) {
			diff = oracle_compare(&c[i], t->name);
			cr_log_info("%-8s %zu values, %zu differ from ggml's",
			    t->name, c[i].n, diff);
			cr_expect(diff == 0, "%s: %zu of %zu values differ "
			    "from ggml's", t->name, diff, c[i].n);
			bad += diff;
			total += c[i].n;
		} else
			cr_log_info("%s: ggml has no to_float", t->name);
		free(c[i].row);
		free(c[i].ours);
	}
	cr_assert(total > 0 && bad == 0);
	munmap(reply, map_bytes);
}

/* ---- ggml's validation against the screens ---- */

#define VROWS 96

/* One type's rows for ggml_validate_row_data, and the screens' verdict. */
struct validate_case {
	uint32_t type;
	size_t n, bytes;	/* elements and bytes of a row */
	uint8_t *rows;		/* VROWS of them */
	bool ours[VROWS];	/* kernel_screen found no NaN or infinity */
};

struct validate_reply {
	char error[256];
	size_t done;
	bool valid[MAX_TYPES][VROWS];
};

/* Make the fp16 at p the edge value h. */
static void
put_edge16(uint8_t *p, uint16_t h)
{
	p[0] = (uint8_t)h;
	p[1] = (uint8_t)(h >> 8);
}

/*
 * corrupt_row: in two rows of three, make one factor of one block (one
 * value of a float type) NaN or infinite: an fp16 factor (IQ1_M's d in its
 * nibbles), an MXFP4 scale 0xFF, an F32 or BF16 value.
 */
static void
corrupt_row(uint32_t type, uint8_t *row, size_t nblk, uint64_t *s)
{
	static const uint16_t edge[4] = { 0x7c00, 0xfc00, 0x7e00, 0xfe01 };
	const struct ggml_type_info *t = ggml_type_get(type);
	uint64_t r = rng_next(s);
	uint8_t *b = row + (r >> 8) % nblk * t->size;
	uint16_t h = edge[(r >> 16) % 4];
	unsigned off[2], nf, k;

	if (r % 3 == 0)
		return;
	if (type == GGML_TYPE_F32) {
		put_edge16(b, 0);
		put_edge16(b + 2, h & 0x0200 ? 0x7fc1 : (h & 0x8000) | 0x7f80);
	} else if (type == GGML_TYPE_BF16)
		put_edge16(b, h & 0x0200 ? 0x7fc1 : (h & 0x8000) | 0x7f80);
	else if (type == GGML_TYPE_MXFP4)
		b[0] = 0xff;
	else if (type == GGML_TYPE_IQ1_M)
		for (k = 0; k < 4; k++)
			b[49 + 2 * k] = (uint8_t)((b[49 + 2 * k] & 0x0f) |
			    (h >> 4 * k & 15) << 4);
	else if ((nf = kernel_fp16_factors(type, off)) > 0)
		put_edge16(b + off[(r >> 24) % nf], h);
	else if (type == GGML_TYPE_F16)
		put_edge16(b, h);
}

/*
 * MXFP4 scales of 253 and 254 are valid for ggml, but 12 * 2^(e - 128)
 * overflows: their values dequantize to infinity, and the screen counts
 * them (as D001 does). Outside the comparison: such scales become 252.
 */
static void
mxfp4_finite(uint32_t type, uint8_t *row, size_t nblk)
{
	size_t i;

	for (i = 0; type == GGML_TYPE_MXFP4 && i < nblk; i++)
		if (row[17 * i] > 252 && row[17 * i] < 255)
			row[17 * i] = 252;
}

/* The cases: every type with a screen and a dequantizer. */
static size_t
validate_cases(struct validate_case *c, uint64_t *s)
{
	const struct kernel *k;
	size_t n = 0, r;

	for (k = kernels; k->name != NULL; k++) {
		const struct ggml_type_info *t = ggml_type_get(k->type);
		size_t nblk = t->blck == 1 ? 64 : 4;

		if (k->op != KERNEL_DEQUANT ||
		    k->order != KERNEL_ORDER_AS_STORED ||
		    !kernel_screen_has(k->type))
			continue;
		cr_assert(n < MAX_TYPES);
		c[n].type = k->type;
		c[n].n = nblk * t->blck;
		c[n].bytes = nblk * t->size;
		c[n].rows = xmalloc(VROWS * c[n].bytes);
		for (r = 0; r < VROWS; r++) {
			uint8_t *row = c[n].rows + r * c[n].bytes;
			struct kernel_screen ks = { 0, 0, false, false };

			rand_row(k->type, row, nblk, s);
			mxfp4_finite(k->type, row, nblk);
			corrupt_row(k->type, row, nblk, s);
			cr_assert(kernel_screen(k->type, row, c[n].n, &ks));
			c[n].ours[r] = ks.nonfinite == 0;
		}
		n++;
	}
	return n;
}

static void
validate_child(const char *lib, const struct validate_case *c, size_t n,
    struct validate_reply *reply)
{
	bool (*validate)(int, const void *, size_t);
	size_t i, r;

	*(void **)&validate = oracle_symbol(lib, "ggml_validate_row_data",
	    reply->error, sizeof reply->error);
	if (freopen("/dev/null", "w", stderr) == NULL)	/* its messages */
		_exit(4);
	for (i = 0; i < n; i++, reply->done++)
		for (r = 0; r < VROWS; r++)
			reply->valid[i][r] = validate((int)c[i].type,
			    c[i].rows + r * c[i].bytes, c[i].bytes);
	_exit(0);
}

/*
 * What llama.cpp's loader checks (--check-tensors: ggml_validate_row_data)
 * and what the screens say agree: a row is invalid for ggml exactly when
 * the screen finds NaN or infinite values in it (IQ1_M's d rebuilt from
 * its nibbles by both), on rows with and without a bad factor.
 */
Test(iquants, screens_agree_with_ggml_validation)
{
	static struct validate_case c[MAX_TYPES];
	struct validate_reply *reply;
	uint64_t s = 0x7a11dull;
	size_t n, i, r, bad = 0;
	char lib[4096];
	pid_t pid;

	oracle_lib(lib, sizeof lib);
	reply = mmap(NULL, sizeof *reply, PROT_READ | PROT_WRITE,
	    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	cr_assert(reply != MAP_FAILED);
	n = validate_cases(c, &s);
	pid = fork();
	if (pid == 0)
		validate_child(lib, c, n, reply);
	oracle_wait(pid, lib, reply->error, &reply->done, n);
	for (i = 0; i < n; i++) {
		const char *name = ggml_type_get(c[i].type)->name;
		size_t invalid = 0, differ = 0;

		for (r = 0; r < VROWS; r++) {
			invalid += !reply->valid[i][r];
			differ += reply->valid[i][r] != c[i].ours[r];
		}
		cr_log_info("%-8s %d rows, %zu invalid for ggml, %zu judged "
		    "otherwise by the screen", name, VROWS, invalid, differ);
		cr_expect(differ == 0, "%s: the screen and ggml disagree on "
		    "%zu of %d rows", name, differ, VROWS);
		bad += differ;
		free(c[i].rows);
	}
	cr_assert(n > 0 && bad == 0);
	munmap(reply, sizeof *reply);
}

/* ---- zero-scale blocks as ggml's quantizers write them (D004) ---- */

#define ZS_COLS 256
#define ZS_ROWS 8
#define ZS_ROW_MAX 512		/* bytes of a row of 256, at most (q8_0: 272) */

/* The types kernel_zero_scale reads that ggml_quantize_chunk writes. */
static const uint32_t zs_types[] = {
	GGML_TYPE_Q4_0, GGML_TYPE_Q4_1, GGML_TYPE_Q5_0, GGML_TYPE_Q5_1,
	GGML_TYPE_Q8_0, GGML_TYPE_Q1_0, GGML_TYPE_Q2_0, GGML_TYPE_Q2_K,
	GGML_TYPE_Q3_K, GGML_TYPE_Q4_K, GGML_TYPE_Q5_K, GGML_TYPE_Q6_K,
	GGML_TYPE_IQ4_NL, GGML_TYPE_IQ4_XS, GGML_TYPE_TQ1_0, GGML_TYPE_TQ2_0,
};

#define N_ZS (sizeof zs_types / sizeof zs_types[0])

/* What the child writes back: each type's rows, without and with an
 * importance matrix. */
struct zs_reply {
	char error[256];
	size_t done;
	size_t bytes[N_ZS][2];
	uint8_t rows[N_ZS][2][ZS_ROWS * ZS_ROW_MAX];
};

/* Rows 1 and 5 zeros, row 2 all -0.5, the others weights of about 0.05. */
static void
zs_source(float *x)
{
	uint64_t s = 0x2e50ull;
	size_t r, i;

	for (r = 0; r < ZS_ROWS; r++)
		for (i = 0; i < ZS_COLS; i++)
			x[r * ZS_COLS + i] = r % 4 == 1 ? 0.0f : r == 2 ?
			    -0.5f : (float)((double)(rng_next(&s) >> 11) *
			    0x1p-53 - 0.5) * 0.1f;
}

static void
zs_child(const char *lib, struct zs_reply *reply)
{
	size_t (*quantize)(int, const float *, void *, int64_t, int64_t,
	    int64_t, const float *);
	static float x[ZS_ROWS * ZS_COLS], im[ZS_COLS];
	size_t i, k;

	*(void **)&quantize = oracle_symbol(lib, "ggml_quantize_chunk",
	    reply->error, sizeof reply->error);
	zs_source(x);
	for (i = 0; i < ZS_COLS; i++)
		im[i] = 1.0f;
	for (i = 0; i < N_ZS; i++, reply->done++)
		for (k = 0; k < 2; k++)
			reply->bytes[i][k] = quantize((int)zs_types[i], x,
			    reply->rows[i][k], 0, ZS_ROWS, ZS_COLS,
			    k ? im : NULL);
	_exit(0);
}

/*
 * ggml's quantizers, with and without an importance matrix, on rows of
 * weights, of zeros and of a constant: the zeros come out as blocks with
 * a zero scale that kernel_zero_scale counts benign, and no block is ever
 * counted hidden. This is what keeps D004 quiet on real models.
 */
Test(iquants, zero_scale_blocks_of_ggml_quantizers_are_benign)
{
	struct zs_reply *reply;
	char lib[4096];
	size_t i, k;
	pid_t pid;

	oracle_lib(lib, sizeof lib);
	reply = mmap(NULL, sizeof *reply, PROT_READ | PROT_WRITE,
	    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	cr_assert(reply != MAP_FAILED);
	pid = fork();
	if (pid == 0)
		zs_child(lib, reply);
	oracle_wait(pid, lib, reply->error, &reply->done, N_ZS);
	for (i = 0; i < N_ZS; i++) {
		const struct ggml_type_info *t = ggml_type_get(zs_types[i]);
		uint64_t zero_blocks = 2 * ZS_COLS / t->blck;

		for (k = 0; k < 2; k++) {
			struct kernel_zero_scale z = { 0, 0 };

			cr_assert_eq(reply->bytes[i][k], ZS_ROWS *
			    kernel_row_bytes(zs_types[i], ZS_COLS), "%s",
			    t->name);
			cr_assert(kernel_zero_scale(zs_types[i],
			    reply->rows[i][k], ZS_ROWS * ZS_COLS, &z));
			cr_log_info("%-7s %s: %llu benign, %llu hidden",
			    t->name, k ? "imatrix" : "plain  ",
			    (unsigned long long)z.benign,
			    (unsigned long long)z.hidden);
			cr_expect(z.hidden == 0 && z.benign >= zero_blocks,
			    "%s%s: %llu hidden, %llu benign of %llu zero "
			    "blocks", t->name, k ? " (imatrix)" : "",
			    (unsigned long long)z.hidden,
			    (unsigned long long)z.benign,
			    (unsigned long long)zero_blocks);
		}
	}
	munmap(reply, sizeof *reply);
}

/* ---- known values of the grid i-quants ---- */

static void
put16(uint8_t *p, unsigned v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static void
put32(uint8_t *p, uint32_t v)
{
	put16(p, v & 0xffff);
	put16(p + 2, v >> 16);
}

/* Element j of a grid point as ggml-common.h writes it: byte j. */
static float
pt(uint64_t point, int j)
{
	return (float)(point >> (8 * j) & 0xff);
}

/* The same for the IQ1 grid, whose bytes are int8 -1, 0, 1. */
static float
pt1(uint64_t point, int j)
{
	return (float)(int8_t)(point >> (8 * j) & 0xff);
}

/*
 * check_block: the one block of 256 at row dequantizes to want exactly;
 * the dot with e_k gives want[k] exactly, with ones the sum.
 */
static void
check_block(uint32_t type, const uint8_t *row, const float *want)
{
	const struct kernel *dq = kernel_find(KERNEL_DEQUANT, type,
	    KERNEL_ORDER_AS_STORED);
	const struct kernel *dt = kernel_find(KERNEL_DOT, type,
	    KERNEL_ORDER_AS_STORED);
	float got[256], x[256] = { 0 }, d;
	double sum = 0.0, mag = 0.0;
	int i;

	cr_assert(dq != NULL && dt != NULL, "type %u has no kernels", type);
	dq->dequant(row, got, 256);
	for (i = 0; i < 256; i++)
		cr_assert(got[i] == want[i], "%s: element %d is %.9g, expected "
		    "%.9g", dq->name, i, (double)got[i], (double)want[i]);
	for (i = 0; i < 256; i++) {
		x[i] = 1.0f;
		d = dt->dot(row, x, 256);
		cr_assert(d == want[i], "%s: dot with e_%d is %.9g, expected "
		    "%.9g", dt->name, i, (double)d, (double)want[i]);
		x[i] = 0.0f;
	}
	for (i = 0; i < 256; i++) {
		x[i] = 1.0f;
		sum += want[i];
		mag += fabs(want[i]);
	}
	d = dt->dot(row, x, 256);
	cr_assert(fabs(d - sum) <= 1e-4 * (1.0 + mag), "%s: dot with ones is "
	    "%.9g, expected %.9g", dt->name, (double)d, sum);
}

/* Fill want[from..to) with v. */
static void
fill(float *want, int from, int to, float v)
{
	while (from < to)
		want[from++] = v;
}

/*
 * IQ2_XXS, d = 0.5. Sub-block 0: points 0, 1, 2, 255, sign indices 0, 1,
 * 3, 127 (signs 0x00, 0x81, 0x03, 0xff: the eighth bit evens the count),
 * s = 15: dl = 0.5 * 15.5 / 4 = 1.9375. Sub-blocks 1-6 all zero: point 0
 * (all 8) at dl = 0.0625; sub-block 7 s = 1: dl = 0.1875.
 */
Test(iquants, known_iq2_xxs)
{
	static const uint64_t p[4] = { 0x0808080808080808,
		0x080808080808082b, 0x0808080808081919, 0x2b2b2b1908081908 };
	static const unsigned sg[4] = { 0x00, 0x81, 0x03, 0xff };
	uint8_t b[66] = { 0x00, 0x38, 0, 1, 2, 255 };
	float want[256];
	int g, j;

	put32(b + 6, 1u << 7 | 3u << 14 | 127u << 21 | 15u << 28);
	put32(b + 2 + 56 + 4, 1u << 28);
	for (g = 0; g < 4; g++)
		for (j = 0; j < 8; j++)
			want[8 * g + j] = (sg[g] >> j & 1 ? -1.9375f :
			    1.9375f) * pt(p[g], j);
	fill(want, 32, 224, 0.5f);
	fill(want, 224, 256, 1.5f);
	cr_assert_eq(want[8], -83.3125f);	/* -43 * 1.9375 */
	cr_assert_eq(want[9], 15.5f);
	cr_assert_eq(want[16], -48.4375f);	/* -25 * 1.9375 */
	cr_assert_eq(want[31], -83.3125f);
	check_block(GGML_TYPE_IQ2_XXS, b, want);
}

/*
 * IQ2_XS, d = 0.25. Sub-block 0: (point, sign index) (1, 0), (300, 1),
 * (511, 127), (0, 2): signs 0x00, 0x81, 0xff, 0x82; scales[0] = 0x3f: s =
 * 15 for groups 0-1 (dl = 0.96875), 3 for groups 2-3 (dl = 0.21875).
 * The rest zero: point 0 at dl = 0.03125.
 */
Test(iquants, known_iq2_xs)
{
	static const uint64_t p[4] = { 0x080808080808082b,
		0x1908190808191908, 0x2b2b2b2b2b2b2b2b, 0x0808080808080808 };
	static const unsigned sg[4] = { 0x00, 0x81, 0xff, 0x82 };
	static const float dl[4] = { 0.96875f, 0.96875f, 0.21875f, 0.21875f };
	uint8_t b[74] = { 0x00, 0x34 };
	float want[256];
	int g, j;

	put16(b + 2, 1);
	put16(b + 4, 300 | 1 << 9);
	put16(b + 6, 511 | 127 << 9);
	put16(b + 8, 0 | 2 << 9);
	b[66] = 0x3f;
	for (g = 0; g < 4; g++)
		for (j = 0; j < 8; j++)
			want[8 * g + j] = (sg[g] >> j & 1 ? -dl[g] : dl[g]) *
			    pt(p[g], j);
	fill(want, 32, 256, 0.25f);
	cr_assert_eq(want[0], 41.65625f);	/* 43 * 0.96875 */
	cr_assert_eq(want[8], -7.75f);		/* -8 * 0.96875 */
	cr_assert_eq(want[9], 24.21875f);	/* 25 * 0.96875 */
	cr_assert_eq(want[23], -9.40625f);	/* -43 * 0.21875 */
	cr_assert_eq(want[31], -1.75f);		/* -8 * 0.21875 */
	check_block(GGML_TYPE_IQ2_XS, b, want);
}

/*
 * IQ2_S, d = 1. Sub-block 0: points 1, 256, 700, 1023 (low bytes in qs,
 * bits 8-9 in qh[0] = 0 | 1 << 2 | 2 << 4 | 3 << 6), signs 0x00, 0xff,
 * 0x0f, 0x80 as they are, scales[0] = 0x21: dl = 0.375 (groups 0-1),
 * 0.625 (2-3). The rest zero: point 0 at dl = 0.125.
 */
Test(iquants, known_iq2_s)
{
	static const uint64_t p[4] = { 0x080808080808082b,
		0x0819081919191919, 0x1919082b2b080808, 0x2b2b2b2b2b2b2b2b };
	static const unsigned sg[4] = { 0x00, 0xff, 0x0f, 0x80 };
	static const float dl[4] = { 0.375f, 0.375f, 0.625f, 0.625f };
	uint8_t b[82] = { 0x00, 0x3c, 0x01, 0x00, 0xbc, 0xff };
	float want[256];
	int g, j;

	for (g = 0; g < 4; g++)
		b[34 + g] = (uint8_t)sg[g];
	b[66] = 0xe4;
	b[74] = 0x21;
	for (g = 0; g < 4; g++)
		for (j = 0; j < 8; j++)
			want[8 * g + j] = (sg[g] >> j & 1 ? -dl[g] : dl[g]) *
			    pt(p[g], j);
	fill(want, 32, 256, 1.0f);
	cr_assert_eq(want[8], -9.375f);		/* -25 * 0.375 */
	cr_assert_eq(want[19], -26.875f);	/* element 3 of 700: 43 */
	cr_assert_eq(want[22], 15.625f);	/* element 6 of 700: 25 */
	cr_assert_eq(want[31], -26.875f);	/* -43 * 0.625 */
	check_block(GGML_TYPE_IQ2_S, b, want);
}

/*
 * IQ3_XXS, d = 0.5. Sub-block 0: points (0, 1), (2, 100), (255, 0), (1,
 * 2) for the halves of its 4 groups, sign indices 0, 1, 72, 127 (0x00,
 * 0x81, 0x48, 0xff), s = 15: dl = 0.5 * 15.5 / 2 = 3.875. The rest zero:
 * point 0 (all 4) at dl = 0.125.
 */
Test(iquants, known_iq3_xxs)
{
	static const uint64_t p[8] = { 0x04040404, 0x04040414, 0x04040424,
		0x14040c1c, 0x3e341c04, 0x04040404, 0x04040414, 0x04040424 };
	static const unsigned sg[4] = { 0x00, 0x81, 0x48, 0xff };
	uint8_t b[98] = { 0x00, 0x38, 0, 1, 2, 100, 255, 0, 1, 2 };
	float want[256];
	int g, j;

	put32(b + 66, 1u << 7 | 72u << 14 | 127u << 21 | 15u << 28);
	for (g = 0; g < 4; g++)
		for (j = 0; j < 8; j++)
			want[8 * g + j] = (sg[g] >> j & 1 ? -3.875f :
			    3.875f) * pt(p[2 * g + j / 4], j % 4);
	fill(want, 32, 256, 0.5f);
	cr_assert_eq(want[4], 77.5f);		/* 20 * 3.875 */
	cr_assert_eq(want[15], -77.5f);		/* element 3 of point 100 */
	cr_assert_eq(want[19], -240.25f);	/* 62 * 3.875, negated */
	cr_assert_eq(want[22], -15.5f);		/* 4 * 3.875, negated */
	cr_assert_eq(want[23], 15.5f);
	check_block(GGML_TYPE_IQ3_XXS, b, want);
}

/*
 * IQ3_S, d = 0.25. Sub-block 0: points 0, 1, 256, 300, 511, 0, 0, 0
 * (low bytes in qs, bit 8 of point k in bit k of qh[0] = 0x1c), signs
 * 0x00, 0xf0, 0x05, 0xaa, scales[0] = 0x27: s = 7 for sub-block 0 (dl =
 * 0.25 * 15 = 3.75), 2 for sub-block 1 (1.25). The rest: point 0 (all 1)
 * at dl = 0.25.
 */
Test(iquants, known_iq3_s)
{
	static const uint64_t p[8] = { 0x01010101, 0x01010103, 0x05090507,
		0x07030503, 0x0f0f0101, 0x01010101, 0x01010101, 0x01010101 };
	static const unsigned sg[4] = { 0x00, 0xf0, 0x05, 0xaa };
	uint8_t b[110] = { 0x00, 0x34, 0x00, 0x01, 0x00, 0x2c, 0xff };
	float want[256];
	int g, j;

	b[66] = 0x1c;
	for (g = 0; g < 4; g++)
		b[74 + g] = (uint8_t)sg[g];
	b[106] = 0x27;
	for (g = 0; g < 4; g++)
		for (j = 0; j < 8; j++)
			want[8 * g + j] = (sg[g] >> j & 1 ? -3.75f : 3.75f) *
			    pt(p[2 * g + j / 4], j % 4);
	fill(want, 32, 64, 1.25f);
	fill(want, 64, 256, 0.25f);
	cr_assert_eq(want[4], 11.25f);		/* 3 * 3.75 */
	cr_assert_eq(want[10], 33.75f);		/* 9 * 3.75 */
	cr_assert_eq(want[15], -26.25f);	/* -7 * 3.75 */
	cr_assert_eq(want[16], -3.75f);		/* bit 0 of 0x05 */
	cr_assert_eq(want[18], -56.25f);	/* 15 * 3.75, bit 2 */
	cr_assert_eq(want[19], 56.25f);		/* 15 * 3.75 */
	check_block(GGML_TYPE_IQ3_S, b, want);
}

/*
 * IQ1_S, d = 0.5. Sub-block 0: points 0, 1, 256, 1000 (low bytes in qs,
 * bits 8-10 in qh[0] bits 3l..), s = 7, delta negative: qh[0] = 0xf640,
 * dl = 7.5, y = 7.5 * (level - 1/8). Sub-block 1: point 2047 (all +1) four
 * times, s = 4 (bit 14), delta positive (bit 15 clear): qh[1] = 0x4fff,
 * 0.5 * 9 * 1.125. The rest zero: point 0 (all -1) at 0.5 * -0.875.
 */
Test(iquants, known_iq1_s)
{
	static const uint64_t p[4] = { 0xffffffffffffffff,
		0xffffffffffffff01, 0xff00ff01000100ff, 0x00000000ffff00ff };
	uint8_t b[50] = { 0x00, 0x38, 0x00, 0x01, 0x00, 0xe8, 0xff, 0xff,
		0xff, 0xff };
	float want[256];
	int g, j;

	put16(b + 34, 0xf640);
	put16(b + 36, 0x4fff);
	for (g = 0; g < 4; g++)
		for (j = 0; j < 8; j++)
			want[8 * g + j] = 7.5f * (pt1(p[g], j) - 0.125f);
	fill(want, 32, 64, 5.0625f);
	fill(want, 64, 256, -0.4375f);
	cr_assert_eq(want[0], -8.4375f);	/* 7.5 * -1.125 */
	cr_assert_eq(want[8], 6.5625f);		/* 7.5 * 0.875 */
	cr_assert_eq(want[17], -0.9375f);	/* 7.5 * -0.125 */
	check_block(GGML_TYPE_IQ1_S, b, want);
}

/*
 * IQ1_M, d = 0.25 (fp16 0x3400: nibbles 0, 0, 4, 3 from the lowest, in
 * the top nibbles of sc0..sc3). sc0 = 0x0057: sub-block 0 s = 7 (groups
 * 0-1, dl = 3.75) and 2 (groups 2-3, dl = 1.25), sub-block 1 s = 1 (0.75)
 * and 0 (0.25). Sub-block 0: points 1, 256, 1000, 2047, qh = 0x90 (group
 * 1: bits 8-10 = 1, delta negative), 0x7b (group 2: 3, negative; group
 * 3: 7, positive). The rest: point 0 (all -1), delta positive.
 */
Test(iquants, known_iq1_m)
{
	static const uint64_t p[4] = { 0xffffffffffffff01,
		0xff00ff01000100ff, 0x00000000ffff00ff, 0x0101010101010101 };
	static const float dl[4] = { 3.75f, 3.75f, 1.25f, 1.25f };
	static const float delta[4] = { 0.125f, -0.125f, -0.125f, 0.125f };
	uint8_t b[56] = { 0x01, 0x00, 0xe8, 0xff };
	float want[256];
	int g, j;

	b[32] = 0x90;
	b[33] = 0x7b;
	put16(b + 48, 0x0057);
	put16(b + 52, 0x4000);
	put16(b + 54, 0x3000);
	for (g = 0; g < 4; g++)
		for (j = 0; j < 8; j++)
			want[8 * g + j] = dl[g] * (pt1(p[g], j) + delta[g]);
	fill(want, 32, 48, -0.65625f);	/* 0.75 * -0.875 */
	fill(want, 48, 256, -0.21875f);	/* 0.25 * -0.875 */
	cr_assert_eq(want[0], 4.21875f);	/* 3.75 * 1.125 */
	cr_assert_eq(want[1], -3.28125f);	/* 3.75 * -0.875 */
	cr_assert_eq(want[9], -0.46875f);	/* 3.75 * -0.125 */
	cr_assert_eq(want[31], 1.40625f);	/* 1.25 * 1.125 */
	check_block(GGML_TYPE_IQ1_M, b, want);
}

/* ---- the capability probe ---- */

static const uint32_t grid_types[] = {
	GGML_TYPE_IQ2_XXS, GGML_TYPE_IQ2_XS, GGML_TYPE_IQ2_S,
	GGML_TYPE_IQ3_XXS, GGML_TYPE_IQ3_S, GGML_TYPE_IQ1_S, GGML_TYPE_IQ1_M,
};

#define N_GRID_TYPES (sizeof grid_types / sizeof grid_types[0])

/*
 * The probe's data holds finite values only: its scales are finite in
 * every block (IQ1_M's d, split in nibbles, too), on rows enough for a
 * random d to have come out NaN or infinite many times over.
 */
Test(iquants, probe_data_has_finite_scales)
{
	size_t i, t;

	for (t = 0; t < N_GRID_TYPES; t++) {
		size_t bytes = kernel_row_bytes(grid_types[t], PROBE_ELEMENTS);
		uint8_t *row = xmalloc(bytes);
		uint64_t rng = 42 + t;

		for (i = 0; i < 256; i++) {
			struct kernel_screen ks = { 0, 0, false, false };

			probe_fill(grid_types[t], row, PROBE_ELEMENTS, &rng);
			cr_assert(kernel_screen(grid_types[t], row,
			    PROBE_ELEMENTS, &ks));
			cr_assert(ks.nonfinite == 0 && ks.maybe_nonzero,
			    "type %u: row %zu has %llu values not finite",
			    grid_types[t], i, (unsigned long long)ks.nonfinite);
		}
		free(row);
	}
}

/*
 * The tables of the backends that run the grid i-quants (cpu, cuda,
 * metal) claim matmul and get_rows for each, and the probe verifies all
 * of them.
 */
Test(iquants, shipped_tables_claim_and_verify_the_grid_types)
{
	static const char *const tables[] = { "cpu", "cuda", "metal" };
	struct gl_error err;
	size_t ti, t, i;

	for (ti = 0; ti < 3; ti++) {
		struct captable tab;
		unsigned seen[N_GRID_TYPES] = { 0 };

		cr_assert(captable_load(tables[ti], &tab, &err) == 0, "%s",
		    err.msg);
		captable_probe(&tab, NULL);
		for (i = 0; i < tab.n; i++) {
			const struct cap_entry *e = &tab.entries[i];

			for (t = 0; t < N_GRID_TYPES; t++) {
				if (e->encoding != grid_types[t])
					continue;
				cr_expect(e->verified, "%s: %s: %s",
				    tables[ti], e->kernel_name, e->error);
				if (e->verified)
					seen[t] |= 1u << e->op;
				cr_log_info("%s %-22s error %.3g", tables[ti],
				    e->kernel_name, e->max_error);
			}
		}
		for (t = 0; t < N_GRID_TYPES; t++)
			cr_expect(seen[t] == 3, "%s: type %u: matmul %s, "
			    "get_rows %s", tables[ti], grid_types[t],
			    seen[t] & 1 ? "ok" : "missing",
			    seen[t] & 2 ? "ok" : "missing");
		captable_free(&tab);
	}
}
