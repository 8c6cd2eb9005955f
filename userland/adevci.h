/* SPDX-License-Identifier: MIT */
/*
 * How far to trust an overlapping Allan deviation (adev.h): its equivalent
 * degrees of freedom for a power-law noise type, and the chi-squared
 * confidence interval they give (W. J. Riley, Handbook of Frequency
 * Stability Analysis, NIST SP 1065 (2008), section 5.3: Table 5's simple
 * approximations after Howe, Allan and Barnes (1981), and eq. 45). The
 * number of second differences averaged (N - 2m) overstates the confidence:
 * neighbouring differences overlap and the noise is correlated.
 */
#ifndef TP_ADEVCI_H
#define TP_ADEVCI_H

#include <stddef.h>

/* Power-law noise types by alpha, the exponent of f in S_y(f). */
enum adev_noise {
	ADEV_WHITE_PM = 2,	/* adev ~ tau^-1 */
	ADEV_FLICKER_PM = 1,	/* adev ~ tau^-1 (log factor) */
	ADEV_WHITE_FM = 0,	/* adev ~ tau^-1/2 */
	ADEV_FLICKER_FM = -1,	/* adev ~ tau^0 */
	ADEV_RANDOM_WALK_FM = -2,	/* adev ~ tau^+1/2 */
};

/* "white_pm", "flicker_pm", "white_fm", "flicker_fm", "random_walk_fm" */
const char *adev_noise_name(enum adev_noise a);

/* SP 1065 Table 5: edf of the overlapping ADEV at tau = m tau0 from n phase
 * samples, for noise a; NaN when n < 2m + 2 or m == 0. */
double adev_edf(size_t n, size_t m, enum adev_noise a);

/*
 * The edf for a measured log-log slope of adev against tau: the smallest
 * (the least confident) among the noise types whose slope lies within 0.35
 * of it (white and flicker PM share -1: the ADEV cannot tell them apart),
 * or among all five when none does or the slope is NaN. *a gets the type
 * whose edf was taken.
 */
double adev_edf_for_slope(size_t n, size_t m, double slope, enum adev_noise *a);

/* The p-quantile of the chi-squared distribution with k degrees of freedom
 * (k > 0, real), from the regularized incomplete gamma function. */
double adevci_chi2_quantile(double p, double k);

/* The 68.27 % (one-sigma) interval of adev with edf degrees of freedom:
 * adev * sqrt(edf / chi2(0.8413, edf)) .. adev * sqrt(edf / chi2(0.1587, edf)). */
void adev_interval(double adev, double edf, double *lo, double *hi);

#endif
