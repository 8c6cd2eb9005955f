/* SPDX-License-Identifier: MIT */
/*
 * The lead's note, before its table: how figures were judged (judge.h),
 * the smallest ratio each probe's comparison could have detected here,
 * and the figures that could not be compared: declared unstable (bimodal
 * or quantized), or from single runs with neither an interval nor a
 * usable floor.
 */
#ifndef TP_REPORT_POWER_H
#define TP_REPORT_POWER_H

#include <stdio.h>

#include "model.h"
#include "table.h"

/* At most this many figures are named per probe in a list of the note. */
#define POWER_NAMES_MAX 6

void lead_print_note(FILE *f, const struct report *rp, enum style style);

/*
 * The smallest ratio probe's figures could have shown between run 0 and
 * run r (the least detectable ratio over them), 0 when none was judged;
 * *median (when not NULL): the median over them, *n how many.
 */
double power_detectable(const struct report *rp, const char *probe, size_t r, double *median,
			size_t *n);

#endif
