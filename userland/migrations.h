/* SPDX-License-Identifier: MIT */
/*
 * How often the probes' process trees moved between CPUs: one software
 * perf counter (PERF_COUNT_SW_CPU_MIGRATIONS) on the suite, inherited by
 * every process it forks after migrations_open(), each child's count
 * added to it when the child exits (perf_event_open(2), "inherit"). A
 * delta around a probe is the probe's tree's migrations plus the suite's
 * own while it waited (a handful). getrusage() has no such field.
 */
#ifndef TP_MIGRATIONS_H
#define TP_MIGRATIONS_H

#include <stdint.h>

/* Opens the counter once (later calls return the first's result): 0, or
 * -errno (ENOSYS, ENOENT: a kernel without perf events; EACCES: refused). */
int migrations_open(void);

/* The count: the suite and every exited child since the open. 0, or -errno. */
int migrations_read(uint64_t *n);

/* Why rc (-errno from the two above) left the count out, in words. */
const char *migrations_why(int rc);

#endif
