/*
 * gguf-meta.c - the header reader's metadata: every key/value of the
 * header, read at the cursor (gguf-impl.h): the keys, the value types,
 * the scalars, the strings and the arrays (nested ones too), with the
 * findings of what is wrong in them, duplicate keys and the alignment.
 */
#include "config.h"

#include <inttypes.h>
#include <string.h>

#include "reader/gguf.h"
#include "reader/gguf-impl.h"
#include "base/strset.h"

/* ---- metadata ---------------------------------------------------------- */

static bool
check_vtype(struct rd *r, uint64_t off, uint32_t t, const char *what)
{
	if (t >= GGUF_VTYPE_COUNT) {
		FINDING(r, "F009", off, "%s %" PRId32 " is not a GGUF value "
		    "type (0..12); the rest of the header cannot be parsed",
		    what, (int32_t)t);
		r->stop = true;
		return false;
	}
	if (r->v1 && t >= GGUF_UINT64) {
		FINDING(r, "F009", off, "%s %s did not exist in GGUF v1", what,
		    gguf_vtype_name(t));
		r->stop = true;
		return false;
	}
	return true;
}

static void
check_bools(struct rd *r, uint64_t off, uint64_t count)
{
	const uint8_t *p = r->f->map + r->pos;
	uint64_t i, bad = 0, first = 0;

	for (i = 0; i < count; i++) {
		if (p[i] > 1 && bad++ == 0)
			first = i;
	}
	if (bad == 0)
		return;
	if (count == 1)
		FINDING(r, "F028", off, "BOOL value stored as byte 0x%02x; "
		    "only 0 and 1 are valid", p[first]);
	else
		FINDING(r, "F028", off, "%" PRIu64 " BOOL elements are "
		    "neither 0 nor 1 (first: element %" PRIu64 ", byte 0x%02x)",
		    bad, first, p[first]);
}

static bool parse_array(struct rd *r, struct gguf_kv *kv, unsigned depth);

/*
 * skip_strings: the well-formed strings at the start of an array of count
 * strings, in one tight loop (a vocabulary is most of a header). Returns how
 * many it passed; rd_get_string reports the first one it stopped at.
 */
static uint64_t
skip_strings(struct rd *r, uint64_t count)
{
	const uint8_t *map = r->f->map;
	uint64_t pos = r->pos, size = r->f->avail, i, n;
	unsigned lsz = r->v1 ? 4 : 8;
	bool be = r->f->big_endian;

	for (i = 0; i < count && size - pos >= lsz; i++) {
		n = load(map + pos, lsz, be);
		if (n > GGUF_MAX_STRING_LENGTH || n > size - pos - lsz)
			break;
		pos += lsz + n;
	}
	r->pos = pos;
	return i;
}

/* Skip the elements of one array of count elements of type t. */
static bool
skip_elements(struct rd *r, uint64_t off, uint32_t t, uint64_t count,
    unsigned depth)
{
	struct gguf_kv inner;
	struct gguf_str s;
	uint64_t i, bytes;

	if (t == GGUF_STRING) {
		if (count > remain(r) / (r->v1 ? 4 : 8))
			return rd_need(r, count * (r->v1 ? 4 : 8),
			    "array of strings");
		/* rd_get_string where skip_strings stops: an end of the window
		 * (grown, then the fast loop goes on) or a finding */
		for (i = skip_strings(r, count); i < count;
		    i += skip_strings(r, count - i)) {
			if (!rd_get_string(r, &s, "string array element"))
				return false;
			i++;
		}
		return true;
	}
	if (t == GGUF_ARRAY) {
		unsigned hdr = 4 + (r->v1 ? 4 : 8);	/* type, count */

		if (count > remain(r) / hdr)
			return rd_need(r, count * hdr, "array of arrays");
		for (i = 0; i < count; i++)
			if (!parse_array(r, &inner, depth + 1))
				return false;
		return true;
	}
	bytes = count * gguf_vtype_size(t);	/* count <= 2^30, size <= 8 */
	if (!rd_need(r, bytes, "array elements"))
		return false;
	if (t == GGUF_BOOL)
		check_bools(r, off, count);
	r->pos += bytes;
	return true;
}

/* Parse an array value (element type, count, elements) into kv. */
static bool
parse_array(struct rd *r, struct gguf_kv *kv, unsigned depth)
{
	uint64_t off = r->pos, count, et;

	if (!rd_get_uint(r, 4, &et, "array element type"))
		return false;
	if (!check_vtype(r, off, (uint32_t)et, "array element type"))
		return false;
	if (!rd_get_len(r, &count, "array length"))
		return false;
	if (count > GGUF_MAX_ARRAY_ELEMENTS) {
		FINDING(r, "F008", off, "array declares %" PRIu64 " elements; "
		    "llama.cpp refuses more than %llu", count,
		    GGUF_MAX_ARRAY_ELEMENTS);
		r->stop = true;
		return false;
	}
	kv->elem_type = (uint32_t)et;
	kv->count = count;
	kv->arr_offset = r->pos;
	if (et == GGUF_ARRAY) {
		if (depth == 0)
			FINDING(r, "F011", off, "array of arrays: the GGUF "
			    "spec allows nesting, llama.cpp rejects it");
		if (depth + 1 >= GGUF_MAX_NESTING) {
			FINDING(r, "F011", off, "arrays nested deeper than %d "
			    "levels; the rest of the header is not parsed",
			    GGUF_MAX_NESTING);
			r->stop = true;
			return false;
		}
	}
	return skip_elements(r, off, (uint32_t)et, count, depth);
}

static bool
parse_kv(struct rd *r, struct gguf_kv *kv)
{
	uint64_t t;

	memset(kv, 0, sizeof *kv);
	kv->offset = r->pos;
	r->skind = SUBJECT_NONE;
	if (!rd_get_string(r, &kv->key, "metadata key"))
		return false;
	r->skind = SUBJECT_KEY;
	r->subj = kv->key;
	if (kv->key.n == 0)
		FINDING(r, "F012", kv->offset, "metadata key of length 0 "
		    "(llama.cpp rejects it; older builds abort)");
	else if (kv->key.n > GGUF_MAX_KEY_LENGTH)
		FINDING(r, "F033", kv->offset, "metadata key of %" PRIu64
		    " bytes; the GGUF spec allows at most %d", kv->key.n,
		    GGUF_MAX_KEY_LENGTH);
	if (!rd_get_uint(r, 4, &t, "value type"))
		return false;
	if (!check_vtype(r, r->pos - 4, (uint32_t)t, "value type"))
		return false;
	kv->type = (uint32_t)t;
	if (t == GGUF_ARRAY)
		return parse_array(r, kv, 0);
	if (t == GGUF_STRING) {
		kv->val.type = GGUF_STRING;
		return rd_get_string(r, &kv->val.v.s, "string value");
	}
	if (!rd_need(r, gguf_vtype_size(t), "value"))
		return false;
	gguf_decode_scalar(r->f->map + r->pos, (uint32_t)t, r->f->big_endian,
	    &kv->val);
	if (t == GGUF_BOOL)
		check_bools(r, kv->offset, 1);
	r->pos += gguf_vtype_size(t);
	return true;
}

static void
check_duplicate_keys(struct rd *r)
{
	struct strset seen;
	size_t i, first;

	strset_init(&seen);
	strset_reserve(&seen, r->f->kv_n);
	for (i = 0; i < r->f->kv_n; i++) {
		const struct gguf_kv *kv = &r->f->kv[i];

		if (strset_insert(&seen, kv->key.p, cstr_len(kv->key), i,
		    &first))
			ADD(r, "F013", kv->offset, SUBJECT_KEY,
			    kv->key.p, kv->key.n, "duplicate key (first "
			    "defined at offset 0x%" PRIx64 ")",
			    r->f->kv[first].offset);
	}
	strset_free(&seen);
}

static void
check_alignment(struct rd *r)
{
	const struct gguf_kv *kv = r->dl == NULL ?
	    (r->have_align ? &r->align : NULL) :
	    gguf_find_kv(r->f, "general.alignment");
	uint64_t a;

	if (kv == NULL)
		return;
	if (kv->type != GGUF_UINT32) {
		diag_note(ADD_D(r, "F014", kv->offset, SUBJECT_KEY, kv->key.p,
		    kv->key.n, "general.alignment is stored as %s, not UINT32: "
		    "llama.cpp refuses it; using %d", gguf_vtype_name(kv->type),
		    GGUF_DEFAULT_ALIGNMENT), "llama.cpp builds before 2026-08 "
		    "abort on it");
		return;
	}
	a = kv->val.v.u;
	if (a == 0 || (a & (a - 1)) != 0) {
		ADD(r, "F014", kv->offset, SUBJECT_KEY, kv->key.p,
		    kv->key.n, "general.alignment is %" PRIu64 ", not a "
		    "power of two; using %d", a, GGUF_DEFAULT_ALIGNMENT);
		return;
	}
	r->f->alignment = (uint32_t)a;
	if (a % 8 != 0)
		ADD(r, "F015", kv->offset, SUBJECT_KEY, kv->key.p,
		    kv->key.n, "general.alignment is %" PRIu64 "; the spec "
		    "requires a multiple of 8", a);
	else if (a > (1u << 20))
		ADD(r, "F034", kv->offset, SUBJECT_KEY, kv->key.p,
		    kv->key.n, "general.alignment is %" PRIu64 " (over 1 MiB); "
		    "32-bit readers overflow padding arithmetic with it", a);
}

/*
 * A measuring parse keeps no records (their strings would move as the
 * window grows): only the first general.alignment, for the data offset.
 * Its key is compared where it lies in the window, which holds it still.
 */
static void
measure_kv(struct rd *r)
{
	static const char align[] = "general.alignment";
	struct gguf_kv kv;
	uint64_t at;

	if (!parse_kv(r, &kv) || r->have_align)
		return;
	at = kv.offset + (r->v1 ? 4 : 8);
	if (kv.key.n == sizeof align - 1 &&
	    memcmp(r->f->map + at, align, sizeof align - 1) == 0) {
		r->align = kv;
		r->have_align = true;
	}
}

void
gguf_parse_metadata(struct rd *r)
{
	size_t cap = 0;
	uint64_t i;
	struct gguf_file *f = r->f;

	for (i = 0; i < f->n_kv && !r->stop; i++) {
		if (r->dl == NULL) {
			measure_kv(r);
			continue;
		}
		if (f->kv_n == cap) {
			cap = cap ? cap * 2 : 32;
			f->kv = xreallocarray(f->kv, cap, sizeof *f->kv);
		}
		r->cur_kv = &f->kv[f->kv_n];
		if (parse_kv(r, r->cur_kv))
			f->kv_n++;
		r->cur_kv = NULL;
	}
	r->skind = SUBJECT_NONE;
	if (r->dl != NULL)
		check_duplicate_keys(r);
	check_alignment(r);
}
