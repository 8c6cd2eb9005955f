/* SPDX-License-Identifier: MIT */
/*
 * The identity schema: for each record type and probe, which keys say what
 * was measured (identity), which are the measurements (figures), which are
 * how much was measured (budgets: shown and compared, never leading), which
 * say under what circumstances (context), and which frame the record
 * (type, iteration). `report` lines results up across runs by their
 * identity keys only, so a reading that changes from run to run (the
 * clock's last value, the CPU a process happened to run on) never splits
 * one result into two. A probe's result keys are its own declaration
 * (keys.h); this file holds the rows of the records no probe declares.
 * docs/records.md carries the whole table (tp-report --schema prints it)
 * and tests/report/schema.t checks that every key the probes emit is in it.
 */
#ifndef TP_REPORT_SCHEMA_H
#define TP_REPORT_SCHEMA_H

#include <stdio.h>
#include <jansson.h>

enum key_class {
	KEY_UNKNOWN,	/* not in the schema: from a newer suite */
	KEY_FRAME,	/* type, iteration: where the record sits, not what it says */
	KEY_ID,		/* part of what was measured: equal in two runs that compare */
	KEY_FIGURE,	/* a number that was measured: compared and averaged */
	KEY_CONTEXT,	/* circumstances and findings that are not compared */
	KEY_BUDGET,	/* how much was measured (a window, round trips): a figure that never leads */
};

/* 1 for the classes report treats as numbers to compare: figures and budgets. */
int schema_is_figure(enum key_class c);

/*
 * How the iterations of --repeat combine into one value of a figure. Most
 * figures are samples of one quantity: their mean, with the spread. An
 * interval proven by each iteration (a TSC offset: centre ± half-width,
 * from round trips) is true in every one of them, so together they prove
 * the intersection, the tightest; intervals that do not intersect
 * contradict each other, which the report shows as such.
 */
enum combine {
	COMBINE_MEAN,
	COMBINE_CENTRE,		/* the centre of a proven interval */
	COMBINE_HALF_WIDTH,	/* its half-width */
};

/* 1 when PROBE's KEY is a signed difference (declared nearer zero is better): no ratio, never ranked. */
int schema_signed(const char *probe, const char *key);

/*
 * The schema's rule for figure key; for an interval, sets other (of n
 * bytes) to the key of its other half (offset_ns: bound_ns).
 */
enum combine schema_combine(const char *type, const char *probe, const char *key, char *other,
			    size_t n);

/* The schema's class of key in a record of this type (and probe, or NULL). */
enum key_class schema_lookup(const char *type, const char *probe, const char *key);

/*
 * The class report uses for key in rec: the schema's, else by value (a
 * number is a figure, anything else context), and a figure only when the
 * value is a number (granularity_ns may be null).
 */
enum key_class rec_key_class(const json_t *rec, const char *key, const json_t *val);

const char *key_class_name(enum key_class c);

/* The schema as the Markdown table in docs/records.md. */
void schema_print_markdown(FILE *f);

/*
 * Adds to unknown (an object "type/probe/key" -> count) every top-level key
 * of rec that the schema does not classify.
 */
void schema_unknown_keys(const json_t *rec, json_t *unknown);

/* Frees the lookup cache (for leak checkers; lookups rebuild it). */
void schema_cache_free(void);

#endif
