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
/* how the per-CPU step reaches the other CPUs (arm64/mp.c: not yet) */
#define TP_ARCH_MP_VIA ""
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
 * The counter the stub's milestones are read with (the boot timeline,
 * timeprobe.boot_tsc=): the TSC, or CNTVCT_EL0. The pre-OS latency scan
 * (hwlat.c) is x86's: MP services and interrupts off with cli; on arm64
 * arm64/hwlat.c says it did not run, and why.
 */
#if defined(__aarch64__)
#include "arm64.h"
static inline uint64_t tp_counter(void)
{
	return tp_cntvct();
}
#else
#include "x86.h"
static inline uint64_t tp_counter(void)
{
	return tp_rdtsc();
}
#endif

#endif
