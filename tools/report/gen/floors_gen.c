// SPDX-License-Identifier: MIT
/*
 * Writes the lead's noise floors (tools/report/noise.h) as C on stdout,
 * measured on runs of one configuration: floors_gen LOG... (none: an
 * empty table), each log one run. A set is the logs named alike but for
 * their number and side (aa-host-3-a.log and aa-host-7-b.log: set
 * aa-host): one suite and one recipe (tools/aa-pairs.sh). Every two logs
 * of one set and one env are a pair, read as a comparison of their own;
 * for each env, probe, result and key, from the log ratios the lead
 * compares (ratio_log()): the largest, and the spread of the figure's log
 * within a set, pooled over sets (over the n runs of a set the mean
 * squared log ratio of its pairs is twice their variance), with its
 * degrees of freedom. Through the report's own reading and lining up;
 * with --tsv first: as tp-report --floors reads them, for `make
 * noise-floor`. Linked against the report's objects with an empty table
 * of its own (it measures without floors); report.mk runs it at build
 * time. Exit 1, with one line, on a log that does not fit.
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

/* One figure's pairs within one set: their squared log ratios summed, and how many. */
struct in_set {
	size_t set;
	double sq;
	unsigned pairs;
};

struct seen {
	struct noise_floor nf;
	struct in_set *sets;
	size_t nsets;
	double max_lr;
};

static struct seen *seen;
static size_t nseen;

static struct seen *find(const char *env, const char *probe, const char *result, const char *key)
{
	for (size_t i = 0; i < nseen; i++)
		if (!strcmp(seen[i].nf.env, env) && !strcmp(seen[i].nf.probe, probe) &&
		    !strcmp(seen[i].nf.result, result) && !strcmp(seen[i].nf.key, key))
			return &seen[i];
	seen = xrealloc(seen, (nseen + 1) * sizeof(*seen));
	seen[nseen] = (struct seen){ { xstrdup(env), xstrdup(probe), xstrdup(result), xstrdup(key),
				       0, 0, 1, 0 }, NULL, 0, 0 };
	return &seen[nseen++];
}

static void note(size_t set, const char *env, const struct figure *fg, double log_ratio)
{
	char *result = noise_result_name(fg);
	struct seen *s = find(env, fg->probe, result, fg->key);
	size_t k;

	free(result);
	for (k = 0; k < s->nsets && s->sets[k].set != set; k++)
		;
	if (k == s->nsets) {
		s->sets = xrealloc(s->sets, (s->nsets + 1) * sizeof(*s->sets));
		s->sets[s->nsets++] = (struct in_set){ set, 0, 0 };
	}
	s->sets[k].sq += log_ratio * log_ratio;
	s->sets[k].pairs++;
	s->max_lr = fmax(s->max_lr, log_ratio);
	s->nf.figures++;
}

/*
 * s's pooled sd and df: a set whose pairs are every two of its n runs has
 * n (n - 1) / 2 of them, and the sum of their squared differences is n
 * times its sum of squared deviations.
 */
static void pool(struct seen *s)
{
	double ss = 0;
	unsigned df = 0;

	for (size_t k = 0; k < s->nsets; k++) {
		double n = (1 + sqrt(1 + 8.0 * s->sets[k].pairs)) / 2;

		ss += s->sets[k].sq / n;
		df += (unsigned)lround(n) - 1;
	}
	s->nf.df = df;
	s->nf.sd = df ? sqrt(ss / df) : 0;
	s->nf.ratio = exp(s->max_lr);
}

struct reading {
	struct splitter *split;
	const char *path;
};

static void on_record(void *ctx, const struct rec *r)
{
	struct reading *rd = ctx;

	keys_note_record(r->obj, rd->path);
	report_add_record(rd->split, r->obj, r->type);
	json_decref(r->obj);
}

static int read_log(struct report *rp, const char *path)
{
	struct scan_stats st = { 0 };
	struct reading rd = { report_file_begin(rp, path), path };
	int err = scan_file(path, LOG_MAX_BYTES, on_record, &rd, &st);

	report_file_end(rd.split);
	if (err || st.capped || scan_corrupt(&st)) {
		fprintf(stderr, "floors_gen: %s: unreadable, longer than %u bytes or damaged\n", path,
			LOG_MAX_BYTES);
		return 1;
	}
	return 0;
}

/*
 * One pair of set into seen when both logs are of one env and neither ran on a
 * loaded machine (noise_run_loaded(); *pairs counted, else *loaded); 1
 * when a log does not fit.
 */
static int measure_pair(size_t set, const char *a, const char *b, unsigned *pairs,
			unsigned *loaded)
{
	struct report rp = { 0 };
	const char *env[2] = { NULL, NULL };
	char buf[2][NOISE_ENV_MAX];
	int bad = read_log(&rp, a) || read_log(&rp, b);

	if (!bad && rp.nruns != 2) {
		fprintf(stderr, "floors_gen: %s, %s: not one run each\n", a, b);
		bad = 1;
	}
	for (size_t r = 0; !bad && r < 2; r++)
		env[r] = noise_env(rp.runs[r].head, buf[r], sizeof(buf[r]));
	if (!bad && (!env[0] || !env[1])) {
		fprintf(stderr, "floors_gen: %s, %s: a run without an env\n", a, b);
		bad = 1;
	}
	if (!bad && (noise_run_loaded(&rp.runs[0]) || noise_run_loaded(&rp.runs[1]))) {
		++*loaded;	/* a loaded machine's spread is its neighbours', not a floor */
	} else if (!bad && !strcmp(env[0], env[1])) {
		++*pairs;
		rp.booted_always = 1;	/* a clocksource change compares the as-booted rows */
		report_finish(&rp, NULL, 0);
		for (size_t i = 0; i < rp.nfigs; i++) {
			double lr = ratio_log(&rp, &rp.figs[i], 1);

			if (!isnan(lr))
				note(set, env[0], &rp.figs[i], lr);
		}
	}
	report_free(&rp);
	return bad;
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

/* The length of path's set name: its base name without "-N-a.log" / "-N-b.log". */
static size_t set_len(const char *path, const char **base)
{
	const char *b = strrchr(path, '/'), *e;
	size_t n;

	*base = b = b ? b + 1 : path;
	n = strlen(b);
	if (n < 8 || (strcmp(b + n - 6, "-a.log") && strcmp(b + n - 6, "-b.log")))
		return n;
	for (e = b + n - 6; e > b && e[-1] >= '0' && e[-1] <= '9'; e--)
		;
	return e > b && e[-1] == '-' && e < b + n - 6 ? (size_t)(e - 1 - b) : n;
}

static int same_set(const char *p, const char *q)
{
	const char *bp, *bq;
	size_t np = set_len(p, &bp), nq = set_len(q, &bq);

	return np == nq && !strncmp(bp, bq, np);
}

/* The first argument of the set argv[i] belongs to: the set's number. */
static size_t set_of(char **argv, int i)
{
	int k = 1;

	while (k < i && !same_set(argv[k], argv[i]))
		k++;
	return (size_t)k;
}

/* --tsv: the floors as tp-report --floors reads them (noise.h), one a line. */
static int print_tsv(int runs, unsigned pairs, unsigned loaded)
{
	printf("# floors_gen --tsv: %d runs, %u pairs, %u more left out (a run on a loaded "
	       "machine)\n# env\tprobe\tresult\tkey\tsd\tdf\tratio\tfigures\n", runs, pairs,
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
	       "(%u more left out: a run on a loaded machine): do not edit. */\n"
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
		/* rounded up: a pair of the set itself stays within its floor */
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

	if (tsv) {
		argv++;
		argc--;
	}
	for (int i = 1; i < argc; i++)
		for (int j = i + 1; j < argc; j++) {
			if (!same_set(argv[i], argv[j]))
				continue;
			if (measure_pair(set_of(argv, i), argv[i], argv[j], &pairs, &loaded))
				return 1;
			keys_free();	/* the next pair declares its own keys */
		}
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
