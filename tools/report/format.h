/* SPDX-License-Identifier: MIT */
/*
 * Output: one run as the human tables the appliance prints (format_run.h),
 * several runs as a side-by-side comparison (format_compare.h), and the
 * same model as CSV or JSON for programs (format_data.h); this file picks.
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
 * The report in the format o asks for: the human one (format_run.c,
 * format_compare.c), the data for programs (format_data.c), or an export.
 */
void print_report(FILE *f, const struct report *rp, const struct source *src, size_t nsrc,
		  const struct out_opts *o);

#endif
