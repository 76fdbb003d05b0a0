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
static void set_no_ff_key(struct tiny *t) { t->no_ff_key = true; }
/* No architecture llama.cpp v0.5.0 loads is without a map: an unknown
 * one (M019 too) */
static void set_arch_unmapped(struct tiny *t) { t->arch = "unknown-arch"; }
static void set_adapter(struct tiny *t) { t->general_type = "adapter"; }
static void set_type_model(struct tiny *t) { t->general_type = "model"; }

static const struct golden_case cases[] = {
	{ "N001-unmapped-tensor", "N001", 1, set_unmapped },
	{ "N001-ok", "N001", 0, NULL },
	{ "N002-missing-ffn-gate", "N002", 1, set_drop_gate },
	{ "N002-ok-tied-output", "N002", 0, set_drop_output },
	{ "N003-attn-k-shape", "N003", 1, set_bad_k },
	{ "N003-ok", "N003", 0, NULL },
	/* llama.cpp's FFN of width 0 without the key: gate, up and down
	 * of both blocks refused */
	{ "N003-no-ff-key", "N003", 6, set_no_ff_key },
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
	golden_flush();
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
		"deepseek4", "graniteswitch", "glm-dsa", "mistral4",
		"minicpm3", "kimi-k3", "deepseek", "deepseek2-ocr", "orion",
		"minicpm", "nemotron", "stablelm",
		"granite_swa", "phi2", "gptneox", "starcoder", "bloom", "mpt",
		"qwen", "refact", "codeshell", "bailingmoe2", "dots1",
		"exaone-moe", "cohere2moe", "afmoe", "bailingmoe", "dbrx",
		"arctic", "smallthinker", "grovemoe", "mimo2", "hy_v3",
		"minimax-m3", "minimax-01", "plm", "talkie", "maincoder",
		"mellum", "gemma-embedding", "rwkv6", "rwkv6qwen2", "rwkv7",
		"arwkv7", "pangu-embedded", "spark2_5", "maple",
		"muse-glimmer", "t5encoder", "t5", "jina-bert-v3",
		"nomic-bert-moe", "neo-bert", "eurobert", "modern-bert",
		"dream", "llada", "llada-moe", "rnd1", "qwen2vl", "paddleocr",
		"hunyuan_vl", "chameleon", "cogvlm", "jamba", "deci", "chatglm",
		"grok", "jais", "jais2", "openelm", "plamo", "plamo3", "bitnet",
		"plamo2", "step35", "laguna",
		"nanbeige", "hy_v4", "jina-bert-v2", "qwen3tts",
		"pockettts", "bailingmoe3", "hrm_text", "dots3note",
		"qwen4exp", "wavtokenizer-dec", NULL
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
	e = load_with_map("gpt2.yaml", "architectures: [gpt2, eagle3]\n"
	    "tensors: []\n");
	cr_expect(strstr(e->msg, "gpt2.yaml: architecture 'eagle3' has "
	    "no name map in the table of src/facts/arch.c") != NULL, "%s",
	    e->msg);
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

#include "names-models.h"

Test(names, every_mapped_architecture_round_trips)
{
	size_t i;

	for (i = 0; i < sizeof round_trips / sizeof round_trips[0]; i++)
		check_arch(&round_trips[i].m, round_trips[i].widen);
}

/* deepseek4's MTP block without its nextn.eh_proj is a trunk block to
 * llama.cpp, which creates no nextn tensor there and refuses a file
 * with one ("wrong number of tensors"): N003. */
Test(names, stray_mtp_tensor_is_refused)
{
	const struct arch_model a = { "deepseek4", 3, deepseek4_keys,
	    deepseek4_stray_nextn_tensors };
	struct strbuf sb = STRBUF_INIT;
	struct test_lint t;

	build_arch(&a, NULL, &sb);
	test_lint_bytes(&t, sb.buf, sb.len);
	cr_expect(test_count(&t, "N003") == 1 && count_family(&t, 'N') == 1,
	    "%s", test_codes(&t));
	test_lint_free(&t);
	strbuf_free(&sb);
}

/* A key of type any (qwen2vl's rope.dimension_sections, a scalar or an
 * array to llama.cpp): M001 where it is missing, nothing where it is an
 * array (the round trip above). */
Test(names, key_of_any_type_is_required)
{
	const struct arch_model a = { "qwen2vl", 2, ernie4_5_keys,
	    qwen2vl_tensors };
	struct strbuf sb = STRBUF_INIT;
	struct test_lint t;

	build_arch(&a, NULL, &sb);
	test_lint_bytes(&t, sb.buf, sb.len);
	cr_expect_eq(test_count(&t, "M001"), 1, "%s", test_codes(&t));
	cr_expect(t.res.diags.n > 0 &&
		strstr(t.res.diags.v[0].message,
		    "qwen2vl.rope.dimension_sections (a scalar or an array)") !=
		    NULL,
	    "%s", t.res.diags.n ? t.res.diags.v[0].message : "");
	test_lint_free(&t);
	strbuf_free(&sb);
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

/* No feed_forward_length: llama.cpp's FFN width is 0 (its per-layer
 * widths start as zeros), not the 4 x n_embd the plan assumes, so it
 * refuses the FFN's three tensors of width 99: N003 each, and nothing
 * else of the N family. */
Test(names, absent_ffn_width_is_llamas_zero)
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
	cr_assert_eq(test_count(&t, "N003"), 3, "%s", test_codes(&t));
	cr_assert_eq(count_family(&t, 'N'), 3, "%s", test_codes(&t));
	cr_assert(strstr(test_find(&t, "N003")->message, "[8, 0]") != NULL,
	    "%s", test_find(&t, "N003")->message);
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
