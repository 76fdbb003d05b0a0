/*
 * gen-slow.c - headers built to be slow, for the linear-time benchmark and
 * the resource-bound tests: gen-slow OUT N KIND writes a GGUF whose header
 * has N records of KIND:
 *   keys        N distinct u32 keys
 *   dupkeys     N copies of the same key
 *   tensors     N distinct f32 tensors of 8 elements (data included)
 *   duptensors  N tensors of the same name
 *   nested      one array nested N deep
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ggufw.h"

static void
keys(struct ggufw *w, unsigned long n, int dup)
{
	char key[32];
	unsigned long i;

	ggufw_header(w, "GGUF", 3, 0, n);
	for (i = 0; i < n; i++) {
		snprintf(key, sizeof key, "k.%08lu", dup ? 0UL : i);
		ggufw_kv_u32(w, key, (uint32_t)i);
	}
}

static void
tensors(struct ggufw *w, unsigned long n, int dup)
{
	const int64_t ne[] = { 8 };
	char name[32];
	unsigned long i;

	ggufw_header(w, "GGUF", 3, n, 0);
	for (i = 0; i < n; i++) {
		snprintf(name, sizeof name, "t.%08lu", dup ? 0UL : i);
		ggufw_tensor_info(w, name, 1, ne, 0, (uint64_t)i * 32);
	}
	ggufw_pad(w, 32);
	for (i = 0; i < n * 32; i++)
		ggufw_u8(w, 0);
}

static void
nested(struct ggufw *w, unsigned long n)
{
	unsigned long i;

	ggufw_header(w, "GGUF", 3, 0, 1);
	ggufw_kv_arr_begin(w, "deep", GGUFW_ARRAY, 1);
	for (i = 1; i < n; i++) {
		ggufw_i32(w, GGUFW_ARRAY);
		ggufw_u64(w, 1);
	}
	ggufw_i32(w, GGUFW_UINT8);
	ggufw_u64(w, 0);
}

int
main(int argc, char **argv)
{
	struct ggufw w;
	unsigned long n;

	if (argc != 4) {
		fputs("usage: gen-slow OUT N keys|dupkeys|tensors|duptensors|"
		    "nested\n", stderr);
		return 2;
	}
	n = strtoul(argv[2], NULL, 10);
	ggufw_init(&w, false);
	if (strcmp(argv[3], "keys") == 0 || strcmp(argv[3], "dupkeys") == 0)
		keys(&w, n, argv[3][0] == 'd');
	else if (strcmp(argv[3], "tensors") == 0 ||
	    strcmp(argv[3], "duptensors") == 0)
		tensors(&w, n, argv[3][0] == 'd');
	else if (strcmp(argv[3], "nested") == 0)
		nested(&w, n);
	else
		return 2;
	if (ggufw_write_file(argv[1], w.out.buf, w.out.len) < 0) {
		perror(argv[1]);
		return 1;
	}
	ggufw_free(&w);
	return 0;
}
