/*
 * profile.c - loading device profiles from YAML (see profile.h and
 * gguflint-profile(5)).
 */
#include "config.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/replica.h"
#include "base/units.h"
#include "data/builtin.h"
#include "target/profile.h"
#include "data/yamlutil.h"

/* ---- fields ------------------------------------------------------------ */

/* kv_cache and kv_quantized: an enum kv_type. */
static int
set_kv(struct ydoc *d, yaml_node_t *n, void *dst, struct gl_error *err)
{
	const char *s = ydoc_scalar(n);

	if (s == NULL || kv_type_parse(s, dst) < 0)
		return ydoc_error(d, n, err, "expected a KV cache type: %s",
		    kv_type_names());
	return 0;
}

/* memory: a size, or "host": this machine's RAM. */
static int
set_memory(struct ydoc *d, yaml_node_t *n, void *dst, struct gl_error *err)
{
	const char *s = ydoc_scalar(n);
	long pages = sysconf(_SC_PHYS_PAGES), psz = sysconf(_SC_PAGESIZE);

	if (s != NULL && strcmp(s, "host") == 0 && pages > 0 && psz > 0) {
		*(uint64_t *)dst = (uint64_t)pages * (uint64_t)psz;
		return 0;
	}
	if (s == NULL || parse_size(s, dst) < 0)
		return ydoc_error(d, n, err, "expected a size such as \"2 "
		    "GiB\" or \"700 MiB\", or host");
	return 0;
}

_Static_assert(offsetof(struct profile, max_alloc_set) ==
    offsetof(struct profile, max_alloc) + sizeof(uint64_t) &&
    offsetof(struct profile, host_max_alloc_set) ==
    offsetof(struct profile, host_max_alloc) + sizeof(uint64_t),
    "a limit's _set flag follows its size");

/* max_alloc, host_max_alloc: a size, or none (no limit); either way
 * noted as stated (the _set flag right after the size in struct
 * profile). */
static int
set_limit(struct ydoc *d, yaml_node_t *n, void *dst, struct gl_error *err)
{
	const char *s = ydoc_scalar(n);
	uint64_t *v = dst;
	bool *set = (bool *)(v + 1);

	if (s != NULL && strcmp(s, "none") == 0) {
		*v = 0;
	} else if (s == NULL || parse_size(s, v) < 0 || *v == 0) {
		return ydoc_error(d, n, err, "expected a size such as \"128 "
		    "MiB\" or \"4 GiB\", or none (no limit)");
	}
	*set = true;
	return 0;
}

/* cpu_features: a list of feature names, or host (detected). */
static int
set_features(struct ydoc *d, yaml_node_t *n, void *dst, struct gl_error *err)
{
	struct profile *p = dst;
	const char *s = ydoc_scalar(n);
	yaml_node_item_t *it;

	p->cpu_features = 0;
	if (s != NULL && strcmp(s, "host") == 0) {
		p->cpu_features = cpu_features_host();
		p->cpu_features_host = true;
		return 0;
	}
	if (n == NULL || n->type != YAML_SEQUENCE_NODE)
		return ydoc_error(d, n, err, "expected host or a list of CPU "
		    "features such as [avx2, fma] or [neon, dotprod, i8mm]");
	for (it = n->data.sequence.items.start;
	    it < n->data.sequence.items.top; it++) {
		yaml_node_t *e = ydoc_node(d, *it);
		uint32_t f = cpu_features_parse(ydoc_scalar(e));

		if (f == 0)
			return ydoc_error(d, e, err, "expected a CPU feature: "
			    "avx, avx2, f16c, fma, avx512, avx512_vnni, "
			    "avx512_bf16, neon, dotprod, i8mm, sve, ...");
		p->cpu_features |= f;
	}
	return 0;
}

/* runtime: skainet or llama.cpp (noted as named, which built-ins must). */
static int
set_runtime(struct ydoc *d, yaml_node_t *n, void *dst, struct gl_error *err)
{
	struct profile *p = dst;
	const char *s = ydoc_scalar(n);

	if (s != NULL && strcmp(s, "skainet") == 0)
		p->runtime = RUNTIME_SKAINET;
	else if (s != NULL && (strcmp(s, "llama.cpp") == 0 ||
	    strcmp(s, "llama") == 0))
		p->runtime = RUNTIME_LLAMA_CPP;
	else
		return ydoc_error(d, n, err, "expected skainet or llama.cpp");
	p->runtime_set = true;
	return 0;
}

int
runtime_version_parse(const char *s, uint32_t *build)
{
	unsigned long v = 0;
	char *end = NULL;

	if (s == NULL)
		return -1;
	/* the replicated release by its tag, or without the tag's v */
	if (strcmp(s, REPLICA_LLAMA_CPP) == 0 ||
	    strcmp(s, REPLICA_LLAMA_CPP + 1) == 0) {
		*build = RUNTIME_BUILD_REPLICA;
		return 0;
	}
	if (s[0] == 'b' && s[1] >= '1' && s[1] <= '9')
		v = strtoul(s + 1, &end, 10);
	if (end == NULL || *end != '\0' || v == 0 || v > 9999999)
		return -1;
	*build = (uint32_t)v;
	return 0;
}

const char *
runtime_version_expect(void)
{
	return "expected a llama.cpp build such as b6500, or "
	    REPLICA_LLAMA_CPP;
}

/* runtime_version: a llama.cpp version (runtime_version_parse). */
static int
set_version(struct ydoc *d, yaml_node_t *n, void *dst, struct gl_error *err)
{
	struct profile *p = dst;
	const char *s = ydoc_scalar(n);

	if (runtime_version_parse(s, &p->runtime_build) < 0)
		return ydoc_error(d, n, err, "%s", runtime_version_expect());
	free(p->runtime_version);
	p->runtime_version = xstrdup(s);
	return 0;
}

/* In the order of enum weights_residency. */
static const char *const weights_names[] = { "heap", "mapped", NULL };

#define P(kind, member) YDOC_##kind##_AT(struct profile, member)
#define POSITIVE .min = 1, .max = UINT32_MAX, \
	.expect = "expected an integer from 1 to 4294967295"

static const struct ydoc_field profile_fields[] = {
	{ "name", true, P(STRDUP, name) },
	{ "description", true, P(STRDUP, description) },
	{ "memory", true, .set = set_memory, YDOC_AT(struct profile, memory) },
	{ "reserve", true, P(SIZE, reserve) },
	{ "weights", true, P(ENUM, weights), .names = weights_names,
	    .expect = "expected mapped or heap" },
	{ "strict", false, P(BOOL, strict) },
	{ "context", false, P(UINT, context), POSITIVE },
	{ "kv_cache", false, .set = set_kv, YDOC_AT(struct profile, kv_cache) },
	{ "kv_quantized", false, .set = set_kv,
	    YDOC_AT(struct profile, kv_quantized) },
	{ "kv_auto_quantize_above", false,
	    P(NUMBER, kv_auto_quantize_above), .lo = 0, .hi = 1e6,
	    .expect = "expected a share of the budget above 0 (1.0 switches "
	    "only when the plan does not fit)" },
	{ "prefill_chunk", false, P(UINT, prefill_chunk), POSITIVE },
	{ "ubatch", false, P(UINT, ubatch), POSITIVE },
	{ "flash_attention", false, P(BOOL, flash_attention) },
	{ "kernels", false, P(STRDUP, kernels) },
	{ "runtime", false, .set = set_runtime, .off = 0,
	    .size = sizeof(struct profile) },
	{ "backend", false, P(STRDUP, backend) },
	{ "device_memory", false, P(SIZE, device_memory) },
	{ "device_reserve", false, P(SIZE, device_reserve) },
	{ "device_overhead", false, P(SIZE, device_overhead) },
	{ "unified", false, P(BOOL, unified) },
	{ "cpu_features", false, .set = set_features, .off = 0,
	    .size = sizeof(struct profile) },
	{ "batch", false, P(UINT, batch), POSITIVE },
	{ "parallel", false, P(UINT, n_seq), .min = 1, .max = 256,
	    .expect = "expected a number of sequences from 1 to 256" },
	{ "gpu_layers", false, P(UINT, gpu_layers), .min = 0,
	    .max = 100000, .expect = "expected a number of layers" },
	{ "runtime_version", false, .set = set_version, .off = 0,
	    .size = sizeof(struct profile) },
	{ "runtime_dir", false, P(STRDUP, runtime_dir) },
	{ "max_alloc", false, .set = set_limit,
	    YDOC_AT(struct profile, max_alloc) },
	{ "host_max_alloc", false, .set = set_limit,
	    YDOC_AT(struct profile, host_max_alloc) },
};

#undef P
#undef POSITIVE

/* ---- loading ----------------------------------------------------------- */

static void
profile_defaults(struct profile *p)
{
	memset(p, 0, sizeof *p);
	p->kv_cache = KV_F16;
	p->kv_quantized = KV_Q8_0;
	p->kv_auto_quantize_above = 1.0;
	p->prefill_chunk = 256;
	p->ubatch = 512;
	p->flash_attention = true;
	p->device_overhead = PROFILE_UNKNOWN;
	p->batch = 2048;
	p->n_seq = 1;
	p->gpu_layers = -1;
}

const char *
profile_runtime_name(enum profile_runtime r)
{
	return r == RUNTIME_SKAINET ? "skainet" : "llama.cpp";
}

bool
profile_gpu(const struct profile *p)
{
	return p->runtime == RUNTIME_LLAMA_CPP && p->backend != NULL &&
	    strcmp(p->backend, "cpu") != 0;
}

/* ---- CPU features ------------------------------------------------------ */

static const struct {
	const char *name;
	uint32_t bit;
} cpu_feature_names[] = {
	{ "avx2", CPU_FEAT_AVX2 }, { "avx512", CPU_FEAT_AVX512 },
	{ "avx512f", CPU_FEAT_AVX512 }, { "neon", CPU_FEAT_NEON },
	{ "asimd", CPU_FEAT_NEON }, { "dotprod", CPU_FEAT_DOTPROD },
	{ "asimddp", CPU_FEAT_DOTPROD }, { "i8mm", CPU_FEAT_I8MM },
	{ "sve", CPU_FEAT_SVE }, { "avx", CPU_FEAT_OTHER },
	{ "f16c", CPU_FEAT_OTHER }, { "fma", CPU_FEAT_OTHER },
	{ "sse3", CPU_FEAT_OTHER }, { "ssse3", CPU_FEAT_OTHER },
	{ "avx_vnni", CPU_FEAT_OTHER }, { "avx512_vnni", CPU_FEAT_OTHER },
	{ "avx512_bf16", CPU_FEAT_OTHER }, { "avx512bw", CPU_FEAT_OTHER },
	{ "avx512vl", CPU_FEAT_OTHER }, { "amx_int8", CPU_FEAT_OTHER },
	{ "sme", CPU_FEAT_OTHER }, { "fp16", CPU_FEAT_OTHER },
	{ "bf16", CPU_FEAT_OTHER },
};

#define N_CPU_FEATURES (sizeof cpu_feature_names / sizeof cpu_feature_names[0])

uint32_t
cpu_features_parse(const char *name)
{
	size_t i;

	for (i = 0; name != NULL && i < N_CPU_FEATURES; i++)
		if (strcmp(cpu_feature_names[i].name, name) == 0)
			return cpu_feature_names[i].bit;
	return 0;
}

/* The features of one "flags" or "Features" line of /proc/cpuinfo. */
static uint32_t
features_of_line(char *line)
{
	uint32_t f = 0;
	char *tok, *save = NULL;

	for (tok = strtok_r(line, " \t\n", &save); tok != NULL;
	    tok = strtok_r(NULL, " \t\n", &save))
		f |= cpu_features_parse(tok) & ~CPU_FEAT_OTHER;
	return f;
}

uint32_t
cpu_features_host(void)
{
	FILE *fp = fopen("/proc/cpuinfo", "r");
	char line[8192];
	uint32_t f = 0;

	if (fp == NULL)
		return 0;
	while (fgets(line, sizeof line, fp) != NULL)
		if (strncmp(line, "flags", 5) == 0 ||
		    strncmp(line, "Features", 8) == 0) {
			f = features_of_line(strchr(line, ':') ?
			    strchr(line, ':') + 1 : line);
			break;
		}
	fclose(fp);
	return f;
}

const char *
cpu_features_format(uint32_t f, char *buf, size_t bufsz)
{
	static const char *const names[] = { "avx2", "avx512", "neon",
	    "dotprod", "i8mm", "sve" };
	size_t i, len = 0;

	buf[0] = '\0';
	for (i = 0; i < sizeof names / sizeof names[0]; i++)
		if ((f & (1u << i)) && len < bufsz)
			len += (size_t)snprintf(buf + len, bufsz - len, "%s%s",
			    len ? " " : "", names[i]);
	if (buf[0] == '\0')
		snprintf(buf, bufsz, "none");
	return buf;
}

int
profile_parse(const char *origin, const char *text, size_t len,
    struct profile *p, struct gl_error *err)
{
	struct ydoc d;
	int rc;

	profile_defaults(p);
	if (ydoc_load(&d, origin, text, len, err) < 0)
		return -1;
	rc = ydoc_fields(&d, ydoc_root(&d), profile_fields,
	    sizeof profile_fields / sizeof profile_fields[0], p, err);
	if (rc == 0 && p->reserve > p->memory)
		rc = ydoc_error(&d, ydoc_root(&d), err, "reserve is larger "
		    "than memory");
	if (rc == 0 && p->device_reserve > p->device_memory)
		rc = ydoc_error(&d, ydoc_root(&d), err, "device_reserve is "
		    "larger than device_memory");
	if (rc == 0 && p->device_overhead != PROFILE_UNKNOWN &&
	    p->device_overhead > (p->device_memory > 0 ? p->device_memory -
	    p->device_reserve : p->memory - p->reserve))
		rc = ydoc_error(&d, ydoc_root(&d), err, "device_overhead is "
		    "larger than the device's memory less its reserve");
	ydoc_free(&d);
	if (rc < 0) {
		profile_free(p);
		return -1;
	}
	if (p->kernels == NULL)
		p->kernels = xstrdup("cpu");
	if (p->backend == NULL)
		p->backend = xstrdup("cpu");
	p->origin = xstrdup(origin);
	return 0;
}

int
profile_load(const char *name, struct profile *p, struct gl_error *err)
{
	struct datafile df;
	int builtin, rc;

	builtin = datafile_resolve("profiles", name, "profile",
	    "--list-profiles", &df, err);
	if (builtin < 0)
		return -1;
	rc = profile_parse(df.origin, df.data, df.len, p, err);
	if (rc == 0 && builtin && strcmp(p->name, name) != 0) {
		gl_error_setk(err, GL_ERR_PARSE, "%s: declares the profile "
		    "'%s', but is loaded as '%s'", df.origin, p->name, name);
		profile_free(p);
		rc = -1;
	}
	datafile_free(&df);
	return rc;
}

void
profile_free(struct profile *p)
{
	free(p->name);
	free(p->description);
	free(p->origin);
	free(p->kernels);
	free(p->backend);
	free(p->runtime_version);
	free(p->runtime_dir);
	memset(p, 0, sizeof *p);
}

const char *const *
profile_builtin_names(void)
{
	return builtin_names("profiles");
}
