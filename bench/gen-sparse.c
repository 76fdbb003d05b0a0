/*
 * gen-sparse.c - write a sparse GGUF file shaped like a real llama model,
 * for benchmarks: the header is complete and valid (the full metadata of a
 * llama-3-style model with its 128256-token vocabulary and ~280000 BPE
 * merges, every tensor info with contiguous aligned offsets and exact
 * sizes), and the tensor data is a hole made by ftruncate(), so a file of
 * tens of gigabytes takes a few megabytes of disk.
 *
 *	gen-sparse OUT.gguf [8b|70b|235b-moe|1b|1b-data]
 *	gen-sparse --split N PREFIX [8b|70b|235b-moe]
 *
 * Tensors are Q4_K (256 elements in 144 bytes), except token_embd and
 * output in Q6_K (256 in 210) and the norms in F32; alignment 32. 235b-moe
 * has 128 experts (8 used) in 3-D expert tensors; 1b is a Llama-3.2-1B
 * shape (tests/oracle/cuda-kit.sh's). 1b-data is small and not
 * sparse: its data is written, pseudo-random with finite scales, for the
 * --deep throughput benchmark. --split writes the model in N shards, as
 * gguf-split does (PREFIX-00001-of-0000N.gguf, ...).
 * Exit status: 0 written, 1 could not write, 2 usage.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ggufw.h"
#include "base/util.h"

struct gen_shape {
	const char *arg;
	const char *name;
	const char *size_label;
	uint32_t n_layer;
	uint32_t n_embd;
	uint32_t n_head;
	uint32_t n_head_kv;
	uint32_t n_ff;
	uint32_t n_expert;	/* 0: dense FFN */
	uint32_t n_expert_used;
	int data;		/* write the data instead of a hole */
};

static const struct gen_shape gen_shapes[] = {
	{ "8b", "Sparse Llama 8B", "8B", 32, 4096, 32, 8, 14336, 0, 0, 0 },
	{ "70b", "Sparse Llama 70B", "70B", 80, 8192, 64, 8, 28672, 0, 0, 0 },
	{ "235b-moe", "Sparse MoE 235B-A22B", "235B", 94, 4096, 64, 4, 1536,
	    128, 8, 0 },
	{ "1b-data", "Llama 1B with data", "1B", 16, 2048, 32, 8, 8192, 0, 0,
	    1 },
	{ "1b", "Sparse Llama 1B", "1B", 16, 2048, 32, 8, 8192, 0, 0, 0 },
};

#define GEN_VOCAB 128256u
#define GEN_N_NORMAL 128000u	/* tokens below this are ordinary */
#define GEN_N_MERGES 280147u
#define GEN_CONTEXT 131072u

/* ggml type ids and block layouts used here. */
#define GEN_F32 GGUFW_GGML_F32, 1, 4
#define GEN_Q4_K GGUFW_GGML_Q4_K, 256, 144
#define GEN_Q6_K GGUFW_GGML_Q6_K, 256, 210

/* token_text: the text of token i, into buf. */
static void
token_text(uint32_t i, char *buf, size_t size)
{
	if (i < GEN_N_NORMAL)
		snprintf(buf, size, "tok%05u", (unsigned)i);
	else if (i == 128000)
		snprintf(buf, size, "<|begin_of_text|>");
	else if (i == 128001)
		snprintf(buf, size, "<|end_of_text|>");
	else if (i == 128009)
		snprintf(buf, size, "<|eot_id|>");
	else
		snprintf(buf, size, "<|reserved_special_token_%u|>",
		    (unsigned)(i - GEN_N_NORMAL));
}

static void
add_vocab(struct ggufw_model *m)
{
	struct ggufw *w;
	char a[64], b[64], pair[130];
	uint32_t i;

	w = ggufw_model_kv_raw(m);
	ggufw_kv_arr_begin(w, "tokenizer.ggml.tokens", GGUFW_STRING,
	    GEN_VOCAB);
	for (i = 0; i < GEN_VOCAB; i++) {
		token_text(i, a, sizeof(a));
		ggufw_str(w, a);
	}

	w = ggufw_model_kv_raw(m);
	ggufw_kv_arr_begin(w, "tokenizer.ggml.scores", GGUFW_FLOAT32,
	    GEN_VOCAB);
	for (i = 0; i < GEN_VOCAB; i++)
		ggufw_f32(w, i < GEN_N_NORMAL ? -(float)i : 0.0f);

	/* 1 normal, 3 control */
	w = ggufw_model_kv_raw(m);
	ggufw_kv_arr_begin(w, "tokenizer.ggml.token_type", GGUFW_INT32,
	    GEN_VOCAB);
	for (i = 0; i < GEN_VOCAB; i++)
		ggufw_i32(w, i < GEN_N_NORMAL ? 1 : 3);

	/* Each merge names two ordinary tokens of the vocabulary. */
	w = ggufw_model_kv_raw(m);
	ggufw_kv_arr_begin(w, "tokenizer.ggml.merges", GGUFW_STRING,
	    GEN_N_MERGES);
	for (i = 0; i < GEN_N_MERGES; i++) {
		token_text(i % GEN_N_NORMAL, a, sizeof(a));
		token_text((uint32_t)(((uint64_t)i * 7919 + 13) % GEN_N_NORMAL),
		    b, sizeof(b));
		snprintf(pair, sizeof(pair), "%s %s", a, b);
		ggufw_str(w, pair);
	}
}

static void
add_metadata(struct ggufw_model *m, const struct gen_shape *s)
{
	ggufw_model_kv_str(m, "general.architecture", "llama");
	ggufw_model_kv_str(m, "general.type", "model");
	ggufw_model_kv_str(m, "general.name", s->name);
	ggufw_model_kv_str(m, "general.size_label", s->size_label);
	ggufw_model_kv_u32(m, "llama.block_count", s->n_layer);
	ggufw_model_kv_u32(m, "llama.context_length", GEN_CONTEXT);
	ggufw_model_kv_u32(m, "llama.embedding_length", s->n_embd);
	ggufw_model_kv_u32(m, "llama.feed_forward_length", s->n_ff);
	if (s->n_expert > 0) {
		ggufw_model_kv_u32(m, "llama.expert_count", s->n_expert);
		ggufw_model_kv_u32(m, "llama.expert_used_count",
		    s->n_expert_used);
	}
	ggufw_model_kv_u32(m, "llama.attention.head_count", s->n_head);
	ggufw_model_kv_u32(m, "llama.attention.head_count_kv", s->n_head_kv);
	ggufw_model_kv_f32(m, "llama.rope.freq_base", 500000.0f);
	ggufw_model_kv_f32(m, "llama.attention.layer_norm_rms_epsilon",
	    1e-5f);
	/* 15: LLAMA_FTYPE_MOSTLY_Q4_K_M */
	ggufw_model_kv_u32(m, "general.file_type", 15);
	ggufw_model_kv_u32(m, "llama.vocab_size", GEN_VOCAB);
	ggufw_model_kv_u32(m, "llama.rope.dimension_count",
	    s->n_embd / s->n_head);
	ggufw_model_kv_str(m, "tokenizer.ggml.model", "gpt2");
	ggufw_model_kv_str(m, "tokenizer.ggml.pre", "llama-bpe");
	add_vocab(m);
	ggufw_model_kv_u32(m, "tokenizer.ggml.bos_token_id", 128000);
	ggufw_model_kv_u32(m, "tokenizer.ggml.eos_token_id", 128009);
	ggufw_model_kv_str(m, "tokenizer.chat_template",
	    "{{ bos_token }}{% for message in messages %}"
	    "<|start_header_id|>{{ message['role'] }}<|end_header_id|>\n\n"
	    "{{ message['content'] | trim }}<|eot_id|>{% endfor %}"
	    "{% if add_generation_prompt %}"
	    "<|start_header_id|>assistant<|end_header_id|>\n\n{% endif %}");
	ggufw_model_kv_u32(m, "general.quantization_version", 2);
}

static void
add_tensor2(struct ggufw_model *m, const char *name, int64_t ne0, int64_t ne1,
    int32_t type, uint32_t blck, uint32_t size)
{
	int64_t ne[2];

	ne[0] = ne0;
	ne[1] = ne1;
	ggufw_model_tensor(m, name, 2, ne, type, blck, size);
}

static void
add_tensors(struct ggufw_model *m, const struct gen_shape *s)
{
	int64_t embd = s->n_embd, ff = s->n_ff;
	int64_t kv = (int64_t)s->n_embd / s->n_head * s->n_head_kv;
	char name[64];
	uint32_t l;

	add_tensor2(m, "token_embd.weight", embd, GEN_VOCAB, GEN_Q6_K);
	for (l = 0; l < s->n_layer; l++) {
#define LAYER(suffix) (snprintf(name, sizeof(name), "blk.%u." suffix, \
	(unsigned)l), name)
		ggufw_model_tensor(m, LAYER("attn_norm.weight"), 1, &embd,
		    GEN_F32);
		add_tensor2(m, LAYER("attn_q.weight"), embd, embd, GEN_Q4_K);
		add_tensor2(m, LAYER("attn_k.weight"), embd, kv, GEN_Q4_K);
		add_tensor2(m, LAYER("attn_v.weight"), embd, kv, GEN_Q4_K);
		add_tensor2(m, LAYER("attn_output.weight"), embd, embd,
		    GEN_Q4_K);
		ggufw_model_tensor(m, LAYER("ffn_norm.weight"), 1, &embd,
		    GEN_F32);
		if (s->n_expert > 0) {
			int64_t x = s->n_expert;
			int64_t up[3] = { embd, ff, x };
			int64_t down[3] = { ff, embd, x };

			add_tensor2(m, LAYER("ffn_gate_inp.weight"), embd, x,
			    GGUFW_GGML_F32, 1, 4);
			ggufw_model_tensor(m, LAYER("ffn_gate_exps.weight"), 3,
			    up, GEN_Q4_K);
			ggufw_model_tensor(m, LAYER("ffn_up_exps.weight"), 3,
			    up, GEN_Q4_K);
			ggufw_model_tensor(m, LAYER("ffn_down_exps.weight"), 3,
			    down, GEN_Q4_K);
			continue;
		}
		add_tensor2(m, LAYER("ffn_gate.weight"), embd, ff, GEN_Q4_K);
		add_tensor2(m, LAYER("ffn_up.weight"), embd, ff, GEN_Q4_K);
		add_tensor2(m, LAYER("ffn_down.weight"), ff, embd, GEN_Q4_K);
#undef LAYER
	}
	ggufw_model_tensor(m, "output_norm.weight", 1, &embd, GEN_F32);
	add_tensor2(m, "output.weight", embd, GEN_VOCAB, GEN_Q6_K);
}

static void
usage(void)
{
	fputs("usage: gen-sparse OUT.gguf [8b|70b|235b-moe|1b|1b-data]\n"
	    "       gen-sparse --split N PREFIX [8b|70b|235b-moe]\n",
	    stderr);
	exit(2);
}

/* A tensor of the model added to shard s (its block layout by type). */
static void
copy_tensor(struct ggufw_model *s, const struct ggufw_model_tensor *t)
{
	uint32_t blck = 256, size = t->type == GGUFW_GGML_Q6_K ? 210 : 144;

	if (t->type == GGUFW_GGML_F32) {
		blck = 1;
		size = 4;
	}
	ggufw_model_tensor(s, t->name, t->n_dims, t->ne, t->type, blck,
	    size);
}

/*
 * --split: m as gguf-split writes it in n sparse shards,
 * PREFIX-%05d-of-%05d.gguf: every shard has split.no (u16), split.count
 * (u16) and split.tensors.count (i32), the first all the metadata, each
 * an n-th of the tensors. Returns 0, or 1 (a message said why).
 */
static int
write_split(const struct ggufw_model *m, const char *prefix, unsigned n)
{
	struct ggufw_model s;
	size_t lo, hi, i;
	unsigned k;
	char *path;

	for (k = 0; k < n; k++) {
		ggufw_model_init(&s, false, m->alignment);
		if (k == 0) {
			strbuf_add(&s.kv.out, m->kv.out.buf, m->kv.out.len);
			s.n_kv = m->n_kv;
		}
		ggufw_model_kv_u16(&s, "split.no", (uint16_t)k);
		ggufw_model_kv_u16(&s, "split.count", (uint16_t)n);
		ggufw_model_kv_i32(&s, "split.tensors.count",
		    (int32_t)m->n_tensors);
		lo = k * m->n_tensors / n;
		hi = (k + 1) * m->n_tensors / n;
		for (i = lo; i < hi; i++)
			copy_tensor(&s, &m->tensors[i]);
		path = xasprintf("%s-%05u-of-%05u.gguf", prefix, k + 1, n);
		if (ggufw_model_finish_sparse(&s, path) != 0) {
			fprintf(stderr, "gen-sparse: %s: %s\n", path,
			    strerror(errno));
			free(path);
			ggufw_model_free(&s);
			return 1;
		}
		printf("%s: header %llu bytes, file %llu bytes\n", path,
		    (unsigned long long)ggufw_model_header_size(&s),
		    (unsigned long long)ggufw_model_file_size(&s));
		free(path);
		ggufw_model_free(&s);
	}
	return 0;
}

int
main(int argc, char **argv)
{
	const struct gen_shape *shape = &gen_shapes[0];
	struct ggufw_model m;
	unsigned split = 0;
	size_t i;
	int rc;

	if (argc >= 3 && strcmp(argv[1], "--split") == 0) {
		split = (unsigned)strtoul(argv[2], NULL, 10);
		if (split < 2 || split > 999)
			usage();
		argc -= 2;
		argv += 2;
	}
	if (argc < 2 || argc > 3)
		usage();
	if (argc == 3) {
		shape = NULL;
		for (i = 0; i < sizeof(gen_shapes) / sizeof(gen_shapes[0]); i++)
			if (strcmp(argv[2], gen_shapes[i].arg) == 0)
				shape = &gen_shapes[i];
		if (shape == NULL)
			usage();
	}

	ggufw_model_init(&m, false, GGUFW_DEFAULT_ALIGNMENT);
	add_metadata(&m, shape);
	add_tensors(&m, shape);
	if (split > 0) {
		rc = shape->data ? 2 : write_split(&m, argv[1], split);
		ggufw_model_free(&m);
		if (rc == 2)
			usage();
		return rc;
	}
	if (shape->data) {
		struct strbuf sb = STRBUF_INIT;

		ggufw_model_finish(&m, &sb, GGUFW_DATA_RANDOM);
		rc = ggufw_write_file(argv[1], sb.buf, sb.len);
		strbuf_free(&sb);
		if (rc != 0) {
			fprintf(stderr, "gen-sparse: %s: %s\n", argv[1],
			    strerror(errno));
			ggufw_model_free(&m);
			return 1;
		}
	} else if (ggufw_model_finish_sparse(&m, argv[1]) != 0) {
		fprintf(stderr, "gen-sparse: %s: %s\n", argv[1],
		    strerror(errno));
		ggufw_model_free(&m);
		return 1;
	}
	printf("%s: llama %s, %llu KV pairs, %zu tensors, header %llu bytes, "
	    "file %llu bytes\n", argv[1], shape->size_label,
	    (unsigned long long)m.n_kv, m.n_tensors,
	    (unsigned long long)ggufw_model_header_size(&m),
	    (unsigned long long)ggufw_model_file_size(&m));
	ggufw_model_free(&m);
	return 0;
}
