/* SPDX-License-Identifier: MIT */
/*
 * Output: one run as the human tables the appliance prints, several runs as
 * a side-by-side comparison, and the same model as CSV or JSON for programs.
 */
#ifndef TP_REPORT_FORMAT_H
#define TP_REPORT_FORMAT_H

#include <stdio.h>

#include "model.h"
#include "scan.h"

enum format {
	FMT_TEXT,
	FMT_MARKDOWN,
	FMT_CSV,
	FMT_JSON,
};

/* One input file and what scanning it found. */
struct source {
	const char *path;
	struct scan_stats st;
	int err;		/* -errno if it could not be read */
};

struct out_opts {
	enum format format;
	int tables;		/* with several runs, each run's tables too */
};

/* Returns 0 and sets *f, or -1 for a name that is not a format. */
int format_from_name(const char *name, enum format *f);

void print_report(FILE *f, const struct report *rp, const struct source *src, size_t nsrc,
		  const struct out_opts *o);

/* The cell text for a figure: mean, and its stddev when runs were repeated. */
void fmt_agg(char *buf, size_t n, const struct agg *a);

/* A figure's cells from column c on: each run's value, and its ratio to the first. */
struct table;
void fmt_figure_cells(struct table *t, size_t row, size_t c, const struct report *rp,
		      const struct figure *fg);

/* A heading, and a record's scalar value, as every part of the report writes them. */
#include "table.h"
#include "util.h"
void fmt_heading(FILE *f, enum style style, int level, const char *text);
void fmt_scalar(struct sbuf *b, const json_t *v);

#endif
