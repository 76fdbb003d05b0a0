/*
 * test_split.c - split models (F040-F048, and the model as the unit of a
 * lint): the tiny llama of golden.h split as gguf-split writes it (all
 * metadata and split.no UINT16, split.count UINT16, split.tensors.count
 * INT32 in the first shard; the split keys and their tensors only in the
 * others), clean at several sizes and with one fault planted per case;
 * the plan of the whole model; the shards found beside one given, by a
 * directory walk, and given alone. With llama.cpp's libraries installed
 * ($GGUFLINT_LLAMA), each case is also loaded by libllama in a child, and
 * gguflint must find an error exactly where llama.cpp refuses the model.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/splitname.h"
#include "base/util.h"
#include "checks/checks.h"
#include "cli/models.h"
#include "findings/catalog.h"
#include "ggufw.h"
#include "golden.h"
#include "kernels/ggml-types.h"
#include "lint.h"
#include "target/profile.h"
#include "testutil.h"

#define MAX_SHARDS 8

/* What one shard of a test's split differs in from gguf-split's. */
struct shard_fault {
	bool absent;	  /* not written */
	int64_t no;	  /* split.no; -1: its index */
	int64_t count;	  /* split.count; -1: the number of shards */
	int64_t tensors;  /* split.tensors.count; -1: the model's */
	bool no_i32;	  /* split.no as INT32 */
	bool no_key;	  /* split.no left out */
	const char *meta; /* a string key with a value of its own */
	bool dup_first;	  /* also holds the model's first tensor */
	bool drop_last;	  /* its last tensor left out */
	const struct ggufw_model *from; /* its tensors of this model */
};

struct split_case {
	unsigned n; /* shards */
	struct shard_fault f[MAX_SHARDS];
	bool sparse; /* data as a hole */
};

static void
case_init(struct split_case *c, unsigned n)
{
	unsigned i;

	memset(c, 0, sizeof *c);
	cr_assert(n >= 1 && n <= MAX_SHARDS);
	c->n = n;
	for (i = 0; i < MAX_SHARDS; i++) {
		c->f[i].no = -1;
		c->f[i].count = -1;
		c->f[i].tensors = -1;
	}
}

/* add_tensor: tensor t of whole into shard s. */
static void
add_tensor(struct ggufw_model *s, const struct ggufw_model_tensor *t)
{
	const struct ggml_type_info *ti = ggml_type_get((uint32_t)t->type);

	cr_assert(ti != NULL && ti->blck > 0);
	ggufw_model_tensor(s, t->name, t->n_dims, t->ne, t->type, ti->blck,
	    ti->size);
}

/* The split keys of shard k, with its fault. */
static void
add_split_keys(struct ggufw_model *s, const struct split_case *c, unsigned k,
    size_t n_tensors)
{
	const struct shard_fault *f = &c->f[k];
	int64_t no = f->no >= 0 ? f->no : (int64_t)k;

	if (f->no_i32)
		ggufw_model_kv_i32(s, "split.no", (int32_t)no);
	else if (!f->no_key)
		ggufw_model_kv_u16(s, "split.no", (uint16_t)no);
	ggufw_model_kv_u16(s, "split.count",
	    (uint16_t)(f->count >= 0 ? f->count : (int64_t)c->n));
	ggufw_model_kv_i32(s, "split.tensors.count",
	    (int32_t)(f->tensors >= 0 ? f->tensors : (int64_t)n_tensors));
}

/* build_shard: s, shard k of whole as c says (tensors [k*T/n, (k+1)*T/n)). */
static void
build_shard(const struct ggufw_model *whole, const struct split_case *c,
    unsigned k, struct ggufw_model *s)
{
	size_t t = whole->n_tensors, lo = k * t / c->n, hi = (k + 1) * t / c->n;
	size_t i;

	ggufw_model_init(s, false, whole->alignment);
	if (k == 0) { /* all of the model's metadata, as it was */
		strbuf_add(&s->kv.out, whole->kv.out.buf, whole->kv.out.len);
		s->n_kv = whole->n_kv;
	}
	add_split_keys(s, c, k, t);
	if (c->f[k].meta != NULL)
		ggufw_model_kv_str(s, c->f[k].meta, "another value");
	if (c->f[k].dup_first && lo > 0)
		add_tensor(s, &whole->tensors[0]);
	if (c->f[k].drop_last && hi > lo)
		hi--;
	for (i = lo; i < hi; i++)
		add_tensor(s,
		    &(c->f[k].from ? c->f[k].from : whole)->tensors[i]);
}

/* shard_path: PREFIX-%05u-of-%05u.gguf (caller frees). */
static char *
shard_path(const char *prefix, unsigned k, unsigned n)
{
	return xasprintf("%s-%05u-of-%05u.gguf", prefix, k + 1, n);
}

/* write_split: the shards of whole under prefix, as c says. */
static void
write_split(const struct ggufw_model *whole, const char *prefix,
    const struct split_case *c)
{
	struct strbuf out = STRBUF_INIT;
	struct ggufw_model s;
	unsigned k;
	char *path;

	for (k = 0; k < c->n; k++) {
		if (c->f[k].absent)
			continue;
		build_shard(whole, c, k, &s);
		path = shard_path(prefix, k, c->n);
		if (c->sparse)
			cr_assert(ggufw_model_finish_sparse(&s, path) == 0);
		else {
			strbuf_reset(&out);
			ggufw_model_finish(&s, &out, GGUFW_DATA_ZERO);
			cr_assert(ggufw_write_file(path, out.buf, out.len) == 0,
			    "%s: %s", path, strerror(errno));
		}
		free(path);
		ggufw_model_free(&s);
	}
	strbuf_free(&out);
}

/* A test's folder and what was linted in it. */
struct fixture {
	char dir[64];
	char *prefix; /* dir/m */
	struct catalog cat;
	struct profile prof;
	bool have_prof;
	struct lint_model m;
	struct model_list ml;
};

static void
fixture_init(struct fixture *fx)
{
	struct gl_error err;

	memset(fx, 0, sizeof *fx);
	snprintf(fx->dir, sizeof fx->dir, "/tmp/gguflint-split-XXXXXX");
	cr_assert(mkdtemp(fx->dir) != NULL);
	fx->prefix = xasprintf("%s/m", fx->dir);
	cr_assert(catalog_load_builtin(&fx->cat, &err) == 0, "%s", err.msg);
}

static void
fixture_free(struct fixture *fx)
{
	char *cmd;

	lint_model_free(&fx->m);
	models_free(&fx->ml);
	if (fx->have_prof)
		profile_free(&fx->prof);
	catalog_free(&fx->cat);
	cmd = xasprintf("rm -rf '%s'", fx->dir);
	cr_expect(system(cmd) == 0);
	free(cmd);
	free(fx->prefix);
}

/* The tiny llama with n_layer blocks (1 + 9 per block + 2 tensors). */
static void
whole_model(struct ggufw_model *m, uint32_t n_layer)
{
	struct tiny t;

	tiny_init(&t);
	t.n_layer = n_layer;
	tiny_model(&t, m);
}

/*
 * lint_paths: group the n paths as the session does and lint the one
 * model they make (asserted), with the desktop profile.
 */
static void
lint_paths(struct fixture *fx, char *const *paths, size_t n)
{
	struct lint_options lo;
	struct gl_error err;

	memset(&lo, 0, sizeof lo);
	if (!fx->have_prof) {
		cr_assert(profile_load("desktop", &fx->prof, &err) == 0, "%s",
		    err.msg);
		fx->have_prof = true;
	}
	lo.cat = &fx->cat;
	lo.profile = &fx->prof;
	models_group(paths, n, &fx->ml);
	cr_assert_eq(fx->ml.n, 1, "%zu models", fx->ml.n);
	cr_assert(lint_input(&fx->ml.v[0], &lo, &fx->m, &err) == 0, "%s",
	    err.msg);
}

/* lint_shard: lint the model through the path of shard k alone. */
static void
lint_shard(struct fixture *fx, unsigned k, unsigned n)
{
	char *path = shard_path(fx->prefix, k, n);

	lint_paths(fx, &path, 1);
	free(path);
}

/* count: findings of code in result k (all results when k < 0). */
static size_t
count(const struct fixture *fx, long k, const char *code)
{
	size_t i, j, c = 0;

	for (i = 0; i < fx->m.n; i++)
		for (j = 0; j < fx->m.res[i].diags.n; j++)
			if ((k < 0 || (size_t)k == i) &&
			    strcmp(fx->m.res[i].diags.v[j].rule->code, code) ==
				0)
				c++;
	return c;
}

/* codes: every finding, "shard:code ...", for failure messages. */
static const char *
codes(const struct fixture *fx)
{
	static char buf[2048];
	size_t i, j, n = 0;

	buf[0] = '\0';
	for (i = 0; i < fx->m.n; i++)
		for (j = 0; j < fx->m.res[i].diags.n && n + 16 < sizeof buf;
		     j++)
			n += (size_t)snprintf(buf + n, sizeof buf - n,
			    "%zu:%s ", fx->m.res[i].shard_no,
			    fx->m.res[i].diags.v[j].rule->code);
	return buf;
}

/* message: the message of the first finding of code (asserted). */
static const char *
message(const struct fixture *fx, const char *code)
{
	size_t i, j;

	for (i = 0; i < fx->m.n; i++)
		for (j = 0; j < fx->m.res[i].diags.n; j++)
			if (strcmp(fx->m.res[i].diags.v[j].rule->code, code) ==
			    0)
				return fx->m.res[i].diags.v[j].message;
	cr_assert_fail("no %s; got: %s", code, codes(fx));
	return NULL;
}

/* errors: findings of severity error in every result. */
static size_t
errors(const struct fixture *fx)
{
	size_t i, n = 0;

	for (i = 0; i < fx->m.n; i++)
		n += diag_count_at_least(&fx->m.res[i].diags, SEV_ERROR);
	return n;
}

/* split_tiny: write the tiny llama (4 blocks) split as c says. */
static void
split_tiny(struct fixture *fx, const struct split_case *c)
{
	struct ggufw_model whole;

	whole_model(&whole, 4);
	write_split(&whole, fx->prefix, c);
	ggufw_model_free(&whole);
}

/* split_and_lint: the same, then lint it through its first shard. */
static void
split_and_lint(struct fixture *fx, const struct split_case *c)
{
	split_tiny(fx, c);
	lint_shard(fx, 0, c->n);
}

Test(split, clean_at_several_sizes)
{
	static const unsigned sizes[] = { 1, 2, 3, 5, 8 };
	struct split_case c;
	struct fixture fx;
	size_t i, k, tensors;

	for (i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
		fixture_init(&fx);
		case_init(&c, sizes[i]);
		split_and_lint(&fx, &c);
		cr_assert_eq(fx.m.n, sizes[i]);
		cr_expect_eq(errors(&fx), 0, "%u shards: %s", sizes[i],
		    codes(&fx));
		cr_expect_eq(count(&fx, -1, "P005"), 0, "%s", codes(&fx));
		cr_expect_eq(count(&fx, -1, "N001"), 0, "%s", codes(&fx));
		for (tensors = 0, k = 0; k < fx.m.n; k++) {
			cr_expect_eq(fx.m.res[k].shard_no, k);
			cr_expect_eq(fx.m.res[k].shards, sizes[i]);
			cr_expect(fx.m.res[k].forms != NULL);
			cr_expect_eq(fx.m.res[k].plan.valid, k == 0);
			tensors += fx.m.res[k].file.tensors_n;
		}
		cr_expect_eq(tensors, 1 + 9 * 4 + 2);
		fixture_free(&fx);
	}
}

/* The plan of a split model is the plan of the model it was split from. */
Test(split, whole_model_plan)
{
	struct ggufw_model whole;
	struct split_case c;
	struct fixture fx;
	struct tiny t;
	char *path;

	fixture_init(&fx);
	tiny_init(&t);
	t.n_layer = 8;
	t.n_embd = 512;
	t.n_head = 8;
	t.n_head_kv = 2;
	t.n_ff = 1536;
	t.n_vocab = 32000;
	t.n_scores = t.n_types = 32000;
	tiny_model(&t, &whole);
	path = xasprintf("%s/whole.gguf", fx.dir);
	cr_assert(ggufw_model_finish_sparse(&whole, path) == 0);
	case_init(&c, 3);
	c.sparse = true;
	write_split(&whole, fx.prefix, &c);
	ggufw_model_free(&whole);
	lint_paths(&fx, &path, 1);
	cr_assert(fx.m.res[0].plan.valid);
	{
		struct plan want = fx.m.res[0].plan;
		uint64_t weights = want.weights, total = want.total;

		lint_model_free(&fx.m);
		models_free(&fx.ml);
		lint_shard(&fx, 0, 3);
		cr_assert_eq(fx.m.n, 3);
		cr_assert(fx.m.res[0].plan.valid);
		cr_expect_eq(fx.m.res[0].plan.weights, weights,
		    "split %llu, whole %llu",
		    (unsigned long long)fx.m.res[0].plan.weights,
		    (unsigned long long)weights);
		cr_expect_eq(fx.m.res[0].plan.total, total);
		cr_expect(!fx.m.res[1].plan.valid && !fx.m.res[2].plan.valid);
		cr_expect_eq(count(&fx, -1, "P005"), 0, "%s", codes(&fx));
		cr_expect_eq(errors(&fx), 0, "%s", codes(&fx));
	}
	free(path);
	fixture_free(&fx);
}

Test(split, missing_shard_named)
{
	struct split_case c;
	struct fixture fx;
	char *want;

	fixture_init(&fx);
	case_init(&c, 3);
	c.f[1].absent = true;
	split_and_lint(&fx, &c);
	cr_assert_eq(fx.m.n, 2);
	cr_expect_eq(count(&fx, 0, "F040"), 1, "%s", codes(&fx));
	want = shard_path(fx.prefix, 1, 3);
	cr_expect(strstr(message(&fx, "F040"), want) != NULL, "%s",
	    message(&fx, "F040"));
	free(want);
	/* a partial model: no missing-tensor findings beside F040, and no
	 * plan of part of it */
	cr_expect_eq(count(&fx, -1, "N002"), 0, "%s", codes(&fx));
	cr_expect(!fx.m.res[0].plan.valid);
	fixture_free(&fx);
}

/* A later shard given alone: it points to the first; its own structure is
 * still checked (its own F findings, at its path). */
Test(split, later_shard_alone)
{
	struct split_case c;
	struct fixture fx;
	char *want;

	fixture_init(&fx);
	case_init(&c, 3);
	c.f[0].absent = true;
	c.f[2].absent = true;
	split_tiny(&fx, &c);
	lint_shard(&fx, 1, 3);
	cr_assert_eq(fx.m.n, 1);
	cr_expect_eq(fx.m.res[0].shard_no, 1);
	want = shard_path(fx.prefix, 0, 3);
	cr_expect(strstr(message(&fx, "F040"), want) != NULL, "%s",
	    message(&fx, "F040"));
	cr_expect(strstr(message(&fx, "F040"), "first shard") != NULL);
	cr_expect_eq(count(&fx, 0, "F040"), 2, "%s", codes(&fx));
	cr_expect_eq(count(&fx, -1, "P005"), 0, "%s", codes(&fx));
	free(want);
	fixture_free(&fx);
}

Test(split, later_shard_alone_missing_is_an_error)
{
	struct fixture fx;
	struct lint_options lo;
	struct gl_error err;
	char *path;

	fixture_init(&fx);
	path = shard_path(fx.prefix, 1, 3);
	memset(&lo, 0, sizeof lo);
	lo.cat = &fx.cat;
	models_group(&path, 1, &fx.ml);
	cr_expect(lint_input(&fx.ml.v[0], &lo, &fx.m, &err) < 0);
	free(path);
	fixture_free(&fx);
}

Test(split, index_mismatch)
{
	struct split_case c;
	struct fixture fx;

	fixture_init(&fx);
	case_init(&c, 3);
	c.f[2].no = 1;
	split_and_lint(&fx, &c);
	cr_expect_eq(count(&fx, 2, "F041"), 1, "%s", codes(&fx));
	cr_expect_eq(count(&fx, -1, "F041"), 1, "%s", codes(&fx));
	fixture_free(&fx);
}

Test(split, first_shard_not_zero)
{
	struct split_case c;
	struct fixture fx;

	fixture_init(&fx);
	case_init(&c, 2);
	c.f[0].no = 1;
	split_and_lint(&fx, &c);
	cr_expect_eq(count(&fx, 0, "F041"), 1, "%s", codes(&fx));
	fixture_free(&fx);
}

/* The name says 3 shards, split.count 4: llama.cpp derives other names. */
Test(split, name_disagrees_with_count)
{
	struct split_case c;
	struct fixture fx;
	unsigned k;

	fixture_init(&fx);
	case_init(&c, 3);
	for (k = 0; k < 3; k++)
		c.f[k].count = 4;
	split_and_lint(&fx, &c);
	cr_expect_eq(count(&fx, 0, "F042"), 1, "%s", codes(&fx));
	fixture_free(&fx);
}

/* A shard of another split: its split.count and split.tensors.count. */
Test(split, shard_of_another_split)
{
	struct split_case c;
	struct fixture fx;

	fixture_init(&fx);
	case_init(&c, 3);
	c.f[1].count = 4;
	c.f[2].tensors = 30;
	split_and_lint(&fx, &c);
	cr_expect_eq(count(&fx, 1, "F043"), 1, "%s", codes(&fx));
	cr_expect_eq(count(&fx, 2, "F043"), 1, "%s", codes(&fx));
	cr_expect_eq(count(&fx, 0, "F043"), 0, "%s", codes(&fx));
	fixture_free(&fx);
}

Test(split, metadata_in_later_shard)
{
	struct split_case c;
	struct fixture fx;

	fixture_init(&fx);
	case_init(&c, 3);
	c.f[1].meta = "general.name";	      /* shard 1 lacks it */
	c.f[2].meta = "tokenizer.ggml.model"; /* another value */
	split_and_lint(&fx, &c);
	cr_expect_eq(count(&fx, 1, "F044"), 1, "%s", codes(&fx));
	cr_expect_eq(count(&fx, 2, "F044"), 1, "%s", codes(&fx));
	cr_expect(strstr(message(&fx, "F044"), "does not hold") != NULL);
	cr_expect_eq(errors(&fx), 0, "%s", codes(&fx));
	fixture_free(&fx);
}

Test(split, duplicate_tensor_across_shards)
{
	struct split_case c;
	struct fixture fx;

	fixture_init(&fx);
	case_init(&c, 3);
	c.f[2].dup_first = true;
	c.f[2].tensors = -1;
	split_and_lint(&fx, &c);
	cr_expect_eq(count(&fx, 2, "F045"), 1, "%s", codes(&fx));
	cr_expect(strstr(message(&fx, "F045"), "shard 1") != NULL, "%s",
	    message(&fx, "F045"));
	/* 40 tensors found, 39 declared */
	cr_expect_eq(count(&fx, 0, "F046"), 1, "%s", codes(&fx));
	fixture_free(&fx);
}

Test(split, tensor_count)
{
	struct split_case c;
	struct fixture fx;

	fixture_init(&fx);
	case_init(&c, 3);
	c.f[1].drop_last = true;
	split_and_lint(&fx, &c);
	cr_expect_eq(count(&fx, 0, "F046"), 1, "%s", codes(&fx));
	cr_expect(strstr(message(&fx, "F046"), "hold 38 tensors") != NULL, "%s",
	    message(&fx, "F046"));
	fixture_free(&fx);
}

Test(split, key_types)
{
	struct split_case c;
	struct fixture fx;

	fixture_init(&fx);
	case_init(&c, 3);
	c.f[1].no_i32 = true;
	c.f[2].no_key = true;
	split_and_lint(&fx, &c);
	cr_expect_eq(count(&fx, 1, "F048"), 1, "%s", codes(&fx));
	cr_expect_eq(count(&fx, 2, "F048"), 1, "%s", codes(&fx));
	fixture_free(&fx);
}

/* read_file: the whole of path into out (appended). */
static void
append_file(struct strbuf *out, const char *path)
{
	char buf[65536];
	size_t n;
	FILE *fp = fopen(path, "rb");

	cr_assert(fp != NULL, "%s", path);
	while ((n = fread(buf, 1, sizeof buf, fp)) > 0)
		strbuf_add(out, buf, n);
	fclose(fp);
}

/* Shards joined with cat: one file, the first header, the rest as bytes. */
Test(split, joined_with_cat)
{
	struct strbuf all = STRBUF_INIT;
	struct split_case c;
	struct fixture fx;
	char *path, *joined;
	unsigned k;

	fixture_init(&fx);
	case_init(&c, 3);
	split_and_lint(&fx, &c);
	cr_expect_eq(count(&fx, -1, "F047"), 0, "%s", codes(&fx));
	lint_model_free(&fx.m);
	models_free(&fx.ml);
	for (k = 0; k < 3; k++) {
		path = shard_path(fx.prefix, k, 3);
		append_file(&all, path);
		free(path);
	}
	joined = xasprintf("%s/joined.gguf", fx.dir);
	cr_assert(ggufw_write_file(joined, all.buf, all.len) == 0);
	lint_paths(&fx, &joined, 1);
	cr_assert_eq(fx.m.n, 1);
	cr_expect_eq(count(&fx, 0, "F047"), 1, "%s", codes(&fx));
	cr_expect_eq(count(&fx, 0, "F042"), 1, "%s", codes(&fx));
	cr_expect(strstr(message(&fx, "F047"), "cat") != NULL);
	free(joined);
	strbuf_free(&all);
	fixture_free(&fx);
}

/*
 * A later shard whose data ends past its header's window, with bytes
 * after it: F047's look for a joined file reads the window only (it read
 * past it, and crashed, when the bytes were there).
 */
Test(split, bytes_past_data_beyond_the_window)
{
	struct ggufw_model whole;
	struct split_case c;
	struct fixture fx;
	struct stat st;
	struct tiny t;
	char *path;

	fixture_init(&fx);
	tiny_init(&t);
	t.n_layer = 8;
	t.n_embd = 512;
	t.n_ff = 1536;
	t.n_vocab = 32000;
	t.n_scores = t.n_types = 32000;
	tiny_model(&t, &whole);
	case_init(&c, 3);
	c.sparse = true;
	write_split(&whole, fx.prefix, &c);
	ggufw_model_free(&whole);
	path = shard_path(fx.prefix, 1, 3);
	cr_assert(stat(path, &st) == 0 && st.st_size > (8 << 20));
	cr_assert(truncate(path, st.st_size + 64) == 0);
	free(path);
	lint_shard(&fx, 1, 3);
	cr_expect_eq(count(&fx, -1, "F047"), 0, "%s", codes(&fx));
	fixture_free(&fx);
}

/* A file holding every tensor while its split keys say shard 1 of 3. */
Test(split, whole_file_with_split_keys)
{
	struct split_case c;
	struct fixture fx;

	fixture_init(&fx);
	case_init(&c, 1);
	c.f[0].count = 3;
	split_tiny(&fx, &c);
	lint_shard(&fx, 0, 1);
	cr_expect_eq(count(&fx, 0, "F047"), 1, "%s", codes(&fx));
	cr_expect(strstr(message(&fx, "F047"), "all 39 tensors") != NULL, "%s",
	    message(&fx, "F047"));
	fixture_free(&fx);
}

/* subject_in: whether result k has a finding about tensor name. */
static bool
subject_in(const struct fixture *fx, size_t k, const char *name)
{
	const struct diag_list *dl = &fx->m.res[k].diags;
	size_t j;

	for (j = 0; j < dl->n; j++)
		if (dl->v[j].kind == SUBJECT_TENSOR &&
		    dl->v[j].subject_len == strlen(name) &&
		    memcmp(dl->v[j].subject, name, dl->v[j].subject_len) == 0)
			return true;
	return false;
}

/* A model-wide check's finding about a tensor is reported at the shard
 * holding it, at that tensor's offset in that shard. */
Test(split, tensor_findings_at_their_shard)
{
	struct ggufw_model whole;
	struct split_case c;
	struct fixture fx;
	const struct gguf_tensor *t;
	struct tiny tn;
	size_t j;

	fixture_init(&fx);
	tiny_init(&tn);
	tn.n_layer = 4;
	tn.bad_shape = "output.weight"; /* the last tensor */
	tiny_model(&tn, &whole);
	case_init(&c, 3);
	write_split(&whole, fx.prefix, &c);
	ggufw_model_free(&whole);
	lint_shard(&fx, 0, 3);
	cr_assert_eq(fx.m.n, 3);
	cr_expect(subject_in(&fx, 2, "output.weight"), "%s", codes(&fx));
	cr_expect(!subject_in(&fx, 0, "output.weight"), "%s", codes(&fx));
	t = &fx.m.res[2].file.tensors[fx.m.res[2].file.tensors_n - 1];
	for (j = 0; j < fx.m.res[2].diags.n; j++)
		if (fx.m.res[2].diags.v[j].kind == SUBJECT_TENSOR)
			cr_expect_eq(fx.m.res[2].diags.v[j].offset,
			    t->offset_info);
	fixture_free(&fx);
}

/* The grouping: several shards named, each once; the order of shards. */
Test(split, grouping)
{
	char *paths[] = { "d/m-00002-of-00003.gguf", "x.gguf",
		"d/m-00001-of-00003.gguf", "d/m-00002-of-00003.gguf",
		"d/m-00003-of-00004.gguf" };
	struct model_list ml;
	size_t plen;
	unsigned no, cnt;

	models_group(paths, 5, &ml);
	cr_assert_eq(ml.n, 3);
	cr_expect(ml.v[0].split && ml.v[0].n == 3);
	cr_expect_str_eq(ml.v[0].path[0], "d/m-00001-of-00003.gguf");
	cr_expect_str_eq(ml.v[0].path[2], "d/m-00003-of-00003.gguf");
	cr_expect(ml.v[0].given[0] && ml.v[0].given[1] && !ml.v[0].given[2]);
	cr_expect(!ml.v[1].split && ml.v[1].n == 1);
	cr_expect(ml.v[2].split && ml.v[2].n == 4 && ml.v[2].given[2]);
	models_free(&ml);
	cr_expect(!split_parse_name("-00001-of-00002.gguf", &plen, &no, &cnt));
	cr_expect(!split_parse_name("m-00003-of-00002.gguf", &plen, &no, &cnt));
	cr_expect(!split_parse_name("m-00000-of-00002.gguf", &plen, &no, &cnt));
	cr_expect(!split_parse_name("m-0001-of-00002.gguf", &plen, &no, &cnt));
	cr_expect(split_parse_name("m-00002-of-00002.gguf", &plen, &no, &cnt) &&
	    plen == 1 && no == 2 && cnt == 2);
}

/* run: the program on argv; its status. */
static int
run(struct test_run *r, const char *const argv[])
{
	test_run_bin(r, argv, NULL, 0);
	return r->status;
}

/* The command line: a directory walk, a shard named twice, JSON. */
Test(split, command_line)
{
	struct split_case c;
	struct fixture fx;
	struct test_run r;
	char *s1, *s2, *s3;
	size_t n;
	const char *p;

	fixture_init(&fx);
	case_init(&c, 3);
	split_and_lint(&fx, &c);
	s1 = shard_path(fx.prefix, 0, 3);
	s2 = shard_path(fx.prefix, 1, 3);
	s3 = shard_path(fx.prefix, 2, 3);
	{
		const char *argv[] = { "--format", "json", fx.dir, NULL };

		cr_expect_eq(run(&r, argv), 0, "%s%s", r.out, r.err);
		for (n = 0, p = r.out; (p = strstr(p, "\"path\"")) != NULL; p++)
			n++;
		cr_expect_eq(n, 3, "%s", r.out);
		cr_expect(strstr(r.out, "\"split\": {\"model\": ") != NULL,
		    "%s", r.out);
		for (n = 0, p = r.out;
		     (p = strstr(p, "\"plan\": null")) != NULL; p++)
			n++;
		cr_expect_eq(n, 2, "the later shards have no plan: %s", r.out);
		test_run_free(&r);
	}
	{
		const char *argv[] = { s2, s1, s2, NULL };

		cr_expect_eq(run(&r, argv), 0, "%s%s", r.out, r.err);
		cr_expect_eq(r.out[0], '\0', "%s", r.out);
		test_run_free(&r);
	}
	{ /* --dump shows each file; a shard is no misnamed file */
		const char *argv[] = { "--dump", s2, NULL };

		cr_expect_eq(run(&r, argv), 0, "%s", r.err);
		cr_expect(strstr(r.err, "F04") == NULL, "%s", r.err);
		test_run_free(&r);
	}
	cr_assert(unlink(s3) == 0);
	{
		const char *argv[] = { fx.dir, NULL };

		cr_expect_eq(run(&r, argv), 1, "%s%s", r.out, r.err);
		cr_expect(strstr(r.out, "F040") != NULL, "%s", r.out);
		cr_expect(strstr(r.out, s3) != NULL, "%s", r.out);
		test_run_free(&r);
	}
	free(s1);
	free(s2);
	free(s3);
	fixture_free(&fx);
}

/* ---- llama.cpp, the oracle ----------------------------------------------- */

/*
 * What the child calls. llama_model_params is passed and returned by
 * value: a buffer larger than the struct stands for it (a struct above 16
 * bytes goes through memory on the x86-64 and AArch64 ABIs, so the callee
 * reads and writes its own size at the start), and the defaults are kept.
 */
struct params_blob {
	unsigned char b[512];
};
typedef struct params_blob (*defaults_fn)(void);
typedef void *(*load_fn)(const char *path, struct params_blob p);
typedef void (*load_all_fn)(const char *dir);
typedef void (*log_cb)(int level, const char *text, void *user);
typedef void (*log_set_fn)(log_cb cb, void *user);

static void
log_to_stderr(int level, const char *text, void *user)
{
	(void)level;
	(void)user;
	fputs(text, stderr);
}

/* llama_dir: $GGUFLINT_LLAMA/cpu when its libraries are there, or NULL. */
static char *
llama_dir(void)
{
	const char *top = getenv("GGUFLINT_LLAMA");
	char *dir, *lib;
	bool ok;

	if (top == NULL || top[0] == '\0')
		return NULL;
	dir = xasprintf("%s/cpu", top);
	lib = xasprintf("%s/libggml-base.so", dir);
	ok = access(lib, R_OK) == 0;
	free(lib);
	if (!ok)
		free(dir);
	return ok ? dir : NULL;
}

/* The child: load path with libllama; exit 0 loaded, 1 refused, 3 the
 * libraries would not load. */
static void
llama_child(const char *dir, const char *path)
{
	static const char *const libs[] = { "libggml-base.so",
		"libggml.v0.5.0.so", "libllama.v0.5.0.so" };
	void *h[3];
	char *lib;
	size_t i;

	alarm(60);
	for (i = 0; i < 3; i++) {
		lib = xasprintf("%s/%s", dir, libs[i]);
		h[i] = dlopen(lib, RTLD_NOW | RTLD_GLOBAL);
		free(lib);
		if (h[i] == NULL)
			_exit(3);
	}
	((log_set_fn)dlsym(h[2], "llama_log_set"))(log_to_stderr, NULL);
	((load_all_fn)dlsym(h[1], "ggml_backend_load_all_from_path"))(dir);
	_exit(((load_fn)dlsym(h[2], "llama_model_load_from_file"))(path,
		  ((defaults_fn)dlsym(h[2], "llama_model_default_params"))()) !=
		    NULL ?
		0 :
		1);
}

/* llama_loads: 0 when libllama loads path, 1 when it refuses it, 2 when it
 * dies (a failed assertion); its log in log_path. */
static int
llama_loads(const char *dir, const char *path, const char *log_path)
{
	pid_t pid;
	int st, fd;

	fflush(NULL);
	pid = fork();
	cr_assert(pid >= 0);
	if (pid == 0) {
		fd = open(log_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd < 0 || dup2(fd, STDERR_FILENO) < 0 ||
		    dup2(fd, STDOUT_FILENO) < 0)
			_exit(3);
		llama_child(dir, path);
	}
	cr_assert(waitpid(pid, &st, 0) == pid);
	cr_assert(!WIFEXITED(st) || WEXITSTATUS(st) != 3,
	    "libllama did not load from %s", dir);
	cr_assert(!WIFSIGNALED(st) || WTERMSIG(st) != SIGALRM,
	    "libllama took over 60 s on %s", path);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 2;
}

/* log_has: whether the file at path holds text. */
static bool
log_has(const char *path, const char *text)
{
	struct strbuf sb = STRBUF_INIT;
	bool found;

	append_file(&sb, path);
	strbuf_addc(&sb, '\0');
	found = strstr(sb.buf, text) != NULL;
	strbuf_free(&sb);
	return found;
}

/* One case for the oracle: a fault, what llama.cpp says, and whether it
 * loads (0), refuses (1) or dies (2). */
struct oracle_case {
	const char *name;
	void (*plant)(struct split_case *c);
	int want;
	const char *says; /* in its log, or NULL */
	bool stricter;	  /* llama.cpp loads it, misread: gguflint's error */
};

static void
plant_none(struct split_case *c)
{
	(void)c;
}
static void
plant_index(struct split_case *c)
{
	c->f[2].no = 1;
}
static void
plant_count(struct split_case *c)
{
	c->f[1].count = 4;
}
static void
plant_meta(struct split_case *c)
{
	c->f[1].meta = "general.name";
}
static void
plant_dup(struct split_case *c)
{
	c->f[2].dup_first = true;
}
static void
plant_drop(struct split_case *c)
{
	c->f[1].drop_last = true;
}
static void
plant_missing(struct split_case *c)
{
	c->f[1].absent = true;
}
static void
plant_first_type(struct split_case *c)
{
	c->f[0].no_i32 = true;
}
static void
plant_later_type(struct split_case *c)
{
	c->f[1].no_i32 = true;
}

static const struct oracle_case oracle_cases[] = {
	{ "clean", plant_none, 0, NULL, false },
	{ "index", plant_index, 1, "invalid split file idx", false },
	{ "count", plant_count, 0, NULL, true }, /* F043 */
	{ "meta", plant_meta, 0, NULL, false },	 /* F044: a warning */
	{ "dup", plant_dup, 1, "is duplicated", false },
	{ "drop", plant_drop, 1, "tensors expected but", false },
	{ "missing", plant_missing, 1, "failed to load GGUF split", false },
	{ "first-type", plant_first_type, 1, "wrong type", false },
	{ "later-type", plant_later_type, 2, "GGML_ASSERT", false },
};

Test(split, llama_cpp_agrees, .timeout = 600)
{
	const struct oracle_case *oc;
	struct split_case c;
	struct fixture fx;
	char *dir = llama_dir(), *first, *log;
	size_t i;
	int got;

	if (dir == NULL)
		cr_skip_test(
		    "llama.cpp's libraries are not installed "
		    "($GGUFLINT_LLAMA/cpu: run build-aux/install-llama)");
	for (i = 0; i < sizeof oracle_cases / sizeof oracle_cases[0]; i++) {
		oc = &oracle_cases[i];
		fixture_init(&fx);
		case_init(&c, 3);
		oc->plant(&c);
		split_and_lint(&fx, &c);
		first = shard_path(fx.prefix, 0, 3);
		log = xasprintf("%s/llama.log", fx.dir);
		got = llama_loads(dir, first, log);
		cr_expect_eq(got, oc->want, "%s: libllama %d, expected %d",
		    oc->name, got, oc->want);
		if (oc->says != NULL)
			cr_expect(log_has(log, oc->says),
			    "%s: no '%s' in its "
			    "log",
			    oc->name, oc->says);
		cr_expect_eq(errors(&fx) > 0, got != 0 || oc->stricter,
		    "%s: libllama %d, "
		    "gguflint: %s",
		    oc->name, got, codes(&fx));
		free(first);
		free(log);
		fixture_free(&fx);
	}
	free(dir);
}

/* A shard of another model of the same split layout (the counts agree):
 * its tensors' shapes, checked over the whole model, at that shard; and
 * llama.cpp refuses the model. */
Test(split, shard_of_another_model)
{
	struct ggufw_model whole, other;
	struct split_case c;
	struct fixture fx;
	struct tiny t;
	char *dir, *first, *log;

	fixture_init(&fx);
	whole_model(&whole, 4);
	tiny_init(&t);
	t.n_layer = 4;
	t.n_embd = 16;
	t.n_ff = 32;
	tiny_model(&t, &other);
	case_init(&c, 3);
	c.f[1].from = &other;
	write_split(&whole, fx.prefix, &c);
	ggufw_model_free(&whole);
	ggufw_model_free(&other);
	lint_shard(&fx, 0, 3);
	cr_assert_eq(fx.m.n, 3);
	cr_expect(errors(&fx) > 0, "%s", codes(&fx));
	cr_expect_eq(diag_count_at_least(&fx.m.res[1].diags, SEV_ERROR),
	    errors(&fx), "%s", codes(&fx));
	if ((dir = llama_dir()) != NULL) { /* which llama.cpp refuses */
		first = shard_path(fx.prefix, 0, 3);
		log = xasprintf("%s/llama.log", fx.dir);
		cr_expect_eq(llama_loads(dir, first, log), 1);
		cr_expect(log_has(log, "wrong shape"));
		free(first);
		free(log);
		free(dir);
	}
	fixture_free(&fx);
}
