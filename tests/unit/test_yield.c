// SPDX-License-Identifier: MIT
/*
 * Unit tests for the scheduler probes' pure helpers: yield's sweep and
 * summary (the seed threads.c's columns) and switch's sizing, CPU choice,
 * spread and lmbench lat_ctx's subtraction of the pipe overhead. The worked
 * examples are computed by hand in the comments.
 */
#include <math.h>
#include <sched.h>
#include <stdint.h>

#include "tap.h"
#include "../../userland/timeutil.h"
#include "../../userland/stats.h"
#include "../../userland/probes/yield.h"
#include "../../userland/probes/switch.h"

static void test_normalized_variance(void)
{
	/*
	 * threads.c: sqrdev / (nbthreads * avgvalue^2).
	 * x = {0, 4, 8, 4}: mean = 16 / 4 = 4; deviations -4, 0, 4, 0;
	 * squares 16 + 0 + 16 + 0 = 32; n * mean^2 = 4 * 16 = 64;
	 * 32 / 64 = 0.5. One thread did no work.
	 */
	uint64_t a[] = { 0, 4, 8, 4 };
	/* x = {1, 3}: mean 2; squares 1 + 1 = 2; 2 * 2^2 = 8; 2 / 8 = 0.25 */
	uint64_t b[] = { 1, 3 };
	/* equal work: no variance */
	uint64_t c[] = { 10, 10, 10 };
	/* nobody worked: mean 0, defined as 0 rather than 0/0 */
	uint64_t z[] = { 0, 0, 0 };

	is_near(stats_normalized_variance(a, 4), 0.5, 1e-12, "normalized variance {0,4,8,4} = 32/64");
	is_near(stats_normalized_variance(b, 2), 0.25, 1e-12, "normalized variance {1,3} = 2/8");
	is_near(stats_normalized_variance(c, 3), 0.0, 1e-12, "normalized variance of equal counts is 0");
	is_near(stats_normalized_variance(z, 3), 0.0, 1e-12, "normalized variance with mean 0 is 0");
	is_int(stats_count_zero(a, 4), 1, "one zero-work thread in {0,4,8,4}");
	is_int(stats_count_zero(b, 2), 0, "no zero-work thread in {1,3}");
	is_int(stats_count_zero(z, 3), 3, "three zero-work threads in {0,0,0}");
	is_int(stats_count_zero(a, 0), 0, "no threads, no zero-work threads");
}

static void test_summarize(void)
{
	/*
	 * Gate at 0, window open at 1000 and closed at 1000001000: 1 s. Two
	 * threads counted 100 and 300 calls in it, 1 s of process CPU: total
	 * 400/s, 200/s per thread; mean count 200, squares 100^2 + 100^2 =
	 * 20000, 2 * 200^2 = 80000: variance 0.25; CPU 1e9 ns / 400 = 2.5e6 ns.
	 */
	struct yield_sample s[] = {
		{ .count = 100, .start_ns = 400 },
		{ .count = 300, .start_ns = 900 },
	};
	struct yield_window w = { .created_ns = 0, .open_ns = 1000, .close_ns = 1000001000,
				  .cpu_ns = 1000000000 };
	/*
	 * The seed's case the old count-after-yield missed: of three threads
	 * one started but was starved through the window (count 0), one never
	 * started before the window opened (start 0, count 0). Both
	 * are zero-work, one is late. Counts {0, 0, 30}: mean 10, squares
	 * 100 + 100 + 400 = 600, 3 * 100 = 300: variance 2.
	 */
	struct yield_sample starved[] = {
		{ .count = 0, .start_ns = 500 },
		{ .count = 0, .start_ns = 0 },
		{ .count = 30, .start_ns = 600 },
	};
	struct yield_window w2 = { .created_ns = 100, .open_ns = 1000, .close_ns = 1000 + NS_PER_MS,
				   .cpu_ns = 3000 };
	struct yield_sample idle[] = { { .count = 0, .start_ns = 10 } };
	struct yield_window w3 = { .created_ns = 0, .open_ns = 10, .close_ns = 20 };
	uint64_t scratch[3];
	struct yield_result r;

	yield_summarize(s, 2, &w, scratch, &r);
	is_int(r.threads, 2, "summary: threads");
	is_int(r.total_yields, 400, "summary: total yields");
	is_int(r.window_ns, 1000000000, "summary: window from open to close");
	is_int(r.start_spread_ns, 1000, "summary: start spread is first creation to open");
	is_int(r.late_threads, 0, "summary: both started before the window opened");
	is_near(r.total_per_s, 400, 1e-9, "summary: total_per_s");
	is_near(r.avg_per_thread_per_s, 200, 1e-9, "summary: avg_per_thread_per_s");
	is_int(r.zero_work_threads, 0, "summary: zero_work_threads");
	is_near(r.normalized_variance, 0.25, 1e-12, "summary: normalized_variance");
	is_near(r.ns_per_yield, 2.5e6, 1e-6, "summary: ns_per_yield is CPU time per yield");

	yield_summarize(starved, 3, &w2, scratch, &r);
	is_int(r.zero_work_threads, 2, "starved: a starved and a late thread are both zero-work");
	is_int(r.late_threads, 1, "starved: one thread had not started when the window opened");
	is_near(r.total_per_s, 30000, 1e-6, "starved: 30 calls in 1 ms = 30000/s");
	is_near(r.avg_per_thread_per_s, 10000, 1e-6, "starved: average over all three threads");
	is_near(r.normalized_variance, 2.0, 1e-12, "starved: variance {0,0,30} = 600/300");
	is_near(r.ns_per_yield, 100, 1e-9, "starved: 3000 ns of CPU / 30 calls");

	yield_summarize(idle, 1, &w3, scratch, &r);
	is_int(r.zero_work_threads, 1, "summary: a thread that never yielded is zero-work");
	is_near(r.ns_per_yield, 0, 0, "summary: no yields, ns_per_yield 0 (not a division by 0)");
	is_near(r.total_per_s, 0, 0, "summary: no yields, total_per_s 0");
}

static int same(const int *got, size_t n, const int *want, size_t wn)
{
	if (n != wn)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (got[i] != want[i])
			return 0;
	return 1;
}

static void test_sweep(void)
{
	int out[YIELD_SWEEP_MAX];
	struct int_list none = { 0 }, user = { .n = 4, .v = { 10, 2, 2, 5 } };
	const int full2[] = { 1, 2, 10, 50, 450 };
	const int full16[] = { 1, 2, 10, 16, 50, 450 };
	const int quick4[] = { 1, 2, 4, 10 };
	const int quick1[] = { 1, 2, 10 };
	const int quick64[] = { 1, 2, 10, 64 };
	const int mine[] = { 2, 5, 10 };
	size_t n;

	n = yield_sweep(out, YIELD_SWEEP_MAX, &none, 2, 0);
	ok(same(out, n, full2, 5), "full sweep on 2 CPUs: 1 2 10 50 450 (2 once)");
	n = yield_sweep(out, YIELD_SWEEP_MAX, &none, 16, 0);
	ok(same(out, n, full16, 6), "full sweep on 16 CPUs: 1 2 10 16 50 450, sorted");
	n = yield_sweep(out, YIELD_SWEEP_MAX, &none, 4, 1);
	ok(same(out, n, quick4, 4), "quick sweep on 4 CPUs: 1 2 4 10, no 50 or 450");
	n = yield_sweep(out, YIELD_SWEEP_MAX, &none, 1, 1);
	ok(same(out, n, quick1, 3), "quick sweep on 1 CPU: 1 2 10");
	n = yield_sweep(out, YIELD_SWEEP_MAX, &none, 64, 1);
	ok(same(out, n, quick64, 4), "quick sweep on 64 CPUs: 1 2 10 64");
	n = yield_sweep(out, YIELD_SWEEP_MAX, &user, 2, 0);
	ok(same(out, n, mine, 3), "threads=10,2,2,5 overrides: 2 5 10");
	n = yield_sweep(out, 2, &none, 2, 0);
	is_int(n, 2, "sweep respects the output size");
}

static void test_switch_helpers(void)
{
	double us[] = { 3, 1, 2, 5, 4 };
	struct switch_spread s;
	cpu_set_t set;
	int a = -1, b = -1;

	/* 100 round trips in 1 ms: 20 ms holds 2000 */
	is_int(switch_rounds_for(1000000, 100, 20000000), 2000, "rounds for 20 ms at 10 us each");
	is_int(switch_rounds_for(0, 100, 20000000), 16, "rounds: no warm-up time gives the floor");
	is_int(switch_rounds_for(1000000000, 16, 1000), 16, "rounds: at least 16");
	is_int(switch_rounds_for(1, 1 << 20, 1000000000), 1 << 26, "rounds: at most 2^26");

	CPU_ZERO(&set);
	CPU_SET(3, &set);
	CPU_SET(5, &set);
	CPU_SET(7, &set);
	is_int(switch_pick_cpus(&set, &a, &b), 2, "pick cpus: two found in {3,5,7}");
	ok(a == 3 && b == 5, "pick cpus: the first two, 3 and 5");
	CPU_ZERO(&set);
	CPU_SET(1, &set);
	is_int(switch_pick_cpus(&set, &a, &b), 1, "pick cpus: one CPU, cross-CPU impossible");
	is_int(a, 1, "pick cpus: that CPU");
	CPU_ZERO(&set);
	is_int(switch_pick_cpus(&set, &a, &b), 0, "pick cpus: empty set");

	/* {1,2,3,4,5}: median 3, mean 3, squares 4+1+0+1+4 = 10, 10/4 = 2.5 */
	switch_summarize(us, 5, &s);
	is_near(s.us_min, 1, 0, "spread: min");
	is_near(s.us_median, 3, 0, "spread: median");
	is_near(s.us_max, 5, 0, "spread: max");
	is_near(s.us_stddev, sqrt(2.5), 1e-12, "spread: sample stddev sqrt(10/4)");
	is_near(s.ns_half_round_trip, 1500, 1e-9, "spread: half a round trip (a switch, or a hand-over)");
}

static void test_lat_ctx(void)
{
	/* round trips (us) and, timed after each, the overhead (ns) */
	double us[] = { 6, 5, 7, 5.5, 6.5 }, ovh[] = { 700, 800, 600, 750, 650 };
	/* the overhead moving with the round trip, as under load */
	double us2[] = { 5, 7, 6 }, ovh2[] = { 600, 800, 700 };
	struct switch_spread s;
	struct switch_lat_ctx l;
	uint32_t seed = 12345;
	int inside = 1;

	/* 5 us round trip: 2500 ns per half, 700 of them the pipe */
	is_near(switch_lat_ctx_ns(5, 700), 1800, 1e-9, "lat_ctx: 5 us / 2 - 700 ns = 1800 ns");
	is_near(switch_lat_ctx_ns(1, 600), -100, 1e-9, "lat_ctx: a negative result is kept, not hidden");

	/*
	 * medians: us {5,5.5,6,6.5,7} -> 6, overhead {600..800} -> 700;
	 * 6000 / 2 - 700 = 2300. Paired: 2300, 1700, 2900, 2000, 2600;
	 * mean 2300, squares 36+9+0+9+36 = 90 x 10^4, / 4 -> stddev sqrt(225000).
	 * Overhead: squares 10^4 + 2500 + 0 + 2500 + 10^4 = 25000, / 4 = 6250.
	 */
	switch_lat_ctx(us, ovh, 5, &s, &l);
	is_near(l.ns, 2300, 1e-9, "lat_ctx: median round trip / 2 - median overhead");
	is_near(l.paired_ns.min, 1700, 1e-9, "lat_ctx: min over the paired repetitions");
	is_near(l.paired_ns.max, 2900, 1e-9, "lat_ctx: max over the paired repetitions");
	is_near(l.paired_ns.stddev, sqrt(225000), 1e-9, "lat_ctx: stddev of the paired repetitions");
	is_near(s.us_median, 6, 0, "lat_ctx: the round trip's spread is filled");
	is_near(s.ns_half_round_trip, 3000, 1e-9, "lat_ctx: half the round trip beside it");
	ok(l.overhead_ns.n == 5 && l.overhead_ns.min == 600 && l.overhead_ns.p50 == 700
	   && l.overhead_ns.max == 800, "lat_ctx: overhead min 600, median 700, max 800 of 5");
	is_near(l.overhead_ns.stddev, sqrt(6250), 1e-9, "lat_ctx: overhead stddev sqrt(25000/4)");

	/* paired 5000/2-600 = 1900, 2700, 2300; crossing the extremes would
	 * say 1700 .. 2900 */
	switch_lat_ctx(us2, ovh2, 3, &s, &l);
	ok(l.ns == 2300 && l.paired_ns.min == 1900 && l.paired_ns.max == 2700,
	   "lat_ctx: the spread pairs each round trip with its own overhead");

	/* the difference of medians never leaves the paired range (switch.c) */
	for (int n = 1; n <= 12 && inside; n++) {
		for (int k = 0; k < 200 && inside; k++) {
			double a[12], b[12];

			for (int i = 0; i < n; i++) {
				seed = seed * 1103515245u + 12345u;
				a[i] = 4 + (seed >> 16) % 1000 / 100.0;
				seed = seed * 1103515245u + 12345u;
				b[i] = 500 + (seed >> 16) % 1000;
			}
			switch_lat_ctx(a, b, (size_t)n, &s, &l);
			inside = l.paired_ns.min <= l.ns && l.ns <= l.paired_ns.max;
		}
	}
	ok(inside, "lat_ctx: min <= figure <= max for 1..12 repetitions, 200 draws each");
}

/* One round's made-up window: counts c[0..n) over window_ns, its CPU time,
 * ten equal sub-windows with the yields spread evenly but for the first. */
static void made_up_round(struct yield_pool *p, uint64_t *counts, const uint64_t *c, size_t n,
			  int64_t window_ns, int64_t cpu_ns, struct yield_result *r)
{
	struct yield_sample s[4];
	struct yield_window w = { .created_ns = 0, .open_ns = 1000, .close_ns = 1000 + window_ns,
				  .cpu_ns = cpu_ns };
	int64_t mark_ns[YIELD_SUBWINDOWS + 1];
	uint64_t mark_count[YIELD_SUBWINDOWS + 1], total = 0, scratch[4];

	for (size_t i = 0; i < n; i++) {
		s[i] = (struct yield_sample){ .count = c[i], .start_ns = 500 };
		total += c[i];
	}
	for (int k = 0; k <= YIELD_SUBWINDOWS; k++) {
		mark_ns[k] = w.open_ns + window_ns * k / YIELD_SUBWINDOWS;
		mark_count[k] = k ? total * (uint64_t)(k + 1) / (YIELD_SUBWINDOWS + 1) : 0;
	}
	mark_count[YIELD_SUBWINDOWS] = total;
	yield_summarize(s, n, &w, scratch, r);
	yield_subwindow_ci(mark_ns, mark_count, YIELD_SUBWINDOWS, r);
	yield_pool_add(p, counts, s, n, &w, mark_ns, mark_count, r);
}

/* Rounds: the run's figures are those of all the rounds' samples together. */
static void test_pool(void)
{
	static struct yield_pool one, two;
	const uint64_t a[] = { 100, 300 }, b[] = { 50, 0 }, ab[] = { 150, 300 };
	uint64_t c1[2] = { 0 }, c2[2] = { 0 }, scratch[2];
	struct yield_sample whole[2] = { { .count = ab[0], .start_ns = 1 }, { .count = ab[1], .start_ns = 1 } };
	struct yield_window ww = { .created_ns = 0, .open_ns = 10, .close_ns = 10 + 1500 * NS_PER_MS,
				   .cpu_ns = 1500000 };
	struct yield_result ra, rb, pooled, want;

	made_up_round(&one, c1, a, 2, NS_PER_S, 1000000, &ra);
	yield_pool_result(&one, c1, scratch, &pooled);
	ok(pooled.total_per_s == ra.total_per_s && pooled.ns_per_yield == ra.ns_per_yield &&
	   pooled.normalized_variance == ra.normalized_variance && pooled.subwindows == ra.subwindows &&
	   pooled.rel_lo == ra.rel_lo && pooled.rel_hi == ra.rel_hi,
	   "one round pooled: the figures and interval of that round");

	made_up_round(&two, c2, a, 2, NS_PER_S, 1000000, &ra);
	made_up_round(&two, c2, b, 2, 500 * NS_PER_MS, 500000, &rb);
	yield_pool_result(&two, c2, scratch, &pooled);
	yield_summarize(whole, 2, &ww, scratch, &want);
	is_int(pooled.total_yields, 450, "two rounds: every yield counted");
	is_int(pooled.window_ns, 1500 * NS_PER_MS, "two rounds: the windows summed");
	is_near(pooled.total_per_s, 300, 1e-9, "two rounds: 450 yields in 1.5 s, not the mean of 400 and 100");
	ok(pooled.total_per_s == want.total_per_s && pooled.ns_per_yield == want.ns_per_yield &&
	   pooled.normalized_variance == want.normalized_variance &&
	   pooled.zero_work_threads == want.zero_work_threads && pooled.zero_work_threads == 0,
	   "two rounds: the figures of one 1.5 s window with each thread's counts summed");
	is_int(pooled.subwindows, 2 * YIELD_SUBWINDOWS, "two rounds: the interval over every sub-window");
	is_int(two.rounds, 2, "two rounds added");
}

int main(void)
{
	test_normalized_variance();
	test_summarize();
	test_sweep();
	test_switch_helpers();
	test_lat_ctx();
	test_pool();
	return tap_done();
}
