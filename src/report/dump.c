/*
 * dump.c - --dump: the parsed header as text, or as the canonical JSON of
 * the test corpus (../shared/corpus/README.md), which two independent
 * parsers' outputs are checked against.
 */
#include "config.h"

#include <inttypes.h>
#include <string.h>

#include "base/enc.h"
#include "base/sha256.h"
#include "base/util.h"
#include "kernels/ggml-types.h"
#include "reader/gguf.h"
#include "report/report.h"

#define DUMP_HEAD 3	/* array elements shown */

/* ---- scalars ------------------------------------------------------------ */

/* Append a scalar in the canonical JSON encoding. */
static void
json_scalar(struct strbuf *out, const struct gguf_scalar *s)
{
	switch (s->type) {
	case GGUF_UINT8:
	case GGUF_UINT16:
	case GGUF_UINT32:
		strbuf_addf(out, "%" PRIu64, s->v.u);
		break;
	case GGUF_INT8:
	case GGUF_INT16:
	case GGUF_INT32:
		strbuf_addf(out, "%" PRId64, s->v.i);
		break;
	case GGUF_UINT64:
		strbuf_addf(out, "\"%" PRIu64 "\"", s->v.u);
		break;
	case GGUF_INT64:
		strbuf_addf(out, "\"%" PRId64 "\"", s->v.i);
		break;
	case GGUF_FLOAT32:
		strbuf_addc(out, '"');
		enc_f32(out, s->v.f32);
		strbuf_addc(out, '"');
		break;
	case GGUF_FLOAT64:
		strbuf_addc(out, '"');
		enc_f64(out, s->v.f64);
		strbuf_addc(out, '"');
		break;
	case GGUF_BOOL:
		strbuf_adds(out, s->v.b ? "true" : "false");
		break;
	case GGUF_STRING:
		enc_json_string(out, s->v.s.p, (size_t)s->v.s.n);
		break;
	default:
		strbuf_adds(out, "null");
		break;
	}
}

/* Append a scalar for people: numbers plainly, strings quoted and escaped. */
static void
text_scalar(struct strbuf *out, const struct gguf_scalar *s)
{
	switch (s->type) {
	case GGUF_FLOAT32:
		enc_f32(out, s->v.f32);
		break;
	case GGUF_FLOAT64:
		enc_f64(out, s->v.f64);
		break;
	case GGUF_UINT64:
	case GGUF_INT64:
		strbuf_addf(out, s->type == GGUF_UINT64 ? "%" PRIu64 :
		    "%" PRId64, s->v.u);
		break;
	case GGUF_STRING:
		strbuf_addc(out, '"');
		enc_text(out, s->v.s.p, (size_t)s->v.s.n);
		strbuf_addc(out, '"');
		break;
	default:
		json_scalar(out, s);
		break;
	}
}

/*
 * for_each_element: call fn on each element of a scalar or string array, in
 * order; stops after limit elements (UINT64_MAX for all).
 */
static void
for_each_element(const struct gguf_file *f, const struct gguf_kv *kv,
    uint64_t limit, void (*fn)(void *arg, const struct gguf_scalar *s,
    uint64_t i), void *arg)
{
	struct gguf_arr_iter it;
	struct gguf_scalar s;
	uint64_t i;

	if (kv->elem_type == GGUF_STRING) {
		gguf_arr_iter_init(&it, f, kv);
		s.type = GGUF_STRING;
		for (i = 0; i < limit && gguf_arr_next_str(&it, &s.v.s); i++)
			fn(arg, &s, i);
		return;
	}
	for (i = 0; i < kv->count && i < limit; i++) {
		if (gguf_arr_get(f, kv, i, &s) < 0)
			return;
		fn(arg, &s, i);
	}
}

/* ---- JSON ---------------------------------------------------------------- */

struct hash_arg {
	struct sha256 ctx;
	struct strbuf buf;
};

static void
hash_element(void *arg, const struct gguf_scalar *s, uint64_t i)
{
	struct hash_arg *h = arg;

	strbuf_reset(&h->buf);
	if (i > 0)
		strbuf_addc(&h->buf, ',');
	json_scalar(&h->buf, s);
	sha256_update(&h->ctx, h->buf.buf, h->buf.len);
}

static void
head_element(void *arg, const struct gguf_scalar *s, uint64_t i)
{
	struct strbuf *out = arg;

	strbuf_adds(out, i ? ",\n        " : "\n        ");
	json_scalar(out, s);
}

static void
json_array(struct strbuf *out, const struct gguf_file *f,
    const struct gguf_kv *kv)
{
	struct hash_arg h;
	uint8_t digest[32];
	char hex[65];

	strbuf_adds(out, ",\n      \"elem_type\": ");
	enc_json_string(out, gguf_vtype_name(kv->elem_type),
	    strlen(gguf_vtype_name(kv->elem_type)));
	strbuf_addf(out, ",\n      \"len\": %" PRIu64 ",\n      \"head\": ",
	    kv->count);
	if (kv->elem_type == GGUF_ARRAY) {
		strbuf_adds(out, "null,\n      \"elements_sha256\": null");
		return;
	}
	strbuf_adds(out, "[");
	for_each_element(f, kv, DUMP_HEAD, head_element, out);
	strbuf_adds(out, kv->count ? "\n      ]" : "]");
	sha256_init(&h.ctx);
	strbuf_init(&h.buf);
	sha256_update(&h.ctx, "[", 1);
	for_each_element(f, kv, UINT64_MAX, hash_element, &h);
	sha256_update(&h.ctx, "]", 1);
	sha256_final(&h.ctx, digest);
	strbuf_free(&h.buf);
	sha256_hex(digest, hex);
	strbuf_addf(out, ",\n      \"elements_sha256\": \"%s\"", hex);
}

static void
json_kv(struct strbuf *out, const struct gguf_file *f, const struct gguf_kv *kv)
{
	strbuf_adds(out, "    {\n      \"key\": ");
	enc_json_string(out, kv->key.p, (size_t)kv->key.n);
	strbuf_addf(out, ",\n      \"type\": \"%s\"",
	    gguf_vtype_name(kv->type));
	if (kv->type == GGUF_ARRAY) {
		json_array(out, f, kv);
	} else {
		strbuf_adds(out, ",\n      \"value\": ");
		json_scalar(out, &kv->val);
	}
	strbuf_adds(out, "\n    }");
}

static void
json_tensor(struct strbuf *out, const struct gguf_tensor *t)
{
	uint32_t j, n = t->n_dims < GGUF_MAX_DIMS ? t->n_dims : GGUF_MAX_DIMS;

	strbuf_adds(out, "    {\n      \"name\": ");
	enc_json_string(out, t->name.p, (size_t)t->name.n);
	strbuf_addf(out, ",\n      \"type\": %" PRIu32 ",\n      \"dims\": [",
	    t->type);
	for (j = 0; j < n; j++)
		strbuf_addf(out, "%s%" PRId64, j ? ",\n        " :
		    "\n        ", t->ne[j]);
	strbuf_adds(out, n ? "\n      ]" : "]");
	strbuf_addf(out, ",\n      \"offset\": %" PRIu64 "\n    }", t->offset);
}

void
dump_json(struct report_ctx *ctx, struct strbuf *out,
    const struct gguf_file *f)
{
	size_t i;

	ctx->first = false;
	strbuf_addf(out, "{\n  \"version\": %" PRIu32 ",\n  \"endianness\": "
	    "\"%s\",\n  \"tensor_count\": %" PRIu64 ",\n  \"kv_count\": %"
	    PRIu64 ",\n  \"alignment\": %" PRIu32 ",\n  \"data_offset\": ",
	    f->version, f->big_endian ? "big" : "little", f->n_tensors,
	    f->n_kv, f->alignment);
	if (f->header_complete)
		strbuf_addf(out, "%" PRIu64, f->data_offset);
	else
		strbuf_adds(out, "null");
	strbuf_adds(out, ",\n  \"metadata\": [");
	for (i = 0; i < f->kv_n; i++) {
		strbuf_adds(out, i ? ",\n" : "\n");
		json_kv(out, f, &f->kv[i]);
	}
	strbuf_adds(out, f->kv_n ? "\n  ],\n  \"tensors\": [" :
	    "],\n  \"tensors\": [");
	for (i = 0; i < f->tensors_n; i++) {
		strbuf_adds(out, i ? ",\n" : "\n");
		json_tensor(out, &f->tensors[i]);
	}
	strbuf_adds(out, f->tensors_n ? "\n  ]\n}\n" : "]\n}\n");
}

/* ---- text --------------------------------------------------------------- */

static void
text_element(void *arg, const struct gguf_scalar *s, uint64_t i)
{
	struct strbuf *out = arg;

	if (i > 0)
		strbuf_adds(out, ", ");
	text_scalar(out, s);
}

void
dump_text(struct report_ctx *ctx, struct strbuf *out,
    const struct gguf_file *f)
{
	char tbuf[16];
	size_t i;
	uint32_t j;

	ctx->first = false;
	strbuf_addf(out, "GGUF v%" PRIu32 ", %s-endian, %" PRIu64 " tensors, %"
	    PRIu64 " metadata entries, alignment %" PRIu32, f->version,
	    f->big_endian ? "big" : "little", f->n_tensors, f->n_kv,
	    f->alignment);
	if (f->header_complete)
		strbuf_addf(out, ", data at offset %" PRIu64, f->data_offset);
	strbuf_addf(out, "\n\nmetadata (%zu):\n", f->kv_n);
	for (i = 0; i < f->kv_n; i++) {
		const struct gguf_kv *kv = &f->kv[i];

		strbuf_adds(out, "  ");
		enc_text(out, kv->key.p, (size_t)kv->key.n);
		if (kv->type != GGUF_ARRAY) {
			strbuf_addf(out, " %s = ", gguf_vtype_name(kv->type));
			text_scalar(out, &kv->val);
		} else {
			strbuf_addf(out, " ARRAY[%s; %" PRIu64 "]",
			    gguf_vtype_name(kv->elem_type), kv->count);
			if (kv->elem_type != GGUF_ARRAY) {
				strbuf_adds(out, " = [");
				for_each_element(f, kv, DUMP_HEAD,
				    text_element, out);
				strbuf_adds(out, kv->count > DUMP_HEAD ?
				    ", ...]" : "]");
			}
		}
		strbuf_addc(out, '\n');
	}
	strbuf_addf(out, "\ntensors (%zu):\n", f->tensors_n);
	for (i = 0; i < f->tensors_n; i++) {
		const struct gguf_tensor *t = &f->tensors[i];

		strbuf_adds(out, "  ");
		enc_text(out, t->name.p, (size_t)t->name.n);
		strbuf_addf(out, " %s [", ggml_type_name(t->type, tbuf,
		    sizeof tbuf));
		for (j = 0; j < t->n_dims && j < GGUF_MAX_DIMS; j++)
			strbuf_addf(out, "%s%" PRId64, j ? ", " : "", t->ne[j]);
		strbuf_addf(out, "] offset %" PRIu64, t->offset);
		if (t->size_ok)
			strbuf_addf(out, " bytes %" PRIu64, t->nbytes);
		strbuf_addc(out, '\n');
	}
}
