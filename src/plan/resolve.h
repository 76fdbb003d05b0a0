/*
 * resolve.h - the weight-form resolver: for each tensor, how the profile's
 * target would hold it (SKaiNET's WeightFormResolver, skainet-semantics.md
 * §1-§3): its encoding kept, or dequantized to f32 at load; in stored or
 * kernel-feed order; mapped or on the heap. Decided by asking the verified
 * capability set of the profile's table, never the caller.
 */
#ifndef GGUFLINT_RESOLVE_H
#define GGUFLINT_RESOLVE_H

#include <stdbool.h>
#include <stdint.h>

#include "target/captable.h"
#include "reader/gguf.h"
#include "target/profile.h"

enum form_encoding {
	FORM_KEEP = 0,		/* kept as stored */
	FORM_DEQUANTIZE,	/* dequantized at load (to f32) */
	FORM_REQUANTIZE		/* re-encoded at load (never chosen today) */
};

struct weight_form {
	enum form_encoding encoding;
	uint32_t to_type;		/* the target type when converted */
	enum kernel_order order;
	enum weights_residency residency;
	bool refused;			/* a strict profile forbids the load;
					 * the plan then prices it as stored */
	uint64_t stored_bytes;
	uint64_t resident_bytes;	/* what holding it costs */
	const struct cap_entry *entry;	/* the kernel that feeds it, or NULL */
};

/* resolve_dense: dense types ask for nothing (f32, f16, bf16, f64, ints). */
bool resolve_dense(uint32_t type);

/*
 * resolve_forms: one form per tensor of f (forms has tensors_n entries)
 * on profile p, with the verified entries of table t (NULL: nothing is
 * known of the kernels, every weight is kept). strict is the profile's
 * strictness or --strict. Tensors of unknown size are kept with zero
 * bytes. A form's entry is borrowed from t: valid while t is.
 */
void resolve_forms(const struct gguf_file *f, const struct profile *p,
    const struct captable *t, bool strict, struct weight_form *forms);

/*
 * resolve_multiplier: SKaiNET's size multiplier of a dequantization to f32
 * for the message ("8.0" for Q4_K: 32 over the payload bits, truncated to
 * tenths) into buf; types SKaiNET has no payload width for use the stored
 * bits per weight, and a type of unknown size "several". Returns buf.
 */
const char *resolve_multiplier(uint32_t type, char *buf, size_t bufsz);

/* form_encoding_name: "keep", "dequantize" or "requantize" (static). */
const char *form_encoding_name(enum form_encoding e);

#endif
