/*
 * profile.c - loading device profiles from YAML (see profile.h and
 * gguflint-profile(5)).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

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

/* In the order of enum weights_residency. */
static const char *const weights_names[] = { "heap", "mapped", NULL };

#define P(kind, member) YDOC_##kind##_AT(struct profile, member)
#define POSITIVE .min = 1, .max = UINT32_MAX, \
	.expect = "expected an integer from 1 to 4294967295"

static const struct ydoc_field profile_fields[] = {
	{ "name", true, P(STRDUP, name) },
	{ "description", true, P(STRDUP, description) },
	{ "memory", true, P(SIZE, memory) },
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
	ydoc_free(&d);
	if (rc < 0) {
		profile_free(p);
		return -1;
	}
	if (p->kernels == NULL)
		p->kernels = xstrdup("cpu");
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
	memset(p, 0, sizeof *p);
}

const char *const *
profile_builtin_names(void)
{
	return builtin_names("profiles");
}
