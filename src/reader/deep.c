/*
 * deep.c - the deep scan (see deep.h). Work is cut into items: for each
 * tensor one hashing item (SHA-256 is sequential) and one decoding or
 * screening item per chunk of about 1 MiB of rows. Workers take items from
 * a shared counter; each item keeps partial statistics merged into its
 * tensor's under a lock. Every item reads the data through its worker's
 * view (a mapping of a few MiB, source.h) under guard_call(), so that a
 * file truncated meanwhile marks the tensor truncated instead of
 * crashing. Without the full statistics the scan has two rounds: the
 * screens, then the decoding of the tensors they could not clear.
 */
#include "config.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "reader/deep.h"
#include "kernels/ggml-types.h"
#include "base/guard.h"
#include "kernels/kernels.h"
#include "base/sha256.h"
#include "source/source.h"

#define CHUNK_BYTES (1u << 20)

enum item_kind {
	ITEM_HASH,		/* SHA-256 of the tensor's bytes */
	ITEM_DECODE,		/* decode a range of rows */
	ITEM_SCREEN,		/* screen a range of rows (kernel_screen) */
	ITEM_ZERO_SCALE		/* count the zero-scale blocks of a range of
				 * rows, of a type no kernel decodes */
};

struct item {
	size_t tensor;
	enum item_kind kind;
	uint64_t row0, rows;	/* decoding and screening: a range of rows */
};

struct deep_job {
	const struct gguf_file *f;
	struct deep_stats *stats;
	struct item *items;
	size_t n_items;
	size_t next;		/* the next item to take */
	bool full;		/* sums and hashes too, for the JSON report */
	pthread_mutex_t lock;
	const struct deep_progress *progress;	/* or NULL */
	uint64_t done, total;	/* bytes of the items, for progress */
};

/* Hashing reads a tensor through views of this many bytes at a time. */
#define HASH_PIECE (8u << 20)

/* Whether tensor i's bytes lie inside the file; *off, where they start. */
static bool
tensor_in_file(const struct gguf_file *f, size_t i, uint64_t *off)
{
	const struct gguf_tensor *t = &f->tensors[i];

	return t->size_ok && source_can_view(&f->src) &&
	    !u64_add_overflow(f->data_offset, t->offset, off) &&
	    *off <= f->size && t->nbytes <= f->size - *off;
}

/* Partial statistics of one decoding or screening item. */
struct part {
	uint64_t nonfinite, zeros, finite;
	double min, max, sum, sum_sq;
	double bound;		/* screening: kernel_screen's */
	bool nonzero;		/* screening: a value is not zero */
	uint64_t zs_hidden, zs_benign;	/* kernel_zero_scale's */
};

/* The careful path: one value at a time, skipping NaN and infinities. */
static void
part_add_slow(struct part *p, const float *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		double x = v[i];

		if (!isfinite(x)) {
			p->nonfinite++;
			continue;
		}
		p->zeros += x == 0;
		if (p->finite++ == 0 || x < p->min)
			p->min = x;
		if (p->finite == 1 || x > p->max)
			p->max = x;
		p->sum += x;
		p->sum_sq += x * x;
	}
}

/* Fold a row's fast-path results into p, or redo it carefully. */
static void
part_fold(struct part *p, const float *v, size_t n, double sum, double sq,
    float lo, float hi, uint64_t zeros)
{
	if (!isfinite(sum) || !isfinite(sq) || !isfinite(lo) || !isfinite(hi)) {
		part_add_slow(p, v, n);
		return;
	}
	if (n > 0) {
		if (p->finite == 0 || lo < p->min)
			p->min = lo;
		if (p->finite == 0 || hi > p->max)
			p->max = hi;
	}
	p->finite += n;
	p->zeros += zeros;
	p->sum += sum;
	p->sum_sq += sq;
}

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define DEEP_HAVE_AVX2 1

/* The least and the greatest of eight lanes (none NaN, or a row redone). */
__attribute__((target("avx2")))
static float
lanes_min(__m256 x)
{
	float f[8], m;
	unsigned k;

	_mm256_storeu_ps(f, x);
	for (m = f[0], k = 1; k < 8; k++)
		m = f[k] < m ? f[k] : m;
	return m;
}

__attribute__((target("avx2")))
static float
lanes_max(__m256 x)
{
	float f[8], m;
	unsigned k;

	_mm256_storeu_ps(f, x);
	for (m = f[0], k = 1; k < 8; k++)
		m = f[k] > m ? f[k] : m;
	return m;
}

/* The same with AVX2: eight floats a step, sums in four double lanes. */
__attribute__((target("avx2")))
static void
part_add_avx2(struct part *p, const float *v, size_t n)
{
	__m256d s0 = _mm256_setzero_pd(), s1 = s0, q0 = s0, q1 = s0;
	__m256 lo8 = _mm256_set1_ps(v[0]), hi8 = lo8;
	__m256 zero = _mm256_setzero_ps();
	double sum, sq, lane[4];
	float lo, hi;
	uint64_t zeros = 0;
	size_t i;

	for (i = 0; i + 8 <= n; i += 8) {
		__m256 x = _mm256_loadu_ps(v + i);
		__m256d a = _mm256_cvtps_pd(_mm256_castps256_ps128(x));
		__m256d b = _mm256_cvtps_pd(_mm256_extractf128_ps(x, 1));

		s0 = _mm256_add_pd(s0, a);
		s1 = _mm256_add_pd(s1, b);
		q0 = _mm256_add_pd(q0, _mm256_mul_pd(a, a));
		q1 = _mm256_add_pd(q1, _mm256_mul_pd(b, b));
		lo8 = _mm256_min_ps(lo8, x);
		hi8 = _mm256_max_ps(hi8, x);
		zeros += (uint64_t)__builtin_popcount((unsigned)
		    _mm256_movemask_ps(_mm256_cmp_ps(x, zero, _CMP_EQ_OQ)));
	}
	_mm256_storeu_pd(lane, _mm256_add_pd(s0, s1));
	sum = (lane[0] + lane[1]) + (lane[2] + lane[3]);
	_mm256_storeu_pd(lane, _mm256_add_pd(q0, q1));
	sq = (lane[0] + lane[1]) + (lane[2] + lane[3]);
	lo = lanes_min(lo8);
	hi = lanes_max(hi8);
	/* GCC leaves the upper halves dirty on the tail call to part_fold;
	 * the SHA-256 code (legacy SSE) then runs at half speed */
	_mm256_zeroupper();
	for (; i < n; i++) {
		sum += v[i];
		sq += (double)v[i] * v[i];
		zeros += v[i] == 0;
		lo = v[i] < lo ? v[i] : lo;
		hi = v[i] > hi ? v[i] : hi;
	}
	/* min/max skip NaN; a NaN still shows in the sums */
	part_fold(p, v, n, sum, sq, lo, hi, zeros);
}

/*
 * Only what the D rules need (no sums): eight at a time. x - x is 0 for a
 * finite x and NaN otherwise; their sum shows a row to redo carefully.
 */
__attribute__((target("avx2")))
static void
part_scan_avx2(struct part *p, const float *v, size_t n)
{
	__m256 lo8 = _mm256_set1_ps(v[0]), hi8 = lo8;
	__m256 zero = _mm256_setzero_ps(), bad8 = zero;
	float lo, hi, bad, f[8];
	uint64_t zeros = 0;
	size_t i;

	for (i = 0; i + 8 <= n; i += 8) {
		__m256 x = _mm256_loadu_ps(v + i);

		lo8 = _mm256_min_ps(lo8, x);
		hi8 = _mm256_max_ps(hi8, x);
		bad8 = _mm256_add_ps(bad8, _mm256_sub_ps(x, x));
		zeros += (uint64_t)__builtin_popcount((unsigned)
		    _mm256_movemask_ps(_mm256_cmp_ps(x, zero, _CMP_EQ_OQ)));
	}
	_mm256_storeu_ps(f, bad8);
	bad = ((f[0] + f[1]) + (f[2] + f[3])) + ((f[4] + f[5]) + (f[6] + f[7]));
	lo = lanes_min(lo8);
	hi = lanes_max(hi8);
	_mm256_zeroupper();	/* as in part_add_avx2 */
	for (; i < n; i++) {
		bad += v[i] - v[i];
		zeros += v[i] == 0;
		lo = v[i] < lo ? v[i] : lo;
		hi = v[i] > hi ? v[i] : hi;
	}
	part_fold(p, v, n, bad, 0, lo, hi, zeros);
}
#endif

/* The same, one value at a time (a CPU without AVX2). */
static void
part_scan(struct part *p, const float *v, size_t n)
{
	float lo = v[0], hi = v[0], bad = 0;
	uint64_t zeros = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		bad += v[i] - v[i];
		zeros += v[i] == 0;
		lo = v[i] < lo ? v[i] : lo;
		hi = v[i] > hi ? v[i] : hi;
	}
	part_fold(p, v, n, bad, 0, lo, hi, zeros);
}

/*
 * Statistics of one row. The fast path keeps four independent sums (so the
 * adds pipeline) and no branches; a row with a NaN or an infinity shows in
 * its sums and is done again carefully. AVX2 does eight at a time where
 * the CPU has it.
 */
static void
part_add(struct part *p, const float *v, size_t n)
{
	double s[4] = { 0, 0, 0, 0 }, q[4] = { 0, 0, 0, 0 };
	float lo = v[0], hi = v[0];
	uint64_t zeros = 0;
	size_t i;

	for (i = 0; i + 4 <= n; i += 4) {
		unsigned k;

		for (k = 0; k < 4; k++) {
			double x = v[i + k];

			s[k] += x;
			q[k] += x * x;
			zeros += v[i + k] == 0;
			lo = v[i + k] < lo ? v[i + k] : lo;
			hi = v[i + k] > hi ? v[i + k] : hi;
		}
	}
	for (; i < n; i++) {
		double x = v[i];

		s[0] += x;
		q[0] += x * x;
		zeros += v[i] == 0;
		lo = v[i] < lo ? v[i] : lo;
		hi = v[i] > hi ? v[i] : hi;
	}
	part_fold(p, v, n, (s[0] + s[1]) + (s[2] + s[3]),
	    (q[0] + q[1]) + (q[2] + q[3]), lo, hi, zeros);
}

/*
 * The statistics functions this CPU runs: all of them, and the D rules'.
 * Set once per process (part_once), by the first deep_scan of any thread.
 */
static void (*part_rows)(struct part *, const float *, size_t);
static void (*part_scan_rows)(struct part *, const float *, size_t);
static pthread_once_t part_once = PTHREAD_ONCE_INIT;

static void
part_choose(void)
{
	part_rows = part_add;
	part_scan_rows = part_scan;
#ifdef DEEP_HAVE_AVX2
	__builtin_cpu_init();
	if (__builtin_cpu_supports("avx2") && getenv("GGUFLINT_NO_AVX2") ==
	    NULL) {
		part_rows = part_add_avx2;
		part_scan_rows = part_scan_avx2;
	}
#endif
}

struct work {
	struct deep_job *job;
	const struct item *it;
	float *buf;		/* one row of floats */
	uint8_t *le;		/* a big-endian file's item, converted */
	size_t le_cap;
	struct part part;
	struct source_view view;	/* this worker's window on the data */
};

/*
 * len bytes of tensor i's data from byte at on, through w's view. A range
 * that cannot be seen (the mapping failed) is treated as a file that
 * shrank: the item is abandoned, as the guard abandons it on a fault.
 */
static const uint8_t *
data_at(struct work *w, size_t i, uint64_t at, uint64_t len)
{
	const struct gguf_file *f = w->job->f;
	const uint8_t *p;
	uint64_t off;

	if (!tensor_in_file(f, i, &off) ||
	    (p = source_view_get(&f->src, &w->view, off + at, len)) == NULL)
		guard_abandon();	/* the item's guard_call returns -1 */
	return p;
}

/*
 * The bytes of the item's rows as the kernels read them: in place, or, in a
 * big-endian file, converted into w->le (plan_items only decodes the types
 * kernel_from_be converts).
 */
static const uint8_t *
item_rows(struct work *w, uint64_t row_bytes)
{
	const struct gguf_file *f = w->job->f;
	const struct gguf_tensor *t = &f->tensors[w->it->tensor];
	size_t bytes = (size_t)(w->it->rows * row_bytes);
	const uint8_t *p = data_at(w, w->it->tensor, w->it->row0 * row_bytes,
	    bytes);

	if (!f->big_endian)
		return p;
	if (bytes > w->le_cap) {
		free(w->le);
		w->le = xmalloc(bytes);
		w->le_cap = bytes;
	}
	kernel_from_be(t->type, p, w->le, (size_t)(w->it->rows *
	    (uint64_t)t->ne[0]));
	return w->le;
}

/* Whether any of v[0..n) is not zero (a NaN is not). */
static bool
any_nonzero(const float *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (v[i] != 0)
			return true;
	return false;
}

/* What a decoding or screening item reads. */
struct item_view {
	uint32_t type;
	size_t ne0;			/* elements a row */
	uint64_t row_bytes;
	const struct kernel *k;		/* the type's dequantizer */
	const uint8_t *rows;		/* as the kernels read them */
};

static void
item_view(struct work *w, struct item_view *v)
{
	const struct gguf_tensor *t = &w->job->f->tensors[w->it->tensor];
	const struct ggml_type_info *ti = ggml_type_get(t->type);

	v->type = t->type;
	v->ne0 = (size_t)t->ne[0];
	v->row_bytes = (uint64_t)t->ne[0] / ti->blck * ti->size;
	v->k = kernel_find(KERNEL_DEQUANT, t->type, KERNEL_ORDER_AS_STORED);
	v->rows = item_rows(w, v->row_bytes);
}

/* The zero-scale blocks of the item's rows (none for most types). */
static void
count_zero_scale(struct work *w, const struct item_view *v)
{
	struct kernel_zero_scale z = { 0, 0 };

	if (kernel_zero_scale(v->type, v->rows, (size_t)(w->it->rows *
	    v->ne0), &z)) {
		w->part.zs_hidden = z.hidden;
		w->part.zs_benign = z.benign;
	}
}

static void
zero_scale_item(struct work *w)
{
	struct item_view v;

	item_view(w, &v);
	count_zero_scale(w, &v);
}

static void
decode_item(struct work *w)
{
	struct item_view v;
	uint64_t r;

	item_view(w, &v);
	count_zero_scale(w, &v);
	for (r = 0; r < w->it->rows; r++) {
		const uint8_t *row = v.rows + r * v.row_bytes;

		v.k->dequant(row, w->buf, v.ne0);
		kernel_mark_invalid(v.type, row, w->buf, v.ne0);
		(w->job->full ? part_rows : part_scan_rows)(&w->part, w->buf,
		    v.ne0);
	}
}

/*
 * The screen of a range of rows: exact non-finite count and a bound. When a
 * block may hold a nonzero value, decode rows until one does: that decides
 * D002 for the tensor, in one row in practice.
 */
static void
screen_item(struct work *w)
{
	struct kernel_screen s = { 0, 0, false, false };
	struct item_view v;
	uint64_t r;

	item_view(w, &v);
	count_zero_scale(w, &v);
	if (!kernel_screen(v.type, v.rows, (size_t)(w->it->rows * v.ne0),
	    &s)) {
		decode_item(w);	/* not reached: plan_items checked the type */
		return;
	}
	w->part.nonfinite = s.nonfinite;
	w->part.bound = s.bound;
	w->part.nonzero = s.nonzero;
	for (r = 0; s.maybe_nonzero && !w->part.nonzero && r < w->it->rows;
	    r++) {
		v.k->dequant(v.rows + r * v.row_bytes, w->buf, v.ne0);
		w->part.nonzero = any_nonzero(w->buf, v.ne0);
	}
}

static void
hash_item(struct work *w)
{
	const struct gguf_file *f = w->job->f;
	const struct gguf_tensor *t = &f->tensors[w->it->tensor];
	struct deep_stats *s = &w->job->stats[w->it->tensor];
	uint8_t digest[32];
	struct sha256 ctx;
	uint64_t at, n;

	sha256_init(&ctx);
	for (at = 0; at < t->nbytes; at += n) {
		n = t->nbytes - at < HASH_PIECE ? t->nbytes - at : HASH_PIECE;
		sha256_update(&ctx, data_at(w, w->it->tensor, at, n),
		    (size_t)n);
	}
	sha256_final(&ctx, digest);
	sha256_hex(digest, s->sha256);
}

static void
run_item(void *arg)
{
	struct work *w = arg;

	switch (w->it->kind) {
	case ITEM_HASH:
		hash_item(w);
		break;
	case ITEM_DECODE:
		decode_item(w);
		break;
	case ITEM_SCREEN:
		screen_item(w);
		break;
	case ITEM_ZERO_SCALE:
		zero_scale_item(w);
		break;
	}
}

static void
merge(struct deep_stats *s, const struct part *p)
{
	if (p->finite > 0) {
		if (s->finite == 0 || p->min < s->min)
			s->min = p->min;
		if (s->finite == 0 || p->max > s->max)
			s->max = p->max;
	}
	s->finite += p->finite;
	s->nonfinite += p->nonfinite;
	s->zeros += p->zeros;
	s->sum += p->sum;
	s->sum_sq += p->sum_sq;
	s->bound = fmax(s->bound, p->bound);
	s->zs_hidden += p->zs_hidden;
	s->zs_benign += p->zs_benign;
	if (p->nonzero)
		s->all_zero = false;
}

/* The bytes item it reads (what progress counts). */
static uint64_t
item_bytes(const struct gguf_file *f, const struct item *it)
{
	const struct gguf_tensor *t = &f->tensors[it->tensor];
	const struct ggml_type_info *ti = ggml_type_get(t->type);

	if (it->kind == ITEM_HASH)
		return t->nbytes;
	return it->rows * ((uint64_t)t->ne[0] / ti->blck * ti->size);
}

/* Tell the progress callback, if any (job->lock held or no worker). */
static void
tell(const struct deep_job *job)
{
	if (job->progress != NULL && job->progress->fn != NULL)
		job->progress->fn(job->progress->arg, job->done, job->total);
}

static void *
worker(void *arg)
{
	struct deep_job *job = arg;
	struct work w;
	size_t cap = 0, i;

	memset(&w, 0, sizeof w);
	w.job = job;
	for (;;) {
		const struct gguf_tensor *t;

		pthread_mutex_lock(&job->lock);
		i = job->next++;
		pthread_mutex_unlock(&job->lock);
		if (i >= job->n_items)
			break;
		w.it = &job->items[i];
		t = &job->f->tensors[w.it->tensor];
		if (w.it->kind != ITEM_HASH && (size_t)t->ne[0] > cap) {
			cap = (size_t)t->ne[0];
			free(w.buf);
			w.buf = xmalloc(cap * sizeof *w.buf);
		}
		memset(&w.part, 0, sizeof w.part);
		if (guard_call(run_item, &w) < 0) {
			pthread_mutex_lock(&job->lock);
			job->stats[w.it->tensor].truncated = true;
			pthread_mutex_unlock(&job->lock);
			continue;
		}
		pthread_mutex_lock(&job->lock);
		if (w.it->kind != ITEM_HASH)
			merge(&job->stats[w.it->tensor], &w.part);
		job->done += item_bytes(job->f, w.it);
		tell(job);
		pthread_mutex_unlock(&job->lock);
	}
	source_view_release(&w.view);
	free(w.buf);
	free(w.le);
	return NULL;
}

static void
add_item(struct deep_job *job, size_t *cap, struct item it)
{
	if (job->n_items == *cap) {
		*cap = *cap ? *cap * 2 : 64;
		job->items = xreallocarray(job->items, *cap,
		    sizeof *job->items);
	}
	job->items[job->n_items++] = it;
	job->total += item_bytes(job->f, &it);
}

/* Items of kind for tensor i's rows, each about CHUNK_BYTES. */
static void
add_row_items(struct deep_job *job, size_t *cap, size_t i,
    enum item_kind kind)
{
	const struct gguf_tensor *t = &job->f->tensors[i];
	const struct ggml_type_info *ti = ggml_type_get(t->type);
	uint64_t row_bytes = (uint64_t)t->ne[0] / ti->blck * ti->size;
	uint64_t rows = t->nbytes / row_bytes, per, r;
	struct item it = { i, kind, 0, 0 };

	per = row_bytes >= CHUNK_BYTES ? 1 : CHUNK_BYTES / row_bytes;
	for (r = 0; r < rows; r += per) {
		it.row0 = r;
		it.rows = rows - r < per ? rows - r : per;
		add_item(job, cap, it);
	}
}

/*
 * The first round: one hashing item per readable tensor (for the full
 * statistics), and screening items (without them, where the type has a
 * screen) or decoding items where a kernel can dequantize it; both count
 * the zero-scale blocks, which a type no kernel decodes (q8_1) has items
 * of its own for.
 */
static void
plan_items(struct deep_job *job)
{
	const struct gguf_file *f = job->f;
	size_t cap = 0, i;

	for (i = 0; i < f->tensors_n; i++) {
		const struct gguf_tensor *t = &f->tensors[i];
		const struct ggml_type_info *ti = ggml_type_get(t->type);
		struct deep_stats *s = &job->stats[i];
		struct item it = { i, ITEM_HASH, 0, 0 };
		uint64_t off;

		if (!tensor_in_file(f, i, &off))
			continue;
		s->count = t->nbytes / ti->size * ti->blck;
		if (job->full) {
			s->scanned = true;
			add_item(job, &cap, it);
		}
		if (t->nbytes == 0 || (f->big_endian &&
		    !kernel_be_known(t->type)))
			continue;
		if (kernel_find(KERNEL_DEQUANT, t->type,
		    KERNEL_ORDER_AS_STORED) == NULL) {
			if (!kernel_zero_scale_has(t->type))
				continue;
			s->scanned = true;	/* q8_1: its blocks only */
			add_row_items(job, &cap, i, ITEM_ZERO_SCALE);
			continue;
		}
		s->scanned = s->dequantized = true;
		s->exact = job->full || !kernel_screen_has(t->type);
		s->all_zero = !s->exact;	/* until a value is not */
		add_row_items(job, &cap, i, s->exact ? ITEM_DECODE :
		    ITEM_SCREEN);
	}
}

/* The second round: decode the screened tensors whose bound passes
 * DEEP_RANGE_LIMIT, so that D003 reports their exact range. */
static void
plan_exact(struct deep_job *job)
{
	size_t cap = 0, i;

	job->n_items = job->next = 0;
	for (i = 0; i < job->f->tensors_n; i++) {
		struct deep_stats *s = &job->stats[i];

		if (!s->dequantized || s->exact || s->truncated ||
		    s->bound <= DEEP_RANGE_LIMIT)
			continue;
		s->nonfinite = 0;
		s->bound = 0;
		s->zs_hidden = s->zs_benign = 0;	/* counted again */
		s->exact = true;
		add_row_items(job, &cap, i, ITEM_DECODE);
	}
}

/* Run the planned items on up to threads workers, the caller one of them. */
static void
run_items(struct deep_job *job, unsigned threads)
{
	pthread_t tid[64];
	unsigned n, i;

	n = threads ? threads : (unsigned)sysconf(_SC_NPROCESSORS_ONLN);
	if (n < 1)
		n = 1;
	if (n > 64)
		n = 64;
	if (n > job->n_items)
		n = job->n_items ? (unsigned)job->n_items : 1;
	for (i = 1; i < n; i++)
		if (pthread_create(&tid[i], NULL, worker, job) != 0)
			break;
	worker(job);	/* the calling thread works too */
	while (--i > 0)
		pthread_join(tid[i], NULL);
}

/* What follows from the counts: finite values, all zero, the bound. */
static void
finish(struct deep_stats *s)
{
	if (!s->dequantized)
		return;
	if (s->exact) {
		s->all_zero = s->count > 0 && s->zeros == s->count;
		s->bound = s->finite > 0 ? fmax(fabs(s->min), fabs(s->max)) :
		    0;
	} else
		s->finite = s->count - s->nonfinite;
	/* a block with an invalid scale is NaN, whatever its kernel wrote;
	 * and what a truncated scan did not read is unknown */
	s->all_zero = s->all_zero && s->count > 0 && s->nonfinite == 0 &&
	    !s->truncated;
}

void
deep_scan(const struct gguf_file *f, struct deep_stats *stats,
    unsigned threads, bool full)
{
	deep_scan_progress(f, stats, threads, full, NULL);
}

void
deep_scan_progress(const struct gguf_file *f, struct deep_stats *stats,
    unsigned threads, bool full, const struct deep_progress *p)
{
	struct deep_job job;
	size_t i;

	pthread_once(&part_once, part_choose);	/* before any worker starts */
	memset(stats, 0, f->tensors_n * sizeof *stats);
	memset(&job, 0, sizeof job);
	job.f = f;
	job.stats = stats;
	job.full = full;
	job.progress = p;
	pthread_mutex_init(&job.lock, NULL);
	plan_items(&job);
	tell(&job);
	run_items(&job, threads);
	if (!full) {
		plan_exact(&job);
		if (job.n_items > 0)
			run_items(&job, threads);
	}
	for (i = 0; i < f->tensors_n; i++)
		finish(&stats[i]);
	pthread_mutex_destroy(&job.lock);
	free(job.items);
}
