/*
 * test_names.c - the name maps and the N family: golden cases (one that
 * should warn and one that should not, per rule; see golden.h); every
 * built-in map loads and a model of each mapped architecture, written with
 * the shapes its geometry implies, gets no finding (and one misshapen
 * tensor gets N003); mistakes in a map are errors at FILE:LINE:COL; an
 * override in the data directory replaces the built-in map.
 */
#include "config.h"

#define PCRE2_CODE_UNIT_WIDTH 8

#include <criterion/criterion.h>
#include <ctype.h>
#include <inttypes.h>
#include <pcre2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "data/builtin.h"
#include "golden.h"
#include "ggufw.h"
#include "facts/names.h"
#include "lint.h"
#include "testutil.h"

/* The caches a lint fills are freed after every test (lint_cleanup). */
TestSuite(names, .fini = lint_cleanup);

static void
set_unmapped(struct tiny *t)
{
	t->extra = "model.layers.0.self_attn.rotary_emb.inv_freq";
}

static void set_drop_gate(struct tiny *t) { t->drop = "blk.1.ffn_gate.weight"; }
static void set_drop_output(struct tiny *t) { t->drop = "output.weight"; }
static void set_bad_k(struct tiny *t) { t->bad_shape = "blk.0.attn_k.weight"; }
static void set_extra_block(struct tiny *t) { t->extra_block = true; }
static void set_arch_unmapped(struct tiny *t) { t->arch = "nanbeige"; }
static void set_adapter(struct tiny *t) { t->general_type = "adapter"; }
static void set_type_model(struct tiny *t) { t->general_type = "model"; }

static const struct golden_case cases[] = {
	{ "N001-unmapped-tensor", "N001", 1, set_unmapped },
	{ "N001-ok", "N001", 0, NULL },
	{ "N002-missing-ffn-gate", "N002", 1, set_drop_gate },
	{ "N002-ok-tied-output", "N002", 0, set_drop_output },
	{ "N003-attn-k-shape", "N003", 1, set_bad_k },
	{ "N003-ok", "N003", 0, NULL },
	{ "N004-block-beyond-count", "N004", 1, set_extra_block },
	{ "N004-ok", "N004", 0, NULL },
	{ "N005-no-map", "N005", 1, set_arch_unmapped },
	{ "N005-ok", "N005", 0, NULL },
	{ "N006-adapter", "N006", 1, set_adapter },
	{ "N006-ok-general-type-model", "N006", 0, set_type_model },
};

Test(names, golden_cases)
{
	size_t i;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++)
		golden_run(&cases[i]);
}

/* ---- the built-in maps --------------------------------------------------- */

Test(names, builtin_maps_load_and_cover_the_issue_list)
{
	static const char *const archs[] = {
		"llama", "qwen2", "qwen3", "qwen2moe", "qwen3moe", "gemma2",
		"gemma3", "phi3", "deepseek2", "mamba", "falcon", "gpt2",
		"bert", "starcoder2", "olmo2", "nomic-bert", "gpt-oss",
		"llama4", "glm4moe", "cohere2", "mamba2", "lfm2",
		"granitehybrid", "gemma3n", "ernie4_5", "mistral3",
		"seed_oss", "smollm3", "hunyuan-dense", "granite",
		"command-r", "olmo", "exaone4", "olmoe", "phimoe",
		"granitemoe", "minimax-m2", "ernie4_5-moe", "qwen3vl",
		"qwen3vlmoe", "hunyuan-moe", "qwen35", "qwen35moe",
		"qwen3next", "nemotron_h", "nemotron_h_moe", "falcon-h1",
		"kimi-linear", "gemma4", "lfm2moe", "glm4", "arcee", "apertus",
		"exaone", "internlm2", "baichuan", "xverse", "deepseek32",
		"glm-dsa", "mistral4", "minicpm3", "kimi-k3", "deepseek",
		"deepseek2-ocr", "orion", "minicpm", "nemotron", "stablelm",
		"granite_swa", "phi2", "gptneox", "starcoder", "bloom", "mpt",
		"qwen", "refact", "codeshell", "bailingmoe2", "dots1",
		"exaone-moe", "cohere2moe", "afmoe", "bailingmoe", "dbrx",
		"arctic", "smallthinker", "grovemoe", "mimo2", "hy_v3", NULL
	};
	const char *const *a;
	struct names_db db;
	struct gl_error err;
	size_t i, n_read;

	cr_assert(names_db_load(&db, &err) == 0, "%s", err.msg);
	for (i = 0; i < db.n; i++)	/* the architectures alone, yet */
		cr_expect(!db.maps[i].read && db.maps[i].n_tensors == 0 &&
		    db.maps[i].n_archs > 0, "%s", db.maps[i].origin);
	cr_assert_not_null(names_db_find(&db, "qwen3"));
	for (i = 0, n_read = 0; i < db.n; i++)
		n_read += db.maps[i].read;
	cr_expect_eq(n_read, 1, "only the map asked for is read");
	for (a = archs; *a != NULL; a++)
		cr_expect(names_db_find(&db, *a) != NULL, "no map for %s", *a);
	cr_assert(names_db_find(&db, "clip") == NULL);
	/* every built-in map reads whole (else a lint of its architecture
	 * would exit 2) */
	cr_assert(names_db_read_all(&db, &err) == 0, "%s", err.msg);
	for (i = 0; i < db.n; i++) {
		cr_expect(db.maps[i].read, "%s", db.maps[i].origin);
		cr_expect(db.maps[i].n_keys >= 4, "%s", db.maps[i].origin);
		cr_expect(db.maps[i].n_tensors >= 8, "%s", db.maps[i].origin);
	}
	names_db_free(&db);
}

/* Parse one map document; returns the error message ("" when it loads). */
static const char *
parse_map(const char *text)
{
	static struct gl_error err;
	struct names_map m;

	err.msg[0] = '\0';
	names_map_parse(&m, "t.yaml", text, strlen(text), &err);
	names_map_free(&m);
	return err.msg;
}

Test(names, map_errors_name_the_place)
{
	cr_expect_str_eq(parse_map("architectures: [x]\ntensors:\n"
	    "  - { pattern: 'a\\.weight', shape: [n_embd] }\n"), "");
	cr_expect_str_eq(parse_map("architectures: [x]\ntensors:\n"
	    "  - { pattern: 'blk\\.(x\\.weight' }\n"),
	    "t.yaml:3:16: invalid pattern 'blk\\.(x\\.weight': missing "
	    "closing parenthesis at offset 15");
	cr_expect_str_eq(parse_map("architectures: [x]\ntensors:\n"
	    "  - { pattern: 'a', shape: [n_embd *] }\n"),
	    "t.yaml:3:29: in expression 'n_embd *': expected a number, a "
	    "name or '(' at offset 8");
	cr_expect_str_eq(parse_map("architectures: [x]\ntensors:\n"
	    "  - { pattern: 'a', when: (n_layer > 1 }\n"),
	    "t.yaml:3:27: in expression '(n_layer > 1': expected ')' at "
	    "offset 12");
	cr_expect_str_eq(parse_map("architectures: [x]\ntensors:\n"
	    "  - { pattern: 'a', unless: [b] }\n"),
	    "t.yaml:3:30: no tensor of this map has the id 'b'");
	cr_expect_str_eq(parse_map("architectures: [x]\ntensors:\n"
	    "  - { pattern: 'a|b' }\n"), "t.yaml:3:5: a required tensor's "
	    "pattern must be literal apart from its (?<layer>...) group "
	    "(mark it optional: true otherwise)");
	cr_expect_str_eq(parse_map("architectures: [x]\ntensors:\n"
	    "  - { pattern: 'a', shape: 3 }\n"),
	    "t.yaml:3:28: expected a list of dimensions");
	cr_expect_str_eq(parse_map("architectures: [x]\nkeys:\n"
	    "  - { key: a, type: u32 }\ntensors: []\n"),
	    "t.yaml:3:21: expected a GGUF scalar type (uint32, float32, "
	    "string, bool, ...)");
	cr_assert(strstr(parse_map("architectures: [x]\ntensors:\n"
	    "  - { pattern: 'a', shapes: [1] }\n"), "t.yaml:3:21: unknown "
	    "key 'shapes'") != NULL);
	cr_expect_str_eq(parse_map("tensors: []\n"),
	    "t.yaml:1:1: missing required key 'architectures'");
	cr_expect_str_eq(parse_map("architectures: [x]\nmtp_layers: maybe\n"
	    "tensors: []\n"), "t.yaml:2:13: expected optional or required");
}

/* A per-layer entry gets its display name and id from the pattern. */
Test(names, display_names_and_ids)
{
	const char *text = "architectures: [x]\ntensors:\n"
	    "  - { pattern: 'blk\\.(?<layer>\\d+)\\.attn_q\\.weight' }\n"
	    "  - { pattern: 'rope_factors_(?:long|short)\\.weight', "
	    "optional: true }\n"
	    "  - { pattern: 'blk\\.(?<layer>\\d+)\\.ffn_up\\.(?:\\d+)"
	    "\\.weight', id: legacy, optional: true }\n";
	struct names_map m;
	struct gl_error err;

	cr_assert(names_map_parse(&m, "t.yaml", text, strlen(text), &err) ==
	    0, "%s", err.msg);
	cr_assert_str_eq(m.tensors[0].display, "blk.N.attn_q.weight");
	cr_assert_str_eq(m.tensors[0].id, "attn_q.weight");
	cr_assert(m.tensors[0].per_layer);
	cr_assert(m.tensors[1].id == NULL);
	cr_assert(!m.tensors[1].per_layer);
	cr_assert_str_eq(m.tensors[2].id, "legacy");
	names_map_free(&m);
}

/*
 * A literal pattern (apart from a (?<layer>\d+) group) is matched without
 * PCRE2: on every built-in map's tensors, the same answer as PCRE2 with
 * the pattern compiled (anchored at both ends) for names made from each
 * tensor's display name: block 0, 7 and 4096, a leading zero, no digits,
 * a letter for a digit, a byte more or less at either end, another case,
 * another last byte.
 */
static const char *const layer_forms[] = { "0", "7", "4096", "07", "",
	"x", "1x" };

static void
names_of(const char *display, struct strbuf *names, size_t *n)
{
	const char *nn = strstr(display, "N");
	size_t i;

	*n = 0;
	for (i = 0; i < sizeof layer_forms / sizeof layer_forms[0]; i++) {
		strbuf_reset(&names[*n]);
		if (nn == NULL)
			strbuf_adds(&names[*n], display);
		else
			strbuf_addf(&names[*n], "%.*s%s%s", (int)(nn - display),
			    display, layer_forms[i], nn + 1);
		(*n)++;
		if (nn == NULL)
			break;
	}
	strbuf_reset(&names[*n]);
	strbuf_addf(&names[(*n)++], "%s.", names[0].buf);
	strbuf_reset(&names[*n]);
	strbuf_addf(&names[(*n)++], "x%s", names[0].buf);
	strbuf_reset(&names[*n]);
	strbuf_add(&names[(*n)++], names[0].buf + 1, names[0].len - 1);
	strbuf_reset(&names[*n]);
	strbuf_add(&names[(*n)++], names[0].buf, names[0].len - 1);
	strbuf_reset(&names[*n]);
	strbuf_adds(&names[*n], names[0].buf);
	names[*n].buf[0] = (char)toupper((unsigned char)names[*n].buf[0]);
	(*n)++;
	strbuf_reset(&names[*n]);
	strbuf_adds(&names[*n], names[0].buf);
	names[*n].buf[names[*n].len - 1] = '#';
	(*n)++;
}

/* What PCRE2 says of name against pattern: the layer, -1 without a
 * group, -2 when it does not match. */
static int64_t
pcre2_layer(const char *pattern, const char *name)
{
	pcre2_code *re;
	pcre2_match_data *md;
	PCRE2_SIZE off, *ov;
	int64_t layer = -2;
	int code, g;

	re = pcre2_compile((PCRE2_SPTR)pattern, PCRE2_ZERO_TERMINATED,
	    PCRE2_ANCHORED | PCRE2_ENDANCHORED, &code, &off, NULL);
	cr_assert_not_null(re, "%s", pattern);
	md = pcre2_match_data_create_from_pattern(re, NULL);
	g = pcre2_substring_number_from_name(re, (PCRE2_SPTR)"layer");
	if (pcre2_match(re, (PCRE2_SPTR)name, strlen(name), 0, 0, md,
	    NULL) >= 0) {
		ov = pcre2_get_ovector_pointer(md);
		layer = -1;
		if (g > 0) {
			const char *p = name + ov[2 * g];
			size_t len = ov[2 * g + 1] - ov[2 * g];

			layer = len > 1 && p[0] == '0' ? -2 :
			    strtoll(p, NULL, 10);
		}
	}
	pcre2_match_data_free(md);
	pcre2_code_free(re);
	return layer;
}

Test(names, literal_patterns_match_as_pcre2_does)
{
	const struct names_db *db;
	struct names_matcher *mm;
	struct strbuf names[16];
	struct gl_error err;
	size_t i, j, k, n, plain = 0, checked = 0;

	for (i = 0; i < 16; i++)
		strbuf_init(&names[i]);
	cr_assert(names_db_get(&db, &err) == 0, "%s", err.msg);
	cr_assert(names_db_read_all(db, &err) == 0, "%s", err.msg);
	mm = names_matcher_new();
	for (i = 0; i < db->n; i++) {
		const struct names_map *m = &db->maps[i];

		for (j = 0; j < m->n_tensors; j++) {
			const struct names_tensor *t = &m->tensors[j];
			struct names_map one = *m;

			if (t->re != NULL)
				continue;
			plain++;
			one.tensors = (struct names_tensor *)t;
			one.n_tensors = 1;
			names_of(t->display, names, &n);
			for (k = 0; k < n; k++, checked++) {
				struct gguf_str s = { names[k].buf,
					names[k].len };
				int64_t layer = -3, want;
				long got = names_match(&one, mm, s, &layer);

				want = pcre2_layer(t->pattern, names[k].buf);
				cr_assert_eq(got == 0 ? layer : -2, want,
				    "%s on '%s': %" PRId64 ", PCRE2 %" PRId64,
				    t->pattern, names[k].buf, got == 0 ?
				    layer : -2, want);
			}
		}
	}
	cr_log_info("%zu literal patterns, %zu names", plain, checked);
	cr_assert_gt(plain, 400, "%zu literal patterns", plain);
	names_matcher_free(mm);
	for (i = 0; i < 16; i++)
		strbuf_free(&names[i]);
}

/*
 * A data directory holding one name map, rules/arch/NAME with TEXT, set as
 * $GGUFLINT_DATADIR until map_dir_remove. Returns the map's path.
 */
struct map_dir {
	char dir[32];
	char *file;		/* DIR/rules/arch/NAME */
};

static const char *
map_dir_make(struct map_dir *md, const char *name, const char *text)
{
	char *sub;
	FILE *fp;

	strcpy(md->dir, "/tmp/gguflint-names-XXXXXX");
	cr_assert(mkdtemp(md->dir) != NULL);
	sub = xasprintf("%s/rules", md->dir);
	mkdir(sub, 0777);
	free(sub);
	sub = xasprintf("%s/rules/arch", md->dir);
	mkdir(sub, 0777);
	md->file = xasprintf("%s/%s", sub, name);
	free(sub);
	cr_assert_not_null(fp = fopen(md->file, "w"));
	fputs(text, fp);
	fclose(fp);
	setenv("GGUFLINT_DATADIR", md->dir, 1);
	return md->file;
}

static void
map_dir_remove(struct map_dir *md)
{
	char *sub;

	unsetenv("GGUFLINT_DATADIR");
	unlink(md->file);
	free(md->file);
	sub = xasprintf("%s/rules/arch", md->dir);
	rmdir(sub);
	free(sub);
	sub = xasprintf("%s/rules", md->dir);
	rmdir(sub);
	free(sub);
	rmdir(md->dir);
}

/* Two maps claiming one architecture is an error. */
Test(names, duplicate_architecture_is_an_error)
{
	struct map_dir md;
	const char *file;
	struct names_db db;
	struct gl_error err;

	file = map_dir_make(&md, "qwen2.yaml",
	    "architectures: [qwen2, llama]\ntensors: []\n");
	cr_assert(names_db_load(&db, &err) < 0);
	names_db_free(&db);
	cr_assert(strstr(err.msg, "architecture 'llama' is already mapped "
	    "by <builtin>/rules/arch/llama.yaml") != NULL, "%s", err.msg);
	cr_assert(strstr(err.msg, file) == err.msg, "%s", err.msg);
	cr_expect_eq(err.kind, GL_ERR_PARSE);
	map_dir_remove(&md);
}

/* A map on disk replaces the built-in one: here one that knows inv_freq. */
Test(names, data_directory_overrides_a_map)
{
	struct map_dir md;
	struct strbuf sb = STRBUF_INIT, text = STRBUF_INIT;
	struct datafile df;
	struct gl_error err;
	struct test_lint t;
	struct tiny m;

	cr_assert(datafile_load("rules/arch/llama.yaml", &df, &err) == 0);
	strbuf_add(&text, df.data, df.len);
	strbuf_adds(&text, "  - pattern: 'model\\.layers\\.(?<layer>\\d+)\\."
	    "self_attn\\.rotary_emb\\.inv_freq'\n    optional: true\n");
	datafile_free(&df);
	map_dir_make(&md, "llama.yaml", strbuf_cstr(&text));
	tiny_init(&m);
	set_unmapped(&m);
	tiny_build(&m, &sb);
	test_lint_bytes(&t, sb.buf, sb.len);
	cr_assert_eq(test_count(&t, "N001"), 0, "%s", test_codes(&t));
	test_lint_free(&t);
	strbuf_free(&sb);
	strbuf_free(&text);
	map_dir_remove(&md);
}

/* A broken map makes linting fail (exit 2), naming the place. */
Test(names, broken_map_is_an_operational_error)
{
	struct map_dir md;
	const char *argv[] = { "x.gguf", NULL };
	struct test_run r;

	map_dir_make(&md, "gpt2.yaml", "architectures: [gpt2]\n"
	    "tensors:\n  - { pattern: '[' }\n");
	argv[0] = "/dev/null";
	test_run_bin(&r, argv, NULL, 0);
	cr_assert_eq(r.status, 2, "%s", r.out);
	cr_assert(strstr(r.err, "gpt2.yaml:3:16: invalid pattern '[': "
	    "missing terminating ] for character class at offset 1") != NULL,
	    "%s", r.err);
	test_run_free(&r);
	map_dir_remove(&md);
}

/* ---- the architectures: arch.c's table and the maps agree ------------- */

/*
 * arch.c's table is the one list of architectures: every name a built-in
 * map gives is in it and marked mapped, and every entry marked mapped has
 * a map. names_db_check_archs says so; the loops say which.
 */
Test(names, architecture_table_and_maps_agree)
{
	const struct arch_info *a;
	struct names_db db;
	struct gl_error err;
	size_t i, j, n_mapped = 0, n_named = 0;

	cr_assert(names_db_load(&db, &err) == 0, "%s", err.msg);
	cr_expect(names_db_check_archs(&db, &err) == 0, "%s", err.msg);
	for (i = 0; (a = arch_at(i)) != NULL; i++) {
		cr_expect(arch_find(a->name) == a, "%s twice", a->name);
		cr_expect_eq(names_db_find(&db, a->name) != NULL, a->mapped,
		    "%s: mapped is %d in arch.c", a->name, a->mapped);
		n_mapped += a->mapped;
	}
	for (i = 0; i < db.n; i++) {
		for (j = 0; j < db.maps[i].n_archs; j++) {
			a = arch_find(db.maps[i].archs[j]);
			cr_expect(a != NULL && a->mapped, "%s: %s",
			    db.maps[i].origin, db.maps[i].archs[j]);
		}
		n_named += db.maps[i].n_archs;
	}
	cr_expect_eq(n_mapped, n_named);
	cr_expect_geq(db.n, 14);
	names_db_free(&db);
	cr_assert(arch_find("clip") == NULL);
}

/*
 * names_db_load and names_db_check_archs with the map file NAME replaced by
 * text: the error of the check (its message "" when it passes).
 */
static const struct gl_error *
load_with_map(const char *name, const char *text)
{
	static struct gl_error err;
	struct map_dir md;
	struct names_db db;

	err.msg[0] = '\0';
	map_dir_make(&md, name, text);
	cr_assert(names_db_load(&db, &err) == 0, "%s", err.msg);
	if (names_db_check_archs(&db, &err) == 0)
		err.msg[0] = '\0';
	names_db_free(&db);
	map_dir_remove(&md);
	return &err;
}

/*
 * A drift between the maps and arch.c's table is found (a map in the data
 * directory still loads: it is data, and it may name what it likes).
 */
Test(names, map_and_table_drift_is_an_error)
{
	const struct gl_error *e;

	e = load_with_map("gpt2.yaml", "architectures: [gpt2, gpt9]\n"
	    "tensors: []\n");
	cr_expect(strstr(e->msg, "gpt2.yaml: architecture 'gpt9' is not one "
	    "gguflint knows (add it to the table in src/facts/arch.c)") !=
	    NULL, "%s", e->msg);
	cr_expect_eq(e->kind, GL_ERR_PARSE);
	e = load_with_map("gpt2.yaml", "architectures: [gpt2, bitnet]\n"
	    "tensors: []\n");
	cr_expect(strstr(e->msg, "gpt2.yaml: architecture 'bitnet' has no name "
	    "map in the table of src/facts/arch.c") != NULL, "%s", e->msg);
	cr_expect_eq(e->kind, GL_ERR_PARSE);
	e = load_with_map("llama.yaml", "architectures: [llama, mistral]\n"
	    "tensors: []\n");
	cr_expect_str_eq(e->msg, "architecture 'llama-embed' has a name map "
	    "by the table of src/facts/arch.c, and no map of rules/arch/ "
	    "names it");
	e = load_with_map("gpt2.yaml", "architectures: [gpt2]\n"
	    "tensors: []\n");
	cr_expect_str_eq(e->msg, "");
}

/* The built-in map files, in the order of Makefile.am's arch_files. */
Test(names, builtin_next_walks_one_folder_in_order)
{
	const char *name;
	size_t pos = 0, n = 0, i, last = 0;

	while ((name = builtin_next("rules/arch", &pos)) != NULL) {
		cr_assert(strncmp(name, "rules/arch/", 11) == 0, "%s", name);
		cr_assert(name == builtin_files[pos - 1].name, "%s", name);
		cr_assert(n == 0 || pos - 1 > last, "%s", name);
		last = pos - 1;
		n++;
	}
	for (i = 0; i < builtin_n_files; i++)
		n -= strncmp(builtin_files[i].name, "rules/arch/", 11) == 0;
	cr_expect_eq(n, 0);
	pos = 0;
	cr_expect_str_eq(builtin_next("rules", &pos), "rules/F-file.yaml");
	while ((name = builtin_next("rules", &pos)) != NULL)
		cr_expect(strchr(name + 6, '/') == NULL, "%s", name);
	cr_expect_eq(pos, builtin_n_files);
}

/*
 * err may be NULL (error.h): a failed load of the process-wide copy is
 * then a -1 alone, on the first call and on those after it.
 */
Test(names, shared_database_fails_without_an_error)
{
	struct map_dir md;
	const struct names_db *db = NULL;

	map_dir_make(&md, "gpt2.yaml", "architectures: [gpt2]\n"
	    "tensors:\n  - { pattern: '[' }\n");
	cr_expect_eq(names_db_get(&db, NULL), -1);
	cr_expect_eq(names_db_get(&db, NULL), -1, "the failure is kept");
	cr_expect_null(db);
	map_dir_remove(&md);
}

/* The process-wide copy: one per process, freed, and loaded again. */
Test(names, shared_database_is_freed_and_reloaded)
{
	const struct names_db *a, *b;
	struct gl_error err;
	size_t n;

	cr_assert(names_db_get(&a, &err) == 0, "%s", err.msg);
	cr_assert(names_db_get(&b, &err) == 0 && a == b);
	n = a->n;
	cr_assert_gt(n, 0);
	names_db_cleanup();
	cr_assert_eq(a->n, 0);		/* the same storage, emptied */
	cr_assert(names_db_get(&b, &err) == 0, "%s", err.msg);
	cr_assert_eq(b->n, n);
	cr_assert(names_db_find(b, "llama") != NULL);
	lint_cleanup();
	lint_cleanup();			/* twice is harmless */
}

/* ---- models of each mapped architecture ---------------------------------- */

/*
 * A model from a compact description: keys as "u32 KEY V", "f32 KEY V",
 * "str KEY V", "i32 KEY V", "a32 KEY V,V,..." (an array of uint32; "ARCH"
 * in KEY is replaced), tensors as
 * "G NAME DIMS..." (global) or "L[a-b] NAME DIMS..." (in every block, or in
 * blocks a to b), NAME with %u for the block. Every model gets a 16-token
 * vocabulary.
 */
struct arch_model {
	const char *arch;
	uint32_t n_layer;
	const char *const *keys;
	const char *const *tensors;
};

/* A per-layer array of uint32, "1,0,1". */
static void
add_key_array(struct ggufw_model *m, const char *key, const char *list)
{
	uint32_t v[16];
	size_t n = 0;
	char *end;

	while (n < 16 && *list != '\0') {
		v[n++] = (uint32_t)strtoul(list, &end, 10);
		list = *end == ',' ? end + 1 : end;
	}
	ggufw_model_kv_arr_u32(m, key, v, n);
}

static void
add_key(struct ggufw_model *m, const char *arch, const char *spec)
{
	char type[8], key[128], val[128], full[160], *p;

	cr_assert(sscanf(spec, "%7s %127s %127s", type, key, val) == 3, "%s",
	    spec);
	if ((p = strstr(key, "ARCH")) != NULL)
		snprintf(full, sizeof full, "%.*s%s%s", (int)(p - key), key,
		    arch, p + 4);
	else
		snprintf(full, sizeof full, "%s", key);
	if (strcmp(type, "u32") == 0)
		ggufw_model_kv_u32(m, full, (uint32_t)strtoul(val, NULL, 10));
	else if (strcmp(type, "i32") == 0)
		ggufw_model_kv_i32(m, full, (int32_t)strtol(val, NULL, 10));
	else if (strcmp(type, "f32") == 0)
		ggufw_model_kv_f32(m, full, strtof(val, NULL));
	else if (strcmp(type, "a32") == 0)
		add_key_array(m, full, val);
	else if (strcmp(type, "bool") == 0)
		ggufw_model_kv_bool(m, full, strcmp(val, "1") == 0);
	else
		ggufw_model_kv_str(m, full, val);
}

/*
 * spec_name: a spec's tensor name, fmt with its "%u" (when it has one)
 * replaced by il. Not snprintf(fmt): a format taken from data is what
 * -Wformat-nonliteral is there to catch.
 */
static void
spec_name(char *out, size_t n, const char *fmt, uint32_t il)
{
	const char *u = strstr(fmt, "%u");

	if (u == NULL)
		snprintf(out, n, "%s", fmt);
	else
		snprintf(out, n, "%.*s%" PRIu32 "%s", (int)(u - fmt), fmt, il,
		    u + 2);
}

static void
add_spec_tensor(struct ggufw_model *m, const char *spec, uint32_t il,
    bool widen)
{
	char fmt[96], name[96];
	int64_t ne[4] = { 1, 1, 1, 1 };
	const char *p = strchr(spec, ' ') + 1;
	int used, n = 0;

	cr_assert(sscanf(p, "%95s%n", fmt, &used) == 1);
	p += used;
	while (n < 4 && sscanf(p, "%" SCNd64 "%n", &ne[n], &used) == 1) {
		p += used;
		n++;
	}
	spec_name(name, sizeof name, fmt, il);
	if (widen)
		ne[0]++;
	ggufw_model_tensor(m, name, (uint32_t)n, ne, GGUFW_GGML_F32, 1, 4);
}

static void
add_vocab(struct ggufw_model *m)
{
	const char *tok[16] = {
		"<unk>", "<s>", "</s>", "a", "b", "c", "d", "e", "f", "g",
		"h", "i", "j", "k", "l", "m"
	};
	const char *merges[1] = { "a b" };

	ggufw_model_kv_arr_str(m, "tokenizer.ggml.tokens", tok, 16);
	ggufw_model_kv_arr_str(m, "tokenizer.ggml.merges", merges, 1);
}

/* Build a; widen, when not NULL, is a tensor name to misshape. */
static void
build_arch(const struct arch_model *a, const char *widen, struct strbuf *out)
{
	struct ggufw_model m;
	const char *const *s;
	uint32_t il, lo, hi;

	ggufw_model_init(&m, false, 32);
	ggufw_model_kv_str(&m, "general.architecture", a->arch);
	for (s = a->keys; *s != NULL; s++)
		add_key(&m, a->arch, *s);
	add_vocab(&m);
	for (s = a->tensors; *s != NULL; s++) {
		char name[96];

		if ((*s)[0] == 'G') {
			add_spec_tensor(&m, *s, 0, widen != NULL &&
			    strncmp(*s + 2, widen, strlen(widen)) == 0);
			continue;
		}
		lo = 0;
		hi = a->n_layer - 1;
		sscanf(*s, "L%u-%u", &lo, &hi);
		for (il = lo; il <= hi; il++) {
			sscanf(strchr(*s, ' ') + 1, "%95s", name);
			add_spec_tensor(&m, *s, il, widen != NULL && il == lo &&
			    strcmp(name, widen) == 0);
		}
	}
	ggufw_model_finish(&m, out, GGUFW_DATA_ZERO);
	ggufw_model_free(&m);
}

static size_t
count_family(const struct test_lint *t, char family)
{
	size_t i, n = 0;

	for (i = 0; i < t->res.diags.n; i++)
		n += t->res.diags.v[i].rule->family == family;
	return n;
}

/* Clean: no M or N finding; widened: exactly one N003, nothing else. */
static void
check_arch(const struct arch_model *a, const char *widen)
{
	struct strbuf sb = STRBUF_INIT;
	struct test_lint t;

	build_arch(a, NULL, &sb);
	test_lint_bytes(&t, sb.buf, sb.len);
	cr_expect(count_family(&t, 'N') + count_family(&t, 'M') == 0,
	    "%s: %s (first: %s)", a->arch, test_codes(&t), t.res.diags.n ?
	    t.res.diags.v[0].message : "");
	test_lint_free(&t);
	strbuf_reset(&sb);
	build_arch(a, widen, &sb);
	test_lint_bytes(&t, sb.buf, sb.len);
	cr_expect(test_count(&t, "N003") == 1 && count_family(&t, 'N') == 1,
	    "%s with %s widened: %s", a->arch, widen, test_codes(&t));
	test_lint_free(&t);
	strbuf_free(&sb);
}

#define BASE_KEYS(e, l) \
	"u32 ARCH.context_length 32", "u32 ARCH.embedding_length " #e, \
	"u32 ARCH.block_count " #l

static const char *const llama_moe_keys[] = {
	BASE_KEYS(16, 2), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2", "u32 ARCH.attention.head_count_kv 1",
	"f32 ARCH.attention.layer_norm_rms_epsilon 1e-5",
	"u32 ARCH.expert_count 4", "u32 ARCH.expert_used_count 2",
	"u32 ARCH.rope.dimension_count 8", "str tokenizer.ggml.model llama",
	NULL
};
static const char *const llama_moe_tensors[] = {
	"G token_embd.weight 16 16", "G output_norm.weight 16",
	"G rope_freqs.weight 4",
	"L blk.%u.attn_norm.weight 16", "L blk.%u.attn_q.weight 16 16",
	"L blk.%u.attn_k.weight 16 8", "L blk.%u.attn_v.weight 16 8",
	"L blk.%u.attn_output.weight 16 16", "L blk.%u.ffn_norm.weight 16",
	"L blk.%u.ffn_gate_inp.weight 16 4",
	"L blk.%u.ffn_gate_exps.weight 16 32 4",
	"L blk.%u.ffn_up_exps.weight 16 32 4",
	"L blk.%u.ffn_down_exps.weight 32 16 4", NULL
};

static const char *const qwen3_keys[] = {
	BASE_KEYS(16, 2), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2", "u32 ARCH.attention.head_count_kv 1",
	"u32 ARCH.attention.key_length 16",
	"u32 ARCH.attention.value_length 16",
	"f32 ARCH.attention.layer_norm_rms_epsilon 1e-6",
	"str tokenizer.ggml.model gpt2", NULL
};
static const char *const qwen3_tensors[] = {
	"G token_embd.weight 16 16", "G output_norm.weight 16",
	"L blk.%u.attn_norm.weight 16", "L blk.%u.attn_q.weight 16 32",
	"L blk.%u.attn_k.weight 16 16", "L blk.%u.attn_v.weight 16 16",
	"L blk.%u.attn_q_norm.weight 16", "L blk.%u.attn_k_norm.weight 16",
	"L blk.%u.attn_output.weight 32 16", "L blk.%u.ffn_norm.weight 16",
	"L blk.%u.ffn_gate.weight 16 32", "L blk.%u.ffn_up.weight 16 32",
	"L blk.%u.ffn_down.weight 32 16", NULL
};

static const char *const qwen3moe_keys[] = {
	BASE_KEYS(16, 2), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2", "u32 ARCH.attention.head_count_kv 1",
	"u32 ARCH.attention.key_length 16",
	"u32 ARCH.attention.value_length 16",
	"f32 ARCH.attention.layer_norm_rms_epsilon 1e-6",
	"u32 ARCH.expert_count 4", "u32 ARCH.expert_used_count 2",
	"str tokenizer.ggml.model gpt2", NULL
};
static const char *const qwen3moe_tensors[] = {
	"G token_embd.weight 16 16", "G output_norm.weight 16",
	"G output.weight 16 16",
	"L blk.%u.attn_norm.weight 16", "L blk.%u.attn_q.weight 16 32",
	"L blk.%u.attn_k.weight 16 16", "L blk.%u.attn_v.weight 16 16",
	"L blk.%u.attn_q_norm.weight 16", "L blk.%u.attn_k_norm.weight 16",
	"L blk.%u.attn_output.weight 32 16", "L blk.%u.ffn_norm.weight 16",
	"L blk.%u.ffn_gate_inp.weight 16 4",
	"L blk.%u.ffn_gate_exps.weight 16 16 4",
	"L blk.%u.ffn_up_exps.weight 16 16 4",
	"L blk.%u.ffn_down_exps.weight 16 16 4", NULL
};

static const char *const qwen2moe_keys[] = {
	BASE_KEYS(16, 2), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2", "u32 ARCH.attention.head_count_kv 1",
	"f32 ARCH.attention.layer_norm_rms_epsilon 1e-6",
	"u32 ARCH.expert_count 4", "u32 ARCH.expert_used_count 2",
	"u32 ARCH.expert_feed_forward_length 8",
	"u32 ARCH.expert_shared_feed_forward_length 24",
	"str tokenizer.ggml.model gpt2", NULL
};
static const char *const qwen2moe_tensors[] = {
	"G token_embd.weight 16 16", "G output_norm.weight 16",
	"G output.weight 16 16",
	"L blk.%u.attn_norm.weight 16", "L blk.%u.attn_q.weight 16 16",
	"L blk.%u.attn_q.bias 16", "L blk.%u.attn_k.weight 16 8",
	"L blk.%u.attn_k.bias 8", "L blk.%u.attn_v.weight 16 8",
	"L blk.%u.attn_v.bias 8", "L blk.%u.attn_output.weight 16 16",
	"L blk.%u.ffn_norm.weight 16", "L blk.%u.ffn_gate_inp.weight 16 4",
	"L blk.%u.ffn_gate_exps.weight 16 8 4",
	"L blk.%u.ffn_up_exps.weight 16 8 4",
	"L blk.%u.ffn_down_exps.weight 8 16 4",
	"L blk.%u.ffn_gate_inp_shexp.weight 16",
	"L blk.%u.ffn_gate_shexp.weight 16 24",
	"L blk.%u.ffn_up_shexp.weight 16 24",
	"L blk.%u.ffn_down_shexp.weight 24 16", NULL
};

static const char *const phi3_keys[] = {
	BASE_KEYS(16, 2), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2", "u32 ARCH.attention.head_count_kv 2",
	"f32 ARCH.attention.layer_norm_rms_epsilon 1e-5",
	"u32 ARCH.rope.dimension_count 8", "str tokenizer.ggml.model llama",
	NULL
};
static const char *const phi3_tensors[] = {
	"G token_embd.weight 16 16", "G output_norm.weight 16",
	"G output.weight 16 16", "G rope_factors_long.weight 4",
	"G rope_factors_short.weight 4",
	"L blk.%u.attn_norm.weight 16", "L blk.%u.attn_qkv.weight 16 48",
	"L blk.%u.attn_output.weight 16 16", "L blk.%u.ffn_norm.weight 16",
	"L blk.%u.ffn_up.weight 16 64", "L blk.%u.ffn_down.weight 32 16", NULL
};

/* ernie4_5: llama's layout, here with one fused QKV and its bias and the
 * attention output's bias; output tied to token_embd. */
static const char *const ernie4_5_keys[] = {
	BASE_KEYS(16, 2), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2", "u32 ARCH.attention.head_count_kv 1",
	"f32 ARCH.attention.layer_norm_rms_epsilon 1e-5",
	"str tokenizer.ggml.model llama", NULL
};
static const char *const ernie4_5_tensors[] = {
	"G token_embd.weight 16 16", "G output_norm.weight 16",
	"L blk.%u.attn_norm.weight 16", "L blk.%u.attn_qkv.weight 16 32",
	"L blk.%u.attn_qkv.bias 32", "L blk.%u.attn_output.weight 16 16",
	"L blk.%u.attn_output.bias 16", "L blk.%u.ffn_norm.weight 16",
	"L blk.%u.ffn_gate.weight 16 32", "L blk.%u.ffn_up.weight 16 32",
	"L blk.%u.ffn_down.weight 32 16", NULL
};

/* The dense llama-likes of issue 36, in ernie4_5's keys (2 blocks of 16,
 * 2 heads of 8, 1 KV head) or their own. Llama's dense attention and
 * SwiGLU first, without biases. */
#define DENSE_QKV \
	"L blk.%u.attn_q.weight 16 16", "L blk.%u.attn_k.weight 16 8", \
	"L blk.%u.attn_v.weight 16 8", "L blk.%u.attn_output.weight 16 16"
#define DENSE_FFN \
	"L blk.%u.ffn_gate.weight 16 32", "L blk.%u.ffn_up.weight 16 32", \
	"L blk.%u.ffn_down.weight 32 16"

/* smollm3 (and granite's layout): llama's, output tied. */
static const char *const smollm3_tensors[] = { "G token_embd.weight 16 16",
	"G output_norm.weight 16", "L blk.%u.attn_norm.weight 16", DENSE_QKV,
	"L blk.%u.ffn_norm.weight 16", DENSE_FFN, NULL };
/* seed_oss: Q, K, V biases, the FFN's norm post_attention_norm. */
static const char *const seed_oss_tensors[] = { "G token_embd.weight 16 16",
	"G output_norm.weight 16", "G output.weight 16 16",
	"L blk.%u.attn_norm.weight 16", DENSE_QKV, "L blk.%u.attn_q.bias 16",
	"L blk.%u.attn_k.bias 8", "L blk.%u.attn_v.bias 8",
	"L blk.%u.post_attention_norm.weight 16", DENSE_FFN, NULL };
/* hunyuan-dense: Q's and K's own norms. */
static const char *const hunyuan_tensors[] = { "G token_embd.weight 16 16",
	"G output_norm.weight 16", "L blk.%u.attn_norm.weight 16", DENSE_QKV,
	"L blk.%u.attn_q_norm.weight 8", "L blk.%u.attn_k_norm.weight 8",
	"L blk.%u.ffn_norm.weight 16", DENSE_FFN, NULL };
/* exaone4: norms after the attention and the FFN, Q's and K's own. */
static const char *const exaone4_tensors[] = { "G token_embd.weight 16 16",
	"G output_norm.weight 16", "G output.weight 16 16", DENSE_QKV,
	"L blk.%u.post_attention_norm.weight 16",
	"L blk.%u.attn_q_norm.weight 8", "L blk.%u.attn_k_norm.weight 8",
	DENSE_FFN, "L blk.%u.post_ffw_norm.weight 16", NULL };
static const char *const granite_keys[] = { BASE_KEYS(16, 2),
	"u32 ARCH.feed_forward_length 32", "u32 ARCH.attention.head_count 2",
	"u32 ARCH.attention.head_count_kv 1",
	"f32 ARCH.attention.layer_norm_rms_epsilon 1e-5",
	"f32 ARCH.logit_scale 8", "f32 ARCH.residual_scale 0.22",
	"str tokenizer.ggml.model llama", NULL };
/* command-r: layer norms, no output tensor (token_embd always). */
static const char *const command_r_keys[] = { BASE_KEYS(16, 2),
	"u32 ARCH.feed_forward_length 32", "u32 ARCH.attention.head_count 2",
	"u32 ARCH.attention.head_count_kv 1",
	"f32 ARCH.attention.layer_norm_epsilon 1e-5",
	"f32 ARCH.logit_scale 0.0625", "str tokenizer.ggml.model llama",
	NULL };
static const char *const command_r_tensors[] = { "G token_embd.weight 16 16",
	"G output_norm.weight 16", "L blk.%u.attn_norm.weight 16", DENSE_QKV,
	DENSE_FFN, NULL };
/* olmo: no norm tensor at all. */
static const char *const olmo_tensors[] = { "G token_embd.weight 16 16",
	"G output.weight 16 16", DENSE_QKV, DENSE_FFN, NULL };
/* olmoe: Q's and K's norms over their whole rows, experts as wide as
 * the FFN, output required. */
static const char *const olmoe_keys[] = {
	BASE_KEYS(16, 2), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2", "u32 ARCH.attention.head_count_kv 2",
	"f32 ARCH.attention.layer_norm_rms_epsilon 1e-5",
	"u32 ARCH.expert_count 4", "u32 ARCH.expert_used_count 2",
	"str tokenizer.ggml.model gpt2", NULL
};
static const char *const olmoe_tensors[] = {
	"G token_embd.weight 16 16", "G output_norm.weight 16",
	"G output.weight 16 16", "L blk.%u.attn_norm.weight 16",
	"L blk.%u.attn_q.weight 16 16", "L blk.%u.attn_k.weight 16 16",
	"L blk.%u.attn_v.weight 16 16", "L blk.%u.attn_q_norm.weight 16",
	"L blk.%u.attn_k_norm.weight 16", "L blk.%u.attn_output.weight 16 16",
	"L blk.%u.ffn_norm.weight 16", "L blk.%u.ffn_gate_inp.weight 16 4",
	"L blk.%u.ffn_gate_exps.weight 16 32 4",
	"L blk.%u.ffn_up_exps.weight 16 32 4",
	"L blk.%u.ffn_down_exps.weight 32 16 4", NULL
};

/* phimoe: phi3's attention, every norm and the output biased, experts
 * as wide as the FFN. */
static const char *const phimoe_keys[] = {
	BASE_KEYS(16, 2), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2", "u32 ARCH.attention.head_count_kv 1",
	"f32 ARCH.attention.layer_norm_rms_epsilon 1e-5",
	"u32 ARCH.expert_count 4", "u32 ARCH.expert_used_count 2",
	"str tokenizer.ggml.model llama", NULL
};
static const char *const phimoe_tensors[] = {
	"G token_embd.weight 16 16", "G output_norm.weight 16",
	"G output_norm.bias 16", "G output.weight 16 16", "G output.bias 16",
	"L blk.%u.attn_norm.weight 16", "L blk.%u.attn_norm.bias 16",
	"L blk.%u.attn_qkv.weight 16 32", "L blk.%u.attn_output.weight 16 16",
	"L blk.%u.attn_output.bias 16", "L blk.%u.ffn_norm.weight 16",
	"L blk.%u.ffn_norm.bias 16", "L blk.%u.ffn_gate_inp.weight 16 4",
	"L blk.%u.ffn_gate_exps.weight 16 32 4",
	"L blk.%u.ffn_up_exps.weight 16 32 4",
	"L blk.%u.ffn_down_exps.weight 32 16 4", NULL
};

/* granitemoe: llama's attention, Granite's logit scale, experts as wide
 * as the FFN and a shared expert. */
static const char *const granitemoe_keys[] = {
	BASE_KEYS(16, 2), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2", "u32 ARCH.attention.head_count_kv 1",
	"f32 ARCH.attention.layer_norm_rms_epsilon 1e-5",
	"f32 ARCH.logit_scale 8", "u32 ARCH.expert_count 4",
	"u32 ARCH.expert_used_count 2",
	"u32 ARCH.expert_shared_feed_forward_length 24",
	"str tokenizer.ggml.model gpt2", NULL
};
static const char *const granitemoe_tensors[] = {
	"G token_embd.weight 16 16", "G output_norm.weight 16",
	"L blk.%u.attn_norm.weight 16", "L blk.%u.attn_q.weight 16 16",
	"L blk.%u.attn_k.weight 16 8", "L blk.%u.attn_v.weight 16 8",
	"L blk.%u.attn_output.weight 16 16", "L blk.%u.ffn_norm.weight 16",
	"L blk.%u.ffn_gate_inp.weight 16 4",
	"L blk.%u.ffn_gate_exps.weight 16 32 4",
	"L blk.%u.ffn_up_exps.weight 16 32 4",
	"L blk.%u.ffn_down_exps.weight 32 16 4",
	"L blk.%u.ffn_gate_shexp.weight 16 24",
	"L blk.%u.ffn_up_shexp.weight 16 24",
	"L blk.%u.ffn_down_shexp.weight 24 16", NULL
};

/* minimax-m2: Q's and K's norms over their rows, experts chosen with a
 * bias, output required. */
static const char *const minimax_m2_keys[] = {
	BASE_KEYS(16, 2), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2", "u32 ARCH.attention.head_count_kv 1",
	"f32 ARCH.attention.layer_norm_rms_epsilon 1e-6",
	"u32 ARCH.expert_feed_forward_length 32", "u32 ARCH.expert_count 4",
	"u32 ARCH.expert_used_count 2", "u32 ARCH.expert_gating_func 2",
	"str tokenizer.ggml.model gpt2", NULL
};
static const char *const minimax_m2_tensors[] = {
	"G token_embd.weight 16 16", "G output_norm.weight 16",
	"G output.weight 16 16", "L blk.%u.attn_norm.weight 16",
	"L blk.%u.attn_q.weight 16 16", "L blk.%u.attn_k.weight 16 8",
	"L blk.%u.attn_v.weight 16 8", "L blk.%u.attn_q_norm.weight 16",
	"L blk.%u.attn_k_norm.weight 8", "L blk.%u.attn_output.weight 16 16",
	"L blk.%u.ffn_norm.weight 16", "L blk.%u.ffn_gate_inp.weight 16 4",
	"L blk.%u.exp_probs_b.bias 4",
	"L blk.%u.ffn_gate_exps.weight 16 32 4",
	"L blk.%u.ffn_up_exps.weight 16 32 4",
	"L blk.%u.ffn_down_exps.weight 32 16 4", NULL
};

/* ernie4_5-moe: a dense layer, then experts, their selection bias and
 * a shared expert; output tied to token_embd. */
static const char *const ernie4_5_moe_keys[] = {
	BASE_KEYS(16, 2), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2", "u32 ARCH.attention.head_count_kv 1",
	"f32 ARCH.attention.layer_norm_rms_epsilon 1e-5",
	"u32 ARCH.leading_dense_block_count 1",
	"u32 ARCH.interleave_moe_layer_step 1",
	"u32 ARCH.expert_feed_forward_length 8",
	"u32 ARCH.expert_shared_feed_forward_length 24",
	"u32 ARCH.expert_count 4", "u32 ARCH.expert_used_count 2",
	"str tokenizer.ggml.model llama", NULL
};
static const char *const ernie4_5_moe_tensors[] = {
	"G token_embd.weight 16 16", "G output_norm.weight 16",
	"L blk.%u.attn_norm.weight 16", "L blk.%u.attn_q.weight 16 16",
	"L blk.%u.attn_k.weight 16 8", "L blk.%u.attn_v.weight 16 8",
	"L blk.%u.attn_output.weight 16 16", "L blk.%u.ffn_norm.weight 16",
	"L0-0 blk.%u.ffn_gate.weight 16 32", "L0-0 blk.%u.ffn_up.weight 16 32",
	"L0-0 blk.%u.ffn_down.weight 32 16",
	"L1-1 blk.%u.ffn_gate_inp.weight 16 4",
	"L1-1 blk.%u.exp_probs_b.bias 4",
	"L1-1 blk.%u.ffn_gate_exps.weight 16 8 4",
	"L1-1 blk.%u.ffn_up_exps.weight 16 8 4",
	"L1-1 blk.%u.ffn_down_exps.weight 8 16 4",
	"L1-1 blk.%u.ffn_gate_shexp.weight 16 24",
	"L1-1 blk.%u.ffn_up_shexp.weight 16 24",
	"L1-1 blk.%u.ffn_down_shexp.weight 24 16", NULL
};

/* qwen3vl, qwen3vlmoe: qwen3's and qwen3moe's models (their tensors),
 * M-RoPE's sections (an array the map does not check) and the
 * deepstack's layers. */
static const char *const qwen3vl_keys[] = {
	BASE_KEYS(16, 2), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2", "u32 ARCH.attention.head_count_kv 1",
	"u32 ARCH.attention.key_length 16",
	"u32 ARCH.attention.value_length 16",
	"f32 ARCH.attention.layer_norm_rms_epsilon 1e-6",
	"a32 ARCH.rope.dimension_sections 4,2,2,0",
	"u32 ARCH.n_deepstack_layers 1", "str tokenizer.ggml.model gpt2", NULL
};

static const char *const qwen3vlmoe_keys[] = {
	BASE_KEYS(16, 2), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2", "u32 ARCH.attention.head_count_kv 1",
	"u32 ARCH.attention.key_length 16",
	"u32 ARCH.attention.value_length 16",
	"f32 ARCH.attention.layer_norm_rms_epsilon 1e-6",
	"u32 ARCH.expert_count 4", "u32 ARCH.expert_used_count 2",
	"a32 ARCH.rope.dimension_sections 4,2,2,0",
	"u32 ARCH.n_deepstack_layers 1", "str tokenizer.ggml.model gpt2", NULL
};

/* hunyuan-moe: per-head Q and K norms, experts beside a shared expert
 * as wide as the FFN (no key for it). */
static const char *const hunyuan_moe_keys[] = {
	BASE_KEYS(16, 2), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2", "u32 ARCH.attention.head_count_kv 1",
	"f32 ARCH.attention.layer_norm_rms_epsilon 1e-5",
	"u32 ARCH.expert_feed_forward_length 32", "u32 ARCH.expert_count 4",
	"u32 ARCH.expert_used_count 2", "str tokenizer.ggml.model gpt2", NULL
};
static const char *const hunyuan_moe_tensors[] = {
	"G token_embd.weight 16 16", "G output_norm.weight 16",
	"L blk.%u.attn_norm.weight 16", "L blk.%u.attn_q.weight 16 16",
	"L blk.%u.attn_k.weight 16 8", "L blk.%u.attn_v.weight 16 8",
	"L blk.%u.attn_q_norm.weight 8", "L blk.%u.attn_k_norm.weight 8",
	"L blk.%u.attn_output.weight 16 16", "L blk.%u.ffn_norm.weight 16",
	"L blk.%u.ffn_gate_inp.weight 16 4",
	"L blk.%u.ffn_gate_exps.weight 16 32 4",
	"L blk.%u.ffn_up_exps.weight 16 32 4",
	"L blk.%u.ffn_down_exps.weight 32 16 4",
	"L blk.%u.ffn_gate_shexp.weight 16 32",
	"L blk.%u.ffn_up_shexp.weight 16 32",
	"L blk.%u.ffn_down_shexp.weight 32 16", NULL
};

static const char *const gemma3_keys[] = {
	BASE_KEYS(16, 2), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2", "u32 ARCH.attention.head_count_kv 1",
	"u32 ARCH.attention.key_length 16",
	"u32 ARCH.attention.value_length 16",
	"f32 ARCH.attention.layer_norm_rms_epsilon 1e-6",
	"str tokenizer.ggml.model llama", NULL
};
static const char *const gemma3_tensors[] = {
	"G token_embd.weight 16 16", "G output_norm.weight 16",
	"L blk.%u.attn_norm.weight 16", "L blk.%u.attn_q.weight 16 32",
	"L blk.%u.attn_k.weight 16 16", "L blk.%u.attn_v.weight 16 16",
	"L blk.%u.attn_q_norm.weight 16", "L blk.%u.attn_k_norm.weight 16",
	"L blk.%u.attn_output.weight 32 16",
	"L blk.%u.post_attention_norm.weight 16",
	"L blk.%u.ffn_norm.weight 16", "L blk.%u.ffn_gate.weight 16 32",
	"L blk.%u.ffn_up.weight 16 32", "L blk.%u.ffn_down.weight 32 16",
	"L blk.%u.post_ffw_norm.weight 16", NULL
};

/* MLA with a low-rank query, one dense block, then experts. */
static const char *const deepseek2_keys[] = {
	BASE_KEYS(16, 3), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2", "u32 ARCH.attention.head_count_kv 2",
	"u32 ARCH.attention.key_length 12", "u32 ARCH.attention.value_length 8",
	"u32 ARCH.attention.key_length_mla 12",
	"u32 ARCH.attention.value_length_mla 8",
	"u32 ARCH.attention.q_lora_rank 8", "u32 ARCH.attention.kv_lora_rank 8",
	"u32 ARCH.rope.dimension_count 4",
	"f32 ARCH.attention.layer_norm_rms_epsilon 1e-6",
	"u32 ARCH.leading_dense_block_count 1", "u32 ARCH.expert_count 4",
	"u32 ARCH.expert_used_count 2",
	"u32 ARCH.expert_feed_forward_length 8",
	"u32 ARCH.expert_shared_count 1", "str tokenizer.ggml.model gpt2",
	NULL
};
static const char *const deepseek2_tensors[] = {
	"G token_embd.weight 16 16", "G output_norm.weight 16",
	"G output.weight 16 16",
	"L blk.%u.attn_norm.weight 16", "L blk.%u.attn_q_a_norm.weight 8",
	"L blk.%u.attn_q_a.weight 16 8", "L blk.%u.attn_q_b.weight 8 24",
	"L blk.%u.attn_kv_a_mqa.weight 16 12",
	"L blk.%u.attn_kv_a_norm.weight 8", "L blk.%u.attn_k_b.weight 8 8 2",
	"L blk.%u.attn_v_b.weight 8 8 2", "L blk.%u.attn_output.weight 16 16",
	"L blk.%u.ffn_norm.weight 16",
	"L0-0 blk.%u.ffn_gate.weight 16 32", "L0-0 blk.%u.ffn_up.weight 16 32",
	"L0-0 blk.%u.ffn_down.weight 32 16",
	"L1-2 blk.%u.ffn_gate_inp.weight 16 4",
	"L1-2 blk.%u.exp_probs_b.bias 4",
	"L1-2 blk.%u.ffn_gate_exps.weight 16 8 4",
	"L1-2 blk.%u.ffn_up_exps.weight 16 8 4",
	"L1-2 blk.%u.ffn_down_exps.weight 8 16 4",
	"L1-2 blk.%u.ffn_gate_shexp.weight 16 8",
	"L1-2 blk.%u.ffn_up_shexp.weight 16 8",
	"L1-2 blk.%u.ffn_down_shexp.weight 8 16", NULL
};

static const char *const mamba_keys[] = {
	BASE_KEYS(8, 2), "u32 ARCH.ssm.conv_kernel 4",
	"u32 ARCH.ssm.inner_size 16", "u32 ARCH.ssm.state_size 4",
	"u32 ARCH.ssm.time_step_rank 2",
	"f32 ARCH.attention.layer_norm_rms_epsilon 1e-5",
	"str tokenizer.ggml.model gpt2", NULL
};
static const char *const mamba_tensors[] = {
	"G token_embd.weight 8 16", "G output_norm.weight 8",
	"L blk.%u.attn_norm.weight 8", "L blk.%u.ssm_in.weight 8 32",
	"L blk.%u.ssm_conv1d.weight 4 16", "L blk.%u.ssm_conv1d.bias 16",
	"L blk.%u.ssm_x.weight 16 10", "L blk.%u.ssm_dt.weight 2 16",
	"L blk.%u.ssm_dt.bias 16", "L blk.%u.ssm_a 4 16", "L blk.%u.ssm_d 16",
	"L blk.%u.ssm_out.weight 16 8", NULL
};

static const char *const falcon_keys[] = {
	BASE_KEYS(16, 2), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2", "u32 ARCH.attention.head_count_kv 1",
	"f32 ARCH.attention.layer_norm_epsilon 1e-5",
	"str tokenizer.ggml.model gpt2", NULL
};
static const char *const falcon_tensors[] = {
	"G token_embd.weight 16 16", "G output_norm.weight 16",
	"G output_norm.bias 16", "G output.weight 16 16",
	"L blk.%u.attn_norm.weight 16", "L blk.%u.attn_norm.bias 16",
	"L blk.%u.attn_qkv.weight 16 32", "L blk.%u.attn_output.weight 16 16",
	"L blk.%u.ffn_up.weight 16 32", "L blk.%u.ffn_down.weight 32 16", NULL
};

static const char *const gpt2_keys[] = {
	BASE_KEYS(16, 2), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2",
	"f32 ARCH.attention.layer_norm_epsilon 1e-5",
	"str tokenizer.ggml.model gpt2", NULL
};
static const char *const gpt2_tensors[] = {
	"G token_embd.weight 16 16", "G position_embd.weight 16 32",
	"G output_norm.weight 16", "G output_norm.bias 16",
	"L blk.%u.attn_norm.weight 16", "L blk.%u.attn_norm.bias 16",
	"L blk.%u.attn_qkv.weight 16 48", "L blk.%u.attn_qkv.bias 48",
	"L blk.%u.attn_output.weight 16 16", "L blk.%u.attn_output.bias 16",
	"L blk.%u.ffn_norm.weight 16", "L blk.%u.ffn_norm.bias 16",
	"L blk.%u.ffn_up.weight 16 32", "L blk.%u.ffn_up.bias 32",
	"L blk.%u.ffn_down.weight 32 16", "L blk.%u.ffn_down.bias 16", NULL
};

static const char *const bert_keys[] = {
	BASE_KEYS(16, 2), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2",
	"f32 ARCH.attention.layer_norm_epsilon 1e-12",
	"u32 tokenizer.ggml.token_type_count 2",
	"str tokenizer.ggml.model bert", NULL
};
static const char *const bert_tensors[] = {
	"G token_embd.weight 16 16", "G token_types.weight 16 2",
	"G position_embd.weight 16 32", "G token_embd_norm.weight 16",
	"G token_embd_norm.bias 16",
	"L blk.%u.attn_q.weight 16 16", "L blk.%u.attn_q.bias 16",
	"L blk.%u.attn_k.weight 16 16", "L blk.%u.attn_k.bias 16",
	"L blk.%u.attn_v.weight 16 16", "L blk.%u.attn_v.bias 16",
	"L blk.%u.attn_output.weight 16 16", "L blk.%u.attn_output.bias 16",
	"L blk.%u.attn_output_norm.weight 16",
	"L blk.%u.attn_output_norm.bias 16",
	"L blk.%u.ffn_up.weight 16 32", "L blk.%u.ffn_up.bias 32",
	"L blk.%u.ffn_down.weight 32 16", "L blk.%u.ffn_down.bias 16",
	"L blk.%u.layer_output_norm.weight 16",
	"L blk.%u.layer_output_norm.bias 16", "G cls.weight 16 2",
	"G cls.bias 2", NULL
};

static const char *const starcoder2_keys[] = {
	BASE_KEYS(16, 2), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2", "u32 ARCH.attention.head_count_kv 1",
	"f32 ARCH.attention.layer_norm_epsilon 1e-5",
	"str tokenizer.ggml.model gpt2", NULL
};
static const char *const starcoder2_tensors[] = {
	"G token_embd.weight 16 16", "G output_norm.weight 16",
	"G output_norm.bias 16",
	"L blk.%u.attn_norm.weight 16", "L blk.%u.attn_norm.bias 16",
	"L blk.%u.attn_q.weight 16 16", "L blk.%u.attn_q.bias 16",
	"L blk.%u.attn_k.weight 16 8", "L blk.%u.attn_k.bias 8",
	"L blk.%u.attn_v.weight 16 8", "L blk.%u.attn_v.bias 8",
	"L blk.%u.attn_output.weight 16 16", "L blk.%u.attn_output.bias 16",
	"L blk.%u.ffn_norm.weight 16", "L blk.%u.ffn_norm.bias 16",
	"L blk.%u.ffn_up.weight 16 32", "L blk.%u.ffn_up.bias 32",
	"L blk.%u.ffn_down.weight 32 16", "L blk.%u.ffn_down.bias 16", NULL
};

static const char *const olmo2_keys[] = {
	BASE_KEYS(16, 2), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2", "u32 ARCH.attention.head_count_kv 1",
	"f32 ARCH.attention.layer_norm_rms_epsilon 1e-6",
	"str tokenizer.ggml.model gpt2", NULL
};
static const char *const olmo2_tensors[] = {
	"G token_embd.weight 16 16", "G output_norm.weight 16",
	"G output.weight 16 16",
	"L blk.%u.attn_q.weight 16 16", "L blk.%u.attn_k.weight 16 8",
	"L blk.%u.attn_v.weight 16 8", "L blk.%u.attn_output.weight 16 16",
	"L blk.%u.attn_q_norm.weight 16", "L blk.%u.attn_k_norm.weight 8",
	"L blk.%u.post_attention_norm.weight 16",
	"L blk.%u.ffn_gate.weight 16 32", "L blk.%u.ffn_up.weight 16 32",
	"L blk.%u.ffn_down.weight 32 16", "L blk.%u.post_ffw_norm.weight 16",
	NULL
};

static const char *const nomic_bert_keys[] = {
	BASE_KEYS(16, 2), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2",
	"f32 ARCH.attention.layer_norm_epsilon 1e-12",
	"u32 tokenizer.ggml.token_type_count 2",
	"str tokenizer.ggml.model bert", NULL
};
static const char *const nomic_bert_tensors[] = {
	"G token_embd.weight 16 16", "G token_types.weight 16 2",
	"G token_embd_norm.weight 16", "G token_embd_norm.bias 16",
	"L blk.%u.attn_qkv.weight 16 48",
	"L blk.%u.attn_output.weight 16 16",
	"L blk.%u.attn_output_norm.weight 16",
	"L blk.%u.attn_output_norm.bias 16",
	"L blk.%u.ffn_up.weight 16 32", "L blk.%u.ffn_gate.weight 16 32",
	"L blk.%u.ffn_down.weight 32 16",
	"L blk.%u.layer_output_norm.weight 16",
	"L blk.%u.layer_output_norm.bias 16", NULL
};

static const char *const gptoss_keys[] = {
	BASE_KEYS(16, 2), "u32 ARCH.attention.head_count 2",
	"u32 ARCH.attention.head_count_kv 1",
	"f32 ARCH.attention.layer_norm_rms_epsilon 1e-5",
	"u32 ARCH.attention.sliding_window 4", "u32 ARCH.expert_count 4",
	"u32 ARCH.expert_used_count 2",
	"u32 ARCH.expert_feed_forward_length 8",
	"str tokenizer.ggml.model llama", NULL
};
static const char *const gptoss_tensors[] = {
	"G token_embd.weight 16 16", "G output_norm.weight 16",
	"G output.weight 16 16", "L blk.%u.attn_norm.weight 16",
	"L blk.%u.post_attention_norm.weight 16",
	"L blk.%u.attn_q.weight 16 16", "L blk.%u.attn_k.weight 16 8",
	"L blk.%u.attn_v.weight 16 8", "L blk.%u.attn_output.weight 16 16",
	"L blk.%u.attn_output.bias 16", "L blk.%u.attn_sinks.weight 2",
	"L blk.%u.ffn_gate_inp.weight 16 4", "L blk.%u.ffn_gate_inp.bias 4",
	"L blk.%u.ffn_gate_exps.weight 16 8 4",
	"L blk.%u.ffn_up_exps.weight 16 8 4",
	"L blk.%u.ffn_down_exps.weight 8 16 4",
	"L blk.%u.ffn_gate_exps.bias 8 4", "L blk.%u.ffn_up_exps.bias 8 4",
	"L blk.%u.ffn_down_exps.bias 16 4", NULL
};

static const char *const llama4_keys[] = {
	BASE_KEYS(16, 2), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2", "u32 ARCH.attention.head_count_kv 1",
	"f32 ARCH.attention.layer_norm_rms_epsilon 1e-5",
	"u32 ARCH.expert_count 4", "u32 ARCH.expert_used_count 1",
	"u32 ARCH.expert_feed_forward_length 8",
	"u32 ARCH.interleave_moe_layer_step 2",
	"str tokenizer.ggml.model llama", NULL
};
/* block 0 dense, block 1 experts (every second block) */
static const char *const llama4_tensors[] = {
	"G token_embd.weight 16 16", "G output_norm.weight 16",
	"L blk.%u.attn_norm.weight 16", "L blk.%u.attn_q.weight 16 16",
	"L blk.%u.attn_k.weight 16 8", "L blk.%u.attn_v.weight 16 8",
	"L blk.%u.attn_output.weight 16 16", "L blk.%u.ffn_norm.weight 16",
	"L0-0 blk.%u.ffn_gate.weight 16 32", "L0-0 blk.%u.ffn_up.weight 16 32",
	"L0-0 blk.%u.ffn_down.weight 32 16",
	"L1-1 blk.%u.ffn_gate_inp.weight 16 4",
	"L1-1 blk.%u.ffn_gate_exps.weight 16 8 4",
	"L1-1 blk.%u.ffn_up_exps.weight 16 8 4",
	"L1-1 blk.%u.ffn_down_exps.weight 8 16 4",
	"L1-1 blk.%u.ffn_gate_shexp.weight 16 8",
	"L1-1 blk.%u.ffn_up_shexp.weight 16 8",
	"L1-1 blk.%u.ffn_down_shexp.weight 8 16", NULL
};

static const char *const cohere2_keys[] = {
	BASE_KEYS(16, 2), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2", "u32 ARCH.attention.head_count_kv 1",
	"f32 ARCH.attention.layer_norm_epsilon 1e-5",
	"u32 ARCH.attention.sliding_window 4", "f32 ARCH.logit_scale 0.25",
	"str tokenizer.ggml.model llama", NULL
};
static const char *const cohere2_tensors[] = {
	"G token_embd.weight 16 16", "G output_norm.weight 16",
	"L blk.%u.attn_norm.weight 16", "L blk.%u.attn_q.weight 16 16",
	"L blk.%u.attn_k.weight 16 8", "L blk.%u.attn_v.weight 16 8",
	"L blk.%u.attn_output.weight 16 16",
	"L blk.%u.ffn_gate.weight 16 32", "L blk.%u.ffn_up.weight 16 32",
	"L blk.%u.ffn_down.weight 32 16", NULL
};

static const char *const glm4moe_keys[] = {
	BASE_KEYS(16, 3), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2", "u32 ARCH.attention.head_count_kv 1",
	"f32 ARCH.attention.layer_norm_rms_epsilon 1e-5",
	"u32 ARCH.leading_dense_block_count 1", "u32 ARCH.expert_count 4",
	"u32 ARCH.expert_used_count 2", "u32 ARCH.expert_feed_forward_length 8",
	"u32 ARCH.expert_shared_count 1", "u32 ARCH.nextn_predict_layers 1",
	"str tokenizer.ggml.model llama", NULL
};
/* block 0 dense, block 1 experts, block 2 multi-token prediction */
static const char *const glm4moe_tensors[] = {
	"G token_embd.weight 16 16", "G output_norm.weight 16",
	"L blk.%u.attn_norm.weight 16", "L blk.%u.attn_q.weight 16 16",
	"L blk.%u.attn_k.weight 16 8", "L blk.%u.attn_v.weight 16 8",
	"L blk.%u.attn_q.bias 16", "L blk.%u.attn_k.bias 8",
	"L blk.%u.attn_v.bias 8", "L blk.%u.attn_output.weight 16 16",
	"L blk.%u.post_attention_norm.weight 16",
	"L0-0 blk.%u.ffn_gate.weight 16 32", "L0-0 blk.%u.ffn_up.weight 16 32",
	"L0-0 blk.%u.ffn_down.weight 32 16",
	"L1-2 blk.%u.ffn_gate_inp.weight 16 4",
	"L1-2 blk.%u.exp_probs_b.bias 4",
	"L1-2 blk.%u.ffn_gate_exps.weight 16 8 4",
	"L1-2 blk.%u.ffn_up_exps.weight 16 8 4",
	"L1-2 blk.%u.ffn_down_exps.weight 8 16 4",
	"L1-2 blk.%u.ffn_gate_shexp.weight 16 8",
	"L1-2 blk.%u.ffn_up_shexp.weight 16 8",
	"L1-2 blk.%u.ffn_down_shexp.weight 8 16",
	"L2-2 blk.%u.nextn.eh_proj.weight 32 16",
	"L2-2 blk.%u.nextn.enorm.weight 16",
	"L2-2 blk.%u.nextn.hnorm.weight 16", NULL
};
/* bailingmoe2: one fused QKV, Q's and K's norms, block 0 dense, block 1
 * experts (their routing bias) and a shared expert, block 2 multi-token
 * prediction (loaded, skipped) with its own norms. */
static const char *const bailingmoe2_keys[] = {
	BASE_KEYS(16, 3), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2", "u32 ARCH.attention.head_count_kv 1",
	"f32 ARCH.attention.layer_norm_rms_epsilon 1e-5",
	"u32 ARCH.leading_dense_block_count 1", "u32 ARCH.expert_count 4",
	"u32 ARCH.expert_used_count 2", "u32 ARCH.expert_feed_forward_length 8",
	"u32 ARCH.expert_shared_count 1", "u32 ARCH.expert_gating_func 2",
	"u32 ARCH.nextn_predict_layers 1", "str tokenizer.ggml.model llama",
	NULL
};
static const char *const bailingmoe2_tensors[] = {
	"G token_embd.weight 16 16", "G output_norm.weight 16",
	"G output.weight 16 16", "L blk.%u.attn_norm.weight 16",
	"L blk.%u.attn_qkv.weight 16 32", "L blk.%u.attn_output.weight 16 16",
	"L blk.%u.attn_q_norm.weight 8", "L blk.%u.attn_k_norm.weight 8",
	"L blk.%u.ffn_norm.weight 16", "L0-0 blk.%u.ffn_gate.weight 16 32",
	"L0-0 blk.%u.ffn_up.weight 16 32", "L0-0 blk.%u.ffn_down.weight 32 16",
	"L1-2 blk.%u.ffn_gate_inp.weight 16 4",
	"L1-2 blk.%u.exp_probs_b.bias 4",
	"L1-2 blk.%u.ffn_gate_exps.weight 16 8 4",
	"L1-2 blk.%u.ffn_up_exps.weight 16 8 4",
	"L1-2 blk.%u.ffn_down_exps.weight 8 16 4",
	"L1-2 blk.%u.ffn_gate_shexp.weight 16 8",
	"L1-2 blk.%u.ffn_up_shexp.weight 16 8",
	"L1-2 blk.%u.ffn_down_shexp.weight 8 16",
	"L2-2 blk.%u.nextn.eh_proj.weight 32 16",
	"L2-2 blk.%u.nextn.enorm.weight 16",
	"L2-2 blk.%u.nextn.hnorm.weight 16",
	"L2-2 blk.%u.layer_output_norm.weight 16", NULL
};

/* dots1: K and V as wide as Q (as many heads), Q's and K's norms, block
 * 0 dense, block 1 experts (no routing bias) and a shared expert. */
static const char *const dots1_keys[] = {
	BASE_KEYS(16, 2), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2", "u32 ARCH.attention.head_count_kv 2",
	"f32 ARCH.attention.layer_norm_rms_epsilon 1e-5",
	"u32 ARCH.leading_dense_block_count 1", "u32 ARCH.expert_count 4",
	"u32 ARCH.expert_used_count 2", "u32 ARCH.expert_feed_forward_length 8",
	"u32 ARCH.expert_shared_count 1", "u32 ARCH.expert_gating_func 2",
	"str tokenizer.ggml.model llama", NULL
};
static const char *const dots1_tensors[] = {
	"G token_embd.weight 16 16", "G output_norm.weight 16",
	"G output.weight 16 16", "L blk.%u.attn_norm.weight 16",
	"L blk.%u.attn_q.weight 16 16", "L blk.%u.attn_k.weight 16 16",
	"L blk.%u.attn_v.weight 16 16", "L blk.%u.attn_output.weight 16 16",
	"L blk.%u.attn_q_norm.weight 8", "L blk.%u.attn_k_norm.weight 8",
	"L blk.%u.ffn_norm.weight 16", "L0-0 blk.%u.ffn_gate.weight 16 32",
	"L0-0 blk.%u.ffn_up.weight 16 32", "L0-0 blk.%u.ffn_down.weight 32 16",
	"L1-1 blk.%u.ffn_gate_inp.weight 16 4",
	"L1-1 blk.%u.ffn_gate_exps.weight 16 8 4",
	"L1-1 blk.%u.ffn_up_exps.weight 16 8 4",
	"L1-1 blk.%u.ffn_down_exps.weight 8 16 4",
	"L1-1 blk.%u.ffn_gate_shexp.weight 16 8",
	"L1-1 blk.%u.ffn_up_shexp.weight 16 8",
	"L1-1 blk.%u.ffn_down_shexp.weight 8 16", NULL
};

/* exaone-moe: block 0 dense, block 1 experts and a shared expert of its
 * own width, block 2 multi-token prediction: dense, nextn.*, its Q, K
 * and V left out (llama.cpp skips them, not requiring them). */
static const char *const exaone_moe_keys[] = {
	BASE_KEYS(16, 3), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2", "u32 ARCH.attention.head_count_kv 1",
	"f32 ARCH.attention.layer_norm_rms_epsilon 1e-5",
	"u32 ARCH.attention.sliding_window 8",
	"u32 ARCH.leading_dense_block_count 1", "u32 ARCH.expert_count 4",
	"u32 ARCH.expert_used_count 2", "u32 ARCH.expert_feed_forward_length 8",
	"u32 ARCH.expert_shared_feed_forward_length 12",
	"u32 ARCH.expert_gating_func 2", "u32 ARCH.nextn_predict_layers 1",
	"str tokenizer.ggml.model gpt2", NULL
};
static const char *const exaone_moe_tensors[] = {
	"G token_embd.weight 16 16", "G output_norm.weight 16",
	"G output.weight 16 16", "L blk.%u.attn_norm.weight 16",
	"L0-1 blk.%u.attn_q.weight 16 16", "L0-1 blk.%u.attn_k.weight 16 8",
	"L0-1 blk.%u.attn_v.weight 16 8", "L blk.%u.attn_output.weight 16 16",
	"L blk.%u.attn_q_norm.weight 8", "L blk.%u.attn_k_norm.weight 8",
	"L blk.%u.ffn_norm.weight 16", "L0-0 blk.%u.ffn_gate.weight 16 32",
	"L0-0 blk.%u.ffn_up.weight 16 32", "L0-0 blk.%u.ffn_down.weight 32 16",
	"L1-1 blk.%u.ffn_gate_inp.weight 16 4",
	"L1-1 blk.%u.ffn_gate_exps.weight 16 8 4",
	"L1-1 blk.%u.ffn_up_exps.weight 16 8 4",
	"L1-1 blk.%u.ffn_down_exps.weight 8 16 4",
	"L1-1 blk.%u.ffn_gate_shexp.weight 16 12",
	"L1-1 blk.%u.ffn_up_shexp.weight 16 12",
	"L1-1 blk.%u.ffn_down_shexp.weight 12 16",
	"L2-2 blk.%u.ffn_gate.weight 16 32", "L2-2 blk.%u.ffn_up.weight 16 32",
	"L2-2 blk.%u.ffn_down.weight 32 16",
	"L2-2 blk.%u.nextn.eh_proj.weight 32 16",
	"L2-2 blk.%u.nextn.enorm.weight 16",
	"L2-2 blk.%u.nextn.hnorm.weight 16", NULL
};

/* cohere2moe: cohere2's layers (no ffn_norm), block 0 dense, block 1
 * experts with gate and up fused, a shared expert; output tied. */
static const char *const cohere2moe_keys[] = {
	BASE_KEYS(16, 2), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2", "u32 ARCH.attention.head_count_kv 1",
	"f32 ARCH.attention.layer_norm_epsilon 1e-5",
	"u32 ARCH.attention.sliding_window 8", "f32 ARCH.logit_scale 0.25",
	"u32 ARCH.leading_dense_block_count 1", "u32 ARCH.expert_count 4",
	"u32 ARCH.expert_used_count 2", "u32 ARCH.expert_feed_forward_length 8",
	"u32 ARCH.expert_shared_count 1", "str tokenizer.ggml.model llama",
	NULL
};
static const char *const cohere2moe_tensors[] = {
	"G token_embd.weight 16 16", "G output_norm.weight 16",
	"L blk.%u.attn_norm.weight 16", "L blk.%u.attn_q.weight 16 16",
	"L blk.%u.attn_k.weight 16 8", "L blk.%u.attn_v.weight 16 8",
	"L blk.%u.attn_output.weight 16 16",
	"L0-0 blk.%u.ffn_gate.weight 16 32", "L0-0 blk.%u.ffn_up.weight 16 32",
	"L0-0 blk.%u.ffn_down.weight 32 16",
	"L1-1 blk.%u.ffn_gate_inp.weight 16 4",
	"L1-1 blk.%u.ffn_gate_up_exps.weight 16 16 4",
	"L1-1 blk.%u.ffn_down_exps.weight 8 16 4",
	"L1-1 blk.%u.ffn_gate_shexp.weight 16 8",
	"L1-1 blk.%u.ffn_up_shexp.weight 16 8",
	"L1-1 blk.%u.ffn_down_shexp.weight 8 16", NULL
};

/* afmoe: norms before and after attention and FFN, Q's and K's norms,
 * the attention's gate, block 0 dense, block 1 experts with their
 * routing bias and a shared expert; output tied. */
static const char *const afmoe_keys[] = {
	BASE_KEYS(16, 2), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2", "u32 ARCH.attention.head_count_kv 1",
	"f32 ARCH.attention.layer_norm_rms_epsilon 1e-5",
	"u32 ARCH.attention.sliding_window 8",
	"u32 ARCH.leading_dense_block_count 1", "u32 ARCH.expert_count 4",
	"u32 ARCH.expert_used_count 2", "u32 ARCH.expert_feed_forward_length 8",
	"u32 ARCH.expert_shared_count 1", "str tokenizer.ggml.model llama",
	NULL
};
static const char *const afmoe_tensors[] = {
	"G token_embd.weight 16 16", "G output_norm.weight 16",
	"L blk.%u.attn_norm.weight 16",
	"L blk.%u.post_attention_norm.weight 16",
	"L blk.%u.attn_q.weight 16 16", "L blk.%u.attn_k.weight 16 8",
	"L blk.%u.attn_v.weight 16 8", "L blk.%u.attn_output.weight 16 16",
	"L blk.%u.attn_q_norm.weight 8", "L blk.%u.attn_k_norm.weight 8",
	"L blk.%u.attn_gate.weight 16 16", "L blk.%u.ffn_norm.weight 16",
	"L blk.%u.post_ffw_norm.weight 16",
	"L0-0 blk.%u.ffn_gate.weight 16 32", "L0-0 blk.%u.ffn_up.weight 16 32",
	"L0-0 blk.%u.ffn_down.weight 32 16",
	"L1-1 blk.%u.ffn_gate_inp.weight 16 4",
	"L1-1 blk.%u.exp_probs_b.bias 4",
	"L1-1 blk.%u.ffn_gate_exps.weight 16 8 4",
	"L1-1 blk.%u.ffn_up_exps.weight 16 8 4",
	"L1-1 blk.%u.ffn_down_exps.weight 8 16 4",
	"L1-1 blk.%u.ffn_gate_shexp.weight 16 8",
	"L1-1 blk.%u.ffn_up_shexp.weight 16 8",
	"L1-1 blk.%u.ffn_down_shexp.weight 8 16", NULL
};

/* bailingmoe: a fused QKV of heads rope.dimension_count wide, experts
 * and a shared expert in every block. */
static const char *const bailingmoe_keys[] = {
	BASE_KEYS(16, 2), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2", "u32 ARCH.attention.head_count_kv 1",
	"f32 ARCH.attention.layer_norm_rms_epsilon 1e-5",
	"u32 ARCH.rope.dimension_count 8", "u32 ARCH.expert_count 4",
	"u32 ARCH.expert_used_count 2", "u32 ARCH.expert_feed_forward_length 8",
	"u32 ARCH.expert_shared_count 1", "str tokenizer.ggml.model llama",
	NULL
};
static const char *const bailingmoe_tensors[] = {
	"G token_embd.weight 16 16", "G output_norm.weight 16",
	"G output.weight 16 16", "L blk.%u.attn_norm.weight 16",
	"L blk.%u.attn_qkv.weight 16 32", "L blk.%u.attn_output.weight 16 16",
	"L blk.%u.ffn_norm.weight 16", "L blk.%u.ffn_gate_inp.weight 16 4",
	"L blk.%u.ffn_gate_exps.weight 16 8 4",
	"L blk.%u.ffn_up_exps.weight 16 8 4",
	"L blk.%u.ffn_down_exps.weight 8 16 4",
	"L blk.%u.ffn_gate_shexp.weight 16 8",
	"L blk.%u.ffn_up_shexp.weight 16 8",
	"L blk.%u.ffn_down_shexp.weight 8 16", NULL
};

/* dbrx: a fused QKV (Q n_embd wide), the attention output's norm,
 * experts as wide as the FFN. */
static const char *const dbrx_keys[] = {
	BASE_KEYS(16, 2), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2", "u32 ARCH.attention.head_count_kv 1",
	"f32 ARCH.attention.layer_norm_epsilon 1e-5",
	"f32 ARCH.attention.clamp_kqv 8", "u32 ARCH.expert_count 4",
	"u32 ARCH.expert_used_count 2", "str tokenizer.ggml.model gpt2", NULL
};
static const char *const dbrx_tensors[] = {
	"G token_embd.weight 16 16", "G output_norm.weight 16",
	"G output.weight 16 16", "L blk.%u.attn_norm.weight 16",
	"L blk.%u.attn_qkv.weight 16 32", "L blk.%u.attn_output.weight 16 16",
	"L blk.%u.attn_output_norm.weight 16",
	"L blk.%u.ffn_gate_inp.weight 16 4",
	"L blk.%u.ffn_gate_exps.weight 16 32 4",
	"L blk.%u.ffn_up_exps.weight 16 32 4",
	"L blk.%u.ffn_down_exps.weight 32 16 4", NULL
};

/* arctic: a dense FFN n_embd wide and experts as wide as the FFN with
 * a norm of their own; output tied. */
static const char *const arctic_keys[] = {
	BASE_KEYS(16, 2), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2", "u32 ARCH.attention.head_count_kv 1",
	"f32 ARCH.attention.layer_norm_rms_epsilon 1e-5",
	"u32 ARCH.expert_count 4", "u32 ARCH.expert_used_count 2",
	"str tokenizer.ggml.model llama", NULL
};
static const char *const arctic_tensors[] = {
	"G token_embd.weight 16 16", "G output_norm.weight 16",
	"L blk.%u.attn_norm.weight 16", "L blk.%u.attn_q.weight 16 16",
	"L blk.%u.attn_k.weight 16 8", "L blk.%u.attn_v.weight 16 8",
	"L blk.%u.attn_output.weight 16 16", "L blk.%u.ffn_norm.weight 16",
	"L blk.%u.ffn_gate.weight 16 16", "L blk.%u.ffn_up.weight 16 16",
	"L blk.%u.ffn_down.weight 16 16", "L blk.%u.ffn_gate_inp.weight 16 4",
	"L blk.%u.ffn_norm_exps.weight 16",
	"L blk.%u.ffn_gate_exps.weight 16 32 4",
	"L blk.%u.ffn_up_exps.weight 16 32 4",
	"L blk.%u.ffn_down_exps.weight 32 16 4", NULL
};

/* smallthinker: a fused QKV, experts alone. */
static const char *const smallthinker_keys[] = {
	BASE_KEYS(16, 2), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2", "u32 ARCH.attention.head_count_kv 1",
	"f32 ARCH.attention.layer_norm_rms_epsilon 1e-5",
	"u32 ARCH.attention.sliding_window 8", "u32 ARCH.expert_count 4",
	"u32 ARCH.expert_used_count 2", "u32 ARCH.expert_feed_forward_length 8",
	"u32 ARCH.expert_gating_func 1", "str tokenizer.ggml.model llama",
	NULL
};
static const char *const smallthinker_tensors[] = {
	"G token_embd.weight 16 16", "G output_norm.weight 16",
	"L blk.%u.attn_norm.weight 16", "L blk.%u.attn_qkv.weight 16 32",
	"L blk.%u.attn_output.weight 16 16", "L blk.%u.ffn_norm.weight 16",
	"L blk.%u.ffn_gate_inp.weight 16 4",
	"L blk.%u.ffn_gate_exps.weight 16 8 4",
	"L blk.%u.ffn_up_exps.weight 16 8 4",
	"L blk.%u.ffn_down_exps.weight 8 16 4", NULL
};

/* grovemoe: Q's and K's norms, experts and one chunk expert per two. */
static const char *const grovemoe_keys[] = {
	BASE_KEYS(16, 2), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2", "u32 ARCH.attention.head_count_kv 1",
	"f32 ARCH.attention.layer_norm_rms_epsilon 1e-5",
	"u32 ARCH.expert_count 4", "u32 ARCH.expert_used_count 2",
	"u32 ARCH.expert_feed_forward_length 8",
	"u32 ARCH.expert_chunk_feed_forward_length 4",
	"f32 ARCH.expert_group_scale 0.05", "u32 ARCH.experts_per_group 2",
	"str tokenizer.ggml.model gpt2", NULL
};
static const char *const grovemoe_tensors[] = {
	"G token_embd.weight 16 16", "G output_norm.weight 16",
	"L blk.%u.attn_norm.weight 16", "L blk.%u.attn_q.weight 16 16",
	"L blk.%u.attn_k.weight 16 8", "L blk.%u.attn_v.weight 16 8",
	"L blk.%u.attn_output.weight 16 16", "L blk.%u.attn_q_norm.weight 8",
	"L blk.%u.attn_k_norm.weight 8", "L blk.%u.ffn_norm.weight 16",
	"L blk.%u.ffn_gate_inp.weight 16 4",
	"L blk.%u.ffn_gate_exps.weight 16 8 4",
	"L blk.%u.ffn_up_exps.weight 16 8 4",
	"L blk.%u.ffn_down_exps.weight 8 16 4",
	"L blk.%u.ffn_gate_chexps.weight 16 4 2",
	"L blk.%u.ffn_up_chexps.weight 16 4 2",
	"L blk.%u.ffn_down_chexps.weight 4 16 2", NULL
};

/* mimo2: block 1 windowed, blocks 0 dense and 1 experts, block 2
 * multi-token prediction without Q, K and V. */
static const char *const mimo2_keys[] = {
	BASE_KEYS(16, 3), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2", "u32 ARCH.attention.head_count_kv 1",
	"f32 ARCH.attention.layer_norm_rms_epsilon 1e-5",
	"u32 ARCH.attention.sliding_window 4",
	"a32 ARCH.attention.sliding_window_pattern 0,1,0",
	"u32 ARCH.expert_count 4", "u32 ARCH.expert_used_count 2",
	"u32 ARCH.expert_feed_forward_length 8",
	"u32 ARCH.nextn_predict_layers 1", "str tokenizer.ggml.model gpt2",
	NULL
};
static const char *const mimo2_tensors[] = {
	"G token_embd.weight 16 16", "G output_norm.weight 16",
	"G output.weight 16 16", "L0-1 blk.%u.attn_q.weight 16 16",
	"L0-1 blk.%u.attn_k.weight 16 8", "L0-1 blk.%u.attn_v.weight 16 8",
	"L blk.%u.attn_output.weight 16 16", "L blk.%u.attn_norm.weight 16",
	"L blk.%u.attn_sinks.weight 2", "L blk.%u.ffn_norm.weight 16",
	"L0-0 blk.%u.ffn_gate.weight 16 32", "L0-0 blk.%u.ffn_up.weight 16 32",
	"L0-0 blk.%u.ffn_down.weight 32 16",
	"L1-2 blk.%u.ffn_gate_inp.weight 16 4",
	"L1-2 blk.%u.ffn_gate_exps.weight 16 8 4",
	"L1-2 blk.%u.ffn_up_exps.weight 16 8 4",
	"L1-2 blk.%u.ffn_down_exps.weight 8 16 4",
	"L2-2 blk.%u.nextn.eh_proj.weight 32 16",
	"L2-2 blk.%u.nextn.enorm.weight 16",
	"L2-2 blk.%u.nextn.hnorm.weight 16", NULL
};

/* hy_v3: Q's and K's norms, block 0 dense, block 1 experts (gate and
 * up fused, the routing bias without a suffix) and a shared expert. */
static const char *const hy_v3_keys[] = {
	BASE_KEYS(16, 2), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2", "u32 ARCH.attention.head_count_kv 1",
	"f32 ARCH.attention.layer_norm_rms_epsilon 1e-5",
	"u32 ARCH.expert_count 4", "u32 ARCH.expert_used_count 2",
	"u32 ARCH.expert_feed_forward_length 8",
	"str tokenizer.ggml.model gpt2", NULL
};
static const char *const hy_v3_tensors[] = {
	"G token_embd.weight 16 16", "G output_norm.weight 16",
	"L blk.%u.attn_norm.weight 16", "L blk.%u.attn_q.weight 16 16",
	"L blk.%u.attn_k.weight 16 8", "L blk.%u.attn_v.weight 16 8",
	"L blk.%u.attn_output.weight 16 16", "L blk.%u.attn_q_norm.weight 8",
	"L blk.%u.attn_k_norm.weight 8", "L blk.%u.ffn_norm.weight 16",
	"L0-0 blk.%u.ffn_gate.weight 16 32", "L0-0 blk.%u.ffn_up.weight 16 32",
	"L0-0 blk.%u.ffn_down.weight 32 16",
	"L1-1 blk.%u.ffn_gate_inp.weight 16 4", "L1-1 blk.%u.exp_probs_b 4",
	"L1-1 blk.%u.ffn_gate_up_exps.weight 16 16 4",
	"L1-1 blk.%u.ffn_down_exps.weight 8 16 4",
	"L1-1 blk.%u.ffn_gate_shexp.weight 16 8",
	"L1-1 blk.%u.ffn_up_shexp.weight 16 8",
	"L1-1 blk.%u.ffn_down_shexp.weight 8 16", NULL
};


static const char *const mamba2_keys[] = {
	BASE_KEYS(8, 2), "u32 ARCH.ssm.conv_kernel 4",
	"u32 ARCH.ssm.inner_size 16", "u32 ARCH.ssm.state_size 4",
	"u32 ARCH.ssm.time_step_rank 2", "u32 ARCH.ssm.group_count 2",
	"f32 ARCH.attention.layer_norm_rms_epsilon 1e-5",
	"str tokenizer.ggml.model gpt2", NULL
};
static const char *const mamba2_tensors[] = {
	"G token_embd.weight 8 16", "G output_norm.weight 8",
	"L blk.%u.attn_norm.weight 8", "L blk.%u.ssm_in.weight 8 50",
	"L blk.%u.ssm_conv1d.weight 4 32", "L blk.%u.ssm_conv1d.bias 32",
	"L blk.%u.ssm_dt.bias 2", "L blk.%u.ssm_a 1 2", "L blk.%u.ssm_d 1 2",
	"L blk.%u.ssm_norm.weight 8 2", "L blk.%u.ssm_out.weight 16 8", NULL
};

static const char *const lfm2_keys[] = {
	BASE_KEYS(16, 2), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2",
	"a32 ARCH.attention.head_count_kv 0,1",
	"f32 ARCH.attention.layer_norm_rms_epsilon 1e-5",
	"u32 ARCH.shortconv.l_cache 3", "str tokenizer.ggml.model llama", NULL
};
/* block 0 a convolution (0 KV heads), block 1 attention */
static const char *const lfm2_tensors[] = {
	"G token_embd.weight 16 16", "G token_embd_norm.weight 16",
	"L blk.%u.attn_norm.weight 16", "L blk.%u.ffn_norm.weight 16",
	"L blk.%u.ffn_gate.weight 16 32", "L blk.%u.ffn_up.weight 16 32",
	"L blk.%u.ffn_down.weight 32 16",
	"L0-0 blk.%u.shortconv.conv.weight 3 16",
	"L0-0 blk.%u.shortconv.in_proj.weight 16 48",
	"L0-0 blk.%u.shortconv.out_proj.weight 16 16",
	"L1-1 blk.%u.attn_q_norm.weight 8", "L1-1 blk.%u.attn_k_norm.weight 8",
	"L1-1 blk.%u.attn_q.weight 16 16", "L1-1 blk.%u.attn_k.weight 16 8",
	"L1-1 blk.%u.attn_v.weight 16 8",
	"L1-1 blk.%u.attn_output.weight 16 16", NULL
};

/* lfm2moe: lfm2's blocks, block 0 dense, block 1 experts with their
 * selection bias */
static const char *const lfm2moe_keys[] = {
	BASE_KEYS(16, 2), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2",
	"a32 ARCH.attention.head_count_kv 0,1",
	"f32 ARCH.attention.layer_norm_rms_epsilon 1e-5",
	"u32 ARCH.shortconv.l_cache 3", "u32 ARCH.leading_dense_block_count 1",
	"u32 ARCH.expert_feed_forward_length 8", "u32 ARCH.expert_count 4",
	"u32 ARCH.expert_used_count 2", "u32 ARCH.expert_gating_func 2",
	"str tokenizer.ggml.model llama", NULL
};
static const char *const lfm2moe_tensors[] = {
	"G token_embd.weight 16 16", "G token_embd_norm.weight 16",
	"L blk.%u.attn_norm.weight 16", "L blk.%u.ffn_norm.weight 16",
	"L0-0 blk.%u.ffn_gate.weight 16 32", "L0-0 blk.%u.ffn_up.weight 16 32",
	"L0-0 blk.%u.ffn_down.weight 32 16",
	"L0-0 blk.%u.shortconv.conv.weight 3 16",
	"L0-0 blk.%u.shortconv.in_proj.weight 16 48",
	"L0-0 blk.%u.shortconv.out_proj.weight 16 16",
	"L1-1 blk.%u.ffn_gate_inp.weight 16 4",
	"L1-1 blk.%u.exp_probs_b.bias 4",
	"L1-1 blk.%u.ffn_gate_exps.weight 16 8 4",
	"L1-1 blk.%u.ffn_up_exps.weight 16 8 4",
	"L1-1 blk.%u.ffn_down_exps.weight 8 16 4",
	"L1-1 blk.%u.attn_q_norm.weight 8", "L1-1 blk.%u.attn_k_norm.weight 8",
	"L1-1 blk.%u.attn_q.weight 16 16", "L1-1 blk.%u.attn_k.weight 16 8",
	"L1-1 blk.%u.attn_v.weight 16 8",
	"L1-1 blk.%u.attn_output.weight 16 16", NULL
};

/* deepseek32: deepseek2's MLA (split K and V decompression) and the DSA
 * indexer in every block, one dense block, then experts. */
static const char *const deepseek32_keys[] = {
	BASE_KEYS(16, 3), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2", "u32 ARCH.attention.head_count_kv 1",
	"u32 ARCH.attention.key_length 12", "u32 ARCH.attention.value_length 8",
	"u32 ARCH.attention.key_length_mla 12",
	"u32 ARCH.attention.value_length_mla 8",
	"u32 ARCH.attention.q_lora_rank 8", "u32 ARCH.attention.kv_lora_rank 8",
	"u32 ARCH.attention.indexer.head_count 2",
	"u32 ARCH.attention.indexer.key_length 4",
	"u32 ARCH.attention.indexer.top_k 8", "u32 ARCH.rope.dimension_count 4",
	"f32 ARCH.attention.layer_norm_rms_epsilon 1e-6",
	"u32 ARCH.leading_dense_block_count 1", "u32 ARCH.expert_count 4",
	"u32 ARCH.expert_used_count 2", "u32 ARCH.expert_gating_func 2",
	"u32 ARCH.expert_feed_forward_length 8",
	"u32 ARCH.expert_shared_count 1", "str tokenizer.ggml.model gpt2",
	NULL
};
static const char *const deepseek32_tensors[] = {
	"G token_embd.weight 16 16", "G output_norm.weight 16",
	"L blk.%u.attn_norm.weight 16", "L blk.%u.attn_q_a_norm.weight 8",
	"L blk.%u.attn_q_a.weight 16 8", "L blk.%u.attn_q_b.weight 8 24",
	"L blk.%u.attn_kv_a_mqa.weight 16 12",
	"L blk.%u.attn_kv_a_norm.weight 8", "L blk.%u.attn_k_b.weight 8 8 2",
	"L blk.%u.attn_v_b.weight 8 8 2", "L blk.%u.attn_output.weight 16 16",
	"L blk.%u.ffn_norm.weight 16", "L blk.%u.indexer.k_norm.weight 4",
	"L blk.%u.indexer.k_norm.bias 4", "L blk.%u.indexer.proj.weight 16 2",
	"L blk.%u.indexer.attn_k.weight 16 4",
	"L blk.%u.indexer.attn_q_b.weight 8 8",
	"L0-0 blk.%u.ffn_gate.weight 16 32", "L0-0 blk.%u.ffn_up.weight 16 32",
	"L0-0 blk.%u.ffn_down.weight 32 16",
	"L1-2 blk.%u.ffn_gate_inp.weight 16 4",
	"L1-2 blk.%u.exp_probs_b.bias 4",
	"L1-2 blk.%u.ffn_gate_exps.weight 16 8 4",
	"L1-2 blk.%u.ffn_up_exps.weight 16 8 4",
	"L1-2 blk.%u.ffn_down_exps.weight 8 16 4",
	"L1-2 blk.%u.ffn_gate_shexp.weight 16 8",
	"L1-2 blk.%u.ffn_up_shexp.weight 16 8",
	"L1-2 blk.%u.ffn_down_shexp.weight 8 16", NULL
};

/* minicpm3: a low-rank query, a compressed KV and its one decompression
 * (2 heads: K 12 wide, its RoPE part 4, V 8) */
static const char *const minicpm3_keys[] = {
	BASE_KEYS(16, 2), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2", "u32 ARCH.attention.key_length 12",
	"u32 ARCH.attention.value_length 8", "u32 ARCH.rope.dimension_count 4",
	"u32 ARCH.attention.q_lora_rank 8", "u32 ARCH.attention.kv_lora_rank 8",
	"f32 ARCH.attention.layer_norm_rms_epsilon 1e-5",
	"str tokenizer.ggml.model llama", NULL
};
static const char *const minicpm3_tensors[] = {
	"G token_embd.weight 16 16", "G output_norm.weight 16",
	"G output.weight 16 16", "G rope_factors_long.weight 2",
	"L blk.%u.attn_norm.weight 16", "L blk.%u.attn_q_a_norm.weight 8",
	"L blk.%u.attn_q_a.weight 16 8", "L blk.%u.attn_q_b.weight 8 24",
	"L blk.%u.attn_kv_a_mqa.weight 16 12",
	"L blk.%u.attn_kv_a_norm.weight 8", "L blk.%u.attn_kv_b.weight 8 32",
	"L blk.%u.attn_output.weight 16 16", "L blk.%u.ffn_norm.weight 16",
	"L blk.%u.ffn_gate.weight 16 32", "L blk.%u.ffn_up.weight 16 32",
	"L blk.%u.ffn_down.weight 32 16", NULL
};

/* deepseek: llama's attention, one dense block, then experts and a
 * shared one */
static const char *const deepseek_keys[] = {
	BASE_KEYS(16, 3), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2", "u32 ARCH.attention.head_count_kv 1",
	"u32 ARCH.rope.dimension_count 8",
	"f32 ARCH.attention.layer_norm_rms_epsilon 1e-6",
	"u32 ARCH.leading_dense_block_count 1", "u32 ARCH.expert_count 4",
	"u32 ARCH.expert_used_count 2",
	"u32 ARCH.expert_feed_forward_length 8",
	"u32 ARCH.expert_shared_count 1", "str tokenizer.ggml.model gpt2",
	NULL
};
static const char *const deepseek_tensors[] = {
	"G token_embd.weight 16 16", "G output_norm.weight 16",
	"L blk.%u.attn_norm.weight 16", "L blk.%u.attn_q.weight 16 16",
	"L blk.%u.attn_k.weight 16 8", "L blk.%u.attn_v.weight 16 8",
	"L blk.%u.attn_output.weight 16 16", "L blk.%u.ffn_norm.weight 16",
	"L0-0 blk.%u.ffn_gate.weight 16 32", "L0-0 blk.%u.ffn_up.weight 16 32",
	"L0-0 blk.%u.ffn_down.weight 32 16",
	"L1-2 blk.%u.ffn_gate_inp.weight 16 4",
	"L1-2 blk.%u.ffn_gate_exps.weight 16 8 4",
	"L1-2 blk.%u.ffn_up_exps.weight 16 8 4",
	"L1-2 blk.%u.ffn_down_exps.weight 8 16 4",
	"L1-2 blk.%u.ffn_gate_shexp.weight 16 8",
	"L1-2 blk.%u.ffn_up_shexp.weight 16 8",
	"L1-2 blk.%u.ffn_down_shexp.weight 8 16", NULL
};

/* deepseek2-ocr: deepseek's, its K and V as wide as its queries */
static const char *const deepseek2ocr_tensors[] = {
	"G token_embd.weight 16 16", "G output_norm.weight 16",
	"L blk.%u.attn_norm.weight 16", "L blk.%u.attn_q.weight 16 16",
	"L blk.%u.attn_k.weight 16 16", "L blk.%u.attn_v.weight 16 16",
	"L blk.%u.attn_output.weight 16 16", "L blk.%u.ffn_norm.weight 16",
	"L0-0 blk.%u.ffn_gate.weight 16 32", "L0-0 blk.%u.ffn_up.weight 16 32",
	"L0-0 blk.%u.ffn_down.weight 32 16",
	"L1-2 blk.%u.ffn_gate_inp.weight 16 4",
	"L1-2 blk.%u.exp_probs_b.bias 4",
	"L1-2 blk.%u.ffn_gate_up_exps.weight 16 16 4",
	"L1-2 blk.%u.ffn_down_exps.weight 8 16 4",
	"L1-2 blk.%u.ffn_gate_shexp.weight 16 8",
	"L1-2 blk.%u.ffn_up_shexp.weight 16 8",
	"L1-2 blk.%u.ffn_down_shexp.weight 8 16", NULL
};

static const char *const granitehybrid_keys[] = {
	BASE_KEYS(8, 2), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2",
	"a32 ARCH.attention.head_count_kv 0,1",
	"f32 ARCH.attention.layer_norm_rms_epsilon 1e-5",
	"u32 ARCH.ssm.conv_kernel 4", "u32 ARCH.ssm.inner_size 16",
	"u32 ARCH.ssm.state_size 4", "u32 ARCH.ssm.time_step_rank 2",
	"u32 ARCH.ssm.group_count 1", "str tokenizer.ggml.model gpt2", NULL
};
/* block 0 mamba2 (0 KV heads), block 1 attention */
static const char *const granitehybrid_tensors[] = {
	"G token_embd.weight 8 16", "G output_norm.weight 8",
	"L blk.%u.attn_norm.weight 8", "L blk.%u.ffn_norm.weight 8",
	"L blk.%u.ffn_gate.weight 8 32", "L blk.%u.ffn_up.weight 8 32",
	"L blk.%u.ffn_down.weight 32 8",
	"L0-0 blk.%u.ssm_in.weight 8 42", "L0-0 blk.%u.ssm_conv1d.weight 4 24",
	"L0-0 blk.%u.ssm_conv1d.bias 24", "L0-0 blk.%u.ssm_dt.bias 2",
	"L0-0 blk.%u.ssm_a 1 2", "L0-0 blk.%u.ssm_d 1 2",
	"L0-0 blk.%u.ssm_norm.weight 16 1", "L0-0 blk.%u.ssm_out.weight 16 8",
	"L1-1 blk.%u.attn_q.weight 8 8", "L1-1 blk.%u.attn_k.weight 8 4",
	"L1-1 blk.%u.attn_v.weight 8 4", "L1-1 blk.%u.attn_output.weight 8 8",
	NULL
};

static const char *const qwen35_keys[] = {
	BASE_KEYS(8, 2), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2", "u32 ARCH.attention.head_count_kv 1",
	"f32 ARCH.attention.layer_norm_rms_epsilon 1e-5",
	"u32 ARCH.full_attention_interval 2",
	"u32 ARCH.ssm.conv_kernel 4", "u32 ARCH.ssm.inner_size 8",
	"u32 ARCH.ssm.state_size 4", "u32 ARCH.ssm.time_step_rank 2",
	"u32 ARCH.ssm.group_count 1", "str tokenizer.ggml.model gpt2", NULL
};
/* block 0 Gated DeltaNet, block 1 attention (an interval of 2) */
static const char *const qwen35_tensors[] = {
	"G token_embd.weight 8 16", "G output_norm.weight 8",
	"L blk.%u.attn_norm.weight 8", "L blk.%u.post_attention_norm.weight 8",
	"L blk.%u.ffn_gate.weight 8 32", "L blk.%u.ffn_up.weight 8 32",
	"L blk.%u.ffn_down.weight 32 8",
	"L0-0 blk.%u.attn_qkv.weight 8 16", "L0-0 blk.%u.attn_gate.weight 8 8",
	"L0-0 blk.%u.ssm_conv1d.weight 4 16", "L0-0 blk.%u.ssm_dt.bias 2",
	"L0-0 blk.%u.ssm_a 2", "L0-0 blk.%u.ssm_beta.weight 8 2",
	"L0-0 blk.%u.ssm_alpha.weight 8 2", "L0-0 blk.%u.ssm_norm.weight 4",
	"L0-0 blk.%u.ssm_out.weight 8 8",
	"L1-1 blk.%u.attn_q.weight 8 16", "L1-1 blk.%u.attn_k.weight 8 4",
	"L1-1 blk.%u.attn_v.weight 8 4", "L1-1 blk.%u.attn_output.weight 8 8",
	"L1-1 blk.%u.attn_q_norm.weight 4", "L1-1 blk.%u.attn_k_norm.weight 4",
	NULL
};

#define QWEN3NEXT_KEYS \
	BASE_KEYS(8, 2), "u32 ARCH.feed_forward_length 32", \
	"u32 ARCH.attention.head_count 2", \
	"u32 ARCH.attention.head_count_kv 1", \
	"f32 ARCH.attention.layer_norm_rms_epsilon 1e-5", \
	"u32 ARCH.full_attention_interval 2", "u32 ARCH.ssm.conv_kernel 4", \
	"u32 ARCH.ssm.inner_size 8", "u32 ARCH.ssm.state_size 4", \
	"u32 ARCH.ssm.time_step_rank 2", "u32 ARCH.ssm.group_count 1", \
	"u32 ARCH.expert_count 4", "u32 ARCH.expert_used_count 2", \
	"u32 ARCH.expert_feed_forward_length 8", \
	"u32 ARCH.expert_shared_feed_forward_length 16", \
	"str tokenizer.ggml.model gpt2"
static const char *const qwen3next_keys[] = { QWEN3NEXT_KEYS, NULL };
#define QWEN3NEXT_FFN \
	"L blk.%u.ffn_gate_inp.weight 8 4", \
	"L blk.%u.ffn_gate_exps.weight 8 8 4", \
	"L blk.%u.ffn_up_exps.weight 8 8 4", \
	"L blk.%u.ffn_down_exps.weight 8 8 4", \
	"L blk.%u.ffn_gate_inp_shexp.weight 8", \
	"L blk.%u.ffn_gate_shexp.weight 8 16", \
	"L blk.%u.ffn_up_shexp.weight 8 16", \
	"L blk.%u.ffn_down_shexp.weight 16 8"
#define QWEN35_ATTN \
	"G token_embd.weight 8 16", "G output_norm.weight 8", \
	"L blk.%u.attn_norm.weight 8", \
	"L blk.%u.post_attention_norm.weight 8", \
	"L1-1 blk.%u.attn_q.weight 8 16", "L1-1 blk.%u.attn_k.weight 8 4", \
	"L1-1 blk.%u.attn_v.weight 8 4", \
	"L1-1 blk.%u.attn_output.weight 8 8", \
	"L1-1 blk.%u.attn_q_norm.weight 4", \
	"L1-1 blk.%u.attn_k_norm.weight 4", \
	"L0-0 blk.%u.attn_qkv.weight 8 16", \
	"L0-0 blk.%u.attn_gate.weight 8 8", \
	"L0-0 blk.%u.ssm_conv1d.weight 4 16", "L0-0 blk.%u.ssm_dt.bias 2", \
	"L0-0 blk.%u.ssm_a 2", "L0-0 blk.%u.ssm_norm.weight 4", \
	"L0-0 blk.%u.ssm_out.weight 8 8"
/* block 0 Gated DeltaNet (beta and alpha in one), block 1 attention */
static const char *const qwen3next_tensors[] = {
	QWEN35_ATTN, QWEN3NEXT_FFN, "L0-0 blk.%u.ssm_ba.weight 8 4", NULL
};
/* qwen35moe: qwen35's layers, qwen3next's experts */
static const char *const qwen35moe_tensors[] = {
	QWEN35_ATTN, QWEN3NEXT_FFN, "L0-0 blk.%u.ssm_beta.weight 8 2",
	"L0-0 blk.%u.ssm_alpha.weight 8 2", NULL
};

#define NEMOTRON_H_KEYS(ff, kv) \
	BASE_KEYS(8, 3), "a32 ARCH.feed_forward_length " ff, \
	"u32 ARCH.attention.head_count 2", \
	"a32 ARCH.attention.head_count_kv " kv, \
	"f32 ARCH.attention.layer_norm_epsilon 1e-5", \
	"u32 ARCH.ssm.conv_kernel 4", "u32 ARCH.ssm.inner_size 16", \
	"u32 ARCH.ssm.state_size 4", "u32 ARCH.ssm.time_step_rank 2", \
	"u32 ARCH.ssm.group_count 1", "str tokenizer.ggml.model gpt2"
#define NEMOTRON_H_SSM(l) \
	"L" l "-" l " blk.%u.ssm_in.weight 8 42", \
	"L" l "-" l " blk.%u.ssm_conv1d.weight 4 24", \
	"L" l "-" l " blk.%u.ssm_conv1d.bias 24", \
	"L" l "-" l " blk.%u.ssm_dt.bias 2", "L" l "-" l " blk.%u.ssm_a 1 2", \
	"L" l "-" l " blk.%u.ssm_d 1 2", \
	"L" l "-" l " blk.%u.ssm_norm.weight 16 1", \
	"L" l "-" l " blk.%u.ssm_out.weight 16 8"
#define NEMOTRON_H_ATTN(l) \
	"L" l "-" l " blk.%u.attn_q.weight 8 8", \
	"L" l "-" l " blk.%u.attn_k.weight 8 4", \
	"L" l "-" l " blk.%u.attn_v.weight 8 4", \
	"L" l "-" l " blk.%u.attn_output.weight 8 8"
static const char *const nemotron_h_keys[] = {
	NEMOTRON_H_KEYS("0,0,32", "0,1,0"), NULL
};
/* block 0 Mamba-2, block 1 attention, block 2 a feed-forward */
static const char *const nemotron_h_tensors[] = {
	"G token_embd.weight 8 16", "G output_norm.weight 8",
	"L blk.%u.attn_norm.weight 8", NEMOTRON_H_SSM("0"),
	NEMOTRON_H_ATTN("1"), "L2-2 blk.%u.ffn_up.weight 8 32",
	"L2-2 blk.%u.ffn_down.weight 32 8", NULL
};
static const char *const nemotron_h_moe_keys[] = {
	NEMOTRON_H_KEYS("32,0,0", "0,0,1"), "u32 ARCH.expert_count 4",
	"u32 ARCH.expert_used_count 2", "u32 ARCH.expert_feed_forward_length 8",
	"u32 ARCH.expert_shared_feed_forward_length 16", NULL
};
/* block 0 experts, block 1 Mamba-2, block 2 attention */
static const char *const nemotron_h_moe_tensors[] = {
	"G token_embd.weight 8 16", "G output_norm.weight 8",
	"L blk.%u.attn_norm.weight 8", "L0-0 blk.%u.ffn_gate_inp.weight 8 4",
	"L0-0 blk.%u.exp_probs_b.bias 4",
	"L0-0 blk.%u.ffn_down_exps.weight 8 8 4",
	"L0-0 blk.%u.ffn_up_exps.weight 8 8 4",
	"L0-0 blk.%u.ffn_down_shexp.weight 16 8",
	"L0-0 blk.%u.ffn_up_shexp.weight 8 16", NEMOTRON_H_SSM("1"),
	NEMOTRON_H_ATTN("2"), NULL
};

static const char *const falcon_h1_keys[] = {
	BASE_KEYS(8, 2), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2", "u32 ARCH.attention.head_count_kv 1",
	"f32 ARCH.attention.layer_norm_rms_epsilon 1e-5",
	"u32 ARCH.ssm.conv_kernel 4", "u32 ARCH.ssm.inner_size 16",
	"u32 ARCH.ssm.state_size 4", "u32 ARCH.ssm.time_step_rank 2",
	"u32 ARCH.ssm.group_count 1", "str tokenizer.ggml.model gpt2", NULL
};
/* every block Mamba-2 and attention */
static const char *const falcon_h1_tensors[] = {
	"G token_embd.weight 8 16", "G output_norm.weight 8",
	"L blk.%u.attn_norm.weight 8", NEMOTRON_H_SSM("0"),
	NEMOTRON_H_SSM("1"), "L blk.%u.attn_q.weight 8 8",
	"L blk.%u.attn_k.weight 8 4", "L blk.%u.attn_v.weight 8 4",
	"L blk.%u.attn_output.weight 8 8", "L blk.%u.ffn_norm 8",
	"L blk.%u.ffn_gate.weight 8 32", "L blk.%u.ffn_up.weight 8 32",
	"L blk.%u.ffn_down.weight 32 8", NULL
};

static const char *const kimi_linear_keys[] = {
	BASE_KEYS(8, 2), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2",
	"a32 ARCH.attention.head_count_kv 0,1",
	"f32 ARCH.attention.layer_norm_rms_epsilon 1e-5",
	"u32 ARCH.attention.key_length 6", "u32 ARCH.attention.value_length 4",
	"u32 ARCH.attention.key_length_mla 6",
	"u32 ARCH.attention.value_length_mla 4",
	"u32 ARCH.attention.kv_lora_rank 4", "u32 ARCH.rope.dimension_count 2",
	"u32 ARCH.ssm.conv_kernel 4", "u32 ARCH.kda.head_dim 4",
	"u32 ARCH.leading_dense_block_count 1", "u32 ARCH.expert_count 4",
	"u32 ARCH.expert_used_count 2", "u32 ARCH.expert_feed_forward_length 8",
	"u32 ARCH.expert_shared_count 1", "u32 ARCH.expert_gating_func 2",
	"str tokenizer.ggml.model gpt2", NULL
};
/* block 0 KDA and dense, block 1 MLA and experts */
static const char *const kimi_linear_tensors[] = {
	"G token_embd.weight 8 16", "G output_norm.weight 8",
	"G output.weight 8 16", "L blk.%u.attn_norm.weight 8",
	"L blk.%u.ffn_norm.weight 8", "L0-0 blk.%u.ssm_conv1d_q.weight 4 1 8",
	"L0-0 blk.%u.ssm_conv1d_k.weight 4 1 8",
	"L0-0 blk.%u.ssm_conv1d_v.weight 4 1 8",
	"L0-0 blk.%u.attn_q.weight 8 8", "L0-0 blk.%u.attn_k.weight 8 8",
	"L0-0 blk.%u.attn_v.weight 8 8", "L0-0 blk.%u.ssm_f_a.weight 8 4",
	"L0-0 blk.%u.ssm_f_b.weight 4 8", "L0-0 blk.%u.ssm_beta.weight 8 2",
	"L0-0 blk.%u.ssm_a 1 2", "L0-0 blk.%u.ssm_dt.bias 8",
	"L0-0 blk.%u.ssm_g_a.weight 8 4", "L0-0 blk.%u.ssm_g_b.weight 4 8",
	"L0-0 blk.%u.ssm_norm.weight 4", "L blk.%u.attn_output.weight 8 8",
	"L1-1 blk.%u.attn_q.weight 8 12",
	"L1-1 blk.%u.attn_kv_a_norm.weight 4",
	"L1-1 blk.%u.attn_kv_a_mqa.weight 8 6",
	"L1-1 blk.%u.attn_k_b.weight 4 4 2",
	"L1-1 blk.%u.attn_v_b.weight 4 4 2",
	"L0-0 blk.%u.ffn_gate.weight 8 32", "L0-0 blk.%u.ffn_up.weight 8 32",
	"L0-0 blk.%u.ffn_down.weight 32 8",
	"L1-1 blk.%u.ffn_gate_inp.weight 8 4",
	"L1-1 blk.%u.ffn_gate_exps.weight 8 8 4",
	"L1-1 blk.%u.ffn_up_exps.weight 8 8 4",
	"L1-1 blk.%u.ffn_down_exps.weight 8 8 4",
	"L1-1 blk.%u.exp_probs_b.bias 4",
	"L1-1 blk.%u.ffn_gate_shexp.weight 8 8",
	"L1-1 blk.%u.ffn_up_shexp.weight 8 8",
	"L1-1 blk.%u.ffn_down_shexp.weight 8 8", NULL
};

/* kimi-k3: kimi-linear's blocks with a full-rank KDA gate, an MLA output
 * gate, the residuals' scores, experts in a latent space of 4 */
static const char *const kimi_k3_keys[] = {
	BASE_KEYS(8, 2), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2",
	"a32 ARCH.attention.head_count_kv 0,1",
	"f32 ARCH.attention.layer_norm_rms_epsilon 1e-5",
	"u32 ARCH.attention.key_length_mla 6",
	"u32 ARCH.attention.value_length_mla 4",
	"u32 ARCH.attention.kv_lora_rank 4", "u32 ARCH.rope.dimension_count 2",
	"u32 ARCH.ssm.conv_kernel 4", "u32 ARCH.kda.head_dim 4",
	"u32 ARCH.leading_dense_block_count 1", "u32 ARCH.expert_count 4",
	"u32 ARCH.expert_used_count 2", "u32 ARCH.expert_feed_forward_length 8",
	"u32 ARCH.expert_shared_count 1", "u32 ARCH.expert_gating_func 2",
	"u32 ARCH.expert_latent_length 4", "u32 ARCH.attn_res.block_size 2",
	"f32 ARCH.activation.situ_beta 1",
	"f32 ARCH.activation.situ_linear_beta 1",
	"str tokenizer.ggml.model gpt2", NULL
};
static const char *const kimi_k3_tensors[] = {
	"G token_embd.weight 8 16", "G output_norm.weight 8",
	"G output.weight 8 16", "G output_res_score.weight 8",
	"L blk.%u.attn_norm.weight 8", "L blk.%u.ffn_norm.weight 8",
	"L blk.%u.attn_res_score.weight 8", "L blk.%u.ffn_res_score.weight 8",
	"L0-0 blk.%u.ssm_conv1d_q.weight 4 1 8",
	"L0-0 blk.%u.ssm_conv1d_k.weight 4 1 8",
	"L0-0 blk.%u.ssm_conv1d_v.weight 4 1 8",
	"L0-0 blk.%u.attn_q.weight 8 8", "L0-0 blk.%u.attn_k.weight 8 8",
	"L0-0 blk.%u.attn_v.weight 8 8", "L0-0 blk.%u.ssm_f_a.weight 8 4",
	"L0-0 blk.%u.ssm_f_b.weight 4 8", "L0-0 blk.%u.ssm_beta.weight 8 2",
	"L0-0 blk.%u.ssm_a 2", "L0-0 blk.%u.ssm_dt.bias 8",
	"L0-0 blk.%u.ssm_g.weight 8 8", "L0-0 blk.%u.ssm_norm.weight 4",
	"L blk.%u.attn_output.weight 8 8", "L1-1 blk.%u.attn_q.weight 8 12",
	"L1-1 blk.%u.attn_kv_a_norm.weight 4",
	"L1-1 blk.%u.attn_kv_a_mqa.weight 8 6",
	"L1-1 blk.%u.attn_k_b.weight 4 4 2",
	"L1-1 blk.%u.attn_v_b.weight 4 4 2",
	"L1-1 blk.%u.attn_gate.weight 8 8",
	"L0-0 blk.%u.ffn_gate.weight 8 32", "L0-0 blk.%u.ffn_up.weight 8 32",
	"L0-0 blk.%u.ffn_down.weight 32 8",
	"L1-1 blk.%u.ffn_gate_inp.weight 8 4",
	"L1-1 blk.%u.ffn_gate_exps.weight 4 8 4",
	"L1-1 blk.%u.ffn_up_exps.weight 4 8 4",
	"L1-1 blk.%u.ffn_down_exps.weight 8 4 4",
	"L1-1 blk.%u.ffn_routed_down.weight 8 4",
	"L1-1 blk.%u.ffn_routed_up.weight 4 8",
	"L1-1 blk.%u.exp_probs_b.bias 4",
	"L1-1 blk.%u.ffn_gate_shexp.weight 8 8",
	"L1-1 blk.%u.ffn_up_shexp.weight 8 8",
	"L1-1 blk.%u.ffn_down_shexp.weight 8 8", NULL
};

static const char *const gemma4_keys[] = {
	BASE_KEYS(8, 3), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2", "u32 ARCH.attention.head_count_kv 1",
	"f32 ARCH.attention.layer_norm_rms_epsilon 1e-5",
	"u32 ARCH.attention.key_length 4", "u32 ARCH.attention.value_length 4",
	"u32 ARCH.attention.key_length_swa 2",
	"u32 ARCH.attention.value_length_swa 2",
	"u32 ARCH.attention.sliding_window 4",
	"a32 ARCH.attention.sliding_window_pattern 1,0,1",
	"u32 ARCH.attention.shared_kv_layers 1",
	"u32 ARCH.embedding_length_per_layer_input 0",
	"str tokenizer.ggml.model llama", NULL
};
/* blocks 0 and 2 windowed (2-wide heads), 1 full (4-wide); block 2
 * reuses block 0's cache: no attn_k */
static const char *const gemma4_tensors[] = {
	"G token_embd.weight 8 16", "G output_norm.weight 8",
	"G rope_freqs.weight 2", "L blk.%u.attn_norm.weight 8",
	"L blk.%u.post_attention_norm.weight 8", "L blk.%u.ffn_norm.weight 8",
	"L blk.%u.ffn_gate.weight 8 32", "L blk.%u.ffn_up.weight 8 32",
	"L blk.%u.ffn_down.weight 32 8", "L blk.%u.post_ffw_norm.weight 8",
	"L0-0 blk.%u.attn_q.weight 8 4", "L0-0 blk.%u.attn_k.weight 8 2",
	"L0-0 blk.%u.attn_output.weight 4 8",
	"L0-0 blk.%u.attn_q_norm.weight 2", "L0-0 blk.%u.attn_k_norm.weight 2",
	"L1-1 blk.%u.attn_q.weight 8 8", "L1-1 blk.%u.attn_k.weight 8 4",
	"L1-1 blk.%u.attn_output.weight 8 8",
	"L1-1 blk.%u.attn_q_norm.weight 4", "L1-1 blk.%u.attn_k_norm.weight 4",
	"L2-2 blk.%u.attn_q.weight 8 4", "L2-2 blk.%u.attn_output.weight 4 8",
	"L2-2 blk.%u.attn_q_norm.weight 2", NULL
};

static const char *const gemma3n_keys[] = {
	BASE_KEYS(16, 2), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2", "u32 ARCH.attention.head_count_kv 1",
	"f32 ARCH.attention.layer_norm_rms_epsilon 1e-5",
	"u32 ARCH.attention.sliding_window 4",
	"str tokenizer.ggml.model llama", NULL
};
/* 256-wide per-layer inputs, 4 AltUp streams, LAuReL rank 64 */
static const char *const gemma3n_tensors[] = {
	"G token_embd.weight 16 16", "G output_norm.weight 16",
	"G altup_proj.weight 16 16 3", "G altup_unembd_proj.weight 16 16 3",
	"G per_layer_token_embd.weight 512 16",
	"G per_layer_model_proj.weight 16 512",
	"G per_layer_proj_norm.weight 256",
	"L blk.%u.attn_norm.weight 16", "L blk.%u.attn_q.weight 16 16",
	"L blk.%u.attn_k.weight 16 8", "L blk.%u.attn_v.weight 16 8",
	"L blk.%u.attn_output.weight 16 16", "L blk.%u.attn_q_norm.weight 8",
	"L blk.%u.attn_k_norm.weight 8",
	"L blk.%u.post_attention_norm.weight 16",
	"L blk.%u.ffn_norm.weight 16", "L blk.%u.ffn_gate.weight 16 32",
	"L blk.%u.ffn_up.weight 16 32", "L blk.%u.ffn_down.weight 32 16",
	"L blk.%u.post_ffw_norm.weight 16", "L blk.%u.inp_gate.weight 16 256",
	"L blk.%u.proj.weight 256 16", "L blk.%u.post_norm.weight 16",
	"L blk.%u.altup_correct_coef.weight 4 4",
	"L blk.%u.altup_correct_scale.weight 16",
	"L blk.%u.altup_predict_coef.weight 4 16",
	"L blk.%u.altup_router.weight 16 4",
	"L blk.%u.altup_router_norm.weight 16",
	"L blk.%u.laurel_l.weight 16 64", "L blk.%u.laurel_r.weight 64 16",
	"L blk.%u.laurel_post_norm.weight 16", NULL
};

/* glm4: norms after the attention and the FFN, one doubled ffn_up; block
 * 2 an MTP layer (nextn.*, its q, k, v left out). */
static const char *const glm4_keys[] = {
	BASE_KEYS(16, 3), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2", "u32 ARCH.attention.head_count_kv 1",
	"f32 ARCH.attention.layer_norm_rms_epsilon 1e-5",
	"u32 ARCH.nextn_predict_layers 1", "str tokenizer.ggml.model gpt2",
	NULL
};
static const char *const glm4_tensors[] = {
	"G token_embd.weight 16 16", "G output_norm.weight 16",
	"G output.weight 16 16", "L blk.%u.attn_norm.weight 16",
	"L0-1 blk.%u.attn_q.weight 16 16", "L0-1 blk.%u.attn_k.weight 16 8",
	"L0-1 blk.%u.attn_v.weight 16 8", "L0-1 blk.%u.attn_q.bias 16",
	"L0-1 blk.%u.attn_k.bias 8", "L0-1 blk.%u.attn_v.bias 8",
	"L blk.%u.attn_output.weight 16 16",
	"L blk.%u.post_attention_norm.weight 16",
	"L blk.%u.ffn_norm.weight 16", "L blk.%u.ffn_up.weight 16 64",
	"L blk.%u.ffn_down.weight 32 16", "L blk.%u.post_ffw_norm.weight 16",
	"L2-2 blk.%u.nextn.eh_proj.weight 32 16",
	"L2-2 blk.%u.nextn.enorm.weight 16",
	"L2-2 blk.%u.nextn.hnorm.weight 16", NULL
};

/* arcee: llama's attention, an FFN of up, ReLU squared, down (no
 * gate); output tied to token_embd. */
static const char *const arcee_tensors[] = { "G token_embd.weight 16 16",
	"G output_norm.weight 16", "L blk.%u.attn_norm.weight 16", DENSE_QKV,
	"L blk.%u.ffn_norm.weight 16", "L blk.%u.ffn_up.weight 16 32",
	"L blk.%u.ffn_down.weight 32 16", NULL };

/* apertus: Q's and K's norms, an FFN of up, xIELU, down (no gate);
 * xIELU's keys unprefixed, one float each. */
static const char *const apertus_keys[] = {
	BASE_KEYS(16, 2), "u32 ARCH.feed_forward_length 32",
	"u32 ARCH.attention.head_count 2", "u32 ARCH.attention.head_count_kv 1",
	"f32 ARCH.attention.layer_norm_rms_epsilon 1e-5",
	"f32 xielu.alpha_n 0.8", "f32 xielu.alpha_p 0.8", "f32 xielu.beta 0.5",
	"f32 xielu.eps 1e-6", "str tokenizer.ggml.model gpt2", NULL
};
static const char *const apertus_tensors[] = { "G token_embd.weight 16 16",
	"G output_norm.weight 16", "G output.weight 16 16",
	"L blk.%u.attn_norm.weight 16", DENSE_QKV,
	"L blk.%u.attn_q_norm.weight 8", "L blk.%u.attn_k_norm.weight 8",
	"L blk.%u.ffn_norm.weight 16", "L blk.%u.ffn_up.weight 16 32",
	"L blk.%u.ffn_down.weight 32 16", NULL };

/* internlm2, baichuan, xverse: llama's layout (Q as wide as the
 * embedding), output required. */
static const char *const dense_out_tensors[] = { "G token_embd.weight 16 16",
	"G output_norm.weight 16", "G output.weight 16 16",
	"L blk.%u.attn_norm.weight 16", DENSE_QKV,
	"L blk.%u.ffn_norm.weight 16", DENSE_FFN, NULL };





/* orion: layer norms with biases, llama's attention and SwiGLU. */
static const char *const orion_keys[] = { BASE_KEYS(16, 2),
	"u32 ARCH.feed_forward_length 32", "u32 ARCH.attention.head_count 2",
	"u32 ARCH.attention.head_count_kv 1",
	"f32 ARCH.attention.layer_norm_epsilon 1e-5",
	"str tokenizer.ggml.model llama", NULL };
static const char *const orion_tensors[] = { "G token_embd.weight 16 16",
	"G output_norm.weight 16", "G output_norm.bias 16",
	"G output.weight 16 16", "L blk.%u.attn_norm.weight 16",
	"L blk.%u.attn_norm.bias 16", DENSE_QKV, "L blk.%u.ffn_norm.weight 16",
	"L blk.%u.ffn_norm.bias 16", DENSE_FFN, NULL };

/* nemotron: orion's norms, an FFN of up, ReLU squared, down. */
static const char *const nemotron_tensors[] = { "G token_embd.weight 16 16",
	"G output_norm.weight 16", "G output_norm.bias 16",
	"G output.weight 16 16", "L blk.%u.attn_norm.weight 16",
	"L blk.%u.attn_norm.bias 16", DENSE_QKV, "L blk.%u.ffn_norm.weight 16",
	"L blk.%u.ffn_norm.bias 16", "L blk.%u.ffn_up.weight 16 32",
	"L blk.%u.ffn_down.weight 32 16", NULL };

/* granite_swa: granite's layers, each with its sinks; the first layer's
 * attention in a sliding window, the second's not roped. */
static const char *const granite_swa_keys[] = { BASE_KEYS(16, 2),
	"u32 ARCH.feed_forward_length 32", "u32 ARCH.attention.head_count 2",
	"u32 ARCH.attention.head_count_kv 1",
	"f32 ARCH.attention.layer_norm_rms_epsilon 1e-5",
	"f32 ARCH.logit_scale 8", "u32 ARCH.attention.sliding_window 4",
	"a32 ARCH.attention.sliding_window_pattern 1,0",
	"a32 ARCH.attention.rope_pattern 1,0",
	"str tokenizer.ggml.model gpt2", NULL };
static const char *const granite_swa_tensors[] = {
	"G token_embd.weight 16 16", "G output_norm.weight 16",
	"L blk.%u.attn_norm.weight 16", DENSE_QKV,
	"L blk.%u.attn_sinks.weight 2", "L blk.%u.ffn_norm.weight 16",
	DENSE_FFN, NULL };

/* phi2: one norm for the attention and the FFN (up, GELU, down), every
 * bias required. */
static const char *const phi2_tensors[] = { "G token_embd.weight 16 16",
	"G output_norm.weight 16", "G output_norm.bias 16",
	"G output.weight 16 16", "G output.bias 16",
	"L blk.%u.attn_norm.weight 16", "L blk.%u.attn_norm.bias 16",
	"L blk.%u.attn_qkv.weight 16 32", "L blk.%u.attn_qkv.bias 32",
	"L blk.%u.attn_output.weight 16 16", "L blk.%u.attn_output.bias 16",
	"L blk.%u.ffn_up.weight 16 32", "L blk.%u.ffn_up.bias 32",
	"L blk.%u.ffn_down.weight 32 16", "L blk.%u.ffn_down.bias 16", NULL };

/* gptneox: layer norms, one fused QKV, up, GELU, down, every bias
 * required; the attention and the FFN side by side. */
static const char *const gptneox_keys[] = { BASE_KEYS(16, 2),
	"u32 ARCH.feed_forward_length 32", "u32 ARCH.attention.head_count 2",
	"u32 ARCH.attention.head_count_kv 1",
	"f32 ARCH.attention.layer_norm_epsilon 1e-5",
	"bool ARCH.use_parallel_residual 1", "str tokenizer.ggml.model gpt2",
	NULL };
static const char *const gptneox_tensors[] = { "G token_embd.weight 16 16",
	"G output_norm.weight 16", "G output_norm.bias 16",
	"G output.weight 16 16", "L blk.%u.attn_norm.weight 16",
	"L blk.%u.attn_norm.bias 16", "L blk.%u.attn_qkv.weight 16 32",
	"L blk.%u.attn_qkv.bias 32", "L blk.%u.attn_output.weight 16 16",
	"L blk.%u.attn_output.bias 16", "L blk.%u.ffn_norm.weight 16",
	"L blk.%u.ffn_norm.bias 16", "L blk.%u.ffn_up.weight 16 32",
	"L blk.%u.ffn_up.bias 32", "L blk.%u.ffn_down.weight 32 16",
	"L blk.%u.ffn_down.bias 16", NULL };

/* starcoder: gpt2's layout, learned positions (32 trained), output
 * tied. */
static const char *const starcoder_tensors[] = { "G token_embd.weight 16 16",
	"G position_embd.weight 16 32", "G output_norm.weight 16",
	"G output_norm.bias 16", "L blk.%u.attn_norm.weight 16",
	"L blk.%u.attn_norm.bias 16", "L blk.%u.attn_qkv.weight 16 32",
	"L blk.%u.attn_qkv.bias 32", "L blk.%u.attn_output.weight 16 16",
	"L blk.%u.attn_output.bias 16", "L blk.%u.ffn_norm.weight 16",
	"L blk.%u.ffn_norm.bias 16", "L blk.%u.ffn_up.weight 16 32",
	"L blk.%u.ffn_up.bias 32", "L blk.%u.ffn_down.weight 32 16",
	"L blk.%u.ffn_down.bias 16", NULL };

/* bloom: the embeddings normed, no positions, output tied. */
static const char *const bloom_tensors[] = { "G token_embd.weight 16 16",
	"G token_embd_norm.weight 16", "G token_embd_norm.bias 16",
	"G output_norm.weight 16", "G output_norm.bias 16",
	"L blk.%u.attn_norm.weight 16", "L blk.%u.attn_norm.bias 16",
	"L blk.%u.attn_qkv.weight 16 32", "L blk.%u.attn_qkv.bias 32",
	"L blk.%u.attn_output.weight 16 16", "L blk.%u.attn_output.bias 16",
	"L blk.%u.ffn_norm.weight 16", "L blk.%u.ffn_norm.bias 16",
	"L blk.%u.ffn_up.weight 16 32", "L blk.%u.ffn_up.bias 32",
	"L blk.%u.ffn_down.weight 32 16", "L blk.%u.ffn_down.bias 16", NULL };

/* mpt: layer norms and one fused QKV without biases, up, GELU, down; no
 * positions; output tied. */
static const char *const mpt_tensors[] = { "G token_embd.weight 16 16",
	"G output_norm.weight 16", "L blk.%u.attn_norm.weight 16",
	"L blk.%u.attn_qkv.weight 16 32", "L blk.%u.attn_output.weight 16 16",
	"L blk.%u.ffn_norm.weight 16", "L blk.%u.ffn_up.weight 16 32",
	"L blk.%u.ffn_down.weight 32 16", NULL };

/* qwen: one fused QKV of three times the embedding with its bias, a
 * SwiGLU FFN half feed_forward_length (64 here), output required. */
static const char *const qwen_keys[] = { BASE_KEYS(16, 2),
	"u32 ARCH.feed_forward_length 64", "u32 ARCH.attention.head_count 2",
	"f32 ARCH.attention.layer_norm_rms_epsilon 1e-5",
	"str tokenizer.ggml.model gpt2", NULL };
static const char *const qwen_tensors[] = { "G token_embd.weight 16 16",
	"G output_norm.weight 16", "G output.weight 16 16",
	"L blk.%u.attn_norm.weight 16", "L blk.%u.attn_qkv.weight 16 48",
	"L blk.%u.attn_qkv.bias 48", "L blk.%u.attn_output.weight 16 16",
	"L blk.%u.ffn_norm.weight 16", DENSE_FFN, NULL };

/* codeshell: layer norms, separate q, k, v, up, GELU, down, the
 * attention's output and the FFN's biases. */
static const char *const codeshell_tensors[] = { "G token_embd.weight 16 16",
	"G output_norm.weight 16", "G output_norm.bias 16",
	"G output.weight 16 16", "L blk.%u.attn_norm.weight 16",
	"L blk.%u.attn_norm.bias 16", DENSE_QKV,
	"L blk.%u.attn_output.bias 16", "L blk.%u.ffn_norm.weight 16",
	"L blk.%u.ffn_norm.bias 16", "L blk.%u.ffn_up.weight 16 32",
	"L blk.%u.ffn_up.bias 32", "L blk.%u.ffn_down.weight 32 16",
	"L blk.%u.ffn_down.bias 16", NULL };

/* A model of each mapped architecture, and the tensor whose widening
 * must be the model's one finding. */
static const struct {
	struct arch_model m;
	const char *widen;
} round_trips[] = {
	{ { "llama", 2, llama_moe_keys, llama_moe_tensors },
	  "blk.%u.ffn_down_exps.weight" },
	{ { "qwen3", 2, qwen3_keys, qwen3_tensors },
	  "blk.%u.attn_q_norm.weight" },
	{ { "qwen3moe", 2, qwen3moe_keys, qwen3moe_tensors },
	  "blk.%u.ffn_up_exps.weight" },
	{ { "qwen2moe", 2, qwen2moe_keys, qwen2moe_tensors },
	  "blk.%u.ffn_down_shexp.weight" },
	{ { "phi3", 2, phi3_keys, phi3_tensors },
	  "blk.%u.attn_qkv.weight" },
	{ { "gemma3", 2, gemma3_keys, gemma3_tensors },
	  "blk.%u.attn_output.weight" },
	{ { "deepseek2", 3, deepseek2_keys, deepseek2_tensors },
	  "blk.%u.attn_k_b.weight" },
	{ { "mamba", 2, mamba_keys, mamba_tensors },
	  "blk.%u.ssm_x.weight" },
	{ { "falcon", 2, falcon_keys, falcon_tensors },
	  "blk.%u.attn_qkv.weight" },
	{ { "gpt2", 2, gpt2_keys, gpt2_tensors },
	  "position_embd.weight" },
	{ { "bert", 2, bert_keys, bert_tensors },
	  "token_types.weight" },
	{ { "starcoder2", 2, starcoder2_keys, starcoder2_tensors },
	  "blk.%u.attn_k.bias" },
	{ { "olmo2", 2, olmo2_keys, olmo2_tensors },
	  "blk.%u.attn_k_norm.weight" },
	{ { "nomic-bert", 2, nomic_bert_keys, nomic_bert_tensors },
	  "blk.%u.attn_qkv.weight" },
	{ { "gpt-oss", 2, gptoss_keys, gptoss_tensors },
	  "blk.%u.attn_sinks.weight" },
	{ { "llama4", 2, llama4_keys, llama4_tensors },
	  "blk.%u.ffn_up_shexp.weight" },
	{ { "cohere2", 2, cohere2_keys, cohere2_tensors },
	  "blk.%u.attn_k.weight" },
	{ { "glm4moe", 3, glm4moe_keys, glm4moe_tensors },
	  "blk.%u.exp_probs_b.bias" },
	{ { "mamba2", 2, mamba2_keys, mamba2_tensors },
	  "blk.%u.ssm_norm.weight" },
	{ { "lfm2", 2, lfm2_keys, lfm2_tensors },
	  "blk.%u.attn_k.weight" },
	{ { "lfm2", 2, lfm2_keys, lfm2_tensors },
	  "blk.%u.shortconv.in_proj.weight" },
	{ { "granitehybrid", 2, granitehybrid_keys,
	    granitehybrid_tensors },
	  "blk.%u.ssm_in.weight" },
	{ { "gemma3n", 2, gemma3n_keys, gemma3n_tensors },
	  "per_layer_token_embd.weight" },
	{ { "ernie4_5", 2, ernie4_5_keys, ernie4_5_tensors },
	  "blk.%u.attn_qkv.weight" },
	{ { "mistral3", 2, ernie4_5_keys, ernie4_5_tensors },
	  "blk.%u.ffn_up.weight" },
	{ { "seed_oss", 2, ernie4_5_keys, seed_oss_tensors },
	  "blk.%u.post_attention_norm.weight" },
	{ { "smollm3", 2, ernie4_5_keys, smollm3_tensors },
	  "blk.%u.attn_k.weight" },
	{ { "hunyuan-dense", 2, ernie4_5_keys, hunyuan_tensors },
	  "blk.%u.attn_q_norm.weight" },
	{ { "granite", 2, granite_keys, smollm3_tensors },
	  "blk.%u.ffn_down.weight" },
	{ { "command-r", 2, command_r_keys, command_r_tensors },
	  "blk.%u.attn_v.weight" },
	{ { "olmo", 2, command_r_keys, olmo_tensors },
	  "blk.%u.attn_output.weight" },
	{ { "exaone4", 2, ernie4_5_keys, exaone4_tensors },
	  "blk.%u.post_ffw_norm.weight" },
	{ { "olmoe", 2, olmoe_keys, olmoe_tensors },
	  "blk.%u.ffn_up_exps.weight" },
	{ { "phimoe", 2, phimoe_keys, phimoe_tensors },
	  "blk.%u.attn_qkv.weight" },
	{ { "granitemoe", 2, granitemoe_keys, granitemoe_tensors },
	  "blk.%u.ffn_up_shexp.weight" },
	{ { "minimax-m2", 2, minimax_m2_keys, minimax_m2_tensors },
	  "blk.%u.attn_k_norm.weight" },
	{ { "ernie4_5-moe", 2, ernie4_5_moe_keys,
	    ernie4_5_moe_tensors },
	  "blk.%u.ffn_down_shexp.weight" },
	{ { "qwen3vl", 2, qwen3vl_keys, qwen3_tensors },
	  "blk.%u.attn_q_norm.weight" },
	{ { "qwen3vlmoe", 2, qwen3vlmoe_keys, qwen3moe_tensors },
	  "blk.%u.ffn_up_exps.weight" },
	{ { "hunyuan-moe", 2, hunyuan_moe_keys, hunyuan_moe_tensors },
	  "blk.%u.ffn_up_shexp.weight" },
	{ { "qwen35", 2, qwen35_keys, qwen35_tensors },
	  "blk.%u.attn_gate.weight" },
	{ { "qwen35moe", 2, qwen3next_keys, qwen35moe_tensors },
	  "blk.%u.ffn_down_shexp.weight" },
	{ { "qwen3next", 2, qwen3next_keys, qwen3next_tensors },
	  "blk.%u.ssm_ba.weight" },
	{ { "nemotron_h", 3, nemotron_h_keys, nemotron_h_tensors },
	  "blk.%u.ffn_up.weight" },
	{ { "nemotron_h_moe", 3, nemotron_h_moe_keys,
	    nemotron_h_moe_tensors },
	  "blk.%u.ffn_up_exps.weight" },
	{ { "falcon-h1", 2, falcon_h1_keys, falcon_h1_tensors },
	  "blk.%u.attn_q.weight" },
	{ { "kimi-linear", 2, kimi_linear_keys, kimi_linear_tensors },
	  "blk.%u.ssm_f_b.weight" },
	{ { "gemma4", 3, gemma4_keys, gemma4_tensors },
	  "blk.%u.post_ffw_norm.weight" },
	{ { "lfm2moe", 2, lfm2moe_keys, lfm2moe_tensors },
	  "blk.%u.ffn_gate_exps.weight" },
	{ { "glm4", 3, glm4_keys, glm4_tensors }, "blk.%u.ffn_up.weight" },
	{ { "arcee", 2, ernie4_5_keys, arcee_tensors },
	  "blk.%u.ffn_down.weight" },
	{ { "apertus", 2, apertus_keys, apertus_tensors },
	  "blk.%u.attn_k_norm.weight" },
	{ { "exaone", 2, ernie4_5_keys, smollm3_tensors },
	  "blk.%u.attn_v.weight" },
	{ { "internlm2", 2, ernie4_5_keys, dense_out_tensors },
	  "blk.%u.attn_output.weight" },
	{ { "baichuan", 2, ernie4_5_keys, dense_out_tensors },
	  "blk.%u.ffn_up.weight" },
	{ { "xverse", 2, ernie4_5_keys, dense_out_tensors },
	  "blk.%u.ffn_gate.weight" },
	{ { "deepseek32", 3, deepseek32_keys, deepseek32_tensors },
	  "blk.%u.indexer.attn_k.weight" },
	/* glm-dsa: deepseek32's tensors (its indexer's optional) */
	{ { "glm-dsa", 3, deepseek32_keys, deepseek32_tensors },
	  "blk.%u.indexer.attn_q_b.weight" },
	/* mistral4: deepseek2's loader */
	{ { "mistral4", 3, deepseek2_keys, deepseek2_tensors },
	  "blk.%u.attn_v_b.weight" },
	{ { "minicpm3", 2, minicpm3_keys, minicpm3_tensors },
	  "blk.%u.attn_kv_b.weight" },
	{ { "kimi-k3", 2, kimi_k3_keys, kimi_k3_tensors },
	  "blk.%u.ffn_routed_down.weight" },
	{ { "deepseek", 3, deepseek_keys, deepseek_tensors },
	  "blk.%u.ffn_up_shexp.weight" },
	{ { "deepseek2-ocr", 3, deepseek_keys, deepseek2ocr_tensors },
	  "blk.%u.attn_v.weight" },
	{ { "orion", 2, orion_keys, orion_tensors }, "blk.%u.ffn_norm.bias" },
	{ { "minicpm", 2, ernie4_5_keys, smollm3_tensors },
	  "blk.%u.ffn_norm.weight" },
	{ { "nemotron", 2, orion_keys, nemotron_tensors },
	  "blk.%u.ffn_up.weight" },
	{ { "stablelm", 2, orion_keys, orion_tensors },
	  "blk.%u.attn_norm.bias" },
	{ { "granite_swa", 2, granite_swa_keys, granite_swa_tensors },
	  "blk.%u.attn_sinks.weight" },
	{ { "phi2", 2, orion_keys, phi2_tensors }, "blk.%u.ffn_up.bias" },
	{ { "gptneox", 2, gptneox_keys, gptneox_tensors },
	  "blk.%u.attn_qkv.bias" },
	{ { "starcoder", 2, orion_keys, starcoder_tensors },
	  "position_embd.weight" },
	{ { "bloom", 2, orion_keys, bloom_tensors },
	  "token_embd_norm.weight" },
	{ { "mpt", 2, orion_keys, mpt_tensors }, "blk.%u.attn_qkv.weight" },
	{ { "qwen", 2, qwen_keys, qwen_tensors }, "blk.%u.ffn_gate.weight" },
	{ { "refact", 2, ernie4_5_keys, smollm3_tensors },
	  "blk.%u.ffn_down.weight" },
	{ { "codeshell", 2, orion_keys, codeshell_tensors },
	  "blk.%u.ffn_down.bias" },
	{ { "bailingmoe2", 3, bailingmoe2_keys, bailingmoe2_tensors },
	  "blk.%u.attn_qkv.weight" },
	{ { "dots1", 2, dots1_keys, dots1_tensors },
	  "blk.%u.attn_k.weight" },
	{ { "exaone-moe", 3, exaone_moe_keys, exaone_moe_tensors },
	  "blk.%u.ffn_up_shexp.weight" },
	{ { "cohere2moe", 2, cohere2moe_keys, cohere2moe_tensors },
	  "blk.%u.ffn_gate_up_exps.weight" },
	{ { "afmoe", 2, afmoe_keys, afmoe_tensors },
	  "blk.%u.attn_gate.weight" },
	{ { "bailingmoe", 2, bailingmoe_keys, bailingmoe_tensors },
	  "blk.%u.attn_qkv.weight" },
	{ { "dbrx", 2, dbrx_keys, dbrx_tensors },
	  "blk.%u.attn_output_norm.weight" },
	{ { "arctic", 2, arctic_keys, arctic_tensors },
	  "blk.%u.ffn_norm_exps.weight" },
	{ { "smallthinker", 2, smallthinker_keys, smallthinker_tensors },
	  "blk.%u.attn_qkv.weight" },
	{ { "grovemoe", 2, grovemoe_keys, grovemoe_tensors },
	  "blk.%u.ffn_up_chexps.weight" },
	{ { "mimo2", 3, mimo2_keys, mimo2_tensors },
	  "blk.%u.attn_sinks.weight" },
	{ { "hy_v3", 2, hy_v3_keys, hy_v3_tensors },
	  "blk.%u.exp_probs_b" },
};

Test(names, every_mapped_architecture_round_trips)
{
	size_t i;

	for (i = 0; i < sizeof round_trips / sizeof round_trips[0]; i++)
		check_arch(&round_trips[i].m, round_trips[i].widen);
}

/* deepseek2: the dense block needs its FFN, the expert blocks theirs. */
static const char *const deepseek2_missing[] = {
	"G token_embd.weight 16 16", "G output_norm.weight 16",
	"L blk.%u.attn_norm.weight 16", "L blk.%u.attn_q_a_norm.weight 8",
	"L blk.%u.attn_q_a.weight 16 8", "L blk.%u.attn_q_b.weight 8 24",
	"L blk.%u.attn_kv_a_mqa.weight 16 12",
	"L blk.%u.attn_kv_a_norm.weight 8",
	"L blk.%u.attn_kv_b.weight 8 32", "L blk.%u.attn_output.weight 16 16",
	"L blk.%u.ffn_norm.weight 16",
	"L0-0 blk.%u.ffn_up.weight 16 32", "L0-0 blk.%u.ffn_down.weight 32 16",
	"L1-2 blk.%u.ffn_gate_inp.weight 16 4",
	"L1-2 blk.%u.ffn_gate_exps.weight 16 8 4",
	"L1-2 blk.%u.ffn_up_exps.weight 16 8 4",
	"L1-2 blk.%u.ffn_gate_shexp.weight 16 8",
	"L1-2 blk.%u.ffn_up_shexp.weight 16 8",
	"L1-2 blk.%u.ffn_down_shexp.weight 8 16", NULL
};

Test(names, conditions_and_alternatives)
{
	const struct arch_model a = { "deepseek2", 3, deepseek2_keys,
	    deepseek2_missing };
	struct strbuf sb = STRBUF_INIT;
	struct test_lint t;
	size_t i;
	bool gate = false, down = false;

	build_arch(&a, NULL, &sb);
	test_lint_bytes(&t, sb.buf, sb.len);
	/* attn_kv_b replaces attn_k_b and attn_v_b: not missing */
	cr_assert_eq(test_count(&t, "N002"), 2, "%s", test_codes(&t));
	for (i = 0; i < t.res.diags.n; i++) {
		const struct diag *d = &t.res.diags.v[i];

		if (strcmp(d->rule->code, "N002") != 0)
			continue;
		if (strstr(d->message, "blk.N.ffn_gate.weight is missing in 1 "
		    "of 3 blocks (0)") != NULL)
			gate = true;
		if (strstr(d->message, "blk.N.ffn_down_exps.weight is missing "
		    "in 2 of 3 blocks (1-2)") != NULL)
			down = true;
	}
	cr_assert(gate && down, "%s", test_find(&t, "N002")->message);
	test_lint_free(&t);
	strbuf_free(&sb);
}

/* Only llama.cpp's spelling of a block index is mapped. */
static void
set_leading_zero(struct tiny *t)
{
	t->extra = "blk.01.attn_norm.weight";
}

Test(names, leading_zero_block_index_is_unmapped)
{
	struct strbuf sb = STRBUF_INIT;
	struct test_lint t;
	struct tiny m;

	tiny_init(&m);
	set_leading_zero(&m);
	tiny_build(&m, &sb);
	test_lint_bytes(&t, sb.buf, sb.len);
	cr_assert_eq(test_count(&t, "N001"), 1, "%s", test_codes(&t));
	test_lint_free(&t);
	strbuf_free(&sb);
}

/* An unknown value is not compared: no feed_forward_length, no FFN check. */
Test(names, unknown_geometry_is_not_checked)
{
	struct strbuf sb = STRBUF_INIT;
	struct ggufw_model m;
	struct test_lint t;
	int64_t emb[2] = { 8, 16 }, norm[1] = { 8 }, ffn[2] = { 8, 99 };
	int64_t down[2] = { 99, 8 }, q[2] = { 8, 8 }, kv[2] = { 8, 4 };
	const char *tok[16] = { "a", "b", "c", "d", "e", "f", "g", "h", "i",
	    "j", "k", "l", "m", "n", "o", "p" };

	ggufw_model_init(&m, false, 32);
	ggufw_model_kv_str(&m, "general.architecture", "llama");
	ggufw_model_kv_u32(&m, "llama.context_length", 64);
	ggufw_model_kv_u32(&m, "llama.embedding_length", 8);
	ggufw_model_kv_u32(&m, "llama.block_count", 1);
	ggufw_model_kv_u32(&m, "llama.attention.head_count", 2);
	ggufw_model_kv_u32(&m, "llama.attention.head_count_kv", 1);
	ggufw_model_kv_f32(&m, "llama.attention.layer_norm_rms_epsilon", 1e-5f);
	ggufw_model_kv_str(&m, "tokenizer.ggml.model", "llama");
	ggufw_model_kv_arr_str(&m, "tokenizer.ggml.tokens", tok, 16);
	ggufw_model_tensor(&m, "token_embd.weight", 2, emb, 0, 1, 4);
	ggufw_model_tensor(&m, "output_norm.weight", 1, norm, 0, 1, 4);
	ggufw_model_tensor(&m, "blk.0.attn_norm.weight", 1, norm, 0, 1, 4);
	ggufw_model_tensor(&m, "blk.0.attn_q.weight", 2, q, 0, 1, 4);
	ggufw_model_tensor(&m, "blk.0.attn_k.weight", 2, kv, 0, 1, 4);
	ggufw_model_tensor(&m, "blk.0.attn_v.weight", 2, kv, 0, 1, 4);
	ggufw_model_tensor(&m, "blk.0.attn_output.weight", 2, q, 0, 1, 4);
	ggufw_model_tensor(&m, "blk.0.ffn_norm.weight", 1, norm, 0, 1, 4);
	ggufw_model_tensor(&m, "blk.0.ffn_gate.weight", 2, ffn, 0, 1, 4);
	ggufw_model_tensor(&m, "blk.0.ffn_up.weight", 2, ffn, 0, 1, 4);
	ggufw_model_tensor(&m, "blk.0.ffn_down.weight", 2, down, 0, 1, 4);
	ggufw_model_finish(&m, &sb, GGUFW_DATA_ZERO);
	ggufw_model_free(&m);
	test_lint_bytes(&t, sb.buf, sb.len);
	cr_assert_eq(count_family(&t, 'N'), 0, "%s", test_codes(&t));
	test_lint_free(&t);
	strbuf_free(&sb);
}

/* N001 lists the first five names and counts the rest. */
Test(names, unmapped_list_is_capped)
{
	struct strbuf sb = STRBUF_INIT;
	struct ggufw_model m;
	struct test_lint t;
	int64_t ne[1] = { 4 };
	char name[32];
	int i;

	ggufw_model_init(&m, false, 32);
	ggufw_model_kv_str(&m, "general.architecture", "llama");
	ggufw_model_kv_u32(&m, "llama.embedding_length", 4);
	for (i = 0; i < 8; i++) {
		snprintf(name, sizeof name, "extra.%d", i);
		ggufw_model_tensor(&m, name, 1, ne, 0, 1, 4);
	}
	ggufw_model_finish(&m, &sb, GGUFW_DATA_ZERO);
	ggufw_model_free(&m);
	test_lint_bytes(&t, sb.buf, sb.len);
	cr_assert_eq(test_count(&t, "N001"), 1, "%s", test_codes(&t));
	cr_assert(strstr(test_find(&t, "N001")->message, "8 tensors (128 B) "
	    "match no name of the llama map") != NULL, "%s",
	    test_find(&t, "N001")->message);
	cr_assert(strncmp(test_find(&t, "N001")->note, "extra.0, extra.1, "
	    "extra.2, extra.3, extra.4, ... 3 more;", 43) == 0, "%s",
	    test_find(&t, "N001")->note);
	test_lint_free(&t);
	strbuf_free(&sb);
}

/*
 * Without block_count, block tensors are matched but not counted, and
 * arch.c knows no geometry (embedding_length is read after block_count),
 * so no shape is checked either.
 */
Test(names, block_count_unknown)
{
	struct strbuf sb = STRBUF_INIT;
	struct ggufw_model m;
	struct test_lint t;
	int64_t norm[1] = { 8 }, bad[1] = { 9 };

	ggufw_model_init(&m, false, 32);
	ggufw_model_kv_str(&m, "general.architecture", "llama");
	ggufw_model_kv_u32(&m, "llama.embedding_length", 8);
	ggufw_model_tensor(&m, "blk.7.attn_norm.weight", 1, norm, 0, 1, 4);
	ggufw_model_tensor(&m, "blk.3.ffn_norm.weight", 1, bad, 0, 1, 4);
	ggufw_model_finish(&m, &sb, GGUFW_DATA_ZERO);
	ggufw_model_free(&m);
	test_lint_bytes(&t, sb.buf, sb.len);
	cr_assert_eq(test_count(&t, "N004"), 0, "%s", test_codes(&t));
	cr_assert_eq(test_count(&t, "N003"), 0, "%s", test_codes(&t));
	cr_assert_eq(test_count(&t, "N001"), 0, "%s", test_codes(&t));
	cr_assert(test_count(&t, "M001") >= 1, "%s", test_codes(&t));
	test_lint_free(&t);
	strbuf_free(&sb);
}

/* A shard of a split model holds some tensors; later shards no metadata. */
static void
set_first_shard(struct tiny *t)
{
	t->split_no = 0;
	t->split_count = 2;
	t->drop = "blk.1.ffn_down.weight";
	t->eps = TINY_EPS_NONE;
}

static void
set_second_shard(struct tiny *t)
{
	set_first_shard(t);
	t->split_no = 1;
	t->tok_model = NULL;
	t->no_tokens = true;
}

Test(names, split_shards)
{
	struct strbuf sb = STRBUF_INIT;
	struct test_lint t;
	struct tiny m;

	tiny_init(&m);
	set_first_shard(&m);
	tiny_build(&m, &sb);
	test_lint_bytes(&t, sb.buf, sb.len);
	cr_assert_eq(test_count(&t, "N002"), 0, "%s", test_codes(&t));
	cr_assert_eq(test_count(&t, "M001"), 1, "%s", test_codes(&t));
	test_lint_free(&t);
	strbuf_reset(&sb);
	tiny_init(&m);
	set_second_shard(&m);
	tiny_build(&m, &sb);
	test_lint_bytes(&t, sb.buf, sb.len);
	/* no M or N finding; given alone (not by its shard name), the
	 * split checks say it is shard 2 of 2 (F041) and misnamed (F042) */
	cr_assert_eq(t.res.diags.n, 2, "%s", test_codes(&t));
	cr_assert_eq(test_count(&t, "F041"), 1, "%s", test_codes(&t));
	cr_assert_eq(test_count(&t, "F042"), 1, "%s", test_codes(&t));
	test_lint_free(&t);
	strbuf_free(&sb);
}
