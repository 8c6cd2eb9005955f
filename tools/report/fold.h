/* SPDX-License-Identifier: MIT */
/*
 * Markdown that fits where it is pasted: an issue tracker takes 65 536
 * characters. A report longer than that keeps its prose and every table's
 * first rows, the longest tables cut to as many rows as fit and folded
 * in <details>; --full writes everything.
 */
#ifndef TP_REPORT_FOLD_H
#define TP_REPORT_FOLD_H

#include <stdio.h>

/* GitHub's limit for an issue's or a comment's body, in characters. */
#define FOLD_MD_MAX 65536

/* Writes the Markdown doc (len bytes) to f in at most limit bytes where cutting tables can. */
void fold_markdown(FILE *f, const char *doc, size_t len, size_t limit);

#endif
