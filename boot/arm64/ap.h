/* SPDX-License-Identifier: MIT */
/*
 * Another arm64 CPU before the OS, started by PSCI CPU_ON at tp_ap_entry
 * (ap.c) for the per-CPU step (mp.c). The CPU starts with its MMU and
 * data cache off, at the stub's exception level (DEN 0022, 6.4); the entry
 * code takes the boot CPU's translation regime from struct tp_ap_boot (the
 * firmware's identity map, so the same addresses and cacheable, coherent
 * memory on both), a stack, and calls tp_ap_main(), which reads its own
 * identity and then answers round trips on its struct tp_ap_line
 * (tp_rt_answer) until told to stop or until it waits longer than
 * idle_ticks. The entry code then
 * calls PSCI CPU_OFF, so the CPU is off again before Linux starts it.
 */
#ifndef TP_BOOT_ARM64_AP_H
#define TP_BOOT_ARM64_AP_H

#include <stdint.h>

#include "../mpshare.h"

/* The round trip's line (one cache line, written only by the pair). */
struct tp_ap_line {
	struct tp_rt rt;	/* the round trip (../mpshare.h) */
	uint64_t idle_ticks;	/* how long it waits for a call */
	uint64_t mpidr, midr, cntfrq;	/* its MPIDR_EL1, MIDR_EL1, CNTFRQ_EL0 */
	uint64_t ready, finished;
} __attribute__((aligned(64)));

/*
 * Read with the MMU off, so cleaned to the point of coherency before
 * CPU_ON (ap.c); the entry code reads its fields by these offsets.
 */
struct tp_ap_boot {
	uint64_t stack_top;	/* 0 */
	uint64_t mair, tcr, ttbr0, sctlr;	/* 8, 16, 24, 32: MAIR, TCR, TTBR0, SCTLR at el */
	uint64_t cptr;		/* 40: CPACR_EL1, or CPTR_EL2 at EL2 */
	uint64_t hcr;		/* 48: HCR_EL2 at EL2 */
	uint64_t el;		/* 56: the boot CPU's exception level */
	uint64_t hvc;		/* 64: the PSCI conduit for CPU_OFF: 1 HVC, 0 SMC */
	struct tp_ap_line *line;	/* 72 */
} __attribute__((aligned(64)));

/* The entry point CPU_ON is given; x0 = the struct tp_ap_boot. */
void tp_ap_entry(void);

/*
 * Fills b from this (the boot) CPU's registers for a CPU that starts on
 * stack (its top) and answers on line, and cleans b and the entry code to
 * the point of coherency. Returns 0, or -1 when the exception level is
 * neither 1 nor 2.
 */
int tp_ap_prepare(struct tp_ap_boot *b, void *stack_top, struct tp_ap_line *line, int hvc);

#endif
