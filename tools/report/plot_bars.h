/* SPDX-License-Identifier: MIT */
/*
 * Horizontal bar charts: clock read cost (one row per clock and path,
 * grouped by clock, only rows every run measured, the runs' bars side by
 * side) and itimer accuracy (one panel per requested interval).
 */
#ifndef TP_REPORT_PLOT_BARS_H
#define TP_REPORT_PLOT_BARS_H

#include "plotter.h"

void plot_clocks(struct plotter *p);
void plot_itimer(struct plotter *p);

#endif
