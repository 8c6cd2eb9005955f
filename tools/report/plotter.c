// SPDX-License-Identifier: MIT
/* The plots' files, quoting and scripts; see plotter.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "outfile.h"
#include "plotter.h"

FILE *plot_open(struct plotter *p, const char *name)
{
	char *path = xasprintf("%s/%s", p->dir, name);
	FILE *f = outfile_open(path);

	if (!f)
		p->failed = 1;
	free(path);
	return f;
}

int plot_close(struct plotter *p, FILE *f)
{
	if (outfile_close(f)) {
		p->failed = 1;
		return -1;
	}
	return 0;
}

/*
 * The one way a string gets into a gnuplot script: a single-quoted literal,
 * where only '' is special (gnuplot 5, "Syntax": no backslash escapes, no
 * `command` or @macro substitution inside single quotes). gnuplot's scanner
 * takes a quote pair right after the opening quote, or right after another
 * pair, for the string's end: such a quote gets a space before it. Control
 * characters become spaces: a newline would end the command.
 */
void gp_quote(struct sbuf *b, const char *s)
{
	int after_quote = 1;

	sbuf_adds(b, "'");
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '\'') {
			sbuf_adds(b, after_quote ? " ''" : "''");
			after_quote = 1;
			continue;
		}
		sbuf_add(b, c < 0x20 || c == 0x7f ? " " : s, 1);
		after_quote = 0;
	}
	sbuf_adds(b, "'");
}

void gp_str(FILE *f, const char *s)
{
	struct sbuf b = { 0 };

	gp_quote(&b, s);
	fputs(b.s, f);
	sbuf_free(&b);
}

/* A text field of a .dat file: the separator and line ends would split it. */
void dat_str(FILE *f, const char *s, size_t n)
{
	for (size_t i = 0; i < n && s[i]; i++) {
		unsigned char c = (unsigned char)s[i];

		fputc(c < 0x20 || c == 0x7f ? ' ' : c, f);
	}
}

/*
 * A file name for a chart: never record text, only letters, digits, '-'
 * and '_' from it (others become '_'), at most PLOT_SLUG_MAX of them, after
 * a counter that keeps names apart: "hist-03-wakeup".
 */
#define PLOT_SLUG_MAX 32

char *plot_name(const char *kind, size_t n, const char *text)
{
	struct sbuf b = { 0 };

	sbuf_addf(&b, "%s-%02zu-", kind, n);
	for (size_t i = 0; text[i] && i < PLOT_SLUG_MAX; i++) {
		char c = text[i];
		int safe = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			   (c >= '0' && c <= '9') || c == '-' || c == '_';

		sbuf_add(&b, safe ? &c : "_", 1);
	}
	return sbuf_take(&b);
}

/* "set output" and "plot" name files through gp_quote too, though we made the names */
static void gp_output(FILE *f, const char *base, const char *ext)
{
	char *file = xasprintf("%s%s", base, ext);

	gp_str(f, file);
	fputc('\n', f);
	free(file);
}

void gp_begin(FILE *f, const char *base, const char *title, const char *xlabel,
	      const char *ylabel, int h)
{
	fputs("# SPDX-License-Identifier: MIT\n# Written by tp-report; run: gnuplot <this file>\n", f);
	fputs("set encoding utf8\nset datafile separator '\\t'\nset datafile missing '-'\n", f);
	fputs("set grid\nset key outside top center horizontal noenhanced\n", f);
	fputs("set title ", f);
	gp_str(f, title);
	fputs(" noenhanced\nset xlabel ", f);
	gp_str(f, xlabel);
	fputs(" noenhanced\nset ylabel ", f);
	gp_str(f, ylabel);
	fprintf(f, " noenhanced\nset terminal svg size %d,%d dynamic noenhanced font 'sans,10'\n",
		PLOT_W, h ? h : PLOT_H);
	fputs("set output ", f);
	gp_output(f, base, ".svg");
}

static void charts_add(struct charts *c, const char *base, const char *caption)
{
	grow(&c->v, &c->cap, c->n + 1, sizeof(*c->v));
	c->v[c->n].base = xstrdup(base);
	c->v[c->n++].caption = xstrdup(caption);
}

/* The plot command has been written to SVG: draw it again as PNG. */
void gp_end(struct plotter *p, FILE *f, const char *base, const char *caption, int h,
	    const char *body)
{
	h = h ? h : PLOT_H;
	fprintf(f, "\nif (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {\n"
		"\tset terminal pngcairo size %d,%d noenhanced font 'sans,10'\n"
		"} else {\n\tset terminal png size %d,%d noenhanced\n}\n"
		"set output ", PLOT_W, h, PLOT_W, h);
	gp_output(f, base, ".png");
	fputs(body ? body : "replot\n", f);
	fputs("unset output\n", f);
	charts_add(p->charts, base, caption);
}

void charts_free(struct charts *c)
{
	for (size_t i = 0; i < c->n; i++) {
		free(c->v[i].base);
		free(c->v[i].caption);
	}
	free(c->v);
	memset(c, 0, sizeof(*c));
}

double rec_num(const struct result *r, const char *key)
{
	struct agg a;

	result_agg(r, key, &a);
	return a.n ? a.mean : NAN;
}

char *plot_title(const struct report *rp, const char *what)
{
	struct sbuf b = { 0 };

	/* several runs' labels would not fit a title: the key names them */
	if (rp->nruns == 1)
		sbuf_addf(&b, "%s, run %s", what, rp->runs[0].label);
	else
		sbuf_addf(&b, "%s, %zu runs (see the key)", what, rp->nruns);
	return sbuf_take(&b);
}
