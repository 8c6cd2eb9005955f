// SPDX-License-Identifier: MIT
/*
 * Plots with gnuplot; see plot.h. Series of points (yield, Allan deviation)
 * and the offsets of CPU pairs (tscsync's), as the probes declare them
 * (show.h), are drawn here, histograms in plot_hist.c, bars in
 * plot_bars.c, all through plotter.c; running gnuplot is here.
 */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "plot_bars.h"
#include "plot_hist.h"
#include "plotter.h"
#include "show.h"

/* --- series of (x, y) points: yield and Allan deviation --------------------- */

struct point {
	double x, y, lo, hi;	/* lo, hi: the interval around y, or y itself */
};

static int cmp_point(const void *a, const void *b)
{
	const struct point *x = a, *y = b;

	return (x->x > y->x) - (x->x < y->x);
}

/* y's interval from the spec's keys; y itself where there is none (no bar). */
static void point_interval(const struct result *r, const struct show_series *s, struct point *pt)
{
	double lo = s->lokey ? rec_num(r, s->lokey) : NAN, hi = s->hikey ? rec_num(r, s->hikey) : NAN;
	int usable = isfinite(lo) && isfinite(hi) && lo <= pt->y && hi >= pt->y && (!s->logy || lo > 0);

	pt->lo = usable ? lo : pt->y;
	pt->hi = usable ? hi : pt->y;
}

static void series_name(struct sbuf *b, const struct run *run, const struct result *r,
			const struct show_series *s)
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

/* A probe's series plot, as it declares it (show.h). */
static void plot_series(struct plotter *p, const char *probe, const struct show_series *s)
{
	const struct report *rp = p->rp;
	json_t *series = json_object();	/* name -> index into pts */
	struct point **pts = NULL;
	size_t *npts = NULL, nser = 0, cap = 0, cap2 = 0;
	struct sbuf name = { 0 };
	char *file = xasprintf("%s.dat", s->base), *gpf = xasprintf("%s.gp", s->base);
	char *title = NULL;
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

			if (strcmp(r->probe, probe) || !isfinite(pt.x) || !isfinite(pt.y) ||
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
	if (!nser || !(dat = plot_open(p, file)))
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
	if (plot_close(p, dat) || !(gp = plot_open(p, gpf)))
		goto out;
	title = plot_title(rp, s->title);
	gp_begin(gp, s->base, title, s->xlabel, s->ylabel, 0);
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
	gp_end(p, gp, s->base, s->caption, 0, NULL);
	plot_close(p, gp);
out:
	for (size_t k = 0; k < nser; k++)
		free(pts[k]);
	free(pts);
	free(npts);
	free(file);
	free(gpf);
	free(title);
	sbuf_free(&name);
	json_decref(series);
}


/* --- pairs: the offset of each ordered CPU pair, its bound as error bars --- */

/* CPU numbers beyond this are a corrupt record, not a CPU. */
#define PLOT_CPU_MAX 65535

/* A CPU number of a pair result, or -1: only integers in range make a point. */
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

/* What the pairs plot draws: the probe's results as sp declares them. */
struct pairs_of {
	const char *probe;
	const struct show_pairs *sp;
};

/* A pair of the plot (tscsync's pre-OS pairs, `when` "pre-os", are not plotted). */
static int pair_of(const struct result *r, const struct pairs_of *po, struct cpu_pair *p)
{
	json_t *when = json_object_get(r->first, po->sp->when_key);
	const char *w = json_string_value(when);

	if (strcmp(r->probe, po->probe) || (when && (!w || strcmp(w, po->sp->when))))
		return 0;
	p->a = rec_cpu(r, po->sp->a_key);
	p->b = rec_cpu(r, po->sp->b_key);
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
static struct cpu_pair *all_pairs(const struct report *rp, const struct pairs_of *po,
				  size_t *npairs)
{
	json_t *seen = json_object();
	struct cpu_pair *pairs = NULL, p;
	size_t cap = 0;

	*npairs = 0;
	for (size_t ri = 0; ri < rp->nruns; ri++) {
		for (size_t i = 0; i < rp->runs[ri].nres; i++) {
			char key[48];

			if (!pair_of(&rp->runs[ri].res[i], po, &p))
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

/* Writes run's value and bound for pair p ("-" for none); 1 if it had them. */
static int pair_cells(FILE *dat, const struct run *run, const struct pairs_of *po,
		      struct cpu_pair p)
{
	struct cpu_pair q;

	for (size_t i = 0; i < run->nres; i++) {
		const struct result *r = &run->res[i];
		double off, bound;

		if (!pair_of(r, po, &q) || q.a != p.a || q.b != p.b)
			continue;
		off = rec_num(r, po->sp->key);
		bound = rec_num(r, po->sp->bound_key);
		if (!isfinite(off) || !isfinite(bound) || bound < 0)
			break;
		fprintf(dat, "\t%.10g\t%.10g", off, bound);
		return 1;
	}
	fputs("\t-\t-", dat);
	return 0;
}

static void pairs_script(FILE *gp, const struct report *rp, const struct show_pairs *sp,
			 const struct cpu_pair *pairs, size_t npairs, const int *has)
{
	struct sbuf b = { 0 };
	size_t shown = 0;
	char *title = plot_title(rp, sp->title), *dat = xasprintf("%s.dat", sp->base);

	gp_begin(gp, sp->base, title, sp->xlabel, sp->ylabel, 0);
	free(title);
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
		gp_str(gp, dat);
		fprintf(gp, " using ($1%+.4f):%zu:%zu with yerrorbars pointtype 7 title ", dx,
			2 + 2 * r, 3 + 2 * r);
		gp_str(gp, rp->runs[r].label);
	}
	free(dat);
	sbuf_free(&b);
}

/* The .dat file: a line per pair, then per run its value and bound. 1 if it failed. */
static int pairs_dat(struct plotter *p, const struct pairs_of *po, const struct cpu_pair *pairs,
		     size_t npairs, int *has)
{
	const struct report *rp = p->rp;
	char *name = xasprintf("%s.dat", po->sp->base);
	FILE *dat = plot_open(p, name);

	free(name);
	if (!dat)
		return 1;
	fprintf(dat, "# x\tthen per run: %s %s", po->sp->key, po->sp->bound_key);
	for (size_t r = 0; r < rp->nruns; r++) {
		fputs("\n# run ", dat);
		dat_str(dat, rp->runs[r].label, SIZE_MAX);
	}
	fputc('\n', dat);
	for (size_t k = 0; k < npairs; k++) {
		fprintf(dat, "%zu", k);
		for (size_t r = 0; r < rp->nruns; r++)
			has[r] |= pair_cells(dat, &rp->runs[r], po, pairs[k]);
		fputc('\n', dat);
	}
	return plot_close(p, dat) != 0;
}

static void plot_pairs(struct plotter *p, const char *probe, const struct show_pairs *sp)
{
	const struct report *rp = p->rp;
	const struct pairs_of po = { probe, sp };
	size_t npairs;
	struct cpu_pair *pairs = all_pairs(rp, &po, &npairs);
	int *has = xcalloc(rp->nruns, sizeof(*has));
	char *name = xasprintf("%s.gp", sp->base);
	FILE *gp;

	if (npairs && !pairs_dat(p, &po, pairs, npairs, has) && (gp = plot_open(p, name))) {
		pairs_script(gp, rp, sp, pairs, npairs, has);
		gp_end(p, gp, sp->base, sp->caption, 0, NULL);
		plot_close(p, gp);
	}
	free(name);
	free(has);
	free(pairs);
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

/*
 * Moves every file gnuplot drew in tmp to dir under its name, as
 * outfile.h does for ours (a rename replaces a symlink, never writes
 * through it), and removes tmp; 0 or -errno.
 */
static int move_drawn(const char *tmp, const char *dir)
{
	DIR *d = opendir(tmp);
	struct dirent *e;
	int err = d ? 0 : -errno;

	while (d && (e = readdir(d))) {
		char *from, *to;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		from = xasprintf("%s/%s", tmp, e->d_name);
		to = xasprintf("%s/%s", dir, e->d_name);
		if (rename(from, to) && !err)
			err = -errno;
		unlink(from);
		free(from);
		free(to);
	}
	if (d)
		closedir(d);
	if (rmdir(tmp) && !err)
		err = -errno;
	return err;
}

/*
 * gnuplot runs in a directory of its own made in dir (mkdtemp), finding the
 * script and its .dat files in dir through its loadpath; what it draws
 * there is then moved into dir. So its "set output" opens only files it
 * just made, never one planted at a chart's name.
 */
static int run_gnuplot(const char *dir, const char *script)
{
	char *tmp = xasprintf("%s/.gnuplot.XXXXXX", dir), *up;
	pid_t pid;
	int status, err;

	if (!mkdtemp(tmp)) {
		err = -errno;
		free(tmp);
		return err;
	}
	up = xasprintf("../%s", script);
	fflush(NULL);
	pid = fork();
	if (!pid) {
		if (chdir(tmp))
			_exit(126);
		execlp("gnuplot", "gnuplot", "-e", "set loadpath '..'", up, (char *)NULL);
		_exit(127);
	}
	err = pid < 0 || waitpid(pid, &status, 0) < 0 ? -errno : 0;
	if (!err)
		err = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	status = move_drawn(tmp, dir);
	free(up);
	free(tmp);
	return err ? err : status;
}


int plot_write(const struct report *rp, const char *dir, struct charts *out)
{
	struct plotter p = { .rp = rp, .dir = dir, .charts = out };
	int err = mkdir_p(dir);

	memset(out, 0, sizeof(*out));
	if (err) {
		fprintf(stderr, "report: --plot=%s: %s\n", dir, strerror(-err));
		return -1;
	}
	for (const struct show_of *s = show_builtin; s->probe; s++)
		if (s->d.bars)
			plot_bars(&p, s->probe, s->d.bars);
	for (const struct show_of *s = show_builtin; s->probe; s++)
		if (s->d.series)
			plot_series(&p, s->probe, s->d.series);
	for (const struct show_of *s = show_builtin; s->probe; s++)
		if (s->d.pairs)
			plot_pairs(&p, s->probe, s->d.pairs);
	plot_hists(&p);
	return p.failed ? -1 : (int)out->n;
}

int plot_report(const struct report *rp, const char *dir, struct charts *out)
{
	struct charts c;
	int n = plot_write(rp, dir, &c), failed = n < 0;

	if (n == 0)
		fprintf(stderr, "report: --plot=%s: nothing to plot\n", dir);
	if (n <= 0)
		goto out;
	if (!in_path("gnuplot")) {
		fprintf(stderr, "report: gnuplot not found: wrote %d .dat and .gp files to %s, "
			"no images (install gnuplot-nox)\n", n, dir);
		goto out;
	}
	for (size_t i = 0; i < c.n; i++) {
		char *script = xasprintf("%s.gp", c.v[i].base);
		int rc = run_gnuplot(dir, script);

		if (rc) {
			fprintf(stderr, "report: gnuplot %s/%s: exit %d\n", dir, script, rc);
			failed = 1;
		}
		free(script);
	}
out:
	if (out)
		*out = c;
	else
		charts_free(&c);
	return failed ? -1 : 0;
}

/* For charts drawn outside plot_report (fleet_html.c): see plot.h. */
int plot_mkdir(const char *dir)
{
	return mkdir_p(dir);
}

int plot_have_gnuplot(void)
{
	return in_path("gnuplot");
}

int plot_gnuplot(const char *dir, const char *script)
{
	return run_gnuplot(dir, script);
}
