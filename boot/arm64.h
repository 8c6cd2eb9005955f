/* SPDX-License-Identifier: MIT */
/*
 * The few arm64 system registers the stub reads (Arm ARM, D17 "AArch64 System
 * Register Descriptions"): the generic timer's virtual count and frequency,
 * and the CPU's identity. All are readable at EL1 and EL2, where UEFI runs.
 * EFI-free; only the EFI binary calls them.
 */
#ifndef TP_BOOT_ARM64_H
#define TP_BOOT_ARM64_H

#include <stdint.h>

#define TP_ARM64_MRS(reg)                                               \
	({                                                              \
		uint64_t v_;                                            \
		__asm__ __volatile__("mrs %0, " #reg : "=r"(v_));       \
		v_;                                                     \
	})

/*
 * CNTVCT_EL0 after an ISB: a read of the counter may otherwise be made
 * early, before instructions before it (Arm ARM D12.1.2, "the counter
 * can be read speculatively"); Linux's __arch_counter_get_cntvct does the
 * same.
 */
static inline uint64_t tp_cntvct(void)
{
	uint64_t v;

	__asm__ __volatile__("isb; mrs %0, cntvct_el0" : "=r"(v) : : "memory");
	return v;
}

/* CNTFRQ_EL0: the frequency firmware programmed; not interpreted by hardware. */
static inline uint64_t tp_cntfrq(void)
{
	return TP_ARM64_MRS(cntfrq_el0) & 0xffffffffu;
}

/* MIDR_EL1: implementer [31:24], variant [23:20], part [15:4], revision [3:0]. */
static inline uint64_t tp_midr(void)
{
	return TP_ARM64_MRS(midr_el1);
}

/* ID_AA64MMFR0_EL1.ECV [63:60]: 1 = CNTVCTSS_EL0 and friends, 2 = also CNTPOFF. */
static inline unsigned int tp_ecv(void)
{
	return (unsigned int)(TP_ARM64_MRS(id_aa64mmfr0_el1) >> 60) & 0xf;
}

/* CurrentEL [3:2]: the exception level the stub runs at (1 or 2). */
static inline unsigned int tp_current_el(void)
{
	return (unsigned int)(TP_ARM64_MRS(CurrentEL) >> 2) & 3;
}

#endif
