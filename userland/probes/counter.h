/* SPDX-License-Identifier: MIT */
/*
 * Probe `counter`, the pure part (counter_scan.c, tested in
 * tests/unit/test_counter_scan.c): a scan of back-to-back reads of the CPU's
 * counter for the signatures of the counter errata Linux works around in
 * drivers/clocksource/arm_arch_timer.c (Linux 6.1). A healthy counter read
 * on one CPU never goes backwards; every signature below is a step that a
 * correct counter cannot make, so interrupts and preemption between two
 * reads (a long forward step) never count as one:
 *  - COUNTER_SIG_858921, Cortex-A73 erratum 858921: a read wrong by about
 *    2^32 while bit 32 toggles (Linux keeps the older read when bit 32
 *    differs): a forward step of at least 2^31 across a bit-32 change, or
 *    a backward step of at least 2^31 (the return from such a read);
 *  - COUNTER_SIG_SUN50I, Allwinner A64 "UNKNOWN1": low bits indeterminate
 *    while bit 10 or above rolls over (7ff -> 000 -> 800, 7ff -> fff -> 800;
 *    Linux drops values whose low 9 bits are all 0 or all 1): a backward step
 *    to or from such a value;
 *  - COUNTER_SIG_FSL_HISI, Freescale A-008585 (reread until equal) or
 *    HiSilicon 161010101 (reread until two reads are < 32 ticks apart): any
 *    other backward step; one step cannot tell the two apart.
 */
#ifndef TP_PROBE_COUNTER_H
#define TP_PROBE_COUNTER_H

#include <stddef.h>
#include <stdint.h>

enum counter_sig { COUNTER_SIG_858921, COUNTER_SIG_SUN50I, COUNTER_SIG_FSL_HISI, COUNTER_SIGS };

struct counter_scan {
	uint64_t pairs;			/* back-to-back pairs scanned */
	uint64_t sig[COUNTER_SIGS];	/* steps with each signature */
	uint64_t backwards;		/* every backward step (all signatures but
					 * 858921's forward one are backward) */
	uint64_t max_back;		/* the largest backward step, ticks */
	uint64_t max_step;		/* the largest forward step, ticks */
	uint64_t min_step;		/* the smallest forward step (0: equal reads) */
	uint64_t steps_32;		/* forward steps of >= 32 ticks (HiSilicon's
					 * threshold; interrupts make them too) */
	uint64_t equal;			/* pairs that read the same value */
	uint64_t last;			/* the last value scanned */
	int have_last;
};

/* The Linux erratum a signature names, for records and tables. */
const char *counter_sig_name(enum counter_sig s);

void counter_scan_init(struct counter_scan *s);

/* Scans n reads in order, each with the one before it (the last value of
 * the previous call included): n pairs once a value came before. */
void counter_scan_run(struct counter_scan *s, const uint64_t *v, size_t n);

/* The signature of the step a -> b, or COUNTER_SIGS when it has none. */
enum counter_sig counter_step_sig(uint64_t a, uint64_t b);

/* Total steps with any signature. */
uint64_t counter_scan_signatures(const struct counter_scan *s);

#endif
