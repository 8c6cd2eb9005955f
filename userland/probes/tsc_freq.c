// SPDX-License-Identifier: MIT
/*
 * Probe `tsc`: its three figures of the TSC's rate and how far they agree
 * (the stub's from its file, ctx->stub; our own against CLOCK_MONOTONIC_RAW;
 * the kernel's come from tsc_kmsg.c), and which of them are measurements
 * and which were taken from another (tsc_derivation()).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../emit.h"
#include "../stats.h"
#include "../sysinfo.h"
#include "../timeutil.h"
#include "../tsccal.h"
#include "../tscref.h"
#include "tsc_impl.h"

/* ---- pure parts (tsc.h) ---- */

double tsc_ppm_offset(double a, double b)
{
	if (!(a > 0) || !(b > 0))
		return NAN;
	return (a - b) / b * 1e6;
}

double tsc_spread_ppm(double *v, size_t n, double *median_out)
{
	double med = stats_median(v, n); /* sorts v */

	if (median_out)
		*median_out = med;
	if (n < 2 || !(med > 0))
		return 0;
	return (v[n - 1] - v[0]) / med * 1e6;
}

const char *const tsc_fig_name[TSC_FIGS] = {"stub", "kernel", "user"};

void tsc_derivation(const struct tsc_deps_in *in, const char *derived[TSC_FIGS])
{
	derived[TSC_FIG_STUB] = 0;
	derived[TSC_FIG_KERNEL] = in->kernel_is_early ? (in->early_is_user ? "typed" : "stub")
				  : in->kvm_clock      ? "kvm-clock"
						       : 0;
	/* what tscref.c, the one place, says scales the TSC under the clocksource */
	derived[TSC_FIG_USER] = tscref_raw_scaled_by(in->clocksource);
}

const char *tsc_origin(const char *const derived[TSC_FIGS], int i)
{
	/* at most TSC_FIGS steps: user -> kernel -> stub */
	for (int step = 0; step < TSC_FIGS && derived[i]; step++) {
		int next = -1;

		for (int j = 0; j < TSC_FIGS; j++)
			if (!strcmp(derived[i], tsc_fig_name[j]))
				next = j;
		if (next < 0)
			return derived[i]; /* outside: "kvm-clock" */
		i = next;
	}
	return tsc_fig_name[i];
}

int tsc_by_construction(const char *const derived[TSC_FIGS], int a, int b)
{
	return !strcmp(tsc_origin(derived, a), tsc_origin(derived, b));
}

/* ---- records ---- */

void tsc_rec_hz(struct tp_rec *r, const char *key, double hz)
{
	if (hz > 0 && isfinite(hz))
		tp_rec_int(r, key, llround(hz));
	else
		tp_rec_null(r, key);
}

void tsc_rec_deps(struct tp_rec *r, const struct tsc_figures *f, int fig)
{
	if (f->derived[fig])
		tp_rec_str(r, "derived_from", f->derived[fig]);
	tp_rec_arr_begin(r, "independent_of");
	for (int j = 0; j < TSC_FIGS; j++)
		if (j != fig && !tsc_by_construction(f->derived, fig, j))
			tp_rec_str(r, 0, tsc_fig_name[j]);
	tp_rec_arr_end(r);
}

/* Whether a calibration's reference ref is independent of the TSC on this
 * run (tscref.h): the datasheet reads it from the record. */
static void rec_reference(struct tp_rec *r, const char *ref)
{
	char cs[64] = "", why[320];
	struct tscref_run run = { cs, 0, sysinfo_cpu_has_flag("hypervisor") };

	if (sysinfo_current_clocksource(cs, sizeof(cs)) <= 0)
		cs[0] = 0;
	tscref_rec(r, ref, tscref_counter_independent(&run, ref, why, sizeof(why)), why);
}

static void emit_calib(const struct tsc_figures *f, const char *ref, double hz, double spread,
		       int chosen)
{
	struct tp_rec r;

	emit_begin(&r, "calib");
	tp_rec_str(&r, "probe", P);
	tp_rec_str(&r, "source", "stub");
	tp_rec_str(&r, "ref", ref);
	tsc_rec_hz(&r, "tsc_hz", hz);
	emit_rec_exact(&r, "spread_ppm", spread);
	if (chosen >= 0)
		tp_rec_bool(&r, "chosen", chosen);
	tsc_rec_deps(&r, f, TSC_FIG_STUB);
	rec_reference(&r, ref);
	emit_end(&r);
}

void tsc_human_calib(const char *source, const char *ref, double hz, double spread)
{
	if (isfinite(spread))
		emit_human("  %-7s %-20s %14.0f Hz  %10.1f\n", source, ref, hz, spread);
	else
		emit_human("  %-7s %-20s %14.0f Hz  %10s\n", source, ref, hz, "-");
}

void tsc_stub_figures(const struct stub_handoff *st, struct tsc_figures *f)
{
	const char *chosen = st->tsc_ref[0] ? st->tsc_ref : 0;
	int any = 0;

	for (size_t i = 0; i < st->n_calib; i++) {
		const struct stub_calib *c = &st->calib[i];
		int is_chosen = chosen && !strcmp(chosen, c->ref);

		emit_calib(f, c->ref, (double)c->hz, c->spread_ppm, is_chosen);
		tsc_human_calib("stub", c->ref, (double)c->hz, c->spread_ppm);
		if (is_chosen || (!f->stub_hz && !chosen)) {
			f->stub_hz = (double)c->hz;
			f->stub_ref = c->ref;
		}
		any = 1;
	}
	/* the stub's tsc_hz is the figure it chose; it wins over its calib records */
	if (st->tsc_hz > 0) {
		f->stub_hz = (double)st->tsc_hz;
		f->stub_ref = chosen ? chosen : "unknown";
		if (!any) {
			emit_calib(f, f->stub_ref, f->stub_hz, NAN, 1);
			tsc_human_calib("stub", f->stub_ref, f->stub_hz, NAN);
		}
		any = 1;
	}
	if (!any)
		emit_skip(P, "stub calibration",
			  st->found ? "the stub's file (stub.tp1) holds no tsc_hz and no measured "
				      "calib record (every reference failed)"
				    : STUB_NONE);
}

/* tsc_early_khz= comes from the suite's options (the contract's row, either
 * spelling); it is the stub's when its value is the stub's figure's. */
void tsc_derive(struct tsc_figures *f, const struct tsc_log *log, int64_t early_khz,
		int64_t stub_hz)
{
	static char cs[64], avail[256];
	struct tsc_figures k = {0};
	struct tsc_deps_in in = {0};

	tsc_kernel_final(log, &k);
	in.kernel_is_early = early_khz > 0 && k.kernel_hz == (double)early_khz * 1000;
	in.early_is_user = tscref_early_is_user(early_khz, stub_hz);
	f->early_is_user = in.early_is_user;
	if (sysinfo_read_text(CLOCKSOURCE_DIR "/available_clocksource", avail, sizeof(avail)) > 0)
		in.kvm_clock = strstr(avail, "kvm-clock") != 0;
	if (sysinfo_current_clocksource(cs, sizeof(cs)) >= 0)
		in.clocksource = cs;
	tsc_derivation(&in, f->derived);
}

/* Our own calibration: the one every probe shares (tsccal.h), pinned to
 * the CPU we are on, failed rounds left out and counted. */
void tsc_user_figures(struct probe_ctx *ctx, struct tsc_figures *f)
{
	int64_t round_ms = ctx->quick ? USER_CALIB_QUICK_MS : USER_CALIB_FULL_MS;
	struct user_calib c;
	struct tp_rec r;

	f->user_hz = tsccal_run(tsccal_rounds, round_ms * NS_PER_MS, &c);
	emit_begin(&r, "calib");
	tp_rec_str(&r, "probe", P);
	tp_rec_str(&r, "source", "user");
	tp_rec_str(&r, "ref", "CLOCK_MONOTONIC_RAW");
	tsc_rec_hz(&r, "tsc_hz", c.hz);
	emit_rec_exact(&r, "spread_ppm", c.hz > 0 ? c.spread_ppm : NAN);
	tsc_rec_hz(&r, "min_hz", c.min_hz);
	tsc_rec_hz(&r, "max_hz", c.max_hz);
	tp_rec_int(&r, "rounds", c.rounds);
	tp_rec_int(&r, "failed_rounds", c.failed);
	tp_rec_int(&r, "round_ms", round_ms);
	tp_rec_int(&r, "cpu", c.cpu);
	tsc_rec_deps(&r, f, TSC_FIG_USER);
	rec_reference(&r, "CLOCK_MONOTONIC_RAW");
	emit_end(&r);
	tsc_human_calib("user", "CLOCK_MONOTONIC_RAW", c.hz, c.hz > 0 ? c.spread_ppm : NAN);
	if (c.failed)
		emit_human("  user calibration: %d of %d rounds failed, left out\n", c.failed, c.rounds);
}

void tsc_agreement(const struct tsc_figures *f)
{
	static const struct {
		const char *key, *label;
		int a, b; /* 0 stub, 1 kernel, 2 user */
	} pairs[] = {
	    {"stub_vs_kernel_ppm", "stub vs kernel", 0, 1},
	    {"stub_vs_user_ppm", "stub vs user", 0, 2},
	    {"kernel_vs_user_ppm", "kernel vs user", 1, 2},
	};
	double hz[3] = {f->stub_hz, f->kernel_hz, f->user_hz};
	char detail[96];
	struct tp_rec r;

	emit_result_begin(&r, P, "tsc agreement");
	tsc_rec_hz(&r, "stub_hz", hz[0]);
	tsc_rec_hz(&r, "kernel_hz", hz[1]);
	tsc_rec_hz(&r, "user_hz", hz[2]);
	/* Which figures, as free text ("detail"): `report` would take a
	 * "ref" string as part of the result's identity, and a host (no stub,
	 * kernel "detected") would never line up with the appliance. */
	snprintf(detail, sizeof(detail), "stub %s, kernel %s, user CLOCK_MONOTONIC_RAW",
		 f->stub_ref ? f->stub_ref : "none", f->kernel_ref ? f->kernel_ref : "none");
	tp_rec_str(&r, "detail", detail);
	/* then stub vs kernel compares the stub with itself, to 1 kHz */
	tp_rec_bool(&r, "kernel_is_early", f->kernel_is_early);
	emit_human("\n  %-16s %12s\n", "agreement", "ppm");
	/* A pair whose figures share an origin agrees by construction: its
	 * 0 ppm is no evidence. It is listed, and marked in the table. */
	tp_rec_arr_begin(&r, "by_construction");
	for (size_t i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++)
		if (tsc_by_construction(f->derived, pairs[i].a, pairs[i].b))
			tp_rec_str(&r, 0, pairs[i].key);
	tp_rec_arr_end(&r);
	for (size_t i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++) {
		double d = tsc_ppm_offset(hz[pairs[i].a], hz[pairs[i].b]);
		char note[64] = "";

		if (tsc_by_construction(f->derived, pairs[i].a, pairs[i].b))
			snprintf(note, sizeof(note), "   by construction: both from %s",
				 tsc_origin(f->derived, pairs[i].a));
		emit_rec_double(&r, pairs[i].key, d); /* null where a figure is missing */
		if (isfinite(d))
			emit_human("  %-16s %12.1f%s\n", pairs[i].label, d, note);
		else
			emit_human("  %-16s %12s%s\n", pairs[i].label, "-", note);
	}
	emit_end(&r);
}
