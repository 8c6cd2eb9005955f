// SPDX-License-Identifier: MIT
/*
 * Every probe, in the order the suite runs them. Adding a probe is one file
 * in this folder and one row here (docs/adding-a-probe.md).
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
enum probe_status probe_inject_crash(struct probe_ctx *ctx);
enum probe_status probe_inject_hang(struct probe_ctx *ctx);
enum probe_status probe_inject_exit(struct probe_ctx *ctx);
enum probe_status probe_inject_exit1(struct probe_ctx *ctx);
enum probe_status probe_inject_grandchild(struct probe_ctx *ctx);
enum probe_status probe_inject_flood(struct probe_ctx *ctx);
/* decl: more probes here */

const struct probe probe_table[] = {
	{ .name = "clocks", .summary = "cost, resolution and behaviour of every way to read the time", .run = probe_clocks, .limit_quick_s = 60, .limit_full_s = 600 },
	{ .name = "yield", .summary = "sched_yield() work of N threads together (threads.c, lkml 1999)", .run = probe_yield, .limit_quick_s = 30, .limit_full_s = 120 },
	{ .name = "switch", .summary = "context-switch cost: pipe and futex ping-pong, same and cross CPU", .run = probe_switch, .limit_quick_s = 30, .limit_full_s = 120 },
	{ .name = "tsc", .summary = "TSC frequency by stub, kernel and user space; flags; cross-CPU sync", .run = probe_tsc, .limit_quick_s = 30, .limit_full_s = 120 },
	{ .name = "itimer", .summary = "setitimer: requested vs claimed vs actual interval, with load (timer-perf.c, 2008)", .run = probe_itimer, .limit_quick_s = 60, .limit_full_s = 600 },
	{ .name = "wakeup", .summary = "wake-up latency of every sleep and timer mechanism (cyclictest)", .run = probe_wakeup, .limit_quick_s = 60, .limit_full_s = 900 },
	{ .name = "noise", .summary = "OS noise: a spinning thread per CPU, gaps above a threshold (sysjitter)", .run = probe_noise, .limit_quick_s = 30, .limit_full_s = 120 },
	/* row: more probes here */
	/* fault injection (inject.c): only when named by inject= */
	{ .name = "crash", .summary = "raises SIGSEGV", .run = probe_inject_crash, .limit_quick_s = 10, .limit_full_s = 10, .inject = 1 },
	{ .name = "hang", .summary = "never returns; killed at its time limit", .run = probe_inject_hang, .limit_quick_s = 5, .limit_full_s = 5, .inject = 1 },
	{ .name = "exit", .summary = "exits with status 3", .run = probe_inject_exit, .limit_quick_s = 10, .limit_full_s = 10, .inject = 1 },
	{ .name = "exit1", .summary = "exits with status 1", .run = probe_inject_exit1, .limit_quick_s = 10, .limit_full_s = 10, .inject = 1 },
	{ .name = "grandchild", .summary = "ends well, leaving a setsid() grandchild that holds stdout", .run = probe_inject_grandchild, .limit_quick_s = 10, .limit_full_s = 10, .inject = 1 },
	{ .name = "flood", .summary = "writes records far past the suite's cap", .run = probe_inject_flood, .limit_quick_s = 60, .limit_full_s = 60, .inject = 1 },
};
const size_t probe_count = sizeof(probe_table) / sizeof(probe_table[0]);

static const struct probe *find(const char *name, int inject)
{
	for (size_t i = 0; i < probe_count; i++)
		if (probe_table[i].inject == inject && !strcmp(probe_table[i].name, name))
			return &probe_table[i];
	return 0;
}

const struct probe *probe_find(const char *name)
{
	return find(name, 0);
}

const struct probe *inject_find(const char *name)
{
	return find(name, 1);
}
