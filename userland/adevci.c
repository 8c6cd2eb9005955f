// SPDX-License-Identifier: MIT
/* Confidence of an Allan deviation: edf and chi-squared interval; see adevci.h. */
#include <math.h>

#include "adevci.h"

const char *adev_noise_name(enum adev_noise a)
{
	switch (a) {
	case ADEV_WHITE_PM:
		return "white_pm";
	case ADEV_FLICKER_PM:
		return "flicker_pm";
	case ADEV_WHITE_FM:
		return "white_fm";
	case ADEV_FLICKER_FM:
		return "flicker_fm";
	case ADEV_RANDOM_WALK_FM:
		return "random_walk_fm";
	}
	return "?";
}

double adev_edf(size_t n_, size_t m_, enum adev_noise a)
{
	double n = (double)n_, m = (double)m_;

	if (!m_ || n_ < 2 * m_ + 2)
		return NAN;
	switch (a) {
	case ADEV_WHITE_PM:
		return (n + 1) * (n - 2 * m) / (2 * (n - m));
	case ADEV_FLICKER_PM:
		return exp(sqrt(log((n - 1) / (2 * m)) * log((2 * m + 1) * (n - 1) / 4)));
	case ADEV_WHITE_FM:
		return (3 * (n - 1) / (2 * m) - 2 * (n - 2) / n) * (4 * m * m / (4 * m * m + 5));
	case ADEV_FLICKER_FM:
		return m_ == 1 ? 2 * (n - 2) / (2.3 * n - 4.9) : 5 * n * n / (4 * m * (n + 3 * m));
	case ADEV_RANDOM_WALK_FM:
		return (n - 2) / (m * (n - 3) * (n - 3)) *
		       ((n - 1) * (n - 1) - 3 * m * (n - 1) + 4 * m * m);
	}
	return NAN;
}

/* The slope of adev against tau, log-log, that each type gives. */
static const struct {
	enum adev_noise a;
	double slope;
} slopes[] = {
	{ ADEV_WHITE_PM, -1 }, { ADEV_FLICKER_PM, -1 }, { ADEV_WHITE_FM, -0.5 },
	{ ADEV_FLICKER_FM, 0 }, { ADEV_RANDOM_WALK_FM, 0.5 },
};

#define N_SLOPES (sizeof(slopes) / sizeof(slopes[0]))

static double min_edf(size_t n, size_t m, double slope, int all, enum adev_noise *a)
{
	double best = INFINITY;

	for (size_t i = 0; i < N_SLOPES; i++) {
		double e;

		if (!all && !(fabs(slope - slopes[i].slope) <= 0.35))
			continue;
		e = adev_edf(n, m, slopes[i].a);
		if (e < best) {
			best = e;
			*a = slopes[i].a;
		}
	}
	return best;
}

double adev_edf_for_slope(size_t n, size_t m, double slope, enum adev_noise *a)
{
	double e = min_edf(n, m, slope, 0, a);

	return isfinite(e) ? e : min_edf(n, m, slope, 1, a);
}

/* Regularized lower incomplete gamma P(s, x): the series for x < s + 1, else
 * 1 - the continued fraction for Q (Lentz's method). */
static double gamma_p(double s, double x)
{
	double lead;

	if (x <= 0)
		return 0;
	lead = exp(s * log(x) - x - lgamma(s));
	if (x < s + 1) {
		double term = 1 / s, sum = term;

		for (int i = 1; i < 100000 && fabs(term) > fabs(sum) * 1e-15; i++) {
			term *= x / (s + i);
			sum += term;
		}
		return lead * sum;
	} else {
		double b = x + 1 - s, c = 1e300, d = 1 / b, h = d;

		for (int i = 1; i < 100000; i++) {
			double an = -i * (i - s), del;

			b += 2;
			d = an * d + b;
			d = fabs(d) < 1e-300 ? 1e-300 : d;
			c = b + an / c;
			c = fabs(c) < 1e-300 ? 1e-300 : c;
			d = 1 / d;
			del = d * c;
			h *= del;
			if (fabs(del - 1) < 1e-15)
				break;
		}
		return 1 - lead * h;
	}
}

double adevci_chi2_quantile(double p, double k)
{
	double lo = 0, hi = k + 10 * sqrt(2 * k) + 10;

	if (!(p > 0 && p < 1 && k > 0))
		return NAN;
	while (gamma_p(k / 2, hi / 2) < p)
		hi *= 2;
	/* P is increasing in x: bisection to the last bit that matters */
	for (int i = 0; i < 200 && hi - lo > 1e-12 * hi; i++) {
		double mid = (lo + hi) / 2;

		if (gamma_p(k / 2, mid / 2) < p)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

void adev_interval(double adev, double edf, double *lo, double *hi)
{
	/* one sigma: (1 - erf(1/sqrt 2)) / 2 in each tail */
	const double tail = 0.15865525393145707;

	*lo = adev * sqrt(edf / adevci_chi2_quantile(1 - tail, edf));
	*hi = adev * sqrt(edf / adevci_chi2_quantile(tail, edf));
}
