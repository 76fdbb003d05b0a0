/*
 * profile.c - loading device profiles from YAML (see profile.h and
 * gguflint-profile(5)), and the size units they are written in.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "data/builtin.h"
#include "target/profile.h"
#include "data/yamlutil.h"

/* ---- sizes ---------------------------------------------------------------- */

int
parse_size(const char *s, uint64_t *out)
{
	static const struct {
		const char *unit;
		unsigned shift;
	} units[] = {
		{ "", 0 }, { "B", 0 },
		{ "K", 10 }, { "KB", 10 }, { "KiB", 10 },
		{ "M", 20 }, { "MB", 20 }, { "MiB", 20 },
		{ "G", 30 }, { "GB", 30 }, { "GiB", 30 },
		{ "T", 40 }, { "TB", 40 }, { "TiB", 40 },
	};
	unsigned long long whole;
	char *end;
	double frac = 0;
	size_t i;

	while (isspace((unsigned char)*s))
		s++;
	if (!isdigit((unsigned char)*s))
		return -1;
	/* Digits, an optional decimal fraction, spaces, a unit: no hex, no
	 * exponents, and whole numbers exact to the last byte. */
	errno = 0;
	whole = strtoull(s, &end, 10);
	if (errno != 0)
		return -1;
	if (*end == '.') {
		double scale = 0.1;

		if (!isdigit((unsigned char)end[1]))
			return -1;
		/* digits only: strtod would also take an exponent */
		for (end++; isdigit((unsigned char)*end); end++, scale /= 10)
			frac += (*end - '0') * scale;
	}
	while (isspace((unsigned char)*end))
		end++;
	for (i = 0; i < sizeof units / sizeof units[0]; i++) {
		unsigned shift = units[i].shift;
		uint64_t bytes;

		if (strcasecmp(end, units[i].unit) != 0)
			continue;
		if (shift > 0 && whole > (UINT64_MAX >> shift))
			return -1;
		bytes = (uint64_t)whole << shift;
		if (u64_add_overflow(bytes, (uint64_t)(frac * (double)(1ull << shift)),
		    &bytes))
			return -1;
		*out = bytes;
		return 0;
	}
	return -1;
}

const char *
format_size(uint64_t b, char *buf, size_t bufsz)
{
	if (b >= (1ull << 40))
		snprintf(buf, bufsz, "%.1f TiB", (double)b / (1ull << 40));
	else if (b >= (1ull << 30))
		snprintf(buf, bufsz, "%.1f GiB", (double)b / (1ull << 30));
	else if (b >= (1ull << 20))
		snprintf(buf, bufsz, "%llu MiB", (unsigned long long)(b >> 20));
	else if (b >= (1ull << 10))
		snprintf(buf, bufsz, "%llu KiB", (unsigned long long)(b >> 10));
	else
		snprintf(buf, bufsz, "%llu B", (unsigned long long)b);
	return buf;
}

/* ---- fields ----------------------------------------------------------------- */

static int
set_name(struct ydoc *d, yaml_node_t *n, void *o, struct gl_error *err)
{
	return ydoc_strdup(d, n, &((struct profile *)o)->name, err);
}

static int
set_description(struct ydoc *d, yaml_node_t *n, void *o, struct gl_error *err)
{
	return ydoc_strdup(d, n, &((struct profile *)o)->description, err);
}

static int
set_kernels(struct ydoc *d, yaml_node_t *n, void *o, struct gl_error *err)
{
	return ydoc_strdup(d, n, &((struct profile *)o)->kernels, err);
}

static int
get_size(struct ydoc *d, yaml_node_t *n, uint64_t *dst, struct gl_error *err)
{
	const char *s = ydoc_scalar(n);

	if (s == NULL || parse_size(s, dst) < 0)
		return ydoc_error(d, n, err, "expected a size such as "
		    "\"2 GiB\", \"700 MiB\" or a number of bytes");
	return 0;
}

static int
set_memory(struct ydoc *d, yaml_node_t *n, void *o, struct gl_error *err)
{
	return get_size(d, n, &((struct profile *)o)->memory, err);
}

static int
set_reserve(struct ydoc *d, yaml_node_t *n, void *o, struct gl_error *err)
{
	return get_size(d, n, &((struct profile *)o)->reserve, err);
}

static int
set_weights(struct ydoc *d, yaml_node_t *n, void *o, struct gl_error *err)
{
	const char *s = ydoc_scalar(n);
	struct profile *p = o;

	if (s != NULL && strcmp(s, "mapped") == 0)
		p->weights = WEIGHTS_MAPPED;
	else if (s != NULL && strcmp(s, "heap") == 0)
		p->weights = WEIGHTS_HEAP;
	else
		return ydoc_error(d, n, err, "expected mapped or heap");
	return 0;
}

static int
set_strict(struct ydoc *d, yaml_node_t *n, void *o, struct gl_error *err)
{
	return ydoc_bool(d, n, &((struct profile *)o)->strict, err);
}

static int
set_flash(struct ydoc *d, yaml_node_t *n, void *o, struct gl_error *err)
{
	return ydoc_bool(d, n, &((struct profile *)o)->flash_attention, err);
}

static int
get_positive(struct ydoc *d, yaml_node_t *n, uint64_t *dst,
    struct gl_error *err)
{
	if (ydoc_uint(d, n, dst, err) < 0)
		return -1;
	if (*dst == 0 || *dst > UINT32_MAX)
		return ydoc_error(d, n, err, "expected an integer from 1 to "
		    "4294967295");
	return 0;
}

static int
set_context(struct ydoc *d, yaml_node_t *n, void *o, struct gl_error *err)
{
	return get_positive(d, n, &((struct profile *)o)->context, err);
}

static int
set_prefill(struct ydoc *d, yaml_node_t *n, void *o, struct gl_error *err)
{
	return get_positive(d, n, &((struct profile *)o)->prefill_chunk, err);
}

static int
set_ubatch(struct ydoc *d, yaml_node_t *n, void *o, struct gl_error *err)
{
	return get_positive(d, n, &((struct profile *)o)->ubatch, err);
}

static int
get_kv(struct ydoc *d, yaml_node_t *n, enum kv_type *dst, struct gl_error *err)
{
	const char *s = ydoc_scalar(n);

	if (s == NULL || kv_type_parse(s, dst) < 0)
		return ydoc_error(d, n, err, "expected a KV cache type: %s",
		    kv_type_names());
	return 0;
}

static int
set_kv_cache(struct ydoc *d, yaml_node_t *n, void *o, struct gl_error *err)
{
	return get_kv(d, n, &((struct profile *)o)->kv_cache, err);
}

static int
set_kv_quantized(struct ydoc *d, yaml_node_t *n, void *o,
    struct gl_error *err)
{
	return get_kv(d, n, &((struct profile *)o)->kv_quantized, err);
}

static int
set_kv_auto(struct ydoc *d, yaml_node_t *n, void *o, struct gl_error *err)
{
	double v;

	if (ydoc_number(d, n, &v, err) < 0)
		return -1;
	if (!(v > 0) || v > 1e6)
		return ydoc_error(d, n, err, "expected a share of the budget "
		    "above 0 (1.0 switches only when the plan does not fit)");
	((struct profile *)o)->kv_auto_quantize_above = v;
	return 0;
}

static const struct ydoc_field profile_fields[] = {
	{ "name", true, set_name },
	{ "description", true, set_description },
	{ "memory", true, set_memory },
	{ "reserve", true, set_reserve },
	{ "weights", true, set_weights },
	{ "strict", false, set_strict },
	{ "context", false, set_context },
	{ "kv_cache", false, set_kv_cache },
	{ "kv_quantized", false, set_kv_quantized },
	{ "kv_auto_quantize_above", false, set_kv_auto },
	{ "prefill_chunk", false, set_prefill },
	{ "ubatch", false, set_ubatch },
	{ "flash_attention", false, set_flash },
	{ "kernels", false, set_kernels },
};

/* ---- loading ---------------------------------------------------------------- */

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

static int
is_path(const char *name)
{
	size_t n = strlen(name);

	return strchr(name, '/') != NULL ||
	    (n > 5 && strcmp(name + n - 5, ".yaml") == 0);
}

int
profile_load(const char *name, struct profile *p, struct gl_error *err)
{
	struct datafile df;
	char *data, *rel;
	size_t len;
	int rc;

	if (is_path(name)) {
		if (read_whole_file(name, 1u << 20, &data, &len, err) < 0)
			return -1;
		rc = profile_parse(name, data, len, p, err);
		free(data);
		return rc;
	}
	rel = xasprintf("profiles/%s.yaml", name);
	rc = datafile_load(rel, &df, err);
	free(rel);
	if (rc < 0 && err->kind == GL_ERR_NOT_FOUND)
		return gl_error_setk(err, GL_ERR_NOT_FOUND, "unknown profile "
		    "'%s' (see --list-profiles, or give a path to a YAML "
		    "file)", name);
	if (rc < 0)
		return -1;
	rc = profile_parse(df.origin, df.data, df.len, p, err);
	if (rc == 0 && strcmp(p->name, name) != 0) {
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
