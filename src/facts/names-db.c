/*
 * names-db.c - the database of name maps (see names.h): every map file of
 * rules/arch/ loaded (built in, or overridden from the data directory), its
 * agreement with the architectures gguflint knows (arch.h), and one copy of
 * it per process, shared by the lints of a session.
 */
#define PCRE2_CODE_UNIT_WIDTH 8

#include <pcre2.h>
#include <stdlib.h>
#include <string.h>

#include "base/once.h"
#include "data/builtin.h"
#include "facts/names.h"

const struct names_map *
names_db_find(const struct names_db *db, const char *arch)
{
	size_t i, j;

	for (i = 0; i < db->n; i++)
		for (j = 0; j < db->maps[i].n_archs; j++)
			if (strcmp(db->maps[i].archs[j], arch) == 0)
				return &db->maps[i];
	return NULL;
}

static int
db_check_unique(const struct names_db *db, const struct names_map *m,
    struct gl_error *err)
{
	const struct names_map *other;
	size_t j;

	for (j = 0; j < m->n_archs; j++)
		if ((other = names_db_find(db, m->archs[j])) != NULL)
			return gl_error_setk(err, GL_ERR_PARSE, "%s: "
			    "architecture '%s' is already mapped by %s",
			    m->origin, m->archs[j], other->origin);
	return 0;
}

/* The largest capture group number of any pattern. */
static uint32_t
db_max_groups(const struct names_db *db)
{
	uint32_t max = 1, n;
	size_t i, j;

	for (i = 0; i < db->n; i++) {
		for (j = 0; j < db->maps[i].n_tensors; j++) {
			const struct names_tensor *t = &db->maps[i].tensors[j];

			n = t->per_layer ? 1 : 0;
			if (t->re != NULL)
				pcre2_pattern_info(t->re,
				    PCRE2_INFO_CAPTURECOUNT, &n);
			if (n > max)
				max = n;
		}
	}
	return max;
}

/*
 * Every architecture m names must be one gguflint knows, and one whose
 * entry says it has a map (arch.c's table is the one list of them).
 */
static int
db_check_known(const struct names_map *m, struct gl_error *err)
{
	const struct arch_info *a;
	size_t j;

	for (j = 0; j < m->n_archs; j++) {
		if ((a = arch_find(m->archs[j])) == NULL)
			return gl_error_setk(err, GL_ERR_PARSE, "%s: "
			    "architecture '%s' is not one gguflint knows (add "
			    "it to the table in src/facts/arch.c)", m->origin,
			    m->archs[j]);
		if (!a->mapped)
			return gl_error_setk(err, GL_ERR_PARSE, "%s: "
			    "architecture '%s' has no name map in the table of "
			    "src/facts/arch.c (mark it mapped there)",
			    m->origin, m->archs[j]);
	}
	return 0;
}

int
names_db_check_archs(const struct names_db *db, struct gl_error *err)
{
	const struct arch_info *a;
	size_t i;

	for (i = 0; i < db->n; i++)
		if (db_check_known(&db->maps[i], err) < 0)
			return -1;
	for (i = 0; (a = arch_at(i)) != NULL; i++)
		if (a->mapped && names_db_find(db, a->name) == NULL)
			return gl_error_set(err, "architecture '%s' has a name "
			    "map by the table of src/facts/arch.c, and no map "
			    "of rules/arch/ names it", a->name);
	return 0;
}

/* Read, check and add the map file name. */
static int
db_add(struct names_db *db, const char *name, struct gl_error *err)
{
	struct datafile df;
	struct names_map m;
	int rc;

	if (datafile_load(name, &df, err) < 0)
		return -1;
	rc = names_map_parse(&m, df.origin, df.data, df.len, err);
	if (rc == 0)
		rc = db_check_unique(db, &m, err);
	datafile_free(&df);
	if (rc < 0) {
		names_map_free(&m);
		return -1;
	}
	db->maps = xreallocarray(db->maps, db->n + 1, sizeof *db->maps);
	db->maps[db->n++] = m;
	return 0;
}

int
names_db_load(struct names_db *db, struct gl_error *err)
{
	const char *name;
	size_t pos = 0;

	memset(db, 0, sizeof *db);
	while ((name = builtin_next("rules/arch", &pos)) != NULL)
		if (db_add(db, name, err) < 0)
			return -1;
	db->max_group = db_max_groups(db);
	return 0;
}

void
names_db_free(struct names_db *db)
{
	size_t i;

	for (i = 0; i < db->n; i++)
		names_map_free(&db->maps[i]);
	free(db->maps);
	memset(db, 0, sizeof *db);
}

/* ---- the process-wide copy --------------------------------------------- */

static struct names_db shared_db;
static struct gl_once shared_once = GL_ONCE_INIT;

static int
shared_load(void *db, struct gl_error *err)
{
	return names_db_load(db, err);
}

static void
shared_free(void *db)
{
	names_db_free(db);
}

int
names_db_get(const struct names_db **out, struct gl_error *err)
{
	if (gl_once_get(&shared_once, shared_load, shared_free, &shared_db,
		err) < 0)
		return -1;
	*out = &shared_db;
	return 0;
}

void
names_db_cleanup(void)
{
	gl_once_reset(&shared_once, shared_free, &shared_db);
}
