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

/*
 * The size in ns of the time unit probe declares key in (ns, us, ms, s;
 * keys.h), or 0 for any other unit or none.
 */
double fmt_unit_ns(const char *probe, const char *key);

/* The same of a declaration found already (a figure's decl); NULL: 0. */
double fmt_decl_unit_ns(const struct key_decl *d);

/* v in a unit of unit_ns ns, scaled for a person: "35.05 µs", "2.4 ms"; unit_ns 0: fmt_num(). */
void fmt_value(char *buf, size_t n, double v, double unit_ns);

/*
 * The cell text for a figure: mean, and its relative stddev when runs were
 * repeated ("58.4 ±1.3 %"); in a time unit of unit_ns ns, scaled (fmt_value).
 */
void fmt_agg_in(char *buf, size_t n, const struct agg *a, double unit_ns);
/* The same without a unit. */
void fmt_agg(char *buf, size_t n, const struct agg *a);

/* A figure's cells from column c on: each run's value, and its ratio to the first. */
void fmt_figure_cells(struct table *t, size_t row, size_t c, const struct report *rp,
		      const struct figure *fg);

#endif
