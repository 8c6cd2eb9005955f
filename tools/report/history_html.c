// SPDX-License-Identifier: MIT
/*
 * `tp-report --history --html=DIR`: DIR/index.html, the changes as the
 * text says them, then one small time-series plot per figure that changed
 * (each machine's), its change points marked, drawn by one gnuplot script,
 * history.gp, from history.dat. At most HIST_HTML_CHARTS charts, so the
 * page stays within HIST_HTML_MAX_PX pixels tall. Record text reaches the
 * script only through gp_str() (plotter.c) and the page only through
 * table_text() (table.c); file names are numbers.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "history.h"
#include "outfile.h"
#include "plot.h"
#include "plotter.h"
#include "table.h"
#include "util.h"

#define HIST_PLOT_W 800
#define HIST_PLOT_H 220
/* A chart takes its height and about 60 px of caption and margin; the
 * page's text above them fits in HIST_HTML_TEXT_PX. */
#define HIST_HTML_MAX_PX 12000
#define HIST_HTML_TEXT_PX 1800
#define HIST_HTML_CHARTS ((HIST_HTML_MAX_PX - HIST_HTML_TEXT_PX) / (HIST_PLOT_H + 60))

/* One block of history.dat: run number and value, busy runs and gaps left out. */
static void put_block(FILE *dat, const struct history *h, const struct hist_machine *m, size_t fig)
{
	for (size_t i = 0; i < m->nruns; i++) {
		const struct hist_run *r = &h->runs[m->runs[i]];
		double v = hist_value(r, fig);

		if (!r->busy && isfinite(v))
			fprintf(dat, "%zu\t%.17g\n", i + 1, v);
	}
	fputs("\n\n", dat);
}

/* The chart of block k, history-K.png: the series, a red line before each change. */
static void put_chart(FILE *gp, const struct history *h, const struct hist_machine *m, size_t fig,
		      size_t k, const char *title)
{
	char out[64];

	fputs("unset arrow\n", gp);
	for (size_t i = 0; i < m->nch; i++)
		if (m->ch[i].fig == fig)
			fprintf(gp, "set arrow from %.1f, graph 0 to %.1f, graph 1 nohead "
				"lc rgb '#c03030' lw 2\n", (double)m->ch[i].at + 0.5, (double)m->ch[i].at + 0.5);
	snprintf(out, sizeof(out), "history-%04zu.png", k);
	fprintf(gp, "set xrange [0.5:%.1f]\nset title ", (double)m->nruns + 0.5);
	gp_str(gp, title);
	fputs(" noenhanced\nset ylabel ", gp);
	gp_str(gp, h->figs[fig].unit ? h->figs[fig].unit : "value");
	fputs(" noenhanced\nset output ", gp);
	gp_str(gp, out);
	fprintf(gp, "\nplot 'history.dat' index %zu using 1:2 with linespoints pt 7 ps 0.6 "
		"lc rgb '#3060a0'\nunset output\n", k);
}

static void put_script_head(FILE *gp)
{
	fputs("# SPDX-License-Identifier: MIT\n# Written by tp-report --history; run: gnuplot history.gp\n"
	      "set encoding utf8\nset datafile separator '\\t'\nset grid\nset key off\n"
	      "set xlabel 'run' noenhanced\n", gp);
	fprintf(gp, "if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {\n"
		"\tset terminal pngcairo size %d,%d noenhanced font 'sans,9'\n"
		"} else {\n\tset terminal png size %d,%d noenhanced\n}\n",
		HIST_PLOT_W, HIST_PLOT_H, HIST_PLOT_W, HIST_PLOT_H);
}

/* The answer as the text gives it, escaped, in a <pre>. */
static void put_answer(FILE *html, const struct history *h)
{
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);
	char *series;

	hist_print(mem, h);
	fclose(mem);
	/* the series are in the plots: only the answer is written */
	series = strstr(text, "\nSeries, machine ");
	if (series)
		*series = 0;
	fputs("<pre>", html);
	for (char *line = text, *nl; line && *line; line = nl ? nl + 1 : NULL) {
		nl = strchr(line, '\n');
		if (nl)
			*nl = 0;
		table_text(html, STYLE_HTML, line);
		fputc('\n', html);
	}
	fputs("</pre>\n", html);
	free(text);
}

/* Data, script and charts for every changed figure; how many were left undrawn. */
static size_t write_all(const struct history *h, FILE *dat, FILE *gp, FILE *html)
{
	size_t k = 0, left = 0;

	put_script_head(gp);
	put_answer(html, h);
	for (size_t mi = 0; mi < h->nmachines; mi++) {
		const struct hist_machine *m = &h->machines[mi];

		for (size_t fig = 0; fig < h->nfigs; fig++) {
			char *name, *fig_name;
			size_t i;

			for (i = 0; i < m->nch && m->ch[i].fig != fig; i++)
				;
			if (i == m->nch)
				continue;
			if (k == HIST_HTML_CHARTS) {
				left++;
				continue;
			}
			fig_name = hist_fig_name(&h->figs[fig]);
			name = xasprintf("%s: %s", h->runs[m->runs[0]].machine, fig_name);
			free(fig_name);
			put_block(dat, h, m, fig);
			put_chart(gp, h, m, fig, k, name);
			fprintf(html, "<figure><img alt=\"\" src=\"history-%04zu.png\"><figcaption>", k++);
			table_text(html, STYLE_HTML, name);
			fputs(": a red line before each change</figcaption></figure>\n", html);
			free(name);
		}
	}
	if (left)
		fprintf(html, "<p>%zu more changed figure%s not drawn (the page stays under %d px): "
			"the text has them.</p>\n", left, left == 1 ? "" : "s", HIST_HTML_MAX_PX);
	return k;
}

static FILE *open_in(const char *dir, const char *name)
{
	char *path = xasprintf("%s/%s", dir, name);
	FILE *f = outfile_open(path);

	free(path);
	return f;
}

int hist_html(const struct history *h, const char *dir)
{
	FILE *dat, *gp, *html;
	int err = plot_mkdir(dir), rc, bad;
	size_t charts = 0;

	if (err) {
		fprintf(stderr, "report: --html=%s: %s\n", dir, strerror(-err));
		return 1;
	}
	dat = open_in(dir, "history.dat");
	gp = open_in(dir, "history.gp");
	html = open_in(dir, "index.html");
	bad = !dat || !gp || !html;
	if (!bad) {
		fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
		      "<title>timeprobe history</title></head>\n<body>\n<h1>timeprobe history</h1>\n", html);
		charts = write_all(h, dat, gp, html);
		fputs("</body></html>\n", html);
		bad = outfile_close(dat) | outfile_close(gp) | outfile_close(html);
	} else {
		FILE *opened[] = { dat, gp, html };

		for (size_t i = 0; i < ARRAY_SIZE(opened); i++)
			if (opened[i])
				outfile_abort(opened[i]);
	}
	if (bad) {
		fprintf(stderr, "report: --html=%s: could not write the page\n", dir);
		return 1;
	}
	if (!charts)
		return 0;
	if (!plot_have_gnuplot()) {
		fprintf(stderr, "report: gnuplot not found: wrote %s/history.gp and history.dat, no images "
			"(install gnuplot-nox)\n", dir);
		return 0;
	}
	rc = plot_gnuplot(dir, "history.gp");
	if (rc)
		fprintf(stderr, "report: gnuplot %s/history.gp: exit %d\n", dir, rc);
	return rc ? 1 : 0;
}
