/*
 * probe.c - the parent's side of the runtime probe (runtime.h): start a
 * child per run of cases (fork; the child loads the runtime itself, in
 * ggml.c), read its answers line by line with a time limit, and turn a
 * child that dies or stops answering into an unsafe answer for the case
 * it was on, going on with a fresh child from the next case. The libllama
 * jobs (a vocabulary load, a measurement) are probe-llama.c's, in children
 * started here.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kernels/kernels.h"
#include "runtime/runtime-impl.h"

const char *
rt_op_name(enum rt_op op)
{
	return op == RT_MUL_MAT ? "mul_mat" :
	    op == RT_GET_ROWS	? "get_rows" :
				  "mul_mat_id";
}

const char *
rt_state_name(enum rt_state s)
{
	static const char *const names[] = { "reference-only", "verified",
		"fallback", "unsafe" };

	return names[s];
}

bool
runtime_has_reference(uint32_t encoding)
{
	return kernel_find(KERNEL_DEQUANT, encoding, KERNEL_ORDER_AS_STORED) !=
	    NULL &&
	    kernel_row_bytes(encoding, 256) > 0;
}

const char *
runtime_dir_default(void)
{
	const char *d = getenv("GGUFLINT_RUNTIME");

	return d != NULL && *d != '\0' ? d : NULL;
}

bool
runtime_present(const char *dir)
{
	char *pat = xasprintf("%s/libggml-base*.so*", dir);
	glob_t g;
	bool ok = glob(pat, 0, NULL, &g) == 0 && g.gl_pathc > 0;

	globfree(&g);
	free(pat);
	return ok;
}

char *
rt_clean(const char *s, size_t max)
{
	size_t n = s ? strnlen(s, max) : 0, i;
	char *c = xstrndup(s ? s : "", n);

	for (i = 0; i < n; i++)
		if ((unsigned char)c[i] < 0x20 || c[i] == 0x7f)
			c[i] = ' ';
	return c;
}

void
rt_device_free(struct rt_device *d)
{
	free(d->name);
	free(d->description);
	free(d->type);
	free(d->library);
	memset(d, 0, sizeof *d);
}

void
runtime_info_free(struct rt_info *info)
{
	size_t i;

	for (i = 0; i < info->n_devices; i++)
		rt_device_free(&info->devices[i]);
	free(info->devices);
	rt_device_free(&info->device);
	free(info->dir);
	free(info->version);
	free(info->commit);
	free(info->date);
	memset(info, 0, sizeof *info);
}

void
runtime_cases_free(struct rt_case *cases, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(cases[i].reason);
		cases[i].reason = NULL;
	}
}

/* ---- one child --------------------------------------------------------- */

/* Start a child on tmpl's job from case first (runtime-impl.h). */
int
rt_child_start(struct rt_child *ch, const struct rt_job *tmpl, size_t first,
    struct gl_error *err)
{
	char path[] = "/tmp/gguflint-probe-XXXXXX";
	struct rt_job job = *tmpl;
	int p[2];

	memset(ch, 0, sizeof *ch);
	if ((ch->errfd = mkstemp(path)) < 0)
		return gl_error_setk(err, GL_ERR_IO,
		    "runtime probe: cannot "
		    "make a file for the child's messages: %s",
		    strerror(errno));
	unlink(path);
	if (pipe(p) < 0)
		return gl_error_setk(err, GL_ERR_IO, "runtime probe: pipe: %s",
		    strerror(errno));
	fflush(NULL);
	if ((ch->pid = fork()) < 0)
		return gl_error_setk(err, GL_ERR_IO, "runtime probe: fork: %s",
		    strerror(errno));
	if (ch->pid == 0) {
		int nul = open("/dev/null", O_RDWR);

		close(p[0]);
		if (nul >= 0) {
			dup2(nul, STDIN_FILENO);
			dup2(nul, STDOUT_FILENO);
		}
		dup2(ch->errfd, STDERR_FILENO);
		job.fd = p[1];
		job.first = first;
		rt_child_main(&job);
	}
	close(p[1]);
	ch->fd = p[0];
	return 0;
}

/* The next line of ch's answers, within timeout_ms (runtime-impl.h). */
int
rt_child_line(struct rt_child *ch, char **line, int timeout_ms)
{
	static _Thread_local char got[sizeof((struct rt_child *)0)->buf];
	char *nl;

	for (;;) {
		if ((nl = memchr(ch->buf, '\n', ch->len)) != NULL) {
			size_t n = (size_t)(nl - ch->buf);

			memcpy(got, ch->buf, n);
			got[n] = '\0';
			memmove(ch->buf, nl + 1, ch->len - n - 1);
			ch->len -= n + 1;
			*line = got;
			return 1;
		}
		if (ch->eof || ch->len == sizeof ch->buf)
			return 0;
		struct pollfd pf = { ch->fd, POLLIN, 0 };
		int r = poll(&pf, 1, timeout_ms);

		if (r < 0 && errno == EINTR)
			continue;
		if (r == 0)
			return -1;
		ssize_t got_n = read(ch->fd, ch->buf + ch->len,
		    sizeof ch->buf - ch->len);

		if (got_n < 0 && errno == EINTR)
			continue;
		if (got_n <= 0)
			ch->eof = true;
		else
			ch->len += (size_t)got_n;
	}
}

/* The last line of the child's messages that says most, or "". */
static char *
child_said(int fd)
{
	char buf[2048], *best = NULL, *s, *e;
	off_t end = lseek(fd, 0, SEEK_END),
	      at = end > (off_t)sizeof buf - 1 ? end - (off_t)sizeof buf + 1 :
						 0;
	ssize_t n = end > 0 ? pread(fd, buf, (size_t)(end - at), at) : 0;

	if (n <= 0)
		return xstrdup("");
	buf[n] = '\0';
	for (s = buf; *s != '\0'; s = e + (*e != '\0')) {
		e = s + strcspn(s, "\n");
		if (e > s &&
		    (best == NULL || strstr(best, "GGML_ASSERT") == NULL ||
			memmem(s, (size_t)(e - s), "GGML_ASSERT", 11)))
			best = s;
		if (*e == '\0')
			break;
		*e = '\0';
	}
	return rt_clean(best ? best : "", 240);
}

/* Stop ch, reap it, and say how it ended (runtime-impl.h). */
char *
rt_child_end(struct rt_child *ch, bool kill_it, double *cpu)
{
	struct rusage ru;
	char *said, *why;
	int st = 0;

	if (kill_it)
		kill(ch->pid, SIGKILL);
	memset(&ru, 0, sizeof ru);
	while (wait4(ch->pid, &st, 0, &ru) < 0 && errno == EINTR)
		;
	if (cpu != NULL)
		*cpu = (double)ru.ru_utime.tv_sec + (double)ru.ru_stime.tv_sec +
		    (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
	close(ch->fd);
	said = child_said(ch->errfd);
	close(ch->errfd);
	if (WIFEXITED(st) && WEXITSTATUS(st) == 0 && !kill_it) {
		free(said);
		return NULL;
	}
	if (WIFSIGNALED(st) && !kill_it)
		why = xasprintf("%s (%s)%s%s",
		    WTERMSIG(st) == SIGABRT ? "abort" : "crash",
		    strsignal(WTERMSIG(st)), *said ? ": " : "", said);
	else if (kill_it)
		why = xstrdup("hang, or slower than the time limit");
	else
		why = xasprintf("exit status %d%s%s", WEXITSTATUS(st),
		    *said ? ": " : "", said);
	free(said);
	return why;
}

/* ---- running cases in children ----------------------------------------- */

size_t
rt_split(char *line, char **f, size_t max)
{
	size_t n = 0;

	while (n < max) {
		f[n++] = line;
		if ((line = strchr(line, '\t')) == NULL)
			break;
		*line++ = '\0';
	}
	return n;
}

void
rt_device_set(struct rt_device *d, char **f, size_t nf)
{
	rt_device_free(d);
	d->name = xstrdup(nf > 1 ? f[1] : "");
	d->description = xstrdup(nf > 2 ? f[2] : "");
	d->type = xstrdup(nf > 3 ? f[3] : "");
	d->mem_free = nf > 4 ? strtoull(f[4], NULL, 10) : 0;
	d->mem_total = nf > 5 ? strtoull(f[5], NULL, 10) : 0;
	d->library = xstrdup(nf > 6 ? f[6] : "");
	/* a cached record's limit: empty when it was not measured */
	d->max_tensor_known = nf > 7 && f[7][0] >= '0' && f[7][0] <= '9';
	d->max_tensor = d->max_tensor_known ? strtoull(f[7], NULL, 10) : 0;
}

/* What one child said, beside the cases it answered. */
struct child_run {
	bool ready;	/* the device opened (or the listing began) */
	bool done;	/* it said Z */
	bool running;	/* the due case's computation began (R) */
	double run_cpu; /* the child's CPU time then (s) */
	double run_at;	/* and the time then (now_ms) */
	char *fatal;	/* its E line */
};

static double now_ms(void);

/* One answer line into info or the cases; *next is the next case due. */
static void
child_event(char *line, struct rt_info *info, struct rt_case *cases, size_t n,
    size_t *next, struct child_run *cr)
{
	char *f[8];
	size_t nf = rt_split(line, f, 8), idx;

	if (f[0][0] == 'V' && nf >= 3 && info->version == NULL) {
		info->version = xstrdup(f[1]);
		info->commit = xstrdup(f[2]);
	} else if (f[0][0] == 'D') {
		info->devices = xreallocarray(info->devices,
		    info->n_devices + 1, sizeof *info->devices);
		memset(&info->devices[info->n_devices], 0,
		    sizeof *info->devices);
		rt_device_set(&info->devices[info->n_devices++], f, nf);
		cr->ready = true;
	} else if (f[0][0] == 'U') {
		uint64_t lim = info->device.max_tensor; /* an earlier child's */
		bool known = info->device.max_tensor_known;

		rt_device_set(&info->device, f, nf);
		info->device.max_tensor = lim;
		info->device.max_tensor_known = known;
		cr->ready = true;
	} else if (f[0][0] == 'L' && nf >= 3) { /* a listed device's */
		idx = strtoul(f[2], NULL, 10);
		if (idx < info->n_devices) {
			info->devices[idx].max_tensor = strtoull(f[1], NULL,
			    10);
			info->devices[idx].max_tensor_known = true;
		}
	} else if (f[0][0] == 'L' && nf >= 2) {
		info->device.max_tensor = strtoull(f[1], NULL, 10);
		info->device.max_tensor_known = true;
	} else if (f[0][0] == 'C' && nf >= 5 && cases != NULL &&
	    (idx = strtoul(f[1], NULL, 10)) == *next && idx < n) {
		cases[idx].state = (enum rt_state)(strtoul(f[2], NULL, 10) % 4);
		cases[idx].nmse = strtod(f[3], NULL);
		cases[idx].reason = *f[4] ? xstrdup(f[4]) : NULL;
		(*next)++;
		cr->running = false;
	} else if (f[0][0] == 'R' && nf >= 3 &&
	    strtoul(f[1], NULL, 10) == *next) {
		cr->running = true;
		cr->run_cpu = strtod(f[2], NULL);
		cr->run_at = now_ms();
	} else if (f[0][0] == 'E' && cr->fatal == NULL)
		cr->fatal = xstrdup(nf > 1 ? f[1] : "unknown error");
	else if (f[0][0] == 'Z')
		cr->done = true;
}

/* The time limit of a child's answer, s (runtime-impl.h). */
unsigned
rt_timeout_of(unsigned asked)
{
	const char *e = getenv("GGUFLINT_PROBE_TIMEOUT");
	unsigned long v;

	if (asked > 0)
		return asked;
	if (e != NULL && (v = strtoul(e, NULL, 10)) > 0 && v < 100000)
		return (unsigned)v;
	return 120;
}

/*
 * Why the case a child was on when it ran out of tmo s did not answer:
 * before its computation (a hang in building it, supports_op or the
 * allocation), or in it, the child idle (waiting: a hang) or busy (cpu,
 * its CPU time in all: still computing, as a device compiling a kernel
 * on its first run does, or spinning).
 */
static char *
late_reason(const struct child_run *cr, const char *dev, unsigned tmo,
    double cpu)
{
	double wall = (now_ms() - cr->run_at) / 1e3, used = cpu - cr->run_cpu;

	if (!cr->running)
		return xasprintf("hang before the computation on %s (in "
				 "building the case, supports_op or the "
				 "allocation) (no answer in %u s)",
		    dev, tmo);
	if (used < 0.02 * wall)
		return xasprintf("hang: the computation on %s did not return, "
				 "the child idle (%.1f s of CPU time in %.0f "
				 "s) (no answer in %u s)",
		    dev, used > 0 ? used : 0, wall, tmo);
	return xasprintf("slow or hung: still computing on %s, the child "
			 "busy (%.0f s of CPU time in %.0f s; a device may "
			 "compile a kernel on its first run) (no answer in "
			 "%u s: GGUFLINT_PROBE_TIMEOUT sets the limit)",
	    dev, used, wall, tmo);
}

/* ms left until the deadline dl (now_ms), at least 0. */
static int
left_ms(double dl)
{
	double l = dl - now_ms();

	return l > 0 ? (int)l : 0;
}

/*
 * run_children: answer cases[0..n) (n 0: list devices) with as many
 * children as it takes. Returns 0, or -1 with err when the runtime does
 * not load or the device does not open.
 */
static int
run_children(const struct rt_job *tmpl, struct rt_case *cases, size_t n,
    struct rt_info *info, unsigned tmo, struct gl_error *err)
{
	size_t next = 0;

	do {
		struct child_run cr = { false, false, false, 0, 0, NULL };
		struct rt_child ch;
		char *line, *how;
		double dl = now_ms() + tmo * 1e3, cpu = 0;
		int r;

		if (rt_child_start(&ch, tmpl, next, err) < 0)
			return -1;
		while ((r = rt_child_line(&ch, &line, left_ms(dl))) > 0) {
			if (line[0] != 'R') /* R: the same case's limit */
				dl = now_ms() + tmo * 1e3;
			child_event(line, info, cases, n, &next, &cr);
		}
		how = rt_child_end(&ch, r < 0, &cpu);
		if (cr.fatal != NULL || !cr.ready) {
			gl_error_set(err, "runtime %s: %s%s%s", tmpl->dir,
			    cr.fatal ? cr.fatal :
				       "the child loading it "
				       "ended: ",
			    cr.fatal ? "" :
				how  ? how :
				       "?",
			    !cr.fatal && r < 0 ? " (no answer in time)" : "");
			free(cr.fatal);
			free(how);
			return -1;
		}
		if (!cr.done && next < n) { /* the case it was on */
			cases[next].state = RT_UNSAFE;
			cases[next].late_s = r < 0 ? tmo : 0;
			cases[next].reason = r < 0 ?
			    late_reason(&cr, info->device.name, tmo, cpu) :
			    xasprintf("%s while running on %s",
				how ? how : "ended early", info->device.name);
			next++;
		}
		free(how);
	} while (next < n);
	return 0;
}

int
runtime_devices(const char *dir, struct rt_info *info, struct gl_error *err)
{
	struct rt_job job;

	memset(info, 0, sizeof *info);
	memset(&job, 0, sizeof job);
	info->dir = xstrdup(dir);
	job.dir = dir;
	job.list = true;
	return run_children(&job, NULL, 0, info, rt_timeout_of(0), err);
}

static double
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static char *
utc_now(void)
{
	time_t t = time(NULL);
	struct tm tm;
	char buf[32];

	gmtime_r(&t, &tm);
	strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
	return xstrdup(buf);
}

/* Probe the cases the cache did not answer, in children. */
static int
probe_rest(const struct rt_request *rq, struct rt_case *cases, size_t n,
    struct rt_info *info, struct gl_error *err)
{
	struct rt_case *todo = xcalloc(n + 1, sizeof *todo);
	size_t *at = xcalloc(n + 1, sizeof *at), m = 0, i;
	struct rt_job job;
	struct gl_error lerr;
	int rc = 0;

	for (i = 0; i < n; i++)
		if (!cases[i].cached) {
			todo[m] = cases[i];
			todo[m].reason = NULL;
			at[m++] = i;
		}
	memset(&job, 0, sizeof job);
	job.dir = rq->dir;
	job.device = rq->device;
	job.cases = todo;
	job.n = m;
	if (m > 0) {
		rc = run_children(&job, todo, m, info,
		    rt_timeout_of(rq->timeout_s), err);
		free(info->date);
		info->date = utc_now();
	}
	/* the limit a child says after its cases: one of its own when none
	 * lived to say it (or every case came from the cache); if that one
	 * fails too the limit stays unknown, the cases answered */
	if (rc == 0 && !info->device.max_tensor_known) {
		job.n = 0;
		(void)run_children(&job, NULL, 0, info,
		    rt_timeout_of(rq->timeout_s), &lerr);
	}
	for (i = 0; i < m; i++) {
		free(cases[at[i]].reason);
		cases[at[i]] = todo[i];
	}
	if (rc < 0)
		runtime_cases_free(cases, n);
	free(todo);
	free(at);
	return rc;
}

int
runtime_probe(const struct rt_request *rq, struct rt_case *cases, size_t n,
    struct rt_info *info, struct gl_error *err)
{
	double t0 = now_ms();
	char key[33];
	bool keyed;
	size_t i;

	memset(info, 0, sizeof *info);
	info->dir = xstrdup(rq->dir);
	for (i = 0; i < n; i++) {
		cases[i].state = RT_REFERENCE_ONLY;
		cases[i].nmse = 0;
		cases[i].reason = NULL;
		cases[i].cached = false;
		cases[i].late_s = 0;
	}
	keyed = rt_cache_key(rq->dir, rq->device, key) == 0;
	if (keyed && !rq->no_cache)
		info->n_cached = rt_cache_load(key, cases, n,
		    rt_timeout_of(rq->timeout_s), info);
	if (info->n_cached < n || n == 0 || !info->device.max_tensor_known) {
		if (probe_rest(rq, cases, n, info, err) < 0)
			return -1;
		if (keyed)
			rt_cache_store(key, cases, n, info);
	}
	info->probe_ms = now_ms() - t0;
	return 0;
}
