/* SPDX-License-Identifier: MIT */
/*
 * ACPI table parsers: RSDP -> XSDT/RSDT -> a table by its signature (the
 * stub finds its SPCR so too), the FADT's PM timer and the HPET table.
 * Freestanding C (no libc), shared by the stub (which walks the tables in
 * memory) and the suite (platclock.c parses the FADT the kernel exports).
 * Physical addresses go through a map callback, which is the identity under
 * UEFI (memory is identity-mapped, UEFI 2.10, 2.3.4) and a lookup into
 * recorded blobs in tests/unit/test_acpi.c.
 */
#ifndef TP_COMMON_ACPI_H
#define TP_COMMON_ACPI_H

#include <stddef.h>
#include <stdint.h>

/* ACPI 6.5, 5.2.6 System Description Table Header */
#define ACPI_HDR_LEN 36
/* ACPI 6.5, 5.2.3.2 Generic Address Structure: Address Space ID */
#define ACPI_GAS_MEMORY 0
#define ACPI_GAS_IO 1

/* Returns a pointer to len readable bytes at phys, or NULL. */
typedef const void *(*tp_acpi_map_fn)(uint64_t phys, size_t len, void *ctx);

struct tp_acpi_root {
	int revision;		/* RSDP revision: 0 = ACPI 1.0, 2 = ACPI 2.0+ */
	uint64_t xsdt;		/* 0 when absent */
	uint32_t rsdt;
	char oem_id[7];
};

struct tp_pm_timer {
	int space;		/* ACPI_GAS_IO or ACPI_GAS_MEMORY */
	uint64_t address;
	unsigned int bits;	/* counter width read: always 24 (see tp_acpi_fadt_pm_timer) */
	int ext_flag;		/* FADT TMR_VAL_EXT set: firmware claims 32 bits (reported only) */
	int from_x;		/* address came from X_PM_TMR_BLK */
};

struct tp_hpet_table {
	uint64_t address;	/* base of the register block (system memory) */
	uint32_t block_id;	/* Event Timer Block ID */
	uint8_t number;
	uint16_t min_tick;
};

/* Sum of len bytes modulo 256: 0 for a valid table. */
uint8_t tp_acpi_sum(const void *p, size_t len);

/* Validates an RSDP (ACPI 6.5, 5.2.5.3): signature, checksum of the first
 * 20 bytes, and for revision >= 2 the length and extended checksum.
 * avail = bytes readable at p. Returns 0 or a negative code. */
int tp_acpi_parse_rsdp(const void *p, size_t avail, struct tp_acpi_root *root);

/*
 * Finds the table with signature sig via the XSDT (or the RSDT when there is
 * no XSDT or it is invalid), checking each table's checksum. Returns the
 * table (its full length mapped) and sets *len, or NULL. *bad_sum counts
 * tables with sig whose checksum failed (they are skipped).
 */
const void *tp_acpi_find(const struct tp_acpi_root *root, const char sig[4],
			 tp_acpi_map_fn map, void *ctx, uint32_t *len, int *bad_sum);

/* FADT (ACPI 6.5, 5.2.9): the PM timer. Returns 0, or a negative code with
 * *why set to a reason ("hardware-reduced ACPI", "PM_TMR_BLK is 0", ...). */
int tp_acpi_fadt_pm_timer(const void *fadt, uint32_t len, struct tp_pm_timer *pm,
			  const char **why);

/* HPET table (IA-PC HPET 1.0a, 3.2.4). Returns 0, or negative with *why. */
int tp_acpi_hpet(const void *hpet, uint32_t len, struct tp_hpet_table *h, const char **why);

#endif
