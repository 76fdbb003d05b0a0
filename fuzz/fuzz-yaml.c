/*
 * fuzz-yaml.c - libFuzzer harness for one YAML loader, chosen at compile
 * time by FUZZ_TARGET: 1 profile, 2 capability table (then probed), 3 rule
 * file (then run on a small model), 4 configuration file.
 */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "target/captable.h"
#include "cli/configfile.h"
#include "checks/declrule.h"
#include "lint.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A minimal GGUF: one string key, one f32 tensor of 4 elements. */
static const uint8_t model[] = {
	'G', 'G', 'U', 'F', 3, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0,
	0, 0, 0, 0, 15, 0, 0, 0, 0, 0, 0, 0, 'g', 'e', 'n', 'e', 'r', 'a',
	'l', '.', 'l', 'i', 'c', 'e', 'n', 's', 'e', 8, 0, 0, 0, 3, 0, 0, 0,
	0, 0, 0, 0, 'm', 'i', 't', 1, 0, 0, 0, 0, 0, 0, 0, 'w', 1, 0, 0, 0,
	4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
};

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	struct gl_error err;
	int rc = 0;

#if FUZZ_TARGET == 1
	struct profile p;

	if (profile_parse("fuzz.yaml", text, size, &p, &err) == 0)
		profile_free(&p);
#elif FUZZ_TARGET == 2
	struct captable t;

	if (captable_parse("fuzz.yaml", text, size, &t, &err) == 0) {
		captable_probe(&t, NULL);
		captable_free(&t);
	}
#elif FUZZ_TARGET == 3
	/* The built-in catalogue, loaded once; each run works on a shallow
	 * copy, and frees only the entries the input added (those the set
	 * has a matcher for, even when a later rule failed). */
	static struct catalog base;
	struct catalog cat;
	struct declset set = { 0 };
	struct lint_options lo = { 0 };
	struct lint_result res;
	size_t i;
	long *added;

	if (base.n == 0)
		atexit(lint_cleanup);	/* the caches lint_buffer fills */
	if (base.n == 0 && catalog_load_builtin(&base, &err) < 0)
		__builtin_trap();
	cat.n = base.n;
	cat.rules = xmalloc(base.n * sizeof *cat.rules);
	memcpy(cat.rules, base.rules, base.n * sizeof *cat.rules);
	if (declrule_parse(&cat, &set, "fuzz.yaml", text, size, &err) == 0) {
		lo.cat = &cat;
		lo.decls = &set;
		lint_buffer("m.gguf", model, sizeof model, &lo, &res);
		lint_result_free(&res);
	}
	/* The built-in entries are base's. Find every added one before
	 * freeing any: catalog_index compares the codes of all entries. */
	added = xcalloc(set.n + 1, sizeof *added);
	for (i = 0; i < set.n; i++)
		added[i] = catalog_index(&cat, set.v[i].code);
	for (i = 0; i < set.n; i++)
		if (added[i] >= 0)
			catalog_rule_free(&cat.rules[added[i]]);
	free(added);
	declset_free(&set);
	free(cat.rules);
#else
	static struct catalog cat;
	struct policy pol;
	struct config cfg;

	/* rule files are not read, so the catalogue never changes */
	if (cat.n == 0 && catalog_load_builtin(&cat, &err) < 0)
		__builtin_trap();
	policy_init(&pol);
	rc = config_parse("/tmp/fuzz.yaml", "/tmp", text, size, false, &cat,
	    NULL, &pol, &cfg, &err);
	config_free(&cfg);
	policy_free(&pol);
#endif
	(void)rc;
	(void)err;
	(void)text;
	(void)model;
	return 0;
}
