// SPDX-License-Identifier: MIT
/*
 * The verdict: its words at the edges of each declared item's bounds
 * (struct probe_verdict), every key an item reads declared by its probe's
 * key table, and userland/verdict.c on made-up records: figures taken, the
 * worst of several, "not measured" with why (not selected, skipped,
 * failed, no such figure), "unknown" for a ppm of one origin, an emulator
 * said first, its record read back, and a made-up probe's item reaching
 * the verdict through its declaration alone.
 */
#include <fnmatch.h>
#include <math.h>
#include <string.h>
#include <jansson.h>

#include "madeup.h"
#include "tap.h"
#include "../../common/record.h"
#include "../../userland/probe.h"
#include "../../userland/verdict.h"

static struct verdict_decl decl[VERDICT_ITEMS];
static size_t ndecl;

static void declarations(void)
{
	int n = verdict_decls(probe_table, probe_count, decl, VERDICT_ITEMS);

	ok(n > 0, "the probes declare items, no more than VERDICT_ITEMS (%d)", n);
	ndecl = n > 0 ? (size_t)n : 0;
	for (size_t i = 0; i < ndecl; i++) {
		ok(i == 0 || decl[i - 1].d->place < decl[i].d->place,
		   "%s: its place after the one before", decl[i].d->lim.id);
		for (size_t k = 0; k < i; k++)
			ok(strcmp(decl[k].d->lim.id, decl[i].d->lim.id), "%s: one id once",
			   decl[i].d->lim.id);
		ok(decl[i].d->lim.what && decl[i].d->lim.basis && decl[i].d->lim.basis[0],
		   "%s: what it is and its bounds' source", decl[i].d->lim.id);
	}
}

static void edges(void)
{
	for (size_t i = 0; i < ndecl; i++) {
		const struct verdict_limit *l = &decl[i].d->lim;

		is_str(verdict_word_name(verdict_word_of(l, NAN)), "not measured",
		       "NaN: not measured");
		if (!l->unit) {
			ok(verdict_word_of(l, 1) == VW_GOOD && verdict_word_of(l, 0) == VW_POOR,
			   "%s: yes good, no poor", l->id);
			continue;
		}
		ok(l->good_max < l->fair_max, "%s: good bound below fair bound", l->id);
		ok(verdict_word_of(l, l->good_max) == VW_GOOD, "%s: at the good bound: good", l->id);
		ok(verdict_word_of(l, -l->good_max) == VW_GOOD, "%s: minus it: good", l->id);
		ok(verdict_word_of(l, nextafter(l->good_max, INFINITY)) == VW_FAIR,
		   "%s: just above: fair", l->id);
		ok(verdict_word_of(l, l->fair_max) == VW_FAIR, "%s: at the fair bound: fair", l->id);
		ok(verdict_word_of(l, nextafter(l->fair_max, INFINITY)) == VW_POOR,
		   "%s: just above: poor", l->id);
		ok(verdict_word_of(l, -2 * l->fair_max) == VW_POOR, "%s: far below zero: poor", l->id);
	}
	is_str(verdict_word_name((enum verdict_word)99), "unknown", "a word out of range: unknown");
}

static int declared(const struct probe *p, const char *key)
{
	for (size_t i = 0; p && key && i < p->n_keys; i++)
		if (!strcmp(p->keys[i].name, key) || !fnmatch(p->keys[i].name, key, 0))
			return 1;
	return 0;
}

/* Every key a probe's item reads from its results is in that probe's key table. */
static void keys_declared(void)
{
	for (size_t i = 0; i < probe_count; i++) {
		const struct probe *p = probe_table[i];

		for (size_t k = 0; k < p->n_verdict; k++) {
			const struct probe_verdict *d = &p->verdict[k];
			const char *keys[] = {
				d->key, d->plus_key, d->where[0].key, d->where[1].key,
				d->context_key, d->one_origin_key, d->independent_key, d->why_key,
				d->p999_key, d->n_key,
			};

			ok(d->key != NULL, "%s: %s names its figure", p->name, d->lim.id);
			if (d->record) {	/* the run's own record, not the probe's */
				ok(!d->where[0].key && !d->plus_key && !d->context_key,
				   "%s: %s reads %s's %s alone", p->name, d->lim.id, d->record,
				   d->key);
				continue;
			}
			for (size_t j = 0; j < sizeof(keys) / sizeof(keys[0]); j++)
				if (keys[j])
					ok(declared(p, keys[j]), "%s's key table declares %s (%s)",
					   p->name, keys[j], d->lim.id);
		}
	}
}

/* ---- made-up records: madeup.h ---- */

static const struct verdict_item *find(const struct verdict *v, const char *id)
{
	for (size_t i = 0; i < v->n; i++)
		if (!strcmp(v->item[i].lim->id, id))
			return &v->item[i];
	return NULL;
}

static void a_run(struct verdict *v)
{
	static const struct summary_row rows[] = {
		{ "tsc", 0, OUTCOME_OK, 5, 100, 0 }, { "tscsync", 0, OUTCOME_OK, 3, 100, 0 },
		{ "drift", 0, OUTCOME_OK, 3, 100, 0 }, { "clocks", 0, OUTCOME_OK, 3, 100, 0 },
		{ "wakeup", 0, OUTCOME_OK, 3, 100, 0 }, { "noise", 0, OUTCOME_SKIPPED, 1, 100, 0 },
		{ "itimer", 0, OUTCOME_TIMEOUT, 0, 100, 0 },
	};

	nrecs = 0;
	rec("{\"type\":\"run\",\"env\":\"appliance\",\"accel\":\"tcg:max\"}");
	rec("{\"type\":\"fingerprint\",\"invariant_tsc\":false,\"hypervisor_vendor\":\"KVMKVMKVM\"}");
	rec("{\"type\":\"result\",\"probe\":\"tsc\",\"name\":\"tsc agreement\","
	    "\"by_construction\":[\"stub_vs_kernel_ppm\"],\"stub_vs_kernel_ppm\":-3.5}");
	rec("{\"type\":\"result\",\"probe\":\"tscsync\",\"name\":\"tscsync summary\","
	    "\"max_abs_offset_ns\":-60,\"max_bound_ns\":40.5}");
	rec("{\"type\":\"result\",\"probe\":\"drift\",\"name\":\"circular\",\"freq_ppm\":1,"
	    "\"reference\":\"CLOCK_MONOTONIC_RAW\",\"independent\":false,"
	    "\"why\":\"circular: it is the TSC\"}");
	rec("{\"type\":\"result\",\"probe\":\"drift\",\"name\":\"drift vs hpet\",\"freq_ppm\":-250,"
	    "\"reference\":\"hpet\",\"independent\":true}");
	rec("{\"type\":\"result\",\"probe\":\"drift\",\"name\":\"later circular\",\"freq_ppm\":2,"
	    "\"reference\":\"kernel\",\"independent\":false}");
	rec("{\"type\":\"result\",\"probe\":\"clocks\",\"name\":\"syscall\",\"clock_id\":1,"
	    "\"path\":\"syscall\",\"ns_per_call\":900}");
	rec("{\"type\":\"result\",\"probe\":\"clocks\",\"name\":\"clock_gettime(CLOCK_MONOTONIC)\","
	    "\"clocksource\":\"tsc\",\"clock_id\":1,\"path\":\"vdso\",\"ns_per_call\":25}");
	rec("{\"type\":\"result\",\"probe\":\"clocks\",\"name\":\"sweep\",\"clocksource\":\"hpet\","
	    "\"clock_id\":1,\"path\":\"vdso\",\"ns_per_call\":2000}");
	rec("{\"type\":\"result\",\"probe\":\"wakeup\",\"name\":\"a\",\"mechanism\":"
	    "\"clock_nanosleep TIMER_ABSTIME\",\"max_ns\":90000,\"p999_ns\":80000,\"n\":2000}");
	rec("{\"type\":\"result\",\"probe\":\"wakeup\",\"name\":\"b\",\"mechanism\":"
	    "\"clock_nanosleep TIMER_ABSTIME\",\"max_ns\":150000,\"p999_ns\":120000,\"n\":1000}");
	rec("{\"type\":\"result\",\"probe\":\"wakeup\",\"name\":\"c\",\"mechanism\":"
	    "\"poll\",\"max_ns\":9000000,\"p999_ns\":9000000,\"n\":100}");
	rec("{\"type\":\"skip\",\"probe\":\"noise\",\"reason\":\"one CPU \\\"only\\\"\"}");
	recs[nrecs++] = 'x';	/* a cut line: not a record */
	rec("{\"type\":\"result\",\"probe\":\"noise\",\"stolen_pct\":50}");
	recs[nrecs - 3] ^= 1;	/* its CRC no longer matches: not read */
	verdict_gather(v, probe_table, probe_count, recs, nrecs, rows,
		       sizeof(rows) / sizeof(rows[0]));
}

static void gathered(void)
{
	static struct verdict v;
	const struct verdict_item *it;

	a_run(&v);
	is_str(v.emulated, "tcg", "the launcher's tcg accel: emulated, first of all");
	is_str(v.emulated_by, "QEMU tcg:max", "by QEMU's TCG");
	it = find(&v, "tsc_invariant");
	ok(it->measured && it->value == 0 && it->word == VW_POOR, "not invariant: poor");
	it = find(&v, "tsc_stub_vs_kernel_ppm");
	ok(it->measured && it->value == -3.5 && it->word == VW_UNKNOWN && it->independent == 0,
	   "a ppm of one origin: its figure, word unknown");
	it = find(&v, "tsc_offset_ns");
	ok(it->measured && it->value == 100.5 && it->word == VW_FAIR, "offset bound |-60| + 40.5: fair");
	it = find(&v, "tsc_drift_ppm");
	ok(it->value == -250 && it->independent == 1 && it->word == VW_POOR,
	   "drift: the independent reference wins over circular ones, before and after: poor");
	ok(strstr(it->from, "drift vs hpet") != NULL, "drift: from its result (%s)", it->from);
	it = find(&v, "clock_read_ns");
	ok(it->value == 25 && it->word == VW_GOOD && strstr(it->from, "vDSO, clocksource tsc"),
	   "clock read: the first vDSO read of CLOCK_MONOTONIC, not the syscall or the sweep");
	it = find(&v, "wakeup_max_ns");
	ok(it->value == 150000 && it->p999_ns == 120000 && it->n == 1000 && it->word == VW_FAIR,
	   "wake-up: the worst clock_nanosleep max with its own p99.9 and n, poll left out");
	it = find(&v, "noise_stolen_pct");
	ok(!it->measured && isnan(it->value) && it->word == VW_NOT_MEASURED,
	   "noise skipped, its record with a bad CRC unread: not measured, no value");
	is_str(it->why, "probe noise skipped it: one CPU \"only\"", "why: the probe's skip reason");
	it = find(&v, "itimer_error_pct");
	is_str(it->why, "probe itimer ended: timeout", "itimer timed out: why says so");
}

static void not_selected(void)
{
	static struct verdict v;
	static const struct summary_row rows[] = {
		{ "tscsync", 0, OUTCOME_OK, 1, 1, 0 }, { "clocks", 0, OUTCOME_OK, 1, 1, 0 },
	};

	nrecs = 0;
	rec("{\"type\":\"run\",\"accel\":null}");
	rec("{\"type\":\"result\",\"probe\":\"clocks\",\"name\":\"m\",\"clocksource\":\"hpet\","
	    "\"clock_id\":1,\"path\":\"libc\",\"ns_per_call\":787.5}");
	verdict_gather(&v, probe_table, probe_count, recs, nrecs, rows, 2);
	is_str(v.emulated, "", "no accel, no hypervisor: not emulated");
	ok(find(&v, "clock_read_ns")->value == 787.5 && find(&v, "clock_read_ns")->word == VW_FAIR &&
	   strstr(find(&v, "clock_read_ns")->from, "through libc"),
	   "clock read without the vDSO: libc's path, a system call");
	for (size_t i = 0; i < v.n; i++) {
		if (v.item[i].measured)
			continue;
		ok(v.item[i].word == VW_NOT_MEASURED && !v.item[i].measured && isnan(v.item[i].value),
		   "%s: not measured, no value (%s)", v.item[i].lim->id, v.item[i].why);
	}
	is_str(find(&v, "wakeup_max_ns")->why, "probe wakeup not run (not selected)", "not selected");
	for (size_t i = 0; i < v.n; i++)
		ok(v.item[i].measured || !strcmp(v.item[i].lim->id, "tsc_invariant") ||
		   !strncmp(v.item[i].why, "probe ", 6),
		   "%s: its probe is known (%s)", v.item[i].lim->id, v.item[i].why);
	is_str(find(&v, "tsc_offset_ns")->why, "probe tscsync gave no such figure", "ran, no figure");
	is_str(find(&v, "tsc_invariant")->why, "the fingerprint did not say", "no fingerprint");
}

/* The record parses, carries every item in the table's order, null for a value not measured. */
static void record(void)
{
	static struct verdict v;
	struct tp_rec r;
	const char *line, *json;
	json_t *o, *items;
	long n;
	size_t i = 0;
	const char *id;
	json_t *it;

	a_run(&v);
	verdict_record(&r, &v);
	line = tp_rec_finish(&r);
	ok(line != NULL, "the record fits");
	n = line ? tp_rec_check(line, strlen(line) - 1, &json) : -1;
	o = n > 0 ? json_loadb(json, (size_t)n, 0, NULL) : NULL;
	ok(o != NULL, "it parses");
	is_str(json_string_value(json_object_get(o, "type")), "verdict", "type verdict");
	is_str(json_string_value(json_object_get(o, "emulated")), "tcg", "emulated tcg");
	items = json_object_get(o, "items");
	json_object_foreach(items, id, it) {
		ok(i < ndecl && !strcmp(id, decl[i].d->lim.id), "item %zu is %s", i, id);
		i++;
	}
	is_int(i, ndecl, "every item");
	ok(json_is_null(json_object_get(json_object_get(items, "noise_stolen_pct"), "value")),
	   "not measured: value null");
	is_str(json_string_value(json_object_get(json_object_get(items, "noise_stolen_pct"), "word")),
	       "not measured", "its word");
	ok(json_number_value(json_object_get(json_object_get(items, "wakeup_max_ns"), "n")) == 1000,
	   "wake-up's n");
	json_decref(o);
}

/* A probe no file of the suite knows: its item is in its declaration alone. */
static const struct probe_key made_keys[] = {
	PKEY_ID("mode", 0, "how it ran"),
	PKEY_FIG("jitter_us", "us", PK_LOWER, "the jitter"),
};

static const struct probe_verdict made_verdict[] = {
	{ .lim = { "made_jitter_us", "made-up jitter", "us", 5, 50, "a made-up source" },
	  .place = 1, .key = "jitter_us", .pick = PP_LARGEST, .where = { RW_IS("mode", "real") },
	  .from = ", real mode" },
};

static const struct probe made_probe = {
	.name = "madeup", .summary = "made up", PROBE_KEYS(made_keys), PROBE_VERDICT(made_verdict),
};

static void made_up_probe(void)
{
	static struct verdict v;
	const struct probe *const table[] = { &made_probe };
	static const struct summary_row rows[] = { { "madeup", 0, OUTCOME_OK, 3, 100, 0 } };

	nrecs = 0;
	rec("{\"type\":\"result\",\"probe\":\"madeup\",\"name\":\"a\",\"mode\":\"real\","
	    "\"jitter_us\":7}");
	rec("{\"type\":\"result\",\"probe\":\"madeup\",\"name\":\"b\",\"mode\":\"real\","
	    "\"jitter_us\":-30}");
	rec("{\"type\":\"result\",\"probe\":\"madeup\",\"name\":\"c\",\"mode\":\"fake\","
	    "\"jitter_us\":900}");
	rec("{\"type\":\"result\",\"probe\":\"tsc\",\"name\":\"d\",\"mode\":\"real\","
	    "\"jitter_us\":800}");
	verdict_gather(&v, table, 1, recs, nrecs, rows, 1);
	is_int(v.n, 1, "the made-up probe's one item, and no other");
	ok(v.n == 1 && !strcmp(v.item[0].lim->id, "made_jitter_us") && v.item[0].value == -30 &&
	   v.item[0].word == VW_FAIR, "its worst figure of the rows it selects, judged by its "
	   "bounds: fair (%g)", v.n ? v.item[0].value : NAN);
	is_str(v.n ? v.item[0].from : "", "madeup: b, real mode", "from its result, in its words");
	nrecs = 0;
	verdict_gather(&v, table, 1, recs, nrecs, rows, 1);
	is_str(v.n ? v.item[0].why : "", "probe madeup gave no such figure", "none: why not");
}

int main(void)
{
	declarations();
	edges();
	keys_declared();
	gathered();
	not_selected();
	record();
	made_up_probe();
	return tap_done();
}
