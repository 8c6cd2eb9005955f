/* SPDX-License-Identifier: MIT */
/*
 * The model of what was measured: records grouped into runs (one per boot or
 * host run), results grouped by identity across iterations, and figures
 * (result identity x numeric key) lined up across runs for comparison.
 */
#ifndef TP_REPORT_MODEL_H
#define TP_REPORT_MODEL_H

#include <stddef.h>
#include <jansson.h>

#include "result.h"
#include "keys.h"
#include "scan.h"
#include "schema.h"

/*
 * The probe name attribution records are filed under (model.c): one result
 * per probe they were measured around, named after it.
 */
#define ATTRIBUTION "attribution"

struct run {
	char *file;
	int seq;		/* 1-based run number within its file */
	char *label;
	char *side;		/* the label --label gave it, before labels were made unique; NULL: none */
	size_t members;		/* a side's runs (sides.h); 0: a run of its own */
	json_t *head;		/* the run record; NULL if the capture began after it */
	json_t *end;		/* the end record; NULL if the run did not finish */
	json_t *fingerprint;	/* the fingerprint record; NULL before they existed */
	json_t *verdict;	/* the verdict record; NULL before they existed or with no end */
	json_t *readiness;	/* the tsc_readiness record; NULL before they existed */
	json_t *boot;		/* stub, calib and calib_summary records */
	json_t *notes;		/* skip and error records */
	struct result *res;
	size_t nres, cap;
	json_t *res_index;	/* result id -> index in res */
	struct result *rounds;	/* its results' rounds (records with "round"), one result each */
	size_t nrounds, rounds_cap;
	json_t *rounds_index;	/* result id -> index in rounds */
	json_t *attr_rounds;	/* "for_probe\x1fiteration" -> its rounds' attribution summed */
	int iterations;		/* highest "iteration", 0 if none */
	size_t nrecs;		/* records read for this run */
	size_t nsuite;		/* of those, the suite's before its end record (what end counts) */
};

/* A run's own 95 % interval of a figure (keys.h, KEYS_CI_SUFFIX). */
struct fig_ci {
	double lo, hi;
	size_t n;		/* samples behind it; 0: the run gives none */
};

struct figure {
	const struct key_decl *decl;	/* its probe's declaration of key, found once; NULL: none */
	enum key_class cls;	/* decl's class, else its record type's row (calib, attribution) */
	const char *what;	/* its probe's one line for key (keys_what()); NULL: none */
	enum key_kind kind;	/* what kind of number it is (keys_kind()) */
	enum key_ci uncert;	/* how sure a run is of it (keys_ci()) */
	const char *id;		/* the result's id */
	const char *probe;
	const char *name;
	const char *ident;
	const char *key;	/* the numeric key, units in its name */
	int as_booted;		/* of a result keyed with clocksource AS_BOOTED (result.h) */
	/* sorted by probe, then result, then key, each in the order first seen */
	size_t probe_rank, result_rank, seq;
	struct agg *per_run;	/* one per run */
	struct fig_ci *ci;	/* one per run: the interval its record carries (one iteration) */
	double **values;	/* sides only (sides.h): per side, its runs' values (per_run's n); else NULL */
};

struct report {
	unsigned id;		/* new for every finished report (report_new_id()): caches key on it */
	int booted_always;	/* as-booted rows even where every run booted one clocksource */
	struct run *runs;
	size_t nruns, cap;
	struct figure *figs;
	size_t nfigs, figcap;
};

/*
 * Splits one file's records into runs at each run record; stub and calib
 * records of a boot that precede its run record go to that run. The
 * records come one at a time, in the order read: report_file_begin(), then
 * report_add_record() for each (it takes references to what it keeps; the
 * caller may drop its own), then report_file_end().
 */
struct splitter;
struct splitter *report_file_begin(struct report *rp, const char *file);
void report_add_record(struct splitter *s, json_t *rec, const char *type);
void report_file_end(struct splitter *s);

/*
 * How report_read_file() reads. max_input: bytes of the file read at
 * most. keys_only: each record's keys declaration is noted, nothing goes
 * into a report (--check-keys, --datasheet; rp may be NULL). seen, when
 * set, sees each record after that (a keys record's variant, the schema's
 * unknown keys, the datasheet's figures, the heap), and may set st->full:
 * the records after it are dropped, and reading stops at the next chunk.
 */
struct read_opts {
	unsigned long long max_input;
	int keys_only;
	void (*seen)(void *ctx, const json_t *rec, const char *type, struct scan_stats *st);
	void *ctx;
};

/*
 * The one reader of a results file: report_file_begin(), every record as
 * it is scanned (its keys record noted first, so that its declaration
 * classifies the results after it; keys_note_record()), report_file_end().
 * report_finish() then resolves the records into figures, each with its
 * declaration found once (struct figure's decl). scan_file()'s result; *st
 * its counts.
 */
int report_read_file(struct report *rp, const char *path, const struct read_opts *o,
		     struct scan_stats *st);

/* The same for a log held in memory (the fuzz target's), named name. */
void report_read_buffer(struct report *rp, const char *name, const char *buf, size_t len,
			const struct read_opts *o, struct scan_stats *st);

/* The same for a list of records read already. */
void report_add_file(struct report *rp, const char *file, const struct rec_list *recs);

/*
 * Labels the runs (labels[i] if given, else from the run record) and lines up
 * figures. When the runs booted with different clocksources, each result read
 * through its run's booted one gives its figures a second time, keyed with
 * clocksource AS_BOOTED (result.h), so the default clock's cost lines up.
 */
void report_finish(struct report *rp, char *const *labels, size_t nlabels);

void report_free(struct report *rp);

/* An id no report of this process had before (1, 2, ...). */
unsigned report_new_id(void);

/* The clocksource r booted with, from its run record; NULL if unknown. */
const char *run_booted_clocksource(const struct run *r);

/* Index of the result with this id (or as-booted id) in run, or -1. */
long run_find_result(const struct run *run, const char *id);

#endif
