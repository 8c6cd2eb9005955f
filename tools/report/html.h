/* SPDX-License-Identifier: MIT */
/*
 * tp-report --html=DIR: one page, DIR/index.html, that a browser shows
 * without anything else: the conditions, the line-up, the lead (what
 * differs), every plot with its caption, then the tables; the images
 * embedded as data: URIs (their files stay in DIR beside the page).
 * Every text is escaped.
 */
#ifndef TP_REPORT_HTML_H
#define TP_REPORT_HTML_H

#include "format.h"
#include "model.h"

/*
 * Draws the plots into dir and writes dir/index.html, every column of the
 * runs' tables when full. Returns 0, or -1 after saying why.
 */
int html_report(const struct report *rp, const struct source *src, size_t nsrc, const char *dir,
		int full);

#endif
