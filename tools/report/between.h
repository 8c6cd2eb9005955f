/* SPDX-License-Identifier: MIT */
/*
 * The statistics of comparing one run a side (docs/comparing.md, "When a
 * figure leads"): the between-run variance component identical runs show,
 * the quasi-Poisson test of two runs' event counts over their rounds, and
 * the smallest ratio a test detects with a given power. Plain functions of
 * numbers, tested against hand-computed values (tests/report/unit_between.c).
 */
#ifndef TP_REPORT_BETWEEN_H
#define TP_REPORT_BETWEEN_H

#include <stddef.h>

/*
 * The variance that persists across whole runs, from n runs of one
 * configuration: x[i] a run's value (a log), w[i] the variance of x[i]
 * within its run (its own standard error squared; 0: none known). Where
 * every run has its w: Paule and Mandel's estimate, the t at which the
 * squares about the mean, each run weighed by 1 / (w + t), add up to their
 * expectation n - 1 (a run with one wild round, whose own w says so, weighs
 * little; a run whose w is small by chance does not outweigh the rest,
 * as in DerSimonian and Laird's). Else the one-way variance component: the
 * sample variance of the x less the mean of the w. At least 0; NAN when
 * n < 2.
 */
double between_component(const double *x, const double *w, size_t n);

/* The standard normal's upper quantile: z with P(Z > z) = p (0 < p < 1). */
double between_z(double p);

/*
 * Two runs' event counts over their rounds, as rates: c[i] events in round
 * i of t[i] seconds (t NULL: every round one unit). Each run's rate is its
 * events over its time; the dispersion phi is Pearson's chi-square of the
 * rounds about their run's rate over its degrees of freedom (na + nb - 2),
 * at least 1 (quasi-Poisson); the log rate ratio's variance phi (1 / Ea +
 * 1 / Eb), with half an event added to a side that saw none, plus extra
 * (the between-run term of both runs). p two-sided by Student's t on its
 * degrees of freedom. 0 when a side has fewer than 2 rounds or no time.
 */
struct between_qp {
	double lr;		/* log(rate b / rate a) */
	double se;		/* its standard error */
	double phi;		/* the dispersion (>= 1) */
	double df;
	double p;
	double rate_a, rate_b;	/* events per unit of t */
};
int between_quasi_poisson(const double *ca, const double *ta, size_t na, const double *cb,
			  const double *tb, size_t nb, double extra, struct between_qp *out);

/*
 * The smallest factor a two-sided test at alpha / m (the most a test of m
 * figures at once asks of one: family.h's of a figure that moves alone,
 * m its probe's results times its result's statistics) detects with
 * probability power, where the log ratio's estimate has standard deviation
 * sd_diff with df degrees of freedom (the test's own: Student's t; 0:
 * known, the normal) and must also pass band (the log of the practical
 * band) plus half (its interval's half-width): exp(max(t_{1-alpha/2m} sd,
 * band + half) + t_power sd).
 */
double between_detectable(double sd_diff, double alpha, size_t m, double power, double band,
			  double half, double df);

#endif
