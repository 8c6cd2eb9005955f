// SPDX-License-Identifier: MIT
/*
 * Probe `clocks`, its output: one `result` record per source, `skip` and
 * `error` records, the block's own record, and the human table (the seed's
 * columns, dearest first). See clocks_impl.h for the probe's other files.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../emit.h"
#include "clocks_impl.h"

static const char *via_name(enum via v)
{
	static const char *const n[] = { "libc", "syscall", "insn", "tsc-user", "device", "none" };

	return n[v];
}

static void rec_maybe(struct tp_rec *r, const char *key, double v)
{
	if (isnan(v))
		tp_rec_null(r, key);
	else
		emit_rec_double(r, key, v);
}

static void emit_clk_skip(const struct env *e, const struct clk_result *res)
{
	struct tp_rec r;

	emit_begin(&r, "skip");
	tp_rec_str(&r, "probe", PROBE);
	tp_rec_str(&r, "name", res->src.name);
	tp_rec_str(&r, "path", res->src.kind == K_DEV ? res->src.dev->path : via_name(res->src.via));
	tp_rec_str(&r, "clocksource", e->cs);
	if (res->src.kind == K_CGT)
		tp_rec_int(&r, "clock_id", res->src.id);
	if (res->src.kind == K_DEV)
		tp_rec_str(&r, "backs_clocksource", res->src.dev->backs);
	if (res->err) {
		tp_rec_int(&r, "errno", res->err);
		tp_rec_str(&r, "errno_name", strerror(res->err));
	}
	tp_rec_str(&r, "reason", res->reason);
	emit_end(&r);
}

/* A skip or error about a whole clocksource, carrying it like every record. */
void clocks_emit_skips(const struct env *e, const struct clk_result *res, size_t n, size_t *skipped)
{
	for (size_t i = 0; i < n; i++)
		if (res[i].skipped) {
			emit_clk_skip(e, &res[i]);
			(*skipped)++;
		}
}

void clocks_emit_clocksource_record(const char *type, const char *cs, const char *name, const char *reason)
{
	struct tp_rec r;

	emit_begin(&r, type);
	tp_rec_str(&r, "probe", PROBE);
	tp_rec_str(&r, "name", name);
	tp_rec_str(&r, "clocksource", cs);
	tp_rec_str(&r, "reason", reason);
	emit_end(&r);
	emit_human("  %s %s: %s, %s\n", name, cs, strcmp(type, "skip") ? "ERROR" : "skipped", reason);
}

static const char *path_of(const struct clk_result *res)
{
	if (res->src.kind == K_DEV)
		return res->src.dev->path;
	if (res->src.via == VIA_LIBC)
		return res->vdso == 1 ? "vdso" : "libc";
	return via_name(res->src.via);
}

static void last_value(const struct clk_result *res, char *buf, size_t len)
{
	switch (res->src.kind) {
	case K_TIME: format_seconds(buf, len, res->last, 0); break;
	case K_GTOD: format_seconds(buf, len, res->last, 6); break;
	case K_RDTSC:
	case K_LFENCE_RDTSC:
	case K_RDTSCP:
	case K_DEV: snprintf(buf, len, "%llu", (unsigned long long)res->last); break;
	default: format_seconds(buf, len, res->last, 9);
	}
}

/* Granularity and steps: every source but the platform counters (whose
 * values are counts of a wrapping, or for the PIT falling, counter). */
static void emit_steps(struct tp_rec *r, const struct env *e, const struct clk_result *res)
{
	int insn = res->src.via == VIA_INSN;
	double step_unit = insn ? e->ns_per_unit : 1;	/* insn steps are ticks */

	if (res->steps.s.granularity)
		emit_rec_double(r, "granularity_ns", (double)res->steps.s.granularity * step_unit);
	else
		tp_rec_null(r, "granularity_ns");	/* no step in the window */
	if (insn)
		tp_rec_int(r, "granularity_ticks", res->steps.s.granularity);
	tp_rec_uint(r, "backward_steps", res->steps.s.backward);
	emit_rec_double(r, "largest_backward_ns", (double)res->steps.s.largest_backward * step_unit);
	tp_rec_uint(r, "step_reads", res->steps.reads);
	tp_rec_int(r, "step_window_ns", res->step_window_ns);
}

void clocks_emit_result(const struct env *e, const struct clk_result *res)
{
	const char *unit = res->src.via == VIA_INSN ? "ticks" : res->src.kind == K_DEV ? "counts" : 0;
	char last[32];
	struct tp_rec r;

	emit_result_begin(&r, PROBE, res->src.name);
	tp_rec_str(&r, "clocksource", e->cs);
	tp_rec_str(&r, "path", path_of(res));
	if (res->src.via == VIA_LIBC) {
		if (res->vdso >= 0)
			tp_rec_bool(&r, "vdso", res->vdso);
		else
			tp_rec_null(&r, "vdso");
		tp_rec_str(&r, "vdso_check", e->traced ? "ptrace" : "cost");
		if (e->traced)
			emit_rec_double(&r, "kernel_entries_per_call", res->kernel_entries);
	}
	if (res->src.kind == K_CGT)
		tp_rec_int(&r, "clock_id", res->src.id);
	emit_rec_double(&r, "ns_per_call", res->ns.p50);
	ci_emit(&r, "ns_per_call", res->ns.p50_lo, res->ns.p50_hi, res->ns.n);
	emit_rec_double(&r, "ns_per_call_min", res->ns.min);
	emit_rec_double(&r, "ns_per_call_p99", res->ns.p99);
	ci_emit(&r, "ns_per_call_p99", res->ns.p99_lo, res->ns.p99_hi, res->ns.n);
	tp_rec_uint(&r, "n", res->ns.n);	/* batch means behind the median and p99 */
	emit_rec_double(&r, "ns_per_call_mean", res->ns.mean);
	ci_emit(&r, "ns_per_call_mean", res->ns.mean_lo, res->ns.mean_hi, res->ns.n);
	emit_rec_double(&r, "elapsed_ms", res->ns.elapsed_ns / 1e6);
	rec_maybe(&r, "ticks_per_call", res->ticks_p50);
	emit_rec_double(&r, "overhead_ns_per_call", e->overhead_ns);
	rec_maybe(&r, "resolution_ns", res->resolution_ns);
	if (res->src.kind == K_DEV)
		clocks_dev_fields(&r, res->src.dev);
	else
		emit_steps(&r, e, res);
	tp_rec_int(&r, "user_us", res->user_us);
	tp_rec_int(&r, "sys_us", res->sys_us);
	tp_rec_int(&r, "vol_ctxsw", res->vol_ctxsw);
	tp_rec_int(&r, "invol_ctxsw", res->invol_ctxsw);
	last_value(res, last, sizeof(last));
	tp_rec_str(&r, "last_value", last);
	if (unit)
		tp_rec_str(&r, "last_value_unit", unit);
	tp_rec_int(&r, "batches", res->batches - res->first);	/* this round's, or all */
	tp_rec_uint(&r, "calls_per_batch", res->calls_per_batch);
	emit_rec_double(&r, "batch_ns", res->batch_ns);
	emit_rec_double(&r, "timer_share_pct", 100 * e->timer_ns / res->batch_ns);
	tp_rec_str(&r, "timer", e->have_tsc ? CLK_INSN_ORDERED : "CLOCK_MONOTONIC_RAW");
	tp_rec_int(&r, "cpu", e->cpu);
	if (res->src.kind == K_TSC_USER) {
		tp_rec_str(&r, "calibration", e->calib_source);
		tp_rec_str(&r, "calibration_ref", e->calib_ref);
		tp_rec_int(&r, "tsc_hz", llround(e->tsc_hz));
		tp_rec_uint(&r, "mult", e->tclk.conv.mult);
		tp_rec_uint(&r, "shift", e->tclk.conv.shift);
	}
	emit_end(&r);
}

static int dearest_first(const void *a, const void *b)
{
	const struct clk_result *x = a, *y = b;

	if (x->skipped != y->skipped)
		return x->skipped - y->skipped;
	if (x->skipped)		/* skips in list order: by name, libc before syscall */
		return strcmp(x->src.name, y->src.name) ? strcmp(x->src.name, y->src.name)
							: (int)x->src.via - (int)y->src.via;
	return (x->ns.p50 < y->ns.p50) - (x->ns.p50 > y->ns.p50);
}

void clocks_print_table(const struct env *e, struct clk_result *res, size_t n)
{
	qsort(res, n, sizeof(*res), dearest_first);
	/* the seed's columns (bench_time: "Avg. us/call Elapsed Name", then the
	 * last value read) with the rusage of seed 003 between them */
	emit_human("%10s %10s %10s %10s %11s %9s %9s %9s  %-12s %-40s %s\n", "ns/call", "elapsed ms",
	      "ticks/call", "resolution", "granularity", "user us", "sys us", "vol/invol", "path",
	      "name", "last value");
	for (size_t i = 0; i < n; i++) {
		const struct clk_result *r = &res[i];
		double step_unit = r->src.via == VIA_INSN ? e->ns_per_unit : 1;
		char res_s[24], gran[24], cs[24], ticks[24], last[32];

		if (r->skipped) {
			emit_human("%10s %10s %10s %10s %11s %9s %9s %9s  %-12s %s: skipped, %s\n", "-", "-", "-",
			      "-", "-", "-", "-", "-", path_of(r), r->src.name, r->reason);
			continue;
		}
		format_duration(res_s, sizeof(res_s), r->resolution_ns);
		format_duration(gran, sizeof(gran), (double)r->steps.s.granularity * step_unit);
		if (r->src.kind == K_DEV)
			snprintf(gran, sizeof(gran), "-");	/* not sampled: clocks_dev.h */
		snprintf(cs, sizeof(cs), "%lld/%lld", (long long)r->vol_ctxsw, (long long)r->invol_ctxsw);
		if (isnan(r->ticks_p50))
			snprintf(ticks, sizeof(ticks), "-");
		else
			snprintf(ticks, sizeof(ticks), "%.1f", r->ticks_p50);
		last_value(r, last, sizeof(last));
		emit_human("%10.2f %10.1f %10s %10s %11s %9lld %9lld %9s  %-12s %-40s %s%s\n", r->ns.p50,
		      r->ns.elapsed_ns / 1e6, ticks, res_s, gran, (long long)r->user_us,
		      (long long)r->sys_us, cs, path_of(r), r->src.name, last,
		      r->steps.s.backward ? "  (went backwards)" : "");
	}
}

void clocks_emit_block(const struct probe_ctx *ctx, const struct env *e, size_t measured,
		size_t skipped, int trace_rc, const char *cs_end)
{
	struct tp_rec r;

	emit_result_begin(&r, PROBE, "clocksource");
	tp_rec_str(&r, "clocksource", e->cs);
	tp_rec_str(&r, "clocksource_at_end", cs_end);
	tp_rec_int(&r, "sources_measured", (int64_t)measured);
	tp_rec_int(&r, "sources_skipped", (int64_t)skipped);
	if (e->tsc_hz > 0)
		tp_rec_int(&r, "tsc_hz", llround(e->tsc_hz));
	else
		tp_rec_null(&r, "tsc_hz");
	tp_rec_str(&r, "calibration", e->calib_source);
	tp_rec_str(&r, "calibration_ref", e->calib_ref);
	if (e->user_calib)
		tsccal_fields(&r, e->user_calib);
	tp_rec_str(&r, "timer", e->have_tsc ? CLK_INSN_ORDERED : "CLOCK_MONOTONIC_RAW");
	emit_rec_double(&r, "timer_ns", e->timer_ns);
	emit_rec_double(&r, "overhead_ns_per_call", e->overhead_ns);
	tp_rec_str(&r, "vdso_check", e->traced ? "ptrace" : "cost");
	if (!e->traced)
		tp_rec_str(&r, "vdso_check_error", strerror(-trace_rc));
	tp_rec_int(&r, "cpu", e->cpu);
	tp_rec_str(&r, "profile", ctx->quick ? "quick" : "full");
	emit_end(&r);
}

