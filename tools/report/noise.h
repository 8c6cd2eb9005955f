/* SPDX-License-Identifier: MIT */
/*
 * The lead's noise model (docs/comparing.md): how far apart two runs of
 * one configuration can be, measured on every two quiet runs of one env
 * committed in tests/data (aa-SET-N-a.log, aa-SET-N-b.log: one suite, one
 * recipe, tools/aa-pairs.sh, made in several sets hours and days apart),
 * made into a table at build time by tools/report/gen/floors_gen.c, never
 * by hand.
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
 * For each env (noise_env()), probe, result and key: how far apart the
 * figure came in runs of one configuration. sd is the standard deviation
 * of its log over the env's quiet runs, whichever set they came from (df:
 * runs less one); ratio the largest ratio of two of them the lead saw
 * (ratio_log(), ratio.h); terminated by a NULL env. The result is the
 * figure's row as the lead names it (name, then its identity).
 */
struct noise_floor {
	const char *env, *probe, *result, *key;
	double sd;		/* of log(figure) over the env's runs */
	unsigned df;		/* its degrees of freedom */
	double ratio;		/* >= 1 */
	unsigned figures;	/* figure pairs measured */
};
extern const struct noise_floor noise_floors[];
extern const unsigned noise_pairs;	/* how many pairs of runs they came from */
extern const unsigned noise_runs;	/* of how many runs */

/*
 * Floors measured on the user's own machine (`make noise-floor`:
 * floors_gen --tsv, lines "env TAB probe TAB result TAB key TAB sd TAB df
 * TAB ratio TAB figures", '#' comments): for every env they name they take
 * the place of the built-in ones. Hostile input: names of plain printable
 * text, an sd from 0 to NOISE_SD_MAX, a ratio from 1 to NOISE_RATIO_MAX,
 * counts. Returns 0, or -1 after one line on stderr naming the file, the
 * line and what is wrong (nothing taken).
 */
#define NOISE_RATIO_MAX 1e9
#define NOISE_SD_MAX 20.0
#define NOISE_TSV_FIELDS 8
int noise_load_floors(const char *path);
void noise_free_floors(void);

/* The name a floor's result has: fg's name, and its identity after a space where it has one. */
char *noise_result_name(const struct figure *fg);

/*
 * The between-run floor of fg for run 0 against run r (judge.h), a ratio:
 * how far apart two runs of one configuration can come by chance, for
 * the larger of the two runs' envs. Its log is the larger of the largest
 * log ratio measured and the prediction bound t * sqrt(2) * sd: Student's t
 * at df for a two-sided JUDGE_ALPHA / m, m the figures the comparison of run
 * r against run 0 tests at once (so that all of them together stay within
 * their floors with 95 % chance; 1 for the comparison's own question,
 * primary_question()), sqrt(2) for the two runs. Looked up by
 * probe, result and key; a result never measured takes the widest of its
 * key's (the largest sd and ratio, the smallest df), a key never measured
 * its probe's. An attribution count (sources are named per machine) takes
 * its probe's widest pair alone: Poisson's test on the counts comes first.
 * 1 when none was measured (*measured, when not NULL, says which).
 */
double noise_floor_of(const struct report *rp, const struct figure *fg, size_t r, int *measured);

/*
 * Is run loaded, so that no floor may be learnt from it: other work used
 * CONDITIONS_BUSY_PCT of its CPUs or more (its end record), or it has no
 * end record to say?
 */
int noise_run_loaded(const struct run *run);

/* Did other work use CONDITIONS_BUSY_PCT of run's CPUs or more, by its end record? */
int noise_run_busy(const struct run *run);

#endif
