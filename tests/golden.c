/*
 * golden.c - the tiny model and the golden-case runner (see golden.h).
 */
#include "config.h"

#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "data/builtin.h"
#include "golden.h"
#include "ggufw.h"
#include "testutil.h"

/* The clean chat template: chatml, as Qwen2 ships it. */
static const char chatml[] =
    "{% for message in messages %}{{'<|im_start|>' + message['role'] + "
    "'\\n' + message['content'] + '<|im_end|>' + '\\n'}}{% endfor %}"
    "{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}"
    "{% endif %}";

void
tiny_init(struct tiny *t)
{
	memset(t, 0, sizeof *t);
	t->arch = "llama";
	t->n_layer = 2;
	t->n_embd = 8;
	t->n_head = 2;
	t->n_head_kv = 1;
	t->n_ff = 16;
	t->n_vocab = 16;
	t->wtype = GGUFW_GGML_F32;
	t->file_type = 0;
	t->tok_model = "llama";
	t->n_scores = t->n_types = 16;
	t->bos = 1;
	t->chat_template = chatml;
}

static void
kv_arch_u32(struct ggufw_model *m, const struct tiny *t, const char *name,
    uint32_t v)
{
	char key[128];

	if (t->layer_key != NULL && strcmp(name, t->layer_key) == 0)
		return;		/* add_layer_array writes it */
	snprintf(key, sizeof key, "%s.%s", t->arch, name);
	ggufw_model_kv_u32(m, key, v);
}

/* ARCH.<layer_key>: a per-layer UINT32 array of layer_len ones. */
static void
add_layer_array(struct ggufw_model *m, const struct tiny *t)
{
	struct ggufw *w = ggufw_model_kv_raw(m);
	char key[128];
	uint32_t i;

	snprintf(key, sizeof key, "%s.%s", t->arch, t->layer_key);
	ggufw_kv_arr_begin(w, key, GGUFW_UINT32, t->layer_len);
	for (i = 0; i < t->layer_len; i++)
		ggufw_u32(w, 1);
}

static void
add_hparams(struct ggufw_model *m, const struct tiny *t)
{
	char key[128];

	if (t->general_type != NULL)
		ggufw_model_kv_str(m, "general.type", t->general_type);
	if (t->arch == NULL)
		return;
	ggufw_model_kv_str(m, "general.architecture", t->arch);
	kv_arch_u32(m, t, "context_length", 256);
	kv_arch_u32(m, t, "embedding_length", t->n_embd);
	kv_arch_u32(m, t, "block_count", t->block_count_key ?
	    t->block_count_key : t->n_layer);
	if (!t->no_ff_key)
		kv_arch_u32(m, t, "feed_forward_length", t->n_ff);
	kv_arch_u32(m, t, "attention.head_count", t->zero_heads ? 0 :
	    t->n_head);
	kv_arch_u32(m, t, "attention.head_count_kv", t->zero_heads_kv ? 0 :
	    t->n_head_kv);
	snprintf(key, sizeof key, "%s.attention.layer_norm_rms_epsilon",
	    t->arch);
	if (t->eps == TINY_EPS_F32)
		ggufw_model_kv_f32(m, key, 1e-5f);
	else if (t->eps == TINY_EPS_F64)
		ggufw_model_kv_f64(m, key, 1e-5);
	if (t->vocab_size_key)
		kv_arch_u32(m, t, "vocab_size", t->vocab_size_key);
	if (t->n_expert)
		kv_arch_u32(m, t, "expert_count", t->n_expert);
	if (t->n_expert_used)
		kv_arch_u32(m, t, "expert_used_count", t->n_expert_used);
	if (t->rope_scaling != NULL) {
		snprintf(key, sizeof key, "%s.rope.scaling.type", t->arch);
		ggufw_model_kv_str(m, key, t->rope_scaling);
	}
	if (t->layer_key != NULL)
		add_layer_array(m, t);
	if (t->nextn)
		kv_arch_u32(m, t, "nextn_predict_layers", t->nextn);
}

static void
add_general(struct ggufw_model *m, const struct tiny *t)
{
	struct ggufw *w;
	uint64_t i;

	if (t->file_type >= 0)
		ggufw_model_kv_u32(m, "general.file_type",
		    (uint32_t)t->file_type);
	if (t->quant_version)
		ggufw_model_kv_u32(m, "general.quantization_version", 2);
	if (t->split_count > 0) {
		ggufw_model_kv_u16(m, "split.no", t->split_no);
		ggufw_model_kv_u16(m, "split.count", t->split_count);
	}
	if (t->str_key != NULL) {
		w = ggufw_model_kv_raw(m);
		ggufw_kv_head(w, t->str_key, GGUFW_STRING);
		ggufw_strn(w, t->str_val, t->str_len);
	}
	if (t->arr_key != NULL) {
		w = ggufw_model_kv_raw(m);
		ggufw_kv_arr_begin(w, t->arr_key, GGUFW_UINT8, t->arr_len);
		for (i = 0; i < t->arr_len; i++)
			ggufw_u8(w, t->arr_bytes ? t->arr_bytes[i] :
			    (uint8_t)i);
	}
}

static void
add_tokens(struct ggufw_model *m, const struct tiny *t)
{
	char **tok = xcalloc(t->n_vocab, sizeof *tok);
	uint32_t i;

	for (i = 0; i < t->n_vocab; i++)
		tok[i] = i == 0 ? xstrdup("<unk>") : i == 1 ? xstrdup("<s>") :
		    i == 2 ? xstrdup("</s>") : i == 3 && t->tok3 != NULL ?
		    xstrdup(t->tok3) : xasprintf("t%u", i);
	if (t->dup_token && t->n_vocab > 5) {
		free(tok[5]);
		tok[5] = xstrdup(tok[4]);
	}
	ggufw_model_kv_arr_str(m, "tokenizer.ggml.tokens",
	    (const char *const *)tok, t->n_vocab);
	for (i = 0; i < t->n_vocab; i++)
		free(tok[i]);
	free(tok);
}

static void
add_scores(struct ggufw_model *m, const struct tiny *t)
{
	float *f = xcalloc(t->n_scores + 1, sizeof *f);
	uint8_t *u = xcalloc(t->n_scores + 1, 1);

	if (t->scores_u8)
		ggufw_model_kv_arr_u8(m, "tokenizer.ggml.scores", u,
		    t->n_scores);
	else
		ggufw_model_kv_arr_f32(m, "tokenizer.ggml.scores", f,
		    t->n_scores);
	free(f);
	free(u);
}

static void
add_types(struct ggufw_model *m, const struct tiny *t)
{
	int32_t *v = xcalloc(t->n_types + 1, sizeof *v);
	uint32_t i;

	struct ggufw *w;

	for (i = 0; i < t->n_types; i++)
		v[i] = i == 0 ? 2 : i < 3 ? 3 : 1;
	if (t->bad_type != 0 && t->n_types > 3)
		v[3] = t->bad_type;
	if (t->types_u32) {
		w = ggufw_model_kv_raw(m);
		ggufw_kv_arr_begin(w, "tokenizer.ggml.token_type",
		    GGUFW_UINT32, t->n_types);
		for (i = 0; i < t->n_types; i++)
			ggufw_u32(w, (uint32_t)v[i]);
	} else {
		ggufw_model_kv_arr_i32(m, "tokenizer.ggml.token_type", v,
		    t->n_types);
	}
	free(v);
}

static void
add_tokenizer(struct ggufw_model *m, const struct tiny *t)
{
	char key[128];

	if (t->tok_model != NULL)
		ggufw_model_kv_str(m, "tokenizer.ggml.model", t->tok_model);
	if (!t->no_tokens) {
		add_tokens(m, t);
		add_scores(m, t);
		add_types(m, t);
	}
	if (t->bos >= 0 && t->bos_i32)
		ggufw_model_kv_i32(m, "tokenizer.ggml.bos_token_id",
		    (int32_t)t->bos);
	else if (t->bos >= 0)
		ggufw_model_kv_u32(m, "tokenizer.ggml.bos_token_id",
		    (uint32_t)t->bos);
	if (t->chat_template != NULL) {
		if (t->template_name != NULL)
			snprintf(key, sizeof key, "tokenizer.chat_template.%s",
			    t->template_name);
		else
			snprintf(key, sizeof key, "tokenizer.chat_template");
		ggufw_model_kv_str(m, key, t->chat_template);
	}
}

/* One tensor of 1 or 2 dimensions, unless dropped; maybe misshapen. */
static void
add_tensor(struct ggufw_model *m, const struct tiny *t, const char *name,
    int64_t ne0, int64_t ne1)
{
	int64_t ne[2] = { ne0, ne1 };
	bool matrix = ne1 > 0;
	int32_t type = matrix ? t->wtype : GGUFW_GGML_F32;

	if (t->drop != NULL && strcmp(t->drop, name) == 0)
		return;
	if (t->bad_shape != NULL && strcmp(t->bad_shape, name) == 0)
		ne[0] *= 2;
	if (type == GGUFW_GGML_Q8_0)
		ggufw_model_tensor(m, name, 2, ne, type, 32, 34);
	else
		ggufw_model_tensor(m, name, matrix ? 2 : 1, ne, type, 1, 4);
}

static void
add_block(struct ggufw_model *m, const struct tiny *t, uint32_t il)
{
	int64_t e = t->n_embd, hk = t->n_embd / t->n_head;
	int64_t q = t->n_head * hk, kv = t->n_head_kv * hk, f = t->n_ff;
	static const char *const stems[] = {
		"attn_norm", "attn_q", "attn_k", "attn_v", "attn_output",
		"ffn_norm", "ffn_gate", "ffn_up", "ffn_down"
	};
	const int64_t shapes[][2] = {
		{ e, 0 }, { e, q }, { e, kv }, { e, kv }, { q, e },
		{ e, 0 }, { e, f }, { e, f }, { f, e }
	};
	char name[64];
	size_t i;

	for (i = 0; i < sizeof stems / sizeof stems[0]; i++) {
		snprintf(name, sizeof name, "blk.%u.%s.weight", il, stems[i]);
		add_tensor(m, t, name, shapes[i][0], shapes[i][1]);
	}
}

static void
add_tensors(struct ggufw_model *m, const struct tiny *t)
{
	uint32_t rows = t->embd_rows ? t->embd_rows : t->n_vocab, il;
	char name[64];

	if (t->no_tensors)
		return;
	add_tensor(m, t, "token_embd.weight", t->n_embd, rows);
	for (il = 0; il < t->n_layer; il++)
		add_block(m, t, il);
	add_tensor(m, t, "output_norm.weight", t->n_embd, 0);
	add_tensor(m, t, "output.weight", t->n_embd, t->n_vocab);
	if (t->extra_block) {
		snprintf(name, sizeof name, "blk.%u.attn_norm.weight",
		    t->n_layer);
		add_tensor(m, t, name, t->n_embd, 0);
	}
	if (t->extra != NULL)
		add_tensor(m, t, t->extra, t->n_embd, 0);
}

void
tiny_model(const struct tiny *t, struct ggufw_model *m)
{
	ggufw_model_init(m, false, 32);
	add_hparams(m, t);
	add_general(m, t);
	add_tokenizer(m, t);
	add_tensors(m, t);
}

void
tiny_build(const struct tiny *t, struct strbuf *out)
{
	struct ggufw_model m;

	if (t->raw != NULL) {
		t->raw(out);
		return;
	}
	tiny_model(t, &m);
	ggufw_model_finish(&m, out, GGUFW_DATA_ZERO);
	ggufw_model_free(&m);
	if (t->trailing_n > 0)
		strbuf_add(out, t->trailing, t->trailing_n);
}

/* ---- the runner ---------------------------------------------------------- */

static bool
regen(void)
{
	const char *s = getenv("GGUFLINT_REGEN");

	return s != NULL && *s != '\0' && strcmp(s, "0") != 0;
}

static void
write_file(const char *path, const void *p, size_t n)
{
	char *dir = xstrdup(path), *slash = strrchr(dir, '/');

	if (slash != NULL) {
		*slash = '\0';
		mkdir(dir, 0777);
	}
	free(dir);
	cr_assert(ggufw_write_file(path, p, n) == 0, "cannot write %s: %s",
	    path, strerror(errno));
}

/* gguflint's text output for path, with the source directory removed. */
static char *
lint_output(const char *path, const char *rel, const char *version,
    const char *select)
{
	const char *argv[] = { "--show-fixes", "--select", select, path, NULL,
		NULL, NULL };
	struct strbuf sb = STRBUF_INIT;
	struct test_run r;
	const char *p, *hit;
	size_t n = strlen(path);

	if (version != NULL) {
		argv[4] = "--runtime-version";
		argv[5] = version;
	}
	test_run_bin(&r, argv, NULL, 0);
	cr_assert(r.status == 0 || r.status == 1, "%s: exit %d: %s", path,
	    r.status, r.err);
	for (p = r.out; (hit = strstr(p, path)) != NULL; p = hit + n) {
		strbuf_add(&sb, p, (size_t)(hit - p));
		strbuf_adds(&sb, rel);
	}
	strbuf_adds(&sb, p);
	test_run_free(&r);
	return strbuf_detach(&sb);
}

static void
compare_file(const char *path, const void *want, size_t n, const char *what)
{
	struct gl_error err;
	char *have;
	size_t len;

	cr_assert(read_whole_file(path, 1u << 26, &have, &len, &err) == 0,
	    "%s (run make check with GGUFLINT_REGEN=1 to create it)",
	    err.msg);
	cr_expect(len == n && memcmp(have, want, n) == 0, "%s differs from "
	    "%s; got:\n%.*s", path, what, (int)(n > 4000 ? 4000 : n),
	    (const char *)want);
	free(have);
}

static void
check_in_process(const struct golden_case *c, const struct strbuf *bytes,
    const char *version)
{
	struct test_lint t;
	struct profile p;
	struct gl_error err;

	if (version != NULL) {
		cr_assert(profile_load(PROFILE_DEFAULT, &p, &err) == 0, "%s",
		    err.msg);
		p.runtime_version = xstrdup(version);
		cr_assert(runtime_version_parse(version,
		    &p.runtime_build) == 0);
		test_lint_bytes_profile(&t, bytes->buf, bytes->len, &p);
	} else {
		test_lint_bytes(&t, bytes->buf, bytes->len);
	}
	cr_expect(test_count(&t, c->code) == c->want, "%s: %zu %s, want %zu; "
	    "got: %s", c->name, test_count(&t, c->code), c->code, c->want,
	    test_codes(&t));
	test_lint_free(&t);
	if (version != NULL)
		profile_free(&p);
}

/*
 * Under make check-valgrind, memcheck watches gguflint's run of each
 * case, and a run costs some 1.5 s (memcheck's start, the tables) where
 * the file costs little: there the cases are linted in runs of up to
 * BATCH files (those of one --select and version), as a directory walk
 * lints many, by golden_flush, and their output is not compared (make
 * check and the sanitizer's build compare it). Every case's file still
 * goes through the program under memcheck.
 */
#define BATCH 48
static struct {
	char *paths[BATCH];
	size_t n;
	const char *select;
	char *version;
} batch;

static bool
batched(void)
{
	return test_valgrind_step(2) > 1 && !regen();
}

void
golden_flush(void)
{
	const char *argv[BATCH + 6] = { "--show-fixes", "--select",
		batch.select };
	size_t i, k = 3;
	struct test_run r;

	if (batch.n == 0)
		return;
	if (batch.version != NULL) {
		argv[k++] = "--runtime-version";
		argv[k++] = batch.version;
	}
	for (i = 0; i < batch.n; i++)
		argv[k++] = batch.paths[i];
	argv[k] = NULL;
	test_run_bin(&r, argv, NULL, 0);
	cr_assert(r.status == 0 || r.status == 1, "%zu cases from %s: exit "
	    "%d: %s", batch.n, batch.paths[0], r.status, r.err);
	test_run_free(&r);
	for (i = 0; i < batch.n; i++)
		free(batch.paths[i]);
	free(batch.version);
	memset(&batch, 0, sizeof batch);
}

/* path into the batch, run first when it is full or of other options */
static void
batch_add(const char *path, const char *select, const char *version)
{
	if (batch.n == BATCH || (batch.n > 0 &&
	    (strcmp(batch.select, select) != 0 ||
	    (batch.version == NULL) != (version == NULL) ||
	    (version != NULL && strcmp(batch.version, version) != 0))))
		golden_flush();
	if (batch.n == 0) {
		batch.select = select;
		batch.version = version != NULL ? xstrdup(version) : NULL;
	}
	batch.paths[batch.n++] = xstrdup(path);
}

void
golden_run(const struct golden_case *c)
{
	golden_run_version(c, NULL);
}

void
golden_run_version(const struct golden_case *c, const char *version)
{
	struct strbuf bytes = STRBUF_INIT;
	char *gguf, *expected, *rel, *out;
	const char *select;
	struct tiny t;

	tiny_init(&t);
	if (c->setup != NULL)
		c->setup(&t);
	tiny_build(&t, &bytes);
	check_in_process(c, &bytes, version);
	gguf = xasprintf("%s/tests/cases/%s.gguf", test_srcdir(), c->name);
	expected = xasprintf("%s/tests/cases/%s.expected", test_srcdir(),
	    c->name);
	rel = xasprintf("tests/cases/%s.gguf", c->name);
	if (regen())
		write_file(gguf, bytes.buf, bytes.len);
	else
		compare_file(gguf, bytes.buf, bytes.len, "what the builder "
		    "makes");
	select = c->code[0] == 'F' ? "F" : "M,N,S";
	if (batched()) {
		batch_add(gguf, select, version);
		goto done;
	}
	out = lint_output(gguf, rel, version, select);
	if (regen())
		write_file(expected, out, strlen(out));
	else
		compare_file(expected, out, strlen(out), "gguflint's output");
	free(out);
done:
	free(rel);
	free(expected);
	free(gguf);
	strbuf_free(&bytes);
}
