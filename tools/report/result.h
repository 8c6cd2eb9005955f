/* SPDX-License-Identifier: MIT */
/*
 * One result of one run (a probe's measurement, every iteration of it): its
 * identity, and what the report keeps of its records. Not the records: its
 * first record, the first value of each key, every numeric value of each key
 * and its latency histograms added up. So the memory a result takes grows
 * with its numbers, not with the text around them, and nothing the report
 * shows needs a record again.
 */
#ifndef TP_REPORT_RESULT_H
#define TP_REPORT_RESULT_H

#include <stddef.h>
#include <stdint.h>
#include <jansson.h>

#include "schema.h"

/*
 * A result keeps at most this many different keys (a probe's records have a
 * few dozen; attribution's interrupt sources a few hundred): a record of
 * many made-up keys must not make the report's memory grow with each one.
 */
#define RESULT_KEYS_MAX 4096
#define RESULT_KEYS_MAX_TEXT "4096"

/* Histogram buckets beyond this index are a corrupt record, not a latency. */
#define HIST_BUCKET_MAX 1000000

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
	double log_mean, log_stddev;	/* of log(value), every value above 0; else NAN */
	enum combine combine;
	int disjoint;		/* intervals that do not intersect: mean is NAN */
};

void agg_of(const double *v, size_t n, struct agg *a);

/* How a was combined, for programs: "mean", "intersection" or "disjoint". */
const char *agg_combine_name(const struct agg *a);

/* Has a a spread of repeated samples (a mean of two or more)? */
int agg_has_spread(const struct agg *a);

/* The numeric values of one key, in the order of the records they came from. */
struct column {
	double *v;
	size_t *rec;		/* which record (0-based) each came from; NULL: v[i] from record i */
	size_t n, cap;
};

/* The record (0-based, of the result) value i of c came from. */
size_t column_rec(const struct column *c, size_t i);

#define SEQ_NONE ((size_t)-1)

/* One top-level key of a result's records. */
struct rkey {
	const char *key;
	json_t *first;		/* its value in the first record that has it */
	size_t scalar_seq;	/* when first seen with a scalar value; SEQ_NONE: never */
	size_t figure_seq;	/* when first seen as a figure; SEQ_NONE: never */
	struct column col;	/* every numeric value */
	unsigned char own_key;	/* key is a copy (a key the first record lacks) */
	unsigned char first_is_figure;	/* first was a figure in its record (schema.h) */
	unsigned char scalar_numeric;	/* the first scalar value was a number */
};

/* The "hist" objects of a result's iterations added up (docs/records.md). */
struct hist {
	int64_t width_ns;	/* of the first valid one; 0: none */
	uint64_t overflow;
	json_t *counts;		/* bucket index (a string) -> count, in the order first seen */
};

struct result {
	char *id;		/* probe, name, identifying keys: equal across runs */
	const char *probe;	/* inside first */
	const char *name;
	char *ident;		/* identifying keys not already in the name, "k=v ..." */
	/* id and ident with clocksource "as booted" (result_as_booted); NULL: none */
	char *booted_id, *booted_ident;
	json_t *first;		/* the first record */
	size_t nrecs;		/* records: one per iteration */
	struct rkey *keys;	/* every key of the records, in the order first seen */
	size_t nkeys, keycap;
	json_t *key_index;	/* key -> index in keys, once there are many; else NULL */
	size_t keys_dropped;	/* keys beyond RESULT_KEYS_MAX, left out */
	size_t seq;		/* keys read so far, over every record: orders the *_seq */
	struct hist hist;
};

/*
 * Is this key of rec part of its result's identity (a parameter such as
 * a clock's path, a timer, a load, a thread count), or a figure? The identity schema
 * (schema.h) says which; probe and name are the id's first parts anyway.
 */
int key_is_ident(const json_t *rec, const char *key, const json_t *val);
int key_is_figure(const json_t *rec, const char *key, const json_t *val);

/* Builds a result's id and the "k=v" list of identifying keys. */
char *result_id(const json_t *rec, char **ident);

/*
 * The clocksource value that stands for "the one the run booted with", so
 * that results read through each machine's default clocksource line up.
 */
#define AS_BOOTED "as booted"

/*
 * When r's probe declares as-booted rows (show.h, struct show_clock) and
 * r's identity includes a clocksource equal to booted (the run's), sets
 * r->booted_id and r->booted_ident: its id and ident with that clocksource
 * replaced by AS_BOOTED, and a clock read through libc keyed by that route
 * whether the vDSO served it or not: that is part of the answer, not of
 * the question. A platform counter's read does not go through the
 * clocksource and gets none. Returns whether it set them.
 */
int result_as_booted(struct result *r, const char *booted);

/* Starts r with its first record (id, ident: taken); probe and name inside rec. */
void result_init(struct result *r, json_t *rec, const char *probe, const char *name, char *id,
		 char *ident);

/* Keeps what the report needs of one more record (iteration) of r. */
void result_add_record(struct result *r, json_t *rec);

/* The key of r's records with this name, or NULL. */
const struct rkey *result_key(const struct result *r, const char *key);

/* The numeric values of key over the iterations of a result; caller frees. */
size_t result_values(const struct result *r, const char *key, double **out);

/* Figure key of a result combined over its iterations as the schema says. */
void result_agg(const struct result *r, const char *key, struct agg *a);

/*
 * The keys of r that were ever a scalar, in the order first seen as one,
 * or ever a figure, in the order first seen as one: indices into r->keys,
 * their count returned; the caller frees *out.
 */
enum key_order { KEYS_AS_SCALARS, KEYS_AS_FIGURES };
size_t result_keys_by(const struct result *r, enum key_order by, size_t **out);

void result_free(struct result *r);

#endif
