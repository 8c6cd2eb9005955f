/* SPDX-License-Identifier: MIT */
/*
 * Horizontal bar charts, as a probe declares them (common/show.h, struct
 * show_bars): a row per result grouped by name, only rows every run
 * measured, the runs' bars side by side (clock read cost); or a panel per
 * value of a key (itimer accuracy, one per requested interval).
 */
#ifndef TP_REPORT_PLOT_BARS_H
#define TP_REPORT_PLOT_BARS_H

#include "plotter.h"
#include "show.h"

/* probe's chart as sb declares it; nothing when no result has a bar. */
void plot_bars(struct plotter *p, const char *probe, const struct show_bars *sb);

#endif
