// SPDX-License-Identifier: MIT
/*
 * Unit tests of tools/report/model.c and the figure formatting: grouping
 * into runs, figure keys, iterations, comparison ratios and missing figures,
 * attribution records, and which figures the comparison's lead ranks.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../tools/report/cells.h"
#include "../../tools/report/judge.h"
#include "../../tools/report/lead.h"
#include "../../tools/report/schema.h"
#include "../../tools/report/sides.h"
#include "../../tools/report/student.h"
#include "../../tools/report/model.h"
#include "../../tools/report/noise.h"
#include "../../tools/report/util.h"
#include "../unit/tap.h"

/* Builds a record list from JSON texts, as the scanner would hand it over. */
static void add(struct rec_list *l, const char *json)
{
	json_error_t err;
	json_t *o = json_loads(json, 0, &err);

	if (!o) {
		printf("# bad test JSON: %s: %s\n", json, err.text);
		exit(1);
	}
	grow(&l->v, &l->cap, l->n + 1, sizeof(*l->v));
	l->v[l->n].obj = o;
	l->v[l->n].type = json_string_value(json_object_get(o, "type"));
	l->v[l->n].line = l->n + 1;
	l->n++;
}

static const struct figure *find_fig(const struct report *rp, const char *name, const char *key)
{
	for (size_t i = 0; i < rp->nfigs; i++)
		if (!strcmp(rp->figs[i].name, name) && !strcmp(rp->figs[i].key, key))
			return &rp->figs[i];
	return NULL;
}

static void test_split_runs(void)
{
	struct rec_list l = { 0 };
	struct report rp = { 0 };

	add(&l, "{\"type\":\"result\",\"probe\":\"tsc\",\"name\":\"tsc\",\"tsc_hz\":1}");
	add(&l, "{\"type\":\"end\",\"probes_ok\":1}");
	add(&l, "{\"type\":\"stub\",\"firmware\":\"EDK II\"}");
	add(&l, "{\"type\":\"calib\",\"ref\":\"pit\",\"tsc_hz\":3}");
	add(&l, "{\"type\":\"calib_summary\",\"source\":\"stub\",\"tsc_hz\":3}");
	add(&l, "{\"type\":\"run\",\"env\":\"appliance\",\"machine\":\"QEMU\",\"kernel\":\"6.1\"}");
	add(&l, "{\"type\":\"calib\",\"source\":\"user\",\"tsc_hz\":3}");
	add(&l, "{\"type\":\"result\",\"probe\":\"tsc\",\"name\":\"tsc\",\"tsc_hz\":2}");
	add(&l, "{\"type\":\"skip\",\"probe\":\"noise\",\"reason\":\"r\"}");
	add(&l, "{\"type\":\"end\",\"probes_ok\":1}");
	add(&l, "{\"type\":\"stub\",\"firmware\":\"EDK II\"}");
	add(&l, "{\"type\":\"run\",\"env\":\"appliance\",\"machine\":\"QEMU\",\"kernel\":\"6.2\"}");
	add(&l, "{\"type\":\"result\",\"probe\":\"tsc\",\"name\":\"tsc\",\"tsc_hz\":4}");
	add(&l, "{\"type\":\"stub\",\"firmware\":\"EDK II\"}");
	add(&l, "{\"type\":\"calib\",\"ref\":\"pit\",\"tsc_hz\":3}");
	report_add_file(&rp, "x.log", &l);
	rec_list_free(&l);
	report_finish(&rp, NULL, 0);

	is_num((long long)rp.nruns, 4, "runs: headless start, two boots, a boot that never ran");
	ok(!rp.runs[0].head && rp.runs[0].end && rp.runs[0].nres == 1,
	   "records before any run record make a run without header");
	is_num((long long)json_array_size(rp.runs[1].boot), 4,
	       "stub and calib before the run record, and calib after it, belong to the run");
	is_num((long long)rp.runs[1].nres, 2, "calib_summary becomes a result of probe calib");
	is_num((long long)json_array_size(rp.runs[1].notes), 1, "skip kept with its run");
	ok(!rp.runs[2].end, "a run cut off has no end record");
	ok(!rp.runs[3].head && json_array_size(rp.runs[3].boot) == 2 && !rp.runs[3].nres,
	   "stub and calib of a boot that never reached the suite");
	is_str(rp.runs[1].label, "appliance/QEMU 6.1", "equal labels told apart by kernel");
	is_str(rp.runs[2].label, "appliance/QEMU 6.2", "... both of them");
	is_str(rp.runs[0].label, "x.log#1", "a run without header is named by file");
	report_free(&rp);
}

static void test_keys(void)
{
	json_t *a = json_loads("{\"type\":\"result\",\"probe\":\"itimer\","
			       "\"name\":\"ITIMER_REAL 10000us\","
			       "\"timer\":\"ITIMER_REAL\",\"load\":0,\"requested_us\":10000,"
			       "\"actual_us\":10004.2,\"iteration\":2,\"hist\":{\"width_ns\":1}}", 0, NULL);
	json_t *b = json_loads("{\"requested_us\":10000,\"load\":0,\"timer\":\"ITIMER_REAL\","
			       "\"probe\":\"itimer\",\"name\":\"ITIMER_REAL 10000us\",\"type\":\"result\"}",
			       0, NULL);
	json_t *c = json_loads("{\"type\":\"result\",\"probe\":\"clocks\",\"name\":\"gettimeofday()\","
			       "\"path\":\"vdso\",\"clocksource\":\"tsc\",\"ns_per_call\":21.5}", 0, NULL);
	json_t *d = json_loads("{\"type\":\"result\",\"probe\":\"clocks\",\"name\":\"gettimeofday()\","
			       "\"path\":\"syscall\",\"clocksource\":\"tsc\",\"ns_per_call\":21.5}", 0, NULL);
	char *ia, *ib, *ic, *id;
	char *ka = result_id(a, &ia), *kb = result_id(b, &ib);
	char *kc = result_id(c, &ic), *kd = result_id(d, &id);

	ok(key_is_figure(a, "actual_us", json_object_get(a, "actual_us")), "actual_us is a figure");
	ok(!key_is_figure(a, "load", json_object_get(a, "load")), "load is a parameter");
	ok(!key_is_figure(a, "iteration", json_object_get(a, "iteration")), "iteration is bookkeeping");
	ok(!key_is_figure(a, "hist", json_object_get(a, "hist")), "a nested hist is not a figure");
	ok(key_is_ident(c, "path", json_object_get(c, "path")), "path identifies a result");
	ok(!strcmp(ka, kb), "identity does not depend on key order");
	is_str(ia, "load=0", "shown identity leaves out what the name says");
	is_str(ic, "path=vdso clocksource=tsc", "path and clocksource shown");
	ok(strcmp(kc, kd), "vdso and syscall paths are different figures");
	free(ka);
	free(kb);
	free(kc);
	free(kd);
	free(ia);
	free(ib);
	free(ic);
	free(id);
	json_decref(a);
	json_decref(b);
	json_decref(c);
	json_decref(d);
}

/* Readings that change every run are not part of what was measured. */
static void test_schema_identity(void)
{
	static const char *const same[][2] = {
		{ "{\"type\":\"result\",\"probe\":\"clocks\",\"name\":\"time()\",\"path\":\"vdso\","
		  "\"last_value\":\"1796232029\",\"cpu\":1,\"ns_per_call\":16.7}",
		  "{\"type\":\"result\",\"probe\":\"clocks\",\"name\":\"time()\",\"path\":\"vdso\","
		  "\"last_value\":\"1796232077\",\"cpu\":0,\"ns_per_call\":17.1}" },
		{ "{\"type\":\"result\",\"probe\":\"wakeup\",\"name\":\"w\",\"samples\":200,\"p99_ns\":5}",
		  "{\"type\":\"result\",\"probe\":\"wakeup\",\"name\":\"w\",\"samples\":2000,\"p99_ns\":6}" },
	};
	static const char *const differ[][2] = {
		{ "{\"type\":\"result\",\"probe\":\"noise\",\"name\":\"n\",\"cpu\":0}",
		  "{\"type\":\"result\",\"probe\":\"noise\",\"name\":\"n\",\"cpu\":1}" },
		{ "{\"type\":\"result\",\"probe\":\"clocks\",\"name\":\"t\",\"clocksource\":\"tsc\"}",
		  "{\"type\":\"result\",\"probe\":\"clocks\",\"name\":\"t\",\"clocksource\":\"hpet\"}" },
	};

	for (int k = 0; k < 2; k++) {
		for (size_t i = 0; i < 2; i++) {
			const char *const *pair = k ? differ[i] : same[i];
			json_t *x = json_loads(pair[0], 0, NULL), *y = json_loads(pair[1], 0, NULL);
			char *sx, *sy, *kx = result_id(x, &sx), *ky = result_id(y, &sy);

			ok(!strcmp(kx, ky) == !k, "%s: %s", k ? "different results" : "one result",
			   pair[0]);
			free(kx);
			free(ky);
			free(sx);
			free(sy);
			json_decref(x);
			json_decref(y);
		}
	}
}

static void test_compare(void)
{
	struct rec_list l1 = { 0 }, l2 = { 0 };
	struct report rp = { 0 };
	char *const labels[] = { "A", "" };
	const struct figure *f;
	char buf[64];

	add(&l1, "{\"type\":\"run\",\"env\":\"appliance\",\"machine\":\"QEMU\"}");
	add(&l1, "{\"type\":\"result\",\"probe\":\"clocks\",\"name\":\"c\",\"ns_per_call\":10}");
	add(&l1, "{\"type\":\"result\",\"probe\":\"clocks\",\"name\":\"only-a\",\"ns_per_call\":1}");
	add(&l2, "{\"type\":\"run\",\"env\":\"os\",\"machine\":\"Box (rev 2)\"}");
	for (int i = 1; i <= 3; i++) {
		char *j = xasprintf("{\"type\":\"result\",\"iteration\":%d,\"probe\":\"clocks\","
				    "\"name\":\"c\",\"ns_per_call\":%d}", i, 18 + 2 * i);
		add(&l2, j);
		free(j);
	}
	add(&l2, "{\"type\":\"result\",\"probe\":\"clocks\",\"name\":\"only-b\",\"ns_per_call\":1}");
	report_add_file(&rp, "a.log", &l1);
	report_add_file(&rp, "b.log", &l2);
	rec_list_free(&l1);
	rec_list_free(&l2);
	report_finish(&rp, labels, 2);

	is_str(rp.runs[0].label, "A", "--label names the first run");
	is_str(rp.runs[1].label, "os/Box", "an empty --label field keeps the default");
	is_num(rp.runs[1].iterations, 3, "iterations counted");
	f = find_fig(&rp, "c", "ns_per_call");
	ok(f && f->per_run[0].n == 1 && f->per_run[1].n == 3, "a shared figure has values in both runs");
	ok(f && f->per_run[1].mean == 22 && f->per_run[1].min == 20 && f->per_run[1].max == 24,
	   "mean, min and max over iterations");
	ok(f && fabs(f->per_run[1].stddev - 2) < 1e-9, "sample stddev over iterations");
	fmt_ratio(buf, sizeof(buf), f->per_run[1].mean, f->per_run[0].mean);
	is_str(buf, "2.20x", "ratio against the first run");
	fmt_agg(buf, sizeof(buf), &f->per_run[1]);
	is_str(buf, "22 ±9.1 %", "mean and relative spread");
	{
		struct agg wide = { .n = 3, .mean = 1000, .stddev = 1300, .combine = COMBINE_MEAN };

		fmt_agg_in(buf, sizeof(buf), &wide, 1);
		is_str(buf, "1 µs ±130 %", "a spread over 10 % in whole percent, a time in µs");
	}
	fmt_value(buf, sizeof(buf), 2437000, 1);
	is_str(buf, "2.437 ms", "2 437 000 ns is 2.437 ms");
	fmt_value(buf, sizeof(buf), 4000000, 1e3);
	is_str(buf, "4 s", "4 000 000 us is 4 s");
	fmt_value(buf, sizeof(buf), 850, 1);
	is_str(buf, "850 ns", "under a microsecond stays in ns");
	fmt_value(buf, sizeof(buf), 1234, 0);
	is_str(buf, "1234", "no time unit: the number as it is");
	f = find_fig(&rp, "only-b", "ns_per_call");
	ok(f && !f->per_run[0].n && f->per_run[1].n == 1, "figure of one run is missing in the other");
	fmt_agg(buf, sizeof(buf), &f->per_run[0]);
	is_str(buf, "-", "missing shown as -");
	ok(rp.figs[0].per_run[0].n && !strcmp(rp.figs[rp.nfigs - 1].name, "only-b"),
	   "figures in the order first seen");
	report_free(&rp);
}

/* Two runs of attribution and tscsync records; run B repeats twice. */
static void lead_runs(struct report *rp)
{
	struct rec_list a = { 0 }, b = { 0 };

	add(&a, "{\"type\":\"run\",\"env\":\"appliance\",\"machine\":\"A\"}");
	add(&a, "{\"type\":\"attribution\",\"for_probe\":\"clocks\",\"ran_ms\":1000,"
		"\"own_cpus_irqs\":1000,\"own_invol_ctxsw\":2,\"own_cpus_softirqs\":100,"
		"\"own_vol_ctxsw\":400,\"irq:RES\":100,\"smis\":null,\"missing\":{}}");
	add(&a, "{\"type\":\"result\",\"probe\":\"tscsync\",\"name\":\"offset cpu0 cpu1\","
		"\"cpu_a\":0,\"cpu_b\":1,\"offset_ns\":4,\"bound_ns\":40,\"round_trip_ns\":100}");
	/* an env no identical pairs measured: the Poisson rules alone (noise.h) */
	add(&b, "{\"type\":\"run\",\"env\":\"appliance\",\"machine\":\"B\"}");
	for (int it = 1; it <= 2; it++) {
		char *j = xasprintf("{\"type\":\"attribution\",\"iteration\":%d,\"for_probe\":"
				    "\"clocks\",\"ran_ms\":2000,\"own_cpus_irqs\":2000,\"own_invol_ctxsw\":4,"
				    "\"own_cpus_softirqs\":2000,\"own_vol_ctxsw\":400,\"irq:RES\":2000,"
				    "\"smis\":null}", it);

		add(&b, j);
		free(j);
		j = xasprintf("{\"type\":\"result\",\"iteration\":%d,\"probe\":\"tscsync\","
			      "\"name\":\"offset cpu0 cpu1\",\"cpu_a\":0,\"cpu_b\":1,\"offset_ns\":%d,"
			      "\"bound_ns\":%d,\"round_trip_ns\":%d}", it, -40 * it, it == 1 ? 30 : 90,
			      it == 1 ? 300 : 310);
		add(&b, j);
		free(j);
	}
	report_add_file(rp, "a.log", &a);
	report_add_file(rp, "b.log", &b);
	rec_list_free(&a);
	rec_list_free(&b);
	report_finish(rp, NULL, 0);
}

static void test_lead(void)
{
	struct report rp = { 0 };
	const struct figure *f;

	lead_runs(&rp);
	f = find_fig(&rp, "clocks", "own_cpus_irqs");
	ok(f && !strcmp(f->probe, ATTRIBUTION) && f->per_run[0].n == 1 && f->per_run[1].n == 2,
	   "attribution: one result per probe, lined up across runs, iterations combined");
	ok(find_fig(&rp, "clocks", "ran_ms") && !find_fig(&rp, "clocks", "smis"),
	   "attribution: the window is a figure, a null SMI count is not");
	ok(f && lead_figure_score(&rp, f) == 0,
	   "lead: twice the interrupts in twice the time is no difference");
	f = find_fig(&rp, "clocks", "own_vol_ctxsw");
	ok(f && lead_figure_score(&rp, f) == 0,
	   "lead: as many own switches in twice the time (work, not time) is no difference");
	f = find_fig(&rp, "clocks", "own_invol_ctxsw");
	ok(f && lead_figure_score(&rp, f) == 0, "lead: 2 against 4 events is within Poisson noise");
	f = find_fig(&rp, "clocks", "own_cpus_softirqs");
	ok(f && fabs(lead_figure_score(&rp, f) - log(10)) < 1e-9,
	   "lead: 100 against 2000 events in twice the time ranks by the rate ratio, 10");
	f = find_fig(&rp, "clocks", "irq:RES");
	ok(f && lead_figure_score(&rp, f) == 0,
	   "lead: the same 100 against 2000, counted for the whole machine, never leads");
	f = find_fig(&rp, "offset cpu0 cpu1", "offset_ns");
	ok(f && f->per_run[1].n == 2 && lead_figure_score(&rp, f) == 0,
	   "lead: a TSC offset is a signed difference, never ranked by ratio");
	f = find_fig(&rp, "offset cpu0 cpu1", "bound_ns");
	ok(f && f->per_run[1].mean == 30 && lead_figure_score(&rp, f) == 0,
	   "lead: a bound of 40 against the intersection's 30, once, no floor: no difference");
	f = find_fig(&rp, "offset cpu0 cpu1", "round_trip_ns");
	ok(f && lead_figure_score(&rp, f) == 0,
	   "lead: 100 once, without an interval or a floor, against 305 ±2.3%%: cannot compare");
	ok(schema_signed("drift", "freq_ppm") && schema_signed("tscsync", "offset_ticks") &&
		   schema_signed("tscsync", "tsc_adjust") && schema_signed("tsc", "stub_vs_kernel_ppm") &&
		   !schema_signed("tscsync", "max_abs_offset_ns") && !schema_signed("tsc", "spread_ppm") &&
		   !schema_signed("clocks", "offset_ns") && !schema_signed(NULL, "freq_ppm"),
	   "signed differences, by probe: offsets, rate deviations; not magnitudes");
	report_free(&rp);
}

/* One run from JSON texts, in file name. */
static void add_run(struct report *rp, const char *file, const char *const *json, size_t n)
{
	struct rec_list l = { 0 };

	for (size_t i = 0; i < n; i++)
		add(&l, json[i]);
	report_add_file(rp, file, &l);
	rec_list_free(&l);
}

#define PAIR "{\"type\":\"result\",\"probe\":\"tscsync\",\"name\":\"p\",\"cpu_a\":0,\"cpu_b\":1,"

/*
 * What a result keeps of its records: values of a key some iterations lack
 * pair up by iteration, a key seen late is found, and so is every key of a
 * result with more than the few a scan looks through.
 */
static void test_result_keeps(void)
{
	static const char *const gaps[] = {
		PAIR "\"iteration\":1,\"offset_ns\":-40,\"bound_ns\":30}",
		PAIR "\"iteration\":2,\"offset_ns\":500}",
		PAIR "\"iteration\":3,\"offset_ns\":0,\"bound_ns\":60,\"late\":7}",
	};
	struct report rp = { 0 };
	struct sbuf wide = { 0 };
	const char *rec[2];
	const struct figure *f;
	const struct rkey *k;
	const struct result *r;
	double *v;
	size_t n;
	int all = 1;

	sbuf_adds(&wide, "{\"type\":\"result\",\"probe\":\"x\",\"name\":\"wide\"");
	for (int i = 0; i < 40; i++)
		sbuf_addf(&wide, ",\"k%d\":%d", i, i);
	sbuf_adds(&wide, "}");
	rec[0] = rec[1] = wide.s;
	add_run(&rp, "gaps.log", gaps, ARRAY_SIZE(gaps));
	add_run(&rp, "wide.log", rec, 2);
	report_finish(&rp, NULL, 0);
	f = find_fig(&rp, "p", "offset_ns");
	/* iteration 2 has no bound: [-70,-10] ∩ [-60,60] = [-60,-10] */
	ok(f && f->per_run[0].n == 2 && f->per_run[0].mean == -35,
	   "an iteration without its bound is left out of the intersection");
	r = &rp.runs[0].res[0];
	k = result_key(r, "late");
	ok(k && k->col.n == 1 && column_rec(&k->col, 0) == 2 && k->col.v[0] == 7,
	   "a key first seen in the third iteration: its value, from that iteration");
	n = result_values(r, "bound_ns", &v);
	ok(n == 2 && v[0] == 30 && v[1] == 60, "result_values: the iterations that have it");
	free(v);
	r = &rp.runs[1].res[0];
	for (int i = 0; i < 40; i++) {
		char key[8];

		snprintf(key, sizeof(key), "k%d", i);
		k = result_key(r, key);
		all &= k && k->col.n == 2 && k->col.v[1] == i;
	}
	ok(all && r->nrecs == 2 && !result_key(r, "k40"), "40 keys of two iterations, each found");
	sbuf_free(&wide);
	report_free(&rp);
}

static void test_intervals(void)
{
	static const char *const meet[] = {
		PAIR "\"iteration\":1,\"offset_ns\":-40,\"bound_ns\":30,\"offset_ticks\":5}",
		PAIR "\"iteration\":2,\"offset_ns\":-80,\"bound_ns\":90,\"offset_ticks\":7}",
		PAIR "\"iteration\":3,\"offset_ns\":0,\"bound_ns\":60,\"offset_ticks\":9}",
	};
	static const char *const apart[] = {
		PAIR "\"iteration\":1,\"offset_ns\":100,\"bound_ns\":10}",
		PAIR "\"iteration\":2,\"offset_ns\":-100,\"bound_ns\":10}",
	};
	struct report rp = { 0 };
	const struct figure *f, *b;
	char buf[64];

	add_run(&rp, "meet.log", meet, ARRAY_SIZE(meet));
	add_run(&rp, "apart.log", apart, ARRAY_SIZE(apart));
	report_finish(&rp, NULL, 0);
	f = find_fig(&rp, "p", "offset_ns");
	b = find_fig(&rp, "p", "bound_ns");
	/* [-70,-10] ∩ [-170,10] ∩ [-60,60] = [-60,-10] */
	ok(f && b && f->per_run[0].n == 3 && f->per_run[0].mean == -35 && b->per_run[0].mean == 25,
	   "offset ± bound of three iterations: the intersection's centre and half-width");
	ok(f && f->per_run[0].min == -80 && f->per_run[0].max == 0,
	   "min and max stay those of the iterations");
	fmt_agg(buf, sizeof(buf), &f->per_run[0]);
	is_str(buf, "-35 ∩3", "shown as the intersection of 3");
	is_str(agg_combine_name(&f->per_run[0]), "intersection", "named for programs");
	ok(!agg_has_spread(&b->per_run[0]), "an intersection has no spread to rank by");
	f = find_fig(&rp, "p", "offset_ticks");
	ok(f && f->per_run[0].combine == COMBINE_MEAN && f->per_run[0].mean == 7,
	   "offset_ticks without its bound_ticks: no interval, the mean");
	f = find_fig(&rp, "p", "offset_ns");
	ok(f && f->per_run[1].n == 2 && f->per_run[1].disjoint && isnan(f->per_run[1].mean),
	   "100 ± 10 and -100 ± 10 do not intersect: a contradiction, no value");
	fmt_agg(buf, sizeof(buf), &f->per_run[1]);
	is_str(buf, "disjoint x2", "shown as a contradiction");
	is_str(agg_combine_name(&f->per_run[1]), "disjoint", "named for programs");
	b = find_fig(&rp, "p", "bound_ns");
	ok(b && b->per_run[1].disjoint && lead_figure_score(&rp, b) == 0,
	   "lead: a contradiction has no ratio to rank");
	report_free(&rp);
}

/* Records of result c, one per value in vals ("100 101": two iterations), into json. */
static size_t iterations_of(const char *vals, char **json)
{
	const char *p = vals;
	size_t n = 0;

	while (*p && n < 4) {
		size_t len = strcspn(p, " ");

		json[n] = xasprintf("{\"type\":\"result\",\"probe\":\"clocks\",\"name\":\"c\","
				    "\"iteration\":%zu,\"ns_per_call\":%.*s}", n + 1, (int)len, p);
		n++;
		p += len;
		p += strspn(p, " ");
	}
	return n;
}

/* The lead's score of c's ns_per_call between run A (values a) and run B (values b). */
static double score_of(const char *a, const char *b)
{
	char *ja[4] = { 0 }, *jb[4] = { 0 };
	struct report rp = { 0 };
	const struct figure *f;
	double score;

	add_run(&rp, "a.log", (const char *const *)ja, iterations_of(a, ja));
	add_run(&rp, "b.log", (const char *const *)jb, iterations_of(b, jb));
	report_finish(&rp, NULL, 0);
	f = find_fig(&rp, "c", "ns_per_call");
	score = f ? lead_figure_score(&rp, f) : -1;
	report_free(&rp);
	for (size_t i = 0; i < 4; i++) {
		free(ja[i]);
		free(jb[i]);
	}
	return score;
}

/* The user's floors from text: noise_load_floors() of a file holding it. */
static int floors_from(const char *text)
{
	char path[] = "/tmp/tp-floors-XXXXXX";
	int fd = mkstemp(path), rc;

	if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text))
		return -2;
	close(fd);
	rc = noise_load_floors(path);
	unlink(path);
	return rc;
}

/*
 * The lead's score of c's ns_per_call, single runs a [alo, ahi] and b [blo, bhi] (95 %) of
 * env "unit", whose between-run sd for it is 0 (noise_load_floors()): their intervals decide.
 */
static double score_ci(double a, double alo, double ahi, double b, double blo, double bhi)
{
	static const char run[] = "{\"type\":\"run\",\"env\":\"unit\"}";
	static const char floors[] = "unit\tclocks\tc\tns_per_call\t0\t1\t0\t2\n";
	char *ja = xasprintf("{\"type\":\"result\",\"probe\":\"clocks\",\"name\":\"c\","
			     "\"ns_per_call\":%g,\"ns_per_call_ci95\":[%g,%g,100]}", a, alo, ahi);
	char *jb = xasprintf("{\"type\":\"result\",\"probe\":\"clocks\",\"name\":\"c\","
			     "\"ns_per_call\":%g,\"ns_per_call_ci95\":[%g,%g,100]}", b, blo, bhi);
	const char *ra[] = { run, ja }, *rb[] = { run, jb };
	struct report rp = { 0 };
	const struct figure *f;
	double score = -1;

	if (floors_from(floors))
		goto out;
	add_run(&rp, "a.log", ra, 2);
	add_run(&rp, "b.log", rb, 2);
	report_finish(&rp, NULL, 0);
	f = find_fig(&rp, "c", "ns_per_call");
	score = f ? lead_figure_score(&rp, f) : -1;
	report_free(&rp);
out:
	noise_free_floors();
	free(ja);
	free(jb);
	return score;
}

static void test_lead_noise(void)
{
	is_near(score_of("10", "10"), 0, 0, "lead: a figure equal to itself does not lead");
	is_near(score_of("10", "16"), 0, 0,
		"lead: single runs, no interval, no floor (no env): 1.6x cannot compare");
	is_near(score_ci(100, 98, 102, 110, 108, 112), log(1.1), 1e-12,
		"lead: 1.10x whose intervals (±2 %%) leave the ±5 %% band leads, by its ratio");
	is_near(score_ci(110, 108, 112, 100, 98, 102), log(1.1), 1e-12, "lead: ... either way");
	is_near(score_ci(100, 98, 102, 104, 102, 106), 0, 0,
		"lead: 1.04x, however sure, is within the practical band");
	is_near(score_ci(100, 50, 200, 150, 75, 300), 0, 0,
		"lead: 1.5x within intervals of a factor 2 either way does not lead");
	is_near(score_ci(100, 99, 101, 100, 99, 101), 0, 0,
		"lead: equal with intervals does not lead");
	is_near(score_of("100 100", "101 101"), 0, 0,
		"lead: iterations all equal on both sides: 1.01x is within the band");
	is_near(score_of("100 101", "110 111"), 0.5 * log(110.0 * 111 / (100.0 * 101)), 1e-12,
		"lead: both repeated, 1.10x at Welch's p far below 0.05 leads, by geometric means");
	is_near(score_of("100 130", "120 260"), 0, 0,
		"lead: both repeated, 1.65x whose spreads make Welch's p large does not lead");
	is_near(score_of("100", "110 111"), 0, 0,
		"lead: one side once, without an interval or a floor: cannot compare");
	is_near(student_p(2.776, 4), 0.05, 2e-4, "Welch: Student's t 2.776 at 4 df is p 0.05");
	is_near(student_p(1.96, 1e6), 0.05, 2e-4, "Welch: at many df t is the normal's 1.96");
}

/* noise_floor_of() of probe's key of result x between two runs of env, each with nres results. */
static double floor_in(const char *env, const char *probe, const char *key, int nres, int *measured)
{
	const char *rec[4];
	char *run = xasprintf("{\"type\":\"run\",\"env\":\"%s\"}", env);
	char *res[3];
	struct report rp = { 0 };
	const struct figure *f;
	double fl = -1;

	for (int i = 0; i < 3; i++)
		res[i] = xasprintf("{\"type\":\"result\",\"probe\":\"%s\",\"name\":\"%s\","
				   "\"%s\":2}", probe, i ? (i == 1 ? "y" : "w") : "x", key);
	rec[0] = run;
	for (int i = 0; i < 3; i++)
		rec[1 + i] = res[i];
	add_run(&rp, "a.log", rec, 1 + (size_t)nres);
	add_run(&rp, "b.log", rec, 1 + (size_t)nres);
	report_finish(&rp, NULL, 0);
	f = find_fig(&rp, "x", key);
	if (f)
		fl = noise_floor_of(&rp, f, 1, measured);
	report_free(&rp);
	free(run);
	for (int i = 0; i < 3; i++)
		free(res[i]);
	return fl;
}

/*
 * The between-run term as the lead applies it (noise.h): the figure's own
 * variance component, else its key's largest, else its probe's; shown as
 * the ratio two identical runs stay within, exp(1.96 sqrt(2) sd).
 */
static void test_noise_floors(void)
{
	int measured = -1;

	is_near(floor_in("nowhere", "clocks", "ns_per_call", 1, &measured), 1, 0,
		"floor: an env without identical runs gets none, 1");
	is_int(measured, 0, "floor: ... and says none was measured");
	ok(noise_builtin_runs() > 0 && noise_builtin()[0].env && noise_builtin()[0].df > 0,
	   "floor: the built-in table holds variances from %u runs, the first with %u df",
	   noise_builtin_runs(), noise_builtin()[0].df);
	is_int(floors_from("# mine\nos\tclocks\tx\tns_per_call\t0.1\t30\t0.01\t31\n"
			   "os\tclocks\tz\tns_per_call\t0.2\t10\t0\t11\n"
			   "os\tclocks\tz\tgranularity_ns\t0.05\t10\t0\t11\n"
			   "os\tclocks\tz\toverhead_ns\t0.5\t10\t0\t11\n"), 0, "floor: a file of four read");
	is_near(floor_in("os", "clocks", "ns_per_call", 1, &measured), exp(1.959964 * M_SQRT2 * 0.1),
		1e-6, "floor: one figure, sd 0.1: two runs within exp(1.96 sqrt(2) 0.1) = 1.3194x");
	is_int(measured, 1, "floor: ... and says it was measured");
	is_near(floor_in("os", "clocks", "ns_per_call", 2, NULL), exp(1.959964 * M_SQRT2 * 0.1), 1e-6,
		"floor: the term is the figure's own, whatever else is compared");
	is_near(floor_in("os", "clocks", "granularity_ns", 1, NULL), exp(1.959964 * M_SQRT2 * 0.05),
		1e-6, "floor: a result never measured takes its key's largest sd, 0.05");
	is_near(floor_in("os", "clocks", "resolution_ns", 1, NULL), exp(1.959964 * M_SQRT2 * 0.5), 1e-6,
		"floor: a key never measured takes its probe's largest sd, 0.5");
	noise_free_floors();
}

static void test_labels(void)
{
	static const char *const q35[] = {
		"{\"type\":\"run\",\"env\":\"appliance\",\"machine\":\"QEMU Standard PC (Q35 + ICH9, 2009)\"}",
	};
	static const char *const pc[] = {
		"{\"type\":\"run\",\"env\":\"appliance\",\"machine\":\"QEMU Standard PC (i440FX + PIIX, 1996)\"}",
	};
	static const char *const utf[] = {
		"{\"type\":\"run\",\"env\":\"os\",\"machine\":\"x\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\"}",
	};
	struct report rp = { 0 };
	json_t *js;

	add_run(&rp, "dir/q35.log", q35, 1);
	add_run(&rp, "pc.log", pc, 1);
	add_run(&rp, "dir/q35-again.log", q35, 1);
	add_run(&rp, "dir/q35-again.log", q35, 1);
	add_run(&rp, "utf.log", utf, 1);
	report_finish(&rp, NULL, 0);
	is_str(rp.runs[0].label, "appliance/QEMU Standard PC (Q35 + ICH9) q35.log",
	       "label: the chipset tells q35 from pc, then the file tells two q35 apart");
	is_str(rp.runs[1].label, "appliance/QEMU Standard PC (i440FX + PIIX)",
	       "label: the pc's chipset");
	is_str(rp.runs[2].label, "appliance/QEMU Standard PC (Q35 + ICH9) q35-again.log#1",
	       "label: two runs of one file are numbered");
	is_str(rp.runs[3].label, "appliance/QEMU Standard PC (Q35 + ICH9) q35-again.log#2",
	       "label: ... both");
	js = json_string(rp.runs[4].label);	/* NULL for a string that is not UTF-8 */
	ok(js && strlen(rp.runs[4].label) == 3 + 23,
	   "label: a long machine name cut at a character boundary (%s)", rp.runs[4].label);
	json_decref(js);
	report_free(&rp);
}

/* Runs that --label gives one label pool into a side; each run's mean is one sample. */
static void test_sides(void)
{
	static const double v[6] = { 10, 11, 12, 30, 31, 33 };
	char *labels[6] = { "A", "A", "A", "B", "B", "B" }, *unique[6] = { "a", "b", "c", "d", "e", "f" };
	struct report rp = { 0 }, sides;
	char rec[160];

	for (int i = 0; i < 6; i++) {
		const char *recs[2] = { "{\"type\":\"run\",\"env\":\"os\"}", rec };

		snprintf(rec, sizeof(rec), "{\"type\":\"result\",\"probe\":\"clocks\",\"name\":\"c\","
			 "\"ns_per_call\":%g}", v[i]);
		add_run(&rp, "x.log", recs, 2);
	}
	report_finish(&rp, labels, 6);
	ok(rp.runs[0].side && !strcmp(rp.runs[0].side, "A") && strcmp(rp.runs[0].label, "A"),
	   "sides: the given label kept as the side, the run's own label made unique (%s)",
	   rp.runs[0].label);
	ok(sides_build(&rp, &sides) == 1 && sides.nruns == 2, "sides: six runs, two labels, two sides");
	is_str(sides.runs[1].label, "B", "sides: a side is named by its label");
	is_int(sides.runs[0].members, 3, "sides: three runs a side");
	ok(sides.nfigs == 1 && sides.figs[0].per_run[0].n == 3 && sides.figs[0].per_run[1].n == 3,
	   "sides: the figure has one sample per run");
	is_near(sides.figs[0].per_run[0].mean, 11, 1e-12, "sides: A's mean over its runs' means");
	ok(sides.figs[0].per_run[1].min == 30 && sides.figs[0].per_run[1].max == 33,
	   "sides: B's runs span 30..33");
	sides_free(&sides);
	report_free(&rp);

	for (int i = 0; i < 6; i++) {
		const char *recs[1] = { "{\"type\":\"run\",\"env\":\"os\"}" };

		add_run(&rp, "x.log", recs, 1);
	}
	report_finish(&rp, unique, 6);
	ok(!sides_build(&rp, &sides), "sides: every label names one run: no sides");
	report_free(&rp);

}

static void test_fmt_num(void)
{
	static const struct {
		double v;
		const char *want;
	} cases[] = {
		{ 21.5, "21.5" }, { 100.04, "100.04" }, { 10004.2, "10004.2" },
		{ 2995000926, "2995000926" }, { 0.00123456, "0.0012346" }, { -3, "-3" },
		{ 17.8333333, "17.833" }, { -0.0000001, "-1e-07" }, { NAN, "-" },
	};
	char buf[64], name[96];

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		fmt_num(buf, sizeof(buf), cases[i].v);
		snprintf(name, sizeof(name), "fmt_num %s", cases[i].want);
		is_str(buf, cases[i].want, name);
	}
	fmt_ratio(buf, sizeof(buf), 1, 0);
	is_str(buf, "-", "ratio against zero is not a number");
}

/* Groups by equal strings keep the order of first appearance, members in index order. */
static void test_group_strings(void)
{
	const char *s[] = { "b", "a", "b", "c", "a", "b" };
	const size_t want_idx[] = { 0, 2, 5, 1, 4, 3 }, want_start[] = { 0, 3, 5, 6 };
	struct groups g;
	int idx_ok = 1, start_ok = 1;

	group_strings(s, ARRAY_SIZE(s), &g);
	is_int(g.n, 3, "group_strings: three groups");
	for (size_t i = 0; i < ARRAY_SIZE(want_idx); i++)
		idx_ok &= g.idx[i] == want_idx[i];
	for (size_t i = 0; i < ARRAY_SIZE(want_start) && g.n == 3; i++)
		start_ok &= g.start[i] == want_start[i];
	ok(idx_ok, "group_strings: b b b, then a a, then c, each in index order");
	ok(start_ok && g.n == 3, "group_strings: where each group begins");
	groups_free(&g);
	group_strings(s, 0, &g);
	is_int(g.n, 0, "group_strings: no strings, no groups");
	groups_free(&g);
}

int main(void)
{
	test_group_strings();
	test_split_runs();
	test_keys();
	test_schema_identity();
	test_compare();
	test_lead();
	test_intervals();
	test_result_keeps();
	test_lead_noise();
	test_noise_floors();
	test_labels();
	test_sides();
	test_fmt_num();
	return tap_done();
}
