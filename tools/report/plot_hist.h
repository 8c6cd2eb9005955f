/* SPDX-License-Identifier: MIT */
/*
 * Latency histograms (wakeup's, and any result with a "hist"): one chart
 * per result, one series per run, every non-empty bucket drawn on a log
 * count axis whose floor lies below 1, p50/p99/p99.9/max marked.
 */
#ifndef TP_REPORT_PLOT_HIST_H
#define TP_REPORT_PLOT_HIST_H

#include "plotter.h"

void plot_hists(struct plotter *p);

#endif
