/* SPDX-License-Identifier: MIT */
/*
 * Probe `yield`: pure helpers (no I/O), kept apart so tests/unit/test_yield.c
 * can check them on the host.
 */
#ifndef TP_PROBE_YIELD_H
#define TP_PROBE_YIELD_H

#include <stddef.h>
#include <stdint.h>

#include "../options.h"

#define YIELD_MAX_THREADS 4096	/* the bound of the threads option */
#define YIELD_SWEEP_MAX OPT_LIST_MAX

/* What one thread found: its own count, clock window and CPU time. */
struct yield_sample {
	uint64_t count;		/* sched_yield() calls completed */
	int64_t start_ns;	/* CLOCK_MONOTONIC when it passed the gate */
	int64_t stop_ns;	/* CLOCK_MONOTONIC when it saw the stop flag */
	int64_t cpu_ns;		/* CLOCK_THREAD_CPUTIME_ID over the same window */
};

/* One record: the seed's columns under unit-bearing names, and more. */
struct yield_result {
	int threads;
	uint64_t total_yields;
	int64_t span_ns;		/* first start .. last stop: all counted work */
	int64_t start_spread_ns;	/* last start - first start */
	double total_per_s;		/* seed's <total work/s> */
	double avg_per_thread_per_s;	/* seed's <avg work> */
	size_t zero_work_threads;	/* seed's <zero-work threads> */
	double normalized_variance;	/* seed's <normalized variance>, on counts */
	double ns_per_yield;		/* thread CPU time per sched_yield() */
	int64_t vol_ctxsw, invol_ctxsw;	/* getrusage(RUSAGE_SELF) difference */
};

/*
 * The thread counts to run, sorted and without duplicates: USER if it has
 * any, else 1, 2, NCPU, 10, 50, 450 (quick: 1, 2, NCPU, 10). Returns how
 * many were written to OUT (at most MAX).
 */
size_t yield_sweep(int *out, size_t max, const struct int_list *user, int ncpu, int quick);

/*
 * Fills everything in R but threads' rusage from N samples. SCRATCH holds N
 * counts (normalized_variance() and count_zero() take a plain array).
 */
void yield_summarize(const struct yield_sample *s, size_t n, uint64_t *scratch,
		     struct yield_result *r);

#endif
