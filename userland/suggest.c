// SPDX-License-Identifier: MIT
/* Near misses of names; see suggest.h. */
#include <stdio.h>
#include <string.h>

#include "suggest.h"

static int same(char a, char b)
{
	return a == b || ((a == '-' || a == '_') && (b == '-' || b == '_'));
}

static int min3(int a, int b, int c)
{
	int m = a < b ? a : b;

	return m < c ? m : c;
}

/* Optimal string alignment distance, rows of the DP table kept three deep. */
int suggest_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	int d[3][SUGGEST_MAX_LEN + 1];

	if (la > SUGGEST_MAX_LEN || lb > SUGGEST_MAX_LEN)
		return SUGGEST_FAR;
	for (size_t j = 0; j <= lb; j++)
		d[0][j] = (int)j;
	for (size_t i = 1; i <= la; i++) {
		int *cur = d[i % 3], *prev = d[(i - 1) % 3], *prev2 = d[(i + 1) % 3];

		cur[0] = (int)i;
		for (size_t j = 1; j <= lb; j++) {
			int cost = !same(a[i - 1], b[j - 1]);

			cur[j] = min3(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
			if (i > 1 && j > 1 && same(a[i - 1], b[j - 2]) && same(a[i - 2], b[j - 1]) &&
			    prev2[j - 2] + 1 < cur[j])
				cur[j] = prev2[j - 2] + 1;
		}
	}
	return d[la % 3][lb];
}

/* known is "<prefix>-<typed>": a probe's option written without its probe's name. */
static int prefixed(const char *typed, const char *known)
{
	size_t lt = strlen(typed), lk = strlen(known);

	if (lk <= lt + 1 || known[lk - lt - 1] != '-')
		return 0;
	for (size_t i = 0; i < lt; i++)
		if (!same(typed[i], known[lk - lt + i]))
			return 0;
	return 1;
}

/* How far typed is from known, SUGGEST_FAR when not near: a prefixed name is 1. */
static int closeness(const char *typed, const char *known)
{
	int d = suggest_distance(typed, known);

	if (!strcmp(typed, known))
		return SUGGEST_FAR;
	if (prefixed(typed, known) && d > 1)
		d = 1;
	return d <= (strlen(known) <= 4 ? 1 : 2) ? d : SUGGEST_FAR;
}

int suggest_near(const char *typed, const char *known)
{
	return closeness(typed, known) < SUGGEST_FAR;
}

void suggest_append(char *out, size_t len, const char *typed,
		    const char *(*name)(size_t i, const void *ctx), size_t n, const void *ctx)
{
	const char *best[2] = { 0, 0 };
	int bd[2] = { SUGGEST_FAR, SUGGEST_FAR };
	size_t used;

	for (size_t i = 0; i < n; i++) {
		const char *k = name(i, ctx);
		int d;

		if (!k || (d = closeness(typed, k)) >= SUGGEST_FAR)
			continue;
		if ((best[0] && !strcmp(best[0], k)) || (best[1] && !strcmp(best[1], k)))
			continue;
		if (d < bd[0]) {
			best[1] = best[0], bd[1] = bd[0];
			best[0] = k, bd[0] = d;
		} else if (d < bd[1]) {
			best[1] = k, bd[1] = d;
		}
	}
	if (!best[0] || !len)
		return;
	used = strnlen(out, len - 1);
	snprintf(out + used, len - used, best[1] ? "; did you mean %s or %s?" : "; did you mean %s?",
		 best[0], best[1]);
}

/* The length of name's lead (suggest.h): up to and with its first '.', else '-' or '_'. */
static size_t lead_len(const char *name, size_t n)
{
	const char *dot = memchr(name, '.', n);

	if (dot)
		return (size_t)(dot - name) + 1;
	for (size_t i = 0; i < n; i++)
		if (name[i] == '-' || name[i] == '_')
			return i + 1;
	return n;
}

int suggest_prefix_typo(const char *name, size_t n, const char *prefix, size_t *lead)
{
	char typed[SUGGEST_MAX_LEN + 1];
	size_t l = lead_len(name, n);

	*lead = l;
	if (l > SUGGEST_MAX_LEN || (l == strlen(prefix) && !memcmp(name, prefix, l)))
		return 0;
	memcpy(typed, name, l);
	typed[l] = 0;
	return suggest_distance(typed, prefix) <= 2;
}
