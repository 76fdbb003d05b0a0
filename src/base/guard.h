/*
 * guard.h - reading a mapped file that may shrink under us. When a file is
 * truncated after it was mapped, touching a page past its new end raises
 * SIGBUS; guard_call() runs a function with a handler armed that turns that
 * signal into a return value, so a changing file is a finding, not a crash.
 */
#ifndef GGUFLINT_GUARD_H
#define GGUFLINT_GUARD_H

/*
 * guard_call: run fn(arg). Returns 0, or -1 when fn touched a page of a
 * mapping beyond the end of its file (fn was abandoned where it stood:
 * memory it allocated may leak, nothing else is harmed). Nests; per thread.
 * That holds only if fn copies what it reads from the mapping before it
 * publishes anything: a structure must not be left half-updated by a
 * fault (diag_add copies a subject before the list counts the entry).
 */
int guard_call(void (*fn)(void *), void *arg);

/*
 * guard_abandon: leave the innermost guard_call() of this thread as a
 * fault would (it returns -1), for a function that finds it cannot read
 * what it was to read. Outside any guard_call() it aborts: a bug.
 */
void guard_abandon(void) __attribute__((noreturn));

#endif
