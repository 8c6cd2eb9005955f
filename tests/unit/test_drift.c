// SPDX-License-Identifier: MIT
/*
 * Probe drift's pure parts (drift.h): unwrapping narrow counters, the TSC's
 * rate and trend against a reference from synthetic samples with a known
 * rate and a known ramp, and the taus reported for a run's length.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "../../userland/adev.h"
#include "../../userland/probes/drift.h"
#include "tap.h"

#define N 1001
#define STUB_HZ 2.6e9

/* Samples every 10 ms of a reference at ref_hz (integer ticks), the TSC
 * running at STUB_HZ * (1 + (a_ppm + b_ppm_s * t) * 1e-6). */
static void synth(uint64_t *tsc, uint64_t *ticks, double ref_hz, double a_ppm, double b_ppm_s)
{
	for (size_t i = 0; i < N; i++) {
		double t;

		ticks[i] = (uint64_t)llround((double)i * 0.01 * ref_hz);
		t = (double)ticks[i] / ref_hz;
		tsc[i] = 1000000 + (uint64_t)llround(STUB_HZ * (t + 1e-6 * (a_ppm * t + b_ppm_s * t * t / 2)));
	}
}

int main(void)
{
	static uint64_t tsc[N], ticks[N];
	static double x[N];
	struct drift_fit f;
	size_t m[DRIFT_TAUS_MAX], terms;

	is_int(drift_unwrap(0, 0xfffff0, 0x10, 24), 0x20, "24-bit PM timer: a wrap is one step of 0x20");
	is_int(drift_unwrap(100, 5, 9, 24), 104, "24-bit: no wrap, +4");
	is_int(drift_unwrap(0, UINT64_MAX - 1, 1, 64), 3, "64-bit HPET: a wrap too");
	is_int(drift_unwrap(0, 0xfffffffe, 0x1, 32), 3, "32-bit: a wrap");

	/* 5 ppm fast against a 100 MHz HPET, steady */
	synth(tsc, ticks, 1e8, 5, 0);
	ok(!drift_analyse(tsc, ticks, N, 1e8, STUB_HZ, &f, x), "10 s against a steady reference");
	is_near(f.ppm, 5, 0.001, "the rate: +5 ppm");
	is_near(f.tsc_hz, STUB_HZ * (1 + 5e-6), 3, "tsc_hz = stub * (1 + 5e-6)");
	is_near(f.trend_ppm_min, 0, 0.05, "no trend");
	is_int(f.windows, 10, "10 windows of 1 s");
	is_near(f.win_s, 1, 1e-9, "... each 1 s");
	ok(adev_overlapping(x, N, 0.01, 10, &terms) < 1e-8, "steady: ADEV at 0.1 s only the rounding");

	/* counter against counter: the TSC against an HPET 2 ppm fast and a PM
	 * timer 1 ppm slow, over the same samples; the TSC's own 5 ppm cancels */
	{
		struct drift_fit fh, fp;

		synth(tsc, ticks, 1e8 * (1 + 2e-6), 5, 0);
		drift_analyse(tsc, ticks, N, 1e8, STUB_HZ, &fh, x);
		synth(tsc, ticks, 3579545 * (1 - 1e-6), 5, 0);
		drift_analyse(tsc, ticks, N, 3579545, STUB_HZ, &fp, x);
		is_near(drift_counter_ppm(fh.tsc_hz, fp.tsc_hz), 3, 0.01,
			"hpet 2 ppm fast against a PM timer 1 ppm slow: +3 ppm, the TSC cancels");
		is_near(drift_counter_ppm(fp.tsc_hz, fh.tsc_hz), -3, 0.01, "... and -3 the other way");
		ok(isnan(drift_counter_ppm(0, fh.tsc_hz)) && isnan(drift_counter_ppm(fh.tsc_hz, NAN)),
		   "no rate on either side: NaN");
	}

	/* 5 ppm rising by 0.1 ppm/s = 6 ppm/min: the mean is 5.5 ppm over 10 s */
	synth(tsc, ticks, 1e8, 5, 0.1);
	drift_analyse(tsc, ticks, N, 1e8, STUB_HZ, &f, x);
	is_near(f.trend_ppm_min, 6, 0.05, "a 0.1 ppm/s ramp: trend 6 ppm/min");
	is_near(f.ppm, 5.5, 0.01, "... its mean rate 5.5 ppm");
	ok(f.win_min_ppm < 5.1 && f.win_max_ppm > 5.9, "... windows from ~5.05 to ~5.95 ppm");
	/* the ramp is a quadratic phase: ADEV grows with tau (random walk FM-like) */
	ok(adev_overlapping(x, N, 0.01, 100, &terms) > adev_overlapping(x, N, 0.01, 10, &terms),
	   "a ramp: ADEV larger at 1 s than at 0.1 s");

	/* the PM timer's coarse ticks: the same rate within its quantisation */
	synth(tsc, ticks, 3579545, -20, 0);
	drift_analyse(tsc, ticks, N, 3579545, STUB_HZ, &f, x);
	is_near(f.ppm, -20, 0.01, "PM timer ticks: -20 ppm");

	ok(drift_analyse(tsc, ticks, 2, 1e8, STUB_HZ, &f, x) == -1, "2 samples: no fit");
	for (size_t i = 0; i < N; i++)
		ticks[i] = 7;
	ok(drift_analyse(tsc, ticks, N, 1e8, STUB_HZ, &f, x) == -1, "a reference that never moved: no fit");
	ok(adev_line_fit((double[]){ 7e-8, 7e-8, 7e-8 }, x, 3, &f.tsc_hz, &f.ppm) == -1, "nor a line through it");

	is_int(drift_taus(N, m), 3, "10 s: 3 taus");
	ok(m[0] == 10 && m[1] == 100 && m[2] == 333, "... 0.1 s, 1 s, a third of the run (333 samples)");
	is_int(drift_taus(301, m), 2, "3 s: 0.1 s and 1 s (= a third)");
	is_int(drift_taus(30001, m), 4, "300 s: 4 taus");
	ok(m[2] == 1000 && m[3] == 10000, "... 10 s and 100 s");
	is_int(drift_taus(3, m), 0, "3 samples: none");

	/* CLOCK_MONOTONIC against CLOCK_MONOTONIC_RAW (drift_mono.c) */
	is_near(drift_mono_ppm(1000000050, 1000000000), 0.05, 1e-9, "MONOTONIC 50 ns ahead in 1 s: +0.05 ppm");
	is_near(drift_mono_ppm(999990000, 1000000000), -10, 1e-9, "10 us behind in 1 s: -10 ppm");
	ok(isnan(drift_mono_ppm(5, 0)), "RAW did not move: NaN");
	is_near(drift_mono_bound_ppm(100, 300, 1000000000), 0.2, 1e-12,
		"brackets of 100 and 300 ns over 1 s: +/- 0.2 ppm (half of each)");
	return tap_done();
}
