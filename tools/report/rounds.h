/* SPDX-License-Identifier: MIT */
/*
 * A figure's rounds (docs/records.md: a probe that splits its run into
 * rounds writes one result record per round, with "round", before the
 * run's own): the samples one run a side is compared by, and the
 * variance of a run's value within its run.
 */
#ifndef TP_REPORT_ROUNDS_H
#define TP_REPORT_ROUNDS_H

#include "model.h"

/* The values of fg's key over run r's rounds (every round record); how many; caller frees *out. */
size_t rounds_values(const struct report *rp, const struct figure *fg, size_t r, double **out);

/*
 * Each round's window in seconds, for the same rounds: the first budget key
 * its probe declares in ms or s that every round record has; 0 and *out
 * NULL when none (rounds then count as equal windows).
 */
size_t rounds_windows(const struct report *rp, const struct figure *fg, size_t r, double **out);

/*
 * The variance of log(value) of fg in run r within its run: from its
 * rounds (their log values' variance over their number) where it has two
 * or more, else from its own 95 % interval (KEY_ci95); NAN when neither.
 */
double rounds_log_within(const struct report *rp, const struct figure *fg, size_t r);

/* The standard error of log(fg) in run r from its own interval alone; 0: none. */
double rounds_own_se(const struct figure *fg, size_t r);

#endif
