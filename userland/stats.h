/* SPDX-License-Identifier: MIT */
/* Statistics on samples: pure functions, tested on the host (tests/unit). */
#ifndef TP_STATS_H
#define TP_STATS_H

#include <stddef.h>
#include <stdint.h>

struct summary {
	size_t n;
	double min, max, mean, stddev;	/* stddev: sample (n-1) */
	double p50, p99, p999;
};

/* Sorts v in place and fills s. n == 0 gives all zeros. */
void summarize(double *v, size_t n, struct summary *s);
/* Percentile p (0..100) of sorted values, nearest-rank with linear interpolation. */
double percentile_sorted(const double *v, size_t n, double p);
double median(double *v, size_t n);	/* sorts v */
void sort_doubles(double *v, size_t n);

/* Consecutive clock reads: smallest non-zero forward step, count of backward steps. */
struct step_stats {
	int64_t granularity;	/* 0 if no forward step was seen */
	uint64_t backward;
	int64_t largest_backward;	/* magnitude */
};
void step_stats(const int64_t *reads, size_t n, struct step_stats *s);

/* threads.c's normalized variance: sum((x - mean)^2) / (n * mean^2). 0 if mean is 0. */
double normalized_variance(const uint64_t *x, size_t n);
size_t count_zero(const uint64_t *x, size_t n);

/*
 * Fixed-bucket histogram (cyclictest style): buckets of width_ns from 0,
 * an overflow count, and the largest outliers kept.
 */
#define HIST_OUTLIERS 8
struct hist {
	int64_t width_ns;
	size_t nbuckets;
	uint64_t *bucket;	/* nbuckets, caller-owned */
	uint64_t overflow;	/* samples >= nbuckets * width_ns */
	uint64_t underflow;	/* samples < 0 */
	uint64_t count;
	int64_t outlier[HIST_OUTLIERS];	/* largest, descending */
	size_t noutliers;
};
void hist_init(struct hist *h, uint64_t *buckets, size_t nbuckets, int64_t width_ns);
void hist_add(struct hist *h, int64_t v);
/* Percentile from the histogram: the upper edge of the bucket holding rank p. */
int64_t hist_percentile(const struct hist *h, double p);

struct tp_rec;
/* Writes "key":{"width_ns":W,"buckets":{"i":c,...},"overflow":N,"outliers_ns":[...]} */
void hist_record(struct tp_rec *r, const char *key, const struct hist *h);

#endif
