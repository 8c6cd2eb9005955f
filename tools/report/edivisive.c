// SPDX-License-Identifier: MIT
/* E-divisive means with a permutation test: see edivisive.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "edivisive.h"
#include "util.h"

double ediv_q(const double *x, size_t n, size_t tau)
{
	double b = 0, wl = 0, wr = 0, m = (double)tau, k = (double)(n - tau);

	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++) {
			double d = fabs(x[i] - x[j]);

			if (j < tau)
				wl += d;
			else if (i >= tau)
				wr += d;
			else
				b += d;
		}
	return m * k / (m + k) * (2 * b / (m * k) - wl / (m * (m - 1) / 2) - wr / (k * (k - 1) / 2));
}

size_t ediv_best(const double *x, size_t n, size_t min_runs, double *q)
{
	double b = 0, wl = 0, wr = 0;
	size_t best = 0;

	*q = -INFINITY;
	if (min_runs < 2 || n < 2 * min_runs)
		return 0;
	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++)
			wr += fabs(x[i] - x[j]);
	/* x[t] crosses from the right side to the left: tau becomes t + 1 */
	for (size_t t = 0; t + min_runs < n; t++) {
		double dl = 0, dr = 0, m = (double)(t + 1), k = (double)(n - t - 1), e;

		for (size_t i = 0; i < t; i++)
			dl += fabs(x[i] - x[t]);
		for (size_t j = t + 1; j < n; j++)
			dr += fabs(x[j] - x[t]);
		wr -= dr;
		b += dr - dl;
		wl += dl;
		if (t + 1 < min_runs)
			continue;
		e = 2 * b / (m * k) - wl / (m * (m - 1) / 2) - wr / (k * (k - 1) / 2);
		if (m * k / (m + k) * e > *q) {
			*q = m * k / (m + k) * e;
			best = t + 1;
		}
	}
	return best;
}

/* splitmix64 (Steele, Lea and Flood, OOPSLA 2014): the shuffles' numbers. */
static uint64_t next_u64(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/*
 * Is the best split of x[0, n), Q q, beyond chance: p <= EDIV_P_MAX over
 * shuffles of x (into work)? Stops once p cannot reach it.
 */
static int significant(const double *x, size_t n, double q, double *work, uint64_t *seed)
{
	size_t exceeded = 0;

	for (unsigned r = 0; r < EDIV_PERMUTATIONS; r++) {
		double qr;

		memcpy(work, x, n * sizeof(*x));
		for (size_t i = n - 1; i > 0; i--) {
			size_t j = (size_t)(next_u64(seed) % (i + 1));
			double t = work[i];

			work[i] = work[j];
			work[j] = t;
		}
		ediv_best(work, n, EDIV_MIN_RUNS, &qr);
		if (qr >= q && (double)(++exceeded + 1) / (EDIV_PERMUTATIONS + 1) > EDIV_P_MAX)
			return 0;
	}
	return 1;
}

/* A segment x[lo, hi) and its best split (tau 0: none). */
struct seg {
	size_t lo, hi, tau;
	double q;
};

static struct seg seg_of(const double *x, size_t lo, size_t hi, double span)
{
	struct seg s = { lo, hi, 0, -INFINITY };
	double min = INFINITY, max = -INFINITY;

	for (size_t i = lo; i < hi; i++) {
		min = x[i] < min ? x[i] : min;
		max = x[i] > max ? x[i] : max;
	}
	if (max - min <= span)
		return s;
	s.tau = ediv_best(x + lo, hi - lo, EDIV_MIN_RUNS, &s.q);
	if (s.tau)
		s.tau += lo;
	return s;
}

static int cmp_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return (x > y) - (x < y);
}

size_t ediv_changes(const double *x, size_t n, size_t *cp, size_t max_cp, double span)
{
	struct seg *segs = xmalloc((max_cp + 1) * sizeof(*segs));
	double *work = xmalloc((n ? n : 1) * sizeof(*work));
	uint64_t seed = EDIV_SEED;
	size_t nseg = 1, ncp = 0;

	segs[0] = seg_of(x, 0, n, span);
	while (ncp < max_cp) {
		size_t top = 0;

		for (size_t i = 1; i < nseg; i++)
			if (segs[i].q > segs[top].q)
				top = i;
		if (!segs[top].tau || !significant(x + segs[top].lo, segs[top].hi - segs[top].lo,
						   segs[top].q, work, &seed))
			break;
		cp[ncp++] = segs[top].tau;
		segs[nseg++] = seg_of(x, segs[top].tau, segs[top].hi, span);
		segs[top] = seg_of(x, segs[top].lo, segs[top].tau, span);
	}
	free(segs);
	free(work);
	qsort(cp, ncp, sizeof(*cp), cmp_size);
	return ncp;
}
