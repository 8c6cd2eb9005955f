// SPDX-License-Identifier: MIT
/* The statistics of comparing one run a side; see between.h. */
#include <math.h>

#include "between.h"
#include "student.h"

/* The method of moments: the x's sample variance less the mean of the w, at least 0. */
static double moments(const double *x, const double *w, size_t n)
{
	double mean = 0, ss = 0, within = 0;

	for (size_t i = 0; i < n; i++)
		mean += x[i] / (double)n;
	for (size_t i = 0; i < n; i++) {
		ss += (x[i] - mean) * (x[i] - mean);
		within += (w ? w[i] : 0) / (double)n;
	}
	return fmax(0, ss / (double)(n - 1) - within);
}

/* Paule and Mandel's Q at t: the squares about the mean weighed by 1 / (w + t), less n - 1. */
static double pm_excess(const double *x, const double *w, size_t n, double t)
{
	double sw = 0, sx = 0, q = 0, mean;

	for (size_t i = 0; i < n; i++) {
		sw += 1 / (w[i] + t);
		sx += x[i] / (w[i] + t);
	}
	mean = sx / sw;
	for (size_t i = 0; i < n; i++)
		q += (x[i] - mean) * (x[i] - mean) / (w[i] + t);
	return q - (double)(n - 1);
}

double between_component(const double *x, const double *w, size_t n)
{
	double lo = 0, hi;

	if (n < 2)
		return NAN;
	for (size_t i = 0; w && i < n; i++)
		if (!(w[i] > 0) || !isfinite(w[i]))
			return moments(x, w, n);
	if (!w)
		return moments(x, w, n);
	/* Paule and Mandel: the t at which the weighed Q is its expectation, n - 1 */
	if (pm_excess(x, w, n, 0) <= 0)
		return 0;
	hi = moments(x, NULL, n);	/* there Q <= n - 1 whatever the w */
	for (int i = 0; i < 100 && hi - lo > 1e-12 * hi; i++) {
		double mid = (lo + hi) / 2;

		if (pm_excess(x, w, n, mid) > 0)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

double between_z(double p)
{
	double lo = -40, hi = 40;

	for (int i = 0; i < 200; i++) {
		double mid = (lo + hi) / 2;

		if (0.5 * erfc(mid / M_SQRT2) > p)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

/* A side's events and time over its n rounds; 0 when it has no time. */
static int totals(const double *c, const double *t, size_t n, double *events, double *time)
{
	*events = *time = 0;
	for (size_t i = 0; i < n; i++) {
		if (!(c[i] >= 0) || (t && !(t[i] > 0)))
			return 0;
		*events += c[i];
		*time += t ? t[i] : 1;
	}
	return *time > 0;
}

/* Pearson's chi-square of a side's rounds about its rate. */
static double pearson(const double *c, const double *t, size_t n, double rate)
{
	double x2 = 0;

	for (size_t i = 0; i < n && rate > 0; i++) {
		double e = rate * (t ? t[i] : 1);

		x2 += (c[i] - e) * (c[i] - e) / e;
	}
	return x2;
}

int between_quasi_poisson(const double *ca, const double *ta, size_t na, const double *cb,
			  const double *tb, size_t nb, double extra, struct between_qp *out)
{
	double ea, eb, sa, sb;

	if (na < 2 || nb < 2 || !totals(ca, ta, na, &ea, &sa) || !totals(cb, tb, nb, &eb, &sb))
		return 0;
	out->rate_a = ea / sa;
	out->rate_b = eb / sb;
	out->df = (double)(na + nb - 2);
	out->phi = fmax(1, (pearson(ca, ta, na, out->rate_a) + pearson(cb, tb, nb, out->rate_b)) /
				   out->df);
	if (!ea && !eb) {
		out->lr = 0;
		out->se = sqrt(extra);
		out->p = 1;
		return 1;
	}
	ea = ea ? ea : 0.5;	/* a side that saw none: half an event, as a rate's bound */
	eb = eb ? eb : 0.5;
	out->lr = log(eb / sb) - log(ea / sa);
	out->se = sqrt(out->phi * (1 / ea + 1 / eb) + extra);
	out->p = student_p(out->lr / out->se, out->df);
	return 1;
}

double between_detectable(double sd_diff, double alpha, size_t m, double power, double band,
			  double half, double df)
{
	double level = alpha / (double)(m ? m : 1);
	/* the test's own quantiles: a t of few df asks for more than the normal's */
	double za = df > 0 ? student_quantile(level, df) : between_z(level / 2);
	double zp = df > 0 ? student_quantile(2 * (1 - power), df) : between_z(1 - power);

	return exp(fmax(za * sd_diff, band + half) + zp * sd_diff);
}
