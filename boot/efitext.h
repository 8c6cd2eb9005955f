/* SPDX-License-Identifier: MIT */
/* Firmware facts as text for messages and records, EFI-free. */
#ifndef TP_BOOT_EFITEXT_H
#define TP_BOOT_EFITEXT_H

#include <stdint.h>

#include "../common/buf.h"

/* Text of an EFI status, e.g. "Not Found" (UEFI 2.10, Appendix D). */
const char *tp_efi_status_str(uint64_t status);

#endif
