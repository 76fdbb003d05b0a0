/*
 * hubscan.c - `make bench`'s scan at hub scale (issue 40's benchmark):
 * the tests' loopback server (tests/httpd.c) serves BENCH_MODELS models
 * (1000), all sparse, each at URLs of its own: a 1B, 8B, 70B and 235B MoE
 * in turn with a 70B in 3 shards (the URLs of all its shards listed), one
 * model in four behind a 302 to its real path, every request answered
 * after 50 ms (a far CDN) and one request in fifty answered 429 with
 * Retry-After: 1. gguflint lints the list (--files-from, --format jsonl)
 * at --jobs 1, 8 and 32 (as many --max-per-host); the peer,
 * @huggingface/gguf's gguf() per URL at the same concurrency (bench/
 * peer.mjs under node, the package in $BENCH_PEER_DIR), reads the same
 * list in the same run. --jobs 1 runs on the first BENCH_MODELS_J1 models
 * (100) to keep the run short. Printed: models a second, requests and
 * bytes a model (counted by the server, per run), the 429s, peak RSS
 * (the linter's own: run_to spawns it from a fresh image); and the
 * issue's goals, PASS or FAIL beside the figures. Nothing asserted.
 *
 *	hubscan GGUFLINT DIR PEER.mjs
 *
 * DIR holds gen-sparse's m-1b.gguf, m-8b.gguf, m-70b.gguf,
 * m-235b-moe.gguf and s70-0000{1,2,3}-of-00003.gguf (--split 3 70b).
 * Exit status: 0, 1 when something could not be run, 2 usage.
 */
#include "config.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/util.h"
#include "benchcommon.h"
#include "hubscan.h"

/* The files served: each under a folder of its own (a prefix), a shard
 * by its suffix too. */
static const struct {
	const char *file, *dir, *suffix;
} hub_files[] = {
	{ "m-1b.gguf", "1b/", NULL },
	{ "m-8b.gguf", "8b/", NULL },
	{ "m-70b.gguf", "70b/", NULL },
	{ "m-235b-moe.gguf", "235b/", NULL },
	{ "s70-00001-of-00003.gguf", "s70/", "-00001-of-00003.gguf" },
	{ "s70-00002-of-00003.gguf", "s70/", "-00002-of-00003.gguf" },
	{ "s70-00003-of-00003.gguf", "s70/", "-00003-of-00003.gguf" },
};
#define HUB_FILES (sizeof hub_files / sizeof hub_files[0])
#define HUB_SHAPES 5 /* the four single files, the split model */

static unsigned
env_unsigned(const char *name, unsigned dflt)
{
	const char *v = getenv(name);

	return v != NULL && atoi(v) > 0 ? (unsigned)atoi(v) : dflt;
}

/* The server of the scan: h's files from dir, its misbehaviour set. */
static int
hub_server(struct httpd *h, const char *dir, size_t *largest)
{
	char *path;
	size_t k;
	int rc = 0;

	memset(h, 0, sizeof *h);
	*largest = 0;
	for (k = 0; k < HUB_FILES && rc == 0; k++) {
		path = xasprintf("%s/%s", dir, hub_files[k].file);
		rc = load_header(path, &h->files[k], hub_files[k].dir);
		free(path);
		h->files[k].prefix = true;
		h->files[k].suffix = hub_files[k].suffix;
		if (h->files[k].len > *largest)
			*largest = h->files[k].len;
	}
	h->sndbuf = 65536; /* as remote.c's */
	h->threaded = true;
	h->delay_ms = 50;
	h->fail_every = 50;
	h->status = 429;
	h->retry_after = "1";
	h->redirect_prefix = "r/";
	h->max_requests = 4000000;
	h->seconds = 3600;
	return rc;
}

/* The URLs of model i into fp (one a line; a split model's shards);
 * its headers' bytes. */
static size_t
hub_model(FILE *fp, const struct httpd *h, unsigned i)
{
	const char *r = i % 4 == 3 ? "r/" : "";
	unsigned shape = i % HUB_SHAPES, k;
	size_t bytes = 0;

	if (shape < HUB_SHAPES - 1) {
		fprintf(fp, "http://127.0.0.1:%d/%s%sm%05u.gguf\n", h->port, r,
		    hub_files[shape].dir, i);
		return h->files[shape].len;
	}
	for (k = shape; k < HUB_FILES; k++) {
		fprintf(fp, "http://127.0.0.1:%d/%s%sm%05u%s\n", h->port, r,
		    hub_files[k].dir, i, hub_files[k].suffix);
		bytes += h->files[k].len;
	}
	return bytes;
}

/* The list of the first n models into a new file, l. */
static int
hub_list(struct hub_list *l, const struct httpd *h, unsigned n)
{
	char tmpl[] = "/tmp/gguflint-hub-XXXXXX";
	FILE *fp;
	int fd;

	l->n = n;
	l->header_bytes = 0;
	if ((fd = mkstemp(tmpl)) < 0 || (fp = fdopen(fd, "w")) == NULL)
		return -1;
	l->path = xstrdup(tmpl);
	for (unsigned i = 0; i < n; i++)
		l->header_bytes += hub_model(fp, h, i);
	return fclose(fp) == 0 ? 0 : -1;
}

/* The four lists: BENCH_MODELS (1000), BENCH_MODELS_J1 of them for
 * --jobs 1 (100), BENCH_PEER_MODELS of them for the peer (20: it reads
 * about a model a second here), the fewer of the last two for the
 * peer's --jobs 1. */
static int
hub_lists(struct hub *hb)
{
	unsigned n = env_unsigned("BENCH_MODELS", 1000);
	unsigned n1 = env_unsigned("BENCH_MODELS_J1", 100);
	unsigned np = env_unsigned("BENCH_PEER_MODELS", 20);

	n1 = n1 < n ? n1 : n;
	np = np < n ? np : n;
	return hub_list(&hb->all, &hb->h, n) < 0 ||
		hub_list(&hb->one, &hb->h, n1) < 0 ||
		hub_list(&hb->peer_all, &hb->h, np) < 0 ||
		hub_list(&hb->peer_one, &hb->h, n1 < np ? n1 : np) < 0 ?
	    -1 :
	    0;
}

static void
hub_unlink(struct hub_list *l)
{
	if (l->path != NULL)
		unlink(l->path);
	free((char *)l->path);
}

/* This program, for run_to's spawner (argv[0] as run). */
static const char *hub_self;

/*
 * The spawner (hubscan --spawn OUT ARGV...): argv run, its standard
 * output into OUT, its standard error dropped, its peak RSS in KiB
 * written to fd 3; its exit status (125: killed, 127: not run). It is a
 * fresh image, so the child it forks is small: a child forked from the
 * bench itself would count the bench's pages (the served headers, about
 * 50 MiB) in its peak RSS, as Linux keeps the high-water mark of the image
 * an exec replaces.
 */
static int
spawner(char *out, char **argv)
{
	struct rusage ru;
	pid_t pid;
	int st, fd, null;

	if ((pid = fork()) == 0) {
		fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		null = open("/dev/null", O_WRONLY);
		dup2(fd, 1);
		dup2(null, 2);
		close(3);
		execvp(argv[0], argv);
		_exit(127);
	}
	if (pid < 0 || wait4(pid, &st, 0, &ru) != pid)
		return 127;
	dprintf(3, "%ld\n", ru.ru_maxrss);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 125;
}

/* Run argv through the spawner, its standard output into the file out,
 * its standard error dropped: its exit status (-1: not run), its peak
 * RSS in KiB in *rss. */
static int
run_to(char *const *argv, const char *out, long *rss)
{
	char *sp[16] = { (char *)hub_self, "--spawn", (char *)out };
	char buf[64] = "";
	size_t k;
	ssize_t got;
	pid_t pid;
	int st, p[2];

	for (k = 0; argv[k] != NULL && k + 4 < 16; k++)
		sp[k + 3] = argv[k];
	if (pipe(p) < 0)
		return -1;
	/* the lint holds neither end: the spawner's fd 3 is a copy */
	(void)fcntl(p[0], F_SETFD, FD_CLOEXEC);
	(void)fcntl(p[1], F_SETFD, FD_CLOEXEC);
	if ((pid = fork()) == 0) {
		dup2(p[1], 3);
		execv(hub_self, sp);
		_exit(127);
	}
	close(p[1]);
	got = pid < 0 ? -1 : read(p[0], buf, sizeof buf - 1);
	close(p[0]);
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st) ||
	    got <= 0 || WEXITSTATUS(st) >= 125)
		return -1;
	*rss = atol(buf);
	return WEXITSTATUS(st);
}

/* The number after "key": in s (0 when absent). */
static unsigned long
json_num(const char *s, const char *key)
{
	char k[64];
	const char *p;

	snprintf(k, sizeof k, "\"%s\": ", key);
	p = s != NULL ? strstr(s, k) : NULL;
	return p != NULL ? strtoul(p + strlen(k), NULL, 10) : 0;
}

/* The last line of the file path (its summary), into buf. */
static void
last_line(const char *path, char *buf, size_t size)
{
	char line[4096];
	FILE *fp = fopen(path, "r");

	buf[0] = '\0';
	while (fp != NULL && fgets(line, sizeof line, fp) != NULL)
		if (line[0] != '\n')
			snprintf(buf, size, "%s", line);
	if (fp != NULL)
		fclose(fp);
}

/* One run of side (gguflint or the peer) over list at jobs: its
 * figures into *r, the server started afresh for it (its counts). */
static int
hub_run(struct hub *hb, int peer, const struct hub_list *l, unsigned jobs,
    struct hub_result *r)
{
	const char *list = l->path;
	char j[16], line[4096];
	char *lint[] = { (char *)hb->bin, "--no-config", "--no-cache",
		"--format", "jsonl", "--jobs", j, "--max-per-host", j,
		"--files-from", (char *)list, NULL };
	char *node[] = { "node", (char *)hb->peer_script, (char *)hb->peer_dir,
		(char *)list, j, NULL };
	struct httpd_stats st;
	double t;

	snprintf(j, sizeof j, "%u", jobs);
	r->jobs = jobs;
	r->models = l->n;
	r->header = (double)l->header_bytes / l->n;
	if (httpd_start(&hb->h) < 0)
		return -1;
	t = now_s();
	r->rc = run_to(peer ? node : lint, hb->out, &r->rss);
	r->secs = now_s() - t;
	httpd_stop(&hb->h, &st);
	r->requests = st.requests;
	r->bytes = st.bytes;
	r->served_429 = st.failed;
	r->redirects = st.redirects;
	last_line(hb->out, line, sizeof line);
	if (peer) {
		sscanf(line, "ok %u failed %u", &r->ok, &r->failed);
		snprintf(r->note, sizeof r->note, "%s", line);
		r->note[strcspn(r->note, "\n")] = '\0';
		return r->rc == 0 ? 0 : -1;
	}
	r->honoured = json_num(line, "rate_limited");
	r->retries = json_num(line, "retries");
	r->waited_s = strstr(line, "\"waited_s\": ") != NULL ?
	    atof(strstr(line, "\"waited_s\": ") + 12) :
	    0;
	r->ok = (unsigned)json_num(line, "files");
	r->failed = (unsigned)json_num(line, "unread");
	return r->rc >= 0 && r->rc <= 1 ? 0 : -1;
}

/* Whether the peer's package is in hb->peer_dir; else how to have it. */
static bool
peer_found(const struct hub *hb)
{
	char *p = xasprintf("%s/@huggingface/gguf/package.json", hb->peer_dir);
	bool ok = access(p, R_OK) == 0;

	free(p);
	if (!ok)
		printf("peer: no @huggingface/gguf in %s (BENCH_PEER_DIR): "
		       "skipped; to run it, `npm install --prefix bench/peer "
		       "@huggingface/gguf@%s` (or set BENCH_PEER_DIR to a "
		       "node_modules that has it)\n",
		    hb->peer_dir, PEER_VERSION);
	return ok;
}

/* Every run: for each --jobs, gguflint then the peer. */
static int
hub_runs(struct hub *hb)
{
	static const unsigned jobs[HUB_LEVELS] = { 1, 8, 32 };
	int rc = 0;

	for (unsigned k = 0; k < HUB_LEVELS && rc == 0; k++) {
		rc = hub_run(hb, 0, k == 0 ? &hb->one : &hb->all, jobs[k],
		    &hb->lint[k]);
		hub_print_run("gguflint", &hb->lint[k]);
		if (rc == 0 && hb->has_peer) {
			if (hub_run(hb, 1,
				k == 0 ? &hb->peer_one : &hb->peer_all, jobs[k],
				&hb->peer[k]) < 0)
				hb->has_peer = false; /* node failed */
			hub_print_run("peer", &hb->peer[k]);
		}
	}
	return rc;
}

int
main(int argc, char **argv)
{
	static struct hub hb;
	char out[] = "/tmp/gguflint-hubout-XXXXXX";
	const char *pd = getenv("BENCH_PEER_DIR");
	int rc = 1, fd;

	if (argc > 3 && strcmp(argv[1], "--spawn") == 0)
		return spawner(argv[2], argv + 3);
	if (argc != 4) {
		fputs("usage: hubscan GGUFLINT DIR PEER.mjs\n", stderr);
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0); /* each run as it ends */
	hub_self = access("/proc/self/exe", X_OK) == 0 ? "/proc/self/exe" :
							 argv[0];
	hb.bin = argv[1];
	hb.peer_script = argv[3];
	hb.peer_dir = pd != NULL && *pd != '\0' ? pd :
						  "bench/peer/node_modules";
	hb.out = out;
	if (hub_server(&hb.h, argv[2], &hb.largest) < 0 ||
	    httpd_start(&hb.h) < 0)
		return 1;
	httpd_stop(&hb.h, &(struct httpd_stats){ 0 }); /* its port, kept */
	if ((fd = mkstemp(out)) >= 0 && close(fd) == 0 && hub_lists(&hb) == 0) {
		hb.has_peer = peer_found(&hb);
		hub_print_head(&hb);
		rc = hub_runs(&hb) < 0;
		hub_print_goals(&hb);
	}
	hub_unlink(&hb.all);
	hub_unlink(&hb.one);
	hub_unlink(&hb.peer_all);
	hub_unlink(&hb.peer_one);
	unlink(out);
	for (size_t k = 0; k < HUB_FILES; k++)
		free((void *)hb.h.files[k].data);
	return rc;
}
