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

/* What one thread found. */
struct yield_sample {
	uint64_t count;		/* sched_yield() calls begun while the window was open */
	int64_t start_ns;	/* CLOCK_MONOTONIC when its loop began; 0: never did */
};

/*
 * The one measuring window all threads share (the seed's `count` flag):
 * opened by the main thread once every thread runs its loop, closed
 * at the deadline.
 */
struct yield_window {
	int64_t created_ns;	/* CLOCK_MONOTONIC when the first thread was created */
	int64_t open_ns;	/* ... when the window opened */
	int64_t close_ns;	/* ... when it closed */
	int64_t cpu_ns;		/* CLOCK_PROCESS_CPUTIME_ID across the window */
};

/* One record: the seed's columns under unit-bearing names, and more. */
struct yield_result {
	int threads;
	size_t late_threads;		/* not yet running when the window opened */
	uint64_t total_yields;
	int64_t window_ns;		/* open .. close: the common window */
	int64_t start_spread_ns;	/* first created .. open: how long starting everyone took */
	double total_per_s;		/* seed's <total work/s> */
	double avg_per_thread_per_s;	/* seed's <avg work> */
	size_t zero_work_threads;	/* seed's <zero-work threads> */
	double normalized_variance;	/* seed's <normalized variance>, on counts */
	double ns_per_yield;		/* process CPU time per sched_yield() */
	int64_t vol_ctxsw, invol_ctxsw;	/* getrusage(RUSAGE_SELF) difference */
	/* total_per_s's 95 % interval over the window's sub-windows, relative to it */
	double rel_lo, rel_hi;
	size_t subwindows;		/* 0: no interval */
	int creator_fifo;		/* 1: started and stopped by a SCHED_FIFO main thread */
};

/*
 * The window is read in this many equal sub-windows (the counts summed at
 * each boundary), so a run knows how steady its rate was: each
 * sub-window's rate is one sample of total_per_s.
 */
#define YIELD_SUBWINDOWS 10

/*
 * The thread counts to run, sorted and without duplicates: USER if it has
 * any, else 1, 2, NCPU, 10, 50, 450 (quick: 1, 2, NCPU, 10). Returns how
 * many were written to OUT (at most MAX).
 */
size_t yield_sweep(int *out, size_t max, const struct int_list *user, int ncpu, int quick);

/*
 * Fills everything in R but the rusage from N samples counted over window
 * W. SCRATCH holds N counts (stats_normalized_variance() and stats_count_zero() take a
 * plain array). A thread that counted nothing in the window is zero-work,
 * whether it started late or was starved after starting, as in the seed.
 */
void yield_summarize(const struct yield_sample *s, size_t n, const struct yield_window *w,
		     uint64_t *scratch, struct yield_result *r);

/*
 * total_per_s's 95 % interval relative to the rate (Student's, over the
 * k sub-windows' rates) into r->rel_lo, r->rel_hi, r->subwindows, from the
 * k + 1 boundaries' times (ns) and summed counts; nothing when k < 2.
 */
void yield_subwindow_ci(const int64_t *t_ns, const uint64_t *count, size_t k,
			struct yield_result *r);

/*
 * Rounds (docs/probes/yield.md, "Rounds"): what one thread count's rounds
 * add up to, kept in the suite's shared memory from round to round. The
 * run's figures are those of one window as long as all its rounds' windows
 * together: yields over the summed windows, CPU time per yield, each
 * thread slot's counts summed over the rounds (thread i of every round),
 * the interval over every round's sub-windows. counts: threads entries,
 * beside the pool (struct yield_state).
 */
#define YIELD_ROUNDS_MAX 50	/* the bound of timeprobe.rounds */

struct yield_pool {
	int threads;
	int rounds;			/* rounds added */
	int failed;			/* a round could not create its threads */
	uint64_t total_yields;
	int64_t window_ns, cpu_ns;
	int64_t start_spread_ns;	/* the largest */
	int64_t vol_ctxsw, invol_ctxsw;
	size_t late_threads;
	int creator_fifo;		/* the last round's */
	size_t nrates;
	double rate[YIELD_SUBWINDOWS * YIELD_ROUNDS_MAX];	/* every sub-window's yields/s */
	size_t counts_at;		/* its counts' index in struct yield_state's counts */
};

struct yield_state {
	struct yield_pool pool[YIELD_SWEEP_MAX];
	uint64_t counts[];
};

/* The yields/s of the k sub-windows between k + 1 marks, appended to rate[]
 * (at most max in all); how many it holds now. */
size_t yield_subwindow_rates(const int64_t *t_ns, const uint64_t *count, size_t k, double *rate,
			     size_t n, size_t max);
/* One round's window: its samples s (n threads), its window and sub-window marks. */
void yield_pool_add(struct yield_pool *p, uint64_t *counts, const struct yield_sample *s, size_t n,
		    const struct yield_window *w, const int64_t *mark_ns, const uint64_t *mark_count,
		    const struct yield_result *r);
/* The run's figures from every round added (scratch: threads entries). */
void yield_pool_result(const struct yield_pool *p, const uint64_t *counts, uint64_t *scratch,
		       struct yield_result *r);

#endif
