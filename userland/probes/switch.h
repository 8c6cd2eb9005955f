/* SPDX-License-Identifier: MIT */
/*
 * Probe `switch`: pure helpers (no I/O), kept apart so the unit tests
 * (tests/unit/test_yield.c covers both scheduler probes) can check them.
 */
#ifndef TP_PROBE_SWITCH_H
#define TP_PROBE_SWITCH_H

#include <sched.h>
#include <stddef.h>
#include <stdint.h>

#include "../stats.h"

/* A round trip is two switches: to the peer and back. */
#define SWITCHES_PER_ROUND_TRIP 2

/* At most this many repetitions per variant. */
#define SWITCH_MAX_REPS 32

/* Spread of the repetitions, in us per round trip. */
struct switch_spread {
	size_t reps;
	double us_min, us_median, us_max, us_stddev;
	double us_lo, us_hi;	/* the median's 95 % interval over the repetitions (ci.h) */
	/*
	 * Half the median round trip. On one CPU that is one context switch
	 * ("ns_per_switch"); across two it is a hand-over ("ns_per_handoff"):
	 * a wake-up IPI, the other CPU leaving idle and the woken task running,
	 * tens of us where a switch is a few.
	 */
	double ns_half_round_trip;
};

/*
 * A context switch as lmbench's lat_ctx defines it: the time per hand-over
 * of a token passed round two tasks through pipes, minus the time to pass
 * it through a pipe without a switch (one task writing and reading its own
 * pipe):  ns = us_per_round_trip x 1000 / SWITCHES_PER_ROUND_TRIP
 *              - pipe_overhead_ns
 * ns: from the medians of the round trip and of the overhead; its spread:
 * over the repetitions, each round trip paired with the overhead timed
 * right after it. ns lies within [paired_ns.min, paired_ns.max] (see
 * switch_lat_ctx()).
 */
struct switch_lat_ctx {
	double ns;
	double ns_lo, ns_hi;		/* 95 %: the medians' intervals combined, widest way */
	double overhead_lo, overhead_hi;	/* overhead_ns's median's 95 % interval */
	struct summary paired_ns;	/* us x 1000 / 2 - overhead, per repetition */
	struct summary overhead_ns;	/* a pipe write + read, no switch */
};

/*
 * Round trips per repetition so one repetition lasts about TARGET_NS, given
 * that WARM_ROUNDS took WARM_NS; at least 16, at most 2^26.
 */
uint64_t switch_rounds_for(int64_t warm_ns, uint64_t warm_rounds, int64_t target_ns);

/* The first two CPUs of SET into *A and *B; returns how many it found (0..2). */
int switch_pick_cpus(const cpu_set_t *set, int *a, int *b);

/* Sorts US (us per round trip of each repetition) and fills S. */
void switch_summarize(double *us, size_t reps, struct switch_spread *s);

/* lat_ctx's formula: half the round trip US_PER_ROUND_TRIP, in ns, minus
 * PIPE_OVERHEAD_NS. */
double switch_lat_ctx_ns(double us_per_round_trip, double pipe_overhead_ns);

/*
 * From REPS (<= SWITCH_MAX_REPS) interleaved repetitions, US[i] the round
 * trip (us) and OVH_NS[i] the pipe write + read without a switch (ns)
 * timed after it: fills S and L. Sorts US and OVH_NS.
 */
void switch_lat_ctx(double *us, double *ovh_ns, size_t reps, struct switch_spread *s,
		    struct switch_lat_ctx *l);

#endif
