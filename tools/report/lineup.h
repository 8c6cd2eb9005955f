/* SPDX-License-Identifier: MIT */
/*
 * How many of each probe's figures line up (have a value in every run of a
 * comparison), how many of its as-booted rows do (have a figure in every
 * run: a row is a result, model.h), and why a probe's mostly do not: the identity key whose
 * values differ between the runs. A "Line-up" section before the lead names
 * each probe with less than half of its figures lined up.
 */
#ifndef TP_REPORT_LINEUP_H
#define TP_REPORT_LINEUP_H

#include <stdio.h>

#include "model.h"
#include "table.h"
#include "util.h"

struct lineup {
	size_t lined, total;		/* the probe's own figures */
	size_t booted_lined, booted_total;	/* its as-booted rows (model.h): results, not figures */
};

/*
 * The line-up of the probe whose figures start at rp->figs[first] (figures
 * are sorted by probe); returns the index of the next probe's first figure.
 */
size_t lineup_of(const struct report *rp, size_t first, struct lineup *lu);

/* "N of M figures line up". */
void lineup_say(struct sbuf *b, const struct lineup *lu);
/* "; as booted: N of M rows" when the probe has as-booted rows, else nothing. */
void lineup_say_booted(struct sbuf *b, const struct lineup *lu);

/* Each run's booted clocksource, "host kvm-clock, appliance hpet". */
void lineup_booted(struct sbuf *b, const struct report *rp);

/* The "Line-up" section, or nothing when every probe lines up half or more;
 * returns how many probes it named. */
size_t lineup_print(FILE *f, const struct report *rp, enum style style);

#endif
