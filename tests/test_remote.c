/*
 * test_remote.c - remote files (src/source/http.c, url.c): the program
 * linting http:// and hf:// URLs served by the loopback server of
 * httpd.c (127.0.0.1 only, a forked child that stops by itself), which
 * counts the requests and bytes of each lint: a header in a first window
 * and one more range request, the cache revalidated with If-None-Match,
 * redirects (relative, and to another port: the token not sent there;
 * nor to any server but the Hub's),
 * 401/403/404/416, 429 with Retry-After and 500 retried, a server that
 * ignores Range, one that stalls; the URL as the location in every
 * format; a split model by URL, with a query (kept for the other shards)
 * and presigned (each shard's URL given). https:// against the server's
 * TLS (a throwaway CA: --cacert, CURL_CA_BUNDLE, SSL_CERT_FILE; an
 * untrusted certificate; the token over TLS and not after a downgrade; a
 * stalled handshake). No network beyond loopback.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/models.h"
#include "ggufw.h"
#include "golden.h"
#include "httpd.h"
#include "findings/catalog.h"
#include "findings/diag.h"
#include "kernels/ggml-types.h"
#include "reader/gguf.h"
#include "source/url.h"
#include "testutil.h"

/* ---- models ------------------------------------------------------------ */

/* The tiny clean llama, its tokenizer padded with a string array of at
 * least extra bytes (0: none), into out; returns the header's size. */
static uint64_t
tiny_file(size_t extra, struct strbuf *out)
{
	struct ggufw_model m;
	struct tiny t;
	size_t n = extra / 16, i;
	const char **v = xcalloc(n + 1, sizeof *v);
	uint64_t header;

	tiny_init(&t);
	tiny_model(&t, &m);
	for (i = 0; i < n; i++)
		v[i] = xasprintf("padding%08zu", i);
	if (n > 0)
		ggufw_model_kv_arr_str(&m, "test.padding", v, n);
	strbuf_reset(out);
	header = ggufw_model_finish(&m, out, GGUFW_DATA_ZERO);
	for (i = 0; i < n; i++)
		free((char *)v[i]);
	free(v);
	ggufw_model_free(&m);
	return header;
}

/* Under valgrind everything is slower: a smaller 8B-shaped vocabulary,
 * and more time. The 2-3 MB headers stay whole: they must outgrow the
 * first 1 MiB window. */
static size_t
scaled(size_t n)
{
	return getenv("GGUFLINT_VALGRIND") != NULL ? n / 16 : n;
}

static double
slow(double seconds)
{
	return getenv("GGUFLINT_VALGRIND") != NULL ? seconds * 4 : seconds;
}

/*
 * The header of a sparse llama-3 8B (as bench/gen-sparse writes it): a
 * 128256-token vocabulary, ~280000 merges, 32 blocks of Q4_K tensors
 * (about 7 MB); *size is the whole file's (4.9 GB, the data a hole).
 * Under valgrind the vocabulary and merges are a sixteenth.
 */
static uint64_t
sparse_8b(struct strbuf *out, uint64_t *size)
{
	struct ggufw_model m;
	struct ggufw *w;
	int64_t ne[2] = { 4096, 4096 }, kv[2] = { 4096, 1024 },
	    ff[2] = { 4096, 14336 }, fd[2] = { 14336, 4096 };
	size_t vocab = scaled(128256), merges = scaled(280147), i;
	char name[64], a[64];
	unsigned l;
	uint64_t header;

	ggufw_model_init(&m, false, 32);
	ggufw_model_kv_str(&m, "general.architecture", "llama");
	ggufw_model_kv_str(&m, "general.name", "Sparse Llama 8B");
	ggufw_model_kv_u32(&m, "llama.block_count", 32);
	ggufw_model_kv_u32(&m, "llama.context_length", 131072);
	ggufw_model_kv_u32(&m, "llama.embedding_length", 4096);
	ggufw_model_kv_u32(&m, "llama.feed_forward_length", 14336);
	ggufw_model_kv_u32(&m, "llama.attention.head_count", 32);
	ggufw_model_kv_u32(&m, "llama.attention.head_count_kv", 8);
	ggufw_model_kv_str(&m, "tokenizer.ggml.model", "gpt2");
	w = ggufw_model_kv_raw(&m);
	ggufw_kv_arr_begin(w, "tokenizer.ggml.tokens", GGUFW_STRING, vocab);
	for (i = 0; i < vocab; i++) {
		snprintf(a, sizeof a, "tok%05zu", i);
		ggufw_str(w, a);
	}
	w = ggufw_model_kv_raw(&m);
	ggufw_kv_arr_begin(w, "tokenizer.ggml.merges", GGUFW_STRING, merges);
	for (i = 0; i < merges; i++) {
		snprintf(a, sizeof a, "tok%05zu tok%05zu", i % vocab,
		    (i * 7919 + 13) % vocab);
		ggufw_str(w, a);
	}
	ne[1] = (int64_t)vocab;
	ggufw_model_tensor(&m, "token_embd.weight", 2, ne, 14, 256, 210);
	ne[1] = 4096;
	for (l = 0; l < 32; l++) {
#define T(sfx, dims) (snprintf(name, sizeof name, "blk.%u." sfx, l), \
	ggufw_model_tensor(&m, name, 2, dims, 12, 256, 144))
		T("attn_q.weight", ne);
		T("attn_k.weight", kv);
		T("attn_v.weight", kv);
		T("attn_output.weight", ne);
		T("ffn_gate.weight", ff);
		T("ffn_up.weight", ff);
		T("ffn_down.weight", fd);
#undef T
	}
	strbuf_reset(out);
	header = ggufw_model_finish(&m, out, GGUFW_DATA_NONE);
	*size = ggufw_model_file_size(&m);
	ggufw_model_free(&m);
	return header;
}

/* ---- running ----------------------------------------------------------- */

/* The environment of every test: no proxy (loopback only), no token, a
 * cache folder of its own (none cached yet). */
static char cache_home[64];

static void
remote_setup(void)
{
	test_remote_env(cache_home, sizeof cache_home, "remote");
}

static void
remote_teardown(void)
{
	test_remote_env_done(cache_home);
}

/* A gguflint built without libcurl refuses every URL: the suite is off,
 * and remote_off checks the refusal. */
#ifdef HAVE_LIBCURL
#define REMOTE_OFF false
#else
#define REMOTE_OFF true
#endif

TestSuite(remote, .init = remote_setup, .fini = remote_teardown,
    .timeout = 60, .disabled = REMOTE_OFF);

Test(remote_off, url_refused, .disabled = !REMOTE_OFF)
{
	struct test_run r;
	const char *argv[] = { "--no-config", "hf://o/r/m.gguf", NULL };

	test_run_bin(&r, argv, NULL, 0);
	cr_assert(r.status == 2 && strstr(r.err, "built without remote "
	    "reading"), "%d: %s", r.status, r.err);
	test_run_free(&r);
}

/* A server of one file, name, holding out's bytes (of size bytes). */
static void
serve_one(struct httpd *h, const char *name, const struct strbuf *out,
    uint64_t size)
{
	memset(h, 0, sizeof *h);
	h->files[0].name = name;
	h->files[0].data = out->buf;
	h->files[0].len = out->len;
	h->files[0].size = size;
}

static void
start(struct httpd *h)
{
	cr_assert(httpd_start(h) == 0, "cannot start the loopback server");
}

static char *
url(const struct httpd *h, const char *path)
{
	return xasprintf("http://127.0.0.1:%d/%s", h->port, path);
}

/* Run gguflint on arg with the options (NULL-terminated, at most 8). */
static void
run(struct test_run *r, const char *arg, const char *o1, const char *o2,
    const char *o3)
{
	const char *argv[8];
	size_t k = 0;

	argv[k++] = "--no-config";
	if (o1 != NULL)
		argv[k++] = o1;
	if (o2 != NULL)
		argv[k++] = o2;
	if (o3 != NULL)
		argv[k++] = o3;
	argv[k++] = arg;
	argv[k] = NULL;
	test_run_bin(r, argv, NULL, 0);
}

/* The program's stdout with every occurrence of from made to. */
static char *
replaced(const char *s, const char *from, const char *to)
{
	struct strbuf sb = STRBUF_INIT;
	const char *p;
	size_t n = strlen(from);

	while ((p = strstr(s, from)) != NULL) {
		strbuf_add(&sb, s, (size_t)(p - s));
		strbuf_adds(&sb, to);
		s = p + n;
	}
	strbuf_adds(&sb, s);
	return strbuf_detach(&sb);
}

static double
now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* ---- range reads --------------------------------------------------------- */

/* A 3 MB header: the first window, then one request for the rest; the
 * findings those of the same file linted locally, at the URL. */
Test(remote, header_in_two_requests)
{
	struct strbuf out = STRBUF_INIT;
	struct httpd h;
	struct httpd_stats st;
	struct test_run r, l;
	uint64_t header = tiny_file(3u << 20, &out);
	char *u, *path = test_tmpfile(out.buf, out.len), *want;

	serve_one(&h, "m.gguf", &out, out.len);
	start(&h);
	u = url(&h, "m.gguf");
	run(&r, u, "--format", "json", NULL);
	cr_assert(httpd_stop(&h, &st) == 0);
	run(&l, path, "--format", "json", NULL);
	cr_assert(r.status == l.status, "%d %d: %s", r.status, l.status,
	    r.err);
	want = replaced(l.out, path, u);
	cr_assert_str_eq(r.out, want);
	cr_assert(strstr(r.out, "\"path\": \"http://127.0.0.1:") != NULL);
	cr_assert(st.requests == 2 && st.ranges == 2, "%u requests",
	    st.requests);
	cr_assert(st.bytes <= header + (1u << 20), "%llu bytes of a %llu-byte"
	    " header", (unsigned long long)st.bytes,
	    (unsigned long long)header);
	cr_assert(st.bytes >= header);
	free(want);
	test_run_free(&r);
	test_run_free(&l);
	unlink(path);
	free(path);
	free(u);
	strbuf_free(&out);
}

/* A file smaller than the first window: one request. */
Test(remote, small_file_one_request)
{
	struct strbuf out = STRBUF_INIT;
	struct httpd h;
	struct httpd_stats st;
	struct test_run r;
	char *u;

	tiny_file(0, &out);
	serve_one(&h, "m.gguf", &out, out.len);
	start(&h);
	u = url(&h, "m.gguf");
	run(&r, u, NULL, NULL, NULL);
	cr_assert(httpd_stop(&h, &st) == 0);
	cr_assert(r.status == 0, "%d: %s%s", r.status, r.out, r.err);
	cr_assert(st.requests == 1, "%u requests", st.requests);
	cr_assert(st.bytes == out.len);
	test_run_free(&r);
	free(u);
	strbuf_free(&out);
}

/* A small header before 64 MiB of data: the first request takes 1 MiB,
 * and the parsed window keeps the header only (source_fit). */
Test(remote, window_cut_to_a_small_header)
{
	static const int64_t ne[2] = { 4096, 4096 };
	struct ggufw_model m;
	struct httpd h;
	struct httpd_stats st;
	struct gguf_file f;
	struct gl_error err;
	struct catalog cat;
	struct diag_list dl;
	uint64_t header;
	char *u;

	cr_assert(catalog_load_builtin(&cat, &err) == 0, "%s", err.msg);
	diag_list_init(&dl, &cat);
	ggufw_model_init(&m, false, 32);
	ggufw_model_kv_str(&m, "general.architecture", "llama");
	ggufw_model_tensor(&m, "token_embd.weight", 2, ne, GGUFW_GGML_F32, 1,
	    4);
	header = ggufw_model_header_size(&m);
	memset(&h, 0, sizeof h);
	h.files[0].name = "m.gguf";
	h.files[0].size = header + (64u << 20);
	{
		struct strbuf out = STRBUF_INIT;

		ggufw_model_finish(&m, &out, GGUFW_DATA_NONE);
		h.files[0].len = header;	/* zeros after it */
		h.files[0].data = strbuf_detach(&out);
	}
	start(&h);
	u = url(&h, "m.gguf");
	cr_assert(gguf_open_src(&f, u, 0, &(struct source_opts){
	    .no_cache = true }, &err) == 0, "%s", err.msg);
	gguf_parse(&f, &dl);
	cr_assert(httpd_stop(&h, &st) == 0);
	cr_assert(f.header_complete && f.tensors_n == 1);
	cr_expect_eq(f.data_offset, header);
	cr_expect_eq(f.avail, header, "%llu bytes kept of a %llu-byte header",
	    (unsigned long long)f.avail, (unsigned long long)header);
	cr_expect(gguf_str_eq(f.tensors[0].name, "token_embd.weight"));
	cr_expect_eq(st.requests, 1);
	gguf_close(&f);
	diag_list_free(&dl);
	catalog_free(&cat);
	ggufw_model_free(&m);
	free((void *)h.files[0].data);
	free(u);
}

/* The 8B-shaped sparse header (7 MB of a 4.9 GB file): at most two range
 * requests, at most the header and 1 MiB of bytes. */
Test(remote, sparse_8b_counts)
{
	struct strbuf out = STRBUF_INIT;
	struct httpd h;
	struct httpd_stats st;
	struct test_run r;
	uint64_t size, header = sparse_8b(&out, &size);
	char *u;

	serve_one(&h, "llama-8b.gguf", &out, size);
	h.sndbuf = 4096;	/* what it sends, not what it buffers */
	start(&h);
	u = url(&h, "llama-8b.gguf");
	run(&r, u, NULL, NULL, NULL);
	cr_assert(httpd_stop(&h, &st) == 0);
	cr_assert(r.status <= 1, "%d: %s", r.status, r.err);
	cr_assert(strstr(r.out, "could not be read") == NULL, "%s", r.out);
	cr_assert(st.ranges == st.requests && st.requests <= 2,
	    "%u requests", st.requests);
	cr_assert(st.bytes <= header + (1u << 20), "%llu bytes of a %llu-byte"
	    " header", (unsigned long long)st.bytes,
	    (unsigned long long)header);
	test_run_free(&r);
	free(u);
	strbuf_free(&out);
}

/* ---- failures ------------------------------------------------------------ */

/* A server answering every request with status: exit 2, one line naming
 * the URL and the status, and no more requests than tries. */
static void
status_case(int status, const char *want, unsigned max_requests)
{
	struct httpd h;
	struct httpd_stats st;
	struct test_run r;
	char *u, *line;

	memset(&h, 0, sizeof h);
	h.mode = HTTPD_STATUS;
	h.status = status;
	start(&h);
	u = url(&h, "m.gguf");
	run(&r, u, NULL, NULL, NULL);
	cr_assert(httpd_stop(&h, &st) == 0);
	line = xasprintf("gguflint: %s: %s", u, want);
	cr_assert(r.status == 2, "HTTP %d: exit %d", status, r.status);
	cr_assert(strncmp(r.err, line, strlen(line)) == 0, "%s", r.err);
	cr_assert(strstr(r.err + 1, "\ngguflint:") == NULL, "%s", r.err);
	cr_assert(st.requests >= 1 && st.requests <= max_requests,
	    "HTTP %d: %u requests", status, st.requests);
	free(line);
	test_run_free(&r);
	free(u);
}

Test(remote, http_errors)
{
	status_case(401, "HTTP 401 Unauthorized", 1);
	status_case(403, "HTTP 403 Forbidden", 1);
	status_case(404, "HTTP 404 Not Found", 1);
	status_case(416, "HTTP 416 Range Not Satisfiable", 1);
	status_case(503, "HTTP 503 Service Unavailable (3 tries)", 3);
}

/* 429 with Retry-After: 1, then the file: the wait is heeded. */
Test(remote, retry_after_429)
{
	struct strbuf out = STRBUF_INIT;
	struct httpd h;
	struct httpd_stats st;
	struct test_run r;
	double t0;
	char *u;

	tiny_file(0, &out);
	serve_one(&h, "m.gguf", &out, out.len);
	h.fail_first = 1;
	h.status = 429;
	h.retry_after = "1";
	start(&h);
	u = url(&h, "m.gguf");
	t0 = now_s();
	run(&r, u, NULL, NULL, NULL);
	t0 = now_s() - t0;
	cr_assert(httpd_stop(&h, &st) == 0);
	cr_assert(r.status == 0, "%d: %s", r.status, r.err);
	cr_assert(st.requests == 2, "%u requests", st.requests);
	cr_assert(t0 >= 0.95, "retried after %.2f s, not 1 s", t0);
	test_run_free(&r);
	free(u);
	strbuf_free(&out);
}

/* 500, then the file: retried after a short backoff. */
Test(remote, retry_500)
{
	struct strbuf out = STRBUF_INIT;
	struct httpd h;
	struct httpd_stats st;
	struct test_run r;
	char *u;

	tiny_file(2u << 20, &out);
	serve_one(&h, "m.gguf", &out, out.len);
	h.fail_first = 1;
	h.status = 500;
	start(&h);
	u = url(&h, "m.gguf");
	run(&r, u, NULL, NULL, NULL);
	cr_assert(httpd_stop(&h, &st) == 0);
	cr_assert(r.status == 0, "%d: %s", r.status, r.err);
	cr_assert(st.requests == 3, "%u requests", st.requests);
	test_run_free(&r);
	free(u);
	strbuf_free(&out);
}

/* A server that answers a range request with the whole file: cut off
 * after the first window, exit 2. */
Test(remote, range_ignored)
{
	struct strbuf out = STRBUF_INIT;
	struct httpd h;
	struct httpd_stats st;
	struct test_run r;
	char *u;

	tiny_file(0, &out);
	serve_one(&h, "m.gguf", &out, 64ull << 30);	/* 64 GiB */
	h.mode = HTTPD_NO_RANGE;
	h.sndbuf = 65536;
	start(&h);
	u = url(&h, "m.gguf");
	run(&r, u, NULL, NULL, NULL);
	cr_assert(httpd_stop(&h, &st) == 0);
	cr_assert(r.status == 2, "%d: %s", r.status, r.err);
	cr_assert(strstr(r.err, "the server ignores range requests") != NULL,
	    "%s", r.err);
	cr_assert(st.requests == 1, "%u requests", st.requests);
	cr_assert(st.bytes < (16u << 20), "%llu bytes sent",
	    (unsigned long long)st.bytes);
	test_run_free(&r);
	free(u);
	strbuf_free(&out);
}

/* A server that never answers: --timeout 1 ends it. */
Test(remote, stall_timeout)
{
	struct httpd h;
	struct httpd_stats st;
	struct test_run r;
	double t0;
	char *u;

	memset(&h, 0, sizeof h);
	h.mode = HTTPD_STALL;
	start(&h);
	u = url(&h, "m.gguf");
	t0 = now_s();
	run(&r, u, "--timeout", "1", NULL);
	t0 = now_s() - t0;
	cr_assert(httpd_stop(&h, &st) == 0);
	cr_assert(r.status == 2, "%d: %s", r.status, r.err);
	cr_assert(strstr(r.err, "timed out") != NULL, "%s", r.err);
	cr_assert(t0 < slow(5), "the timeout of 1 s took %.1f s", t0);
	test_run_free(&r);
	free(u);
}

/* --deep on a URL: refused before anything is asked. */
Test(remote, deep_refused)
{
	struct httpd h;
	struct httpd_stats st;
	struct test_run r;
	char *u;

	memset(&h, 0, sizeof h);
	start(&h);
	u = url(&h, "m.gguf");
	run(&r, u, "--deep", NULL, NULL);
	cr_assert(httpd_stop(&h, &st) == 0);
	cr_assert(r.status == 2, "%d: %s", r.status, r.err);
	cr_assert(strstr(r.err, "is not read from a remote file") != NULL,
	    "%s", r.err);
	cr_assert(st.requests == 0, "%u requests", st.requests);
	test_run_free(&r);
	free(u);
}

/* ---- the cache --------------------------------------------------------- */

/* A second lint revalidates the cached header: one request, a 304, no
 * body, the same report; --no-cache reads it afresh. */
Test(remote, cache_revalidated)
{
	struct strbuf out = STRBUF_INIT;
	struct httpd h;
	struct httpd_stats st;
	struct test_run r1, r2, r3;
	char *u;

	tiny_file(2u << 20, &out);
	serve_one(&h, "m.gguf", &out, out.len);
	h.etag = "\"v1-abc\"";
	start(&h);
	u = url(&h, "m.gguf");
	run(&r1, u, "--format", "json", NULL);
	cr_assert(httpd_stop(&h, &st) == 0);
	cr_assert(r1.status == 0, "%d: %s", r1.status, r1.err);
	cr_assert(st.requests == 2 && st.inm == 0, "%u", st.requests);
	start(&h);
	run(&r2, u, "--format", "json", NULL);
	cr_assert(httpd_stop(&h, &st) == 0);
	cr_assert(r2.status == 0, "%d: %s", r2.status, r2.err);
	cr_assert(st.requests == 1 && st.inm == 1 && st.not_modified == 1,
	    "%u requests, %u conditional, %u 304", st.requests, st.inm,
	    st.not_modified);
	cr_assert(st.bytes == 0);
	start(&h);
	run(&r3, u, "--format", "json", "--no-cache");
	cr_assert(httpd_stop(&h, &st) == 0);
	cr_assert(st.requests == 2 && st.inm == 0, "%u", st.requests);
	cr_assert_str_eq(r1.out, r2.out);
	cr_assert_str_eq(r1.out, r3.out);
	test_run_free(&r1);
	test_run_free(&r2);
	test_run_free(&r3);
	free(u);
	strbuf_free(&out);
}

/* A changed file (another ETag) is read afresh, not taken from the
 * cache; a weak ETag is not cached at all. */
Test(remote, cache_changed_or_weak)
{
	struct strbuf out = STRBUF_INIT, out2 = STRBUF_INIT;
	struct httpd h;
	struct httpd_stats st;
	struct test_run r;
	char *u;
	int port;

	tiny_file(0, &out);
	tiny_file(4096, &out2);
	serve_one(&h, "m.gguf", &out, out.len);
	h.etag = "\"one\"";
	start(&h);
	u = url(&h, "m.gguf");
	run(&r, u, NULL, NULL, NULL);
	cr_assert(httpd_stop(&h, &st) == 0);
	test_run_free(&r);
	port = h.port;
	serve_one(&h, "m.gguf", &out2, out2.len);
	h.port = port;	/* the same URL */
	h.etag = "\"two\"";
	start(&h);
	run(&r, u, "--dump", "--format", "json");
	cr_assert(httpd_stop(&h, &st) == 0);
	cr_assert(st.inm == 1 && st.not_modified == 0 && st.bytes ==
	    out2.len, "%u %u %llu", st.inm, st.not_modified,
	    (unsigned long long)st.bytes);
	cr_assert(strstr(r.out, "test.padding") != NULL, "%s", r.out);
	test_run_free(&r);
	h.etag = "W/\"weak\"";
	start(&h);
	run(&r, u, NULL, NULL, NULL);
	test_run_free(&r);
	run(&r, u, NULL, NULL, NULL);
	cr_assert(httpd_stop(&h, &st) == 0);
	/* the first asks with the cached "two" (no 304) and drops it: the
	 * second asks unconditionally */
	cr_assert(st.not_modified == 0 && st.requests == 2 && st.inm == 1,
	    "%u %u %u", st.not_modified, st.requests, st.inm);
	test_run_free(&r);
	free(u);
	strbuf_free(&out);
	strbuf_free(&out2);
}

/* A file that changes between the first window and the rest (another
 * ETag): an error, not a header of two files. */
Test(remote, changed_while_read)
{
	struct strbuf out = STRBUF_INIT;
	struct httpd h;
	struct httpd_stats st;
	struct test_run r;
	char *u;

	tiny_file(2u << 20, &out);
	serve_one(&h, "m.gguf", &out, out.len);
	h.etag = "\"one\"";
	h.etag_after = "\"two\"";
	start(&h);
	u = url(&h, "m.gguf");
	run(&r, u, NULL, NULL, NULL);
	cr_assert(httpd_stop(&h, &st) == 0);
	cr_assert(r.status == 2 && strstr(r.err, "the file changed while it "
	    "was read"), "%d: %s", r.status, r.err);
	test_run_free(&r);
	free(u);
	strbuf_free(&out);
}

/* ---- redirects and the token ------------------------------------------- */

/* A redirect to another port (another origin), as the Hub's to its CDN:
 * followed, the token sent to the Hub and never to the second server. */
Test(remote, redirect_drops_token)
{
	struct strbuf out = STRBUF_INIT;
	struct httpd a, b;
	struct httpd_stats sa, sb;
	struct test_run r;
	char *hub;

	tiny_file(2u << 20, &out);
	serve_one(&b, "org/repo/resolve/main/m.gguf", &out, out.len);
	start(&b);
	memset(&a, 0, sizeof a);
	a.mode = HTTPD_REDIRECT;
	snprintf(a.location, sizeof a.location, "http://127.0.0.1:%d",
	    b.port);
	start(&a);
	hub = xasprintf("http://127.0.0.1:%d", a.port);
	setenv("HF_ENDPOINT", hub, 1);
	setenv("HF_TOKEN", "hf_secret", 1);
	run(&r, "hf://org/repo/m.gguf", NULL, NULL, NULL);
	cr_assert(httpd_stop(&a, &sa) == 0 && httpd_stop(&b, &sb) == 0);
	cr_assert(r.status == 0, "%d: %s", r.status, r.err);
	cr_assert(sa.requests == 1 && sa.auth == 1, "%u %u", sa.requests,
	    sa.auth);
	cr_assert_str_eq(sa.auth_value, "Bearer hf_secret");
	/* the rest of the header straight from the second: two requests */
	cr_assert(sb.requests == 2 && sb.auth == 0, "%u requests, %u with "
	    "the token", sb.requests, sb.auth);
	test_run_free(&r);
	free(hub);
	strbuf_free(&out);
}

/* A URL of another server than the Hub's: HF_TOKEN is not sent. */
Test(remote, token_for_the_hub_only)
{
	struct strbuf out = STRBUF_INIT;
	struct httpd h;
	struct httpd_stats st;
	struct test_run r;
	char *u;

	tiny_file(0, &out);
	serve_one(&h, "m.gguf", &out, out.len);
	start(&h);
	setenv("HF_TOKEN", "hf_secret", 1);
	u = url(&h, "m.gguf");
	run(&r, u, NULL, NULL, NULL);
	cr_assert(httpd_stop(&h, &st) == 0);
	cr_assert(r.status == 0, "%d: %s", r.status, r.err);
	cr_assert(st.requests == 1 && st.auth == 0, "%u %u", st.requests,
	    st.auth);
	test_run_free(&r);
	free(u);
	strbuf_free(&out);
}

/* A relative redirect stays on the origin (the Hub's): the token goes
 * along. */
Test(remote, redirect_relative_keeps_token)
{
	struct strbuf out = STRBUF_INIT;
	struct httpd h;
	struct httpd_stats st;
	struct test_run r;
	char *u, *hub;

	tiny_file(2u << 20, &out);
	serve_one(&h, "files/m.gguf", &out, out.len);
	h.mode = HTTPD_REDIRECT;
	snprintf(h.location, sizeof h.location, "/files");
	start(&h);
	hub = xasprintf("http://127.0.0.1:%d/", h.port);
	setenv("HF_ENDPOINT", hub, 1);
	free(hub);
	setenv("HF_TOKEN", "hf_secret", 1);
	u = url(&h, "m.gguf");
	run(&r, u, NULL, NULL, NULL);
	cr_assert(httpd_stop(&h, &st) == 0);
	cr_assert(r.status == 0, "%d: %s", r.status, r.err);
	cr_assert(st.requests == 3 && st.auth == 3, "%u requests, %u with "
	    "the token", st.requests, st.auth);
	test_run_free(&r);
	free(u);
	strbuf_free(&out);
}

/* A redirect loop ends. */
Test(remote, redirect_loop)
{
	struct httpd h;
	struct httpd_stats st;
	struct test_run r;
	char *u;

	memset(&h, 0, sizeof h);
	h.mode = HTTPD_REDIRECT;	/* "" + the path: itself */
	start(&h);
	u = url(&h, "m.gguf");
	run(&r, u, NULL, NULL, NULL);
	cr_assert(httpd_stop(&h, &st) == 0);
	cr_assert(r.status == 2 && strstr(r.err, "more than 10 redirects"),
	    "%d: %s", r.status, r.err);
	cr_assert(st.requests == 11, "%u", st.requests);
	test_run_free(&r);
	free(u);
}

/* ---- what a remote file is --------------------------------------------- */

/* The file at u (served by h, started) linted in format: its output. */
static char *
lint_as(struct httpd *h, const char *name, const char *format, int *status)
{
	struct httpd_stats st;
	struct test_run r;
	char *u, *out;

	start(h);
	u = url(h, name);
	run(&r, u, "--format", format, NULL);
	cr_assert(httpd_stop(h, &st) == 0);
	*status = r.status;
	out = r.out;
	r.out = NULL;
	test_run_free(&r);
	free(u);
	return out;
}

/* Its diagnostics carry the URL: text, JSON, GitLab's code quality,
 * SARIF (artifactLocation). */
Test(remote, url_is_the_location)
{
	struct tiny t;
	struct strbuf out = STRBUF_INIT;
	struct httpd h;
	char *text, *json, *sarif, *gitlab, *u, *want;
	int st;

	tiny_init(&t);
	t.bos = 99999;	/* a finding (M010, an error) */
	tiny_build(&t, &out);
	serve_one(&h, "m.gguf", &out, out.len);
	h.port = 0;
	text = lint_as(&h, "m.gguf", "text", &st);
	u = url(&h, "m.gguf");
	cr_assert(st == 1 && strncmp(text, u, strlen(u)) == 0, "%d: %s", st,
	    text);
	json = lint_as(&h, "m.gguf", "json", &st);
	want = xasprintf("\"path\": \"%s\"", u);
	cr_assert(strstr(json, want) != NULL, "%s", json);
	free(want);
	gitlab = lint_as(&h, "m.gguf", "gitlab", &st);
	want = xasprintf("\"path\": \"%s\"", u);
	cr_assert(strstr(gitlab, want) != NULL, "%s", gitlab);
	free(want);
	free(gitlab);
	sarif = lint_as(&h, "m.gguf", "sarif", &st);
	want = xasprintf("\"artifactLocation\": {\"uri\": \"%s\"", u);
	cr_assert(strstr(sarif, want) != NULL, "%s", sarif);
	free(want);
	free(text);
	free(json);
	free(sarif);
	free(u);
	strbuf_free(&out);
}

/* A Git LFS pointer and an HTML page served in a model's place: the
 * findings they are locally (F004, F001), exit 1; an empty file (416 of
 * "bytes * /0") is F001 too. */
Test(remote, pointer_page_and_empty)
{
	static const char lfs[] = "version https://git-lfs.github.com/spec/v1\n"
	    "oid sha256:4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca2"
	    "4d17e2393\nsize 4920734816\n";
	static const char html[] = "<!doctype html>\n<html><head><title>"
	    "m.gguf</title></head><body>a model page</body></html>\n";
	struct strbuf out = STRBUF_INIT;
	struct httpd h;
	char *o;
	int st;

	strbuf_adds(&out, lfs);
	serve_one(&h, "m.gguf", &out, out.len);
	o = lint_as(&h, "m.gguf", "text", &st);
	cr_assert(st == 1 && strstr(o, "F004") != NULL &&
	    strstr(o, "4920734816-byte") != NULL, "%d: %s", st, o);
	free(o);
	strbuf_reset(&out);
	strbuf_adds(&out, html);
	serve_one(&h, "m.gguf", &out, out.len);
	h.mode = HTTPD_NO_RANGE;	/* a page is served whole */
	o = lint_as(&h, "m.gguf", "text", &st);
	cr_assert(st == 1 && strstr(o, "F001") != NULL, "%d: %s", st, o);
	free(o);
	strbuf_reset(&out);
	serve_one(&h, "m.gguf", &out, 0);
	o = lint_as(&h, "m.gguf", "text", &st);
	cr_assert(st == 1 && strstr(o, "F001") != NULL &&
	    strstr(o, "file is empty") != NULL, "%d: %s", st, o);
	free(o);
	strbuf_free(&out);
}

/* ---- TLS --------------------------------------------------------------- */

/* A throwaway CA (its certificate in the file *ca, in the test's folder)
 * and the server's certificate it signs; the test is skipped when the
 * tests were built without OpenSSL. */
static struct httpd_tls *
tls_or_skip(const char *name, char **ca)
{
	struct httpd_tls *t;

	if (!httpd_tls_available())
		cr_skip_test("built without OpenSSL (libssl-dev): the loopback "
		    "server cannot speak TLS");
	*ca = xasprintf("%s/%s", cache_home, name);
	t = httpd_tls_new(*ca);
	cr_assert(t != NULL, "cannot make the test's certificates");
	return t;
}

static char *
surl(const struct httpd *h, const char *path)
{
	return xasprintf("https://127.0.0.1:%d/%s", h->port, path);
}

/* One https:// lint of h's m.gguf with the configuration file cfg (NULL:
 * none) and the options: its exit status and what the server saw; its
 * stderr in *err (the caller's) when err is not NULL. */
static int
tls_lint_cfg(struct httpd *h, const char *cfg, const char *o1,
    const char *o2, struct httpd_stats *st, char **err)
{
	const char *argv[6] = { "--no-config", NULL, NULL, NULL, NULL, NULL };
	struct test_run r;
	size_t k = 1;
	char *u;
	int status;

	if (cfg != NULL) {
		argv[0] = "--config";
		argv[k++] = cfg;
	}
	if (o1 != NULL)
		argv[k++] = o1;
	if (o2 != NULL)
		argv[k++] = o2;
	start(h);
	argv[k] = u = surl(h, "m.gguf");
	test_run_bin(&r, argv, NULL, 0);
	cr_assert(httpd_stop(h, st) == 0);
	status = r.status;
	if (err != NULL) {
		*err = r.err;
		r.err = NULL;
	}
	test_run_free(&r);
	free(u);
	return status;
}

static int
tls_lint(struct httpd *h, const char *o1, const char *o2,
    struct httpd_stats *st, char **err)
{
	return tls_lint_cfg(h, NULL, o1, o2, st, err);
}

/* An https:// file read with the CA of --cacert, of $CURL_CA_BUNDLE and
 * of $SSL_CERT_FILE, in that order of precedence (each over TLS, the
 * header in two requests). */
Test(remote, tls_trusted_ca)
{
	struct strbuf out = STRBUF_INIT;
	struct httpd h;
	struct httpd_stats st;
	struct httpd_tls *t, *other;
	char *ca, *ca2, *e;

	t = tls_or_skip("ca.pem", &ca);
	other = tls_or_skip("other.pem", &ca2);
	tiny_file(2u << 20, &out);
	serve_one(&h, "m.gguf", &out, out.len);
	h.tls = t;
	cr_assert(tls_lint(&h, "--cacert", ca, &st, &e) == 0, "%s", e);
	cr_assert(st.requests == 2 && st.tls == 2, "%u requests, %u over "
	    "TLS", st.requests, st.tls);
	free(e);
	setenv("CURL_CA_BUNDLE", ca, 1);
	cr_assert(tls_lint(&h, NULL, NULL, &st, &e) == 0, "%s", e);
	cr_assert(st.tls == 2, "%u", st.tls);
	free(e);
	/* --cacert wins over CURL_CA_BUNDLE */
	cr_assert(tls_lint(&h, "--cacert", ca2, &st, &e) == 2);
	cr_assert(strstr(e, "certificate not trusted") && strstr(e,
	    "(with --cacert "), "%s", e);
	free(e);
	/* CURL_CA_BUNDLE wins over SSL_CERT_FILE */
	setenv("CURL_CA_BUNDLE", ca2, 1);
	setenv("SSL_CERT_FILE", ca, 1);
	cr_assert(tls_lint(&h, NULL, NULL, &st, &e) == 2);
	cr_assert(strstr(e, "(with CURL_CA_BUNDLE="), "%s", e);
	free(e);
	unsetenv("CURL_CA_BUNDLE");
	cr_assert(tls_lint(&h, NULL, NULL, &st, &e) == 0, "%s", e);
	cr_assert(st.tls == 2, "%u", st.tls);
	free(e);
	httpd_tls_free(t);
	httpd_tls_free(other);
	free(ca);
	free(ca2);
	strbuf_free(&out);
}

/* cacert: in .gguflint.yaml (relative to its folder): under --cacert,
 * over $CURL_CA_BUNDLE; a file it names that is missing is an error at
 * the key's FILE:LINE:COL when a URL is read, and nothing otherwise. */
Test(remote, tls_cacert_in_the_configuration)
{
	struct strbuf out = STRBUF_INIT;
	struct httpd h;
	struct httpd_stats st;
	struct httpd_tls *t, *other;
	char *ca, *ca2, *e, *cfg = xasprintf("%s/.gguflint.yaml", cache_home);
	char *at = xasprintf("%s:2:9: cacert %s/none.pem", cfg, cache_home);
	const char *local[] = { "--config", cfg, NULL, NULL };
	struct test_run r;
	FILE *fp;

	t = tls_or_skip("ca.pem", &ca);
	other = tls_or_skip("other.pem", &ca2);
	tiny_file(2u << 20, &out);
	serve_one(&h, "m.gguf", &out, out.len);
	h.tls = t;
	cr_assert_not_null(fp = fopen(cfg, "w"));
	fputs("ctx: 512\ncacert: ca.pem\n", fp);
	fclose(fp);
	setenv("CURL_CA_BUNDLE", ca2, 1);
	cr_assert(tls_lint_cfg(&h, cfg, NULL, NULL, &st, &e) == 0, "%s", e);
	cr_assert(st.tls == 2, "%u over TLS", st.tls);
	free(e);
	cr_assert(tls_lint_cfg(&h, cfg, "--cacert", ca2, &st, &e) == 2);
	cr_assert(strstr(e, "(with --cacert ") != NULL, "%s", e);
	free(e);
	unsetenv("CURL_CA_BUNDLE");
	cr_assert_not_null(fp = fopen(cfg, "w"));
	fputs("ctx: 512\ncacert: none.pem\n", fp);
	fclose(fp);
	cr_assert(tls_lint_cfg(&h, cfg, NULL, NULL, &st, &e) == 2);
	cr_assert(strstr(e, at) != NULL && st.connections == 0, "%s", e);
	free(e);
	local[2] = xasprintf("%s/examples/stories260K.gguf", test_srcdir());
	test_run_bin(&r, local, NULL, 0);
	cr_assert_eq(r.status, 0, "a local lint needs no CA file: %s", r.err);
	test_run_free(&r);
	unlink(cfg);
	free((char *)local[2]);
	free(at);
	free(cfg);
	httpd_tls_free(t);
	httpd_tls_free(other);
	free(ca);
	free(ca2);
	strbuf_free(&out);
}

/* A certificate no trusted CA signed: one line naming the host and
 * libcurl's reason, exit 2, no request and no retry; one for another
 * name; a --cacert that cannot be read is refused before any connection,
 * one that holds no certificate when it is used. */
Test(remote, tls_untrusted)
{
	struct strbuf out = STRBUF_INIT;
	struct httpd h;
	struct httpd_stats st;
	struct httpd_tls *t;
	struct test_run r;
	char *ca, *e, *line;
	FILE *fp;

	t = tls_or_skip("ca.pem", &ca);
	tiny_file(0, &out);
	serve_one(&h, "m.gguf", &out, out.len);
	h.tls = t;
	cr_assert(tls_lint(&h, NULL, NULL, &st, &e) == 2);
	line = xasprintf("gguflint: https://127.0.0.1:%d/m.gguf: certificate "
	    "not trusted: 127.0.0.1: ", h.port);
	cr_assert(strncmp(e, line, strlen(line)) == 0 && strstr(e,
	    "(use --cacert FILE)\n") && !strstr(e + 1, "\ngguflint:"), "%s",
	    e);
	cr_assert(st.connections == 1 && st.requests == 0, "%u connections, "
	    "%u requests", st.connections, st.requests);
	free(line);
	free(e);
	/* a trusted certificate of another name (127.0.0.1, not localhost):
	 * the host is the URL's, libcurl's reason says the rest */
	start(&h);
	line = xasprintf("https://localhost:%d/m.gguf", h.port);
	run(&r, line, "--cacert", ca, NULL);
	cr_assert(httpd_stop(&h, &st) == 0);
	cr_assert(r.status == 2 && strstr(r.err, "/m.gguf: certificate not "
	    "trusted: localhost: ") && strstr(r.err, " (with --cacert "),
	    "%d: %s", r.status, r.err);
	cr_assert(st.connections == 1 && st.requests == 0, "%u connections, "
	    "%u requests", st.connections, st.requests);
	test_run_free(&r);
	free(line);
	cr_assert(tls_lint(&h, "--cacert", "/nonexistent/ca.pem", &st,
	    &e) == 2);
	cr_assert(strstr(e, "--cacert /nonexistent/ca.pem: No such file"),
	    "%s", e);
	cr_assert(st.connections == 0, "%u", st.connections);
	free(e);
	/* a file that holds no certificate: libcurl cannot use it */
	fp = fopen(ca, "w");
	cr_assert(fp != NULL);
	fputs("not a certificate\n", fp);
	fclose(fp);
	cr_assert(tls_lint(&h, "--cacert", ca, &st, &e) == 2);
	cr_assert(strstr(e, ": the CA certificates of --cacert (") &&
	    strstr(e, ") cannot be used: "), "%s", e);
	free(e);
	httpd_tls_free(t);
	free(ca);
	strbuf_free(&out);
}

/* hf:// at an https:// HF_ENDPOINT: the token sent over TLS; a redirect
 * to http:// on the same host and port (another origin: a downgrade) is
 * followed without it. */
Test(remote, tls_hub_token_and_downgrade)
{
	struct strbuf out = STRBUF_INIT;
	struct httpd h;
	struct httpd_stats st;
	struct httpd_tls *t;
	struct test_run r;
	char *ca, *ep;

	t = tls_or_skip("ca.pem", &ca);
	tiny_file(0, &out);
	serve_one(&h, "org/repo/resolve/main/m.gguf", &out, out.len);
	h.tls = t;
	start(&h);
	ep = xasprintf("https://127.0.0.1:%d", h.port);
	setenv("HF_ENDPOINT", ep, 1);
	setenv("HF_TOKEN", "hf_secret", 1);
	run(&r, "hf://org/repo/m.gguf", "--cacert", ca, NULL);
	cr_assert(httpd_stop(&h, &st) == 0);
	cr_assert(r.status == 0, "%d: %s", r.status, r.err);
	cr_assert(st.requests == 1 && st.tls == 1 && st.auth == 1, "%u %u "
	    "%u", st.requests, st.tls, st.auth);
	cr_assert_str_eq(st.auth_value, "Bearer hf_secret");
	test_run_free(&r);
	/* the same server: https://.../org/... redirects to http://.../plain */
	h.files[0].name = "plain/org/repo/resolve/main/m.gguf";
	h.mode = HTTPD_REDIRECT;
	snprintf(h.location, sizeof h.location, "http://127.0.0.1:%d/plain",
	    h.port);
	start(&h);
	run(&r, "hf://org/repo/m.gguf", "--cacert", ca, NULL);
	cr_assert(httpd_stop(&h, &st) == 0);
	cr_assert(r.status == 0, "%d: %s", r.status, r.err);
	cr_assert(st.requests == 2 && st.tls == 1, "%u requests, %u over "
	    "TLS", st.requests, st.tls);
	cr_assert(st.auth == 1 && st.plain_auth == 0, "the token went over "
	    "plain HTTP: %u with it, %u plain", st.auth, st.plain_auth);
	test_run_free(&r);
	httpd_tls_free(t);
	free(ep);
	free(ca);
	strbuf_free(&out);
}

/* A server that takes the TLS client's hello and never answers: the
 * handshake is part of connecting, --connect-timeout 1 ends it (not the
 * 120 s of --timeout). No certificate needed. */
Test(remote, tls_handshake_stall)
{
	struct httpd h;
	struct httpd_stats st;
	struct test_run r;
	double t0;
	char *u;

	memset(&h, 0, sizeof h);
	h.mode = HTTPD_STALL_HELLO;
	start(&h);
	u = surl(&h, "m.gguf");
	t0 = now_s();
	run(&r, u, "--connect-timeout", "1", NULL);
	t0 = now_s() - t0;
	cr_assert(httpd_stop(&h, &st) == 0);
	cr_assert(r.status == 2 && strstr(r.err, "timed out"), "%d: %s",
	    r.status, r.err);
	cr_assert(st.connections == 1 && st.requests == 1, "%u connections, "
	    "%u hellos", st.connections, st.requests);
	cr_assert(t0 < slow(5), "--connect-timeout 1 took %.1f s", t0);
	test_run_free(&r);
	free(u);
}

/* ---- a split model ----------------------------------------------------- */

/* Shard k of n of the tiny model (its tensors [k*T/n, (k+1)*T/n), all the
 * metadata in the first), as gguf-split writes it, into out. */
static void
shard(unsigned k, unsigned n, struct strbuf *out)
{
	struct ggufw_model whole, s;
	struct tiny t;
	size_t lo, hi, i;

	tiny_init(&t);
	tiny_model(&t, &whole);
	lo = k * whole.n_tensors / n;
	hi = (k + 1) * whole.n_tensors / n;
	ggufw_model_init(&s, false, whole.alignment);
	if (k == 0) {
		strbuf_add(&s.kv.out, whole.kv.out.buf, whole.kv.out.len);
		s.n_kv = whole.n_kv;
	}
	ggufw_model_kv_u16(&s, "split.no", (uint16_t)k);
	ggufw_model_kv_u16(&s, "split.count", (uint16_t)n);
	ggufw_model_kv_i32(&s, "split.tensors.count",
	    (int32_t)whole.n_tensors);
	for (i = lo; i < hi; i++) {
		const struct ggufw_model_tensor *x = &whole.tensors[i];
		const struct ggml_type_info *ti = ggml_type_get(
		    (uint32_t)x->type);

		cr_assert(ti != NULL);
		ggufw_model_tensor(&s, x->name, x->n_dims, x->ne, x->type,
		    ti->blck, ti->size);
	}
	strbuf_reset(out);
	ggufw_model_finish(&s, out, GGUFW_DATA_ZERO);
	ggufw_model_free(&s);
	ggufw_model_free(&whole);
}

/* The three shards of the tiny model, as a server's files
 * PREFIX-0000K-of-00003.gguf (each only to a URL with query[k] when query
 * is not NULL). */
struct shards {
	char names[3][128];
	struct strbuf out[3];
};

static void
serve_shards(struct httpd *h, struct shards *sh, const char *prefix,
    const char *const *query)
{
	unsigned k;

	memset(h, 0, sizeof *h);
	for (k = 0; k < 3; k++) {
		snprintf(sh->names[k], sizeof sh->names[k],
		    "%s-%05u-of-00003.gguf", prefix, k + 1);
		strbuf_init(&sh->out[k]);
		shard(k, 3, &sh->out[k]);
		h->files[k].name = sh->names[k];
		h->files[k].data = sh->out[k].buf;
		h->files[k].len = sh->out[k].len;
		h->files[k].size = sh->out[k].len;
		h->files[k].query = query != NULL ? query[k] : NULL;
	}
}

static void
shards_free(struct shards *sh)
{
	unsigned k;

	for (k = 0; k < 3; k++)
		strbuf_free(&sh->out[k]);
}

/* The first shard's URL stands for the model: the other shards are read
 * from beside it; one of them absent is F040, named by its URL. */
Test(remote, split_model_by_url)
{
	struct shards sh;
	struct httpd h;
	struct httpd_stats st;
	struct test_run r;
	char *u, *u3;

	serve_shards(&h, &sh, "m", NULL);
	start(&h);
	u = url(&h, sh.names[0]);
	run(&r, u, "--format", "json", NULL);
	cr_assert(httpd_stop(&h, &st) == 0);
	cr_assert(r.status == 0, "%d: %s%s", r.status, r.out, r.err);
	cr_assert(st.requests == 3, "%u requests", st.requests);
	u3 = url(&h, sh.names[2]);
	cr_assert(strstr(r.out, u3) != NULL, "%s", r.out);
	test_run_free(&r);
	h.files[2].name = NULL;	/* the third is gone */
	start(&h);
	run(&r, u, NULL, NULL, NULL);
	cr_assert(httpd_stop(&h, &st) == 0);
	cr_assert(r.status == 1 && strstr(r.out, "F040") != NULL &&
	    strstr(r.out, u3) != NULL && strstr(r.out, "is missing") != NULL,
	    "%d: %s", r.status, r.out);
	test_run_free(&r);
	free(u);
	free(u3);
	shards_free(&sh);
}

/* A shard's URL with a query (?download=true) is a shard's all the same:
 * its name is its path; the other shards' URLs keep the query. So is an
 * hf:// URL's, a later shard's standing for the model too. */
Test(remote, split_url_query)
{
	struct shards sh;
	struct httpd h;
	struct httpd_stats st;
	struct test_run r;
	char *u, *ep;

	serve_shards(&h, &sh, "m", NULL);
	start(&h);
	u = url(&h, "m-00001-of-00003.gguf?download=true");
	run(&r, u, "--format", "json", NULL);
	cr_assert(httpd_stop(&h, &st) == 0);
	cr_assert(r.status == 0, "%d: %s%s", r.status, r.out, r.err);
	cr_assert(st.requests == 3 && st.queries == 3, "%u requests, %u with "
	    "a query", st.requests, st.queries);
	cr_assert_str_eq(st.last_query, "download=true");
	cr_assert(strstr(r.out, "/m-00003-of-00003.gguf?download=true\"")
	    != NULL, "%s", r.out);
	test_run_free(&r);
	free(u);
	shards_free(&sh);
	serve_shards(&h, &sh, "org/repo/resolve/main/m", NULL);
	start(&h);
	ep = xasprintf("http://127.0.0.1:%d", h.port);
	setenv("HF_ENDPOINT", ep, 1);
	run(&r, "hf://org/repo/m-00002-of-00003.gguf?download=true",
	    "--format", "json", NULL);
	cr_assert(httpd_stop(&h, &st) == 0);
	cr_assert(r.status == 0, "%d: %s%s", r.status, r.out, r.err);
	cr_assert(st.requests == 3 && st.queries == 3, "%u requests, %u with "
	    "a query", st.requests, st.queries);
	cr_assert(strstr(r.out, "\"hf://org/repo/m-00001-of-00003.gguf?"
	    "download=true\"") != NULL, "%s", r.out);
	test_run_free(&r);
	free(ep);
	shards_free(&sh);
}

/* Presigned URLs (a signature per file, in the query): a shard's URL
 * made from another's is refused (403), and F040 says to give each
 * shard's URL; given all, in any order, they are one model, each shard
 * read once by its own URL. */
Test(remote, split_presigned)
{
	static const char *const sig[3] = { "X-Sig=a1", "X-Sig=b2",
		"X-Sig=c3" };
	struct shards sh;
	struct httpd h;
	struct httpd_stats st;
	struct test_run r;
	const char *argv[6], *plan;
	char *u[3];
	unsigned k;

	serve_shards(&h, &sh, "m", sig);
	start(&h);
	for (k = 0; k < 3; k++)
		u[k] = xasprintf("http://127.0.0.1:%d/%s?%s", h.port,
		    sh.names[k], sig[k]);
	run(&r, u[0], NULL, NULL, NULL);
	cr_assert(httpd_stop(&h, &st) == 0);
	cr_assert(r.status == 1 && strstr(r.out, "F040") && strstr(r.out,
	    "shard 2 of 3, ") && strstr(r.out, "shard 3 of 3, ") &&
	    strstr(r.out, "HTTP 403 Forbidden") && strstr(r.out, "give each "
	    "shard's URL"), "%d: %s%s", r.status, r.out, r.err);
	cr_assert(st.requests == 3, "%u requests", st.requests);
	test_run_free(&r);
	argv[0] = "--no-config";
	argv[1] = "--format=json";
	argv[2] = u[2];
	argv[3] = u[0];
	argv[4] = u[1];
	argv[5] = NULL;
	start(&h);
	test_run_bin(&r, argv, NULL, 0);
	cr_assert(httpd_stop(&h, &st) == 0);
	/* one model: one plan, at its first shard */
	plan = strstr(r.out, "\"plan\": {");
	cr_assert(r.status == 0 && plan != NULL && strstr(plan + 1,
	    "\"plan\": {") == NULL, "%d: %s%s", r.status, r.out, r.err);
	cr_assert(st.requests == 3, "%u requests", st.requests);
	test_run_free(&r);
	for (k = 0; k < 3; k++)
		free(u[k]);
	shards_free(&sh);
}

/* ---- names ------------------------------------------------------------- */

Test(remote, hf_urls)
{
	struct gl_error e;
	char *u;

	u = url_resolve("hf://org/repo/model-Q4_K_M.gguf", NULL, &e);
	cr_assert_str_eq(u, "https://huggingface.co/org/repo/resolve/main/"
	    "model-Q4_K_M.gguf");
	free(u);
	u = url_resolve("hf://org/repo@v1.0/sub/dir/m.gguf",
	    "http://mirror.example:8080/", &e);
	cr_assert_str_eq(u, "http://mirror.example:8080/org/repo/resolve/"
	    "v1.0/sub/dir/m.gguf");
	free(u);
	u = url_resolve("hf://datasets/org/repo/m.gguf", "", &e);
	cr_assert_str_eq(u, "https://huggingface.co/datasets/org/repo/resolve/"
	    "main/m.gguf");
	free(u);
	u = url_resolve("HTTPS://host/m.gguf", NULL, &e);
	cr_assert_str_eq(u, "HTTPS://host/m.gguf");
	free(u);
	cr_assert_null(url_resolve("hf://org/repo", NULL, &e));
	cr_assert(e.kind == GL_ERR_USAGE && strstr(e.msg, "expected hf://"),
	    "%s", e.msg);
	cr_assert_null(url_resolve("hf://org//m.gguf", NULL, &e));
	cr_assert_null(url_resolve("hf://org/repo@/m.gguf", NULL, &e));
	cr_assert_null(url_resolve("hf://org/repo/dir/", NULL, &e));
	cr_assert_null(url_resolve("https://host/a b.gguf", NULL, &e));
	cr_assert_null(url_resolve("https://host/a\r\nX: y", NULL, &e));
	cr_assert_null(url_resolve("https:///m.gguf", NULL, &e));
	cr_assert_null(url_resolve("hf://o/r/m.gguf", "ftp://x", &e));
	cr_assert(strstr(e.msg, "HF_ENDPOINT") != NULL, "%s", e.msg);
	cr_assert(url_is_remote("hf://o/r/m") && url_is_remote("HTTP://x") &&
	    !url_is_remote("./https://x") && !url_is_remote("file:///x") &&
	    !url_is_remote("https:/x"));
}

/* A URL's shard name is its path's: the query and fragment aside, and
 * kept for the shards not given (the first given's); a local name keeps
 * its '?'. */
Test(remote, shard_url_names)
{
	char *paths[] = { "https://h/d/m-00002-of-00003.gguf?sig=b",
		"https://h/d/m-00001-of-00003.gguf?sig=a",
		"m?-00001-of-00002.gguf",
		"https://h/x.gguf?m-00001-of-00002.gguf",
		"hf://o/r/m-00001-of-00002.gguf#frag" };
	struct model_list ml;

	cr_assert_eq(url_name_len("https://h/a.gguf?x=1#y"), 16);
	cr_assert_eq(url_name_len("hf://o/r/a.gguf#y"), 15);
	cr_assert_eq(url_name_len("a?b.gguf"), 8);
	models_group(paths, 5, &ml);
	cr_assert_eq(ml.n, 4);
	cr_assert(ml.v[0].split && ml.v[0].n == 3 && ml.v[0].given[0] &&
	    ml.v[0].given[1] && !ml.v[0].given[2]);
	cr_expect_str_eq(ml.v[0].path[0], paths[1]);
	cr_expect_str_eq(ml.v[0].path[1], paths[0]);
	cr_expect_str_eq(ml.v[0].path[2],
	    "https://h/d/m-00003-of-00003.gguf?sig=b");
	cr_assert(ml.v[1].split && ml.v[1].n == 2);
	cr_expect_str_eq(ml.v[1].path[1], "m?-00002-of-00002.gguf");
	cr_expect(!ml.v[2].split && ml.v[2].n == 1);
	cr_assert(ml.v[3].split && ml.v[3].n == 2);
	cr_expect_str_eq(ml.v[3].path[1],
	    "hf://o/r/m-00002-of-00002.gguf#frag");
	models_free(&ml);
}

Test(remote, same_origin)
{
	cr_assert(url_same_origin("https://h.co/a", "https://H.CO:443/b?x"));
	cr_assert(url_same_origin("http://u:p@h:80/a", "http://h/b"));
	cr_assert(url_same_origin("http://[::1]:8/a", "http://[::1]:8/b"));
	cr_assert(!url_same_origin("https://h.co/a", "http://h.co/a"));
	cr_assert(!url_same_origin("https://h.co/a", "https://cdn.h.co/a"));
	cr_assert(!url_same_origin("http://h:80/a", "http://h:8080/a"));
	cr_assert(!url_same_origin("https://h.co@evil.example/a",
	    "https://h.co/a"));
	cr_assert(!url_same_origin("https://h.co.evil/a", "https://h.co/a"));
	cr_assert(!url_same_origin("nonsense", "https://h.co/a"));
}

/* hf:// at $HF_ENDPOINT (the loopback server): the Hub's resolve path,
 * the token sent there; the URL as the user wrote it is the location. */
Test(remote, hf_endpoint)
{
	struct strbuf out = STRBUF_INIT;
	struct httpd h;
	struct httpd_stats st;
	struct test_run r;
	char *ep;

	tiny_file(0, &out);
	serve_one(&h, "org/repo/resolve/rev2/m.gguf", &out, out.len);
	start(&h);
	ep = xasprintf("http://127.0.0.1:%d", h.port);
	setenv("HF_ENDPOINT", ep, 1);
	setenv("HF_TOKEN", "hf_x", 1);
	run(&r, "hf://org/repo@rev2/m.gguf", "--format", "json", NULL);
	cr_assert(httpd_stop(&h, &st) == 0);
	cr_assert(r.status == 0, "%d: %s", r.status, r.err);
	cr_assert(st.requests == 1 && st.auth == 1, "%u %u", st.requests,
	    st.auth);
	cr_assert(strstr(r.out, "\"path\": \"hf://org/repo@rev2/m.gguf\""),
	    "%s", r.out);
	test_run_free(&r);
	/* a 404 names the URL it resolved to */
	start(&h);
	run(&r, "hf://org/repo/m.gguf", NULL, NULL, NULL);
	cr_assert(httpd_stop(&h, &st) == 0);
	cr_assert(r.status == 2 && strstr(r.err, "hf://org/repo/m.gguf: "
	    "http://127.0.0.1:") && strstr(r.err, "/org/repo/resolve/main/"
	    "m.gguf: HTTP 404"), "%d: %s", r.status, r.err);
	test_run_free(&r);
	/* the Hub's 401 without a token says to set one */
	unsetenv("HF_TOKEN");
	h.mode = HTTPD_STATUS;
	h.status = 401;
	start(&h);
	run(&r, "hf://org/repo/m.gguf", NULL, NULL, NULL);
	cr_assert(httpd_stop(&h, &st) == 0);
	cr_assert(r.status == 2 && strstr(r.err, "HTTP 401 Unauthorized: it "
	    "needs a token (a gated or private repository: set HF_TOKEN)"),
	    "%d: %s", r.status, r.err);
	test_run_free(&r);
	free(ep);
	strbuf_free(&out);
}

/* A token that would break the request's head is refused; a libcurl that
 * does not load is a clear error. */
Test(remote, bad_token_and_no_libcurl)
{
	struct test_run r;

	setenv("HF_TOKEN", "hf_x\r\nX-Injected: 1", 1);
	setenv("HF_ENDPOINT", "http://127.0.0.1:9", 1);
	run(&r, "hf://o/r/m.gguf", NULL, NULL, NULL);
	cr_assert(r.status == 2 && strstr(r.err, "HF_TOKEN holds a control"),
	    "%d: %s", r.status, r.err);
	test_run_free(&r);
	unsetenv("HF_TOKEN");
	setenv("GGUFLINT_LIBCURL", "/nonexistent/libcurl.so.4", 1);
	run(&r, "http://127.0.0.1:9/m.gguf", NULL, NULL, NULL);
	cr_assert(r.status == 2 && strstr(r.err, "remote reading needs "
	    "libcurl"), "%d: %s", r.status, r.err);
	test_run_free(&r);
	unsetenv("GGUFLINT_LIBCURL");
}

/* The configuration file's timeout applies (--timeout wins over it); a
 * bad one is FILE:LINE:COL, exit 2. */
Test(remote, config_timeout)
{
	struct httpd h;
	struct httpd_stats st;
	struct test_run r;
	const char *argv[4];
	char *cfg = xasprintf("%s/gguflint.yaml", cache_home), *u;
	double t0;
	FILE *fp;

	fp = fopen(cfg, "w");
	cr_assert(fp != NULL);
	fputs("# remote reading\ntimeout: 1\nconnect_timeout: 5\n", fp);
	fclose(fp);
	memset(&h, 0, sizeof h);
	h.mode = HTTPD_STALL;
	start(&h);
	u = url(&h, "m.gguf");
	argv[0] = "--config";
	argv[1] = cfg;
	argv[2] = u;
	argv[3] = NULL;
	t0 = now_s();
	test_run_bin(&r, argv, NULL, 0);
	t0 = now_s() - t0;
	cr_assert(httpd_stop(&h, &st) == 0);
	cr_assert(r.status == 2 && strstr(r.err, "timed out") && t0 < slow(5),
	    "%d after %.1f s: %s", r.status, t0, r.err);
	test_run_free(&r);
	fp = fopen(cfg, "w");
	cr_assert(fp != NULL);
	fputs("timeout: 0\n", fp);
	fclose(fp);
	test_run_bin(&r, argv, NULL, 0);
	cr_assert(r.status == 2 && strstr(r.err, "gguflint.yaml:1:10") &&
	    strstr(r.err, "expected seconds"), "%d: %s", r.status, r.err);
	test_run_free(&r);
	free(u);
	free(cfg);
}
