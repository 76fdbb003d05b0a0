/*
 * gguf-tensors.c - the header reader's tensor infos: each tensor's
 * name, dimensions, type and offset, read at the cursor (gguf-impl.h),
 * its byte size computed with checked arithmetic, and the findings of
 * what is wrong in them (types, dimensions, sizes, duplicate names).
 */
#include "config.h"

#include <inttypes.h>
#include <string.h>

#include "kernels/ggml-types.h"
#include "reader/gguf.h"
#include "reader/gguf-impl.h"
#include "base/strset.h"

/*
 * The tensor count follows the magic and the version in every version; v1
 * changes its width (u32, not u64), not its place.
 */
#define TENSOR_COUNT_OFFSET 8

/* ---- tensor infos ------------------------------------------------------ */

static void
check_tensor_type(struct rd *r, struct gguf_tensor *t)
{
	const struct ggml_type_info *ti = ggml_type_get(t->type);
	const char *fork;

	if (ti == NULL) {
		fork = ggml_type_fork_note(t->type);
		FINDING(r, "F022", t->offset_info, "tensor type id %" PRId32
		    " is not defined by ggml (ids 0..%d)%s%s%s",
		    (int32_t)t->type, GGML_TYPE_COUNT - 1,
		    fork ? "; it is " : "", fork ? fork : "",
		    fork ? ", which llama.cpp cannot load" : "");
		return;
	}
	switch (ti->status) {
	case GGML_TYPE_REMOVED:
		FINDING(r, "F023", t->offset_info, "tensor type id %" PRIu32
		    " was %s", t->type, ti->note);
		break;
	case GGML_TYPE_INTERNAL:
		FINDING(r, "F030", t->offset_info, "tensor stored as %s, %s",
		    ti->name, ti->note);
		break;
	case GGML_TYPE_RECENT:
		FINDING(r, "F031", t->offset_info, "tensor type %s (id %"
		    PRIu32 ") was %s; older llama.cpp builds reject it",
		    ti->name, t->type, ti->note);
		break;
	default:
		break;
	}
}

/*
 * ggml_nbytes multiplies ne[0] by a block's bytes before it divides by the
 * block size: for a block type that product can wrap 64 bits while the
 * true size fits, and llama.cpp (which checks the true size when it reads
 * the header) then sizes the tensor at the wrapped value, a few bytes,
 * which its bounds checks pass. F021, with both sizes.
 */
static void
nbytes_wrap(struct rd *r, const struct gguf_tensor *t,
    const struct ggml_type_info *ti)
{
	uint64_t ne0 = (uint64_t)t->ne[0], head, ggml;

	if (ti->blck <= 1 || !u64_mul_overflow(ne0, ti->size, &head))
		return;
	ggml = head / ti->blck + (t->nbytes - ne0 / ti->blck * ti->size);
	FINDING(r, "F021", t->offset_info, "byte size of %s [%" PRId64 ", %"
	    PRId64 ", %" PRId64 ", %" PRId64 "] wraps in ggml_nbytes: ne[0] x "
	    "%" PRIu32 " overflows 64 bits, so llama.cpp sizes it at %" PRIu64
	    " bytes, not %" PRIu64, ti->name, t->ne[0], t->ne[1], t->ne[2],
	    t->ne[3], ti->size, ggml, t->nbytes);
}

/* Compute nbytes with checked arithmetic; findings for what is wrong. */
static void
tensor_size(struct rd *r, struct gguf_tensor *t, bool dims_ok)
{
	const struct ggml_type_info *ti = ggml_type_get(t->type);
	uint64_t nel = 1, bytes, padded;
	int j;

	if (!dims_ok || ti == NULL || ti->blck == 0)
		return;
	for (j = 0; j < GGUF_MAX_DIMS; j++) {
		if (t->ne[j] == 0) {
			FINDING(r, "F027", t->offset_info, "dimension %d is 0: "
			    "an empty tensor (ggml before 2026-08 divides by "
			    "zero on it)", j);
			t->nbytes = 0;
			t->size_ok = true;
			return;
		}
	}
	for (j = 0; j < GGUF_MAX_DIMS; j++) {
		if (u64_mul_overflow(nel, (uint64_t)t->ne[j], &nel) ||
		    nel > INT64_MAX) {
			FINDING(r, "F021", t->offset_info, "element count "
			    "%" PRId64 " x %" PRId64 " x %" PRId64 " x %" PRId64
			    " does not fit in int64", t->ne[0], t->ne[1],
			    t->ne[2], t->ne[3]);
			return;
		}
	}
	if ((uint64_t)t->ne[0] % ti->blck != 0) {
		FINDING(r, "F024", t->offset_info, "ne[0] = %" PRId64 " is not "
		    "a multiple of %s's block size %" PRIu32, t->ne[0],
		    ti->name, ti->blck);
		return;
	}
	bytes = (uint64_t)t->ne[0] / ti->blck;
	if (u64_mul_overflow(bytes, ti->size, &bytes) ||
	    u64_mul_overflow(bytes, (uint64_t)t->ne[1], &bytes) ||
	    u64_mul_overflow(bytes, (uint64_t)t->ne[2], &bytes) ||
	    u64_mul_overflow(bytes, (uint64_t)t->ne[3], &bytes) ||
	    bytes > INT64_MAX ||
	    u64_pad_overflow(bytes, r->f->alignment, &padded)) {
		FINDING(r, "F021", t->offset_info, "byte size of %s [%" PRId64
		    ", %" PRId64 ", %" PRId64 ", %" PRId64 "] overflows 64 "
		    "bits (or its padding does)", ti->name, t->ne[0], t->ne[1],
		    t->ne[2], t->ne[3]);
		return;
	}
	t->nbytes = bytes;
	t->size_ok = true;
	nbytes_wrap(r, t, ti);
}

static bool
parse_tensor(struct rd *r, struct gguf_tensor *t)
{
	uint64_t n_dims, v, type;
	bool dims_ok = true;
	unsigned dsz = r->v1 ? 4 : 8;
	uint32_t j;

	memset(t, 0, sizeof *t);
	t->offset_info = r->pos;
	r->skind = SUBJECT_NONE;
	if (!rd_get_string(r, &t->name, "tensor name"))
		return false;
	r->skind = SUBJECT_TENSOR;
	r->subj = t->name;
	if (t->name.n == 0)
		FINDING(r, "F016", t->offset_info, "tensor with an empty name");
	else if (t->name.n >= GGUF_MAX_NAME)
		FINDING(r, "F018", t->offset_info, "tensor name is %" PRIu64
		    " bytes; llama.cpp allows at most %d", t->name.n,
		    GGUF_MAX_NAME - 1);
	if (!rd_get_uint(r, 4, &n_dims, "n_dims"))
		return false;
	t->n_dims = (uint32_t)n_dims;
	if (n_dims > GGUF_MAX_DIMS) {
		FINDING(r, "F019", t->offset_info, "tensor has %" PRIu64
		    " dimensions; ggml allows at most %d", n_dims,
		    GGUF_MAX_DIMS);
		dims_ok = false;
		if (!rd_need(r, n_dims * dsz, "tensor dimensions"))
			return false;
	}
	for (j = 0; j < GGUF_MAX_DIMS; j++)
		t->ne[j] = 1;
	for (j = 0; j < n_dims; j++) {
		if (!rd_get_uint(r, dsz, &v, "tensor dimension"))
			return false;
		if (j >= GGUF_MAX_DIMS)
			continue;
		t->ne[j] = r->v1 ? (int64_t)(uint32_t)v : (int64_t)v;
		if (t->ne[j] < 0) {
			FINDING(r, "F020", t->offset_info, "dimension %" PRIu32
			    " is %" PRId64, j, t->ne[j]);
			dims_ok = false;
		}
	}
	if (!rd_get_uint(r, 4, &type, "tensor type") ||
	    !rd_get_uint(r, 8, &t->offset, "tensor offset"))
		return false;
	t->type = (uint32_t)type;
	check_tensor_type(r, t);
	tensor_size(r, t, dims_ok);
	return true;
}

static void
check_duplicate_names(struct rd *r)
{
	struct strset seen;
	size_t i, first;

	strset_init(&seen);
	strset_reserve(&seen, r->f->tensors_n);
	for (i = 0; i < r->f->tensors_n; i++) {
		const struct gguf_tensor *t = &r->f->tensors[i];

		if (strset_insert(&seen, t->name.p, cstr_len(t->name), i,
		    &first))
			ADD(r, "F017", t->offset_info, SUBJECT_TENSOR,
			    t->name.p, t->name.n, "duplicate tensor name "
			    "(first defined at offset 0x%" PRIx64 ")",
			    r->f->tensors[first].offset_info);
	}
	strset_free(&seen);
}

void
gguf_parse_tensor_infos(struct rd *r)
{
	struct gguf_file *f = r->f;
	unsigned min = r->v1 ? MIN_TENSOR_BYTES_V1 : MIN_TENSOR_BYTES;
	size_t cap = 0;
	uint64_t i;

	if (f->n_tensors > remain(r) / min && f->n_tensors > PLAUSIBLE_COUNT) {
		ADD(r, "F006", TENSOR_COUNT_OFFSET, SUBJECT_NONE,
		    NULL, 0, "header declares %" PRIu64 " tensors, but the %"
		    PRIu64 " bytes after the metadata can hold at most %"
		    PRIu64, f->n_tensors, remain(r), remain(r) / min);
		r->stop = true;
		return;
	}
	for (i = 0; i < f->n_tensors && !r->stop; i++) {
		if (r->dl == NULL) {	/* measuring: no records */
			struct gguf_tensor t;

			parse_tensor(r, &t);
			continue;
		}
		if (f->tensors_n == cap) {
			cap = cap ? cap * 2 : 32;
			f->tensors = xreallocarray(f->tensors, cap,
			    sizeof *f->tensors);
		}
		r->cur_t = &f->tensors[f->tensors_n];
		if (parse_tensor(r, r->cur_t))
			f->tensors_n++;
		r->cur_t = NULL;
	}
	r->skind = SUBJECT_NONE;
	if (r->dl != NULL)
		check_duplicate_names(r);
}
