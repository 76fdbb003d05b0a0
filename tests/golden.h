/*
 * golden.h - golden cases for the M, N and S rules, and the F rules of
 * what follows the data. Each case is a tiny model built with the GGUF
 * writer (a clean two-block llama, changed in one way), committed as
 * tests/cases/NAME.gguf beside NAME.expected: what `gguflint --select
 * M,N,S` (an F case's: `--select F`) prints for it. golden_run() checks
 * that the committed file is byte for byte what the builder makes, that
 * gguflint's output is the expected one, and, in process, how many
 * diagnostics of the case's rule there are. With GGUFLINT_REGEN=1 it
 * rewrites both files instead (review the diff before committing).
 */
#ifndef GGUFLINT_GOLDEN_H
#define GGUFLINT_GOLDEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/util.h"

enum tiny_eps {
	TINY_EPS_F32 = 0,	/* layer_norm_rms_epsilon as FLOAT32 */
	TINY_EPS_NONE,		/* omitted */
	TINY_EPS_F64		/* stored as FLOAT64 */
};

/* The tiny model and what a case may change in it. */
struct tiny {
	const char *arch;		/* general.architecture; NULL: omit */
	const char *general_type;	/* general.type; NULL: omit */
	uint32_t n_layer, n_embd, n_head, n_head_kv, n_ff, n_vocab;
	int32_t wtype;			/* matrices: GGUFW_GGML_F32 or _Q8_0 */
	int64_t file_type;		/* general.file_type; -1: omit */
	bool quant_version;		/* general.quantization_version = 2 */
	enum tiny_eps eps;
	/* tokenizer */
	const char *tok_model;		/* NULL: omit tokenizer.ggml.model */
	bool no_tokens;
	bool dup_token;			/* token 5 repeats token 4 */
	uint32_t n_scores, n_types;	/* array lengths (n_vocab) */
	bool scores_u8;			/* scores as UINT8[] */
	bool types_u32;			/* token_type as UINT32[] */
	int32_t bad_type;		/* token_type of token 3; 0: normal */
	const char *tok3;		/* the text of token 3; NULL: "t3" */
	int64_t bos;			/* bos_token_id; -1: omit */
	bool bos_i32;			/* stored as INT32 */
	uint32_t vocab_size_key;	/* ARCH.vocab_size; 0: omit */
	uint32_t embd_rows;		/* token_embd rows; 0: n_vocab */
	const char *chat_template;	/* NULL: omit */
	const char *template_name;	/* tokenizer.chat_template.NAME */
	const char *rope_scaling;	/* ARCH.rope.scaling.type */
	uint32_t n_expert, n_expert_used;	/* written when non-zero */
	uint32_t block_count_key;	/* ARCH.block_count as written (the
					 * tensors keep n_layer's); 0: the
					 * n_layer */
	const char *layer_key;		/* ARCH.<layer_key> written as ... */
	uint32_t layer_len;		/* ... a UINT32 array of this many 1s */
	uint32_t nextn;			/* ARCH.nextn_predict_layers; 0: omit */
	bool no_ff_key;			/* feed_forward_length omitted (the
					 * tensors keep n_ff's shapes) */
	bool zero_heads, zero_heads_kv;	/* head_count, head_count_kv
					 * written as 0 (the tensors keep
					 * n_head's, n_head_kv's shapes) */
	/* tensors */
	bool no_tensors;		/* a vocabulary-only file */
	const char *drop;		/* a tensor not written */
	const char *extra;		/* an extra F32 [n_embd] tensor */
	const char *bad_shape;		/* written with ne[0] doubled */
	bool extra_block;		/* blk.<n_layer>.attn_norm.weight */
	/* more metadata */
	const char *str_key;		/* an extra string key ... */
	const char *str_val;		/* ... and its value (str_len bytes) */
	size_t str_len;
	const char *arr_key;		/* an extra UINT8 array of arr_len */
	uint64_t arr_len;
	const uint8_t *arr_bytes;	/* its bytes; NULL: 0, 1, 2, ... */
	uint16_t split_no, split_count;	/* split.* (u16) when count > 0 */
	/* instead of the model */
	void (*raw)(struct strbuf *out);	/* builds the whole file (a
					 * hostile header) when set */
	/* after the file */
	const char *trailing;		/* trailing_n bytes appended */
	size_t trailing_n;
};

/* tiny_init: the clean model (no M, N or S finding). */
void tiny_init(struct tiny *t);

/* tiny_build: append the whole file to out. */
void tiny_build(const struct tiny *t, struct strbuf *out);

/* tiny_model: m (initialised here; free it with ggufw_model_free), the
 * builder of t's file, for a test that lays it out itself. */
struct ggufw_model;
void tiny_model(const struct tiny *t, struct ggufw_model *m);

struct golden_case {
	const char *name;		/* file name without extension */
	const char *code;		/* the rule the case is about */
	size_t want;			/* its diagnostics: 0 for a negative */
	void (*setup)(struct tiny *t);	/* the change; NULL: none */
};

/* golden_run: build, compare or regenerate, lint and assert (see above). */
void golden_run(const struct golden_case *c);
/* golden_run_version: the same under the default profile with
 * --runtime-version version (in process: its runtime_version). */
void golden_run_version(const struct golden_case *c, const char *version);
/* golden_flush: under make check-valgrind, lint the cases golden_run has
 * put by (in runs of many files, golden.c says why); a test calls it
 * after its last case. Elsewhere each case is linted at once. */
void golden_flush(void);

#endif
