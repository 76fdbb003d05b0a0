/*
 * measure.c - the child's side of a measurement (runtime.h's
 * runtime_llama_measure): the model loaded by libllama in no_alloc mode
 * (llama.cpp places every tensor and sizes every buffer, allocates none
 * and reads no tensor data; it needs the file read, not mapped), on the
 * request's device with its -ngl and --n-cpu-moe, then a context made
 * with the request's parameters. Making it, llama.cpp's scheduler
 * reserves the worst-case graph of a ubatch and logs each compute
 * buffer's size in MiB with two decimals ("<buffer type> compute buffer
 * size = 15.01 MiB"); those lines are read from the log and told to the
 * parent (llama-impl.h's C lines).
 *
 * llama_context_params is passed by value like llama_model_params, and
 * is handled the same way (llama.c): the defaults fetched into a larger
 * buffer, a field set only at the offsets of a version of the table
 * below after the defaults read there are that version's.
 */
#include "config.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/llama-impl.h"

/* The defaults' bytes of one llama.cpp version's llama_context_params:
 * the offsets of its fields; bools holds embeddings, offload_kqv,
 * no_perf, op_offload, swa_full and kv_unified (defaults 0 1 1 1 1 0),
 * and zero the byte ranges of its pointers (all 0 by default). */
struct ctx_layout {
	const char *version; /* llama_version() */
	size_t n_ctx, n_batch, n_ubatch, n_seq, threads, fa, type_k, type_v;
	size_t bools;
	size_t zero[3][2];
};

/*
 * v0.5.0 (llama.h of that build), LP64, 160 bytes: n_ctx, n_batch,
 * n_ubatch, n_seq_max (0-15; defaults 512 2048 512 1), n_threads and
 * n_threads_batch (28, 32), flash_attn_type (52), cb_eval and its data
 * (88-103), type_k and type_v (104, 108), abort_callback and its data
 * (112-127), the six bools (128-133), samplers, n_samplers, ctx_other
 * (136-159).
 */
static const struct ctx_layout ctx_layouts[] = {
	{ "0.5.0", 0, 4, 8, 12, 28, 52, 104, 108, 128,
	    { { 88, 104 }, { 112, 128 }, { 136, 160 } } },
	{ "0.5.0-dev", 0, 4, 8, 12, 28, 52, 104, 108, 128,
	    { { 88, 104 }, { 112, 128 }, { 136, 160 } } },
};

static const unsigned char ctx_bools[6] = { 0, 1, 1, 1, 1, 0 };

struct measure_fns {
	struct params_buf (*ctx_defaults)(void);
	void *(*ctx_init)(void *, struct params_buf);
	void (*ctx_free)(void *);
	void (*load_all)(const char *);
	void *(*dev_by_name)(const char *);
	void *(*dev_by_type)(int);
	void *(*dev_buft)(void *);
};

static uint32_t
u32_at(const struct params_buf *p, size_t off)
{
	uint32_t v;

	memcpy(&v, p->b + off, sizeof v);
	return v;
}

static void
set_u32(struct params_buf *p, size_t off, uint32_t v)
{
	memcpy(p->b + off, &v, sizeof v);
}

/* The context parameters' layout of version whose defaults p holds. */
static const struct ctx_layout *
ctx_layout_of(const char *version, const struct params_buf *p)
{
	size_t i;

	for (i = 0; i < sizeof ctx_layouts / sizeof ctx_layouts[0]; i++) {
		const struct ctx_layout *l = &ctx_layouts[i];

		if (strcmp(version, l->version) != 0)
			continue;
		if (u32_at(p, l->n_ctx) == 512 &&
		    u32_at(p, l->n_batch) == 2048 &&
		    u32_at(p, l->n_ubatch) == 512 && u32_at(p, l->n_seq) == 1 &&
		    u32_at(p, l->fa) == UINT32_MAX &&
		    u32_at(p, l->type_k) == 1 && u32_at(p, l->type_v) == 1 &&
		    memcmp(p->b + l->bools, ctx_bools, sizeof ctx_bools) == 0 &&
		    rt_all_zero(p, l->zero[0]) && rt_all_zero(p, l->zero[1]) &&
		    rt_all_zero(p, l->zero[2]))
			return l;
	}
	return NULL;
}

/* libllama's context entries and libggml's device registry (libllama's
 * dependencies: dlsym on its handle finds them). */
static void
bind_measure(void *lib, struct measure_fns *mf)
{
	RT_BIND(lib, mf->ctx_defaults, "llama_context_default_params");
	RT_BIND(lib, mf->ctx_init, "llama_init_from_model");
	RT_BIND(lib, mf->ctx_free, "llama_free");
	RT_BIND(lib, mf->load_all, "ggml_backend_load_all_from_path");
	RT_BIND(lib, mf->dev_by_name, "ggml_backend_dev_by_name");
	RT_BIND(lib, mf->dev_by_type, "ggml_backend_dev_by_type");
	RT_BIND(lib, mf->dev_buft, "ggml_backend_dev_buffer_type");
}

/* ---- the log ------------------------------------------------------------ */

static char log_line[1024];
static size_t log_len;

/* One line of llama.cpp's log: a compute buffer's size, or the context's
 * cells ("llama_context: n_ctx = 4096"). */
static void
read_line(const char *l)
{
	static const char key[] = " compute buffer size = ";
	const char *k = strstr(l, key), *b;
	unsigned n;
	char *msg;

	if (k != NULL) {
		double mib = strtod(k + sizeof key - 1, NULL);

		for (b = k; b > l && b[-1] != ' ' && b[-1] != ':'; b--)
			;
		if (k - b == 0 || k - b > 31 || !(mib >= 0 && mib < 1e12))
			return;
		msg = xasprintf("%.*s %.0f", (int)(k - b), b, mib * 1048576.0);
		rt_tell('C', msg);
		free(msg);
		return;
	}
	if (sscanf(l, "llama_context: n_ctx = %u", &n) == 1) {
		msg = xasprintf("%u", n);
		rt_tell('X', msg);
		free(msg);
	}
}

static void
on_measure_log(int level, const char *text, void *ud)
{
	(void)ud;
	rt_note_error(level, text);
	for (; text != NULL && *text != '\0'; text++) {
		if (*text == '\n' || log_len == sizeof log_line - 1) {
			log_line[log_len] = '\0';
			read_line(log_line);
			log_len = 0;
			if (*text == '\n')
				continue;
		}
		log_line[log_len++] = *text;
	}
}

/* ---- the load and the context ------------------------------------------ */

#if defined(__x86_64__) || defined(__aarch64__)

/* --n-cpu-moe's overrides: llama-cli's pattern, one a layer, every one to
 * the CPU's buffer type; NULL-terminated (into pats and ov, n + 1 each). */
struct override {
	const char *pattern;
	void *buft;
};

static struct override *
cpu_moe_overrides(const struct measure_fns *mf, int32_t n, char ***pats)
{
	struct override *ov = xcalloc((size_t)n + 1, sizeof *ov);
	void *cpu = mf->dev_by_type(0); /* GGML_BACKEND_DEVICE_TYPE_CPU */
	int32_t i;

	if (cpu == NULL)
		rt_tell_end('E', "the runtime has no CPU device");
	*pats = xcalloc((size_t)n + 1, sizeof **pats);
	for (i = 0; i < n; i++) {
		(*pats)[i] = xasprintf("blk\\.%d\\.ffn_(up|down|gate|gate_up)_"
				       "(ch|)exps",
		    (int)i);
		ov[i].pattern = (*pats)[i];
		ov[i].buft = mf->dev_buft(cpu);
	}
	return ov;
}

/* The model parameters for rq: no_alloc, the file read, its device. */
static struct params_buf
model_params(const struct llama_fns *fn, const struct measure_fns *mf,
    const struct rt_measure_req *rq, void *devs[2], struct override **ov,
    char ***pats)
{
	const char *ver = fn->version();
	const struct params_layout *l;
	struct params_buf p = fn->defaults();
	int32_t lm = 0;

	if (ver == NULL || (l = rt_model_layout(ver, &p)) == NULL)
		rt_tell_end('N',
		    "gguflint does not know the layout of "
		    "llama_model_params of this llama.cpp");
	devs[0] = devs[1] = NULL;
	if (rq->device != NULL &&
	    (devs[0] = mf->dev_by_name(rq->device)) == NULL) {
		char *why = xasprintf("the runtime has no device %s",
		    rq->device);
		rt_tell_end('N', why);
	}
	memcpy(p.b + l->devices, &devs, sizeof(void **)); /* an array */
	if (rq->n_cpu_moe > 0) {
		*ov = cpu_moe_overrides(mf, rq->n_cpu_moe, pats);
		memcpy(p.b + l->overrides, ov, sizeof *ov);
	}
	memcpy(p.b + l->gpu_layers, &rq->ngl, sizeof rq->ngl);
	memcpy(p.b + l->load_mode, &lm, sizeof lm);
	p.b[l->no_alloc] = 1;
	return p;
}

/* The context parameters for rq. */
static struct params_buf
ctx_params(const struct llama_fns *fn, const struct measure_fns *mf,
    const struct rt_measure_req *rq)
{
	const char *ver = fn->version();
	struct params_buf p = mf->ctx_defaults();
	const struct ctx_layout *l;

	if (ver == NULL || (l = ctx_layout_of(ver, &p)) == NULL)
		rt_tell_end('N',
		    "gguflint does not know the layout of "
		    "llama_context_params of this llama.cpp");
	set_u32(&p, l->n_ctx, rq->n_ctx);
	set_u32(&p, l->n_batch, rq->n_batch);
	set_u32(&p, l->n_ubatch, rq->n_ubatch);
	set_u32(&p, l->n_seq, rq->n_seq);
	set_u32(&p, l->threads, 1);
	set_u32(&p, l->threads + 4, 1);
	set_u32(&p, l->fa, rq->flash_attn ? 1 : 0); /* enabled, disabled */
	set_u32(&p, l->type_k, (uint32_t)rq->type_k);
	set_u32(&p, l->type_v, (uint32_t)rq->type_v);
	p.b[l->bools + 4] = rq->swa_full;
	p.b[l->bools + 5] = 0; /* kv_unified: the plan's a stream a sequence */
	return p;
}

void
rt_measure_child(const struct llama_fns *fn, const char *dir, const char *path,
    const struct rt_measure_req *rq)
{
	const char *ver = fn->version();
	struct measure_fns mf;
	struct params_buf mp, cp;
	struct override *ov = NULL;
	char **pats = NULL;
	void *devs[2], *m, *c;

	rt_tell('L', ver ? ver : "unknown");
	bind_measure(fn->lib, &mf);
	fn->log_set(on_measure_log, NULL);
	fn->backend_init();
	mf.load_all(dir);
	mp = model_params(fn, &mf, rq, devs, &ov, &pats);
	cp = ctx_params(fn, &mf, rq);
	if ((m = fn->load(path, mp)) == NULL)
		rt_tell_end('R',
		    rt_first_error()[0] ? rt_first_error() : "the load failed");
	if ((c = mf.ctx_init(m, cp)) == NULL)
		rt_tell_end('R',
		    rt_first_error()[0] ? rt_first_error() :
					  "the context failed");
	mf.ctx_free(c);
	fn->model_free(m);
	rt_tell_end('A', "");
}
#else
void
rt_measure_child(const struct llama_fns *fn, const char *dir, const char *path,
    const struct rt_measure_req *rq)
{
	(void)dir;
	(void)path;
	(void)rq;
	rt_tell('L', fn->version());
	rt_tell_end('N',
	    "gguflint passes llama.cpp's parameters only on x86-64 "
	    "and AArch64");
}
#endif
