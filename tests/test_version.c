/*
 * test_version.c - the llama.cpp version data (rules/runtime/llama.cpp.yaml,
 * facts/llversions.h) against llama.cpp v0.5.0 itself: its names are
 * v0.5.0's (the source of that build, its installed ggml.h), and v0.5.0's
 * real loader (tests/llama-load) accepts every architecture and
 * pre-tokenizer the data says it knows, and refuses the planted unknown
 * ones, which gguflint reports (M019). Then runtime_version: the profile
 * key and --runtime-version, and M018-M020 (the golden cases are in
 * test_meta.c).
 */
#include "config.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/replica.h"
#include "base/util.h"
#include "data/builtin.h"
#include "facts/llversions.h"
#include "golden.h"
#include "ggufw.h"
#include "target/profile.h"
#include "testutil.h"

/* Names no llama.cpp knows: planted to show the tests can fail. */
/* gptj: v0.5.0 names it but builds no model of it ("unsupported model
 * architecture") */
static const char *const bad_arch[] = { "llama\xe2\x80\x8b", "qwen9next",
	"Llama", "gptj" };
static const char *const bad_pre[] = { "qwen9", "llama3\xe2\x80\x8b" };

static const struct llv_db *
db(void)
{
	const struct llv_db *d;
	struct gl_error err;

	cr_assert(llv_db_get(&d, &err) == 0, "%s", err.msg);
	return d;
}

/* The text of path, or NULL when it cannot be read. */
static char *
slurp(const char *path)
{
	struct gl_error err;
	char *text;
	size_t len;

	if (read_whole_file(path, 64u << 20, &text, &len, &err) < 0)
		return NULL;
	return text;
}

/* The source of the bundled llama.cpp build, or NULL (then skip). */
static char *
llama_src(const char *rel)
{
	const char *dir = getenv("GGUFLINT_LLAMA_SRC");
	char *path, *text;

	path = xasprintf("%s/%s", dir != NULL && *dir ? dir : "/opt/llama/src",
	    rel);
	text = slurp(path);
	free(path);
	return text;
}

/* Each quoted name after a marker ("LLM_ARCH_", "tokenizer_pre == ")
 * between from and to, into names (up to max); the count. */
static size_t
quoted_after(const char *from, const char *to, const char *marker,
    bool next_quote, char **names, size_t max)
{
	const char *p = from, *q, *e;
	size_t n = 0;

	while ((p = strstr(p, marker)) != NULL && p < to && n < max) {
		q = strchr(p, '"');
		if (q == NULL || (!next_quote && q != p + strlen(marker)))
			break;
		if (next_quote && memchr(p, '\n', (size_t)(q - p)) != NULL) {
			p += strlen(marker);
			continue;
		}
		e = strchr(q + 1, '"');
		cr_assert(e != NULL);
		names[n++] = xasprintf("%.*s", (int)(e - q - 1), q + 1);
		p = e;
	}
	return n;
}

/* Whether the set of names equals the data's rows of kind k. */
static void
assert_same_set(enum llv_kind k, char **names, size_t n)
{
	const struct llv_db *d = db();
	size_t i, uniq = 0;

	for (i = 0; i < n; i++) {
		cr_expect(llv_find(d, k, names[i], strlen(names[i])) != NULL,
		    "v0.5.0's %s '%s' is not in the data", llv_kind_name(k),
		    names[i]);
		if (llv_find(d, k, names[i], strlen(names[i])) != NULL)
			uniq++;
	}
	for (i = 0; i < d->n[k]; i++) {
		size_t j;

		for (j = 0; j < n && strcmp(names[j], d->rows[k][i].name); j++)
			;
		cr_expect(j < n, "the data's %s '%s' is not v0.5.0's",
		    llv_kind_name(k), d->rows[k][i].name);
	}
	cr_expect(d->n[k] > 0);
}

/* A list of names in llama.cpp v0.5.0's source: in file, between the
 * text from and the text to, each quoted after marker (a prefix when
 * prefix); more than min of them, what they are for the failure message;
 * tail, when not NULL, the last entry's name, which is not a name. */
struct src_list {
	enum llv_kind kind;
	const char *file, *from, *to, *marker;
	bool prefix;
	size_t min;
	const char *what, *tail;
};

static const struct src_list src_lists[] = {
	/* LLM_ARCH_UNKNOWN's name is what llama.cpp says of a name it does
	 * not know */
	{ LLV_ARCH, "src/llama-arch.cpp", "LLM_ARCH_NAMES", "};", "LLM_ARCH_",
	    true, 100, "architectures", "(unknown)" },
	{ LLV_PRE, "src/llama-vocab.cpp", "missing pre-tokenizer type",
	    "unknown pre-tokenizer type", "tokenizer_pre == ", false, 50,
	    "pre-tokenizers", NULL },
	{ LLV_PROJ, "tools/mtmd/clip-impl.h", "PROJECTOR_TYPE_NAMES = {", "};",
	    "PROJECTOR_TYPE_", true, 30, "projector types", NULL },
};

/* The data's names of l's kind are the list's in the source. */
static void
data_names_are_v050s(const struct src_list *l)
{
	char *src = llama_src(l->file), *names[512];
	const char *start, *end;
	size_t n, i;

	if (src == NULL)
		cr_skip_test("llama.cpp v0.5.0's source is not at "
			     "$GGUFLINT_LLAMA_SRC or /opt/llama/src");
	start = strstr(src, l->from);
	end = start != NULL ? strstr(start, l->to) : NULL;
	cr_assert(end != NULL, "%s: no %s", l->file, l->what);
	n = quoted_after(start, end, l->marker, l->prefix, names, 512);
	cr_assert(n > l->min, "only %zu %s in %s", n, l->what, l->file);
	if (l->tail != NULL) {
		cr_assert_str_eq(names[n - 1], l->tail);
		free(names[--n]);
	}
	assert_same_set(l->kind, names, n);
	for (i = 0; i < n; i++)
		free(names[i]);
	free(src);
}

Test(version, data_architectures_are_v050s)
{
	data_names_are_v050s(&src_lists[0]);
}

Test(version, data_pre_tokenizers_are_v050s)
{
	data_names_are_v050s(&src_lists[1]);
}

Test(version, data_projectors_are_v050s)
{
	data_names_are_v050s(&src_lists[2]);
}

/* The ggml types: the installed ggml.h of the build (its enum ggml_type). */
Test(version, data_types_are_v050s)
{
	const char *dir = getenv("GGUFLINT_LLAMA");
	char *path = xasprintf("%s/include/ggml.h", dir ? dir : "");
	char *h = slurp(path), *line, *save = NULL;
	const struct llv_db *d = db();
	size_t seen = 0;

	if (h == NULL)
		cr_skip_test("%s is absent: run build-aux/install-llama", path);
	for (line = strtok_r(h, "\n", &save); line != NULL;
	     line = strtok_r(NULL, "\n", &save)) {
		char name[32];
		unsigned id;
		const struct llv_row *r;

		if (sscanf(line, " GGML_TYPE_%31[A-Z0-9_] = %u", name, &id) !=
			2 ||
		    strcmp(name, "COUNT") == 0)
			continue;
		r = llv_find_type(d, id);
		cr_expect(r != NULL && strcmp(r->name, name) == 0,
		    "ggml.h's GGML_TYPE_%s = %u: the data has %s", name, id,
		    r ? r->name : "nothing");
		seen++;
	}
	cr_expect_eq(seen, d->n[LLV_TYPE],
	    "ggml.h has %zu types, the data "
	    "%zu",
	    seen, d->n[LLV_TYPE]);
	free(h);
	free(path);
}

/* ---- v0.5.0's loader --------------------------------------------------- */

/* tests/llama-load beside the program under test, or NULL. */
static char *
llama_load_bin(void)
{
	const char *bin = getenv("GGUFLINT_BIN");
	const char *slash = bin != NULL ? strrchr(bin, '/') : NULL;
	const char *dir = getenv("GGUFLINT_LLAMA");
	char *path, *lib;
	struct stat st;

	if (slash == NULL || dir == NULL || *dir == '\0')
		return NULL;
	lib = xasprintf("%s/cpu/libggml-base.so", dir);
	path = xasprintf("%.*s/tests/llama-load", (int)(slash - bin), bin);
	if (stat(lib, &st) != 0 || access(path, X_OK) != 0) {
		free(path);
		path = NULL;
	}
	free(lib);
	return path;
}

/* Run llama-load (prog) on paths[0 .. n); its stdout. */
static char *
verdicts(const char *prog, char **paths, size_t n)
{
	struct strbuf sb = STRBUF_INIT;
	char *cmd, buf[4096];
	size_t i, got;
	FILE *fp;

	strbuf_addf(&sb, "'%s' '%s/cpu'", prog, getenv("GGUFLINT_LLAMA"));
	for (i = 0; i < n; i++)
		strbuf_addf(&sb, " '%s'", paths[i]);
	strbuf_adds(&sb, " 2>/dev/null");
	cmd = strbuf_detach(&sb);
	fflush(NULL);
	fp = popen(cmd, "r");
	cr_assert(fp != NULL);
	while ((got = fread(buf, 1, sizeof buf, fp)) > 0)
		strbuf_add(&sb, buf, got);
	cr_assert(pclose(fp) == 0, "%s failed", prog);
	free(cmd);
	return strbuf_detach(&sb);
}

/* The verdict line of path in out ("R path\treason"), or NULL. */
static const char *
verdict_of(const char *out, const char *path)
{
	const char *p = out;
	size_t n = strlen(path);

	for (; (p = strstr(p, path)) != NULL; p += n)
		if (p >= out + 2 && p[-1] == ' ' &&
		    (p == out + 2 || p[-3] == '\n') &&
		    (p[n] == '\t' || p[n] == '\n'))
			return p - 2;
	return NULL;
}

/* Whether the verdict line v holds text before its end. */
static bool
line_has(const char *v, const char *text)
{
	const char *nl = strchr(v, '\n'), *hit = strstr(v, text);

	return hit != NULL && (nl == NULL || hit < nl);
}

/* A vocabulary-only file naming architecture arch (and nothing else). */
static char *
arch_file(const char *arch)
{
	struct ggufw_model m;
	struct strbuf sb = STRBUF_INIT;
	char *path;

	ggufw_model_init(&m, false, 32);
	ggufw_model_kv_str(&m, "general.architecture", arch);
	ggufw_model_finish(&m, &sb, GGUFW_DATA_NONE);
	ggufw_model_free(&m);
	path = test_tmpfile(sb.buf, sb.len);
	strbuf_free(&sb);
	return path;
}

/* The tiny llama, vocabulary only, with a BPE vocabulary whose
 * pre-tokenizer is pre. */
static char *
pre_file(const char *pre)
{
	static const char *const merges[] = { "t 1" };
	struct ggufw_model m;
	struct strbuf sb = STRBUF_INIT;
	struct tiny t;
	char *path;

	tiny_init(&t);
	t.no_tensors = true;
	t.tok_model = "gpt2";
	t.str_key = "tokenizer.ggml.pre";
	t.str_val = pre;
	t.str_len = strlen(pre);
	tiny_model(&t, &m);
	ggufw_model_kv_arr_str(&m, "tokenizer.ggml.merges", merges, 1);
	ggufw_model_finish(&m, &sb, GGUFW_DATA_NONE);
	ggufw_model_free(&m);
	path = test_tmpfile(sb.buf, sb.len);
	strbuf_free(&sb);
	return path;
}

/* M019's count for the file at path, linted in process. */
static size_t
m019_of(const char *path)
{
	struct gl_error err;
	struct test_lint t;
	char *text;
	size_t len, n;

	cr_assert(read_whole_file(path, 1u << 20, &text, &len, &err) == 0);
	test_lint_bytes(&t, text, len);
	n = test_count(&t, "M019");
	test_lint_free(&t);
	free(text);
	return n;
}

/*
 * names[0 .. n) known (data rows), bad[0 .. nbad) not: each through v0.5.0's
 * loader, which must refuse exactly the bad ones with refusal, and through
 * gguflint, which must report M019 on exactly those.
 */
static void
against_loader(char **names, size_t n, const char *const *bad, size_t nbad,
    char *(*make)(const char *), const char *refusal)
{
	char *prog = llama_load_bin(), **paths, *out;
	size_t i, total = n + nbad;

	if (prog == NULL)
		cr_skip_test(
		    "tests/llama-load or llama.cpp's libraries are "
		    "absent: run build-aux/install-llama, then make check");
	paths = xcalloc(total, sizeof *paths);
	for (i = 0; i < total; i++)
		paths[i] = make(i < n ? names[i] : bad[i - n]);
	out = verdicts(prog, paths, total);
	for (i = 0; i < total; i++) {
		const char *v = verdict_of(out, paths[i]);
		const char *name = i < n ? names[i] : bad[i - n];

		cr_assert(v != NULL, "no verdict for '%s': %s", name, out);
		if (i < n)
			cr_expect(!line_has(v, refusal) && *v != 'C',
			    "v0.5.0 does not know '%s' of the data: %.200s",
			    name, v);
		else
			cr_expect(*v == 'R' && line_has(v, refusal),
			    "v0.5.0 loads planted '%s': %.200s", name, v);
		cr_expect_eq(m019_of(paths[i]), i < n ? 0 : 1, "M019 on '%s'",
		    name);
		unlink(paths[i]);
		free(paths[i]);
	}
	free(paths);
	free(out);
	free(prog);
}

Test(version, v050_loads_every_architecture_of_the_data, .timeout = 300)
{
	const struct llv_db *d = db();
	char **names = xcalloc(d->n[LLV_ARCH], sizeof *names);
	size_t i;

	for (i = 0; i < d->n[LLV_ARCH]; i++)
		names[i] = d->rows[LLV_ARCH][i].name;
	against_loader(names, d->n[LLV_ARCH], bad_arch,
	    sizeof bad_arch / sizeof bad_arch[0], arch_file,
	    "model architecture");
	free(names);
}

Test(version, v050_knows_every_pre_tokenizer_of_the_data, .timeout = 300)
{
	const struct llv_db *d = db();
	char **names = xcalloc(d->n[LLV_PRE], sizeof *names);
	size_t i;

	for (i = 0; i < d->n[LLV_PRE]; i++)
		names[i] = d->rows[LLV_PRE][i].name;
	against_loader(names, d->n[LLV_PRE], bad_pre,
	    sizeof bad_pre / sizeof bad_pre[0], pre_file,
	    "unknown pre-tokenizer type");
	free(names);
}

/* ---- runtime_version --------------------------------------------------- */

#define BASE \
	"name: t\ndescription: a test device\nmemory: 2 GiB\n" \
	"reserve: 700 MiB\nweights: mapped\n"

Test(version, runtime_version_parses)
{
	static const struct {
		const char *s;
		int rc;
		uint32_t build;
	} cases[] = {
		{ "b6500", 0, 6500 },
		{ "b1", 0, 1 },
		{ REPLICA_LLAMA_CPP, 0, RUNTIME_BUILD_REPLICA },
		{ REPLICA_LLAMA_CPP + 1, 0, RUNTIME_BUILD_REPLICA },
		{ "6500", -1, 0 },
		{ "b", -1, 0 },
		{ "b0", -1, 0 },
		{ "b06500", -1, 0 },
		{ "b6500x", -1, 0 },
		{ "v0.4.0", -1, 0 },
		{ "b99999999", -1, 0 },
		{ "", -1, 0 },
	};
	size_t i;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		uint32_t b = 7;

		cr_expect_eq(runtime_version_parse(cases[i].s, &b), cases[i].rc,
		    "'%s'", cases[i].s);
		cr_expect_eq(b, cases[i].rc == 0 ? cases[i].build : 7, "'%s'",
		    cases[i].s);
	}
}

Test(version, profile_runtime_version)
{
	static const char good[] = BASE "runtime_version: b6500\n";
	static const char bad[] = BASE "runtime_version: v0.4\n";
	struct gl_error err;
	struct profile p;

	cr_assert(profile_parse("t.yaml", good, strlen(good), &p, &err) == 0,
	    "%s", err.msg);
	cr_expect_eq(p.runtime_build, 6500);
	cr_expect_str_eq(p.runtime_version, "b6500");
	profile_free(&p);
	cr_assert(profile_parse("t.yaml", bad, strlen(bad), &p, &err) < 0);
	cr_expect(strstr(err.msg,
		      "t.yaml:6:18: expected a llama.cpp build "
		      "such as b6500, or v0.5.0") != NULL,
	    "%s", err.msg);
}

/* A bad version is a usage or configuration error: exit 2, where. */
Test(version, bad_runtime_version_exits_2)
{
	static const char bad[] = BASE "runtime: llama.cpp\n"
				       "runtime_version: b12x\n";
	char *prof = test_tmpfile(bad, strlen(bad));
	char *yaml = xasprintf("%s.yaml", prof);
	const char *argv1[] = { "--runtime-version", "latest", "x.gguf", NULL };
	const char *argv2[] = { "-p", yaml, "x.gguf", NULL };
	struct test_run r;

	cr_assert(rename(prof, yaml) == 0);
	test_run_bin(&r, argv1, NULL, 0);
	cr_expect_eq(r.status, 2);
	cr_expect(strstr(r.err,
		      "--runtime-version: expected a llama.cpp "
		      "build such as b6500, or v0.5.0, not 'latest'") != NULL,
	    "%s", r.err);
	test_run_free(&r);
	test_run_bin(&r, argv2, NULL, 0);
	cr_expect_eq(r.status, 2);
	cr_expect(strstr(r.err, ":7:18: expected a llama.cpp build") != NULL,
	    "%s", r.err);
	test_run_free(&r);
	unlink(yaml);
	free(yaml);
	free(prof);
}

/* The tiny llama under a llama.cpp profile of runtime_version version. */
static void
lint_at(struct test_lint *t, const char *arch, const char *version)
{
	struct strbuf sb = STRBUF_INIT;
	struct gl_error err;
	static struct profile p;
	struct tiny m;

	profile_free(&p);
	cr_assert(profile_load(PROFILE_DEFAULT, &p, &err) == 0, "%s", err.msg);
	if (version != NULL) {
		p.runtime_version = xstrdup(version);
		cr_assert(
		    runtime_version_parse(version, &p.runtime_build) == 0);
	}
	tiny_init(&m);
	m.arch = arch;
	tiny_build(&m, &sb);
	test_lint_bytes_profile(t, sb.buf, sb.len, &p);
	strbuf_free(&sb);
}

/* M018 names the oldest build and what needs it; older builds err, newer
 * ones and v0.5.0 do not; a SKaiNET profile is not judged. */
Test(version, m018_against_the_data)
{
	const struct llv_db *d = db();
	const struct llv_row *r = llv_find(d, LLV_ARCH, "qwen3next", 9);
	char want[128], older[16], newer[16];
	struct test_lint t;

	cr_assert(r != NULL && r->build > 1);
	snprintf(older, sizeof older, "b%u", (unsigned)r->build - 1);
	snprintf(newer, sizeof newer, "b%u", (unsigned)r->build);
	snprintf(want, sizeof want,
	    "architecture 'qwen3next' needs llama.cpp "
	    "b%u or later (%s)",
	    (unsigned)r->build, r->date);
	lint_at(&t, "qwen3next", older);
	cr_expect_eq(test_count(&t, "M018"), 1, "%s", test_codes(&t));
	cr_expect(test_find(&t, "M018") != NULL &&
		strstr(test_find(&t, "M018")->message, want) != NULL,
	    "want '%s'", want);
	test_lint_free(&t);
	lint_at(&t, "qwen3next", newer);
	cr_expect_eq(test_count(&t, "M018"), 0, "%s", test_codes(&t));
	test_lint_free(&t);
	lint_at(&t, "qwen3next", "v0.5.0");
	cr_expect_eq(test_count(&t, "M018") + test_count(&t, "M019"), 0);
	test_lint_free(&t);
	lint_at(&t, "qwen3next", NULL);
	cr_expect_eq(test_count(&t, "M018"), 0);
	test_lint_free(&t);
	/* unknown: M019 (an error) under no version or a covered one,
	 * M020 (a warning) under one newer than the data */
	lint_at(&t, "qwen9next", "b6500");
	cr_expect_eq(test_count(&t, "M019"), 1, "%s", test_codes(&t));
	cr_expect(strstr(test_find(&t, "M019")->message,
		      "the profile's b6500 refuses the file") != NULL &&
		strstr(test_find(&t, "M019")->note,
		    "\"unknown model architecture\"") != NULL,
	    "%s", test_find(&t, "M019")->message);
	cr_expect_eq(test_count(&t, "M018") + test_count(&t, "M020"), 0);
	test_lint_free(&t);
	lint_at(&t, "qwen9next", NULL);
	cr_expect_eq(test_count(&t, "M019"), 1, "%s", test_codes(&t));
	cr_expect_eq(test_errors(&t), 1, "%s", test_codes(&t));
	test_lint_free(&t);
	lint_at(&t, "qwen9next", "b99999");
	cr_expect_eq(test_count(&t, "M020"), 1, "%s", test_codes(&t));
	cr_expect_eq(test_count(&t, "M019"), 0, "%s", test_codes(&t));
	test_lint_free(&t);
}

/* The JSON report's min_runtime: the newest dated name decides. */
Test(version, json_min_runtime)
{
	const struct llv_db *d = db();
	const struct llv_row *r = llv_find(d, LLV_ARCH, "qwen3next", 9);
	struct strbuf sb = STRBUF_INIT;
	const char *argv[] = { "--no-config", "-f", "json", NULL, NULL };
	struct test_run run;
	struct tiny m;
	char *path, want[160];

	cr_assert(r != NULL, "no qwen3next in the data");
	tiny_init(&m);
	m.arch = "qwen3next";
	tiny_build(&m, &sb);
	path = test_tmpfile(sb.buf, sb.len);
	argv[3] = path;
	test_run_bin(&run, argv, NULL, 0);
	snprintf(want, sizeof want,
	    "\"min_runtime\": {\"llama.cpp\": \"b%u\", "
	    "\"date\": \"%s\", \"dated\": true, \"known\": true, \"because\": "
	    "\"architecture 'qwen3next'\"}",
	    (unsigned)r->build, r->date);
	cr_expect(strstr(run.out, want) != NULL, "want %s in %s", want,
	    run.out);
	test_run_free(&run);
	unlink(path);
	free(path);
	strbuf_free(&sb);
}

/* M018 of a pre-tokenizer (a BPE vocabulary's) and of a tensor type. */
Test(version, m018_of_pre_tokenizer_and_type)
{
	const struct llv_db *d = db();
	const struct llv_row *pre = llv_find(d, LLV_PRE, "qwen35", 6);
	const struct llv_row *q8 = llv_find_type(d, 8);
	struct strbuf sb = STRBUF_INIT;
	struct gl_error err;
	struct profile p;
	struct test_lint t;
	struct tiny m;
	char want[128];
	size_t i, hits = 0;

	cr_assert(pre != NULL && q8 != NULL && q8->build < pre->build);
	cr_assert(profile_load(PROFILE_DEFAULT, &p, &err) == 0, "%s", err.msg);
	p.runtime_version = xstrdup("b100");
	p.runtime_build = 100;
	tiny_init(&m);
	m.tok_model = "gpt2";
	m.str_key = "tokenizer.ggml.pre";
	m.str_val = "qwen35";
	m.str_len = 6;
	m.n_embd = 32;
	m.n_ff = 64;
	m.wtype = GGUFW_GGML_Q8_0;
	tiny_build(&m, &sb);
	test_lint_bytes_profile(&t, sb.buf, sb.len, &p);
	/* the architecture, the pre-tokenizer, f32 (b1) is not: q8_0 is */
	for (i = 0; i < t.res.diags.n; i++) {
		const struct diag *dg = &t.res.diags.v[i];

		if (strcmp(dg->rule->code, "M018") != 0)
			continue;
		hits++;
		snprintf(want, sizeof want,
		    "pre-tokenizer 'qwen35' needs "
		    "llama.cpp b%u",
		    (unsigned)pre->build);
		if (strstr(dg->message, "pre-tokenizer") != NULL)
			cr_expect(strstr(dg->message, want) != NULL, "%s",
			    dg->message);
		if (strstr(dg->message, "ggml type") != NULL)
			cr_expect(strstr(dg->message,
				      "ggml type 8 (q8_0) needs") != NULL,
			    "%s", dg->message);
	}
	cr_expect_eq(hits, 3, "%s", test_codes(&t));
	test_lint_free(&t);
	profile_free(&p);
	strbuf_free(&sb);
}
