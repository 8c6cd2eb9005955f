// SPDX-License-Identifier: MIT
/*
 * A fleet as text: each group's figures (n, median, p5, p95, outliers),
 * then its outliers by name, then the runs that stand out most often; or
 * one run's standing (--place). Every string from a record is written as
 * a person may see it (sbuf_add_visible): no control character reaches
 * the terminal. See fleet.h.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fleet.h"
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

static void put_num(FILE *f, int width, double v)
{
	char buf[64];

	fmt_num(buf, sizeof(buf), v);
	fprintf(f, "%*s", width, isfinite(v) ? buf : "-");
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

/* Ratio of v to the median, as "10x", or "-" when the median is 0. */
static void put_ratio(FILE *f, double v, double median)
{
	if (median == 0 || !isfinite(median))
		fprintf(f, "%7s", "-");
	else
		put_num(f, 7, v / median);
	fputc('x', f);
}

static void put_fig_row(FILE *f, const struct fleet *fl, const struct fleet_series *s,
			const struct fleet_stats *st, size_t outliers)
{
	const struct fleet_fig *fg = &fl->figs[s->fig];
	char *name = fleet_fig_name(fg);

	fprintf(f, "%6zu", st->n);
	put_num(f, 12, st->median);
	put_num(f, 12, st->p5);
	put_num(f, 12, st->p95);
	fprintf(f, "  %-6s%5zu  ", fg->unit ? fg->unit : "", outliers);
	put_visible(f, name);
	fputc('\n', f);
	free(name);
}

static size_t count_outliers(const struct fleet_series *s, const struct fleet_stats *st,
			     size_t *per_run)
{
	size_t n = 0;

	for (size_t i = 0; i < s->n; i++)
		if (fleet_is_outlier(s, st, s->v[i])) {
			n++;
			per_run[s->run[i]]++;
		}
	return n;
}

/* The group's outliers, figure by figure: value, ratio to the median, run. */
static void put_outliers(FILE *f, const struct fleet *fl, const struct fleet_group *g,
			 const struct fleet_stats *st)
{
	int any = 0;

	for (size_t i = 0; i < g->ns; i++) {
		const struct fleet_series *s = &g->s[i];
		const struct fleet_fig *fg = &fl->figs[s->fig];
		char *name = NULL;

		for (size_t k = 0; k < s->n; k++) {
			if (!fleet_is_outlier(s, &st[i], s->v[k]))
				continue;
			if (!any++)
				fprintf(f, "\nOutliers (robust z over %.1f: |value - median| / (1.4826 MAD), "
					"MAD 0: any other value; and a ratio to the median beyond what "
					"identical runs show, noise.h):\n", FLEET_OUTLIER_Z);
			if (!name) {
				name = fleet_fig_name(fg);
				fputs("  ", f);
				put_visible(f, name);
				fputc('\n', f);
			}
			put_num(f, 16, s->v[k]);
			fprintf(f, " %-6s", fg->unit ? fg->unit : "");
			put_ratio(f, s->v[k], st[i].median);
			fputs(" the median  ", f);
			put_run(f, &fl->runs[s->run[k]]);
			fputc('\n', f);
		}
		free(name);
	}
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

static void put_group(FILE *f, const struct fleet *fl, size_t gi, size_t *per_run)
{
	const struct fleet_group *g = &fl->groups[gi];
	struct fleet_stats *st = xcalloc(g->ns ? g->ns : 1, sizeof(*st));

	put_group_head(f, g, gi, fl->ngroups);
	fprintf(f, "%6s%12s%12s%12s  %-6s%5s  %s\n", "n", "median", "p5", "p95", "unit", "out",
		"figure");
	for (size_t i = 0; i < g->ns; i++) {
		fleet_stats_of(&g->s[i], &st[i]);
		put_fig_row(f, fl, &g->s[i], &st[i], count_outliers(&g->s[i], &st[i], per_run));
	}
	put_outliers(f, fl, g, st);
	free(st);
}

/* Run at's standing in its group: each figure's percentile rank, value, median. */
static void put_place(FILE *f, const struct fleet *fl, size_t at)
{
	const struct fleet_run *r = &fl->runs[at];
	const struct fleet_group *g = &fl->groups[r->group];

	fputs("Where ", f);
	put_run(f, r);
	fprintf(f, " stands among the %zu run%s of its group\n", g->nruns, g->nruns == 1 ? "" : "s");
	put_group_head(f, g, r->group, fl->ngroups);
	fprintf(f, "%6s%12s%12s%9s  %-6s  %s\n", "rank %", "value", "median", "ratio", "unit", "figure");
	for (size_t i = 0; i < g->ns; i++) {
		const struct fleet_series *s = &g->s[i];
		struct fleet_stats st;
		char *name;

		for (size_t k = 0; k < s->n; k++) {
			if (s->run[k] != at)
				continue;
			fleet_stats_of(s, &st);
			name = fleet_fig_name(&fl->figs[s->fig]);
			put_num(f, 6, fleet_rank(s, s->v[k]));
			put_num(f, 12, s->v[k]);
			put_num(f, 12, st.median);
			put_ratio(f, s->v[k], st.median);
			fprintf(f, "  %-6s  ", fl->figs[s->fig].unit ? fl->figs[s->fig].unit : "");
			put_visible(f, name);
			fputs(fleet_is_outlier(s, &st, s->v[k]) ? "  (outlier)\n" : "\n", f);
			free(name);
		}
	}
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
	for (size_t g = 0; g < fl->ngroups; g++)
		put_group(f, fl, g, per_run);
	put_top_runs(f, fl, per_run);
	free(per_run);
}
