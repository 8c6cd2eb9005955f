// SPDX-License-Identifier: MIT
/* The lead's noise model; see noise.h. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conditions.h"
#include "noise.h"
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

/*
 * The measured floor of probe's key in env, else (and for attribution) the
 * largest of probe's there; 0: none.
 */
static double measured_in(const char *env, const char *probe, const char *key)
{
	const struct noise_floor *t = table_for(env);
	double probe_max = 0;

	if (!strcmp(probe, ATTRIBUTION))
		key = "";

	for (size_t i = 0; env && t[i].env; i++) {
		const struct noise_floor *nf = &t[i];

		if (strcmp(nf->env, env) || strcmp(nf->probe, probe))
			continue;
		if (!strcmp(nf->key, key))
			return nf->ratio;
		probe_max = fmax(probe_max, nf->ratio);
	}
	return probe_max;
}

double noise_floor_of(const struct report *rp, const struct figure *fg, size_t r, int *measured)
{
	char b0[NOISE_ENV_MAX], br[NOISE_ENV_MAX];
	double m = fmax(measured_in(noise_env(rp->runs[0].head, b0, sizeof(b0)), fg->probe, fg->key),
			measured_in(noise_env(rp->runs[r].head, br, sizeof(br)), fg->probe, fg->key));

	if (measured)
		*measured = m > 0;
	return m > 0 ? fmax(1, m) : 1;
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

/* One line into *nf; NULL, or what is wrong with it. */
static const char *parse_floor(char *line, struct noise_floor *nf)
{
	char *f[5], *end, *save = NULL;
	size_t n = 0;
	double ratio;
	unsigned long figures;

	for (char *t = strtok_r(line, "\t", &save); t && n < 5; t = strtok_r(NULL, "\t", &save))
		f[n++] = t;
	if (n != 5 || strtok_r(NULL, "\t", &save))
		return "not five fields separated by tabs";
	if (!plain_name(f[0]) || !plain_name(f[1]) || !plain_name(f[2]))
		return "an env, probe or key that is not plain printable text";
	ratio = strtod(f[3], &end);
	if (*end || end == f[3] || !(ratio >= 1) || !(ratio <= NOISE_RATIO_MAX))
		return "a ratio that is not a number from 1 to 1e9";
	errno = 0;
	figures = strtoul(f[4], &end, 10);
	if (*end || end == f[4] || errno || f[4][0] == '-' || figures > 0xffffffffUL)
		return "a count of figures that is not a whole number";
	*nf = (struct noise_floor){ xstrdup(f[0]), xstrdup(f[1]), xstrdup(f[2]), ratio,
				    (unsigned)figures };
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
