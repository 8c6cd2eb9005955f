// SPDX-License-Identifier: MIT
/*
 * Every probe, in the order the suite runs them. Adding a probe is one file
 * in this folder and one row here.
 */
#include <string.h>

#include "../probe.h"

enum probe_status probe_clocks(struct probe_ctx *ctx);
enum probe_status probe_yield(struct probe_ctx *ctx);
enum probe_status probe_switch(struct probe_ctx *ctx);
enum probe_status probe_tsc(struct probe_ctx *ctx);
enum probe_status probe_itimer(struct probe_ctx *ctx);
enum probe_status probe_wakeup(struct probe_ctx *ctx);
enum probe_status probe_noise(struct probe_ctx *ctx);
/* decl: more probes here */

const struct probe probe_table[] = {
	/* name      summary                                                   run            quick full (s) */
	{ "clocks", "cost, resolution and behaviour of every way to read the time", probe_clocks, 60, 600 },
	{ "yield", "sched_yield() work of N threads together (threads.c, lkml 1999)", probe_yield, 30, 120 },
	{ "switch", "context-switch cost: pipe and futex ping-pong, same and cross CPU", probe_switch, 30, 120 },
	{ "tsc", "TSC frequency by stub, kernel and user space; flags; cross-CPU sync", probe_tsc, 30, 120 },
	{ "itimer", "setitimer: requested vs claimed vs actual interval, with load (timer-perf.c, 2008)", probe_itimer, 60, 600 },
	{ "wakeup", "wake-up latency of every sleep and timer mechanism (cyclictest)", probe_wakeup, 60, 900 },
	{ "noise", "OS noise: a spinning thread per CPU, gaps above a threshold (sysjitter)", probe_noise, 30, 120 },
	/* row: more probes here */
};
const size_t probe_count = sizeof(probe_table) / sizeof(probe_table[0]);

const struct probe *probe_find(const char *name)
{
	for (size_t i = 0; i < probe_count; i++)
		if (!strcmp(probe_table[i].name, name))
			return &probe_table[i];
	return 0;
}
