// SPDX-License-Identifier: MIT
/* Student's t distribution; see student.h. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "student.h"

/* Continued fraction of the incomplete beta function (Lentz's method). */
static double beta_cf(double a, double b, double x)
{
	double c = 1, d = 1 - (a + b) * x / (a + 1), h;

	d = 1 / (fabs(d) < 1e-300 ? 1e-300 : d);
	h = d;
	for (int m = 1; m <= 300; m++) {
		double m2 = 2.0 * m, aa = m * (b - m) * x / ((a - 1 + m2) * (a + m2)), del;

		d = 1 + aa * d;
		c = 1 + aa / c;
		d = 1 / (fabs(d) < 1e-300 ? 1e-300 : d);
		c = fabs(c) < 1e-300 ? 1e-300 : c;
		h *= d * c;
		aa = -(a + m) * (a + b + m) * x / ((a + m2) * (a + 1 + m2));
		d = 1 + aa * d;
		c = 1 + aa / c;
		d = 1 / (fabs(d) < 1e-300 ? 1e-300 : d);
		c = fabs(c) < 1e-300 ? 1e-300 : c;
		del = d * c;
		h *= del;
		if (fabs(del - 1) < 1e-12)
			break;
	}
	return h;
}

/* The regularized incomplete beta function I_x(a, b). */
static double beta_inc(double a, double b, double x)
{
	double front;

	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x));
	if (x < (a + 1) / (a + b + 2))
		return front * beta_cf(a, b, x) / a;
	return 1 - front * beta_cf(b, a, 1 - x) / b;
}

double student_p(double t, double df)
{
	if (!isfinite(t))
		return isnan(t) ? NAN : 0;
	return beta_inc(df / 2, 0.5, df / (df + t * t));
}

static double quantile_search(double p, double df)
{
	double lo = 0, hi = 2;

	while (student_p(hi, df) > p && hi < 1e12) {
		lo = hi;
		hi *= 2;
	}
	for (int i = 0; i < 60; i++) {
		double mid = (lo + hi) / 2;

		if (student_p(mid, df) > p)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

/*
 * quantile_search()'s answers, remembered by (p, df) in a table of 256
 * slots, each holding the last pair that hashed to it: the lead asks for
 * the same few quantiles (its level at each figure's df) thousands of
 * times, and each search evaluates the beta function 60 times or more.
 */
#define QUANTILE_SLOTS 256

double student_quantile(double p, double df)
{
	static struct {
		double p, df, t;
		int set;
	} slot[QUANTILE_SLOTS];
	uint64_t bp, bd;
	size_t h;

	memcpy(&bp, &p, sizeof(bp));
	memcpy(&bd, &df, sizeof(bd));
	h = (size_t)(((bp * 0x9e3779b97f4a7c15ULL) ^ (bd * 0xc2b2ae3d27d4eb4fULL)) >> 56);
	if (!slot[h].set || slot[h].p != p || slot[h].df != df) {
		slot[h].p = p;
		slot[h].df = df;
		slot[h].t = quantile_search(p, df);
		slot[h].set = 1;
	}
	return slot[h].t;
}
