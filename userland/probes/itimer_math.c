// SPDX-License-Identifier: MIT
/*
 * Probe itimer's arithmetic (itimer.h): a window's intervals from its
 * signals' stamps, the seed's actual, accuracy and per-signal figures, the
 * CPU-share model, and which intervals and loads a run asks for. Plain
 * functions of numbers, tested on the host (tests/unit/test_itimer.c);
 * itimer.c measures and writes the records.
 */
#include <math.h>
#include <string.h>

#include "../timeutil.h"
#include "itimer.h"

/* The seed's list, 100 ms down to 100 us. */
static const int64_t default_us[] = { 100000, 50000, 20000, 10000, 5000, 2000, 1000, 500, 200, 100 };
static const int64_t quick_us[] = { 10000, 1000, 100 };

size_t itimer_interval_stats(const int64_t *stamp_ns, size_t n, struct itimer_interval_stats *s)
{
	double sq = 0;

	memset(s, 0, sizeof(*s));
	s->signals = n;
	if (n < 2)
		return 0;
	s->intervals = n - 1;
	s->mean_ns = (double)(stamp_ns[n - 1] - stamp_ns[0]) / (double)s->intervals;
	s->min_ns = s->max_ns = (double)(stamp_ns[1] - stamp_ns[0]);
	for (size_t i = 1; i < n; i++) {
		double d = (double)(stamp_ns[i] - stamp_ns[i - 1]);

		if (d < s->min_ns)
			s->min_ns = d;
		if (d > s->max_ns)
			s->max_ns = d;
		sq += (d - s->mean_ns) * (d - s->mean_ns);
	}
	s->stddev_ns = s->intervals > 1 ? sqrt(sq / (double)(s->intervals - 1)) : 0;
	return s->intervals;
}

double itimer_per_signal_us(int64_t span_ns, size_t signals)
{
	return signals >= 2 ? (double)span_ns / (double)(signals - 1) / NS_PER_US : 0;
}

double itimer_accuracy_pct(double actual_us, double claimed_us)
{
	return claimed_us > 0 ? actual_us / claimed_us * 100.0 : 0;
}

double itimer_model_cpu_per_signal_us(double interval_us, double slice_us)
{
	if (!(interval_us > 0) || !(slice_us > 0))
		return 0;
	return interval_us * slice_us / (interval_us + slice_us);
}

double itimer_slice_us(int64_t cpu_ns, long nivcsw)
{
	return nivcsw > 0 && cpu_ns > 0 ? (double)cpu_ns / NS_PER_US / (double)nivcsw : 0;
}

size_t itimer_intervals(const struct int_list *asked, int quick, int64_t *us, size_t max)
{
	if (quick)
		return int_list_or(asked, quick_us, sizeof(quick_us) / sizeof(*quick_us), us, max);
	return int_list_or(asked, default_us, sizeof(default_us) / sizeof(*default_us), us, max);
}

size_t itimer_loads(int asked, int appliance, int ncpu, int *load)
{
	if (asked >= 0) {
		load[0] = asked;
		return 1;
	}
	load[0] = 0;
	if (!appliance)
		return 1;
	/* More burners than CPUs, so the probe has to share a CPU. */
	load[1] = 2 * (ncpu > 0 ? ncpu : 1);
	return 2;
}

