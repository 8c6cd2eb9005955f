// SPDX-License-Identifier: MIT
/* A figure's 95 % interval; see ci.h. */
#include <math.h>
#include <stdio.h>

#include "ci.h"
#include "emit.h"
#include "../common/record.h"

#define Z975 1.959964

void ci_quantile(const double *sorted, size_t n, double p, double *lo, double *hi)
{
	double q = p / 100, half, at;
	long j, k;

	if (!n) {
		*lo = *hi = NAN;
		return;
	}
	at = (double)n * q;
	half = Z975 * sqrt((double)n * q * (1 - q));
	j = (long)floor(at - half);		/* 1-based ranks */
	k = (long)ceil(at + half) + 1;
	if (j < 1)
		j = 1;
	if (k > (long)n)
		k = (long)n;
	*lo = sorted[j - 1];
	*hi = sorted[k - 1];
}

double ci_t975(size_t df)
{
	/* Student's t, 0.975 quantile, df 1..30 (any table of t, e.g. NIST/SEMATECH 1.3.6.7.2) */
	static const double t[] = {
		12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
		2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
		2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
	};

	if (df < 1)
		return INFINITY;
	if (df <= sizeof(t) / sizeof(t[0]))
		return t[df - 1];
	return Z975 + 2.4 / (double)df;	/* within 0.2 % of the table beyond 30 */
}

void ci_mean(double mean, double sd, size_t n, double *lo, double *hi)
{
	double half = n > 1 ? ci_t975(n - 1) * sd / sqrt((double)n) : INFINITY;

	*lo = mean - half;
	*hi = mean + half;
}

void ci_emit(struct tp_rec *r, const char *key, double lo, double hi, uint64_t n)
{
	char name[64];

	if (!n || !isfinite(lo) || !isfinite(hi))
		return;
	snprintf(name, sizeof(name), "%s%s", key, TP_REC_CI_SUFFIX);
	tp_rec_arr_begin(r, name);
	emit_rec_double(r, 0, lo);
	emit_rec_double(r, 0, hi);
	tp_rec_uint(r, 0, n);
	tp_rec_arr_end(r);
}
