/* SPDX-License-Identifier: MIT */
/*
 * Another arm64 CPU before the OS, for the per-CPU step (mp.c) and the
 * pre-OS scan (hwlat.c): the CPUs the ACPI tables list, and each started
 * by PSCI CPU_ON at tp_ap_entry (ap.c). The CPU starts with its MMU and
 * data cache off, at the stub's exception level (DEN 0022, 6.4); the entry
 * code takes the boot CPU's translation regime from struct tp_ap_boot (the
 * firmware's identity map, so the same addresses and cacheable, coherent
 * memory on both), a stack, and calls fn(arg); when fn returns it calls
 * PSCI CPU_OFF, so the CPU is off again before Linux starts it. fn runs
 * with every exception masked and may use no UEFI service.
 */
#ifndef TP_BOOT_ARM64_AP_H
#define TP_BOOT_ARM64_AP_H

#include <efi.h>
#include <stddef.h>
#include <stdint.h>

#include "../../common/madt.h"

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
	void (*fn)(void *);	/* 72: what the CPU runs, with the MMU on */
	void *arg;		/* 80 */
} __attribute__((aligned(64)));

#define TP_AP_STACK 4096

/* One AP's start: its boot block and its stack (tp_ap_kits). */
struct tp_ap_kit {
	struct tp_ap_boot boot;
	uint8_t stack[TP_AP_STACK] __attribute__((aligned(16)));
} __attribute__((aligned(64)));

/* The CPUs and the PSCI conduit. */
struct tp_ap_cpus {
	struct tp_arm_boot conduit;
	size_t n;			/* kept in cpu[] */
	size_t total;			/* the MADT's GICC structures */
	struct tp_gicc *cpu;		/* from the pool: up to TP_STUB_CPUS_MAX, as it allows */
};

/*
 * Kits for up to *n APs from the pool (mpshare.h, tp_pool_upto), *n
 * lowered to what it gave. Never freed: a CPU that did not stop may still
 * use its stack.
 */
struct tp_ap_kit *tp_ap_kits(uint64_t *n);

/* The entry point CPU_ON is given; x0 = the struct tp_ap_boot. */
void tp_ap_entry(void);

/* The FADT's conduit and the MADT's CPUs; NULL, or why the stub cannot start them. */
const char *tp_ap_find(EFI_SYSTEM_TABLE *st, struct tp_ap_cpus *c);

/*
 * Starts the CPU mpidr on fn(arg) with stack (its top), b filled from this
 * (the boot) CPU's registers and cleaned, with the entry code, to the point
 * of coherency. Returns PSCI's answer to CPU_ON, or PSCI_INTERNAL_FAILURE
 * when the stub runs at neither EL1 nor EL2.
 */
int64_t tp_ap_start(struct tp_ap_boot *b, int hvc, uint64_t mpidr, void *stack_top,
		    void (*fn)(void *), void *arg);

/* Polls AFFINITY_INFO until the CPU is OFF, up to ms: 1 when it is. */
int tp_ap_wait_off(int hvc, uint64_t mpidr, uint64_t ticks_per_ms, uint64_t ms);

#endif
