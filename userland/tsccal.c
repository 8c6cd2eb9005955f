// SPDX-License-Identifier: MIT
/* The best TSC calibration available to a probe; see probe.h. */
#include <string.h>
#include <time.h>

#include "probe.h"
#include "stats.h"
#include "timeutil.h"

#if TP_HAVE_TSC
/*
 * A clock read between two TSC reads, the tightest of a few tries: a
 * preemption or a host exit inside one bracket would move its midpoint by
 * the length of the interruption (milliseconds on a loaded VM, seen here as
 * 1700 ppm errors in 40 ms rounds).
 */
static void bracket(uint64_t *mid_tsc, int64_t *clock_ns)
{
	uint64_t best = UINT64_MAX;

	for (int i = 0; i < 8; i++) {
		uint64_t a = rdtsc_ordered();
		int64_t c = now_ns(CLOCK_MONOTONIC_RAW);
		uint64_t b = rdtsc_ordered();

		if (b >= a && b - a < best) {
			best = b - a;
			*mid_tsc = a + (b - a) / 2;
			*clock_ns = c;
		}
	}
}
#endif

/*
 * One round: TSC ticks across an interval of CLOCK_MONOTONIC_RAW (not slewed
 * by NTP), each end read between two TSC reads so the pairing error is
 * bounded by the tighter pair.
 */
double tsc_hz_against_raw(int64_t interval_ns)
{
#if TP_HAVE_TSC
	uint64_t m0 = 0, m1 = 0;
	int64_t c0 = 0, c1 = 0;

	bracket(&m0, &c0);
	while (now_ns(CLOCK_MONOTONIC_RAW) - c0 < interval_ns)
		;
	bracket(&m1, &c1);
	if (c1 <= c0 || m1 <= m0)
		return 0;
	return (double)(m1 - m0) * 1e9 / (double)(c1 - c0);
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
