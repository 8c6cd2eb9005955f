// SPDX-License-Identifier: MIT
/* The lead's rule; see judge.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "judge.h"
#include "keys.h"
#include "noise.h"
#include "primary.h"
#include "ranks.h"
#include "ratio.h"
#include "schema.h"
#include "student.h"
#include "util.h"

#define Z975 1.959964

/* Student's 97.5 % quantile for df (real) degrees of freedom. */
static double t975(double df)
{
	return student_quantile(JUDGE_ALPHA, df);
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
 * Both sides repeated: Welch's t on the logs of the iterations' (or runs')
 * values, as ministat tests the repetitions themselves, in log space so that
 * a change by a factor is what is tested; its p, and the ratio's interval
 * with Welch's degrees of freedom. Where a value is not above 0: on the
 * values themselves, the interval by the delta method.
 */
static void welch(const struct agg *a, const struct agg *b, struct judgement *j)
{
	int logs = isfinite(a->log_mean) && isfinite(b->log_mean);
	double va = logs ? a->log_stddev * a->log_stddev / (double)a->n :
		    a->stddev * a->stddev / (double)a->n;
	double vb = logs ? b->log_stddev * b->log_stddev / (double)b->n :
		    b->stddev * b->stddev / (double)b->n;
	double diff = logs ? a->log_mean - b->log_mean : a->mean - b->mean, df, lv;

	j->how = JUDGE_WELCH;
	if (!(va + vb > 0)) {	/* the iterations agree exactly on both sides */
		j->p = diff != 0 ? 0 : 1;
		j->half = 0;
		return;
	}
	df = (va + vb) * (va + vb) / (va * va / (double)(a->n - 1) + vb * vb / (double)(b->n - 1));
	j->p = student_p(diff / sqrt(va + vb), df);
	lv = logs ? va + vb : va / (a->mean * a->mean) + vb / (b->mean * b->mean);
	j->half = t975(df) * sqrt(lv);
	if (logs)
		j->lr = diff;	/* the ratio of geometric means: what was tested */
}

/*
 * Both sides several runs, every value above 0: Mann-Whitney on the logs of
 * the runs' values (a wild run moves a mean, not a rank), the shift and its
 * interval the Hodges-Lehmann estimate's; 0 when it cannot.
 */
static int by_ranks(const struct figure *fg, size_t r, struct judgement *j)
{
	const struct agg *a = &fg->per_run[r], *b = &fg->per_run[0];
	double *x, *y;
	struct ranks rk;

	if (!fg->values || a->n < JUDGE_RANKS_MIN || b->n < JUDGE_RANKS_MIN ||
	    !isfinite(a->log_mean) || !isfinite(b->log_mean))
		return 0;
	x = xcalloc(b->n, sizeof(*x));
	y = xcalloc(a->n, sizeof(*y));
	for (size_t i = 0; i < b->n; i++)
		x[i] = log(fg->values[0][i]);
	for (size_t i = 0; i < a->n; i++)
		y[i] = log(fg->values[r][i]);
	ranks_test(x, b->n, y, a->n, JUDGE_ALPHA, &rk);
	free(x);
	free(y);
	*j = (struct judgement){ .how = JUDGE_RANKS, .lr = rk.shift, .p = rk.p, .floor = 1,
				 .band = j->band, .lo = rk.lo, .hi = rk.hi, .primary = 1,
				 .half = (rk.hi - rk.lo) / 2 };
	return 1;
}

int judge_both_busy(const struct report *rp, const struct figure *fg, size_t r)
{
	(void)fg;
	return !rp->runs[0].members && !rp->runs[r].members && noise_run_busy(&rp->runs[0]) &&
	       noise_run_busy(&rp->runs[r]);
}

/* One run a side (at least one): own intervals (where given) and the floor. */
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
	/* a run's own interval does not see the next run's neighbours: a floor must */
	if (!j->floor_measured) {
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

static int by_p(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return (a > b) - (a < b);
}

static int judge_one(const struct report *rp, const struct figure *fg, size_t r,
		     struct judgement *j);

/*
 * Many figures are tested at once, so a p below 0.05 comes up by chance in
 * about one test of twenty: Benjamini and Hochberg's step-up rule keeps the
 * expected share of false leads among a probe's leads at JUDGE_ALPHA (each
 * probe a family: its figures measure one thing). The largest
 * p_(k) <= k / m JUDGE_ALPHA over the m Welch tests of probe's figures
 * between run 0 and run r; -1 when none passes. Cached per report (its
 * id), run and probe (figures are sorted by probe).
 */
static double fdr_threshold(const struct report *rp, size_t r, const char *probe)
{
	static unsigned c_id, c_gen;
	static size_t c_r;
	static char *c_probe;
	static double c_thr;
	double *p, thr = -1;
	size_t m = 0;

	if (rp->id && c_id == rp->id && c_r == r && c_gen == keys_generation() && c_probe &&
	    !strcmp(c_probe, probe))
		return c_thr;
	p = xcalloc(rp->nfigs + 1, sizeof(*p));
	for (size_t i = 0; i < rp->nfigs; i++) {
		struct judgement j;

		if (strcmp(rp->figs[i].probe, probe))
			continue;
		judge_one(rp, &rp->figs[i], r, &j);
		if (j.how == JUDGE_WELCH && !j.primary)
			p[m++] = j.p;
	}
	qsort(p, m, sizeof(*p), by_p);
	for (size_t k = 0; k < m; k++)
		if (p[k] <= (double)(k + 1) / (double)m * JUDGE_ALPHA)
			thr = p[k];
	free(p);
	c_id = rp->id;
	c_r = r;
	c_gen = keys_generation();
	free(c_probe);
	c_probe = xstrdup(probe);
	c_thr = thr;
	return thr;
}

int judge(const struct report *rp, const struct figure *fg, size_t r, struct judgement *j)
{
	int leads = judge_one(rp, fg, r, j);

	if (j->how == JUDGE_WELCH && !j->primary)
		return leads && j->p <= fdr_threshold(rp, r, fg->probe);
	return leads;
}

static int judge_one(const struct report *rp, const struct figure *fg, size_t r,
		     struct judgement *j)
{
	const struct agg *a = &fg->per_run[r], *b = &fg->per_run[0];

	*j = (struct judgement){ .how = JUDGE_NOT, .p = NAN, .floor = 1, .band = band_of(fg),
				 .primary = primary_question(rp, fg, r) };
	if (!r || r >= rp->nruns || !a->n || !b->n || !(a->mean > 0) || !(b->mean > 0) ||
	    !isfinite(a->mean) || !isfinite(b->mean) || !ratio_may_lead(rp, fg) ||
	    (fg->decl && fg->decl->dir == KEY_DIR_ZERO))
		return 0;
	j->lr = log(a->mean / b->mean);
	if (fg->uncert == KEY_CI_UNSTABLE) {
		j->how = JUDGE_UNSTABLE;
		return 0;
	}
	if (judge_both_busy(rp, fg, r))
		j->how = JUDGE_CANNOT;	/* iterations of one run share its neighbours: no evidence */
	else if (a->n > 1 && b->n > 1 && !(j->primary && by_ranks(fg, r, j)))
		welch(a, b, j);
	else if (a->n <= 1 || b->n <= 1)
		single(rp, fg, r, j);
	if (j->how == JUDGE_RANKS)
		return j->p < JUDGE_ALPHA && (j->hi < -j->band || j->lo > j->band);
	if (j->how == JUDGE_WELCH)
		return j->p < JUDGE_ALPHA && fabs(j->lr) - j->half > j->band;
	return j->how == JUDGE_INTERVALS && fabs(j->lr) - j->half > j->band;
}

double judge_detectable(const struct judgement *j)
{
	return exp(j->half + j->band);
}
