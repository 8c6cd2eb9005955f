// SPDX-License-Identifier: MIT
/* Allan deviation and a least-squares line; see adev.h. */
#include <math.h>

#include "adev.h"

double adev_overlapping(const double *x, size_t n, double tau0, size_t m, size_t *terms)
{
	double sum = 0, tau = (double)m * tau0;
	size_t k;

	*terms = 0;
	if (!m || n < 2 * m + 1 || !(tau0 > 0))
		return NAN;
	k = n - 2 * m;
	for (size_t i = 0; i < k; i++) {
		double d = x[i + 2 * m] - 2 * x[i + m] + x[i];

		sum += d * d;
	}
	*terms = k;
	return sqrt(sum / (2 * tau * tau * (double)k));
}

int adev_line_fit(const double *t, const double *y, size_t n, double *slope, double *intercept)
{
	double mt = 0, my = 0, stt = 0, sty = 0;
	int spread = 0;

	if (n < 2)
		return -1;
	for (size_t i = 0; i < n; i++) {
		mt += t[i];
		my += y[i];
		spread |= t[i] != t[0];
	}
	if (!spread)	/* the mean of equal values may be off by an ulp: decide here */
		return -1;
	mt /= (double)n;
	my /= (double)n;
	/* centred sums: no cancellation for t of large magnitude (TSC ticks) */
	for (size_t i = 0; i < n; i++) {
		stt += (t[i] - mt) * (t[i] - mt);
		sty += (t[i] - mt) * (y[i] - my);
	}
	if (!(stt > 0))
		return -1;
	*slope = sty / stt;
	*intercept = my - *slope * mt;
	return 0;
}
