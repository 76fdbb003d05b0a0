/*
 * test_hub.c - the Hub's repositories (suite hub): hf://ORG/REPO[@REV]
 * read as a repository, and the reader of the tree API's answer, on
 * sound listings and hostile ones (every prefix of a sound one, deep
 * nesting, long strings, bad escapes, paths that climb out).
 */
#include "config.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "source/hub.h"
#include "source/url.h"

Test(hub, repositories_are_told_from_files)
{
	struct url_repo r;

	cr_assert(url_hf_repo("hf://org/repo", &r));
	cr_assert_str_eq(r.kind, "models");
	cr_assert_str_eq(r.org, "org");
	cr_assert_str_eq(r.repo, "repo");
	cr_assert_str_eq(r.rev, "");
	cr_assert(url_hf_repo("hf://org/repo/", &r));
	cr_assert(url_hf_repo("HF://Org/Re.po_1-x@v1.0", &r));
	cr_assert_str_eq(r.repo, "Re.po_1-x");
	cr_assert_str_eq(r.rev, "v1.0");
	cr_assert(url_hf_repo("hf://datasets/org/repo", &r));
	cr_assert_str_eq(r.kind, "datasets");
	cr_assert(!url_hf_repo("hf://org/repo/m.gguf", &r));
	cr_assert(!url_hf_repo("hf://org/repo@v1/m.gguf", &r));
	cr_assert(!url_hf_repo("hf://org", &r));
	cr_assert(!url_hf_repo("hf://org/", &r));
	cr_assert(!url_hf_repo("hf://org/re po", &r));
	cr_assert(!url_hf_repo("hf://org/..", &r));
	cr_assert(!url_hf_repo("hf://org/repo@", &r));
	cr_assert(!url_hf_repo("hf://org/repo?x=1", &r));
	cr_assert(!url_hf_repo("https://huggingface.co/org/repo", &r));
	cr_assert(!url_hf_repo("org/repo", &r));
}

Test(hub, the_tree_url)
{
	struct url_repo r;
	struct gl_error e;
	char *u;

	cr_assert(url_hf_repo("hf://org/repo@v1", &r));
	u = url_hf_tree(&r, "http://127.0.0.1:8/", &e);
	cr_assert_str_eq(u,
	    "http://127.0.0.1:8/api/models/org/repo/tree/v1"
	    "?recursive=true");
	free(u);
	cr_assert(url_hf_repo("hf://spaces/org/repo", &r));
	u = url_hf_tree(&r, NULL, &e);
	cr_assert_str_eq(u,
	    "https://huggingface.co/api/spaces/org/repo/tree/"
	    "main?recursive=true");
	free(u);
	cr_assert_null(url_hf_tree(&r, "ftp://x", &e));
}

/* A listing as the Hub writes it: files, a directory, LFS objects,
 * escapes; its GGUF files in order. */
static const char sound[] =
    "[{\"type\":\"file\",\"oid\":\"abc\",\"size\":1519,"
    "\"path\":\".gitattributes\"},\n"
    " {\"type\":\"directory\",\"oid\":\"d\",\"size\":0,\"path\":\"sub\"},"
    " {\"type\": \"file\", \"size\": 4.5e9, \"lfs\": {\"oid\": \"0f\", "
    "\"size\": -12, \"pointerSize\": 135, \"x\": [true, false, null, "
    "[], {}]}, \"path\": \"sub/M\\u00e9-00001-of-00002.GGUF\"},"
    " {\"path\": \"sub\\/m-00002-of-00002.gguf\", \"type\": \"file\"},"
    " {\"type\": \"file\", \"path\": \"a \\\"q\\\" \\ud83d\\ude00.gguf\"},"
    " {\"type\": \"directory\", \"path\": \"x.gguf\"}]  \n";

Test(hub, a_sound_listing)
{
	struct hub_files fl = { 0 };
	struct gl_error e;

	cr_assert(hub_tree_parse(sound, strlen(sound), &fl, &e) == 0, "%s",
	    e.msg);
	cr_assert_eq(fl.n, 3);
	cr_assert_str_eq(fl.v[0], "sub/M\xc3\xa9-00001-of-00002.GGUF");
	cr_assert_str_eq(fl.v[1], "sub/m-00002-of-00002.gguf");
	cr_assert_str_eq(fl.v[2], "a \"q\" \xf0\x9f\x98\x80.gguf");
	hub_files_free(&fl);
	cr_assert(hub_tree_parse("[]", 2, &fl, &e) == 0 && fl.n == 0);
	cr_assert(hub_tree_parse(" [ ] ", 5, &fl, &e) == 0 && fl.n == 0);
}

/* Every prefix of a sound listing is refused (no crash, no leak), and
 * so is every one-byte change that breaks it, or it is read. */
Test(hub, every_prefix_and_byte_flip)
{
	size_t n = strlen(sound);
	struct hub_files fl = { 0 };
	struct gl_error e;
	char *buf = xmalloc(n + 1);

	for (size_t k = 0; k + 3 < n; k++) {
		cr_assert(hub_tree_parse(sound, k, &fl, &e) < 0,
		    "a prefix of %zu bytes read", k);
		hub_files_free(&fl);
	}
	for (size_t k = 0; k < n; k++) {
		static const char flips[] = "\0\"\\{}[],:u0";

		for (size_t f = 0; f < sizeof flips - 1; f++) {
			memcpy(buf, sound, n);
			buf[k] = flips[f];
			(void)hub_tree_parse(buf, n, &fl, &e);
			for (size_t i = 0; i < fl.n; i++)
				cr_assert(strlen(fl.v[i]) > 5);
			hub_files_free(&fl);
		}
	}
	free(buf);
}

/* What the reader refuses, and says why. */
Test(hub, hostile_listings)
{
	static const struct {
		const char *json, *say;
	} cases[] = {
		{ "{\"error\": \"Repository not found\"}",
		    "an array expected" },
		{ "", "an array expected" },
		{ "[{\"type\":\"file\",\"path\":\"../x.gguf\"}]", "'..'" },
		{ "[{\"type\":\"file\",\"path\":\"/x.gguf\"}]", "'..'" },
		{ "[{\"type\":\"file\",\"path\":\"a//x.gguf\"}]", "'..'" },
		{ "[{\"type\":\"file\",\"path\":\"./x.gguf\"}]", "'..'" },
		{ "[{\"type\":\"file\",\"path\":\"x\\u0000.gguf\"}]",
		    "bad \\u" },
		{ "[{\"type\":\"file\",\"path\":\"x\\ud800.gguf\"}]",
		    "bad \\u" },
		{ "[{\"type\":\"file\",\"path\":\"x\\q.gguf\"}]",
		    "bad escape" },
		{ "[{\"type\":\"file\",\"path\":\"x\n.gguf\"}]", "control" },
		{ "[{\"type\":\"file\",\"path\":7}]", "a string expected" },
		{ "[{\"type\":\"file\" \"path\":\"x.gguf\"}]", "'}' expected" },
		{ "[{}] x", "bytes after" },
		{ "[{},]", "an object expected" },
		{ "[{\"a\": tru}]", "a value expected" },
		{ "[1]", "an object expected" },
	};
	struct hub_files fl = { 0 };
	struct gl_error e;

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		cr_assert(hub_tree_parse(cases[i].json, strlen(cases[i].json),
			      &fl, &e) < 0,
		    "%s: read", cases[i].json);
		cr_assert(strstr(e.msg, cases[i].say) != NULL, "%s: %s",
		    cases[i].json, e.msg);
		hub_files_free(&fl);
	}
}

/* Deep nesting, a long path, a long skipped string, many files. */
Test(hub, hostile_sizes)
{
	struct strbuf sb = STRBUF_INIT;
	struct hub_files fl = { 0 };
	struct gl_error e;

	strbuf_adds(&sb, "[{\"x\": ");
	for (int i = 0; i < 100000; i++)
		strbuf_addc(&sb, '[');
	cr_assert(hub_tree_parse(sb.buf, sb.len, &fl, &e) < 0);
	cr_assert(strstr(e.msg, "nests deeper") != NULL, "%s", e.msg);
	strbuf_reset(&sb);
	strbuf_adds(&sb, "[{\"type\": \"file\", \"path\": \"");
	for (int i = 0; i < 5000; i++)
		strbuf_addc(&sb, 'a');
	strbuf_adds(&sb, ".gguf\"}]");
	cr_assert(hub_tree_parse(sb.buf, sb.len, &fl, &e) < 0);
	cr_assert(strstr(e.msg, "a string of over") != NULL, "%s", e.msg);
	strbuf_reset(&sb);
	strbuf_adds(&sb, "[{\"title\": \"");
	for (int i = 0; i < 100000; i++)
		strbuf_addc(&sb, 'a');
	strbuf_adds(&sb, "\", \"type\": \"file\", \"path\": \"m.gguf\"}]");
	cr_assert(hub_tree_parse(sb.buf, sb.len, &fl, &e) == 0, "%s", e.msg);
	cr_assert_eq(fl.n, 1);
	hub_files_free(&fl);
	strbuf_reset(&sb);
	strbuf_addc(&sb, '[');
	for (int i = 0; i <= HUB_FILES_MAX; i++)
		strbuf_addf(&sb, "%s{\"type\":\"file\",\"path\":\"%d.gguf\"}",
		    i ? "," : "", i);
	strbuf_addc(&sb, ']');
	cr_assert(hub_tree_parse(sb.buf, sb.len, &fl, &e) < 0);
	cr_assert(strstr(e.msg, "GGUF files") != NULL, "%s", e.msg);
	hub_files_free(&fl);
	strbuf_free(&sb);
}
