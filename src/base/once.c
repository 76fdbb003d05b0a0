/*
 * once.c - a value loaded once per process, under a lock (once.h).
 */
#include <string.h>

#include "base/once.h"

int
gl_once_get(struct gl_once *o, int (*load)(void *, struct gl_error *),
    void (*drop)(void *), void *arg, struct gl_error *err)
{
	int state;

	pthread_mutex_lock(&o->lock);
	if (o->state == 0) {
		if (load(arg, &o->err) < 0) {
			if (drop != NULL)
				drop(arg);
			o->state = -1;
		} else {
			o->state = 1;
		}
	}
	state = o->state;
	if (state < 0 && err != NULL)
		*err = o->err;
	pthread_mutex_unlock(&o->lock);
	return state < 0 ? -1 : 0;
}

void
gl_once_init(struct gl_once *o, bool loaded)
{
	pthread_mutex_init(&o->lock, NULL);
	o->state = loaded ? 1 : 0;
	memset(&o->err, 0, sizeof o->err);
}

void
gl_once_destroy(struct gl_once *o)
{
	pthread_mutex_destroy(&o->lock);
}

void
gl_once_reset(struct gl_once *o, void (*drop)(void *), void *arg)
{
	pthread_mutex_lock(&o->lock);
	drop(arg);
	o->state = 0;
	pthread_mutex_unlock(&o->lock);
}
