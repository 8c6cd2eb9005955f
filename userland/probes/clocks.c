// SPDX-License-Identifier: MIT
/*
 * Probe `clocks`: what one read of the time costs, how fine it is and what it
 * does to the system (seeds 001 bench_time and 003 clockvergleich).
 *
 * Sources: time(), gettimeofday() and clock_gettime() for every clock id,
 * each through libc (which uses the vDSO where the kernel serves the clock
 * there) and as a raw syscall; rdtsc, lfence;rdtsc and rdtscp (on arm64
 * mrs cntvct_el0 and isb;mrs cntvct_el0: clocks_impl.h); and a calibrated
 * user-space clock on that counter. Per source: the median, min and p99 over
 * batches of the per-call mean, in ns and counter ticks; clock_getres(); the
 * smallest step and backward steps seen between consecutive reads;
 * getrusage() around the measurement; the last value read.
 *
 * With the clocksource sweep (appliance, or --clocks-sweep=1 as root)
 * all of it is repeated for every available clocksource, each in a forked
 * child, and the original clocksource is put back by the parent.
 *
 * This file: the sources and their pre-checks, one block per clocksource,
 * the platform counters once per run, the entry point and the registry's
 * row. The reads, the measurement kernel, the records and the sweep are in
 * files of their own (clocks_impl.h lists them). See docs/probes/clocks.md.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include "../emit.h"
#include "../probe.h"
#include "../sysinfo.h"
#include "../timeutil.h"
#include "clocks_impl.h"

static int sweep = -1;	/* --clocks-sweep=; resolved: 1 appliance, 0 host */

/* Intel SDM vol. 2A, CPUID: leaf 01H EDX bit 4 TSC; leaf 80000001H EDX bit 27 RDTSCP. */
#define CPUID_1_EDX_TSC (1u << 4)
#define CPUID_80000001_EDX_RDTSCP (1u << 27)

/* ---- sources ---- */

/* Every clock id of Linux 6.1 (include/uapi/linux/time.h) but the retired
 * CLOCK_SGI_CYCLE (10); the kernel decides which it accepts. */
static const struct {
	clockid_t id;
	const char *name;
} clock_ids[] = {
	{ CLOCK_REALTIME, "CLOCK_REALTIME" },
	{ CLOCK_REALTIME_COARSE, "CLOCK_REALTIME_COARSE" },
	{ CLOCK_MONOTONIC, "CLOCK_MONOTONIC" },
	{ CLOCK_MONOTONIC_COARSE, "CLOCK_MONOTONIC_COARSE" },
	{ CLOCK_MONOTONIC_RAW, "CLOCK_MONOTONIC_RAW" },
	{ CLOCK_BOOTTIME, "CLOCK_BOOTTIME" },
	{ CLOCK_TAI, "CLOCK_TAI" },
	{ CLOCK_PROCESS_CPUTIME_ID, "CLOCK_PROCESS_CPUTIME_ID" },
	{ CLOCK_THREAD_CPUTIME_ID, "CLOCK_THREAD_CPUTIME_ID" },
	{ CLOCK_REALTIME_ALARM, "CLOCK_REALTIME_ALARM" },
	{ CLOCK_BOOTTIME_ALARM, "CLOCK_BOOTTIME_ALARM" },
};

static void cpu_caps(struct env *e)
{
	e->no_tsc_why = "no CPU counter read on this architecture";
	e->no_rdtscp_why = "not an x86 CPU";
	/* arm64: CNTVCT_EL0, which Linux lets EL0 read (or emulates when it traps it) */
	e->have_tsc = TP_HAVE_COUNTER && !TP_HAVE_TSC;
#if TP_HAVE_TSC
	unsigned int a, b, c, d;
	int mode = 0;

	e->no_tsc_why = "CPUID leaf 1 EDX bit 4 (TSC) is clear";
	e->no_rdtscp_why = "CPUID leaf 0x80000001 EDX bit 27 (RDTSCP) is clear";
	e->have_tsc = __get_cpuid(1, &a, &b, &c, &d) && (d & CPUID_1_EDX_TSC);
	e->have_rdtscp = e->have_tsc && __get_cpuid(0x80000001, &a, &b, &c, &d) &&
			 (d & CPUID_80000001_EDX_RDTSCP);
	/* PR_SET_TSC can make rdtsc fault in this process */
	if (prctl(PR_GET_TSC, &mode, 0, 0, 0) == 0 && mode != PR_TSC_ENABLE) {
		e->have_tsc = e->have_rdtscp = 0;
		e->no_tsc_why = e->no_rdtscp_why = "rdtsc disabled for this process (PR_SET_TSC)";
	}
#endif
}

static size_t list_sources(struct source *s, const struct env *e)
{
	size_t n = 0;

	for (int via = VIA_LIBC; via <= VIA_SYSCALL; via++) {
		s[n++] = (struct source){ .kind = K_TIME, .via = via, .name = "time()" };
		s[n++] = (struct source){ .kind = K_GTOD, .via = via, .name = "gettimeofday()" };
	}
	for (size_t i = 0; i < sizeof(clock_ids) / sizeof(clock_ids[0]); i++)
		for (int via = VIA_LIBC; via <= VIA_SYSCALL; via++) {
			s[n] = (struct source){ .kind = K_CGT, .via = via, .id = clock_ids[i].id };
			snprintf(s[n].name, sizeof(s[n].name), "clock_gettime(%s)", clock_ids[i].name);
			n++;
		}
	s[n++] = (struct source){ .kind = K_RDTSC, .via = VIA_INSN, .name = CLK_INSN };
	s[n++] = (struct source){ .kind = K_LFENCE_RDTSC, .via = VIA_INSN, .name = CLK_INSN_ORDERED };
	s[n++] = (struct source){ .kind = K_RDTSCP, .via = VIA_INSN, .name = "rdtscp" };
	s[n++] = (struct source){ .kind = K_TSC_USER, .via = VIA_TSC_USER, .tclk = &e->tclk,
				  .name = CLK_USER_NAME };
	return n;
}

/* The resolution of a source that reads: clock_getres(), or one step of its unit. */
static double resolution_ns(const struct env *e, const struct source *s)
{
	struct timespec res;
	int rc;

	switch (s->kind) {
	case K_TIME:
		return (double)NS_PER_S;	/* time_t seconds */
	case K_GTOD:
		/* microseconds, or coarser if CLOCK_REALTIME is */
		if (!clock_getres(CLOCK_REALTIME, &res) && ts_ns(&res) > 1000)
			return (double)ts_ns(&res);
		return 1000;
	case K_CGT:
		rc = s->via == VIA_LIBC ? (clock_getres(s->id, &res) ? -errno : 0)
					: (int)sys2(SYS_clock_getres, s->id, (long)&res);
		return rc ? NAN : (double)ts_ns(&res);
	case K_TSC_USER:
		return ldexp((double)e->tclk.conv.mult, -(int)e->tclk.conv.shift);
	default:	/* one tick */
		return e->tsc_hz > 0 ? 1e9 / e->tsc_hz : NAN;
	}
}

/* Why this source cannot be read without trying it, or NULL. */
static const char *cannot_read(const struct env *e, const struct source *s)
{
#ifndef SYS_time
	if (s->kind == K_TIME && s->via == VIA_SYSCALL)
		return "no time syscall on this architecture";
#endif
	if ((s->via == VIA_INSN || s->via == VIA_TSC_USER) && !e->have_tsc)
		return e->no_tsc_why;
	if (s->kind == K_RDTSCP && !e->have_rdtscp)
		return e->no_rdtscp_why;
	if (s->kind == K_TSC_USER && !(e->tsc_hz > 0))
		return "no TSC calibration";
	return 0;
}

/* Can this source be read here? Fills the resolution; 0 or sets skipped. */
static void precheck(const struct env *e, struct clk_result *r)
{
	const struct source *s = &r->src;
	const char *why = cannot_read(e, s);
	int64_t v;
	int rc;

	if (why) {
		r->skipped = 1;
		snprintf(r->reason, sizeof(r->reason), "%s", why);
		return;
	}
	if (s->kind == K_DEV) {
		r->skipped = !s->dev->open;
		snprintf(r->reason, sizeof(r->reason), "%s", s->dev->pc.why);
		r->resolution_ns = s->dev->open ? 1e9 / s->dev->pc.hz : NAN;	/* one count */
		return;
	}
	rc = clocks_read_once(s, &v);
	if (rc < 0) {
		r->skipped = 1;
		r->err = -rc;
		snprintf(r->reason, sizeof(r->reason), "%s refused: %s%s", s->via == VIA_SYSCALL ?
			 "the syscall" : "libc", strerror(-rc),
			 /* kernel/time/alarmtimer.c: no RTC device, no alarm clocks */
			 s->kind == K_CGT && rc == -EINVAL && (s->id == CLOCK_REALTIME_ALARM ||
			 s->id == CLOCK_BOOTTIME_ALARM) ? " (alarm clocks need an RTC device)" : "");
		return;
	}
	r->resolution_ns = resolution_ns(e, s);
}

/* ---- one block: every source on the current clocksource ---- */

/*
 * Puts the platform counter behind this block's clocksource (if any) at
 * res[0], so the table shows the device access beside the reads that pay
 * for it; its record was written once, by measure_devices(). Returns 0 or 1.
 */
static size_t device_row(const struct env *e, struct clk_result *res)
{
	int k = e->dev ? clocks_dev_backing(e->dev, CLK_NDEV, e->cs) : -1;

	for (size_t i = 0; k >= 0 && i < CLK_NDEV; i++)
		if (e->dev_res[i].src.dev == &e->dev[k]) {
			res[0] = e->dev_res[i];
			return 1;
		}
	return 0;
}

/* The block's heading line: the clocksource, the TSC, how it measured. */
static void block_heading(const struct env *e)
{
	char tsc[160];

	if (e->tsc_hz > 0)
		snprintf(tsc, sizeof(tsc), "TSC %lld Hz (calibration %s against %s)",
			 llround(e->tsc_hz), e->calib_source, e->calib_ref);
	else
		snprintf(tsc, sizeof(tsc), "no TSC (%s)", e->no_tsc_why);
	emit_human("\n-- clocksource %s: %s, CPU %d, loop overhead %.3g ns/call, vDSO use checked by %s --\n",
	      e->cs, tsc, e->cpu, e->overhead_ns, e->traced ? "ptrace" : "cost");
}

/* Its result records: this round's, or the run's (whole, or the last round's after the sums). */
static void emit_results(const struct env *e, const struct clk_result *res, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!res[i].skipped)
			clocks_emit_result(e, &res[i]);
}

/* In rounds, the last round's run records: skips, every round's sums, the block's record. */
static void emit_block_run(const struct probe_ctx *ctx, struct env *e, struct clk_result *res, size_t n,
			   size_t measured, int rc, const char *cs_end)
{
	size_t skipped = 0;

	clocks_rounds_as_run(e, 1);
	clocks_rounds_total(e, res, n, CLK_SLOT_BLOCK);
	clocks_emit_skips(e, res, n, &skipped);
	emit_results(e, res, n);
	clocks_emit_block(ctx, e, measured, skipped, rc, cs_end);
}

static size_t count_skipped(const struct clk_result *res, size_t n)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		k += res[i].skipped != 0;
	return k;
}

enum probe_status clocks_measure_block(const struct probe_ctx *ctx, struct env *e)
{
	struct source src[MAX_SOURCES];
	struct clk_result *res = clocks_alloc_results(e, MAX_SOURCES + 1);
	size_t n = list_sources(src, e), measured = 0, skipped = 0;
	char cs_end[64] = "";
	int rc;

	if (!res) {
		clocks_emit_clocksource_record("error", e->cs, "clocksource", "out of memory");
		return PROBE_FAILED;
	}
	clocks_pin_to_cpu(e);
	clocks_setup_tsc_clock(e);
	e->timer_ns = clocks_timer_cost_ns(e);
	for (size_t i = 0; i < n; i++) {
		res[i].src = src[i];
		res[i].vdso = -1;
		precheck(e, &res[i]);
	}
	/* the loop alone, taking its turns like the others */
	res[n].src = (struct source){ .kind = K_EMPTY, .via = VIA_NONE, .name = "empty loop" };
	clocks_rounds_load(e, res, n, CLK_SLOT_BLOCK);
	if (e->st)	/* in rounds the skips are the run's, written once */
		skipped = count_skipped(res, n);
	else
		clocks_emit_skips(e, res, n, &skipped);
	rc = clocks_measure_all(e, res, n, &measured);
	clocks_rounds_save(e, res, n, CLK_SLOT_BLOCK);
	emit_results(e, res, n);

	sysinfo_current_clocksource(cs_end, sizeof(cs_end));
	clocks_emit_block(ctx, e, measured, skipped, rc, cs_end);
	if (!clocks_rounds_last(e)) {
		free(res);
		return measured ? PROBE_OK : PROBE_SKIPPED;
	}
	if (e->st)
		emit_block_run(ctx, e, res, n, measured, rc, cs_end);
	block_heading(e);
	/* the empty loop's slot (res[n]) is done with: the device row takes it */
	clocks_print_table(e, res, n + device_row(e, &res[n]));
	if (strcmp(cs_end, e->cs))
		emit_human("   note: the clocksource changed to %s during the measurement\n", cs_end);
	free(res);
	return measured ? PROBE_OK : PROBE_SKIPPED;
}

/* ---- the platform counters, once per run ---- */

/*
 * The HPET, PM timer and PIT reads (clocks_dev.h), measured like every
 * source but once, before any block: the device costs the same whatever
 * the clocksource. Their records and a table now; each block's table shows
 * the counter behind its clocksource again (device_row()). Sets e->dev and
 * e->dev_res; returns the results to free, or NULL.
 */
static struct clk_result *measure_devices(struct env *e, struct clk_dev *dev)
{
	struct clk_result *res = clocks_alloc_results(e, CLK_NDEV + 1);
	struct env d = *e;
	size_t skipped = 0;

	if (!res) {
		clocks_emit_clocksource_record("error", e->cs, "platform counters", "out of memory");
		return 0;
	}
	clocks_devs_open(dev);
	clocks_pin_to_cpu(&d);
	d.timer_ns = clocks_timer_cost_ns(&d);
	for (size_t i = 0; i < CLK_NDEV; i++) {
		res[i].src = (struct source){ .kind = K_DEV, .via = VIA_DEV, .dev = &dev[i] };
		snprintf(res[i].src.name, sizeof(res[i].src.name), "%s", dev[i].name);
		res[i].vdso = -1;
		precheck(&d, &res[i]);
	}
	res[CLK_NDEV].src = (struct source){ .kind = K_EMPTY, .via = VIA_NONE, .name = "empty loop" };
	clocks_rounds_load(&d, res, CLK_NDEV, CLK_SLOT_DEV);
	if (!d.st)
		clocks_emit_skips(&d, res, CLK_NDEV, &skipped);
	clocks_measure_costs(&d, res, CLK_NDEV);
	clocks_rounds_save(&d, res, CLK_NDEV, CLK_SLOT_DEV);
	emit_results(&d, res, CLK_NDEV);
	e->dev = dev;
	e->dev_res = res;
	if (!clocks_rounds_last(&d))
		return res;
	if (d.st) {	/* the last round: the run's records and table, then this round's again */
		clocks_rounds_as_run(&d, 1);
		clocks_rounds_total(&d, res, CLK_NDEV, CLK_SLOT_DEV);
		clocks_emit_skips(&d, res, CLK_NDEV, &skipped);
		emit_results(&d, res, CLK_NDEV);
	}
	emit_human("\n-- platform counters read from user space (the device access under the hpet, acpi_pm "
	      "and pit clocksources), CPU %d, loop overhead %.3g ns/call --\n", d.cpu, d.overhead_ns);
	clocks_print_table(&d, res, CLK_NDEV);
	clocks_rounds_as_run(&d, 0);
	return res;
}

/* ---- the entry point ---- */

/* In rounds, round 1's calibration for every round (their batches are in its ticks). */
static double calibrate(struct probe_ctx *ctx, const struct env *e)
{
	if (e->st && e->st->calibrated)
		ctx->tsc = e->st->tsc;
	else if (tsccal_probe(ctx) >= 0 && e->st) {
		e->st->tsc = ctx->tsc;
		e->st->calibrated = 1;
	}
	return ctx->tsc.hz;
}

/* The TSC calibration the suite has, or none: then batches are timed by the clock. */
static void take_calibration(struct probe_ctx *ctx, struct env *e)
{
	if (e->have_tsc && calibrate(ctx, e) > 0) {
		e->tsc_hz = ctx->tsc.hz;
		e->calib_source = ctx->tsc.source;
		e->calib_ref = ctx->tsc.ref;
		if (!strcmp(ctx->tsc.source, "user"))
			e->user_calib = &ctx->tsc.user;
		e->ns_per_unit = 1e9 / e->tsc_hz;
	} else if (e->have_tsc) {
		/* ticks cannot be turned into ns: time batches by the clock */
		e->have_tsc = e->have_rdtscp = 0;
		e->no_tsc_why = e->no_rdtscp_why = TP_HAVE_TSC ? "TSC calibration failed"
								: "counter calibration failed";
	}
}

enum probe_status clocks_probe_run(struct probe_ctx *ctx)
{
	int want = sweep > 0 || (sweep < 0 && ctx->appliance);
	char orig[CS_NAME_LEN];
	struct clk_dev dev[CLK_NDEV];
	struct clk_result *dev_res;
	enum probe_status st;
	struct env e = { .cpu = -1, .calib_source = "none", .calib_ref = "none", .ns_per_unit = 1 };

	clocks_rounds_env(ctx, &e);
	if (sysinfo_current_clocksource(orig, sizeof(orig)) <= 0)
		snprintf(orig, sizeof(orig), "unknown");
	e.cs = orig;
	cpu_caps(&e);
	take_calibration(ctx, &e);
	dev_res = measure_devices(&e, dev);
	st = clocks_sweep_run(ctx, &e, want, orig);
	free(dev_res);
	return st;
}

/* The run's estimate (probe.h): its measured time budgets (clocks_measure.c's plans), with the clocksource sweep, measured. */
static int64_t expect_ms(const struct probe_ctx *ctx)
{
	return ctx->quick ? probe_expect(ctx, 2000, 4300) : probe_expect(ctx, 16500, 48000);
}

/* ---- the registry's row (probes/registry.c) ---- */

static const struct probe_opt clocks_opts[] = {
	{ .w = {
		.name = "clocks-sweep", .type = TP_WT_BOOL, .by = TP_BY_USER, .reader = TP_FOR_SUITE, .hi = 1,
		.def = -1, .dflt = "on", .dflt_host = "off",
		.help = "`clocks`: repeat for every clocksource (root)",
	  }, .store = &sweep, .was = "clocksource-sweep", .by_env = 1, .env_def = { 1, 0 } },
};

/*
 * Every key of a clocks record (struct probe_key). The run's length is
 * chosen by time, so the CPU time and switches over the whole measurement
 * are context, and the windows and batches are budgets.
 */
static const struct probe_key clocks_keys[] = {
	PKEY_ID("clocksource", 0, "the clocksource the reads went through (sweep)"),
	PKEY_ID("path", 0, "vdso, syscall, libc, insn, tsc-user; hpet-mmio, pmtimer-port, pit-latch"),
	PKEY_ID("clock_id", 0, "the clockid_t read"),
	PKEY_FIG("ns_per_call", "ns", PK_LOWER, "cost of one read: median of the batch means",
		 .ci = PK_CI_INTERVAL),
	PKEY_FIG("ns_per_call_mean", "ns", PK_LOWER, "cost of one read: mean",
		 .ci = PK_CI_INTERVAL),
	PKEY_FIG("ns_per_call_min", "ns", PK_LOWER, "cost of one read: the cheapest batch",
		 .ci = PK_CI_NONE),
	PKEY_FIG("ns_per_call_p99", "ns", PK_LOWER, "cost of one read: p99 of the batch means",
		 .ci = PK_CI_INTERVAL, .kind = PK_KIND_MAX),
	PKEY_FIG("ticks_per_call", "ticks", PK_LOWER, "cost of one read in TSC ticks",
		 .same_as = "ns_per_call"),
	PKEY_FIG("overhead_ns_per_call", "ns", PK_LOWER,
		 "loop overhead, reported, not subtracted; a few ticks of the batch timer, so quantized",
		 .ci = PK_CI_UNSTABLE),
	PKEY_FIG("kernel_entries_per_call", "count", PK_LOWER, "0 through the vDSO",
		 .ci = PK_CI_NONE),
	PKEY_FIG("resolution_ns", "ns", PK_LOWER, "clock_getres()", .ci = PK_CI_UNSTABLE),
	PKEY_FIG("granularity_ns", "ns", PK_LOWER, "smallest step seen", .ci = PK_CI_UNSTABLE),
	PKEY_FIG("granularity_ticks", "ticks", PK_LOWER, "smallest step seen in TSC ticks",
		 .same_as = "granularity_ns", .ci = PK_CI_UNSTABLE),
	PKEY_FIG("backward_steps", "count", PK_LOWER, "reads that went back", .ci = PK_CI_NONE,
		 .kind = PK_KIND_COUNT),
	PKEY_FIG("largest_backward_ns", "ns", PK_LOWER, "largest step back", .ci = PK_CI_NONE,
		 .kind = PK_KIND_MAX),
	PKEY_BUDGET("step_reads", "count", "reads to see the granularity"),
	PKEY_BUDGET("step_window_ns", "ns", "time to see the granularity: a sampling window"),
	PKEY_CTX("user_us", "us", "CPU time in user space over the whole measurement (its length is chosen by time, so not compared)"),
	PKEY_CTX("sys_us", "us", "CPU time in the kernel over the whole measurement (not compared, as user_us)"),
	PKEY_CTX("vol_ctxsw", "count", "voluntary context switches over the whole measurement"),
	PKEY_CTX("invol_ctxsw", "count", "involuntary context switches over the whole measurement"),
	PKEY_CTX("batches", "count", "batches timed (as many as fit the time)"),
	PKEY_BUDGET("elapsed_ms", "ms", "every batch together (seed 001's Elapsed)"),
	PKEY_BUDGET("batch_ns", "ns", "length of one batch"),
	PKEY_FIG("timer_share_pct", "%", PK_LOWER, "share of a batch spent reading the timer",
		 .ci = PK_CI_NONE, .kind = PK_KIND_CONTEXT),
	PKEY_FIG("timer_ns", "ns", PK_LOWER, "cost of the batch timer",
		 .ci = PK_CI_UNSTABLE),
	PKEY_FIG("tsc_hz", "Hz", PK_NEITHER, "TSC frequency used", .ci = PK_CI_NONE),
	PKEY_FIG("mult", 0, PK_NEITHER, "the user-space TSC clock's multiplier",
		 .ci = PK_CI_NONE),
	PKEY_FIG("shift", 0, PK_NEITHER, "the user-space TSC clock's shift", .ci = PK_CI_NONE),
	PKEY_FIG("sources_measured", "count", PK_NEITHER, "clocks read", .ci = PK_CI_NONE),
	PKEY_FIG("sources_skipped", "count", PK_NEITHER, "clocks skipped", .ci = PK_CI_NONE),
	PKEY_CTX("calls_per_batch", "count", "chosen to fill a batch"),
	PKEY_CTX("n", "count", "batch means behind the median and p99"),
	PKEY_CTX("calib_*", 0, "the user-space calibration's rounds and spread"),
	PKEY_CTX("last_value", 0, "the clock's reading at the end: differs every run"),
	PKEY_CTX("last_value_unit", 0, "its unit when not seconds"),
	PKEY_CTX("cpu", 0, "the CPU the process ran on"),
	PKEY_CTX("vdso", 0, "whether the read stayed in user space"),
	PKEY_CTX("vdso_check*", 0, "how that was found out"),
	PKEY_CTX("timer", 0, "what timed the batches"),
	PKEY_CTX("calibration*", 0, "where the TSC frequency came from"),
	PKEY_CTX("clocksource_at_end", 0, "clocksource after the run"),
	PKEY_CTX("profile", 0, "quick or full"),
	PKEY_CTX("original", 0, "clocksource before the sweep"),
	PKEY_CTX("clocksources", 0, "the sweep's list"),
	PKEY_CTX("restored", 0, "the original clocksource is back"),
	PKEY_CTX("note", 0, "free text"),
	PKEY_CTX("counter", 0, "platform counter paths: the counter read (hpet, pmtimer, pit)"),
	PKEY_CTX("via", 0, "how the counter was reached (mmap /dev/hpet, the port)"),
	PKEY_CTX("backs_clocksource", 0, "the clocksource the kernel builds on the counter"),
	PKEY_CTX("counter_hz", "Hz", "the counter's nominal rate"),
	PKEY_CTX("counter_bits", "bits", "the counter's width"),
};

/*
 * The verdict's item (struct probe_verdict; docs/verdict.md): the first
 * read of CLOCK_MONOTONIC as a program reads it, libc's clock_gettime
 * (path vdso when the vDSO serves it, else libc), not the sweep's paths.
 */
static const struct probe_verdict clocks_verdict[] = {
	{ .lim = { "clock_read_ns", "CLOCK_MONOTONIC read cost", "ns", 100, 1000,
		   "vDSO on the TSC: tens of ns; a system call or port read: us" },
	  .place = 5, .key = "ns_per_call", .pick = PP_FIRST,
	  .where = { RW_NUM("clock_id", CLOCK_MONOTONIC),
		     { .kind = RW_IS, .key = "path", .is = { "vdso", "libc" },
		       .note = { " through the vDSO", " through libc (a system call)" } } },
	  .context_key = "clocksource" },
};

/*
 * What a clocksource change asks (docs/comparing.md): the default clock's
 * cost through libc, in the rows of the clocksource each run booted.
 */
static const struct show_clock clocks_default_clock = {
	"clock_gettime(CLOCK_MONOTONIC)", "path=libc", "ns_per_call",
	.booted_key = "clocksource", .skip_key = "counter",
	.route_key = "path", .route_direct = "vdso", .route_as = "libc",
};

/* Its table: dearest clock first. */
static const struct show_layout clocks_layout = { "ns_per_call", 1, {
	SHOW_COL("per call", "ns_per_call"),
	SHOW_COL("ticks/call", "ticks_per_call"),
	SHOW_COL("resolution", "resolution*"),
	SHOW_COL("granularity", "granularity*"),
	SHOW_COL2("user/sys", "user*", "sys*", "/", ""),
	SHOW_COL("ctxsw", "ctxsw*"),
	SHOW_COL("path", "path"),
} };

/* Its chart: each clock's cost, a row per clock, path and clocksource, grouped by clock. */
static const struct show_bars clocks_bars = {
	.kind = SHOW_BARS_BY_NAME, .base = "clocks", .key = "ns_per_call",
	.title = "Clock read cost (ns per call, log scale)", .xlabel = "ns per call (log scale)",
	.caption = "Cost of one clock read in ns per call (log scale), one bar per run, rows "
		   "grouped by clock",
	.group_title = "grouped by clock; each row: clock, path, clocksource",
	/* clock_id repeats the clock's name as a number */
	.name_pre = "clock_gettime(CLOCK_", .name_post = ")", .skip_ident = "clock_id",
};

const struct probe clocks_probe = {
	.name = "clocks", .summary = "cost, resolution and behaviour of every way to read the time",
	.run = clocks_probe_run, .limit_quick_s = 60, .limit_full_s = 600, .expect_ms = expect_ms,
	PROBE_OPTS(clocks_opts), PROBE_FIGURES("ns_per_call", "resolution_ns"),
	PROBE_KEYS(clocks_keys),
	PROBE_VERDICT(clocks_verdict),
	.rounds = { .min_round_ms = 300, .state_bytes = clocks_state_bytes },
	.show = { .default_clock = &clocks_default_clock, .layout = &clocks_layout,
		  .bars = &clocks_bars },
};
