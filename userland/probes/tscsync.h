/* SPDX-License-Identifier: MIT */
/*
 * Probe `tscsync`: the pure part, tested on the host (tests/unit/test_tscsync.c):
 * what a set of round trips proves about the offset between two TSCs.
 *
 * One round trip: CPU A reads its TSC (a0) and publishes it; B sees it,
 * reads its own TSC (b) and answers; A sees the answer and reads its TSC
 * again (a1). B's read happened, in A's time, between a0 and a1 (causality:
 * each read is ordered after the load that saw the other's store). With
 * theta = TSC_B - TSC_A at one instant:
 *
 *	a0 <= b - theta <= a1   so   b - a1 <= theta <= b - a0
 *
 * Every round trip gives such an interval; theta, if constant over the
 * measurement, lies in all of them, so in their intersection [lo, hi]:
 * lo from the round trip whose b came nearest a1, hi from the one whose b
 * came nearest a0. This is Cristian's probabilistic clock reading (F.
 * Cristian, Distributed Computing 3(3), 1989) with the causal bounds kept
 * instead of the symmetric-delay midpoint (NTP's, RFC 5905 section 8).
 */
#ifndef TP_PROBE_TSCSYNC_H
#define TP_PROBE_TSCSYNC_H

#include <stddef.h>
#include <stdint.h>

struct tscsync_bounds {
	int64_t lo_ticks, hi_ticks;	/* theta in [lo, hi] by every round trip */
	int64_t min_rtt_ticks;		/* tightest round trip a1 - a0 */
	int64_t min_rtt_lo, min_rtt_hi;	/* ... and its own interval */
	uint64_t samples;		/* round trips taken */
	uint64_t rejected;		/* a1 < a0: A's own TSC went back, no bound */
};

void tscsync_init(struct tscsync_bounds *s);
/* One round trip: A's reads a0, a1 and B's read b, in their own ticks. */
void tscsync_add(struct tscsync_bounds *s, uint64_t a0, uint64_t b, uint64_t a1);

struct tscsync_estimate {
	double offset_ticks;	/* TSC_B - TSC_A: the middle of the interval */
	double bound_ticks;	/* half-width: theta in offset +- bound */
	int consistent;		/* the intervals intersect (else: the tightest
				   round trip's own interval is reported, and the
				   offset moved or the clocks ran at different rates
				   during the measurement) */
	int excludes_zero;	/* the interval proves TSC_B != TSC_A */
};

/* What s proves; returns 0, or -1 when it holds no usable round trip. */
int tscsync_estimate(const struct tscsync_bounds *s, struct tscsync_estimate *e);

/* All ordered pairs up to this many CPUs; a sample of this many beyond. */
#define TSCSYNC_MAX_CPUS 16

/*
 * The CPUs to measure out of the n in all[] (ascending): all of them up to
 * max (>= 2), else max spread evenly, the first and the last always in.
 * Returns how many it wrote to out.
 */
int tscsync_pick(const int *all, int n, int *out, int max);

#endif
