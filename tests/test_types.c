/*
 * test_types.c - the ggml type table as the one source of type ids, names
 * and block geometry: every id has its row, names and ids round-trip, and
 * what other modules still write down themselves (the KV cache types'
 * names, the dense types) agrees with the table, so that a drift fails
 * here. (The kernels' layouts are checked against the table's sizes at
 * compile time, and their strides in test_kernels.c.)
 */
#include "config.h"

#include <criterion/criterion.h>
#include <string.h>

#include "base/util.h"
#include "kernels/ggml-types.h"
#include "plan/resolve.h"
#include "target/kvtype.h"

/*
 * Every id below GGML_TYPE_COUNT has its own row, whose name parses back
 * to it (but the removed ones', which no longer parse).
 */
Test(types, every_id_has_a_row_and_a_name)
{
	uint32_t id, other, got;

	for (id = 0; id < GGML_TYPE_COUNT; id++)
		cr_assert(ggml_type_get(id) != NULL &&
		    ggml_type_get(id)->name != NULL, "id %u has no row", id);
	for (id = 0; id < GGML_TYPE_COUNT; id++) {
		const struct ggml_type_info *t = ggml_type_get(id);

		cr_assert_eq(t->id, id, "%s: row %u says id %u", t->name, id,
		    t->id);
		cr_assert_eq(t->blck == 0, t->size == 0, "%s", t->name);
		cr_assert((t->blck == 0) == (t->status == GGML_TYPE_REMOVED),
		    "%s", t->name);
		if (t->status == GGML_TYPE_REMOVED) {
			cr_assert_eq(ggml_type_parse(t->name, &got), -1, "%s",
			    t->name);
			continue;
		}
		cr_assert_eq(ggml_type_parse(t->name, &got), 0, "%s",
		    t->name);
		cr_assert_eq(got, id, "%s parses to %u", t->name, got);
		for (other = 0; other < id; other++)
			cr_assert(strcmp(ggml_type_get(other)->name, t->name)
			    != 0, "%s named twice", t->name);
	}
	cr_assert(ggml_type_get(GGML_TYPE_COUNT) == NULL);
}

/* The ids are ggml.h's: a few of them, by name, as upstream numbers them. */
Test(types, ids_are_upstream_ids)
{
	static const struct {
		const char *name;
		uint32_t id;
	} known[] = {
		{ "f32", 0 }, { "q4_0", 2 }, { "q8_0", 8 }, { "q4_K", 12 },
		{ "iq4_xs", 23 }, { "bf16", 30 }, { "tq2_0", 35 },
		{ "mxfp4", 39 }, { "q2_0", 42 },
	};
	size_t i;
	uint32_t got;

	for (i = 0; i < sizeof known / sizeof known[0]; i++) {
		cr_assert_eq(ggml_type_parse(known[i].name, &got), 0);
		cr_assert_eq(got, known[i].id, "%s is %u", known[i].name, got);
	}
	cr_assert_eq(GGML_TYPE_Q4_K, 12);
	cr_assert_eq(GGML_TYPE_COUNT, 43);
}

/*
 * The KV cache types are ggml types by ggml's names (but SKaiNET's
 * turboquant4), with the table's geometry; kv_type_names lists them in
 * order, and every name parses back.
 */
Test(types, kv_cache_types_are_the_tables)
{
	struct strbuf list = STRBUF_INIT;
	unsigned i;
	uint32_t id;
	enum kv_type back;

	for (i = 0; i < KV_TYPE_COUNT; i++) {
		const struct kv_type_info *k = kv_type_info((enum kv_type)i);

		cr_assert_eq(k->type, (enum kv_type)i, "%s", k->name);
		strbuf_addf(&list, "%s%s", i ? ", " : "", k->name);
		cr_assert(kv_type_parse(k->name, &back) == 0 &&
		    back == k->type, "%s", k->name);
		if (k->type == KV_TURBOQUANT4) {
			cr_assert_eq(ggml_type_parse(k->name, &id), -1);
			cr_assert(k->blck == 128 && k->size == 76);
			continue;
		}
		cr_assert_eq(ggml_type_parse(k->name, &id), 0, "%s is not a "
		    "ggml type", k->name);
		cr_assert_str_eq(ggml_type_get(id)->name, k->name);
		cr_assert_eq(k->blck, ggml_type_get(id)->blck, "%s", k->name);
		cr_assert_eq(k->size, ggml_type_get(id)->size, "%s", k->name);
		cr_assert_eq(k->quantized, k->blck > 1, "%s", k->name);
	}
	cr_assert_str_eq(kv_type_names(), list.buf);
	strbuf_free(&list);
}

/*
 * The dense types, which the resolver keeps as they are, are the float and
 * integer types: by name, against what the table makes of them.
 */
Test(types, dense_types_are_the_float_and_integer_types)
{
	static const char *const dense[] = {
		"f32", "f16", "bf16", "f64", "i8", "i16", "i32", "i64",
	};
	uint32_t id, got;
	size_t i, n = 0;

	for (i = 0; i < sizeof dense / sizeof dense[0]; i++) {
		cr_assert_eq(ggml_type_parse(dense[i], &got), 0);
		cr_assert(resolve_dense(got), "%s", dense[i]);
	}
	for (id = 0; id < GGML_TYPE_COUNT + 8; id++)
		n += resolve_dense(id);
	cr_assert_eq(n, sizeof dense / sizeof dense[0]);
}
