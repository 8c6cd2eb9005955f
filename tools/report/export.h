/* SPDX-License-Identifier: MIT */
/*
 * Exports for other tools' readers (docs/exporting.md): KCIDB I/O JSON,
 * KTAP, JUnit XML and a Phoronix Test Suite composite.xml. Each format is
 * one file (export_*.c); this is the one walk over the model they share:
 * a run's probes in order, each with its status and its items (one per
 * headline figure, one per skip or error record), plus the escaping each
 * target language needs. A headline figure is a key its probe declares a
 * figure (keys.h, struct probe_key class PK_FIGURE): not a budget, not
 * context, and not a second list kept here.
 */
#ifndef TP_REPORT_EXPORT_H
#define TP_REPORT_EXPORT_H

#include <stdio.h>

#include "keys.h"
#include "model.h"
#include "util.h"

enum export_status {
	EXPORT_OK,	/* measured: at least one result, no error */
	EXPORT_SKIP,	/* only skip records: it could not measure here */
	EXPORT_FAIL,	/* an error record names it */
};

/* One item of a probe in one run: a headline figure, or a skip or error record. */
struct export_item {
	const struct figure *fg;	/* a figure; NULL for a note */
	const struct key_decl *decl;	/* its declaration (unit, direction) */
	const struct agg *a;		/* its value in this run (a->n > 0) */
	const json_t *note;		/* a skip or error record; NULL for a figure */
};

struct export_probe {
	const char *probe;
	enum export_status status;
	const char *reason;	/* the first error's (FAIL) or skip's (SKIP) reason */
	struct export_item *items;
	size_t n;
};

/*
 * The probes of run ri, in the order their figures or notes first appear,
 * each with its items (figures first, then notes). Free with
 * export_probes_free().
 */
size_t export_probes(const struct report *rp, size_t ri, struct export_probe **out);
void export_probes_free(struct export_probe *p, size_t n);

/*
 * A run's verdict items (the verdict record, docs/verdict.md), each as a
 * test CI can gate on: poor fails, good and fair pass, not measured and
 * unknown are skips. export_verdict.c.
 */
enum export_verdict_status { EXPORT_VERDICT_PASS, EXPORT_VERDICT_FAIL, EXPORT_VERDICT_SKIP };
struct export_verdict_item {
	const char *name;	/* the item's name in the record (tsc_offset_ns) */
	const char *word;	/* good, fair, poor, not measured, unknown */
	enum export_verdict_status status;
	char *detail;		/* "poor: 670.569 % (from)", "not measured: why" */
};
/* The items of run's verdict in the record's order; 0 (and NULL) without one. */
size_t export_verdict(const struct run *run, struct export_verdict_item **out);
void export_verdict_free(struct export_verdict_item *v, size_t n);

/*
 * A run's conditions and tsc=reliable answer, which every export carries
 * (export_facts.c): a CI job reading any of them can tell an emulator's
 * run from a machine's. Strings are the records'; NULL is "none" or
 * "no such record".
 */
struct export_facts {
	const char *emulator;		/* under QEMU's TCG: its accel ("tcg:max") */
	const char *hypervisor;		/* in a virtual machine: its signature ("KVMKVMKVM") or "yes" */
	double busy_pct;		/* other work on the run's CPUs, %; NAN without an end record */
	int busy;			/* busy_pct at CONDITIONS_BUSY_PCT or more */
	const char *tsc_reliable;	/* tsc_readiness's answer: safe, not safe, unknown */
};
void export_facts(const struct run *run, struct export_facts *f);
/* "emulator tcg:max; hypervisor none; other work 0 % of CPUs (not busy); tsc=reliable not safe" */
void export_facts_line(struct sbuf *b, const struct export_facts *f);

/* Is fg a headline figure (declared a figure by its probe)? Sets *decl when it is. */
int export_is_headline(const struct figure *fg, const struct key_decl **decl);

/* A run record's (or fingerprint's) string key; "" when absent or not a string. */
const char *export_str(const json_t *rec, const char *key);

/*
 * s as a name of [A-Za-z0-9_-] only: every other byte run becomes one '_',
 * none at either end; "unnamed" when nothing is left. Caller frees.
 */
char *export_word(const char *s);

/*
 * At a byte of s from 0x80 up: writes the well-formed UTF-8 sequence
 * there (Unicode 15, table 3-7), or U+FFFD for a byte that begins none.
 * Returns the sequence's last byte, for the caller's s++.
 */
const char *export_utf8_put(FILE *f, const char *s);

/*
 * s for XML text or a quoted attribute: & < > " ' escaped; C0 controls and
 * bytes that are no well-formed UTF-8 as U+FFFD, so the document is XML 1.0.
 */
void export_xml(FILE *f, const char *s);

/*
 * s for one line of KTAP: no '#' (KTAP's directive mark), no newline or
 * other control character (C0, DEL, C1), each replaced by '_'.
 */
void export_line_text(FILE *f, const char *s);

/* A number as the exports print it: %.12g, finite only (callers check). */
void export_num(FILE *f, double v);

/* The formats; each writes one document for the whole report. */
void export_kcidb(FILE *f, const struct report *rp);
void export_ktap(FILE *f, const struct report *rp);
void export_junit(FILE *f, const struct report *rp);
void export_pts(FILE *f, const struct report *rp);
/*
 * OpenMetrics text (export_openmetrics.c): the headline figures, or with
 * all every numeric figure; with stamped, each sample with its run's
 * start as timestamp (backfill), else none (node_exporter's textfile
 * collector refuses them). Returns 0, or 1 when a run was left out
 * (said on stderr).
 */
int export_openmetrics(FILE *f, const struct report *rp, int all, int stamped);
/*
 * The same without timestamps into path, for node_exporter's textfile
 * collector: written to a temporary file beside it and renamed. 0, or 1.
 */
int export_openmetrics_file(const char *path, const struct report *rp, int all);

#endif
