/* SPDX-License-Identifier: MIT */
/*
 * The comparison's own question (docs/comparing.md, "When a figure
 * leads"): what a clocksource change asks before any figure is seen.
 */
#ifndef TP_REPORT_PRIMARY_H
#define TP_REPORT_PRIMARY_H

#include "model.h"

/*
 * The figure a clocksource change asks about: reading the default clock
 * as booted (the figure a probe declares as its default_clock, show.h, in
 * its as-booted row); NULL when the report has none.
 */
const struct figure *primary_booted_clock(const struct report *rp);

/*
 * Is fg the comparison's own question between run 0 and run r, asked
 * before any figure was seen: the default clock's cost as booted, where
 * the two booted different clocksources? judge.c tests it alone, at
 * JUDGE_ALPHA, not as one of its probe's many (no Benjamini-Hochberg; a
 * floor's bound for one figure, noise.c), and where each side has
 * JUDGE_RANKS_MIN runs or more by ranks (ranks.h): an emulator's boots
 * have long tails.
 */
int primary_question(const struct report *rp, const struct figure *fg, size_t r);

#endif
