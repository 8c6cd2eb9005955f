/* SPDX-License-Identifier: MIT */
/*
 * The verdict at the end of a run: the few figures people act on, read
 * back from the records the probes wrote (recread.h), each with a word
 * against the thresholds of common/verdict.h; first, when the run was
 * emulated or virtual, that its figures are the emulator's. A figure the
 * run did not measure says so and why (the probe not selected, skipped,
 * failed, or without that figure), never a value. A block on the consoles
 * and one `verdict` record (docs/records.md, docs/verdict.md).
 */
#ifndef TP_VERDICT_H
#define TP_VERDICT_H

#include <stddef.h>

#include "../common/record.h"
#include "../common/verdict.h"
#include "summary.h"

#define VERDICT_ITEMS 16
#define VERDICT_TEXT 160

struct verdict_item {
	const struct verdict_limit *lim;
	int measured;
	double value;		/* NaN when not measured */
	enum verdict_word word;
	char from[VERDICT_TEXT];	/* the result it came from */
	char why[VERDICT_TEXT];		/* not measured or unknown: why */
	double p999_ns, n;		/* wake-up latency only (NaN otherwise) */
	int independent;		/* ppm against a reference: 1, 0; -1 not said */
};

struct verdict {
	char emulated[16];		/* "tcg", "hypervisor" or "" */
	char emulated_by[64];		/* the accelerator or the hypervisor's signature */
	struct verdict_item item[VERDICT_ITEMS];
	size_t n;			/* verdict_limit_count */
};

/* The verdict of the records recs[0..len) (TP1 lines) and the probes' outcomes rows. */
void verdict_gather(struct verdict *v, const char *recs, size_t len,
		    const struct summary_row *rows, size_t nrows);

/* Begins and fills the `verdict` record; the caller finishes it. */
void verdict_record(struct tp_rec *r, const struct verdict *v);

/* The verdict of the run so far (sink_saved()): its block and record through the sink. */
void verdict_emit(const struct summary_row *rows, size_t nrows);

/* For the verdict's unit test: every (probe, key) it reads, to check against the key tables. */
struct verdict_key {
	const char *probe;	/* NULL: the fingerprint record */
	const char *key;
};
extern const struct verdict_key verdict_keys[];
extern const size_t verdict_key_count;

#endif
