/* SPDX-License-Identifier: MIT */
/*
 * Probe `tscsync`: the pure part, tested on the host (tests/unit/test_tscsync.c):
 * what a set of round trips proves about the offset between two TSCs.
 *
 * The bounds themselves (one round trip, the intersection) are integer
 * code shared with the UEFI stub: common/tscsync.h, where the method is
 * written out. This adds their reading in floating point and the choice
 * of CPUs.
 */
#ifndef TP_PROBE_TSCSYNC_H
#define TP_PROBE_TSCSYNC_H

#include <stddef.h>
#include <stdint.h>

#include "../../common/tscsync.h"

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
