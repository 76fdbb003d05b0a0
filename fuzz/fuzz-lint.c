/*
 * fuzz-lint.c - libFuzzer harness: the whole lint of a GGUF file under a
 * fixed profile (mobile_2gb, its probed mobile table) and every reporter.
 * Built with FUZZ_DEEP (fuzz-deep), the lint also reads the tensor data
 * (--deep), on one worker or two, with the full statistics or only the D
 * rules', chosen by the input's size.
 */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "target/captable.h"
#include "lint.h"
#include "report/report.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct catalog cat;
static struct profile prof;
static struct captable table;
static struct policy pol;

static void
setup(void)
{
	struct gl_error err;

	if (catalog_load_builtin(&cat, &err) < 0 ||
	    profile_load("mobile_2gb", &prof, &err) < 0 ||
	    captable_load(prof.kernels, &table, &err) < 0)
		__builtin_trap();
	captable_probe(&table, NULL);
	policy_init(&pol);
	atexit(lint_cleanup);	/* the caches lint_buffer fills */
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct lint_options lo = { 0 };
	struct report_opts ro = { .show_plan = true };
	struct report_ctx rc;
	struct strbuf sb = STRBUF_INIT;
	struct lint_result res;
	const struct reporter *r;
	size_t n, pick;

	if (cat.n == 0)
		setup();
	lo.cat = &cat;
	lo.policy = &pol;
	lo.profile = &prof;
	lo.table = &table;
	lo.strict = true;
#ifdef FUZZ_DEEP
	lo.deep = true;
	lo.threads = 1 + (size & 1);
	lo.deep_full = (size & 2) != 0;
#endif
	lint_buffer("fuzz.gguf", data, size, &lo, &res);
	/* One reporter per input, chosen by its last byte: each is
	 * exercised. SARIF writes the whole catalogue, the same bytes for
	 * every input, in every run: only one of its picks in eight is
	 * kept (the others go to JSON), so that it does not dominate. */
	n = 0;
	for (r = reporters; r->name != NULL; r++)
		n += r->file != NULL;
	pick = size ? data[size - 1] % n : 0;
	for (r = reporters; r->name != NULL; r++) {
		if (r->file == NULL || pick-- != 0)
			continue;
		if (strcmp(r->name, "sarif") == 0 && size >= 2 &&
		    data[size - 2] % 8 != 0)
			r = reporter_find("json");
		report_ctx_init(&rc, &cat, &ro);
		r->begin(&rc, &sb);
		r->file(&rc, &sb, &res);
		r->end(&rc, &sb);
		report_ctx_free(&rc);
		break;
	}
	strbuf_free(&sb);
	lint_result_free(&res);
	return 0;
}
