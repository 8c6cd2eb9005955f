// SPDX-License-Identifier: MIT
/* Statistics on samples; see stats.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"
#include "../common/record.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

void sort_doubles(double *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_double);
}

double percentile_sorted(const double *v, size_t n, double p)
{
	double pos, frac;
	size_t i;

	if (n == 0)
		return 0;
	if (p <= 0)
		return v[0];
	if (p >= 100)
		return v[n - 1];
	/* Linear interpolation between closest ranks (Hyndman & Fan type 7,
	 * what numpy.percentile does by default). */
	pos = p / 100.0 * (double)(n - 1);
	i = (size_t)pos;
	frac = pos - (double)i;
	if (i + 1 >= n)
		return v[n - 1];
	return v[i] + frac * (v[i + 1] - v[i]);
}

double median(double *v, size_t n)
{
	sort_doubles(v, n);
	return percentile_sorted(v, n, 50);
}

void summarize(double *v, size_t n, struct summary *s)
{
	double sum = 0, sq = 0;

	memset(s, 0, sizeof(*s));
	if (n == 0)
		return;
	sort_doubles(v, n);
	s->n = n;
	s->min = v[0];
	s->max = v[n - 1];
	for (size_t i = 0; i < n; i++)
		sum += v[i];
	s->mean = sum / (double)n;
	for (size_t i = 0; i < n; i++)
		sq += (v[i] - s->mean) * (v[i] - s->mean);
	s->stddev = n > 1 ? sqrt(sq / (double)(n - 1)) : 0;
	s->p50 = percentile_sorted(v, n, 50);
	s->p99 = percentile_sorted(v, n, 99);
	s->p999 = percentile_sorted(v, n, 99.9);
}

void step_stats(const int64_t *reads, size_t n, struct step_stats *s)
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

double normalized_variance(const uint64_t *x, size_t n)
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

size_t count_zero(const uint64_t *x, size_t n)
{
	size_t z = 0;

	for (size_t i = 0; i < n; i++)
		z += x[i] == 0;
	return z;
}

void hist_init(struct hist *h, uint64_t *buckets, size_t nbuckets, int64_t width_ns)
{
	memset(h, 0, sizeof(*h));
	memset(buckets, 0, nbuckets * sizeof(*buckets));
	h->bucket = buckets;
	h->nbuckets = nbuckets;
	h->width_ns = width_ns > 0 ? width_ns : 1;
}

void hist_add(struct hist *h, int64_t v)
{
	size_t i;

	h->count++;
	if (v < 0) {
		h->underflow++;
	} else if ((uint64_t)v / (uint64_t)h->width_ns >= h->nbuckets) {
		h->overflow++;
	} else {
		h->bucket[(uint64_t)v / (uint64_t)h->width_ns]++;
	}
	/* Keep the HIST_OUTLIERS largest values, in descending order. */
	if (h->noutliers < HIST_OUTLIERS)
		h->noutliers++;
	else if (v <= h->outlier[HIST_OUTLIERS - 1])
		return;
	for (i = h->noutliers - 1; i > 0 && h->outlier[i - 1] < v; i--)
		h->outlier[i] = h->outlier[i - 1];
	h->outlier[i] = v;
}

int64_t hist_percentile(const struct hist *h, double p)
{
	uint64_t rank, seen = h->underflow;

	if (h->count == 0)
		return 0;
	/* nearest rank: the smallest bucket whose cumulative count reaches it */
	rank = (uint64_t)ceil(p / 100.0 * (double)h->count);
	if (rank < 1)
		rank = 1;
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

void hist_record(struct tp_rec *r, const char *key, const struct hist *h)
{
	char idx[24];

	tp_rec_obj_begin(r, key);
	tp_rec_int(r, "width_ns", h->width_ns);
	tp_rec_obj_begin(r, "buckets");
	for (size_t i = 0; i < h->nbuckets; i++) {
		int n = 0;
		size_t v = i;
		char tmp[24];

		if (!h->bucket[i])
			continue;
		do {
			tmp[n++] = (char)('0' + v % 10);
			v /= 10;
		} while (v);
		for (int k = 0; k < n; k++)
			idx[k] = tmp[n - 1 - k];
		idx[n] = 0;
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
