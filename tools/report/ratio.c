// SPDX-License-Identifier: MIT
/* How one figure compares between two runs; see ratio.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "keys.h"
#include "ratio.h"
#include "schema.h"
#include "util.h"

/*
 * An attribution count in run r as a rate: events per second of the
 * probe's run, and how many events that is (over every iteration). 0 when
 * the run lacks the count or its ran_ms.
 */
int ratio_attribution_rate(const struct report *rp, const struct figure *fg, size_t r,
			   double *per_s, double *events)
{
	const struct run *run = &rp->runs[r];
	const struct agg *a = &fg->per_run[r];
	long i = run_find_result(run, fg->id);
	struct agg ran;
	double *v;
	size_t n;

	if (i < 0 || !a->n)
		return 0;
	n = result_values(&run->res[i], "ran_ms", &v);
	agg_of(v, n, &ran);
	free(v);
	if (n != a->n || ran.mean <= 0)
		return 0;
	*per_s = a->mean / (ran.mean / 1000);
	*events = a->mean * (double)a->n;
	return 1;
}

int ratio_is_count(const struct key_decl *d)
{
	return d && d->unit && !strcmp(d->unit, "count");
}

/* A count from 0 as a ratio: 0 read as one event, |log(n)| for n events (n >= 1). */
static double from_zero_log_ratio(double n)
{
	return log(fmax(n, 1));
}

/*
 * An attribution count's |log(ratio)| in run r to run 0: the smaller of
 * its rate per second and its count when both go the same way, else NAN.
 * *n and *base_n: the events over every iteration.
 */
double ratio_attribution_log(const struct report *rp, const struct figure *fg, size_t r,
			     double *n, double *base_n)
{
	double base_rate, rate, by_rate, by_count;

	if (!ratio_attribution_rate(rp, fg, 0, &base_rate, base_n) ||
	    !ratio_attribution_rate(rp, fg, r, &rate, n) || !(*n >= 0) || !(*base_n >= 0) ||
	    !(*n > 0 || *base_n > 0))
		return NAN;
	if (!*n || !*base_n)
		return from_zero_log_ratio(*n + *base_n);
	by_rate = log(rate / base_rate);
	by_count = log(fg->per_run[r].mean / fg->per_run[0].mean);
	if (!(by_rate * by_count > 0))
		return NAN;
	return fmin(fabs(by_rate), fabs(by_count));
}

/* The largest value of key over the iterations of fg's result in run r; 0: none there. */
static int result_max(const struct report *rp, const struct figure *fg, size_t r,
		      const char *key, double *max)
{
	long i = run_find_result(&rp->runs[r], fg->id);
	double *v;
	size_t n;

	if (i < 0)
		return 0;
	n = result_values(&rp->runs[r].res[i], key, &v);
	for (size_t k = 0; k < n; k++)
		*max = !k || v[k] > *max ? v[k] : *max;
	free(v);
	return n > 0;
}

/* Has run a result of fg's probe, other than fg's own, with figure key? */
static int other_result_has(const struct run *run, const struct figure *fg, const char *key)
{
	for (size_t i = 0; i < run->nres; i++) {
		double *v;
		size_t n;

		if (strcmp(run->res[i].probe, fg->probe) || !strcmp(run->res[i].id, fg->id))
			continue;
		n = result_values(&run->res[i], key, &v);
		free(v);
		if (n)
			return 1;
	}
	return 0;
}

/*
 * Is fg a fact another figure shows (keys.h), in every run that has it?
 * same_as: bound_ticks where its result has bound_ns; p999_ns where n <
 * 1000 says it is max_ns. max_of: max_bound_ns where the pairs' results
 * have bound_ns. Then only that other figure may lead.
 */
static int shown_elsewhere(const struct report *rp, const struct figure *fg,
			   const struct key_decl *d)
{
	for (size_t r = 0; r < rp->nruns; r++) {
		double v, n;

		if (!fg->per_run[r].n)
			continue;
		if (d->max_of && !other_result_has(&rp->runs[r], fg, d->max_of))
			return 0;
		if (d->same_as && !result_max(rp, fg, r, d->same_as, &v))
			return 0;
		if (d->same_as && d->same_below_n &&
		    (!result_max(rp, fg, r, "n", &n) || n >= (double)d->same_below_n))
			return 0;
	}
	return 1;
}

/* Is fg's result, in some run, measured against a reference that is not
 * independent of what it measures (its first record's "independent": false)? */
static int circular(const struct report *rp, const struct figure *fg)
{
	for (size_t r = 0; r < rp->nruns; r++) {
		long i = run_find_result(&rp->runs[r], fg->id);

		if (i >= 0 && json_is_false(json_object_get(rp->runs[r].res[i].first, "independent")))
			return 1;
	}
	return 0;
}

/*
 * Only figures lead, each fact once: not budgets (how much was measured),
 * not a fact a figure in its primary unit already shows, not a circular
 * figure. A probe's result keys by its declaration; other records (calib)
 * by the schema's rows.
 */
int ratio_may_lead(const struct report *rp, const struct figure *fg)
{
	const struct key_decl *d = fg->decl;

	if (circular(rp, fg))
		return 0;
	/* calib and attribution results: by their record type's rows */
	if (!d)
		return fg->cls != KEY_BUDGET;
	return d->cls == KEY_FIGURE && !((d->same_as || d->max_of) && shown_elsewhere(rp, fg, d));
}

double ratio_log(const struct report *rp, const struct figure *fg, size_t r)
{
	const struct agg *a = &fg->per_run[r], *base = &fg->per_run[0];
	double n, base_n;

	if (!r || r >= rp->nruns || !ratio_may_lead(rp, fg))
		return NAN;
	if (!strcmp(fg->probe, ATTRIBUTION))
		return ratio_attribution_log(rp, fg, r, &n, &base_n);
	/* not finite: intervals that contradict each other have no value */
	if ((fg->decl && fg->decl->dir == KEY_DIR_ZERO) || !a->n || !base->n || !(a->mean >= 0) ||
	    !(base->mean >= 0) || !isfinite(a->mean) || !isfinite(base->mean))
		return NAN;
	if ((a->mean == 0) != (base->mean == 0) && ratio_is_count(fg->decl))
		return from_zero_log_ratio(a->mean + base->mean);
	if (!(a->mean > 0) || !(base->mean > 0))
		return NAN;
	return fabs(log(a->mean / base->mean));
}
