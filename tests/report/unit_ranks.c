// SPDX-License-Identifier: MIT
/*
 * Unit tests of tools/report/ranks.c: Mann-Whitney's p, exact and
 * approximate, and the Hodges-Lehmann shift with its interval, against
 * values counted by hand.
 */
#include <math.h>

#include "../../tools/report/ranks.h"
#include "../unit/tap.h"

int main(void)
{
	double a[] = { 1, 2, 3, 4, 5 }, b[] = { 6, 7, 8, 9, 10 }, c[] = { 1, 3, 5, 7, 9 };
	double d[] = { 2, 4, 6, 8, 10 }, big_x[30], big_y[30];
	double wild[] = { 7.745, 6.898, 6.930, 6.992, 6.950 };
	double calm[] = { 6.708, 6.684, 6.838, 6.752, 6.758 };
	struct ranks r;

	ranks_test(a, 5, b, 5, 0.05, &r);
	is_near(r.p, 2.0 / 252, 1e-12, "5 against 5 apart: p is 2 of the 252 orders");
	is_near(r.shift, 5, 0, "5 against 5 apart: the shift is the median difference, 5");
	is_near(r.lo, 2, 0, "interval from the 3rd smallest difference (P(U < 3) = 4/252 <= 0.025)");
	is_near(r.hi, 8, 0, "interval to the 3rd largest difference");
	ranks_test(a, 4, b, 4, 0.05, &r);
	is_near(r.p, 2.0 / 70, 1e-12, "4 against 4 apart: p is 2 of the 70 orders");
	ranks_test(a, 3, b, 3, 0.05, &r);
	is_near(r.p, 0.1, 1e-12, "3 against 3 apart: p is 0.1, never below 0.05");
	ok(isinf(r.lo) && isinf(r.hi), "3 against 3: no interval at 0.05 (too few orders)");
	ranks_test(c, 5, d, 5, 0.05, &r);
	is_near(r.p, 0.6904762, 1e-6, "interleaved 5 and 5: U 15, p 0.690 (R: wilcox.test)");
	ranks_test(wild, 5, calm, 5, 0.05, &r);
	is_near(r.p, 2.0 / 252, 1e-12, "one wild value does not hide a side that is below in every run");
	ok(r.hi < -0.05 && r.lo > -1.1, "its shift's interval stays below the band of 5 percent");
	for (int i = 0; i < 30; i++) {
		big_x[i] = i;
		big_y[i] = i + 10;
	}
	ranks_test(big_x, 30, big_y, 30, 0.05, &r);
	/* U 700 of 900 (20 ties a half), mean 450, variance 75 (61 - 120 / 3540): z 3.69 */
	is_near(r.p, 2.245e-4, 2e-6, "30 against 30 with ties: the normal approximation, p 0.000224");
	is_near(r.shift, 10, 0, "30 against 30: shift 10");
	return tap_done();
}
