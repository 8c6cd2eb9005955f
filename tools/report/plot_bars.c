// SPDX-License-Identifier: MIT
/* Horizontal bar charts; see plot_bars.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "plot_bars.h"

/* Between two groups of rows, in rows. */
#define PANEL_GROUP_GAP 0.5

/* One panel: rows of bars, a value per row and run (NAN: none). */
struct panel {
	char **labels;		/* row names, record text */
	size_t *group;		/* rows of one group sit together, groups apart */
	double *v;		/* nrows x nruns */
	size_t nrows, cap;
	char *title;
};

static void panel_row(struct panel *pn, size_t nruns, const char *label, size_t group)
{
	if (pn->nrows == pn->cap) {
		pn->cap = pn->cap ? 2 * pn->cap : 16;
		pn->labels = xrealloc(pn->labels, pn->cap * sizeof(*pn->labels));
		pn->group = xrealloc(pn->group, pn->cap * sizeof(*pn->group));
		pn->v = xrealloc(pn->v, pn->cap * nruns * sizeof(*pn->v));
	}
	pn->labels[pn->nrows] = xstrdup(label);
	pn->group[pn->nrows] = group;
	for (size_t r = 0; r < nruns; r++)
		pn->v[pn->nrows * nruns + r] = NAN;
	pn->nrows++;
}

static void panel_free(struct panel *pn)
{
	for (size_t i = 0; i < pn->nrows; i++)
		free(pn->labels[i]);
	free(pn->labels);
	free(pn->group);
	free(pn->v);
	free(pn->title);
}

/* The smallest positive value of any panel: the bars start below it on a log axis. */
static double panels_floor(const struct panel *pn, size_t npanels, size_t nruns)
{
	double lo = INFINITY;

	for (size_t k = 0; k < npanels; k++)
		for (size_t i = 0; i < pn[k].nrows * nruns; i++)
			if (pn[k].v[i] > 0)
				lo = fmin(lo, pn[k].v[i]);
	return isfinite(lo) ? pow(10, floor(log10(lo))) : 1;
}

/* The decade above the largest value of any panel: the x axis ends there,
 * so a panel with no bar of its own still has a range. */
static double panels_ceiling(const struct panel *pn, size_t npanels, size_t nruns, double floor_v)
{
	double hi = 0;

	for (size_t k = 0; k < npanels; k++)
		for (size_t i = 0; i < pn[k].nrows * nruns; i++)
			if (isfinite(pn[k].v[i]) && pn[k].v[i] > hi)
				hi = pn[k].v[i];
	return hi > 0 ? fmax(pow(10, ceil(log10(hi) + 1e-9)), floor_v * 10) : floor_v * 10;
}

/*
 * Panel k's bars: block k * nruns + r of dat holds run r's "y value ylo
 * yhi", the first row on top; its plot command goes to body.
 */
/* Row i's place on the y axis: the first row on top, half a row between groups. */
static double row_y(const struct panel *pn, size_t i)
{
	size_t last = pn->nrows - 1;

	return (double)(last - i) + PANEL_GROUP_GAP * (double)(pn->group[last] - pn->group[i]);
}

static void panel_write(FILE *dat, struct sbuf *body, const char *file, const struct report *rp,
			const struct panel *pn, size_t k, double floor_v)
{
	size_t nruns = rp->nruns;
	double h = 0.8 / (double)nruns;

	sbuf_adds(body, "set ytics (");
	for (size_t i = 0; i < pn->nrows; i++) {
		sbuf_adds(body, i ? ", " : "");
		gp_quote(body, pn->labels[i]);
		sbuf_addf(body, " %g", row_y(pn, i));
	}
	/* one key, over the first panel */
	sbuf_addf(body, ")\nset yrange [-0.6:%g]\n%sset title ", row_y(pn, 0) + 0.6,
		  k == 1 ? "unset key\n" : "");
	gp_quote(body, pn->title);
	sbuf_adds(body, " noenhanced\nplot ");
	for (size_t r = 0; r < nruns; r++) {
		fputs("# ", dat);
		dat_str(dat, rp->runs[r].label, SIZE_MAX);
		fputs("\n# y\tvalue\tylo\tyhi\n", dat);
		/* a block with no bar still holds a line (an invalid point): gnuplot
		 * counts only blocks with data, and the next index would shift */
		fputs("0\tNaN\t0\t0\n", dat);
		for (size_t i = 0; i < pn->nrows; i++) {
			double v = pn->v[i * nruns + r];
			/* the runs side by side, the first on top */
			double y = row_y(pn, i) + ((double)(nruns - 1) / 2 - (double)r) * h;

			if (isfinite(v) && v > 0)
				fprintf(dat, "%.4f\t%.10g\t%.4f\t%.4f\n", y, v, y - h * 0.45, y + h * 0.45);
		}
		fputs("\n\n", dat);
		sbuf_adds(body, r ? ", \\\n\t" : "");
		gp_quote(body, file);
		sbuf_addf(body, " index %zu using (%.10g):2:(%.10g):2:3:4 with boxxyerror "
			  "fs solid 0.7 lc %zu title ", k * nruns + r, floor_v, floor_v, r + 1);
		gp_quote(body, rp->runs[r].label);
	}
	sbuf_adds(body, "\n");
}

/*
 * A chart's height in pixels: a title, each panel's frame and a row per bar
 * group. Held within BARS_MAX_PX, what a PNG canvas (cairo) can hold: more
 * rows than fit are not drawn (bars_max_rows()).
 */
#define BARS_MAX_PX 30000
static int bars_row_px(size_t nruns)
{
	return nruns > 2 ? 10 * (int)nruns : 22;
}

static size_t bars_max_rows(size_t nruns, size_t npanels)
{
	long room = BARS_MAX_PX - 140 - 90 * (long)npanels;

	return room > 0 ? (size_t)(room / bars_row_px(nruns)) : 0;
}

/* The chart of npanels panels, one above the other, each bar from floor_v on a log x axis. */
static void bars_chart(struct plotter *p, const char *base, struct panel *pn, size_t npanels,
		       const char *title, const char *xlabel, const char *caption,
		       const char *extra)
{
	const struct report *rp = p->rp;
	char *file = xasprintf("%s.dat", base), *gpf = xasprintf("%s.gp", base);
	double floor_v = panels_floor(pn, npanels, rp->nruns);
	struct sbuf body = { 0 };
	size_t rows = 0;
	FILE *dat = plot_open(p, file), *gp;
	int h;

	for (size_t k = 0; k < npanels; k++)
		rows += pn[k].nrows;
	h = (int)(140 + 90 * npanels + rows * (size_t)bars_row_px(rp->nruns));
	if (!dat)
		goto out;
	sbuf_addf(&body, "set multiplot layout %zu,1 title ", npanels);
	gp_quote(&body, title);
	sbuf_adds(&body, " noenhanced\n");
	for (size_t k = 0; k < npanels; k++)
		panel_write(dat, &body, file, rp, &pn[k], k, floor_v);
	sbuf_adds(&body, "unset multiplot\n");
	if (plot_close(p, dat) || !(gp = plot_open(p, gpf)))
		goto out;
	gp_begin(gp, base, title, xlabel, "", h);
	fprintf(gp, "set logscale x 10\nset xrange [%.10g:%.10g]\nunset grid\nset grid xtics\n"
		"set key top right noenhanced\nset ytics nomirror noenhanced\n", floor_v,
		panels_ceiling(pn, npanels, rp->nruns, floor_v));
	fputs(extra ? extra : "", gp);
	fputs(body.s, gp);
	gp_end(p, gp, base, caption, h, body.s);
	plot_close(p, gp);
out:
	sbuf_free(&body);
	free(file);
	free(gpf);
}

/* --- by name: a row per result, grouped by name -------------------------- */

/* s less pre before it and post after it, when it has both: its length, *s moved. */
static size_t strip_around(const char **s, const char *pre, const char *post)
{
	size_t n = strlen(*s), npre = pre ? strlen(pre) : 0, npost = post ? strlen(post) : 0;

	if (npre + npost && n >= npre + npost && !strncmp(*s, pre ? pre : "", npre) &&
	    !strcmp(*s + n - npost, post ? post : "")) {
		*s += npre;
		n -= npre + npost;
	}
	return n;
}

/*
 * "MONOTONIC vdso tsc" for clock_gettime(CLOCK_MONOTONIC) path=vdso
 * clocksource=tsc: the name less the declared words around it, then the
 * values of the identity's "k=v k=v" but skip_ident's.
 */
static void name_label(struct sbuf *b, const struct figure *fg, const struct show_bars *sb)
{
	const char *name = fg->name;
	size_t n = strip_around(&name, sb->name_pre, sb->name_post);

	sbuf_add(b, name, n);
	for (const char *p = fg->ident; *p; ) {
		const char *eq = strchr(p, '='), *sp = strchr(p, ' ');
		int skip = eq && (!sp || eq < sp) && sb->skip_ident &&
			   (size_t)(eq - p) == strlen(sb->skip_ident) &&
			   !strncmp(p, sb->skip_ident, (size_t)(eq - p));
		size_t len;

		if (eq && (!sp || eq < sp))
			p = eq + 1;
		len = sp ? (size_t)(sp - p) : strlen(p);
		if (!skip) {
			sbuf_adds(b, " ");
			sbuf_add(b, p, len);
		}
		p += len + (sp != NULL);
	}
}

/* The group of the k-th index in g's order. */
static size_t group_of(const struct groups *g, size_t k)
{
	size_t grp = 0;

	while (g->start[grp + 1] <= k)
		grp++;
	return grp;
}

static int is_bar(const struct figure *fg, const char *probe, const struct show_bars *sb)
{
	return !strcmp(fg->probe, probe) && !strcmp(fg->key, sb->key);
}

/* A row every run measured above 0: a log axis has no place for 0 (nor gnuplot a range). */
static int measured_row(const struct report *rp, const struct figure *fg)
{
	for (size_t r = 0; r < rp->nruns; r++)
		if (!fg->per_run[r].n || !(fg->per_run[r].mean > 0) || !isfinite(fg->per_run[r].mean))
			return 0;
	return 1;
}

static void bars_by_name(struct plotter *p, const char *probe, const struct show_bars *sb)
{
	const struct report *rp = p->rp;
	const char **names = xcalloc(rp->nfigs + 1, sizeof(*names));
	size_t *at = xcalloc(rp->nfigs + 1, sizeof(*at)), n = 0, all = 0;
	size_t max_rows = bars_max_rows(rp->nruns, 1);
	struct panel pn = { 0 };
	struct groups g;
	struct sbuf b = { 0 };
	char *title, *caption;

	for (size_t i = 0; i < rp->nfigs; i++) {
		int bar = is_bar(&rp->figs[i], probe, sb);

		all += bar;
		if (n < max_rows && bar && measured_row(rp, &rp->figs[i])) {
			names[n] = rp->figs[i].name;
			at[n++] = i;
		}
	}
	/* grouped by name, each group in the order first seen */
	group_strings(names, n, &g);
	for (size_t k = 0; k < n; k++) {
		const struct figure *fg = &rp->figs[at[g.idx[k]]];

		sbuf_reset(&b);
		name_label(&b, fg, sb);
		panel_row(&pn, rp->nruns, b.s, g.n ? group_of(&g, k) : 0);
		for (size_t r = 0; r < rp->nruns; r++)
			pn.v[(pn.nrows - 1) * rp->nruns + r] = fg->per_run[r].mean;
	}
	if (n) {
		pn.title = xstrdup(sb->group_title ? sb->group_title : "");
		title = plot_title(rp, sb->title);
		caption = xasprintf("%s; only the %zu of %zu rows every run measured above 0%s.",
				    sb->caption, n, all, n == max_rows ? ", as many as one chart can hold" : "");
		bars_chart(p, sb->base, &pn, 1, title, sb->xlabel, caption, NULL);
		free(title);
		free(caption);
	}
	panel_free(&pn);
	groups_free(&g);
	sbuf_free(&b);
	free(names);
	free(at);
}

/* --- by panel: a panel per value of a key ---------------------------------- */

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* "ITIMER_REAL load 4": the result's label_key, then label_num_key's name and value. */
static void panel_label(struct sbuf *b, const struct result *r, const struct show_bars *sb)
{
	json_t *label = sb->label_key ? json_object_get(r->first, sb->label_key) : NULL;
	json_t *num = sb->label_num_key ? json_object_get(r->first, sb->label_num_key) : NULL;

	sbuf_adds(b, json_is_string(label) ? json_string_value(label) : r->name);
	if (json_is_number(num))
		sbuf_addf(b, " %s %g", sb->label_num_key, json_num(num));
}

/* Row label's row in pn, added if new. */
static size_t panel_find_row(struct panel *pn, size_t nruns, const char *label)
{
	for (size_t i = 0; i < pn->nrows; i++)
		if (!strcmp(pn->labels[i], label))
			return i;
	panel_row(pn, nruns, label, 0);
	return pn->nrows - 1;
}

/* A result with a bar: the probe's, its panel key finite, its value above 0. */
static int panel_bar(const struct result *r, const char *probe, const struct show_bars *sb)
{
	return !strcmp(r->probe, probe) && isfinite(rec_num(r, sb->panel_key)) &&
	       rec_num(r, sb->key) > 0;
}

/* The distinct values of the panel key, ascending. */
static double *panel_values(const struct report *rp, const char *probe, const struct show_bars *sb,
			    size_t *n)
{
	double *v = NULL;
	size_t cap = 0;

	*n = 0;
	for (size_t ri = 0; ri < rp->nruns; ri++)
		for (size_t i = 0; i < rp->runs[ri].nres; i++) {
			const struct result *r = &rp->runs[ri].res[i];
			double x = rec_num(r, sb->panel_key);
			size_t k;

			if (!panel_bar(r, probe, sb))
				continue;
			for (k = 0; k < *n && v[k] != x; k++)
				;
			if (k == *n) {
				grow(&v, &cap, *n + 1, sizeof(*v));
				v[(*n)++] = x;
			}
		}
	if (*n)
		qsort(v, *n, sizeof(*v), cmp_double);
	return v;
}

static void bars_by_panel(struct plotter *p, const char *probe, const struct show_bars *sb)
{
	const struct report *rp = p->rp;
	size_t n;
	double *pv = panel_values(rp, probe, sb, &n);
	struct panel *pn = xcalloc(n ? n : 1, sizeof(*pn));
	struct sbuf b = { 0 };
	char *title, *mark = NULL;

	for (size_t k = 0; k < n; k++)
		pn[k].title = xasprintf("%s%g%s", sb->panel_pre ? sb->panel_pre : "", pv[k],
					sb->panel_post ? sb->panel_post : "");
	for (size_t ri = 0; ri < rp->nruns; ri++)
		for (size_t i = 0; i < rp->runs[ri].nres; i++) {
			const struct result *r = &rp->runs[ri].res[i];
			size_t k, row;

			if (!panel_bar(r, probe, sb))
				continue;
			for (k = 0; pv[k] != rec_num(r, sb->panel_key); k++)
				;
			sbuf_reset(&b);
			panel_label(&b, r, sb);
			row = panel_find_row(&pn[k], rp->nruns, b.s);	/* may move pn[k].v */
			pn[k].v[row * rp->nruns + ri] = rec_num(r, sb->key);
		}
	if (n) {
		title = plot_title(rp, sb->title);
		if (sb->mark_x != 0)
			mark = xasprintf("set arrow 1 from %g, graph 0 to %g, graph 1 nohead dt 2 lw 1.5 "
					 "lc rgb 'black'\n", sb->mark_x, sb->mark_x);
		bars_chart(p, sb->base, pn, n, title, sb->xlabel, sb->caption, mark);
		free(title);
		free(mark);
	}
	for (size_t k = 0; k < n; k++)
		panel_free(&pn[k]);
	free(pn);
	free(pv);
	sbuf_free(&b);
}

void plot_bars(struct plotter *p, const char *probe, const struct show_bars *sb)
{
	if (sb->kind == SHOW_BARS_BY_NAME)
		bars_by_name(p, probe, sb);
	else if (sb->kind == SHOW_BARS_BY_PANEL)
		bars_by_panel(p, probe, sb);
}
