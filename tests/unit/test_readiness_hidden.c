// SPDX-License-Identifier: MIT
/*
 * The joint of hidden time from the stub to the suite: a `stub_hwlat`
 * summary written with the keys the stub writes it with (common/stubcpu.h,
 * as boot/hwlatrec.c does) is read by userland/readiness_hidden.c, and
 * readiness_gather() judges `hidden_gaps` from it: 0 passes and names the
 * reference, a gap fails, no stub, no scan, no reference (arm64) and an
 * older stub without the keys each leave it not measured, saying why.
 */
#include <math.h>
#include <string.h>

#include "madeup.h"
#include "tap.h"
#include "../../common/record.h"
#include "../../common/stubcpu.h"
#include "../../userland/probe.h"
#include "../../userland/readiness.h"

/* A summary as the stub writes it; ref NULL: an older stub without the hidden-time keys. */
static void summary(int scanned, const char *ref, const char *why, uint64_t chunks,
		    uint64_t gaps)
{
	static struct tp_rec r;
	const char *line;

	tp_rec_begin(&r, TP_SC_HWLAT);
	tp_rec_str(&r, TP_SC_WHAT, TP_SC_SUMMARY);
	tp_rec_bool(&r, TP_SC_SCANNED, scanned);
	tp_rec_uint(&r, TP_SC_WINDOW, 1000);
	if (!scanned)
		tp_rec_str(&r, "reason", why);
	if (scanned && ref) {
		tp_rec_str(&r, TP_SC_HIDDEN_REF, ref);
		if (why)
			tp_rec_str(&r, TP_SC_HIDDEN_REASON, why);
		else {
			tp_rec_uint(&r, TP_SC_HIDDEN_CHUNK_MS, 10);
			tp_rec_uint(&r, TP_SC_HIDDEN_PPM, 3);
			tp_rec_uint(&r, TP_SC_HIDDEN_CHUNKS, chunks);
			tp_rec_uint(&r, TP_SC_HIDDEN_GAPS, gaps);
			tp_rec_int(&r, TP_SC_HIDDEN_MAX, gaps ? 52000 : -40);
			tp_rec_uint(&r, TP_SC_HIDDEN_MAX_UNC, 900);
		}
	}
	line = tp_rec_finish(&r);
	if (line && nrecs + r.len < sizeof(recs)) {
		memcpy(recs + nrecs, line, r.len);
		nrecs += r.len;
	}
}

static double hidden(char *from, char *why)
{
	from[0] = why[0] = 0;
	return readiness_hidden(recs, nrecs, from, READINESS_TEXT, why, READINESS_TEXT);
}

static void not_measured(void)
{
	char from[READINESS_TEXT], why[READINESS_TEXT];

	nrecs = 0;
	ok(isnan(hidden(from, why)) && strstr(why, "no stub_hwlat summary"),
	   "no stub: not measured, no summary (%s)", why);
	summary(0, NULL, "timeprobe.hwlat_ms=0: no pre-OS latency scan", 0, 0);
	ok(isnan(hidden(from, why)) && strstr(why, "no pre-OS scan: timeprobe.hwlat_ms=0"),
	   "no scan: not measured, the stub's reason (%s)", why);
	nrecs = 0;
	summary(1, "none", "arm64: no counter independent of CNTVCT_EL0", 0, 0);
	ok(isnan(hidden(from, why)) && strstr(why, "no reference") && strstr(why, "CNTVCT_EL0"),
	   "arm64: no reference, the stub's reason (%s)", why);
	nrecs = 0;
	summary(1, NULL, NULL, 0, 0);
	ok(isnan(hidden(from, why)) && strstr(why, "TSC alone"),
	   "an older stub: the scan read the TSC alone (%s)", why);
	nrecs = 0;
	summary(1, "hpet", NULL, 0, 0);
	ok(isnan(hidden(from, why)) && strstr(why, "no chunk"), "no chunk compared (%s)", why);
}

static const struct readiness_reason *hidden_reason(const struct readiness *rd)
{
	for (size_t i = 0; i < rd->n; i++)
		if (!strcmp(rd->reason[i].rule->id, "hidden_gaps"))
			return &rd->reason[i];
	return NULL;
}

static void judged(void)
{
	static struct readiness rd;
	const struct readiness_reason *it;
	char from[READINESS_TEXT], why[READINESS_TEXT];

	nrecs = 0;
	summary(1, "pmtimer", NULL, 50, 0);
	summary(1, "hpet", NULL, 100, 0);	/* the last summary is the run's */
	is_num(hidden(from, why), 0, "no hidden gap");
	ok(strstr(from, "against hpet") && strstr(from, "100 chunks"), "from names the reference: %s",
	   from);
	readiness_gather(&rd, probe_table, probe_count, recs, nrecs, 1, NULL);
	it = hidden_reason(&rd);
	ok(it && it->pass == RD_PASSED && it->value == 0 && strstr(it->from, "hpet"),
	   "hidden_gaps passes with 0, against hpet");
	nrecs = 0;
	summary(1, "pmtimer", NULL, 100, 3);
	readiness_gather(&rd, probe_table, probe_count, recs, nrecs, 1, NULL);
	it = hidden_reason(&rd);
	ok(it && it->pass == RD_FAILED && it->value == 3 && strstr(it->from, "pmtimer"),
	   "3 hidden gaps against the PM timer: failed");
	is_str(rd_answer_name(rd.answer), "not safe", "a hidden gap: not safe");
	nrecs = 0;
	rec("{\"type\":\"run\",\"cpus\":1}");
	readiness_gather(&rd, probe_table, probe_count, recs, nrecs, 1, NULL);
	it = hidden_reason(&rd);
	ok(it && it->pass == RD_NOT_MEASURED && strstr(it->why, "no stub_hwlat summary"),
	   "a host run: not measured, saying why");
}

int main(void)
{
	not_measured();
	judged();
	return tap_done();
}
