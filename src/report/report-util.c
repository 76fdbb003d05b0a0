/*
 * report-util.c - what several formats read of a diagnostic the same way:
 * its message, its fingerprint (SARIF's partialFingerprints, gitlab's
 * fingerprint), its path without dot segments, and the extent of the
 * record its offset points at (SARIF's binary region).
 */
#include "config.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "base/enc.h"
#include "base/sha256.h"
#include "base/util.h"
#include "base/version.h"
#include "findings/diag.h"
#include "lint.h"
#include "reader/gguf.h"
#include "report/report.h"

const char *
report_message(const struct diag *d)
{
	return d->message;
}

void
report_fingerprint(const struct lint_result *res, size_t i, char hex[65])
{
	const struct diag *d = &res->diags.v[i];
	const char *base = strrchr(res->path, '/');
	static const char kinds[] = "-kt";
	struct sha256 ctx;
	uint8_t digest[32];
	size_t j, repeats = 0;

	for (j = 0; j < i; j++) {
		const struct diag *e = &res->diags.v[j];

		if (e->rule == d->rule && e->kind == d->kind &&
		    e->subject_len == d->subject_len &&
		    (d->subject_len == 0 ||
			memcmp(e->subject, d->subject, d->subject_len) == 0))
			repeats++;
	}
	base = base != NULL ? base + 1 : res->path;
	sha256_init(&ctx);
	sha256_update(&ctx, d->rule->code, strlen(d->rule->code) + 1);
	sha256_update(&ctx, base, strlen(base) + 1);
	sha256_update(&ctx, &kinds[d->kind <= SUBJECT_TENSOR ? d->kind : 0], 1);
	sha256_update(&ctx, "", 1);
	if (d->subject != NULL)
		sha256_update(&ctx, d->subject, d->subject_len);
	sha256_update(&ctx, "", 1);
	if (repeats > 0) {
		char num[24];
		int n = snprintf(num, sizeof num, "%zu", repeats);

		sha256_update(&ctx, num, (size_t)n);
	}
	sha256_final(&ctx, digest);
	sha256_hex(digest, hex);
}

bool
report_is_url(const char *path)
{
	const char *p = path;

	if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z')))
		return false;
	while ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
	    (*p >= '0' && *p <= '9') || *p == '+' || *p == '-' || *p == '.')
		p++;
	return strncmp(p, "://", 3) == 0;
}

char *
report_normalize_path(const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	size_t *starts;
	size_t depth = 0;
	bool absolute = path[0] == '/';
	const char *p = path;

	if (report_is_url(path))
		return xstrdup(path); /* a remote file's URL */
	starts = xcalloc(strlen(path) / 2 + 2, sizeof *starts);

	if (absolute)
		strbuf_addc(&sb, '/');
	while (*p != '\0') {
		size_t n = strcspn(p, "/");

		if (n == 2 && p[0] == '.' && p[1] == '.') {
			if (depth > 0) {
				/* Drop the last segment and its slash. */
				sb.len = starts[--depth];
				sb.buf[sb.len] = '\0';
			} else if (!absolute) {
				strbuf_adds(&sb, sb.len ? "/.." : "..");
			}
		} else if (n > 0 && !(n == 1 && p[0] == '.')) {
			starts[depth++] = sb.len;
			if (sb.len > 0 && sb.buf[sb.len - 1] != '/')
				strbuf_addc(&sb, '/');
			strbuf_add(&sb, p, n);
		}
		p += n;
		if (*p == '/')
			p++;
	}
	free(starts);
	return strbuf_detach(&sb);
}

/*
 * The index of the record starting at off among n records sorted by
 * offset, each stride bytes from the last with its uint64_t offset at
 * byte at of it; -1 when none starts there.
 */
static long
record_index(const void *base, size_t n, size_t stride, size_t at, uint64_t off)
{
	const unsigned char *p = base;
	size_t lo = 0, hi = n;
	uint64_t o;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		memcpy(&o, p + mid * stride + at, sizeof o);
		if (o < off)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < n)
		memcpy(&o, p + lo * stride + at, sizeof o);
	return lo < n && o == off ? (long)lo : -1;
}

/* The index of the key/value record of f starting at off, or -1. */
static long
kv_at(const struct gguf_file *f, uint64_t off)
{
	return record_index(f->kv, f->kv_n, sizeof *f->kv,
	    offsetof(struct gguf_kv, offset), off);
}

/* The index of the tensor info record of f starting at off, or -1. */
static long
info_at(const struct gguf_file *f, uint64_t off)
{
	return record_index(f->tensors, f->tensors_n, sizeof *f->tensors,
	    offsetof(struct gguf_tensor, offset_info), off);
}

/* The end of f's tensor infos when it is known (the header read whole),
 * else 0. */
static uint64_t
infos_end(const struct gguf_file *f)
{
	return f->header_complete ? f->infos_end : 0;
}

/* The end of the record of f starting at off (a key/value or tensor info
 * record), or 0 when off starts none or its end is unknown. */
static uint64_t
record_end(const struct gguf_file *f, uint64_t off)
{
	long i;

	if ((i = kv_at(f, off)) >= 0) {
		if ((size_t)i + 1 < f->kv_n)
			return f->kv[i + 1].offset;
		if (f->kv_n != f->n_kv)
			return 0;
		return f->tensors_n > 0 ? f->tensors[0].offset_info :
					  infos_end(f);
	}
	if ((i = info_at(f, off)) >= 0)
		return (size_t)i + 1 < f->tensors_n ?
		    f->tensors[i + 1].offset_info :
		    infos_end(f);
	return 0;
}

/* The end of the data of the tensor of f whose data starts at off, or 0. */
static uint64_t
data_end(const struct gguf_file *f, uint64_t off)
{
	size_t i;

	if (!f->header_complete || off < f->data_offset)
		return 0;
	for (i = 0; i < f->tensors_n; i++) {
		const struct gguf_tensor *t = &f->tensors[i];
		uint64_t end;

		if (!t->size_ok || t->offset != off - f->data_offset ||
		    u64_add_overflow(off, t->nbytes, &end))
			continue;
		return end;
	}
	return 0;
}

bool
report_subject_extent(const struct lint_result *res, const struct diag *d,
    uint64_t *length)
{
	const struct gguf_file *f = &res->file;
	uint64_t end = record_end(f, d->offset);

	if (end == 0)
		end = data_end(f, d->offset);
	if (end <= d->offset || end > f->size)
		return false;
	*length = end - d->offset;
	return true;
}

void
report_json_tool(struct strbuf *out)
{
	strbuf_adds(out, "{\"version\": ");
	enc_json_cstr(out, PACKAGE_VERSION);
	strbuf_adds(out, ", \"commit\": ");
	if (gguflint_commit[0] != '\0')
		enc_json_cstr(out, gguflint_commit);
	else
		strbuf_adds(out, "null");
	strbuf_adds(out, "}");
}
