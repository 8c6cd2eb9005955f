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

void print_lead(FILE *f, const struct report *rp, enum style style);

/* How far a figure is from the first run: max |log(ratio)| over the runs
 * where both are positive; 0 when nothing compares. */
double lead_figure_score(const struct report *rp, const struct figure *fg);

#endif
