/*
 * check-file.c - F family checks on the parsed header's layout: the data
 * section and each tensor's data lie inside the file, offsets are aligned,
 * contiguous and in order (as llama.cpp has required since 2025-01), the
 * padding before the data is zero, and nothing follows the data.
 */
#include "config.h"

#include <inttypes.h>
#include <string.h>

#include "checks/checks.h"
#include "reader/magic.h"
#include "findings/severity.h"
#include "target/profile.h"

static void
check_padding(const struct gguf_file *f, struct diag_list *dl)
{
	/* the window holds the padding, or its first MiB (gguf.h) */
	uint64_t end = f->data_offset < f->avail ? f->data_offset : f->avail;
	uint64_t i;

	if (f->tensors_n == 0)
		return;		/* no data section, so no padding */
	for (i = f->infos_end; i < end; i++) {
		if (f->map[i] != 0) {
			diag_add(dl, "F029", i, SUBJECT_NONE, NULL, 0,
			    "padding byte 0x%02x at offset %" PRIu64 " before "
			    "the tensor data (the spec says padding is zero)",
			    f->map[i], i);
			return;
		}
	}
}

/* Offsets: aligned, and equal to the running sum of padded sizes. */
static void
check_offsets(const struct gguf_file *f, struct diag_list *dl)
{
	uint64_t expect = 0, padded;
	size_t i;

	for (i = 0; i < f->tensors_n; i++) {
		const struct gguf_tensor *t = &f->tensors[i];

		if (t->offset % f->alignment != 0)
			diag_add(dl, "F025", t->offset_info, SUBJECT_TENSOR,
			    t->name.p, t->name.n, "data offset %" PRIu64 " is "
			    "not a multiple of the alignment %" PRIu32,
			    t->offset, f->alignment);
		if (!t->size_ok)
			return;		/* the running sum is unknown now */
		if (t->offset != expect)
			diag_add(dl, "F026", t->offset_info, SUBJECT_TENSOR,
			    t->name.p, t->name.n, "data offset %" PRIu64 ", "
			    "expected %" PRIu64 " (tensors must be contiguous "
			    "and in order): %s", t->offset, expect,
			    t->offset > expect ? "a gap before it" :
			    "it overlaps earlier data or is out of order");
		if (u64_pad_overflow(t->nbytes, f->alignment, &padded) ||
		    u64_add_overflow(expect, padded, &expect)) {
			diag_add(dl, "F021", t->offset_info, SUBJECT_TENSOR,
			    t->name.p, t->name.n, "the running size of the "
			    "data section overflows 64 bits here");
			return;
		}
	}
}

/*
 * Data inside the file: one finding for the tensors whose data runs past
 * the end (a truncated download says how much is missing), and one per
 * tensor whose end does not even fit in 64 bits.
 */
static void
check_bounds(const struct gguf_file *f, struct diag_list *dl)
{
	const struct gguf_tensor *first = NULL;
	uint64_t need = 0, end;
	size_t i, n_out = 0;

	for (i = 0; i < f->tensors_n; i++) {
		const struct gguf_tensor *t = &f->tensors[i];

		if (!t->size_ok)
			continue;
		if (u64_add_overflow(f->data_offset, t->offset, &end) ||
		    u64_add_overflow(end, t->nbytes, &end)) {
			diag_add(dl, "F010", t->offset_info, SUBJECT_TENSOR,
			    t->name.p, t->name.n, "data offset %" PRIu64
			    " plus %" PRIu64 " bytes lies beyond any possible "
			    "file end", t->offset, t->nbytes);
			continue;
		}
		if (end > f->size) {
			if (n_out++ == 0)
				first = t;
			if (end > need)
				need = end;
		}
	}
	if (first == NULL)
		return;
	diag_add(dl, "F010", first->offset_info, SUBJECT_TENSOR, first->name.p,
	    first->name.n, "data of %zu of %zu tensors runs past the end of "
	    "the file: it needs %" PRIu64 " bytes, the file has %" PRIu64
	    " (%" PRIu64 " bytes missing; a truncated download?)", n_out,
	    f->tensors_n, need, f->size, need - f->size);
}

/*
 * What follows the tensor data: a container there (an archive, an
 * executable, a script, a pickle, another GGUF; or a ZIP's end record
 * as the file's last bytes) is F036, other bytes F035.
 */
static void
check_trailing(const struct gguf_file *f, struct diag_list *dl)
{
	uint64_t n = f->size - f->data_end;
	bool container = false;
	const char *what = magic_name(f->tail, f->tail_n, &container);

	if (f->data_end == 0 || f->data_end >= f->size)
		return;
	if (!container && magic_zip_end(f->tail_last, f->tail_last_n)) {
		what = "a ZIP archive (its end record closes the file)";
		container = true;
	}
	if (container) {
		diag_add(dl, "F036", f->data_end, SUBJECT_NONE, NULL, 0,
		    "%" PRIu64 " bytes follow the tensor data from offset %"
		    PRIu64 " and hold %s: the file is a GGUF and something "
		    "else at once", n, f->data_end, what);
		return;
	}
	diag_add(dl, "F035", f->data_end, SUBJECT_NONE, NULL, 0, "%" PRIu64
	    " bytes follow the tensor data from offset %" PRIu64 "%s%s: no "
	    "tensor refers to them%s", n, f->data_end,
	    what != NULL ? ", beginning as " : "", what != NULL ? what : "",
	    f->tail_n == 0 ? " (gguflint did not read them: a pipe or a "
	    "remote file)" : "");
}

/*
 * F005 follows the profile: a big-endian file is an error on a llama.cpp
 * device of the other byte order, which refuses it. Every device a
 * built-in llama.cpp profile describes is little-endian; the host profile
 * is this machine, whose byte order is the build's.
 */
static void
byte_order_for_runtime(const struct check_ctx *ctx, struct diag_list *dl)
{
	const struct profile *p = ctx->profile;
	bool device_be = p != NULL && p->cpu_features_host &&
	    __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__;
	size_t i;

	if (p == NULL || p->runtime != RUNTIME_LLAMA_CPP ||
	    ctx->file->big_endian == device_be)
		return;
	for (i = 0; i < dl->n; i++)
		if (strcmp(dl->v[i].rule->code, "F005") == 0)
			dl->v[i].severity = SEV_ERROR;
}

void
check_file_layout(const struct check_ctx *ctx, struct diag_list *dl)
{
	const struct gguf_file *f = ctx->file;

	byte_order_for_runtime(ctx, dl);
	check_padding(f, dl);
	check_offsets(f, dl);
	check_bounds(f, dl);
	check_trailing(f, dl);
}
