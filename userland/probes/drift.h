/* SPDX-License-Identifier: MIT */
/*
 * Probe `drift`: the pure parts, tested on the host (tests/unit/test_drift.c):
 * unwrapping a counter, the TSC's rate and trend against a reference, its
 * phase for the Allan deviation, and the taus reported.
 */
#ifndef TP_PROBE_DRIFT_H
#define TP_PROBE_DRIFT_H

#include <stddef.h>
#include <stdint.h>

#define DRIFT_TAU0_NS 10000000LL	/* the cadence, 10 ms: 10 samples per 0.1 s tau */
#define DRIFT_WINDOWS_MAX 64
#define DRIFT_TAUS_MAX 4

/* The counter's ticks since the first sample, after a read v (the previous
 * was last) of a bits-wide counter: a wrap between two reads is one step. */
static inline uint64_t drift_unwrap(uint64_t acc, uint64_t last, uint64_t v, unsigned int bits)
{
	uint64_t mask = bits >= 64 ? UINT64_MAX : (1ull << bits) - 1;

	return acc + ((v - last) & mask);
}

/* CLOCK_MONOTONIC's rate against CLOCK_MONOTONIC_RAW in ppm, from their
 * advances over one span; NaN when RAW did not move. */
static inline double drift_mono_ppm(int64_t d_mono_ns, int64_t d_raw_ns)
{
	return d_raw_ns > 0 ? ((double)d_mono_ns / (double)d_raw_ns - 1.0) * 1e6 : 0.0 / 0.0;
}

/* Its bound: each end's MONOTONIC read lies within half its RAW bracket. */
static inline double drift_mono_bound_ppm(int64_t width_a_ns, int64_t width_b_ns, int64_t d_raw_ns)
{
	return d_raw_ns > 0 ? (double)(width_a_ns + width_b_ns) / 2.0 / (double)d_raw_ns * 1e6 : 0.0 / 0.0;
}

struct drift_fit {
	double tsc_hz;		/* least-squares TSC ticks per reference second */
	double ppm;		/* against stub_hz */
	double trend_ppm_min;	/* slope of the windows' rates, NaN with < 2 windows */
	double win_s, win_min_ppm, win_max_ppm;
	size_t windows;
};

/*
 * tsc[i]: the TSC at sample i; ticks[i]: the reference's unwrapped ticks
 * since sample 0, at ref_hz. Fills f and x[0..n): the TSC's time error
 * against the reference in seconds, its mean rate removed. 0, or -1 when
 * n < 3 or the reference did not move.
 */
int drift_analyse(const uint64_t *tsc, const uint64_t *ticks, size_t n, double ref_hz,
		  double stub_hz, struct drift_fit *f, double *x);

/*
 * Counter a's rate against counter b in ppm, from the TSC's rate measured
 * against each over the same samples (tsc_hz_a, tsc_hz_b: TSC ticks per
 * second of a, of b): a's seconds are b's times tsc_hz_b / tsc_hz_a, so
 * the TSC cancels. NaN unless both are positive.
 */
double drift_counter_ppm(double tsc_hz_a, double tsc_hz_b);

/* The taus, in samples m, for n samples: 0.1, 1 and 10 s where they fit in
 * a third of the run, then the third itself. Returns how many (<= 4). */
size_t drift_taus(size_t n, size_t *m);

#endif
