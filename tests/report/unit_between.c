// SPDX-License-Identifier: MIT
/*
 * Unit tests of tools/report/between.c, against values computed by hand:
 * the between-run variance component, the normal quantile, the
 * quasi-Poisson test of two runs' rounds, the detectable ratio.
 */
#include <math.h>
#include <stddef.h>

#include "../../tools/report/between.h"
#include "../unit/tap.h"

static void test_component(void)
{
	double x[] = { 0, 0.1, 0.2 }, w[] = { 0.002, 0.004, 0.003 }, big[] = { 0.02, 0.02, 0.02 };

	double wild[] = { 0, 0.01, -0.01, 0.02, 1.0 }, wildw[] = { 0.001, 0.001, 0.001, 0.001, 0.5 };
	double nowx[] = { 0, 0.1, 0.2 }, now[] = { 0.002, 0, 0.003 };

	/*
	 * Paule-Mandel: t with sum (x - m_t)^2 / (w + t) = 2, m_t the mean
	 * weighed by 1 / (w + t); solved by hand (bisection to 1e-16):
	 * 0.0075075705, where the moments give 0.01 - 0.003 = 0.007
	 */
	is_near(between_component(x, w, 3), 0.0075075705472861, 1e-9,
		"component: Paule-Mandel's t, 0.0075076");
	is_near(between_component(x, NULL, 3), 0.01, 1e-12, "component: no within part: the variance");
	is_near(between_component(x, big, 3), 0, 0, "component: floored at 0 when within explains all");
	/* one wild run whose own rounds say so: the moments make 0.097 of it */
	is_near(between_component(wild, wildw, 5), 0, 0,
		"component: a wild run with its own wide w adds nothing between runs");
	/* a run without a within part: the moments, 0.01 less (0.002 + 0.003) / 3 */
	is_near(between_component(nowx, now, 3), 0.01 - 0.005 / 3, 1e-12,
		"component: a run without its w: the moments");
	ok(isnan(between_component(x, w, 1)), "component: one run says nothing (NAN)");
}

static void test_z(void)
{
	is_near(between_z(0.025), 1.959964, 1e-6, "z: the 97.5 % quantile is 1.959964");
	is_near(between_z(0.2), 0.841621, 1e-6, "z: the 80 % quantile is 0.841621");
	is_near(between_z(0.0025), 2.807034, 1e-6, "z: 0.05 over 10 figures, two-sided: 2.807034");
}

static void test_quasi_poisson(void)
{
	double a[] = { 10, 10, 10, 10 }, b[] = { 20, 20, 20, 20 }, wild[] = { 0, 20, 0, 20 };
	double none[] = { 0, 0, 0, 0 }, some[] = { 11, 11, 11, 11 }, t[] = { 2, 2, 2, 2 };
	struct between_qp q;

	ok(between_quasi_poisson(a, NULL, 4, b, NULL, 4, 0, &q), "qp: two sides of 4 rounds");
	is_near(q.lr, log(2), 1e-12, "qp: 40 against 80 events: log ratio log 2");
	is_near(q.phi, 1, 0, "qp: rounds as steady as Poisson: dispersion 1");
	is_near(q.se, sqrt(1.0 / 40 + 1.0 / 80), 1e-12, "qp: se sqrt(1/40 + 1/80) = 0.193649");
	is_near(q.df, 6, 0, "qp: 6 degrees of freedom");
	ok(q.p < 0.02 && q.p > 0.005, "qp: t 3.58 on 6 df: p %.4f (0.0116)", q.p);
	ok(between_quasi_poisson(wild, NULL, 4, a, NULL, 4, 0, &q), "qp: an overdispersed side");
	/* Pearson: 4 rounds of (10^2 / 10) = 40, over 6 df */
	is_near(q.phi, 40.0 / 6, 1e-12, "qp: 0, 20, 0, 20 about 10: dispersion 40 / 6");
	is_near(q.se, sqrt(40.0 / 6 * (1.0 / 40 + 1.0 / 40)), 1e-12, "qp: se widened by sqrt(phi)");
	is_near(q.p, 1, 1e-12, "qp: equal rates: p 1");
	ok(between_quasi_poisson(none, t, 4, some, t, 4, 0.5, &q), "qp: from none to some");
	/* half an event over 8 s against 44 over 8 s: log 88; se sqrt(2 + 1/44 + 0.5) */
	is_near(q.lr, log(88), 1e-12, "qp: 0 against 44 events: log 88 (half an event for none)");
	is_near(q.se, sqrt(2 + 1.0 / 44 + 0.5), 1e-12, "qp: the extra between-run term adds to it");
	is_near(q.rate_b, 5.5, 1e-12, "qp: 44 events in 8 s: 5.5 per s");
	ok(!between_quasi_poisson(a, NULL, 1, b, NULL, 4, 0, &q), "qp: one round is no test");
}

static void test_detectable(void)
{
	/* exp((1.959964 + 0.841621) 0.1) */
	is_near(between_detectable(0.1, 0.05, 1, 0.8, 0, 0, 0), 1.323340, 1e-5,
		"detectable: sd 0.1, one figure: exp(0.280159) = 1.3233x");
	is_near(between_detectable(0.1, 0.05, 10, 0.8, 0, 0, 0), exp((2.807034 + 0.841621) * 0.1), 1e-5,
		"detectable: sd 0.1, ten figures: 1.4403x");
	is_near(between_detectable(0.01, 0.05, 1, 0.8, log(1.05), 0.0196, 0),
		exp(log(1.05) + 0.0196 + 0.841621 * 0.01), 1e-5,
		"detectable: a small sd is held up by the band and the interval");
	/* Student's t at 10 df: t_{0.975} 2.228139, t_{0.80} (one-sided) 0.879058 */
	is_near(between_detectable(0.1, 0.05, 1, 0.8, 0, 0, 10), exp((2.228139 + 0.879058) * 0.1), 1e-4,
		"detectable: sd 0.1 of 10 df: Student's quantiles, 1.3644x");
}

int main(void)
{
	test_component();
	test_z();
	test_quasi_poisson();
	test_detectable();
	return tap_done();
}
