// SPDX-License-Identifier: MIT
/* The lead's note: how, the power, what cannot compare; see power.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "conditions.h"
#include "judge.h"
#include "noise.h"
#include "primary.h"
#include "power.h"
#include "util.h"

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double power_detectable(const struct report *rp, const char *probe, size_t r, struct power *pw)
{
	double *v = xcalloc(rp->nfigs + 1, sizeof(*v));

	memset(pw, 0, sizeof(*pw));
	for (size_t i = 0; i < rp->nfigs; i++) {
		struct judgement j;

		/* the figures whose runs say how sure they are: the probe's headline ones */
		if (strcmp(rp->figs[i].probe, probe) || !rp->figs[i].decl ||
		    rp->figs[i].decl->ci != KEY_CI_INTERVAL)
			continue;
		judge(rp, &rp->figs[i], r, &j);
		if (j.how != JUDGE_INTERVALS && j.how != JUDGE_WELCH)
			continue;
		v[pw->n] = judge_detectable(&j);
		if (!pw->n || v[pw->n] < pw->least) {
			pw->least = v[pw->n];
			pw->steadiest = &rp->figs[i];
		}
		pw->n++;
	}
	if (pw->n) {
		qsort(v, pw->n, sizeof(*v), by_value);
		pw->median = v[pw->n / 2];
	}
	free(v);
	return pw->least;
}

/* Each probe once, in figure order, as fn's argument. */
static void each_probe(const struct report *rp, void (*fn)(const struct report *, const char *,
							   void *), void *arg)
{
	for (size_t i = 0; i < rp->nfigs; i++)
		if (!i || strcmp(rp->figs[i].probe, rp->figs[i - 1].probe))
			fn(rp, rp->figs[i].probe, arg);
}

struct power_line {
	FILE *f;
	enum style style;
	int any;
};

static void print_power(const struct report *rp, const char *probe, void *arg)
{
	struct power_line *pl = arg;
	struct power pw;

	if (!power_detectable(rp, probe, rp->nruns - 1, &pw))
		return;
	fputs(pl->any++ ? "; " : "  (detectable here: the smallest ratio each probe's figures with "
		"an interval could show, the last run against the first, its figure, and the median "
		"over them: ", pl->f);
	table_text(pl->f, pl->style, probe);
	fprintf(pl->f, " >= %.3gx (", pw.least);
	table_text(pl->f, pl->style, pw.steadiest->name);
	fputc(' ', pl->f);
	table_text(pl->f, pl->style, pw.steadiest->key);
	fprintf(pl->f, "), median %.3gx of %zu", pw.median, pw.n);
}

/* "KIND: probe key, key, ...; probe key" for the figures judged how, keys once. */
static void print_list(FILE *f, const struct report *rp, enum style style, enum judge_how how,
		       const char *kind)
{
	json_t *seen = json_object();
	const char *probe = NULL;
	size_t named = 0, more = 0;

	for (size_t i = 0; i < rp->nfigs; i++) {
		const struct figure *fg = &rp->figs[i];
		struct judgement j;
		char *id;

		judge(rp, fg, rp->nruns - 1, &j);
		if (j.how != how)
			continue;
		id = xasprintf("%s\x1f%s", fg->probe, fg->key);
		if (!json_object_get(seen, id)) {
			json_object_set_new(seen, id, json_true());
			if (!probe || strcmp(probe, fg->probe)) {
				if (more)
					fprintf(f, " +%zu more", more);
				fprintf(f, "%s", probe ? "; " : kind);
				table_text(f, style, fg->probe);
				fputc(' ', f);
				probe = fg->probe;
				named = more = 0;
			} else if (named < POWER_NAMES_MAX) {
				fputs(", ", f);
			}
			if (named++ < POWER_NAMES_MAX)
				table_text(f, style, fg->key);
			else
				more++;
		}
		free(id);
	}
	if (more)
		fprintf(f, " +%zu more", more);
	if (probe)
		fputs(")\n", f);
	json_decref(seen);
}

/*
 * Where a maximum is judged by its rounds' ranks and those rounds cannot
 * reach the level its probe's procedure asks of one figure alone (alpha / m,
 * judge.h):
 * that it cannot lead, once, with the first such figure's numbers.
 */
static void print_extremes_blind(FILE *f, const struct report *rp)
{
	for (size_t i = 0; i < rp->nfigs; i++) {
		struct judgement j;

		judge(rp, &rp->figs[i], rp->nruns - 1, &j);
		if (j.how != JUDGE_EXTREMES || !j.m || !(j.p_best > j.alpha / (double)j.m))
			continue;
		fprintf(f, "  (maxima by their rounds' ranks: %zu rounds against %zu reach p %.2g at best, "
			"above the %.2g that %zu results of their probe, %zu statistics in this one's, ask "
			"of one figure alone, so a maximum that moves alone does not lead here; several "
			"runs a side, or more rounds (timeprobe.rounds=, --rounds=), let it)\n",
			j.rounds[0], j.rounds[1], j.p_best, j.alpha / (double)j.m, j.results, j.stats);
		return;
	}
}

void lead_print_note(FILE *f, const struct report *rp, enum style style)
{
	struct power_line pl = { f, style, 0 };

	fprintf(f, "  (how: one run a side: its rounds are its samples (else its own interval), plus twice "
		"the figure's between-run variance from %u identical quiet runs (tools/report/floors.tsv), "
		"Welch's t; event counts as rates per second, quasi-Poisson over the rounds; maxima by "
		"their rounds' ranks (Mann-Whitney); several runs a side: Welch's t on the runs; p "
		"shown; one hypothesis per result: Simes over its statistics, Benjamini-Hochberg over "
		"each probe's results, then within each selected one (Benjamini and Bogomolov); a "
		"figure leads when its 95 %% "
		"interval also excludes 1 -/+ %.0f %% (counts %.0f %%), ranked by the ratio)\n",
		noise_builtin_runs(), JUDGE_BAND * 100, JUDGE_BAND_COUNT * 100);
	each_probe(rp, print_power, &pl);
	if (pl.any)
		fputs(")\n", f);
	if (rp->nruns > 1 && primary_booted_clock(rp) &&
	    primary_question(rp, primary_booted_clock(rp), rp->nruns - 1))
		fprintf(f, "  (the runs booted different clocksources, so reading the default clock as "
			"booted is this comparison's own question: tested alone at %.2g, not among its "
			"probe's many, and by ranks (Mann-Whitney, the Hodges-Lehmann shift) where each "
			"side has %d runs or more)\n", JUDGE_ALPHA, JUDGE_RANKS_MIN);
	if (rp->nruns == 2 && judge_both_busy(rp, rp->nfigs ? &rp->figs[0] : NULL, 1))
		fprintf(f, "  (both runs ran beside other work using %.0f %% of the CPUs or more: no "
			"floor is learnt from a busy machine and a run's iterations share its "
			"neighbours, so no figure compares by ratio; run several a side (--label) or on "
			"an idle machine)\n", CONDITIONS_BUSY_PCT);
	print_extremes_blind(f, rp);
	print_list(f, rp, style, JUDGE_CANNOT, "  (cannot compare: single runs without a between-run "
		   "term for their env (make noise-floor, then --floors) or with one beyond 4x, a "
		   "maximum without rounds, or both runs busy: ");
	print_list(f, rp, style, JUDGE_UNSTABLE, "  (not comparable, bimodal or quantized by "
		   "declaration: ");
}
