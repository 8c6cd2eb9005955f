// SPDX-License-Identifier: MIT
/* Mann-Whitney's rank test and the Hodges-Lehmann shift; see ranks.h. */
#include <math.h>
#include <stdlib.h>

#include "ranks.h"
#include "util.h"

/*
 * P(U <= u) for u = 0 .. m n, samples of m and n values without ties,
 * counted: the largest of i x and j y values is an x (above all j y: U
 * gains j) or a y (U gains nothing).
 */
static double *exact_cdf(size_t m, size_t n)
{
	size_t top = m * n;
	double *c = xcalloc((m + 1) * (n + 1) * (top + 1), sizeof(*c));
	double *cdf = xcalloc(top + 1, sizeof(*cdf)), total = 0, sum = 0;

#define WAYS(i, j, u) c[((i) * (n + 1) + (j)) * (top + 1) + (u)]
	for (size_t i = 0; i <= m; i++)
		for (size_t j = 0; j <= n; j++)
			for (size_t u = 0; u <= i * j; u++)
				WAYS(i, j, u) = !i || !j ? (u == 0) :
						(u >= j ? WAYS(i - 1, j, u - j) : 0) + WAYS(i, j - 1, u);
	for (size_t u = 0; u <= top; u++)
		total += WAYS(m, n, u);
	for (size_t u = 0; u <= top; u++) {
		sum += WAYS(m, n, u);
		cdf[u] = sum / total;
	}
#undef WAYS
	free(c);
	return cdf;
}

/* The normal z whose two-sided p is p (0 < p < 1), by bisection. */
static double z_two_sided(double p)
{
	double lo = 0, hi = 40;

	for (int i = 0; i < 100; i++) {
		double mid = (lo + hi) / 2;

		if (erfc(mid / sqrt(2)) > p)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* U of y over x, and the tie term sum(t^3 - t) over the pooled values; whether any tie. */
static double u_stat(const double *x, size_t m, const double *y, size_t n, double *ties)
{
	double u = 0, *all = xcalloc(m + n, sizeof(*all));
	size_t k = 0;

	for (size_t i = 0; i < m; i++)
		for (size_t j = 0; j < n; j++)
			u += y[j] > x[i] ? 1 : y[j] == x[i] ? 0.5 : 0;
	for (size_t i = 0; i < m; i++)
		all[k++] = x[i];
	for (size_t j = 0; j < n; j++)
		all[k++] = y[j];
	qsort(all, k, sizeof(*all), by_value);
	*ties = 0;
	for (size_t i = 0, e; i < k; i = e) {
		for (e = i + 1; e < k && all[e] == all[i]; e++)
			;
		*ties += pow((double)(e - i), 3) - (double)(e - i);
	}
	free(all);
	return u;
}

void ranks_test(const double *x, size_t m, const double *y, size_t n, double alpha,
		struct ranks *out)
{
	double ties, u = u_stat(x, m, y, n, &ties), mn = (double)(m * n), N = (double)(m + n);
	double *d = xcalloc(m * n, sizeof(*d)), z = z_two_sided(alpha);
	size_t k = 0;

	for (size_t i = 0; i < m; i++)
		for (size_t j = 0; j < n; j++)
			d[k++] = y[j] - x[i];
	qsort(d, k, sizeof(*d), by_value);
	out->shift = k % 2 ? d[k / 2] : (d[k / 2 - 1] + d[k / 2]) / 2;
	if (!ties && m <= RANKS_EXACT_MAX && n <= RANKS_EXACT_MAX) {
		double *cdf = exact_cdf(m, n);
		size_t iu = (size_t)u, c = 0;

		out->p = fmin(1, 2 * fmin(cdf[iu], iu ? 1 - cdf[iu - 1] : 1));
		while (c < k && cdf[c] <= alpha / 2)
			c++;
		free(cdf);
		k = c;	/* P(U < k) <= alpha / 2 */
	} else {
		double var = mn / 12 * (N + 1 - ties / (N * (N - 1)));

		out->p = var > 0 ? erfc(fmax(0, fabs(u - mn / 2) - 0.5) / sqrt(2 * var)) : 1;
		k = (size_t)fmax(0, floor(mn / 2 - z * sqrt(mn * (N + 1) / 12)));
	}
	out->lo = k ? d[k - 1] : -INFINITY;
	out->hi = k ? d[m * n - k] : INFINITY;
	free(d);
}
