/* SPDX-License-Identifier: MIT */
/*
 * Probe `drift`'s files: drift.c, the TSC against each counter, and
 * drift_mono.c, CLOCK_MONOTONIC's rate against CLOCK_MONOTONIC_RAW over
 * the same run (the adjustment NTP makes the kernel apply; the kernel
 * selftests' raw_skew.c measures the same).
 */
#ifndef TP_PROBE_DRIFT_IMPL_H
#define TP_PROBE_DRIFT_IMPL_H

#include <stdint.h>

/* CLOCK_MONOTONIC read between two reads of CLOCK_MONOTONIC_RAW. */
struct drift_mono_mark {
	int64_t raw_ns;		/* the bracket's middle */
	int64_t mono_ns;
	int64_t width_ns;	/* the bracket: how far from raw_ns mono_ns was read at most x 2 */
};

/* The narrowest of a few brackets, now. */
void drift_mono_mark(struct drift_mono_mark *m);

/* The result record and a human line for the span a..b. */
void drift_mono_emit(const struct drift_mono_mark *a, const struct drift_mono_mark *b);

#endif
