// SPDX-License-Identifier: MIT
/* A figure's rounds; see rounds.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "keys.h"
#include "rounds.h"
#include "util.h"

#define Z975 1.959964

/* Run r's rounds of fg's result, or NULL. */
static const struct result *rounds_of(const struct report *rp, const struct figure *fg, size_t r)
{
	const struct run *run = &rp->runs[r];
	long i = run_find_result(run, fg->id);
	json_t *at;

	if (i < 0 || !run->rounds_index)
		return NULL;
	at = json_object_get(run->rounds_index, run->res[i].id);
	return at ? &run->rounds[json_integer_value(at)] : NULL;
}

size_t rounds_values(const struct report *rp, const struct figure *fg, size_t r, double **out)
{
	const struct result *res = rounds_of(rp, fg, r);

	*out = NULL;
	return res ? result_values(res, fg->key, out) : 0;
}

size_t rounds_windows(const struct report *rp, const struct figure *fg, size_t r, double **out)
{
	const struct result *res = rounds_of(rp, fg, r);

	*out = NULL;
	for (size_t k = 0; res && k < res->nkeys; k++) {
		const struct key_decl *d = keys_find(fg->probe, res->keys[k].key);
		double scale = d && d->unit && !strcmp(d->unit, "ms") ? 1e-3 : 1;
		size_t n;

		if (!d || d->cls != KEY_BUDGET || !d->unit || (strcmp(d->unit, "ms") && strcmp(d->unit, "s")))
			continue;
		n = result_values(res, res->keys[k].key, out);
		if (n == res->nrecs) {
			for (size_t i = 0; i < n; i++)
				(*out)[i] *= scale;
			return n;
		}
		free(*out);
		*out = NULL;
	}
	return 0;
}

double rounds_own_se(const struct figure *fg, size_t r)
{
	const struct fig_ci *ci = fg->ci ? &fg->ci[r] : NULL;

	if (!ci || !ci->n || !(ci->lo > 0) || !(ci->hi >= ci->lo))
		return 0;
	return log(ci->hi / ci->lo) / (2 * Z975);
}

double rounds_log_within(const struct report *rp, const struct figure *fg, size_t r)
{
	double *v, se = rounds_own_se(fg, r);
	size_t n = rounds_values(rp, fg, r, &v), k = 0;
	struct agg a;

	for (size_t i = 0; i < n; i++)
		if (v[i] > 0)
			v[k++] = v[i];
	agg_of(v, k, &a);
	free(v);
	if (k >= 2 && k == n && isfinite(a.log_stddev))
		return a.log_stddev * a.log_stddev / (double)k;
	return se > 0 ? se * se : NAN;
}
