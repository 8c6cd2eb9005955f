// SPDX-License-Identifier: MIT
/*
 * A fleet as text, its answer first: the outliers (machine, figure, ratio
 * to its group's median, how often its run is one), the runs that stand
 * out most often, then each group's figures (n, median, p5, p95,
 * outliers); or one run's standing (--place), in aligned columns. Every string from a record is written as
 * a person may see it (sbuf_add_visible): no control character reaches
 * the terminal. See fleet.h.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fleet.h"
#include "table.h"
#include "util.h"

/* The runs that stand out most often are listed up to this many. */
#define FLEET_TOP_RUNS 20

static void put_visible(FILE *f, const char *s)
{
	struct sbuf b = { 0 };

	sbuf_add_visible(&b, s);
	fputs(b.s ? b.s : "", f);
	sbuf_free(&b);
}

/* "FILE (machine)", with the run number when its file has several. */
static void put_run(FILE *f, const struct fleet_run *r)
{
	put_visible(f, r->file);
	if (r->seq > 1)
		fprintf(f, " run %d", r->seq);
	fputs(" (", f);
	put_visible(f, *r->machine ? r->machine : "no machine named");
	fputc(')', f);
	/* a busy run's figures carry other work's noise: said beside it */
	if (isfinite(r->busy_pct))
		fprintf(f, " (busy: other work %.0f %% of its CPUs)", r->busy_pct);
}

static void put_group_head(FILE *f, const struct fleet_group *g, size_t gi, size_t ng)
{
	fprintf(f, "\nGroup %zu of %zu, %zu run%s:", gi + 1, ng, g->nruns, g->nruns == 1 ? "" : "s");
	for (size_t k = 0; k < 4; k++) {
		fprintf(f, "%s %s ", k ? "," : "", fleet_env_names[k]);
		put_visible(f, *g->env_key[k] ? g->env_key[k] : "-");
	}
	fputc('\n', f);
}

/* The runs most often an outlier, most first. */
static void put_top_runs(FILE *f, const struct fleet *fl, size_t *per_run)
{
	size_t shown = 0, best;

	for (;;) {
		best = fl->nruns;
		for (size_t r = 0; r < fl->nruns; r++)
			if (per_run[r] && (best == fl->nruns || per_run[r] > per_run[best]))
				best = r;
		if (best == fl->nruns || shown == FLEET_TOP_RUNS)
			break;
		if (!shown++)
			fputs("\nRuns most often an outlier:\n", f);
		fprintf(f, "%8zu figure%s  ", per_run[best], per_run[best] == 1 ? " " : "s");
		put_run(f, &fl->runs[best]);
		fputc('\n', f);
		per_run[best] = 0;
	}
}

/* A number as the tables show it, "-" when there is none. */
static void set_num(struct table *t, size_t row, size_t col, double v)
{
	char buf[64];

	fmt_num(buf, sizeof(buf), v);
	table_set(t, row, col, isfinite(v) ? buf : "-");
}

/* A group's figures: n, median, p5, p95, unit, outliers, name; aligned columns. */
static void put_group(FILE *f, const struct fleet *fl, size_t gi)
{
	static const char *const titles[] = { "n", "median", "p5", "p95", "unit", "out", "figure" };
	const struct fleet_group *g = &fl->groups[gi];
	struct table *t = table_new(ARRAY_SIZE(titles), titles);

	for (size_t c = 0; c < 6; c++)
		if (c != 4)
			table_align(t, c, 'r');
	put_group_head(f, g, gi, fl->ngroups);
	for (size_t i = 0; i < g->ns; i++) {
		const struct fleet_series *s = &g->s[i];
		const struct fleet_fig *fg = &fl->figs[s->fig];
		size_t row = table_row(t), out = 0;
		struct fleet_stats st;
		char *name = fleet_fig_name(fg);

		fleet_stats_of(s, &st);
		for (size_t k = 0; k < s->n; k++)
			out += fleet_is_outlier(s, &st, s->v[k]);
		table_setf(t, row, 0, "%zu", st.n);
		set_num(t, row, 1, st.median);
		set_num(t, row, 2, st.p5);
		set_num(t, row, 3, st.p95);
		table_set(t, row, 4, fg->unit ? fg->unit : "");
		table_setf(t, row, 5, "%zu", out);
		table_set(t, row, 6, name);
		free(name);
	}
	table_print(t, f, STYLE_TEXT, "");
	table_free(t);
}

/*
 * v against the median: a ratio ("0.997x"), or for a signed figure (an
 * offset: no ratio, as in the comparison) or a median of 0 the difference
 * ("+12.5").
 */
static void set_versus(struct table *t, size_t row, const struct fleet_series *s, double v,
		       double median)
{
	char buf[64];

	if (!s->j.is_signed && median > 0 && v >= 0) {
		fmt_num(buf, sizeof(buf), v / median);
		table_setf(t, row, 3, "%sx", buf);
	} else {
		fmt_num(buf, sizeof(buf), v - median);
		table_setf(t, row, 3, "%s%s", v - median >= 0 ? "+" : "", buf);
	}
}

/* Run at's standing in its group: each figure's percentile rank, value, median. */
static void put_place(FILE *f, const struct fleet *fl, size_t at)
{
	static const char *const titles[] = { "rank %", "value", "median", "vs median", "unit",
					      "figure", "" };
	const struct fleet_run *r = &fl->runs[at];
	const struct fleet_group *g = &fl->groups[r->group];
	struct table *t = table_new(ARRAY_SIZE(titles), titles);

	for (size_t c = 0; c < 4; c++)
		table_align(t, c, 'r');
	table_legend(t, 0, "the share of the group's runs below it (ties count half)");
	table_legend(t, 3, "its ratio to the median, or for a signed figure (an offset) "
		     "the difference, as the comparison gives them");
	fputs("Where ", f);
	put_run(f, r);
	fprintf(f, " stands among the %zu run%s of its group\n", g->nruns, g->nruns == 1 ? "" : "s");
	put_group_head(f, g, r->group, fl->ngroups);
	for (size_t i = 0; i < g->ns; i++) {
		const struct fleet_series *s = &g->s[i];

		for (size_t k = 0; k < s->n; k++) {
			struct fleet_stats st;
			size_t row;
			char *name;

			if (s->run[k] != at)
				continue;
			fleet_stats_of(s, &st);
			row = table_row(t);
			name = fleet_fig_name(&fl->figs[s->fig]);
			set_num(t, row, 0, fleet_rank(s, s->v[k]));
			set_num(t, row, 1, s->v[k]);
			set_num(t, row, 2, st.median);
			set_versus(t, row, s, s->v[k], st.median);
			table_set(t, row, 4, fl->figs[s->fig].unit ? fl->figs[s->fig].unit : "");
			table_set(t, row, 5, name);
			table_set(t, row, 6, fleet_is_outlier(s, &st, s->v[k]) ? "(outlier)" : "");
			free(name);
		}
	}
	table_print(t, f, STYLE_TEXT, "");
	table_free(t);
}

/* The answer first: the outliers, with how often their runs are one. */
static void put_answer(FILE *f, const struct fleet *fl, size_t *per_run)
{
	struct fleet_outlier *o;
	size_t n = fleet_outliers(fl, &o, per_run);
	struct table *t;

	if (!n) {
		fputs("\nNo outliers: no run stands out of its group beyond what identical runs show.\n", f);
		free(o);
		return;
	}
	fprintf(f, "\nOutliers, %zu (robust z over %.1f: |value - median| / (1.4826 MAD), MAD 0: any "
		"other value; and a ratio to the median beyond what identical runs show, noise.h):\n",
		n, FLEET_OUTLIER_Z);
	t = fleet_outlier_table(fl, o, n, per_run);
	table_print(t, f, STYLE_TEXT, "  ");
	table_free(t);
	free(o);
}

void fleet_print(FILE *f, const struct fleet *fl, long place)
{
	size_t *per_run;

	if (place >= 0) {
		put_place(f, fl, (size_t)place);
		return;
	}
	fprintf(f, "Fleet: %zu run%s from %zu file%s, %zu group%s by environment", fl->nruns,
		fl->nruns == 1 ? "" : "s", fl->files, fl->files == 1 ? "" : "s", fl->ngroups,
		fl->ngroups == 1 ? "" : "s");
	if (fl->unread)
		fprintf(f, "; %zu file%s not read (said above)", fl->unread, fl->unread == 1 ? "" : "s");
	fputc('\n', f);
	per_run = xcalloc(fl->nruns ? fl->nruns : 1, sizeof(*per_run));
	put_answer(f, fl, per_run);
	put_top_runs(f, fl, per_run);
	free(per_run);
	fputs("\nEach figure, group by group:\n", f);
	for (size_t g = 0; g < fl->ngroups; g++)
		put_group(f, fl, g);
}
