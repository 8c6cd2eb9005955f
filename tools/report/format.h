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
#include "table.h"

enum format {
	FMT_TEXT,
	FMT_MARKDOWN,
	FMT_CSV,
	FMT_JSON,
	FMT_KCIDB,	/* the exports for other tools' readers (export.h) */
	FMT_KTAP,
	FMT_JUNIT,
	FMT_PTS,
	FMT_OPENMETRICS,
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
	int full;		/* every column and row: no budget or context key left out, nothing cut */
	int all;		/* openmetrics: every declared key, not only headline figures */
};

/* Returns 0 and sets *f, or -1 for a name that is not a format. */
int format_from_name(const char *name, enum format *f);

/*
 * The tables after the lead: one run's own tables, or the runs, their skips
 * and the figures side by side (and with tables, each run's own).
 */
void print_tables(FILE *f, const struct report *rp, enum style style, const struct out_opts *o);

/* The lead (lead.h), between sides where --label pools runs (sides.h). */
void print_lead_sided(FILE *f, const struct report *rp, enum style style);
/*
 * Run ri's own tables: its header, a table per probe, its spread, skips
 * and end; the probes' budget and context keys only when full.
 */
void print_run(FILE *f, const struct report *rp, size_t ri, enum style style, int full);

void print_report(FILE *f, const struct report *rp, const struct source *src, size_t nsrc,
		  const struct out_opts *o);

#endif
