// SPDX-License-Identifier: MIT
/*
 * One answer to "is this reference independent of the TSC", read by all
 * four of its consumers: tscref.c decides it (the function drift calls,
 * its answer written by tscref_rec() as drift writes it), and the
 * readiness block (userland/readiness*.c), the verdict (userland/verdict.c)
 * and tp-report's datasheet (tools/report/datasheet.c, run on the records
 * as a log) must say the same of every reference. Three machines: QEMU's
 * TCG with clocksource hpet and the stub's figure measured against the
 * HPET (every counter there is the host's clock: none independent); a
 * host on kvm-clock (CLOCK_MONOTONIC_RAW is the TSC, no platform counter);
 * a machine on tsc with an HPET and a PM timer (both independent, RAW not).
 * The datasheet's tsc_freq_ppm is the calibration's uncertainty only where
 * its reference is independent, else null with the record's reason.
 */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "madeup.h"
#include "tap.h"
#include "../../common/record.h"
#include "../../userland/probe.h"
#include "../../userland/readiness.h"
#include "../../userland/tscref.h"
#include "../../userland/verdict.h"

#define HZ 2600000000.0
#define NREFS 3

struct machine {
	const char *name;
	struct tscref_run run;
	const char *figure_ref;		/* what the nominal figure was measured against */
	int stub;			/* 1: the stub's calib_summary; 0: probe tsc's own */
	const char *refs[NREFS];	/* the counters drift read */
	int want[NREFS];		/* the answer this machine must get */
};

static const struct machine machines[] = {
	{ "TCG, clocksource hpet", { "hpet", 0, 1 }, "hpet", 1,
	  { "CLOCK_MONOTONIC_RAW", "hpet", "pmtimer" }, { 0, 0, 0 } },
	{ "host on kvm-clock", { "kvm-clock", 0, 1 }, "CLOCK_MONOTONIC_RAW", 0,
	  { "CLOCK_MONOTONIC_RAW" }, { 0 } },
	{ "host on tsc", { "tsc", 0, 0 }, "CLOCK_MONOTONIC_RAW", 0,
	  { "CLOCK_MONOTONIC_RAW", "hpet", "pmtimer" }, { 0, 1, 1 } },
};

static void add(struct tp_rec *r)
{
	const char *line = tp_rec_finish(r);

	if (line && nrecs + r->len < sizeof(recs)) {
		memcpy(recs + nrecs, line, r->len);
		nrecs += r->len;
	}
}

/* The calibration's reference: the stub's chosen (the HPET), or RAW for probe tsc's own. */
static const char *calib_ref(const struct machine *m)
{
	return m->stub ? "hpet" : "CLOCK_MONOTONIC_RAW";
}

/*
 * The TSC's frequency: the stub's summary and probe tsc's copy of its
 * chosen calib record, or probe tsc's own calibration against RAW; each
 * calib record with its reference's independence, as probe tsc writes it.
 */
static void frequency(const struct machine *m)
{
	struct tp_rec r;
	char why[320];

	if (m->stub)
		rec("{\"type\":\"calib_summary\",\"tsc_hz\":2600000000,\"chosen\":\"hpet\","
		    "\"max_disagreement_ppm\":3}");
	tp_rec_begin(&r, "calib");
	tp_rec_str(&r, "probe", "tsc");
	tp_rec_str(&r, "source", m->stub ? "stub" : "user");
	tp_rec_str(&r, "ref", calib_ref(m));
	tp_rec_int(&r, "tsc_hz", (int64_t)HZ);
	tp_rec_number(&r, "spread_ppm", "0.4");
	if (m->stub)
		tp_rec_bool(&r, "chosen", 1);
	tscref_rec(&r, calib_ref(m),
		   tscref_counter_independent(&m->run, calib_ref(m), why, sizeof(why)), why);
	add(&r);
}

/* drift's rate record against ref, its answer from tscref.c; the answer returned. */
static int drift(const struct machine *m, const char *ref, double ppm)
{
	struct tp_rec r;
	char name[64], why[320], num[32];
	int ind = tscref_ppm_independent(&m->run, ref, m->figure_ref, why, sizeof(why));

	snprintf(name, sizeof(name), "drift vs %s", ref);
	tp_rec_begin(&r, "result");
	tp_rec_str(&r, "probe", "drift");
	tp_rec_str(&r, "name", name);
	tp_rec_str(&r, "ref", ref);
	snprintf(num, sizeof(num), "%.3f", HZ * (1 + ppm / 1e6));
	tp_rec_number(&r, "tsc_hz", num);
	tp_rec_int(&r, "stub_hz", (int64_t)HZ);
	snprintf(num, sizeof(num), "%g", ppm);
	tp_rec_number(&r, "freq_ppm", num);
	tp_rec_number(&r, "window_ppm_min", "-0.2");
	tp_rec_number(&r, "window_ppm_max", "0.2");
	tscref_rec(&r, ref, ind, why);
	add(&r);
	return ind;
}

static const struct readiness_reason *per_clock(const struct readiness *rd, const char *ref)
{
	for (size_t i = 0; i < rd->n; i++)
		if (!strcmp(rd->reason[i].rule->id, "drift_ppm") &&
		    !strcmp(rd->reason[i].reference, ref))
			return &rd->reason[i];
	return NULL;
}

static void readiness_agrees(const struct machine *m, const int *ind, struct readiness *rd)
{
	int any = 0;

	readiness_gather(rd, probe_table, probe_count, recs, nrecs, 1, NULL);
	for (size_t k = 0; k < NREFS && m->refs[k]; k++) {
		const struct readiness_reason *it = per_clock(rd, m->refs[k]);

		ok(it && it->independent == ind[k], "%s: readiness says of %s what drift says (%d)",
		   m->name, m->refs[k], ind[k]);
		ok(it && (it->pass != RD_NOT_MEASURED) == (ind[k] == 1),
		   "%s: readiness judges %s only if independent", m->name, m->refs[k]);
		any |= ind[k] == 1;
	}
	ok((rd->answer == RD_UNKNOWN) == !any, "%s: the answer is unknown exactly when no "
	   "reference is independent (%s)", m->name, rd_answer_name(rd->answer));
}

static const struct verdict_item *drift_item(const struct verdict *v)
{
	for (size_t i = 0; i < v->n; i++)
		if (!strcmp(v->item[i].lim->id, "tsc_drift_ppm"))
			return &v->item[i];
	return NULL;
}

static void verdict_agrees(const struct machine *m, const int *ind, struct verdict *v)
{
	const struct verdict_item *it;
	int first = -1;

	verdict_gather(v, probe_table, probe_count, recs, nrecs, NULL, 0);
	it = drift_item(v);
	for (size_t k = 0; k < NREFS && m->refs[k] && first < 0; k++)
		if (ind[k] == 1)
			first = (int)k;
	ok(it && it->measured, "%s: the verdict's drift item is measured", m->name);
	if (!it)
		return;
	ok(it->independent == (first >= 0 ? 1 : ind[0]),
	   "%s: the verdict says of its reference what drift says", m->name);
	ok((it->word == VW_UNKNOWN) == (first < 0), "%s: the verdict judges only an independent "
	   "reference (%s)", m->name, verdict_word_name(it->word));
	ok(strstr(it->from, m->refs[first >= 0 ? first : 0]) != NULL,
	   "%s: from drift vs %s: %s", m->name, m->refs[first >= 0 ? first : 0], it->from);
}

/* tp-report --datasheet on the records as a log; NULL when it wrote none. */
static json_t *datasheet(const char *dir)
{
	const char *bin = getenv("TP_REPORT") ? getenv("TP_REPORT") : "build/tp-report";
	char log[256], out[256], cmd[1024];
	FILE *f;
	json_t *j;

	snprintf(log, sizeof(log), "%s/run.log", dir);
	snprintf(out, sizeof(out), "%s/sheet.json", dir);
	unlink(out);
	f = fopen(log, "w");
	if (!f)
		return NULL;
	fwrite(recs, 1, nrecs, f);
	fclose(f);
	snprintf(cmd, sizeof(cmd), "'%s' --datasheet='%s' '%s' >/dev/null", bin, out, log);
	if (system(cmd) != 0)
		return NULL;
	j = json_load_file(out, 0, NULL);
	return j;
}

static void datasheet_agrees(const struct machine *m, const int *ind, const char *dir)
{
	json_t *ds = datasheet(dir);
	json_t *g = json_object_get(ds, "drift_independent");
	const json_t *ppm = json_object_get(ds, "tsc_freq_ppm");
	const char *from = json_string_value(json_object_get(json_object_get(ds, "from"),
							     "tsc_freq_ppm"));
	char why[320];

	ok(ds != NULL, "%s: tp-report wrote a datasheet", m->name);
	for (size_t k = 0; k < NREFS && m->refs[k]; k++) {
		const json_t *v = json_object_get(g, m->refs[k]);

		ok(ind[k] < 0 ? json_is_null(v) : json_is_boolean(v) && json_is_true(v) == ind[k],
		   "%s: the datasheet says of %s what drift says", m->name, m->refs[k]);
	}
	if (tscref_counter_independent(&m->run, calib_ref(m), why, sizeof(why)) == 1)
		ok(json_is_number(ppm), "%s: tsc_freq_ppm, %s independent", m->name, calib_ref(m));
	else
		ok(json_is_null(ppm) && from && strstr(from, why),
		   "%s: tsc_freq_ppm null, with the reason: %s", m->name, from ? from : "(none)");
	json_decref(ds);
}

static void one(const struct machine *m, const char *dir)
{
	static struct readiness rd;
	static struct verdict v;
	struct tp_rec r;
	int ind[NREFS];

	nrecs = 0;
	rec("{\"type\":\"run\",\"cpus\":1}");
	rec("{\"type\":\"fingerprint\",\"invariant_tsc\":true}");
	frequency(m);
	for (size_t k = 0; k < NREFS && m->refs[k]; k++) {
		ind[k] = drift(m, m->refs[k], 0.1 * (double)(k + 1));
		ok(ind[k] == m->want[k], "%s: %s, independent %d (tscref.c: %d)", m->name,
		   m->refs[k], m->want[k], ind[k]);
	}
	readiness_agrees(m, ind, &rd);
	verdict_agrees(m, ind, &v);
	readiness_record(&r, &rd);
	add(&r);
	verdict_record(&r, &v);
	add(&r);
	datasheet_agrees(m, ind, dir);
}

int main(void)
{
	char dir[] = "/tmp/tp-independence-XXXXXX", path[64];

	if (!mkdtemp(dir)) {
		ok(0, "a temporary folder");
		return tap_done();
	}
	for (size_t i = 0; i < sizeof(machines) / sizeof(machines[0]); i++)
		one(&machines[i], dir);
	snprintf(path, sizeof(path), "%s/run.log", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/sheet.json", dir);
	unlink(path);
	rmdir(dir);
	return tap_done();
}
