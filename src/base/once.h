/*
 * once.h - a value loaded once per process, under a lock: the first caller
 * loads it, later callers get the same answer (the value, or the same
 * error), until it is reset. The data tables of src/facts/ use it.
 */
#ifndef GGUFLINT_ONCE_H
#define GGUFLINT_ONCE_H

#include <pthread.h>
#include <stdbool.h>

#include "base/error.h"

struct gl_once {
	pthread_mutex_t lock;
	int state;	     /* 0 not loaded, 1 loaded, -1 failed */
	struct gl_error err; /* the failure, when state is -1 */
};

#define GL_ONCE_INIT \
	{ \
		PTHREAD_MUTEX_INITIALIZER, 0, \
		{ \
			0, \
			{ \
				0 \
			} \
		} \
	}

/*
 * gl_once_get: load the value with load(arg, err) unless o holds an
 * answer already. A failed load is remembered: drop(arg) is called after
 * it (drop may be NULL), and every call until gl_once_reset() returns -1
 * with the first failure's message copied into err (err may be NULL).
 * Returns 0 when the value is loaded.
 */
int gl_once_get(struct gl_once *o, int (*load)(void *, struct gl_error *),
    void (*drop)(void *), void *arg, struct gl_error *err);

/*
 * gl_once_init: o as GL_ONCE_INIT makes it, for one not static (in place:
 * a gl_once is not to be copied once initialised); loaded: as if a load
 * had succeeded. gl_once_destroy: release it (no thread may be using it).
 */
void gl_once_init(struct gl_once *o, bool loaded);
void gl_once_destroy(struct gl_once *o);

/* gl_once_reset: drop(arg) (drop not NULL) and forget the answer. */
void gl_once_reset(struct gl_once *o, void (*drop)(void *), void *arg);

#endif
