/* SPDX-License-Identifier: MIT */
/*
 * How often tasks moved between CPUs, machine-wide: one software perf
 * counter (PERF_COUNT_SW_CPU_MIGRATIONS) per online CPU, opened by the
 * suite on the CPU (pid -1) and not on any task, so no probe task carries
 * a perf event and the scheduler does no perf work at a probe's context
 * switches (perf_event_open(2): a CPU-wide event lives in the CPU's
 * context, not a task's). The sum over CPUs is every migration of every
 * task on the machine, the probe's among them. A CPU-wide event needs
 * CAP_PERFMON or kernel.perf_event_paranoid <= 0: refused, the count is
 * left out with why. getrusage() has no such field, and /proc/PID/sched's
 * nr_migrations needs CONFIG_SCHED_DEBUG and dies with each thread.
 */
#ifndef TP_MIGRATIONS_H
#define TP_MIGRATIONS_H

#include <stdint.h>

/* Opens the counters once (later calls return the first's result): 0, or
 * -errno (ENOSYS, ENOENT: a kernel without perf events; EACCES: refused;
 * ENODATA: no list of online CPUs). */
int migrations_open(void);

/* The machine's count since the open, every CPU's summed. 0, or -errno. */
int migrations_read(uint64_t *n);

/* Closes this process's descriptors of the counters (a forked probe
 * calls it, so its fd table holds no perf event); the counters of the
 * process that opened them go on. */
void migrations_close_inherited(void);

/* Why rc (-errno from the above) left the count out, in words. */
const char *migrations_why(int rc);

#endif
