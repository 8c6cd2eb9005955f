/* SPDX-License-Identifier: MIT */
/* The model for programs: CSV, one row per figure and run; JSON, all of it. */
#ifndef TP_REPORT_FORMAT_DATA_H
#define TP_REPORT_FORMAT_DATA_H

#include <stdio.h>

#include "format.h"
#include "model.h"

void print_csv(FILE *f, const struct report *rp);
void print_json(FILE *f, const struct report *rp, const struct source *src, size_t nsrc);

#endif
