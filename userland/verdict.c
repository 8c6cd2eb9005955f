// SPDX-License-Identifier: MIT
/* The verdict of a run from its own records; see verdict.h and docs/verdict.md. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "emit.h"
#include "recread.h"
#include "sink.h"
#include "timeutil.h"
#include "verdict.h"

/*
 * Every key the verdict reads, named once; a probe's key table declares
 * each of its keys (tests/unit/test_verdict.c). probe NULL: the run's or
 * the fingerprint's record.
 */
enum {
	K_INVARIANT, K_STUB_KERNEL, K_BY_CONSTRUCTION, K_OFFSET, K_BOUND, K_FREQ,
	K_INDEPENDENT, K_REFERENCE, K_NS_PER_CALL, K_CLOCK_ID, K_PATH, K_CLOCKSOURCE,
	K_WHY, K_MECHANISM, K_MAX, K_P999, K_N, K_STOLEN, K_GAP, K_TIMER, K_WALL_ACC, K_VENDOR,
	K_ACCEL, K_COUNT
};

const struct verdict_key verdict_keys[] = {
	[K_INVARIANT] = { 0, "invariant_tsc" },
	[K_STUB_KERNEL] = { "tsc", "stub_vs_kernel_ppm" },
	[K_BY_CONSTRUCTION] = { "tsc", "by_construction" },
	[K_OFFSET] = { "tscsync", "max_abs_offset_ns" },
	[K_BOUND] = { "tscsync", "max_bound_ns" },
	[K_FREQ] = { "drift", "freq_ppm" },
	[K_INDEPENDENT] = { "drift", "independent" },
	[K_REFERENCE] = { "drift", "reference" },
	[K_WHY] = { "drift", "why" },
	[K_NS_PER_CALL] = { "clocks", "ns_per_call" },
	[K_CLOCK_ID] = { "clocks", "clock_id" },
	[K_PATH] = { "clocks", "path" },
	[K_CLOCKSOURCE] = { "clocks", "clocksource" },
	[K_MECHANISM] = { "wakeup", "mechanism" },
	[K_MAX] = { "wakeup", "max_ns" },
	[K_P999] = { "wakeup", "p999_ns" },
	[K_N] = { "wakeup", "n" },
	[K_STOLEN] = { "noise", "stolen_pct" },
	[K_GAP] = { "noise", "max_gap_ns" },
	[K_TIMER] = { "itimer", "timer" },
	[K_WALL_ACC] = { "itimer", "wall_accuracy_pct" },
	[K_VENDOR] = { 0, "hypervisor_vendor" },
	[K_ACCEL] = { 0, "accel" },
};

const size_t verdict_key_count = K_COUNT;

#define KEY(k) (verdict_keys[k].key)

/* What is read from where: CLOCK_MONOTONIC (clock_id 1) as a program reads it
 * (libc's clock_gettime: path vdso when the vDSO serves it, else libc),
 * cyclictest's way of sleeping, the wall-clock interval timer. */
#define CLOCK_MONOTONIC_ID 1
#define CLOCK_PATH_VDSO "vdso"
#define CLOCK_PATH_LIBC "libc"
#define WAKEUP_MECHANISM "clock_nanosleep TIMER_ABSTIME"
#define ITIMER_TIMER "ITIMER_REAL"

/* Each item's probe (NULL: the fingerprint record), in verdict_limits' ids. */
static const struct { const char *id, *probe; } item_probe[] = {
	{ "tsc_invariant", 0 }, { "tsc_stub_vs_kernel_ppm", "tsc" }, { "tsc_offset_ns", "tscsync" },
	{ "tsc_drift_ppm", "drift" }, { "clock_read_ns", "clocks" }, { "wakeup_max_ns", "wakeup" },
	{ "noise_stolen_pct", "noise" }, { "noise_max_gap_ns", "noise" },
	{ "itimer_error_pct", "itimer" },
};

static struct verdict_item *item(struct verdict *v, const char *id)
{
	for (size_t i = 0; i < v->n; i++)
		if (!strcmp(v->item[i].lim->id, id))
			return &v->item[i];
	return NULL;
}

/* Sets the figure (when larger, with larger) and where it came from. */
static void put(struct verdict_item *it, double val, int larger, const char *fmt, const char *a,
		const char *b)
{
	if (!it || !isfinite(val) || (larger && it->measured && !(fabs(val) > fabs(it->value))))
		return;
	it->measured = 1;
	it->value = val;
	snprintf(it->from, sizeof(it->from), fmt, a, b ? b : "");
}

static void from_fingerprint(struct verdict *v, const struct rec_view *r)
{
	int inv;
	char vendor[64];

	if (recread_bool(r, KEY(K_INVARIANT), &inv))
		put(item(v, "tsc_invariant"), inv, 0, "the fingerprint's CPUID%s%s", "", 0);
	if (recread_str(r, KEY(K_VENDOR), vendor, sizeof(vendor)) && vendor[0] && !v->emulated[0]) {
		snprintf(v->emulated, sizeof(v->emulated), "%s",
			 strcmp(vendor, "TCGTCGTCGTCG") ? "hypervisor" : "tcg");
		snprintf(v->emulated_by, sizeof(v->emulated_by), "%s", vendor);
	}
}

static void from_run(struct verdict *v, const struct rec_view *r)
{
	char accel[48];

	if (recread_str(r, KEY(K_ACCEL), accel, sizeof(accel)) && !strncmp(accel, "tcg", 3)) {
		snprintf(v->emulated, sizeof(v->emulated), "tcg");
		snprintf(v->emulated_by, sizeof(v->emulated_by), "QEMU %s", accel);
	}
}

static void from_tsc(struct verdict *v, const struct rec_view *r, const char *name)
{
	struct verdict_item *it = item(v, "tsc_stub_vs_kernel_ppm");
	size_t n;
	const char *bc = recread_raw(r, KEY(K_BY_CONSTRUCTION), &n);
	double ppm;

	if (!recread_num(r, KEY(K_STUB_KERNEL), &ppm))
		return;
	put(it, ppm, 0, "tsc: %s%s", name, 0);
	if (it->measured)	/* one origin: the pair is in by_construction */
		it->independent = !(bc && memmem(bc, n, KEY(K_STUB_KERNEL),
						  strlen(KEY(K_STUB_KERNEL))));
}

static void from_tscsync(struct verdict *v, const struct rec_view *r, const char *name)
{
	double off, bound;

	if (recread_num(r, KEY(K_OFFSET), &off) && recread_num(r, KEY(K_BOUND), &bound))
		put(item(v, "tsc_offset_ns"), fabs(off) + bound, 0,
		    "tscsync: %s (|offset| + bound)", name, 0);
}

/* The rate against a reference; an independent one wins over a circular one. */
static void from_drift(struct verdict *v, const struct rec_view *r, const char *name)
{
	struct verdict_item *it = item(v, "tsc_drift_ppm");
	double ppm;
	int indep = -1;
	char ref[64] = "";

	if (!recread_num(r, KEY(K_FREQ), &ppm) || (it->measured && it->independent == 1))
		return;
	recread_bool(r, KEY(K_INDEPENDENT), &indep);
	recread_str(r, KEY(K_REFERENCE), ref, sizeof(ref));
	if (it->measured && indep != 1)
		return;
	put(it, ppm, 0, "drift: %s%s", name, 0);
	it->independent = indep;
	if (indep != 1)
		recread_str(r, KEY(K_WHY), it->why, sizeof(it->why));
}

static void from_clocks(struct verdict *v, const struct rec_view *r, const char *name)
{
	struct verdict_item *it = item(v, "clock_read_ns");
	double id, ns;
	char cs[64] = "";

	int vdso = recread_is(r, KEY(K_PATH), CLOCK_PATH_VDSO);

	if (it->measured || !recread_num(r, KEY(K_CLOCK_ID), &id) || id != CLOCK_MONOTONIC_ID ||
	    !(vdso || recread_is(r, KEY(K_PATH), CLOCK_PATH_LIBC)) ||
	    !recread_num(r, KEY(K_NS_PER_CALL), &ns))
		return;
	recread_str(r, KEY(K_CLOCKSOURCE), cs, sizeof(cs));
	put(it, ns, 0, vdso ? "clocks: %s through the vDSO, clocksource %s"
			    : "clocks: %s through libc (a system call), clocksource %s", name, cs);
}

static void from_wakeup(struct verdict *v, const struct rec_view *r, const char *name)
{
	struct verdict_item *it = item(v, "wakeup_max_ns");
	double max, before = it->measured ? it->value : -1;

	if (!recread_is(r, KEY(K_MECHANISM), WAKEUP_MECHANISM) || !recread_num(r, KEY(K_MAX), &max))
		return;
	put(it, max, 1, "wakeup: %s%s", name, 0);
	if (it->value == before)
		return;
	if (!recread_num(r, KEY(K_P999), &it->p999_ns))
		it->p999_ns = NAN;
	if (!recread_num(r, KEY(K_N), &it->n))
		it->n = NAN;
}

static void from_noise(struct verdict *v, const struct rec_view *r, const char *name)
{
	double x;

	if (recread_num(r, KEY(K_STOLEN), &x))
		put(item(v, "noise_stolen_pct"), x, 1, "noise: %s%s", name, 0);
	if (recread_num(r, KEY(K_GAP), &x))
		put(item(v, "noise_max_gap_ns"), x, 1, "noise: %s%s", name, 0);
}

/* The error of the interval: wall time per signal against the interval claimed, in %. */
static void from_itimer(struct verdict *v, const struct rec_view *r, const char *name)
{
	double acc;

	if (recread_is(r, KEY(K_TIMER), ITIMER_TIMER) && recread_num(r, KEY(K_WALL_ACC), &acc))
		put(item(v, "itimer_error_pct"), acc - 100, 1, "itimer: %s%s", name, 0);
}

static const struct {
	const char *probe;
	void (*fn)(struct verdict *v, const struct rec_view *r, const char *name);
} readers[] = {
	{ "tsc", from_tsc }, { "tscsync", from_tscsync }, { "drift", from_drift },
	{ "clocks", from_clocks }, { "wakeup", from_wakeup }, { "noise", from_noise },
	{ "itimer", from_itimer },
};

static const char *probe_of(const char *id)
{
	for (size_t i = 0; i < sizeof(item_probe) / sizeof(item_probe[0]); i++)
		if (!strcmp(item_probe[i].id, id))
			return item_probe[i].probe;
	return NULL;
}

/* The first skip reason of each item's probe, for "not measured" (in v's order). */
struct skips {
	char reason[VERDICT_ITEMS][VERDICT_TEXT];
};

static void note_skip(struct skips *s, const struct verdict *v, const struct rec_view *r,
		      const char *probe)
{
	for (size_t i = 0; i < v->n; i++) {
		const char *p = probe_of(v->item[i].lim->id);

		if (p && !strcmp(p, probe) && !s->reason[i][0])
			recread_str(r, "reason", s->reason[i], sizeof(s->reason[i]));
	}
}

static void read_one(struct verdict *v, struct skips *s, const struct rec_view *r)
{
	char type[32], probe[32], name[96] = "";

	if (!recread_str(r, "type", type, sizeof(type)))
		return;
	if (!strcmp(type, "run"))
		from_run(v, r);
	else if (!strcmp(type, "fingerprint"))
		from_fingerprint(v, r);
	if (!recread_str(r, "probe", probe, sizeof(probe)))
		return;
	if (!strcmp(type, "skip"))
		note_skip(s, v, r, probe);
	if (strcmp(type, "result"))
		return;
	recread_str(r, "name", name, sizeof(name));
	for (size_t i = 0; i < sizeof(readers) / sizeof(readers[0]); i++)
		if (!strcmp(readers[i].probe, probe))
			readers[i].fn(v, r, name);
}

/* The outcome of probe over the run's iterations: ok if one was; -1 when it did not run. */
static int outcome_of(const char *probe, const struct summary_row *rows, size_t n)
{
	int out = -1;

	for (size_t i = 0; i < n; i++)
		if (!strcmp(rows[i].name, probe) && (out < 0 || rows[i].out == OUTCOME_OK))
			out = (int)rows[i].out;
	return out;
}

/* Why item i has no figure, from its probe's outcome and skip records. */
static void why_not(struct verdict_item *it, const char *probe, const char *skip,
		    const struct summary_row *rows, size_t n)
{
	int out = probe ? outcome_of(probe, rows, n) : OUTCOME_OK;

	if (it->why[0])
		return;
	if (!probe)
		snprintf(it->why, sizeof(it->why), "%s", TP_HAVE_TSC ? "the fingerprint did not say" :
			 "x86's CPUID bit: arm64's generic timer has none, the architecture "
			 "requires its system counter to run at a constant rate");
	else if (out < 0)
		snprintf(it->why, sizeof(it->why), "probe %s not run (not selected)", probe);
	else if (out == OUTCOME_SKIPPED || (out == OUTCOME_OK && skip[0]))
		snprintf(it->why, sizeof(it->why), "probe %s skipped it: %s", probe,
			 skip[0] ? skip : "see its skip record");
	else if (out == OUTCOME_OK)
		snprintf(it->why, sizeof(it->why), "probe %s gave no such figure", probe);
	else
		snprintf(it->why, sizeof(it->why), "probe %s ended: %s", probe,
			 supervise_outcome_name((enum outcome)out));
}

/* Words for the figures: a ppm against a reference that is not independent cannot be judged. */
static void judge(struct verdict *v, const struct skips *s, const struct summary_row *rows,
		  size_t nrows)
{
	for (size_t i = 0; i < v->n; i++) {
		struct verdict_item *it = &v->item[i];
		const char *probe = probe_of(it->lim->id);

		if (!it->measured) {
			it->word = VW_NOT_MEASURED;
			why_not(it, probe, s->reason[i], rows, nrows);
			continue;
		}
		it->word = verdict_word_of(it->lim, it->value);
		if (it->independent == 0) {
			it->word = VW_UNKNOWN;
			if (!it->why[0])
				snprintf(it->why, sizeof(it->why),
					 "the two figures share an origin");
		}
	}
}

void verdict_gather(struct verdict *v, const char *recs, size_t len,
		    const struct summary_row *rows, size_t nrows)
{
	static struct skips s;
	const char *pos = recs;
	struct rec_view r;

	memset(v, 0, sizeof(*v));
	memset(&s, 0, sizeof(s));
	v->n = verdict_limit_count < VERDICT_ITEMS ? verdict_limit_count : VERDICT_ITEMS;
	for (size_t i = 0; i < v->n; i++)
		v->item[i] = (struct verdict_item){
			.lim = &verdict_limits[i], .value = NAN, .p999_ns = NAN, .n = NAN,
			.independent = -1,
		};
	while (recread_next(&pos, recs + len, &r))
		read_one(v, &s, &r);
	judge(v, &s, rows, nrows);
}

void verdict_record(struct tp_rec *r, const struct verdict *v)
{
	emit_begin(r, "verdict");
	if (v->emulated[0]) {
		tp_rec_str(r, "emulated", v->emulated);
		tp_rec_str(r, "emulated_by", v->emulated_by);
	} else {
		tp_rec_null(r, "emulated");
	}
	tp_rec_obj_begin(r, "items");
	for (size_t i = 0; i < v->n; i++) {
		const struct verdict_item *it = &v->item[i];

		tp_rec_obj_begin(r, it->lim->id);
		tp_rec_str(r, "word", verdict_word_name(it->word));
		emit_rec_double(r, "value", it->value);
		if (it->lim->unit)
			tp_rec_str(r, "unit", it->lim->unit);
		if (it->from[0])
			tp_rec_str(r, "from", it->from);
		if (it->why[0])
			tp_rec_str(r, "why", it->why);
		if (it->independent >= 0)
			tp_rec_bool(r, "independent", it->independent);
		if (isfinite(it->n)) {
			emit_rec_double(r, "p999_ns", it->p999_ns);
			emit_rec_double(r, "n", it->n);
		}
		tp_rec_obj_end(r);
	}
	tp_rec_obj_end(r);
}

/* A figure for people: ns scaled to us or ms, a yes/no (no unit) as yes or no. */
static void show(char *buf, size_t n, double v, const char *u)
{
	if (!isfinite(v))
		snprintf(buf, n, "-");
	else if (!u)
		snprintf(buf, n, "%s", v != 0 ? "yes" : "no");
	else if (!strcmp(u, "ns") && fabs(v) >= 1e6)
		snprintf(buf, n, fabs(v) >= 1e9 ? "%.0f ms" : "%.3g ms", v / 1e6);
	else if (!strcmp(u, "ns") && fabs(v) >= 1e3)
		snprintf(buf, n, "%.3g us", v / 1e3);
	else
		snprintf(buf, n, fabs(v) >= 1e3 ? "%.0f %s" : "%.3g %s", v, u);
}

static void print_block(const struct verdict *v)
{
	sink_human("\n== verdict ==\n");
	if (!strcmp(v->emulated, "tcg"))
		sink_human("Under an emulator (%s): these are the emulator's figures, "
			   "not a machine's.\n", v->emulated_by);
	else if (v->emulated[0])
		sink_human("Under a hypervisor (%s): these are the virtual machine's figures.\n",
			   v->emulated_by);
	for (size_t i = 0; i < v->n; i++) {
		const struct verdict_item *it = &v->item[i];
		char val[32], p999[32], extra[64] = "";

		show(val, sizeof(val), it->value, it->lim->unit);
		show(p999, sizeof(p999), it->p999_ns, "ns");
		if (isfinite(it->n))
			snprintf(extra, sizeof(extra), " (p99.9 %s, n %.0f)", p999, it->n);
		sink_human("  %-52s %14s  %-12s %s%s\n", it->lim->what, val,
			   verdict_word_name(it->word), it->why[0] ? it->why : it->from, extra);
	}
	sink_human("(thresholds and their sources: docs/verdict.md)\n");
}

void verdict_emit(const struct summary_row *rows, size_t nrows)
{
	static struct verdict v;
	struct tp_rec r;
	size_t len;
	const char *recs = sink_saved(&len);

	verdict_gather(&v, recs, len, rows, nrows);
	print_block(&v);
	verdict_record(&r, &v);
	sink_emit(&r);
}
