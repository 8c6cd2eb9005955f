/* SPDX-License-Identifier: MIT */
/*
 * `tp-report --fail-on=poor|fair|unsafe` (docs/exporting.md, "CI gates"):
 * whether any run reached the level, with each item that did on stderr.
 * poor: a verdict item poor; fair: one fair or poor; unsafe: the
 * tsc_readiness answer `not safe`. Several levels, comma-separated, add
 * up. An item the exports skip (tsc_invariant under an emulator,
 * export_verdict()) is not poor here either: one answer for CI.
 */
#ifndef TP_REPORT_GATE_H
#define TP_REPORT_GATE_H

#include <stdio.h>

#include "model.h"

/* tp-report's exit status when a run reached --fail-on's level. */
#define GATE_EXIT 4

enum gate_level {
	GATE_POOR = 1 << 0,
	GATE_FAIR = 1 << 1,
	GATE_UNSAFE = 1 << 2,
};

/* "poor", "fair,unsafe" into *levels (GATE_* bits); 0, or -1 for another word. */
int gate_parse(const char *arg, unsigned *levels);

/* Names each item of rp's runs at levels on err, one a line; returns how many. */
size_t gate_check(FILE *err, const struct report *rp, unsigned levels);

#endif
