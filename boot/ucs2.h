/* SPDX-License-Identifier: MIT */
/* The kernel's LoadOptions are UCS-2 (UEFI 2.10, 9.1); EFI-free. */
#ifndef TP_BOOT_UCS2_H
#define TP_BOOT_UCS2_H

#include <stddef.h>
#include <stdint.h>

/* UTF-8 to NUL-terminated UCS-2 (BMP; others become U+FFFD). Returns the
 * units written without the NUL; stops at cap_units - 1. */
size_t tp_utf8_to_ucs2(uint16_t *out, size_t cap_units, const char *in);

#endif
