/*
 * test_scan_remote.c - scans of many remote models (suite scanremote),
 * against the loopback server of httpd.c serving each connection in a
 * thread of its own: --jobs keeps the order of the inputs when they
 * finish out of order; a 429's Retry-After holds every worker; no more
 * than --max-per-host requests are in flight at once; a scan run again
 * fetches nothing it has cached.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/util.h"
#include "ggufw.h"
#include "golden.h"
#include "httpd.h"
#include "jsontree.h"
#include "kernels/ggml-types.h"
#include "testutil.h"

#define N_FILES 12

/* The tiny clean llama into out. */
static void
tiny_file(struct strbuf *out)
{
	struct ggufw_model m;
	struct tiny t;

	tiny_init(&t);
	tiny_model(&t, &m);
	strbuf_reset(out);
	ggufw_model_finish(&m, out, GGUFW_DATA_ZERO);
	ggufw_model_free(&m);
}

/* The environment of every test: loopback only, no token, a cache
 * folder of its own. */
static char cache_home[64];

static void
setup(void)
{
	test_remote_env(cache_home, sizeof cache_home, "scan");
}

static void
teardown(void)
{
	test_remote_env_done(cache_home);
}

#ifdef HAVE_LIBCURL
#define REMOTE_OFF false
#else
#define REMOTE_OFF true
#endif

TestSuite(scanremote, .init = setup, .fini = teardown, .timeout = 90,
    .disabled = REMOTE_OFF);

/* A threaded server of n copies of out, named m00.gguf, m01.gguf, ... */
struct farm {
	struct httpd h;
	char names[N_FILES][16];
	struct strbuf out;
};

static void
farm_init(struct farm *f, size_t n)
{
	memset(f, 0, sizeof *f);
	strbuf_init(&f->out);
	tiny_file(&f->out);
	f->h.threaded = true;
	f->h.max_requests = 256;
	f->h.seconds = 60;
	for (size_t i = 0; i < n; i++) {
		snprintf(f->names[i], sizeof f->names[i], "m%02zu.gguf", i);
		f->h.files[i].name = f->names[i];
		f->h.files[i].data = f->out.buf;
		f->h.files[i].len = f->out.len;
		f->h.files[i].size = f->out.len;
	}
}

/* A --files-from list of the farm's n URLs. */
static char *
farm_list(const struct farm *f, size_t n)
{
	struct strbuf sb = STRBUF_INIT;
	char *path;

	for (size_t i = 0; i < n; i++)
		strbuf_addf(&sb, "http://127.0.0.1:%d/%s\n", f->h.port,
		    f->names[i]);
	path = test_tmpfile(sb.buf, sb.len);
	strbuf_free(&sb);
	return path;
}

static double
now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Run gguflint --format jsonl over the list l with the options a, b, c,
 * d (NULL ends them). */
static void
scan(struct test_run *r, const char *l, const char *a, const char *b,
    const char *c, const char *d)
{
	const char *argv[] = { "--no-config", "--format", "jsonl",
		"--files-from", l, a, b, c, d, NULL };

	test_run_bin(r, argv, NULL, 0);
}

/* The paths of the file lines of out, in order, into p (at most max);
 * the summary line into *sum (to free). Returns the count. */
static size_t
paths(const char *out, char p[][128], size_t max, struct jsonnode **sum)
{
	size_t n = 0;

	*sum = NULL;
	while (*out != '\0') {
		const char *nl = strchr(out, '\n');
		char *err = NULL;
		struct jsonnode *v;
		const char *type;

		cr_assert(nl != NULL);
		v = jsontree_parse(out, (size_t)(nl - out), &err);
		cr_assert(v != NULL, "%s: %.*s", err, (int)(nl - out), out);
		type = jsontree_str(jsontree_get(v, "type"));
		if (strcmp(type, "summary") == 0) {
			*sum = v;
		} else {
			cr_assert(n < max);
			snprintf(p[n++], 128, "%s",
			    jsontree_str(jsontree_get(v, "path")));
			jsontree_free(v);
		}
		out = nl + 1;
	}
	cr_assert(*sum != NULL, "no summary line");
	return n;
}

static int64_t
http_count(const struct jsonnode *sum, const char *key)
{
	char ptr[64];
	int64_t v = -1;

	snprintf(ptr, sizeof ptr, "/http/%s", key);
	cr_assert(jsontree_int64(jsontree_pointer(sum, ptr), &v), "no %s", ptr);
	return v;
}

/* The first models take longest: with --jobs they finish last, and are
 * still reported first, in the order of the list; the report is the one
 * --jobs 1 writes, in a fraction of its time. */
Test(scanremote, jobs_keep_the_order_of_the_inputs)
{
	char p[N_FILES][128], want[128];
	struct farm f;
	struct httpd_stats st;
	struct test_run r, one;
	struct jsonnode *sum;
	double t_jobs, t_one;
	char *l;

	farm_init(&f, 6);
	for (size_t i = 0; i < 6; i++)
		f.h.files[i].delay_ms = (unsigned)(6 - i) * 100;
	cr_assert(httpd_start(&f.h) == 0);
	l = farm_list(&f, 6);
	t_jobs = now_s();
	scan(&r, l, "--jobs", "6", "--no-cache", NULL);
	t_jobs = now_s() - t_jobs;
	t_one = now_s();
	scan(&one, l, "--jobs", "1", "--no-cache", NULL);
	t_one = now_s() - t_one;
	cr_assert(httpd_stop(&f.h, &st) == 0);
	cr_assert(r.status == 0, "%d: %s", r.status, r.err);
	cr_assert_eq(paths(r.out, p, N_FILES, &sum), 6, "%s", r.out);
	for (size_t i = 0; i < 6; i++) {
		snprintf(want, sizeof want, "http://127.0.0.1:%d/%s", f.h.port,
		    f.names[i]);
		cr_assert_str_eq(p[i], want, "line %zu", i + 1);
	}
	cr_assert_eq(http_count(sum, "requests"), 6);
	cr_assert(st.max_open >= 2, "%u at once", st.max_open);
	cr_assert_str_eq(r.out, one.out);
	cr_assert(t_jobs < t_one, "%.2f s with 6 jobs, %.2f s with one", t_jobs,
	    t_one);
	jsontree_free(sum);
	test_run_free(&r);
	test_run_free(&one);
	unlink(l);
	free(l);
	strbuf_free(&f.out);
}

/* A 429 with Retry-After: 2 to the first request: no worker asks the
 * host anything before the two seconds are out; the retry is counted in
 * the summary and said in a note. */
Test(scanremote, a_429_holds_every_worker)
{
	char p[N_FILES][128];
	struct farm f;
	struct httpd_stats st;
	struct test_run r;
	struct jsonnode *sum;
	double t0;
	char *l;

	farm_init(&f, N_FILES);
	f.h.delay_ms = 300;
	f.h.fail_first = 1;
	f.h.status = 429;
	f.h.retry_after = "2";
	cr_assert(httpd_start(&f.h) == 0);
	l = farm_list(&f, N_FILES);
	t0 = now_s();
	scan(&r, l, "--jobs", "4", NULL, NULL);
	t0 = now_s() - t0;
	cr_assert(httpd_stop(&f.h, &st) == 0);
	cr_assert(r.status == 0, "%d: %s", r.status, r.err);
	cr_assert_eq(paths(r.out, p, N_FILES, &sum), N_FILES);
	cr_assert_eq(st.failed, 1);
	cr_assert_eq(st.early, 0, "%u requests within the Retry-After",
	    st.early);
	cr_assert(t0 >= 2.0, "done in %.2f s", t0);
	cr_assert_eq(http_count(sum, "rate_limited"), 1);
	cr_assert_eq(http_count(sum, "retries"), 1);
	cr_assert_eq(http_count(sum, "requests"), N_FILES + 1);
	cr_assert(http_count(sum, "queued") >= 1);
	cr_assert(strstr(r.err, "1 answered 429") != NULL, "%s", r.err);
	jsontree_free(sum);
	test_run_free(&r);
	unlink(l);
	free(l);
	strbuf_free(&f.out);
}

/* --max-per-host 2: eight workers, never more than two requests waiting
 * for their answer at once; without it, more. */
Test(scanremote, max_per_host_is_honoured)
{
	char p[N_FILES][128];
	struct farm f;
	struct httpd_stats st;
	struct test_run r;
	struct jsonnode *sum;
	char *l;

	farm_init(&f, 8);
	f.h.delay_ms = 150;
	cr_assert(httpd_start(&f.h) == 0);
	l = farm_list(&f, 8);
	scan(&r, l, "--jobs", "8", "--max-per-host", "2");
	cr_assert(httpd_stop(&f.h, &st) == 0);
	cr_assert(r.status == 0, "%d: %s", r.status, r.err);
	cr_assert_eq(paths(r.out, p, N_FILES, &sum), 8);
	cr_assert(st.max_busy >= 1 && st.max_busy <= 2, "%u at once",
	    st.max_busy);
	cr_assert_eq(st.requests, 8);
	cr_assert(http_count(sum, "queued") >= 1);
	jsontree_free(sum);
	test_run_free(&r);
	cr_assert(httpd_start(&f.h) == 0);
	scan(&r, l, "--jobs", "8", "--no-cache", NULL);
	cr_assert(httpd_stop(&f.h, &st) == 0);
	cr_assert(r.status == 0, "%d: %s", r.status, r.err);
	cr_assert(st.max_busy >= 3, "%u at once without --max-per-host",
	    st.max_busy);
	test_run_free(&r);
	unlink(l);
	free(l);
	strbuf_free(&f.out);
}

/* A scan run again asks each model's server whether its cached header
 * is still the file's (If-None-Match), and fetches no byte of it. */
Test(scanremote, a_scan_again_fetches_nothing_cached)
{
	char p[N_FILES][128];
	struct farm f;
	struct httpd_stats st;
	struct test_run r, again;
	struct jsonnode *sum;
	char *l;

	farm_init(&f, 8);
	f.h.etag = "\"v1\"";
	cr_assert(httpd_start(&f.h) == 0);
	l = farm_list(&f, 8);
	scan(&r, l, "--jobs", "4", NULL, NULL);
	cr_assert(httpd_stop(&f.h, &st) == 0);
	cr_assert(r.status == 0, "%d: %s", r.status, r.err);
	cr_assert(st.bytes >= 8 * f.out.len, "%llu bytes",
	    (unsigned long long)st.bytes);
	cr_assert(httpd_start(&f.h) == 0);
	scan(&again, l, "--jobs", "4", NULL, NULL);
	cr_assert(httpd_stop(&f.h, &st) == 0);
	cr_assert(again.status == 0, "%d: %s", again.status, again.err);
	cr_assert_eq(st.requests, 8);
	cr_assert_eq(st.not_modified, 8);
	cr_assert_eq(st.bytes, 0, "%llu bytes fetched again",
	    (unsigned long long)st.bytes);
	cr_assert_str_eq(again.out, r.out);
	cr_assert_eq(paths(again.out, p, N_FILES, &sum), 8);
	jsontree_free(sum);
	test_run_free(&r);
	test_run_free(&again);
	unlink(l);
	free(l);
	strbuf_free(&f.out);
}

/* ---- whole repositories ------------------------------------------------ */

/* Shard k of n of the tiny model, as gguf-split writes it, into out. */
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
	ggufw_model_kv_i32(&s, "split.tensors.count", (int32_t)whole.n_tensors);
	for (i = lo; i < hi; i++) {
		const struct ggufw_model_tensor *x = &whole.tensors[i];
		const struct ggml_type_info *ti = ggml_type_get(
		    (uint32_t)x->type);

		ggufw_model_tensor(&s, x->name, x->n_dims, x->ne, x->type,
		    ti->blck, ti->size);
	}
	strbuf_reset(out);
	ggufw_model_finish(&s, out, GGUFW_DATA_ZERO);
	ggufw_model_free(&s);
	ggufw_model_free(&whole);
}

/* The listing's two pages: a model, a split model's shards in a folder,
 * files that are not GGUF; the first page links to the second. */
static const char page1[] =
    "[{\"type\":\"file\",\"oid\":\"1\",\"size\":1519,"
    "\"path\":\".gitattributes\"},"
    "{\"type\":\"file\",\"size\":10,\"lfs\":{\"oid\":\"ab\",\"size\":10,"
    "\"pointerSize\":130},\"path\":\"sub/m-00002-of-00002.gguf\"},"
    "{\"type\":\"directory\",\"oid\":\"2\",\"size\":0,\"path\":\"sub\"}]";
static const char page2[] =
    "[{\"type\":\"file\",\"size\":10,\"path\":\"README.md\"},"
    "{\"type\":\"file\",\"size\":10,\"path\":\"a.gguf\"},"
    "{\"type\":\"file\",\"size\":10,\"path\":\"sub/m-00001-of-00002.gguf\"}]";

/* The repository org/repo of a Hub at h (h->port set): the listing's
 * pages at the tree API, the files at resolve/main. */
struct hub_farm {
	struct httpd h;
	struct strbuf model, sh[2];
	char link[256];
};

static void
hub_farm_init(struct hub_farm *f)
{
	struct httpd probe;
	struct httpd_stats st;
	const char *tree = "api/models/org/repo/tree/main";

	memset(f, 0, sizeof *f);
	memset(&probe, 0, sizeof probe); /* a port to take again */
	cr_assert(httpd_start(&probe) == 0);
	cr_assert(httpd_stop(&probe, &st) == 0);
	f->h.port = probe.port;
	snprintf(f->link, sizeof f->link,
	    "Link: <http://127.0.0.1:%d/%s"
	    "?recursive=true&cursor=Mg%%3D%%3D>; rel=\"next\"\r\n",
	    probe.port, tree);
	strbuf_init(&f->model);
	tiny_file(&f->model);
	for (unsigned k = 0; k < 2; k++) {
		strbuf_init(&f->sh[k]);
		shard(k, 2, &f->sh[k]);
	}
	f->h.threaded = true;
	f->h.files[0] = (struct httpd_file){ .name = tree,
		.data = page1,
		.len = strlen(page1),
		.size = strlen(page1),
		.query = "recursive=true",
		.headers = f->link };
	f->h.files[1] = (struct httpd_file){ .name = tree,
		.data = page2,
		.len = strlen(page2),
		.size = strlen(page2),
		.query = "recursive=true&cursor=Mg%3D%3D" };
	f->h.files[2] = (struct httpd_file){ .name = "org/repo/resolve/main/"
						     "a.gguf",
		.data = f->model.buf,
		.len = f->model.len,
		.size = f->model.len };
	for (unsigned k = 0; k < 2; k++)
		f->h.files[3 + k] = (struct httpd_file){ .name = k == 0 ?
			    "org/repo/resolve/main/sub/"
			    "m-00001-of-00002.gguf" :
			    "org/repo/resolve/main/"
			    "sub/m-00002-of-00002.gguf",
			.data = f->sh[k].buf,
			.len = f->sh[k].len,
			.size = f->sh[k].len };
}

static void
hub_farm_free(struct hub_farm *f)
{
	strbuf_free(&f->model);
	strbuf_free(&f->sh[0]);
	strbuf_free(&f->sh[1]);
}

/* hf://org/repo: both pages of the listing read, its GGUF files linted
 * in path order, the split model's shards as one model (one request to
 * the host at a time); the token sent with the listing. */
Test(scanremote, a_whole_repository)
{
	char p[N_FILES][128], *hub;
	struct hub_farm f;
	struct httpd_stats st;
	struct test_run r;
	struct jsonnode *sum;

	hub_farm_init(&f);
	cr_assert(httpd_start(&f.h) == 0);
	hub = xasprintf("http://127.0.0.1:%d", f.h.port);
	setenv("HF_ENDPOINT", hub, 1);
	setenv("HF_TOKEN", "hf_secret", 1);
	/* one request at a time: the split model's shards, all opened
	 * before any is parsed, hold none while they wait */
	const char *argv[] = { "--no-config", "--format", "jsonl",
		"--max-per-host", "1", "--timeout", "10", "hf://org/repo",
		NULL };
	test_run_bin(&r, argv, NULL, 0);
	cr_assert(httpd_stop(&f.h, &st) == 0);
	cr_assert(r.status == 0, "%d: %s%s", r.status, r.out, r.err);
	cr_assert_eq(paths(r.out, p, N_FILES, &sum), 3, "%s", r.out);
	cr_assert_str_eq(p[0], "hf://org/repo/a.gguf");
	cr_assert_str_eq(p[1], "hf://org/repo/sub/m-00001-of-00002.gguf");
	cr_assert_str_eq(p[2], "hf://org/repo/sub/m-00002-of-00002.gguf");
	cr_assert(strstr(r.out,
		      "\"split\": {\"model\": "
		      "\"hf://org/repo/sub/m-00001-of-00002.gguf\"") != NULL,
	    "%s", r.out);
	cr_assert_eq(st.requests, 5, "%u requests", st.requests);
	cr_assert_eq(st.auth, 5);
	cr_assert_eq(http_count(sum, "requests"), 5);
	jsontree_free(sum);
	test_run_free(&r);
	free(hub);
	hub_farm_free(&f);
}

/* A repository with no GGUF file: said, nothing linted, exit 0; a
 * private one (401): an input that could not be read, exit 2, the other
 * inputs linted all the same. */
Test(scanremote, an_empty_and_a_private_repository)
{
	char p[N_FILES][128], *hub, *u;
	struct httpd h;
	struct hub_farm f;
	struct httpd_stats st;
	struct test_run r;
	struct jsonnode *sum;

	hub_farm_init(&f);
	f.h.files[0].data = "[{\"type\":\"file\",\"path\":\"README.md\"}]";
	f.h.files[0].len = f.h.files[0].size = strlen(f.h.files[0].data);
	f.h.files[0].headers = NULL;
	cr_assert(httpd_start(&f.h) == 0);
	hub = xasprintf("http://127.0.0.1:%d", f.h.port);
	setenv("HF_ENDPOINT", hub, 1);
	const char *argv[] = { "--no-config", "hf://org/repo/", NULL };
	test_run_bin(&r, argv, NULL, 0);
	cr_assert(httpd_stop(&f.h, &st) == 0);
	cr_assert(r.status == 0, "%d: %s", r.status, r.err);
	cr_assert(strstr(r.err, "no .gguf file in hf://org/repo/") != NULL,
	    "%s", r.err);
	cr_assert_eq(st.requests, 1);
	test_run_free(&r);
	free(hub);
	memset(&h, 0, sizeof h);
	h.mode = HTTPD_STATUS;
	h.status = 401;
	cr_assert(httpd_start(&h) == 0);
	hub = xasprintf("http://127.0.0.1:%d", h.port);
	setenv("HF_ENDPOINT", hub, 1);
	u = xasprintf("%s/examples/stories260K.gguf", test_srcdir());
	const char *argv2[] = { "--no-config", "--format", "jsonl",
		"hf://org/private@v2", u, NULL };
	test_run_bin(&r, argv2, NULL, 0);
	cr_assert(httpd_stop(&h, &st) == 0);
	cr_assert(r.status == 2, "%d: %s", r.status, r.err);
	cr_assert(strstr(r.err,
		      "hf://org/private@v2: HTTP 401 Unauthorized: "
		      "it needs a token") != NULL,
	    "%s", r.err);
	cr_assert_eq(st.requests, 1);
	cr_assert_eq(paths(r.out, p, N_FILES, &sum), 2, "%s", r.out);
	cr_assert_str_eq(p[0], "hf://org/private@v2");
	cr_assert_str_eq(p[1], u);
	jsontree_free(sum);
	test_run_free(&r);
	free(u);
	free(hub);
	hub_farm_free(&f);
}
