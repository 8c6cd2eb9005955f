// SPDX-License-Identifier: MIT
/* The lead's rule; see judge.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "between.h"
#include "family.h"
#include "judge.h"
#include "keys.h"
#include "noise.h"
#include "primary.h"
#include "ranks.h"
#include "ratio.h"
#include "rounds.h"
#include "schema.h"
#include "student.h"
#include "util.h"

#define Z975 1.959964

/* Student's 97.5 % quantile for df (real) degrees of freedom. */
static double t975(double df)
{
	return student_quantile(JUDGE_ALPHA, df);
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

/*
 * Run r's variance of log(fg) within its run, and its degrees of freedom:
 * its rounds' (rounds.h), or its iterations' where it repeated, or its own
 * interval's (a large df), else 0.
 */
static double side_var(const struct report *rp, const struct figure *fg, size_t r, double *df)
{
	const struct agg *a = &fg->per_run[r];
	double *v, se = rounds_own_se(fg, r), w = rounds_log_within(rp, fg, r);
	size_t n = rounds_values(rp, fg, r, &v);

	free(v);
	if (a->n > 1 && a->mean > 0) {
		*df = (double)a->n - 1;
		return a->stddev * a->stddev / (a->mean * a->mean) / (double)a->n;
	}
	if (n >= 2 && isfinite(w) && !(se > 0 && w == se * se)) {
		*df = (double)n - 1;
		return w;
	}
	*df = fg->ci && fg->ci[r].n > 1 ? (double)fg->ci[r].n - 1 : 1e6;
	return se * se;
}

/* Welch-Satterthwaite's degrees of freedom of a sum of variances v[i] with df[i] each. */
static double satterthwaite(const double *v, const double *df, size_t n)
{
	double sum = 0, den = 0;

	for (size_t i = 0; i < n; i++) {
		sum += v[i];
		den += v[i] > 0 ? v[i] * v[i] / fmax(df[i], 1) : 0;
	}
	return den > 0 ? sum * sum / den : 1e6;
}

/* The between-run variance of fg (noise.h), 0 with how CANNOT where none or too wide. */
static double between_of(const struct report *rp, const struct figure *fg, size_t r,
			 struct judgement *j, unsigned *bdf)
{
	double vb = noise_between_var(rp, fg, r, bdf, &j->floor_measured);

	j->floor = exp(Z975 * sqrt(2 * vb));
	/* a run's own samples do not see the next run's neighbours: the term must be measured */
	if (!j->floor_measured || j->floor > JUDGE_FLOOR_USELESS)
		j->how = JUDGE_CANNOT;
	return vb;
}

/* One run a side: its rounds or interval, and twice the between-run variance. */
static void single(const struct report *rp, const struct figure *fg, size_t r,
		   struct judgement *j)
{
	double v[3], df[3], total;
	unsigned bdf;
	double vb = between_of(rp, fg, r, j, &bdf);

	if (j->how == JUDGE_CANNOT)
		return;
	v[0] = side_var(rp, fg, r, &df[0]);
	v[1] = side_var(rp, fg, 0, &df[1]);
	v[2] = 2 * vb;
	df[2] = bdf;
	total = v[0] + v[1] + v[2];
	j->how = JUDGE_INTERVALS;
	j->sd = sqrt(total);
	j->df = satterthwaite(v, df, 3);
	if (!(total > 0)) {
		j->p = j->lr != 0 ? 0 : 1;
		j->half = 0;
		return;
	}
	j->p = student_p(j->lr / j->sd, j->df);
	j->half = t975(j->df) * j->sd;
}

/* Run r's rounds of fg (events) and their windows (NULL: equal); how many rounds. */
static size_t count_rounds(const struct report *rp, const struct figure *fg, size_t r, double **c,
			   double **t)
{
	size_t n = rounds_values(rp, fg, r, c);

	if (rounds_windows(rp, fg, r, t) != n) {
		free(*t);
		*t = NULL;
	}
	return n;
}

/*
 * An event count, one run a side: its rates by quasi-Poisson over the
 * rounds (between.h), or where a side has none, Poisson's on its total,
 * plus twice its between-run variance; JUDGE_NOT where neither saw one.
 */
static void counts(const struct report *rp, const struct figure *fg, size_t r, struct judgement *j)
{
	double *ca, *ta, *cb, *tb, tot_a[2], tot_b[2];
	unsigned bdf;
	double vb = between_of(rp, fg, r, j, &bdf);
	size_t na = count_rounds(rp, fg, r, &ca, &ta), nb = count_rounds(rp, fg, 0, &cb, &tb);
	struct between_qp q;
	int ok;

	if (j->how == JUDGE_CANNOT)
		na = nb = 0;
	if (na >= 2 && nb >= 2 && (!ta) == (!tb)) {
		ok = between_quasi_poisson(cb, tb, nb, ca, ta, na, 2 * vb, &q);
	} else {	/* one total a side, split in two halves so Poisson's rate is tested */
		tot_a[0] = tot_a[1] = fg->per_run[r].mean * (double)fg->per_run[r].n / 2;
		tot_b[0] = tot_b[1] = fg->per_run[0].mean * (double)fg->per_run[0].n / 2;
		ok = j->how != JUDGE_CANNOT &&
		     between_quasi_poisson(tot_b, NULL, 2, tot_a, NULL, 2, 2 * vb, &q);
		q.phi = 1;
	}
	free(ca);
	free(ta);
	free(cb);
	free(tb);
	if (!ok || !(q.rate_a > 0 || q.rate_b > 0)) {
		j->how = j->how == JUDGE_CANNOT ? JUDGE_CANNOT : JUDGE_NOT;
		return;
	}
	*j = (struct judgement){ .how = JUDGE_COUNTS, .lr = q.lr, .p = q.p, .sd = q.se, .df = q.df,
				 .half = t975(q.df) * q.se, .floor = j->floor, .band = j->band,
				 .floor_measured = j->floor_measured };
}

/* A maximum, one run a side: its rounds' values by ranks; CANNOT without rounds. */
static void extremes(const struct report *rp, const struct figure *fg, size_t r,
		     struct judgement *j)
{
	double *x, *y;
	size_t m = rounds_values(rp, fg, 0, &x), n = rounds_values(rp, fg, r, &y), k = 0;
	struct ranks rk;

	for (size_t i = 0; i < m; i++)
		k += x[i] > 0;
	for (size_t i = 0; i < n; i++)
		k += y[i] > 0;
	if (m < JUDGE_RANKS_MIN || n < JUDGE_RANKS_MIN || k != m + n) {
		free(x);
		free(y);
		j->how = JUDGE_CANNOT;
		return;
	}
	for (size_t i = 0; i < m; i++)
		x[i] = log(x[i]);
	for (size_t i = 0; i < n; i++)
		y[i] = log(y[i]);
	ranks_test(x, m, y, n, JUDGE_ALPHA, &rk);
	free(x);
	free(y);
	*j = (struct judgement){ .how = JUDGE_EXTREMES, .lr = rk.shift, .p = rk.p, .floor = 1,
				 .band = j->band, .lo = rk.lo, .hi = rk.hi,
				 .half = (rk.hi - rk.lo) / 2, .rounds = { m, n } };
	/* all of one side's ranks above the other's: 2 of the C(m + n, m) orders */
	j->p_best = 2;
	for (size_t i = 1; i <= m; i++)
		j->p_best *= (double)i / (double)(n + i);
}

static int judge_one(const struct report *rp, const struct figure *fg, size_t r,
		     struct judgement *j);

/* Is j one of its probe's many tests (family.h's procedure)? */
static int in_family(const struct judgement *j)
{
	return !j->primary && (j->how == JUDGE_WELCH || j->how == JUDGE_INTERVALS ||
			       j->how == JUDGE_COUNTS || j->how == JUDGE_EXTREMES);
}

/*
 * Many figures are tested at once, so a p below 0.05 comes up by chance in
 * about one test of twenty. One hypothesis per result ("did this result
 * change?"), its statistics the views of it: Benjamini and Bogomolov's
 * procedure (family.h; Simes within a result, Benjamini-Hochberg across a
 * probe's results at judge_alpha()'s level, then within each selected
 * result at alpha R / m). A result is what the probe's record declares one
 * (its identity keys: fg->result_rank, the same id), never a name known
 * here. The outcome for the figures of probe between run 0 and run r, from
 * its first figure (figures are sorted by probe), cached per report (its
 * id), run and probe.
 */
struct family_cache {
	unsigned id, gen;
	size_t r, first, n;	/* the probe's figures: rp->figs[first .. first + n) */
	int *tested, *pass;	/* per figure of the probe */
	size_t *size;		/* its result's tested statistics */
	struct family_outcome out;
};

static void family_fill(const struct report *rp, size_t r, size_t first, struct family_cache *c)
{
	size_t n = 0, k = 0;
	double *p;
	size_t *group, *size;
	int *pass;

	while (first + n < rp->nfigs && !strcmp(rp->figs[first + n].probe, rp->figs[first].probe))
		n++;
	free(c->tested);
	free(c->pass);
	free(c->size);
	*c = (struct family_cache){ .id = rp->id, .gen = keys_generation(), .r = r, .first = first,
				    .n = n, .tested = xcalloc(n + 1, sizeof(int)),
				    .pass = xcalloc(n + 1, sizeof(int)),
				    .size = xcalloc(n + 1, sizeof(size_t)) };
	p = xcalloc(n + 1, sizeof(*p));
	group = xcalloc(n + 1, sizeof(*group));
	size = xcalloc(n + 1, sizeof(*size));
	pass = xcalloc(n + 1, sizeof(*pass));
	for (size_t i = 0; i < n; i++) {
		struct judgement j;

		judge_one(rp, &rp->figs[first + i], r, &j);
		if (!in_family(&j))
			continue;
		c->tested[i] = 1;
		p[k] = isnan(j.p) ? 1 : j.p;
		group[k++] = rp->figs[first + i].result_rank;
	}
	family_select(p, group, k, judge_alpha(rp, r), pass, size, &c->out);
	for (size_t i = 0, t = 0; i < n; i++)
		if (c->tested[i]) {
			c->pass[i] = pass[t];
			c->size[i] = size[t++];
		}
	free(p);
	free(group);
	free(size);
	free(pass);
}

/* fg's index in rp->figs: fg is one of them (every caller judges rp's own). */
static size_t fig_index(const struct report *rp, const struct figure *fg)
{
	for (size_t i = 0; i < rp->nfigs; i++)
		if (&rp->figs[i] == fg || (rp->figs[i].id == fg->id && rp->figs[i].key == fg->key))
			return i;
	return rp->nfigs;
}

/* Does tested fg pass its probe's procedure between run 0 and run r? Fills j's m, results, stats. */
static int family_passes(const struct report *rp, const struct figure *fg, size_t r,
			 struct judgement *j)
{
	static struct family_cache c;
	size_t i = fg >= rp->figs && fg < rp->figs + rp->nfigs ? (size_t)(fg - rp->figs) :
								  fig_index(rp, fg), first = i;

	if (i >= rp->nfigs)
		return 0;
	if (!(rp->id && c.id == rp->id && c.gen == keys_generation() && c.r == r && c.first <= i &&
	      i < c.first + c.n && c.tested)) {
		while (first && !strcmp(rp->figs[first - 1].probe, fg->probe))
			first--;
		family_fill(rp, r, first, &c);
	}
	j->results = c.out.families;
	j->stats = c.size[i - c.first] ? c.size[i - c.first] : 1;
	j->m = j->results * j->stats;
	return c.pass[i - c.first];
}

double judge_alpha(const struct report *rp, size_t r)
{
	static unsigned c_id, c_gen;
	static size_t c_r;
	static double c_alpha;
	size_t probes = 0;

	if (rp->id && c_id == rp->id && c_r == r && c_gen == keys_generation())
		return c_alpha;
	/* sides of several runs keep Welch's per-probe level (their promise is their spread's) */
	if (r < rp->nruns && (rp->runs[0].members || rp->runs[r].members))
		return JUDGE_ALPHA;
	for (size_t i = 0; i < rp->nfigs; i++) {
		struct judgement j;

		if (i && !strcmp(rp->figs[i].probe, rp->figs[i - 1].probe) && probes)
			continue;	/* this probe counted already (figures are sorted by probe) */
		for (size_t k = i; k < rp->nfigs && !strcmp(rp->figs[k].probe, rp->figs[i].probe); k++) {
			judge_one(rp, &rp->figs[k], r, &j);
			if (in_family(&j)) {
				probes++;
				break;
			}
		}
	}
	c_id = rp->id;
	c_r = r;
	c_gen = keys_generation();
	c_alpha = JUDGE_ALPHA / (double)(probes ? probes : 1);
	return c_alpha;
}

int judge(const struct report *rp, const struct figure *fg, size_t r, struct judgement *j)
{
	int leads = judge_one(rp, fg, r, j);

	if (in_family(j)) {
		int passes = family_passes(rp, fg, r, j);

		j->alpha = judge_alpha(rp, r);
		return leads && passes;
	}
	return leads;
}

static int judge_one(const struct report *rp, const struct figure *fg, size_t r,
		     struct judgement *j)
{
	const struct agg *a = &fg->per_run[r], *b = &fg->per_run[0];

	enum key_kind kind = fg->kind;
	int single_side = a->n <= 1 || b->n <= 1;

	*j = (struct judgement){ .how = JUDGE_NOT, .p = NAN, .floor = 1, .band = band_of(fg),
				 .primary = primary_question(rp, fg, r) };
	if (!r || r >= rp->nruns || !a->n || !b->n || !ratio_may_lead(rp, fg) ||
	    kind == KEY_KIND_CONTEXT || (fg->decl && fg->decl->dir == KEY_DIR_ZERO))
		return 0;
	if (kind == KEY_KIND_COUNT && single_side && a->mean >= 0 && b->mean >= 0 &&
	    !judge_both_busy(rp, fg, r)) {
		counts(rp, fg, r, j);
		return j->how == JUDGE_COUNTS && fabs(j->lr) - j->half > j->band;
	}
	if (!(a->mean > 0) || !(b->mean > 0) || !isfinite(a->mean) || !isfinite(b->mean))
		return 0;
	j->lr = log(a->mean / b->mean);
	if (kind == KEY_KIND_MAX && single_side && !judge_both_busy(rp, fg, r)) {
		extremes(rp, fg, r, j);
		return j->how == JUDGE_EXTREMES && (j->hi < -j->band || j->lo > j->band);
	}
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
	if (j->how == JUDGE_INTERVALS || j->how == JUDGE_COUNTS)
		return between_detectable(j->sd, j->alpha, j->m, 0.8, j->band, j->half, j->df);
	return exp(j->half + j->band);
}
