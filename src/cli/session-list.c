/*
 * session-list.c - the commands that list what gguflint knows instead of
 * linting: --list-profiles (the built-in profiles), --list-kernels (the
 * built-in capability tables, or with a runtime every encoding probed on
 * its device, and --write-kernels), --list-devices (the runtime's
 * devices) and --list-archs (the architectures and what gguflint knows
 * of each), each reported with the session's reporter.
 */
#include "config.h"

#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/error.h"
#include "base/util.h"
#include "cli/options.h"
#include "cli/session-impl.h"
#include "facts/archlist.h"
#include "facts/llversions.h"
#include "report/report.h"
#include "runtime/runtime.h"
#include "target/captable.h"
#include "target/profile.h"

/* --list-devices: the runtime's devices, reported with rep. */
static int
list_devices(const struct options *o, struct report_ctx *ctx,
    const struct reporter *rep, struct strbuf *out)
{
	const char *dir = session_runtime_dir(o);
	struct rt_info info;
	struct gl_error err;

	if (dir == NULL) {
		fprintf(stderr, "gguflint: --list-devices needs a runtime: "
		    "--runtime DIR or GGUFLINT_RUNTIME\n");
		return 2;
	}
	if (runtime_devices(dir, &info, &err) < 0) {
		runtime_info_free(&info);
		return session_fail(&err);
	}
	rep->devices(ctx, out, &info);
	runtime_info_free(&info);
	if (!runtime_has_llama(dir))
		fprintf(stderr, "gguflint: note: %s has no libllama: no "
		    "model is loaded by its llama.cpp (no vocabulary load, "
		    "no M021)\n", dir);
	return 0;
}

/* --write-kernels FILE: t as YAML, whole once complete. */
static int
write_kernels(const char *path, const struct captable *t)
{
	struct strbuf sb = STRBUF_INIT;
	char *tmp = xasprintf("%s.tmp-%ld", path, (long)getpid());
	FILE *fp = fopen(tmp, "w");
	int rc = 0;

	captable_write(t, &sb);
	if (fp == NULL || fwrite(sb.buf, 1, sb.len, fp) != sb.len ||
	    fclose(fp) != 0 || rename(tmp, path) != 0) {
		fprintf(stderr, "gguflint: --write-kernels %s: %s\n", path,
		    strerror(errno));
		unlink(tmp);
		rc = 2;
	}
	strbuf_free(&sb);
	free(tmp);
	return rc;
}

/* --list-kernels --runtime DIR: every encoding probed on the device. */
static int
list_runtime_kernels(const struct options *o, struct report_ctx *ctx,
    const struct reporter *rep, struct strbuf *out)
{
	struct rt_request rq = { session_runtime_dir(o), o->device,
		o->no_cache, 0, false };
	struct rt_info info;
	struct captable t;
	struct gl_error err;
	struct rt_case *cases;
	size_t n;
	int status = 0;

	cases = runtime_cases_all(RT_ROW_DEFAULT, &n);
	if (runtime_probe(&rq, cases, n, &info, &err) < 0) {
		runtime_info_free(&info);
		free(cases);
		return session_fail(&err);
	}
	runtime_table(&info, cases, n, &t);
	captable_probe(&t, NULL);
	t.runtime_ms = info.probe_ms;
	t.runtime_cached = info.n_cached;
	rep->kernels(ctx, out, &t, 1);
	if (o->write_kernels != NULL)
		status = write_kernels(o->write_kernels, &t);
	captable_free(&t);
	runtime_cases_free(cases, n);
	free(cases);
	runtime_info_free(&info);
	return status;
}

/* --list-kernels: load and probe every built-in table, report them with
 * rep; 2 when one could not be loaded (the others are still shown). With
 * a runtime: the device's own table instead. */
static int
list_kernels(const struct options *o, struct report_ctx *ctx,
    const struct reporter *rep, struct strbuf *out)
{
	const char *const *names = captable_builtin_names();
	struct captable *t;
	struct gl_error err;
	size_t n = 0, i;
	int status = 0;

	if (session_runtime_dir(o) != NULL)
		return list_runtime_kernels(o, ctx, rep, out);
	if (o->write_kernels != NULL) {
		fprintf(stderr, "gguflint: --write-kernels needs a runtime: "
		    "--runtime DIR or GGUFLINT_RUNTIME\n");
		return 2;
	}

	for (i = 0; names[i] != NULL; i++)
		;
	t = xcalloc(i + 1, sizeof *t);
	for (i = 0; names[i] != NULL; i++) {
		if (captable_load(names[i], &t[n], &err) < 0) {
			session_fail(&err);
			status = 2;
			continue;
		}
		captable_probe(&t[n++], NULL);
	}
	rep->kernels(ctx, out, t, n);
	for (i = 0; i < n; i++)
		captable_free(&t[i]);
	free(t);
	return status;
}

/* --list-profiles: load every built-in profile, report them with rep; 2
 * when one could not be loaded (the others are still shown). */
static int
list_profiles(struct report_ctx *ctx, const struct reporter *rep,
    struct strbuf *out)
{
	const char *const *names = profile_builtin_names();
	struct profile *p;
	struct gl_error err;
	size_t n = 0, i;
	int status = 0;

	for (i = 0; names[i] != NULL; i++)
		;
	p = xcalloc(i + 1, sizeof *p);
	for (i = 0; names[i] != NULL; i++) {
		if (profile_load(names[i], &p[n], &err) < 0) {
			session_fail(&err);
			status = 2;
			continue;
		}
		n++;
	}
	rep->profiles(ctx, out, p, n);
	for (i = 0; i < n; i++)
		profile_free(&p[i]);
	free(p);
	return status;
}

/* --list-archs: every architecture, what gguflint knows of it; 2 when
 * the runtime data could not be loaded. */
static int
list_archs(struct report_ctx *ctx, const struct reporter *rep,
    struct strbuf *out)
{
	const struct llv_db *db = NULL;
	struct arch_entry *e;
	struct gl_error err;
	size_t n;

	if (llv_db_get(&db, &err) < 0)
		return session_fail(&err);
	arch_list(db, &e, &n);
	rep->archs(ctx, out, e, n, db->release);
	free(e);
	return 0;
}

int
session_list(const struct options *o, struct report_ctx *ctx,
    const struct reporter *rep, struct strbuf *out)
{
	if (o->mode == CLI_MODE_LIST_PROFILES)
		return list_profiles(ctx, rep, out);
	if (o->mode == CLI_MODE_LIST_KERNELS)
		return list_kernels(o, ctx, rep, out);
	if (o->mode == CLI_MODE_LIST_ARCHS)
		return list_archs(ctx, rep, out);
	assert(o->mode == CLI_MODE_LIST_DEVICES);
	return list_devices(o, ctx, rep, out);
}
