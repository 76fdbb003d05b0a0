/*
 * test_deep.c - --deep: per-tensor statistics agree with gguf-py's
 * dequantization of the corpus (values.json), the SHA-256 is of the stored
 * bytes, one thread and several agree, and the D rules fire on NaN/Inf
 * values, invalid block scales, all-zero tensors, absurd magnitudes and
 * quants hidden under zero scales, and not on normal weights (the corpus,
 * the bundled example, the oracle's generated models).
 */
#include "config.h"

#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "data/builtin.h"
#include "checks/checks.h"
#include "ggufw.h"
#include "jsontree.h"
#include "oraclegen.h"
#include "kernels/ggml-types.h"
#include "kernels/kernels.h"
#include "base/sha256.h"
#include "shared_path.h"
#include "source/source.h"
#include "testutil.h"

/* Lint path with --deep (threads workers, full statistics or only the D
 * rules') in process. */
static void
lint_deep_full(struct test_lint *t, const char *path, unsigned threads,
    bool full)
{
	struct lint_options lo = { 0 };
	struct gl_error err;

	memset(t, 0, sizeof *t);
	cr_assert(catalog_load_builtin(&t->cat, &err) == 0, "%s", err.msg);
	lo.cat = &t->cat;
	lo.deep = true;
	lo.deep_full = full;
	lo.threads = threads;
	cr_assert(lint_file(path, &lo, &t->res, &err) == 0, "%s", err.msg);
}

static void
lint_deep(struct test_lint *t, const char *path, unsigned threads)
{
	lint_deep_full(t, path, threads, true);
}

static char *bad_data_file(void);
static const struct diag *about(const struct test_lint *, const char *,
    const char *);

static double
num(const struct jsonnode *o, const char *key)
{
	const struct jsonnode *n = jsontree_get(o, key);

	cr_assert(n != NULL && n->type == JSONTREE_NUMBER, "%s", key);
	return n->number;
}

static void
check_against_values(const char *name)
{
	const char *shared = test_shared_dir();
	struct jsonnode *root;
	const struct jsonnode *tensors;
	struct test_lint t;
	struct gl_error err;
	char *path, *vpath, *text, *perr = NULL;
	size_t len, i, j;

	if (shared == NULL)
		cr_skip_test("../shared is absent: no values.json to compare");
	path = xasprintf("%s/corpus/gguf-py-generated/%s", shared, name);
	vpath = xasprintf("%s.values.json", path);
	cr_assert(read_whole_file(vpath, 1u << 24, &text, &len, &err) == 0);
	root = jsontree_parse(text, len, &perr);
	cr_assert(root != NULL, "%s", perr);
	tensors = jsontree_get(root, "tensors");
	lint_deep(&t, path, 2);
	cr_assert_eq(tensors->n, t.res.file.tensors_n);
	for (i = 0; i < tensors->n; i++) {
		const struct jsonnode *v = jsontree_at(tensors, i);
		const struct deep_stats *s = NULL;
		double n;

		for (j = 0; j < t.res.file.tensors_n; j++)
			if (gguf_str_eq(t.res.file.tensors[j].name,
			    jsontree_str(jsontree_get(v, "name"))))
				s = &t.res.deep[j];
		cr_assert(s != NULL && s->scanned && s->dequantized);
		n = num(v, "n");
		cr_expect_eq((double)s->count, n, "%s", jsontree_str(
		    jsontree_get(v, "name")));
		cr_expect_eq((double)s->nonfinite, num(v, "nonfinite"));
		cr_expect_eq((double)s->zeros, num(v, "zeros"));
		cr_expect_eq(s->min, num(v, "min"));
		cr_expect_eq(s->max, num(v, "max"));
		/* sums in double over f32 values: within rounding of exact */
		cr_expect(fabs(s->sum - num(v, "sum")) <= 1e-9 * (1 +
		    sqrt(num(v, "sum_sq") * n)), "%s: sum %.17g vs %.17g",
		    jsontree_str(jsontree_get(v, "name")), s->sum,
		    num(v, "sum"));
		cr_expect(fabs(s->sum_sq - num(v, "sum_sq")) <= 1e-9 *
		    (1 + num(v, "sum_sq")));
	}
	test_lint_free(&t);
	jsontree_free(root);
	free(text);
	free(path);
	free(vpath);
}

Test(deep, agrees_with_gguf_py_mixed)
{
	check_against_values("llama-tiny-mixed.gguf");
}

Test(deep, agrees_with_gguf_py_qwen2)
{
	check_against_values("qwen2-tiny.gguf");
}

/* Every finding with its subject and message, one a line. */
static char *
findings(const struct test_lint *t)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	for (i = 0; i < t->res.diags.n; i++) {
		const struct diag *d = &t->res.diags.v[i];

		strbuf_addf(&sb, "%s %s: %s\n", d->rule->code,
		    d->subject ? d->subject : "-", d->message);
	}
	return strbuf_detach(&sb);
}

/*
 * What a scan without the full statistics promises, against the full scan
 * a of the same file: the same counts, non-finite values and all-zero
 * verdicts; a bound no value passes; exact ranges where it decoded; no
 * sums and no hash; and the same findings, word for word.
 */
static void
light_matches_full(const struct test_lint *a, const struct test_lint *b,
    const char *what)
{
	char *fa = findings(a), *fb = findings(b);
	size_t i;

	for (i = 0; i < a->res.file.tensors_n; i++) {
		const struct deep_stats *x = &a->res.deep[i];
		const struct deep_stats *y = &b->res.deep[i];
		double big = x->finite ? fmax(fabs(x->min), fabs(x->max)) : 0;

		cr_assert(x->exact && x->scanned == y->scanned &&
		    x->dequantized == y->dequantized, "%s: tensor %zu", what,
		    i);
		cr_assert_str_eq(y->sha256, "", "%s", what);
		cr_assert(x->count == y->count && x->finite == y->finite &&
		    x->nonfinite == y->nonfinite && x->all_zero == y->all_zero,
		    "%s: tensor %zu", what, i);
		cr_assert(y->bound >= big && x->bound == big, "%s: tensor %zu",
		    what, i);
		cr_assert(y->exact || y->bound <= DEEP_RANGE_LIMIT, "%s", what);
		if (y->exact)
			cr_assert(x->min == y->min && x->max == y->max &&
			    x->zeros == y->zeros, "%s: tensor %zu", what, i);
		cr_assert(y->sum == 0 && y->sum_sq == 0, "%s", what);
		cr_assert(x->zs_hidden == y->zs_hidden &&
		    x->zs_benign == y->zs_benign, "%s: tensor %zu", what, i);
	}
	cr_assert_str_eq(fa, fb, "%s", what);
	free(fa);
	free(fb);
}

/*
 * Without the full statistics (the text, SARIF and GitHub reports print
 * only findings) the screens answer the D rules: on the AVX2 path and the
 * portable one.
 */
static void
light_scan_agrees(void)
{
	char *path = xasprintf("%s/examples/stories260K.gguf", test_srcdir());
	char *bad = bad_data_file();
	struct test_lint a, b;
	size_t i;

	lint_deep(&a, path, 2);
	lint_deep_full(&b, path, 2, false);
	cr_assert(a.res.file.tensors_n > 0);
	light_matches_full(&a, &b, path);
	for (i = 0; i < a.res.file.tensors_n; i++) {
		cr_assert_eq(strlen(a.res.deep[i].sha256), 64);
		cr_assert(a.res.deep[i].sum_sq > 0);
		/* stories260K is F32: screened, not decoded */
		cr_assert(!b.res.deep[i].exact, "tensor %zu", i);
		cr_assert(a.res.deep[i].zs_hidden == 0 &&
		    a.res.deep[i].zs_benign == 0, "tensor %zu", i);
	}
	cr_assert_eq(test_count(&a, "D004"), 0, "%s", test_codes(&a));
	test_lint_free(&a);
	test_lint_free(&b);
	lint_deep(&a, bad, 1);
	lint_deep_full(&b, bad, 1, false);
	cr_assert(test_count(&a, "D001") == 3 && test_count(&a, "D002") == 1 &&
	    test_count(&a, "D003") == 1, "%s", test_codes(&a));
	light_matches_full(&a, &b, "D-rule file");
	test_lint_free(&a);
	test_lint_free(&b);
	unlink(bad);
	free(bad);
	free(path);
}

/*
 * Tensors at the screens' edges: a Q4_K whose values pass the D003 limit
 * (decoded for its exact range); Q8_0 with a nonzero scale but every quant
 * zero (all zero, found by decoding every row) and its twin with one
 * nonzero quant in its last row; Q4_K and Q6_K with zero (and minus zero)
 * factors over random quants (all zero, from the factors alone); a Q4_K
 * whose second block has a NaN minimum.
 */
static char *
screen_edge_file(void)
{
	static const int64_t k1[] = { 256 }, k2[] = { 512 };
	static const int64_t r4[] = { 64, 4 }, r8[] = { 32, 8 };
	struct ggufw_model m;
	struct strbuf sb = STRBUF_INIT;
	uint64_t data;
	uint8_t *p, *t;
	char *path;
	size_t i;

	ggufw_model_init(&m, false, 32);
	ggufw_model_kv_str(&m, "general.architecture", "llama");
	ggufw_model_tensor(&m, "big.weight", 1, k1, 12, 256, 144);
	ggufw_model_tensor(&m, "zq.weight", 2, r4, 8, 32, 34);
	ggufw_model_tensor(&m, "lastrow.weight", 2, r8, 8, 32, 34);
	ggufw_model_tensor(&m, "zs.weight", 1, k1, 12, 256, 144);
	ggufw_model_tensor(&m, "negzero.weight", 1, k1, 14, 256, 210);
	ggufw_model_tensor(&m, "nanm.weight", 1, k2, 12, 256, 144);
	data = ggufw_model_finish(&m, &sb, GGUFW_DATA_ZERO);
	p = (uint8_t *)sb.buf + data;
	t = p + m.tensors[0].offset;	/* d = 65504, every other byte 0xff */
	memset(t, 0xff, 144);
	t[0] = 0xff, t[1] = 0x7b, t[2] = 0, t[3] = 0;
	for (i = 0; i < 8; i++) {	/* d = 1.0 in every block */
		t = p + m.tensors[1].offset + 34 * i;
		t[1] = 0x3c;
		t = p + m.tensors[2].offset + 34 * i;
		t[1] = 0x3c;
	}
	p[m.tensors[2].offset + 34 * 7 + 2 + 31] = 1;
	for (i = 4; i < 144; i++)
		p[m.tensors[3].offset + i] = (uint8_t)(0x5a ^ i);
	for (i = 0; i < 208; i++)
		p[m.tensors[4].offset + i] = (uint8_t)(0xa5 ^ i);
	p[m.tensors[4].offset + 209] = 0x80;
	t = p + m.tensors[5].offset;	/* block 0 fine, block 1 dmin NaN */
	for (i = 0; i < 288; i++)
		t[i] = (uint8_t)(0x33 + i);
	t[1] = 0x20, t[3] = 0x20, t[145] = 0x20, t[146] = 0x01, t[147] = 0x7e;
	path = test_tmpfile(sb.buf, sb.len);
	strbuf_free(&sb);
	ggufw_model_free(&m);
	return path;
}

Test(deep, screens_find_what_decoding_finds)
{
	char *path = screen_edge_file();
	struct test_lint a, b;
	const struct diag *d;

	lint_deep(&a, path, 2);
	lint_deep_full(&b, path, 2, false);
	light_matches_full(&a, &b, "screen edge file");
	cr_assert(about(&b, "D003", "big.weight") != NULL, "%s",
	    test_codes(&b));
	cr_assert(b.res.deep[0].exact && !b.res.deep[3].exact);
	cr_assert(about(&b, "D002", "zq.weight") != NULL);
	cr_assert(about(&b, "D002", "lastrow.weight") == NULL);
	cr_assert(about(&b, "D002", "zs.weight") != NULL);
	cr_assert(about(&b, "D002", "negzero.weight") != NULL);
	d = about(&b, "D001", "nanm.weight");
	cr_assert(d != NULL && strstr(d->message, "256 of 512") != NULL);
	cr_assert_eq(test_count(&b, "D001"), 1, "%s", test_codes(&b));
	cr_assert_eq(test_count(&b, "D002"), 3, "%s", test_codes(&b));
	/* zs.weight and negzero.weight: random bytes under zero factors */
	d = about(&b, "D004", "zs.weight");
	cr_assert(d != NULL && d->n_items == 2 && strcmp(d->items[1],
	    "negzero.weight") == 0, "%s", test_codes(&b));
	cr_assert(strstr(d->message, "2 blocks (354 B) in 2 tensors") !=
	    NULL, "%s", d->message);
	cr_assert_eq(test_count(&b, "D004"), 1);
	test_lint_free(&a);
	test_lint_free(&b);
	unlink(path);
	free(path);
}

/* Every corpus file (real writers' output: F32, F16, BF16, legacy and
 * k-quants): the screens and the full decoding agree, and no block hides
 * quants under a zero scale (D004). */
Test(deep, light_scan_agrees_on_the_corpus)
{
	struct corpus c;
	size_t i;

	corpus_list(&c);
	for (i = 0; i < c.n; i++) {
		struct test_lint a, b;

		lint_deep(&a, c.files[i], 2);
		lint_deep_full(&b, c.files[i], 2, false);
		if (a.res.deep != NULL)
			light_matches_full(&a, &b, c.files[i]);
		/* no false alarm on real writers' output */
		cr_assert(test_count(&a, "D004") == 0 && test_count(&b,
		    "D004") == 0, "%s: %s", c.files[i], test_codes(&a));
		test_lint_free(&a);
		test_lint_free(&b);
	}
	corpus_free(&c);
}

Test(deep, light_scan_agrees_with_the_full_one)
{
	light_scan_agrees();
}

/* The SHA-256 is of the stored bytes; one worker and two agree. */
Test(deep, sha256_of_stored_bytes_and_threads_agree)
{
	char *path = xasprintf("%s/examples/stories260K.gguf", test_srcdir());
	struct test_lint a, b;
	struct source_view view = { 0 };
	size_t i;

	lint_deep(&a, path, 1);
	lint_deep(&b, path, 2);
	for (i = 0; i < a.res.file.tensors_n; i++) {
		const struct gguf_tensor *t = &a.res.file.tensors[i];
		const uint8_t *data = source_view_get(&a.res.file.src, &view,
		    a.res.file.data_offset + t->offset, t->nbytes);
		struct sha256 ctx;
		uint8_t d[32];
		char hex[65];

		cr_assert(data != NULL);
		sha256_init(&ctx);
		sha256_update(&ctx, data, (size_t)t->nbytes);
		sha256_final(&ctx, d);
		sha256_hex(d, hex);
		cr_assert_str_eq(a.res.deep[i].sha256, hex);
		cr_assert_str_eq(b.res.deep[i].sha256, hex);
		cr_assert_eq(a.res.deep[i].count, b.res.deep[i].count);
		cr_assert_eq(a.res.deep[i].min, b.res.deep[i].min);
		cr_assert_eq(a.res.deep[i].max, b.res.deep[i].max);
		cr_assert_eq(a.res.deep[i].zeros, b.res.deep[i].zeros);
		cr_assert(fabs(a.res.deep[i].sum - b.res.deep[i].sum) <=
		    1e-9 * (1 + fabs(a.res.deep[i].sum_sq)));
	}
	source_view_release(&view);
	cr_assert_eq(a.res.diags.n, 0, "clean model: %s", test_codes(&a));
	test_lint_free(&a);
	test_lint_free(&b);
	free(path);
}

/* A model whose tensors carry what the D rules look for. */
static char *
bad_data_file(void)
{
	static const int64_t n32[] = { 32 }, n64[] = { 64 };
	struct ggufw_model m;
	struct strbuf sb = STRBUF_INIT;
	uint64_t data;
	uint8_t *p;
	char *path;
	size_t i;

	ggufw_model_init(&m, false, 32);
	ggufw_model_kv_str(&m, "general.architecture", "llama");
	ggufw_model_tensor(&m, "nan.weight", 1, n32, 1, 1, 2);	/* f16 */
	ggufw_model_tensor(&m, "q8.weight", 1, n64, 8, 32, 34);	/* q8_0 */
	ggufw_model_tensor(&m, "mx.weight", 1, n32, 39, 32, 17); /* mxfp4 */
	ggufw_model_tensor(&m, "zero.weight", 1, n32, 0, 1, 4);
	ggufw_model_tensor(&m, "huge.weight", 1, n32, 0, 1, 4);
	ggufw_model_tensor(&m, "fine.weight", 1, n32, 0, 1, 4);
	data = ggufw_model_finish(&m, &sb, GGUFW_DATA_ZERO);
	p = (uint8_t *)sb.buf + data;
	/* nan.weight: element 3 is an f16 NaN */
	p[m.tensors[0].offset + 6] = 0x01;
	p[m.tensors[0].offset + 7] = 0x7e;
	/* q8.weight: block 1 has an infinite scale (0x7c00) and q = 1 */
	p[m.tensors[1].offset + 34] = 0x00;
	p[m.tensors[1].offset + 35] = 0x7c;
	p[m.tensors[1].offset + 36] = 1;
	/* mx.weight: scale 0xFF is NaN in E8M0; quants 1 and 7 would decode
	 * (as ggml does) to 2^127, finite but absurd, and 12 * 2^127 = Inf */
	p[m.tensors[2].offset] = 0xff;
	memset(p + m.tensors[2].offset + 1, 0x71, 16);
	/* huge.weight: one value of 1e6; fine.weight: small values */
	for (i = 0; i < 32; i++) {
		float v = i == 5 ? 1e6f : 0.01f * (float)i, w = 0.5f - 0.02f *
		    (float)i;

		memcpy(p + m.tensors[4].offset + 4 * i, &v, 4);
		memcpy(p + m.tensors[5].offset + 4 * i, &w, 4);
	}
	path = test_tmpfile(sb.buf, sb.len);
	strbuf_free(&sb);
	ggufw_model_free(&m);
	return path;
}

static const struct diag *
about(const struct test_lint *t, const char *code, const char *tensor)
{
	size_t i;

	for (i = 0; i < t->res.diags.n; i++) {
		const struct diag *d = &t->res.diags.v[i];

		if (strcmp(d->rule->code, code) == 0 && d->subject != NULL &&
		    strcmp(d->subject, tensor) == 0)
			return d;
	}
	return NULL;
}

Test(deep, d_rules_fire_where_they_should_and_only_there)
{
	char *path = bad_data_file();
	struct test_lint t;
	char *codes;

	lint_deep(&t, path, 2);
	cr_assert(about(&t, "D001", "nan.weight") != NULL, "%s",
	    test_codes(&t));
	cr_assert(strstr(about(&t, "D001", "nan.weight")->message, "1 of 32")
	    != NULL);
	cr_assert(about(&t, "D001", "q8.weight") != NULL);
	cr_assert(about(&t, "D001", "mx.weight") != NULL);
	/* its 32 values, once each: not its Inf values plus the block */
	cr_assert(strstr(about(&t, "D001", "mx.weight")->message, "32 of 32")
	    != NULL, "%s", about(&t, "D001", "mx.weight")->message);
	cr_assert(about(&t, "D003", "mx.weight") == NULL);
	cr_assert(about(&t, "D002", "zero.weight") != NULL);
	cr_assert(about(&t, "D003", "huge.weight") != NULL);
	cr_assert(about(&t, "D001", "fine.weight") == NULL);
	cr_assert(about(&t, "D002", "fine.weight") == NULL);
	cr_assert(about(&t, "D003", "fine.weight") == NULL);
	cr_assert(about(&t, "D002", "nan.weight") == NULL);
	/* its block scale is NaN: not "all zero", though the kernel wrote 0 */
	cr_assert(about(&t, "D002", "mx.weight") == NULL);
	cr_assert_eq(test_count(&t, "D001"), 3);
	codes = xstrdup(test_codes(&t));
	test_lint_free(&t);
	/* the same with only the D rules' statistics (the text report) */
	lint_deep_full(&t, path, 2, false);
	cr_assert_str_eq(test_codes(&t), codes);
	test_lint_free(&t);
	free(codes);
	unlink(path);
	free(path);
}

/* Without --deep nothing reads the data. */
Test(deep, off_by_default)
{
	char *path = bad_data_file();
	const char *argv[] = { "--no-config", "--format=json", path, NULL };
	const char *deep[] = { "--no-config", "--deep", "--format=json", path,
	    NULL };
	struct test_run r;

	test_run_bin(&r, argv, NULL, 0);
	cr_assert(strstr(r.out, "\"deep\": null") != NULL);
	cr_assert(strstr(r.out, "D001") == NULL);
	test_run_free(&r);
	test_run_bin(&r, deep, NULL, 0);
	cr_assert_eq(r.status, 1);
	cr_assert(strstr(r.out, "\"sha256\": \"") != NULL);
	cr_assert(strstr(r.out, "\"D001\"") != NULL);
	test_run_free(&r);
	deep[2] = "--format=text";
	test_run_bin(&r, deep, NULL, 0);
	cr_assert_eq(r.status, 1);
	cr_assert(strstr(r.out, "D001") != NULL, "%s", r.out);
	test_run_free(&r);
	unlink(path);
	free(path);
}

/* The portable statistics path (the others run AVX2 where the CPU has it;
 * and SHA-256 without the SHA extensions). */
static void
force_portable(void)
{
	setenv("GGUFLINT_NO_AVX2", "1", 1);
	setenv("GGUFLINT_NO_SHA_NI", "1", 1);
}

Test(deep, portable_paths_agree_with_gguf_py, .init = force_portable)
{
	check_against_values("llama-tiny-mixed.gguf");
}

Test(deep, portable_paths_find_nan, .init = force_portable)
{
	char *path = bad_data_file();
	struct test_lint t;

	lint_deep(&t, path, 1);
	cr_assert_eq(test_count(&t, "D001"), 3, "%s", test_codes(&t));
	cr_assert(about(&t, "D002", "zero.weight") != NULL);
	test_lint_free(&t);
	unlink(path);
	free(path);
}

Test(deep, portable_light_scan_agrees, .init = force_portable)
{
	light_scan_agrees();
}

/*
 * A file that shrinks while --deep reads it: the tensors past its new end
 * are truncated (F032), and not all zero though every byte read was zero,
 * both with the screens and with the full decoding.
 */
Test(deep, a_file_that_shrinks_is_truncated_not_zero)
{
	static const int64_t ne[] = { 4096, 64 };	/* 147 456 bytes */
	struct ggufw_model m;
	struct strbuf sb = STRBUF_INIT;
	struct catalog cat;
	struct gl_error err;
	int full;

	cr_assert(catalog_load_builtin(&cat, &err) == 0, "%s", err.msg);
	ggufw_model_init(&m, false, 32);
	ggufw_model_kv_str(&m, "general.architecture", "llama");
	ggufw_model_tensor(&m, "a.weight", 2, ne, 12, 256, 144);
	ggufw_model_tensor(&m, "b.weight", 2, ne, 12, 256, 144);
	ggufw_model_tensor(&m, "c.weight", 2, ne, 14, 256, 210);
	ggufw_model_finish(&m, &sb, GGUFW_DATA_ZERO);
	for (full = 0; full < 2; full++) {
		char *path = test_tmpfile(sb.buf, sb.len);
		struct deep_stats st[3];
		struct check_ctx c = { 0 };
		struct diag_list dl;
		struct gguf_file f;

		diag_list_init(&dl, &cat);
		cr_assert(gguf_open(&f, path, &err) == 0, "%s", err.msg);
		gguf_parse(&f, &dl);
		cr_assert(f.header_complete && f.tensors_n == 3);
		/* keep a.weight and a page of b.weight */
		cr_assert(truncate(path, (off_t)(f.data_offset +
		    f.tensors[1].offset + 4096)) == 0);
		deep_scan(&f, st, 2, full);
		cr_assert(!st[0].truncated && st[0].all_zero);
		cr_assert(st[1].truncated && !st[1].all_zero, "full %d", full);
		cr_assert(st[2].truncated && !st[2].all_zero, "full %d", full);
		c.file = &f;
		c.deep = st;
		check_deep(&c, &dl);
		diag_finish(&dl);
		cr_assert_eq(dl.n, 3, "full %d: %zu findings", full, dl.n);
		cr_assert_str_eq(dl.v[0].rule->code, "D002");
		cr_assert_str_eq(dl.v[1].rule->code, "F032");
		cr_assert_str_eq(dl.v[2].rule->code, "F032");
		diag_list_free(&dl);
		gguf_close(&f);
		unlink(path);
		free(path);
	}
	strbuf_free(&sb);
	ggufw_model_free(&m);
	catalog_free(&cat);
}

/* The statistics of a tensor of twins x (little-endian) and y; quantized,
 * its first block hides its quants under a zero scale. */
static void
twins_agree(const struct deep_stats *x, const struct deep_stats *y,
    bool quantized, int full)
{
	cr_assert(y->dequantized && x->count == 512 && x->count == y->count &&
	    x->finite == 512 && x->finite == y->finite && x->min == y->min &&
	    x->max == y->max && x->zeros == y->zeros && x->sum == y->sum &&
	    x->sum_sq == y->sum_sq && x->bound == y->bound &&
	    x->all_zero == y->all_zero, "full %d", full);
	if (full)
		cr_assert_str_neq(x->sha256, y->sha256);
	cr_assert(x->zs_hidden == quantized && x->zs_hidden == y->zs_hidden &&
	    x->zs_benign == 0 && y->zs_benign == 0, "full %d", full);
}

/*
 * A big-endian file and its little-endian twin (the same values; the data
 * swapped as gguf-py swaps it) have the same statistics, with the full
 * decoding and with the screens, and different hashes of their stored
 * bytes. A type whose big-endian layout nobody defines (Q5_K) is hashed
 * but not decoded. The first block of each quantized tensor has a zero
 * scale over its random quants: D004 counts it in both.
 */
Test(deep, a_big_endian_file_reads_as_its_little_endian_twin)
{
	static const int64_t flat[] = { 512 }, rows[] = { 256, 2 };
	static const struct { uint32_t type, blck, size; } ty[] = {
		{ 0, 1, 4 }, { 1, 1, 2 }, { 30, 1, 2 }, { 2, 32, 18 },
		{ 8, 32, 34 }, { 12, 256, 144 }, { 14, 256, 210 },
		{ 13, 256, 176 },
	};
	struct ggufw_model le, be;
	struct strbuf lb = STRBUF_INIT, bb = STRBUF_INIT;
	uint64_t ld, bd;
	char *lpath, *bpath, name[32];
	struct test_lint a, b;
	size_t i, n = sizeof ty / sizeof ty[0];
	int full;

	ggufw_model_init(&le, false, 32);
	ggufw_model_init(&be, true, 32);
	for (i = 0; i < n; i++) {
		snprintf(name, sizeof name, "t%zu.weight", i);
		ggufw_model_tensor(&le, name, ty[i].blck == 1 ? 1 : 2,
		    ty[i].blck == 1 ? flat : rows, ty[i].type, ty[i].blck,
		    ty[i].size);
		ggufw_model_tensor(&be, name, ty[i].blck == 1 ? 1 : 2,
		    ty[i].blck == 1 ? flat : rows, ty[i].type, ty[i].blck,
		    ty[i].size);
	}
	ld = ggufw_model_finish(&le, &lb, GGUFW_DATA_RANDOM);
	bd = ggufw_model_finish(&be, &bb, GGUFW_DATA_ZERO);
	for (i = 0; i < n; i++) {
		uint8_t *src = (uint8_t *)lb.buf + ld + le.tensors[i].offset;
		uint8_t *dst = (uint8_t *)bb.buf + bd + be.tensors[i].offset;
		unsigned off[2];

		cr_assert_eq(le.tensors[i].offset, be.tensors[i].offset);
		if (kernel_fp16_factors(ty[i].type, off) > 0)
			src[off[0]] = src[off[0] + 1] = 0;
		/* the conversion is its own inverse: it makes the twin */
		if (!kernel_from_be(ty[i].type, src, dst, 512))
			memcpy(dst, src, 512 / ty[i].blck * ty[i].size);
	}
	lpath = test_tmpfile(lb.buf, lb.len);
	bpath = test_tmpfile(bb.buf, bb.len);
	for (full = 0; full < 2; full++) {
		lint_deep_full(&a, lpath, 2, full);
		lint_deep_full(&b, bpath, 2, full);
		cr_assert_eq(b.res.file.tensors_n, n);
		for (i = 0; i < n; i++) {
			cr_assert(a.res.deep[i].dequantized, "t%zu", i);
			if (ty[i].type == 13)
				cr_assert(!b.res.deep[i].dequantized &&
				    b.res.deep[i].scanned == full);
			else
				twins_agree(&a.res.deep[i], &b.res.deep[i],
				    ty[i].blck > 1, full);
		}
		cr_assert(test_count(&a, "D004") == 1 && test_count(&b,
		    "D004") == 1, "%s", test_codes(&b));
		cr_assert_eq(test_count(&a, "D001") + test_count(&a, "D003"), 0,
		    "%s", test_codes(&a));
		cr_assert_eq(test_count(&b, "D001") + test_count(&b, "D003"), 0,
		    "%s", test_codes(&b));
		test_lint_free(&a);
		test_lint_free(&b);
	}
	unlink(lpath);
	unlink(bpath);
	free(lpath);
	free(bpath);
	strbuf_free(&lb);
	strbuf_free(&bb);
	ggufw_model_free(&le);
	ggufw_model_free(&be);
}

/* ---- the grid i-quants ---- */

static const uint32_t grid_types[] = { 16, 17, 22, 18, 21, 19, 29 };
static const char *const grid_kinds[] = { "ok", "nan", "zero", "huge" };

#define N_GRID (sizeof grid_types / sizeof grid_types[0])

/* Make h the fp16 d of the block at b (IQ1_M: the scales' top nibbles). */
static void
grid_put_d(uint32_t type, uint8_t *b, uint16_t h)
{
	int k;

	if (type != 29) {
		b[0] = (uint8_t)h;
		b[1] = (uint8_t)(h >> 8);
		return;
	}
	for (k = 0; k < 4; k++)
		b[49 + 2 * k] = (uint8_t)((b[49 + 2 * k] & 0x0f) |
		    (h >> 4 * k & 15) << 4);
}

/*
 * Each grid i-quant four times, two blocks a tensor over bytes of a fixed
 * pattern: "ok" with d = 0.01 (0x211f), "nan" whose block 1 has a NaN d,
 * "zero" with d = 0 and -0, "huge" with d = 65504.
 */
static char *
grid_file(void)
{
	static const int64_t n512[] = { 512 };
	static const uint16_t d0[4] = { 0x211f, 0x211f, 0x0000, 0x7bff };
	static const uint16_t d1[4] = { 0x211f, 0x7e00, 0x8000, 0x7bff };
	struct ggufw_model m;
	struct strbuf sb = STRBUF_INIT;
	uint64_t data;
	uint8_t *p;
	char *path;
	size_t t, k, i;

	ggufw_model_init(&m, false, 32);
	ggufw_model_kv_str(&m, "general.architecture", "llama");
	for (t = 0; t < N_GRID; t++)
		for (k = 0; k < 4; k++) {
			const struct ggml_type_info *ti =
			    ggml_type_get(grid_types[t]);
			char name[64];

			snprintf(name, sizeof name, "%s.%s.weight", ti->name,
			    grid_kinds[k]);
			ggufw_model_tensor(&m, name, 1, n512,
			    (int32_t)grid_types[t], ti->blck, ti->size);
		}
	data = ggufw_model_finish(&m, &sb, GGUFW_DATA_ZERO);
	p = (uint8_t *)sb.buf + data;
	for (i = 0; i < m.n_tensors; i++) {
		uint32_t type = grid_types[i / 4];
		unsigned size = ggml_type_get(type)->size;
		uint8_t *b = p + m.tensors[i].offset;

		for (k = 0; k < 2 * size; k++)
			b[k] = (uint8_t)(k * 37 + i * 11 + 5);
		grid_put_d(type, b, d0[i % 4]);
		grid_put_d(type, b + size, d1[i % 4]);
	}
	path = test_tmpfile(sb.buf, sb.len);
	strbuf_free(&sb);
	ggufw_model_free(&m);
	return path;
}

/* The statistics of "ok": its two blocks decoded here, by the kernel. */
static void
grid_check_ok(const struct test_lint *t, size_t i, uint32_t type)
{
	const struct kernel *k = kernel_find(KERNEL_DEQUANT, type,
	    KERNEL_ORDER_AS_STORED);
	const struct deep_stats *s = &t->res.deep[i];
	const uint8_t *data = t->res.file.map + t->res.file.data_offset +
	    t->res.file.tensors[i].offset;
	float v[512];
	double sum = 0, mn = INFINITY, mx = -INFINITY;
	size_t j;

	cr_assert(k != NULL);
	k->dequant(data, v, 512);
	for (j = 0; j < 512; j++) {
		sum += v[j];
		mn = fmin(mn, v[j]);
		mx = fmax(mx, v[j]);
	}
	cr_assert(s->scanned && s->dequantized && s->exact, "tensor %zu", i);
	cr_assert(s->count == 512 && s->finite == 512 && s->nonfinite == 0);
	cr_assert(s->min == mn && s->max == mx, "tensor %zu: %g..%g, "
	    "decoded %g..%g", i, s->min, s->max, mn, mx);
	cr_assert(fabs(s->sum - sum) <= 1e-9 * (1 + fabs(sum)));
	cr_assert(mx > 0 && mn < 0 && mx < 100, "%g..%g", mn, mx);
}

Test(deep, grid_iquants_have_statistics_and_screens)
{
	char *path = grid_file();
	struct test_lint a, b;
	size_t t, i;

	lint_deep(&a, path, 2);
	lint_deep_full(&b, path, 2, false);
	cr_assert_eq(a.res.file.tensors_n, 4 * N_GRID);
	light_matches_full(&a, &b, "grid i-quants");
	for (t = 0; t < N_GRID; t++) {
		const char *tn = ggml_type_get(grid_types[t])->name;
		char name[4][64];
		const struct diag *d;

		for (i = 0; i < 4; i++)
			snprintf(name[i], sizeof name[i], "%s.%s.weight", tn,
			    grid_kinds[i]);
		grid_check_ok(&a, 4 * t, grid_types[t]);
		cr_assert(!b.res.deep[4 * t].exact, "%s: screened", tn);
		d = about(&b, "D001", name[1]);
		cr_assert(d != NULL && strstr(d->message, "256 of 512") !=
		    NULL, "%s: %s", tn, test_codes(&b));
		cr_assert(about(&b, "D002", name[2]) != NULL, "%s", tn);
		cr_assert(about(&b, "D003", name[3]) != NULL, "%s", tn);
		cr_assert(b.res.deep[4 * t + 3].exact, "%s: decoded", tn);
		for (i = 0; i < 4; i++)
			cr_assert((about(&b, "D001", name[i]) != NULL) ==
			    (i == 1) && (about(&b, "D002", name[i]) != NULL) ==
			    (i == 2) && (about(&b, "D003", name[i]) != NULL) ==
			    (i == 3), "%s: %s", name[i], test_codes(&b));
	}
	test_lint_free(&a);
	test_lint_free(&b);
	unlink(path);
	free(path);
}

/*
 * Zero-scale blocks: q8_0 blocks with a zero (and a minus zero) scale over
 * non-zero quants, and one over zeros; a q4_K super-block with d zero over
 * a non-zero quant, and one whose d is zero but whose minimum (visible)
 * is not; q4_0, q5_0 and iq4_nl blocks of zeros as ggml's quantizers write
 * them (quants at the level nearest zero, or all zero); a q8_1 block (no
 * kernel decodes it) hiding a quant; and a normal q8_0 tensor.
 */
static char *
zero_scale_file(void)
{
	static const int64_t n32[] = { 32 }, n64[] = { 64 }, n128[] = { 128 };
	static const int64_t n768[] = { 768 };
	struct ggufw_model m;
	struct strbuf sb = STRBUF_INIT;
	uint64_t data;
	uint8_t *p, *t;
	char *path;
	size_t i;

	ggufw_model_init(&m, false, 32);
	ggufw_model_kv_str(&m, "general.architecture", "llama");
	ggufw_model_tensor(&m, "hid8.weight", 1, n128, 8, 32, 34);
	ggufw_model_tensor(&m, "hid4k.weight", 1, n768, 12, 256, 144);
	ggufw_model_tensor(&m, "zero4.weight", 1, n64, 2, 32, 18);
	ggufw_model_tensor(&m, "zero5.weight", 1, n32, 6, 32, 22);
	ggufw_model_tensor(&m, "zeronl.weight", 1, n32, 20, 32, 18);
	ggufw_model_tensor(&m, "q81.weight", 1, n32, 9, 32, 36);
	ggufw_model_tensor(&m, "fine8.weight", 1, n64, 8, 32, 34);
	data = ggufw_model_finish(&m, &sb, GGUFW_DATA_ZERO);
	p = (uint8_t *)sb.buf + data;
	t = p + m.tensors[0].offset;	/* hid8: 1.0, hidden, zeros, hidden */
	t[1] = 0x3c;
	for (i = 0; i < 32; i++)
		t[2 + i] = (uint8_t)(i + 1);
	t[34 + 2 + 5] = 0x41;
	t[3 * 34 + 1] = 0x80;
	memset(t + 3 * 34 + 2, 0x7f, 32);
	t = p + m.tensors[1].offset;	/* hid4k: min only, hidden, normal */
	t[3] = 0x3c;
	memset(t + 8, 0x3f, 4);
	t[144 + 16 + 17] = 0x10;
	for (i = 0; i < 144; i++)
		t[288 + i] = (uint8_t)(0x11 * i + 7);
	t[288] = 0, t[289] = 0x3c, t[290] = 0, t[291] = 0x38;
	t = p + m.tensors[2].offset;	/* zero4: -0 over 8s, 0 over 0s */
	t[1] = 0x80;
	memset(t + 2, 0x88, 16);
	t = p + m.tensors[3].offset;	/* zero5: -0, every fifth bit set */
	t[1] = 0x80;
	memset(t + 2, 0xff, 4);
	memset(p + m.tensors[4].offset + 2, 0x88, 16);	/* zeronl */
	p[m.tensors[5].offset + 4] = 3;			/* q81 */
	t = p + m.tensors[6].offset;	/* fine8: d = 0.5, quants -16..15 */
	for (i = 0; i < 2; i++) {
		size_t j;

		t[34 * i + 1] = 0x38;
		for (j = 0; j < 32; j++)
			t[34 * i + 2 + j] = (uint8_t)(j - 16);
	}
	path = test_tmpfile(sb.buf, sb.len);
	strbuf_free(&sb);
	ggufw_model_free(&m);
	return path;
}

static const struct deep_stats *
stats_of(const struct test_lint *t, const char *name)
{
	size_t i;

	for (i = 0; i < t->res.file.tensors_n; i++)
		if (gguf_str_eq(t->res.file.tensors[i].name, name))
			return &t->res.deep[i];
	cr_assert_fail("no tensor %s", name);
	return NULL;
}

/* The counts of zero_scale_file's tensors, hidden and benign blocks. */
static void
zero_scale_counts(const struct test_lint *t)
{
	static const struct {
		const char *name;
		uint64_t hidden, benign;
	} want[] = {
		{ "hid8.weight", 2, 1 }, { "hid4k.weight", 1, 1 },
		{ "zero4.weight", 0, 2 }, { "zero5.weight", 0, 1 },
		{ "zeronl.weight", 0, 1 }, { "q81.weight", 1, 0 },
		{ "fine8.weight", 0, 0 },
	};
	size_t i;

	for (i = 0; i < sizeof want / sizeof want[0]; i++) {
		const struct deep_stats *s = stats_of(t, want[i].name);

		cr_assert(s->scanned, "%s", want[i].name);
		cr_assert(s->zs_hidden == want[i].hidden && s->zs_benign ==
		    want[i].benign, "%s: %llu hidden, %llu benign",
		    want[i].name, (unsigned long long)s->zs_hidden,
		    (unsigned long long)s->zs_benign);
	}
}

Test(deep, zero_scale_blocks_hiding_quants_are_d004)
{
	char *path = zero_scale_file();
	struct test_lint a, b;
	const struct diag *d;

	lint_deep(&a, path, 2);
	lint_deep_full(&b, path, 1, false);
	zero_scale_counts(&a);
	zero_scale_counts(&b);
	cr_assert_eq(test_count(&a, "D004"), 1, "%s", test_codes(&a));
	cr_assert_str_eq(test_codes(&a), test_codes(&b));
	d = about(&a, "D004", "hid8.weight");
	cr_assert(d != NULL && d->severity == SEV_WARNING);
	/* 2 q8_0 blocks, a q4_K one and a q8_1 one: 68 + 144 + 36 bytes */
	cr_assert(strstr(d->message, "4 blocks (248 B) in 3 tensors") !=
	    NULL, "%s", d->message);
	cr_assert(d->n_items == 3 && strcmp(d->items[0], "hid8.weight") ==
	    0 && strcmp(d->items[1], "hid4k.weight") == 0 &&
	    strcmp(d->items[2], "q81.weight") == 0);
	cr_assert(strstr(d->note, "hid8.weight (2), hid4k.weight (1), "
	    "q81.weight (1)") != NULL, "%s", d->note);
	cr_assert(strstr(d->note, "6 blocks of zeros") != NULL, "%s",
	    d->note);
	/* the benign tensors are all zero, which is D002's, not D004's */
	cr_assert(about(&a, "D002", "zero4.weight") != NULL);
	cr_assert(about(&a, "D002", "fine8.weight") == NULL);
	test_lint_free(&a);
	test_lint_free(&b);
	unlink(path);
	free(path);
}

/* JSON's --deep statistics carry the counts. */
Test(deep, zero_scale_counts_in_json)
{
	char *path = zero_scale_file();
	const char *argv[] = { "--no-config", "--deep", "--format=json",
	    path, NULL };
	struct test_run r;

	test_run_bin(&r, argv, NULL, 0);
	cr_assert_eq(r.status, 1, "%s", r.err);	/* M001: no geometry */
	cr_assert(strstr(r.out, "\"zero_scale_hidden\": 2, "
	    "\"zero_scale_benign\": 1") != NULL, "%s", r.out);
	cr_assert(strstr(r.out, "\"D004\"") != NULL);
	test_run_free(&r);
	unlink(path);
	free(path);
}

/*
 * kernel_zero_scale on one block of each type it reads: zeros under a
 * zero scale are benign; a byte d multiplies makes the block hidden, a
 * byte it does not (a minimum) leaves it benign; a nonzero d, neither.
 */
Test(deep, zero_scale_layouts)
{
	static const struct {
		uint32_t type;
		unsigned size, blck, d_off, under_d, beside_d;
	} ty[] = {	/* beside_d 0: none (a byte d multiplies at 0) */
		{ 2, 18, 32, 0, 17, 0 }, { 3, 20, 32, 0, 19, 2 },
		{ 6, 22, 32, 0, 2, 0 }, { 7, 24, 32, 0, 5, 3 },
		{ 8, 34, 32, 0, 33, 0 }, { 9, 36, 32, 0, 35, 2 },
		{ 10, 84, 256, 80, 15, 83 }, { 11, 110, 256, 108, 100, 0 },
		{ 12, 144, 256, 0, 12, 9 }, { 13, 176, 256, 0, 20, 10 },
		{ 14, 210, 256, 208, 193, 0 }, { 20, 18, 32, 0, 3, 0 },
		{ 23, 136, 256, 0, 3, 0 }, { 34, 54, 256, 52, 49, 0 },
		{ 35, 66, 256, 64, 63, 0 }, { 41, 18, 128, 0, 2, 0 },
		{ 42, 18, 64, 0, 17, 0 },
	};
	uint8_t b[256];
	size_t i;

	for (i = 0; i < sizeof ty / sizeof ty[0]; i++) {
		struct kernel_zero_scale z = { 0, 0 };

		cr_assert(kernel_zero_scale_has(ty[i].type));
		memset(b, 0, sizeof b);
		cr_assert(kernel_zero_scale(ty[i].type, b, ty[i].blck, &z));
		if (ty[i].beside_d != 0) {
			b[ty[i].beside_d] = 0x11;
			cr_assert(kernel_zero_scale(ty[i].type, b, ty[i].blck,
			    &z));
		}
		b[ty[i].under_d] = 0x01;
		cr_assert(kernel_zero_scale(ty[i].type, b, ty[i].blck, &z));
		b[ty[i].d_off + 1] = 0x80;	/* minus zero: still zero */
		cr_assert(kernel_zero_scale(ty[i].type, b, ty[i].blck, &z));
		b[ty[i].d_off] = 0x01;		/* the least subnormal */
		cr_assert(kernel_zero_scale(ty[i].type, b, ty[i].blck, &z));
		cr_assert(z.benign == 1 + (ty[i].beside_d != 0) &&
		    z.hidden == 2, "type %u: %llu benign, %llu hidden",
		    ty[i].type, (unsigned long long)z.benign,
		    (unsigned long long)z.hidden);
		cr_assert(!kernel_zero_scale(ty[i].type, b, ty[i].blck + 1,
		    &z));
	}
	cr_assert(!kernel_zero_scale_has(GGML_TYPE_F32));
	cr_assert(!kernel_zero_scale_has(GGML_TYPE_IQ2_XXS));
}

/*
 * The oracle's generated models (q4_0 and q8_0 matrices over zeros, every
 * architecture it has a geometry of): every quantized block is zeros under
 * a zero scale, counted benign, and D004 finds nothing.
 */
Test(deep, no_zero_scale_alarm_on_generated_models)
{
	static const char *const wtypes[] = { "q4_0", "q8_0" };
	unsigned step = test_valgrind_step(16);
	uint64_t benign = 0;
	char why[256];
	size_t i, k, j, files = 0;

	for (i = 0; oraclegen_arch(i) != NULL; i += step)
		for (k = 0; k < 2; k++) {
			char *path = test_tmpfile("", 0);
			struct test_lint t;

			cr_assert(oraclegen_write(oraclegen_arch(i), wtypes[k],
			    path, why, sizeof why) == 0, "%s", why);
			lint_deep_full(&t, path, 2, false);
			cr_assert(t.res.deep != NULL);
			cr_assert_eq(test_count(&t, "D004"), 0, "%s %s: %s",
			    oraclegen_arch(i), wtypes[k], test_codes(&t));
			for (j = 0; j < t.res.file.tensors_n; j++) {
				cr_assert_eq(t.res.deep[j].zs_hidden, 0);
				benign += t.res.deep[j].zs_benign;
			}
			files++;
			test_lint_free(&t);
			unlink(path);
			free(path);
		}
	cr_assert(files >= 2 && benign > 0);
}

/*
 * The blocks ggml's quantizers write for a row of zeros, and for a row of
 * -0.5 in the types with a minimum (ggml_quantize_chunk of libggml-base,
 * with and without an importance matrix, gave the same bytes): a zero
 * scale over quants at the level nearest zero, or over zeros, is benign.
 */
Test(deep, zero_scale_blocks_as_quantizers_write_them)
{
	static const struct {
		uint32_t type;
		unsigned size, blck;
		struct {
			unsigned at, n;
			uint8_t v;
		} fill[4];
	} q[] = {
		{ 2, 18, 32, { { 1, 1, 0x80 }, { 2, 16, 0x88 } } },
		{ 6, 22, 32, { { 1, 1, 0x80 }, { 2, 4, 0xff } } },
		{ 20, 18, 32, { { 2, 16, 0x88 } } },
		{ 23, 136, 256, { { 1, 1, 0x80 }, { 2, 2, 0xaa },
		    { 8, 128, 0x88 } } },
		{ 34, 54, 256, { { 0, 48, 0x80 }, { 48, 4, 0x7f } } },
		{ 35, 66, 256, { { 0, 64, 0x55 } } },
		{ 41, 18, 128, { { 2, 16, 0xff } } },
		{ 42, 18, 64, { { 2, 16, 0x55 } } },
		/* -0.5: the minimum is 0.5, every quant 0 */
		{ 3, 20, 32, { { 3, 1, 0xb8 } } },
		{ 7, 24, 32, { { 3, 1, 0xb8 } } },
		{ 10, 84, 256, { { 0, 16, 0xf0 }, { 82, 1, 0x80 },
		    { 83, 1, 0x38 } } },
		{ 12, 144, 256, { { 2, 1, 0x10 }, { 3, 1, 0x20 },
		    { 8, 4, 0xff }, { 12, 4, 0xf0 } } },
		{ 13, 176, 256, { { 2, 1, 0x10 }, { 3, 1, 0x20 },
		    { 8, 4, 0xff }, { 12, 4, 0xf0 } } },
	};
	uint8_t b[256];
	size_t i, k;

	for (i = 0; i < sizeof q / sizeof q[0]; i++) {
		struct kernel_zero_scale z = { 0, 0 };

		memset(b, 0, sizeof b);
		for (k = 0; k < 4 && q[i].fill[k].n > 0; k++)
			memset(b + q[i].fill[k].at, q[i].fill[k].v,
			    q[i].fill[k].n);
		cr_assert(kernel_zero_scale(q[i].type, b, q[i].blck, &z));
		cr_assert(z.benign == 1 && z.hidden == 0, "type %u",
		    q[i].type);
	}
}
