/*
 * captable.h - kernel capability tables: per backend, which (operation,
 * weight encoding, input type, byte order) its kernels can feed, each entry
 * naming the kernel (kernels/NAME.yaml, compiled in; a profile names its
 * table). A table is never trusted as written: captable_probe() runs every
 * entry's kernel once on deterministic probe data and compares it with the
 * reference; an entry without a kernel, or whose kernel disagrees, is left
 * out of the verified set and reported (K001).
 */
#ifndef GGUFLINT_CAPTABLE_H
#define GGUFLINT_CAPTABLE_H

#include <stdbool.h>
#include <stdint.h>

#include "base/error.h"
#include "kernels/kernels.h"

enum cap_op {
	CAP_MATMUL = 0,		/* a weight times activations: a dot kernel */
	CAP_GET_ROWS		/* rows read out (embeddings): a dequantizer */
};

/*
 * What a ggml runtime said of an entry: nothing (only gguflint's own
 * kernels checked it), or, probed now or recorded in the table
 * (--write-kernels), verified, falls back to the CPU, or unsafe.
 */
enum cap_state {
	CAP_REFERENCE_ONLY = 0,
	CAP_RT_VERIFIED,
	CAP_RT_FALLBACK,
	CAP_RT_UNSAFE
};

/*
 * Where a table's runtime verdicts come from: the runtime, its version and
 * commit, the device and its description (ggml's; for a GPU it names the
 * driver), the date. All NULL for a table no runtime checked.
 */
struct cap_provenance {
	char *runtime_dir;	/* runtime_dir: the folder of the libraries */
	char *version, *commit;
	char *device, *description, *driver;
	char *date;
};

#define PROBE_ELEMENTS 1024	/* a row of every block size divides it */
#define PROBE_TOLERANCE 1e-4	/* |got - ref| / (1 + sum |w x|) */

struct cap_entry {
	enum cap_op op;
	uint32_t encoding;		/* ggml type id of the weights */
	uint32_t input;			/* ggml type id of the activations */
	enum kernel_order order;
	char *kernel_name;
	size_t line, col;		/* where the entry is in its file */
	/* filled by captable_probe() */
	const struct kernel *kernel;
	bool probed;
	bool verified;
	double max_error;
	double probe_us;
	char *error;			/* why it is not verified, or NULL */
	/* what a runtime said (state:, nmse:, reason: in the file) */
	enum cap_state state;
	double nmse;
	char *reason;			/* the runtime's, or NULL */
};

struct captable {
	char *name;
	char *description;
	char *origin;
	struct cap_entry *entries;
	size_t n;
	double probe_us;		/* the whole table */
	struct cap_provenance prov;	/* recorded: in the file */
	bool recorded;			/* the file has a recorded: section */
	bool live;			/* probed on a runtime in this run */
	double runtime_ms;		/* live: the runtime probe's time */
	size_t runtime_cached;		/* live: answers from the cache */
};

/*
 * captable_load: NAME is a built-in table name (one in the data directory
 * counts), or a path to a YAML file (anything containing '/' or ending in
 * ".yaml"; at most 1 MiB). Returns 0 with t filled, unprobed (free it with
 * captable_free()), or -1 with nothing to free and err set:
 * GL_ERR_NOT_FOUND "unknown capability table" for a name there is no table
 * of, GL_ERR_IO or GL_ERR_LIMIT when the file cannot be read, GL_ERR_PARSE
 * naming file:line:col and what was expected. err may be NULL (error.h).
 */
int captable_load(const char *name, struct captable *t, struct gl_error *err);
/*
 * captable_parse: parse one table document (text of len bytes, named origin
 * in messages; both copied where kept) into t (zeroed first). Returns 0
 * with t filled, or -1 (GL_ERR_PARSE) with nothing to free.
 */
int captable_parse(const char *origin, const char *text, size_t len,
    struct captable *t, struct gl_error *err);
/* captable_free: free what t owns (a zeroed t owns nothing). */
void captable_free(struct captable *t);

/*
 * captable_probe: run each entry's kernel, looked up by name in registry
 * (kernels[] when NULL), on probe data and compare it with the reference
 * (the as-stored dequantizer of kernels[], then a dot product in double).
 * Each entry gets probed, its kernel (NULL when none fits), verified, and
 * max_error and probe_us once run (else 0), or error (why it is not
 * verified, a text t owns). Probing again starts each entry afresh:
 * nothing of an earlier probe stays.
 * An entry's kernel is borrowed from registry: it must outlive t's use.
 */
void captable_probe(struct captable *t, const struct kernel *registry);

/*
 * captable_feeds: the first verified matmul entry of t for weights of
 * type (f32 activations), borrowed from t; NULL when no verified kernel
 * can feed them, or t is NULL.
 */
const struct cap_entry *captable_feeds(const struct captable *t,
    uint32_t type);

/* cap_op_name, kernel_order_name, cap_state_name: the YAML spelling
 * (static storage). */
const char *cap_op_name(enum cap_op op);
const char *cap_state_name(enum cap_state s);
const char *kernel_order_name(enum kernel_order o);

/*
 * captable_verified_by: how entry e of t was verified, in words ("runtime
 * ggml 0.25.1, CPU (AMD Ryzen)", "recorded on Vulkan0 (llvmpipe),
 * 2026-12-01", "gguflint's reference only: no runtime found"), into buf
 * of size sz; returns buf.
 */
const char *captable_verified_by(const struct captable *t,
    const struct cap_entry *e, char *buf, size_t sz);

/*
 * captable_write: t as YAML that captable_parse reads back: its entries
 * with their states, NMSE and reasons, and its provenance, appended to out
 * (a strbuf of base/util.h).
 */
struct strbuf;
void captable_write(const struct captable *t, struct strbuf *out);

/* captable_builtin_names: the built-in table names, NULL-terminated,
 * sorted (builtin_names("kernels"): kept until builtin_names_cleanup()). */
const char *const *captable_builtin_names(void);

/*
 * probe_fill: n elements of deterministic random valid data of type into
 * row (kernel_row_bytes(type, n) bytes): random bits, with every fp16/bf16
 * value and block scale finite. rng is the generator's state.
 */
void probe_fill(uint32_t type, uint8_t *row, size_t n, uint64_t *rng);

#endif
