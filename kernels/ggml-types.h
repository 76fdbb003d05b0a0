/*
 * ggml-types.h - the ggml tensor type table (ids 0..42 of upstream ggml),
 * with block geometry, plus what is known of removed and fork-only ids.
 *
 * This table is the single source of truth for type names and sizes in
 * gguflint: the reader, the dump, and every later rule ask it.
 */
#ifndef GGUFLINT_GGML_TYPES_H
#define GGUFLINT_GGML_TYPES_H

#include <stdbool.h>
#include <stdint.h>

#define GGML_TYPE_COUNT 43

enum ggml_type_status {
	GGML_TYPE_UNKNOWN = 0,	/* not defined by upstream ggml */
	GGML_TYPE_OK,		/* a storable type */
	GGML_TYPE_INTERNAL,	/* defined, but only used for activations */
	GGML_TYPE_RECENT,	/* added in 2026; older llama.cpp rejects it */
	GGML_TYPE_REMOVED	/* once defined, now block size 0 */
};

struct ggml_type_info {
	uint32_t id;
	const char *name;	/* lowercase ggml name, e.g. "q4_K" */
	uint32_t blck;		/* elements per block; 0 when removed */
	uint32_t size;		/* bytes per block; 0 when removed */
	enum ggml_type_status status;
	const char *note;	/* history or fork use of the id, or NULL */
};

/*
 * ggml_type_get: the table entry for id, or NULL when upstream ggml does not
 * define it (id >= GGML_TYPE_COUNT).
 */
const struct ggml_type_info *ggml_type_get(uint32_t id);

/* ggml_type_fork_note: what forks use an id upstream does not define, or NULL. */
const char *ggml_type_fork_note(uint32_t id);

/* ggml_type_name: the name, or "type<id>" in buf (>= 16 bytes) when unknown. */
const char *ggml_type_name(uint32_t id, char *buf, unsigned bufsz);

/* ggml_type_parse: 0 and *out for a defined type's name (any case). */
int ggml_type_parse(const char *name, uint32_t *out);

#endif
