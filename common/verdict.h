/* SPDX-License-Identifier: MIT */
/*
 * The verdict's words and the row that holds an item's bounds: one row per
 * figure people act on (TSC, clock read cost, wake-up latency, OS noise,
 * timer accuracy), with the bounds that make it good, fair or poor and
 * where they come from. Each row is declared by the probe that measures
 * the figure, beside its keys (struct probe_verdict, userland/probe.h);
 * the suite (userland/verdict.c) gives each figure its word with it and
 * ships word and figure in the `verdict` record; tp-report
 * (tools/report/verdict.c) shows the record with each row's bounds beside
 * it, from a copy of the rows its build writes from the declarations.
 * docs/verdict.md says where each bound comes from. Freestanding C (no
 * libc), tested by tests/unit/test_verdict.c.
 */
#ifndef TP_COMMON_VERDICT_H
#define TP_COMMON_VERDICT_H

#include <stddef.h>

/* The words, best last; "not measured" has no figure, "unknown" one that cannot be judged. */
enum verdict_word { VW_NOT_MEASURED, VW_UNKNOWN, VW_POOR, VW_FAIR, VW_GOOD };

struct verdict_limit {
	const char *id;		/* the item's key in the verdict record */
	const char *what;	/* what a person reads */
	const char *unit;	/* of the figure; NULL: a yes/no (1 good, 0 poor) */
	double good_max;	/* |figure| at most this: good */
	double fair_max;	/* at most this: fair; above: poor */
	const char *basis;	/* where the bounds come from, in a few words (docs/verdict.md) */
};

/* The word for figure v (a NaN: not measured). */
enum verdict_word verdict_word_of(const struct verdict_limit *l, double v);

/* "good", "fair", "poor", "unknown", "not measured". */
const char *verdict_word_name(enum verdict_word w);

#endif
