/* SPDX-License-Identifier: MIT */
/*
 * Student's t distribution, for the lead's tests and bounds (judge.c,
 * noise.c): through the regularized incomplete beta function, its
 * continued fraction by Lentz's method.
 */
#ifndef TP_REPORT_STUDENT_H
#define TP_REPORT_STUDENT_H

/* The two-sided p of |t| at df (real) degrees of freedom. */
double student_p(double t, double df);

/* The t whose two-sided p at df degrees of freedom is p (0 < p < 1). */
double student_quantile(double p, double df);

#endif
