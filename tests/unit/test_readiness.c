// SPDX-License-Identifier: MIT
/*
 * `tsc=reliable`: the injected skew's word (common/skew.c) parsed and
 * refused, its arithmetic; the reference vote (common/readiness.c) naming
 * the one clock off and no other, saying too few and split; the answer and
 * its kernel words; and userland/readiness.c on made-up records: a TCG run
 * not safe for the invariant bit, a +500 ppm HPET named before and after
 * boot and not held against the TSC, a TSC that moved named, every key a
 * probe's fact reads declared by its key table, every fact a reason judges
 * declared by some probe, and its record read back; an unknown answer's
 * lacked items and next step, in a guest and not, and the emulator said.
 */
#include <fnmatch.h>
#include <math.h>
#include <string.h>
#include <jansson.h>

#include "madeup.h"
#include "tap.h"
#include "../../common/readiness.h"
#include "../../common/record.h"
#include "../../common/skew.h"
#include "../../userland/probe.h"
#include "../../userland/readiness.h"

#define S(x) x, strlen(x)

static void skew_words(void)
{
	struct tp_skew k = { "", 0 };

	ok(!tp_skew_parse(S("skew:hpet:500"), &k) && !strcmp(k.ref, "hpet") && k.ppm == 500,
	   "skew:hpet:500");
	ok(!tp_skew_parse(S("skew:pit:-250"), &k) && !strcmp(k.ref, "pit") && k.ppm == -250,
	   "skew:pit:-250");
	ok(!tp_skew_parse(S("skew:pmtimer:+100000"), &k) && k.ppm == 100000, "the largest");
	static const char *const bad[] = {
		"skew:hpet", "skew:hpet:", "skew::500", "skew:rtc:500", "skew:hpet:5x",
		"skew:hpet:100001", "skew:hpet:-", "hpet:500", "skew:hpetx:500", "skew:HPET:500",
		"skew:hpet:99999999999999999999",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct tp_skew z = { "", 7 };

		ok(tp_skew_parse(S(bad[i]), &z) && !z.ref[0] && z.ppm == 7,
		   "refused, untouched: %s", bad[i]);
	}
	ok(tp_skew_is(S("skew:rtc:5")) && !tp_skew_is(S("crash")), "an item of the kind, or not");
	memset(&k, 0, sizeof(k));
	ok(tp_skew_from_list(S("crash,skew:hpet:1,hang,skew:pit:-3"), &k) &&
	   !strcmp(k.ref, "pit") && k.ppm == -3, "of a list: the last well-formed");
	ok(!tp_skew_from_list(S("crash,skew:x:1"), &k), "none in a list");
	k = (struct tp_skew){ "hpet", 500 };
	ok(tp_skew_applies(&k, "hpet") && !tp_skew_applies(&k, "hpet2") &&
	   !tp_skew_applies(&k, "pmtimer") && !tp_skew_applies(NULL, "hpet"),
	   "applies to its ref only");
	is_near(tp_skew_ref_hz(&k, "hpet", 1e8), 1e8 / 1.0005, 1e-6, "the reader's rate: slower");
	is_near(tp_skew_ref_hz(&k, "pit", 1193182), 1193182, 0, "another ref untouched");
	is_int(tp_skew_tsc_hz(&k, "hpet", 2600000000ULL), 2598700650ULL,
	       "the TSC against it: 500 ppm of it less, rounded");
}

static void vote_cases(void)
{
	struct rd_vote_out o;
	struct rd_vote_in agree[] = { { "hpet", 0.5, 1 }, { "pmtimer", -1, 8 }, { "pit", 2, 6 } };
	struct rd_vote_in off[] = { { "hpet", 500, 1 }, { "pmtimer", 1, 8 }, { "pit", -2, 6 } };
	struct rd_vote_in two[] = { { "hpet", 500, 1 }, { "pmtimer", 0, 1 } };
	struct rd_vote_in split[] = { { "a", 0, 1 }, { "b", 300, 1 }, { "c", 600, 1 } };
	struct rd_vote_in wide[] = {
		{ "hpet", 0, 1 }, { "pmtimer", 0, 1 }, { "stall", 600, 40000 },
	};

	rd_vote(agree, 3, &o);
	ok(o.res == RD_VOTE_AGREE && o.named < 0, "three that agree: none named");
	rd_vote(off, 3, &o);
	ok(o.res == RD_VOTE_NAMED && o.named == 0, "+500 ppm HPET: named");
	is_near(o.ppm, 500.5, 1e-9, "with its error against the others' mean");
	rd_vote(two, 2, &o);
	ok(o.res == RD_VOTE_TOO_FEW && o.named < 0, "two: too few, none named");
	rd_vote(split, 3, &o);
	ok(o.res == RD_VOTE_SPLIT && o.named < 0, "evenly spread: split, none named");
	rd_vote(wide, 3, &o);
	ok(o.res == RD_VOTE_AGREE, "Stall's own uncertainty covers it");
	/* within the PM timer's tolerance (1 + 8 + floor), beyond the PIT's (1 + 6 + floor) */
	off[0].ppm = RD_VOTE_FLOOR_PPM + 1 + 8 - 1;
	off[1].ppm = 0;
	off[2].ppm = 0;
	rd_vote(off, 3, &o);
	ok(o.res != RD_VOTE_NAMED, "within uncertainties plus the floor: not named");
	is_str(rd_vote_res_name(RD_VOTE_SPLIT), "split", "its name");
}

static struct readiness_decl decl[READINESS_REASONS];
static size_t ndecl;

static const struct rd_rule *rule(const char *id)
{
	for (size_t i = 0; i < ndecl; i++)
		if (!strcmp(decl[i].d->rule.id, id))
			return &decl[i].d->rule;
	return NULL;
}

static void decisions(void)
{
	int nd = readiness_decls(probe_table, probe_count, decl, READINESS_REASONS);
	const struct rd_rule *rules[READINESS_REASONS];

	ok(nd > 0, "the probes and the record declare reasons, no more than %d (%d)",
	   READINESS_REASONS, nd);
	ndecl = nd > 0 ? (size_t)nd : 0;
	for (size_t i = 0; i < ndecl; i++)
		rules[i] = &decl[i].d->rule;

	const struct rd_rule *inv = rule("invariant_tsc");
	const struct rd_rule *drift = rule("drift_ppm"), *off = rule("offset_ns");
	const struct rd_rule *sock = rule("sockets");
	struct rd_reason_state s[] = { { inv, RD_PASSED }, { drift, RD_PASSED }, { off, RD_PASSED },
				       { sock, RD_FAILED } };
	char w[48];
	struct tp_buf b;

	ok(inv && drift && off && sock && !rule("no_such"), "rules found by id");
	for (size_t i = 0; i < ndecl; i++) {
		ok(rules[i]->source && rules[i]->source[0] && rules[i]->what[0],
		   "%s has a source", rules[i]->id);
		ok(i == 0 || decl[i - 1].d->place < decl[i].d->place, "%s: its own place, after "
		   "the one before", rules[i]->id);
	}
	if (!inv || !drift || !off || !sock)
		return;
	ok(rd_rule_passes(drift, 200) && rd_rule_passes(drift, -200) &&
	   !rd_rule_passes(drift, 200.01), "the watchdog's bound, either sign");
	ok(rd_rule_passes(inv, 1) && !rd_rule_passes(inv, 0), "a yes/no");
	is_int(rd_decide(s, 4, rules, ndecl, 1), RD_SAFE, "all passed, sockets advice only: safe");
	s[1].pass = RD_NOT_MEASURED;
	is_int(rd_decide(s, 4, rules, ndecl, 1), RD_UNKNOWN, "a required figure missing: unknown");
	is_int(rd_decide(s, 4, rules, ndecl, 0), RD_SAFE,
	       "arm64: no drift needed, errata and offsets answer");
	s[2].pass = RD_NOT_MEASURED;
	is_int(rd_decide(s, 4, rules, ndecl, 0), RD_UNKNOWN, "arm64 without offsets: unknown");
	s[0].pass = RD_FAILED;
	is_int(rd_decide(s, 4, rules, ndecl, 1), RD_NOT_SAFE, "the invariant bit failed: not safe");
	is_str(rd_answer_name(RD_NOT_SAFE), "not safe", "its name");
	tp_buf_init(&b, w, sizeof(w));
	rd_kernel_args(&b, RD_SAFE, 0, "hpet");
	is_str(w, "tsc=reliable", "safe: tsc=reliable");
	tp_buf_init(&b, w, sizeof(w));
	rd_kernel_args(&b, RD_SAFE, 1, "hpet");
	is_str(w, "tsc=nowatchdog", "safe on many sockets: tsc=nowatchdog");
	tp_buf_init(&b, w, sizeof(w));
	rd_kernel_args(&b, RD_NOT_SAFE, 0, "acpi_pm");
	is_str(w, "clocksource=acpi_pm", "not safe: the platform clock");
	tp_buf_init(&b, w, sizeof(w));
	rd_kernel_args(&b, RD_UNKNOWN, 0, "hpet");
	is_str(w, "", "unknown: nothing");
}

/* ---- made-up records: madeup.h ---- */

static void calib(const char *ref, double hz, double spread)
{
	char j[256];

	snprintf(j, sizeof(j), "{\"type\":\"calib\",\"probe\":\"tsc\",\"source\":\"stub\","
		 "\"ref\":\"%s\",\"tsc_hz\":%.0f,\"spread_ppm\":%g}", ref, hz, spread);
	rec(j);
}

static void drift(const char *ref, double hz, int indep)
{
	char j[320];

	snprintf(j, sizeof(j), "{\"type\":\"result\",\"probe\":\"drift\",\"name\":\"drift vs %s\","
		 "\"ref\":\"%s\",\"tsc_hz\":%.3f,\"stub_hz\":2.6e9,\"freq_ppm\":0,"
		 "\"window_ppm_min\":-0.2,\"window_ppm_max\":0.2,\"independent\":%s}", ref, ref, hz,
		 indep ? "true" : "false");
	rec(j);
}

/* A TCG boot: no invariant bit, two CPUs in step; hpet_ppm injected into the HPET. */
static void tcg_run(double hpet_ppm, double tsc_moved_ppm)
{
	double hz = 2.6e9, moved = hz * (1 + tsc_moved_ppm / 1e6);

	nrecs = 0;
	rec("{\"type\":\"fingerprint\",\"invariant_tsc\":false}");
	calib("hpet", hz / (1 + hpet_ppm / 1e6), 0);
	calib("pmtimer", hz + 20, 8);
	calib("pit", hz - 15, 6);
	calib("stall", hz * 1.01, 40000);
	rec("{\"type\":\"result\",\"probe\":\"tsc\",\"name\":\"tsc agreement\","
	    "\"by_construction\":[\"stub_vs_kernel_ppm\"],\"stub_vs_kernel_ppm\":0.04}");
	rec("{\"type\":\"result\",\"probe\":\"tsc\",\"name\":\"tsc sync\",\"pairs_with_warps\":0}");
	rec("{\"type\":\"result\",\"probe\":\"tscsync\",\"name\":\"tscsync summary\","
	    "\"max_abs_offset_ns\":17,\"max_bound_ns\":50,\"preos_max_abs_offset_ns\":30,"
	    "\"tsc_adjust_changed\":0}");
	drift("CLOCK_MONOTONIC_RAW", moved * 1.001, 0);	/* not independent: no vote */
	/* circular against a stub figure from the HPET, yet a clock of its own: it votes */
	drift("hpet", moved / (1 + hpet_ppm / 1e6), 0);
	drift("pmtimer", moved, 1);
	rec("{\"type\":\"result\",\"probe\":\"drift\",\"name\":\"drift hpet vs pmtimer\","
	    "\"ref\":\"hpet\",\"against\":\"pmtimer\",\"counter_ppm\":500,\"independent\":null}");
}

static const struct readiness_reason *reason_of(const struct readiness *rd, const char *id,
						const char *from)
{
	for (size_t i = 0; i < rd->n; i++)
		if (!strcmp(rd->reason[i].rule->id, id) &&
		    (!from || strstr(rd->reason[i].from, from)))
			return &rd->reason[i];
	return NULL;
}

static void gathered(void)
{
	static struct readiness rd;
	const struct readiness_reason *it;

	tcg_run(0, 0);
	readiness_gather(&rd, probe_table, probe_count, recs, nrecs, 1, NULL);
	is_str(rd_answer_name(rd.answer), "not safe", "TCG: not safe");
	it = reason_of(&rd, "invariant_tsc", 0);
	ok(it && it->pass == RD_FAILED, "naming the invariant bit");
	ok(!rd.wrong, "no reference named when none is off");
	is_str(rd.kernel_args, "clocksource=hpet", "the HPET instead");
	it = reason_of(&rd, "stub_vs_kernel_ppm", 0);
	ok(it && it->pass == RD_NOT_MEASURED && strstr(it->why, "one origin"),
	   "stub vs kernel of one origin: not judged, saying why");

	tcg_run(500, 0);
	readiness_gather(&rd, probe_table, probe_count, recs, nrecs, 1,
			 &(struct tp_skew){ "hpet", 500 });
	ok(rd.wrong && !strcmp(rd.wrong, "hpet") && !strcmp(rd.wrong_when, "pre-os"),
	   "+500 ppm HPET named by the pre-OS vote");
	is_near(rd.wrong_ppm, 500, 20, "about +500 ppm");
	ok(rd.post_named && !strcmp(rd.post_named, "hpet"), "and after boot");
	it = reason_of(&rd, "drift_ppm", "vs hpet");
	ok(it && it->pass == RD_NOT_MEASURED && strstr(it->why, "names hpet"),
	   "the TSC's drift against it not held against the TSC");
	it = reason_of(&rd, "drift_ppm", "vs pmtimer");
	ok(it && it->pass == RD_PASSED, "against the PM timer: passed");
	is_str(rd.kernel_args, "clocksource=acpi_pm", "the PM timer, not the HPET named");

	rec("{\"type\":\"result\",\"probe\":\"counter\",\"name\":\"cpu0\",\"signatures\":0,"
	    "\"backwards\":0}");
	rec("{\"type\":\"result\",\"probe\":\"counter\",\"name\":\"cpu1\",\"signatures\":2,"
	    "\"backwards\":1}");
	readiness_gather(&rd, probe_table, probe_count, recs, nrecs, 1, NULL);
	it = reason_of(&rd, "counter_errata", 0);
	ok(it && it->pass == RD_FAILED && it->value == 3, "counter: errata signatures and backward "
	   "reads summed over the CPUs fail");

	tcg_run(0, 800);
	readiness_gather(&rd, probe_table, probe_count, recs, nrecs, 1, NULL);
	ok(rd.wrong && !strcmp(rd.wrong, "tsc") && !strcmp(rd.wrong_when, "post-boot"),
	   "a TSC that moved 800 ppm after the stub: the TSC named");
	it = reason_of(&rd, "tsc_named_wrong", 0);
	ok(it && it->pass == RD_FAILED, "and that reason failed");

	nrecs = 0;
	rec("{\"type\":\"fingerprint\",\"invariant_tsc\":true}");
	rec("{\"type\":\"skip\",\"probe\":\"drift\",\"name\":\"drift vs hpet\","
	    "\"reason\":\"/dev/hpet: No such file or directory\"}");
	readiness_gather(&rd, probe_table, probe_count, recs, nrecs, 1, NULL);
	it = reason_of(&rd, "drift_ppm", 0);
	ok(it && it->pass == RD_NOT_MEASURED && strstr(it->why, "hpet: /dev/hpet: No such"),
	   "no drift: drift's own reason said");
	is_str(rd_answer_name(rd.answer), "unknown", "a host with no offsets nor drift: unknown");
	it = reason_of(&rd, "offset_ns", 0);
	ok(it && it->pass == RD_NOT_MEASURED, "no offsets: not measured");
	rec("{\"type\":\"run\",\"cpus\":1}");
	readiness_gather(&rd, probe_table, probe_count, recs, nrecs, 1, NULL);
	it = reason_of(&rd, "offset_ns", 0);
	ok(it && it->pass == RD_PASSED && strstr(it->from, "one CPU"), "one CPU: no pair, passed");
	is_str(rd.kernel_args, "", "and no words");
	ok(rd.vote_pre.res == RD_VOTE_TOO_FEW, "its pre-OS vote: too few");
}

static int declared(const struct probe *p, const char *key)
{
	for (size_t i = 0; p && key && i < p->n_keys; i++)
		if (!fnmatch(p->keys[i].name, key, 0))
			return 1;
	return 0;
}

/* Every key a probe's fact reads from its results is in that probe's key table. */
static void keys_declared(void)
{
	for (size_t i = 0; i < probe_count; i++) {
		const struct probe *p = probe_table[i];

		for (size_t k = 0; k < p->n_facts; k++) {
			const struct probe_fact *d = &p->facts[k];
			const char *keys[] = {
				d->key, d->where[0].key, d->where[1].key, d->one_origin_key,
				d->name_key, d->unc_key, d->lo_key, d->hi_key, d->independent_key,
				d->why_key,
			};

			ok(d->key && d->fact > RF_NONE && d->fact < RF_COUNT,
			   "%s: fact %d has its key", p->name, (int)d->fact);
			if (d->record)	/* a calib or skip record; the run's own */
				continue;
			for (size_t j = 0; j < sizeof(keys) / sizeof(keys[0]); j++)
				if (keys[j])
					ok(declared(p, keys[j]),
					   "%s's key table declares %s (fact %d)", p->name,
					   keys[j], (int)d->fact);
		}
	}
}

/* 1 when some probe declares fact f. */
static int fact_declared(enum readiness_fact f)
{
	for (size_t i = 0; i < probe_count; i++)
		for (size_t k = 0; k < probe_table[i]->n_facts; k++)
			if (probe_table[i]->facts[k].fact == f)
				return 1;
	return 0;
}

/* Every fact a reason judges is one a probe's records say. */
static void facts_declared(void)
{
	for (size_t i = 0; i < ndecl; i++) {
		const struct probe_reason *d = decl[i].d;
		const enum readiness_fact used[] = {
			d->fact, d->plus, d->vs, d->needs,
			d->per_clock ? RF_CLOCK_POSTBOOT : RF_NONE, d->one_cpu ? RF_CPUS : RF_NONE,
		};

		for (size_t j = 0; j < sizeof(used) / sizeof(used[0]); j++)
			if (used[j] != RF_NONE)
				ok(fact_declared(used[j]), "%s: fact %d is declared by a probe",
				   d->rule.id, (int)used[j]);
		ok(d->from && d->from[0] && (d->absent || d->no_tsc_passes || d->read),
		   "%s: says where it comes from and why it may not", d->rule.id);
	}
}

/* An unknown answer names what it lacked and the one step; a guest's step is taken on the host. */
static void next_steps(void)
{
	static struct readiness rd;
	struct tp_rec r;
	const char *line, *json;
	json_t *o;
	long n;

	nrecs = 0;
	rec("{\"type\":\"fingerprint\",\"invariant_tsc\":true}");
	rec("{\"type\":\"skip\",\"probe\":\"drift\",\"name\":\"drift vs hpet\","
	    "\"reason\":\"/dev/hpet: No such file or directory\"}");
	readiness_gather(&rd, probe_table, probe_count, recs, nrecs, 1, NULL);
	ok(rd.answer == RD_UNKNOWN && rd.nmissing == 2 &&
		   ((!strcmp(rd.missing[0]->id, "offset_ns") && !strcmp(rd.missing[1]->id, "drift_ppm")) ||
		    (!strcmp(rd.missing[0]->id, "drift_ppm") && !strcmp(rd.missing[1]->id, "offset_ns"))),
	   "unknown: it lacked offset_ns and drift_ppm (%zu)", rd.nmissing);
	ok(strstr(rd.next_step, "run `timeprobe run --probes=") && strstr(rd.next_step, "drift") &&
		   strstr(rd.next_step, "tscsync") && !strstr(rd.next_step, "guest"),
	   "on a machine: run the probes that give them (%s)", rd.next_step);
	is_str(rd.emulated, "", "no hypervisor: not emulated");

	rec("{\"type\":\"fingerprint\",\"invariant_tsc\":true,"
	    "\"hypervisor_vendor\":\"KVMKVMKVM\"}");
	readiness_gather(&rd, probe_table, probe_count, recs, nrecs, 1, NULL);
	is_str(rd.emulated, "hypervisor", "a hypervisor's signature: a guest");
	ok(strstr(rd.next_step, "inside this guest the machine's own clocks are not visible: boot "
				"the appliance on the host, or run `timeprobe run --probes=") ==
		   rd.next_step && strstr(rd.next_step, "` on the host"),
	   "in a guest: the step is taken on the host (%s)", rd.next_step);
	readiness_record(&r, &rd);
	line = tp_rec_finish(&r);
	n = line ? tp_rec_check(line, strlen(line) - 1, &json) : -1;
	o = n > 0 ? json_loadb(json, (size_t)n, 0, NULL) : NULL;
	ok(o && json_array_size(json_object_get(o, "missing")) == 2 &&
		   !strcmp(json_string_value(json_object_get(o, "next_step")) ?: "", rd.next_step) &&
		   !strcmp(json_string_value(json_object_get(o, "emulated")) ?: "", "hypervisor") &&
		   !strcmp(json_string_value(json_object_get(o, "emulated_by")) ?: "", "KVMKVMKVM"),
	   "the record: missing, next_step, emulated and emulated_by");
	json_decref(o);

	tcg_run(0, 0);
	rec("{\"type\":\"run\",\"accel\":\"tcg:max\"}");
	readiness_gather(&rd, probe_table, probe_count, recs, nrecs, 1, NULL);
	ok(!strcmp(rd.emulated, "tcg") && !strcmp(rd.emulated_by, "QEMU tcg:max"),
	   "the launcher's tcg accel: under an emulator, as the verdict says");
	ok(rd.answer == RD_NOT_SAFE && !rd.nmissing && !rd.next_step[0],
	   "an answer that is not unknown lacks nothing and has no step");
	readiness_record(&r, &rd);
	line = tp_rec_finish(&r);
	n = line ? tp_rec_check(line, strlen(line) - 1, &json) : -1;
	o = n > 0 ? json_loadb(json, (size_t)n, 0, NULL) : NULL;
	ok(o && json_is_null(json_object_get(o, "next_step")) &&
		   json_array_size(json_object_get(o, "missing")) == 0 &&
		   !strcmp(json_string_value(json_object_get(o, "emulated")) ?: "", "tcg"),
	   "its record: no step, nothing missing, emulated tcg");
	json_decref(o);
}

static void record_back(void)
{
	static struct readiness rd;
	struct tp_rec r;
	const char *line, *json;
	json_t *o, *wr;
	long n;

	tcg_run(500, 0);
	readiness_gather(&rd, probe_table, probe_count, recs, nrecs, 1,
			 &(struct tp_skew){ "hpet", 500 });
	readiness_record(&r, &rd);
	line = tp_rec_finish(&r);
	ok(line != NULL, "the record fits");
	n = line ? tp_rec_check(line, strlen(line) - 1, &json) : -1;
	o = n > 0 ? json_loadb(json, (size_t)n, 0, NULL) : NULL;
	ok(o != NULL, "it parses");
	is_str(json_string_value(json_object_get(o, "type")), "tsc_readiness", "its type");
	is_str(json_string_value(json_object_get(o, "tsc_reliable")), "not safe", "the answer");
	is_str(json_string_value(json_object_get(json_object_get(o, "vote_postboot"), "named")),
	       "hpet", "the vote after boot named it too");
	wr = json_object_get(o, "wrong_reference");
	is_str(json_string_value(json_object_get(wr, "name")), "hpet", "wrong_reference hpet");
	is_str(json_string_value(json_array_get(json_object_get(o, "kernel_args"), 0)),
	       "clocksource=acpi_pm", "kernel_args");
	is_int(json_integer_value(json_object_get(json_object_get(o, "injected"), "ppm")), 500,
	       "the injection said");
	is_int(json_array_size(json_object_get(o, "reasons")), rd.n, "every reason");
	json_decref(o);
}

/* A probe no file of the suite knows: its fact and its rule are in its declarations alone. */
static const struct probe_key made_keys[] = {
	PKEY_FIG("steps_back", "count", PK_LOWER, "steps back"),
};

static const struct probe_fact made_facts[] = {
	{ .fact = RF_WARPS, .key = "steps_back", .pick = PP_SUM },
};

static const struct probe_reason made_reasons[] = {
	{ .rule = { "made_steps_back", "made-up steps back", "count", 1, RD_CHECKED,
		    "a made-up source", 0 },
	  .place = 13, .fact = RF_WARPS, .from = "madeup: its scan",
	  .absent = "no scan (probe madeup)" },
};

static const struct probe made_probe = {
	.name = "madeup", .summary = "made up", PROBE_KEYS(made_keys), PROBE_FACTS(made_facts),
	PROBE_REASONS(made_reasons),
};

static void made_up_probe(void)
{
	static struct readiness rd;
	const struct probe *const table[] = { &made_probe };
	const struct readiness_reason *it;

	nrecs = 0;
	rec("{\"type\":\"result\",\"probe\":\"madeup\",\"name\":\"a\",\"steps_back\":1}");
	rec("{\"type\":\"result\",\"probe\":\"madeup\",\"name\":\"b\",\"steps_back\":2}");
	rec("{\"type\":\"result\",\"probe\":\"tsc\",\"name\":\"c\",\"steps_back\":50}");
	readiness_gather(&rd, table, 1, recs, nrecs, 1, NULL);
	is_int(rd.n, 3, "the made-up probe's reason and the record's own two");
	it = reason_of(&rd, "made_steps_back", 0);
	ok(it && it->value == 3 && it->pass == RD_FAILED && !strcmp(it->from, "madeup: its scan"),
	   "its fact summed over its results, judged by its bound: failed");
	is_str(rd_answer_name(rd.answer), "not safe", "a failed checked rule: not safe");
	ok(rd.n == 3 && !strcmp(rd.reason[0].rule->id, "sockets") && it == &rd.reason[2],
	   "in its place (13): after the record's own two (10, 12)");
}

int main(void)
{
	skew_words();
	vote_cases();
	decisions();
	gathered();
	keys_declared();
	facts_declared();
	record_back();
	next_steps();
	made_up_probe();
	return tap_done();
}
