/* SPDX-License-Identifier: MIT */
/*
 * What the stub's portable files must know of the architecture they are
 * built for, selected here and nowhere else: its name in messages, the PE
 * machine of a kernel it can start, the default serial console, the
 * firmware's default file name, its counter's name, whether the kernel
 * takes tsc_early_khz= and how file mode hands over the initramfs. The instructions themselves are in x86.h and
 * arm64.h; the calibration and the per-CPU work in tsc.c, measure.c, mp.c
 * (x86) and arm64/calib.c, arm64/mp.c (arm64), chosen by boot/boot.mk.
 * Host builds (the unit tests) are x86's.
 */
#ifndef TP_BOOT_ARCH_H
#define TP_BOOT_ARCH_H

#if defined(__aarch64__)
#define TP_ARCH_NAME "arm64"
/* PE/COFF IMAGE_FILE_MACHINE_ARM64 */
#define TP_ARCH_PE_MACHINE 0xaa64
/* QEMU virt's, the Raspberry Pi's and most servers' PL011 (ttyAMA0) */
#define TP_ARCH_CONSOLE "console=ttyAMA0,115200"
#define TP_ARCH_BOOT_FILE "BOOTAA64.EFI"
/* the counter the stub calibrates (arm64.h) */
#define TP_ARCH_COUNTER "CNTVCT_EL0"
/* what the stub's messages call that counter's calibration ("no ... calibration") */
#define TP_ARCH_CALIBRATED "counter"
/* tsc_early_khz= is an x86 kernel parameter: not added on arm64 */
#define TP_ARCH_TSC_EARLY 0
/* how the per-CPU step reaches the other CPUs (arm64/mp.c) */
#define TP_ARCH_MP_VIA " (PSCI CPU_ON)"
#else
#define TP_ARCH_NAME "x86-64"
/* PE/COFF IMAGE_FILE_MACHINE_AMD64 */
#define TP_ARCH_PE_MACHINE 0x8664
#define TP_ARCH_CONSOLE "console=tty0 console=ttyS0,115200"
#define TP_ARCH_BOOT_FILE "BOOTX64.EFI"
#define TP_ARCH_COUNTER "TSC"
#define TP_ARCH_CALIBRATED "TSC"
#define TP_ARCH_TSC_EARLY 1
#define TP_ARCH_MP_VIA " (MP services)"
#endif

/*
 * The counter the stub's milestones and the per-CPU round trips are read
 * with (the boot timeline, the stub file's boot_tsc, mpshare.h): the TSC, or
 * CNTVCT_EL0, each ordered against the loads before it; the running
 * CPU's ID, interrupts off and on, and the SMI counter for the pre-OS scan
 * and the per-CPU step, which run the same code on both (hwlatrun.h,
 * mpshare.h) and start the other CPUs their own way (hwlat.c, mp.c
 * through MP services; arm64/hwlat.c, arm64/mp.c through PSCI).
 */
#include "../common/stubcpu.h"

#if defined(__aarch64__)
#include "arm64.h"
static inline __attribute__((always_inline)) uint64_t tp_counter(void)
{
	return tp_cntvct();
}

/* A spin-wait hint. */
static inline __attribute__((always_inline)) void tp_relax(void)
{
	__asm__ __volatile__("yield" ::: "memory");
}

/* The running CPU's name in its per-CPU records: MPIDR_EL1 packed (common/stubcpu.h). */
#define TP_ARCH_CPU_ID_KEY "mpidr"
#define TP_ARCH_CPU_ID_NAME "MPIDR"
static inline __attribute__((always_inline)) uint32_t tp_cpu_id(void)
{
	return tp_mpidr_pack(TP_ARM64_MRS(mpidr_el1));
}

/* Every exception masked (DAIF); returns what to restore. */
static inline __attribute__((always_inline)) uint64_t tp_irq_off(void)
{
	uint64_t f = TP_ARM64_MRS(daif);

	__asm__ __volatile__("msr daifset, #0xf" ::: "memory");
	return f;
}

static inline __attribute__((always_inline)) void tp_irq_restore(uint64_t f)
{
	__asm__ __volatile__("msr daif, %0" : : "r"(f) : "memory");
}

/* arm64 has no SMI counter: never called (smi_readable is 0). */
static inline __attribute__((always_inline)) uint64_t tp_smi_count(void)
{
	return 0;
}

/*
 * 0, computed from v where the compiler cannot see it: a store of x +
 * tp_after(v) has an address-free data dependency on v, so it cannot be
 * made before v was read (Linux's arch_counter_enforce_ordering).
 */
static inline __attribute__((always_inline)) uint64_t tp_after(uint64_t v)
{
	uint64_t z;

	__asm__("eor %0, %1, %1" : "=r"(z) : "r"(v));
	return z;
}
#else
#include "x86.h"
static inline __attribute__((always_inline)) uint64_t tp_counter(void)
{
	return tp_rdtsc();
}

static inline __attribute__((always_inline)) void tp_relax(void)
{
	__builtin_ia32_pause();
}

/* The running CPU's APIC ID: x2APIC (CPUID 0xB) where enumerated, else xAPIC. */
#define TP_ARCH_CPU_ID_KEY "apic"
#define TP_ARCH_CPU_ID_NAME "APIC"
static inline __attribute__((always_inline)) uint32_t tp_cpu_id(void)
{
	if (tp_cpuid(0, 0).eax >= 0xb) {
		struct tp_cpuid r = tp_cpuid(0xb, 0);

		if (r.ebx)
			return r.edx;
	}
	return tp_cpuid(1, 0).ebx >> 24;
}

/* Interrupts off (CLI); returns the flags to restore. */
static inline __attribute__((always_inline)) uint64_t tp_irq_off(void)
{
	uint64_t f;

	__asm__ __volatile__("pushfq; popq %0; cli" : "=r"(f) : : "memory");
	return f;
}

static inline __attribute__((always_inline)) void tp_irq_restore(uint64_t f)
{
	__asm__ __volatile__("pushq %0; popfq" : : "r"(f) : "memory", "cc");
}

/* IA32_SMI_COUNT (Intel SDM vol. 4, table 2-20 onwards): SMIs since reset, bits 31:0. */
static inline __attribute__((always_inline)) uint64_t tp_smi_count(void)
{
	return tp_rdmsr(0x34) & 0xffffffffu;
}

/* 0: tp_rdtsc's trailing LFENCE already keeps later stores after the read. */
static inline __attribute__((always_inline)) uint64_t tp_after(uint64_t v)
{
	(void)v;
	return 0;
}
#endif

#endif
