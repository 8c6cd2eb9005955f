/* SPDX-License-Identifier: MIT */
/*
 * Model-specific registers of one CPU, read through the kernel's msr driver
 * (/dev/cpu/N/msr, CONFIG_X86_MSR; arch/x86/kernel/msr.c): a pread() of 8
 * bytes at the register's number runs rdmsr on that CPU and copies EDX:EAX
 * little-endian. Needs CAP_SYS_RAWIO (root); PID 1 has it.
 */
#ifndef TP_MSR_H
#define TP_MSR_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define MSR_IA32_TSC_ADJUST 0x3b	/* SDM vol. 4, 2.1; CPUID.(EAX=07H,ECX=0):EBX[1] */
#define MSR_SMI_COUNT 0x34		/* Intel SDM vol. 4, 2.x: bits 31:0 count SMIs since reset */

/* The value of one pread() of 8 bytes: N bytes read (or -1 with ERR set
 * from errno) from BUF. 0 and *val, or -errno (-EIO for a short read). */
int msr_decode(ssize_t n, int err, const unsigned char *buf, uint64_t *val);

/* rdmsr REG on CPU: 0 and *val, or -errno. */
int msr_read(int cpu, uint32_t reg, uint64_t *val);

/* Why msr_read() of REG on CPU failed with RC, in words, into WHY. */
void msr_why(int cpu, uint32_t reg, int rc, char *why, size_t len);

#endif
