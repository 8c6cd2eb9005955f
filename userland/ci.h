/* SPDX-License-Identifier: MIT */
/*
 * A figure's 95 % interval from the samples behind it, and the one way a
 * record carries it (docs/records.md): beside figure KEY, the key
 * "KEY_ci95" holding [lo, hi, n], n the samples the interval came from.
 * A probe declares which of its figures carry one (struct probe_key's ci);
 * the report reads the key generically (tools/report/figure.c).
 */
#ifndef TP_CI_H
#define TP_CI_H

#include <stddef.h>
#include <stdint.h>

#include "../common/record.h"

struct tp_rec;


/*
 * Distribution-free 95 % interval of the p-th percentile (0..100) of n
 * sorted samples, from order statistics: the ranks np -/+ 1.96 sqrt(np(1-p))
 * (normal approximation of the binomial), widened to whole ranks and kept
 * within the samples. With few samples it is the whole range.
 */
void ci_quantile(const double *sorted, size_t n, double p, double *lo, double *hi);

/* Student's 95 % interval of a mean of n samples with sample stddev sd. */
void ci_mean(double mean, double sd, size_t n, double *lo, double *hi);

/* Student's two-sided 97.5 % quantile for df degrees of freedom (df >= 1). */
double ci_t975(size_t df);

/* Writes "KEY_ci95":[lo,hi,n]; nothing when n is 0 or a bound is not finite. */
void ci_emit(struct tp_rec *r, const char *key, double lo, double hi, uint64_t n);

#endif
