/* SPDX-License-Identifier: MIT */
/*
 * The few x86 instructions the stub needs: port I/O, MMIO, RDTSC, CPUID, RDMSR.
 * EFI-free, but privileged: only the EFI binary calls them.
 */
#ifndef TP_BOOT_X86_H
#define TP_BOOT_X86_H

#include <stdint.h>

static inline uint8_t tp_inb(uint16_t port)
{
	uint8_t v;

	__asm__ __volatile__("inb %w1, %b0" : "=a"(v) : "Nd"(port));
	return v;
}

static inline uint32_t tp_inl(uint16_t port)
{
	uint32_t v;

	__asm__ __volatile__("inl %w1, %0" : "=a"(v) : "Nd"(port));
	return v;
}

static inline void tp_outb(uint8_t v, uint16_t port)
{
	__asm__ __volatile__("outb %b0, %w1" : : "a"(v), "Nd"(port));
}

static inline uint32_t tp_mmio_read32(uint64_t addr)
{
	return *(volatile uint32_t *)(uintptr_t)addr;
}

static inline uint64_t tp_mmio_read64(uint64_t addr)
{
	return *(volatile uint64_t *)(uintptr_t)addr;
}

static inline void tp_mmio_write64(uint64_t addr, uint64_t v)
{
	*(volatile uint64_t *)(uintptr_t)addr = v;
}

/*
 * RDTSC is not ordered against earlier loads (Intel SDM vol. 2B, RDTSC):
 * LFENCE before it keeps a reference read from drifting across the TSC read.
 */
static inline uint64_t tp_rdtsc(void)
{
	uint32_t lo, hi;

	__asm__ __volatile__("lfence; rdtsc; lfence" : "=a"(lo), "=d"(hi) : : "memory");
	return (uint64_t)hi << 32 | lo;
}

struct tp_cpuid {
	uint32_t eax, ebx, ecx, edx;
};

static inline struct tp_cpuid tp_cpuid(uint32_t leaf, uint32_t subleaf)
{
	struct tp_cpuid r;

	__asm__ __volatile__("cpuid"
			     : "=a"(r.eax), "=b"(r.ebx), "=c"(r.ecx), "=d"(r.edx)
			     : "a"(leaf), "c"(subleaf));
	return r;
}

/*
 * RDMSR (Intel SDM vol. 2B): #GP on a register the CPU does not have, so
 * callers check the CPUID bit that enumerates it first.
 */
static inline uint64_t tp_rdmsr(uint32_t reg)
{
	uint32_t lo, hi;

	__asm__ __volatile__("rdmsr" : "=a"(lo), "=d"(hi) : "c"(reg));
	return (uint64_t)hi << 32 | lo;
}

/* IA32_TSC_ADJUST (SDM vol. 4, table 2-2), present when CPUID.(EAX=07H,ECX=0):EBX[1] */
#define TP_MSR_TSC_ADJUST 0x3b

/* 1 when this CPU enumerates IA32_TSC_ADJUST. */
static inline int tp_has_tsc_adjust(void)
{
	return tp_cpuid(0, 0).eax >= 7 && (tp_cpuid(7, 0).ebx & (1u << 1));
}

#endif
