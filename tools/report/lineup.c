// SPDX-License-Identifier: MIT
/* How many figures line up across the runs, and why not; see lineup.h. */
#include <stdlib.h>
#include <string.h>

#include "cells.h"
#include "lineup.h"

/* Of a key's values, as many as this are named per run; then "+N more". */
#define LINEUP_VALUES_MAX 3

/* The end of the row (a result's figures, adjacent) that starts at figure i. */
static size_t row_end(const struct report *rp, size_t i)
{
	size_t end = i + 1;

	while (end < rp->nfigs && !strcmp(rp->figs[end].id, rp->figs[i].id))
		end++;
	return end;
}

/* Has run r a figure of the row [i, end)? */
static int row_in_run(const struct report *rp, size_t i, size_t end, size_t r)
{
	for (; i < end; i++)
		if (rp->figs[i].per_run[r].n)
			return 1;
	return 0;
}

size_t lineup_of(const struct report *rp, size_t first, struct lineup *lu)
{
	size_t i = first;

	memset(lu, 0, sizeof(*lu));
	while (i < rp->nfigs && !strcmp(rp->figs[i].probe, rp->figs[first].probe)) {
		const struct figure *fg = &rp->figs[i];
		size_t end = row_end(rp, i);
		int all = 1;

		if (fg->as_booted) {
			for (size_t r = 0; r < rp->nruns; r++)
				all &= row_in_run(rp, i, end, r);
			lu->booted_total++;
			lu->booted_lined += (size_t)all;
			i = end;
			continue;
		}
		for (size_t r = 0; r < rp->nruns; r++)
			all &= fg->per_run[r].n > 0;
		lu->total++;
		lu->lined += (size_t)all;
		i++;
	}
	return i;
}

void lineup_say(struct sbuf *b, const struct lineup *lu)
{
	sbuf_addf(b, "%zu of %zu figures measured in every run", lu->lined, lu->total);
}

void lineup_say_booted(struct sbuf *b, const struct lineup *lu)
{
	if (lu->booted_total)
		sbuf_addf(b, "; by each run's own default clocksource: %zu of %zu rows",
			  lu->booted_lined, lu->booted_total);
}

void lineup_booted(struct sbuf *b, const struct report *rp)
{
	for (size_t i = 0; i < rp->nruns; i++) {
		const char *cs = run_booted_clocksource(&rp->runs[i]);

		sbuf_addf(b, "%s%s %s", i ? ", " : "", rp->runs[i].label, cs ? cs : "unknown");
	}
}

/*
 * The identity keys of the probe's results: key -> one object per run, of
 * its values there (as text). present[r]: how many results run r has.
 */
static json_t *key_values(const struct report *rp, const char *probe, size_t *present)
{
	json_t *keys = json_object();
	struct sbuf v = { 0 };

	for (size_t ri = 0; ri < rp->nruns; ri++) {
		const struct run *run = &rp->runs[ri];

		for (size_t k = 0; k < run->nres; k++) {
			const struct result *r = &run->res[k];
			const char *key;
			json_t *val, *per;

			if (strcmp(r->probe, probe))
				continue;
			present[ri]++;
			json_object_foreach(r->first, key, val) {
				if (!key_is_ident(r->first, key, val) || json_is_object(val) ||
				    json_is_array(val))
					continue;
				if (!(per = json_object_get(keys, key))) {
					per = json_array();
					for (size_t n = 0; n < rp->nruns; n++)
						json_array_append_new(per, json_object());
					json_object_set_new(keys, key, per);
				}
				sbuf_reset(&v);
				fmt_scalar(&v, val);
				json_object_set(json_array_get(per, ri), v.s, json_true());
			}
		}
	}
	sbuf_free(&v);
	return keys;
}

/* Of the values in any run that has the probe, the share every such run has. */
static double shared_share(const json_t *per, const size_t *present, size_t nruns)
{
	json_t *all = json_object(), *t;
	size_t shared = 0, n;
	const char *val;

	for (size_t r = 0; r < nruns; r++)
		if (present[r])
			json_object_update(all, json_array_get(per, r));
	json_object_foreach(all, val, t) {
		int everywhere = 1;

		for (size_t r = 0; r < nruns; r++)
			everywhere &= !present[r] || json_object_get(json_array_get(per, r), val) != NULL;
		shared += (size_t)everywhere;
	}
	n = json_object_size(all);
	json_decref(all);
	return n ? (double)shared / (double)n : 1;
}

/* "kvm-clock on host, hpet on appliance": each run's values of one key. */
static void say_values(struct sbuf *b, const struct report *rp, const json_t *per,
		       const size_t *present)
{
	int any = 0;

	for (size_t r = 0; r < rp->nruns; r++) {
		const json_t *vals = json_array_get(per, r);
		size_t n = 0;
		const char *val;
		json_t *t;

		if (!present[r])
			continue;
		sbuf_adds(b, any++ ? ", " : "");
		json_object_foreach((json_t *)vals, val, t) {
			if (n < LINEUP_VALUES_MAX)
				sbuf_addf(b, "%s%s", n ? "/" : "", val);
			n++;
		}
		if (!n)
			sbuf_adds(b, "none");
		if (n > LINEUP_VALUES_MAX)
			sbuf_addf(b, " and %zu more", n - LINEUP_VALUES_MAX);
		sbuf_addf(b, " on %s", rp->runs[r].label);
	}
}

/*
 * Why the probe's figures do not line up: the runs without its results, then
 * the identity keys no value of which every run has; when there is none, the
 * key with the fewest values in common.
 */
static void say_why(struct sbuf *b, const struct report *rp, const char *probe)
{
	size_t *present = xcalloc(rp->nruns, sizeof(*present)), named = 0;
	json_t *keys = key_values(rp, probe, present), *per, *least = NULL;
	const char *key, *least_key = NULL;
	double least_share = 1;

	for (size_t r = 0; r < rp->nruns; r++)
		if (!present[r])
			sbuf_addf(b, "; %s has none of its results", rp->runs[r].label), named++;
	json_object_foreach(keys, key, per) {
		double share = shared_share(per, present, rp->nruns);

		if (share == 0) {
			sbuf_addf(b, "; the runs differ in %s: ", key);
			say_values(b, rp, per, present);
			named++;
		} else if (share < least_share) {
			least_share = share;
			least = per;
			least_key = key;
		}
	}
	if (!named && least) {
		sbuf_addf(b, "; the runs differ most in %s: ", least_key);
		say_values(b, rp, least, present);
	} else if (!named) {
		sbuf_adds(b, "; no identity key differs: the runs measured different results");
	}
	json_decref(keys);
	free(present);
}

/* Is key of rec the string want? */
static int str_is(const json_t *rec, const char *key, const char *want)
{
	const char *s = json_string_value(json_object_get(rec, key));

	return s && !strcmp(s, want);
}

/* Has run a skip record of this probe and name? */
static int skipped(const struct run *run, const char *probe, const char *name)
{
	size_t i;
	json_t *note;

	json_array_foreach(run->notes, i, note)
		if (str_is(note, "type", "skip") && str_is(note, "probe", probe) &&
		    str_is(note, "name", name))
			return 1;
	return 0;
}

/*
 * The results whose as-booted rows among figures [first, next) a run lacks:
 * ", host has no a, b (it skipped them)".
 */
static void say_booted_rest(struct sbuf *b, const struct report *rp, size_t first, size_t next)
{
	json_t *names = json_object();
	const char *name;
	json_t *t;

	for (size_t r = 0; r < rp->nruns; r++) {
		size_t n = 0, skips = 0;

		json_object_clear(names);
		for (size_t i = first, end; i < next; i = end) {
			end = row_end(rp, i);
			if (rp->figs[i].as_booted && !row_in_run(rp, i, end, r))
				json_object_set(names, rp->figs[i].name, json_true());
		}
		json_object_foreach(names, name, t) {
			if (!n)
				sbuf_addf(b, ", %s has no ", rp->runs[r].label);
			if (n++ < LINEUP_VALUES_MAX)
				sbuf_addf(b, "%s%s", n > 1 ? ", " : "", name);
			skips += (size_t)skipped(&rp->runs[r], rp->figs[first].probe, name);
		}
		if (n > LINEUP_VALUES_MAX)
			sbuf_addf(b, " and %zu more", n - LINEUP_VALUES_MAX);
		if (n && skips == n)
			sbuf_adds(b, " (it skipped them)");
	}
	json_decref(names);
}

size_t lineup_print(FILE *f, const struct report *rp, enum style style)
{
	struct sbuf line = { 0 };
	struct lineup lu;
	size_t named = 0;

	for (size_t i = 0, next; rp->nruns > 1 && i < rp->nfigs; i = next) {
		next = lineup_of(rp, i, &lu);
		if (2 * lu.lined >= lu.total)
			continue;
		if (!named++)
			fmt_heading(f, style, 2, "Line-up: probes whose runs measured mostly different things");
		sbuf_reset(&line);
		sbuf_addf(&line, "%s: ", rp->figs[i].probe);
		lineup_say(&line, &lu);
		say_why(&line, rp, rp->figs[i].probe);
		lineup_say_booted(&line, &lu);
		say_booted_rest(&line, rp, i, next);
		fputs(style == STYLE_MARKDOWN ? "- " : "  ", f);
		table_text(f, style, line.s);
		fputc('\n', f);
	}
	sbuf_free(&line);
	return named;
}
