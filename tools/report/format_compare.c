// SPDX-License-Identifier: MIT
/* Several runs side by side; see format_compare.h. */
#include <fnmatch.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cells.h"
#include "conditions.h"
#include "export.h"
#include "fold.h"
#include "verdict.h"
#include "format.h"
#include "format_compare.h"
#include "format_run.h"
#include "keys.h"
#include "schema.h"
#include "lead.h"
#include "lineup.h"
#include "sides.h"
#include "table.h"
#include "util.h"

/* --- comparison ----------------------------------------------------------- */

static void print_runs_table(FILE *f, const struct report *rp, enum style style)
{
	static const char *const titles[] = {
		"label", "file", "env", "machine", "kernel", "clocksource", "iterations", "end",
	};
	struct table *t = table_new(ARRAY_SIZE(titles), titles);
	struct sbuf b = { 0 };

	t->fold = 1;	/* read at 120 columns: what does not fit folds into a table below */
	for (size_t i = 0; i < rp->nruns; i++) {
		const struct run *run = &rp->runs[i];
		size_t row = table_row(t);

		table_set(t, row, 0, run->label);
		table_setf(t, row, 1, "%s#%d", run->file, run->seq);
		table_set(t, row, 2, run->head ? rec_str(run->head, "env") : "-");
		table_set(t, row, 3, run->head ? rec_str(run->head, "machine") : "-");
		table_set(t, row, 4, run->head ? rec_str(run->head, "kernel") : "-");
		table_set(t, row, 5, run->head ? rec_str(run->head, "clocksource") : "-");
		table_setf(t, row, 6, "%d", run->iterations ? run->iterations : 1);
		sbuf_reset(&b);
		end_summary(&b, run);
		table_set(t, row, 7, b.s);
	}
	fmt_heading(f, style, 2, "Runs");
	table_print(t, f, style, "  ");
	table_free(t);
	sbuf_free(&b);
}

/* Did some run combine intervals of several iterations (∩n, disjoint)? */
static int any_intersection(const struct report *rp)
{
	for (size_t i = 0; i < rp->nfigs; i++)
		for (size_t r = 0; r < rp->nruns; r++)
			if (rp->figs[i].per_run[r].combine != COMBINE_MEAN &&
			    rp->figs[i].per_run[r].n > 1)
				return 1;
	return 0;
}

/* A probe's heading: its name and how many of its figures line up (lineup.h). */
static void probe_heading(FILE *f, const struct report *rp, size_t first, enum style style)
{
	struct sbuf b = { 0 };
	struct lineup lu;

	lineup_of(rp, first, &lu);
	sbuf_addf(&b, "%s (", rp->figs[first].probe);
	lineup_say(&b, &lu);
	lineup_say_booted(&b, &lu);
	sbuf_adds(&b, ")");
	fmt_heading(f, style, 3, b.s);
	sbuf_free(&b);
}

/* A result's heading row; an as-booted one names each run's booted clocksource. */
static void group_title(struct table *t, const struct report *rp, const struct figure *fg)
{
	struct sbuf b = { 0 };

	sbuf_addf(&b, "%s%s%s", fg->name, *fg->ident ? "  " : "", fg->ident);
	if (fg->as_booted) {
		sbuf_adds(&b, ": ");
		lineup_booted(&b, rp);
	}
	table_group(t, b.s);
	sbuf_free(&b);
}

static void print_comparison(FILE *f, const struct report *rp, enum style style)
{
	size_t ncol = 1 + 2 * rp->nruns - 1;
	const char **titles = xcalloc(ncol, sizeof(*titles));
	struct table *t = NULL;
	const char *probe = NULL, *last = NULL;
	size_t first = 0;
	char *h;

	titles[0] = "result / figure";
	for (size_t i = 0, c = 1; i < rp->nruns; i++) {
		titles[c++] = rp->runs[i].label;
		if (i)
			titles[c++] = "ratio";
	}
	h = xasprintf("Figures: ratio = run / %s%s%s", rp->runs[0].label,
		      "; mean ±relative stddev where a run repeated",
		      any_intersection(rp) ? "; ∩n: the intersection of n proven intervals" : "");
	fmt_heading(f, style, 2, h);
	free(h);
	for (size_t i = 0; i <= rp->nfigs; i++) {
		const struct figure *fg = i < rp->nfigs ? &rp->figs[i] : NULL;
		size_t row;

		if (t && (!fg || strcmp(probe, fg->probe))) {
			probe_heading(f, rp, first, style);
			table_print(t, f, style, "  ");
			table_free(t);
			t = NULL;
		}
		if (!fg)
			break;
		if (!t) {
			t = table_new(ncol, titles);
			for (size_t c = 1; c < ncol; c++)
				table_align(t, c, 'r');
			probe = fg->probe;
			first = i;
			last = NULL;
		}
		if (!last || strcmp(last, fg->id)) {
			group_title(t, rp, fg);
			last = fg->id;
		}
		row = table_row(t);
		table_setf(t, row, 0, "  %s", fg->key);
		fmt_figure_cells(t, row, 1, rp, fg);
	}
	if (!rp->nfigs)
		fprintf(f, "  (no figures)\n");
	free(titles);
}

/* The lead, between sides where labels pool runs (sides.h), else between runs. */
void print_lead_sided(FILE *f, const struct report *rp, enum style style)
{
	struct report sides;

	if (!sides_build(rp, &sides)) {
		print_lead(f, rp, style);
		return;
	}
	print_lead(f, &sides, style);
	sides_free(&sides);
}

/* The lead in words (lead_words_print()), between sides where labels pool runs, else runs. */
void print_words_sided(FILE *f, const struct report *rp, enum style style)
{
	struct report sides;

	if (!sides_build(rp, &sides)) {
		lead_words_print(f, rp, style);
		return;
	}
	lead_words_print(f, &sides, style);
	sides_free(&sides);
}

void print_tables(FILE *f, const struct report *rp, enum style style, const struct out_opts *o)
{
	if (rp->nruns == 1) {
		print_run(f, rp, 0, style, o->full);
		return;
	}
	print_runs_table(f, rp, style);
	print_notes(f, rp, 0, rp->nruns, style);
	print_comparison(f, rp, style);
	for (size_t i = 0; o->tables && i < rp->nruns; i++) {
		fputc('\n', f);
		print_run(f, rp, i, style, o->full);
	}
}

