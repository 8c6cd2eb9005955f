/* SPDX-License-Identifier: MIT */
/* Statistics on samples: pure functions, tested on the host (tests/unit). */
#ifndef TP_STATS_H
#define TP_STATS_H

#include <stddef.h>
#include <stdint.h>

/*
 * Percentiles: one rule everywhere, nearest rank. The p-th percentile of n
 * samples is the one of rank ceil(p / 100 x n) in ascending order (1-based,
 * at least 1): a sample that was measured, never an interpolation between
 * two. stats_percentile_sorted(), stats_hist_percentile() and
 * stats_loghist_percentile() all use it (the histograms return the upper
 * edge of that sample's bucket).
 * stats_median() alone is the classical median (the mean of the two middle
 * samples of an even count): it reduces calibration rounds, it is not a
 * percentile figure.
 *
 * A record that carries a percentile carries the number of samples behind
 * it, "n" (or a count named for what was counted). A human table shows a
 * percentile above the median only when at least PCT_MIN_BEYOND samples
 * lie above it (stats_percentile_shown()); otherwise it prints "-": p99 needs
 * 1000 samples, p99.9 10000.
 */
#define PCT_MIN_BEYOND 10

struct summary {
	size_t n;
	double min, max, mean, stddev;	/* stddev: sample (n-1) */
	double p50, p99, p999;		/* nearest rank */
};

/* Sorts v in place and fills s. n == 0 gives all zeros. */
void stats_summarize(double *v, size_t n, struct summary *s);
/* Percentile p (0..100) of n sorted values, nearest rank; 0 if n is 0. */
double stats_percentile_sorted(const double *v, size_t n, double p);
/* The nearest rank (1-based, 1..count) of percentile p among count samples. */
uint64_t stats_percentile_rank(double p, uint64_t count);
/* 1 when a table may show percentile p of n samples: p <= 50 and n > 0,
 * or at least PCT_MIN_BEYOND samples above rank stats_percentile_rank(p, n). */
int stats_percentile_shown(double p, uint64_t n);
double stats_median(double *v, size_t n);	/* sorts v; classical median, see above */
void stats_sort_doubles(double *v, size_t n);

/* Consecutive clock reads: smallest non-zero forward step, count of backward steps. */
struct step_stats {
	int64_t granularity;	/* 0 if no forward step was seen */
	uint64_t backward;
	int64_t largest_backward;	/* magnitude */
};
void stats_step(const int64_t *reads, size_t n, struct step_stats *s);

/* threads.c's normalized variance: sum((x - mean)^2) / (n * mean^2). 0 if mean is 0. */
double stats_normalized_variance(const uint64_t *x, size_t n);
size_t stats_count_zero(const uint64_t *x, size_t n);

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
void stats_hist_init(struct hist *h, uint64_t *buckets, size_t nbuckets, int64_t width_ns);
void stats_hist_add(struct hist *h, int64_t v);
/* Percentile from the histogram: the upper edge of the bucket holding rank p. */
int64_t stats_hist_percentile(const struct hist *h, double p);

struct tp_rec;
/* Writes "key":{"width_ns":W,"buckets":{"i":c,...},"overflow":N,"outliers_ns":[...]} */
void stats_hist_record(struct tp_rec *r, const char *key, const struct hist *h);

/*
 * Log-scale histogram for values spanning decades (interruption gaps, wake-up
 * latencies): LOGHIST_SUB linear buckets per octave from base_ns, as in
 * HdrHistogram, so the relative resolution is 1/LOGHIST_SUB everywhere and
 * the record stays small (at most LOGHIST_BUCKETS entries).
 * Bucket i covers [stats_loghist_lower_ns(h, i), stats_loghist_lower_ns(h, i + 1)).
 */
#define LOGHIST_SUB 4
#define LOGHIST_OCTAVES 34	/* 1 us base: up to 2^34 us, beyond any run */
#define LOGHIST_BUCKETS (LOGHIST_SUB * LOGHIST_OCTAVES)
struct loghist {
	int64_t base_ns;	/* lower edge of bucket 0, > 0 */
	uint64_t bucket[LOGHIST_BUCKETS];
	uint64_t below;		/* samples < base_ns */
	uint64_t overflow;	/* samples beyond the last bucket */
	uint64_t count;
	int64_t outlier[HIST_OUTLIERS];	/* largest, descending */
	size_t noutliers;
};
void stats_loghist_init(struct loghist *h, int64_t base_ns);
void stats_loghist_add(struct loghist *h, int64_t v);
/* Adds every count of src to dst (same base_ns; else returns -1). */
int stats_loghist_merge(struct loghist *dst, const struct loghist *src);
int64_t stats_loghist_lower_ns(const struct loghist *h, size_t i);
/* Upper edge of the bucket holding rank p (nearest rank), the largest
 * sample if it is in the overflow, 0 if empty. */
int64_t stats_loghist_percentile(const struct loghist *h, double p);
/* Writes "key":{"base_ns":B,"sub":S,"buckets":{"LOWER_NS":c,...},
 * "below":N,"overflow":N,"outliers_ns":[...]}, empty buckets left out. */
void stats_loghist_record(struct tp_rec *r, const char *key, const struct loghist *h);

/*
 * A view of h with only its first nbuckets buckets (at most h->nbuckets),
 * the samples beyond them counted as overflow: for a record that must fit
 * TP_REC_MAX. out shares h's bucket array.
 */
void stats_hist_truncate(const struct hist *h, size_t nbuckets, struct hist *out);

#endif
