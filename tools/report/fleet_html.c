// SPDX-License-Identifier: MIT
/*
 * `tp-report --fleet --html=DIR`: DIR/index.html opening with the outlier
 * table, then per group one distribution plot (the runs' values as an
 * empirical distribution, outliers marked) per figure with an outlier and
 * per verdict item, each declaring its size, and a table of every figure;
 * drawn by one gnuplot script, fleet.gp, from fleet.dat.
 * Record text reaches the script only through gp_str() (plotter.c) and the
 * page only through table_text() (table.c); file names are numbers.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fleet.h"
#include "outfile.h"
#include "plot.h"
#include "plotter.h"
#include "table.h"
#include "util.h"

#define FLEET_PLOT_W 800
#define FLEET_PLOT_H 260

static int dbl_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* One block of fleet.dat: value, fraction of runs at or below, outlier (1/0). */
static void put_block(FILE *dat, const struct fleet_series *s, const struct fleet_stats *st)
{
	double *v = xmalloc(s->n * sizeof(*v));

	memcpy(v, s->v, s->n * sizeof(*v));
	qsort(v, s->n, sizeof(*v), dbl_cmp);
	for (size_t i = 0; i < s->n; i++)
		fprintf(dat, "%.17g\t%.17g\t%d\n", v[i], (double)(i + 1) / (double)s->n,
			fleet_is_outlier(s, st, v[i]));
	fputs("\n\n", dat);
	free(v);
}

/* The chart of block k, fleet-K.png, in fleet.gp; lo, hi: its values' range. */
static void put_chart(FILE *gp, size_t k, const char *title, const char *unit, double lo,
		      double hi)
{
	char out[64];
	double pad = fabs(lo) / 100;

	/* one value only: a range around it, which gnuplot would otherwise warn of */
	if (lo == hi)
		fprintf(gp, "set xrange [%.17g:%.17g]\n", lo - (pad ? pad : 1), hi + (pad ? pad : 1));
	else
		fputs("set xrange [*:*]\n", gp);

	snprintf(out, sizeof(out), "fleet-%04zu.png", k);
	fputs("set title ", gp);
	gp_str(gp, title);
	fputs(" noenhanced\nset xlabel ", gp);
	gp_str(gp, unit ? unit : "value");
	fputs(" noenhanced\nset output ", gp);
	gp_str(gp, out);
	fprintf(gp, "\nplot 'fleet.dat' index %zu using 1:2 with steps lc rgb '#3060a0', "
		"'' index %zu using 1:($3 > 0 ? $2 : 1/0) with points pt 7 ps 1.3 lc rgb '#c03030'\n"
		"unset output\n", k, k);
}

static void put_script_head(FILE *gp)
{
	fputs("# SPDX-License-Identifier: MIT\n# Written by tp-report --fleet; run: gnuplot fleet.gp\n"
	      "set encoding utf8\nset datafile separator '\\t'\nset grid\nset key off\n"
	      "set ylabel 'fraction of runs at or below' noenhanced\nset yrange [0:1.05]\n", gp);
	fprintf(gp, "if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {\n"
		"\tset terminal pngcairo size %d,%d noenhanced font 'sans,9'\n"
		"} else {\n\tset terminal png size %d,%d noenhanced\n}\n",
		FLEET_PLOT_W, FLEET_PLOT_H, FLEET_PLOT_W, FLEET_PLOT_H);
}

static void put_group_heading(FILE *html, const struct fleet_group *g, size_t gi)
{
	fprintf(html, "<h2>Group %zu: %zu run%s</h2>\n<p>", gi + 1, g->nruns, g->nruns == 1 ? "" : "s");
	for (size_t k = 0; k < 4; k++) {
		fprintf(html, "%s%s ", k ? ", " : "", fleet_env_names[k]);
		table_text(html, STYLE_HTML, *g->env_key[k] ? g->env_key[k] : "-");
	}
	fputs("</p>\n", html);
}

/* Does series s get a plot: it has an outlier, or it is a verdict item. */
static int plotted(const struct fleet *fl, const struct fleet_series *s, const struct fleet_stats *st)
{
	if (!strcmp(fl->figs[s->fig].probe, "verdict"))
		return 1;
	for (size_t k = 0; k < s->n; k++)
		if (fleet_is_outlier(s, st, s->v[k]))
			return 1;
	return 0;
}

/* Block k of the data and script, and its figure on the page, its size declared. */
static void put_plot(const struct fleet *fl, const struct fleet_series *s,
		     const struct fleet_stats *st, size_t k, FILE *dat, FILE *gp, FILE *html)
{
	const struct fleet_fig *fg = &fl->figs[s->fig];
	char *name = fleet_fig_name(fg);

	put_block(dat, s, st);
	put_chart(gp, k, name, fg->unit, st->lo, st->hi);
	fputs("<figure><img alt=\"", html);
	table_text(html, STYLE_HTML, name);
	fprintf(html, "\" src=\"fleet-%04zu.png\" width=\"%d\" height=\"%d\"><figcaption>", k,
		FLEET_PLOT_W, FLEET_PLOT_H);
	table_text(html, STYLE_HTML, name);
	fprintf(html, ": n %zu, outliers in red</figcaption></figure>\n", st->n);
	free(name);
}

/* Every figure of group g: n, median, p5, p95, unit, outliers; a table, no plot. */
static void put_stats_table(FILE *html, const struct fleet *fl, const struct fleet_group *g)
{
	static const char *const titles[] = { "figure", "n", "median", "p5", "p95", "unit", "outliers" };
	struct table *t = table_new(ARRAY_SIZE(titles), titles);
	char num[64];

	for (size_t c = 1; c < 7; c++)
		if (c != 5)
			table_align(t, c, 'r');
	for (size_t i = 0; i < g->ns; i++) {
		const struct fleet_series *s = &g->s[i];
		size_t row = table_row(t), out = 0;
		struct fleet_stats st;
		char *name = fleet_fig_name(&fl->figs[s->fig]);
		fleet_stats_of(s, &st);
		for (size_t k = 0; k < s->n; k++)
			out += fleet_is_outlier(s, &st, s->v[k]);
		table_set(t, row, 0, name);
		table_setf(t, row, 1, "%zu", st.n);
		fmt_num(num, sizeof(num), st.median);
		table_set(t, row, 2, num);
		fmt_num(num, sizeof(num), st.p5);
		table_set(t, row, 3, num);
		fmt_num(num, sizeof(num), st.p95);
		table_set(t, row, 4, num);
		table_set(t, row, 5, fl->figs[s->fig].unit ? fl->figs[s->fig].unit : "");
		table_setf(t, row, 6, "%zu", out);
		free(name);
	}
	table_print(t, html, STYLE_HTML, "");
	table_free(t);
}

/* The outliers, the page's first table (fleet_outlier_table()). */
static void put_outliers(FILE *html, const struct fleet *fl)
{
	size_t *per_run = xcalloc(fl->nruns ? fl->nruns : 1, sizeof(*per_run));
	struct fleet_outlier *o;
	size_t n = fleet_outliers(fl, &o, per_run);
	struct table *t;

	fprintf(html, "<h2>Outliers: %zu</h2>\n", n);
	if (n) {
		t = fleet_outlier_table(fl, o, n, per_run);
		table_print(t, html, STYLE_HTML, "");
		table_free(t);
	} else {
		fputs("<p>No run stands out of its group beyond what identical runs show.</p>\n", html);
	}
	free(o);
	free(per_run);
}

/*
 * Data, script and page: the outliers; per group the plots of its figures
 * with an outlier and of its verdict items, then every figure's statistics.
 * Returns the number of charts.
 */
static size_t write_all(const struct fleet *fl, FILE *dat, FILE *gp, FILE *html)
{
	size_t k = 0;

	put_script_head(gp);
	put_outliers(html, fl);
	for (size_t gi = 0; gi < fl->ngroups; gi++) {
		const struct fleet_group *g = &fl->groups[gi];

		put_group_heading(html, g, gi);
		for (size_t i = 0; i < g->ns; i++) {
			struct fleet_stats st;

			fleet_stats_of(&g->s[i], &st);
			if (plotted(fl, &g->s[i], &st))
				put_plot(fl, &g->s[i], &st, k++, dat, gp, html);
		}
		put_stats_table(html, fl, g);
	}
	return k;
}

static FILE *open_in(const char *dir, const char *name)
{
	char *path = xasprintf("%s/%s", dir, name);
	FILE *f = outfile_open(path);

	free(path);
	return f;
}

int fleet_html(const struct fleet *fl, const char *dir)
{
	FILE *dat, *gp, *html;
	int err = plot_mkdir(dir), rc, bad;

	if (err) {
		fprintf(stderr, "report: --html=%s: %s\n", dir, strerror(-err));
		return 1;
	}
	dat = open_in(dir, "fleet.dat");
	gp = open_in(dir, "fleet.gp");
	html = open_in(dir, "index.html");
	bad = !dat || !gp || !html;
	if (!bad) {
		fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
		      "<title>timeprobe fleet</title></head>\n<body>\n<h1>timeprobe fleet</h1>\n", html);
		write_all(fl, dat, gp, html);
		fputs("</body></html>\n", html);
		bad = outfile_close(dat) | outfile_close(gp) | outfile_close(html);
	} else {
		/* one could not be created: none of them is put at its name */
		FILE *opened[] = { dat, gp, html };

		for (size_t i = 0; i < ARRAY_SIZE(opened); i++)
			if (opened[i])
				outfile_abort(opened[i]);
	}
	if (bad) {
		fprintf(stderr, "report: --html=%s: could not write the page\n", dir);
		return 1;
	}
	if (!plot_have_gnuplot()) {
		fprintf(stderr, "report: gnuplot not found: wrote %s/fleet.gp and fleet.dat, no images "
			"(install gnuplot-nox)\n", dir);
		return 0;
	}
	rc = plot_gnuplot(dir, "fleet.gp");
	if (rc)
		fprintf(stderr, "report: gnuplot %s/fleet.gp: exit %d\n", dir, rc);
	return rc ? 1 : 0;
}
