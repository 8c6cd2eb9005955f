// SPDX-License-Identifier: MIT
/* Runs pooled into sides by their labels; see sides.h. */
#include <math.h>
#include <string.h>

#include "sides.h"
#include "util.h"

/* One side's agg of figure i: its runs' means (those runs that have it), kept in *values. */
static void side_agg(const struct report *rp, size_t i, const size_t *runs, size_t n,
		     struct agg *a, double **values)
{
	double *v = xcalloc(n ? n : 1, sizeof(*v));
	size_t k = 0;

	for (size_t m = 0; m < n; m++) {
		const struct agg *ra = &rp->figs[i].per_run[runs[m]];

		if (ra->n && isfinite(ra->mean))
			v[k++] = ra->mean;
	}
	agg_of(v, k, a);
	*values = v;
}

int sides_build(const struct report *rp, struct report *out)
{
	const char **key = xcalloc(rp->nruns ? rp->nruns : 1, sizeof(*key));
	struct groups g;
	int grouped = 0;

	for (size_t r = 0; r < rp->nruns; r++)
		key[r] = rp->runs[r].side ? rp->runs[r].side : rp->runs[r].label;
	group_strings(key, rp->nruns, &g);
	for (size_t s = 0; s < g.n; s++)
		grouped |= g.start[s + 1] - g.start[s] > 1;
	if (grouped) {
		memset(out, 0, sizeof(*out));
		out->id = report_new_id();
		out->nruns = out->cap = g.n;
		out->runs = xcalloc(g.n, sizeof(*out->runs));
		for (size_t s = 0; s < g.n; s++) {
			size_t first = g.idx[g.start[s]];

			out->runs[s] = rp->runs[first];
			out->runs[s].label = (char *)key[first];
			out->runs[s].members = g.start[s + 1] - g.start[s];
		}
		out->nfigs = out->figcap = rp->nfigs;
		out->figs = xcalloc(rp->nfigs ? rp->nfigs : 1, sizeof(*out->figs));
		for (size_t i = 0; i < rp->nfigs; i++) {
			out->figs[i] = rp->figs[i];
			out->figs[i].per_run = xcalloc(g.n, sizeof(struct agg));
			out->figs[i].ci = xcalloc(g.n, sizeof(struct fig_ci));	/* sides: their runs' spread */
			out->figs[i].values = xcalloc(g.n, sizeof(double *));
			for (size_t s = 0; s < g.n; s++)
				side_agg(rp, i, g.idx + g.start[s], g.start[s + 1] - g.start[s],
					 &out->figs[i].per_run[s], &out->figs[i].values[s]);
		}
	}
	groups_free(&g);
	free(key);
	return grouped;
}

void sides_free(struct report *out)
{
	for (size_t i = 0; i < out->nfigs; i++) {
		for (size_t s = 0; s < out->nruns; s++)
			free(out->figs[i].values[s]);
		free(out->figs[i].values);
		free(out->figs[i].per_run);
		free(out->figs[i].ci);
	}
	free(out->figs);
	free(out->runs);
	memset(out, 0, sizeof(*out));
}
