/*
 * names-db.c - the database of name maps (see names.h): every map file of
 * rules/arch/ loaded (built in, or overridden from the data directory), its
 * agreement with the architectures gguflint knows (arch.h), and one copy of
 * it per process, shared by the lints of a session.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/once.h"
#include "data/builtin.h"
#include "facts/names.h"

/*
 * Per map of a database: how its keys and tensors are read. A built-in
 * map's are read at its first names_db_find() (its text kept till then);
 * a data directory's at the load (once loaded from the start).
 */
struct names_lazy {
	struct gl_once once;
	struct datafile df;	/* the built-in text, till it is read */
	struct names_map *map;
};

/*
 * Read lz's map whole (gl_once's load). Its architectures stay as they
 * are: db_index reads them without the lock.
 */
static int
lazy_read(void *arg, struct gl_error *err)
{
	struct names_lazy *lz = arg;
	struct names_map whole, *m = lz->map;

	if (names_map_parse(&whole, lz->df.origin, lz->df.data, lz->df.len,
	    err) < 0) {
		names_map_free(&whole);
		return -1;
	}
	m->keys = whole.keys;
	m->n_keys = whole.n_keys;
	m->tensors = whole.tensors;
	m->n_tensors = whole.n_tensors;
	m->max_group = whole.max_group;
	m->read = true;
	whole.keys = NULL;
	whole.n_keys = 0;
	whole.tensors = NULL;
	whole.n_tensors = 0;
	names_map_free(&whole);
	datafile_free(&lz->df);
	return 0;
}

static int
db_read(const struct names_db *db, size_t i, struct gl_error *err)
{
	if (db->lazy == NULL)
		return 0;
	return gl_once_get(&db->lazy[i].once, lazy_read, NULL, &db->lazy[i],
	    err);
}

int
names_db_read_all(const struct names_db *db, struct gl_error *err)
{
	size_t i;

	for (i = 0; i < db->n; i++)
		if (db_read(db, i, err) < 0)
			return -1;
	return 0;
}

/* The index of the map naming arch, or db->n. */
static size_t
db_index(const struct names_db *db, const char *arch)
{
	size_t i, j;

	for (i = 0; i < db->n; i++)
		for (j = 0; j < db->maps[i].n_archs; j++)
			if (strcmp(db->maps[i].archs[j], arch) == 0)
				return i;
	return db->n;
}

const struct names_map *
names_db_find(const struct names_db *db, const char *arch)
{
	struct gl_error err;
	size_t i = db_index(db, arch);

	if (i == db->n)
		return NULL;
	if (db_read(db, i, &err) < 0) {
		fprintf(stderr, "gguflint: a built-in name map does not read "
		    "(a broken build): %s\n", err.msg);
		exit(2);
	}
	return &db->maps[i];
}

static int
db_check_unique(const struct names_db *db, const struct names_map *m,
    struct gl_error *err)
{
	size_t i, j;

	for (j = 0; j < m->n_archs; j++)
		if ((i = db_index(db, m->archs[j])) < db->n)
			return gl_error_setk(err, GL_ERR_PARSE, "%s: "
			    "architecture '%s' is already mapped by %s",
			    m->origin, m->archs[j], db->maps[i].origin);
	return 0;
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
		if (a->mapped && db_index(db, a->name) == db->n)
			return gl_error_set(err, "architecture '%s' has a name "
			    "map by the table of src/facts/arch.c, and no map "
			    "of rules/arch/ names it", a->name);
	return 0;
}

/*
 * Read, check and add the map file name: a built-in one's architectures
 * (its text kept for the rest), a data directory's whole.
 */
static int
db_add(struct names_db *db, const char *name, struct gl_error *err)
{
	struct names_lazy lz;
	struct datafile df;
	struct names_map m;
	int rc;

	memset(&lz, 0, sizeof lz);
	if (datafile_load(name, &df, err) < 0)
		return -1;
	if (datafile_builtin(&df)) {
		rc = names_map_parse_archs(&m, df.origin, df.data, df.len, err);
		lz.df = df;
	} else {
		rc = names_map_parse(&m, df.origin, df.data, df.len, err);
		datafile_free(&df);
	}
	if (rc == 0)
		rc = db_check_unique(db, &m, err);
	if (rc < 0) {
		datafile_free(&lz.df);
		names_map_free(&m);
		return -1;
	}
	db->maps = xreallocarray(db->maps, db->n + 1, sizeof *db->maps);
	db->lazy = xreallocarray(db->lazy, db->n + 1, sizeof *db->lazy);
	db->maps[db->n] = m;
	db->lazy[db->n++] = lz;
	return 0;
}

int
names_db_load(struct names_db *db, struct gl_error *err)
{
	const char *name;
	size_t pos = 0, i;
	int rc = 0;

	memset(db, 0, sizeof *db);
	while (rc == 0 && (name = builtin_next("rules/arch", &pos)) != NULL)
		rc = db_add(db, name, err);
	/* in place at last: a mutex is not to be copied */
	for (i = 0; i < db->n; i++) {
		db->lazy[i].map = &db->maps[i];
		gl_once_init(&db->lazy[i].once, db->lazy[i].df.data == NULL);
	}
	return rc;
}

void
names_db_free(struct names_db *db)
{
	size_t i;

	for (i = 0; i < db->n; i++) {
		names_map_free(&db->maps[i]);
		datafile_free(&db->lazy[i].df);
		gl_once_destroy(&db->lazy[i].once);
	}
	free(db->maps);
	free(db->lazy);
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
