/*
 * oracle-gen.c - writes the oracle's sparse models (oraclegen.h) for
 * tests/oracle/measure.sh: oracle-gen --list prints the architectures,
 * one a line; oracle-gen DIR [WTYPE [ARCH...]] writes
 * DIR/ARCH.gguf for each architecture (all of them by default), matrices
 * in WTYPE (q4_0 by default), and says on stderr which it could not.
 * Exit 0 when every model was written, 1 otherwise.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "oraclegen.h"

static int
gen_one(const char *dir, const char *wtype, const char *arch)
{
	char path[4096], why[512];

	snprintf(path, sizeof path, "%s/%s.gguf", dir, arch);
	if (oraclegen_write(arch, wtype, path, why, sizeof why) != 0) {
		fprintf(stderr, "oracle-gen: %s: %s\n", arch, why);
		return 1;
	}
	printf("%s\n", path);
	return 0;
}

int
main(int argc, char **argv)
{
	const char *wtype = argc > 2 ? argv[2] : "q4_0";
	int bad = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: oracle-gen DIR [WTYPE [ARCH...]]\n");
		return 2;
	}
	if (strcmp(argv[1], "--list") == 0) {
		for (size_t i = 0; oraclegen_arch(i) != NULL; i++)
			printf("%s\n", oraclegen_arch(i));
		return 0;
	}
	if (argc > 3) {
		for (int i = 3; i < argc; i++)
			bad |= gen_one(argv[1], wtype, argv[i]);
		return bad;
	}
	for (size_t i = 0; oraclegen_arch(i) != NULL; i++)
		bad |= gen_one(argv[1], wtype, oraclegen_arch(i));
	return bad;
}
