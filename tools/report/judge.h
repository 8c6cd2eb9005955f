/* SPDX-License-Identifier: MIT */
/*
 * The lead's rule (docs/comparing.md, "When a figure leads"): a figure
 * leads when the 95 % interval of its ratio to the first run excludes a
 * practical band around 1. The interval comes from what was measured:
 * - both sides repeated (--repeat, or several runs a side): Welch's t on
 *   the logs of the iterations' (or runs') values, its p-value shown, and
 *   one hypothesis per result over its probe's results (family.h:
 *   Simes within a result, Benjamini-Hochberg across them; the
 *   comparison's own question, primary_question(), primary.h, alone, by
 *   ranks where each side has enough runs);
 * - else (one run a side) the run's rounds as its samples (Welch's t on
 *   their logs), or where it has none its own interval (KEY_ci95, keys.h),
 *   plus twice the between-run variance identical runs show for the figure
 *   in their env (noise.h), tested per result as above;
 *   an event count by its rates, quasi-Poisson over the rounds (between.h);
 *   a maximum by its rounds' maxima, Mann-Whitney (ranks.h); a figure its
 *   probe declares context never.
 * A figure declared unstable (bimodal, quantized) is never judged by ratio;
 * one of single runs without a floor for its env (a run's own interval
 * does not see between-run noise), or a floor too wide to say
 * anything, or of two runs both on a busy machine (their neighbours set its
 * noise, no floor is learnt from a loaded machine, and a run's iterations
 * share its neighbours), cannot be compared (said, not dropped); several
 * runs a side can (their spread is measured).
 */
#ifndef TP_REPORT_JUDGE_H
#define TP_REPORT_JUDGE_H

#include "model.h"

/* The practical band: a ratio within 1 -/+ this says nothing, however sure. */
#define JUDGE_BAND 0.05
/* A count's band (unit "count": a few events more or less). */
#define JUDGE_BAND_COUNT 0.10
/* Two-sided level of every interval and test here. */
#define JUDGE_ALPHA 0.05
/* A floor (a ratio) beyond which single runs cannot tell a figure's changes. */
#define JUDGE_FLOOR_USELESS 4.0

enum judge_how {
	JUDGE_NOT,		/* not compared by ratio (not a figure, missing, signed, zero) */
	JUDGE_UNSTABLE,		/* declared bimodal or quantized: not comparable */
	JUDGE_CANNOT,		/* single runs, no interval, no usable floor */
	JUDGE_INTERVALS,	/* one run a side: its rounds (else its interval) and the between-run term */
	JUDGE_WELCH,		/* repeated: Welch's t on the means */
	JUDGE_RANKS,		/* the comparison's own question, repeated: Mann-Whitney */
	JUDGE_COUNTS,		/* an event count: rates, quasi-Poisson over the rounds */
	JUDGE_EXTREMES,		/* a maximum: its rounds' maxima by ranks (Mann-Whitney) */
};

/* Each side this many runs or more: the comparison's own question is tested by ranks. */
#define JUDGE_RANKS_MIN 4

struct judgement {
	enum judge_how how;
	double lr;		/* log(run r / run 0) */
	double half;		/* half-width of lr's 95 % interval */
	double p;		/* Welch: two-sided p; NAN otherwise */
	double floor;		/* the between-run floor applied (>= 1; 1: none) */
	int floor_measured;
	double band;		/* the practical band, log(1 + band) */
	double lo, hi;		/* ranks: lr's interval (the Hodges-Lehmann shift's) */
	int primary;		/* the comparison's own question (primary_question(), primary.h) */
	double sd;		/* INTERVALS, COUNTS: the standard deviation of lr's estimate */
	double df;		/* its degrees of freedom */
	/*
	 * Its probe's procedure (family.h): the results with a tested
	 * statistic, the tested statistics of its own result, and m, their
	 * product: alpha / m is what it must reach when it moves alone
	 */
	size_t results, stats, m;
	double alpha;		/* the level the probe's results are tested at (judge_alpha()) */
	double p_best;		/* EXTREMES: the smallest p its rounds allow (2 / C(m + n, m)) */
	size_t rounds[2];	/* EXTREMES: the rounds of run 0 and of run r */
};



/*
 * Are run 0 and run r both runs on a busy machine (noise_run_busy()), not
 * sides of several runs? Then neither a floor nor their iterations (which
 * share one run's neighbours) say what the neighbours did between them.
 */
int judge_both_busy(const struct report *rp, const struct figure *fg, size_t r);

/* Judges fg between run r and run 0; 1 when it leads. */
int judge(const struct report *rp, const struct figure *fg, size_t r, struct judgement *j);

/*
 * The smallest factor (>= 1) j's comparison detects in 80 % of pairs
 * (docs/comparing.md): exp(max(t_{1-alpha/2m} sd, band + half) + t_0.8 sd)
 * for one run a side (between.h), alpha / m the level family.h's procedure
 * asks of it when it moves alone (m its probe's tested results times its
 * own result's tested statistics: any other figure moving with it only
 * lowers what it must reach, so the factor holds in every case), alpha the
 * comparison's per probe; exp(half + band) for the rest.
 */
double judge_detectable(const struct judgement *j);

/*
 * The level each probe's results are tested at (family.h): JUDGE_ALPHA
 * over the probes with a tested figure in the comparison of run r, so that
 * identical single runs lead with any row in at most JUDGE_ALPHA of pairs;
 * JUDGE_ALPHA where a side pools several runs (sides.h).
 */
double judge_alpha(const struct report *rp, size_t r);


#endif
