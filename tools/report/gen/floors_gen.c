// SPDX-License-Identifier: MIT
/*
 * Writes the lead's noise floors (tools/report/noise.h) as C on stdout,
 * measured on runs of one configuration: floors_gen LOG... (none: an
 * empty table), each log one run, every log one recipe
 * (tools/aa-pairs.sh). Every two quiet logs of one env are a pair, read
 * as a comparison of their own, whenever and in whichever set they were
 * made (a comparison's two runs need not come from one hour either); a
 * probe's figures pair only where both logs declare its keys alike (one
 * version of the probe: a group). For each env, probe, result and key,
 * from the log ratios the lead compares (ratio_log()): the largest, and
 * the spread of the figure's log within a group, pooled over the groups
 * (over n runs the mean squared log ratio of their n (n - 1) / 2 pairs is
 * twice their variance), with its degrees of freedom. Through the
 * report's own reading and lining up; with --tsv first: as tp-report
 * --floors reads them, for `make noise-floor`. Linked against the
 * report's objects with an empty table of its own (it measures without
 * floors); report.mk runs it at build time. Exit 1, with one line, on a
 * log that does not fit.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../keys.h"
#include "../lead.h"
#include "../model.h"
#include "../noise.h"
#include "../ratio.h"
#include "../scan.h"
#include "../util.h"

/* The generator measures unfloored ratios: its own table is empty. */
const struct noise_floor noise_floors[] = { { NULL, NULL, NULL, NULL, 0, 0, 0, 0 } };
const unsigned noise_pairs = 0, noise_runs = 0;

/* A pair's log is at most this long: the committed ones are quick runs. */
#define LOG_MAX_BYTES (16u << 20)

/*
 * A probe's key declaration as a log made it (its keys record): logs that
 * declare a probe alike ran one version of it, a group.
 */
struct variant {
	char *probe;
	json_t *raw;
};

static struct variant *variants;
static size_t nvariants;

/* The group of probe's declaration keys: its number from 1, added when new. */
static unsigned variant_of(const char *probe, json_t *keys)
{
	for (size_t i = 0; i < nvariants; i++)
		if (!strcmp(variants[i].probe, probe) && json_equal(variants[i].raw, keys))
			return (unsigned)i + 1;
	variants = xrealloc(variants, (nvariants + 1) * sizeof(*variants));
	variants[nvariants] = (struct variant){ xstrdup(probe), json_incref(keys) };
	return (unsigned)++nvariants;
}

/*
 * A log as surveyed once: its env, its load, the groups of the probes it
 * declares, and its records as read (a pair replays them: no log is read
 * twice).
 */
struct log {
	const char *path;
	char env[NOISE_ENV_MAX];
	int loaded;
	unsigned *var;
	size_t nvar;
	json_t **recs;
	size_t nrecs;
};

/* lg's group for probe; 0 when it declares none (calib, boot, attribution: always 0). */
static unsigned group_of(const struct log *lg, const char *probe)
{
	for (size_t i = 0; i < lg->nvar; i++)
		if (!strcmp(variants[lg->var[i] - 1].probe, probe))
			return lg->var[i];
	return 0;
}

/* One figure's pairs within one group: their squared log ratios summed, and how many. */
struct in_group {
	unsigned group;
	double sq;
	unsigned pairs;
};

struct seen {
	struct noise_floor nf;
	struct in_group *groups;
	size_t ngroups;
	double max_lr;
};

static struct seen *seen;
static size_t nseen;

/* The floor of env, probe, result and key, added when new; the search starts after the last found (pairs list their figures alike). */
static struct seen *find(const char *env, const char *probe, const char *result, const char *key)
{
	static size_t last;

	for (size_t k = 0; k < nseen; k++) {
		size_t i = (last + 1 + k) % nseen;

		if (!strcmp(seen[i].nf.key, key) && !strcmp(seen[i].nf.result, result) &&
		    !strcmp(seen[i].nf.probe, probe) && !strcmp(seen[i].nf.env, env))
			return &seen[last = i];
	}
	last = nseen;
	seen = xrealloc(seen, (nseen + 1) * sizeof(*seen));
	seen[nseen] = (struct seen){ { xstrdup(env), xstrdup(probe), xstrdup(result), xstrdup(key),
				       0, 0, 1, 0 }, NULL, 0, 0 };
	return &seen[nseen++];
}

static void note(unsigned group, const char *env, const struct figure *fg, double log_ratio)
{
	char *result = noise_result_name(fg);
	struct seen *s = find(env, fg->probe, result, fg->key);
	size_t k;

	free(result);
	for (k = 0; k < s->ngroups && s->groups[k].group != group; k++)
		;
	if (k == s->ngroups) {
		s->groups = xrealloc(s->groups, (s->ngroups + 1) * sizeof(*s->groups));
		s->groups[s->ngroups++] = (struct in_group){ group, 0, 0 };
	}
	s->groups[k].sq += log_ratio * log_ratio;
	s->groups[k].pairs++;
	s->max_lr = fmax(s->max_lr, log_ratio);
	s->nf.figures++;
}

/*
 * s's pooled sd and df: a group whose pairs are every two of its n runs
 * has n (n - 1) / 2 of them, and the sum of their squared differences is
 * n times its sum of squared deviations.
 */
static void pool(struct seen *s)
{
	double ss = 0;
	unsigned df = 0;

	for (size_t k = 0; k < s->ngroups; k++) {
		double n = (1 + sqrt(1 + 8.0 * s->groups[k].pairs)) / 2;

		ss += s->groups[k].sq / n;
		df += (unsigned)lround(n) - 1;
	}
	s->nf.df = df;
	s->nf.sd = df ? sqrt(ss / df) : 0;
	s->nf.ratio = exp(s->max_lr);
}

/*
 * One record of lg into split: a keys record's probe into lg's groups when
 * surveying; for a pair's second log (first: the pair's first), a probe
 * the first declared keeps the first's declaration, quietly (where the two
 * differ, that probe's figures are no pair).
 */
static void take(struct splitter *split, struct log *lg, json_t *obj, int surveying,
		 const struct log *first)
{
	const char *type = json_string_value(json_object_get(obj, "type"));
	const char *probe = json_string_value(json_object_get(obj, "for_probe"));
	int keys = type && !strcmp(type, "keys") && probe;

	if (keys && surveying) {
		lg->var = xrealloc(lg->var, (lg->nvar + 1) * sizeof(*lg->var));
		lg->var[lg->nvar++] = variant_of(probe, json_object_get(obj, "keys"));
	}
	if (!keys || !first || !group_of(first, probe))
		keys_note_record(obj, lg->path);
	report_add_record(split, obj, type);
}

struct reading {
	struct splitter *split;
	struct log *lg;
};

static void on_record(void *ctx, const struct rec *r)
{
	struct reading *rd = ctx;

	take(rd->split, rd->lg, r->obj, 1, NULL);
	rd->lg->recs = xrealloc(rd->lg->recs, (rd->lg->nrecs + 1) * sizeof(*rd->lg->recs));
	rd->lg->recs[rd->lg->nrecs++] = r->obj;	/* kept for the pairs */
}

/* lg read from its file into rp, its records kept; 1, with a line, when it does not fit. */
static int read_log(struct report *rp, struct log *lg)
{
	struct scan_stats st = { 0 };
	struct reading rd = { report_file_begin(rp, lg->path), lg };
	int err = scan_file(lg->path, LOG_MAX_BYTES, on_record, &rd, &st);

	report_file_end(rd.split);
	if (err || st.capped || scan_corrupt(&st)) {
		fprintf(stderr, "floors_gen: %s: unreadable, longer than %u bytes or damaged\n",
			lg->path, LOG_MAX_BYTES);
		return 1;
	}
	return 0;
}

/* lg's kept records into rp, as a pair's first log or (first given) its second. */
static void replay(struct report *rp, struct log *lg, const struct log *first)
{
	struct splitter *split = report_file_begin(rp, lg->path);

	for (size_t i = 0; i < lg->nrecs; i++)
		take(split, lg, lg->recs[i], 0, first);
	report_file_end(split);
}

static void forget_records(struct log *lg)
{
	for (size_t i = 0; i < lg->nrecs; i++)
		json_decref(lg->recs[i]);
	free(lg->recs);
	lg->recs = NULL;
	lg->nrecs = 0;
}

/* lg's env, load (noise_run_loaded()) and groups; 1, with a line, when it does not fit. */
static int survey(struct log *lg)
{
	struct report rp = { 0 };
	const char *env = NULL;
	int bad = read_log(&rp, lg);

	if (!bad && rp.nruns != 1) {
		fprintf(stderr, "floors_gen: %s: not one run\n", lg->path);
		bad = 1;
	}
	if (!bad && !(env = noise_env(rp.runs[0].head, lg->env, sizeof(lg->env)))) {
		fprintf(stderr, "floors_gen: %s: a run without an env\n", lg->path);
		bad = 1;
	}
	if (!bad) {
		if (env != lg->env)
			snprintf(lg->env, sizeof(lg->env), "%s", env);
		lg->loaded = noise_run_loaded(&rp.runs[0]);
	}
	if (lg->loaded)
		forget_records(lg);	/* in no pair */
	report_free(&rp);
	keys_forget_logs();	/* the next log declares its own keys */
	return bad;
}

/*
 * One pair of quiet logs of one env into seen, read as a comparison: each
 * figure of a probe both declare alike (or neither), in their group.
 */
static void measure_pair(struct log *a, struct log *b)
{
	struct report rp = { 0 };

	replay(&rp, a, NULL);
	replay(&rp, b, a);
	rp.booted_always = 1;	/* a clocksource change compares the as-booted rows */
	report_finish(&rp, NULL, 0);
	for (size_t i = 0; i < rp.nfigs; i++) {
		const char *probe = rp.figs[i].probe;
		unsigned g = group_of(a, probe);
		double lr = ratio_log(&rp, &rp.figs[i], 1);

		if (g == group_of(b, probe) && !isnan(lr))
			note(g, a->env, &rp.figs[i], lr);
	}
	report_free(&rp);
	keys_forget_logs();	/* the next pair declares its own keys */
}

/* Is s printable ASCII (a name fit for a C literal once quoted, and for a line of --tsv)? */
static int plain(const char *s)
{
	for (; *s; s++)
		if (*s < 0x20 || *s >= 0x7f)
			return 0;
	return 1;
}

/* s as a C string literal: quote, backslash and question mark (trigraphs) escaped. */
static void put_literal(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		if (*s == '"' || *s == '\\' || *s == '?')
			putchar('\\');
		putchar(*s);
	}
	putchar('"');
}

/* --tsv: the floors as tp-report --floors reads them (noise.h), one a line. */
static int print_tsv(int runs, unsigned pairs, unsigned loaded)
{
	printf("# floors_gen --tsv: %d runs, %u pairs of quiet runs of one env, %u runs left "
	       "out (run on a loaded machine)\n# env\tprobe\tresult\tkey\tsd\tdf\tratio\tfigures\n", runs, pairs,
	       loaded);
	for (size_t i = 0; i < nseen; i++) {
		const struct noise_floor *nf = &seen[i].nf;

		printf("%s\t%s\t%s\t%s\t%.6f\t%u\t%.4f\t%u\n", nf->env, nf->probe, nf->result,
		       nf->key, ceil(nf->sd * 1e6) / 1e6, nf->df, ceil(nf->ratio * 1e4) / 1e4,
		       nf->figures);
	}
	return ferror(stdout) ? 1 : 0;
}

/* The table as C (noise.h). */
static int print_c(int runs, unsigned pairs, unsigned loaded)
{
	printf("/* Generated by tools/report/gen/floors_gen.c from %d runs, %u pairs "
	       "of quiet runs of one env (%u runs left out: run on a loaded machine): do not edit. */\n"
	       "#include \"noise.h\"\n\nconst unsigned noise_pairs = %u;\n"
	       "const unsigned noise_runs = %d;\n\nconst struct noise_floor noise_floors[] = {\n",
	       runs, pairs, loaded, pairs, runs);
	for (size_t i = 0; i < nseen; i++) {
		const struct noise_floor *nf = &seen[i].nf;
		const char *name[4] = { nf->env, nf->probe, nf->result, nf->key };

		fputs("\t{ ", stdout);
		for (size_t k = 0; k < 4; k++) {
			put_literal(name[k]);
			fputs(", ", stdout);
		}
		/* rounded up: a pair of the runs themselves stays within its floor */
		printf("%.6f, %u, %.4f, %u },\n", ceil(nf->sd * 1e6) / 1e6, nf->df,
		       ceil(nf->ratio * 1e4) / 1e4, nf->figures);
	}
	printf("\t{ 0, 0, 0, 0, 0, 0, 0, 0 },\n};\n");
	return ferror(stdout) ? 1 : 0;
}

int main(int argc, char **argv)
{
	unsigned pairs = 0, loaded = 0;
	int tsv = argc > 1 && !strcmp(argv[1], "--tsv");
	struct log *lg;

	if (tsv) {
		argv++;
		argc--;
	}
	lg = xcalloc((size_t)argc, sizeof(*lg));
	for (int i = 1; i < argc; i++) {
		lg[i].path = argv[i];
		if (survey(&lg[i]))
			return 1;
		loaded += lg[i].loaded;	/* a loaded machine's spread is its neighbours', not a floor */
	}
	for (int i = 1; i < argc; i++)
		for (int j = i + 1; j < argc; j++) {
			if (lg[i].loaded || lg[j].loaded || strcmp(lg[i].env, lg[j].env))
				continue;
			measure_pair(&lg[i], &lg[j]);
			pairs++;
		}
	for (int i = 1; i < argc; i++) {
		forget_records(&lg[i]);
		free(lg[i].var);
	}
	free(lg);
	for (size_t i = 0; i < nseen; i++) {
		const struct noise_floor *nf = &seen[i].nf;

		if (!plain(nf->env) || !plain(nf->probe) || !plain(nf->result) || !plain(nf->key)) {
			fprintf(stderr, "floors_gen: floor %zu: an env, probe, result or key name that "
				"is not plain printable text\n", i);
			return 1;
		}
		pool(&seen[i]);
	}
	return tsv ? print_tsv(argc - 1, pairs, loaded) : print_c(argc - 1, pairs, loaded);
}
