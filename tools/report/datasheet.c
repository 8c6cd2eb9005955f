// SPDX-License-Identifier: MIT
/* The timing datasheet of one run; see datasheet.h and docs/datasheet.md. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "datasheet.h"
#include "model.h"
#include "outfile.h"
#include "util.h"

#define DATASHEET_FORMAT "timeprobe-datasheet"
#define DATASHEET_VERSION 1

/* What the first run's records give, in the order they come. */
struct sheet {
	json_t *out;		/* the datasheet */
	json_t *from;		/* key -> the record it came from */
	int runs;		/* run records seen: the second ends the first run */
	json_t *spread;		/* the stub's references: ref -> spread_ppm */
	char chosen[24];	/* the reference the stub chose */
};

static const char *str(const json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s ? s : "";
}

static double num(const json_t *o, const char *key)
{
	return json_number_value(json_object_get(o, key));
}

static void put(struct sheet *s, const char *key, json_t *v, const char *from)
{
	json_object_set_new(s->out, key, v);
	json_object_set_new(s->from, key, json_string(from));
}

/* One value of a group (drift_ppm.hpet), with its record. */
static void put_in(struct sheet *s, const char *group, const char *key, double v, const char *rec)
{
	json_t *g = json_object_get(s->out, group);
	char id[96];

	if (!g) {
		g = json_object();
		json_object_set_new(s->out, group, g);
	}
	json_object_set_new(g, key, json_real(v));
	snprintf(id, sizeof(id), "%s.%s", group, key);
	json_object_set_new(s->from, id, json_string(rec));
}

/* The stub's chosen frequency and its uncertainty: the larger of the chosen
 * reference's spread and the platform references' disagreement. */
static void on_stub(struct sheet *s, const json_t *r)
{
	const char *type = str(r, "type");
	double hz = num(r, "tsc_hz");
	char from[96];

	if (!strcmp(type, "calib") && json_is_number(json_object_get(r, "spread_ppm")))
		json_object_set(s->spread, str(r, "ref"), json_object_get(r, "spread_ppm"));
	if (strcmp(type, "calib_summary") || !(hz > 0) || json_object_get(s->out, "tsc_freq_khz"))
		return;
	snprintf(s->chosen, sizeof(s->chosen), "%s", str(r, "chosen"));
	snprintf(from, sizeof(from), "calib_summary (stub): tsc_hz, against %s", s->chosen);
	put(s, "tsc_freq_khz", json_integer((json_int_t)llround(hz / 1000)), from);
	put(s, "tsc_freq_ppm", json_real(num(r, "max_disagreement_ppm")),
	    "calib_summary (stub): max_disagreement_ppm of the platform references");
}

/*
 * tsc_freq_ppm null, saying why, where probe tsc's calib record r says its
 * reference is not independent of the TSC, or not known (tscref.c decided,
 * probe tsc wrote it; never decided here); absent: as absent_ok says (a
 * record older than the key). 1 when it did.
 */
static int not_independent(struct sheet *s, const json_t *r, int absent_ok)
{
	const json_t *ind = json_object_get(r, "independent");
	char from[448];

	if (json_is_true(ind) || (!ind && absent_ok))
		return 0;
	snprintf(from, sizeof(from), "null: calib (tsc, %s) is against %s, %s of the TSC: %s",
		 str(r, "source"), str(r, "ref"),
		 json_is_false(ind) ? "not independent" : "not known whether independent",
		 *str(r, "why") ? str(r, "why") : "its record does not say");
	put(s, "tsc_freq_ppm", json_null(), from);
	return 1;
}

/*
 * Probe tsc's calib records. Where no calib_summary came first (a results
 * file holds only the suite's records): the stub's chosen figure as the
 * suite received it, with that reference's spread; or on a host the
 * suite's own calibration against CLOCK_MONOTONIC_RAW; either uncertainty
 * only where its reference is independent of the TSC. Where the stub's
 * summary came first, its chosen reference's record can only null it.
 */
static void on_probe_calib(struct sheet *s, const json_t *r)
{
	double hz = num(r, "tsc_hz");
	int stub = !strcmp(str(r, "source"), "stub") && json_is_true(json_object_get(r, "chosen"));
	char from[128];

	if (stub && s->chosen[0] && !strcmp(str(r, "ref"), s->chosen)) {
		not_independent(s, r, 1);
		return;
	}
	if (json_object_get(s->out, "tsc_freq_khz") || !(hz > 0) ||
	    (!stub && strcmp(str(r, "source"), "user")))
		return;
	if (stub)
		snprintf(from, sizeof(from), "calib (tsc, stub): tsc_hz of the chosen %s",
			 str(r, "ref"));
	else
		snprintf(from, sizeof(from), "calib (tsc, user): tsc_hz against %s, derived from "
			 "the kernel's clock", str(r, "ref"));
	put(s, "tsc_freq_khz", json_integer((json_int_t)llround(hz / 1000)), from);
	if (!not_independent(s, r, stub))
		put(s, "tsc_freq_ppm", json_real(num(r, "spread_ppm")),
		    stub ? "calib (tsc, stub): spread_ppm of the chosen reference"
			 : "calib (tsc, user): spread_ppm, against a reference independent of the "
			   "TSC");
}

/*
 * The record's word on its reference (drift's, from tscref.c; never
 * decided here): drift_independent.REF true, false or null, and rec with
 * ", independent of the TSC: yes|no|not known".
 */
static const char *independence(struct sheet *s, char *rec, size_t n, const json_t *r)
{
	const json_t *ind = json_object_get(r, "independent");
	json_t *g = json_object_get(s->out, "drift_independent");
	size_t len = strlen(rec);

	snprintf(rec + len, n - len, ", independent of the TSC: %s",
		 json_is_true(ind) ? "yes" : json_is_false(ind) ? "no" : "not known");
	if (!g) {
		g = json_object();
		put(s, "drift_independent", g, "result drift: each drift vs REF's independent");
	}
	json_object_set_new(g, str(r, "ref"), json_is_boolean(ind) ? json_boolean(json_is_true(ind))
								    : json_null());
	return rec;
}

static void on_result(struct sheet *s, const json_t *r)
{
	const char *probe = str(r, "probe"), *name = str(r, "name");
	char rec[192];

	snprintf(rec, sizeof(rec), "result %s: %s", probe, name);
	if (!strcmp(probe, "tscsync") && !strcmp(name, "tscsync summary") &&
	    json_is_number(json_object_get(r, "max_abs_offset_ns")))
		put(s, "ordering_bound_ns",
		    json_real(num(r, "max_abs_offset_ns") + num(r, "max_bound_ns")),
		    "result tscsync: tscsync summary, max_abs_offset_ns + max_bound_ns");
	else if (!strcmp(probe, "drift") && json_is_number(json_object_get(r, "freq_ppm")))
		put_in(s, "drift_ppm", str(r, "ref"), num(r, "freq_ppm"),
		       independence(s, rec, sizeof(rec), r));
	else if (!strcmp(probe, "drift") && json_is_number(json_object_get(r, "ns_per_read")))
		put_in(s, "read_cost_ns", str(r, "counter"),
		       num(r, "ns_per_read"), rec);
}

static void on_record(void *ctx, const json_t *rec, const char *type, struct scan_stats *st)
{
	struct sheet *s = ctx;

	(void)st;
	s->runs += !strcmp(type, "run");
	if (s->runs > 1)
		return;
	if (!strcmp(type, "calib") && !strcmp(str(rec, "probe"), "tsc"))
		on_probe_calib(s, rec);
	else if (!strcmp(type, "calib") || !strcmp(type, "calib_summary"))
		on_stub(s, rec);
	else if (!strcmp(type, "result"))
		on_result(s, rec);
	else if (!strcmp(type, "tsc_readiness"))
		put(s, "tsc_reliable", json_string(str(rec, "tsc_reliable")),
		    "tsc_readiness: tsc_reliable");
}

/* The stub's uncertainty is at least its chosen reference's own spread. */
static void finish(struct sheet *s)
{
	json_t *ppm = json_object_get(s->out, "tsc_freq_ppm");
	double spread = num(s->spread, s->chosen);

	if (s->chosen[0] && json_is_number(ppm) && spread > json_number_value(ppm)) {
		json_object_set_new(s->out, "tsc_freq_ppm", json_real(spread));
		json_object_set_new(s->from, "tsc_freq_ppm", json_string(
			"calib (stub): spread_ppm of the chosen reference, above the references' "
			"disagreement"));
	}
	json_object_set_new(s->out, "format", json_string(DATASHEET_FORMAT));
	json_object_set_new(s->out, "version", json_integer(DATASHEET_VERSION));
	json_object_set(s->out, "from", s->from);
}

static int save(const char *out, const json_t *sheet)
{
	FILE *f = outfile_open(out);

	if (!f)
		return 1;
	if (json_dumpf(sheet, f, JSON_INDENT(2) | JSON_SORT_KEYS | JSON_REAL_PRECISION(10))) {
		fprintf(stderr, "report: --datasheet=%s: the datasheet could not be written\n", out);
		outfile_abort(f);
		return 1;
	}
	return outfile_close(f) ? 1 : 0;
}

int datasheet_write(const char *out, const char *log, unsigned long long max_input)
{
	struct sheet s = { json_object(), json_object(), 0, json_object(), "" };
	struct scan_stats st = { 0 };
	struct read_opts o = { max_input, 1, on_record, &s };	/* read, not kept */
	int err = report_read_file(NULL, log, &o, &st), rc = 1;

	if (err)
		fprintf(stderr, "report: --datasheet: %s: %s\n", log, strerror(-err));
	else if (!json_object_get(s.out, "tsc_freq_khz"))
		fprintf(stderr, "report: --datasheet: %s: no TSC frequency in its first run "
			"(no stub calibration, no probe tsc)\n", log);
	else {
		finish(&s);
		rc = save(out, s.out);
	}
	json_decref(s.out);
	json_decref(s.from);
	json_decref(s.spread);
	return rc;
}
