// SPDX-License-Identifier: MIT
/* Plots with gnuplot; see plot.h. */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "plot.h"
#include "util.h"

#define PLOT_W 1000
#define PLOT_H 600

struct plotter {
	const struct report *rp;
	const char *dir;
	struct sbuf names;	/* scripts written, one per line */
	size_t nplots;
	int failed;
};

static FILE *open_in(struct plotter *p, const char *name)
{
	char *path = xasprintf("%s/%s", p->dir, name);
	FILE *f = fopen(path, "w");

	if (!f) {
		fprintf(stderr, "report: %s: %s\n", path, strerror(errno));
		p->failed = 1;
	}
	free(path);
	return f;
}

static int close_in(struct plotter *p, FILE *f, const char *name)
{
	if (fclose(f)) {
		fprintf(stderr, "report: %s/%s: %s\n", p->dir, name, strerror(errno));
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
static void gp_quote(struct sbuf *b, const char *s)
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

static void gp_str(FILE *f, const char *s)
{
	struct sbuf b = { 0 };

	gp_quote(&b, s);
	fputs(b.s, f);
	sbuf_free(&b);
}

/* A text field of a .dat file: the separator and line ends would split it. */
static void dat_str(FILE *f, const char *s, size_t n)
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

static char *plot_name(const char *kind, size_t n, const char *text)
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

/* Opens the script: labels, then SVG output; the plot command follows. */
static void gp_begin(FILE *f, const char *base, const char *title, const char *xlabel,
		     const char *ylabel)
{
	fputs("# SPDX-License-Identifier: MIT\n# Written by tp-report; run: gnuplot <this file>\n", f);
	fputs("set datafile separator '\\t'\nset datafile missing '-'\n", f);
	fputs("set grid\nset key outside top center horizontal noenhanced\n", f);
	fputs("set title ", f);
	gp_str(f, title);
	fputs(" noenhanced\nset xlabel ", f);
	gp_str(f, xlabel);
	fputs(" noenhanced\nset ylabel ", f);
	gp_str(f, ylabel);
	fprintf(f, " noenhanced\nset terminal svg size %d,%d dynamic noenhanced font 'sans,10'\n",
		PLOT_W, PLOT_H);
	fputs("set output ", f);
	gp_output(f, base, ".svg");
}

/* The plot command has been written to SVG: draw it again as PNG. */
static void gp_end(struct plotter *p, FILE *f, const char *base)
{
	fprintf(f, "\nif (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {\n"
		"\tset terminal pngcairo size %d,%d noenhanced font 'sans,10'\n"
		"} else {\n\tset terminal png size %d,%d noenhanced\n}\n"
		"set output ", PLOT_W, PLOT_H, PLOT_W, PLOT_H);
	gp_output(f, base, ".png");
	fputs("replot\nunset output\n", f);
	sbuf_addf(&p->names, "%s.gp\n", base);
	p->nplots++;
}

/* --- clock read cost: one bar per clock and run ---------------------------- */

/* "MONOTONIC vdso tsc" for clock_gettime(CLOCK_MONOTONIC) path=vdso clocksource=tsc */
static void clock_label(FILE *dat, const struct figure *fg)
{
	static const char prefix[] = "clock_gettime(CLOCK_";
	const char *name = fg->name;
	size_t n = strlen(name);

	if (!strncmp(name, prefix, sizeof(prefix) - 1) && name[n - 1] == ')') {
		name += sizeof(prefix) - 1;
		n -= sizeof(prefix);
	}
	dat_str(dat, name, n);
	for (const char *p = fg->ident; *p; ) {
		const char *eq = strchr(p, '='), *sp = strchr(p, ' ');
		size_t len;

		/* the values of "k=v k=v": "vdso tsc" */
		if (eq && (!sp || eq < sp))
			p = eq + 1;
		len = sp ? (size_t)(sp - p) : strlen(p);
		fputc(' ', dat);
		dat_str(dat, p, len);
		p += len + (sp != NULL);
	}
}

static void plot_clocks(struct plotter *p)
{
	const struct report *rp = p->rp;
	FILE *dat, *gp;
	size_t rows = 0;

	for (size_t i = 0; i < rp->nfigs; i++)
		rows += !strcmp(rp->figs[i].probe, "clocks") && !strcmp(rp->figs[i].key, "ns_per_call");
	if (!rows || !(dat = open_in(p, "clocks.dat")))
		return;
	fputs("clock", dat);
	for (size_t r = 0; r < rp->nruns; r++) {
		fputc('\t', dat);
		dat_str(dat, rp->runs[r].label, SIZE_MAX);
	}
	fputc('\n', dat);
	for (size_t i = 0; i < rp->nfigs; i++) {
		const struct figure *fg = &rp->figs[i];

		if (strcmp(fg->probe, "clocks") || strcmp(fg->key, "ns_per_call"))
			continue;
		clock_label(dat, fg);
		for (size_t r = 0; r < rp->nruns; r++) {
			if (fg->per_run[r].n)
				fprintf(dat, "\t%.10g", fg->per_run[r].mean);
			else
				fputs("\t-", dat);
		}
		fputc('\n', dat);
	}
	if (close_in(p, dat, "clocks.dat") || !(gp = open_in(p, "clocks.gp")))
		return;
	gp_begin(gp, "clocks", "Clock read cost", "", "ns per call");
	fputs("set style data histograms\nset style histogram clustered gap 1\n"
	      "set style fill solid 0.8 border -1\n"
	      "set logscale y 10\nset yrange [1:*]\n"
	      "set xtics rotate by -35 noenhanced\n"
	      "set bmargin 12\nset rmargin 14\nunset grid\nset grid ytics\n", gp);
	fputs("plot ", gp);
	gp_str(gp, "clocks.dat");
	fputs(" using 2:xtic(1) title columnheader(2)", gp);
	for (size_t r = 1; r < rp->nruns; r++)
		fprintf(gp, ", '' using %zu title columnheader(%zu)", r + 2, r + 2);
	gp_end(p, gp, "clocks");
	close_in(p, gp, "clocks.gp");
}

/* --- series of (x, y) points: itimer and yield ----------------------------- */

struct point {
	double x, y, lo, hi;	/* lo, hi: the interval around y, or y itself */
};

static int cmp_point(const void *a, const void *b)
{
	const struct point *x = a, *y = b;

	return (x->x > y->x) - (x->x < y->x);
}

struct series_spec {
	const char *probe;
	const char *base;	/* file names */
	const char *title, *xlabel, *ylabel;
	const char *xkey, *ykey;
	const char *const split[3];	/* string or number keys: one series per value */
	int logx, logy;
	const char *lokey, *hikey;	/* y's interval, drawn as error bars; NULL: none */
};

static const struct series_spec series_specs[] = {
	{ "itimer", "itimer", "Interval timer accuracy", "requested interval (us)",
	  "actual / requested (%)", "requested_us", "accuracy_pct", { "timer", "load" }, 1, 0, NULL, NULL },
	{ "yield", "yield", "sched_yield throughput", "threads", "yields per second (total)",
	  "threads", "total_per_s", { NULL }, 0, 0, NULL, NULL },
	/* drift's "adev REF tau Ts" results: one line per reference and run, each
	 * tau with its 68 % interval where the capture has one (adev_lo, adev_hi) */
	{ "drift", "adev", "Allan deviation of the TSC against each reference (68 % intervals)",
	  "tau (s)", "overlapping Allan deviation", "tau_s", "adev", { "ref" }, 1, 1,
	  "adev_lo", "adev_hi" },
};

/* A result's figure combined over its iterations (NAN: none, or contradicting intervals). */
static double rec_num(const struct result *r, const char *key)
{
	struct agg a;

	result_agg(r, key, &a);
	return a.n ? a.mean : NAN;
}

/* y's interval from the spec's keys; y itself where there is none (no bar). */
static void point_interval(const struct result *r, const struct series_spec *s, struct point *pt)
{
	double lo = s->lokey ? rec_num(r, s->lokey) : NAN, hi = s->hikey ? rec_num(r, s->hikey) : NAN;
	int usable = isfinite(lo) && isfinite(hi) && lo <= pt->y && hi >= pt->y && (!s->logy || lo > 0);

	pt->lo = usable ? lo : pt->y;
	pt->hi = usable ? hi : pt->y;
}

static void series_name(struct sbuf *b, const struct run *run, const struct result *r,
			const struct series_spec *s)
{
	json_t *first = r->first;

	sbuf_adds(b, run->label);
	for (size_t k = 0; k < ARRAY_SIZE(s->split) && s->split[k]; k++) {
		json_t *v = json_object_get(first, s->split[k]);

		if (json_is_string(v))
			sbuf_addf(b, " %s", json_string_value(v));
		else if (json_is_number(v))
			sbuf_addf(b, " %s=%g", s->split[k], json_num(v));
	}
}

static void plot_series(struct plotter *p, const struct series_spec *s)
{
	const struct report *rp = p->rp;
	json_t *series = json_object();	/* name -> index into pts */
	struct point **pts = NULL;
	size_t *npts = NULL, nser = 0, cap = 0, cap2 = 0;
	struct sbuf name = { 0 };
	char *file = xasprintf("%s.dat", s->base), *gpf = xasprintf("%s.gp", s->base);
	const char *key;
	json_t *val;
	FILE *dat, *gp;

	for (size_t ri = 0; ri < rp->nruns; ri++) {
		const struct run *run = &rp->runs[ri];

		for (size_t i = 0; i < run->nres; i++) {
			const struct result *r = &run->res[i];
			struct point pt = { rec_num(r, s->xkey), rec_num(r, s->ykey), 0, 0 };
			json_t *idx;
			size_t k;

			if (strcmp(r->probe, s->probe) || !isfinite(pt.x) || !isfinite(pt.y) ||
			    (s->logx && pt.x <= 0) || (s->logy && pt.y <= 0))
				continue;
			point_interval(r, s, &pt);
			sbuf_reset(&name);
			series_name(&name, run, r, s);
			idx = json_object_get(series, name.s);
			if (!idx) {
				grow(&pts, &cap, nser + 1, sizeof(*pts));
				grow(&npts, &cap2, nser + 1, sizeof(*npts));
				pts[nser] = NULL;
				npts[nser] = 0;
				json_object_set_new(series, name.s, json_integer((json_int_t)nser));
				k = nser++;
			} else {
				k = (size_t)json_integer_value(idx);
			}
			pts[k] = xrealloc(pts[k], (npts[k] + 1) * sizeof(**pts));
			pts[k][npts[k]++] = pt;
		}
	}
	if (!nser || !(dat = open_in(p, file)))
		goto out;
	/* one block per series, two blank lines apart: gnuplot's "index" */
	json_object_foreach(series, key, val) {
		size_t k = (size_t)json_integer_value(val);

		qsort(pts[k], npts[k], sizeof(**pts), cmp_point);
		fputs("# ", dat);
		dat_str(dat, key, SIZE_MAX);
		fputc('\n', dat);
		for (size_t i = 0; i < npts[k]; i++)
			fprintf(dat, "%.10g\t%.10g\t%.10g\t%.10g\n", pts[k][i].x, pts[k][i].y,
				pts[k][i].lo, pts[k][i].hi);
		fputs("\n\n", dat);
	}
	if (close_in(p, dat, file) || !(gp = open_in(p, gpf)))
		goto out;
	gp_begin(gp, s->base, s->title, s->xlabel, s->ylabel);
	if (s->logx)
		fputs("set logscale x 10\n", gp);
	if (s->logy)
		fputs("set logscale y 10\nset format y '%.0e'\n", gp);
	fputs("plot ", gp);
	json_object_foreach(series, key, val) {
		fputs(json_integer_value(val) ? ", \\\n\t" : "", gp);
		gp_str(gp, file);
		fprintf(gp, " index %lld using %s title ", (long long)json_integer_value(val),
			s->lokey ? "1:2:3:4 with yerrorlines" : "1:2 with linespoints");
		gp_str(gp, key);
	}
	gp_end(p, gp, s->base);
	close_in(p, gp, gpf);
out:
	for (size_t k = 0; k < nser; k++)
		free(pts[k]);
	free(pts);
	free(npts);
	free(file);
	free(gpf);
	sbuf_free(&name);
	json_decref(series);
}

/* --- tscsync: the offset of each ordered CPU pair, its bound as error bars - */

/* CPU numbers beyond this are a corrupt record, not a CPU. */
#define PLOT_CPU_MAX 65535

/* A CPU number of a tscsync pair result, or -1: only integers in range make a point. */
static long rec_cpu(const struct result *r, const char *key)
{
	json_t *v = json_object_get(r->first, key);

	if (!json_is_integer(v) || json_integer_value(v) < 0 ||
	    json_integer_value(v) > PLOT_CPU_MAX)
		return -1;
	return (long)json_integer_value(v);
}

struct cpu_pair {
	long a, b;
};

/* A post-boot pair (the stub's pre-OS pairs, `when` "pre-os", are not plotted). */
static int pair_of(const struct result *r, struct cpu_pair *p)
{
	json_t *when = json_object_get(r->first, "when");
	const char *w = json_string_value(when);

	if (strcmp(r->probe, "tscsync") || (when && (!w || strcmp(w, "post-boot"))))
		return 0;
	p->a = rec_cpu(r, "cpu_a");
	p->b = rec_cpu(r, "cpu_b");
	return p->a >= 0 && p->b >= 0;
}

static int cmp_pair(const void *x, const void *y)
{
	const struct cpu_pair *p = x, *q = y;

	if (p->a != q->a)
		return (p->a > q->a) - (p->a < q->a);
	return (p->b > q->b) - (p->b < q->b);
}

/* Every ordered pair any run measured, sorted: row A, then column B, as the probe prints them. */
static struct cpu_pair *tscsync_pairs(const struct report *rp, size_t *npairs)
{
	json_t *seen = json_object();
	struct cpu_pair *pairs = NULL, p;
	size_t cap = 0;

	*npairs = 0;
	for (size_t ri = 0; ri < rp->nruns; ri++) {
		for (size_t i = 0; i < rp->runs[ri].nres; i++) {
			char key[48];

			if (!pair_of(&rp->runs[ri].res[i], &p))
				continue;
			snprintf(key, sizeof(key), "%ld>%ld", p.a, p.b);
			if (json_object_get(seen, key))
				continue;
			json_object_set_new(seen, key, json_true());
			grow(&pairs, &cap, *npairs + 1, sizeof(*pairs));
			pairs[(*npairs)++] = p;
		}
	}
	json_decref(seen);
	if (*npairs)
		qsort(pairs, *npairs, sizeof(*pairs), cmp_pair);
	return pairs;
}

/* Writes run's offset and bound for pair p ("-" for none); 1 if it had them. */
static int tscsync_cells(FILE *dat, const struct run *run, struct cpu_pair p)
{
	struct cpu_pair q;

	for (size_t i = 0; i < run->nres; i++) {
		const struct result *r = &run->res[i];
		double off, bound;

		if (!pair_of(r, &q) || q.a != p.a || q.b != p.b)
			continue;
		off = rec_num(r, "offset_ns");
		bound = rec_num(r, "bound_ns");
		if (!isfinite(off) || !isfinite(bound) || bound < 0)
			break;
		fprintf(dat, "\t%.10g\t%.10g", off, bound);
		return 1;
	}
	fputs("\t-\t-", dat);
	return 0;
}

static void tscsync_script(FILE *gp, const struct report *rp, const struct cpu_pair *pairs,
			   size_t npairs, const int *has)
{
	struct sbuf b = { 0 };
	size_t shown = 0;

	gp_begin(gp, "tscsync", "TSC offset between CPUs: TSC_B - TSC_A, error bars: the proven bound",
		 "ordered pair A>B", "offset (ns)");
	fputs("set xzeroaxis lt -1\nset bars small\nset xtics rotate by -35\n", gp);
	fprintf(gp, "set xrange [-0.5:%zu.5]\nset xtics (", npairs - 1);
	for (size_t k = 0; k < npairs; k++) {
		sbuf_reset(&b);
		sbuf_addf(&b, "%ld>%ld", pairs[k].a, pairs[k].b);
		fputs(k ? ", " : "", gp);
		gp_str(gp, b.s);
		fprintf(gp, " %zu", k);
	}
	fputs(")\nplot ", gp);
	for (size_t r = 0; r < rp->nruns; r++) {
		/* runs side by side around each pair's tic */
		double dx = ((double)r - (double)(rp->nruns - 1) / 2) * 0.6 / (double)rp->nruns;

		if (!has[r])
			continue;
		fputs(shown++ ? ", \\\n\t" : "", gp);
		gp_str(gp, "tscsync.dat");
		fprintf(gp, " using ($1%+.4f):%zu:%zu with yerrorbars pointtype 7 title ", dx,
			2 + 2 * r, 3 + 2 * r);
		gp_str(gp, rp->runs[r].label);
	}
	sbuf_free(&b);
}

static void plot_tscsync(struct plotter *p)
{
	const struct report *rp = p->rp;
	size_t npairs;
	struct cpu_pair *pairs = tscsync_pairs(rp, &npairs);
	int *has = xcalloc(rp->nruns, sizeof(*has));
	FILE *dat, *gp;

	if (!npairs || !(dat = open_in(p, "tscsync.dat")))
		goto out;
	fputs("# x\tthen per run: offset_ns bound_ns", dat);
	for (size_t r = 0; r < rp->nruns; r++) {
		fputs("\n# run ", dat);
		dat_str(dat, rp->runs[r].label, SIZE_MAX);
	}
	fputc('\n', dat);
	for (size_t k = 0; k < npairs; k++) {
		fprintf(dat, "%zu", k);
		for (size_t r = 0; r < rp->nruns; r++)
			has[r] |= tscsync_cells(dat, &rp->runs[r], pairs[k]);
		fputc('\n', dat);
	}
	if (close_in(p, dat, "tscsync.dat") || !(gp = open_in(p, "tscsync.gp")))
		goto out;
	tscsync_script(gp, rp, pairs, npairs, has);
	gp_end(p, gp, "tscsync");
	close_in(p, gp, "tscsync.gp");
out:
	free(has);
	free(pairs);
}

/* --- latency histograms: one chart per result, one series per run --------- */

static void plot_hist_one(struct plotter *p, const char *id, const struct result *any, size_t n)
{
	const struct report *rp = p->rp;
	char *base = plot_name("hist", n, any->probe);
	char *file = xasprintf("%s.dat", base), *gpf = xasprintf("%s.gp", base);
	char *title = xasprintf("%s: %s %s", any->probe, any->name, any->ident);
	FILE *dat = open_in(p, file), *gp;
	size_t blocks = 0;
	struct sbuf plot = { 0 }, label = { 0 };

	if (!dat)
		goto out;
	for (size_t ri = 0; ri < rp->nruns; ri++) {
		const struct run *run = &rp->runs[ri];
		long i = run_find_result(run, id);
		const struct hist *h = i < 0 ? NULL : &run->res[i].hist;
		const char *key;
		json_t *val;

		if (!h || !h->width_ns || !json_object_size(h->counts))
			continue;
		fputs("# ", dat);
		dat_str(dat, run->label, SIZE_MAX);
		fputs("\n# bucket_us\tcount\n", dat);
		json_object_foreach(h->counts, key, val)
			fprintf(dat, "%.10g\t%lld\n", (strtod(key, NULL) + 0.5) * (double)h->width_ns / 1000,
				(long long)json_integer_value(val));
		fputs("\n\n", dat);
		sbuf_adds(&plot, blocks ? ", \\\n\t" : "");
		gp_quote(&plot, file);
		sbuf_addf(&plot, " index %zu using 1:2 with boxes title ", blocks);
		sbuf_reset(&label);
		sbuf_addf(&label, "%s (overflow %llu)", run->label, (unsigned long long)h->overflow);
		gp_quote(&plot, label.s);
		blocks++;
	}
	if (close_in(p, dat, file) || !blocks || !(gp = open_in(p, gpf)))
		goto out;
	gp_begin(gp, base, title, "latency (us)", "samples");
	fputs("set logscale y 10\nset style fill transparent solid 0.4 noborder\n"
	      "set boxwidth 0.9 relative\n", gp);
	fprintf(gp, "plot %s", plot.s);
	gp_end(p, gp, base);
	close_in(p, gp, gpf);
out:
	free(base);
	free(file);
	free(gpf);
	free(title);
	sbuf_free(&plot);
	sbuf_free(&label);
}

static void plot_hists(struct plotter *p)
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

/* --- running gnuplot ------------------------------------------------------ */

static int mkdir_p(const char *dir)
{
	char *d = xstrdup(dir);
	int err = 0;

	for (char *s = d + 1; ; s++) {
		if (*s && *s != '/')
			continue;
		char c = *s;

		*s = 0;
		if (mkdir(d, 0777) && errno != EEXIST)
			err = -errno;
		*s = c;
		if (!c || err)
			break;
	}
	free(d);
	return err;
}

static int in_path(const char *prog)
{
	const char *path = getenv("PATH");
	struct sbuf b = { 0 };
	int found = 0;

	while (path && !found) {
		size_t n = strcspn(path, ":");

		sbuf_reset(&b);
		sbuf_add(&b, n ? path : ".", n ? n : 1);
		sbuf_addf(&b, "/%s", prog);
		found = !access(b.s, X_OK);
		path = path[n] ? path + n + 1 : NULL;
	}
	sbuf_free(&b);
	return found;
}

static int run_gnuplot(const char *dir, const char *script)
{
	pid_t pid;
	int status;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -errno;
	if (!pid) {
		if (chdir(dir))
			_exit(126);
		execlp("gnuplot", "gnuplot", script, (char *)NULL);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0)
		return -errno;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

int plot_write(const struct report *rp, const char *dir, char **scripts)
{
	struct plotter p = { .rp = rp, .dir = dir };
	int err = mkdir_p(dir);

	*scripts = NULL;
	if (err) {
		fprintf(stderr, "report: --plot=%s: %s\n", dir, strerror(-err));
		return -1;
	}
	plot_clocks(&p);
	for (size_t i = 0; i < ARRAY_SIZE(series_specs); i++)
		plot_series(&p, &series_specs[i]);
	plot_tscsync(&p);
	plot_hists(&p);
	*scripts = sbuf_take(&p.names);
	return p.failed ? -1 : (int)p.nplots;
}

int plot_report(const struct report *rp, const char *dir)
{
	char *scripts, *line, *save = NULL;
	int n = plot_write(rp, dir, &scripts), failed = n < 0;

	if (n == 0)
		fprintf(stderr, "report: --plot=%s: nothing to plot\n", dir);
	if (n <= 0)
		goto out;
	if (!in_path("gnuplot")) {
		fprintf(stderr, "report: gnuplot not found: wrote %d .dat and .gp files to %s, "
			"no images (install gnuplot-nox)\n", n, dir);
		goto out;
	}
	for (line = strtok_r(scripts, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		int rc = run_gnuplot(dir, line);

		if (rc) {
			fprintf(stderr, "report: gnuplot %s/%s: exit %d\n", dir, line, rc);
			failed = 1;
		}
	}
out:
	free(scripts);
	return failed ? -1 : 0;
}
