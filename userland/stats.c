// SPDX-License-Identifier: MIT
/* Statistics on samples; see stats.h. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"
#include "../common/record.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

void stats_sort_doubles(double *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_double);
}

uint64_t stats_percentile_rank(double p, uint64_t count)
{
	/* p / 100 x count is often an integer that floating point misses by
	 * an ulp (99.9 x 10000); shave a relative 1e-12 before the ceiling. */
	double x = p / 100.0 * (double)count;
	uint64_t rank = x > 0 ? (uint64_t)ceil(x * (1 - 1e-12)) : 0;

	if (rank < 1)
		rank = 1;
	return rank > count ? count : rank;
}

int stats_percentile_shown(double p, uint64_t n)
{
	if (n == 0)
		return 0;
	if (p <= 50)
		return 1;
	return n - stats_percentile_rank(p, n) >= PCT_MIN_BEYOND;
}

double stats_percentile_sorted(const double *v, size_t n, double p)
{
	if (n == 0)
		return 0;
	return v[stats_percentile_rank(p, n) - 1];
}

double stats_median(double *v, size_t n)
{
	stats_sort_doubles(v, n);
	if (n == 0)
		return 0;
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

void stats_summarize(double *v, size_t n, struct summary *s)
{
	double sum = 0, sq = 0;

	memset(s, 0, sizeof(*s));
	if (n == 0)
		return;
	stats_sort_doubles(v, n);
	s->n = n;
	s->min = v[0];
	s->max = v[n - 1];
	for (size_t i = 0; i < n; i++)
		sum += v[i];
	s->mean = sum / (double)n;
	for (size_t i = 0; i < n; i++)
		sq += (v[i] - s->mean) * (v[i] - s->mean);
	s->stddev = n > 1 ? sqrt(sq / (double)(n - 1)) : 0;
	s->p50 = stats_percentile_sorted(v, n, 50);
	s->p99 = stats_percentile_sorted(v, n, 99);
	s->p999 = stats_percentile_sorted(v, n, 99.9);
}

void stats_step(const int64_t *reads, size_t n, struct step_stats *s)
{
	memset(s, 0, sizeof(*s));
	for (size_t i = 1; i < n; i++) {
		int64_t d = reads[i] - reads[i - 1];

		if (d > 0 && (s->granularity == 0 || d < s->granularity))
			s->granularity = d;
		if (d < 0) {
			s->backward++;
			if (-d > s->largest_backward)
				s->largest_backward = -d;
		}
	}
}

double stats_normalized_variance(const uint64_t *x, size_t n)
{
	double mean = 0, sq = 0;

	if (n == 0)
		return 0;
	for (size_t i = 0; i < n; i++)
		mean += (double)x[i];
	mean /= (double)n;
	if (mean == 0)
		return 0;
	for (size_t i = 0; i < n; i++)
		sq += ((double)x[i] - mean) * ((double)x[i] - mean);
	return sq / ((double)n * mean * mean);
}

size_t stats_count_zero(const uint64_t *x, size_t n)
{
	size_t z = 0;

	for (size_t i = 0; i < n; i++)
		z += x[i] == 0;
	return z;
}

/* Keeps the HIST_OUTLIERS largest values of a stream, in descending order. */
static void keep_largest(int64_t *outlier, size_t *n, int64_t v)
{
	size_t i;

	if (*n < HIST_OUTLIERS)
		(*n)++;
	else if (v <= outlier[HIST_OUTLIERS - 1])
		return;
	for (i = *n - 1; i > 0 && outlier[i - 1] < v; i--)
		outlier[i] = outlier[i - 1];
	outlier[i] = v;
}

void stats_hist_init(struct hist *h, uint64_t *buckets, size_t nbuckets, int64_t width_ns)
{
	memset(h, 0, sizeof(*h));
	memset(buckets, 0, nbuckets * sizeof(*buckets));
	h->bucket = buckets;
	h->nbuckets = nbuckets;
	h->width_ns = width_ns > 0 ? width_ns : 1;
}

void stats_hist_add(struct hist *h, int64_t v)
{
	h->count++;
	if (v < 0) {
		h->underflow++;
	} else if ((uint64_t)v / (uint64_t)h->width_ns >= h->nbuckets) {
		h->overflow++;
	} else {
		h->bucket[(uint64_t)v / (uint64_t)h->width_ns]++;
	}
	keep_largest(h->outlier, &h->noutliers, v);
}

int64_t stats_hist_percentile(const struct hist *h, double p)
{
	uint64_t rank, seen = h->underflow;

	if (h->count == 0)
		return 0;
	/* nearest rank: the smallest bucket whose cumulative count reaches it */
	rank = stats_percentile_rank(p, h->count);
	if (seen >= rank)
		return 0;
	for (size_t i = 0; i < h->nbuckets; i++) {
		seen += h->bucket[i];
		if (seen >= rank)
			return (int64_t)(i + 1) * h->width_ns;
	}
	/* in the overflow: the largest sample is the honest upper bound */
	return h->noutliers ? h->outlier[0] : (int64_t)h->nbuckets * h->width_ns;
}

void stats_hist_record(struct tp_rec *r, const char *key, const struct hist *h)
{
	char idx[24];

	tp_rec_obj_begin(r, key);
	tp_rec_int(r, "width_ns", h->width_ns);
	tp_rec_obj_begin(r, "buckets");
	for (size_t i = 0; i < h->nbuckets; i++) {
		if (!h->bucket[i])
			continue;
		snprintf(idx, sizeof(idx), "%zu", i);
		tp_rec_uint(r, idx, h->bucket[i]);
	}
	tp_rec_obj_end(r);
	tp_rec_uint(r, "overflow", h->overflow);
	if (h->underflow)
		tp_rec_uint(r, "underflow", h->underflow);
	tp_rec_arr_begin(r, "outliers_ns");
	for (size_t i = 0; i < h->noutliers; i++)
		tp_rec_int(r, 0, h->outlier[i]);
	tp_rec_arr_end(r);
	tp_rec_obj_end(r);
}

void stats_loghist_init(struct loghist *h, int64_t base_ns)
{
	memset(h, 0, sizeof(*h));
	h->base_ns = base_ns > 0 ? base_ns : 1;
}

/* Octave k = floor(log2(v / base)), then LOGHIST_SUB linear steps within
 * [base * 2^k, base * 2^(k+1)). 128-bit products: v * SUB may pass 2^64. */
static long loghist_index(const struct loghist *h, int64_t v)
{
	uint64_t q = (uint64_t)v / (uint64_t)h->base_ns, lo;
	int k = 63 - __builtin_clzll(q);

	if (k >= LOGHIST_OCTAVES)
		return -1;
	lo = (uint64_t)h->base_ns << k;
	return (long)k * LOGHIST_SUB +
	       (long)((unsigned __int128)((uint64_t)v - lo) * LOGHIST_SUB / lo);
}

int64_t stats_loghist_lower_ns(const struct loghist *h, size_t i)
{
	size_t k = i / LOGHIST_SUB, j = i % LOGHIST_SUB;
	unsigned __int128 lo = (unsigned __int128)h->base_ns << k;
	unsigned __int128 v = lo + (j * lo + LOGHIST_SUB - 1) / LOGHIST_SUB;

	return v > INT64_MAX ? INT64_MAX : (int64_t)v;
}

void stats_loghist_add(struct loghist *h, int64_t v)
{
	h->count++;
	if (v < h->base_ns) {
		h->below++;
	} else {
		long b = loghist_index(h, v);

		if (b < 0)
			h->overflow++;
		else
			h->bucket[b]++;
	}
	keep_largest(h->outlier, &h->noutliers, v);
}

int stats_loghist_merge(struct loghist *dst, const struct loghist *src)
{
	if (dst->base_ns != src->base_ns)
		return -1;
	for (size_t i = 0; i < LOGHIST_BUCKETS; i++)
		dst->bucket[i] += src->bucket[i];
	dst->below += src->below;
	dst->overflow += src->overflow;
	dst->count += src->count;
	for (size_t k = 0; k < src->noutliers; k++)
		keep_largest(dst->outlier, &dst->noutliers, src->outlier[k]);
	return 0;
}

int64_t stats_loghist_percentile(const struct loghist *h, double p)
{
	uint64_t rank, seen = h->below;

	if (h->count == 0)
		return 0;
	rank = stats_percentile_rank(p, h->count);
	if (seen >= rank)
		return h->base_ns;
	for (size_t i = 0; i < LOGHIST_BUCKETS; i++) {
		seen += h->bucket[i];
		if (seen >= rank)
			return stats_loghist_lower_ns(h, i + 1);
	}
	return h->noutliers ? h->outlier[0] : stats_loghist_lower_ns(h, LOGHIST_BUCKETS);
}

void stats_loghist_record(struct tp_rec *r, const char *key, const struct loghist *h)
{
	char lower[24];

	tp_rec_obj_begin(r, key);
	tp_rec_int(r, "base_ns", h->base_ns);
	tp_rec_int(r, "sub", LOGHIST_SUB);
	tp_rec_obj_begin(r, "buckets");
	for (size_t i = 0; i < LOGHIST_BUCKETS; i++) {
		if (!h->bucket[i])
			continue;
		/* keys are the lower edges in ns: a reader needs no formula */
		snprintf(lower, sizeof(lower), "%lld", (long long)stats_loghist_lower_ns(h, i));
		tp_rec_uint(r, lower, h->bucket[i]);
	}
	tp_rec_obj_end(r);
	tp_rec_uint(r, "below", h->below);
	tp_rec_uint(r, "overflow", h->overflow);
	tp_rec_arr_begin(r, "outliers_ns");
	for (size_t i = 0; i < h->noutliers; i++)
		tp_rec_int(r, 0, h->outlier[i]);
	tp_rec_arr_end(r);
	tp_rec_obj_end(r);
}

void stats_hist_truncate(const struct hist *h, size_t nbuckets, struct hist *out)
{
	*out = *h;
	if (nbuckets >= h->nbuckets)
		return;
	out->nbuckets = nbuckets;
	for (size_t i = nbuckets; i < h->nbuckets; i++)
		out->overflow += h->bucket[i];
}
