// SPDX-License-Identifier: MIT
/* The verdict's items as OpenMetrics gauges for a Pushgateway; see omverdict.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "omverdict.h"
#include "recread.h"

/* The verdict's units, as tools/report/openmetrics.c turns them into base units. */
static const struct {
	const char *unit, *token, *suffix;
	double scale;
} units[] = {
	{ "ns", "ns", "seconds", 1e-9 }, { "us", "us", "seconds", 1e-6 },
	{ "ms", "ms", "seconds", 1e-3 }, { "s", "s", "seconds", 1 },
	{ "%", "pct", "ratio", 1e-2 },	 { "ppm", "ppm", "ratio", 1e-6 },
};

/* name: timeprobe_verdict_KEY, KEY's "_TOKEN" word dropped and "_SUFFIX" added; 0 or -1 (not a plain key). */
static int metric_name(const char *key, size_t klen, const char *unit, char *name, size_t n,
		       double *scale)
{
	char k[64];
	size_t i;

	if (klen == 0 || klen >= sizeof(k))
		return -1;
	for (i = 0; i < klen; i++)
		if (!((key[i] >= 'a' && key[i] <= 'z') || (key[i] >= '0' && key[i] <= '9') || key[i] == '_'))
			return -1;
	memcpy(k, key, klen);
	k[klen] = 0;
	*scale = 1;
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		size_t t = strlen(units[i].token);

		if (strcmp(unit, units[i].unit))
			continue;
		if (klen > t + 1 && k[klen - t - 1] == '_' && !strcmp(k + klen - t, units[i].token))
			k[klen - t - 1] = 0;
		*scale = units[i].scale;
		return snprintf(name, n, "timeprobe_verdict_%s_%s", k, units[i].suffix) < (int)n ? 0 : -1;
	}
	return snprintf(name, n, "timeprobe_verdict_%s", k) < (int)n ? 0 : -1;
}

/* v with the fewest significant digits (9 to 17) that read back as v. */
static void shortest(double v, char *num, size_t n)
{
	for (int d = 9; d <= 17; d++) {
		snprintf(num, n, "%.*g", d, v);
		if (strtod(num, 0) == v)
			return;
	}
}

/* The verdict record's items object, or 0. */
static int verdict_items(const char *records, size_t len, struct rec_view *items)
{
	const char *pos = records;
	struct rec_view r;

	while (recread_next(&pos, records + len, &r))
		if (recread_is(&r, "type", "verdict") && (items->json = recread_raw(&r, "items", &items->len)))
			return 1;
	return 0;
}

size_t omverdict_text(const char *records, size_t len, char *out, size_t n)
{
	struct rec_member m[32];
	struct rec_view items;
	size_t k, used = 0;

	out[0] = 0;
	if (!verdict_items(records, len, &items))
		return 0;
	k = recread_members(&items, m, 32);
	for (size_t i = 0; i < k; i++) {
		struct rec_view it = { m[i].val, m[i].vlen };
		char unit[16] = "", name[128], num[32];
		double v, scale;
		int w;

		if (!recread_num(&it, "value", &v))
			continue;
		recread_str(&it, "unit", unit, sizeof(unit));
		if (metric_name(m[i].key, m[i].klen, unit, name, sizeof(name), &scale))
			continue;
		shortest(v * scale, num, sizeof(num));
		w = snprintf(out + used, n - used, "# TYPE %s gauge\n%s %s\n", name, name, num);
		if (w < 0 || (size_t)w >= n - used) {
			out[used] = 0;
			break;
		}
		used += (size_t)w;
	}
	return used;
}
