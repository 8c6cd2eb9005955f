/* SPDX-License-Identifier: MIT */
/*
 * x86 clocks in integers: the rates of the ACPI PM timer, the PIT and the
 * HPET, the arithmetic that turns their ticks into Hz (128-bit, no floating
 * point), the TSC rate CPUID 0x15 states and the hypervisor's CPUID leaves.
 * Freestanding C (no libc), shared by the stub (its calibration, boot/calib.c
 * and boot/tsc.c) and the suite (the tsc probe, the fingerprint, platclock.c),
 * so both stages read the hardware by the same rules. Tested on the host by
 * tests/unit/test_calib.c.
 */
#ifndef TP_COMMON_X86CLOCK_H
#define TP_COMMON_X86CLOCK_H

#include <stddef.h>
#include <stdint.h>

/* ACPI 6.5, 4.8.3.3 Power Management Timer: a fixed 3.579545 MHz clock. */
#define ACPI_PM_TIMER_HZ 3579545u
/* The 8254 PIT input clock: 14.31818 MHz / 12. */
#define PIT_HZ 1193182u
/* HPET 1.0a, 2.3.4: COUNTER_CLK_PERIOD is in femtoseconds, at most 100 ns. */
#define HPET_FS_PER_S 1000000000000000ull
#define HPET_PERIOD_MAX_FS 100000000u

/* HPET 1.0a, 2.3 register offsets */
#define HPET_GCAP_ID 0x000
#define HPET_GEN_CONF 0x010
#define HPET_MAIN_COUNTER 0x0f0
#define HPET_CONF_ENABLE 0x1ull
#define HPET_CAP_COUNT_SIZE (1ull << 13)

/* GCAP_ID bits 63:32 = COUNTER_CLK_PERIOD in femtoseconds. */
static inline uint32_t tp_hpet_period_fs(uint64_t gcap_id)
{
	return (uint32_t)(gcap_id >> 32);
}

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
/* 1 for a period the spec allows: 1..HPET_PERIOD_MAX_FS. */
int tp_hpet_period_valid(uint32_t period_fs);

/* Reference ticks for a window of ms milliseconds. */
uint64_t tp_ref_ticks_for_ms(uint64_t ref_hz, uint32_t ms);
uint64_t tp_hpet_ticks_for_ms(uint32_t period_fs, uint32_t ms);
/* PIT channel 2 latch for ms milliseconds, capped to the 16-bit counter
 * (65535 ticks = 54.9 ms); *ms_out gets the window actually used. */
uint16_t tp_pit_latch_for_ms(uint32_t ms, uint32_t *ms_out);

/* How far apart a and b are, in ppm of ref: |a - b| / ref, rounded, never
 * negative, saturating at UINT32_MAX (also for ref == 0). */
uint32_t tp_ppm_apart(uint64_t a, uint64_t b, uint64_t ref);

/* CPUID-derived frequencies (Intel SDM vol. 2A, CPUID leaves 15H and 16H). */
/* Leaf 0x15: eax = denominator, ebx = numerator, ecx = crystal Hz (may be 0).
 * base_mhz (leaf 0x16 eax, or 0) derives the crystal when ecx is 0, as
 * Linux's native_calibrate_tsc() does. Returns TSC Hz or 0. */
uint64_t tp_cpuid15_hz(uint32_t eax, uint32_t ebx, uint32_t ecx, uint32_t base_mhz,
		       uint64_t *crystal_hz);

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

#endif
