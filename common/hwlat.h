/* SPDX-License-Identifier: MIT */
/*
 * The arithmetic of the pre-OS hardware-latency scan (boot/hwlat.c, docs/
 * probes/hwlat.md): every CPU reads the TSC back to back with interrupts
 * off; a step between two reads above the threshold is a gap, time the CPU
 * did not run our loop (firmware, an SMI, a hypervisor). Here: the plan
 * every CPU follows (threshold, bin edges, all in TSC ticks so the spinning
 * CPU only compares and adds), a gap's histogram bin (1 us bins from 1 to
 * 100 us, then doubling), the largest gaps kept per CPU, coverage, and the
 * merge of the CPUs' largest gaps into system-wide stalls (seen by every
 * sampling CPU at once, such as an SMI, which stops all of them) and
 * per-CPU ones. Freestanding C (no libc), built by the stub and the suite,
 * tested by tests/unit/test_hwlat.c.
 */
#ifndef TP_COMMON_HWLAT_H
#define TP_COMMON_HWLAT_H

#include <stddef.h>
#include <stdint.h>

#define TP_HWLAT_LIN_BINS 99		/* [1,2) .. [99,100) us */
#define TP_HWLAT_LOG_BINS 15		/* [100,200) .. [100 * 2^14 us, inf) */
#define TP_HWLAT_BINS (TP_HWLAT_LIN_BINS + TP_HWLAT_LOG_BINS)
#define TP_HWLAT_TOP 16			/* largest gaps kept per CPU */
#define TP_HWLAT_SMI_GAP_US 10		/* a gap this long reads the SMI counter */

/* The bounds of the contract words hwlat_ms and hwlat_thresh_us (common/words.c). */
#define TP_HWLAT_MS_QUICK 1000
#define TP_HWLAT_MS_FULL 10000
#define TP_HWLAT_MS_MAX 600000
#define TP_HWLAT_THRESH_US_DEFAULT 1
#define TP_HWLAT_THRESH_US_MAX 1000

/* What every CPU is told, computed once by the BSP from the calibration. */
struct tp_hwlat_plan {
	uint64_t tsc_hz;
	uint64_t thresh_ticks;		/* a step this long or longer is a gap */
	uint64_t smi_ticks;		/* a gap this long reads IA32_SMI_COUNT */
	uint64_t edge_ticks[TP_HWLAT_BINS];	/* each bin's lower edge */
};

/* SMI attribution of one gap. */
enum tp_hwlat_smi { TP_HWLAT_SMI_UNKNOWN, TP_HWLAT_SMI_NO, TP_HWLAT_SMI_YES };

struct tp_hwlat_gap {
	uint64_t start_tsc;		/* the read before the gap */
	uint64_t ticks;
	uint32_t smi;			/* enum tp_hwlat_smi */
	uint32_t shared;		/* CPUs whose kept gaps overlap it, itself included */
};

/* One CPU's scan; zeroed by the BSP, filled by that CPU alone. */
struct tp_hwlat_cpu {
	uint32_t apic;			/* the CPU's hardware ID, tp_cpu_id(): its APIC ID
					 * from CPUID on x86, MPIDR_EL1 packed on arm64 */
	uint32_t has_smi;		/* IA32_SMI_COUNT read before and after */
	uint64_t smi_before, smi_after;
	uint64_t samples;		/* TSC reads */
	uint64_t first_tsc, last_tsc;	/* the first and last read */
	uint64_t count, total_ticks, max_ticks;	/* gaps */
	uint32_t hist[TP_HWLAT_BINS];
	uint32_t ntop;
	struct tp_hwlat_gap top[TP_HWLAT_TOP];	/* largest first */
};

/*
 * Fills p for a TSC of tsc_hz (> 0) and a threshold of thresh_us
 * (1..TP_HWLAT_THRESH_US_MAX, clamped). Edges below the threshold stay,
 * their bins stay empty.
 */
void tp_hwlat_plan_init(struct tp_hwlat_plan *p, uint64_t tsc_hz, uint32_t thresh_us);

/* The bin of a gap of ticks (>= edge_ticks[0]; shorter ones count in bin 0). */
unsigned int tp_hwlat_bin(const struct tp_hwlat_plan *p, uint64_t ticks);

/* A bin's lower edge in us: 1..99, then 100, 200, 400, ... */
uint64_t tp_hwlat_bin_lo_us(unsigned int bin);

/* Counts one gap in c (histogram, count, total, max, largest kept). */
void tp_hwlat_note(struct tp_hwlat_cpu *c, const struct tp_hwlat_plan *p, uint64_t start_tsc,
		   uint64_t ticks, enum tp_hwlat_smi smi);

/* ticks in ns at tsc_hz (rounded down); 0 when tsc_hz is 0. */
uint64_t tp_hwlat_ns(uint64_t ticks, uint64_t tsc_hz);

/* The part of window_ticks the CPU spent reading, first to last read, in ppm (<= 1e6). */
uint32_t tp_hwlat_coverage_ppm(const struct tp_hwlat_cpu *c, uint64_t window_ticks);

struct tp_hwlat_merge {
	uint32_t sampling;		/* CPUs with at least two reads */
	uint32_t system_wide;		/* distinct gaps every sampling CPU saw */
	uint32_t per_cpu;		/* kept gaps no other CPU saw */
	uint64_t system_wide_max_ticks;
};

/*
 * Sets each kept gap's `shared`: how many CPUs (of n, those that sampled)
 * kept a gap overlapping it within slack_ticks (the TSC offsets between
 * the CPUs and their read time). A gap shared by every sampling CPU is
 * system-wide; with one sampling CPU nothing is. Counts distinct
 * system-wide gaps on the first sampling CPU (every one of them is there).
 */
void tp_hwlat_merge(struct tp_hwlat_cpu *c, size_t n, uint64_t slack_ticks,
		    struct tp_hwlat_merge *m);

/*
 * Whether IA32_SMI_COUNT (MSR 0x34, Intel SDM vol. 4, table 2-12 onwards:
 * Nehalem and later) can be read without a #GP: an Intel CPU of family 6,
 * model 0x1a or later, on bare metal or under KVM (which emulates the
 * counter since Linux 4.14); never under another hypervisor or an emulator
 * with another vendor string. vendor: CPUID 0's text; hv: the hypervisor's
 * signature from 0x40000000, "" on bare metal (CPUID.1:ECX[31] clear).
 */
int tp_hwlat_smi_readable(const char *vendor, uint32_t cpuid1_eax, const char *hv);

#endif
