/* SPDX-License-Identifier: MIT */
/*
 * The ACPI SPCR table (Microsoft, "Serial Port Console Redirection Table",
 * revisions 1-4), EFI-free: which UART the firmware redirects its console
 * to, and the Linux console= word for it, as Linux's own SPCR parser
 * (drivers/acpi/spcr.c) would build it. Tested by tests/unit/test_spcr.c.
 */
#ifndef TP_BOOT_SPCR_H
#define TP_BOOT_SPCR_H

#include <stddef.h>
#include <stdint.h>

#include "../common/buf.h"
#include "cmdline.h"

/* SPCR: every revision's table is at least 80 bytes long */
#define TP_SPCR_MIN_LEN 80

struct tp_spcr {
	uint8_t revision;
	uint8_t interface_type;	/* DBG2 serial port subtype (0 = full 16550) */
	uint8_t space;		/* ACPI_GAS_MEMORY or ACPI_GAS_IO */
	uint8_t bit_width;	/* GAS Register Bit Width */
	uint8_t access_size;	/* GAS Access Size: 1 byte ... 4 qword, 0 legacy */
	uint64_t address;
	uint8_t baud_code;	/* the table's Baud Rate field */
	uint32_t baud;		/* 0: "as is", already configured */
	int tty;		/* 0..3 for the legacy COM ports, else -1 */
	const char *iotype;	/* "io", "mmio", "mmio16", "mmio32" */
};

/*
 * Parses an SPCR table of len bytes (its header's Length must fit in len).
 * Returns 0 when it describes a 16550-compatible UART Linux can use as a
 * console, or negative with *why set ("SPCR checksum bad", "SPCR too short
 * (under 80 bytes)", ...). s is filled as far as the table could be read.
 */
int tp_spcr_parse(const void *table, size_t len, struct tp_spcr *s, const char **why);

/* DBG2 subtype name for messages: "16550", "ARM PL011", ..., "unknown". */
const char *tp_spcr_interface_name(uint8_t type);

/*
 * The console word for a parsed SPCR: "console=ttyS<n>[,<baud>]" for the
 * legacy ports 0x3f8, 0x2f8, 0x3e8, 0x2e8, else
 * "console=uart8250,<iotype>,0x<address>[,<baud>]".
 */
void tp_spcr_console_word(const struct tp_spcr *s, struct tp_buf *b);

/*
 * 1 when line already has a console= for this UART: console=ttyS<n> with
 * the same n, or console=uart[8250],io|mmio*,<address> with the same
 * address and space.
 */
int tp_spcr_console_named(const char *line, const struct tp_spcr *s);

enum tp_spcr_add { TP_SPCR_ADDED, TP_SPCR_NAMED, TP_SPCR_NO_ROOM };

/*
 * The console word for s into w, and appended to line (a command line in a
 * buffer of TP_CMDLINE_MAX + 1 bytes) after a space, unless line already
 * names the UART (TP_SPCR_NAMED) or the word and a space would take it past
 * TP_CMDLINE_MAX characters (TP_SPCR_NO_ROOM); line is then unchanged.
 */
enum tp_spcr_add tp_spcr_console_add(char *line, const struct tp_spcr *s, struct tp_buf *w);

#endif
