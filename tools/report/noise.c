// SPDX-License-Identifier: MIT
/* The lead's noise model; see noise.h. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "lead.h"
#include "ratio.h"
#include "noise.h"
#include "sides.h"
#include "util.h"

const char *noise_env(const json_t *head, char *buf, size_t len)
{
	const char *env = json_string_value(json_object_get(head, "env"));
	const char *accel = json_string_value(json_object_get(head, "accel"));
	size_t n = accel ? strcspn(accel, ":") : 0;

	if (!env || !accel || !n)
		return env;
	snprintf(buf, len, "%s/%.*s", env, (int)n, accel);
	return buf;
}

/*
 * The measured floor of probe's key in env, else (and for attribution) the
 * largest of probe's there; 0: none.
 */
static double measured_in(const char *env, const char *probe, const char *key)
{
	double probe_max = 0;

	if (!strcmp(probe, ATTRIBUTION))
		key = "";

	for (size_t i = 0; env && noise_floors[i].env; i++) {
		const struct noise_floor *nf = &noise_floors[i];

		if (strcmp(nf->env, env) || strcmp(nf->probe, probe))
			continue;
		if (!strcmp(nf->key, key))
			return nf->ratio;
		probe_max = fmax(probe_max, nf->ratio);
	}
	return probe_max;
}

/* The margin over the measured ratio between run 0 and run r (noise.h). */
static double margin_of(const struct report *rp, size_t r)
{
	return rp->runs[0].members >= NOISE_SIDE_RUNS && rp->runs[r].members >= NOISE_SIDE_RUNS ?
		       NOISE_SIDE_MARGIN : NOISE_MARGIN;
}

double noise_floor_of(const struct report *rp, const struct figure *fg, size_t r, int *measured)
{
	char b0[NOISE_ENV_MAX], br[NOISE_ENV_MAX];
	double m = fmax(measured_in(noise_env(rp->runs[0].head, b0, sizeof(b0)), fg->probe, fg->key),
			measured_in(noise_env(rp->runs[r].head, br, sizeof(br)), fg->probe, fg->key));

	if (measured)
		*measured = m > 0;
	return m > 0 ? fmax(LEAD_MIN_RATIO, pow(m, margin_of(rp, r))) : LEAD_MIN_RATIO;
}

/* The sides' run counts, "3 and 3", when the runs are sides (sides.h); else 0. */
static int print_sides(FILE *f, const struct report *rp)
{
	if (!rp->runs[0].members)
		return 0;
	fprintf(f, "runs pooled by label, ");
	for (size_t r = 0; r < rp->nruns; r++)
		fprintf(f, "%s%zu", r ? (r + 1 < rp->nruns ? ", " : " and ") : "", rp->runs[r].members);
	fprintf(f, " runs a side: a figure leads when every run of one side is beyond every run of "
		"the other (p shown: exact, two-sided, %.2g for 3 against 3) and beyond its floor, "
		"max(%.1fx, the largest ratio of %u pairs of %u identical runs ^ %.1f, ^ %.1f with "
		"fewer than %d runs a side); attribution compares run by run, not here",
		sides_apart_p(3, 3), LEAD_MIN_RATIO, noise_pairs, noise_runs, NOISE_SIDE_MARGIN,
		NOISE_MARGIN, NOISE_SIDE_RUNS);
	return 1;
}

/* Did every run run its probes once? */
static int each_ran_once(const struct report *rp)
{
	for (size_t r = 0; r < rp->nruns; r++)
		if (rp->runs[r].iterations > 1)
			return 0;
	return 1;
}

/* The range of measured floors that applied, by probe in figure order, after "; floors ". */
static void print_floors(FILE *f, const struct report *rp)
{
	const char *probe = NULL;
	double lo = 0, hi = 0;
	int any = 0;

	for (size_t i = 0; i <= rp->nfigs; i++) {
		const struct figure *fg = i < rp->nfigs ? &rp->figs[i] : NULL;
		double fl = 0;
		int measured = 0;

		for (size_t r = 1; fg && r < rp->nruns; r++)
			if (!isnan(ratio_log(rp, fg, r)))
				fl = fmax(fl, noise_floor_of(rp, fg, r, &measured) * (measured ? 1 : 0));
		if (probe && (!fg || strcmp(fg->probe, probe))) {
			fprintf(f, "%s %s %.3gx", any++ ? "," : "; measured floors:", probe, lo);
			if (hi > lo * 1.05)
				fprintf(f, " to %.3gx", hi);
			probe = NULL;
		}
		if (!(fl > 0))
			continue;
		if (!probe || strcmp(fg->probe, probe)) {
			probe = fg->probe;
			lo = hi = fl;
		}
		lo = fmin(lo, fl);
		hi = fmax(hi, fl);
	}
	if (!any)
		fprintf(f, "; no floor measured for these runs' figures: %.1fx for all", LEAD_MIN_RATIO);
}

void noise_print_note(FILE *f, const struct report *rp)
{
	fprintf(f, "  (noise: ");
	if (print_sides(f, rp)) {
		print_floors(f, rp);
		fprintf(f, ")\n");
		return;
	}
	fprintf(f, "%s; a figure leads beyond max(%.1fx, the largest ratio of %u pairs of "
		"%u identical runs ^ %.1f)", each_ran_once(rp) ? "each run ran its probes once" :
		"runs repeated: every iteration beyond every one of the other, where both did",
		LEAD_MIN_RATIO, noise_pairs, noise_runs, NOISE_MARGIN);
	print_floors(f, rp);
	fprintf(f, ")\n");
}
