/*
 * remote.c - `make bench`'s remote figures: models served by the
 * loopback server of the tests (tests/httpd.c) and linted by URL.
 *
 *	remote GGUFLINT FILE.gguf PREFIX N
 *
 * For FILE (a sparse model: its header is served, its data as zeros):
 * the requests and bytes of one lint, beside its header's size, over
 * http:// and, when the server has TLS (OpenSSL), https:// (a throwaway
 * CA in $XDG_CACHE_HOME, given with --cacert). For the
 * split model PREFIX-00001-of-0000N.gguf...: the wall time of a lint of
 * its first shard's URL (the whole model), beside that of reading the N
 * headers over the same server (one range request each, by a plain
 * client), and that of linting its shards one by one (each by a name
 * that is not a shard's), and the ratios; beside curl reading the N
 * headers in one process, in turn with the lint, the ratio's median over
 * the pairs; and the lint of the same shards from the local files (the
 * lint's own work, no network). A scan of FILE's header at 32 URLs, at
 * --jobs 1, 8 and 32, and of the last shard's (a small header). Figures
 * printed, nothing asserted.
 * Exit status: 0, 1 when something could not be run, 2 usage.
 */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/util.h"
#include "benchcommon.h"
#include "httpd.h"

#define RUNS 10

/* gguflint --no-config [--cacert CA] URL, its output dropped; its exit
 * status. */
static int
lint_ca(const char *bin, const char *url, const char *ca)
{
	pid_t pid = fork();
	int st, null;

	if (pid == 0) {
		null = open("/dev/null", O_WRONLY);
		dup2(null, 1);
		dup2(null, 2);
		if (ca != NULL)
			execl(bin, bin, "--no-config", "--cacert", ca, url,
			    (char *)NULL);
		else
			execl(bin, bin, "--no-config", url, (char *)NULL);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}

static int
lint(const char *bin, const char *url)
{
	return lint_ca(bin, url, NULL);
}

/* Read bytes [0, n) of /name from the server at port, as a plain client
 * does; the bytes of the answer, or 0. */
static size_t
fetch(int port, const char *name, size_t n)
{
	struct sockaddr_in sa;
	char req[512], buf[65536];
	size_t got = 0;
	ssize_t k;
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	memset(&sa, 0, sizeof sa);
	sa.sin_family = AF_INET;
	sa.sin_port = htons((uint16_t)port);
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof sa) < 0)
		goto out;
	snprintf(req, sizeof req, "GET /%s HTTP/1.1\r\nHost: 127.0.0.1\r\n"
	    "Range: bytes=0-%zu\r\nConnection: close\r\n\r\n", name, n - 1);
	if (write(fd, req, strlen(req)) != (ssize_t)strlen(req))
		goto out;
	while ((k = read(fd, buf, sizeof buf)) > 0)
		got += (size_t)k;
out:
	if (fd >= 0)
		close(fd);
	return got;
}

/*
 * Read the n headers of f from the server at port with one curl process
 * (a range request each, over one connection): what any libcurl client
 * pays, the process and libcurl's loading included. Its exit status, or
 * -1 when curl cannot be run (127: not on PATH).
 */
static int
curl_read(int port, const struct httpd_file *f, unsigned n)
{
	const char *argv[8 * HTTPD_FILES + 2];
	char *own[2 * HTTPD_FILES];
	size_t k = 0, o = 0;
	unsigned i;
	int st = -1, null;
	pid_t pid;

	argv[k++] = "curl";
	for (i = 0; i < n; i++) {
		if (i > 0)
			argv[k++] = "--next";
		argv[k++] = "-s";
		argv[k++] = "-o";
		argv[k++] = "/dev/null";
		argv[k++] = "-r";
		argv[k++] = own[o++] = xasprintf("0-%zu", f[i].len - 1);
		argv[k++] = own[o++] = xasprintf("http://127.0.0.1:%d/%s",
		    port, f[i].name);
	}
	argv[k] = NULL;
	if ((pid = fork()) == 0) {
		null = open("/dev/null", O_WRONLY);
		dup2(null, 2);
		execvp("curl", (char *const *)argv);
		_exit(127);
	}
	if (pid > 0 && (waitpid(pid, &st, 0) != pid || !WIFEXITED(st)))
		st = -1;
	else if (pid > 0)
		st = WEXITSTATUS(st);
	while (o > 0)
		free(own[--o]);
	return st;
}

/* One lint of f's URL (https:// with tls, its CA in the file ca): the
 * server's counts. */
static int
single(const char *bin, struct httpd_file *f, struct httpd_tls *tls,
    const char *ca)
{
	struct httpd h;
	struct httpd_stats st;
	char *url;
	double t;
	int rc;

	memset(&h, 0, sizeof h);
	h.files[0] = *f;
	h.sndbuf = 65536;
	h.tls = tls;
	if (httpd_start(&h) < 0)
		return -1;
	url = xasprintf("%s://127.0.0.1:%d/%s", tls ? "https" : "http",
	    h.port, f->name);
	t = now_s();
	rc = lint_ca(bin, url, tls ? ca : NULL);
	t = now_s() - t;
	httpd_stop(&h, &st);
	free(url);
	printf("remote lint of %s%s (header %zu bytes, file %llu bytes): exit "
	    "%d, %u range requests, %llu bytes (header + %lld), %.0f ms\n",
	    f->name, tls ? " over TLS" : "", f->len,
	    (unsigned long long)f->size, rc, st.ranges,
	    (unsigned long long)st.bytes,
	    (long long)st.bytes - (long long)f->len, t * 1e3);
	return rc >= 0 && rc <= 1 ? 0 : -1;
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The lowest, the median and the highest of the n values v (sorted). */
static void
spread(double *v, size_t n, double *lo, double *med, double *hi)
{
	*lo = *med = *hi = 0;
	if (n == 0)
		return;
	qsort(v, n, sizeof *v, cmp_double);
	*lo = v[0];
	*hi = v[n - 1];
	*med = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* The split model's lint by URL against reading its n headers. */
static int
split(const char *bin, struct httpd_file *f, unsigned n, const char *local)
{
	struct httpd h;
	struct httpd_stats st;
	double t0, tl, tr, ta, tc, tf, ratio[RUNS], lo, med, hi;
	size_t bytes = 0;
	unsigned i, k, paired = 0;
	char *url;
	int rc = 0;

	memset(&h, 0, sizeof h);
	for (k = 0; k < n; k++) {
		h.files[k] = f[k];
		/* the same shard by a name that is not a shard's: alone */
		h.files[n + k] = f[k];
		h.files[n + k].name = xasprintf("%s.alone", f[k].name);
	}
	h.max_requests = 100000;
	h.seconds = 600;
	if (httpd_start(&h) < 0)
		return -1;
	url = xasprintf("http://127.0.0.1:%d/%s", h.port, f[0].name);
	t0 = now_s();
	for (i = 0; i < RUNS && rc >= 0 && rc <= 1; i++)
		rc = lint(bin, url);
	tl = (now_s() - t0) / RUNS;
	t0 = now_s();
	for (i = 0; i < RUNS; i++)
		for (k = 0; k < n; k++)
			bytes += fetch(h.port, f[k].name, f[k].len);
	tr = (now_s() - t0) / RUNS;
	/* lint and curl in turn, the ratio pair by pair (a drifting
	 * machine moves both) */
	for (i = 0, k = 0, tc = 0; i < RUNS && k == 0; i++) {
		t0 = now_s();
		(void)lint(bin, url);
		t0 = now_s() - t0;
		tf = now_s();
		k = (unsigned)curl_read(h.port, f, n);
		tf = now_s() - tf;
		tc += tf;
		ratio[paired++] = t0 / (tf > 0 ? tf : 1e-9);
	}
	tc = k == 0 ? tc / RUNS : 0;
	spread(ratio, paired, &lo, &med, &hi);
	t0 = now_s();
	for (i = 0; i < RUNS; i++)
		(void)lint(bin, local);
	tf = (now_s() - t0) / RUNS;
	t0 = now_s();
	for (i = 0; i < RUNS; i++)
		for (k = 0; k < n; k++) {
			free(url);
			url = xasprintf("http://127.0.0.1:%d/%s.alone", h.port,
			    f[k].name);
			(void)lint(bin, url);
		}
	ta = (now_s() - t0) / RUNS;
	httpd_stop(&h, &st);
	free(url);
	for (k = 0; k < n; k++)
		free((char *)h.files[n + k].name);
	printf("remote lint of a %u-shard model: %.1f ms (exit %d)\n"
	    "  reading its %u headers (%zu bytes, a range request each): %.1f "
	    "ms: %.2fx\n  linting its %u shards one by one: %.1f ms: %.2fx\n",
	    n, tl * 1e3, rc, n, bytes / RUNS, tr * 1e3, tl / (tr > 0 ? tr :
	    1e-9), n, ta * 1e3, tl / (ta > 0 ? ta : 1e-9));
	if (tc > 0)
		printf("  curl reading its %u headers (one process, a range "
		    "request each): %.1f ms: %.2fx; paired, lint/curl over %u "
		    "runs: median %.2fx (%.2f-%.2f)\n", n, tc * 1e3, tl / tc,
		    paired, med, lo, hi);
	else
		printf("  curl reading its %u headers: not run (no curl on "
		    "PATH, or it failed)\n", n);
	printf("  linting its %u shards from the local files: %.1f ms "
	    "(the lint's own work)\n", n, tf * 1e3);
	return rc >= 0 && rc <= 1 ? 0 : -1;
}

/* gguflint --no-config --no-cache --format jsonl --jobs jobs
 * --max-per-host jobs --files-from list, its output dropped; its exit
 * status, its peak RSS in KiB into *rss. */
static int
scan_run(const char *bin, const char *list, unsigned jobs, long *rss)
{
	char j[16];
	struct rusage ru;
	pid_t pid;
	int st, null;

	snprintf(j, sizeof j, "%u", jobs);
	if ((pid = fork()) == 0) {
		null = open("/dev/null", O_WRONLY);
		dup2(null, 1);
		dup2(null, 2);
		execl(bin, bin, "--no-config", "--no-cache", "--format",
		    "jsonl", "--jobs", j, "--max-per-host", j, "--files-from",
		    list, (char *)NULL);
		_exit(127);
	}
	if (pid < 0 || wait4(pid, &st, 0, &ru) != pid || !WIFEXITED(st))
		return -1;
	*rss = ru.ru_maxrss;
	return WEXITSTATUS(st);
}

/*
 * A scan of SCAN_MODELS URLs of the model f (each its own name), the
 * server answering each request after 50 ms (a far CDN), each connection
 * in a thread: at --jobs 1, 8 and 32 (as many --max-per-host), the
 * models a second, the requests and bytes a model, the peak RSS.
 */
#define SCAN_MODELS 32
static int
scan(const char *bin, const struct httpd_file *f)
{
	static const unsigned jobs[] = { 1, 8, 32 };
	struct httpd h;
	struct httpd_stats st;
	char *list, tmpl[] = "/tmp/gguflint-bench-XXXXXX";
	double t, base = 0;
	long rss;
	int fd, rc = 0, r;
	FILE *fp;

	if ((fd = mkstemp(tmpl)) < 0 || (fp = fdopen(fd, "w")) == NULL)
		return -1;
	list = tmpl;
	memset(&h, 0, sizeof h);
	h.files[0] = *f;
	h.files[0].name = "scan/";
	h.files[0].prefix = true;
	h.sndbuf = 65536;	/* as single()'s */
	h.threaded = true;
	h.delay_ms = 50;
	h.max_requests = 100000;
	h.seconds = 600;
	if (httpd_start(&h) < 0) {
		fclose(fp);
		unlink(list);
		return -1;
	}
	for (unsigned i = 0; i < SCAN_MODELS; i++)
		fprintf(fp, "http://127.0.0.1:%d/scan/m%03u.gguf\n", h.port, i);
	fclose(fp);
	httpd_stop(&h, &st);
	printf("remote scan of %u models (a %zu-byte header each, 50 ms a "
	    "request):\n", SCAN_MODELS, f->len);
	for (size_t k = 0; k < 3 && rc == 0; k++) {
		if (httpd_start(&h) < 0) {
			rc = -1;
			break;
		}
		t = now_s();
		r = scan_run(bin, list, jobs[k], &rss);
		t = now_s() - t;
		httpd_stop(&h, &st);
		if (r < 0 || r > 1) {
			rc = -1;
			break;
		}
		if (k == 0)
			base = t;
		printf("  --jobs %2u: %.2f s, %.1f models/s (%.1fx), %.2f "
		    "requests and %.0f bytes a model, peak RSS %ld MiB\n",
		    jobs[k], t, SCAN_MODELS / t, base / t,
		    (double)st.requests / SCAN_MODELS,
		    (double)st.bytes / SCAN_MODELS, rss / 1024);
	}
	unlink(list);
	return rc;
}

/* single() over TLS, when the server has it (else nothing); its CA in
 * $XDG_CACHE_HOME (the run's own folder). */
static int
tls_single(const char *bin, struct httpd_file *f)
{
	const char *dir = getenv("XDG_CACHE_HOME");
	struct httpd_tls *tls;
	char *ca;
	int rc;

	if (!httpd_tls_available() || dir == NULL || *dir == '\0') {
		printf("remote lint over TLS: not measured (no OpenSSL, or no "
		    "XDG_CACHE_HOME)\n");
		return 0;
	}
	ca = xasprintf("%s/bench-ca.pem", dir);
	if ((tls = httpd_tls_new(ca)) == NULL) {
		free(ca);
		return -1;
	}
	rc = single(bin, f, tls, ca);
	httpd_tls_free(tls);
	unlink(ca);
	free(ca);
	return rc;
}

int
main(int argc, char **argv)
{
	struct httpd_file one, shards[HTTPD_FILES];
	unsigned n, k;
	char *path, *name;
	int rc = 0;

	if (argc != 5 || (n = (unsigned)atoi(argv[4])) < 1 ||
	    n > HTTPD_FILES / 2) {
		fputs("usage: remote GGUFLINT FILE.gguf PREFIX N (N <= 4)\n",
		    stderr);
		return 2;
	}
	memset(&one, 0, sizeof one);
	memset(shards, 0, sizeof shards);
	if (load_header(argv[2], &one, "model.gguf") < 0 ||
	    single(argv[1], &one, NULL, NULL) < 0 || tls_single(argv[1],
	    &one) < 0 || scan(argv[1], &one) < 0)
		rc = 1;
	for (k = 0; k < n && rc == 0; k++) {
		path = xasprintf("%s-%05u-of-%05u.gguf", argv[3], k + 1, n);
		name = xasprintf("m-%05u-of-%05u.gguf", k + 1, n);
		if (load_header(path, &shards[k], name) < 0)
			rc = 1;
		free(path);
	}
	path = xasprintf("%s-%05u-of-%05u.gguf", argv[3], 1, n);
	if (rc == 0 && split(argv[1], shards, n, path) < 0)
		rc = 1;
	if (rc == 0 && scan(argv[1], &shards[n - 1]) < 0)
		rc = 1;	/* a small header: the round trips' share */
	free(path);
	free((void *)one.data);
	for (k = 0; k < n; k++) {
		free((void *)shards[k].data);
		free((char *)shards[k].name);
	}
	return rc;
}
