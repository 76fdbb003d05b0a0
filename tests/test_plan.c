/*
 * test_plan.c - the memory plan: SKaiNET's acceptance numbers
 * (skainet-semantics.md §12) from the C API, llama.cpp's KV arithmetic
 * (memory-and-kv.md §3-§8) against hand-computed numbers and against the
 * llama.cpp oracle table in the shared corpus, the geometry reader and the
 * P family through GGUF files, and the program end to end on a sparse
 * 8B-shaped llama file.
 *
 * Geometries for the arithmetic are filled in by hand (struct model_geom);
 * files are built with the ggufw model builder. Every expected number is
 * exact: where a reference gives a derived value, the test asserts it.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "facts/arch.h"
#include "ggufw.h"
#include "jsontree.h"
#include "target/kvtype.h"
#include "lint.h"
#include "plan/plan.h"
#include "target/profile.h"
#include "shared_path.h"
#include "testutil.h"

#define KiB (1ull << 10)
#define MiB (1ull << 20)
#define GiB (1ull << 30)

/* ggml block sizes (the writer knows no type table). */
#define Q4_K_BLCK 256
#define Q4_K_SIZE 144

/* ---- helpers ------------------------------------------------------------- */

/* Built-in profiles and catalogue come from the binary, not the disk. */
static void
plan_no_datadir(void)
{
	setenv("GGUFLINT_DATADIR", "/nonexistent/gguflint-test", 1);
}

/*
 * geom_uniform: an attention model whose every layer has n_head query
 * heads, n_head_kv KV heads of head_dim, and n_ff; no SWA, no MLA.
 */
static void
geom_uniform(struct model_geom *g, uint32_t n_layer, uint32_t n_embd,
    uint32_t n_head, uint32_t n_head_kv, uint32_t head_dim, uint32_t n_ff,
    uint32_t n_vocab)
{
	uint32_t il;

	memset(g, 0, sizeof *g);
	strcpy(g->arch, "llama");
	g->has_arch = true;
	g->known = true;
	g->memory = ARCH_MEM_KV;
	g->plannable = true;
	g->n_layer = n_layer;
	g->n_embd = n_embd;
	g->n_vocab = n_vocab;
	for (il = 0; il < n_layer; il++) {
		g->n_head[il] = n_head;
		g->n_head_kv[il] = n_head_kv;
		g->n_ff[il] = n_ff;
	}
	g->head_k = g->head_v = head_dim;
	g->head_k_swa = g->head_v_swa = head_dim;
}

/* Geometries of the acceptance cases. */
static void
geom_llama1b(struct model_geom *g)	/* skainet-semantics.md §12.1 */
{
	geom_uniform(g, 16, 2048, 32, 8, 64, 8192, 128256);
	g->n_ctx_train = 131072;
}

static void
geom_qwen05b(struct model_geom *g)	/* §12.3 */
{
	geom_uniform(g, 24, 896, 14, 2, 64, 4864, 151936);
	g->n_ctx_train = 32768;
}

static void
geom_profiletest(struct model_geom *g)	/* §12.6 */
{
	geom_uniform(g, 16, 2048, 32, 8, 64, 5632, 32000);
}

static void
geom_bitnet2b(struct model_geom *g)	/* §12.8 */
{
	geom_uniform(g, 30, 2560, 20, 5, 128, 6912, 128256);
	strcpy(g->arch, "bitnet");
}

static char prof_name[] = "hand";

/*
 * prof_hand: a profile built by hand (no profile_free: the name is
 * static): prefill 256, ubatch 512, no default context.
 */
static void
prof_hand(struct profile *p, uint64_t memory, uint64_t reserve,
    enum weights_residency w, enum kv_type kv, enum kv_type kvq,
    double auto_above, bool fa)
{
	memset(p, 0, sizeof *p);
	p->name = prof_name;
	p->memory = memory;
	p->reserve = reserve;
	p->weights = w;
	p->kv_cache = kv;
	p->kv_quantized = kvq;
	p->kv_auto_quantize_above = auto_above;
	p->prefill_chunk = 256;
	p->ubatch = 512;
	p->flash_attention = fa;
	p->runtime = RUNTIME_SKAINET;	/* these are SKaiNET's cases */
}

static uint64_t
kv_total(const struct model_geom *g, enum kv_type kv, uint64_t cells,
    bool fa)
{
	uint64_t k, v;

	return plan_kv_bytes(g, kv, cells, cells, fa, &k, &v);
}

/* A new empty temporary file's path (the caller unlinks and frees). */
static char *
tmp_path(void)
{
	return test_tmpfile("", 0);
}

/* The model written in full (tensor data zero) to a temporary file. */
static char *
model_file(const struct ggufw_model *m)
{
	struct strbuf sb = STRBUF_INIT;
	char *path;

	ggufw_model_finish(m, &sb, GGUFW_DATA_ZERO);
	path = test_tmpfile(sb.buf, sb.len);
	strbuf_free(&sb);
	return path;
}

/* The model as a sparse file: header written, data a hole. */
static char *
model_sparse(const struct ggufw_model *m)
{
	char *path = tmp_path();

	cr_assert(ggufw_model_finish_sparse(m, path) == 0,
	    "ggufw_model_finish_sparse(%s) failed", path);
	return path;
}

/*
 * lint_path: lint path in process with profile p (NULL: no plan) and
 * request rq (NULL: the profile's defaults). t owns path afterwards:
 * test_lint_free() unlinks and frees it.
 */
static void
lint_path(struct test_lint *t, char *path, const struct profile *p,
    const struct plan_request *rq)
{
	struct lint_options lo;
	struct gl_error err;

	memset(t, 0, sizeof *t);
	memset(&lo, 0, sizeof lo);
	cr_assert(catalog_load_builtin(&t->cat, &err) == 0, "%s", err.msg);
	t->path = path;
	lo.cat = &t->cat;
	lo.profile = p;
	if (rq != NULL)
		lo.request = *rq;
	cr_assert(lint_file(path, &lo, &t->res, &err) == 0, "%s", err.msg);
}

static void
lint_model(struct test_lint *t, const struct ggufw_model *m,
    const struct profile *p, const struct plan_request *rq)
{
	lint_path(t, model_file(m), p, rq);
}

/* The message of the first diagnostic with this code, asserting one. */
static const char *
diag_msg(const struct test_lint *t, const char *code)
{
	const struct diag *d = test_find(t, code);

	cr_assert(d != NULL, "no %s; got: %s", code, test_codes(t));
	return d->message;
}

static const struct plan_suggestion *
find_sugg(const struct plan *pl, const char *args)
{
	size_t i;

	for (i = 0; i < pl->n_sugg; i++)
		if (pl->sugg[i].args != NULL &&
		    strcmp(pl->sugg[i].args, args) == 0)
			return &pl->sugg[i];
	return NULL;
}

static const struct plan_suggestion *
find_sugg_text(const struct plan *pl, const char *prefix)
{
	size_t i;

	for (i = 0; i < pl->n_sugg; i++)
		if (strncmp(pl->sugg[i].text, prefix, strlen(prefix)) == 0)
			return &pl->sugg[i];
	return NULL;
}

/* "text (args) saving; ..." for failure messages (static). */
static const char *
sugg_list(const struct plan *pl)
{
	static char buf[2048];
	size_t i, len = 0;

	buf[0] = '\0';
	for (i = 0; i < pl->n_sugg && len + 64 < sizeof buf; i++)
		len += (size_t)snprintf(buf + len, sizeof buf - len,
		    "%s[%s] (%s) %llu", i ? "; " : "", pl->sugg[i].text,
		    pl->sugg[i].args ? pl->sugg[i].args : "-",
		    (unsigned long long)pl->sugg[i].saving);
	return buf;
}

/* Common llama keys (UINT32 everywhere), prefixed by arch. */
static void
add_attn_keys(struct ggufw_model *m, const char *arch, uint32_t n_layer,
    uint32_t n_embd, uint32_t n_head, uint32_t ctx_train, uint32_t n_vocab)
{
	char key[128];

	ggufw_model_kv_str(m, "general.architecture", arch);
	snprintf(key, sizeof key, "%s.block_count", arch);
	ggufw_model_kv_u32(m, key, n_layer);
	snprintf(key, sizeof key, "%s.embedding_length", arch);
	ggufw_model_kv_u32(m, key, n_embd);
	snprintf(key, sizeof key, "%s.attention.head_count", arch);
	ggufw_model_kv_u32(m, key, n_head);
	snprintf(key, sizeof key, "%s.feed_forward_length", arch);
	ggufw_model_kv_u32(m, key, 4 * n_embd);
	snprintf(key, sizeof key, "%s.context_length", arch);
	ggufw_model_kv_u32(m, key, ctx_train);
	snprintf(key, sizeof key, "%s.vocab_size", arch);
	ggufw_model_kv_u32(m, key, n_vocab);
}

/* One small F32 tensor, so that there is something to plan. */
static void
add_small_tensor(struct ggufw_model *m)
{
	static const int64_t ne[] = { 64, 32 };

	ggufw_model_tensor(m, "token_embd.weight", 2, ne, GGUFW_GGML_F32, 1,
	    4);
}

/* ---- skainet-semantics.md §12.1: Llama-3.2-1B-like ---------------------- */

Test(plan, skainet_llama1b_kv_bytes)
{
	struct model_geom g;
	uint64_t k, v;

	geom_llama1b(&g);
	/* kvElements(2048) = 16 * 2048 * 8 * 128 = 33554432. */
	cr_assert_eq(plan_kv_bytes(&g, KV_BF16, 2048, 2048, true, &k, &v),
	    67108864ull);
	cr_assert_eq(k, 33554432ull);
	cr_assert_eq(v, 33554432ull);
	cr_assert_eq(kv_total(&g, KV_BF16, 2048, true) / 2, 33554432ull,
	    "elements");
	/* 262144 blocks of 128 elements, 76 bytes each. */
	cr_assert_eq(kv_total(&g, KV_TURBOQUANT4, 2048, true), 19922944ull);
	cr_assert_eq(kv_total(&g, KV_F32, 2048, true), 134217728ull);
	/* f16 is bf16's size; flash attention off changes nothing here. */
	cr_assert_eq(kv_total(&g, KV_F16, 2048, false), 67108864ull);
}

Test(plan, skainet_llama1b_forward_bytes)
{
	struct model_geom g;

	geom_llama1b(&g);
	/* (4*2048 + 3*8192 + 32*2048) * 4 + 128256 * 4 */
	cr_assert_eq(plan_forward_bytes(&g, 2048, 1), 906240ull);
	cr_assert_eq(plan_forward_bytes(&g, 2048, 256), 101176320ull);
	/* T = min(chunk, ctx): a chunk longer than ctx is ctx. */
	cr_assert_eq(plan_forward_bytes(&g, 128, 256), 19387392ull);
	cr_assert_eq(plan_forward_bytes(&g, 128, 1024), 19387392ull);
	cr_assert_eq(plan_forward_bytes(&g, 128, 128), 19387392ull);
	cr_assert_gt(plan_forward_bytes(&g, 2048, 256),
	    plan_forward_bytes(&g, 2048, 1));
}

/*
 * The §12.1 tensor set, all Q4_K: embedding 128256 x 2048, and per layer
 * q 2048x2048, k and v 512x2048, o 2048x2048, gate and up 8192x2048, down
 * 2048x8192 (ne[0] is the input width). Written sparse (~663 MiB of hole).
 */
static char *
llama1b_file(void)
{
	static const int64_t emb[] = { 2048, 128256 }, sq[] = { 2048, 2048 },
	    kv[] = { 2048, 512 }, up[] = { 2048, 8192 },
	    down[] = { 8192, 2048 };
	static const char *const names[] = { "attn_q", "attn_k", "attn_v",
	    "attn_output", "ffn_gate", "ffn_up", "ffn_down" };
	const int64_t *shapes[] = { sq, kv, kv, sq, up, up, down };
	struct ggufw_model m;
	char name[64];
	char *path;
	int il, j;

	ggufw_model_init(&m, false, 32);
	ggufw_model_kv_str(&m, "general.architecture", "llama");
	ggufw_model_tensor(&m, "token_embd.weight", 2, emb, GGUFW_GGML_Q4_K,
	    Q4_K_BLCK, Q4_K_SIZE);
	for (il = 0; il < 16; il++) {
		for (j = 0; j < 7; j++) {
			snprintf(name, sizeof name, "blk.%d.%s.weight", il,
			    names[j]);
			ggufw_model_tensor(&m, name, 2, shapes[j],
			    GGUFW_GGML_Q4_K, Q4_K_BLCK, Q4_K_SIZE);
		}
	}
	path = model_sparse(&m);
	ggufw_model_free(&m);
	return path;
}

/* §12.1's plan: the hand geometry over the file's tensors, ctx 2048. */
static void
plan_llama1b(struct test_lint *t, struct plan *pl, uint64_t memory,
    bool fa)
{
	struct plan_request rq = { 0 };
	struct model_geom g;
	struct profile p;

	lint_path(t, llama1b_file(), NULL, NULL);
	cr_assert(t->res.file.header_complete);
	cr_assert_eq(t->res.file.tensors_n, 1 + 16 * 7);
	geom_llama1b(&g);
	/* kv_auto_quantize_above 1e6: the plan never switches. */
	prof_hand(&p, memory, 0, WEIGHTS_HEAP, KV_BF16, KV_TURBOQUANT4, 1e6,
	    fa);
	rq.ctx = 2048;
	plan_make(&g, &t->res.file, &p, &rq, NULL, pl);
	cr_assert(pl->valid);
}

Test(plan, skainet_llama1b_weights_and_total_fit_1300MiB,
    .init = plan_no_datadir)
{
	struct test_lint t;
	struct plan pl;

	plan_llama1b(&t, &pl, 1300 * MiB, true);
	/* The embedding alone: 128256 * 2048 / 256 * 144. */
	cr_assert(t.res.file.tensors[0].size_ok);
	cr_assert_eq(t.res.file.tensors[0].nbytes, 147750912ull);
	cr_assert_eq(pl.weights, 695107584ull);
	cr_assert_eq(pl.weights_heap, 695107584ull);
	cr_assert_eq(pl.weights_mapped, 0);
	cr_assert_eq(pl.tensors_unsized, 0);
	cr_assert_eq(pl.ctx, 2048);
	cr_assert_eq(pl.ctx_cells, 2048);
	cr_assert_eq(pl.kv_k, KV_BF16);
	cr_assert_not(pl.kv_switched);
	cr_assert_eq(pl.kv_bytes, 67108864ull);
	cr_assert_eq(pl.kv_alt, KV_TURBOQUANT4);
	cr_assert_eq(pl.kv_alt_bytes, 19922944ull);
	cr_assert_eq(pl.forward, 101176320ull);
	cr_assert_eq(pl.headroom, 67108864ull);
	cr_assert_eq(pl.state_bytes, 0);
	cr_assert_eq(pl.total, 930501632ull);
	cr_assert_eq(pl.budgeted, 930501632ull);
	cr_assert_eq(pl.budget, 1300 * MiB);
	cr_assert(pl.fits);
	cr_assert_eq(pl.over, 0);
	cr_assert_eq(pl.n_sugg, 0, "suggestions: %s", sugg_list(&pl));
	cr_assert_null(plan_best(&pl));
	plan_free(&pl);
	test_lint_free(&t);
}

Test(plan, skainet_llama1b_500MiB_does_not_fit, .init = plan_no_datadir)
{
	struct model_geom g;
	struct test_lint t;
	struct plan pl;
	const struct plan_suggestion *s;
	uint64_t ctx_saving;
	size_t i;

	plan_llama1b(&t, &pl, 500 * MiB, true);
	geom_llama1b(&g);
	cr_assert_eq(pl.total, 930501632ull);
	cr_assert_eq(pl.budget, 524288000ull);
	cr_assert_not(pl.fits);
	cr_assert_not(pl.fits_budget);
	cr_assert_eq(pl.over, 406213632ull);
	cr_assert_geq(pl.n_sugg, 2, "suggestions: %s", sugg_list(&pl));
	for (i = 0; i < pl.n_sugg; i++)
		cr_assert_gt(pl.sugg[i].saving, 0, "suggestion %zu: %s", i,
		    pl.sugg[i].text);

	/*
	 * --ctx 1024 saves what planning again at 1024 saves: the KV
	 * difference (bf16 64 MiB -> 32 MiB) plus the forward difference
	 * (heads x ctx per token: 96.5 MiB -> 64.5 MiB). Each is 32 MiB;
	 * their sum is SKaiNET's derived 67108864, so SKaiNET's figure
	 * already included the forward slab (its saving is budgetedBytes
	 * minus the re-plan's, not the KV alone).
	 */
	ctx_saving = (kv_total(&g, KV_BF16, 2048, true) -
	    kv_total(&g, KV_BF16, 1024, true)) +
	    (plan_forward_bytes(&g, 2048, 256) -
	    plan_forward_bytes(&g, 1024, 256));
	cr_assert_eq(ctx_saving, 67108864ull);
	s = find_sugg(&pl, "--ctx 1024");
	cr_assert_not_null(s, "no --ctx 1024: %s", sugg_list(&pl));
	cr_assert_eq(s->saving, ctx_saving);

	/*
	 * The smaller quantization must save exactly what is over: the
	 * weights are the only part it changes, and a plan whose weights
	 * shrink by `over` lands exactly on the budget (906 MiB - 500 MiB;
	 * the same figure as SKaiNET's 406213632, since nothing is mapped
	 * and the plan was not switched).
	 */
	s = find_sugg_text(&pl, "a smaller quantization");
	cr_assert_not_null(s, "no smaller-quantization suggestion: %s",
	    sugg_list(&pl));
	cr_assert_null(s->args);
	cr_assert_eq(s->saving, 406213632ull);
	cr_assert_eq(s->saving, pl.over);
	/* Nothing fits at any context (the weights alone are over): no
	 * "largest context that fits". */
	for (i = 0; i < pl.n_sugg; i++)
		cr_assert(strstr(pl.sugg[i].text, "largest") == NULL, "%s",
		    sugg_list(&pl));
	s = plan_best(&pl);
	cr_assert_not_null(s);
	cr_assert_geq(s->saving, pl.over);
	plan_free(&pl);
	test_lint_free(&t);
}

/*
 * SKaiNET's "--kv turboquant" suggestion on the same plan: the profile's
 * kv_quantized type (turboquant4) saves kv - kvAlt = 67108864 - 19922944.
 * plan.c once offered only the better of {kv_quantized, q4_0}; with flash
 * attention on, q4_0 (18874368 B) beats turboquant4 (19922944 B), so the
 * profile's own quantized type was never suggested. Now it is, with its
 * own saving.
 */
Test(plan, skainet_llama1b_500MiB_suggests_profile_kv_type,
    .init = plan_no_datadir)
{
	struct test_lint t;
	struct plan pl;
	const struct plan_suggestion *s;

	plan_llama1b(&t, &pl, 500 * MiB, true);
	s = find_sugg(&pl, "--kv turboquant4");
	cr_assert_not_null(s, "no --kv turboquant4 suggestion: %s",
	    sugg_list(&pl));
	cr_assert_eq(s->saving, 47185920ull);
	plan_free(&pl);
	test_lint_free(&t);
}

/* Without flash attention q4_0 is not allowed, and turboquant4 (which
 * needs no flash attention) is the KV suggestion, saving kv - kvAlt. */
Test(plan, skainet_llama1b_500MiB_kv_suggestion_without_flash,
    .init = plan_no_datadir)
{
	struct test_lint t;
	struct plan pl;
	const struct plan_suggestion *s;

	plan_llama1b(&t, &pl, 500 * MiB, false);
	cr_assert_eq(pl.total, 930501632ull);
	s = find_sugg(&pl, "--kv turboquant4");
	cr_assert_not_null(s, "no --kv turboquant4 suggestion: %s",
	    sugg_list(&pl));
	cr_assert_eq(s->saving, 47185920ull);
	cr_assert_eq(s->saving, pl.kv_bytes - pl.kv_alt_bytes);
	cr_assert_null(find_sugg(&pl, "--kv q4_0"), "%s", sugg_list(&pl));
	plan_free(&pl);
	test_lint_free(&t);
}

/* With flash attention on, what plan.c does offer: the better of the two
 * candidates, q4_0 (16 * 2048 * 2 rows of 512 elements, 288 B each). */
Test(plan, llama1b_500MiB_kv_suggestion_is_the_smallest_allowed,
    .init = plan_no_datadir)
{
	struct model_geom g;
	struct test_lint t;
	struct plan pl;
	const struct plan_suggestion *s;

	plan_llama1b(&t, &pl, 500 * MiB, true);
	geom_llama1b(&g);
	cr_assert_eq(kv_total(&g, KV_Q4_0, 2048, true), 18874368ull);
	s = find_sugg(&pl, "--kv q4_0");
	cr_assert_not_null(s, "%s", sugg_list(&pl));
	cr_assert_eq(s->saving, 67108864ull - 18874368ull);
	plan_free(&pl);
	test_lint_free(&t);
}

/* ---- §12.2: synthetic header -------------------------------------------- */

Test(plan, skainet_synthetic_header_weights_396, .init = plan_no_datadir)
{
	static const int64_t n512[] = { 512 }, n64[] = { 64 }, n10[] = { 10 };
	struct ggufw_model m;
	struct test_lint t;
	struct profile p;
	const struct plan *pl;

	ggufw_model_init(&m, false, 32);
	ggufw_model_kv_str(&m, "general.architecture", "test");
	ggufw_model_tensor(&m, "w.q4k", 1, n512, GGUFW_GGML_Q4_K, Q4_K_BLCK,
	    Q4_K_SIZE);
	ggufw_model_tensor(&m, "w.q8", 1, n64, GGUFW_GGML_Q8_0, 32, 34);
	ggufw_model_tensor(&m, "w.f32", 1, n10, GGUFW_GGML_F32, 1, 4);
	prof_hand(&p, 1 * GiB, 0, WEIGHTS_HEAP, KV_BF16, KV_TURBOQUANT4, 1.0,
	    true);
	lint_model(&t, &m, &p, NULL);
	pl = &t.res.plan;
	cr_assert(pl->valid);
	cr_assert_eq(t.res.file.tensors[0].nbytes, 288);
	cr_assert_eq(t.res.file.tensors[1].nbytes, 68);
	cr_assert_eq(t.res.file.tensors[2].nbytes, 40);
	cr_assert_eq(pl->weights, 396);
	cr_assert_eq(pl->n_params, 512 + 64 + 10);
	/* No geometry: no KV, no forward (SKaiNET's "no geometry" row). */
	cr_assert_eq(pl->kv_bytes, 0);
	cr_assert_eq(pl->forward, 0);
	cr_assert_eq(pl->total, 396 + 67108864ull);
	cr_assert(pl->fits);
	/* ...and the plan says it is incomplete, naming the architecture. */
	cr_assert(strstr(diag_msg(&t, "P005"), "'test'") != NULL, "%s",
	    diag_msg(&t, "P005"));
	test_lint_free(&t);
	ggufw_model_free(&m);
}

/* ---- §12.3: Qwen2.5-0.5B ------------------------------------------------ */

Test(plan, skainet_qwen05b_derived)
{
	struct model_geom g;

	geom_qwen05b(&g);
	cr_assert_eq(kv_total(&g, KV_BF16, 2048, true), 25165824ull);
	cr_assert_eq(kv_total(&g, KV_TURBOQUANT4, 2048, true), 7471104ull);
	cr_assert_eq(plan_forward_bytes(&g, 2048, 256), 48580096ull);
}

/* ---- §12.6: PlannerProfileTest at ctx 8192 ------------------------------ */

/*
 * One 600 MiB weight. Q4_K cannot hold exactly 629145600 bytes (not a
 * whole number of 144-byte blocks), so the tensor is F32 of the same size:
 * the plan counts stored bytes only. Sparse.
 */
static char *
weight600_file(void)
{
	static const int64_t ne[] = { 16384, 9600 };
	struct ggufw_model m;
	char *path;

	ggufw_model_init(&m, false, 32);
	ggufw_model_kv_str(&m, "general.architecture", "llama");
	ggufw_model_tensor(&m, "model.weight", 2, ne, GGUFW_GGML_F32, 1, 4);
	path = model_sparse(&m);
	ggufw_model_free(&m);
	return path;
}

/* mobile_2gb-like, but with the weights on the heap (SKaiNET's numbers
 * hold because its weight has no form and so is not mapped, §7.8). */
static void
plan_profiletest(struct test_lint *t, struct plan *pl, uint64_t memory,
    double auto_above)
{
	struct plan_request rq = { 0 };
	struct model_geom g;
	struct profile p;

	lint_path(t, weight600_file(), NULL, NULL);
	cr_assert_eq(t->res.file.tensors[0].nbytes, 629145600ull);
	geom_profiletest(&g);
	prof_hand(&p, memory, 700 * MiB, WEIGHTS_HEAP, KV_BF16,
	    KV_TURBOQUANT4, auto_above, true);
	rq.ctx = 8192;
	plan_make(&g, &t->res.file, &p, &rq, NULL, pl);
	cr_assert(pl->valid);
}

Test(plan, skainet_profile_ctx8192_2048MiB_switches_to_turboquant4,
    .init = plan_no_datadir)
{
	struct test_lint t;
	struct plan pl;

	plan_profiletest(&t, &pl, 2048 * MiB, 0.80);
	cr_assert_eq(pl.budget, 2048 * MiB - 700 * MiB);
	cr_assert(pl.kv_switched);
	cr_assert_eq(pl.kv_k, KV_TURBOQUANT4);
	cr_assert_eq(pl.kv_before, KV_BF16);
	cr_assert_not(pl.kv_explicit);
	/* 1258943488 / 1413480448 = 0.8907 */
	cr_assert(fabs(pl.share_before - 0.890) < 0.005, "share %f",
	    pl.share_before);
	cr_assert_eq(pl.kv_bytes, 79691776ull);
	cr_assert_eq(pl.kv_alt, KV_BF16);
	cr_assert_eq(pl.kv_alt_bytes, 268435456ull);
	cr_assert_eq(pl.kv_alt_bytes - pl.kv_bytes, 188743680ull, "saving");
	cr_assert_eq(pl.forward, 294253568ull);
	cr_assert_eq(pl.total, 1070199808ull);
	cr_assert(pl.fits);
	cr_assert_geq(pl.n_notes, 1);
	cr_assert(strstr(pl.notes[0], "turboquant4") != NULL, "%s",
	    pl.notes[0]);
	cr_assert(strstr(pl.notes[0], "180 MiB") != NULL, "%s", pl.notes[0]);
	plan_free(&pl);
	test_lint_free(&t);
}

Test(plan, skainet_profile_ctx8192_8192MiB_stays_bf16,
    .init = plan_no_datadir)
{
	struct test_lint t;
	struct plan pl;

	plan_profiletest(&t, &pl, 8192 * MiB, 0.80);
	cr_assert_not(pl.kv_switched);
	cr_assert_eq(pl.kv_k, KV_BF16);
	cr_assert_eq(pl.kv_bytes, 268435456ull);
	cr_assert_eq(pl.total, 1258943488ull);
	cr_assert(pl.fits);
	cr_assert_eq(pl.n_notes, 0);
	plan_free(&pl);
	test_lint_free(&t);
}

/* DESKTOP (auto 1.0) with 2048 MiB: 89 % is under 100 %: no switch. */
Test(plan, skainet_profile_ctx8192_desktop_keeps_bf16,
    .init = plan_no_datadir)
{
	struct test_lint t;
	struct plan pl;

	plan_profiletest(&t, &pl, 2048 * MiB, 1.0);
	cr_assert_not(pl.kv_switched);
	cr_assert_eq(pl.kv_k, KV_BF16);
	cr_assert_eq(pl.total, 1258943488ull);
	cr_assert_eq(pl.n_notes, 0);
	plan_free(&pl);
	test_lint_free(&t);
}

/* ---- §12.8: BitNet-2B --------------------------------------------------- */

Test(plan, skainet_bitnet2b_kv)
{
	struct model_geom g;

	geom_bitnet2b(&g);
	cr_assert_eq(kv_total(&g, KV_BF16, 2048, true), 157286400ull);
	cr_assert_eq(kv_total(&g, KV_TURBOQUANT4, 2048, true), 46694400ull);
	/* ctx 8192: 1823109120 and 1380741120 resident, less the weights
	 * 1193963520, are the two caches. */
	cr_assert_eq(kv_total(&g, KV_BF16, 8192, true),
	    1823109120ull - 1193963520ull);
	cr_assert_eq(kv_total(&g, KV_TURBOQUANT4, 8192, true),
	    1380741120ull - 1193963520ull);
}

/* ---- llama.cpp: context padding (memory-and-kv.md §3) ------------------- */

Test(plan, pad_ctx_to_256)
{
	cr_assert_eq(plan_pad_ctx(1000), 1024);
	cr_assert_eq(plan_pad_ctx(300), 512);
	cr_assert_eq(plan_pad_ctx(2048), 2048);
	cr_assert_eq(plan_pad_ctx(1), 256);
	cr_assert_eq(plan_pad_ctx(256), 256);
	cr_assert_eq(plan_pad_ctx(257), 512);
	cr_assert_eq(plan_pad_ctx(131072), 131072);
	/* Saturates instead of wrapping. */
	cr_assert_eq(plan_pad_ctx(UINT64_MAX - 3), UINT64_MAX);
}

/* The measured llama-gqa example of §4 from the C API. */
Test(plan, llama_gqa_measured_example)
{
	struct model_geom g;
	uint64_t k, v;

	geom_uniform(&g, 4, 256, 8, 2, 32, 768, 320);
	cr_assert_eq(plan_kv_bytes(&g, KV_F16, plan_pad_ctx(1000),
	    plan_pad_ctx(1000), true, &k, &v), 1048576);
	cr_assert_eq(k, 524288);
	cr_assert_eq(v, 524288);
	cr_assert_eq(kv_total(&g, KV_Q8_0, 1024, true), 557056);
	cr_assert_eq(kv_total(&g, KV_Q4_0, 1024, true), 294912);
	cr_assert_eq(kv_total(&g, KV_F32, 1024, false), 2097152);
	cr_assert_eq(kv_total(&g, KV_F16, 8192, true), 8388608);
}

/* ---- llama.cpp oracle: llama-gqa.tsv ------------------------------------- */

#define ORACLE_MAX_COLS 40

/* Split line (modified in place) at tabs; returns the field count. */
static size_t
split_tabs(char *line, char *f[], size_t max)
{
	size_t n = 0;
	char *p = line, *t;

	line[strcspn(line, "\r\n")] = '\0';
	while (n < max) {
		f[n++] = p;
		if ((t = strchr(p, '\t')) == NULL)
			break;
		*t = '\0';
		p = t + 1;
	}
	return n;
}

static int
col_index(char *hdr[], size_t n, const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strcmp(hdr[i], name) == 0)
			return (int)i;
	cr_assert_fail("llama-gqa.tsv has no column '%s'", name);
	return -1;
}

/* "on", "off", or either with +suffixes that do not change the KV cache
 * (+nommap, +norepack, +swafull on a model without SWA, +ubN). Rows with
 * +np (several sequences, split or unified streams) are left out. */
static bool
oracle_fa(const char *col, bool *fa)
{
	size_t n = strcspn(col, "+");

	if (strstr(col, "+np") != NULL)
		return false;
	if (n == 2 && strncmp(col, "on", 2) == 0)
		*fa = true;
	else if (n == 3 && strncmp(col, "off", 3) == 0)
		*fa = false;
	else
		return false;
	return true;
}

/* The llama-gqa.tsv columns the oracle test reads, by index. */
struct oracle_cols {
	size_t n;	/* fields in the header, and so in every row */
	int file, ctx, tk, tv, fa, ub, kv, k, v, cells;
};

/* oracle_columns: find the columns in the header line (not modified);
 * fails the test if one is missing. */
static void
oracle_columns(const char *line, struct oracle_cols *c)
{
	char *buf = xstrdup(line), *hdr[ORACLE_MAX_COLS];

	c->n = split_tabs(buf, hdr, ORACLE_MAX_COLS);
	c->file = col_index(hdr, c->n, "model_file");
	c->ctx = col_index(hdr, c->n, "ctx");
	c->tk = col_index(hdr, c->n, "type_k");
	c->tv = col_index(hdr, c->n, "type_v");
	c->fa = col_index(hdr, c->n, "flash_attn");
	c->ub = col_index(hdr, c->n, "n_ubatch");
	c->kv = col_index(hdr, c->n, "kv_bytes");
	c->k = col_index(hdr, c->n, "k_bytes");
	c->v = col_index(hdr, c->n, "v_bytes");
	c->cells = col_index(hdr, c->n, "kv_cells");
	free(buf);
}

/*
 * oracle_row: lint dir/<model_file> with the request of row f (line
 * lineno of tsv) and assert the plan's cells, K, V and KV bytes equal
 * the row's.  Returns false, comparing nothing, for a row the plan does
 * not model (K and V types differ, or flash_attn has +np).
 */
static bool
oracle_row(char *f[], const struct oracle_cols *c, const char *dir,
    const struct catalog *cat, const char *tsv, size_t lineno)
{
	struct lint_options lo = { 0 };
	struct lint_result res;
	struct gl_error err;
	struct profile p;
	const struct plan *pl;
	enum kv_type kv;
	char *gguf;
	bool fa;

	if (strcmp(f[c->tk], f[c->tv]) != 0 || !oracle_fa(f[c->fa], &fa))
		return false;
	cr_assert(kv_type_parse(f[c->tk], &kv) == 0, "%s:%zu: %s", tsv,
	    lineno, f[c->tk]);
	prof_hand(&p, 64 * GiB, 0, WEIGHTS_MAPPED, KV_F16, KV_Q8_0, 1.0, fa);
	p.ubatch = strtoull(f[c->ub], NULL, 10);
	lo.cat = cat;
	lo.profile = &p;
	lo.request.ctx = strtoull(f[c->ctx], NULL, 10);
	lo.request.kv_set = true;
	lo.request.kv = kv;
	gguf = xasprintf("%s/%s", dir, f[c->file]);
	cr_assert(lint_file(gguf, &lo, &res, &err) == 0, "%s", err.msg);
	pl = &res.plan;
	cr_assert(pl->valid, "%s:%zu: no plan", tsv, lineno);
	cr_assert_eq(pl->ctx_cells, strtoull(f[c->cells], NULL, 10),
	    "%s:%zu: cells %llu", tsv, lineno,
	    (unsigned long long)pl->ctx_cells);
	cr_assert_eq(pl->k_bytes, strtoull(f[c->k], NULL, 10),
	    "%s:%zu: K %llu", tsv, lineno, (unsigned long long)pl->k_bytes);
	cr_assert_eq(pl->v_bytes, strtoull(f[c->v], NULL, 10),
	    "%s:%zu: V %llu", tsv, lineno, (unsigned long long)pl->v_bytes);
	cr_assert_eq(pl->kv_bytes, strtoull(f[c->kv], NULL, 10),
	    "%s:%zu: KV %llu", tsv, lineno,
	    (unsigned long long)pl->kv_bytes);
	lint_result_free(&res);
	free(gguf);
	return true;
}

Test(plan, llama_cpp_oracle_llama_gqa, .init = plan_no_datadir)
{
	const char *shared = test_shared_dir();
	char *dir, *tsv, line[4096], *f[ORACLE_MAX_COLS];
	struct oracle_cols cols;
	size_t rows = 0, lineno = 1;
	struct catalog cat;
	struct gl_error err;
	FILE *fp;

	if (shared == NULL)
		cr_skip_test("../shared is absent: no llama.cpp oracle");
	dir = xasprintf("%s/corpus/llama.cpp-oracle", shared);
	tsv = xasprintf("%s/llama-gqa.tsv", dir);
	fp = fopen(tsv, "r");
	if (fp == NULL) {
		free(tsv);
		free(dir);
		cr_skip_test("no %s/corpus/llama.cpp-oracle/llama-gqa.tsv",
		    shared);
	}
	cr_assert(fgets(line, sizeof line, fp) != NULL, "%s is empty", tsv);
	oracle_columns(line, &cols);
	cr_assert(catalog_load_builtin(&cat, &err) == 0, "%s", err.msg);
	while (fgets(line, sizeof line, fp) != NULL) {
		size_t n;

		lineno++;
		n = split_tabs(line, f, ORACLE_MAX_COLS);
		if (n == 1 && f[0][0] == '\0')
			continue;
		cr_assert_eq(n, cols.n, "%s:%zu: %zu fields", tsv, lineno, n);
		if (oracle_row(f, &cols, dir, &cat, tsv, lineno))
			rows++;
	}
	fclose(fp);
	/* 32 rows at 82bb48500: 4 with q8_0 K and f16 V, 2 with -np 4,
	 * 26 compared. */
	cr_assert_geq(rows, 26, "only %zu oracle rows compared", rows);
	catalog_free(&cat);
	free(tsv);
	free(dir);
}

/* ---- llama.cpp: sliding-window attention (§5) --------------------------- */

/* gemma3-like: 26 layers, 4 heads, 1 KV head of 256, window 4096,
 * pattern 6 (layers 5, 11, 17, 23 full; 22 SWA layers). */
static void
geom_gemma3(struct model_geom *g)
{
	uint32_t il;

	geom_uniform(g, 26, 1152, 4, 1, 256, 6912, 262144);
	strcpy(g->arch, "gemma3");
	g->swa = true;
	g->n_swa = 4096;
	for (il = 0; il < g->n_layer; il++)
		g->is_swa[il] = il % 6 < 5;
}

Test(plan, swa_cells)
{
	struct model_geom g;

	geom_gemma3(&g);
	/* PAD(min(32768, 4096 + 512), 256) */
	cr_assert_eq(plan_swa_cells(&g, 32768, 512), 4608);
	cr_assert_eq(plan_swa_cells(&g, 32768, 128), 4352);
	/* A context below the window: the whole (padded) context. */
	cr_assert_eq(plan_swa_cells(&g, 1000, 512), 1024);
	/* n_ubatch is clamped to the requested context (and to 2048). */
	cr_assert_eq(plan_swa_cells(&g, 32768, 4096), 6144);
	/* size_base PAD(4200) = 4352 is below 4096 + 512 */
	cr_assert_eq(plan_swa_cells(&g, 4200, 512), 4352);
}

Test(plan, swa_kv_bytes)
{
	struct model_geom g;
	uint64_t k, v, row = 256 * 1 * 2;	/* f16, 1 KV head of 256 */
	uint32_t il, n_full = 0;

	geom_gemma3(&g);
	for (il = 0; il < g.n_layer; il++)
		n_full += !g.is_swa[il];
	cr_assert_eq(n_full, 4);
	/* 4 * 32768 * 512 + 22 * 4608 * 512, for K and again for V */
	cr_assert_eq(plan_kv_bytes(&g, KV_F16, 32768, 4608, true, &k, &v),
	    238026752ull);
	cr_assert_eq(k, 4 * 32768 * row + 22 * 4608 * row);
	cr_assert_eq(k, 119013376ull);
	cr_assert_eq(v, k);
	cr_assert_eq(plan_kv_bytes(&g, KV_F16, 32768, 4352, true, &k, &v),
	    2 * (4 * 32768 * row + 22 * 4352 * row));
	/* Equal widths: flash attention off changes the layout only. */
	cr_assert_eq(plan_kv_bytes(&g, KV_F16, 32768, 4608, false, &k, &v),
	    238026752ull);

	/*
	 * SWA layers of a narrower width (128): with flash attention on each
	 * cache has its own widths; off, every V row is as wide as the widest
	 * (256) across both caches (v_trans).
	 */
	g.head_k_swa = g.head_v_swa = 128;
	plan_kv_bytes(&g, KV_F16, 32768, 4608, true, &k, &v);
	cr_assert_eq(k, 4 * 32768 * 512ull + 22 * 4608 * 256ull);
	cr_assert_eq(v, k);
	plan_kv_bytes(&g, KV_F16, 32768, 4608, false, &k, &v);
	cr_assert_eq(k, 4 * 32768 * 512ull + 22 * 4608 * 256ull);
	cr_assert_eq(v, 4 * 32768 * 512ull + 22 * 4608 * 512ull);
}

/* ---- llama.cpp: MLA (§6) ------------------------------------------------ */

static void
geom_deepseek2(struct model_geom *g, uint32_t n_layer)
{
	geom_uniform(g, n_layer, 2048, 16, 1, 0, 10944, 102400);
	strcpy(g->arch, "deepseek2");
	g->mla = true;
	g->kv_lora_rank = 512;
	g->head_k = g->head_k_swa = 512 + 64;
	g->head_v = g->head_v_swa = 512;
}

Test(plan, mla_k_only)
{
	struct model_geom g;
	uint64_t k, v;

	geom_deepseek2(&g, 1);
	cr_assert_eq(plan_kv_bytes(&g, KV_F16, 256, 256, true, &k, &v),
	    1152ull * 256);
	cr_assert_eq(k, 1152ull * 256, "1152 bytes per token per layer");
	cr_assert_eq(v, 0, "MLA allocates no V");
	cr_assert_eq(plan_kv_bytes(&g, KV_F16, 256, 256, false, &k, &v),
	    1152ull * 256);
	cr_assert_eq(v, 0);
	geom_deepseek2(&g, 27);
	cr_assert_eq(plan_kv_bytes(&g, KV_F16, 4096, 4096, true, &k, &v),
	    27ull * 4096 * 1152);
	cr_assert_eq(v, 0);
	/* q8_0: 576 / 32 blocks of 34 bytes = 612 per token per layer */
	cr_assert_eq(kv_total(&g, KV_Q8_0, 4096, true), 27ull * 4096 * 612);
	cr_assert_eq(kv_total(&g, KV_F32, 256, true), 27ull * 256 * 2304);
}

/* ---- llama.cpp: per-layer head_count_kv (§4) ---------------------------- */

Test(plan, per_layer_kv_heads)
{
	static const uint32_t hkv[] = { 1, 2, 4, 8 };
	struct model_geom g;
	uint64_t k, v;
	uint32_t il;

	geom_uniform(&g, 4, 512, 8, 8, 64, 2048, 1000);
	for (il = 0; il < 4; il++)
		g.n_head_kv[il] = hkv[il];
	/* f16 rows of 64, 128, 256, 512 elements at 512 cells */
	plan_kv_bytes(&g, KV_F16, 512, 512, true, &k, &v);
	cr_assert_eq(k, (128 + 256 + 512 + 1024) * 512ull);
	cr_assert_eq(k, 983040);
	cr_assert_eq(v, k);
	/* flash attention off: V as wide as the widest layer (8 x 64) */
	plan_kv_bytes(&g, KV_F16, 512, 512, false, &k, &v);
	cr_assert_eq(k, 983040);
	cr_assert_eq(v, 4 * 1024 * 512ull);
	cr_assert_eq(v, 2097152);
	/* A layer without KV heads holds no KV (LFM2-like). */
	g.n_head_kv[0] = 0;
	plan_kv_bytes(&g, KV_F16, 512, 512, true, &k, &v);
	cr_assert_eq(k, (256 + 512 + 1024) * 512ull);
}

/* ---- llama.cpp: recurrent state (§7) ------------------------------------ */

Test(plan, recurrent_mamba_state)
{
	struct model_geom g;
	uint64_t k = 1, v = 1;

	memset(&g, 0, sizeof g);
	strcpy(g.arch, "mamba");
	g.memory = ARCH_MEM_RECURRENT;
	g.plannable = true;
	g.n_layer = 24;
	g.n_embd = 768;
	g.ssm_d_conv = 4;
	g.ssm_d_inner = 1536;
	g.ssm_d_state = 16;
	g.ssm_n_group = 0;
	cr_assert_eq(plan_state_bytes(&g),
	    24ull * 4 * ((4 - 1) * 1536 + 16 * 1536));
	cr_assert_eq(plan_state_bytes(&g), 2801664);
	cr_assert_eq(plan_kv_bytes(&g, KV_F16, 4096, 4096, true, &k, &v), 0);
	cr_assert_eq(k, 0);
	cr_assert_eq(v, 0);
	/* mamba2 with groups: r = 3 * (1536 + 2 * 1 * 16) */
	g.ssm_n_group = 1;
	cr_assert_eq(plan_state_bytes(&g), 24ull * 4 * (3 * 1568 + 16 * 1536));
	/* an attention model has no recurrent state */
	geom_llama1b(&g);
	cr_assert_eq(plan_state_bytes(&g), 0);
}

/* ---- the real pipeline: arch_read and the P family ----------------------- */

static struct profile *
big_profile(struct profile *p, bool fa)
{
	prof_hand(p, 64 * GiB, 0, WEIGHTS_HEAP, KV_F16, KV_Q8_0, 1.0, fa);
	return p;
}

Test(plan, file_per_layer_head_count_kv_u32_array, .init = plan_no_datadir)
{
	static const uint32_t hkv[] = { 1, 2, 4, 8 };
	struct plan_request rq = { 0 };
	struct ggufw_model m;
	struct test_lint t;
	struct profile p;
	uint32_t il;

	ggufw_model_init(&m, false, 32);
	add_attn_keys(&m, "llama", 4, 512, 8, 4096, 32);
	ggufw_model_kv_arr_u32(&m, "llama.attention.head_count_kv", hkv, 4);
	add_small_tensor(&m);
	rq.ctx = 1000;
	rq.kv_set = true;
	rq.kv = KV_F16;
	lint_model(&t, &m, big_profile(&p, true), &rq);
	cr_assert_not_null(t.res.geom);
	cr_assert_eq(test_count(&t, "M002") + test_count(&t, "M003"), 0, "%s",
	    test_codes(&t));
	for (il = 0; il < 4; il++)
		cr_assert_eq(t.res.geom->n_head_kv[il], hkv[il], "layer %u",
		    il);
	cr_assert_eq(t.res.geom->head_k, 64);
	cr_assert_eq(t.res.plan.ctx_cells, 1024);
	cr_assert_eq(t.res.plan.k_bytes, (128 + 256 + 512 + 1024) * 1024ull);
	cr_assert_eq(t.res.plan.v_bytes, t.res.plan.k_bytes);
	test_lint_free(&t);
	ggufw_model_free(&m);
}

Test(plan, file_uint64_key_is_read_and_M002, .init = plan_no_datadir)
{
	struct ggufw_model m;
	struct test_lint t;
	struct profile p;
	const struct diag *d;

	ggufw_model_init(&m, false, 32);
	ggufw_model_kv_str(&m, "general.architecture", "llama");
	ggufw_model_kv_u32(&m, "llama.block_count", 4);
	ggufw_model_kv_u64(&m, "llama.embedding_length", 512);
	ggufw_model_kv_u32(&m, "llama.attention.head_count", 8);
	ggufw_model_kv_u32(&m, "llama.context_length", 4096);
	ggufw_model_kv_u32(&m, "llama.vocab_size", 32);
	add_small_tensor(&m);
	lint_model(&t, &m, big_profile(&p, true), NULL);
	cr_assert_eq(test_count(&t, "M002"), 1, "%s", test_codes(&t));
	d = test_find(&t, "M002");
	cr_assert_eq(d->kind, SUBJECT_KEY);
	cr_assert(d->subject_len == strlen("llama.embedding_length") &&
	    memcmp(d->subject, "llama.embedding_length", d->subject_len) == 0);
	cr_assert_eq(t.res.geom->n_embd, 512, "the value is still read");
	cr_assert_eq(t.res.geom->head_k, 64);
	cr_assert(t.res.geom->plannable);
	test_lint_free(&t);
	ggufw_model_free(&m);
}

Test(plan, file_int32_array_of_wrong_length_M003, .init = plan_no_datadir)
{
	static const int32_t hkv[] = { 2, 2, 2 };
	struct ggufw_model m;
	struct test_lint t;
	struct profile p;

	ggufw_model_init(&m, false, 32);
	add_attn_keys(&m, "llama", 4, 512, 8, 4096, 32);
	ggufw_model_kv_arr_i32(&m, "llama.attention.head_count_kv", hkv, 3);
	add_small_tensor(&m);
	lint_model(&t, &m, big_profile(&p, true), NULL);
	cr_assert_eq(test_count(&t, "M003"), 1, "%s", test_codes(&t));
	cr_assert(strstr(diag_msg(&t, "M003"), "3 entries") != NULL, "%s",
	    diag_msg(&t, "M003"));
	test_lint_free(&t);
	ggufw_model_free(&m);
}

Test(plan, file_int32_array_per_layer_is_read, .init = plan_no_datadir)
{
	static const int32_t hkv[] = { 2, 4, 2, 4 };
	struct ggufw_model m;
	struct test_lint t;
	struct profile p;

	ggufw_model_init(&m, false, 32);
	add_attn_keys(&m, "llama", 4, 512, 8, 4096, 32);
	ggufw_model_kv_arr_i32(&m, "llama.attention.head_count_kv", hkv, 4);
	add_small_tensor(&m);
	lint_model(&t, &m, big_profile(&p, true), NULL);
	cr_assert_eq(test_count(&t, "M002") + test_count(&t, "M003"), 0, "%s",
	    test_codes(&t));
	cr_assert_eq(t.res.geom->n_head_kv[1], 4);
	cr_assert_eq(t.res.geom->n_head_kv[2], 2);
	test_lint_free(&t);
	ggufw_model_free(&m);
}

Test(plan, file_block_count_513_M004, .init = plan_no_datadir)
{
	struct ggufw_model m;
	struct test_lint t;
	struct profile p;

	ggufw_model_init(&m, false, 32);
	add_attn_keys(&m, "llama", 513, 512, 8, 4096, 32);
	add_small_tensor(&m);
	lint_model(&t, &m, big_profile(&p, true), NULL);
	cr_assert_eq(test_count(&t, "M004"), 1, "%s", test_codes(&t));
	cr_assert(strstr(diag_msg(&t, "M004"), "513") != NULL);
	cr_assert_not(t.res.geom->plannable);
	cr_assert(strstr(diag_msg(&t, "P005"), "llama.block_count") != NULL,
	    "%s", diag_msg(&t, "P005"));
	test_lint_free(&t);
	ggufw_model_free(&m);
}

Test(plan, file_block_count_512_is_accepted, .init = plan_no_datadir)
{
	struct ggufw_model m;
	struct test_lint t;
	struct profile p;

	ggufw_model_init(&m, false, 32);
	add_attn_keys(&m, "llama", 512, 512, 8, 4096, 32);
	add_small_tensor(&m);
	lint_model(&t, &m, big_profile(&p, true), NULL);
	cr_assert_eq(test_count(&t, "M004"), 0, "%s", test_codes(&t));
	cr_assert_eq(t.res.geom->n_layer, 512);
	cr_assert(t.res.geom->plannable);
	test_lint_free(&t);
	ggufw_model_free(&m);
}

/* nanbeige's num_loops (ARCH_LOOPS): each pass's layers are layers of
 * their own, caches and all; no pass, or past 512 layers, llama.cpp
 * aborts (M004). */
static void
loops_case(struct test_lint *t, struct ggufw_model *m, struct profile *p,
    uint32_t loops)
{
	ggufw_model_init(m, false, 32);
	add_attn_keys(m, "nanbeige", 4, 512, 8, 4096, 32);
	ggufw_model_kv_u32(m, "nanbeige.num_loops", loops);
	add_small_tensor(m);
	lint_model(t, m, big_profile(p, true), NULL);
}

Test(plan, file_num_loops_are_layers, .init = plan_no_datadir)
{
	static const uint32_t loops[] = { 1, 3, 128, 0, 129 };
	struct ggufw_model m;
	struct test_lint t;
	struct profile p;
	size_t i;

	for (i = 0; i < sizeof loops / sizeof loops[0]; i++) {
		bool bad = loops[i] == 0 || loops[i] > 128;

		loops_case(&t, &m, &p, loops[i]);
		cr_expect_eq(test_count(&t, "M004"), bad ? 1 : 0,
		    "num_loops %u: %s", loops[i], test_codes(&t));
		cr_expect_eq(t.res.geom->n_layer, bad ? 4 : 4 * loops[i],
		    "num_loops %u", loops[i]);
		cr_expect_eq(arch_blocks(t.res.geom), 4);
		test_lint_free(&t);
		ggufw_model_free(&m);
	}
}

/* hy_v4's indexer (ARCH_DSA_TOPK): only with attention.indexer.top_k,
 * in the layers indexer.types marks, the first one at least (else M004,
 * as llama.cpp refuses it). */
static void
hy_v4_case(struct test_lint *t, struct ggufw_model *m, struct profile *p,
    uint32_t top_k, const uint32_t types[4])
{
	ggufw_model_init(m, false, 32);
	add_attn_keys(m, "hy_v4", 4, 512, 8, 4096, 32);
	ggufw_model_kv_u32(m, "hy_v4.attention.head_count_kv", 1);
	ggufw_model_kv_u32(m, "hy_v4.attention.kv_lora_rank", 128);
	ggufw_model_kv_u32(m, "hy_v4.attention.key_length", 160);
	ggufw_model_kv_u32(m, "hy_v4.attention.value_length", 128);
	ggufw_model_kv_u32(m, "hy_v4.attention.key_length_mla", 96);
	ggufw_model_kv_u32(m, "hy_v4.attention.value_length_mla", 64);
	ggufw_model_kv_u32(m, "hy_v4.rope.dimension_count", 32);
	ggufw_model_kv_u32(m, "hy_v4.attention.indexer.key_length", 64);
	ggufw_model_kv_u32(m, "hy_v4.attention.indexer.top_k", top_k);
	ggufw_model_kv_arr_u32(m, "hy_v4.attention.indexer.types", types, 4);
	add_small_tensor(m);
	lint_model(t, m, big_profile(p, true), NULL);
}

Test(plan, file_hy_v4_indexer_layers, .init = plan_no_datadir)
{
	static const uint32_t good[4] = { 1, 0, 1, 0 };
	static const uint32_t bad[4] = { 0, 1, 1, 1 };
	struct ggufw_model m;
	struct test_lint t;
	struct profile p;

	hy_v4_case(&t, &m, &p, 256, good);
	cr_expect_eq(test_count(&t, "M004"), 0, "%s", test_codes(&t));
	cr_expect(t.res.geom->mla && t.res.geom->indexer_k == 64);
	cr_expect(t.res.geom->indexer[0] && !t.res.geom->indexer[1] &&
	    t.res.geom->indexer[2] && !t.res.geom->indexer[3]);
	test_lint_free(&t);
	ggufw_model_free(&m);
	hy_v4_case(&t, &m, &p, 0, good); /* no indexer, no cache of it */
	cr_expect_eq(test_count(&t, "M004"), 0, "%s", test_codes(&t));
	cr_expect(t.res.geom->indexer_k == 0 && !t.res.geom->indexer[0]);
	test_lint_free(&t);
	ggufw_model_free(&m);
	hy_v4_case(&t, &m, &p, 256, bad);
	cr_expect_eq(test_count(&t, "M004"), 1, "%s", test_codes(&t));
	cr_expect(strstr(diag_msg(&t, "M004"), "first layer") != NULL);
	test_lint_free(&t);
	ggufw_model_free(&m);
}

Test(plan, file_unknown_architecture_P005, .init = plan_no_datadir)
{
	struct ggufw_model m;
	struct test_lint t;
	struct profile p;

	ggufw_model_init(&m, false, 32);
	add_attn_keys(&m, "frobnitz", 4, 512, 8, 4096, 32);
	add_small_tensor(&m);
	lint_model(&t, &m, big_profile(&p, true), NULL);
	cr_assert_eq(test_count(&t, "P005"), 1, "%s", test_codes(&t));
	cr_assert(strstr(diag_msg(&t, "P005"), "'frobnitz'") != NULL, "%s",
	    diag_msg(&t, "P005"));
	cr_assert_eq(test_find(&t, "P005")->severity, SEV_WARNING);
	/* Planned as standard attention meanwhile: 4 layers of 8 x 64. */
	cr_assert(t.res.plan.valid);
	cr_assert_gt(t.res.plan.kv_bytes, 0);
	test_lint_free(&t);
	ggufw_model_free(&m);
}

Test(plan, file_known_architecture_complete_no_P005, .init = plan_no_datadir)
{
	struct ggufw_model m;
	struct test_lint t;
	struct profile p;

	ggufw_model_init(&m, false, 32);
	add_attn_keys(&m, "llama", 4, 512, 8, 4096, 32);
	add_small_tensor(&m);
	lint_model(&t, &m, big_profile(&p, true), NULL);
	cr_assert_eq(test_count(&t, "P005"), 0, "%s", test_codes(&t));
	/* (the M and N families see a geometry, not a whole llama) */
	cr_assert_eq(test_errors(&t), test_count(&t, "M001") +
	    test_count(&t, "N002") + test_count(&t, "N003"), "%s",
	    test_codes(&t));
	/* ctx: the trained 4096 (the profile has none) */
	cr_assert_eq(t.res.plan.ctx, 4096);
	cr_assert_eq(t.res.plan.kv_bytes, 4 * 4096 * 512 * 2 * 2ull);
	test_lint_free(&t);
	ggufw_model_free(&m);
}

Test(plan, file_without_block_count_P005, .init = plan_no_datadir)
{
	struct ggufw_model m;
	struct test_lint t;
	struct profile p;

	ggufw_model_init(&m, false, 32);
	ggufw_model_kv_str(&m, "general.architecture", "llama");
	ggufw_model_kv_u32(&m, "llama.embedding_length", 512);
	ggufw_model_kv_u32(&m, "llama.attention.head_count", 8);
	ggufw_model_kv_u32(&m, "llama.context_length", 4096);
	add_small_tensor(&m);
	lint_model(&t, &m, big_profile(&p, true), NULL);
	cr_assert_eq(test_count(&t, "P005"), 1, "%s", test_codes(&t));
	cr_assert(strstr(diag_msg(&t, "P005"), "llama.block_count") != NULL,
	    "%s", diag_msg(&t, "P005"));
	cr_assert_not(t.res.geom->plannable);
	/* The weights are still planned; the KV cache is unknown. */
	cr_assert(t.res.plan.valid);
	cr_assert_eq(t.res.plan.weights, 64 * 32 * 4);
	cr_assert_eq(t.res.plan.kv_bytes, 0);
	test_lint_free(&t);
	ggufw_model_free(&m);
}

Test(plan, file_vocab_only_P009_no_plan, .init = plan_no_datadir)
{
	static const char *const tokens[] = { "<s>", "</s>", "a", "b" };
	struct ggufw_model m;
	struct test_lint t;
	struct profile p;

	ggufw_model_init(&m, false, 32);
	add_attn_keys(&m, "llama", 4, 512, 8, 4096, 4);
	ggufw_model_kv_arr_str(&m, "tokenizer.ggml.tokens", tokens, 4);
	lint_model(&t, &m, big_profile(&p, true), NULL);
	cr_assert_eq(test_count(&t, "P009"), 1, "%s", test_codes(&t));
	cr_assert_eq(test_find(&t, "P009")->severity, SEV_INFO);
	cr_assert_not(t.res.plan.valid);
	cr_assert_eq(test_count(&t, "P001") + test_count(&t, "P002") +
	    test_count(&t, "P003") + test_count(&t, "P005"), 0, "%s",
	    test_codes(&t));
	test_lint_free(&t);
	ggufw_model_free(&m);
}

Test(plan, file_ctx_beyond_trained_P004, .init = plan_no_datadir)
{
	struct plan_request rq = { 0 };
	struct ggufw_model m;
	struct test_lint t;
	struct profile p;

	ggufw_model_init(&m, false, 32);
	add_attn_keys(&m, "llama", 4, 512, 8, 2048, 32);
	add_small_tensor(&m);
	rq.ctx = 2049;
	lint_model(&t, &m, big_profile(&p, true), &rq);
	cr_assert_eq(test_count(&t, "P004"), 1, "%s", test_codes(&t));
	cr_assert_eq(test_find(&t, "P004")->severity, SEV_WARNING);
	cr_assert(strstr(diag_msg(&t, "P004"), "2049") != NULL);
	cr_assert_eq(t.res.plan.ctx, 2049);
	cr_assert_eq(t.res.plan.ctx_cells, 2304);
	test_lint_free(&t);
	rq.ctx = 2048;
	lint_model(&t, &m, big_profile(&p, true), &rq);
	cr_assert_eq(test_count(&t, "P004"), 0, "%s", test_codes(&t));
	test_lint_free(&t);
	ggufw_model_free(&m);
}

Test(plan, file_head_width_48_with_q8_0_P008, .init = plan_no_datadir)
{
	struct plan_request rq = { 0 };
	struct ggufw_model m;
	struct test_lint t;
	struct profile p;

	ggufw_model_init(&m, false, 32);
	/* 384 / 8 heads = 48: not a multiple of q8_0's 32 */
	add_attn_keys(&m, "llama", 4, 384, 8, 4096, 32);
	add_small_tensor(&m);
	rq.kv_set = true;
	rq.kv = KV_Q8_0;
	lint_model(&t, &m, big_profile(&p, true), &rq);
	cr_assert_eq(t.res.geom->head_k, 48);
	cr_assert_eq(test_count(&t, "P008"), 1, "%s", test_codes(&t));
	cr_assert_eq(test_find(&t, "P008")->severity, SEV_ERROR);
	cr_assert(strstr(diag_msg(&t, "P008"), "48") != NULL);
	cr_assert_eq(t.res.plan.kv_bad_width, 48);
	test_lint_free(&t);
	/* f16 and turboquant4 have no such constraint */
	rq.kv = KV_F16;
	lint_model(&t, &m, big_profile(&p, true), &rq);
	cr_assert_eq(test_count(&t, "P008"), 0, "%s", test_codes(&t));
	test_lint_free(&t);
	rq.kv = KV_TURBOQUANT4;
	lint_model(&t, &m, big_profile(&p, true), &rq);
	cr_assert_eq(test_count(&t, "P008"), 0, "%s", test_codes(&t));
	test_lint_free(&t);
	ggufw_model_free(&m);
}

/* gemma3 through arch_read: window and pattern 6 from the keys. */
Test(plan, file_gemma3_sliding_window, .init = plan_no_datadir)
{
	struct plan_request rq = { 0 };
	struct ggufw_model m;
	struct test_lint t;
	struct profile p;
	uint32_t il;

	ggufw_model_init(&m, false, 32);
	add_attn_keys(&m, "gemma3", 26, 1152, 4, 32768, 32);
	ggufw_model_kv_u32(&m, "gemma3.attention.head_count_kv", 1);
	ggufw_model_kv_u32(&m, "gemma3.attention.key_length", 256);
	ggufw_model_kv_u32(&m, "gemma3.attention.value_length", 256);
	ggufw_model_kv_u32(&m, "gemma3.attention.sliding_window", 4096);
	add_small_tensor(&m);
	rq.ctx = 32768;
	rq.kv_set = true;
	rq.kv = KV_F16;
	lint_model(&t, &m, big_profile(&p, true), &rq);
	cr_assert(t.res.geom->swa);
	cr_assert_eq(t.res.geom->n_swa, 4096);
	for (il = 0; il < 26; il++)
		cr_assert_eq(t.res.geom->is_swa[il], il % 6 != 5, "layer %u",
		    il);
	cr_assert_eq(t.res.plan.swa_cells, 4608);
	cr_assert_eq(t.res.plan.kv_bytes, 238026752ull);
	test_lint_free(&t);
	ggufw_model_free(&m);
}

/*
 * phi3 reads attention.sliding_window, then llama.cpp disables SWA
 * (memory-and-kv.md §5: "sliding_window is read, then SWA is disabled"):
 * every layer holds the whole context. read_swa() once treated phi3 like
 * gemma3 (window from the key, pattern 6), giving 27 of 32 layers a
 * 2560-cell cache instead of 4096.
 */
Test(plan, file_phi3_sliding_window_is_disabled, .init = plan_no_datadir)
{
	struct plan_request rq = { 0 };
	struct ggufw_model m;
	struct test_lint t;
	struct profile p;

	ggufw_model_init(&m, false, 32);
	add_attn_keys(&m, "phi3", 32, 3072, 32, 4096, 32);
	ggufw_model_kv_u32(&m, "phi3.attention.head_count_kv", 32);
	ggufw_model_kv_u32(&m, "phi3.attention.sliding_window", 2047);
	add_small_tensor(&m);
	rq.ctx = 4096;
	rq.kv_set = true;
	rq.kv = KV_F16;
	lint_model(&t, &m, big_profile(&p, true), &rq);
	cr_assert(t.res.plan.valid);
	/* 32 layers x 4096 cells x 3072 x 2 B, K and V */
	cr_assert_eq(t.res.plan.kv_bytes, 32ull * 4096 * 3072 * 2 * 2,
	    "kv %llu (swa %d, window %u, %llu SWA cells)",
	    (unsigned long long)t.res.plan.kv_bytes, t.res.geom->swa,
	    t.res.geom->n_swa, (unsigned long long)t.res.plan.swa_cells);
	cr_assert_not(t.res.geom->swa, "phi3 planned with SWA (window %u)",
	    t.res.geom->n_swa);
	test_lint_free(&t);
	ggufw_model_free(&m);
}

/*
 * llama.cpp checks every layer's head width against a quantized cache's
 * block (memory-and-kv.md §8: "every layer's n_embd_head_k(il)"), so a
 * sliding-window width of 48 (key_length_swa) with q8_0 is refused even
 * when the full-attention width (256) divides. plan_make() once checked
 * only head_k and head_v, and missed this P008.
 */
Test(plan, file_swa_head_width_48_with_q8_0_P008, .init = plan_no_datadir)
{
	struct plan_request rq = { 0 };
	struct ggufw_model m;
	struct test_lint t;
	struct profile p;

	ggufw_model_init(&m, false, 32);
	add_attn_keys(&m, "gemma3", 26, 1152, 4, 32768, 32);
	ggufw_model_kv_u32(&m, "gemma3.attention.head_count_kv", 1);
	ggufw_model_kv_u32(&m, "gemma3.attention.key_length", 256);
	ggufw_model_kv_u32(&m, "gemma3.attention.value_length", 256);
	ggufw_model_kv_u32(&m, "gemma3.attention.key_length_swa", 48);
	ggufw_model_kv_u32(&m, "gemma3.attention.value_length_swa", 48);
	ggufw_model_kv_u32(&m, "gemma3.attention.sliding_window", 512);
	add_small_tensor(&m);
	rq.ctx = 4096;
	rq.kv_set = true;
	rq.kv = KV_Q8_0;
	lint_model(&t, &m, big_profile(&p, true), &rq);
	cr_assert(t.res.geom->swa);
	cr_assert_eq(t.res.geom->head_k_swa, 48);
	cr_assert_eq(test_count(&t, "P008"), 1, "%s", test_codes(&t));
	cr_assert_eq(t.res.plan.kv_bad_width, 48);
	test_lint_free(&t);
	ggufw_model_free(&m);
}

/*
 * Auto-quantization must not switch to a cache type llama.cpp refuses for
 * this model, as it already refuses one that needs flash attention: a
 * head width of 48 cannot use q8_0. The model fits at f16 (the plan is
 * about 61 % of the budget, over the profile's 50 %); switching to q8_0
 * turns a clean file into a P008 error. plan.c once switched and then
 * reported P008 against its own choice.
 */
Test(plan, auto_quantize_respects_the_block_size, .init = plan_no_datadir)
{
	struct plan_request rq = { 0 };
	struct ggufw_model m;
	struct test_lint t;
	struct profile p;

	ggufw_model_init(&m, false, 32);
	add_attn_keys(&m, "llama", 4, 384, 8, 4096, 32);
	add_small_tensor(&m);
	/* kv f16 4 x 4096 x 384 x 2 x 2 = 24 MiB, forward 2.5 MiB,
	 * headroom 64 MiB: about 90.6 MiB of a 148 MiB budget */
	prof_hand(&p, 148 * MiB, 0, WEIGHTS_HEAP, KV_F16, KV_Q8_0, 0.5, true);
	lint_model(&t, &m, &p, &rq);
	cr_assert_eq(t.res.plan.ctx, 4096);
	cr_assert(t.res.plan.fits);
	cr_assert_eq(test_count(&t, "P008"), 0, "%s (kv %s)", test_codes(&t),
	    kv_type_info(t.res.plan.kv_k)->name);
	cr_assert_eq(t.res.plan.kv_k, KV_F16);
	cr_assert_not(t.res.plan.kv_switched);
	test_lint_free(&t);
	ggufw_model_free(&m);
}

/*
 * Nor should a suggestion name a cache type llama.cpp refuses for the
 * model: with a head width of 48 neither q8_0 nor q4_0 can be used, and
 * the KV suggestion, if any, must be one that works (turboquant4 here).
 * plan.c once suggested --kv q4_0.
 */
Test(plan, kv_suggestion_respects_the_block_size, .init = plan_no_datadir)
{
	struct plan_request rq = { 0 };
	struct ggufw_model m;
	struct test_lint t;
	struct profile p;
	size_t i;

	ggufw_model_init(&m, false, 32);
	add_attn_keys(&m, "llama", 4, 384, 8, 4096, 32);
	add_small_tensor(&m);
	prof_hand(&p, 80 * MiB, 0, WEIGHTS_HEAP, KV_F16, KV_TURBOQUANT4, 1e6,
	    true);
	lint_model(&t, &m, &p, &rq);
	cr_assert_not(t.res.plan.fits);
	cr_assert_geq(t.res.plan.n_sugg, 1);
	for (i = 0; i < t.res.plan.n_sugg; i++) {
		const char *a = t.res.plan.sugg[i].args;

		cr_assert(a == NULL || (strcmp(a, "--kv q4_0") != 0 &&
		    strcmp(a, "--kv q8_0") != 0), "%s",
		    sugg_list(&t.res.plan));
	}
	test_lint_free(&t);
	ggufw_model_free(&m);
}

/* mamba through arch_read: the state, no KV. */
Test(plan, file_mamba_state, .init = plan_no_datadir)
{
	struct ggufw_model m;
	struct test_lint t;
	struct profile p;

	ggufw_model_init(&m, false, 32);
	ggufw_model_kv_str(&m, "general.architecture", "mamba");
	ggufw_model_kv_u32(&m, "mamba.block_count", 24);
	ggufw_model_kv_u32(&m, "mamba.embedding_length", 768);
	ggufw_model_kv_u32(&m, "mamba.context_length", 2048);
	ggufw_model_kv_u32(&m, "mamba.vocab_size", 32);
	ggufw_model_kv_u32(&m, "mamba.ssm.conv_kernel", 4);
	ggufw_model_kv_u32(&m, "mamba.ssm.inner_size", 1536);
	ggufw_model_kv_u32(&m, "mamba.ssm.state_size", 16);
	ggufw_model_kv_u32(&m, "mamba.ssm.time_step_rank", 48);
	add_small_tensor(&m);
	lint_model(&t, &m, big_profile(&p, true), NULL);
	cr_assert_eq(t.res.geom->memory, ARCH_MEM_RECURRENT);
	cr_assert_eq(t.res.plan.state_bytes, 2801664);
	cr_assert_eq(t.res.plan.kv_bytes, 0);
	cr_assert_eq(test_count(&t, "P005"), 0, "%s", test_codes(&t));
	test_lint_free(&t);
	ggufw_model_free(&m);
}

/* ---- the program end to end ---------------------------------------------- */

static void
run_bin(struct test_run *r, const char *const argv[])
{
	test_run_bin(r, argv, NULL, 0);
}

static struct jsonnode *
parse_json(const struct test_run *r)
{
	struct jsonnode *root;
	char *err = NULL;

	root = jsontree_parse(r->out, r->out_len, &err);
	cr_assert_not_null(root, "bad JSON (%s): %s", err ? err : "?",
	    r->out);
	return root;
}

static bool
json_has_code(const struct jsonnode *root, const char *code)
{
	const struct jsonnode *ds = jsontree_pointer(root,
	    "/files/0/diagnostics"), *c;
	size_t i;

	for (i = 0; (c = jsontree_at(ds, i)) != NULL; i++) {
		const char *s = jsontree_str(jsontree_get(c, "code"));

		if (s != NULL && strcmp(s, code) == 0)
			return true;
	}
	return false;
}

static int64_t
json_int(const struct jsonnode *root, const char *ptr)
{
	int64_t v;

	cr_assert(jsontree_int64(jsontree_pointer(root, ptr), &v),
	    "%s is not an integer", ptr);
	return v;
}

static bool
json_bool(const struct jsonnode *root, const char *ptr)
{
	const struct jsonnode *n = jsontree_pointer(root, ptr);

	cr_assert(n != NULL && n->type == JSONTREE_BOOL, "%s: no boolean",
	    ptr);
	return n->boolean;
}

/* A quantized V cache with flash attention off, from a profile file. */
Test(plan, e2e_quantized_kv_without_flash_P006, .init = plan_no_datadir)
{
	static const char yaml[] =
	    "name: noflash\n"
	    "description: a test device without flash attention\n"
	    "memory: 16 GiB\n"
	    "reserve: 700 MiB\n"
	    "weights: heap\n"
	    "kv_cache: f16\n"
	    "kv_quantized: q8_0\n"
	    "flash_attention: false\n";
	struct ggufw_model m;
	struct test_run r;
	struct jsonnode *root;
	char *prof = test_tmpfile(yaml, sizeof yaml - 1), *model;

	ggufw_model_init(&m, false, 32);
	add_attn_keys(&m, "llama", 4, 512, 8, 4096, 32);
	add_small_tensor(&m);
	model = model_file(&m);
	{
		/* M, N: the fixture is a plan's geometry, not a whole llama */
		const char *argv[] = { "--profile", prof, "--kv", "q8_0",
		    "--format", "json", "--ignore", "M,N", model, NULL };

		run_bin(&r, argv);
	}
	cr_assert_eq(r.status, 1, "stdout: %s stderr: %s", r.out, r.err);
	root = parse_json(&r);
	cr_assert(json_has_code(root, "P006"), "%s", r.out);
	cr_assert_not(json_bool(root, "/files/0/plan/flash_attention"));
	jsontree_free(root);
	test_run_free(&r);
	{
		/* f16 is fine without flash attention */
		const char *argv[] = { "--profile", prof, "--kv", "f16",
		    "--format", "json", "--ignore", "M,N", model, NULL };

		run_bin(&r, argv);
	}
	cr_assert_eq(r.status, 0, "stdout: %s stderr: %s", r.out, r.err);
	root = parse_json(&r);
	cr_assert_not(json_has_code(root, "P006"), "%s", r.out);
	jsontree_free(root);
	test_run_free(&r);
	unlink(prof);
	unlink(model);
	free(prof);
	free(model);
	ggufw_model_free(&m);
}

/*
 * An 8B-llama-shaped file, sparse: 32 layers, n_embd 4096, 32 heads, 8 KV
 * heads, ffn 14336, vocab 128256 (vocab_size, tokenizer no_vocab), trained
 * context 8192; Q4_K matrices, F32 norms. Weights: token_embd and output
 * 295501824 each, 32 layers of 122716160, output_norm 16384.
 */
#define LLAMA8B_WEIGHTS 4517937152ull

static char *
llama8b_file(void)
{
	static const int64_t emb[] = { 4096, 128256 }, sq[] = { 4096, 4096 },
	    kv[] = { 4096, 1024 }, up[] = { 4096, 14336 },
	    down[] = { 14336, 4096 }, norm[] = { 4096 };
	static const char *const names[] = { "attn_q", "attn_k", "attn_v",
	    "attn_output", "ffn_gate", "ffn_up", "ffn_down" };
	const int64_t *shapes[] = { sq, kv, kv, sq, up, up, down };
	struct ggufw_model m;
	char name[64];
	char *path;
	int il, j;

	ggufw_model_init(&m, false, 32);
	ggufw_model_kv_str(&m, "general.architecture", "llama");
	ggufw_model_kv_str(&m, "general.name", "llama-8b-shaped");
	ggufw_model_kv_u32(&m, "llama.block_count", 32);
	ggufw_model_kv_u32(&m, "llama.embedding_length", 4096);
	ggufw_model_kv_u32(&m, "llama.attention.head_count", 32);
	ggufw_model_kv_u32(&m, "llama.attention.head_count_kv", 8);
	ggufw_model_kv_u32(&m, "llama.feed_forward_length", 14336);
	ggufw_model_kv_u32(&m, "llama.context_length", 8192);
	ggufw_model_kv_u32(&m, "llama.vocab_size", 128256);
	ggufw_model_kv_u32(&m, "llama.rope.dimension_count", 128);
	ggufw_model_kv_f32(&m, "llama.attention.layer_norm_rms_epsilon",
	    1e-5f);
	ggufw_model_kv_str(&m, "tokenizer.ggml.model", "no_vocab");
	ggufw_model_kv_u32(&m, "general.quantization_version", 2);
	ggufw_model_tensor(&m, "token_embd.weight", 2, emb, GGUFW_GGML_Q4_K,
	    Q4_K_BLCK, Q4_K_SIZE);
	for (il = 0; il < 32; il++) {
		snprintf(name, sizeof name, "blk.%d.attn_norm.weight", il);
		ggufw_model_tensor(&m, name, 1, norm, GGUFW_GGML_F32, 1, 4);
		for (j = 0; j < 7; j++) {
			snprintf(name, sizeof name, "blk.%d.%s.weight", il,
			    names[j]);
			ggufw_model_tensor(&m, name, 2, shapes[j],
			    GGUFW_GGML_Q4_K, Q4_K_BLCK, Q4_K_SIZE);
		}
		snprintf(name, sizeof name, "blk.%d.ffn_norm.weight", il);
		ggufw_model_tensor(&m, name, 1, norm, GGUFW_GGML_F32, 1, 4);
	}
	ggufw_model_tensor(&m, "output_norm.weight", 1, norm, GGUFW_GGML_F32,
	    1, 4);
	ggufw_model_tensor(&m, "output.weight", 2, emb, GGUFW_GGML_Q4_K,
	    Q4_K_BLCK, Q4_K_SIZE);
	path = model_sparse(&m);
	ggufw_model_free(&m);
	return path;
}

Test(plan, e2e_8b_mobile_2gb_does_not_fit, .init = plan_no_datadir)
{
	char *model = llama8b_file();
	const char *argv[] = { "-p", "mobile_2gb", "--format", "json", model,
	    NULL };
	const struct jsonnode *sugg, *s;
	struct jsonnode *root;
	struct test_run r;
	size_t i;

	run_bin(&r, argv);
	cr_assert_eq(r.status, 1, "stdout: %s stderr: %s", r.out, r.err);
	root = parse_json(&r);
	cr_assert(json_has_code(root, "P001"), "%s", r.out);
	/* mapped weights: P001 compares them with the device's memory */
	cr_assert(strstr(r.out, "device memory is 2.0 GiB") != NULL, "%s",
	    r.out);
	cr_assert_not(json_bool(root, "/files/0/plan/fits"));
	cr_assert_eq(json_int(root, "/files/0/plan/weights_bytes"),
	    (int64_t)LLAMA8B_WEIGHTS);
	cr_assert_eq(json_int(root, "/files/0/plan/weights_mapped_bytes"),
	    (int64_t)LLAMA8B_WEIGHTS);
	/* mobile_2gb's context 2048 (the trained 8192 is longer) */
	cr_assert_eq(json_int(root, "/files/0/plan/ctx"), 2048);
	cr_assert_eq(json_int(root, "/files/0/plan/memory_bytes"),
	    (int64_t)(2 * GiB));
	sugg = jsontree_pointer(root, "/files/0/plan/suggestions");
	cr_assert(sugg != NULL && sugg->type == JSONTREE_ARRAY, "%s", r.out);
	cr_assert_geq(sugg->n, 2, "%s", r.out);
	for (i = 0; (s = jsontree_at(sugg, i)) != NULL; i++) {
		int64_t v;

		cr_assert(jsontree_int64(jsontree_get(s, "saving_bytes"), &v));
		cr_assert_gt(v, 0, "suggestion %zu", i);
	}
	jsontree_free(root);
	test_run_free(&r);
	unlink(model);
	free(model);
}

Test(plan, e2e_8b_desktop_fits, .init = plan_no_datadir)
{
	char *model = llama8b_file();
	const char *argv[] = { "-p", "desktop", "--format", "json", model,
	    NULL };
	struct jsonnode *root;
	struct test_run r;

	run_bin(&r, argv);
	cr_assert_eq(r.status, 0, "stdout: %s stderr: %s", r.out, r.err);
	root = parse_json(&r);
	cr_assert(json_bool(root, "/files/0/plan/fits"));
	cr_assert_eq(json_int(root, "/files/0/plan/ctx"), 4096);
	/* bf16 at 4096: 32 layers x 4096 cells x 1024 x 2 B, K and V */
	cr_assert_eq(json_int(root, "/files/0/plan/kv_bytes"), 536870912);
	cr_assert_eq(json_int(root, "/files/0/plan/weights_heap_bytes"),
	    (int64_t)LLAMA8B_WEIGHTS);
	cr_assert_eq(jsontree_pointer(root, "/files/0/plan/suggestions")->n,
	    0);
	jsontree_free(root);
	test_run_free(&r);
	unlink(model);
	free(model);
}

Test(plan, e2e_8b_plan_text, .init = plan_no_datadir)
{
	char *model = llama8b_file();
	const char *mob[] = { "--plan", "-p", "mobile_2gb", model, NULL };
	const char *desk[] = { "--plan", "-p", "desktop", model, NULL };
	struct test_run r;

	run_bin(&r, mob);
	cr_assert_eq(r.status, 1, "stderr: %s", r.err);
	cr_assert(strstr(r.out, "does not fit") != NULL, "%s", r.out);
	cr_assert(strstr(r.out, "suggestions:") != NULL, "%s", r.out);
	cr_assert(strstr(r.out, "P001") != NULL, "%s", r.out);
	test_run_free(&r);
	run_bin(&r, desk);
	cr_assert_eq(r.status, 0, "stderr: %s", r.err);
	cr_assert(strstr(r.out, "\xe2\x9c\x94 fits") != NULL, "%s", r.out);
	cr_assert(strstr(r.out, "does not fit") == NULL, "%s", r.out);
	cr_assert(strstr(r.out, "suggestions:") == NULL, "%s", r.out);
	test_run_free(&r);
	unlink(model);
	free(model);
}

/* The line of out that starts with prefix (a copy, freed by the caller);
 * the test fails when there is none. */
static char *
line_of(const char *out, const char *prefix)
{
	const char *p = out;
	size_t n = strlen(prefix);

	for (; *p != '\0'; p += strcspn(p, "\n") + (p[strcspn(p, "\n")] !=
	    '\0'))
		if (strncmp(p, prefix, n) == 0)
			return xstrndup(p, strcspn(p, "\n"));
	cr_assert_fail("no line \"%s...\" in:\n%s", prefix, out);
	return NULL;
}

/* Whether line holds s; frees line. */
static bool
holds(char *line, const char *s)
{
	bool yes = strstr(line, s) != NULL;

	free(line);
	return yes;
}

#define X_MARK "\xe2\x9c\x98 does not fit: "

/*
 * The plan table marks the line that does not fit, with what it is over:
 * P001 (mapped weights past the device memory: the weights and the "in
 * all" lines, while the heap fits), P002 (the KV cache alone past the
 * budget, and the total), P003 of a device (its line; the host fits).
 */
Test(plan, e2e_8b_plan_marks_the_line_that_does_not_fit,
    .init = plan_no_datadir)
{
	char *model = llama8b_file();
	const char *mob[] = { "--plan", "-p", "mobile_2gb", model, NULL };
	const char *kv[] = { "--plan", "-p", "desktop", "-c", "1000000",
		"--kv", "f32", model, NULL };
	const char *gpu[] = { "--plan", "-p", "gpu_8gb", "-c", "131072", model,
		NULL };
	struct test_run r;

	run_bin(&r, mob);
	cr_assert_eq(r.status, 1, "stderr: %s", r.err);
	cr_expect(holds(line_of(r.out, "  total heap"), "\xe2\x9c\x94 fits"),
	    "%s", r.out);
	cr_expect(holds(line_of(r.out, "  mapped weights"), X_MARK "+2.6 GiB "
	    "over the 2.0 GiB of device memory"), "%s", r.out);
	cr_expect(holds(line_of(r.out, "  weights   mapped"), X_MARK "+2.2 "
	    "GiB over the 2.0 GiB of device memory"), "%s", r.out);
	cr_expect(holds(line_of(r.out, "  kv cache"), "\xe2\x9c\x98") ==
	    false, "%s", r.out);
	cr_expect(strstr(r.out, "P001 weights-over-budget: weights need 4.2 "
	    "GiB; device memory is 2.0 GiB (the whole plan: +2.6 GiB over the "
	    "2.0 GiB of device memory)") != NULL, "%s", r.out);
	test_run_free(&r);
	run_bin(&r, kv);
	cr_assert_eq(r.status, 1, "stderr: %s", r.err);
	cr_expect(holds(line_of(r.out, "  kv cache"), X_MARK "+228.9 GiB over "
	    "the 15.3 GiB budget"), "%s", r.out);
	cr_expect(holds(line_of(r.out, "  total "), X_MARK "+263.7 GiB over "
	    "the 15.3 GiB budget"), "%s", r.out);
	cr_expect(holds(line_of(r.out, "  weights"), "\xe2\x9c\x98") == false,
	    "%s", r.out);
	test_run_free(&r);
	run_bin(&r, gpu);
	cr_assert_eq(r.status, 1, "stderr: %s", r.err);
	cr_expect(holds(line_of(r.out, "  total heap"), "\xe2\x9c\x94 fits"),
	    "%s", r.out);
	cr_expect(holds(line_of(r.out, "  CUDA0 total"), X_MARK "+13.2 GiB "
	    "over the 7.0 GiB of CUDA0"), "%s", r.out);
	cr_expect(holds(line_of(r.out, "  kv cache  CUDA0"), X_MARK "+9.0 GiB "
	    "over the 7.0 GiB of CUDA0"), "%s", r.out);
	test_run_free(&r);
	unlink(model);
	free(model);
}

/*
 * Auto-quantization on mobile_2gb. Its weights are mapped, so the share
 * is of the heap part only (SKaiNET #1189: budgetedBytes): at the
 * profile's ctx 2048 that is 464 MB of 1348 MiB, 33 %, and nothing
 * switches; at --ctx 8192 the KV cache (1 GiB bf16) and the forward slab
 * take it to 104 %, over the profile's 80 %, and the cache switches to
 * turboquant4, unless --kv names a type.
 */
Test(plan, e2e_8b_kv_auto_quantize_and_explicit_kv, .init = plan_no_datadir)
{
	char *model = llama8b_file();
	const char *dflt[] = { "-p", "mobile_2gb", "--format", "json", model,
	    NULL };
	const char *autoq[] = { "-p", "mobile_2gb", "--ctx", "8192",
	    "--format", "json", model, NULL };
	const char *f16[] = { "-p", "mobile_2gb", "--ctx", "8192", "--kv",
	    "f16", "--format", "json", model, NULL };
	struct jsonnode *root;
	struct test_run r;

	run_bin(&r, dflt);
	root = parse_json(&r);
	cr_assert_str_eq(jsontree_str(jsontree_pointer(root,
	    "/files/0/plan/kv_type")), "bf16");
	cr_assert_not(json_bool(root, "/files/0/plan/kv_auto_quantized"));
	jsontree_free(root);
	test_run_free(&r);

	run_bin(&r, autoq);
	root = parse_json(&r);
	cr_assert_str_eq(jsontree_str(jsontree_pointer(root,
	    "/files/0/plan/kv_type")), "turboquant4", "%s", r.out);
	cr_assert(json_bool(root, "/files/0/plan/kv_auto_quantized"));
	cr_assert(json_has_code(root, "P007"), "%s", r.out);
	/* 32 layers x 8192 cells x 2 rows of 1024 -> 8 blocks of 76 B */
	cr_assert_eq(json_int(root, "/files/0/plan/kv_bytes"),
	    32 * 8192 * 2 * 608ll);
	jsontree_free(root);
	test_run_free(&r);

	run_bin(&r, f16);
	root = parse_json(&r);
	cr_assert_str_eq(jsontree_str(jsontree_pointer(root,
	    "/files/0/plan/kv_type")), "f16", "%s", r.out);
	cr_assert_not(json_bool(root, "/files/0/plan/kv_auto_quantized"));
	cr_assert_not(json_has_code(root, "P007"), "%s", r.out);
	cr_assert_eq(json_int(root, "/files/0/plan/kv_bytes"),
	    32 * 8192 * 2 * 2048ll);
	jsontree_free(root);
	test_run_free(&r);
	unlink(model);
	free(model);
}

Test(plan, e2e_bad_arguments_exit_2, .init = plan_no_datadir)
{
	struct ggufw_model m;
	struct test_run r;
	char *model;

	ggufw_model_init(&m, false, 32);
	add_attn_keys(&m, "llama", 4, 512, 8, 4096, 32);
	add_small_tensor(&m);
	model = model_file(&m);
	{
		const char *argv[] = { "--kv", "q3_k", model, NULL };

		run_bin(&r, argv);
		cr_assert_eq(r.status, 2, "--kv q3_k: %s", r.err);
		cr_assert(strstr(r.err, "q3_k") != NULL, "%s", r.err);
		cr_assert_str_empty(r.out);
		test_run_free(&r);
	}
	{
		const char *argv[] = { "--ctx", "0", model, NULL };

		run_bin(&r, argv);
		cr_assert_eq(r.status, 2, "--ctx 0: %s", r.err);
		cr_assert(strstr(r.err, "--ctx") != NULL, "%s", r.err);
		test_run_free(&r);
	}
	{
		const char *argv[] = { "-p", "no_such_device", model, NULL };

		run_bin(&r, argv);
		cr_assert_eq(r.status, 2, "unknown profile: %s", r.err);
		cr_assert(strstr(r.err, "no_such_device") != NULL, "%s",
		    r.err);
		test_run_free(&r);
	}
	{
		/* the same file is clean with good arguments (but for M and
		 * N: it is a plan's geometry, not a whole llama) */
		const char *argv[] = { "--kv", "q8_0", "--ctx", "1000",
		    "--ignore", "M,N", model, NULL };

		run_bin(&r, argv);
		cr_assert_eq(r.status, 0, "stdout: %s stderr: %s", r.out,
		    r.err);
		test_run_free(&r);
	}
	unlink(model);
	free(model);
	ggufw_model_free(&m);
}

/* ---- llama.cpp plans ---------------------------------------------------- */

/* A 2-D tensor of type ty, ne[1] rows of 4096, named name. */
static void
tensor_2d(struct gguf_tensor *t, const char *name, uint32_t ty,
    int64_t rows, uint64_t nbytes)
{
	memset(t, 0, sizeof *t);
	t->name.p = name;
	t->name.n = strlen(name);
	t->n_dims = 2;
	t->ne[0] = 4096;
	t->ne[1] = rows;
	t->ne[2] = t->ne[3] = 1;
	t->type = ty;
	t->nbytes = nbytes;
	t->size_ok = true;
}

/* ggml-cpu v0.5.0 repack.cpp: by type, rows and features. */
Test(plan, llama_repack_by_type_and_features)
{
	uint32_t avx2 = CPU_FEAT_AVX2, avx512 = CPU_FEAT_AVX2 | CPU_FEAT_AVX512;
	uint32_t neon = CPU_FEAT_NEON | CPU_FEAT_DOTPROD;
	struct gguf_tensor t;

	cr_expect_eq(plan_repacks(GGML_TYPE_Q4_K, 4096, avx2), 8);
	cr_expect_eq(plan_repacks(GGML_TYPE_Q4_K, 4096, neon), 8);
	cr_expect_eq(plan_repacks(GGML_TYPE_Q4_K, 4100, avx2), 0);
	cr_expect_eq(plan_repacks(GGML_TYPE_Q4_0, 4096, avx2), 8);
	cr_expect_eq(plan_repacks(GGML_TYPE_Q4_0, 4, neon), 4);
	cr_expect_eq(plan_repacks(GGML_TYPE_Q4_0, 4, avx2), 0);
	cr_expect_eq(plan_repacks(GGML_TYPE_IQ4_NL, 4096, avx2), 8);
	cr_expect_eq(plan_repacks(GGML_TYPE_IQ4_NL, 4, neon), 4);
	cr_expect_eq(plan_repacks(GGML_TYPE_Q6_K, 4096, avx512), 0);
	cr_expect_eq(plan_repacks(GGML_TYPE_Q6_K, 4096, neon), 8);
	cr_expect_eq(plan_repacks(GGML_TYPE_Q2_K, 4096, avx2), 0);
	cr_expect_eq(plan_repacks(GGML_TYPE_Q2_K, 4096, avx512), 8);
	cr_expect_eq(plan_repacks(GGML_TYPE_Q8_0, 4096, avx512), 0);
	cr_expect_eq(plan_repacks(GGML_TYPE_Q8_0, 4096, neon), 4);
	cr_expect_eq(plan_repacks(GGML_TYPE_Q4_K, 4096, 0), 0);
	/* token_embd is read by get_rows: never repacked */
	tensor_2d(&t, "token_embd.weight", GGML_TYPE_Q4_K, 128256, 1);
	cr_expect(!plan_tensor_repacked(&t, avx2));
	tensor_2d(&t, "blk.0.attn_q.weight", GGML_TYPE_Q4_K, 4096, 1);
	cr_expect(plan_tensor_repacked(&t, avx2));
	cr_expect(!plan_tensor_repacked(&t, CPU_FEAT_OTHER));
}

/* A llama.cpp profile by hand: memory, mapped, f16 caches, the CPU. */
static void
prof_llama(struct profile *p, uint64_t memory, uint32_t features)
{
	prof_hand(p, memory, 0, WEIGHTS_MAPPED, KV_F16, KV_Q8_0, 1.0, true);
	p->runtime = RUNTIME_LLAMA_CPP;
	p->backend = (char *)"cpu";
	p->cpu_features = features;
	p->batch = 2048;
	p->n_seq = 1;
	p->gpu_layers = -1;
}

/* A one-tensor file: blk.0.attn_q.weight of nbytes in type ty. */
static void
file_one(struct gguf_file *f, struct gguf_tensor *t, uint32_t ty,
    uint64_t nbytes)
{
	memset(f, 0, sizeof *f);
	tensor_2d(t, "blk.0.attn_q.weight", ty, 4096, nbytes);
	f->tensors = t;
	f->tensors_n = 1;
}

Test(plan, llama_repack_copy_is_charged_to_the_heap)
{
	struct model_geom g;
	struct profile p;
	struct gguf_file f;
	struct gguf_tensor t;
	struct plan_request rq = { 0 };
	struct plan pl;

	geom_llama1b(&g);
	file_one(&f, &t, GGML_TYPE_Q4_K, 9437184);
	prof_llama(&p, 16ull << 30, CPU_FEAT_AVX2);
	plan_make(&g, &f, &p, &rq, NULL, &pl);
	cr_assert(pl.valid);
	cr_expect_eq(pl.runtime, RUNTIME_LLAMA_CPP);
	cr_expect_eq(pl.repack_bytes, 9437184);
	cr_expect_eq(pl.n_repacked, 1);
	cr_expect_eq(pl.weights_mapped, 0);
	cr_expect_eq(pl.forward, 0);	/* no SKaiNET forward slab */
	plan_free(&pl);
	/* no feature that repacks Q4_K: the weight stays mapped */
	prof_llama(&p, 16ull << 30, CPU_FEAT_OTHER);
	plan_make(&g, &f, &p, &rq, NULL, &pl);
	cr_expect_eq(pl.repack_bytes, 0);
	cr_expect_eq(pl.weights_mapped, 9437184);
	plan_free(&pl);
	/* --no-mmap: read into a CPU buffer */
	rq.no_mmap = true;
	plan_make(&g, &f, &p, &rq, NULL, &pl);
	cr_expect_eq(pl.weights_mapped, 0);
	cr_expect_eq(pl.dev[0].model_bytes, 9437184);
	plan_free(&pl);
}

/* -ctk/-ctv apart, -np 4 (streams of pad(n_ctx / 4)), never switched. */
Test(plan, llama_kv_types_apart_and_parallel)
{
	struct model_geom g;
	struct profile p;
	struct gguf_file f;
	struct gguf_tensor t;
	struct plan_request rq = { 0 };
	struct plan pl;

	geom_llama1b(&g);	/* 16 layers, 8 KV heads of 64 */
	file_one(&f, &t, GGML_TYPE_Q4_K, 9437184);
	prof_llama(&p, 16ull << 30, CPU_FEAT_AVX2);
	rq.ctx = 2048;
	rq.kv_k_set = true;
	rq.kv_k = KV_Q8_0;
	plan_make(&g, &f, &p, &rq, NULL, &pl);
	/* K: 16 x 2048 x 512 x 34/32; V f16: 16 x 2048 x 512 x 2 */
	cr_expect_eq(pl.k_bytes, 17825792);
	cr_expect_eq(pl.v_bytes, 33554432);
	cr_expect_eq(pl.kv_bytes, 17825792 + 33554432);
	plan_free(&pl);
	/* -np 3 at 2048: 768 cells per stream, 2304 in all (§3) */
	rq.kv_k_set = false;
	rq.n_seq = 3;
	plan_make(&g, &f, &p, &rq, NULL, &pl);
	cr_expect_eq(pl.ctx_seq, 768);
	cr_expect_eq(pl.ctx_cells, 2304);
	cr_expect_eq(pl.kv_bytes, 16ull * 2304 * 512 * 2 * 2);
	cr_expect_eq(pl.output_bytes, 3ull * 4 * 128256);
	cr_expect(!pl.kv_switched);
	plan_free(&pl);
}

/* The compute buffer of llama-gqa and an 8B, measured with llama.cpp
 * v0.5.0's CPU backend (zen4), FA on and off, ub 512 and 128. */
Test(plan, llama_compute_buffer_matches_llama_cpp)
{
	struct model_geom g;

	geom_uniform(&g, 4, 256, 8, 2, 32, 768, 320);
	cr_expect_eq(plan_compute_bytes(&g, 512, 512, true), 7354368);
	cr_expect_eq(plan_compute_bytes(&g, 512, 4096, false), 78391296);
	cr_expect_eq(plan_compute_bytes(&g, 512, 32768, true), 40384512);
	geom_uniform(&g, 32, 4096, 32, 8, 128, 14336, 128256);
	cr_expect_eq(plan_compute_bytes(&g, 512, 4096, true), 279447552);
	cr_expect_eq(plan_compute_bytes(&g, 128, 4096, true), 69861888);
	cr_expect_eq(plan_compute_bytes(&g, 512, 32768, false), 2260740096);
	cr_expect_eq(plan_compute_bytes(&g, 512, 8192, false), 599795712);
}

/* ---- the compute buffer per architecture kind, against llama.cpp ------- */

/*
 * Models of the oracle's geometry (i14o's measured-cpu.tsv: 4 layers,
 * embedding 512, 8 heads, FFN 1536, vocabulary 512, ubatch 512), with the
 * tensors that shape the graph: the FFN's (gated, ungated, fused, experts,
 * shared expert) and the output matrix (absent: tied). Each case cites
 * its row (arch ctx fa ctk/ctv n_seq, variant zen4, mode sim) and
 * llama.cpp v0.5.0's compute bytes in it.
 */
enum { CK_GATE = 1, CK_FUSED = 2, CK_EXPS = 4, CK_SHEXP = 8, CK_MLA = 16,
	CK_ENC = 32, CK_SSM = 64, CK_TIED = 128 };

struct compute_case {
	const char *arch;
	unsigned kind;
	uint32_t n_layer, n_head_kv, head, swa;
	uint64_t ctx, n_seq;
	bool fa;
	uint64_t measured;
	bool exact;
};

static const struct compute_case compute_cases[] = {
	{ "llama", CK_GATE, 4, 2, 0, 0, 4096, 1, true, 17840128, true },
	{ "qwen3", CK_GATE, 4, 2, 128, 0, 512, 1, false, 17836032, true },
	{ "phi3", CK_FUSED, 4, 2, 0, 0, 4096, 4, false, 24651776, false },
	{ "qwen3moe", CK_EXPS, 4, 2, 128, 0, 4096, 1, true, 11548672, false },
	{ "qwen2moe", CK_EXPS | CK_SHEXP, 4, 2, 0, 0, 512, 1, true,
	    7915520, false },
	{ "gemma2", CK_GATE | CK_TIED, 4, 2, 64, 4096, 32768, 1, true,
	    51927040, false },
	{ "gemma3", CK_GATE | CK_TIED, 6, 2, 64, 512, 4096, 1, false,
	    81803264, false },
	{ "deepseek2", CK_GATE | CK_EXPS | CK_MLA, 4, 1, 160, 0, 512, 1,
	    false, 20494336, false },
	{ "mamba", CK_SSM | CK_TIED, 4, 0, 0, 0, 4096, 4, true, 13996064,
	    true },
	{ "bert", CK_ENC, 4, 8, 0, 0, 512, 1, false, 15734784, true },
	{ "nomic-bert", CK_ENC | CK_GATE, 4, 8, 0, 0, 512, 1, true,
	    12064768, true },
	{ "falcon", 0, 4, 2, 0, 0, 4096, 4, true, 8402944, false },
	{ "gpt2", 0, 4, 2, 0, 0, 32768, 1, false, 609232896, false },
	{ "starcoder2", 0, 4, 2, 0, 0, 512, 1, true, 7878656, false },
};

static void
case_u32(struct ggufw_model *m, const char *arch, const char *key,
    uint32_t v)
{
	char k[128];

	snprintf(k, sizeof k, "%s.%s", arch, key);
	ggufw_model_kv_u32(m, k, v);
}

static void
case_tensor(struct ggufw_model *m, const char *name, int64_t n0, int64_t n1,
    int64_t n2)
{
	int64_t ne[3] = { n0, n1, n2 };

	ggufw_model_tensor(m, name, n2 > 1 ? 3 : 2, ne, GGUFW_GGML_Q4_0, 32,
	    18);
}

/* The keys of a case: the shared geometry, then its kind's own. */
static void
case_keys(struct ggufw_model *m, const struct compute_case *c)
{
	const char *a = c->arch;

	ggufw_model_kv_str(m, "general.architecture", a);
	case_u32(m, a, "block_count", c->n_layer);
	case_u32(m, a, "embedding_length", 512);
	case_u32(m, a, "feed_forward_length", c->kind & CK_SSM ? 0 : 1536);
	case_u32(m, a, "context_length", c->kind & CK_ENC ? 512 : 65536);
	case_u32(m, a, "vocab_size", 512);
	case_u32(m, a, "attention.head_count", c->kind & CK_SSM ? 0 : 8);
	if (c->n_head_kv)
		case_u32(m, a, "attention.head_count_kv", c->n_head_kv);
	if (c->head) {
		case_u32(m, a, "attention.key_length", c->head);
		case_u32(m, a, "attention.value_length", c->head == 160 ?
		    128 : c->head);
	}
	if (c->swa)
		case_u32(m, a, "attention.sliding_window", c->swa);
	if (c->kind & CK_EXPS) {
		case_u32(m, a, "expert_count", 8);
		case_u32(m, a, "expert_used_count", 2);
	}
	if (c->kind & CK_MLA) {
		case_u32(m, a, "attention.kv_lora_rank", 128);
		case_u32(m, a, "attention.key_length_mla", 96);
		case_u32(m, a, "attention.value_length_mla", 64);
		case_u32(m, a, "rope.dimension_count", 32);
	}
	if (c->kind & CK_SSM) {
		case_u32(m, a, "ssm.conv_kernel", 4);
		case_u32(m, a, "ssm.inner_size", 1024);
		case_u32(m, a, "ssm.state_size", 16);
		case_u32(m, a, "ssm.time_step_rank", 32);
	}
	if (c->kind & CK_ENC)
		ggufw_model_kv_bool(m, "bert.attention.causal", false);
}

/* The tensors that shape the graph, in layer 0. */
static void
case_tensors(struct ggufw_model *m, const struct compute_case *c)
{
	case_tensor(m, "token_embd.weight", 512, 512, 1);
	if (!(c->kind & (CK_TIED | CK_ENC)))
		case_tensor(m, "output.weight", 512, 512, 1);
	if (c->kind & CK_SSM)
		return;
	if (c->kind & CK_FUSED)
		case_tensor(m, "blk.0.ffn_up.weight", 512, 3072, 1);
	else if (!(c->kind & CK_EXPS) || (c->kind & CK_MLA))
		case_tensor(m, "blk.0.ffn_up.weight", 512, 1536, 1);
	if ((c->kind & CK_GATE) && !(c->kind & CK_FUSED))
		case_tensor(m, "blk.0.ffn_gate.weight", 512, 1536, 1);
	if (c->kind & CK_EXPS) {
		case_tensor(m, "blk.1.ffn_up_exps.weight", 512, 256, 8);
		case_tensor(m, "blk.1.ffn_gate_exps.weight", 512, 256, 8);
	}
	if (c->kind & CK_SHEXP) {
		case_tensor(m, "blk.1.ffn_up_shexp.weight", 512, 512, 1);
		case_tensor(m, "blk.1.ffn_gate_shexp.weight", 512, 512, 1);
	}
}

static void
compute_case_plan(const struct compute_case *c, struct test_lint *t,
    struct ggufw_model *m)
{
	struct plan_request rq = { 0 };
	struct profile p;

	prof_llama(&p, 64ull << 30, CPU_FEAT_AVX2 | CPU_FEAT_AVX512);
	ggufw_model_init(m, false, 32);
	case_keys(m, c);
	case_tensors(m, c);
	rq.ctx = c->ctx;
	rq.n_seq = c->n_seq;
	rq.ubatch = 512;
	rq.fa = c->fa ? PLAN_FA_ON : PLAN_FA_OFF;
	lint_model(t, m, &p, &rq);
}

/*
 * Beside a GPU backend (Vulkan, measured with llama.cpp v0.5.0 on
 * llvmpipe): nothing is repacked, the host's compute buffer is the
 * graph's inputs (exact), the device's the rest (exact at full offload),
 * and -ngl 0 still reserves a device compute buffer.
 */
static void
vulkan_plan(struct test_lint *t, struct ggufw_model *m, int64_t ngl)
{
	struct plan_request rq = { 0 };
	struct profile p;

	prof_llama(&p, 64ull << 30, CPU_FEAT_AVX2 | CPU_FEAT_AVX512);
	p.backend = (char *)"vulkan";
	p.device_memory = 8ull << 30;
	ggufw_model_init(m, false, 32);
	case_keys(m, &compute_cases[0]);
	case_tensors(m, &compute_cases[0]);
	rq.ctx = 4096;
	rq.n_seq = 1;
	rq.ubatch = 512;
	rq.fa = PLAN_FA_ON;
	rq.ngl_set = true;
	rq.ngl = ngl;
	lint_model(t, m, &p, &rq);
}

/* Whether one of the plan's notes contains s. */
static bool
has_note(const struct plan *pl, const char *s)
{
	size_t i;

	for (i = 0; i < pl->n_notes; i++)
		if (strstr(pl->notes[i], s) != NULL)
			return true;
	return false;
}

/*
 * device_overhead (issue 37): the GPU's own footprint is a line of the
 * device, counted in its total and its verdict; unstated, the plan says
 * it is not counted. A CUDA plan says it follows Vulkan's rules.
 */
Test(plan, llama_device_overhead_is_counted_or_noted, .init = plan_no_datadir)
{
	struct ggufw_model m;
	struct test_lint t;
	struct plan_request rq = { 0 };
	struct profile p;
	uint64_t base;

	prof_llama(&p, 64ull << 30, CPU_FEAT_AVX2);
	p.backend = (char *)"cuda";
	p.device_memory = 8ull << 30;
	p.device_overhead = PROFILE_UNKNOWN;
	ggufw_model_init(&m, false, 32);
	case_keys(&m, &compute_cases[0]);
	case_tensors(&m, &compute_cases[0]);
	rq.ctx = 4096;
	lint_model(&t, &m, &p, &rq);
	cr_assert_eq(t.res.plan.n_dev, 2);
	cr_expect(t.res.plan.overhead_unknown);
	cr_expect_eq(t.res.plan.dev[1].overhead_bytes, 0);
	cr_expect(has_note(&t.res.plan, "no device_overhead"));
	cr_expect(has_note(&t.res.plan, "not measured"), "Vulkan's rules");
	base = t.res.plan.dev[1].total_bytes;
	cr_expect(t.res.plan.fits);
	test_lint_free(&t);

	/* stated: counted, and a device just big enough without it is over */
	p.device_overhead = 600ull << 20;
	p.device_memory = base + (300ull << 20);
	lint_model(&t, &m, &p, &rq);
	cr_expect(!t.res.plan.overhead_unknown);
	cr_expect(!has_note(&t.res.plan, "no device_overhead"));
	cr_expect_eq(t.res.plan.dev[1].overhead_bytes, 600ull << 20);
	cr_expect_eq(t.res.plan.dev[1].total_bytes, base + (600ull << 20));
	cr_expect(t.res.plan.device_over);
	cr_expect(!t.res.plan.fits);
	test_lint_free(&t);
	ggufw_model_free(&m);
}

Test(plan, llama_vulkan_host_and_device_compute, .init = plan_no_datadir)
{
	struct ggufw_model m;
	struct test_lint t;
	const struct plan *pl;
	double r;

	compute_case_plan(&compute_cases[0], &t, &m);
	cr_assert_gt(t.res.plan.repack_bytes, 0, "the CPU backend repacks");
	test_lint_free(&t);
	ggufw_model_free(&m);

	vulkan_plan(&t, &m, 99);
	pl = &t.res.plan;
	cr_assert_eq(pl->n_dev, 2);
	cr_expect_eq(pl->repack_bytes, 0, "no repack beside Vulkan");
	cr_expect_eq(pl->dev[0].compute_bytes, 6305792, "Vulkan_Host");
	cr_expect_eq(pl->dev[1].compute_bytes, 15740928, "Vulkan0");
	cr_expect(!pl->compute_estimated);
	test_lint_free(&t);
	ggufw_model_free(&m);

	vulkan_plan(&t, &m, 0);
	pl = &t.res.plan;
	cr_expect_eq(pl->repack_bytes, 0);
	cr_expect_eq(pl->dev[0].compute_bytes, 6305792, "Vulkan_Host");
	r = (double)pl->dev[1].compute_bytes / 17975296.0;
	cr_expect(r >= 0.9 && r <= 1.1, "Vulkan0 at -ngl 0: %" PRIu64
	    " / 17975296 = %.3f", pl->dev[1].compute_bytes, r);
	test_lint_free(&t);
	ggufw_model_free(&m);
}

Test(plan, llama_compute_per_architecture_within_10_percent,
    .init = plan_no_datadir)
{
	size_t i;

	for (i = 0; i < sizeof compute_cases / sizeof compute_cases[0]; i++) {
		const struct compute_case *c = &compute_cases[i];
		struct ggufw_model m;
		struct test_lint t;
		double r;

		compute_case_plan(c, &t, &m);
		cr_assert(t.res.geom->plannable, "%s: %s", c->arch,
		    test_codes(&t));
		r = (double)t.res.plan.compute_bytes / (double)c->measured;
		cr_expect(r >= 0.9 && r <= 1.1, "%s ctx %" PRIu64 " fa %d: "
		    "plan %" PRIu64 " / llama.cpp %" PRIu64 " = %.3f",
		    c->arch, c->ctx, c->fa, t.res.plan.compute_bytes,
		    c->measured, r);
		/* exact where the formula is: the dense, encoder, scan cases */
		if (c->exact)
			cr_expect_eq(t.res.plan.compute_bytes, c->measured,
			    "%s", c->arch);
		cr_expect(!t.res.plan.compute_estimated, "%s", c->arch);
		test_lint_free(&t);
		ggufw_model_free(&m);
	}
}

/* A tensor named name of n dims ne (the rest 1), for weight_op. */
static struct gguf_tensor
wtensor(const char *name, uint32_t n, int64_t ne0, int64_t ne1, int64_t ne2)
{
	struct gguf_tensor t;

	memset(&t, 0, sizeof t);
	t.name.p = name;
	t.name.n = strlen(name);
	t.n_dims = n;
	t.ne[0] = ne0;
	t.ne[1] = ne1;
	t.ne[2] = ne2;
	t.ne[3] = 1;
	return t;
}

/*
 * The operation each weight feeds, as llama.cpp builds it: a lookup for
 * the embeddings, the experts' product for stacked experts (chunked ones
 * too), add_id for their biases, a vector's add or mul; a 3-D matrix that
 * is not an expert stack (MLA's attn_k_b, one per head) is a batched
 * matrix product, and so is a stack of one expert.
 */
Test(plan, weight_ops_follow_llama_cpp)
{
	static const struct {
		const char *name;
		uint32_t n;
		int64_t ne0, ne1, ne2;
		enum weight_op op;
	} cases[] = {
		{ "token_embd.weight", 2, 64, 1000, 1, WOP_GET_ROWS },
		{ "blk.0.ffn_gate_exps.weight", 3, 64, 128, 8, WOP_MUL_MAT_ID },
		{ "blk.0.ffn_up_chexps.weight", 3, 64, 128, 8, WOP_MUL_MAT_ID },
		{ "blk.0.ffn_down_exps.weight", 3, 128, 64, 1, WOP_MUL_MAT },
		{ "blk.0.ffn_gate_exps.bias", 2, 128, 8, 1, WOP_ADD_ID },
		{ "blk.0.attn_k_b.weight", 3, 64, 512, 16, WOP_MUL_MAT },
		{ "blk.0.ffn_gate_shexp.weight", 2, 64, 128, 1, WOP_MUL_MAT },
		{ "blk.0.attn_norm.weight", 1, 64, 1, 1, WOP_VECTOR },
		{ "output.weight", 2, 64, 1000, 1, WOP_MUL_MAT },
	};

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct gguf_tensor t = wtensor(cases[i].name, cases[i].n,
		    cases[i].ne0, cases[i].ne1, cases[i].ne2);

		cr_expect_eq(weight_op(&t), cases[i].op, "%s: %d, not %d",
		    cases[i].name, (int)weight_op(&t), (int)cases[i].op);
	}
}
