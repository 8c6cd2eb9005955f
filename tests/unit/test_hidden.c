// SPDX-License-Identifier: MIT
/*
 * Time hidden from the TSC (common/hidden.h): a chunk's deficit (the
 * reference's advance minus the TSC's) and its uncertainty (half of each
 * edge's TSC bracket, a reference tick, the calibration's ppm, rounding),
 * the gap decision, a wrapped PM timer, an injected skew and the sum.
 * A 1 GHz TSC makes ticks and ns the same.
 */
#include <stdint.h>

#include "../../common/hidden.h"
#include "../../common/x86clock.h"
#include "tap.h"

#define GHZ 1000000000ull
#define HPET_100MHZ_FS 10000000u	/* QEMU's HPET: 10 ns a tick */

/* A 1 GHz TSC against a 100 MHz HPET known to 10 ppm. */
static struct tp_hidden_scale hpet_scale(void)
{
	struct tp_hidden_scale s = { .tsc_hz = GHZ, .bits = 32, .ppm = 10 };

	tp_hidden_scale_fs(&s, HPET_100MHZ_FS);
	return s;
}

/* The chunk of a 10 ms reference advance over tsc_ticks, brackets of width w each. */
static struct tp_hidden_chunk chunk(const struct tp_hidden_scale *s, uint64_t tsc_ticks,
				    uint64_t ref_ticks, uint64_t w)
{
	struct tp_hidden_edge e0 = { 1000, 1000 + w, 5 }, e1;
	struct tp_hidden_chunk c;

	e1 = (struct tp_hidden_edge){ e0.tsc_a + tsc_ticks, e0.tsc_b + tsc_ticks, 5 + ref_ticks };
	tp_hidden_chunk(s, &e0, &e1, &c);
	return c;
}

static void test_agree(void)
{
	struct tp_hidden_scale s = hpet_scale();
	struct tp_hidden_chunk c = chunk(&s, 10000000, 1000000, 100);

	is_int(c.deficit_ns, 0, "10 ms on both: no deficit");
	/* 100 (half of two 100 ns brackets) + 1 + 10 (a tick) + 100 (10 ppm of 10 ms) + 2 */
	is_int(c.unc_ns, 213, "uncertainty: brackets, a tick, the ppm, rounding");
	ok(!tp_hidden_is_gap(&c), "no deficit: no hidden gap");
}

static void test_gap(void)
{
	struct tp_hidden_scale s = hpet_scale();
	struct tp_hidden_chunk c = chunk(&s, 10000000 - 50000, 1000000, 100);

	is_int(c.deficit_ns, 50000, "the TSC counted 50 us less than the HPET");
	ok(tp_hidden_is_gap(&c), "50 us hidden from the TSC: a hidden gap");
	c = chunk(&s, 10000000 - 213, 1000000, 100);
	is_int(c.deficit_ns, 213, "213 ns behind");
	is_int(c.unc_ns, 212, "uncertainty 212 ns (10 ppm of 9.999787 ms: 99 ns)");
	ok(tp_hidden_is_gap(&c), "one ns past the uncertainty: a hidden gap");
}

static void test_no_gap(void)
{
	struct tp_hidden_scale s = hpet_scale();
	struct tp_hidden_chunk c = chunk(&s, 10000000 - 212, 1000000, 100);

	is_int(c.deficit_ns, 212, "212 ns behind");
	ok(!tp_hidden_is_gap(&c), "a deficit equal to the uncertainty: no hidden gap");
	c = chunk(&s, 10000000 + 50000, 1000000, 100);
	is_int(c.deficit_ns, -50000, "the TSC 50 us ahead");
	ok(!tp_hidden_is_gap(&c), "the TSC ahead of the reference: no hidden gap");
	c = chunk(&s, 10000000 - 50000, 1000000, 60000);
	ok(c.unc_ns > 60000 && !tp_hidden_is_gap(&c),
	   "50 us behind with 60 us brackets (an SMI in an edge's read): no hidden gap");
	s.ppm = 10000;	/* 1 %: 100 us over 10 ms */
	c = chunk(&s, 10000000 - 50000, 1000000, 100);
	ok(!tp_hidden_is_gap(&c), "50 us behind with a rate known to 1 %%: no hidden gap");
}

static void test_pmtimer_wrap(void)
{
	struct tp_hidden_scale s = { .tsc_hz = GHZ, .bits = 24, .ppm = 0 };
	struct tp_hidden_edge e0 = { 0, 0, 0xffff00 }, e1;
	struct tp_hidden_chunk c;

	tp_hidden_scale_hz(&s, ACPI_PM_TIMER_HZ);
	/* 35795 ticks = 9 999 874.2 ns, across the 24-bit wrap */
	e1 = (struct tp_hidden_edge){ 9999874, 9999874, (0xffff00 + 35795) & 0xffffff };
	tp_hidden_chunk(&s, &e0, &e1, &c);
	is_int(c.deficit_ns, 0, "PM timer across its 24-bit wrap: no deficit");
	is_int(c.unc_ns, 0 + 1 + 280 + 0 + 2, "a PM timer tick is 280 ns (rounded up)");
	e1.tsc_a = e1.tsc_b = 9999874 - 20000;
	tp_hidden_chunk(&s, &e0, &e1, &c);
	ok(c.deficit_ns == 20000 && tp_hidden_is_gap(&c), "20 us hidden against the PM timer");
}

static void test_skew(void)
{
	struct tp_hidden_scale s = hpet_scale();
	struct tp_hidden_chunk c;

	/* skew:hpet:500: the calibration read the HPET 500 ppm fast, so the TSC's
	 * chosen rate is 500 ppm low and 10 ms of TSC read as 10.005 ms */
	tp_hidden_scale_skew(&s, 500);
	c = chunk(&s, 10005000, 1000000, 100);
	is_int(c.deficit_ns, 0, "an injected skew read as the calibration read it: no deficit");
	s = hpet_scale();
	c = chunk(&s, 10005000, 1000000, 100);
	is_int(c.deficit_ns, -5000, "without it the TSC runs 500 ppm ahead");
	tp_hidden_scale_skew(&s, 0);
	is_int(s.ns_div, 1000000, "no skew: the scale unchanged");
}

static void test_sum(void)
{
	struct tp_hidden_scale s = hpet_scale();
	struct tp_hidden_sum sum = { 0 };
	struct tp_hidden_chunk c;

	c = chunk(&s, 10000000 + 300, 1000000, 100);
	tp_hidden_add(&sum, &c);
	ok(sum.chunks == 1 && sum.gaps == 0 && sum.max_deficit_ns == -300,
	   "one chunk, the TSC ahead: its deficit is the largest (negative)");
	c = chunk(&s, 10000000 - 80000, 1000000, 100);
	tp_hidden_add(&sum, &c);
	c = chunk(&s, 10000000 - 100, 1000000, 100);
	tp_hidden_add(&sum, &c);
	is_int(sum.chunks, 3, "three chunks compared");
	is_int(sum.gaps, 1, "one hidden gap");
	is_int(sum.max_deficit_ns, 80000, "the largest deficit, 80 us");
	is_int(sum.max_unc_ns, 212, "with its chunk's uncertainty");
}

int main(void)
{
	test_agree();
	test_gap();
	test_no_gap();
	test_pmtimer_wrap();
	test_skew();
	test_sum();
	return tap_done();
}
