// SPDX-License-Identifier: MIT
/*
 * OpenMetrics text (docs/exporting.md, "OpenMetrics"): one gauge family per
 * figure, named and scaled by openmetrics.h, one sample per run and result
 * with the run's labels (machine, env, kernel, cpu_model, accel), the
 * result's name and its identity keys as labels; the verdict's items as
 * timeprobe_verdict_*; the run's start as timeprobe_run_start_timestamp_seconds;
 * its conditions and tsc=reliable answer (add_facts()).
 * Samples are gathered first, then written family by family, each series
 * in time order, as the specification wants them.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/verdict.h"
#include "export.h"
#include "keys.h"
#include "openmetrics.h"
#include "outfile.h"
#include "util.h"

/* The run's labels, in this order; an identity key of the same name gets "key_". */
static const char *const run_labels[] = { "machine_id", "machine", "env", "kernel", "cpu_model", "accel" };

struct om_family {
	char *name;
	char *help;
	const char *om_unit;	/* NULL: no # UNIT line */
	const char *probe, *key;	/* what it was made from: one key a name */
};

struct om_sample {
	size_t family;
	char *labels;		/* written between the braces, escaped */
	long long ts;		/* -1: none */
	double value;
};

/* A memory stream for one sample's labels; the report cannot go on without one. */
static FILE *labels_open(char **buf, size_t *len)
{
	FILE *m = open_memstream(buf, len);

	if (!m) {
		fputs("report: out of memory\n", stderr);
		exit(1);
	}
	return m;
}

struct om_doc {
	struct om_family *fam;
	size_t nfam, famcap;
	json_t *fam_index;	/* name -> index in fam */
	struct om_sample *s;
	size_t ns, scap;
	size_t collisions, undeclared;
};

/* The family of name, made when new; -1 when name is another key's. */
static long family_of(struct om_doc *d, char *name, const char *help, const char *unit,
		      const char *probe, const char *key)
{
	json_t *i = json_object_get(d->fam_index, name);
	struct om_family *fm;

	if (i) {
		fm = &d->fam[json_integer_value(i)];
		free(name);
		if (strcmp(fm->probe, probe) || strcmp(fm->key, key)) {
			d->collisions++;
			return -1;
		}
		return (long)json_integer_value(i);
	}
	grow(&d->fam, &d->famcap, d->nfam + 1, sizeof(*d->fam));
	fm = &d->fam[d->nfam];
	*fm = (struct om_family){ name, xstrdup(help), unit, probe, key };
	json_object_set_new(d->fam_index, name, json_integer((json_int_t)d->nfam));
	return (long)d->nfam++;
}

static void add_sample(struct om_doc *d, long fam, const char *labels, long long ts, double v)
{
	if (fam < 0 || !isfinite(v))
		return;
	grow(&d->s, &d->scap, d->ns + 1, sizeof(*d->s));
	d->s[d->ns++] = (struct om_sample){ (size_t)fam, xstrdup(labels), ts, v };
}

/* One label, name="value", after a comma when not the first. */
static void put_label(FILE *m, const char *name, const char *value)
{
	if (ftell(m) > 0)
		fputc(',', m);
	fprintf(m, "%s=\"", name);
	om_label_value(m, value);
	fputc('"', m);
}

/* The run's labels; an empty value is no label (Prometheus reads them alike). */
static void put_run_labels(FILE *m, const struct run *run)
{
	for (size_t i = 0; i < ARRAY_SIZE(run_labels); i++) {
		const json_t *src = run->head ? run->head : run->fingerprint;
		const char *v = export_str(src, run_labels[i]);

		if (*v)
			put_label(m, run_labels[i], v);
	}
}

static int is_run_label(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(run_labels); i++)
		if (!strcmp(name, run_labels[i]))
			return 1;
	return !strcmp(name, "result");
}

/* A result's identity keys (result.h, key_is_ident) as labels. */
static void put_ident_labels(FILE *m, const json_t *first)
{
	const char *key;
	json_t *val;

	json_object_foreach((json_t *)first, key, val) {
		char *name, num[40];
		const char *v = num;

		if (!key_is_ident(first, key, val))
			continue;
		if (json_is_string(val))
			v = json_string_value(val);
		else if (json_is_integer(val))
			snprintf(num, sizeof(num), "%lld", (long long)json_integer_value(val));
		else if (json_is_real(val))
			snprintf(num, sizeof(num), "%.17g", json_real_value(val));
		else if (json_is_boolean(val))
			v = json_is_true(val) ? "true" : "false";
		else
			continue;
		name = om_label_name(key);
		if (is_run_label(name)) {
			char *p = xmalloc(strlen(name) + 5);

			sprintf(p, "key_%s", name);
			free(name);
			name = p;
		}
		put_label(m, name, v);
		free(name);
	}
}

/* The labels of figure fg in run ri: the run's, result, identity. Caller frees. */
static char *figure_labels(const struct report *rp, size_t ri, const struct figure *fg)
{
	const struct run *run = &rp->runs[ri];
	long r = run_find_result(run, fg->id);
	char *buf = NULL;
	size_t len = 0;
	FILE *m = labels_open(&buf, &len);

	put_run_labels(m, run);
	put_label(m, "result", fg->name);
	if (r >= 0)
		put_ident_labels(m, run->res[r].first);
	fclose(m);
	return buf;
}

static char *run_labels_of(const struct run *run)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = labels_open(&buf, &len);

	put_run_labels(m, run);
	fclose(m);
	return buf;
}

/* HELP for a figure: the probe's own line for the key, else what it is called. */
static char *figure_help(const struct figure *fg, const struct key_decl *decl)
{
	const char *what = fg->what;
	struct sbuf b = { 0 };

	sbuf_addf(&b, "%s: %s", fg->probe, what ? what : fg->key);
	if (decl && decl->unit)
		sbuf_addf(&b, " (%s in the record)", decl->unit);
	return sbuf_take(&b);
}

/* Figure fg of run ri, when it goes out: headline (or any declared key with all). */
static void add_figure(struct om_doc *d, const struct report *rp, size_t ri,
		       const struct figure *fg, int all, long long ts)
{
	const struct agg *a = &fg->per_run[ri];
	const struct key_decl *decl = NULL;
	const struct om_unit *u;
	char *help, *labels;
	long fam;

	/* an as-booted figure repeats one of the run's own */
	if (fg->as_booted || !a->n || !isfinite(a->mean))
		return;
	if (!export_is_headline(fg, &decl)) {
		if (!all)
			return;
		/* a name is made only from a declared key, never from a record's text */
		if (!(decl = fg->decl)) {
			d->undeclared++;
			return;
		}
	}
	u = om_unit_of(decl->unit);
	help = figure_help(fg, decl);
	fam = family_of(d, om_metric_name(fg->probe, fg->key, decl->unit), help, u->om_unit,
			fg->probe, fg->key);
	free(help);
	labels = figure_labels(rp, ri, fg);
	add_sample(d, fam, labels, ts, a->mean * u->scale);
	free(labels);
}

/* The verdict record's items that the probes declare (keys.h), each with a number. */
static void add_verdict(struct om_doc *d, const struct run *run, const char *labels,
			long long ts)
{
	const json_t *items = json_object_get(run->verdict, "items");

	for (size_t i = 0; i < verdict_limit_count; i++) {
		const struct verdict_limit *l = &verdict_limits[i];
		const json_t *v = json_object_get(json_object_get(items, l->id), "value");
		const struct om_unit *u = om_unit_of(l->unit);
		long fam;

		if (!json_is_number(v) && !json_is_boolean(v))
			continue;
		fam = family_of(d, om_metric_name("verdict", l->id, l->unit), l->what, u->om_unit,
				"verdict", l->id);
		add_sample(d, fam, labels, ts,
			   json_is_boolean(v) ? json_is_true(v) : json_number_value(v) * u->scale);
	}
}

/* labels and one more, name="value", as a new string. */
static char *labels_plus(const char *labels, const char *name, const char *value)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = labels_open(&buf, &len);

	fputs(labels, m);
	put_label(m, name, value);
	fclose(m);
	return buf;
}

/*
 * The run's conditions (export_facts()) as 0/1 gauges and a ratio, and its
 * tsc=reliable answer as timeprobe_tsc_reliable{answer="..."} 1 (none
 * without a tsc_readiness record).
 */
static void add_facts(struct om_doc *d, const struct run *run, const char *labels, long long ts)
{
	struct export_facts ef;
	char *with;

	export_facts(run, &ef);
	add_sample(d, family_of(d, xstrdup(OM_PREFIX "run_emulated"),
		   "1 when QEMU's TCG emulator ran it: its timings are the emulator's", NULL, "run",
		   "emulated"), labels, ts, ef.emulator != NULL);
	add_sample(d, family_of(d, xstrdup(OM_PREFIX "run_virtual"),
		   "1 when a hypervisor ran it (a virtual machine's timings)", NULL, "run", "virtual"),
		   labels, ts, ef.hypervisor != NULL);
	add_sample(d, family_of(d, xstrdup(OM_PREFIX "run_other_busy_ratio"),
		   "other work on the run's CPUs (end record's other_busy_pct / 100)", "ratio", "run",
		   "other_busy_pct"), labels, ts, ef.busy_pct / 100);
	if (!ef.tsc_reliable)
		return;
	with = labels_plus(labels, "answer", ef.tsc_reliable);
	add_sample(d, family_of(d, xstrdup(OM_PREFIX "tsc_reliable"),
		   "the tsc=reliable answer (tsc_readiness record, docs/readiness.md), as its label",
		   NULL, "readiness", "tsc_reliable"), with, ts, 1);
	free(with);
}

/* Run ri's samples; 0, or -1 when stamped and it has no start time to stamp them with. */
static int add_run(struct om_doc *d, const struct report *rp, size_t ri, int all, int stamped)
{
	const struct run *run = &rp->runs[ri];
	long long start = om_time(export_str(run->head, "start"));
	long long ts = stamped ? start : -1;
	char *labels;

	if (stamped && start < 0) {
		fprintf(stderr, "report: %s: run %d has no start time (run record's \"start\"): "
			"left out of the OpenMetrics, whose samples need one\n", run->file, run->seq);
		return -1;
	}
	labels = run_labels_of(run);
	if (start >= 0)
		add_sample(d, family_of(d, xstrdup(OM_PREFIX "run_start_timestamp_seconds"),
					"when the run began (run record's start)", "seconds", "run",
					"start"), labels, ts, (double)start);
	add_verdict(d, run, labels, ts);
	add_facts(d, run, labels, ts);
	free(labels);
	for (size_t i = 0; i < rp->nfigs; i++)
		add_figure(d, rp, ri, &rp->figs[i], all, ts);
	return 0;
}

static int sample_cmp(const void *pa, const void *pb)
{
	const struct om_sample *a = pa, *b = pb;
	int c;

	if (a->family != b->family)
		return a->family < b->family ? -1 : 1;
	if ((c = strcmp(a->labels, b->labels)))
		return c;
	return (a->ts > b->ts) - (a->ts < b->ts);
}

static void put_family(FILE *f, const struct om_family *fm)
{
	fprintf(f, "# TYPE %s gauge\n", fm->name);
	if (fm->om_unit)
		fprintf(f, "# UNIT %s %s\n", fm->name, fm->om_unit);
	fprintf(f, "# HELP %s ", fm->name);
	om_help_text(f, fm->help);
	fputc('\n', f);
}

/* Writes the samples in order; returns how many repeated a series' time (left out). */
static size_t put_samples(FILE *f, struct om_doc *d)
{
	size_t repeats = 0;

	if (d->ns)
		qsort(d->s, d->ns, sizeof(*d->s), sample_cmp);
	for (size_t i = 0; i < d->ns; i++) {
		const struct om_sample *s = &d->s[i];

		if (i && s->family == s[-1].family && !strcmp(s->labels, s[-1].labels) &&
		    s->ts == s[-1].ts) {
			repeats++;
			continue;
		}
		if (!i || s->family != s[-1].family)
			put_family(f, &d->fam[s->family]);
		fprintf(f, "%s{%s} ", d->fam[s->family].name, s->labels);
		om_number(f, s->value);
		if (s->ts >= 0)
			fprintf(f, " %lld", s->ts);
		fputc('\n', f);
	}
	fputs("# EOF\n", f);
	return repeats;
}

static void doc_free(struct om_doc *d)
{
	for (size_t i = 0; i < d->nfam; i++) {
		free(d->fam[i].name);
		free(d->fam[i].help);
	}
	for (size_t i = 0; i < d->ns; i++)
		free(d->s[i].labels);
	free(d->fam);
	free(d->s);
	json_decref(d->fam_index);
}

int export_openmetrics(FILE *f, const struct report *rp, int all, int stamped)
{
	struct om_doc d = { .fam_index = json_object() };
	size_t repeats;
	int status = 0;

	for (size_t ri = 0; ri < rp->nruns; ri++)
		status |= add_run(&d, rp, ri, all, stamped) ? 1 : 0;
	repeats = put_samples(f, &d);
	if (repeats)
		fprintf(stderr, "report: %zu OpenMetrics sample%s left out: the same series at the "
			"same time in another run (a copy of one run?)\n", repeats,
			repeats == 1 ? "" : "s");
	if (d.collisions)
		fprintf(stderr, "report: %zu OpenMetrics sample%s left out: a key whose name is "
			"another key's of its probe\n", d.collisions, d.collisions == 1 ? "" : "s");
	if (d.undeclared)
		fprintf(stderr, "report: --all: %zu figure%s of undeclared keys left out (a name "
			"is made from a declaration only)\n", d.undeclared, d.undeclared == 1 ? "" : "s");
	doc_free(&d);
	return status;
}

/*
 * node_exporter's textfile collector reads every *.prom file of its
 * directory at each scrape: written whole under another name in the same
 * directory (not *.prom) and renamed (outfile.h), it never sees half a file.
 */
int export_openmetrics_file(const char *path, const struct report *rp, int all)
{
	FILE *f = outfile_open(path);
	int status;

	if (!f)
		return 1;
	status = export_openmetrics(f, rp, all, 0);
	return outfile_close(f) ? 1 : status;
}
