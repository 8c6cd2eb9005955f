/* SPDX-License-Identifier: MIT */
/* Probe `itimer`: the arithmetic, free of I/O so tests/unit can check it. */
#ifndef TP_ITIMER_H
#define TP_ITIMER_H

#include <stddef.h>
#include <stdint.h>

#include "../options.h"

#define ITIMER_MAX_LOADS 2

/* The intervals between consecutive signal time stamps. */
struct itimer_interval_stats {
	size_t signals;		/* time stamps given */
	size_t intervals;	/* signals - 1, or 0 */
	double mean_ns;		/* (last - first) / intervals: the seed's "actual" */
	double min_ns, max_ns;
	double stddev_ns;	/* sample standard deviation (n - 1) */
};

/* Fills s from n time stamps (ns, non-decreasing). Returns s->intervals. */
size_t itimer_interval_stats(const int64_t *stamp_ns, size_t n, struct itimer_interval_stats *s);

/*
 * The seed's "actual" (timer-perf.c): the time that went by per signal,
 * SPAN_NS between the first and the last of SIGNALS signals over the
 * SIGNALS - 1 intervals between them, in us: span / (signals - 1) / 1000.
 * On the process's CPU time it is the headline (`actual_us`), on the wall
 * clock `wall_us_per_signal`. 0 for fewer than 2 signals.
 */
double itimer_per_signal_us(int64_t span_ns, size_t signals);

/* The seed's accuracy: actual / claimed x 100; 0 when claimed is 0. */
double itimer_accuracy_pct(double actual_us, double claimed_us);

/*
 * ITIMER_REAL against the process's CPU time, the quantity of the seed's
 * "short" figures under load: CPU time the process got per signal. A model
 * for a process that shares its CPU and runs in slices of SLICE_US of CPU
 * time: SIGALRM is queued once, so while the process waits for the CPU at
 * most one signal is pending, taken as soon as it runs; then one every
 * INTERVAL_US while it runs. Per slice 1 + slice / interval signals, so
 * CPU per signal = interval x slice / (interval + slice). 0 for bad input.
 */
double itimer_model_cpu_per_signal_us(double interval_us, double slice_us);
/* Mean CPU time per slice: CPU_NS over NIVCSW involuntary switches
 * (the times the process lost the CPU to another); 0 when none. */
double itimer_slice_us(int64_t cpu_ns, long nivcsw);

/* The requested intervals in us: ASKED (--itimer-us), or when it is empty
 * or NULL the profile's default (the seed's ten from 100000 down to 100, or
 * three for quick). */
size_t itimer_intervals(const struct int_list *asked, int quick, int64_t *us, size_t max);

/* The background loads to run: ASKED (--itimer-load) when >= 0, or by
 * default 0, and in the appliance also 2 x CPUs. Returns how many
 * (<= ITIMER_MAX_LOADS). */
size_t itimer_loads(int asked, int appliance, int ncpu, int *load);

#endif
