// SPDX-License-Identifier: MIT
/*
 * Unit tests for a figure's 95 % interval (userland/ci.c) and yield's
 * sub-window interval of its rate. The worked examples are by hand.
 */
#include <math.h>
#include <stdint.h>

#include "tap.h"
#include "../../userland/ci.h"
#include "../../userland/probes/yield.h"

static void test_quantile(void)
{
	double v[100], lo, hi;

	for (int i = 0; i < 100; i++)
		v[i] = i + 1;
	/* p50 of 100: 1.96 sqrt(100 x 0.25) = 9.8; ranks floor(40.2) = 40, ceil(59.8) + 1 = 61 */
	ci_quantile(v, 100, 50, &lo, &hi);
	is_near(lo, 40, 0, "median of 1..100: the interval opens at rank 40");
	is_near(hi, 61, 0, "... and closes at rank 61");
	/* p99 of 100: 1.96 sqrt(0.99) = 1.95; ranks floor(97.05) = 97, ceil(100.95) + 1 -> 100 */
	ci_quantile(v, 100, 99, &lo, &hi);
	is_near(lo, 97, 0, "p99 of 1..100: rank 97");
	is_near(hi, 100, 0, "... to the largest sample, kept within them");
	ci_quantile(v, 3, 50, &lo, &hi);
	ok(lo == 1 && hi == 3, "three samples: the whole range");
	ci_quantile(v, 0, 50, &lo, &hi);
	ok(isnan(lo) && isnan(hi), "no samples: no interval");
}

static void test_mean(void)
{
	double lo, hi;

	/* t(4) = 2.776; 2.776 x 2 / sqrt(5) = 2.4830 */
	ci_mean(10, 2, 5, &lo, &hi);
	is_near(lo, 10 - 2.4830, 1e-4, "mean 10, sd 2, n 5: Student's 95 % interval, low end");
	is_near(hi, 10 + 2.4830, 1e-4, "... high end");
	ci_mean(10, 2, 1, &lo, &hi);
	ok(isinf(hi), "one sample: no interval of a mean");
	is_near(ci_t975(1000), 1.962, 2e-3, "t at 1000 df is near the normal's 1.96");
}

static void test_yield_subwindows(void)
{
	int64_t t[] = { 0, 100, 200, 300, 400 };
	uint64_t even[] = { 0, 10, 20, 30, 40 }, uneven[] = { 0, 10, 30, 40, 60 };
	struct yield_result r = { 0 };

	yield_subwindow_ci(t, even, 4, &r);
	ok(r.subwindows == 4 && r.rel_lo == 1 && r.rel_hi == 1,
	   "yield: a rate steady over 4 sub-windows: an interval of width 0");
	/*
	 * rates 0.1, 0.2, 0.1, 0.2 per ns (x 1e9); mean 0.15e9; sd 0.0577e9;
	 * t(3) = 3.182: half 3.182 x 0.0577 / 2 = 0.0919e9; relative 0.6126
	 */
	yield_subwindow_ci(t, uneven, 4, &r);
	is_near(r.rel_hi, 1.6126, 1e-3, "yield: rates 1e8 and 2e8 alternating: +61 % at 95 %");
	is_near(r.rel_lo, 0.3874, 1e-3, "... and -61 %");
	yield_subwindow_ci(t, even, 1, &r);
	is_int(r.subwindows, 0, "yield: one sub-window: no interval");
}

int main(void)
{
	test_quantile();
	test_mean();
	test_yield_subwindows();
	return tap_done();
}
