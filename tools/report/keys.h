/* SPDX-License-Identifier: MIT */
/*
 * The probes' key declarations (userland/probe.h, struct probe_key): what
 * every key of a probe's result records is (identity, figure, budget or
 * context), its unit, which way is better, and which key holds the same
 * fact in its primary unit. A run ships them as `keys` records before any
 * probe's record; a probe's declaration comes from the first log read
 * that carries one, else from the built-in copy, made at build time from
 * the probes' own tables (tools/report/gen/keys_gen.c) for older captures.
 */
#ifndef TP_REPORT_KEYS_H
#define TP_REPORT_KEYS_H

#include <stdio.h>
#include <jansson.h>

#include "../../common/record.h"
#include "../../common/recdecl.h"
#include "../../common/verdict.h"

#include "schema.h"

enum key_dir {
	KEY_DIR_NEITHER,
	KEY_DIR_HIGHER,	/* higher is better: a rate */
	KEY_DIR_LOWER,	/* lower is better: a cost, a latency, a count of faults */
	KEY_DIR_ZERO,	/* nearer zero is better: a signed difference, no ratio */
};

/*
 * How sure a run is of a figure (userland/probe.h, enum probe_key_ci):
 * unsaid, an interval carried as KEY_ci95 [lo, hi, n] (KEYS_CI_SUFFIX),
 * none (one value, its between-run floor alone), or unstable (bimodal or
 * quantized by nature: never compared by ratio).
 */
enum key_ci { KEY_CI_UNSAID, KEY_CI_INTERVAL, KEY_CI_NONE, KEY_CI_UNSTABLE };
#define KEYS_CI_SUFFIX TP_REC_CI_SUFFIX

/*
 * What kind of number a figure is (userland/probe.h, enum probe_key_kind):
 * unsaid, a value, an event count (compared as a rate), a maximum or far
 * quantile (compared through its rounds' maxima), or context (never leads).
 */
enum key_kind { KEY_KIND_UNSAID, KEY_KIND_VALUE, KEY_KIND_COUNT, KEY_KIND_MAX, KEY_KIND_CONTEXT };

struct key_decl {
	char *name;		/* the key, or an fnmatch() pattern when pattern */
	int pattern;
	enum key_class cls;	/* KEY_ID, KEY_FIGURE, KEY_BUDGET or KEY_CONTEXT */
	char *unit;		/* NULL: none */
	enum key_dir dir;
	char *same_as;		/* the key holding the same fact in its primary unit */
	long same_below_n;	/* same_as only when the record's n is below this; 0: always */
	char *max_of;		/* the key whose largest value over the probe's other results this is */
	char *half_of;		/* the interval centre this is the half-width of */
	enum key_ci ci;
	enum key_kind kind;
	const char *what;	/* built-in only: the probe's one line; else NULL */
};

/*
 * Takes the declaration in rec when it is a `keys` record: the probe's
 * declaration from then on, unless an earlier log declared that probe (a
 * different one is named on stderr, the first kept). A malformed record
 * is refused whole, with one line on stderr naming file, probe and key.
 * Returns 1 when taken, 0 when rec is no keys record or changes nothing,
 * -1 when refused.
 */
int keys_note_record(const json_t *rec, const char *file);

/* The declaration of probe's key (exact names first, then patterns in order), or NULL. */
const struct key_decl *keys_find(const char *probe, const char *key);

/*
 * The figure whose 95 % interval key is (KEY_ci95 of a declared figure),
 * or NULL.
 */
const struct key_decl *keys_ci_of(const char *probe, const char *key);

/*
 * How sure a run is of probe's key: its declaration's, or where that
 * (an older capture's) says nothing, the built-in one's: whether a figure
 * is bimodal or quantized is the probe's nature, not its version's.
 */
enum key_ci keys_ci(const char *probe, const char *key);

/* What kind of number probe's key is: its declaration's, else the built-in one's. */
enum key_kind keys_kind(const char *probe, const char *key);

/* The uncertainty as the records name it: "interval", "none", "unstable"; NULL: unsaid. */
const char *keys_ci_name(enum key_ci c);

/* The figure of probe declared as the half-width of centre's interval, or NULL. */
const struct key_decl *keys_half_of(const char *probe, const char *centre);

/*
 * What probe's key is, in the probe's own one line (its key table, through
 * the built-in declaration: keys records carry no such line), or NULL.
 */
const char *keys_what(const char *probe, const char *key);

/* Changes whenever a declaration is taken: lookups cached before are stale. */
unsigned keys_generation(void);

/* Calls fn for every key of the built-in declaration, probe by probe, in table order. */
void keys_foreach_builtin(void (*fn)(const char *probe, const struct key_decl *d, void *arg),
			  void *arg);

/* The built-in declaration as the keys records a run ships, one JSON object a line. */
void keys_print_builtin(FILE *f);

/* A direction as the records name it: "higher", "lower", "zero"; NULL for neither. */
const char *keys_dir_name(enum key_dir d);

/* Frees every declaration (for leak checkers; lookups load the built-in again). */
void keys_free(void);

/* Forgets the declarations logs made (keys_note_record()); the built-in one stays loaded. */
void keys_forget_logs(void);

/* Made at build time by tools/report/gen/keys_gen.c (build/report/keys_builtin.c). */
extern const char *const keys_builtin[];	/* keys records as JSON, NULL-terminated */
extern const char *const keys_builtin_what[][3];	/* probe, key, what; NULL-terminated */
/* The keys of the records no probe writes, as their writers declare them, in their order. */
extern const struct tp_rec_key rec_keys_builtin[];	/* a row of type NULL ends it */
/* The verdict's items as the probes declare them (their words, bounds and source), in its order. */
extern const struct verdict_limit verdict_limits[];
extern const size_t verdict_limit_count;

#endif
