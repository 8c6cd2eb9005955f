/* SPDX-License-Identifier: MIT */
/*
 * The cells and headings every part of tp-report's human output writes the
 * same way: a record's scalar value, a figure's aggregate over iterations,
 * a figure's row of per-run values and ratios, a section heading. The
 * layout (format.c) and the lead (lead.c), line-up and conditions call
 * these; this file calls none of them.
 */
#ifndef TP_REPORT_CELLS_H
#define TP_REPORT_CELLS_H

#include <stdio.h>

#include "model.h"
#include "table.h"
#include "util.h"

/* Room for one number as fmt_num() prints it. */
#define NUM_MAX 64

/* A record's scalar value as text; "-" for a missing key, null, an object or an array. */
void fmt_scalar(struct sbuf *b, const json_t *v);

/* A section heading of level 1 (a run, the comparison), 2 or 3. */
void fmt_heading(FILE *f, enum style style, int level, const char *text);

/* The cell text for a figure: mean, and its stddev when runs were repeated. */
void fmt_agg(char *buf, size_t n, const struct agg *a);

/* A figure's cells from column c on: each run's value, and its ratio to the first. */
void fmt_figure_cells(struct table *t, size_t row, size_t c, const struct report *rp,
		      const struct figure *fg);

#endif
