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
 * A figure leads only beyond the largest ratio identical pairs showed for
 * its probe and key raised to this power: a margin in log space for pairs
 * not yet seen (docs/comparing.md says why 2). The floor is never below
 * LEAD_MIN_RATIO (lead.h).
 */
#define NOISE_MARGIN 2.0
/*
 * With at least NOISE_SIDE_RUNS runs on both sides (sides.h), every run of
 * one beyond every run of the other is evidence of its own (p = 0.1 for 3
 * against 3), and the margin drops to NOISE_SIDE_MARGIN: the measured
 * ratio itself.
 */
#define NOISE_SIDE_RUNS 3
#define NOISE_SIDE_MARGIN 1.0

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
 * The ratio fg must pass to lead between run 0 and run r:
 * max(LEAD_MIN_RATIO, measured ^ NOISE_MARGIN (NOISE_SIDE_MARGIN between
 * sides of NOISE_SIDE_RUNS runs or more)), measured the larger of the
 * two runs' envs' floors for its probe and key, or, for a key never
 * measured and for every attribution count (interrupt sources are named
 * per machine), the largest of its probe's there. *measured (when not NULL):
 * 1 when some floor was measured for it.
 */
double noise_floor_of(const struct report *rp, const struct figure *fg, size_t r, int *measured);

/*
 * The lead's note on its thresholds, one line "  (noise: ...)": whether
 * each run ran once, and the floors that applied to the figures compared
 * (by probe, the range).
 */
void noise_print_note(FILE *f, const struct report *rp);

#endif
