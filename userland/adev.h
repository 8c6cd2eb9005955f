/* SPDX-License-Identifier: MIT */
/*
 * Frequency stability of one clock against another: the Allan deviation
 * from phase (time-error) data and a least-squares line. Pure functions,
 * tested on the host (tests/unit/test_adev.c); used by probe `drift`.
 */
#ifndef TP_ADEV_H
#define TP_ADEV_H

#include <stddef.h>

/*
 * Overlapping Allan deviation at tau = m * tau0 from n phase samples x[]
 * (seconds) taken every tau0 seconds (W. J. Riley, Handbook of Frequency
 * Stability Analysis, NIST SP 1065 (2008), eq. 11):
 *
 *	avar(tau) = sum_{i=0}^{n-2m-1} (x[i+2m] - 2 x[i+m] + x[i])^2 / (2 tau^2 (n - 2m))
 *
 * A constant frequency offset (x linear in i) gives 0. Returns the
 * deviation (dimensionless, fractional frequency) and sets *terms to
 * n - 2m, the number of second differences averaged; NaN and *terms = 0
 * when m == 0 or n < 2m + 1.
 */
double adev_overlapping(const double *x, size_t n, double tau0, size_t m, size_t *terms);

/* Least-squares line y = slope * t + intercept; -1 if n < 2 or all t equal. */
int adev_line_fit(const double *t, const double *y, size_t n, double *slope, double *intercept);

#endif
