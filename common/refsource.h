/* SPDX-License-Identifier: MIT */
/*
 * What the firmware's references count on this build's architecture, and
 * so whether each is independent of the CPU's own counter (the TSC, or
 * CNTVCT_EL0 on arm64): the one definition, which the arm64 stub writes
 * into its calib records (boot/arm64/calib.c) and userland/tscref.c follows
 * (tscref_counts(), tscref_counter_independent()). Freestanding, tested on
 * the host (tests/unit/test_refsource.c).
 */
#ifndef TP_COMMON_REFSOURCE_H
#define TP_COMMON_REFSOURCE_H

struct tp_refsource {
	const char *arch;	/* "x86" or "arm64" */
	const char *ref;	/* the stub's and drift's name: "stall", "rtc", "gtdt" */
	const char *counts;	/* what it counts, tscref_counts()'s word ("cntvct"); NULL: not known */
	const char *why;	/* what it counts, or why that is not known, in words */
};

/* This build's architecture, as the rows name it. */
#if defined(__aarch64__)
#define TP_REFSOURCE_ARCH "arm64"
#else
#define TP_REFSOURCE_ARCH "x86"
#endif

/* ref's row for arch; NULL when none (x86's platform counters are
 * tscref.c's, which follows the hypervisor bit the stub cannot see). */
const struct tp_refsource *tp_refsource_on(const char *arch, const char *ref);
/* ... for this build's architecture. */
const struct tp_refsource *tp_refsource(const char *ref);

/*
 * 1, 0 or -1 (not known): is a reference that counts counts independent of
 * the CPU's counter? Not when it counts "tsc" or "cntvct" itself; not known
 * when it counts "host" (the host's clock, under a hypervisor or an
 * emulator) or counts is NULL; else it counts a counter of its own.
 */
int tp_counts_independent(const char *counts);

#endif
