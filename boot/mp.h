/* SPDX-License-Identifier: MIT */
/*
 * The counter's offsets between CPUs before the OS, the BSP against each
 * AP with the cache-line round trips of common/tscsync.h: on x86 the TSC,
 * through the firmware's MP services (mp.c, boot/mpservices.h), with
 * IA32_TSC_ADJUST on each CPU; on arm64 CNTVCT_EL0, the CPUs started by
 * PSCI CPU_ON (arm64/mp.c), with CNTFRQ_EL0 on each. Prints `stub_tscsync`
 * records (common/stubcpu.h), the only way its figures reach the suite.
 * See docs/stub.md, "TSC offsets before the OS", and docs/arm64.md.
 */
#ifndef TP_BOOT_MP_H
#define TP_BOOT_MP_H

#include <efi.h>

#include "../common/stubcpu.h"
#include "console.h"

/*
 * Per AP, on both architectures (mp.c, arm64/mp.c): round trips for
 * MP_PLAN_MS and at least MP_MIN_ROUNDS, at most MP_MAX_ROUNDS, after
 * MP_WARMUP that are not counted (the AP is still coming out of its
 * wake-up), never longer than MP_HARD_MS (under TCG a vCPU thread may wait
 * for the host for milliseconds). The same plan as the quick profile of
 * the `tscsync` probe.
 */
#define MP_WARMUP 16
#define MP_MIN_ROUNDS 200
#define MP_MAX_ROUNDS 20000
#define MP_PLAN_MS 20
#define MP_HARD_MS 500
/* Time-outs: the AP's start, one answer, the AP's wait for the next call. */
#define MP_READY_MS 1000
#define MP_ANSWER_MS 100
#define MP_AP_IDLE_MS 1000
/* The line's seq when the BSP is done with an AP. */
#define MP_STOP UINT64_MAX

struct tp_mp_report {
	int measured;			/* the APs were enumerated and tried */
	uint32_t bsp_id;		/* the BSP's hardware ID (APIC ID; packed MPIDR) */
	uint64_t cpus;			/* the CPUs the firmware named, the BSP among them */
};

/* tsc_hz: the calibration's figure (0: unknown), for the spin time-outs. */
void tp_mp_tscsync(struct tp_console *con, EFI_SYSTEM_TABLE *st, uint64_t tsc_hz,
		   struct tp_mp_report *rep);

#endif
