/* SPDX-License-Identifier: MIT */
/*
 * The lead's rule (docs/comparing.md, "When a figure leads"): a figure
 * leads when the 95 % interval of its ratio to the first run excludes a
 * practical band around 1. The interval comes from what was measured:
 * - both sides repeated (--repeat, or several runs a side): Welch's t on
 *   the logs of the iterations' (or runs') values, its p-value shown, and
 *   Benjamini-Hochberg's rule over all the figures tested so (the
 *   comparison's own question, primary_question(), primary.h, alone, by ranks where
 *   each side has enough runs);
 * - else each run's own interval (the figure's KEY_ci95, keys.h) and the
 *   between-run floor identical unloaded runs set for its result and key
 *   in their env (noise.h: the widest pair, or the bound all the figures
 *   compared at once stay within), not squared, combined in quadrature.
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
	JUDGE_INTERVALS,	/* single runs: own intervals and the floor */
	JUDGE_WELCH,		/* repeated: Welch's t on the means */
	JUDGE_RANKS,		/* the comparison's own question, repeated: Mann-Whitney */
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
};



/*
 * Are run 0 and run r both runs on a busy machine (noise_run_busy()), not
 * sides of several runs? Then neither a floor nor their iterations (which
 * share one run's neighbours) say what the neighbours did between them.
 */
int judge_both_busy(const struct report *rp, const struct figure *fg, size_t r);

/* Judges fg between run r and run 0; 1 when it leads. */
int judge(const struct report *rp, const struct figure *fg, size_t r, struct judgement *j);

/* The smallest ratio (>= 1) j's comparison could have detected: exp(half + band). */
double judge_detectable(const struct judgement *j);


#endif
