/* SPDX-License-Identifier: MIT */
/*
 * Change points of one series by E-divisive means (Matteson and James, "A
 * Nonparametric Approach for Multiple Change Point Analysis of Multivariate
 * Data", JASA 2014; as MongoDB's performance CI, Daly et al., ICPE 2020, and
 * Apache Otava, formerly Hunter, use it), with alpha 1: the divergence of a
 * split of x into X = x[0, tau) and Y = x[tau, n), m and k values,
 *
 *   E = 2/(m k) sum |X_i - Y_j| - sum_{i<i'} |X_i - X_i'| / C(m,2)
 *                               - sum_{j<j'} |Y_j - Y_j'| / C(k,2)
 *   Q = m k / (m + k) E,
 *
 * its largest over tau the best split of a segment. Bisection: of every
 * segment's best split the largest is tested by permutation (the segment's
 * values shuffled EDIV_PERMUTATIONS times; p = (exceeded + 1) /
 * (EDIV_PERMUTATIONS + 1)); taken when p <= EDIV_P_MAX, then its two halves
 * are searched again, until a test fails. The shuffles come from a
 * generator with a fixed seed: one series gives one answer, every time.
 * Pure arithmetic: no report, no I/O (tests/report/unit_edivisive.c).
 */
#ifndef TP_REPORT_EDIVISIVE_H
#define TP_REPORT_EDIVISIVE_H

#include <stddef.h>
#include <stdint.h>

/* A segment either side of a change holds this many values at least:
 * one or two odd runs are never a change of their own. */
#define EDIV_MIN_RUNS 3
/* Apache Otava's (Hunter's) default significance, and shuffles enough that
 * one chance match among them (8 runs against 8 apart: 1 in 6435) does
 * not hide a change: p <= 0.001 allows one of 1999. */
#define EDIV_P_MAX 0.001
#define EDIV_PERMUTATIONS 1999
#define EDIV_SEED 0x74696d6570726f62ULL	/* "timeprob" */

/* Q of x[0, n) split at tau (2 <= tau <= n - 2), computed directly. */
double ediv_q(const double *x, size_t n, size_t tau);

/*
 * The split of x[0, n) with the largest Q, each side at least min_runs
 * (>= 2) values: its tau, or 0 when x is shorter than 2 min_runs. *q its Q.
 * O(n^2): the three sums moved along as one value crosses the split.
 */
size_t ediv_best(const double *x, size_t n, size_t min_runs, double *q);

/*
 * The change points of x[0, n): ascending indexes of the first value of
 * each new segment, into cp (at most max_cp); returns how many. A segment
 * whose values lie within span of each other is not split (no test run):
 * no change inside it can be larger than span. 0: every segment is tested.
 */
size_t ediv_changes(const double *x, size_t n, size_t *cp, size_t max_cp, double span);

#endif
