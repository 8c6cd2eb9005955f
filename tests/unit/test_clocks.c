// SPDX-License-Identifier: MIT
/* Unit tests for probe `clocks`' pure helpers (userland/probes/clocks.h) and
 * the stats.c functions it relies on, on fixed inputs. */
#include <stdint.h>
#include <string.h>

#include "tap.h"
#include "../../userland/probes/clocks.h"

static void test_mult_shift(void)
{
	struct cyc2ns c;
	/* 2.5 GHz: 0.4 ns per cycle */
	clocks_calc_mult_shift(&c, 2500000000ULL, 1000000000ULL, 600);
	ok(c.shift > 0 && c.shift <= 32, "2.5 GHz: shift %u in 1..32", c.shift);
	is_near(ldexp((double)c.mult, -(int)c.shift), 0.4, 0.4 / (double)c.mult,
		"2.5 GHz: mult/2^shift = 0.4 ns to 1/mult");
	ok((unsigned __int128)600 * 2500000000ULL * c.mult < ((unsigned __int128)1 << 64),
	   "2.5 GHz: 600 s of cycles times mult fits in 64 bits");
	/* mult is rounded to an integer: relative error up to 1/(2 mult),
	 * 0.075 ppm here, as in the kernel before NTP steers it */
	is_near((double)cyc2ns(&c, 2500000000ULL), 1e9, 1e9 / (2.0 * c.mult) + 1,
		"2.5 GHz: 1 s of cycles is 1e9 ns within 1/(2 mult)");
	is_int(cyc2ns(&c, 0), 0, "0 cycles is 0 ns");
	/* far past maxsec: the 128-bit product does not wrap (1e6 s) */
	is_near((double)cyc2ns(&c, 2500000000ULL * 1000000ULL), 1e15, 1e15 / (2.0 * c.mult) + 1,
		"2.5 GHz: 1e6 s of cycles converts without overflow");

	/* 1 GHz: exactly 1 ns per cycle, mult is a power of two */
	clocks_calc_mult_shift(&c, 1000000000ULL, 1000000000ULL, 600);
	is_int(c.mult, 1ULL << c.shift, "1 GHz: mult == 2^shift");
	is_int(cyc2ns(&c, 123456789), 123456789, "1 GHz: conversion is exact");

	/* the kernel's own example, TSC at 3 GHz as kHz (3000000 kHz -> 1e6 ns/ms) */
	clocks_calc_mult_shift(&c, 3000000, 1000000, 600);
	is_near((double)cyc2ns(&c, 3000000000ULL), 1e9, 1,
		"3 GHz in kHz units: 1 s of cycles is 1e9 ns +- 1");

	/* a slow clock (ACPI PM timer, 3.579545 MHz): mult large, shift small is fine */
	clocks_calc_mult_shift(&c, 3579545, 1000000000ULL, 600);
	is_near((double)cyc2ns(&c, 3579545), 1e9, 1, "3.579545 MHz: 1 s of ticks is 1e9 ns +- 1");
}

static void test_per_call(void)
{
	double b[] = { 40, 10, 1000, 30, 20 };	/* timer units per batch, unsorted */
	struct per_call f;

	/* 10 calls per batch, 0.5 ns per unit: 0.05 ns per unit per call */
	per_call_figures(b, 5, 10, 0.5, &f);
	is_near(f.p50, 1.5, 1e-12, "median of batch means (30 units -> 1.5 ns/call)");
	is_near(f.min, 0.5, 1e-12, "min of batch means");
	/* p99, nearest rank: ceil(0.99 * 5) = 5th, the 1000-unit batch */
	is_near(f.p99, 1000 * 0.05, 1e-9, "p99 of batch means, nearest rank");
	is_near(f.mean, (10 + 20 + 30 + 40 + 1000) / 5.0 * 0.05, 1e-12, "mean of batch means");
	is_int(f.n, 5, "n: five batches behind the percentiles");
	/* 1100 units x 0.5 ns: every batch together took 550 ns */
	is_near(f.elapsed_ns, 550, 1e-9, "elapsed: all batches, in ns");
	ok(b[0] == 10 && b[4] == 1000, "batches sorted in place");

	double one[] = { 7 };
	per_call_figures(one, 1, 1, 1, &f);
	ok(f.p50 == 7 && f.min == 7 && f.p99 == 7, "one batch: median = min = p99");

	double ev[] = { 4, 1, 3, 2 };
	is_near(stats_median(ev, 4), 2.5, 1e-12, "stats_median() of an even count is the midpoint");
	is_near(stats_percentile_sorted(ev, 4, 50), 2, 0, "p50 of an even count is a sample (rank 2)");
	is_near(stats_percentile_sorted(ev, 4, 0), 1, 0, "p0 is the minimum");
	is_near(stats_percentile_sorted(ev, 4, 100), 4, 0, "p100 is the maximum");
}

static void test_steps(void)
{
	/* steps 10, 0, 15, -5, 20: granularity 10, one backward of 5, three forward */
	int64_t a[] = { 0, 10, 10, 25, 20, 40 };
	/* steps 3, -13; the 40 -> 100 between chunks is not a step */
	int64_t b[] = { 100, 103, 90 };
	int64_t flat[] = { 5, 5, 5, 5 };
	struct step_acc acc;

	memset(&acc, 0, sizeof(acc));
	step_acc_add(&acc, a, 6);
	is_int(acc.s.granularity, 10, "granularity: smallest non-zero forward step");
	is_int(acc.s.backward, 1, "one backward step");
	is_int(acc.s.largest_backward, 5, "largest backward step");
	is_int(acc.forward, 3, "forward steps counted");
	step_acc_add(&acc, b, 3);
	is_int(acc.s.granularity, 3, "merged granularity is the smaller");
	is_int(acc.s.backward, 2, "backward steps add up across chunks");
	is_int(acc.s.largest_backward, 13, "largest backward across chunks");
	is_int(acc.forward, 4, "no step across the chunk boundary");
	is_int(acc.reads, 9, "reads counted");

	memset(&acc, 0, sizeof(acc));
	step_acc_add(&acc, flat, 4);
	is_int(acc.s.granularity, 0, "a clock that never moved has no granularity");
	is_int(acc.forward, 0, "and no forward step");
	is_int(acc.s.backward, 0, "and no backward step");
}

static void test_format(void)
{
	char buf[40];

	format_seconds(buf, sizeof(buf), 1733140000123456789LL, 9);
	is_str(buf, "1733140000.123456789", "seconds with nanoseconds");
	format_seconds(buf, sizeof(buf), 1212380080620649999LL, 6);
	is_str(buf, "1212380080.620649", "gettimeofday: microseconds, truncated");
	format_seconds(buf, sizeof(buf), 1212380161999999999LL, 0);
	is_str(buf, "1212380161", "time(): whole seconds, truncated");
	format_seconds(buf, sizeof(buf), 2296430000LL, 9);
	is_str(buf, "2.296430000", "CPU time keeps its zeros (seed 001)");
	format_seconds(buf, sizeof(buf), 5, 9);
	is_str(buf, "0.000000005", "leading zeros of the fraction");
	format_seconds(buf, sizeof(buf), -1500000000LL, 9);
	is_str(buf, "-1.500000000", "negative values");

	format_duration(buf, sizeof(buf), 57);
	is_str(buf, "57 ns", "57 ns");
	format_duration(buf, sizeof(buf), 1200);
	is_str(buf, "1.2 us", "1.2 us");
	format_duration(buf, sizeof(buf), 2550);
	is_str(buf, "2.55 us", "2.55 us");
	format_duration(buf, sizeof(buf), 4000000);
	is_str(buf, "4 ms", "4 ms (a 250 Hz tick)");
	format_duration(buf, sizeof(buf), 1e9);
	is_str(buf, "1 s", "1 s");
	format_duration(buf, sizeof(buf), 999.9);
	is_str(buf, "1 us", "999.9 ns rounds into the larger unit");
	format_duration(buf, sizeof(buf), 0.477);
	is_str(buf, "0.477 ns", "below a ns");
	format_duration(buf, sizeof(buf), 0);
	is_str(buf, "-", "nothing seen");
	format_duration(buf, sizeof(buf), NAN);
	is_str(buf, "-", "NaN");
}

static void test_vdso_by_cost(void)
{
	ok(vdso_by_cost(25, 1000), "25 ns against a 1000 ns syscall: served in user space");
	ok(!vdso_by_cost(1100, 1000), "1100 ns against 1000 ns: entered the kernel");
	ok(!vdso_by_cost(600, 1000), "over half the syscall: not the vDSO");
	ok(!vdso_by_cost(0, 1000), "no figure: no verdict");
}

int main(void)
{
	test_mult_shift();
	test_per_call();
	test_steps();
	test_format();
	test_vdso_by_cost();
	return tap_done();
}
