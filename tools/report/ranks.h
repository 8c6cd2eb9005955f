/* SPDX-License-Identifier: MIT */
/*
 * Mann-Whitney's rank test of two samples, and the Hodges-Lehmann shift
 * between them with its distribution-free interval (what Google
 * Benchmark's compare.py tests repetitions with): the lead's test where a
 * sample's tail is long, so one wild run moves a mean but not a rank.
 */
#ifndef TP_REPORT_RANKS_H
#define TP_REPORT_RANKS_H

#include <stddef.h>

/* Up to this many values a side, and no ties, U's distribution is counted exactly. */
#define RANKS_EXACT_MAX 20

struct ranks {
	double p;		/* two-sided, of U */
	double shift;		/* the median of every y - x */
	double lo, hi;		/* its 1 - alpha interval; -/+ INFINITY when too few values */
};

/*
 * y (n values) against x (m values), both at least 1: U counts the pairs
 * with y above x (a tie a half); exact for m, n <= RANKS_EXACT_MAX without
 * ties, else the normal approximation with the tie correction and a
 * continuity correction. The interval: the k-th smallest and largest of
 * the m n differences, k the largest with P(U < k) <= alpha / 2.
 */
void ranks_test(const double *x, size_t m, const double *y, size_t n, double alpha,
		struct ranks *out);

#endif
