// SPDX-License-Identifier: MIT
/* The lead's noise model; see noise.h. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conditions.h"
#include "judge.h"
#include "keys.h"
#include "noise.h"
#include "primary.h"
#include "ratio.h"
#include "student.h"
#include "util.h"

const char *noise_env(const json_t *head, char *buf, size_t len)
{
	const char *env = json_string_value(json_object_get(head, "env"));
	const char *accel = json_string_value(json_object_get(head, "accel"));
	size_t n = accel ? strcspn(accel, ":") : 0;

	if (!env || !accel || !n)
		return env;
	snprintf(buf, len, "%s/%.*s", env, (int)n, accel);
	return buf;
}

/* The user's floors (noise_load_floors()), NULL-env terminated; NULL: none. */
static struct noise_floor *user_floors;
static size_t nuser;

/* The table that holds env's floors: the user's when it names env, else the built-in. */
static const struct noise_floor *table_for(const char *env)
{
	for (size_t i = 0; env && i < nuser; i++)
		if (!strcmp(user_floors[i].env, env))
			return user_floors;
	return noise_floors;
}

char *noise_result_name(const struct figure *fg)
{
	return fg->ident && *fg->ident ? xasprintf("%s %s", fg->name, fg->ident) : xstrdup(fg->name);
}

/* The widest of two floors: the larger sd and ratio, the fewer degrees of freedom. */
static void widen(struct noise_floor *to, const struct noise_floor *nf)
{
	if (!to->figures) {
		*to = *nf;
		return;
	}
	to->sd = fmax(to->sd, nf->sd);
	to->ratio = fmax(to->ratio, nf->ratio);
	to->df = to->df < nf->df ? to->df : nf->df;
	to->figures += nf->figures;
}

/*
 * The measured floor of probe's result and key in env, else the widest of
 * its key's, else of its probe's (always for attribution); figures 0: none.
 */
static struct noise_floor measured_in(const char *env, const char *probe, const char *result,
				      const char *key)
{
	const struct noise_floor *t = table_for(env);
	struct noise_floor of_key = { 0 }, of_probe = { 0 };
	int attribution = !strcmp(probe, ATTRIBUTION);

	for (size_t i = 0; env && t[i].env; i++) {
		const struct noise_floor *nf = &t[i];

		if (strcmp(nf->env, env) || strcmp(nf->probe, probe))
			continue;
		widen(&of_probe, nf);
		if (attribution || strcmp(nf->key, key))
			continue;
		if (!strcmp(nf->result, result))
			return *nf;
		widen(&of_key, nf);
	}
	return of_key.figures ? of_key : of_probe;
}

/*
 * How many figures the comparison of run r against run 0 tests at once:
 * those with a ratio (ratio_log()). Cached per report (its id) and run.
 */
static size_t family_size(const struct report *rp, size_t r)
{
	static unsigned c_id, c_gen;
	static size_t c_r, c_m;
	size_t m = 0;

	if (rp->id && c_id == rp->id && c_r == r && c_gen == keys_generation())
		return c_m;
	for (size_t i = 0; i < rp->nfigs; i++)
		m += !isnan(ratio_log(rp, &rp->figs[i], r));
	c_id = rp->id;
	c_r = r;
	c_gen = keys_generation();
	c_m = m;
	return m;
}

/*
 * The log of nf's floor among m figures tested at once (noise.h); an
 * attribution count's is its probe's widest pair alone (Poisson's test on
 * the counts themselves comes first: lead.c).
 */
static double floor_log(const struct noise_floor *nf, size_t m, int attribution)
{
	double bound = 0;

	if (!attribution && nf->df && nf->sd > 0)
		bound = student_quantile(JUDGE_ALPHA / (double)(m ? m : 1), nf->df) * M_SQRT2 * nf->sd;
	return fmax(log(fmax(1, nf->ratio)), bound);
}

double noise_floor_of(const struct report *rp, const struct figure *fg, size_t r, int *measured)
{
	char b0[NOISE_ENV_MAX], br[NOISE_ENV_MAX];
	char *result = noise_result_name(fg);
	struct noise_floor f0 = measured_in(noise_env(rp->runs[0].head, b0, sizeof(b0)), fg->probe,
					    result, fg->key),
			   fr = measured_in(noise_env(rp->runs[r].head, br, sizeof(br)), fg->probe,
					    result, fg->key);
	size_t m = primary_question(rp, fg, r) ? 1 : family_size(rp, r);
	int attribution = !strcmp(fg->probe, ATTRIBUTION);
	double lf = 0;

	free(result);
	if (f0.figures)
		lf = floor_log(&f0, m, attribution);
	if (fr.figures)
		lf = fmax(lf, floor_log(&fr, m, attribution));
	if (measured)
		*measured = f0.figures || fr.figures;
	return exp(lf);
}

int noise_run_loaded(const struct run *run)
{
	json_t *pct = run->end ? json_object_get(run->end, "other_busy_pct") : NULL;

	return !json_is_number(pct) || json_number_value(pct) >= CONDITIONS_BUSY_PCT;
}

int noise_run_busy(const struct run *run)
{
	json_t *pct = run->end ? json_object_get(run->end, "other_busy_pct") : NULL;

	return json_is_number(pct) && json_number_value(pct) >= CONDITIONS_BUSY_PCT;
}

void noise_free_floors(void)
{
	for (size_t i = 0; i < nuser; i++) {
		free((char *)user_floors[i].env);
		free((char *)user_floors[i].probe);
		free((char *)user_floors[i].result);
		free((char *)user_floors[i].key);
	}
	free(user_floors);
	user_floors = NULL;
	nuser = 0;
}

/* A name: 1 to 200 bytes of printable ASCII. */
static int plain_name(const char *s)
{
	size_t n = strlen(s);

	if (!n || n > 200)
		return 0;
	for (; *s; s++)
		if (*s < 0x20 || *s >= 0x7f)
			return 0;
	return 1;
}

/* Splits line at tabs into at most max fields; how many there were (max + 1: too many). */
static size_t split_tabs(char *line, char **f, size_t max)
{
	size_t n = 0;

	for (char *t = line; t; n++) {
		if (n == max)
			return max + 1;
		f[n] = t;
		t = strchr(t, '\t');
		if (t)
			*t++ = 0;
	}
	return n;
}

/* A whole number from 0 to UINT_MAX in s into *u; 0 when it is not one. */
static int whole(const char *s, unsigned *u)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (*end || end == s || errno || s[0] == '-' || v > 0xffffffffUL)
		return 0;
	*u = (unsigned)v;
	return 1;
}

/* A number from lo to hi in s into *d; 0 when it is not one. */
static int number_in(const char *s, double lo, double hi, double *d)
{
	char *end;

	*d = strtod(s, &end);
	return !*end && end != s && *d >= lo && *d <= hi;
}

/* One line into *nf; NULL, or what is wrong with it. */
static const char *parse_floor(char *line, struct noise_floor *nf)
{
	char *f[NOISE_TSV_FIELDS];
	double sd, ratio;
	unsigned df, figures;

	if (split_tabs(line, f, NOISE_TSV_FIELDS) != NOISE_TSV_FIELDS)
		return "not eight fields separated by tabs";
	for (size_t i = 0; i < 4; i++)
		if (!plain_name(f[i]))
			return "an env, probe, result or key that is not plain printable text";
	if (!number_in(f[4], 0, NOISE_SD_MAX, &sd))
		return "an sd that is not a number from 0 to 20";
	if (!whole(f[5], &df))
		return "degrees of freedom that are not a whole number";
	if (!number_in(f[6], 1, NOISE_RATIO_MAX, &ratio))
		return "a ratio that is not a number from 1 to 1e9";
	if (!whole(f[7], &figures))
		return "a count of figures that is not a whole number";
	*nf = (struct noise_floor){ xstrdup(f[0]), xstrdup(f[1]), xstrdup(f[2]), xstrdup(f[3]),
				    sd, df, ratio, figures };
	return NULL;
}

int noise_load_floors(const char *path)
{
	FILE *f = fopen(path, "r");
	char line[1024];
	size_t lineno = 0, cap = 0;

	if (!f) {
		warn_visible("report: --floors=%s: %s\n", path, strerror(errno));
		return -1;
	}
	noise_free_floors();
	while (fgets(line, sizeof(line), f)) {
		size_t n = strlen(line);
		const char *why;

		lineno++;
		if (n && line[n - 1] == '\n')
			line[--n] = 0;
		if (!n || line[0] == '#')
			continue;
		grow(&user_floors, &cap, nuser + 2, sizeof(*user_floors));
		why = n + 1 >= sizeof(line) ? "longer than 1022 bytes" : parse_floor(line, &user_floors[nuser]);
		if (why) {
			char num[32];

			snprintf(num, sizeof(num), "%zu", lineno);
			warn_visible("report: --floors=%s: line %s: %s; no floor taken\n", path, num, why);
			fclose(f);
			noise_free_floors();
			return -1;
		}
		user_floors[++nuser] = (struct noise_floor){ 0 };
	}
	fclose(f);
	return 0;
}
