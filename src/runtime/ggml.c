/*
 * ggml.c - the child's side of the runtime probe (runtime-impl.h): load
 * libggml-base and libggml from the job's folder with dlopen, bind every
 * function with dlsym, load the backends, open the device and run each
 * case: supports_op, then one computation on probe data compared with
 * gguflint's reference by normalized mean squared error. Runs only in a
 * child process; answers go to the pipe, one line each.
 *
 * No ggml header is included: the prototypes below are the ones of ggml's
 * public API (ggml.h, ggml-backend.h, ggml-alloc.h), with every handle an
 * opaque pointer. The only layouts assumed are ggml_init_params (passed by
 * value) and a tensor's leading type and ne[4], checked on each tensor
 * made.
 */
#include "config.h"

#include <dlfcn.h>
#include <glob.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "kernels/ggml-types.h"
#include "kernels/kernels.h"
#include "runtime/runtime-impl.h"
#include "target/captable.h"

/* ggml_init_params, as ggml.h lays it out. */
struct rt_init_params {
	size_t mem_size;
	void *mem_buffer;
	bool no_alloc;
};

/* The head of struct ggml_tensor: type, buffer, ne. */
struct rt_tensor_head {
	int type;
	void *buffer;
	int64_t ne[4];
};

#define GGML_TYPE_I32_ID 26 /* ggml's GGML_TYPE_I32 */

struct rt_ggml {
	void *base, *main;
	const char *(*version)(void);
	const char *(*commit)(void);
	void (*load_all_from_path)(const char *);
	void *(*load)(const char *);
	size_t (*dev_count)(void);
	void *(*dev_get)(size_t);
	const char *(*dev_name)(void *);
	const char *(*dev_description)(void *);
	int (*dev_type)(void *);
	void (*dev_memory)(void *, size_t *, size_t *);
	void *(*dev_init)(void *, const char *);
	bool (*dev_supports_op)(void *, const void *);
	void *(*dev_backend_reg)(void *);
	size_t (*quantize_chunk)(int, const float *, void *, int64_t, int64_t,
	    int64_t, const float *);
	bool (*quantize_requires_imatrix)(int);
	void *(*init)(struct rt_init_params);
	void (*free)(void *);
	void *(*new_tensor_2d)(void *, int, int64_t, int64_t);
	void *(*new_tensor_3d)(void *, int, int64_t, int64_t, int64_t);
	void *(*mul_mat)(void *, void *, void *);
	void *(*mul_mat_id)(void *, void *, void *, void *);
	void *(*get_rows)(void *, void *, void *);
	size_t (*tensor_overhead)(void);
	size_t (*graph_overhead)(void);
	void *(*new_graph)(void *);
	void (*build_forward_expand)(void *, void *);
	size_t (*nbytes)(const void *);
	const char *(*type_name)(int);
	int64_t (*blck_size)(int);
	size_t (*type_size)(int);
	void *(*alloc_ctx_tensors)(void *, void *);
	void (*buffer_free)(void *);
	void (*tensor_set)(void *, const void *, size_t, size_t);
	void (*tensor_get)(const void *, void *, size_t, size_t);
	int (*graph_compute)(void *, void *);
};

static void say(const char *fmt, ...) GL_PRINTF(1, 2);

/* ---- the pipe ---------------------------------------------------------- */

static int out_fd = -1;

static void
say(const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	int n;
	size_t off = 0;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof buf - 1, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n > sizeof buf - 2)
		n = sizeof buf - 2;
	buf[n++] = '\n';
	while (off < (size_t)n) {
		ssize_t w = write(out_fd, buf + off, (size_t)n - off);

		if (w <= 0)
			_exit(3); /* the parent is gone */
		off += (size_t)w;
	}
}

static void __attribute__((noreturn)) fatal(const char *msg)
{
	char *c = rt_clean(msg, 600);

	say("E\t%s", c);
	free(c);
	_exit(2);
}

/* ---- loading ----------------------------------------------------------- */

char *
rt_find_lib(const char *dir, const char *const *pats)
{
	char *found = NULL;
	size_t i;

	for (i = 0; pats[i] != NULL && found == NULL; i++) {
		char *pat = xasprintf("%s/%s", dir, pats[i]);
		glob_t g;

		if (glob(pat, 0, NULL, &g) == 0 && g.gl_pathc > 0)
			found = xstrdup(g.gl_pathv[0]);
		globfree(&g);
		free(pat);
	}
	return found;
}

static void *
open_lib(const char *dir, const char *what, const char *const *pats)
{
	char *path = rt_find_lib(dir, pats), *msg;
	void *h;

	if (path == NULL) {
		msg = xasprintf("no %s in %s (expected %s): not a ggml "
				"runtime folder",
		    what, dir, pats[0]);
		fatal(msg);
	}
	if ((h = dlopen(path, RTLD_NOW | RTLD_GLOBAL)) == NULL) {
		msg = xasprintf("cannot load %s: %s", path, dlerror());
		fatal(msg);
	}
	free(path);
	return h;
}

static void *
sym(struct rt_ggml *g, const char *name, bool need)
{
	void *p = dlsym(g->main, name);
	char *msg;

	if (p == NULL)
		p = dlsym(g->base, name);
	if (p == NULL && need) {
		msg = xasprintf("the ggml runtime lacks %s: too old, or not "
				"ggml",
		    name);
		fatal(msg);
	}
	return p;
}

/* Binding a function pointer from a data pointer (POSIX allows it). */
#define BIND(field, name, need) \
	do { \
		void *p_ = sym(g, name, need); \
		memcpy(&g->field, &p_, sizeof p_); \
	} while (0)

static void
bind_all(struct rt_ggml *g)
{
	BIND(version, "ggml_version", false);
	BIND(commit, "ggml_commit", false);
	BIND(load_all_from_path, "ggml_backend_load_all_from_path", false);
	BIND(load, "ggml_backend_load", false);
	BIND(dev_count, "ggml_backend_dev_count", true);
	BIND(dev_get, "ggml_backend_dev_get", true);
	BIND(dev_name, "ggml_backend_dev_name", true);
	BIND(dev_description, "ggml_backend_dev_description", true);
	BIND(dev_type, "ggml_backend_dev_type", true);
	BIND(dev_memory, "ggml_backend_dev_memory", true);
	BIND(dev_init, "ggml_backend_dev_init", true);
	BIND(dev_supports_op, "ggml_backend_dev_supports_op", true);
	BIND(dev_backend_reg, "ggml_backend_dev_backend_reg", false);
	BIND(quantize_chunk, "ggml_quantize_chunk", false);
	BIND(quantize_requires_imatrix, "ggml_quantize_requires_imatrix",
	    false);
	BIND(init, "ggml_init", true);
	BIND(free, "ggml_free", true);
	BIND(new_tensor_2d, "ggml_new_tensor_2d", true);
	BIND(new_tensor_3d, "ggml_new_tensor_3d", true);
	BIND(mul_mat, "ggml_mul_mat", true);
	BIND(mul_mat_id, "ggml_mul_mat_id", true);
	BIND(get_rows, "ggml_get_rows", true);
	BIND(tensor_overhead, "ggml_tensor_overhead", true);
	BIND(graph_overhead, "ggml_graph_overhead", true);
	BIND(new_graph, "ggml_new_graph", true);
	BIND(build_forward_expand, "ggml_build_forward_expand", true);
	BIND(nbytes, "ggml_nbytes", true);
	BIND(type_name, "ggml_type_name", true);
	BIND(blck_size, "ggml_blck_size", true);
	BIND(type_size, "ggml_type_size", true);
	BIND(alloc_ctx_tensors, "ggml_backend_alloc_ctx_tensors", true);
	BIND(buffer_free, "ggml_backend_buffer_free", true);
	BIND(tensor_set, "ggml_backend_tensor_set", true);
	BIND(tensor_get, "ggml_backend_tensor_get", true);
	BIND(graph_compute, "ggml_backend_graph_compute", true);
}

/* Without load_all_from_path: every backend library, one by one. */
static void
load_each(struct rt_ggml *g, const char *dir)
{
	char *pat = xasprintf("%s/libggml-*.so", dir);
	glob_t gl;
	size_t i;

	if (g->load != NULL && glob(pat, 0, NULL, &gl) == 0) {
		for (i = 0; i < gl.gl_pathc; i++)
			if (strstr(gl.gl_pathv[i], "libggml-base") == NULL)
				g->load(gl.gl_pathv[i]);
		globfree(&gl);
	}
	free(pat);
}

static void
load_runtime(struct rt_ggml *g, const char *dir)
{
	static const char *const base[] = { "libggml-base.so",
		"libggml-base.*so*", NULL };
	static const char *const main[] = { "libggml.so", "libggml.*so*",
		NULL };
	char *p;

	memset(g, 0, sizeof *g);
	g->base = open_lib(dir, "libggml-base", base);
	if ((p = rt_find_lib(dir, main)) != NULL) {
		free(p);
		g->main = open_lib(dir, "libggml", main);
	} else
		g->main = g->base; /* a build with one library */
	bind_all(g);
	say("V\t%s\t%s", g->version ? g->version() : "unknown",
	    g->commit ? g->commit() : "unknown");
	if (g->load_all_from_path != NULL)
		g->load_all_from_path(dir);
	else
		load_each(g, dir);
}

static const char *
dev_type_name(int t)
{
	static const char *const names[] = { "CPU", "GPU", "IGPU", "ACCEL",
		"META" };

	return t >= 0 && t < 5 ? names[t] : "unknown";
}

/*
 * The file name of the library that registered dev ("libggml-cpu-zen4.so"),
 * found by the address of its registry (static data of that library), or
 * "" when that cannot be told.
 */
static const char *
dev_library(struct rt_ggml *g, void *dev)
{
	void *reg = g->dev_backend_reg ? g->dev_backend_reg(dev) : NULL;
	const char *slash;
	Dl_info di;

	if (reg == NULL || dladdr(reg, &di) == 0 || di.dli_fname == NULL)
		return "";
	slash = strrchr(di.dli_fname, '/');
	return slash ? slash + 1 : di.dli_fname;
}

/* Whether tensor t's head is ggml's, of type and a 1 x n table. */
static bool
table_head(const void *t, int type, int64_t n)
{
	struct rt_tensor_head h;

	if (t == NULL)
		return false;
	memcpy(&h, t, sizeof h);
	return h.type == type && h.ne[0] == 1 && h.ne[1] == n && h.ne[2] == 1 &&
	    h.ne[3] == 1;
}

/*
 * Whether dev claims get_rows from an f32 table of n values: a claim
 * reads shapes and types only, so no data is made. Not on a runtime of
 * another ABI (the listing says nothing of it; a probe's cases do).
 */
static bool
claims_table(struct rt_ggml *g, void *dev, uint64_t n)
{
	struct rt_init_params ip = { 4 * g->tensor_overhead(), NULL, true };
	void *ctx = g->init(ip), *w, *ids, *op;
	bool yes = false;

	if (ctx == NULL)
		fatal("ggml_init failed");
	w = g->new_tensor_2d(ctx, GGML_TYPE_F32, 1, (int64_t)n);
	if (table_head(w, GGML_TYPE_F32, (int64_t)n)) {
		ids = g->new_tensor_2d(ctx, GGML_TYPE_I32_ID, 1, 1);
		op = ids != NULL ? g->get_rows(ctx, w, ids) : NULL;
		yes = op != NULL && g->dev_supports_op(dev, op);
	}
	g->free(ctx);
	return yes;
}

/*
 * The largest tensor dev claims an operation on, in bytes (to 4 bytes),
 * by bisection: ggml-vulkan refuses any operation one of whose tensors is
 * beyond the device's largest buffer or, without 64-bit indexing in its
 * shaders, its storage-buffer range (supports_op, ggml 0.25.1), and the
 * scheduler and llama.cpp's loader then use the CPU. 0: no limit below
 * RT_CLAIM_MAX, or none found (the smallest table is not claimed).
 */
#define RT_CLAIM_MAX ((uint64_t)1 << 50) /* bytes: 1 PiB */

static uint64_t
claim_limit(struct rt_ggml *g, void *dev)
{
	uint64_t lo = 1, hi = RT_CLAIM_MAX / 4, mid; /* f32 values */

	if (!claims_table(g, dev, lo) || claims_table(g, dev, hi))
		return 0;
	while (hi - lo > 1) { /* lo is claimed, hi is not */
		mid = lo + (hi - lo) / 2;
		if (claims_table(g, dev, mid))
			lo = mid;
		else
			hi = mid;
	}
	return lo * 4;
}

static void
say_device(struct rt_ggml *g, char tag, void *dev)
{
	size_t fr = 0, tot = 0;
	char *n = rt_clean(g->dev_name(dev), 120);
	char *d = rt_clean(g->dev_description(dev), 200);
	char *l = rt_clean(dev_library(g, dev), 120);

	g->dev_memory(dev, &fr, &tot);
	say("%c\t%s\t%s\t%s\t%zu\t%zu\t%s", tag, n, d,
	    dev_type_name(g->dev_type(dev)), fr, tot, l);
	free(n);
	free(d);
	free(l);
}

/* The device the job names, or the first GPU, else the first. */
static void *
pick_device(struct rt_ggml *g, const char *want)
{
	size_t n = g->dev_count(), i;
	void *first_gpu = NULL;
	struct strbuf names = STRBUF_INIT;

	for (i = 0; i < n; i++) {
		void *d = g->dev_get(i);
		int t = g->dev_type(d);

		if (want != NULL && strcmp(g->dev_name(d), want) == 0)
			return d;
		if (first_gpu == NULL && (t == 1 || t == 2))
			first_gpu = d;
		strbuf_addf(&names, "%s%s", i ? ", " : "", g->dev_name(d));
	}
	if (want == NULL && (first_gpu != NULL || n > 0))
		return first_gpu != NULL ? first_gpu : g->dev_get(0);
	fatal(xasprintf("no device named %s in this runtime (it has: %s)",
	    want ? want : "(any)", n ? strbuf_cstr(&names) : "none"));
}

/* ---- one case ---------------------------------------------------------- */

#define RT_ROWS 16 /* weight rows of a probe (experts: each) */
#define RT_PICK 4  /* rows get_rows reads out */
#define RT_EXPERTS 4
#define RT_USED 2    /* experts per token */
#define RT_TOKENS 32 /* tokens of a mul_mat_id probe */

/* One probe's tensors and host data. */
struct rt_run {
	void *ctx, *buf;
	void *w, *x, *ids, *out; /* ggml tensors */
	uint8_t *wdata;		 /* weights, as stored */
	float *wf;		 /* weights, dequantized */
	float *xdata;
	int32_t *idata;
	size_t wbytes, nx, ni, nout;
	float *y;
	double *ref;
};

/* A tensor whose head is not ggml's: another ABI; fatal. */
static void
check_head(const void *t, int type, int64_t n0, int64_t n1, int64_t n2)
{
	struct rt_tensor_head h;

	if (t == NULL)
		fatal("the runtime made no tensor (ggml_new_tensor failed)");
	memcpy(&h, t, sizeof h);
	if (h.type != type || h.ne[0] != n0 || h.ne[1] != n1 || h.ne[2] != n2 ||
	    h.ne[3] != 1)
		fatal("the runtime's tensors are not laid out as gguflint "
		      "expects (type and ne): another ggml ABI");
}

/* Why the runtime cannot take type, or NULL when its geometry agrees. */
static char *
type_mismatch(struct rt_ggml *g, uint32_t type)
{
	const struct ggml_type_info *ti = ggml_type_get(type);
	const char *rn = g->type_name((int)type);
	char buf[16];
	const char *tb = ggml_type_name(type, buf, sizeof buf);
	if (ti == NULL || rn == NULL || strcmp(rn, tb) != 0)
		return xasprintf("this runtime does not know %s (its type %u "
				 "is %s): llama.cpp refuses such a file",
		    tb, type, rn ? rn : "unnamed");
	if (g->blck_size((int)type) != (int64_t)ti->blck ||
	    g->type_size((int)type) != ti->size)
		return xasprintf(
		    "this runtime's %s has another block "
		    "geometry (%lld elements in %zu bytes, not %u in %u)",
		    tb, (long long)g->blck_size((int)type),
		    g->type_size((int)type), ti->blck, ti->size);
	return NULL;
}

/*
 * Whether the runtime's own quantizer can make the probe's blocks of
 * type: then they are quantized from random values, as real weights are
 * (and as ggml's test-backend-ops makes its data); else random valid
 * blocks (probe_fill).
 */
static bool
can_quantize(struct rt_ggml *g, uint32_t type)
{
	return g->quantize_chunk != NULL &&
	    g->quantize_requires_imatrix != NULL && type != GGML_TYPE_F32 &&
	    !g->quantize_requires_imatrix((int)type);
}

/* nrows rows of row elements of type, and their dequantized values. */
static void
make_weights(struct rt_ggml *g, struct rt_run *r, uint32_t type, size_t row,
    size_t nrows, uint64_t *rng)
{
	const struct kernel *dq = kernel_find(KERNEL_DEQUANT, type,
	    KERNEL_ORDER_AS_STORED);
	size_t rb = kernel_row_bytes(type, row), i;
	float *src;

	r->wbytes = rb * nrows;
	r->wdata = xmalloc(r->wbytes);
	r->wf = xmalloc(row * nrows * sizeof *r->wf);
	if (can_quantize(g, type)) {
		src = r->wf; /* scratch: overwritten below */
		probe_fill(GGML_TYPE_F32, (uint8_t *)src, row * nrows, rng);
		g->quantize_chunk((int)type, src, r->wdata, 0, (int64_t)nrows,
		    (int64_t)row, NULL);
	} else
		for (i = 0; i < nrows; i++)
			probe_fill(type, r->wdata + i * rb, row, rng);
	for (i = 0; i < nrows; i++)
		dq->dequant(r->wdata + i * rb, r->wf + i * row, row);
}

static void
make_x(struct rt_run *r, size_t n, uint64_t *rng)
{
	r->nx = n;
	r->xdata = xmalloc(n * sizeof *r->xdata); /* in [-1, 1) */
	probe_fill(GGML_TYPE_F32, (uint8_t *)r->xdata, n, rng);
}

static double
dotd(const float *a, const float *b, size_t n)
{
	double s = 0;
	size_t i;

	for (i = 0; i < n; i++)
		s += (double)a[i] * (double)b[i];
	return s;
}

/* out[m][n] = w[n] . x[m]: RT_ROWS weight rows, RT_BATCH activations. */
static void
build_mul_mat(struct rt_ggml *g, struct rt_run *r, const struct rt_case *c,
    uint64_t *rng)
{
	size_t k = c->row, m, n;

	r->w = g->new_tensor_2d(r->ctx, (int)c->encoding, (int64_t)k, RT_ROWS);
	check_head(r->w, (int)c->encoding, (int64_t)k, RT_ROWS, 1);
	r->x = g->new_tensor_2d(r->ctx, GGML_TYPE_F32, (int64_t)k, RT_BATCH);
	r->out = g->mul_mat(r->ctx, r->w, r->x);
	check_head(r->out, GGML_TYPE_F32, RT_ROWS, RT_BATCH, 1);
	make_weights(g, r, c->encoding, k, RT_ROWS, rng);
	make_x(r, k * RT_BATCH, rng);
	r->nout = RT_ROWS * RT_BATCH;
	r->ref = xmalloc(r->nout * sizeof *r->ref);
	for (m = 0; m < RT_BATCH; m++)
		for (n = 0; n < RT_ROWS; n++)
			r->ref[m * RT_ROWS + n] = dotd(r->wf + n * k,
			    r->xdata + m * k, k);
}

/* out[j] = w[ids[j]]: RT_PICK rows read out of RT_ROWS. */
static void
build_get_rows(struct rt_ggml *g, struct rt_run *r, const struct rt_case *c,
    uint64_t *rng)
{
	static const int32_t pick[RT_PICK] = { 3, 0, 15, 7 };
	size_t k = c->row, j, i;

	r->w = g->new_tensor_2d(r->ctx, (int)c->encoding, (int64_t)k, RT_ROWS);
	check_head(r->w, (int)c->encoding, (int64_t)k, RT_ROWS, 1);
	r->ids = g->new_tensor_2d(r->ctx, GGML_TYPE_I32_ID, RT_PICK, 1);
	r->out = g->get_rows(r->ctx, r->w, r->ids);
	check_head(r->out, GGML_TYPE_F32, (int64_t)k, RT_PICK, 1);
	make_weights(g, r, c->encoding, k, RT_ROWS, rng);
	r->ni = RT_PICK;
	r->idata = xmalloc(sizeof pick);
	memcpy(r->idata, pick, sizeof pick);
	r->nout = k * RT_PICK;
	r->ref = xmalloc(r->nout * sizeof *r->ref);
	for (j = 0; j < RT_PICK; j++)
		for (i = 0; i < k; i++)
			r->ref[j * k + i] = r->wf[(size_t)pick[j] * k + i];
}

/* out[t][u][n] = experts[ids[t][u]][n] . x[t][u]. */
static void
build_mul_mat_id(struct rt_ggml *g, struct rt_run *r, const struct rt_case *c,
    uint64_t *rng)
{
	size_t k = c->row, t, u, n, e;

	r->w = g->new_tensor_3d(r->ctx, (int)c->encoding, (int64_t)k, RT_ROWS,
	    RT_EXPERTS);
	check_head(r->w, (int)c->encoding, (int64_t)k, RT_ROWS, RT_EXPERTS);
	r->x = g->new_tensor_3d(r->ctx, GGML_TYPE_F32, (int64_t)k, RT_USED,
	    RT_TOKENS);
	r->ids = g->new_tensor_2d(r->ctx, GGML_TYPE_I32_ID, RT_USED, RT_TOKENS);
	r->out = g->mul_mat_id(r->ctx, r->w, r->x, r->ids);
	check_head(r->out, GGML_TYPE_F32, RT_ROWS, RT_USED, RT_TOKENS);
	make_weights(g, r, c->encoding, k, RT_ROWS * RT_EXPERTS, rng);
	make_x(r, k * RT_USED * RT_TOKENS, rng);
	r->ni = RT_USED * RT_TOKENS;
	r->idata = xmalloc(r->ni * sizeof *r->idata);
	for (t = 0; t < RT_TOKENS; t++) /* two distinct experts */
		for (u = 0; u < RT_USED; u++)
			r->idata[t * RT_USED + u] = (int32_t)((t + u * 3) %
			    RT_EXPERTS);
	r->nout = RT_ROWS * RT_USED * RT_TOKENS;
	r->ref = xmalloc(r->nout * sizeof *r->ref);
	for (t = 0; t < RT_TOKENS; t++)
		for (u = 0; u < RT_USED; u++)
			for (n = 0; n < RT_ROWS; n++) {
				e = (size_t)r->idata[t * RT_USED + u];
				r->ref[(t * RT_USED + u) * RT_ROWS + n] =
				    dotd(r->wf + (e * RT_ROWS + n) * k,
					r->xdata + (t * RT_USED + u) * k, k);
			}
}

static void
run_free(struct rt_ggml *g, struct rt_run *r)
{
	if (r->buf != NULL)
		g->buffer_free(r->buf);
	if (r->ctx != NULL)
		g->free(r->ctx);
	free(r->wdata);
	free(r->wf);
	free(r->xdata);
	free(r->idata);
	free(r->y);
	free(r->ref);
}

/* NMSE of y against ref; infinite when y is not finite. */
static double
nmse(const float *y, const double *ref, size_t n)
{
	double num = 0, den = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		double d = (double)y[i] - ref[i];

		if (!isfinite(y[i]))
			return INFINITY;
		num += d * d;
		den += ref[i] * ref[i];
	}
	return den > 0 ? num / den : num;
}

static void
answer(size_t idx, enum rt_state st, double e, const char *why)
{
	char *c = rt_clean(why ? why : "", 400);

	say("C\t%zu\t%d\t%.17g\t%s", idx, (int)st, e, c);
	free(c);
}

/* The CPU time this process has used so far (every thread), in s. */
static double
cpu_used(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_SELF, &ru) != 0)
		return 0;
	return (double)ru.ru_utime.tv_sec + (double)ru.ru_stime.tv_sec +
	    (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

/* Run r's claimed operation on the backend and compare; answers it. */
static void
compute_and_compare(struct rt_ggml *g, void *be, size_t idx, struct rt_run *r)
{
	char *why = NULL;
	void *gr;
	double e;
	int st;

	if (g->nbytes(r->w) != r->wbytes)
		fatal("the runtime sizes tensors unlike ggml: another ABI");
	g->tensor_set(r->w, r->wdata, 0, r->wbytes);
	if (r->x != NULL)
		g->tensor_set(r->x, r->xdata, 0, r->nx * sizeof *r->xdata);
	if (r->ids != NULL)
		g->tensor_set(r->ids, r->idata, 0, r->ni * sizeof *r->idata);
	gr = g->new_graph(r->ctx);
	g->build_forward_expand(gr, r->out);
	say("R\t%zu\t%.3f", idx, cpu_used());
	if ((st = g->graph_compute(be, gr)) != 0) {
		why = xasprintf("the computation failed (status %d)", st);
		answer(idx, RT_UNSAFE, 0, why);
		free(why);
		return;
	}
	r->y = xmalloc(r->nout * sizeof *r->y);
	g->tensor_get(r->out, r->y, 0, r->nout * sizeof *r->y);
	e = nmse(r->y, r->ref, r->nout);
	if (e <= RT_TOLERANCE) {
		answer(idx, RT_VERIFIED, e, NULL);
		return;
	}
	why = xasprintf("wrong numbers: NMSE %.3g over the tolerance %.0e", e,
	    RT_TOLERANCE);
	answer(idx, RT_UNSAFE, isfinite(e) ? e : -1, why);
	free(why);
}

/* Build and claim one case, then run it; answers it. */
static void
run_case(struct rt_ggml *g, void *dev, void *be, size_t idx,
    const struct rt_case *c)
{
	struct rt_init_params ip;
	struct rt_run r;
	uint64_t rng = 0x9e3779b97f4a7c15ULL ^ ((uint64_t)c->encoding << 32) ^
	    (uint64_t)c->op << 24 ^ c->row;
	char *why = type_mismatch(g, c->encoding);

	if (why != NULL) {
		answer(idx, RT_UNSAFE, 0, why);
		free(why);
		return;
	}
	memset(&r, 0, sizeof r);
	ip.mem_size = 16 * g->tensor_overhead() + g->graph_overhead();
	ip.mem_buffer = NULL;
	ip.no_alloc = true;
	if ((r.ctx = g->init(ip)) == NULL)
		fatal("ggml_init failed");
	if (c->op == RT_MUL_MAT)
		build_mul_mat(g, &r, c, &rng);
	else if (c->op == RT_GET_ROWS)
		build_get_rows(g, &r, c, &rng);
	else
		build_mul_mat_id(g, &r, c, &rng);
	if (!g->dev_supports_op(dev, r.out))
		answer(idx, RT_FALLBACK, 0,
		    "not claimed: ggml runs it on the "
		    "CPU");
	else if ((r.buf = g->alloc_ctx_tensors(r.ctx, be)) == NULL)
		answer(idx, RT_UNSAFE, 0, "no memory for the probe's tensors");
	else
		compute_and_compare(g, be, idx, &r);
	run_free(g, &r);
}

void
rt_child_main(const struct rt_job *job)
{
	struct rt_ggml g;
	void *dev, *be;
	size_t i;

	if (job->model != NULL)
		rt_llama_main(job);
	out_fd = job->fd;
	load_runtime(&g, job->dir);
	if (job->list) { /* each device, then the limit of each */
		for (i = 0; i < g.dev_count(); i++)
			say_device(&g, 'D', g.dev_get(i));
		for (i = 0; i < g.dev_count(); i++)
			say("L\t%llu\t%zu",
			    (unsigned long long)claim_limit(&g, g.dev_get(i)),
			    i);
		say("Z");
		_exit(0);
	}
	dev = pick_device(&g, job->device);
	say_device(&g, 'U', dev);
	if ((be = g.dev_init(dev, NULL)) == NULL)
		fatal(
		    xasprintf("device %s did not initialise", g.dev_name(dev)));
	for (i = job->first; i < job->n; i++)
		run_case(&g, dev, be, i, &job->cases[i]);
	/* after the cases: a device that hangs in supports_op makes the
	 * case it was on unsafe, not the probe's start */
	say("L\t%llu", (unsigned long long)claim_limit(&g, dev));
	say("Z");
	_exit(0);
}
