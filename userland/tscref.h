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

/* 1, 0 or -1 (not known): is counter (drift's names: "CLOCK_MONOTONIC_RAW",
 * "hpet", "pmtimer") independent of the TSC under clocksource cs (NULL or
 * "": unread)? why: one line, starting "circular: " when it is not. */
int tscref_counter_independent(const char *counter, const char *cs, char *why, size_t len);

/*
 * A TSC rate measured against counter, compared with a figure that was
 * itself measured against figure_ref (the stub's or our calibration's
 * reference; the kernel's ktsc.ref; NULL: unknown): is the comparison
 * independent of what it measures? Not when the counter derives from the
 * TSC, nor when the figure came from the same counter. 1, 0, -1; why.
 */
int tscref_ppm_independent(const char *counter, const char *cs, const char *figure_ref,
			   char *why, size_t len);

#endif
