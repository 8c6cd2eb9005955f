// SPDX-License-Identifier: MIT
/* The best TSC calibration available to a probe; see probe.h and tsccal.h. */
#include <math.h>
#include <sched.h>
#include <string.h>
#include <time.h>

#include "../common/record.h"
#include "affinity.h"
#include "emit.h"
#include "probe.h"
#include "tsccal.h"
#include "stats.h"
#include "sysinfo.h"
#include "timeutil.h"

int tsccal_rounds = USER_CALIB_ROUNDS_DEFAULT;

#if TP_HAVE_COUNTER
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
		uint64_t a = tp_counter_ordered();
		int64_t c = now_ns(CLOCK_MONOTONIC_RAW);
		uint64_t b = tp_counter_ordered();

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
double tsccal_hz_against_raw(int64_t interval_ns)
{
#if TP_HAVE_COUNTER
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

void tsccal_reduce(double *v, int n, struct user_calib *c)
{
	int good = 0;

	c->rounds = n;
	c->failed = 0;
	c->hz = c->spread_ppm = c->min_hz = c->max_hz = 0;
	for (int i = 0; i < n; i++) {
		if (v[i] > 0 && isfinite(v[i]))
			v[good++] = v[i];
		else
			c->failed++;
	}
	if (!good)
		return;
	c->hz = stats_median(v, (size_t)good);	/* sorts v[0..good) */
	c->min_hz = v[0];
	c->max_hz = v[good - 1];
	c->spread_ppm = (c->max_hz - c->min_hz) / c->hz * 1e6;
}

double tsccal_run(int rounds, int64_t round_ns, struct user_calib *c)
{
	double v[USER_CALIB_ROUNDS_MAX];
	cpu_set_t old;
	int cpu;

	if (rounds < 1)
		rounds = 1;
	if (rounds > USER_CALIB_ROUNDS_MAX)
		rounds = USER_CALIB_ROUNDS_MAX;
	cpu = affinity_pin_self(-1, &old);
	for (int i = 0; i < rounds; i++)
		v[i] = tsccal_hz_against_raw(round_ns);
	if (cpu >= 0)
		affinity_unpin(&old);
	tsccal_reduce(v, rounds, c);
	c->round_ns = round_ns;
	c->cpu = cpu >= 0 ? cpu : -1;
	return c->hz;
}

void tsccal_fields(struct tp_rec *r, const struct user_calib *c)
{
	tp_rec_int(r, "calib_rounds", c->rounds);
	tp_rec_int(r, "calib_failed_rounds", c->failed);
	emit_rec_exact(r, "calib_spread_ppm", c->hz > 0 ? c->spread_ppm : NAN);
	tp_rec_int(r, "calib_round_ms", c->round_ns / NS_PER_MS);
}

const char *tsccal_no_counter(void)
{
	if (!TP_HAVE_COUNTER)
		return "no CPU counter read on this architecture";
	if (TP_HAVE_TSC && !sysinfo_cpu_has_flag("tsc"))
		return "no TSC on this CPU";
	return NULL;
}

double tsccal_probe(struct probe_ctx *ctx)
{
	int64_t round_ms = ctx->quick ? USER_CALIB_QUICK_MS : USER_CALIB_FULL_MS;

	if (ctx->tsc.hz > 0)
		return ctx->tsc.hz;
	if (ctx->stub && ctx->stub->tsc_hz > 0) {
		ctx->tsc.hz = (double)ctx->stub->tsc_hz;
		ctx->tsc.source = "stub";
		ctx->tsc.ref = ctx->stub->tsc_ref[0] ? ctx->stub->tsc_ref : "unknown";
		return ctx->tsc.hz;
	}
	if (!TP_HAVE_COUNTER)
		return 0;
	ctx->tsc.hz = tsccal_run(tsccal_rounds, round_ms * NS_PER_MS, &ctx->tsc.user);
	ctx->tsc.source = "user";
	ctx->tsc.ref = "CLOCK_MONOTONIC_RAW";
	return ctx->tsc.hz;
}

double tsccal_probe_or_claim(struct probe_ctx *ctx)
{
	double hz = tsccal_probe(ctx);

	if ((hz > 0 && isfinite(hz)) || !tp_counter_claimed_hz())
		return hz;
	ctx->tsc.hz = (double)tp_counter_claimed_hz();
	ctx->tsc.source = "cntfrq";
	ctx->tsc.ref = "CNTFRQ_EL0";
	return ctx->tsc.hz;
}
