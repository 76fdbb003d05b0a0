/*
 * check-split.c - F040-F048, the structure of a split model: the shards
 * gguf-split writes (PREFIX-%05d-of-%05d.gguf, each with split.no UINT16,
 * split.count UINT16 and split.tensors.count INT32, all other metadata in
 * the first), checked as llama.cpp's loader checks them, and for what it
 * leaves unchecked (a shard of another split, metadata in a later shard,
 * shards joined with cat). Each finding goes to the shard it concerns;
 * one about the model as a whole to its first shard present.
 */
#include "config.h"

#include <inttypes.h>
#include <stdbool.h>
#include <string.h>

#include "base/splitname.h"
#include "base/strset.h"
#include "base/util.h"
#include "checks/checks.h"

/* The split keys of one file, as read. */
struct split_keys {
	int64_t no, count, tensors;	/* -1: absent or of another type */
	const struct gguf_kv *kv_no, *kv_count, *kv_tensors;
};

/* One split key of type want: F048 when it has another type. */
static int64_t
split_key(const struct gguf_file *f, const char *key, uint32_t want,
    const struct gguf_kv **kvp, struct diag_list *dl)
{
	const struct gguf_kv *kv = gguf_find_kv(f, key);
	int64_t v;

	*kvp = kv;
	if (kv == NULL)
		return -1;
	if (kv->type != want) {
		diag_add(dl, "F048", kv->offset, SUBJECT_KEY, kv->key.p,
		    kv->key.n, "%s is %s; llama.cpp reads it as %s only", key,
		    gguf_vtype_name(kv->type), gguf_vtype_name(want));
		return -1;
	}
	if (!gguf_find_int(f, key, &v) || v < 0)
		return -1;	/* a negative INT32 count */
	return v;
}

static void
read_keys(const struct gguf_file *f, struct split_keys *k,
    struct diag_list *dl)
{
	k->no = split_key(f, "split.no", GGUF_UINT16, &k->kv_no, dl);
	k->count = split_key(f, "split.count", GGUF_UINT16, &k->kv_count,
	    dl);
	k->tensors = split_key(f, "split.tensors.count", GGUF_INT32,
	    &k->kv_tensors, dl);
}

static uint64_t
kv_off(const struct gguf_kv *kv)
{
	return kv != NULL ? kv->offset : 0;
}

/*
 * F047, shards joined with cat: another GGUF header where this file's
 * data ends (at the end of its last tensor, or that padded to the
 * alignment), or every tensor of the model in a file that says it is one
 * of several shards.
 */
static void
check_joined(const struct gguf_file *f, const struct split_keys *k,
    struct diag_list *dl)
{
	uint64_t end = f->data_offset, e, at[2];
	size_t i;

	if (!f->header_complete)
		return;		/* no data section to end */
	for (i = 0; i < f->tensors_n; i++) {
		const struct gguf_tensor *t = &f->tensors[i];

		if (t->size_ok && !u64_add_overflow(f->data_offset, t->offset,
		    &e) && !u64_add_overflow(e, t->nbytes, &e) && e > end)
			end = e;
	}
	at[0] = end;
	if (u64_pad_overflow(end, f->alignment ? f->alignment : 1, &at[1]))
		at[1] = end;
	for (i = 0; i < 2; i++) {
		if (at[i] > f->avail || f->avail - at[i] < 4 ||
		    memcmp(f->map + at[i], "GGUF", 4) != 0)
			continue;
		diag_note(diag_add(dl, "F047", at[i], SUBJECT_NONE, NULL, 0,
		    "shards joined with cat: another GGUF file starts at 0x%"
		    PRIx64 ", where this shard's data ends", at[i]),
		    "split.count is %" PRId64 "; llama.cpp reads only the "
		    "first shard's tensors", k->count);
		return;
	}
	if (k->no == 0 && k->tensors >= 0 &&
	    (uint64_t)k->tensors == f->tensors_n && f->tensors_n > 0)
		diag_note(diag_add(dl, "F047", kv_off(k->kv_count),
		    SUBJECT_NONE, NULL, 0, "this file holds all %" PRId64
		    " tensors, but split.count says it is the first of %"
		    PRId64 " shards", k->tensors, k->count), "llama.cpp looks "
		    "for the others");
}

/* A file given by a name that is not a shard's: only its own keys. */
static void
check_unnamed(const struct split_shard *s)
{
	struct split_keys k;
	size_t plen;
	unsigned no, count;

	if (split_parse_name(s->path, &plen, &no, &count))
		return;		/* a shard's, linted alone: lint_input's */
	read_keys(s->file, &k, s->dl);
	if (k.count <= 1)
		return;		/* not split, or a key F048 reported */
	diag_note(diag_add(s->dl, "F042", k.kv_count->offset, SUBJECT_KEY,
	    k.kv_count->key.p, k.kv_count->key.n,
	    "split.count is %" PRId64 ", but the file is not named "
	    "PREFIX-%05" PRId64 "-of-%05" PRId64 ".gguf", k.count, k.no >= 0 ?
	    k.no + 1 : 1, k.count), "llama.cpp finds the other shards by that "
	    "name");
	if (k.no > 0)
		diag_note(diag_add(s->dl, "F041", k.kv_no->offset, SUBJECT_KEY,
		    k.kv_no->key.p, k.kv_no->key.n,
		    "this is shard %" PRId64 " of %" PRId64 " (split.no %"
		    PRId64 ")", k.no + 1, k.count, k.no), "llama.cpp loads a "
		    "split model from its first shard only");
	check_joined(s->file, &k, s->dl);
}

/* F040: the shards that could not be opened, named. */
static void
check_missing(const struct split_ctx *sc)
{
	size_t i;

	for (i = 0; i < sc->n; i++) {
		const struct split_shard *s = &sc->shard[i];

		if (s->file != NULL)
			continue;
		if (i == 0)
			diag_note(diag_add(sc->model_dl, "F040", 0,
			    SUBJECT_NONE, NULL, 0, "the first shard, %s, %s",
			    s->path, s->why), "llama.cpp loads a split model "
			    "from its first shard only");
		else
			diag_add(sc->model_dl, "F040", 0, SUBJECT_NONE, NULL, 0,
			    "shard %zu of %zu, %s, %s", i + 1, sc->n, s->path,
			    s->why);
	}
}

/* The first shard's keys against its name (F041, F042, F048). */
static void
check_first(const struct split_ctx *sc, const struct split_keys *k)
{
	const struct split_shard *s = &sc->shard[0];

	if (k->count != (int64_t)sc->n && k->kv_count != NULL &&
	    k->count >= 0)
		diag_note(diag_add(s->dl, "F042", k->kv_count->offset,
		    SUBJECT_KEY, k->kv_count->key.p, k->kv_count->key.n,
		    "named as shard 1 of %zu, but split.count is %" PRId64,
		    sc->n, k->count), "llama.cpp derives the names of %s",
		    k->count > 1 ? "the other shards from it, and this name "
		    "does not match them" : "no other shard, and loads this "
		    "file alone");
	else if (k->kv_count == NULL && sc->n > 1)
		diag_note(diag_add(s->dl, "F042", 0, SUBJECT_NONE, NULL, 0,
		    "named as shard 1 of %zu, but it has no split.count",
		    sc->n), "llama.cpp loads it alone, without the other "
		    "shards' tensors");
	if (k->kv_no != NULL && k->no != 0)
		diag_add(s->dl, "F041", k->kv_no->offset, SUBJECT_KEY,
		    k->kv_no->key.p, k->kv_no->key.n,
		    "the first shard's split.no is %" PRId64 ", not 0",
		    k->no);
	if (k->count > 1 && k->kv_tensors == NULL)
		diag_add(s->dl, "F048", kv_off(k->kv_count), SUBJECT_NONE,
		    NULL, 0, "the first shard has no split.tensors.count, "
		    "which llama.cpp requires");
	if (k->count > 1)
		check_joined(s->file, k, s->dl);
}

/* Whether kv of f holds the same value as kv1 of f1 (type and bytes). */
static bool
same_value(const struct gguf_file *f, const struct gguf_kv *kv,
    const struct gguf_file *f1, const struct gguf_kv *kv1)
{
	struct gguf_arr_iter a, b;
	struct gguf_str sa, sb;
	struct gguf_scalar x, y;
	uint64_t i;

	if (kv->type != kv1->type)
		return false;
	if (kv->type == GGUF_STRING)
		return kv->val.v.s.n == kv1->val.v.s.n &&
		    memcmp(kv->val.v.s.p, kv1->val.v.s.p, kv->val.v.s.n) == 0;
	if (kv->type != GGUF_ARRAY)
		return memcmp(&kv->val.v, &kv1->val.v, sizeof kv->val.v) == 0;
	if (kv->elem_type != kv1->elem_type || kv->count != kv1->count)
		return false;
	if (kv->elem_type == GGUF_STRING) {
		gguf_arr_iter_init(&a, f, kv);
		gguf_arr_iter_init(&b, f1, kv1);
		while (gguf_arr_next_str(&a, &sa))
			if (!gguf_arr_next_str(&b, &sb) || sa.n != sb.n ||
			    memcmp(sa.p, sb.p, sa.n) != 0)
				return false;
		return true;
	}
	for (i = 0; i < kv->count; i++)
		if (gguf_arr_get(f, kv, i, &x) < 0 ||
		    gguf_arr_get(f1, kv1, i, &y) < 0 ||
		    memcmp(&x.v, &y.v, sizeof x.v) != 0)
			return false;	/* nested arrays are not compared */
	return true;
}

/* F044: a later shard's metadata beyond split.* that shard 1 lacks. */
static void
check_shard_meta(const struct split_shard *s, const struct gguf_file *f1)
{
	const struct gguf_file *f = s->file;
	const struct gguf_kv *kv1;
	char key[256];
	size_t i;

	for (i = 0; i < f->kv_n; i++) {
		const struct gguf_kv *kv = &f->kv[i];

		if (kv->key.n >= 6 && memcmp(kv->key.p, "split.", 6) == 0)
			continue;
		if (gguf_str_eq(kv->key, "general.alignment"))
			continue;	/* each file's own layout */
		if (kv->key.n >= sizeof key || memchr(kv->key.p, 0, kv->key.n))
			kv1 = NULL;
		else {
			memcpy(key, kv->key.p, kv->key.n);
			key[kv->key.n] = '\0';
			kv1 = gguf_find_kv(f1, key);
		}
		if (kv1 != NULL && same_value(f, kv, f1, kv1))
			continue;
		diag_note(diag_add(s->dl, "F044", kv->offset, SUBJECT_KEY,
		    kv->key.p, kv->key.n, "a later shard holds this key, "
		    "which the first shard %s", kv1 == NULL ? "does not hold" :
		    "holds with another value"), "llama.cpp reads the "
		    "metadata of the first only");
	}
}

/* A later shard i against its place and the first shard's keys. */
static void
check_later(const struct split_ctx *sc, size_t i,
    const struct split_keys *k1)
{
	const struct split_shard *s = &sc->shard[i];
	struct split_keys k;

	read_keys(s->file, &k, s->dl);
	if (k.kv_no == NULL)
		diag_add(s->dl, "F048", 0, SUBJECT_NONE, NULL, 0, "shard %zu "
		    "of %zu has no split.no, which llama.cpp requires", i + 1,
		    sc->n);
	else if (k.no >= 0 && k.no != (int64_t)i)
		diag_add(s->dl, "F041", k.kv_no->offset, SUBJECT_KEY,
		    k.kv_no->key.p, k.kv_no->key.n,
		    "named as shard %zu of %zu, but its split.no is %"
		    PRId64 " (expected %zu)", i + 1, sc->n, k.no, i);
	if (k1 != NULL && k.kv_count != NULL && k1->count >= 0 &&
	    k.count >= 0 && k.count != k1->count)
		diag_add(s->dl, "F043", k.kv_count->offset, SUBJECT_KEY,
		    k.kv_count->key.p, k.kv_count->key.n,
		    "split.count is %" PRId64 ", the first shard's %"
		    PRId64 ": a shard of another split", k.count,
		    k1->count);
	if (k1 != NULL && k.kv_tensors != NULL && k1->tensors >= 0 &&
	    k.tensors >= 0 && k.tensors != k1->tensors)
		diag_add(s->dl, "F043", k.kv_tensors->offset, SUBJECT_KEY,
		    k.kv_tensors->key.p, k.kv_tensors->key.n,
		    "split.tensors.count is %" PRId64 ", the first "
		    "shard's %" PRId64 ": a shard of another split",
		    k.tensors, k1->tensors);
	if (k.count > 1)
		check_joined(s->file, &k, s->dl);
	if (sc->shard[0].file != NULL)
		check_shard_meta(s, sc->shard[0].file);
}

/* The length of a tensor name as ggml compares it (up to a NUL). */
static size_t
cname_len(struct gguf_str s)
{
	const char *z = memchr(s.p, 0, s.n);

	return z != NULL ? (size_t)(z - s.p) : s.n;
}

/*
 * F045 across the shards (F017 is within one); returns the number of
 * tensors of the complete shards, and sets *all when every shard is
 * present and complete.
 */
static uint64_t
check_dups(const struct split_ctx *sc, bool *all)
{
	struct strset set;
	uint64_t total = 0;
	size_t i, j, first;

	*all = true;
	strset_init(&set);
	for (i = 0; i < sc->n; i++) {
		const struct gguf_file *f = sc->shard[i].file;

		if (f == NULL || !f->header_complete) {
			*all = false;
			continue;
		}
		total += f->tensors_n;
		for (j = 0; j < f->tensors_n; j++) {
			const struct gguf_tensor *t = &f->tensors[j];

			if (strset_insert(&set, t->name.p, cname_len(t->name),
			    i, &first) == 0 || first == i)
				continue;
			diag_add(sc->shard[i].dl, "F045", t->offset_info,
			    SUBJECT_TENSOR, t->name.p, t->name.n, "shard %zu "
			    "holds this tensor, which shard %zu holds too",
			    i + 1, first + 1);
		}
	}
	strset_free(&set);
	return total;
}

void
check_split(const struct split_ctx *sc)
{
	struct split_keys k1;
	bool all;
	uint64_t total;
	size_t i;

	memset(&k1, 0, sizeof k1);
	if (!sc->named) {
		if (sc->shard[0].file != NULL)
			check_unnamed(&sc->shard[0]);
		return;
	}
	check_missing(sc);
	if (sc->shard[0].file != NULL) {
		read_keys(sc->shard[0].file, &k1, sc->shard[0].dl);
		check_first(sc, &k1);
	}
	for (i = 1; i < sc->n; i++)
		if (sc->shard[i].file != NULL)
			check_later(sc, i, sc->shard[0].file != NULL ? &k1 :
			    NULL);
	if (sc->n < 2)
		return;
	total = check_dups(sc, &all);
	if (all && k1.kv_tensors != NULL && k1.tensors >= 0 &&
	    (uint64_t)k1.tensors != total)
		diag_add(sc->shard[0].dl, "F046", k1.kv_tensors->offset,
		    SUBJECT_KEY, k1.kv_tensors->key.p, k1.kv_tensors->key.n,
		    "split.tensors.count is %" PRId64
		    ", but the %zu shards hold %" PRIu64 " tensors", k1.tensors,
		    sc->n, total);
}
