// SPDX-License-Identifier: MIT
/* The injected skew of one reference; see skew.h. Freestanding. */
#include "skew.h"
#include "buf.h"

static const char *const skew_refs[] = { "hpet", "pmtimer", "pit", "stall" };

int tp_skew_is(const char *s, size_t n)
{
	size_t p = sizeof(TP_SKEW_PREFIX) - 1;

	return n >= p && tp_streqn(s, p, TP_SKEW_PREFIX);
}

/* A signed decimal within TP_SKEW_PPM_MAX: 0 and *v, or -1. */
static int parse_ppm(const char *s, size_t n, int32_t *v)
{
	int neg = 0;
	int64_t x = 0;
	size_t i = 0;

	if (i < n && (s[i] == '+' || s[i] == '-'))
		neg = s[i++] == '-';
	if (i == n)
		return -1;
	for (; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		x = x * 10 + (s[i] - '0');
		if (x > TP_SKEW_PPM_MAX)
			return -1;
	}
	*v = (int32_t)(neg ? -x : x);
	return 0;
}

int tp_skew_parse(const char *s, size_t n, struct tp_skew *k)
{
	size_t p = sizeof(TP_SKEW_PREFIX) - 1, r = 0;
	int32_t ppm;

	if (!tp_skew_is(s, n))
		return -1;
	while (p + r < n && s[p + r] != ':')
		r++;
	if (p + r == n || parse_ppm(s + p + r + 1, n - p - r - 1, &ppm))
		return -1;
	for (size_t i = 0; i < sizeof(skew_refs) / sizeof(skew_refs[0]); i++)
		if (tp_streqn(s + p, r, skew_refs[i])) {
			for (size_t j = 0; j <= r; j++)
				k->ref[j] = j < r ? s[p + j] : 0;
			k->ppm = ppm;
			return 0;
		}
	return -1;
}

int tp_skew_from_list(const char *s, size_t n, struct tp_skew *k)
{
	int found = 0;

	for (size_t i = 0; i < n;) {
		size_t len = 0;

		while (i + len < n && s[i + len] != ',')
			len++;
		if (!tp_skew_parse(s + i, len, k))
			found = 1;
		i += len + 1;
	}
	return found;
}

int tp_skew_applies(const struct tp_skew *k, const char *ref)
{
	return k && k->ref[0] && ref && tp_streqn(ref, tp_strlen(ref), k->ref);
}

double tp_skew_ref_hz(const struct tp_skew *k, const char *ref, double ref_hz)
{
	if (!tp_skew_applies(k, ref))
		return ref_hz;
	return ref_hz / (1 + k->ppm / 1e6);
}

uint64_t tp_skew_tsc_hz(const struct tp_skew *k, const char *ref, uint64_t tsc_hz)
{
	if (!tp_skew_applies(k, ref))
		return tsc_hz;
	return (uint64_t)((double)tsc_hz * 1e6 / (1e6 + k->ppm) + 0.5);
}
