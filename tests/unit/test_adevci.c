// SPDX-License-Identifier: MIT
/*
 * userland/adevci.c: chi-squared quantiles against closed forms (k = 1: the
 * square of a normal quantile; k = 2: an exponential) and printed tables,
 * SP 1065 Table 5's edf on the drift probe's longest tau, and the interval.
 */
#include <math.h>

#include "../../userland/adevci.h"
#include "tap.h"

#define SIGMA_LO 0.15865525393145707	/* (1 - erf(1/sqrt 2)) / 2 */
#define SIGMA_HI 0.8413447460685429

static int near(double got, double want, double rel)
{
	return fabs(got - want) <= rel * fabs(want);
}

static void test_chi2(void)
{
	/* k = 1: (Phi^-1((1 + p) / 2))^2, from Python's statistics.NormalDist */
	ok(near(adevci_chi2_quantile(SIGMA_LO, 1), 0.04006950463364102, 1e-9), "chi2(0.1587, 1) = 0.040070 (%.9g)",
	   adevci_chi2_quantile(SIGMA_LO, 1));
	ok(near(adevci_chi2_quantile(0.5, 1), 0.4549364231195727, 1e-9), "chi2(0.5, 1) = 0.454936");
	ok(near(adevci_chi2_quantile(SIGMA_HI, 1), 1.9869967133159572, 1e-9), "chi2(0.8413, 1) = 1.986997");
	/* k = 2: -2 ln(1 - p) */
	ok(near(adevci_chi2_quantile(SIGMA_LO, 2), 0.3455075580468998, 1e-9), "chi2(0.1587, 2) = -2 ln(1 - p)");
	ok(near(adevci_chi2_quantile(SIGMA_HI, 2), 3.6820432900185267, 1e-9), "chi2(0.8413, 2) = -2 ln(1 - p)");
	/* printed tables (Abramowitz and Stegun, Table 26.8) */
	ok(near(adevci_chi2_quantile(0.95, 1), 3.841459, 1e-6), "chi2(0.95, 1) = 3.841459");
	ok(near(adevci_chi2_quantile(0.95, 10), 18.307038, 1e-6), "chi2(0.95, 10) = 18.307038");
	ok(near(adevci_chi2_quantile(0.05, 10), 3.940299, 1e-6), "chi2(0.05, 10) = 3.940299");
	ok(near(adevci_chi2_quantile(0.99, 100), 135.806723, 1e-6), "chi2(0.99, 100) = 135.806723");
	ok(isnan(adevci_chi2_quantile(0, 3)) && isnan(adevci_chi2_quantile(0.5, 0)), "p outside (0, 1) or k <= 0: NaN");
}

static void test_edf(void)
{
	enum adev_noise a;
	double lo, hi, e;

	/* the drift probe's tau = 3.33 s: 1001 samples 10 ms apart, m = 333 */
	ok(near(adev_edf(1001, 333, ADEV_WHITE_FM), 2.5084722316625037, 1e-12), "edf white FM, N 1001 m 333: 2.51");
	ok(near(adev_edf(1001, 333, ADEV_FLICKER_FM), 1.8806325075075074, 1e-12), "edf flicker FM: 1.88");
	ok(near(adev_edf(1001, 333, ADEV_RANDOM_WALK_FM), 1.3390187188003262, 1e-12), "edf random walk FM: 1.34");
	ok(near(adev_edf(1001, 1, ADEV_WHITE_PM), 1002.0 * 999 / 2000, 1e-12), "edf white PM, m 1: (N+1)(N-2m)/2(N-m)");
	ok(isnan(adev_edf(10, 5, ADEV_WHITE_FM)) && isnan(adev_edf(10, 0, ADEV_WHITE_FM)), "too few samples: NaN");

	ok(adev_edf_for_slope(1001, 333, -0.5, &a) == adev_edf(1001, 333, ADEV_WHITE_FM) && a == ADEV_WHITE_FM,
	   "slope -0.5: white FM");
	e = adev_edf_for_slope(1001, 10, -1.02, &a);
	ok(e == fmin(adev_edf(1001, 10, ADEV_WHITE_PM), adev_edf(1001, 10, ADEV_FLICKER_PM)) &&
		   (a == ADEV_WHITE_PM || a == ADEV_FLICKER_PM),
	   "slope -1: the smaller of white and flicker PM (%s)", adev_noise_name(a));
	e = adev_edf_for_slope(1001, 333, 0.25, &a);
	ok(e == adev_edf(1001, 333, ADEV_RANDOM_WALK_FM) && a == ADEV_RANDOM_WALK_FM,
	   "slope 0.25, between flicker and random walk FM: the smaller edf (%s)", adev_noise_name(a));
	ok(adev_edf_for_slope(1001, 333, NAN, &a) == adev_edf(1001, 333, ADEV_RANDOM_WALK_FM),
	   "no slope (one tau): the smallest edf of all five");
	ok(adev_edf_for_slope(1001, 333, 3, &a) == adev_edf(1001, 333, ADEV_RANDOM_WALK_FM),
	   "a slope no type gives: the smallest edf of all five");

	/* edf 2.5: one sigma is x0.75 .. x2.1 of the estimate */
	adev_interval(1e-9, 2.5084722316625037, &lo, &hi);
	ok(lo > 0.74e-9 && lo < 0.77e-9 && hi > 2.0e-9 && hi < 2.2e-9,
	   "edf 2.5: the 68 %% interval is x%.2f .. x%.2f", lo / 1e-9, hi / 1e-9);
	adev_interval(1e-9, 1e4, &lo, &hi);
	ok(near(lo, 1e-9 * (1 - 1 / sqrt(2e4)), 1e-3) && near(hi, 1e-9 * (1 + 1 / sqrt(2e4)), 1e-3),
	   "edf 10^4: close to the normal +-1/sqrt(2 edf)");
}

int main(void)
{
	test_chi2();
	test_edf();
	return tap_done();
}
