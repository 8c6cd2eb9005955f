// SPDX-License-Identifier: MIT
/*
 * The probes' key tables (struct probe_key, userland/probe.h) and their
 * keys records (userland/keydecl.c): every measuring probe declares its
 * keys, its promised figures among them, each key once; same_as names a
 * figure of the same table in its primary unit, half_of and max_of a
 * figure; and each
 * record fits TP_REC_MAX and parses back to the table, row by row.
 */
#include <fnmatch.h>
#include <string.h>
#include <jansson.h>

#include "tap.h"
#include "../../userland/keydecl.h"

static const struct probe_key *find(const struct probe *p, const char *key, int patterns)
{
	for (size_t i = 0; i < p->n_keys; i++)
		if (!strcmp(p->keys[i].name, key) ||
		    (patterns && !fnmatch(p->keys[i].name, key, 0)))
			return &p->keys[i];
	return 0;
}

static int unique(const struct probe *p)
{
	for (size_t i = 0; i < p->n_keys; i++)
		for (size_t j = i + 1; j < p->n_keys; j++)
			if (!strcmp(p->keys[i].name, p->keys[j].name))
				return 0;
	return 1;
}

/* A rule's key: a figure of the table; for same_as, in its primary unit. */
static int names_figure(const struct probe *p, const char *key, int primary)
{
	const struct probe_key *k = key ? find(p, key, 0) : 0;

	return !key || (k && k->cls == PK_FIGURE && !(primary && k->same_as));
}

/* tp-report refuses a pattern with more than two (tools/report/keys.c). */
static int stars(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += *s == '*';
	return n;
}

static void test_table(const struct probe *p)
{
	int figures = 1, rules = 1;

	ok(p->keys && p->n_keys, "%s declares its keys", p->name);
	ok(unique(p), "%s: each key once", p->name);
	for (const char *const *f = p->figures; f && *f; f++)
		figures &= find(p, *f, 1) != 0;
	ok(figures, "%s: every promised figure is declared", p->name);
	for (size_t i = 0; i < p->n_keys; i++) {
		const struct probe_key *k = &p->keys[i];

		rules &= names_figure(p, k->same_as, 1) && names_figure(p, k->half_of, 0) &&
			 names_figure(p, k->max_of, 0) &&
			 (!k->same_below_n || k->same_as) &&
			 (!k->same_as || k->cls == PK_FIGURE) && k->what && *k->what &&
			 stars(k->name) <= 2;
	}
	ok(rules, "%s: same_as names a primary figure of the table, half_of and max_of a figure; each key says what; two '*' at most", p->name);
}

/* A key-naming rule: there with that key, or absent. */
static int rule_matches(const json_t *rules, const char *name, const char *want)
{
	const char *got = json_string_value(json_object_get(rules, name));

	return want ? got && !strcmp(got, want) : !json_object_get(rules, name);
}

/* The record parses back: one entry per row, its class, unit, direction and rules. */
static int entry_matches(const struct probe_key *k, const json_t *e)
{
	const json_t *rules = json_array_get(e, 4);
	const char *unit = json_string_value(json_array_get(e, 1));
	const char *dir = json_string_value(json_array_get(e, 2));
	const char *same = json_string_value(json_array_get(e, 3));
	const char *want_dir = keydecl_dir_name(k->dir);

	return json_is_array(e) &&
	       !strcmp(json_string_value(json_array_get(e, 0)) ?: "", keydecl_class_name(k->cls)) &&
	       (unit && k->unit ? !strcmp(unit, k->unit) : !unit && !k->unit) &&
	       (dir && want_dir ? !strcmp(dir, want_dir) : !dir && !want_dir) &&
	       (same && k->same_as ? !strcmp(same, k->same_as) : !same && !k->same_as) &&
	       json_integer_value(json_object_get(rules, "same_below_n")) == k->same_below_n &&
	       rule_matches(rules, "max_of", k->max_of) && rule_matches(rules, "half_of", k->half_of);
}

static void test_record(const struct probe *p)
{
	struct tp_rec r;
	const char *line, *json = 0;
	json_t *doc = 0, *keys;
	long len;
	int all = 1;

	keydecl_record(&r, p);
	line = tp_rec_finish(&r);
	len = line ? tp_rec_check(line, r.len - 1, &json) : -1;
	ok(len > 0, "%s: the keys record fits %d bytes (%zu)", p->name, TP_REC_MAX, line ? r.len : 0);
	if (len > 0)
		doc = json_loadb(json, (size_t)len, 0, 0);
	keys = json_object_get(doc, "keys");
	ok(doc && !strcmp(json_string_value(json_object_get(doc, "type")) ?: "", "keys") &&
	   !strcmp(json_string_value(json_object_get(doc, "for_probe")) ?: "", p->name) &&
	   json_object_size(keys) == p->n_keys, "%s: the record is JSON with its %zu keys", p->name,
	   p->n_keys);
	for (size_t i = 0; i < p->n_keys; i++)
		all &= entry_matches(&p->keys[i], json_object_get(keys, p->keys[i].name));
	ok(all, "%s: every entry says what its row says", p->name);
	/* rounds (probe.h's struct probe_rounds): it splits, with its smallest
	 * round and its shared state, or it stays whole and says why */
	if (p->rounds.min_round_ms > 0)
		ok(json_is_true(json_object_get(doc, "rounds")) && p->rounds.state_bytes &&
		   json_integer_value(json_object_get(doc, "min_round_ms")) == p->rounds.min_round_ms &&
		   !json_object_get(doc, "whole"),
		   "%s: splits into rounds of %lld ms or more, and says so", p->name,
		   (long long)p->rounds.min_round_ms);
	else
		ok(json_is_false(json_object_get(doc, "rounds")) && p->rounds.whole &&
		   strlen(p->rounds.whole) > 20 &&
		   !strcmp(json_string_value(json_object_get(doc, "whole")) ?: "", p->rounds.whole),
		   "%s: stays whole and says why (%s)", p->name, p->rounds.whole ?: "nothing");
	json_decref(doc);
}

int main(void)
{
	for (size_t i = 0; i < probe_count; i++) {
		if (probe_table[i]->inject)
			continue;
		test_table(probe_table[i]);
		test_record(probe_table[i]);
	}
	return tap_done();
}
