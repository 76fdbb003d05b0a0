/*
 * test_replica.c - the llama.cpp build gguflint replicates is named once,
 * in src/base/replica.h: every other place that names it must agree.
 * build-aux/install-llama's node-llama-cpp version, Makefile.am's
 * llama_release (the oracle's library names), the release line of
 * rules/runtime/llama.cpp.yaml (as written and as compiled in),
 * tools/gen-runtime-versions (which reads the header), the installed
 * libraries themselves when they are there (their VERSION, tag, names,
 * ggml_version() and ggml_commit()), and the JSON plan's "replica".
 */
#include "config.h"

#include <criterion/criterion.h>
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/replica.h"
#include "base/util.h"
#include "data/builtin.h"
#include "facts/llversions.h"
#include "jsontree.h"
#include "target/profile.h"
#include "testutil.h"

/* The text of path below the source tree (asserts that it reads). */
static char *
src_file(const char *rel)
{
	char *path = xasprintf("%s/%s", test_srcdir(), rel);
	struct gl_error err;
	char *text;
	size_t len;

	cr_assert(read_whole_file(path, 16u << 20, &text, &len, &err) == 0,
	    "%s: %s", path, err.msg);
	free(path);
	return text;
}

/* The rest of the first line of text that starts with prefix, as a new
 * string, or NULL when no line does. */
static char *
line_after(const char *text, const char *prefix)
{
	size_t n = strlen(prefix);
	const char *p = text, *end;

	while (p != NULL && *p != '\0') {
		end = strchr(p, '\n');
		if (strncmp(p, prefix, n) == 0)
			return xasprintf("%.*s",
			    (int)((end ? end : p + strlen(p)) - p - n), p + n);
		p = end ? end + 1 : NULL;
	}
	return NULL;
}

Test(replica, header_is_consistent)
{
	const char *c = REPLICA_COMMIT;
	uint32_t build = 0;
	size_t i;

	cr_assert_eq(strlen(c), 40, "REPLICA_COMMIT is not a full hash: %s", c);
	for (i = 0; i < 40; i++)
		cr_assert(strchr("0123456789abcdef", c[i]) != NULL,
		    "REPLICA_COMMIT: %s", c);
	cr_assert(strncmp(c, REPLICA_COMMIT_SHORT, 7) == 0 &&
		strlen(REPLICA_COMMIT_SHORT) == 7,
	    "REPLICA_COMMIT_SHORT %s is not %.7s", REPLICA_COMMIT_SHORT, c);
	cr_assert(REPLICA_LLAMA_CPP[0] == 'v', "%s", REPLICA_LLAMA_CPP);
	cr_assert_eq(runtime_version_parse(REPLICA_LLAMA_CPP, &build), 0);
	cr_assert_eq(build, RUNTIME_BUILD_REPLICA);
	build = 0;
	cr_assert_eq(runtime_version_parse(REPLICA_LLAMA_CPP + 1, &build), 0);
	cr_assert_eq(build, RUNTIME_BUILD_REPLICA);
	cr_assert(strstr(runtime_version_expect(), REPLICA_LLAMA_CPP) != NULL,
	    "%s", runtime_version_expect());
}

/* build-aux/install-llama installs the package the header names. */
Test(replica, install_llama_version)
{
	char *text = src_file("build-aux/install-llama");
	char *v = line_after(text, "version=");

	cr_assert(v != NULL, "build-aux/install-llama sets no version=");
	cr_expect_str_eq(v, REPLICA_NODE_LLAMA_CPP,
	    "build-aux/install-llama installs node-llama-cpp %s, "
	    "src/base/replica.h names %s",
	    v, REPLICA_NODE_LLAMA_CPP);
	free(v);
	free(text);
}

/* Makefile.am's llama_release is the release, and the library names are
 * made of it, never written out. */
Test(replica, makefile_release)
{
	char *text = src_file("Makefile.am");
	char *v = line_after(text, "llama_release = ");
	const char *p;
	size_t uses = 0;

	cr_assert(v != NULL, "Makefile.am sets no llama_release");
	cr_expect_str_eq(v, REPLICA_LLAMA_CPP,
	    "Makefile.am's llama_release is %s, src/base/replica.h's "
	    "release %s",
	    v, REPLICA_LLAMA_CPP);
	for (p = text; (p = strstr(p, ".$(llama_release).so")) != NULL; p++)
		uses++;
	cr_expect_geq(uses, 4,
	    "the oracle's four libraries are named by "
	    "$(llama_release)");
	cr_expect(strstr(text, "." REPLICA_LLAMA_CPP ".so") == NULL,
	    "Makefile.am writes a library name out: use $(llama_release)");
	free(v);
	free(text);
}

/* rules/runtime/llama.cpp.yaml's release line, as written and as the
 * compiled-in data has it. */
Test(replica, versions_data_release)
{
	char *text = src_file("rules/runtime/llama.cpp.yaml");
	const char *rel = strstr(text, "\nreleases:\n");
	char *want = xasprintf("{name: %s, commit: %s, date: %s, knows: all}",
	    REPLICA_LLAMA_CPP, REPLICA_COMMIT_SHORT, REPLICA_DATE);
	char *line = rel ? line_after(rel + 11, "  - ") : NULL;
	const struct llv_db *db;
	struct gl_error err;

	cr_assert(line != NULL, "rules/runtime/llama.cpp.yaml: no releases");
	cr_expect_str_eq(line, want,
	    "rules/runtime/llama.cpp.yaml's release is '%s', "
	    "src/base/replica.h's '%s'",
	    line, want);
	setenv("GGUFLINT_DATADIR", "/nonexistent/gguflint-test", 1);
	cr_assert(llv_db_get(&db, &err) == 0, "%s", err.msg);
	cr_expect_str_eq(db->release, REPLICA_LLAMA_CPP);
	cr_expect_str_eq(db->release_date, REPLICA_DATE);
	free(want);
	free(line);
	free(text);
}

/* tools/gen-runtime-versions writes the release line from the header, so
 * that it names no release of its own. */
Test(replica, gen_runtime_versions_reads_header)
{
	char *text = src_file("tools/gen-runtime-versions");

	cr_expect(strstr(text, "src\", \"base\",") != NULL &&
		strstr(text, "\"replica.h\"") != NULL,
	    "tools/gen-runtime-versions does not read src/base/replica.h");
	cr_expect(strstr(text, REPLICA_LLAMA_CPP) == NULL &&
		strstr(text, REPLICA_COMMIT_SHORT) == NULL &&
		strstr(text, REPLICA_DATE) == NULL,
	    "tools/gen-runtime-versions names the release itself");
	free(text);
}

/* The text of $GGUFLINT_LLAMA/rel, or NULL (then skip). */
static char *
installed(const char *rel)
{
	const char *dir = getenv("GGUFLINT_LLAMA");
	char *path = xasprintf("%s/%s", dir ? dir : "", rel);
	struct gl_error err;
	char *text = NULL;
	size_t len;

	if (read_whole_file(path, 1u << 20, &text, &len, &err) < 0)
		text = NULL;
	free(path);
	return text;
}

/* Whether $GGUFLINT_LLAMA/folder/lib exists. */
static bool
installed_lib(const char *folder, const char *lib)
{
	char *path = xasprintf("%s/%s/%s", getenv("GGUFLINT_LLAMA"), folder,
	    lib);
	bool ok = access(path, F_OK) == 0;

	free(path);
	return ok;
}

/* The installed build (build-aux/install-llama's) is the header's. */
Test(replica, installed_build)
{
	char *version = installed("VERSION"), *info, *tag;

	if (version == NULL)
		cr_skip_test("$GGUFLINT_LLAMA/VERSION is absent: run "
			     "build-aux/install-llama");
	version[strcspn(version, "\n")] = '\0';
	cr_expect_str_eq(version, REPLICA_NODE_LLAMA_CPP,
	    "the installed node-llama-cpp is %s", version);
	info = installed("llama.cpp.info.json");
	cr_assert(info != NULL, "no llama.cpp.info.json beside VERSION");
	tag = xasprintf("\"tag\": \"%s\"", REPLICA_LLAMA_CPP);
	cr_expect(strstr(info, tag) != NULL,
	    "llama.cpp.info.json has no %s: %s", tag, info);
	cr_expect(installed_lib("cpu", "libllama." REPLICA_LLAMA_CPP ".so"));
	cr_expect(installed_lib("cpu", "libggml." REPLICA_LLAMA_CPP ".so"));
	cr_expect(installed_lib("vulkan",
	    "libllama.vulkan." REPLICA_LLAMA_CPP ".so"));
	cr_expect(
	    installed_lib("vulkan", "libggml.vulkan." REPLICA_LLAMA_CPP ".so"));
	free(tag);
	free(info);
	free(version);
}

/* ggml says its own version and commit (its libggml-base.so, opened in
 * this test's own process: Criterion runs each test in a child). */
Test(replica, installed_ggml)
{
	const char *dir = getenv("GGUFLINT_LLAMA");
	char *lib = xasprintf("%s/cpu/libggml-base.so", dir ? dir : "");
	const char *(*version)(void), *(*commit)(void);
	void *h;

	TEST_SKIP_UNDER_VALGRIND();
	if (access(lib, F_OK) != 0)
		cr_skip_test("%s is absent: run build-aux/install-llama", lib);
	h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
	cr_assert(h != NULL, "%s", dlerror());
	*(void **)&version = dlsym(h, "ggml_version");
	*(void **)&commit = dlsym(h, "ggml_commit");
	cr_assert(version != NULL && commit != NULL, "%s", lib);
	cr_expect_str_eq(version(), REPLICA_GGML, "ggml_version() is %s",
	    version());
	cr_expect_str_eq(commit(), REPLICA_COMMIT_SHORT, "ggml_commit() is %s",
	    commit());
	dlclose(h);
	free(lib);
}

/* The plan of a tiny model under profile, as JSON (the caller frees). */
static struct jsonnode *
plan_json(const char *profile)
{
	char *model = xasprintf("%s/tests/cases/M002-ok.gguf", test_srcdir());
	const char *argv[] = { "--no-config", "-p", profile, "--format", "json",
		model, NULL };
	struct jsonnode *root;
	struct test_run r;
	char *err = NULL;

	test_run_bin(&r, argv, NULL, 0);
	cr_assert_eq(r.status, 0, "stdout: %s stderr: %s", r.out, r.err);
	root = jsontree_parse(r.out, r.out_len, &err);
	cr_assert(root != NULL, "%s: %s", err, r.out);
	cr_assert(jsontree_pointer(root, "/files/0/plan/runtime") != NULL,
	    "no plan: %s", r.out);
	test_run_free(&r);
	free(model);
	return root;
}

/* Member key of rep is want. */
static void
expect_member(const struct jsonnode *rep, const char *key, const char *want)
{
	const char *v = jsontree_str(jsontree_get(rep, key));

	cr_expect(v != NULL && strcmp(v, want) == 0, "replica.%s is %s, not %s",
	    key, v ? v : "absent", want);
}

/* A llama.cpp plan names the build it replicates, and nothing else there. */
Test(replica, json_plan_names_it)
{
	struct jsonnode *root = plan_json("gpu_8gb");
	const struct jsonnode *rep = jsontree_pointer(root,
	    "/files/0/plan/replica");

	cr_assert(rep != NULL && rep->type == JSONTREE_OBJECT,
	    "a llama.cpp plan without \"replica\"");
	cr_expect_eq(rep->n, 6, "replica has %zu members", rep->n);
	expect_member(rep, "llama_cpp", REPLICA_LLAMA_CPP);
	expect_member(rep, "commit", REPLICA_COMMIT);
	expect_member(rep, "ggml", REPLICA_GGML);
	expect_member(rep, "node_llama_cpp", REPLICA_NODE_LLAMA_CPP);
	expect_member(rep, "vulkan_device", REPLICA_VULKAN_DEVICE);
	expect_member(rep, "vulkan_driver", REPLICA_VULKAN_DRIVER);
	jsontree_free(root);
}

/* A SKaiNET plan follows no llama.cpp: no "replica". */
Test(replica, json_skainet_plan_has_none)
{
	struct jsonnode *root = plan_json("desktop");

	cr_expect_str_eq(jsontree_str(
			     jsontree_pointer(root, "/files/0/plan/runtime")),
	    "skainet");
	cr_expect(jsontree_pointer(root, "/files/0/plan/replica") == NULL,
	    "a SKaiNET plan with \"replica\"");
	jsontree_free(root);
}
