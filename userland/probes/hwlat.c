// SPDX-License-Identifier: MIT
/*
 * Probe `hwlat`: hardware latency, time no OS code ran, per CPU, by two
 * independent methods side by side in the same units (docs/probes/hwlat.md):
 * the stub's pre-OS scan (every CPU at once, interrupts off, before the OS;
 * every CPU's `stub_hwlat` record of its file, userland/stubcpus.c) and the kernel's
 * hwlat tracer (one CPU at a time, interrupts off, under Linux; through
 * tracefs, hwlat_trace.c). Either part that cannot run is a skip record
 * with the reason; the other still reports.
 */
#include <stdio.h>
#include <string.h>

#include "../emit.h"
#include "../options.h"
#include "../probe.h"
#include "../readiness.h"
#include "../stubcpus.h"
#include "../hwid.h"
#include "../sysinfo.h"
#include "../timeutil.h"
#include "hwlat_impl.h"

#define PROBE "hwlat"

static int opt_ms;		/* hwlat-tracer-ms: the tracer's time per CPU; 0: the profile's */
static int opt_thresh_us;	/* hwlat-tracer-min-us */

struct cpu_row {
	int cpu;
	int64_t apic;
	const struct tp_sc_cpu *pre;	/* NULL: no stub_hwlat record for it */
	struct hwlat_trace_cpu tr;
	int traced;
};

/* The stub's scan, every CPU of its file: 0, or -1 with why. */
static int preos_load(const struct stub_handoff *st, struct tp_sc_scan *w, char *why, size_t len)
{
	if (!st->cpus) {
		snprintf(why, len, "no pre-OS scan: no stub file (stub.tp1), not booted by the timeprobe stub");
		return -1;
	}
	if (!st->cpus->scan.have_summary) {
		snprintf(why, len, "no pre-OS scan: the stub's file holds no scan "
			 "(timeprobe.hwlat_ms=0 or no calibration: see its stub_hwlat summary)");
		return -1;
	}
	*w = st->cpus->scan;
	return 0;
}

static void rec_pre(struct tp_rec *r, const struct tp_sc_scan *w,
		    const struct tp_sc_cpu *p)
{
	tp_rec_bool(r, "preos_reported", p->reported);
	if (!p->reported)
		return;
	tp_rec_uint(r, "preos_gaps_n", p->count);
	tp_rec_uint(r, "preos_max_ns", p->max_ns);
	tp_rec_uint(r, "preos_total_ns", p->total_ns);
	tp_rec_fixed(r, "preos_coverage_pct", p->coverage_ppm, 4);
	tp_rec_uint(r, "preos_window_ms", w->window_ms);
	if (p->smi_read)
		tp_rec_uint(r, "preos_smi_n", p->smi);
	else
		tp_rec_null(r, "preos_smi_n");
}

static void rec_tracer(struct tp_rec *r, const struct hwlat_trace_cpu *t)
{
	tp_rec_uint(r, "tracer_samples_n", t->samples_n);
	tp_rec_uint(r, "tracer_gaps_n", t->gaps_n);
	tp_rec_uint(r, "tracer_max_ns", t->max_ns);
	tp_rec_uint(r, "tracer_nmi_n", t->nmi_n);
	tp_rec_fixed(r, "tracer_coverage_pct", HWLAT_TRACE_WIDTH_US * 100LL / HWLAT_TRACE_WINDOW_US, 0);
	tp_rec_int(r, "tracer_ran_ms", t->ran_ms);
}

static void say_row(const struct cpu_row *c)
{
	char pre[64] = "-", tr[48] = "-";

	if (c->pre && c->pre->reported)
		snprintf(pre, sizeof(pre), "%8llu %10llu %7.2f",
			 (unsigned long long)c->pre->count, (unsigned long long)c->pre->max_ns,
			 c->pre->coverage_ppm / 1e4);
	else if (c->pre)
		snprintf(pre, sizeof(pre), "did not report");
	if (c->traced)
		snprintf(tr, sizeof(tr), "%8llu %10llu", (unsigned long long)c->tr.gaps_n,
			 (unsigned long long)c->tr.max_ns);
	emit_human("  %4d %5lld  %-28s | %s\n", c->cpu, (long long)c->apic, pre, tr);
}

static void emit_row(const struct tp_sc_scan *w, const struct cpu_row *c, int thresh_us)
{
	char name[32];
	struct tp_rec r;

	snprintf(name, sizeof(name), "cpu%d", c->cpu);
	emit_result_begin(&r, PROBE, name);
	tp_rec_int(&r, "cpu", c->cpu);
	tp_rec_int(&r, HWID_KEY, c->apic);
	tp_rec_uint(&r, "thresh_us", (uint64_t)thresh_us);
	if (c->pre)
		rec_pre(&r, w, c->pre);
	if (c->traced)
		rec_tracer(&r, &c->tr);
	emit_end(&r);
	say_row(c);
}

static void emit_summary(const struct tp_sc_scan *w, int have_pre, uint64_t tracer_max,
			 int traced)
{
	struct tp_rec r;
	uint64_t pre_max = 0;

	emit_result_begin(&r, PROBE, "summary");
	if (have_pre) {
		for (size_t i = 0; i < w->n; i++)
			if (w->cpu[i].max_ns > pre_max)
				pre_max = w->cpu[i].max_ns;
		tp_rec_uint(&r, "preos_max_ns", pre_max);
		tp_rec_uint(&r, "preos_system_wide_n", w->system_wide);
		tp_rec_uint(&r, "preos_system_wide_max_ns", w->system_wide_max_ns);
		tp_rec_uint(&r, "preos_cpus", w->n);
		tp_rec_uint(&r, "preos_window_ms", w->window_ms);
		tp_rec_uint(&r, "preos_thresh_us", w->thresh_us);
	}
	if (traced)
		tp_rec_uint(&r, "tracer_max_ns", tracer_max);
	emit_end(&r);
	if (have_pre)
		emit_human("\n  pre-OS: %u gap(s) on every CPU at once (system-wide), the longest %llu ns\n",
			   w->system_wide, (unsigned long long)w->system_wide_max_ns);
}

/* The tracer on each CPU in turn, while the deadline allows. */
static void trace_all(struct probe_ctx *ctx, struct cpu_row *rows, int n, int thresh_us,
		      uint64_t *max, int *traced)
{
	int ms = opt_ms ? opt_ms : ctx->quick ? 2000 : 10000;
	char why[256];

	if (hwlat_trace_open(ctx->appliance, why, sizeof(why))) {
		emit_skip(PROBE, "tracer", why);
		return;
	}
	for (int i = 0; i < n; i++) {
		if (mono_ns() + (int64_t)(ms + 2000) * 1000000 > ctx->deadline_ns) {
			emit_skip(PROBE, "tracer", "the probe's time limit: the CPUs after this one "
				  "were not traced");
			break;
		}
		if (hwlat_trace_cpu(rows[i].cpu, ms, thresh_us, &rows[i].tr, why, sizeof(why))) {
			emit_skip(PROBE, "tracer", why);
			break;
		}
		rows[i].traced = 1;
		*traced = 1;
		if (rows[i].tr.max_ns > *max)
			*max = rows[i].tr.max_ns;
	}
	hwlat_trace_close();
}

static enum probe_status run(struct probe_ctx *ctx)
{
	static struct tp_sc_scan w;
	static struct cpu_names names;
	static struct cpu_row rows[CPU_MAP_MAX];
	char why[320];
	int have_pre, n = 0, traced = 0, thresh_us;
	uint64_t tracer_max = 0;

	have_pre = !preos_load(ctx->stub, &w, why, sizeof(why));
	if (!have_pre)
		emit_skip(PROBE, "pre-os", why);
	thresh_us = opt_thresh_us ? opt_thresh_us : have_pre ? (int)w.thresh_us : 1;
	hwid_names_read(&names);
	for (int i = 0; i < names.cpuinfo.n; i++) {
		int cpu = names.cpuinfo.c[i].cpu;

		rows[n] = (struct cpu_row){ .cpu = cpu, .apic = hwid_of_cpu(&names, cpu) };
		for (size_t k = 0; have_pre && rows[n].apic >= 0 && k < w.n; k++)
			if ((int64_t)w.cpu[k].apic == rows[n].apic)
				rows[n].pre = &w.cpu[k];
		n++;
	}
	trace_all(ctx, rows, n, thresh_us, &tracer_max, &traced);
	if (!have_pre && !traced)
		return PROBE_SKIPPED;
	emit_human("  %4s %5s  %-28s | %s\n", "CPU", HWID_NAME, "pre-OS: gaps    max ns  cov %",
		   "tracer: gaps    max ns");
	for (int i = 0; i < n; i++)
		emit_row(&w, &rows[i], thresh_us);
	emit_summary(&w, have_pre, tracer_max, traced);
	return PROBE_OK;
}

/*
 * The run's estimate (probe.h): the tracer's time on every CPU where the
 * kernel has tracefs (its mount point exists then), else reading the
 * stub's word.
 */
static int64_t expect_ms(const struct probe_ctx *ctx)
{
	int ms = opt_ms ? opt_ms : ctx->quick ? 2000 : 10000;
	char tracers[512];

	/* the tracer runs where tracefs lists it; the appliance mounts tracefs
	 * only when the probe starts, and its kernel variant `hwlat` has it */
	if (sysinfo_read_text("/sys/kernel/tracing/available_tracers", tracers, sizeof(tracers)) > 0
		    ? !sysinfo_word_in_list(tracers, "hwlat")
		    : !ctx->appliance || strcmp(ctx->opt->variant, "hwlat"))
		return probe_expect(ctx, 10, 100);
	return (int64_t)ms * ctx->ncpu + probe_expect(ctx, 100, 1000);
}

static const struct probe_opt hwlat_opts[] = {
	{ .w = {
		.name = "hwlat-tracer-ms", .type = TP_WT_INT, .by = TP_BY_USER, .reader = TP_FOR_SUITE,
		.lo = 0, .hi = 600000, .def = 0, .dflt = "0 (2000 quick, 10000 full)",
		.bounds = "0..600000 ms",
		.help = "`hwlat`: the kernel tracer's time on each CPU",
	  }, .store = &opt_ms },
	{ .w = {
		.name = "hwlat-tracer-min-us", .type = TP_WT_INT, .by = TP_BY_USER, .reader = TP_FOR_SUITE,
		.lo = 0, .hi = 1000, .def = 0, .dflt = "0 (the stub's, 1 without)",
		.bounds = "0..1000 us",
		.help = "`hwlat`: the kernel tracer's threshold (tracing_thresh)",
	  }, .store = &opt_thresh_us },
};

static const struct probe_key hwlat_keys[] = {
	PKEY_ID("cpu", 0, "the Linux CPU"),
	PKEY_CTX(HWID_KEY, 0, HWID_WHAT ": the stub's name for the CPU"),
	PKEY_ID("thresh_us", "us", "the tracer's threshold (the stub's own is preos_thresh_us)"),
	PKEY_CTX("preos_reported", 0, "the CPU's scan procedure returned within the time-out"),
	PKEY_FIG("preos_gaps_n", "count", PK_LOWER, "pre-OS: gaps above the threshold"),
	PKEY_FIG("preos_max_ns", "ns", PK_LOWER, "pre-OS: the longest gap"),
	PKEY_FIG("preos_total_ns", "ns", PK_LOWER, "pre-OS: the gaps' sum"),
	PKEY_FIG("preos_coverage_pct", "%", PK_HIGHER, "pre-OS: the part of the window read"),
	PKEY_BUDGET("preos_window_ms", "ms", "pre-OS: the scan's window"),
	PKEY_FIG("preos_smi_n", "count", PK_LOWER, "pre-OS: SMIs across the window (IA32_SMI_COUNT)"),
	PKEY_FIG("preos_system_wide_n", "count", PK_LOWER, "pre-OS: gaps every CPU saw at once"),
	PKEY_FIG("preos_system_wide_max_ns", "ns", PK_LOWER, "pre-OS: the longest of those"),
	PKEY_CTX("preos_cpus", "count", "pre-OS: CPUs in the stub's stub_hwlat records"),
	PKEY_CTX("preos_thresh_us", "us", "pre-OS: the scan's threshold"),
	PKEY_FIG("tracer_samples_n", "count", PK_LOWER, "tracer: sample windows with a gap"),
	PKEY_FIG("tracer_gaps_n", "count", PK_LOWER, "tracer: gaps above the threshold"),
	PKEY_FIG("tracer_max_ns", "ns", PK_LOWER, "tracer: the longest inner or outer gap"),
	PKEY_FIG("tracer_nmi_n", "count", PK_LOWER, "tracer: NMIs during its samples"),
	PKEY_CTX("tracer_coverage_pct", "%", "tracer: width over window"),
	PKEY_BUDGET("tracer_ran_ms", "ms", "tracer: time on the CPU"),
};

/*
 * The tsc_readiness record's reason on hidden time (docs/readiness.md):
 * the stub's pre-OS scan reads a reference beside the TSC at its chunks'
 * edges, and a chunk where the TSC advanced less is time hidden from it.
 */
static const struct probe_reason hwlat_reasons[] = {
	{ .rule = { "hidden_gaps", "pre-OS gaps the TSC did not count", "count", 0, RD_CHECKED,
		    "SMM that stops or rewinds the TSC hides time from it", 0 },
	  .place = 9, .from = "stub_hwlat: pre-OS scan", .read = readiness_hidden },
};

const struct probe hwlat_probe = {
	.name = PROBE,
	.summary = "time no OS code ran, per CPU: the stub's pre-OS scan beside the kernel's hwlat tracer",
	.run = run, .limit_quick_s = 60, .limit_full_s = 600, .expect_ms = expect_ms,
	PROBE_OPTS(hwlat_opts), PROBE_FIGURES("preos_max_ns", "tracer_max_ns"),
	PROBE_KEYS(hwlat_keys),
	PROBE_REASONS(hwlat_reasons),
	.rounds = { .whole = "the kernel's hwlat tracer samples one window through "
			    "tracefs, set up and torn down once" },
};
