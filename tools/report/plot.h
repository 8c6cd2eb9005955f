/* SPDX-License-Identifier: MIT */
/*
 * Plots with gnuplot: for each chart a .dat file (tab-separated) and a .gp
 * script that draws it as SVG and PNG, so a chart can be redrawn or restyled
 * by hand. Without gnuplot the data and scripts are still written.
 */
#ifndef TP_REPORT_PLOT_H
#define TP_REPORT_PLOT_H

#include "model.h"

/*
 * Writes the plots of rp into dir (created if need be) and runs gnuplot on
 * them. Returns 0, or -1 after saying why on stderr. A missing gnuplot is
 * said but is not an error.
 */
int plot_report(const struct report *rp, const char *dir);

#endif
