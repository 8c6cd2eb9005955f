/* SPDX-License-Identifier: MIT */
/*
 * The one user-space TSC calibration, shared by `tsc` (tsccal_run()) and,
 * through tsccal_probe() (probe.h), `clocks`, `drift`, `noise` and
 * `tscsync`: ROUNDS rounds of TSC ticks across an interval of
 * CLOCK_MONOTONIC_RAW, each end read between two TSC reads, pinned to one
 * CPU (a migration between CPUs whose TSCs differ would count as
 * frequency). A round that gives no figure is left out and counted.
 */
#ifndef TP_TSCCAL_H
#define TP_TSCCAL_H

#include <stdint.h>

#define USER_CALIB_ROUNDS_MAX 100	/* the tsc-calib-rounds option's bound */
#define USER_CALIB_ROUNDS_DEFAULT 5
#define USER_CALIB_QUICK_MS 50
#define USER_CALIB_FULL_MS 200

struct user_calib {
	double hz;		/* median of the good rounds; 0: none */
	double spread_ppm;	/* (max - min) / median of the good rounds */
	double min_hz, max_hz;	/* of the good rounds */
	int rounds;		/* rounds run */
	int failed;		/* rounds without a figure, left out of the above */
	int64_t round_ns;
	int cpu;		/* the CPU it ran pinned to; -1: could not pin */
};

/*
 * Pure: the figures of N rounds V (sorted in place). A round of 0 Hz, a
 * negative or a non-finite one failed: it is counted in c->failed and left
 * out of the median and the spread. Fills rounds, failed, hz, spread_ppm,
 * min_hz and max_hz.
 */
void tsccal_reduce(double *v, int n, struct user_calib *c);

/* Rounds every user of the calibration runs: --tsc-calib-rounds, a row of
 * the tsc probe (probes/tsc.c) kept here, where it is used. */
extern int tsccal_rounds;

/* Why this CPU's counter (the TSC on x86, CNTVCT_EL0 on arm64; timeutil.h)
 * cannot be used, or NULL when it can. */
const char *tsccal_no_counter(void);
/* Runs the calibration (ROUNDS clamped to 1..USER_CALIB_ROUNDS_MAX) and
 * fills C. Returns c->hz. */
double tsccal_run(int rounds, int64_t round_ns, struct user_calib *c);

/* Writes a calibration's rounds into record R: "calib_rounds",
 * "calib_failed_rounds", "calib_spread_ppm", "calib_round_ms". */
struct tp_rec;
void tsccal_fields(struct tp_rec *r, const struct user_calib *c);

/* One round of INTERVAL_NS: Hz, or 0 when it failed. */
double tsccal_hz_against_raw(int64_t interval_ns);

#endif
