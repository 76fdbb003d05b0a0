/*
 * test_meta.c - the M family: golden cases (one that should warn and one
 * that should not, per rule; see golden.h) and the finer points in
 * process: which files the required-key rules apply to, the expert-count
 * asserts, types of the tokenizer keys, and that M002 is reported once.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "golden.h"
#include "ggufw.h"
#include "target/profile.h"
#include "testutil.h"

static void set_no_arch(struct tiny *t) { t->arch = NULL; }
static void set_no_eps(struct tiny *t) { t->eps = TINY_EPS_NONE; }
static void set_eps_f64(struct tiny *t) { t->eps = TINY_EPS_F64; }
static void set_rope_foo(struct tiny *t) { t->rope_scaling = "foo"; }
static void set_rope_yarn(struct tiny *t) { t->rope_scaling = "yarn"; }
static void set_short_scores(struct tiny *t) { t->n_scores = 12; }
static void set_long_types(struct tiny *t) { t->n_types = 20; }
static void set_scores_u8(struct tiny *t) { t->scores_u8 = true; }
static void set_embd_rows(struct tiny *t) { t->embd_rows = 20; }
static void set_vocab_key_bad(struct tiny *t) { t->vocab_size_key = 32; }
static void set_vocab_key_ok(struct tiny *t) { t->vocab_size_key = 16; }
static void set_bos_99(struct tiny *t) { t->bos = 99; }
static void set_bos_none(struct tiny *t) { t->bos = UINT32_MAX; }
static void set_type_9(struct tiny *t) { t->bad_type = 9; }
static void set_byte_t3(struct tiny *t) { t->bad_type = 6; }
static void
set_type_byte(struct tiny *t)
{
	t->bad_type = 6;
	t->tok3 = "<0x41>";
}
static void set_dup(struct tiny *t) { t->dup_token = true; }
static void set_types_u32(struct tiny *t) { t->types_u32 = true; }
static void
set_suppress_u8(struct tiny *t)
{
	t->arr_key = "tokenizer.ggml.suppress_tokens";
	t->arr_len = 2;
}
/*
 * A t5 charsmap: its size (1024), a trie of 256 empty nodes (no input
 * byte matches: llama.cpp's walk from the root stays in bounds), then
 * one string.
 */
static uint8_t charsmap[4 + 1024 + 2];
static void
set_t5_charsmap(struct tiny *t, uint64_t len)
{
	charsmap[1] = 4;		/* 1024, little-endian */
	charsmap[4 + 1024] = 'a';
	t->tok_model = "t5";
	t->arr_key = "tokenizer.ggml.precompiled_charsmap";
	t->arr_len = len;
	t->arr_bytes = charsmap;
}
static void
set_charsmap_ok(struct tiny *t)
{
	set_t5_charsmap(t, sizeof charsmap);
}
static void
set_charsmap_no_strings(struct tiny *t)
{
	set_t5_charsmap(t, 4 + 1024);
}
static void set_charsmap_3(struct tiny *t) { set_t5_charsmap(t, 3); }
static void
set_t5_charsmap_str(struct tiny *t)
{
	t->tok_model = "t5";
	t->str_key = "tokenizer.ggml.precompiled_charsmap";
	t->str_val = "abcdefgh";
	t->str_len = 8;
}
static void
set_merges_u8(struct tiny *t)
{
	t->arr_key = "tokenizer.ggml.merges";
	t->arr_len = 4;
}
static void
set_byte_minus(struct tiny *t)
{
	t->bad_type = 6;
	t->tok3 = "<0x-1>";
}
static void set_layers_513(struct tiny *t) { t->block_count_key = 513; }
static void set_nextn_3(struct tiny *t) { t->nextn = 3; }
static void set_layers_512(struct tiny *t) { t->block_count_key = 512; }
static void
set_used_arr_513(struct tiny *t)
{
	t->layer_key = "expert_used_count";
	t->layer_len = 513;
}
static void
set_ffexp_arr_513(struct tiny *t)
{
	t->layer_key = "expert_feed_forward_length";
	t->layer_len = 513;
}
static void
set_moe_ffexp_arr_513(struct tiny *t)
{
	t->arch = "deepseek";
	t->layer_key = "expert_feed_forward_length";
	t->layer_len = 513;
}
static void
set_moe_ffexp_per_layer(struct tiny *t)
{
	t->arch = "deepseek";
	t->layer_key = "expert_feed_forward_length";
	t->layer_len = 2;
}
static void
set_moe_ffexp_arr_3(struct tiny *t)
{
	t->arch = "deepseek";
	t->layer_key = "expert_feed_forward_length";
	t->layer_len = 3;
}
static void
set_used_per_layer(struct tiny *t)
{
	t->n_expert = 8;
	t->layer_key = "expert_used_count";
	t->layer_len = 2;
}
static void
set_heads_arr_513(struct tiny *t)
{
	t->layer_key = "attention.head_count_kv";
	t->layer_len = 513;
}
static void set_tok_unknown(struct tiny *t) { t->tok_model = "sentencepiece"; }
static void set_tok_t5(struct tiny *t) { t->tok_model = "t5"; }
static void set_tok_gemma4(struct tiny *t) { t->tok_model = "gemma4"; }
static void set_ftype_q4km(struct tiny *t) { t->file_type = 15; }
static void set_zero_heads(struct tiny *t) { t->zero_heads = true; }
static void set_zero_heads_kv(struct tiny *t) { t->zero_heads_kv = true; }

static void
set_vocab_only_no_arch(struct tiny *t)
{
	t->no_tensors = true;
	t->arch = NULL;
}
static void
set_vocab_only_no_eps(struct tiny *t)
{
	t->no_tensors = true;
	t->eps = TINY_EPS_NONE;
}

/* Q8_0 matrices need rows of 32. */
static void
set_q8(struct tiny *t)
{
	t->n_embd = 32;
	t->n_ff = 64;
	t->wtype = GGUFW_GGML_Q8_0;
	t->file_type = 7;
	t->quant_version = true;
}

static void
set_q8_no_qver(struct tiny *t)
{
	set_q8(t);
	t->quant_version = false;
}

static const struct golden_case cases[] = {
	{ "M001-missing-eps", "M001", 1, set_no_eps },
	{ "M001-no-architecture", "M001", 1, set_no_arch },
	{ "M001-ok-vocab-only", "M001", 0, set_vocab_only_no_eps },
	{ "M001-vocab-only-no-arch", "M001", 1, set_vocab_only_no_arch },
	{ "M002-eps-as-f64", "M002", 1, set_eps_f64 },
	{ "M002-ok", "M002", 0, NULL },
	{ "M004-rope-scaling-foo", "M004", 1, set_rope_foo },
	{ "M004-ok-rope-scaling-yarn", "M004", 0, set_rope_yarn },
	{ "M005-short-scores", "M005", 1, set_short_scores },
	{ "M005-ok", "M005", 0, NULL },
	{ "M006-long-token-type", "M006", 1, set_long_types },
	{ "M006-ok", "M006", 0, NULL },
	{ "M007-scores-u8", "M007", 1, set_scores_u8 },
	{ "M007-ok", "M007", 0, NULL },
	{ "M008-embd-rows", "M008", 1, set_embd_rows },
	{ "M008-ok", "M008", 0, NULL },
	{ "M009-vocab-size-key", "M009", 1, set_vocab_key_bad },
	{ "M009-ok-vocab-size-key", "M009", 0, set_vocab_key_ok },
	{ "M010-bos-out-of-range", "M010", 1, set_bos_99 },
	{ "M010-ok-bos-none", "M010", 0, set_bos_none },
	{ "M011-token-type-9", "M011", 1, set_type_9 },
	{ "M011-ok-token-type-byte", "M011", 0, set_type_byte },
	{ "M012-duplicate-token", "M012", 1, set_dup },
	{ "M012-ok", "M012", 0, NULL },
	{ "M013-unknown-tokenizer", "M013", 1, set_tok_unknown },
	{ "M013-ok-t5", "M013", 0, set_tok_t5 },
	{ "M013-ok-gemma4", "M013", 0, set_tok_gemma4 },
	{ "M001-gemma4-merges", "M001", 1, set_tok_gemma4 },
	{ "M014-file-type-q4km", "M014", 1, set_ftype_q4km },
	{ "M014-ok-q8_0", "M014", 0, set_q8 },
	{ "M015-no-quant-version", "M015", 1, set_q8_no_qver },
	{ "M015-ok", "M015", 0, set_q8 },
	{ "M016-head-count-0", "M016", 1, set_zero_heads },
	{ "M016-head-count-kv-0", "M016", 1, set_zero_heads_kv },
	{ "M016-ok", "M016", 0, NULL },
	{ "M017-byte-token-text", "M017", 1, set_byte_t3 },
	{ "M017-ok", "M017", 0, set_type_byte },
	{ "M017-byte-token-minus", "M017", 1, set_byte_minus },
	{ "M007-token-type-u32", "M007", 1, set_types_u32 },
	{ "M007-merges-u8", "M007", 1, set_merges_u8 },
	{ "M007-suppress-tokens-u8", "M007", 1, set_suppress_u8 },
	{ "M007-t5-charsmap-string", "M007", 1, set_t5_charsmap_str },
	{ "M033-charsmap-no-strings", "M033", 1, set_charsmap_no_strings },
	{ "M033-charsmap-3-bytes", "M033", 1, set_charsmap_3 },
	{ "M033-ok", "M033", 0, set_charsmap_ok },
	{ "M003-expert-used-count-513", "M003", 1, set_used_arr_513 },
	{ "M004-ok-expert-used-per-layer", "M004", 0, set_used_per_layer },
	{ "M004-nextn-above-block-count", "M004", 1, set_nextn_3 },
	{ "M002-ok-expert-ff-length-per-layer", "M002", 0,
	    set_moe_ffexp_per_layer },
	{ "M003-ok-expert-ff-length-per-layer", "M003", 0,
	    set_moe_ffexp_per_layer },
	{ "M003-deepseek-expert-ff-length-3", "M003", 1, set_moe_ffexp_arr_3 },
	{ "M003-expert-ff-length-513", "M003", 1, set_ffexp_arr_513 },
	{ "M003-deepseek-expert-ff-length-513", "M003", 1,
	    set_moe_ffexp_arr_513 },
};

Test(meta, golden_cases)
{
	size_t i;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++)
		golden_run(&cases[i]);
	golden_flush();
}

static void set_arch_zwsp(struct tiny *t) { t->arch = "llama\xe2\x80\x8b"; }
static void set_arch_mistral3(struct tiny *t) { t->arch = "mistral3"; }

/* M018-M020, without and under a runtime_version: the golden cases; and
 * M003/M004 of arch.c, which need a profile. */
Test(meta, golden_runtime_version_cases)
{
	static const struct {
		struct golden_case c;
		const char *version;
	} vcases[] = {
		{ { "M018-runtime-b1000", "M018", 1, NULL }, "b1000" },
		{ { "M018-mistral3-b6500", "M018", 1, set_arch_mistral3 },
		    "b6500" },
		{ { "M018-ok-b6500", "M018", 0, NULL }, "b6500" },
		{ { "M018-ok-v0.5.0", "M018", 0, set_arch_mistral3 },
		    "v0.5.0" },
		{ { "M019-arch-zero-width-space", "M019", 1, set_arch_zwsp },
		    NULL },
		{ { "M019-unknown-arch-b6500", "M019", 1, set_arch_zwsp },
		    "b6500" },
		{ { "M019-ok", "M019", 0, NULL }, NULL },
		{ { "M020-unknown-arch-b99999", "M020", 1, set_arch_zwsp },
		    "b99999" },
		{ { "M020-ok-b99999", "M020", 0, NULL }, "b99999" },
		/* arch.c's findings, the plan's: with a profile only */
		{ { "M004-block-count-513", "M004", 1, set_layers_513 },
		    "v0.5.0" },
		{ { "M004-ok-block-count-512", "M004", 0, set_layers_512 },
		    "v0.5.0" },
		{ { "M003-head-count-kv-513", "M003", 1, set_heads_arr_513 },
		    "v0.5.0" },
	};
	size_t i;

	for (i = 0; i < sizeof vcases / sizeof vcases[0]; i++)
		golden_run_version(&vcases[i].c, vcases[i].version);
	golden_flush();
}

/* The clean tiny model: no finding of any M, N or S rule. */
Test(meta, clean_model_has_no_finding)
{
	struct strbuf sb = STRBUF_INIT;
	struct test_lint t;
	struct tiny m;

	tiny_init(&m);
	tiny_build(&m, &sb);
	test_lint_bytes(&t, sb.buf, sb.len);
	cr_assert(t.res.diags.n == 0, "%s", test_codes(&t));
	test_lint_free(&t);
	strbuf_free(&sb);
}

/* Lint a tiny model changed by setup; the caller frees. */
static void
lint_tiny(struct test_lint *t, void (*setup)(struct tiny *))
{
	struct strbuf sb = STRBUF_INIT;
	struct tiny m;

	tiny_init(&m);
	setup(&m);
	tiny_build(&m, &sb);
	test_lint_bytes(t, sb.buf, sb.len);
	strbuf_free(&sb);
}

Test(meta, missing_architecture_with_tensors)
{
	struct test_lint t;

	lint_tiny(&t, set_no_arch);
	cr_assert_eq(test_count(&t, "M001"), 1, "%s", test_codes(&t));
	cr_assert(strstr(test_find(&t, "M001")->message,
	    "general.architecture") != NULL);
	cr_assert_eq(test_count(&t, "N001"), 0, "no map, no N001");
	test_lint_free(&t);
}

/* Without a tokenizer too: the spec requires general.architecture, and
 * llama.cpp refuses the file by its empty name (issue 38). */
Test(meta, missing_architecture_without_tokenizer)
{
	static const int64_t ne[] = { 8 };
	struct test_lint t;
	const struct diag *d;
	struct ggufw w;

	ggufw_init(&w, false);
	ggufw_header(&w, "GGUF", 3, 1, 1);
	ggufw_kv_str(&w, "general.name", "no architecture");
	ggufw_tensor_info(&w, "w", 1, ne, GGUFW_GGML_F32, 0);
	ggufw_pad(&w, 32);
	ggufw_bytes(&w, (const unsigned char[32]){ 0 }, 32);
	test_lint_bytes(&t, w.out.buf, w.out.len);
	d = test_find(&t, "M001");
	cr_assert_not_null(d, "%s", test_codes(&t));
	cr_assert_eq(d->severity, SEV_ERROR);
	cr_assert(strstr(d->message, "general.architecture") != NULL);
	cr_assert(strstr(d->note, "unknown model architecture") != NULL,
	    "%s", d->note);
	test_lint_free(&t);
	ggufw_free(&w);
}

static void
set_adapter_no_eps(struct tiny *t)
{
	t->general_type = "adapter";
	t->eps = TINY_EPS_NONE;
}

Test(meta, not_a_model_has_no_required_keys)
{
	struct test_lint t;

	lint_tiny(&t, set_adapter_no_eps);
	cr_assert_eq(test_count(&t, "M001"), 0, "%s", test_codes(&t));
	cr_assert_eq(test_count(&t, "N006"), 1, "%s", test_codes(&t));
	test_lint_free(&t);
}

static void
set_no_tokenizer_model(struct tiny *t)
{
	t->tok_model = NULL;
}

static void
set_gpt2_without_merges(struct tiny *t)
{
	t->tok_model = "gpt2";
}

static void
set_no_vocab(struct tiny *t)
{
	t->tok_model = "no_vocab";
	t->no_tokens = true;
}

Test(meta, tokenizer_keys_required)
{
	struct test_lint t;

	lint_tiny(&t, set_no_tokenizer_model);
	cr_assert_eq(test_count(&t, "M001"), 1, "%s", test_codes(&t));
	cr_assert(strstr(test_find(&t, "M001")->message,
	    "tokenizer.ggml.model") != NULL);
	test_lint_free(&t);
	lint_tiny(&t, set_gpt2_without_merges);
	cr_assert_eq(test_count(&t, "M001"), 1, "%s", test_codes(&t));
	cr_assert(strstr(test_find(&t, "M001")->message, "merges") != NULL);
	test_lint_free(&t);
	/* a model without a vocabulary needs no tokens (nor an M008) */
	lint_tiny(&t, set_no_vocab);
	cr_assert_eq(t.res.diags.n, 0, "%s", test_codes(&t));
	test_lint_free(&t);
}

static void set_bos_i32(struct tiny *t) { t->bos_i32 = true; }

Test(meta, special_token_id_type)
{
	struct test_lint t;

	lint_tiny(&t, set_bos_i32);
	cr_assert_eq(test_count(&t, "M002"), 1, "%s", test_codes(&t));
	cr_assert(strstr(test_find(&t, "M002")->message, "INT32") != NULL);
	test_lint_free(&t);
}

/* A vocabulary-only file gets the tokenizer rules, nothing else. */
static void
set_vocab_only_short_scores(struct tiny *t)
{
	t->no_tensors = true;
	t->eps = TINY_EPS_NONE;
	t->n_scores = 3;
	t->bos = 40;
}

Test(meta, vocab_only_file_gets_tokenizer_rules)
{
	struct test_lint t;

	lint_tiny(&t, set_vocab_only_short_scores);
	cr_assert_eq(test_count(&t, "M005"), 1, "%s", test_codes(&t));
	cr_assert_eq(test_count(&t, "M010"), 1, "%s", test_codes(&t));
	cr_assert_eq(test_count(&t, "M001"), 0, "%s", test_codes(&t));
	cr_assert_eq(test_errors(&t), 2, "only M005 and M010: %s",
	    test_codes(&t));
	test_lint_free(&t);
}

static void set_experts_unused(struct tiny *t) { t->n_expert = 8; }

static void
set_experts_overused(struct tiny *t)
{
	t->n_expert = 4;
	t->n_expert_used = 5;
}

static void
set_experts_too_many(struct tiny *t)
{
	t->n_expert = 513;
	t->n_expert_used = 2;
}

static void
set_experts_none_used(struct tiny *t)
{
	t->n_expert_used = 2;
}

Test(meta, expert_counts_llama_aborts_on)
{
	void (*setups[])(struct tiny *) = {
		set_experts_unused, set_experts_overused, set_experts_too_many,
		set_experts_none_used
	};
	const char *why[] = {
		"none used", "than there are", "more than 512",
		"than there are"
	};
	struct test_lint t;
	size_t i;

	for (i = 0; i < 4; i++) {
		lint_tiny(&t, setups[i]);
		cr_assert_eq(test_count(&t, "M004"), 1, "case %zu: %s", i,
		    test_codes(&t));
		cr_assert(strstr(test_find(&t, "M004")->message, why[i]),
		    "%s", test_find(&t, "M004")->message);
		test_lint_free(&t);
	}
}

/* With a profile, arch.c and check-meta both look at the keys: one M002. */
Test(meta, m002_is_reported_once_with_a_profile)
{
	const char *argv[] = { "--select", "M002", NULL, NULL };
	struct strbuf sb = STRBUF_INIT;
	struct test_run r;
	struct tiny m;
	char *path, *p;
	size_t n = 0;

	tiny_init(&m);
	m.bos_i32 = true;
	m.eps = TINY_EPS_F64;
	tiny_build(&m, &sb);
	path = test_tmpfile(sb.buf, sb.len);
	argv[2] = path;
	test_run_bin(&r, argv, NULL, 0);
	for (p = r.out; (p = strstr(p, "M002")) != NULL; p++)
		n++;
	cr_assert_eq(n, 2, "%s", r.out);
	cr_assert_eq(r.status, 1);
	test_run_free(&r);
	unlink(path);
	free(path);
	strbuf_free(&sb);
}

/* A file type llama.cpp no longer knows (Q4_2) is M014 too. */
static void set_ftype_removed(struct tiny *t) { t->file_type = 5; }

Test(meta, removed_file_type)
{
	struct test_lint t;

	lint_tiny(&t, set_ftype_removed);
	cr_assert_eq(test_count(&t, "M014"), 1, "%s", test_codes(&t));
	cr_assert(strstr(test_find(&t, "M014")->message, "not a file type")
	    != NULL);
	test_lint_free(&t);
}

/* A vocabulary-only file of n distinct tokens of 1 to 40 bytes, except
 * that token dup_at repeats token dup_of (no repeat when dup_at is 0). */
static void
big_vocab(struct strbuf *out, uint32_t n, uint32_t dup_at, uint32_t dup_of)
{
	struct ggufw w;
	char tok[64];
	uint32_t i, k;

	ggufw_init(&w, false);
	ggufw_header(&w, "GGUF", 3, 0, 3);
	ggufw_kv_str(&w, "general.architecture", "llama");
	ggufw_kv_str(&w, "tokenizer.ggml.model", "gpt2");
	ggufw_kv_arr_begin(&w, "tokenizer.ggml.tokens", GGUFW_STRING, n);
	for (i = 0; i < n; i++) {
		k = dup_at != 0 && i == dup_at ? dup_of : i;
		/* distinct: the number, padded to a length that varies */
		snprintf(tok, sizeof tok, "%0*u", (int)(1 + k % 40), k);
		ggufw_str(&w, k < 10 ? tok + strlen(tok) - 1 : tok);
	}
	strbuf_add(out, w.out.buf, w.out.len);
	ggufw_free(&w);
}

/* Duplicates among 100 000 tokens are found wherever they are, with the
 * first occurrence named; a vocabulary without one raises nothing. */
Test(meta, duplicate_tokens_in_a_large_vocabulary)
{
	static const uint32_t at[][2] = {
		{ 1, 0 }, { 99999, 0 }, { 99999, 99998 }, { 50000, 12345 },
		{ 777, 776 }, { 65536, 31 },
		/* 2 to 8 bytes: the hash reads short tokens differently */
		{ 90001, 41 }, { 90002, 42 }, { 90003, 43 }, { 90004, 84 },
		{ 90005, 45 }, { 90006, 46 }, { 90007, 47 },
	};
	struct strbuf sb = STRBUF_INIT;
	struct test_lint t;
	char want[64];
	size_t i;

	big_vocab(&sb, 100000, 0, 0);
	test_lint_bytes(&t, sb.buf, sb.len);
	cr_assert_eq(test_count(&t, "M012"), 0, "%s", test_codes(&t));
	test_lint_free(&t);
	for (i = 0; i < sizeof at / sizeof at[0]; i++) {
		strbuf_reset(&sb);
		big_vocab(&sb, 100000, at[i][0], at[i][1]);
		test_lint_bytes(&t, sb.buf, sb.len);
		cr_assert_eq(test_count(&t, "M012"), 1, "%s", test_codes(&t));
		snprintf(want, sizeof want, "tokens %u and %u ", at[i][1],
		    at[i][0]);
		cr_assert(strstr(test_find(&t, "M012")->message, want) != NULL,
		    "%s: %s", want, test_find(&t, "M012")->message);
		test_lint_free(&t);
	}
	strbuf_free(&sb);
}

/*
 * A llama of two layers whose head_count_kv is the per-layer array [1, 0]:
 * layer 1 has no attention (a hybrid model's recurrent layer), unless
 * attn_k says it has, with its 0 KV heads (M016).
 */
static void
hybrid_model(struct strbuf *out, bool layer1_attn_k)
{
	static const uint32_t kv[] = { 1, 0 };
	static const int64_t norm[] = { 8 }, q[] = { 8, 8 }, k[] = { 8, 4 };
	static const int64_t up[] = { 8, 16 }, down[] = { 16, 8 };
	static const char *const ffn[] = { "ffn_gate", "ffn_up", "ffn_down" };
	struct ggufw_model m;
	char name[64];
	uint32_t il, i;

	ggufw_model_init(&m, false, 32);
	ggufw_model_kv_str(&m, "general.architecture", "llama");
	ggufw_model_kv_u32(&m, "llama.context_length", 256);
	ggufw_model_kv_u32(&m, "llama.embedding_length", 8);
	ggufw_model_kv_u32(&m, "llama.block_count", 2);
	ggufw_model_kv_u32(&m, "llama.feed_forward_length", 16);
	ggufw_model_kv_u32(&m, "llama.attention.head_count", 2);
	ggufw_model_kv_arr_u32(&m, "llama.attention.head_count_kv", kv, 2);
	ggufw_model_kv_f32(&m, "llama.attention.layer_norm_rms_epsilon",
	    1e-5f);
	for (il = 0; il < 2; il++) {
		snprintf(name, sizeof name, "blk.%u.attn_norm.weight", il);
		ggufw_model_tensor(&m, name, 1, norm, GGUFW_GGML_F32, 1, 4);
		if (il == 0 || layer1_attn_k) {
			snprintf(name, sizeof name, "blk.%u.attn_k.weight", il);
			ggufw_model_tensor(&m, name, 2, k, GGUFW_GGML_F32, 1,
			    4);
		}
		if (il == 0) {
			ggufw_model_tensor(&m, "blk.0.attn_q.weight", 2, q,
			    GGUFW_GGML_F32, 1, 4);
			ggufw_model_tensor(&m, "blk.0.attn_v.weight", 2, k,
			    GGUFW_GGML_F32, 1, 4);
			ggufw_model_tensor(&m, "blk.0.attn_output.weight", 2,
			    q, GGUFW_GGML_F32, 1, 4);
		}
		for (i = 0; i < 3; i++) {
			snprintf(name, sizeof name, "blk.%u.%s.weight", il,
			    ffn[i]);
			ggufw_model_tensor(&m, name, 2, i < 2 ? up : down,
			    GGUFW_GGML_F32, 1, 4);
		}
	}
	ggufw_model_finish(&m, out, GGUFW_DATA_ZERO);
	ggufw_model_free(&m);
}

/* M016 is per layer: 0 KV heads are fine where no weight needs them. */
Test(meta, zero_heads_only_where_attention_weights_are)
{
	struct strbuf sb = STRBUF_INIT;
	struct test_lint t;
	const struct diag *d;

	hybrid_model(&sb, false);
	test_lint_bytes(&t, sb.buf, sb.len);
	cr_assert_eq(test_count(&t, "M016"), 0, "%s", test_codes(&t));
	test_lint_free(&t);
	strbuf_reset(&sb);
	hybrid_model(&sb, true);
	test_lint_bytes(&t, sb.buf, sb.len);
	cr_assert_eq(test_count(&t, "M016"), 1, "%s", test_codes(&t));
	d = test_find(&t, "M016");
	cr_assert_eq(d->severity, SEV_ERROR);
	cr_assert_str_eq(d->subject, "llama.attention.head_count_kv");
	cr_assert(strstr(d->message, "is 0 for 1 layer holding attention "
	    "weights (the first: layer 1)") != NULL, "%s", d->message);
	cr_assert(d->note != NULL && strstr(d->note, "llama.cpp expects "
	    "blk.1.attn_k.weight with a dimension of 0") != NULL, "%s",
	    d->note ? d->note : "(no note)");
	test_lint_free(&t);
	strbuf_free(&sb);
}

/* An architecture llama.cpp loads only as a projector (clip), linted
 * alone: checked as a projector (this one declares no encoder: M024), not
 * as a main model (no M022; test_companion.c has M022 beside companions);
 * a near name is a model. Not under SKaiNET either. */
Test(meta, companion_architecture_as_main_model)
{
	static const char *const archs[] = { "clip", "clipx", "llama" };
	struct strbuf sb = STRBUF_INIT;
	struct gl_error err;
	struct profile sk;
	struct test_lint t;
	struct tiny m;
	size_t i;

	for (i = 0; i < 3; i++) {
		tiny_init(&m);
		m.arch = archs[i];
		tiny_build(&m, &sb);
		test_lint_bytes(&t, sb.buf, sb.len);
		cr_expect_eq(test_count(&t, "M022"), 0, "%s: %s", archs[i],
		    test_codes(&t));
		cr_expect_eq(test_count(&t, "M024"), i == 0, "%s: %s",
		    archs[i], test_codes(&t));
		cr_expect_eq(t.res.role, i == 0 ? ROLE_MMPROJ : ROLE_MODEL);
		test_lint_free(&t);
		strbuf_free(&sb);
	}
	cr_assert(profile_load("desktop", &sk, &err) == 0, "%s", err.msg);
	cr_assert_eq(sk.runtime, RUNTIME_SKAINET);
	tiny_init(&m);
	m.arch = "clip";
	tiny_build(&m, &sb);
	test_lint_bytes_profile(&t, sb.buf, sb.len, &sk);
	cr_expect_eq(test_count(&t, "M022"), 0, "%s", test_codes(&t));
	test_lint_free(&t);
	strbuf_free(&sb);
	profile_free(&sk);
}
