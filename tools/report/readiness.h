/* SPDX-License-Identifier: MIT */
/*
 * The `tsc=reliable` answer at the top of the "Verdict" section: each
 * run's `tsc_readiness` record (userland/readiness.c) as the suite wrote
 * it: the answer, the kernel words, the reference the vote named, and
 * the reasons that failed or could not be measured. Nothing is computed
 * here; a run without the record says nothing (docs/readiness.md).
 */
#ifndef TP_REPORT_READINESS_H
#define TP_REPORT_READINESS_H

#include <stdio.h>

#include "model.h"
#include "table.h"

void readiness_print(FILE *f, const struct report *rp, enum style style);

#endif
