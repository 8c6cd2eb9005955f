/* SPDX-License-Identifier: MIT */
/*
 * `tp-report --history FILES|DIR [--machine=ID]` (docs/history.md): one
 * machine's runs over time. Runs are grouped by machine (the run record's
 * machine_id, else its machine), ordered by their start time, and each
 * headline figure's series is searched for change points by E-divisive
 * means (edivisive.h) on log values; a change is kept only where the
 * median after it differs from the median before by more than the figure's
 * between-run term (noise.h's noise_floor_of(), never less than the lead's
 * practical band, judge.h). A busy run (noise.h) is left out of every
 * series and said. At each change the fingerprint fields that differ
 * between the run before and the run after are named.
 *
 * Each file is read into a report of its own, its headline values kept and
 * the report freed: memory grows with runs x headline figures, never with
 * records. history.c reads and finds, history_print.c writes text and
 * JSON, history_html.c the page.
 */
#ifndef TP_REPORT_HISTORY_H
#define TP_REPORT_HISTORY_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <jansson.h>

/* The fingerprint fields named beside a change (history.c, hist_fields). */
#define HIST_NFIELDS 8

/* One headline value of a run. */
struct hist_val {
	uint32_t fig;
	float floor;		/* the ratio a change of it must exceed, >= 1 */
	double v;
};

struct hist_run {
	char *file;
	int seq;		/* 1-based run number within its file */
	char *machine;		/* machine_id, else machine, else "" */
	char *name;		/* the machine's name for people ("" when none) */
	char *start;		/* the run record's start time, "" when none */
	char *conditions;	/* conditions_brief(), "" when none */
	int busy;		/* noise_run_busy(): left out of the series */
	char *fp[HIST_NFIELDS];	/* the fingerprint fields, "" when unknown */
	struct hist_val *vals;
	size_t nvals;
};

struct hist_fig {
	char *probe, *result, *key;
	char *unit;		/* the declared unit; NULL: none */
	int dir;		/* enum key_dir */
	int is_count;		/* a count: 0 taken as 1 event for its log */
	char *env;		/* the env its floor was last looked up for (noise_env()) */
	float floor;		/* that floor (a lookup costs a walk of the table) */
};

/* One figure's change: at run position `at` of its machine. */
struct hist_change {
	size_t fig;
	size_t at;		/* index in the machine's ordered runs of the first run after */
	size_t before;		/* index of the last series run before it */
	double median_before, median_after, floor;
};

struct hist_machine {
	size_t *runs;		/* indexes into hist.runs, in time order */
	size_t nruns;
	struct hist_change *ch;	/* ordered by at, then by how far the ratio is from 1 */
	size_t nch;
};

struct history {
	struct hist_run *runs;
	size_t nruns, runcap;
	struct hist_fig *figs;
	size_t nfigs, figcap;
	json_t *fig_index;	/* figure id -> index in figs */
	struct hist_machine *machines;
	size_t nmachines;
	unsigned long long max_input;
	const char *only;	/* --machine: that machine's runs only; NULL: all */
	size_t files, unread;
};

/* The names of the fingerprint fields, for people. */
extern const char *const hist_field_names[HIST_NFIELDS];

/* Reads each path (a file, or a folder's regular files in name order). */
void hist_read(struct history *h, const char *const *paths, size_t n);

/* Groups the runs by machine, orders them and finds every change. */
void hist_find(struct history *h);

void hist_free(struct history *h);

/* The figure's name for people: "probe result: key". Caller frees. */
char *hist_fig_name(const struct hist_fig *f);

/* A run's value of figure fig, or NAN when it has none. */
double hist_value(const struct hist_run *r, size_t fig);

/* "dearer", "worse", "better", "higher", ... for a ratio above 1 or below. */
const char *hist_change_word(const struct hist_fig *f, double ratio);

/* The text (history_print.c): the answer first, newest first, then the series. */
void hist_print(FILE *f, const struct history *h);

/* The changes for programs: one JSON document (history_print.c). */
void hist_print_json(FILE *f, const struct history *h);

/* DIR/index.html: a plot per changed figure, changes marked (history_html.c). 0, or 1. */
int hist_html(const struct history *h, const char *dir);

#endif
