/* SPDX-License-Identifier: MIT */
/* Several runs side by side: the lead, then the figures' tables. */
#ifndef TP_REPORT_FORMAT_COMPARE_H
#define TP_REPORT_FORMAT_COMPARE_H

#include <stdio.h>

#include "format.h"
#include "model.h"
#include "table.h"

/*
 * The tables after the lead: one run's own tables, or the runs, their skips
 * and the figures side by side (and with tables, each run's own).
 */
void print_tables(FILE *f, const struct report *rp, enum style style, const struct out_opts *o);

/* The lead (lead.h), between sides where --label pools runs (sides.h). */
/* The lead in words on the first screen, between sides or runs (lead.h). */
void print_words_sided(FILE *f, const struct report *rp, enum style style);

void print_lead_sided(FILE *f, const struct report *rp, enum style style);

#endif
