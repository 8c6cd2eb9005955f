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
/* tsc_early_khz= is an x86 kernel parameter: not added on arm64 */
#define TP_ARCH_TSC_EARLY 0
/* how the per-CPU step reaches the other CPUs (arm64/mp.c) */
#define TP_ARCH_MP_VIA " (PSCI CPU_ON)"
/* file mode hands the initrd= file over through LoadFile2 (stub.c) */
#define TP_ARCH_INITRD_LF2 1
#else
#define TP_ARCH_NAME "x86-64"
/* PE/COFF IMAGE_FILE_MACHINE_AMD64 */
#define TP_ARCH_PE_MACHINE 0x8664
#define TP_ARCH_CONSOLE "console=tty0 console=ttyS0,115200"
#define TP_ARCH_BOOT_FILE "BOOTX64.EFI"
#define TP_ARCH_COUNTER "TSC"
#define TP_ARCH_TSC_EARLY 1
#define TP_ARCH_MP_VIA " (MP services)"
#define TP_ARCH_INITRD_LF2 0
#endif

/*
 * The counter the stub's milestones and the per-CPU round trips are read
 * with (the boot timeline, timeprobe.boot_tsc=, mpshare.h): the TSC, or
 * CNTVCT_EL0, each ordered against the loads before it. The pre-OS latency scan
 * (hwlat.c) is x86's: MP services and interrupts off with cli; on arm64
 * arm64/hwlat.c says it did not run, and why.
 */
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

/* 0: tp_rdtsc's trailing LFENCE already keeps later stores after the read. */
static inline __attribute__((always_inline)) uint64_t tp_after(uint64_t v)
{
	(void)v;
	return 0;
}
#endif

#endif
