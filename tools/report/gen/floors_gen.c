// SPDX-License-Identifier: MIT
/*
 * Estimates the lead's between-run variances (tools/report/noise.h) from
 * runs of one configuration: floors_gen LOG... writes the table
 * tp-report --floors reads (and tools/report/floors.tsv is) on stdout,
 * each log one run, every log one recipe (tools/aa-pairs.sh). A log run
 * on a loaded machine is left out. For each env, probe, result and key a
 * quiet run has, within each group of runs that declare its probe alike
 * (one version of the probe): x the run's log value (an event count's:
 * log(events + 0.5)), w its variance within the run (its rounds' log
 * values' variance over their number, else its KEY_ci95's standard error
 * squared, else for a count Poisson's 1 / (events + 0.5), else 0); the
 * variance component between_component(x, w) (between.h); pooled over the
 * groups by their runs less one. Through the report's own reading. Exit 1,
 * with one line, on a log that does not fit.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../between.h"
#include "../keys.h"
#include "../model.h"
#include "../noise.h"
#include "../ratio.h"
#include "../rounds.h"
#include "../scan.h"
#include "../util.h"

/* The generator estimates without a table of its own. */
const char noise_builtin_tsv[] = "";

/* A log is at most this long: the committed ones are quick runs. */
#define LOG_MAX_BYTES (16u << 20)

/* A probe's declaration as a log made it: logs that declare it alike are one group. */
struct variant {
	char *probe;
	json_t *raw;
};

static struct variant *variants;
static size_t nvariants;

static unsigned variant_of(const char *probe, json_t *keys)
{
	for (size_t i = 0; i < nvariants; i++)
		if (!strcmp(variants[i].probe, probe) && json_equal(variants[i].raw, keys))
			return (unsigned)i + 1;
	variants = xrealloc(variants, (nvariants + 1) * sizeof(*variants));
	variants[nvariants] = (struct variant){ xstrdup(probe), json_incref(keys) };
	return (unsigned)++nvariants;
}

/* One figure's runs within one group. */
struct in_group {
	unsigned group;
	double *x, *w;
	size_t n;
};

struct seen {
	char *env, *probe, *result, *key;
	struct in_group *groups;
	size_t ngroups;
};

static struct seen *seen;
static size_t nseen;
static json_t *seen_index;	/* "env\x1fprobe\x1fresult\x1fkey" -> index */

static struct seen *find(const char *env, const char *probe, const char *result, const char *key)
{
	char *id = xasprintf("%s\x1f%s\x1f%s\x1f%s", env, probe, result, key);
	json_t *at = json_object_get(seen_index, id);

	if (at) {
		free(id);
		return &seen[json_integer_value(at)];
	}
	seen = xrealloc(seen, (nseen + 1) * sizeof(*seen));
	seen[nseen] = (struct seen){ xstrdup(env), xstrdup(probe), xstrdup(result), xstrdup(key),
				     NULL, 0 };
	json_object_set_new(seen_index, id, json_integer((json_int_t)nseen));
	free(id);
	return &seen[nseen++];
}

static void note(const char *env, unsigned group, const struct figure *fg, double x, double w)
{
	char *result = noise_result_name(fg);
	struct seen *s = find(env, fg->probe, result, fg->key);
	size_t k;

	free(result);
	for (k = 0; k < s->ngroups && s->groups[k].group != group; k++)
		;
	if (k == s->ngroups) {
		s->groups = xrealloc(s->groups, (s->ngroups + 1) * sizeof(*s->groups));
		s->groups[s->ngroups++] = (struct in_group){ group, NULL, NULL, 0 };
	}
	s->groups[k].x = xrealloc(s->groups[k].x, (s->groups[k].n + 1) * sizeof(double));
	s->groups[k].w = xrealloc(s->groups[k].w, (s->groups[k].n + 1) * sizeof(double));
	s->groups[k].x[s->groups[k].n] = x;
	s->groups[k].w[s->groups[k].n++] = w;
}

/* fg of a one-run report: its x and w (the header's rules); 0 when it has none. */
static int sample(const struct report *rp, const struct figure *fg, double *x, double *w)
{
	const struct agg *a = &fg->per_run[0];
	double within;

	if (!ratio_may_lead(rp, fg) || (fg->decl && fg->decl->dir == KEY_DIR_ZERO) || !a->n ||
	    !isfinite(a->mean) || a->mean < 0)
		return 0;
	if (keys_kind(fg->probe, fg->key) == KEY_KIND_COUNT) {
		*x = log(a->mean * (double)a->n + 0.5);
		*w = 1 / (a->mean * (double)a->n + 0.5);
		return 1;
	}
	if (!(a->mean > 0))
		return 0;
	within = rounds_log_within(rp, fg, 0);
	*x = log(a->mean);
	*w = isnan(within) ? 0 : within;
	return 1;
}

/* A keys record's probe into groups (probe -> group), by the variant it declares. */
static void note_group(void *groups, const json_t *rec, const char *type, struct scan_stats *st)
{
	const char *probe = json_string_value(json_object_get(rec, "for_probe"));

	(void)st;
	if (type && !strcmp(type, "keys") && probe)
		json_object_set_new(groups, probe,
				    json_integer(variant_of(probe, json_object_get(rec, "keys"))));
}

/* One log into seen; *loaded when left out; 1, with a line, when it does not fit. */
static int read_log(const char *path, int *loaded)
{
	struct report rp = { 0 };
	struct scan_stats st = { 0 };
	json_t *groups = json_object();
	struct read_opts o = { .max_input = LOG_MAX_BYTES, .seen = note_group, .ctx = groups };
	int err = report_read_file(&rp, path, &o, &st);
	char buf[NOISE_ENV_MAX];
	const char *env;

	rp.booted_always = 1;	/* a clocksource change compares the as-booted rows */
	report_finish(&rp, NULL, 0);
	if (err || st.capped || scan_corrupt(&st) || rp.nruns != 1 ||
	    !(env = noise_env(rp.runs[0].head, buf, sizeof(buf)))) {
		fprintf(stderr, "floors_gen: %s: unreadable, longer than %u bytes, damaged, not one run "
			"or without an env\n", path, LOG_MAX_BYTES);
		err = 1;
	} else if (!(*loaded = noise_run_loaded(&rp.runs[0]))) {
		for (size_t i = 0; i < rp.nfigs; i++) {
			json_t *g = json_object_get(groups, rp.figs[i].probe);
			double x, w;

			if (sample(&rp, &rp.figs[i], &x, &w))
				note(env, g ? (unsigned)json_integer_value(g) : 0, &rp.figs[i], x, w);
		}
	}
	json_decref(groups);
	report_free(&rp);
	keys_forget_logs();	/* the next log declares its own keys */
	return err != 0;
}

/*
 * s's pooled component, its degrees of freedom, the mean within part and
 * the runs behind it; 0: under 2 runs in every group. The degrees of
 * freedom are the runs less one per group, shrunk by the kurtosis k of the
 * residuals about the weighed mean, each over its run's own deviation
 * sqrt(w + component), as a variance estimate's are (Box: 2 (n - 1) / (k - 1), n - 1
 * for a normal's 3): identical runs' tails are long (a run now and then far
 * off), and a term of few degrees of freedom is tested by Student's t with
 * as few, whose tails are as long.
 */
static int pool(const struct seen *s, double *var, unsigned *df, double *within, unsigned *runs)
{
	double sum = 0, wsum = 0, m2 = 0, m4 = 0, k;

	*df = *runs = 0;
	for (size_t g = 0; g < s->ngroups; g++) {
		const struct in_group *gr = &s->groups[g];
		double tau2, mean = 0, wt = 0;

		if (gr->n < 2)
			continue;
		tau2 = between_component(gr->x, gr->w, gr->n);
		sum += (double)(gr->n - 1) * tau2;
		for (size_t i = 0; i < gr->n; i++) {
			double v = gr->w[i] + tau2;

			wsum += gr->w[i];
			mean += v > 0 ? gr->x[i] / v : gr->x[i];
			wt += v > 0 ? 1 / v : 1;
		}
		mean /= wt;
		for (size_t i = 0; i < gr->n; i++) {	/* each residual in its own run's units */
			double v = gr->w[i] + tau2;
			double d2 = (gr->x[i] - mean) * (gr->x[i] - mean) / (v > 0 ? v : 1);

			m2 += d2;
			m4 += d2 * d2;
		}
		*df += (unsigned)(gr->n - 1);
		*runs += (unsigned)gr->n;
	}
	if (!*df)
		return 0;
	*var = sum / *df;
	k = m2 > 0 ? m4 * *runs / (m2 * m2) : 3;
	if (k > 3)
		*df = (unsigned)fmax(1, floor(2.0 * *df / (k - 1)));
	*within = sqrt(wsum / *runs);
	return 1;
}

/* Is s printable ASCII without a tab (a name fit for a line of the table)? */
static int plain(const char *s)
{
	for (; *s; s++)
		if (*s < 0x20 || *s >= 0x7f)
			return 0;
	return 1;
}

int main(int argc, char **argv)
{
	unsigned loaded = 0;
	int quiet = 0;

	seen_index = json_object();
	if (argc > 1 && !strcmp(argv[1], "--tsv")) {	/* the only output; kept for old callers */
		argv++;
		argc--;
	}
	for (int i = 1; i < argc; i++) {
		int l = 0;

		if (read_log(argv[i], &l))
			return 1;
		loaded += (unsigned)l;
		quiet += !l;
	}
	printf("# floors_gen: %d runs (%u more left out: run on a loaded machine); between-run "
	       "variance components of log(figure)\n# env\tprobe\tresult\tkey\tsd\tdf\twithin\truns\n",
	       quiet, loaded);
	for (size_t i = 0; i < nseen; i++) {
		const struct seen *s = &seen[i];
		double var, within;
		unsigned df, runs;

		if (!plain(s->env) || !plain(s->probe) || !plain(s->result) || !plain(s->key)) {
			fprintf(stderr, "floors_gen: %s: a name that is not plain printable text\n", s->result);
			return 1;
		}
		if (!pool(s, &var, &df, &within, &runs))
			continue;
		/* rounded up: the table never claims less noise than measured */
		printf("%s\t%s\t%s\t%s\t%.4f\t%u\t%.4f\t%u\n", s->env, s->probe, s->result, s->key,
		       ceil(sqrt(var) * 1e4) / 1e4, df, ceil(within * 1e4) / 1e4, runs);
	}
	return ferror(stdout) ? 1 : 0;
}
