/* SPDX-License-Identifier: MIT */
/*
 * How busy the machine was with work other than the suite's: the load
 * average at the start and end of a run, and the CPU time the machine spent
 * outside the suite's own process tree while it ran (/proc/stat's busy time
 * less getrusage() of the suite and its waited-for children). The run and
 * end records carry them, so a report can say that a run's CPUs were shared
 * before it shows a figure (issue: 76 % stolen time at load 6, unsaid).
 */
#ifndef TP_BUSY_H
#define TP_BUSY_H

#include <stdint.h>

struct busy_mark {
	double load[3];		/* /proc/loadavg: 1, 5, 15 min; -1 when unreadable */
	int64_t wall_ns;	/* CLOCK_MONOTONIC */
	int64_t machine_busy_ns;	/* every CPU's non-idle time so far; -1 unknown */
	int64_t own_cpu_ns;	/* this process and its waited-for children */
};

/* Reads the marks now. */
void busy_mark(struct busy_mark *m);

/*
 * /proc/stat's first line, "cpu  user nice system idle iowait irq softirq
 * steal ...", to non-idle time in ns (ticks of clk_tck per second); -1 when
 * malformed. Idle and iowait are idle; steal counts as busy (taken away).
 */
int64_t busy_stat_ns(const char *line, long clk_tck);

/* Other work between a and b, in CPU-ns (>= 0), and as a share of ncpu CPUs in %. */
int64_t busy_other_ns(const struct busy_mark *a, const struct busy_mark *b);
double busy_other_pct(const struct busy_mark *a, const struct busy_mark *b, int ncpu);

#endif
