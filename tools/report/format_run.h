/* SPDX-License-Identifier: MIT */
/* One run's tables, as the appliance prints them. */
#ifndef TP_REPORT_FORMAT_RUN_H
#define TP_REPORT_FORMAT_RUN_H

#include <stdio.h>

#include "model.h"
#include "table.h"
#include "util.h"

/*
 * Run ri's own tables: its header, a table per probe, its spread, skips
 * and end; the probes' budget and context keys only when full.
 */
void print_run(FILE *f, const struct report *rp, size_t ri, enum style style, int full);

/* rec's string key, or "" when it has none. */
const char *rec_str(const json_t *rec, const char *key);

/*
 * Skips and errors of runs first .. first + count - 1, each with its reason,
 * a repeated one once, counted.
 */
void print_notes(FILE *f, const struct report *rp, size_t first, size_t count, enum style style);

/* How run ended, into b: its probes ok, skipped and failed, the records written and read. */
void end_summary(struct sbuf *b, const struct run *run);

#endif
