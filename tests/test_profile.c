/*
 * test_profile.c - device profiles: every built-in profile loads with sane
 * values, SKaiNET's four carry SKaiNET's numbers, sizes parse and print,
 * bad profile files are reported at file:line:col with what was expected,
 * a data directory overrides the built-in copy, a failure to load carries
 * its kind, and the man page lists every built-in profile and shows an
 * example that parses.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/units.h"
#include "data/builtin.h"
#include "target/captable.h"
#include "target/profile.h"
#include "testutil.h"

/* The built-in profiles this version ships (sorted). */
static const char *const expected_builtins[] = {
	"desktop", "edge", "gpu_24gb", "gpu_8gb", "jetson_orin_nano_8gb",
	"laptop_16gb", "mac_16gb", "mobile_2gb", "mobile_4gb", "mobile_8gb",
	"native", "rpi5_8gb",
};
#define N_EXPECTED (sizeof expected_builtins / sizeof expected_builtins[0])

#define MiB (1ull << 20)
#define GiB (1ull << 30)

/* Built-in tests read the compiled-in copies, whatever is installed. */
static void
no_datadir(void)
{
	setenv("GGUFLINT_DATADIR", "/nonexistent/gguflint-test", 1);
}

static void
load_builtin(const char *name, struct profile *p)
{
	struct gl_error err;

	cr_assert(profile_load(name, p, &err) == 0, "%s: %s", name, err.msg);
}

/* ---- built-in profiles --------------------------------------------------- */

Test(profile, builtin_names_are_sorted_and_complete, .init = no_datadir)
{
	const char *const *names = profile_builtin_names();
	size_t n, i, j;

	cr_assert(names != NULL);
	for (n = 0; names[n] != NULL; n++)
		if (n > 0)
			cr_assert(strcmp(names[n - 1], names[n]) < 0,
			    "not sorted: %s before %s", names[n - 1],
			    names[n]);
	cr_assert(n >= N_EXPECTED, "only %zu built-in profiles", n);
	for (i = 0; i < N_EXPECTED; i++) {
		for (j = 0; j < n; j++)
			if (strcmp(names[j], expected_builtins[i]) == 0)
				break;
		cr_expect(j < n, "built-in profile %s is missing",
		    expected_builtins[i]);
	}
	/* static storage: a second call gives the same list */
	cr_assert(profile_builtin_names() == names);
}

Test(profile, every_builtin_loads_with_sane_values, .init = no_datadir)
{
	const char *const *names = profile_builtin_names();
	size_t i;

	for (i = 0; names[i] != NULL; i++) {
		struct profile p;
		const char *k;

		load_builtin(names[i], &p);
		cr_expect_str_eq(p.name, names[i]);
		cr_expect(p.description != NULL && *p.description != '\0',
		    "%s has no description", names[i]);
		cr_expect(strchr(p.description, '\n') == NULL,
		    "%s: description is not one line", names[i]);
		cr_expect(p.memory > p.reserve, "%s: memory %llu <= reserve "
		    "%llu", names[i], (unsigned long long)p.memory,
		    (unsigned long long)p.reserve);
		cr_expect(p.memory >= 1 * GiB && p.memory <= 1024 * GiB,
		    "%s: memory %llu", names[i],
		    (unsigned long long)p.memory);
		cr_expect(p.prefill_chunk > 0, "%s: prefill 0", names[i]);
		cr_expect(p.ubatch > 0, "%s: ubatch 0", names[i]);
		cr_expect(p.context >= 512 && p.context % 256 == 0,
		    "%s: context %llu", names[i],
		    (unsigned long long)p.context);
		cr_expect(p.kv_auto_quantize_above > 0 &&
		    p.kv_auto_quantize_above <= 1.0, "%s: auto %g", names[i],
		    p.kv_auto_quantize_above);
		cr_expect(kv_type_info(p.kv_quantized)->size * 32 /
		    kv_type_info(p.kv_quantized)->blck <
		    kv_type_info(p.kv_cache)->size * 32 /
		    kv_type_info(p.kv_cache)->blck,
		    "%s: kv_quantized is not smaller than kv_cache", names[i]);
		k = p.kernels;
		cr_assert(k != NULL, "%s: no kernels", names[i]);
		cr_expect(strcmp(k, "cpu") == 0 || strcmp(k, "mobile") == 0 ||
		    strcmp(k, "cuda") == 0 || strcmp(k, "metal") == 0,
		    "%s: kernels %s", names[i], k);
		cr_expect(p.origin != NULL && strstr(p.origin, names[i]),
		    "%s: origin %s", names[i], p.origin ? p.origin : "(null)");
		profile_free(&p);
	}
}

/* Each built-in file opens with a comment saying where its numbers come
 * from, and its name key equals its file name. */
Test(profile, every_builtin_file_starts_with_its_sources)
{
	size_t i, n = 0;

	for (i = 0; i < builtin_n_files; i++) {
		const struct builtin_file *f = &builtin_files[i];
		char *want;

		if (strncmp(f->name, "profiles/", 9) != 0)
			continue;
		n++;
		cr_expect(f->data[0] == '#', "%s does not start with a comment",
		    f->name);
		want = xasprintf("\nname: %.*s\n", (int)(strlen(f->name) - 14),
		    f->name + 9);
		cr_expect(strstr(f->data, want) != NULL, "%s lacks '%s'",
		    f->name, want + 1);
		free(want);
	}
	cr_assert(n >= N_EXPECTED);
}

Test(profile, skainet_profiles_have_skainet_values, .init = no_datadir)
{
	struct profile p;

	load_builtin("mobile_2gb", &p);
	cr_expect_eq(p.memory, 2 * GiB);
	cr_expect_eq(p.reserve, 734003200);
	cr_expect(p.strict);
	cr_expect_eq(p.weights, WEIGHTS_MAPPED);
	cr_expect_float_eq(p.kv_auto_quantize_above, 0.80, 1e-12);
	cr_expect_eq(p.kv_cache, KV_BF16);
	cr_expect_eq(p.kv_quantized, KV_TURBOQUANT4);
	cr_expect_eq(p.prefill_chunk, 256);
	cr_expect_eq(p.context, 2048);
	cr_expect_str_eq(p.kernels, "mobile");
	profile_free(&p);

	load_builtin("desktop", &p);
	cr_expect_eq(p.memory, 16 * GiB);
	cr_expect_eq(p.reserve, 734003200);
	cr_expect(!p.strict);
	cr_expect_eq(p.weights, WEIGHTS_HEAP);
	cr_expect_float_eq(p.kv_auto_quantize_above, 1.0, 1e-12);
	cr_expect_eq(p.kv_cache, KV_BF16);
	cr_expect_eq(p.kv_quantized, KV_TURBOQUANT4);
	cr_expect_eq(p.prefill_chunk, 256);
	cr_expect_eq(p.context, 4096);
	cr_expect_str_eq(p.kernels, "cpu");
	profile_free(&p);

	load_builtin("native", &p);
	cr_expect_eq(p.memory, 8 * GiB);
	cr_expect_eq(p.reserve, 314572800);
	cr_expect(!p.strict);
	cr_expect_eq(p.weights, WEIGHTS_HEAP);
	cr_expect_float_eq(p.kv_auto_quantize_above, 1.0, 1e-12);
	cr_expect_eq(p.kv_cache, KV_BF16);
	cr_expect_eq(p.kv_quantized, KV_TURBOQUANT4);
	cr_expect_eq(p.prefill_chunk, 256);
	cr_expect_eq(p.context, 4096);
	profile_free(&p);

	load_builtin("edge", &p);
	cr_expect_eq(p.memory, 2254857830ull);	/* 2.1 GiB, truncated */
	cr_expect_eq(p.reserve, 0);
	cr_expect(!p.strict);
	cr_expect_eq(p.weights, WEIGHTS_MAPPED);
	cr_expect_float_eq(p.kv_auto_quantize_above, 0.80, 1e-12);
	cr_expect_eq(p.kv_cache, KV_BF16);
	cr_expect_eq(p.kv_quantized, KV_TURBOQUANT4);
	cr_expect_eq(p.prefill_chunk, 256);
	cr_expect_eq(p.context, 2048);
	cr_expect_str_eq(p.kernels, "mobile");
	profile_free(&p);
}

Test(profile, device_profiles_use_llama_cpp_cache_types, .init = no_datadir)
{
	static const struct {
		const char *name;
		uint64_t memory;
		enum weights_residency weights;
		const char *kernels;
	} dev[] = {
		{ "mobile_4gb", 4 * GiB, WEIGHTS_MAPPED, "cpu" },
		{ "mobile_8gb", 8 * GiB, WEIGHTS_MAPPED, "cpu" },
		{ "rpi5_8gb", 8 * GiB, WEIGHTS_MAPPED, "cpu" },
		{ "jetson_orin_nano_8gb", 8 * GiB, WEIGHTS_MAPPED, "cuda" },
		{ "laptop_16gb", 16 * GiB, WEIGHTS_MAPPED, "cpu" },
		{ "gpu_8gb", 32 * GiB, WEIGHTS_MAPPED, "cuda" },
		{ "gpu_24gb", 32 * GiB, WEIGHTS_MAPPED, "cuda" },
		{ "mac_16gb", 16 * GiB, WEIGHTS_MAPPED, "metal" },
	};
	size_t i;

	for (i = 0; i < sizeof dev / sizeof dev[0]; i++) {
		struct profile p;

		load_builtin(dev[i].name, &p);
		cr_expect_eq(p.memory, dev[i].memory, "%s", dev[i].name);
		cr_expect_eq(p.weights, dev[i].weights, "%s", dev[i].name);
		cr_expect_str_eq(p.kernels, dev[i].kernels, "%s",
		    dev[i].name);
		cr_expect_eq(p.kv_cache, KV_F16, "%s", dev[i].name);
		cr_expect_eq(p.kv_quantized, KV_Q8_0, "%s", dev[i].name);
		cr_expect(!p.strict, "%s", dev[i].name);
		cr_expect(p.flash_attention, "%s", dev[i].name);
		cr_expect_eq(p.ubatch, 512, "%s", dev[i].name);
		profile_free(&p);
	}
	/* Metal's default working set on a 16 GB Mac: two thirds of RAM */
	{
		struct profile p;
		uint64_t budget;

		load_builtin("mac_16gb", &p);
		budget = p.memory - p.reserve;
		cr_expect(budget > 10922 * MiB && budget < 10924 * MiB,
		    "mac_16gb budget %llu", (unsigned long long)budget);
		profile_free(&p);
	}
}

/* ---- sizes --------------------------------------------------------------- */

static void
expect_size(const char *s, uint64_t want)
{
	uint64_t got = 0;

	cr_expect(parse_size(s, &got) == 0, "rejected \"%s\"", s);
	cr_expect_eq(got, want, "\"%s\": got %llu, want %llu", s,
	    (unsigned long long)got, (unsigned long long)want);
}

static void
expect_bad_size(const char *s)
{
	uint64_t got = 12345;

	cr_expect(parse_size(s, &got) < 0, "accepted \"%s\" as %llu", s,
	    (unsigned long long)got);
}

Test(profile, parse_size_accepts_binary_units)
{
	expect_size("2 GiB", 2147483648ull);
	expect_size("700 MiB", 734003200ull);
	expect_size("300 MiB", 314572800ull);
	expect_size("1.3G", 1395864371ull);	/* 1395864371.2, truncated */
	expect_size("1.5 GiB", 1610612736ull);
	expect_size("900MB", 943718400ull);	/* MB is binary too */
	expect_size("8G", 8589934592ull);
	expect_size("8 GB", 8589934592ull);
	expect_size("64k", 65536);
	expect_size("64K", 65536);
	expect_size("64 KiB", 65536);
	expect_size("64KB", 65536);
	expect_size("2 TiB", 2199023255552ull);
	expect_size("1T", 1099511627776ull);
	expect_size("123456", 123456);
	expect_size("512 B", 512);
	expect_size("0", 0);
	expect_size("1.9", 1);			/* a fraction of a byte */
	expect_size("0.5 GiB", 536870912);
	expect_size("1.25 KiB", 1280);
	expect_size("2.000000000000000000000001 KiB", 2048);
	expect_size("16777215 TiB", 18446742974197923840ull);
}

/* A fraction is truncated exactly: never rounded up to the next byte, or
 * to the next unit, however many nines it has. */
Test(profile, parse_size_truncates_exactly)
{
	expect_size("5.99999999999999999999", 5);
	expect_size("1.99999999999999999999K", 2047);
	expect_size("0.99999999999999999999999999999999999999999999999999 TiB",
	    1099511627775ull);
	expect_size("0.0009765625 KiB", 1);	/* exactly 1/1024 */
	expect_size("0.00097656249999999999999999 KiB", 0);
	expect_size("0.1 KiB", 102);		/* 102.4 */
	expect_size("0.30000000000000000000 GiB", 322122547);
	expect_size("16777214.99999999999999999999999999999999999999999999 TiB",
	    18446742974197923840ull - 1);
}

Test(profile, parse_size_rejects_what_is_not_a_size)
{
	expect_bad_size("lots");
	expect_bad_size("");
	expect_bad_size(" ");
	expect_bad_size("GiB");
	expect_bad_size("-1 GiB");
	expect_bad_size("-1");
	expect_bad_size("1 PiB");		/* unknown unit */
	expect_bad_size("2 XB");
	expect_bad_size("2 GiBs");
	expect_bad_size("2 G B");
	expect_bad_size("1.5.5 G");
	expect_bad_size("99999999999 TiB");	/* overflows 64 bits */
	expect_bad_size("16777216 TiB");	/* exactly 2^64 */
	expect_bad_size("18446744073709551616");
	expect_bad_size("nan");
	expect_bad_size("inf");
	/* fuzz-profile (CI): the fraction once went to strtod, which took
	 * the exponent and made inf, then an undefined conversion */
	expect_bad_size("4.1e555");
	expect_bad_size("1.5e3 GiB");
	expect_bad_size("1e3");
}

Test(profile, format_size_picks_a_readable_unit)
{
	char buf[32];

	cr_expect_str_eq(format_size(512, buf, sizeof buf), "512 B");
	cr_expect_str_eq(format_size(0, buf, sizeof buf), "0 B");
	cr_expect_str_eq(format_size(65536, buf, sizeof buf), "64 KiB");
	cr_expect_str_eq(format_size(734003200, buf, sizeof buf), "700 MiB");
	cr_expect_str_eq(format_size(1395864371, buf, sizeof buf),
	    "1.3 GiB");
	cr_expect_str_eq(format_size(2147483648ull, buf, sizeof buf),
	    "2.0 GiB");
	/* the buffer it was given is the one it returns */
	cr_expect(format_size(1, buf, sizeof buf) == buf);
	/* the largest size still fits a 32-byte buffer */
	format_size(UINT64_MAX, buf, sizeof buf);
	cr_expect(strlen(buf) < sizeof buf - 1, "%s", buf);
	cr_expect(strstr(buf, "TiB") != NULL, "%s", buf);
	cr_expect_str_eq(format_size(1ull << 40, buf, sizeof buf), "1.0 TiB");
}

/* ---- parsing ------------------------------------------------------------- */

/* A profile with the required keys, one a line (lines 1-5). */
#define BASE \
	"name: t\n" \
	"description: a test device\n" \
	"memory: 2 GiB\n" \
	"reserve: 700 MiB\n" \
	"weights: mapped\n"

static void
expect_error(const char *yaml, const char *where, const char *what)
{
	struct profile p;
	struct gl_error err;

	memset(&err, 0, sizeof err);
	cr_assert(profile_parse("t.yaml", yaml, strlen(yaml), &p, &err) < 0,
	    "accepted: %s", yaml);
	cr_expect(strstr(err.msg, where) != NULL, "want '%s' in: %s", where,
	    err.msg);
	cr_expect(strstr(err.msg, what) != NULL, "want '%s' in: %s", what,
	    err.msg);
}

Test(profile, minimal_profile_gets_the_defaults)
{
	struct profile p;
	struct gl_error err;

	cr_assert(profile_parse("t.yaml", BASE, strlen(BASE), &p, &err) == 0,
	    "%s", err.msg);
	cr_expect_str_eq(p.name, "t");
	cr_expect_str_eq(p.description, "a test device");
	cr_expect_str_eq(p.origin, "t.yaml");
	cr_expect_eq(p.memory, 2147483648ull);
	cr_expect_eq(p.reserve, 734003200ull);
	cr_expect_eq(p.weights, WEIGHTS_MAPPED);
	cr_expect(!p.strict);
	cr_expect_eq(p.context, 0);		/* the model's */
	cr_expect_eq(p.kv_cache, KV_F16);
	cr_expect_eq(p.kv_quantized, KV_Q8_0);
	cr_expect_float_eq(p.kv_auto_quantize_above, 1.0, 1e-12);
	cr_expect_eq(p.prefill_chunk, 256);
	cr_expect_eq(p.ubatch, 512);
	cr_expect(p.flash_attention);
	cr_expect_str_eq(p.kernels, "cpu");
	cr_expect_eq(p.device_overhead, PROFILE_UNKNOWN, "not stated");
	profile_free(&p);
}

/* device_overhead: read as a size, zero allowed, and never more than
 * the device keeps free of its reserve (the host's memory for a unified
 * GPU without device_memory) */
Test(profile, device_overhead_is_read_and_bounded)
{
	static const char gpu[] = BASE "runtime: llama.cpp\nbackend: cuda\n"
	    "device_memory: 8 GiB\ndevice_reserve: 1 GiB\n";
	static const char *const ok[] = { "device_overhead: 600 MiB\n",
	    "device_overhead: 0\n", "device_overhead: 7 GiB\n" };
	static const uint64_t want[] = { 600ull << 20, 0, 7ull << 30 };
	char yaml[512];
	struct profile p;
	struct gl_error err;
	size_t i;

	for (i = 0; i < 3; i++) {
		snprintf(yaml, sizeof yaml, "%s%s", gpu, ok[i]);
		cr_assert(profile_parse("t.yaml", yaml, strlen(yaml), &p,
		    &err) == 0, "%s: %s", ok[i], err.msg);
		cr_expect_eq(p.device_overhead, want[i], "%s", ok[i]);
		profile_free(&p);
	}
	snprintf(yaml, sizeof yaml, "%sdevice_overhead: 7169 MiB\n", gpu);
	expect_error(yaml, "t.yaml:1:1", "device_overhead");
	expect_error(BASE "unified: true\ndevice_overhead: 2 GiB\n",
	    "t.yaml:1:1", "device_overhead");
	expect_error(BASE "device_overhead: lots\n", "t.yaml:6:18", "size");
}

Test(profile, every_key_is_read)
{
	static const char yaml[] = BASE
	    "strict: true\n"
	    "context: 8192\n"
	    "kv_cache: q4_0\n"
	    "kv_quantized: iq4_nl\n"
	    "kv_auto_quantize_above: 0.5\n"
	    "prefill_chunk: 64\n"
	    "ubatch: 128\n"
	    "flash_attention: false\n"
	    "kernels: metal\n";
	struct profile p;
	struct gl_error err;

	cr_assert(profile_parse("t.yaml", yaml, strlen(yaml), &p, &err) == 0,
	    "%s", err.msg);
	cr_expect(p.strict);
	cr_expect_eq(p.context, 8192);
	cr_expect_eq(p.kv_cache, KV_Q4_0);
	cr_expect_eq(p.kv_quantized, KV_IQ4_NL);
	cr_expect_float_eq(p.kv_auto_quantize_above, 0.5, 1e-12);
	cr_expect_eq(p.prefill_chunk, 64);
	cr_expect_eq(p.ubatch, 128);
	cr_expect(!p.flash_attention);
	cr_expect_str_eq(p.kernels, "metal");
	profile_free(&p);
}

Test(profile, errors_name_the_place_and_what_was_expected)
{
	/* unknown key, at the key */
	expect_error(BASE "colour: red\n", "t.yaml:6:1", "unknown key");
	expect_error(BASE "Memory: 1 GiB\n", "t.yaml:6:1", "unknown key");
	/* wrong type, at the value */
	expect_error("name: t\ndescription: d\nmemory: [1]\n"
	    "reserve: 0\nweights: heap\n", "t.yaml:3:9", "size");
	expect_error("name: [t]\ndescription: d\nmemory: 1G\n"
	    "reserve: 0\nweights: heap\n", "t.yaml:1:7", "string");
	expect_error(BASE "strict: maybe\n", "t.yaml:6:9", "true or false");
	expect_error(BASE "context: lots\n", "t.yaml:6:10", "integer");
	expect_error(BASE "context: -4096\n", "t.yaml:6:10", "integer");
	expect_error(BASE "context: 4096.5\n", "t.yaml:6:10", "integer");
	expect_error(BASE "kernels: {a: b}\n", "t.yaml:6:10", "string");
	/* bad unit */
	expect_error("name: t\ndescription: d\nmemory: 2 XB\n"
	    "reserve: 0\nweights: heap\n", "t.yaml:3:9", "size");
	expect_error("name: t\ndescription: d\nmemory: 2 GiB\n"
	    "reserve: -1 MiB\nweights: heap\n", "t.yaml:4:10", "size");
	/* missing required key */
	expect_error("name: t\ndescription: d\nreserve: 0\nweights: heap\n",
	    "t.yaml:1:1", "missing required key 'memory'");
	expect_error("name: t\ndescription: d\nmemory: 1G\nreserve: 0\n",
	    "t.yaml:1:1", "'weights'");
	/* bad enumerations */
	expect_error("name: t\ndescription: d\nmemory: 1G\nreserve: 0\n"
	    "weights: disk\n", "t.yaml:5:10", "mapped or heap");
	expect_error(BASE "kv_cache: q3_k\n", "t.yaml:6:11", "KV cache type");
	expect_error(BASE "kv_cache: F16\n", "t.yaml:6:11", "KV cache type");
	expect_error(BASE "kv_quantized: q2\n", "t.yaml:6:15",
	    "KV cache type");
	/* ranges */
	expect_error(BASE "kv_auto_quantize_above: 0\n", "t.yaml:6:25",
	    "above 0");
	expect_error(BASE "kv_auto_quantize_above: -0.5\n", "t.yaml:6:25",
	    "above 0");
	expect_error(BASE "kv_auto_quantize_above: high\n", "t.yaml:6:25",
	    "number");
	expect_error(BASE "prefill_chunk: 0\n", "t.yaml:6:16", "from 1");
	expect_error(BASE "ubatch: 0\n", "t.yaml:6:9", "from 1");
	expect_error(BASE "context: 0\n", "t.yaml:6:10", "from 1");
	expect_error("name: t\ndescription: d\nmemory: 1 GiB\n"
	    "reserve: 2 GiB\nweights: heap\n", "t.yaml:", "reserve");
	/* duplicate key */
	expect_error(BASE "memory: 4 GiB\n", "t.yaml:6:1", "duplicate");
	/* not a mapping */
	expect_error("- name: t\n- memory: 2 GiB\n", "t.yaml:1:1", "mapping");
	expect_error("just a string\n", "t.yaml:1:1", "mapping");
	expect_error("", "t.yaml:1:1", "mapping");
	/* invalid YAML */
	expect_error("name: [unclosed\n", "t.yaml:", "YAML");
	expect_error("name: t\n  memory: 2 GiB\n", "t.yaml:2:", "YAML");
}

Test(profile, a_failed_parse_leaves_nothing_to_free)
{
	struct profile p;
	struct gl_error err;
	static const char yaml[] = BASE "kv_cache: q3_k\n";

	cr_assert(profile_parse("t.yaml", yaml, strlen(yaml), &p, &err) < 0);
	cr_expect(p.name == NULL && p.description == NULL &&
	    p.origin == NULL && p.kernels == NULL);
	profile_free(&p);	/* harmless twice */
}

/* ---- loading ------------------------------------------------------------- */

Test(profile, load_reads_a_path, .init = no_datadir)
{
	static const char yaml[] = "# a board of mine\n"
	    "name: myboard\ndescription: d\nmemory: 4 GiB\n"
	    "reserve: 600 MiB\nweights: mapped\ncontext: 8192\n";
	char *path = test_tmpfile(yaml, strlen(yaml));
	struct profile p;
	struct gl_error err;

	cr_assert(profile_load(path, &p, &err) == 0, "%s", err.msg);
	cr_expect_str_eq(p.name, "myboard");
	cr_expect_str_eq(p.origin, path);
	cr_expect_eq(p.memory, 4 * GiB);
	cr_expect_eq(p.reserve, 600 * MiB);
	cr_expect_eq(p.context, 8192);
	profile_free(&p);

	/* errors in a file name the file */
	{
		static const char bad[] = "name: x\nmemory: 4 GiB\n";
		char *bpath = test_tmpfile(bad, strlen(bad));
		char *where = xasprintf("%s:1:1", bpath);

		cr_assert(profile_load(bpath, &p, &err) < 0);
		cr_expect(strstr(err.msg, where) != NULL, "%s", err.msg);
		cr_expect(strstr(err.msg, "missing") != NULL, "%s", err.msg);
		unlink(bpath);
		free(bpath);
		free(where);
	}
	unlink(path);
	cr_assert(profile_load(path, &p, &err) < 0);
	cr_expect(strstr(err.msg, path) != NULL, "%s", err.msg);
	free(path);
}

Test(profile, load_of_an_unknown_name_fails_naming_it, .init = no_datadir)
{
	struct profile p;
	struct gl_error err;

	cr_assert(profile_load("toaster_512mb", &p, &err) < 0);
	cr_expect(strstr(err.msg, "toaster_512mb") != NULL, "%s", err.msg);
	cr_assert(profile_load("", &p, &err) < 0);
	cr_assert(profile_load("no/such/file.yaml", &p, &err) < 0);
	cr_expect(strstr(err.msg, "no/such/file.yaml") != NULL, "%s",
	    err.msg);
}

/*
 * What failed is in the error's kind: an unknown name is GL_ERR_NOT_FOUND
 * (and only that becomes "unknown profile"), an unreadable path GL_ERR_IO,
 * an invalid file GL_ERR_PARSE, even in the data directory, and a file in
 * the data directory too large to read (a sparse one) GL_ERR_LIMIT.
 */
Test(profile, load_failures_carry_their_kind, .init = no_datadir)
{
	char dir[] = "/tmp/gguflint-kind-XXXXXX";
	static const char bad[] = "name: broken\nmemory: lots\n";
	struct datafile df;
	struct captable t;
	struct profile p;
	struct gl_error err;
	char *sub, *file, *huge, *data;
	size_t len;
	FILE *fp;

	cr_assert(datafile_load("profiles/toaster.yaml", &df, &err) < 0);
	cr_expect_eq(err.kind, GL_ERR_NOT_FOUND);
	cr_expect_str_eq(err.msg, "no data file named profiles/toaster.yaml");
	cr_assert(profile_load("toaster", &p, &err) < 0);
	cr_expect_eq(err.kind, GL_ERR_NOT_FOUND);
	cr_expect_str_eq(err.msg, "unknown profile 'toaster' (see "
	    "--list-profiles, or give a path to a YAML file)");
	cr_assert(captable_load("toaster", &t, &err) < 0);
	cr_expect_eq(err.kind, GL_ERR_NOT_FOUND);
	cr_expect_str_eq(err.msg, "unknown capability table 'toaster' (see "
	    "--list-kernels, or give a path to a YAML file)");
	cr_assert(profile_load("no/such/file.yaml", &p, &err) < 0);
	cr_expect_eq(err.kind, GL_ERR_IO);
	cr_expect_str_eq(err.msg, "no/such/file.yaml: No such file or "
	    "directory");

	cr_assert(mkdtemp(dir) != NULL);
	sub = xasprintf("%s/profiles", dir);
	file = xasprintf("%s/broken.yaml", sub);
	cr_assert(mkdir(sub, 0700) == 0);
	cr_assert((fp = fopen(file, "w")) != NULL);
	fputs(bad, fp);
	fclose(fp);
	cr_assert(read_whole_file(file, 8, &data, &len, &err) < 0);
	cr_expect_eq(err.kind, GL_ERR_LIMIT);
	setenv("GGUFLINT_DATADIR", dir, 1);
	cr_assert(profile_load("broken", &p, &err) < 0);
	cr_expect_eq(err.kind, GL_ERR_PARSE);
	cr_expect(strncmp(err.msg, file, strlen(file)) == 0, "%s", err.msg);
	huge = xasprintf("%s/huge.yaml", sub);
	cr_assert(truncate(file, (64 << 20) + 1) == 0);
	cr_assert(rename(file, huge) == 0);
	cr_assert(profile_load("huge", &p, &err) < 0);
	cr_expect_eq(err.kind, GL_ERR_LIMIT);
	cr_expect(strstr(err.msg, "huge.yaml: larger than") != NULL, "%s",
	    err.msg);
	unlink(huge);
	rmdir(sub);
	rmdir(dir);
	free(huge);
	free(file);
	free(sub);
}

/*
 * err may be NULL (error.h): the loads read the kind of datafile_load's
 * error, and fail the same without one from the caller.
 */
Test(profile, load_failures_without_an_error, .init = no_datadir)
{
	struct captable t;
	struct profile p;

	cr_expect_eq(profile_load("toaster", &p, NULL), -1);
	cr_expect_eq(captable_load("toaster", &t, NULL), -1);
	cr_expect_eq(profile_load("no/such/file.yaml", &p, NULL), -1);
	cr_assert_eq(profile_load(PROFILE_DEFAULT, &p, NULL), 0);
	profile_free(&p);
}

Test(profile, data_directory_overrides_the_builtin_copy)
{
	char dir[] = "/tmp/gguflint-data-XXXXXX";
	static const char over[] = "name: mobile_2gb\n"
	    "description: an override\nmemory: 3 GiB\nreserve: 1 GiB\n"
	    "weights: heap\n";
	static const char mine[] = "name: myboard\n"
	    "description: mine\nmemory: 4 GiB\nreserve: 0\nweights: heap\n";
	struct profile p;
	struct gl_error err;
	char *sub, *file, *file2;
	FILE *fp;

	cr_assert(mkdtemp(dir) != NULL);
	sub = xasprintf("%s/profiles", dir);
	file = xasprintf("%s/mobile_2gb.yaml", sub);
	file2 = xasprintf("%s/myboard.yaml", sub);
	cr_assert(mkdir(sub, 0700) == 0);
	fp = fopen(file, "w");
	cr_assert(fp != NULL);
	fputs(over, fp);
	fclose(fp);
	fp = fopen(file2, "w");
	cr_assert(fp != NULL);
	fputs(mine, fp);
	fclose(fp);
	setenv("GGUFLINT_DATADIR", dir, 1);

	cr_assert(profile_load("mobile_2gb", &p, &err) == 0, "%s", err.msg);
	cr_expect_eq(p.memory, 3 * GiB);
	cr_expect_eq(p.weights, WEIGHTS_HEAP);
	cr_expect(strstr(p.origin, file) != NULL, "%s", p.origin);
	profile_free(&p);
	/* a profile the binary does not know is found by name */
	cr_assert(profile_load("myboard", &p, &err) == 0, "%s", err.msg);
	cr_expect_eq(p.memory, 4 * GiB);
	profile_free(&p);
	/* the other built-ins are still there */
	cr_assert(profile_load("edge", &p, &err) == 0, "%s", err.msg);
	cr_expect_eq(p.reserve, 0);
	profile_free(&p);
	/* a broken override is an error naming the file on disk */
	fp = fopen(file, "w");
	fputs("name: [\n", fp);
	fclose(fp);
	cr_assert(profile_load("mobile_2gb", &p, &err) < 0);
	cr_expect(strstr(err.msg, file) != NULL, "%s", err.msg);

	unlink(file);
	unlink(file2);
	rmdir(sub);
	rmdir(dir);
	free(sub);
	free(file);
	free(file2);
}

/* ---- the man page -------------------------------------------------------- */

static char *
read_man(void)
{
	char *path = xasprintf("%s/man/gguflint-profile.5", test_srcdir());
	struct gl_error err;
	char *man;
	size_t len;

	cr_assert(read_whole_file(path, 1u << 22, &man, &len, &err) == 0,
	    "%s", err.msg);
	free(path);
	return man;
}

Test(profile, man_page_lists_every_builtin_profile)
{
	const char *const *names = profile_builtin_names();
	char *man = read_man();
	size_t i;

	cr_expect(strstr(man, ".Sh CAPABILITY TABLES") != NULL);
	for (i = 0; names[i] != NULL; i++) {
		char *line = xasprintf("\n.It Cm %s\n", names[i]);

		cr_expect(strstr(man, line) != NULL, "gguflint-profile.5 "
		    "lacks '%s'", line + 1);
		free(line);
	}
	free(man);
}

Test(profile, man_page_example_parses)
{
	char *man = read_man(), *ex, *begin, *end;
	struct profile p;
	struct gl_error err;

	ex = strstr(man, "\n.Sh EXAMPLES\n");
	cr_assert(ex != NULL);
	begin = strstr(ex, "\n.Bd -literal -offset indent\n");
	cr_assert(begin != NULL);
	begin = strchr(begin + 1, '\n') + 1;
	end = strstr(begin, "\n.Ed\n");
	cr_assert(end != NULL);
	cr_assert(profile_parse("example.yaml", begin,
	    (size_t)(end - begin + 1), &p, &err) == 0, "%s", err.msg);
	cr_expect_str_eq(p.name, "myboard");
	cr_expect_eq(p.memory - p.reserve, 4 * GiB - 600 * MiB);
	cr_expect_eq(p.kv_cache, KV_Q8_0);
	profile_free(&p);
	free(man);
}

/* Every built-in profile names its runtime; SKaiNET's are the four. */
Test(profile, every_builtin_names_its_runtime, .init = no_datadir)
{
	const char *const *names = profile_builtin_names();
	size_t i, skainet = 0;

	for (i = 0; names[i] != NULL; i++) {
		struct profile p;

		load_builtin(names[i], &p);
		cr_expect(p.runtime_set, "%s names no runtime", names[i]);
		if (p.runtime == RUNTIME_SKAINET)
			skainet++;
		else
			cr_expect(p.kv_auto_quantize_above >= 1.0 &&
			    p.kv_cache == KV_F16, "%s", names[i]);
		profile_free(&p);
	}
	cr_expect_eq(skainet, 4);
}

/* runtime_dir: the folder of a ggml runtime to probe, kept as written;
 * absent, none (the command line and the table may still name one). */
Test(profile, runtime_dir_is_read)
{
	static const char yaml[] = BASE "runtime_dir: /opt/ggml/cpu\n";
	struct profile p;
	struct gl_error err;

	cr_assert(profile_parse("t.yaml", yaml, strlen(yaml), &p, &err) == 0,
	    "%s", err.msg);
	cr_expect_str_eq(p.runtime_dir, "/opt/ggml/cpu");
	profile_free(&p);
	cr_assert(profile_parse("t.yaml", BASE, strlen(BASE), &p, &err) == 0,
	    "%s", err.msg);
	cr_expect_null(p.runtime_dir);
	profile_free(&p);
	expect_error(BASE "runtime_dir: [a, b]\n", "t.yaml:6:", "string");
}

/* max_alloc and host_max_alloc: a size, or none (no limit), each noted
 * as stated; unstated, not known. 0 is no size. */
Test(profile, device_limits_are_read)
{
	static const char yaml[] = BASE "max_alloc: 128 MiB\n"
					"host_max_alloc: none\n";
	struct profile p;
	struct gl_error err;

	cr_assert(profile_parse("t.yaml", yaml, strlen(yaml), &p, &err) == 0,
	    "%s", err.msg);
	cr_expect(p.max_alloc_set && p.max_alloc == 134217728ull);
	cr_expect(p.host_max_alloc_set && p.host_max_alloc == 0);
	profile_free(&p);
	cr_assert(profile_parse("t.yaml", BASE, strlen(BASE), &p, &err) == 0,
	    "%s", err.msg);
	cr_expect(!p.max_alloc_set && !p.host_max_alloc_set);
	profile_free(&p);
	expect_error(BASE "max_alloc: 0\n", "t.yaml:6:", "or none");
	expect_error(BASE "host_max_alloc: lots\n", "t.yaml:6:", "or none");
}

/* Every built-in GPU profile states its device's limits (its comment
 * says where they come from). */
Test(profile, every_builtin_gpu_states_its_limits, .init = no_datadir)
{
	const char *const *names = profile_builtin_names();
	size_t i, gpus = 0;

	for (i = 0; names[i] != NULL; i++) {
		struct profile p;

		load_builtin(names[i], &p);
		if (profile_gpu(&p)) {
			gpus++;
			cr_expect(p.max_alloc_set && p.host_max_alloc_set,
			    "%s states no max_alloc or host_max_alloc",
			    names[i]);
		}
		profile_free(&p);
	}
	cr_expect_geq(gpus, 1);
}
