// SPDX-License-Identifier: MIT
/* The best TSC calibration available to a probe; see probe.h. */
#include <string.h>
#include <time.h>

#include "probe.h"
#include "stats.h"
#include "timeutil.h"

/*
 * One round: TSC ticks across an interval of CLOCK_MONOTONIC_RAW (not slewed
 * by NTP), each end read between two TSC reads so the pairing error is
 * bounded by the tighter pair.
 */
double tsc_hz_against_raw(int64_t interval_ns)
{
#if TP_HAVE_TSC
	uint64_t t0, t1, t2, t3;
	int64_t c0, c1;

	t0 = rdtsc_ordered();
	c0 = now_ns(CLOCK_MONOTONIC_RAW);
	t1 = rdtsc_ordered();
	do {
		t2 = rdtsc_ordered();
		c1 = now_ns(CLOCK_MONOTONIC_RAW);
		t3 = rdtsc_ordered();
	} while (c1 - c0 < interval_ns);
	if (c1 <= c0)
		return 0;
	/* midpoints of each bracket */
	return ((double)(t2 + t3) / 2 - (double)(t0 + t1) / 2) * 1e9 / (double)(c1 - c0);
#else
	(void)interval_ns;
	return 0;
#endif
}

double probe_tsc_calib(struct probe_ctx *ctx)
{
	double v[16];
	int rounds = 5;

	if (ctx->tsc.hz > 0)
		return ctx->tsc.hz;
	if (ctx->opt && ctx->opt->tsc_hz > 0) {
		ctx->tsc.hz = (double)ctx->opt->tsc_hz;
		ctx->tsc.source = "stub";
		ctx->tsc.ref = ctx->opt->tsc_ref[0] ? ctx->opt->tsc_ref : "unknown";
		return ctx->tsc.hz;
	}
	if (!TP_HAVE_TSC)
		return 0;
	for (int i = 0; i < rounds; i++)
		v[i] = tsc_hz_against_raw(40 * NS_PER_MS);
	ctx->tsc.hz = median(v, (size_t)rounds);
	ctx->tsc.source = "user";
	ctx->tsc.ref = "CLOCK_MONOTONIC_RAW";
	return ctx->tsc.hz;
}
