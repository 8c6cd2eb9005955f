// SPDX-License-Identifier: MIT
/*
 * userland/adev.c: the overlapping Allan deviation against values worked
 * out by hand and by independent formulas, and the least-squares line.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "../../userland/adev.h"
#include "tap.h"

/* A fixed pseudo-random sequence (xorshift64*), uniform in [-0.5, 0.5). */
static double uniform(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return (double)((*s * 2685821657736338717ull) >> 11) / 9007199254740992.0 - 0.5;
}

/* The classic non-overlapping Allan variance from fractional frequencies,
 * avar(tau0) = <(y[i+1] - y[i])^2> / 2 with y[i] = (x[i+1] - x[i]) / tau0:
 * the same as the overlapping one at m = 1, by a different formula. */
static double adev_from_freq(const double *x, size_t n, double tau0)
{
	double sum = 0;

	for (size_t i = 0; i + 2 < n; i++) {
		double y0 = (x[i + 1] - x[i]) / tau0, y1 = (x[i + 2] - x[i + 1]) / tau0;

		sum += (y1 - y0) * (y1 - y0);
	}
	return sqrt(sum / (2 * (double)(n - 2)));
}

int main(void)
{
	static const double alt[] = { 0, 1, 0, 1, 0 };
	static const double x3[] = { 0, 0, 3 };
	size_t terms, n = 100000;
	double *x = malloc(n * sizeof(*x)), slope, icept;
	uint64_t seed = 88172645463325252ull;

	/* by hand: second differences -2, 2, -2 -> avar = 12 / (2 * 1 * 3) = 2 */
	is_near(adev_overlapping(alt, 5, 1, 1, &terms), sqrt(2), 1e-12, "0,1,0,1,0 at tau0: sqrt(2)");
	is_int(terms, 3, "... from 3 second differences");
	/* m = 2: one second difference x4 - 2 x2 + x0 = 0 */
	is_near(adev_overlapping(alt, 5, 1, 2, &terms), 0, 1e-12, "0,1,0,1,0 at 2 tau0: 0");
	is_int(terms, 1, "... from 1 term");
	/* tau0 0.5: (3 - 0 + 0)^2 / (2 * 0.25 * 1) = 18 */
	is_near(adev_overlapping(x3, 3, 0.5, 1, &terms), sqrt(18), 1e-12, "0,0,3 at tau0 0.5: sqrt(18)");
	ok(isnan(adev_overlapping(alt, 5, 1, 3, &terms)) && terms == 0, "tau beyond n/2: NaN, no terms");
	ok(isnan(adev_overlapping(alt, 5, 1, 0, &terms)) && terms == 0, "m = 0: NaN");

	/* a pure frequency offset (phase a line): 0 at every tau */
	for (size_t i = 0; i < 1000; i++)
		x[i] = 3e-5 * (double)i * 0.01 + 7;
	ok(adev_overlapping(x, 1000, 0.01, 1, &terms) < 1e-12 &&
	   adev_overlapping(x, 1000, 0.01, 100, &terms) < 1e-12, "a constant frequency offset: 0");

	/* white phase noise (uniform, sigma_x^2 = w^2 / 12) on a known slope:
	 * E[avar] = 3 sigma_x^2 / tau^2 (Riley, NIST SP 1065, Table 6: white
	 * PM, sigma_y(tau) ~ tau^-1), the slope removed */
	for (size_t i = 0; i < n; i++)
		x[i] = 1e-4 * (double)i * 0.01 + 1e-6 * uniform(&seed);
	for (size_t m = 1; m <= 100; m *= 10) {
		double want = sqrt(3 * 1e-12 / 12) / ((double)m * 0.01);
		double got = adev_overlapping(x, n, 0.01, m, &terms);

		is_near(got / want, 1, 0.02, "white PM on a slope: sqrt(3) sigma_x / tau within 2 %");
		is_int(terms, n - 2 * m, "... n - 2m terms");
	}
	is_near(adev_overlapping(x, n, 0.01, 1, &terms), adev_from_freq(x, n, 0.01), 1e-15,
		"m = 1 equals the non-overlapping formula on frequencies");

	/* line fit: exact on a line, and the slope of noisy data near the truth */
	{
		double t[] = { 1e9, 1e9 + 1, 1e9 + 2, 1e9 + 3 }, y[] = { 5, 7, 9, 11 };

		ok(!adev_line_fit(t, y, 4, &slope, &icept), "fits 4 points");
		is_near(slope, 2, 1e-9, "slope 2 at t ~ 1e9");
		is_near(icept + slope * 1e9, 5, 1e-6, "through the first point");
		ok(adev_line_fit(t, y, 1, &slope, &icept) == -1, "one point: no line");
		t[1] = t[2] = t[3] = t[0];
		ok(adev_line_fit(t, y, 4, &slope, &icept) == -1, "equal t: no line");
		for (int i = 0; i < 4; i++)
			t[i] = 7e-8;	/* their sum / 4 is not 7e-8 exactly */
		ok(adev_line_fit(t, y, 4, &slope, &icept) == -1, "equal t that do not average exactly: no line");
	}
	free(x);
	return tap_done();
}
