/* SPDX-License-Identifier: MIT */
/*
 * Plots with gnuplot: for each chart a .dat file (tab-separated) and a .gp
 * script that draws it as SVG and PNG, so a chart can be redrawn or restyled
 * by hand. Without gnuplot the data and scripts are still written.
 */
#ifndef TP_REPORT_PLOT_H
#define TP_REPORT_PLOT_H

#include "model.h"

/* A chart: its files base.gp, base.dat, base.svg, base.png, and what it shows. */
struct chart {
	char *base;
	char *caption;	/* record text in it is as written: escape it where it goes */
};

struct charts {
	struct chart *v;
	size_t n, cap;
};

void charts_free(struct charts *c);

/*
 * Writes the plots of rp into dir (created if need be) and runs gnuplot on
 * them; the charts in *out when out is not NULL (charts_free them). Returns
 * 0, or -1 after saying why on stderr. A missing gnuplot is said but is not
 * an error.
 */
int plot_report(const struct report *rp, const char *dir, struct charts *out);

/*
 * The first half of plot_report: writes the .dat and .gp files, runs
 * nothing. Returns the number of charts (in *out, to charts_free), or -1
 * after saying why on stderr.
 */
int plot_write(const struct report *rp, const char *dir, struct charts *out);

/* dir and its parents made; 0 or -errno. */
int plot_mkdir(const char *dir);
/* Is gnuplot in PATH? */
int plot_have_gnuplot(void);
/* Runs gnuplot on script in dir and waits: its exit status, or -errno. */
int plot_gnuplot(const char *dir, const char *script);

#endif
