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

/* What probe's figures with an interval could show between run 0 and run r. */
struct power {
	double least;	/* the smallest detectable ratio over them (its steadiest figure) */
	double median;
	size_t n;	/* how many; 0: none was judged */
	const struct figure *steadiest;
};

/* *pw for probe between run 0 and run r; returns pw->least (0 when none). */
double power_detectable(const struct report *rp, const char *probe, size_t r, struct power *pw);

#endif
