/* SPDX-License-Identifier: MIT */
/* The kernel's LoadOptions are UCS-2 (UEFI 2.10, 9.1); EFI-free. */
#ifndef TP_BOOT_UCS2_H
#define TP_BOOT_UCS2_H

#include <stddef.h>
#include <stdint.h>

/* UTF-8 to NUL-terminated UCS-2 (BMP; others become U+FFFD). Returns the
 * units written without the NUL; stops at cap_units - 1. */
size_t tp_utf8_to_ucs2(uint16_t *out, size_t cap_units, const char *in);

/* UCS-2 back to UTF-8, NUL-terminated; stops before a character that does
 * not fit. Returns the bytes written without the NUL. */
size_t tp_ucs2_to_utf8(char *out, size_t cap, const uint16_t *in);

/*
 * 1 when the UCS-2 LoadOptions u say exactly line (UTF-8, at most 2047
 * bytes): no unit Linux's EFI stub would end the line at or misread (a
 * control character, a surrogate), and the same bytes back (a sequence
 * that did not convert comes back as U+FFFD or '?'). The stub hands over no other line.
 */
int tp_ucs2_is_line(const uint16_t *u, const char *line);

#endif
