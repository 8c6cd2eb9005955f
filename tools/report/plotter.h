/* SPDX-License-Identifier: MIT */
/*
 * What every chart of tp-report's plots (plot.c, plot_hist.c, plot_bars.c)
 * writes through: its files in the plot directory, the one quoting of text
 * into a gnuplot script or a .dat file, the script's opening and closing,
 * and the list of charts with their captions. Runs no gnuplot.
 */
#ifndef TP_REPORT_PLOTTER_H
#define TP_REPORT_PLOTTER_H

#include <stdio.h>

#include "model.h"
#include "plot.h"
#include "util.h"

#define PLOT_W 1000
#define PLOT_H 600

struct plotter {
	const struct report *rp;
	const char *dir;
	struct charts *charts;	/* every chart written, with its caption */
	int failed;
};

/* A file in the plot directory, for writing; NULL after saying why (p->failed set). */
FILE *plot_open(struct plotter *p, const char *name);
/*
 * Closes it and puts it at its name (outfile.h); 0, or -1 after saying why
 * (p->failed set).
 */
int plot_close(struct plotter *p, FILE *f);

/* s as a single-quoted gnuplot string: the one way text gets into a script. */
void gp_quote(struct sbuf *b, const char *s);
void gp_str(FILE *f, const char *s);
/* At most n bytes of s as a text field of a .dat file: control characters become spaces. */
void dat_str(FILE *f, const char *s, size_t n);
/* A chart's file name: "KIND-NN-" and only [A-Za-z0-9_-] of text. */
char *plot_name(const char *kind, size_t n, const char *text);

/*
 * Opens a script drawing base.svg (then base.png): title and axis labels,
 * each quoted; h is the height in pixels (0: PLOT_H). The plot command follows.
 */
void gp_begin(FILE *f, const char *base, const char *title, const char *xlabel,
	      const char *ylabel, int h);
/*
 * Ends it: the PNG, by "replot", or where body is not NULL (a multiplot,
 * which replot cannot redraw) by body again; lists the chart with its
 * caption, a sentence for a person.
 */
void gp_end(struct plotter *p, FILE *f, const char *base, const char *caption, int h,
	    const char *body);

/* "WHAT, run A" or "WHAT, 3 runs (see the key)": a title that says which runs (to free). */
char *plot_title(const struct report *rp, const char *what);

/* A result's figure combined over its iterations (NAN: none, or contradicting intervals). */
double rec_num(const struct result *r, const char *key);

#endif
