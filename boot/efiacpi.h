/* SPDX-License-Identifier: MIT */
/*
 * The ACPI tables under boot services, for every architecture's stub: the
 * root from the EFI configuration table and the identity mapping that reads
 * them (the TSC calibration's HPET and PM timer, the SPCR, the GTDT).
 */
#ifndef TP_BOOT_EFIACPI_H
#define TP_BOOT_EFIACPI_H

#include <efi.h>

#include "../common/acpi.h"

/*
 * The ACPI root from the EFI configuration table (also used by spcrcon.c
 * for the SPCR). Returns NULL, or why there is no usable RSDP.
 */
const char *tp_efi_acpi_root(EFI_SYSTEM_TABLE *st, struct tp_acpi_root *root);
/* tp_acpi_map_fn for boot services: physical memory is identity-mapped. */
const void *tp_acpi_map_identity(uint64_t phys, size_t len, void *ctx);

#endif
