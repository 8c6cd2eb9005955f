// SPDX-License-Identifier: MIT
/*
 * One naming rule for every option (docs/adding-a-probe.md): the contract's
 * words (common/words.c) are snake_case, a probe's options "<probe>-<what>";
 * and no two names, old spellings included, are equal once '-' and '_' are
 * folded together, unless one is the other's old spelling. A person who
 * writes calib_rounds for calib-rounds must not set another thing.
 */
#include <string.h>

#include "tap.h"
#include "../../userland/probe.h"
#include "../../common/words.h"

#define NAMES_MAX 128

struct name {
	const char *s;
	const char *was_of;	/* an old spelling: the name it now has */
};

static int folded_eq(const char *a, const char *b)
{
	for (; *a && *b; a++, b++) {
		char x = *a == '-' ? '_' : *a, y = *b == '-' ? '_' : *b;

		if (x != y)
			return 0;
	}
	return *a == *b;
}

/* Pairs of n names equal after folding that the rule refuses; each said when say. */
static int collisions(const struct name *v, size_t n, int say)
{
	int bad = 0;

	for (size_t i = 0; i < n; i++) {
		for (size_t j = i + 1; j < n; j++) {
			const struct name *a = &v[i], *b = &v[j];

			if (!folded_eq(a->s, b->s))
				continue;
			if ((a->was_of && !strcmp(a->was_of, b->s)) || (b->was_of && !strcmp(b->was_of, a->s)))
				continue;
			if (say)
				printf("# '%s' and '%s' are the same name once - and _ are folded\n", a->s, b->s);
			bad++;
		}
	}
	return bad;
}

/* Every name a person can write: contract words, probe rows, old spellings. */
static size_t all_names(struct name *v, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < TPW_COUNT && n < max; i++)
		v[n++] = (struct name){ tp_words[i].name, 0 };
	for (size_t k = 0; k < probe_count; k++) {
		for (size_t i = 0; i < probe_table[k]->n_opts && n + 2 <= max; i++) {
			const struct probe_opt *po = &probe_table[k]->opts[i];

			v[n++] = (struct name){ po->w.name, 0 };
			if (po->was)
				v[n++] = (struct name){ po->was, po->w.name };
		}
	}
	return n;
}

/* "<probe>-<what>": the probe's name, a dash, then lower case, digits and dashes. */
static int probe_style(const char *probe, const char *name)
{
	size_t n = strlen(probe);

	if (strncmp(name, probe, n) || name[n] != '-' || !name[n + 1])
		return 0;
	for (const char *c = name + n + 1; *c; c++)
		if (!((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || *c == '-'))
			return 0;
	return 1;
}

int main(void)
{
	static struct name v[NAMES_MAX];
	size_t n = all_names(v, NAMES_MAX);
	int dashed = 0;
	const struct name planted[] = { { "itimer-us", 0 }, { "itimer_us", 0 }, { "load", "itimer-load" },
					{ "itimer-load", 0 }, { "calib-rounds", 0 }, { "calib_rounds", 0 } };

	ok(n < NAMES_MAX, "%zu names, all read", n);
	is_int(collisions(planted, 6, 0), 2,
	       "the check finds itimer-us beside itimer_us and calib-rounds beside calib_rounds, and lets an old spelling be");
	is_int(collisions(v, n, 1), 0, "no two names are equal after folding - and _");
	for (size_t i = 0; i < TPW_COUNT; i++)
		dashed += strchr(tp_words[i].name, '-') != 0;
	is_int(dashed, 0, "the contract's words are snake_case (no '-')");
	for (size_t k = 0; k < probe_count; k++)
		for (size_t i = 0; i < probe_table[k]->n_opts; i++)
			ok(probe_style(probe_table[k]->name, probe_table[k]->opts[i].w.name) &&
				   probe_table[k]->opts[i].store,
			   "probe option '%s' is %s-<what>, its value in the probe's store",
			   probe_table[k]->opts[i].w.name, probe_table[k]->name);
	return tap_done();
}
