/*
 * captable.c - loading capability tables and verifying them on probe data
 * (see captable.h). The table format is documented in gguflint-profile(5).
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "data/builtin.h"
#include "target/captable.h"
#include "kernels/fp16.h"
#include "kernels/ggml-types.h"
#include "data/yamlutil.h"

const char *
cap_op_name(enum cap_op op)
{
	return op == CAP_MATMUL ? "matmul" : "get_rows";
}

const char *
cap_state_name(enum cap_state s)
{
	static const char *const names[] = { "reference-only", "verified",
		"fallback", "unsafe" };

	return names[s];
}

const char *
kernel_order_name(enum kernel_order o)
{
	return o == KERNEL_ORDER_KERNEL_FEED ? "kernel_feed" : "as_stored";
}

/* ---- parsing ----------------------------------------------------------- */

/* encoding and input: a ggml type id. */
static int
set_type(struct ydoc *d, yaml_node_t *n, void *dst, struct gl_error *err)
{
	const char *s = ydoc_scalar(n);

	if (s == NULL || ggml_type_parse(s, dst) < 0)
		return ydoc_error(d, n, err, "expected a ggml type name such "
		    "as f32, f16, q4_0, q8_0 or q4_K");
	return 0;
}

/* In the order of enum cap_op and of enum kernel_order. */
static const char *const op_names[] = { "matmul", "get_rows", NULL };
static const char *const order_names[] = { "as_stored", "kernel_feed",
	NULL };
static const char *const state_names[] = { "reference-only", "verified",
	"fallback", "unsafe", NULL };

#define E(kind, member) YDOC_##kind##_AT(struct cap_entry, member)

static const struct ydoc_field entry_fields[] = {
	{ "op", true, E(ENUM, op), .names = op_names,
	    .expect = "expected an operation: matmul or get_rows" },
	{ "encoding", true, .set = set_type,
	    YDOC_AT(struct cap_entry, encoding) },
	{ "input", false, .set = set_type, YDOC_AT(struct cap_entry, input) },
	{ "order", false, E(ENUM, order), .names = order_names,
	    .expect = "expected a byte order: as_stored or kernel_feed" },
	{ "kernel", true, E(STRDUP, kernel_name) },
	{ "state", false, E(ENUM, state), .names = state_names,
	    .expect = "expected a runtime state: reference-only, verified, "
	    "fallback or unsafe" },
	/* -1: not a finite number (what captable_write writes for one) */
	{ "nmse", false, E(NUMBER, nmse), .lo = -2, .hi = 1e300 },
	{ "reason", false, E(STRDUP, reason) },
};

#undef E

static int
set_entries(struct ydoc *d, yaml_node_t *n, void *o, struct gl_error *err)
{
	struct captable *t = o;
	yaml_node_item_t *it;

	if (n->type != YAML_SEQUENCE_NODE)
		return ydoc_error(d, n, err, "expected a list of entries");
	for (it = n->data.sequence.items.start;
	    it < n->data.sequence.items.top; it++) {
		yaml_node_t *en = ydoc_node(d, *it);
		struct cap_entry *e;

		t->entries = xreallocarray(t->entries, t->n + 1,
		    sizeof *t->entries);
		e = &t->entries[t->n++];
		memset(e, 0, sizeof *e);
		e->input = GGML_TYPE_F32;
		e->line = en->start_mark.line + 1;
		e->col = en->start_mark.column + 1;
		if (ydoc_fields(d, en, entry_fields, sizeof entry_fields /
		    sizeof entry_fields[0], e, err) < 0)
			return -1;
	}
	return 0;
}

#define R(member) YDOC_STRDUP_AT(struct cap_provenance, member)

static const struct ydoc_field prov_fields[] = {
	{ "version", false, R(version) },
	{ "commit", false, R(commit) },
	{ "device", true, R(device) },
	{ "description", false, R(description) },
	{ "driver", false, R(driver) },
	{ "date", true, R(date) },
};

#undef R

/* recorded: where the entries' states come from (--write-kernels). */
static int
set_recorded(struct ydoc *d, yaml_node_t *n, void *o, struct gl_error *err)
{
	struct captable *t = o;

	if (n->type != YAML_MAPPING_NODE)
		return ydoc_error(d, n, err, "expected a mapping: version, "
		    "commit, device, description, driver, date");
	t->recorded = true;
	return ydoc_fields(d, n, prov_fields, sizeof prov_fields /
	    sizeof prov_fields[0], &t->prov, err);
}

static const struct ydoc_field table_fields[] = {
	{ "name", true, YDOC_STRDUP_AT(struct captable, name) },
	{ "description", true, YDOC_STRDUP_AT(struct captable, description) },
	{ "runtime_dir", false, YDOC_STRDUP_AT(struct captable,
	    prov.runtime_dir) },
	{ "recorded", false, .set = set_recorded },
	{ "entries", true, .set = set_entries },
};

int
captable_parse(const char *origin, const char *text, size_t len,
    struct captable *t, struct gl_error *err)
{
	struct ydoc d;
	int rc;

	memset(t, 0, sizeof *t);
	if (ydoc_load(&d, origin, text, len, err) < 0)
		return -1;
	rc = ydoc_fields(&d, ydoc_root(&d), table_fields,
	    sizeof table_fields / sizeof table_fields[0], t, err);
	ydoc_free(&d);
	if (rc < 0) {
		captable_free(t);
		return -1;
	}
	t->origin = xstrdup(origin);
	return 0;
}

int
captable_load(const char *name, struct captable *t, struct gl_error *err)
{
	struct datafile df;
	int rc;

	if (datafile_resolve("kernels", name, "capability table",
	    "--list-kernels", &df, err) < 0)
		return -1;
	rc = captable_parse(df.origin, df.data, df.len, t, err);
	datafile_free(&df);
	return rc;
}

void
captable_free(struct captable *t)
{
	size_t i;

	for (i = 0; i < t->n; i++) {
		free(t->entries[i].kernel_name);
		free(t->entries[i].error);
		free(t->entries[i].reason);
	}
	free(t->entries);
	free(t->prov.runtime_dir);
	free(t->prov.version);
	free(t->prov.commit);
	free(t->prov.device);
	free(t->prov.description);
	free(t->prov.driver);
	free(t->prov.date);
	free(t->name);
	free(t->description);
	free(t->origin);
	memset(t, 0, sizeof *t);
}

const char *const *
captable_builtin_names(void)
{
	return builtin_names("kernels");
}

/* ---- probe data -------------------------------------------------------- */

static uint64_t
rng_next(uint64_t *s)
{
	uint64_t x = *s;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*s = x;
	return x * 0x2545f4914f6cdd1dULL;
}

/* A uniform float in [lo, hi). */
static float
rng_float(uint64_t *s, float lo, float hi)
{
	return lo + (hi - lo) *
	    (float)((rng_next(s) >> 40) * (1.0 / 16777216.0));
}

static void
put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

/* A small finite scale of either sign, as real blocks have. */
static uint16_t
rand_scale(uint64_t *s)
{
	float v = rng_float(s, 0.5f, 1.0f) *
	    ldexpf(1.0f, -(int)(rng_next(s) % 8));

	return kernel_f32_to_fp16((rng_next(s) & 1) ? -v : v);
}

void
probe_fill(uint32_t type, uint8_t *row, size_t n, uint64_t *rng)
{
	const struct ggml_type_info *ti = ggml_type_get(type);
	size_t bytes = kernel_row_bytes(type, n), i, b;
	unsigned off[2], nf, k;

	for (i = 0; i < bytes; i += 8) {	/* 8 random bytes a draw */
		uint64_t r = rng_next(rng);

		for (k = 0; k < 8 && i + k < bytes; k++, r >>= 8)
			row[i + k] = (uint8_t)r;
	}
	if (type == GGML_TYPE_F32) {
		for (i = 0; i < n; i++) {
			float v = rng_float(rng, -1.0f, 1.0f);

			memcpy(row + 4 * i, &v, 4);
		}
	} else if (type == GGML_TYPE_F16 || type == GGML_TYPE_BF16) {
		for (i = 0; i < n; i++) {
			float v = rng_float(rng, -1.0f, 1.0f);

			put16(row + 2 * i, type == GGML_TYPE_F16 ?
			    kernel_f32_to_fp16(v) : kernel_f32_to_bf16(v));
		}
	} else if (type == GGML_TYPE_MXFP4) {	/* E8M0, never 0xFF */
		for (b = 0; b < bytes / ti->size; b++)
			row[b * ti->size] = (uint8_t)(118 + rng_next(rng) % 18);
	} else if (type == GGML_TYPE_NVFP4) {
		/* UE4M3 scales as a quantizer writes them: bit 7 clear, of
		 * magnitude 2^-4 to 2^3, never 0x7f (NaN in E4M3) */
		for (b = 0; b < bytes / ti->size; b++)
			for (k = 0; k < 4; k++)
				row[b * ti->size + k] = (uint8_t)(0x18 +
				    rng_next(rng) % 0x38);
	} else if (type == GGML_TYPE_IQ1_M) {	/* d: top nibbles of sc0..3 */
		for (b = 0; b < bytes / ti->size; b++) {
			uint8_t *sc = row + (b + 1) * ti->size - 8;
			uint16_t d = rand_scale(rng);

			for (k = 0; k < 4; k++)
				sc[2 * k + 1] = (uint8_t)((sc[2 * k + 1] & 15) |
				    (d >> 4 * k & 15) << 4);
		}
	}
	/* the fp16 factors (kernels.h), where the block has them */
	nf = kernel_fp16_factors(type, off);
	for (b = 0; nf > 0 && b < bytes / ti->size; b++)
		for (k = 0; k < nf; k++)
			put16(row + b * ti->size + off[k], rand_scale(rng));
}

/* ---- the probe --------------------------------------------------------- */

static double
now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static const struct kernel *
find_named(const struct kernel *registry, const char *name)
{
	const struct kernel *k;

	for (k = registry; k->name != NULL; k++)
		if (strcmp(k->name, name) == 0)
			return k;
	return NULL;
}

/* The kernel an entry needs, or an explanation of why it has none. */
static const struct kernel *
entry_kernel(struct cap_entry *e, const struct kernel *registry)
{
	const struct kernel *k = find_named(registry, e->kernel_name);
	enum kernel_op want = e->op == CAP_MATMUL ? KERNEL_DOT : KERNEL_DEQUANT;
	char tb[16], kb[16];

	if (k == NULL) {
		e->error = xasprintf("no kernel named %s", e->kernel_name);
		return NULL;
	}
	if (k->op != want || k->type != e->encoding || k->order != e->order ||
	    (want == KERNEL_DOT && (e->order == KERNEL_ORDER_KERNEL_FEED ?
	    k->matvec == NULL : k->dot == NULL)) ||
	    (want == KERNEL_DEQUANT && k->dequant == NULL)) {
		e->error = xasprintf("kernel %s is a %s kernel for %s (%s), "
		    "not a %s kernel for %s (%s)", k->name,
		    k->op == KERNEL_DOT ? "dot" : "dequantize",
		    ggml_type_name(k->type, kb, sizeof kb),
		    kernel_order_name(k->order), want == KERNEL_DOT ? "dot" :
		    "dequantize", ggml_type_name(e->encoding, tb, sizeof tb),
		    kernel_order_name(e->order));
		return NULL;
	}
	if (e->input != GGML_TYPE_F32) {
		e->error = xasprintf("no kernel here takes %s activations; "
		    "only f32", ggml_type_name(e->input, tb, sizeof tb));
		return NULL;
	}
	return k;
}

#define FEED_ROWS 4	/* output rows of a kernel-feed probe */

/*
 * A kernel-feed matrix kernel: FEED_ROWS random rows relaid out in feed
 * order, each output compared with the reference dot of its row.
 */
static double
probe_feed(struct cap_entry *e, size_t n, uint64_t *rng, const float *x)
{
	size_t bytes = kernel_row_bytes(e->encoding, n), o, i;
	uint8_t *mat = xmalloc(bytes * FEED_ROWS), *feed = xmalloc(bytes *
	    FEED_ROWS);
	float *w = xmalloc(n * sizeof *w), y[FEED_ROWS];
	double t0, err = 0;

	for (o = 0; o < FEED_ROWS; o++)
		probe_fill(e->encoding, mat + o * bytes, n, rng);
	kernel_relayout_feed(e->encoding, mat, feed, n, FEED_ROWS);
	t0 = now_us();
	e->kernel->matvec(feed, x, y, n, FEED_ROWS);
	e->probe_us = now_us() - t0;
	for (o = 0; o < FEED_ROWS; o++) {
		double r = kernel_reference_dot(e->encoding, mat + o * bytes, x,
		    n, w), scale = 1.0, d;

		for (i = 0; i < n; i++)
			scale += fabs((double)w[i] * x[i]);
		d = fabs((double)y[o] - r) / scale;
		if (!(d <= err))
			err = isnan(d) || !isfinite(y[o]) ? INFINITY : d;
	}
	free(mat);
	free(feed);
	free(w);
	return err;
}

/* Run one entry; sets verified, max_error and error. */
static void
probe_entry(struct cap_entry *e, const struct kernel *registry)
{
	const struct kernel *ref = kernel_find(KERNEL_DEQUANT, e->encoding,
	    KERNEL_ORDER_AS_STORED);
	size_t n = PROBE_ELEMENTS, bytes = kernel_row_bytes(e->encoding, n), i;
	uint64_t rng = 0x9e3779b97f4a7c15ULL ^ ((uint64_t)e->encoding << 32);
	float *x, *w, *got;
	uint8_t *row;
	double t0, scale = 1.0, err = 0;

	e->probed = true;
	if ((e->kernel = entry_kernel(e, registry)) == NULL)
		return;
	if (ref == NULL || bytes == 0) {
		e->error = xstrdup("no reference dequantizer for this "
		    "encoding");
		return;
	}
	row = xmalloc(bytes);
	x = xmalloc(n * sizeof *x);
	w = xmalloc(n * sizeof *w);
	got = xmalloc(n * sizeof *got);
	probe_fill(e->encoding, row, n, &rng);
	for (i = 0; i < n; i++)
		x[i] = rng_float(&rng, -1.0f, 1.0f);
	ref->dequant(row, w, n);
	t0 = now_us();
	if (e->op == CAP_MATMUL && e->order == KERNEL_ORDER_KERNEL_FEED) {
		err = probe_feed(e, n, &rng, x);
	} else if (e->op == CAP_MATMUL) {
		double r = kernel_reference_dot(e->encoding, row, x, n, got);
		float d = e->kernel->dot(row, x, n);

		e->probe_us = now_us() - t0;
		for (i = 0; i < n; i++)
			scale += fabs((double)w[i] * x[i]);
		err = fabs((double)d - r) / scale;
		if (!isfinite(d))
			err = INFINITY;
	} else {
		e->kernel->dequant(row, got, n);
		e->probe_us = now_us() - t0;
		for (i = 0; i < n; i++) {
			double di = fabs((double)got[i] - w[i]) /
			    (1.0 + fabs((double)w[i]));

			if (!(di <= err))	/* NaN counts as an error */
				err = isnan(di) ? INFINITY : di;
		}
	}
	e->max_error = err;
	e->verified = err <= PROBE_TOLERANCE;
	if (!e->verified)
		e->error = xasprintf("disagrees with the reference on probe "
		    "data: error %.3g over the tolerance %.0e", err,
		    PROBE_TOLERANCE);
	free(row);
	free(x);
	free(w);
	free(got);
}

void
captable_probe(struct captable *t, const struct kernel *registry)
{
	double t0 = now_us();
	size_t i;

	if (registry == NULL)
		registry = kernels;
	for (i = 0; i < t->n; i++) {
		struct cap_entry *e = &t->entries[i];

		free(e->error);		/* nothing of a probe before stays */
		e->error = NULL;
		e->verified = false;
		e->max_error = 0;
		e->probe_us = 0;
		probe_entry(e, registry);
		if (e->state == CAP_RT_UNSAFE && e->verified) {
			e->verified = false;	/* the runtime's word wins */
			e->error = xasprintf("unsafe on %s: %s",
			    t->prov.device ? t->prov.device : "the runtime",
			    e->reason ? e->reason : "wrong numbers");
		}
	}
	t->probe_us = now_us() - t0;
}

const struct cap_entry *
captable_feeds(const struct captable *t, uint32_t type)
{
	size_t i;

	for (i = 0; t != NULL && i < t->n; i++) {
		const struct cap_entry *e = &t->entries[i];

		if (e->op == CAP_MATMUL && e->encoding == type &&
		    e->input == GGML_TYPE_F32 && e->verified)
			return e;
	}
	return NULL;
}

/* ---- provenance -------------------------------------------------------- */

const char *
captable_verified_by(const struct captable *t, const struct cap_entry *e,
    char *buf, size_t sz)
{
	const struct cap_provenance *p = &t->prov;

	if (e->state == CAP_REFERENCE_ONLY || p->device == NULL)
		snprintf(buf, sz, "gguflint's reference only: no runtime "
		    "found");
	else if (t->live)
		snprintf(buf, sz, "runtime ggml %s, %s (%s)%s%s", p->version ?
		    p->version : "unknown", p->device, p->description ?
		    p->description : "", p->driver ? " via " : "",
		    p->driver ? p->driver : "");
	else
		snprintf(buf, sz, "recorded on %s (%s), %s", p->device,
		    p->description ? p->description : "", p->date ? p->date :
		    "undated");
	return buf;
}

/* A YAML double-quoted scalar of s. */
static void
yaml_quoted(struct strbuf *out, const char *s)
{
	strbuf_addc(out, '"');
	for (; s != NULL && *s != '\0'; s++) {
		if (*s == '"' || *s == '\\')
			strbuf_addc(out, '\\');
		if ((unsigned char)*s < 0x20)
			strbuf_addc(out, ' ');
		else
			strbuf_addc(out, *s);
	}
	strbuf_addc(out, '"');
}

static void
write_key(struct strbuf *out, const char *indent, const char *key,
    const char *v)
{
	if (v == NULL)
		return;
	strbuf_addf(out, "%s%s: ", indent, key);
	yaml_quoted(out, v);
	strbuf_addc(out, '\n');
}

void
captable_write(const struct captable *t, struct strbuf *out)
{
	const struct cap_provenance *p = &t->prov;
	char tb[16];
	size_t i;

	strbuf_adds(out, "# A capability table recorded by gguflint "
	    "--write-kernels on a ggml runtime:\n# each entry's state is the "
	    "runtime's answer on probe data, nmse its error (-1: not\n# a "
	    "finite number).\n");
	write_key(out, "", "name", t->name);
	write_key(out, "", "description", t->description);
	write_key(out, "", "runtime_dir", p->runtime_dir);
	if (p->device != NULL) {
		strbuf_adds(out, "recorded:\n");
		write_key(out, "  ", "version", p->version);
		write_key(out, "  ", "commit", p->commit);
		write_key(out, "  ", "device", p->device);
		write_key(out, "  ", "description", p->description);
		write_key(out, "  ", "driver", p->driver);
		write_key(out, "  ", "date", p->date ? p->date : "undated");
	}
	strbuf_adds(out, "entries:\n");
	for (i = 0; i < t->n; i++) {
		const struct cap_entry *e = &t->entries[i];

		strbuf_addf(out, "  - { op: %s, encoding: %s, input: f32, "
		    "order: %s, kernel: %s, state: %s, nmse: %.3g",
		    cap_op_name(e->op), ggml_type_name(e->encoding, tb,
		    sizeof tb), kernel_order_name(e->order), e->kernel_name,
		    cap_state_name(e->state), e->nmse);
		if (e->reason != NULL) {
			strbuf_adds(out, ", reason: ");
			yaml_quoted(out, e->reason);
		}
		strbuf_adds(out, " }\n");
	}
}
