/*
 * names.c - applying the name maps (see names.h) to one file: which tensor
 * of its architecture's map a tensor name is (PCRE2, the block index read
 * from the layer group), what kind of file it is for the name and metadata
 * rules, and the string reader it needs.
 */
#define PCRE2_CODE_UNIT_WIDTH 8

#include <ctype.h>
#include <pcre2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "facts/names.h"

/* ---- metadata ---------------------------------------------------------- */

/*
 * The string value of key in *out (borrowed from f's mapping: valid while
 * f is open), or false, *out untouched, when absent or not a string.
 */
static bool
names_key_str(const struct gguf_file *f, const char *key,
    struct gguf_str *out)
{
	const struct gguf_kv *kv = gguf_find_kv(f, key);

	if (kv == NULL || kv->type != GGUF_STRING)
		return false;
	*out = kv->val.v.s;
	return true;
}

/* ---- matching ---------------------------------------------------------- */

/* The layer number in [p, p + n): digits, no leading zero. */
static bool
match_layer(const char *p, size_t n, int64_t *out)
{
	uint64_t v = 0;
	size_t i;

	if (n == 0 || (n > 1 && p[0] == '0'))
		return false;
	for (i = 0; i < n; i++) {
		if (!isdigit((unsigned char)p[i]))
			return false;
		if (v <= INT64_MAX / 10)
			v = v * 10 + (uint64_t)(p[i] - '0');
		else
			v = INT64_MAX;
	}
	*out = v > INT64_MAX ? INT64_MAX : (int64_t)v;
	return true;
}

/* Whether name is t's literal pattern (pat_plain), its layer in *layer
 * (-1 without a group). */
static bool
plain_match(const struct names_tensor *t, struct gguf_str name,
    int64_t *layer)
{
	size_t a = t->lit_len[0], b = t->lit_len[1];

	*layer = -1;
	if (!t->per_layer)
		return name.n == a && memcmp(name.p, t->lit[0], a) == 0;
	return name.n > a + b && memcmp(name.p, t->lit[0], a) == 0 &&
	    memcmp(name.p + name.n - b, t->lit[1], b) == 0 &&
	    match_layer(name.p + a, name.n - a - b, layer);
}

struct names_matcher {
	pcre2_match_data *md;
	uint32_t groups;		/* the capture groups md holds */
};

struct names_matcher *
names_matcher_new(void)
{
	return xcalloc(1, sizeof(struct names_matcher));
}

/* mm's match data, large enough for m's patterns. */
static pcre2_match_data *
matcher_data(struct names_matcher *mm, const struct names_map *m)
{
	if (mm->md == NULL || mm->groups < m->max_group) {
		pcre2_match_data_free(mm->md);
		mm->groups = m->max_group;
		mm->md = xnonnull(pcre2_match_data_create(mm->groups + 1,
		    NULL));
	}
	return mm->md;
}

void
names_matcher_free(struct names_matcher *mm)
{
	if (mm == NULL)
		return;
	pcre2_match_data_free(mm->md);
	free(mm);
}

long
names_match(const struct names_map *m, struct names_matcher *mm,
    struct gguf_str name, int64_t *layer)
{
	pcre2_match_data *md = matcher_data(mm, m);
	PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);
	size_t i;
	int rc;

	for (i = 0; i < m->n_tensors; i++) {
		const struct names_tensor *t = &m->tensors[i];

		if (t->re == NULL) {
			if (plain_match(t, name, layer))
				return (long)i;
			continue;
		}
		rc = pcre2_match(t->re, (PCRE2_SPTR)name.p, (PCRE2_SIZE)name.n,
		    0, 0, md, NULL);
		if (rc < 0)
			continue;
		*layer = -1;
		if (!t->per_layer)
			return (long)i;
		if (ov[2 * t->layer_group] != PCRE2_UNSET &&
		    match_layer(name.p + ov[2 * t->layer_group],
		    ov[2 * t->layer_group + 1] - ov[2 * t->layer_group],
		    layer))
			return (long)i;
	}
	return -1;
}

/* ---- what a file is ---------------------------------------------------- */

enum names_kind
names_classify(const struct names_db *db, struct names_matcher *mm,
    const struct gguf_file *f, const char *arch, const struct names_map **map)
{
	struct gguf_str type;
	char key[160];
	int64_t layer;
	size_t i;

	*map = NULL;
	if (f->tensors_n == 0)
		return NAMES_NO_TENSORS;
	if (names_key_str(f, "general.type", &type) &&
	    !gguf_str_eq(type, "model"))
		return NAMES_NOT_MODEL;
	if (arch[0] == '\0')
		return NAMES_NO_ARCH;
	if ((*map = names_db_find(db, arch)) == NULL)
		return NAMES_NO_MAP;
	for (i = 0; i < f->tensors_n; i++)
		if (names_match(*map, mm, f->tensors[i].name, &layer) >= 0)
			return NAMES_MODEL;
	snprintf(key, sizeof key, "%s.embedding_length", arch);
	return gguf_find_kv(f, key) != NULL ? NAMES_MODEL : NAMES_FOREIGN;
}

void
names_split(const struct gguf_file *f, int64_t *no, int64_t *count)
{
	if (!gguf_find_int(f, "split.no", no) || *no < 0)
		*no = 0;
	if (!gguf_find_int(f, "split.count", count) || *count < 1)
		*count = 1;
}
