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
 * A count from 0, or an attribution count, whose probe has no floor
 * measured in its env (noise.h) leads only beyond this ratio (0 read as one
 * event), either way: Poisson noise alone leaves out what a busier or
 * quieter neighbour changes. Iterations of one TCG boot
 * (tests/data/serial-pc-drift-repeat.log) already differ by a median of
 * 1.10x. Every other figure is judged by judge.h's rule.
 */
#define LEAD_MIN_RATIO 1.5
void print_lead(FILE *f, const struct report *rp, enum style style);

/* The indices of rp's figures that lead, best first (as the lead ranks them); caller frees *out. */
size_t lead_ranked(const struct report *rp, size_t **out);

/*
 * The lead in words, on the first screen (lead_words.c): each leading row
 * (at most LEAD_WORDS_ROWS) as a sentence of at most 120 columns, what
 * changed, by how much, in the figure's unit, beyond what between-run term,
 * with the settings that differ between the runs; then the error rates in
 * one line.
 */
#define LEAD_WORDS_ROWS 6
void lead_words_print(FILE *f, const struct report *rp, enum style style);

/*
 * How far a figure is from the first run: max |log(ratio)| over the runs
 * where it leads by judge() (judge.h: its ratio's interval excludes the
 * practical band). A figure that is 0 in one of the two runs is judged by
 * its absolute difference (a count by Poisson noise, others by their
 * spreads or their unit's floor) and ranks above every ratio. 0 when
 * nothing differs so, and for signed differences (offsets, ppm), and for
 * two runs both on a busy machine. Attribution counts compare by rate per
 * second of the probe's run and by count, each beyond Poisson noise and
 * the floor, by the smaller ratio.
 */
double lead_figure_score(const struct report *rp, const struct figure *fg);


#endif
