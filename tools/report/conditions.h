/* SPDX-License-Identifier: MIT */
/*
 * What bears on every figure of a run, said before any figure: records lost
 * between the suite and the log, no end record, other work on the run's
 * CPUs (the end record's other_busy_pct, userland/busy.c), a run under
 * QEMU's TCG emulator. `tp-report --strict` exits 3 when there is any.
 */
#ifndef TP_REPORT_CONDITIONS_H
#define TP_REPORT_CONDITIONS_H

#include <stdio.h>

#include "model.h"
#include "table.h"
#include "util.h"

/* Busier than this, in % of all CPUs, a run's figures carry other work's noise. */
#define CONDITIONS_BUSY_PCT 10.0

/* Appends one line per condition of run to b; returns how many. */
size_t conditions_of(const struct run *run, struct sbuf *b);

/* A "Conditions" section naming each run's, or nothing when there are none;
 * returns how many conditions there were in all. */
size_t conditions_print(FILE *f, const struct report *rp, enum style style);

/*
 * The conditions of run in a few words, for beside a figure it touches
 * ("hogs: other work 83 % of CPUs; TCG"), into b; returns how many.
 */
size_t conditions_brief(const struct run *run, struct sbuf *b);

/* How many conditions the runs have, for --strict. */
size_t conditions_count(const struct report *rp);

#endif
