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

/* A round trip is two switches: to the peer and back. */
#define SWITCHES_PER_ROUND_TRIP 2

/* Spread of the repetitions, in us per round trip. */
struct switch_spread {
	size_t reps;
	double us_min, us_median, us_max, us_stddev;
	/*
	 * Half the median round trip. On one CPU that is one context switch
	 * ("ns_per_switch"); across two it is a hand-over ("ns_per_handoff"):
	 * a wake-up IPI, the other CPU leaving idle and the woken task running,
	 * tens of us where a switch is a few.
	 */
	double ns_half_round_trip;
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

#endif
