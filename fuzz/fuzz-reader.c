/*
 * fuzz-reader.c - libFuzzer harness: the GGUF reader alone, on arbitrary
 * bytes, followed by every accessor a later stage uses and both dumps.
 */
#include "config.h"

#include <stddef.h>
#include <stdint.h>

#include "findings/catalog.h"
#include "reader/gguf.h"
#include "report/report.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct catalog cat;

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct strbuf sb = STRBUF_INIT;
	struct diag_list dl;
	struct gguf_file f;
	struct gl_error err;
	struct report_ctx rc;

	if (cat.n == 0 && catalog_load_builtin(&cat, &err) < 0)
		__builtin_trap();
	diag_list_init(&dl, &cat);
	gguf_open_mem(&f, "fuzz.gguf", data, size);
	gguf_parse(&f, &dl);
	diag_finish(&dl);
	report_ctx_init(&rc, &cat, NULL);
	dump_json(&rc, &sb, &f);
	dump_text(&rc, &sb, &f);
	report_ctx_free(&rc);
	strbuf_free(&sb);
	gguf_close(&f);
	diag_list_free(&dl);
	return 0;
}
