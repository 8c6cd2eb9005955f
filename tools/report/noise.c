// SPDX-License-Identifier: MIT
/* The lead's noise model; see noise.h. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "conditions.h"
#include "noise.h"
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

double noise_floor_of(const struct report *rp, const struct figure *fg, size_t r, int *measured)
{
	char b0[NOISE_ENV_MAX], br[NOISE_ENV_MAX];
	double m = fmax(measured_in(noise_env(rp->runs[0].head, b0, sizeof(b0)), fg->probe, fg->key),
			measured_in(noise_env(rp->runs[r].head, br, sizeof(br)), fg->probe, fg->key));

	if (measured)
		*measured = m > 0;
	return m > 0 ? fmax(1, m) : 1;
}

int noise_run_loaded(const struct run *run)
{
	json_t *pct = run->end ? json_object_get(run->end, "other_busy_pct") : NULL;

	return !json_is_number(pct) || json_number_value(pct) >= CONDITIONS_BUSY_PCT;
}

int noise_run_busy(const struct run *run)
{
	json_t *pct = run->end ? json_object_get(run->end, "other_busy_pct") : NULL;

	return json_is_number(pct) && json_number_value(pct) >= CONDITIONS_BUSY_PCT;
}
