// SPDX-License-Identifier: MIT
/* Latency histograms; see plot_hist.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "plot_hist.h"

/*
 * The lines drawn over a histogram: the figures of the same result, in ns,
 * under the name wakeup or noise gives them.
 */
static const struct {
	const char *label;
	const char *keys[2];
} marks[] = {
	{ "p50", { "p50_ns", "p50_gap_ns" } },
	{ "p99", { "p99_ns", "p99_gap_ns" } },
	{ "p99.9", { "p999_ns", "p999_gap_ns" } },
	{ "max", { "max_ns", "max_gap_ns" } },
};

/* A mark's value in µs for this result, or NAN. */
static double mark_us(const struct result *r, size_t m)
{
	for (size_t k = 0; k < ARRAY_SIZE(marks[m].keys); k++) {
		double v = rec_num(r, marks[m].keys[k]);

		if (isfinite(v) && v > 0)
			return v / 1000;
	}
	return NAN;
}

struct hist_chart {
	struct sbuf plot;	/* the plot command's series */
	struct sbuf sets;	/* the marks: arrows and labels */
	double xmin, xmax;	/* µs, over buckets and marks */
	long long ymax;		/* the largest count */
	size_t blocks;
	double width_us;
};

/* One run's buckets as block k of dat: "centre_us count" lines. */
static void hist_block(FILE *dat, const struct run *run, const struct hist *h,
		       struct hist_chart *c)
{
	const char *key;
	json_t *val;

	fputs("# ", dat);
	dat_str(dat, run->label, SIZE_MAX);
	fputs("\n# bucket_us\tcount\n", dat);
	json_object_foreach(h->counts, key, val) {
		double x = (strtod(key, NULL) + 0.5) * (double)h->width_ns / 1000;
		long long n = (long long)json_integer_value(val);

		if (n <= 0 || !isfinite(x) || x <= 0)
			continue;
		fprintf(dat, "%.10g\t%lld\n", x, n);
		c->xmin = fmin(c->xmin, x);
		c->xmax = fmax(c->xmax, x);
	}
	fputs("\n\n", dat);
}

/* The series of block k (boxes or impulses with a point on each) and its marks. */
static void hist_series(struct hist_chart *c, const char *file, const struct run *run,
			const struct result *r, int logx)
{
	struct sbuf label = { 0 };
	size_t k = c->blocks, lc = k + 1;

	sbuf_adds(&c->plot, k ? ", \\\n\t" : "");
	gp_quote(&c->plot, file);
	sbuf_addf(&c->plot, " index %zu using 1:2 with %s lc %zu title ", k,
		  logx ? "impulses lw 2" : "boxes", lc);
	sbuf_addf(&label, "%s (overflow %llu)", run->label, (unsigned long long)r->hist.overflow);
	gp_quote(&c->plot, label.s);
	sbuf_adds(&c->plot, ", \\\n\t");
	gp_quote(&c->plot, file);
	sbuf_addf(&c->plot, " index %zu using 1:2 with points pt 7 ps 0.5 lc %zu notitle", k, lc);
	for (size_t m = 0; m < ARRAY_SIZE(marks); m++) {
		double x = mark_us(r, m);

		if (!isfinite(x))
			continue;
		c->xmin = fmin(c->xmin, x);
		c->xmax = fmax(c->xmax, x);
		sbuf_addf(&c->sets, "set arrow from %.10g, graph 0 to %.10g, graph 0.88 nohead dt 2 "
			  "lw 1.5 lc %zu\nset label ", x, x, lc);
		gp_quote(&c->sets, marks[m].label);
		/* staggered, so marks close together stay readable */
		sbuf_addf(&c->sets, " at %.10g, graph %.2f center tc lt %zu\n", x,
			  0.97 - 0.03 * (double)((m + k * ARRAY_SIZE(marks)) % 3), lc);
	}
	c->blocks++;
	sbuf_free(&label);
}

/* The run's histogram of result id, or NULL. */
static const struct result *hist_of(const struct run *run, const char *id)
{
	long i = run_find_result(run, id);
	const struct result *r = i < 0 ? NULL : &run->res[i];

	return r && r->hist.width_ns > 0 && json_object_size(r->hist.counts) ? r : NULL;
}

/* Over every run: the smallest and largest bucket and mark, µs. */
static void hist_range(const struct report *rp, const char *id, struct hist_chart *c)
{
	for (size_t ri = 0; ri < rp->nruns; ri++) {
		const struct result *r = hist_of(&rp->runs[ri], id);
		const char *key;
		json_t *val;

		if (!r)
			continue;
		c->width_us = c->width_us ? c->width_us : (double)r->hist.width_ns / 1000;
		json_object_foreach(r->hist.counts, key, val) {
			double x = (strtod(key, NULL) + 0.5) * (double)r->hist.width_ns / 1000;

			if (json_integer_value(val) > 0 && isfinite(x) && x > 0) {
				c->xmin = fmin(c->xmin, x);
				c->xmax = fmax(c->xmax, x);
				if (json_integer_value(val) > c->ymax)
					c->ymax = (long long)json_integer_value(val);
			}
		}
		for (size_t m = 0; m < ARRAY_SIZE(marks); m++) {
			double x = mark_us(r, m);

			if (isfinite(x)) {
				c->xmin = fmin(c->xmin, x);
				c->xmax = fmax(c->xmax, x);
			}
		}
	}
}

/* Tails span decades: a log x axis once the largest is 50 times the smallest. */
#define HIST_LOGX_SPAN 50

static void hist_script(FILE *gp, const char *base, const struct result *any,
			const struct report *rp, const struct hist_chart *c, int logx)
{
	char *what = xasprintf("%s %s: latency histogram", any->probe, any->name);
	char *title = plot_title(rp, what);
	char *ylabel = xasprintf("samples per %g µs bucket (log scale)", c->width_us);
	/* the identity would overflow the title: under the axis instead */
	char *xlabel = xasprintf("latency (µs%s)%s%s", logx ? ", log scale" : "",
				 *any->ident ? "; " : "", any->ident);

	gp_begin(gp, base, title, xlabel, ylabel, 0);
	/* a floor below 1: a bucket of one sample stands above the axis; room above for the marks */
	fprintf(gp, "set logscale y 10\nset yrange [0.5:%lld]\n"
		"set style fill transparent solid 0.5 noborder\n", c->ymax * 8);
	if (logx)
		fprintf(gp, "set logscale x 10\nset xrange [%.10g:%.10g]\n", c->xmin / 1.5,
			c->xmax * 1.5);
	else
		fprintf(gp, "set boxwidth %.10g absolute\nset xrange [0:%.10g]\n", c->width_us * 0.9,
			c->xmax * 1.05 + c->width_us);
	fputs(c->sets.s ? c->sets.s : "", gp);
	fprintf(gp, "plot %s", c->plot.s);
	free(what);
	free(title);
	free(ylabel);
	free(xlabel);
}

static char *hist_caption(const struct result *any, const struct hist_chart *c)
{
	return xasprintf("Latency histogram of %s %s%s%s: samples per %g µs bucket on a log "
			 "scale, every non-empty bucket drawn (one sample stands above the axis); "
			 "dashed lines: p50, p99, p99.9 and max of each run; overflow: samples "
			 "beyond the histogram's range.", any->probe, any->name,
			 *any->ident ? " " : "", any->ident, c->width_us);
}

static void plot_hist_one(struct plotter *p, const char *id, const struct result *any, size_t n)
{
	const struct report *rp = p->rp;
	char *base = plot_name("hist", n, any->probe);
	char *file = xasprintf("%s.dat", base), *gpf = xasprintf("%s.gp", base), *caption;
	struct hist_chart c = { .xmin = INFINITY, .xmax = 0 };
	FILE *dat = NULL, *gp;
	int logx;

	hist_range(rp, id, &c);
	/* no bucket with a count (a damaged record's): no chart, no axis of nothing */
	if (c.ymax < 1 || !isfinite(c.xmin) || !(dat = plot_open(p, file)))
		goto out;
	logx = c.xmax > HIST_LOGX_SPAN * c.xmin;
	for (size_t ri = 0; ri < rp->nruns; ri++) {
		const struct result *r = hist_of(&rp->runs[ri], id);

		if (!r)
			continue;
		hist_block(dat, &rp->runs[ri], &r->hist, &c);
		hist_series(&c, file, &rp->runs[ri], r, logx);
	}
	if (plot_close(p, dat) || !c.blocks || !(gp = plot_open(p, gpf)))
		goto out;
	hist_script(gp, base, any, rp, &c, logx);
	caption = hist_caption(any, &c);
	gp_end(p, gp, base, caption, 0, NULL);
	free(caption);
	plot_close(p, gp);
out:
	free(base);
	free(file);
	free(gpf);
	sbuf_free(&c.plot);
	sbuf_free(&c.sets);
}

void plot_hists(struct plotter *p)
{
	const struct report *rp = p->rp;
	json_t *done = json_object();
	size_t n = 0;

	for (size_t ri = 0; ri < rp->nruns; ri++) {
		const struct run *run = &rp->runs[ri];

		for (size_t i = 0; i < run->nres; i++) {
			const struct result *r = &run->res[i];

			if (json_object_get(done, r->id) ||
			    !json_is_object(json_object_get(r->first, "hist")))
				continue;
			json_object_set_new(done, r->id, json_true());
			plot_hist_one(p, r->id, r, ++n);
		}
	}
	json_decref(done);
}
