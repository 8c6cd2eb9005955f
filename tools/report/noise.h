/* SPDX-License-Identifier: MIT */
/*
 * The lead's noise model (docs/comparing.md): the variance that persists
 * between whole runs of one configuration, estimated on quiet identical
 * runs (tests/data/aa-SET-N-{a,b}.log: tools/aa-pairs.sh, several sets hours
 * and days apart) by tools/report/gen/floors_gen.c into the committed
 * table tools/report/floors.tsv, never by hand.
 */
#ifndef TP_REPORT_NOISE_H
#define TP_REPORT_NOISE_H

#include <stdio.h>
#include <jansson.h>

#include "model.h"

/*
 * The env a run's floors are measured and looked up under, from its run
 * record (head; NULL: none): its "env" ("os" on a host, "appliance"), and
 * where it ran accelerated or emulated, "/" and the accelerator's name
 * from its "accel" ("appliance/tcg", "appliance/kvm"): an emulator's
 * floors are not a machine's. Written into buf when composed; NULL when
 * the record has no env.
 */
#define NOISE_ENV_MAX 64
const char *noise_env(const json_t *head, char *buf, size_t len);

/*
 * For each env (noise_env()), probe, result and key: the variance of the
 * figure's log that persists across whole runs of one configuration, which
 * a run's own rounds or interval cannot see. Estimated from identical quiet
 * runs as a variance component (between.h): the variance of the runs' log
 * values less the mean variance within a run (from its rounds, else its
 * KEY_ci95), floored at 0, pooled over the groups of runs that declare the
 * probe alike. sd is its root, df its degrees of freedom (runs less one
 * per group), within the root of the within-run part subtracted, runs how
 * many runs are behind it. An event count's is of log(events + 0.5), its
 * within part Poisson's 1 / (events + 0.5). The result is the figure's row
 * as the lead names it (name, then its identity). The built-in table is
 * tools/report/floors.tsv, committed, made by `make noise-floor-table`
 * (floors_gen) from tests/data's identical runs; terminated by a NULL env.
 */
struct noise_floor {
	const char *env, *probe, *result, *key;
	double sd;		/* between-run sd of log(figure) */
	unsigned df;		/* its degrees of freedom */
	double within;		/* the within-run sd subtracted (shown only) */
	unsigned runs;		/* runs behind it */
};

/*
 * The built-in table, parsed from floors.tsv's text (made a C string at
 * build time) on first use; runs: how many runs the table came from.
 */
extern const char noise_builtin_tsv[];
const struct noise_floor *noise_builtin(void);
unsigned noise_builtin_runs(void);

/*
 * Floors measured on the user's own machine (`make noise-floor`:
 * floors_gen, lines "env TAB probe TAB result TAB key TAB sd TAB df
 * TAB within TAB runs", '#' comments, LF or CRLF line ends): for every
 * env they name they take the place of the built-in ones. Hostile input:
 * a regular file, no NUL byte, names of plain printable text, an sd and a
 * within from 0 to NOISE_SD_MAX, whole numbers, at least one line.
 * Returns 0, or -1 after one line on stderr naming the file, the line and
 * what is wrong (nothing taken).
 */
#define NOISE_SD_MAX 20.0
#define NOISE_TSV_FIELDS 8
#define NOISE_FILE_MAX (16u << 20)
int noise_load_floors(const char *path);
void noise_free_floors(void);

/* The name a floor's result has: fg's name, and its identity after a space where it has one. */
char *noise_result_name(const struct figure *fg);

/*
 * The between-run variance of log(fg) for run 0 against run r: the larger
 * of the two runs' envs' (a run carries its env's between-run deviation;
 * a difference of two runs carries it twice: the caller doubles it). Looked
 * up by probe, result and key; a result never measured takes the largest of
 * its key's, a key never measured its probe's. *df its degrees of freedom;
 * *measured whether any was measured (0: the variance is 0).
 */
double noise_between_var(const struct report *rp, const struct figure *fg, size_t r,
			 unsigned *df, int *measured);

/*
 * The ratio two identical runs of fg stay within 95 % of the time by the
 * between-run term alone: exp(1.96 sqrt(2 var)); 1 when none was measured.
 */
double noise_floor_of(const struct report *rp, const struct figure *fg, size_t r, int *measured);

/*
 * The ratio to a fleet's median beyond which one run of fg is an outlier
 * (tp-report --fleet, --place): its whole variance between runs (the
 * between-run term and the within-run part the table subtracted, the
 * median's and the run's: twice), times Student's t at the table's df for
 * a two-sided NOISE_OUTLIER_P (0.05 over 50 000 figures and runs at once:
 * identical runs' tails are longer than a normal's). 1 when none was
 * measured; infinite for a figure its probe declares context, a count or
 * a maximum (one run's count or maximum has no ratio to judge: judge.h).
 */
#define NOISE_OUTLIER_P 1e-6
double noise_outlier_floor(const struct report *rp, const struct figure *fg, size_t r,
			   int *measured);

/*
 * Is run loaded, so that no floor may be learnt from it: other work used
 * CONDITIONS_BUSY_PCT of its CPUs or more (its end record), or it has no
 * end record to say?
 */
int noise_run_loaded(const struct run *run);

/* Did other work use CONDITIONS_BUSY_PCT of run's CPUs or more, by its end record? */
int noise_run_busy(const struct run *run);

#endif
