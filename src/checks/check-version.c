/*
 * check-version.c - M018, M019 and M020, the llama.cpp version a file
 * needs (llversions.h): for a llama.cpp profile, each architecture,
 * pre-tokenizer, projector type and tensor type of the file against the
 * first llama.cpp build that knew it. M018 when the profile's
 * runtime_version is older than what the file needs; M019 when the data
 * knows a name in no release (newer than the data, or misspelled) and the
 * profile's runtime is one the data covers; M020 when it is newer.
 * With a runtime holding libllama (--runtime), what its llama.cpp said
 * of a vocabulary load of the file: a refusal of a name M019 or M020
 * reports is quoted in their message, any other refusal (or a crash) is
 * M021. M022: an architecture llama.cpp loads only as a companion
 * (clip, a projector) given as the model.
 */
#include <stdio.h>
#include <string.h>

#include "checks/checks.h"
#include "runtime/runtime.h"
#include "facts/llversions.h"
#include "reader/gguf.h"
#include "target/profile.h"

/* One file against one runtime version. */
struct vc {
	const struct llv_db *db;
	uint32_t build;	     /* the profile's runtime_build; 0: none */
	const char *version; /* its runtime_version */
	struct diag_list *dl;
	uint32_t newest;	     /* the newest build the data dates */
	const struct rt_llama *said; /* a refusal of the runtime's, or
				      * NULL */
	bool quoted;		     /* said is in a finding */
};

/* Record a finding of code about item it (its key or first tensor). */
static struct diag *
add(struct vc *v, const char *code, const struct llv_item *it, const char *msg)
{
	if (it->kv != NULL)
		return diag_add(v->dl, code, it->offset, SUBJECT_KEY,
		    it->kv->key.p, (size_t)it->kv->key.n, "%s", msg);
	return diag_add(v->dl, code, it->offset, SUBJECT_TENSOR, it->name.p,
	    (size_t)it->name.n, "%s", msg);
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
			*odd = true; /* dropped */
		if (l != c)
			*odd = true; /* lowered */
	}
	if (!*odd || i < it->name.n)
		return NULL;
	r = llv_find(v->db, it->kind, buf, n);
	return r != NULL ? r->name : NULL;
}

/* What llama.cpp says when it refuses a name of kind k. */
static const char *
refusal(enum llv_kind k)
{
	return k == LLV_ARCH ? "unknown model architecture" :
	    k == LLV_PRE     ? "unknown pre-tokenizer type" :
			       "unknown projector type";
}

/*
 * The runtime's refusal appended to msg (of size n) when it is the one
 * llama.cpp gives for this cause (its text holds cause).
 */
static void
runtime_says(struct vc *v, const char *cause, char *msg, size_t n)
{
	size_t len = strlen(msg);

	if (v->said == NULL || strstr(v->said->text, cause) == NULL || len >= n)
		return;
	snprintf(msg + len, n - len, "; the runtime's llama.cpp %s says: %s",
	    v->said->version ? v->said->version : "", v->said->text);
	v->quoted = true;
}

/* M021: the runtime's refusal (or crash) no other finding quoted. */
static void
runtime_refused(const struct vc *v, const struct check_ctx *ctx)
{
	const struct rt_llama *l = ctx->llama;

	if (l == NULL || v->quoted)
		return;
	if (l->verdict == RT_LLAMA_REFUSED)
		diag_note(diag_add(v->dl, "M021", 0, SUBJECT_NONE, NULL, 0,
			      "the runtime's llama.cpp %s refuses the file's "
			      "vocabulary load",
			      l->version ? l->version : ""),
		    "it says: %s", l->text);
	else if (l->verdict == RT_LLAMA_DIED)
		diag_note(
		    diag_add(v->dl, "M021", 0, SUBJECT_NONE, NULL, 0,
			"the runtime's llama.cpp %s did not finish the file's "
			"vocabulary load",
			l->version ? l->version : ""),
		    "%s", l->text);
}

/*
 * A name the data knows in no release: M019 when the profile's runtime is
 * one the data covers (none named: the llama.cpp gguflint replicates,
 * base/replica.h; that release by name; a build no newer than the newest
 * the data dates), else M020.
 */
static void
unknown(struct vc *v, const struct llv_item *it)
{
	char what[160], msg[1400], hint[800] = "", rt[64];
	const char *near;
	bool odd;

	llv_describe(it, what, sizeof what);
	near = near_name(v, it, &odd);
	if (near != NULL)
		snprintf(hint, sizeof hint,
		    "; without its stray characters "
		    "it would be '%s'",
		    near);
	else if (odd)
		snprintf(hint, sizeof hint,
		    "; it has characters no "
		    "llama.cpp name has");
	runtime_says(v, refusal(it->kind), hint, sizeof hint);
	if (v->build != 0 && v->build != RUNTIME_BUILD_REPLICA &&
	    v->build > v->newest) {
		snprintf(msg, sizeof msg,
		    "%s is known to no llama.cpp up to %s, the newest the "
		    "data covers",
		    what, v->db->release);
		diag_note(add(v, "M020", it, msg),
		    "whether the profile's %s "
		    "knows it, gguflint's data cannot say%s",
		    v->version, hint);
		return;
	}
	if (v->version != NULL)
		snprintf(rt, sizeof rt, "the profile's %s", v->version);
	else
		snprintf(rt, sizeof rt, "llama.cpp %s", v->db->release);
	snprintf(msg, sizeof msg,
	    "%s is known to no llama.cpp up to %s: %s refuses the file", what,
	    v->db->release, rt);
	diag_note(add(v, "M019", it, msg), "llama.cpp says \"%s\"%s",
	    refusal(it->kind), hint);
}

/*
 * Architectures llama.cpp v0.5.0 loads only beside a main model, as its
 * multimodal projector (--mmproj), and refuses as the model itself.
 */
static const char *const companions[] = { "clip" };

/* M022: the file's architecture is a companion's. */
static void
companion(struct vc *v, const struct llv_item *it)
{
	char what[160], msg[400], note[1200];
	size_t i;

	if (it->kind != LLV_ARCH)
		return;
	for (i = 0; i < sizeof companions / sizeof companions[0]; i++)
		if (gguf_str_eq(it->name, companions[i]))
			break;
	if (i == sizeof companions / sizeof companions[0])
		return;
	llv_describe(it, what, sizeof what);
	snprintf(msg, sizeof msg,
	    "%s is a multimodal projector: llama.cpp %s refuses it as the "
	    "main model",
	    what, v->db->release);
	snprintf(note, sizeof note,
	    "llama.cpp says \"cannot be used as "
	    "main model\"");
	runtime_says(v, "cannot be used as main model", note, sizeof note);
	diag_fix(diag_note(add(v, "M022", it, msg), "%s", note),
	    "pass it "
	    "with --mmproj beside the language model");
}

/* M022 for a companion by its role (general.type), not its architecture,
 * given as the main model: what the user gives it as beside a model. */
static void
companion_role(struct vc *v, const struct check_ctx *ctx)
{
	const struct gguf_kv *kv = gguf_find_kv(ctx->file, "general.type");
	const char *name = role_name(ctx->role), *flag = "--lora";
	size_t i;

	for (i = 0; i < v->dl->n; i++)
		if (strcmp(v->dl->v[i].rule->code, "M022") == 0)
			return; /* its architecture said it */
	if (kv == NULL)
		kv = gguf_find_kv(ctx->file, "general.architecture");
	if (ctx->role == ROLE_MMPROJ)
		flag = "--mmproj";
	else if (ctx->role == ROLE_CVEC)
		flag = "--control-vector";
	diag_fix(diag_add(v->dl, "M022", kv != NULL ? kv->offset : 0,
		     SUBJECT_KEY, kv != NULL ? kv->key.p : NULL,
		     kv != NULL ? (size_t)kv->key.n : 0,
		     "the file is %s %s: llama.cpp loads it "
		     "only beside a model, not as the main model",
		     strchr("aeiom", name[0]) != NULL ? "an" : "a", name),
	    "pass it with %s beside the language model", flag);
}

/* A known name: M018 when it is newer than the profile's runtime. */
static void
known(struct vc *v, const struct llv_item *it)
{
	char what[160], msg[512];

	if (v->build == 0 || it->row->build == 0 ||
	    v->build == RUNTIME_BUILD_REPLICA || it->row->build <= v->build)
		return;
	llv_describe(it, what, sizeof what);
	snprintf(msg, sizeof msg,
	    "%s needs llama.cpp b%u or later (%s); the profile's %s refuses "
	    "the file",
	    what, (unsigned)it->row->build, it->row->date, v->version);
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
	if (p != NULL && p->runtime != RUNTIME_LLAMA_CPP)
		return;
	if (ctx->llama != NULL && ctx->llama->verdict == RT_LLAMA_REFUSED)
		v.said = ctx->llama;
	if (llv_db_get(&v.db, NULL) < 0) {
		runtime_refused(&v, ctx);
		return;
	}
	if (p != NULL) {
		v.build = p->runtime_build;
		v.version = p->runtime_version;
	}
	v.newest = newest_build(v.db);
	n = llv_items(ctx->file, v.db, items, LLV_MAX_ITEMS);
	for (i = 0; i < n; i++) {
		if (items[i].kind == LLV_ARCH && ctx->role == ROLE_CVEC)
			continue; /* "controlvector": no model's */
		if (items[i].row == NULL)
			unknown(&v, &items[i]);
		else
			known(&v, &items[i]);
		if (ctx->as_model) /* alone, it is checked as one */
			companion(&v, &items[i]);
	}
	if (ctx->as_model && role_companion(ctx->role))
		companion_role(&v, ctx);
	runtime_refused(&v, ctx);
}
