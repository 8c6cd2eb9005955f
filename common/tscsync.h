/* SPDX-License-Identifier: MIT */
/*
 * What a set of TSC round trips between two CPUs proves about the offset of
 * their TSCs: integer arithmetic only, freestanding C (no libc), built into
 * the UEFI stub (boot/mp.c, before the OS) and the suite (probe `tscsync`,
 * after boot), tested by tests/unit/test_tscsync.c.
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
#ifndef TP_COMMON_TSCSYNC_H
#define TP_COMMON_TSCSYNC_H

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

/* The interval a set of round trips proves, in ticks. */
struct tscsync_interval {
	int64_t lo_ticks, hi_ticks;	/* theta in [lo, hi] */
	int consistent;		/* the round trips' intervals intersect (else
				   [lo, hi] is the tightest round trip's own
				   interval, and the offset moved or the clocks
				   ran at different rates during the measurement) */
	int excludes_zero;	/* lo > 0 or hi < 0: TSC_B != TSC_A proven */
};

/* What s proves; returns 0, or -1 when it holds no usable round trip. */
int tscsync_interval(const struct tscsync_bounds *s, struct tscsync_interval *iv);

/*
 * The interval's middle and half-width in whole ticks, for the stub (no
 * floating point in UEFI code): lo + floor((hi - lo) / 2) and
 * ceil((hi - lo) / 2), so [mid - half, mid + half] always holds [lo, hi].
 * Exact in uint64_t for any lo <= hi.
 */
int64_t tscsync_mid_ticks(const struct tscsync_interval *iv);
uint64_t tscsync_half_ticks(const struct tscsync_interval *iv);

#endif
