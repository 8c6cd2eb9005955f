// SPDX-License-Identifier: MIT
/*
 * The fleet's answer, which its text and its page open with: every
 * outlier of every group (machine, figure, value, ratio to its group's
 * median) and how often its run is one. See fleet.h.
 */
#include <math.h>
#include <stdlib.h>

#include "fleet.h"
#include "table.h"
#include "util.h"

size_t fleet_outliers(const struct fleet *fl, struct fleet_outlier **out, size_t *per_run)
{
	struct fleet_outlier *o = NULL;
	size_t n = 0, cap = 0;

	for (size_t gi = 0; gi < fl->ngroups; gi++) {
		const struct fleet_group *g = &fl->groups[gi];

		for (size_t i = 0; i < g->ns; i++) {
			const struct fleet_series *s = &g->s[i];
			struct fleet_stats st;

			fleet_stats_of(s, &st);
			for (size_t k = 0; k < s->n; k++) {
				if (!fleet_is_outlier(s, &st, s->v[k]))
					continue;
				grow(&o, &cap, n + 1, sizeof(*o));
				o[n++] = (struct fleet_outlier){ gi, i, k, s->v[k], st.median };
				per_run[s->run[k]]++;
			}
		}
	}
	*out = o;
	return n;
}

void fleet_run_cells(const struct fleet_run *r, char **machine, char **file)
{
	*machine = *r->machine ? xstrdup(r->machine) : xstrdup("no machine named");
	if (isfinite(r->busy_pct)) {
		char *m = xasprintf("%s (busy: other work %.0f %% of its CPUs)", *machine, r->busy_pct);

		free(*machine);
		*machine = m;
	}
	*file = r->seq > 1 ? xasprintf("%s run %d", r->file, r->seq) : xstrdup(r->file);
}

struct table *fleet_outlier_table(const struct fleet *fl, const struct fleet_outlier *o,
				  size_t n, const size_t *per_run)
{
	static const char *const titles[] = { "machine", "figure", "value", "unit", "x median",
					      "group", "outlier in", "file" };
	struct table *t = table_new(ARRAY_SIZE(titles), titles);
	char num[64];

	for (size_t c = 2; c < 7; c++)
		if (c != 3)
			table_align(t, c, 'r');
	table_legend(t, 4, "the value's ratio to its group's median");
	table_legend(t, 6, "how many figures of that run are outliers");
	for (size_t i = 0; i < n; i++) {
		const struct fleet_series *s = &fl->groups[o[i].group].s[o[i].series];
		const struct fleet_fig *fg = &fl->figs[s->fig];
		size_t row = table_row(t), run = s->run[o[i].at];
		char *machine, *file, *name = fleet_fig_name(fg);

		fleet_run_cells(&fl->runs[run], &machine, &file);
		table_set(t, row, 0, machine);
		table_set(t, row, 1, name);
		fmt_num(num, sizeof(num), o[i].value);
		table_set(t, row, 2, num);
		table_set(t, row, 3, fg->unit ? fg->unit : "");
		fmt_num(num, sizeof(num), o[i].value / o[i].median);
		table_setf(t, row, 4, "%sx", num);
		table_setf(t, row, 5, "%zu", o[i].group + 1);
		table_setf(t, row, 6, "%zu figure%s", per_run[run], per_run[run] == 1 ? "" : "s");
		table_set(t, row, 7, file);
		free(machine);
		free(file);
		free(name);
	}
	return t;
}
