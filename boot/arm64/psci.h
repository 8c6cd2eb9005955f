/* SPDX-License-Identifier: MIT */
/*
 * The few PSCI calls the arm64 stub makes (Arm DEN 0022, "Arm Power State
 * Coordination Interface", 1.1): its version, CPU_ON to start another CPU
 * at our entry point, AFFINITY_INFO to see it off again, CPU_OFF on that
 * CPU at its end. SMC Calling Convention (Arm DEN 0028): function ID in
 * x0, arguments in x1..x3, result in x0; the conduit (HVC or SMC) is the
 * one the FADT names. EFI-free.
 */
#ifndef TP_BOOT_ARM64_PSCI_H
#define TP_BOOT_ARM64_PSCI_H

#include <stdint.h>

#define PSCI_VERSION 0x84000000u
#define PSCI_CPU_OFF 0x84000002u
#define PSCI_CPU_ON_64 0xc4000003u
#define PSCI_AFFINITY_INFO_64 0xc4000004u

/* Return codes (DEN 0022, 5.2.2) */
#define PSCI_SUCCESS 0
#define PSCI_NOT_SUPPORTED (-1)
#define PSCI_INVALID_PARAMETERS (-2)
#define PSCI_DENIED (-3)
#define PSCI_ALREADY_ON (-4)
#define PSCI_ON_PENDING (-5)
#define PSCI_INTERNAL_FAILURE (-6)
#define PSCI_NOT_PRESENT (-7)
#define PSCI_DISABLED (-8)
#define PSCI_INVALID_ADDRESS (-9)

/* AFFINITY_INFO's answers (DEN 0022, 5.7) */
#define PSCI_AFFINITY_ON 0
#define PSCI_AFFINITY_OFF 1
#define PSCI_AFFINITY_ON_PENDING 2

/* x0..x17 may be changed by the callee under SMCCC 1.0; 1.1 keeps x4..x17. */
#define PSCI_CLOBBERS "x4", "x5", "x6", "x7", "x8", "x9", "x10", "x11", "x12", \
		"x13", "x14", "x15", "x16", "x17", "memory"

static inline int64_t tp_psci_call(int hvc, uint64_t fn, uint64_t a1, uint64_t a2, uint64_t a3)
{
	register uint64_t x0 __asm__("x0") = fn;
	register uint64_t x1 __asm__("x1") = a1;
	register uint64_t x2 __asm__("x2") = a2;
	register uint64_t x3 __asm__("x3") = a3;

	if (hvc)
		__asm__ __volatile__("hvc #0" : "+r"(x0), "+r"(x1), "+r"(x2), "+r"(x3) : : PSCI_CLOBBERS);
	else
		__asm__ __volatile__("smc #0" : "+r"(x0), "+r"(x1), "+r"(x2), "+r"(x3) : : PSCI_CLOBBERS);
	return (int64_t)x0;
}

/* A PSCI return code's name, for records. */
static inline const char *tp_psci_err(int64_t rc)
{
	static const char *const names[] = {
		"SUCCESS", "NOT_SUPPORTED", "INVALID_PARAMETERS", "DENIED", "ALREADY_ON",
		"ON_PENDING", "INTERNAL_FAILURE", "NOT_PRESENT", "DISABLED", "INVALID_ADDRESS",
	};

	return rc <= 0 && rc >= -9 ? names[-rc] : "unknown PSCI return code";
}

#endif
