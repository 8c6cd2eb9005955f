// SPDX-License-Identifier: MIT
/* The lead's noise model; see noise.h. */
#include <errno.h>
#include <sys/stat.h>
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
/* The built-in table, parsed once. */
static struct noise_floor *builtin;
static size_t nbuiltin;
static unsigned builtin_runs;

static int parse_text(const char *name, const char *text, size_t len, struct noise_floor **out,
		      size_t *n, unsigned *runs);

const struct noise_floor *noise_builtin(void)
{
	static const struct noise_floor none = { 0 };

	if (!builtin && parse_text("built-in floors.tsv", noise_builtin_tsv, strlen(noise_builtin_tsv),
				   &builtin, &nbuiltin, &builtin_runs))
		return &none;
	return builtin;
}

unsigned noise_builtin_runs(void)
{
	noise_builtin();
	return builtin_runs;
}

/* The table that holds env's floors: the user's when it names env, else the built-in. */
static const struct noise_floor *table_for(const char *env)
{
	for (size_t i = 0; env && i < nuser; i++)
		if (!strcmp(user_floors[i].env, env))
			return user_floors;
	return noise_builtin();
}

char *noise_result_name(const struct figure *fg)
{
	return fg->ident && *fg->ident ? xasprintf("%s %s", fg->name, fg->ident) : xstrdup(fg->name);
}

/* The wider of two floors: the larger sd, the fewer degrees of freedom. */
static void widen(struct noise_floor *to, const struct noise_floor *nf)
{
	if (!to->runs) {
		*to = *nf;
		return;
	}
	to->sd = fmax(to->sd, nf->sd);
	to->df = to->df < nf->df ? to->df : nf->df;
}

#define NOISE_FEW_RUNS 40

static int by_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/*
 * The measured floor of probe's result and key in env, else the widest of
 * its key's, else of its probe's; runs 0: none. A figure's own variance,
 * estimated from fewer than NOISE_FEW_RUNS runs, is drawn halfway towards
 * its class's (the median over the env's results with that key) where that
 * is larger: a run far off now and then may not have come among so few.
 * Attribution's sources are named per machine: its probe's widest is no
 * floor for a source never measured.
 */
static struct noise_floor measured_scan(const char *env, const char *probe, const char *result,
					const char *key)
{
	const struct noise_floor *t = table_for(env);
	struct noise_floor of_key = { 0 }, of_probe = { 0 }, own = { 0 };
	double *cls = NULL, med;
	size_t n = 0, cap = 0;

	for (size_t i = 0; env && t[i].env; i++) {
		const struct noise_floor *nf = &t[i];

		if (strcmp(nf->env, env) || strcmp(nf->probe, probe))
			continue;
		widen(&of_probe, nf);
		if (strcmp(nf->key, key))
			continue;
		grow(&cls, &cap, n + 1, sizeof(*cls));
		cls[n++] = nf->sd * nf->sd;
		if (!strcmp(nf->result, result))
			own = *nf;
		widen(&of_key, nf);
	}
	if (own.runs && own.runs < NOISE_FEW_RUNS && n > 2) {
		qsort(cls, n, sizeof(*cls), by_double);
		med = cls[n / 2];
		if (med > own.sd * own.sd)
			own.sd = sqrt((own.sd * own.sd + med) / 2);
	}
	free(cls);
	/* attribution's sources are named per machine: one never measured has no floor */
	if (!strcmp(probe, ATTRIBUTION))
		of_probe.runs = 0;
	return own.runs ? own : of_key.runs ? of_key : of_probe;
}

/*
 * measured_scan()'s answers, remembered: the lead asks again for the same
 * figures (its rank, its family, its words), and each scan reads the whole
 * table. Keyed by env, probe, result and key, each after its length (names
 * from a record may hold any character: no separator is safe); emptied when
 * the user's floors change (noise_load_floors(), noise_free_floors()).
 */
static json_t *memo_index;
static struct noise_floor *memo;
static size_t nmemo, capmemo;

static void memo_forget(void)
{
	json_decref(memo_index);
	memo_index = NULL;
	free(memo);
	memo = NULL;
	nmemo = capmemo = 0;
}

static struct noise_floor measured_in(const char *env, const char *probe, const char *result,
				      const char *key)
{
	char *k;
	json_t *at;
	struct noise_floor nf;

	if (!env)
		return (struct noise_floor){ 0 };
	k = xasprintf("%zu %s%zu %s%zu %s%zu %s", strlen(env), env, strlen(probe), probe,
		      strlen(result), result, strlen(key), key);
	if (!memo_index)
		memo_index = json_object();
	at = json_object_get(memo_index, k);
	if (at) {
		free(k);
		return memo[json_integer_value(at)];
	}
	nf = measured_scan(env, probe, result, key);
	grow(&memo, &capmemo, nmemo + 1, sizeof(*memo));
	memo[nmemo] = nf;
	json_object_set_new(memo_index, k, json_integer((json_int_t)nmemo++));
	free(k);
	return nf;
}

/* The larger of run 0's and run r's envs' floors of fg; runs 0: none. */
static struct noise_floor floor_for(const struct report *rp, const struct figure *fg, size_t r)
{
	char b0[NOISE_ENV_MAX], br[NOISE_ENV_MAX];
	char *result = noise_result_name(fg);
	struct noise_floor f0 = measured_in(noise_env(rp->runs[0].head, b0, sizeof(b0)), fg->probe,
					    result, fg->key),
			   fr = measured_in(noise_env(rp->runs[r].head, br, sizeof(br)), fg->probe,
					    result, fg->key);

	free(result);
	return fr.runs && (!f0.runs || fr.sd > f0.sd) ? fr : f0;
}

double noise_between_var(const struct report *rp, const struct figure *fg, size_t r,
			 unsigned *df, int *measured)
{
	struct noise_floor f = floor_for(rp, fg, r);

	if (measured)
		*measured = f.runs > 0;
	if (df)
		*df = f.df;
	return f.runs ? f.sd * f.sd : 0;
}

double noise_outlier_floor(const struct report *rp, const struct figure *fg, size_t r,
			   int *measured)
{
	struct noise_floor f = floor_for(rp, fg, r);
	enum key_kind kind;

	if (measured)
		*measured = f.runs > 0;
	kind = fg->kind;
	/* context never; a count or a maximum of one run has no ratio to judge (judge.h) */
	if (kind == KEY_KIND_CONTEXT || kind == KEY_KIND_COUNT || kind == KEY_KIND_MAX)
		return INFINITY;
	return exp(student_quantile(NOISE_OUTLIER_P, f.df ? f.df : 1) *
		   sqrt(2 * (f.sd * f.sd + f.within * f.within)));
}

double noise_floor_of(const struct report *rp, const struct figure *fg, size_t r, int *measured)
{
	return exp(1.959964 * sqrt(2 * noise_between_var(rp, fg, r, NULL, measured)));
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

static void free_table(struct noise_floor **t, size_t *n)
{
	for (size_t i = 0; i < *n; i++) {
		free((char *)(*t)[i].env);
		free((char *)(*t)[i].probe);
		free((char *)(*t)[i].result);
		free((char *)(*t)[i].key);
	}
	free(*t);
	*t = NULL;
	*n = 0;
}

void noise_free_floors(void)
{
	memo_forget();
	free_table(&user_floors, &nuser);
	free_table(&builtin, &nbuiltin);
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
	double sd, within;
	unsigned df, runs;

	if (split_tabs(line, f, NOISE_TSV_FIELDS) != NOISE_TSV_FIELDS)
		return "not eight fields separated by tabs";
	for (size_t i = 0; i < 4; i++)
		if (!plain_name(f[i]))
			return "an env, probe, result or key that is not plain printable text";
	if (!number_in(f[4], 0, NOISE_SD_MAX, &sd))
		return "an sd that is not a number from 0 to 20";
	if (!whole(f[5], &df))
		return "degrees of freedom that are not a whole number";
	if (!number_in(f[6], 0, NOISE_SD_MAX, &within))
		return "a within-run sd that is not a number from 0 to 20";
	if (!whole(f[7], &runs) || !runs)
		return "a count of runs that is not a whole number from 1";
	*nf = (struct noise_floor){ xstrdup(f[0]), xstrdup(f[1]), xstrdup(f[2]), xstrdup(f[3]),
				    sd, df, within, runs };
	return NULL;
}

/* "# ... N runs ..." of a table's first comment: how many runs it came from. */
static void note_runs(const char *line, unsigned *runs)
{
	const char *p = strstr(line, " runs");
	const char *q = p;

	while (q && q > line && q[-1] >= '0' && q[-1] <= '9')
		q--;
	if (p && q < p && !*runs)
		*runs = (unsigned)strtoul(q, NULL, 10);
}

/*
 * The len bytes of text (the file name) into *out: every line valid, LF or
 * CRLF ends, no NUL, at least one floor; 0, or -1 after one line on stderr.
 */
static int parse_text(const char *name, const char *text, size_t len, struct noise_floor **out,
		      size_t *n, unsigned *runs)
{
	size_t cap = 0, lineno = 0;
	const char *why = NULL;

	*out = NULL;
	*n = 0;
	*runs = 0;
	if (memchr(text, 0, len))
		why = "a NUL byte: not a text file of floors";	/* said of the file, no line */
	for (size_t at = 0; !why && at < len;) {
		const char *nl = memchr(text + at, '\n', len - at);
		size_t end = nl ? (size_t)(nl - text) : len;
		char line[1024];
		size_t ln = end - at;

		lineno++;
		if (ln && text[end - 1] == '\r')
			ln--;	/* CRLF: the line ends at the CR */
		if (ln >= sizeof(line)) {
			why = "longer than 1023 bytes";
			break;
		}
		memcpy(line, text + at, ln);
		line[ln] = 0;
		at = end + 1;
		if (memchr(line, '\r', ln)) {
			why = "a CR inside the line (only CRLF or LF ends a line)";
			break;
		}
		if (line[0] == '#')
			note_runs(line, runs);
		if (!ln || line[0] == '#')
			continue;
		grow(out, &cap, *n + 2, sizeof(**out));
		why = parse_floor(line, &(*out)[*n]);
		if (!why)
			(*out)[++*n] = (struct noise_floor){ 0 };
	}
	if (!why && !*n) {
		why = "no floor in it (an empty file, or comments only)";
		lineno = 0;
	}
	if (why) {
		char num[32];

		snprintf(num, sizeof(num), "%zu", lineno);
		if (lineno)
			warn_visible("report: --floors=%s: line %s: %s; no floor taken\n", name, num,
				     why);
		else
			warn_visible("report: --floors=%s: %s; no floor taken\n", name, why);
		free_table(out, n);
		return -1;
	}
	return 0;
}

int noise_load_floors(const char *path)
{
	FILE *f = fopen(path, "rb");
	struct stat st = { 0 };
	char *text;
	size_t len;
	unsigned runs;
	int rc;

	if (!f) {
		warn_visible("report: --floors=%s: %s\n", path, strerror(errno));
		return -1;
	}
	if (fstat(fileno(f), &st) || !S_ISREG(st.st_mode) || st.st_size > (off_t)NOISE_FILE_MAX) {
		warn_visible("report: --floors=%s: %s; no floor taken\n", path,
			     S_ISDIR(st.st_mode) ? "a directory, not a file of floors" :
			     !S_ISREG(st.st_mode) ? "not a regular file (a device or a pipe)" :
						    "larger than 16 MiB");
		fclose(f);
		return -1;
	}
	text = xcalloc((size_t)st.st_size + 1, 1);
	len = fread(text, 1, (size_t)st.st_size, f);
	fclose(f);
	noise_free_floors();
	memo_forget();
	rc = parse_text(path, text, len, &user_floors, &nuser, &runs);
	free(text);
	return rc;
}
