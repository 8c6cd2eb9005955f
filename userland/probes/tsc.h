/* SPDX-License-Identifier: MIT */
/*
 * Probe `tsc`: the pure parts, tested on the host (tests/unit/test_tsc.c):
 * which figures are measurements, ppm
 * arithmetic (the kernel's log lines: ../tsckmsg.h).
 */
#ifndef TP_PROBE_TSC_H
#define TP_PROBE_TSC_H

#include <stddef.h>
#include <stdint.h>

/* ---- which figures are independent measurements ---- */
enum tsc_fig { TSC_FIG_STUB, TSC_FIG_KERNEL, TSC_FIG_USER, TSC_FIGS };

struct tsc_deps_in {
	int kernel_is_early;	 /* the kernel's figure is tsc_early_khz= */
	int early_is_user;	 /* ... whose value is not the stub's figure: a person's */
	int kvm_clock;		 /* kvm-clock registered: the kernel took tsc_khz from the host */
	const char *clocksource; /* the current one: what CLOCK_MONOTONIC_RAW counts */
};

/*
 * What each figure was taken from rather than measured: derived[i] is NULL
 * for a measurement of its own, else "stub", "kernel", "typed" or
 * the hypervisor's clocksource ("kvm-clock", tscref_raw_scaled_by()). The stub always measures. The kernel's figure is the stub's
 * with the stub's tsc_early_khz=, the typed figure ("typed") with a value
 * a person set (issue 50: the origin is the value's, not the word's), else
 * the hypervisor's under kvm-clock (kvm_get_tsc_khz()
 * as x86_platform.calibrate_tsc). The user figure counts TSC ticks across
 * CLOCK_MONOTONIC_RAW, which under clocksource tsc (or tsc-early) is those
 * ticks scaled by the kernel's own figure, under kvm-clock (xen, Hyper-V's
 * TSC page) by the host's: tscref_raw_scaled_by() decides, not this file.
 */
void tsc_derivation(const struct tsc_deps_in *in, const char *derived[TSC_FIGS]);

/* Figure i's origin, following derived[] to its end: "stub", "kernel", "user",
 * "typed" or "kvm-clock". */
const char *tsc_origin(const char *const derived[TSC_FIGS], int i);
/* 1 when a and b have the same origin: they agree by construction. */
int tsc_by_construction(const char *const derived[TSC_FIGS], int a, int b);
extern const char *const tsc_fig_name[TSC_FIGS];

/* The signed offset of a from b, (a - b) / b, in parts per million; NaN
 * when either is not positive. (The stub's unsigned integer distance is
 * tp_ppm_apart(), common/x86clock.h.) */
double tsc_ppm_offset(double a, double b);
/* (max - min) / median of v[0..n) in ppm; sorts v. 0 for n < 2. */
double tsc_spread_ppm(double *v, size_t n, double *median_out);

#endif
