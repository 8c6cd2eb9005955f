/* SPDX-License-Identifier: MIT */
/* Probe `wakeup`: the arithmetic, free of I/O so tests/unit can check it. */
#ifndef TP_WAKEUP_H
#define TP_WAKEUP_H

#include <stddef.h>
#include <stdint.h>

#include "../options.h"

/* Latencies of one mechanism at one period. */
struct lat_summary {
	size_t samples;
	int64_t min_ns, max_ns;
	double avg_ns;
	double p50_ns, p99_ns, p999_ns;	/* exact, from the samples (stats.c) */
};

/* Fills s from n latencies; scratch holds n doubles. */
void wakeup_lat_summarize(const int64_t *lat_ns, size_t n, double *scratch, struct lat_summary *s);

/*
 * Periods missed by a wake-up this late: the deadlines on the period grid
 * that passed before it, floor(latency / period), as cyclictest's
 * timerthread() counts them (its "while (now > next) next += interval").
 */
uint64_t wakeup_missed_periods(int64_t latency_ns, int64_t period_ns);

/* The periods in us: ASKED (--wakeup-us), or when it is empty or NULL 1000 and 100. */
size_t wakeup_periods(const struct int_list *asked, int64_t *us, size_t max);

/* Samples per mechanism and period: quick 200; full 3 s worth, 1000..30000. */
size_t wakeup_samples(int quick, int64_t period_us);

/* The most samples one mechanism takes at one period, however asked (memory: 8 bytes each). */
#define WAKEUP_SAMPLES_MAX 1000000

/*
 * Samples per mechanism and period as asked (cyclictest's -l and -D):
 * samples > 0 (--wakeup-samples) that many; else seconds > 0
 * (--wakeup-seconds) the probe's whole measuring time, shared evenly by
 * its slots (mechanisms x periods), in periods of period_us, at least 1;
 * else wakeup_samples(). At most WAKEUP_SAMPLES_MAX.
 */
size_t wakeup_length(int samples, int seconds, size_t slots, int quick, int64_t period_us);

/* The SCHED_FIFO priority to ask for: ASKED (--wakeup-priority) when >= 0,
 * or by default 90 in the appliance and none (0) on a host. */
int wakeup_priority(int asked, int appliance);

#endif
