// SPDX-License-Identifier: MIT
/* Reading and grouping a fleet's runs: see fleet.h. */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../../common/verdict.h"
#include "export.h"
#include "fleet.h"
#include "keys.h"
#include "lead.h"
#include "model.h"
#include "noise.h"
#include "ratio.h"
#include "util.h"

const char *const fleet_env_names[4] = { "cpu_model", "env", "kernel", "accel" };

/* The group of runs with run's environment, made when new. */
static size_t group_of(struct fleet *fl, const struct run *run)
{
	const json_t *src = run->head ? run->head : run->fingerprint;
	struct sbuf key = { 0 };
	struct fleet_group *g;
	json_t *i;

	for (size_t k = 0; k < 4; k++)
		sbuf_addf(&key, "%s\x1f", export_str(src, fleet_env_names[k]));
	i = json_object_get(fl->group_index, key.s);
	if (i) {
		sbuf_free(&key);
		return (size_t)json_integer_value(i);
	}
	grow(&fl->groups, &fl->groupcap, fl->ngroups + 1, sizeof(*fl->groups));
	g = &fl->groups[fl->ngroups];
	*g = (struct fleet_group){ .index = json_object() };
	for (size_t k = 0; k < 4; k++)
		g->env_key[k] = xstrdup(export_str(src, fleet_env_names[k]));
	json_object_set_new(fl->group_index, key.s, json_integer((json_int_t)fl->ngroups));
	sbuf_free(&key);
	return fl->ngroups++;
}

/* The figure with this id, made when new. */
static size_t fig_of(struct fleet *fl, const char *id, const char *probe, const char *result,
		     const char *key, const char *unit)
{
	json_t *i = json_object_get(fl->fig_index, id);

	if (i)
		return (size_t)json_integer_value(i);
	grow(&fl->figs, &fl->figcap, fl->nfigs + 1, sizeof(*fl->figs));
	fl->figs[fl->nfigs] = (struct fleet_fig){ xstrdup(probe), xstrdup(result), xstrdup(key),
						  unit ? xstrdup(unit) : NULL };
	json_object_set_new(fl->fig_index, id, json_integer((json_int_t)fl->nfigs));
	return fl->nfigs++;
}

/* v of run for figure fig in group g, judged by j when its series is new (fleet.h). */
static void series_add(struct fleet_group *g, size_t fig, double v, size_t run,
		       struct fleet_judge j)
{
	char k[32];
	json_t *i;
	struct fleet_series *s;

	snprintf(k, sizeof(k), "%zu", fig);
	i = json_object_get(g->index, k);
	if (!i) {
		grow(&g->s, &g->scap, g->ns + 1, sizeof(*g->s));
		g->s[g->ns] = (struct fleet_series){ .fig = fig, .j = j };
		i = json_integer((json_int_t)g->ns++);
		json_object_set_new(g->index, k, i);
	}
	s = &g->s[json_integer_value(i)];
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 8;
		s->v = xrealloc(s->v, s->cap * sizeof(*s->v));
		s->run = xrealloc(s->run, s->cap * sizeof(*s->run));
	}
	s->v[s->n] = v;
	s->run[s->n++] = (uint32_t)run;
}

/* The verdict record's items that the probes declare (keys.h), each with a number. */
static void add_verdict(struct fleet *fl, const struct run *run, size_t ri)
{
	const json_t *items = json_object_get(run->verdict, "items");
	struct fleet_group *g = &fl->groups[fl->runs[ri].group];

	for (size_t i = 0; i < verdict_limit_count; i++) {
		const struct verdict_limit *l = &verdict_limits[i];
		const json_t *v = json_object_get(json_object_get(items, l->id), "value");
		char id[128];

		if (!json_is_number(v))
			continue;
		snprintf(id, sizeof(id), "verdict\x1f%s", l->id);
		/* no pair of identical runs measured a verdict item's noise: the lead's least */
		series_add(g, fig_of(fl, id, "verdict", l->what, l->id, l->unit),
			   json_number_value(v), ri, (struct fleet_judge){ LEAD_MIN_RATIO, 0, 0 });
	}
}

/* "AMD EPYC 7B13 (7edbd761)": the run's machine and, where the run record
 * has it, its machine id (two machines of one model differ there). */
static char *machine_of(const struct run *run)
{
	const char *id = export_str(run->head, "machine_id");

	return *id ? xasprintf("%s (%s)", export_str(run->head, "machine"), id)
		   : xstrdup(export_str(run->head, "machine"));
}

/* The ratio an outlier must exceed: the per-figure between-run term of
 * identical runs (noise.h, noise_outlier_floor()), or FLEET_FLOOR_UNMEASURED
 * where none was measured for the env. */
static double fleet_floor(const struct report *rp, const struct figure *fg, size_t ri)
{
	int measured;
	double f = noise_outlier_floor(rp, fg, ri, &measured);

	return measured ? f : FLEET_FLOOR_UNMEASURED;
}

/* Run ri of rp (read from one file) into the fleet: its group and headline values. */
static void add_run(struct fleet *fl, const struct report *rp, size_t ri)
{
	const struct run *run = &rp->runs[ri];
	size_t r = fl->nruns;

	grow(&fl->runs, &fl->runcap, fl->nruns + 1, sizeof(*fl->runs));
	fl->runs[r] = (struct fleet_run){ xstrdup(run->file), run->seq, machine_of(run), group_of(fl, run),
					  noise_run_busy(run) ? json_number_value(json_object_get(run->end,
						"other_busy_pct")) : NAN };
	fl->nruns++;
	fl->groups[fl->runs[r].group].nruns++;
	add_verdict(fl, run, r);
	for (size_t i = 0; i < rp->nfigs; i++) {
		const struct figure *fg = &rp->figs[i];
		const struct agg *a = &fg->per_run[ri];
		const struct key_decl *d;
		struct sbuf id = { 0 }, res = { 0 };
		struct fleet_judge j;

		/* a figure bimodal or quantized by nature (keys.h) has no ratio to judge */
		if (fg->as_booted || !a->n || !isfinite(a->mean) || !export_is_headline(fg, &d) ||
		    fg->uncert == KEY_CI_UNSTABLE)
			continue;
		j = (struct fleet_judge){ fleet_floor(rp, fg, ri), d->dir == KEY_DIR_ZERO,
					  (unsigned char)ratio_is_count(d) };
		sbuf_addf(&id, "%s\x1f%s", fg->id, fg->key);
		sbuf_addf(&res, "%s%s%s", fg->name, *fg->ident ? " " : "", fg->ident);
		series_add(&fl->groups[fl->runs[r].group],
			   fig_of(fl, id.s, fg->probe, res.s, fg->key, d->unit), a->mean, r, j);
		sbuf_free(&id);
		sbuf_free(&res);
	}
}

/* One file into the fleet through a report of its own. Its first run's index, or -1. */
static long read_file(struct fleet *fl, const char *path)
{
	struct report rp = { 0 };
	struct scan_stats st = { 0 };
	struct read_opts o = { .max_input = fl->max_input };
	long first = (long)fl->nruns;
	int err = report_read_file(&rp, path, &o, &st);

	fl->files++;
	if (err || !rp.nruns) {
		fprintf(stderr, "report: --fleet: %s: %s\n", path,
			err ? strerror(-err) : "no run in it (no TP1 run record or result)");
		fl->unread++;
		report_free(&rp);
		return -1;
	}
	if (st.capped)
		fprintf(stderr, "report: --fleet: %s: read the first %llu bytes (--max-input)\n",
			path, st.bytes);
	report_finish(&rp, NULL, 0);
	for (size_t ri = 0; ri < rp.nruns; ri++)
		add_run(fl, &rp, ri);
	report_free(&rp);
	return first;
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every regular file of dir, in name order, into the fleet (hidden ones aside). */
static void read_dir(struct fleet *fl, const char *dir, DIR *d)
{
	char **names = NULL;
	size_t n = 0, cap = 0;
	struct dirent *e;
	/* "DIR/" and "DIR" name its files alike, so --place finds them */
	int dir_len = (int)strlen(dir) - (strlen(dir) > 1 && dir[strlen(dir) - 1] == '/');

	while ((e = readdir(d)) != NULL) {
		struct stat sb;
		char *p;

		if (e->d_name[0] == '.')
			continue;
		p = xasprintf("%.*s/%s", dir_len, dir, e->d_name);
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
		read_file(fl, names[i]);
		free(names[i]);
	}
	free(names);
}

long fleet_read(struct fleet *fl, const char *const *paths, size_t n, const char *place)
{
	long at = -1;

	fl->fig_index = json_object();
	fl->group_index = json_object();
	for (size_t i = 0; i < n; i++) {
		DIR *d = opendir(paths[i]);
		long first;

		if (d) {
			read_dir(fl, paths[i], d);
			continue;
		}
		first = read_file(fl, paths[i]);
		if (place && at < 0 && first >= 0 && !strcmp(paths[i], place))
			at = first;
	}
	/* a run in a folder, or one not among the fleet's, is found by its file name */
	for (size_t r = 0; place && at < 0 && r < fl->nruns; r++)
		if (!strcmp(fl->runs[r].file, place))
			at = (long)r;
	if (place && at < 0)
		at = read_file(fl, place);
	return at;
}

char *fleet_fig_name(const struct fleet_fig *f)
{
	struct sbuf b = { 0 };

	sbuf_addf(&b, "%s %s: %s", f->probe, f->result, f->key);
	return sbuf_take(&b);
}

void fleet_free(struct fleet *fl)
{
	for (size_t i = 0; i < fl->nruns; i++) {
		free(fl->runs[i].file);
		free(fl->runs[i].machine);
	}
	for (size_t g = 0; g < fl->ngroups; g++) {
		for (size_t k = 0; k < 4; k++)
			free(fl->groups[g].env_key[k]);
		for (size_t i = 0; i < fl->groups[g].ns; i++) {
			free(fl->groups[g].s[i].v);
			free(fl->groups[g].s[i].run);
		}
		free(fl->groups[g].s);
		json_decref(fl->groups[g].index);
	}
	for (size_t i = 0; i < fl->nfigs; i++) {
		free(fl->figs[i].probe);
		free(fl->figs[i].result);
		free(fl->figs[i].key);
		free(fl->figs[i].unit);
	}
	free(fl->runs);
	free(fl->groups);
	free(fl->figs);
	json_decref(fl->fig_index);
	json_decref(fl->group_index);
}
