/* SPDX-License-Identifier: MIT */
/*
 * The opening of a comparison (docs/comparing.md): what differs between the
 * machines, from their fingerprint records, then the figures whose ratio to
 * the first run is largest; the full tables follow (format.c).
 */
#ifndef TP_REPORT_LEAD_H
#define TP_REPORT_LEAD_H

#include <stdio.h>

#include "model.h"
#include "table.h"

#define LEAD_TOP_FIGURES 10
/* At most this many of them are attribution rates. */
#define LEAD_TOP_ATTRIBUTION 3
/* Attribution rates lead only when they differ by more standard errors than this. */
#define LEAD_POISSON_SE 3
/*
 * A figure without a spread to judge it by (a run that did not repeat, or
 * one whose iterations all agree: a figure fixed per boot) leads only when
 * its ratio is beyond this, either way. Iterations of one TCG boot
 * (tests/data/serial-pc-drift-repeat.log) already differ by a median of
 * 1.10x; docs/comparing.md says why 1.5.
 */
#define LEAD_MIN_RATIO 1.5
void print_lead(FILE *f, const struct report *rp, enum style style);

/*
 * How far a figure is from the first run: max |log(ratio)| over the runs
 * where both are positive and the difference is beyond noise: the ratio
 * is beyond its floor (noise_floor_of(), noise.h), and where both runs repeated
 * every iteration of one is beyond every iteration of the other, where
 * only one did the spreads (mean ± stddev) do not overlap. A figure that is 0 in one of the two runs is judged by
 * its absolute difference (a count by Poisson noise, others by their
 * spreads or their unit's floor) and ranks above every ratio. 0 when
 * nothing differs so, and for signed differences
 * (offsets, ppm). Attribution counts compare by rate per second of the
 * probe's run and by count, each beyond Poisson noise and the floor, by
 * the smaller ratio.
 */
double lead_figure_score(const struct report *rp, const struct figure *fg);


#endif
