/* SPDX-License-Identifier: MIT */
/*
 * The verdict at the end of a run: the few figures people act on, read
 * back from the records the probes wrote (recread.h), each with a word
 * against its bounds (common/verdict.h). Each item is a declaration of the
 * probe that measures it (struct probe_verdict, probe.h: which figure of
 * which record, its bounds and their source); the verdict reads every
 * probe's declarations and knows no probe of its own. First, when the run was
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
#include "probe.h"
#include "summary.h"
#include "../common/recdecl.h"

#define VERDICT_ITEMS 16
#define VERDICT_TEXT 160

struct verdict_item {
	const struct verdict_limit *lim;	/* &d->lim */
	const struct probe_verdict *d;		/* its declaration */
	const char *probe;			/* the probe that declares it */
	int measured;
	double value;		/* NaN when not measured */
	enum verdict_word word;
	char from[VERDICT_TEXT];	/* the result it came from */
	char why[VERDICT_TEXT];		/* not measured or unknown: why */
	double p999_ns, n;		/* a worst case's p99.9 and n (NaN otherwise) */
	int independent;		/* ppm against a reference: 1, 0; -1 not said */
};

#define VERDICT_EMU_KIND 16
#define VERDICT_EMU_BY 64

struct verdict {
	char emulated[VERDICT_EMU_KIND];	/* "tcg", "hypervisor" or "" */
	char emulated_by[VERDICT_EMU_BY];	/* the accelerator or the hypervisor's signature */
	struct verdict_item item[VERDICT_ITEMS];
	size_t n;			/* the declared items, at most VERDICT_ITEMS */
};

/* An item's declaration and the probe that makes it. */
struct verdict_decl {
	const struct probe *probe;
	const struct probe_verdict *d;
};

/*
 * The items the measuring probes of probes[0..nprobes) declare, in the
 * verdict's order (their place): how many, or -1 when they are more than max.
 */
int verdict_decls(const struct probe *const *probes, size_t nprobes, struct verdict_decl *out,
		  size_t max);

/* The verdict of probes' items from the records recs[0..len) (TP1 lines) and the probes'
 * outcomes rows. */
void verdict_gather(struct verdict *v, const struct probe *const *probes, size_t nprobes,
		    const char *recs, size_t len, const struct summary_row *rows, size_t nrows);

/*
 * Record r's word on emulation into kind[VERDICT_EMU_KIND] and
 * by[VERDICT_EMU_BY]: a `run` record's tcg accel sets "tcg"; a
 * `fingerprint` record's hypervisor signature sets "tcg" or "hypervisor"
 * when kind is still "". The verdict and tsc_readiness read it alike.
 */
struct rec_view;
void verdict_emulation(const struct rec_view *r, char *kind, char *by);

/* The keys `emulated` (kind, or null when "") and `emulated_by` into r: the verdict's and
 * tsc_readiness's. */
void verdict_rec_emulation(struct tp_rec *r, const char *kind, const char *by);

/* Begins and fills the `verdict` record; the caller finishes it. */
void verdict_record(struct tp_rec *r, const struct verdict *v);

/* The verdict of the run so far (sink_saved()): its block and record through the sink. */
void verdict_emit(const struct summary_row *rows, size_t nrows);

/* What each key of its records is (common/recdecl.h): rows of docs/records.md. */
extern const struct tp_rec_key verdict_rec_keys[];

#endif
