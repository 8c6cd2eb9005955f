// SPDX-License-Identifier: MIT
/* The ACPI tables under boot services; see efiacpi.h. */
#include <efi.h>
#include <efilib.h>

#include "efiacpi.h"

/* UEFI memory is identity-mapped during boot services (UEFI 2.10, 2.3.4). */
const void *tp_acpi_map_identity(uint64_t phys, size_t len, void *ctx)
{
	(void)len;
	(void)ctx;
	return (const void *)(uintptr_t)phys;
}

/*
 * UEFI 2.10, 4.6 EFI Configuration Table: the ACPI 2.0 RSDP GUID
 * (XSDT) is preferred, the ACPI 1.0 one (RSDT only) is the fallback.
 */
const char *tp_efi_acpi_root(EFI_SYSTEM_TABLE *st, struct tp_acpi_root *root)
{
	static EFI_GUID acpi20 = ACPI_20_TABLE_GUID;
	static EFI_GUID acpi10 = ACPI_TABLE_GUID;
	const void *rsdp20 = NULL, *rsdp10 = NULL;

	for (UINTN i = 0; i < st->NumberOfTableEntries; i++) {
		EFI_CONFIGURATION_TABLE *t = &st->ConfigurationTable[i];

		if (!CompareGuid(&t->VendorGuid, &acpi20))
			rsdp20 = t->VendorTable;
		else if (!CompareGuid(&t->VendorGuid, &acpi10))
			rsdp10 = t->VendorTable;
	}
	if (rsdp20 && tp_acpi_parse_rsdp(rsdp20, 36, root) == 0)
		return NULL;
	if (rsdp10 && tp_acpi_parse_rsdp(rsdp10, 20, root) == 0)
		return NULL;
	if (rsdp20 || rsdp10)
		return "ACPI RSDP checksum or signature invalid";
	return "no ACPI RSDP in the EFI configuration table";
}
