/* SPDX-License-Identifier: MIT */
/*
 * The pre-OS hardware-latency scan (docs/probes/hwlat.md): the BSP and
 * every AP (StartupAllAPs of the firmware's MP services, non-blocking)
 * read the TSC back to back with interrupts off for one window, all at
 * once, and count the gaps (common/hwlat.h). hwlat.c runs it; hwlatrec.c
 * prints the `stub_hwlat` records (common/stubcpu.h), the only way its
 * figures reach the suite.
 */
#ifndef TP_BOOT_HWLAT_H
#define TP_BOOT_HWLAT_H

#include <efi.h>

#include "../common/stubcpu.h"
#include "../common/hidden.h"
#include "../common/hwlat.h"
#include "console.h"

/* CPUs scanned at most, BSP included; below it the pool's memory decides (hwlatrun.h). */
#define TP_HWLAT_SLOTS TP_STUB_CPUS_MAX

/* One CPU's part, a cache line apart from the others. */
struct tp_hwlat_slot {
	struct tp_hwlat_cpu cpu;
	uint32_t state;			/* enum in hwlat.c: free, claimed, done */
	uint32_t bsp;			/* 1: the BSP's slot */
} __attribute__((aligned(64)));

/*
 * The reference independent of the TSC that the BSP reads at its chunks'
 * edges (common/hidden.h), found by the calibration (tsc.c's
 * tp_tsc_scan_ref()); read NULL: none, why says so (arm64: none).
 */
struct tp_hwlat_ref {
	const char *name;		/* "hpet", "pmtimer" or "none" */
	const char *why;		/* none: why */
	uint32_t (*read)(const void *ctx);	/* one read, interrupts off: loads or port I/O */
	const void *ctx;
	struct tp_hidden_scale scale;	/* tsc_hz set by the scan */
};

struct tp_hwlat_report {
	uint32_t window_ms, thresh_us;
	int scanned;			/* the window ran, on the BSP at least */
	const char *why;		/* why not, or why the BSP alone; NULL: all went well */
	EFI_STATUS status;		/* of the firmware call that failed */
	uint32_t aps_expected;		/* enabled, healthy APs */
	uint32_t aps_started;		/* claimed a slot (ran our procedure) */
	uint32_t aps_over_cap;		/* beyond TP_HWLAT_SLOTS or the pool */
	uint32_t expected_cap;		/* room in expected_apic */
	uint32_t *expected_apic;	/* the APs' APIC IDs, from the firmware (pool) */
	int finish_seen;		/* the firmware signalled the APs' return */
	int smi_readable;		/* IA32_SMI_COUNT read on every CPU */
	int watchdog_off;		/* SetWatchdogTimer(0) succeeded */
	uint64_t tsc_hz, window_ticks, go_tsc, duration_ms;
	uint32_t nslots;		/* slots in use, the BSP's first */
	struct tp_hwlat_slot *slot;
	struct tp_hwlat_plan plan;
	struct tp_hwlat_merge merge;
	struct tp_hwlat_ref ref;	/* the BSP's reference for hidden time */
	struct tp_hidden_sum hidden;	/* its chunks against the TSC */
};

/*
 * window_ms 0: no scan, rep->why says so. stuck: the last AP's procedure
 * never returns (a test of the time-out). tsc_hz: the calibration's (0: no
 * scan, the plan is in ticks). ref: what the BSP reads at its chunks' edges.
 */
void tp_hwlat_scan(EFI_SYSTEM_TABLE *st, uint64_t tsc_hz, uint32_t window_ms,
		   uint32_t thresh_us, int stuck, const struct tp_hwlat_ref *ref,
		   struct tp_hwlat_report *rep);

/*
 * Room for up to max_aps APs' IDs from the pool (tp_hwlat_expect); fewer
 * when the pool has not that much. Then one AP at a time: kept, or counted
 * in aps_over_cap.
 */
void tp_hwlat_expect_init(struct tp_hwlat_report *rep, uint64_t max_aps);
void tp_hwlat_expect(struct tp_hwlat_report *rep, uint32_t id);
/* The scan's limit in s for window_ms and this many CPUs (announced by the stub). */
uint64_t tp_hwlat_limit_s(uint32_t window_ms, uint64_t cpus);

/* 1 when slot i reported (its procedure ended within the time-out). */
int tp_hwlat_reported(const struct tp_hwlat_report *rep, uint32_t i);

/* The records (hwlatrec.c). */
void tp_hwlat_say(struct tp_console *con, struct tp_hwlat_report *rep);

#endif
