/* SPDX-License-Identifier: MIT */
/*
 * What a TSC figure is compared with, and whether that is independent of
 * the TSC: the kernel's own TSC figure and how it was derived, from its
 * log; whether a counter (CLOCK_MONOTONIC_RAW under a clocksource, hpet,
 * the PM timer) derives from the TSC. Pure: tested on recorded log text
 * (tests/unit/test_tscref.c). drift and the fingerprint use it.
 */
#ifndef TP_TSCREF_H
#define TP_TSCREF_H

#include <stddef.h>
#include <stdint.h>

/* The console's and the record's word for a TSC-derived CLOCK_MONOTONIC_RAW. */
#define TSCREF_CIRCULAR_RAW "circular: CLOCK_MONOTONIC_RAW is derived from the TSC on this machine"
/* ... and on arm64, for one derived from the generic timer's counter. */
#define TSCREF_CIRCULAR_RAW_GT "circular: CLOCK_MONOTONIC_RAW is derived from the generic " \
	"timer's counter (CNTVCT_EL0) on this machine"

/* Why the kernel's log gives no counter figure of its own. */
#if defined(__aarch64__)
#define TSCREF_NO_KERNEL_FIGURE "arm64: the kernel measures no counter frequency of its own; " \
	"it takes CNTFRQ_EL0 (or the firmware's clock-frequency), which the stub and the " \
	"counter probe report"
#else
#define TSCREF_NO_KERNEL_FIGURE "no \"tsc: Detected\" or \"Refined\" line left in the kernel log"
#endif

/* 1 when why is one of the two words above. */
int tscref_circular_raw(const char *why);

/* The kernel's TSC figure as its log (arch/x86/kernel/tsc.c) tells it. */
struct ktsc {
	int64_t khz;		/* its final tsc_khz; 0: no figure in the log */
	int64_t detected_khz;	/* "Detected ... MHz processor|TSC" (0: none) */
	int64_t refined_khz;	/* "Refined TSC clocksource calibration" (0: none) */
	const char *from;	/* how the kernel derived khz, in words */
	const char *ref;	/* the counter behind it, as drift names counters
				 * ("hpet", "pmtimer", "pit", "kvm-clock", "stub"), or NULL:
				 * not known from the log */
	char line[120];		/* the message khz came from */
	int64_t early_khz;	/* tsc_early_khz= (either spelling) on its line; 0: none */
	int early_is_user;	/* ... and it is not the stub's figure: a person set it */
};

/* Reads the kernel's figure from the log text (lines with or without a
 * /dev/kmsg or klogctl prefix, kmsg.h). stub_hz: the stub's figure (0:
 * none), which tells its tsc_early_khz= from one a person typed: the
 * origin is the value's, not the word's. 1 found, 0 none. */
int tscref_ktsc_parse(const char *log, int64_t stub_hz, struct ktsc *k);

/* 1 when tsc_early_khz= (0: none) is not the stub's word for its figure
 * stub_hz (0: no stub), tp_tsc_early_khz(): a person set it. */
int tscref_early_is_user(int64_t early_khz, int64_t stub_hz);

/*
 * What a run knows that decides what each reference counts: the chain
 * tscref_counts() follows. drift fills it from the machine (its
 * clocksource before and after the run, CPUID's hypervisor bit); the unit
 * test builds it for the three cases (tests/unit/test_independence.c).
 */
struct tscref_run {
	const char *cs;		/* the clocksource over the run; NULL or "": unread or it changed */
	const char *cs_why;	/* why cs is "" (NULL: it could not be read) */
	int guest;		/* under a hypervisor or an emulator: CPUID.1:ECX[31],
				 * /proc/cpuinfo's flag "hypervisor" */
};

/*
 * What ref counts on this run, the one place that follows the chain: the
 * TSC itself ("tsc"); the generic timer's counter on arm64 ("cntvct");
 * CLOCK_MONOTONIC_RAW what its clocksource counts (tsc, kvm-clock, xen and
 * Hyper-V's TSC page the TSC; hpet, acpi_pm, pit that counter); the HPET,
 * the PM timer and the PIT a counter of their own, but under a hypervisor
 * or an emulator the host's clock ("host", as QEMU and KVM emulate them);
 * the firmware's references (UEFI Stall(), on arm64 the RTC and the GTDT's
 * timers) what common/refsource.c, which the arm64 stub reads too, says;
 * a figure taken from CPUID 0x15/0x16 the CPU's claim ("cpuid"), which
 * under a hypervisor is the host's, as is the hypervisor's own figure
 * ("kvm-clock": kvmclock, CPUID 0x40000010). NULL: not known. how: the
 * step in words.
 */
const char *tscref_counts(const struct tscref_run *run, const char *ref, char *how, size_t len);

/*
 * Whose figure scales the CPU's counter into CLOCK_MONOTONIC_RAW under
 * clocksource cs, from the table tscref_counts() follows: "kernel" (tsc,
 * tsc-early; arm64's generic timer), or the hypervisor's, named by the
 * clocksource ("kvm-clock", "xen", "hyperv_clocksource_tsc_page"). NULL:
 * CLOCK_MONOTONIC_RAW counts another counter, or cs (NULL) is not known.
 */
const char *tscref_raw_scaled_by(const char *cs);

/* 1, 0 or -1 (not known): is counter (drift's names: "CLOCK_MONOTONIC_RAW",
 * "hpet", "pmtimer") independent of the TSC on this run, by itself (what a
 * stability figure needs)? what it counts decides (tp_counts_independent(),
 * common/refsource.h). why: one line, starting "circular: " when it is not. */
int tscref_counter_independent(const struct tscref_run *run, const char *counter, char *why,
			       size_t len);

/*
 * The answer every consumer reads (drift writes it into each rate's
 * record as `independent` and `why`; the readiness block, the verdict and
 * tp-report's datasheet read it from there): is the TSC's rate measured
 * against counter, compared with a figure itself measured against
 * figure_ref (the stub's or our calibration's reference, the kernel's
 * ktsc.ref; NULL: not known), independent of the TSC? Not when the counter
 * counts the TSC, nor when it counts the same clock as figure_ref (under
 * clocksource hpet, CLOCK_MONOTONIC_RAW is the HPET; under an emulator the
 * HPET and the PM timer are both the host's clock). 1, 0, -1; why.
 */
int tscref_ppm_independent(const struct tscref_run *run, const char *counter,
			   const char *figure_ref, char *why, size_t len);

struct tp_rec;

/* The answer into a record: reference, independent (true, false or null: ind < 0) and why. */
void tscref_rec(struct tp_rec *r, const char *reference, int ind, const char *why);

#endif
