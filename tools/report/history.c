// SPDX-License-Identifier: MIT
/* Reading a machine's runs and finding their changes: see history.h. */
#include <dirent.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "conditions.h"
#include "edivisive.h"
#include "export.h"
#include "history.h"
#include "judge.h"
#include "keys.h"
#include "model.h"
#include "noise.h"
#include "ratio.h"
#include "util.h"

const char *const hist_field_names[HIST_NFIELDS] = {
	"kernel", "firmware", "BIOS", "microcode", "clocksource", "cmdline", "idle driver", "accel",
};

/* Where each field is read: the fingerprint's key, else the run record's. */
static const char *const field_keys[HIST_NFIELDS][2] = {
	{ "kernel_release", "kernel" }, { "firmware_revision", NULL },
	{ "dmi_bios_version", NULL },   { "microcode", NULL },
	{ "clocksource", "clocksource" }, { NULL, "cmdline" },
	{ "cpuidle_driver", NULL },     { "accel", "accel" },
};

/* A JSON scalar as text: a string as is, a number, true or false; "" for anything else. */
static char *scalar(const json_t *v)
{
	if (json_is_string(v))
		return xstrdup(json_string_value(v));
	if (json_is_integer(v))
		return xasprintf("%lld", (long long)json_integer_value(v));
	if (json_is_real(v))
		return xasprintf("%g", json_real_value(v));
	if (json_is_boolean(v))
		return xstrdup(json_is_true(v) ? "true" : "false");
	return xstrdup("");
}

static void read_fields(struct hist_run *hr, const struct run *run)
{
	for (size_t k = 0; k < HIST_NFIELDS; k++) {
		const json_t *v = NULL;

		if (field_keys[k][0] && run->fingerprint)
			v = json_object_get(run->fingerprint, field_keys[k][0]);
		if ((!v || json_is_null(v)) && field_keys[k][1] && run->head)
			v = json_object_get(run->head, field_keys[k][1]);
		hr->fp[k] = scalar(v);
	}
}

/* The figure with this id, made when new. */
static size_t fig_of(struct history *h, const struct figure *fg, const struct key_decl *d)
{
	struct sbuf id = { 0 };
	json_t *i;

	sbuf_addf(&id, "%s\x1f%s\x1f%s", fg->probe, fg->id, fg->key);
	i = json_object_get(h->fig_index, id.s);
	if (i) {
		sbuf_free(&id);
		return (size_t)json_integer_value(i);
	}
	grow(&h->figs, &h->figcap, h->nfigs + 1, sizeof(*h->figs));
	h->figs[h->nfigs] = (struct hist_fig){
		xstrdup(fg->probe), xasprintf("%s%s%s", fg->name, *fg->ident ? " " : "", fg->ident),
		xstrdup(fg->key), d->unit ? xstrdup(d->unit) : NULL, d->dir, ratio_is_count(d), NULL, 1 };
	json_object_set_new(h->fig_index, id.s, json_integer((json_int_t)h->nfigs));
	sbuf_free(&id);
	return h->nfigs++;
}

/* The ratio a change of fg (hf) must exceed: its between-run term (noise.h),
 * never less than the lead's practical band (judge.h); looked up once per env. */
static float floor_of(const struct report *rp, const struct figure *fg, size_t ri,
		      struct hist_fig *hf)
{
	char buf[NOISE_ENV_MAX];
	const char *env = noise_env(rp->runs[ri].head, buf, sizeof(buf));
	double f, band = 1 + (hf->is_count ? JUDGE_BAND_COUNT : JUDGE_BAND);
	int measured;

	if (hf->env && !strcmp(hf->env, env ? env : ""))
		return hf->floor;
	f = noise_floor_of(rp, fg, ri, &measured);
	free(hf->env);
	hf->env = xstrdup(env ? env : "");
	hf->floor = (float)(f > band ? f : band);
	return hf->floor;
}

static int cmp_val(const void *a, const void *b)
{
	uint32_t x = ((const struct hist_val *)a)->fig, y = ((const struct hist_val *)b)->fig;

	return (x > y) - (x < y);
}

static const struct hist_val *val_of(const struct hist_run *r, size_t fig)
{
	size_t lo = 0, hi = r->nvals;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (r->vals[mid].fig == fig)
			return &r->vals[mid];
		if (r->vals[mid].fig < fig)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

double hist_value(const struct hist_run *r, size_t fig)
{
	const struct hist_val *v = val_of(r, fig);

	return v ? v->v : NAN;
}

/* Run ri of rp (read from one file): its identity, fields and headline values. */
static void add_run(struct history *h, const struct report *rp, size_t ri)
{
	const struct run *run = &rp->runs[ri];
	const char *id = export_str(run->head, "machine_id");
	struct sbuf cond = { 0 };
	struct hist_run *hr;

	if (!*id)
		id = export_str(run->head, "machine");
	if (h->only && strcmp(h->only, id))
		return;
	grow(&h->runs, &h->runcap, h->nruns + 1, sizeof(*h->runs));
	hr = &h->runs[h->nruns++];
	conditions_brief(run, &cond);
	*hr = (struct hist_run){ xstrdup(run->file), run->seq, xstrdup(id),
				 xstrdup(export_str(run->head, "machine")),
				 xstrdup(export_str(run->head, "start")), sbuf_take(&cond),
				 noise_run_busy(run), { NULL }, NULL, 0 };
	read_fields(hr, run);
	for (size_t i = 0; i < rp->nfigs; i++) {
		const struct figure *fg = &rp->figs[i];
		const struct agg *a = &fg->per_run[ri];
		const struct key_decl *d;
		size_t f;

		/* a figure bimodal or quantized by nature, or a signed one, has no ratio (fleet.c) */
		if (fg->as_booted || !a->n || !isfinite(a->mean) || !export_is_headline(fg, &d) ||
		    fg->uncert == KEY_CI_UNSTABLE || d->dir == KEY_DIR_ZERO)
			continue;
		f = fig_of(h, fg, d);
		if (!hr->vals)
			hr->vals = xmalloc(rp->nfigs * sizeof(*hr->vals));
		hr->vals[hr->nvals++] = (struct hist_val){ (uint32_t)f,
			floor_of(rp, fg, ri, &h->figs[f]), a->mean };
	}
	/* what is kept is the run's headline values, in figure order (hist_value()) */
	if (hr->nvals) {
		hr->vals = xrealloc(hr->vals, hr->nvals * sizeof(*hr->vals));
		qsort(hr->vals, hr->nvals, sizeof(*hr->vals), cmp_val);
	}
}

/* One file into the history through a report of its own, freed after. */
static void read_file(struct history *h, const char *path)
{
	struct report rp = { 0 };
	struct scan_stats st = { 0 };
	struct read_opts o = { .max_input = h->max_input };
	int err = report_read_file(&rp, path, &o, &st);

	h->files++;
	if (err || !rp.nruns) {
		warn_visible("report: --history: %s: %s\n", path,
			     err ? strerror(-err) : "no run in it (no TP1 run record or result)");
		h->unread++;
	} else {
		report_finish(&rp, NULL, 0);
		for (size_t ri = 0; ri < rp.nruns; ri++)
			add_run(h, &rp, ri);
	}
	report_free(&rp);
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every regular file of dir, in name order (hidden ones aside). */
static void read_dir(struct history *h, const char *dir, DIR *d)
{
	char **names = NULL;
	size_t n = 0, cap = 0;
	struct dirent *e;

	while ((e = readdir(d)) != NULL) {
		struct stat sb;
		char *p;

		if (e->d_name[0] == '.')
			continue;
		p = xasprintf("%s/%s", dir, e->d_name);
		if (stat(p, &sb) || !S_ISREG(sb.st_mode)) {
			free(p);
			continue;
		}
		grow(&names, &cap, n + 1, sizeof(*names));
		names[n++] = p;
	}
	closedir(d);
	qsort(names, n, sizeof(*names), name_cmp);
	for (size_t i = 0; i < n; i++) {
		read_file(h, names[i]);
		free(names[i]);
	}
	free(names);
}

void hist_read(struct history *h, const char *const *paths, size_t n)
{
	if (!h->fig_index)
		h->fig_index = json_object();
	for (size_t i = 0; i < n; i++) {
		DIR *d = opendir(paths[i]);

		if (d)
			read_dir(h, paths[i], d);
		else
			read_file(h, paths[i]);
	}
}

/* Runs in time order: by start time (ISO 8601 UTC sorts as text), then file, then number. */
static int cmp_run(const void *a, const void *b, void *ctx)
{
	const struct hist_run *x = &((const struct hist_run *)ctx)[*(const size_t *)a];
	const struct hist_run *y = &((const struct hist_run *)ctx)[*(const size_t *)b];
	int c = strcmp(x->start, y->start);

	if (!c)
		c = strcmp(x->file, y->file);
	return c ? c : (x->seq > y->seq) - (x->seq < y->seq);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The median of v[lo, hi) (work: room for hi - lo values). */
static double median_of(const double *v, size_t lo, size_t hi, double *work)
{
	size_t n = hi - lo;

	memcpy(work, v + lo, n * sizeof(*v));
	qsort(work, n, sizeof(*work), cmp_double);
	return n % 2 ? work[n / 2] : (work[n / 2 - 1] + work[n / 2]) / 2;
}

/* One figure's series on one machine: values, their logs, their runs. */
struct series {
	double *v, *x, *work;
	size_t *pos, n;
	double floor;		/* the largest of its runs' floors */
};

/* The series of figure fig over the machine's runs that are not busy. */
static void series_of(const struct history *h, const struct hist_machine *m, size_t fig,
		      struct series *s)
{
	s->n = 0;
	s->floor = 1;
	for (size_t i = 0; i < m->nruns; i++) {
		const struct hist_run *r = &h->runs[m->runs[i]];
		const struct hist_val *hv = r->busy ? NULL : val_of(r, fig);
		double v = hv ? hv->v : NAN;

		if (h->figs[fig].is_count && v < 1)
			v = 1;
		if (!(v > 0) || !isfinite(v))
			continue;
		s->v[s->n] = v;
		s->x[s->n] = log(v);
		s->pos[s->n++] = i;
		if (hv->floor > s->floor)
			s->floor = hv->floor;
	}
}

/* The log ratio at change c of cp[0, n): the medians of the segments either side. */
static double change_lr(const struct series *s, const size_t *cp, size_t n, size_t c,
			double *before, double *after)
{
	size_t lo = c ? cp[c - 1] : 0, hi = c + 1 < n ? cp[c + 1] : s->n;

	*before = median_of(s->v, lo, cp[c], s->work);
	*after = median_of(s->v, cp[c], hi, s->work);
	return log(*after / *before);
}

/* Drops, smallest first, every change within the series' floor; returns how many are left. */
static size_t beyond_floor(const struct series *s, size_t *cp, size_t n)
{
	while (n) {
		size_t least = 0;
		double lr = INFINITY, b, a;

		for (size_t c = 0; c < n; c++) {
			double l = fabs(change_lr(s, cp, n, c, &b, &a));

			if (l < lr) {
				lr = l;
				least = c;
			}
		}
		if (lr > log(s->floor))
			break;
		memmove(cp + least, cp + least + 1, (n - least - 1) * sizeof(*cp));
		n--;
	}
	return n;
}

/* The changes of figure fig on machine m, appended to m->ch. */
static void find_fig(const struct history *h, struct hist_machine *m, size_t fig, struct series *s,
		     size_t *cp, size_t *chcap)
{
	size_t n;

	series_of(h, m, fig, s);
	if (s->n < 2 * EDIV_MIN_RUNS)
		return;
	/* runs no further apart than the floor hold no change beyond it */
	n = beyond_floor(s, cp, ediv_changes(s->x, s->n, cp, s->n / EDIV_MIN_RUNS, log(s->floor)));
	for (size_t c = 0; c < n; c++) {
		struct hist_change ch = { fig, s->pos[cp[c]], s->pos[cp[c] - 1], 0, 0, s->floor };

		change_lr(s, cp, n, c, &ch.median_before, &ch.median_after);
		grow(&m->ch, chcap, m->nch + 1, sizeof(*m->ch));
		m->ch[m->nch++] = ch;
	}
}

/* Newest first; at one run, the largest ratio either way first. */
static int cmp_change(const void *a, const void *b)
{
	const struct hist_change *x = a, *y = b;
	double lx = fabs(log(x->median_after / x->median_before));
	double ly = fabs(log(y->median_after / y->median_before));

	if (x->at != y->at)
		return x->at < y->at ? 1 : -1;
	return (lx < ly) - (lx > ly);
}

static void find_machine(const struct history *h, struct hist_machine *m)
{
	struct series s = { xmalloc(m->nruns * sizeof(double)), xmalloc(m->nruns * sizeof(double)),
			    xmalloc(m->nruns * sizeof(double)), xmalloc(m->nruns * sizeof(size_t)), 0, 1 };
	size_t *cp = xmalloc(m->nruns * sizeof(*cp)), chcap = 0;

	qsort_r(m->runs, m->nruns, sizeof(*m->runs), cmp_run, h->runs);
	for (size_t f = 0; f < h->nfigs; f++)
		find_fig(h, m, f, &s, cp, &chcap);
	qsort(m->ch, m->nch, sizeof(*m->ch), cmp_change);
	free(s.v);
	free(s.x);
	free(s.work);
	free(s.pos);
	free(cp);
}

void hist_find(struct history *h)
{
	const char **ids = xmalloc((h->nruns ? h->nruns : 1) * sizeof(*ids));
	struct groups g;

	for (size_t i = 0; i < h->nruns; i++)
		ids[i] = h->runs[i].machine;
	group_strings(ids, h->nruns, &g);
	h->machines = xcalloc(g.n ? g.n : 1, sizeof(*h->machines));
	h->nmachines = g.n;
	for (size_t k = 0; k < g.n; k++) {
		struct hist_machine *m = &h->machines[k];

		m->nruns = g.start[k + 1] - g.start[k];
		m->runs = xmalloc(m->nruns * sizeof(*m->runs));
		memcpy(m->runs, g.idx + g.start[k], m->nruns * sizeof(*m->runs));
		find_machine(h, m);
	}
	groups_free(&g);
	free(ids);
}

char *hist_fig_name(const struct hist_fig *f)
{
	return xasprintf("%s %s: %s", f->probe, f->result, f->key);
}

const char *hist_change_word(const struct hist_fig *f, double ratio)
{
	int up = ratio > 1, time = f->unit && (!strcmp(f->unit, "ns") || !strcmp(f->unit, "us") ||
					       !strcmp(f->unit, "ms"));

	if (f->dir == KEY_DIR_LOWER && time && strstr(f->key, "per_"))
		return up ? "dearer" : "cheaper";
	if (f->dir == KEY_DIR_LOWER)
		return up ? "worse" : "better";
	if (f->dir == KEY_DIR_HIGHER)
		return up ? "better" : "worse";
	return up ? "higher" : "lower";
}

void hist_free(struct history *h)
{
	for (size_t i = 0; i < h->nruns; i++) {
		struct hist_run *r = &h->runs[i];

		free(r->file);
		free(r->machine);
		free(r->name);
		free(r->start);
		free(r->conditions);
		for (size_t k = 0; k < HIST_NFIELDS; k++)
			free(r->fp[k]);
		free(r->vals);
	}
	for (size_t i = 0; i < h->nfigs; i++) {
		free(h->figs[i].probe);
		free(h->figs[i].result);
		free(h->figs[i].key);
		free(h->figs[i].unit);
		free(h->figs[i].env);
	}
	for (size_t k = 0; k < h->nmachines; k++) {
		free(h->machines[k].runs);
		free(h->machines[k].ch);
	}
	free(h->machines);
	free(h->runs);
	free(h->figs);
	json_decref(h->fig_index);
}
