// SPDX-License-Identifier: MIT
/*
 * A run's label in the report (labels.c): its env and machine, and where
 * runs would share one, the first of machine detail, clocksource, CPU
 * model, kernel, variant and file name that tells them apart, then #n.
 */
#ifndef TP_REPORT_LABELS_H
#define TP_REPORT_LABELS_H

#include "model.h"

/* Run r's label as its records make it (the caller frees it). */
char *run_default_label(const struct run *r);
/* Makes rp's labels unique: the first part that tells equal ones apart, then #n. */
void runs_dedupe_labels(struct report *rp);

#endif
