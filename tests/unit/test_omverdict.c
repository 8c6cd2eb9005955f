// SPDX-License-Identifier: MIT
/*
 * userland/omverdict.c: the appliance's Pushgateway text. A verdict record
 * with every unit the verdict uses gives the names and scaled values
 * tp-report's --textfile gives (tools/report/openmetrics.c: base units,
 * the key's unit word replaced), items without a number left out, and a
 * record with a bad CRC read as absent. TAP.
 */
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "../../common/record.h"
#include "../../userland/omverdict.h"

static char recs[4096];

/* The value of NAME's sample line in text (it must follow "\nNAME "), or -1. */
static double sample(const char *text, const char *name)
{
	char pat[128];
	const char *p;

	snprintf(pat, sizeof(pat), "\n%s ", name);
	p = strstr(text, pat);
	return p ? strtod(p + strlen(pat), 0) : -1;
}

/* A verdict record: items clock_read_ns 31.5, tsc_drift_ppm 2.5, noise_stolen_pct 1.25, tsc_invariant 1, one null. */
static size_t verdict(void)
{
	struct tp_rec r;
	const char *line;

	tp_rec_begin(&r, "verdict");
	tp_rec_obj_begin(&r, "items");
	tp_rec_obj_begin(&r, "tsc_invariant");
	tp_rec_int(&r, "value", 1);
	tp_rec_obj_end(&r);
	tp_rec_obj_begin(&r, "clock_read_ns");
	tp_rec_fixed(&r, "value", 315, 1);
	tp_rec_str(&r, "unit", "ns");
	tp_rec_obj_end(&r);
	tp_rec_obj_begin(&r, "tsc_drift_ppm");
	tp_rec_fixed(&r, "value", 25, 1);
	tp_rec_str(&r, "unit", "ppm");
	tp_rec_obj_end(&r);
	tp_rec_obj_begin(&r, "noise_stolen_pct");
	tp_rec_fixed(&r, "value", 125, 2);
	tp_rec_str(&r, "unit", "%");
	tp_rec_obj_end(&r);
	tp_rec_obj_begin(&r, "wakeup_max_ns");
	tp_rec_null(&r, "value");
	tp_rec_str(&r, "unit", "ns");
	tp_rec_obj_end(&r);
	tp_rec_obj_end(&r);
	line = tp_rec_finish(&r);
	snprintf(recs, sizeof(recs), "%s", line ? line : "");
	return strlen(recs);
}

int main(void)
{
	char out[2048];
	size_t len = verdict(), n = omverdict_text(recs, len, out, sizeof(out));

	ok(n == strlen(out) && n > 0, "some text");
	ok(strstr(out, "# TYPE timeprobe_verdict_clock_read_seconds gauge\n") &&
	   sample(out, "timeprobe_verdict_clock_read_seconds") == 31.5 * 1e-9, "ns: seconds, scaled");
	ok(sample(out, "timeprobe_verdict_tsc_drift_ratio") == 2.5 * 1e-6, "ppm: ratio, scaled");
	ok(strstr(out, "\ntimeprobe_verdict_noise_stolen_ratio 0.0125") != 0, "%%: ratio, its pct word replaced");
	ok(strstr(out, "\ntimeprobe_verdict_tsc_invariant 1\n") != 0, "no unit: the key as it is");
	ok(!strstr(out, "wakeup"), "an item without a number is left out");
	ok(!strstr(out, "{") && !strchr(out, '\r'), "no labels, no timestamps");
	is_int(omverdict_text(recs, len, out, 40), 0, "no room for one item: nothing");
	recs[10] ^= 1;
	is_int(omverdict_text(recs, len, out, sizeof(out)), 0, "a bad CRC: no verdict");
	return tap_done();
}
