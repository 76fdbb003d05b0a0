/*
 * test_companion.c - files a model is loaded with (facts/role.h): a
 * multimodal projector, a LoRA adapter, a control vector, a draft model.
 * Each is built with the GGUF writer, linted alone (its role's checks, no
 * model's) and beside the tiny model of golden.h (--mmproj, --lora,
 * --control-vector, --draft), in process and through the program.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "findings/catalog.h"
#include "ggufw.h"
#include "golden.h"
#include "lint.h"
#include "testutil.h"

/* A LoRA of the tiny model and what a test changes in it. */
struct lora {
	const char *general_type;	/* NULL: omit */
	const char *adapter_type;	/* NULL: omit */
	const char *arch;
	bool no_alpha;
	int64_t rank, rank_b;		/* lora_a's and lora_b's rank */
	int64_t n_in;			/* attn_k.lora_a's first dimension */
	const char *drop;		/* a tensor not written */
	const char *extra;		/* an extra tensor (a 1-D F32) */
	const char *pair;		/* an extra pair, for X [8, 8] */
	int64_t pair_out;		/* its lora_b's n_out (8: fits) */
	bool embd_unflipped;		/* token_embd's pair as the others */
	size_t cut;			/* bytes cut off the file's end */
};

static void
lora_init(struct lora *l)
{
	memset(l, 0, sizeof *l);
	l->general_type = "adapter";
	l->adapter_type = "lora";
	l->arch = "llama";
	l->rank = l->rank_b = 2;
	l->n_in = 8;
}

static void
f32_tensor(struct ggufw_model *m, const char *name, uint32_t n_dims,
    int64_t ne0, int64_t ne1)
{
	int64_t ne[4] = { ne0, ne1, 1, 1 };

	ggufw_model_tensor(m, name, n_dims, ne, GGUFW_GGML_F32, 1, 4);
}

/* The tiny model's attn_q [8, 8] and attn_k [8, 4] of block 0 adapted,
 * and its token_embd [8, 16] (flipped: lora_a [r, 16], lora_b [r, 8]).
 * Returns the header's size. */
static uint64_t
lora_build(const struct lora *l, struct strbuf *out)
{
	static const char *const names[] = { "blk.0.attn_q.weight.lora_a",
		"blk.0.attn_q.weight.lora_b", "blk.0.attn_k.weight.lora_a",
		"blk.0.attn_k.weight.lora_b", "token_embd.weight.lora_a",
		"token_embd.weight.lora_b" };
	const int64_t shapes[][2] = { { 8, l->rank }, { l->rank_b, 8 },
		{ l->n_in, l->rank }, { l->rank_b, 4 },
		{ l->embd_unflipped ? 8 : l->rank, l->embd_unflipped ? l->rank :
		16 }, { l->rank, l->embd_unflipped ? 16 : 8 } };
	struct ggufw_model m;
	char name[96];
	uint64_t hdr;
	size_t i;

	ggufw_model_init(&m, false, 32);
	ggufw_model_kv_str(&m, "general.architecture", l->arch);
	if (l->general_type != NULL)
		ggufw_model_kv_str(&m, "general.type", l->general_type);
	if (l->adapter_type != NULL)
		ggufw_model_kv_str(&m, "adapter.type", l->adapter_type);
	if (!l->no_alpha)
		ggufw_model_kv_f32(&m, "adapter.lora.alpha", 4.0f);
	for (i = 0; i < sizeof names / sizeof names[0]; i++)
		if (l->drop == NULL || strcmp(l->drop, names[i]) != 0)
			f32_tensor(&m, names[i], 2, shapes[i][0], shapes[i][1]);
	if (l->extra != NULL)
		f32_tensor(&m, l->extra, 1, 8, 1);
	if (l->pair != NULL) {
		snprintf(name, sizeof name, "%s.lora_a", l->pair);
		f32_tensor(&m, name, 2, 8, l->rank);
		snprintf(name, sizeof name, "%s.lora_b", l->pair);
		f32_tensor(&m, name, 2, l->rank, l->pair_out);
	}
	hdr = ggufw_model_finish(&m, out, GGUFW_DATA_RANDOM);
	ggufw_model_free(&m);
	if (l->cut > 0 && l->cut < out->len - hdr)
		out->len -= l->cut;	/* a truncated adapter */
	return hdr;
}

/* A vision projector and what a test changes in it. */
struct mmproj {
	bool general_type;		/* general.type mmproj */
	bool no_vision;			/* clip.has_vision_encoder false */
	const char *projector;		/* NULL: omit clip.projector_type */
	const char *drop;		/* a key not written */
	bool eps_f64;			/* the layer norm epsilon as FLOAT64 */
};

static void
mmproj_init(struct mmproj *p)
{
	memset(p, 0, sizeof *p);
	p->general_type = true;
	p->projector = "mlp";
}

static void
mmproj_u32(struct ggufw_model *m, const struct mmproj *p, const char *key,
    uint32_t v)
{
	if (p->drop == NULL || strcmp(p->drop, key) != 0)
		ggufw_model_kv_u32(m, key, v);
}

static void
mmproj_build(const struct mmproj *p, struct strbuf *out)
{
	const char *eps = "clip.vision.attention.layer_norm_epsilon";
	struct ggufw_model m;

	ggufw_model_init(&m, false, 32);
	ggufw_model_kv_str(&m, "general.architecture", "clip");
	if (p->general_type)
		ggufw_model_kv_str(&m, "general.type", "mmproj");
	ggufw_model_kv_bool(&m, "clip.has_vision_encoder", !p->no_vision);
	if (p->projector != NULL)
		ggufw_model_kv_str(&m, "clip.projector_type", p->projector);
	mmproj_u32(&m, p, "clip.vision.embedding_length", 16);
	mmproj_u32(&m, p, "clip.vision.attention.head_count", 2);
	mmproj_u32(&m, p, "clip.vision.feed_forward_length", 32);
	mmproj_u32(&m, p, "clip.vision.block_count", 1);
	mmproj_u32(&m, p, "clip.vision.projection_dim", 8);
	mmproj_u32(&m, p, "clip.vision.image_size", 32);
	mmproj_u32(&m, p, "clip.vision.patch_size", 8);
	if (p->eps_f64)
		ggufw_model_kv_f64(&m, eps, 1e-6);
	else if (p->drop == NULL || strcmp(p->drop, eps) != 0)
		ggufw_model_kv_f32(&m, eps, 1e-6f);
	f32_tensor(&m, "v.blk.0.attn_q.weight", 2, 16, 16);
	f32_tensor(&m, "v.blk.0.ffn_up.weight", 2, 16, 32);
	f32_tensor(&m, "mm.0.weight", 2, 16, 8);
	ggufw_model_finish(&m, out, GGUFW_DATA_RANDOM);
	ggufw_model_free(&m);
}

/* A control vector of n layers (from 1), each width wide. */
static void
cvec_build(uint32_t n, int64_t width, const char *odd, struct strbuf *out)
{
	struct ggufw_model m;
	char name[32];
	uint32_t i;

	ggufw_model_init(&m, false, 32);
	ggufw_model_kv_str(&m, "general.architecture", "controlvector");
	ggufw_model_kv_str(&m, "controlvector.model_hint", "llama");
	ggufw_model_kv_i32(&m, "controlvector.layer_count", (int32_t)n);
	for (i = 1; i <= n; i++) {
		snprintf(name, sizeof name, "direction.%u", i);
		f32_tensor(&m, name, 1, width, 1);
	}
	if (odd != NULL)
		f32_tensor(&m, odd, 1, width, 1);
	ggufw_model_finish(&m, out, GGUFW_DATA_RANDOM);
	ggufw_model_free(&m);
}

/* The lint of the tiny model beside one companion, in process. */
struct pair {
	struct catalog cat;
	struct lint_model m;
	char *model, *comp;
};

static void
pair_lint(struct pair *p, const struct tiny *t, enum companion_kind k,
    const struct strbuf *comp)
{
	struct strbuf sb = STRBUF_INIT;
	struct lint_companion c;
	struct lint_options lo;
	struct model_input in;
	struct gl_error err;
	bool given = true;

	memset(p, 0, sizeof *p);
	memset(&lo, 0, sizeof lo);
	cr_assert(catalog_load_builtin(&p->cat, &err) == 0, "%s", err.msg);
	tiny_build(t, &sb);
	p->model = test_tmpfile(sb.buf, sb.len);
	p->comp = test_tmpfile(comp->buf, comp->len);
	strbuf_free(&sb);
	c.kind = k;
	c.path = p->comp;
	lo.cat = &p->cat;
	lo.companions = &c;
	lo.n_companions = 1;
	in.path = &p->model;
	in.given = &given;
	in.n = 1;
	in.split = false;
	cr_assert(lint_input(&in, &lo, &p->m, &err) == 0, "%s", err.msg);
	cr_assert_eq(p->m.n, 2);
}

static void
pair_free(struct pair *p)
{
	lint_model_free(&p->m);
	catalog_free(&p->cat);
	unlink(p->model);
	unlink(p->comp);
	free(p->model);
	free(p->comp);
}

/* Diagnostics with this code in dl. */
static size_t
test_count_in(const struct diag_list *dl, const char *code)
{
	size_t i, n = 0;

	for (i = 0; i < dl->n; i++)
		if (strcmp(dl->v[i].rule->code, code) == 0)
			n++;
	return n;
}

/* The findings of code in dl, a companion's rule (M022-M032, P010,
 * P011), are short lines with the why in a note (diag.h): an essence of
 * at most about 110 characters each. */
static void
expect_short(const struct diag_list *dl, const char *code)
{
	size_t i;

	if ((strcmp(code, "M022") < 0 || strcmp(code, "M032") > 0) &&
	    strcmp(code, "P010") != 0 && strcmp(code, "P011") != 0)
		return;
	for (i = 0; i < dl->n; i++)
		if (strcmp(dl->v[i].rule->code, code) == 0)
			cr_expect(strlen(dl->v[i].message) <= 110 &&
			    dl->v[i].note != NULL, "%s: %s", code,
			    dl->v[i].message);
}

/* Diagnostics with this code in the companion's result. */
static size_t
pair_count(const struct pair *p, const char *code)
{
	expect_short(&p->m.res[1].diags, code);
	return test_count_in(&p->m.res[1].diags, code);
}

/* All codes of result k, for failure messages. */
static const char *
pair_codes(const struct pair *p, size_t k)
{
	static char buf[2048];
	const struct diag_list *dl = &p->m.res[k].diags;
	size_t i, n = 0;

	buf[0] = '\0';
	for (i = 0; i < dl->n && n + 8 < sizeof buf; i++)
		n += (size_t)snprintf(buf + n, sizeof buf - n, "%s ",
		    dl->v[i].rule->code);
	return buf;
}

/* What general.type and general.architecture make of a file. */
Test(companion, roles)
{
	struct strbuf sb = STRBUF_INIT;
	struct test_lint t;
	struct mmproj p;
	struct lora l;
	struct tiny m;

	tiny_init(&m);
	tiny_build(&m, &sb);
	test_lint_bytes(&t, sb.buf, sb.len);
	cr_expect_eq(t.res.role, ROLE_MODEL);
	test_lint_free(&t);
	strbuf_reset(&sb);
	m.no_tensors = true;
	tiny_build(&m, &sb);
	test_lint_bytes(&t, sb.buf, sb.len);
	cr_expect_eq(t.res.role, ROLE_VOCAB);
	test_lint_free(&t);
	strbuf_reset(&sb);
	mmproj_init(&p);
	p.general_type = false;		/* the architecture alone says it */
	mmproj_build(&p, &sb);
	test_lint_bytes(&t, sb.buf, sb.len);
	cr_expect_eq(t.res.role, ROLE_MMPROJ);
	cr_expect_str_eq(role_name(t.res.role), "mmproj");
	test_lint_free(&t);
	strbuf_reset(&sb);
	lora_init(&l);
	lora_build(&l, &sb);
	test_lint_bytes(&t, sb.buf, sb.len);
	cr_expect_eq(t.res.role, ROLE_LORA);
	test_lint_free(&t);
	strbuf_reset(&sb);
	l.adapter_type = "ia3";
	lora_build(&l, &sb);
	test_lint_bytes(&t, sb.buf, sb.len);
	cr_expect_eq(t.res.role, ROLE_ADAPTER);
	test_lint_free(&t);
	strbuf_reset(&sb);
	cvec_build(2, 8, NULL, &sb);
	test_lint_bytes(&t, sb.buf, sb.len);
	cr_expect_eq(t.res.role, ROLE_CVEC);
	test_lint_free(&t);
	strbuf_reset(&sb);
	tiny_init(&m);
	m.general_type = "weird";	/* a type no tool writes */
	tiny_build(&m, &sb);
	test_lint_bytes(&t, sb.buf, sb.len);
	cr_expect_eq(t.res.role, ROLE_OTHER);
	test_lint_free(&t);
	strbuf_reset(&sb);
	m.arch = "clip";		/* clip's loader reads no type */
	tiny_build(&m, &sb);
	test_lint_bytes(&t, sb.buf, sb.len);
	cr_expect_eq(t.res.role, ROLE_MMPROJ);
	test_lint_free(&t);
	strbuf_free(&sb);
}

/* One change to the projector, and the findings of its code it makes. */
static void
mmproj_case(void (*change)(struct mmproj *), const char *code, size_t want)
{
	struct strbuf sb = STRBUF_INIT;
	struct test_lint t;
	struct mmproj p;

	mmproj_init(&p);
	if (change != NULL)
		change(&p);
	mmproj_build(&p, &sb);
	test_lint_bytes(&t, sb.buf, sb.len);
	cr_expect_eq(test_count(&t, code), want, "%s: %s", code,
	    test_codes(&t));
	expect_short(&t.res.diags, code);
	/* never a model's findings */
	cr_expect_eq(test_count(&t, "M022") + test_count(&t, "N005") +
	    test_count(&t, "N001") + test_count(&t, "M001"), 0, "%s",
	    test_codes(&t));
	if (change == NULL)
		cr_expect_eq(test_errors(&t), 0, "%s", test_codes(&t));
	test_lint_free(&t);
	strbuf_free(&sb);
}

static void
drop_image_size(struct mmproj *p)
{
	p->drop = "clip.vision.image_size";
}

static void
drop_blocks(struct mmproj *p)
{
	p->drop = "clip.vision.block_count";
}

static void eps_f64(struct mmproj *p) { p->eps_f64 = true; }
static void no_projector(struct mmproj *p) { p->projector = NULL; }
static void no_vision(struct mmproj *p) { p->no_vision = true; }
static void unknown_projector(struct mmproj *p) { p->projector = "mlp9"; }
static void no_general_type(struct mmproj *p) { p->general_type = false; }

/* A projector linted alone is checked as one: its clip keys (M023, M024),
 * its projector type (M019), never as a main model (M022) or a model's
 * tensor set (N005, N001, M001). */
Test(companion, mmproj_alone)
{
	mmproj_case(NULL, "M023", 0);
	mmproj_case(no_general_type, "M023", 0);
	mmproj_case(drop_image_size, "M023", 1);
	mmproj_case(drop_blocks, "M023", 1);
	mmproj_case(eps_f64, "M023", 1);
	mmproj_case(no_projector, "M023", 1);
	mmproj_case(no_vision, "M024", 1);
	mmproj_case(no_vision, "M023", 0);
	mmproj_case(unknown_projector, "M019", 1);
}

/* One change to the LoRA, linted alone, and its code's count. */
static void
lora_alone(void (*change)(struct lora *), const char *code, size_t want)
{
	struct strbuf sb = STRBUF_INIT;
	struct test_lint t;
	struct lora l;

	lora_init(&l);
	if (change != NULL)
		change(&l);
	lora_build(&l, &sb);
	test_lint_bytes(&t, sb.buf, sb.len);
	cr_expect_eq(test_count(&t, code), want, "%s: %s", code,
	    test_codes(&t));
	expect_short(&t.res.diags, code);
	cr_expect_eq(test_count(&t, "N001") + test_count(&t, "M001") +
	    test_count(&t, "N002"), 0, "%s", test_codes(&t));
	if (change == NULL)
		cr_expect_eq(test_errors(&t), 0, "%s", test_codes(&t));
	test_lint_free(&t);
	strbuf_free(&sb);
}

/* The same LoRA beside the tiny model (--lora). */
static void
lora_with(void (*change)(struct lora *), const char *code, size_t want)
{
	struct strbuf sb = STRBUF_INIT;
	struct pair p;
	struct lora l;
	struct tiny t;

	lora_init(&l);
	if (change != NULL)
		change(&l);
	lora_build(&l, &sb);
	tiny_init(&t);
	pair_lint(&p, &t, COMPANION_LORA, &sb);
	cr_expect_eq(pair_count(&p, code), want, "%s: %s", code,
	    pair_codes(&p, 1));
	cr_expect_eq(p.m.res[1].given, COMPANION_LORA);
	cr_expect_str_eq(p.m.res[1].companion_of, p.model);
	cr_expect_eq(diag_count_at_least(&p.m.res[0].diags, SEV_WARNING), 0,
	    "the model: %s", pair_codes(&p, 0));
	if (change == NULL)
		cr_expect_eq(diag_count_at_least(&p.m.res[1].diags,
		    SEV_ERROR), 0, "%s", pair_codes(&p, 1));
	pair_free(&p);
	strbuf_free(&sb);
}

static void no_alpha(struct lora *l) { l->no_alpha = true; }
static void odd_suffix(struct lora *l) { l->extra = "blk.0.attn_q.weight"; }
static void norm_extra(struct lora *l) { l->extra = "blk.0.attn_norm.weight"; }
static void drop_b(struct lora *l) { l->drop = "blk.0.attn_q.weight.lora_b"; }
static void rank_b(struct lora *l) { l->rank_b = 3; }
static void ia3(struct lora *l) { l->adapter_type = "ia3"; }
static void untyped(struct lora *l) { l->general_type = NULL; }
static void other_arch(struct lora *l) { l->arch = "qwen2"; }
static void wide_in(struct lora *l) { l->n_in = 16; }
static void foreign(struct lora *l) { l->extra = "blk.7.attn_q.weight.lora_a"; }
static void truncated(struct lora *l) { l->cut = 16; }

/* A LoRA alone: the loader's own checks of its keys and pairs (M025-M029),
 * no model's (N001, M001, N002). */
Test(companion, lora_alone)
{
	lora_alone(NULL, "M026", 0);
	lora_alone(NULL, "N006", 1);	/* general.type says: no name map */
	lora_alone(no_alpha, "M029", 1);
	lora_alone(odd_suffix, "M026", 1);
	lora_alone(norm_extra, "M026", 0);
	lora_alone(drop_b, "M027", 1);
	lora_alone(rank_b, "M028", 2);	/* not token_embd's, flipped */
	lora_alone(ia3, "M025", 1);
	lora_alone(truncated, "F010", 1);	/* issue 38: past its end */
}

/* A LoRA beside its base: the architecture, each adapted tensor in the
 * base with shapes that fit (M030), as llama_adapter_lora_init checks. */
Test(companion, lora_with_base)
{
	lora_with(NULL, "M030", 0);
	lora_with(NULL, "M025", 0);
	lora_with(other_arch, "M030", 1);
	lora_with(wide_in, "M030", 1);
	lora_with(rank_b, "M030", 0);	/* M028 already: not against */
	lora_with(rank_b, "M028", 2);
	lora_with(untyped, "M025", 1);	/* --lora: must say adapter */
	lora_with(untyped, "N001", 0);	/* and is still no model */
	lora_with(no_alpha, "M029", 1);
	lora_with(truncated, "F010", 1);
}

static void
absent(struct lora *l)
{
	l->pair = "blk.7.attn_q.weight";
	l->pair_out = 8;
}
static void unflipped(struct lora *l) { l->embd_unflipped = true; }

/* An unpaired tensor is incomplete (M027); a complete pair the base lacks
 * is absent from the base (M030); token_embd's pair as the others are
 * does not fit its flipped orientation (M030). */
Test(companion, lora_tensor_not_in_base)
{
	lora_with(foreign, "M027", 1);
	lora_with(absent, "M030", 1);
	lora_with(unflipped, "M030", 1);
}

/* A control vector: its directions alone (M031), and against the model
 * (width M030, layers beyond the model's M032). */
Test(companion, control_vector)
{
	struct strbuf sb = STRBUF_INIT;
	struct test_lint t;
	struct pair p;
	struct tiny m;

	cvec_build(1, 8, NULL, &sb);
	test_lint_bytes(&t, sb.buf, sb.len);
	cr_expect_eq(test_errors(&t), 0, "%s", test_codes(&t));
	cr_expect_eq(test_count(&t, "N005"), 0, "%s", test_codes(&t));
	test_lint_free(&t);
	tiny_init(&m);
	pair_lint(&p, &m, COMPANION_CVEC, &sb);
	cr_expect_eq(diag_count_at_least(&p.m.res[1].diags, SEV_WARNING), 0,
	    "%s", pair_codes(&p, 1));
	pair_free(&p);
	strbuf_reset(&sb);
	cvec_build(2, 8, "direction.x", &sb);
	test_lint_bytes(&t, sb.buf, sb.len);
	cr_expect_eq(test_count(&t, "M031"), 1, "%s", test_codes(&t));
	expect_short(&t.res.diags, "M031");
	test_lint_free(&t);
	strbuf_reset(&sb);
	cvec_build(2, 16, NULL, &sb);
	pair_lint(&p, &m, COMPANION_CVEC, &sb);
	cr_expect_eq(pair_count(&p, "M030"), 2, "%s", pair_codes(&p, 1));
	pair_free(&p);
	strbuf_reset(&sb);
	cvec_build(3, 8, NULL, &sb);	/* the model has layers 0 and 1 */
	pair_lint(&p, &m, COMPANION_CVEC, &sb);
	cr_expect_eq(pair_count(&p, "M032"), 2, "%s", pair_codes(&p, 1));
	pair_free(&p);
	strbuf_free(&sb);
}

/* A projector is M022 as the main model of companions, not alone. */
Test(companion, mmproj_as_main_model)
{
	struct strbuf sb = STRBUF_INIT, lb = STRBUF_INIT;
	struct test_lint t;
	struct pair p;
	struct tiny m;
	struct lora l;
	size_t i;

	tiny_init(&m);
	m.arch = "clip";
	tiny_build(&m, &sb);
	test_lint_bytes(&t, sb.buf, sb.len);
	cr_expect_eq(test_count(&t, "M022"), 0, "%s", test_codes(&t));
	test_lint_free(&t);
	lora_init(&l);
	lora_build(&l, &lb);
	pair_lint(&p, &m, COMPANION_LORA, &lb);
	cr_expect_eq(test_count_in(&p.m.res[0].diags, "M022"), 1, "%s",
	    pair_codes(&p, 0));
	for (i = 0; i < p.m.res[0].diags.n; i++)
		if (strcmp(p.m.res[0].diags.v[i].rule->code, "M022") == 0)
			cr_expect(p.m.res[0].diags.v[i].fix != NULL &&
			    strstr(p.m.res[0].diags.v[i].fix, "--mmproj") &&
			    p.m.res[0].diags.v[i].note != NULL &&
			    strstr(p.m.res[0].diags.v[i].note,
			    "cannot be used as main model"), "%s",
			    p.m.res[0].diags.v[i].message);
	pair_free(&p);
	strbuf_free(&sb);
	strbuf_free(&lb);
}

/* bytes into a temporary file (freed and unlinked by the caller). */
static char *
tmp_of(const struct strbuf *sb)
{
	return test_tmpfile(sb->buf, sb->len);
}

/* The command line: the model with --lora (clean, then refused), an
 * mmproj alone, the JSON of a companion, an unreadable companion. */
Test(companion, cli)
{
	struct strbuf sb = STRBUF_INIT;
	struct test_run r;
	struct mmproj p;
	struct lora l;
	struct tiny t;
	char *model, *lora, *bad, *proj;

	tiny_init(&t);
	tiny_build(&t, &sb);
	model = tmp_of(&sb);
	strbuf_reset(&sb);
	lora_init(&l);
	lora_build(&l, &sb);
	lora = tmp_of(&sb);
	strbuf_reset(&sb);
	l.n_in = 16;
	lora_build(&l, &sb);
	bad = tmp_of(&sb);
	strbuf_reset(&sb);
	mmproj_init(&p);
	mmproj_build(&p, &sb);
	proj = tmp_of(&sb);
	strbuf_free(&sb);
	{
		const char *argv[] = { "--no-config", model, "--lora", lora,
			"--mmproj", proj, "-p", "gpu_8gb", "--plan", NULL };
		test_run_bin(&r, argv, NULL, 0);
		cr_log_info("%s", r.out);
		cr_expect_eq(r.status, 0, "%s%s", r.out, r.err);
		test_run_free(&r);
	}
	{
		const char *argv[] = { "--no-config", model, "--lora", bad,
			NULL };
		test_run_bin(&r, argv, NULL, 0);
		cr_log_info("%s", r.out);
		cr_expect_eq(r.status, 1, "%s%s", r.out, r.err);
		cr_expect(strstr(r.out, "M030") != NULL, "%s", r.out);
		test_run_free(&r);
	}
	{
		const char *argv[] = { "--no-config", proj, "-p", "gpu_8gb",
			NULL };
		test_run_bin(&r, argv, NULL, 0);
		cr_log_info("%s", r.out);
		cr_expect_eq(r.status, 0, "%s%s", r.out, r.err);
		cr_expect(strstr(r.out, "P010") != NULL, "%s", r.out);
		test_run_free(&r);
	}
	{
		const char *argv[] = { "--no-config", "-f", "json", model,
			"--lora", lora, NULL };
		test_run_bin(&r, argv, NULL, 0);
		cr_log_info("%s", r.out);
		cr_expect(strstr(r.out, "\"role\": \"lora\", \"companion\": "
		    "{\"of\": ") != NULL, "%s", r.out);
		cr_expect(strstr(r.out, "\"as\": \"lora\"}") != NULL, "%s",
		    r.out);
		test_run_free(&r);
	}
	{
		const char *argv[] = { "--no-config", model, "--lora",
			"/nonexistent/x.gguf", NULL };
		test_run_bin(&r, argv, NULL, 0);
		cr_expect_eq(r.status, 2, "%s%s", r.out, r.err);
		test_run_free(&r);
	}
	unlink(model);
	unlink(lora);
	unlink(bad);
	unlink(proj);
	free(model);
	free(lora);
	free(bad);
	free(proj);
}

/* tests/llama-load beside $GGUFLINT_BIN, or NULL; with the CPU libraries
 * of $GGUFLINT_LLAMA. */
static char *
llama_loader(void)
{
	const char *bin = getenv("GGUFLINT_BIN");
	const char *dir = getenv("GGUFLINT_LLAMA");
	const char *slash = bin != NULL ? strrchr(bin, '/') : NULL;
	char *path, *lib;
	bool ok;

	if (slash == NULL || dir == NULL || *dir == '\0')
		return NULL;
	lib = xasprintf("%s/cpu/libggml-base.so", dir);
	path = xasprintf("%.*s/tests/llama-load", (int)(slash - bin), bin);
	ok = access(path, X_OK) == 0 && access(lib, R_OK) == 0;
	free(lib);
	if (!ok) {
		free(path);
		return NULL;
	}
	return path;
}

/* llama.cpp's verdict ('A' or 'R', '?' when none) on the adapter at path
 * as a LoRA of base, by llama-load --lora. */
static char
llama_lora_verdict(const char *prog, const char *base, const char *path,
    char *reason, size_t n)
{
	char *cmd = xasprintf("'%s' '%s/cpu' --lora '%s' '%s' 2>/dev/null",
	    prog, getenv("GGUFLINT_LLAMA"), base, path);
	FILE *p = popen(cmd, "r");
	char line[1024], v = '?';
	const char *tab;

	free(cmd);
	cr_assert(p != NULL);
	reason[0] = '\0';
	if (fgets(line, sizeof line, p) != NULL) {
		v = line[0];
		if ((tab = strchr(line, '\t')) != NULL)
			snprintf(reason, n, "%.*s", (int)strcspn(tab + 1,
			    "\n"), tab + 1);
	}
	pclose(p);
	return v;
}

/* A line of r's text report is an error at path. */
static bool
companion_error(const struct test_run *r, const char *path)
{
	size_t n = strlen(path);
	const char *p, *eol, *e;

	for (p = r->out; p != NULL && *p != '\0'; p = eol ? eol + 1 : NULL) {
		eol = strchr(p, '\n');
		e = strstr(p, ": error: ");
		if (strncmp(p, path, n) == 0 && p[n] == ':' && e != NULL &&
		    (eol == NULL || e < eol))
			return true;
	}
	return false;
}

/*
 * llama.cpp as the oracle of the LoRA checks: each LoRA above given to
 * llama_adapter_lora_init with the tiny model as its base (tests/
 * llama-load --lora, in a child); every one it refuses must be a gguflint
 * error at the adapter with --lora, and the clean one loads in both.
 */
Test(companion, llama_refuses_lora_implies_error, .timeout = 120)
{
	static void (*const changes[])(struct lora *) = { NULL, no_alpha,
		odd_suffix, norm_extra, drop_b, rank_b, ia3, untyped,
		other_arch, wide_in, foreign, absent, unflipped, truncated };
	char *prog = llama_loader(), *base, *path, reason[512];
	struct strbuf sb = STRBUF_INIT;
	size_t i, refused = 0;
	struct test_run r;
	struct tiny t;
	struct lora l;
	char v;

	if (prog == NULL)
		cr_skip_test("tests/llama-load or llama.cpp's libraries are "
		    "absent: run build-aux/install-llama, then make check");
	tiny_init(&t);
	tiny_build(&t, &sb);
	base = tmp_of(&sb);
	for (i = 0; i < sizeof changes / sizeof changes[0]; i++) {
		const char *argv[] = { "--no-config", "-p", "laptop_16gb",
			"--color", "never", base, "--lora", NULL, NULL };

		lora_init(&l);
		if (changes[i] != NULL)
			changes[i](&l);
		strbuf_reset(&sb);
		lora_build(&l, &sb);
		path = tmp_of(&sb);
		argv[7] = path;
		v = llama_lora_verdict(prog, base, path, reason, sizeof reason);
		test_run_bin(&r, argv, NULL, 0);
		cr_log_info("variant %zu: llama.cpp %c (%s) | gguflint exit %d",
		    i, v, reason, r.status);
		cr_expect(v == 'A' || v == 'R', "variant %zu: no verdict", i);
		if (i == 0)
			cr_expect(v == 'A' && r.status == 0, "the clean LoRA: "
			    "llama.cpp %c (%s), gguflint %d: %s", v, reason,
			    r.status, r.out);
		if (v == 'R') {
			refused++;
			cr_expect(r.status == 1 && companion_error(&r, path),
			    "variant %zu: llama.cpp refuses it (%s) but "
			    "gguflint reports no error at it: %s", i, reason,
			    r.out);
		}
		test_run_free(&r);
		unlink(path);
		free(path);
	}
	cr_expect(refused >= 8, "only %zu variants refused", refused);
	unlink(base);
	free(base);
	free(prog);
	strbuf_free(&sb);
}

/* The tiny model alone, or with n companions, under profile p with -ngl
 * ngl (< -1: the profile's), into m (lint_model_free it). */
static void
plan_with(struct lint_model *m, const struct catalog *cat,
    const struct profile *p, long ngl, const enum companion_kind *k,
    const struct strbuf *const *bufs, size_t n, char **paths)
{
	struct strbuf sb = STRBUF_INIT;
	struct lint_companion c[4];
	struct lint_options lo;
	struct model_input in;
	struct gl_error err;
	bool given = true;
	struct tiny t;
	size_t i;

	memset(&lo, 0, sizeof lo);
	tiny_init(&t);
	tiny_build(&t, &sb);
	paths[0] = test_tmpfile(sb.buf, sb.len);
	strbuf_free(&sb);
	for (i = 0; i < n; i++) {
		paths[i + 1] = test_tmpfile(bufs[i]->buf, bufs[i]->len);
		c[i].kind = k[i];
		c[i].path = paths[i + 1];
	}
	lo.cat = cat;
	lo.profile = p;
	lo.companions = c;
	lo.n_companions = n;
	if (ngl >= -1) {
		lo.request.ngl_set = true;
		lo.request.ngl = ngl;
	}
	in.path = &paths[0];
	in.given = &given;
	in.n = 1;
	in.split = false;
	cr_assert(lint_input(&in, &lo, m, &err) == 0, "%s", err.msg);
	cr_assert_eq(m->n, n + 1);
	for (i = 0; i <= n; i++) {
		unlink(paths[i]);
		free(paths[i]);
	}
}

/*
 * The plan with companions, against the model's alone: an mmproj's
 * weights on the GPU (CUDA0 of gpu_8gb), a LoRA's beside the tensors it
 * adapts (token_embd's pair on the CPU, the blocks' on the GPU; all on
 * the CPU with -ngl 0), a draft's whole plan on its devices; each device
 * total and the heap grow by exactly that.
 */
Test(companion, plan)
{
	struct strbuf pb = STRBUF_INIT, lb = STRBUF_INIT, db = STRBUF_INIT;
	const struct strbuf *bufs[] = { &pb, &lb, &db };
	const enum companion_kind kinds[] = { COMPANION_MMPROJ,
		COMPANION_LORA, COMPANION_DRAFT };
	struct lint_model alone, with;
	const struct plan *a, *w, *dp;
	struct catalog cat;
	struct gl_error err;
	struct profile p;
	char *paths[4];
	struct mmproj mp;
	struct lora l;
	struct tiny t;
	size_t i;

	cr_assert(catalog_load_builtin(&cat, &err) == 0, "%s", err.msg);
	cr_assert(profile_load("gpu_8gb", &p, &err) == 0, "%s", err.msg);
	mmproj_init(&mp);
	mmproj_build(&mp, &pb);
	lora_init(&l);
	lora_build(&l, &lb);
	tiny_init(&t);
	tiny_build(&t, &db);
	plan_with(&alone, &cat, &p, -2, NULL, NULL, 0, paths);
	plan_with(&with, &cat, &p, -2, kinds, bufs, 3, paths);
	a = &alone.res[0].plan;
	w = &with.res[0].plan;
	dp = &with.res[3].plan;
	cr_assert(a->valid && w->valid && dp->valid);
	cr_assert_eq(w->n_comp, 3);
	cr_expect_eq(with.res[3].given, COMPANION_DRAFT);
	cr_expect_eq(dp->ctx, w->ctx);
	cr_expect_eq(dp->kv_k, KV_F16);
	cr_expect_eq(w->comp[0].bytes[0], 0);
	cr_expect_eq(w->comp[0].bytes[1], (16 * 16 + 16 * 32 + 16 * 8) * 4);
	cr_expect_eq(w->comp[1].bytes[0], (2 * 16 + 2 * 8) * 4);
	cr_expect_eq(w->comp[1].bytes[1], (8 * 2 + 2 * 8 + 8 * 2 + 2 * 4) * 4);
	cr_expect_eq(w->comp[2].bytes[1], dp->dev[1].total_bytes);
	cr_expect_eq(w->comp[2].bytes[0], dp->dev[0].total_bytes);
	/* with an adapter the graph is not built: its compute is fitted
	 * where the model's alone is placed, so each side is compared
	 * net of its compute */
	cr_expect_eq(w->dev[1].total_bytes - w->dev[1].compute_bytes,
	    a->dev[1].total_bytes - a->dev[1].compute_bytes +
		w->comp[0].bytes[1] + w->comp[1].bytes[1] +
		w->comp[2].bytes[1]);
	cr_expect_eq(w->total - w->dev[0].compute_bytes,
	    a->total - a->dev[0].compute_bytes + w->comp[1].bytes[0] +
		dp->dev[0].total_bytes);
	cr_expect_eq(w->budgeted - w->dev[0].compute_bytes,
	    a->budgeted - a->dev[0].compute_bytes + w->comp[1].bytes[0] +
		dp->budgeted);
	lint_model_free(&with);
	plan_with(&with, &cat, &p, 0, kinds + 1, bufs + 1, 1, paths);
	w = &with.res[0].plan;
	cr_expect_eq(w->comp[0].bytes[1], 0);
	cr_expect_eq(w->comp[0].bytes[0], w->comp[0].weights);
	lint_model_free(&with);
	profile_free(&p);
	/* SKaiNET's plans have no companions: a note says so */
	cr_assert(profile_load("desktop", &p, &err) == 0, "%s", err.msg);
	cr_assert_eq(p.runtime, RUNTIME_SKAINET);
	plan_with(&with, &cat, &p, -2, kinds, bufs, 1, paths);
	w = &with.res[0].plan;
	cr_expect_eq(w->n_comp, 0);
	for (i = 0; i < w->n_notes; i++)
		if (strstr(w->notes[i], "llama.cpp profiles only") != NULL)
			break;
	cr_expect(i < w->n_notes, "no note of the companions");
	lint_model_free(&with);
	lint_model_free(&alone);
	profile_free(&p);
	catalog_free(&cat);
	strbuf_free(&pb);
	strbuf_free(&lb);
	strbuf_free(&db);
}

/* A draft model beside the tiny model: P011 when llama.cpp would find
 * the vocabularies incompatible (another tokenizer, a token from id 5 on
 * that differs), not for a token below 5, which it does not compare. */
static void
draft_case(void (*change)(struct tiny *), size_t want)
{
	struct strbuf sb = STRBUF_INIT;
	struct tiny t, d;
	struct pair p;

	tiny_init(&t);
	tiny_init(&d);
	if (change != NULL)
		change(&d);
	tiny_build(&d, &sb);
	pair_lint(&p, &t, COMPANION_DRAFT, &sb);
	cr_expect_eq(pair_count(&p, "P011"), want, "%s", pair_codes(&p, 1));
	cr_expect_eq(pair_count(&p, "N006") + pair_count(&p, "P010"), 0,
	    "a draft is a model: %s", pair_codes(&p, 1));
	pair_free(&p);
	strbuf_free(&sb);
}

static void other_tokenizer(struct tiny *t) { t->tok_model = "gpt2"; }
static void token3(struct tiny *t) { t->tok3 = "x3"; }
static void token5(struct tiny *t) { t->dup_token = true; }

Test(companion, draft_vocabulary)
{
	draft_case(NULL, 0);
	draft_case(other_tokenizer, 1);
	draft_case(token3, 0);
	draft_case(token5, 1);
}

/* A folder holding a model and its projector, linted with --mmproj: the
 * projector is linted beside the model, not a second time as a model of
 * its own (which would be M022); alone it is still the model. */
Test(companion, folder_with_its_projector)
{
	char dir[] = "/tmp/gguflint-comp-XXXXXX", *model, *proj, *cmd;
	struct strbuf sb = STRBUF_INIT;
	struct test_run r;
	struct mmproj p;
	struct tiny t;

	cr_assert(mkdtemp(dir) != NULL);
	model = xasprintf("%s/model.gguf", dir);
	proj = xasprintf("%s/mmproj.gguf", dir);
	tiny_init(&t);
	tiny_build(&t, &sb);
	cr_assert(ggufw_write_file(model, sb.buf, sb.len) == 0);
	strbuf_reset(&sb);
	mmproj_init(&p);
	mmproj_build(&p, &sb);
	cr_assert(ggufw_write_file(proj, sb.buf, sb.len) == 0);
	strbuf_free(&sb);
	{
		const char *argv[] = { "--no-config", "-f", "json", dir,
			"--mmproj", proj, NULL };

		test_run_bin(&r, argv, NULL, 0);
		cr_expect_eq(r.status, 0, "%s%s", r.out, r.err);
		cr_expect(strstr(r.out, "M022") == NULL, "%s", r.out);
		cr_expect(strstr(r.out, "\"as\": \"mmproj\"") != NULL, "%s",
		    r.out);
		test_run_free(&r);
	}
	{
		const char *argv[] = { "--no-config", proj, "--mmproj", proj,
			NULL };

		test_run_bin(&r, argv, NULL, 0);
		cr_expect_eq(r.status, 1, "%s%s", r.out, r.err);
		cr_expect(strstr(r.out, "M022") != NULL, "%s", r.out);
		test_run_free(&r);
	}
	cmd = xasprintf("rm -rf '%s'", dir);
	cr_expect(system(cmd) == 0);
	free(cmd);
	free(model);
	free(proj);
}

/* The tiny model split in two as gguf-split writes it (all metadata in
 * the first shard, token_embd and block 0 there, the rest in the
 * second), under dir as m-0000K-of-00002.gguf. */
static void
write_split_tiny(const char *dir)
{
	struct strbuf sb = STRBUF_INIT;
	struct ggufw_model one, two;
	size_t i, n, k = 10;
	uint64_t size;
	char *path;
	struct tiny t;

	tiny_init(&t);
	t.split_no = 0;
	t.split_count = 2;
	tiny_model(&t, &one);
	n = one.n_tensors;
	ggufw_model_kv_i32(&one, "split.tensors.count", (int32_t)n);
	ggufw_model_init(&two, false, 32);
	ggufw_model_kv_u16(&two, "split.no", 1);
	ggufw_model_kv_u16(&two, "split.count", 2);
	ggufw_model_kv_i32(&two, "split.tensors.count", (int32_t)n);
	for (i = k; i < n; i++)
		ggufw_model_tensor(&two, one.tensors[i].name,
		    one.tensors[i].n_dims, one.tensors[i].ne, GGUFW_GGML_F32, 1,
		    4);
	/* the first shard: its first k tensors (restored before the free) */
	size = one.data_size;
	one.n_tensors = k;
	one.data_size = one.tensors[k].offset;
	ggufw_model_finish(&one, &sb, GGUFW_DATA_ZERO);
	one.n_tensors = n;
	one.data_size = size;
	path = xasprintf("%s/m-00001-of-00002.gguf", dir);
	cr_assert(ggufw_write_file(path, sb.buf, sb.len) == 0);
	free(path);
	strbuf_reset(&sb);
	ggufw_model_finish(&two, &sb, GGUFW_DATA_ZERO);
	path = xasprintf("%s/m-00002-of-00002.gguf", dir);
	cr_assert(ggufw_write_file(path, sb.buf, sb.len) == 0);
	free(path);
	strbuf_free(&sb);
	ggufw_model_free(&one);
	ggufw_model_free(&two);
}

/* A LoRA checked against a split model: the tensors it adapts are looked
 * up in every shard (blk.1 is in the second), and planned with it. */
Test(companion, lora_of_a_split_model)
{
	char dir[] = "/tmp/gguflint-comp-XXXXXX", *shard, *good, *bad, *cmd;
	struct strbuf sb = STRBUF_INIT;
	struct test_run r;
	struct lora l;

	cr_assert(mkdtemp(dir) != NULL);
	write_split_tiny(dir);
	shard = xasprintf("%s/m-00001-of-00002.gguf", dir);
	good = xasprintf("%s/good.lora", dir);
	bad = xasprintf("%s/bad.lora", dir);
	lora_init(&l);
	l.pair = "blk.1.attn_q.weight";
	l.pair_out = 8;
	lora_build(&l, &sb);
	cr_assert(ggufw_write_file(good, sb.buf, sb.len) == 0);
	strbuf_reset(&sb);
	l.pair_out = 16;		/* blk.1.attn_q is [8, 8] */
	lora_build(&l, &sb);
	cr_assert(ggufw_write_file(bad, sb.buf, sb.len) == 0);
	strbuf_free(&sb);
	{
		const char *argv[] = { "--no-config", "-p", "gpu_8gb",
			"--plan", shard, "--lora", good, NULL };

		test_run_bin(&r, argv, NULL, 0);
		cr_expect_eq(r.status, 0, "%s%s", r.out, r.err);
		cr_expect(strstr(r.out, "(2 shards)") != NULL &&
		    strstr(r.out, "lora      CUDA0, weights") != NULL, "%s",
		    r.out);
		test_run_free(&r);
	}
	{
		const char *argv[] = { "--no-config", shard, "--lora", bad,
			NULL };

		test_run_bin(&r, argv, NULL, 0);
		cr_expect_eq(r.status, 1, "%s%s", r.out, r.err);
		cr_expect(strstr(r.out, "M030") != NULL && strstr(r.out,
		    "the base's [8, 8] [tensor: blk.1.attn_q.weight.lora_a]") !=
		    NULL, "%s", r.out);
		test_run_free(&r);
	}
	cmd = xasprintf("rm -rf '%s'", dir);
	cr_expect(system(cmd) == 0);
	free(cmd);
	free(shard);
	free(good);
	free(bad);
}

static uint64_t
rng_next(uint64_t *s)
{
	/* xorshift64* */
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 2685821657736338717ull;
}

/* A mutant of the n bytes at p (a copy, freed by the caller): one
 * or two bytes of the header (before hdr) set to random values. */
static uint8_t *
mutant(const void *p, size_t n, size_t hdr, uint64_t *seed)
{
	uint8_t *m = xmalloc(n);
	unsigned k, count = 1 + (unsigned)(rng_next(seed) % 2);

	memcpy(m, p, n);
	for (k = 0; k < count; k++)
		m[rng_next(seed) % hdr] = (uint8_t)rng_next(seed);
	return m;
}

/*
 * The same property on mutants of the clean LoRA: GGUFLINT_DIFF_LORA_
 * MUTANTS (default 200) copies with header bytes changed, each given to
 * llama.cpp as a LoRA of the tiny model (one llama-load run) and to
 * gguflint with --lora: every one llama.cpp refuses is an error at it.
 */
Test(companion, llama_refuses_lora_mutants_implies_error, .timeout = 300)
{
	const char *e = getenv("GGUFLINT_DIFF_LORA_MUTANTS");
	size_t n = e != NULL && *e != '\0' ? strtoul(e, NULL, 10) : 200;
	char *prog = llama_loader(), *base, **paths, line[1024];
	struct strbuf sb = STRBUF_INIT, cmd = STRBUF_INIT;
	size_t i, refused = 0, missed = 0, hdr;
	uint64_t seed = 0x16c0ffee;
	struct tiny t;
	struct lora l;
	FILE *p;

	if (prog == NULL)
		cr_skip_test("tests/llama-load or llama.cpp's libraries are "
		    "absent: run build-aux/install-llama, then make check");
	tiny_init(&t);
	tiny_build(&t, &sb);
	base = tmp_of(&sb);
	strbuf_reset(&sb);
	lora_init(&l);
	hdr = (size_t)lora_build(&l, &sb);
	paths = xcalloc(n + 1, sizeof *paths);
	strbuf_addf(&cmd, "'%s' '%s/cpu' --lora '%s'", prog,
	    getenv("GGUFLINT_LLAMA"), base);
	for (i = 0; i < n; i++) {
		uint8_t *m = mutant(sb.buf, sb.len, hdr, &seed);

		paths[i] = test_tmpfile(m, sb.len);
		free(m);
		strbuf_addf(&cmd, " '%s'", paths[i]);
	}
	strbuf_adds(&cmd, " 2>/dev/null");
	cr_assert((p = popen(strbuf_cstr(&cmd), "r")) != NULL);
	while (fgets(line, sizeof line, p) != NULL) {
		const char *path = line + 2;
		const char *argv[] = { "--no-config", "--color", "never", base,
			"--lora", NULL, NULL };
		struct test_run r;

		if (line[0] == 'A')
			continue;
		line[2 + strcspn(path, "\t\n")] = '\0';
		refused++;
		argv[5] = path;
		test_run_bin(&r, argv, NULL, 0);
		if ((r.status != 1 || !companion_error(&r, path)) &&
		    missed++ < 10)
			cr_log_error("%s: llama.cpp refuses it (%c) but "
			    "gguflint exits %d: %s", path, line[0], r.status,
			    r.out);
		test_run_free(&r);
	}
	pclose(p);
	cr_log_info("LoRA mutants: %zu, llama.cpp refused %zu, gguflint "
	    "passed %zu of those", n, refused, missed);
	cr_expect(refused > n / 10, "only %zu of %zu refused", refused, n);
	cr_expect_eq(missed, 0, "%zu LoRA mutants llama.cpp refuses pass "
	    "gguflint (the first 10 are logged)", missed);
	for (i = 0; i < n; i++) {
		unlink(paths[i]);
		free(paths[i]);
	}
	free(paths);
	unlink(base);
	free(base);
	free(prog);
	strbuf_free(&sb);
	strbuf_free(&cmd);
}
