/* SPDX-License-Identifier: MIT */
/*
 * The arm64 CPUs the ACPI tables list and how the stub may start them:
 * the MADT's GIC CPU interface (GICC) structures, one per CPU with its
 * MPIDR (ACPI 6.5, 5.2.12.14), and the FADT's ARM_BOOT_ARCH flags, which
 * say whether the firmware implements PSCI and whether it is called with
 * HVC or SMC (ACPI 6.5, 5.2.9.4). Freestanding, used by the arm64 stub
 * (boot/arm64/ap.c, which finds the CPUs that mp.c and hwlat.c start),
 * tested on the host (tests/unit/test_madt.c).
 */
#ifndef TP_COMMON_MADT_H
#define TP_COMMON_MADT_H

#include <stddef.h>
#include <stdint.h>

/* GICC Flags (ACPI 6.5, Table 5.44) */
#define TP_GICC_ENABLED 0x1u
#define TP_GICC_ONLINE_CAPABLE 0x8u

struct tp_gicc {
	uint64_t mpidr;		/* MPIDR_EL1's affinity fields as the table gives them */
	uint32_t uid;		/* ACPI Processor UID */
	uint32_t flags;
};

/*
 * The GICC structures of a MADT of len bytes: the first max into out[],
 * all of them counted in *total. Returns 0, or negative with *why set.
 */
int tp_madt_gicc(const void *madt, uint32_t len, struct tp_gicc *out, size_t max,
		 size_t *total, const char **why);

struct tp_arm_boot {
	int psci;		/* PSCI_COMPLIANT */
	int hvc;		/* PSCI_USE_HVC: the conduit is HVC, else SMC */
};

/* The FADT's ARM_BOOT_ARCH. Returns 0, or negative with *why set. */
int tp_fadt_arm_boot(const void *fadt, uint32_t len, struct tp_arm_boot *b, const char **why);

#endif
