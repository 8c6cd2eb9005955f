// SPDX-License-Identifier: MIT
/* The HTML page; see html.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cells.h"
#include "conditions.h"
#include "format.h"
#include "format_compare.h"
#include "format_run.h"
#include "html.h"
#include "lead.h"
#include "lineup.h"
#include "outfile.h"
#include "plot.h"
#include "table.h"
#include "verdict.h"

struct page {
	const struct report *rp;
	const struct source *src;
	size_t nsrc;
	const char *dir;
	struct out_opts o;	/* o.full: every column */
	struct charts charts;
};

static const char css[] =
	"body{font-family:sans-serif;margin:1.5em auto;max-width:1100px;padding:0 1em;color:#222}"
	"h1{font-size:1.5em}h2{font-size:1.25em;border-bottom:1px solid #ccc;margin:1.2em 0 .3em}"
	"h3{font-size:1.05em;margin:1em 0 .2em}h4{font-size:1em;margin:.8em 0 .2em}"
	"p.legend{font-size:.8em;color:#555;margin:.1em 0 .6em}"
	"section{white-space:pre-wrap}section table,section figure,section details{white-space:normal}"
	/* a table wider than the page scrolls in its own box */
	"table{border-collapse:collapse;margin:.3em 0;font-size:.85em;display:block;max-width:100%;"
	"overflow-x:auto}"
	"th,td{border:1px solid #ddd;padding:2px 6px;vertical-align:top}"
	"th{background:#f2f2f2;text-align:left}td.num{text-align:right;font-variant-numeric:tabular-nums}"
	"tr.group th{background:#e8eef7}"
	"td.w-good{background:#dff0d8}td.w-fair{background:#fcf8e3}"
	"td.w-poor{background:#f2dede;font-weight:bold}td.w-none{color:#777}"
	"details{margin:.4em 0}summary{cursor:pointer;font-weight:bold}"
	"figure{margin:1em 0}figure img{max-width:100%;border:1px solid #ddd}"
	"figcaption{font-size:.9em;color:#444}nav a{margin-right:1em}";

/* --- the sections, in page order ------------------------------------------ */

static void sec_conditions(FILE *f, struct page *pg)
{
	if (!conditions_print(f, pg->rp, STYLE_HTML))
		fputs("<h2>Conditions</h2>\nNone: every run ended, lost no records, had its CPUs "
		      "to itself and ran on no emulator.\n", f);
}

static void sec_verdict(FILE *f, struct page *pg)
{
	verdict_print(f, pg->rp, STYLE_HTML);
}

static void sec_lineup(FILE *f, struct page *pg)
{
	lineup_print(f, pg->rp, STYLE_HTML);
}

static void sec_lead(FILE *f, struct page *pg)
{
	print_lead_sided(f, pg->rp, STYLE_HTML);
}

static void sec_tables(FILE *f, struct page *pg)
{
	const struct report *rp = pg->rp;

	/* one run: its tables are the page; a comparison's fold like its runs' */
	fprintf(f, "<details%s><summary>Tables: every figure of %s</summary>\n",
		rp->nruns == 1 ? " open" : "", rp->nruns == 1 ? "the run" : "every run, lined up");
	print_tables(f, rp, STYLE_HTML, &pg->o);
	fputs("</details>\n", f);
	/* a comparison's runs, each folded: the page stays one to read */
	for (size_t i = 0; rp->nruns > 1 && i < rp->nruns; i++) {
		fputs("<details><summary>", f);
		fprintf(f, "Run %zu: ", i + 1);
		table_text(f, STYLE_HTML, rp->runs[i].label);
		fputs(", its own tables</summary>\n", f);
		print_run(f, rp, i, STYLE_HTML, pg->o.full);
		fputs("</details>\n", f);
	}
}

static void base64(FILE *f, const unsigned char *p, size_t n)
{
	static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

	for (size_t i = 0; i < n; i += 3) {
		unsigned v = (unsigned)p[i] << 16 | (i + 1 < n ? (unsigned)p[i + 1] << 8 : 0) |
			     (i + 2 < n ? p[i + 2] : 0);

		fputc(b64[v >> 18 & 63], f);
		fputc(b64[v >> 12 & 63], f);
		fputc(i + 1 < n ? b64[v >> 6 & 63] : '=', f);
		fputc(i + 2 < n ? b64[v & 63] : '=', f);
	}
}

/* The PNG of a chart as a data: URI; 0, or -1 where gnuplot drew none. */
static int embed_png(FILE *f, const char *dir, const char *base)
{
	char *path = xasprintf("%s/%s.png", dir, base);
	FILE *in = fopen(path, "rb");
	unsigned char buf[3 * 4096];
	size_t n;

	free(path);
	if (!in)
		return -1;
	fputs("data:image/png;base64,", f);
	/* whole groups of three bytes until the last read: no padding mid-stream */
	while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
		base64(f, buf, n);
	fclose(in);
	return 0;
}

static void figure_html(FILE *f, struct page *pg, size_t i)
{
	const struct chart *c = &pg->charts.v[i];

	fprintf(f, "<figure id=\"plot-%zu\">", i + 1);
	fputs("<img alt=\"", f);
	table_text(f, STYLE_HTML, c->caption);
	fputs("\" src=\"", f);
	/* without gnuplot no PNG: the file it would be, beside the page */
	if (embed_png(f, pg->dir, c->base))
		fprintf(f, "%s.png", c->base);
	fprintf(f, "\"><figcaption>Figure %zu. ", i + 1);
	table_text(f, STYLE_HTML, c->caption);
	fprintf(f, " (%s.gp, %s.dat)</figcaption></figure>", c->base, c->base);
}

/* A chart's group: its probe, the last word of its file name (hist-01-wakeup: wakeup). */
static const char *chart_group(const struct chart *c)
{
	const char *dash = strrchr(c->base, '-');

	return dash ? dash + 1 : c->base;
}

/* The plots, folded by probe: each group a <details> with its count. */
static void sec_plots(FILE *f, struct page *pg)
{
	fputs("<h2>Plots</h2>", f);
	if (!pg->charts.n)
		fputs("Nothing to plot in these runs.\n", f);
	for (size_t i = 0; i < pg->charts.n;) {
		const char *g = chart_group(&pg->charts.v[i]);
		size_t end = i;

		while (end < pg->charts.n && !strcmp(chart_group(&pg->charts.v[end]), g))
			end++;
		fputs("<details><summary>", f);
		table_text(f, STYLE_HTML, g);
		fprintf(f, ": %zu plot%s</summary>", end - i, end - i == 1 ? "" : "s");
		for (; i < end; i++)
			figure_html(f, pg, i);
		fputs("</details>\n", f);
	}
}

/*
 * The page's sections in order, each in a <section id=...>: a new one is
 * one row here. Each writes its own headings.
 */
static int always(const struct page *pg)
{
	(void)pg;
	return 1;
}

static int several(const struct page *pg)
{
	return pg->rp->nruns > 1;
}

static const struct {
	const char *id;
	void (*write)(FILE *f, struct page *pg);
	int (*shown)(const struct page *pg);	/* a section with nothing to say is left out */
} sections[] = {
	{ "conditions", sec_conditions, always },
	{ "verdict", sec_verdict, always },
	{ "lineup", sec_lineup, several },
	{ "differences", sec_lead, several },
	/* the summary first, then the plots and tables, each folded */
	{ "plots", sec_plots, always },
	{ "tables", sec_tables, always },
};

/* --- the page --------------------------------------------------------------- */

static void page_head(FILE *f, const struct page *pg)
{
	fprintf(f, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
		"<meta name=\"generator\" content=\"tp-report\">\n<title>timeprobe report</title>\n"
		"<style>%s</style></head>\n<body>\n<h1>timeprobe report: ", css);
	for (size_t r = 0; r < pg->rp->nruns; r++) {
		fputs(r ? ", " : "", f);
		table_text(f, STYLE_HTML, pg->rp->runs[r].label);
	}
	fputs("</h1>\n<p>From ", f);
	for (size_t i = 0; i < pg->nsrc; i++) {
		fputs(i ? ", " : "", f);
		table_text(f, STYLE_HTML, pg->src[i].path);
	}
	fputs(".</p>\n<nav>", f);
	for (size_t i = 0; i < ARRAY_SIZE(sections); i++)
		if (sections[i].shown(pg))
			fprintf(f, "<a href=\"#%s\">%s</a>", sections[i].id, sections[i].id);
	fputs("</nav>\n", f);
}

int html_report(const struct report *rp, const struct source *src, size_t nsrc, const char *dir,
		int full)
{
	struct page pg = { rp, src, nsrc, dir, { .format = FMT_TEXT, .full = full }, { 0 } };
	char *path;
	FILE *f;
	int failed = plot_report(rp, dir, &pg.charts) < 0;

	path = xasprintf("%s/index.html", dir);
	f = outfile_open(path);
	if (!f) {
		free(path);
		charts_free(&pg.charts);
		return -1;
	}
	page_head(f, &pg);
	for (size_t i = 0; i < ARRAY_SIZE(sections); i++) {
		if (!sections[i].shown(&pg))
			continue;
		fprintf(f, "<section id=\"%s\">", sections[i].id);
		sections[i].write(f, &pg);
		fputs("</section>\n", f);
	}
	fputs("</body></html>\n", f);
	if (outfile_close(f))
		failed = 1;
	free(path);
	charts_free(&pg.charts);
	return failed ? -1 : 0;
}
