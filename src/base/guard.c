/*
 * guard.c - SIGBUS to an error return (see guard.h).
 */
#include "config.h"

#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "base/guard.h"

static _Thread_local sigjmp_buf *guard_jmp;

static void
on_sigbus(int sig, siginfo_t *si, void *uc)
{
	(void)si;
	(void)uc;
	if (guard_jmp != NULL)
		siglongjmp(*guard_jmp, 1);
	signal(sig, SIG_DFL);	/* not ours: die as we would have */
	raise(sig);
}

static void
guard_install_once(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = on_sigbus;
	sa.sa_flags = SA_SIGINFO | SA_NODEFER;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGBUS, &sa, NULL);
}

static void
guard_install(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	pthread_once(&once, guard_install_once);	/* --deep's workers */
}

int
guard_call(void (*fn)(void *), void *arg)
{
	sigjmp_buf jb, *prev = guard_jmp;
	volatile int rc = 0;

	guard_install();
	if (sigsetjmp(jb, 1) == 0) {
		guard_jmp = &jb;
		fn(arg);
	} else {
		rc = -1;
	}
	guard_jmp = prev;
	return rc;
}

void
guard_abandon(void)
{
	if (guard_jmp == NULL)
		abort();
	siglongjmp(*guard_jmp, 1);
}
