// SPDX-License-Identifier: MIT
/*
 * Unit tests of tools/report/edivisive.c against series worked by hand.
 *
 * x = {1, 1, 2, 5, 6}, each side at least 2 values: tau 2 or 3.
 *   tau 2: X = {1, 1}, Y = {2, 5, 6}. Between: (1 + 4 + 5) twice = 20,
 *     2 x 20 / (2 x 3) = 6.667; within X 0; within Y (3 + 4 + 1) / 3 = 2.667;
 *     E = 4, Q = 2 x 3 / 5 x 4 = 4.8.
 *   tau 3: X = {1, 1, 2}, Y = {5, 6}. Between: 9 + 9 + 7 = 25,
 *     2 x 25 / 6 = 8.333; within X (0 + 1 + 1) / 3 = 0.667; within Y 1 / 1;
 *     E = 6.667, Q = 6 / 5 x 6.667 = 8.
 *   The best split is tau 3, Q 8.
 *
 * y = {0, 0, 0, 10, 10, 10}, 3 a side: only tau 3, between 9 x 10 = 90,
 *   2 x 90 / 9 = 20, within 0: Q = 9 / 6 x 20 = 30. A shuffle reaches 30
 *   when it keeps the three 10s together on one side: 2 of the C(6,3) = 20
 *   orders, p about 0.1, far above 0.001: six runs cannot show a change.
 */
#include <math.h>

#include "../../tools/report/edivisive.h"
#include "../unit/tap.h"

int main(void)
{
	double x[] = { 1, 1, 2, 5, 6 }, y[] = { 0, 0, 0, 10, 10, 10 }, z[24], flat[20], q;
	size_t cp[8], n;

	is_near(ediv_q(x, 5, 2), 4.8, 1e-12, "x at tau 2: Q 4.8, worked by hand");
	is_near(ediv_q(x, 5, 3), 8, 1e-12, "x at tau 3: Q 8, worked by hand");
	is_int(ediv_best(x, 5, 2, &q), 3, "x's best split is tau 3");
	is_near(q, 8, 1e-12, "its Q is 8: the moving sums agree with the direct ones");
	is_int(ediv_best(x, 5, 3, &q), 0, "5 values cannot hold 3 a side: no split");
	is_int(ediv_best(y, 6, 3, &q), 3, "y's only split, tau 3");
	is_near(q, 30, 1e-12, "its Q is 30, worked by hand");
	is_int(ediv_changes(y, 6, cp, 8, 0), 0, "y: 2 shuffles in 20 match it (p ~0.1): no change");
	/* 12 runs about 100, then 12 about 130 (log values, noise of 1 %) */
	for (int i = 0; i < 24; i++)
		z[i] = log((i < 12 ? 100 : 130) * (1 + 0.01 * ((i * 7) % 5 - 2)));
	n = ediv_changes(z, 24, cp, 8, 0);
	ok(n == 1 && cp[0] == 12, "a x1.3 step after 12 of 24 runs: one change, at run 13 (index 12)");
	for (int i = 0; i < 20; i++)
		flat[i] = log(100 * (1 + 0.01 * ((i * 7) % 5 - 2)));
	is_int(ediv_changes(flat, 20, cp, 8, 0), 0, "20 runs of noise alone: no change");
	z[5] = log(300);
	n = ediv_changes(z, 24, cp, 8, 0);
	ok(n == 1 && cp[0] == 12, "one wild run before the step is no change of its own");
	/* two steps: the first split leaves the other inside a half */
	for (int i = 0; i < 24; i++)
		z[i] = log((i < 8 ? 100 : i < 16 ? 150 : 220) * (1 + 0.01 * ((i * 3) % 5 - 2)));
	n = ediv_changes(z, 24, cp, 8, 0);
	ok(n == 2 && cp[0] == 8 && cp[1] == 16, "up at 8 and again at 16: both found (bisection)");
	is_int(ediv_changes(z, 24, cp, 8, 0), n, "the same series gives the same answer (fixed seed)");
	n = ediv_changes(z, 24, cp, 8, log(1.6));
	ok(n == 1 && cp[0] == 8, "a segment within the span (150 to 220: x1.47 of x1.6) is not split again");
	return tap_done();
}
