/* SPDX-License-Identifier: MIT */
/*
 * The stub's per-CPU records, one definition for the stub that writes them
 * (boot/mp.c, boot/arm64/mp.c, boot/hwlatrec.c) and the suite that reads
 * them back from the stub's file (userland/stubcpus.c): a `stub_tscsync`
 * record per AP (`what` `pair`: the BSP against it) and one for the BSP
 * (`bsp`), a `stub_hwlat` record per CPU (`cpu`) and the scan's `summary`.
 * They carry every CPU the stub measured, up to TP_STUB_CPUS_MAX, and are
 * the only way the per-CPU figures reach the suite. A CPU is named by its
 * hardware ID: the APIC ID (`apic`, `apic_a`, `apic_b`) on x86, MPIDR_EL1
 * packed by tp_mpidr_pack() (`mpidr`, ...) on arm64. Freestanding C (docs/stub.md, docs/records.md).
 */
#ifndef TP_COMMON_STUBCPU_H
#define TP_COMMON_STUBCPU_H

#include <stddef.h>
#include <stdint.h>

#include "record.h"

/*
 * The most CPUs the stub's pre-OS work measures (the offsets and the scan)
 * and the suite reads from these records. Below it the bound is the
 * firmware's pool: the stub allocates its per-CPU slots by the count and
 * halves the count while AllocatePool fails; the CPUs beyond are counted
 * (aps_over_cap), not measured.
 */
#define TP_STUB_CPUS_MAX 4096

/*
 * A CPU's hardware ID on arm64: MPIDR_EL1's Aff3 [39:32] moved to [31:24]
 * beside Aff2, Aff1, Aff0 [23:0] (Arm ARM D17.2.101); the MT and U bits and
 * RES0 dropped. Linux logs the same fields unpacked ("Booted secondary
 * processor 0x0000000001": MPIDR_HWID_BITMASK).
 */
static inline uint32_t tp_mpidr_pack(uint64_t mpidr)
{
	return (uint32_t)(((mpidr >> 8) & 0xff000000u) | (mpidr & 0xffffffu));
}

/* IA32_TSC_ADJUST of a CPU (x86; arm64: never present). */
struct tp_sc_adjust {
	int present;		/* the CPU has IA32_TSC_ADJUST */
	int64_t value;
};

/*
 * A measured pair: theta = TSC_AP - TSC_BSP lies in [lo, hi] ticks
 * (common/tscsync.h; hi - lo <= rtt), rtt the tightest round trip, samples
 * the round trips taken (>= 1), consistent when every round trip's interval
 * intersected.
 */
struct tp_sc_pair {
	uint32_t apic;		/* the AP's hardware ID */
	int64_t lo_ticks, hi_ticks;
	uint64_t rtt_ticks, samples;
	int consistent;
	struct tp_sc_adjust adjust;
};

/*
 * A CPU's pre-OS scan: coverage in ppm of the window, gaps above the
 * threshold, the longest and their sum in ns, the SMIs IA32_SMI_COUNT
 * counted across the window (smi_read 0: not read). reported 0: it did not
 * report within the time-out, the figures are 0.
 */
struct tp_sc_cpu {
	uint32_t apic;
	int reported;
	uint32_t coverage_ppm;
	uint64_t count, max_ns, total_ns;
	int smi_read;
	uint64_t smi;
};

#define TP_SC_TSCSYNC "stub_tscsync"
#define TP_SC_HWLAT "stub_hwlat"
#define TP_SC_WHAT "what"
#define TP_SC_PAIR "pair"		/* stub_tscsync: the BSP against one AP */
#define TP_SC_BSP "bsp"			/* stub_tscsync: the BSP itself */
#define TP_SC_CPU "cpu"			/* stub_hwlat: one CPU's scan */
#define TP_SC_SUMMARY "summary"		/* stub_hwlat: the scan's plan and merge */

/* The hardware ID's key: TP_SC_APIC or TP_SC_MPIDR, "_a" (the BSP) and "_b" (the AP) in a pair. */
#define TP_SC_APIC "apic"
#define TP_SC_MPIDR "mpidr"

/* A pair's keys. */
#define TP_SC_LO "lo_ticks"
#define TP_SC_HI "hi_ticks"
#define TP_SC_OFFSET "offset_ticks"
#define TP_SC_BOUND "bound_ticks"
#define TP_SC_RTT "round_trip_ticks"
#define TP_SC_SAMPLES "samples"
#define TP_SC_CONSISTENT "consistent"
#define TP_SC_EXCLUDES_ZERO "excludes_zero"
#define TP_SC_ABSENT "absent"		/* true: not measured, `reason` says why */
#define TP_SC_ADJUST "tsc_adjust"	/* x86: IA32_TSC_ADJUST, null when the CPU has none */
#define TP_SC_ADJUST_REASON "tsc_adjust_reason"

/* A scanned CPU's keys. */
#define TP_SC_REPORTED "reported"
#define TP_SC_COVERAGE "coverage_pct"
#define TP_SC_GAPS "gaps_n"
#define TP_SC_MAX_NS "max_ns"
#define TP_SC_TOTAL_NS "total_ns"
#define TP_SC_SMI "smi_n"		/* null: IA32_SMI_COUNT not read */

/* The scan summary's keys. */
#define TP_SC_WINDOW "window_ms"
#define TP_SC_THRESH "thresh_us"
#define TP_SC_SYSTEM_WIDE "system_wide_n"
#define TP_SC_SYSTEM_WIDE_MAX "system_wide_max_ns"
#define TP_SC_SCANNED "scanned"
/* The summary's hidden-time keys (common/hidden.h): the reference the BSP read at its
 * chunks' edges ("none": TP_SC_HIDDEN_REASON says why), the chunks compared, those where the
 * TSC fell behind it (hidden gaps), the largest deficit in ns and that chunk's uncertainty. */
#define TP_SC_HIDDEN_REF "hidden_ref"
#define TP_SC_HIDDEN_REASON "hidden_reason"
#define TP_SC_HIDDEN_CHUNK_MS "hidden_chunk_ms"
#define TP_SC_HIDDEN_PPM "hidden_ppm"
#define TP_SC_HIDDEN_CHUNKS "hidden_chunks_n"
#define TP_SC_HIDDEN_GAPS "hidden_gaps_n"
#define TP_SC_HIDDEN_MAX "hidden_max_deficit_ns"
#define TP_SC_HIDDEN_MAX_UNC "hidden_max_deficit_unc_ns"

/* A measured pair's figures (lo_ticks .. excludes_zero) into r. */
void tp_sc_pair_keys(struct tp_rec *r, const struct tp_sc_pair *e);
/* tsc_adjust (and why it is null) into r. */
void tp_sc_adjust_keys(struct tp_rec *r, const struct tp_sc_adjust *a);
/* A scanned CPU's ID (under id_key), `reported` and, when it did, its figures into r. */
void tp_sc_scan_keys(struct tp_rec *r, const char *id_key, const struct tp_sc_cpu *c);

/* Every pair the file holds (the suite's side; the summary's fields, more room). */
struct tp_sc_preos {
	int have_bsp;		/* the `bsp` record was read */
	uint32_t bsp_apic;	/* the BSP's hardware ID (x86 APIC ID, arm64 packed MPIDR) */
	struct tp_sc_adjust bsp_adjust;
	size_t n;		/* measured pairs */
	struct tp_sc_pair pair[TP_STUB_CPUS_MAX - 1];
};

/* Every scanned CPU the file holds. */
struct tp_sc_scan {
	int have_summary;	/* the `summary` record, with the scan run */
	uint32_t window_ms, thresh_us, system_wide;
	uint64_t system_wide_max_ns;
	size_t n;
	struct tp_sc_cpu cpu[TP_STUB_CPUS_MAX];
};

#endif
