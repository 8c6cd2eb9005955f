// SPDX-License-Identifier: MIT
/*
 * Unit tests of tools/report/openmetrics.c: metric names from probe, key
 * and unit (base units, type words, hostile text), no two headline figures
 * of one probe sharing a name in the built-in declaration, label names,
 * label value and HELP escaping, numbers that read back exactly, times.
 */
#include <float.h>
#include <stdlib.h>
#include <string.h>

#include "../../tools/report/keys.h"
#include "../../tools/report/openmetrics.h"
#include "../unit/tap.h"

static void name_is(const char *probe, const char *key, const char *unit, const char *want)
{
	char *got = om_metric_name(probe, key, unit);

	is_str(got, want, want);
	free(got);
}

static void test_names(void)
{
	name_is("clocks", "ns_per_call", "ns", "timeprobe_clocks_per_call_seconds");
	name_is("tscsync", "max_abs_offset_ns", "ns", "timeprobe_tscsync_max_abs_offset_seconds");
	name_is("switch", "us_per_round_trip", "us", "timeprobe_switch_per_round_trip_seconds");
	name_is("noise", "stolen_pct", "%", "timeprobe_noise_stolen_ratio");
	name_is("drift", "freq_ppm", "ppm", "timeprobe_drift_freq_ratio");
	name_is("tsc", "tsc_hz", "Hz", "timeprobe_tsc_tsc_hertz");
	name_is("tsc", "tsc_early_khz", "kHz", "timeprobe_tsc_tsc_early_hertz");
	name_is("yield", "total_per_s", "1/s", "timeprobe_yield_total_per_second");
	name_is("noise", "per_s", "1/s", "timeprobe_noise_per_second");
	name_is("drift", "trend_ppm_per_min", "ppm/min", "timeprobe_drift_trend_ppm_per_min");
	name_is("clocks", "backward_steps", "count", "timeprobe_clocks_backward_steps");
	name_is("clocks", "granularity_ticks", "ticks", "timeprobe_clocks_granularity_ticks");
	name_is("counter", "backwards", "count", "timeprobe_hwcounter_backwards");
	name_is("drift", "counter_ppm", "ppm", "timeprobe_drift_hwcounter_ratio");
	name_is("vdso-check", "kernel_entries", "count", "timeprobe_vdso_check_kernel_entries");
	name_is("verdict", "tsc_offset_ns", "ns", "timeprobe_verdict_tsc_offset_seconds");
	/* a token only as a whole word: "ns" is not taken out of "transitions" */
	name_is("x", "transitions_ns", "ns", "timeprobe_x_transitions_seconds");
	name_is("A\"b}\n", "K{x=\"1\"}", NULL, "timeprobe_a_b_k_x_1");
	/* a gauge never ends as a counter's, a histogram's or an info metric's sample */
	name_is("hwlat", "gaps_total", "count", "timeprobe_hwlat_gaps_total_value");
	name_is("x", "samples_count", "count", "timeprobe_x_samples_count_value");
	name_is("x", "build_info", NULL, "timeprobe_x_build_info_value");
	name_is("x", "totals", "count", "timeprobe_x_totals");
}

struct seen {
	char *probe[4096], *name[4096], *key[4096];
	size_t n, clashes;
};

static void note_name(const char *probe, const struct key_decl *d, void *arg)
{
	struct seen *s = arg;
	char *name;

	if (d->cls != KEY_FIGURE || d->pattern || s->n == 4096)
		return;
	name = om_metric_name(probe, d->name, d->unit);
	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->name[i], name)) {
			printf("# %s %s and %s %s are both %s\n", s->probe[i], s->key[i], probe, d->name, name);
			s->clashes++;
		}
	s->probe[s->n] = (char *)probe;
	s->key[s->n] = d->name;
	s->name[s->n++] = name;
}

static void test_builtin_unique(void)
{
	struct seen *s = calloc(1, sizeof(*s));

	keys_foreach_builtin(note_name, s);
	ok(s->n > 50, "the built-in declaration has its figures (%zu)", s->n);
	is_int(s->clashes, 0, "no two declared figures share a metric name");
	for (size_t i = 0; i < s->n; i++)
		free(s->name[i]);
	free(s);
}

static void label_name_is(const char *in, const char *want)
{
	char *got = om_label_name(in);

	is_str(got, want, want);
	free(got);
}

static char *written(void (*fn)(FILE *, const char *), const char *in)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	fn(m, in);
	fclose(m);
	return buf;
}

static void test_escaping(void)
{
	char *s;

	label_name_is("clock_id", "clock_id");
	label_name_is("cpu-pair", "cpu_pair");
	label_name_is("9lives", "key_9lives");
	label_name_is("__name__", "key___name__");
	s = written(om_label_value, "a\\b\"c\nd\x01" "e\xff" "f\xc3\xbc");
	is_str(s, "a\\\\b\\\"c\\nd\xef\xbf\xbd" "e\xef\xbf\xbd" "f\xc3\xbc",
	       "label value: \\ \" newline escaped, control and bad UTF-8 as U+FFFD, UTF-8 kept");
	free(s);
	s = written(om_help_text, "say \"x\"\\\n");
	is_str(s, "say \"x\"\\\\\\n", "HELP: \\ and newline escaped, quotes not");
	free(s);
}

static void test_numbers(void)
{
	const double v[] = { 25.9946075 * 1e-9, 0.1, 1.0 / 3, 1e300, -2.5e-17, DBL_MIN, 12.5 * 1e-9 };

	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		char *buf = NULL;
		size_t len = 0;
		FILE *m = open_memstream(&buf, &len);

		om_number(m, v[i]);
		fclose(m);
		ok(strtod(buf, NULL) == v[i] && len <= 24, "%s reads back as the same double", buf);
		free(buf);
	}
	is_int(om_time("2026-12-03T13:22:41Z"), 1796304161LL, "RFC 3339 UTC as seconds");
	is_int(om_time("2026-12-03 13:22:41"), -1, "not RFC 3339: -1");
	is_int(om_time("2026-12-03T13:22:41Zjunk"), -1, "trailing text: -1");
	is_int(om_time(""), -1, "empty: -1");
}

int main(void)
{
	test_names();
	test_builtin_unique();
	test_escaping();
	test_numbers();
	keys_free();
	return tap_done();
}
