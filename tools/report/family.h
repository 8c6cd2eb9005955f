/* SPDX-License-Identifier: MIT */
/*
 * Many statistics of many results tested at once (docs/comparing.md, "Many
 * figures at once"): one hypothesis per result, not per statistic. A
 * probe's result (one row it emits: a clock on a path, a switch variant, a
 * wake-up mechanism at an interval) shows one change through several
 * statistics (median, min, mean, p99, counts), so its statistics' p-values
 * are one family. The procedure is Benjamini and Bogomolov's (2014,
 * "Selective inference on multiple families of hypotheses", J. R. Stat.
 * Soc. B 76(1)) with Simes within a family and Benjamini and Hochberg
 * (1995) across families and within the selected ones:
 *   1. each family's p is Simes' combination of its tests' (Simes 1986;
 *      valid under positive dependence, which statistics of one sample
 *      have: Sarkar 2008);
 *   2. Benjamini-Hochberg at q across the m families selects R of them;
 *   3. within each selected family, Benjamini-Hochberg at q R / m.
 * A test that moves alone (no other of its probe's does) must reach
 * q / (m k), k its family's size; one whose family all moves, q / m.
 * Plain functions of numbers, tested against hand-computed values
 * (tests/report/unit_family.c).
 */
#ifndef TP_REPORT_FAMILY_H
#define TP_REPORT_FAMILY_H

#include <stddef.h>

/* Simes' p of n p-values: min over k of n p_(k) / k, at most 1; 1 when n is 0. */
double family_simes(const double *p, size_t n);

/*
 * Benjamini-Hochberg's step-up rule at q over n p-values: the largest
 * p_(k) <= k q / n, -1 when none (nothing passes); *passed (may be NULL)
 * gets k, how many pass (those with p <= the threshold).
 */
double family_bh(const double *p, size_t n, double q, size_t *passed);

struct family_outcome {
	size_t families;	/* m: the families with a test */
	size_t selected;	/* R: those Benjamini-Hochberg selected at q */
};

/*
 * The hierarchical procedure over n tests: p[i] test i's p, group[i] its
 * family's label (any size_t; tests of one family need not be adjacent).
 * pass[i] = 1 where test i is rejected (its family selected, and it passes
 * within it at q R / m); size[i] (may be NULL) its family's number of tests.
 */
void family_select(const double *p, const size_t *group, size_t n, double q, int *pass,
		   size_t *size, struct family_outcome *out);

#endif
