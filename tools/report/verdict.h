/* SPDX-License-Identifier: MIT */
/*
 * The "Verdict" section, right after the conditions: each run's `verdict`
 * record (userland/verdict.c) as the suite wrote it, figure and word, with
 * each item's bounds beside its figure (as its probe declares them, from
 * tp-report's built-in copy, keys.h); first, a run that was
 * emulated or virtual. A run without the record (an older capture, a run
 * that did not finish) says "no verdict record": nothing is computed here.
 */
#ifndef TP_REPORT_VERDICT_H
#define TP_REPORT_VERDICT_H

#include <stdio.h>

#include "model.h"
#include "table.h"

/* The section, for every run of rp. */
void verdict_print(FILE *f, const struct report *rp, enum style style);

#endif
