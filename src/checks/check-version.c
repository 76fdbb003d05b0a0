/*
 * check-version.c - M018 and M019, the llama.cpp version a file needs
 * (llversions.h): for a llama.cpp profile, each architecture, pre-tokenizer,
 * projector type and tensor type of the file against the first llama.cpp
 * build that knew it. M018 when the profile's runtime_version is older
 * than what the file needs; M019 when the data knows a name in no release
 * at all (newer than the data, or misspelled).
 */
#include <stdio.h>
#include <string.h>

#include "checks/checks.h"
#include "facts/llversions.h"
#include "target/profile.h"

/* One file against one runtime version. */
struct vc {
	const struct llv_db *db;
	uint32_t build;		/* the profile's runtime_build; 0: none */
	const char *version;	/* its runtime_version */
	struct diag_list *dl;
	uint32_t newest;	/* the newest build the data dates */
};

/* Record a finding of code about item it (its key or first tensor). */
static struct diag *
add(struct vc *v, const char *code, const struct llv_item *it,
    const char *msg)
{
	if (it->kv != NULL)
		return diag_add(v->dl, code, it->offset, SUBJECT_KEY,
		    it->kv->key.p, (size_t)it->kv->key.n, "%s", msg);
	return diag_add(v->dl, code, it->offset, SUBJECT_TENSOR,
	    it->name.p, (size_t)it->name.n, "%s", msg);
}

/*
 * The known name it would be without the bytes no llama.cpp name has (an
 * invisible character, a space, an upper-case letter), or NULL.
 */
static const char *
near_name(const struct vc *v, const struct llv_item *it, bool *odd)
{
	char buf[128];
	size_t i, n = 0;
	const struct llv_row *r;

	*odd = false;
	for (i = 0; i < it->name.n && n + 1 < sizeof buf; i++) {
		unsigned char c = (unsigned char)it->name.p[i], l = c;

		if (c >= 'A' && c <= 'Z')
			l = (unsigned char)(c - 'A' + 'a');
		if ((l >= 'a' && l <= 'z') || (l >= '0' && l <= '9') ||
		    l == '-' || l == '_' || l == '.')
			buf[n++] = (char)l;
		else
			*odd = true;	/* dropped */
		if (l != c)
			*odd = true;	/* lowered */
	}
	if (!*odd || i < it->name.n)
		return NULL;
	r = llv_find(v->db, it->kind, buf, n);
	return r != NULL ? r->name : NULL;
}

/* A name the data knows in no release: M018 when the profile's runtime
 * is one the data covers, else M019. */
static void
unknown(struct vc *v, const struct llv_item *it)
{
	char what[160], msg[512], hint[200] = "";
	const char *near;
	bool odd, covered;
	size_t len;

	llv_describe(it, what, sizeof what);
	near = near_name(v, it, &odd);
	if (near != NULL)
		snprintf(hint, sizeof hint, "; without its stray characters "
		    "it would be '%s'", near);
	else if (odd)
		snprintf(hint, sizeof hint, "; it has characters no "
		    "llama.cpp name has");
	covered = v->build != 0 &&
	    (v->build == RUNTIME_BUILD_V0_5_0 ||
	    v->build <= v->newest);
	len = (size_t)snprintf(msg, sizeof msg, "%s is known to no llama.cpp "
	    "up to %s", what, v->db->release);
	if (covered)
		snprintf(msg + len, sizeof msg - len, ", so not to the "
		    "profile's %s, which refuses the file%s",
		    v->version, hint);
	else
		snprintf(msg + len, sizeof msg - len, " (newer than gguflint's "
		    "data, or misspelled): llama.cpp %s refuses it%s",
		    v->db->release, hint);
	add(v, covered ? "M018" : "M019", it, msg);
}

/* A known name: M018 when it is newer than the profile's runtime. */
static void
known(struct vc *v, const struct llv_item *it)
{
	char what[160], msg[512];

	if (v->build == 0 || it->row->build == 0 ||
	    v->build == RUNTIME_BUILD_V0_5_0 ||
	    it->row->build <= v->build)
		return;
	llv_describe(it, what, sizeof what);
	snprintf(msg, sizeof msg, "%s needs llama.cpp b%u or later (%s); "
	    "the profile's runtime_version is %s, which refuses the file",
	    what, (unsigned)it->row->build, it->row->date,
	    v->version);
	add(v, "M018", it, msg);
}

static uint32_t
newest_build(const struct llv_db *db)
{
	uint32_t b = 0;
	size_t k, i;

	for (k = 0; k < LLV_NKINDS; k++)
		for (i = 0; i < db->n[k]; i++)
			if (db->rows[k][i].build > b)
				b = db->rows[k][i].build;
	return b;
}

void
check_version(const struct check_ctx *ctx, struct diag_list *dl)
{
	struct llv_item items[LLV_MAX_ITEMS];
	const struct profile *p = ctx->profile;
	struct vc v = { .dl = dl };
	size_t i, n;

	/* SKaiNET's names are not llama.cpp's; without a profile, the
	 * runtime is llama.cpp of no named version */
	if ((p != NULL && p->runtime != RUNTIME_LLAMA_CPP) ||
	    llv_db_get(&v.db, NULL) < 0)
		return;
	if (p != NULL) {
		v.build = p->runtime_build;
		v.version = p->runtime_version;
	}
	v.newest = newest_build(v.db);
	n = llv_items(ctx->file, v.db, items, LLV_MAX_ITEMS);
	for (i = 0; i < n; i++) {
		if (items[i].row == NULL)
			unknown(&v, &items[i]);
		else
			known(&v, &items[i]);
	}
}
