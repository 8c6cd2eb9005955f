/* SPDX-License-Identifier: MIT */
/*
 * A serial console for Linux from the ACPI SPCR table (Microsoft, "Serial
 * Port Console Redirection Table"): the UART the firmware redirects to,
 * found through the firmware's ACPI root (efiacpi.c) and parsed (spcr.c,
 * EFI-free), its console= word added to the user's line unless the line
 * already names that UART; said on screen and as the stub_console record.
 */
#ifndef TP_BOOT_SPCRCON_H
#define TP_BOOT_SPCRCON_H

#include <efi.h>

#include "console.h"

/* line: the user's words (TP_CMDLINE_MAX + 1 bytes), the word added in place. */
void tp_spcr_console(struct tp_console *con, EFI_SYSTEM_TABLE *st, char *line);

#endif
