// SPDX-License-Identifier: MIT
/* The lead's rule; see judge.h. */
#include <math.h>
#include <string.h>

#include "judge.h"
#include "noise.h"
#include "ratio.h"
#include "schema.h"

#define Z975 1.959964

/* Continued fraction of the incomplete beta function (Lentz's method). */
static double beta_cf(double a, double b, double x)
{
	double c = 1, d = 1 - (a + b) * x / (a + 1), h;

	d = 1 / (fabs(d) < 1e-300 ? 1e-300 : d);
	h = d;
	for (int m = 1; m <= 300; m++) {
		double m2 = 2.0 * m, aa = m * (b - m) * x / ((a - 1 + m2) * (a + m2)), del;

		d = 1 + aa * d;
		c = 1 + aa / c;
		d = 1 / (fabs(d) < 1e-300 ? 1e-300 : d);
		c = fabs(c) < 1e-300 ? 1e-300 : c;
		h *= d * c;
		aa = -(a + m) * (a + b + m) * x / ((a + m2) * (a + 1 + m2));
		d = 1 + aa * d;
		c = 1 + aa / c;
		d = 1 / (fabs(d) < 1e-300 ? 1e-300 : d);
		c = fabs(c) < 1e-300 ? 1e-300 : c;
		del = d * c;
		h *= del;
		if (fabs(del - 1) < 1e-12)
			break;
	}
	return h;
}

/* The regularized incomplete beta function I_x(a, b). */
static double beta_inc(double a, double b, double x)
{
	double front;

	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x));
	if (x < (a + 1) / (a + b + 2))
		return front * beta_cf(a, b, x) / a;
	return 1 - front * beta_cf(b, a, 1 - x) / b;
}

double judge_t_p(double t, double df)
{
	if (!isfinite(t))
		return isnan(t) ? NAN : 0;
	return beta_inc(df / 2, 0.5, df / (df + t * t));
}

/* Student's 97.5 % quantile for df (real) degrees of freedom, by bisection of judge_t_p(). */
static double t975(double df)
{
	double lo = 0, hi = 1000;

	for (int i = 0; i < 100; i++) {
		double mid = (lo + hi) / 2;

		if (judge_t_p(mid, df) > JUDGE_ALPHA)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

/* Run r's own standard error of log(fg) from its interval (one iteration); 0: none. */
static double own_se(const struct figure *fg, size_t r)
{
	const struct fig_ci *ci = fg->ci ? &fg->ci[r] : NULL;

	if (!ci || !ci->n || !(ci->lo > 0) || !(ci->hi >= ci->lo))
		return 0;
	return log(ci->hi / ci->lo) / (2 * Z975);
}

static double band_of(const struct figure *fg)
{
	return log1p(fg->decl && fg->decl->unit && !strcmp(fg->decl->unit, "count") ?
		     JUDGE_BAND_COUNT : JUDGE_BAND);
}

/*
 * Both sides repeated: Welch's t on the means (as ministat and compare.py
 * test the repetitions themselves), its p; the ratio's interval in log
 * space by the delta method, with Welch's degrees of freedom.
 */
static void welch(const struct agg *a, const struct agg *b, struct judgement *j)
{
	double va = a->stddev * a->stddev / (double)a->n, vb = b->stddev * b->stddev / (double)b->n;
	double la = va / (a->mean * a->mean), lb = vb / (b->mean * b->mean), df;

	j->how = JUDGE_WELCH;
	if (!(va + vb > 0)) {	/* the iterations agree exactly on both sides */
		j->p = j->lr != 0 ? 0 : 1;
		j->half = 0;
		return;
	}
	df = (va + vb) * (va + vb) / (va * va / (double)(a->n - 1) + vb * vb / (double)(b->n - 1));
	j->p = judge_t_p((a->mean - b->mean) / sqrt(va + vb), df);
	j->half = t975(df) * sqrt(la + lb);
}

int judge_both_busy(const struct report *rp, const struct figure *fg, size_t r)
{
	(void)fg;
	return !rp->runs[0].members && !rp->runs[r].members && noise_run_busy(&rp->runs[0]) &&
	       noise_run_busy(&rp->runs[r]);
}

/* One run a side (at least one): own intervals and the floor. */
static void single(const struct report *rp, const struct figure *fg, size_t r,
		   struct judgement *j)
{
	double sa = own_se(fg, r), sb = own_se(fg, 0);
	const struct agg *a = &fg->per_run[r], *b = &fg->per_run[0];

	/* a side that repeated brings its iterations' spread as its own interval */
	if (a->n > 1 && a->mean > 0)
		sa = a->stddev / a->mean / sqrt((double)a->n) * t975((double)a->n - 1) / Z975;
	if (b->n > 1 && b->mean > 0)
		sb = b->stddev / b->mean / sqrt((double)b->n) * t975((double)b->n - 1) / Z975;
	j->floor = noise_floor_of(rp, fg, r, &j->floor_measured);
	if ((!sa || !sb) && !j->floor_measured) {
		j->how = JUDGE_CANNOT;
		return;
	}
	if (j->floor_measured && j->floor > JUDGE_FLOOR_USELESS) {
		j->how = JUDGE_CANNOT;
		return;
	}
	j->how = JUDGE_INTERVALS;
	j->half = sqrt(Z975 * Z975 * (sa * sa + sb * sb) + pow(log(j->floor), 2));
}

int judge(const struct report *rp, const struct figure *fg, size_t r, struct judgement *j)
{
	const struct agg *a = &fg->per_run[r], *b = &fg->per_run[0];

	*j = (struct judgement){ .how = JUDGE_NOT, .p = NAN, .floor = 1, .band = band_of(fg) };
	if (!r || r >= rp->nruns || !a->n || !b->n || !(a->mean > 0) || !(b->mean > 0) ||
	    !isfinite(a->mean) || !isfinite(b->mean) || !ratio_may_lead(rp, fg) ||
	    schema_signed(fg->probe, fg->key))
		return 0;
	j->lr = log(a->mean / b->mean);
	if (fg->uncert == KEY_CI_UNSTABLE) {
		j->how = JUDGE_UNSTABLE;
		return 0;
	}
	if (judge_both_busy(rp, fg, r))
		j->how = JUDGE_CANNOT;	/* iterations of one run share its neighbours: no evidence */
	else if (a->n > 1 && b->n > 1)
		welch(a, b, j);
	else
		single(rp, fg, r, j);
	if (j->how == JUDGE_WELCH)
		return j->p < JUDGE_ALPHA && fabs(j->lr) - j->half > j->band;
	return j->how == JUDGE_INTERVALS && fabs(j->lr) - j->half > j->band;
}

double judge_detectable(const struct judgement *j)
{
	return exp(j->half + j->band);
}
