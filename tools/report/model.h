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

#include "scan.h"
#include "schema.h"

/*
 * One figure over the iterations of a run: their mean and spread or, for a
 * proven interval (schema.h, enum combine), the intersection of the
 * iterations' intervals.
 */
struct agg {
	size_t n;		/* 0: the run lacks this figure */
	double mean;		/* the combined value: mean, or the intersection's */
	double min, max;	/* over the iterations */
	double stddev;		/* sample (n - 1); 0 when n < 2 */
	enum combine combine;
	int disjoint;		/* intervals that do not intersect: mean is NAN */
};

void agg_of(const double *v, size_t n, struct agg *a);

/* How a was combined, for programs: "mean", "intersection" or "disjoint". */
const char *agg_combine_name(const struct agg *a);

/* Has a a spread of repeated samples (a mean of two or more)? */
int agg_has_spread(const struct agg *a);

/*
 * The probe name attribution records are filed under (model.c): one result
 * per probe they were measured around, named after it.
 */
#define ATTRIBUTION "attribution"

/* One result name of one run, every iteration of it. */
struct result {
	char *id;		/* probe, name, identifying keys: equal across runs */
	const char *probe;	/* inside the first record */
	const char *name;
	char *ident;		/* identifying keys not already in the name, "k=v ..." */
	json_t *recs;		/* array of the records, in order */
};

struct run {
	char *file;
	int seq;		/* 1-based run number within its file */
	char *label;
	json_t *head;		/* the run record; NULL if the capture began after it */
	json_t *end;		/* the end record; NULL if the run did not finish */
	json_t *fingerprint;	/* the fingerprint record; NULL before they existed */
	json_t *boot;		/* stub, calib and calib_summary records */
	json_t *notes;		/* skip and error records */
	struct result *res;
	size_t nres, cap;
	json_t *res_index;	/* result id -> index in res */
	int iterations;		/* highest "iteration", 0 if none */
	size_t nrecs;		/* records read for this run */
	size_t nsuite;		/* of those, the suite's before its end record (what end counts) */
};

struct figure {
	const char *id;		/* the result's id */
	const char *probe;
	const char *name;
	const char *ident;
	const char *key;	/* the numeric key, units in its name */
	size_t order;		/* for sorting: probe, then result, then key */
	struct agg *per_run;	/* one per run */
};

struct report {
	struct run *runs;
	size_t nruns, cap;
	struct figure *figs;
	size_t nfigs, figcap;
};

/*
 * Is this key of rec part of its result's identity (a parameter such as
 * "path", "timer", "load", "threads"), or a figure? The identity schema
 * (schema.h) says which; probe and name are the id's first parts anyway.
 */
int key_is_ident(const json_t *rec, const char *key, const json_t *val);
int key_is_figure(const json_t *rec, const char *key, const json_t *val);

/* Builds a result's id and the "k=v" list of identifying keys. */
char *result_id(const json_t *rec, char **ident);

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

/* The same for a list of records read already. */
void report_add_file(struct report *rp, const char *file, const struct rec_list *recs);

/* Labels the runs (labels[i] if given, else from the run record) and lines up figures. */
void report_finish(struct report *rp, char *const *labels, size_t nlabels);

void report_free(struct report *rp);

/* The values of figure key over the iterations of a result; caller frees. */
size_t result_values(const struct result *r, const char *key, double **out);

/* Figure key of a result combined over its iterations as the schema says. */
void result_agg(const struct result *r, const char *key, struct agg *a);

/* Index of the result with this id in run, or -1. */
long run_find_result(const struct run *run, const char *id);

#endif
