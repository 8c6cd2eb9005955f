/* SPDX-License-Identifier: MIT */
/*
 * `tp-report --fleet FILES|DIR` (docs/fleet.md): many runs, one a machine,
 * grouped by environment (CPU model, env, kernel, accel); per headline
 * figure of a group its n, median, p5, p95 and the machines that stand out
 * (median absolute deviation). Each file is read into a report of its own,
 * its headline values kept and the report freed: memory grows with runs x
 * headline figures, never with records. fleet.c reads and groups,
 * fleet_stats.c computes, fleet_outliers.c finds the outliers both the
 * text (fleet_print.c) and the page (fleet_html.c) open with.
 */
#ifndef TP_REPORT_FLEET_H
#define TP_REPORT_FLEET_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <jansson.h>

/* One run: a machine's, from a file (several when a log has several boots). */
struct fleet_run {
	char *file;
	int seq;		/* 1-based run number within its file */
	char *machine;		/* the run record's, "" when it has none */
	size_t group;
	double busy_pct;	/* other work's share of the CPUs when it was busy (noise.h), else NAN */
};

/* A headline figure: a probe's declared figure of one result, or a verdict item. */
struct fleet_fig {
	char *probe;
	char *result;		/* the result's name and identity, or the verdict item's line */
	char *key;
	char *unit;		/* the declared unit; NULL: none */
};

/* One figure's values in one group, one per run that has it. */
/* How a series' values are judged against its median, as the lead compares two runs. */
struct fleet_judge {
	double floor;		/* the ratio to the median an outlier exceeds (noise.h), >= 1 */
	unsigned char is_signed;	/* a signed difference (direction "zero"): no ratio */
	unsigned char is_count;		/* a count: 0 taken as 1 event for the ratio */
};

struct fleet_series {
	size_t fig;
	struct fleet_judge j;
	double *v;
	uint32_t *run;
	size_t n, cap;
};

/* The environment runs share, and their figures. */
struct fleet_group {
	char *env_key[4];	/* cpu_model, env, kernel, accel ("" when unknown) */
	size_t nruns;
	struct fleet_series *s;
	size_t ns, scap;
	json_t *index;		/* figure index (as a string) -> series index */
};

struct fleet {
	struct fleet_run *runs;
	size_t nruns, runcap;
	struct fleet_group *groups;
	size_t ngroups, groupcap;
	struct fleet_fig *figs;
	size_t nfigs, figcap;
	json_t *fig_index;	/* figure id -> index in figs */
	json_t *group_index;	/* environment -> index in groups */
	unsigned long long max_input;
	size_t files, unread;	/* files given (a folder's counted each), files not read */
};

/* The names of env_key, for people. */
extern const char *const fleet_env_names[4];

/*
 * Reads each path (a file, or every regular file of a folder, in name
 * order) into fl. A file that cannot be read is said on stderr and
 * counted in fl->unread. Returns the index of the first run read from
 * place (a path, read too when not among paths), or -1 (none, or no place).
 */
long fleet_read(struct fleet *fl, const char *const *paths, size_t n, const char *place);

void fleet_free(struct fleet *fl);

/* The figure's name for people: "probe result: key". Caller frees. */
char *fleet_fig_name(const struct fleet_fig *f);

/* The statistics of one series (fleet_stats.c). */
struct fleet_stats {
	size_t n;
	double median, p5, p95;
	double lo, hi;		/* the smallest and largest */
	double mad;		/* median absolute deviation (unscaled) */
};

/* A robust z of more than this marks an outlier (Iglewicz and Hoaglin, 1993). */
#define FLEET_OUTLIER_Z 3.5

void fleet_stats_of(const struct fleet_series *s, struct fleet_stats *st);

/*
 * Is v an outlier of series s (statistics st)? Robustly far from the rest,
 * |v - median| / (1.4826 MAD) > FLEET_OUTLIER_Z (when MAD is 0, any other
 * value), and further from the median than identical runs ever are: a
 * ratio beyond s->j.floor, the lead's noise floor (noise.h) for its probe,
 * key and env, or FLEET_FLOOR_UNMEASURED where none was measured. Value and median must both be above 0 (a count's 0 taken
 * as 1): as in the lead, a signed difference or a 0 has no ratio and no
 * outlier.
 */
int fleet_is_outlier(const struct fleet_series *s, const struct fleet_stats *st, double v);

/* An outlier's ratio to the median where no floor of identical runs was
 * measured for its env (no quiet A/A set): half as much again, the lead's
 * old fixed floor. `make noise-floor` and --floors give a measured one. */
#define FLEET_FLOOR_UNMEASURED 1.5

/* The percentile rank of v in s: 100 x (values below + half those equal) / n. */
double fleet_rank(const struct fleet_series *s, double v);

/* One outlier: the value at of series series of group group (fleet_outliers.c). */
struct fleet_outlier {
	size_t group, series, at;
	double value, median;
};

/*
 * Every outlier of fl, group by group and figure by figure, into *out (to
 * free); per_run (fl->nruns, zeroed) counts each run's. Returns how many.
 */
size_t fleet_outliers(const struct fleet *fl, struct fleet_outlier **out, size_t *per_run);

/* A run's cells for people: its machine (busy said beside it) and file (run N). Caller frees. */
void fleet_run_cells(const struct fleet_run *r, char **machine, char **file);

/*
 * The outliers as a table, the fleet's answer: machine, figure, value,
 * unit, ratio to its group's median, group, how many figures of its run
 * are outliers (per_run), file. table_free() it.
 */
struct table;
struct table *fleet_outlier_table(const struct fleet *fl, const struct fleet_outlier *o,
				  size_t n, const size_t *per_run);

/* Writes the fleet as text; with place >= 0, that run's standing instead (fleet_print.c). */
void fleet_print(FILE *f, const struct fleet *fl, long place);

/*
 * Writes DIR/index.html (fleet_html.c): the outlier table, then one
 * distribution plot per figure that has an outlier and per verdict item,
 * then every figure's statistics as a table. 0, or 1.
 */
int fleet_html(const struct fleet *fl, const char *dir);

#endif
