/*
 * test_resolve.c - capability tables, the probe, and the weight-form
 * resolver, table-driven as SKaiNET's tests are: every encoding x {kernel
 * present, absent} x {desktop, mobile_2gb}; a deliberately wrong kernel
 * caught by the probe; the same file resolving to two forms under two
 * profiles; the plan pricing a dequantized weight at its f32 size.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "target/captable.h"
#include "kernels/fp16.h"
#include "kernels/ggml-types.h"
#include "ggufw.h"
#include "plan/resolve.h"
#include "testutil.h"

/*
 * quantized_types: every non-dense encoding with kernels (an as-stored dot
 * kernel in the registry, blocks of more than one element), by ggml type
 * id, into out[GGML_TYPE_COUNT]; returns how many.
 */
static size_t
quantized_types(uint32_t out[GGML_TYPE_COUNT])
{
	const struct kernel *k;
	size_t n = 0;

	for (k = kernels; k->name != NULL; k++)
		if (k->op == KERNEL_DOT && k->order == KERNEL_ORDER_AS_STORED &&
		    ggml_type_get(k->type)->blck > 1 && n < GGML_TYPE_COUNT)
			out[n++] = k->type;
	return n;
}

/* A table feeding exactly one encoding (or none when type is UINT32_MAX). */
static void
one_entry_table(struct captable *t, uint32_t type)
{
	struct strbuf sb = STRBUF_INIT;
	struct gl_error err;
	char tb[16];
	const char *name = ggml_type_name(type, tb, sizeof tb);

	strbuf_adds(&sb, "name: t\ndescription: test\nentries:\n"
	    "  - { op: matmul, encoding: f32, kernel: f32.dot.scalar }\n");
	if (type != UINT32_MAX)
		strbuf_addf(&sb, "  - { op: matmul, encoding: %s, kernel: "
		    "%s.dot.scalar }\n", name, name);
	cr_assert(captable_parse("t.yaml", sb.buf, sb.len, t, &err) == 0,
	    "%s", err.msg);
	captable_probe(t, NULL);
	strbuf_free(&sb);
}

/* One 2-D tensor of type, 512 x 4 elements, zero data. */
static char *
one_tensor_file(uint32_t type)
{
	const struct ggml_type_info *ti = ggml_type_get(type);
	const int64_t ne[] = { 512, 4 };
	struct ggufw_model m;
	struct strbuf sb = STRBUF_INIT;
	char *path;

	ggufw_model_init(&m, false, 32);
	ggufw_model_kv_str(&m, "general.architecture", "llama");
	ggufw_model_tensor(&m, "blk.0.attn_q.weight", 2, ne, (int32_t)type,
	    ti->blck, ti->size);
	ggufw_model_finish(&m, &sb, GGUFW_DATA_ZERO);
	path = test_tmpfile(sb.buf, sb.len);
	strbuf_free(&sb);
	ggufw_model_free(&m);
	return path;
}

struct run {
	struct catalog cat;
	struct profile prof;
	struct lint_result res;
};

static void
lint_with(struct run *r, const char *path, const char *profile,
    const struct captable *t, bool strict)
{
	struct lint_options lo = { 0 };
	struct gl_error err;

	cr_assert(catalog_load_builtin(&r->cat, &err) == 0, "%s", err.msg);
	cr_assert(profile_load(profile, &r->prof, &err) == 0, "%s", err.msg);
	lo.cat = &r->cat;
	lo.profile = &r->prof;
	lo.table = t;
	lo.strict = r->prof.strict || strict;
	cr_assert(lint_file(path, &lo, &r->res, &err) == 0, "%s", err.msg);
}

static void
run_free(struct run *r)
{
	lint_result_free(&r->res);
	profile_free(&r->prof);
	catalog_free(&r->cat);
}

static size_t
count_code(const struct run *r, const char *code)
{
	size_t i, n = 0;

	for (i = 0; i < r->res.diags.n; i++)
		n += strcmp(r->res.diags.v[i].rule->code, code) == 0;
	return n;
}

Test(resolve, every_encoding_present_or_absent_on_desktop_and_mobile)
{
	static const char *const profiles[] = { "desktop", "mobile_2gb" };
	uint32_t quantized[GGML_TYPE_COUNT];
	size_t n = quantized_types(quantized), i, p;
	int present;

	cr_assert(n >= 18, "only %zu quantized encodings with kernels", n);
	for (i = 0; i < n; i++) {
		uint32_t type = quantized[i];
		char *path = one_tensor_file(type);

		for (present = 0; present < 2; present++) {
			struct captable t;

			one_entry_table(&t, present ? type : UINT32_MAX);
			for (p = 0; p < 2; p++) {
				struct run r;
				const struct weight_form *w;
				bool mobile = p == 1;

				lint_with(&r, path, profiles[p], &t, false);
				w = &r.res.forms[0];
				if (present) {
					cr_expect_eq(w->encoding, FORM_KEEP,
					    "type %u on %s", type, profiles[p]);
					cr_expect_eq(w->residency, mobile ?
					    WEIGHTS_MAPPED : WEIGHTS_HEAP);
					cr_expect_eq(w->resident_bytes,
					    w->stored_bytes);
					cr_expect(w->entry != NULL);
					cr_expect_eq(count_code(&r, "W001") +
					    count_code(&r, "W002"), 0);
				} else {
					cr_expect_eq(w->encoding,
					    FORM_DEQUANTIZE, "type %u", type);
					cr_expect_eq(w->residency,
					    WEIGHTS_HEAP);
					cr_expect_eq(w->resident_bytes,
					    512 * 4 * 4);
					cr_expect_eq(w->refused, mobile);
					cr_expect_eq(count_code(&r, mobile ?
					    "W001" : "W002"), 1, "type %u on "
					    "%s", type, profiles[p]);
					/* priced at f32 on the heap, or as
					 * stored when the strict profile
					 * refuses the load */
					cr_expect_eq(r.res.plan.weights,
					    mobile ? w->stored_bytes :
					    512 * 4 * 4);
					cr_expect_eq(r.res.plan.weights_heap,
					    mobile ? 0 : 512 * 4 * 4);
				}
				run_free(&r);
			}
			captable_free(&t);
		}
		unlink(path);
		free(path);
	}
}

Test(resolve, dense_weights_ask_for_nothing)
{
	struct captable t;
	struct run r;
	char *path = one_tensor_file(30);	/* bf16 */

	one_entry_table(&t, UINT32_MAX);	/* f32 only */
	lint_with(&r, path, "mobile_2gb", &t, false);
	cr_assert_eq(r.res.forms[0].encoding, FORM_KEEP);
	cr_assert_eq(r.res.forms[0].residency, WEIGHTS_MAPPED);
	cr_assert_eq(count_code(&r, "W001"), 0);
	run_free(&r);
	captable_free(&t);
	unlink(path);
	free(path);
}

/* The strict message names the encoding, the profile and the multiplier. */
Test(resolve, strict_message_and_multipliers)
{
	struct captable t;
	struct run r;
	char *path = one_tensor_file(12);	/* q4_K */
	const struct diag *d = NULL;
	char buf[16];
	size_t i;

	one_entry_table(&t, UINT32_MAX);
	lint_with(&r, path, "desktop", &t, true);	/* --strict */
	for (i = 0; i < r.res.diags.n; i++)
		if (strcmp(r.res.diags.v[i].rule->code, "W001") == 0)
			d = &r.res.diags.v[i];
	cr_assert(d != NULL && d->severity == SEV_ERROR);
	cr_assert(strstr(d->message, "q4_K") != NULL, "%s", d->message);
	cr_assert(strstr(d->message, "desktop is strict") != NULL);
	cr_assert(strstr(d->message, "8.0\xc3\x97") != NULL, "%s", d->message);
	run_free(&r);
	captable_free(&t);
	cr_assert_str_eq(resolve_multiplier(2, buf, sizeof buf), "8.0");
	cr_assert_str_eq(resolve_multiplier(13, buf, sizeof buf), "6.4");
	cr_assert_str_eq(resolve_multiplier(14, buf, sizeof buf), "5.3");
	cr_assert_str_eq(resolve_multiplier(8, buf, sizeof buf), "4.0");
	cr_assert_str_eq(resolve_multiplier(34, buf, sizeof buf), "19.6");
	cr_assert_str_eq(resolve_multiplier(35, buf, sizeof buf), "16.0");
	cr_assert_str_eq(resolve_multiplier(10, buf, sizeof buf), "12.1");
	unlink(path);
	free(path);
}

/* Same file, two profiles, two forms, no change to the file. */
Test(resolve, same_file_two_profiles_two_forms)
{
	struct captable cpu, mobile;
	struct gl_error err;
	struct run a, b;
	char *path = one_tensor_file(12);

	cr_assert(captable_load("cpu", &cpu, &err) == 0, "%s", err.msg);
	cr_assert(captable_load("mobile", &mobile, &err) == 0, "%s", err.msg);
	captable_probe(&cpu, NULL);
	captable_probe(&mobile, NULL);
	lint_with(&a, path, "desktop", &cpu, false);
	lint_with(&b, path, "mobile_2gb", &mobile, false);
	cr_assert_eq(a.res.forms[0].encoding, FORM_KEEP);
	cr_assert_eq(a.res.forms[0].residency, WEIGHTS_HEAP);
	cr_assert_eq(b.res.forms[0].encoding, FORM_DEQUANTIZE);
	cr_assert(b.res.forms[0].refused);
	run_free(&a);
	run_free(&b);
	captable_free(&cpu);
	captable_free(&mobile);
	unlink(path);
	free(path);
}

/* A deliberately wrong kernel: Q4_0 without the -8 offset. */
static float
broken_q4_0_dot(const void *row, const float *x, size_t n)
{
	const uint8_t *b = row;
	float sum = 0;
	size_t i, j;

	for (i = 0; i < n / 32; i++, b += 18) {
		uint16_t h = (uint16_t)(b[0] | b[1] << 8);
		float d = kernel_fp16_to_f32(h);

		for (j = 0; j < 16; j++) {
			sum += d * (float)(b[2 + j] & 15) * x[32 * i + j];
			sum += d * (float)(b[2 + j] >> 4) * x[32 * i + j + 16];
		}
	}
	return sum;
}

Test(resolve, probe_catches_a_wrong_kernel)
{
	const struct kernel reg[] = {
		{ "q4_0.dot.broken", KERNEL_DOT, 2, KERNEL_ORDER_AS_STORED,
		    NULL, broken_q4_0_dot, NULL },
		{ "q4_0.dot.scalar", KERNEL_DOT, 2, KERNEL_ORDER_AS_STORED,
		    NULL, kernel_find(KERNEL_DOT, 2,
		    KERNEL_ORDER_AS_STORED)->dot, NULL },
		{ NULL, KERNEL_DOT, 0, KERNEL_ORDER_AS_STORED, NULL, NULL,
		    NULL }
	};
	const char *yaml = "name: t\ndescription: d\nentries:\n"
	    "  - { op: matmul, encoding: q4_0, kernel: q4_0.dot.broken }\n"
	    "  - { op: matmul, encoding: q4_0, kernel: q4_0.dot.scalar }\n"
	    "  - { op: matmul, encoding: q8_0, kernel: q8_0.dot.fast }\n"
	    "  - { op: matmul, encoding: q8_0, kernel: q4_0.dot.scalar }\n";
	struct captable t;
	struct gl_error err;

	cr_assert(captable_parse("t.yaml", yaml, strlen(yaml), &t, &err) == 0,
	    "%s", err.msg);
	captable_probe(&t, reg);
	cr_assert(!t.entries[0].verified);
	cr_assert(t.entries[0].max_error > PROBE_TOLERANCE);
	cr_assert(strstr(t.entries[0].error, "disagrees") != NULL);
	cr_assert(t.entries[1].verified, "%s", t.entries[1].error);
	cr_assert(t.entries[1].max_error <= PROBE_TOLERANCE);
	cr_assert(!t.entries[2].verified);
	cr_assert(strstr(t.entries[2].error, "no kernel named") != NULL);
	cr_assert(!t.entries[3].verified);
	cr_assert(strstr(t.entries[3].error, "not a dot kernel for q8_0") !=
	    NULL, "%s", t.entries[3].error);
	/* the verified set feeds q4_0 through the correct kernel only */
	cr_assert(captable_feeds(&t, 2) == &t.entries[1]);
	cr_assert(captable_feeds(&t, 8) == NULL);
	captable_free(&t);
}

/*
 * A second probe keeps nothing of the first: an entry whose kernel the
 * second registry lacks has no error figure or time left from the first.
 */
Test(resolve, probe_again_starts_afresh)
{
	const struct kernel reg[] = {
		{ "q4_0.dot.broken", KERNEL_DOT, 2, KERNEL_ORDER_AS_STORED,
		    NULL, broken_q4_0_dot, NULL },
		{ NULL, KERNEL_DOT, 0, KERNEL_ORDER_AS_STORED, NULL, NULL,
		    NULL }
	};
	const char *yaml = "name: t\ndescription: d\nentries:\n"
	    "  - { op: matmul, encoding: q4_0, kernel: q4_0.dot.broken }\n";
	struct captable t;
	struct gl_error err;

	cr_assert(captable_parse("t.yaml", yaml, strlen(yaml), &t, &err) == 0,
	    "%s", err.msg);
	captable_probe(&t, reg);
	cr_assert(t.entries[0].max_error > PROBE_TOLERANCE);
	cr_assert(t.entries[0].kernel == &reg[0]);
	captable_probe(&t, reg + 1);		/* a registry without it */
	cr_assert(t.entries[0].probed && !t.entries[0].verified);
	cr_assert_null(t.entries[0].kernel);
	cr_assert(strstr(t.entries[0].error, "no kernel named") != NULL,
	    "%s", t.entries[0].error);
	cr_expect(t.entries[0].max_error == 0, "%g", t.entries[0].max_error);
	cr_expect(t.entries[0].probe_us == 0, "%g", t.entries[0].probe_us);
	captable_free(&t);
}

/* Every shipped table verifies completely on this machine. */
Test(resolve, shipped_tables_verify)
{
	const char *const *names = captable_builtin_names();
	struct gl_error err;
	size_t i, n = 0;

	for (; *names != NULL; names++, n++) {
		struct captable t;

		cr_assert(captable_load(*names, &t, &err) == 0, "%s", err.msg);
		captable_probe(&t, NULL);
		for (i = 0; i < t.n; i++)
			cr_expect(t.entries[i].verified, "%s: %s: %s", *names,
			    t.entries[i].kernel_name, t.entries[i].error);
		captable_free(&t);
	}
	cr_assert_geq(n, 3);
}

static void
expect_table_error(const char *yaml, const char *where, const char *what)
{
	struct captable t;
	struct gl_error err;

	cr_assert(captable_parse("t.yaml", yaml, strlen(yaml), &t, &err) < 0,
	    "accepted: %s", yaml);
	cr_assert(strstr(err.msg, where) != NULL, "want %s in %s", where,
	    err.msg);
	cr_assert(strstr(err.msg, what) != NULL, "want %s in %s", what,
	    err.msg);
}

Test(resolve, table_errors_name_the_place)
{
	expect_table_error("name: t\ndescription: d\nentries:\n"
	    "  - { op: mul, encoding: q4_0, kernel: k }\n", "t.yaml:4:11",
	    "matmul or get_rows");
	expect_table_error("name: t\ndescription: d\nentries:\n"
	    "  - { op: matmul, encoding: q9_9, kernel: k }\n", "t.yaml:4:29",
	    "ggml type name");
	expect_table_error("name: t\ndescription: d\nentries:\n"
	    "  - { op: matmul, encoding: q4_0 }\n", "t.yaml:4:5",
	    "missing required key 'kernel'");
	expect_table_error("name: t\ndescription: d\nentries: 3\n",
	    "t.yaml:3:10", "list of entries");
	expect_table_error("name: t\nentries: []\n", "t.yaml:1:1",
	    "missing required key 'description'");
	expect_table_error("name: t\ndescription: d\nentries:\n"
	    "  - { op: matmul, encoding: q4_0, kernel: k, order: fed }\n",
	    "t.yaml:4:", "as_stored or kernel_feed");
}

/* K001 reaches the linted file's diagnostics for a broken table entry. */
Test(resolve, unverified_entry_is_k001)
{
	const char *yaml = "name: t\ndescription: d\nentries:\n"
	    "  - { op: matmul, encoding: q4_K, kernel: q4_K.dot.missing }\n";
	struct captable t;
	struct gl_error err;
	struct run r;
	char *path = one_tensor_file(12);

	cr_assert(captable_parse("t.yaml", yaml, strlen(yaml), &t, &err) == 0);
	captable_probe(&t, NULL);
	lint_with(&r, path, "desktop", &t, false);
	cr_assert_eq(count_code(&r, "K001"), 1);
	cr_assert_eq(count_code(&r, "W002"), 1, "the claim is not trusted");
	run_free(&r);
	captable_free(&t);
	unlink(path);
	free(path);
}

/* A kernel-feed table versus an as-stored one: the order follows the
 * verified entry, and a repacked copy lives on the heap, not the mapping. */
Test(resolve, kernel_feed_table_versus_as_stored)
{
	const char *feed = "name: f\ndescription: d\nentries:\n"
	    "  - { op: matmul, encoding: q4_0, order: kernel_feed, "
	    "kernel: q4_0.matvec.feed }\n";
	const char *stored = "name: s\ndescription: d\nentries:\n"
	    "  - { op: matmul, encoding: q4_0, order: as_stored, "
	    "kernel: q4_0.dot.scalar }\n";
	struct captable tf, ts;
	struct gl_error err;
	struct run a, b;
	char *path = one_tensor_file(2);

	cr_assert(captable_parse("f.yaml", feed, strlen(feed), &tf, &err) == 0);
	cr_assert(captable_parse("s.yaml", stored, strlen(stored), &ts, &err)
	    == 0);
	captable_probe(&tf, NULL);
	captable_probe(&ts, NULL);
	cr_assert(tf.entries[0].verified, "%s", tf.entries[0].error);
	lint_with(&a, path, "mobile_2gb", &tf, false);
	lint_with(&b, path, "mobile_2gb", &ts, false);
	cr_assert_eq(a.res.forms[0].encoding, FORM_KEEP);
	cr_assert_eq(a.res.forms[0].order, KERNEL_ORDER_KERNEL_FEED);
	cr_assert_eq(a.res.forms[0].residency, WEIGHTS_HEAP);
	cr_assert_eq(a.res.plan.weights_heap, a.res.forms[0].stored_bytes);
	cr_assert_eq(b.res.forms[0].order, KERNEL_ORDER_AS_STORED);
	cr_assert_eq(b.res.forms[0].residency, WEIGHTS_MAPPED);
	cr_assert_eq(b.res.plan.weights_mapped, b.res.forms[0].stored_bytes);
	run_free(&a);
	run_free(&b);
	captable_free(&tf);
	captable_free(&ts);
	unlink(path);
	free(path);
}

/* The feed-order kernel on a relaid matrix equals the as-stored row dots;
 * reading the as-stored matrix as if it were in feed order does not. */
Test(resolve, feed_order_matvec_matches_row_dots)
{
	const struct kernel *fk = kernel_find(KERNEL_DOT, 8,
	    KERNEL_ORDER_KERNEL_FEED);
	const struct kernel *dk = kernel_find(KERNEL_DOT, 8,
	    KERNEL_ORDER_AS_STORED);
	size_t n = 256, rows = 3, bytes = kernel_row_bytes(8, n), o, i;
	uint8_t *m = xmalloc(bytes * rows), *f = xmalloc(bytes * rows);
	float x[256], y[3], z[3];
	uint64_t rng = 42;
	double worst = 0;

	cr_assert(fk != NULL && fk->matvec != NULL);
	for (o = 0; o < rows; o++)
		probe_fill(8, m + o * bytes, n, &rng);
	for (i = 0; i < n; i++)
		x[i] = (float)((int)(i % 17) - 8) / 8.0f;
	cr_assert(kernel_relayout_feed(8, m, f, n, rows) == 0);
	fk->matvec(f, x, y, n, rows);
	fk->matvec(m, x, z, n, rows);
	for (o = 0; o < rows; o++) {
		float r = dk->dot(m + o * bytes, x, n);

		cr_assert(fabsf(y[o] - r) <= 1e-4f * (1 + fabsf(r)),
		    "row %zu: %g vs %g", o, y[o], r);
		if (fabsf(z[o] - r) > worst)
			worst = fabsf(z[o] - r);
	}
	cr_assert(worst > 1e-3, "the orders must differ for a multi-block row");
	free(m);
	free(f);
}
