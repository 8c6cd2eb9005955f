/* SPDX-License-Identifier: MIT */
/*
 * TSC calibration arithmetic: EFI-free, no floating point, tested on the host
 * (tests/unit/test_calib.c). The measurement loops live in measure.c; this
 * file only turns recorded (tsc ticks, reference ticks) pairs into Hz,
 * rejects outliers and reports the spread. See docs/stub.md.
 */
#ifndef TP_BOOT_CALIB_H
#define TP_BOOT_CALIB_H

#include <stddef.h>
#include <stdint.h>

/* ACPI 6.5, 4.8.3.3 Power Management Timer: a fixed 3.579545 MHz clock. */
#define ACPI_PM_TIMER_HZ 3579545u
/* The 8254 PIT input clock: 14.31818 MHz / 12. */
#define PIT_HZ 1193182u
/* HPET 1.0a, 2.3.4: COUNTER_CLK_PERIOD is in femtoseconds, at most 100 ns. */
#define HPET_FS_PER_S 1000000000000000ull
#define HPET_PERIOD_MAX_FS 100000000u

/* Defaults: 5 rounds of 50 ms per reference (docs/stub.md, "Calibration"). */
#define TP_CALIB_ROUNDS_DEFAULT 5
#define TP_CALIB_ROUNDS_MAX 32
#define TP_CALIB_MS_DEFAULT 50
#define TP_CALIB_MS_MIN 1
#define TP_CALIB_MS_MAX 1000

/*
 * Outlier rule: a round is rejected when it lies further from the median of
 * all rounds than max(TP_CALIB_OUTLIER_FLOOR_PPM, TP_CALIB_OUTLIER_MADS x
 * 1.4826 x MAD), MAD being the median absolute deviation in ppm (1.4826 MAD
 * estimates one standard deviation for normal noise). The floor keeps a set
 * of nearly identical rounds from rejecting a member that is 3 ppm off.
 */
#define TP_CALIB_OUTLIER_FLOOR_PPM 50
#define TP_CALIB_OUTLIER_MADS 3

/* Hardware references disagreeing by more than this earn a warning. */
#define TP_CALIB_WARN_PPM 500

struct tp_round {
	uint64_t tsc_ticks;	/* TSC delta over the round */
	uint64_t ref_ticks;	/* reference delta over the round */
};

struct tp_calib_result {
	uint64_t tsc_hz;	/* median of the kept rounds */
	uint32_t spread_ppm;	/* (max - min) / median of the kept rounds */
	uint32_t rounds;	/* rounds measured */
	uint32_t rejected;	/* rounds rejected as outliers or invalid */
	uint32_t threshold_ppm;	/* the outlier threshold that was applied */
};

/* floor(a * b / c) (rounded to nearest when round != 0) with a 128-bit
 * intermediate; returns UINT64_MAX when c == 0 or the result overflows. */
uint64_t tp_muldiv64(uint64_t a, uint64_t b, uint64_t c, int round);

/* (cur - prev) modulo 2^bits: the delta of a free-running up-counter that
 * wrapped at most once (PM timer: 24 or 32 bits; HPET read as 32 bits). */
uint64_t tp_counter_delta(uint64_t prev, uint64_t cur, unsigned int bits);

/* TSC Hz from a round against a reference of ref_hz. 0 when ref_ticks == 0. */
uint64_t tp_hz_from_ticks(uint64_t tsc_ticks, uint64_t ref_ticks, uint64_t ref_hz);
/* TSC Hz from a round against the HPET, whose period is in femtoseconds. */
uint64_t tp_hz_from_hpet(uint64_t tsc_ticks, uint64_t hpet_ticks, uint32_t period_fs);
/* HPET frequency in Hz (rounded) from its period; 0 for an invalid period. */
uint64_t tp_hpet_hz(uint32_t period_fs);
int tp_hpet_period_valid(uint32_t period_fs);

/* Reference ticks for a window of ms milliseconds. */
uint64_t tp_ref_ticks_for_ms(uint64_t ref_hz, uint32_t ms);
uint64_t tp_hpet_ticks_for_ms(uint32_t period_fs, uint32_t ms);
/* PIT channel 2 latch for ms milliseconds, capped to the 16-bit counter
 * (65535 ticks = 54.9 ms); *ms_out gets the window actually used. */
uint16_t tp_pit_latch_for_ms(uint32_t ms, uint32_t *ms_out);

/* |a - b| / ref in ppm (saturating at UINT32_MAX). */
uint32_t tp_ppm_diff(uint64_t a, uint64_t b, uint64_t ref);

/* Median of n values; sorts v in place. 0 when n == 0. For even n, the mean
 * of the two middle values (rounded down). */
uint64_t tp_median_u64(uint64_t *v, size_t n);

/*
 * Reduces per-round TSC frequencies to one result with the outlier rule
 * above. hz[] holds n <= TP_CALIB_ROUNDS_MAX values; zero entries are invalid
 * rounds (timeouts) and count as rejected. Returns 0, or -1 when no round
 * survived (res->tsc_hz = 0).
 */
int tp_calib_reduce(const uint64_t *hz, size_t n, struct tp_calib_result *res);

/* CPUID-derived frequencies (Intel SDM vol. 2A, CPUID leaves 15H and 16H). */
/* Leaf 0x15: eax = denominator, ebx = numerator, ecx = crystal Hz (may be 0).
 * base_mhz (leaf 0x16 eax, or 0) derives the crystal when ecx is 0, as
 * Linux's native_calibrate_tsc() does. Returns TSC Hz or 0. */
uint64_t tp_cpuid15_hz(uint32_t eax, uint32_t ebx, uint32_t ecx, uint32_t base_mhz,
		       uint64_t *crystal_hz);

/*
 * A round's limits in TSC ticks from a rough TSC rate (tp_rough_tsc_hz(); 0
 * when unknown: then TP_CALIB_ROUGH_HZ_UNKNOWN, above any CPU's, so that no
 * limit is too short). The timeout only tells a dead counter from a slow one:
 * 20 windows of ms plus 2 s, generous because under QEMU TCG on a loaded
 * host a vCPU can lose the host CPU for hundreds of ms inside one window.
 */
#define TP_CALIB_ROUGH_HZ_UNKNOWN 10000000000ull
uint64_t tp_calib_timeout_tsc(uint64_t rough_hz, uint32_t ms);
/* That timeout in milliseconds, for a window of ms. */
uint64_t tp_calib_timeout_ms(uint32_t ms);

/*
 * The most a whole calibration takes, in seconds (rounded up), announced to
 * the launcher's watcher before it starts (common/announce.h): each of refs
 * references runs rounds rounds of ms, every round tried `attempts` times,
 * plus one round that gives up at its timeout (a reference that does not
 * count), plus 1 s for the rough rate and the set-up.
 */
uint32_t tp_calib_limit_s(uint32_t refs, uint32_t rounds, uint32_t ms, uint32_t attempts);
/* us microseconds in TSC ticks at rough_hz (0: unknown, as above), rounded down. */
uint64_t tp_calib_tsc_for_us(uint64_t rough_hz, uint64_t us);

/*
 * The hypervisor's CPUID leaves, read only when CPUID 1 ECX bit 31 is set.
 * Leaf 0x40000000: EAX the highest hypervisor leaf, EBX ECX EDX its
 * signature. Leaf 0x40000010 (VMware's timing leaf, also KVM/QEMU's with
 * vmware-cpuid-freq): EAX the TSC, EBX the local APIC timer, in kHz.
 *
 * tp_hv_timing_leaf(): whether leaf 0x40000000's EAX offers 0x40000010, i.e.
 * 0x40000010 <= max_leaf <= 0x400000ff. A hypervisor interface owns one
 * 0x100-leaf block: the "Hypervisor CPUID interface proposal" (Alok Kataria,
 * LKML, Oct 2008, lwn.net/Articles/301888/) gives it 0x40000000-0x400000ff
 * with the timing leaf at 0x40000010, and Linux 6.1 keeps that division:
 * hypervisor_cpuid_base() (arch/x86/include/asm/processor.h, used by kvm.c
 * and acrn.h) looks for a signature at 0x40000000, 0x40000100, ...
 * 0x4000ff00; KVM's own CPUID code (arch/x86/kvm/cpuid.c, before
 * get_out_of_range_cpuid_entry()) reads a base leaf's EAX as the highest
 * leaf of its 0x100 block only (Hyper-V 0x40000000-0x400000ff, KVM
 * 0x40000100-0x400001ff when QEMU offers both); vmware.c reads 0x40000010
 * when EAX >= 0x40000010. A max leaf past 0x400000ff speaks of another
 * block, so it is no promise that 0x40000010 is this interface's timing leaf.
 */
#define TP_HV_LEAF_BASE 0x40000000u
#define TP_HV_TIMING_LEAF 0x40000010u
#define TP_HV_LEAF_LAST 0x400000ffu
int tp_hv_timing_leaf(uint32_t max_leaf);

/*
 * Twelve bytes of three CPUID registers, in the order given, as the text
 * every record shows: CPUID 0's vendor (EBX, EDX, ECX: "GenuineIntel") or a
 * hypervisor signature from 0x40000000 (EBX, ECX, EDX: "KVMKVMKVM"). A NUL
 * byte ends it, a byte outside 0x20-0x7e becomes '?', trailing spaces are
 * cut ("bhyve bhyve " -> "bhyve bhyve"). out[] is always terminated.
 */
void tp_cpuid_text(uint32_t r1, uint32_t r2, uint32_t r3, char out[13]);

/* Largest pairwise disagreement of n frequencies, in ppm of ref_hz. */
uint32_t tp_max_disagreement_ppm(const uint64_t *hz, size_t n, uint64_t ref_hz);

#endif
