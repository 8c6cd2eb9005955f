// SPDX-License-Identifier: MIT
/*
 * The bounds arithmetic the stub and probe tscsync share (common/tscsync.h)
 * and the probe's reading of it (tscsync.h): synthetic round trips
 * between two clocks with a known offset theta = TSC_B - TSC_A, one-way
 * latencies chosen by hand, and what the estimate proves.
 */
#include <stdint.h>

#include "../../userland/probes/tscsync.h"
#include "tap.h"

/* A round trip starting at A-time t with latencies out (A->B) and back (B->A). */
static void trip(struct tscsync_bounds *s, int64_t theta, uint64_t t, uint64_t out, uint64_t back)
{
	uint64_t a0 = t, b = (uint64_t)((int64_t)(t + out) + theta), a1 = t + out + back;

	tscsync_add(s, a0, b, a1);
}

int main(void)
{
	struct tscsync_bounds s;
	struct tscsync_estimate e;

	tscsync_init(&s);
	ok(tscsync_estimate(&s, &e) == -1, "no round trip: no estimate");

	/* symmetric 100-tick latencies, theta 1000: interval [900, 1100] */
	tscsync_init(&s);
	trip(&s, 1000, 5000, 100, 100);
	ok(!tscsync_estimate(&s, &e), "one round trip gives an estimate");
	is_near(e.offset_ticks, 1000, 1e-9, "symmetric: the midpoint is theta");
	is_near(e.bound_ticks, 100, 1e-9, "symmetric: half the round trip");
	ok(e.consistent && e.excludes_zero, "consistent, and 1000 +- 100 excludes zero");
	is_int(s.min_rtt_ticks, 200, "round trip 200 ticks");

	/* a negative offset, asymmetric latencies 30 out, 170 back: the
	 * midpoint is off by (out - back) / 2, and theta still inside */
	tscsync_init(&s);
	trip(&s, -5000, 100000, 30, 170);
	tscsync_estimate(&s, &e);
	is_near(e.offset_ticks, -5000 - 70, 1e-9, "asymmetric: midpoint off by (out - back) / 2");
	ok(e.offset_ticks - e.bound_ticks <= -5000 && -5000 <= e.offset_ticks + e.bound_ticks,
	   "asymmetric: theta -5000 inside the bound");
	ok(e.excludes_zero && e.offset_ticks < 0, "negative offset proven");

	/* one trip fast out, one fast back: the intersection pins theta to
	 * within the two fast legs, tighter than either round trip */
	trip(&s, -5000, 200000, 170, 30);
	tscsync_estimate(&s, &e);
	is_near(e.offset_ticks, -5000, 1e-9, "two mirrored asymmetric trips: theta exactly");
	is_near(e.bound_ticks, 30, 1e-9, "bound: the fast leg, 30 ticks");
	is_int(s.samples, 2, "two samples");

	/* a slow trip (an interrupt inside) does not widen the bound */
	trip(&s, -5000, 300000, 50000, 40);
	tscsync_estimate(&s, &e);
	is_near(e.bound_ticks, 30, 1e-9, "a 50000-tick trip leaves the bound alone");
	is_int(s.min_rtt_ticks, 200, "tightest round trip kept");

	/* equal TSCs: zero offset, the interval holds zero */
	tscsync_init(&s);
	for (int i = 0; i < 10; i++)
		trip(&s, 0, 1000 + 1000 * (uint64_t)i, 40 + (uint64_t)i, 60 - (uint64_t)i);
	tscsync_estimate(&s, &e);
	ok(!e.excludes_zero && e.consistent, "theta 0: the interval holds zero");
	ok(e.offset_ticks - e.bound_ticks <= 0 && 0 <= e.offset_ticks + e.bound_ticks, "0 inside");

	/* A's own TSC going back gives no bound */
	tscsync_init(&s);
	tscsync_add(&s, 1000, 1500, 900);
	ok(tscsync_estimate(&s, &e) == -1 && s.rejected == 1, "a1 < a0: rejected, no estimate");

	/* offsets that contradict each other (the offset moved): inconsistent,
	 * and the tightest trip's own interval is reported */
	tscsync_init(&s);
	trip(&s, 0, 1000, 10, 10);
	trip(&s, 500, 2000, 50, 50);
	tscsync_estimate(&s, &e);
	ok(!e.consistent, "a moved offset: inconsistent");
	is_near(e.offset_ticks, 0, 1e-9, "... the tightest trip's midpoint");
	is_near(e.bound_ticks, 10, 1e-9, "... and its half round trip");

	/* counters near wrap and far apart: differences stay exact */
	tscsync_init(&s);
	trip(&s, -((int64_t)1 << 40), UINT64_MAX - 100, 10, 10);
	tscsync_estimate(&s, &e);
	is_near(e.offset_ticks, -(double)((int64_t)1 << 40), 1, "a wrapping A counter, B 2^40 behind");
	/* the stub's integer reading (no floating point in UEFI) */
	{
		struct tscsync_interval iv;

		tscsync_init(&s);
		trip(&s, -5000, 100000, 30, 171);
		ok(!tscsync_interval(&s, &iv) && iv.lo_ticks == -5000 - 171 && iv.hi_ticks == -5000 + 30,
		   "interval: [theta - back, theta + out]");
		is_int(tscsync_mid_ticks(&iv), -5000 - 171 + 100, "integer middle: lo + floor(201 / 2)");
		is_int(tscsync_half_ticks(&iv), 101, "integer half-width: ceil(201 / 2)");
		ok(tscsync_mid_ticks(&iv) - (int64_t)tscsync_half_ticks(&iv) <= iv.lo_ticks &&
			   tscsync_mid_ticks(&iv) + (int64_t)tscsync_half_ticks(&iv) >= iv.hi_ticks,
		   "middle +- half-width holds [lo, hi]");
		ok(iv.excludes_zero && iv.consistent, "negative offset proven, consistent");
		iv = (struct tscsync_interval){ .lo_ticks = INT64_MIN, .hi_ticks = INT64_MAX };
		is_int(tscsync_mid_ticks(&iv), -1, "the widest interval: middle -1 (floor), no overflow");
		ok(tscsync_half_ticks(&iv) == (uint64_t)1 << 63, "... half-width 2^63");
		tscsync_init(&s);
		trip(&s, 0, 1000, 10, 10);
		trip(&s, 500, 2000, 50, 50);
		ok(!tscsync_interval(&s, &iv) && !iv.consistent && iv.lo_ticks == -10 && iv.hi_ticks == 10,
		   "moved offset: the tightest trip's own interval, inconsistent");
		tscsync_init(&s);
		ok(tscsync_interval(&s, &iv) == -1, "no round trip: no interval");
	}
	/* the CPUs measured: all up to 16, an even spread beyond */
	{
		int all[64], out[TSCSYNC_MAX_CPUS], k, distinct = 1;

		for (int i = 0; i < 64; i++)
			all[i] = 2 * i;	/* gaps, as offline CPUs leave */
		is_int(tscsync_pick(all, 5, out, TSCSYNC_MAX_CPUS), 5, "5 CPUs: all of them");
		ok(out[0] == 0 && out[4] == 8, "... in order");
		k = tscsync_pick(all, 64, out, TSCSYNC_MAX_CPUS);
		is_int(k, 16, "64 CPUs: a sample of 16");
		ok(out[0] == 0 && out[15] == 126, "... the first and the last CPU in it");
		for (int i = 1; i < k; i++)
			distinct &= out[i] > out[i - 1];
		ok(distinct, "... distinct, ascending");
		is_int(out[1], 8, "... evenly spread: the second is all[1 * 63 / 15] = cpu 8");
		is_int(tscsync_pick(all, 17, out, TSCSYNC_MAX_CPUS), 16, "17 CPUs: 16");
	}
	return tap_done();
}
