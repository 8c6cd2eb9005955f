// SPDX-License-Identifier: MIT
/* A fleet series' median, percentiles, MAD and outliers: see fleet.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fleet.h"
#include "util.h"

static int dbl_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The p quantile of sorted v[0..n), linear between the closest ranks (Hyndman and Fan type 7). */
static double quantile(const double *v, size_t n, double p)
{
	double h = p * (double)(n - 1);
	size_t lo = (size_t)floor(h);

	if (lo + 1 >= n)
		return v[n - 1];
	return v[lo] + (h - (double)lo) * (v[lo + 1] - v[lo]);
}

void fleet_stats_of(const struct fleet_series *s, struct fleet_stats *st)
{
	double *v = xmalloc((s->n ? s->n : 1) * sizeof(*v));

	*st = (struct fleet_stats){ .n = s->n, .median = NAN, .p5 = NAN, .p95 = NAN,
				     .lo = NAN, .hi = NAN, .mad = NAN };
	if (!s->n) {
		free(v);
		return;
	}
	memcpy(v, s->v, s->n * sizeof(*v));
	qsort(v, s->n, sizeof(*v), dbl_cmp);
	st->lo = v[0];
	st->hi = v[s->n - 1];
	st->median = quantile(v, s->n, 0.5);
	st->p5 = quantile(v, s->n, 0.05);
	st->p95 = quantile(v, s->n, 0.95);
	for (size_t i = 0; i < s->n; i++)
		v[i] = fabs(v[i] - st->median);
	qsort(v, s->n, sizeof(*v), dbl_cmp);
	st->mad = quantile(v, s->n, 0.5);
	free(v);
}

int fleet_is_outlier(const struct fleet_series *s, const struct fleet_stats *st, double v)
{
	double m = st->median;

	if (st->n < 3 || v == m || s->j.is_signed)
		return 0;
	/* 1.4826 MAD estimates a normal distribution's standard deviation */
	if (st->mad > 0 && fabs(v - m) / (1.4826 * st->mad) <= FLEET_OUTLIER_Z)
		return 0;
	/* the lead's count rule: none in one run is as if one event there */
	if (s->j.is_count) {
		v = fmax(v, 1);
		m = fmax(m, 1);
	}
	/* no ratio (as in the lead: a sign, or 0 and not a count), no outlier */
	if (!(v > 0 && m > 0))
		return 0;
	/* A/A: two runs of one machine differ this much, so machines may too */
	return fmax(v / m, m / v) > s->j.floor;
}

double fleet_rank(const struct fleet_series *s, double v)
{
	double below = 0;

	for (size_t i = 0; i < s->n; i++)
		below += s->v[i] < v ? 1 : s->v[i] == v ? 0.5 : 0;
	return s->n ? 100 * below / (double)s->n : NAN;
}
