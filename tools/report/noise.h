/* SPDX-License-Identifier: MIT */
/*
 * The lead's noise model (docs/comparing.md): how far apart two runs of
 * one configuration can be, measured on every two runs of one set
 * committed in tests/data (aa-SET-N-a.log, aa-SET-N-b.log: one suite, one
 * recipe, tools/aa-pairs.sh), made into a table at build time by
 * tools/report/gen/floors_gen.c, never by hand.
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
 * For each env (noise_env()), probe and key, the
 * largest ratio of one run to the other that the lead saw
 * (ratio_log(), ratio.h) over every two runs of one configuration and env;
 * terminated by a NULL env.
 */
struct noise_floor {
	const char *env, *probe, *key;
	double ratio;		/* >= 1 */
	unsigned figures;	/* figure pairs measured */
};
extern const struct noise_floor noise_floors[];
extern const unsigned noise_pairs;	/* how many pairs of runs they came from */
extern const unsigned noise_runs;	/* of how many runs */

/*
 * Floors measured on the user's own machine (`make noise-floor`:
 * floors_gen --tsv, lines "env TAB probe TAB key TAB ratio TAB figures",
 * '#' comments): for every env they name they take the place of the
 * built-in ones. Hostile input: a name of plain printable text, a ratio
 * from 1 to NOISE_RATIO_MAX, a count. Returns 0, or -1 after one line on
 * stderr naming the file, the line and what is wrong (nothing taken).
 */
#define NOISE_RATIO_MAX 1e9
int noise_load_floors(const char *path);
void noise_free_floors(void);

/*
 * The between-run floor of fg for run 0 against run r (judge.h): the
 * larger of the two runs' envs' measured floors for its probe and key,
 * or, for a key never measured and for every attribution count (interrupt
 * sources are named per machine), the largest of its probe's there; as
 * measured, not raised. 1 when none was measured (*measured, when not
 * NULL, says which).
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
