/* SPDX-License-Identifier: MIT */
/*
 * Stub output: human messages and TP1 records to ConOut and, when ConOut
 * does not already reach a serial port, to EFI_SERIAL_IO_PROTOCOL too.
 * See docs/stub.md, "Output".
 */
#ifndef TP_BOOT_CONSOLE_H
#define TP_BOOT_CONSOLE_H

#include <efi.h>

#include "../common/record.h"
#include "../common/stubfile.h"

#define TP_CON_MAX_TEXT_OUT 8

struct tp_console {
	SIMPLE_TEXT_OUTPUT_INTERFACE *conout;
	EFI_SERIAL_IO_PROTOCOL *serial;	/* NULL: none, or ConOut covers it */
	int conout_serial;		/* ConOut includes a UART terminal */
	/*
	 * Records are written byte-exact to the serial port, never through
	 * the firmware's terminal emulation (which may wrap at its column
	 * count); consoles that are not serial get them through their own
	 * text-output protocol, text_out[].
	 */
	EFI_SERIAL_IO_PROTOCOL *rec_serial;
	SIMPLE_TEXT_OUTPUT_INTERFACE *text_out[TP_CON_MAX_TEXT_OUT];
	int n_text_out;
	unsigned int columns;		/* ConOut's current mode */
	struct tp_rec rec;		/* scratch record, 8 KiB: not on the stack */
	/* every record emitted, for the stub's file (common/stubfile.h) */
	char *kept;
	UINTN kept_len, kept_cap;
	UINTN kept_lost;		/* records not kept: no memory */
};

void tp_con_init(struct tp_console *c, EFI_SYSTEM_TABLE *st);
/* One human line (ASCII, no newline needed). */
void tp_con_msg(struct tp_console *c, const char *line);
/* Starts a record in c->rec; finish with tp_con_emit(). */
struct tp_rec *tp_con_rec(struct tp_console *c, const char *type);
/* A calib record from the stub for reference ref (tsc.c, arm64/calib.c). */
struct tp_rec *tp_con_calib(struct tp_console *c, const char *ref);
/* The stub's calib_summary: the reference chosen (NULL: none) and its Hz. */
struct tp_rec *tp_con_calib_summary(struct tp_console *c, const char *chosen, uint64_t hz);
/* key = "0x<hex>" in r. */
void tp_con_hex(struct tp_rec *r, const char *key, uint64_t v);
/* Prints the record and keeps a copy in c->kept. */
void tp_con_emit(struct tp_console *c);

/*
 * One failure, said twice: a line for people ("<what> <file>: Not Found (EFI
 * status 0x800000000000000e)") and a stub_error record (what: key) for
 * programs. file may be NULL.
 */
void tp_con_error(struct tp_console *c, const char *key, const char *what, const char *file,
		  EFI_STATUS status);
/*
 * "WARNING: <file>: <text>" on screen and a stub_warning record (what: key,
 * file) left open for its own keys: finish it with tp_con_emit().
 */
struct tp_rec *tp_con_warn(struct tp_console *c, const char *key, const char *file,
			   const char *text);

#endif
